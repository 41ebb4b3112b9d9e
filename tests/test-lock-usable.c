/* test-lock-usable.c: the lock without its private places, what keeps working, bad input, status
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-lock-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <grp.h>
#include <stdlib.h>
#include <sched.h>
#include <stddef.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <sys/shm.h>
#include <mqueue.h>
#include <unistd.h>


/* Where no mount namespace can be made, the lock still runs, and says, at
 * start and in --lock-status, that named sockets stay reachable. */
void
test_socket_warning (void)
{
  g_autoptr(GPtrArray) locked_args = command_line (TRUE, NULL, "echo ran");
  g_autoptr(GPtrArray) status_args = g_ptr_array_new ();
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) status_run = NULL;
  const char *second;

  /* command_line() gives argv: paddock-run is added again below. */
  g_ptr_array_remove_index (locked_args, 0);
  g_ptr_array_remove_index (locked_args, locked_args->len - 1);
  g_ptr_array_add (status_args, "--lock-status");
  if (geteuid () != 0)
    {
      g_test_skip ("mapping a range of users into a user namespace needs root");
      return;
    }
  if (strcmp (backend, "landlock") != 0)
    {
      /* The namespaces backend refuses to start instead. */
      locked_run = run_without_user_namespaces (locked_args);
      g_assert_cmpint (locked_run->status, !=, 0);
      g_assert_cmpstr (locked_run->out, ==, "");
      g_assert_nonnull (strstr (locked_run->err, "user namespaces are unavailable"));
      return;
    }

  locked_run = run_without_user_namespaces (locked_args);
  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_cmpstr (locked_run->out, ==, "ran\n");
  /* One line for each protection it goes without. */
  g_assert_true (g_str_has_prefix (locked_run->err, "paddock-run: warning: named Unix sockets"));
  second = strchr (locked_run->err, '\n') + 1;
  g_assert_true (g_str_has_prefix (second, "paddock-run: warning: System V IPC and POSIX message queues"));
  g_assert_null (strchr (strchr (second, '\n') + 1, '\n'));

  status_run = run_without_user_namespaces (status_args);
  g_assert_cmpint (status_run->status, ==, 0);
  g_assert_nonnull (strstr (status_run->out, "\nnamed-unix-sockets: not confined ("));
  /* What else only the mount namespace gives. */
  g_assert_nonnull (strstr (status_run->out, "\ndenied-folders: not confined ("));
  g_assert_nonnull (strstr (status_run->out, "\nmetadata: not confined ("));
  g_assert_nonnull (strstr (status_run->out, "\nother-terminals: not confined ("));
  g_assert_nonnull (strstr (locked_run->err, "~/.ssh"));
  g_assert_nonnull (strstr (status_run->out, "\nipc: not confined ("));
  /* The tool caches' overlays and git's read-only files live there too. */
  g_assert_nonnull (strstr (status_run->out, "\ntool-caches: read-only ("));
  g_assert_nonnull (strstr (status_run->out, "\ngit-hooks: not confined ("));
}

/* A project under /tmp stays the real one, and so do --grant paths there. */
void
test_project_under_tmp (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-lock-XXXXXX", NULL);
  g_autofree char *tmp_project = g_build_filename (dir, "project", NULL);
  g_autofree char *shared = g_build_filename (dir, "shared", NULL);
  g_autofree char *reference = g_build_filename (dir, "reference", NULL);
  g_autofree char *beside = g_build_filename (dir, "beside", NULL);
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", tmp_project);
  g_autofree char *shared_arg = g_strdup_printf ("--grant=%s:rw", shared);
  g_autofree char *reference_arg = g_strdup_printf ("--grant=%s:ro", reference);
  g_autofree char *script = g_strdup_printf (
    "echo made > made && echo shared > '%s/out' && cat '%s/in' && "
    "if echo x > '%s/in'; then echo wrote-reference; fi; "
    "if [ -e '%s' ]; then echo saw-beside; fi; mktemp -p /tmp >/dev/null && echo tmp-ok",
    shared, reference, reference, beside);
  g_autofree char *made = g_build_filename (tmp_project, "made", NULL);
  g_autofree char *shared_out = g_build_filename (shared, "out", NULL);
  g_autofree char *reference_in = g_build_filename (reference, "in", NULL);
  g_autofree char *text = NULL;
  g_autoptr(TestResult) run = NULL;

  g_assert_nonnull (dir);
  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  for (const char **d = (const char *[]) { tmp_project, shared, reference, NULL }; *d; d++)
    g_assert_cmpint (g_mkdir (*d, 0755), ==, 0);
  write_file (reference_in, "reference\n");
  write_file (beside, "beside\n");

  run = attempt_full (TRUE, (const char *[]) { project_arg, shared_arg, reference_arg, NULL }, script, NULL);
  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (run->out, ==, "reference\ntmp-ok\n");
  text = read_file (made);
  g_assert_cmpstr (text, ==, "made\n");
  g_clear_pointer (&text, g_free);
  text = read_file (shared_out);
  g_assert_cmpstr (text, ==, "shared\n");
  g_clear_pointer (&text, g_free);
  text = read_file (reference_in);
  g_assert_cmpstr (text, ==, "reference\n");

  test_remove_tree (dir);
}

