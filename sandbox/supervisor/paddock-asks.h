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
 * Main context only, but paddock_asks_next_id(), which any thread may call.
 */
#pragma once

#include "paddock-exec-monitor.h"
#include "paddock-protocol.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PaddockAsks PaddockAsks;

/* How an ask ended: @decision is allow or deny; @remember the client's
 * scope (once where none was given); @by "user", "timeout", "no-client",
 * "gone", "remembered"…; @client_pid the answering client's pid, or -1. */
typedef void (*PaddockAskAnswered) (gint64           id,
                                    PaddockDecision  decision,
                                    PaddockRemember  remember,
                                    const char      *by,
                                    int              client_pid,
                                    gpointer         user_data);

/* Registers the ask @message describes (an ask message, its kind and the
 * fields of that kind filled; taken): sets its id (where it is -1), time
 * and deadline, announces it, and calls @answered once it is decided,
 * perhaps before this returns (--on-ask), then @destroy on @user_data.
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
/* The next id of the session's one sequence. Thread-safe. */
gint64        paddock_asks_next_id     (PaddockAsks        *self);

G_END_DECLS
