/* test-window.c: the paddock window, in process: its terminal runs the login
 * shell in the project under paddock-run, tabs follow the terminal, a
 * folder that cannot be opened shows why, and the folder lock's switch saves
 * the project's choice for the tabs opened after it
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
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

/* Outside /tmp, which the folder lock grants: what "outside" means for it. */
static char *lock_base;

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

  /* The tab and the window take the title the terminal is given. */
  feed (terminal, "printf '\\033]0;hello-title\\007'\n");
  {
    TitleWait wait = { tab_view, "hello-title" };

    g_assert_true (wait_for (tab_title_is, &wait, "the tab title"));
    g_assert_cmpstr (gtk_window_get_title (window), ==, "hello-title");
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

static gboolean
lock_reported (gpointer data)
{
  return paddock_session_page_get_reported_lock (PADDOCK_SESSION_PAGE (data)) != NULL;
}

/* What @page's session said of its lock, over the window's connection. */
static void
assert_reported_lock (PaddockSessionPage *page,
                      gboolean            locked)
{
  PaddockLockStatus *reported = paddock_session_page_get_reported_lock (page);
  PaddockClient *client = paddock_session_page_get_client (page);
  const PaddockMessage *hello = paddock_client_get_hello (client);
  g_autofree char *mechanism = paddock_lock_status_dup_mechanism (reported);
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
  AdwTabPage *tab = adw_tab_view_get_page (tab_view, GTK_WIDGET (page));

  g_assert_nonnull (hello);
  g_assert_cmpint (hello->agent_pid, >, 0);
  g_assert_true (paddock_lock_status_get_available (reported) == locked);
  if (locked)
    {
      g_assert_cmpstr (hello->lock, ==, "landlock");
      g_assert_true (g_strv_contains ((const char * const *) hello->features, "lock-files"));
      g_assert_true (g_str_has_prefix (mechanism, "Landlock, ABI "));
      /* The tab says so in the session's words. */
      g_assert_nonnull (strstr (adw_tab_page_get_tooltip (tab), mechanism));
    }
  else
    {
      g_assert_cmpstr (hello->lock, ==, "off");
      g_assert_cmpstr (mechanism, ==, "Off");
    }
}

static void
keep_ask_cb (PaddockClient         *client,
             const PaddockMessage  *message,
             PaddockMessage       **ask)
{
  if (*ask == NULL)
    *ask = paddock_message_copy (message);
}

static gboolean
message_kept (gpointer data)
{
  return *(PaddockMessage **) data != NULL;
}

static void
assert_terminal_lacks (VteTerminal *terminal,
                       const char  *needle)
{
  g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);

  if (text != NULL && strstr (text, needle) != NULL)
    {
      g_test_message ("the terminal shows \"%s\":\n%s", needle, text);
      g_assert_not_reached ();
    }
}

/* The window answers asks: a command the policy asks about waits for it,
 * never refused as with nobody attached. */
static void
test_asks_wait_for_window (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  PaddockClient *client;
  VteTerminal *terminal;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  client = paddock_session_page_get_client (page);
  g_signal_connect (client, "ask", G_CALLBACK (keep_ask_cb), &ask);
  feed (terminal, "git push --force nowhere main; echo \"status=$?.\"\n");
  g_assert_true (wait_for (message_kept, &ask, "the ask"));
  g_assert_cmpstr (ask->argv[0], ==, "git");
  g_assert_cmpint (ask->deadline, >, g_get_real_time ());
  assert_terminal_lacks (terminal, "status=1");
  assert_terminal_lacks (terminal, "nobody is attached");

  /* Answered by the window's own connection, it goes on. */
  g_assert_true (paddock_client_decide (client, ask->id, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, &error));
  g_assert_no_error (error);
  assert_terminal_shows (terminal, "status=");
  assert_terminal_lacks (terminal, "paddock-run:");
  g_assert_false (paddock_client_get_closed (client));
  g_signal_handlers_disconnect_by_data (client, &ask);

  destroy_windows (app);
  g_rmdir (dir);
}

static gboolean
ask_shown (gpointer data)
{
  PaddockApprovalBar *bar = paddock_session_page_get_approval_bar (PADDOCK_SESSION_PAGE (data));

  return paddock_approval_bar_get_current (bar) != NULL;
}

static gboolean
no_ask_shown (gpointer data)
{
  return !ask_shown (data);
}

typedef struct
{
  PaddockSessionPage *page;
  guint               n;
} WaitingWait;

static gboolean
n_waiting_is (gpointer data)
{
  WaitingWait *wait = data;

  return paddock_approval_bar_get_n_waiting (paddock_session_page_get_approval_bar (wait->page)) == wait->n;
}

