/* paddock-application.h: the Paddock application: command line, windows, app actions
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "paddock-agent.h"
#include "paddock-project.h"
#include "paddock-session-page.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_APPLICATION (paddock_application_get_type ())

G_DECLARE_FINAL_TYPE (PaddockApplication, paddock_application, PADDOCK, APPLICATION, AdwApplication)

PaddockApplication *paddock_application_new             (const char         *application_id,
                                                         GApplicationFlags   flags);
PaddockProject     *paddock_application_lookup_project  (PaddockApplication *self,
                                                         const char         *directory,
                                                         GError            **error);
GtkWindow          *paddock_application_open_session    (PaddockApplication *self,
                                                         GtkWindow          *window,
                                                         const char         *directory,
                                                         PaddockAgent       *agent,
                                                         PaddockLockChoice   lock_choice,
                                                         GError            **error);
GtkWindow          *paddock_application_open_directory  (PaddockApplication *self,
                                                         const char         *directory,
                                                         GError            **error);
guint               paddock_application_restore_sessions (PaddockApplication *self);
void                paddock_application_sessions_changed (PaddockApplication *self);
void                paddock_application_keep_sessions   (PaddockApplication *self);
int                 paddock_application_get_exit_status (PaddockApplication *self);

G_END_DECLS
