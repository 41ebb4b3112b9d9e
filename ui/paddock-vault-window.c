/* paddock-vault-window.c: the secrets in the user's vault, in a window of their own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-vault-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "paddock-vault.h"

#define HIDDEN_VALUE "••••••••"

/* The widgets of one listed secret that change without a reload. */
typedef struct
{
  GtkLabel  *value_label;
  GtkButton *reveal_button;
  gboolean   revealed;
} SecretRow;

struct _PaddockVaultWindow
{
  AdwPreferencesWindow parent_instance;

  char          *project;        /* NULL: the window has none */
  GCancellable  *cancellable;    /* cancelled on dispose: no callback then touches us */
  GPtrArray     *secrets;        /* PaddockSecretInfo, as listed last */
  GPtrArray     *rows;           /* the rows added to secrets_group */
  GHashTable    *secret_rows;    /* key (name "\n" project) -> SecretRow */
  GHashTable    *expanded;       /* keys of the rows the user expanded */
  GtkNativeDialog *chooser;
  guint          busy;
  gboolean       filling;        /* combo rows set from the vault, not by the user */

  AdwPreferencesPage *page;
  AdwEntryRow    *name_row;
  AdwPasswordEntryRow *value_row;
  AdwActionRow   *project_only_row;
  GtkSwitch      *project_only_switch;
  AdwPreferencesGroup *secrets_group;
  GtkSwitch      *show_all_switch;
  AdwActionRow   *show_all_row;
  AdwActionRow   *status_row;
};

G_DEFINE_FINAL_TYPE (PaddockVaultWindow, paddock_vault_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_PROJECT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const PaddockSecretMode modes[] = {
  PADDOCK_SECRET_MODE_ASK, PADDOCK_SECRET_MODE_SESSION, PADDOCK_SECRET_MODE_PINNED,
};

static void reload (PaddockVaultWindow *self);

static char *
secret_key (const char *name,
            const char *project)
{
  return g_strconcat (name, "\n", project, NULL);
}

static void
toast (PaddockVaultWindow *self,
       const char         *text)
{
  /* A toast's title is markup in libadwaita 1.2. */
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_set_timeout (toast, 8);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), toast);
}

/* A callback of a vault call: FALSE where the window is gone (its calls
 * cancelled), and then it must not be touched. */
static gboolean
call_done (PaddockVaultWindow *self,
           GError             *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;
  g_assert (self->busy > 0);
  self->busy--;
  if (error != NULL)
    toast (self, error->message);
  return TRUE;
}

static const char *
scope_text (PaddockVaultWindow      *self,
            const PaddockSecretInfo *info)
{
  if (info->project[0] == '\0')
    return _("Every project sees it");
  if (self->project != NULL && g_str_equal (info->project, self->project))
    return _("This project's own");
  return info->project;
}

static const char *
mode_text (PaddockSecretMode mode)
{
  switch (mode)
    {
    case PADDOCK_SECRET_MODE_SESSION:
      return _("asks once per session");
    case PADDOCK_SECRET_MODE_PINNED:
      return _("pinned programs without asking");
    case PADDOCK_SECRET_MODE_ASK:
    default:
      return _("asks at every use");
    }
}

static void
expanded_cb (AdwExpanderRow     *row,
             GParamSpec         *pspec,
             PaddockVaultWindow *self)
{
  const char *key = g_object_get_data (G_OBJECT (row), "secret-key");

  if (adw_expander_row_get_expanded (row))
    g_hash_table_add (self->expanded, g_strdup (key));
  else
    g_hash_table_remove (self->expanded, key);
}

static void
mode_selected_cb (AdwComboRow        *row,
                  GParamSpec         *pspec,
                  PaddockVaultWindow *self)
{
  const PaddockSecretInfo *info = g_object_get_data (G_OBJECT (row), "secret-info");
  guint selected = adw_combo_row_get_selected (row);

  if (self->filling || selected >= G_N_ELEMENTS (modes) || modes[selected] == info->mode)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "vault.set-mode", "(sss)", info->name, info->project,
                              paddock_secret_mode_to_string (modes[selected]));
}

