/* test-vault.c: Paddock's secrets in the real gnome-keyring on the tests'
 * private bus: store, look up, list and delete; a project's own secret and
 * a global one; a value that is not UTF-8 and a trailing newline; two
 * items of one name; a missing item; no Secret Service at all; a locked
 * keyring whose unlock prompt is dismissed; pins and their hashes; modes
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paddock-vault.h"
#include "test-util.h"
#include "test-vault-util.h"

#define PROJECT_A "/srv/paddock-test/project-a"
#define PROJECT_B "/srv/paddock-test/project-b"

static void
assert_value (GBytes     *bytes,
              const char *expected)
{
  gsize length = 0;
  const char *data;

  g_assert_nonnull (bytes);
  data = g_bytes_get_data (bytes, &length);
  g_assert_cmpmem (data, length, expected, strlen (expected));
}

/* An error that names @name and never holds @value. */
static void
assert_error_clean (GError     *error,
                    int         code,
                    const char *name,
                    const char *value)
{
  g_assert_error (error, PADDOCK_VAULT_ERROR, code);
  g_test_message ("error: %s", error->message);
  if (name != NULL)
    g_assert_nonnull (strstr (error->message, name));
  if (value != NULL && value[0] != '\0')
    g_assert_null (strstr (error->message, value));
}

static const PaddockSecretInfo *
find_info (GPtrArray  *infos,
           const char *name,
           const char *project)
{
  for (guint i = 0; i < infos->len; i++)
    {
      const PaddockSecretInfo *info = g_ptr_array_index (infos, i);

      if (g_str_equal (info->name, name) && g_str_equal (info->project, project))
        return info;
    }
  return NULL;
}

static void
store (const char *name,
       const char *project,
       const char *value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_vault_store_sync (name, project, (const guint8 *) value,
                                           strlen (value), NULL, &error));
  g_assert_no_error (error);
}

