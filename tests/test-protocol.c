/* test-protocol.c: protocol messages parse strictly, and bad clients change nothing for the agent
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-protocol.h"
#include "test-session.h"
#include "test-util.h"

#include <gio/gio.h>
#include <string.h>
#include <unistd.h>

static void
test_round_trip (void)
{
  g_autoptr(PaddockMessage) exec = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  g_autoptr(PaddockMessage) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  char *argv[] = { "git", "push", "--force", "ünïcode", NULL };

  exec->seq = 42;
  exec->time = 1700000000123456;
  exec->mono = 99;
  exec->pid = 1234;
  exec->ppid = 1;
  exec->cwd = g_strdup ("/home/me/proj");
  exec->exe = g_strdup ("/usr/bin/git");
  exec->path = g_strdup ("/usr/bin/git");
  exec->argv = g_strdupv (argv);
  exec->argc = 4;
  exec->decision = PADDOCK_DECISION_DENY;
  exec->rule = g_strdup ("git-push-force");
  exec->by = g_strdup ("rule");

  line = paddock_message_to_line (exec);
  g_assert_true (g_str_has_suffix (line, "}\n"));
  g_assert_true (strchr (line, '\n') == line + strlen (line) - 1);
  parsed = paddock_message_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (parsed->type, ==, PADDOCK_MESSAGE_EXEC);
  g_assert_cmpint (parsed->seq, ==, 42);
  g_assert_cmpint (parsed->time, ==, 1700000000123456);
  g_assert_cmpint (parsed->pid, ==, 1234);
  g_assert_cmpstr (parsed->cwd, ==, "/home/me/proj");
  g_assert_cmpstrv (parsed->argv, argv);
  g_assert_cmpint (parsed->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (parsed->rule, ==, "git-push-force");
  g_assert_null (parsed->reason);
  g_assert_false (parsed->truncated);

  /* An exit says whether its program ended or was replaced by another. */
  for (gboolean replaced = FALSE; replaced <= TRUE; replaced++)
    {
      g_autoptr(PaddockMessage) exit = paddock_message_new (PADDOCK_MESSAGE_EXIT);
      g_autoptr(PaddockMessage) exit_parsed = NULL;
      g_autofree char *exit_line = NULL;

      exit->time = 1700000000123456;
      exit->pid = 1234;
      exit->seq = 42;
      exit->duration = 1500;
      exit->replaced = replaced;
      exit_line = paddock_message_to_line (exit);
      g_assert_true ((strstr (exit_line, "\"replaced\":true") != NULL) == replaced);
      exit_parsed = paddock_message_parse (exit_line, strlen (exit_line) - 1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (exit_parsed->replaced, ==, replaced);
      g_assert_cmpint (exit_parsed->duration, ==, 1500);
    }

  /* A decided names the client whose answer it was, where one did. */
  for (int client_pid = -1; client_pid <= 4321; client_pid += 4322)
    {
      g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
      g_autoptr(PaddockMessage) decided_parsed = NULL;
      g_autofree char *decided_line = NULL;

      decided->id = 42;
      decided->time = 1700000000123456;
      decided->decision = PADDOCK_DECISION_ALLOW;
      decided->by = g_strdup ("user");
      decided->client_pid = client_pid;
      decided_line = paddock_message_to_line (decided);
      g_assert_true ((strstr (decided_line, "\"client_pid\"") != NULL) == (client_pid != -1));
      decided_parsed = paddock_message_parse (decided_line, strlen (decided_line) - 1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (decided_parsed->client_pid, ==, client_pid);
    }
}

static void
test_requests (void)
{
  const struct { const char *line; PaddockMessageType type; } good[] = {
    { "{\"type\":\"decide\",\"id\":7,\"decision\":\"allow\"}", PADDOCK_MESSAGE_DECIDE },
    { "{\"type\":\"decide\",\"id\":7,\"decision\":\"deny\",\"remember\":\"project\"}", PADDOCK_MESSAGE_DECIDE },
    { "{\"type\":\"kill\"}", PADDOCK_MESSAGE_KILL },
    { " { \"type\" : \"pause\" } ", PADDOCK_MESSAGE_PAUSE },
    { "{\"type\":\"resume\"}", PADDOCK_MESSAGE_RESUME },
    { "{\"type\":\"lock-status\"}", PADDOCK_MESSAGE_LOCK_STATUS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockMessage) message = paddock_message_parse (good[i].line, strlen (good[i].line), &error);

      g_assert_no_error (error);
      g_assert_cmpint (message->type, ==, good[i].type);
      g_assert_true (paddock_message_type_is_request (message->type));
    }
  {
    g_autoptr(PaddockMessage) decide = paddock_message_parse (good[1].line, strlen (good[1].line), NULL);
    g_assert_cmpint (decide->id, ==, 7);
    g_assert_cmpint (decide->remember, ==, PADDOCK_REMEMBER_PROJECT);
  }
  {
    /* Every escape JSON has reads as it should, a surrogate pair included. */
    const char *line = "{\"type\":\"kill\",\"by\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}";
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockMessage) kill = paddock_message_parse (line, strlen (line), &error);

    g_assert_no_error (error);
    g_assert_cmpstr (kill->by, ==, "\"\\/\b\f\n\r\t\u00e9\U0001F600");
  }
}

