/* paddock-profile.h: what each kind of agent needs under the folder lock, read from agent-profiles.conf
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PADDOCK_PROFILE_ERROR (paddock_profile_error_quark ())

typedef enum
{
  PADDOCK_PROFILE_ERROR_INVALID,  /* the file does not read as profiles: "FILE:LINE: reason" */
} PaddockProfileError;

/* One [section] of the file. Paths are patterns: "~/x", "$CONFIG/x",
 * "$DATA/x", "$STATE/x", "$CACHE/x"; a trailing '/' marks a folder. */
typedef struct
{
  char  *name;
  char  *title;
  char **programs;     /* command names that pick this profile */
  char **writes;       /* state the agent writes, granted read-write */
  char **makes;        /* files made before the lock where missing, granted read-write */
  char **make_texts;   /* what each of makes is made holding, in the same order */
  char **locked_args;  /* put after the program's name under the lock */
  char **locked_env;   /* "NAME=VALUE", set under the lock */
  char  *keeps;        /* what it keeps of its own sandbox and approvals, in words */
  char  *origin;       /* "agent-profiles.conf:LINE", where its section starts */
} PaddockProfile;

typedef struct _PaddockProfiles PaddockProfiles;

GQuark                 paddock_profile_error_quark (void);

/* Reads @text (@length bytes, or -1 for NUL-terminated), named @source in
 * errors. Every profile a command can fall back to ("shell") must be
 * there. */
PaddockProfiles       *paddock_profiles_parse      (const char             *text,
                                                    gssize                  length,
                                                    const char             *source,
                                                    GError                **error);
PaddockProfiles       *paddock_profiles_load_file  (const char             *path,
                                                    GError                **error);
void                   paddock_profiles_free       (PaddockProfiles        *profiles);
guint                  paddock_profiles_get_n      (const PaddockProfiles  *profiles);
const PaddockProfile  *paddock_profiles_get        (const PaddockProfiles  *profiles,
                                                    guint                   index);
const PaddockProfile  *paddock_profiles_lookup     (const PaddockProfiles  *profiles,
                                                    const char             *name);
/* The profile whose programs hold @command's name; "shell" when none does. */
const PaddockProfile  *paddock_profiles_guess      (const PaddockProfiles  *profiles,
                                                    const char             *command);

/* The built-in profiles (data/agent-profiles.conf, compiled in); read
 * once, any thread. */
const PaddockProfiles *paddock_profiles_get_default (void);

const PaddockProfile *paddock_profile_lookup      (const char             *name);
const PaddockProfile *paddock_profile_guess       (const char             *command);
/* "claude, codex, …", for error messages. */
char                 *paddock_profile_list_names  (void);
/* Whether @command (a path or a name) is one of @profile's programs: its
 * locked-arg lines apply only then. */
gboolean              paddock_profile_runs        (const PaddockProfile   *profile,
                                                   const char             *command);
/* @argv with @profile's locked-arg lines after its first, where @argv[0]
 * is one of its programs; else a copy of @argv. */
char                **paddock_profile_locked_argv (const PaddockProfile   *profile,
                                                   const char * const     *argv);
char                 *paddock_profile_expand_path (const char             *pattern,
                                                   gboolean               *is_dir);
/* The profile in words, one "key: value" a line, for paddock-run --explain. */
void                  paddock_profile_explain     (const PaddockProfile   *profile,
                                                   GString                *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockProfiles, paddock_profiles_free)

G_END_DECLS
