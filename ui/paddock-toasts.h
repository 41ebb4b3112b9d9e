/* paddock-toasts.h: the window's toasts, shown one after another
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void     paddock_toasts_add      (AdwToastOverlay *overlay,
                                  AdwToast        *toast);
gboolean paddock_toasts_add_near (GtkWidget       *widget,
                                  AdwToast        *toast);

G_END_DECLS
