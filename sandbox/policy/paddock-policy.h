/* paddock-policy.h: which programs the agent may run: allow, ask or deny, by rule
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A policy is an ordered list of rules read from JSON; the first rule whose
 * match holds decides, and when none does the policy's default action does
 * (allow, unless the file says otherwise). The format:
 *
 *   {
 *     "version": 1,                         optional, must be 1
 *     "default": "allow" | "ask" | "deny",  optional
 *     "project": "/canonical/path",         only in a project's override file
 *     "rules": [
 *       {
 *         "name": "git-push-force",         required, non-empty
 *         "match": {                        required, every key optional; all given keys must hold
 *           "program": "git" | ["sudo", "su"],  glob (fnmatch) on the program's base name, or on
 *                                               the executed path when the glob holds a '/'
 *           "argv": "REGEX",                    on the command line: argv joined by single spaces,
 *                                               argv[0] as given (PCRE, byte-wise, unanchored)
 *           "script": "REGEX",                  on the script of `sh|bash|dash|zsh|ksh|mksh|ash -c SCRIPT`,
 *                                               or, for such a shell (or python, perl, ruby,
 *                                               node) reading its script from a pipe, on the
 *                                               pipeline `WRITER | sh …` (see @stdin_from); a
 *                                               rule with "script" only matches those
 *           "cwd": "inside" | "outside",        the working directory against the project
 *           "downloaded": true,                 the file that runs (the executable, the script
 *                                               file a shell or an interpreter is given, through
 *                                               sudo, doas or env too, or a file a shell's -c
 *                                               script sources) was saved by curl or wget,
 *                                               or written by a git clone, earlier in the
 *                                               session (@downloaded_func)
 *           "unlinked": true,                   the file that runs has no name in any folder: a
 *                                               memfd, or a file deleted since it was opened,
 *                                               exec'd through a descriptor (@unlinked)
 *           "paths": "inside" | "outside" | "project-root" | "home"
 *                                               the non-option arguments, as paths resolved from
 *                                               the working directory: "inside" = all of them
 *                                               (at least one) inside the project, "outside" =
 *                                               any outside it, "project-root" = any naming the
 *                                               project root or one of its ancestors (/, $HOME),
 *                                               "home" = any naming the home folder (the
 *                                               query's) or one of its ancestors
 *         },
 *         "action": "allow" | "ask" | "deny",   required
 *         "reason": "shown to the user"         optional
 *       }
 *     ]
 *   }
 *
 * Unknown keys, unknown actions, bad globs or regexes and wrong types are
 * refused with "FILE:LINE:COLUMN: what is wrong" in the GError message.
 *
 * Program names: the base name of the executed path and of argv[0] (a
 * leading '-' of login shells dropped). A deny or ask rule matches when
 * ANY of them matches its glob; an allow rule only when ALL do, so a
 * renamed argv[0] can never widen what an allow rule lets through.
 *
 * Paths are resolved lexically (g_canonicalize_filename), without following
 * symlinks. Without a project, every path and working directory counts as
 * outside. This is a supervision layer for a fallible agent, not a security
 * boundary: see DESIGN.md, "Threat model".
 *
 * Thread safety: a PaddockPolicy may be evaluated from any number of threads
 * at once while other threads prepend rules; rules are immutable and
 * reference counted, so a rule returned by an evaluation stays valid for
 * as long as the caller holds its reference.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PADDOCK_POLICY_ERROR (paddock_policy_error_quark ())

typedef enum
{
  PADDOCK_POLICY_ERROR_PARSE,    /* the text is not JSON */
  PADDOCK_POLICY_ERROR_INVALID,  /* JSON, but not a valid policy */
  PADDOCK_POLICY_ERROR_PROJECT,  /* an override file names another project */
} PaddockPolicyError;

typedef enum
{
  PADDOCK_POLICY_ACTION_ALLOW,
  PADDOCK_POLICY_ACTION_ASK,
  PADDOCK_POLICY_ACTION_DENY,
} PaddockPolicyAction;

/* Where a rule came from. Remembered rules are made at run time by
 * paddock_policy_rule_new_remembered(). */
typedef enum
{
  PADDOCK_POLICY_SCOPE_POLICY,   /* a policy file or the built-in default */
  PADDOCK_POLICY_SCOPE_SESSION,  /* remembered for this session only */
  PADDOCK_POLICY_SCOPE_PROJECT,  /* remembered for the project, saved in its override file */
} PaddockPolicyScope;

/* One exec to decide. All strings are borrowed for the duration of the call
 * and may hold any bytes (invalid UTF-8 included). */
