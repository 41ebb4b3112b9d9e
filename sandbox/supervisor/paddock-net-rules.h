/* paddock-net-rules.h: what the network lock lets through, by name, and which addresses are private
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The proxy's lists: the user's denied and allowed host patterns, the
 * project's ("hosts" in its settings), the names --resolve gives an
 * address, the presets (net-presets.conf, compiled in) and the names
 * allowed for the session. A pattern is "example.org" or "*.example.org"
 * (names below it), with an optional ":PORT". Main context only.
 */
#pragma once

#include "paddock-protocol.h"

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _PaddockNetRules PaddockNetRules;

/* Fails on a pattern, a "NAME=ADDRESS" or a preset that does not read,
 * or on @project's settings that do not, naming it. @presets NULL: all
 * of them. */
PaddockNetRules *paddock_net_rules_new            (const char * const *allow,
                                                   const char * const *deny,
                                                   const char * const *resolve,
                                                   const char * const *presets,
                                                   const char         *project,
                                                   GError            **error);
void             paddock_net_rules_free           (PaddockNetRules    *self);
/* Allow, deny, or ask where nothing says; *@rule (owned) the rule that
 * decided ("deny PATTERN", "resolve NAME", "allow PATTERN", "preset LIST:
 * PATTERN"), or NULL for a name remembered for the session; *@exact
 * whether the user allowed this very name (--resolve, an exact pattern of
 * theirs, an answer), which alone may reach a private address. */
PaddockDecision  paddock_net_rules_decide         (PaddockNetRules    *self,
                                                   const char         *host,
                                                   guint16             port,
                                                   char              **rule,
                                                   gboolean           *exact);
/* The address --resolve gives @host, or NULL. */
GInetAddress    *paddock_net_rules_lookup_address (PaddockNetRules    *self,
                                                   const char         *host);
/* Allows @host for the rest of the session. */
void             paddock_net_rules_remember       (PaddockNetRules    *self,
                                                   const char         *host);

/* Whether @address (4 or 16 bytes, network order) is one a name may reach
 * only where the user allowed it exactly: loopback, RFC 1918, link-local,
 * ULA, 0.0.0.0/8, CGNAT 100.64/10, multicast, unspecified (and the same
 * as IPv4-mapped IPv6). */
gboolean         paddock_net_address_is_private   (const guint8       *address,
                                                   gsize               length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockNetRules, paddock_net_rules_free)

G_END_DECLS
