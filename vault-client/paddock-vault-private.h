/* paddock-vault-private.h: what paddock-vault.c and paddock-vault-async.c share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsecret/secret.h>

#include "paddock-vault.h"

G_BEGIN_DECLS

/* A valid name, and a project that is "" or an absolute path. */
gboolean     paddock_vault_check_name_and_project (const char    *name,
                                                   const char    *project,
                                                   GError       **error);
/* @value as stored (one trailing newline dropped), checked to be UTF-8
 * text and not empty, copied into libsecret's secure memory. */
SecretValue *paddock_vault_prepare_value          (const char    *name,
                                                   const char    *project,
                                                   const guint8  *value,
                                                   gsize          length,
                                                   GError       **error);
/* paddock_vault_store_sync() of a value already prepared. */
gboolean     paddock_vault_store_value            (const char    *name,
                                                   const char    *project,
                                                   SecretValue   *value,
                                                   GCancellable  *cancellable,
                                                   GError       **error);

G_END_DECLS
