/* test-home.h: a private HOME and XDG folders for one test program
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Makes a private HOME with XDG_CONFIG_HOME and XDG_STATE_HOME in it and
 * points the environment there; call it before g_test_init(), which is
 * before GLib caches them. Returns the folder, for test_home_remove(). */
char *test_home_new    (void);
/* Removes @home and all it holds; frees @home. */
void  test_home_remove (char *home);