/* Runs @command in @page's shell, waits for the approval bar to show
 * it, and returns the ask shown. */
static const PaddockMessage *
run_asked (PaddockSessionPage *page,
           VteTerminal        *terminal,
           const char         *command)
{
  PaddockApprovalBar *bar = paddock_session_page_get_approval_bar (page);
  g_autofree char *line = g_strdup_printf ("%s; echo \"status=$?.\"\n", command);
  LabelWait shown = { GTK_WIDGET (bar), command };

  feed (terminal, line);
  g_assert_true (wait_for (ask_shown, page, "the approval bar"));
  /* A tab in the background has its bar ready, unmapped. */
  if (gtk_widget_get_mapped (GTK_WIDGET (page)))
    g_assert_true (wait_for (label_shown, &shown, command));
  {
    g_autofree char *argv = g_strjoinv (" ", paddock_approval_bar_get_current (bar)->argv);

    g_assert_cmpstr (argv, ==, command);
  }
  return paddock_approval_bar_get_current (bar);
}

/* Nothing paddock-run says about asks lands in the terminal. */
static void
assert_runner_quiet (VteTerminal *terminal)
{
  assert_terminal_lacks (terminal, "paddock-run");
  assert_terminal_lacks (terminal, "nobody is attached");
}

static void
test_approval_allow (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *cwd = NULL;
  const PaddockMessage *ask;
  PaddockApprovalBar *bar;
  PaddockSessionPage *page;
  VteTerminal *terminal;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  bar = paddock_session_page_get_approval_bar (page);
  /* With nothing waiting, it does nothing. */
  gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL);
  g_assert_null (paddock_approval_bar_get_current (bar));

  ask = run_asked (page, terminal, "git push --force nowhere main");
  g_assert_cmpstr (ask->argv[0], ==, "git");
  /* Where, why, and how long it waits. */
  {
    LabelWait where = { GTK_WIDGET (bar), NULL };
    LabelWait rule = { GTK_WIDGET (bar), ask->rule };
    LabelWait countdown = { GTK_WIDGET (bar), "Refused in " };

    cwd = g_strdup_printf ("in %s", dir);
    where.needle = cwd;
    g_assert_nonnull (ask->rule);
    g_assert_true (find_label_containing (GTK_WIDGET (bar), where.needle));
    g_assert_true (find_label_containing (GTK_WIDGET (bar), rule.needle));
    g_assert_true (find_label_containing (GTK_WIDGET (bar), countdown.needle));
  }
  /* One ask: no count. */
  g_assert_false (find_label_containing (GTK_WIDGET (bar), " of "));
  assert_terminal_lacks (terminal, "status=1");

  /* Allow Once: git runs, and fails outside a repository. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  assert_terminal_shows (terminal, "status=128.");
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));
  assert_runner_quiet (terminal);

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_approval_deny_queue (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockApprovalBar *bar;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  gint64 first;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  bar = paddock_session_page_get_approval_bar (page);

  /* Two at once queue, with a count. */
  feed (terminal, "git push --force one main & git push --force two main; wait; echo \"both=$?.\"\n");
  {
    WaitingWait two = { page, 2 };
    LabelWait count = { GTK_WIDGET (bar), "1 of 2" };

    g_assert_true (wait_for (n_waiting_is, &two, "two asks"));
    g_assert_true (wait_for (label_shown, &count, "the count"));
  }
  first = paddock_approval_bar_get_current (bar)->id;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  /* The next one shows at once. */
  g_assert_cmpint (paddock_approval_bar_get_current (bar)->id, !=, first);
  g_assert_false (find_label_containing (GTK_WIDGET (bar), "1 of 2"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  assert_terminal_shows (terminal, "both=");
  assert_terminal_shows (terminal, "Permission denied");
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));

  /* Deny refuses a single one too. */
  run_asked (page, terminal, "git push --force three main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  assert_terminal_shows (terminal, "status=126.");
  assert_runner_quiet (terminal);

  destroy_windows (app);
  g_rmdir (dir);
}

/* Kill Agent ends the session, and with it what waited. */
static void
test_approval_kill (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GPid runner;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  runner = paddock_session_page_get_runner_pid (page);

  run_asked (page, terminal, "git push --force doomed main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.kill", NULL));
  g_assert_true (wait_for (session_stopped, page, "the session to end"));
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (runner), "paddock-run to be reaped"));
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));
  assert_terminal_lacks (terminal, "status=1");

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_approval_deadline (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  g_setenv ("PADDOCK_ASK_TIMEOUT", "2", TRUE);
  open_session (app, dir, &terminal, &page);
  g_unsetenv ("PADDOCK_ASK_TIMEOUT");

  run_asked (page, terminal, "git push --force late main");
  /* Unanswered, it is refused at its deadline, and leaves the bar. */
  assert_terminal_shows (terminal, "status=126.");
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));
  assert_runner_quiet (terminal);

  destroy_windows (app);
  g_rmdir (dir);
}

