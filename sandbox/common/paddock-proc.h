/* paddock-proc.h: what /proc says of a process
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The start of /proc/PID/@name, NUL-terminated, into @buffer; FALSE when it
 * cannot be read. @proc_fd is /proc opened, or -1 to name it by path. */
gboolean  paddock_proc_read_start (int         proc_fd,
                                   pid_t       pid,
                                   const char *name,
                                   char       *buffer,
                                   gsize       size);

/* /proc/PID/stat's state letter and parent, either may be NULL; FALSE when
 * @pid is gone. @proc_fd as above. */
gboolean  paddock_proc_read_stat  (int         proc_fd,
                                   pid_t       pid,
                                   char       *state,
                                   pid_t      *ppid);

G_END_DECLS
