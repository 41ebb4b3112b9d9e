/* test-lock-later.c: what the user's own tools use later: tool caches copy-on-write, git hooks and config read-only
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case runs through paddock-run under the lock (on the backend
 * --backend= names) and, to show the attempt can succeed, without it.
 * npm is the real one, offline: a package made here, its tarball in the
 * project, the real cache filled by `npm cache add` before the lock.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *paddock_run;
static const char *backend = "landlock";
static char *base, *home, *project, *worktree, *runtime_dir, *config_home, *state_home, *cache_home;
static char *npm;
static char *no_layers;  /* why the caches get no overlay here, or NULL */

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char **
child_env (void)
{
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  env = g_environ_unsetenv (env, "XDG_DATA_HOME");
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_setenv (env, "PATH", "/usr/local/bin:/usr/bin:/bin", TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  env = g_environ_setenv (env, "GIT_CONFIG_NOSYSTEM", "1", TRUE);
  env = g_environ_setenv (env, "GIT_AUTHOR_NAME", "Paddock Test", TRUE);
  env = g_environ_setenv (env, "GIT_AUTHOR_EMAIL", "test@paddock.invalid", TRUE);
  env = g_environ_setenv (env, "GIT_COMMITTER_NAME", "Paddock Test", TRUE);
  env = g_environ_setenv (env, "GIT_COMMITTER_EMAIL", "test@paddock.invalid", TRUE);
  /* npm never reaches the network here: no update check, no audit, a
   * registry nobody listens on. */
  env = g_environ_setenv (env, "npm_config_update_notifier", "false", TRUE);
  env = g_environ_setenv (env, "npm_config_audit", "false", TRUE);
  env = g_environ_setenv (env, "npm_config_fund", "false", TRUE);
  env = g_environ_setenv (env, "npm_config_offline", "true", TRUE);
  env = g_environ_setenv (env, "npm_config_registry", "http://127.0.0.1:9/", TRUE);
  env = g_environ_unsetenv (env, "npm_config_cache");
  env = g_environ_unsetenv (env, "NPM_CONFIG_CACHE");
  return env;
}

/* `sh -c @script` in @dir, through paddock-run, locked or not. */
static TestResult *
run_in (const char *dir,
        gboolean    locked,
        const char *grant,
        const char *script)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", dir);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  TestRunOptions options = { .env = (const char * const *) env, .timeout = 120 };
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, project_arg);
  g_ptr_array_add (argv, locked ? "--lock" : "--no-lock");
  if (locked)
    g_ptr_array_add (argv, backend_arg);
  if (grant != NULL)
    g_ptr_array_add (argv, (char *) grant);
  for (const char **arg = (const char *[]) { "--", "sh", "-c", script, NULL }; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  return test_run_full ((const char * const *) argv->pdata, &options);
}

static TestResult *
run (gboolean    locked,
     const char *script)
{
  return run_in (project, locked, NULL, script);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* A digest of the tree at @path: every name, its type and mode, a file's
 * bytes, a link's target. */
static void
digest_tree (GChecksum  *sum,
             const char *path,
             const char *name)
{
  struct stat st;

  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_checksum_update (sum, (const guchar *) name, strlen (name) + 1);
  g_checksum_update (sum, (const guchar *) &st.st_mode, sizeof st.st_mode);
  if (S_ISREG (st.st_mode))
    {
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_checksum_update (sum, (const guchar *) contents, length);
    }
  else if (S_ISLNK (st.st_mode))
    {
      g_autofree char *target = g_file_read_link (path, NULL);

      g_checksum_update (sum, (const guchar *) target, strlen (target));
    }
  else if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *entry;

      g_assert_nonnull (dir);
      while ((entry = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_strdup (entry));
      g_ptr_array_sort (names, compare_names);
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *child = g_build_filename (path, g_ptr_array_index (names, i), NULL);
          g_autofree char *child_name = g_build_filename (name, g_ptr_array_index (names, i), NULL);

          digest_tree (sum, child, child_name);
        }
    }
}

