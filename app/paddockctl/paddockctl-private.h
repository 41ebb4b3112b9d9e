/* paddockctl-private.h: what paddockctl's command groups share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each paddockctl-GROUP.c holds the commands of one group; the one table
 * of commands (paddockctl_commands[], in paddockctl.c) names them, with
 * their usage and help, and paddockctl.c finds the one typed and runs it. Everything runs on the main thread; the commands that talk to
 * a session run the default main context while they wait.
 */
#pragma once

#include <glib.h>

#include "paddock-client.h"

G_BEGIN_DECLS

/* The exit status of a command typed wrong. */
#define EXIT_USAGE 2

typedef struct
{
  const char *words;                       /* as typed: "list", "policy check" */
  int       (*run)         (int    argc,
                            char **argv);  /* argv[0] is the command's last word */
  gboolean    has_options;                 /* it parses options, so GOption prints its --help */
  const char *synopsis;                    /* what follows the words in the usage, one
                                            * line per form, "\n" between them */
  const char *description;                 /* N_(): one line for the help */
} PaddockctlCommand;

/* Every command, in the order the usage lists them; ends with { NULL }.
 * paddockctl.c makes the usage and each command's help from it. */
extern const PaddockctlCommand paddockctl_commands[];

/* The commands, each in the paddockctl-GROUP.c of its group. */
int paddockctl_builtin_list           (int argc, char **argv);
int paddockctl_builtin_attach         (int argc, char **argv);
int paddockctl_builtin_kill           (int argc, char **argv);
int paddockctl_builtin_pause          (int argc, char **argv);
int paddockctl_builtin_resume         (int argc, char **argv);
int paddockctl_builtin_policy_check   (int argc, char **argv);
int paddockctl_builtin_policy_explain (int argc, char **argv);
int paddockctl_builtin_policy_project (int argc, char **argv);
int paddockctl_builtin_policy_forget  (int argc, char **argv);
int paddockctl_builtin_audit_verify   (int argc, char **argv);
int paddockctl_builtin_audit_show     (int argc, char **argv);
int paddockctl_builtin_audit_export   (int argc, char **argv);
int paddockctl_builtin_lock           (int argc, char **argv);
int paddockctl_builtin_net            (int argc, char **argv);
int paddockctl_builtin_secret_add     (int argc, char **argv);
int paddockctl_builtin_secret_list    (int argc, char **argv);
int paddockctl_builtin_secret_remove  (int argc, char **argv);
int paddockctl_builtin_secret_pin     (int argc, char **argv);
int paddockctl_builtin_secret_mode    (int argc, char **argv);

/* Says @message (where not NULL), then the usage, on stderr; returns
 * EXIT_USAGE. */
int            usage           (const char  *message);
/* Anything from a session or a log goes through this before a terminal sees it. */
char          *display         (const char  *text);
/* A FILE argument: "-" is standard input, as for cat. */
const char    *input_path      (const char  *arg);
/* @time_us, wall clock, in the local time zone, or NULL where it has none. */
GDateTime     *local_time_new  (gint64       time_us);
/* The session whose id is, or uniquely begins with, @session, connected
 * and greeted; the default main context runs until then. NULL, with
 * @error in the words paddockctl says it in, where it cannot be. */
PaddockClient *connect_session (const char  *session,
                                GError     **error);

G_END_DECLS
