/* paddock-settings.c: the app's preferences (GSettings org.paddock.Paddock)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-settings.h"

#include "paddock-build-tree.h"

/* g_settings_new() aborts on a missing schema; a build-tree run finds the
 * schema compiled beside it, and anything else runs with defaults. */
static GSettingsSchema *
lookup_schema (void)
{
  GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();
  GSettingsSchema *schema = NULL;

  if (paddock_build_tree_contains_self ())
    {
      g_autofree char *dir = paddock_build_tree_get_path ("data");
      g_autoptr(GSettingsSchemaSource) built = NULL;
      g_autoptr(GError) error = NULL;

      built = g_settings_schema_source_new_from_directory (dir, installed, FALSE, &error);
      if (built != NULL)
        schema = g_settings_schema_source_lookup (built, APPLICATION_ID, FALSE);
      else
        g_debug ("No compiled schemas in %s: %s", dir, error->message);
    }

  if (schema == NULL && installed != NULL)
    schema = g_settings_schema_source_lookup (installed, APPLICATION_ID, TRUE);

  return schema;
}

/**
 * paddock_settings_new:
 *
 * Returns: (transfer full) (nullable): the app's settings, or %NULL when the
 *   schema is not installed, in which case callers keep their defaults
 */
GSettings *
paddock_settings_new (void)
{
  g_autoptr(GSettingsSchema) schema = lookup_schema ();

  if (schema == NULL)
    {
      g_message ("The %s settings schema is not installed; preferences will not be kept",
                 APPLICATION_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

/**
 * paddock_settings_dup_default_agent:
 * @settings: (nullable): the app's settings
 *
 * Returns: (transfer full): the id of the agent a session runs when none
 *   is named: the "default-agent" setting, or "shell" without the schema
 */
char *
paddock_settings_dup_default_agent (GSettings *settings)
{
  if (settings == NULL)
    return g_strdup ("shell");
  return g_settings_get_string (settings, "default-agent");
}

#define MAX_RECENT_PROJECTS 10

/**
 * paddock_settings_dup_recent_projects:
 * @settings: (nullable): the app's settings
 *
 * The project folders sessions last ran in, the most recent first, less
 * the ones that are no longer folders.
 *
 * Returns: (transfer full): the folders' paths
 */
GStrv
paddock_settings_dup_recent_projects (GSettings *settings)
{
  g_auto(GStrv) saved = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (settings == NULL)
    return g_strv_builder_end (builder);
  saved = g_settings_get_strv (settings, "recent-projects");
  for (guint i = 0; saved[i] != NULL; i++)
    if (g_file_test (saved[i], G_FILE_TEST_IS_DIR))
      g_strv_builder_add (builder, saved[i]);
  return g_strv_builder_end (builder);
}

/* Puts @path first in the recent projects, once. */
void
paddock_settings_add_recent_project (GSettings  *settings,
                                     const char *path)
{
  g_auto(GStrv) saved = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) recent = NULL;
  guint n = 1;

  g_return_if_fail (path != NULL);

  if (settings == NULL)
    return;
  saved = g_settings_get_strv (settings, "recent-projects");
  if (saved[0] != NULL && g_str_equal (saved[0], path))
    return;
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, path);
  for (guint i = 0; saved[i] != NULL && n < MAX_RECENT_PROJECTS; i++)
    if (!g_str_equal (saved[i], path))
      {
        g_strv_builder_add (builder, saved[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (settings, "recent-projects", (const char * const *) recent);
}

/**
 * paddock_settings_new_desktop_interface:
 *
 * The desktop's own settings (org.gnome.desktop.interface), where its
 * monospace font is, when that schema is installed.
 *
 * Returns: (transfer full) (nullable): the settings, or %NULL without the schema
 */
GSettings *
paddock_settings_new_desktop_interface (void)
{
  GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (installed != NULL)
    schema = g_settings_schema_source_lookup (installed, "org.gnome.desktop.interface", TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "monospace-font-name"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/**
 * paddock_settings_dup_font:
 * @settings: (nullable): the app's settings
 * @desktop_interface: (nullable): the desktop's, from
 *   paddock_settings_new_desktop_interface()
 *
 * The terminal font, as a Pango font description: the desktop's monospace
 * font while use-system-font is on, else the font key; where either is
 * missing or empty, %PADDOCK_SETTINGS_FALLBACK_FONT.
 *
 * Returns: (transfer full): the font's description
 */
char *
paddock_settings_dup_font (GSettings *settings,
                           GSettings *desktop_interface)
{
  g_autofree char *font = NULL;

  if (settings != NULL && !g_settings_get_boolean (settings, "use-system-font"))
    font = g_settings_get_string (settings, "font");
  else if (desktop_interface != NULL)
    font = g_settings_get_string (desktop_interface, "monospace-font-name");

  if (font == NULL || *g_strstrip (font) == '\0')
    return g_strdup (PADDOCK_SETTINGS_FALLBACK_FONT);
  return g_steal_pointer (&font);
}
