/* test-window-sessions.c: sessions of agents in projects: the New Session dialog, a missing agent, restoring
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <string.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-new-session-dialog.h"
#include "paddock-session-page.h"
#include "paddock-settings.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

static char *bin_dir;

/* A "claude" on PATH that says so and becomes a shell, standing in for
 * Claude Code where the tab only needs an agent by that name. */
static void
install_fake_claude (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *search = NULL;

  bin_dir = g_dir_make_tmp ("paddock-bin-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (bin_dir, "claude", NULL);
  g_file_set_contents (path, "#!/bin/sh\necho \"fake claude in $(pwd)\"\nexec /bin/sh\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  search = g_strconcat (bin_dir, ":", g_getenv ("PATH"), NULL);
  g_setenv ("PATH", search, TRUE);
}

static void
remove_fake_claude (void)
{
  g_autofree char *path = g_build_filename (bin_dir, "claude", NULL);

  g_unlink (path);
  g_rmdir (bin_dir);
  g_clear_pointer (&bin_dir, g_free);
}

static PaddockSessionPage *
selected_page (GtkWindow *window)
{
  return paddock_window_get_selected_session (PADDOCK_WINDOW (window));
}

/* The dialog opens a tab of the chosen agent in the chosen project, beside
 * a tab of another project; the window's lock follows the selected tab. */
static void
test_new_session_dialog (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_dir = NULL;
  g_autofree char *second_dir = NULL;
  g_autofree char *tab_title = NULL;
  g_autofree char *shown = NULL;
  PaddockNewSessionDialog *dialog;
  PaddockSessionPage *first, *second;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  first_dir = make_project_dir ();
  second_dir = make_project_dir ();
  window = open_session (app, first_dir, &terminal, &first);

  dialog = paddock_new_session_dialog_new (PADDOCK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  /* The selected tab's project and agent come first. */
  g_assert_cmpstr (paddock_project_get_path (paddock_new_session_dialog_get_project (dialog)), ==,
                   paddock_project_get_path (paddock_session_page_get_project (first)));
  paddock_new_session_dialog_select_project (dialog, second_dir);
  g_assert_true (paddock_new_session_dialog_select_agent (dialog, "claude"));
  second = paddock_new_session_dialog_start (dialog, &error);
  g_assert_no_error (error);
  g_assert_nonnull (second);

  g_assert_true (selected_page (window) == second);
  g_assert_cmpint (adw_tab_view_get_n_pages (paddock_window_get_tab_view (PADDOCK_WINDOW (window))), ==, 2);
  tab_title = paddock_session_page_dup_tab_title (second);
  g_assert_true (g_str_has_suffix (tab_title, " · Claude Code"));
  g_assert_true (g_str_has_prefix (tab_title, paddock_project_get_name (paddock_session_page_get_project (second))));
  g_assert_true (wait_for (session_running, second, "the agent's session"));
  shown = g_strdup_printf ("fake claude in %s", paddock_project_get_path (paddock_session_page_get_project (second)));
  assert_terminal_shows (paddock_session_page_get_terminal (second), shown);
  /* Its timeline shows the agent's own exec. */
  g_assert_true (paddock_window_get_project (PADDOCK_WINDOW (window)) == paddock_session_page_get_project (second));

  /* Back on the first tab, the window is that project's again. */
  adw_tab_view_set_selected_page (paddock_window_get_tab_view (PADDOCK_WINDOW (window)),
                                  adw_tab_view_get_page (paddock_window_get_tab_view (PADDOCK_WINDOW (window)),
                                                         GTK_WIDGET (first)));
  g_assert_true (paddock_window_get_project (PADDOCK_WINDOW (window)) == paddock_session_page_get_project (first));

  /* A new tab "like this one" is the same agent in the same project. */
  adw_tab_view_set_selected_page (paddock_window_get_tab_view (PADDOCK_WINDOW (window)),
                                  adw_tab_view_get_page (paddock_window_get_tab_view (PADDOCK_WINDOW (window)),
                                                         GTK_WIDGET (second)));
  {
    PaddockSessionPage *third = open_tab (window);

    g_assert_cmpstr (paddock_agent_get_id (paddock_session_page_get_agent (third)), ==, "claude");
    g_assert_true (paddock_session_page_get_project (third) == paddock_session_page_get_project (second));
  }

  destroy_windows (app);
  g_rmdir (first_dir);
  g_rmdir (second_dir);
}

/* An agent that is not installed cannot be chosen, and a tab asked to run
 * one says so in words; the other tabs go on. */
static void
test_agent_not_installed (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(PaddockAgent) aider = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  PaddockNewSessionDialog *dialog;
  PaddockSessionPage *page, *missing;
  VteTerminal *terminal;
  GtkWindow *window;
  GtkWidget *status;

  if (skip_without_display ())
    return;
  if (g_find_program_in_path ("aider") != NULL)
    {
      g_test_skip ("aider is installed here");
      return;
    }

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);

  dialog = paddock_new_session_dialog_new (PADDOCK_WINDOW (window));
  g_assert_false (paddock_new_session_dialog_select_agent (dialog, "aider"));
  paddock_new_session_dialog_set_command (dialog, "no-such-agent-program --flag");
  g_assert_null (paddock_new_session_dialog_start (dialog, &error));
  g_assert_error (error, PADDOCK_AGENT_ERROR, PADDOCK_AGENT_ERROR_NOT_INSTALLED);
  g_assert_nonnull (strstr (error->message, "no-such-agent-program"));
  g_clear_error (&error);
  paddock_new_session_dialog_set_command (dialog, "unclosed 'quote");
  g_assert_null (paddock_new_session_dialog_start (dialog, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* As a restored session or a command line would open it. */
  aider = paddock_agent_lookup ("aider", &error);
  g_assert_no_error (error);
  missing = paddock_window_add_session (PADDOCK_WINDOW (window), paddock_session_page_get_project (page),
                                        aider, PADDOCK_LOCK_CHOICE_PROJECT);
  g_assert_false (paddock_session_page_get_running (missing));
  status = find_descendant (GTK_WIDGET (missing), ADW_TYPE_STATUS_PAGE, TRUE);
  g_assert_nonnull (status);
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), "Aider is not installed"));

  /* The first tab still runs commands. */
  feed (terminal, "echo still-$((2+3))\n");
  assert_terminal_shows (terminal, "still-5");

  destroy_windows (app);
  g_rmdir (dir);
}

static void
set_restore (gboolean restore)
{
  g_autoptr(GSettings) settings = paddock_settings_new ();

  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "restore-sessions", restore);
}

