/* paddock-project-store.c: where each project's own files live
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-project-store.h"
#include "paddock-xdg.h"

char *
paddock_project_store_dir (void)
{
  return g_build_filename (paddock_user_config_dir (), "paddock", "projects", NULL);
}

char *
paddock_project_store_key (const char *project)
{
  g_return_val_if_fail (project != NULL, NULL);

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
}

char *
paddock_project_store_path (const char *project,
                            const char *suffix)
{
  g_autofree char *dir = paddock_project_store_dir ();
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (project != NULL && suffix != NULL, NULL);

  hash = paddock_project_store_key (project);
  name = g_strconcat (hash, suffix, NULL);
  return g_build_filename (dir, name, NULL);
}
