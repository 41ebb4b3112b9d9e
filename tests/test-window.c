/* test-window.c: the paddock window, in process: its terminal runs the login shell in the project under paddock-run, tabs follow the terminal, a folder that cannot be opened shows why, a busy tab asks before it closes
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-project-config.h"
#include "paddock-session-page.h"
#include "paddock-settings.h"
#include "paddock-toasts.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

static void
test_usage (void)
{
  const char *unknown[] = { "--no-such-option", NULL };
  const char *two_dirs[] = { "/tmp", "/usr", NULL };
  const char *version[] = { "--version", NULL };
  const char *unknown_agent[] = { "--agent", "no-such-agent", "/tmp", NULL };
  const char *both_locks[] = { "--lock", "--no-lock", "/tmp", NULL };
  const char *agent_and_command[] = { "--agent", "shell", "/tmp", "--", "vim", NULL };
  int status;

  /* Bad command lines fail before any window opens, so no display is needed. */
  {
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (unknown, &status, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "--no-such-option"));
    g_assert_nonnull (strstr (err, "Usage:"));
    g_assert_nonnull (strstr (err, "[DIR]"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (two_dirs, &status, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "Usage:"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (version, &status, &out, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (out, ==, PACKAGE_NAME " " PACKAGE_VERSION "\n");
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    /* Named, with the agents there are. */
    run_paddock (unknown_agent, &status, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "no-such-agent"));
    g_assert_nonnull (strstr (err, "claude, codex, gemini, opencode, aider, shell"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (both_locks, &status, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "--lock and --no-lock"));
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (agent_and_command, &status, &out, &err);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (err, "--agent and a COMMAND"));
  }
}

static gboolean
window_title_is (gpointer data)
{
  return g_strcmp0 (gtk_window_get_title (GTK_WINDOW (data)), "hello-title") == 0;
}

static void
test_shell_runs_under_paddock_run (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *comm_path = NULL;
  g_autofree char *comm = NULL;
  g_autofree char *expect_ppid = NULL;
  g_autofree char *expect_cwd = NULL;
  g_autoptr(GError) error = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  AdwTabView *tab_view;
  GtkWindow *window;
  gboolean destroyed = FALSE;
  GPid runner;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);

  /* Read back what the shell prints, not what the terminal echoes. */
  feed (terminal, "echo paddock-$((6*7))\n");
  assert_terminal_shows (terminal, "paddock-42");

  /* The shell's parent is the session's paddock-run, and it runs in the project. */
  runner = paddock_session_page_get_runner_pid (page);
  comm_path = g_strdup_printf ("/proc/%d/comm", runner);
  g_file_get_contents (comm_path, &comm, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_strchomp (comm), ==, "paddock-run");

  feed (terminal, "echo \"ppid=$PPID.\"\n");
  expect_ppid = g_strdup_printf ("ppid=%d.", runner);
  assert_terminal_shows (terminal, expect_ppid);

  feed (terminal, "echo \"cwd=$(pwd -P).\"\n");
  expect_cwd = g_strdup_printf ("cwd=%s.", dir);
  assert_terminal_shows (terminal, expect_cwd);

  /* The window takes the title the terminal is given; the tab is named by
   * the project and the agent, which tell tabs apart. */
  feed (terminal, "printf '\\033]0;hello-title\\007'\n");
  {
    g_autofree char *name = g_path_get_basename (dir);
    g_autofree char *tab_title = g_strdup_printf ("%s · Shell", name);
    TitleWait wait = { tab_view, tab_title };

    g_assert_true (wait_for (window_title_is, (gpointer) window, "the window's title"));
    g_assert_true (tab_title_is (&wait));
    g_assert_nonnull (strstr (adw_tab_page_get_tooltip (adw_tab_view_get_selected_page (tab_view)), "hello-title"));
  }

  /* A clean exit closes the tab, and with the last tab the window. */
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (set_flag), &destroyed);
  feed (terminal, "exit\n");
  if (!wait_for (flag_set, &destroyed, "the window to close"))
    {
      g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);

      g_test_message ("session running: %d; the terminal shows:\n%s",
                      paddock_session_page_get_running (page), text);
      g_assert_not_reached ();
    }
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (runner), "paddock-run to be reaped"));

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_failed_exit_keeps_tab (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  AdwTabView *tab_view;
  GtkWindow *window;
  gboolean destroyed = FALSE;
  GPid first, second;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  first = paddock_session_page_get_runner_pid (page);

  /* paddock-run exits with the shell's status; the tab stays to show it. */
  feed (terminal, "exit 3\n");
  g_assert_true (wait_for (session_stopped, page, "the session to end"));
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (first), "paddock-run to be reaped"));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  {
    LabelWait wait = { GTK_WIDGET (page), "status 3" };

    g_assert_true (wait_for (label_shown, &wait, "the exit status to show"));
  }

  /* Restarting, from the bar's button, runs a new session in the same tab
   * and gives the keyboard back to the terminal. */
  {
    GtkWidget *restart = find_button_for_action (GTK_WIDGET (page), "session.restart");

    g_assert_nonnull (restart);
    gtk_widget_grab_focus (restart);
    g_assert_false (gtk_widget_is_focus (GTK_WIDGET (terminal)));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.restart", NULL));
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (terminal)));
  g_assert_true (wait_for (session_running, page, "the restarted session"));
  second = paddock_session_page_get_runner_pid (page);
  g_assert_cmpint (second, !=, first);
  g_assert_true (wait_for (terminal_has_prompt, terminal, "the restarted shell's prompt"));
  feed (terminal, "echo restarted-$((1+1))\n");
  assert_terminal_shows (terminal, "restarted-2");

  /* Closing the last tab by its action ends its session and closes the window. */
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (set_flag), &destroyed);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  g_assert_true (wait_for (flag_set, &destroyed, "the window to close"));
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (second), "the closed tab's paddock-run to end"));

  destroy_windows (app);
  g_rmdir (dir);
}

