/* paddock-cache-layers.h: tool caches under the lock, copy-on-write
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the lock each tool cache (~/.npm, ~/.cache/pip, ~/.cargo/registry,
 * ~/.m2/repository, ~/.gradle/caches, Go's module and build caches) is an
 * overlay in the agent's mount namespace: reads come from the real cache,
 * writes go to a layer kept per project in
 * $XDG_STATE_HOME/paddock/caches/<SHA-256 of the project>/NAME, outside
 * the project and every grant, and never into the real cache, which the
 * user's own builds outside the lock trust. Where an overlay cannot be
 * made (no overlayfs, a kernel older than 5.11 in a user namespace, an
 * upper folder on a file system overlayfs refuses, a cache that is an
 * overlay itself), that cache stays read-only, as without this; the lock
 * never fails for it.
 *
 * Built in the parent by paddock_cache_layers_new(); the plan's child
 * calls paddock_cache_layers_make() right after its mounts turn private,
 * before any is made read-only, and paddock_cache_layers_attach() once
 * every other mount is made; under Landlock, paddock_cache_layers_grant()
 * before the ruleset is enforced. Those three only make system calls.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PaddockCacheLayers PaddockCacheLayers;

/* The caches of this home that exist and that the lock would otherwise
 * leave read-only: none within a writable grant (@grants, PaddockGrant),
 * none denied or holding a denied path (@denials). Makes each layer's
 * folders. A cache whose layer another session of @project holds stays
 * read-only in this one. Never NULL. */
PaddockCacheLayers *paddock_cache_layers_new    (const char          *project,
                                                 GPtrArray           *grants,
                                                 const char * const  *denials);
void                paddock_cache_layers_free   (PaddockCacheLayers  *self);

/* In the child: see above. Each returns 0: a layer that fails is left out. */
int                 paddock_cache_layers_make   (gpointer             self);
int                 paddock_cache_layers_attach (gpointer             self);
/* In the child, once attached: the overlays read-write in the Landlock
 * ruleset @ruleset_fd. Returns 0 or an errno. */
int                 paddock_cache_layers_grant  (PaddockCacheLayers  *self,
                                                 int                  ruleset_fd);

/* The caches' paths, canonical, NULL-terminated (a new array). */
char              **paddock_cache_layers_dup_paths (PaddockCacheLayers *self);

/* The folder the layers of @project (canonical) are kept in. */
char               *paddock_cache_layers_dir    (const char          *project);

/* Whether an overlay can be made here, tried in a short-lived child in a
 * mount namespace (in a user namespace where @user_namespace, as the lock
 * makes it), with its upper folder where the layers are kept. FALSE with
 * *@saved_errno and *@what (which step) where it cannot. */
gboolean            paddock_cache_layers_probe  (gboolean             user_namespace,
                                                 int                 *saved_errno,
                                                 char               **what);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockCacheLayers, paddock_cache_layers_free)

G_END_DECLS
