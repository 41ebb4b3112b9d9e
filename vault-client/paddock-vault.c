/* paddock-vault.c: Paddock's secrets in the user's Secret Service
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every call is written once, blocking, as the _sync variant here; the
 * _async variant (paddock-vault-async.c) runs it in a GTask thread.
 * libsecret's blocking calls run their own main context, so they are safe
 * in any thread.
 */
#include "config.h"

#include "paddock-vault.h"
#include "paddock-vault-private.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <libsecret/secret.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_LENGTH 128

G_DEFINE_QUARK (paddock-vault-error-quark, paddock_vault_error)

static const SecretSchema *
vault_schema (void)
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

const char *
paddock_secret_mode_to_string (PaddockSecretMode mode)
{
  switch (mode)
    {
    case PADDOCK_SECRET_MODE_SESSION:
      return "session";
    case PADDOCK_SECRET_MODE_PINNED:
      return "pinned";
    case PADDOCK_SECRET_MODE_ASK:
    default:
      return "ask";
    }
}

gboolean
paddock_secret_mode_from_string (const char        *text,
                                 PaddockSecretMode *mode)
{
  static const PaddockSecretMode modes[] = {
    PADDOCK_SECRET_MODE_ASK, PADDOCK_SECRET_MODE_SESSION, PADDOCK_SECRET_MODE_PINNED,
  };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (text, paddock_secret_mode_to_string (modes[i])))
      {
        *mode = modes[i];
        return TRUE;
      }
  return FALSE;
}

PaddockSecretPin *
paddock_secret_pin_new (const char *path,
                        const char *sha256)
{
  PaddockSecretPin *pin = g_new0 (PaddockSecretPin, 1);

  pin->path = g_strdup (path);
  pin->sha256 = g_strdup (sha256);
  return pin;
}

void
paddock_secret_pin_free (PaddockSecretPin *pin)
{
  if (pin == NULL)
    return;
  g_free (pin->path);
  g_free (pin->sha256);
  g_free (pin);
}

void
paddock_secret_info_free (PaddockSecretInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->project);
  g_clear_pointer (&info->pins, g_ptr_array_unref);
  g_free (info);
}

const PaddockSecretPin *
paddock_secret_info_find_pin (const PaddockSecretInfo *info,
                              const char              *path)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < info->pins->len; i++)
    {
      const PaddockSecretPin *pin = g_ptr_array_index (info->pins, i);

      if (g_str_equal (pin->path, path))
        return pin;
    }
  return NULL;
}

/* "“gh”" or "“gh” of project /home/me/proj", for error messages. */
static char *
describe_secret (const char *name,
                 const char *project)
{
  if (project == NULL || project[0] == '\0')
    return g_strdup_printf ("secret “%s”", name);
  return g_strdup_printf ("secret “%s” of project %s", name, project);
}

gboolean
paddock_vault_check_name (const char  *name,
                          GError     **error)
{
  gsize length = name != NULL ? strlen (name) : 0;

  if (length == 0)
    {
      g_set_error_literal (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                           "a secret needs a name");
      return FALSE;
    }
  if (length > NAME_MAX_LENGTH)
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                   "secret name “%.32s…” is too long: at most %d characters",
                   name, NAME_MAX_LENGTH);
      return FALSE;
    }
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_' && *p != '-')
      {
        g_autofree char *shown = g_strescape (name, NULL);

        g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                     "secret name “%s” is not valid: use letters, digits, '.', '_' and '-'",
                     shown);
        return FALSE;
      }
  return TRUE;
}

gboolean
paddock_vault_check_name_and_project (const char  *name,
                        const char  *project,
                        GError     **error)
{
  if (!paddock_vault_check_name (name, error))
    return FALSE;
  if (project == NULL || (project[0] != '\0' && !g_path_is_absolute (project)))
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                   "secret “%s”: project %s is not an absolute path",
                   name, project != NULL ? project : "(none)");
      return FALSE;
    }
  return TRUE;
}

