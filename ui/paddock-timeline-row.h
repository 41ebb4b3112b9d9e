/* paddock-timeline-row.h: one row of the timeline view: time, program, command line, decision, duration
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Made by the timeline view's list item factory and recycled by its
 * GtkListView: a row shows whichever event it is given, and redraws
 * itself (only itself) when that event's properties change.
 */
#pragma once

#include <gtk/gtk.h>

#include "paddock-timeline-event.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_TIMELINE_ROW (paddock_timeline_row_get_type ())

G_DECLARE_FINAL_TYPE (PaddockTimelineRow, paddock_timeline_row, PADDOCK, TIMELINE_ROW, GtkWidget)

GtkWidget            *paddock_timeline_row_new       (void);
PaddockTimelineEvent *paddock_timeline_row_get_event (PaddockTimelineRow   *self);
void                  paddock_timeline_row_set_event (PaddockTimelineRow   *self,
                                                      PaddockTimelineEvent *event);

/* How @event was decided, in words ("Denied by you"), with a symbolic
 * icon's name and a style class ("success", "warning", "error" or NULL). */
const char           *paddock_timeline_describe_decision (PaddockTimelineEvent  *event,
                                                          const char           **icon_name,
                                                          const char           **style_class);

/* A net row's line: "connect HOST:PORT", with the bytes each way once
 * it ended. */
char                 *paddock_timeline_dup_net_line (PaddockTimelineEvent  *event);

G_END_DECLS
