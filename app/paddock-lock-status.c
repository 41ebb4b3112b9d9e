/* paddock-lock-status.c: what the folder lock can do on this machine, as paddock-run reports it
 *
 * The GUI asks `paddock-run --lock-status` rather than probing the kernel
 * itself: the runner is the program that applies the lock (on the host,
 * even when the GUI runs in a Flatpak sandbox), so its answer is the one
 * that holds for the sessions it starts.
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-lock-status.h"

#include <glib/gi18n.h>
#include <string.h>

struct _PaddockLockStatus
{
  GPtrArray  *keys;      /* in paddock-run's order */
  GHashTable *values;    /* key → the rest of its line */
};

void
paddock_lock_status_free (PaddockLockStatus *status)
{
  if (status == NULL)
    return;
  g_clear_pointer (&status->keys, g_ptr_array_unref);
  g_clear_pointer (&status->values, g_hash_table_unref);
  g_free (status);
}

/**
 * paddock_lock_status_parse:
 * @text: the output of `paddock-run --lock-status`: one "key: value" a line
 * @error: return location for an error
 *
 * Returns: (transfer full): the facts, or %NULL when @text does not say
 *   which mechanism the lock uses
 */
PaddockLockStatus *
paddock_lock_status_parse (const char  *text,
                           GError     **error)
{
  g_autoptr(PaddockLockStatus) status = g_new0 (PaddockLockStatus, 1);
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  status->keys = g_ptr_array_new_with_free_func (g_free);
  status->values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *colon = strstr (lines[i], ": ");
      char *key;

      if (colon == NULL || colon == lines[i])
        continue;
      key = g_strndup (lines[i], colon - lines[i]);
      if (g_hash_table_contains (status->values, key))
        {
          g_free (key);
          continue;
        }
      g_ptr_array_add (status->keys, key);
      g_hash_table_insert (status->values, key, g_strdup (colon + 2));
    }

  if (!g_hash_table_contains (status->values, "mechanism"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("paddock-run --lock-status did not say which mechanism the lock uses"));
      return NULL;
    }
  return g_steal_pointer (&status);
}

