/* paddock-history.h: a project's past sessions, read back from their audit logs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddock-run writes one log per session in $XDG_STATE_HOME/paddock/,
 * named session-YYYYMMDD-HHMMSS-ID.jsonl; its first record, the
 * session-start, names the project (its canonical path), the session id
 * and the command. A project's past sessions are the logs whose start
 * record names it.
 *
 * Both calls read files in a thread and return on the caller's thread
 * default context. Every log is verified as it is read (paddock-audit.h):
 * a log whose chain breaks is still shown as far as it can be read, and
 * says where and why it breaks. A log with no record at all (empty,
 * garbage, not a log) is an error naming the file when opened, and is
 * left out of a list. A log still being written (its session runs) has no
 * session-end record yet, as has a log cut after its last record: the
 * problem says so.
 */
#pragma once

#include <gio/gio.h>

#include "paddock-timeline.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_PAST_SESSION (paddock_past_session_get_type ())

G_DECLARE_FINAL_TYPE (PaddockPastSession, paddock_past_session, PADDOCK, PAST_SESSION, GObject)

const char      *paddock_past_session_get_path       (PaddockPastSession *self);
/* The start record's, or NULL where the log has none. */
const char      *paddock_past_session_get_session_id (PaddockPastSession *self);
const char      *paddock_past_session_get_project    (PaddockPastSession *self);
/* The command the session ran, escaped for display ("" when unknown). */
const char      *paddock_past_session_get_command    (PaddockPastSession *self);
/* µs since the epoch: the first record's time and the last's; -1 unknown. */
gint64           paddock_past_session_get_start_time (PaddockPastSession *self);
gint64           paddock_past_session_get_end_time   (PaddockPastSession *self);
/* Programs run, asked about, and refused (by the policy or the user). */
guint            paddock_past_session_get_n_execs    (PaddockPastSession *self);
guint            paddock_past_session_get_n_asked    (PaddockPastSession *self);
guint            paddock_past_session_get_n_denied   (PaddockPastSession *self);
/* Whether every line of the log holds in the hash chain. */
gboolean         paddock_past_session_get_verified   (PaddockPastSession *self);
/* Whether its last intact record is the session's end. */
gboolean         paddock_past_session_get_ended      (PaddockPastSession *self);
/* What is wrong with the log, in words naming the file (where the chain
 * breaks and why, or that it has no end), or NULL when nothing is. */
const char      *paddock_past_session_get_problem    (PaddockPastSession *self);
/* The session's rows, for one opened with paddock_history_open_async();
 * NULL for one that was only listed. Read-only. */
PaddockTimeline *paddock_past_session_get_timeline   (PaddockPastSession *self);

/* The past sessions of @project (a folder, resolved as paddock-run
 * resolves it), newest first, without their timelines: a GListModel of
 * PaddockPastSession. Fails only where the folder of logs cannot be read;
 * no folder is no sessions. */
void             paddock_history_list_async          (const char          *project,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
GListModel      *paddock_history_list_finish         (GAsyncResult        *result,
                                                      GError             **error);

/* Reads the log @path, its timeline with it. */
void             paddock_history_open_async          (const char          *path,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
PaddockPastSession *paddock_history_open_finish      (GAsyncResult        *result,
                                                      GError             **error);

G_END_DECLS
