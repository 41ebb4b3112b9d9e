/* paddock-net-proxy.h: the network lock's proxy: the only way out of the agent's network namespace
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under --net=locked the agent's network namespace has only its own
 * loopback; on it, the lock's child listens on the proxy's port and hands
 * the listener to paddock-run, which serves it here: HTTP (CONNECT for
 * TLS, never decrypted, and plain forwarding) and SOCKS5 with host names.
 * Each connection is decided on the name the client asked for (the
 * session's and project's allowed and denied host patterns, the presets),
 * then on the address it resolves to (loopback, RFC 1918, link-local and
 * ULA refused unless the name is allowed by --resolve or explicitly); a
 * name nobody listed is asked through the session's ask registry (kind
 * "host"). Every connection is a net message and an audit record. Host
 * loopback ports named by --allow-port are forwarded from listeners the
 * child hands over too. Main context; relaying may use threads of its own.
 */
#pragma once

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-protocol.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct _PaddockNetProxy PaddockNetProxy;

typedef void (*PaddockNetProxyFunc) (const PaddockMessage *message,
                                     gpointer              user_data);

typedef struct
{
  const char          *project;      /* where "Allow Host in This Project" is kept */
  const char * const  *allow_hosts;  /* "example.org", "*.example.org", optional ":PORT"; NULL-terminated or NULL */
  const char * const  *deny_hosts;
  const char * const  *resolve;      /* "NAME=ADDR", as curl's --resolve; such a name counts as allowed */
  const char * const  *presets;      /* names of the preset host lists to allow, or NULL: the session's defaults */
  PaddockAudit        *audit;        /* or NULL; borrowed for the proxy's life */
} PaddockNetProxyConfig;

/* Fails on a pattern, address or preset that does not read, naming it. */
PaddockNetProxy *paddock_net_proxy_new          (const PaddockNetProxyConfig *config,
                                                 GError                     **error);
/* The lock's hand-over socket (taken): the child sends, one message each,
 * the proxy's listener ("proxy") and each forwarded port's ("port N"),
 * as SCM_RIGHTS with those bytes; then closes it. */
void             paddock_net_proxy_take_handover (PaddockNetProxy            *self,
                                                 int                          socket_fd);
/* A listener to serve directly (tests, and where no hand-over is needed). */
void             paddock_net_proxy_add_listener (PaddockNetProxy             *self,
                                                 int                          fd);
void             paddock_net_proxy_add_forward  (PaddockNetProxy             *self,
                                                 int                          fd,
                                                 guint16                      host_port);
void             paddock_net_proxy_set_agent    (PaddockNetProxy             *self,
                                                 pid_t                        agent_pid);
void             paddock_net_proxy_set_asks     (PaddockNetProxy             *self,
                                                 PaddockAsks                 *asks);
void             paddock_net_proxy_set_func     (PaddockNetProxy             *self,
                                                 PaddockNetProxyFunc          func,
                                                 gpointer                     user_data);
/* How long a client has to send its whole request (10 s unless set):
 * one that sends a byte a second is answered 408 and closed. */
void             paddock_net_proxy_set_head_timeout (PaddockNetProxy        *self,
                                                     guint                   milliseconds);
/* Closes every connection, held ones refused. */
void             paddock_net_proxy_free         (PaddockNetProxy             *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockNetProxy, paddock_net_proxy_free)

G_END_DECLS
