/* test-exec.c: the exec monitor decides, holds and records what a real agent runs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every case runs paddock-run on tests/fake-agent.sh under a small test
 * policy (touch of a "denied" file is denied, of an "asked" file asked) and
 * looks at what the agent left behind, what the protocol said and what the
 * audit log holds.
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-autofd.h"
#include "paddock-exec-monitor.h"
#include "paddock-process-tree.h"
#include "paddock-protocol.h"
#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *paddock_run;
static char *paddockctl;
static char *fake_agent;
static char *self_exe;

static const char test_policy[] =
  "{\n"
  "  \"version\": 1,\n"
  "  \"default\": \"allow\",\n"
  "  \"rules\": [\n"
  "    { \"name\": \"test-deny\", \"match\": { \"program\": \"touch\", \"argv\": \"denied-marker\" },\n"
  "      \"action\": \"deny\", \"reason\": \"the test denies this\" },\n"
  "    { \"name\": \"test-ask\", \"match\": { \"program\": \"touch\", \"argv\": \"asked-marker\" },\n"
  "      \"action\": \"ask\", \"reason\": \"the test asks this\" },\n"
  "    { \"name\": \"test-piped\", \"match\": { \"script\": \"^[^;&]*fetch-marker [0-9][^;&]*\\\\|\\\\s*(?:ba)?sh(?:\\\\s+/dev/fd/[0-9]+)?$\" },\n"
  "      \"action\": \"deny\", \"reason\": \"the test denies a pipe from fetch-marker into a shell\" },\n"
  "    { \"name\": \"test-piped-ask\", \"match\": { \"script\": \"^[^;&]*fetch-asked [0-9][^;&]*\\\\|\\\\s*sh$\" },\n"
  "      \"action\": \"ask\", \"reason\": \"the test asks a pipe from fetch-asked into a shell\" }\n"
  "  ]\n"
  "}\n";

typedef struct
{
  char              *dir;
  char              *out;
  char              *audit;
  char              *runtime;
  GSubprocess       *run;
  int                client;       /* our end of --control-fd, or -1 */
  PaddockLineReader *reader;
  GPtrArray         *seen;         /* every message read */
} Session;

static void
session_free (Session *s)
{
  if (s->run != NULL)
    {
      g_subprocess_force_exit (s->run);
      g_subprocess_wait (s->run, NULL, NULL);
    }
  g_clear_object (&s->run);
  if (s->client >= 0)
    close (s->client);
  paddock_line_reader_free (s->reader);
  g_ptr_array_unref (s->seen);
  test_remove_tree (s->dir);
  g_free (s->dir);
  g_free (s->out);
  g_free (s->audit);
  g_free (s->runtime);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

static char *
read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

/* For an inline agent's script: `w "$1" NAME` waits, 20 s at most, for
 * the file NAME in the out dir ($1), as the fake agent's wait_for does. */
#define SH_WAIT_FOR "w () { i=0; while [ ! -e \"$1/$2\" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; }; "

static char *
out_file (Session    *s,
          const char *name)
{
  return g_build_filename (s->out, name, NULL);
}

/* Where paddock-run's stderr (and the agent's, which shares it) goes. */
static char *
runner_err_file (Session *s)
{
  return g_build_filename (s->dir, "runner-err", NULL);
}

static gboolean
out_exists (Session    *s,
            const char *name)
{
  g_autofree char *path = out_file (s, name);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Whether @name is in @s's folder within @seconds (looked for every 50 ms). */
static gboolean
wait_for_out (Session    *s,
              const char *name,
              guint       seconds)
{
  for (guint i = 0; i < seconds * 20; i++)
    {
      if (out_exists (s, name))
        return TRUE;
      g_usleep (50 * 1000);
    }
  return out_exists (s, name);
}

static char *
out_text (Session    *s,
          const char *name)
{
  g_autofree char *path = out_file (s, name);

  return read_text (path);
}

/* A limit paddock-run is started with, where a test sets one. */
typedef struct
{
  int           resource;
  struct rlimit limit;
} SpawnLimit;

static SpawnLimit *spawn_limit;

static void
set_spawn_limit (gpointer data)
{
  SpawnLimit *limit = data;

  setrlimit (limit->resource, &limit->limit);
}

static GSubprocessLauncher *
launcher_new (Session *s)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autofree char *state = g_build_filename (s->dir, "state", NULL);
  g_autofree char *config = g_build_filename (s->dir, "config", NULL);

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", s->runtime, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", state, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  g_subprocess_launcher_setenv (launcher, "PADDOCK_TEST_HELPER", self_exe, TRUE);
  if (spawn_limit != NULL)
    g_subprocess_launcher_set_child_setup (launcher, set_spawn_limit, spawn_limit, NULL);
  return launcher;
}

/* Runs @command (NULL: the fake agent's @scenario) under paddock-run; in
 * @command, "@OUT@" at the start of an argument stands for the out dir. */
static Session *
session_start_command (const char          *scenario,
                       const char * const  *command,
                       gboolean             with_client,
                       const char * const  *extra)
{
  Session *s = g_new0 (Session, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GPtrArray) expanded_args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *policy = NULL;
  int pair[2];

  s->client = -1;
  s->seen = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  s->reader = paddock_line_reader_new (PADDOCK_PROTOCOL_MAX_EVENT_LINE);
  s->dir = g_dir_make_tmp ("paddock-exec-XXXXXX", &error);
  g_assert_no_error (error);
  s->out = g_build_filename (s->dir, "out", NULL);
  s->runtime = g_build_filename (s->dir, "run", NULL);
  s->audit = g_build_filename (s->dir, "audit.jsonl", NULL);
  policy = g_build_filename (s->dir, "policy.json", NULL);
  g_assert_cmpint (g_mkdir (s->out, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (s->runtime, 0700), ==, 0);
  g_file_set_contents (policy, test_policy, -1, &error);
  g_assert_no_error (error);

  launcher = launcher_new (s);
  {
    g_autofree char *runner_err = runner_err_file (s);
    g_autofree char *runner_out = g_build_filename (s->dir, "runner-out", NULL);

    g_subprocess_launcher_set_stderr_file_path (launcher, runner_err);
    /* Not the test's own stdout: a test that aborts leaves its session
     * behind (a paused one for good), and meson would wait on the pipe
     * until its timeout. */
    g_subprocess_launcher_set_stdout_file_path (launcher, runner_out);
  }
  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, "--project");
  g_ptr_array_add (argv, s->out);
  g_ptr_array_add (argv, "--policy");
  g_ptr_array_add (argv, policy);
  g_ptr_array_add (argv, "--audit");
  g_ptr_array_add (argv, s->audit);
  if (with_client)
    {
      g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
      s->client = pair[0];
      g_subprocess_launcher_take_fd (launcher, pair[1], 3);
      g_ptr_array_add (argv, "--control-fd");
      g_ptr_array_add (argv, "3");
    }
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) extra[i]);
  g_ptr_array_add (argv, "--");
  if (command == NULL)
    {
      g_ptr_array_add (argv, "sh");
      g_ptr_array_add (argv, fake_agent);
      g_ptr_array_add (argv, s->out);
      g_ptr_array_add (argv, (char *) scenario);
    }
  for (guint i = 0; command != NULL && command[i] != NULL; i++)
    {
      if (g_str_has_prefix (command[i], "@OUT@"))
        {
          char *expanded = g_strconcat (s->out, command[i] + 5, NULL);

          g_ptr_array_add (expanded_args, expanded);
          g_ptr_array_add (argv, expanded);
        }
      else
        g_ptr_array_add (argv, (char *) command[i]);
    }
  g_ptr_array_add (argv, NULL);

  s->run = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return s;
}

static Session *
session_start (const char          *scenario,
               gboolean             with_client,
               const char * const  *extra)
{
  return session_start_command (scenario, NULL, with_client, extra);
}

/* session_start() under the default policy, as it ships, and with
 * --on-ask @on_ask unless it is NULL. */
static Session *
session_start_shipped (const char *scenario,
                       gboolean    with_client,
                       const char *on_ask)
{
  g_autofree char *policy = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "data", "default-policy.json", NULL);

  return session_start (scenario, with_client,
                        (const char *[]) { "--policy", policy, on_ask != NULL ? "--on-ask" : NULL, on_ask, NULL });
}

static int
session_wait (Session *s)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_wait (s->run, NULL, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_if_signaled (s->run))
    return 128 + g_subprocess_get_term_sig (s->run);
  return g_subprocess_get_exit_status (s->run);
}

/* The next message on the control fd, or NULL after @timeout_ms or at its end. */
static PaddockMessage *
session_read (Session *s,
              int      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      const char *line;
      gsize length;
      PaddockLineResult result = paddock_line_reader_next (s->reader, &line, &length);
      struct pollfd fds = { .fd = s->client, .events = POLLIN };
      char buffer[65536];
      gint64 remaining;
      ssize_t n;

      if (result == PADDOCK_LINE_OK)
        {
          g_autoptr(GError) error = NULL;
          PaddockMessage *message = paddock_message_parse (line, length, &error);

          g_assert_no_error (error);
          g_ptr_array_add (s->seen, paddock_message_copy (message));
          return message;
        }
      g_assert_cmpint (result, ==, PADDOCK_LINE_NONE);

      remaining = (deadline - g_get_monotonic_time ()) / 1000;
      if (remaining <= 0 || poll (&fds, 1, (int) remaining) <= 0)
        return NULL;
      n = recv (s->client, buffer, sizeof buffer, 0);
      if (n <= 0)
        return NULL;
      paddock_line_reader_feed (s->reader, buffer, n);
    }
}

static PaddockMessage *
session_expect (Session           *s,
                PaddockMessageType type)
{
  for (;;)
    {
      PaddockMessage *message = session_read (s, 20000);

      if (message == NULL)
        g_error ("expected a %s message, the session said nothing more",
                 paddock_message_type_to_string (type));
      if (message->type == type)
        return message;
      paddock_message_free (message);
    }
}

static void
session_send (Session    *s,
              const char *line)
{
  g_assert_cmpint (send (s->client, line, strlen (line), MSG_NOSIGNAL), ==, (gssize) strlen (line));
}

/* Answers the ask @id with @decision, remembered as @remember says (NULL:
 * as the protocol's default, once). */
static void
session_decide_remember (Session    *s,
                         gint64      id,
                         const char *decision,
                         const char *remember)
{
  g_autofree char *line = g_strdup_printf ("{\"type\":\"decide\",\"id\":%" G_GINT64_FORMAT
                                           ",\"decision\":\"%s\"%s%s%s}\n", id, decision,
                                           remember != NULL ? ",\"remember\":\"" : "",
                                           remember != NULL ? remember : "", remember != NULL ? "\"" : "");
  session_send (s, line);
}

static void
session_decide (Session    *s,
                gint64      id,
                const char *decision)
{
  session_decide_remember (s, id, decision, NULL);
}

/* What paddock-run (and the agent, which shares it) wrote to stderr. */
static char *
runner_err_text (Session *s)
{
  g_autofree char *path = runner_err_file (s);

  return read_text (path);
}

/* How many whole lines of @text hold @needle. */
static guint
count_lines (const char *text,
             const char *needle)
{
  guint found = 0;

  for (const char *p = text; p != NULL && (p = strstr (p, needle)) != NULL; p++)
    if (strchr (p, '\n') != NULL)
      found++;
  return found;
}

/* The text of @path once @n of its whole lines hold @needle (a file
 * another process is writing), or as it is after 10 s. */
static char *
wait_for_lines (const char *path,
                const char *needle,
                guint       n)
{
  char *text = NULL;

  for (guint tries = 0; tries < 1000; tries++)
    {
      g_free (text);
      if (!g_file_get_contents (path, &text, NULL, NULL))
        text = g_strdup ("");
      if (count_lines (text, needle) >= n)
        break;
      g_usleep (10 * 1000);
    }
  return text;
}

/* The audit log's records of @type, in order. */
static GPtrArray *
audit_records (Session    *s,
               const char *type)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autofree char *text = read_text (s->audit);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;

      if (*lines[i] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      object = json_node_get_object (json_parser_get_root (parser));
      if (type == NULL || g_strcmp0 (json_object_get_string_member (object, "type"), type) == 0)
        g_ptr_array_add (records, json_object_ref (object));
    }
  return records;
}

/* The exec record whose command line mentions @needle. */
static JsonObject *
audit_exec_with (GPtrArray  *execs,
                 const char *needle)
{
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      JsonArray *argv = json_object_get_array_member (record, "argv");

      for (guint j = 0; j < json_array_get_length (argv); j++)
        {
          JsonNode *node = json_array_get_element (argv, j);

          if (JSON_NODE_HOLDS_VALUE (node) && strstr (json_node_get_string (node), needle) != NULL)
            return record;
        }
    }
  return NULL;
}

/* The exec record whose argv, joined by spaces, is @line, or NULL. */
static JsonObject *
audit_exec_of (GPtrArray  *execs,
               const char *line)
{
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      JsonArray *argv = json_object_get_array_member (record, "argv");
      g_autoptr(GString) joined = g_string_new (NULL);

      for (guint j = 0; j < json_array_get_length (argv); j++)
        {
          JsonNode *node = json_array_get_element (argv, j);

          if (j > 0)
            g_string_append_c (joined, ' ');
          if (JSON_NODE_HOLDS_VALUE (node))
            g_string_append (joined, json_node_get_string (node));
        }
      if (strcmp (joined->str, line) == 0)
        return record;
    }
  return NULL;
}

/* The exec record of @line in @execs, which must be there, decided
 * @decision by the rule @rule (NULL: by none). */
static JsonObject *
assert_exec_decided (GPtrArray  *execs,
                     const char *line,
                     const char *decision,
                     const char *rule)
{
  JsonObject *record = audit_exec_of (execs, line);

  if (record == NULL)
    g_error ("no exec record of `%s`", line);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, decision);
  g_assert_cmpstr (json_object_get_string_member_with_default (record, "rule", NULL), ==, rule);
  return record;
}

/* The exec record of the path @path as exec was given it, or NULL. */
static JsonObject *
audit_exec_at (GPtrArray  *execs,
               const char *path)
{
  for (guint i = 0; i < execs->len; i++)
    if (g_strcmp0 (json_object_get_string_member (g_ptr_array_index (execs, i), "path"), path) == 0)
      return g_ptr_array_index (execs, i);
  return NULL;
}

static void
assert_chain_holds (Session *s)
{
  PaddockAuditVerification result = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_audit_verify_file (s->audit, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_true (result.ended);
  paddock_audit_verification_clear (&result);
}

static void
test_decisions (void)
{
  g_autoptr(Session) s = session_start ("basic", FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *err = NULL;
  JsonObject *record;
  gint64 last_event = 0;
  const char *order[] = { "fake-agent.sh", "/bin/true", "allowed-marker", "denied-marker", "asked-marker" };

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  err = out_text (s, "err");
  g_assert_nonnull (strstr (log, "true=0\n"));
  g_assert_nonnull (strstr (log, "allowed=0\n"));
  g_assert_true (out_exists (s, "allowed-marker"));

  /* Denied: never ran (no file), and exec said EACCES. */
  g_assert_nonnull (strstr (log, "denied=126\n"));
  g_assert_false (out_exists (s, "denied-marker"));
  g_assert_nonnull (strstr (err, g_strerror (EACCES)));
  /* Asked with nobody to answer: --on-ask's default, deny. */
  g_assert_nonnull (strstr (log, "asked=126\n"));
  g_assert_false (out_exists (s, "asked-marker"));
  g_assert_nonnull (strstr (log, "done\n"));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      record = audit_exec_with (execs, order[i]);
      g_assert_nonnull (record);
      g_assert_cmpint (json_object_get_int_member (record, "event"), >, last_event);
      last_event = json_object_get_int_member (record, "event");
    }
  /* An allowed exec's working directory is read once it is answered. */
  record = audit_exec_with (execs, "fake-agent.sh");
  g_assert_cmpstr (json_object_get_string_member (record, "cwd"), ==, s->out);
  record = audit_exec_with (execs, "/bin/true");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  /* Run by the agent's shell, the first exec. */
  g_assert_cmpint (json_object_get_int_member (record, "ppid"), ==,
                   json_object_get_int_member (g_ptr_array_index (execs, 0), "pid"));
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/true");
  record = audit_exec_with (execs, "denied-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  /* A refused exec's parent is read before its answer. */
  g_assert_cmpint (json_object_get_int_member (record, "ppid"), ==,
                   json_object_get_int_member (g_ptr_array_index (execs, 0), "pid"));
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "rule");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  g_assert_cmpstr (json_object_get_string_member (record, "cwd"), ==, s->out);
  record = audit_exec_with (execs, "asked-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-ask");
  /* The session's terminal was told once how to answer next time. */
  {
    g_autofree char *runner_err = runner_err_text (s);
    const char *hint = strstr (runner_err, "needs an answer (rule test-ask)");

    g_assert_nonnull (hint);
    g_assert_nonnull (strstr (hint, "paddockctl attach "));
    g_assert_null (strstr (hint + 1, "needs an answer"));
  }

  /* PATH misses are not runs: sh looks touch up in every PATH directory. */
  for (guint i = 0; i < execs->len; i++)
    {
      record = g_ptr_array_index (execs, i);
      g_assert_true (g_file_test (json_object_get_string_member (record, "exe"), G_FILE_TEST_EXISTS));
    }
  /* A PATH search goes on after EACCES, so the shell may try a refused program twice. */
  g_assert_cmpuint (execs->len, >=, 5);
  g_assert_cmpuint (execs->len, <=, 7);

  {
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_assert_cmpuint (exits->len, >=, 3);
    for (guint i = 0; i < exits->len; i++)
      g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (exits, i), "duration_us"), >=, 0);
  }
  assert_chain_holds (s);
}

