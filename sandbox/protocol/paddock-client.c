/* paddock-client.c: one connection to a paddock-run session
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads with one pending read at a time into a line reader capped at the
 * longest event line, and writes one queued line at a time; everything
 * runs on the context the client was made on. A session that sends a
 * flood is read as fast as the context runs: the cap bounds one line,
 * not the backlog, which is the kernel's socket buffer.
 */
#include "config.h"

#include "paddock-client.h"
#include "paddock-control-socket.h"
#include "paddock-escape.h"
#include "paddock-proc.h"

#include <dirent.h>
#include <errno.h>
#include <gio/gunixsocketaddress.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_SIZE (64 * 1024)

struct _PaddockClient
{
  GObject             parent_instance;

  GSocketConnection  *connection;
  GCancellable       *cancellable;     /* the pending read and writes */
  GMainContext       *context;
  guint               start_source;    /* reading begins at the next iteration */
  char               *buffer;          /* READ_SIZE */
  PaddockLineReader  *reader;
  gboolean            reading;
  gboolean            dispatching;

  GQueue              writes;          /* char *, lines not yet written, the first one being */
  gsize               written;         /* of the first */
  gboolean            writing;
  GQueue              flushes;         /* GTask *, waiting for the writes before them */

  PaddockMessage     *hello;
  char               *session_id;      /* from hello, or the socket's name until then */
  char               *lock;
  gboolean            paused;
  gboolean            ended;           /* the session said it ended */
  gboolean            closed;

  GTask              *connecting;      /* waits for hello */
  guint               hello_timeout;
  guint               hello_timeout_ms;
  GQueue              requests;        /* GTask *, waiting for their confirmation */
};

enum
{
  PROP_0,
  PROP_SESSION_ID,
  PROP_LOCK,
  PROP_PAUSED,
  PROP_CLOSED,
  N_PROPS
};

enum
{
  SIGNAL_MESSAGE,
  SIGNAL_HELLO,
  SIGNAL_EXEC,
  SIGNAL_ASK,
  SIGNAL_DECIDED,
  SIGNAL_NET,
  SIGNAL_SECRET,
  SIGNAL_HOME,
  SIGNAL_EXIT,
  SIGNAL_LOCK_STATUS,
  SIGNAL_KILL,
  SIGNAL_PAUSE,
  SIGNAL_RESUME,
  SIGNAL_NOTICE,
  SIGNAL_REFUSED,
  SIGNAL_BAD_MESSAGE,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_QUARK (paddock-client-error-quark, paddock_client_error)
G_DEFINE_FINAL_TYPE (PaddockClient, paddock_client, G_TYPE_OBJECT)

typedef struct
{
  PaddockMessageType  type;
  GSource            *timeout;     /* on the client's context, or NULL */
} Request;

static void
request_clear_timeout (Request *request)
{
  if (request->timeout != NULL)
    {
      g_source_destroy (request->timeout);
      g_clear_pointer (&request->timeout, g_source_unref);
    }
}

static void read_more (PaddockClient *self);
static gboolean start_reading (gpointer user_data);
static void write_next (PaddockClient *self);
static void finish_requests (PaddockClient *self,
                             const GError  *error);
static void finish_flushes  (PaddockClient *self,
                             const GError  *error);

/* Attaches @source to the client's context, where everything it does runs. */
static guint
add_source (PaddockClient  *self,
            GSource        *source,
            GSourceFunc     func,
            gpointer        data,
            GDestroyNotify  destroy)
{
  guint id;

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  id = g_source_attach (source, self->context);
  g_source_unref (source);
  return id;
}

static void
clear_source (PaddockClient *self,
              guint         *id)
{
  GSource *source = *id != 0 ? g_main_context_find_source_by_id (self->context, *id) : NULL;

  if (source != NULL)
    g_source_destroy (source);
  *id = 0;
}

/* Anything from a session goes through this before a person sees it. */
static char *
display (const char *text)
{
  return paddock_escape_for_display (text != NULL ? text : "", -1);
}

/* Takes @error: NULL where the session ended or the client was closed here. */
static void
set_closed (PaddockClient *self,
            GError        *error)
{
  if (self->closed)
    {
      g_clear_error (&error);
      return;
    }
  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  clear_source (self, &self->start_source);
  if (self->connection != NULL)
    g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
  g_queue_clear_full (&self->writes, g_free);

  g_object_ref (self);
  if (self->connecting != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connecting);

      clear_source (self, &self->hello_timeout);
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_new_error (task, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                                 "the connection to session %s was closed", self->session_id);
      /* The reference the wait for the greeting held. */
      g_object_unref (self);
    }
  finish_requests (self, error);
  if (!g_queue_is_empty (&self->flushes))
    {
      g_autoptr(GError) unsent = g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                                              "the connection to session %s closed before all was sent%s%s",
                                              self->session_id, error != NULL ? ": " : "",
                                              error != NULL ? error->message : "");

