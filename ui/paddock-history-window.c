/* paddock-history-window.c: a past session's timeline, read-only, in a window of its own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-history-window.h"

#include <glib/gi18n.h>

struct _PaddockHistoryWindow
{
  AdwWindow            parent_instance;

  PaddockPastSession  *session;

  AdwWindowTitle      *window_title;
  GtkLabel            *problem_label;
  PaddockTimelineView *timeline_view;
};

G_DEFINE_FINAL_TYPE (PaddockHistoryWindow, paddock_history_window, ADW_TYPE_WINDOW)

/* "2026-03-01 12:00", local time; "" when unknown. */
static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = time_us >= 0 ? g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC) : NULL;

  return time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M") : g_strdup ("");
}

static void
show_session (PaddockHistoryWindow *self)
{
  PaddockPastSession *session = self->session;
  const char *project = paddock_past_session_get_project (session);
  const char *command = paddock_past_session_get_command (session);
  const char *problem = paddock_past_session_get_problem (session);
  g_autofree char *project_name = project != NULL ? g_path_get_basename (project) : NULL;
  g_autofree char *started = format_time (paddock_past_session_get_start_time (session));
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (project_name != NULL && *command != '\0')
    /* TRANSLATORS: a past session's window title: the project's name, then the command it ran */
    title = g_strdup_printf (_("%s · %s"), project_name, command);
  else
    title = g_strdup (project_name != NULL ? project_name : *command != '\0' ? command : _("Past Session"));
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->window_title, title);

  if (!paddock_past_session_get_verified (session))
    /* TRANSLATORS: a past session's window subtitle; %s is when it started. Say plainly that the log
       failed its check: it was edited or damaged since it was written. */
    subtitle = g_strdup_printf (_("Past session, started %s · Its log FAILS verification"), started);
  else if (!paddock_past_session_get_ended (session))
    /* TRANSLATORS: a past session's window subtitle; %s is when it started */
    subtitle = g_strdup_printf (_("Past session, started %s · Its log verifies, but has no end"), started);
  else
    /* TRANSLATORS: a past session's window subtitle; %s is when it started */
    subtitle = g_strdup_printf (_("Past session, started %s · Its log verifies"), started);
  adw_window_title_set_subtitle (self->window_title, subtitle);

  gtk_label_set_label (self->problem_label, problem != NULL ? problem : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problem_label), problem != NULL);
  if (!paddock_past_session_get_verified (session))
    gtk_widget_add_css_class (GTK_WIDGET (self->problem_label), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->problem_label), "warning");

  paddock_timeline_view_set_timeline (self->timeline_view, paddock_past_session_get_timeline (session));
}

static void
paddock_history_window_dispose (GObject *object)
{
  PaddockHistoryWindow *self = PADDOCK_HISTORY_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_HISTORY_WINDOW);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (paddock_history_window_parent_class)->dispose (object);
}

static void
paddock_history_window_class_init (PaddockHistoryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_history_window_dispose;

  g_type_ensure (PADDOCK_TYPE_TIMELINE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-history-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryWindow, problem_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryWindow, timeline_view);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
paddock_history_window_init (PaddockHistoryWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
paddock_history_window_new (PaddockPastSession *session)
{
  PaddockHistoryWindow *self;

  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (session), NULL);
  g_return_val_if_fail (paddock_past_session_get_timeline (session) != NULL, NULL);

  self = g_object_new (PADDOCK_TYPE_HISTORY_WINDOW, NULL);
  self->session = g_object_ref (session);
  show_session (self);
  return GTK_WIDGET (self);
}

PaddockPastSession *
paddock_history_window_get_session (PaddockHistoryWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_HISTORY_WINDOW (self), NULL);

  return self->session;
}

PaddockTimelineView *
paddock_history_window_get_timeline_view (PaddockHistoryWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_HISTORY_WINDOW (self), NULL);

  return self->timeline_view;
}
