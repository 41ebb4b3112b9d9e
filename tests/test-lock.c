/* test-lock.c: the folder lock's escape suite, run on one backend per run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every attempt runs twice through paddock-run: without the lock, where it
 * must succeed (so the test can fail), and under the lock, where the kernel
 * must refuse it. The suite runs as root in CI, so only Landlock, the
 * namespaces and seccomp can be what refuses. Pass --backend=namespaces to
 * run it on the namespaces backend.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <grp.h>
#include <stdlib.h>
#include <sched.h>
#include <stddef.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <sys/shm.h>
#include <mqueue.h>
#include <sys/xattr.h>
#include <unistd.h>

static const char *paddock_run;
static char *runner_copy;    /* paddock-run, copied into the test tree */
static const char *backend = "landlock";
static gboolean has_no_monitor;
static char *base, *home, *project, *outside, *bindir, *config_home, *state_home, *runtime_dir;

static char **
child_env (void)
{
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_unsetenv (env, "XDG_DATA_HOME");
  env = g_environ_unsetenv (env, "XDG_CACHE_HOME");
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_unsetenv (env, "GNUPGHOME");
  env = g_environ_setenv (env, "TERM", "xterm-256color", TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  return env;
}

/* Appends EXTRA -- sh -c SCRIPT, and the NULL that ends @argv. */
static void
add_command (GPtrArray          *argv,
             const char * const *extra,
             const char         *script)
{
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (extra[i]));
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup ("sh"));
  g_ptr_array_add (argv, g_strdup ("-c"));
  g_ptr_array_add (argv, g_strdup (script));
  g_ptr_array_add (argv, NULL);
}

/* paddock-run [--lock …] EXTRA -- sh -c SCRIPT */
static GPtrArray *
command_line (gboolean            locked,
              const char * const *extra,
              const char         *script)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (argv, g_strdup (paddock_run));
  if (has_no_monitor)
    g_ptr_array_add (argv, g_strdup ("--no-monitor"));
  g_ptr_array_add (argv, g_strdup_printf ("--project=%s", project));
  if (locked)
    {
      g_ptr_array_add (argv, g_strdup ("--lock"));
      g_ptr_array_add (argv, g_strdup_printf ("--lock-backend=%s", backend));
      g_ptr_array_add (argv, g_strdup_printf ("--grant=%s:ro", bindir));
    }
  add_command (argv, extra, script);
  return argv;
}

/* Runs the script; when @pid_file is set, writes paddock-run's pid there
 * once it started; @setup runs in the child before paddock-run. */
static TestResult *
attempt_as (gboolean              locked,
            const char * const   *extra,
            const char           *script,
            const char           *pid_file,
            GSpawnChildSetupFunc  setup)
{
  g_autoptr(GPtrArray) argv = command_line (locked, extra, script);
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env, .setup = setup };
  g_autoptr(GSubprocess) proc = test_spawn ((const char * const *) argv->pdata, &options);

  if (pid_file != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s\n", g_subprocess_get_identifier (proc));
      g_autoptr(GError) error = NULL;

      g_file_set_contents (pid_file, text, -1, &error);
      g_assert_no_error (error);
    }
  return test_finish (proc, &options);
}

static TestResult *
attempt_full (gboolean            locked,
              const char * const *extra,
              const char         *script,
              const char         *pid_file)
{
  return attempt_as (locked, extra, script, pid_file, NULL);
}

static TestResult *
attempt (gboolean    locked,
         const char *script)
{
  return attempt_full (locked, NULL, script, NULL);
}

/* Runs in a new pty as its controlling terminal. @input is typed once
 * @when appears in the output (or at once when NULL). */
