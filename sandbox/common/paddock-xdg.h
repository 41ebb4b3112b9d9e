/* paddock-xdg.h: the XDG base folders, as the specification has them
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "If an implementation encounters a relative path in any of these
 * variables it should consider the path invalid and ignore it." GLib 2.74
 * takes a relative XDG_STATE_HOME as it comes, relative to whatever the
 * current folder is: paddock-run, which runs from the project, would put
 * its audit logs, settings and control sockets in the project, where
 * paddockctl, run from anywhere else, would not find them. These give
 * GLib's folder where it is absolute, else the specification's default.
 */
#pragma once

#include <glib.h>

static inline const char *
paddock_xdg_home_default (gsize      *once,
                          const char *in_home)
{
  if (g_once_init_enter (once))
    g_once_init_leave (once, (gsize) g_build_filename (g_get_home_dir (), in_home, NULL));
  return (const char *) *once;
}

static inline const char *
paddock_user_config_dir (void)
{
  static gsize fallback;
  const char *dir = g_get_user_config_dir ();

  return g_path_is_absolute (dir) ? dir : paddock_xdg_home_default (&fallback, ".config");
}

static inline const char *
paddock_user_data_dir (void)
{
  static gsize fallback;
  const char *dir = g_get_user_data_dir ();

  return g_path_is_absolute (dir) ? dir : paddock_xdg_home_default (&fallback, ".local/share");
}

static inline const char *
paddock_user_state_dir (void)
{
  static gsize fallback;
  const char *dir = g_get_user_state_dir ();

  return g_path_is_absolute (dir) ? dir : paddock_xdg_home_default (&fallback, ".local/state");
}

static inline const char *
paddock_user_cache_dir (void)
{
  static gsize fallback;
  const char *dir = g_get_user_cache_dir ();

  return g_path_is_absolute (dir) ? dir : paddock_xdg_home_default (&fallback, ".cache");
}

/* Where XDG_RUNTIME_DIR is unset, GLib gives the cache folder; so here. */
static inline const char *
paddock_user_runtime_dir (void)
{
  const char *dir = g_get_user_runtime_dir ();

  return g_path_is_absolute (dir) ? dir : paddock_user_cache_dir ();
}
