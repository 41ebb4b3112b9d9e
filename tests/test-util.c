/* test-util.c: what several test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The private HOME is not G_TEST_OPTION_ISOLATE_DIRS: in GLib 2.74 that
 * leaks the folders it replaces.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <sched.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

char *
test_home_new (void)
{
  g_autoptr(GError) error = NULL;
  char *home = g_dir_make_tmp ("paddock-test-home-XXXXXX", &error);
  g_autofree char *config = NULL;
  g_autofree char *state = NULL;
  g_autofree char *runtime = NULL;

  g_assert_no_error (error);
  config = g_build_filename (home, "config", NULL);
  state = g_build_filename (home, "state", NULL);
  runtime = g_build_filename (home, "runtime", NULL);
  g_assert_cmpint (g_mkdir (runtime, 0700), ==, 0);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  return home;
}

void
test_home_remove (char *home)
{
  test_remove_tree (home);
  g_free (home);
}

void
test_remove_tree (const char *path)
{
  const char *rm[] = { "rm", "-rf", "--", path, NULL };
  g_autoptr(TestResult) result = NULL;

  if (path == NULL)
    return;
  result = test_run_full (rm, &(TestRunOptions) { .quiet = TRUE });
  if (result->status != 0)
    g_printerr ("# cannot remove %s: %s", path, result->err);
}

void
test_result_free (TestResult *result)
{
  g_free (result->out);
  g_free (result->err);
  g_free (result);
}

void
test_assert_no_sanitizer_report (const char *text)
{
  g_assert_null (strstr (text, "Sanitizer"));
  g_assert_null (strstr (text, "runtime error:"));
}

int
test_wait_status (int wait_status)
{
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  if (WIFSIGNALED (wait_status))
    return 128 + WTERMSIG (wait_status);
  return -1;
}

GSubprocess *
test_spawn (const char * const   *argv,
            const TestRunOptions *options)
{
  static const TestRunOptions defaults = { 0 };
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;

  if (options == NULL)
    options = &defaults;
  launcher = options->launcher != NULL ? g_object_ref (options->launcher)
                                       : g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (options->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, options->cwd);
  if (options->env != NULL)
    g_subprocess_launcher_set_environ (launcher, (char **) options->env);
  if (options->setup != NULL)
    g_subprocess_launcher_set_child_setup (launcher, options->setup, options->setup_data, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  /* For test_finish()'s messages. */
  g_object_set_data_full (G_OBJECT (proc), "test-command", g_strjoinv (" ", (char **) argv), g_free);
  return proc;
}

typedef struct
{
  gboolean done;
  gboolean timed_out;
  GBytes  *out;
  GBytes  *err;
  GError  *error;
} Communication;

static void
communicated (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Communication *c = user_data;

  g_subprocess_communicate_finish (G_SUBPROCESS (object), result, &c->out, &c->err, &c->error);
  c->done = TRUE;
}

static gboolean
timed_out (gpointer user_data)
{
  ((Communication *) user_data)->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* @bytes as a string, whatever they hold; "" for none. */
static char *
bytes_text (GBytes *bytes)
{
  gsize length = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &length) : NULL;
  char *text = g_malloc (length + 1);

  if (length > 0)
    memcpy (text, data, length);
  text[length] = '\0';
  return text;
}

/* @text as a test message shows it: its first 4 KiB, and how much more
 * there was (meson takes a longer line for one that is not TAP). */
static char *
shown (const char *text)
{
  const gsize most = 4096;
  gsize length = text != NULL ? strlen (text) : 0;

  if (length <= most)
    return g_strdup (text != NULL ? text : "");
  return g_strdup_printf ("%.*s… [%" G_GSIZE_FORMAT " bytes more]", (int) most, text, length - most);
}

TestResult *
test_finish (GSubprocess          *proc,
             const TestRunOptions *options)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSource) timeout = NULL;
  Communication c = { 0 };
  TestResult *result = g_new0 (TestResult, 1);
  guint seconds = options != NULL && options->timeout > 0 ? options->timeout : 60;
  const char *command = g_object_get_data (G_OBJECT (proc), "test-command");

  g_main_context_push_thread_default (context);
  timeout = g_timeout_source_new_seconds (seconds);
  g_source_set_callback (timeout, timed_out, &c, NULL);
  g_source_attach (timeout, context);
  g_subprocess_communicate_async (proc, NULL, NULL, communicated, &c);
  while (!c.done && !c.timed_out)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  if (!c.done)
    {
      g_subprocess_force_exit (proc);
      g_error ("`%s` did not end within %u s", command, seconds);
    }
  g_main_context_pop_thread_default (context);
  g_assert_no_error (c.error);

  if (g_subprocess_get_if_signaled (proc))
    {
      result->signal = g_subprocess_get_term_sig (proc);
      result->status = 128 + result->signal;
    }
  else
    result->status = g_subprocess_get_exit_status (proc);
  result->out = bytes_text (c.out);
  result->err = bytes_text (c.err);
  g_clear_pointer (&c.out, g_bytes_unref);
  g_clear_pointer (&c.err, g_bytes_unref);
  if (options == NULL || !options->quiet)
    {
      g_autofree char *shown_command = shown (command);
      g_autofree char *shown_out = shown (result->out);
      g_autofree char *shown_err = shown (result->err);

      g_test_message ("%s: status %d, stdout \"%s\", stderr \"%s\"", shown_command, result->status, shown_out,
                      shown_err);
    }
  test_assert_no_sanitizer_report (result->err);
  return result;
}

