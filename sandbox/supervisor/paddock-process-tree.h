/* paddock-process-tree.h: the agent's whole process tree, as one thing to stop, pause and kill
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "paddock-proc.h"
#include <sys/types.h>

G_BEGIN_DECLS

gboolean  paddock_process_tree_become_subreaper (GError **error);
GArray   *paddock_process_tree_list            (pid_t    root,
                                                GError **error);
gboolean  paddock_process_tree_is_descendant   (pid_t    root,
                                                pid_t    pid,
                                                GError **error);
gboolean  paddock_process_tree_freeze          (pid_t    root,
                                                GError **error);
gboolean  paddock_process_tree_thaw            (pid_t    root,
                                                GError **error);
gboolean  paddock_process_tree_kill            (pid_t    root,
                                                GError **error);

/* The fallback that needs no new descriptor: main thread only. */
void      paddock_process_tree_hold_children   (void);
gboolean  paddock_process_tree_kill_children   (void);

G_END_DECLS
