/* paddock-control.c: the control server clients attach to, to watch and steer a session
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every connection is non-blocking and served from the main context. A
 * client's input goes through a line reader with a cap, so garbage, a half
 * line or a 10 MB line costs the supervisor a bounded buffer and the client
 * an error reply; a client that does not read its output is dropped once
 * the output queued for it passes a cap, and never blocks the session.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-control.h"
#include "paddock-escape.h"
#include "paddock-process-tree.h"
#include "paddock-source.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* How long a connection waits while the supervisor is out of descriptors. */
#define ACCEPT_RETRY_MS 200

/* Linux 6.5: a pidfd of the peer as it was at connect(). */
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

#define MAX_OUTPUT          (16 * 1024 * 1024)
#define BACKLOG_LINES       1000
#define BACKLOG_BYTES       (8 * 1024 * 1024)
#define MAX_LOGGED_ERRORS   10
#define READS_PER_DISPATCH  16

typedef struct
{
  PaddockControl    *control;
  int                fd;
  GSource           *in_source;
  GSource           *out_source;
  GByteArray        *output;
  gsize              sent;           /* the bytes of output already written */
  gsize              max_output;     /* unwritten bytes past which it has fallen behind */
  PaddockLineReader *reader;
  pid_t              pid;
  gboolean           inherited;      /* on --control-fd: whoever shows the session's terminal */
  gboolean           decider;
  guint              n_errors;
} Client;

struct _PaddockControl
{
  char               *session_id;
  char               *project;
  char              **command;          /* bounded as an exec's argv is: a hello always fits a client's line */
  gboolean            command_truncated;
  pid_t               agent_pid;
  pid_t               tree_root;
  char               *lock;
  char              **lock_features;
  char               *network;

  PaddockAudit       *audit;
  PaddockExecMonitor *monitor;
  PaddockAsks        *asks;

  GPtrArray          *clients;
  GPtrArray          *closed;        /* freed with the server: a callback may still hold one */
  int                 listen_fd;
  GSource            *listen_source; /* its fd, or a retry after running out of descriptors */
  int                 unchecked_fd;  /* accepted, with no descriptor left to check its peer with */
  char               *socket_path;
  gboolean            told_no_fds;

  GQueue              backlog;       /* PaddockMessage, oldest first */
  gsize               backlog_bytes;
  gboolean            paused;
  gboolean            ended;
  gboolean            told_no_client; /* the one-line hint on how to answer asks */
  gboolean            terminal_is_agents; /* stderr is a terminal, the agent's: said at the end */
  GPtrArray          *said_later;    /* char *: what waits for the session's end, each once */
  GArray             *said_times;    /* guint: how often each of said_later came */
};

static void client_close (Client *client);
static void client_free (Client *client);

char *
paddock_control_new_session_id (void)
{
  guint8 bytes[6];
  GString *id = g_string_sized_new (2 * sizeof bytes);

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) g_random_int_range (0, 256);
  for (guint i = 0; i < sizeof bytes; i++)
    g_string_append_printf (id, "%02x", bytes[i]);
  return g_string_free (id, FALSE);
}

/* @command cut to the bounds of a recorded exec's argv (its count and
 * bytes): escaped for JSON, a command of megabytes made a hello longer
 * than any client reads, and nobody could attach to answer its asks. */
static char **
bounded_command (const char * const *command,
                 gboolean           *truncated)
{
  GPtrArray *bounded = g_ptr_array_new ();
  gsize bytes = 0;

  *truncated = FALSE;
  for (guint i = 0; command != NULL && command[i] != NULL; i++)
    {
      gsize length = strlen (command[i]);

      if (i >= PADDOCK_EXEC_MAX_ARGS || bytes >= PADDOCK_EXEC_MAX_ARGV_BYTES)
        {
          *truncated = TRUE;
          break;
        }
      if (length > PADDOCK_EXEC_MAX_ARGV_BYTES - bytes)
        {
          length = PADDOCK_EXEC_MAX_ARGV_BYTES - bytes;
          *truncated = TRUE;
        }
      g_ptr_array_add (bounded, g_strndup (command[i], length));
      bytes += length;
    }
  g_ptr_array_add (bounded, NULL);
  return (char **) g_ptr_array_free (bounded, FALSE);
}