static void
activate_decide (PaddockApplication *app,
                 const char         *session_id,
                 gint64              ask_id,
                 const char         *answer)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), "decide",
                                  g_variant_new ("(sxs)", session_id, ask_id, answer));
}

/* app.decide, as a notification's buttons use it, answers the right ask in
 * the right one of two tabs; app.show-session brings a tab forward. */
static void
test_app_decide (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *first_session = NULL;
  g_autofree char *second_session = NULL;
  PaddockSessionPage *first, *second;
  VteTerminal *first_terminal, *second_terminal;
  AdwTabView *tab_view;
  GtkWindow *window;
  gint64 first_ask, second_ask;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &first_terminal, &first);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  second = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (second != first);
  second_terminal = paddock_session_page_get_terminal (second);
  g_assert_true (wait_for (session_running, second, "the second session"));
  g_assert_true (wait_for (terminal_has_prompt, second_terminal, "the second shell's prompt"));
  g_assert_true (wait_for (lock_reported, first, "the first session's hello"));
  g_assert_true (wait_for (lock_reported, second, "the second session's hello"));
  first_session = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (first)));
  second_session = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (second)));
  g_assert_cmpstr (first_session, !=, second_session);

  first_ask = run_asked (first, first_terminal, "git push --force first main")->id;
  second_ask = run_asked (second, second_terminal, "git push --force second main")->id;

  /* The first tab is out of sight: a notification tells of its ask, with
   * buttons that answer it and a click that shows the tab. */
  g_assert_true (wait_for (notification_sent, (gpointer) "git push --force first main", "the notification"));
  {
    Notification *notification = find_notification ("git push --force first main");
    g_autofree char *allow = g_strdup_printf ("app.decide(('%s', int64 %" G_GINT64_FORMAT ", 'allow'))", first_session, first_ask);
    g_autofree char *deny = g_strdup_printf ("app.decide(('%s', int64 %" G_GINT64_FORMAT ", 'deny'))", first_session, first_ask);

    g_assert_nonnull (strstr (notification->summary, "A Command Waits in "));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, "default"));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, allow));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, deny));
    g_assert_false (notification->closed);
  }

  /* What names nothing waiting is ignored: an unknown session, an unknown
   * ask, an answer that is neither allow nor deny, another tab's ask. */
  activate_decide (app, "no-such-session", first_ask, "allow");
  activate_decide (app, first_session, first_ask + second_ask + 1000, "allow");
  activate_decide (app, first_session, first_ask, "maybe");
  if (first_ask != second_ask)
    activate_decide (app, first_session, second_ask, "allow");
  g_assert_true (ask_shown (first));
  g_assert_true (ask_shown (second));

  /* The second tab's ask, allowed: only it runs. */
  activate_decide (app, second_session, second_ask, "allow");
  assert_terminal_shows (second_terminal, "status=128.");
  g_assert_true (wait_for (no_ask_shown, second, "the second bar to empty"));
  g_assert_true (ask_shown (first));
  g_assert_cmpint (paddock_approval_bar_get_current (paddock_session_page_get_approval_bar (first))->id, ==, first_ask);
  assert_terminal_lacks (first_terminal, "status=1");

  /* The first tab's, denied. */
  activate_decide (app, first_session, first_ask, "deny");
  assert_terminal_shows (first_terminal, "status=126.");
  g_assert_true (wait_for (no_ask_shown, first, "the first bar to empty"));
  /* Decided, its notification is withdrawn. */
  g_assert_true (wait_for (notification_closed, (gpointer) "git push --force first main", "the notification to close"));
  assert_runner_quiet (first_terminal);
  assert_runner_quiet (second_terminal);

  /* Showing a session selects its tab; an unknown one changes nothing. */
  g_assert_true (adw_tab_view_get_selected_page (tab_view) == adw_tab_view_get_page (tab_view, GTK_WIDGET (second)));
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-session", g_variant_new_string ("no-such-session"));
  g_assert_true (adw_tab_view_get_selected_page (tab_view) == adw_tab_view_get_page (tab_view, GTK_WIDGET (second)));
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-session", g_variant_new_string (first_session));
  g_assert_true (adw_tab_view_get_selected_page (tab_view) == adw_tab_view_get_page (tab_view, GTK_WIDGET (first)));

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

  /* Restarting runs a new session in the same tab. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.restart", NULL));
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

static gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

static void
assert_error_window (GtkWindow  *window,
                     const char *path,
                     int         saved_errno)
{
  GtkWidget *status_page;
  const char *description;

  g_assert_true (PADDOCK_IS_WINDOW (window));
  g_assert_true (wait_for (widget_mapped, window, "the window to show"));

  status_page = find_descendant (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE, TRUE);
  g_assert_nonnull (status_page);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status_page)), ==,
                   "Cannot Open the Project");
  description = adw_status_page_get_description (ADW_STATUS_PAGE (status_page));
  g_assert_nonnull (strstr (description, path));
  g_assert_nonnull (strstr (description, g_strerror (saved_errno)));

  g_assert_null (find_descendant (GTK_WIDGET (window), VTE_TYPE_TERMINAL, FALSE));
  g_assert_null (paddock_window_get_project (PADDOCK_WINDOW (window)));
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

static gboolean
close_window (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

typedef struct
{
  gboolean saw_error_page;
  gboolean saw_terminal;
} RunCheck;

static void
window_mapped_cb (GtkWidget *window,
                  RunCheck  *check)
{
  GtkWidget *status_page = find_descendant (window, ADW_TYPE_STATUS_PAGE, TRUE);

  /* The timeline's empty state is no error (and, there, the only one). */
  if (status_page != NULL && gtk_widget_get_ancestor (status_page, PADDOCK_TYPE_TIMELINE_VIEW) != NULL)
    status_page = NULL;
  check->saw_error_page |= status_page != NULL;
  check->saw_terminal |= find_descendant (window, VTE_TYPE_TERMINAL, TRUE) != NULL;
  g_timeout_add (200, close_window, window);
}

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 RunCheck       *check)
{
  g_signal_connect_after (window, "map", G_CALLBACK (window_mapped_cb), check);
}

