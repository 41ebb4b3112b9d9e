/* paddock-settings.h: the app's preferences (GSettings org.paddock.Paddock)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GSettings *paddock_settings_new (void);

G_END_DECLS
