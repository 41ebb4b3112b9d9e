/* test-window-lock.c: the window's folder lock: the switch saves the project's choice for the tabs opened after it, each tab says which lock its session runs under
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
#include "paddock-hosts-window.h"
#include "paddock-lock-popover.h"
#include "paddock-project-config.h"
#include "paddock-project-net.h"
#include "paddock-session-page.h"
#include "paddock-settings.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

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

  /* The open tab keeps how it started, when the user says to. */
  {
    DialogWait question = { "Restart Locked?", NULL };

    g_assert_true (wait_for (dialog_shown, &question, "the offer to restart locked"));
    adw_message_dialog_response (question.dialog, "keep");
  }
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
  {
    DialogWait question = { "Restart Unlocked?", NULL };

    g_assert_true (wait_for (dialog_shown, &question, "the offer to restart unlocked"));
    adw_message_dialog_response (question.dialog, "keep");
  }
  g_assert_true (paddock_session_page_get_locked (locked));
  g_assert_cmpstr (indicator_icon_name (locked), ==, "changes-prevent-symbolic");

  after = open_tab (window);
  assert_runner_lock_flag (after, "--no-lock", "--lock");
  g_assert_null (indicator_icon_name (after));
  g_assert_true (tab_writes (after, outside, "after-tab"));

  destroy_windows (app);
  test_remove_tree (base);
}

/* Turning the lock on under a running session offers to restart it
 * locked; it then runs locked, and says so. */
typedef struct
{
  PaddockSessionPage *page;
  GPid                old;
} RunnerWait;

/* A paddock-run runs, and not the one before: the page may learn of the
 * old one's exit after the test does. */
static gboolean
runner_replaced (gpointer data)
{
  RunnerWait *wait = data;
  GPid pid = paddock_session_page_get_runner_pid (wait->page);

  return pid > 0 && pid != wait->old;
}

static void
test_lock_restart_locked (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *base = NULL;
  g_autofree char *project = NULL;
  g_autofree char *outside = NULL;
  DialogWait question = { "Restart Locked?", NULL };
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;
  GPid first;

  if (skip_without_lock_base ())
    return;

  app = create_application ();
  base = make_lock_dir ("lock-restart");
  project = g_build_filename (base, "project", NULL);
  outside = g_build_filename (base, "outside", NULL);
  g_assert_cmpint (g_mkdir (project, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (outside, 0755), ==, 0);

  window = open_session (app, project, &terminal, &page);
  g_assert_true (tab_writes (page, outside, "before"));
  first = paddock_session_page_get_runner_pid (page);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.lock", NULL));
  g_assert_true (wait_for (dialog_shown, &question, "the offer to restart locked"));
  adw_message_dialog_response (question.dialog, "restart");
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (first), "the unlocked session to end"));
  g_assert_true (wait_for (runner_replaced, &(RunnerWait) { page, first }, "the locked session"));
  g_assert_true (wait_for (terminal_has_prompt, terminal, "the locked shell's prompt"));
  g_assert_true (paddock_session_page_get_locked (page));
  assert_runner_lock_flag (page, "--lock", "--no-lock");
  g_assert_true (wait_for (lock_reported, page, "the locked session's hello"));
  assert_reported_lock (page, TRUE);
  g_assert_cmpstr (indicator_icon_name (page), ==, "changes-prevent-symbolic");
  g_assert_false (tab_writes (page, outside, "after"));
  g_assert_cmpint (adw_tab_view_get_n_pages (paddock_window_get_tab_view (PADDOCK_WINDOW (window))), ==, 1);

  destroy_windows (app);
  test_remove_tree (base);
}

