/* test-session.c: the harness of the tests that run paddock-run on a fake agent
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session runs paddock-run on tests/fake-agent.sh (or a command of the
 * test's own) under a small test policy: touch of a "denied" file is
 * denied, of an "asked" file asked. A test looks at what the agent left
 * behind in its folder, what the protocol said and what the audit log
 * holds, and talks to the session as a client does: with PaddockClient
 * on --control-fd or on its control socket, or through paddockctl.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-audit.h"
#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

const char *paddock_run;
char *paddockctl;
char *fake_agent;
char *self_exe;

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

static gboolean
set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
client_message_cb (PaddockClient        *client,
                   const PaddockMessage *message,
                   Session              *s)
{
  g_queue_push_tail (&s->messages, paddock_message_copy (message));
}

/* As the hand-written reader did, a line that is no message, or one over
 * the cap, fails the test: paddock-run must never send one. */
static void
client_bad_message_cb (PaddockClient *client,
                       const GError  *error,
                       Session       *s)
{
  g_error ("%s", error->message);
}

static void
client_closed_cb (PaddockClient *client,
                  const GError  *error,
                  Session       *s)
{
  if (error != NULL && s->closed_error == NULL)
    s->closed_error = g_error_copy (error);
}

/* @s reads what @client (taken) tells from now on. */
static void
session_take_client (Session       *s,
                     PaddockClient *client)
{
  g_assert_null (s->client);
  s->client = client;
  g_signal_connect (client, "message", G_CALLBACK (client_message_cb), s);
  g_signal_connect (client, "bad-message", G_CALLBACK (client_bad_message_cb), s);
  g_signal_connect (client, "closed", G_CALLBACK (client_closed_cb), s);
}

void
session_free (Session *s)
{
  if (s->run != NULL)
    {
      g_subprocess_force_exit (s->run);
      g_subprocess_wait (s->run, NULL, NULL);
    }
  g_clear_object (&s->run);
  session_disconnect (s);
  g_ptr_array_unref (s->seen);
  test_remove_tree (s->dir);
  g_free (s->dir);
  g_free (s->out);
  g_free (s->audit);
  g_free (s->runtime);
  g_free (s);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

char *
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

gboolean
out_exists (Session    *s,
            const char *name)
{
  g_autofree char *path = out_file (s, name);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

gboolean
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

char *
wait_for_out_lines (Session    *s,
                    const char *name,
                    const char *needle,
                    guint       n)
{
  g_autofree char *path = out_file (s, name);
  char *text = wait_for_lines (path, needle != NULL ? needle : "\n", n);

  if (count_lines (text, needle != NULL ? needle : "\n") < n)
    g_error ("%s never held %u whole lines%s%s; it holds: %s", name, n, needle != NULL ? " with " : "",
             needle != NULL ? needle : "", text);
  return text;
}

char *
out_text (Session    *s,
          const char *name)
{
  g_autofree char *path = out_file (s, name);

  return read_text (path);
}

SpawnLimit *spawn_limit;

static void
set_spawn_limit (gpointer data)
{
  SpawnLimit *limit = data;

  setrlimit (limit->resource, &limit->limit);
}

GSubprocessLauncher *
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

Session *
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
  PaddockClient *client;
  int pair[2];

  s->raw_fd = -1;
  s->seen = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
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
      s->raw_fd = fcntl (pair[0], F_DUPFD_CLOEXEC, 3);
      g_assert_cmpint (s->raw_fd, >=, 0);
      client = paddock_client_new_for_fd (pair[0], &error);
      g_assert_no_error (error);
      session_take_client (s, client);
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

Session *
session_start (const char          *scenario,
               gboolean             with_client,
               const char * const  *extra)
{
  return session_start_command (scenario, NULL, with_client, extra);
}

Session *
session_start_shipped (const char *scenario,
                       gboolean    with_client,
                       const char *on_ask)
{
  g_autofree char *policy = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "data", "default-policy.json", NULL);

  return session_start (scenario, with_client,
                        (const char *[]) { "--policy", policy, on_ask != NULL ? "--on-ask" : NULL, on_ask, NULL });
}

int
session_wait (Session *s)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_wait (s->run, NULL, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_if_signaled (s->run))
    return 128 + g_subprocess_get_term_sig (s->run);
  return g_subprocess_get_exit_status (s->run);
}

