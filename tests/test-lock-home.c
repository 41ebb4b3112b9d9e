/* test-lock-home.c: what real agents need of the lock: a listable home, their profiles, a word on /tmp
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case runs through paddock-run twice, without the lock and under it
 * (on the backend --backend= names), on stand-ins for the agents: shell
 * scripts named as they are, which print what they were given. What the
 * lock refuses is shown allowed without it.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *paddock_run;
static const char *backend = "landlock";
static char *base, *home, *project, *bindir, *runtime_dir, *config_home, *state_home, *cache_home;

static void
write_file (const char *path,
            const char *text,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (path, mode), ==, 0);
}

static char **
child_env (void)
{
  char **env = g_get_environ ();
  g_autofree char *path = g_strdup_printf ("%s:/usr/local/bin:/usr/bin:/bin", bindir);

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  env = g_environ_unsetenv (env, "XDG_DATA_HOME");
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_setenv (env, "PATH", path, TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  /* As a user who turned Gemini CLI's sandbox on would have it. */
  env = g_environ_setenv (env, "GEMINI_SANDBOX", "true", TRUE);
  return env;
}

/* paddock-run [--lock --lock-backend=B] EXTRA… -- COMMAND… */
static TestResult *
run (gboolean            locked,
     const char * const *extra,
     const char * const *command)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_autofree char *grant_arg = g_strdup_printf ("--grant=%s:ro", bindir);
  TestRunOptions options = { .env = (const char * const *) env };

  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, project_arg);
  g_ptr_array_add (argv, locked ? "--lock" : "--no-lock");
  if (locked)
    {
      g_ptr_array_add (argv, backend_arg);
      g_ptr_array_add (argv, grant_arg);
    }
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) extra[i]);
  g_ptr_array_add (argv, "--");
  for (guint i = 0; command[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) command[i]);
  g_ptr_array_add (argv, NULL);
  return test_run_full ((const char * const *) argv->pdata, &options);
}

static TestResult *
run_script (gboolean    locked,
            const char *script)
{
  return run (locked, NULL, (const char *[]) { "sh", "-c", script, NULL });
}

/* `ls ~` lists the home folder on both backends, its glob expands, while the
 * denied folders in it stay empty and their keys unread. */
static void
test_home_listing (void)
{
  const char *script = "ls -a \"$HOME\"; echo \"glob:\" ~/*; echo ssh:; ls -a \"$HOME/.ssh\"; "
                       "cat \"$HOME/.ssh/id_ed25519\"; true";

  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) result = run_script (locked, script);
      g_autofree char *glob = g_strdup_printf ("glob: %s/notes.txt", home);
      const char *ssh = strstr (result->out, "ssh:\n");

      g_assert_cmpint (result->status, ==, 0);
      /* The home folder is listed, the denied folder's name shows in it. */
      g_assert_nonnull (strstr (result->out, "\n.ssh\n"));
      g_assert_nonnull (strstr (result->out, "\nnotes.txt\n"));
      g_assert_nonnull (strstr (result->out, glob));
      g_assert_nonnull (ssh);
      if (locked)
        {
          g_assert_null (strstr (ssh, "id_ed25519"));
          g_assert_null (strstr (result->out, "PRIVATE-KEY-MATERIAL"));
          g_assert_nonnull (strstr (result->err, ".ssh"));
        }
      else
        {
          g_assert_nonnull (strstr (ssh, "id_ed25519"));
          g_assert_nonnull (strstr (result->out, "PRIVATE-KEY-MATERIAL"));
        }
    }
}

/* Runs paddock-run @args as nobody in a user namespace where no further
 * user namespace can be made: Landlock's mount namespace cannot be made
 * then. */
static TestResult *
run_without_user_namespaces (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) env = child_env ();

  g_ptr_array_add (argv, (char *) paddock_run);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  return test_run_without_user_namespaces ((const char * const *) argv->pdata, (const char * const *) env,
                                           project, base);
}

/* Where Landlock's mount namespace cannot be made, the denied folders
 * cannot be emptied: keeping their names hidden wins, the home folder is
 * not listed (as it is without the lock), and --lock-status says so. */