      finish_flushes (self, unsent);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSED]);
  g_signal_emit (self, signals[SIGNAL_CLOSED], 0, error);
  g_clear_error (&error);
  g_object_unref (self);
}

static void
take_state (PaddockClient        *self,
            const PaddockMessage *message)
{
  if (message->type == PADDOCK_MESSAGE_HELLO)
    {
      g_clear_pointer (&self->hello, paddock_message_free);
      self->hello = paddock_message_copy (message);
      if (message->session != NULL && g_strcmp0 (self->session_id, message->session) != 0)
        {
          g_free (self->session_id);
          self->session_id = g_strdup (message->session);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION_ID]);
        }
    }
  if (message->type == PADDOCK_MESSAGE_HELLO || message->type == PADDOCK_MESSAGE_LOCK_STATUS)
    {
      if (message->lock != NULL && g_strcmp0 (self->lock, message->lock) != 0)
        {
          g_free (self->lock);
          self->lock = g_strdup (message->lock);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCK]);
        }
      if (self->paused != message->paused)
        {
          self->paused = message->paused;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
        }
    }
  /* The echoes of another client's pause and resume say so too. */
  if ((message->type == PADDOCK_MESSAGE_PAUSE || message->type == PADDOCK_MESSAGE_RESUME) &&
      self->paused != (message->type == PADDOCK_MESSAGE_PAUSE))
    {
      self->paused = message->type == PADDOCK_MESSAGE_PAUSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
    }
  if (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)
    self->ended = TRUE;
}

static guint
signal_of (PaddockMessageType type)
{
  switch (type)
    {
    case PADDOCK_MESSAGE_HELLO:       return signals[SIGNAL_HELLO];
    case PADDOCK_MESSAGE_EXEC:        return signals[SIGNAL_EXEC];
    case PADDOCK_MESSAGE_ASK:         return signals[SIGNAL_ASK];
    case PADDOCK_MESSAGE_DECIDED:     return signals[SIGNAL_DECIDED];
    case PADDOCK_MESSAGE_NET:         return signals[SIGNAL_NET];
    case PADDOCK_MESSAGE_SECRET:      return signals[SIGNAL_SECRET];
    case PADDOCK_MESSAGE_HOME:        return signals[SIGNAL_HOME];
    case PADDOCK_MESSAGE_EXIT:        return signals[SIGNAL_EXIT];
    case PADDOCK_MESSAGE_LOCK_STATUS: return signals[SIGNAL_LOCK_STATUS];
    case PADDOCK_MESSAGE_KILL:        return signals[SIGNAL_KILL];
    case PADDOCK_MESSAGE_PAUSE:       return signals[SIGNAL_PAUSE];
    case PADDOCK_MESSAGE_RESUME:      return signals[SIGNAL_RESUME];
    case PADDOCK_MESSAGE_NOTICE:      return signals[SIGNAL_NOTICE];
    case PADDOCK_MESSAGE_ERROR:       return signals[SIGNAL_REFUSED];
    case PADDOCK_MESSAGE_DECIDE:
    default:                          return 0;
    }
}

/* The oldest request @message confirms, or NULL. */
static GList *
confirmed_request (PaddockClient        *self,
                   const PaddockMessage *message)
{
  for (GList *l = self->requests.head; l != NULL; l = l->next)
    {
      Request *request = g_task_get_task_data (l->data);

      if (message->type == PADDOCK_MESSAGE_ERROR)
        return l;
      if (request->type == PADDOCK_MESSAGE_KILL &&
          (message->type == PADDOCK_MESSAGE_KILL ||
           (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)))
        return l;
      if (request->type != PADDOCK_MESSAGE_KILL && message->type == PADDOCK_MESSAGE_LOCK_STATUS)
        return l;
    }
  return NULL;
}

