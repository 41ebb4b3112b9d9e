/* paddock-approval-bar.c: the asks of a session waiting for the user, above its terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-approval-bar.h"

#include <glib/gi18n.h>

#include "paddock-escape.h"

typedef struct
{
  PaddockMessage *message;
  gboolean        answered;  /* a decision was sent; its decided has not come yet */
} Ask;

struct _PaddockApprovalBar
{
  GtkWidget    parent_instance;

  GArray      *asks;         /* of Ask, in the order they came */
  guint        countdown_id;

  GtkRevealer *revealer;
  GtkLabel    *heading_label;
  GtkLabel    *position_label;
  GtkLabel    *countdown_label;
  GtkLabel    *command_label;
  GtkLabel    *cwd_label;
  GtkLabel    *rule_label;
  GtkWidget   *exec_buttons;
  GtkWidget   *home_buttons;
  GtkWidget   *host_buttons;
};

enum {
  PROP_0,
  PROP_N_WAITING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockApprovalBar, paddock_approval_bar, GTK_TYPE_WIDGET)

static void
clear_ask (gpointer data)
{
  Ask *ask = data;

  g_clear_pointer (&ask->message, paddock_message_free);
}

static Ask *
find_ask (PaddockApprovalBar *self,
          gint64              id,
          guint              *index)
{
  for (guint i = 0; i < self->asks->len; i++)
    {
      Ask *ask = &g_array_index (self->asks, Ask, i);

      if (ask->message->id == id)
        {
          if (index != NULL)
            *index = i;
          return ask;
        }
    }
  return NULL;
}

static Ask *
find_current (PaddockApprovalBar *self,
              guint              *position,
              guint              *n_waiting)
{
  Ask *current = NULL;
  guint n = 0;

  for (guint i = 0; i < self->asks->len; i++)
    {
      Ask *ask = &g_array_index (self->asks, Ask, i);

      if (ask->answered)
        continue;
      if (current == NULL)
        {
          current = ask;
          if (position != NULL)
            *position = n;
        }
      n++;
    }
  if (n_waiting != NULL)
    *n_waiting = n;
  return current;
}

static gboolean countdown_cb (gpointer user_data);

/* Says how long the ask shown has left, and comes back when the whole
 * seconds left change. */
