/* paddock-build-tree.h: finds Paddock's own parts when it runs from its build folder
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean  paddock_build_tree_contains_self (void);
char     *paddock_build_tree_get_path      (const char *relative);

G_END_DECLS
