/* test-notices.c: what paddock-run says while a full-screen agent runs headless never lands in its display
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A real full-screen program, tmux, runs under paddock-run in a pty with
 * nobody attached; in it a program the policy asks about is refused. The
 * pty's output between tmux's entering the alternate screen and its
 * leaving it must hold none of paddock-run's words, and the notice must
 * come after, once the terminal is the user's again.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ENTER_ALTERNATE "\033[?1049h"
#define LEAVE_ALTERNATE "\033[?1049l"

static char *home;

/* Runs @argv in a new pty as its controlling terminal; types @input once
 * @when is in the output. Returns everything the pty showed. */
static char *
run_in_pty (const char * const *argv,
            const char * const *env,
            const char         *when,
            const char         *input,
            int                *status)
{
  struct winsize size = { .ws_row = 24, .ws_col = 80 };
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean typed = FALSE;
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
      execve (argv[0], (char **) argv, (char **) env);
      _exit (127);
    }
  close (slave);

  for (;;)
    {
      struct pollfd pfd = { .fd = master, .events = POLLIN };
      char buf[4096];
      ssize_t n;

      if (!typed && strstr (out->str, when) != NULL)
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
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;  /* EIO: every holder of the pty is gone */
      g_string_append_len (out, buf, n);
    }
  close (master);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  *status = test_wait_status (wait_status);
  test_assert_no_sanitizer_report (out->str);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
test_full_screen (void)
{
  const char *paddock_run = g_getenv ("PADDOCK_RUN");
  g_autofree char *tmux = g_find_program_in_path ("tmux");
  g_autofree char *policy = g_build_filename (home, "ask-touch.json", NULL);
  g_autofree char *project = g_build_filename (home, "project", NULL);
  g_autofree char *policy_arg = g_strdup_printf ("--policy=%s", policy);
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *socket_name = g_strdup_printf ("paddock-notices-%d", (int) getpid ());
  g_autofree char *output = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *inner = "touch refused-marker; echo TUI-ASKED; read line";
  const char *enter, *leave, *notice;
  int status;

  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }
  if (tmux == NULL)
    {
      g_test_skip ("tmux is not installed (Debian: tmux): no full-screen program to run");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_assert_true (g_file_set_contents (policy,
    "{\"version\": 1, \"default\": \"allow\", \"rules\": [{\"name\": \"test-ask\", "
    "\"match\": {\"program\": \"touch\"}, \"action\": \"ask\", \"reason\": \"Asked in a test.\"}]}", -1, NULL));
  env = g_environ_setenv (env, "TERM", "xterm-256color", TRUE);
  env = g_environ_setenv (env, "SHELL", "/bin/sh", TRUE);
  env = g_environ_unsetenv (env, "TMUX");

  output = run_in_pty ((const char *[]) { paddock_run, project_arg, policy_arg, "--no-lock", "--",
                                          tmux, "-L", socket_name, "-f", "/dev/null", "new-session", inner, NULL },
                       (const char * const *) env, "TUI-ASKED", "\r", &status);

  g_assert_cmpint (status, ==, 0);
  enter = strstr (output, ENTER_ALTERNATE);
  g_assert_nonnull (enter);
  leave = strstr (enter, LEAVE_ALTERNATE);
  g_assert_nonnull (leave);
  /* Asked and refused, inside the full-screen program. */
  g_assert_nonnull (g_strstr_len (enter, leave - enter, "TUI-ASKED"));
  g_assert_null (g_strstr_len (enter, leave - enter, "paddock-run"));
  g_assert_null (g_strstr_len (enter, leave - enter, "needs an answer"));
  notice = strstr (leave, "paddock-run: touch needs an answer (rule test-ask) and nobody is attached to give one, "
                          "so it was refused");
  g_assert_nonnull (notice);
  /* Said once, after: never before the display either. */
  g_assert_true (strstr (output, "needs an answer") > leave);
  g_assert_null (strstr (notice + strlen ("paddock-run: touch needs an answer"), "needs an answer"));
  {
    g_autofree char *marker = g_build_filename (project, "refused-marker", NULL);

    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  home = test_home_new ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paddock/notices/full-screen", test_full_screen);
  status = g_test_run ();
  test_home_remove (home);
  return status;
}
