/* paddock-client.h: one connection to a paddock-run session, for paddockctl, the window and the tests
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A client lives on the thread-default main context it was made on, and
 * emits its signals there. Reading starts at that context's next
 * iteration, never inside the call or callback that hands the client
 * over, so whoever gets it can connect to its signals first.
 *
 * Every message the session sends is emitted once as "message" (in the
 * order it came, whatever its type) and then on the signal of its type:
 * "hello", "exec", "ask", "decided", "net", "secret", "home", "exit",
 * "lock-status", "kill", "pause", "resume", "notice", and "refused" for
 * an error reply. A line that is not a valid message is reported on
 * "bad-message" and skipped: the connection goes on. The end of the connection is
 * "closed", once, with NULL where the session said it ended (or the
 * client was closed here) and an error naming the session otherwise.
 */
#pragma once

#include <gio/gio.h>

#include "paddock-protocol.h"

G_BEGIN_DECLS

#define PADDOCK_CLIENT_ERROR (paddock_client_error_quark ())

typedef enum
{
  PADDOCK_CLIENT_ERROR_NOT_FOUND,  /* no running session has that id */
  PADDOCK_CLIENT_ERROR_AMBIGUOUS,  /* the id begins more than one session's */
  PADDOCK_CLIENT_ERROR_STALE,      /* the socket is there and nobody listens on it */
  PADDOCK_CLIENT_ERROR_STOPPED,    /* its paddock-run is stopped (^Z, SIGSTOP, a debugger) */
  PADDOCK_CLIENT_ERROR_SILENT,     /* it took the connection and said nothing in time */
  PADDOCK_CLIENT_ERROR_REFUSED,    /* it said no: an error instead of a greeting, or to a request */
  PADDOCK_CLIENT_ERROR_PROTOCOL,   /* it did not start with a greeting */
  PADDOCK_CLIENT_ERROR_CLOSED,     /* the connection closed before the session ended */
  PADDOCK_CLIENT_ERROR_BROKEN,     /* reading or writing failed */
  PADDOCK_CLIENT_ERROR_TIMED_OUT,  /* a request was not confirmed in time */
} PaddockClientError;

#define PADDOCK_TYPE_CLIENT (paddock_client_get_type ())

G_DECLARE_FINAL_TYPE (PaddockClient, paddock_client, PADDOCK, CLIENT, GObject)

GQuark                paddock_client_error_quark       (void);

/* The control sockets of the running sessions (and of ones that died
 * without removing theirs), sorted. */
GPtrArray            *paddock_client_list_sockets      (GError              **error);
/* The session id a socket path names. */
char                 *paddock_client_session_of_socket (const char           *socket_path);
/* The socket of the session whose id is, or uniquely begins with, @session. */
char                 *paddock_client_find_socket       (const char           *session,
                                                        GError              **error);

/* Connects to @socket_path and waits for the session's greeting (at most
 * @timeout_ms, 0 for 5 s); the client returned has its hello. @cancellable
 * stops the connect; the wait for the greeting ends with its timeout. */
void                  paddock_client_connect_async     (const char           *socket_path,
                                                        guint                 timeout_ms,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
PaddockClient        *paddock_client_connect_finish    (GAsyncResult         *result,
                                                        GError              **error);

/* A client on an inherited, connected Unix stream socket (paddock-run's
 * --control-fd); takes @fd. Its hello comes as a signal. */
PaddockClient        *paddock_client_new_for_fd        (int                   fd,
                                                        GError              **error);

/* The greeting, or NULL until it came. */
const PaddockMessage *paddock_client_get_hello         (PaddockClient        *self);
const char           *paddock_client_get_session_id    (PaddockClient        *self);
/* The lock the session reported ("off", "landlock", "namespaces"), or NULL. */
const char           *paddock_client_get_lock          (PaddockClient        *self);
gboolean              paddock_client_get_paused        (PaddockClient        *self);
gboolean              paddock_client_get_closed        (PaddockClient        *self);

/* Requests. Each is queued at once and written in order; FALSE with
 * @error only where the connection is already closed (a write that fails
 * later closes it, and "closed" says why). */
gboolean              paddock_client_send              (PaddockClient        *self,
                                                        const PaddockMessage *request,
                                                        GError              **error);
gboolean              paddock_client_decide            (PaddockClient        *self,
                                                        gint64                id,
                                                        PaddockDecision       decision,
                                                        PaddockRemember       remember,
                                                        GError              **error);

/* Sends kill, pause, resume or lock-status and waits for the session to
 * confirm it: a kill by its echo, or the session's end; the others by the
 * lock-status reply, which is the result (a PaddockMessage). An error
 * reply fails it with PADDOCK_CLIENT_ERROR_REFUSED and the session's
 * words; no confirmation within @timeout_ms (0: none) with _TIMED_OUT.
 * A kill confirmed by the connection closing has no message: NULL, and no
 * error. A client that asks for the lock-status (or decides) is one that
 * answers asks from then on; pause, resume and kill do not make it one. */
void                  paddock_client_request_async     (PaddockClient        *self,
                                                        PaddockMessageType    type,
                                                        guint                 timeout_ms,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
PaddockMessage       *paddock_client_request_finish    (PaddockClient        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* Done once everything queued before it is written to the socket (not
 * yet read by the session); fails with _CLOSED where the connection
 * closed first. */
void                  paddock_client_flush_async       (PaddockClient        *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean              paddock_client_flush_finish      (PaddockClient        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* Closes the connection; "closed" is emitted with no error. */
void                  paddock_client_close             (PaddockClient        *self);

G_END_DECLS
