/* paddock-timeline.h: one session's timeline: its execs, home folder reads, connections and session events
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GListModel of PaddockTimelineEvent, in the order the session reported
 * them, fed with the session's messages on one thread (the one whose
 * context follows the client). An exec appends a row; an ask updates its
 * exec's row in place (or makes the row, where it comes first), and so do
 * its decided and the exec's exit, each with items-changed (position, 1,
 * 1) for that row only; kill, pause, resume and the session's end append
 * session rows. A read in the home folder that the lock refused or asked
 * about (a home message, an ask of kind "home") appends a home row, which
 * later messages of the same ask id (its decided, its home message)
 * update in place. A connection under the network lock (a net message,
 * an ask of kind "host") appends a net row, which its later messages
 * update in place: those of the same ask id, and its end ("kind": "end"),
 * matched by the id or, for a connection nobody was asked about, to the
 * oldest open row of the same host, port and pid. A hello (or a log's
 * session-start record) names the project; other messages (secret,
 * errors, requests) and ones that refer to no row are ignored.
 *
 * What changed is announced before the call that added it returns; a
 * client followed is announced when its context is next idle (which is
 * before GTK draws), so a read of hundreds of execs is one items-changed
 * for the rows appended, then one for each run of earlier rows updated.
 * Until then the new rows are not counted by get_n_items().
 *
 * Folding: the shell's own prompt helpers are marked "folded", for a view
 * to hide by default. A row is folded when all of these hold:
 *   - the policy allowed it outright (by "rule" or "default"): nothing
 *     asked about, denied or decided otherwise is ever folded;
 *   - its parent is an interactive shell of this timeline: the process's
 *     latest exec was bash, zsh, sh, dash, ksh, mksh, ash, yash or fish
 *     (the exe's name) with options only, no -c or -s, no script operand,
 *     and not reading its script from a pipe; this is how a prompt runs
 *     `$(…)`, never how an agent runs a command (`bash -c …`). Or its
 *     parent is a fork that never ran a program here (bash runs
 *     `$(git … 2>/dev/null)` from a fork of a fork), while an interactive
 *     shell is at its prompt: every process this timeline saw start and
 *     not end is such a shell or a helper. A fork inside a running
 *     command (an agent's `bash -c`, or anything it starts) is that
 *     command's, and folds nothing;
 *   - its exe lies under a system prefix (/usr/, /bin/, /opt/, /nix/store/,
 *     /app/, …), which the agent cannot write to, and its argv was not cut;
 *   - it is one of: `vte-urlencode-cwd` (what /etc/profile.d/vte-2.91.sh
 *     runs every prompt), or a read-only git query of the kind __git_ps1
 *     and shell themes run: rev-parse, symbolic-ref REF (one operand, no
 *     -d), describe, rev-list, ls-files, diff --quiet, status --porcelain,
 *     config reading one key (-z, --get*, --bool, --int, --path, --local,
 *     --global only); git's global options -C DIR, --no-pager and
 *     --no-optional-locks are allowed before it, -c (which can run
 *     programs) is not.
 * The rule prefers showing a helper to hiding a command: where the exit
 * of the command before a prompt reaches the timeline after the prompt's
 * helpers (exits are noticed apart from execs), those helpers stay
 * unfolded.
 *
 * Cost: a row is one object plus its argv in one block; other strings are
 * kept once per timeline. 100,000 execs take well under a second and under
 * 60 MB (tests/bench-timeline.c prints the figures).
 */
#pragma once

#include <gio/gio.h>

#include "paddock-client.h"
#include "paddock-protocol.h"
#include "paddock-timeline-event.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_TIMELINE (paddock_timeline_get_type ())

G_DECLARE_FINAL_TYPE (PaddockTimeline, paddock_timeline, PADDOCK, TIMELINE, GObject)

PaddockTimeline      *paddock_timeline_new            (void);

/* A past session's timeline, read from its audit log: nothing can be
 * added to it. */
gboolean              paddock_timeline_get_read_only  (PaddockTimeline       *self);

/* The session's project as its greeting (or its log's session-start
 * record) named it, NULL until then; "project" is notified when it comes. */
const char           *paddock_timeline_get_project    (PaddockTimeline       *self);

/* Adds one message; not for a read-only timeline. */
void                  paddock_timeline_add_message    (PaddockTimeline       *self,
                                                       const PaddockMessage  *message);
/* Adds @n_messages in order, and says so with one items-changed for the
 * rows appended and one for each run of earlier rows that changed. */
void                  paddock_timeline_add_messages   (PaddockTimeline       *self,
                                                       const PaddockMessage * const *messages,
                                                       guint                  n_messages);
/* Adds every message @client emits from now on, until the timeline is
 * finalized, and announces them at idle priority (G_PRIORITY_HIGH_IDLE)
 * on the thread-default context, or at once when 4096 rows or 50 ms have
 * waited (a flood keeps the context from ever being idle), or when the
 * connection closes. Follow a client once: its session rows would come
 * twice. */
void                  paddock_timeline_follow         (PaddockTimeline       *self,
                                                       PaddockClient         *client);

/* The exec row of @seq, or the row of the ask @seq (an exec's or a home
 * folder read's), or NULL; not a new reference. A
 * row a followed client just added may not be announced yet. */
PaddockTimelineEvent *paddock_timeline_lookup         (PaddockTimeline       *self,
                                                       gint64                 seq);

/* Reads the audit log @file in a thread into a read-only timeline. Fails
 * where the file cannot be read; lines that are not records, and records
 * that make no row, are skipped as add_message() skips messages. */
void                  paddock_timeline_load_audit_async  (GFile               *file,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
PaddockTimeline      *paddock_timeline_load_audit_finish (GAsyncResult        *result,
                                                          GError             **error);

G_END_DECLS
