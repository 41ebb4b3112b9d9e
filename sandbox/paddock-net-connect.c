/* paddock-net-connect.c: ssh's ProxyCommand under the network lock: HOST PORT through Paddock's proxy
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under --net=locked the agent's only way out is the proxy that
 * $HTTP_PROXY names; ssh, and so git over ssh, knows no proxy of its own.
 * paddock-run sets GIT_SSH_COMMAND to run ssh with this as its
 * ProxyCommand: it asks the proxy for a tunnel to HOST:PORT (HTTP
 * CONNECT), and once it is up, relays standard input to it and what comes
 * back to standard output, until either side ends.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_REPLY 8192

static int
fail (const char *message)
{
  fprintf (stderr, "paddock-net-connect: %s\n", message);
  return 1;
}

/* The port of $HTTP_PROXY (or $http_proxy), which must be on 127.0.0.1:
 * the lock's proxy is nowhere else. 0 where it is not there. */
static unsigned
proxy_port (void)
{
  const char *proxy = getenv ("HTTP_PROXY");
  const char *prefix = "http://127.0.0.1:";
  char *end;
  unsigned long port;

  if (proxy == NULL)
    proxy = getenv ("http_proxy");
  if (proxy == NULL || strncmp (proxy, prefix, strlen (prefix)) != 0)
    return 0;
  errno = 0;
  port = strtoul (proxy + strlen (prefix), &end, 10);
  if (errno != 0 || port == 0 || port > 65535 || (*end != '\0' && strcmp (end, "/") != 0))
    return 0;
  return (unsigned) port;
}

static int
write_all (int         fd,
           const char *data,
           size_t      size)
{
  while (size > 0)
    {
      ssize_t n = write (fd, data, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      data += n;
      size -= n;
    }
  return 0;
}

/* Reads the proxy's reply a byte at a time, so that nothing of the
 * tunnel after it is taken, up to its blank line; 0 where it says 200. */
static int
read_reply (int   fd,
            char *reply,
            size_t size)
{
  size_t length = 0;

  while (length + 1 < size)
    {
      ssize_t n = read (fd, reply + length, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      length++;
      reply[length] = '\0';
      if (length >= 4 && memcmp (reply + length - 4, "\r\n\r\n", 4) == 0)
        return strncmp (reply, "HTTP/1.", 7) == 0 && strncmp (reply + 8, " 200", 4) == 0 ? 0 : -1;
    }
  reply[length] = '\0';
  return -1;
}

/* Relays until the tunnel ends; standard input's end is passed on as a
 * half close, as ssh expects. */
static int
relay (int fd)
{
  struct pollfd fds[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
  char buf[65536];

  for (;;)
    {
      if (poll (fds, 2, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          return 1;
        }
      for (int i = 0; i < 2; i++)
        {
          ssize_t n;

          if (fds[i].revents == 0)
            continue;
          n = read (fds[i].fd, buf, sizeof buf);
          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            {
              if (i == 1)
                return 0;
              shutdown (fd, SHUT_WR);
              fds[0].fd = -1;
              continue;
            }
          if (write_all (i == 0 ? fd : STDOUT_FILENO, buf, n) != 0)
            return i == 0 ? 1 : 0;
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  char request[1024];
  char reply[MAX_REPLY];
  unsigned port;
  int fd;
  int n;

  if (argc != 3)
    {
      fprintf (stderr, "Usage: paddock-net-connect HOST PORT\n"
                       "ssh's ProxyCommand under Paddock's network lock (paddock-run --net=locked).\n");
      return 2;
    }
  port = proxy_port ();
  if (port == 0)
    return fail ("HTTP_PROXY names no proxy on 127.0.0.1: this runs under paddock-run --net=locked");
  /* A name with a line break would be a second request line. */
  if (strpbrk (argv[1], "\r\n \t") != NULL || strpbrk (argv[2], "\r\n \t") != NULL)
    return fail ("the host and port must be plain words");
  n = snprintf (request, sizeof request, "CONNECT %s:%s HTTP/1.1\r\nHost: %s:%s\r\n\r\n",
                argv[1], argv[2], argv[1], argv[2]);
  if (n < 0 || (size_t) n >= sizeof request)
    return fail ("the host name is too long");

  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  address.sin_port = htons (port);
  if (fd < 0 || connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    {
      fprintf (stderr, "paddock-net-connect: cannot reach the proxy at 127.0.0.1:%u: %s\n", port, strerror (errno));
      return 1;
    }
  if (write_all (fd, request, n) != 0)
    return fail ("the proxy closed the connection");
  if (read_reply (fd, reply, sizeof reply) != 0)
    {
      char *line_end = strstr (reply, "\r\n");

      if (line_end != NULL)
        *line_end = '\0';
      fprintf (stderr, "paddock-net-connect: the proxy refused %s:%s: %s\n", argv[1], argv[2],
               reply[0] != '\0' ? reply : "no answer");
      return 1;
    }
  return relay (fd);
}
