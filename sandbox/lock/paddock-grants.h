/* paddock-grants.h: what the folder lock grants, as a list of paths and rights
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-path.h"

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PADDOCK_ACCESS_READ    = 1 << 0,  /* read files, list directories */
  PADDOCK_ACCESS_EXECUTE = 1 << 1,
  PADDOCK_ACCESS_WRITE   = 1 << 2,  /* write, create, remove, rename, truncate */
  PADDOCK_ACCESS_DEVICE  = 1 << 3,  /* ioctl on device files (terminals) */
  PADDOCK_ACCESS_LIST    = 1 << 4,  /* list directories, no more: a folder on the way to a denied one */
} PaddockAccess;

#define PADDOCK_ACCESS_READ_ONLY  (PADDOCK_ACCESS_READ | PADDOCK_ACCESS_EXECUTE)
#define PADDOCK_ACCESS_READ_WRITE (PADDOCK_ACCESS_READ | PADDOCK_ACCESS_EXECUTE | PADDOCK_ACCESS_WRITE)

typedef struct
{
  char          *path;    /* absolute and canonical */
  PaddockAccess  access;
} PaddockGrant;

PaddockGrant *paddock_grant_new  (const char    *path,
                                  PaddockAccess  access);
void          paddock_grant_free (PaddockGrant  *grant);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockGrant, paddock_grant_free)

/* Returns the names in directory @path, or NULL when it cannot be listed. */
typedef char ** (*PaddockListDir) (const char *path,
                                   gpointer    user_data);

const char *paddock_grants_find_denial (const char         *path,
                                        const char * const *denials);
const char *paddock_grants_find_denial_beneath (const char         *path,
                                                const char * const *denials);

GPtrArray *paddock_grants_expand  (GPtrArray          *roots,
                                   const char * const *denials,
                                   PaddockListDir      list_dir,
                                   gpointer            user_data);

G_END_DECLS
