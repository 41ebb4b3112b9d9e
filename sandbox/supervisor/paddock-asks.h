/* paddock-asks.h: the session's one ask registry: exec, secret and home asks share ids, deadlines, --on-ask and their messages
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever waits on the user (an exec held in the kernel, a program that
 * asks for a secret, a read of an asked entry of the home folder, later a
 * host) is registered here. The registry gives the ask its id (from the
 * same sequence as the exec events, so that decide names one ask only),
 * its deadline, sends its ask message to the clients (and again to each
 * client that attaches while it waits), decides it at once as --on-ask
 * says where no client can answer, takes a client's decide, refuses it
 * at its deadline, and sends the decided message with its kind. The
 * caller is told of the answer exactly once, then owns what follows
 * (remembering it, answering the kernel, the audit record of the use).
 * Main context only, but paddock_asks_next_id() and the functions marked
 * thread-safe, which the exec monitor's answering thread calls.
 */
#pragma once

#include "paddock-protocol.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PaddockAsks PaddockAsks;

/* What an ask becomes while no client that can decide is attached
 * (--on-ask): refused or let through at once, or held as with one,
 * until a client attaches and answers or its deadline passes. */
typedef enum
{
  PADDOCK_ON_ASK_DENY,
  PADDOCK_ON_ASK_ALLOW,
  PADDOCK_ON_ASK_WAIT,
} PaddockOnAsk;

/* How an ask ended: @decision is allow or deny; @remember the client's
 * scope (once where none was given); @by "user", "timeout", "no-client",
 * "gone", "remembered"…; @client_pid the answering client's pid, or -1. */
typedef void (*PaddockAskAnswered) (gint64           id,
                                    PaddockDecision  decision,
                                    PaddockRemember  remember,
                                    const char      *by,
                                    int              client_pid,
                                    gpointer         user_data);

/* Where the registry's ask and decided messages go, in order with the
 * session's other messages (paddock_control_monitor_func()); takes
 * @message. */
typedef void (*PaddockAsksFunc) (PaddockMessage *message,
                                 gpointer        user_data);

/* Asks wait @ask_timeout seconds at most (at least 1); @on_ask says what
 * they become while no client can answer. @context is where deadlines
 * run (NULL: the thread-default context); @func (may be NULL: nobody to
 * tell) gets the messages. */
PaddockAsks  *paddock_asks_new         (int                 ask_timeout,
                                        PaddockOnAsk        on_ask,
                                        GMainContext       *context,
                                        PaddockAsksFunc     func,
                                        gpointer            user_data);
/* Asks still pending are dropped: their destroy notifies run, their
 * callbacks do not. Withdraw them first (paddock_asks_withdraw()). */
void          paddock_asks_free        (PaddockAsks        *self);

/* Registers the ask @message describes (an ask message, its kind and the
 * fields of that kind filled; taken): sets its id (where it is -1), time
 * and deadline, announces it, and calls @answered once it is decided,
 * perhaps before this returns (--on-ask), then @destroy on @user_data.
 * An ask decided at once is not announced; its decided message is sent.
 * Returns the id. */
gint64        paddock_asks_add         (PaddockAsks        *self,
                                        PaddockMessage     *message,
                                        PaddockAskAnswered  answered,
                                        gpointer            user_data,
                                        GDestroyNotify      destroy);
/* Ends the pending ask @id as denied by @by (its process is gone, the
 * session ends) without a client's answer; FALSE where none is pending. */
gboolean      paddock_asks_withdraw    (PaddockAsks        *self,
                                        gint64              id,
                                        const char         *by);
/* Decides the pending ask @id (allow or deny) on behalf of @by ("user"
 * for a client's decide, "remembered", "rule" or "default" where the
 * policy as it now stands settles it) at the client @client_pid (-1:
 * none). Fails where @decision is neither or no ask @id is pending
 * (decided, timed out, or its process is gone). */
gboolean      paddock_asks_decide      (PaddockAsks        *self,
                                        gint64              id,
                                        PaddockDecision     decision,
                                        PaddockRemember     remember,
                                        const char         *by,
                                        int                 client_pid,
                                        GError            **error);
/* Within the answered callback of @id: what became of the answer, for
 * its decided message, which goes out now: the scope it was remembered
 * for (lowered where it could not be kept), and the rule that holds it
 * or decided it (or NULL). Without this call, the decided message goes
 * out as the answer came once the callback returns. */
void          paddock_asks_tell_decided (PaddockAsks       *self,
                                         gint64             id,
                                         PaddockRemember    remember,
                                         const char        *rule);
/* The asks still pending, oldest first, as ask messages (for a client
 * that attaches late). */
GPtrArray    *paddock_asks_dup_pending (PaddockAsks        *self);

/* The next id of the session's one sequence. Thread-safe. */
gint64        paddock_asks_next_id     (PaddockAsks        *self);
/* How many ids were given so far. Thread-safe. */
gint64        paddock_asks_get_n_ids   (PaddockAsks        *self);
/* How many attached clients can answer asks (the control server's
 * count). Thread-safe. */
void          paddock_asks_set_deciders (PaddockAsks       *self,
                                         guint              n_deciders);
/* What an ask made now becomes: allow or deny where no client can
 * answer and --on-ask decides it at once ("no-client"), else ask (it
 * is held). Thread-safe: the exec monitor's thread decides on the spot
 * by it. */
PaddockDecision paddock_asks_unattended (PaddockAsks       *self);
int           paddock_asks_get_timeout (PaddockAsks        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockAsks, paddock_asks_free)

G_END_DECLS