/* Runs the application as main() does, closing each window once it shows. */
static int
run_command_line (const char *dir,
                  RunCheck   *check)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *id = g_strdup_printf ("%s.Test%u", APPLICATION_ID, ++app_serial);
  char *argv[] = { (char *) "paddock", (char *) dir, NULL };
  int status;

  app = paddock_application_new (id, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), check);

  status = g_application_run (G_APPLICATION (app), 2, argv);
  if (status == 0)
    status = paddock_application_get_exit_status (app);
  return status;
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

typedef struct
{
  GtkWidget  *root;
  const char *title;
} StatusWait;

static gboolean
status_page_shown (gpointer data)
{
  StatusWait *wait = data;
  GtkWidget *status_page = find_descendant (wait->root, ADW_TYPE_STATUS_PAGE, TRUE);

  return status_page != NULL &&
         g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (status_page)), wait->title) == 0;
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

/* --- the folder lock ---------------------------------------------------------- */

static char *
make_lock_dir (const char *name)
{
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", name);
  char *dir = g_build_filename (lock_base, template, NULL);

  g_assert_nonnull (g_mkdtemp (dir));
  return dir;
}

static gboolean
skip_without_lock_base (void)
{
  if (lock_base == NULL)
    {
      g_test_skip ("no folder outside the lock's grants (/tmp) to hold the test tree");
      return TRUE;
    }
  return skip_without_display ();
}

/* paddock-run's command line, from the kernel's record of it. */
static char **
runner_cmdline (PaddockSessionPage *page)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", paddock_session_page_get_runner_pid (page));
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  gsize length;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  for (gsize at = 0; at < length; at += strlen (contents + at) + 1)
    g_ptr_array_add (args, g_strdup (contents + at));
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&args), FALSE);
}

static void
assert_runner_lock_flag (PaddockSessionPage *page,
                         const char         *flag,
                         const char         *not_flag)
{
  g_auto(GStrv) cmdline = runner_cmdline (page);
  g_autofree char *program = g_path_get_basename (cmdline[0]);

  g_assert_cmpstr (program, ==, "paddock-run");
  g_assert_true (g_strv_contains ((const char * const *) cmdline, flag));
  g_assert_false (g_strv_contains ((const char * const *) cmdline, not_flag));
}

/* -1 nothing saved, else the saved choice. */
static int
saved_lock (const char *project)
{
  PaddockProjectConfig config = { 0 };
  g_autoptr(GError) error = NULL;
  int choice;

  if (!paddock_project_config_load (project, &config, &error))
    return -2;
  choice = config.has_lock ? config.lock : -1;
  paddock_project_config_clear (&config);
  return choice;
}

typedef struct
{
  const char *project;
  int         choice;
} SavedWait;

static gboolean
lock_saved_as (gpointer data)
{
  SavedWait *wait = data;

  return saved_lock (wait->project) == wait->choice;
}

typedef struct
{
  GObject  *object;
  gboolean  value;
} LockWait;

