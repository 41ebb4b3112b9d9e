/* paddock-proc.c: what /proc says of a process
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-proc.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

gboolean
paddock_proc_read_start (int         proc_fd,
                         pid_t       pid,
                         const char *name,
                         char       *buffer,
                         gsize       size)
{
  char path[48];
  paddock_autofd int fd = -1;
  ssize_t n;

  g_snprintf (path, sizeof path, "%s%d/%s", proc_fd >= 0 ? "" : "/proc/", (int) pid, name);
  fd = openat (proc_fd >= 0 ? proc_fd : AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  n = read (fd, buffer, size - 1);
  if (n <= 0)
    return FALSE;
  buffer[n] = '\0';
  return TRUE;
}

/* The comm field may hold spaces and parentheses, so parse from the last ')'. */
gboolean
paddock_proc_read_stat (int    proc_fd,
                        pid_t  pid,
                        char  *state,
                        pid_t *ppid)
{
  char buf[512];
  char *close_paren;
  char state_letter;
  int parent;

  if (!paddock_proc_read_start (proc_fd, pid, "stat", buf, sizeof buf))
    return FALSE;
  close_paren = strrchr (buf, ')');
  if (close_paren == NULL || sscanf (close_paren + 1, " %c %d", &state_letter, &parent) != 2)
    return FALSE;
  if (state != NULL)
    *state = state_letter;
  if (ppid != NULL)
    *ppid = parent;
  return TRUE;
}
