/* paddock-lock-popover.h: the padlock's popover: the project's locks, and what a lock protects here
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window sets what it knows (the lock's description, the selected
 * tab's lock, what paddock-run --lock-status said) and the popover shows
 * it; the protections and the home folder's lists are rows of a model
 * (paddock_lock_popover_get_rows()), each row a PaddockLockRow, bound to
 * the list that shows them. Its switches are the window's win.lock and
 * win.network actions, its Hosts button win.network-hosts. Main thread.
 */
#pragma once

#include <gtk/gtk.h>

#include "paddock-lock-status.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_LOCK_ROW (paddock_lock_row_get_type ())

G_DECLARE_FINAL_TYPE (PaddockLockRow, paddock_lock_row, PADDOCK, LOCK_ROW, GObject)

/* A protection's name ("Files outside the project"), or a path list's title. */
const char          *paddock_lock_row_get_title   (PaddockLockRow *self);
/* Why a protection is missing, or how it works; a path list's tooltip. */
const char          *paddock_lock_row_get_detail  (PaddockLockRow *self);
gboolean             paddock_lock_row_get_active  (PaddockLockRow *self);
/* A path list's paths, or NULL for a protection. */
const char * const  *paddock_lock_row_get_paths   (PaddockLockRow *self);

#define PADDOCK_TYPE_LOCK_POPOVER (paddock_lock_popover_get_type ())

G_DECLARE_FINAL_TYPE (PaddockLockPopover, paddock_lock_popover, PADDOCK, LOCK_POPOVER, GtkPopover)

/* What the lock does on this machine: @status (NULL while it is not
 * known), or @error where it could not be known. */
void        paddock_lock_popover_set_status      (PaddockLockPopover *self,
                                                  PaddockLockStatus  *status,
                                                  const char         *error);
/* The line under the folder lock's switch. */
void        paddock_lock_popover_set_description (PaddockLockPopover *self,
                                                  const char         *description);
/* How the selected tab runs: its icon and words, or NULL for no tab. */
void        paddock_lock_popover_set_session     (PaddockLockPopover *self,
                                                  const char         *icon_name,
                                                  const char         *text);
/* The rows shown under "What a Lock Protects Here": PaddockLockRow. */
GListModel *paddock_lock_popover_get_rows        (PaddockLockPopover *self);

G_END_DECLS
