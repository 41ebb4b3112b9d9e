/* paddock-preferences-window.c: the app's preferences, in a window of their own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-preferences-window.h"

#include "paddock-settings.h"

struct _PaddockPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings       *settings;          /* NULL without the schema */
  gboolean         showing_scrollback; /* the rows are being set from the key */

  AdwPreferencesPage *page;
  AdwComboRow     *default_agent_row;
  GtkSwitch       *restore_sessions_switch;
  GtkSpinButton   *quiet_seconds_spin;
  GtkSpinButton   *ask_timeout_spin;
  AdwComboRow     *unattended_asks_row;
  GtkSwitch       *notifications_switch;
  AdwComboRow     *style_row;
  GtkSwitch       *system_font_switch;
  AdwActionRow    *font_row;
  GtkWidget       *font_button;
  GtkSwitch       *limit_scrollback_switch;
  AdwActionRow    *scrollback_lines_row;
  GtkSpinButton   *scrollback_lines_spin;
};

G_DEFINE_FINAL_TYPE (PaddockPreferencesWindow, paddock_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The values of the string keys shown in combo rows, in the rows' order. */
static const char * const agent_ids[] = { "shell", "claude", "codex", "gemini", "opencode", "aider", NULL };
static const char * const unattended_asks_ids[] = { "deny", "wait", "allow", NULL };
static const char * const style_ids[] = { "follow", "light", "dark", NULL };

/* A string key with choices <-> a combo row's "selected": @user_data is
 * the choices, in the row's order. */
static gboolean
choice_to_selected (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char * const *ids = user_data;
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], id))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
selected_to_choice (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char * const *ids = user_data;
  guint selected = g_value_get_uint (value);

  if (selected >= g_strv_length ((char **) ids))
    return NULL;
  return g_variant_new_string (ids[selected]);
}

static void
bind_choice (PaddockPreferencesWindow *self,
             const char               *key,
             AdwComboRow              *row,
             const char * const       *ids)
{
  g_settings_bind_with_mapping (self->settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                choice_to_selected, selected_to_choice, (gpointer) ids, NULL);
}

/* scrollback-lines is -1 (every line) or a count: a switch and a number. */
static void
scrollback_changed_cb (PaddockPreferencesWindow *self,
                       const char               *key,
                       GSettings                *settings)
{
  int lines = g_settings_get_int (self->settings, "scrollback-lines");

  self->showing_scrollback = TRUE;
  if (lines >= 0)
    gtk_spin_button_set_value (self->scrollback_lines_spin, lines);
  gtk_switch_set_active (self->limit_scrollback_switch, lines >= 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scrollback_lines_row), lines >= 0);
  self->showing_scrollback = FALSE;
}

static void
scrollback_edited_cb (PaddockPreferencesWindow *self)
{
  int lines = -1;

  if (self->showing_scrollback || self->settings == NULL)
    return;
  if (gtk_switch_get_active (self->limit_scrollback_switch))
    lines = gtk_spin_button_get_value_as_int (self->scrollback_lines_spin);
  g_settings_set_int (self->settings, "scrollback-lines", lines);
}

static void
paddock_preferences_window_constructed (GObject *object)
{
  PaddockPreferencesWindow *self = PADDOCK_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (paddock_preferences_window_parent_class)->constructed (object);

  self->settings = paddock_settings_new ();
  if (self->settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->page), FALSE);
      return;
    }

  bind_choice (self, "default-agent", self->default_agent_row, agent_ids);
  g_settings_bind (self->settings, "restore-sessions", self->restore_sessions_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "quiet-seconds", gtk_spin_button_get_adjustment (self->quiet_seconds_spin),
                   "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "ask-timeout",
                   gtk_spin_button_get_adjustment (self->ask_timeout_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  bind_choice (self, "unattended-asks", self->unattended_asks_row, unattended_asks_ids);
  g_settings_bind (self->settings, "notifications", self->notifications_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  bind_choice (self, "style", self->style_row, style_ids);
  g_settings_bind (self->settings, "use-system-font", self->system_font_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "use-system-font", self->font_row, "sensitive",
                   G_SETTINGS_BIND_GET | G_SETTINGS_BIND_INVERT_BOOLEAN);
  g_settings_bind (self->settings, "font", self->font_button, "font", G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_object (self->settings, "changed::scrollback-lines",
                           G_CALLBACK (scrollback_changed_cb), self, G_CONNECT_SWAPPED);
  scrollback_changed_cb (self, NULL, self->settings);
}

static void
paddock_preferences_window_dispose (GObject *object)
{
  PaddockPreferencesWindow *self = PADDOCK_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (paddock_preferences_window_parent_class)->dispose (object);
}

static void
paddock_preferences_window_class_init (PaddockPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = paddock_preferences_window_constructed;
  object_class->dispose = paddock_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, page);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, default_agent_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, restore_sessions_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, quiet_seconds_spin);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, ask_timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, unattended_asks_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, notifications_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, system_font_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, font_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, font_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, limit_scrollback_switch);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, scrollback_lines_row);
  gtk_widget_class_bind_template_child (widget_class, PaddockPreferencesWindow, scrollback_lines_spin);
  gtk_widget_class_bind_template_callback (widget_class, scrollback_edited_cb);
}

static void
paddock_preferences_window_init (PaddockPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * paddock_preferences_window_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer none): a new preferences window, modal to @parent;
 *   present it
 */
PaddockPreferencesWindow *
paddock_preferences_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (PADDOCK_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       NULL);
}