char *
paddock_vault_hash_fd (int      fd,
                       GError **error)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 buffer[65536];

  for (;;)
    {
      gssize n = read (fd, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                       "cannot read the file to hash it: %s", g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        break;
      g_checksum_update (checksum, buffer, n);
    }
  return g_strdup (g_checksum_get_string (checksum));
}

char *
paddock_vault_hash_file (const char  *path,
                         char       **resolved_path,
                         GError     **error)
{
  g_autofree char *resolved = NULL;
  g_autofree char *sha256 = NULL;
  g_autoptr(GError) local_error = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  resolved = realpath (path, NULL);
  if (resolved == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                   "%s: %s", path, g_strerror (saved_errno));
      return NULL;
    }
  /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
  fd = open (resolved, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                   "cannot open %s: %s", path, g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                   "%s is not a regular file", path);
      return NULL;
    }
  sha256 = paddock_vault_hash_fd (fd, &local_error);
  close (fd);
  if (sha256 == NULL)
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                   "%s: %s", path, local_error->message);
      return NULL;
    }
  if (resolved_path != NULL)
    *resolved_path = g_steal_pointer (&resolved);
  return g_steal_pointer (&sha256);
}

/* Whether @service_error says that no Secret Service, or no session bus,
 * is there to answer (rather than that one answered no). */
static gboolean
no_service (const GError *service_error)
{
  static const int bus_codes[] = {
    G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_REPLY,
    G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT, G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_NO_SERVER,
    G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
    G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_SERVICE_INVALID,
    G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, G_DBUS_ERROR_SPAWN_FILE_INVALID,
  };
  static const int io_codes[] = {
    G_IO_ERROR_NOT_FOUND, G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_CLOSED, G_IO_ERROR_BROKEN_PIPE,
    G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_PERMISSION_DENIED, G_IO_ERROR_INVALID_ARGUMENT,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bus_codes); i++)
    if (g_error_matches (service_error, G_DBUS_ERROR, bus_codes[i]))
      return TRUE;
  /* Connecting to the bus itself (its socket missing, refused, or its
   * address unusable). */
  for (guint i = 0; i < G_N_ELEMENTS (io_codes); i++)
    if (g_error_matches (service_error, G_IO_ERROR, io_codes[i]))
      return TRUE;
  return FALSE;
}

/* Gives a libsecret or D-Bus error the vault's words, naming @name. */
static void
propagate_service_error (GError     **error,
                         GError      *service_error,
                         const char  *what,
                         const char  *name,
                         const char  *project)
{
  g_autofree char *secret = name != NULL ? describe_secret (name, project) : g_strdup ("secrets");
  int code = PADDOCK_VAULT_ERROR_FAILED;

  if (g_error_matches (service_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, service_error);
      return;
    }
  if (no_service (service_error))
    code = PADDOCK_VAULT_ERROR_NO_SERVICE;

  if (code == PADDOCK_VAULT_ERROR_NO_SERVICE)
    g_set_error (error, PADDOCK_VAULT_ERROR, code,
                 "cannot %s %s: no Secret Service (gnome-keyring, KeePassXC) answers on the session bus: %s",
                 what, secret, service_error->message);
  else
    g_set_error (error, PADDOCK_VAULT_ERROR, code,
                 "cannot %s %s: the Secret Service says: %s",
                 what, secret, service_error->message);
  g_error_free (service_error);
}

static SecretService *
get_service (const char    *what,
             const char    *name,
             const char    *project,
             GCancellable  *cancellable,
             GError       **error)
{
  GError *local_error = NULL;
  SecretService *service;

  service = secret_service_get_sync (SECRET_SERVICE_OPEN_SESSION, cancellable, &local_error);
  if (service == NULL)
    {
      propagate_service_error (error, local_error, what, name, project);
      return NULL;
    }
  return service;
}

