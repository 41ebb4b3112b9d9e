/* paddock-path.c: where a path lies, lexically
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-path.h"

#include <string.h>

const char *
paddock_path_beneath (const char *path,
                      const char *dir)
{
  gsize length = strlen (dir);

  while (length > 0 && dir[length - 1] == '/')
    length--;
  if (length == 0)
    return path[0] == '/' && dir[0] == '/' ? path : NULL;
  if (strncmp (path, dir, length) != 0 || (path[length] != '\0' && path[length] != '/'))
    return NULL;
  return path + length;
}

gboolean
paddock_path_is_within (const char *path,
                        const char *dir)
{
  return paddock_path_beneath (path, dir) != NULL;
}

char *
paddock_path_resolve (const char *path,
                      const char *cwd)
{
  if (g_path_is_absolute (path))
    return g_canonicalize_filename (path, NULL);
  if (cwd == NULL || !g_path_is_absolute (cwd))
    return NULL;
  return g_canonicalize_filename (path, cwd);
}
