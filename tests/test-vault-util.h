/* test-vault-util.h: what the vault's test programs share: the real
 * gnome-keyring on the tests' private session bus
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libsecret/secret.h>

/* Paddock's schema, written again here, so the tests reach the keyring
 * through a second, independent path. */
const SecretSchema *test_vault_schema (void);

/* Whether a Secret Service owns its name on the session bus; where none
 * does, marks the running test skipped, saying why, and returns FALSE. */
gboolean    test_vault_require_service (void);

/* A secret name no other test program uses in this run: @base with our
 * pid. */
char       *test_vault_name            (const char *base);

/* Reads the value of the item (@name, @project) of Paddock's schema
 * straight from the Secret Service, not through libpaddock-vault; NULL
 * where there is none. */
char       *test_vault_read_raw        (const char *name,
                                        const char *project);

/* Removes every item of Paddock's schema named @name, whatever its
 * project, straight through libsecret. */
void        test_vault_clear           (const char *name);
