/* test-window-approval.c: the window answers asks: the approval bar, its actions, app.decide and the notifications
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

/* A program that asks for a secret (paddock-secret in the tab's shell)
 * shows in the bar as such: which secret, for which command line; allowed
 * there, the program gets it and the terminal shows only its mask. The
 * secret is stored with secret-tool, so that this program, which runs
 * beside others, holds no Secret Service proxies of its own. */
static void
test_approval_secret (void)
{
  static const char value[] = "window-secret-value-3e1f";
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *line = NULL;
  g_autofree char *paddock_secret = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "vault-client",
                                                      "paddock-secret", NULL);
  const char *store[] = { "secret-tool", "store", "--label", "gh", "xdg:schema", "org.paddock.Secret", "name", "gh",
                          "project", "", "mode", "ask", "pins", "[]", NULL };
  const char *clear[] = { "secret-tool", "clear", "xdg:schema", "org.paddock.Secret", "name", "gh", NULL };
  g_autoptr(GSubprocess) storing = NULL;
  PaddockApprovalBar *bar;
  PaddockSessionPage *page;
  VteTerminal *terminal;

  if (skip_without_display ())
    return;
  storing = g_subprocess_newv (store, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  if (storing == NULL || !g_subprocess_communicate_utf8 (storing, value, NULL, NULL, NULL, &error) ||
      !g_subprocess_get_if_exited (storing) || g_subprocess_get_exit_status (storing) != 0)
    {
      g_test_skip ("secret-tool cannot store a secret here (libsecret-tools, a Secret Service)");
      return;
    }

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  bar = paddock_session_page_get_approval_bar (page);
  line = g_strdup_printf ("%s run --env T=gh -- /usr/bin/printenv T; echo \"status=$?.\"\n", paddock_secret);
  feed (terminal, line);
  g_assert_true (wait_for (ask_shown, page, "the approval bar"));
  g_assert_cmpstr (paddock_approval_bar_get_current (bar)->kind, ==, "secret");
  {
    LabelWait shown = { GTK_WIDGET (bar), "Secret “gh” for " };

    g_assert_true (wait_for (label_shown, &shown, shown.needle));
    g_assert_true (find_label_containing (GTK_WIDGET (bar), "printenv T"));
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  assert_terminal_shows (terminal, "status=0.");
  assert_terminal_shows (terminal, "«secret:gh»");
  assert_terminal_lacks (terminal, value);

  destroy_windows (app);
  g_rmdir (dir);
  g_spawn_sync (NULL, (char **) clear, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                NULL, NULL, NULL);
}

/* Whether the button labelled @label in @widget is shown. */
static gboolean
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (find_button (child, label))
      return TRUE;
  return FALSE;
}

typedef struct
{
  PaddockSessionPage *page;
  gint64              id;
} AskWait;

static gboolean
ask_is_current (gpointer data)
{
  AskWait *wait = data;
  const PaddockMessage *ask = paddock_approval_bar_get_current (paddock_session_page_get_approval_bar (wait->page));

  return ask != NULL && ask->id == wait->id;
}

/* Whether the timeline of @wait's page has the row of the ask @wait->id, decided. */
static gboolean
row_decided (gpointer data)
{
  AskWait *wait = data;
  PaddockTimelineEvent *row = paddock_timeline_lookup (paddock_session_page_get_timeline (wait->page), wait->id);

  return row != NULL && paddock_timeline_event_get_decision (row) != PADDOCK_TIMELINE_DECISION_ASKING;
}

/* Waits for the home ask @id in @page's bar, with its heading. */
static void
wait_for_home_ask (PaddockSessionPage *page,
                   gint64              id,
                   const char         *heading)
{
  AskWait current = { page, id };
  LabelWait shown = { GTK_WIDGET (paddock_session_page_get_approval_bar (page)), heading };

  g_assert_true (wait_for (ask_is_current, &current, "the home ask"));
  g_assert_cmpstr (paddock_approval_bar_get_current (paddock_session_page_get_approval_bar (page))->kind, ==, "home");
  g_assert_true (wait_for (label_shown, &shown, heading));
}

