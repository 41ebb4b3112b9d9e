/* paddock-history-dialog.c: a project's past sessions, to choose one to look at
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-history-dialog.h"

#include <glib/gi18n.h>

#include "paddock-history.h"
#include "paddock-history-window.h"
#include "paddock-toasts.h"

struct _PaddockHistoryDialog
{
  AdwWindow        parent_instance;

  char            *project;
  GListStore      *sessions;
  GCancellable    *cancellable;
  gboolean         loaded;

  AdwWindowTitle  *window_title;
  AdwToastOverlay *toast_overlay;
  GtkStack        *stack;
  AdwStatusPage   *error_page;
  GtkListBox      *list_box;
};

G_DEFINE_FINAL_TYPE (PaddockHistoryDialog, paddock_history_dialog, ADW_TYPE_WINDOW)

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = time_us >= 0 ? g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC) : NULL;

  return time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M") : g_strdup (_("Unknown time"));
}

/* "12 programs, 2 asked, 1 denied". */
static char *
describe_counts (PaddockPastSession *session)
{
  guint n_execs = paddock_past_session_get_n_execs (session);
  guint n_asked = paddock_past_session_get_n_asked (session);
  guint n_denied = paddock_past_session_get_n_denied (session);
  /* TRANSLATORS: how many programs a past session ran */
  g_autofree char *execs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u program", "%u programs", n_execs), n_execs);
  /* TRANSLATORS: how many of a past session's programs asked first */
  g_autofree char *asked = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u asked", "%u asked", n_asked), n_asked);
  /* TRANSLATORS: how many of a past session's programs were refused */
  g_autofree char *denied = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u denied", "%u denied", n_denied), n_denied);

  /* TRANSLATORS: a past session's counts: programs, asked, denied */
  return g_strdup_printf (_("%s, %s, %s"), execs, asked, denied);
}

static GtkWidget *
row_new (PaddockPastSession *session)
{
  GtkWidget *row = adw_action_row_new ();
  const char *command = paddock_past_session_get_command (session);
  g_autofree char *started = format_time (paddock_past_session_get_start_time (session));
  g_autofree char *counts = describe_counts (session);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  /* TRANSLATORS: a past session in the list: when it started, then the command it ran */
  title = *command != '\0' ? g_strdup_printf (_("%s · %s"), started, command) : g_strdup (started);
  if (!paddock_past_session_get_verified (session))
    /* TRANSLATORS: a past session's counts, then that its audit log was edited or damaged */
    subtitle = g_strdup_printf (_("%s · Its log fails verification"), counts);
  else if (!paddock_past_session_get_ended (session))
    /* TRANSLATORS: a past session's counts, then that its log has no end record (running, or cut short) */
    subtitle = g_strdup_printf (_("%s · No end in its log"), counts);
  else
    subtitle = g_strdup (counts);

  /* The command is the agent's bytes, escaped, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  if (!paddock_past_session_get_verified (session))
    adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "history.open");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", paddock_past_session_get_path (session));
  return row;
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PaddockHistoryDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) sessions = paddock_history_list_finish (result, &error);
  guint n;

  /* Closed meanwhile. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  self->loaded = TRUE;
  if (sessions == NULL)
    {
      adw_status_page_set_description (self->error_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }
  n = g_list_model_get_n_items (sessions);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockPastSession) session = g_list_model_get_item (sessions, i);

      g_list_store_append (self->sessions, session);
      gtk_list_box_append (self->list_box, row_new (session));
    }
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
}

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(PaddockHistoryDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPastSession) session = paddock_history_open_finish (result, &error);
  GtkWidget *window;

  /* Closed meanwhile. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (session == NULL)
    {
      g_autoptr(AdwToast) toast = adw_toast_new (error->message);

      adw_toast_set_timeout (toast, 0);
      paddock_toasts_add (self->toast_overlay, g_steal_pointer (&toast));
      return;
    }
  window = paddock_history_window_new (session);
  gtk_window_set_application (GTK_WINDOW (window), gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_present (GTK_WINDOW (window));
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PaddockHistoryDialog *self = PADDOCK_HISTORY_DIALOG (widget);

  paddock_history_open_async (g_variant_get_string (parameter, NULL), self->cancellable, opened_cb,
                              g_object_ref (self));
}

static void
paddock_history_dialog_dispose (GObject *object)
{
  PaddockHistoryDialog *self = PADDOCK_HISTORY_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_HISTORY_DIALOG);
  g_clear_object (&self->sessions);

  G_OBJECT_CLASS (paddock_history_dialog_parent_class)->dispose (object);
}

static void
paddock_history_dialog_finalize (GObject *object)
{
  PaddockHistoryDialog *self = PADDOCK_HISTORY_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->project);

  G_OBJECT_CLASS (paddock_history_dialog_parent_class)->finalize (object);
}

static void
paddock_history_dialog_class_init (PaddockHistoryDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_history_dialog_dispose;
  object_class->finalize = paddock_history_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-history-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryDialog, error_page);
  gtk_widget_class_bind_template_child (widget_class, PaddockHistoryDialog, list_box);

  gtk_widget_class_install_action (widget_class, "history.open", "s", open_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
paddock_history_dialog_init (PaddockHistoryDialog *self)
{
  self->sessions = g_list_store_new (PADDOCK_TYPE_PAST_SESSION);
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "loading");
}

GtkWidget *
paddock_history_dialog_new (const char *project)
{
  PaddockHistoryDialog *self;
  g_autofree char *name = NULL;

  g_return_val_if_fail (project != NULL, NULL);

  self = g_object_new (PADDOCK_TYPE_HISTORY_DIALOG, NULL);
  self->project = g_strdup (project);
  name = g_path_get_basename (project);
  adw_window_title_set_subtitle (self->window_title, name);
  paddock_history_list_async (project, self->cancellable, listed_cb, g_object_ref (self));
  return GTK_WIDGET (self);
}

GListModel *
paddock_history_dialog_get_sessions (PaddockHistoryDialog *self)
{
  g_return_val_if_fail (PADDOCK_IS_HISTORY_DIALOG (self), NULL);

  return G_LIST_MODEL (self->sessions);
}

gboolean
paddock_history_dialog_get_loaded (PaddockHistoryDialog *self)
{
  g_return_val_if_fail (PADDOCK_IS_HISTORY_DIALOG (self), FALSE);

  return self->loaded;
}
