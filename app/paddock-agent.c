/* paddock-agent.c: what a session runs: a known coding agent, the shell, or a command
 *
 * The known agents are the ones the folder lock has a profile for (see
 * data/agent-profiles.conf), under the same ids, so that a session
 * started as "claude" is also locked as Claude Code needs: paddock-run
 * applies the profile's arguments under the lock, not this list. An agent is
 * looked for on PATH when a session starts, not when the list is made:
 * one installed while Paddock runs is found.
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-agent.h"

#include <glib/gi18n.h>
#include <string.h>

#include "paddock-session-command.h"

#define COMMAND_ID "command"

struct _PaddockAgent
{
  GObject   parent_instance;

  char     *id;
  char     *name;
  char     *program;   /* looked for on PATH; NULL for the shell and a command */
  GStrv     command;   /* a command's argv; NULL otherwise */
};

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_PROGRAM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockAgent, paddock_agent, G_TYPE_OBJECT)
G_DEFINE_QUARK (paddock-agent-error-quark, paddock_agent_error)

static const struct
{
  const char *id;
  const char *name;
  const char *program;
} known_agents[] = {
  { "claude",   N_("Claude Code"), "claude" },
  { "codex",    N_("Codex CLI"),   "codex" },
  { "gemini",   N_("Gemini CLI"),  "gemini" },
  { "opencode", N_("OpenCode"),    "opencode" },
  { "aider",    N_("Aider"),       "aider" },
  /* TRANSLATORS: the agent that is the user's own login shell */
  { "shell",    N_("Shell"),       NULL },
};

static void
paddock_agent_finalize (GObject *object)
{
  PaddockAgent *self = PADDOCK_AGENT (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->program);
  g_strfreev (self->command);

  G_OBJECT_CLASS (paddock_agent_parent_class)->finalize (object);
}

