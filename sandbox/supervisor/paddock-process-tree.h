/* paddock-process-tree.h: the agent's whole process tree, as one thing to stop, pause and kill
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
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

/* The start of /proc/PID/@name, NUL-terminated, into @buffer; FALSE when it
 * cannot be read. @proc_fd is /proc opened, or -1 to name it by path. */
gboolean  paddock_proc_read_start              (int         proc_fd,
                                                pid_t       pid,
                                                const char *name,
                                                char       *buffer,
                                                gsize       size);

/* /proc/PID/stat's state letter and parent, either may be NULL; FALSE when
 * @pid is gone. @proc_fd as above. */
gboolean  paddock_proc_read_stat               (int         proc_fd,
                                                pid_t       pid,
                                                char       *state,
                                                pid_t      *ppid);

G_END_DECLS
