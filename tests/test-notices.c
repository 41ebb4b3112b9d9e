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

#include <string.h>
#include <unistd.h>

#define ENTER_ALTERNATE "\033[?1049h"
#define LEAVE_ALTERNATE "\033[?1049l"

static char *home;

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
  g_autoptr(TestResult) result = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *inner = "touch refused-marker; echo TUI-ASKED; read line";
  const char *output, *enter, *leave, *notice;

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

  result = test_run_in_pty ((const char *[]) { paddock_run, project_arg, policy_arg, "--no-lock", "--",
                                               tmux, "-L", socket_name, "-f", "/dev/null", "new-session", inner,
                                               NULL },
                            (const char * const *) env, "TUI-ASKED", "\r");
  output = result->out;

  g_assert_cmpint (result->status, ==, 0);
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
