/* paddock-session-page-attention.c: a tab calling for the user: notifications of its asks, the bell, quiet after output
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "paddock-escape.h"
#include "paddock-session-page-private.h"
#include "paddock-timeline.h"

/* Output this soon after a keystroke is its echo, not the agent's. */
#define ECHO_WINDOW_US  (300 * G_TIME_SPAN_MILLISECOND)

/* Whether the user sees this tab: its window has the focus and it is the
 * selected tab. */
static gboolean
is_in_sight (PaddockSessionPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *tab_view = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TAB_VIEW);
  AdwTabPage *selected;

  if (!GTK_IS_WINDOW (root) || !gtk_window_is_active (GTK_WINDOW (root)))
    return FALSE;
  if (tab_view == NULL)
    return TRUE;
  selected = adw_tab_view_get_selected_page (ADW_TAB_VIEW (tab_view));
  return selected != NULL && adw_tab_page_get_child (selected) == GTK_WIDGET (self);
}

/* The application to notify through, or NULL when there is none, the
 * session has not said its id, or the user turned notifications off. */
static GApplication *
get_notifying_app (PaddockSessionPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkApplication *app = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root)) : NULL;

  if (app == NULL || self->client == NULL || paddock_client_get_session_id (self->client) == NULL)
    return NULL;
  if (self->settings != NULL && !g_settings_get_boolean (self->settings, "notifications"))
    return NULL;
  return G_APPLICATION (app);
}

/* Tells of @ask in a notification whose buttons answer it (app.decide)
 * and whose click brings this tab forward (app.show-session). */
static void
notify_ask (PaddockSessionPage   *self,
            const PaddockMessage *ask)
{
  GApplication *app = get_notifying_app (self);
  const char *session_id;
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *id = NULL;
  g_autofree char *title = NULL;
  g_autofree char *line = NULL;

  if (app == NULL)
    return;
  session_id = paddock_client_get_session_id (self->client);
  if (self->notifying_app != app)
    g_set_weak_pointer (&self->notifying_app, app);

  if (g_strcmp0 (ask->kind, "home") == 0)
    {
      g_autofree char *what = paddock_home_display_path (ask->path != NULL ? ask->path : "", ask->name);
      g_autofree char *command = paddock_exec_display_line (NULL, ask->exe, NULL, NULL,
                                                            (const char * const *) ask->argv);

      /* TRANSLATORS: a notification's title: the agent waits to read a file of the home folder; %s is
       * the project's name */
      title = g_strdup_printf (_("The Agent Wants to Read a File in %s"), paddock_project_get_name (self->project));
      /* TRANSLATORS: a notification's body: what the agent would read, e.g. "~/.m2/settings.xml", then the
       * command line that reads it */
      line = g_strdup_printf (_("%s, for %s"), what, command);
    }
  else if (g_strcmp0 (ask->kind, "host") == 0)
    {
      g_autofree char *host = paddock_escape_for_display (ask->host != NULL ? ask->host : "", -1);
      g_autofree char *command = paddock_exec_display_line (NULL, ask->exe, NULL, NULL,
                                                            (const char * const *) ask->argv);

      /* TRANSLATORS: a notification's title: under the network lock, the agent waits to connect to a
       * host nobody listed; %s is the project's name */
      title = g_strdup_printf (_("The Agent Wants to Reach a Host in %s"), paddock_project_get_name (self->project));
      /* TRANSLATORS: a notification's body: the host and port, e.g. "api.example.com:443", then the
       * command line that connects, then its process id */
      line = g_strdup_printf (_("%s:%d, for %s (pid %d)"), host, ask->port, command, ask->pid);
    }
  else
    {
      /* TRANSLATORS: a notification's title; %s is the project's name */
      title = g_strdup_printf (_("A Command Waits in %s"), paddock_project_get_name (self->project));
      line = paddock_exec_display_line (ask->path, ask->exe, ask->interpreter, ask->pipeline,
                                        (const char * const *) ask->argv);
    }
  notification = g_notification_new (title);
  g_notification_set_body (notification, line);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_set_default_action_and_target (notification, "app.show-session", "s", session_id);
  if (paddock_approval_bar_allow_lasts (ask) == PADDOCK_REMEMBER_SESSION)
    /* TRANSLATORS: a notification's button: let the agent read the file of the home folder it waits
     * for, and the rest of that entry, until the session ends */
    g_notification_add_button_with_target (notification, _("Allow for This Session"), "app.decide", "(sxs)",
                                           session_id, ask->id, "allow");
  else
    /* TRANSLATORS: a notification's button: let the command that waits run */
    g_notification_add_button_with_target (notification, _("Allow"), "app.decide", "(sxs)",
                                           session_id, ask->id, "allow");
  /* TRANSLATORS: a notification's button: refuse the command that waits */
  g_notification_add_button_with_target (notification, _("Deny"), "app.decide", "(sxs)",
                                         session_id, ask->id, "deny");

  id = g_strdup_printf ("ask-%s-%" G_GINT64_FORMAT, session_id, ask->id);
  g_application_send_notification (app, id, notification);
  g_hash_table_insert (self->notified, g_memdup2 (&ask->id, sizeof ask->id), g_steal_pointer (&id));
}

