/* test-window-vault.c: the Secrets window, in process, against the real
 * gnome-keyring: reached from the primary menu, it adds a secret that
 * lands in the keyring, shows its name and never its value until Reveal
 * (and not after Hide), adds a project's own secret, pins one to a
 * program (by action and through the file chooser) and shows the file's
 * hash, sets a mode, and deletes after asking
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "paddock-vault-window.h"
#include "paddock-vault.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-vault-util.h"
#include "test-window-util.h"

/* The row titled @title (its mnemonic included), under @widget. */
static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_PREFERENCES_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether any text of @widget or under it, shown or not (labels, entries,
 * row titles and subtitles), holds @needle. */
static gboolean
holds_text (GtkWidget  *widget,
            const char *needle)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), needle) != NULL)
    return TRUE;
  if (GTK_IS_EDITABLE (widget) && strstr (gtk_editable_get_text (GTK_EDITABLE (widget)), needle) != NULL)
    return TRUE;
  if (ADW_IS_PREFERENCES_ROW (widget) &&
      strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), needle) != NULL)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (holds_text (child, needle))
      return TRUE;
  return FALSE;
}

static gboolean
vault_idle (gpointer data)
{
  PaddockVaultWindow *vault = data;

  return paddock_vault_window_get_secrets (vault) != NULL && paddock_vault_window_get_busy (vault) == 0;
}

static void
wait_idle (PaddockVaultWindow *vault)
{
  g_assert_true (wait_for (vault_idle, vault, "the Secrets window's vault calls"));
}

static const PaddockSecretInfo *
listed (PaddockVaultWindow *vault,
        const char         *name,
        const char         *project)
{
  GPtrArray *secrets = paddock_vault_window_get_secrets (vault);

  for (guint i = 0; i < secrets->len; i++)
    {
      const PaddockSecretInfo *info = g_ptr_array_index (secrets, i);

      if (g_str_equal (info->name, name) && g_str_equal (info->project, project))
        return info;
    }
  return NULL;
}

static PaddockVaultWindow *
find_vault_window (PaddockApplication *app)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (PADDOCK_IS_VAULT_WINDOW (l->data))
      return l->data;
  return NULL;
}

static gboolean
vault_window_shown (gpointer data)
{
  PaddockVaultWindow *vault = find_vault_window (data);

  return vault != NULL && gtk_widget_get_mapped (GTK_WIDGET (vault));
}

/* A file chooser showing; its dialog in *@data. */
static gboolean
file_chooser_shown (gpointer data)
{
  GtkWindow **chooser = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (toplevel) && gtk_widget_get_mapped (GTK_WIDGET (toplevel)))
        {
          *chooser = GTK_WINDOW (toplevel);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
file_chosen (gpointer data)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (data));

  return file != NULL;
}

/* Types @name and @value in, for the project only or every project, and
 * presses Add. */