PaddockControl *
paddock_control_new (const PaddockControlSession *session,
                     PaddockAudit                *audit)
{
  PaddockControl *self;

  g_return_val_if_fail (session != NULL && session->session_id != NULL, NULL);

  self = g_new0 (PaddockControl, 1);
  self->session_id = g_strdup (session->session_id);
  self->project = g_strdup (session->project);
  self->command = bounded_command (session->command, &self->command_truncated);
  self->agent_pid = session->agent_pid;
  self->tree_root = session->tree_root;
  self->lock = g_strdup (session->lock != NULL ? session->lock : "off");
  self->lock_features = g_strdupv ((char **) session->lock_features);
  self->network = g_strdup (session->network != NULL ? session->network : "off");
  self->audit = audit;
  self->clients = g_ptr_array_new ();
  self->closed = g_ptr_array_new_with_free_func ((GDestroyNotify) client_free);
  self->listen_fd = -1;
  self->unchecked_fd = -1;
  g_queue_init (&self->backlog);
  self->terminal_is_agents = isatty (STDERR_FILENO);
  self->said_later = g_ptr_array_new_with_free_func (g_free);
  self->said_times = g_array_new (FALSE, TRUE, sizeof (guint));
  return self;
}

/* Says @text on the session's terminal, paddock-run's stderr. Where that
 * is a terminal, the agent draws on it too (it inherited it): a line
 * written there now would land in the middle of a full-screen agent's
 * display, which redraws only what it knows of. There it waits for the
 * session's end, when the agent has given the terminal back, each text
 * once, with how often it came; a client hears it at once. */
static void
say_on_terminal (PaddockControl *self,
                 const char     *text)
{
  guint once = 1;

  if (self == NULL || !self->terminal_is_agents || self->ended)
    {
      paddock_printerr ("%s", text);
      return;
    }
  for (guint i = 0; i < self->said_later->len; i++)
    if (strcmp (g_ptr_array_index (self->said_later, i), text) == 0)
      {
        g_array_index (self->said_times, guint, i)++;
        return;
      }
  g_ptr_array_add (self->said_later, g_strdup (text));
  g_array_append_val (self->said_times, once);
}

static void
say_what_waited (PaddockControl *self)
{
  for (guint i = 0; i < self->said_later->len; i++)
    {
      guint times = g_array_index (self->said_times, guint, i);

      if (times > 1)
        paddock_printerr ("%s (%u times)", (char *) g_ptr_array_index (self->said_later, i), times);
      else
        paddock_printerr ("%s", (char *) g_ptr_array_index (self->said_later, i));
    }
  g_ptr_array_set_size (self->said_later, 0);
  g_array_set_size (self->said_times, 0);
}

void
paddock_control_set_monitor (PaddockControl     *self,
                             PaddockExecMonitor *monitor)
{
  self->monitor = monitor;
}

static void update_deciders (PaddockControl *self);

void
paddock_control_set_asks (PaddockControl *self,
                          PaddockAsks    *asks)
{
  self->asks = asks;
  update_deciders (self);
}

static gboolean
has_decider (PaddockControl *self)
{
  for (guint i = 0; i < self->clients->len; i++)
    if (((Client *) g_ptr_array_index (self->clients, i))->decider)
      return TRUE;
  return FALSE;
}

/* Tells the registry how many clients can answer: with none, asks go
 * as --on-ask says. */
static void
update_deciders (PaddockControl *self)
{
  guint n_deciders = 0;

  for (guint i = 0; i < self->clients->len; i++)
    if (((Client *) g_ptr_array_index (self->clients, i))->decider)
      n_deciders++;
  if (self->asks != NULL)
    paddock_asks_set_deciders (self->asks, n_deciders);
}

static void
audit_record (PaddockControl *self,
              const char     *type,
              JsonObject     *fields)
{
  g_autoptr(GError) error = NULL;

  if (self->audit != NULL && !paddock_audit_append (self->audit, type, fields, NULL, &error))
    paddock_audit_print_error (error);
}

static gboolean
on_client_writable (int          fd,
                    GIOCondition condition,
                    gpointer     user_data);

/* Writes what it can now; the rest waits for the socket to drain. */
static void
client_flush (Client *client)
{
  while (client->sent < client->output->len)
    {
      ssize_t n = send (client->fd, client->output->data + client->sent, client->output->len - client->sent,
                        MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
          client_close (client);
          return;
        }
      client->sent += n;
    }
  /* Moved down once half is written: each byte moves once at most, where
   * taking off each write's share would move a long queue again each time. */
  if (client->sent == client->output->len || client->sent > client->output->len / 2)
    {
      g_byte_array_remove_range (client->output, 0, client->sent);
      client->sent = 0;
    }

  if (client->output->len > 0 && client->out_source == NULL)
    {
      client->out_source = g_unix_fd_source_new (client->fd, G_IO_OUT);
      g_source_set_callback (client->out_source, (GSourceFunc) (GCallback) on_client_writable, client, NULL);
      g_source_attach (client->out_source, NULL);
    }
  else if (client->output->len == 0)
    paddock_clear_source (&client->out_source);
}

static gboolean
on_client_writable (int          fd,
                    GIOCondition condition,
                    gpointer     user_data)
{
  /* client_flush() destroys this source once the queue is empty. */
  client_flush (user_data);
  return G_SOURCE_CONTINUE;
}

