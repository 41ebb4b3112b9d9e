/* paddock-timeline-details.c: one timeline row's details: its command line or home folder read, folder, process, program, decision
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-timeline-details.h"

#include <glib/gi18n.h>
#include <string.h>

#include "paddock-escape.h"
#include "paddock-timeline-row.h"

#define PLAIN_CHARACTERS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.,:@%"

struct _PaddockTimelineDetails
{
  GtkWidget  parent_instance;

  GtkLabel  *argv_label;
  GtkLabel  *cwd_label;
  GtkLabel  *pid_label;
  GtkLabel  *exe_label;
  GtkLabel  *decision_label;
  GtkLabel  *rule_label;
  GtkLabel  *status_label;
  GtkWidget *command_buttons;
  GtkWidget *always_allow_button;
};

G_DEFINE_FINAL_TYPE (PaddockTimelineDetails, paddock_timeline_details, GTK_TYPE_WIDGET)

/* Also what timeline.copy-command copies. */
char *
paddock_timeline_dup_command (PaddockTimelineEvent *event)
{
  const char * const *argv = paddock_timeline_event_get_argv (event);
  g_autoptr(GString) command = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (i > 0)
        g_string_append_c (command, ' ');
      if (*arg != '\0' && strspn (arg, PLAIN_CHARACTERS) == strlen (arg))
        g_string_append (command, arg);
      else
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (command, quoted);
        }
    }
  return g_string_free (g_steal_pointer (&command), FALSE);
}

static void
set_escaped (GtkLabel   *label,
             const char *bytes)
{
  g_autofree char *text = bytes != NULL ? paddock_escape_for_display (bytes, -1) : NULL;

  gtk_label_set_label (label, text != NULL ? text : "—");
}

/* Who decided, in words, where the decision's own words do not say it. */
static const char *
describe_by (const char *by)
{
  if (g_strcmp0 (by, "rule") == 0)
    /* TRANSLATORS: who decided a timeline row's program */
    return _("by a rule of the policy");
  if (g_strcmp0 (by, "default") == 0)
    /* TRANSLATORS: who decided a timeline row's program: no rule matched */
    return _("by the policy’s default");
  if (g_strcmp0 (by, "repeat") == 0)
    /* TRANSLATORS: who decided a timeline row's program */
    return _("as the same command just was");
  return NULL;
}