static TestResult *
attempt_in_pty (gboolean            locked,
                const char * const *extra,
                const char         *script,
                const char         *when,
                const char         *input)
{
  g_autoptr(GPtrArray) argv = command_line (locked, extra, script);
  g_auto(GStrv) env = child_env ();
  struct winsize size = { .ws_row = 24, .ws_col = 80 };
  g_autoptr(GString) out = g_string_new (NULL);
  TestResult *result = g_new0 (TestResult, 1);
  gboolean typed = input == NULL;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  int master, slave, wait_status;
  pid_t pid;

  g_assert_cmpint (openpty (&master, &slave, NULL, NULL, &size), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      setsid ();
      ioctl (slave, TIOCSCTTY, 0);
      dup2 (slave, 0);
      dup2 (slave, 1);
      dup2 (slave, 2);
      if (slave > 2)
        close (slave);
      close (master);
      execve (paddock_run, (char **) argv->pdata, env);
      _exit (127);
    }
  close (slave);

  for (;;)
    {
      struct pollfd pfd = { .fd = master, .events = POLLIN };
      char buf[4096];
      ssize_t n;

      if (!typed && (when == NULL || strstr (out->str, when) != NULL))
        {
          g_assert_cmpint (write (master, input, strlen (input)), ==, (gssize) strlen (input));
          typed = TRUE;
        }
      if (g_get_monotonic_time () > deadline)
        {
          kill (pid, SIGKILL);
          g_error ("timed out in the pty; output so far: %s", out->str);
        }
      if (poll (&pfd, 1, 200) <= 0)
        continue;
      n = read (master, buf, sizeof buf);
      if (n <= 0)
        break;  /* EIO: every holder of the pty is gone */
      g_string_append_len (out, buf, n);
    }
  close (master);
  while (waitpid (pid, &wait_status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);

  result->status = test_wait_status (wait_status);
  result->out = g_string_free (g_steal_pointer (&out), FALSE);
  result->err = g_strdup ("");
  g_test_message ("%s in a pty: status %d, output «%s»", locked ? "locked" : "unlocked",
                  result->status, result->out);
  test_assert_no_sanitizer_report (result->out);
  return result;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char *
out_path (const char *name)
{
  return g_build_filename (outside, name, NULL);
}

/* --- refused under the lock, allowed without ----------------------------- */

static void
test_write_outside (void)
{
  g_autofree char *target = out_path ("existing");
  g_autofree char *script = g_strdup_printf ("echo pwned >> '%s'", target);
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (target, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
}

static void
test_create_outside (void)
{
  g_autofree char *target = out_path ("created");
  g_autofree char *script = g_strdup_printf ("echo pwned > '%s'", target);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (target, G_FILE_TEST_EXISTS));
  g_unlink (target);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
}

static void
test_rename_outside (void)
{
  g_autofree char *from = out_path ("a");
  g_autofree char *to = out_path ("b");
  g_autofree char *script = g_strdup_printf ("mv '%s' '%s'", from, to);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "a\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_rename (to, from);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_true (g_file_test (from, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

static void
test_link_outside (void)
{
  g_autofree char *from = out_path ("existing");
  g_autofree char *to = out_path ("linked");
  g_autofree char *script = g_strdup_printf ("ln '%s' '%s'", from, to);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_unlink (to);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

static void
test_truncate_outside (void)
{
  g_autofree char *target = out_path ("existing");
  g_autofree char *script = g_strdup_printf ("truncate -s 0 '%s'", target);
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (target, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
}

/* Runs @script both ways; the secret must show up only without the lock. */
static void
assert_secret_only_unlocked (const char *script)
{
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "PRIVATE-KEY-MATERIAL"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "PRIVATE-KEY-MATERIAL"));
}

static void
test_read_ssh_key (void)
{
  assert_secret_only_unlocked ("cat \"$HOME/.ssh/id_ed25519\"");
}

/* Credential stores of the common command-line tools, under the test's
 * home folder (and runtime dir), each holding the marker. */
static const char * const credential_stores[] = {
  ".config/containers/auth.json", "@runtime/containers/auth.json", ".docker/config.json",
  ".terraform.d/credentials.tfrc.json", ".config/github-copilot/apps.json", ".gem/credentials",
  ".config/glab-cli/config.yml", ".config/rclone/rclone.conf", ".npmrc", ".pypirc",
  ".cargo/credentials.toml", ".kube/config", ".config/gcloud/credentials.db", ".azure/msal_token_cache.json",
  ".cache/huggingface/token", ".huggingface/token", ".config/hub", ".git-credentials", ".netrc",
  ".pulumi/credentials.json", ".config/helm/registry/config.json", ".authinfo",
};

static char *
credential_store_path (const char *store)
{
  if (g_str_has_prefix (store, "@runtime/"))
    return g_build_filename (runtime_dir, store + strlen ("@runtime/"), NULL);
  return g_build_filename (home, store, NULL);
}

static void
test_read_credential_stores (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (credential_stores); i++)
    {
      g_autofree char *path = credential_store_path (credential_stores[i]);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *script = g_strdup_printf ("cat '%s'", path);

      g_test_message ("credential store %s", credential_stores[i]);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      write_file (path, "token = PRIVATE-KEY-MATERIAL\n");
      assert_secret_only_unlocked (script);
      g_unlink (path);
    }
}

/* The user's own additions: deny.conf for every project, "deny" in one
 * project's settings; both shown by --lock-status. */
static void
test_user_denials (void)
{
  g_autofree char *conf = g_build_filename (config_home, "paddock", "deny.conf", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (hash, ".settings.json", NULL);
  g_autofree char *settings_dir = g_build_filename (config_home, "paddock", "projects", NULL);
  g_autofree char *settings = g_build_filename (settings_dir, name, NULL);
  g_autofree char *json = g_strdup_printf ("{ \"path\": \"%s\", \"deny\": [\"~/project-secret\"] }", project);
  g_autofree char *everywhere = g_build_filename (home, "my-secrets", "key", NULL);
  g_autofree char *everywhere_dir = g_path_get_dirname (everywhere);
  g_autofree char *here = g_build_filename (home, "project-secret", NULL);
  g_autofree char *expected = g_strdup_printf ("\ndenied: %s\n", everywhere_dir);
  g_autofree char *absolute = out_path ("absolute-secret");
  g_autofree char *conf_text = g_strdup_printf ("# mine\n~/my-secrets\n\n  %s  \nnot-a-path\n", absolute);
  const char *status_argv[] = { paddock_run, "--lock-status", NULL };
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) status_run = NULL;

  g_assert_cmpint (g_mkdir_with_parents (everywhere_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  write_file (everywhere, "PRIVATE-KEY-MATERIAL\n");
  write_file (here, "PRIVATE-KEY-MATERIAL\n");
  write_file (absolute, "PRIVATE-KEY-MATERIAL\n");
  write_file (conf, conf_text);
  write_file (settings, json);

  assert_secret_only_unlocked ("cat \"$HOME/my-secrets/key\"");
  assert_secret_only_unlocked ("cat \"$HOME/project-secret\"");
  {
    g_autofree char *script = g_strdup_printf ("cat '%s'", absolute);
    assert_secret_only_unlocked (script);
  }

  status_run = test_run_full (status_argv, &options);
  g_assert_cmpint (status_run->status, ==, 0);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s\n", absolute);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s/.config/containers/auth.json\n", home);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_assert_null (strstr (status_run->out, "not-a-path"));
  /* The project's own list only for that project. */
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s\n", here);
  g_assert_null (strstr (status_run->out, expected));
  {
    const char *project_argv[] = { paddock_run, "--lock-status", "--project", project, NULL };
    const char *json_argv[] = { paddock_run, "--lock-status", "--json", "--project", project, NULL };
    g_autoptr(TestResult) project_run = test_run_full (project_argv, &options);
    g_autoptr(TestResult) json_run = test_run_full (json_argv, &options);
    g_autofree char *quoted = g_strdup_printf ("\"%s\"", here);

    g_assert_cmpint (project_run->status, ==, 0);
    g_assert_nonnull (strstr (project_run->out, expected));
    g_assert_cmpint (json_run->status, ==, 0);
    g_assert_nonnull (strstr (json_run->out, quoted));
  }

  g_unlink (conf);
  g_unlink (settings);
  g_unlink (everywhere);
  g_unlink (here);
  g_unlink (absolute);
}

static void
test_symlink_in_project (void)
{
  g_autofree char *key_link = g_build_filename (project, "key", NULL);
  g_autofree char *key = g_build_filename (home, ".ssh", "id_ed25519", NULL);
  g_autofree char *out_link = g_build_filename (project, "out", NULL);
  g_autofree char *target = out_path ("existing");
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  g_unlink (key_link);
  g_assert_cmpint (symlink (key, key_link), ==, 0);
  assert_secret_only_unlocked ("cat key");

  g_unlink (out_link);
  g_assert_cmpint (symlink (target, out_link), ==, 0);
  write_file (target, "outside\n");
  free_run = attempt (FALSE, "echo pwned >> out");
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, "echo pwned >> out");
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
  g_unlink (key_link);
  g_unlink (out_link);
}

static void
test_hard_link_into_project (void)
{
  g_autofree char *from = out_path ("existing");
  g_autofree char *to = g_build_filename (project, "hard", NULL);
  g_autofree char *script = g_strdup_printf ("ln '%s' hard", from);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_unlink (to);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

static void
test_proc_self_root (void)
{
  assert_secret_only_unlocked ("cat \"/proc/self/root$HOME/.ssh/id_ed25519\"");
}

/* A process outside the lock, sitting in ~/.ssh with a secret in its environment. */
static GPid
start_outsider (void)
{
  g_autofree char *cwd = g_build_filename (home, ".ssh", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "PADDOCK_SECRET", "PRIVATE-KEY-MATERIAL", TRUE);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sleep", "120", NULL };
  GPid pid;

  g_spawn_async (cwd, (char **) argv, env, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

static void
stop_outsider (GPid pid)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

static void
test_proc_cwd (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("cat /proc/%d/cwd/id_ed25519", (int) pid);

  assert_secret_only_unlocked (script);
  stop_outsider (pid);
}

static void
test_proc_environ (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("tr '\\0' '\\n' < /proc/%d/environ", (int) pid);

  assert_secret_only_unlocked (script);
  stop_outsider (pid);
}

static void
test_proc_mem (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' read-mem %d", bindir, (int) pid);
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "read 64 bytes"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "read"));
  stop_outsider (pid);
}

static void become_nobody (gpointer user_data);

/* Another process's limits, priority and CPUs: an outsider the test
 * started, and paddock-run itself (the shell's parent), whose open-file
 * limit lowered would leave it unable to end the session. As root, once
 * more as a user, whom dropping capabilities does not stop. */
static void
assert_process_only_unlocked (const char *what)
{
  GSpawnChildSetupFunc setups[] = { NULL, become_nobody };

  for (guint u = 0; u < (geteuid () == 0 ? 2 : 1); u++)
    {
      const char *argv[] = { "sleep", "120", NULL };
      g_autoptr(GError) error = NULL;
      g_autofree char *outsider = NULL;
      g_autofree char *runner = NULL;
      GPid pid;

      g_spawn_async ("/", (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                     setups[u], NULL, &pid, &error);
      g_assert_no_error (error);
      outsider = g_strdup_printf ("'%s/lock-probe' %s %d", bindir, what, (int) pid);
      runner = g_strdup_printf ("'%s/lock-probe' %s $PPID", bindir, what);

      for (guint i = 0; i < 2; i++)
        {
          const char *script = i == 0 ? outsider : runner;
          g_autoptr(TestResult) free_run = attempt_as (FALSE, NULL, script, NULL, setups[u]);
          g_autoptr(TestResult) locked_run = attempt_as (TRUE, NULL, script, NULL, setups[u]);

          g_assert_cmpint (free_run->status, ==, 0);
          g_assert_nonnull (strstr (free_run->out, "changed"));
          g_assert_cmpint (locked_run->status, !=, 0);
          g_assert_null (strstr (locked_run->out, "changed"));
        }
      stop_outsider (pid);
    }
}

static void
test_prlimit_outside (void)
{
  assert_process_only_unlocked ("prlimit");
}

static void
test_setpriority_outside (void)
{
  assert_process_only_unlocked ("renice");
}

static void
test_affinity_outside (void)
{
  assert_process_only_unlocked ("affinity");
}

/* A process outside the lock whose command line holds a marker. Under
 * the namespaces backend its /proc shows none of them; under Landlock the
 * host's /proc stays, and with it other processes' command lines (a PID
 * namespace would be needed for a /proc of the agent's own): not run there. */
static void
test_proc_cmdline (void)
{
  /* sleep, named by the marker: the process the test kills is the one that holds it. */
  const char *argv[] = { "sleep", "OUTSIDE-CMDLINE-MARKER", "120", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *script = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  GPid pid;

  g_spawn_async ("/", (char **) argv, NULL,
                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_FILE_AND_ARGV_ZERO,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  script = g_strdup_printf ("tr '\\0' ' ' < /proc/%d/cmdline", (int) pid);
  free_run = attempt (FALSE, script);
  locked_run = attempt (TRUE, script);
  stop_outsider (pid);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "OUTSIDE-CMDLINE-MARKER"));
  g_assert_null (strstr (locked_run->out, "OUTSIDE-CMDLINE-MARKER"));
}

/* What a build does to itself stays possible under the lock. */
static void
test_own_limits (void)
{
  g_autoptr(TestResult) locked_run = attempt (TRUE, "ulimit -n 256 && ulimit -f 100000 && "
                                                    "nice -n 5 true && taskset -c 0 true && "
                                                    "ionice -c 3 true && echo fine");

  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_cmpstr (locked_run->out, ==, "fine\n");
}

static void
test_setuid (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/suid-probe' euid", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("making a setuid copy owned by another user needs root");
      return;
    }
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "euid=65534\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_cmpstr (locked_run->out, ==, "euid=0\n");
}

/* A file the launching shell left open, as "7>>file" would, outside the project. */
static char *left_open_path;

static void
leave_fd_open (gpointer user_data)
{
  int fd = open (left_open_path, O_WRONLY | O_APPEND);

  if (fd < 0 || dup2 (fd, 7) != 7)
    _exit (125);
  close (fd);
}

static void
test_inherited_fd (void)
{
  g_autofree char *target = out_path ("left-open");
  const char *script = "echo pwned >&7; echo pwned >> /proc/self/fd/7";
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  left_open_path = target;
  write_file (target, "outside\n");
  free_run = attempt_as (FALSE, NULL, script, NULL, leave_fd_open);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt_as (TRUE, NULL, script, NULL, leave_fd_open);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
  left_open_path = NULL;
}

/* --- root under the lock: no capabilities, no setuid leftovers ------------ */

static gboolean
skip_unless_root (void)
{
  if (geteuid () == 0)
    return FALSE;
  g_test_skip ("what root may do without the lock needs root");
  return TRUE;
}

static void
test_root_read_shadow (void)
{
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  if (!g_file_test ("/etc/shadow", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /etc/shadow here");
      return;
    }
  free_run = attempt (FALSE, "grep -c : /etc/shadow");
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (atoi (free_run->out), >, 0);
  /* The namespaces backend shows a node every open of which fails. */
  locked_run = attempt (TRUE, "grep -c : /etc/shadow");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (atoi (locked_run->out), ==, 0);
}

static void
test_root_raw_socket (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' raw-socket", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "raw socket"));
}

static void
test_root_chown (void)
{
  g_autofree char *file = g_build_filename (project, "owned", NULL);
  struct stat st;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  write_file (file, "mine\n");
  free_run = attempt (FALSE, "chown 65534 owned");
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_uid, ==, 65534);

  g_assert_cmpint (chown (file, 0, 0), ==, 0);
  locked_run = attempt (TRUE, "chown 65534 owned");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_uid, ==, 0);
  g_unlink (file);
}

static void
test_setuid_bit (void)
{
  g_autofree char *file = g_build_filename (project, "tool", NULL);
  g_autofree char *made = g_build_filename (project, "made", NULL);
  g_autofree char *script = g_strdup_printf ("chmod u+s tool; chmod g+s tool; '%s/lock-probe' create-setuid made",
                                             bindir);
  struct stat st;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (file, "#!/bin/sh\n");
  g_assert_cmpint (chmod (file, 0755), ==, 0);
  g_unlink (made);
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & (S_ISUID | S_ISGID), ==, S_ISUID | S_ISGID);
  g_assert_cmpint (stat (made, &st), ==, 0);
  g_assert_cmpint (st.st_mode & S_ISUID, ==, S_ISUID);

  g_assert_cmpint (chmod (file, 0755), ==, 0);
  g_unlink (made);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & (S_ISUID | S_ISGID), ==, 0);
  g_assert_false (stat (made, &st) == 0 && (st.st_mode & S_ISUID));
  g_unlink (file);
  g_unlink (made);
}