static void
paddock_agent_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PaddockAgent *self = PADDOCK_AGENT (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PROGRAM:
      g_value_set_string (value, self->program);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_agent_class_init (PaddockAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = paddock_agent_finalize;
  object_class->get_property = paddock_agent_get_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* What users call it: "Claude Code", "Shell", or a command's program. */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRAM] =
    g_param_spec_string ("program", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
paddock_agent_init (PaddockAgent *self)
{
}

static PaddockAgent *
new_known (guint i)
{
  PaddockAgent *self = g_object_new (PADDOCK_TYPE_AGENT, NULL);

  self->id = g_strdup (known_agents[i].id);
  self->name = g_strdup (_(known_agents[i].name));
  self->program = g_strdup (known_agents[i].program);
  return self;
}

/**
 * paddock_agent_list_known:
 *
 * The agents Paddock knows by name, then the shell; installed or not.
 *
 * Returns: (transfer full): a list of #PaddockAgent
 */
GListModel *
paddock_agent_list_known (void)
{
  GListStore *store = g_list_store_new (PADDOCK_TYPE_AGENT);

  for (guint i = 0; i < G_N_ELEMENTS (known_agents); i++)
    {
      g_autoptr(PaddockAgent) agent = new_known (i);

      g_list_store_append (store, agent);
    }
  return G_LIST_MODEL (store);
}

/**
 * paddock_agent_lookup:
 * @id: a known agent's id ("claude", "shell", …)
 * @error: return location for PADDOCK_AGENT_ERROR_UNKNOWN, naming the
 *   ids there are
 *
 * Returns: (transfer full) (nullable): the agent
 */
PaddockAgent *
paddock_agent_lookup (const char  *id,
                      GError     **error)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (known_agents); i++)
    {
      if (strcmp (known_agents[i].id, id) == 0)
        return new_known (i);
      g_string_append_printf (ids, "%s%s", i > 0 ? ", " : "", known_agents[i].id);
    }
  g_set_error (error, PADDOCK_AGENT_ERROR, PADDOCK_AGENT_ERROR_UNKNOWN,
               /* TRANSLATORS: the first %s is what the user asked for, the second the list of agents */
               _("No agent called “%s”; the agents are %s"), id, ids->str);
  return NULL;
}

/**
 * paddock_agent_new_command:
 * @command: (array zero-terminated=1): a program and its arguments
 *
 * A session that runs @command, named after its program.
 *
 * Returns: (transfer full): the agent
 */
PaddockAgent *
paddock_agent_new_command (const char * const *command)
{
  PaddockAgent *self;

  g_return_val_if_fail (command != NULL && command[0] != NULL && *command[0] != '\0', NULL);

  self = g_object_new (PADDOCK_TYPE_AGENT, NULL);
  self->id = g_strdup (COMMAND_ID);
  self->name = g_path_get_basename (command[0]);
  self->command = g_strdupv ((char **) command);
  return self;
}

/**
 * paddock_agent_new_saved:
 * @id: an agent's id, as paddock_agent_get_id() gave it
 * @command: (nullable) (array zero-terminated=1): its command, for a command
 * @error: return location for an error
 *
 * The agent a saved session ran, for restoring it.
 *
 * Returns: (transfer full) (nullable): the agent
 */
PaddockAgent *
paddock_agent_new_saved (const char          *id,
                         const char * const  *command,
                         GError             **error)
{
  g_return_val_if_fail (id != NULL, NULL);

  if (strcmp (id, COMMAND_ID) != 0)
    return paddock_agent_lookup (id, error);
  if (command == NULL || command[0] == NULL || *command[0] == '\0')
    {
      g_set_error_literal (error, PADDOCK_AGENT_ERROR, PADDOCK_AGENT_ERROR_UNKNOWN,
                           _("A saved command session has no command"));
      return NULL;
    }
  return paddock_agent_new_command (command);
}

const char *
paddock_agent_get_id (PaddockAgent *self)
{
  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  return self->id;
}

const char *
paddock_agent_get_name (PaddockAgent *self)
{
  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  return self->name;
}

/* The program a known agent is looked for as on PATH; NULL for the shell
 * and a command. */
const char *
paddock_agent_get_program (PaddockAgent *self)
{
  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  return self->program;
}

/* A command's argv; NULL for a known agent and the shell. */
const char * const *
paddock_agent_get_command (PaddockAgent *self)
{
  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  return (const char * const *) self->command;
}

gboolean
paddock_agent_is_shell (PaddockAgent *self)
{
  g_return_val_if_fail (PADDOCK_IS_AGENT (self), FALSE);

  return self->program == NULL && self->command == NULL;
}

/**
 * paddock_agent_find_program:
 * @self: an agent
 *
 * Where the agent's program is now: a known agent's along PATH, a
 * command's own (a path, or a name along PATH), the user's shell.
 *
 * Returns: (transfer full) (nullable): its absolute path, or %NULL when it
 *   is not installed
 */
char *
paddock_agent_find_program (PaddockAgent *self)
{
  const char *wanted;

  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  if (paddock_agent_is_shell (self))
    return paddock_session_command_dup_user_shell ();

  wanted = self->program != NULL ? self->program : self->command[0];
  if (strchr (wanted, '/') != NULL)
    {
      g_autofree char *absolute = g_canonicalize_filename (wanted, NULL);

      return paddock_session_command_is_executable (absolute) ? g_steal_pointer (&absolute) : NULL;
    }
  return g_find_program_in_path (wanted);
}

/**
 * paddock_agent_dup_argv:
 * @self: an agent
 * @error: return location for PADDOCK_AGENT_ERROR_NOT_INSTALLED
 *
 * The command a session of @self runs: the agent's program as found on
 * PATH, a command as given but with its program found, the user's shell
 * as a login shell (paddock-run takes argv[0] as the program, so -l, which
 * bash, zsh, fish, dash and ksh all accept, rather than "-bash").
 *
 * Returns: (transfer full) (nullable): the argv
 */
char **
paddock_agent_dup_argv (PaddockAgent  *self,
                        GError       **error)
{
  g_autofree char *found = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (PADDOCK_IS_AGENT (self), NULL);

  found = paddock_agent_find_program (self);
  if (found == NULL)
    {
      if (self->program != NULL)
        g_set_error (error, PADDOCK_AGENT_ERROR, PADDOCK_AGENT_ERROR_NOT_INSTALLED,
                     /* TRANSLATORS: the first %s is an agent's name ("Claude Code"), the second its program ("claude") */
                     _("%s is not installed: there is no program called “%s” on PATH"),
                     self->name, self->program);
      else
        g_set_error (error, PADDOCK_AGENT_ERROR, PADDOCK_AGENT_ERROR_NOT_INSTALLED,
                     /* TRANSLATORS: %s is the command a session was to run */
                     _("Cannot find the program “%s”: it is not an executable file, nor on PATH"),
                     self->command[0]);
      return NULL;
    }

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, found);
  if (self->command != NULL)
    g_strv_builder_addv (builder, (const char **) self->command + 1);
  else if (paddock_agent_is_shell (self))
    g_strv_builder_add (builder, "-l");
  return g_strv_builder_end (builder);
}