static void
test_round_trip (void)
{
  g_autofree char *name = test_vault_name ("round-trip");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;
  g_autofree char *raw = NULL;
  const PaddockSecretInfo *listed;

  if (!test_vault_require_service ())
    return;

  store (name, "", "tok-3f9a1c7e-round");
  /* In the keyring, under Paddock's schema, read by a second path. */
  raw = test_vault_read_raw (name, "");
  g_assert_cmpstr (raw, ==, "tok-3f9a1c7e-round");

  value = paddock_vault_lookup_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "tok-3f9a1c7e-round");

  infos = paddock_vault_list_sync (NULL, NULL, &error);
  g_assert_no_error (error);
  listed = find_info (infos, name, "");
  g_assert_nonnull (listed);
  g_assert_cmpint (listed->mode, ==, PADDOCK_SECRET_MODE_ASK);
  g_assert_cmpuint (listed->pins->len, ==, 0);

  info = paddock_vault_get_info_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (info->name, ==, name);
  g_assert_cmpstr (info->project, ==, "");

  /* A second store replaces the value: one item, the new value. */
  store (name, "", "tok-3f9a1c7e-second");
  g_clear_pointer (&value, g_bytes_unref);
  value = paddock_vault_lookup_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "tok-3f9a1c7e-second");

  g_assert_true (paddock_vault_delete_sync (name, "", NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&raw, g_free);
  raw = test_vault_read_raw (name, "");
  g_assert_null (raw);

  g_clear_pointer (&value, g_bytes_unref);
  value = paddock_vault_lookup_sync (name, "", NULL, &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
  g_clear_error (&error);

  g_assert_false (paddock_vault_delete_sync (name, "", NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
}

static void
test_project (void)
{
  g_autofree char *name = test_vault_name ("per-project");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;
  g_autoptr(GPtrArray) infos = NULL;

  if (!test_vault_require_service ())
    return;

  store (name, "", "global-value-81c2");
  store (name, PROJECT_A, "project-value-81c2");

  /* The project's own wins; another project sees the global one. */
  value = paddock_vault_lookup_sync (name, PROJECT_A, NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "project-value-81c2");
  g_clear_pointer (&value, g_bytes_unref);
  value = paddock_vault_lookup_sync (name, PROJECT_B, NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "global-value-81c2");
  g_clear_pointer (&value, g_bytes_unref);
  value = paddock_vault_lookup_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "global-value-81c2");
  g_clear_pointer (&value, g_bytes_unref);

  /* What each project sees; every secret for NULL. */
  infos = paddock_vault_list_sync (PROJECT_A, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, PROJECT_A));
  g_assert_null (find_info (infos, name, ""));
  g_clear_pointer (&infos, g_ptr_array_unref);
  infos = paddock_vault_list_sync (PROJECT_B, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, ""));
  g_assert_null (find_info (infos, name, PROJECT_A));
  g_clear_pointer (&infos, g_ptr_array_unref);
  infos = paddock_vault_list_sync ("", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, ""));
  g_assert_null (find_info (infos, name, PROJECT_A));
  g_clear_pointer (&infos, g_ptr_array_unref);
  infos = paddock_vault_list_sync (NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, ""));
  g_assert_nonnull (find_info (infos, name, PROJECT_A));

  /* Deleting through a project deletes its own only. */
  g_assert_true (paddock_vault_delete_sync (name, PROJECT_A, NULL, &error));
  g_assert_no_error (error);
  value = paddock_vault_lookup_sync (name, PROJECT_A, NULL, &error);
  g_assert_no_error (error);
  assert_value (value, "global-value-81c2");
  g_clear_pointer (&value, g_bytes_unref);
  g_assert_false (paddock_vault_delete_sync (name, PROJECT_B, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
  g_clear_error (&error);

  g_assert_true (paddock_vault_delete_sync (name, "", NULL, &error));
  g_assert_no_error (error);
  value = paddock_vault_lookup_sync (name, PROJECT_A, NULL, &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
}

static void
test_not_utf8 (void)
{
  g_autofree char *name = test_vault_name ("not-utf8");
  static const guint8 latin1[] = { 'p', 'a', 's', 's', 0xe9, '9', '9', '\n' };
  static const guint8 with_nul[] = { 'a', 'b', 'c', 0, 'd', 'e', 'f' };
  g_autoptr(GError) error = NULL;
  g_autofree char *raw = NULL;

  if (!test_vault_require_service ())
    return;

  g_assert_false (paddock_vault_store_sync (name, "", latin1, sizeof latin1, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_INVALID, name, "pass");
  g_assert_nonnull (strstr (error->message, "UTF-8"));
  g_clear_error (&error);

  g_assert_false (paddock_vault_store_sync (name, "", with_nul, sizeof with_nul, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_INVALID, name, "abc");
  g_clear_error (&error);

  /* Nothing but a newline is an empty value. */
  g_assert_false (paddock_vault_store_sync (name, "", (const guint8 *) "\n", 1, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_INVALID, name, NULL);
  g_clear_error (&error);

  raw = test_vault_read_raw (name, "");
  g_assert_null (raw);
}

static void
test_trailing_newline (void)
{
  static const struct { const char *given; const char *stored; } cases[] = {
    { "value-one\n", "value-one" },
    { "value-two\r\n", "value-two" },
    { "value-three\n\n", "value-three\n" },
    { "value-four", "value-four" },
    { "line one\nline two\n", "line one\nline two" },
  };
  g_autofree char *name = test_vault_name ("newline");

  if (!test_vault_require_service ())
    return;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) value = NULL;

      store (name, "", cases[i].given);
      value = paddock_vault_lookup_sync (name, "", NULL, &error);
      g_assert_no_error (error);
      assert_value (value, cases[i].stored);
    }
  test_vault_clear (name);
}

static void
test_ambiguous (void)
{
  static const SecretSchema other_client = {
    PADDOCK_VAULT_SCHEMA_NAME, SECRET_SCHEMA_NONE,
    {
      { "name", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "project", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "mode", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };
  g_autofree char *name = test_vault_name ("twice");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;

  if (!test_vault_require_service ())
    return;

  store (name, "", "first-value-aa11");
  /* Another client adds a second item of the same name: its attributes
   * differ (a mode), so the keyring keeps both. */
  g_assert_true (secret_password_store_sync (&other_client, SECRET_COLLECTION_DEFAULT, "second",
                                             "second-value-bb22", NULL, &error,
                                             "name", name, "project", "", "mode", "session", NULL));
  g_assert_no_error (error);

  value = paddock_vault_lookup_sync (name, "", NULL, &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_AMBIGUOUS, name, "value");
  g_clear_error (&error);
  /* Through a project that sees the global one, the same. */
  value = paddock_vault_lookup_sync (name, PROJECT_A, NULL, &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_AMBIGUOUS, name, "value");
  g_clear_error (&error);
  /* Neither is replaced or deleted by guess. */
  g_assert_false (paddock_vault_store_sync (name, "", (const guint8 *) "third-value", 11, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_AMBIGUOUS, name, "value");
  g_clear_error (&error);
  g_assert_false (paddock_vault_delete_sync (name, "", NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_AMBIGUOUS, name, NULL);
  g_clear_error (&error);

  test_vault_clear (name);
}

static void
test_missing (void)
{
  g_autofree char *name = test_vault_name ("never-stored");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;

  if (!test_vault_require_service ())
    return;

  value = paddock_vault_lookup_sync (name, PROJECT_A, NULL, &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
  g_assert_nonnull (strstr (error->message, PROJECT_A));
  g_clear_error (&error);

  info = paddock_vault_get_info_sync (name, "", NULL, &error);
  g_assert_null (info);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
  g_clear_error (&error);

  g_assert_false (paddock_vault_set_mode_sync (name, "", PADDOCK_SECRET_MODE_PINNED, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
}

static void
test_bad_names (void)
{
  const char *bad[] = { "", "two words", "a/b", "semi;colon", "«secret»", "new\nline" };
  g_autofree char *long_name = g_strnfill (129, 'x');
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (paddock_vault_store_sync (bad[i], "", (const guint8 *) "value-x", 7, NULL, &error));
      g_assert_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID);
      g_assert_null (strstr (error->message, "value-x"));
      g_clear_error (&error);
    }
  g_assert_false (paddock_vault_check_name (long_name, &error));
  g_assert_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (paddock_vault_check_name ("GITHUB_TOKEN.v2-x", &error));
  g_assert_no_error (error);

  /* A project is an absolute path or "". */
  g_assert_false (paddock_vault_store_sync ("ok", "relative/dir", (const guint8 *) "value-x", 7, NULL, &error));
  g_assert_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID);
}

/* Run in a child whose session bus address leads nowhere. */
static void
test_no_service (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) value = NULL;
      g_autoptr(GPtrArray) infos = NULL;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/paddock-test-bus", TRUE);
      value = paddock_vault_lookup_sync ("gh", "", NULL, &error);
      g_assert_null (value);
      assert_error_clean (error, PADDOCK_VAULT_ERROR_NO_SERVICE, "gh", NULL);
      g_printerr ("lookup: %s\n", error->message);
      g_clear_error (&error);
      g_assert_false (paddock_vault_store_sync ("gh", "", (const guint8 *) "value-nosvc", 11, NULL, &error));
      assert_error_clean (error, PADDOCK_VAULT_ERROR_NO_SERVICE, "gh", "value-nosvc");
      g_clear_error (&error);
      infos = paddock_vault_list_sync (NULL, NULL, &error);
      g_assert_null (infos);
      g_assert_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NO_SERVICE);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*lookup: cannot read secret *gh*: no Secret Service*");
}

static void
on_result (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  *out = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* A session bus of its own with no service on it (none to activate
 * either), in a child: a bus that answers, but no Secret Service. */
static void
test_no_service_on_bus (void)
{
  static const char config[] =
    "<busconfig>"
    "  <type>session</type>"
    "  <listen>unix:tmpdir=/tmp</listen>"
    "  <auth>EXTERNAL</auth>"
    "  <policy context='default'>"
    "    <allow send_destination='*' eavesdrop='true'/>"
    "    <allow eavesdrop='true'/>"
    "    <allow own='*'/>"
    "  </policy>"
    "</busconfig>";
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) bus = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *address = NULL;
  g_autofree char *config_arg = NULL;
  int fd;

  if (g_test_subprocess ())
    {
      g_autoptr(GBytes) value = NULL;

      g_setenv ("DBUS_SESSION_BUS_ADDRESS", g_getenv ("PADDOCK_TEST_EMPTY_BUS"), TRUE);
      value = paddock_vault_lookup_sync ("gh", "", NULL, &error);
      g_assert_null (value);
      assert_error_clean (error, PADDOCK_VAULT_ERROR_NO_SERVICE, "gh", NULL);
      g_printerr ("lookup: %s\n", error->message);
      return;
    }

  fd = g_file_open_tmp ("paddock-test-bus-XXXXXX.conf", &config_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (fd, config, strlen (config)), ==, (gssize) strlen (config));
  close (fd);
  config_arg = g_strdup_printf ("--config-file=%s", config_path);
  bus = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "dbus-daemon", config_arg,
                          "--nofork", "--print-address=1", NULL);
  if (bus == NULL)
    {
      g_test_skip ("dbus-daemon cannot be run to make a bus of the test's own");
      g_unlink (config_path);
      return;
    }
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (bus));
  address = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (address);
  g_setenv ("PADDOCK_TEST_EMPTY_BUS", address, TRUE);

  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_subprocess_force_exit (bus);
  g_subprocess_wait (bus, NULL, NULL);
  g_unlink (config_path);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*lookup: cannot read secret *gh*: no Secret Service*");
}

/* --- a locked keyring ---------------------------------------------------------
 *
 * gnome-keyring unlocks through its system prompter, gcr's, which it finds
 * on the session bus as org.gnome.keyring.SystemPrompter (the real one,
 * gcr-prompter, would open a window on the test display and wait for a
 * person). The test takes that name first and plays the person who
 * dismisses the prompt, speaking gcr's prompter protocol to the real
 * gnome-keyring; so the keyring's own prompt runs, and only the human is
 * replaced. The keyring used is a second one made for the test (through
 * gnome-keyring's interface for tests and tools), so the login keyring the
 * other test programs share is never locked. Answering the prompt with a
 * password would need gcr's secret exchange (DH and AES) and is not done:
 * an accepted unlock is not tested here. */

#define PROMPTER_NAME "org.gnome.keyring.SystemPrompter"
#define PROMPTER_PATH "/org/gnome/keyring/Prompter"
#define PROMPTER_INTERFACE "org.gnome.keyring.internal.Prompter"
#define CALLBACK_INTERFACE "org.gnome.keyring.internal.Prompter.Callback"
#define TEST_KEYRING_PASSWORD "paddock-test-keyring"

static const char prompter_xml[] =
  "<node>"
  "  <interface name='" PROMPTER_INTERFACE "'>"
  "    <method name='BeginPrompting'><arg name='callback' type='o' direction='in'/></method>"
  "    <method name='PerformPrompt'>"
  "      <arg name='callback' type='o' direction='in'/>"
  "      <arg name='type' type='s' direction='in'/>"
  "      <arg name='properties' type='a{sv}' direction='in'/>"
  "      <arg name='exchange' type='s' direction='in'/>"
  "    </method>"
  "    <method name='StopPrompting'><arg name='callback' type='o' direction='in'/></method>"
  "  </interface>"
  "</node>";

typedef struct
{
  guint n_prompts;  /* PerformPrompt calls: prompts the person saw */
  guint n_stopped;
} Prompter;

static void
call_callback (GDBusConnection *bus,
               const char      *sender,
               const char      *callback,
               const char      *method,
               GVariant        *parameters)
{
  g_dbus_connection_call (bus, sender, callback, CALLBACK_INTERFACE, method, parameters,
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
}

static void
prompter_method_call (GDBusConnection       *bus,
                      const char            *sender,
                      const char            *object_path,
                      const char            *interface_name,
                      const char            *method_name,
                      GVariant              *parameters,
                      GDBusMethodInvocation *invocation,
                      gpointer               user_data)
{
  Prompter *prompter = user_data;
  const char *callback = NULL;

  g_variant_get_child (parameters, 0, "&o", &callback);
  g_dbus_method_invocation_return_value (invocation, NULL);
  if (g_str_equal (method_name, "BeginPrompting"))
    /* Ready to prompt. */
    call_callback (bus, sender, callback, "PromptReady", g_variant_new ("(sa{sv}s)", "", NULL, ""));
  else if (g_str_equal (method_name, "PerformPrompt"))
    {
      /* The person presses Cancel. */
      prompter->n_prompts++;
      call_callback (bus, sender, callback, "PromptReady", g_variant_new ("(sa{sv}s)", "no", NULL, ""));
    }
  else if (g_str_equal (method_name, "StopPrompting"))
    {
      prompter->n_stopped++;
      call_callback (bus, sender, callback, "PromptDone", NULL);
    }
}

static const GDBusInterfaceVTable prompter_vtable = { prompter_method_call, NULL, NULL, { 0 } };

/* gnome-keyring's own way to make and unlock a keyring with a known
 * password, without a prompt; its secrets travel in a "plain" session. */
static char *
open_plain_session (GDBusConnection *bus)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  char *session = NULL;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "OpenSession",
                                       g_variant_new ("(sv)", "plain", g_variant_new_string ("")),
                                       G_VARIANT_TYPE ("(vo)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(@vo)", NULL, &session);
  return session;
}

static GVariant *
plain_secret (const char *session,
              const char *password)
{
  return g_variant_new ("(o@ay@ays)", session,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, "", 0, 1),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, password, strlen (password), 1),
                        "text/plain");
}

static char *
create_test_keyring (GDBusConnection *bus,
                     const char      *session)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariantBuilder) properties = g_variant_builder_new (G_VARIANT_TYPE ("a{sv}"));
  g_autofree char *label = test_vault_name ("paddock-test-locked");
  char *path = NULL;

  g_variant_builder_add (properties, "{sv}", "org.freedesktop.Secret.Collection.Label",
                         g_variant_new_string (label));
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface",
                                       "CreateWithMasterPassword",
                                       g_variant_new ("(a{sv}@(oayays))", properties,
                                                      plain_secret (session, TEST_KEYRING_PASSWORD)),
                                       G_VARIANT_TYPE ("(o)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(o)", &path);
  return path;
}