PaddockMessage *
session_read (Session *s,
              int      timeout_ms)
{
  PaddockMessage *message;

  if (g_queue_is_empty (&s->messages) && s->client != NULL && !paddock_client_get_closed (s->client))
    {
      gboolean timed_out = FALSE;
      guint timeout = g_timeout_add (MAX (timeout_ms, 0), set_flag, &timed_out);

      while (g_queue_is_empty (&s->messages) && !paddock_client_get_closed (s->client) && !timed_out)
        g_main_context_iteration (NULL, TRUE);
      if (!timed_out)
        g_source_remove (timeout);
    }
  message = g_queue_pop_head (&s->messages);
  if (message != NULL)
    g_ptr_array_add (s->seen, paddock_message_copy (message));
  return message;
}

PaddockMessage *
session_expect (Session           *s,
                PaddockMessageType type)
{
  for (;;)
    {
      PaddockMessage *message = session_read (s, TEST_SESSION_WAIT_SECONDS * 1000);

      if (message == NULL)
        g_error ("expected a %s message, the session said nothing more%s%s",
                 paddock_message_type_to_string (type), s->closed_error != NULL ? ": " : "",
                 s->closed_error != NULL ? s->closed_error->message : "");
      if (message->type == type)
        return message;
      paddock_message_free (message);
    }
}

/* Waits until every request queued on @s's client is in the socket, so a
 * test may then wait on the session without running the context (in
 * g_subprocess_wait(), on paddockctl's output). */
static void
session_flush (Session *s)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  paddock_client_flush_async (s->client, NULL, store_result, &result);
  paddock_client_flush_finish (s->client, wait_for_result (&result), &error);
  g_assert_no_error (error);
}

void
session_request (Session           *s,
                 PaddockMessageType type)
{
  g_autoptr(PaddockMessage) request = paddock_message_new (type);
  g_autoptr(GError) error = NULL;
  gboolean sent;

  g_assert_nonnull (s->client);
  sent = paddock_client_send (s->client, request, &error);
  g_assert_no_error (error);
  g_assert_true (sent);
  session_flush (s);
}

void
session_decide_remember (Session    *s,
                         gint64      id,
                         const char *decision,
                         const char *remember)
{
  g_autoptr(GError) error = NULL;
  PaddockDecision value;
  PaddockRemember kept;
  gboolean sent;

  g_assert_true (paddock_decision_from_string (decision, &value));
  if (remember == NULL || strcmp (remember, "once") == 0)
    kept = PADDOCK_REMEMBER_ONCE;
  else if (strcmp (remember, "session") == 0)
    kept = PADDOCK_REMEMBER_SESSION;
  else if (strcmp (remember, "project") == 0)
    kept = PADDOCK_REMEMBER_PROJECT;
  else
    g_error ("no way to remember an answer is called %s", remember);
  g_assert_nonnull (s->client);
  sent = paddock_client_decide (s->client, id, value, kept, &error);
  g_assert_no_error (error);
  g_assert_true (sent);
  session_flush (s);
}

void
session_decide (Session    *s,
                gint64      id,
                const char *decision)
{
  session_decide_remember (s, id, decision, NULL);
}

void
session_send_raw (Session    *s,
                  const char *bytes)
{
  gsize length = strlen (bytes);

  g_assert_cmpint (s->raw_fd, >=, 0);
  for (gsize done = 0; done < length;)
    {
      ssize_t n = send (s->raw_fd, bytes + done, length - done, MSG_NOSIGNAL);

      /* The client's GSocket made the socket, which both descriptors
       * share, non-blocking: wait for room as send() would have. */
      if (n < 0 && (errno == EAGAIN || errno == EINTR))
        {
          struct pollfd fds = { .fd = s->raw_fd, .events = POLLOUT };

          g_assert_cmpint (poll (&fds, 1, TEST_SESSION_WAIT_SECONDS * 1000), ==, 1);
          continue;
        }
      g_assert_cmpint (n, >, 0);
      done += n;
    }
}

void
session_disconnect (Session *s)
{
  if (s->client != NULL)
    g_signal_handlers_disconnect_by_data (s->client, s);
  client_close_and_free (&s->client);
  if (s->raw_fd >= 0)
    close (s->raw_fd);
  s->raw_fd = -1;
  g_queue_clear_full (&s->messages, (GDestroyNotify) paddock_message_free);
  g_clear_error (&s->closed_error);
}

void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

GAsyncResult *
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

