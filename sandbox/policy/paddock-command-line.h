/* paddock-command-line.h: what a command line runs, level by level, and which decision holds
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-policy.h"

#include <glib.h>

G_BEGIN_DECLS

/* The #! lines exec reads: a script's, and four of interpreters that are scripts. */
#define PADDOCK_EXEC_MAX_SHEBANG_LINES 5

/* A script's #! line as the kernel reads it: @interpreter and the one
 * @argument the line gives it (or NULL). @fd is the file's descriptor
 * (O_PATH will do). Returns FALSE, setting neither, where the file is no
 * script or cannot be read. */
gboolean            paddock_exec_read_interpreter (int                  fd,
                                                   char               **interpreter,
                                                   char               **argument);

/* The command a script's #! line makes of @query, a script run as
 * @script_path: @interpreter, its @argument (or NULL), @script_path, then
 * the script's arguments (@query's argv after the first). Its argv is
 * built in @argv, which must outlive the query; the strings are borrowed. */
PaddockPolicyQuery  paddock_exec_interpreter_query (const PaddockPolicyQuery *query,
                                                    const char               *interpreter,
                                                    const char               *argument,
                                                    const char               *script_path,
                                                    GPtrArray                *argv);

/* The command lines exec runs for @query, each a level: the command
 * itself, then the one each #! line makes of the one before, its
 * interpreter, argument and file first, then what the last one runs
 * without an exec, where it is the loader or a multi-call binary
 * (paddock_exec_launched_query()), twice at most. `#!/bin/rm -rf` made
 * `./x ~` a recursive delete of the home folder that no rule saw, and so
 * did `ld.so /bin/rm -rf ~`. @file is the path exec was given; @shebangs
 * its #! lines, the script's own first, as pairs (interpreter, argument
 * or NULL), or NULL. Fills @levels, of PADDOCK_EXEC_MAX_LEVELS, and keeps
 * their argvs in *@argvs, made when there are any (free it with
 * g_ptr_array_unref); returns how many levels there are, the first
 * 1 + @shebangs->len / 2 of them the command's and its #! lines'. */
#define PADDOCK_EXEC_MAX_LEVELS (1 + PADDOCK_EXEC_MAX_SHEBANG_LINES + 2)
guint               paddock_exec_level_queries     (const PaddockPolicyQuery *query,
                                                    const char               *file,
                                                    GPtrArray                *shebangs,
                                                    GPtrArray               **argvs,
                                                    PaddockPolicyQuery       *levels);

/* Where @query runs a program of its own without an exec the kernel would
 * show (the dynamic loader run as a command, `ld.so /bin/rm -rf ~`, which
 * maps rm and jumps into it; a multi-call binary given its applet,
 * `busybox rm -rf ~`), fills @out with that program's command and returns
 * its argv, which must outlive @out (free it with g_ptr_array_unref; the
 * strings are borrowed). Returns NULL for any other command. */
GPtrArray          *paddock_exec_launched_query    (const PaddockPolicyQuery *query,
                                                    PaddockPolicyQuery       *out);

/* Judges each of the @n @levels of one exec (paddock_exec_level_queries(),
 * and any the caller adds) by @policy: the strictest decision holds (deny,
 * then ask, then allow), with the rule that made it; at the same
 * strictness a rule says more than the default (the remembered answer
 * that allows a script's #! line). Returns the decision that holds, its
 * rule in *@rule (a new reference, or NULL where the default decided;
 * *@rule is NULL on the call), and in *@out_level, if not NULL, the level
 * it is the decision of. Sets bit i of *@asked, if not NULL, for each
 * level i the policy asks about. */
PaddockPolicyAction paddock_policy_evaluate_levels (PaddockPolicy             *policy,
                                                    const PaddockPolicyQuery  *levels,
                                                    guint                      n,
                                                    PaddockPolicyRule        **rule,
                                                    guint                     *out_level,
                                                    guint                     *asked);

/* Whether @argv, run as a program named @names (its argv[0]'s and its
 * executable's base names), is a shell or an interpreter (python, perl,
 * ruby, node; through sudo, doas or env too) that runs code its caller
 * gives it: on the command line (sh -c, python -c, perl -e, node -e …),
 * on stdin or a descriptor, rather than in a file it is given. The vault
 * keeps a pinned secret from such a program: the pin vouches for the
 * interpreter, not for what it is told to run. */
gboolean            paddock_command_line_runs_given_code (const char * const *argv,
                                                          const char * const *names,
                                                          guint               n_names);

G_END_DECLS
