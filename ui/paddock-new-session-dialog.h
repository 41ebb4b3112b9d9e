/* paddock-new-session-dialog.h: picks a project, an agent and the lock, and starts a session
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "paddock-session-page.h"
#include "paddock-window.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_NEW_SESSION_DIALOG (paddock_new_session_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PaddockNewSessionDialog, paddock_new_session_dialog, PADDOCK, NEW_SESSION_DIALOG, AdwWindow)

PaddockNewSessionDialog *paddock_new_session_dialog_new            (PaddockWindow           *window);
void                     paddock_new_session_dialog_select_project (PaddockNewSessionDialog *self,
                                                                    const char              *path);
gboolean                 paddock_new_session_dialog_select_agent   (PaddockNewSessionDialog *self,
                                                                    const char              *id);
void                     paddock_new_session_dialog_set_command    (PaddockNewSessionDialog *self,
                                                                    const char              *command_line);
void                     paddock_new_session_dialog_set_lock       (PaddockNewSessionDialog *self,
                                                                    gboolean                 lock);
PaddockProject          *paddock_new_session_dialog_get_project    (PaddockNewSessionDialog *self);
PaddockSessionPage      *paddock_new_session_dialog_start          (PaddockNewSessionDialog *self,
                                                                    GError                 **error);

G_END_DECLS