/* The same agent without the monitor: the denied program runs. */
static void
test_without_monitor (void)
{
  g_autoptr(Session) s = NULL;
  g_autofree char *log = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) run = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;

  s = g_new0 (Session, 1);
  s->client = -1;
  s->seen = g_ptr_array_new ();
  s->dir = g_dir_make_tmp ("paddock-exec-XXXXXX", &error);
  s->out = g_build_filename (s->dir, "out", NULL);
  s->runtime = g_build_filename (s->dir, "run", NULL);
  g_mkdir (s->out, 0700);
  launcher = launcher_new (s);
  run = g_subprocess_launcher_spawn (launcher, &error, paddock_run, "--project", s->out, "--no-monitor",
                                     "--", "sh", fake_agent, s->out, "basic", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (run, NULL, &error);
  g_assert_no_error (error);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "denied=0\n"));
  g_assert_true (out_exists (s, "denied-marker"));
  g_assert_true (out_exists (s, "asked-marker"));
}

/* Without a control socket (an XDG_RUNTIME_DIR that is a file), the
 * session says at its start that paddockctl cannot reach it, and its
 * hint for a refused ask names no attach that could not work; an ask by
 * the policy's default says so, rather than a rule. */
static void
test_hint_without_socket (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-exec-XXXXXX", NULL);
  g_autofree char *policy = g_build_filename (dir, "ask-all.json", NULL);
  g_autofree char *runtime = g_build_filename (dir, "runtime-is-a-file", NULL);
  g_autofree char *state = g_build_filename (dir, "state", NULL);
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_assert_nonnull (dir);
  g_file_set_contents (policy, "{ \"version\": 1, \"default\": \"ask\", \"rules\": [] }", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (runtime, "", -1, &error);
  g_assert_no_error (error);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", state, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  run = g_subprocess_launcher_spawn (launcher, &error, paddock_run, "--project", dir, "--policy", policy,
                                     "--", "/bin/true", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (run, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (run), ==, 126);
  g_assert_nonnull (strstr (err, "paddockctl cannot reach this session"));
  g_assert_nonnull (strstr (err, "/bin/true needs an answer (the policy's default) and nobody is attached"));
  g_assert_nonnull (strstr (err, "this session has no control socket to attach to"));
  g_assert_null (strstr (err, "paddockctl attach"));
  test_remove_tree (dir);
}

static void
test_on_ask_allow (void)
{
  g_autoptr(Session) s = session_start ("basic", FALSE, (const char *[]) { "--on-ask=allow", NULL });
  g_autoptr(GPtrArray) execs = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
  g_assert_false (out_exists (s, "denied-marker"));
  execs = audit_records (s, "exec");
  record = audit_exec_with (execs, "asked-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
}

static void
run_ask (const char *decision)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, NULL);
  g_autoptr(PaddockMessage) hello = session_expect (s, PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(PaddockMessage) end = NULL;
  g_autofree char *log = NULL;
  gint64 exec_seq = -1;
  gboolean allow = g_str_equal (decision, "allow");

  g_assert_true (g_strv_contains ((const char * const *) hello->features, "seccomp-user-notif"));
  g_assert_cmpstr (hello->project, ==, s->out);

  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->rule, ==, "test-ask");
  g_assert_cmpstr (ask->reason, ==, "the test asks this");
  g_assert_cmpstr (ask->argv[0], ==, "touch");
  g_assert_nonnull (strstr (ask->argv[1], "asked-marker"));
  g_assert_cmpint (ask->deadline, >, g_get_real_time ());

  /* The timeline showed the exec before asking about it. */
  for (guint i = 0; i < s->seen->len; i++)
    {
      PaddockMessage *m = g_ptr_array_index (s->seen, i);
      if (m->type == PADDOCK_MESSAGE_EXEC && m->decision == PADDOCK_DECISION_ASK)
        exec_seq = m->seq;
    }
  g_assert_cmpint (exec_seq, ==, ask->id);

  /* Held: it has not run, and waiting does not run it. */
  g_usleep (300 * 1000);
  g_assert_false (out_exists (s, "asked-marker"));
  log = out_text (s, "log");
  g_assert_null (strstr (log, "asked="));
  g_assert_true (out_exists (s, "allowed-marker"));

  session_decide (s, ask->id, decision);
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, allow ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY);
  g_assert_cmpstr (decided->by, ==, "user");

  end = session_expect (s, PADDOCK_MESSAGE_EXIT);
  while (!end->session_end)
    {
      paddock_message_free (end);
      end = session_expect (s, PADDOCK_MESSAGE_EXIT);
    }
  g_assert_cmpint (end->exit_code, ==, 0);
  g_assert_cmpint (session_wait (s), ==, 0);

  g_clear_pointer (&log, g_free);
  log = out_text (s, "log");
  g_assert_cmpint (out_exists (s, "asked-marker"), ==, allow);
  /* Someone was there to answer: no hint about attaching. */
  {
    g_autofree char *runner_err = runner_err_text (s);

    g_assert_null (strstr (runner_err, "needs an answer"));
  }
  g_assert_nonnull (strstr (log, allow ? "asked=0\n" : "asked=126\n"));
  g_assert_nonnull (strstr (log, "after=0\n"));
  {
    g_autoptr(GPtrArray) decisions = audit_records (s, "decision");
    g_assert_cmpuint (decisions->len, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "by"), ==, "user");
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "decision"), ==, decision);
  }
  assert_chain_holds (s);
}

static void
test_ask_allow (void)
{
  run_ask ("allow");
}

/* The agent's own program needs an answer: the client on --control-fd
 * is asked, never passed over as absent. It used to be added just after
 * the monitor started answering, and on a loaded machine an ask could find
 * nobody to ask (one CI run in six); this races only when that happens. */
static void
test_ask_first_exec (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) { "touch", "@OUT@/asked-marker", NULL },
                                                TRUE, NULL);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);

  g_assert_cmpstr (ask->rule, ==, "test-ask");
  g_assert_false (out_exists (s, "asked-marker"));
  session_decide (s, ask->id, "allow");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

/* The project's override file and its lock file, under the session's
 * configuration folder. */
static char *
project_overrides_file (Session    *s,
                        const char *suffix)
{
  g_autofree char *project = realpath (s->out, NULL);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (digest, ".json", suffix, NULL);

  return g_build_filename (s->dir, "config", "paddock", "projects", name, NULL);
}

/* "Always in this project" is stored as a rule outside the project, and
 * decides the same command next time. When another program holds the
 * project file's lock, the supervisor does not wait on it (its main
 * context, with every other ask and a kill, would wait too): the answer
 * takes effect at once and is remembered for the session only. */
static void
run_remember_project (gboolean lock_held)
{
  g_autoptr(Session) s = session_start ("ask-twice", TRUE, NULL);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(PaddockMessage) again = NULL;
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *lock_file = project_overrides_file (s, ".lock");
  g_autofree char *folder = g_path_get_dirname (lock_file);
  g_autofree char *overrides = NULL;
  g_autofree char *err = NULL;
  g_autofree char *log = NULL;
  paddock_autofd int lock_fd = -1;

  if (lock_held)
    {
      g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
      lock_fd = open (lock_file, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      g_assert_cmpint (lock_fd, >=, 0);
      g_assert_cmpint (flock (lock_fd, LOCK_EX), ==, 0);
    }

  session_decide_remember (s, ask->id, "allow", "project");
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpint (decided->remember, ==, lock_held ? PADDOCK_REMEMBER_SESSION : PADDOCK_REMEMBER_PROJECT);

  /* The second time, the remembered rule decides without asking. */
  while (again == NULL || strstr (again->exe, "touch") == NULL)
    {
      g_clear_pointer (&again, paddock_message_free);
      again = session_expect (s, PADDOCK_MESSAGE_EXEC);
    }
  g_assert_cmpint (again->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (again->by, ==, "remembered");
  g_assert_cmpstr (again->rule, ==, decided->rule);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "asked=0\nagain=0\n"));
  g_assert_true (out_exists (s, "asked-marker"));

  err = runner_err_text (s);
  if (lock_held)
    {
      g_autofree char *says = g_strdup_printf ("cannot remember the decision for the project, only for this session: "
                                               "cannot lock %s: another program has held it", lock_file);

      g_assert_nonnull (strstr (err, says));
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
    }
  else
    {
      g_assert_cmpstr (err, ==, "");
      g_file_get_contents (file, &overrides, NULL, NULL);
      g_assert_nonnull (overrides);
      g_assert_nonnull (strstr (overrides, decided->rule));
      g_assert_nonnull (strstr (overrides, "asked-marker"));
    }
}

static void
test_remember_project (void)
{
  run_remember_project (FALSE);
}

static void
test_remember_project_lock_held (void)
{
  run_remember_project (TRUE);
}

static void
test_ask_deny (void)
{
  run_ask ("deny");
}

static void
test_deadline (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, (const char *[]) { "--ask-timeout", "1", NULL });
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) decided = NULL;
  g_autofree char *log = NULL;
  gint64 start = g_get_monotonic_time ();

  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 500 * 1000);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (decided->by, ==, "timeout");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_false (out_exists (s, "asked-marker"));
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "asked=126\n"));
}

static void
test_kill_while_held (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, NULL);
  g_autoptr(PaddockMessage) hello = session_expect (s, PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) killed = NULL;
  g_autoptr(GPtrArray) kills = NULL;
  g_autofree char *log = NULL;

  session_send (s, "{\"type\":\"kill\"}\n");
  killed = session_expect (s, PADDOCK_MESSAGE_KILL);
  g_assert_cmpint (session_wait (s), ==, 128 + SIGKILL);
  log = out_text (s, "log");
  g_assert_null (strstr (log, "asked="));
  g_assert_null (strstr (log, "done"));
  g_assert_false (out_exists (s, "asked-marker"));
  g_assert_true (kill (hello->agent_pid, 0) != 0 && errno == ESRCH);
  g_assert_true (kill (ask->pid, 0) != 0 && errno == ESRCH);
  kills = audit_records (s, "kill");
  g_assert_cmpuint (kills->len, ==, 1);
}

/* A kill of a busy agent comes last on the timeline: every exec answered
 * before the tree was killed is told before the kill, none after it, as
 * in the audit log. Before, execs still queued (for up to 5 ms, a batch)
 * followed the kill. */
static void
test_kill_comes_last (void)
{
  g_autoptr(Session) s = session_start ("busy-until-go", TRUE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  gboolean killed = FALSE;
  guint before = 0;
  guint after = 0;

  for (guint i = 0; i < 50; i++)
    paddock_message_free (session_expect (s, PADDOCK_MESSAGE_EXEC));
  session_send (s, "{\"type\":\"kill\"}\n");
  for (;;)
    {
      g_autoptr(PaddockMessage) message = session_read (s, 20000);

      g_assert_nonnull (message);
      if (message->type == PADDOCK_MESSAGE_KILL)
        killed = TRUE;
      else if (message->type == PADDOCK_MESSAGE_EXEC)
        {
          if (killed)
            after++;
          else
            before++;
        }
      else if (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)
        break;
    }
  g_assert_cmpint (session_wait (s), ==, 128 + SIGKILL);
  g_assert_true (killed);
  g_assert_cmpuint (after, ==, 0);
  /* Every exec the audit log holds was told, the 50 read first included. */
  execs = audit_records (s, "exec");
  g_assert_cmpuint (execs->len, ==, 50 + before);
}

/* With paddock-run gone, the held exec and every later one fail: the agent
 * is never left running unsupervised. */
static void
test_supervisor_dies (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, NULL);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *err = NULL;
  JsonObject *record;

  g_subprocess_send_signal (s->run, SIGKILL);
  g_assert_cmpint (session_wait (s), ==, 128 + SIGKILL);

  {
    g_autofree char *path = out_file (s, "log");

    log = wait_for_lines (path, "done", 1);
  }
  g_assert_nonnull (strstr (log, "done"));
  g_assert_null (strstr (log, "asked=0"));
  g_assert_null (strstr (log, "after=0"));
  g_assert_false (out_exists (s, "asked-marker"));
  err = out_text (s, "err");
  g_assert_nonnull (strstr (err, g_strerror (ENOSYS)));
  /* What was decided before the kill is in the log, and so is the held
   * exec, recorded before it was asked. */
  execs = audit_records (s, "exec");
  g_assert_nonnull (audit_exec_with (execs, "allowed-marker"));
  record = audit_exec_with (execs, "asked-marker");
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "ask");
  g_assert_cmpint (json_object_get_int_member (record, "pid"), ==, ask->pid);
}

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

static char *
wait_for_socket (Session *s)
{
  g_autofree char *dir = g_build_filename (s->runtime, "paddock", NULL);

  for (int i = 0; i < 400; i++)
    {
      g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
      const char *name;

      while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
        if (g_str_has_suffix (name, ".sock"))
          return g_strndup (name, strlen (name) - 5);
      g_usleep (25 * 1000);
    }
  g_error ("no control socket appeared");
}

static GSubprocess *
spawn_ctl (Session            *s,
           GSubprocessFlags    flags,
           const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (s);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *ctl;

  g_subprocess_launcher_set_flags (launcher, flags);
  g_ptr_array_add (argv, (char *) paddockctl);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  ctl = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return ctl;
}

/* What `paddockctl audit show` prints of the session's log, its records
 * of @type only where @type is not NULL. */
static char *
audit_show (Session    *s,
            const char *type)
{
  g_autoptr(GSubprocess) show = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                           type != NULL ? (const char *[]) { "audit", "show", s->audit, "--type", type, NULL }
                                                        : (const char *[]) { "audit", "show", s->audit, NULL });
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_subprocess_communicate_utf8 (show, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (show), ==, 0);
  return out;
}

/* Reads @stream until a line holding @needle; returns all read. */
static char *
read_until (GDataInputStream *stream,
            const char       *needle)
{
  GString *text = g_string_new (NULL);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (stream, NULL, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        break;
      g_string_append_printf (text, "%s\n", line);
      if (strstr (line, needle) != NULL)
        break;
    }
  return g_string_free (text, FALSE);
}

/* Runs `paddockctl attach @args…` (stdout and stderr piped; stdin piped,
 * or at its end from the start, /dev/null, where @closed_stdin) and reads
 * its output up to its status line: from then on it is attached, counted
 * as one who answers unless it only watches. Its output stream goes to
 * @lines; what it printed before and at the status line, to @seen. */
static GSubprocess *
attach_start (Session             *s,
              const char * const  *args,
              gboolean             closed_stdin,
              GDataInputStream   **lines,
              char               **seen)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (s);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *attach;

  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                             (closed_stdin ? 0 : G_SUBPROCESS_FLAGS_STDIN_PIPE));
  if (closed_stdin)
    g_subprocess_launcher_set_stdin_file_path (launcher, "/dev/null");
  g_ptr_array_add (argv, (char *) paddockctl);
  g_ptr_array_add (argv, "attach");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  attach = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  *lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (attach));
  *seen = read_until (*lines, "lock: ");
  g_assert_nonnull (strstr (*seen, "Session "));
  /* The status goes under the session's line, the replayed timeline
   * (which has the agent's own exec, #1) under it. */
  g_assert_null (strstr (*seen, "#1 "));
  return attach;
}

/* For an agent given as `sh -c SCRIPT sh @OUT@`: waits until the test
 * says go (session_go()), or 20 s at most. */
#define WAIT_FOR_GO "i=0; while [ ! -e \"$1/go\" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done"

/* Lets the fake agent go on past its wait_for "go". */
static void
session_go (Session *s)
{
  g_autofree char *go = out_file (s, "go");
  g_autoptr(GError) error = NULL;

  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
}

/* Kills the process @ask holds, from outside: the question is withdrawn
 * at once ("gone"), long before its deadline of 60 s, and the audit log
 * says so once the session has ended, as it must. */
static void
assert_ask_withdrawn_when_killed (Session        *s,
                                  PaddockMessage *ask)
{
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  gint64 start = g_get_monotonic_time ();
  gboolean found = FALSE;

  g_assert_cmpint (kill (ask->pid, SIGKILL), ==, 0);
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (decided->by, ==, "gone");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  g_assert_false (out_exists (s, "asked-marker"));
  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  decisions = audit_records (s, "decision");
  for (guint i = 0; i < decisions->len; i++)
    found |= g_strcmp0 (json_object_get_string_member (g_ptr_array_index (decisions, i), "by"), "gone") == 0;
  g_assert_true (found);
}

static void
test_ask_process_killed (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, (const char *[]) { "--ask-timeout", "60", NULL });
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autofree char *log = NULL;

  assert_ask_withdrawn_when_killed (s, ask);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "asked=137\n"));
}

/* The same, where the asking program got no pidfd: the agent's other
 * programs hold all paddock-run keeps for them. Before, nothing told its
 * end, and the question stayed until its deadline. */
static void
test_ask_process_killed_without_pidfd (void)
{
  g_autofree char *script = g_strdup_printf (
    "pids=; i=0; while [ $i -lt 150 ]; do /bin/sleep 60 & pids=\"$pids $!\"; i=$((i+1)); done; "
    "touch \"$1/asked-marker\"; echo \"asked=$?\" > \"$1/log\"; " WAIT_FOR_GO "; kill $pids");
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = 64, .rlim_max = 64 } };
  g_autoptr(Session) s = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autofree char *err = NULL;
  g_autofree char *log = NULL;

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, TRUE,
                             (const char *[]) { "--ask-timeout", "60", NULL });
  spawn_limit = NULL;
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "cannot watch for programs' ends"));

  assert_ask_withdrawn_when_killed (s, ask);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "asked=137\n");
}

