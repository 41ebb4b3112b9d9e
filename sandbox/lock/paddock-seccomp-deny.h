/* paddock-seccomp-deny.h: the seccomp filter that refuses what the folder lock must not allow
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <linux/filter.h>

G_BEGIN_DECLS

typedef struct
{
  struct sock_fprog program;  /* filter points into the struct's own buffer */
} PaddockSeccompDeny;

PaddockSeccompDeny *paddock_seccomp_deny_new     (GError            **error);
/* The network lock's filter where it has no network namespace: sockets
 * of the internet families for TCP only, none of other families that
 * reach a network, no TCP Fast Open, no io_uring. */
PaddockSeccompDeny *paddock_seccomp_deny_new_for_network (GError    **error);
void                paddock_seccomp_deny_free    (PaddockSeccompDeny *deny);
int                 paddock_seccomp_deny_install (PaddockSeccompDeny *deny);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockSeccompDeny, paddock_seccomp_deny_free)

G_END_DECLS
