/* test-session-command.c: the command line a session's terminal runs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paddock-build-tree.h"
#include "paddock-session-command.h"
#include "paddock-settings.h"

static char *
expected_passwd_shell (void)
{
  struct passwd *pw = getpwuid (getuid ());

  if (pw != NULL && pw->pw_shell != NULL && g_path_is_absolute (pw->pw_shell) &&
      access (pw->pw_shell, X_OK) == 0)
    return g_strdup (pw->pw_shell);
  return g_strdup ("/bin/sh");
}

static void
test_user_shell (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("SHELL"));
  g_autofree char *from_passwd = expected_passwd_shell ();
  g_autofree char *shell = NULL;

  g_setenv ("SHELL", "/bin/sh", TRUE);
  shell = paddock_session_command_dup_user_shell ();
  g_assert_cmpstr (shell, ==, "/bin/sh");
  g_clear_pointer (&shell, g_free);

  /* Not an executable file: fall back to the password database. */
  g_setenv ("SHELL", "/nonexistent/shell", TRUE);
  shell = paddock_session_command_dup_user_shell ();
  g_assert_cmpstr (shell, ==, from_passwd);
  g_clear_pointer (&shell, g_free);

  g_setenv ("SHELL", "/etc", TRUE);
  shell = paddock_session_command_dup_user_shell ();
  g_assert_cmpstr (shell, ==, from_passwd);
  g_clear_pointer (&shell, g_free);

  g_setenv ("SHELL", "sh", TRUE);
  shell = paddock_session_command_dup_user_shell ();
  g_assert_cmpstr (shell, ==, from_passwd);
  g_clear_pointer (&shell, g_free);

  g_unsetenv ("SHELL");
  shell = paddock_session_command_dup_user_shell ();
  g_assert_cmpstr (shell, ==, from_passwd);

  if (saved != NULL)
    g_setenv ("SHELL", saved, TRUE);
}

