/* paddock-lock-status.h: what the folder lock can do, as paddock-run or a session reports it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "paddock-protocol.h"

G_BEGIN_DECLS

/* One protection of the lock, in the user's words. */
typedef struct
{
  const char *title;       /* translated */
  gboolean    active;
  char       *detail;      /* translated; may be NULL */
} PaddockLockProtection;

typedef struct _PaddockLockStatus PaddockLockStatus;

PaddockLockStatus  *paddock_lock_status_new_from_message (const PaddockMessage *message,
                                                          GError             **error);
void                paddock_lock_status_load_async       (const char          *runner,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
PaddockLockStatus  *paddock_lock_status_load_finish      (GAsyncResult        *result,
                                                          GError             **error);
void                paddock_lock_status_free             (PaddockLockStatus   *status);

gboolean            paddock_lock_status_get_available    (PaddockLockStatus   *status);
int                 paddock_lock_status_get_landlock_abi (PaddockLockStatus   *status);
const char * const *paddock_lock_status_get_denied       (PaddockLockStatus   *status);
const char * const *paddock_lock_status_get_home_open    (PaddockLockStatus   *status);
const char * const *paddock_lock_status_get_home_asked   (PaddockLockStatus   *status);
char               *paddock_lock_status_dup_mechanism    (PaddockLockStatus   *status);
GPtrArray          *paddock_lock_status_list_protections (PaddockLockStatus   *status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockLockStatus, paddock_lock_status_free)

G_END_DECLS