void
paddock_session_page_withdraw_notification (PaddockSessionPage *self,
                       gint64              ask_id)
{
  const char *id = g_hash_table_lookup (self->notified, &ask_id);

  if (id == NULL)
    return;
  if (self->notifying_app != NULL)
    g_application_withdraw_notification (self->notifying_app, id);
  g_hash_table_remove (self->notified, &ask_id);
}

void
paddock_session_page_withdraw_notifications (PaddockSessionPage *self)
{
  GHashTableIter iter;
  const char *id;

  g_hash_table_iter_init (&iter, self->notified);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &id))
    if (self->notifying_app != NULL)
      g_application_withdraw_notification (self->notifying_app, id);
  g_hash_table_remove_all (self->notified);
}

/* Tells of the tab wanting the user, when it is out of sight: the tab is
 * marked (by the window, on ::attention) and, with its window unfocused,
 * a notification (the same one again replacing it) brings it forward. */
static void
call_attention (PaddockSessionPage *self,
                const char         *reason)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GApplication *app;
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *tab_title = NULL;
  g_autofree char *title = NULL;
  g_autofree char *id = NULL;

  if (is_in_sight (self))
    return;
  paddock_session_page_emit_attention (self, reason);
  if ((app = get_notifying_app (self)) == NULL || gtk_window_is_active (GTK_WINDOW (root)))
    return;
  tab_title = paddock_session_page_dup_tab_title (self);
  /* TRANSLATORS: a notification's title; %s is a tab's title, e.g. "app · Claude Code" */
  title = g_strdup_printf (_("%s Is Waiting for Input"), tab_title);
  notification = g_notification_new (title);
  g_notification_set_body (notification, reason);
  g_notification_set_default_action_and_target (notification, "app.show-session", "s",
                                                paddock_client_get_session_id (self->client));
  id = g_strdup_printf ("attention-%s", paddock_client_get_session_id (self->client));
  g_application_send_notification (app, id, notification);
}

void
paddock_session_page_terminal_bell_cb (PaddockSessionPage *self,
                  VteTerminal        *terminal)
{
  /* TRANSLATORS: why a tab wants attention: the program in it rang the terminal's bell */
  call_attention (self, _("The terminal’s bell rang"));
}

void
paddock_session_page_terminal_commit_cb (PaddockSessionPage *self,
                    const char         *text,
                    guint               size,
                    VteTerminal        *terminal)
{
  self->last_input = g_get_monotonic_time ();
  g_clear_handle_id (&self->quiet_id, g_source_remove);
}

static int
get_quiet_seconds (PaddockSessionPage *self)
{
  return self->settings != NULL ? g_settings_get_int (self->settings, "quiet-seconds") : 0;
}

/* Quiet for the "quiet-seconds" setting since its last output: the agent
 * probably waits for the user. */
static gboolean
quiet_cb (gpointer data)
{
  PaddockSessionPage *self = data;
  gint64 quiet_for = g_get_monotonic_time () - self->last_output;
  gint64 wanted = (gint64) get_quiet_seconds (self) * G_TIME_SPAN_SECOND;

  self->quiet_id = 0;
  if (wanted <= 0 || !paddock_session_page_get_running (self))
    return G_SOURCE_REMOVE;
  if (quiet_for < wanted)
    {
      self->quiet_id = g_timeout_add ((wanted - quiet_for) / G_TIME_SPAN_MILLISECOND + 1, quiet_cb, self);
      return G_SOURCE_REMOVE;
    }
  {
    g_autofree char *reason = NULL;

    /* TRANSLATORS: why a tab wants attention; %d is a number of seconds */
    reason = g_strdup_printf (ngettext ("Quiet for %d second after its output",
                                        "Quiet for %d seconds after its output", get_quiet_seconds (self)),
                              get_quiet_seconds (self));
    call_attention (self, reason);
  }
  return G_SOURCE_REMOVE;
}

void
paddock_session_page_terminal_contents_changed_cb (PaddockSessionPage *self,
                              VteTerminal        *terminal)
{
  gint64 now = g_get_monotonic_time ();
  int quiet_seconds;

  if (self->disposed || now - self->last_input < ECHO_WINDOW_US ||
      (quiet_seconds = get_quiet_seconds (self)) <= 0)
    return;
  self->last_output = now;
  if (self->quiet_id == 0)
    self->quiet_id = g_timeout_add_seconds (quiet_seconds, quiet_cb, self);
}

/* An ask came: out of sight, the tab is marked, and a notification whose
 * buttons answer it goes out. */
void
paddock_session_page_tell_of_ask (PaddockSessionPage   *self,
                                  const PaddockMessage *ask)
{
  if (is_in_sight (self))
    return;
  if (g_strcmp0 (ask->kind, "home") == 0)
    /* TRANSLATORS: why a tab wants attention: the agent waits to read a file of the home folder */
    paddock_session_page_emit_attention (self, _("The agent waits to read a file"));
  else
    /* TRANSLATORS: why a tab wants attention */
    paddock_session_page_emit_attention (self, _("A command waits for an answer"));
  notify_ask (self, ask);
}
