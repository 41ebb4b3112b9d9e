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
 *
 * The attempts live by subject in test-lock-files.c, test-lock-processes.c
 * and test-lock-usable.c; this file holds what they share and the test tree.
 */
#include "config.h"

#include "test-lock-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdlib.h>
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


const char *paddock_run;
static char *runner_copy;    /* paddock-run, copied into the test tree */
const char *backend = "landlock";
gboolean has_no_monitor;
char *base, *home, *project, *outside, *bindir, *config_home, *state_home, *runtime_dir;

char **
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
void
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
GPtrArray *
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
TestResult *
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

TestResult *
attempt_full (gboolean            locked,
              const char * const *extra,
              const char         *script,
              const char         *pid_file)
{
  return attempt_as (locked, extra, script, pid_file, NULL);
}

TestResult *
attempt (gboolean    locked,
         const char *script)
{
  return attempt_full (locked, NULL, script, NULL);
}

/* Runs in a new pty as its controlling terminal. @input is typed once
 * @when appears in the output (or at once when NULL). */
TestResult *
attempt_in_pty (gboolean            locked,
                const char * const *extra,
                const char         *script,
                const char         *when,
                const char         *input)
{
  g_autoptr(GPtrArray) argv = command_line (locked, extra, script);
  g_auto(GStrv) env = child_env ();
  TestResult *result = test_run_in_pty ((const char * const *) argv->pdata, (const char * const *) env, when, input);

  g_test_message ("%s in a pty: status %d, output «%s»", locked ? "locked" : "unlocked",
                  result->status, result->out);
  return result;
}

char *
read_file (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

char *
out_path (const char *name)
{
  return g_build_filename (outside, name, NULL);
}


/* Runs paddock-run ARGS as nobody in a user namespace where no further
 * user namespace can be made: no private places then. */
TestResult *
run_without_user_namespaces (GPtrArray *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) env = child_env ();

  g_ptr_array_add (argv, (char *) paddock_run);
  for (guint i = 0; i < args->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (args, i));
  g_ptr_array_add (argv, NULL);
  return test_run_without_user_namespaces ((const char * const *) argv->pdata, (const char * const *) env,
                                           project, base);
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

  backend = test_lock_init (&argc, &argv);

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
  add ("proc-cmdline", test_proc_cmdline);
  add ("project-under-tmp", test_project_under_tmp);
  add ("build-and-run-c", test_build_and_run_c);
  add ("git", test_git);
  add ("profile-state-and-tmp", test_profile_state_and_tmp);
  add ("tui-draws", test_tui_draws);
  add ("ctrl-c", test_ctrl_c);
  add ("job-control", test_job_control);
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
