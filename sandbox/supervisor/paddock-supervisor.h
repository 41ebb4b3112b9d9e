/* paddock-supervisor.h: runs one agent session: fork, terminal, signals, exit status
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "paddock-exec-monitor.h"

G_BEGIN_DECLS

/* What paddock-run was asked to do, already checked. */
typedef struct
{
  char      *project;          /* absolute, canonical */
  char     **argv;             /* the command, as given */
  char      *executable;       /* argv[0] resolved along PATH */

  gboolean   lock;
  char     **grants;           /* "PATH[:ro|rw]", as given */
  char      *profile;          /* NULL: guessed from the command */
  char      *lock_backend;     /* NULL, "landlock" or "namespaces" */

  gboolean   net_locked;       /* --net=locked: the agent's own network namespace, the proxy its way out */
  char     **allow_hosts;      /* --allow-host patterns, or NULL */
  char     **deny_hosts;       /* --deny-host patterns, or NULL */
  char     **resolve;          /* --resolve "NAME=ADDR", or NULL */
  guint16   *allow_ports;      /* --allow-port: host loopback ports forwarded in */
  guint      n_allow_ports;

  gboolean   monitor;          /* the exec timeline (seccomp user notification) */
  char      *policy_file;
  char      *audit_file;
  int        ask_timeout;      /* seconds */
  PaddockOnAsk on_ask;         /* what an ask becomes with no client attached */
  int        control_fd;       /* -1 when none was inherited */
  gboolean   control_fd_answers; /* its client answers asks from the start (--control-fd),
                                    or once it says it will (--watch-fd) */
  gboolean   journal;
  unsigned   closed_std_fds;   /* (1 << fd) for each of 0-2 given closed, now /dev/null
                                  here (paddock_open_std_fds): closed again for the command */
} PaddockRunOptions;

void paddock_run_options_clear (PaddockRunOptions *options);

/* Runs the session to its end and returns the exit status paddock-run should
 * exit with: the command's, or 128+N when a signal ended it. */
int  paddock_supervisor_run    (PaddockRunOptions *options);

G_END_DECLS