static void
test_root_setcap (void)
{
  g_autofree char *file = g_build_filename (project, "capable", NULL);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' setcap capable", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  write_file (file, "#!/bin/sh\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (getxattr (file, "security.capability", NULL, 0), >, 0);

  g_assert_cmpint (removexattr (file, "security.capability"), ==, 0);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (getxattr (file, "security.capability", NULL, 0), <, 0);
  g_unlink (file);
}

/* --- IPC: named by keys, outside every file system ------------------------ */

static void become_nobody (gpointer user_data);

static void
assert_shm_only_unlocked (GSpawnChildSetupFunc setup)
{
  key_t key = (key_t) (0x50AD0000 | (getpid () & 0xffff));
  int id = shmget (key, 4096, IPC_CREAT | IPC_EXCL | 0666);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' shm %d", bindir, (int) key);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  char *memory;

  g_assert_cmpint (id, >=, 0);
  memory = shmat (id, NULL, 0);
  g_assert_true (memory != (void *) -1);
  strcpy (memory, "OUTSIDE-SHM-MARKER");

  free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  locked_run = attempt_as (TRUE, NULL, script, NULL, setup);
  shmdt (memory);
  shmctl (id, IPC_RMID, NULL);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "OUTSIDE-SHM-MARKER"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "OUTSIDE-SHM-MARKER"));
}