static void
paddock_timeline_details_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), PADDOCK_TYPE_TIMELINE_DETAILS);
  /* The template's unnamed children too: the separator and the scroller. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (paddock_timeline_details_parent_class)->dispose (object);
}

static void
paddock_timeline_details_class_init (PaddockTimelineDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_timeline_details_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-timeline-details.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, argv_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, cwd_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, pid_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, exe_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, decision_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, rule_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, status_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, command_buttons);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineDetails, always_allow_button);
}

static void
paddock_timeline_details_init (PaddockTimelineDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
paddock_timeline_details_new (void)
{
  return g_object_new (PADDOCK_TYPE_TIMELINE_DETAILS, NULL);
}

void
paddock_timeline_details_set_event (PaddockTimelineDetails *self,
                                    PaddockTimelineEvent   *event)
{
  g_autofree char *command = NULL;
  g_autofree char *pid = NULL;
  g_autofree char *decision = NULL;
  g_autofree char *rule = NULL;
  const char *by, *reason;
  gboolean home;
  gboolean net;

  g_return_if_fail (PADDOCK_IS_TIMELINE_DETAILS (self));
  g_return_if_fail (PADDOCK_IS_TIMELINE_EVENT (event));

  home = paddock_timeline_event_get_kind (event) == PADDOCK_TIMELINE_EVENT_HOME;
  net = paddock_timeline_event_get_kind (event) == PADDOCK_TIMELINE_EVENT_NET;
  gtk_widget_set_visible (self->command_buttons, !home && !net);
  gtk_widget_set_visible (self->always_allow_button, !home && !net);
  if (net)
    {
      g_autofree char *line = paddock_timeline_dup_net_line (event);
      const char *address = paddock_timeline_event_get_address (event);

      if (address != NULL)
        {
          g_autofree char *shown = paddock_escape_for_display (address, -1);

          /* TRANSLATORS: a timeline row's details: a connection, then the address it reached, e.g.
           * "connect api.example.com:443, 2.1 kB in, 512 bytes out (at 192.0.2.7)" */
          command = g_strdup_printf (_("%s (at %s)"), line, shown);
        }
      else
        command = g_steal_pointer (&line);
      gtk_label_set_label (self->argv_label, command);
    }
  else if (home)
    {
      g_autofree char *what = paddock_timeline_event_dup_display_line (event);

      /* What was read, and the command line that read where its ask said it; escaped already. */
      command = paddock_timeline_dup_command (event);
      if (*command != '\0')
        {
          g_autofree char *line = paddock_escape_for_display (command, -1);

          /* TRANSLATORS: a timeline row's details: a file of the home folder the agent read (or tried
           * to), then the command line that read it, e.g. "read ~/.m2/settings.xml by mvn package" */
          g_free (command);
          command = g_strdup_printf (_("read %s by %s"), what, line);
        }
      else
        {
          g_free (command);
          /* TRANSLATORS: a timeline row's details: a file of the home folder the agent read (or tried to) */
          command = g_strdup_printf (_("read %s"), what);
        }
      gtk_label_set_label (self->argv_label, command);
    }
  else
    {
      command = paddock_timeline_dup_command (event);
      set_escaped (self->argv_label, command);
    }
  set_escaped (self->cwd_label, paddock_timeline_event_get_cwd (event));
  if (paddock_timeline_event_get_ppid (event) > 0)
    /* TRANSLATORS: a process id and its parent's, in a timeline row's details */
    pid = g_strdup_printf (_("%d (parent %d)"), paddock_timeline_event_get_pid (event),
                           paddock_timeline_event_get_ppid (event));
  else
    pid = g_strdup_printf ("%d", paddock_timeline_event_get_pid (event));
  gtk_label_set_label (self->pid_label, pid);
  set_escaped (self->exe_label, paddock_timeline_event_get_exe (event));

  if (home && g_strcmp0 (paddock_timeline_event_get_by (event), "rule") == 0)
    /* TRANSLATORS: who decided a read in the home folder: the lock's lists of what the agent may read there */
    by = _("by the lock’s lists for the home folder");
  else
    by = describe_by (paddock_timeline_event_get_by (event));
  if (by != NULL)
    /* TRANSLATORS: a decision and who made it, e.g. "Allowed, by a rule of the policy" */
    decision = g_strdup_printf (_("%s, %s"), paddock_timeline_describe_decision (event, NULL, NULL), by);
  else
    decision = g_strdup (paddock_timeline_describe_decision (event, NULL, NULL));
  gtk_label_set_label (self->decision_label, decision);

  reason = paddock_timeline_event_get_reason (event);
  /* A read in the home folder has no rule of the policy: why it was refused, where it says;
   * nor has a connection, whose rule is the host list's entry that decided. */
  if (home || (net && paddock_timeline_event_get_rule (event) == NULL))
    rule = g_strdup (reason);
  else if (paddock_timeline_event_get_rule (event) == NULL)
    rule = NULL;
  else if (reason != NULL && *reason != '\0')
    /* TRANSLATORS: a policy rule's name and the reason it gives */
    rule = g_strdup_printf (_("%s: %s"), paddock_timeline_event_get_rule (event), reason);
  else
    rule = g_strdup (paddock_timeline_event_get_rule (event));
  set_escaped (self->rule_label, rule);
}


/* Says @text under the details (NULL: nothing), as an error or not: what
 * became of Always Allow or Always Deny. */
void
paddock_timeline_details_set_status (PaddockTimelineDetails *self,
                                     const char             *text,
                                     gboolean                error)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE_DETAILS (self));

  gtk_label_set_label (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}
