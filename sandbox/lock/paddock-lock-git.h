/* paddock-lock-git.h: the project's git hooks and config, which the user's git runs later, kept read-only
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hook the agent wrote under the lock would run, unlocked, on the user's
 * next commit; a core.fsmonitor it set in .git/config on the next git
 * status. Under the lock the project's git hooks and config are read-only
 * mounts over themselves in the agent's mount namespace (its submodules'
 * too, and each worktree's config.worktree), and the .git folder is bound over itself, so that it cannot be
 * renamed away and replaced; everything else in .git stays writable, so
 * commits, branches and rebases work. A linked worktree's .git file, which
 * names the repository, is read-only too; the repository it names keeps
 * whatever the lock grants it (read-only, outside the project and the
 * grants). A project that opts in ("git-config": "writable" in its
 * settings) keeps its config writable; its hooks never are. A project
 * without .git has nothing to keep.
 *
 * Where the lock has no mount namespace (Landlock, with no user namespace
 * allowed), nothing keeps them: paddock-run --lock-status says so. Called
 * in the parent, before the lock's child is made.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What to pin in @project (canonical), as PaddockGrant (path and access,
 * parents first): the .git folder read-write, the rest read-only. Never
 * NULL; empty where the project has no .git. */
GPtrArray *paddock_lock_git_list_pinned (const char *project,
                                         gboolean    config_writable);

G_END_DECLS
