/* paddock-history-window.h: a past session's timeline, read-only, in a window of its own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shows a PaddockPastSession opened from its audit log: its timeline in a
 * PaddockTimelineView (search, filters and details, nothing to approve,
 * no rules to write), a subtitle that says it is a past session and
 * whether its log verifies, and, where the log is damaged, edited or has
 * no end, what is wrong in words above the rows. Main thread only.
 */
#pragma once

#include <adwaita.h>

#include "paddock-history.h"
#include "paddock-timeline-view.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_HISTORY_WINDOW (paddock_history_window_get_type ())

G_DECLARE_FINAL_TYPE (PaddockHistoryWindow, paddock_history_window, PADDOCK, HISTORY_WINDOW, AdwWindow)

/* @session must have been opened (it has its timeline). */
GtkWidget           *paddock_history_window_new               (PaddockPastSession   *session);
PaddockPastSession  *paddock_history_window_get_session       (PaddockHistoryWindow *self);
PaddockTimelineView *paddock_history_window_get_timeline_view (PaddockHistoryWindow *self);

G_END_DECLS