static void
confirm_request (PaddockClient        *self,
                 const PaddockMessage *message)
{
  GList *link = confirmed_request (self, message);
  g_autoptr(GTask) task = NULL;
  Request *request;

  if (link == NULL)
    return;
  task = link->data;
  g_queue_delete_link (&self->requests, link);
  request = g_task_get_task_data (task);
  request_clear_timeout (request);
  if (message->type == PADDOCK_MESSAGE_ERROR)
    {
      g_autofree char *text = display (message->message);

      g_task_return_new_error (task, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_REFUSED,
                               "the session says: %s", text);
    }
  else
    g_task_return_pointer (task, paddock_message_copy (message), (GDestroyNotify) paddock_message_free);
}

static void
finish_requests (PaddockClient *self,
                 const GError  *error)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->requests)) != NULL)
    {
      Request *request = g_task_get_task_data (task);

      request_clear_timeout (request);
      /* A kill ends the session, and with it the connection. */
      if (request->type == PADDOCK_MESSAGE_KILL && (error == NULL || self->ended ||
                                                    g_error_matches (error, PADDOCK_CLIENT_ERROR,
                                                                     PADDOCK_CLIENT_ERROR_CLOSED)))
        g_task_return_pointer (task, NULL, NULL);
      else if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_new_error (task, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                                 "the session ended");
      g_object_unref (task);
    }
}

/* Returns FALSE where the client closed or stopped reading meanwhile. */
static gboolean
dispatch (PaddockClient        *self,
          const PaddockMessage *message)
{
  guint signal_id;

  if (self->connecting != NULL)
    {
      g_autoptr(GTask) task = NULL;

      /* The first message decides whether this is a session at all. */
      if (message->type == PADDOCK_MESSAGE_ERROR)
        {
          g_autofree char *text = display (message->message);

          set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_REFUSED,
                                         "the session says: %s", text));
          return FALSE;
        }
      if (message->type != PADDOCK_MESSAGE_HELLO)
        {
          set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_PROTOCOL,
                                         "session %s did not start with a greeting", self->session_id));
          return FALSE;
        }
      take_state (self, message);
      task = g_steal_pointer (&self->connecting);
      clear_source (self, &self->hello_timeout);
      /* Whoever gets the client connects its handlers before anything
       * more is read: the rest waits for the next iteration. */
      self->dispatching = FALSE;
      g_task_return_pointer (task, self, g_object_unref);
      return FALSE;
    }

  take_state (self, message);
  g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, message);
  if (self->closed)
    return FALSE;
  signal_id = signal_of (message->type);
  if (signal_id != 0)
    g_signal_emit (self, signal_id, 0, message);
  if (self->closed)
    return FALSE;
  confirm_request (self, message);
  return !self->closed;
}

/* Emits what the reader holds; FALSE where reading must not go on now. */
static gboolean
dispatch_lines (PaddockClient *self)
{
  const char *line;
  gsize length;
  PaddockLineResult result;

  self->dispatching = TRUE;
  while (self->dispatching && (result = paddock_line_reader_next (self->reader, &line, &length)) != PADDOCK_LINE_NONE)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockMessage) message = NULL;

      if (self->connecting != NULL && (result == PADDOCK_LINE_TOO_LONG ||
                                       (message = paddock_message_parse (line, length, &error)) == NULL))
        {
          /* Whatever else it is, it is not a session greeting. */
          set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_PROTOCOL,
                                         "session %s did not start with a greeting: %s", self->session_id,
                                         error != NULL ? error->message : "its first line is too long"));
          return FALSE;
        }
      if (result == PADDOCK_LINE_TOO_LONG)
        {
          error = g_error_new (PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_TOO_LONG,
                               "session %s sent a message over %d bytes; it was skipped",
                               self->session_id, PADDOCK_PROTOCOL_MAX_EVENT_LINE);
          g_signal_emit (self, signals[SIGNAL_BAD_MESSAGE], 0, error);
          continue;
        }
      if (message == NULL)
        message = paddock_message_parse (line, length, &error);
      if (message == NULL)
        {
          g_prefix_error (&error, "session %s sent a message that was skipped: ", self->session_id);
          g_signal_emit (self, signals[SIGNAL_BAD_MESSAGE], 0, error);
          continue;
        }
      if (!dispatch (self, message))
        return FALSE;
    }
  return self->dispatching && !self->closed;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PaddockClient) self = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  self->reading = FALSE;
  if (self->closed)
    return;
  /* A session that ends with a request of ours unread resets the
   * connection: an end like any other, what came before it still counts. */
  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
    n = 0;
  if (n < 0)
    {
      set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_BROKEN,
                                     "cannot read from session %s: %s", self->session_id, error->message));
      return;
    }
  if (n > 0)
    paddock_line_reader_feed (self->reader, self->buffer, n);
  if (!dispatch_lines (self))
    {
      /* Stopped for a caller that gets the client now: the rest, and the
       * end of the stream, next time. */
      if (!self->closed && self->start_source == 0)
        self->start_source = add_source (self, g_idle_source_new (), start_reading, self, NULL);
      return;
    }
  if (n > 0)
    read_more (self);
  else if (self->ended)
    set_closed (self, NULL);
  else if (self->connecting != NULL)
    set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_PROTOCOL,
                                   "session %s closed the connection without a greeting",
                                   self->session_id));
  else
    set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                                   "session %s closed the connection without ending", self->session_id));
}