static void
test_home_listing_given_up (void)
{
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *grant_arg = g_strdup_printf ("--grant=%s:ro", bindir);
  g_autoptr(TestResult) unlocked = NULL;
  g_autoptr(TestResult) locked = NULL;
  g_autoptr(TestResult) status = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("mapping a range of users into a user namespace needs root");
      return;
    }
  if (strcmp (backend, "landlock") != 0)
    {
      g_test_skip ("the namespaces backend does not start without user namespaces (lock-namespaces shows it)");
      return;
    }
  unlocked = run_without_user_namespaces ((const char *[]) { project_arg, "--no-lock", "--no-monitor", "--",
                                                             "ls", "-a", home, NULL });
  if (unlocked->status != 0)
    {
      g_test_skip ("another user cannot list the test's home folder here");
      return;
    }
  g_assert_nonnull (strstr (unlocked->out, "\nnotes.txt\n"));

  locked = run_without_user_namespaces ((const char *[]) { project_arg, "--lock", "--lock-backend=landlock",
                                                           "--no-monitor", grant_arg, "--", "ls", "-a", home, NULL });
  g_assert_cmpint (locked->status, !=, 0);
  g_assert_null (strstr (locked->out, "notes.txt"));
  g_assert_nonnull (strstr (locked->err, "Permission denied"));

  status = run_without_user_namespaces ((const char *[]) { "--lock-status", "--lock-backend=landlock", NULL });
  g_assert_cmpint (status->status, ==, 0);
  g_assert_nonnull (strstr (status->out, "\nhome-listing: no (cannot "));
  g_assert_nonnull (strstr (status->out, "keeping those hidden wins)\n"));
}

/* --lock-status says whether the home folder can be listed. */
static void
test_home_listing_status (void)
{
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_auto(GStrv) env = child_env ();
  g_autoptr(TestResult) result = test_run_full ((const char *[]) { paddock_run, "--lock-status", backend_arg, NULL },
                                                &(TestRunOptions) { .env = (const char * const *) env });

  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, "\nhome-listing: yes ("));
}

/* Codex is started with its own sandbox off and its approvals as given;
 * without the lock, as given. Another command under its profile is not
 * given its arguments. */
static void
test_codex_arguments (void)
{
  g_autofree char *audit = g_build_filename (base, "codex-audit.jsonl", NULL);
  g_autofree char *audit_arg = g_strdup_printf ("--audit=%s", audit);
  g_autofree char *record = NULL;

  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) codex = run (locked, (const char *[]) { audit_arg, NULL },
                                         (const char *[]) { "codex", "--ask-for-approval", "untrusted", "exec", "hi",
                                                            NULL });
      g_autoptr(TestResult) other = run (locked, locked ? (const char *[]) { "--profile=codex", NULL } : NULL,
                                         (const char *[]) { "not-codex", "exec", NULL });

      g_assert_cmpint (codex->status, ==, 0);
      g_assert_cmpint (other->status, ==, 0);
      if (locked)
        g_assert_cmpstr (codex->out, ==, "arg: -c\narg: sandbox_mode=\"danger-full-access\"\n"
                                         "arg: --ask-for-approval\narg: untrusted\narg: exec\narg: hi\n");
      else
        g_assert_cmpstr (codex->out, ==, "arg: --ask-for-approval\narg: untrusted\narg: exec\narg: hi\n");
      g_assert_cmpstr (other->out, ==, "arg: exec\n");
    }
  /* The log says which profile the lock was built from, and what ran. */
  g_assert_true (g_file_get_contents (audit, &record, NULL, NULL));
  g_assert_nonnull (strstr (record, "\"command\":[\"codex\",\"-c\",\"sandbox_mode=\\\"danger-full-access\\\"\""));
  g_assert_nonnull (strstr (record, "\"profile\":\"codex\""));
}

/* Gemini CLI's sandbox is off under the lock, whatever the user's
 * environment says: the variable outranks its flags and settings. */
static void
test_gemini_environment (void)
{
  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) result = run (locked, NULL, (const char *[]) { "gemini", NULL });

      g_assert_cmpint (result->status, ==, 0);
      g_assert_cmpstr (result->out, ==, locked ? "GEMINI_SANDBOX=false\n" : "GEMINI_SANDBOX=true\n");
    }
}

/* On a fresh home, ~/.claude.json is made before the lock and Claude Code
 * can write it in place; a new file beside it (its atomic write's
 * temporary) stays refused, as the rest of $HOME is read-only. */
static void
test_claude_json (void)
{
  g_autofree char *config = g_build_filename (home, ".claude.json", NULL);
  g_autofree char *tmp = g_build_filename (home, ".claude.json.tmp.1.x", NULL);

  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) result = NULL;
      g_autofree char *text = NULL;

      g_unlink (config);
      g_unlink (tmp);
      result = run (locked, NULL, (const char *[]) { "claude", NULL });
      g_assert_cmpint (result->status, ==, 0);
      if (locked)
        {
          g_assert_nonnull (strstr (result->out, "found: {}\n"));
          g_assert_nonnull (strstr (result->out, "temporary: refused\n"));
          g_assert_nonnull (strstr (result->out, "in place: written\n"));
          g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
          g_assert_true (g_file_get_contents (config, &text, NULL, NULL));
          g_assert_cmpstr (text, ==, "{\"numStartups\":1}");
        }
      else
        {
          /* Nothing is made without the lock: the agent makes its own. */
          g_assert_nonnull (strstr (result->out, "found: none\n"));
          g_assert_nonnull (strstr (result->out, "temporary: made\n"));
          g_assert_true (g_file_test (tmp, G_FILE_TEST_EXISTS));
        }
    }
}