static void
update_countdown (PaddockApprovalBar *self)
{
  Ask *current = find_current (self, NULL, NULL);
  g_autofree char *text = NULL;
  gint64 left;
  gint64 seconds;

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  if (current == NULL || current->message->deadline <= 0)
    {
      gtk_label_set_label (self->countdown_label, "");
      return;
    }

  left = current->message->deadline - g_get_real_time ();
  if (left <= 0)
    {
      /* TRANSLATORS: an ask's deadline passed; the session refuses it any moment now */
      gtk_label_set_label (self->countdown_label, _("Refusing…"));
      return;
    }

  seconds = (left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;
  /* TRANSLATORS: minutes and seconds until an unanswered command is refused, e.g. "Refused in 1:58" */
  text = g_strdup_printf (_("Refused in %d:%02d"), (int) (seconds / 60), (int) (seconds % 60));
  gtk_label_set_label (self->countdown_label, text);

  /* Again when the next whole second is gone, a millisecond late rather than early. */
  self->countdown_id = g_timeout_add ((guint) ((left - (seconds - 1) * G_USEC_PER_SEC) / 1000) + 1,
                                      countdown_cb, self);
}

static gboolean
countdown_cb (gpointer user_data)
{
  PaddockApprovalBar *self = user_data;

  self->countdown_id = 0;
  update_countdown (self);
  return G_SOURCE_REMOVE;
}

static char *
describe_rule (const PaddockMessage *ask)
{
  g_autofree char *rule = ask->rule != NULL ? paddock_escape_for_display (ask->rule, -1) : NULL;
  g_autofree char *reason = ask->reason != NULL ? paddock_escape_for_display (ask->reason, -1) : NULL;

  if (rule != NULL && reason != NULL)
    /* TRANSLATORS: why a command needs an answer: the policy rule's name, then its reason */
    return g_strdup_printf (_("Rule “%s”: %s"), rule, reason);
  if (rule != NULL)
    /* TRANSLATORS: why a command needs an answer: the policy rule's name */
    return g_strdup_printf (_("Rule “%s”"), rule);
  if (reason != NULL)
    return g_steal_pointer (&reason);
  return g_strdup (_("The policy asks about commands no rule allows"));
}

static gboolean
is_home (const PaddockMessage *ask)
{
  return g_strcmp0 (ask->kind, "home") == 0;
}

/* A read in the home folder: which entry, and which file below it. */
static char *
describe_home (const PaddockMessage *ask)
{
  g_autofree char *entry = paddock_home_display_path (ask->path != NULL ? ask->path : "", NULL);
  g_autofree char *name = ask->name != NULL ? paddock_escape_for_display (ask->name, -1) : NULL;

  if (name != NULL && *name != '\0')
    /* TRANSLATORS: the approval bar's heading for a file of the home folder the agent tried to read:
     * the folder or file asked about, then the file first tried below it, e.g.
     * "The agent wants to read ~/.m2 (settings.xml)" */
    return g_strdup_printf (_("The agent wants to read %s (%s)"), entry, name);
  /* TRANSLATORS: the approval bar's heading for an entry of the home folder the agent tried to read, e.g.
   * "The agent wants to read ~/.pgpass" */
  return g_strdup_printf (_("The agent wants to read %s"), entry);
}

static gboolean
is_host (const PaddockMessage *ask)
{
  return g_strcmp0 (ask->kind, "host") == 0;
}

/* A connection to a host nobody listed: the name and port asked for. */
static char *
describe_host (const PaddockMessage *ask)
{
  g_autofree char *host = paddock_escape_for_display (ask->host != NULL ? ask->host : "", -1);

  /* TRANSLATORS: the approval bar's heading for a connection the agent tried under the network
   * lock: the host name and the port it asked for, e.g. "The agent wants to reach api.example.com:443" */
  return g_strdup_printf (_("The agent wants to reach %s:%d"), host, ask->port);
}

static void
update (PaddockApprovalBar *self,
        guint               n_before)
{
  guint position = 0, n_waiting = 0;
  Ask *current = find_current (self, &position, &n_waiting);

  if (current != NULL)
    {
      const PaddockMessage *ask = current->message;
      gboolean home = is_home (ask);
      gboolean host = is_host (ask);
      /* A home ask's path is the entry it reads, not the program's. */
      g_autofree char *line = paddock_exec_display_line (home || host ? NULL : ask->path, ask->exe, ask->interpreter,
                                                         ask->pipeline, (const char * const *) ask->argv);
      g_autofree char *cwd = ask->cwd != NULL ? paddock_escape_for_display (ask->cwd, -1) : NULL;
      g_autofree char *in_cwd = NULL;
      g_autofree char *rule = NULL;
      g_autofree char *heading = NULL;
      g_autofree char *of = NULL;

      if (home)
        {
          heading = describe_home (ask);
          rule = ask->reason != NULL ? paddock_escape_for_display (ask->reason, -1) :
                 /* TRANSLATORS: why the approval bar asks before the agent reads a file of the home folder */
                 g_strdup (_("Under the lock, the agent reads in your home folder only what you allow"));
        }
      else if (host)
        {
          heading = describe_host (ask);
          rule = ask->reason != NULL ? paddock_escape_for_display (ask->reason, -1) :
                 /* TRANSLATORS: why the approval bar asks before the agent connects to a host */
                 g_strdup (_("Under the network lock, the agent reaches only the hosts you allow"));
        }
      else
        {
          /* TRANSLATORS: the approval bar's heading: the agent started a command the policy asks about */
          heading = g_strdup (_("The Agent Wants to Run"));
          rule = describe_rule (ask);
        }
      gtk_label_set_label (self->heading_label, heading);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->heading_label), heading);
      gtk_widget_set_visible (self->exec_buttons, !home && !host);
      gtk_widget_set_visible (self->home_buttons, home);
      gtk_widget_set_visible (self->host_buttons, host);

      if (g_strcmp0 (ask->kind, "secret") == 0)
        {
          g_autofree char *name = paddock_escape_for_display (ask->name != NULL ? ask->name : "", -1);
          /* TRANSLATORS: a program that asks for a secret from the vault: the secret's name, then the
           * command line that would get it (never the agent itself) */
          char *for_secret = g_strdup_printf (_("Secret “%s” for %s"), name, line);

          g_free (line);
          line = for_secret;
        }
      else if (host)
        {
          /* TRANSLATORS: the program that asked for a connection, then its process id, e.g.
           * "curl -s https://api.example.com/ (pid 4242)" */
          char *by_program = g_strdup_printf (_("%s (pid %d)"), line, ask->pid);

          g_free (line);
          line = by_program;
        }
      gtk_label_set_label (self->command_label, line);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->command_label), line);
      /* TRANSLATORS: the folder a command that waits for an answer would run in */
      in_cwd = cwd != NULL ? g_strdup_printf (_("in %s"), cwd) : NULL;
      gtk_label_set_label (self->cwd_label, in_cwd != NULL ? in_cwd : "");
      gtk_widget_set_visible (GTK_WIDGET (self->cwd_label), in_cwd != NULL);
      gtk_label_set_label (self->rule_label, rule);

      /* TRANSLATORS: which of the commands waiting for an answer is shown, e.g. "1 of 3" */
      of = g_strdup_printf (_("%u of %u"), position + 1, n_waiting);
      gtk_label_set_label (self->position_label, of);
      gtk_widget_set_visible (GTK_WIDGET (self->position_label), n_waiting > 1);
    }
  update_countdown (self);
  gtk_revealer_set_reveal_child (self->revealer, current != NULL);

  if (n_waiting != n_before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_WAITING]);
}

