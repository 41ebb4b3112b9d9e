/* paddock-autofd.h: g_autofd for GLib 2.74, which lacks it (it arrived in 2.76)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
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

/* Opens /dev/null on each of standard input, output and error that was
 * closed, so that no descriptor the program opens later takes its place:
 * error messages would go into an audit log or a socket, and a socket
 * would be read as the answers typed. Returns the mask (1 << fd) of those
 * it opened. Call it first thing in main(). */
static inline unsigned
paddock_open_std_fds (void)
{
  unsigned opened = 0;

  for (int fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        /* The lowest free descriptor: @fd itself. */
        int null_fd = open ("/dev/null", O_RDWR);

        if (null_fd == fd)
          opened |= 1u << fd;
        else if (null_fd >= 0)
          close (null_fd);
      }
  return opened;
}