static void
test_sysv_shm (void)
{
  assert_shm_only_unlocked (NULL);
}

/* A user who is not root gets the IPC namespace inside a user namespace. */
static void
test_sysv_shm_unprivileged (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, sysv-shm covers this)");
      return;
    }
  assert_shm_only_unlocked (become_nobody);
}

static void
test_posix_mqueue (void)
{
  g_autofree char *name = g_strdup_printf ("/paddock-test-%d", (int) getpid ());
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' mq %s", bindir, name);
  mqd_t mq = mq_open (name, O_CREAT | O_EXCL | O_RDWR, 0666, NULL);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  g_assert_true (mq != (mqd_t) -1);
  free_run = attempt (FALSE, script);
  locked_run = attempt (TRUE, script);
  mq_close (mq);
  mq_unlink (name);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "opened"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "opened"));
}

static void
test_unshare_user (void)
{
  g_autoptr(TestResult) free_run = attempt (FALSE, "unshare -U true");
  g_autoptr(TestResult) locked_run = attempt (TRUE, "unshare -U true");

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (locked_run->status, !=, 0);
}

static void
test_tiocsti (void)
{
  const char *sysctl = "/proc/sys/dev/tty/legacy_tiocsti";
  g_autofree char *saved = read_file (sysctl);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' tiocsti", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  gboolean restore = FALSE;

  /* Since Linux 6.2 the kernel may refuse TIOCSTI to everyone; then the
   * attempt cannot succeed without the lock either. */
  if (saved != NULL && saved[0] == '0')
    {
      if (geteuid () != 0)
        {
          g_test_skip ("dev.tty.legacy_tiocsti is 0, so TIOCSTI cannot succeed even unlocked");
          return;
        }
      write_file (sysctl, "1\n");
      restore = TRUE;
    }

  free_run = attempt_in_pty (FALSE, NULL, script, NULL, NULL);
  locked_run = attempt_in_pty (TRUE, NULL, script, NULL, NULL);
  if (restore)
    write_file (sysctl, saved);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "injected"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "injected"));
}

