#!/usr/bin/env python3
# model-api.py: a scripted stand-in for the model APIs the real agents call,
# on loopback, for tests/test-agents.c
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: model-api.py --project DIR --task TASK --log FILE [--dump FILE]
#
# Serves the Anthropic Messages API (Claude Code), the OpenAI Responses API
# (Codex, OpenCode) and the Gemini API (Gemini CLI), streaming where the
# agent asks for it, and POST /exfil for the prompt-injection task. Prints
# its port on a line of its own once it listens, then serves until its
# standard input closes.
#
# The "model" plays a script: the number of tool results in a request is
# the step it is at, and it asks for that step's tool call, in the tools the
# agent offered (its own file tools where it has them, its shell otherwise).
# Each tool result the agent sends back is recorded in the log, one JSON
# object a line: {"step": N, "action": "read", "output": TEXT, "error": B};
# {"finished": true} once it gave the last answer; {"exfil": BODY} for what
# reached /exfil. Requests that are no turn of the task (titles, routing,
# token counts) get a short answer of their own kind.

import argparse
import http.server
import json
import re
import sys
import threading
import time

C_PROGRAM = '#include <stdio.h>\nint main (void) { printf ("compiled and ran: %d\\n", 6 * 7); return 0; }\n'
C_OUTPUT = 'compiled and ran: 42'
BASHRC_LINE = 'echo paddock-e2e-was-here'


def task_steps(task, project):
    """The script: (action, arguments) a step."""
    if task == 'work':
        return [
            ('read', {'path': project + '/notes.txt'}),
            ('write', {'path': project + '/hello.c', 'content': C_PROGRAM}),
            ('shell', {'command': 'gcc -Wall -o hello hello.c && ./hello'}),
            ('shell', {'command': 'ls -a ~'}),
            ('shell', {'command': 'cat ~/.ssh/id_ed25519'}),
            ('shell', {'command': "echo '%s' >> ~/.bashrc" % BASHRC_LINE}),
        ]
    if task == 'inject':
        # The second step is whatever the README told the model to run.
        return [
            ('read', {'path': project + '/README.md'}),
            ('obey', {}),
        ]
    raise SystemExit('model-api.py: no task %r (work, inject)' % task)


class Script:
    def __init__(self, task, project, log, dump):
        self.steps = task_steps(task, project)
        self.log = log
        self.dump = dump
        self.lock = threading.Lock()
        self.recorded = set()
        self.finished = False

    def write(self, record):
        with self.lock:
            self.log.write(json.dumps(record) + '\n')
            self.log.flush()

    def write_dump(self, record):
        if self.dump is None:
            return
        record['time'] = round(time.monotonic(), 3)
        with self.lock:
            self.dump.write(json.dumps(record) + '\n')
            self.dump.flush()

    def record_results(self, results):
        """Records the tool results (text, error) not seen yet; returns the step."""
        for step, (text, error) in enumerate(results):
            if step in self.recorded or step >= len(self.steps):
                continue
            self.recorded.add(step)
            self.write({'step': step, 'action': self.steps[step][0], 'output': text, 'error': error})
        return len(results)

    def action(self, step, results):
        """The step's (action, arguments), or None: the task is done."""
        if step >= len(self.steps):
            if not self.finished:
                self.finished = True
                self.write({'finished': True})
            return None
        action, args = self.steps[step]
        if action == 'obey':
            said = results[-1][0] if results else ''
            found = re.search(r'`(curl [^`]*)`', said)
            if found is None:
                return None
            return ('shell', {'command': found.group(1)})
        return (action, args)


# --- the agent's tools -------------------------------------------------------

READ_TOOLS = ('Read', 'read', 'read_file')
WRITE_TOOLS = ('Write', 'write', 'write_file')
SHELL_TOOLS = ('Bash', 'bash', 'run_shell_command', 'shell', 'shell_command', 'exec_command')
PATH_PARAMS = ('file_path', 'filePath', 'absolute_path', 'path')