/* The expander under @widget whose label starts with @prefix. */
static GtkWidget *
find_expander (GtkWidget  *widget,
               const char *prefix)
{
  if (GTK_IS_EXPANDER (widget) && g_str_has_prefix (gtk_expander_get_label (GTK_EXPANDER (widget)), prefix))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_expander (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
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
  /* It is its own widget, whose rows are a model: each protection, then
   * the home folder's three lists, each row shown by its title. */
  g_assert_true (PADDOCK_IS_LOCK_POPOVER (popover));
  {
    GListModel *rows = paddock_lock_popover_get_rows (PADDOCK_LOCK_POPOVER (popover));
    guint n = g_list_model_get_n_items (rows);
    guint n_lists = 0;

    g_assert_cmpuint (n, >, 3);
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(PaddockLockRow) row = g_list_model_get_item (rows, i);

        g_assert_true (find_label_containing (popover, paddock_lock_row_get_title (row)));
        if (paddock_lock_row_get_paths (row) != NULL)
          n_lists++;
        else
          g_assert_cmpuint (n_lists, ==, 0);
      }
    g_assert_cmpuint (n_lists, ==, 3);
  }
  /* Beside the folder lock, the network lock's switch. */
  {
    LabelWait network = { popover, "Network Lock" };

    g_assert_true (find_label_containing (popover, network.needle));
  }
  /* And, folded away, the home folder's three lists: what a locked
   * agent reads unasked, what it is asked about, what it never reads. */
  {
    GtkWidget *open = find_expander (popover, "Read without asking: ");
    GtkWidget *asked = find_expander (popover, "Asked for on first read: ");
    GtkWidget *expander = find_expander (popover, "Kept from the agent: ");
    LabelWait ssh = { popover, "~/.ssh\n" };
    LabelWait bashrc = { popover, "~/.bashrc\n" };
    LabelWait config = { popover, "~/.config/\n" };

    g_assert_nonnull (open);
    g_assert_nonnull (asked);
    g_assert_nonnull (expander);
    g_assert_false (find_label_containing (popover, bashrc.needle));
    gtk_expander_set_expanded (GTK_EXPANDER (open), TRUE);
    g_assert_true (wait_for (label_shown, &bashrc, "the open list"));
    g_assert_false (find_label_containing (popover, config.needle));
    gtk_expander_set_expanded (GTK_EXPANDER (asked), TRUE);
    g_assert_true (wait_for (label_shown, &config, "the asked list"));
    g_assert_false (find_label_containing (popover, ssh.needle));
    gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
    g_assert_true (wait_for (label_shown, &ssh, "the deny list"));
  }
  gtk_popover_popdown (GTK_POPOVER (popover));
  /* The keyboard is the terminal's again. */
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (terminal)));

  destroy_windows (app);
  g_rmdir (project);
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

static gboolean
net_locked_is (PaddockSessionPage *page,
               gboolean            locked)
{
  return paddock_session_page_get_net_locked (page) == locked;
}

static gboolean
session_net_locked (gpointer data)
{
  return net_locked_is (data, TRUE);
}

/* Whether @project's saved network choice is @locked. */
static gboolean
project_network_saved (const char *project,
                       gboolean    locked)
{
  g_autofree char *real = realpath (project, NULL);
  PaddockProjectNet net = { 0 };
  gboolean saved;

  g_assert_true (paddock_project_net_load (real, &net, NULL));
  saved = net.has_network && net.locked == locked;
  paddock_project_net_clear (&net);
  return saved;
}

/* The header's network toggle (win.network) saves the project's choice
 * for new tabs; a tab running otherwise is offered a restart, which
 * starts paddock-run with --net=locked; the tab shows its indicator and
 * says so in its tooltip. Turned off, the choice is saved open.
 *
 * tests/fake-net-session.sh stands in for paddock-run (which gets its
 * --net from the network lock's branch): it prints its command line and
 * greets with the network "on" where it was given --net=locked. */
