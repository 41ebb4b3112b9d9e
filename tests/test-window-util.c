/* test-window-util.c: what the window's test programs share: a display, a private home, a notification server, waiting on the window
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
#include "paddock-timeline-view.h"
#include "paddock-settings.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

gboolean have_display;
static guint app_serial;
/* Outside /tmp, which the folder lock grants: what "outside" means for it. */
char *lock_base;

GPtrArray *notifications;

static const char notifications_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.Notifications'>"
  "    <method name='Notify'>"
  "      <arg type='s' direction='in'/><arg type='u' direction='in'/><arg type='s' direction='in'/>"
  "      <arg type='s' direction='in'/><arg type='s' direction='in'/><arg type='as' direction='in'/>"
  "      <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/><arg type='u' direction='out'/>"
  "    </method>"
  "    <method name='CloseNotification'><arg type='u' direction='in'/></method>"
  "  </interface>"
  "</node>";

static void
notification_free (gpointer data)
{
  Notification *notification = data;

  g_free (notification->summary);
  g_free (notification->body);
  g_strfreev (notification->actions);
  g_free (notification);
}

static void
notifications_method_call (GDBusConnection       *connection,
                           const char            *sender,
                           const char            *object_path,
                           const char            *interface_name,
                           const char            *method_name,
                           GVariant              *parameters,
                           GDBusMethodInvocation *invocation,
                           gpointer               user_data)
{
  if (g_str_equal (method_name, "Notify"))
    {
      Notification *notification = g_new0 (Notification, 1);

      g_variant_get (parameters, "(&su&sss^as@a{sv}i)", NULL, NULL, NULL,
                     &notification->summary, &notification->body, &notification->actions, NULL, NULL);
      notification->id = notifications->len + 1;
      g_ptr_array_add (notifications, notification);
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(u)", notification->id));
    }
  else
    {
      guint32 id;

      g_variant_get (parameters, "(u)", &id);
      if (id >= 1 && id <= notifications->len)
        ((Notification *) g_ptr_array_index (notifications, id - 1))->closed = TRUE;
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
}

static void
name_acquired_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         data)
{
  *(int *) data = 1;
}

static void
name_lost_cb (GDBusConnection *connection,
              const char      *name,
              gpointer         data)
{
  *(int *) data = -1;
}

void
serve_notifications (void)
{
  static int owned;
  static const GDBusInterfaceVTable vtable = { notifications_method_call, NULL, NULL, { 0 } };
  g_autoptr(GDBusNodeInfo) info = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;

  notifications = g_ptr_array_new_with_free_func (notification_free);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  info = g_dbus_node_info_new_for_xml (notifications_xml, &error);
  g_assert_no_error (error);
  g_dbus_connection_register_object (bus, "/org/freedesktop/Notifications", info->interfaces[0],
                                     &vtable, NULL, NULL, &error);
  g_assert_no_error (error);
  /* Owned before any test sends one: a Notify to a name nobody owns yet is
   * lost, and so is one to another test program's server on the same bus. */
  g_bus_own_name_on_connection (bus, "org.freedesktop.Notifications", G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                name_acquired_cb, name_lost_cb, &owned, NULL);
  while (owned == 0)
    g_main_context_iteration (NULL, TRUE);
  if (owned < 0)
    g_error ("cannot serve org.freedesktop.Notifications on the test's bus: another program owns it");
}

/* The last notification whose body is @body, or NULL. */
Notification *
find_notification (const char *body)
{
  for (guint i = notifications->len; i > 0; i--)
    {
      Notification *notification = g_ptr_array_index (notifications, i - 1);

      if (g_strcmp0 (notification->body, body) == 0)
        return notification;
    }
  return NULL;
}

gboolean
notification_sent (gpointer data)
{
  return find_notification (data) != NULL;
}

gboolean
notification_closed (gpointer data)
{
  Notification *notification = find_notification (data);

  return notification != NULL && notification->closed;
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main context until @condition holds; FALSE after WAIT_SECONDS. */
gboolean
wait_for (Condition   condition,
          gpointer    data,
          const char *what)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (20, wake_up, NULL);
  gboolean met;

  while (!(met = condition (data)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_id);
  if (!met)
    g_test_message ("timed out after %d s waiting for %s", WAIT_SECONDS, what);
  return met;
}

gboolean
skip_without_display (void)
{
  if (!have_display)
    {
      g_test_skip ("no display: set DISPLAY (the test runner starts Xvfb)");
      return TRUE;
    }
  return FALSE;
}

PaddockApplication *
create_application (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  PaddockApplication *app;

  /* A distinct id each, so the applications never share a D-Bus object path. */
  id = g_strdup_printf ("%s.Test%u", APPLICATION_ID, ++app_serial);
  app = paddock_application_new (id, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  return app;
}

GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type,
                 gboolean   mapped_only)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (!mapped_only || gtk_widget_get_mapped (widget)))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type, mapped_only);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
