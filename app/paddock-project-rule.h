/* paddock-project-rule.h: a timeline row's command line, always allowed or denied in its project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline's Always Allow and Always Deny write: a remembered
 * rule (paddock_policy_rule_new_remembered()) for exactly the row's
 * program and argv, put first in the project's override file, which a
 * session running in the project follows. The rule is made on the
 * calling thread; the file is read, locked and written in a thread, so
 * the main loop never waits on the disk.
 *
 * Only the command line the row shows is remembered: a row whose argv was
 * cut short, or a shell reading its script from a pipe (whose rule must
 * name what it reads, which the row shows only in part), is refused with
 * G_IO_ERROR_NOT_SUPPORTED. A script's #! interpreter is judged at a
 * level of its own and is not covered by the rule.
 *
 * Errors say what went wrong in words: the file is locked by another
 * program (G_FILE_ERROR_AGAIN), the file is broken (PADDOCK_POLICY_ERROR),
 * the command line is too long for a rule.
 */
#pragma once

#include <gio/gio.h>

#include "paddock-policy.h"
#include "paddock-timeline-event.h"

G_BEGIN_DECLS

/* Remembers @action (ALLOW or DENY) for @event, an exec row, in the
 * project @project; the finish returns the rule's name. */
void      paddock_project_rule_remember_async  (const char            *project,
                                                PaddockTimelineEvent  *event,
                                                PaddockPolicyAction    action,
                                                GCancellable          *cancellable,
                                                GAsyncReadyCallback    callback,
                                                gpointer               user_data);
char     *paddock_project_rule_remember_finish (GAsyncResult          *result,
                                                GError               **error);

/* Takes the rule @name out of @project's file again (Undo). */
void      paddock_project_rule_forget_async    (const char            *project,
                                                const char            *name,
                                                GCancellable          *cancellable,
                                                GAsyncReadyCallback    callback,
                                                gpointer               user_data);
gboolean  paddock_project_rule_forget_finish   (GAsyncResult          *result,
                                                GError               **error);

G_END_DECLS