/* What was open when the application quit comes back: the projects, the
 * agents, the lock choices, in as many windows. */
static void
test_restore_sessions (void)
{
  g_autoptr(PaddockApplication) first_app = NULL;
  g_autoptr(PaddockApplication) second_app = NULL;
  g_autoptr(PaddockAgent) command = NULL;
  g_autoptr(PaddockProject) other = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *other_dir = NULL;
  const char * const argv[] = { "/bin/sh", "-c", "echo restored-command; exec /bin/sh", NULL };
  PaddockSessionPage *page, *restored;
  VteTerminal *terminal;
  GtkWindow *window;
  AdwTabView *tab_view;
  GList *windows;

  if (skip_without_display ())
    return;

  set_restore (TRUE);
  first_app = create_application ();
  dir = make_project_dir ();
  other_dir = make_project_dir ();
  window = open_session (first_app, dir, &terminal, &page);
  command = paddock_agent_new_command (argv);
  other = paddock_application_lookup_project (first_app, other_dir, NULL);
  restored = paddock_window_add_session (PADDOCK_WINDOW (window), other, command, PADDOCK_LOCK_CHOICE_NO_LOCK);
  g_assert_true (wait_for (session_running, restored, "the command's session"));
  /* Quitting keeps them, though the windows then close. */
  g_action_group_activate_action (G_ACTION_GROUP (first_app), "quit", NULL);
  destroy_windows (first_app);

  second_app = create_application ();
  g_assert_cmpuint (paddock_application_restore_sessions (second_app), ==, 2);
  windows = gtk_application_get_windows (GTK_APPLICATION (second_app));
  g_assert_cmpuint (g_list_length (windows), ==, 1);
  tab_view = paddock_window_get_tab_view (windows->data);
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 2);
  page = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, 0)));
  restored = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, 1)));
  g_assert_cmpstr (paddock_agent_get_id (paddock_session_page_get_agent (page)), ==, "shell");
  g_assert_cmpint (paddock_session_page_get_lock_choice (page), ==, PADDOCK_LOCK_CHOICE_PROJECT);
  g_assert_true (g_str_has_suffix (paddock_project_get_path (paddock_session_page_get_project (restored)),
                                   strrchr (other_dir, '/')));
  g_assert_cmpstr (paddock_agent_get_id (paddock_session_page_get_agent (restored)), ==, "command");
  g_assert_cmpstrv (paddock_agent_get_command (paddock_session_page_get_agent (restored)), argv);
  g_assert_cmpint (paddock_session_page_get_lock_choice (restored), ==, PADDOCK_LOCK_CHOICE_NO_LOCK);
  g_assert_true (wait_for (session_running, restored, "the restored command"));
  assert_terminal_shows (paddock_session_page_get_terminal (restored), "restored-command");

  /* Closing one tab by hand forgets it; the next start has one. */
  adw_tab_view_close_page (tab_view, adw_tab_view_get_nth_page (tab_view, 1));
  g_assert_true (wait_for (one_page_left, windows->data, "the closed tab to go"));
  g_action_group_activate_action (G_ACTION_GROUP (second_app), "quit", NULL);
  destroy_windows (second_app);
  g_clear_object (&second_app);
  second_app = create_application ();
  g_assert_cmpuint (paddock_application_restore_sessions (second_app), ==, 1);
  destroy_windows (second_app);

  set_restore (FALSE);
  g_rmdir (dir);
  g_rmdir (other_dir);
}

