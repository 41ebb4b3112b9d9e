/* test-run.c: paddock-run runs a command, forwards signals and exits with its status
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *paddock_run;

/* paddock-run @args…, NULL-terminated. */
static GPtrArray *
run_argv (const char * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) paddock_run);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  return argv;
}

/* Starts paddock-run @args…, its stdout and stderr piped. */
static GSubprocess *
spawn_run (const char * const *args)
{
  g_autoptr(GPtrArray) argv = run_argv (args);

  return test_spawn ((const char * const *) argv->pdata, NULL);
}

/* Runs paddock-run to its end, which must be an exit, not a signal;
 * returns its exit status, its stdout and stderr. */
static int
run (const char * const *args,
     char              **out,
     char              **err)
{
  g_autoptr(GPtrArray) argv = run_argv (args);
  g_autoptr(TestResult) result = test_run ((const char * const *) argv->pdata);

  g_assert_cmpint (result->signal, ==, 0);
  if (out)
    *out = g_steal_pointer (&result->out);
  if (err)
    *err = g_steal_pointer (&result->err);
  return result->status;
}

/* Given closed standard input and error, paddock-run holds /dev/null
 * there, so that nothing it opens takes their place (its messages would
 * go into it: an eventfd, the audit log); the command still gets them
 * closed, as it would without paddock-run. */
static void
test_closed_std_fds (void)
{
  const char *script = "for fd in 0 1 2; do if [ -e /proc/self/fd/$fd ]; then echo open$fd; "
                       "else echo closed$fd; fi; done; readlink /proc/$PPID/fd/0 /proc/$PPID/fd/2";
  const char *argv[] = { "/bin/sh", "-c", "exec <&- 2>&-; exec \"$0\" -- sh -c \"$1\"", paddock_run, script, NULL };
  g_autoptr(TestResult) result = test_run (argv);

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->out, ==, "closed0\nopen1\nclosed2\n/dev/null\n/dev/null\n");
}

static void
test_exit_status (void)
{
  g_assert_cmpint (run ((const char *[]) { "--", "sh", "-c", "exit 0", NULL }, NULL, NULL), ==, 0);
  g_assert_cmpint (run ((const char *[]) { "--", "sh", "-c", "exit 7", NULL }, NULL, NULL), ==, 7);
  g_assert_cmpint (run ((const char *[]) { "--", "false", NULL }, NULL, NULL), ==, 1);
}

static void
test_signal_status (void)
{
  g_assert_cmpint (run ((const char *[]) { "--", "sh", "-c", "kill -TERM $$", NULL }, NULL, NULL), ==, 128 + SIGTERM);
  g_assert_cmpint (run ((const char *[]) { "--", "sh", "-c", "kill -KILL $$", NULL }, NULL, NULL), ==, 128 + SIGKILL);
}

static void
test_missing_command (void)
{
  g_autofree char *err = NULL;

  g_assert_cmpint (run ((const char *[]) { "--", "paddock-no-such-command", NULL }, NULL, &err), ==, 127);
  g_assert_nonnull (strstr (err, "paddock-no-such-command: command not found"));
  g_assert_null (strchr (strchr (err, '\n') + 1, '\n'));  /* one line */

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--", "/nonexistent/paddock-cmd", NULL }, NULL, &err), ==, 127);
  g_assert_nonnull (strstr (err, "/nonexistent/paddock-cmd"));
}

static void
test_not_executable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-run-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "script", NULL);
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (file, "#!/bin/sh\nexit 0\n", -1, NULL));
  g_assert_cmpint (g_chmod (file, 0644), ==, 0);
  /* As root access(X_OK) still needs one execute bit, so this holds for root too. */
  g_assert_cmpint (run ((const char *[]) { "--", file, NULL }, NULL, &err), ==, 126);
  g_assert_nonnull (strstr (err, file));

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--", dir, NULL }, NULL, &err), ==, 126);

  g_unlink (file);
  g_rmdir (dir);
}

/* A script without "#!" is run by the shell, as execvp(), env and nohup
 * run it (paddock-run said "Exec format error"); a binary is not. */
