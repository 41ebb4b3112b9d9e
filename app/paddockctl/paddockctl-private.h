/* paddockctl-private.h: what paddockctl's command groups share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each paddockctl-GROUP.c holds the commands of one group and lists them
 * in its paddockctl_GROUP_commands[]; paddockctl.c finds the one typed and
 * runs it. Everything runs on the main thread; the commands that talk to
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
} PaddockctlCommand;

/* Each ends with { NULL }. */
extern const PaddockctlCommand paddockctl_session_commands[];
extern const PaddockctlCommand paddockctl_control_commands[];
extern const PaddockctlCommand paddockctl_policy_commands[];
extern const PaddockctlCommand paddockctl_audit_commands[];
extern const PaddockctlCommand paddockctl_lock_commands[];
extern const PaddockctlCommand paddockctl_secret_commands[];

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
