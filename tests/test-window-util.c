/* test-window-util.c: what the window's test programs share: a notification
 * server, waiting on the main context, finding widgets, a session's shell
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-window-util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "paddock-window.h"

GPtrArray *notifications;
gboolean have_display;
guint app_serial;

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

void
serve_notifications (void)
{
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
  g_bus_own_name_on_connection (bus, "org.freedesktop.Notifications", G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                NULL, NULL, NULL, NULL);
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