static void
client_send_line (Client     *client,
                  const char *line,
                  gsize       length)
{
  if (client->fd < 0)
    return;
  if (client->output->len - client->sent + length > client->max_output)
    {
      /* It stopped reading; the audit log has everything it missed. */
      client_close (client);
      return;
    }
  g_byte_array_append (client->output, (const guint8 *) line, length);
  client_flush (client);
}

static void
client_send (Client               *client,
             const PaddockMessage *message)
{
  g_autofree char *line = paddock_message_to_line (message);

  client_send_line (client, line, strlen (line));
}

static void
client_send_error (Client     *client,
                   const char *text)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_ERROR);

  message->message = g_strdup (text);
  client_send (client, message);

  /* Logged, but a client cannot flood the audit log with its garbage. */
  if (client->n_errors++ < MAX_LOGGED_ERRORS)
    {
      g_autoptr(JsonObject) fields = json_object_new ();

      json_object_set_int_member (fields, "client_pid", client->pid);
      json_object_set_string_member (fields, "error", text);
      audit_record (client->control, "protocol-error", fields);
    }
}

static PaddockMessage *
status_message (PaddockControl     *self,
                PaddockMessageType  type)
{
  PaddockMessage *message = paddock_message_new (type);

  message->session = g_strdup (self->session_id);
  message->lock = g_strdup (self->lock);
  message->network = g_strdup (self->network);
  {
    g_autoptr(GStrvBuilder) features = g_strv_builder_new ();

    if (self->monitor != NULL)
      g_strv_builder_addv (features, (const char **) paddock_exec_monitor_get_features (self->monitor));
    if (self->lock_features != NULL)
      g_strv_builder_addv (features, (const char **) self->lock_features);
    message->features = g_strv_builder_end (features);
  }
  message->paused = self->paused;
  if (type == PADDOCK_MESSAGE_HELLO)
    {
      message->project = g_strdup (self->project != NULL ? self->project : "");
      message->command = g_strdupv (self->command);
      message->truncated = self->command_truncated;
      message->agent_pid = self->agent_pid;
    }
  return message;
}

/* Records a kill, pause or resume made by the client @from, or (with
 * @from NULL) for the signal @signal, and tells every client. */
static void
broadcast_control (PaddockControl     *self,
                   PaddockMessageType  type,
                   const Client       *from,
                   const char         *signal)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (type);
  g_autoptr(JsonObject) fields = json_object_new ();
  const char *audit_type = type == PADDOCK_MESSAGE_KILL ? PADDOCK_AUDIT_KILL :
                           type == PADDOCK_MESSAGE_PAUSE ? PADDOCK_AUDIT_PAUSE : PADDOCK_AUDIT_RESUME;

  /* The execs answered before the tree was reached go out first, on the
   * timeline as in the audit log. */
  if (self->monitor != NULL)
    paddock_exec_monitor_flush (self->monitor);

  message->time = g_get_real_time ();
  message->by = g_strdup (from != NULL ? "user" : "signal");
  json_object_set_string_member (fields, "by", message->by);
  if (from != NULL)
    json_object_set_int_member (fields, "client_pid", from->pid);
  else
    json_object_set_string_member (fields, "signal", signal);
  audit_record (self, audit_type, fields);
  paddock_control_broadcast (self, message);
}

/* A kill, pause or resume that could not find the whole tree, said as a
 * notice and to the client who asked, if any: what was found was
 * reached, but some of the agent's processes may be left as they were. */
static void
report_tree_error (PaddockControl *self,
                   Client         *client,
                   const char     *verb,
                   const GError   *error)
{
  g_autofree char *text = g_strdup_printf ("cannot %s every process of the agent: %s", verb, error->message);

  paddock_control_notice (self, text);
  if (client != NULL)
    client_send_error (client, text);
}

/* Kills the whole tree, for the client @from, or (with @from NULL) for
 * the signal @signal, and tells every client. Killed first, so that the
 * one who asked hears of a shortfall before the kill's echo, which ends
 * its wait; no exit can come between. */
static void
kill_tree (PaddockControl *self,
           Client         *from,
           const char     *signal)
{
  g_autoptr(GError) error = NULL;

  if (!paddock_process_tree_kill (self->tree_root, &error))
    report_tree_error (self, from, "kill", error);
  broadcast_control (self, PADDOCK_MESSAGE_KILL, from, signal);
}

/* Lets a paused session go on. */
static void
resume (PaddockControl *self,
        Client         *client)
{
  g_autoptr(GError) error = NULL;

  if (!paddock_process_tree_thaw (self->tree_root, &error))
    report_tree_error (self, client, "resume", error);
  self->paused = FALSE;
}