static void
read_more (PaddockClient *self)
{
  GInputStream *input;

  self->start_source = 0;
  if (self->closed || self->reading)
    return;
  /* Lines held back for the caller come before any new input. */
  if (!dispatch_lines (self))
    {
      if (!self->closed)
        self->start_source = add_source (self, g_idle_source_new (), start_reading, self, NULL);
      return;
    }
  input = g_io_stream_get_input_stream (G_IO_STREAM (self->connection));
  self->reading = TRUE;
  g_input_stream_read_async (input, self->buffer, READ_SIZE, G_PRIORITY_DEFAULT,
                             self->cancellable, read_cb, g_object_ref (self));
}

static gboolean
start_reading (gpointer user_data)
{
  read_more (user_data);
  return G_SOURCE_REMOVE;
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PaddockClient) self = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = g_output_stream_write_finish (G_OUTPUT_STREAM (object), result, &error);
  const char *line;

  self->writing = FALSE;
  if (self->closed)
    return;
  if (n < 0)
    {
      set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_BROKEN,
                                     "cannot write to session %s: %s", self->session_id, error->message));
      return;
    }
  line = g_queue_peek_head (&self->writes);
  self->written += n;
  if (self->written == strlen (line))
    {
      g_free (g_queue_pop_head (&self->writes));
      self->written = 0;
    }
  write_next (self);
}

/* Every flush waits for all that was queued before it: done when nothing is. */
static void
finish_flushes (PaddockClient *self,
                const GError  *error)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->flushes)) != NULL)
    {
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

static void
write_next (PaddockClient *self)
{
  const char *line = g_queue_peek_head (&self->writes);
  GOutputStream *output;

  if (line == NULL && !self->writing && !self->closed)
    finish_flushes (self, NULL);
  if (line == NULL || self->writing || self->closed)
    return;
  output = g_io_stream_get_output_stream (G_IO_STREAM (self->connection));
  self->writing = TRUE;
  g_output_stream_write_async (output, line + self->written, strlen (line) - self->written,
                               G_PRIORITY_DEFAULT, self->cancellable, write_cb, g_object_ref (self));
}

gboolean
paddock_client_send (PaddockClient        *self,
                     const PaddockMessage *request,
                     GError              **error)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (request != NULL && paddock_message_type_is_request (request->type), FALSE);

  if (self->closed)
    {
      g_set_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                   "the connection to session %s is closed", self->session_id);
      return FALSE;
    }
  g_queue_push_tail (&self->writes, paddock_message_to_line (request));
  write_next (self);
  return TRUE;
}

gboolean
paddock_client_decide (PaddockClient   *self,
                       gint64           id,
                       PaddockDecision  decision,
                       PaddockRemember  remember,
                       GError         **error)
{
  g_autoptr(PaddockMessage) request = paddock_message_new (PADDOCK_MESSAGE_DECIDE);

  g_return_val_if_fail (decision == PADDOCK_DECISION_ALLOW || decision == PADDOCK_DECISION_DENY, FALSE);

  request->id = id;
  request->decision = decision;
  request->remember = remember;
  return paddock_client_send (self, request, error);
}

