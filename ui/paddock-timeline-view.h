/* paddock-timeline-view.h: a session's timeline, shown: its programs in a list, searchable, with one's details
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shows a PaddockTimeline in a GtkListView, which makes rows only for
 * what is in sight and recycles them; a row that changes in place redraws
 * alone. A search (on the command line), a decision filter (all, asked,
 * denied) and the shell's prompt helpers (folded, hidden unless asked
 * for) narrow it through one GtkFilterListModel, which judges appended
 * rows only. It follows new rows unless the user scrolled up, and again
 * once they scroll back to the end. Used on the main thread only.
 *
 * The selected row's details offer its actions: timeline.copy-command,
 * and, while its session runs in a project, timeline.always-allow and
 * timeline.always-deny, which write a rule for exactly its command line
 * in the project's file (paddock-project-rule.h) and say so in a toast
 * of the window's AdwToastOverlay, with Undo; what goes wrong is said
 * under the details.
 */
#pragma once

#include <gtk/gtk.h>

#include "paddock-timeline.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_TIMELINE_VIEW (paddock_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (PaddockTimelineView, paddock_timeline_view, PADDOCK, TIMELINE_VIEW, GtkWidget)

typedef enum
{
  PADDOCK_TIMELINE_FILTER_ALL,
  PADDOCK_TIMELINE_FILTER_ASKED,
  PADDOCK_TIMELINE_FILTER_DENIED,
  PADDOCK_TIMELINE_FILTER_NETWORK,  /* connections under the network lock only */
} PaddockTimelineFilter;

GtkWidget       *paddock_timeline_view_new             (void);
PaddockTimeline *paddock_timeline_view_get_timeline    (PaddockTimelineView *self);
void             paddock_timeline_view_set_timeline    (PaddockTimelineView *self,
                                                        PaddockTimeline     *timeline);
/* The rows shown, after the search and the filters: PaddockTimelineEvent. */
GListModel      *paddock_timeline_view_get_model       (PaddockTimelineView *self);
GtkListView     *paddock_timeline_view_get_list_view   (PaddockTimelineView *self);
void             paddock_timeline_view_set_search      (PaddockTimelineView *self,
                                                        const char          *text);
void             paddock_timeline_view_set_filter      (PaddockTimelineView   *self,
                                                        PaddockTimelineFilter  filter);
void             paddock_timeline_view_set_show_folded (PaddockTimelineView *self,
                                                        gboolean             show_folded);
/* Whether new rows scroll into sight: not after the user scrolled up. */
gboolean         paddock_timeline_view_get_following   (PaddockTimelineView *self);

G_END_DECLS
