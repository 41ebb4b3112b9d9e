/* paddock-policy-private.h: what the parts of the policy share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The policy is one object in four files: the object and its rules
 * (paddock-policy.c), reading a policy's JSON (paddock-policy-parser.c),
 * matching a command against the rules (paddock-policy-match.c), and a
 * project's own rules and remembered answers (paddock-policy-project.c);
 * what a command line runs (shells, wrappers, #! lines, levels) is
 * paddock-command-line.c's.
 */
#pragma once

#include "paddock-policy.h"

#include <string.h>

G_BEGIN_DECLS

typedef enum
{
  WHERE_ANY,
  WHERE_INSIDE,
  WHERE_OUTSIDE,
  WHERE_PROJECT_ROOT,
  WHERE_HOME,
} Where;

struct _PaddockPolicyRule
{
  gatomicrefcount      ref_count;
  char                *name;
  char                *reason;
  char                *origin;
  PaddockPolicyAction  action;
  PaddockPolicyScope   scope;
  char               **programs;  /* globs, or NULL for any program */
  GRegex              *argv_regex;
  GRegex              *script_regex;
  Where                cwd;
  Where                paths;
  gboolean             downloaded;
  gboolean             unlinked;
  JsonNode            *match;     /* as written, for paddock_policy_to_data() */
};

struct _PaddockPolicy
{
  gatomicrefcount      ref_count;
  GRWLock              lock;
  GPtrArray           *rules;
  /* Which rules a command can match, from its program's names: most
   * rules name their programs outright, and most commands are none of
   * them. Rebuilt whenever the rules change, under the lock. */
  GHashTable          *by_name;     /* literal program name → GArray of rule indices, ascending */
  GArray              *unindexed;   /* indices of the rules any program may match */
  PaddockPolicyAction  default_action;
  gboolean             default_set;
  gint                 generation;  /* one more each time the rules change (atomic) */
  /* Before a project's overrides took theirs: for when they no longer do. */
  gboolean             merged;
  PaddockPolicyAction  own_default_action;
  gboolean             own_default_set;
  char                *project;
};

/* paddock-policy.c */

/* A rule with nothing set, for the parser or a remembered answer to fill. */
PaddockPolicyRule  *paddock_policy_rule_new_empty    (void);
/* Called with the lock held for writing, or before the policy is shared. */
void                paddock_policy_rebuild_index     (PaddockPolicy       *self);

/* paddock-policy-parser.c */

/* The policy in the file at @path, its rules of @scope. */
PaddockPolicy      *paddock_policy_load_file         (const char          *path,
                                                      PaddockPolicyScope   scope,
                                                      GError             **error);

/* paddock-policy-match.c */

typedef struct
{
  PaddockPolicyQuery        own;           /* the query, its argv never NULL */
  const PaddockPolicyQuery *query;         /* &own */
  const char               *names[3];
  const char               *paths[3];      /* the path each name comes from, if known */
  guint                     resolved_slot; /* the names' index of the resolved file's, or G_MAXUINT */
  guint                     n_names;
  GString                  *line;          /* argv joined, built on first use */
  const char               *script;
  GString                  *piped;         /* the script a shell reads from a pipe, built on first use */
  gboolean                  script_done;
  gboolean                  paths_done;
  gboolean                  downloaded_done;
  char                     *downloaded;    /* the downloaded file that runs, or NULL */
  const char               *cwd;           /* looked up on first use */
  gboolean                  cwd_done;
  gboolean                  any_outside;
  gboolean                  any_root;
  gboolean                  any_home;
  const char               *outside_arg;   /* the first argument of each kind, for explain */
  const char               *root_arg;
  const char               *home_arg;
  guint                     n_paths;
} Match;

void                paddock_policy_match_init        (Match                    *m,
                                                      const PaddockPolicyQuery *query);
void                paddock_policy_match_clear       (Match                    *m);
/* argv joined by single spaces. */
const char         *paddock_policy_match_line        (Match                    *m);
/* What a "script" match sees: the SCRIPT of `sh -c SCRIPT`, or the
 * pipeline `WRITER | SHELL` a shell reads its script from; or NULL. */
const char         *paddock_policy_match_script      (Match                    *m);

/* paddock-command-line.c: shells, interpreters and the wrappers that run them */

/* As paddock_policy_query_script_fd(), for the command @argv whose
 * program goes by the @n_names @names (the executable's base name,
 * argv[0]'s, the resolved file's); or for the command that sudo, doas or
 * env runs (`curl … | sudo -E bash -`), which starts at *@command (0 for
 * @argv's own). *@operand, if not NULL, is the index in @argv of the
 * operand that gives the script, or 0 for none. */
int                 paddock_command_line_script_fd   (const char * const *argv,
                                                      const char * const *names,
                                                      guint               n_names,
                                                      guint              *command,
                                                      guint              *operand);
/* The SCRIPT of `sh [options] -c SCRIPT [name [args…]]`, where one of
 * @names is a shell's; or NULL. */
const char         *paddock_command_line_shell_script (const char * const *argv,
                                                       const char * const *names,
                                                       guint               n_names);

/* The last part of @path, or NULL for NULL. */
static inline const char *
base_name (const char *path)
{
  const char *slash = path != NULL ? strrchr (path, '/') : NULL;

  return slash != NULL ? slash + 1 : path;
}

G_END_DECLS