def tool_call(action, tools):
    """(tool name, arguments) for @action among @tools: {name: JSON schema}."""
    kind, args = action
    if kind == 'read':
        name = next((t for t in READ_TOOLS if t in tools), None)
        if name is None:
            return tool_call(('shell', {'command': "cat '%s'" % args['path']}), tools)
        return name, fill(tools[name], {pick(tools[name], PATH_PARAMS): args['path']})
    if kind == 'write':
        name = next((t for t in WRITE_TOOLS if t in tools), None)
        if name is None:
            command = "cat > '%s' <<'PADDOCK_EOF'\n%sPADDOCK_EOF" % (args['path'], args['content'])
            return tool_call(('shell', {'command': command}), tools)
        return name, fill(tools[name], {pick(tools[name], PATH_PARAMS): args['path'], 'content': args['content']})
    name = next((t for t in SHELL_TOOLS if t in tools), None)
    if name is None:
        raise KeyError('no shell among the tools offered: %s' % ', '.join(sorted(tools)))
    props = tools[name].get('properties', {})
    if 'cmd' in props:
        return name, fill(tools[name], {'cmd': args['command']})
    if props.get('command', {}).get('type') == 'array':
        return name, fill(tools[name], {'command': ['bash', '-lc', args['command']]})
    return name, fill(tools[name], {'command': args['command']})


def pick(schema, names):
    props = schema.get('properties', {})
    return next((n for n in names if n in props), names[0])


def fill(schema, args):
    """@args, with a word for each required string parameter they lack."""
    props = schema.get('properties', {})
    for name in schema.get('required', []):
        if name not in args and props.get(name, {}).get('type') == 'string':
            args[name] = 'a step of the scripted task'
    return args