static void
test_signal_supervisor (void)
{
  g_autofree char *pid_file = g_build_filename (project, "runner.pid", NULL);
  g_autofree char *script = g_strdup_printf (
    "while [ ! -s '%s' ]; do sleep 0.01; done; kill -KILL $(cat '%s') && sleep 1; echo survived",
    pid_file, pid_file);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (strcmp (backend, "landlock") == 0)
    {
      long abi = syscall (444 /* landlock_create_ruleset */, NULL, 0, 1);
      if (abi < 6)
        {
          g_test_skip ("Landlock ABI < 6 cannot scope signals");
          return;
        }
    }

  g_unlink (pid_file);
  free_run = attempt_full (FALSE, NULL, script, pid_file);
  g_assert_cmpint (free_run->status, ==, 128 + SIGKILL);

  g_unlink (pid_file);
  locked_run = attempt_full (TRUE, NULL, script, pid_file);
  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_nonnull (strstr (locked_run->out, "survived"));
  g_unlink (pid_file);
}

static void
test_own_settings_denied (void)
{
  g_autofree char *rules = g_build_filename (config_home, "paddock", "rules.json", NULL);
  g_autofree char *script = g_strdup_printf ("echo '{}' >> '%s' && cat '%s'", rules, rules);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (rules, "PRIVATE-KEY-MATERIAL\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  write_file (rules, "PRIVATE-KEY-MATERIAL\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "PRIVATE-KEY-MATERIAL"));
}

/* --- named Unix sockets: the session's services ----------------------------- */

/* A server outside the lock, listening at @path (@NAME: abstract), open to
 * every user. Connecting needs no accept(): the backlog takes it. */
static int
listen_unix (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  socklen_t len = offsetof (struct sockaddr_un, sun_path) + strlen (path);
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  if (path[0] == '@')
    addr.sun_path[0] = '\0';
  else
    {
      len++;
      g_unlink (path);
    }
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, len), ==, 0);
  if (path[0] != '@')
    g_assert_cmpint (chmod (path, 0777), ==, 0);
  g_assert_cmpint (listen (fd, 16), ==, 0);
  return fd;
}

/* Connecting to @path works without the lock and fails under it. */
static void
assert_connect_only_unlocked (const char           *path,
                              GSpawnChildSetupFunc  setup)
{
  int server = listen_unix (path);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' connect '%s'", bindir, path);
  g_autoptr(TestResult) free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  g_autoptr(TestResult) locked_run = attempt_as (TRUE, NULL, script, NULL, setup);

  close (server);
  if (path[0] != '@')
    g_unlink (path);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "connected\n");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "connected"));
  g_assert_null (strstr (locked_run->err, "warning"));
}

/* The session bus, Wayland, PipeWire, gpg-agent and ssh-agent live here. */
static void
test_socket_runtime_dir (void)
{
  g_autofree char *path = g_build_filename (runtime_dir, "bus", NULL);

  assert_connect_only_unlocked (path, NULL);
}

/* ssh-agent, tmux, Java's attach sockets, … */
static void
test_socket_tmp (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-lock-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "agent.sock", NULL);

  g_assert_nonnull (dir);
  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  assert_connect_only_unlocked (path, NULL);
  g_rmdir (dir);
}

/* The system bus, systemd's private socket, docker.sock live in /run. */
static void
test_socket_run (void)
{
  g_autofree char *path = g_strdup_printf ("/run/paddock-lock-test-%d.sock", (int) getpid ());

  if (access ("/run", W_OK) != 0)
    {
      g_test_skip ("cannot make a socket in /run as this user");
      return;
    }
  assert_connect_only_unlocked (path, NULL);
}

/* An X server: any client may inject keystrokes into every window. */
static void
test_socket_x11 (void)
{
  g_autofree char *path = g_strdup_printf ("/tmp/.X11-unix/X%d", 4000 + (int) getpid () % 1000);
  gboolean made = FALSE;

  if (!g_file_test ("/tmp/.X11-unix", G_FILE_TEST_IS_DIR))
    {
      g_assert_cmpint (g_mkdir ("/tmp/.X11-unix", 01777), ==, 0);
      made = TRUE;
    }
  assert_connect_only_unlocked (path, NULL);
  if (made)
    g_rmdir ("/tmp/.X11-unix");
}

/* X11 and some D-Bus buses listen on abstract names too. */
static void
test_socket_abstract (void)
{
  g_autofree char *name = g_strdup_printf ("@paddock-lock-test-%d", (int) getpid ());
  long abi = syscall (444 /* landlock_create_ruleset */, NULL, 0, 1);

  if (abi < 6)
    {
      g_test_skip ("Landlock ABI < 6 cannot scope abstract Unix sockets");
      return;
    }
  assert_connect_only_unlocked (name, NULL);
}