static char *
digest (const char *path)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  digest_tree (sum, path, ".");
  return g_strdup (g_checksum_get_string (sum));
}

static char *
real_npm_cache (void)
{
  return g_build_filename (home, ".npm", NULL);
}

/* The layer's lock file: held, the session keeps the cache read-only, as
 * where no overlay can be made. */
static int
hold_layer (const char *name)
{
  g_autofree char *key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *dir = g_build_filename (state_home, "paddock", "caches", key, name, NULL);
  g_autofree char *path = g_build_filename (dir, "lock", NULL);
  int fd;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);
  return fd;
}

static char *
layer_upper (const char *name)
{
  g_autofree char *key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);

  return g_build_filename (state_home, "paddock", "caches", key, name, "upper", NULL);
}

/* Writes into the cache, removing and renaming its files and folders,
 * land in the project's layer, never in the real cache; with no layer to
 * be had, they are refused as before. */
static void
test_cache_write (void)
{
  g_autofree char *real = real_npm_cache ();
  g_autofree char *planted = g_build_filename (real, "planted", NULL);
  g_autofree char *upper = layer_upper ("npm");
  g_autofree char *in_layer = g_build_filename (upper, "planted", NULL);
  g_autofree char *before = digest (real);
  g_autofree char *after = NULL;
  const char *script = "echo agent > ~/.npm/planted && cat ~/.npm/planted && "
                       "for f in ~/.npm/_logs/*; do rm \"$f\"; done && rmdir ~/.npm/_logs && "
                       "mkdir ~/.npm/_logs && ls -A ~/.npm/_logs && mv ~/.npm/_cacache ~/.npm/moved && "
                       "ls ~/.npm/moved/index-v5 >/dev/null && mv ~/.npm/moved ~/.npm/_cacache";
  int held;

  if (no_layers != NULL)
    {
      g_test_skip (no_layers);
      return;
    }
  held = hold_layer ("npm");

  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_true (strstr (result->err, "Read-only file system") != NULL ||
                   strstr (result->err, "Permission denied") != NULL);
  }
  close (held);
  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "agent\n");
    g_assert_true (g_file_test (in_layer, G_FILE_TEST_IS_REGULAR));
  }
  after = digest (real);
  g_assert_cmpstr (after, ==, before);
  g_assert_false (g_file_test (planted, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_unlink (in_layer), ==, 0);
}

/* `npm install --offline` and `npm pack`, the real npm, work under the
 * lock and leave the real ~/.npm as it was, byte for byte; with the
 * cache read-only they fail; unlocked, npm changes the real cache, which
 * the digest sees. */
static void
test_npm_offline (void)
{
  const char *script = "rm -rf node_modules package-lock.json paddock-test-project-1.0.0.tgz && "
                       "npm install --offline && npm pack --offline && "
                       "cat node_modules/paddock-test-dep/index.js && ls paddock-test-project-1.0.0.tgz";
  g_autofree char *real = real_npm_cache ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *upper = layer_upper ("npm");
  int held;

  if (npm == NULL || no_layers != NULL)
    {
      g_test_skip (npm == NULL ? "npm is not installed" : no_layers);
      return;
    }
  before = digest (real);

  held = hold_layer ("npm");
  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_null (strstr (result->out, "module.exports = 42;"));
  }
  close (held);
  after = digest (real);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&after, g_free);

  {
    g_autoptr(TestResult) result = run (TRUE, script);
    g_autoptr(GDir) layer = g_dir_open (upper, 0, NULL);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "module.exports = 42;\n"));
    g_assert_nonnull (strstr (result->out, "paddock-test-project-1.0.0.tgz\n"));
    /* npm wrote to its cache: to the layer. */
    g_assert_nonnull (layer);
    g_assert_nonnull (g_dir_read_name (layer));
  }
  after = digest (real);
  g_assert_cmpstr (after, ==, before);
  g_clear_pointer (&after, g_free);

  {
    g_autoptr(TestResult) result = run (FALSE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "module.exports = 42;\n"));
  }
  after = digest (real);
  g_assert_cmpstr (after, !=, before);
}

