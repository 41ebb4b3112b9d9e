/* paddock-session-command.c: the command line a session's terminal runs
 *
 * Every session runs under paddock-run, so whatever paddock-run enforces or
 * records applies in the GUI exactly as it does in a plain terminal.
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-session-command.h"

#include "paddock-build-tree.h"
#include "paddock-settings.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUNNER_NAME "paddock-run"

/* An executable regular file, given by an absolute path. */
gboolean
paddock_session_command_is_executable (const char *path)
{
  struct stat st;

  return path != NULL &&
         g_path_is_absolute (path) &&
         stat (path, &st) == 0 &&
         S_ISREG (st.st_mode) &&
         access (path, X_OK) == 0;
}

/**
 * paddock_session_command_find_runner:
 * @error: return location for an error
 *
 * Finds the paddock-run to start sessions with: $PADDOCK_RUN when set (an
 * explicit choice, so it is never silently replaced), else the copy built
 * beside this program when it runs from the build folder, else the installed
 * one in BINDIR, else the first along PATH.
 *
 * Returns: (transfer full): the absolute path of paddock-run, or %NULL with
 *   @error set
 */
char *
paddock_session_command_find_runner (GError **error)
{
  const char *override;
  g_autofree char *installed = NULL;
  g_autofree char *in_path = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  override = g_getenv ("PADDOCK_RUN");
  if (override != NULL && *override != '\0')
    {
      if (!paddock_session_command_is_executable (override))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("Cannot use %s from PADDOCK_RUN: it is not an executable file given by an absolute path"),
                       override);
          return NULL;
        }
      return g_strdup (override);
    }

  if (paddock_build_tree_contains_self ())
    {
      g_autofree char *built = g_build_filename (BUILD_SANDBOX_DIR, RUNNER_NAME, NULL);

      if (paddock_session_command_is_executable (built))
        return g_steal_pointer (&built);
    }

  installed = g_build_filename (BINDIR, RUNNER_NAME, NULL);
  if (paddock_session_command_is_executable (installed))
    return g_steal_pointer (&installed);

  in_path = g_find_program_in_path (RUNNER_NAME);
  if (in_path != NULL && g_path_is_absolute (in_path))
    return g_steal_pointer (&in_path);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("Cannot find %s: it is neither in %s nor on PATH"),
               RUNNER_NAME, BINDIR);
  return NULL;
}

/**
 * paddock_session_command_dup_user_shell:
 *
 * The shell a terminal should start: $SHELL as the session set it (as
 * xterm and most terminals do), else the login shell from the password
 * database, else /bin/sh. A choice that is not an executable file is
 * skipped rather than left to fail in the terminal.
 *
 * Returns: (transfer full): the absolute path of the shell
 */
char *
paddock_session_command_dup_user_shell (void)
{
  const char *from_env = g_getenv ("SHELL");
  struct passwd *pw;

  if (paddock_session_command_is_executable (from_env))
    return g_strdup (from_env);

  pw = getpwuid (getuid ());
  if (pw != NULL && paddock_session_command_is_executable (pw->pw_shell))
    return g_strdup (pw->pw_shell);

  return g_strdup ("/bin/sh");
}

/**
 * paddock_session_command_build_argv:
 * @runner: the absolute path of paddock-run
 * @project: the project the session runs in
 * @lock: whether the session runs under the folder lock
 * @net_locked: whether it runs under the network lock
 * @control_fd: the descriptor paddock-run will find the window's socket on
 *   (--control-fd), or -1 for none
 * @command: (nullable) (array zero-terminated=1): the command and its
 *   arguments, or %NULL for the user's shell as a login shell
 *
 * The lock is always asked for explicitly, --lock or --no-lock, so that the
 * session runs as the window showed when it started, whatever the saved
 * choice says by the time paddock-run reads it. The network lock is asked
 * for with --net=locked; an open network is left to paddock-run's default
 * (open, or the project's saved choice), as a paddock-run without the
 * network lock knows no --net at all.
 *
 * The window's socket is a --control-fd, whose client answers asks from
 * the agent's first exec on: with --watch-fd the window would count as
 * one only once its first request was read, and an exec racing it (a
 * login shell's profile) would be refused as with nobody attached.
 *
 * How asks go is the user's choice in the preferences, at this moment:
 * --ask-timeout from ask-timeout (how long an ask waits for an answer
 * before it is refused), --on-ask from unattended-asks (what an ask gets
 * while no window follows the session). $PADDOCK_ASK_TIMEOUT, a number
 * of seconds from 1 to 86400, comes before the preference; anything else
 * there is ignored. The tests use it for a deadline they can wait for.
 * Without the settings schema, paddock-run's defaults hold.
 *
 * Returns: (transfer full): the argument vector that runs @command in
 *   @project under paddock-run
 */