static GtkWidget *
suffix_button (const char *label,
               const char *action,
               GVariant   *target,
               const char *style)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  if (style != NULL)
    gtk_widget_add_css_class (button, style);
  return button;
}

static GtkWidget *
plain_action_row (const char *title,
                  const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

static GtkWidget *
secret_row_new (PaddockVaultWindow *self,
                PaddockSecretInfo  *info)
{
  g_autofree char *key = secret_key (info->name, info->project);
  g_autofree char *subtitle = NULL;
  GtkStringList *mode_names;
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *row;
  SecretRow *secret_row = g_new0 (SecretRow, 1);
  GVariant *target = g_variant_ref_sink (g_variant_new ("(ss)", info->name, info->project));

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (expander), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), info->name);
  subtitle = g_strdup_printf ("%s · %s · %s", scope_text (self, info), mode_text (info->mode),
                              info->pins->len == 0 ? _("no pinned programs")
                              : info->pins->len == 1 ? _("1 pinned program") : _("pinned programs"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle);
  g_object_set_data_full (G_OBJECT (expander), "secret-key", g_strdup (key), g_free);

  /* The value: hidden until Reveal. */
  row = plain_action_row (_("Value"), NULL);
  secret_row->value_label = GTK_LABEL (gtk_label_new (HIDDEN_VALUE));
  gtk_label_set_selectable (secret_row->value_label, TRUE);
  gtk_label_set_wrap (secret_row->value_label, TRUE);
  gtk_label_set_wrap_mode (secret_row->value_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (secret_row->value_label, 40);
  gtk_widget_add_css_class (GTK_WIDGET (secret_row->value_label), "monospace");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), GTK_WIDGET (secret_row->value_label));
  secret_row->reveal_button = GTK_BUTTON (suffix_button (_("_Reveal"), "vault.reveal", target, NULL));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), GTK_WIDGET (secret_row->reveal_button));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
  g_hash_table_insert (self->secret_rows, g_strdup (key), secret_row);

  /* When the supervisor hands it out. */
  row = adw_combo_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("When an Agent Uses It"));
  mode_names = gtk_string_list_new (NULL);
  gtk_string_list_append (mode_names, _("Ask at Every Use"));
  gtk_string_list_append (mode_names, _("Ask Once per Session"));
  gtk_string_list_append (mode_names, _("Pinned Programs Without Asking"));
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (mode_names));
  g_object_unref (mode_names);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (modes[i] == info->mode)
      adw_combo_row_set_selected (ADW_COMBO_ROW (row), i);
  g_object_set_data (G_OBJECT (row), "secret-info", info);
  g_signal_connect_object (row, "notify::selected", G_CALLBACK (mode_selected_cb), self, 0);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);

  /* The programs it is pinned to, with their files' hashes. */
  for (guint i = 0; i < info->pins->len; i++)
    {
      const PaddockSecretPin *pin = g_ptr_array_index (info->pins, i);
      g_autofree char *hash = g_strdup_printf ("SHA-256 %s", pin->sha256);

      row = plain_action_row (pin->path, hash);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 suffix_button (_("_Unpin"), "vault.unpin",
                                                g_variant_new ("(sss)", info->name, info->project, pin->path),
                                                "flat"));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);
    }
  row = plain_action_row (_("Pin to a Program"),
                          _("In the pinned mode, a pinned program gets the secret without asking while "
                            "its file keeps the hash shown"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             suffix_button (_("_Choose…"), "vault.pin",
                                            g_variant_new ("(sss)", info->name, info->project, ""), NULL));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);

  row = plain_action_row (_("Delete This Secret"), _("Its value is removed from your keyring"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             suffix_button (_("_Delete…"), "vault.delete", target, "destructive-action"));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), row);

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (expander), g_hash_table_contains (self->expanded, key));
  g_signal_connect_object (expander, "notify::expanded", G_CALLBACK (expanded_cb), self, 0);
  g_variant_unref (target);
  return expander;
}

