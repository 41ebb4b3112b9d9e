/* paddock-build-tree.c: finds Paddock's own parts when it runs from its build folder
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-build-tree.h"

#include <stdlib.h>
#include <string.h>

static char *
get_build_root (void)
{
  g_autofree char *root = g_path_get_dirname (BUILD_SANDBOX_DIR);

  return realpath (root, NULL);
}

/**
 * paddock_build_tree_contains_self:
 *
 * Tells whether the running program is a build-tree copy (the paddock
 * binary or a test), so that it uses the paddock-run, schemas and data
 * built beside it rather than an older installed copy.
 *
 * Returns: %TRUE when /proc/self/exe lies under the build folder
 */
gboolean
paddock_build_tree_contains_self (void)
{
  g_autofree char *exe = realpath ("/proc/self/exe", NULL);
  g_autofree char *root = get_build_root ();
  size_t root_len;

  if (exe == NULL || root == NULL)
    return FALSE;

  root_len = strlen (root);
  return strncmp (exe, root, root_len) == 0 && exe[root_len] == '/';
}

/**
 * paddock_build_tree_get_path:
 * @relative: a path inside the build folder, such as "data"
 *
 * Returns: (transfer full): the absolute path of @relative in the build folder
 */
char *
paddock_build_tree_get_path (const char *relative)
{
  g_autofree char *root = g_path_get_dirname (BUILD_SANDBOX_DIR);

  g_return_val_if_fail (relative != NULL, NULL);

  return g_build_filename (root, relative, NULL);
}
