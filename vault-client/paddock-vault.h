/* paddock-vault.h: Paddock's secrets in the user's Secret Service
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A secret is one item of the schema "org.paddock.Secret" in the user's
 * Secret Service provider (gnome-keyring, KeePassXC), found by two
 * attributes: `name` and `project` (a project folder's canonical path, or
 * "" for a secret every project sees). Its policy lives beside it, as two
 * more attributes of the same item, so one place holds everything and
 * nothing needs syncing: `mode` ("ask", "session" or "pinned") and `pins`
 * (a JSON array of {"path": …, "sha256": …}). Attributes are not secret
 * (the provider stores them in clear and shows them to any client); only
 * the value is.
 *
 * A name is 1 to 128 bytes of ASCII letters, digits, '.', '_' and '-', so
 * it can stand in an argv, an environment mapping and a «secret:NAME»
 * mask. A project is "" or an absolute path; the library does not resolve
 * it, callers pass what paddock-run resolves (the folder's canonical path).
 *
 * Looking up (name, project) takes the project's own item and, where it
 * has none, the global one of that name: a per-project secret hides a
 * global one. Two items for the same (name, project), which another client
 * can create, are an error (PADDOCK_VAULT_ERROR_AMBIGUOUS), never a guess.
 *
 * Every _async call does its work in a GTask thread and returns on the
 * caller's thread-default main context, so the window's thread never
 * blocks on D-Bus or a prompt. The _sync calls block; they are for
 * paddockctl, paddock-run and tests, on any thread (libsecret runs a
 * main context of its own for them). Calls that need the value or change
 * an item (and store, for the default keyring a new item goes to) unlock
 * a locked keyring through the provider's own prompt (the Secret
 * Service's Unlock and Prompt); a dismissed prompt is
 * PADDOCK_VAULT_ERROR_DISMISSED. Listing and reading policy need no
 * unlocking (attributes are readable while locked).
 *
 * Errors name the secret (and its project) and the reason; no error
 * message ever contains a value.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PADDOCK_VAULT_SCHEMA_NAME "org.paddock.Secret"

#define PADDOCK_VAULT_ERROR (paddock_vault_error_quark ())

typedef enum
{
  PADDOCK_VAULT_ERROR_FAILED,
  /* No item of that name that the project sees, or no such pin. */
  PADDOCK_VAULT_ERROR_NOT_FOUND,
  /* Two or more items for one (name, project). */
  PADDOCK_VAULT_ERROR_AMBIGUOUS,
  /* The provider's unlock prompt was dismissed. */
  PADDOCK_VAULT_ERROR_DISMISSED,
  /* No Secret Service on the session bus, or no session bus. */
  PADDOCK_VAULT_ERROR_NO_SERVICE,
  /* A bad name, project, mode or value (not UTF-8, empty). */
  PADDOCK_VAULT_ERROR_INVALID,
  /* A file that cannot be pinned (missing, unreadable, not a regular file). */
  PADDOCK_VAULT_ERROR_FILE,
} PaddockVaultError;

GQuark paddock_vault_error_quark (void);

/* When the supervisor hands the secret to a program. */
typedef enum
{
  PADDOCK_SECRET_MODE_ASK,      /* ask the user at every use (the default) */
  PADDOCK_SECRET_MODE_SESSION,  /* ask once per session and program hash */
  PADDOCK_SECRET_MODE_PINNED,   /* allow pinned programs whose hash matches; ask for others */
} PaddockSecretMode;

/* "ask", "session", "pinned". */
const char *paddock_secret_mode_to_string   (PaddockSecretMode  mode);
/* FALSE (and @mode untouched) for anything else. */
gboolean    paddock_secret_mode_from_string (const char        *text,
                                             PaddockSecretMode *mode);

/* A program a secret is pinned to: its path (absolute, symlinks resolved)
 * and the SHA-256 of its file's content, as 64 lowercase hex digits. */
typedef struct
{
  char *path;
  char *sha256;
} PaddockSecretPin;

PaddockSecretPin *paddock_secret_pin_new  (const char       *path,
                                           const char       *sha256);
void              paddock_secret_pin_free (PaddockSecretPin *pin);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockSecretPin, paddock_secret_pin_free)

/* What is known of a secret without its value. */
typedef struct
{
  char              *name;
  char              *project;  /* "" for a global secret */
  PaddockSecretMode  mode;
  GPtrArray         *pins;     /* of PaddockSecretPin, never NULL */
} PaddockSecretInfo;

void                    paddock_secret_info_free     (PaddockSecretInfo *info);
/* The pin for @path (compared as given), or NULL. */
const PaddockSecretPin *paddock_secret_info_find_pin (const PaddockSecretInfo *info,
                                                      const char              *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockSecretInfo, paddock_secret_info_free)

/* Whether @name is a valid secret name; the error says why not. */
gboolean paddock_vault_check_name  (const char  *name,
                                    GError     **error);

/* The SHA-256 of what @fd reads from its current offset to the end, as 64
 * lowercase hex digits; the supervisor hashes the very file it executes.
 * Blocks (reads the file). */