static void
add_secret (PaddockVaultWindow *vault,
            const char         *name,
            const char         *value,
            gboolean            project_only)
{
  GtkWidget *name_row = find_row (GTK_WIDGET (vault), "_Name");
  GtkWidget *value_row = find_row (GTK_WIDGET (vault), "_Value");
  GtkWidget *project_row = find_row (GTK_WIDGET (vault), "Only This _Project");

  g_assert_true (ADW_IS_ENTRY_ROW (name_row));
  g_assert_true (ADW_IS_PASSWORD_ENTRY_ROW (value_row));
  gtk_editable_set_text (GTK_EDITABLE (name_row), name);
  gtk_editable_set_text (GTK_EDITABLE (value_row), value);
  gtk_switch_set_active (GTK_SWITCH (find_descendant (project_row, GTK_TYPE_SWITCH, FALSE)), project_only);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.add", NULL));
  /* The value leaves the entry at once. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (value_row)), ==, "");
  wait_idle (vault);
}

static AdwExpanderRow *
secret_row (PaddockVaultWindow *vault,
            const char         *name)
{
  GtkWidget *row = find_row (GTK_WIDGET (vault), name);

  g_assert_true (ADW_IS_EXPANDER_ROW (row));
  return ADW_EXPANDER_ROW (row);
}

static void
test_secrets_window (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *project = NULL;
  g_autofree char *global_name = test_vault_name ("window-gh");
  g_autofree char *own_name = test_vault_name ("window-own");
  g_autofree char *raw = NULL;
  g_autofree char *sh = realpath ("/bin/sh", NULL);
  g_autofree char *sh_hash = NULL;
  PaddockSessionPage *page;
  PaddockVaultWindow *vault;
  VteTerminal *terminal;
  GtkWindow *window;
  const char *value = "ghp-window-value-5150";

  if (skip_without_display () || !test_vault_require_service ())
    return;
  {
    g_autoptr(GError) error = NULL;

    sh_hash = paddock_vault_hash_file (sh, NULL, &error);
    g_assert_no_error (error);
  }

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);

  /* From the primary menu. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.secrets", NULL));
  g_assert_true (wait_for (vault_window_shown, app, "the Secrets window"));
  vault = find_vault_window (app);
  wait_idle (vault);
  g_object_get (vault, "project", &project, NULL);
  g_assert_nonnull (project);

  /* Added through the page: in the keyring, for every project. */
  add_secret (vault, global_name, value, FALSE);
  raw = test_vault_read_raw (global_name, "");
  g_assert_cmpstr (raw, ==, value);
  g_assert_nonnull (listed (vault, global_name, ""));
  {
    LabelWait name_shown = { GTK_WIDGET (vault), global_name };

    g_assert_true (wait_for (label_shown, &name_shown, "the secret's name in the list"));
  }

  /* Its name shows; its value nowhere, even with its row open. */
  adw_expander_row_set_expanded (secret_row (vault, global_name), TRUE);
  g_assert_false (holds_text (GTK_WIDGET (vault), value));

  /* Reveal shows it; Hide hides it again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.reveal", "(ss)", global_name, ""));
  wait_idle (vault);
  {
    LabelWait value_shown = { GTK_WIDGET (vault), value };

    g_assert_true (wait_for (label_shown, &value_shown, "the value, revealed"));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.reveal", "(ss)", global_name, ""));
  g_assert_false (holds_text (GTK_WIDGET (vault), value));

  /* A project's own secret. */
  add_secret (vault, own_name, "own-value-6161", TRUE);
  g_clear_pointer (&raw, g_free);
  raw = test_vault_read_raw (own_name, project);
  g_assert_cmpstr (raw, ==, "own-value-6161");
  g_clear_pointer (&raw, g_free);
  raw = test_vault_read_raw (own_name, "");
  g_assert_null (raw);
  g_assert_nonnull (listed (vault, own_name, project));
  g_assert_false (holds_text (GTK_WIDGET (vault), "own-value-6161"));

  /* Pinned to a program: the file's hash shows. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.pin", "(sss)", global_name, "", "/bin/sh"));
  wait_idle (vault);
  g_assert_cmpuint (listed (vault, global_name, "")->pins->len, ==, 1);
  adw_expander_row_set_expanded (secret_row (vault, global_name), TRUE);
  {
    g_autofree char *hash = g_strdup_printf ("SHA-256 %s", sh_hash);
    LabelWait hash_shown = { GTK_WIDGET (vault), hash };

    g_assert_true (wait_for (label_shown, &hash_shown, "the pinned program's hash"));
  }
  g_assert_nonnull (find_row (GTK_WIDGET (vault), sh));

  /* A mode chosen in its row. */
  {
    GtkWidget *mode_row = find_row (GTK_WIDGET (secret_row (vault, global_name)), "When an Agent Uses It");
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockSecretInfo) info = NULL;

    g_assert_true (ADW_IS_COMBO_ROW (mode_row));
    adw_combo_row_set_selected (ADW_COMBO_ROW (mode_row), 2);
    wait_idle (vault);
    info = paddock_vault_get_info_sync (global_name, "", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (info->mode, ==, PADDOCK_SECRET_MODE_PINNED);
    g_assert_cmpint (listed (vault, global_name, "")->mode, ==, PADDOCK_SECRET_MODE_PINNED);
  }

  /* Unpinned. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.unpin", "(sss)", global_name, "", sh));
  wait_idle (vault);
  g_assert_cmpuint (listed (vault, global_name, "")->pins->len, ==, 0);

  /* Deleted after asking; Cancel keeps it. */
  {
    g_autofree char *heading = g_strdup_printf ("Delete “%s”?", own_name);
    DialogWait asked = { heading, NULL };

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.delete", "(ss)", own_name, project));
    g_assert_true (wait_for (dialog_shown, &asked, "the question before deleting"));
    adw_message_dialog_response (asked.dialog, "cancel");
    wait_idle (vault);
    g_clear_pointer (&raw, g_free);
    raw = test_vault_read_raw (own_name, project);
    g_assert_cmpstr (raw, ==, "own-value-6161");

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.delete", "(ss)", own_name, project));
    g_assert_true (wait_for (dialog_shown, &asked, "the question before deleting, again"));
    adw_message_dialog_response (asked.dialog, "delete");
    wait_idle (vault);
    g_clear_pointer (&raw, g_free);
    raw = test_vault_read_raw (own_name, project);
    g_assert_null (raw);
    g_assert_null (listed (vault, own_name, project));
  }

  /* A bad name is a toast, and nothing is stored. */
  gtk_editable_set_text (GTK_EDITABLE (find_row (GTK_WIDGET (vault), "_Name")), "two words");
  gtk_editable_set_text (GTK_EDITABLE (find_row (GTK_WIDGET (vault), "_Value")), "bad-name-value-7272");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (vault), "vault.add", NULL));
  wait_idle (vault);
  g_assert_null (listed (vault, "two words", ""));

  test_vault_clear (global_name);
  gtk_window_destroy (GTK_WINDOW (vault));
  destroy_windows (app);
}