find_button_for_action (GtkWidget  *widget,
                        const char *action)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_for_action (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

gboolean
find_label_containing (GtkWidget  *widget,
                       const char *needle)
{
  if (GTK_IS_LABEL (widget) &&
      gtk_widget_get_mapped (widget) &&
      strstr (gtk_label_get_label (GTK_LABEL (widget)), needle) != NULL)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (find_label_containing (child, needle))
      return TRUE;

  return FALSE;
}

gboolean
label_shown (gpointer data)
{
  LabelWait *wait = data;

  return find_label_containing (wait->root, wait->needle);
}

gboolean
terminal_shows (gpointer data)
{
  TextWait *wait = data;
  g_autofree char *text = vte_terminal_get_text (wait->terminal, NULL, NULL, NULL);

  return text != NULL && strstr (text, wait->needle) != NULL;
}

gboolean
terminal_has_prompt (gpointer data)
{
  g_autofree char *text = vte_terminal_get_text (VTE_TERMINAL (data), NULL, NULL, NULL);

  return text != NULL && *g_strstrip (text) != '\0';
}

void
assert_terminal_shows (VteTerminal *terminal,
                       const char  *needle)
{
  TextWait wait = { terminal, needle };

  if (!wait_for (terminal_shows, &wait, needle))
    {
      g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);

      g_test_message ("the terminal shows:\n%s", text);
      g_assert_not_reached ();
    }
}

void
feed (VteTerminal *terminal,
      const char  *line)
{
  vte_terminal_feed_child (terminal, line, -1);
}

gboolean
session_running (gpointer data)
{
  return paddock_session_page_get_runner_pid (PADDOCK_SESSION_PAGE (data)) > 0;
}

gboolean
session_stopped (gpointer data)
{
  return !paddock_session_page_get_running (PADDOCK_SESSION_PAGE (data));
}

gboolean
process_gone (gpointer data)
{
  pid_t pid = GPOINTER_TO_INT (data);

  return kill (pid, 0) != 0 && errno == ESRCH;
}

gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

void
set_flag (gboolean *flag)
{
  *flag = TRUE;
}

void
run_main_loop_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add_once (ms, (GSourceOnceFunc) set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

gboolean
tab_title_is (gpointer data)
{
  TitleWait *wait = data;
  AdwTabPage *page = adw_tab_view_get_selected_page (wait->tab_view);

  return page != NULL && g_strcmp0 (adw_tab_page_get_title (page), wait->title) == 0;
}

/* Opens a window on @dir and waits for its first session's shell prompt. */
GtkWindow *
open_session (PaddockApplication  *app,
              const char          *dir,
              VteTerminal        **terminal_out,
              PaddockSessionPage **page_out)
{
  g_autoptr(GError) error = NULL;
  GtkWindow *window;
  GtkWidget *terminal;
  GtkWidget *page;

  window = paddock_application_open_directory (app, dir, &error);
  g_assert_no_error (error);
  g_assert_true (PADDOCK_IS_WINDOW (window));

  terminal = find_descendant (GTK_WIDGET (window), VTE_TYPE_TERMINAL, FALSE);
  g_assert_nonnull (terminal);
  page = gtk_widget_get_ancestor (terminal, PADDOCK_TYPE_SESSION_PAGE);
  g_assert_nonnull (page);

  g_assert_true (wait_for (session_running, page, "paddock-run to start"));
  g_assert_true (wait_for (terminal_has_prompt, terminal, "the shell's prompt"));

  *terminal_out = VTE_TERMINAL (terminal);
  *page_out = PADDOCK_SESSION_PAGE (page);
  return window;
}

char *
make_project_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("paddock-window-XXXXXX", &error);
  char *canonical;

  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  g_assert_nonnull (canonical);
  g_free (dir);
  return canonical;
}

void
destroy_windows (PaddockApplication *app)
{
  GList *windows;

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    gtk_window_destroy (windows->data);
}

gboolean
lock_reported (gpointer data)
{
  return paddock_session_page_get_reported_lock (PADDOCK_SESSION_PAGE (data)) != NULL;
}

/* What @page's session said of its lock, over the window's connection. */
void
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

void
keep_ask_cb (PaddockClient         *client,
             const PaddockMessage  *message,
             PaddockMessage       **ask)
{
  if (*ask == NULL)
    *ask = paddock_message_copy (message);
}

gboolean
message_kept (gpointer data)
{
  return *(PaddockMessage **) data != NULL;
}

void
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

gboolean
ask_shown (gpointer data)
{
  PaddockApprovalBar *bar = paddock_session_page_get_approval_bar (PADDOCK_SESSION_PAGE (data));

  return paddock_approval_bar_get_current (bar) != NULL;
}

gboolean
no_ask_shown (gpointer data)
{
  return !ask_shown (data);
}

