/* test-policy-util.h: deciding command lines by a policy, for the policy's tests
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by test-policy (its rules) and test-policy-commands (the default
 * policy on command lines). Each decide function returns the name of the
 * rule that decided, or NULL where the policy's default did.
 */
#pragma once

#include "paddock-policy.h"

#include <glib.h>

/* The project, and the home folder it is in, of every query. */
#define PROJECT "/home/dev/proj"
#define HOME_DIR "/home/dev"

/* For a query's downloaded_func: the paths in @user_data, a NULL-terminated
 * array, were downloaded. */
gboolean downloaded_in (const char *path,
                        gpointer    user_data);

/* Decides @argv run from @cwd in @project, for a user whose home is
 * HOME_DIR, in a session that downloaded the files in @downloaded (a
 * NULL-terminated array, or NULL for none); the action goes to
 * @out_action unless it is NULL. @exe NULL: argv[0] as the monitor finds
 * it, from @cwd or along PATH (/usr/bin). */
char *decide_downloaded (PaddockPolicy       *policy,
                         const char          *project,
                         const char          *cwd,
                         const char          *exe,
                         const char * const  *argv,
                         const char * const  *downloaded,
                         PaddockPolicyAction *out_action);
/* The same, in a session that downloaded nothing. */
char *decide_in         (PaddockPolicy       *policy,
                         const char          *project,
                         const char          *cwd,
                         const char          *exe,
                         const char * const  *argv,
                         PaddockPolicyAction *out_action);
/* The same, in PROJECT. */
char *decide_full       (PaddockPolicy       *policy,
                         const char          *cwd,
                         const char          *exe,
                         const char * const  *argv,
                         PaddockPolicyAction *out_action);
/* A shell-quoted command line, run from @cwd in @project (NULL: PROJECT),
 * in a session that downloaded @downloaded (shell-quoted paths, or NULL). */
char *decide_after      (PaddockPolicy       *policy,
                         const char          *project,
                         const char          *cwd,
                         const char          *command,
                         const char          *downloaded);
/* The same, in a session that downloaded nothing. */
char *decide            (PaddockPolicy       *policy,
                         const char          *project,
                         const char          *cwd,
                         const char          *command);

/* The policy @text, which must parse. */
PaddockPolicy *parse_ok (const char *text);