/* A notice: what paddock-run says to its clients in words, in place of
 * its terminal; an event, not a request, and its words are required. */
static void
test_notice (void)
{
  g_autoptr(PaddockMessage) notice = paddock_message_new (PADDOCK_MESSAGE_NOTICE);
  g_autoptr(PaddockMessage) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const char *wordless = "{\"type\":\"notice\",\"time\":5}";

  notice->time = 1234;
  notice->message = g_strdup ("the project's rules changed, and cannot be read");
  line = paddock_message_to_line (notice);
  g_assert_true (g_str_has_prefix (line, "{\"type\":\"notice\""));
  parsed = paddock_message_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (parsed->type, ==, PADDOCK_MESSAGE_NOTICE);
  g_assert_cmpint (parsed->time, ==, 1234);
  g_assert_cmpstr (parsed->message, ==, notice->message);
  g_assert_false (paddock_message_type_is_request (PADDOCK_MESSAGE_NOTICE));
  g_assert_cmpstr (paddock_message_type_to_string (PADDOCK_MESSAGE_NOTICE), ==, "notice");

  g_clear_pointer (&parsed, paddock_message_free);
  parsed = paddock_message_parse (wordless, strlen (wordless), &error);
  g_assert_null (parsed);
  g_assert_error (error, PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_INVALID);
}

