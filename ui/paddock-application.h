/* paddock-application.h: the Paddock application: command line, windows, app actions
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADDOCK_TYPE_APPLICATION (paddock_application_get_type ())

G_DECLARE_FINAL_TYPE (PaddockApplication, paddock_application, PADDOCK, APPLICATION, AdwApplication)

PaddockApplication *paddock_application_new             (const char         *application_id,
                                                         GApplicationFlags   flags);
GtkWindow          *paddock_application_open_directory  (PaddockApplication *self,
                                                         const char         *directory,
                                                         GError            **error);
int                 paddock_application_get_exit_status (PaddockApplication *self);

G_END_DECLS
