/* paddock-control.h: the control server clients attach to, to watch and steer a session
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Serves the protocol (paddock-protocol.h) on the main context: on an
 * inherited socket (--control-fd, the GUI) and on a socket of its own,
 * $XDG_RUNTIME_DIR/paddock/SESSION.sock (directory 0700, socket 0600).
 * Peers of the socket must have paddock-run's uid and must not be inside
 * the agent's process tree: the agent never approves its own request.
 *
 * A client gets hello, the recent timeline, then the asks still pending,
 * then every message live. A client that has sent a request (lock-status
 * is the natural first one), and the inherited client from the start,
 * counts as one that can answer asks; with none, asks follow --on-ask.
 */
#pragma once

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-control-socket.h"
#include "paddock-exec-monitor.h"
#include "paddock-protocol.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct _PaddockControl PaddockControl;

typedef struct
{
  const char          *session_id;
  const char          *project;
  const char * const  *command;
  pid_t                agent_pid;
  pid_t                tree_root;   /* paddock-run: every process below it is the agent's */
  const char          *lock;        /* "off", "landlock", "namespaces" */
  const char * const  *lock_features; /* what the lock enforces (paddock-lock.h), or NULL */
  const char          *network;     /* "off", "on" */
} PaddockControlSession;

/* A new random session id: 12 lowercase hex digits. */
char           *paddock_control_new_session_id    (void);

/* @audit may be NULL. */
PaddockControl *paddock_control_new               (const PaddockControlSession  *session,
                                                   PaddockAudit                 *audit);
void            paddock_control_free              (PaddockControl               *self);

/* Hello's kernel features come from @monitor, which is flushed before a
 * kill, pause or resume is told. Its messages reach clients through
 * paddock_control_monitor_func(). */
void            paddock_control_set_monitor       (PaddockControl               *self,
                                                   PaddockExecMonitor           *monitor);
/* Every ask, of whatever kind, is in @asks (may be NULL: nothing to
 * decide): a client's decide goes there, a client that attaches gets its
 * pending asks, and it is told how many clients can answer. Its
 * messages reach clients through paddock_control_monitor_func().
 * @asks must outlive the server, or be unset first. */
void            paddock_control_set_asks          (PaddockControl               *self,
                                                   PaddockAsks                  *asks);

/* Whether @fd is what a client on --control-fd must be: a Unix stream
 * socket (the window's end of a socket pair). */
gboolean        paddock_control_check_client_fd   (int                           fd,
                                                   GError                      **error);
/* Serves an inherited connected unix stream socket; takes @fd. Its client
 * answers asks from the start where @answers, else (as one on the socket)
 * once it decides or asks for the status. */
gboolean        paddock_control_add_client_fd     (PaddockControl               *self,
                                                   int                           fd,
                                                   gboolean                      answers,
                                                   GError                      **error);
/* Listens on the session's socket. */
gboolean        paddock_control_listen            (PaddockControl               *self,
                                                   GError                      **error);
const char     *paddock_control_get_socket_path   (PaddockControl               *self);

/* Sends @message to every client (and keeps it for clients attaching later). */
void            paddock_control_broadcast         (PaddockControl               *self,
                                                   const PaddockMessage         *message);
/* The same, and takes @message. */
void            paddock_control_broadcast_take    (PaddockControl               *self,
                                                   PaddockMessage               *message);
/* Says @text, something the session's user should know (rules it cannot
 * read, an answer it cannot remember), to every client as a notice; and
 * on the session's terminal (paddock-run's stderr) unless the client on
 * --control-fd is attached: that one (the window) shows the terminal,
 * and says it there instead of among the agent's output. Where stderr
 * is a terminal, the agent's, it is said there only at the session's end
 * (paddock_control_session_end()), each text once: never into a
 * full-screen agent's display. @self may be NULL (nobody to tell but the
 * terminal). Main thread. */
void            paddock_control_notice            (PaddockControl               *self,
                                                   const char                   *text);

/* Usable directly as a PaddockExecMonitorFunc and a PaddockAsksFunc with
 * the control as user data. */
void            paddock_control_monitor_func      (PaddockMessage               *message,
                                                   gpointer                      user_data);

/* Whether a client paused the session (the supervisor must then leave the
 * stopped agent alone). */
gboolean        paddock_control_get_paused        (PaddockControl               *self);
/* Resumes a paused session so that @signo, a signal that ends programs
 * (SIGTERM, SIGHUP, SIGINT, SIGQUIT) just passed on to the agent, reaches
 * it: stopped, the agent would hold it until a resume that may never come
 * (the terminal that would give it closed). Recorded and told to clients
 * as a resume by "signal". Nothing, and FALSE, when the session is not
 * paused. */
gboolean        paddock_control_resume_for_signal (PaddockControl               *self,
                                                   int                           signo);
/* Kills the agent's whole tree for @signo, a signal that ends programs
 * which the agent of a paused session was resumed for and outlived.
 * Recorded and told to clients as a kill by "signal". */
void            paddock_control_kill_for_signal   (PaddockControl               *self,
                                                   int                           signo);

/* Tells clients the session ended (the agent's exit code, or -1 and the
 * signal), gives them a moment to read it, and closes every connection
 * and the socket. */
void            paddock_control_session_end       (PaddockControl               *self,
                                                   int                           exit_code,
                                                   int                           signal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockControl, paddock_control_free)

G_END_DECLS
