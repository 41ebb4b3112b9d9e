/* paddock-namespaces.h: the folder lock's mount plans: the namespaces backend, and the private /tmp and /run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-home.h"
#include "paddock-cache-layers.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef enum
{
  /* The namespaces backend: user, mount and PID namespaces, every mount
   * read-only but the grants, a minimal /dev, the denied paths covered. */
  PADDOCK_NAMESPACES_LOCK,
  /* Under Landlock: a mount namespace (inside a user namespace where
   * paddock-run lacks CAP_SYS_ADMIN) for what Landlock does not govern:
   * the private places, every mount read-only but the writable grants,
   * the denied paths covered, a devpts of the agent's own. */
  PADDOCK_NAMESPACES_PRIVATE_PLACES,
} PaddockNamespacesKind;

/* What the plan is made from. Paths are canonical. */
typedef struct
{
  PaddockNamespacesKind  kind;
  const char            *project;
  const char            *home;     /* kept readable where it lies in a private place, unless it is one */
  GPtrArray             *kept;     /* PaddockGrant: what stays visible where it lies in a private place:
                                    * the project, --grant paths, the profile's state */
  GPtrArray             *grants;   /* PaddockGrant, expanded: the namespaces backend binds the writable ones */
  const char * const    *denials;
  PaddockHome           *home_kinds; /* which of the home folder's entries are open, closed or
                                    * asked; NULL: every entry bound back read-only */
  int                    view_socket; /* the child's end of the home view's socket, which the
                                       * /dev/fuse descriptor is sent over; -1: no view, the
                                       * asked entries are closed */
  GPtrArray             *pinned;   /* PaddockGrant, parents first, or NULL: bound over themselves with
                                    * their rights, after the grants (the project's git hooks and
                                    * config, read-only: paddock-lock-git.h) */
  PaddockCacheLayers    *caches;   /* or NULL: the tool caches' overlays, made and attached on the way */
} PaddockNamespacesSpec;

typedef struct _PaddockNamespaces PaddockNamespaces;

/* Whether the private places' mount namespace is made without a user
 * namespace: paddock-run may mount where it is. */
gboolean           paddock_namespaces_has_cap_sys_admin (void);
gboolean           paddock_namespaces_probe        (PaddockNamespacesKind        kind,
                                                    int                         *saved_errno,
                                                    char                       **what,
                                                    gboolean                    *hides_processes);
PaddockNamespaces *paddock_namespaces_new          (const PaddockNamespacesSpec *spec,
                                                    GError                     **error);
void               paddock_namespaces_free         (PaddockNamespaces           *ns);
pid_t              paddock_namespaces_clone        (void);
pid_t              paddock_namespaces_fork         (PaddockNamespaces           *ns);
gboolean           paddock_namespaces_in_pid_namespace (PaddockNamespaces       *ns);
int                paddock_namespaces_get_proc_errno (PaddockNamespaces         *ns);
int                paddock_namespaces_enter        (PaddockNamespaces           *ns,
                                                    int                         *step);
gboolean           paddock_namespaces_step_is_before_mounts (PaddockNamespaces  *ns,
                                                    int                          step);
GPtrArray         *paddock_namespaces_get_fresh_mounts (PaddockNamespaces       *ns);
int                paddock_namespaces_become_init  (PaddockNamespaces           *ns,
                                                    int                          report_fd,
                                                    int                          stopped_fd);
const char        *paddock_namespaces_step_name    (PaddockNamespaces           *ns,
                                                    int                          step);
/* The private place (/tmp, /run, …) that hides @path (canonical) from the
 * agent, where nothing bound back keeps it; NULL where the agent sees it. */
const char        *paddock_namespaces_find_hiding_place (PaddockNamespaces      *ns,
                                                    const char                  *path);

/* The asked entries of the home folder (canonical), in the order the home
 * view serves them: its root's entry "N" is the Nth. Empty without one. */
const char * const *paddock_namespaces_get_view_entries (PaddockNamespaces      *ns);
/* In the parent, after the fork: the view's socket is the child's alone
 * now (a later child, such as a vaulted program's, gets no view). */
void               paddock_namespaces_forget_view_socket (PaddockNamespaces    *ns);
/* In the child, once the lock's own lookups through the view are made:
 * tells the supervisor that every read from then on is the agent's. */
void               paddock_namespaces_end_view_setup (PaddockNamespaces      *ns);
/* In the child: why the home view could not be mounted (the asked entries
 * are then covered, closed), or 0. */
int                paddock_namespaces_get_view_errno (PaddockNamespaces        *ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockNamespaces, paddock_namespaces_free)

G_END_DECLS