/* GTK's file chooser leaks (its sidebar's libcloudproviders, and more),
 * which LeakSanitizer cannot tell from Paddock's own leaks. */
#if defined(__SANITIZE_ADDRESS__)
#define FILE_CHOOSER_LEAKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FILE_CHOOSER_LEAKS 1
#endif
#endif

static void
test_pin_through_file_chooser (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = test_vault_name ("window-chooser");
  g_autofree char *sh = realpath ("/bin/sh", NULL);
  g_autofree char *sh_hash = NULL;
  g_autoptr(GFile) program = g_file_new_for_path (sh);
  g_autoptr(GError) error = NULL;
  PaddockSessionPage *page;
  PaddockVaultWindow *vault;
  VteTerminal *terminal;
  GtkWindow *window;
  GtkWindow *chooser = NULL;
  GtkWidget *choose;

#ifdef FILE_CHOOSER_LEAKS
  g_test_skip ("GTK's file chooser leaks (libcloudproviders) under AddressSanitizer; the plain build tests it");
  return;
#endif
  if (skip_without_display () || !test_vault_require_service ())
    return;
  sh_hash = paddock_vault_hash_file (sh, NULL, &error);
  g_assert_no_error (error);

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.secrets", NULL));
  g_assert_true (wait_for (vault_window_shown, app, "the Secrets window"));
  vault = find_vault_window (app);
  wait_idle (vault);
  add_secret (vault, name, "chooser-value-9393", FALSE);
  adw_expander_row_set_expanded (secret_row (vault, name), TRUE);

  /* Its Choose… button opens a file chooser; the program chosen is pinned. */
  choose = find_button_for_action (GTK_WIDGET (secret_row (vault, name)), "vault.pin");
  g_assert_nonnull (choose);
  /* Pressed once its row has opened. */
  g_assert_true (wait_for (widget_mapped, choose, "the Choose… button"));
  g_assert_true (gtk_widget_activate (choose));
  g_assert_true (wait_for (file_chooser_shown, &chooser, "the file chooser"));
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), program, &error));
  g_assert_no_error (error);
  /* Selected once its folder has loaded. */
  g_assert_true (wait_for (file_chosen, chooser, "the program selected in the file chooser"));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  wait_idle (vault);
  g_assert_cmpuint (listed (vault, name, "")->pins->len, ==, 1);
  g_assert_cmpstr (((PaddockSecretPin *) g_ptr_array_index (listed (vault, name, "")->pins, 0))->sha256,
                   ==, sh_hash);
  {
    g_autofree char *hash = g_strdup_printf ("SHA-256 %s", sh_hash);
    LabelWait hash_shown = { GTK_WIDGET (vault), hash };

    adw_expander_row_set_expanded (secret_row (vault, name), TRUE);
    g_assert_true (wait_for (label_shown, &hash_shown, "the chosen program's hash"));
  }

  test_vault_clear (name);
  gtk_window_destroy (GTK_WINDOW (vault));
  destroy_windows (app);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);

  g_test_add_func ("/paddock/window-vault/secrets-window", test_secrets_window);
  g_test_add_func ("/paddock/window-vault/pin-through-file-chooser", test_pin_through_file_chooser);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