static void
test_strict (void)
{
  const struct { const char *line; gsize length; const char *error; } bad[] = {
    { "", 0, "empty" },
    { "garbage", 0, "not a JSON object" },
    { " \t", 0, "not a JSON object" },
    { "{\"type\":\"pause\"}{\"type\":\"pause\"}", 0, "text after the JSON object" },
    { "{\"type\":\"pause\"} [1]", 0, "text after the JSON object" },
    { "{\"type\":\"pause\"} x", 0, "text after the JSON object" },
    { "1 {\"type\":\"pause\"}", 0, "not a JSON object" },
    { "{", 0, "not JSON" },
    { "[]", 0, "not a JSON object" },
    { "{}", 0, "no \"type\"" },
    { "{\"type\":1}", 0, "must be a string" },
    { "{\"type\":\"launch-missiles\"}", 0, "unknown message type" },
    { "{\"type\":\"decide\"}", 0, "needs a \"id\"" },
    { "{\"type\":\"decide\",\"id\":\"1\",\"decision\":\"allow\"}", 0, "must be an integer" },
    { "{\"type\":\"decide\",\"id\":1.5,\"decision\":\"allow\"}", 0, "must be an integer" },
    { "{\"type\":\"decide\",\"id\":-7,\"decision\":\"allow\"}", 0, "out of range" },
    { "{\"type\":\"decide\",\"id\":1,\"decision\":\"ask\"}", 0, "\"allow\" or \"deny\"" },
    { "{\"type\":\"decide\",\"id\":1,\"decision\":\"maybe\"}", 0, "must be \"allow\"" },
    { "{\"type\":\"decide\",\"id\":1,\"decision\":\"allow\",\"remember\":\"forever\"}", 0, "\"remember\"" },
    { "{\"type\":\"kill\",\"now\":true}", 0, "unknown field \"now\"" },
    { "{\"type\":\"decided\",\"id\":1,\"time\":1,\"decision\":\"allow\",\"by\":\"user\",\"client_pid\":\"7\"}", 0,
      "must be an integer" },
    { "{\"type\":\"exec\",\"client_pid\":7}", 0, "unknown field \"client_pid\"" },
    { "{\"type\":\"kill\",\"time\":null}", 0, "must be an integer" },
    { "{\"type\":\"kill\"}\xff", 0, "UTF-8" },
    { "{\"type\":\"kill\"\0}", 16, "UTF-8" },
    { "{\"type\":\"kill\",\"by\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", 0, "nested" },
    /* Escapes json-glib would read into a string that is not UTF-8, or cut short. */
    { "{\"type\":\"kill\",\"by\":\"\\377\"}", 0, "\"\\3\", which is not a JSON escape" },
    { "{\"type\":\"kill\",\"by\":\"\\q\"}", 0, "not a JSON escape" },
    { "{\"type\":\"kill\",\"by\":\"a\\u0000b\"}", 0, "NUL" },
    { "{\"type\":\"kill\",\"by\":\"\\ud800\"}", 0, "\\ud800\", half of a UTF-16 pair" },
    { "{\"type\":\"kill\",\"by\":\"\\ud800\\u0041\"}", 0, "half of a UTF-16 pair" },
    { "{\"type\":\"kill\",\"by\":\"\\udc00\\ud800\"}", 0, "\\udc00\", half of a UTF-16 pair" },
    { "{\"type\":\"kill\",\"by\":\"\\u12\"}", 0, "four hex digits" },
    { "{\"type\":\"kill\",\"by\":\"\\", 0, "lone backslash" },
    /* A comment or single quotes would hide an escape from the check above. */
    { "{\"type\":\"kill\",\"by\":\"x\"/\"/,\"by\":\"\\377\"}", 0, "a comment ('/')" },
    { "{\"type\":\"kill\",\"by\":'x'}", 0, "a string in single quotes" },
    /* Words JSON does not have: json-glib took hex and octal numbers, and
     * answered a '$' with "digit is beyond radix". */
    { "{\"type\":\"decide\",\"id\":0x1,\"decision\":\"allow\"}", 0, "unexpected \"0x1\": a value is" },
    { "{\"type\":\"decide\",\"id\":01,\"decision\":\"allow\"}", 0, "unexpected \"01\"" },
    { "{\"type\":\"kill\",\"by\":$}", 0, "unexpected \"$\"" },
    { "{\"type\":\"kill\",\"time\":tru}", 0, "unexpected \"tru\"" },
    { "{type:\"kill\"}", 0, "unexpected \"type\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize length = bad[i].length != 0 ? bad[i].length : strlen (bad[i].line);
      g_autoptr(PaddockMessage) message = paddock_message_parse (bad[i].line, length, &error);

      g_autofree char *shown = g_strescape (bad[i].line, NULL);

      g_test_message ("%s", shown);
      g_assert_null (message);
      g_assert_nonnull (error);
      if (strstr (error->message, bad[i].error) == NULL)
        g_error ("\"%s\": error \"%s\" does not say \"%s\"", bad[i].line, error->message, bad[i].error);
    }
}

static void
test_line_reader (void)
{
  g_autoptr(PaddockLineReader) reader = paddock_line_reader_new (16);
  g_autofree char *huge = g_strnfill (1000, 'x');
  const char *line;
  gsize length;

  paddock_line_reader_feed (reader, "{\"type\"", 7);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_NONE);
  paddock_line_reader_feed (reader, ":1}\nab", 6);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_OK);
  g_assert_cmpmem (line, length, "{\"type\":1}", 10);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_NONE);
  g_assert_cmpuint (paddock_line_reader_pending (reader), ==, 2);
  paddock_line_reader_feed (reader, "\n", 1);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_OK);
  g_assert_cmpmem (line, length, "ab", 2);

  /* Over the cap with its newline in view: reported, then skipped. */
  paddock_line_reader_feed (reader, huge, 40);
  paddock_line_reader_feed (reader, "\nok\n", 4);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_TOO_LONG);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_OK);
  g_assert_cmpmem (line, length, "ok", 2);

  /* Over the cap across many reads: reported once, never buffered whole. */
  paddock_line_reader_feed (reader, huge, 1000);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_TOO_LONG);
  for (int i = 0; i < 100; i++)
    {
      paddock_line_reader_feed (reader, huge, 1000);
      g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_NONE);
      g_assert_cmpuint (paddock_line_reader_pending (reader), ==, 0);
    }
  paddock_line_reader_feed (reader, "xx\nnext\n", 8);
  g_assert_cmpint (paddock_line_reader_next (reader, &line, &length), ==, PADDOCK_LINE_OK);
  g_assert_cmpmem (line, length, "next", 4);
}

