/* test-pause-kill.c: pause, resume and kill of a session, signals to paddock-run, and its end
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddockctl pause, resume and kill, and a client's kill, reach every
 * program of the agent; signals to paddock-run end the session even
 * when paused; with paddock-run gone, nothing runs unsupervised.
 * See test-session.h for the sessions they run.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-process-tree.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void
test_kill_while_held (void)
{
  g_autoptr(Session) s = session_start ("ask", TRUE, NULL);
  g_autoptr(PaddockMessage) hello = session_expect (s, PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_autoptr(PaddockMessage) killed = NULL;
  g_autoptr(GPtrArray) kills = NULL;
  g_autofree char *log = NULL;

  session_request (s, PADDOCK_MESSAGE_KILL);
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
  session_request (s, PADDOCK_MESSAGE_KILL);
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
  gint64 deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;

  assert_ctl_says (s, "pause", session, "paused");
  while (!process_is_held (agent) && g_get_monotonic_time () < deadline)
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
   * under ASan on a busy machine that outlasted the pause's wait. Its
   * first line, whole, not the log's mere existence. */
  g_free (wait_for_out_lines (s, "log", "start", 1));

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
      {
        gint64 deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;

        while (file_size (ticks) == after && g_get_monotonic_time () < deadline)
          g_usleep (5 * 1000);
      }
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
  /* The whole line: the file is there before the shell writes to it (a
   * busy machine once showed it empty). */
  pids_text = wait_for_out_lines (s, "pids", NULL, 1);
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, n);

  assert_ctl_says (s, "pause", session, "paused");
  /* A stop takes effect when its process next runs: on a busy machine,
   * after the pause's own half-second wait for it. */
  {
    gint64 deadline = g_get_monotonic_time () + TEST_SESSION_WAIT_SECONDS * G_USEC_PER_SEC;

    for (guint i = 0; pids[i] != NULL; i++)
      {
        while (process_state (atoi (pids[i])) != 'T' && g_get_monotonic_time () < deadline)
          g_usleep (50 * 1000);
        g_assert_cmpint (process_state (atoi (pids[i])), ==, 'T');
      }
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

int
main (int   argc,
      char *argv[])
{
  test_session_init (&argc, &argv);

  g_test_add_func ("/paddock/pause-kill/kill-while-held", test_kill_while_held);
  g_test_add_func ("/paddock/pause-kill/supervisor-dies", test_supervisor_dies);
  g_test_add_func ("/paddock/pause-kill/pause-resume", test_pause_resume);
  g_test_add_func ("/paddock/pause-kill/pause-busy", test_pause_busy);
  g_test_add_func ("/paddock/pause-kill/pause-then-terminate", test_pause_then_terminate);
  g_test_add_func ("/paddock/pause-kill/pause-then-terminate-ignored", test_pause_then_terminate_ignored);
  g_test_add_func ("/paddock/pause-kill/pause-with-ask-held", test_pause_with_ask_held);
  g_test_add_func ("/paddock/pause-kill/descendant-unknown", test_descendant_unknown);
  g_test_add_func ("/paddock/pause-kill/kill-many-at-once", test_kill_many_at_once);
  g_test_add_func ("/paddock/pause-kill/kill-comes-last", test_kill_comes_last);

  return g_test_run ();
}
