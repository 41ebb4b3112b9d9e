/* test-home.c: a private HOME and XDG folders for one test program
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not G_TEST_OPTION_ISOLATE_DIRS: in GLib 2.74 it leaks the folders it
 * replaces.
 */
#include "config.h"

#include "test-home.h"

char *
test_home_new (void)
{
  g_autoptr(GError) error = NULL;
  char *home = g_dir_make_tmp ("paddock-test-home-XXXXXX", &error);
  g_autofree char *config = NULL;
  g_autofree char *state = NULL;

  g_assert_no_error (error);
  config = g_build_filename (home, "config", NULL);
  state = g_build_filename (home, "state", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  return home;
}

void
test_home_remove (char *home)
{
  const char *rm[] = { "rm", "-rf", home, NULL };

  g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_free (home);
}