static GHashTable *
search_attributes (const char *name,
                   const char *project)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);

  if (name != NULL)
    g_hash_table_insert (attributes, (char *) "name", (char *) name);
  if (project != NULL)
    g_hash_table_insert (attributes, (char *) "project", (char *) project);
  return attributes;
}

static GList *
search_items (SecretService  *service,
              const char     *name,
              const char     *project,
              const char     *what,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autoptr(GHashTable) attributes = search_attributes (name, project);
  GError *local_error = NULL;
  GList *items;

  /* An item deleted between the search and the loading of its found
   * items fails the whole search: search again, a few times. */
  for (guint attempt = 0; attempt < 5; attempt++)
    {
      g_clear_error (&local_error);
      items = secret_service_search_sync (service, vault_schema (), attributes,
                                          SECRET_SEARCH_ALL, cancellable, &local_error);
      if (!g_error_matches (local_error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT))
        break;
    }
  if (local_error != NULL)
    {
      propagate_service_error (error, local_error, what, name, project);
      return NULL;
    }
  return items;
}

static void
free_items (GList *items)
{
  g_list_free_full (items, g_object_unref);
}

typedef GList SecretItemList;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SecretItemList, free_items)

/* The one item of exactly (@name, @project). */
static SecretItem *
find_item (SecretService  *service,
           const char     *name,
           const char     *project,
           const char     *what,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(SecretItemList) items = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *secret = describe_secret (name, project);

  items = search_items (service, name, project, what, cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (items == NULL)
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND,
                   "cannot %s %s: there is no such secret", what, secret);
      return NULL;
    }
  if (items->next != NULL)
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_AMBIGUOUS,
                   "cannot %s %s: the Secret Service holds %u items of that name; "
                   "remove the extra ones (e.g. with seahorse) so one remains",
                   what, secret, g_list_length (items));
      return NULL;
    }
  return g_object_ref (items->data);
}

/* The item @project sees as @name: its own, else the global one. */
static SecretItem *
resolve_item (SecretService  *service,
              const char     *name,
              const char     *project,
              const char     *what,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  SecretItem *item;

  item = find_item (service, name, project, what, cancellable, &local_error);
  if (item != NULL || project[0] == '\0'
      || !g_error_matches (local_error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND))
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      return item;
    }
  g_clear_error (&local_error);
  item = find_item (service, name, "", what, cancellable, &local_error);
  if (g_error_matches (local_error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND))
    {
      g_autofree char *secret = describe_secret (name, project);

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND,
                   "cannot %s %s: there is no such secret, neither for the project nor global",
                   what, secret);
      return NULL;
    }
  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return item;
}

typedef struct
{
  gboolean  completed;
  gboolean  dismissed;
  GVariant *result;
} Prompting;