static gboolean
window_lock_is (gpointer data)
{
  LockWait *wait = data;
  gboolean lock;

  g_object_get (wait->object, "lock", &lock, NULL);
  return lock == wait->value;
}

static const char *
indicator_icon_name (PaddockSessionPage *page)
{
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
  GIcon *icon = adw_tab_page_get_indicator_icon (adw_tab_view_get_page (tab_view, GTK_WIDGET (page)));

  if (icon == NULL)
    return NULL;
  g_assert_true (G_IS_THEMED_ICON (icon));
  return g_themed_icon_get_names (G_THEMED_ICON (icon))[0];
}

/* Opens a new tab with win.new-tab and waits for its shell's prompt. */
static PaddockSessionPage *
open_tab (GtkWindow *window)
{
  AdwTabView *tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  PaddockSessionPage *page;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  page = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (wait_for (session_running, page, "the new tab's session"));
  g_assert_true (wait_for (terminal_has_prompt, paddock_session_page_get_terminal (page), "the new tab's prompt"));
  return page;
}

static gboolean
terminal_shows_either (gpointer data)
{
  TextWait *waits = data;

  return terminal_shows (&waits[0]) || terminal_shows (&waits[1]);
}

/* Has the tab's shell write @name in @dir; returns whether the file appeared,
 * after checking the shell saw the same. */
static gboolean
tab_writes (PaddockSessionPage *page,
            const char         *dir,
            const char         *name)
{
  VteTerminal *terminal = paddock_session_page_get_terminal (page);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *line = g_strdup_printf ("if echo x > '%s'; then r=wrote; else r=refused; fi; echo \"%s-$r.\"\n",
                                           path, name);
  g_autofree char *wrote = g_strdup_printf ("%s-wrote.", name);
  g_autofree char *refused = g_strdup_printf ("%s-refused.", name);
  TextWait wait_wrote = { terminal, wrote };
  TextWait wait_refused = { terminal, refused };
  TextWait either[2] = { wait_wrote, wait_refused };
  gboolean appeared;

  feed (terminal, line);
  /* The echo of the typed line shows "$r", never the outcome. */
  if (!wait_for (terminal_shows_either, either, "the shell's outcome"))
    {
      g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);

      g_test_message ("the terminal shows:\n%s", text);
      g_assert_not_reached ();
    }

  appeared = g_file_test (path, G_FILE_TEST_EXISTS);
  g_assert_cmpint (appeared, ==, terminal_shows (&wait_wrote));
  return appeared;
}