/**
 * paddock_approval_bar_add_ask:
 * @self: a bar
 * @ask: an ask message
 *
 * Queues @ask behind those already there, and shows the bar.
 */
void
paddock_approval_bar_add_ask (PaddockApprovalBar   *self,
                              const PaddockMessage *ask)
{
  guint n_before;

  g_return_if_fail (PADDOCK_IS_APPROVAL_BAR (self));
  g_return_if_fail (ask != NULL && ask->type == PADDOCK_MESSAGE_ASK);

  if (find_ask (self, ask->id, NULL) != NULL)
    return;
  n_before = paddock_approval_bar_get_n_waiting (self);
  g_array_append_val (self->asks, ((Ask) { paddock_message_copy (ask), FALSE }));
  update (self, n_before);
}

/**
 * paddock_approval_bar_remove_ask:
 * @self: a bar
 * @id: the ask's id
 *
 * Forgets the ask @id, decided by whoever it was; the next one waiting
 * shows, or the bar hides.
 *
 * Returns: whether the ask was there
 */
gboolean
paddock_approval_bar_remove_ask (PaddockApprovalBar *self,
                                 gint64              id)
{
  guint n_before;
  guint index;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), FALSE);

  if (find_ask (self, id, &index) == NULL)
    return FALSE;
  n_before = paddock_approval_bar_get_n_waiting (self);
  g_array_remove_index (self->asks, index);
  update (self, n_before);
  return TRUE;
}

/**
 * paddock_approval_bar_set_answered:
 * @self: a bar
 * @id: the ask's id
 *
 * Takes the ask @id out of view, as answered here, until its decided
 * comes and the page removes it.
 *
 * Returns: whether the ask was there and waiting
 */
gboolean
paddock_approval_bar_set_answered (PaddockApprovalBar *self,
                                   gint64              id)
{
  Ask *ask;
  guint n_before;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), FALSE);

  ask = find_ask (self, id, NULL);
  if (ask == NULL || ask->answered)
    return FALSE;
  n_before = paddock_approval_bar_get_n_waiting (self);
  ask->answered = TRUE;
  update (self, n_before);
  return TRUE;
}