static void
test_script_without_shebang (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-run-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "script", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (file, "echo \"ran with $# arguments: $1 $2\"\nexit 7\n", -1, NULL));
  g_assert_cmpint (g_chmod (file, 0755), ==, 0);
  g_assert_cmpint (run ((const char *[]) { "--", file, "a", "b c", NULL }, &out, &err), ==, 7);
  g_assert_cmpstr (out, ==, "ran with 2 arguments: a b c\n");
  g_assert_cmpstr (err, ==, "");

  /* A binary the kernel cannot run (a NUL byte in its first line) is no
   * script: the shell would read machine code as commands. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_set_contents (file, "\177ELF\002\001\001\000\000echo ran\n", 17, NULL));
  g_assert_cmpint (g_chmod (file, 0755), ==, 0);
  g_assert_cmpint (run ((const char *[]) { "--", file, NULL }, &out, &err), ==, 126);
  g_assert_cmpstr (out, ==, "");
  if (strstr (err, "Exec format error") == NULL)
    g_error ("expected Exec format error, got: %s", err);

  g_unlink (file);
  g_rmdir (dir);
}

static void
test_project_dir (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-run-XXXXXX", NULL);
  g_autofree char *real = realpath (dir, NULL);
  g_autofree char *out = NULL;
  g_autofree char *expected = g_strdup_printf ("%s\n", real);

  g_assert_cmpint (run ((const char *[]) { "--project", dir, "--", "pwd", NULL }, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, expected);
  /* $PWD says it too, whatever it said to paddock-run. */
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run ((const char *[]) { "--project", dir, "--", "printenv", "PWD", NULL }, &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, expected);
  g_rmdir (dir);
}

static void
test_bad_project (void)
{
  g_autofree char *err = NULL;
  g_autofree char *file = NULL;
  int fd;

  g_assert_cmpint (run ((const char *[]) { "--project", "/nonexistent/paddock-proj", "--", "true", NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "/nonexistent/paddock-proj"));

  fd = g_file_open_tmp ("paddock-run-XXXXXX", &file, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--project", file, "--", "true", NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "Not a directory"));
  g_unlink (file);

  /* A name made to drive the terminal is said, escaped: the project is
   * often the current folder, which an agent may have made. */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--project", "/nonexistent/odd\033]0;title\007\033[2J", "--", "true", NULL },
                        NULL, &err), ==, 2);
  g_assert_null (strpbrk (err, "\033\007"));
  g_assert_nonnull (strstr (err, "paddock-run: project /nonexistent/odd\\e]0;title\\x07\\e[2J: No such file"));
}

