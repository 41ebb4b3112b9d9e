/* bench-net-proxy.c: the network lock's proxy against a direct connection, on loopback
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In one run, against a server this program starts on 127.0.0.1: a 1 GiB
 * download through a CONNECT tunnel and directly (target: the proxy at
 * least 0.9× as fast), small plain HTTP requests through the proxy and
 * directly from a few clients at once, in connections a second (target:
 * 5,000/s through the proxy), and the time to the first byte of an
 * answer, whose median the proxy may add 0.3 ms to at most. The proxy
 * runs its main context on a thread of its own, with this process as
 * its agent (each connection's program looked for, as under the lock);
 * the clients block.
 */
#include "config.h"

#include "paddock-net-proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DOWNLOAD_BYTES   (G_GINT64_CONSTANT (1) << 30)
#define CLIENTS          4
#define REQUEST_SECONDS  3
#define TTFB_SAMPLES     2000

static const char small_answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";

static int
listen_loopback (guint16 *port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;

  g_assert (fd >= 0);
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  g_assert (bind (fd, (struct sockaddr *) &address, sizeof address) == 0);
  g_assert (listen (fd, 4096) == 0);
  g_assert (getsockname (fd, (struct sockaddr *) &address, &length) == 0);
  *port = ntohs (address.sin_port);
  return fd;
}

