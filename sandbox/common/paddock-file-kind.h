/* paddock-file-kind.h: what a path names, before Paddock reads or writes it as text
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/stat.h>

typedef enum
{
  PADDOCK_FILE_USE_READ,
  PADDOCK_FILE_USE_WRITE,
} PaddockFileUse;

/* Why a file like @st must not be read (or written, by @use) as a stream
 * of text, for a message ("a device (character 1:11)", "a kernel file (on
 * /proc)"); NULL where it may. A file, a folder, a pipe or a socket may;
 * so may /dev/null and a terminal, and /dev/full for writing. A block
 * device or any other character device may not: a typo as root must not
 * put a log on a disk or in the kernel's log, nor read a disk, a tape or
 * /dev/zero as a policy. Nor may a file on a kernel file system (/proc,
 * sysfs, cgroup…), whose files are the kernel's knobs and reports, not
 * storage (/proc/kmsg's read waits for the kernel's next message): that
 * is known once it is open, as @fd (-1 before). Look before opening as
 * well as after: opening some devices does something. */
const char *paddock_file_kind_refusal (const struct stat *st,
                                       int                fd,
                                       PaddockFileUse     use,
                                       char               buffer[64]);

/* Whether @path may be read as text: before it is opened (@fd -1), what
 * it names; after (@fd open on it), what was opened, and on which file
 * system. Else FALSE, with @error (G_FILE_ERROR_INVAL) saying "cannot read
 * @what @path: it is …" (@what may be NULL). A path that cannot be looked
 * at passes: the open says why. */
gboolean paddock_file_kind_check_read (const char  *path,
                                       int          fd,
                                       const char  *what,
                                       GError     **error);