static void
become_nobody (gpointer user_data)
{
  if (setgroups (0, NULL) != 0 || setresgid (65534, 65534, 65534) != 0 ||
      setresuid (65534, 65534, 65534) != 0)
    _exit (125);
}

/* A user who is not root gets the private places through a user namespace. */
static void
test_socket_unprivileged (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, the other cases cover this)");
      return;
    }
  dir = g_dir_make_tmp ("paddock-lock-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  path = g_build_filename (dir, "agent.sock", NULL);
  assert_connect_only_unlocked (path, become_nobody);
  g_rmdir (dir);
}

/* --- what Landlock does not govern: denied folders' sockets and names,
 * metadata, other terminals ------------------------------------------------ */

/* gpg-agent in ~/.gnupg, an ssh ControlMaster in ~/.ssh: connecting signs
 * with the user's key, or reaches their servers, without reading a key. */
static void
test_socket_denied_folder (void)
{
  g_autofree char *gnupg = g_build_filename (home, ".gnupg", NULL);
  g_autofree char *gpg_socket = g_build_filename (gnupg, "S.gpg-agent", NULL);
  g_autofree char *ssh_socket = g_build_filename (home, ".ssh", "cm-git@example.org:22", NULL);

  g_assert_cmpint (g_mkdir_with_parents (gnupg, 0700), ==, 0);
  assert_connect_only_unlocked (gpg_socket, NULL);
  assert_connect_only_unlocked (ssh_socket, NULL);
  g_rmdir (gnupg);
}

/* The names, sizes and times of what a denied folder holds. */
static void
test_stat_denied_folder (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' stat \"$HOME/.ssh/id_ed25519\"", bindir);
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_str_has_prefix (free_run->out, "size "));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");
}

/* A file of the user's, outside the project, whose metadata the probe
 * changes with @what: refused under the lock, done without it. With
 * @setup, paddock-run runs as another user, who owns the file. */
static void
assert_metadata_only_unlocked (const char           *what,
                               GSpawnChildSetupFunc  setup)
{
  g_autofree char *target = g_build_filename (home, "notes.txt", NULL);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' %s '%s'", bindir, what, target);
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) free_run = NULL;
  struct stat st;
  char value[8];

  write_file (target, "notes\n");
  g_assert_cmpint (chmod (target, 0600), ==, 0);
  if (setup != NULL)
    g_assert_cmpint (chown (target, 65534, 65534), ==, 0);

  locked_run = attempt_as (TRUE, NULL, script, NULL, setup);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");
  g_assert_cmpint (stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_mtime, !=, 0);
  g_assert_cmpint (getxattr (target, "user.paddock", value, sizeof value), <, 0);

  free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "changed\n");
  g_assert_cmpint (stat (target, &st), ==, 0);
  if (strcmp (what, "chmod") == 0)
    g_assert_cmpint (st.st_mode & 07777, ==, 0644);
  else if (strcmp (what, "utime") == 0)
    g_assert_cmpint (st.st_mtime, ==, 0);
  else
    g_assert_cmpint (getxattr (target, "user.paddock", value, sizeof value), ==, 1);
  g_unlink (target);
}

static void
test_chmod_outside (void)
{
  assert_metadata_only_unlocked ("chmod", NULL);
}

static void
test_utime_outside (void)
{
  assert_metadata_only_unlocked ("utime", NULL);
}

static void
test_setxattr_outside (void)
{
  assert_metadata_only_unlocked ("setxattr", NULL);
}

/* A user who is not root gets the read-only mounts through a user namespace. */
static void
test_chmod_unprivileged (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, the other cases cover this)");
      return;
    }
  assert_metadata_only_unlocked ("chmod", become_nobody);
}

/* A terminal of the user's other than the session's own. */
static void
test_other_terminal (void)
{
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_autofree char *script = NULL;
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) free_run = NULL;
  struct pollfd pfd = { .events = POLLIN };
  char byte = 0;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  script = g_strdup_printf ("'%s/lock-probe' terminal '%s'", bindir, ptsname (master));

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");

  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "opened\n");
  /* What the probe wrote shows in the other terminal: the first byte there. */
  pfd.fd = master;
  g_assert_cmpint (poll (&pfd, 1, 60 * 1000), ==, 1);
  g_assert_cmpint (read (master, &byte, 1), ==, 1);
  g_assert_cmpint (byte, ==, 'X');
  close (master);
}

/* The session's own terminal stays the agent's: its size, /dev/tty, its
 * reopening through /proc/self/fd, and ptys of its own (script, tmux, an
 * agent's shell tool). */
static void
test_own_terminal (void)
{
  g_autoptr(TestResult) run = attempt_in_pty (TRUE, NULL,
    "stty size && echo typed >/dev/tty && echo reopened >/dev/stdout && "
    "script -qec 'echo inner-$((6*7))' /dev/null && echo done",
    NULL, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "24 80\r\n"));
  g_assert_nonnull (strstr (run->out, "typed\r\n"));
  g_assert_nonnull (strstr (run->out, "reopened\r\n"));
  g_assert_nonnull (strstr (run->out, "inner-42"));
  g_assert_nonnull (strstr (run->out, "done"));
}

static void
write_or_die (const char *path,
              const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);

  if (fd < 0 || write (fd, text, strlen (text)) != (ssize_t) strlen (text))
    _exit (124);
  close (fd);
}

/* Runs paddock-run ARGS as nobody in a user namespace where no further
 * user namespace can be made: no private places then. */
