/* paddock-path.h: where a path lies, lexically
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where @path is @dir or lies beneath it, the rest of @path after @dir
 * ("" or "/…"); else NULL. Only the names are compared, so both should be
 * canonical; @dir may end in slashes, and "/" holds every absolute path. */
const char *paddock_path_beneath   (const char *path,
                                    const char *dir);

/* TRUE when @path is @dir or lies beneath it (paddock_path_beneath()). */
gboolean    paddock_path_is_within (const char *path,
                                    const char *dir);

/* @path made absolute from @cwd where it is relative, its . and ..
 * resolved lexically (symlinks are not followed); NULL when it is
 * relative and @cwd is NULL or not absolute. */
char       *paddock_path_resolve   (const char *path,
                                    const char *cwd);

G_END_DECLS
