/* test-preferences.c: the preferences window, what its settings do to open tabs and new sessions, and the shortcuts window
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-preferences-window.h"
#include "paddock-session-page.h"
#include "paddock-settings.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

static GSettings *settings;

static void
reset_settings (void)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (settings, keys[i]);
  /* As test_window_init() left them. */
  g_settings_set_boolean (settings, "restore-sessions", FALSE);
  g_settings_set_int (settings, "quiet-seconds", 0);
}

static PaddockPreferencesWindow *
find_preferences_window (void)
{
  g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (PADDOCK_IS_PREFERENCES_WINDOW (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return PADDOCK_PREFERENCES_WINDOW (window);
    }
  return NULL;
}

static gboolean
preferences_shown (gpointer data)
{
  PaddockPreferencesWindow *window = find_preferences_window ();

  return window != NULL && gtk_widget_get_mapped (GTK_WIDGET (window));
}

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

static GtkWidget *
find_row_widget (GtkWidget  *window,
                 const char *title,
                 GType       type)
{
  GtkWidget *row = find_row (window, title);
  GtkWidget *found;

  g_assert_nonnull (row);
  found = find_descendant (row, type, FALSE);
  g_assert_nonnull (found);
  return found;
}

/* app.preferences (Ctrl+comma) opens the window, whose rows show and set
 * the settings. */
static void
test_open (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_auto(GStrv) accels = NULL;
  PaddockPreferencesWindow *window;
  GtkWidget *root;
  GtkWidget *widget;

  if (skip_without_display ())
    return;

  app = create_application ();
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>comma"));

  g_assert_null (find_preferences_window ());
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  g_assert_true (wait_for (preferences_shown, NULL, "the preferences"));
  window = find_preferences_window ();
  root = GTK_WIDGET (window);
  g_assert_true (ADW_IS_PREFERENCES_WINDOW (window));
  g_assert_true (gtk_widget_is_sensitive (root));

  /* Each row shows its key, and sets it. */
  widget = find_row (root, "_Default Agent");
  g_assert_nonnull (widget);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (widget)), ==, 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (widget), 1);
  {
    g_autofree char *agent = g_settings_get_string (settings, "default-agent");

    g_assert_cmpstr (agent, ==, "claude");
  }
  g_settings_set_string (settings, "default-agent", "aider");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (widget)), ==, 5);

  widget = find_row_widget (root, "_Answer Within", GTK_TYPE_SPIN_BUTTON);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (widget)), ==, 120);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 300);
  g_assert_cmpint (g_settings_get_int (settings, "ask-timeout"), ==, 300);

  widget = find_row (root, "_With No Window Attached");
  g_assert_nonnull (widget);
  adw_combo_row_set_selected (ADW_COMBO_ROW (widget), 1);
  {
    g_autofree char *unattended = g_settings_get_string (settings, "unattended-asks");

    g_assert_cmpstr (unattended, ==, "wait");
  }

  widget = find_row_widget (root, "_Restore Sessions", GTK_TYPE_SWITCH);
  gtk_switch_set_active (GTK_SWITCH (widget), TRUE);
  g_assert_true (g_settings_get_boolean (settings, "restore-sessions"));
  gtk_switch_set_active (GTK_SWITCH (widget), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "restore-sessions"));

  widget = find_row_widget (root, "_Waiting for Input After", GTK_TYPE_SPIN_BUTTON);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 42);
  g_assert_cmpint (g_settings_get_int (settings, "quiet-seconds"), ==, 42);

  widget = find_row_widget (root, "_Notifications", GTK_TYPE_SWITCH);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (widget)));
  gtk_switch_set_active (GTK_SWITCH (widget), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "notifications"));

  widget = find_row (root, "_Style");
  g_assert_nonnull (widget);
  adw_combo_row_set_selected (ADW_COMBO_ROW (widget), 2);
  {
    g_autofree char *style = g_settings_get_string (settings, "style");

    g_assert_cmpstr (style, ==, "dark");
  }
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));

  /* The font is chosen only when the system's is not used. */
  g_assert_false (gtk_widget_get_sensitive (find_row (root, "_Font")));
  widget = find_row_widget (root, "Use _System Font", GTK_TYPE_SWITCH);
  gtk_switch_set_active (GTK_SWITCH (widget), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "use-system-font"));
  g_assert_true (gtk_widget_get_sensitive (find_row (root, "_Font")));

  /* Scrollback: unlimited is -1, and the count then does not apply. */
  widget = find_row_widget (root, "_Limit Scrollback", GTK_TYPE_SWITCH);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (widget)));
  gtk_switch_set_active (GTK_SWITCH (widget), FALSE);
  g_assert_cmpint (g_settings_get_int (settings, "scrollback-lines"), ==, -1);
  g_assert_false (gtk_widget_get_sensitive (find_row (root, "Scrollback _Lines")));
  gtk_switch_set_active (GTK_SWITCH (widget), TRUE);
  g_assert_cmpint (g_settings_get_int (settings, "scrollback-lines"), ==, 10000);
  widget = find_row_widget (root, "Scrollback _Lines", GTK_TYPE_SPIN_BUTTON);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (widget), 2500);
  g_assert_cmpint (g_settings_get_int (settings, "scrollback-lines"), ==, 2500);
  g_settings_set_int (settings, "scrollback-lines", -1);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (find_row_widget (root, "_Limit Scrollback", GTK_TYPE_SWITCH))));

  gtk_window_destroy (GTK_WINDOW (window));
  reset_settings ();
  g_assert_false (adw_style_manager_get_dark (adw_style_manager_get_default ()));
}