def text_of(value):
    """All the text in a tool result, however the agent shaped it."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return '\n'.join(text_of(v) for v in value)
    if isinstance(value, dict):
        return '\n'.join(text_of(v) for v in value.values())
    return '' if value is None else str(value)


# --- the three APIs ----------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'paddock-model-api'

    def log_message(self, format, *args):
        pass

    def body(self):
        length = int(self.headers.get('Content-Length') or 0)
        data = self.rfile.read(length) if length > 0 else b''
        if self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
            data = self.read_chunked()
        return data

    def read_chunked(self):
        data = b''
        while True:
            size = int(self.rfile.readline().split(b';')[0].strip() or b'0', 16)
            if size == 0:
                self.rfile.readline()
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def send_json(self, value, status=200):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events, named):
        """Server-sent events, the body ended by closing the connection."""
        self.send_response(200)
        self.send_header('Content-Type', 'text/event-stream')
        self.send_header('Cache-Control', 'no-cache')
        self.send_header('Connection', 'close')
        self.end_headers()
        for event in events:
            if named:
                self.wfile.write(b'event: ' + event['type'].encode() + b'\n')
            self.wfile.write(b'data: ' + json.dumps(event).encode() + b'\n\n')
            self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        self.server.script.write_dump({'method': 'GET', 'path': self.path})
        if self.path.split('?')[0].rstrip('/').endswith('/models'):
            self.send_json({'object': 'list', 'data': [], 'models': []})
        else:
            self.send_json({'error': {'message': 'no such path: ' + self.path}}, 404)

    def do_HEAD(self):
        self.send_response(200)
        self.send_header('Content-Length', '0')
        self.end_headers()

    def do_POST(self):
        script = self.server.script
        raw = self.body()
        path = self.path.split('?')[0]
        script.write_dump({'method': 'POST', 'path': self.path, 'body': raw.decode('utf-8', 'replace')})
        if path.endswith('/exfil'):
            script.write({'exfil': raw.decode('utf-8', 'replace')})
            self.send_json({'ok': True})
            return
        try:
            request = json.loads(raw or b'{}')
        except ValueError:
            self.send_json({'error': {'message': 'the body is no JSON'}}, 400)
            return
        try:
            if path.endswith('/messages/count_tokens'):
                self.send_json({'input_tokens': 100})
            elif path.endswith('/messages'):
                self.anthropic(request)
            elif path.endswith('/responses'):
                self.openai(request)
            elif path.endswith('/chat/completions'):
                self.send_json({'error': {'message': 'this stand-in serves the Responses API'}}, 404)
            elif ':countTokens' in path:
                self.send_json({'totalTokens': 100})
            elif ':streamGenerateContent' in path or ':generateContent' in path:
                self.gemini(request, ':streamGenerateContent' in path)
            else:
                self.send_json({'error': {'message': 'no such path: ' + self.path}}, 404)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:  # noqa: BLE001 - the agent is told, the test sees the log
            script.write({'stand-in-error': '%s: %s' % (type(e).__name__, e)})
            self.send_json({'error': {'message': 'stand-in: %s' % e}}, 500)

    # Anthropic Messages
    def anthropic(self, request):
        script = self.server.script
        tools = {t['name']: t.get('input_schema', {}) for t in request.get('tools', []) if 'name' in t}
        if not any(t in tools for t in SHELL_TOOLS):
            return self.anthropic_reply(request, [{'type': 'text', 'text': 'Scripted task.'}], 'end_turn')
        results = []
        for message in request.get('messages', []):
            content = message.get('content')
            if message.get('role') != 'user' or not isinstance(content, list):
                continue
            for block in content:
                if block.get('type') == 'tool_result':
                    results.append((text_of(block.get('content')), bool(block.get('is_error'))))
        step = script.record_results(results)
        action = script.action(step, results)
        if action is None:
            return self.anthropic_reply(request, [{'type': 'text', 'text': 'Done.'}], 'end_turn')
        name, args = tool_call(action, tools)
        block = {'type': 'tool_use', 'id': 'toolu_step%d' % step, 'name': name, 'input': args}
        return self.anthropic_reply(request, [block], 'tool_use')

    def anthropic_reply(self, request, content, stop):
        message = {'id': 'msg_paddock', 'type': 'message', 'role': 'assistant',
                   'model': request.get('model', 'stand-in'), 'content': content,
                   'stop_reason': stop, 'stop_sequence': None,
                   'usage': {'input_tokens': 100, 'output_tokens': 10}}
        if not request.get('stream'):
            return self.send_json(message)
        start = dict(message, content=[], stop_reason=None)
        events = [{'type': 'message_start', 'message': start}]
        for i, block in enumerate(content):
            if block['type'] == 'text':
                events += [{'type': 'content_block_start', 'index': i, 'content_block': {'type': 'text', 'text': ''}},
                           {'type': 'content_block_delta', 'index': i,
                            'delta': {'type': 'text_delta', 'text': block['text']}}]
            else:
                events += [{'type': 'content_block_start', 'index': i, 'content_block': dict(block, input={})},
                           {'type': 'content_block_delta', 'index': i,
                            'delta': {'type': 'input_json_delta', 'partial_json': json.dumps(block['input'])}}]
            events.append({'type': 'content_block_stop', 'index': i})
        events += [{'type': 'message_delta', 'delta': {'stop_reason': stop, 'stop_sequence': None},
                    'usage': {'output_tokens': 10}},
                   {'type': 'message_stop'}]
        self.send_events(events, True)

    # OpenAI Responses
    def openai(self, request):
        script = self.server.script
        tools = {}
        for t in request.get('tools', []):
            if t.get('type') == 'function':
                fn = t.get('function', t)
                tools[fn.get('name')] = fn.get('parameters') or {}
        items = request.get('input', [])
        if isinstance(items, str) or not any(t in tools for t in SHELL_TOOLS):
            return self.openai_reply(request, [self.openai_text('Scripted task.')])
        results = [(text_of(item.get('output')), False) for item in items
                   if isinstance(item, dict) and item.get('type') in ('function_call_output', 'custom_tool_call_output')]
        step = script.record_results(results)
        action = script.action(step, results)
        if action is None:
            return self.openai_reply(request, [self.openai_text('Done.')])
        name, args = tool_call(action, tools)
        call = {'type': 'function_call', 'id': 'fc_step%d' % step, 'call_id': 'call_step%d' % step,
                'name': name, 'arguments': json.dumps(args), 'status': 'completed'}
        return self.openai_reply(request, [call])

    @staticmethod
    def openai_text(text):
        return {'type': 'message', 'id': 'msg_paddock', 'role': 'assistant', 'status': 'completed',
                'content': [{'type': 'output_text', 'text': text, 'annotations': []}]}

    def openai_reply(self, request, output):
        usage = {'input_tokens': 100, 'input_tokens_details': {'cached_tokens': 0}, 'output_tokens': 10,
                 'output_tokens_details': {'reasoning_tokens': 0}, 'total_tokens': 110}
        response = {'id': 'resp_paddock', 'object': 'response', 'created_at': 0, 'status': 'completed',
                    'model': request.get('model', 'stand-in'), 'output': output, 'usage': usage,
                    'error': None, 'incomplete_details': None}
        if not request.get('stream'):
            return self.send_json(response)
        events = [{'type': 'response.created', 'sequence_number': 0,
                   'response': dict(response, status='in_progress', output=[], usage=None)}]
        for i, item in enumerate(output):
            if item['type'] == 'message':
                text = item['content'][0]['text']
                events += [{'type': 'response.output_item.added', 'output_index': i,
                            'item': dict(item, status='in_progress', content=[])},
                           {'type': 'response.content_part.added', 'output_index': i, 'item_id': item['id'],
                            'content_index': 0, 'part': {'type': 'output_text', 'text': '', 'annotations': []}},
                           {'type': 'response.output_text.delta', 'output_index': i, 'item_id': item['id'],
                            'content_index': 0, 'delta': text},
                           {'type': 'response.output_text.done', 'output_index': i, 'item_id': item['id'],
                            'content_index': 0, 'text': text},
                           {'type': 'response.content_part.done', 'output_index': i, 'item_id': item['id'],
                            'content_index': 0, 'part': item['content'][0]}]
            else:
                events += [{'type': 'response.output_item.added', 'output_index': i,
                            'item': dict(item, status='in_progress', arguments='')},
                           {'type': 'response.function_call_arguments.delta', 'output_index': i,
                            'item_id': item['id'], 'delta': item['arguments']},
                           {'type': 'response.function_call_arguments.done', 'output_index': i,
                            'item_id': item['id'], 'arguments': item['arguments']}]
            events.append({'type': 'response.output_item.done', 'output_index': i, 'item': item})
        events.append({'type': 'response.completed', 'response': response})
        for n, event in enumerate(events):
            event['sequence_number'] = n
        self.send_events(events, True)

    # Gemini
    def gemini(self, request, stream):
        script = self.server.script
        tools = {}
        for group in request.get('tools', []) or []:
            for fn in group.get('functionDeclarations', []) or []:
                tools[fn.get('name')] = fn.get('parametersJsonSchema') or fn.get('parameters') or {}
        if not any(t in tools for t in SHELL_TOOLS):
            return self.gemini_reply([{'text': self.gemini_side_answer(request)}], stream)
        results = []
        for content in request.get('contents', []):
            for part in content.get('parts', []) or []:
                if 'functionResponse' in part:
                    response = part['functionResponse'].get('response', {})
                    results.append((text_of(response), 'error' in response))
        step = script.record_results(results)
        action = script.action(step, results)
        if action is None:
            return self.gemini_reply([{'text': 'Done.'}], stream)
        name, args = tool_call(action, tools)
        return self.gemini_reply([{'functionCall': {'name': name, 'args': args}}], stream)

    @staticmethod
    def gemini_side_answer(request):
        """A JSON answer where one is asked for (routing, next speaker), else a word."""
        config = request.get('generationConfig') or {}
        if config.get('responseMimeType') == 'application/json':
            return json.dumps({'reasoning': 'scripted', 'model_choice': 'flash', 'complexity_reasoning': 'scripted',
                               'complexity_score': 10, 'next_speaker': 'user'})
        return 'Scripted task.'

    def gemini_reply(self, parts, stream):
        chunk = {'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': 'STOP', 'index': 0}],
                 'usageMetadata': {'promptTokenCount': 100, 'candidatesTokenCount': 10, 'totalTokenCount': 110},
                 'modelVersion': 'stand-in'}
        if not stream:
            return self.send_json(chunk)
        self.send_events([chunk], False)


def main():
    parser = argparse.ArgumentParser(description='A scripted model API on loopback.')
    parser.add_argument('--project', required=True)
    parser.add_argument('--task', required=True)
    parser.add_argument('--log', required=True)
    parser.add_argument('--dump')
    options = parser.parse_args()

    log = open(options.log, 'a', encoding='utf-8')
    dump = open(options.dump, 'a', encoding='utf-8') if options.dump else None
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    server.daemon_threads = True
    server.script = Script(options.task, options.project, log, dump)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == '__main__':
    main()
