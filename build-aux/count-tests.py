#!/usr/bin/env python3
# Counts test cases from meson's test logs and prints "N passed, N failed[, N skipped]".
# A TAP test program counts each of its cases; any other test counts once.
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import re
import sys

TAP_PLAN = re.compile(r'^1\.\.\d+', re.MULTILINE)
TAP_LINE = re.compile(r'^(not ok|ok)\b[^#]*(#\s*(SKIP|TODO)\b.*)?', re.IGNORECASE)

def count_build(build_dir):
    passed = failed = skipped = 0
    try:
        log = open(f'{build_dir}/meson-logs/testlog.json', encoding='utf-8', errors='replace')
    except OSError as e:
        print(f'count-tests: {build_dir}: no test log ({e.strerror})', file=sys.stderr)
        return 0, 1, 0
    with log:
        for line in log:
            test = json.loads(line)
            result = test.get('result')
            if result in ('FAIL', 'TIMEOUT', 'ERROR', 'UNEXPECTEDPASS'):
                failed += 1
                continue
            stdout = test.get('stdout') or ''
            cases = [TAP_LINE.match(l) for l in stdout.splitlines()]
            cases = [m for m in cases if m]
            if cases and TAP_PLAN.search(stdout):
                for m in cases:
                    if m.group(3):
                        skipped += 1
                    elif m.group(1).lower() == 'ok':
                        passed += 1
                    else:
                        failed += 1
            elif result == 'SKIP':
                skipped += 1
            else:
                passed += 1
    return passed, failed, skipped

total = [0, 0, 0]
for build_dir in sys.argv[1:]:
    p, f, s = count_build(build_dir)
    name = build_dir.rstrip('/').rsplit('/', 1)[-1]
    print(f'{name}: {p} passed, {f} failed, {s} skipped', file=sys.stderr)
    total = [total[0] + p, total[1] + f, total[2] + s]

line = f'{total[0]} passed, {total[1]} failed'
if total[2]:
    line += f', {total[2]} skipped'
print(line)
sys.exit(1 if total[1] else 0)