static void
test_lock_action (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *base = NULL;
  g_autofree char *project = NULL;
  g_autofree char *outside = NULL;
  g_autofree char *toast_on = NULL;
  g_autofree char *toast_off = NULL;
  PaddockSessionPage *unlocked, *locked, *after;
  VteTerminal *terminal;
  GtkWidget *lock_switch;
  GtkWindow *window;
  gboolean lock;

  if (skip_without_lock_base ())
    return;

  app = create_application ();
  base = make_lock_dir ("lock-action");
  project = g_build_filename (base, "project", NULL);
  outside = g_build_filename (base, "outside", NULL);
  g_assert_cmpint (g_mkdir (project, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (outside, 0755), ==, 0);
  g_assert_cmpint (saved_lock (project), ==, -1);

  /* Off by default: the first tab asks paddock-run for no lock, and can write anywhere. */
  window = open_session (app, project, &terminal, &unlocked);
  g_object_get (window, "lock", &lock, NULL);
  g_assert_false (lock);
  assert_runner_lock_flag (unlocked, "--no-lock", "--lock");
  g_assert_false (paddock_session_page_get_locked (unlocked));
  g_assert_null (indicator_icon_name (unlocked));
  g_assert_true (tab_writes (unlocked, outside, "first-tab"));

  /* The lock's switch and the action share one state. */
  lock_switch = find_descendant (GTK_WIDGET (window), GTK_TYPE_SWITCH, FALSE);
  g_assert_nonnull (lock_switch);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock_switch)));

  /* Turning it on saves the project's choice, where paddock-run reads it, and says so. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.lock", NULL));
  {
    SavedWait wait = { project, 1 };
    LabelWait toast = { GTK_WIDGET (window), NULL };

    g_assert_true (wait_for (lock_saved_as, &wait, "the lock choice to be saved"));
    toast_on = g_strdup_printf ("Folder lock on for new tabs in %s", "project");
    toast.needle = toast_on;
    g_assert_true (wait_for (label_shown, &toast, "the toast"));
  }
  g_object_get (window, "lock", &lock, NULL);
  g_assert_true (lock);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (lock_switch)));

  /* The open tab keeps how it started. */
  g_assert_false (paddock_session_page_get_locked (unlocked));
  g_assert_null (indicator_icon_name (unlocked));

  /* A new tab runs paddock-run --lock, says so, and cannot write outside the project. */
  locked = open_tab (window);
  assert_runner_lock_flag (locked, "--lock", "--no-lock");
  g_assert_true (paddock_session_page_get_locked (locked));
  g_assert_cmpstr (indicator_icon_name (locked), ==, "changes-prevent-symbolic");
  /* Each tab hears from its own session which lock it runs under. */
  g_assert_true (wait_for (lock_reported, locked, "the locked session's hello"));
  g_assert_true (wait_for (lock_reported, unlocked, "the unlocked session's hello"));
  assert_reported_lock (locked, TRUE);
  assert_reported_lock (unlocked, FALSE);
  g_assert_false (tab_writes (locked, outside, "locked-tab"));
  g_assert_true (tab_writes (locked, project, "inside-project"));

  /* The unlocked tab still can. */
  g_assert_true (tab_writes (unlocked, outside, "first-tab-again"));

  /* Turning it off: saved, and the next tab is unlocked again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.lock", NULL));
  {
    SavedWait wait = { project, 0 };
    LabelWait toast = { GTK_WIDGET (window), NULL };

    g_assert_true (wait_for (lock_saved_as, &wait, "the lock choice to be saved"));
    toast_off = g_strdup_printf ("Folder lock off for new tabs in %s", "project");
    toast.needle = toast_off;
    g_assert_true (wait_for (label_shown, &toast, "the toast"));
  }
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock_switch)));
  g_assert_true (paddock_session_page_get_locked (locked));
  g_assert_cmpstr (indicator_icon_name (locked), ==, "changes-prevent-symbolic");

  after = open_tab (window);
  assert_runner_lock_flag (after, "--no-lock", "--lock");
  g_assert_null (indicator_icon_name (after));
  g_assert_true (tab_writes (after, outside, "after-tab"));

  destroy_windows (app);
  test_remove_tree (base);
}

static void
test_lock_popover (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *project = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWidget *lock_switch;
  GtkWidget *popover;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  project = make_project_dir ();
  window = open_session (app, project, &terminal, &page);

  /* The popover says what enforces the lock here, from paddock-run --lock-status. */
  lock_switch = find_descendant (GTK_WIDGET (window), GTK_TYPE_SWITCH, FALSE);
  popover = gtk_widget_get_ancestor (lock_switch, GTK_TYPE_POPOVER);
  g_assert_nonnull (popover);
  gtk_popover_popup (GTK_POPOVER (popover));
  {
    LabelWait mechanism = { popover, "Enforced by the kernel: Landlock, ABI " };
    LabelWait files = { popover, "Files outside the project" };
    LabelWait tab = { popover, "This tab runs without the folder lock" };

    g_assert_true (wait_for (label_shown, &mechanism, "the lock's mechanism"));
    g_assert_true (find_label_containing (popover, files.needle));
    g_assert_true (find_label_containing (popover, tab.needle));
  }
  gtk_popover_popdown (GTK_POPOVER (popover));

  destroy_windows (app);
  g_rmdir (project);
}

/* The home folder cannot be locked to (paddock-run refuses it): the
 * switch is off and insensitive, and the popover says why. */
/* Opens a window on @project, which cannot be locked to: the switch is
 * off and insensitive, its popover says each of @because, and no choice
 * is saved. */
static void
assert_cannot_lock (const char         *project,
                    const char * const *because)
{
  g_autoptr(PaddockApplication) app = create_application ();
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWidget *lock_switch;
  GtkWidget *popover;
  GtkWindow *window;

  window = open_session (app, project, &terminal, &page);
  lock_switch = find_descendant (GTK_WIDGET (window), GTK_TYPE_SWITCH, FALSE);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock_switch)));
  g_assert_false (gtk_widget_get_sensitive (lock_switch));
  popover = gtk_widget_get_ancestor (lock_switch, GTK_TYPE_POPOVER);
  gtk_popover_popup (GTK_POPOVER (popover));
  for (guint i = 0; because[i] != NULL; i++)
    {
      LabelWait why = { popover, because[i] };

      g_assert_true (wait_for (label_shown, &why, because[i]));
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_cmpint (saved_lock (project), ==, -1);

  destroy_windows (app);
}

static void
test_lock_home (void)
{
  if (skip_without_display ())
    return;
  assert_cannot_lock (g_get_home_dir (), (const char *[]) {
    "holds your home folder, so a lock here would still let the agent change", NULL });
}

/* A folder that holds one the lock keeps from the agent (~/.config holds
 * ~/.config/gh): the popover says which. */
