/* paddock-project.c: a project folder, resolved and checked, that sessions run in, and its lock choice
 *
 * The folder lock is opt-in per project and remembered per project, in the
 * settings paddock-run reads (paddock-project-config), never in the project.
 * The project follows that file as other programs (paddockctl lock) change
 * it, so a new tab never starts with a choice the user has since changed.
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-project.h"

#include "paddock-project-config.h"
#include "paddock-project-net.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _PaddockProject
{
  GObject  parent_instance;

  char         *path;
  char         *name;

  gboolean      lock;
  gboolean      network_locked;  /* "network": "locked" */
  GError       *lock_error;      /* the saved settings do not parse */
  GFileMonitor *settings_monitor;
  GQueue        saves;           /* GTask*, the choices still to save, oldest first */
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_NAME,
  PROP_LOCK,
  PROP_NETWORK_LOCKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockProject, paddock_project, G_TYPE_OBJECT)

static void
paddock_project_finalize (GObject *object)
{
  PaddockProject *self = PADDOCK_PROJECT (object);

  if (self->settings_monitor != NULL)
    g_file_monitor_cancel (self->settings_monitor);
  g_clear_object (&self->settings_monitor);
  g_clear_error (&self->lock_error);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (paddock_project_parent_class)->finalize (object);
}

static void
paddock_project_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PaddockProject *self = PADDOCK_PROJECT (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_LOCK:
      g_value_set_boolean (value, self->lock);
      break;

    case PROP_NETWORK_LOCKED:
      g_value_set_boolean (value, self->network_locked);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_project_class_init (PaddockProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = paddock_project_finalize;
  object_class->get_property = paddock_project_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The saved folder-lock choice, which sessions started from now on get. */
  properties[PROP_LOCK] =
    g_param_spec_boolean ("lock", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The saved network-lock choice, which sessions started from now on get. */
  properties[PROP_NETWORK_LOCKED] =
    g_param_spec_boolean ("network-locked", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
paddock_project_init (PaddockProject *self)
{
}

static void
set_network_locked (PaddockProject *self,
                    gboolean        locked)
{
  locked = !!locked;
  if (self->network_locked == locked)
    return;
  self->network_locked = locked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NETWORK_LOCKED]);
}

static void
set_lock (PaddockProject *self,
          gboolean        lock)
{
  lock = !!lock;
  if (self->lock == lock)
    return;
  self->lock = lock;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCK]);
}

static void
settings_changed_cb (PaddockProject    *self,
                     GFile             *file,
                     GFile             *other_file,
                     GFileMonitorEvent  event,
                     GFileMonitor      *monitor)
{
  if (event == G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT ||
      event == G_FILE_MONITOR_EVENT_CREATED ||
      event == G_FILE_MONITOR_EVENT_DELETED ||
      event == G_FILE_MONITOR_EVENT_MOVED_IN ||
      event == G_FILE_MONITOR_EVENT_RENAMED)
    paddock_project_reload_lock (self);
}

/**
 * paddock_project_new_for_path:
 * @path: a folder, absolute or relative to the current directory
 * @error: return location for an error
 *
 * Resolves @path to its canonical absolute form and checks that it is a
 * folder the user can enter, since every session of the project runs there.
 *
 * Returns: (transfer full): the project, or %NULL with @error set to a
 *   message naming the folder and the reason
 */
PaddockProject *
paddock_project_new_for_path (const char  *path,
                              GError     **error)
{
  g_autoptr(PaddockProject) self = NULL;
  g_autofree char *canonical = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (*path == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("Cannot open a project with an empty folder name"));
      return NULL;
    }

  canonical = realpath (path, NULL);
  if (canonical == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  if (stat (canonical, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("Cannot open %s: %s"), path, g_strerror (ENOTDIR));
      return NULL;
    }

  /* The shell starts in the folder, so it must be enterable, not only listed. */
  if (access (canonical, X_OK) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  self = g_object_new (PADDOCK_TYPE_PROJECT, NULL);
  self->name = g_path_get_basename (canonical);
  self->path = g_steal_pointer (&canonical);

  paddock_project_reload_lock (self);
  {
    g_autofree char *settings_path = paddock_project_config_path (self->path);
    g_autoptr(GFile) settings = g_file_new_for_path (settings_path);

    /* Without a monitor the choice is still read again as each session starts. */
    self->settings_monitor = g_file_monitor_file (settings, G_FILE_MONITOR_NONE, NULL, NULL);
    if (self->settings_monitor != NULL)
      g_signal_connect_object (self->settings_monitor, "changed",
                               G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  }

  return g_steal_pointer (&self);
}

const char *
paddock_project_get_path (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return self->path;
}

/* The folder's own name, what the user calls the project ("/" for the root). */
const char *
paddock_project_get_name (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return self->name;
}

/**
 * paddock_project_dup_display_path:
 * @self: a project
 *
 * Returns: (transfer full): the path for display, with the home folder
 *   written as "~", as shells and file choosers show it
 */
char *
paddock_project_dup_display_path (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return paddock_display_path (self->path);
}

/* @path as paddock_project_dup_display_path() shows a project's. */
char *
paddock_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  size_t home_len = home != NULL ? strlen (home) : 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (home_len > 1 &&
      strncmp (path, home, home_len) == 0 &&
      (path[home_len] == '\0' || path[home_len] == '/'))
    return g_strconcat ("~", path + home_len, NULL);

  return g_strdup (path);
}

/* Whether sessions started from now on run under the folder lock. */
gboolean
paddock_project_get_lock (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), FALSE);

  return self->lock;
}

