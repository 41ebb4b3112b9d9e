/* paddock-timeline-private.h: what the timeline and its rows share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "paddock-audit.h"
#include "paddock-protocol.h"
#include "paddock-timeline.h"
#include "paddock-timeline-event.h"

G_BEGIN_DECLS

/* The strings of one timeline's rows, each kept once (a session repeats
 * its cwd, exe, rule and reason thousands of times), freed with the last
 * row or timeline that holds a reference. Used from one thread at a time. */
typedef struct _PaddockTimelineStrings PaddockTimelineStrings;

PaddockTimelineStrings *paddock_timeline_strings_new   (void);
PaddockTimelineStrings *paddock_timeline_strings_ref   (PaddockTimelineStrings *strings);
void                    paddock_timeline_strings_unref (PaddockTimelineStrings *strings);
/* @string kept once; NULL for NULL. */
const char             *paddock_timeline_strings_add   (PaddockTimelineStrings *strings,
                                                        const char             *string);

struct _PaddockTimelineEvent
{
  GObject                  parent_instance;

  PaddockTimelineStrings  *strings;
  char                   **argv;         /* one block: the pointers, then the bytes */
  const char              *cwd;          /* the others are in strings */
  const char              *exe;
  const char              *path;
  const char              *name;         /* a home row's file below its entry */
  const char              *address;      /* a net row's address reached, at its end */
  const char              *interpreter;
  const char              *pipeline;
  const char              *rule;
  const char              *reason;
  const char              *by;

  gint64                   seq;
  gint64                   time;
  gint64                   deadline;
  gint64                   duration;
  gint64                   argc;
  gint64                   bytes_in;     /* a net row's, at its end; -1 until then */
  gint64                   bytes_out;
  int                      pid;
  int                      ppid;
  int                      exit_code;
  int                      signal;
  int                      port;         /* a net row's */

  guint                    position;     /* in the timeline: rows are only appended */
  guint8                   kind;
  guint8                   decision;
  guint                    truncated : 1;
  guint                    replaced : 1;
  guint                    ended : 1;
  guint                    folded : 1;   /* set before the row is appended, never after */
  guint                    changed : 1;  /* updated since it was announced, not yet said */
  guint                    busy : 1;     /* running, and neither a prompt helper nor a shell */
};

/* A row for an exec (or an ask that came first: then ASKING) or a
 * session event; NULL for a message that makes no row. */
PaddockTimelineEvent *paddock_timeline_event_new_exec     (PaddockTimelineStrings *strings,
                                                           const PaddockMessage   *message);
PaddockTimelineEvent *paddock_timeline_event_new_session  (PaddockTimelineStrings *strings,
                                                           const PaddockMessage   *message);
/* A row for a home message or an ask of kind "home". */
PaddockTimelineEvent *paddock_timeline_event_new_home     (PaddockTimelineStrings *strings,
                                                           const PaddockMessage   *message);
/* A row for a net message or an ask of kind "host": a connection. */
PaddockTimelineEvent *paddock_timeline_event_new_net      (PaddockTimelineStrings *strings,
                                                           const PaddockMessage   *message);
/* Each returns whether the row changed, and notifies what did. */
gboolean              paddock_timeline_event_ask          (PaddockTimelineEvent   *self,
                                                           const PaddockMessage   *ask);
/* A home row's later news: its ask, or a home message of the same id. */
gboolean              paddock_timeline_event_home         (PaddockTimelineEvent   *self,
                                                           const PaddockMessage   *message);
/* A net row's later news: a net message of the same connection, its
 * decision or its end ("kind": "end"). */
gboolean              paddock_timeline_event_net          (PaddockTimelineEvent   *self,
                                                           const PaddockMessage   *message);
gboolean              paddock_timeline_event_decide       (PaddockTimelineEvent   *self,
                                                           const PaddockMessage   *decided);
gboolean              paddock_timeline_event_end          (PaddockTimelineEvent   *self,
                                                           const PaddockMessage   *exit);

/* Reads the audit log @path into a new read-only timeline on the calling
 * thread (what paddock_timeline_load_audit_async() runs in its thread).
 * @func, where given, sees every record as well, in file order; where
 * @verification is given, the chain is checked as the lines are read
 * (see paddock_audit_foreach()). NULL with @error where the file cannot
 * be read, or @cancellable was cancelled. */
PaddockTimeline      *paddock_timeline_load_audit_file    (const char                *path,
                                                           PaddockAuditRecordFunc     func,
                                                           gpointer                   user_data,
                                                           PaddockAuditVerification  *verification,
                                                           GCancellable              *cancellable,
                                                           GError                   **error);

G_END_DECLS