/* A command line is shown under the name of the program that runs: what
 * argv[0] says is believed only where it names that program. */
static void
test_exec_display_line (void)
{
  const struct
  {
    const char *path;
    const char *exe;
    const char *argv[4];
    const char *shown;
    const char *interpreter;
    const char *pipeline;
  } cases[] = {
    { "/usr/bin/rm", "/usr/bin/rm", { "rm", "-rf", "build", NULL }, "rm -rf build" },
    /* Found along PATH, a symlink resolved, a relative path, a login shell. */
    { "/usr/bin/python3", "/usr/bin/python3.11", { "python3", "-c", "1", NULL }, "python3 -c 1" },
    { "/usr/bin/cc", "/usr/bin/x86_64-linux-gnu-gcc-12", { "cc", NULL }, "cc" },
    { "./run.sh", "/home/u/p/run.sh", { "./run.sh", NULL }, "./run.sh" },
    { "/bin/bash", "/usr/bin/bash", { "-bash", NULL }, "-bash" },
    /* exec -a: the real program first, then what it called itself. */
    { "/usr/bin/rm", "/usr/bin/rm", { "ls", "-rf", "build", NULL }, "rm -rf build  (calls itself \"ls\")" },
    { "/usr/bin/true", "/usr/bin/true", { "ls", NULL }, "true  (calls itself \"ls\")" },
    /* From memory, and through a descriptor: only the file it led to counts. */
    { "", "/memfd:x (deleted)", { "touch", "f", NULL }, "memfd:x (deleted) f  (calls itself \"touch\")" },
    { "/proc/self/fd/3", "/memfd:x (deleted)", { "3", NULL }, "memfd:x (deleted)  (calls itself \"3\")" },
    { "/dev/fd/3", "/usr/bin/touch", { "touch", "f", NULL }, "touch f" },
    /* No argv[0], and one that would drive the terminal. */
    { "/usr/bin/true", "/usr/bin/true", { NULL }, "true  (calls itself \"\")" },
    { "/usr/bin/rm", "/usr/bin/rm", { "\033[2Jls", "x", NULL }, "rm x  (calls itself \"\\e[2Jls\")" },
    /* Nothing known of the program: argv as it is. */
    { NULL, NULL, { "ls", NULL }, "ls" },
    /* A script: its #! interpreter, which is what runs, follows. */
    { "./x", "/p/x", { "./x", "/home/u", NULL }, "./x /home/u  (#!/bin/rm -rf)", "/bin/rm -rf" },
    { "/usr/bin/rm", "/usr/bin/rm", { "ls", NULL }, "rm  (calls itself \"ls\")  (#!\\e[2J)", "\033[2J" },
    /* In a pipeline into a shell: the pipeline follows. */
    { "/usr/bin/curl", "/usr/bin/curl", { "curl", "-s", "https://x", NULL }, "curl -s https://x  (pipeline: curl -s https://x | sh)",
      NULL, "curl -s https://x | sh" },
    { "./x", "/p/x", { "./x", NULL }, "./x  (#!/bin/sh)  (pipeline: cat \\e[2J | ./x)", "/bin/sh", "cat \033[2J | ./x" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = paddock_exec_display_line (cases[i].path, cases[i].exe, cases[i].interpreter,
                                                          cases[i].pipeline, cases[i].argv);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

/* A read in the home folder shows the home folder as ~, and nothing that
 * only begins with its name; what it holds is escaped for display. */
static void
test_home_display_path (void)
{
  const char *home = g_get_home_dir ();
  g_autofree char *m2 = g_build_filename (home, ".m2", NULL);
  g_autofree char *sibling = g_strconcat (home, "x/.m2", NULL);
  g_autofree char *sibling_shown = g_strconcat (home, "x/.m2/settings.xml", NULL);
  const struct
  {
    const char *path;
    const char *name;
    const char *shown;
  } cases[] = {
    { m2, "settings.xml", "~/.m2/settings.xml" },
    { m2, NULL, "~/.m2" },
    { m2, "", "~/.m2" },
    { home, NULL, "~" },
    { sibling, "settings.xml", sibling_shown },
    { "/etc", "passwd", "/etc/passwd" },
    { m2, "\033[2Jx", "~/.m2/\\e[2Jx" },
  };

  g_assert_true (g_path_is_absolute (home));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = paddock_home_display_path (cases[i].path, cases[i].name);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

/* Bytes that are not UTF-8 (a Latin-1 file name, an argument of junk)
 * cross the protocol and come back as they were; without them, nothing is
 * rewritten. */
static void
test_escape (void)
{
  const char *command[] = { "cat", "a\\b", "\xff\xfe", "\xc3\xbc", "\\x41", NULL };
  g_autoptr(PaddockMessage) hello = paddock_message_new (PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) exec = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  g_autoptr(PaddockMessage) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const struct { const char *line; const char *error; } bad[] = {
    { "{\"type\":\"kill\",\"escaped\":true,\"by\":\"a\\\\q\"}", "field \"by\" of an escaped message" },
    { "{\"type\":\"kill\",\"escaped\":true,\"by\":\"a\\\\x4\"}", "field \"by\"" },
    { "{\"type\":\"kill\",\"escaped\":true,\"by\":\"a\\\\x00\"}", "field \"by\"" },
    { "{\"type\":\"kill\",\"escaped\":true,\"by\":\"a\\\\\"}", "field \"by\"" },
    { "{\"type\":\"kill\",\"escaped\":1}", "field \"escaped\" must be true or false" },
  };

  hello->version = 1;
  hello->session = g_strdup ("s");
  hello->project = g_strdup ("/tmp/caf\xe9");
  hello->command = g_strdupv ((char **) command);
  hello->agent_pid = 1;
  hello->lock = g_strdup ("off");
  hello->network = g_strdup ("off");
  hello->features = g_new0 (char *, 1);
  line = paddock_message_to_line (hello);
  g_assert_true (g_utf8_validate (line, -1, NULL));
  /* All strings are escaped, not only those that had to be. */
  g_assert_nonnull (strstr (line, "\"escaped\":true"));
  g_assert_nonnull (strstr (line, "\"/tmp/caf\\\\xe9\""));
  g_assert_nonnull (strstr (line, "\"a\\\\\\\\b\""));
  g_assert_nonnull (strstr (line, "\"\\\\\\\\x41\""));
  back = paddock_message_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_true (back->escaped);
  g_assert_cmpstr (back->project, ==, hello->project);
  g_assert_cmpstrv (back->command, command);
  g_clear_pointer (&back, paddock_message_free);
  g_clear_pointer (&line, g_free);

  exec->seq = 1;
  exec->pid = exec->ppid = 2;
  exec->cwd = g_strdup ("/");
  exec->path = g_strdup ("/bin/cat");
  exec->exe = g_strdup ("/usr/bin/cat");
  exec->argv = g_strdupv ((char **) (const char *[]) { "cat", "a\\b", "\xc3\xbc", NULL });
  exec->argc = 3;
  exec->decision = PADDOCK_DECISION_ALLOW;
  exec->by = g_strdup ("default");
  line = paddock_message_to_line (exec);
  g_assert_null (strstr (line, "escaped"));
  back = paddock_message_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_false (back->escaped);
  g_assert_cmpstrv (back->argv, exec->argv);
  g_clear_pointer (&back, paddock_message_free);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;

      back = paddock_message_parse (bad[i].line, strlen (bad[i].line), &bad_error);
      g_assert_null (back);
      g_assert_error (bad_error, PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_INVALID);
      if (strstr (bad_error->message, bad[i].error) == NULL)
        g_error ("%s: said \"%s\"", bad[i].line, bad_error->message);
    }
  {
    const char *good = "{\"type\":\"kill\",\"escaped\":true,\"by\":\"\\\\x41\\\\\\\\\"}";

    back = paddock_message_parse (good, strlen (good), &error);
    g_assert_no_error (error);
    g_assert_cmpstr (back->by, ==, "A\\");
  }
}

/* A live session (see test-session.h): garbage from a client gets an
 * error reply and changes nothing. The garbage, the 10 MB line and the
 * half line go out with session_send_raw(): PaddockClient sends only
 * whole, valid requests, which is what this test must not be limited to.
 * The replies, and the answer at the end, go through the client. */
static void
test_garbage (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, (const char *[]) { "--ask-timeout", "60", NULL });
  g_autoptr(PaddockMessage) hello = session_expect (s, PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) ask = NULL;
  gsize huge_length = 10 * 1024 * 1024;
  g_autofree char *huge = g_malloc (huge_length + 1);
  const char *garbage[] = {
    "garbage\n",
    "{\"type\":\"exec\",\"seq\":1}\n",
    "{\"type\":\"decide\",\"id\":999,\"decision\":\"allow\"}\n",
    "\xff\xfe\n",
  };

  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  for (guint i = 0; i < G_N_ELEMENTS (garbage); i++)
    {
      g_autoptr(PaddockMessage) reply = NULL;
      g_autofree char *shown = g_strescape (garbage[i], NULL);

      session_send_raw (s, garbage[i]);
      reply = session_expect (s, PADDOCK_MESSAGE_ERROR);
      g_test_message ("%s -> %s", shown, reply->message);
    }

  /* 10 MB without a newline, then one: one error, and the connection still works. */
  memset (huge, '{', huge_length);
  huge[huge_length] = '\0';
  session_send_raw (s, huge);
  session_send_raw (s, "\n");
  {
    g_autoptr(PaddockMessage) reply = session_expect (s, PADDOCK_MESSAGE_ERROR);

    g_assert_nonnull (strstr (reply->message, "longer than"));
  }
  /* Half a line: nothing happens until it ends. */
  session_send_raw (s, "{\"type\":\"lock-");
  g_usleep (100 * 1000);
  session_send_raw (s, "status\"}\n");
  {
    g_autoptr(PaddockMessage) status = session_expect (s, PADDOCK_MESSAGE_LOCK_STATUS);

    g_assert_cmpstr (status->lock, ==, "off");
  }

  /* The agent is still held, untouched, and the ask still answerable. */
  g_assert_false (out_exists (s, "asked-marker"));
  session_decide (s, ask->id, "allow");
  paddock_message_free (session_expect (s, PADDOCK_MESSAGE_DECIDED));
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

/* A client that disconnects mid-ask changes nothing; a later one can answer.
 * The half request is raw bytes (session_send_raw()): PaddockClient never
 * leaves a line unfinished. The later client is a PaddockClient. */
static void
test_disconnect_mid_ask (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, (const char *[]) { "--ask-timeout", "60", NULL });
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) replayed = NULL;
  g_autofree char *ask_line = NULL;
  g_autofree char *replayed_line = NULL;

  /* Half a request, then gone. */
  session_send_raw (s, "{\"type\":\"deci");
  session_disconnect (s);
  g_usleep (300 * 1000);
  g_assert_false (out_exists (s, "asked-marker"));
  g_assert_nonnull (g_subprocess_get_identifier (s->run));  /* still running */

  session_connect (s);
  paddock_message_free (session_expect (s, PADDOCK_MESSAGE_HELLO));
  /* The pending ask is replayed to a client that attaches late. */
  replayed = session_expect (s, PADDOCK_MESSAGE_ASK);
  ask_line = paddock_message_to_line (ask);
  replayed_line = paddock_message_to_line (replayed);
  g_assert_cmpstr (replayed_line, ==, ask_line);

  session_decide (s, ask->id, "allow");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("PADDOCK_RUN") != NULL)
    test_session_init (&argc, &argv);
  else
    g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/protocol/round-trip", test_round_trip);
  g_test_add_func ("/paddock/protocol/requests", test_requests);
  g_test_add_func ("/paddock/protocol/notice", test_notice);
  g_test_add_func ("/paddock/protocol/strict", test_strict);
  g_test_add_func ("/paddock/protocol/line-reader", test_line_reader);
  g_test_add_func ("/paddock/protocol/escape", test_escape);
  g_test_add_func ("/paddock/protocol/exec-display-line", test_exec_display_line);
  g_test_add_func ("/paddock/protocol/home-display-path", test_home_display_path);
  if (g_getenv ("PADDOCK_RUN") != NULL)
    {
      g_test_add_func ("/paddock/protocol/garbage", test_garbage);
      g_test_add_func ("/paddock/protocol/disconnect-mid-ask", test_disconnect_mid_ask);
    }
  return g_test_run ();
}
