/* paddock-net-proxy.c: the network lock's proxy: the only way out of the agent's network namespace
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Accepting, reading requests, deciding, resolving and connecting run on
 * the main context, each connection a few fd sources and a timer, so a
 * slow or idle client holds nothing but its own descriptor. Once a
 * tunnel is up it is relayed by a pool thread with splice(2) through a
 * pipe each way: the bytes never enter user space, and the main context
 * keeps answering new clients. Measured on loopback on a shared two-CPU
 * machine (tests/bench-net-proxy.c): a 1 GiB download at 0.5 to 0.6 of
 * a direct connection's speed (a copy through user space measured
 * slower, pipes of 64 KiB to 4 MiB no faster than 256 KiB; the server,
 * the relay and the client share two CPUs where a direct download has
 * one each), about 6,000 small requests a second, 0.13 to 0.17 ms added
 * to the median time to the first byte.
 */
#include "config.h"

#include "paddock-net-proxy.h"
#include "paddock-net-request.h"
#include "paddock-net-rules.h"
#include "paddock-fd-passing.h"
#include "paddock-project-config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_HEAD_TIMEOUT_MS (10 * 1000)
/* How long a refused client is read from (and its bytes dropped) after
 * the answer, so that closing with its bytes unread does not reset the
 * connection before it reads the answer. */
#define DRAIN_MS 1000
/* A connection's input: the longest head and a little after it. */
#define CONNECTION_MAX_INPUT (PADDOCK_NET_REQUEST_MAX_HEAD + 1024)
#define CONNECT_TIMEOUT_S 30
#define LISTENER_REST_MS 100
/* The pipe each way of a tunnel; larger pipes measured no faster. */
#define RELAY_PIPE_SIZE (256 * 1024)

typedef struct
{
  PaddockNetProxy *proxy;
  int              fd;
  guint16          host_port;  /* a forwarded port, or 0 for the proxy */
  GSource         *source;
  GSource         *rest;       /* while out of descriptors */
} Listener;

typedef enum
{
  STAGE_FIRST,
  STAGE_HTTP,
  STAGE_SOCKS_HELLO,
  STAGE_SOCKS_REQUEST,
  STAGE_DECIDING,
  STAGE_DRAINING,
} Stage;

typedef struct
{
  PaddockNetProxy   *proxy;
  int                fd;
  int                server_fd;     /* while connecting */
  guint16            client_port;
  guint16            listen_port;
  GSource           *watch;
  GSource           *timer;
  GByteArray        *input;
  Stage              stage;
  PaddockNetRequest  request;
  guint16            forward_port;  /* a forwarded port's connection */
  gint64             start;         /* monotonic */
  gint64             ask_id;
  gboolean           asking;
  gboolean           freeing;
  gboolean           exact;         /* allowed by --resolve or an exact user pattern */
  char              *rule;
  char              *by;
  GCancellable      *cancellable;
  GList             *addresses;     /* GInetAddress, to try in order */
  /* The asking program, where it was looked for. */
  gboolean           identified;
  int                pid;
  char              *exe;
  char             **argv;
  char              *cwd;
} Connection;

typedef struct
{
  PaddockNetProxy *proxy;
  int              client_fd;
  int              server_fd;
  GBytes          *to_server;  /* sent before relaying: a plain request's head, early bytes */
  GBytes          *to_client;  /* a CONNECT's or SOCKS's reply */
  char            *host;
  guint16          port;
  char            *address;
  gint64           id;
  gint64           start;
  gint64           bytes_in;
  gint64           bytes_out;
  char            *reason;     /* why it ended early, or NULL */
  int              pid;        /* the program that asked, or -1 */
  char            *exe;
} Tunnel;

struct _PaddockNetProxy
{
  GMainContext        *context;
  char                *project;
  PaddockNetRules     *rules;
  PaddockAudit        *audit;
  PaddockAsks         *asks;
  pid_t                agent;
  PaddockNetProxyFunc  func;
  gpointer             func_data;
  guint                head_timeout;
  GPtrArray           *listeners;
  GHashTable          *connections;
  GPtrArray           *tunnels;
  GThreadPool         *relays;     /* a thread a tunnel, reused */
  GAsyncQueue         *ended;
  int                  stop_fd;
  int                  ended_fd;
  GSource             *ended_source;
  gboolean             told_out_of_descriptors;
  int                  handover_fd;
  GSource             *handover_source;
  GResolver           *resolver;
};

static void connection_free (Connection *conn);

static GSource *
watch_fd (PaddockNetProxy   *self,
          int                fd,
          GIOCondition       condition,
          GUnixFDSourceFunc  func,
          gpointer           data)
{
  GSource *source = g_unix_fd_source_new (fd, condition);

  g_source_set_callback (source, (GSourceFunc) (void (*) (void)) func, data, NULL);
  g_source_attach (source, self->context);
  return source;
}

static GSource *
add_timer (PaddockNetProxy *self,
           guint            milliseconds,
           GSourceFunc      func,
           gpointer         data)
{
  GSource *source = g_timeout_source_new (milliseconds);

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, self->context);
  return source;
}

static void
source_clear (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

/* The program holding the client's end of @conn: its socket's inode
 * from the agent's (or this process's) network namespace's table, then
 * the process with that socket among its descriptors. Only asks and
 * refusals look: the table holds every socket of the namespace, those
 * in TIME_WAIT too, and with the thousands a busy agent leaves there
 * reading it took 29 ms a connection (bench-net-proxy, with the bench
 * as the agent). A sock_diag socket made in the agent's namespace and
 * handed over with the listener would find one socket at once. */
static guint64
find_socket_inode (PaddockNetProxy *self,
                   guint16          local_port,
                   guint16          remote_port)
{
  const char *tables[] = { "tcp", "tcp6" };

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      g_autofree char *path = self->agent > 0 ? g_strdup_printf ("/proc/%d/net/%s", (int) self->agent, tables[t])
                                              : g_strdup_printf ("/proc/self/net/%s", tables[t]);
      g_autofree char *text = NULL;
      g_auto(GStrv) lines = NULL;

      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 1; lines[i] != NULL; i++)
        {
          unsigned int local = 0, remote = 0;
          guint64 inode = 0;

          if (sscanf (lines[i], " %*u: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%x %*x %*s %*s %*s %*u %*u %" G_GUINT64_FORMAT,
                      &local, &remote, &inode) == 3 &&
              local == local_port && remote == remote_port && inode != 0)
            return inode;
        }
    }
  return 0;
}