TestResult *
test_run_full (const char * const   *argv,
               const TestRunOptions *options)
{
  g_autoptr(GSubprocess) proc = test_spawn (argv, options);

  return test_finish (proc, options);
}

TestResult *
test_run (const char * const *argv)
{
  return test_run_full (argv, NULL);
}

pid_t
test_pty_spawn (const char * const *argv,
                const char * const *env,
                int                 columns,
                int                *master)
{
  struct winsize size = { .ws_row = 24, .ws_col = columns };
  int slave;
  pid_t pid;

  g_assert_cmpint (openpty (master, &slave, NULL, NULL, &size), ==, 0);
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
      close (*master);
      execve (argv[0], (char **) argv, (char **) env);
      _exit (127);
    }
  close (slave);
  return pid;
}

gboolean
test_pty_read_until (int         master,
                     GString    *out,
                     gsize       from,
                     const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (what == NULL || strstr (out->str + from, what) == NULL)
    {
      struct pollfd pfd = { .fd = master, .events = POLLIN };
      char buf[4096];
      ssize_t n;

      if (g_get_monotonic_time () > deadline)
        return FALSE;
      if (poll (&pfd, 1, 200) <= 0)
        continue;
      n = read (master, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return what == NULL;  /* EIO: every holder of the pty is gone */
      g_string_append_len (out, buf, n);
    }
  return TRUE;
}

void
test_pty_type (int         master,
               const char *text)
{
  g_assert_cmpint (write (master, text, strlen (text)), ==, (gssize) strlen (text));
}

TestResult *
test_run_in_pty (const char * const *argv,
                 const char * const *env,
                 const char         *when,
                 const char         *input)
{
  g_autoptr(GString) out = g_string_new (NULL);
  TestResult *result = g_new0 (TestResult, 1);
  int master, wait_status;
  pid_t pid = test_pty_spawn (argv, env, 80, &master);

  if (input != NULL)
    {
      if (when != NULL && !test_pty_read_until (master, out, 0, when))
        {
          kill (pid, SIGKILL);
          g_error ("«%s» did not show in the pty; output so far: %s", when, out->str);
        }
      test_pty_type (master, input);
    }
  if (!test_pty_read_until (master, out, 0, NULL))
    {
      kill (pid, SIGKILL);
      g_error ("timed out in the pty; output so far: %s", out->str);
    }
  close (master);
  while (waitpid (pid, &wait_status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);

  result->status = test_wait_status (wait_status);
  result->out = g_string_free (g_steal_pointer (&out), FALSE);
  result->err = g_strdup ("");
  test_assert_no_sanitizer_report (result->out);
  return result;
}

void
test_become_nobody (gpointer user_data)
{
  if (setgroups (0, NULL) != 0 || setresgid (65534, 65534, 65534) != 0 ||
      setresuid (65534, 65534, 65534) != 0)
    _exit (125);
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

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_steal_pointer (&text);
}

TestResult *
test_run_without_user_namespaces (const char * const *argv,
                                  const char * const *env,
                                  const char         *cwd,
                                  const char         *scratch)
{
  g_autofree char *out_file = g_build_filename (scratch, "nons.out", NULL);
  g_autofree char *err_file = g_build_filename (scratch, "nons.err", NULL);
  TestResult *result = g_new0 (TestResult, 1);
  int go[2], ready[2];
  int wait_status;
  char byte = 0;
  pid_t pid;

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
      test_become_nobody (NULL);
      if (chdir (cwd) != 0 || dup2 (out, 1) < 0 || dup2 (err, 2) < 0)
        _exit (122);
      execve (argv[0], (char **) argv, (char **) env);
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
  result->out = read_text (out_file);
  result->err = read_text (err_file);
  g_test_message ("without user namespaces: status %d, stdout «%s», stderr «%s»",
                  result->status, result->out, result->err);
  test_assert_no_sanitizer_report (result->err);
  g_unlink (out_file);
  g_unlink (err_file);
  return result;
}

const char *
test_lock_init (int    *argc,
                char ***argv)
{
  const char *backend = "landlock";

  for (int i = 1; i < *argc; i++)
    if (g_str_has_prefix ((*argv)[i], "--backend="))
      {
        backend = (*argv)[i] + strlen ("--backend=");
        memmove (&(*argv)[i], &(*argv)[i + 1], (*argc - i) * sizeof (char *));
        (*argc)--;
        i--;
      }
  g_test_init (argc, argv, NULL);
  return backend;
}

char *
test_lock_unavailable (const char         *paddock_run,
                       const char         *backend,
                       const char * const *env)
{
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_autoptr(TestResult) status = test_run_full ((const char *[]) { paddock_run, "--lock-status", backend_arg, NULL },
                                                &(TestRunOptions) { .quiet = TRUE, .env = env });

  if (strstr (status->out, "mechanism: none") == NULL)
    return NULL;
  return g_strdup_printf ("no %s lock here: %s", backend, status->out);
}