static void
prompt_completed_cb (GDBusConnection *bus,
                     const char      *sender,
                     const char      *path,
                     const char      *interface,
                     const char      *signal,
                     GVariant        *parameters,
                     gpointer         user_data)
{
  Prompting *prompting = user_data;

  if (prompting->completed || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(bv)")))
    return;
  g_variant_get (parameters, "(bv)", &prompting->dismissed, &prompting->result);
  prompting->completed = TRUE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  return G_SOURCE_REMOVE;
}

/* Shows the Secret Service's prompt @prompt and waits for its end, on a
 * main context of this call's own. Returns whether it completed without
 * being dismissed, with its result. Cancelled, it dismisses the prompt. */
static gboolean
run_prompt (GDBusConnection  *bus,
            const char       *service_name,
            const char       *prompt,
            GCancellable     *cancellable,
            GVariant        **result,
            GError          **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GSource) cancelled = NULL;
  Prompting prompting = { FALSE, FALSE, NULL };
  guint subscription;

  g_main_context_push_thread_default (context);
  /* Subscribed first: the prompt may complete as soon as it is shown. */
  subscription = g_dbus_connection_signal_subscribe (bus, service_name, "org.freedesktop.Secret.Prompt",
                                                     "Completed", prompt, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                     prompt_completed_cb, &prompting, NULL);
  reply = g_dbus_connection_call_sync (bus, service_name, prompt, "org.freedesktop.Secret.Prompt", "Prompt",
                                       g_variant_new ("(s)", ""), NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                                       cancellable, error);
  if (reply != NULL && cancellable != NULL)
    {
      cancelled = g_cancellable_source_new (cancellable);
      g_source_set_callback (cancelled, G_SOURCE_FUNC (cancelled_cb), NULL, NULL);
      g_source_attach (cancelled, context);
    }
  while (reply != NULL && !prompting.completed && !g_cancellable_is_cancelled (cancellable))
    g_main_context_iteration (context, TRUE);
  g_dbus_connection_signal_unsubscribe (bus, subscription);
  if (cancelled != NULL)
    g_source_destroy (cancelled);
  if (reply != NULL && !prompting.completed)
    {
      /* Cancelled: the prompt goes away with the call. */
      g_autoptr(GVariant) dismissed = g_dbus_connection_call_sync (bus, service_name, prompt,
                                                                   "org.freedesktop.Secret.Prompt", "Dismiss",
                                                                   NULL, NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                                                                   NULL, NULL);
      g_cancellable_set_error_if_cancelled (cancellable, error);
    }
  /* Signals already queued for the context go with it. */
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  if (!prompting.completed || prompting.dismissed)
    {
      g_clear_pointer (&prompting.result, g_variant_unref);
      return FALSE;
    }
  *result = prompting.result;
  return TRUE;
}

/* Unlocks @object (an item or a collection) through the provider's own
 * prompt where it is locked. Spoken in the Secret Service's own D-Bus
 * calls rather than through secret_service_unlock(), which in libsecret
 * 0.20 leaks what a dismissed prompt returns. */
static gboolean
ensure_unlocked (SecretService  *service,
                 const char     *object_path,
                 gboolean        locked,
                 const char     *what,
                 const char     *name,
                 const char     *project,
                 GCancellable   *cancellable,
                 GError        **error)
{
  GDBusConnection *bus = g_dbus_proxy_get_connection (G_DBUS_PROXY (service));
  const char *service_name = g_dbus_proxy_get_name (G_DBUS_PROXY (service));
  const char *paths[] = { object_path, NULL };
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) unlocked = NULL;
  g_autoptr(GVariant) result = NULL;
  GError *local_error = NULL;
  const char *prompt = NULL;
  gboolean prompted;

  if (!locked)
    return TRUE;
  reply = g_dbus_connection_call_sync (bus, service_name, "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "Unlock",
                                       g_variant_new ("(^ao)", paths), G_VARIANT_TYPE ("(aoo)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, cancellable, &local_error);
  if (reply == NULL)
    {
      propagate_service_error (error, local_error, what, name, project);
      return FALSE;
    }
  g_variant_get (reply, "(@ao&o)", &unlocked, &prompt);
  if (g_variant_n_children (unlocked) > 0)
    return TRUE;
  prompted = !g_str_equal (prompt, "/")
             && run_prompt (bus, service_name, prompt, cancellable, &result, &local_error);
  if (local_error != NULL)
    {
      propagate_service_error (error, local_error, what, name, project);
      return FALSE;
    }
  /* The result: the objects unlocked, as "ao". */
  if (!prompted || !g_variant_is_of_type (result, G_VARIANT_TYPE ("ao")) || g_variant_n_children (result) == 0)
    {
      g_autofree char *secret = describe_secret (name, project);

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_DISMISSED,
                   "cannot %s %s: the keyring is locked and its unlock prompt was dismissed",
                   what, secret);
      return FALSE;
    }
  return TRUE;
}

static gboolean
unlock_item (SecretService  *service,
             SecretItem     *item,
             const char     *what,
             const char     *name,
             const char     *project,
             GCancellable   *cancellable,
             GError        **error)
{
  return ensure_unlocked (service, g_dbus_proxy_get_object_path (G_DBUS_PROXY (item)), secret_item_get_locked (item),
                          what, name, project, cancellable, error);
}