static void
test_network_toggle (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *fake = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-net-session.sh", NULL);
  g_autofree char *runner = g_strdup (g_getenv ("PADDOCK_RUN"));
  DialogWait question = { "Restart with the Network Locked?", NULL };
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;
  GPid first;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  g_setenv ("PADDOCK_RUN", fake, TRUE);
  window = open_session (app, dir, &terminal, &page);
  assert_terminal_shows (terminal, "greeted");
  {
    g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);

    g_assert_null (strstr (text, "--net=locked"));
  }
  g_assert_false (paddock_session_page_get_net_locked (page));
  first = paddock_session_page_get_runner_pid (page);

  /* On: saved for the project, and the running tab offered a restart. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.network", NULL));
  g_assert_true (project_network_saved (dir, TRUE));
  {
    gboolean locked = FALSE;

    g_object_get (window, "network-locked", &locked, NULL);
    g_assert_true (locked);
  }
  g_assert_true (wait_for (dialog_shown, &question, "the offer to restart with the network locked"));
  adw_message_dialog_response (question.dialog, "restart");
  g_assert_true (wait_for (runner_replaced, &(RunnerWait) { page, first }, "the restarted session"));
  assert_terminal_shows (terminal, "--net=locked");
  g_assert_true (wait_for (session_net_locked, page, "the session under the network lock"));
  g_assert_cmpstr (indicator_icon_name (page), ==, "network-wired-disconnected-symbolic");

  /* Off: saved open; the running tab keeps its network until it restarts. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.network", NULL));
  g_assert_true (project_network_saved (dir, FALSE));
  g_assert_true (paddock_session_page_get_net_locked (page));

  destroy_windows (app);
  if (runner != NULL)
    g_setenv ("PADDOCK_RUN", runner, TRUE);
  g_rmdir (dir);
}

static gboolean
hosts_window_shown (gpointer data)
{
  GtkWidget **found = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (PADDOCK_IS_HOSTS_WINDOW (window) && gtk_widget_get_mapped (window))
        {
          *found = window;
          return TRUE;
        }
    }
  return FALSE;
}

/* The hosts editor, from the popover's button (win.network-hosts): a
 * host typed in a list goes into the project's settings, a host that is
 * none is refused with nothing saved, and a row's remove button takes it
 * out; each list shows what the settings hold. */
static void
test_network_hosts (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  PaddockProjectNet net = { 0 };
  GtkWidget *hosts = NULL;
  GtkWidget *allow_entry;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.network-hosts", NULL));
  g_assert_true (wait_for (hosts_window_shown, &hosts, "the hosts editor"));
  allow_entry = find_descendant (hosts, ADW_TYPE_ENTRY_ROW, TRUE);
  g_assert_nonnull (allow_entry);

  gtk_editable_set_text (GTK_EDITABLE (allow_entry), "API.example.com:443");
  g_signal_emit_by_name (allow_entry, "apply");
  g_assert_true (paddock_project_net_load (dir, &net, NULL));
  g_assert_cmpuint (g_strv_length (net.allow), ==, 1);
  g_assert_cmpstr (net.allow[0], ==, "api.example.com:443");
  paddock_project_net_clear (&net);
  {
    LabelWait row = { hosts, "api.example.com:443" };

    g_assert_true (wait_for (label_shown, &row, "the allowed host's row"));
  }

  /* Not a host: refused, nothing saved, the entry kept for a fix. */
  gtk_editable_set_text (GTK_EDITABLE (allow_entry), "not a host/");
  g_signal_emit_by_name (allow_entry, "apply");
  g_assert_true (gtk_widget_has_css_class (allow_entry, "error"));
  g_assert_true (paddock_project_net_load (dir, &net, NULL));
  g_assert_cmpuint (g_strv_length (net.allow), ==, 1);
  paddock_project_net_clear (&net);

  g_assert_true (gtk_widget_activate_action (hosts, "hosts.remove", "s", "api.example.com:443"));
  g_assert_true (paddock_project_net_load (dir, &net, NULL));
  g_assert_cmpuint (g_strv_length (net.allow), ==, 0);
  paddock_project_net_clear (&net);
  g_assert_false (find_label_containing (hosts, "api.example.com:443"));

  gtk_window_destroy (GTK_WINDOW (hosts));
  destroy_windows (app);
  path = paddock_project_config_path (dir);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  g_test_add_func ("/paddock/window/lock-action", test_lock_action);
  g_test_add_func ("/paddock/window/lock-restart-locked", test_lock_restart_locked);
  g_test_add_func ("/paddock/window/lock-popover", test_lock_popover);
  g_test_add_func ("/paddock/window/lock-home", test_lock_home);
  g_test_add_func ("/paddock/window/lock-holds-denied", test_lock_holds_denied);
  g_test_add_func ("/paddock/window/lock-follows-saved-choice", test_lock_follows_saved_choice);
  g_test_add_func ("/paddock/window/lock-failure-keeps-tab", test_lock_failure_keeps_tab);
  g_test_add_func ("/paddock/window/network-toggle", test_network_toggle);
  g_test_add_func ("/paddock/window/network-hosts", test_network_hosts);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