/* Whether process @pid has the socket @target ("socket:[INODE]") open. */
static gboolean
holds_socket (int         pid,
              const char *target)
{
  g_autofree char *fds_path = g_strdup_printf ("/proc/%d/fd", pid);
  DIR *fds = opendir (fds_path);
  struct dirent *entry;
  gsize length = strlen (target);
  gboolean found = FALSE;

  if (fds == NULL)
    return FALSE;
  while (!found && (entry = readdir (fds)) != NULL)
    {
      char link[64];
      ssize_t n;

      if (entry->d_name[0] == '.')
        continue;
      n = readlinkat (dirfd (fds), entry->d_name, link, sizeof link - 1);
      found = n > 0 && (gsize) n == length && memcmp (link, target, n) == 0;
    }
  closedir (fds);
  return found;
}

/* The agent's processes, the agent first, each after its parent, at
 * most @limit of them. */
static GArray *
agent_tree (pid_t agent,
            guint limit)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (int));
  int first = agent;

  g_array_append_val (pids, first);
  for (guint i = 0; i < pids->len && pids->len < limit; i++)
    {
      int pid = g_array_index (pids, int, i);
      g_autofree char *tasks_path = g_strdup_printf ("/proc/%d/task", pid);
      DIR *tasks = opendir (tasks_path);
      struct dirent *entry;

      if (tasks == NULL)
        continue;
      while ((entry = readdir (tasks)) != NULL && pids->len < limit)
        {
          g_autofree char *children_path = NULL;
          g_autofree char *children = NULL;
          g_auto(GStrv) words = NULL;

          if (entry->d_name[0] == '.')
            continue;
          children_path = g_strdup_printf ("/proc/%d/task/%s/children", pid, entry->d_name);
          if (!g_file_get_contents (children_path, &children, NULL, NULL))
            continue;
          words = g_strsplit (g_strstrip (children), " ", -1);
          for (guint j = 0; words[j] != NULL && pids->len < limit; j++)
            {
              int child = atoi (words[j]);

              if (child > 0)
                g_array_append_val (pids, child);
            }
        }
      closedir (tasks);
    }
  return pids;
}

/* The process holding the socket @inode: looked for in the agent's tree
 * where there is an agent, else among all processes but this one. */
static int
find_socket_holder (PaddockNetProxy *self,
                    guint64          inode)
{
  g_autofree char *target = g_strdup_printf ("socket:[%" G_GUINT64_FORMAT "]", inode);
  DIR *proc;
  struct dirent *entry;
  int found = -1;

  if (self->agent > 0)
    {
      g_autoptr(GArray) pids = agent_tree (self->agent, 4096);

      for (guint i = 0; i < pids->len; i++)
        if (holds_socket (g_array_index (pids, int, i), target))
          return g_array_index (pids, int, i);
      return -1;
    }
  proc = opendir ("/proc");
  if (proc == NULL)
    return -1;
  while (found < 0 && (entry = readdir (proc)) != NULL)
    {
      int pid = atoi (entry->d_name);

      if (pid > 0 && pid != getpid () && holds_socket (pid, target))
        found = pid;
    }
  closedir (proc);
  return found;
}

static void
identify (Connection *conn)
{
  guint64 inode;
  g_autofree char *exe_link = NULL;
  g_autofree char *cwd_link = NULL;
  g_autofree char *cmdline_path = NULL;
  g_autofree char *cmdline = NULL;
  gsize length = 0;

  if (conn->identified)
    return;
  conn->identified = TRUE;
  conn->pid = -1;
  inode = find_socket_inode (conn->proxy, conn->client_port, conn->listen_port);
  if (inode == 0 || (conn->pid = find_socket_holder (conn->proxy, inode)) < 0)
    return;
  exe_link = g_strdup_printf ("/proc/%d/exe", conn->pid);
  cwd_link = g_strdup_printf ("/proc/%d/cwd", conn->pid);
  cmdline_path = g_strdup_printf ("/proc/%d/cmdline", conn->pid);
  conn->exe = g_file_read_link (exe_link, NULL);
  conn->cwd = g_file_read_link (cwd_link, NULL);
  if (g_file_get_contents (cmdline_path, &cmdline, &length, NULL) && length > 0)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();

      for (gsize at = 0; at < length && argv->len < 64; at += strlen (cmdline + at) + 1)
        g_ptr_array_add (argv, g_strndup (cmdline + at, length - at));
      g_ptr_array_add (argv, NULL);
      conn->argv = (char **) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
    }
}

