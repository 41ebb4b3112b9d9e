/* paddock-control-socket.h: where a session's control socket lives
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * $XDG_RUNTIME_DIR/paddock/SESSION.sock: paddock-run listens there,
 * paddockctl and PaddockClient find sessions there. Any thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* $XDG_RUNTIME_DIR/paddock, created 0700 and checked to be ours and private. */
char *paddock_control_socket_dir  (GError     **error);
/* The socket path of @session_id in that directory; an error where the id
 * is not a plain name or the path is too long for a Unix socket. */
char *paddock_control_socket_path (const char  *session_id,
                                   GError     **error);

G_END_DECLS