/* What is left to read on @stream, up to its end. */
static char *
stream_text (GInputStream *stream)
{
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (memory, stream, G_OUTPUT_STREAM_SPLICE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (memory, "", 1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (memory, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (memory));
}

/* Waits for @attach to exit 0; returns what it wrote to stderr. */
static char *
attach_finish (GSubprocess *attach)
{
  g_autofree char *err = stream_text (g_subprocess_get_stderr_pipe (attach));
  g_autoptr(GError) error = NULL;

  g_subprocess_wait (attach, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (attach));
  g_assert_cmpint (g_subprocess_get_exit_status (attach), ==, 0);
  return g_steal_pointer (&err);
}

/* Lets the agent go with `paddockctl attach SESSION --answer allow
 * --remember session` attached, to the session's end, which must be a
 * clean exit. Returns all that attach printed. */
static char *
run_allowing_for_session (Session    *s,
                          const char *session)
{
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;

  attach = attach_start (s, (const char *[]) { session, "--answer", "allow", "--remember", "session", NULL },
                         TRUE, &lines, &seen);
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  return g_strconcat (seen, rest, NULL);
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
  g_autoptr(GSubprocess) list = NULL;
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  list = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE, (const char *[]) { "list", NULL });
  g_subprocess_communicate_utf8 (list, NULL, NULL, &listed, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (listed, session));
  g_assert_nonnull (strstr (listed, "fake-agent.sh"));

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

/* Lists the session @s, whose agent waits for the test's go: `paddockctl
 * list` ends well, with nothing on stderr, and shows @session; what it
 * printed goes in @listed. Then watches it (attach --watch), whose
 * greeting holds @greeted, lets the agent go, and returns the timeline
 * attach shows up to the session's end, which it reaches with nothing on
 * stderr. */
static char *
list_and_watch (Session    *s,
                const char *session,
                char      **listed,
                const char *greeted)
{
  g_autoptr(GSubprocess) list = NULL;
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *attach_err = NULL;
  char *rest;

  list = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, (const char *[]) { "list", NULL });
  g_subprocess_communicate_utf8 (list, NULL, NULL, listed, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (list), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (*listed, session));

  attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);
  g_assert_nonnull (strstr (seen, greeted));
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  attach_err = attach_finish (attach);
  g_assert_cmpstr (attach_err, ==, "");
  return rest;
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

/* A script runs as its #! interpreter with the script's arguments: a
 * script whose line is `#!/usr/bin/touch` is touch to the policy (it ran,
 * though touch of denied-marker is denied), and the timeline says what
 * runs it. */
static void
test_script_interpreter (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "printf '#!/usr/bin/touch\\n' >\"$1/x\" && chmod +x \"$1/x\" && \"$1/x\" \"$1/denied-marker\"; "
    "echo x=$? >\"$1/log\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *script = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *line = NULL;
  JsonObject *record = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "x=126\n");
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  script = out_file (s, "x");
  record = audit_exec_at (execs, script);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, "/usr/bin/touch");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");

  shown = audit_show (s, "exec");
  line = g_strdup_printf ("%s %s/denied-marker  (#!/usr/bin/touch)  [test-deny]", script, s->out);
  g_assert_nonnull (strstr (shown, line));
}

/* `fetch-marker | sh` is two programs, neither of which says what the
 * other does: the shell is judged as the pipeline, by the rules that read
 * scripts, whichever of the two runs first, through a filter too, and
 * so is bash <(fetch-marker), which runs a pipe its operand names, and a
 * shell that env runs. The
 * same pipelines from another writer run (they all ran before). Started
 * together, as a shell starts a pipeline, the writer's exec is often let
 * go on but not yet done when the shell's comes: /proc still shows the
 * program it replaces (about half of these ran, before). */
static void
test_piped_script (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && printf '#!/bin/sh\\necho touch ran-$1\\nsleep ${2:-1}\\n' >fetch-marker && cp fetch-marker fetch-other && "
    "chmod +x fetch-marker fetch-other && "
    "./fetch-marker 1 | (sleep 0.5; exec sh); "
    "(sleep 0.5; exec ./fetch-marker 2) | sh; "
    "(sleep 0.5; exec ./fetch-marker 3) | cat | sh; "
    "./fetch-other 4 | (sleep 0.5; exec sh); "
    "(sleep 0.5; exec ./fetch-other 5) | sh; "
    "bash -c 'bash <(./fetch-marker 6)'; "
    "bash -c 'bash <(./fetch-other 7)'; "
    "./fetch-marker 10 | (sleep 0.5; exec env FOO=1 sh); "
    "for i in 0 1 2 3 4 5 6 7 8 9; do ./fetch-marker 8$i 0.2 | sh; bash -c \"bash <(./fetch-marker 9$i 0.2)\"; done; "
    /* Whichever of the last pipeline's programs was refused. */
    "exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  static const char * const expected[] = {
    "/bin/sh ./fetch-marker 1 | sh",
    "/bin/sh ./fetch-marker 2 | sh",
    "/bin/sh ./fetch-marker 3 | cat | sh",
    "/bin/sh ./fetch-marker 6 | bash /dev/fd/",
    "/bin/sh ./fetch-marker 10 | env FOO=1 sh",
    "/bin/sh ./fetch-marker 8",
    "/bin/sh ./fetch-marker 9",
  };
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *shown = NULL;
  guint denied = 0;

  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_false (out_exists (s, "ran-1"));
  g_assert_false (out_exists (s, "ran-2"));
  g_assert_false (out_exists (s, "ran-3"));
  g_assert_true (out_exists (s, "ran-4"));
  g_assert_true (out_exists (s, "ran-5"));
  g_assert_false (out_exists (s, "ran-6"));
  g_assert_true (out_exists (s, "ran-7"));
  g_assert_false (out_exists (s, "ran-10"));
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *piped = g_strdup_printf ("ran-8%u", i);
      g_autofree char *substituted = g_strdup_printf ("ran-9%u", i);

      if (out_exists (s, piped) || out_exists (s, substituted))
        g_error ("%s or %s ran", piped, substituted);
    }

  /* Each pipeline was denied at whichever of its programs ran second (a
   * shell once for each directory of its PATH search), by the rule, and
   * nothing else was. */
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      const char *pipeline = json_object_get_string_member_with_default (record, "pipeline", "");
      guint which = G_N_ELEMENTS (expected);

      if (g_strcmp0 (json_object_get_string_member (record, "decision"), "deny") != 0)
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (expected); j++)
        if (j < 3 ? strcmp (pipeline, expected[j]) == 0 : g_str_has_prefix (pipeline, expected[j]))
          which = j;
      if (which == G_N_ELEMENTS (expected))
        g_error ("%s was denied (pipeline: %s)", json_object_get_string_member (record, "path"), pipeline);
      g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-piped");
      denied |= 1u << which;
    }
  g_assert_cmpuint (denied, ==, (1u << G_N_ELEMENTS (expected)) - 1);

  shown = audit_show (s, "exec");
  g_assert_nonnull (strstr (shown, "./fetch-marker 2  (#!/bin/sh)  (pipeline: /bin/sh ./fetch-marker 2 | sh)  [test-piped]"));
}

/* An interpreter that is a script runs as its own #! line says, up to
 * the kernel's five lines: `x`, whose interpreter `y` is a script of
 * touch, is touch to the policy. An interpreter that is missing, or a
 * sixth line, makes exec fail: no run is recorded. */
static void
test_script_interpreter_nested (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && printf '#!/usr/bin/touch\\n' >y && printf '#!%s/y\\n' \"$1\" >x && "
    "printf '#!%s/missing\\n' \"$1\" >m && printf '#!/bin/true\\n' >s0 && "
    "for i in 1 2 3 4 5; do printf '#!%s/s%d\\n' \"$1\" $((i - 1)) >s$i; done && chmod +x x y m s0 s1 s2 s3 s4 s5 && "
    "{ ./x denied-marker; echo x=$?; ./m; echo m=$?; ./s4; echo s4=$?; ./s5; echo s5=$?; } >log 2>&1",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *x_line = NULL;
  g_autofree char *s4_line = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "x=126\n"));
  g_assert_nonnull (strstr (log, "m=127\n"));
  g_assert_nonnull (strstr (log, "s4=0\n"));
  g_assert_nonnull (strstr (log, "s5=127\n"));
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  record = audit_exec_at (execs, "./x");
  g_assert_nonnull (record);
  x_line = g_strdup_printf ("%s/y #!/usr/bin/touch", s->out);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, x_line);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  record = audit_exec_at (execs, "./s4");
  g_assert_nonnull (record);
  s4_line = g_strdup_printf ("%s/s3 #!%s/s2 #!%s/s1 #!%s/s0 #!/bin/true", s->out, s->out, s->out, s->out);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, s4_line);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  g_assert_null (audit_exec_at (execs, "./m"));
  g_assert_null (audit_exec_at (execs, "./s5"));
}

/* A link of another name to a denied program is that program: `t`, a
 * link to touch, is denied as touch (it ran). */
static void
test_link_of_another_name (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "ln -s /usr/bin/touch \"$1/t\" && \"$1/t\" \"$1/denied-marker\"; echo t=$? >\"$1/log\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *link = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "t=126\n");
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  link = out_file (s, "t");
  record = audit_exec_at (execs, link);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/touch");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
}

/* A file without an execute bit and a folder are refused by exec itself,
 * root or not: no run is recorded for them (they were, as programs that
 * ran and exited 126), as none is for a PATH miss. */
static void
test_not_executable (void)
{
  g_autoptr(Session) s = session_start ("not-executable", FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *script = NULL;
  gboolean ran_true = FALSE;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "script=126\nfolder=126\nafter=0\n"));
  g_assert_false (out_exists (s, "script-marker"));

  script = out_file (s, "script");
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      const char *path = json_object_get_string_member (g_ptr_array_index (execs, i), "path");

      g_assert_cmpstr (path, !=, script);
      g_assert_cmpstr (path, !=, s->out);
      ran_true |= g_strcmp0 (path, "/bin/true") == 0;
    }
  g_assert_true (ran_true);
}

/* exec refuses a file on a noexec mount (a hardened /tmp), whoever asks:
 * no run to record. The same program on a mount that allows it runs, and
 * is recorded. (It was recorded as a run either way.) The mounts are made
 * in a user and mount namespace of the agent's own. */
static void
test_noexec_mount (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "mkdir \"$1/noexec\" \"$1/exec\" && "
    "unshare -rm sh -c 'mount -t tmpfs -o noexec none \"$1/noexec\" && mount -t tmpfs none \"$1/exec\" || exit 99; "
    "cp /bin/true \"$1/noexec/t\" && cp /bin/true \"$1/exec/t\" && "
    "{ \"$1/noexec/t\"; echo noexec=$?; \"$1/exec/t\"; echo exec=$?; } >\"$1/log\" 2>/dev/null' sh \"$1\"; "
    "echo $? >\"$1/status\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *status = NULL;
  g_autofree char *log = NULL;
  g_autofree char *refused = NULL;
  g_autofree char *ran = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "status");
  if (strcmp (status, "0\n") != 0)
    {
      g_test_skip ("no user and mount namespace to mount a tmpfs in");
      return;
    }
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "noexec=126\nexec=0\n");

  refused = g_build_filename (s->out, "noexec", "t", NULL);
  ran = g_build_filename (s->out, "exec", "t", NULL);
  execs = audit_records (s, "exec");
  g_assert_null (audit_exec_at (execs, refused));
  g_assert_nonnull (audit_exec_at (execs, ran));
}

/* An answer for a command line too long to remember as a rule is taken
 * once, and said so: the supervisor aborted on it, leaving the agent
 * unable to start anything. The same command asks again, and attach says
 * its answers were not remembered. */
static void
test_remember_too_long (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; long=$(head -c 60000 /dev/zero | tr '\\0' a); "
    "touch \"$1/asked-marker\" \"$long\" 2>/dev/null; rm \"$1/asked-marker\"; "
    "touch \"$1/asked-marker\" \"$long\" 2>/dev/null; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GPtrArray) decisions = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *err = NULL;
  const char *note = "allowed by user, this once: it could not be remembered (paddock-run says why, where it runs)\n";
  const char *first;

  rest = run_allowing_for_session (s, session);
  g_test_message ("%s", rest);
  g_assert_true (out_exists (s, "asked-marker"));

  /* Asked twice, each answer taken once. */
  first = strstr (rest, note);
  g_assert_nonnull (first);
  g_assert_nonnull (strstr (first + 1, note));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 2);
  for (guint i = 0; i < decisions->len; i++)
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, i), "remember"), ==, "once");

  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "paddock-run: cannot remember the decision on #"));
  g_assert_nonnull (strstr (err, ", only take it this once: its command line ("));
  g_assert_nonnull (strstr (err, "is too long for a rule"));
}

/* The loader run as a command runs its program with no exec of it:
 * `ld.so /usr/bin/touch denied-marker` is touch to the policy, with the
 * loader's options before the program or not. */
static void
test_loader_runs (void)
{
  const char *loader = "/lib64/ld-linux-x86-64.so.2";
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  guint denied = 0;

  if (!g_file_test (loader, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no x86-64 glibc loader here");
      return;
    }
  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && { \"$2\" /usr/bin/touch denied-marker; echo plain=$?; "
    "\"$2\" --inhibit-cache --argv0 ls /usr/bin/touch denied-marker; echo options=$?; "
    "\"$2\" /usr/bin/touch allowed; echo allowed=$?; } >log 2>&1",
    "sh", "@OUT@", loader, NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "plain=126\n"));
  g_assert_nonnull (strstr (log, "options=126\n"));
  g_assert_nonnull (strstr (log, "allowed=0\n"));
  g_assert_false (out_exists (s, "denied-marker"));
  g_assert_true (out_exists (s, "allowed"));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member (record, "path"), loader) != 0 ||
          g_strcmp0 (json_object_get_string_member (record, "decision"), "deny") != 0)
        continue;
      g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
      denied++;
    }
  g_assert_cmpuint (denied, ==, 2);
}

/* What the loader and a multi-call binary run, as the policy sees it. */
static void
test_launched_query (void)
{
  struct {
    const char *exe;
    const char *resolved;
    const char *argv[8];
    const char *program;            /* NULL: it runs nothing of its own */
    const char *command;
  } cases[] = {
    { "/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
      { "/lib64/ld-linux-x86-64.so.2", "/bin/rm", "-rf", "/", NULL }, "/bin/rm", "/bin/rm -rf /" },
    { "/usr/bin/ld.so", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
      { "ld.so", "--library-path", "/x", "--argv0", "ls", "./rm", "-r", NULL }, "./rm", "ls -r" },
    { "/lib/ld-musl-x86_64.so.1", NULL, { "ld", "--list", "/bin/true", NULL }, "/bin/true", "/bin/true" },
    { "/x/lib/ld-2.31.so", NULL, { "ld-2.31.so", "a", NULL }, "a", "a" },
    { "/bin/busybox", "/bin/busybox", { "busybox", "rm", "-rf", "/", NULL }, "rm", "rm -rf /" },
    { "/bin/toybox", "/bin/toybox", { "toybox", "rm", NULL }, "rm", "rm" },
    /* Near misses. */
    { "/lib64/ld-linux-x86-64.so.2", NULL, { "ld", "--preload", NULL }, NULL, NULL },
    { "/lib64/ld-linux-x86-64.so.2", NULL, { "ld", NULL }, NULL, NULL },
    { "/usr/bin/ld.solver", NULL, { "ld.solver", "/bin/rm", NULL }, NULL, NULL },
    { "/usr/bin/ld", "/usr/bin/x86_64-linux-gnu-ld.bfd", { "ld", "-o", "a", "a.o", NULL }, NULL, NULL },
    { "/bin/busybox", "/bin/busybox", { "busybox", "--list", NULL }, NULL, NULL },
    { "/bin/rm", "/bin/busybox", { "rm", "-rf", "x", NULL }, NULL, NULL },
    { "/bin/rm", "/usr/bin/rm", { "rm", "-rf", "x", NULL }, NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PaddockPolicyQuery query = { .exe = cases[i].exe, .argv = cases[i].argv, .resolved = cases[i].resolved };
      PaddockPolicyQuery out = { 0 };
      g_autoptr(GPtrArray) argv = paddock_exec_launched_query (&query, &out);
      g_autofree char *command = NULL;

      if (cases[i].program == NULL)
        {
          g_assert_null (argv);
          continue;
        }
      g_assert_nonnull (argv);
      command = g_strjoinv (" ", (char **) out.argv);
      g_assert_cmpstr (out.exe, ==, cases[i].program);
      g_assert_cmpstr (command, ==, cases[i].command);
      g_assert_null (out.resolved);
    }
}

/* Waits (10 s at most) for the session's audit log to hold @n records of
 * @type, whole lines. */
static void
wait_for_records (Session    *s,
                  const char *type,
                  guint       n)
{
  g_autofree char *needle = g_strdup_printf ("\"type\":\"%s\"", type);
  g_autofree char *text = wait_for_lines (s->audit, needle, n);

  if (count_lines (text, needle) < n)
    g_error ("the audit log never held %u %s records", n, type);
}

/* Waits (10 s at most) for the out dir's log to hold @needle. */
static void
wait_for_log (Session    *s,
              const char *needle)
{
  g_autofree char *path = out_file (s, "log");
  g_autofree char *text = wait_for_lines (path, needle, 1);

  if (count_lines (text, needle) == 0)
    g_error ("the log never said %s", needle);
}

/* A project's rules file for @project (canonical) whose one rule, "mine",
 * allows the touch of asked-marker that the test policy asks. */
static char *
allow_asked_rules (const char *project)
{
  return g_strdup_printf ("{\"project\": \"%s\", \"rules\": [{\"name\": \"mine\", "
                          "\"match\": {\"program\": \"touch\", \"argv\": \"asked-marker\"}, "
                          "\"action\": \"allow\"}]}\n", project);
}

/* Every decided message the session sent came after the ask it decides. */
static void
assert_decided_after_ask (Session *s)
{
  g_autoptr(GHashTable) asked = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < s->seen->len; i++)
    {
      PaddockMessage *m = g_ptr_array_index (s->seen, i);

      if (m->type == PADDOCK_MESSAGE_ASK)
        g_hash_table_add (asked, g_memdup2 (&m->id, sizeof m->id));
      else if (m->type == PADDOCK_MESSAGE_DECIDED && !g_hash_table_contains (asked, &m->id))
        g_error ("#%" G_GINT64_FORMAT " was decided before it was asked", m->id);
    }
}

/* An answer for good settles the asks held behind it that it covers: the
 * same command, started three times at once, is asked about once. An ask
 * it does not cover still waits for its own answer. Before, every one of
 * them waited (a loop of twenty asked twenty times). */
