/* paddock-project-net.h: a project's saved network-lock choice and host lists
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The members "network" ("locked" or "open") and "hosts" ({"allow": [...],
 * "deny": [...]}) of the project's settings (paddock-project-config.h),
 * read and changed here for the window and paddockctl. Every change keeps
 * the file's other members; settings that do not read are left as they
 * are and the change fails. Main thread or any one thread at a time: the
 * file is replaced whole, so two writers race as for the lock choice.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean   has_network;  /* FALSE: no choice saved (open) */
  gboolean   locked;       /* "network": "locked" */
  char     **allow;        /* "hosts"."allow": "example.org", "*.example.org", "NAME:PORT"; never NULL */
  char     **deny;         /* "hosts"."deny", the same; never NULL */
} PaddockProjectNet;

/* Reads @project's (canonical path) network settings; none saved is an
 * open network and empty lists. FALSE with @error where the file does
 * not read or a member is not as it should be. */
gboolean  paddock_project_net_load          (const char         *project,
                                             PaddockProjectNet  *net,
                                             GError            **error);
void      paddock_project_net_clear         (PaddockProjectNet  *net);

gboolean  paddock_project_net_save_locked   (const char         *project,
                                             gboolean            locked,
                                             GError            **error);

/* Whether @pattern is a host pattern the lists take: a name or "*." and a
 * name, of letters, digits, '-' and '.', optionally ":PORT". */
gboolean  paddock_project_net_pattern_valid (const char         *pattern);

/* Puts @pattern in the list @list ("allow" or "deny") and takes it out of
 * the other one; a pattern already there stays once. */
gboolean  paddock_project_net_add_host      (const char         *project,
                                             const char         *list,
                                             const char         *pattern,
                                             GError            **error);
/* Takes @pattern out of both lists; TRUE also where it was in neither. */
gboolean  paddock_project_net_remove_host   (const char         *project,
                                             const char         *pattern,
                                             GError            **error);

G_END_DECLS