/* Forgets every ask: the session ended, or the page follows another. */
void
paddock_approval_bar_clear (PaddockApprovalBar *self)
{
  guint n_before;

  g_return_if_fail (PADDOCK_IS_APPROVAL_BAR (self));

  n_before = paddock_approval_bar_get_n_waiting (self);
  g_array_set_size (self->asks, 0);
  update (self, n_before);
}

/**
 * paddock_approval_bar_allow_lasts:
 * @ask: an ask message
 *
 * How long a plain Allow of @ask (session.allow, a notification's Allow)
 * is remembered: once for a command, for the session for a read in the
 * home folder, whose entry is asked about once and never allowed for
 * one read only.
 */
PaddockRemember
paddock_approval_bar_allow_lasts (const PaddockMessage *ask)
{
  g_return_val_if_fail (ask != NULL, PADDOCK_REMEMBER_ONCE);

  return is_home (ask) ? PADDOCK_REMEMBER_SESSION : PADDOCK_REMEMBER_ONCE;
}

/* The ask @id, waiting or answered, or NULL. */
const PaddockMessage *
paddock_approval_bar_get_ask (PaddockApprovalBar *self,
                              gint64              id)
{
  Ask *ask;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), NULL);

  ask = find_ask (self, id, NULL);
  return ask != NULL ? ask->message : NULL;
}

const PaddockMessage *
paddock_approval_bar_get_current (PaddockApprovalBar *self)
{
  Ask *current;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), NULL);

  current = find_current (self, NULL, NULL);
  return current != NULL ? current->message : NULL;
}

/* Whether the ask @id is there and not answered yet. */
gboolean
paddock_approval_bar_is_waiting (PaddockApprovalBar *self,
                                 gint64              id)
{
  Ask *ask;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), FALSE);

  ask = find_ask (self, id, NULL);
  return ask != NULL && !ask->answered;
}

/* How many asks wait for an answer from here. */
guint
paddock_approval_bar_get_n_waiting (PaddockApprovalBar *self)
{
  guint n_waiting = 0;

  g_return_val_if_fail (PADDOCK_IS_APPROVAL_BAR (self), 0);

  find_current (self, NULL, &n_waiting);
  return n_waiting;
}

static void
paddock_approval_bar_dispose (GObject *object)
{
  PaddockApprovalBar *self = PADDOCK_APPROVAL_BAR (object);

  g_clear_handle_id (&self->countdown_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_APPROVAL_BAR);

  G_OBJECT_CLASS (paddock_approval_bar_parent_class)->dispose (object);
}

static void
paddock_approval_bar_finalize (GObject *object)
{
  PaddockApprovalBar *self = PADDOCK_APPROVAL_BAR (object);

  g_clear_pointer (&self->asks, g_array_unref);

  G_OBJECT_CLASS (paddock_approval_bar_parent_class)->finalize (object);
}

static void
paddock_approval_bar_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PaddockApprovalBar *self = PADDOCK_APPROVAL_BAR (object);

  switch (prop_id)
    {
    case PROP_N_WAITING:
      g_value_set_uint (value, paddock_approval_bar_get_n_waiting (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_approval_bar_class_init (PaddockApprovalBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_approval_bar_dispose;
  object_class->finalize = paddock_approval_bar_finalize;
  object_class->get_property = paddock_approval_bar_get_property;

  /* How many asks wait for an answer from here; the bar shows while any does. */
  properties[PROP_N_WAITING] =
    g_param_spec_uint ("n-waiting", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-approval-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, heading_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, position_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, countdown_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, command_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, cwd_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, rule_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, exec_buttons);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, home_buttons);
  gtk_widget_class_bind_template_child (widget_class, PaddockApprovalBar, host_buttons);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "paddock-approval-bar");
}

static void
paddock_approval_bar_init (PaddockApprovalBar *self)
{
  self->asks = g_array_new (FALSE, FALSE, sizeof (Ask));
  g_array_set_clear_func (self->asks, clear_ask);

  gtk_widget_init_template (GTK_WIDGET (self));
}