static gboolean
background_is (VteTerminal *terminal,
               const char  *spec)
{
  GdkRGBA color, expected;

  g_assert_true (gdk_rgba_parse (&expected, spec));
  vte_terminal_get_color_background_for_draw (terminal, &color);
  return gdk_rgba_equal (&color, &expected);
}

static void
assert_font (VteTerminal *terminal,
             const char  *family,
             int          size)
{
  const PangoFontDescription *font = vte_terminal_get_font (terminal);

  g_assert_nonnull (font);
  g_assert_cmpstr (pango_font_description_get_family (font), ==, family);
  g_assert_cmpint (pango_font_description_get_size (font), ==, size * PANGO_SCALE);
}

/* Scrollback, font and style apply at once to a tab already open. */
static void
test_terminal_follows (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GSettings) desktop = paddock_settings_new_desktop_interface ();
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  g_assert_cmpint (vte_terminal_get_scrollback_lines (terminal), ==, 10000);

  g_settings_set_int (settings, "scrollback-lines", 500);
  g_assert_cmpint (vte_terminal_get_scrollback_lines (terminal), ==, 500);
  g_settings_set_int (settings, "scrollback-lines", 0);
  g_assert_cmpint (vte_terminal_get_scrollback_lines (terminal), ==, 0);

  /* The font of one's own, while the system's is not used. */
  g_settings_set_string (settings, "font", "DejaVu Sans Mono 17");
  assert_font (terminal, "Monospace", 11);
  g_settings_set_boolean (settings, "use-system-font", FALSE);
  assert_font (terminal, "DejaVu Sans Mono", 17);
  g_settings_set_string (settings, "font", "Noto Mono 9");
  assert_font (terminal, "Noto Mono", 9);
  g_settings_set_boolean (settings, "use-system-font", TRUE);
  /* The desktop's, where its schema is installed, and as it changes. */
  if (desktop != NULL)
    {
      g_settings_set_string (desktop, "monospace-font-name", "Liberation Mono 13");
      assert_font (terminal, "Liberation Mono", 13);
      g_settings_reset (desktop, "monospace-font-name");
    }
  assert_font (terminal, "Monospace", 11);

  /* Light or dark, whatever the system says. */
  g_assert_true (background_is (terminal, "#ffffff"));
  g_settings_set_string (settings, "style", "dark");
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  g_assert_true (background_is (terminal, "#1e1e1e"));
  g_settings_set_string (settings, "style", "light");
  g_assert_true (background_is (terminal, "#ffffff"));

  destroy_windows (app);
  reset_settings ();
  g_rmdir (dir);
}