static void
test_find_runner (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("PADDOCK_RUN"));
  g_autofree char *built = g_build_filename (BUILD_SANDBOX_DIR, "paddock-run", NULL);
  g_autofree char *runner = NULL;

  /* Running from the build folder: the paddock-run built beside us. */
  g_assert_true (paddock_build_tree_contains_self ());
  g_unsetenv ("PADDOCK_RUN");
  runner = paddock_session_command_find_runner (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (runner, ==, built);
  g_clear_pointer (&runner, g_free);

  /* An explicit choice wins, and a bad one is an error, not a fallback. */
  g_setenv ("PADDOCK_RUN", "/bin/true", TRUE);
  runner = paddock_session_command_find_runner (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (runner, ==, "/bin/true");
  g_clear_pointer (&runner, g_free);

  g_setenv ("PADDOCK_RUN", "/nonexistent/paddock-run", TRUE);
  g_assert_null (paddock_session_command_find_runner (&error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/paddock-run"));
  g_clear_error (&error);

  g_setenv ("PADDOCK_RUN", "paddock-run", TRUE);
  g_assert_null (paddock_session_command_find_runner (&error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_setenv ("PADDOCK_RUN", "/etc", TRUE);
  g_assert_null (paddock_session_command_find_runner (&error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  if (saved != NULL)
    g_setenv ("PADDOCK_RUN", saved, TRUE);
  else
    g_unsetenv ("PADDOCK_RUN");
}

/* The argument after @option before the command, or NULL. */
static const char *
option_value (char       **argv,
              const char  *option)
{
  for (guint i = 0; argv[i] != NULL && !g_str_equal (argv[i], "--"); i++)
    if (g_str_equal (argv[i], option))
      return argv[i + 1];
  return NULL;
}

/* Where the command starts, after "--". */
static guint
command_index (char **argv)
{
  for (guint i = 0; argv[i] != NULL; i++)
    if (g_str_equal (argv[i], "--"))
      return i + 1;
  g_assert_not_reached ();
}

static void
test_build_argv (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(GSettings) settings = paddock_settings_new ();
  g_auto(GStrv) argv = NULL;
  const char *command[] = { "claude", "--resume", NULL };
  guint at;

  project = paddock_project_new_for_path ("/", &error);
  g_assert_no_error (error);
  /* The tests run from the build folder, beside the compiled schema. */
  g_assert_nonnull (settings);

  g_setenv ("SHELL", "/bin/sh", TRUE);
  g_unsetenv ("PADDOCK_ASK_TIMEOUT");
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, FALSE, FALSE, -1, NULL);
  g_assert_cmpstr (argv[0], ==, "/usr/bin/paddock-run");
  g_assert_cmpstr (argv[1], ==, "--project");
  g_assert_cmpstr (argv[2], ==, "/");
  g_assert_cmpstr (argv[3], ==, "--no-lock");
  g_assert_null (option_value (argv, "--control-fd"));
  at = command_index (argv);
  g_assert_cmpuint (g_strv_length (argv), ==, at + 2);
  g_assert_cmpstr (argv[at], ==, "/bin/sh");
  g_assert_cmpstr (argv[at + 1], ==, "-l");
  /* How asks go, as the preferences say by default. */
  g_assert_cmpstr (option_value (argv, "--ask-timeout"), ==, "120");
  g_assert_cmpstr (option_value (argv, "--on-ask"), ==, "deny");
  g_clear_pointer (&argv, g_strfreev);

  /* The lock is asked for explicitly either way, never left to the saved choice. */
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, TRUE, FALSE, -1, command);
  g_assert_cmpstr (argv[3], ==, "--lock");
  at = command_index (argv);
  g_assert_cmpuint (g_strv_length (argv), ==, at + 2);
  g_assert_cmpstr (argv[at], ==, "claude");
  g_assert_cmpstr (argv[at + 1], ==, "--resume");

  /* The network lock is asked for where the project keeps it; an open
   * network is paddock-run's default, and no option. */
  g_assert_false (g_strv_contains ((const char * const *) argv, "--net=locked"));
  g_clear_pointer (&argv, g_strfreev);
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, TRUE, TRUE, -1, command);
  g_assert_cmpstr (argv[3], ==, "--lock");
  g_assert_cmpstr (argv[4], ==, "--net=locked");
  at = command_index (argv);
  g_assert_cmpstr (argv[at], ==, "claude");
  g_clear_pointer (&argv, g_strfreev);
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, FALSE, TRUE, -1, command);
  g_assert_true (g_strv_contains ((const char * const *) argv, "--net=locked"));
  g_clear_pointer (&argv, g_strfreev);

  /* The window's socket: a client that answers asks from the start. */
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, TRUE, FALSE, 3, command);
  g_assert_cmpstr (argv[4], ==, "--control-fd");
  g_assert_cmpstr (argv[5], ==, "3");
  g_clear_pointer (&argv, g_strfreev);

  /* The preferences, as they are when the session starts. */
  g_settings_set_int (settings, "ask-timeout", 45);
  g_settings_set_string (settings, "unattended-asks", "wait");
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, FALSE, FALSE, 3, command);
  g_assert_cmpstr (option_value (argv, "--ask-timeout"), ==, "45");
  g_assert_cmpstr (option_value (argv, "--on-ask"), ==, "wait");
  g_clear_pointer (&argv, g_strfreev);

  /* $PADDOCK_ASK_TIMEOUT, when it is a number of seconds paddock-run takes, comes first. */
  g_setenv ("PADDOCK_ASK_TIMEOUT", "7", TRUE);
  argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, FALSE, FALSE, 3, command);
  g_assert_cmpstr (option_value (argv, "--ask-timeout"), ==, "7");
  g_clear_pointer (&argv, g_strfreev);

  for (guint i = 0; i < 4; i++)
    {
      const char *ignored[] = { "", "0", "seven", "86401" };

      g_setenv ("PADDOCK_ASK_TIMEOUT", ignored[i], TRUE);
      argv = paddock_session_command_build_argv ("/usr/bin/paddock-run", project, FALSE, FALSE, -1, command);
      g_assert_cmpstr (option_value (argv, "--ask-timeout"), ==, "45");
      g_clear_pointer (&argv, g_strfreev);
    }
  g_unsetenv ("PADDOCK_ASK_TIMEOUT");
  g_settings_reset (settings, "ask-timeout");
  g_settings_reset (settings, "unattended-asks");
}

static void
test_build_environ (void)
{
  g_auto(GStrv) envp = NULL;

  g_setenv ("DESKTOP_STARTUP_ID", "launcher-token", TRUE);
  g_setenv ("XDG_ACTIVATION_TOKEN", "launcher-token", TRUE);
  g_setenv ("PADDOCK_TEST_KEPT", "kept", TRUE);

  envp = paddock_session_command_build_environ ("/bin/sh");
  g_assert_null (g_environ_getenv (envp, "DESKTOP_STARTUP_ID"));
  g_assert_null (g_environ_getenv (envp, "XDG_ACTIVATION_TOKEN"));
  g_assert_cmpstr (g_environ_getenv (envp, "PADDOCK_TEST_KEPT"), ==, "kept");
  g_assert_cmpstr (g_environ_getenv (envp, "SHELL"), ==, "/bin/sh");

  g_unsetenv ("DESKTOP_STARTUP_ID");
  g_unsetenv ("XDG_ACTIVATION_TOKEN");
  g_unsetenv ("PADDOCK_TEST_KEPT");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/session-command/user-shell", test_user_shell);
  g_test_add_func ("/paddock/session-command/find-runner", test_find_runner);
  g_test_add_func ("/paddock/session-command/build-argv", test_build_argv);
  g_test_add_func ("/paddock/session-command/build-environ", test_build_environ);

  return g_test_run ();
}