static void
run_remember_settles_held (const char *decision)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "for i in 1 2 3; do (touch \"$1/asked-marker\"; echo same=$? >>\"$1/log\") & done; "
    "(touch \"$1/asked-marker-odd\"; echo odd=$? >>\"$1/log\") & wait; exit 0",
    "sh", "@OUT@", NULL }, TRUE, NULL);
  gboolean allow = g_str_equal (decision, "allow");
  g_autoptr(GPtrArray) asks = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  g_autoptr(PaddockMessage) answered = NULL;
  g_autoptr(PaddockMessage) odd_decided = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  g_autofree char *log = NULL;
  PaddockMessage *first = NULL;
  PaddockMessage *odd = NULL;
  guint settled = 0;

  while (asks->len < 4)
    g_ptr_array_add (asks, session_expect (s, PADDOCK_MESSAGE_ASK));
  for (guint i = 0; i < asks->len; i++)
    {
      PaddockMessage *ask = g_ptr_array_index (asks, i);

      if (g_str_has_suffix (ask->argv[1], "-odd"))
        odd = ask;
      else if (first == NULL)
        first = ask;
    }
  g_assert_nonnull (odd);
  g_assert_nonnull (first);
  g_assert_false (out_exists (s, "asked-marker"));

  session_decide_remember (s, first->id, decision, "session");
  answered = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (answered->id, ==, first->id);
  g_assert_cmpstr (answered->by, ==, "user");
  g_assert_cmpint (answered->remember, ==, PADDOCK_REMEMBER_SESSION);
  g_assert_nonnull (answered->rule);

  /* The other two of the same command follow, decided by that rule. */
  while (settled < 2)
    {
      g_autoptr(PaddockMessage) decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);

      g_assert_cmpint (decided->id, !=, odd->id);
      g_assert_cmpint (decided->decision, ==, allow ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY);
      g_assert_cmpstr (decided->by, ==, "remembered");
      g_assert_cmpstr (decided->rule, ==, answered->rule);
      g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_ONCE);
      settled++;
    }

  /* The odd one is still held, and has not run. */
  g_usleep (300 * 1000);
  g_assert_false (out_exists (s, "asked-marker-odd"));
  session_decide (s, odd->id, "deny");
  odd_decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (odd_decided->id, ==, odd->id);
  g_assert_cmpstr (odd_decided->by, ==, "user");

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpuint (count_lines (log, allow ? "same=0" : "same=126"), ==, 3);
  g_assert_cmpuint (count_lines (log, "odd=126"), ==, 1);
  g_assert_cmpint (out_exists (s, "asked-marker"), ==, allow);
  g_assert_false (out_exists (s, "asked-marker-odd"));

  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 4);
  settled = 0;
  for (guint i = 0; i < decisions->len; i++)
    {
      JsonObject *record = g_ptr_array_index (decisions, i);

      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==,
                       json_object_get_int_member (record, "event") == odd->id ? "deny" : decision);
      if (g_strcmp0 (json_object_get_string_member (record, "by"), "remembered") == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, answered->rule);
          settled++;
        }
    }
  g_assert_cmpuint (settled, ==, 2);
  assert_decided_after_ask (s);
  assert_chain_holds (s);

  /* audit show names the rule an answer made, and the rule that decided. */
  {
    g_autofree char *shown = audit_show (s, "decision");
    g_autofree char *made = g_strdup_printf (", remembered for the session  [%s]\n", answered->rule);
    g_autofree char *by_rule = g_strdup_printf ("  [%s]\n", answered->rule);

    g_assert_nonnull (strstr (shown, made));
    g_assert_cmpuint (count_lines (shown, by_rule), ==, 3);
  }
}

static void
test_remember_settles_held (void)
{
  run_remember_settles_held ("allow");
}

static void
test_remember_settles_held_deny (void)
{
  run_remember_settles_held ("deny");
}

/* A rule put in the project's file (another session's "always in this
 * project") decides an ask this session holds, without an answer here. */
static void
test_project_rules_settle_held (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "touch \"$1/asked-marker1\"; echo one=$? >>\"$1/log\"; exit 0",
    "sh", "@OUT@", NULL }, TRUE, NULL);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) decided = NULL;
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *project = realpath (s->out, NULL);
  g_autofree char *rules = allow_asked_rules (project);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *log = NULL;

  g_assert_false (out_exists (s, "asked-marker1"));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (file, rules, -1, &error);
  g_assert_no_error (error);

  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (decided->by, ==, "remembered");
  g_assert_cmpstr (decided->rule, ==, "mine");
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "one=0\n");
  g_assert_true (out_exists (s, "asked-marker1"));

  /* The change is recorded before the decision it made. */
  records = audit_records (s, NULL);
  {
    gint policy_at = -1;
    gint decision_at = -1;

    for (guint i = 0; i < records->len; i++)
      {
        const char *type = json_object_get_string_member (g_ptr_array_index (records, i), "type");

        if (g_str_equal (type, "policy") && policy_at < 0)
          policy_at = i;
        if (g_str_equal (type, "decision"))
          decision_at = i;
      }
    g_assert_cmpint (policy_at, >=, 0);
    g_assert_cmpint (decision_at, >, policy_at);
  }
}

/* An answer for good given while the same command keeps being asked: asks
 * judged before the answer, and not yet told to clients, are decided once
 * they are, never before (a decided message first left a client with a
 * question nobody could answer), and none is left waiting. */
static void
test_remember_settles_in_flight (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "for i in $(seq 40); do (touch \"$1/asked-marker\"; echo same=$? >>\"$1/log\") & done; wait; exit 0",
    "sh", "@OUT@", NULL }, TRUE, (const char *[]) { "--ask-timeout", "20", NULL });
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(GPtrArray) decisions = NULL;
  g_autofree char *log = NULL;

  session_decide_remember (s, ask->id, "allow", "session");
  g_assert_cmpint (session_wait (s), ==, 0);
  for (PaddockMessage *m; (m = session_read (s, 200)) != NULL;)
    paddock_message_free (m);
  assert_decided_after_ask (s);
  log = out_text (s, "log");
  g_assert_cmpuint (count_lines (log, "same=0"), ==, 40);
  decisions = audit_records (s, "decision");
  for (guint i = 0; i < decisions->len; i++)
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, i), "decision"), ==, "allow");
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
    "w \"$1\" go; (touch \"$1/asked-marker1\"; echo one=$? >>\"$1/log\") & sleep 0.2; "
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
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (socket_path);
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  const char request[] = "{\"type\":\"lock-status\"}\n";
  guint n_long = 0;
  gsize bytes = 0;

  g_free (wait_for_lines (done, "long", 1));
  g_assert_true (g_file_test (done, G_FILE_TEST_EXISTS));
  /* Every run so far has ended (head, tr, seq and the 45), so each is in
   * the timeline the session keeps: the replay is all that comes. */
  wait_for_records (s, "exit", 48);

  /* Attached, and not reading for a moment: the replay waits queued. */
  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL, &error);
  g_assert_no_error (error);
  g_usleep (500 * 1000);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request, strlen (request),
                             NULL, NULL, &error);
  g_assert_no_error (error);

  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  for (;;)
    {
      gsize length = 0;
      g_autofree char *line = g_data_input_stream_read_line (in, &length, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("the session closed the connection after %zu bytes, %u long runs", bytes, n_long);
      bytes += length + 1;
      if (g_str_has_prefix (line, "{\"type\":\"exec\"") && length > 1000000)
        n_long++;
      if (g_str_has_prefix (line, "{\"type\":\"lock-status\""))
        break;
    }
  g_test_message ("replayed %u long runs, %zu bytes", n_long, bytes);
  g_assert_cmpuint (n_long, >, 0);
  /* The backlog is bounded by what it sends: half what a client may lag. */
  g_assert_cmpuint (bytes, <=, 8 * 1024 * 1024 + 64 * 1024);

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
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

/* A session follows its project's file: a rule put there while it runs
 * (another session's "always in this project") decides at once; a file
 * that no longer reads changes nothing, and the session says why; a rule
 * taken back no longer decides. Each change is in the audit log. */
static void
test_project_rules_live (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go1; touch \"$1/asked-marker1\"; echo one=$? >>\"$1/log\"; "
    "w \"$1\" go2; touch \"$1/asked-marker2\"; echo two=$? >>\"$1/log\"; "
    "w \"$1\" go3; touch \"$1/asked-marker3\"; echo three=$? >>\"$1/log\"; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *project = realpath (s->out, NULL);
  g_autofree char *rules = allow_asked_rules (project);
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *log = NULL;
  g_autofree char *err = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *go1 = out_file (s, "go1");
  g_autofree char *go2 = out_file (s, "go2");
  g_autofree char *go3 = out_file (s, "go3");
  JsonObject *record;

  g_free (wait_for_socket (s));
  /* As another session, remembering an answer, would. */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (file, rules, -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 1);
  g_file_set_contents (go1, "", 0, &error);
  g_assert_no_error (error);
  wait_for_log (s, "one=");

  g_file_set_contents (file, "{\"rules\": [", -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 2);
  g_file_set_contents (go2, "", 0, &error);
  g_assert_no_error (error);
  wait_for_log (s, "two=");

  g_assert_cmpint (g_unlink (file), ==, 0);
  wait_for_records (s, "policy", 3);
  g_file_set_contents (go3, "", 0, &error);
  g_assert_no_error (error);

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "one=0\ntwo=0\nthree=126\n");
  g_assert_true (out_exists (s, "asked-marker1"));
  g_assert_true (out_exists (s, "asked-marker2"));
  g_assert_false (out_exists (s, "asked-marker3"));

  changes = audit_records (s, "policy");
  g_assert_cmpuint (changes->len, ==, 3);
  g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (changes, 0), "rules"), ==, 1);
  {
    g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, rules, -1);

    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (changes, 0), "sha256"), ==, digest);
    g_assert_false (json_object_has_member (g_ptr_array_index (changes, 2), "sha256"));
  }
  g_assert_nonnull (strstr (json_object_get_string_member (g_ptr_array_index (changes, 1), "error"), file));
  g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (changes, 2), "rules"), ==, 0);
  execs = audit_records (s, "exec");
  record = audit_exec_with (execs, "out/asked-marker1");
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "remembered");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "mine");
  record = audit_exec_with (execs, "out/asked-marker3");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-ask");

  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "paddock-run: the project's rules changed, and cannot be read; "
                                 "the session keeps the rules it had: "));
  shown = audit_show (s, "policy");
  g_assert_nonnull (strstr (shown, "the project's rules changed: 1 rule now, from "));
  g_assert_nonnull (strstr (shown, "the project's rules changed, not taken: "));
}

/* The folder of the project's file removed during a session (its rules
 * with it) and made again: the file put there is still seen. It was not:
 * the watch went with the folder. */
static void
test_project_rules_folder_removed (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; touch \"$1/asked-marker\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *project = realpath (s->out, NULL);
  g_autofree char *rules = allow_asked_rules (project);
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GError) error = NULL;

  g_free (wait_for_socket (s));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (file, "{\"rules\": []}", -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 1);
  test_remove_tree (folder);
  wait_for_records (s, "policy", 2);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (file, rules, -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 3);
  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
  changes = audit_records (s, "policy");
  g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (changes, changes->len - 1), "rules"), ==, 1);
}

/* An answer remembered for the project, taken back with `paddockctl
 * policy forget` while the session runs: the same command asks again. */
static void
test_forget_project_answer (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go1; touch \"$1/asked-marker\"; echo one=$? >>\"$1/log\"; rm -f \"$1/asked-marker\"; "
    "w \"$1\" go2; touch \"$1/asked-marker\"; echo two=$? >>\"$1/log\"",
    "sh", "@OUT@", NULL }, TRUE, NULL);
  g_autofree char *go1 = out_file (s, "go1");
  g_autofree char *go2 = out_file (s, "go2");
  g_autofree char *log = NULL;
  g_autofree char *forgot = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(PaddockMessage) again = NULL;
  g_autoptr(GSubprocess) forget = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (go1, "", 0, &error);
  g_assert_no_error (error);
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  session_decide_remember (s, ask->id, "allow", "project");
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_PROJECT);
  wait_for_log (s, "one=0");
  wait_for_records (s, "policy", 1);

  forget = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                      (const char *[]) { "policy", "forget", "--project", s->out, decided->rule, NULL });
  g_subprocess_communicate_utf8 (forget, NULL, NULL, &forgot, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (forget), ==, 0);
  g_assert_nonnull (strstr (forgot, decided->rule));
  wait_for_records (s, "policy", 2);

  g_file_set_contents (go2, "", 0, &error);
  g_assert_no_error (error);
  again = session_expect (s, PADDOCK_MESSAGE_ASK);
  session_decide (s, again->id, "deny");
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "one=0\ntwo=126\n");
  g_assert_false (out_exists (s, "asked-marker"));
}

/* An answer for the project that the project's file could not take (its
 * lock held) is the session's: a later change of that file, which the
 * session follows, leaves it in place. It was dropped with the project's
 * rules the file no longer had. */
static void
test_remember_project_then_file_changes (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go1; touch \"$1/asked-marker\"; echo one=$? >>\"$1/log\"; "
    "w \"$1\" go2; touch \"$1/asked-marker\"; echo two=$? >>\"$1/log\"",
    "sh", "@OUT@", NULL }, TRUE, NULL);
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *lock_file = project_overrides_file (s, ".lock");
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *project = realpath (s->out, NULL);
  g_autofree char *empty = g_strdup_printf ("{\"project\": \"%s\", \"rules\": []}\n", project);
  g_autofree char *go1 = out_file (s, "go1");
  g_autofree char *go2 = out_file (s, "go2");
  g_autofree char *log = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(PaddockMessage) again = NULL;
  g_autoptr(GError) error = NULL;
  paddock_autofd int lock_fd = -1;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  lock_fd = open (lock_file, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (lock_fd, >=, 0);
  g_assert_cmpint (flock (lock_fd, LOCK_EX), ==, 0);

  g_file_set_contents (go1, "", 0, &error);
  g_assert_no_error (error);
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  session_decide_remember (s, ask->id, "allow", "project");
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_SESSION);
  paddock_close_fd (&lock_fd);

  g_file_set_contents (file, empty, -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 1);
  g_file_set_contents (go2, "", 0, &error);
  g_assert_no_error (error);
  while (again == NULL || strstr (again->exe, "touch") == NULL)
    {
      g_clear_pointer (&again, paddock_message_free);
      again = session_expect (s, PADDOCK_MESSAGE_EXEC);
    }
  g_assert_cmpint (again->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (again->by, ==, "remembered");
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "one=0\ntwo=0\n");
}

static void
wait_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
}

/* The project's rules are watched through SIGIO. One from elsewhere
 * (kill -IO) ends nothing: not paddock-run, which it ended before the
 * watch took it, nor the agent, to which it is not passed on. */
static void
test_stray_sigio (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; touch \"$1/ran\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  pid_t run = (pid_t) atoi (g_subprocess_get_identifier (s->run));

  g_free (wait_for_socket (s));
  g_assert_cmpint (kill (run, SIGIO), ==, 0);
  g_usleep (100 * 1000);
  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "ran"));
}

/* Where the project's rules file should be, a pipe (or anything but a
 * file) is refused, and holds nothing up: during a session the rules stay
 * as they were; a session started then says so and runs nothing. Either
 * would have waited, paddock-run or its main context (every ask, list and
 * kill), for someone to write to the pipe. */
static void
test_project_rules_not_a_file (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; touch \"$1/ran\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *file = project_overrides_file (s, "");
  g_autofree char *folder = g_path_get_dirname (file);
  g_autofree char *ran_too = out_file (s, "ran-too");
  g_autofree char *says = g_strdup_printf ("cannot read the project's rules %s: it is a pipe, where Paddock keeps "
                                           "a file (the file holds the project ", file);
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (s);
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *second_err = NULL;
  gint64 deadline;

  g_free (wait_for_socket (s));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_cmpint (mkfifo (file, 0600), ==, 0);
  wait_for_records (s, "policy", 1);

  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  second = g_subprocess_launcher_spawn (launcher, &error, paddock_run, "--project", s->out, "--",
                                        "touch", ran_too, NULL);
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  {
    gboolean done = FALSE;

    g_subprocess_wait_async (second, NULL, wait_done, &done);
    while (!done && g_get_monotonic_time () < deadline)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10 * 1000);
    if (!done)
      {
        g_subprocess_force_exit (second);
        g_error ("paddock-run still waited on the pipe after 20 s");
      }
  }
  g_assert_cmpint (g_subprocess_get_exit_status (second), ==, 2);
  second_err = stream_text (g_subprocess_get_stderr_pipe (second));
  g_assert_nonnull (strstr (second_err, says));
  g_assert_false (g_file_test (ran_too, G_FILE_TEST_EXISTS));

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "ran"));
  changes = audit_records (s, "policy");
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_nonnull (strstr (json_object_get_string_member (g_ptr_array_index (changes, 0), "error"), says));
}

/* An answer remembered for a script whose #! line is what asks holds for
 * that line's command: the script run again is not asked again (it was:
 * the rule remembered was for the script's own command line, which never
 * asked). */
static void
test_remember_script_line (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; "
    "cd \"$1\" && printf '#!/usr/bin/touch\\n' >x && chmod +x x && ./x asked-marker && mv asked-marker first && "
    "./x asked-marker; exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  g_autofree char *rest = NULL;
  guint scripts = 0;

  rest = run_allowing_for_session (s, session);
  g_assert_true (out_exists (s, "first"));
  g_assert_true (out_exists (s, "asked-marker"));

  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "remember"), ==, "session");
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member (record, "path"), "./x") != 0)
        continue;
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, scripts == 0 ? "ask" : "allow");
      if (scripts++ > 0)
        g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "remembered");
    }
  g_assert_cmpuint (scripts, ==, 2);
}

/* A pipeline's command lines are each as long as an exec's may be: what
 * the timeline shows of it is cut, so that the exec's message stays one
 * a client reads (with two 240 KiB lines of control bytes, each escaped
 * six times over, it was longer, and the client had to drop it). */
