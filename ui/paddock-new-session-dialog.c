/* paddock-new-session-dialog.c: picks a project, an agent and the lock, and starts a session
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-new-session-dialog.h"

#include <glib/gi18n.h>

#include "paddock-agent.h"
#include "paddock-lock.h"
#include "paddock-settings.h"
#include "paddock-toasts.h"
#include "paddock-window.h"

struct _PaddockNewSessionDialog
{
  AdwWindow             parent_instance;

  PaddockWindow        *window;         /* where the session opens */
  PaddockProject       *project;        /* the chosen one, or NULL */
  GtkCheckButton       *project_radios; /* the first of the projects' group, or NULL */
  GPtrArray            *project_checks; /* the projects' check buttons */
  GtkCheckButton       *agent_radios;   /* the first of the agents' group */
  GPtrArray            *agent_checks;   /* the known agents' check buttons */
  GtkCheckButton       *command_check;
  AdwEntryRow          *command_row;
  GtkFileChooserNative *chooser;

  AdwToastOverlay      *toast_overlay;
  GtkWidget            *start_button;
  AdwPreferencesGroup  *project_group;
  AdwPreferencesGroup  *agent_group;
  AdwActionRow         *lock_row;
  GtkSwitch            *lock_switch;
};

G_DEFINE_FINAL_TYPE (PaddockNewSessionDialog, paddock_new_session_dialog, ADW_TYPE_WINDOW)

static PaddockApplication *
get_application (PaddockNewSessionDialog *self)
{
  return PADDOCK_APPLICATION (gtk_window_get_application (GTK_WINDOW (self->window)));
}

/* The lock row follows the chosen project: its saved choice, and whether
 * it can be locked to at all. */
static void
update_lock_row (PaddockNewSessionDialog *self)
{
  g_autofree char *held = NULL;
  gboolean lockable;

  if (self->project == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->lock_row), FALSE);
      adw_action_row_set_subtitle (self->lock_row, _("Choose a project first"));
      return;
    }
  lockable = paddock_lock_check_project (paddock_project_get_path (self->project), &held, NULL);
  gtk_switch_set_active (self->lock_switch, lockable && paddock_project_get_lock (self->project));
  gtk_widget_set_sensitive (GTK_WIDGET (self->lock_row), lockable);
  if (!lockable && held != NULL)
    /* TRANSLATORS: %s is a folder the lock keeps from every agent, such as ~/.ssh */
    adw_action_row_set_subtitle (self->lock_row, held);
  else if (!lockable)
    adw_action_row_set_subtitle (self->lock_row,
                                 _("This folder cannot be locked to: it holds what every login runs"));
  else
    adw_action_row_set_subtitle (self->lock_row,
                                 _("The agent can change files only inside the project, enforced by the kernel"));
}

static void
set_project (PaddockNewSessionDialog *self,
             const char              *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;

  project = paddock_application_lookup_project (get_application (self), path, &error);
  if (project == NULL)
    paddock_toasts_add (self->toast_overlay, adw_toast_new (error->message));
  g_set_object (&self->project, project);
  update_lock_row (self);
}

static void
project_toggled_cb (GtkCheckButton          *check,
                    PaddockNewSessionDialog *self)
{
  if (gtk_check_button_get_active (check))
    set_project (self, g_object_get_data (G_OBJECT (check), "paddock-path"));
}

/* A row for the folder @path, in the projects' radio group. */
static GtkCheckButton *
add_project_row (PaddockNewSessionDialog *self,
                 const char              *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *shown = paddock_display_path (path);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_check_button_set_group (GTK_CHECK_BUTTON (check), self->project_radios);
  g_object_set_data_full (G_OBJECT (check), "paddock-path", g_strdup (path), g_free);
  g_signal_connect_object (check, "toggled", G_CALLBACK (project_toggled_cb), self, 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  adw_preferences_group_add (self->project_group, row);
  if (self->project_radios == NULL)
    self->project_radios = GTK_CHECK_BUTTON (check);
  g_ptr_array_add (self->project_checks, check);
  return GTK_CHECK_BUTTON (check);
}

/* An agent's row: where it was found, or that it is not installed (and
 * then it cannot be chosen). */
static void
add_agent_row (PaddockNewSessionDialog *self,
               PaddockAgent            *agent)
{
  g_autofree char *found = paddock_agent_find_program (agent);
  g_autofree char *shown = found != NULL ? paddock_display_path (found) : NULL;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), paddock_agent_get_name (agent));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown != NULL ? shown : _("Not installed"));
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_check_button_set_group (GTK_CHECK_BUTTON (check), self->agent_radios);
  g_object_set_data_full (G_OBJECT (check), "paddock-agent", g_object_ref (agent), g_object_unref);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  gtk_widget_set_sensitive (row, found != NULL);
  if (found == NULL)
    gtk_widget_add_css_class (row, "dim-label");
  adw_preferences_group_add (self->agent_group, row);
  if (self->agent_radios == NULL)
    self->agent_radios = GTK_CHECK_BUTTON (check);
  g_ptr_array_add (self->agent_checks, check);
}

