/* paddock-lock-private.h: what paddock-lock.c and paddock-lock-probe.c share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-lock.h"

G_BEGIN_DECLS

/* realpath() for paths that may not exist yet: the longest existing prefix
 * is resolved, the rest appended. */
char        *paddock_lock_canonicalize         (const char          *path);
/* Adds @path, canonical, to @denials unless it is there. */
void         paddock_lock_add_denial           (GPtrArray           *denials,
                                                const char          *path);
/* "~/PATH" under the home folder, an absolute path as it is; else NULL. */
char        *paddock_lock_expand_denial        (const char          *path);
/* The folders the lock keeps from the agent, canonical, NULL-terminated:
 * the built-in list and the user's deny.conf. */
GPtrArray   *paddock_lock_build_denials        (void);
/* Adds @project's own "deny" list (from its settings) to the
 * NULL-terminated @denials, canonical, before the NULL. FALSE where the
 * settings do not read. */
gboolean     paddock_lock_add_project_denials  (GPtrArray           *denials,
                                                const char          *project,
                                                GError             **error);
gboolean     paddock_lock_holds_forbidden      (const char          *real,
                                                const char * const  *denials,
                                                char               **home,
                                                const char         **denial);
/* @name: NULL (the best here), "landlock" or "namespaces". */
gboolean     paddock_lock_choose_backend       (const char          *name,
                                                PaddockLockBackend  *backend,
                                                GError             **error);
const char  *paddock_lock_namespace_error_text (int                  err);
/* paddock_lock_check_project() on @real (canonical), with @denials. */
gboolean     paddock_lock_check_canonical      (const char          *real,
                                                const char * const  *denials,
                                                char               **held_denial,
                                                GError             **error);

/* What a lock with @backend enforces here, in the protocol's words (see
 * paddock_lock_list_features()), without choosing the backend again. */
char       **paddock_lock_features_for         (PaddockLockBackend   backend);

G_END_DECLS