/* Closing a tab whose shell runs a program, or the window, asks first and
 * can be taken back, as in GNOME Console; a tab at its prompt just goes. */
static void
test_close_running_asks (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  DialogWait tab_question = { "Close Running Tab?", NULL };
  DialogWait window_question = { "Close Window?", NULL };
  PaddockSessionPage *first, *second;
  VteTerminal *terminal;
  GtkWindow *window;
  gboolean destroyed = FALSE;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &first);
  second = open_tab (window);
  feed (paddock_session_page_get_terminal (second), "sleep 1000\n");
  g_assert_true (wait_for (tab_runs_sleep, second, "sleep to run in the second tab"));
  g_assert_false (tab_busy (first));

  /* The busy tab: asked, kept on Cancel, closed on Close. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  g_assert_true (wait_for (dialog_shown, &tab_question, "the question"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (tab_question.dialog), "sleep"));
  /* A response closes the dialog itself. */
  adw_message_dialog_response (tab_question.dialog, "cancel");
  g_assert_cmpint (n_pages_of (window), ==, 2);
  g_assert_true (tab_busy (second));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  g_assert_true (wait_for (dialog_shown, &tab_question, "the question again"));
  adw_message_dialog_response (tab_question.dialog, "close");
  g_assert_true (wait_for (one_page_left, window, "the busy tab to close"));

  /* The window, with a program running in its last tab. */
  feed (terminal, "sleep 1000\n");
  g_assert_true (wait_for (tab_runs_sleep, first, "sleep to run in the first tab"));
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (set_flag), &destroyed);
  gtk_window_close (window);
  g_assert_true (wait_for (dialog_shown, &window_question, "the window's question"));
  adw_message_dialog_response (window_question.dialog, "cancel");
  g_assert_false (destroyed);
  gtk_window_close (window);
  g_assert_true (wait_for (dialog_shown, &window_question, "the window's question again"));
  adw_message_dialog_response (window_question.dialog, "close");
  g_assert_true (wait_for (flag_set, &destroyed, "the window to close"));

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_new_tab (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page, *second_page;
  VteTerminal *terminal;
  AdwTabView *tab_view;
  GtkWindow *window;
  GPid first, second;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  first = paddock_session_page_get_runner_pid (page);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  second_page = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (second_page != page);
  g_assert_true (paddock_session_page_get_project (second_page) == paddock_session_page_get_project (page));
  g_assert_true (wait_for (session_running, second_page, "the second session"));
  second = paddock_session_page_get_runner_pid (second_page);
  g_assert_cmpint (second, !=, first);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (second), "the closed tab's paddock-run to end"));
  g_assert_cmpint (kill (first, 0), ==, 0);

  destroy_windows (app);
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (first), "the last paddock-run to end"));
  g_rmdir (dir);
}

