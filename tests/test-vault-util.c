/* test-vault-util.c: the real gnome-keyring on the tests' private bus
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-vault-util.h"

#include <libsecret/secret.h>
#include <unistd.h>

#include "paddock-vault.h"

/* The schema as the library defines it, written again here so the tests
 * read the keyring through a second, independent path. */
const SecretSchema *
test_vault_schema (void)
{
  static const SecretSchema schema = {
    PADDOCK_VAULT_SCHEMA_NAME, SECRET_SCHEMA_NONE,
    {
      { "name", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "project", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "mode", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "pins", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };

  return &schema;
}

gboolean
test_vault_require_service (void)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  gboolean owned = FALSE;

  if (bus != NULL)
    reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                         "org.freedesktop.DBus", "NameHasOwner",
                                         g_variant_new ("(s)", "org.freedesktop.secrets"),
                                         G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE,
                                         -1, NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &owned);
  if (!owned)
    g_test_skip ("no Secret Service on the session bus: run the tests through "
                 "build-aux/paddock-dev test or quicktest.sh, which start gnome-keyring");
  return owned;
}

char *
test_vault_name (const char *base)
{
  return g_strdup_printf ("%s-%d", base, (int) getpid ());
}

char *
test_vault_read_raw (const char *name,
                     const char *project)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SecretService) service = NULL;
  g_autoptr(GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autolist(SecretItem) items = NULL;
  g_autoptr(SecretValue) value = NULL;

  service = secret_service_get_sync (SECRET_SERVICE_OPEN_SESSION, NULL, &error);
  g_assert_no_error (error);
  g_hash_table_insert (attributes, (char *) "name", (char *) name);
  g_hash_table_insert (attributes, (char *) "project", (char *) project);
  items = secret_service_search_sync (service, test_vault_schema (), attributes,
                                      SECRET_SEARCH_LOAD_SECRETS, NULL, &error);
  g_assert_no_error (error);
  if (items == NULL)
    return NULL;
  value = secret_item_get_secret (items->data);
  g_assert_nonnull (value);
  return g_strdup (secret_value_get_text (value));
}

void
test_vault_clear (const char *name)
{
  g_autoptr(GError) error = NULL;

  secret_password_clear_sync (test_vault_schema (), NULL, &error, "name", name, NULL);
  g_assert_no_error (error);
}