/* A read in the home folder asked about shows in the bar as such: what
 * the agent wants to read (the home folder as ~), the command line that
 * reads, a countdown, and its own three answers, which send the session
 * the right decide: Allow for This Session (and Ctrl+Shift+A's action)
 * for the session, Allow in This Project for the project, Deny once. A
 * tab out of sight notifies of one, its Allow for the session too.
 *
 * No paddock-run asks about the home folder yet (the home view is being
 * built beside this), so tests/fake-home-session.sh stands in for it,
 * through PADDOCK_RUN: it greets, asks, and prints each decide it gets
 * on its terminal. */
static void
test_approval_home (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *go = NULL;
  g_autofree char *fake = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-home-session.sh", NULL);
  g_autofree char *session = NULL;
  g_autofree char *runner = g_strdup (g_getenv ("PADDOCK_RUN"));
  PaddockApprovalBar *bar;
  PaddockSessionPage *page, *second;
  VteTerminal *terminal;
  AdwTabView *tab_view;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  out = g_dir_make_tmp ("paddock-home-asks-XXXXXX", &error);
  g_assert_no_error (error);
  go = g_build_filename (out, "go", NULL);
  g_setenv ("PADDOCK_RUN", fake, TRUE);
  g_setenv ("PADDOCK_TEST_HOME_OUT", out, TRUE);
  g_setenv ("PADDOCK_TEST_HOME_ASKS", "5:.m2:settings.xml 6:.gradle:gradle.properties 7:.pgpass: "
                                      "8:.config/rclone:rclone.conf", TRUE);
  g_setenv ("PADDOCK_TEST_HOME_WAIT", "8", TRUE);
  window = open_session (app, dir, &terminal, &page);
  bar = paddock_session_page_get_approval_bar (page);
  assert_terminal_shows (terminal, "greeted");

  /* What, by which command, where, and how long it waits; its own buttons. */
  wait_for_home_ask (page, 5, "The agent wants to read ~/.m2 (settings.xml)");
  {
    g_autofree char *in_dir = g_strdup_printf ("in %s", dir);

    g_assert_true (find_label_containing (GTK_WIDGET (bar), "mvn -q package"));
    g_assert_true (find_label_containing (GTK_WIDGET (bar), in_dir));
    g_assert_true (find_label_containing (GTK_WIDGET (bar), "Refused in "));
  }
  g_assert_true (find_button (GTK_WIDGET (bar), "Allow for This Session"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Allow in This Project"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Deny"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Kill Agent"));
  g_assert_false (find_button (GTK_WIDGET (bar), "Allow Once"));
  g_assert_false (find_button (GTK_WIDGET (bar), "Always Allow in This Project"));

  /* Each answer sends its decide. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  assert_terminal_shows (terminal, "answer 5 allow session");
  wait_for_home_ask (page, 6, "The agent wants to read ~/.gradle (gradle.properties)");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow-always", NULL));
  assert_terminal_shows (terminal, "answer 6 allow project");
  /* An entry asked about for itself has no file below it. */
  wait_for_home_ask (page, 7, "The agent wants to read ~/.pgpass");
  g_assert_false (find_label_containing (GTK_WIDGET (bar), "~/.pgpass ("));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  assert_terminal_shows (terminal, "answer 7 deny once");
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));

  /* The timeline has each read, decided. */
  {
    PaddockTimeline *timeline = paddock_session_page_get_timeline (page);
    PaddockTimelineEvent *row;
    AskWait decided = { page, 7 };

    g_assert_true (wait_for (row_decided, &decided, "the last read's row decided"));
    row = paddock_timeline_lookup (timeline, 5);
    g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_HOME);
    g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
    row = paddock_timeline_lookup (timeline, 7);
    g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  }

  /* Out of sight behind a second tab, which only greets: a notification,
   * whose Allow is for the session. */
  g_assert_true (wait_for (lock_reported, page, "the session's hello"));
  session = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (page)));
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  second = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (second != page);
  g_assert_true (wait_for (session_running, second, "the second session"));
  g_assert_true (wait_for (terminal_has_prompt, paddock_session_page_get_terminal (second), "the second greeting"));
  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
  g_assert_true (wait_for (ask_shown, page, "the last ask"));
  {
    const char *body = "~/.config/rclone/rclone.conf, for mvn -q package";
    g_autofree char *allow = g_strdup_printf ("app.decide(('%s', int64 8, 'allow'))", session);
    Notification *notification;

    g_assert_true (wait_for (notification_sent, (gpointer) body, "the notification"));
    notification = find_notification (body);
    g_assert_true (g_str_has_prefix (notification->summary, "The Agent Wants to Read a File in "));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, allow));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, "Allow for This Session"));
    activate_decide (app, session, 8, "allow");
    assert_terminal_shows (terminal, "answer 8 allow session");
    g_assert_true (wait_for (notification_closed, (gpointer) body, "the notification to close"));
  }

  destroy_windows (app);
  if (runner != NULL)
    g_setenv ("PADDOCK_RUN", runner, TRUE);
  g_unsetenv ("PADDOCK_TEST_HOME_OUT");
  g_unsetenv ("PADDOCK_TEST_HOME_ASKS");
  g_unsetenv ("PADDOCK_TEST_HOME_WAIT");
  test_remove_tree (out);
  g_rmdir (dir);
}