static void
test_missing_directory (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *file = NULL;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();

  missing = g_build_filename (dir, "no-such-folder", NULL);
  window = paddock_application_open_directory (app, missing, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  assert_error_window (window, missing, ENOENT);
  g_clear_error (&error);

  file = g_build_filename (dir, "a-file", NULL);
  g_file_set_contents (file, "not a folder\n", -1, &error);
  g_assert_no_error (error);
  window = paddock_application_open_directory (app, file, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  assert_error_window (window, file, ENOTDIR);

  destroy_windows (app);
  g_unlink (file);
  g_rmdir (dir);
}

static void
test_command_line_exit_status (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *missing = NULL;
  RunCheck good = { FALSE, FALSE }, bad = { FALSE, FALSE };

  if (skip_without_display ())
    return;

  dir = make_project_dir ();
  missing = g_build_filename (dir, "missing", NULL);

  g_assert_cmpint (run_command_line (dir, &good), ==, EXIT_SUCCESS);
  g_assert_true (good.saw_terminal);
  g_assert_false (good.saw_error_page);

  g_assert_cmpint (run_command_line (missing, &bad), ==, EXIT_FAILURE);
  g_assert_true (bad.saw_error_page);
  g_assert_false (bad.saw_terminal);

  /* What it says on stderr names the folder without driving the terminal
   * (a folder may be named with escape sequences). */
  {
    g_autofree char *odd = g_build_filename (dir, "odd\033]0;title\007\033[2J", NULL);
    g_autofree char *said_path = g_build_filename (dir, "stderr", NULL);
    g_autofree char *said = NULL;
    RunCheck odd_check = { FALSE, FALSE };
    int saved = dup (STDERR_FILENO);
    int fd = open (said_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

    g_assert_cmpint (saved, >=, 0);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (dup2 (fd, STDERR_FILENO), ==, STDERR_FILENO);
    close (fd);
    g_assert_cmpint (run_command_line (odd, &odd_check), ==, EXIT_FAILURE);
    g_assert_cmpint (dup2 (saved, STDERR_FILENO), ==, STDERR_FILENO);
    close (saved);
    g_assert_true (g_file_get_contents (said_path, &said, NULL, NULL));
    g_assert_null (strpbrk (said, "\033\007"));
    g_assert_nonnull (strstr (said, "odd\\e]0;title\\x07\\e[2J: No such file or directory"));
    g_unlink (said_path);
  }

  g_rmdir (dir);
}

static void
test_runner_missing (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("PADDOCK_RUN"));
  GtkWidget *status_page;
  GtkWindow *window;
  StatusWait wait;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();

  g_setenv ("PADDOCK_RUN", "/nonexistent/paddock-run", TRUE);
  window = paddock_application_open_directory (app, dir, &error);
  if (saved != NULL)
    g_setenv ("PADDOCK_RUN", saved, TRUE);
  else
    g_unsetenv ("PADDOCK_RUN");
  g_assert_no_error (error);

  /* The session cannot start, and its tab says why instead of a dead terminal. */
  wait = (StatusWait) { GTK_WIDGET (window), "Cannot Start the Session" };
  g_assert_true (wait_for (status_page_shown, &wait, "the session's error page"));
  status_page = find_descendant (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE, TRUE);
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status_page)),
                            "/nonexistent/paddock-run"));

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_remembers_size (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  GtkWindow *window;
  gboolean destroyed = FALSE;
  int width, height;

  if (skip_without_display ())
    return;

  settings = paddock_settings_new ();
  g_assert_nonnull (settings);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "window-maximized");

  app = create_application ();
  dir = make_project_dir ();

  window = paddock_application_open_directory (app, dir, &error);
  g_assert_no_error (error);
  gtk_window_get_default_size (window, &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 600);
  g_assert_true (wait_for (widget_mapped, window, "the window to show"));

  gtk_window_set_default_size (window, 700, 450);
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (set_flag), &destroyed);
  gtk_window_close (window);
  g_assert_true (wait_for (flag_set, &destroyed, "the window to close"));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 700);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 450);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* The next window opens at the size the last one closed with. */
  window = paddock_application_open_directory (app, dir, &error);
  g_assert_no_error (error);
  gtk_window_get_default_size (window, &width, &height);
  g_assert_cmpint (width, ==, 700);
  g_assert_cmpint (height, ==, 450);

  destroy_windows (app);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_rmdir (dir);
}