static GVariant *
call_keyring (GDBusConnection *bus,
              const char      *path,
              const char      *interface,
              const char      *method,
              GVariant        *parameters,
              const char      *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", path, interface, method,
                                       parameters, G_VARIANT_TYPE (reply_type),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  return reply;
}

/* Puts an item of Paddock's schema into the keyring @collection. */
static void
create_raw_item (GDBusConnection *bus,
                 const char      *collection,
                 const char      *session,
                 const char      *name,
                 const char      *value)
{
  g_autoptr(GVariantBuilder) properties = g_variant_builder_new (G_VARIANT_TYPE ("a{sv}"));
  g_autoptr(GVariantBuilder) attributes = g_variant_builder_new (G_VARIANT_TYPE ("a{ss}"));
  g_autoptr(GVariant) reply = NULL;

  g_variant_builder_add (attributes, "{ss}", "xdg:schema", PADDOCK_VAULT_SCHEMA_NAME);
  g_variant_builder_add (attributes, "{ss}", "name", name);
  g_variant_builder_add (attributes, "{ss}", "project", "");
  g_variant_builder_add (properties, "{sv}", "org.freedesktop.Secret.Item.Label",
                         g_variant_new_string (name));
  g_variant_builder_add (properties, "{sv}", "org.freedesktop.Secret.Item.Attributes",
                         g_variant_builder_end (attributes));
  reply = call_keyring (bus, collection, "org.freedesktop.Secret.Collection", "CreateItem",
                        g_variant_new ("(a{sv}@(oayays)b)", properties, plain_secret (session, value), TRUE),
                        "(oo)");
}