static void
test_lock_holds_denied (void)
{
  g_autofree char *config = g_build_filename (g_get_home_dir (), ".config", NULL);

  if (skip_without_display ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  assert_cannot_lock (config, (const char *[]) {
    ".config holds ~/.config/", "which a locked agent must not reach", NULL });
}

static void
test_lock_follows_saved_choice (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *project = NULL;
  PaddockSessionPage *page, *locked;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_lock_base ())
    return;

  app = create_application ();
  base = make_lock_dir ("lock-follows");
  project = g_build_filename (base, "project", NULL);
  g_assert_cmpint (g_mkdir (project, 0755), ==, 0);
  window = open_session (app, project, &terminal, &page);

  /* Another program (paddockctl lock on) changes the choice: the window follows. */
  g_assert_true (paddock_project_config_save_lock (project, TRUE, &error));
  g_assert_no_error (error);
  {
    LockWait wait = { G_OBJECT (window), TRUE };

    g_assert_true (wait_for (window_lock_is, &wait, "the window to follow the saved choice"));
  }
  locked = open_tab (window);
  assert_runner_lock_flag (locked, "--lock", "--no-lock");
  g_assert_false (paddock_session_page_get_locked (page));

  destroy_windows (app);
  test_remove_tree (base);
}

static void
test_lock_failure_keeps_tab (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *project = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *settings_dir = NULL;
  g_autofree char *json = NULL;
  g_autofree char *missing_grant = NULL;
  PaddockSessionPage *page;
  AdwTabView *tab_view;
  GtkWidget *terminal;
  GtkWindow *window;

  if (skip_without_lock_base ())
    return;

  app = create_application ();
  base = make_lock_dir ("lock-failure");
  project = g_build_filename (base, "project", NULL);
  missing_grant = g_build_filename (base, "no-such-grant", NULL);
  g_assert_cmpint (g_mkdir (project, 0755), ==, 0);

  /* Saved on, with a grant paddock-run refuses: the lock cannot be applied. */
  settings = paddock_project_config_path (project);
  settings_dir = g_path_get_dirname (settings);
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  json = g_strdup_printf ("{ \"path\": \"%s\", \"lock\": true, \"grants\": [\"%s\"] }\n", project, missing_grant);
  g_file_set_contents (settings, json, -1, &error);
  g_assert_no_error (error);

  window = paddock_application_open_directory (app, project, &error);
  g_assert_no_error (error);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  terminal = find_descendant (GTK_WIDGET (window), VTE_TYPE_TERMINAL, FALSE);
  page = PADDOCK_SESSION_PAGE (gtk_widget_get_ancestor (terminal, PADDOCK_TYPE_SESSION_PAGE));
  g_assert_true (paddock_session_page_get_locked (page));

  /* paddock-run says why in the terminal and exits; the tab stays and says so too. */
  g_assert_true (wait_for (session_stopped, page, "paddock-run to give up"));
  assert_terminal_shows (VTE_TERMINAL (terminal), "paddock-run: ");
  g_assert_cmpint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  {
    LabelWait heading = { GTK_WIDGET (page), "could not start under the folder lock" };
    LabelWait reason = { GTK_WIDGET (page), "no-such-grant" };

    g_assert_true (wait_for (label_shown, &heading, "the failure to show"));
    g_assert_true (wait_for (label_shown, &reason, "paddock-run's reason to show"));
  }
  g_assert_nonnull (strstr (paddock_session_page_get_start_failure (page), "no-such-grant"));
  g_assert_cmpstr (indicator_icon_name (page), ==, "dialog-warning-symbolic");

  /* Once the choice is off, restarting the tab runs it, unlocked. */
  g_assert_true (paddock_project_config_save_lock (project, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.restart", NULL));
  g_assert_true (wait_for (session_running, page, "the restarted session"));
  g_assert_false (paddock_session_page_get_locked (page));
  g_assert_null (paddock_session_page_get_start_failure (page));
  g_assert_null (indicator_icon_name (page));
  assert_runner_lock_flag (page, "--no-lock", "--lock");

  destroy_windows (app);
  test_remove_tree (base);
}

static void
run_paddock (const char * const *args,
             int                *exit_status,
             char              **out,
             char              **err)
{
  g_autofree char *paddock = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(TestResult) result = NULL;
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");

  g_assert_nonnull (build_dir);
  paddock = g_build_filename (build_dir, "ui", "paddock", NULL);
  g_ptr_array_add (argv, paddock);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  result = test_run ((const char * const *) argv->pdata);
  g_assert_cmpint (result->signal, ==, 0);
  *exit_status = result->status;
  *out = g_steal_pointer (&result->out);
  *err = g_steal_pointer (&result->err);
}

static void
test_usage (void)
{
  const char *unknown[] = { "--no-such-option", NULL };
  const char *two_dirs[] = { "/tmp", "/usr", NULL };
  const char *version[] = { "--version", NULL };
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
}

/* A folder for the lock's tests outside every grant: never under /tmp, which
 * the lock grants; /var/lib when the build itself lives under /tmp. */
static char *
make_lock_base (void)
{
  const char *candidates[] = { g_getenv ("PADDOCK_BUILD_DIR"), g_getenv ("PADDOCK_SOURCE_DIR"), "/var/lib" };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *real = candidates[i] != NULL ? realpath (candidates[i], NULL) : NULL;
      g_autofree char *template = NULL;

      if (real == NULL || g_str_has_prefix (real, "/tmp") || g_str_has_prefix (real, "/var/tmp") ||
          g_str_has_prefix (real, "/dev/shm"))
        continue;
      template = g_build_filename (real, "test-window-XXXXXX", NULL);
      if (g_mkdtemp (template) != NULL)
        return g_steal_pointer (&template);
    }
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  char *home = test_home_new ();
  const char *asan = g_getenv ("ASAN_OPTIONS");
  int status;

  g_test_init (&argc, &argv, NULL);

  /* LeakSanitizer's check at exit stops the process's threads with
   * ptrace, from a tracer it clones. In a paddock-run whose terminal a test
   * had just closed, that tracer sometimes waited for ever (1 window run in
   * 4 to 7 under ASan, from before this was written too), so the tab's
   * paddock-run never ended. The paddock-runs the window starts here check
   * no leaks; those of paddock-run are checked where the exec, run, lock
   * and protocol tests run it directly. This process's own check stands:
   * ASan read its options when it started. */
  if (asan != NULL)
    {
      g_autofree char *options = g_strconcat (asan, ":detect_leaks=0", NULL);

      g_setenv ("ASAN_OPTIONS", options, TRUE);
    }

  /* A shell every system has, and whose syntax the tests use. */
  g_setenv ("SHELL", "/bin/sh", TRUE);

  lock_base = make_lock_base ();
  if (lock_base != NULL)
    {
      /* Saved lock choices stay in the test's own folder; set before GTK reads it. */
      g_autofree char *config_home = g_build_filename (lock_base, "config", NULL);

      g_assert_cmpint (g_mkdir (config_home, 0700), ==, 0);
      g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
    }

  have_display = (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL) &&
                 gtk_init_check ();
  /* Tabs out of sight notify of their asks; the tests' own server takes
   * the notifications, as a desktop's would. */
  if (have_display)
    serve_notifications ();

  g_test_add_func ("/paddock/window/usage", test_usage);
  g_test_add_func ("/paddock/window/shell-runs-under-paddock-run", test_shell_runs_under_paddock_run);
  g_test_add_func ("/paddock/window/failed-exit-keeps-tab", test_failed_exit_keeps_tab);
  g_test_add_func ("/paddock/window/asks-wait-for-window", test_asks_wait_for_window);
  g_test_add_func ("/paddock/window/approval-allow", test_approval_allow);
  g_test_add_func ("/paddock/window/approval-deny-queue", test_approval_deny_queue);
  g_test_add_func ("/paddock/window/approval-deadline", test_approval_deadline);
  g_test_add_func ("/paddock/window/approval-kill", test_approval_kill);
  g_test_add_func ("/paddock/window/app-decide", test_app_decide);
  g_test_add_func ("/paddock/window/new-tab", test_new_tab);
  g_test_add_func ("/paddock/window/missing-directory", test_missing_directory);
  g_test_add_func ("/paddock/window/command-line-exit-status", test_command_line_exit_status);
  g_test_add_func ("/paddock/window/runner-missing", test_runner_missing);
  g_test_add_func ("/paddock/window/remembers-size", test_remembers_size);
  g_test_add_func ("/paddock/window/lock-action", test_lock_action);
  g_test_add_func ("/paddock/window/lock-popover", test_lock_popover);
  g_test_add_func ("/paddock/window/lock-home", test_lock_home);
  g_test_add_func ("/paddock/window/lock-holds-denied", test_lock_holds_denied);
  g_test_add_func ("/paddock/window/lock-follows-saved-choice", test_lock_follows_saved_choice);
  g_test_add_func ("/paddock/window/lock-failure-keeps-tab", test_lock_failure_keeps_tab);

  status = g_test_run ();
  g_clear_pointer (&notifications, g_ptr_array_unref);
  if (lock_base != NULL)
    test_remove_tree (lock_base);
  g_free (lock_base);
  test_home_remove (home);
  return status;
}
