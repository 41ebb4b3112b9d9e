/* test-control.c: the control socket: peers, clients, paddockctl list and attach
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Who may connect (never a process of the agent's), what a client is
 * told and how attach shows it, answers from several clients, and
 * clients that fall behind or come while paddock-run is out of
 * descriptors.
 * See test-session.h for the sessions they run.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-autofd.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void
test_peer_in_tree (void)
{
  g_autoptr(Session) s = session_start ("connect", FALSE, NULL);
  g_autofree char *peer = NULL;
  g_autoptr(GPtrArray) refused = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  peer = out_text (s, "peer");
  g_assert_nonnull (strstr (peer, "\"type\":\"error\""));
  g_assert_nonnull (strstr (peer, "inside the agent's process tree"));
  g_assert_null (strstr (peer, "hello"));
  refused = audit_records (s, "control-refused");
  g_assert_cmpuint (refused->len, ==, 1);
}

/* A client that stops reading (a paused terminal) is dropped once it is
 * far behind, and the session runs on; attach then says so, and how to
 * follow again, where it said the session went away. */
static void
test_attach_falls_behind (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; "
    "big=$(head -c 100000 /dev/zero | tr '\\0' x); "
    "i=0; while [ $i -lt 150 ]; do /bin/true \"$big\" \"$big\"; i=$((i + 1)); done; "
    ": > \"$1/flooded\"; while [ ! -e \"$1/done\" ]; do sleep 0.05; done; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *done = out_file (s, "done");
  g_autofree char *expected = g_strdup_printf ("paddockctl: the session %s runs on, but stopped sending to this "
                                               "client, which fell too far behind", session);

  attach = attach_start (s, (const char *[]) { session, "--watch", NULL }, TRUE, &lines, &seen);
  session_go (s);
  /* Not read meanwhile: paddockctl blocks on its output, the session's
   * messages pile up for it. */
  g_assert_true (wait_for_out (s, "flooded", 60));

  out = stream_text (G_INPUT_STREAM (lines));
  err = stream_text (g_subprocess_get_stderr_pipe (attach));
  g_subprocess_wait (attach, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (attach), ==, 1);
  if (strstr (err, expected) == NULL)
    g_error ("expected \"%s\", got: %s", expected, err);
  g_assert_null (strstr (out, "session ended"));

  g_file_set_contents (done, "", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (session_wait (s), ==, 0);
}

static void
run_attach (gboolean by_stdin)
{
  g_autoptr(Session) s = session_start ("ask-beside-runs", FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(TestResult) list = NULL;
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  list = ctl_run (s, (const char *[]) { "list", NULL });
  g_assert_nonnull (strstr (list->out, session));
  g_assert_nonnull (strstr (list->out, "fake-agent.sh"));

  /* From its status line on, it counts as someone who answers. */
  if (by_stdin)
    attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  else
    attach = attach_start (s, (const char *[]) { session, "--answer", "allow", NULL }, TRUE, &lines, &seen);

  session_go (s);
  if (by_stdin)
    {
      g_autofree char *prompt = read_until (lines, "wants to run");
      GOutputStream *in = g_subprocess_get_stdin_pipe (attach);

      g_assert_nonnull (strstr (prompt, "asked-marker"));
      /* Programs that run meanwhile are shown above the question, which
       * is not asked again for each: only its answer line comes back. */
      for (guint i = 0; i < 3; i++)
        {
          g_autofree char *run = read_until (lines, "allow  /bin/true");

          g_assert_null (strstr (run, "wants to run"));
          if (i > 0)
            g_assert_nonnull (strstr (run, "Allow #"));
        }
      g_output_stream_write_all (in, "n\n", 2, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  rest = read_until (lines, "session ended");
  g_assert_null (strstr (rest, "wants to run"));
  g_assert_cmpint (session_wait (s), ==, 0);
  err = attach_finish (attach);
  g_assert_cmpstr (err, ==, "");

  g_assert_nonnull (strstr (rest, by_stdin ? "denied by user" : "allowed by user"));
  g_assert_nonnull (strstr (rest, "session ended"));
  g_assert_cmpint (out_exists (s, "asked-marker"), ==, !by_stdin);
}

/* A command of megabytes (ten arguments of 120 kB of control characters,
 * six bytes each in JSON) is told to clients cut as an exec's argv is:
 * its hello was longer than any client reads, so nobody could list the
 * session, attach to it, or answer its asks. */
static void
test_huge_command (void)
{
  g_autofree char *big = g_strnfill (120 * 1024, '\001');
  g_autoptr(GPtrArray) command = g_ptr_array_new ();
  g_autoptr(Session) s = NULL;
  g_autofree char *session = NULL;
  g_autofree char *listed = NULL;

  g_ptr_array_add (command, "sh");
  g_ptr_array_add (command, "-c");
  g_ptr_array_add (command, WAIT_FOR_GO);
  g_ptr_array_add (command, "sh");
  g_ptr_array_add (command, "@OUT@");
  for (guint i = 0; i < 10; i++)
    g_ptr_array_add (command, big);
  g_ptr_array_add (command, NULL);
  s = session_start_command (NULL, (const char * const *) command->pdata, FALSE, NULL);
  session = wait_for_socket (s);

  g_free (list_and_watch (s, session, &listed, " …(truncated) (agent pid "));
  g_assert_true (g_str_has_suffix (listed, " …(truncated)\n"));
}

/* A command with bytes that are not UTF-8 (a Latin-1 file name): its
 * hello was not JSON a client could read, so nobody could list the
 * session or attach to it. Each byte shows as \xNN, once, and a
 * backslash as \\, in the list, the greeting and the timeline. */
static void
test_not_utf8_command (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", WAIT_FOR_GO,
    "sh", "@OUT@", "caf\xe9", "back\\slash", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *listed = NULL;
  g_autofree char *rest = list_and_watch (s, session, &listed, " caf\\xe9 back\\\\slash (agent pid ");

  g_assert_nonnull (strstr (listed, " caf\\xe9 back\\\\slash\n"));
  g_assert_nonnull (strstr (rest, "#1 "));
  g_assert_nonnull (strstr (rest, " caf\\xe9 back\\\\slash\n"));
}

/* Asked about a link of another name, attach says what it leads to: the
 * answer depends on it, and the rule that asks went by it. */
static void
test_attach_link (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; ln -s /usr/bin/touch \"$1/t\" && \"$1/t\" \"$1/asked-marker\"; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *asked = NULL;

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  prompt = read_until (lines, "why it asks");
  asked = g_strdup_printf ("wants to run: %s/t %s/asked-marker\n  which is: /usr/bin/touch\n", s->out, s->out);
  g_assert_nonnull (strstr (prompt, asked));
  g_output_stream_write_all (g_subprocess_get_stdin_pipe (attach), "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  g_assert_false (out_exists (s, "asked-marker"));
}

/* In attach, "s" for the first of three held asks of one command settles
 * the other two: each is shown decided, and the next question is about
 * the command the answer does not cover, not about them in turn. */
static void
test_attach_remember_settles (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go; for i in 1 2 3; do touch \"$1/asked-marker\" & done; wait; "
    "touch \"$1/asked-marker-odd\"; echo odd=$? >>\"$1/log\"; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *first = NULL;
  g_autofree char *between = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *held = NULL;
  GOutputStream *in;

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  in = g_subprocess_get_stdin_pipe (attach);
  session_go (s);
  first = read_until (lines, "wants to run");
  g_assert_null (strstr (strstr (first, "wants to run"), "-odd"));
  /* All three are held before the answer. */
  held = wait_for_lines (s->audit, "\"decision\":\"ask\"", 3);
  g_assert_cmpuint (count_lines (held, "\"decision\":\"ask\""), ==, 3);
  g_output_stream_write_all (in, "s\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);

  between = read_until (lines, "wants to run");
  g_test_message ("attach printed after the answer: %s", between);
  g_assert_nonnull (strstr (between, "allowed by user, remembered for the session"));
  g_assert_cmpuint (count_lines (between, "allowed by the rules as they now stand  [remembered-"), ==, 2);
  g_assert_nonnull (strstr (strstr (between, "wants to run"), "asked-marker-odd"));
  g_output_stream_write_all (in, "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);

  rest = read_until (lines, "session ended");
  g_assert_null (strstr (rest, "wants to run"));
  g_assert_nonnull (strstr (rest, "denied by user"));
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  g_assert_true (out_exists (s, "asked-marker"));
  g_assert_false (out_exists (s, "asked-marker-odd"));
}

/* The question on screen is decided elsewhere (here by another client;
 * its deadline does the same) just as the user answers it: the answer,
 * typed for that question, is not taken for the next one, which took its
 * place a moment before. It was: "y" for one command allowed another that
 * the user never saw. */
static void
test_attach_answer_for_gone_question (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go; (touch \"$1/asked-marker1\"; echo one=$? >>\"$1/log\") & w \"$1\" go2; "
    "(touch \"$1/asked-marker2\"; echo two=$? >>\"$1/log\") & wait; exit 0",
    "sh", "@OUT@", NULL }, TRUE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(PaddockMessage) first = NULL;
  g_autoptr(PaddockMessage) second = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *next = NULL;
  g_autofree char *refused = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *log = NULL;
  g_autofree char *not_taken = NULL;
  GOutputStream *in;

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  in = g_subprocess_get_stdin_pipe (attach);
  session_go (s);
  first = session_expect (s, PADDOCK_MESSAGE_ASK);
  /* The second is asked once the first is: in that order. */
  session_go_on (s, "go2");
  second = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_nonnull (strstr (first->argv[1], "asked-marker1"));
  shown = read_until (lines, "wants to run");
  g_assert_nonnull (strstr (strstr (shown, "wants to run"), "asked-marker1"));

  /* Decided at the other client; attach then asks about the second. */
  session_decide (s, first->id, "deny");
  next = read_until (lines, "wants to run");
  g_assert_nonnull (strstr (next, "denied by user at another client\n"));
  g_assert_nonnull (strstr (strstr (next, "wants to run"), "asked-marker2"));
  g_output_stream_write_all (in, "y\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  not_taken = g_strdup_printf ("That answer came for #%" G_GINT64_FORMAT ", decided just before it; "
                               "it is not taken for #%" G_GINT64_FORMAT ".", first->id, second->id);
  refused = read_until (lines, "it is not taken for");
  g_assert_nonnull (strstr (refused, not_taken));

  /* Still held, and not run; the next answer is taken. */
  g_usleep (200 * 1000);
  g_assert_false (out_exists (s, "asked-marker2"));
  g_output_stream_write_all (in, "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));

  log = out_text (s, "log");
  g_assert_cmpuint (count_lines (log, "one=126"), ==, 1);
  g_assert_cmpuint (count_lines (log, "two=126"), ==, 1);
  g_assert_false (out_exists (s, "asked-marker1"));
  g_assert_false (out_exists (s, "asked-marker2"));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 2);
  for (guint i = 0; i < decisions->len; i++)
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, i), "decision"), ==, "deny");
}

/* What a client was told up to the session's reply to its lock-status. */
typedef struct
{
  gsize    bytes;
  guint    n_long;
  gboolean answered;
} Replay;

static void
count_replay (PaddockClient        *client,
              const PaddockMessage *message,
              Replay               *replay)
{
  /* The session writes each message as paddock_message_to_line() does:
   * the same line, the same length as on the wire. */
  g_autofree char *line = paddock_message_to_line (message);

  if (replay->answered)
    return;
  replay->bytes += strlen (line);
  if (message->type == PADDOCK_MESSAGE_EXEC && strlen (line) > 1000000)
    replay->n_long++;
  if (message->type == PADDOCK_MESSAGE_LOCK_STATUS)
    replay->answered = TRUE;
}

/* A session whose timeline holds long command lines of control
 * characters (six bytes each on the wire) can still be attached to: the
 * replay counted as falling behind, and a client that did not read it
 * all at once (attach, busy printing) was dropped as it attached, again
 * each time, with an ask perhaps waiting. */
static void
test_attach_after_long_lines (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "a=$(head -c 200000 /dev/zero | tr '\\0' '\\1'); "
    "for i in $(seq 45); do /bin/true \"$a\"; done; echo long >\"$1/long-done\"; "
    "w \"$1\" go; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *done = out_file (s, "long-done");
  g_autofree char *socket_path = g_strdup_printf ("%s/paddock/%s.sock", s->runtime, session);
  g_autofree char *hello_line = NULL;
  PaddockClient *client = NULL;
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GAsyncResult) replied = NULL;
  g_autoptr(PaddockMessage) reply = NULL;
  g_autoptr(GError) error = NULL;
  Replay replay = { 0 };

  g_free (wait_for_lines (done, "long", 1));
  g_assert_true (g_file_test (done, G_FILE_TEST_EXISTS));
  /* Every run so far has ended (head, tr, seq and the 45), so each is in
   * the timeline the session keeps: the replay is all that comes. */
  wait_for_records (s, "exit", 48);

  /* Attached, and not reading for a moment (the context does not run):
   * the replay waits queued. The client read at most one buffer of it
   * with the greeting, and tells it only when the context runs. */
  paddock_client_connect_async (socket_path, TEST_SESSION_WAIT_SECONDS * 1000, NULL, store_result, &connected);
  client = paddock_client_connect_finish (wait_for_result (&connected), &error);
  g_assert_no_error (error);
  hello_line = paddock_message_to_line (paddock_client_get_hello (client));
  replay.bytes = strlen (hello_line);
  g_signal_connect (client, "message", G_CALLBACK (count_replay), &replay);
  g_usleep (500 * 1000);
  paddock_client_request_async (client, PADDOCK_MESSAGE_LOCK_STATUS, TEST_SESSION_WAIT_SECONDS * 1000, NULL,
                                store_result, &replied);
  reply = paddock_client_request_finish (client, wait_for_result (&replied), &error);
  if (error != NULL)
    g_error ("no lock-status after %zu bytes, %u long runs: %s", replay.bytes, replay.n_long, error->message);
  g_assert_true (replay.answered);
  g_test_message ("replayed %u long runs, %zu bytes", replay.n_long, replay.bytes);
  g_assert_cmpuint (replay.n_long, >, 0);
  /* The backlog is bounded by what it sends: half what a client may lag. */
  g_assert_cmpuint (replay.bytes, <=, 8 * 1024 * 1024 + 64 * 1024);

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  /* The request's result holds the client. */
  g_clear_object (&replied);
  client_close_and_free (&client);
}

/* The line of @text that holds @needle, or NULL. */
static char *
line_with (const char *text,
           const char *needle)
{
  const char *at = strstr (text, needle);
  const char *start;
  const char *end;

  if (at == NULL)
    return NULL;
  for (start = at; start > text && start[-1] != '\n'; start--)
    ;
  end = strchr (at, '\n');
  return g_strndup (start, end != NULL ? (gsize) (end - start) : strlen (start));
}

/* attach shows the start and the end of a long command line, and says
 * how much it leaves out: a line of 100 kB went to the terminal whole, a
 * megabyte of escapes for a line of control characters. A question shows
 * more of it than the timeline does. */
static void
test_attach_cuts_long_lines (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go; a=$(head -c 100000 /dev/zero | tr '\\0' x); /bin/true \"$a\" TAILMARK; "
    "touch \"$1/asked-marker\" \"$a\" TAILEND; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *run = NULL;
  g_autofree char *question = NULL;

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  shown = read_until (lines, "wants to run");
  run = line_with (shown, "allow  /bin/true ");
  question = line_with (shown, "wants to run");
  g_assert_nonnull (run);
  g_assert_nonnull (question);
  g_test_message ("%zu and %zu bytes shown", strlen (run), strlen (question));
  g_assert_cmpuint (strlen (run), <, 4 * 1024 + 200);
  g_assert_true (g_str_has_suffix (run, "xxx TAILMARK"));
  g_assert_nonnull (strstr (run, "bytes not shown] …"));
  g_assert_cmpuint (strlen (question), >, 16 * 1024);
  g_assert_cmpuint (strlen (question), <, 16 * 1024 + 200);
  g_assert_nonnull (strstr (question, "/asked-marker xxx"));
  g_assert_true (g_str_has_suffix (question, "xxx TAILEND"));
  g_assert_nonnull (strstr (question, "bytes not shown] …"));

  g_output_stream_write_all (g_subprocess_get_stdin_pipe (attach), "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  rest = read_until (lines, "session ended");
  g_assert_nonnull (strstr (rest, "denied by user"));
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  g_assert_false (out_exists (s, "asked-marker"));
}

/* A denied program the shell finds again in the next folder on PATH is
 * two exec records, but one line in attach: the second says where. */
static void
test_attach_path_repeat (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; PATH=\"$1/a:$1/b\"; touch denied-marker; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;
  g_autofree char *again = NULL;
  guint denials = 0;

  for (const char **dir = (const char *[]) { "a", "b", NULL }; *dir; dir++)
    {
      g_autofree char *folder = out_file (s, *dir);
      g_autofree char *touch = g_build_filename (folder, "touch", NULL);

      g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
      g_assert_cmpint (symlink ("/usr/bin/touch", touch), ==, 0);
    }

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  err = attach_finish (attach);
  g_test_message ("%s", rest);

  /* Both attempts are in the log. */
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    denials += g_strcmp0 (json_object_get_string_member (g_ptr_array_index (execs, i), "decision"), "deny") == 0;
  g_assert_cmpuint (denials, ==, 2);
  g_assert_false (out_exists (s, "denied-marker"));

  /* One full line, then the short one. */
  again = g_strdup_printf ("DENY   again, at %s/b/touch (the next folder on its PATH)", s->out);
  g_assert_nonnull (strstr (rest, "DENY   touch denied-marker  [test-deny]"));
  g_assert_nonnull (strstr (rest, again));
  g_assert_null (strstr (strstr (rest, "DENY   touch denied-marker") + 1, "DENY   touch denied-marker"));
}

/* A client that can answer nothing (--watch, or standard input already
 * at its end) is not counted as one that answers: the ask is decided at
 * once as with nobody attached, instead of held until its deadline. */
static void
run_attach_watch (gboolean closed_stdin)
{
  g_autoptr(Session) s = session_start ("ask-beside-runs", FALSE, (const char *[]) { "--ask-timeout", "30", NULL });
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;
  JsonObject *record;

  if (closed_stdin)
    attach = attach_start (s, (const char *[]) { session, NULL }, TRUE, &lines, &seen);
  else
    attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);

  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_null (strstr (rest, "wants to run"));
  g_assert_nonnull (strstr (rest, "DENY   touch "));
  g_assert_nonnull (strstr (rest, "/asked-marker  [test-ask, no one to answer]\n"));
  g_assert_false (out_exists (s, "asked-marker"));
  execs = audit_records (s, "exec");
  record = audit_exec_with (execs, "asked-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");

  err = attach_finish (attach);
  if (closed_stdin)
    g_assert_nonnull (strstr (err, "standard input is closed, so this only watches"));
  else
    g_assert_cmpstr (err, ==, "");
}

static void
test_attach_watch (void)
{
  run_attach_watch (FALSE);
}

static void
test_attach_closed_stdin (void)
{
  run_attach_watch (TRUE);
}

/* Answers end (Ctrl-D) while a question waits: attach detaches and says
 * so; the ask is not lost, and another client still answers it. */
static void
test_attach_input_ends (void)
{
  g_autoptr(Session) s = session_start ("ask-beside-runs", FALSE, (const char *[]) { "--ask-timeout", "30", NULL });
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GDataInputStream) second_lines = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *second_seen = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *err = NULL;
  g_autofree char *second_err = NULL;
  g_autofree char *rest = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *record;

  attach = attach_start (s, (const char *[]) { session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  prompt = read_until (lines, "wants to run");
  g_assert_nonnull (strstr (prompt, "asked-marker"));

  g_output_stream_close (g_subprocess_get_stdin_pipe (attach), NULL, &error);
  g_assert_no_error (error);
  err = attach_finish (attach);
  g_assert_nonnull (strstr (err, "no more input; detached"));
  g_assert_nonnull (strstr (err, "still waits for an answer"));
  g_assert_false (out_exists (s, "asked-marker"));

  second = attach_start (s, (const char *[]) { session, "--answer", "allow", NULL }, TRUE, &second_lines, &second_seen);
  rest = read_until (second_lines, "session ended");
  g_assert_nonnull (strstr (rest, "allowed by user"));
  g_assert_cmpint (session_wait (s), ==, 0);
  second_err = attach_finish (second);
  g_assert_true (out_exists (s, "asked-marker"));
  execs = audit_records (s, "exec");
  record = audit_exec_with (execs, "asked-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "ask");
}

/* Where one client answers, the others say so, naming it: one that was
 * about to answer differently must not take that answer for its own.
 * The record names the client too. */
static void
test_attach_other_client (void)
{
  g_autoptr(Session) s = session_start ("ask-beside-runs", FALSE, (const char *[]) { "--ask-timeout", "30", NULL });
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) asking = NULL;
  g_autoptr(GSubprocess) answering = NULL;
  g_autoptr(GDataInputStream) asking_lines = NULL;
  g_autoptr(GDataInputStream) answering_lines = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *asking_seen = NULL;
  g_autofree char *answering_seen = NULL;
  g_autofree char *asked = NULL;
  g_autofree char *answered = NULL;
  g_autofree char *elsewhere = NULL;
  g_autofree char *answering_pid = NULL;

  asking = attach_start (s, (const char *[]) { session, NULL }, FALSE, &asking_lines, &asking_seen);
  answering = attach_start (s, (const char *[]) { session, "--answer", "allow", "--remember", "session", NULL },
                            TRUE, &answering_lines, &answering_seen);
  answering_pid = g_strdup (g_subprocess_get_identifier (answering));
  elsewhere = g_strdup_printf ("allowed by user at another client (pid %s), remembered for the session\n",
                               answering_pid);
  session_go (s);
  asked = read_until (asking_lines, "allowed by user");
  g_assert_nonnull (strstr (asked, elsewhere));
  answered = read_until (answering_lines, "allowed by user");
  g_assert_nonnull (strstr (answered, "allowed by user, remembered for the session\n"));

  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 1);
  g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (decisions, 0), "client_pid"), ==,
                   atoi (answering_pid));
  g_assert_cmpint (session_wait (s), ==, 0);
  g_output_stream_close (g_subprocess_get_stdin_pipe (asking), NULL, &error);
  g_assert_no_error (error);
  g_free (attach_finish (asking));
  g_free (attach_finish (answering));
}

/* An ask nobody answers in time: attach says so, not "denied by timeout". */
static void
test_attach_deadline (void)
{
  g_autoptr(Session) s = session_start ("ask-beside-runs", FALSE, (const char *[]) { "--ask-timeout", "1", NULL });
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) silent = NULL;
  g_autoptr(GSubprocess) watcher = NULL;
  g_autoptr(GDataInputStream) silent_lines = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *silent_seen = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;

  /* One who could answer, and does not; one who watches. */
  silent = attach_start (s, (const char *[]) { session, NULL }, FALSE, &silent_lines, &silent_seen);
  watcher = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_nonnull (strstr (rest, "ASK    touch "));
  g_assert_nonnull (strstr (rest, "denied: no answer came in time\n"));
  g_assert_null (strstr (rest, "by timeout"));
  g_assert_false (out_exists (s, "asked-marker"));
  err = attach_finish (watcher);
  g_assert_cmpstr (err, ==, "");
  g_clear_pointer (&err, g_free);
  err = attach_finish (silent);
}

