/* paddock-lock-status.c: what the folder lock can do, as paddock-run reports it
 *
 * The GUI asks `paddock-run --lock-status --json` rather than probing the
 * kernel itself: the runner is the program that applies the lock (on the
 * host, even when the GUI runs in a Flatpak sandbox), so its answer is the
 * one that holds for the sessions it starts. Its answer is the protocol's
 * lock-status message, as a running session's hello and lock-status
 * are: one parser, one vocabulary of features (paddock-protocol.h).
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-lock-status.h"
#include "paddock-protocol.h"

#include <glib/gi18n.h>
#include <string.h>

struct _PaddockLockStatus
{
  char  *lock;       /* "landlock", "namespaces"; "off" or "none" for no lock */
  char  *reason;     /* why none, or NULL */
  char **features;
  char **denied;     /* what the lock keeps from the agent; empty where not said */
  char **home_open;  /* the home folder's entries read unasked; empty where not said */
  char **home_asked; /* the entries asked about ("/" ending a split folder); empty where not said */
};

void
paddock_lock_status_free (PaddockLockStatus *status)
{
  if (status == NULL)
    return;
  g_free (status->lock);
  g_free (status->reason);
  g_strfreev (status->features);
  g_strfreev (status->denied);
  g_strfreev (status->home_open);
  g_strfreev (status->home_asked);
  g_free (status);
}

/**
 * paddock_lock_status_new_from_message:
 * @message: a hello or lock-status message: a session's, or paddock-run
 *   --lock-status --json's
 * @error: return location for an error
 *
 * Returns: (transfer full): the facts, or %NULL when @message does not say
 *   which lock it is
 */
PaddockLockStatus *
paddock_lock_status_new_from_message (const PaddockMessage  *message,
                                      GError               **error)
{
  PaddockLockStatus *status;

  g_return_val_if_fail (message != NULL, NULL);

  if ((message->type != PADDOCK_MESSAGE_HELLO && message->type != PADDOCK_MESSAGE_LOCK_STATUS) ||
      message->lock == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("paddock-run did not say which lock it uses"));
      return NULL;
    }
  status = g_new0 (PaddockLockStatus, 1);
  status->lock = g_strdup (message->lock);
  status->reason = g_strdup (message->reason);
  status->features = message->features != NULL ? g_strdupv (message->features) : g_new0 (char *, 1);
  status->denied = message->denied != NULL ? g_strdupv (message->denied) : g_new0 (char *, 1);
  status->home_open = message->home_open != NULL ? g_strdupv (message->home_open) : g_new0 (char *, 1);
  status->home_asked = message->home_asked != NULL ? g_strdupv (message->home_asked) : g_new0 (char *, 1);
  return status;
}

static gboolean
has_feature (PaddockLockStatus *status,
             const char        *feature)
{
  return g_strv_contains ((const char * const *) status->features, feature);
}

/* Whether a lock can start here at all (or, for a session, is on). */
gboolean
paddock_lock_status_get_available (PaddockLockStatus *status)
{
  g_return_val_if_fail (status != NULL, FALSE);

  return g_strcmp0 (status->lock, "landlock") == 0 || g_strcmp0 (status->lock, "namespaces") == 0;
}

/* The paths the lock keeps from the agent, as paddock-run --lock-status
 * --json lists them (a session's hello does not): owned by @status. */
const char * const *
paddock_lock_status_get_denied (PaddockLockStatus *status)
{
  g_return_val_if_fail (status != NULL, NULL);

  return (const char * const *) status->denied;
}

/* The home folder's entries a locked agent reads unasked, as paddock-run
 * --lock-status --json lists them: owned by @status. */
const char * const *
paddock_lock_status_get_home_open (PaddockLockStatus *status)
{
  g_return_val_if_fail (status != NULL, NULL);

  return (const char * const *) status->home_open;
}

/* The entries it is asked about; a split folder ending in "/" stands for
 * each entry in it no rule names: owned by @status. */
const char * const *
paddock_lock_status_get_home_asked (PaddockLockStatus *status)
{
  g_return_val_if_fail (status != NULL, NULL);

  return (const char * const *) status->home_asked;
}