/* paddock-run's value for @key ("mechanism", "landlock-abi", …), or NULL. */
const char *
paddock_lock_status_get (PaddockLockStatus *status,
                         const char        *key)
{
  g_return_val_if_fail (status != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (status->values, key);
}

static gboolean
value_says_yes (const char *value)
{
  return value != NULL && (g_str_has_prefix (value, "yes") || g_str_has_prefix (value, "confined"));
}

/* The words in parentheses at the end of @value, as a sentence, or NULL. */
static char *
dup_reason (const char *value)
{
  const char *open = value != NULL ? strchr (value, '(') : NULL;
  char *reason;

  if (open == NULL || !g_str_has_suffix (value, ")"))
    return NULL;
  reason = g_strndup (open + 1, strlen (open + 1) - 1);
  reason[0] = g_ascii_toupper (reason[0]);
  return reason;
}

/* Whether a lock can start here at all. */
gboolean
paddock_lock_status_get_available (PaddockLockStatus *status)
{
  const char *mechanism;

  g_return_val_if_fail (status != NULL, FALSE);

  mechanism = paddock_lock_status_get (status, "mechanism");
  return g_strcmp0 (mechanism, "landlock") == 0 || g_strcmp0 (mechanism, "namespaces") == 0;
}

/* The kernel's Landlock ABI version, 0 without Landlock. */
int
paddock_lock_status_get_landlock_abi (PaddockLockStatus *status)
{
  const char *abi;

  g_return_val_if_fail (status != NULL, 0);

  abi = paddock_lock_status_get (status, "landlock-abi");
  return abi != NULL ? (int) g_ascii_strtoll (abi, NULL, 10) : 0;
}

/**
 * paddock_lock_status_dup_mechanism:
 * @status: the facts
 *
 * Returns: (transfer full): what enforces the lock, for display:
 *   "Landlock, ABI 7", "User and mount namespaces", or why nothing can
 */
char *
paddock_lock_status_dup_mechanism (PaddockLockStatus *status)
{
  const char *mechanism;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (status != NULL, NULL);

  mechanism = paddock_lock_status_get (status, "mechanism");
  if (g_strcmp0 (mechanism, "landlock") == 0)
    /* TRANSLATORS: the kernel feature that enforces the folder lock, and its version */
    return g_strdup_printf (_("Landlock, ABI %d"), paddock_lock_status_get_landlock_abi (status));
  if (g_strcmp0 (mechanism, "namespaces") == 0)
    return g_strdup (_("User and mount namespaces"));

  reason = dup_reason (mechanism);
  if (reason != NULL)
    /* TRANSLATORS: %s is paddock-run's reason, e.g. "user namespaces are unavailable…" */
    return g_strdup_printf (_("Unavailable: %s"), reason);
  return g_strdup (_("Unavailable"));
}

static void
protection_free (PaddockLockProtection *protection)
{
  g_free (protection->detail);
  g_free (protection);
}

/**
 * paddock_lock_status_list_protections:
 * @status: the facts
 *
 * What a lock started here protects, in the user's words, in a fixed order.
 * Where no mechanism works, every protection is inactive.
 *
 * Returns: (transfer container) (element-type PaddockLockProtection): the
 *   protections
 */
GPtrArray *
paddock_lock_status_list_protections (PaddockLockStatus *status)
{
  static const struct
  {
    const char *key;
    const char *title;
    const char *active_detail;
    gboolean    landlock_only;
  } table[] = {
    { "filesystem", N_("Files outside the project"),
      N_("Cannot be changed; credential stores cannot be read"), FALSE },
    { "truncate", N_("Truncating files outside the project"), NULL, FALSE },
    { "ioctl-dev", N_("Ioctls on devices"), NULL, TRUE },
    { "scope-signal", N_("Signals to programs outside the lock"), NULL, FALSE },
    { "abstract-unix-sockets", N_("Abstract Unix sockets"), NULL, FALSE },
    { "named-unix-sockets", N_("Named Unix sockets"), NULL, FALSE },
    { "seccomp", N_("Terminal injection and risky system calls"),
      N_("A seccomp filter refuses typing into the terminal (TIOCSTI), new user namespaces, "
         "mount, bpf, io_uring, keyctl and more"), FALSE },
    { "no-new-privs", N_("Privileges from setuid programs"),
      N_("No program started under the lock gains privileges"), FALSE },
  };
  GPtrArray *protections;
  gboolean available;
  gboolean namespaces;

  g_return_val_if_fail (status != NULL, NULL);

  available = paddock_lock_status_get_available (status);
  namespaces = g_strcmp0 (paddock_lock_status_get (status, "mechanism"), "namespaces") == 0;
  protections = g_ptr_array_new_with_free_func ((GDestroyNotify) protection_free);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      const char *value = paddock_lock_status_get (status, table[i].key);
      PaddockLockProtection *protection;

      if (value == NULL)
        continue;
      protection = g_new0 (PaddockLockProtection, 1);
      protection->title = _(table[i].title);
      protection->active = available && value_says_yes (value);
      /* The namespaces backend keeps files out by read-only mounts, not Landlock. */
      if (namespaces && (g_str_equal (table[i].key, "filesystem") || g_str_equal (table[i].key, "truncate")))
        protection->active = TRUE;
      else if (namespaces && table[i].landlock_only)
        protection->active = FALSE;

      if (!available)
        protection->detail = g_strdup (_("The lock cannot start here"));
      else if (protection->active && table[i].active_detail != NULL)
        protection->detail = g_strdup (_(table[i].active_detail));
      else
        {
          /* The first clause says why; paddock-run's explanation after it
           * belongs in the README, not in a popover line. */
          g_autofree char *reason = dup_reason (value);
          char *semicolon = reason != NULL ? strchr (reason, ';') : NULL;

          if (semicolon != NULL)
            *semicolon = '\0';
          protection->detail = g_steal_pointer (&reason);
        }
      if (protection->detail == NULL && !protection->active)
        protection->detail = g_strdup (_("This kernel does not offer it"));

      g_ptr_array_add (protections, protection);
    }
  return protections;
}

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  PaddockLockStatus *status;

  if (!g_subprocess_communicate_utf8_finish (subprocess, result, &out, &err, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!g_subprocess_get_if_exited (subprocess) || g_subprocess_get_exit_status (subprocess) != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("paddock-run --lock-status failed: %s"),
                               err != NULL && *err != '\0' ? g_strstrip (err) : _("no reason given"));
      return;
    }

  status = paddock_lock_status_parse (out != NULL ? out : "", &error);
  if (status == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, status, (GDestroyNotify) paddock_lock_status_free);
}

/**
 * paddock_lock_status_load_async:
 * @runner: the absolute path of paddock-run
 * @cancellable: (nullable): a cancellable
 * @callback: called with the result
 * @user_data: for @callback
 *
 * Runs `@runner --lock-status` without blocking, and parses what it says.
 */
void
paddock_lock_status_load_async (const char          *runner,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (runner != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_lock_status_load_async);

  subprocess = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                 runner, "--lock-status", NULL);
  if (subprocess == NULL)
    {
      g_task_return_new_error (task, error->domain, error->code,
                               _("Cannot run %s --lock-status: %s"), runner, error->message);
      return;
    }
  g_subprocess_communicate_utf8_async (subprocess, NULL, cancellable, communicate_cb, g_steal_pointer (&task));
}

PaddockLockStatus *
paddock_lock_status_load_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