static void
command_changed_cb (PaddockNewSessionDialog *self,
                    GtkEditable             *editable)
{
  if (*gtk_editable_get_text (editable) != '\0')
    gtk_check_button_set_active (self->command_check, TRUE);
}

static void
add_command_row (PaddockNewSessionDialog *self)
{
  GtkWidget *check = gtk_check_button_new ();

  self->command_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->command_row), _("Other Command"));
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_check_button_set_group (GTK_CHECK_BUTTON (check), self->agent_radios);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Run another command"), -1);
  adw_entry_row_add_prefix (self->command_row, check);
  self->command_check = GTK_CHECK_BUTTON (check);
  g_signal_connect_object (self->command_row, "changed", G_CALLBACK (command_changed_cb), self,
                           G_CONNECT_SWAPPED);
  adw_preferences_group_add (self->agent_group, GTK_WIDGET (self->command_row));
}

/* The agent the checked row stands for, or NULL with @error set. */
static PaddockAgent *
dup_chosen_agent (PaddockNewSessionDialog  *self,
                  GError                  **error)
{
  g_auto(GStrv) command = NULL;
  g_autoptr(GError) parse_error = NULL;

  if (!gtk_check_button_get_active (self->command_check))
    {
      for (guint i = 0; i < self->agent_checks->len; i++)
        {
          GtkCheckButton *check = g_ptr_array_index (self->agent_checks, i);

          if (gtk_check_button_get_active (check))
            return g_object_ref (g_object_get_data (G_OBJECT (check), "paddock-agent"));
        }
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Choose an agent"));
      return NULL;
    }

  if (!g_shell_parse_argv (gtk_editable_get_text (GTK_EDITABLE (self->command_row)), NULL, &command,
                           &parse_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s says what is wrong with the command the user typed */
                   _("Cannot read the command: %s"), parse_error->message);
      return NULL;
    }
  return paddock_agent_new_command ((const char * const *) command);
}

/**
 * paddock_new_session_dialog_start:
 * @self: the dialog
 * @error: return location for why it cannot start
 *
 * Opens a tab in the dialog's window with a session of the chosen agent in
 * the chosen project, locked as the switch says, and closes the dialog.
 * An agent that is not installed opens no tab.
 *
 * Returns: (transfer none) (nullable): the new session's page
 */
PaddockSessionPage *
paddock_new_session_dialog_start (PaddockNewSessionDialog  *self,
                                  GError                  **error)
{
  g_autoptr(PaddockAgent) agent = NULL;
  g_auto(GStrv) argv = NULL;
  PaddockLockChoice lock_choice = PADDOCK_LOCK_CHOICE_PROJECT;
  gboolean lock;
  PaddockSessionPage *session;

  g_return_val_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self), NULL);

  if (self->project == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Choose a project folder"));
      return NULL;
    }
  agent = dup_chosen_agent (self, error);
  if (agent == NULL || (argv = paddock_agent_dup_argv (agent, error)) == NULL)
    return NULL;

  /* The switch, where it differs from the project's saved choice, is
   * this session's own; the saved choice stays the project's. */
  lock = gtk_switch_get_active (self->lock_switch);
  if (lock != paddock_project_get_lock (self->project))
    lock_choice = lock ? PADDOCK_LOCK_CHOICE_LOCK : PADDOCK_LOCK_CHOICE_NO_LOCK;

  session = paddock_window_add_session (self->window, self->project, agent, lock_choice);
  gtk_window_destroy (GTK_WINDOW (self));
  return session;
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PaddockNewSessionDialog *self = PADDOCK_NEW_SESSION_DIALOG (widget);
  g_autoptr(GError) error = NULL;

  if (paddock_new_session_dialog_start (self, &error) == NULL)
    paddock_toasts_add (self->toast_overlay, adw_toast_new (error->message));
}