static void
handle_request (Client         *client,
                PaddockMessage *request)
{
  PaddockControl *self = client->control;
  g_autoptr(GError) error = NULL;

  if (!paddock_message_type_is_request (request->type))
    {
      g_autofree char *text = g_strdup_printf ("%s is not a message a client sends",
                                               paddock_message_type_to_string (request->type));
      client_send_error (client, text);
      return;
    }

  /* One who decides, or asks for the status as attach does to say it
   * will: a kill, pause or resume alone is no promise to answer asks. */
  if (!client->decider && (request->type == PADDOCK_MESSAGE_DECIDE || request->type == PADDOCK_MESSAGE_LOCK_STATUS))
    {
      client->decider = TRUE;
      update_deciders (self);
    }

  switch (request->type)
    {
    case PADDOCK_MESSAGE_DECIDE:
      if (self->asks == NULL)
        client_send_error (client, "this session runs without the exec monitor; there is nothing to decide");
      else if (!paddock_asks_decide (self->asks, request->id, request->decision, request->remember,
                                     "user", client->pid, &error))
        client_send_error (client, error->message);
      break;

    case PADDOCK_MESSAGE_KILL:
      if (!self->ended)
        kill_tree (self, client, NULL);
      break;

    case PADDOCK_MESSAGE_PAUSE:
    case PADDOCK_MESSAGE_RESUME:
      if (request->type == PADDOCK_MESSAGE_PAUSE && !self->paused && !self->ended)
        {
          /* Set first: the supervisor sees the agent stop and must leave it so. */
          self->paused = TRUE;
          if (!paddock_process_tree_freeze (self->tree_root, &error))
            report_tree_error (self, client, "pause", error);
          broadcast_control (self, PADDOCK_MESSAGE_PAUSE, client, NULL);
        }
      else if (request->type == PADDOCK_MESSAGE_RESUME && self->paused && !self->ended)
        {
          resume (self, client);
          broadcast_control (self, PADDOCK_MESSAGE_RESUME, client, NULL);
        }
      /* The state now, to the one who asked, whether or not anything changed:
       * an echo of the request it could take from the replayed timeline. */
      {
        g_autoptr(PaddockMessage) reply = status_message (self, PADDOCK_MESSAGE_LOCK_STATUS);
        client_send (client, reply);
      }
      break;

    case PADDOCK_MESSAGE_LOCK_STATUS:
      {
        g_autoptr(PaddockMessage) reply = status_message (self, PADDOCK_MESSAGE_LOCK_STATUS);
        client_send (client, reply);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

static gboolean
on_client_readable (int          fd,
                    GIOCondition condition,
                    gpointer     user_data)
{
  Client *client = user_data;
  char buffer[64 * 1024];
  gboolean eof = FALSE;

  for (guint i = 0; i < READS_PER_DISPATCH; i++)
    {
      ssize_t n = recv (fd, buffer, sizeof buffer, MSG_DONTWAIT);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      if (n <= 0)
        {
          eof = TRUE;
          break;
        }
      paddock_line_reader_feed (client->reader, buffer, n);

      for (;;)
        {
          const char *line;
          gsize length;
          PaddockLineResult result = paddock_line_reader_next (client->reader, &line, &length);

          if (result == PADDOCK_LINE_NONE)
            break;
          if (result == PADDOCK_LINE_TOO_LONG)
            {
              g_autofree char *text = g_strdup_printf ("line longer than %d bytes, ignored",
                                                       PADDOCK_PROTOCOL_MAX_REQUEST_LINE);
              client_send_error (client, text);
            }
          else
            {
              g_autoptr(GError) error = NULL;
              g_autoptr(PaddockMessage) request = paddock_message_parse (line, length, &error);

              if (request == NULL)
                client_send_error (client, error->message);
              else
                handle_request (client, request);
            }
          /* A request (kill) may have ended the session, or an error the client. */
          if (client->fd < 0)
            return G_SOURCE_REMOVE;
        }
    }

  if (eof)
    {
      client_close (client);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
client_free (Client *client)
{
  g_byte_array_unref (client->output);
  paddock_line_reader_free (client->reader);
  g_free (client);
}

static void
client_close (Client *client)
{
  PaddockControl *self = client->control;

  if (client->fd < 0)
    return;
  paddock_clear_source (&client->in_source);
  paddock_clear_source (&client->out_source);
  paddock_close_fd (&client->fd);
  g_ptr_array_remove (self->clients, client);
  g_ptr_array_add (self->closed, client);
  if (client->decider)
    update_deciders (self);
}

static Client *
client_new (PaddockControl *self,
            int             fd,
            pid_t           pid,
            gboolean        decider)
{
  Client *client = g_new0 (Client, 1);
  g_autoptr(PaddockMessage) hello = status_message (self, PADDOCK_MESSAGE_HELLO);

  client->control = self;
  client->fd = fd;
  client->pid = pid;
  client->decider = decider;
  client->output = g_byte_array_new ();
  client->reader = paddock_line_reader_new (PADDOCK_PROTOCOL_MAX_REQUEST_LINE);
  g_ptr_array_add (self->clients, client);

  /* What it is sent first is bounded (the backlog, the asks pending) and
   * never counts as falling behind: a session whose timeline holds long
   * command lines could be attached to by no one. It has MAX_OUTPUT more
   * to fall behind by from there. */
  client->max_output = G_MAXSIZE;
  client_send (client, hello);
  for (GList *l = self->backlog.head; l != NULL && client->fd >= 0; l = l->next)
    client_send (client, l->data);
  if (self->asks != NULL && client->fd >= 0)
    {
      g_autoptr(GPtrArray) asks = paddock_asks_dup_pending (self->asks);

      for (guint i = 0; i < asks->len && client->fd >= 0; i++)
        client_send (client, g_ptr_array_index (asks, i));
    }
  if (client->fd < 0)
    return NULL;
  client->max_output = client->output->len - client->sent + MAX_OUTPUT;

  client->in_source = g_unix_fd_source_new (fd, G_IO_IN);
  g_source_set_callback (client->in_source, (GSourceFunc) (GCallback) on_client_readable, client, NULL);
  g_source_attach (client->in_source, NULL);
  if (decider)
    update_deciders (self);
  return client;
}

gboolean
paddock_control_check_client_fd (int      fd,
                                 GError **error)
{
  int domain = 0, type = 0;
  socklen_t length = sizeof domain;

  if (getsockopt (fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) != 0 || domain != AF_UNIX ||
      (length = sizeof type, getsockopt (fd, SOL_SOCKET, SO_TYPE, &type, &length)) != 0 || type != SOCK_STREAM)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "control fd %d is not a Unix stream socket", fd);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_control_add_client_fd (PaddockControl  *self,
                               int              fd,
                               gboolean         answers,
                               GError         **error)
{
  paddock_autofd int owned = fd;
  Client *client;

  if (!paddock_control_check_client_fd (fd, error))
    return FALSE;
  if (!g_unix_set_fd_nonblocking (fd, TRUE, error))
    return FALSE;
  fcntl (fd, F_SETFD, FD_CLOEXEC);
  /* Handed over by whoever started us: it may decide from the start. */
  client = client_new (self, paddock_steal_fd (&owned), -1, answers);
  if (client != NULL)
    client->inherited = TRUE;
  return TRUE;
}

typedef enum
{
  PEER_ALLOWED,
  PEER_REFUSED,
  PEER_LATER,   /* out of descriptors to tell: to be checked again */
} PeerCheck;

static gboolean
is_out_of_descriptors (int error_code)
{
  return error_code == EMFILE || error_code == ENFILE;
}

/* Whether a peer may control this session; where it may not, why, in
 * @refusal. Where it cannot be told, it may not: an agent that uses up
 * the supervisor's descriptors must not get its own process taken for an
 * outsider. */
static PeerCheck
check_peer (PaddockControl *self,
            int             fd,
            pid_t          *out_pid,
            char          **refusal)
{
  struct ucred cred = { 0 };
  socklen_t length = sizeof cred;
  paddock_autofd int pidfd = -1;
  socklen_t pidfd_length = sizeof pidfd;
  struct pollfd poll_fd;
  g_autoptr(GError) error = NULL;

  *out_pid = -1;
  if (getsockopt (fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0)
    {
      *refusal = g_strdup_printf ("cannot identify the peer: %s", g_strerror (errno));
      return PEER_REFUSED;
    }
  *out_pid = cred.pid;
  if (cred.uid != getuid ())
    {
      *refusal = g_strdup_printf ("the peer runs as uid %u, not %u", (guint) cred.uid, (guint) getuid ());
      return PEER_REFUSED;
    }
  if (cred.pid <= 0)
    {
      *refusal = g_strdup ("the peer's process is not visible from here");
      return PEER_REFUSED;
    }

  /* Taken before the walk: if it is still alive after, the pid was not
   * reused meanwhile. Linux before 6.5 has none to give. */
  if (getsockopt (fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &pidfd_length) != 0)
    {
      if (is_out_of_descriptors (errno))
        return PEER_LATER;
      pidfd = -1;
    }
  if (cred.pid == self->tree_root || paddock_process_tree_is_descendant (self->tree_root, cred.pid, &error))
    {
      *refusal = g_strdup_printf ("the peer (pid %d) is inside the agent's process tree", (int) cred.pid);
      return PEER_REFUSED;
    }
  if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_MFILE) ||
      g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NFILE))
    return PEER_LATER;
  if (error != NULL)
    {
      *refusal = g_strdup_printf ("cannot tell whether the peer (pid %d) is inside the agent's process tree: %s",
                                  (int) cred.pid, error->message);
      return PEER_REFUSED;
    }
  if (pidfd >= 0)
    {
      poll_fd = (struct pollfd) { .fd = pidfd, .events = POLLIN };
      if (poll (&poll_fd, 1, 0) != 0)
        {
          *refusal = g_strdup_printf ("the peer (pid %d) exited while it was checked", (int) cred.pid);
          return PEER_REFUSED;
        }
    }
  return PEER_ALLOWED;
}

/* Tells the peer on @client_fd why it is refused (@refusal), closes it,
 * and records it. */
static void
refuse_client (PaddockControl *self,
               int             client_fd,
               pid_t           pid,
               const char     *refusal)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_ERROR);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autofree char *line = NULL;

  message->message = g_strdup_printf ("refused: %s", refusal);
  line = paddock_message_to_line (message);
  if (send (client_fd, line, strlen (line), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
    {
      /* Nothing more to tell a peer that is gone. */
    }
  close (client_fd);

  json_object_set_int_member (fields, "client_pid", pid);
  json_object_set_string_member (fields, "reason", refusal);
  audit_record (self, "control-refused", fields);
}

/* Serves or refuses the peer on @client_fd, accepted; FALSE when it
 * cannot be told yet which, out of descriptors. */
static gboolean
take_client (PaddockControl *self,
             int             client_fd)
{
  g_autofree char *refusal = NULL;
  pid_t pid;

  switch (check_peer (self, client_fd, &pid, &refusal))
    {
    case PEER_LATER:
      return FALSE;
    case PEER_REFUSED:
      refuse_client (self, client_fd, pid, refusal);
      break;
    case PEER_ALLOWED:
      client_new (self, client_fd, pid, FALSE);
      break;
    }
  return TRUE;
}


static gboolean on_accept (int fd, GIOCondition condition, gpointer user_data);

static void
watch_listener (PaddockControl *self)
{
  paddock_clear_source (&self->listen_source);
  self->listen_source = g_unix_fd_source_new (self->listen_fd, G_IO_IN);
  g_source_set_callback (self->listen_source, (GSourceFunc) (GCallback) on_accept, self, NULL);
  g_source_attach (self->listen_source, NULL);
}

static void wait_for_descriptors (PaddockControl *self,
                                  int             saved_errno);

/* A peer accepted but not yet checked goes first. */
static gboolean
on_accept_retry (gpointer user_data)
{
  PaddockControl *self = user_data;

  if (self->unchecked_fd >= 0 && take_client (self, self->unchecked_fd))
    self->unchecked_fd = -1;
  if (self->unchecked_fd >= 0)
    wait_for_descriptors (self, EMFILE);
  else
    watch_listener (self);
  return G_SOURCE_REMOVE;
}

/* Out of descriptors, a connection stays queued and the socket readable:
 * polling it again at once would spin. It is tried again a little later,
 * as is a peer accepted with none left to check it with. */
static void
wait_for_descriptors (PaddockControl *self,
                      int             saved_errno)
{
  if (!self->told_no_fds)
    {
      g_autofree char *text = g_strdup_printf ("cannot take a control connection now: %s; trying again every %d ms",
                                               g_strerror (saved_errno), ACCEPT_RETRY_MS);

      self->told_no_fds = TRUE;
      say_on_terminal (self, text);
    }
  paddock_clear_source (&self->listen_source);
  self->listen_source = g_timeout_source_new (ACCEPT_RETRY_MS);
  g_source_set_callback (self->listen_source, on_accept_retry, self, NULL);
  g_source_attach (self->listen_source, NULL);
}

static gboolean
on_accept (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  PaddockControl *self = user_data;

  for (guint i = 0; i < 16; i++)
    {
      int client_fd = accept4 (fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

      if (client_fd < 0)
        {
          if (is_out_of_descriptors (errno) || errno == ENOBUFS || errno == ENOMEM)
            {
              wait_for_descriptors (self, errno);
              return G_SOURCE_REMOVE;
            }
          break;
        }
      if (!take_client (self, client_fd))
        {
          /* Held, not served: the others wait in the queue meanwhile. */
          self->unchecked_fd = client_fd;
          wait_for_descriptors (self, EMFILE);
          return G_SOURCE_REMOVE;
        }
    }
  return G_SOURCE_CONTINUE;
}

gboolean
paddock_control_listen (PaddockControl  *self,
                        GError         **error)
{
  g_autofree char *path = NULL;
  paddock_autofd int fd = -1;
  struct sockaddr_un addr = { .sun_family = AF_UNIX };

  g_return_val_if_fail (self->listen_fd < 0, FALSE);

  path = paddock_control_socket_path (self->session_id, error);
  if (path == NULL)
    return FALSE;
  strcpy (addr.sun_path, path);

  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0 ||
      bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
      chmod (path, 0600) != 0 ||
      listen (fd, 16) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot listen on %s: %s", path, g_strerror (saved_errno));
      if (fd >= 0)
        unlink (path);
      return FALSE;
    }

  self->listen_fd = paddock_steal_fd (&fd);
  self->socket_path = g_steal_pointer (&path);
  watch_listener (self);
  return TRUE;
}

const char *
paddock_control_get_socket_path (PaddockControl *self)
{
  return self->socket_path;
}

/* How long @text is as a JSON string, at most. */
static gsize
json_length (const char *text)
{
  gsize length = 2;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    length += (guchar) *p < 0x20 ? 6 : (*p == '"' || *p == '\\') ? 2 : 1;
  return length;
}

/* About what the message takes on the wire, to bound the backlog by what
 * replaying it sends: a control character takes six bytes there. */
static gsize
message_size (const PaddockMessage *message)
{
  gsize size = 256 + json_length (message->path) + json_length (message->exe) + json_length (message->cwd) +
               json_length (message->interpreter) + json_length (message->pipeline) + json_length (message->reason);

  for (guint i = 0; message->argv != NULL && message->argv[i] != NULL; i++)
    size += json_length (message->argv[i]) + 1;
  return size;
}

/* The timeline is replayed to a client that attaches later; asks come
 * from the registry, the still pending ones only, and hello tells whether
 * the session is paused. Kept as messages: most sessions never have a
 * client to write them for. */
static gboolean
is_kept (const PaddockMessage *message)
{
  return message->type == PADDOCK_MESSAGE_EXEC || message->type == PADDOCK_MESSAGE_DECIDED ||
         message->type == PADDOCK_MESSAGE_EXIT || message->type == PADDOCK_MESSAGE_NET ||
         message->type == PADDOCK_MESSAGE_SECRET;
}

/* Takes @message. */
static void
keep (PaddockControl *self,
      PaddockMessage *message)
{
  g_queue_push_tail (&self->backlog, message);
  self->backlog_bytes += message_size (message);
  while (self->backlog.length > BACKLOG_LINES || self->backlog_bytes > BACKLOG_BYTES)
    {
      PaddockMessage *old = g_queue_pop_head (&self->backlog);

      self->backlog_bytes -= message_size (old);
      paddock_message_free (old);
    }
}

static void
send_to_clients (PaddockControl       *self,
                 const PaddockMessage *message)
{
  g_autofree char *line = NULL;
  gsize length;
  g_autoptr(GPtrArray) clients = NULL;

  if (self->clients->len == 0)
    return;
  line = paddock_message_to_line (message);
  length = strlen (line);
  /* Sending may drop a client, which changes the array. */
  clients = g_ptr_array_copy (self->clients, NULL, NULL);
  for (guint i = 0; i < clients->len; i++)
    client_send_line (g_ptr_array_index (clients, i), line, length);
}

void
paddock_control_broadcast (PaddockControl       *self,
                           const PaddockMessage *message)
{
  send_to_clients (self, message);
  if (is_kept (message))
    keep (self, paddock_message_copy (message));
}

void
paddock_control_broadcast_take (PaddockControl *self,
                                PaddockMessage *message)
{
  send_to_clients (self, message);
  if (is_kept (message))
    keep (self, message);
  else
    paddock_message_free (message);
}

/* Says once, in the session's terminal, that a program needed an answer
 * nobody was attached to give: @what became of it, and how to be there. */
static void
tell_no_client (PaddockControl       *self,
                const PaddockMessage *message,
                const char           *what,
                const char           *how)
{
  const char *program = message->argv != NULL && message->argv[0] != NULL ? message->argv[0]
                                                                         : message->path;
  g_autofree char *shown = paddock_escape_for_display (program, -1);
  g_autofree char *rule = message->rule != NULL ? paddock_escape_for_display (message->rule, -1) : NULL;
  g_autofree char *name = paddock_escape_for_display (message->name != NULL ? message->name : "", -1);
  g_autofree char *path = paddock_escape_for_display (message->path != NULL ? message->path : "", -1);
  /* What the ask is about, by its kind: an exec's is the rule that asks. */
  g_autofree char *why = g_strcmp0 (message->kind, "secret") == 0 ? g_strdup_printf ("the secret “%s”", name) :
                         g_strcmp0 (message->kind, "home") == 0 ? g_strdup_printf ("to read %s", path) :
                         rule != NULL ? g_strdup_printf ("rule %s", rule) : g_strdup ("the policy's default");
  g_autofree char *next = self->socket_path != NULL ?
    g_strdup_printf ("%s: paddockctl attach %s", how, self->session_id) :
    g_strdup ("this session has no control socket to attach to");

  g_autofree char *text = g_strdup_printf ("%s needs an answer (%s) and nobody is attached to give one, "
                                           "so %s; %s", shown, why, what, next);

  self->told_no_client = TRUE;
  say_on_terminal (self, text);
}

void
paddock_control_notice (PaddockControl *self,
                        const char     *text)
{
  g_autoptr(PaddockMessage) message = NULL;
  gboolean shown = FALSE;

  g_return_if_fail (text != NULL);

  for (guint i = 0; self != NULL && i < self->clients->len; i++)
    shown |= ((Client *) g_ptr_array_index (self->clients, i))->inherited;
  if (!shown)
    say_on_terminal (self, text);
  if (self == NULL)
    return;
  message = paddock_message_new (PADDOCK_MESSAGE_NOTICE);
  message->time = g_get_real_time ();
  message->message = g_strdup (text);
  send_to_clients (self, message);
}

void
paddock_control_monitor_func (PaddockMessage *message,
                              gpointer        user_data)
{
  PaddockControl *self = user_data;

  /* The monitor's notices are said here, where the clients are. */
  if (message->type == PADDOCK_MESSAGE_NOTICE)
    {
      paddock_control_notice (self, message->message);
      paddock_message_free (message);
      return;
    }

  if (!self->told_no_client)
    {
      /* Refused for want of a client (--on-ask=deny). */
      if (message->type == PADDOCK_MESSAGE_EXEC && message->decision == PADDOCK_DECISION_DENY &&
          g_strcmp0 (message->by, "no-client") == 0)
        tell_no_client (self, message, "it was refused", "answer such programs with");
      /* Held for one to come (--on-ask=wait). */
      else if (message->type == PADDOCK_MESSAGE_ASK && !has_decider (self))
        tell_no_client (self, message, "it waits until its deadline", "answer it with");
    }
  paddock_control_broadcast_take (self, message);
}

gboolean
paddock_control_get_paused (PaddockControl *self)
{
  return self != NULL && self->paused;
}

static char *
signal_name (int signo)
{
  const char *abbrev = sigabbrev_np (signo);

  return abbrev != NULL ? g_strconcat ("SIG", abbrev, NULL) : g_strdup_printf ("signal %d", signo);
}

gboolean
paddock_control_resume_for_signal (PaddockControl *self,
                                   int             signo)
{
  g_autofree char *name = signal_name (signo);

  if (self == NULL || !self->paused || self->ended)
    return FALSE;
  resume (self, NULL);
  broadcast_control (self, PADDOCK_MESSAGE_RESUME, NULL, name);
  return TRUE;
}

void
paddock_control_kill_for_signal (PaddockControl *self,
                                 int             signo)
{
  g_autofree char *name = signal_name (signo);

  if (self != NULL && !self->ended)
    kill_tree (self, NULL, name);
}

void
paddock_control_session_end (PaddockControl *self,
                             int             exit_code,
                             int             signal)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  gint64 deadline;

  if (self->ended)
    return;
  /* The agent has given the terminal back. */
  say_what_waited (self);
  self->ended = TRUE;

  message->session_end = TRUE;
  message->pid = self->agent_pid;
  message->time = g_get_real_time ();
  message->exit_code = exit_code;
  message->signal = signal > 0 ? signal : -1;
  paddock_control_broadcast (self, message);

  /* A moment for clients to read the end; none can hold the exit up long. */
  deadline = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (self->clients->len > 0)
    {
      g_autofree struct pollfd *fds = g_new0 (struct pollfd, self->clients->len);
      guint n = 0;
      gint64 remaining = (deadline - g_get_monotonic_time ()) / 1000;

      for (guint i = 0; i < self->clients->len; i++)
        {
          Client *client = g_ptr_array_index (self->clients, i);

          if (client->sent < client->output->len)
            fds[n++] = (struct pollfd) { .fd = client->fd, .events = POLLOUT };
        }
      if (n == 0 || remaining <= 0 || poll (fds, n, (int) remaining) <= 0)
        break;
      for (guint i = self->clients->len; i > 0; i--)
        client_flush (g_ptr_array_index (self->clients, i - 1));
    }

  while (self->clients->len > 0)
    client_close (g_ptr_array_index (self->clients, 0));
  paddock_clear_source (&self->listen_source);
  paddock_close_fd (&self->unchecked_fd);
  if (self->socket_path != NULL)
    unlink (self->socket_path);
  paddock_close_fd (&self->listen_fd);
}

void
paddock_control_free (PaddockControl *self)
{
  if (self == NULL)
    return;
  while (self->clients->len > 0)
    client_close (g_ptr_array_index (self->clients, 0));
  paddock_clear_source (&self->listen_source);
  paddock_close_fd (&self->unchecked_fd);
  if (self->socket_path != NULL && self->listen_fd >= 0)
    unlink (self->socket_path);
  paddock_close_fd (&self->listen_fd);
  g_ptr_array_unref (self->clients);
  g_ptr_array_unref (self->closed);
  g_queue_clear_full (&self->backlog, (GDestroyNotify) paddock_message_free);
  say_what_waited (self);
  g_ptr_array_unref (self->said_later);
  g_array_unref (self->said_times);
  g_free (self->socket_path);
  g_free (self->session_id);
  g_free (self->project);
  g_strfreev (self->command);
  g_free (self->lock);
  g_strfreev (self->lock_features);
  g_free (self->network);
  g_free (self);
}