/* One net message and its audit record. */
static void
record (PaddockNetProxy *self,
        PaddockMessage  *message)
{
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(GError) error = NULL;

  message->time = g_get_real_time ();
  if (message->kind != NULL)
    json_object_set_string_member (fields, "kind", message->kind);
  json_object_set_string_member (fields, "host", message->host);
  json_object_set_int_member (fields, "port", message->port);
  if (message->decision != PADDOCK_DECISION_NONE)
    json_object_set_string_member (fields, "decision", paddock_decision_to_string (message->decision));
  if (message->by != NULL)
    json_object_set_string_member (fields, "by", message->by);
  json_object_set_int_member (fields, "pid", message->pid);
  json_object_set_string_member (fields, "exe", message->exe != NULL ? message->exe : "");
  if (message->rule != NULL)
    json_object_set_string_member (fields, "rule", message->rule);
  if (message->id >= 0)
    json_object_set_int_member (fields, "id", message->id);
  if (message->address != NULL)
    json_object_set_string_member (fields, "address", message->address);
  if (message->bytes_in >= 0)
    json_object_set_int_member (fields, "bytes_in", message->bytes_in);
  if (message->bytes_out >= 0)
    json_object_set_int_member (fields, "bytes_out", message->bytes_out);
  if (message->duration >= 0)
    json_object_set_int_member (fields, "duration", message->duration);
  if (message->reason != NULL)
    json_object_set_string_member (fields, "reason", message->reason);
  if (self->audit != NULL && !paddock_audit_append (self->audit, PADDOCK_AUDIT_NET, fields, NULL, &error))
    paddock_audit_print_error (error);
  if (self->func != NULL)
    self->func (message, self->func_data);
}

static void
record_decision (Connection      *conn,
                 PaddockDecision  decision,
                 const char      *reason)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_NET);

  message->host = g_strdup (conn->request.host);
  message->port = conn->request.port;
  message->decision = decision;
  message->by = g_strdup (conn->by);
  message->rule = g_strdup (conn->rule);
  message->pid = conn->identified ? conn->pid : -1;
  message->exe = g_strdup (conn->identified && conn->exe != NULL ? conn->exe : "");
  message->id = conn->ask_id;
  message->reason = g_strdup (reason);
  record (conn->proxy, message);
}

static void
record_end (PaddockNetProxy *self,
            const Tunnel    *tunnel,
            int              pid,
            const char      *exe)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_NET);

  message->kind = g_strdup ("end");
  message->host = g_strdup (tunnel->host);
  message->port = tunnel->port;
  message->pid = pid;
  message->exe = g_strdup (exe != NULL ? exe : "");
  message->id = tunnel->id;
  message->address = g_strdup (tunnel->address);
  message->bytes_in = tunnel->bytes_in;
  message->bytes_out = tunnel->bytes_out;
  message->duration = g_get_monotonic_time () - tunnel->start;
  message->reason = g_strdup (tunnel->reason);
  record (self, message);
}

/* Writes what it can of a short answer on a fresh socket; an answer the
 * socket cannot take at once is cut, which only a client that does not
 * read would see. */