/* What the sync calls share: @name and @project checked, the service, and
 * the one item of exactly that name and project, or where @resolve says so
 * the one @project sees as @name; unlocked where @unlock says so. @what
 * is the verb for the errors. */
static SecretItem *
open_item (const char      *name,
           const char      *project,
           const char      *what,
           gboolean         resolve,
           gboolean         unlock,
           SecretService  **service_out,
           GCancellable    *cancellable,
           GError         **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItem) item = NULL;

  if (!paddock_vault_check_name_and_project (name, project, error))
    return NULL;
  service = get_service (what, name, project, cancellable, error);
  if (service == NULL)
    return NULL;
  item = resolve ? resolve_item (service, name, project, what, cancellable, error)
                 : find_item (service, name, project, what, cancellable, error);
  if (item == NULL)
    return NULL;
  if (unlock && !unlock_item (service, item, what, name, project, cancellable, error))
    return NULL;
  if (service_out != NULL)
    *service_out = g_steal_pointer (&service);
  return g_steal_pointer (&item);
}

static GPtrArray *
pins_from_json (const char *json)
{
  g_autoptr(GPtrArray) pins = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_secret_pin_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonArray *array;

  if (json == NULL || json[0] == '\0' || !json_parser_load_from_data (parser, json, -1, NULL))
    return g_steal_pointer (&pins);
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return g_steal_pointer (&pins);
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object;
      const char *path;
      const char *sha256;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      path = json_object_get_string_member_with_default (object, "path", NULL);
      sha256 = json_object_get_string_member_with_default (object, "sha256", NULL);
      /* A pin another client mangled is no pin: the supervisor then asks. */
      if (path == NULL || sha256 == NULL || strlen (sha256) != 64)
        continue;
      g_ptr_array_add (pins, paddock_secret_pin_new (path, sha256));
    }
  return g_steal_pointer (&pins);
}

static char *
pins_to_json (GPtrArray *pins)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < pins->len; i++)
    {
      PaddockSecretPin *pin = g_ptr_array_index (pins, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, pin->path);
      json_builder_set_member_name (builder, "sha256");
      json_builder_add_string_value (builder, pin->sha256);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static PaddockSecretInfo *
info_from_item (SecretItem *item)
{
  g_autoptr(GHashTable) attributes = secret_item_get_attributes (item);
  PaddockSecretInfo *info = g_new0 (PaddockSecretInfo, 1);
  const char *name = g_hash_table_lookup (attributes, "name");
  const char *project = g_hash_table_lookup (attributes, "project");

  info->name = g_strdup (name != NULL ? name : "");
  info->project = g_strdup (project != NULL ? project : "");
  /* A missing or unknown mode is the strictest: ask. */
  info->mode = PADDOCK_SECRET_MODE_ASK;
  paddock_secret_mode_from_string (g_hash_table_lookup (attributes, "mode"), &info->mode);
  info->pins = pins_from_json (g_hash_table_lookup (attributes, "pins"));
  return info;
}

/* Writes @info's policy back as the attributes of @item. */
static gboolean
save_info (SecretService      *service,
           SecretItem         *item,
           PaddockSecretInfo  *info,
           const char         *what,
           GCancellable       *cancellable,
           GError            **error)
{
  g_autoptr(GHashTable) attributes = search_attributes (info->name, info->project);
  g_autofree char *pins = pins_to_json (info->pins);
  GError *local_error = NULL;

  g_hash_table_insert (attributes, (char *) "mode",
                       (char *) paddock_secret_mode_to_string (info->mode));
  g_hash_table_insert (attributes, (char *) "pins", pins);
  if (!unlock_item (service, item, what, info->name, info->project, cancellable, error))
    return FALSE;
  if (!secret_item_set_attributes_sync (item, vault_schema (), attributes, cancellable, &local_error))
    {
      propagate_service_error (error, local_error, what, info->name, info->project);
      return FALSE;
    }
  return TRUE;
}

/* The value as stored: UTF-8 without NUL, one trailing newline dropped,
 * copied into libsecret's secure memory. */
SecretValue *
paddock_vault_prepare_value (const char    *name,
               const char    *project,
               const guint8  *value,
               gsize          length,
               GError       **error)
{
  g_autofree char *secret = describe_secret (name, project);

  if (length > 0 && value[length - 1] == '\n')
    {
      length--;
      if (length > 0 && value[length - 1] == '\r')
        length--;
    }
  if (length == 0)
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                   "cannot store %s: the value is empty", secret);
      return NULL;
    }
  if (!g_utf8_validate_len ((const char *) value, length, NULL))
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                   "cannot store %s: the value is not UTF-8 text (the Secret Service "
                   "stores text; encode binary keys, e.g. as base64)", secret);
      return NULL;
    }
  return secret_value_new ((const char *) value, length, "text/plain");
}