/* The home folder under the lock is one of the agent's own, holding the
 * real one's entries: making a name in it is refused as Landlock refuses
 * it (EACCES, "Permission denied"), not by a read-only mount (EROFS),
 * which agents take for a broken disk; its mode is the agent's to change
 * and changes nothing outside; its links stay links. Without the lock all
 * of it reaches the real home folder. */
static void
test_home_folder_own (void)
{
  g_autofree char *made = g_build_filename (home, "made-here", NULL);
  const char *script = "readlink \"$HOME/.notes-link\"; cat \"$HOME/.notes-link\"; "
                       "(: > \"$HOME/made-here\") && echo 'made: yes'; "
                       "chmod 0777 \"$HOME\" && echo 'chmod: done'; true";
  struct stat before;

  g_assert_cmpint (stat (home, &before), ==, 0);
  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) result = run_script (locked, script);
      struct stat st;

      g_assert_cmpint (result->status, ==, 0);
      g_assert_true (g_str_has_prefix (result->out, ".bashrc\nnotes\n"));
      g_assert_nonnull (strstr (result->out, "chmod: done\n"));
      g_assert_cmpint (stat (home, &st), ==, 0);
      if (locked)
        {
          g_assert_cmpint (st.st_mode, ==, before.st_mode);
          g_assert_null (strstr (result->out, "made: yes"));
          g_assert_nonnull (strstr (result->err, "made-here: Permission denied"));
          g_assert_false (g_file_test (made, G_FILE_TEST_EXISTS));
        }
      else
        {
          g_assert_cmpint (st.st_mode & 07777, ==, 0777);
          g_assert_nonnull (strstr (result->out, "made: yes\n"));
          g_assert_true (g_file_test (made, G_FILE_TEST_EXISTS));
          g_assert_cmpint (chmod (home, before.st_mode & 07777), ==, 0);
          g_assert_cmpint (g_unlink (made), ==, 0);
        }
    }
}

/* An agent installed under /tmp is not in the lock's private /tmp: the
 * message says so and names the --grant that keeps it, which works. */
static void
test_private_tmp_command (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *installed = g_dir_make_tmp ("paddock-agent-XXXXXX", &error);
  g_autofree char *bin = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *grant = NULL;
  g_autofree char *hint = NULL;
  g_autofree char *real = NULL;
  g_autoptr(TestResult) unlocked = NULL;
  g_autoptr(TestResult) locked = NULL;
  g_autoptr(TestResult) granted = NULL;

  g_assert_no_error (error);
  real = realpath (installed, NULL);
  if (!g_str_has_prefix (real, "/tmp/"))
    {
      test_remove_tree (installed);
      g_test_skip ("the temporary folder is not under /tmp");
      return;
    }
  bin = g_build_filename (installed, "bin", NULL);
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  agent = g_build_filename (bin, "tmp-agent", NULL);
  write_file (agent, "#!/bin/sh\necho agent ran\n", 0755);

  unlocked = run (FALSE, NULL, (const char *[]) { agent, NULL });
  g_assert_cmpint (unlocked->status, ==, 0);
  g_assert_cmpstr (unlocked->out, ==, "agent ran\n");

  locked = run (TRUE, NULL, (const char *[]) { agent, NULL });
  g_assert_cmpint (locked->status, ==, 127);
  g_assert_cmpstr (locked->out, ==, "");
  hint = g_strdup_printf ("%s/bin/tmp-agent lies in /tmp, which is private under the folder lock "
                          "(the agent gets an empty one of its own); --grant %s keeps it visible", real, real);
  g_assert_nonnull (strstr (locked->err, hint));

  /* What the command names there is warned of before it starts; /tmp
   * itself, which the agent has, is not. */
  {
    g_autoptr(TestResult) named = run (TRUE, NULL, (const char *[]) { "ls", bin, "/tmp", NULL });
    g_autofree char *warning = g_strdup_printf ("paddock-run: warning: the agent will not see what its command "
                                                "names: %s/bin lies in /tmp, which is private under the folder "
                                                "lock", real);

    g_assert_cmpint (named->status, !=, 0);
    g_assert_nonnull (strstr (named->err, warning));
    g_assert_null (strstr (named->err, "names: /tmp lies"));
  }

  grant = g_strdup_printf ("--grant=%s", installed);
  granted = run (TRUE, (const char *[]) { grant, NULL }, (const char *[]) { agent, NULL });
  g_assert_cmpint (granted->status, ==, 0);
  g_assert_cmpstr (granted->out, ==, "agent ran\n");

  test_remove_tree (installed);
}

