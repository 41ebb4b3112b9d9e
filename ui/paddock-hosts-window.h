/* paddock-hosts-window.h: a project's allowed and denied hosts, for its network lock
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shows the project's "hosts" settings (paddock-project-net.h) in two
 * lists, and changes them at once: a host typed in a list's entry goes
 * into it (and out of the other), a row's remove button (the
 * hosts.remove action, with the host) takes it out of both. Sessions
 * started from then on get the lists; main thread.
 */
#pragma once

#include <adwaita.h>

#include "paddock-project.h"

G_BEGIN_DECLS

#define PADDOCK_TYPE_HOSTS_WINDOW (paddock_hosts_window_get_type ())

G_DECLARE_FINAL_TYPE (PaddockHostsWindow, paddock_hosts_window, PADDOCK, HOSTS_WINDOW, AdwWindow)

GtkWidget *paddock_hosts_window_new (GtkWindow      *parent,
                                     PaddockProject *project);

G_END_DECLS