/* Waits for the host ask @id in @page's bar, with its heading. */
static void
wait_for_host_ask (PaddockSessionPage *page,
                   gint64              id,
                   const char         *heading)
{
  AskWait current = { page, id };
  LabelWait shown = { GTK_WIDGET (paddock_session_page_get_approval_bar (page)), heading };

  g_assert_true (wait_for (ask_is_current, &current, "the host ask"));
  g_assert_cmpstr (paddock_approval_bar_get_current (paddock_session_page_get_approval_bar (page))->kind, ==, "host");
  g_assert_true (wait_for (label_shown, &shown, heading));
}

/* Under the network lock, a connection to a host nobody listed shows in
 * the bar as such: the host and port, the program that connects and its
 * pid, a countdown, and its own answers, which send the session the right
 * decide: Allow Once (and Ctrl+Shift+A's action) once, Allow Host in This
 * Project for the project, Deny once. The timeline has each connection,
 * decided, and the allowed one's end. A tab out of sight notifies of
 * one, its Allow once through app.decide.
 *
 * tests/fake-net-session.sh stands in for paddock-run, through
 * PADDOCK_RUN: it greets, asks, and prints each decide it gets on its
 * terminal. */
static void
test_approval_host (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *fake = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-net-session.sh", NULL);
  g_autofree char *runner = g_strdup (g_getenv ("PADDOCK_RUN"));
  g_autofree char *pid_text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *go = NULL;
  g_autofree char *session = NULL;
  g_autoptr(GError) error = NULL;
  PaddockApprovalBar *bar;
  PaddockSessionPage *page, *second;
  VteTerminal *terminal;
  AdwTabView *tab_view;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  out = g_dir_make_tmp ("paddock-net-asks-XXXXXX", &error);
  g_assert_no_error (error);
  go = g_build_filename (out, "go", NULL);
  g_setenv ("PADDOCK_RUN", fake, TRUE);
  g_setenv ("PADDOCK_TEST_NET_OUT", out, TRUE);
  g_setenv ("PADDOCK_TEST_NET_ASKS", "5:api.example.com:443 6:registry.example.org:443 7:upload.example.net:8443 "
                                     "8:cdn.example.org:443", TRUE);
  g_setenv ("PADDOCK_TEST_NET_WAIT", "8", TRUE);
  window = open_session (app, dir, &terminal, &page);
  bar = paddock_session_page_get_approval_bar (page);
  assert_terminal_shows (terminal, "greeted");

  wait_for_host_ask (page, 5, "The agent wants to reach api.example.com:443");
  pid_text = g_strdup_printf ("(pid %d)", paddock_approval_bar_get_current (bar)->pid);
  g_assert_true (find_label_containing (GTK_WIDGET (bar), "curl -s https://api.example.com/"));
  g_assert_true (find_label_containing (GTK_WIDGET (bar), pid_text));
  g_assert_true (find_label_containing (GTK_WIDGET (bar), "Refused in "));
  g_assert_true (find_button (GTK_WIDGET (bar), "Allow Once"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Allow Host in This Project"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Deny"));
  g_assert_true (find_button (GTK_WIDGET (bar), "Kill Agent"));
  g_assert_false (find_button (GTK_WIDGET (bar), "Always Allow in This Project"));
  g_assert_false (find_button (GTK_WIDGET (bar), "Allow for This Session"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  assert_terminal_shows (terminal, "answer 5 allow once");
  wait_for_host_ask (page, 6, "The agent wants to reach registry.example.org:443");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow-always", NULL));
  assert_terminal_shows (terminal, "answer 6 allow project");
  wait_for_host_ask (page, 7, "The agent wants to reach upload.example.net:8443");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  assert_terminal_shows (terminal, "answer 7 deny once");
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));

  {
    PaddockTimeline *timeline = paddock_session_page_get_timeline (page);
    PaddockTimelineEvent *row;
    AskWait decided = { page, 7 };

    g_assert_true (wait_for (row_decided, &decided, "the last connection's row decided"));
    row = paddock_timeline_lookup (timeline, 5);
    g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_NET);
    g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
    g_assert_true (paddock_timeline_event_get_ended (row));
    g_assert_cmpint (paddock_timeline_event_get_bytes_in (row), ==, 4096);
    row = paddock_timeline_lookup (timeline, 7);
    g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
    g_assert_false (paddock_timeline_event_get_ended (row));
  }

  /* Out of sight behind a second tab, which only greets: a notification
   * naming the host, whose Allow answers once through app.decide. */
  g_assert_true (wait_for (lock_reported, page, "the session's hello"));
  session = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (page)));
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  second = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (second != page);
  g_assert_true (wait_for (session_running, second, "the second session"));
  g_assert_true (wait_for (terminal_has_prompt, paddock_session_page_get_terminal (second), "the second greeting"));
  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
  g_assert_true (wait_for (ask_shown, page, "the last ask"));
  {
    /* The pid is the fake session's own, as its ask says. */
    g_autofree char *body = g_strdup_printf ("cdn.example.org:443, for curl -s https://cdn.example.org/ (pid %d)",
                                             paddock_approval_bar_get_ask (bar, 8)->pid);
    g_autofree char *allow = g_strdup_printf ("app.decide(('%s', int64 8, 'allow'))", session);
    Notification *notification;

    g_assert_true (wait_for (notification_sent, body, "the notification"));
    notification = find_notification (body);
    g_assert_true (g_str_has_prefix (notification->summary, "The Agent Wants to Reach a Host in "));
    g_assert_true (g_strv_contains ((const char * const *) notification->actions, allow));
    activate_decide (app, session, 8, "allow");
    assert_terminal_shows (terminal, "answer 8 allow once");
    g_assert_true (wait_for (notification_closed, body, "the notification to close"));
  }

  destroy_windows (app);
  if (runner != NULL)
    g_setenv ("PADDOCK_RUN", runner, TRUE);
  g_unsetenv ("PADDOCK_TEST_NET_ASKS");
  g_unsetenv ("PADDOCK_TEST_NET_OUT");
  g_unsetenv ("PADDOCK_TEST_NET_WAIT");
  test_remove_tree (out);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* Tabs out of sight notify of their asks; this program's own server
   * takes the notifications, as a desktop's would. Only this one of the
   * window's test programs, which may run side by side on one bus, asks. */
  if (have_display)
    serve_notifications ();
  g_test_add_func ("/paddock/window/asks-wait-for-window", test_asks_wait_for_window);
  g_test_add_func ("/paddock/window/approval-allow", test_approval_allow);
  g_test_add_func ("/paddock/window/approval-deny-queue", test_approval_deny_queue);
  g_test_add_func ("/paddock/window/approval-deadline", test_approval_deadline);
  g_test_add_func ("/paddock/window/approval-kill", test_approval_kill);
  g_test_add_func ("/paddock/window/app-decide", test_app_decide);
  g_test_add_func ("/paddock/window/approval-secret", test_approval_secret);
  g_test_add_func ("/paddock/window/approval-home", test_approval_home);
  g_test_add_func ("/paddock/window/approval-host", test_approval_host);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