static void
add (const char *name,
     GTestFunc   func)
{
  g_autofree char *path = g_strdup_printf ("/paddock/lock-home/%s/%s", backend, name);

  g_test_add_func (path, func);
}

static void
make_tree (void)
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *template = g_build_filename (build_dir != NULL ? build_dir : ".", "paddock-home-XXXXXX", NULL);
  g_autofree char *path = NULL;

  /* Not under /tmp: the lock makes its own /tmp, and the home must be the host's. */
  base = g_mkdtemp (g_steal_pointer (&template));
  g_assert_nonnull (base);
  /* Open to the other user home-listing-given-up runs as. */
  g_assert_cmpint (chmod (base, 0755), ==, 0);
  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  bindir = g_build_filename (base, "bin", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  config_home = g_build_filename (home, ".config", NULL);
  state_home = g_build_filename (home, ".local", "state", NULL);
  cache_home = g_build_filename (home, ".cache", NULL);
  for (const char **dir = (const char *[]) { project, bindir, config_home, state_home, cache_home, NULL }; *dir; dir++)
    g_assert_cmpint (g_mkdir_with_parents (*dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (runtime_dir, 0755), ==, 0);
  path = g_build_filename (home, ".ssh", NULL);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, ".ssh", "id_ed25519", NULL);
  write_file (path, "-----BEGIN OPENSSH PRIVATE KEY-----\nPRIVATE-KEY-MATERIAL\n", 0600);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, "notes.txt", NULL);
  write_file (path, "notes\n", 0644);
  g_clear_pointer (&path, g_free);

  /* The stand-ins: each prints what it was given. */
  path = g_build_filename (bindir, "codex", NULL);
  write_file (path, "#!/bin/sh\nfor a; do printf 'arg: %s\\n' \"$a\"; done\n", 0755);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (bindir, "not-codex", NULL);
  write_file (path, "#!/bin/sh\nfor a; do printf 'arg: %s\\n' \"$a\"; done\n", 0755);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (bindir, "gemini", NULL);
  write_file (path, "#!/bin/sh\necho \"GEMINI_SANDBOX=$GEMINI_SANDBOX\"\n", 0755);
  g_clear_pointer (&path, g_free);
  /* As Claude Code 2.1 writes its settings: a temporary beside the file,
   * and where that is refused with EACCES (only then), the file in place. */
  path = g_build_filename (bindir, "claude", NULL);
  write_file (path,
              "#!/bin/sh\n"
              "f=\"$HOME/.claude.json\"\n"
              "if [ -f \"$f\" ]; then echo \"found: $(cat \"$f\")\"; else echo 'found: none'; fi\n"
              "if why=$( (set -C; printf '{}' > \"$f.tmp.1.x\") 2>&1 ); then echo 'temporary: made'; "
              "else case $why in *'Permission denied'*) echo 'temporary: refused';; "
              "  *) echo \"temporary: failed: $why\"; exit 0;; esac; "
              "  if printf '{\"numStartups\":1}' > \"$f\"; then echo 'in place: written'; fi; fi\n",
              0755);
  g_clear_pointer (&path, g_free);
  /* A link to an entry the agent reads unasked (an open one). */
  path = g_build_filename (home, ".bashrc", NULL);
  write_file (path, "notes\n", 0644);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, ".notes-link", NULL);
  g_assert_cmpint (symlink (".bashrc", path), ==, 0);
  g_clear_pointer (&path, g_free);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *unavailable = NULL;
  int result;

  backend = test_lock_init (&argc, &argv);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return g_test_run ();
    }
  unavailable = test_lock_unavailable (paddock_run, backend, NULL);
  if (unavailable != NULL)
    {
      g_test_skip (unavailable);
      return g_test_run ();
    }
  make_tree ();

  add ("home-listing", test_home_listing);
  add ("home-listing-status", test_home_listing_status);
  add ("home-listing-given-up", test_home_listing_given_up);
  add ("codex-arguments", test_codex_arguments);
  add ("gemini-environment", test_gemini_environment);
  add ("claude-json", test_claude_json);
  add ("home-folder-own", test_home_folder_own);
  add ("private-tmp-command", test_private_tmp_command);

  result = g_test_run ();
  if (result == 0)
    test_remove_tree (base);
  return result;
}