static TestResult *
run_without_user_namespaces (GPtrArray *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) env = child_env ();
  g_autofree char *out_file = g_build_filename (base, "nons.out", NULL);
  g_autofree char *err_file = g_build_filename (base, "nons.err", NULL);
  TestResult *result = g_new0 (TestResult, 1);
  int go[2], ready[2];
  int wait_status;
  char byte = 0;
  pid_t pid;

  g_ptr_array_add (argv, g_strdup (paddock_run));
  for (guint i = 0; i < args->len; i++)
    g_ptr_array_add (argv, g_strdup (g_ptr_array_index (args, i)));
  g_ptr_array_add (argv, NULL);

  g_assert_cmpint (pipe2 (go, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (ready, O_CLOEXEC), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      int out = open (out_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      int err = open (err_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

      if (out < 0 || err < 0 || unshare (CLONE_NEWUSER) != 0 || write (ready[1], &byte, 1) != 1 ||
          read (go[0], &byte, 1) != 1)
        _exit (123);
      write_or_die ("/proc/sys/user/max_user_namespaces", "0\n");
      become_nobody (NULL);
      if (chdir (project) != 0 || dup2 (out, 1) < 0 || dup2 (err, 2) < 0)
        _exit (122);
      execve (paddock_run, (char **) argv->pdata, env);
      _exit (127);
    }
  g_assert_cmpint (read (ready[0], &byte, 1), ==, 1);
  for (const char **map = (const char *[]) { "uid_map", "gid_map", NULL }; *map; map++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/%s", (int) pid, *map);
      int fd = open (path, O_WRONLY | O_CLOEXEC);

      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (write (fd, "0 0 65536\n", 10), ==, 10);
      close (fd);
    }
  g_assert_cmpint (write (go[1], &byte, 1), ==, 1);
  while (waitpid (pid, &wait_status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  close (go[0]);
  close (go[1]);
  close (ready[0]);
  close (ready[1]);

  result->status = test_wait_status (wait_status);
  result->out = read_file (out_file);
  result->err = read_file (err_file);
  g_test_message ("without user namespaces: status %d, stdout «%s», stderr «%s»",
                  result->status, result->out, result->err);
  test_assert_no_sanitizer_report (result->err);
  g_unlink (out_file);
  g_unlink (err_file);
  return result;
}

/* Where no mount namespace can be made, the lock still runs, and says, at
 * start and in --lock-status, that named sockets stay reachable. */
static void
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
}

/* A project under /tmp stays the real one, and so do --grant paths there. */
static void
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

static void
test_build_and_run_c (void)
{
  g_autoptr(TestResult) run = attempt (TRUE,
    "printf '#include <stdio.h>\\nint main(void){puts(\"built\");return 42;}\\n' > hello.c && "
    "cc -o hello hello.c && ./hello; echo status=$?");

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "built\nstatus=42"));
}

static void
test_git (void)
{
  g_autoptr(TestResult) run = attempt (TRUE,
    "rm -rf repo && mkdir repo && cd repo && git init -q && echo hi > a && git add a && "
    "git -c user.name=Paddock -c user.email=paddock@example.org commit -q -m first && "
    "git log --format=%s");

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (run->out, ==, "first\n");
}

static void
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

static void
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

static void
test_ctrl_c (void)
{
  g_autoptr(TestResult) run = attempt_in_pty (TRUE, NULL, "echo ready; exec sleep 30", "ready", "\003");

  g_assert_cmpint (run->status, ==, 128 + SIGINT);
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

static void
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
static void
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

static void
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

static void
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
  g_assert_nonnull (strstr (out, abi >= 1 ? "\nother-processes: partly confined (" : "\nother-processes: "));
  g_assert_nonnull (strstr (out, abi >= 6 ? "\nabstract-unix-sockets: confined" : "\nabstract-unix-sockets: not confined"));
}

static void
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

/* --- the test tree ---------------------------------------------------------- */

static void
copy_file (const char *from,
           const char *to,
           int         mode)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (from, &data, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, data, len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (to, mode), ==, 0);
}

/* Whether every folder from / down to @path lets other users through: some
 * tests run paddock-run as another user, from inside the tree. */
static gboolean
others_can_enter (const char *path)
{
  g_autofree char *dir = g_strdup (path);

  for (;;)
    {
      struct stat st;
      char *slash;

      if (stat (dir, &st) != 0 || (st.st_mode & S_IXOTH) == 0)
        return FALSE;
      slash = strrchr (dir, '/');
      if (slash == NULL || slash == dir)
        return TRUE;
      *slash = '\0';
    }
}

/* Returns FALSE when no place outside every grant could hold the tree. */
static gboolean
make_tree (void)
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *probe = NULL;
  g_autofree char *template = NULL;
  g_autofree char *path = NULL;

  /* Not under /tmp: the lock grants /tmp, and "outside" must be outside. */
  const char *candidates[] = { build_dir, g_getenv ("PADDOCK_SOURCE_DIR"), "/var/lib" };

  for (guint i = 0; i < G_N_ELEMENTS (candidates) && base == NULL; i++)
    {
      g_autofree char *real = candidates[i] ? realpath (candidates[i], NULL) : NULL;

      if (real == NULL || g_str_has_prefix (real, "/tmp") || g_str_has_prefix (real, "/var/tmp") ||
          g_str_has_prefix (real, "/dev/shm") || !others_can_enter (real))
        continue;
      template = g_build_filename (real, "paddock-lock-XXXXXX", NULL);
      base = g_mkdtemp (g_steal_pointer (&template));
    }
  if (base == NULL)
    return FALSE;
  /* Open to the other user socket-unprivileged runs as. */
  g_assert_cmpint (chmod (base, 0755), ==, 0);
  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  outside = g_build_filename (base, "outside", NULL);
  bindir = g_build_filename (base, "bin", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  config_home = g_build_filename (home, ".config", NULL);
  state_home = g_build_filename (home, ".local", "state", NULL);

  for (const char **dir = (const char *[]) { project, outside, bindir, config_home, state_home, runtime_dir, NULL }; *dir; dir++)
    g_assert_cmpint (g_mkdir_with_parents (*dir, 0755), ==, 0);
  path = g_build_filename (home, ".ssh", NULL);
  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, ".ssh", "id_ed25519", NULL);
  write_file (path, "-----BEGIN OPENSSH PRIVATE KEY-----\nPRIVATE-KEY-MATERIAL\n");
  g_clear_pointer (&path, g_free);
  path = g_build_filename (config_home, "paddock", NULL);
  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, ".claude.json", NULL);
  write_file (path, "{}\n");
  g_clear_pointer (&path, g_free);

  probe = g_build_filename (build_dir ? build_dir : ".", "tests", "lock-probe", NULL);
  path = g_build_filename (bindir, "lock-probe", NULL);
  copy_file (probe, path, 0755);
  g_clear_pointer (&path, g_free);

  /* Run paddock-run from here too: the tests that run as another user must
   * reach it, and the build folder may sit in a home only root can enter. */
  runner_copy = g_build_filename (bindir, "paddock-run", NULL);
  copy_file (paddock_run, runner_copy, 0755);
  paddock_run = runner_copy;
  if (geteuid () == 0)
    {
      path = g_build_filename (bindir, "suid-probe", NULL);
      copy_file (probe, path, 0755);
      g_assert_cmpint (chown (path, 65534, 65534), ==, 0);
      g_assert_cmpint (chmod (path, 04755), ==, 0);
    }
  return TRUE;
}

