/* paddock-namespaces.h: the folder lock through user, mount and PID namespaces
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct _PaddockNamespaces PaddockNamespaces;

gboolean           paddock_namespaces_probe      (int                *saved_errno);
PaddockNamespaces *paddock_namespaces_new        (const char         *project,
                                                  GPtrArray          *grants,
                                                  const char * const *denials,
                                                  GError            **error);
void               paddock_namespaces_free       (PaddockNamespaces  *ns);
pid_t              paddock_namespaces_clone      (void);
int                paddock_namespaces_enter      (PaddockNamespaces  *ns,
                                                  int                *step);
int                paddock_namespaces_become_init (PaddockNamespaces *ns,
                                                   int                report_fd);
const char        *paddock_namespaces_step_name  (PaddockNamespaces  *ns,
                                                  int                 step);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockNamespaces, paddock_namespaces_free)

G_END_DECLS