/* A hook written under the lock is refused; without it, it is written. */
static void
test_git_hook (void)
{
  g_autofree char *hook = g_build_filename (project, ".git", "hooks", "post-commit", NULL);
  const char *script = "printf '#!/bin/sh\\necho planted\\n' > .git/hooks/post-commit && "
                       "chmod +x .git/hooks/post-commit";

  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "Read-only file system"));
    g_assert_false (g_file_test (hook, G_FILE_TEST_EXISTS));
  }
  {
    g_autoptr(TestResult) result = run (TRUE, "cp .git/hooks/pre-commit.sample /dev/null && "
                                              "mv .git/hooks/pre-commit.sample .git/hooks/pre-commit");

    /* Its samples read, not renamed into hooks. */
    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "Read-only file system"));
  }
  {
    g_autoptr(TestResult) result = run (FALSE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_true (g_file_test (hook, G_FILE_TEST_IS_EXECUTABLE));
  }
  g_assert_cmpint (g_unlink (hook), ==, 0);
}

/* Commits, branches, a rebase: all that writes .git but its config and
 * hooks works under the lock. */
static void
test_git_commit (void)
{
  g_autoptr(TestResult) result = run (TRUE, "git checkout -q -b locked-branch && "
                                            "echo more >> README && git commit -q -am 'under the lock' && "
                                            "git checkout -q - && git rebase -q locked-branch && "
                                            "git log --format=%s -1 && git branch -q -D locked-branch");

  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->out, ==, "under the lock\n");
}

static void
set_git_config_writable (gboolean writable)
{
  g_autofree char *key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (key, ".settings.json", NULL);
  g_autofree char *dir = g_build_filename (config_home, "paddock", "projects", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("{\"path\": \"%s\", \"git-config\": \"%s\"}", project,
                                           writable ? "writable" : "read-only");

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_file (path, text);
}

/* `git config core.fsmonitor` is refused under the lock, with git's word
 * on why; without the lock, or with the project's opt-in, it is set. */
static void
test_git_config (void)
{
  g_autofree char *config = g_build_filename (project, ".git", "config", NULL);
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;
  const char *script = "git config core.fsmonitor 'echo planted' && git config core.fsmonitor";

  g_assert_true (g_file_get_contents (config, &before, NULL, NULL));
  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "could not write config file .git/config: Device or resource busy"));
    g_assert_true (g_file_get_contents (config, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, before);
    g_clear_pointer (&text, g_free);
  }
  {
    g_autoptr(TestResult) result = run (FALSE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "echo planted\n");
  }
  {
    g_autoptr(TestResult) result = run (FALSE, "git config --unset core.fsmonitor");

    g_assert_cmpint (result->status, ==, 0);
  }

  set_git_config_writable (TRUE);
  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "echo planted\n");
  }
  {
    g_autoptr(TestResult) result = run (TRUE, "git config --unset core.fsmonitor");

    g_assert_cmpint (result->status, ==, 0);
  }
  set_git_config_writable (FALSE);
  g_assert_true (g_file_get_contents (config, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, before);
}

/* With extensions.worktreeConfig, a worktree's own config.worktree is
 * read-only too. */