static int
connect_loopback (guint16 port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons (port),
                                 .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;

  g_assert (fd >= 0);
  if (connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    g_error ("cannot connect to 127.0.0.1:%u: %s", port, g_strerror (errno));
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/* Reads up to the end of a request head. */
static gboolean
read_head (int fd)
{
  char buffer[4096];
  gsize have = 0;

  while (have < sizeof buffer - 1)
    {
      ssize_t n = read (fd, buffer + have, sizeof buffer - 1 - have);

      if (n <= 0)
        return FALSE;
      have += n;
      buffer[have] = '\0';
      if (strstr (buffer, "\r\n\r\n") != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The server: a request for /big gets 1 GiB, any other a small answer. */
static gpointer
server_run (gpointer data)
{
  int listener = GPOINTER_TO_INT (data);
  static char block[1 << 20];

  for (;;)
    {
      char buffer[4096];
      int client = accept4 (listener, NULL, NULL, SOCK_CLOEXEC);
      ssize_t n;

      if (client < 0)
        return NULL;
      n = recv (client, buffer, sizeof buffer - 1, MSG_PEEK);
      if (n > 0 && (buffer[n] = '\0', strstr (buffer, "/big ") != NULL))
        {
          read_head (client);
          for (gint64 sent = 0; sent < DOWNLOAD_BYTES;)
            {
              ssize_t w = write (client, block, MIN ((gint64) sizeof block, DOWNLOAD_BYTES - sent));

              if (w <= 0)
                break;
              sent += w;
            }
        }
      else if (read_head (client))
        {
          if (write (client, small_answer, strlen (small_answer)) < 0)
            g_warning ("cannot answer: %s", g_strerror (errno));
        }
      close (client);
    }
}

static gint64
read_to_end (int fd)
{
  static __thread char buffer[1 << 20];
  gint64 total = 0;
  ssize_t n;

  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    total += n;
  return total;
}

static guint16 server_port;
static gint proxy_port;

/* A connection through the proxy (@through) or direct, with @path asked
 * for; returns the socket, the request sent. */
static int
open_request (gboolean    through,
              const char *path,
              gboolean    tunnel)
{
  g_autofree char *request = NULL;
  int fd;

  if (!through)
    {
      fd = connect_loopback (server_port);
      request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: bench.test\r\n\r\n", path);
    }
  else if (tunnel)
    {
      char answer[64];
      static const char established[] = "HTTP/1.1 200 Connection established\r\n\r\n";
      gsize have = 0;
      g_autofree char *connect_line = g_strdup_printf ("CONNECT bench.test:%u HTTP/1.1\r\n\r\n", server_port);

      fd = connect_loopback (proxy_port);
      g_assert (write (fd, connect_line, strlen (connect_line)) == (ssize_t) strlen (connect_line));
      while (have < strlen (established))
        {
          ssize_t n = read (fd, answer + have, strlen (established) - have);

          g_assert (n > 0);
          have += n;
        }
      g_assert (memcmp (answer, established, have) == 0);
      request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: bench.test\r\n\r\n", path);
    }
  else
    {
      fd = connect_loopback (proxy_port);
      request = g_strdup_printf ("GET http://bench.test:%u%s HTTP/1.1\r\nHost: bench.test\r\n\r\n", server_port, path);
    }
  g_assert (write (fd, request, strlen (request)) == (ssize_t) strlen (request));
  return fd;
}

static double
download (gboolean through)
{
  gint64 start = g_get_monotonic_time ();
  int fd = open_request (through, "/big", TRUE);
  gint64 total = read_to_end (fd);
  double seconds;

  close (fd);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  if (total < DOWNLOAD_BYTES)
    g_error ("the download stopped at %" G_GINT64_FORMAT " bytes", total);
  return DOWNLOAD_BYTES / seconds / (1 << 20);
}

typedef struct
{
  gboolean through;
  gint64   deadline;
  guint    count;
} RequestLoad;

static gpointer
requests_run (gpointer data)
{
  RequestLoad *load = data;

  while (g_get_monotonic_time () < load->deadline)
    {
      int fd = open_request (load->through, "/small", FALSE);
      gint64 total = read_to_end (fd);

      close (fd);
      if (total != (gint64) strlen (small_answer))
        g_error ("a small request got %" G_GINT64_FORMAT " bytes", total);
      load->count++;
    }
  return NULL;
}

static double
requests_per_second (gboolean through)
{
  RequestLoad loads[CLIENTS];
  GThread *threads[CLIENTS];
  gint64 start = g_get_monotonic_time ();
  guint total = 0;

  for (guint i = 0; i < CLIENTS; i++)
    {
      loads[i] = (RequestLoad) { through, start + REQUEST_SECONDS * G_USEC_PER_SEC, 0 };
      threads[i] = g_thread_new ("bench-client", requests_run, &loads[i]);
    }
  for (guint i = 0; i < CLIENTS; i++)
    {
      g_thread_join (threads[i]);
      total += loads[i].count;
    }
  return total / ((g_get_monotonic_time () - start) / 1e6);
}

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median time from connecting to the answer's first byte, in µs. */
static gint64
first_byte_median (gboolean through)
{
  gint64 *samples = g_new (gint64, TTFB_SAMPLES);
  gint64 median;

  for (guint i = 0; i < TTFB_SAMPLES; i++)
    {
      gint64 start = g_get_monotonic_time ();
      int fd = open_request (through, "/small", FALSE);
      char byte;

      g_assert (read (fd, &byte, 1) == 1);
      samples[i] = g_get_monotonic_time () - start;
      read_to_end (fd);
      close (fd);
    }
  qsort (samples, TTFB_SAMPLES, sizeof *samples, compare_gint64);
  median = samples[TTFB_SAMPLES / 2];
  g_free (samples);
  return median;
}

static gpointer
proxy_run (gpointer data)
{
  GMainContext *context = data;
  g_autofree char *resolve = g_strdup ("bench.test=127.0.0.1");
  const char *resolve_list[] = { resolve, NULL };
  PaddockNetProxyConfig config = { .resolve = resolve_list, .presets = (const char *[]) { NULL } };
  g_autoptr(GError) error = NULL;
  PaddockNetProxy *proxy;

  g_main_context_push_thread_default (context);
  proxy = paddock_net_proxy_new (&config, &error);
  g_assert_no_error (error);
  /* This process stands for the agent, so that each connection's
   * program is looked for as under the lock. */
  paddock_net_proxy_set_agent (proxy, getpid ());
  {
    guint16 port;

    paddock_net_proxy_add_listener (proxy, listen_loopback (&port));
    g_atomic_int_set (&proxy_port, port);
  }
  for (;;)
    g_main_context_iteration (context, TRUE);
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  GMainContext *context = g_main_context_new ();
  double direct_speed;
  double proxy_speed;
  double direct_rate;
  double proxy_rate;
  gint64 direct_ttfb;
  gint64 proxy_ttfb;
  gboolean met;

  int listener = listen_loopback (&server_port);

  /* Two threads serve, so the server keeps up with the clients. */
  g_thread_new ("bench-server", server_run, GINT_TO_POINTER (listener));
  g_thread_new ("bench-server", server_run, GINT_TO_POINTER (listener));
  g_thread_new ("bench-proxy", proxy_run, context);
  while (g_atomic_int_get (&proxy_port) == 0)
    g_usleep (1000);

  direct_speed = download (FALSE);
  proxy_speed = download (TRUE);
  printf ("1 GiB download: direct %.0f MiB/s, through the proxy %.0f MiB/s: %.2f× (target ≥ 0.90×)\n",
          direct_speed, proxy_speed, proxy_speed / direct_speed);

  direct_rate = requests_per_second (FALSE);
  proxy_rate = requests_per_second (TRUE);
  printf ("small requests, %d clients: direct %.0f/s, through the proxy %.0f connections/s (target ≥ 5000/s)\n",
          CLIENTS, direct_rate, proxy_rate);

  direct_ttfb = first_byte_median (FALSE);
  proxy_ttfb = first_byte_median (TRUE);
  printf ("time to first byte, median of %d: direct %" G_GINT64_FORMAT " µs, through the proxy %" G_GINT64_FORMAT
          " µs: +%.3f ms (target ≤ 0.3 ms)\n",
          TTFB_SAMPLES, direct_ttfb, proxy_ttfb, (proxy_ttfb - direct_ttfb) / 1000.0);

  met = proxy_speed / direct_speed >= 0.9 && proxy_rate >= 5000 && proxy_ttfb - direct_ttfb <= 300;
  printf ("%s\n", met ? "all three targets met" : "a target was missed (see above)");
  return 0;
}