static gboolean
request_timed_out (gpointer user_data)
{
  GTask *task = user_data;
  PaddockClient *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);

  g_clear_pointer (&request->timeout, g_source_unref);
  g_queue_remove (&self->requests, task);
  g_task_return_new_error (task, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_TIMED_OUT,
                           "session %s did not confirm the %s in time", self->session_id,
                           paddock_message_type_to_string (request->type));
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
request_free (Request *request)
{
  request_clear_timeout (request);
  g_free (request);
}

void
paddock_client_request_async (PaddockClient       *self,
                              PaddockMessageType   type,
                              guint                timeout_ms,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(PaddockMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  Request *request;

  g_return_if_fail (PADDOCK_IS_CLIENT (self));
  g_return_if_fail (type == PADDOCK_MESSAGE_KILL || type == PADDOCK_MESSAGE_PAUSE ||
                    type == PADDOCK_MESSAGE_RESUME || type == PADDOCK_MESSAGE_LOCK_STATUS);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_client_request_async);
  message = paddock_message_new (type);
  if (!paddock_client_send (self, message, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  request = g_new0 (Request, 1);
  request->type = type;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  if (timeout_ms > 0)
    {
      request->timeout = g_timeout_source_new (timeout_ms);
      g_source_set_callback (request->timeout, request_timed_out, g_object_ref (task), g_object_unref);
      g_source_attach (request->timeout, self->context);
    }
  g_queue_push_tail (&self->requests, g_steal_pointer (&task));
}

PaddockMessage *
paddock_client_request_finish (PaddockClient  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
paddock_client_flush_async (PaddockClient       *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PADDOCK_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_client_flush_async);
  if (self->closed)
    {
      g_task_return_new_error (task, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED,
                               "the connection to session %s is closed", self->session_id);
      return;
    }
  g_queue_push_tail (&self->flushes, g_steal_pointer (&task));
  write_next (self);
}

gboolean
paddock_client_flush_finish (PaddockClient  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
paddock_client_close (PaddockClient *self)
{
  g_return_if_fail (PADDOCK_IS_CLIENT (self));

  set_closed (self, NULL);
}

const PaddockMessage *
paddock_client_get_hello (PaddockClient *self)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), NULL);
  return self->hello;
}

const char *
paddock_client_get_session_id (PaddockClient *self)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), NULL);
  return self->session_id;
}

const char *
paddock_client_get_lock (PaddockClient *self)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), NULL);
  return self->lock;
}

gboolean
paddock_client_get_paused (PaddockClient *self)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), FALSE);
  return self->paused;
}

gboolean
paddock_client_get_closed (PaddockClient *self)
{
  g_return_val_if_fail (PADDOCK_IS_CLIENT (self), TRUE);
  return self->closed;
}

static PaddockClient *
client_new (GSocketConnection *connection,
            const char        *session_id)
{
  PaddockClient *self = g_object_new (PADDOCK_TYPE_CLIENT, NULL);

  self->connection = connection;
  self->session_id = g_strdup (session_id);
  self->start_source = add_source (self, g_idle_source_new (), start_reading, self, NULL);
  return self;
}

PaddockClient *
paddock_client_new_for_fd (int      fd,
                           GError **error)
{
  g_autoptr(GSocket) socket = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (fd >= 0, NULL);

  socket = g_socket_new_from_fd (fd, error);
  if (socket == NULL)
    {
      close (fd);
      return NULL;
    }
  if (g_socket_get_family (socket) != G_SOCKET_FAMILY_UNIX ||
      g_socket_get_socket_type (socket) != G_SOCKET_TYPE_STREAM)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "descriptor %d is not a Unix stream socket", fd);
      return NULL;
    }
  name = g_strdup_printf ("on descriptor %d", fd);
  return client_new (g_socket_connection_factory_create_connection (socket), name);
}

/* Whether the process on the other end of @connection is stopped; its pid
 * goes to @pid, or 0. */
static gboolean
listener_stopped (GSocketConnection *connection,
                  pid_t             *pid)
{
  GSocket *socket = g_socket_connection_get_socket (connection);
  g_autoptr(GCredentials) credentials = g_socket_get_credentials (socket, NULL);
  char state;

  *pid = credentials != NULL ? g_credentials_get_unix_pid (credentials, NULL) : 0;
  if (*pid <= 0)
    {
      *pid = 0;
      return FALSE;
    }
  return paddock_proc_read_stat (-1, *pid, &state, NULL) && (state == 'T' || state == 't');
}

