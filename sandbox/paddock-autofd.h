/* paddock-autofd.h: g_autofd for GLib 2.74, which lacks it (it arrived in 2.76)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <unistd.h>

static inline void
paddock_close_fd (int *fd)
{
  if (*fd >= 0)
    {
      int saved_errno = errno;
      close (*fd);
      errno = saved_errno;
      *fd = -1;
    }
}

/* Use as `paddock_autofd int fd = -1;` */
#define paddock_autofd __attribute__((cleanup (paddock_close_fd)))

static inline int
paddock_steal_fd (int *fd)
{
  int ret = *fd;
  *fd = -1;
  return ret;
}
