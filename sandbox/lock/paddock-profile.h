/* paddock-profile.h: what each kind of agent needs to write outside its project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char         *name;
  const char * const *programs;     /* command basenames that pick this profile */
  const char * const *state_paths;  /* "~/x", "$CONFIG/x", "$DATA/x", "$STATE/x", "$CACHE/x"; a trailing '/' marks a directory */
} PaddockProfile;

const PaddockProfile *paddock_profile_lookup      (const char           *name);
const PaddockProfile *paddock_profile_guess       (const char           *command);
char                 *paddock_profile_list_names  (void);
char                 *paddock_profile_expand_path (const char           *pattern,
                                                   gboolean             *is_dir);

G_END_DECLS