static void
test_pipeline_bounds (void)
{
  g_autofree char *big = g_strnfill (120 * 1024, '\001');
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && printf '#!/bin/sh\\nsleep 1\\n' >fetch-other && chmod +x fetch-other && "
    "(sleep 0.5; exec ./fetch-other \"$2\" \"$2\") | sh -s \"$2\" \"$2\"",
    "sh", "@OUT@", big, NULL }, TRUE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  const PaddockMessage *writer = NULL;
  const char *pipeline;

  /* The whole stream: session_read() fails on a line too long. */
  for (PaddockMessage *message; (message = session_read (s, 20000)) != NULL;)
    paddock_message_free (message);
  g_assert_cmpint (session_wait (s), ==, 0);

  for (guint i = 0; i < s->seen->len; i++)
    {
      const PaddockMessage *message = g_ptr_array_index (s->seen, i);

      if (message->type == PADDOCK_MESSAGE_EXEC && g_strcmp0 (message->path, "./fetch-other") == 0)
        writer = message;
    }
  g_assert_nonnull (writer);
  g_assert_nonnull (writer->pipeline);
  g_assert_true (g_str_has_prefix (writer->pipeline, "/bin/sh ./fetch-other \001\001"));
  g_assert_true (g_str_has_suffix (writer->pipeline, "…"));
  g_assert_cmpuint (strlen (writer->pipeline), <=, PADDOCK_EXEC_MAX_PIPELINE_SHOWN + strlen ("…"));

  execs = audit_records (s, "exec");
  pipeline = json_object_get_string_member (audit_exec_at (execs, "./fetch-other"), "pipeline");
  g_assert_cmpstr (pipeline, ==, writer->pipeline);
}

/* An answer remembered for a pipeline into a shell holds for that
 * pipeline, whichever of its programs starts first, and not for another
 * writer's: the first ask is answered "session", the same pipeline in the
 * other order runs without an ask, and one from another writer asks. */
static void
test_remember_pipeline (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    WAIT_FOR_GO "; "
    "cd \"$1\" && printf '#!/bin/sh\\necho touch ran-$1\\nsleep 1\\n' >fetch-asked && chmod +x fetch-asked && "
    "(sleep 0.5; exec ./fetch-asked 1) | sh; "
    "./fetch-asked 1 | (sleep 0.5; exec sh); "
    "./fetch-asked 2 | (sleep 0.5; exec sh); exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GPtrArray) decisions = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *rest = NULL;
  const char *got[3] = { NULL };

  rest = run_allowing_for_session (s, session);

  g_assert_true (out_exists (s, "ran-1"));
  g_assert_true (out_exists (s, "ran-2"));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "remember"), ==, "session");

  /* Each pipeline's one record with it: the writer's, then the shell's
   * twice. */
  execs = audit_records (s, "exec");
  for (guint i = 0, n = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      const char *pipeline = json_object_get_string_member_with_default (record, "pipeline", NULL);

      if (pipeline == NULL || !g_str_has_prefix (pipeline, "/bin/sh ./fetch-asked"))
        continue;
      g_assert_cmpuint (n, <, G_N_ELEMENTS (got));
      g_assert_cmpstr (pipeline, ==, n < 2 ? "/bin/sh ./fetch-asked 1 | sh" : "/bin/sh ./fetch-asked 2 | sh");
      got[n++] = json_object_get_string_member (record, "by");
      if (n == 2)
        g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
      else
        g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "ask");
    }
  g_assert_cmpstr (got[1], ==, "remembered");
  g_assert_nonnull (got[2]);
  /* attach showed both asks with their pipelines. */
  g_assert_nonnull (strstr (rest, "ASK    ./fetch-asked 1  (#!/bin/sh)  (pipeline: /bin/sh ./fetch-asked 1 | sh)  [test-piped-ask]"));
  g_assert_nonnull (strstr (rest, "(pipeline: /bin/sh ./fetch-asked 2 | sh)  [test-piped-ask]"));
}

/* A program run under another name (bash's exec -a) is shown under its
 * own, in attach and in audit show: a timeline must not show `ls` where
 * `rm` runs. The policy already judged it by both names. */
static void
test_exec_alias (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "bash", "-c",
    WAIT_FOR_GO "; (exec -a ls touch \"$1/made\"); "
    "(exec -a ls touch \"$1/denied-marker\"); exit 0",
    "bash", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *made = NULL;
  g_autofree char *denied = NULL;

  attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  g_assert_true (out_exists (s, "made"));
  g_assert_false (out_exists (s, "denied-marker"));

  shown = audit_show (s, NULL);
  g_test_message ("%s%s", rest, shown);

  made = g_strdup_printf ("touch %s/made  (calls itself \"ls\")", s->out);
  denied = g_strdup_printf ("touch %s/denied-marker  (calls itself \"ls\")  [test-deny]", s->out);
  g_assert_nonnull (strstr (rest, made));
  g_assert_nonnull (strstr (rest, denied));
  g_assert_nonnull (strstr (shown, made));
  g_assert_nonnull (strstr (shown, denied));
  g_clear_pointer (&made, g_free);
  made = g_strdup_printf ("ls %s/made", s->out);
  g_assert_null (strstr (rest, made));
  g_assert_null (strstr (shown, made));
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

/* The fields of /proc/PID/stat after the command's name, the state
 * (field 3 of stat(5)) first; none where there is no name to skip. */
static GStrv
process_stat_fields (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = read_text (path);
  const char *paren = strrchr (stat, ')');

  if (paren == NULL || paren[1] == '\0')
    return g_new0 (char *, 1);
  return g_strsplit (paren + 2, " ", -1);
}

static char
process_state (int pid)
{
  g_auto(GStrv) fields = process_stat_fields (pid);

  return fields[0] != NULL && fields[0][0] != '\0' ? fields[0][0] : '?';
}

/* Whether nothing of @pid runs while the session is paused: it is
 * stopped ('T'), or it is a shell in vfork() whose child stopped before
 * its exec was received (a stop withdraws an exec not yet taken, and the
 * child stops with the exec to do again): the shell then waits for that
 * child in the kernel, and cannot stop or run until it is resumed. */
static gboolean
process_is_held (int pid)
{
  g_autofree char *wchan_path = g_strdup_printf ("/proc/%d/wchan", pid);
  g_autofree char *children_path = g_strdup_printf ("/proc/%d/task/%d/children", pid, pid);
  g_autofree char *wchan = NULL;
  g_autofree char *children = NULL;
  g_auto(GStrv) child_pids = NULL;

  if (process_state (pid) == 'T')
    return TRUE;
  if (!g_file_get_contents (wchan_path, &wchan, NULL, NULL) || strcmp (wchan, "kernel_clone") != 0 ||
      !g_file_get_contents (children_path, &children, NULL, NULL))
    return FALSE;
  child_pids = g_strsplit (g_strstrip (children), " ", -1);
  if (child_pids[0] == NULL)
    return FALSE;
  for (guint i = 0; child_pids[i] != NULL; i++)
    if (process_state (atoi (child_pids[i])) != 'T')
      return FALSE;
  return TRUE;
}

/* Runs `paddockctl COMMAND SESSION`, which must succeed and print the
 * session id and @says. */
static void
assert_ctl_says (Session    *s,
                 const char *command,
                 const char *session,
                 const char *says)
{
  g_autoptr(GSubprocess) ctl = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE, (const char *[]) { command, session, NULL });
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expected = g_strdup_printf ("%s %s\n", session, says);

  g_subprocess_communicate_utf8 (ctl, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (ctl), ==, 0);
  g_assert_cmpstr (out, ==, expected);
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
  g_autoptr(GSubprocess) list = NULL;
  g_autoptr(GSubprocess) kill_ctl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *kill_err = NULL;
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
  list = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, (const char *[]) { "list", NULL });
  g_subprocess_communicate_utf8 (list, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  kill_ctl = spawn_ctl (s, G_SUBPROCESS_FLAGS_STDERR_PIPE, (const char *[]) { "kill", session, NULL });
  g_subprocess_communicate_utf8 (kill_ctl, NULL, NULL, NULL, &kill_err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kill (run, SIGCONT), ==, 0);

  g_test_message ("%s%s", out, err);
  g_assert_cmpint (g_subprocess_get_exit_status (list), ==, 1);
  g_assert_null (strstr (out, "No sessions"));
  row = g_strdup_printf ("%-14s %-8s %-10s %-7s", session, "?", "?", "stopped");
  g_assert_nonnull (strstr (out, row));
  g_clear_pointer (&row, g_free);
  row = g_strdup_printf ("%-14s %-8s %-10s %-7s", "0123456789ab", "?", "?", "silent");
  g_assert_nonnull (strstr (out, row));
  says = g_strdup_printf ("paddockctl: session %s did not answer: its paddock-run (pid %d) is stopped; "
                          "kill -CONT %d resumes it\n", session, (int) run, (int) run);
  g_assert_nonnull (strstr (err, says));
  g_assert_nonnull (strstr (err, "paddockctl: session 0123456789ab did not answer within 5 s\n"));
  /* Asked of that session alone, the same answer. */
  g_assert_cmpint (g_subprocess_get_exit_status (kill_ctl), ==, 1);
  g_assert_cmpstr (kill_err, ==, says);

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

/* The agent's pid, from the session's start record. */
static int
session_agent_pid (Session *s)
{
  g_autoptr(GPtrArray) starts = audit_records (s, "session-start");

  g_assert_cmpuint (starts->len, ==, 1);
  return (int) json_object_get_int_member (g_ptr_array_index (starts, 0), "agent_pid");
}

/* Pauses @session, and waits until nothing of @agent runs (see
 * process_is_held()). The agent may be waiting in vfork() on a child
 * whose exec is being answered ('D'): it stops once that exec is through,
 * and the pause does not wait for it. Under ASan it was still 'D' right
 * after the pause. If the child stopped before its exec was received, the
 * agent waits in vfork() until the resume (CI met that once). */
static void
pause_until_held (Session    *s,
                  const char *session,
                  int         agent)
{
  assert_ctl_says (s, "pause", session, "paused");
  for (guint i = 0; i < 100 && !process_is_held (agent); i++)
    g_usleep (50 * 1000);
  g_assert_true (process_is_held (agent));
}

static void
test_pause_resume (void)
{
  g_autoptr(Session) s = session_start ("wait-then-ask", FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *go = out_file (s, "go");
  g_autoptr(GError) error = NULL;
  int agent = session_agent_pid (s);

  /* The agent runs its script: its own exec answered. A process held in an
   * exec cannot stop until it is answered (it waits killably, 'D'), and
   * under ASan on a busy machine that outlasted the pause's wait. */
  g_assert_true (wait_for_out (s, "log", 30));

  /* Nothing to resume: said at once (it waited 10 s, then failed). */
  assert_ctl_says (s, "resume", session, "was not paused");

  for (guint round = 0; round < 2; round++)
    {
      /* The second round's pause comes after a replayed pause and resume,
       * which it must not take for its own: the agent is stopped when it
       * returns. */
      pause_until_held (s, session, agent);
      /* Still stopped a moment later: the supervisor leaves a paused agent alone. */
      g_usleep (200 * 1000);
      g_assert_true (process_is_held (agent));
      assert_ctl_says (s, "pause", session, "was already paused");

      assert_ctl_says (s, "resume", session, "resumed");
      g_assert_cmpint (process_state (agent), !=, 'T');
    }

  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (session_wait (s), ==, 0);
  {
    g_autoptr(GPtrArray) pauses = audit_records (s, "pause");
    g_autoptr(GPtrArray) resumes = audit_records (s, "resume");
    g_assert_cmpuint (pauses->len, ==, 2);
    g_assert_cmpuint (resumes->len, ==, 2);
  }
  /* audit show says what was paused, and who asked (it said nothing). */
  {
    g_autoptr(GPtrArray) pauses = audit_records (s, "pause");
    g_autofree char *out = audit_show (s, "pause");
    g_autofree char *says = g_strdup_printf ("user       all the agent's programs, asked by pid %" G_GINT64_FORMAT "\n",
                                             json_object_get_int_member (g_ptr_array_index (pauses, 0), "client_pid"));

    if (strstr (out, says) == NULL)
      g_error ("expected \"%s\" in:\n%s", says, out);
  }
}

static gint64
file_size (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 ? (gint64) st.st_size : -1;
}

/* Pauses @s's ticking agent, watches it with attach, and sends SIGTERM to
 * its paddock-run, which must end within @seconds. Returns what attach
 * showed from then to the session's end. */
static char *
pause_then_terminate (Session *s,
                      guint    seconds)
{
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *ticks = out_file (s, "ticks");
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  char *rest;
  pid_t run = (pid_t) atoi (g_subprocess_get_identifier (s->run));
  int agent = session_agent_pid (s);
  gboolean ended = FALSE;

  for (guint i = 0; i < 600 && file_size (ticks) <= 0; i++)
    g_usleep (50 * 1000);
  pause_until_held (s, session, agent);
  attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);

  g_assert_cmpint (kill (run, SIGTERM), ==, 0);
  for (guint i = 0; i < seconds * 20 && !ended; i++)
    {
      ended = g_subprocess_get_identifier (s->run) == NULL;
      if (!ended)
        g_usleep (50 * 1000);
    }
  if (!ended)
    {
      /* Leave nothing behind for the next test. */
      kill (-agent, SIGKILL);
      kill (-agent, SIGCONT);
      kill (run, SIGKILL);
    }
  g_assert_true (ended);
  rest = read_until (lines, "session ended");
  g_free (attach_finish (attach));
  return rest;
}

/* The record of @type by a signal, for SIGTERM: the only one. */
static void
assert_by_sigterm (Session    *s,
                   const char *type)
{
  g_autoptr(GPtrArray) records = audit_records (s, type);

  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "by"), ==, "signal");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "signal"), ==, "SIGTERM");
}

/* A signal that ends programs, sent to paddock-run while the session is
 * paused, reaches the agent: the session is resumed for it, and ends. It
 * stayed paused before, the signal held, paddock-run waiting for good. */
static void
test_pause_then_terminate (void)
{
  g_autoptr(Session) s = session_start ("busy-until-go", FALSE, NULL);
  g_autofree char *rest = pause_then_terminate (s, 10);
  g_autofree char *shown = NULL;

  g_assert_cmpint (session_wait (s), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (rest, "  session resumed, for a signal to paddock-run that ends it\n"));
  g_assert_null (strstr (rest, "session killed"));
  assert_by_sigterm (s, "resume");
  shown = audit_show (s, "resume");
  g_assert_nonnull (strstr (shown, "all the agent's programs, for SIGTERM to paddock-run to reach them\n"));
}

/* An agent that ignores the signal it was resumed for does not run on,
 * and nor does what was paused with it: five seconds on, its whole tree
 * is killed. Before, the session ran on as if never paused. */
static void
test_pause_then_terminate_ignored (void)
{
  g_autoptr(Session) s = session_start ("ticking-ignoring-term", FALSE, NULL);
  gint64 start = g_get_monotonic_time ();
  g_autofree char *rest = pause_then_terminate (s, 20);
  g_autofree char *shown = NULL;

  g_assert_cmpint (session_wait (s), ==, 128 + SIGKILL);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 4 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (rest, "  session resumed, for a signal to paddock-run that ends it\n"));
  g_assert_nonnull (strstr (rest, "  session killed: the agent did not end after a signal to paddock-run that ends it\n"));
  assert_by_sigterm (s, "resume");
  assert_by_sigterm (s, "kill");
  shown = audit_show (s, "kill");
  g_assert_nonnull (strstr (shown, "all the agent's programs: the agent did not end after SIGTERM to paddock-run\n"));
}

/* What a clone of a remote repository wrote, run in a later command, is
 * asked about (no client: refused, or let through with --on-ask allow);
 * what a clone of a local folder wrote, or a file written into the
 * clone's folder after it ended, is not. Asked of a client, the question
 * names the clone, and once let run the file counts as read. Before, the
 * clone's files ran unasked. */
/* Runs @scenario with no client, refused and then allowed by --on-ask.
 * Each step of @asked (its name, and its command line) runs a downloaded
 * file: refused by run-downloaded-file, with no client, or let run,
 * leaving @asked_markers. Each of @free runs without a rule, and @markers
 * are left either way. */
static void
check_downloaded_runs (const char         *scenario,
                       const char * const *asked,
                       const char * const *asked_markers,
                       const char * const *free,
                       const char * const *markers)
{
  for (guint allow = 0; allow < 2; allow++)
    {
      g_autoptr(Session) s = session_start_shipped (scenario, FALSE, allow ? "allow" : "deny");
      const char *decision = allow ? "allow" : "deny";
      g_autoptr(GPtrArray) execs = NULL;
      g_autofree char *log = NULL;

      g_assert_cmpint (session_wait (s), ==, 0);
      log = out_text (s, "log");
      g_test_message ("%s", log);
      execs = audit_records (s, "exec");
      for (guint i = 0; asked[i] != NULL; i += 2)
        {
          g_autofree char *step = g_strdup_printf ("\n%s=%d\n", asked[i], allow ? 0 : 126);
          JsonObject *record;

          g_assert_nonnull (strstr (log, step));
          record = assert_exec_decided (execs, asked[i + 1], decision, "run-downloaded-file");
          g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
        }
      for (guint i = 0; asked_markers[i] != NULL; i++)
        g_assert_cmpint (out_exists (s, asked_markers[i]), ==, allow);
      for (guint i = 0; free[i] != NULL; i += 2)
        {
          g_autofree char *step = g_strdup_printf ("\n%s=0\n", free[i]);

          g_assert_nonnull (strstr (log, step));
          if (free[i + 1] != NULL)
            assert_exec_decided (execs, free[i + 1], "allow", NULL);
        }
      for (guint i = 0; markers[i] != NULL; i++)
        g_assert_true (out_exists (s, markers[i]));
    }
}

/* Runs @scenario with a client that lets its first ask, about a
 * downloaded file, go on: that file left @marker. Returns the session
 * ended, with the ask in @ask and the exec records in @execs. */
static Session *
allow_downloaded_run (const char      *scenario,
                      const char      *marker,
                      PaddockMessage **ask,
                      GPtrArray      **execs)
{
  Session *s = session_start_shipped (scenario, TRUE, NULL);

  *ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr ((*ask)->rule, ==, "run-downloaded-file");
  session_decide (s, (*ask)->id, "allow");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, marker));
  *execs = audit_records (s, "exec");
  return s;
}

/* A script downloaded in one command and run in the next is asked about
 * (the default policy's run-downloaded-file): with no client to answer,
 * it is refused and never runs; allowed, it runs. A script the agent
 * wrote itself runs either way, and so does the download. */