static void
test_attach_answer (void)
{
  run_attach (FALSE);
}

static void
test_attach_stdin (void)
{
  run_attach (TRUE);
}

/* A session that takes the connection but does not greet is still listed,
 * never passed over for "No sessions are running": one whose paddock-run
 * is stopped (^Z where it runs) is said to be at once, with how to go on;
 * one that is merely silent, after the wait for its greeting. */
static void
test_list_not_answering (void)
{
  g_autoptr(Session) s = session_start ("wait-then-ask", FALSE, (const char *[]) { "--on-ask", "allow", NULL });
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *silent_path = g_build_filename (s->runtime, "paddock", "0123456789ab.sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  paddock_autofd int silent = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_autoptr(TestResult) list = NULL;
  g_autoptr(TestResult) kill_ctl = NULL;
  g_autofree char *row = NULL;
  g_autofree char *says = NULL;
  pid_t run = (pid_t) atoi (g_subprocess_get_identifier (s->run));

  /* A listener that never accepts: connecting works, nothing is said. */
  g_assert_cmpint (silent, >=, 0);
  g_strlcpy (addr.sun_path, silent_path, sizeof addr.sun_path);
  g_assert_cmpint (bind (silent, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (silent, 4), ==, 0);

  /* Both asked while it is stopped, and it is let go before anything is
   * checked: a failed check must not leave a stopped paddock-run behind. */
  g_assert_cmpint (kill (run, SIGSTOP), ==, 0);
  list = ctl_run (s, (const char *[]) { "list", NULL });
  kill_ctl = ctl_run (s, (const char *[]) { "kill", session, NULL });
  g_assert_cmpint (kill (run, SIGCONT), ==, 0);

  g_assert_cmpint (list->status, ==, 1);
  g_assert_null (strstr (list->out, "No sessions"));
  row = g_strdup_printf ("%-14s %-8s %-10s %-7s", session, "?", "?", "stopped");
  g_assert_nonnull (strstr (list->out, row));
  g_clear_pointer (&row, g_free);
  row = g_strdup_printf ("%-14s %-8s %-10s %-7s", "0123456789ab", "?", "?", "silent");
  g_assert_nonnull (strstr (list->out, row));
  says = g_strdup_printf ("paddockctl: session %s did not answer: its paddock-run (pid %d) is stopped; "
                          "kill -CONT %d resumes it\n", session, (int) run, (int) run);
  g_assert_nonnull (strstr (list->err, says));
  g_assert_nonnull (strstr (list->err, "paddockctl: session 0123456789ab did not answer within 5 s\n"));
  /* Asked of that session alone, the same answer. */
  g_assert_cmpint (kill_ctl->status, ==, 1);
  g_assert_cmpstr (kill_ctl->err, ==, says);

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

/* Clock ticks of CPU @pid has used, user and system. */
static guint64
process_cpu_ticks (int pid)
{
  g_auto(GStrv) fields = process_stat_fields (pid);

  /* utime and stime are fields 14 and 15 of stat(5). */
  g_assert_cmpuint (g_strv_length (fields), >, 13);
  return g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
}

/* Lowers paddock-run's soft limit on open files to @soft, below the
 * ceiling it keeps its programs' descriptors under: it runs out of
 * descriptors as it would where something else of its own held its
 * reserve, its clients, say. */
static void
lower_descriptor_limit (Session *s,
                        rlim_t   soft)
{
  pid_t run = (pid_t) atoi (g_subprocess_get_identifier (s->run));
  struct rlimit limit;

  g_assert_cmpint (prlimit (run, RLIMIT_NOFILE, NULL, &limit), ==, 0);
  limit.rlim_cur = soft;
  g_assert_cmpint (prlimit (run, RLIMIT_NOFILE, &limit, NULL), ==, 0);
}

/* A peer inside the agent's tree that connects while paddock-run is out
 * of descriptors is refused, even when the one descriptor that comes
 * free lets its connection in and leaves none to look at its process
 * with: it waits until there are. Before, it was served. */
static void
test_peer_in_tree_out_of_descriptors (void)
{
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = 64, .rlim_max = 64 } };
  g_autoptr(Session) s = NULL;
  g_autofree char *err = NULL;
  g_autofree char *pids_text = NULL;
  g_autofree char *peer = NULL;
  g_autofree char *log = NULL;
  g_auto(GStrv) pids = NULL;
  g_autoptr(GPtrArray) refused = NULL;
  guint killed = 0;

  spawn_limit = &given;
  s = session_start ("connect-out-of-descriptors", FALSE, NULL);
  spawn_limit = NULL;
  g_free (wait_for_socket (s));
  lower_descriptor_limit (s, 48);
  err = wait_out_of_descriptors (s);
  /* The whole line: the file is there before the shell writes to it. */
  pids_text = wait_for_out_lines (s, "pids", NULL, 1);
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, 150);

  session_go (s);
  /* The helper's files appear whole (g_file_set_contents()). */
  g_assert_true (wait_for_out (s, "peer.connected", TEST_SESSION_WAIT_SECONDS));
  /* One descriptor comes free: the connection's. Held a second (five
   * tries to accept), the peer gets no hello. */
  g_assert_cmpint (kill (atoi (pids[0]), SIGKILL), ==, 0);
  g_usleep (G_USEC_PER_SEC);
  g_assert_false (out_exists (s, "peer"));
  /* The rest come free, and the peer is looked at. */
  for (guint i = 1; pids[i] != NULL; i++)
    if (kill (atoi (pids[i]), SIGKILL) == 0)
      killed++;
  g_assert_cmpuint (killed, >, 0);
  g_assert_true (wait_for_out (s, "peer", TEST_SESSION_WAIT_SECONDS));
  peer = out_text (s, "peer");
  g_assert_nonnull (strstr (peer, "\"type\":\"error\""));
  g_assert_nonnull (strstr (peer, "inside the agent's process tree"));
  g_assert_null (strstr (peer, "hello"));
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "connect=0"));
  refused = audit_records (s, "control-refused");
  g_assert_cmpuint (refused->len, ==, 1);
}

