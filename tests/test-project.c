/* test-project.c: resolving and checking a project folder, and its saved lock choice
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paddock-policy.h"
#include "paddock-project.h"
#include "paddock-project-config.h"
#include "paddock-project-store.h"
#include "test-util.h"

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

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

/* -1 nothing saved, else the saved choice. */
static int
saved_lock (const char *path)
{
  PaddockProjectConfig config = { 0 };
  g_autoptr(GError) error = NULL;
  int choice;

  g_assert_true (paddock_project_config_load (path, &config, &error));
  choice = config.has_lock ? config.lock : -1;
  paddock_project_config_clear (&config);
  return choice;
}

static void
test_lock_default_and_saved (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *settings = NULL;

  /* Off by default. */
  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  g_assert_false (paddock_project_get_lock (project));
  g_assert_null (paddock_project_get_lock_error (project));
  g_clear_object (&project);

  /* Remembered per project, under the canonical path. */
  g_assert_true (paddock_project_config_save_lock (dir, TRUE, &error));
  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_project_get_lock (project));

  g_assert_true (paddock_project_config_save_lock (dir, FALSE, &error));
  paddock_project_reload_lock (project);
  g_assert_false (paddock_project_get_lock (project));

  settings = paddock_project_config_path (dir);
  g_clear_object (&project);
  g_unlink (settings);
  g_rmdir (dir);
}