static void
test_download_then_run (void)
{
  /* The second of the two is refused, or let through with no one to
   * look: still unread. j.sh was saved by the shell from the download's
   * standard output, served-k.sh under a name the server sent (-J). */
  check_downloaded_runs ("download-then-run",
                         (const char *[]) { "downloaded", "sh i.sh", "downloaded-again", "sh i.sh",
                                            "run-redirected", "sh j.sh", "run-server-named", "sh served-k.sh",
                                            NULL },
                         (const char *[]) { "i.sh-marker", "j.sh-marker", "k.sh-marker", NULL },
                         (const char *[]) { "download", NULL, "local", "sh local.sh", "redirected", NULL,
                                            "server-named", NULL, NULL },
                         (const char *[]) { "local-marker", NULL });

  /* Asked of a client, the question says which file runs, and which
   * download saved it. Once a user let it run, the file counts as read:
   * its second run is not asked about (it was before). */
  {
    g_autoptr(Session) s = session_start_shipped ("download-then-run", TRUE, NULL);
    g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_autoptr(GPtrArray) execs = NULL;
    g_autofree char *expected = NULL;
    g_autoptr(PaddockMessage) second = NULL;
    g_autoptr(PaddockMessage) third = NULL;
    JsonObject *download;

    g_assert_cmpstr (ask->rule, ==, "run-downloaded-file");
    session_decide (s, ask->id, "allow");
    second = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_assert_cmpstr (second->rule, ==, "run-downloaded-file");
    g_assert_cmpstr (second->argv[1], ==, "j.sh");
    session_decide (s, second->id, "deny");
    third = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_assert_cmpstr (third->argv[1], ==, "served-k.sh");
    g_assert_nonnull (strstr (third->reason, "-fsSL -OJ https://x.example/k.sh"));
    session_decide (s, third->id, "deny");
    g_assert_cmpint (session_wait (s), ==, 0);
    g_assert_true (out_exists (s, "i.sh-marker"));
    g_assert_false (out_exists (s, "j.sh-marker"));
    execs = audit_records (s, "exec");
    download = audit_exec_with (execs, "https://x.example/i.sh");
    g_assert_nonnull (download);
    expected = g_strdup_printf ("Runs a file downloaded earlier in this session (by curl or wget, or tee from "
                                "them, in a git clone, or unpacked from a downloaded archive), without anyone "
                                "reading it. It runs %s/work/i.sh, which #%" G_GINT64_FORMAT " saved: "
                                "%s/bin/curl -fsSL -o i.sh https://x.example/i.sh",
                                s->out, json_object_get_int_member (download, "event"), s->out);
    g_assert_cmpstr (ask->reason, ==, expected);
  }
}

static void
test_clone_then_run (void)
{
  check_downloaded_runs ("clone-then-run",
                         (const char *[]) { "cloned", "sh tool/install.sh", "cloned-again", "./tool/install.sh", NULL },
                         (const char *[]) { "tool.git-marker", NULL },
                         (const char *[]) { "clone", NULL, "local-clone", NULL, "copied", "sh copy/install.sh",
                                            "built", "sh tool/built.sh", NULL },
                         (const char *[]) { "tool-marker", "built-marker", NULL });

  {
    g_autoptr(PaddockMessage) ask = NULL;
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = allow_downloaded_run ("clone-then-run", "tool.git-marker", &ask, &execs);
    g_autofree char *expected = NULL;
    JsonObject *clone;

    clone = audit_exec_with (execs, "https://x.example/tool.git");
    g_assert_nonnull (clone);
    expected = g_strdup_printf ("It runs %s/work/tool/install.sh, which #%" G_GINT64_FORMAT " saved: "
                                "%s/bin/git clone https://x.example/tool.git",
                                s->out, json_object_get_int_member (clone, "event"), s->out);
    g_assert_true (g_str_has_suffix (ask->reason, expected));
    /* Let run once, asked: the second run, as a program, was not asked about. */
    assert_exec_decided (execs, "./tool/install.sh", "allow", NULL);
  }
}

/* An archive a download saved is unpacked, and its script run: asked
 * about, as a clone's is, though tar gave the file the time it was packed
 * with. A local archive's script, and one written after tar ended, are
 * not. */
static void
test_unpack_then_run (void)
{
  check_downloaded_runs ("unpack-then-run",
                         (const char *[]) { "unpacked", "sh t/install.sh", "unpacked-again", "./t/install.sh", NULL },
                         (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "download", NULL, "unpack", NULL, "local-unpack", NULL,
                                            "local", "sh into/l/install.sh", "built", "sh t/built.sh", NULL },
                         (const char *[]) { "local-marker", "built-marker", NULL });

  {
    g_autoptr(PaddockMessage) ask = NULL;
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = allow_downloaded_run ("unpack-then-run", "unpacked-marker", &ask, &execs);
    g_autofree char *expected = NULL;
    JsonObject *download;
    JsonObject *unpack;

    download = audit_exec_with (execs, "https://x.example/t.tgz");
    unpack = audit_exec_with (execs, "-xzf");
    g_assert_nonnull (download);
    g_assert_nonnull (unpack);
    /* Which run saved the file, and which the archive. */
    expected = g_strdup_printf ("It runs %s/work/t/install.sh, which #%" G_GINT64_FORMAT " saved: tar -xzf t.tgz "
                                "(its archive saved by #%" G_GINT64_FORMAT ": %s/bin/curl -fsSL -o t.tgz "
                                "https://x.example/t.tgz)",
                                s->out, json_object_get_int_member (unpack, "event"),
                                json_object_get_int_member (download, "event"), s->out);
    if (!g_str_has_suffix (ask->reason, expected))
      g_error ("the reason \"%s\" does not end in \"%s\"", ask->reason, expected);
    assert_exec_decided (execs, "./t/install.sh", "allow", NULL);
  }
}

/* Lets the next @n asks of @s, each about a downloaded file, go on, into
 * @asks, and waits for the session's end. Returns its exec records; the
 * first @n runs of the scenario's stand-in curl, in the order they ran,
 * go into @downloads. */
static GPtrArray *
allow_downloaded_runs (Session         *s,
                       PaddockMessage **asks,
                       JsonObject     **downloads,
                       guint            n)
{
  GPtrArray *execs;
  guint found = 0;

  for (guint i = 0; i < n; i++)
    {
      asks[i] = session_expect (s, PADDOCK_MESSAGE_ASK);
      g_assert_cmpstr (asks[i]->rule, ==, "run-downloaded-file");
      session_decide (s, asks[i]->id, "allow");
      downloads[i] = NULL;
    }
  g_assert_cmpint (session_wait (s), ==, 0);
  execs = audit_records (s, "exec");
  for (guint j = 0; j < execs->len && found < n; j++)
    {
      JsonObject *record = g_ptr_array_index (execs, j);
      JsonArray *argv = json_object_get_array_member (record, "argv");

      if (g_str_has_suffix (json_array_get_string_element (argv, 0), "/bin/curl"))
        downloads[found++] = record;
    }
  return execs;
}

/* A download piped into tar through other programs (gzip -d, in either
 * order; tee, which saves a copy too): what tar unpacked is asked about
 * when run, and the question names each run on the way. An archive
 * piped from a file through cat is not downloaded. Before, none was
 * asked. */
static void
test_filter_unpack_then_run (void)
{
  check_downloaded_runs ("filter-unpack-then-run",
                         (const char *[]) { "piped-h", "sh h/t/install.sh", "piped-i", "sh i/t/install.sh",
                                            "piped-j", "sh j/t/install.sh", NULL },
                         (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "curl-first", NULL, "tar-first", NULL, "tee-through", NULL,
                                            "local-filtered", NULL, "local", "sh k/l/install.sh", NULL },
                         (const char *[]) { "local-marker", NULL });

  {
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = session_start_shipped ("filter-unpack-then-run", TRUE, NULL);
    static const char * const filters[] = { "gzip -d", "gzip -dc", "tee copy.tgz" };
    static const char * const tars[] = { "tar x -C h", "tar x -C i", "tar xz -C j" };
    PaddockMessage *asks[3];
    JsonObject *downloads[3];

    execs = allow_downloaded_runs (s, asks, downloads, G_N_ELEMENTS (asks));
    for (guint i = 0; i < G_N_ELEMENTS (asks); i++)
      {
        JsonObject *filter = assert_exec_decided (execs, filters[i], "allow", NULL);
        JsonObject *tar = assert_exec_decided (execs, tars[i], "allow", NULL);
        g_autofree char *expected = NULL;

        g_assert_nonnull (downloads[i]);
        expected = g_strdup_printf ("which #%" G_GINT64_FORMAT " saved: %s (its archive piped from #%" G_GINT64_FORMAT
                                    ": %s (its input piped from #%" G_GINT64_FORMAT
                                    ": %s/bin/curl -fsSL https://x.example/t.tgz))",
                                    json_object_get_int_member (tar, "event"), tars[i],
                                    json_object_get_int_member (filter, "event"), filters[i],
                                    json_object_get_int_member (downloads[i], "event"), s->out);
        if (!g_str_has_suffix (asks[i]->reason, expected))
          g_error ("the reason \"%s\" does not end in \"%s\"", asks[i]->reason, expected);
        paddock_message_free (asks[i]);
      }
  }
}

/* A download piped into tar, whichever of the two runs first, an archive
 * a download saved unpacked from a redirection, and a download piped into
 * tee, in either order: what each saved is asked about when run, and the
 * question names both runs. An archive piped from cat, and a script from
 * echo, are not downloaded. Before, none was asked. */
static void
test_pipe_unpack_then_run (void)
{
  static const char * const asked[] = { "piped-a", "sh a/t/install.sh", "piped-b", "sh b/t/install.sh",
                                        "redirected-run", "sh c/t/install.sh", "teed-e", "sh e.sh",
                                        "teed-f", "sh f.sh", NULL };

  check_downloaded_runs ("pipe-unpack-then-run", asked, (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "curl-first", NULL, "tar-first", NULL, "download", NULL, "redirected", NULL,
                                            "local-unpack", NULL, "local", "sh d/l/install.sh", "tee-first", NULL,
                                            "curl-tee", NULL, "local-tee", NULL, "local-teed", "sh g.sh", NULL },
                         (const char *[]) { "local-marker", NULL });

  {
    g_autoptr(Session) s = session_start_shipped ("pipe-unpack-then-run", TRUE, NULL);
    PaddockMessage *asks[5] = { NULL, NULL, NULL, NULL, NULL };
    g_autoptr(GPtrArray) execs = NULL;
    /* The runs that saved each, and the downloads, in the order they ran. */
    static const char * const savers[] = { "tar xzf - -C a", "tar xz -C b", "tar xz -C c", "tee e.sh", "tee -a f.sh" };
    static const char * const runs[] = { "a/t/install.sh", "b/t/install.sh", "c/t/install.sh", "e.sh", "f.sh" };
    static const char * const urls[] = { "t.tgz", "t.tgz", "-o t.tgz https://x.example/t.tgz", "e.sh", "f.sh" };
    JsonObject *downloads[5];

    execs = allow_downloaded_runs (s, asks, downloads, G_N_ELEMENTS (asks));
    for (guint i = 0; i < G_N_ELEMENTS (asks); i++)
      {
        JsonObject *saver = assert_exec_decided (execs, savers[i], "allow", NULL);
        g_autofree char *expected = NULL;

        g_assert_nonnull (downloads[i]);
        expected = g_strdup_printf ("It runs %s/work/%s, which #%" G_GINT64_FORMAT " saved: %s (its %s #%" G_GINT64_FORMAT
                                    ": %s/bin/curl -fsSL %s%s)",
                                    s->out, runs[i], json_object_get_int_member (saver, "event"), savers[i],
                                    i < 2 ? "archive piped from" : i == 2 ? "archive saved by" : "input piped from",
                                    json_object_get_int_member (downloads[i], "event"), s->out,
                                    i == 2 ? "" : "https://x.example/", urls[i]);
        if (!g_str_has_suffix (asks[i]->reason, expected))
          g_error ("the reason \"%s\" does not end in \"%s\"", asks[i]->reason, expected);
        paddock_message_free (asks[i]);
      }
  }
}

/* Pauses an agent that starts programs back to back, again and again. A
 * pause often lands while a child's exec is on its way to the monitor:
 * the child stops with it, and the shell waits for the child in vfork()
 * until the resume, so it is not 'T' (the check here before said it was,
 * and failed a round in ten). Either way nothing runs while paused: the
 * agent's tick file does not grow. */
static void
test_pause_busy (void)
{
  g_autoptr(Session) s = session_start ("busy-until-go", FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *ticks = out_file (s, "ticks");
  int agent = session_agent_pid (s);

  for (guint i = 0; i < 600 && file_size (ticks) <= 0; i++)
    g_usleep (50 * 1000);

  for (guint round = 0; round < 30; round++)
    {
      gint64 before;
      gint64 after;

      pause_until_held (s, session, agent);
      before = file_size (ticks);
      g_usleep (100 * 1000);
      after = file_size (ticks);
      g_assert_cmpint (before, ==, after);
      g_assert_true (process_is_held (agent));

      assert_ctl_says (s, "resume", session, "resumed");
      /* And it goes on. */
      for (guint i = 0; i < 600 && file_size (ticks) == after; i++)
        g_usleep (5 * 1000);
      g_assert_cmpint (file_size (ticks), >, after);
    }

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
}

/* A pause with an ask held: the asked program and the shell that started
 * it (dash's vfork waits for its child) cannot stop until the exec is
 * answered, and the pause does not wait for them; but an answer given
 * while paused lets the program run only once the session resumes. */
static void
test_pause_with_ask_held (void)
{
  g_autoptr(Session) s = session_start ("wait-then-ask", TRUE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(PaddockMessage) ask = NULL;

  session_go (s);
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->rule, ==, "test-ask");
  assert_ctl_says (s, "pause", session, "paused");

  session_decide (s, ask->id, "allow");
  /* Answered, the exec goes on, and the program stops on its way out of it. */
  g_usleep (300 * 1000);
  g_assert_false (out_exists (s, "asked-marker"));

  assert_ctl_says (s, "resume", session, "resumed");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
}

static void
test_junk_argv (void)
{
  g_autoptr(Session) s = session_start ("junk", TRUE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  gboolean saw_escaped = FALSE, saw_many = FALSE;
  guint n_laid_out = 0;

  for (;;)
    {
      g_autoptr(PaddockMessage) message = session_read (s, 30000);

      g_assert_nonnull (message);
      if (message->type == PADDOCK_MESSAGE_EXEC && message->escaped)
        {
          const char * const expected[] = {
            "true", "\xff\xfe invalid \xc3", "\x01\x02\x1b[31mred\x1b[0m\x7f", "back\\slash", NULL
          };

          /* Sent escaped, read back as the bytes they were. */
          saw_escaped = TRUE;
          g_assert_cmpstrv (message->argv, expected);
        }
      if (message->type == PADDOCK_MESSAGE_EXEC && message->argc == 5 &&
          g_strcmp0 (message->argv[1], "laid-out") == 0)
        {
          const char * const expected[] = { "true", "laid-out", "one", "two", "three", NULL };

          n_laid_out++;
          g_assert_cmpstr (message->path, ==, "/bin/true");
          g_assert_cmpstrv (message->argv, expected);
          g_assert_false (message->truncated);
        }
      if (message->type == PADDOCK_MESSAGE_EXEC && message->argc == 100001)
        {
          saw_many = TRUE;
          g_assert_true (message->truncated);
        }
      if (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)
        break;
    }
  g_assert_true (saw_escaped);
  g_assert_true (saw_many);
  g_assert_cmpuint (n_laid_out, ==, 2);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "junk=0\n"));

  execs = audit_records (s, "exec");
  saw_many = FALSE;
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (json_object_get_int_member (record, "argc") == 100001)
        {
          saw_many = TRUE;
          g_assert_true (json_object_get_boolean_member (record, "truncated"));
        }
    }
  g_assert_true (saw_many);
  assert_chain_holds (s);
}

/* The exec records whose path is @path, in the log's order. */
static GPtrArray *
audit_execs_at (GPtrArray  *execs,
                const char *path)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member (record, "path"), path) == 0)
        g_ptr_array_add (found, json_object_ref (record));
    }
  return found;
}

/* After a chroot, an absolute path is looked up under the caller's root:
 * the exec is recorded with the file it names there. */
static void
test_chroot (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *expected = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("chroot needs root");
      return;
    }
  s = session_start ("chroot", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "after=0\n"));
  g_assert_false (g_file_test ("/bin/chrooted-probe", G_FILE_TEST_EXISTS));
  expected = g_build_filename (s->out, "root", "bin", "chrooted-probe", NULL);

  execs = audit_records (s, "exec");
  runs = audit_execs_at (execs, "/bin/chrooted-probe");
  g_assert_cmpuint (runs->len, >, 0);
  for (guint i = 0; i < runs->len; i++)
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, i), "exe"), ==, expected);
  assert_chain_holds (s);
}

/* The exec's record whose path is @path, or NULL. */
static JsonObject *
find_exec (GPtrArray  *execs,
           const char *path)
{
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member (record, "path"), path) == 0)
        return record;
    }
  return NULL;
}

/* Under the folder lock the agent has a /tmp of its own. A program it puts
 * there must be looked up there, not in paddock-run's /tmp where there is
 * no such file (that lookup would refuse it as a PATH miss). */
static void
test_private_tmp (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));
  JsonObject *record;

  /* The fake agent is read from the source tree, which the lock would hide. */
  s = session_start ("private-tmp", FALSE, (const char *[]) { "--lock", grant, NULL });
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "private=0\n"));
  g_assert_false (g_file_test ("/tmp/paddock-private-probe", G_FILE_TEST_EXISTS));
  execs = audit_records (s, "exec");
  record = find_exec (execs, "/tmp/paddock-private-probe");
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/tmp/paddock-private-probe");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  assert_chain_holds (s);
}

/* The monitor remembers what a path led to. When the path is repointed
 * the record names the new program, and once it is removed, running it
 * again is a miss, not a run. */
