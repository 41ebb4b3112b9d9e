/* paddock-settings.h: the app's preferences (GSettings org.paddock.Paddock)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GSettings *paddock_settings_new                 (void);
GStrv      paddock_settings_dup_recent_projects (GSettings  *settings);
char      *paddock_settings_dup_default_agent   (GSettings  *settings);
void       paddock_settings_add_recent_project  (GSettings  *settings,
                                                 const char *path);
/* The terminal font when the desktop's is unknown, as GNOME Console's. */
#define PADDOCK_SETTINGS_FALLBACK_FONT "Monospace 11"

GSettings *paddock_settings_new_desktop_interface (void);
char      *paddock_settings_dup_font              (GSettings *settings,
                                                   GSettings *desktop_interface);

G_END_DECLS