char    *paddock_vault_hash_fd     (int          fd,
                                    GError     **error);
/* Opens @path (a regular, readable file), hashes it, and returns the hash;
 * @resolved_path, when given, receives its absolute path with symlinks
 * resolved, the path a pin names. Blocks. */
char    *paddock_vault_hash_file   (const char  *path,
                                    char       **resolved_path,
                                    GError     **error);

/* Stores @value under (@name, @project), replacing the value of an
 * existing item (its mode and pins are kept); a new item has mode "ask"
 * and no pins. The value must be UTF-8 (the Secret Service's text type)
 * without NUL bytes; ONE trailing "\n" (or "\r\n") is stripped, as a
 * value read from a file or `echo` ends with one; what remains must not
 * be empty. The caller wipes its own copy of @value; the library keeps
 * its copies in secure memory. */
void     paddock_vault_store_async  (const char          *name,
                                     const char          *project,
                                     const guint8        *value,
                                     gsize                length,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
gboolean paddock_vault_store_finish (GAsyncResult        *result,
                                     GError             **error);
gboolean paddock_vault_store_sync   (const char          *name,
                                     const char          *project,
                                     const guint8        *value,
                                     gsize                length,
                                     GCancellable        *cancellable,
                                     GError             **error);

/* The value of the secret @project sees as @name (its own, else the
 * global one). The GBytes holds libsecret's secure-memory SecretValue and
 * wipes it when freed: drop it as soon as it is used, and wipe any copy. */
void     paddock_vault_lookup_async  (const char          *name,
                                      const char          *project,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
GBytes  *paddock_vault_lookup_finish (GAsyncResult        *result,
                                      GError             **error);
GBytes  *paddock_vault_lookup_sync   (const char          *name,
                                      const char          *project,
                                      GCancellable        *cancellable,
                                      GError             **error);

/* The name, project, mode and pins of the secret @project sees as @name,
 * chosen as lookup chooses it; no value, no unlocking. */
void               paddock_vault_get_info_async  (const char          *name,
                                                  const char          *project,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
PaddockSecretInfo *paddock_vault_get_info_finish (GAsyncResult        *result,
                                                  GError             **error);
PaddockSecretInfo *paddock_vault_get_info_sync   (const char          *name,
                                                  const char          *project,
                                                  GCancellable        *cancellable,
                                                  GError             **error);

/* Paddock's secrets, never their values, sorted by name then project.
 * @project NULL: every secret of every project. Otherwise the secrets
 * @project sees: its own and the global ones it does not hide ("" lists
 * the global ones only). A GPtrArray of PaddockSecretInfo, owning them. */
void       paddock_vault_list_async  (const char          *project,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
GPtrArray *paddock_vault_list_finish (GAsyncResult        *result,
                                      GError             **error);
GPtrArray *paddock_vault_list_sync   (const char          *project,
                                      GCancellable        *cancellable,
                                      GError             **error);

/* Deletes the item (@name, @project) exactly: a global secret is deleted
 * with project "", never through a project that sees it. */
void     paddock_vault_delete_async  (const char          *name,
                                      const char          *project,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
gboolean paddock_vault_delete_finish (GAsyncResult        *result,
                                      GError             **error);
gboolean paddock_vault_delete_sync   (const char          *name,
                                      const char          *project,
                                      GCancellable        *cancellable,
                                      GError             **error);

/* Sets the mode of the item (@name, @project) exactly. */
void     paddock_vault_set_mode_async  (const char          *name,
                                        const char          *project,
                                        PaddockSecretMode    mode,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean paddock_vault_set_mode_finish (GAsyncResult        *result,
                                        GError             **error);
gboolean paddock_vault_set_mode_sync   (const char          *name,
                                        const char          *project,
                                        PaddockSecretMode    mode,
                                        GCancellable        *cancellable,
                                        GError             **error);

/* Pins the item (@name, @project) to the program file @path: hashes it
 * now (paddock_vault_hash_file) and records its resolved path and hash,
 * replacing an earlier pin of the same path. Returns the pin recorded. */
void              paddock_vault_pin_async  (const char          *name,
                                            const char          *project,
                                            const char          *path,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
PaddockSecretPin *paddock_vault_pin_finish (GAsyncResult        *result,
                                            GError             **error);
PaddockSecretPin *paddock_vault_pin_sync   (const char          *name,
                                            const char          *project,
                                            const char          *path,
                                            GCancellable        *cancellable,
                                            GError             **error);

/* Removes the pin of @path (resolved as pin resolves it where the file
 * still exists, else compared as an absolute path) from the item
 * (@name, @project); NOT_FOUND where there is none. */
void     paddock_vault_unpin_async  (const char          *name,
                                     const char          *project,
                                     const char          *path,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
gboolean paddock_vault_unpin_finish (GAsyncResult        *result,
                                     GError             **error);
gboolean paddock_vault_unpin_sync   (const char          *name,
                                     const char          *project,
                                     const char          *path,
                                     GCancellable        *cancellable,
                                     GError             **error);

G_END_DECLS