static void
test_locked (void)
{
  g_autofree char *name = test_vault_name ("locked");
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GDBusNodeInfo) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *session = NULL;
  g_autofree char *collection = NULL;
  const char *to_lock[2] = { NULL, NULL };
  GAsyncResult *result = NULL;
  Prompter prompter = { 0 };
  guint registration;
  guint owner;

  if (!test_vault_require_service ())
    return;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  node = g_dbus_node_info_new_for_xml (prompter_xml, &error);
  g_assert_no_error (error);
  registration = g_dbus_connection_register_object (bus, PROMPTER_PATH, node->interfaces[0],
                                                    &prompter_vtable, &prompter, NULL, &error);
  g_assert_no_error (error);
  owner = g_bus_own_name_on_connection (bus, PROMPTER_NAME, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                        NULL, NULL, NULL, NULL);

  /* A keyring of the test's own with a secret in it, then locked. */
  session = open_plain_session (bus);
  collection = create_test_keyring (bus, session);
  create_raw_item (bus, collection, session, name, "locked-value-77e0");
  to_lock[0] = collection;
  reply = call_keyring (bus, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "Lock",
                        g_variant_new ("(^ao)", to_lock), "(aoo)");
  g_clear_pointer (&reply, g_variant_unref);

  /* Its name is listed without a prompt: attributes are not secret. */
  infos = paddock_vault_list_sync (NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, ""));
  g_assert_cmpuint (prompter.n_prompts, ==, 0);

  /* Its value needs the keyring's own prompt, which the person dismisses.
   * Asynchronously: the stand-in prompter answers on this thread. */
  paddock_vault_lookup_async (name, "", NULL, on_result, &result);
  value = paddock_vault_lookup_finish (wait_result (&result), &error);
  g_assert_null (value);
  assert_error_clean (error, PADDOCK_VAULT_ERROR_DISMISSED, name, "locked-value-77e0");
  g_assert_cmpuint (prompter.n_prompts, ==, 1);
  g_clear_error (&error);
  g_clear_object (&result);

  /* So does changing its policy. */
  paddock_vault_set_mode_async (name, "", PADDOCK_SECRET_MODE_SESSION, NULL, on_result, &result);
  g_assert_false (paddock_vault_set_mode_finish (wait_result (&result), &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_DISMISSED, name, NULL);
  g_assert_cmpuint (prompter.n_prompts, ==, 2);
  g_clear_error (&error);
  g_clear_object (&result);

  /* So does deleting it. */
  paddock_vault_delete_async (name, "", NULL, on_result, &result);
  g_assert_false (paddock_vault_delete_finish (wait_result (&result), &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_DISMISSED, name, NULL);
  g_assert_cmpuint (prompter.n_prompts, ==, 3);
  g_clear_error (&error);
  g_clear_object (&result);

  /* Unlocked again with its password, the value reads without a prompt. */
  reply = call_keyring (bus, "/org/freedesktop/secrets",
                        "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface", "UnlockWithMasterPassword",
                        g_variant_new ("(o@(oayays))", collection, plain_secret (session, TEST_KEYRING_PASSWORD)),
                        "()");
  g_clear_pointer (&reply, g_variant_unref);
  paddock_vault_lookup_async (name, "", NULL, on_result, &result);
  value = paddock_vault_lookup_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  assert_value (value, "locked-value-77e0");
  g_assert_cmpuint (prompter.n_prompts, ==, 3);
  g_clear_object (&result);

  reply = call_keyring (bus, collection, "org.freedesktop.Secret.Collection", "Delete", NULL, "(o)");
  g_bus_unown_name (owner);
  g_dbus_connection_unregister_object (bus, registration);
}

static char *
write_program (const char *dir,
               const char *name,
               const char *content)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, content, -1, &error);
  g_assert_no_error (error);
  g_assert_no_errno (chmod (path, 0755));
  return path;
}