static void
test_git_worktree_config (void)
{
  g_autofree char *worktree_config = g_build_filename (project, ".git", "config.worktree", NULL);
  const char *script = "git config --worktree core.fsmonitor 'echo planted' && git config core.fsmonitor";

  {
    g_autoptr(TestResult) result = run (FALSE, "git config extensions.worktreeConfig true");

    g_assert_cmpint (result->status, ==, 0);
  }
  write_file (worktree_config, "");
  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "could not write config file .git/config.worktree"));
  }
  {
    g_autoptr(TestResult) result = run (FALSE, script);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "echo planted\n");
  }
  {
    g_autoptr(TestResult) result = run (FALSE, "git config --unset extensions.worktreeConfig");

    g_assert_cmpint (result->status, ==, 0);
  }
  g_assert_cmpint (g_unlink (worktree_config), ==, 0);
}

/* .git cannot be renamed away under the lock and made again with a
 * config of the agent's; without the lock it can. */
static void
test_git_folder_renamed (void)
{
  const char *script = "mv .git .git-moved && mv .git-moved .git";

  {
    g_autoptr(TestResult) result = run (TRUE, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "busy"));
  }
  {
    g_autoptr(TestResult) result = run (FALSE, script);

    g_assert_cmpint (result->status, ==, 0);
  }
}

/* A linked worktree's .git file names its repository: under the lock it
 * cannot be pointed at one of the agent's. Committing there needs the
 * main repository, outside the project: read-only, as before. */
static void
test_git_worktree (void)
{
  const char *script = "echo 'gitdir: /elsewhere' > .git";
  /* Under Landlock the main repository is readable only where granted. */
  g_autofree char *grant = g_strdup_printf ("--grant=%s:ro", project);

  {
    g_autoptr(TestResult) result = run_in (worktree, TRUE, grant, script);

    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "Read-only file system"));
  }
  {
    g_autoptr(TestResult) result = run_in (worktree, TRUE, grant, "git status --short && echo read");

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "read\n");
  }
}

/* A project without .git has nothing to keep, and locks as any other. */
static void
test_no_git (void)
{
  g_autofree char *plain = g_build_filename (base, "plain", NULL);
  g_autoptr(TestResult) result = NULL;

  g_assert_cmpint (g_mkdir_with_parents (plain, 0755), ==, 0);
  result = run_in (plain, TRUE, NULL, "mkdir -p .git/hooks && echo made > .git/hooks/x && cat .git/hooks/x");
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->out, ==, "made\n");
}

/* --lock-status says what keeps the caches and git's files. */
static void
test_status (void)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) result = test_run_full ((const char *[]) { paddock_run, "--lock-status", project_arg,
                                                                   backend_arg, NULL }, &options);
  g_autoptr(TestResult) writable = NULL;

  g_assert_cmpint (result->status, ==, 0);
  if (no_layers == NULL)
    g_assert_nonnull (strstr (result->out, "\ntool-caches: copy-on-write ("));
  else
    g_assert_nonnull (strstr (result->out, "\ntool-caches: read-only ("));
  g_assert_nonnull (strstr (result->out, "\ngit-hooks: read-only ("));
  g_assert_nonnull (strstr (result->out, "\ngit-config: read-only ("));

  set_git_config_writable (TRUE);
  writable = test_run_full ((const char *[]) { paddock_run, "--lock-status", project_arg, backend_arg, NULL },
                            &options);
  set_git_config_writable (FALSE);
  g_assert_nonnull (strstr (writable->out, "\ngit-config: writable ("));
}

static void
add (const char *name,
     GTestFunc   func)
{
  g_autofree char *path = g_strdup_printf ("/paddock/lock-later/%s/%s", backend, name);

  g_test_add_func (path, func);
}

static void
run_unlocked_here (const char *dir,
                   const char *command)
{
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env, .cwd = dir, .timeout = 120 };
  g_autoptr(TestResult) result = test_run_full ((const char *[]) { "sh", "-c", command, NULL }, &options);

  g_assert_cmpint (result->status, ==, 0);
}

