/* test-util.h: what several test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Makes a private HOME with XDG_CONFIG_HOME, XDG_STATE_HOME and
 * XDG_RUNTIME_DIR in it and points the environment there, so that nothing
 * a test runs (paddock-run's audit logs, sockets) reaches the real ones;
 * call it before g_test_init(), which is before GLib caches them. Returns
 * the folder, for test_home_remove(). */
char *test_home_new    (void);
/* Removes @home and all it holds; frees @home. */
void  test_home_remove (char *home);

/* Removes @path and all it holds (rm -rf); nothing when @path is NULL.
 * A test that fails stops before it, and leaves its folder to look at. */
void  test_remove_tree (const char *path);