void
run_main_context (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
client_close_and_free (PaddockClient **client)
{
  PaddockClient *gone = g_steal_pointer (client);
  gboolean timed_out = FALSE;
  guint timeout;

  if (gone == NULL)
    return;
  /* Its pending read and write hold it until the context runs their
   * callbacks, cancelled by the close. */
  g_object_add_weak_pointer (G_OBJECT (gone), (gpointer *) &gone);
  paddock_client_close (gone);
  g_object_unref (gone);
  timeout = g_timeout_add_seconds (TEST_SESSION_WAIT_SECONDS, set_flag, &timed_out);
  while (gone != NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (gone != NULL)
    g_error ("a client was still held %d s after it was closed (by a request's GAsyncResult?)",
             TEST_SESSION_WAIT_SECONDS);
  g_source_remove (timeout);
}

char *
runner_err_text (Session *s)
{
  g_autofree char *path = runner_err_file (s);

  return read_text (path);
}

guint
count_lines (const char *text,
             const char *needle)
{
  guint found = 0;

  for (const char *p = text; p != NULL && (p = strstr (p, needle)) != NULL; p++)
    if (strchr (p, '\n') != NULL)
      found++;
  return found;
}

char *
wait_for_lines (const char *path,
                const char *needle,
                guint       n)
{
  gint64 deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;
  char *text = NULL;

  for (;;)
    {
      g_free (text);
      if (!g_file_get_contents (path, &text, NULL, NULL))
        text = g_strdup ("");
      if (count_lines (text, needle) >= n || g_get_monotonic_time () > deadline)
        break;
      g_usleep (10 * 1000);
    }
  return text;
}

GPtrArray *
audit_records (Session    *s,
               const char *type)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autofree char *text = read_text (s->audit);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  /* Whole lines only: paddock-run may be writing the last one. */
  for (guint i = 0; lines[i] != NULL && lines[i + 1] != NULL; i++)
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

JsonObject *
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

JsonObject *
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

JsonObject *
audit_exec_at (GPtrArray  *execs,
               const char *path)
{
  for (guint i = 0; i < execs->len; i++)
    if (g_strcmp0 (json_object_get_string_member (g_ptr_array_index (execs, i), "path"), path) == 0)
      return g_ptr_array_index (execs, i);
  return NULL;
}

void
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

/* The id of the session whose control socket listens in @dir, or NULL:
 * its file is there from bind() on, but a connection is refused until
 * listen(), so /proc/net/unix says when it listens (__SO_ACCEPTCON). */
static char *
listening_session (const char *dir)
{
  g_autofree char *table = read_text ("/proc/net/unix");
  g_auto(GStrv) lines = g_strsplit (table, "\n", -1);
  g_autofree char *prefix = g_strconcat (dir, "/", NULL);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit_set (lines[i], " ", -1);
      g_autoptr(GPtrArray) words = g_ptr_array_new ();

      for (guint j = 0; fields[j] != NULL; j++)
        if (*fields[j] != '\0')
          g_ptr_array_add (words, fields[j]);
      /* Num RefCount Protocol Flags Type St Inode Path */
      if (words->len == 8 && strcmp (g_ptr_array_index (words, 3), "00010000") == 0)
        {
          const char *path = g_ptr_array_index (words, 7);

          if (g_str_has_prefix (path, prefix) && g_str_has_suffix (path, ".sock") && strchr (path + strlen (prefix), '/') == NULL)
            return g_strndup (path + strlen (prefix), strlen (path) - strlen (prefix) - strlen (".sock"));
        }
    }
  return NULL;
}

char *
wait_for_socket (Session *s)
{
  g_autofree char *dir = g_build_filename (s->runtime, "paddock", NULL);
  gint64 deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;

  for (;;)
    {
      char *session = listening_session (dir);

      if (session != NULL)
        return session;
      if (g_get_monotonic_time () > deadline)
        g_error ("no control socket listened in %s", dir);
      g_usleep (25 * 1000);
    }
}

TestResult *
session_run (Session            *s,
             const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = launcher_new (s);

  return test_run_full (argv, &(TestRunOptions) { .launcher = launcher });
}

TestResult *
ctl_run (Session            *s,
         const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) paddockctl);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  return session_run (s, (const char * const *) argv->pdata);
}