/* --- what keeps working under the lock ------------------------------------ */

void
test_build_and_run_c (void)
{
  g_autoptr(TestResult) run = attempt (TRUE,
    "printf '#include <stdio.h>\\nint main(void){puts(\"built\");return 42;}\\n' > hello.c && "
    "cc -o hello hello.c && ./hello; echo status=$?");

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "built\nstatus=42"));
}

void
test_git (void)
{
  g_autoptr(TestResult) run = attempt (TRUE,
    "rm -rf repo && mkdir repo && cd repo && git init -q && echo hi > a && git add a && "
    "git -c user.name=Paddock -c user.email=paddock@example.org commit -q -m first && "
    "git log --format=%s");

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (run->out, ==, "first\n");
}

void
test_profile_state_and_tmp (void)
{
  const char *script = "echo state > \"$HOME/.claude/state\" && echo '{}' > \"$HOME/.claude.json\" && "
                       "t=$(mktemp) && echo tmp > \"$t\" && cat \"$t\" && rm \"$t\" && echo ok";
  g_autoptr(TestResult) claude = attempt_full (TRUE, (const char *[]) { "--profile=claude", NULL }, script, NULL);
  g_autoptr(TestResult) shell = attempt_full (TRUE, (const char *[]) { "--profile=shell", NULL }, script, NULL);

  g_assert_cmpint (claude->status, ==, 0);
  g_assert_cmpstr (claude->out, ==, "tmp\nok\n");
  /* The same writes are what the profile grants: without it they fail. */
  g_assert_cmpint (shell->status, !=, 0);
}

void
test_tui_draws (void)
{
  g_autofree char *script = g_strdup_printf (
    "tmux -L paddock-lock-%d -f /dev/null new-session 'printf PADDOCK-DRAWN; sleep 1'", (int) getpid ());
  g_autoptr(TestResult) run = attempt_in_pty (TRUE, NULL, script, NULL, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "\033[?1049h"));  /* the alternate screen */
  g_assert_nonnull (strstr (run->out, "PADDOCK-DRAWN"));
  g_assert_nonnull (strstr (run->out, "[exited]"));
}

void
test_ctrl_c (void)
{
  g_autoptr(TestResult) run = attempt_in_pty (TRUE, NULL, "echo ready; exec sleep 30", "ready", "\003");

  g_assert_cmpint (run->status, ==, 128 + SIGINT);
}

/* In an interactive shell with job control: paddock-run's command, stopped
 * by Ctrl-Z, gives the shell its prompt back ("Stopped"), and "fg" brings
 * it back to read what is typed next. Under the lock the command is a
 * child of its PID namespace's init, which the terminal's SIGTSTP cannot
 * stop. */
