/* paddock-preferences-window.h: the app's preferences, in a window of their own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each row reads and writes one key of the org.paddock.Paddock settings
 * at once; the open tabs and the sessions started afterwards take them
 * from there. Without the schema installed the rows are insensitive and
 * show the defaults. Main thread only.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADDOCK_TYPE_PREFERENCES_WINDOW (paddock_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (PaddockPreferencesWindow, paddock_preferences_window, PADDOCK, PREFERENCES_WINDOW, AdwPreferencesWindow)

PaddockPreferencesWindow *paddock_preferences_window_new (GtkWindow *parent);

G_END_DECLS