void
session_connect (Session *s)
{
  g_autofree char *session = wait_for_socket (s);
  g_autofree char *path = g_strdup_printf ("%s/paddock/%s.sock", s->runtime, session);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  PaddockClient *client;

  session_disconnect (s);
  /* The wait for the greeting has its own end: this loop does too. */
  paddock_client_connect_async (path, TEST_SESSION_WAIT_SECONDS * 1000, NULL, store_result, &result);
  client = paddock_client_connect_finish (wait_for_result (&result), &error);
  g_assert_no_error (error);
  /* Nothing after the greeting is read before the context runs again:
   * the stream reads from its start, as on --control-fd. */
  g_queue_push_tail (&s->messages, paddock_message_copy (paddock_client_get_hello (client)));
  session_take_client (s, client);
}

char *
audit_show (Session    *s,
            const char *type)
{
  g_autoptr(TestResult) show = ctl_run (s, type != NULL ? (const char *[]) { "audit", "show", s->audit, "--type", type, NULL }
                                                        : (const char *[]) { "audit", "show", s->audit, NULL });

  g_assert_cmpint (show->status, ==, 0);
  return g_steal_pointer (&show->out);
}

char *
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

GSubprocess *
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

void
session_go (Session *s)
{
  session_go_on (s, "go");
}

void
session_go_on (Session    *s,
               const char *name)
{
  g_autofree char *go = out_file (s, name);
  g_autoptr(GError) error = NULL;

  /* Whole at once: g_file_set_contents() renames it into place. */
  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
}

char *
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

char *
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

char *
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

char *
list_and_watch (Session    *s,
                const char *session,
                char      **listed,
                const char *greeted)
{
  g_autoptr(TestResult) list = ctl_run (s, (const char *[]) { "list", NULL });
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *attach_err = NULL;
  char *rest;

  g_assert_cmpint (list->status, ==, 0);
  g_assert_cmpstr (list->err, ==, "");
  g_assert_nonnull (strstr (list->out, session));
  *listed = g_steal_pointer (&list->out);

  attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);
  g_assert_nonnull (strstr (seen, greeted));
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  attach_err = attach_finish (attach);
  g_assert_cmpstr (attach_err, ==, "");
  return rest;
}

void
wait_for_records (Session    *s,
                  const char *type,
                  guint       n)
{
  g_autofree char *needle = g_strdup_printf ("\"type\":\"%s\"", type);
  g_autofree char *text = wait_for_lines (s->audit, needle, n);

  if (count_lines (text, needle) < n)
    g_error ("the audit log never held %u %s records", n, type);
}

GStrv
process_stat_fields (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = read_text (path);
  const char *paren = strrchr (stat, ')');

  if (paren == NULL || paren[1] == '\0')
    return g_new0 (char *, 1);
  return g_strsplit (paren + 2, " ", -1);
}

void
assert_ctl_says (Session    *s,
                 const char *command,
                 const char *session,
                 const char *says)
{
  g_autoptr(TestResult) ctl = ctl_run (s, (const char *[]) { command, session, NULL });
  g_autofree char *expected = g_strdup_printf ("%s %s\n", session, says);

  g_assert_cmpint (ctl->status, ==, 0);
  g_assert_cmpstr (ctl->out, ==, expected);
}

GPtrArray *
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

JsonObject *
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

JsonObject *
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

char *
wait_out_of_descriptors (Session *s)
{
  g_autofree char *path = runner_err_file (s);
  char *err = wait_for_lines (path, "cannot watch for programs' ends", 1);

  g_assert_nonnull (strstr (err, "cannot watch for programs' ends"));
  return err;
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


void
test_session_init (int    *argc,
                   char ***argv)
{
  if (*argc >= 3 && strcmp ((*argv)[1], "--helper") == 0)
    {
      if (strcmp ((*argv)[2], "connect") == 0 && *argc == 4)
        exit (helper_connect ((*argv)[3]));
      if (strcmp ((*argv)[2], "junk") == 0)
        exit (helper_junk ());
      exit (2);
    }

  g_test_init (argc, argv, NULL);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL || g_getenv ("PADDOCK_BUILD_DIR") == NULL)
    {
      g_printerr ("PADDOCK_RUN and PADDOCK_BUILD_DIR must name the build under test\n");
      exit (1);
    }
  paddockctl = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "app", "paddockctl", "paddockctl", NULL);
  fake_agent = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-agent.sh", NULL);
  self_exe = g_file_read_link ("/proc/self/exe", NULL);
}