static void
assert_job_control (gboolean locked)
{
  g_autoptr(GPtrArray) argv = command_line (locked, NULL, "printf 'S%sD\\n' TARTE; read word; echo RESUMED-$word");
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) env = child_env ();
  const char *bash[] = { "/bin/bash", "--norc", "--noprofile", "-i", NULL };
  int master, wait_status;
  gsize mark;
  pid_t pid;

  for (guint i = 0; argv->pdata[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (argv->pdata[i]);

      g_string_append_printf (line, "%s ", quoted);
    }
  g_string_append (line, "\n");
  env = g_environ_setenv (env, "PS1", "PROMPT$ ", TRUE);

  pid = test_pty_spawn (bash, (const char * const *) env, 200, &master);

  g_assert_true (test_pty_read_until (master, out, 0, "PROMPT$ "));
  mark = out->len;
  test_pty_type (master, line->str);
  g_assert_true (test_pty_read_until (master, out, mark, "STARTED"));
  mark = out->len;
  test_pty_type (master, "\032");
  if (!test_pty_read_until (master, out, mark, "Stopped"))
    g_error ("%s: Ctrl-Z did not stop the command; the terminal showed: %s",
             locked ? "locked" : "unlocked", out->str + mark);
  g_assert_true (test_pty_read_until (master, out, mark, "PROMPT$ "));
  mark = out->len;
  test_pty_type (master, "fg\n");
  /* The shell names the job it continues; then it reads again. */
  g_assert_true (test_pty_read_until (master, out, mark, "RESUMED-$word"));
  mark = out->len;
  test_pty_type (master, "again\n");
  g_assert_true (test_pty_read_until (master, out, mark, "RESUMED-again"));
  test_pty_type (master, "exit\n");
  test_pty_read_until (master, out, out->len, NULL);
  close (master);
  while (waitpid (pid, &wait_status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  test_assert_no_sanitizer_report (out->str);
}

void
test_job_control (void)
{
  assert_job_control (FALSE);
  assert_job_control (TRUE);
}

/* --- bad input, status, saved choice ------------------------------------- */

static void
assert_refused_input (const char * const *extra,
                      const char         *message)
{
  g_autoptr(TestResult) run = attempt_full (TRUE, extra, "echo started", NULL);

  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, message));
  g_assert_null (strchr (strchr (run->err, '\n') + 1, '\n'));  /* one line */
}

void
test_bad_input (void)
{
  g_autofree char *ssh = g_build_filename (home, ".ssh", NULL);
  g_autofree char *grant_ssh = g_strdup_printf ("--grant=%s:ro", ssh);
  g_autofree char *nowhere = g_build_filename (base, "nowhere", NULL);
  g_autofree char *grant_nowhere = g_strdup_printf ("--grant=%s", nowhere);
  g_autofree char *grant_mistyped = g_strdup_printf ("--grant=%s:rx", home);

  g_autofree char *home_project = g_strdup_printf ("--project=%s", home);

  /* Locked to the home folder (or /), the agent could still change what
   * every login runs: refused. Unlocked, the same project runs. */
  assert_refused_input ((const char *[]) { home_project, NULL }, "it holds your home folder");
  assert_refused_input ((const char *[]) { "--project=/", NULL }, "cannot lock /");
  /* So is a read-write grant of it; read-only, it runs. */
  {
    g_autofree char *home_rw = g_strdup_printf ("--grant=%s:rw", home);
    g_autofree char *home_ro = g_strdup_printf ("--grant=%s:ro", home);
    g_autoptr(TestResult) run = NULL;

    assert_refused_input ((const char *[]) { home_rw, NULL }, "would let the agent change what every login runs");
    run = attempt_full (TRUE, (const char *[]) { home_ro, NULL }, "echo started", NULL);
    g_assert_cmpint (run->status, ==, 0);
    g_assert_cmpstr (run->out, ==, "started\n");
  }
  {
    g_autoptr(TestResult) run = attempt_full (FALSE, (const char *[]) { home_project, NULL }, "echo started", NULL);

    g_assert_cmpint (run->status, ==, 0);
    g_assert_cmpstr (run->out, ==, "started\n");
  }

  /* A project or read-write grant that holds a denied folder (here
   * ~/.config/gh): the agent gets all of it, so the lock refuses it.
   * Unlocked it runs, and read-only the grant does. */
  {
    g_autofree char *config = g_build_filename (home, ".config", NULL);
    g_autofree char *config_project = g_strdup_printf ("--project=%s", config);
    g_autofree char *config_rw = g_strdup_printf ("--grant=%s:rw", config);
    g_autofree char *config_ro = g_strdup_printf ("--grant=%s:ro", config);
    g_autoptr(TestResult) unlocked = NULL;
    g_autoptr(TestResult) read_only = NULL;

    g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
    assert_refused_input ((const char *[]) { config_project, NULL }, "which the folder lock keeps from the agent");
    assert_refused_input ((const char *[]) { config_rw, NULL }, "which the folder lock keeps from the agent");
    unlocked = attempt_full (FALSE, (const char *[]) { config_project, NULL }, "echo started", NULL);
    g_assert_cmpint (unlocked->status, ==, 0);
    g_assert_cmpstr (unlocked->out, ==, "started\n");
    read_only = attempt_full (TRUE, (const char *[]) { config_ro, NULL }, "echo started", NULL);
    g_assert_cmpint (read_only->status, ==, 0);
    g_assert_cmpstr (read_only->out, ==, "started\n");
  }

  assert_refused_input ((const char *[]) { grant_nowhere, NULL }, "No such file or directory");
  /* Not a path with ":rx" in its name: an access that is not ro or rw. */
  assert_refused_input ((const char *[]) { grant_mistyped, NULL }, "(the access after ':' is ro or rw)");
  assert_refused_input ((const char *[]) { grant_ssh, NULL }, "which the folder lock denies");
  assert_refused_input ((const char *[]) { "--profile=nobody", NULL }, "unknown profile");
}

