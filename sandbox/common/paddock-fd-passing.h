/* paddock-fd-passing.h: one descriptor and a few bytes over a Unix socket (SCM_RIGHTS)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only and without GLib, so that tests/bench-notifier (the exec
 * benchmark's floor, which links nothing of Paddock's) hands its seccomp
 * listener over the way paddock-run does.
 */
#pragma once

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

typedef union
{
  char           buf[CMSG_SPACE (sizeof (int))];
  struct cmsghdr align;
} PaddockFdControl;

/* Sends @fd and the @size bytes at @data (at least one: a message without
 * data carries no descriptor on a stream socket). Returns 0, or an errno. */
static inline int
paddock_send_fd (int         socket_fd,
                 int         fd,
                 const void *data,
                 size_t      size)
{
  PaddockFdControl control;
  struct iovec iov = { (void *) data, size };
  struct msghdr msg = {
    .msg_iov = &iov,
    .msg_iovlen = 1,
    .msg_control = control.buf,
    .msg_controllen = sizeof control.buf,
  };
  struct cmsghdr *cmsg;
  ssize_t n;

  memset (control.buf, 0, sizeof control.buf);
  cmsg = CMSG_FIRSTHDR (&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &fd, sizeof (int));

  do
    n = sendmsg (socket_fd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return errno;
  return (size_t) n == size ? 0 : EPIPE;
}

/* Receives at most @size bytes into @data and the descriptor sent with
 * them (close-on-exec) into *@out_fd, -1 when none came. Returns the
 * number of bytes, or -1 with errno set. */
static inline ssize_t
paddock_receive_fd (int     socket_fd,
                    void   *data,
                    size_t  size,
                    int    *out_fd)
{
  PaddockFdControl control;
  struct iovec iov = { data, size };
  struct msghdr msg = {
    .msg_iov = &iov,
    .msg_iovlen = 1,
    .msg_control = control.buf,
    .msg_controllen = sizeof control.buf,
  };
  ssize_t n;

  *out_fd = -1;
  do
    n = recvmsg (socket_fd, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return -1;

  for (struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg); cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
    if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
        cmsg->cmsg_len == CMSG_LEN (sizeof (int)))
      memcpy (out_fd, CMSG_DATA (cmsg), sizeof (int));
  return n;
}