static char
process_state (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *after_comm;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (after_comm = strrchr (stat, ')')) == NULL)
    return '?';
  return after_comm[2];
}

static gboolean
page_paused (gpointer data)
{
  return paddock_session_page_get_paused (data);
}

static gboolean
page_resumed (gpointer data)
{
  return !paddock_session_page_get_paused (data);
}

static gboolean
page_stopped (gpointer data)
{
  return !paddock_session_page_get_running (data);
}

/* The header's Pause stops the agent's programs and Resume lets them go
 * on; Kill asks, and then ends the session, the tab staying to say so. */
static void
test_pause_resume_kill (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  DialogWait question = { "Kill the Agent?", NULL };
  const PaddockMessage *hello;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  hello = paddock_client_get_hello (paddock_session_page_get_client (page));
  g_assert_nonnull (hello);
  g_assert_cmpint (process_state (hello->agent_pid), !=, 'T');

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.pause-session", NULL));
  g_assert_true (wait_for (page_paused, page, "the agent to be paused"));
  g_assert_cmpint (process_state (hello->agent_pid), ==, 'T');
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.resume-session", NULL));
  g_assert_true (wait_for (page_resumed, page, "the agent to be resumed"));
  g_assert_cmpint (process_state (hello->agent_pid), !=, 'T');
  feed (terminal, "echo resumed-$((4+4))\n");
  assert_terminal_shows (terminal, "resumed-8");

  /* Cancel keeps it; Kill ends it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.kill-session", NULL));
  g_assert_true (wait_for (dialog_shown, &question, "the question"));
  adw_message_dialog_response (question.dialog, "cancel");
  g_assert_true (paddock_session_page_get_running (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.kill-session", NULL));
  g_assert_true (wait_for (dialog_shown, &question, "the question again"));
  adw_message_dialog_response (question.dialog, "kill");
  g_assert_true (wait_for (page_stopped, page, "the session to end"));
  g_assert_cmpint (adw_tab_view_get_n_pages (paddock_window_get_tab_view (PADDOCK_WINDOW (window))), ==, 1);

  destroy_windows (app);
  g_rmdir (dir);
}

static gboolean
tab_needs_attention (gpointer data)
{
  GtkWidget *session = data;
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (session, ADW_TYPE_TAB_VIEW));

  return adw_tab_page_get_needs_attention (adw_tab_view_get_page (tab_view, session));
}

static void
set_quiet_seconds (int seconds)
{
  g_autoptr(GSettings) settings = paddock_settings_new ();

  g_settings_set_int (settings, "quiet-seconds", seconds);
}

static void
select_tab (GtkWindow          *window,
            PaddockSessionPage *session)
{
  AdwTabView *tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));

  adw_tab_view_set_selected_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (session)));
}

/* A tab out of sight whose program rings the bell, or goes quiet after
 * output, is marked; selecting it clears the mark. */
static void
test_attention (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *first, *second;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  set_quiet_seconds (0);
  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &first);
  second = open_tab (window);

  /* The bell. */
  feed (terminal, "sleep 1; printf '\\a'\n");
  g_assert_false (tab_needs_attention (first));
  g_assert_true (wait_for (tab_needs_attention, first, "the bell to mark the tab"));
  /* With the window unfocused, a notification says so too. */
  if (!gtk_window_is_active (window))
    g_assert_true (wait_for (notification_sent, (gpointer) "The terminal’s bell rang", "the bell's notification"));
  select_tab (window, first);
  g_assert_false (tab_needs_attention (first));

  /* A tab left with an ask waiting is marked until it is seen again. */
  {
    gint64 ask_id = run_asked (first, terminal, "git push --force nowhere main")->id;

    select_tab (window, second);
    g_assert_true (tab_needs_attention (first));
    select_tab (window, first);
    g_assert_false (tab_needs_attention (first));
    g_assert_true (paddock_session_page_decide (first, ask_id, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE));
    assert_terminal_shows (terminal, "status=");
  }

  /* Output, then quiet: with the setting off, nothing; on, the mark. */
  feed (paddock_session_page_get_terminal (second), "sleep 1; echo some-output\n");
  assert_terminal_shows (paddock_session_page_get_terminal (second), "some-output");
  run_main_loop_for (1500);
  g_assert_false (tab_needs_attention (second));
  set_quiet_seconds (1);
  feed (paddock_session_page_get_terminal (second), "sleep 1; echo more-output\n");
  g_assert_true (wait_for (tab_needs_attention, second, "quiet after output to mark the tab"));
  g_assert_false (tab_needs_attention (first));
  set_quiet_seconds (0);

  destroy_windows (app);
  g_rmdir (dir);
}