/* The keyring new items go to, by its alias "default", unlocked. */
static gboolean
unlock_default_collection (SecretService  *service,
                           const char     *name,
                           const char     *project,
                           GCancellable   *cancellable,
                           GError        **error)
{
  GDBusConnection *bus = g_dbus_proxy_get_connection (G_DBUS_PROXY (service));
  const char *service_name = g_dbus_proxy_get_name (G_DBUS_PROXY (service));
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) locked = NULL;
  GError *local_error = NULL;
  const char *path = NULL;

  reply = g_dbus_connection_call_sync (bus, service_name, "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "ReadAlias",
                                       g_variant_new ("(s)", "default"), G_VARIANT_TYPE ("(o)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, cancellable, &local_error);
  if (reply == NULL)
    {
      propagate_service_error (error, local_error, "store", name, project);
      return FALSE;
    }
  g_variant_get (reply, "(&o)", &path);
  /* No default keyring: the Secret Service makes one, with its own prompt. */
  if (g_str_equal (path, "/"))
    return TRUE;
  locked = g_dbus_connection_call_sync (bus, service_name, path, "org.freedesktop.DBus.Properties", "Get",
                                        g_variant_new ("(ss)", "org.freedesktop.Secret.Collection", "Locked"),
                                        G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, -1, cancellable,
                                        &local_error);
  if (locked == NULL)
    {
      propagate_service_error (error, local_error, "store", name, project);
      return FALSE;
    }
  {
    g_autoptr(GVariant) value = NULL;

    g_variant_get (locked, "(v)", &value);
    return ensure_unlocked (service, path, g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN)
                                           && g_variant_get_boolean (value),
                            "store", name, project, cancellable, error);
  }
}

static char *
item_label (const char *name,
            const char *project)
{
  if (project[0] == '\0')
    return g_strdup_printf ("Paddock secret %s", name);
  return g_strdup_printf ("Paddock secret %s (project %s)", name, project);
}