static void
test_replaced (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *tool = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autoptr(GPtrArray) runs = NULL;

  s = session_start ("replaced", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "first=0\n"));
  g_assert_nonnull (strstr (log, "second=1\n"));
  g_assert_nonnull (strstr (log, "gone=127\n"));

  tool = g_build_filename (s->out, "tool", NULL);
  first = g_build_filename (s->out, "first", NULL);
  second = g_build_filename (s->out, "second", NULL);
  execs = audit_records (s, "exec");
  runs = audit_execs_at (execs, tool);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, 0), "exe"), ==, first);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, 1), "exe"), ==, second);
  assert_chain_holds (s);
}

/* Likewise for a process that makes a mount namespace of its own. */
static void
test_own_mounts (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *standard_error = NULL;
  int status = -1;

  if (!g_spawn_sync (NULL, (char *[]) { "unshare", "--map-root-user", "--mount", "true", NULL }, NULL,
                     G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &standard_error, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip ("this machine does not let a user make a user and mount namespace");
      return;
    }
  s = session_start ("own-mounts", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "own=0\n"));
  g_assert_false (g_file_test ("/tmp/paddock-own-probe", G_FILE_TEST_EXISTS));
  execs = audit_records (s, "exec");
  g_assert_nonnull (find_exec (execs, "/tmp/paddock-own-probe"));
  assert_chain_holds (s);
}

/* Whether a pidfd tells how any process ended (Linux 6.15): asked of a
 * child already reaped, which waitid could no longer tell. */
static gboolean
kernel_reports_exit_status (void)
{
  struct
  {
    guint64 mask;
    guint64 cgroupid;
    guint32 ids[11];
    gint32  exit_code;
  } info = { .mask = 1u << 3 };
  int pidfd;
  pid_t pid = fork ();
  gboolean reported;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_usleep (20000);
      _exit (7);
    }
  pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  reported = pidfd >= 0 && ioctl (pidfd, _IOWR (0xFF, 11, info), &info) == 0 &&
             (info.mask & (1u << 3)) != 0 && WIFEXITED (info.exit_code) && WEXITSTATUS (info.exit_code) == 7;
  if (pidfd >= 0)
    close (pidfd);
  return reported;
}

/* The exit record of the exec event @event, or NULL. */
static JsonObject *
find_exit (GPtrArray *exits,
           gint64     event)
{
  for (guint i = 0; i < exits->len; i++)
    {
      JsonObject *record = g_ptr_array_index (exits, i);

      if (json_object_get_int_member (record, "event") == event)
        return record;
    }
  return NULL;
}

/* Programs the agent's shell starts are not paddock-run's children, yet
 * their exit records say how they ended: an exit code or a signal. */
static void
test_exit_codes (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  JsonObject *exit_record;

  if (!kernel_reports_exit_status ())
    {
      g_test_skip ("this kernel tells only a parent how its child ended (Linux 6.15 tells a pidfd's holder)");
      return;
    }
  s = session_start ("exit-codes", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");

  exit_record = find_exit (exits, json_object_get_int_member (audit_exec_with (execs, "exit 3"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 3);
  exit_record = find_exit (exits, json_object_get_int_member (find_exec (execs, "/bin/false"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 1);
  exit_record = find_exit (exits, json_object_get_int_member (audit_exec_with (execs, "kill -TERM"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "signal", -1), ==, SIGTERM);
  g_assert_false (json_object_has_member (exit_record, "exit_code"));
  assert_chain_holds (s);

  /* And paddockctl audit show says so. */
  {
    g_autofree char *out = audit_show (s, NULL);
    g_autofree char *three = g_strdup_printf ("#%" G_GINT64_FORMAT " after ",
                                              json_object_get_int_member (audit_exec_with (execs, "exit 3"), "event"));
    const char *line;

    line = strstr (out, three);
    g_assert_nonnull (line);
    g_assert_true (g_str_has_prefix (strstr (line, "µs"), "µs, status 3\n"));
    g_assert_nonnull (strstr (out, "µs, signal 15\n"));
  }
}

/* The first exec whose argv begins with @first and @second. */
static JsonObject *
find_exec_argv (GPtrArray  *execs,
                const char *first,
                const char *second)
{
  for (guint i = 0; i < execs->len; i++)
    {
      JsonArray *argv = json_object_get_array_member (g_ptr_array_index (execs, i), "argv");

      if (json_array_get_length (argv) >= 2 &&
          g_strcmp0 (json_array_get_string_element (argv, 0), first) == 0 &&
          g_strcmp0 (json_array_get_string_element (argv, 1), second) == 0)
        return g_ptr_array_index (execs, i);
    }
  return NULL;
}

/* A program run through the caller's own /proc entries (/proc/self/fd/N,
 * /dev/fd/N, /proc/thread-self/fd/N, /proc/self/exe) is recorded as the
 * file it is, and decided by that file's name: the monitor looked them up
 * as its own entries, recorded "/proc/self/fd/5" as the program, and let
 * touch denied-marker through as a program named "5". */
static void
check_proc_self (const char * const *extra)
{
  g_autoptr(Session) s = session_start ("proc-self", FALSE, extra);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *denied = NULL;
  g_autofree char *shell = realpath ("/bin/sh", NULL);
  const char *files[] = { "fd-ran", "devfd-ran", "threadself-ran" };
  const struct { const char *path; const char *exe; } runs[] = {
    { "/proc/self/fd/5", "/usr/bin/touch" },
    { "/dev/fd/5", "/usr/bin/touch" },
    { "/proc/thread-self/fd/5", "/usr/bin/touch" },
    { "/proc/self/exe", shell },
  };

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  if (strstr (log, "fd=0\ndevfd=0\nthreadself=0\nselfexe=7\nnofd=127\nslash=127\ndenied=126\n") == NULL)
    g_error ("unexpected steps:\n%s", log);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = out_file (s, files[i]);

      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  denied = out_file (s, "denied-marker");
  g_assert_false (g_file_test (denied, G_FILE_TEST_EXISTS));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      JsonObject *record = find_exec (execs, runs[i].path);

      if (record == NULL)
        g_error ("no record of %s", runs[i].path);
      g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, runs[i].exe);
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
    }
  {
    JsonObject *record = find_exec_argv (execs, "/dev/fd/5", denied);

    g_assert_nonnull (record);
    g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/touch");
    g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
    g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  }
  /* A descriptor that is not open is a miss, as the kernel has it: no run;
   * nor is one named with a trailing slash, which exec refuses. */
  g_assert_null (find_exec (execs, "/dev/fd/9"));
  g_assert_null (find_exec (execs, "/dev/fd/5/"));
  assert_chain_holds (s);
}

static void
test_proc_self (void)
{
  check_proc_self (NULL);
}

/* Under the lock, with its own mounts and (namespaces) process numbers. */
static void
test_proc_self_locked (void)
{
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));

  check_proc_self ((const char *[]) { "--lock", grant, NULL });
}

/* The namespaces backend: a pid namespace of its own (its /proc/self is
 * another number than the monitor is told) and a /dev it built. */
static void
test_proc_self_namespaces (void)
{
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));

  check_proc_self ((const char *[]) { "--lock", "--lock-backend", "namespaces", grant, NULL });
}

/* A program run from a thread other than its process's first replaces the
 * process and runs under its pid: the run is recorded under that pid, it
 * ends the run of the program it replaced, and it gets its own end. */
static void
test_thread_exec (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  g_autofree char *log = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *after_text = NULL;
  g_autofree char *helper = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "tests", "thread-exec", NULL);
  g_autoptr(GPtrArray) exit_messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  JsonObject *helper_run;
  JsonObject *shell_run;
  JsonObject *child_run;
  JsonObject *end;
  gint64 pid;
  guint n_replaced = 0;

  s = session_start ("thread-exec", TRUE, NULL);
  /* The whole stream, up to its end, for the exit messages below. */
  for (PaddockMessage *message; (message = session_read (s, 20000)) != NULL;)
    g_ptr_array_add (exit_messages, message);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "thread=0\n"));
  pid_text = out_text (s, "pid");
  after_text = out_text (s, "after");
  pid = g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (pid, >, 0);
  /* The shell's $$ is the process's first pid. */
  g_assert_cmpint (g_ascii_strtoll (after_text, NULL, 10), ==, pid);

  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  helper_run = find_exec (execs, helper);
  shell_run = find_exec_argv (execs, "/bin/sh", "-c");
  child_run = find_exec_argv (execs, "/bin/true", "thread-child");
  g_assert_nonnull (helper_run);
  g_assert_nonnull (shell_run);
  g_assert_nonnull (child_run);
  g_assert_cmpint (json_object_get_int_member (helper_run, "pid"), ==, pid);
  g_assert_cmpint (json_object_get_int_member (shell_run, "pid"), ==, pid);
  /* So the shell's child names a parent the timeline knows. */
  g_assert_cmpint (json_object_get_int_member (child_run, "ppid"), ==, pid);

  /* The helper's run ended when the shell replaced it; the shell's when it
   * exited. */
  end = find_exit (exits, json_object_get_int_member (helper_run, "event"));
  g_assert_nonnull (end);
  g_assert_true (json_object_get_boolean_member_with_default (end, "replaced", FALSE));
  end = find_exit (exits, json_object_get_int_member (shell_run, "event"));
  g_assert_nonnull (end);
  g_assert_false (json_object_get_boolean_member_with_default (end, "replaced", FALSE));
  g_assert_cmpint (json_object_get_int_member (end, "pid"), ==, pid);
  assert_chain_holds (s);

  /* Clients are told so: the helper's run was replaced, the rest exited. */
  for (guint i = 0; i < exit_messages->len; i++)
    {
      PaddockMessage *message = g_ptr_array_index (exit_messages, i);

      if (message->type != PADDOCK_MESSAGE_EXIT || message->session_end)
        continue;
      g_assert_cmpint (message->replaced, ==, message->seq == json_object_get_int_member (helper_run, "event"));
      n_replaced += message->replaced;
    }
  g_assert_cmpuint (n_replaced, ==, 1);

  /* And audit show. */
  {
    g_autofree char *out = audit_show (s, "exit");
    g_autofree char *helper_end = g_strdup_printf ("#%" G_GINT64_FORMAT " after ",
                                                   json_object_get_int_member (helper_run, "event"));
    const char *line;

    line = strstr (out, helper_end);
    g_assert_nonnull (line);
    g_assert_true (g_str_has_prefix (strstr (line, "µs"), "µs, replaced by the next program\n"));
    g_assert_nonnull (strstr (line + 1, "µs, status 0\n"));
  }
}

/* A program under the monitor cannot take its execs' notifications for
 * itself (the kernel gives a task one listener in its filter chain, and
 * the newest filter's would come first): the attempt fails, where it
 * succeeds unsupervised, and the program's execs stay the monitor's. */
static void
test_own_listener (void)
{
  g_autofree char *probe = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "tests", "lock-probe", NULL);
  g_autoptr(Session) s = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  int status;

  {
    const char *argv[] = { probe, "listener", NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  }
  s = session_start_command (NULL, (const char *[]) { probe, "listener", NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 1);
  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "lock-probe: a listener of its own: "));
  execs = audit_records (s, "exec");
  g_assert_nonnull (find_exec (execs, probe));
}

/* Programs that end as soon as they start, on a machine kept busy, each
 * recorded with their working directory and their end: what needs the
 * process alive is read before the exec is answered. Read after, some
 * would be gone by then (1 in 75 on an idle machine, 1 in 10 beside two
 * busy loops). */
static void
test_short_runs (void)
{
  const guint n_runs = 300;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GPtrArray) burners = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *loop = g_strdup_printf ("i=0; while [ $i -lt %u ]; do /bin/false; i=$((i+1)); done", n_runs);
  gboolean exit_status = kernel_reports_exit_status ();

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      /* At the lowest priority, so that tests running beside this one
       * feel it least. */
      GSubprocess *burner = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                                              "nice", "-n", "19", "sh", "-c", "while :; do :; done", NULL);

      g_assert_no_error (error);
      g_ptr_array_add (burners, burner);
    }
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", loop, NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  for (guint i = 0; i < burners->len; i++)
    {
      g_subprocess_force_exit (g_ptr_array_index (burners, i));
      g_subprocess_wait (g_ptr_array_index (burners, i), NULL, NULL);
    }

  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  runs = audit_execs_at (execs, "/bin/false");
  g_assert_cmpuint (runs->len, ==, n_runs);
  for (guint i = 0; i < runs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (runs, i);
      JsonObject *exit_record;

      g_assert_cmpstr (json_object_get_string_member_with_default (record, "cwd", NULL), ==, s->out);
      exit_record = find_exit (exits, json_object_get_int_member (record, "event"));
      g_assert_nonnull (exit_record);
      if (exit_status)
        g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 1);
    }
  assert_chain_holds (s);
}

/* Runs @n sleeps at once under paddock-run, started with an open-file
 * limit of @soft (hard limit @hard); returns the session, ended. */
static Session *
run_many_at_once (guint n,
                  rlim_t soft,
                  rlim_t hard)
{
  g_autofree char *script = g_strdup_printf (
    "ulimit -Sn > \"$1/agent-limit\"; i=0; while [ $i -lt %u ]; do /bin/sleep 2 & i=$((i+1)); done; wait", n);
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = soft, .rlim_max = hard } };
  Session *s;

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, FALSE, NULL);
  spawn_limit = NULL;
  g_assert_cmpint (session_wait (s), ==, 0);
  return s;
}

/* Each running program costs the monitor a pidfd: 150 at once under a
 * soft limit of 64 still all have their end recorded, as the supervisor
 * takes its hard limit; the agent keeps the limit it was given. Where
 * the hard limit is as low, the ends that cannot be watched are said to
 * be lost, on the terminal. */
static void
test_many_at_once (void)
{
  const guint n = 150;
  struct rlimit ours;

  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &ours), ==, 0);
  if (ours.rlim_max < 1024)
    {
      g_test_skip ("needs a hard open-file limit of at least 1024");
      return;
    }

  {
    g_autoptr(Session) s = run_many_at_once (n, 64, ours.rlim_max);
    g_autoptr(GPtrArray) execs = audit_records (s, "exec");
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_autoptr(GPtrArray) sleeps = audit_execs_at (execs, "/bin/sleep");
    g_autofree char *limit = out_text (s, "agent-limit");

    g_assert_cmpstr (limit, ==, "64\n");
    g_assert_cmpuint (sleeps->len, ==, n);
    for (guint i = 0; i < sleeps->len; i++)
      g_assert_nonnull (find_exit (exits, json_object_get_int_member (g_ptr_array_index (sleeps, i), "event")));
    assert_chain_holds (s);
  }

  {
    g_autoptr(Session) s = run_many_at_once (n, 64, 64);
    g_autoptr(GPtrArray) execs = audit_records (s, "exec");
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_autoptr(GPtrArray) sleeps = audit_execs_at (execs, "/bin/sleep");
    g_autofree char *err = runner_err_text (s);
    guint ended = 0;

    g_assert_cmpuint (sleeps->len, ==, n);
    for (guint i = 0; i < sleeps->len; i++)
      ended += find_exit (exits, json_object_get_int_member (g_ptr_array_index (sleeps, i), "event")) != NULL;
    g_assert_cmpuint (ended, <, n);
    g_assert_nonnull (strstr (err, "cannot watch for programs' ends: they hold all open files but the 16 paddock-run keeps for itself"));
    assert_chain_holds (s);
  }
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

/* Waits until @s's paddock-run says it is out of descriptors: its
 * programs hold them. Returns what it said. */
static char *
wait_out_of_descriptors (Session *s)
{
  g_autofree char *path = runner_err_file (s);
  char *err = wait_for_lines (path, "cannot watch for programs' ends", 1);

  g_assert_nonnull (strstr (err, "cannot watch for programs' ends"));
  return err;
}

/* Whether a process is in a tree, where that cannot be told, is an
 * error, never a "no": out of descriptors, /proc cannot be opened; a
 * process that is gone cannot be placed. The control socket refuses a
 * peer inside the agent's tree by it: before, out of descriptors, the
 * answer was "no", and such a peer was served. Likewise a tree that
 * cannot be listed is an error, not an empty tree that a kill stops
 * nothing of without a word. */
