/* paddock-grants.c: what the folder lock grants, as a list of paths and rights
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Landlock only allows; it has no rule that takes a subtree away again. So
 * "the whole of $HOME readable, except ~/.ssh" is built here by granting,
 * along the path from each root down to each denied path, every sibling that
 * is not itself on the way to a denial. The directories on the way get no
 * rule of their own, since a rule on a directory covers all beneath it.
 *
 * This is a pure function of its inputs: the file system is only seen
 * through the list_dir callback, so the tests can hand it made-up trees.
 */
#include "config.h"

#include "paddock-grants.h"

#include <string.h>

PaddockGrant *
paddock_grant_new (const char    *path,
                   PaddockAccess  access)
{
  PaddockGrant *grant = g_new0 (PaddockGrant, 1);

  grant->path = g_strdup (path);
  grant->access = access;
  return grant;
}

void
paddock_grant_free (PaddockGrant *grant)
{
  if (grant == NULL)
    return;
  g_free (grant->path);
  g_free (grant);
}

/* Returns the denial that covers @path (is it, or an ancestor of it), or NULL. */
const char *
paddock_grants_find_denial (const char         *path,
                            const char * const *denials)
{
  for (guint i = 0; denials != NULL && denials[i] != NULL; i++)
    if (paddock_path_is_within (path, denials[i]))
      return denials[i];
  return NULL;
}

/* Returns the first of @denials strictly beneath @path, or NULL. */
const char *
paddock_grants_find_denial_beneath (const char         *path,
                                    const char * const *denials)
{
  for (guint i = 0; denials != NULL && denials[i] != NULL; i++)
    if (strcmp (path, denials[i]) != 0 && paddock_path_is_within (denials[i], path))
      return denials[i];
  return NULL;
}

typedef struct
{
  const char * const *denials;
  PaddockListDir      list_dir;
  gpointer            user_data;
  GPtrArray          *out;
  GHashTable         *index;  /* path → position in out, to merge repeats */
} Expansion;

static void
emit (Expansion     *ex,
      const char    *path,
      PaddockAccess  access)
{
  gpointer pos;

  if (g_hash_table_lookup_extended (ex->index, path, NULL, &pos))
    {
      PaddockGrant *grant = g_ptr_array_index (ex->out, GPOINTER_TO_UINT (pos));
      grant->access |= access;
      return;
    }
  g_hash_table_insert (ex->index, g_strdup (path), GUINT_TO_POINTER (ex->out->len));
  g_ptr_array_add (ex->out, paddock_grant_new (path, access));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
expand_path (Expansion     *ex,
             const char    *path,
             PaddockAccess  access)
{
  g_auto(GStrv) names = NULL;

  if (paddock_grants_find_denial (path, ex->denials) != NULL)
    return;
  if (paddock_grants_find_denial_beneath (path, ex->denials) == NULL)
    {
      emit (ex, path, access);
      return;
    }

  /* A directory that cannot be listed cannot be split: grant nothing of it. */
  names = ex->list_dir (path, ex->user_data);
  if (names == NULL)
    return;
  qsort (names, g_strv_length (names), sizeof (char *), compare_names);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *child = NULL;

      if (names[i][0] == '\0' || strchr (names[i], '/') != NULL ||
          strcmp (names[i], ".") == 0 || strcmp (names[i], "..") == 0)
        continue;
      child = strcmp (path, "/") == 0 ? g_strconcat ("/", names[i], NULL)
                                      : g_strconcat (path, "/", names[i], NULL);
      expand_path (ex, child, access);
    }
}

/* Turns @roots (PaddockGrant) into a list of grants that gives the same
 * rights, except nothing at or beneath any of @denials. All paths are
 * absolute and canonical. Repeated paths are merged, their rights joined.
 * Returns a new array of PaddockGrant, in a stable order. */
GPtrArray *
paddock_grants_expand (GPtrArray          *roots,
                       const char * const *denials,
                       PaddockListDir      list_dir,
                       gpointer            user_data)
{
  Expansion ex = {
    .denials = denials,
    .list_dir = list_dir,
    .user_data = user_data,
    .out = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free),
    .index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
  };

  g_return_val_if_fail (roots != NULL, NULL);
  g_return_val_if_fail (list_dir != NULL, NULL);

  for (guint i = 0; i < roots->len; i++)
    {
      PaddockGrant *root = g_ptr_array_index (roots, i);
      expand_path (&ex, root->path, root->access);
    }

  g_hash_table_unref (ex.index);
  return ex.out;
}