gboolean
n_waiting_is (gpointer data)
{
  WaitingWait *wait = data;

  return paddock_approval_bar_get_n_waiting (paddock_session_page_get_approval_bar (wait->page)) == wait->n;
}

/* Runs @command in @page's shell, waits for the approval bar to show
 * it, and returns the ask shown. */
const PaddockMessage *
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
void
assert_runner_quiet (VteTerminal *terminal)
{
  assert_terminal_lacks (terminal, "paddock-run");
  assert_terminal_lacks (terminal, "nobody is attached");
}

void
activate_decide (PaddockApplication *app,
                 const char         *session_id,
                 gint64              ask_id,
                 const char         *answer)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), "decide",
                                  g_variant_new ("(sxs)", session_id, ask_id, answer));
}

gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

void
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

gboolean
close_window (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

void
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

void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 RunCheck       *check)
{
  g_signal_connect_after (window, "map", G_CALLBACK (window_mapped_cb), check);
}

/* Runs the application as main() does, closing each window once it shows. */
int
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

gboolean
status_page_shown (gpointer data)
{
  StatusWait *wait = data;
  GtkWidget *status_page = find_descendant (wait->root, ADW_TYPE_STATUS_PAGE, TRUE);

  return status_page != NULL &&
         g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (status_page)), wait->title) == 0;
}

char *
make_lock_dir (const char *name)
{
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", name);
  char *dir = g_build_filename (lock_base, template, NULL);

  g_assert_nonnull (g_mkdtemp (dir));
  return dir;
}

gboolean
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
char **
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

void
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
int
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

gboolean
lock_saved_as (gpointer data)
{
  SavedWait *wait = data;

  return saved_lock (wait->project) == wait->choice;
}

gboolean
window_lock_is (gpointer data)
{
  LockWait *wait = data;
  gboolean lock;

  g_object_get (wait->object, "lock", &lock, NULL);
  return lock == wait->value;
}

const char *
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
PaddockSessionPage *
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

gboolean
tab_busy (gpointer data)
{
  g_autofree char *program = paddock_session_page_dup_busy_program (PADDOCK_SESSION_PAGE (data));

  return program != NULL;
}

/* The tab's foreground program is sleep(1): the shell's child is still
 * called after the shell until the supervisor lets its exec through. */
gboolean
tab_runs_sleep (gpointer data)
{
  g_autofree char *program = paddock_session_page_dup_busy_program (PADDOCK_SESSION_PAGE (data));

  return g_strcmp0 (program, "sleep") == 0;
}

/* A message dialog with @heading is showing: one answered a moment ago
 * may still be there until it is gone. */
gboolean
dialog_shown (gpointer data)
{
  DialogWait *wait = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel) && gtk_widget_get_visible (GTK_WIDGET (toplevel)) &&
          toplevel != (GObject *) wait->dialog &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (toplevel)), wait->heading) == 0)
        {
          wait->dialog = ADW_MESSAGE_DIALOG (toplevel);
          return TRUE;
        }
    }
  return FALSE;
}

int
n_pages_of (GtkWindow *window)
{
  return adw_tab_view_get_n_pages (paddock_window_get_tab_view (PADDOCK_WINDOW (window)));
}

gboolean
one_page_left (gpointer data)
{
  return n_pages_of (GTK_WINDOW (data)) == 1;
}

gboolean
terminal_shows_either (gpointer data)
{
  TextWait *waits = data;

  return terminal_shows (&waits[0]) || terminal_shows (&waits[1]);
}

/* Has the tab's shell write @name in @dir; returns whether the file appeared,
 * after checking the shell saw the same. */
gboolean
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

/* The home folder cannot be locked to (paddock-run refuses it): the
 * switch is off and insensitive, and the popover says why. */
/* Opens a window on @project, which cannot be locked to: the switch is
 * off and insensitive, its popover says each of @because, and no choice
 * is saved. */
void
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

void
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

static char *home;

void
test_window_init (int    *argc,
                  char ***argv)
{
  home = test_home_new ();
  const char *asan = g_getenv ("ASAN_OPTIONS");

  g_test_init (argc, argv, NULL);

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

  /* Each test opens what it opens, not what the one before it left open;
   * the test of restoring turns it back on. */
  {
    g_autoptr(GSettings) settings = paddock_settings_new ();

    if (settings != NULL)
      {
        g_settings_set_boolean (settings, "restore-sessions", FALSE);
        /* Nor does a tab call for attention unless a test asks it to. */
        g_settings_set_int (settings, "quiet-seconds", 0);
      }
  }
}

void
test_window_cleanup (void)
{
  g_clear_pointer (&notifications, g_ptr_array_unref);
  if (lock_base != NULL)
    test_remove_tree (lock_base);
  g_clear_pointer (&lock_base, g_free);
  test_home_remove (g_steal_pointer (&home));
}