typedef struct
{
  const char         *exe;      /* the path execve() ran (absolute after the PATH search,
                                   symlinks not resolved), or NULL when unknown */
  const char * const *argv;     /* NULL-terminated; may be empty but not NULL */
  const char         *cwd;      /* the process's working directory, or NULL when unknown */
  const char         *project;  /* the canonical project root, or NULL when there is none */
  /* Optional, for a caller to whom the working directory costs something:
   * when @cwd is NULL, called at most once per call, and only when a rule
   * that could decide needs it (a "cwd" or "paths" condition). Returns the
   * directory (borrowed for the rest of the call) or NULL when unknown. */
  const char       *(*cwd_func) (gpointer user_data);
  gpointer            cwd_data;
  const char         *home;     /* the canonical home folder, for "paths": "home"; NULL: none */
  /* The file that runs, symlinks resolved, or NULL. A deny or ask rule
   * also matches its name and path: a link of another name (`ln -s
   * /usr/bin/rm del; ./del -rf ~`) is still rm. An allow rule does not
   * need it to match, since most programs are links to another name
   * (python3 to python3.11, cc to gcc-12). */
  const char         *resolved;
  /* For a shell that reads its script from a pipe (see
   * paddock_policy_query_script_fd()): the command line of the program
   * writing to it, or NULL when unknown. A "script" match then sees the
   * pipeline `STDIN_FROM | SHELL …`. */
  const char         *stdin_from;
  /* For "downloaded": whether the file at @path (absolute, resolved
   * lexically) was saved by a download earlier in the session (see
   * paddock-download.h). NULL when none was: the match never holds. */
  gboolean          (*downloaded_func) (const char *path,
                                        gpointer    user_data);
  gpointer            downloaded_data;
  /* For "unlinked": the file that runs has no name in any folder, a
   * memfd (memfd_create) or a file deleted since it was opened, exec'd
   * through a descriptor. */
  gboolean            unlinked;
} PaddockPolicyQuery;

typedef struct _PaddockPolicy     PaddockPolicy;
typedef struct _PaddockPolicyRule PaddockPolicyRule;

GQuark               paddock_policy_error_quark          (void);

const char          *paddock_policy_action_to_string     (PaddockPolicyAction  action);
/* "allow", "ask", "deny"; FALSE for anything else */
gboolean             paddock_policy_action_from_string   (const char          *text,
                                                          PaddockPolicyAction *out_action);
const char          *paddock_policy_scope_to_string      (PaddockPolicyScope   scope);

/* The home folder, resolved as a project is, for a query's @home (a copy). */
char                *paddock_policy_dup_home             (void);

/* An empty policy: no rules, default allow. */
PaddockPolicy       *paddock_policy_new                  (void);
/* The descriptor from which @query, a shell, reads its script: stdin (0)
 * with no -c, and -s or no script operand; N for an operand /dev/fd/N or
 * /proc/self/fd/N (`bash <(curl …)`); likewise for python, perl, ruby or
 * node and their program. What writes to it, if a pipe, is the query's
 * @stdin_from. -1 for any other program or command line. */
int                  paddock_policy_query_script_fd      (const PaddockPolicyQuery *query);
/* The index in @query's argv of the script file that a shell, or python,
 * perl, ruby or node, is given to run (`sh ./x.sh`, `python3 x.py`, through
 * sudo, doas or env too); 0 for none, or a descriptor (/dev/fd/N). */
guint                paddock_policy_query_script_operand (const PaddockPolicyQuery *query);
/* The downloaded file (see @downloaded_func) that @query runs, as a
 * "downloaded" match finds it, or NULL. */
char                *paddock_policy_query_downloaded     (const PaddockPolicyQuery *query);
/* The default policy, compiled into the library (data/default-policy.json),
 * so no installation problem can leave paddock-run without it. Never fails. */
PaddockPolicy       *paddock_policy_new_default          (void);
/* The built-in default policy's JSON text, for `paddockctl policy show`. */
const char          *paddock_policy_get_default_data     (void);
PaddockPolicy       *paddock_policy_new_from_file        (const char          *path,
                                                          GError             **error);
/* @source_name is used in error messages and rule origins (e.g. a file name). */
PaddockPolicy       *paddock_policy_new_from_data        (const char          *data,
                                                          gssize               length,
                                                          const char          *source_name,
                                                          GError             **error);
PaddockPolicy       *paddock_policy_ref                  (PaddockPolicy       *self);
void                 paddock_policy_unref                (PaddockPolicy       *self);

guint                paddock_policy_get_n_rules          (PaddockPolicy       *self);
/* Returns a new reference, or NULL when @index is out of range. */
PaddockPolicyRule   *paddock_policy_get_rule             (PaddockPolicy       *self,
                                                          guint                index);
PaddockPolicyAction  paddock_policy_get_default_action   (PaddockPolicy       *self);
/* Whether its file gave a default action ("default"), rather than the
 * built-in allow. */
gboolean             paddock_policy_sets_default         (PaddockPolicy       *self);
void                 paddock_policy_set_default_action   (PaddockPolicy       *self,
                                                          PaddockPolicyAction  action);
/* The "project" key of an override file, or NULL. */
const char          *paddock_policy_get_project          (PaddockPolicy       *self);

/* Puts @overrides' rules (a project's file) in front of @self's policy
 * rules, after the answers remembered for the session, in place of the
 * project's rules set before (and the answers remembered for the project
 * since): for the file read again when it changes. Takes its default
 * action, or, where it sets none, @self's own. Safe while other threads
 * evaluate. */