static void
test_set_lock (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *settings = NULL;
  guint notified = 0;

  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  g_signal_connect (project, "notify::lock", G_CALLBACK (count_notify), &notified);

  /* The property takes the new value at once; the file once the save is done. */
  paddock_project_set_lock_async (project, TRUE, NULL, store_result, &result);
  g_assert_true (paddock_project_get_lock (project));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (paddock_project_set_lock_finish (project, wait_for_result (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpint (saved_lock (dir), ==, 1);
  g_assert_true (paddock_project_get_lock (project));
  g_clear_object (&result);

  paddock_project_set_lock_async (project, FALSE, NULL, store_result, &result);
  g_assert_false (paddock_project_get_lock (project));
  g_assert_true (paddock_project_set_lock_finish (project, wait_for_result (&result), &error));
  g_assert_cmpint (saved_lock (dir), ==, 0);
  g_assert_cmpuint (notified, ==, 2);

  /* Quick changes are saved in order: the file ends with the last one. */
  {
    g_autoptr(GAsyncResult) first = NULL;
    g_autoptr(GAsyncResult) second = NULL;
    g_autoptr(GAsyncResult) third = NULL;

    paddock_project_set_lock_async (project, TRUE, NULL, store_result, &first);
    paddock_project_set_lock_async (project, FALSE, NULL, store_result, &second);
    paddock_project_set_lock_async (project, TRUE, NULL, store_result, &third);
    g_assert_true (paddock_project_get_lock (project));
    g_assert_true (paddock_project_set_lock_finish (project, wait_for_result (&third), &error));
    g_assert_nonnull (first);
    g_assert_nonnull (second);
    g_assert_true (paddock_project_set_lock_finish (project, first, &error));
    g_assert_true (paddock_project_set_lock_finish (project, second, &error));
    g_assert_cmpint (saved_lock (dir), ==, 1);
    g_assert_true (paddock_project_get_lock (project));
  }

  settings = paddock_project_config_path (dir);
  g_clear_object (&project);
  g_unlink (settings);
  g_rmdir (dir);
}

static void
test_lock_broken_settings (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *settings = paddock_project_config_path (dir);
  g_autofree char *settings_dir = g_path_get_dirname (settings);
  g_autofree char *after = NULL;
  const char *garbage = "{ \"lock\": fals";

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  g_file_set_contents (settings, garbage, -1, &error);
  g_assert_no_error (error);

  /* Unreadable settings count as "on": paddock-run then says why it cannot start. */
  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_project_get_lock (project));
  g_assert_nonnull (paddock_project_get_lock_error (project));
  g_assert_nonnull (strstr (paddock_project_get_lock_error (project)->message, settings));

  /* And they are never overwritten: they may hold the project's grants. */
  paddock_project_set_lock_async (project, FALSE, NULL, store_result, &result);
  g_assert_false (paddock_project_set_lock_finish (project, wait_for_result (&result), &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Cannot save the folder lock"));
  g_assert_true (paddock_project_get_lock (project));
  g_file_get_contents (settings, &after, NULL, NULL);
  g_assert_cmpstr (after, ==, garbage);

  g_clear_object (&project);
  g_unlink (settings);
  g_rmdir (dir);
}

/* Settings that are not JSON as Paddock writes it are refused, naming the
 * file and why; a /dev/zero behind the file is refused as a device, and
 * a file too large is read only up to the size limit; a "path" that is not a string says nothing about this
 * project (json-glib warned, and a debug build aborted). */
/* "deny": a list of absolute or ~/ paths, anything else an error. */
static void
test_settings_deny (void)
{
  const char *project = "/srv/p";
  const struct { const char *text; const char *says; } bad[] = {
    { "{ \"path\": \"/srv/p\", \"deny\": \"~/.acme\" }", "\"deny\" must be a list of paths" },
    { "{ \"path\": \"/srv/p\", \"deny\": [1] }", "\"deny\" must be a list of paths" },
    { "{ \"path\": \"/srv/p\", \"deny\": [\"acme\"] }", "acme is neither absolute nor under ~/" },
  };
  const char *good = "{ \"path\": \"/srv/p\", \"lock\": true, \"deny\": [\"~/.acme\", \"/srv/keys\"] }";
  PaddockProjectConfig config = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_project_config_parse (project, "s.json", good, strlen (good), &config, &error));
  g_assert_no_error (error);
  g_assert_true (config.lock);
  g_assert_nonnull (config.denials);
  g_assert_cmpstr (config.denials[0], ==, "~/.acme");
  g_assert_cmpstr (config.denials[1], ==, "/srv/keys");
  g_assert_null (config.denials[2]);
  paddock_project_config_clear (&config);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;

      g_assert_false (paddock_project_config_parse (project, "s.json", bad[i].text, strlen (bad[i].text),
                                                    &config, &bad_error));
      g_assert_nonnull (bad_error);
      if (strstr (bad_error->message, bad[i].says) == NULL)
        g_error ("%s: expected \"%s\", got: %s", bad[i].text, bad[i].says, bad_error->message);
      g_assert_false (config.has_lock);
      g_assert_null (config.denials);
    }
}

static void
test_settings_bad_input (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *settings = paddock_project_config_path (dir);
  g_autofree char *settings_dir = g_path_get_dirname (settings);
  const struct { const char *text; const char *says; } bad[] = {
    { "{ \"path\": \"@\", \"lock\": 0x1 }", "unexpected \"0x1\"" },
    { "{ \"path\": \"@\", \"lock\": true } { \"lock\": false }", "text after the JSON object" },
    { "{ \"path\": \"@\", \"grants\": [\"/x\\u12\"] }", "four hex digits" },
    { "{ \"path\": \"@\", \"lock\": true /* on */ }", "a comment" },
    { "{ \"path\": \"@\", \"lock\": true }\xff", "not valid UTF-8" },
  };

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GString) text = g_string_new (bad[i].text);
      g_autoptr(GError) error = NULL;
      PaddockProjectConfig config = { 0 };

      g_string_replace (text, "@", dir, 1);
      g_assert_true (g_file_set_contents (settings, text->str, text->len, NULL));
      g_assert_false (paddock_project_config_load (dir, &config, &error));
      g_assert_nonnull (error);
      if (!g_str_has_prefix (error->message, settings) || strstr (error->message, bad[i].says) == NULL)
        g_error ("%s: expected \"%s\", got: %s", bad[i].text, bad[i].says, error->message);
      g_assert_false (config.has_lock);

      /* Saving a choice over them fails, says why, and keeps them. */
      {
        g_autoptr(GError) save_error = NULL;
        g_autofree char *kept = NULL;
        gsize kept_length = 0;

        g_assert_false (paddock_project_config_save_lock (dir, FALSE, &save_error));
        g_assert_nonnull (save_error);
        g_assert_true (g_str_has_prefix (save_error->message, settings));
        g_assert_nonnull (strstr (save_error->message, bad[i].says));
        g_assert_true (g_str_has_suffix (save_error->message, "(left as it is)"));
        g_assert_true (g_file_get_contents (settings, &kept, &kept_length, NULL));
        g_assert_cmpmem (kept, kept_length, text->str, text->len);
      }
    }

  {
    g_autoptr(GError) error = NULL;
    PaddockProjectConfig config = { 0 };

    g_assert_true (g_file_set_contents (settings, "{ \"path\": {}, \"lock\": true }", -1, NULL));
    g_assert_true (paddock_project_config_load (dir, &config, &error));
    g_assert_no_error (error);
    g_assert_false (config.has_lock);
  }
  {
    g_autoptr(GError) error = NULL;
    PaddockProjectConfig config = { 0 };

    g_assert_cmpint (g_unlink (settings), ==, 0);
    g_assert_cmpint (symlink ("/dev/zero", settings), ==, 0);
    g_assert_false (paddock_project_config_load (dir, &config, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "it is a device (character 1:5)"));
  }
  {
    /* A pipe would hold whoever reads the settings (paddockctl lock
     * status, paddock-run --lock, the window) until someone writes to it:
     * refused, and so is saving over it. */
    g_autoptr(GError) error = NULL;
    g_autoptr(GError) save_error = NULL;
    PaddockProjectConfig config = { 0 };

    g_assert_cmpint (g_unlink (settings), ==, 0);
    g_assert_cmpint (mkfifo (settings, 0600), ==, 0);
    g_assert_false (paddock_project_config_load (dir, &config, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "it is a pipe, where Paddock keeps a file"));
    g_assert_false (paddock_project_config_save_lock (dir, TRUE, &save_error));
    g_assert_nonnull (save_error);
    g_assert_nonnull (strstr (save_error->message, "it is a pipe, where Paddock keeps a file"));
  }
  {
    /* Nor a terminal, which reading would hold until someone types. */
    g_autoptr(GError) error = NULL;
    PaddockProjectConfig config = { 0 };
    int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
    const char *terminal;

    g_assert_cmpint (master, >=, 0);
    g_assert_cmpint (grantpt (master), ==, 0);
    g_assert_cmpint (unlockpt (master), ==, 0);
    terminal = ptsname (master);
    g_assert_nonnull (terminal);
    g_assert_cmpint (g_unlink (settings), ==, 0);
    g_assert_cmpint (symlink (terminal, settings), ==, 0);
    g_assert_false (paddock_project_config_load (dir, &config, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, ", where Paddock keeps a file"));
    close (master);
  }
  {
    g_autoptr(GError) error = NULL;
    PaddockProjectConfig config = { 0 };
    int fd;

    g_assert_cmpint (g_unlink (settings), ==, 0);
    fd = open (settings, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, 2 * 1024 * 1024), ==, 0);
    close (fd);
    g_assert_false (paddock_project_config_load (dir, &config, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "larger than"));
  }
  g_unlink (settings);
  g_rmdir (dir);
}