static void
test_usage (void)
{
  g_autofree char *err = NULL;

  g_assert_cmpint (run ((const char *[]) { "--frobnicate", "--", "true", NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--frobnicate"));
  g_assert_nonnull (strstr (err, "Usage:"));
  /* The mistake first, then the usage line and where the options are: not
   * the whole --help, under which the mistake would scroll away. */
  {
    g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

    g_assert_true (g_str_has_prefix (err, "paddock-run: "));
    g_assert_nonnull (strstr (err, "--help"));
    g_assert_cmpuint (g_strv_length (lines), <=, 4);
  }

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run ((const char *[]) { "--", NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "no command"));

  /* An empty name, which would have meant the current folder. */
  {
    const struct { const char *arg; const char *says; } empty[] = {
      { "--project=", "--project names no folder" },
      { "--policy=", "--policy names no file" },
      { "--audit=", "--audit names no file" },
      { "--grant=", "--grant names no path" },
      { "--grant=:rw", "--grant names no path" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
      {
        g_autofree char *said = NULL;

        g_assert_cmpint (run ((const char *[]) { "--lock", empty[i].arg, "--", "true", NULL }, NULL, &said), ==, 2);
        if (strstr (said, empty[i].says) == NULL)
          g_error ("%s: expected \"%s\", got: %s", empty[i].arg, empty[i].says, said);
      }
  }

  {
    g_autofree char *out = NULL;

    g_assert_cmpint (run ((const char *[]) { "--version", NULL }, &out, NULL), ==, 0);
    g_assert_cmpstr (out, ==, "paddock-run " PACKAGE_VERSION "\n");
  }
}

/* The command reports it is ready, gets @sig sent to the runner, and must
 * see it: its trap exits with a status that only the trap uses. */
static void
check_forwarded (int         sig,
                 const char *name)
{
  g_autofree char *script = g_strdup_printf ("trap 'echo got-%s; exit 42' %s; echo ready; "
                                             "while :; do sleep 0.02; done", name, name);
  g_autoptr(GSubprocess) proc = spawn_run ((const char *[]) { "--", "sh", "-c", script, NULL });
  g_autoptr(GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *got = NULL;
  g_autofree char *expected = g_strdup_printf ("got-%s", name);
  g_autoptr(TestResult) result = NULL;

  line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ready");

  kill (atoi (g_subprocess_get_identifier (proc)), sig);
  got = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, expected);

  result = test_finish (proc, NULL);
  /* The runner survived the signal and passed on the command's own status. */
  g_assert_cmpint (result->signal, ==, 0);
  g_assert_cmpint (result->status, ==, 42);
}

static void
test_forward_signals (void)
{
  check_forwarded (SIGTERM, "TERM");
  check_forwarded (SIGINT, "INT");
  check_forwarded (SIGHUP, "HUP");
  check_forwarded (SIGWINCH, "WINCH");
}

static gboolean
pid_alive (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *contents = NULL;
  char *paren;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;
  paren = strrchr (contents, ')');
  return paren != NULL && paren[2] != 'Z';
}

static void
test_orphans_killed (void)
{
  g_autofree char *out = NULL;
  pid_t daemon_pid;

  /* A double-forked, setsid() daemon must not outlive its session. */
  g_assert_cmpint (run ((const char *[]) { "--", "sh", "-c",
                        "(setsid sleep 1000 >/dev/null 2>&1 & echo $!) ; exit 5", NULL },
                        &out, NULL), ==, 5);
  daemon_pid = atoi (out);
  g_assert_cmpint (daemon_pid, >, 1);
  g_assert_false (pid_alive (daemon_pid));
}

/* Limits another process of the user's set on paddock-run mid-session
 * (here its agent, which no lock confines): four open files, no file
 * growth, the lowest priority. It does not spin or flood, says once what
 * it cannot do (watch all of its descriptors at once, keep its audit log),
 * still ends the setsid() daemon the agent left without /proc, and exits
 * with the agent's status. Before, it polled in a loop at full CPU, its
 * warnings filling the disk, until killed. */
static void
test_under_limits (void)
{
  g_autoptr(GPtrArray) argv = run_argv ((const char *[]) {
    "--", "sh", "-c",
    "prlimit --pid $PPID --nofile=4:4 --fsize=0:0 && renice -n 19 -p $PPID >/dev/null && "
    "(setsid sleep 1000 >/dev/null 2>&1 & echo $!) && "
    "i=0; while [ $i -lt 400 ]; do /bin/true; i=$((i+1)); done; exit 7", NULL });
  TestRunOptions options = { .timeout = 60 };
  g_autoptr(TestResult) result = test_run_full ((const char * const *) argv->pdata, &options);
  pid_t daemon_pid = atoi (result->out);

  g_assert_cmpint (result->status, ==, 7);
  g_assert_cmpint (daemon_pid, >, 1);
  g_assert_false (pid_alive (daemon_pid));
  g_assert_nonnull (strstr (result->err, "paddock-run: warning: its open-file limit was lowered to 4"));
  g_assert_nonnull (strstr (result->err, "File too large"));
  g_assert_nonnull (strstr (result->err, "are missing from the audit log"));
  g_assert_cmpuint (strlen (result->err), <, 4096);
}

/* Relative XDG folders are no folders (the XDG specification says to
 * ignore them): paddock-run, which runs from the project, keeps its log,
 * settings and socket in the default places, not in the project. */
static void
test_relative_xdg (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-run-XXXXXX", NULL);
  g_autofree char *state = g_build_filename (g_get_home_dir (), ".local", "state", "paddock", NULL);
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(TestResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;
  guint n_logs = 0;

  test_remove_tree (state);
  env = g_environ_setenv (env, "XDG_STATE_HOME", "rel-state", TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", "rel-config", TRUE);
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", "rel-run", TRUE);
  result = test_run_full ((const char *[]) { paddock_run, "--project", dir, "--", "true", NULL },
                          &(TestRunOptions) { .env = (const char * const *) env });
  g_assert_cmpint (result->status, ==, 0);

  for (const char **made = (const char *[]) { "rel-state", "rel-config", "rel-run", NULL }; *made; made++)
    {
      g_autofree char *path = g_build_filename (dir, *made, NULL);

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        g_error ("paddock-run made %s in the project", *made);
    }
  listing = g_dir_open (state, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    n_logs += g_str_has_suffix (name, ".jsonl");
  g_assert_cmpuint (n_logs, ==, 1);
  test_remove_tree (dir);
}

/* Runs paddock-run --control-fd 5 with @fd as 5, and a command that
 * leaves a file; returns paddock-run's status, its stderr in @err, and
 * whether the command ran. */
static int
run_with_control_fd (int        fd,
                     char     **err,
                     gboolean  *ran)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-run-XXXXXX", NULL);
  g_autofree char *mark = g_build_filename (dir, "ran", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(TestResult) result = NULL;

  g_subprocess_launcher_take_fd (launcher, fd, 5);
  result = test_run_full ((const char *[]) { paddock_run, "--project", dir, "--control-fd", "5", "--", "touch", mark, NULL },
                          &(TestRunOptions) { .launcher = launcher });
  *err = g_steal_pointer (&result->err);
  *ran = g_file_test (mark, G_FILE_TEST_EXISTS);
  test_remove_tree (dir);
  g_assert_cmpint (result->signal, ==, 0);
  return result->status;
}

/* --control-fd is the window's end of a socket pair: anything else is
 * refused before the agent starts (a file or a pipe used to be reported
 * while the agent ran on without its client). */
static void
test_control_fd_kind (void)
{
  int pair[2];
  int pipe_fds[2];
  gboolean ran = TRUE;

  {
    g_autofree char *err = NULL;

    g_assert_cmpint (run_with_control_fd (open ("/etc/passwd", O_RDONLY | O_CLOEXEC), &err, &ran), ==, 2);
    g_assert_nonnull (strstr (err, "paddock-run: --control-fd 5 is not a Unix stream socket\n"));
    g_assert_false (ran);
  }
  {
    g_autofree char *err = NULL;

    g_assert_cmpint (pipe2 (pipe_fds, O_CLOEXEC), ==, 0);
    g_assert_cmpint (run_with_control_fd (pipe_fds[1], &err, &ran), ==, 2);
    g_assert_nonnull (strstr (err, "is not a Unix stream socket"));
    g_assert_false (ran);
    close (pipe_fds[0]);
  }
  {
    g_autofree char *err = NULL;

    g_assert_cmpint (socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair), ==, 0);
    g_assert_cmpint (run_with_control_fd (pair[1], &err, &ran), ==, 2);
    g_assert_nonnull (strstr (err, "is not a Unix stream socket"));
    g_assert_false (ran);
    close (pair[0]);
  }
  /* A socket pair's end: the command runs. */
  {
    g_autofree char *err = NULL;

    g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
    g_assert_cmpint (run_with_control_fd (pair[1], &err, &ran), ==, 0);
    g_assert_true (ran);
    g_assert_cmpstr (err, ==, "");
    close (pair[0]);
  }
}

int
main (int   argc,
      char *argv[])
{
  char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  paddock_run = g_getenv ("PADDOCK_RUN");
  g_assert_nonnull (paddock_run);

  g_test_add_func ("/paddock/run/exit-status", test_exit_status);
  g_test_add_func ("/paddock/run/closed-std-fds", test_closed_std_fds);
  g_test_add_func ("/paddock/run/signal-status", test_signal_status);
  g_test_add_func ("/paddock/run/missing-command", test_missing_command);
  g_test_add_func ("/paddock/run/not-executable", test_not_executable);
  g_test_add_func ("/paddock/run/script-without-shebang", test_script_without_shebang);
  g_test_add_func ("/paddock/run/project-dir", test_project_dir);
  g_test_add_func ("/paddock/run/bad-project", test_bad_project);
  g_test_add_func ("/paddock/run/usage", test_usage);
  g_test_add_func ("/paddock/run/forward-signals", test_forward_signals);
  g_test_add_func ("/paddock/run/orphans-killed", test_orphans_killed);
  g_test_add_func ("/paddock/run/under-limits", test_under_limits);
  g_test_add_func ("/paddock/run/relative-xdg", test_relative_xdg);
  g_test_add_func ("/paddock/run/control-fd-kind", test_control_fd_kind);

  status = g_test_run ();
  test_home_remove (home);
  return status;
}
