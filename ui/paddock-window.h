/* paddock-window.h: a Paddock window: a project's sessions in tabs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "paddock-application.h"
#include "paddock-project.h"
#include "paddock-session-page.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_WINDOW (paddock_window_get_type ())

G_DECLARE_FINAL_TYPE (PaddockWindow, paddock_window, PADDOCK, WINDOW, AdwApplicationWindow)

PaddockWindow      *paddock_window_new          (PaddockApplication *application);
PaddockProject     *paddock_window_get_project  (PaddockWindow      *self);
PaddockSessionPage *paddock_window_get_selected_session (PaddockWindow *self);
AdwTabView         *paddock_window_get_tab_view (PaddockWindow      *self);
PaddockSessionPage *paddock_window_add_session  (PaddockWindow      *self,
                                                 PaddockProject     *project,
                                                 PaddockAgent       *agent,
                                                 PaddockLockChoice   lock_choice);
void                paddock_window_show_error   (PaddockWindow      *self,
                                                 const char         *directory,
                                                 const GError       *error);

G_END_DECLS
