/* paddock-lock-git.c: the project's git hooks and config, which the user's git runs later, kept read-only
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Git writes its config through config.lock, renamed over config: the
 * rename over a mount point fails with EBUSY, and git says "could not
 * write config file .git/config: Device or resource busy"; a file made in
 * the hooks folder fails with EROFS.
 */
#include "config.h"

#include "paddock-grants.h"
#include "paddock-lock-git.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void
add_pin (GPtrArray     *pinned,
         const char    *path,
         PaddockAccess  access)
{
  g_autofree char *real = realpath (path, NULL);

  if (real == NULL)
    return;
  for (guint i = 0; i < pinned->len; i++)
    if (strcmp (((PaddockGrant *) g_ptr_array_index (pinned, i))->path, real) == 0)
      return;
  g_ptr_array_add (pinned, paddock_grant_new (real, access));
}

/* The folder @file's first line names after "gitdir: " (or, for
 * "commondir", the whole line), relative to @base; NULL where none. */
static char *
read_named_folder (const char *file,
                   const char *prefix,
                   const char *base)
{
  g_autofree char *text = NULL;
  g_autofree char *joined = NULL;
  char *line;
  char *end;

  if (!g_file_get_contents (file, &text, NULL, NULL) || !g_str_has_prefix (text, prefix))
    return NULL;
  line = text + strlen (prefix);
  end = strchr (line, '\n');
  if (end != NULL)
    *end = '\0';
  g_strstrip (line);
  if (*line == '\0')
    return NULL;
  joined = g_path_is_absolute (line) ? g_strdup (line) : g_build_filename (base, line, NULL);
  return realpath (joined, NULL);
}

/* The hooks and config of the repository @gitdir, and of its submodules'
 * repositories in modules/, any depth (a submodule's name may hold '/'). */
static void
add_repository (GPtrArray  *pinned,
                const char *gitdir,
                gboolean    config_writable,
                guint       depth)
{
  g_autofree char *hooks = g_build_filename (gitdir, "hooks", NULL);
  g_autofree char *config = g_build_filename (gitdir, "config", NULL);
  g_autofree char *modules = g_build_filename (gitdir, "modules", NULL);

  add_pin (pinned, hooks, PADDOCK_ACCESS_READ_ONLY);
  if (!config_writable)
    {
      g_autofree char *worktree_config = g_build_filename (gitdir, "config.worktree", NULL);
      g_autofree char *worktrees = g_build_filename (gitdir, "worktrees", NULL);
      g_autoptr(GDir) dir = g_dir_open (worktrees, 0, NULL);
      const char *name;

      add_pin (pinned, config, PADDOCK_ACCESS_READ_ONLY);
      /* With extensions.worktreeConfig, each worktree's own config: this
       * one's, and the linked ones', whose folders lie here. One made
       * under the lock is not kept: it is read only where the user set
       * that extension. */
      add_pin (pinned, worktree_config, PADDOCK_ACCESS_READ_ONLY);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *linked = g_build_filename (worktrees, name, "config.worktree", NULL);

          add_pin (pinned, linked, PADDOCK_ACCESS_READ_ONLY);
        }
    }
  if (depth < 8)
    {
      g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);

      g_ptr_array_add (folders, g_steal_pointer (&modules));
      /* A folder under modules/ is a repository where it has a HEAD, else on the way to one. */
      for (guint i = 0; i < folders->len && i < 1000; i++)
        {
          const char *folder = g_ptr_array_index (folders, i);
          g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *path = g_build_filename (folder, name, NULL);
              g_autofree char *head = g_build_filename (path, "HEAD", NULL);
              struct stat st;

              if (lstat (path, &st) != 0 || !S_ISDIR (st.st_mode))
                continue;
              if (g_file_test (head, G_FILE_TEST_IS_REGULAR))
                add_repository (pinned, path, config_writable, depth + 1);
              else
                g_ptr_array_add (folders, g_steal_pointer (&path));
            }
        }
    }
}

static int
compare_pins (gconstpointer a,
              gconstpointer b)
{
  return strcmp ((*(PaddockGrant * const *) a)->path, (*(PaddockGrant * const *) b)->path);
}

GPtrArray *
paddock_lock_git_list_pinned (const char *project,
                              gboolean    config_writable)
{
  GPtrArray *pinned = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);
  g_autofree char *dot_git = g_build_filename (project, ".git", NULL);
  struct stat st;

  /* Followed where it is a link: the folder it names is kept, though a
   * link in the project the agent may replace. */
  if (stat (dot_git, &st) != 0)
    return pinned;
  if (S_ISDIR (st.st_mode))
    {
      /* Writable within, but never renamed away and made again. */
      add_pin (pinned, dot_git, PADDOCK_ACCESS_READ_WRITE);
      add_repository (pinned, dot_git, config_writable, 0);
    }
  else if (S_ISREG (st.st_mode))
    {
      /* A linked worktree's (or a submodule's checkout's) .git file: the
       * repository it names, and that one's common folder. */
      g_autofree char *gitdir = read_named_folder (dot_git, "gitdir:", project);
      g_autofree char *commondir_file = NULL;
      g_autofree char *common = NULL;

      add_pin (pinned, dot_git, PADDOCK_ACCESS_READ_ONLY);
      if (gitdir == NULL)
        return pinned;
      commondir_file = g_build_filename (gitdir, "commondir", NULL);
      common = read_named_folder (commondir_file, "", gitdir);
      if (!config_writable)
        {
          g_autofree char *worktree_config = g_build_filename (gitdir, "config.worktree", NULL);

          add_pin (pinned, worktree_config, PADDOCK_ACCESS_READ_ONLY);
        }
      add_repository (pinned, common != NULL ? common : gitdir, config_writable, 0);
    }
  g_ptr_array_sort (pinned, compare_pins);
  return pinned;
}
