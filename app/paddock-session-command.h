/* paddock-session-command.h: the command line a session's terminal runs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "paddock-project.h"

G_BEGIN_DECLS

gboolean paddock_session_command_is_executable (const char      *path);
char  *paddock_session_command_find_runner   (GError            **error);
char  *paddock_session_command_dup_user_shell (void);
char **paddock_session_command_build_argv    (const char         *runner,
                                              PaddockProject     *project,
                                              gboolean            lock,
                                              gboolean            net_locked,
                                              int                 control_fd,
                                              const char * const *command);
char **paddock_session_command_build_environ (const char         *shell);

G_END_DECLS