static void
test_descendant_unknown (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) inside_error = NULL;
  g_autoptr(GError) outside_error = NULL;
  g_autoptr(GError) gone_error = NULL;
  g_autoptr(GError) list_error = NULL;
  g_autoptr(GError) kill_error = NULL;
  g_autoptr(GArray) listed = NULL;
  g_autoptr(GSubprocess) child = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "sleep", "30", NULL);
  pid_t pid;
  struct rlimit saved, tight;
  gboolean inside, outside, killed;
  int lowest;

  g_assert_no_error (error);
  pid = atoi (g_subprocess_get_identifier (child));
  g_assert_true (paddock_process_tree_is_descendant (getpid (), pid, &error));
  g_assert_no_error (error);
  g_assert_false (paddock_process_tree_is_descendant (pid, getpid (), &error));
  g_assert_no_error (error);

  /* No descriptor left: the lowest free one is at the limit. */
  lowest = dup (STDIN_FILENO);
  g_assert_cmpint (lowest, >=, 0);
  close (lowest);
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &saved), ==, 0);
  tight = (struct rlimit) { .rlim_cur = (rlim_t) lowest, .rlim_max = saved.rlim_max };
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &tight), ==, 0);
  inside = paddock_process_tree_is_descendant (getpid (), pid, &inside_error);
  outside = paddock_process_tree_is_descendant (pid, getpid (), &outside_error);
  listed = paddock_process_tree_list (getpid (), &list_error);
  killed = paddock_process_tree_kill (pid, &kill_error);
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &saved), ==, 0);
  g_assert_null (listed);
  g_assert_error (list_error, G_FILE_ERROR, G_FILE_ERROR_MFILE);
  g_assert_false (killed);
  g_assert_error (kill_error, G_FILE_ERROR, G_FILE_ERROR_MFILE);
  g_assert_false (inside);
  g_assert_error (inside_error, G_FILE_ERROR, G_FILE_ERROR_MFILE);
  g_assert_false (outside);
  g_assert_error (outside_error, G_FILE_ERROR, G_FILE_ERROR_MFILE);
  listed = paddock_process_tree_list (getpid (), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, >=, 1);

  g_subprocess_force_exit (child);
  g_assert_true (g_subprocess_wait (child, NULL, NULL));
  g_assert_false (paddock_process_tree_is_descendant (getpid (), pid, &gone_error));
  g_assert_error (gone_error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* However many programs the agent runs at once, paddock-run keeps
 * descriptors of its own: `paddockctl pause`, `resume` and `kill` reach
 * every one of 150 programs when the programs hold all they may of a
 * limit of 64. Before, the programs held them all: the kill's connection
 * waited for one to come free, and even let in, the walk of /proc to find
 * the programs could not open it, and stopped nothing. */
static void
test_kill_many_at_once (void)
{
  const guint n = 150;
  g_autofree char *script = g_strdup_printf (
    "pids=; i=0; while [ $i -lt %u ]; do /bin/sleep 60 & pids=\"$pids $!\"; i=$((i+1)); done; "
    "echo $pids > \"$1/pids\"; wait", n);
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = 64, .rlim_max = 64 } };
  g_autoptr(Session) s = NULL;
  g_autofree char *session = NULL;
  g_autofree char *err = NULL;
  g_autofree char *pids_text = NULL;
  g_auto(GStrv) pids = NULL;
  g_autoptr(GPtrArray) kills = NULL;

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, FALSE, NULL);
  spawn_limit = NULL;
  session = wait_for_socket (s);
  err = wait_out_of_descriptors (s);
  g_assert_true (wait_for_out (s, "pids", 20));
  pids_text = out_text (s, "pids");
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, n);

  assert_ctl_says (s, "pause", session, "paused");
  /* A stop takes effect when its process next runs: on a busy machine,
   * after the pause's own half-second wait for it. */
  for (guint i = 0; pids[i] != NULL; i++)
    {
      for (guint tries = 0; tries < 100 && process_state (atoi (pids[i])) != 'T'; tries++)
        g_usleep (50 * 1000);
      g_assert_cmpint (process_state (atoi (pids[i])), ==, 'T');
    }
  assert_ctl_says (s, "resume", session, "resumed");
  for (guint i = 0; pids[i] != NULL; i++)
    g_assert_cmpint (process_state (atoi (pids[i])), !=, 'T');

  assert_ctl_says (s, "kill", session, "killed");
  g_assert_cmpint (session_wait (s), ==, 128 + SIGKILL);
  for (guint i = 0; pids[i] != NULL; i++)
    g_assert_true (kill (atoi (pids[i]), 0) != 0 && errno == ESRCH);
  kills = audit_records (s, "kill");
  g_assert_cmpuint (kills->len, ==, 1);
  g_free (err);
  err = runner_err_text (s);
  g_assert_null (strstr (err, "every process of the agent"));
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
  g_assert_true (wait_for_out (s, "pids", 20));
  pids_text = out_text (s, "pids");
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, 150);

  session_go (s);
  g_assert_true (wait_for_out (s, "peer.connected", 20));
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
  g_assert_true (wait_for_out (s, "peer", 20));
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
 * the programs holding them end. The agent waits until the client has
 * its hello: a session that ended first would drop it unserved. */
static void
test_connect_without_descriptors (void)
{
  const guint n = 150;
  g_autofree char *script = g_strdup_printf (
    "i=0; while [ $i -lt %u ]; do /bin/sleep 3 & i=$((i+1)); done; wait; "
    WAIT_FOR_GO, n);
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = 64, .rlim_max = 64 } };
  g_autoptr(Session) s = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autofree char *session = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *line = NULL;
  g_autofree char *err = NULL;
  int pid;
  guint64 ticks;
  long hz = sysconf (_SC_CLK_TCK);

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, FALSE, NULL);
  spawn_limit = NULL;
  pid = atoi (g_subprocess_get_identifier (s->run));
  session = wait_for_socket (s);
  lower_descriptor_limit (s, 48);
  /* Out of descriptors once it says so: the sleeps hold them for 3 s. */
  err = wait_out_of_descriptors (s);

  socket_path = g_strdup_printf ("%s/paddock/%s.sock", s->runtime, session);
  address = g_unix_socket_address_new (socket_path);
  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL, &error);
  g_assert_no_error (error);

  /* A second's wait costs it next to nothing: spinning, it would be a second. */
  ticks = process_cpu_ticks (pid);
  g_usleep (G_USEC_PER_SEC);
  g_assert_cmpuint (process_cpu_ticks (pid) - ticks, <, (guint64) hz / 4);

  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "{\"type\":\"hello\""));

  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (err);
  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "cannot take a control connection now: Too many open files"));
}

/* The audit log's disk fills up (here: a file-size limit, which the
 * agent shares, and which would end paddock-run by SIGXFSZ): the failure
 * is said once, and how many records are missing once at the end, not a
 * line per record; the session runs on, the log keeps every record before
 * the failure whole. */
static void
test_audit_write_fails (void)
{
  SpawnLimit given = { RLIMIT_FSIZE, { .rlim_cur = 16 * 1024, .rlim_max = RLIM_INFINITY } };
  g_autoptr(Session) s = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  PaddockAuditVerification result = { 0 };

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &given.limit), ==, 0);
  given.limit.rlim_cur = 16 * 1024;
  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; : > \"$1/finished\"", "sh", "@OUT@", NULL
  }, FALSE, NULL);
  spawn_limit = NULL;
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "finished"));

  err = runner_err_text (s);
  g_test_message ("%s", err);
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], "paddock-run: audit log: cannot append to the audit log "));
  g_assert_nonnull (strstr (lines[0], g_strerror (EFBIG)));
  g_assert_true (g_str_has_prefix (lines[1], "paddock-run: "));
  g_assert_nonnull (strstr (lines[1], " records of this session, its end included, are missing from the audit log"));

  g_assert_true (paddock_audit_verify_file (s->audit, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, >, 10);
  paddock_audit_verification_clear (&result);
}

/* The agent execs a program that ends at once: the exit ends that
 * program's run, and the agent's own run is recorded as replaced by it,
 * however soon the exit follows the exec. */
static void
test_exit_after_exec (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  JsonObject *last;
  gint64 pid;
  guint n_replaced = 0;
  gboolean last_ended = FALSE;

  s = session_start ("exec-last", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 7);
  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  last = audit_exec_with (execs, "last-program");
  g_assert_nonnull (last);
  pid = json_object_get_int_member (last, "pid");

  for (guint i = 0; i < exits->len; i++)
    {
      JsonObject *exit = g_ptr_array_index (exits, i);

      if (json_object_has_member (exit, "session_end") ||
          json_object_get_int_member (exit, "pid") != pid)
        continue;
      if (json_object_get_int_member (exit, "event") == json_object_get_int_member (last, "event"))
        {
          g_assert_false (json_object_has_member (exit, "replaced"));
          last_ended = TRUE;
        }
      else
        {
          g_assert_true (json_object_get_boolean_member_with_default (exit, "replaced", FALSE));
          n_replaced++;
        }
    }
  g_assert_true (last_ended);
  g_assert_cmpuint (n_replaced, ==, 1);
  assert_chain_holds (s);
}

static int
helper_connect (const char *out)
{
  g_autofree char *dir = g_build_filename (g_getenv ("XDG_RUNTIME_DIR"), "paddock", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  char buffer[4096] = "";
  ssize_t n;
  int fd;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".sock"))
      g_snprintf (addr.sun_path, sizeof addr.sun_path, "%s/%s", dir, name);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  if (connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    return 1;
  {
    g_autofree char *connected = g_strconcat (out, ".connected", NULL);

    g_file_set_contents (connected, "", 0, NULL);
  }
  /* Try to approve something, as an agent might. */
  send (fd, "{\"type\":\"decide\",\"id\":1,\"decision\":\"allow\"}\n", 44, MSG_NOSIGNAL);
  n = recv (fd, buffer, sizeof buffer - 1, MSG_WAITALL);
  close (fd);
  return g_file_set_contents (out, buffer, MAX (n, 0), NULL) ? 0 : 1;
}

/* Runs @path (a /bin/true) with @argv; its exit status. */
static int
run_true_at (const char *path,
             char      **argv)
{
  pid_t pid = fork ();
  int status;

  if (pid == 0)
    {
      execv (path, argv);
      _exit (127);
    }
  waitpid (pid, &status, 0);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

static int
run_true (char **argv)
{
  return run_true_at ("/bin/true", argv);
}

/* Runs /bin/true with its path and argv laid out in two pages of our own:
 * @layout 0 puts argv's pointers before the path in one page, 1 the path
 * across the end of the first page. */
static int
run_true_laid_out (int layout)
{
  static const char * const args[] = { "true", "laid-out", "one", "two", "three", NULL };
  long page_size = sysconf (_SC_PAGESIZE);
  char *pages = mmap (NULL, 2 * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char **pointers;
  char *path;
  char *strings;
  int status;

  if (pages == MAP_FAILED)
    return 1;
  pointers = (char **) (pages + 64);
  path = layout == 0 ? pages + page_size - 64 : pages + page_size - 4;
  strings = pages + 512;
  memcpy (path, "/bin/true", sizeof "/bin/true");
  for (guint i = 0; args[i] != NULL; i++)
    {
      pointers[i] = strcpy (strings, args[i]);
      strings += strlen (args[i]) + 1;
    }
  pointers[G_N_ELEMENTS (args) - 1] = NULL;
  status = run_true_at (path, pointers);
  munmap (pages, 2 * page_size);
  return status;
}

static int
helper_junk (void)
{
  char *junk[] = { "true", "\xff\xfe invalid \xc3", "\x01\x02\x1b[31mred\x1b[0m\x7f", "back\\slash", NULL };
  g_autoptr(GPtrArray) many = g_ptr_array_new ();

  if (run_true (junk) != 0 || run_true_laid_out (0) != 0 || run_true_laid_out (1) != 0)
    return 1;
  g_ptr_array_add (many, "true");
  for (int i = 0; i < 100000; i++)
    g_ptr_array_add (many, "x");
  g_ptr_array_add (many, NULL);
  return run_true ((char **) many->pdata);
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 3 && strcmp (argv[1], "--helper") == 0)
    {
      if (strcmp (argv[2], "connect") == 0 && argc == 4)
        return helper_connect (argv[3]);
      if (strcmp (argv[2], "junk") == 0)
        return helper_junk ();
      return 2;
    }

  g_test_init (&argc, &argv, NULL);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL || g_getenv ("PADDOCK_BUILD_DIR") == NULL)
    {
      g_printerr ("PADDOCK_RUN and PADDOCK_BUILD_DIR must name the build under test\n");
      return 1;
    }
  paddockctl = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "app", "paddockctl", "paddockctl", NULL);
  fake_agent = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-agent.sh", NULL);
  self_exe = g_file_read_link ("/proc/self/exe", NULL);

  g_test_add_func ("/paddock/exec/decisions", test_decisions);
  g_test_add_func ("/paddock/exec/without-monitor", test_without_monitor);
  g_test_add_func ("/paddock/exec/on-ask-allow", test_on_ask_allow);
  g_test_add_func ("/paddock/exec/ask-allow", test_ask_allow);
  g_test_add_func ("/paddock/exec/ask-first-exec", test_ask_first_exec);
  g_test_add_func ("/paddock/exec/ask-deny", test_ask_deny);
  g_test_add_func ("/paddock/exec/remember-project", test_remember_project);
  g_test_add_func ("/paddock/exec/remember-project-lock-held", test_remember_project_lock_held);
  g_test_add_func ("/paddock/exec/remember-too-long", test_remember_too_long);
  g_test_add_func ("/paddock/exec/remember-settles-held", test_remember_settles_held);
  g_test_add_func ("/paddock/exec/remember-settles-held-deny", test_remember_settles_held_deny);
  g_test_add_func ("/paddock/exec/project-rules-settle-held", test_project_rules_settle_held);
  g_test_add_func ("/paddock/exec/remember-settles-in-flight", test_remember_settles_in_flight);
  g_test_add_func ("/paddock/exec/attach-remember-settles", test_attach_remember_settles);
  g_test_add_func ("/paddock/exec/attach-after-long-lines", test_attach_after_long_lines);
  g_test_add_func ("/paddock/exec/attach-cuts-long-lines", test_attach_cuts_long_lines);
  g_test_add_func ("/paddock/exec/attach-answer-for-gone-question", test_attach_answer_for_gone_question);
  g_test_add_func ("/paddock/exec/deadline", test_deadline);
  g_test_add_func ("/paddock/exec/kill-while-held", test_kill_while_held);
  g_test_add_func ("/paddock/exec/supervisor-dies", test_supervisor_dies);
  g_test_add_func ("/paddock/exec/peer-in-tree-refused", test_peer_in_tree);
  g_test_add_func ("/paddock/exec/attach-answer", test_attach_answer);
  g_test_add_func ("/paddock/exec/attach-stdin", test_attach_stdin);
  g_test_add_func ("/paddock/exec/hint-without-socket", test_hint_without_socket);
  g_test_add_func ("/paddock/exec/attach-watch", test_attach_watch);
  g_test_add_func ("/paddock/exec/attach-closed-stdin", test_attach_closed_stdin);
  g_test_add_func ("/paddock/exec/attach-input-ends", test_attach_input_ends);
  g_test_add_func ("/paddock/exec/attach-deadline", test_attach_deadline);
  g_test_add_func ("/paddock/exec/list-not-answering", test_list_not_answering);
  g_test_add_func ("/paddock/exec/pause-resume", test_pause_resume);
  g_test_add_func ("/paddock/exec/pause-busy", test_pause_busy);
  g_test_add_func ("/paddock/exec/download-then-run", test_download_then_run);
  g_test_add_func ("/paddock/exec/clone-then-run", test_clone_then_run);
  g_test_add_func ("/paddock/exec/unpack-then-run", test_unpack_then_run);
  g_test_add_func ("/paddock/exec/pipe-unpack-then-run", test_pipe_unpack_then_run);
  g_test_add_func ("/paddock/exec/filter-unpack-then-run", test_filter_unpack_then_run);
  g_test_add_func ("/paddock/exec/pause-then-terminate", test_pause_then_terminate);
  g_test_add_func ("/paddock/exec/pause-then-terminate-ignored", test_pause_then_terminate_ignored);
  g_test_add_func ("/paddock/exec/pause-with-ask-held", test_pause_with_ask_held);
  g_test_add_func ("/paddock/exec/junk-argv", test_junk_argv);
  g_test_add_func ("/paddock/exec/not-utf8-command", test_not_utf8_command);
  g_test_add_func ("/paddock/exec/chroot", test_chroot);
  g_test_add_func ("/paddock/exec/exit-after-exec", test_exit_after_exec);
  g_test_add_func ("/paddock/exec/private-tmp", test_private_tmp);
  g_test_add_func ("/paddock/exec/replaced", test_replaced);
  g_test_add_func ("/paddock/exec/own-mounts", test_own_mounts);
  g_test_add_func ("/paddock/exec/exit-codes", test_exit_codes);
  g_test_add_func ("/paddock/exec/thread-exec", test_thread_exec);
  g_test_add_func ("/paddock/exec/proc-self", test_proc_self);
  g_test_add_func ("/paddock/exec/proc-self-locked", test_proc_self_locked);
  g_test_add_func ("/paddock/exec/proc-self-namespaces", test_proc_self_namespaces);
  g_test_add_func ("/paddock/exec/own-listener", test_own_listener);
  g_test_add_func ("/paddock/exec/short-runs", test_short_runs);
  g_test_add_func ("/paddock/exec/many-at-once", test_many_at_once);
  g_test_add_func ("/paddock/exec/attach-path-repeat", test_attach_path_repeat);
  g_test_add_func ("/paddock/exec/exec-alias", test_exec_alias);
  g_test_add_func ("/paddock/exec/not-executable", test_not_executable);
  g_test_add_func ("/paddock/exec/noexec-mount", test_noexec_mount);
  g_test_add_func ("/paddock/exec/link-of-another-name", test_link_of_another_name);
  g_test_add_func ("/paddock/exec/huge-command", test_huge_command);
  g_test_add_func ("/paddock/exec/script-interpreter", test_script_interpreter);
  g_test_add_func ("/paddock/exec/piped-script", test_piped_script);
  g_test_add_func ("/paddock/exec/remember-pipeline", test_remember_pipeline);
  g_test_add_func ("/paddock/exec/pipeline-bounds", test_pipeline_bounds);
  g_test_add_func ("/paddock/exec/script-interpreter-nested", test_script_interpreter_nested);
  g_test_add_func ("/paddock/exec/remember-script-line", test_remember_script_line);
  g_test_add_func ("/paddock/exec/project-rules-live", test_project_rules_live);
  g_test_add_func ("/paddock/exec/forget-project-answer", test_forget_project_answer);
  g_test_add_func ("/paddock/exec/project-rules-folder-removed", test_project_rules_folder_removed);
  g_test_add_func ("/paddock/exec/stray-sigio", test_stray_sigio);
  g_test_add_func ("/paddock/exec/remember-project-then-file-changes", test_remember_project_then_file_changes);
  g_test_add_func ("/paddock/exec/attach-other-client", test_attach_other_client);
  g_test_add_func ("/paddock/exec/project-rules-not-a-file", test_project_rules_not_a_file);
  g_test_add_func ("/paddock/exec/loader-runs", test_loader_runs);
  g_test_add_func ("/paddock/exec/launched-query", test_launched_query);
  g_test_add_func ("/paddock/exec/attach-link", test_attach_link);
  g_test_add_func ("/paddock/exec/attach-falls-behind", test_attach_falls_behind);
  g_test_add_func ("/paddock/exec/connect-without-descriptors", test_connect_without_descriptors);
  g_test_add_func ("/paddock/exec/descendant-unknown", test_descendant_unknown);
  g_test_add_func ("/paddock/exec/kill-many-at-once", test_kill_many_at_once);
  g_test_add_func ("/paddock/exec/kill-comes-last", test_kill_comes_last);
  g_test_add_func ("/paddock/exec/ask-process-killed", test_ask_process_killed);
  g_test_add_func ("/paddock/exec/ask-process-killed-without-pidfd", test_ask_process_killed_without_pidfd);
  g_test_add_func ("/paddock/exec/peer-in-tree-out-of-descriptors", test_peer_in_tree_out_of_descriptors);
  g_test_add_func ("/paddock/exec/audit-write-fails", test_audit_write_fails);

  return g_test_run ();
}
