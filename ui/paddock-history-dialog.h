/* paddock-history-dialog.h: a project's past sessions, to choose one to look at
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lists the project's past sessions from their audit logs (paddock-history.h),
 * newest first, each with when it started, what it ran, how many programs
 * it ran, asked about and refused, and whether its log verifies. Choosing
 * one (history.open, with the log's path) reads it and opens it read-only
 * in a PaddockHistoryWindow of the same application; a log that cannot be
 * read is said in a toast naming the file. Main thread only.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADDOCK_TYPE_HISTORY_DIALOG (paddock_history_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PaddockHistoryDialog, paddock_history_dialog, PADDOCK, HISTORY_DIALOG, AdwWindow)

/* Lists @project's sessions (a folder path) at once, in a thread. */
GtkWidget  *paddock_history_dialog_new          (const char           *project);
/* The sessions listed, PaddockPastSession; empty until they are read. */
GListModel *paddock_history_dialog_get_sessions (PaddockHistoryDialog *self);
/* Whether the list was read (or failed to be). */
gboolean    paddock_history_dialog_get_loaded   (PaddockHistoryDialog *self);

G_END_DECLS
