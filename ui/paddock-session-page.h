/* paddock-session-page.h: one session in a tab: its terminal, running under paddock-run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <vte/vte.h>

#include "paddock-agent.h"
#include "paddock-approval-bar.h"
#include "paddock-client.h"
#include "paddock-lock-status.h"
#include "paddock-project.h"
#include "paddock-timeline-view.h"

G_BEGIN_DECLS

/* Whether a session runs under the folder lock. */
typedef enum {
  PADDOCK_LOCK_CHOICE_PROJECT,   /* as the project's saved choice says when it starts */
  PADDOCK_LOCK_CHOICE_LOCK,
  PADDOCK_LOCK_CHOICE_NO_LOCK,
} PaddockLockChoice;

#define PADDOCK_TYPE_SESSION_PAGE (paddock_session_page_get_type ())

G_DECLARE_FINAL_TYPE (PaddockSessionPage, paddock_session_page, PADDOCK, SESSION_PAGE, GtkWidget)

PaddockSessionPage *paddock_session_page_new            (PaddockProject     *project,
                                                         PaddockAgent       *agent,
                                                         PaddockLockChoice   lock_choice);
PaddockAgent       *paddock_session_page_get_agent      (PaddockSessionPage *self);
PaddockLockChoice   paddock_session_page_get_lock_choice (PaddockSessionPage *self);
void                paddock_session_page_set_lock_choice (PaddockSessionPage *self,
                                                          PaddockLockChoice   lock_choice);
PaddockProject     *paddock_session_page_get_project    (PaddockSessionPage *self);
const char         *paddock_session_page_get_title      (PaddockSessionPage *self);
char               *paddock_session_page_dup_tab_title  (PaddockSessionPage *self);
VteTerminal        *paddock_session_page_get_terminal   (PaddockSessionPage *self);
GPid                paddock_session_page_get_runner_pid (PaddockSessionPage *self);
gboolean            paddock_session_page_get_running    (PaddockSessionPage *self);
gboolean            paddock_session_page_get_locked     (PaddockSessionPage *self);
gboolean            paddock_session_page_get_net_locked (PaddockSessionPage *self);
gboolean            paddock_session_page_get_paused     (PaddockSessionPage *self);
const char         *paddock_session_page_get_start_failure (PaddockSessionPage *self);
PaddockClient      *paddock_session_page_get_client     (PaddockSessionPage *self);
char               *paddock_session_page_dup_busy_program (PaddockSessionPage *self);
PaddockLockStatus  *paddock_session_page_get_reported_lock (PaddockSessionPage *self);
void                paddock_session_page_start          (PaddockSessionPage *self);
void                paddock_session_page_restart        (PaddockSessionPage *self);
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
