/* paddock-landlock.h: the folder lock through Landlock
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "paddock-grants.h"

G_BEGIN_DECLS

/* What one Landlock ABI protects. */
typedef struct
{
  int      abi;           /* 0 when Landlock is unavailable */
  int      unavailable_errno;
  gboolean filesystem;    /* ABI 1 */
  gboolean refer;         /* ABI 2 */
  gboolean truncate;      /* ABI 3 */
  gboolean tcp;           /* ABI 4 */
  gboolean ioctl_dev;     /* ABI 5 */
  gboolean scope_signal;  /* ABI 6 */
  gboolean scope_abstract_unix_socket;  /* ABI 6 */
  gboolean logging;       /* ABI 7 */
} PaddockLandlockFeatures;

void paddock_landlock_probe          (PaddockLandlockFeatures *features);

int  paddock_landlock_ruleset_new    (GPtrArray               *grants,
                                      GError                 **error);

int  paddock_landlock_scope_ruleset_new (void);

int  paddock_landlock_add_path       (int                      ruleset_fd,
                                      const char              *path,
                                      PaddockAccess            access);

/* A ruleset (ABI 4) that lets TCP connect only to @ports (@n_ports of
 * them), on any address; it leaves binding and the file system alone. */
int  paddock_landlock_tcp_ruleset_new (const guint16          *ports,
                                       guint                   n_ports,
                                       GError                **error);

int  paddock_landlock_restrict_self  (int                      ruleset_fd);

G_END_DECLS
