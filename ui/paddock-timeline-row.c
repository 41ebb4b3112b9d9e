/* paddock-timeline-row.c: one row of the timeline view: time, program, command line or home folder read, decision, duration
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-timeline-row.h"

#include <glib/gi18n.h>
#include <string.h>

struct _PaddockTimelineRow
{
  GtkWidget             parent_instance;

  PaddockTimelineEvent *event;
  const char           *style_class;  /* the decision's, on decision_icon */

  GtkLabel             *time_label;
  GtkImage             *decision_icon;
  GtkLabel             *program_label;
  GtkLabel             *command_label;
  GtkLabel             *duration_label;
};

enum {
  PROP_0,
  PROP_EVENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockTimelineRow, paddock_timeline_row, GTK_TYPE_WIDGET)

static const char *
describe_asked_denied (const char *by)
{
  if (g_strcmp0 (by, "user") == 0)
    /* TRANSLATORS: a timeline row's decision: the user refused the command it asked about */
    return _("Denied by you");
  if (g_strcmp0 (by, "timeout") == 0)
    /* TRANSLATORS: a timeline row's decision: nobody answered before the deadline */
    return _("Denied: no answer in time");
  if (g_strcmp0 (by, "no-client") == 0)
    /* TRANSLATORS: a timeline row's decision: no window was attached to ask */
    return _("Denied: nobody to ask");
  if (g_strcmp0 (by, "remembered") == 0)
    /* TRANSLATORS: a timeline row's decision: refused as the user answered before */
    return _("Denied as remembered");
  if (g_strcmp0 (by, "gone") == 0)
    /* TRANSLATORS: a timeline row's decision: the process ended while it waited */
    return _("Gone while asking");
  /* TRANSLATORS: a timeline row's decision: asked about, then refused */
  return _("Asked, denied");
}

const char *
paddock_timeline_describe_decision (PaddockTimelineEvent  *event,
                                    const char           **icon_name,
                                    const char           **style_class)
{
  const char *by = paddock_timeline_event_get_by (event);
  const char *icon = NULL;
  const char *css = NULL;
  const char *text = "";

  switch (paddock_timeline_event_get_kind (event))
    {
    case PADDOCK_TIMELINE_EVENT_PAUSE:
      icon = "media-playback-pause-symbolic";
      css = "warning";
      /* TRANSLATORS: a timeline row: the session's programs were stopped */
      text = _("Session paused");
      break;

    case PADDOCK_TIMELINE_EVENT_RESUME:
      icon = "media-playback-start-symbolic";
      /* TRANSLATORS: a timeline row: the session's programs go on */
      text = _("Session resumed");
      break;

    case PADDOCK_TIMELINE_EVENT_KILL:
      icon = "process-stop-symbolic";
      css = "error";
      /* TRANSLATORS: a timeline row: the session's programs were killed */
      text = _("Session killed");
      break;

    case PADDOCK_TIMELINE_EVENT_SESSION_END:
      icon = "system-log-out-symbolic";
      /* TRANSLATORS: a timeline row: the session ended */
      text = _("Session ended");
      break;

    case PADDOCK_TIMELINE_EVENT_EXEC:
    default:
      switch (paddock_timeline_event_get_decision (event))
        {
        case PADDOCK_TIMELINE_DECISION_ALLOWED:
          icon = "emblem-ok-symbolic";
          css = "success";
          if (g_strcmp0 (by, "remembered") == 0)
            /* TRANSLATORS: a timeline row's decision: run, as the user answered before */
            text = _("Allowed as remembered");
          else
            /* TRANSLATORS: a timeline row's decision: the policy let it run */
            text = _("Allowed");
          break;

        case PADDOCK_TIMELINE_DECISION_DENIED:
          icon = "action-unavailable-symbolic";
          css = "error";
          if (g_strcmp0 (by, "repeat") == 0)
            /* TRANSLATORS: a timeline row's decision: refused again, as it just was */
            text = _("Denied again");
          else if (g_strcmp0 (by, "remembered") == 0)
            text = _("Denied as remembered");
          else
            /* TRANSLATORS: a timeline row's decision: the policy refused it */
            text = _("Denied");
          break;

        case PADDOCK_TIMELINE_DECISION_ASKING:
          icon = "dialog-question-symbolic";
          css = "warning";
          /* TRANSLATORS: a timeline row's decision: it waits for the user's answer */
          text = _("Asking");
          break;

        case PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED:
          icon = "emblem-ok-symbolic";
          css = "success";
          if (g_strcmp0 (by, "user") == 0)
            /* TRANSLATORS: a timeline row's decision: the user let the command it asked about run */
            text = _("Allowed by you");
          else if (g_strcmp0 (by, "remembered") == 0)
            text = _("Allowed as remembered");
          else
            /* TRANSLATORS: a timeline row's decision: asked about, then run */
            text = _("Asked, allowed");
          break;

        case PADDOCK_TIMELINE_DECISION_ASKED_DENIED:
          icon = "action-unavailable-symbolic";
          css = "error";
          text = describe_asked_denied (by);
          break;

        case PADDOCK_TIMELINE_DECISION_NONE:
        default:
          break;
        }
    }

  if (icon_name != NULL)
    *icon_name = icon;
  if (style_class != NULL)
    *style_class = css;
  return text;
}