static void
make_tree (void)
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *template = g_build_filename (build_dir != NULL ? build_dir : ".", "paddock-later-XXXXXX", NULL);
  g_autofree char *dep = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  /* Not under /tmp: the lock makes its own /tmp. */
  base = g_mkdtemp (g_steal_pointer (&template));
  g_assert_nonnull (base);
  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  worktree = g_build_filename (base, "worktree", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  config_home = g_build_filename (home, ".config", NULL);
  state_home = g_build_filename (home, ".local", "state", NULL);
  cache_home = g_build_filename (home, ".cache", NULL);
  dep = g_build_filename (base, "dep", NULL);
  for (const char **dir = (const char *[]) { project, config_home, state_home, cache_home, dep, NULL }; *dir; dir++)
    g_assert_cmpint (g_mkdir_with_parents (*dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (runtime_dir, 0700), ==, 0);

  /* The project: a repository with one commit and a linked worktree. */
  path = g_build_filename (project, "README", NULL);
  write_file (path, "a project\n");
  g_clear_pointer (&path, g_free);
  run_unlocked_here (project, "git init -q . && git add README && git commit -q -m first && "
                              "git worktree add -q ../worktree");

  /* The real npm cache, filled offline from a package made here; the
   * project depends on that package's tarball. */
  npm = g_find_program_in_path ("npm");
  if (npm == NULL)
    return;
  path = g_build_filename (dep, "package.json", NULL);
  write_file (path, "{\"name\": \"paddock-test-dep\", \"version\": \"1.0.0\", \"main\": \"index.js\"}\n");
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dep, "index.js", NULL);
  write_file (path, "module.exports = 42;\n");
  g_clear_pointer (&path, g_free);
  path = g_build_filename (project, "package.json", NULL);
  write_file (path, "{\"name\": \"paddock-test-project\", \"version\": \"1.0.0\", "
                    "\"dependencies\": {\"paddock-test-dep\": \"file:vendor/paddock-test-dep-1.0.0.tgz\"}}\n");
  g_clear_pointer (&path, g_free);
  text = g_strdup_printf ("npm pack --offline >/dev/null && mkdir -p '%s/vendor' && "
                          "cp paddock-test-dep-1.0.0.tgz '%s/vendor/' && "
                          "npm cache add --offline ./paddock-test-dep-1.0.0.tgz >/dev/null", project, project);
  run_unlocked_here (dep, text);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *backend_arg = NULL;
  g_autoptr(TestResult) status = NULL;
  g_auto(GStrv) env = NULL;
  int result;

  backend = test_lock_init (&argc, &argv);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return g_test_run ();
    }
  make_tree ();
  backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  env = child_env ();
  status = test_run_full ((const char *[]) { paddock_run, "--lock-status", backend_arg, NULL },
                          &(TestRunOptions) { .quiet = TRUE, .env = (const char * const *) env });
  if (strstr (status->out, "mechanism: none") != NULL)
    {
      g_autofree char *why = g_strdup_printf ("no %s lock here: %s", backend, status->out);

      test_remove_tree (base);
      g_test_skip (why);
      return g_test_run ();
    }
  /* Where overlayfs refuses the layers' file system (an overlay itself, in
   * a container), the caches stay read-only and git's files are kept all
   * the same. */
  if (strstr (status->out, "tool-caches: copy-on-write") == NULL)
    no_layers = g_strdup_printf ("no overlay for the tool caches here: %s", status->out);

  add ("cache-write", test_cache_write);
  add ("npm-offline", test_npm_offline);
  add ("git-hook", test_git_hook);
  add ("git-commit", test_git_commit);
  add ("git-config", test_git_config);
  add ("git-worktree-config", test_git_worktree_config);
  add ("git-folder-renamed", test_git_folder_renamed);
  add ("git-worktree", test_git_worktree);
  add ("no-git", test_no_git);
  add ("status", test_status);

  result = g_test_run ();
  if (result == 0)
    test_remove_tree (base);
  g_free (npm);
  g_free (no_layers);
  return result;
}