static void
clear_rows (PaddockVaultWindow *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->secrets_group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  g_hash_table_remove_all (self->secret_rows);
}

static void
show_status (PaddockVaultWindow *self,
             const char         *title,
             const char         *subtitle)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->status_row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->status_row), subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_row), TRUE);
}

static void
list_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) secrets = paddock_vault_list_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->busy--;
  clear_rows (self);
  if (secrets == NULL)
    {
      show_status (self, _("The vault cannot be read"), error->message);
      return;
    }
  g_clear_pointer (&self->secrets, g_ptr_array_unref);
  self->secrets = g_steal_pointer (&secrets);
  if (self->secrets->len == 0)
    {
      show_status (self, _("No secrets yet"), _("Add one above, or with `paddockctl secret add NAME`"));
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->status_row), FALSE);
  self->filling = TRUE;
  for (guint i = 0; i < self->secrets->len; i++)
    {
      GtkWidget *row = secret_row_new (self, g_ptr_array_index (self->secrets, i));

      adw_preferences_group_add (self->secrets_group, row);
      g_ptr_array_add (self->rows, row);
    }
  self->filling = FALSE;
}

static void
reload (PaddockVaultWindow *self)
{
  gboolean all = self->project == NULL || gtk_switch_get_active (self->show_all_switch);

  self->busy++;
  paddock_vault_list_async (all ? NULL : self->project, self->cancellable, list_cb, self);
}

static void
show_all_changed_cb (PaddockVaultWindow *self)
{
  reload (self);
}

static void
stored_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  paddock_vault_store_finish (result, &error);
  if (!call_done (self, error) || error != NULL)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), "");
  toast (self, _("Secret added to your keyring"));
  reload (self);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
  g_autofree char *value = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->value_row)));
  const char *project = "";

  g_strstrip (name);
  if (!paddock_vault_check_name (name, &error))
    {
      toast (self, error->message);
      explicit_bzero (value, strlen (value));
      return;
    }
  if (value[0] == '\0')
    {
      toast (self, _("Type the secret's value first"));
      return;
    }
  if (self->project != NULL && gtk_switch_get_active (self->project_only_switch))
    project = self->project;
  self->busy++;
  /* The library copies the value into secure memory at once. */
  paddock_vault_store_async (name, project, (const guint8 *) value, strlen (value), self->cancellable,
                             stored_cb, self);
  explicit_bzero (value, strlen (value));
  gtk_editable_set_text (GTK_EDITABLE (self->value_row), "");
}

static void
value_activated_cb (PaddockVaultWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "vault.add", NULL);
}

static void
hide_value (SecretRow *secret_row)
{
  gtk_label_set_text (secret_row->value_label, HIDDEN_VALUE);
  gtk_button_set_label (secret_row->reveal_button, _("_Reveal"));
  secret_row->revealed = FALSE;
}

typedef struct
{
  PaddockVaultWindow *self;
  char               *key;
} Reveal;

static void
revealed_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Reveal *reveal = user_data;
  PaddockVaultWindow *self = reveal->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = paddock_vault_lookup_finish (result, &error);
  g_autofree char *key = g_steal_pointer (&reveal->key);
  SecretRow *secret_row;

  g_free (reveal);
  if (!call_done (self, error) || value == NULL)
    return;
  /* Gone with a reload meanwhile: then it stays hidden. */
  secret_row = g_hash_table_lookup (self->secret_rows, key);
  if (secret_row != NULL)
    {
      gsize length = 0;
      const char *data = g_bytes_get_data (value, &length);
      char *text = g_utf8_make_valid (data, length);

      gtk_label_set_text (secret_row->value_label, text);
      explicit_bzero (text, strlen (text));
      g_free (text);
      gtk_button_set_label (secret_row->reveal_button, _("_Hide"));
      secret_row->revealed = TRUE;
    }
}