char *
paddock_timeline_dup_net_line (PaddockTimelineEvent *event)
{
  g_autofree char *where = paddock_timeline_event_dup_display_line (event);
  gint64 bytes_in = paddock_timeline_event_get_bytes_in (event);
  gint64 bytes_out = paddock_timeline_event_get_bytes_out (event);

  if (paddock_timeline_event_get_ended (event) && bytes_in >= 0 && bytes_out >= 0)
    {
      g_autofree char *in = g_format_size (bytes_in);
      g_autofree char *out = g_format_size (bytes_out);

      /* TRANSLATORS: a timeline row: a connection the agent made under the network lock, once it
       * ended: the host and port, then the bytes it received and sent, e.g.
       * "connect api.example.com:443, 2.1 kB in, 512 bytes out" */
      return g_strdup_printf (_("connect %s, %s in, %s out"), where, in, out);
    }
  /* TRANSLATORS: a timeline row: a connection the agent made (or tried to) under the network lock,
   * e.g. "connect api.example.com:443" */
  return g_strdup_printf (_("connect %s"), where);
}

static char *
format_duration (PaddockTimelineEvent *event)
{
  gint64 duration = paddock_timeline_event_get_duration (event);
  int signal_number = paddock_timeline_event_get_signal (event);

  PaddockTimelineEventKind kind = paddock_timeline_event_get_kind (event);

  if (!paddock_timeline_event_get_ended (event) ||
      (kind != PADDOCK_TIMELINE_EVENT_EXEC && kind != PADDOCK_TIMELINE_EVENT_NET))
    return g_strdup ("");
  if (signal_number > 0)
    return g_strdup (g_strsignal (signal_number));
  if (duration < 0)
    return g_strdup ("");
  if (duration < G_USEC_PER_SEC)
    /* TRANSLATORS: how long a program ran, in milliseconds */
    return g_strdup_printf (_("%d ms"), (int) (duration / 1000));
  if (duration < 60 * G_USEC_PER_SEC)
    /* TRANSLATORS: how long a program ran, in seconds */
    return g_strdup_printf (_("%.1f s"), duration / (double) G_USEC_PER_SEC);
  /* TRANSLATORS: how long a program ran, in minutes and seconds */
  return g_strdup_printf (_("%d min %02d s"), (int) (duration / (60 * G_USEC_PER_SEC)),
                          (int) (duration / G_USEC_PER_SEC % 60));
}

static void
update_decision (PaddockTimelineRow *self)
{
  const char *icon_name, *style_class;
  const char *text = paddock_timeline_describe_decision (self->event, &icon_name, &style_class);

  gtk_image_set_from_icon_name (self->decision_icon, icon_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->decision_icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  if (self->style_class != NULL)
    gtk_widget_remove_css_class (GTK_WIDGET (self->decision_icon), self->style_class);
  self->style_class = style_class;
  if (style_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->decision_icon), style_class);
}

static void
update_duration (PaddockTimelineRow *self)
{
  g_autofree char *duration = format_duration (self->event);

  gtk_label_set_label (self->duration_label, duration);
}