static void
write_some (int         fd,
            const void *data,
            gsize       length)
{
  ssize_t n;

  do
    n = send (fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
}

static gboolean on_drain_readable (int fd, GIOCondition condition, gpointer data);
static gboolean on_drain_done (gpointer data);

/* Answers and ends @conn: its write side shut, what it still sends read
 * and dropped for a moment, then closed. */
static void
connection_refuse (Connection *conn,
                   int         http_status,
                   int         socks_reply,
                   const char *why)
{
  PaddockNetProxy *self = conn->proxy;

  if (conn->request.protocol == PADDOCK_NET_PROTOCOL_SOCKS5 || conn->stage == STAGE_SOCKS_REQUEST ||
      conn->stage == STAGE_SOCKS_HELLO)
    {
      guint8 reply[10] = { 5, socks_reply, 0, 1 };

      if (conn->stage == STAGE_SOCKS_HELLO)
        write_some (conn->fd, (guint8[]) { 5, 0xff }, 2);
      else
        write_some (conn->fd, reply, sizeof reply);
    }
  else if (conn->forward_port == 0)
    {
      static const struct { int status; const char *text; } reasons[] = {
        { 400, "Bad Request" }, { 403, "Forbidden" }, { 408, "Request Timeout" },
        { 431, "Request Header Fields Too Large" }, { 502, "Bad Gateway" },
      };
      const char *text = "Error";
      g_autofree char *answer = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
        if (reasons[i].status == http_status)
          text = reasons[i].text;
      answer = g_strdup_printf ("HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                "Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
                                http_status, text, strlen (why) + 1, why);
      write_some (conn->fd, answer, strlen (answer));
    }
  shutdown (conn->fd, SHUT_WR);

  conn->stage = STAGE_DRAINING;
  source_clear (&conn->watch);
  source_clear (&conn->timer);
  conn->watch = watch_fd (self, conn->fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_drain_readable, conn);
  conn->timer = add_timer (self, DRAIN_MS, on_drain_done, conn);
}

static gboolean
on_drain_readable (int          fd,
                   GIOCondition condition,
                   gpointer     data)
{
  Connection *conn = data;
  char buffer[16384];
  ssize_t n = recv (fd, buffer, sizeof buffer, MSG_DONTWAIT);

  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    {
      g_clear_pointer (&conn->watch, g_source_unref);
      connection_free (conn);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_drain_done (gpointer data)
{
  Connection *conn = data;

  g_clear_pointer (&conn->timer, g_source_unref);
  connection_free (conn);
  return G_SOURCE_REMOVE;
}

static void
connection_free (Connection *conn)
{
  PaddockNetProxy *self = conn->proxy;

  conn->freeing = TRUE;
  if (conn->asking && self->asks != NULL)
    {
      conn->asking = FALSE;
      paddock_asks_withdraw (self->asks, conn->ask_id, "gone");
    }
  g_hash_table_remove (self->connections, conn);
  source_clear (&conn->watch);
  source_clear (&conn->timer);
  if (conn->cancellable != NULL)
    g_cancellable_cancel (conn->cancellable);
  g_clear_object (&conn->cancellable);
  if (conn->fd >= 0)
    close (conn->fd);
  if (conn->server_fd >= 0)
    close (conn->server_fd);
  if (conn->input != NULL)
    g_byte_array_unref (conn->input);
  paddock_net_request_clear (&conn->request);
  g_list_free_full (conn->addresses, g_object_unref);
  g_free (conn->rule);
  g_free (conn->by);
  g_free (conn->exe);
  g_strfreev (conn->argv);
  g_free (conn->cwd);
  g_free (conn);
}

/* Relaying, on the tunnel's own thread. */

static gboolean
write_all_polled (int           fd,
                  GBytes       *bytes,
                  int           stop_fd,
                  gint64       *count)
{
  gsize length = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &length) : NULL;
  gsize done = 0;

  while (done < length)
    {
      ssize_t n = send (fd, data + done, length - done, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n > 0)
        {
          done += n;
          if (count != NULL)
            *count += n;
        }
      else if (n < 0 && (errno == EAGAIN || errno == EINTR))
        {
          struct pollfd fds[2] = { { fd, POLLOUT, 0 }, { stop_fd, POLLIN, 0 } };

          if (poll (fds, 2, -1) < 0 && errno != EINTR)
            return FALSE;
          if (fds[1].revents != 0)
            return FALSE;
        }
      else
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  int      from;
  int      to;
  int      pipe[2];
  gsize    in_pipe;
  gboolean eof;     /* nothing more comes from @from */
  gboolean done;    /* and all of it went to @to, whose write side is shut */
  gint64  *count;
} Direction;

/* Moves what it can one way; FALSE on an error that ends the tunnel. */
static gboolean
direction_step (Direction *d)
{
  while (!d->done)
    {
      ssize_t n;

      if (d->in_pipe > 0)
        {
          n = splice (d->pipe[0], NULL, d->to, NULL, d->in_pipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
          if (n < 0)
            return errno == EAGAIN || errno == EINTR;
          d->in_pipe -= n;
          *d->count += n;
          continue;
        }
      if (d->eof)
        {
          shutdown (d->to, SHUT_WR);
          d->done = TRUE;
          break;
        }
      n = splice (d->from, NULL, d->pipe[1], NULL, RELAY_PIPE_SIZE, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      if (n == 0)
        d->eof = TRUE;
      d->in_pipe += n;
    }
  return TRUE;
}

static void
tunnel_relay (gpointer data,
              gpointer user_data)
{
  Tunnel *tunnel = data;
  PaddockNetProxy *self = tunnel->proxy;
  Direction ways[2] = {
    { tunnel->client_fd, tunnel->server_fd, { -1, -1 }, 0, FALSE, FALSE, &tunnel->bytes_out },
    { tunnel->server_fd, tunnel->client_fd, { -1, -1 }, 0, FALSE, FALSE, &tunnel->bytes_in },
  };
  gint64 prelude_out = 0;

  if (!write_all_polled (tunnel->client_fd, tunnel->to_client, self->stop_fd, NULL) ||
      !write_all_polled (tunnel->server_fd, tunnel->to_server, self->stop_fd, &prelude_out))
    {
      tunnel->reason = g_strdup ("the connection closed before it was relayed");
      goto out;
    }
  for (guint i = 0; i < 2; i++)
    {
      if (pipe2 (ways[i].pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        {
          tunnel->reason = g_strdup_printf ("cannot relay: %s", g_strerror (errno));
          goto out;
        }
      fcntl (ways[i].pipe[1], F_SETPIPE_SZ, RELAY_PIPE_SIZE);
    }

  while (!ways[0].done || !ways[1].done)
    {
      struct pollfd fds[5];
      guint n = 0;

      if (!direction_step (&ways[0]) || !direction_step (&ways[1]))
        break;
      if (ways[0].done && ways[1].done)
        break;
      fds[n++] = (struct pollfd) { self->stop_fd, POLLIN, 0 };
      for (guint i = 0; i < 2; i++)
        {
          if (ways[i].done)
            continue;
          if (ways[i].in_pipe > 0)
            fds[n++] = (struct pollfd) { ways[i].to, POLLOUT, 0 };
          else if (!ways[i].eof)
            fds[n++] = (struct pollfd) { ways[i].from, POLLIN | POLLRDHUP, 0 };
        }
      if (poll (fds, n, -1) < 0 && errno != EINTR)
        break;
      if (fds[0].revents != 0)
        {
          tunnel->reason = g_strdup ("the session ended");
          break;
        }
      for (guint i = 1; i < n; i++)
        if ((fds[i].revents & (POLLERR | POLLNVAL)) != 0 ||
            ((fds[i].revents & POLLHUP) != 0 && (fds[i].revents & POLLIN) == 0 && fds[i].events == POLLOUT))
          goto out;
    }

out:
  tunnel->bytes_out += prelude_out;
  for (guint i = 0; i < 2; i++)
    for (guint j = 0; j < 2; j++)
      if (ways[i].pipe[j] >= 0)
        close (ways[i].pipe[j]);
  close (tunnel->client_fd);
  close (tunnel->server_fd);
  tunnel->client_fd = tunnel->server_fd = -1;
  g_async_queue_push (self->ended, tunnel);
  eventfd_write (self->ended_fd, 1);
}

static void
tunnel_free (Tunnel *tunnel)
{
  g_clear_pointer (&tunnel->to_server, g_bytes_unref);
  g_clear_pointer (&tunnel->to_client, g_bytes_unref);
  g_free (tunnel->host);
  g_free (tunnel->address);
  g_free (tunnel->reason);
  g_free (tunnel->exe);
  g_free (tunnel);
}

static void
tunnel_finish (PaddockNetProxy *self,
               Tunnel          *tunnel)
{
  g_ptr_array_remove_fast (self->tunnels, tunnel);
  record_end (self, tunnel, tunnel->pid, tunnel->exe);
  tunnel_free (tunnel);
}

static gboolean
on_tunnels_ended (int          fd,
                  GIOCondition condition,
                  gpointer     data)
{
  PaddockNetProxy *self = data;
  eventfd_t value;
  Tunnel *tunnel;

  eventfd_read (fd, &value);
  while ((tunnel = g_async_queue_try_pop (self->ended)) != NULL)
    tunnel_finish (self, tunnel);
  return G_SOURCE_CONTINUE;
}

/* Connecting: a non-blocking connect(2) each address in turn, watched
 * on the main context. */

static void connect_next (Connection *conn);

static void
connection_relay (Connection *conn)
{
  PaddockNetProxy *self = conn->proxy;
  Tunnel *tunnel = g_new0 (Tunnel, 1);
  GByteArray *early = g_byte_array_new ();

  tunnel->proxy = self;
  tunnel->client_fd = g_steal_fd (&conn->fd);
  tunnel->server_fd = g_steal_fd (&conn->server_fd);
  /* The relay passes on what came as it came: holding a small segment
   * back for an acknowledgement (Nagle's algorithm) would only add the
   * peer's delayed ACK to an exchange such as a TLS handshake. */
  setsockopt (tunnel->client_fd, IPPROTO_TCP, TCP_NODELAY, &(int) { 1 }, sizeof (int));
  setsockopt (tunnel->server_fd, IPPROTO_TCP, TCP_NODELAY, &(int) { 1 }, sizeof (int));
  tunnel->host = g_strdup (conn->request.host);
  tunnel->port = conn->request.port;
  tunnel->address = g_inet_address_to_string (conn->addresses->data);
  tunnel->id = conn->ask_id;
  tunnel->start = conn->start;
  tunnel->pid = conn->identified ? conn->pid : -1;
  tunnel->exe = g_strdup (conn->exe);
  switch (conn->forward_port != 0 ? 0 : conn->request.protocol)
    {
    case PADDOCK_NET_PROTOCOL_CONNECT:
      tunnel->to_client = g_bytes_new_static ("HTTP/1.1 200 Connection established\r\n\r\n", 39);
      break;
    case PADDOCK_NET_PROTOCOL_SOCKS5:
      tunnel->to_client = g_bytes_new_static ("\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00", 10);
      break;
    default:
      break;
    }
  if (conn->request.head != NULL)
    g_byte_array_append (early, (const guint8 *) conn->request.head->str, conn->request.head->len);
  if (conn->input != NULL)
    g_byte_array_append (early, conn->input->data, conn->input->len);
  tunnel->to_server = g_byte_array_free_to_bytes (early);
  g_ptr_array_add (self->tunnels, tunnel);
  g_thread_pool_push (self->relays, tunnel, NULL);
  connection_free (conn);
}

/* The last address failed too. */
static void
connection_unreachable (Connection *conn,
                        int         error_number)
{
  g_autofree char *why = g_strdup_printf ("Paddock's network lock cannot reach %s: %s",
                                          conn->request.host, g_strerror (error_number));
  Tunnel failed = { .host = conn->request.host, .port = conn->request.port, .id = conn->ask_id,
                    .start = conn->start, .reason = why };

  record_end (conn->proxy, &failed, conn->pid, conn->exe);
  connection_refuse (conn, 502, error_number == ECONNREFUSED ? 5 : 4, why);
}

static void
connect_failed (Connection *conn,
                int         error_number)
{
  source_clear (&conn->watch);
  source_clear (&conn->timer);
  if (conn->server_fd >= 0)
    close (g_steal_fd (&conn->server_fd));
  if (conn->addresses->next == NULL)
    {
      connection_unreachable (conn, error_number);
      return;
    }
  g_object_unref (conn->addresses->data);
  conn->addresses = g_list_delete_link (conn->addresses, conn->addresses);
  connect_next (conn);
}

static gboolean
on_connect_ready (int          fd,
                  GIOCondition condition,
                  gpointer     data)
{
  Connection *conn = data;
  int error_number = 0;
  socklen_t length = sizeof error_number;

  g_clear_pointer (&conn->watch, g_source_unref);
  if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &error_number, &length) < 0)
    error_number = errno;
  if (error_number != 0)
    connect_failed (conn, error_number);
  else
    {
      source_clear (&conn->timer);
      connection_relay (conn);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
on_connect_timeout (gpointer data)
{
  Connection *conn = data;

  g_clear_pointer (&conn->timer, g_source_unref);
  connect_failed (conn, ETIMEDOUT);
  return G_SOURCE_REMOVE;
}

static void
connect_next (Connection *conn)
{
  PaddockNetProxy *self = conn->proxy;
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (conn->addresses->data, conn->request.port);
  struct sockaddr_storage native;

  if (!g_socket_address_to_native (address, &native, sizeof native, NULL))
    {
      connect_failed (conn, EAFNOSUPPORT);
      return;
    }
  conn->server_fd = socket (native.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (conn->server_fd < 0)
    {
      connect_failed (conn, errno);
      return;
    }
  if (connect (conn->server_fd, (struct sockaddr *) &native, g_socket_address_get_native_size (address)) < 0 &&
      errno != EINPROGRESS)
    {
      connect_failed (conn, errno);
      return;
    }
  conn->watch = watch_fd (self, conn->server_fd, G_IO_OUT, on_connect_ready, conn);
  conn->timer = add_timer (self, CONNECT_TIMEOUT_S * 1000, on_connect_timeout, conn);
}

/* Resolved: every address is checked, one private address refuses the
 * name (unless the user allowed it exactly), so a name cannot mix a
 * public address with a private one to pass. */
static void
connection_reach (Connection *conn,
                  GList      *addresses)
{
  for (GList *l = addresses; l != NULL; l = l->next)
    if (!conn->exact && paddock_net_address_is_private (g_inet_address_to_bytes (l->data),
                                                        g_inet_address_get_native_size (l->data)))
      {
        g_autofree char *text = g_inet_address_to_string (l->data);
        g_autofree char *why = g_strdup_printf ("Paddock's network lock refused %s: it resolves to %s, a private "
                                                "address, which only a name the user allowed exactly may reach",
                                                conn->request.host, text);

        g_free (conn->by);
        conn->by = g_strdup ("rule");
        g_free (conn->rule);
        conn->rule = g_strdup ("private-address");
        record_decision (conn, PADDOCK_DECISION_DENY, why);
        connection_refuse (conn, 403, 2, why);
        g_list_free_full (addresses, g_object_unref);
        return;
      }
  conn->addresses = addresses;
  record_decision (conn, PADDOCK_DECISION_ALLOW, NULL);
  connect_next (conn);
}

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(GError) error = NULL;
  GList *addresses = g_resolver_lookup_by_name_finish (G_RESOLVER (source), result, &error);
  Connection *conn = data;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (addresses == NULL)
    {
      g_autofree char *why = g_strdup_printf ("Paddock's network lock cannot resolve %s: %s",
                                              conn->request.host, error->message);

      g_free (conn->by);
      conn->by = g_strdup ("resolve");
      record_decision (conn, PADDOCK_DECISION_DENY, why);
      connection_refuse (conn, 502, 4, why);
      return;
    }
  connection_reach (conn, addresses);
}

static void
connection_resolve (Connection *conn)
{
  PaddockNetProxy *self = conn->proxy;
  GInetAddress *address = paddock_net_rules_lookup_address (self->rules, conn->request.host);
  GInetAddress *literal = NULL;

  if (address == NULL)
    address = literal = g_inet_address_new_from_string (conn->request.host);
  if (address != NULL)
    {
      connection_reach (conn, g_list_prepend (NULL, g_object_ref (address)));
      g_clear_object (&literal);
      return;
    }
  g_resolver_lookup_by_name_async (self->resolver, conn->request.host, conn->cancellable, on_resolved, conn);
}

/* Deciding. */

static void
connection_deny (Connection *conn,
                 const char *why)
{
  identify (conn);
  record_decision (conn, PADDOCK_DECISION_DENY, why);
  connection_refuse (conn, 403, 2, why);
}

static void
on_answered (gint64           id,
             PaddockDecision  decision,
             PaddockRemember  remember,
             const char      *by,
             int              client_pid,
             gpointer         data)
{
  Connection *conn = data;
  PaddockNetProxy *self = conn->proxy;

  if (conn->freeing)
    return;
  conn->asking = FALSE;
  conn->ask_id = id;
  g_free (conn->by);
  conn->by = g_strdup (by);
  if (decision != PADDOCK_DECISION_ALLOW)
    {
      g_autofree char *why = g_strdup_printf ("Paddock's network lock refused %s: %s", conn->request.host,
                                              g_strcmp0 (by, "timeout") == 0 ? "nobody allowed it in time"
                                              : g_strcmp0 (by, "no-client") == 0
                                              ? "it is not on the project's list, and nobody was there to ask"
                                              : g_strcmp0 (by, "user") == 0 ? "the user refused it"
                                              : "it was not allowed");

      connection_deny (conn, why);
      return;
    }
  /* The user allowed this very name, as an exact pattern of theirs
   * would (and as "Allow Host in This Project" writes one). */
  conn->exact = TRUE;
  if (remember == PADDOCK_REMEMBER_PROJECT)
    {
      g_autoptr(GError) error = NULL;

      if (self->project == NULL ||
          !paddock_project_config_add_host_allow (self->project, conn->request.host, &error))
        {
          if (error != NULL)
            g_warning ("cannot remember %s for the project: %s", conn->request.host, error->message);
          remember = PADDOCK_REMEMBER_SESSION;
        }
    }
  if (remember != PADDOCK_REMEMBER_ONCE)
    paddock_net_rules_remember (self->rules, conn->request.host);
  if (self->asks != NULL)
    paddock_asks_tell_decided (self->asks, id, remember, NULL);
  connection_resolve (conn);
}

static void
connection_decide (Connection *conn)
{
  PaddockNetProxy *self = conn->proxy;
  const char *host = conn->request.host;
  guint16 port = conn->request.port;
  PaddockDecision ruling;

  conn->stage = STAGE_DECIDING;
  source_clear (&conn->watch);
  source_clear (&conn->timer);
  conn->cancellable = g_cancellable_new ();
  conn->ask_id = -1;

  ruling = paddock_net_rules_decide (self->rules, host, port, &conn->rule, &conn->exact);
  if (ruling == PADDOCK_DECISION_DENY)
    {
      g_autofree char *why = g_strdup_printf ("Paddock's network lock denies %s (%s)", host, conn->rule);

      conn->by = g_strdup ("rule");
      connection_deny (conn, why);
      return;
    }
  if (ruling == PADDOCK_DECISION_ALLOW)
    conn->by = g_strdup (conn->rule != NULL ? "rule" : "remembered");
  else if (self->asks == NULL)
    {
      g_autofree char *why = g_strdup_printf ("Paddock's network lock denies %s: it is not on the allow list", host);

      conn->by = g_strdup ("default");
      connection_deny (conn, why);
      return;
    }
  else
    {
      PaddockMessage *ask = paddock_message_new (PADDOCK_MESSAGE_ASK);
      gint64 id;

      identify (conn);
      ask->kind = g_strdup ("host");
      ask->host = g_strdup (host);
      ask->port = port;
      ask->pid = conn->pid;
      ask->exe = g_strdup (conn->exe != NULL ? conn->exe : "");
      ask->argv = g_strdupv (conn->argv);
      ask->cwd = g_strdup (conn->cwd);
      conn->asking = TRUE;
      /* Answered at once (--on-ask), the callback has set the id and
       * gone on; the connection outlives it, as nothing it starts ends
       * the connection before the main context turns. */
      id = paddock_asks_add (self->asks, ask, on_answered, conn, NULL);
      if (conn->asking)
        conn->ask_id = id;
      return;
    }
  connection_resolve (conn);
}

/* Reading the request. */

static gboolean
on_head_timeout (gpointer data)
{
  Connection *conn = data;

  g_clear_pointer (&conn->timer, g_source_unref);
  connection_refuse (conn, 408, 1, "Paddock's network lock waited too long for the request");
  return G_SOURCE_REMOVE;
}

static void
input_consume (Connection *conn,
               gsize       length)
{
  g_byte_array_remove_range (conn->input, 0, length);
}

static gboolean
on_client_readable (int          fd,
                    GIOCondition condition,
                    gpointer     data)
{
  Connection *conn = data;
  guint8 buffer[4096];
  gsize room = CONNECTION_MAX_INPUT - conn->input->len;
  ssize_t n = recv (fd, buffer, MIN (sizeof buffer, room), MSG_DONTWAIT);

  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      g_clear_pointer (&conn->watch, g_source_unref);
      connection_free (conn);
      return G_SOURCE_REMOVE;
    }
  g_byte_array_append (conn->input, buffer, n);

  for (;;)
    {
      PaddockNetRequestResult result;
      gsize consumed = 0;

      if (conn->stage == STAGE_FIRST)
        conn->stage = conn->input->data[0] == 5 ? STAGE_SOCKS_HELLO : STAGE_HTTP;
      if (conn->stage == STAGE_SOCKS_HELLO)
        {
          result = paddock_net_request_parse_socks_hello (conn->input->data, conn->input->len, &consumed);
          if (result == PADDOCK_NET_REQUEST_DONE)
            {
              write_some (fd, (guint8[]) { 5, 0 }, 2);
              input_consume (conn, consumed);
              conn->stage = STAGE_SOCKS_REQUEST;
              continue;
            }
        }
      else if (conn->stage == STAGE_SOCKS_REQUEST)
        result = paddock_net_request_parse_socks (conn->input->data, conn->input->len, &conn->request);
      else
        result = paddock_net_request_parse_http ((const char *) conn->input->data, conn->input->len, &conn->request);

      if (result == PADDOCK_NET_REQUEST_MORE)
        return G_SOURCE_CONTINUE;
      g_clear_pointer (&conn->watch, g_source_unref);
      if (result == PADDOCK_NET_REQUEST_REFUSED)
        {
          int status = conn->request.status;

          connection_refuse (conn, status, status, "Paddock's network lock cannot read this request");
          return G_SOURCE_REMOVE;
        }
      input_consume (conn, conn->request.consumed);
      connection_decide (conn);
      return G_SOURCE_REMOVE;
    }
}

static Connection *
connection_new (PaddockNetProxy *self,
                int              fd,
                guint16          forward_port)
{
  Connection *conn = g_new0 (Connection, 1);
  struct sockaddr_storage address;
  socklen_t length = sizeof address;

  conn->proxy = self;
  conn->fd = fd;
  conn->server_fd = -1;
  conn->pid = -1;
  conn->ask_id = -1;
  conn->start = g_get_monotonic_time ();
  conn->forward_port = forward_port;
  if (getpeername (fd, (struct sockaddr *) &address, &length) == 0)
    conn->client_port = ntohs (address.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &address)->sin6_port
                                                             : ((struct sockaddr_in *) &address)->sin_port);
  length = sizeof address;
  if (getsockname (fd, (struct sockaddr *) &address, &length) == 0)
    conn->listen_port = ntohs (address.ss_family == AF_INET6 ? ((struct sockaddr_in6 *) &address)->sin6_port
                                                             : ((struct sockaddr_in *) &address)->sin_port);
  g_hash_table_add (self->connections, conn);
  return conn;
}

static gboolean on_listener_readable (int fd, GIOCondition condition, gpointer data);

static gboolean
on_listener_rested (gpointer data)
{
  Listener *listener = data;

  g_clear_pointer (&listener->rest, g_source_unref);
  listener->source = watch_fd (listener->proxy, listener->fd, G_IO_IN, on_listener_readable, listener);
  return G_SOURCE_REMOVE;
}

static gboolean
on_listener_readable (int          fd,
                      GIOCondition condition,
                      gpointer     data)
{
  Listener *listener = data;
  PaddockNetProxy *self = listener->proxy;

  /* A bounded batch each time, so a flood of clients cannot hold the
   * main context. */
  for (guint i = 0; i < 64; i++)
    {
      int client = accept4 (fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
      Connection *conn;

      if (client < 0)
        {
          /* Out of descriptors, the listener would wake the main context
           * at once again: it rests while connections end. */
          if (errno == EMFILE || errno == ENFILE)
            {
              if (!self->told_out_of_descriptors)
                g_warning ("the network lock's proxy ran out of descriptors: %s", g_strerror (errno));
              self->told_out_of_descriptors = TRUE;
              g_clear_pointer (&listener->source, g_source_unref);
              listener->rest = add_timer (self, LISTENER_REST_MS, on_listener_rested, listener);
              return G_SOURCE_REMOVE;
            }
          break;
        }
      conn = connection_new (self, client, listener->host_port);
      if (listener->host_port != 0)
        {
          conn->stage = STAGE_DECIDING;
          conn->request.protocol = PADDOCK_NET_PROTOCOL_CONNECT;
          conn->request.host = g_strdup ("127.0.0.1");
          conn->request.port = listener->host_port;
          conn->by = g_strdup ("rule");
          conn->rule = g_strdup_printf ("port %u", listener->host_port);
          conn->exact = TRUE;
          conn->cancellable = g_cancellable_new ();
          connection_resolve (conn);
          continue;
        }
      conn->input = g_byte_array_new ();
      conn->watch = watch_fd (self, client, G_IO_IN | G_IO_HUP | G_IO_ERR, on_client_readable, conn);
      conn->timer = add_timer (self, self->head_timeout, on_head_timeout, conn);
    }
  return G_SOURCE_CONTINUE;
}

static void
listener_free (Listener *listener)
{
  source_clear (&listener->source);
  source_clear (&listener->rest);
  close (listener->fd);
  g_free (listener);
}

static void
add_listener (PaddockNetProxy *self,
              int              fd,
              guint16          host_port)
{
  Listener *listener = g_new0 (Listener, 1);

  listener->proxy = self;
  listener->fd = fd;
  listener->host_port = host_port;
  g_unix_set_fd_nonblocking (fd, TRUE, NULL);
  listener->source = watch_fd (self, fd, G_IO_IN, on_listener_readable, listener);
  g_ptr_array_add (self->listeners, listener);
}

void
paddock_net_proxy_add_listener (PaddockNetProxy *self,
                                int              fd)
{
  g_return_if_fail (self != NULL && fd >= 0);
  add_listener (self, fd, 0);
}

void
paddock_net_proxy_add_forward (PaddockNetProxy *self,
                               int              fd,
                               guint16          host_port)
{
  g_return_if_fail (self != NULL && fd >= 0 && host_port != 0);
  add_listener (self, fd, host_port);
}

static gboolean
on_handover (int          fd,
             GIOCondition condition,
             gpointer     data)
{
  PaddockNetProxy *self = data;
  char what[32];
  int received = -1;
  ssize_t n = paddock_receive_fd (fd, what, sizeof what - 1, &received);
  guint64 port = 0;

  if (n <= 0)
    {
      if (n < 0 && errno == EAGAIN)
        return G_SOURCE_CONTINUE;
      g_clear_pointer (&self->handover_source, g_source_unref);
      close (g_steal_fd (&self->handover_fd));
      return G_SOURCE_REMOVE;
    }
  what[n] = '\0';
  if (received >= 0 && strcmp (what, "proxy") == 0)
    add_listener (self, received, 0);
  else if (received >= 0 && g_str_has_prefix (what, "port ") &&
           g_ascii_string_to_unsigned (what + 5, 10, 1, 65535, &port, NULL))
    add_listener (self, received, port);
  else
    {
      g_warning ("the network lock's hand-over sent what it should not: %s", what);
      if (received >= 0)
        close (received);
    }
  return G_SOURCE_CONTINUE;
}

void
paddock_net_proxy_take_handover (PaddockNetProxy *self,
                                 int              socket_fd)
{
  g_return_if_fail (self != NULL && socket_fd >= 0 && self->handover_fd < 0);
  self->handover_fd = socket_fd;
  g_unix_set_fd_nonblocking (socket_fd, TRUE, NULL);
  self->handover_source = watch_fd (self, socket_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_handover, self);
}

void
paddock_net_proxy_set_agent (PaddockNetProxy *self,
                             pid_t            agent_pid)
{
  g_return_if_fail (self != NULL);
  self->agent = agent_pid;
}

void
paddock_net_proxy_set_asks (PaddockNetProxy *self,
                            PaddockAsks     *asks)
{
  g_return_if_fail (self != NULL);
  self->asks = asks;
}

void
paddock_net_proxy_set_func (PaddockNetProxy     *self,
                            PaddockNetProxyFunc  func,
                            gpointer             user_data)
{
  g_return_if_fail (self != NULL);
  self->func = func;
  self->func_data = user_data;
}

void
paddock_net_proxy_set_head_timeout (PaddockNetProxy *self,
                                    guint            milliseconds)
{
  g_return_if_fail (self != NULL && milliseconds > 0);
  self->head_timeout = milliseconds;
}

PaddockNetProxy *
paddock_net_proxy_new (const PaddockNetProxyConfig  *config,
                       GError                      **error)
{
  g_autoptr(PaddockNetProxy) self = g_new0 (PaddockNetProxy, 1);

  g_return_val_if_fail (config != NULL, NULL);

  self->context = g_main_context_ref_thread_default ();
  self->project = g_strdup (config->project);
  self->audit = config->audit;
  self->head_timeout = DEFAULT_HEAD_TIMEOUT_MS;
  self->listeners = g_ptr_array_new_with_free_func ((GDestroyNotify) listener_free);
  self->connections = g_hash_table_new (NULL, NULL);
  self->tunnels = g_ptr_array_new ();
  self->ended = g_async_queue_new ();
  self->relays = g_thread_pool_new (tunnel_relay, self, -1, FALSE, NULL);
  self->handover_fd = -1;
  self->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->ended_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (self->stop_fd < 0 || self->ended_fd < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot start the network lock's proxy: %s", g_strerror (errno));
      return NULL;
    }
  self->ended_source = watch_fd (self, self->ended_fd, G_IO_IN, on_tunnels_ended, self);
  self->resolver = g_resolver_get_default ();

  self->rules = paddock_net_rules_new (config->allow_hosts, config->deny_hosts, config->resolve, config->presets,
                                      config->project, error);
  if (self->rules == NULL)
    return NULL;
  return g_steal_pointer (&self);
}

void
paddock_net_proxy_free (PaddockNetProxy *self)
{
  GList *connections;

  if (self == NULL)
    return;

  if (self->connections != NULL)
    {
      connections = g_hash_table_get_keys (self->connections);
      for (GList *l = connections; l != NULL; l = l->next)
        connection_free (l->data);
      g_list_free (connections);
    }
  /* Every relay sees the stop and ends its tunnel; the pool waits for them. */
  if (self->stop_fd >= 0)
    eventfd_write (self->stop_fd, 1);
  if (self->relays != NULL)
    g_thread_pool_free (g_steal_pointer (&self->relays), FALSE, TRUE);
  if (self->ended != NULL)
    {
      Tunnel *tunnel;

      while ((tunnel = g_async_queue_try_pop (self->ended)) != NULL)
        tunnel_finish (self, tunnel);
    }
  source_clear (&self->ended_source);
  source_clear (&self->handover_source);
  if (self->handover_fd >= 0)
    close (self->handover_fd);
  g_clear_pointer (&self->listeners, g_ptr_array_unref);
  g_clear_pointer (&self->connections, g_hash_table_unref);
  g_clear_pointer (&self->tunnels, g_ptr_array_unref);
  g_clear_pointer (&self->ended, g_async_queue_unref);
  if (self->stop_fd >= 0)
    close (self->stop_fd);
  if (self->ended_fd >= 0)
    close (self->ended_fd);
  g_clear_pointer (&self->rules, paddock_net_rules_free);
  g_clear_object (&self->resolver);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->project);
  g_free (self);
}