static gboolean
strv_has_option (char       **argv,
                 const char  *option,
                 const char  *value)
{
  for (guint i = 0; argv[i] != NULL && argv[i + 1] != NULL; i++)
    if (g_str_equal (argv[i], "--"))
      return FALSE;
    else if (g_str_equal (argv[i], option) && g_str_equal (argv[i + 1], value))
      return TRUE;
  return FALSE;
}

/* A new session's paddock-run has the ask deadline and the unattended
 * asks of the preferences, and the window's asks wait that long. */
static void
test_ask_options (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_auto(GStrv) cmdline = NULL;
  const PaddockMessage *ask;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  gint64 waits;

  if (skip_without_display ())
    return;

  g_unsetenv ("PADDOCK_ASK_TIMEOUT");
  g_settings_set_int (settings, "ask-timeout", 4321);
  g_settings_set_string (settings, "unattended-asks", "wait");
  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);

  cmdline = runner_cmdline (page);
  g_assert_true (strv_has_option (cmdline, "--ask-timeout", "4321"));
  g_assert_true (strv_has_option (cmdline, "--on-ask", "wait"));

  ask = run_asked (page, terminal, "git push --force nowhere main");
  waits = (ask->deadline - g_get_real_time ()) / G_USEC_PER_SEC;
  g_assert_cmpint (waits, >, 4000);
  g_assert_cmpint (waits, <=, 4321);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  assert_terminal_shows (terminal, "status=126.");

  destroy_windows (app);
  reset_settings ();
  g_rmdir (dir);
}

/* With notifications off, an ask in a tab out of sight shows in its bar
 * and nowhere else; turned on again, the next one is told of. */
static void
test_notifications_off (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *first, *second;
  VteTerminal *first_terminal;
  AdwTabView *tab_view;
  GtkWindow *window;
  gint64 ask_id;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &first_terminal, &first);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  second = open_tab (window);
  g_assert_true (adw_tab_view_get_selected_page (tab_view) == adw_tab_view_get_page (tab_view, GTK_WIDGET (second)));
  g_assert_true (wait_for (lock_reported, first, "the first session's hello"));

  g_settings_set_boolean (settings, "notifications", FALSE);
  ask_id = run_asked (first, first_terminal, "git push --force quiet main")->id;
  g_assert_true (paddock_session_page_decide (first, ask_id, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE));
  assert_terminal_shows (first_terminal, "status=126.");
  g_assert_true (wait_for (no_ask_shown, first, "the bar to empty"));

  /* The same tab, the same way out of sight: now it notifies. What was
   * sent before it came first on the bus. */
  g_settings_set_boolean (settings, "notifications", TRUE);
  run_asked (first, first_terminal, "git push --force told main");
  g_assert_true (wait_for (notification_sent, (gpointer) "git push --force told main", "the notification"));
  g_assert_null (find_notification ("git push --force quiet main"));

  destroy_windows (app);
  reset_settings ();
  g_rmdir (dir);
}

/* Whether the shortcuts window has a row for @keyval with @mods. */
static gboolean
overlay_shows_accel (GPtrArray       *shortcuts,
                     guint            keyval,
                     GdkModifierType  mods)
{
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *accelerator = NULL;
      g_auto(GStrv) accels = NULL;

      g_object_get (g_ptr_array_index (shortcuts, i), "accelerator", &accelerator, NULL);
      if (accelerator == NULL)
        continue;
      accels = g_strsplit (accelerator, " ", -1);
      for (guint j = 0; accels[j] != NULL; j++)
        {
          guint shown_keyval;
          GdkModifierType shown_mods;

          if (gtk_accelerator_parse (accels[j], &shown_keyval, &shown_mods) &&
              shown_keyval == keyval && shown_mods == mods)
            return TRUE;
        }
    }
  return FALSE;
}

static gboolean
overlay_shows_action (GPtrArray  *shortcuts,
                      const char *action)
{
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *action_name = NULL;

      g_object_get (g_ptr_array_index (shortcuts, i), "action-name", &action_name, NULL);
      if (g_strcmp0 (action_name, action) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether one of @trigger's keys is shown. */
static gboolean
overlay_shows_trigger (GPtrArray       *shortcuts,
                       GtkShortcutTrigger *trigger)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return overlay_shows_trigger (shortcuts, gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger))) ||
           overlay_shows_trigger (shortcuts, gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)));
  g_assert_true (GTK_IS_KEYVAL_TRIGGER (trigger));
  return overlay_shows_accel (shortcuts,
                              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
}