static void
update_all (PaddockTimelineRow *self)
{
  g_autoptr(GDateTime) when = NULL;
  g_autofree char *time = NULL;
  g_autofree char *program = NULL;
  g_autofree char *line = NULL;

  when = g_date_time_new_from_unix_local (paddock_timeline_event_get_time (self->event) / G_USEC_PER_SEC);
  time = when != NULL ? g_date_time_format (when, "%H:%M:%S") : g_strdup ("");
  gtk_label_set_label (self->time_label, time);

  if (paddock_timeline_event_get_kind (self->event) == PADDOCK_TIMELINE_EVENT_EXEC)
    {
      program = paddock_timeline_event_dup_program (self->event);
      line = paddock_timeline_event_dup_display_line (self->event);
      gtk_widget_remove_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  else if (paddock_timeline_event_get_kind (self->event) == PADDOCK_TIMELINE_EVENT_HOME)
    {
      g_autofree char *what = paddock_timeline_event_dup_display_line (self->event);

      /* The process that read, then what it read. */
      program = paddock_timeline_event_dup_program (self->event);
      /* TRANSLATORS: a timeline row: the agent read (or tried to) a file in the home folder, e.g. "read ~/.m2/settings.xml" */
      line = g_strdup_printf (_("read %s"), what);
      gtk_widget_remove_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  else if (paddock_timeline_event_get_kind (self->event) == PADDOCK_TIMELINE_EVENT_NET)
    {
      program = paddock_timeline_event_dup_program (self->event);
      line = paddock_timeline_dup_net_line (self->event);
      gtk_widget_remove_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  else
    {
      /* A session row says what happened where a command would be. */
      program = g_strdup ("");
      line = g_strdup (paddock_timeline_describe_decision (self->event, NULL, NULL));
      gtk_widget_add_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  gtk_label_set_label (self->program_label, program);
  gtk_label_set_label (self->command_label, line);

  update_decision (self);
  update_duration (self);
}

static gboolean
decision_query_tooltip_cb (PaddockTimelineRow *self,
                           int                 x,
                           int                 y,
                           gboolean            keyboard_mode,
                           GtkTooltip         *tooltip,
                           GtkWidget          *icon)
{
  if (self->event == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, paddock_timeline_describe_decision (self->event, NULL, NULL));
  return TRUE;
}

/* The whole command line, which the row may show cut short. */
static gboolean
command_query_tooltip_cb (PaddockTimelineRow *self,
                          int                 x,
                          int                 y,
                          gboolean            keyboard_mode,
                          GtkTooltip         *tooltip,
                          GtkWidget          *label)
{
  const char *line = gtk_label_get_label (self->command_label);

  if (self->event == NULL || *line == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, line);
  return TRUE;
}

static void
event_notify_cb (PaddockTimelineRow   *self,
                 GParamSpec           *pspec,
                 PaddockTimelineEvent *event)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "decision") || g_str_equal (name, "by"))
    update_decision (self);
  else if (g_str_equal (name, "ended") || g_str_equal (name, "duration") || g_str_equal (name, "signal"))
    update_duration (self);
  if (g_str_equal (name, "bytes-in") || g_str_equal (name, "exe"))
    update_all (self);
}

static void
paddock_timeline_row_dispose (GObject *object)
{
  PaddockTimelineRow *self = PADDOCK_TIMELINE_ROW (object);

  paddock_timeline_row_set_event (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_TIMELINE_ROW);

  G_OBJECT_CLASS (paddock_timeline_row_parent_class)->dispose (object);
}

static void
paddock_timeline_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PaddockTimelineRow *self = PADDOCK_TIMELINE_ROW (object);

  switch (prop_id)
    {
    case PROP_EVENT:
      g_value_set_object (value, self->event);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_timeline_row_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PaddockTimelineRow *self = PADDOCK_TIMELINE_ROW (object);

  switch (prop_id)
    {
    case PROP_EVENT:
      paddock_timeline_row_set_event (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_timeline_row_class_init (PaddockTimelineRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_timeline_row_dispose;
  object_class->get_property = paddock_timeline_row_get_property;
  object_class->set_property = paddock_timeline_row_set_property;

  /* The event the row shows, NULL while the list view keeps it for later. */
  properties[PROP_EVENT] =
    g_param_spec_object ("event", NULL, NULL, PADDOCK_TYPE_TIMELINE_EVENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-timeline-row.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineRow, decision_icon);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineRow, program_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineRow, command_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineRow, duration_label);
  gtk_widget_class_bind_template_callback (widget_class, decision_query_tooltip_cb);
  gtk_widget_class_bind_template_callback (widget_class, command_query_tooltip_cb);

  gtk_widget_class_set_css_name (widget_class, "paddock-timeline-row");
}

static void
paddock_timeline_row_init (PaddockTimelineRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
paddock_timeline_row_new (void)
{
  return g_object_new (PADDOCK_TYPE_TIMELINE_ROW, NULL);
}

PaddockTimelineEvent *
paddock_timeline_row_get_event (PaddockTimelineRow *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_ROW (self), NULL);

  return self->event;
}

/* Shows @event (or nothing), and follows its changes until another comes. */
void
paddock_timeline_row_set_event (PaddockTimelineRow   *self,
                                PaddockTimelineEvent *event)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE_ROW (self));
  g_return_if_fail (event == NULL || PADDOCK_IS_TIMELINE_EVENT (event));

  if (self->event == event)
    return;
  if (self->event != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->event, event_notify_cb, self);
      g_clear_object (&self->event);
    }
  if (event != NULL)
    {
      self->event = g_object_ref (event);
      g_signal_connect_object (event, "notify", G_CALLBACK (event_notify_cb), self, G_CONNECT_SWAPPED);
      update_all (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EVENT]);
}
