/* paddock-timeline-event.h: one row of a session's timeline: an exec, a read in the home folder, a connection or a session event
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows are made and updated only by their PaddockTimeline, on the thread
 * that feeds it; a list item binds to their properties, each notified when
 * it changes (an ask's decision, an exec's exit). Strings are the bytes the
 * session reported, not necessarily UTF-8: escape them before showing them
 * (paddock_escape_for_display()), or use the dup_ functions, which do.
 * They live as long as the row: rows of one timeline share one store of
 * strings, so the getters' results are never freed by the caller.
 *
 * A home row is a read in the home folder that the lock refused or asked
 * about (a home message, or an ask of kind "home"): its path is the
 * entry asked about, its name the file first tried below it (or NULL),
 * pid and exe the process that read, seq the ask's id (-1 when nothing
 * was asked), and decision, by and reason as for an exec; argv and cwd
 * come with an ask only.
 *
 * A net row is a connection under the network lock (a net message, or an
 * ask of kind "host"): its host is the name the client asked for, with
 * its port; pid and exe the program that connected, seq the ask's id (-1
 * when nothing was asked), decision, by, rule and reason as for an exec.
 * Its end (a net message of "kind": "end") sets ended, the address
 * reached, the bytes each way and the duration.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  PADDOCK_TIMELINE_EVENT_EXEC,
  PADDOCK_TIMELINE_EVENT_PAUSE,
  PADDOCK_TIMELINE_EVENT_RESUME,
  PADDOCK_TIMELINE_EVENT_KILL,
  PADDOCK_TIMELINE_EVENT_SESSION_END,
  PADDOCK_TIMELINE_EVENT_HOME,
  PADDOCK_TIMELINE_EVENT_NET,
} PaddockTimelineEventKind;

/* How an exec was decided. "by" says who decided: for ALLOWED and DENIED
 * the policy ("rule", "default"), an answer given before ("remembered"),
 * or a recent refusal of the same command ("repeat"); for the ASKED_ ones
 * the user, "timeout", "no-client" (nobody was attached to ask),
 * "remembered", "gone" (the process went away while it waited). */
typedef enum
{
  PADDOCK_TIMELINE_DECISION_NONE,           /* a session row */
  PADDOCK_TIMELINE_DECISION_ALLOWED,
  PADDOCK_TIMELINE_DECISION_DENIED,
  PADDOCK_TIMELINE_DECISION_ASKING,         /* waiting for an answer */
  PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED,
  PADDOCK_TIMELINE_DECISION_ASKED_DENIED,
} PaddockTimelineDecision;

#define PADDOCK_TYPE_TIMELINE_EVENT_KIND (paddock_timeline_event_kind_get_type ())
GType paddock_timeline_event_kind_get_type (void) G_GNUC_CONST;
#define PADDOCK_TYPE_TIMELINE_DECISION (paddock_timeline_decision_get_type ())
GType paddock_timeline_decision_get_type (void) G_GNUC_CONST;

#define PADDOCK_TYPE_TIMELINE_EVENT (paddock_timeline_event_get_type ())

G_DECLARE_FINAL_TYPE (PaddockTimelineEvent, paddock_timeline_event, PADDOCK, TIMELINE_EVENT, GObject)

PaddockTimelineEventKind paddock_timeline_event_get_kind        (PaddockTimelineEvent *self);
/* The exec's seq (an ask's id), -1 for a session row or a home row
 * that nothing was asked about. */
gint64                   paddock_timeline_event_get_seq         (PaddockTimelineEvent *self);
/* Wall clock, µs since the epoch. */
gint64                   paddock_timeline_event_get_time        (PaddockTimelineEvent *self);
int                      paddock_timeline_event_get_pid         (PaddockTimelineEvent *self);
int                      paddock_timeline_event_get_ppid        (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_cwd         (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_exe         (PaddockTimelineEvent *self);
/* An exec's path as passed to exec; a home row's entry. */
const char              *paddock_timeline_event_get_path        (PaddockTimelineEvent *self);
/* A net row's host name as the client asked for it, or NULL. */
const char              *paddock_timeline_event_get_host        (PaddockTimelineEvent *self);
/* A net row's port, -1 for other rows. */
int                      paddock_timeline_event_get_port        (PaddockTimelineEvent *self);
/* A net row's address reached, once it ended; NULL before or where none. */
const char              *paddock_timeline_event_get_address     (PaddockTimelineEvent *self);
/* A net row's bytes to the agent and from it, once it ended; -1 before. */
gint64                   paddock_timeline_event_get_bytes_in    (PaddockTimelineEvent *self);
gint64                   paddock_timeline_event_get_bytes_out   (PaddockTimelineEvent *self);
/* A home row's file first tried below its entry, or NULL. */
const char              *paddock_timeline_event_get_name        (PaddockTimelineEvent *self);
const char * const      *paddock_timeline_event_get_argv        (PaddockTimelineEvent *self);
gint64                   paddock_timeline_event_get_argc        (PaddockTimelineEvent *self);
gboolean                 paddock_timeline_event_get_truncated   (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_interpreter (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_pipeline    (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_rule        (PaddockTimelineEvent *self);
const char              *paddock_timeline_event_get_reason      (PaddockTimelineEvent *self);
PaddockTimelineDecision  paddock_timeline_event_get_decision    (PaddockTimelineEvent *self);
/* Who decided (see PaddockTimelineDecision); for a session row, "user"
 * (a client asked) or "signal" (paddock-run was sent one). */
const char              *paddock_timeline_event_get_by          (PaddockTimelineEvent *self);
/* An ask's deadline (wall clock), -1 when none came. */
gint64                   paddock_timeline_event_get_deadline    (PaddockTimelineEvent *self);
/* Whether the exec's exit (or the session's end) came. */
gboolean                 paddock_timeline_event_get_ended       (PaddockTimelineEvent *self);
/* -1 when unknown or ended by a signal. */
int                      paddock_timeline_event_get_exit_code   (PaddockTimelineEvent *self);
/* -1 when none. */
int                      paddock_timeline_event_get_signal      (PaddockTimelineEvent *self);
/* µs from the exec to its exit, -1 until it ends or when unknown. */
gint64                   paddock_timeline_event_get_duration    (PaddockTimelineEvent *self);
/* The process went on to run another program: this one ended by exec. */
gboolean                 paddock_timeline_event_get_replaced    (PaddockTimelineEvent *self);
/* One of the shell's own prompt helpers (see paddock-timeline.h), which
 * a view hides by default. */
gboolean                 paddock_timeline_event_get_folded      (PaddockTimelineEvent *self);

/* The real program's file name (the exe's last component), escaped for
 * display: an exec's, or the process's that read for a home row; "" for
 * a session row. Never the name argv[0] chose. */
char                    *paddock_timeline_event_dup_program     (PaddockTimelineEvent *self);
/* The command line as paddock_exec_display_line() shows it; for a home
 * row, what was read as paddock_home_display_path() shows it
 * ("~/.m2/settings.xml"); for a net row, "HOST:PORT", escaped; "" for a
 * session row. */
char                    *paddock_timeline_event_dup_display_line (PaddockTimelineEvent *self);
/* Whether the row holds @search, casefolded (g_utf8_casefold()): an
 * exec's command line, a home row's path or program, a net row's host
 * or program. Session rows
 * hold nothing. */
gboolean                 paddock_timeline_event_matches         (PaddockTimelineEvent *self,
                                                                 const char           *search);

G_END_DECLS