/* Every accelerator of the application, and every key of a tab's own,
 * has a row in the shortcuts window; each row for an action names one
 * that has an accelerator. */
static void
test_shortcuts_window (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GPtrArray) shortcuts = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_auto(GStrv) actions = NULL;
  g_autofree char *dir = NULL;
  GtkWidget *page;
  GObject *overlay;
  GSList *objects;
  guint n_checked = 0;

  if (skip_without_display ())
    return;

  app = create_application ();
  builder = gtk_builder_new_from_resource ("/org/paddock/Paddock/gtk/help-overlay.ui");
  overlay = gtk_builder_get_object (builder, "help_overlay");
  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      g_ptr_array_add (shortcuts, l->data);
  g_slist_free (objects);

  /* The application's, win.show-help-overlay's Ctrl+? included. */
  actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  g_assert_true (g_strv_contains ((const char * const *) actions, "app.preferences"));
  g_assert_true (g_strv_contains ((const char * const *) actions, "win.show-help-overlay"));
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      if (accels[0] == NULL)
        continue;
      if (!overlay_shows_action (shortcuts, actions[i]))
        g_error ("%s (%s) has no row in the shortcuts window", actions[i], accels[0]);
      n_checked++;
    }
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *action_name = NULL;
      g_autofree char *accelerator = NULL;
      g_autofree char *title = NULL;

      g_object_get (g_ptr_array_index (shortcuts, i), "action-name", &action_name,
                    "accelerator", &accelerator, "title", &title, NULL);
      g_assert_nonnull (title);
      g_assert_cmpstr (title, !=, "");
      if (action_name != NULL)
        {
          g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action_name);

          if (accels[0] == NULL)
            g_error ("the shortcuts window's “%s” names %s, which has no accelerator", title, action_name);
        }
      else
        {
          /* Keys, or a range of keys ("<Alt>1...<Alt>9"), that GTK reads. */
          g_auto(GStrv) accels = g_strsplit (accelerator, " ", -1);

          for (guint j = 0; accels[j] != NULL; j++)
            {
              g_auto(GStrv) range = g_strsplit (accels[j], "...", 2);

              for (guint k = 0; range[k] != NULL; k++)
                if (!gtk_accelerator_parse (range[k], NULL, NULL))
                  g_error ("the shortcuts window's “%s” has %s, which is no key", title, accels[j]);
            }
        }
    }

  /* A tab's own keys: copy, paste, zoom, allow, deny. */
  dir = make_project_dir ();
  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  page = g_object_ref_sink (GTK_WIDGET (paddock_session_page_new (project, NULL, PADDOCK_LOCK_CHOICE_PROJECT)));
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (page);

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
          continue;
        for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
          {
            g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
            GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

            if (!overlay_shows_trigger (shortcuts, trigger))
              {
                g_autofree char *shown = gtk_shortcut_trigger_to_string (trigger);

                g_error ("a tab's %s has no row in the shortcuts window", shown);
              }
            n_checked++;
          }
      }
  }
  g_object_unref (page);
  g_rmdir (dir);

  /* The eight of the application and the seven of a tab, at least. */
  g_assert_cmpuint (n_checked, >=, 15);
  gtk_window_destroy (GTK_WINDOW (overlay));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* Tabs out of sight notify of their asks: this program's own server
   * takes them, so it runs alone (see tests/meson.build). */
  if (have_display)
    {
      serve_notifications ();
      settings = paddock_settings_new ();
      g_assert_nonnull (settings);
    }
  g_test_add_func ("/paddock/preferences/open", test_open);
  g_test_add_func ("/paddock/preferences/terminal-follows", test_terminal_follows);
  g_test_add_func ("/paddock/preferences/ask-options", test_ask_options);
  g_test_add_func ("/paddock/preferences/notifications-off", test_notifications_off);
  g_test_add_func ("/paddock/preferences/shortcuts-window", test_shortcuts_window);

  status = g_test_run ();
  g_clear_object (&settings);
  test_window_cleanup ();
  return status;
}
