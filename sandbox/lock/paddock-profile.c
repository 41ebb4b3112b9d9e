/* paddock-profile.c: what each kind of agent needs to write outside its project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the folder lock an agent may write its project, /tmp, and its own
 * state: its settings, sessions and caches. Each profile names those paths.
 * A command that matches no profile gets the "shell" profile, which writes
 * nothing outside the project.
 */
#include "config.h"

#include "paddock-profile.h"
#include "paddock-xdg.h"

#include <string.h>

#define NONE ((const char * const[]) { NULL })

static const PaddockProfile profiles[] = {
  { "claude",
    (const char * const[]) { "claude", NULL },
    (const char * const[]) { "~/.claude/", "~/.claude.json", "~/.claude.json.backup", NULL } },
  { "codex",
    (const char * const[]) { "codex", NULL },
    (const char * const[]) { "~/.codex/", NULL } },
  { "gemini",
    (const char * const[]) { "gemini", NULL },
    (const char * const[]) { "~/.gemini/", NULL } },
  { "opencode",
    (const char * const[]) { "opencode", NULL },
    (const char * const[]) { "$CONFIG/opencode/", "$DATA/opencode/", "$STATE/opencode/", "$CACHE/opencode/", NULL } },
  { "aider",
    (const char * const[]) { "aider", NULL },
    (const char * const[]) { "~/.aider/", "~/.aider.input.history", "~/.aider.chat.history.md", NULL } },
  { "shell", NONE, NONE },
};

const PaddockProfile *
paddock_profile_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    if (g_strcmp0 (profiles[i].name, name) == 0)
      return &profiles[i];
  return NULL;
}

/* Picks the profile from the command's basename; "shell" when none matches. */
const PaddockProfile *
paddock_profile_guess (const char *command)
{
  g_autofree char *base = g_path_get_basename (command);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    for (guint j = 0; profiles[i].programs[j] != NULL; j++)
      if (strcmp (profiles[i].programs[j], base) == 0)
        return &profiles[i];
  return paddock_profile_lookup ("shell");
}

/* "claude, codex, …", for error messages. */
char *
paddock_profile_list_names (void)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", profiles[i].name);
  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* Expands a state path pattern against $HOME and the XDG base directories. */
char *
paddock_profile_expand_path (const char *pattern,
                             gboolean   *is_dir)
{
  static const struct { const char *prefix; const char *(*dir) (void); } bases[] = {
    { "~/", g_get_home_dir },
    { "$CONFIG/", paddock_user_config_dir },
    { "$DATA/", paddock_user_data_dir },
    { "$STATE/", paddock_user_state_dir },
    { "$CACHE/", paddock_user_cache_dir },
  };
  size_t len = strlen (pattern);

  *is_dir = len > 0 && pattern[len - 1] == '/';
  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    if (g_str_has_prefix (pattern, bases[i].prefix))
      {
        g_autofree char *rest = g_strndup (pattern + strlen (bases[i].prefix),
                                           len - strlen (bases[i].prefix) - (*is_dir ? 1 : 0));
        return g_build_filename (bases[i].dir (), rest, NULL);
      }
  g_return_val_if_reached (NULL);
}
