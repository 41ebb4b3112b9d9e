/* paddock-vault-broker.h: the vault socket: paddock-secret asks, the supervisor runs the program with the secret
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddock-run listens on $XDG_RUNTIME_DIR/paddock-vault-XXXXXX/vault.sock
 * (folder 0700, socket 0600) and names it to the agent in
 * $PADDOCK_VAULT_SOCKET. Under the folder lock that folder is granted
 * read-only, so the lock's private $XDG_RUNTIME_DIR keeps it visible at the
 * same path (a named socket survives programs that close every inherited
 * descriptor, as Python's subprocess does). Only processes of the agent's
 * tree (SO_PEERCRED) are served.
 *
 * The request, one per connection: for "run", paddock-secret's standard
 * input, output and error, each as SCM_RIGHTS on one NUL byte, then one
 * JSON line:
 *
 *   {"type":"run","argv":[…],"env":[{"var":"GITHUB_TOKEN","name":"gh"}],
 *    "stdin":"NAME","environ":["K=V",…],"tty":true,"tty_input":true}
 *   {"type":"list"}
 *
 * ("stdin", "tty" and "tty_input" optional; vault-client/paddock-vault-request.h
 * reads and writes them). The broker answers with one JSON line:
 *
 *   {"type":"exit","exit_code":N}   or {"type":"exit","signal":N}
 *   {"type":"error","message":"…","exit_code":N}
 *   {"type":"list","secrets":[{"name":…,"mode":…,"pinned":BOOL},…]}
 *
 * and, while the program runs, reads {"type":"signal","signal":N} lines,
 * which it passes on to the program's process group. With "tty", the
 * program's output goes through a pseudo-terminal of the broker's; with
 * "tty_input" too, paddock-secret's "stdin" descriptor is a pipe it
 * forwards its terminal's input into, which the broker copies into the
 * pty (paddock-run, in the background of that terminal, could not read
 * it). Other input (a pipe, a file) is the program's own stdin.
 *
 * The program is resolved by the broker (along the request's PATH, from
 * the caller's working directory), opened, hashed (SHA-256) and executed
 * from that open file (execveat AT_EMPTY_PATH); it is forked from
 * paddock-run, not from the agent, and enters the session's folder lock
 * on its own, in a Landlock domain that is not the agent's: the agent can
 * neither read its memory or /proc/PID/environ nor signal or trace it. Its
 * output passes through the redactor on its way to paddock-secret's
 * descriptors. Errors the agent is told name the secret and the reason,
 * never a value. Main thread, except the output pumps (a thread each).
 */
#pragma once

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-control.h"
#include "paddock-lock.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define PADDOCK_VAULT_SOCKET_ENV "PADDOCK_VAULT_SOCKET"

/* The longest request line: argv and the caller's environment. */
#define PADDOCK_VAULT_MAX_REQUEST (1024 * 1024)

typedef struct _PaddockVaultBroker PaddockVaultBroker;

typedef struct
{
  const char         *project;      /* canonical; the secrets it sees */
  pid_t               agent_pid;    /* only its tree is served */
  PaddockLock        *lock;         /* the session's folder lock, or NULL */
  PaddockAudit       *audit;        /* or NULL */
  PaddockControl     *control;      /* or NULL: nobody to tell of a use */
  PaddockAsks        *asks;         /* required: the session's ask registry */
  int                 ask_timeout;  /* seconds a call to the vault may take */
  gboolean            net_locked;   /* the session is under the network lock, which the
                                     * programs the broker starts cannot be put under yet:
                                     * every use is refused rather than given the open
                                     * network */
} PaddockVaultBrokerConfig;

/* Makes the socket's folder and listens, before the lock is made (it
 * grants the folder). Serves nothing until paddock_vault_broker_start(). */
PaddockVaultBroker *paddock_vault_broker_new             (GError                         **error);
/* The folder the lock must grant read-only, and the socket in it. */
const char         *paddock_vault_broker_get_folder      (PaddockVaultBroker              *self);
const char         *paddock_vault_broker_get_socket_path (PaddockVaultBroker              *self);
/* Serves requests on the thread-default main context. @config's pointers
 * must outlive the broker. */
void                paddock_vault_broker_start           (PaddockVaultBroker              *self,
                                                          const PaddockVaultBrokerConfig  *config);
/* For the supervisor's reaper: TRUE where @pid was a program the broker
 * started, whose wait @status it takes. */
gboolean            paddock_vault_broker_child_exited    (PaddockVaultBroker              *self,
                                                          pid_t                            pid,
                                                          int                              status);
/* Stops serving, removes the socket and its folder. */
void                paddock_vault_broker_free            (PaddockVaultBroker              *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockVaultBroker, paddock_vault_broker_free)

G_END_DECLS
