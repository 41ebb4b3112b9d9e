/* paddock-session-page-private.h: what the parts of a session page share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "paddock-session-page.h"

G_BEGIN_DECLS

struct _PaddockSessionPage
{
  GtkWidget       parent_instance;

  PaddockProject *project;
  PaddockAgent   *agent;
  PaddockLockChoice lock_choice;
  char           *title;
  GCancellable   *spawn_cancellable;
  GPid            runner_pid;
  gboolean        starting;
  gboolean        locked;
  gboolean        net_locked;     /* started (or last started) under the network lock */
  char           *start_failure;
  gboolean        told_bad_message;  /* this session's client skipped a line, and the window said so */
  gboolean        disposed;
  gboolean        restart_pending;  /* killed to be started again */

  /* Attention: the agent went quiet after output, or rang the bell. */
  gint64          last_input;      /* monotonic µs of the last keystroke */
  gint64          last_output;     /* and of the last output that was not its echo */
  guint           quiet_id;
  guint           save_width_id;

  /* The session's own word on itself, over the socket it inherits. */
  PaddockClient     *client;
  PaddockMessage    *last_denied;     /* the last refused exec, told of once */
  PaddockLockStatus *reported_lock;  /* from its hello or lock-status; NULL until then */

  /* Asks told of in a notification, while the tab was out of sight:
   * gint64 ask id -> the notification's id, withdrawn once it is decided. */
  GHashTable        *notified;
  GApplication      *notifying_app;  /* weak */

  /* The preferences (NULL without their schemas), applied as they change. */
  GSettings          *settings;
  GSettings          *desktop_interface;

  GtkStack           *stack;
  GtkPaned           *paned;
  PaddockApprovalBar *approval_bar;
  VteTerminal        *terminal;
  GtkActionBar       *exit_bar;
  GtkLabel           *exit_label;
  GtkLabel           *exit_detail_label;
  AdwStatusPage      *error_page;      /* built on the first failure to start */
  PaddockTimelineView *timeline_view;
};

/* paddock-session-page.c */
void     paddock_session_page_emit_attention        (PaddockSessionPage   *self,
                                                     const char           *reason);

/* paddock-session-page-attention.c */
void     paddock_session_page_tell_of_ask           (PaddockSessionPage   *self,
                                                     const PaddockMessage *ask);
void     paddock_session_page_withdraw_notification (PaddockSessionPage  *self,
                                                     gint64               ask_id);
void     paddock_session_page_withdraw_notifications (PaddockSessionPage *self);
void     paddock_session_page_terminal_bell_cb      (PaddockSessionPage   *self,
                                                     VteTerminal          *terminal);
void     paddock_session_page_terminal_commit_cb    (PaddockSessionPage   *self,
                                                     const char           *text,
                                                     guint                 size,
                                                     VteTerminal          *terminal);
void     paddock_session_page_terminal_contents_changed_cb (PaddockSessionPage *self,
                                                            VteTerminal        *terminal);

G_END_DECLS