static gboolean
give_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_lock_follows_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autofree char *dir = make_dir ();
  g_autofree char *settings = paddock_project_config_path (dir);
  g_autofree char *settings_dir = g_path_get_dirname (settings);
  gboolean timed_out = FALSE;
  guint notified = 0;
  guint timeout;

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  g_signal_connect (project, "notify::lock", G_CALLBACK (count_notify), &notified);

  /* Another program (paddockctl lock on) saves a choice: the project follows. */
  g_assert_true (paddock_project_config_save_lock (dir, TRUE, &error));
  timeout = g_timeout_add_seconds (20, give_up, &timed_out);
  while (!paddock_project_get_lock (project) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);
  g_assert_cmpuint (notified, ==, 1);

  g_clear_object (&project);
  g_unlink (settings);
  g_rmdir (dir);
}

/* A project's settings, rules and remembered answers sit side by side in
 * one store, under one name, outside the project; another project's never
 * share it. */
static void
test_one_store (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-store-XXXXXX", &error);
  g_autofree char *real = NULL;
  g_autofree char *other = NULL;
  g_autofree char *store = paddock_project_store_dir ();
  g_autofree char *settings = NULL;
  g_autofree char *rules = NULL;
  g_autofree char *settings_dir = NULL;
  g_autofree char *rules_dir = NULL;
  g_autofree char *other_rules = NULL;
  g_autofree char *settings_base = NULL;
  g_autofree char *rules_base = NULL;

  g_assert_no_error (error);
  real = realpath (dir, NULL);
  settings = paddock_project_config_path (real);
  rules = paddock_policy_project_file (real, &error);
  g_assert_no_error (error);
  settings_dir = g_path_get_dirname (settings);
  rules_dir = g_path_get_dirname (rules);
  g_assert_cmpstr (settings_dir, ==, store);
  g_assert_cmpstr (rules_dir, ==, store);
  g_assert_false (g_str_has_prefix (store, real));
  settings_base = g_path_get_basename (settings);
  rules_base = g_path_get_basename (rules);
  /* The same name, less what each file is. */
  g_assert_true (g_str_has_suffix (settings_base, ".settings.json"));
  g_assert_true (g_str_has_suffix (rules_base, ".json"));
  g_assert_cmpint (strlen (settings_base) - strlen (".settings.json"), ==, 64);
  g_assert_cmpint (strncmp (settings_base, rules_base, 64), ==, 0);
  /* The policy names the project by its canonical path, as the settings do. */
  other = g_build_filename (dir, ".", NULL);
  other_rules = paddock_policy_project_file (other, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (other_rules, ==, rules);
  g_clear_pointer (&other_rules, g_free);
  other_rules = paddock_policy_project_file ("/", &error);
  g_assert_cmpstr (other_rules, !=, rules);

  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config_home = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* Saved lock choices stay in the test's own folder. */
  config_home = g_dir_make_tmp ("paddock-project-config-XXXXXX", NULL);
  g_assert_nonnull (config_home);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);

  g_test_add_func ("/paddock/project/canonical-path", test_canonical_path);
  g_test_add_func ("/paddock/project/bad-paths", test_bad_paths);
  g_test_add_func ("/paddock/project/unenterable", test_unenterable);
  g_test_add_func ("/paddock/project/display-path", test_display_path);
  g_test_add_func ("/paddock/project/lock-default-and-saved", test_lock_default_and_saved);
  g_test_add_func ("/paddock/project/set-lock", test_set_lock);
  g_test_add_func ("/paddock/project/lock-broken-settings", test_lock_broken_settings);
  g_test_add_func ("/paddock/project/settings-bad-input", test_settings_bad_input);
  g_test_add_func ("/paddock/project/settings-deny", test_settings_deny);
  g_test_add_func ("/paddock/project/lock-follows-file", test_lock_follows_file);
  g_test_add_func ("/paddock/project/one-store", test_one_store);

  status = g_test_run ();
  test_remove_tree (config_home);
  return status;
}