gboolean
paddock_vault_store_value (const char    *name,
             const char    *project,
             SecretValue   *value,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItem) item = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *label = NULL;
  GError *service_error = NULL;

  service = get_service ("store", name, project, cancellable, error);
  if (service == NULL)
    return FALSE;
  item = find_item (service, name, project, "store", cancellable, &local_error);
  if (item != NULL)
    {
      if (!unlock_item (service, item, "store", name, project, cancellable, error))
        return FALSE;
      if (!secret_item_set_secret_sync (item, value, cancellable, &service_error))
        {
          propagate_service_error (error, service_error, "store", name, project);
          return FALSE;
        }
      return TRUE;
    }
  if (!g_error_matches (local_error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* A new item goes to the default collection, unlocked first so that a
   * dismissed prompt reads as such. */
  if (!unlock_default_collection (service, name, project, cancellable, error))
    return FALSE;
  attributes = search_attributes (name, project);
  g_hash_table_insert (attributes, (char *) "mode",
                       (char *) paddock_secret_mode_to_string (PADDOCK_SECRET_MODE_ASK));
  g_hash_table_insert (attributes, (char *) "pins", (char *) "[]");
  label = item_label (name, project);
  if (!secret_service_store_sync (service, vault_schema (), attributes, SECRET_COLLECTION_DEFAULT,
                                  label, value, cancellable, &service_error))
    {
      propagate_service_error (error, service_error, "store", name, project);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_vault_store_sync (const char    *name,
                          const char    *project,
                          const guint8  *value,
                          gsize          length,
                          GCancellable  *cancellable,
                          GError       **error)
{
  SecretValue *secret_value;
  gboolean ok;

  g_return_val_if_fail (value != NULL || length == 0, FALSE);

  if (!paddock_vault_check_name_and_project (name, project, error))
    return FALSE;
  secret_value = paddock_vault_prepare_value (name, project, value, length, error);
  if (secret_value == NULL)
    return FALSE;
  ok = paddock_vault_store_value (name, project, secret_value, cancellable, error);
  secret_value_unref (secret_value);
  return ok;
}

GBytes *
paddock_vault_lookup_sync (const char    *name,
                           const char    *project,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(SecretItem) item = NULL;
  GError *service_error = NULL;
  SecretValue *value;
  const char *data;
  gsize length;

  item = open_item (name, project, "read", TRUE, TRUE, NULL, cancellable, error);
  if (item == NULL)
    return NULL;
  if (!secret_item_load_secret_sync (item, cancellable, &service_error))
    {
      propagate_service_error (error, service_error, "read", name, project);
      return NULL;
    }
  value = secret_item_get_secret (item);
  if (value == NULL)
    {
      g_autofree char *secret = describe_secret (name, project);

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FAILED,
                   "cannot read %s: the Secret Service gave no value", secret);
      return NULL;
    }
  data = secret_value_get (value, &length);
  /* The bytes stay in the SecretValue's secure memory, wiped on its unref. */
  return g_bytes_new_with_free_func (data, length, (GDestroyNotify) secret_value_unref, value);
}

PaddockSecretInfo *
paddock_vault_get_info_sync (const char    *name,
                             const char    *project,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(SecretItem) item = open_item (name, project, "read", TRUE, FALSE, NULL, cancellable, error);

  return item != NULL ? info_from_item (item) : NULL;
}

static int
compare_infos (gconstpointer a,
               gconstpointer b)
{
  const PaddockSecretInfo *info_a = *(PaddockSecretInfo * const *) a;
  const PaddockSecretInfo *info_b = *(PaddockSecretInfo * const *) b;
  int by_name = strcmp (info_a->name, info_b->name);

  return by_name != 0 ? by_name : strcmp (info_a->project, info_b->project);
}

GPtrArray *
paddock_vault_list_sync (const char    *project,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItemList) items = NULL;
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_secret_info_free);
  g_autoptr(GHashTable) own = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) local_error = NULL;

  if (project != NULL && project[0] != '\0' && !g_path_is_absolute (project))
    {
      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_INVALID,
                   "cannot list secrets: project %s is not an absolute path", project);
      return NULL;
    }
  service = get_service ("list", NULL, NULL, cancellable, error);
  if (service == NULL)
    return NULL;
  items = search_items (service, NULL, NULL, "list", cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  for (GList *l = items; l != NULL; l = l->next)
    {
      g_autoptr(PaddockSecretInfo) info = info_from_item (l->data);

      if (project == NULL || g_str_equal (info->project, project) || info->project[0] == '\0')
        g_ptr_array_add (infos, g_steal_pointer (&info));
    }
  /* A project's own secret hides the global one of its name. */
  if (project != NULL && project[0] != '\0')
    {
      for (guint i = 0; i < infos->len; i++)
        {
          PaddockSecretInfo *info = g_ptr_array_index (infos, i);

          if (info->project[0] != '\0')
            g_hash_table_add (own, info->name);
        }
      for (guint i = infos->len; i > 0; i--)
        {
          PaddockSecretInfo *info = g_ptr_array_index (infos, i - 1);

          if (info->project[0] == '\0' && g_hash_table_contains (own, info->name))
            g_ptr_array_remove_index (infos, i - 1);
        }
    }
  g_ptr_array_sort (infos, compare_infos);
  return g_steal_pointer (&infos);
}

