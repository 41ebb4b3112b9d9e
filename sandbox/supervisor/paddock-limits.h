/* paddock-limits.h: paddock-run under limits another process set on it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Main thread only. An open-file limit lowered below the descriptors the
 * main loop watches makes poll(2) fail at once, every time: GLib would warn
 * and try again for ever. The poll function installed here watches them in
 * turns instead, says so once, and never spins.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     paddock_limits_watch_poll      (GMainContext *context);
gboolean paddock_limits_restore_nofile  (void);

G_END_DECLS
