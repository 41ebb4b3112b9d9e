/* paddock-timeline-details.h: one timeline row's details: its command line, folder, process, program, decision
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shown under the timeline's list while a program's row is selected; the
 * view builds it the first time one is, as most tabs never need it.
 * Bytes that are not text show escaped. Used on the main thread only.
 */
#pragma once

#include <gtk/gtk.h>

#include "paddock-timeline-event.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_TIMELINE_DETAILS (paddock_timeline_details_get_type ())

G_DECLARE_FINAL_TYPE (PaddockTimelineDetails, paddock_timeline_details, PADDOCK, TIMELINE_DETAILS, GtkWidget)

GtkWidget *paddock_timeline_details_new       (void);
/* Shows @event's details as it is now; call again when it changes. */
void       paddock_timeline_details_set_event (PaddockTimelineDetails *self,
                                               PaddockTimelineEvent   *event);

void       paddock_timeline_details_set_status (PaddockTimelineDetails *self,
                                                const char             *text,
                                                gboolean                error);

/* @event's argv as a shell would take it back: an argument quoted only
 * where it holds more than letters, digits and harmless punctuation. */
char      *paddock_timeline_dup_command       (PaddockTimelineEvent   *event);

G_END_DECLS
