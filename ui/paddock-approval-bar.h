/* paddock-approval-bar.h: the asks of a session waiting for the user, above its terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bar keeps, in the order they came, the asks its page gives it, and
 * slides in while one waits: the first waiting one's command line, working
 * directory, rule and reason, a countdown to its deadline, and buttons for
 * the session.allow, session.allow-always, session.deny and session.kill
 * actions, which the page that holds the bar provides. A read in the home
 * folder (an ask of kind "home") is shown as "The agent wants to read
 * ~/.m2 (settings.xml)" above the command line that read, its buttons
 * Allow for This Session (session.allow), Allow in This Project
 * (session.allow-always) and Deny. An ask stays until
 * the page removes it (its decided came); one the page marks answered
 * leaves the view at once, so that it is not answered twice meanwhile.
 * Main thread only.
 */
#pragma once

#include <gtk/gtk.h>

#include "paddock-protocol.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_APPROVAL_BAR (paddock_approval_bar_get_type ())

G_DECLARE_FINAL_TYPE (PaddockApprovalBar, paddock_approval_bar, PADDOCK, APPROVAL_BAR, GtkWidget)

/* Copies @ask; one whose id is already there is ignored. */
void                  paddock_approval_bar_add_ask       (PaddockApprovalBar   *self,
                                                          const PaddockMessage *ask);
/* Whether the ask @id was there. */
gboolean              paddock_approval_bar_remove_ask    (PaddockApprovalBar   *self,
                                                          gint64                id);
/* Whether the ask @id was there, waiting. */
gboolean              paddock_approval_bar_set_answered  (PaddockApprovalBar   *self,
                                                          gint64                id);
void                  paddock_approval_bar_clear         (PaddockApprovalBar   *self);
/* How long a plain Allow of @ask lasts: once, or for a home folder read the session. */
PaddockRemember       paddock_approval_bar_allow_lasts   (const PaddockMessage *ask);
/* The ask @id, waiting or answered, or NULL; owned by the bar. */
const PaddockMessage *paddock_approval_bar_get_ask       (PaddockApprovalBar   *self,
                                                          gint64                id);
/* The ask shown, or NULL when none waits; owned by the bar. */
const PaddockMessage *paddock_approval_bar_get_current   (PaddockApprovalBar   *self);
gboolean              paddock_approval_bar_is_waiting    (PaddockApprovalBar   *self,
                                                          gint64                id);
guint                 paddock_approval_bar_get_n_waiting (PaddockApprovalBar   *self);

G_END_DECLS
