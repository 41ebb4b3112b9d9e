/* test-asks.c: asks: held execs, answers, remembered answers and deadlines
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An exec the policy asks about is held until a client answers, its
 * deadline passes or its process goes; an answer may be remembered for
 * the session or the project, whose file of rules a session follows.
 * See test-session.h for the sessions they run.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-autofd.h"
#include "test-util.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

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
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(TestResult) run = NULL;
  g_autoptr(GError) error = NULL;
  const char *err;

  g_assert_nonnull (dir);
  g_file_set_contents (policy, "{ \"version\": 1, \"default\": \"ask\", \"rules\": [] }", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (runtime, "", -1, &error);
  g_assert_no_error (error);
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  run = test_run_full ((const char *[]) { paddock_run, "--project", dir, "--policy", policy, "--", "/bin/true", NULL },
                       &(TestRunOptions) { .env = (const char * const *) env });
  err = run->err;
  g_assert_cmpint (run->status, ==, 126);
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

/* --on-ask=wait: with nobody attached, the ask is held as with a client;
 * the terminal says how to answer it, and one who attaches later sees it
 * and answers. */
static void
test_on_ask_wait (void)
{
  g_autoptr(Session) s = session_start ("basic", FALSE, (const char *[]) { "--on-ask=wait", NULL });
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(GPtrArray) starts = NULL;
  g_autoptr(GPtrArray) decisions = NULL;
  g_autofree char *runner_err = NULL;
  g_autofree char *attach = NULL;

  session_connect (s);
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->argv[0], ==, "touch");
  g_assert_nonnull (strstr (ask->argv[1], "asked-marker"));
  g_assert_false (out_exists (s, "asked-marker"));
  session_decide (s, ask->id, "allow");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "asked-marker"));
  g_assert_false (out_exists (s, "denied-marker"));

  starts = audit_records (s, "session-start");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (starts, 0), "on_ask"), ==, "wait");
  runner_err = runner_err_text (s);
  attach = g_strdup_printf ("touch needs an answer (rule test-ask) and nobody is attached to give one, "
                            "so it waits until its deadline; answer it with: paddockctl attach %s",
                            json_object_get_string_member (g_ptr_array_index (starts, 0), "session"));
  g_assert_nonnull (strstr (runner_err, attach));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "by"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "decision"), ==, "allow");
  assert_chain_holds (s);
}

/* --on-ask=wait with nobody ever attached: refused at its deadline. */
static void
test_on_ask_wait_deadline (void)
{
  g_autoptr(Session) s = session_start ("basic", FALSE, (const char *[]) { "--on-ask=wait", "--ask-timeout=1", NULL });
  g_autoptr(GPtrArray) decisions = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_false (out_exists (s, "asked-marker"));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "by"), ==, "timeout");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "decision"), ==, "deny");
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

      gboolean noticed = FALSE;

      /* Told to the client on --control-fd, which shows the terminal,
       * and not on the terminal, among the agent's output. */
      for (guint i = 0; i < s->seen->len; i++)
        {
          const PaddockMessage *message = g_ptr_array_index (s->seen, i);

          noticed |= message->type == PADDOCK_MESSAGE_NOTICE && strstr (message->message, says) != NULL;
        }
      g_assert_true (noticed);
      g_assert_null (strstr (err, "cannot remember"));
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
  g_free (wait_for_out_lines (s, "log", "one=", 1));

  g_file_set_contents (file, "{\"rules\": [", -1, &error);
  g_assert_no_error (error);
  wait_for_records (s, "policy", 2);
  g_file_set_contents (go2, "", 0, &error);
  g_assert_no_error (error);
  g_free (wait_for_out_lines (s, "log", "two=", 1));

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
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(PaddockMessage) again = NULL;
  g_autoptr(TestResult) forget = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (go1, "", 0, &error);
  g_assert_no_error (error);
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  session_decide_remember (s, ask->id, "allow", "project");
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_PROJECT);
  g_free (wait_for_out_lines (s, "log", "one=0", 1));
  wait_for_records (s, "policy", 1);

  forget = ctl_run (s, (const char *[]) { "policy", "forget", "--project", s->out, decided->rule, NULL });
  g_assert_cmpint (forget->status, ==, 0);
  g_assert_nonnull (strstr (forget->out, decided->rule));
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

