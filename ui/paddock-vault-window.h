/* paddock-vault-window.h: the secrets in the user's vault, in a window of their own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lists the secrets the window's project sees (or every project's), by
 * name: a value is fetched and shown only when the user presses Reveal,
 * and hidden again when they press Hide or the list reloads (GTK's label
 * keeps its own copy of the text while shown; ours are wiped). Adds a secret (for every project, or the project's
 * own), deletes one after asking, sets its mode, pins it to a program
 * chosen in a file chooser and shows the pinned file's hash, and unpins.
 *
 * Every vault call is async (libpaddock-vault runs it in a thread); an
 * error is a toast naming the secret and the reason, and the window keeps
 * working. Its actions, for menus and tests:
 *   vault.add                     the name, value and scope typed in
 *   vault.reveal      (ss)        name, project: show or hide the value
 *   vault.delete      (ss)        asks first
 *   vault.pin         (sss)       name, project, program ("" opens a file chooser)
 *   vault.unpin       (sss)       name, project, program
 *   vault.set-mode    (sss)       name, project, "ask" | "session" | "pinned"
 * Main thread only.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADDOCK_TYPE_VAULT_WINDOW (paddock_vault_window_get_type ())

G_DECLARE_FINAL_TYPE (PaddockVaultWindow, paddock_vault_window, PADDOCK, VAULT_WINDOW, AdwPreferencesWindow)

/* @project: the window's project folder (canonical), or NULL. */
PaddockVaultWindow *paddock_vault_window_new      (GtkWindow          *parent,
                                                   const char         *project);
/* Vault calls started and not yet answered: 0 once the window is idle. */
guint               paddock_vault_window_get_busy (PaddockVaultWindow *self);
/* The secrets listed last (PaddockSecretInfo), or NULL before the first
 * list arrived; the window owns it. */
GPtrArray          *paddock_vault_window_get_secrets (PaddockVaultWindow *self);

G_END_DECLS