/* Why the saved settings cannot be read, or NULL when they can. */
const GError *
paddock_project_get_lock_error (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return self->lock_error;
}

/**
 * paddock_project_reload_lock:
 * @self: a project
 *
 * Reads the saved lock choices again, the folder's and the network's.
 * Settings that do not parse count as "on" for both: paddock-run then refuses to start and says why, rather than a
 * session running unlocked against what the user may have saved.
 */
void
paddock_project_reload_lock (PaddockProject *self)
{
  PaddockProjectConfig config = { 0 };
  PaddockProjectNet net = { 0 };
  g_autoptr(GError) error = NULL;

  g_return_if_fail (PADDOCK_IS_PROJECT (self));

  /* A choice being saved is newer than what the file says. */
  if (!g_queue_is_empty (&self->saves))
    return;

  g_clear_error (&self->lock_error);
  if (!paddock_project_config_load (self->path, &config, &error) ||
      !paddock_project_net_load (self->path, &net, &error))
    {
      self->lock_error = g_steal_pointer (&error);
      set_lock (self, TRUE);
      set_network_locked (self, TRUE);
      return;
    }
  set_lock (self, config.has_lock && config.lock);
  set_network_locked (self, net.locked);
  paddock_project_config_clear (&config);
  paddock_project_net_clear (&net);
}

/* Whether sessions started from now on run under the network lock. */
gboolean
paddock_project_get_network_locked (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), FALSE);

  return self->network_locked;
}

/**
 * paddock_project_set_network_locked:
 * @self: a project
 * @locked: whether sessions started from now on run under the network lock
 * @error: where to say why it could not be saved
 *
 * Saves the network-lock choice in the project's settings, on the calling
 * thread: a file of a few hundred bytes, written whole. Running sessions
 * keep the network they started with.
 */
gboolean
paddock_project_set_network_locked (PaddockProject  *self,
                                    gboolean         locked,
                                    GError         **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), FALSE);

  if (!paddock_project_net_save_locked (self->path, locked, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot save the network lock of %s: %s"), self->path, local_error->message);
      return FALSE;
    }
  set_network_locked (self, locked);
  return TRUE;
}

typedef struct
{
  char     *path;
  gboolean  lock;
} SaveLock;

static void
save_lock_free (SaveLock *save)
{
  g_free (save->path);
  g_free (save);
}

static void
save_lock_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  SaveLock *save = task_data;
  g_autoptr(GError) error = NULL;

  /* Settings that do not read are kept, and the save fails. */
  if (!paddock_project_config_save_lock (save->path, save->lock, &error))
    g_task_return_new_error (task, error->domain, error->code,
                             _("Cannot save the folder lock of %s: %s"), save->path, error->message);
  else
    g_task_return_boolean (task, TRUE);
}

static void start_next_save (PaddockProject *self);

static void
save_lock_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PaddockProject *self = PADDOCK_PROJECT (object);
  g_autoptr(GTask) task = g_queue_pop_head (&self->saves);
  g_autoptr(GError) error = NULL;

  g_assert (task != NULL);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Show what the file really says again, unless a newer choice follows. */
      paddock_project_reload_lock (self);
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    g_task_return_boolean (task, TRUE);

  start_next_save (self);
}

/* Saves run one at a time, in the order they were asked for, so that the
 * file ends with the last choice. */
static void
start_next_save (PaddockProject *self)
{
  GTask *next = g_queue_peek_head (&self->saves);
  g_autoptr(GTask) save_task = NULL;
  SaveLock *save;

  if (next == NULL)
    return;

  save = g_new0 (SaveLock, 1);
  save->path = g_strdup (self->path);
  save->lock = GPOINTER_TO_INT (g_task_get_task_data (next));

  save_task = g_task_new (self, NULL, save_lock_done_cb, NULL);
  g_task_set_task_data (save_task, save, (GDestroyNotify) save_lock_free);
  g_task_run_in_thread (save_task, save_lock_thread);
}

/**
 * paddock_project_set_lock_async:
 * @self: a project
 * @lock: whether sessions started from now on run under the folder lock
 * @cancellable: (nullable): a cancellable
 * @callback: called once the choice is saved, or could not be
 * @user_data: for @callback
 *
 * Saves the lock choice off the calling thread. #PaddockProject:lock takes
 * the new value at once, and goes back to what the file says if saving
 * fails. Running sessions keep the lock they started with.
 */
void
paddock_project_set_lock_async (PaddockProject      *self,
                                gboolean             lock,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (PADDOCK_IS_PROJECT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_project_set_lock_async);
  g_task_set_task_data (task, GINT_TO_POINTER (!!lock), NULL);

  g_queue_push_tail (&self->saves, task);
  g_clear_error (&self->lock_error);
  set_lock (self, lock);
  if (g_queue_get_length (&self->saves) == 1)
    start_next_save (self);
}

gboolean
paddock_project_set_lock_finish (PaddockProject  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