/* Whether signal @signo waits, sent but not yet taken, for process @pid. */
static gboolean
signal_pending (pid_t pid,
                int   signo)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *status = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 pending = 0;

  if (!g_file_get_contents (path, &status, NULL, NULL))
    return FALSE;
  lines = g_strsplit (status, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "SigPnd:") || g_str_has_prefix (lines[i], "ShdPnd:"))
      pending |= g_ascii_strtoull (lines[i] + strlen ("SigPnd:"), NULL, 16);
  return (pending & (G_GUINT64_CONSTANT (1) << (signo - 1))) != 0;
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
  gint64 deadline;

  g_free (wait_for_socket (s));
  g_assert_cmpint (kill (run, SIGIO), ==, 0);
  /* Taken (read from paddock-run's signal fd) before the agent goes on. */
  deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;
  while (signal_pending (run, SIGIO) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_false (signal_pending (run, SIGIO));
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
  g_autoptr(TestResult) second = NULL;
  g_autoptr(GPtrArray) changes = NULL;

  g_free (wait_for_socket (s));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_cmpint (mkfifo (file, 0600), ==, 0);
  wait_for_records (s, "policy", 1);

  /* Within 20 s, or it waits on the pipe. */
  second = test_run_full ((const char *[]) { paddock_run, "--project", s->out, "--", "touch", ran_too, NULL },
                          &(TestRunOptions) { .launcher = launcher, .timeout = 20 });
  g_assert_cmpint (second->status, ==, 2);
  g_assert_nonnull (strstr (second->err, says));
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

int
main (int   argc,
      char *argv[])
{
  test_session_init (&argc, &argv);

  g_test_add_func ("/paddock/asks/on-ask-allow", test_on_ask_allow);
  g_test_add_func ("/paddock/asks/on-ask-wait", test_on_ask_wait);
  g_test_add_func ("/paddock/asks/on-ask-wait-deadline", test_on_ask_wait_deadline);
  g_test_add_func ("/paddock/asks/ask-allow", test_ask_allow);
  g_test_add_func ("/paddock/asks/ask-first-exec", test_ask_first_exec);
  g_test_add_func ("/paddock/asks/ask-deny", test_ask_deny);
  g_test_add_func ("/paddock/asks/remember-project", test_remember_project);
  g_test_add_func ("/paddock/asks/remember-project-lock-held", test_remember_project_lock_held);
  g_test_add_func ("/paddock/asks/remember-too-long", test_remember_too_long);
  g_test_add_func ("/paddock/asks/remember-settles-held", test_remember_settles_held);
  g_test_add_func ("/paddock/asks/remember-settles-held-deny", test_remember_settles_held_deny);
  g_test_add_func ("/paddock/asks/project-rules-settle-held", test_project_rules_settle_held);
  g_test_add_func ("/paddock/asks/remember-settles-in-flight", test_remember_settles_in_flight);
  g_test_add_func ("/paddock/asks/deadline", test_deadline);
  g_test_add_func ("/paddock/asks/hint-without-socket", test_hint_without_socket);
  g_test_add_func ("/paddock/asks/remember-script-line", test_remember_script_line);
  g_test_add_func ("/paddock/asks/project-rules-live", test_project_rules_live);
  g_test_add_func ("/paddock/asks/forget-project-answer", test_forget_project_answer);
  g_test_add_func ("/paddock/asks/project-rules-folder-removed", test_project_rules_folder_removed);
  g_test_add_func ("/paddock/asks/stray-sigio", test_stray_sigio);
  g_test_add_func ("/paddock/asks/remember-project-then-file-changes", test_remember_project_then_file_changes);
  g_test_add_func ("/paddock/asks/project-rules-not-a-file", test_project_rules_not_a_file);
  g_test_add_func ("/paddock/asks/ask-process-killed", test_ask_process_killed);
  g_test_add_func ("/paddock/asks/ask-process-killed-without-pidfd", test_ask_process_killed_without_pidfd);

  return g_test_run ();
}
