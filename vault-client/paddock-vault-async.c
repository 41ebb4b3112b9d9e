/* paddock-vault-async.c: the vault's _async calls, each its _sync call in a GTask thread
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-vault.h"
#include "paddock-vault-private.h"

typedef struct
{
  char              *name;
  char              *project;
  char              *path;
  SecretValue       *value;
  PaddockSecretMode  mode;
} VaultCall;

static void
vault_call_free (VaultCall *call)
{
  g_free (call->name);
  g_free (call->project);
  g_free (call->path);
  g_clear_pointer (&call->value, secret_value_unref);
  g_free (call);
}

static GTask *
vault_task_new (gpointer             source_tag,
                const char          *name,
                const char          *project,
                const char          *path,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  VaultCall *call = g_new0 (VaultCall, 1);

  g_task_set_source_tag (task, source_tag);
  call->name = g_strdup (name);
  call->project = g_strdup (project);
  call->path = g_strdup (path);
  g_task_set_task_data (task, call, (GDestroyNotify) vault_call_free);
  return task;
}

static void
return_boolean (GTask    *task,
                gboolean  ok,
                GError   *error)
{
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
store_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;

  gboolean ok = paddock_vault_store_value (call->name, call->project, call->value, cancellable, &error);

  return_boolean (task, ok, error);
}

void
paddock_vault_store_async (const char          *name,
                           const char          *project,
                           const guint8        *value,
                           gsize                length,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_store_async, name, project, NULL,
                                          cancellable, callback, user_data);
  VaultCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  g_return_if_fail (value != NULL || length == 0);

  /* Copied now, into secure memory: the caller may wipe its copy. */
  if (!paddock_vault_check_name_and_project (name, project, &error)
      || (call->value = paddock_vault_prepare_value (name, project, value, length, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, store_thread);
}

gboolean
paddock_vault_store_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
lookup_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;
  GBytes *value = paddock_vault_lookup_sync (call->name, call->project, cancellable, &error);

  if (value != NULL)
    g_task_return_pointer (task, value, (GDestroyNotify) g_bytes_unref);
  else
    g_task_return_error (task, error);
}

void
paddock_vault_lookup_async (const char          *name,
                            const char          *project,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_lookup_async, name, project, NULL,
                                          cancellable, callback, user_data);

  g_task_run_in_thread (task, lookup_thread);
}

GBytes *
paddock_vault_lookup_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
get_info_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;
  PaddockSecretInfo *info = paddock_vault_get_info_sync (call->name, call->project, cancellable, &error);

  if (info != NULL)
    g_task_return_pointer (task, info, (GDestroyNotify) paddock_secret_info_free);
  else
    g_task_return_error (task, error);
}

void
paddock_vault_get_info_async (const char          *name,
                              const char          *project,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_get_info_async, name, project, NULL,
                                          cancellable, callback, user_data);

  g_task_run_in_thread (task, get_info_thread);
}

PaddockSecretInfo *
paddock_vault_get_info_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
list_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;
  GPtrArray *infos = paddock_vault_list_sync (call->project, cancellable, &error);

  if (infos != NULL)
    g_task_return_pointer (task, infos, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

void
paddock_vault_list_async (const char          *project,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_list_async, NULL, project, NULL,
                                          cancellable, callback, user_data);

  g_task_run_in_thread (task, list_thread);
}

GPtrArray *
paddock_vault_list_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
delete_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;

  gboolean ok = paddock_vault_delete_sync (call->name, call->project, cancellable, &error);

  return_boolean (task, ok, error);
}

void
paddock_vault_delete_async (const char          *name,
                            const char          *project,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_delete_async, name, project, NULL,
                                          cancellable, callback, user_data);

  g_task_run_in_thread (task, delete_thread);
}

gboolean
paddock_vault_delete_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
set_mode_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;

  gboolean ok = paddock_vault_set_mode_sync (call->name, call->project, call->mode, cancellable, &error);

  return_boolean (task, ok, error);
}

void
paddock_vault_set_mode_async (const char          *name,
                              const char          *project,
                              PaddockSecretMode    mode,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_set_mode_async, name, project, NULL,
                                          cancellable, callback, user_data);
  VaultCall *call = g_task_get_task_data (task);

  call->mode = mode;
  g_task_run_in_thread (task, set_mode_thread);
}

gboolean
paddock_vault_set_mode_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
pin_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;
  PaddockSecretPin *pin = paddock_vault_pin_sync (call->name, call->project, call->path,
                                                  cancellable, &error);

  if (pin != NULL)
    g_task_return_pointer (task, pin, (GDestroyNotify) paddock_secret_pin_free);
  else
    g_task_return_error (task, error);
}

void
paddock_vault_pin_async (const char          *name,
                         const char          *project,
                         const char          *path,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_pin_async, name, project, path,
                                          cancellable, callback, user_data);

  g_return_if_fail (path != NULL);
  g_task_run_in_thread (task, pin_thread);
}

PaddockSecretPin *
paddock_vault_pin_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
unpin_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  VaultCall *call = task_data;
  GError *error = NULL;

  gboolean ok = paddock_vault_unpin_sync (call->name, call->project, call->path, cancellable, &error);

  return_boolean (task, ok, error);
}

void
paddock_vault_unpin_async (const char          *name,
                           const char          *project,
                           const char          *path,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = vault_task_new (paddock_vault_unpin_async, name, project, path,
                                          cancellable, callback, user_data);

  g_return_if_fail (path != NULL);
  g_task_run_in_thread (task, unpin_thread);
}

gboolean
paddock_vault_unpin_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