gboolean
paddock_vault_delete_sync (const char    *name,
                           const char    *project,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(SecretItem) item = NULL;
  GError *service_error = NULL;

  item = open_item (name, project, "remove", FALSE, TRUE, NULL, cancellable, error);
  if (item == NULL)
    return FALSE;
  if (!secret_item_delete_sync (item, cancellable, &service_error))
    {
      propagate_service_error (error, service_error, "remove", name, project);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_vault_set_mode_sync (const char         *name,
                             const char         *project,
                             PaddockSecretMode   mode,
                             GCancellable       *cancellable,
                             GError            **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItem) item = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;

  item = open_item (name, project, "set the mode of", FALSE, FALSE, &service, cancellable, error);
  if (item == NULL)
    return FALSE;
  info = info_from_item (item);
  info->mode = mode;
  return save_info (service, item, info, "set the mode of", cancellable, error);
}

PaddockSecretPin *
paddock_vault_pin_sync (const char    *name,
                        const char    *project,
                        const char    *path,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItem) item = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *sha256 = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean replaced = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  if (!paddock_vault_check_name_and_project (name, project, error))
    return NULL;
  sha256 = paddock_vault_hash_file (path, &resolved, &local_error);
  if (sha256 == NULL)
    {
      g_autofree char *secret = describe_secret (name, project);

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_FILE,
                   "cannot pin %s: %s", secret, local_error->message);
      return NULL;
    }
  item = open_item (name, project, "pin", FALSE, FALSE, &service, cancellable, error);
  if (item == NULL)
    return NULL;
  info = info_from_item (item);
  for (guint i = 0; i < info->pins->len; i++)
    {
      PaddockSecretPin *pin = g_ptr_array_index (info->pins, i);

      if (g_str_equal (pin->path, resolved))
        {
          g_free (pin->sha256);
          pin->sha256 = g_strdup (sha256);
          replaced = TRUE;
        }
    }
  if (!replaced)
    g_ptr_array_add (info->pins, paddock_secret_pin_new (resolved, sha256));
  if (!save_info (service, item, info, "pin", cancellable, error))
    return NULL;
  return paddock_secret_pin_new (resolved, sha256);
}

gboolean
paddock_vault_unpin_sync (const char    *name,
                          const char    *project,
                          const char    *path,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretItem) item = NULL;
  g_autoptr(PaddockSecretInfo) info = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *absolute = NULL;
  guint removed = 0;

  g_return_val_if_fail (path != NULL, FALSE);

  item = open_item (name, project, "unpin", FALSE, FALSE, &service, cancellable, error);
  if (item == NULL)
    return FALSE;
  resolved = realpath (path, NULL);
  absolute = g_canonicalize_filename (path, NULL);
  info = info_from_item (item);
  for (guint i = info->pins->len; i > 0; i--)
    {
      PaddockSecretPin *pin = g_ptr_array_index (info->pins, i - 1);

      if (g_str_equal (pin->path, absolute) || (resolved != NULL && g_str_equal (pin->path, resolved)))
        {
          g_ptr_array_remove_index (info->pins, i - 1);
          removed++;
        }
    }
  if (removed == 0)
    {
      g_autofree char *secret = describe_secret (name, project);

      g_set_error (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NOT_FOUND,
                   "cannot unpin %s from %s: it is not pinned to that program",
                   secret, resolved != NULL ? resolved : absolute);
      return FALSE;
    }
  return save_info (service, item, info, "unpin", cancellable, error);
}