static void
test_pins (void)
{
  g_autofree char *name = test_vault_name ("pinned");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *program = NULL;
  g_autofree char *link = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *changed = NULL;
  g_autoptr(PaddockSecretPin) pin = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;

  if (!test_vault_require_service ())
    return;

  dir = g_dir_make_tmp ("paddock-vault-pin-XXXXXX", &error);
  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  program = write_program (canonical, "deploy", "#!/bin/sh\necho deploy\n");
  expected = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "#!/bin/sh\necho deploy\n", -1);
  link = g_build_filename (canonical, "deploy-link", NULL);
  g_assert_no_errno (symlink (program, link));
  store (name, "", "pin-value-5d5d");

  /* Pinned through a symlink: the file itself is named, with its hash. */
  pin = paddock_vault_pin_sync (name, "", link, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pin->path, ==, program);
  g_assert_cmpstr (pin->sha256, ==, expected);
  g_clear_pointer (&pin, paddock_secret_pin_free);

  info = paddock_vault_get_info_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info->pins->len, ==, 1);
  g_assert_nonnull (paddock_secret_info_find_pin (info, program));
  g_assert_cmpstr (paddock_secret_info_find_pin (info, program)->sha256, ==, expected);
  g_clear_pointer (&info, paddock_secret_info_free);

  /* Pinned again after it changed: one pin, the new hash. */
  g_free (program);
  program = write_program (canonical, "deploy", "#!/bin/sh\necho deploy v2\n");
  changed = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "#!/bin/sh\necho deploy v2\n", -1);
  pin = paddock_vault_pin_sync (name, "", program, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pin->sha256, ==, changed);
  g_clear_pointer (&pin, paddock_secret_pin_free);
  info = paddock_vault_get_info_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info->pins->len, ==, 1);
  g_assert_cmpstr (paddock_secret_info_find_pin (info, program)->sha256, ==, changed);
  g_clear_pointer (&info, paddock_secret_info_free);

  /* The value is untouched by its policy. */
  {
    g_autofree char *raw = test_vault_read_raw (name, "");

    g_assert_cmpstr (raw, ==, "pin-value-5d5d");
  }

  /* What cannot be pinned: a folder, nothing, a FIFO (without waiting for
   * a writer). */
  g_assert_null (paddock_vault_pin_sync (name, "", canonical, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_FILE, canonical, NULL);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_assert_null (paddock_vault_pin_sync (name, "", "/nonexistent/paddock-tool", NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_FILE, "/nonexistent/paddock-tool", NULL);
  g_clear_error (&error);
  fifo = g_build_filename (canonical, "fifo", NULL);
  g_assert_no_errno (mkfifo (fifo, 0600));
  g_assert_null (paddock_vault_pin_sync (name, "", fifo, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_FILE, "fifo", NULL);
  g_clear_error (&error);
  /* Nor a secret that does not exist. */
  g_assert_null (paddock_vault_pin_sync ("no-such-secret-x", "", program, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, "no-such-secret-x", NULL);
  g_clear_error (&error);

  /* Unpinned through the symlink; a second unpin finds none. */
  g_assert_true (paddock_vault_unpin_sync (name, "", link, NULL, &error));
  g_assert_no_error (error);
  info = paddock_vault_get_info_sync (name, "", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info->pins->len, ==, 0);
  g_assert_false (paddock_vault_unpin_sync (name, "", program, NULL, &error));
  assert_error_clean (error, PADDOCK_VAULT_ERROR_NOT_FOUND, name, NULL);
  g_clear_error (&error);

  /* A pin of a program since removed is unpinned by its path. */
  pin = paddock_vault_pin_sync (name, "", program, NULL, &error);
  g_assert_no_error (error);
  g_assert_no_errno (g_unlink (program));
  g_assert_true (paddock_vault_unpin_sync (name, "", program, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (paddock_vault_delete_sync (name, "", NULL, &error));
  g_assert_no_error (error);
  test_remove_tree (canonical);
}

static void
test_hash_fd (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *sha256 = NULL;
  int fd;

  fd = g_file_open_tmp ("paddock-vault-hash-XXXXXX", &path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (fd, "abc", 3), ==, 3);
  g_assert_cmpint (lseek (fd, 0, SEEK_SET), ==, 0);
  sha256 = paddock_vault_hash_fd (fd, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sha256, ==, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  close (fd);
  g_unlink (path);
}

static void
test_modes (void)
{
  g_autofree char *name = test_vault_name ("modes");
  PaddockSecretMode modes[] = { PADDOCK_SECRET_MODE_SESSION, PADDOCK_SECRET_MODE_PINNED, PADDOCK_SECRET_MODE_ASK };
  PaddockSecretMode parsed = PADDOCK_SECRET_MODE_PINNED;
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_secret_mode_from_string ("session", &parsed));
  g_assert_cmpint (parsed, ==, PADDOCK_SECRET_MODE_SESSION);
  g_assert_false (paddock_secret_mode_from_string ("always", &parsed));
  g_assert_cmpint (parsed, ==, PADDOCK_SECRET_MODE_SESSION);

  if (!test_vault_require_service ())
    return;

  store (name, PROJECT_B, "mode-value-9090");
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(PaddockSecretInfo) info = NULL;

      g_assert_true (paddock_vault_set_mode_sync (name, PROJECT_B, modes[i], NULL, &error));
      g_assert_no_error (error);
      info = paddock_vault_get_info_sync (name, PROJECT_B, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (info->mode, ==, modes[i]);
    }
  /* A new value keeps the mode. */
  g_assert_true (paddock_vault_set_mode_sync (name, PROJECT_B, PADDOCK_SECRET_MODE_PINNED, NULL, &error));
  store (name, PROJECT_B, "mode-value-9191");
  {
    g_autoptr(PaddockSecretInfo) info = paddock_vault_get_info_sync (name, PROJECT_B, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (info->mode, ==, PADDOCK_SECRET_MODE_PINNED);
  }
  g_assert_true (paddock_vault_delete_sync (name, PROJECT_B, NULL, &error));
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autofree char *name = test_vault_name ("async");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) value = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(PaddockSecretPin) pin = NULL;
  GAsyncResult *result = NULL;
  guint8 buffer[] = "async-value-4242\n";

  if (!test_vault_require_service ())
    return;

  /* The caller may wipe its copy at once. */
  paddock_vault_store_async (name, PROJECT_A, buffer, sizeof buffer - 1, NULL, on_result, &result);
  memset (buffer, 'x', sizeof buffer);
  g_assert_true (paddock_vault_store_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  paddock_vault_lookup_async (name, PROJECT_A, NULL, on_result, &result);
  value = paddock_vault_lookup_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  assert_value (value, "async-value-4242");
  g_clear_object (&result);

  paddock_vault_set_mode_async (name, PROJECT_A, PADDOCK_SECRET_MODE_SESSION, NULL, on_result, &result);
  g_assert_true (paddock_vault_set_mode_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  paddock_vault_pin_async (name, PROJECT_A, "/bin/sh", NULL, on_result, &result);
  pin = paddock_vault_pin_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (pin->sha256), ==, 64);
  g_clear_object (&result);

  paddock_vault_list_async (PROJECT_A, NULL, on_result, &result);
  infos = paddock_vault_list_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_info (infos, name, PROJECT_A));
  g_assert_cmpint (find_info (infos, name, PROJECT_A)->mode, ==, PADDOCK_SECRET_MODE_SESSION);
  g_assert_cmpuint (find_info (infos, name, PROJECT_A)->pins->len, ==, 1);
  g_clear_object (&result);

  paddock_vault_unpin_async (name, PROJECT_A, "/bin/sh", NULL, on_result, &result);
  g_assert_true (paddock_vault_unpin_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  paddock_vault_delete_async (name, PROJECT_A, NULL, on_result, &result);
  g_assert_true (paddock_vault_delete_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* A refused value fails through the callback, not at once. */
  paddock_vault_store_async (name, "", (const guint8 *) "\xff\xfe", 2, NULL, on_result, &result);
  g_assert_false (paddock_vault_store_finish (wait_result (&result), &error));
  g_assert_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID);
  g_clear_object (&result);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/vault/round-trip", test_round_trip);
  g_test_add_func ("/paddock/vault/project", test_project);
  g_test_add_func ("/paddock/vault/not-utf8", test_not_utf8);
  g_test_add_func ("/paddock/vault/trailing-newline", test_trailing_newline);
  g_test_add_func ("/paddock/vault/ambiguous", test_ambiguous);
  g_test_add_func ("/paddock/vault/missing", test_missing);
  g_test_add_func ("/paddock/vault/bad-names", test_bad_names);
  g_test_add_func ("/paddock/vault/no-service", test_no_service);
  g_test_add_func ("/paddock/vault/no-service-on-bus", test_no_service_on_bus);
  g_test_add_func ("/paddock/vault/locked", test_locked);
  g_test_add_func ("/paddock/vault/pins", test_pins);
  g_test_add_func ("/paddock/vault/hash-fd", test_hash_fd);
  g_test_add_func ("/paddock/vault/modes", test_modes);
  g_test_add_func ("/paddock/vault/async", test_async);

  return g_test_run ();
}
