/* bench-notifier.c: what seccomp user notification costs by itself, for the exec benchmark
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-notifier COMMAND [ARG…] runs COMMAND with each execve and execveat
 * of its process tree reported to this process, which lets each go on at
 * once (SECCOMP_USER_NOTIF_FLAG_CONTINUE) and reads nothing: the least an
 * exec monitor built on seccomp user notification pays on this machine,
 * its two wake-ups per exec and the filter, with none of the monitor's
 * work. bench-exec runs it beside the bare command and paddock-run, so
 * each of its figures comes with the floor it was measured against.
 * Exits with COMMAND's status.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paddock-fd-passing.h"

/* In the child: the filter, its listener to the parent, then COMMAND. */
static void
run_child (int    socket_fd,
           char **argv)
{
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  int notify_fd;
  int err;

  if (ctx == NULL ||
      seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (execve), 0) != 0 ||
      seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (execveat), 0) != 0 ||
      seccomp_load (ctx) != 0 ||
      (notify_fd = seccomp_notify_fd (ctx)) < 0)
    {
      fprintf (stderr, "bench-notifier: cannot install the filter\n");
      _exit (125);
    }
  if ((err = paddock_send_fd (socket_fd, notify_fd, "", 1)) != 0)
    {
      fprintf (stderr, "bench-notifier: cannot hand the listener over: %s\n", strerror (err));
      _exit (125);
    }
  close (notify_fd);
  close (socket_fd);
  execvp (argv[0], argv);
  fprintf (stderr, "bench-notifier: cannot run %s: %s\n", argv[0], strerror (errno));
  _exit (127);
}

/* Lets every exec go on, until no process is left under the filter. */
static void
answer_all (int notify_fd)
{
  struct seccomp_notif_sizes sizes = { 0 };
  struct seccomp_notif *req;
  struct seccomp_notif_resp *resp;
  struct pollfd fd = { .fd = notify_fd, .events = POLLIN };

  if (syscall (SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
    sizes = (struct seccomp_notif_sizes) { sizeof *req, sizeof *resp, 0 };
  req = calloc (1, sizes.seccomp_notif > sizeof *req ? sizes.seccomp_notif : sizeof *req);
  resp = calloc (1, sizes.seccomp_notif_resp > sizeof *resp ? sizes.seccomp_notif_resp : sizeof *resp);
  if (req == NULL || resp == NULL)
    abort ();

  for (;;)
    {
      if (poll (&fd, 1, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if ((fd.revents & POLLIN) == 0)
        break;
      memset (req, 0, sizes.seccomp_notif);
      if (ioctl (notify_fd, SECCOMP_IOCTL_NOTIF_RECV, req) != 0)
        {
          if (errno == EINTR || errno == ENOENT)
            continue;
          break;
        }
      memset (resp, 0, sizes.seccomp_notif_resp);
      resp->id = req->id;
      resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
      /* ENOENT: the caller died meanwhile. */
      ioctl (notify_fd, SECCOMP_IOCTL_NOTIF_SEND, resp);
    }
  free (req);
  free (resp);
}

int
main (int   argc,
      char *argv[])
{
  int sockets[2];
  int notify_fd;
  int status;
  char byte;
  pid_t child;

  if (argc < 2)
    {
      fprintf (stderr, "Usage: bench-notifier COMMAND [ARG…]\n");
      return 2;
    }
  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0 ||
      prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      fprintf (stderr, "bench-notifier: %s\n", strerror (errno));
      return 125;
    }
  child = fork ();
  if (child < 0)
    {
      fprintf (stderr, "bench-notifier: cannot fork: %s\n", strerror (errno));
      return 125;
    }
  if (child == 0)
    {
      close (sockets[0]);
      run_child (sockets[1], argv + 1);
    }
  close (sockets[1]);
  if (paddock_receive_fd (sockets[0], &byte, 1, &notify_fd) != 1 && notify_fd >= 0)
    {
      close (notify_fd);
      notify_fd = -1;
    }
  close (sockets[0]);
  if (notify_fd < 0)
    {
      fprintf (stderr, "bench-notifier: no listener from the child\n");
      waitpid (child, &status, 0);
      return 125;
    }
  answer_all (notify_fd);
  close (notify_fd);

  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return 125;
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}