static void
reveal_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  const char *name;
  const char *project;
  g_autofree char *key = NULL;
  SecretRow *secret_row;
  Reveal *reveal;

  g_variant_get (parameter, "(&s&s)", &name, &project);
  key = secret_key (name, project);
  secret_row = g_hash_table_lookup (self->secret_rows, key);
  if (secret_row != NULL && secret_row->revealed)
    {
      hide_value (secret_row);
      return;
    }
  reveal = g_new0 (Reveal, 1);
  reveal->self = self;
  reveal->key = g_steal_pointer (&key);
  self->busy++;
  /* The secret's own item, not what a project would see under its name. */
  paddock_vault_lookup_async (name, project, self->cancellable, revealed_cb, reveal);
}

static void
changed_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  paddock_vault_set_mode_finish (result, &error);
  if (!call_done (self, error))
    return;
  reload (self);
}

static void
deleted_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  paddock_vault_delete_finish (result, &error);
  if (!call_done (self, error))
    return;
  if (error == NULL)
    toast (self, _("Secret deleted from your keyring"));
  reload (self);
}

static void
delete_response_cb (AdwMessageDialog   *dialog,
                    const char         *response,
                    PaddockVaultWindow *self)
{
  const char *name = g_object_get_data (G_OBJECT (dialog), "secret-name");
  const char *project = g_object_get_data (G_OBJECT (dialog), "secret-project");

  if (!g_str_equal (response, "delete"))
    return;
  self->busy++;
  paddock_vault_delete_async (name, project, self->cancellable, deleted_cb, self);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  const char *name;
  const char *project;
  g_autofree char *heading = NULL;
  GtkWidget *dialog;

  g_variant_get (parameter, "(&s&s)", &name, &project);
  /* TRANSLATORS: %s is a secret's name */
  heading = g_strdup_printf (_("Delete “%s”?"), name);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("Its value is removed from your keyring. Agents that use it by "
                                     "name can no longer get it."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "secret-name", g_strdup (name), g_free);
  g_object_set_data_full (G_OBJECT (dialog), "secret-project", g_strdup (project), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
pinned_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockSecretPin) pin = paddock_vault_pin_finish (result, &error);

  if (!call_done (self, error))
    return;
  if (pin != NULL)
    {
      /* TRANSLATORS: the first %s is a program's path, the second its file's SHA-256 */
      g_autofree char *text = g_strdup_printf (_("Pinned to %s, SHA-256 %s"), pin->path, pin->sha256);

      toast (self, text);
    }
  reload (self);
}

static void
pin (PaddockVaultWindow *self,
     const char         *name,
     const char         *project,
     const char         *path)
{
  self->busy++;
  paddock_vault_pin_async (name, project, path, self->cancellable, pinned_cb, self);
}

static void
chooser_response_cb (GtkNativeDialog    *chooser,
                     int                 response,
                     PaddockVaultWindow *self)
{
  const char *name = g_object_get_data (G_OBJECT (chooser), "secret-name");
  const char *project = g_object_get_data (G_OBJECT (chooser), "secret-project");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        pin (self, name, project, path);
      else
        toast (self, _("Only a program on this computer can be pinned"));
    }
  gtk_native_dialog_destroy (chooser);
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
pin_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  const char *name;
  const char *project;
  const char *path;
  g_autofree char *title = NULL;
  GtkFileChooserNative *chooser;

  g_variant_get (parameter, "(&s&s&s)", &name, &project, &path);
  if (path[0] != '\0')
    {
      pin (self, name, project, path);
      return;
    }
  /* GtkFileDialog is GTK 4.10; the floor is 4.8. */
  /* TRANSLATORS: %s is a secret's name */
  title = g_strdup_printf (_("Pin “%s” to a Program"), name);
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Pin"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data_full (G_OBJECT (chooser), "secret-name", g_strdup (name), g_free);
  g_object_set_data_full (G_OBJECT (chooser), "secret-project", g_strdup (project), g_free);
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  g_clear_object (&self->chooser);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
unpinned_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  PaddockVaultWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  paddock_vault_unpin_finish (result, &error);
  if (!call_done (self, error))
    return;
  reload (self);
}