/* Runs paddock-run (with its exec monitor) on the project with @args
 * before "--" and sh -c @script after; returns its status, and its
 * output and errors in @out and @err. */
static int
run_monitored (const char * const *args,
               const char         *script,
               char              **out,
               char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) env = child_env ();
  g_autoptr(TestResult) result = NULL;

  g_ptr_array_add (argv, g_strdup (paddock_run));
  g_ptr_array_add (argv, g_strdup_printf ("--project=%s", project));
  add_command (argv, args, script);
  result = test_run_full ((const char * const *) argv->pdata,
                          &(TestRunOptions) { .cwd = project, .env = (const char * const *) env });
  *out = g_steal_pointer (&result->out);
  *err = g_steal_pointer (&result->err);
  return result->status;
}

/* The session's own --audit and --policy files. In the project, where the
 * locked agent could rewrite them (its rules for the next session, its
 * record), the lock is refused, and so is a read-write grant of the
 * folder that holds one; unlocked, the session runs. In a folder granted
 * read-only, the agent can neither read the log nor add to it. */
void
test_session_files (void)
{
  g_autofree char *log_inside = g_build_filename (project, "audit.jsonl", NULL);
  g_autofree char *policy_inside = g_build_filename (project, "policy.json", NULL);
  g_autofree char *log_outside = g_build_filename (outside, "audit.jsonl", NULL);
  g_autofree char *audit_inside = g_strdup_printf ("--audit=%s", log_inside);
  g_autofree char *audit_outside = g_strdup_printf ("--audit=%s", log_outside);
  g_autofree char *policy_arg = g_strdup_printf ("--policy=%s", policy_inside);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_autofree char *grant_outside = g_strdup_printf ("--grant=%s:ro", outside);
  g_autofree char *grant_outside_rw = g_strdup_printf ("--grant=%s:rw", outside);
  g_autofree char *tamper = g_strdup_printf ("cat '%s' > /dev/null 2>&1 && echo read; "
                                             "echo FORGED >> '%s' && echo wrote; echo done", log_outside, log_outside);
  g_autofree char *log = NULL;

  write_file (policy_inside, "{ \"version\": 1 }\n");
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_monitored ((const char *[]) { "--lock", backend_arg, audit_inside, NULL }, "echo started",
                                    &out, &err), ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "the audit log"));
    g_assert_nonnull (strstr (err, "where the locked agent could rewrite it"));
    g_assert_false (g_file_test (log_inside, G_FILE_TEST_EXISTS));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_monitored ((const char *[]) { "--lock", backend_arg, policy_arg, NULL }, "echo started",
                                    &out, &err), ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "the policy"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_monitored ((const char *[]) { "--no-lock", audit_inside, policy_arg, NULL }, "echo started",
                                    &out, &err), ==, 0);
    g_assert_cmpstr (out, ==, "started\n");
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    /* Unlocked, the same agent can read and forge the log: the test can fail. */
    g_assert_cmpint (run_monitored ((const char *[]) { "--no-lock", audit_outside, NULL }, tamper, &out, &err), ==, 0);
    g_assert_cmpstr (out, ==, "read\nwrote\ndone\n");
    g_assert_cmpint (g_unlink (log_outside), ==, 0);
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    /* A read-write grant of the log's folder would give the log away. */
    g_assert_cmpint (run_monitored ((const char *[]) { "--lock", backend_arg, grant_outside_rw, audit_outside, NULL },
                                    tamper, &out, &err), ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "which the folder lock keeps from the agent"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_monitored ((const char *[]) { "--lock", backend_arg, grant_outside, audit_outside, NULL },
                                    tamper, &out, &err), ==, 0);
    g_assert_cmpstr (out, ==, "done\n");
  }
  g_assert_true (g_file_get_contents (log_outside, &log, NULL, NULL));
  /* (The command line is in the log: the line the agent would add is not.) */
  g_assert_null (strstr (log, "\nFORGED\n"));
  g_assert_nonnull (strstr (log, "\"type\":\"session-end\""));
  g_unlink (log_outside);
  g_unlink (log_inside);
  g_unlink (policy_inside);
}

