/* paddock-project-store.h: where each project's own files live
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * $XDG_CONFIG_HOME/paddock/projects holds, per project, its settings (the
 * lock, grants), its policy overrides and remembered answers: outside the
 * project and outside every grant, so a locked agent cannot rewrite what
 * it is allowed. A project's files are named by the SHA-256 of its
 * canonical path, computed here and nowhere else. Any thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *paddock_project_store_dir  (void);
/* The SHA-256 of @project (canonical), in hex: its files' names, and the
 * folder of its tool caches' layers (sandbox/lock/paddock-cache-layers.h). */
char *paddock_project_store_key  (const char *project);
/* "<dir>/<sha256 of @project><@suffix>"; @project canonical. */
char *paddock_project_store_path (const char *project,
                                  const char *suffix);

G_END_DECLS
