/* paddock-session-page.h: one session in a tab: its terminal, running under paddock-run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <vte/vte.h>

#include "paddock-approval-bar.h"
#include "paddock-client.h"
#include "paddock-lock-status.h"
#include "paddock-project.h"
#include "paddock-timeline-view.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_SESSION_PAGE (paddock_session_page_get_type ())

G_DECLARE_FINAL_TYPE (PaddockSessionPage, paddock_session_page, PADDOCK, SESSION_PAGE, GtkWidget)

PaddockSessionPage *paddock_session_page_new            (PaddockProject     *project);
PaddockProject     *paddock_session_page_get_project    (PaddockSessionPage *self);
const char         *paddock_session_page_get_title      (PaddockSessionPage *self);
char               *paddock_session_page_dup_tab_title  (PaddockSessionPage *self);
VteTerminal        *paddock_session_page_get_terminal   (PaddockSessionPage *self);
GPid                paddock_session_page_get_runner_pid (PaddockSessionPage *self);
gboolean            paddock_session_page_get_running    (PaddockSessionPage *self);
gboolean            paddock_session_page_get_locked     (PaddockSessionPage *self);
const char         *paddock_session_page_get_start_failure (PaddockSessionPage *self);
PaddockClient      *paddock_session_page_get_client     (PaddockSessionPage *self);
char               *paddock_session_page_dup_busy_program (PaddockSessionPage *self);
PaddockLockStatus  *paddock_session_page_get_reported_lock (PaddockSessionPage *self);
void                paddock_session_page_set_command    (PaddockSessionPage *self,
                                                         const char * const *command);
void                paddock_session_page_start          (PaddockSessionPage *self);
PaddockApprovalBar *paddock_session_page_get_approval_bar (PaddockSessionPage *self);
gboolean            paddock_session_page_decide         (PaddockSessionPage *self,
                                                         gint64              ask_id,
                                                         PaddockDecision     decision,
                                                         PaddockRemember     remember);
PaddockTimelineView *paddock_session_page_get_timeline_view (PaddockSessionPage *self);
PaddockTimeline    *paddock_session_page_get_timeline   (PaddockSessionPage *self);
gboolean            paddock_session_page_get_show_timeline (PaddockSessionPage *self);
void                paddock_session_page_set_show_timeline (PaddockSessionPage *self,
                                                            gboolean            show_timeline);

G_END_DECLS