static GError *
stopped_error (PaddockClient *self,
               pid_t          pid)
{
  return g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STOPPED,
                      "session %s did not answer: its paddock-run (pid %d) is stopped; "
                      "kill -CONT %d resumes it", self->session_id, (int) pid, (int) pid);
}

static gboolean
hello_timed_out (gpointer user_data)
{
  PaddockClient *self = user_data;
  pid_t pid;

  self->hello_timeout = 0;
  if (listener_stopped (self->connection, &pid))
    set_closed (self, stopped_error (self, pid));
  else
    set_closed (self, g_error_new (PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_SILENT,
                                   "session %s did not answer within %u s", self->session_id,
                                   (self->hello_timeout_ms + 999) / 1000));
  return G_SOURCE_REMOVE;
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) connection = g_socket_client_connect_finish (G_SOCKET_CLIENT (object),
                                                                            result, &error);
  const char *path = g_task_get_task_data (task);
  g_autofree char *session = paddock_client_session_of_socket (path);
  g_autoptr(PaddockClient) self = NULL;
  pid_t pid;

  if (connection == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, PADDOCK_CLIENT_ERROR,
                                 g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED)
                                   ? PADDOCK_CLIENT_ERROR_STALE : PADDOCK_CLIENT_ERROR_BROKEN,
                                 "cannot connect to %s: %s", path, error->message);
      return;
    }

  self = client_new (g_steal_pointer (&connection), session);
  /* A stopped paddock-run cannot greet: said at once rather than waited for. */
  if (listener_stopped (self->connection, &pid))
    {
      g_task_return_error (task, stopped_error (self, pid));
      paddock_client_close (self);
      return;
    }
  /* The wait for the greeting holds the client until it ends. */
  self->hello_timeout_ms = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "timeout"));
  self->hello_timeout = add_source (self, g_timeout_source_new (self->hello_timeout_ms), hello_timed_out, self, NULL);
  self->connecting = g_steal_pointer (&task);
  g_steal_pointer (&self);
}

void
paddock_client_connect_async (const char          *socket_path,
                              guint                timeout_ms,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GSocketClient) socket_client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = NULL;
  GTask *task;

  g_return_if_fail (socket_path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_client_connect_async);
  g_task_set_task_data (task, g_strdup (socket_path), g_free);
  g_object_set_data (G_OBJECT (task), "timeout", GUINT_TO_POINTER (timeout_ms > 0 ? timeout_ms : 5000));
  address = g_unix_socket_address_new (socket_path);
  g_socket_client_connect_async (socket_client, G_SOCKET_CONNECTABLE (address), cancellable,
                                 connect_cb, task);
}

PaddockClient *
paddock_client_connect_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
paddock_client_session_of_socket (const char *socket_path)
{
  g_autofree char *base = g_path_get_basename (socket_path);

  if (g_str_has_suffix (base, ".sock"))
    base[strlen (base) - strlen (".sock")] = '\0';
  return g_steal_pointer (&base);
}