static void
add (const char *name,
     GTestFunc   func)
{
  g_autofree char *path = g_strdup_printf ("/paddock/lock/%s/%s", backend, name);

  g_test_add_func (path, func);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TestResult) help = NULL;
  int status;

  for (int i = 1; i < argc; i++)
    if (g_str_has_prefix (argv[i], "--backend="))
      {
        backend = argv[i] + strlen ("--backend=");
        memmove (&argv[i], &argv[i + 1], (argc - i) * sizeof (char *));
        argc--;
        i--;
      }

  g_test_init (&argc, &argv, NULL);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return g_test_run ();
    }
  /* The exec monitor is a separate layer: keep it out of the lock's tests. */
  help = test_run_full ((const char *[]) { paddock_run, "--help", NULL }, &(TestRunOptions) { .quiet = TRUE });
  has_no_monitor = strstr (help->out, "--no-monitor") != NULL;
  if (!make_tree ())
    {
      g_test_skip ("no directory outside the lock's grants (/tmp) to hold the test tree");
      return g_test_run ();
    }

  add ("write-outside", test_write_outside);
  add ("create-outside", test_create_outside);
  add ("rename-outside", test_rename_outside);
  add ("link-outside", test_link_outside);
  add ("truncate-outside", test_truncate_outside);
  add ("read-ssh-key", test_read_ssh_key);
  add ("read-credential-stores", test_read_credential_stores);
  add ("user-denials", test_user_denials);
  add ("symlink-in-project", test_symlink_in_project);
  add ("hard-link-into-project", test_hard_link_into_project);
  add ("proc-self-root", test_proc_self_root);
  add ("proc-pid-cwd", test_proc_cwd);
  add ("proc-pid-environ", test_proc_environ);
  add ("proc-pid-mem", test_proc_mem);
  add ("setuid", test_setuid);
  add ("inherited-fd", test_inherited_fd);
  add ("root-read-shadow", test_root_read_shadow);
  add ("root-raw-socket", test_root_raw_socket);
  add ("root-chown", test_root_chown);
  add ("setuid-bit", test_setuid_bit);
  add ("root-setcap", test_root_setcap);
  add ("sysv-shm", test_sysv_shm);
  add ("sysv-shm-unprivileged", test_sysv_shm_unprivileged);
  add ("posix-mqueue", test_posix_mqueue);
  add ("unshare-user", test_unshare_user);
  add ("tiocsti", test_tiocsti);
  add ("signal-supervisor", test_signal_supervisor);
  add ("own-settings-denied", test_own_settings_denied);
  add ("socket-runtime-dir", test_socket_runtime_dir);
  add ("socket-tmp", test_socket_tmp);
  add ("socket-run", test_socket_run);
  add ("socket-x11", test_socket_x11);
  add ("socket-abstract", test_socket_abstract);
  add ("socket-unprivileged", test_socket_unprivileged);
  add ("socket-warning", test_socket_warning);
  add ("socket-denied-folder", test_socket_denied_folder);
  add ("stat-denied-folder", test_stat_denied_folder);
  add ("chmod-outside", test_chmod_outside);
  add ("utime-outside", test_utime_outside);
  add ("setxattr-outside", test_setxattr_outside);
  add ("chmod-unprivileged", test_chmod_unprivileged);
  add ("other-terminal", test_other_terminal);
  add ("own-terminal", test_own_terminal);
  add ("prlimit-outside", test_prlimit_outside);
  add ("setpriority-outside", test_setpriority_outside);
  add ("affinity-outside", test_affinity_outside);
  add ("own-limits", test_own_limits);
  if (strcmp (backend, "namespaces") == 0)
    add ("proc-cmdline", test_proc_cmdline);
  add ("project-under-tmp", test_project_under_tmp);
  add ("build-and-run-c", test_build_and_run_c);
  add ("git", test_git);
  add ("profile-state-and-tmp", test_profile_state_and_tmp);
  add ("tui-draws", test_tui_draws);
  add ("ctrl-c", test_ctrl_c);
  add ("bad-input", test_bad_input);
  add ("session-files", test_session_files);
  add ("bad-backend-and-project", test_bad_backend_and_project);
  add ("lock-status", test_lock_status);
  add ("saved-choice", test_saved_choice);

  status = g_test_run ();
  test_remove_tree (base);
  g_free (base);
  g_free (home);
  g_free (project);
  g_free (outside);
  g_free (bindir);
  g_free (config_home);
  g_free (state_home);
  g_free (runtime_dir);
  g_free (runner_copy);
  return status;
}