/* A client that connects while paddock-run is out of descriptors waits
 * for one, without paddock-run spinning on its socket, and is served once
 * the programs holding them end (the test ends them, once it has seen
 * paddock-run wait). The agent waits until the client has its hello: a
 * session that ended first would drop it unserved. */
static void
test_connect_without_descriptors (void)
{
  const guint n = 150;
  g_autofree char *script = g_strdup_printf (
    "pids=; i=0; while [ $i -lt %u ]; do /bin/sleep 60 & pids=\"$pids $!\"; i=$((i+1)); done; "
    "echo $pids > \"$1/pids\"; wait; " WAIT_FOR_GO, n);
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = 64, .rlim_max = 64 } };
  g_autoptr(Session) s = NULL;
  g_autoptr(GError) error = NULL;
  PaddockClient *client = NULL;
  g_autoptr(GAsyncResult) connected = NULL;
  g_autofree char *session = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *err = NULL;
  g_autofree char *pids_text = NULL;
  g_auto(GStrv) pids = NULL;
  int pid;
  guint64 ticks;
  long hz = sysconf (_SC_CLK_TCK);

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, FALSE, NULL);
  spawn_limit = NULL;
  pid = atoi (g_subprocess_get_identifier (s->run));
  session = wait_for_socket (s);
  lower_descriptor_limit (s, 48);
  /* Out of descriptors once it says so: the sleeps hold them until the
   * test ends them. */
  err = wait_out_of_descriptors (s);
  pids_text = wait_for_out_lines (s, "pids", NULL, 1);
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, n);

  socket_path = g_strdup_printf ("%s/paddock/%s.sock", s->runtime, session);
  /* Connected at once; the greeting may take as long as the test does. */
  paddock_client_connect_async (socket_path, TEST_SESSION_WAIT_SECONDS * 1000, NULL, store_result, &connected);

  /* A second's wait costs it next to nothing: spinning, it would be a second. */
  ticks = process_cpu_ticks (pid);
  run_main_context (1000);
  g_assert_cmpuint (process_cpu_ticks (pid) - ticks, <, (guint64) hz / 4);
  /* Out of descriptors, it has not taken the connection: no greeting yet. */
  if (connected != NULL)
    {
      client = paddock_client_connect_finish (connected, &error);
      g_error ("the client connected while paddock-run was out of descriptors: %s",
               error != NULL ? error->message : "it was greeted");
    }

  for (guint i = 0; pids[i] != NULL; i++)
    g_assert_cmpint (kill (atoi (pids[i]), SIGKILL), ==, 0);
  client = paddock_client_connect_finish (wait_for_result (&connected), &error);
  g_assert_no_error (error);
  g_assert_nonnull (paddock_client_get_hello (client));

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  client_close_and_free (&client);
  g_free (err);
  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "cannot take a control connection now: Too many open files"));
}

