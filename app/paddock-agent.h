/* paddock-agent.h: what a session runs: a known coding agent, the shell, or a command
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PADDOCK_AGENT_ERROR (paddock_agent_error_quark ())

typedef enum {
  PADDOCK_AGENT_ERROR_UNKNOWN,        /* no agent by that name */
  PADDOCK_AGENT_ERROR_NOT_INSTALLED,  /* its program is not on PATH */
} PaddockAgentError;

#define PADDOCK_TYPE_AGENT (paddock_agent_get_type ())

G_DECLARE_FINAL_TYPE (PaddockAgent, paddock_agent, PADDOCK, AGENT, GObject)

GQuark        paddock_agent_error_quark   (void);

GListModel   *paddock_agent_list_known    (void);
PaddockAgent *paddock_agent_lookup        (const char          *id,
                                           GError             **error);
PaddockAgent *paddock_agent_new_command   (const char * const  *command);
PaddockAgent *paddock_agent_new_saved     (const char          *id,
                                           const char * const  *command,
                                           GError             **error);

const char   *paddock_agent_get_id        (PaddockAgent        *self);
const char   *paddock_agent_get_name      (PaddockAgent        *self);
const char   *paddock_agent_get_program   (PaddockAgent        *self);
const char * const *paddock_agent_get_command (PaddockAgent    *self);
gboolean      paddock_agent_is_shell      (PaddockAgent        *self);
char         *paddock_agent_find_program  (PaddockAgent        *self);
char        **paddock_agent_dup_argv      (PaddockAgent        *self,
                                           GError             **error);

G_END_DECLS