GPtrArray *
paddock_client_list_sockets (GError **error)
{
  g_autofree char *dir_path = paddock_control_socket_dir (error);
  g_autoptr(GPtrArray) paths = NULL;
  DIR *dir;
  struct dirent *entry;

  if (dir_path == NULL)
    return NULL;
  paths = g_ptr_array_new_with_free_func (g_free);
  dir = opendir (dir_path);
  if (dir == NULL)
    return g_steal_pointer (&paths);
  while ((entry = readdir (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      struct stat st;

      if (!g_str_has_suffix (entry->d_name, ".sock"))
        continue;
      path = g_build_filename (dir_path, entry->d_name, NULL);
      /* Only sockets: not a file, a folder or a link someone put there. */
      if (lstat (path, &st) == 0 && S_ISSOCK (st.st_mode))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  closedir (dir);
  g_ptr_array_sort (paths, (GCompareFunc) (GCallback) g_strcmp0);
  return g_steal_pointer (&paths);
}

char *
paddock_client_find_socket (const char *session,
                            GError    **error)
{
  g_autoptr(GPtrArray) paths = NULL;
  const char *match = NULL;

  g_return_val_if_fail (session != NULL, NULL);

  paths = paddock_client_list_sockets (error);
  if (paths == NULL)
    return NULL;
  for (guint i = 0; *session != '\0' && i < paths->len; i++)
    {
      g_autofree char *id = paddock_client_session_of_socket (g_ptr_array_index (paths, i));

      if (strcmp (id, session) == 0)
        {
          match = g_ptr_array_index (paths, i);
          break;
        }
      if (g_str_has_prefix (id, session))
        {
          if (match != NULL)
            {
              g_autofree char *shown = display (session);

              g_set_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_AMBIGUOUS,
                           "%s matches more than one session; give more of its id", shown);
              return NULL;
            }
          match = g_ptr_array_index (paths, i);
        }
    }
  if (match == NULL)
    {
      g_autofree char *shown = display (session);

      g_set_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_NOT_FOUND,
                   "no session %s is running (see paddockctl list)", shown);
      return NULL;
    }
  return g_strdup (match);
}

static void
paddock_client_dispose (GObject *object)
{
  PaddockClient *self = PADDOCK_CLIENT (object);

  if (!self->closed)
    {
      /* No signals from a client going away; just let go. */
      self->closed = TRUE;
      g_cancellable_cancel (self->cancellable);
      clear_source (self, &self->start_source);
      clear_source (self, &self->hello_timeout);
      if (self->connection != NULL)
        g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
    }
  g_clear_object (&self->connection);
  G_OBJECT_CLASS (paddock_client_parent_class)->dispose (object);
}

static void
paddock_client_finalize (GObject *object)
{
  PaddockClient *self = PADDOCK_CLIENT (object);

  g_assert (self->connecting == NULL);
  g_assert (g_queue_is_empty (&self->requests));
  g_assert (g_queue_is_empty (&self->flushes));
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->buffer, g_free);
  g_clear_pointer (&self->reader, paddock_line_reader_free);
  g_queue_clear_full (&self->writes, g_free);
  g_clear_pointer (&self->hello, paddock_message_free);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->lock, g_free);
  G_OBJECT_CLASS (paddock_client_parent_class)->finalize (object);
}

static void
paddock_client_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PaddockClient *self = PADDOCK_CLIENT (object);

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    case PROP_LOCK:
      g_value_set_string (value, self->lock);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_CLOSED:
      g_value_set_boolean (value, self->closed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static guint
new_message_signal (const char *name)
{
  return g_signal_new (name, PADDOCK_TYPE_CLIENT, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                       G_TYPE_NONE, 1, PADDOCK_TYPE_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
paddock_client_class_init (PaddockClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = paddock_client_dispose;
  object_class->finalize = paddock_client_finalize;
  object_class->get_property = paddock_client_get_property;

  properties[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOCK] =
    g_param_spec_string ("lock", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CLOSED] =
    g_param_spec_boolean ("closed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_MESSAGE] = new_message_signal ("message");
  signals[SIGNAL_HELLO] = new_message_signal ("hello");
  signals[SIGNAL_EXEC] = new_message_signal ("exec");
  signals[SIGNAL_ASK] = new_message_signal ("ask");
  signals[SIGNAL_DECIDED] = new_message_signal ("decided");
  signals[SIGNAL_NET] = new_message_signal ("net");
  signals[SIGNAL_SECRET] = new_message_signal ("secret");
  signals[SIGNAL_HOME] = new_message_signal ("home");
  signals[SIGNAL_EXIT] = new_message_signal ("exit");
  signals[SIGNAL_LOCK_STATUS] = new_message_signal ("lock-status");
  signals[SIGNAL_KILL] = new_message_signal ("kill");
  signals[SIGNAL_PAUSE] = new_message_signal ("pause");
  signals[SIGNAL_RESUME] = new_message_signal ("resume");
  signals[SIGNAL_NOTICE] = new_message_signal ("notice");
  signals[SIGNAL_REFUSED] = new_message_signal ("refused");
  signals[SIGNAL_BAD_MESSAGE] =
    g_signal_new ("bad-message", PADDOCK_TYPE_CLIENT, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed", PADDOCK_TYPE_CLIENT, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
paddock_client_init (PaddockClient *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->cancellable = g_cancellable_new ();
  self->buffer = g_malloc (READ_SIZE);
  self->reader = paddock_line_reader_new (PADDOCK_PROTOCOL_MAX_EVENT_LINE);
  g_queue_init (&self->writes);
  g_queue_init (&self->requests);
  g_queue_init (&self->flushes);
}
