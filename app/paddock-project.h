/* paddock-project.h: a project folder, resolved and checked, that sessions run in, and its lock choice
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PADDOCK_TYPE_PROJECT (paddock_project_get_type ())

G_DECLARE_FINAL_TYPE (PaddockProject, paddock_project, PADDOCK, PROJECT, GObject)

PaddockProject *paddock_project_new_for_path  (const char      *path,
                                               GError         **error);
const char     *paddock_project_get_path      (PaddockProject  *self);
const char     *paddock_project_get_name      (PaddockProject  *self);
char           *paddock_project_dup_display_path (PaddockProject *self);
char           *paddock_display_path             (const char     *path);

gboolean        paddock_project_get_lock      (PaddockProject  *self);
const GError   *paddock_project_get_lock_error (PaddockProject *self);
void            paddock_project_reload_lock   (PaddockProject  *self);
void            paddock_project_set_lock_async (PaddockProject      *self,
                                                gboolean             lock,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean        paddock_project_set_lock_finish (PaddockProject  *self,
                                                 GAsyncResult    *result,
                                                 GError         **error);

gboolean        paddock_project_get_network_locked (PaddockProject  *self);
gboolean        paddock_project_set_network_locked (PaddockProject  *self,
                                                    gboolean         locked,
                                                    GError         **error);

G_END_DECLS