/* A program the policy refuses says only "Permission denied" itself: the
 * window names the rule, in one note for a run of them. */
static void
test_denied_names_rule (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  feed (terminal, "dd if=/dev/zero of=/dev/sdz count=0; echo \"status=$?.\"\n");
  assert_terminal_shows (terminal, "status=126.");
  {
    LabelWait note = { GTK_WIDGET (window), "dd was refused by rule “dd-to-device”" };

    g_assert_true (wait_for (label_shown, &note, "the note naming the rule"));
  }
  feed (terminal, "dd if=/dev/zero of=/dev/sdz count=0; dd if=/dev/zero of=/dev/sdy count=0; echo again\n");
  {
    LabelWait note = { GTK_WIDGET (window), "3 programs were refused, the last dd by rule “dd-to-device”" };

    g_assert_true (wait_for (label_shown, &note, "the note counting them"));
  }

  destroy_windows (app);
  g_rmdir (dir);
}

/* The window's toasts come one at a time, each once the one before it is
 * out of sight: never shown as a replacement, which libadwaita 1.2 could
 * free under its own show animation (see ui/paddock-toasts.c). Handed in
 * together, the second waits while the first shows, and comes once the
 * first, dismissed, is gone. */
static void
test_toasts_one_at_a_time (void)
{
  g_autoptr(AdwToast) first = NULL;
  GtkWidget *window;
  AdwToastOverlay *overlay;
  LabelWait first_shown = { NULL, "the first toast" };
  LabelWait second_shown = { NULL, "the second toast" };

  if (skip_without_display ())
    return;
  window = gtk_window_new ();
  overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (overlay, gtk_label_new ("content"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (overlay));
  gtk_window_present (GTK_WINDOW (window));
  first_shown.root = second_shown.root = window;

  first = adw_toast_new ("the first toast");
  adw_toast_set_timeout (first, 0);
  paddock_toasts_add (overlay, g_object_ref (first));
  paddock_toasts_add (overlay, adw_toast_new ("the second toast"));
  g_assert_true (wait_for (label_shown, &first_shown, "the first toast"));
  run_main_loop_for (600);
  g_assert_false (find_label_containing (window, "the second toast"));

  adw_toast_dismiss (first);
  g_assert_true (wait_for (label_shown, &second_shown, "the second toast"));
  g_assert_false (find_label_containing (window, "the first toast"));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  g_test_add_func ("/paddock/window/usage", test_usage);
  g_test_add_func ("/paddock/window/shell-runs-under-paddock-run", test_shell_runs_under_paddock_run);
  g_test_add_func ("/paddock/window/failed-exit-keeps-tab", test_failed_exit_keeps_tab);
  g_test_add_func ("/paddock/window/close-running-asks", test_close_running_asks);
  g_test_add_func ("/paddock/window/denied-names-rule", test_denied_names_rule);
  g_test_add_func ("/paddock/window/new-tab", test_new_tab);
  g_test_add_func ("/paddock/window/missing-directory", test_missing_directory);
  g_test_add_func ("/paddock/window/command-line-exit-status", test_command_line_exit_status);
  g_test_add_func ("/paddock/window/runner-missing", test_runner_missing);
  g_test_add_func ("/paddock/window/remembers-size", test_remembers_size);
  g_test_add_func ("/paddock/window/toasts-one-at-a-time", test_toasts_one_at_a_time);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
