/* paddock-exec-monitor.h: every program the agent starts, decided by policy, on a timeline
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent runs under a seccomp filter that hands each execve/execveat of
 * it and all its descendants to paddock-run (seccomp user notification).
 * A dedicated thread answers: it reads the path, argv, working directory
 * and executable from the caller, asks the policy, appends the decision to
 * the audit log, and only then lets the exec go on (or fails it with
 * EACCES). An "ask" stays blocked in the kernel until a client decides, the
 * deadline passes or the process dies. This is a supervision layer, not a
 * security boundary: the caller's memory can change after it was read.
 *
 * The filter is built in the parent before fork(); the child installs it
 * with async-signal-safe calls only and passes the listener back over a
 * socket. If paddock-run dies, the listener closes and every pending and
 * later exec of the agent fails (ENOSYS): the agent is never silently
 * unsupervised.
 */
#pragma once

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-command-line.h"
#include "paddock-policy.h"
#include "paddock-protocol.h"

#include <glib.h>
#include <linux/filter.h>

G_BEGIN_DECLS

/* What the monitor records of one exec; more is counted but not kept. */
#define PADDOCK_EXEC_MAX_ARGS        4096
#define PADDOCK_EXEC_MAX_ARGV_BYTES  (256 * 1024)
#define PADDOCK_EXEC_MAX_PATH        4096
/* How much of a pipeline into a shell an exec's record and messages show:
 * the pipeline joins command lines each as long as an exec's may be. */
#define PADDOCK_EXEC_MAX_PIPELINE_SHOWN (16 * 1024)
/* How many arguments are counted at most before the count is given up on. */
#define PADDOCK_EXEC_MAX_ARGC        (1 << 22)

/* Set in the flags the child reports when the kernel took them. */
#define PADDOCK_EXEC_FILTER_WAIT_KILLABLE  (1u << 0)

typedef struct
{
  struct sock_fprog program;
} PaddockExecFilter;

/* In the parent, before fork(): builds the filter for every ABI this
 * machine runs (x86-64, i386 and x32 on x86-64). */
gboolean  paddock_exec_filter_init     (PaddockExecFilter *filter,
                                        GError           **error);
void      paddock_exec_filter_clear    (PaddockExecFilter *filter);

/* In the forked child, async-signal-safe: sets no_new_privs, installs the
 * filter with a listener, sends the listener over @socket_fd and closes it.
 * Returns 0, or the errno of the step that failed. */
int       paddock_exec_filter_install  (const PaddockExecFilter *filter,
                                        int                      socket_fd);

/* In the parent: the listener the child sent, or -1 with @error when the
 * child ended (or failed) without sending one. */
int       paddock_exec_filter_receive  (int                socket_fd,
                                        guint             *out_flags,
                                        GError           **error);

typedef struct _PaddockExecMonitor PaddockExecMonitor;

typedef struct
{
  PaddockPolicy *policy;          /* required; remembered decisions are added to it */
  PaddockAudit  *audit;           /* may be NULL */
  const char    *project;         /* canonical project root, or NULL */
  PaddockAsks   *asks;            /* required: the session's ask registry, whose ids
                                   * the events take, and which holds the asks (their
                                   * deadline, --on-ask); must outlive the monitor */
} PaddockExecMonitorConfig;

/* Called on the monitor's main context for every exec and exit message,
 * in order with the registry's ask and decided messages; takes @message. */
typedef void (*PaddockExecMonitorFunc) (PaddockMessage *message,
                                        gpointer        user_data);

/* Takes @notify_fd. @context is where @func, deadlines and exit watches run
 * (NULL: the thread-default context). */
PaddockExecMonitor *paddock_exec_monitor_new      (int                             notify_fd,
                                                   guint                           filter_flags,
                                                   const PaddockExecMonitorConfig *config,
                                                   GMainContext                   *context,
                                                   PaddockExecMonitorFunc          func,
                                                   gpointer                        user_data);
/* Starts the answering thread. */
gboolean            paddock_exec_monitor_start    (PaddockExecMonitor  *self,
                                                   GError             **error);
/* Stops answering and closes the listener: from then on the agent's execs fail. */
void                paddock_exec_monitor_stop     (PaddockExecMonitor  *self);
void                paddock_exec_monitor_free     (PaddockExecMonitor  *self);

/* Emits at once what the answering thread has queued for the main
 * context, the exec it answers this moment included, so that a message
 * of the main context's own (a kill, a pause) comes after them. */
void                paddock_exec_monitor_flush    (PaddockExecMonitor  *self);

/* Kernel features in use, for hello and the audit log's session start. */
const char * const *paddock_exec_monitor_get_features (PaddockExecMonitor *self);

/* Decides, oldest first, each pending ask that the policy as it now
 * stands no longer asks about, by the rule (or the default) that decides
 * it: an answer remembered a moment ago, or a change of the project's
 * rules, may cover asks held behind the one it answered. The monitor
 * calls it after an answer it remembers; call it after changing the
 * policy's rules. */
void                paddock_exec_monitor_settle_pending (PaddockExecMonitor *self);

/* Counters, for tests and the session-end record. */
guint64             paddock_exec_monitor_get_n_events (PaddockExecMonitor *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockExecMonitor, paddock_exec_monitor_free)

G_END_DECLS