char **
paddock_session_command_build_argv (const char         *runner,
                                    PaddockProject     *project,
                                    gboolean            lock,
                                    gboolean            net_locked,
                                    int                 control_fd,
                                    const char * const *command)
{
  const char *ask_timeout = g_getenv ("PADDOCK_ASK_TIMEOUT");
  g_autoptr(GSettings) settings = paddock_settings_new ();
  guint64 seconds = 0;
  GPtrArray *argv;

  g_return_val_if_fail (runner != NULL, NULL);
  g_return_val_if_fail (PADDOCK_IS_PROJECT (project), NULL);

  argv = g_ptr_array_new ();
  g_ptr_array_add (argv, g_strdup (runner));
  g_ptr_array_add (argv, g_strdup ("--project"));
  g_ptr_array_add (argv, g_strdup (paddock_project_get_path (project)));
  g_ptr_array_add (argv, g_strdup (lock ? "--lock" : "--no-lock"));
  if (net_locked)
    g_ptr_array_add (argv, g_strdup ("--net=locked"));
  if (control_fd >= 0)
    {
      g_ptr_array_add (argv, g_strdup ("--control-fd"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", control_fd));
    }
  if (ask_timeout == NULL || !g_ascii_string_to_unsigned (ask_timeout, 10, 1, 24 * 3600, &seconds, NULL))
    seconds = settings != NULL ? (guint64) g_settings_get_int (settings, "ask-timeout") : 0;
  if (seconds > 0)
    {
      g_ptr_array_add (argv, g_strdup ("--ask-timeout"));
      g_ptr_array_add (argv, g_strdup_printf ("%" G_GUINT64_FORMAT, seconds));
    }
  if (settings != NULL)
    {
      g_ptr_array_add (argv, g_strdup ("--on-ask"));
      g_ptr_array_add (argv, g_settings_get_string (settings, "unattended-asks"));
    }
  g_ptr_array_add (argv, g_strdup ("--"));

  if (command != NULL && command[0] != NULL)
    {
      for (guint i = 0; command[i] != NULL; i++)
        g_ptr_array_add (argv, g_strdup (command[i]));
    }
  else
    {
      /* paddock-run takes argv[0] as the program to run, so ask for a login
       * shell with -l (bash, zsh, fish, dash and ksh all accept it) rather
       * than with the "-bash" convention. */
      g_ptr_array_add (argv, paddock_session_command_dup_user_shell ());
      g_ptr_array_add (argv, g_strdup ("-l"));
    }

  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (argv, FALSE);
}

/**
 * paddock_session_command_build_environ:
 * @shell: (nullable): the shell the session runs, to publish as $SHELL
 *
 * The environment for a session: Paddock's own, less the variables that
 * describe how Paddock itself was launched and must not leak to the
 * programs a session starts.
 *
 * Returns: (transfer full): the environment, as for execve()
 */
char **
paddock_session_command_build_environ (const char *shell)
{
  static const char * const launch_only[] = {
    "DESKTOP_STARTUP_ID",
    "XDG_ACTIVATION_TOKEN",
    "GIO_LAUNCHED_DESKTOP_FILE",
    "GIO_LAUNCHED_DESKTOP_FILE_PID",
    "INVOCATION_ID",
    "JOURNAL_STREAM",
    NULL
  };
  char **envp = g_get_environ ();

  for (guint i = 0; launch_only[i] != NULL; i++)
    envp = g_environ_unsetenv (envp, launch_only[i]);

  if (shell != NULL)
    envp = g_environ_setenv (envp, "SHELL", shell, TRUE);

  return envp;
}