static void
chooser_response_cb (PaddockNewSessionDialog *self,
                     int                      response,
                     GtkNativeDialog         *chooser)
{
  g_autoptr(GFile) folder = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (folder != NULL)
    path = g_file_get_path (folder);
  if (path != NULL)
    paddock_new_session_dialog_select_project (self, path);
  g_clear_object (&self->chooser);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PaddockNewSessionDialog *self = PADDOCK_NEW_SESSION_DIALOG (widget);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Project Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
paddock_new_session_dialog_dispose (GObject *object)
{
  PaddockNewSessionDialog *self = PADDOCK_NEW_SESSION_DIALOG (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->project);
  g_clear_pointer (&self->agent_checks, g_ptr_array_unref);
  g_clear_pointer (&self->project_checks, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_NEW_SESSION_DIALOG);

  G_OBJECT_CLASS (paddock_new_session_dialog_parent_class)->dispose (object);
}

static void
paddock_new_session_dialog_class_init (PaddockNewSessionDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_new_session_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-new-session-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, project_group);
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, agent_group);
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, lock_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockNewSessionDialog, lock_switch);

  gtk_widget_class_install_action (widget_class, "dialog.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "dialog.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
paddock_new_session_dialog_init (PaddockNewSessionDialog *self)
{
  self->agent_checks = g_ptr_array_new ();
  self->project_checks = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Ctrl+Shift+T, Return: another session like the selected tab's. */
  gtk_window_set_default_widget (GTK_WINDOW (self), self->start_button);
  gtk_window_set_focus (GTK_WINDOW (self), self->start_button);
}

/**
 * paddock_new_session_dialog_new:
 * @window: the window the session is to open in
 *
 * A dialog, transient for @window, offering the recent projects (the
 * selected tab's first), the agents (the selected tab's, else the default
 * one, checked) and the folder lock.
 *
 * Returns: (transfer full): the dialog, to present
 */
PaddockNewSessionDialog *
paddock_new_session_dialog_new (PaddockWindow *window)
{
  PaddockNewSessionDialog *self;
  PaddockSessionPage *session;
  g_autoptr(GListModel) agents = paddock_agent_list_known ();
  g_autoptr(GSettings) settings = paddock_settings_new ();
  g_auto(GStrv) recent = paddock_settings_dup_recent_projects (settings);
  g_autofree char *default_agent = paddock_settings_dup_default_agent (settings);

  g_return_val_if_fail (PADDOCK_IS_WINDOW (window), NULL);

  self = g_object_new (PADDOCK_TYPE_NEW_SESSION_DIALOG,
                       "transient-for", window,
                       "application", gtk_window_get_application (GTK_WINDOW (window)),
                       NULL);
  self->window = window;
  session = paddock_window_get_selected_session (window);

  if (session != NULL)
    add_project_row (self, paddock_project_get_path (paddock_session_page_get_project (session)));
  for (guint i = 0; recent[i] != NULL; i++)
    if (session == NULL || g_strcmp0 (recent[i], paddock_project_get_path (paddock_session_page_get_project (session))) != 0)
      add_project_row (self, recent[i]);
  if (self->project_radios != NULL)
    gtk_check_button_set_active (self->project_radios, TRUE);
  else
    update_lock_row (self);

  for (guint i = 0; i < g_list_model_get_n_items (agents); i++)
    {
      g_autoptr(PaddockAgent) agent = g_list_model_get_item (agents, i);

      add_agent_row (self, agent);
    }
  add_command_row (self);
  if (session != NULL && paddock_agent_get_command (paddock_session_page_get_agent (session)) != NULL)
    {
      g_autofree char *line = g_strjoinv (" ", (char **) paddock_agent_get_command (paddock_session_page_get_agent (session)));

      paddock_new_session_dialog_set_command (self, line);
    }
  else
    paddock_new_session_dialog_select_agent (self, session != NULL
                                                   ? paddock_agent_get_id (paddock_session_page_get_agent (session))
                                                   : default_agent);
  return self;
}

/**
 * paddock_new_session_dialog_select_project:
 * @self: the dialog
 * @path: a folder
 *
 * Checks @path's row, adding it when the list has none.
 */
void
paddock_new_session_dialog_select_project (PaddockNewSessionDialog *self,
                                           const char              *path)
{
  g_return_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self));
  g_return_if_fail (path != NULL);

  for (guint i = 0; i < self->project_checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->project_checks, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (check), "paddock-path"), path) == 0)
        {
          gtk_check_button_set_active (check, TRUE);
          return;
        }
    }
  gtk_check_button_set_active (add_project_row (self, path), TRUE);
}

/* Checks the known agent @id's row, when it is installed. */
gboolean
paddock_new_session_dialog_select_agent (PaddockNewSessionDialog *self,
                                         const char              *id)
{
  g_return_val_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self), FALSE);

  for (guint i = 0; i < self->agent_checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->agent_checks, i);
      PaddockAgent *agent = g_object_get_data (G_OBJECT (check), "paddock-agent");

      if (g_strcmp0 (paddock_agent_get_id (agent), id) == 0 &&
          gtk_widget_is_sensitive (GTK_WIDGET (check)))
        {
          gtk_check_button_set_active (check, TRUE);
          return TRUE;
        }
    }
  return FALSE;
}

/* Types @command_line as the other command, which checks it. */
void
paddock_new_session_dialog_set_command (PaddockNewSessionDialog *self,
                                        const char              *command_line)
{
  g_return_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->command_row), command_line);
  gtk_check_button_set_active (self->command_check, TRUE);
}

void
paddock_new_session_dialog_set_lock (PaddockNewSessionDialog *self,
                                     gboolean                 lock)
{
  g_return_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self));

  gtk_switch_set_active (self->lock_switch, lock);
}

PaddockProject *
paddock_new_session_dialog_get_project (PaddockNewSessionDialog *self)
{
  g_return_val_if_fail (PADDOCK_IS_NEW_SESSION_DIALOG (self), NULL);

  return self->project;
}