void                 paddock_policy_set_project_overrides (PaddockPolicy       *self,
                                                           PaddockPolicy       *overrides);
/* A number that changes whenever the rules do (a project's file read
 * again, an answer remembered). Thread-safe. */
gint                 paddock_policy_get_generation       (PaddockPolicy       *self);
/* The programs the deny and ask rules name outright: their globs that
 * are a plain name ("sudo") or an absolute path without wildcards, each
 * once. For the supervisor to know those programs' files, and so their
 * hard links and copies under other names (see paddock-exec-identity.c).
 * Thread-safe. */
GStrv                paddock_policy_dup_guarded_programs (PaddockPolicy       *self);
/* Puts @rule first. Safe while other threads evaluate. */
void                 paddock_policy_prepend_rule         (PaddockPolicy       *self,
                                                          PaddockPolicyRule   *rule);

/* Decides @query. Sets *@out_rule (if not NULL) to a new reference to the
 * deciding rule, or to NULL when no rule matched and the default decided.
 * Thread-safe; allocation-light (a few µs with the default policy). */
PaddockPolicyAction  paddock_policy_evaluate             (PaddockPolicy       *self,
                                                          const PaddockPolicyQuery *query,
                                                          PaddockPolicyRule  **out_rule);
/* Human-readable, multi-line account of how @query is decided: the deciding
 * rule, where it is defined, why each of its keys holds, and the earlier
 * rules whose program matched but that did not apply, with the key that
 * failed. For `paddockctl policy explain`. */
char                *paddock_policy_explain              (PaddockPolicy       *self,
                                                          const PaddockPolicyQuery *query);

/* The policy as JSON text that paddock_policy_new_from_data() reads back
 * (all rules, remembered ones included; "project" if set). */
char                *paddock_policy_to_data              (PaddockPolicy       *self,
                                                          gsize               *length);

/* Rules. */
PaddockPolicyRule   *paddock_policy_rule_ref             (PaddockPolicyRule   *rule);
void                 paddock_policy_rule_unref           (PaddockPolicyRule   *rule);
const char          *paddock_policy_rule_get_name        (PaddockPolicyRule   *rule);
/* NULL when the rule gives none. */
const char          *paddock_policy_rule_get_reason      (PaddockPolicyRule   *rule);
PaddockPolicyAction  paddock_policy_rule_get_action      (PaddockPolicyRule   *rule);
/* Whether the rule's match has "downloaded": true. */
gboolean             paddock_policy_rule_get_downloaded  (PaddockPolicyRule   *rule);
PaddockPolicyScope   paddock_policy_rule_get_scope       (PaddockPolicyRule   *rule);
/* "FILE:LINE:COLUMN" of the rule's definition, or "remembered" / "session". */
const char          *paddock_policy_rule_get_origin      (PaddockPolicyRule   *rule);
/* A rule deciding exactly this command line again (same program path and
 * the same argv, byte for byte) with @action; named "remembered-…", with a
 * reason saying when and how it was decided. @scope is SESSION or PROJECT.
 * Fails on a command line too long for a rule's pattern. */
PaddockPolicyRule   *paddock_policy_rule_new_remembered  (const PaddockPolicyQuery  *query,
                                                          PaddockPolicyAction        action,
                                                          PaddockPolicyScope         scope,
                                                          GError                   **error);

/* Per-project overrides and remembered decisions, kept under
 * $XDG_CONFIG_HOME/paddock/projects/ (never inside the project, so a locked
 * agent cannot edit them): one file per project, named by the SHA-256 of
 * its canonical path, which is also stored inside as "project". */

/* The override file's path for @project (which is canonicalized first). */
char                *paddock_policy_project_file         (const char          *project,
                                                          GError             **error);
/* The project's overrides; an empty policy when the file does not exist.
 * Fails on a broken file, or (PADDOCK_POLICY_ERROR_PROJECT) one that names
 * another project. */
PaddockPolicy       *paddock_policy_load_project         (const char          *project,
                                                          GError             **error);
/* Writes @overrides as the project's override file: directory 0700, file
 * 0600, replaced atomically. */
gboolean             paddock_policy_save_project         (PaddockPolicy       *overrides,
                                                          const char          *project,
                                                          GError             **error);
/* Loads the project's override file, puts @rule first, saves it; serialized
 * against other processes doing the same with a lock file. A lock held for
 * more than a moment fails with G_FILE_ERROR_AGAIN rather than waiting. */
gboolean             paddock_policy_remember_in_project  (const char          *project,
                                                          PaddockPolicyRule   *rule,
                                                          GError             **error);
/* Takes the rules named @names (NULL: all of them) out of the project's
 * file, under the same lock. A name the file does not hold fails, naming
 * the rules it does hold, and changes nothing. A session running in the
 * project follows the file. */
gboolean             paddock_policy_forget_in_project    (const char          *project,
                                                          const char * const  *names,
                                                          GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockPolicy, paddock_policy_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockPolicyRule, paddock_policy_rule_unref)

G_END_DECLS