/* The kernel's Landlock ABI version, 0 without Landlock (or where not said). */
int
paddock_lock_status_get_landlock_abi (PaddockLockStatus *status)
{
  g_return_val_if_fail (status != NULL, 0);

  for (guint i = 0; status->features[i] != NULL; i++)
    if (g_str_has_prefix (status->features[i], "landlock-abi-"))
      return (int) g_ascii_strtoll (status->features[i] + strlen ("landlock-abi-"), NULL, 10);
  return 0;
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
  g_return_val_if_fail (status != NULL, NULL);

  if (g_strcmp0 (status->lock, "landlock") == 0)
    /* TRANSLATORS: the kernel feature that enforces the folder lock, and its version */
    return g_strdup_printf (_("Landlock, ABI %d"), paddock_lock_status_get_landlock_abi (status));
  if (g_strcmp0 (status->lock, "namespaces") == 0)
    return g_strdup (_("User and mount namespaces"));
  if (g_strcmp0 (status->lock, "off") == 0)
    return g_strdup (_("Off"));

  if (status->reason != NULL && *status->reason != '\0')
    {
      g_autofree char *reason = g_strdup (status->reason);

      reason[0] = g_ascii_toupper (reason[0]);
      /* TRANSLATORS: %s is paddock-run's reason, e.g. "Cannot lock the folder: Landlock is…" */
      return g_strdup_printf (_("Unavailable: %s"), reason);
    }
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
 * What the lock protects, in the user's words, in a fixed order. Where no
 * lock can start (or the session runs without one), every protection is
 * inactive.
 *
 * Returns: (transfer container) (element-type PaddockLockProtection): the
 *   protections
 */
GPtrArray *
paddock_lock_status_list_protections (PaddockLockStatus *status)
{
  static const struct
  {
    const char *feature;
    const char *title;
    const char *active_detail;
    int         landlock_abi;   /* the Landlock ABI that brings it, or 0 */
    const char *missing_detail;
  } table[] = {
    { "lock-files", N_("Files outside the project"),
      N_("Cannot be changed; credential stores cannot be read"), 1, NULL },
    { "lock-truncate", N_("Truncating files outside the project"), NULL, 3, NULL },
    { "lock-ioctl-dev", N_("Ioctls on devices"), NULL, 5,
      N_("Only Landlock confines them") },
    { "lock-signals", N_("Signals to programs outside the lock"), NULL, 6, NULL },
    { "lock-abstract-unix-sockets", N_("Abstract Unix sockets"), NULL, 6, NULL },
    { "lock-named-unix-sockets", N_("Named Unix sockets"), NULL, 0,
      N_("Cannot create a mount namespace for a private /tmp and /run") },
    { "lock-denied-folders", N_("Sockets and file names in credential stores"),
      N_("An empty folder shows where each one is"), 0,
      N_("Cannot create a mount namespace: a gpg-agent or ssh socket in them can be reached") },
    { "lock-metadata", N_("Permissions and times of files outside the project"),
      N_("Cannot be changed: every folder outside the grants is read-only"), 0,
      N_("Cannot create a mount namespace: chmod, touch and extended attributes reach them") },
    { "lock-terminals", N_("Other terminals"),
      N_("The agent has its own terminal and the ptys it makes, nothing else"), 0,
      N_("Cannot create a mount namespace: every terminal of the user can be opened") },
    { "lock-home-asked", N_("The rest of your home folder"),
      N_("Each folder is asked for on its first read, and shown on the timeline"), 0,
      N_("Closed: FUSE is not available, so nothing can be asked for") },
    { "lock-ipc", N_("Shared memory and message queues outside the lock"), NULL, 0,
      N_("Cannot create an IPC namespace") },
    { "lock-other-processes", N_("Programs outside the lock"),
      N_("Hidden: the agent sees only its own processes"), 0,
      N_("Cannot create a PID namespace: their command lines can be read, though not their "
         "memory, environment or limits") },
    { "lock-seccomp", N_("Terminal injection and risky system calls"),
      N_("A seccomp filter refuses typing into the terminal (TIOCSTI), new user namespaces, "
         "mount, bpf, io_uring, keyctl and more"), 0, NULL },
    { "lock-no-new-privs", N_("Privileges from setuid programs"),
      N_("No program started under the lock gains privileges"), 0, NULL },
  };
  GPtrArray *protections;
  gboolean available;
  int abi;

  g_return_val_if_fail (status != NULL, NULL);

  available = paddock_lock_status_get_available (status);
  abi = paddock_lock_status_get_landlock_abi (status);
  protections = g_ptr_array_new_with_free_func ((GDestroyNotify) protection_free);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      PaddockLockProtection *protection = g_new0 (PaddockLockProtection, 1);

      protection->title = _(table[i].title);
      protection->active = available && has_feature (status, table[i].feature);
      if (!available)
        protection->detail = g_strdup (g_strcmp0 (status->lock, "off") == 0 ? _("This session has no lock")
                                                                             : _("The lock cannot start here"));
      else if (protection->active && table[i].active_detail != NULL)
        protection->detail = g_strdup (_(table[i].active_detail));
      else if (!protection->active && table[i].missing_detail != NULL &&
               (table[i].landlock_abi == 0 || abi >= table[i].landlock_abi))
        protection->detail = g_strdup (_(table[i].missing_detail));
      else if (!protection->active && table[i].landlock_abi > abi)
        /* TRANSLATORS: %d is a version of the kernel's Landlock feature */
        protection->detail = g_strdup_printf (_("Needs Landlock ABI %d"), table[i].landlock_abi);
      else if (!protection->active)
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
  g_autoptr(PaddockMessage) message = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  PaddockLockStatus *status;
  gsize length;

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

  length = out != NULL ? strlen (out) : 0;
  if (length > 0 && out[length - 1] == '\n')
    length--;
  message = paddock_message_parse (out != NULL ? out : "", length, &error);
  if (message == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("paddock-run --lock-status said what is not a lock status: %s"), error->message);
      return;
    }
  status = paddock_lock_status_new_from_message (message, &error);
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
 * Runs `@runner --lock-status --json` without blocking, and reads what it says.
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
                                 runner, "--lock-status", "--json", NULL);
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