void
test_bad_backend_and_project (void)
{
  const char *argv[] = { paddock_run, "--lock", "--lock-backend=chroot", "--", "true", NULL };
  g_autofree char *missing = g_build_filename (base, "no-such-project", NULL);
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", missing);
  const char *argv2[] = { paddock_run, "--lock", project_arg, "--", "true", NULL };
  g_autoptr(TestResult) backend_run = test_run (argv);
  g_autoptr(TestResult) project_run = test_run (argv2);

  g_assert_cmpint (backend_run->status, ==, 2);
  g_assert_nonnull (strstr (backend_run->err, "chroot"));
  g_assert_cmpint (project_run->status, ==, 2);
  g_assert_nonnull (strstr (project_run->err, "no-such-project"));
}

void
test_lock_status (void)
{
  const char *argv[] = { paddock_run, "--lock-status", NULL };
  long abi = syscall (444 /* landlock_create_ruleset */, NULL, 0, 1);
  g_autoptr(TestResult) run = test_run (argv);
  const char *out = run->out;
  g_autofree char *expected = NULL;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (out, abi >= 1 ? "mechanism: landlock\n" : "mechanism: "));
  expected = g_strdup_printf ("landlock-abi: %ld", abi >= 1 ? abi : 0);
  g_assert_nonnull (strstr (out, expected));
  g_assert_nonnull (strstr (out, abi >= 3 ? "truncate: yes\n" : "truncate: no\n"));
  g_assert_nonnull (strstr (out, abi >= 5 ? "ioctl-dev: yes\n" : "ioctl-dev: no\n"));
  g_assert_nonnull (strstr (out, abi >= 6 ? "scope-signal: yes\n" : "scope-signal: no\n"));
  g_assert_nonnull (strstr (out, abi >= 6 ? "scope-abstract-unix-socket: yes\n" : "scope-abstract-unix-socket: no\n"));
  g_assert_nonnull (strstr (out, "filesystem: "));
  g_assert_nonnull (strstr (out, "tcp: "));
  g_assert_nonnull (strstr (out, "refer: "));
  g_assert_nonnull (strstr (out, "\nnamed-unix-sockets: "));
  g_assert_nonnull (strstr (out, "\ndenied-folders: "));
  g_assert_nonnull (strstr (out, "\nmetadata: "));
  g_assert_nonnull (strstr (out, "\nother-terminals: "));
  g_assert_nonnull (strstr (out, abi >= 1 ? "\nother-processes: hidden (" : "\nother-processes: "));
  g_assert_nonnull (strstr (out, abi >= 6 ? "\nabstract-unix-sockets: confined" : "\nabstract-unix-sockets: not confined"));
}

void
test_saved_choice (void)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (hash, ".settings.json", NULL);
  g_autofree char *dir = g_build_filename (config_home, "paddock", "projects", NULL);
  g_autofree char *file = g_build_filename (dir, name, NULL);
  g_autofree char *json = g_strdup_printf ("{ \"path\": \"%s\", \"lock\": true }", project);
  g_autofree char *target = out_path ("saved");
  g_autofree char *script = g_strdup_printf ("echo pwned > '%s'", target);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  const char *locked_argv[] = { paddock_run, "--project", project, backend_arg, "--", "sh", "-c", script, NULL };
  const char *free_argv[] = { paddock_run, "--project", project, "--no-lock", "--", "sh", "-c", script, NULL };
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) free_run = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_file (file, json);

  locked_run = test_run_full (locked_argv, &options);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));

  free_run = test_run_full (free_argv, &options);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (target, G_FILE_TEST_EXISTS));
  g_unlink (target);
  g_unlink (file);
}
