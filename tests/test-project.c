/* test-project.c: resolving and checking a project folder
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paddock-project.h"

static char *
make_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-project-XXXXXX", &error);
  char *canonical;

  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  g_assert_nonnull (canonical);
  return canonical;
}

static void
test_canonical_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *inner = g_build_filename (dir, "my-project", NULL);
  g_autofree char *link = g_build_filename (dir, "link", NULL);
  g_autofree char *dotted = g_build_filename (dir, "link", "..", "my-project", ".", NULL);
  g_autofree char *cwd = g_get_current_dir ();

  g_assert_cmpint (g_mkdir (inner, 0700), ==, 0);
  g_assert_cmpint (symlink (inner, link), ==, 0);

  /* Through a symlink: the project is the folder it points to. */
  project = paddock_project_new_for_path (link, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (paddock_project_get_path (project), ==, inner);
  g_assert_cmpstr (paddock_project_get_name (project), ==, "my-project");
  g_clear_object (&project);

  project = paddock_project_new_for_path (dotted, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (paddock_project_get_path (project), ==, inner);
  g_clear_object (&project);

  /* Relative to the current directory. */
  g_assert_cmpint (chdir (dir), ==, 0);
  project = paddock_project_new_for_path ("my-project", &error);
  g_assert_cmpint (chdir (cwd), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpstr (paddock_project_get_path (project), ==, inner);
  g_clear_object (&project);

  project = paddock_project_new_for_path ("/", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (paddock_project_get_path (project), ==, "/");
  g_assert_cmpstr (paddock_project_get_name (project), ==, "/");

  g_unlink (link);
  g_rmdir (inner);
  g_rmdir (dir);
}

static void
test_bad_paths (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autofree char *file = g_build_filename (dir, "file", NULL);
  g_autofree char *under_file = g_build_filename (dir, "file", "sub", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling", NULL);
  g_autofree char *message = NULL;

  g_assert_null (paddock_project_new_for_path (missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  message = g_strdup_printf ("Cannot open %s: %s", missing, g_strerror (ENOENT));
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);

  g_file_set_contents (file, "x", -1, &error);
  g_assert_no_error (error);
  g_assert_null (paddock_project_new_for_path (file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  g_assert_nonnull (strstr (error->message, file));
  g_clear_error (&error);

  g_assert_null (paddock_project_new_for_path (under_file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
  g_clear_error (&error);

  g_assert_cmpint (symlink (missing, dangling), ==, 0);
  g_assert_null (paddock_project_new_for_path (dangling, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_null (paddock_project_new_for_path ("", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_clear_error (&error);

  g_unlink (dangling);
  g_unlink (file);
  g_rmdir (dir);
}

static void
test_unenterable (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  g_autoptr(PaddockProject) project = NULL;

  g_assert_cmpint (g_mkdir (locked, 0700), ==, 0);

  /* Enterable: accepted. */
  project = paddock_project_new_for_path (locked, &error);
  g_assert_no_error (error);
  g_clear_object (&project);

  g_assert_cmpint (g_chmod (locked, 0600), ==, 0);
  if (geteuid () == 0)
    {
      /* Root enters any folder (CAP_DAC_OVERRIDE), so the folder is usable. */
      project = paddock_project_new_for_path (locked, &error);
      g_assert_no_error (error);
      g_assert_nonnull (project);
    }
  else
    {
      g_assert_null (paddock_project_new_for_path (locked, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
    }

  g_chmod (locked, 0700);
  g_rmdir (locked);
  g_rmdir (dir);
}

static void
test_display_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = realpath (g_get_home_dir (), NULL);
  g_autofree char *dir = make_dir ();
  g_autofree char *display = NULL;
  g_autoptr(PaddockProject) project = NULL;

  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  display = paddock_project_dup_display_path (project);
  if (home != NULL && g_str_has_prefix (dir, home) && dir[strlen (home)] == '/')
    g_assert_true (g_str_has_prefix (display, "~/"));
  else
    g_assert_cmpstr (display, ==, dir);
  g_clear_object (&project);
  g_clear_pointer (&display, g_free);

  if (home != NULL && g_strcmp0 (home, g_get_home_dir ()) == 0 && strcmp (home, "/") != 0)
    {
      project = paddock_project_new_for_path (home, &error);
      g_assert_no_error (error);
      display = paddock_project_dup_display_path (project);
      g_assert_cmpstr (display, ==, "~");
    }

  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/project/canonical-path", test_canonical_path);
  g_test_add_func ("/paddock/project/bad-paths", test_bad_paths);
  g_test_add_func ("/paddock/project/unenterable", test_unenterable);
  g_test_add_func ("/paddock/project/display-path", test_display_path);

  return g_test_run ();
}