static void
unpin_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  const char *name;
  const char *project;
  const char *path;

  g_variant_get (parameter, "(&s&s&s)", &name, &project, &path);
  self->busy++;
  paddock_vault_unpin_async (name, project, path, self->cancellable, unpinned_cb, self);
}

static void
set_mode_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (widget);
  const char *name;
  const char *project;
  const char *mode_name;
  PaddockSecretMode mode;

  g_variant_get (parameter, "(&s&s&s)", &name, &project, &mode_name);
  if (!paddock_secret_mode_from_string (mode_name, &mode))
    {
      g_autofree char *text = g_strdup_printf (_("Unknown mode “%s”"), mode_name);

      toast (self, text);
      return;
    }
  self->busy++;
  paddock_vault_set_mode_async (name, project, mode, self->cancellable, changed_cb, self);
}

static void
paddock_vault_window_constructed (GObject *object)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (object);

  G_OBJECT_CLASS (paddock_vault_window_parent_class)->constructed (object);

  if (self->project != NULL)
    adw_action_row_set_subtitle (self->project_only_row, self->project);
  else
    {
      /* Without a project every secret is listed, and added for every project. */
      gtk_widget_set_visible (GTK_WIDGET (self->project_only_row), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->show_all_row), FALSE);
    }
  reload (self);
}

static void
paddock_vault_window_dispose (GObject *object)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_VAULT_WINDOW);

  G_OBJECT_CLASS (paddock_vault_window_parent_class)->dispose (object);
}

static void
paddock_vault_window_finalize (GObject *object)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->secrets, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->secret_rows, g_hash_table_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_free (self->project);

  G_OBJECT_CLASS (paddock_vault_window_parent_class)->finalize (object);
}

static void
paddock_vault_window_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_free (self->project);
      self->project = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_vault_window_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PaddockVaultWindow *self = PADDOCK_VAULT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_string (value, self->project);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_vault_window_class_init (PaddockVaultWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->set_property = paddock_vault_window_set_property;
  object_class->get_property = paddock_vault_window_get_property;
  object_class->constructed = paddock_vault_window_constructed;
  object_class->dispose = paddock_vault_window_dispose;
  object_class->finalize = paddock_vault_window_finalize;

  /* The window's project folder (canonical), or NULL. */
  properties[PROP_PROJECT] =
    g_param_spec_string ("project", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/paddock/Paddock/paddock-vault-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, page);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, name_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, value_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, project_only_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, project_only_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, secrets_group);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, show_all_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, show_all_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockVaultWindow, status_row);
  gtk_widget_class_bind_template_callback (widget_class, show_all_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, value_activated_cb);

  gtk_widget_class_install_action (widget_class, "vault.add", NULL, add_action);
  gtk_widget_class_install_action (widget_class, "vault.reveal", "(ss)", reveal_action);
  gtk_widget_class_install_action (widget_class, "vault.delete", "(ss)", delete_action);
  gtk_widget_class_install_action (widget_class, "vault.pin", "(sss)", pin_action);
  gtk_widget_class_install_action (widget_class, "vault.unpin", "(sss)", unpin_action);
  gtk_widget_class_install_action (widget_class, "vault.set-mode", "(sss)", set_mode_action);
}

static void
paddock_vault_window_init (PaddockVaultWindow *self)
{
  self->cancellable = g_cancellable_new ();
  self->rows = g_ptr_array_new ();
  self->secret_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * paddock_vault_window_new:
 * @parent: (nullable): the window it belongs to
 * @project: (nullable): the window's project folder
 *
 * Returns: (transfer none): a new vault window, modal to @parent; present it
 */
PaddockVaultWindow *
paddock_vault_window_new (GtkWindow  *parent,
                          const char *project)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (PADDOCK_TYPE_VAULT_WINDOW,
                       "transient-for", parent,
                       "project", project,
                       NULL);
}

guint
paddock_vault_window_get_busy (PaddockVaultWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_VAULT_WINDOW (self), 0);
  return self->busy;
}

GPtrArray *
paddock_vault_window_get_secrets (PaddockVaultWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_VAULT_WINDOW (self), NULL);
  return self->secrets;
}