/* The paddock-run processes whose parent is @parent. */
static guint
count_runners (GPid parent)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *stat_path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *after_comm;
      int ppid = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (stat_path, &stat, NULL, NULL))
        continue;
      after_comm = strrchr (stat, ')');
      if (after_comm == NULL || sscanf (after_comm + 2, "%*c %d", &ppid) != 1 || ppid != parent)
        continue;
      if (strstr (stat, "(paddock-run)") != NULL)
        n++;
    }
  return n;
}

typedef struct
{
  GPid  pid;
  guint n;
} RunnerWait;

static gboolean
runners_counted (gpointer data)
{
  RunnerWait *wait = data;

  return count_runners (wait->pid) == wait->n;
}

static gboolean
child_reaped (gpointer data)
{
  GPid *pid = data;
  int wait_status;

  return waitpid (*pid, &wait_status, WNOHANG) == *pid;
}

/* `paddock DIR` while Paddock runs opens a tab there, in its window: the
 * second command line's process ends, and the first has two sessions. */
static void
test_command_line_joins_instance (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *paddock = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *other_dir = NULL;
  RunnerWait wait;
  int status;

  if (skip_without_display ())
    return;

  dir = make_project_dir ();
  other_dir = make_project_dir ();
  paddock = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "ui", "paddock", NULL);
  {
    const char *argv[] = { paddock, dir, NULL };

    g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &wait.pid, &error);
    g_assert_no_error (error);
  }
  wait.n = 1;
  g_assert_true (wait_for (runners_counted, &wait, "the first instance's session"));
  {
    const char *args[] = { "--agent", "shell", "--no-lock", other_dir, NULL };
    g_autofree char *out = NULL, *err = NULL;

    run_paddock (args, &status, &out, &err);
    g_assert_cmpint (status, ==, 0);
  }
  wait.n = 2;
  g_assert_true (wait_for (runners_counted, &wait, "a second session in the first instance"));

  kill (wait.pid, SIGTERM);
  g_assert_true (wait_for (child_reaped, &wait.pid, "the first instance to end"));
  g_rmdir (dir);
  g_rmdir (other_dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* Tabs that want attention notify; this program serves them, alone on
   * its bus (the test runs by itself). */
  if (have_display)
    serve_notifications ();
  install_fake_claude ();
  g_test_add_func ("/paddock/window/new-session-dialog", test_new_session_dialog);
  g_test_add_func ("/paddock/window/agent-not-installed", test_agent_not_installed);
  g_test_add_func ("/paddock/window/restore-sessions", test_restore_sessions);
  g_test_add_func ("/paddock/window/pause-resume-kill", test_pause_resume_kill);
  g_test_add_func ("/paddock/window/attention", test_attention);
  g_test_add_func ("/paddock/window/command-line-joins-instance", test_command_line_joins_instance);

  status = g_test_run ();
  remove_fake_claude ();
  test_window_cleanup ();
  return status;
}
