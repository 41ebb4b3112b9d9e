/* test-util.c: what several test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The private HOME is not G_TEST_OPTION_ISOLATE_DIRS: in GLib 2.74 that
 * leaks the folders it replaces.
 */
#include "config.h"

#include "test-util.h"

#include <glib/gstdio.h>

char *
test_home_new (void)
{
  g_autoptr(GError) error = NULL;
  char *home = g_dir_make_tmp ("paddock-test-home-XXXXXX", &error);
  g_autofree char *config = NULL;
  g_autofree char *state = NULL;
  g_autofree char *runtime = NULL;

  g_assert_no_error (error);
  config = g_build_filename (home, "config", NULL);
  state = g_build_filename (home, "state", NULL);
  runtime = g_build_filename (home, "runtime", NULL);
  g_assert_cmpint (g_mkdir (runtime, 0700), ==, 0);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  return home;
}

void
test_home_remove (char *home)
{
  test_remove_tree (home);
  g_free (home);
}

void
test_remove_tree (const char *path)
{
  const char *rm[] = { "rm", "-rf", "--", path, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  if (path == NULL)
    return;
  if (!g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_printerr ("# cannot remove %s: %s\n", path, error->message);
}