int
main (int   argc,
      char *argv[])
{
  test_session_init (&argc, &argv);

  g_test_add_func ("/paddock/control/attach-remember-settles", test_attach_remember_settles);
  g_test_add_func ("/paddock/control/attach-after-long-lines", test_attach_after_long_lines);
  g_test_add_func ("/paddock/control/attach-cuts-long-lines", test_attach_cuts_long_lines);
  g_test_add_func ("/paddock/control/attach-answer-for-gone-question", test_attach_answer_for_gone_question);
  g_test_add_func ("/paddock/control/peer-in-tree-refused", test_peer_in_tree);
  g_test_add_func ("/paddock/control/attach-answer", test_attach_answer);
  g_test_add_func ("/paddock/control/attach-stdin", test_attach_stdin);
  g_test_add_func ("/paddock/control/attach-watch", test_attach_watch);
  g_test_add_func ("/paddock/control/attach-closed-stdin", test_attach_closed_stdin);
  g_test_add_func ("/paddock/control/attach-input-ends", test_attach_input_ends);
  g_test_add_func ("/paddock/control/attach-deadline", test_attach_deadline);
  g_test_add_func ("/paddock/control/list-not-answering", test_list_not_answering);
  g_test_add_func ("/paddock/control/not-utf8-command", test_not_utf8_command);
  g_test_add_func ("/paddock/control/attach-path-repeat", test_attach_path_repeat);
  g_test_add_func ("/paddock/control/huge-command", test_huge_command);
  g_test_add_func ("/paddock/control/attach-other-client", test_attach_other_client);
  g_test_add_func ("/paddock/control/attach-link", test_attach_link);
  g_test_add_func ("/paddock/control/attach-falls-behind", test_attach_falls_behind);
  g_test_add_func ("/paddock/control/connect-without-descriptors", test_connect_without_descriptors);
  g_test_add_func ("/paddock/control/peer-in-tree-out-of-descriptors", test_peer_in_tree_out_of_descriptors);

  return g_test_run ();
}
