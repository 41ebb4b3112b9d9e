/* paddock-net-lock.h: the network lock's enforcement: the agent's own network namespace
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under --net=locked the agent runs in a network namespace of its own,
 * with only its loopback up. paddock_net_lock_new() checks, in the parent
 * before the fork, that one can be made here (by trying it in a short
 * child), and makes the socket pair the listeners are handed over on;
 * paddock_net_lock_enter() makes it in the child, before the folder lock
 * is entered: it listens on 127.0.0.1 (and ::1 where it can) on the
 * proxy's port and each allowed port, sends each listener to the
 * supervisor ("proxy" or "port N", see paddock-net-proxy.h), and closes
 * its end. Where no network namespace can be made (no user namespaces,
 * and not root), Landlock's TCP rules (ABI 4) let the agent connect only
 * to the proxy, which paddock-run then serves on the host's loopback on a
 * port the kernel picks, and to the allowed ports (on any address: the
 * rules know ports only), and a seccomp filter refuses every socket but
 * TCP's, Unix and netlink. Without either nothing starts: the lock never
 * fails open.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PADDOCK_NET_LOCK_PROXY_PORT 3128

typedef struct _PaddockNetLock PaddockNetLock;

/* @allow_ports: the host loopback ports forwarded in, or NULL; @n_ports
 * of them. Without @folder_lock (which drops every capability) the
 * network namespace always comes with a user namespace of its own, so
 * that root's capabilities reach nothing outside it. Fails, saying why,
 * where neither a network namespace nor Landlock's TCP rules can be had. */
PaddockNetLock *paddock_net_lock_new          (const guint16       *allow_ports,
                                               guint                n_ports,
                                               gboolean             folder_lock,
                                               GError             **error);
void            paddock_net_lock_free         (PaddockNetLock      *net);
/* "net-namespace" or "net-landlock-tcp": what the lock uses. */
const char     *paddock_net_lock_get_mechanism (PaddockNetLock    *net);
/* Under Landlock's TCP rules, paddock-run's listener for the proxy on the
 * host's loopback (for paddock_net_proxy_add_listener()), once; -1 with a
 * network namespace, or after. */
int             paddock_net_lock_steal_host_listener (PaddockNetLock *net);
/* The supervisor's end of the hand-over socket (for
 * paddock_net_proxy_take_handover()), once, right after the fork; -1
 * after, and under Landlock's TCP rules. The child's end is closed here too. */
int             paddock_net_lock_steal_handover (PaddockNetLock    *net);
guint16         paddock_net_lock_get_proxy_port (PaddockNetLock    *net);
/* Sets the proxy variables (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY
 * and their lower-case forms) in our own environment, which the agent
 * inherits: before any thread. With @connect_helper (paddock-net-connect's
 * path), GIT_SSH_COMMAND too, where neither it nor GIT_SSH is set: ssh
 * with the helper as its ProxyCommand. */
void            paddock_net_lock_set_environment (PaddockNetLock   *net,
                                                  const char       *connect_helper);
/* In the child, after the fork, before the folder lock: only system calls.
 * Returns 0, or an errno with *@step set for paddock_net_lock_step_name(). */
int             paddock_net_lock_enter        (PaddockNetLock      *net,
                                               int                 *step);
const char     *paddock_net_lock_step_name    (int                  step);

/* What --net=locked would use here: "net-namespace", "net-landlock-tcp",
 * or NULL with *@reason
 * (a new string) saying why none can start. Forks a child to try. */
char           *paddock_net_lock_probe        (char               **reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockNetLock, paddock_net_lock_free)

G_END_DECLS
