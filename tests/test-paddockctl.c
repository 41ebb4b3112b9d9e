/* test-paddockctl.c: paddockctl lock: saving a project's folder-lock choice, and paddock-run obeying it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each choice is checked where it matters: a paddock-run started without
 * --lock or --no-lock afterwards, writing outside the project. The tree
 * lives under the build folder, not /tmp, which the lock grants.
 * Also the command line's own bad input: unknown commands, bad options,
 * a log that cannot be read.
 */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paddock-audit.h"
#include "paddock-project-config.h"
#include "paddock-project-net.h"
#include "test-util.h"

static const char *paddock_run;
static char *paddockctl;
static char *base, *home, *project, *link_to_project, *outside, *config_home, *state_home, *runtime_dir;

static char **
child_env (void)
{
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  return env;
}

/* Runs @argv in @cwd (NULL: here) in the test's folders. */
static TestResult *
run_in (const char         *cwd,
        const char * const *argv)
{
  g_auto(GStrv) env = child_env ();

  return test_run_full (argv, &(TestRunOptions) { .cwd = cwd, .env = (const char * const *) env });
}

static TestResult *
paddockctl_lock (const char *cwd,
                 const char *verb,
                 const char *dir)
{
  const char *argv[] = { paddockctl, "lock", verb, dir, NULL };

  return run_in (cwd, argv);
}

/* paddock-run in the project, with @flag (NULL: neither --lock nor --no-lock),
 * writing @name outside the project; returns whether the file appeared. */
static gboolean
write_outside (const char *flag,
               const char *name)
{
  g_autofree char *target = g_build_filename (outside, name, NULL);
  g_autofree char *script = g_strdup_printf ("echo escaped > '%s'", target);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(TestResult) result = NULL;
  gboolean appeared;

  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, "--project");
  g_ptr_array_add (argv, project);
  if (flag != NULL)
    g_ptr_array_add (argv, (char *) flag);
  g_ptr_array_add (argv, "--");
  g_ptr_array_add (argv, "sh");
  g_ptr_array_add (argv, "-c");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, NULL);
  result = run_in (NULL, (const char * const *) argv->pdata);

  appeared = g_file_test (target, G_FILE_TEST_EXISTS);
  /* The shell's status agrees with what the file says. */
  if (appeared)
    g_assert_cmpint (result->status, ==, 0);
  else
    g_assert_cmpint (result->status, !=, 0);
  g_unlink (target);
  return appeared;
}

static char *
settings_path (void)
{
  return paddock_project_config_path (project);
}

static void
remove_settings (void)
{
  g_autofree char *path = settings_path ();

  g_unlink (path);
}

/* Saved choice: 1 on, 0 off, -1 none. */
static int
saved_choice (void)
{
  PaddockProjectConfig config = { 0 };
  g_autoptr(GError) error = NULL;
  int choice;

  g_assert_true (paddock_project_config_load (project, &config, &error));
  g_assert_no_error (error);
  choice = config.has_lock ? config.lock : -1;
  paddock_project_config_clear (&config);
  return choice;
}

static void
test_on_and_off (void)
{
  g_autoptr(TestResult) on = NULL;
  g_autoptr(TestResult) again = NULL;
  g_autoptr(TestResult) off = NULL;
  g_autofree char *path = settings_path ();

  remove_settings ();
  g_assert_cmpint (saved_choice (), ==, -1);

  /* Nothing saved: paddock-run's default is unlocked. */
  g_assert_true (write_outside (NULL, "before"));

  /* Through a symlink: the choice is saved under the folder's canonical path. */
  on = paddockctl_lock (NULL, "on", link_to_project);
  g_assert_cmpint (on->status, ==, 0);
  g_assert_cmpstr (on->err, ==, "");
  g_assert_nonnull (strstr (on->out, project));
  g_assert_nonnull (strstr (on->out, "is now on (it was off)"));
  g_assert_nonnull (strstr (on->out, "sessions started from now on"));
  g_assert_nonnull (strstr (on->out, "cannot be added while it runs"));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (saved_choice (), ==, 1);

  /* paddock-run with neither flag runs locked now; --no-lock still overrides. */
  g_assert_false (write_outside (NULL, "saved-on"));
  g_assert_true (write_outside ("--no-lock", "saved-on-no-lock"));

  again = paddockctl_lock (NULL, "on", project);
  g_assert_cmpint (again->status, ==, 0);
  g_assert_nonnull (strstr (again->out, "stays on"));

  off = paddockctl_lock (NULL, "off", project);
  g_assert_cmpint (off->status, ==, 0);
  g_assert_nonnull (strstr (off->out, "is now off (it was on)"));
  g_assert_nonnull (strstr (off->out, "cannot be lifted while it runs"));
  g_assert_cmpint (saved_choice (), ==, 0);

  g_assert_true (write_outside (NULL, "saved-off"));
  g_assert_false (write_outside ("--lock", "saved-off-lock"));
  remove_settings ();
}

/* lock git-config on|off saves the project's "git-config" setting, keeps
 * its lock choice, and refuses a word it does not know. */
static void
test_git_config (void)
{
  PaddockProjectConfig config = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TestResult) lock = NULL;
  g_autoptr(TestResult) on = NULL;
  g_autoptr(TestResult) off = NULL;
  g_autoptr(TestResult) bad = NULL;

  remove_settings ();
  lock = paddockctl_lock (NULL, "on", project);
  g_assert_cmpint (lock->status, ==, 0);
  on = run_in (NULL, (const char *[]) { paddockctl, "lock", "git-config", "on", project, NULL });
  g_assert_cmpint (on->status, ==, 0);
  g_assert_nonnull (strstr (on->out, "now writable by the agent"));
  g_assert_true (paddock_project_config_load (project, &config, &error));
  g_assert_no_error (error);
  g_assert_true (config.git_config_writable);
  g_assert_true (config.has_lock && config.lock);
  paddock_project_config_clear (&config);

  off = run_in (NULL, (const char *[]) { paddockctl, "lock", "git-config", "off", project, NULL });
  g_assert_cmpint (off->status, ==, 0);
  g_assert_nonnull (strstr (off->out, "now read-only"));
  g_assert_true (paddock_project_config_load (project, &config, &error));
  g_assert_false (config.git_config_writable);
  paddock_project_config_clear (&config);

  bad = run_in (NULL, (const char *[]) { paddockctl, "lock", "git-config", "maybe", project, NULL });
  g_assert_cmpint (bad->status, ==, 2);
  g_assert_nonnull (strstr (bad->err, "git-config takes on or off"));
  remove_settings ();
}

static void
test_default_dir_is_cwd (void)
{
  g_autoptr(TestResult) on = NULL;

  remove_settings ();
  /* From inside the project, through the symlink: still the canonical folder. */
  on = paddockctl_lock (link_to_project, "on", NULL);
  g_assert_cmpint (on->status, ==, 0);
  g_assert_nonnull (strstr (on->out, project));
  g_assert_cmpint (saved_choice (), ==, 1);
  g_assert_false (write_outside (NULL, "cwd-on"));
  remove_settings ();
}

static void
test_status (void)
{
  const char *lock_status_argv[] = { paddock_run, "--lock-status", NULL };
  g_autoptr(TestResult) kernel = run_in (NULL, lock_status_argv);
  g_autoptr(TestResult) none = NULL;
  g_autoptr(TestResult) on = NULL;
  g_autoptr(TestResult) status_on = NULL;
  g_autofree char *expect_none = NULL;
  g_autofree char *expect_on = NULL;

  g_assert_cmpint (kernel->status, ==, 0);
  g_assert_true (g_str_has_prefix (kernel->out, "mechanism: "));
  g_assert_nonnull (strstr (kernel->out, "\nlandlock-abi: "));

  remove_settings ();
  none = paddockctl_lock (project, "status", NULL);
  g_assert_cmpint (none->status, ==, 0);
  /* The saved choice, then the kernel's facts in paddock-run's own words. */
  expect_none = g_strdup_printf ("project: %s\nlock: off (nothing saved: the default)\n%s", project, kernel->out);
  g_assert_cmpstr (none->out, ==, expect_none);

  on = paddockctl_lock (NULL, "on", project);
  g_assert_cmpint (on->status, ==, 0);
  status_on = paddockctl_lock (NULL, "status", link_to_project);
  g_assert_cmpint (status_on->status, ==, 0);
  expect_on = g_strdup_printf ("project: %s\nlock: on (saved)\n%s", project, kernel->out);
  g_assert_cmpstr (status_on->out, ==, expect_on);
  remove_settings ();
}

static void
assert_usage_error (TestResult *result,
                    const char *needle)
{
  g_assert_cmpint (result->status, ==, 2);
  g_assert_cmpstr (result->out, ==, "");
  g_assert_nonnull (strstr (result->err, needle));
}

static void
test_bad_input (void)
{
  g_autofree char *missing = g_build_filename (base, "no-such-project", NULL);
  g_autofree char *file = g_build_filename (base, "a-file", NULL);
  g_autofree char *path = settings_path ();
  g_autoptr(GError) error = NULL;

  remove_settings ();
  g_file_set_contents (file, "not a folder\n", -1, &error);
  g_assert_no_error (error);

  {
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "on", missing);
    g_autofree char *line = g_strdup_printf ("paddockctl: the project \"%s\": %s\n", missing, g_strerror (ENOENT));

    /* One line naming the folder and the reason. */
    g_assert_cmpint (result->status, ==, 2);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_cmpstr (result->err, ==, line);
  }
  {
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "status", file);
    g_autofree char *line = g_strdup_printf ("paddockctl: the project \"%s\": %s\n", file, g_strerror (ENOTDIR));

    g_assert_cmpint (result->status, ==, 2);
    g_assert_cmpstr (result->err, ==, line);
  }
  {
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "maybe", project);
    assert_usage_error (result, "lock takes on, off or status");
  }
  {
    /* The home folder cannot be locked to (paddock-run would refuse it):
     * nothing is saved. */
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "on", home);
    PaddockProjectConfig config = { 0 };

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_nonnull (strstr (result->err, "it holds your home folder"));
    g_assert_true (paddock_project_config_load (home, &config, NULL));
    g_assert_false (config.has_lock);
    paddock_project_config_clear (&config);
  }
  {
    /* Nor can a folder that holds one the lock keeps from the agent: the
     * settings folder holds Paddock's own. */
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "on", config_home);
    PaddockProjectConfig config = { 0 };

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_nonnull (strstr (result->err, "which the folder lock keeps from the agent"));
    g_assert_true (paddock_project_config_load (config_home, &config, NULL));
    g_assert_false (config.has_lock);
    paddock_project_config_clear (&config);
  }
  {
    const char *argv[] = { paddockctl, "lock", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "Usage:");
  }
  {
    const char *argv[] = { paddockctl, "lock", "on", project, project, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "at most one DIR");
  }

  /* Nothing was saved by any of them. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_unlink (file);
}

static void
test_command_line_errors (void)
{
  g_autofree char *missing = g_build_filename (base, "no-such.jsonl", NULL);
  g_autofree char *empty = g_build_filename (base, "empty.jsonl", NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (empty, "", 0, &error);
  g_assert_no_error (error);

  {
    const char *argv[] = { paddockctl, "bogus", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: unknown command \"bogus\"\n");
  }
  {
    const char *argv[] = { paddockctl, "audit", "bogus", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: unknown command \"audit bogus\"\n");
  }
  {
    const char *argv[] = { paddockctl, "--version", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, "paddockctl " PACKAGE_VERSION "\n");
  }
  {
    const char *argv[] = { paddockctl, "audit", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: audit needs a command: verify, show or export\n");
  }
  {
    const char *argv[] = { paddockctl, "audit", "show", empty, "--decision", "maybe", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: --decision: \"maybe\" is not allow, deny or ask\n");
  }
  {
    /* A log that cannot be read: its error alone, no table header. */
    const char *argv[] = { paddockctl, "audit", "show", missing, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_nonnull (strstr (result->err, missing));
  }
  {
    /* Nothing selected: the header alone. */
    const char *argv[] = { paddockctl, "audit", "show", empty, "--grep", "anything", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_true (g_str_has_prefix (result->out, "TIME "));
    g_assert_cmpint (strchr (result->out, '\n') - result->out + 1, ==, strlen (result->out));
  }
  {
    /* An empty log verifies nothing: it is what deleting every record leaves. */
    const char *argv[] = { paddockctl, "audit", "verify", empty, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->out, "no records, so nothing to verify"));
  }
  {
    /* An empty folder name is a mistake, not "": No such file or directory. */
    const char *argv[] = { paddockctl, "lock", "on", "", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: lock: DIR names no folder\n");
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--project", "", "--", "ls", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    assert_usage_error (result, "paddockctl: --project names no folder\n");
  }
  g_unlink (empty);
}

static TestResult *
paddockctl_net (const char *verb,
                const char *host,
                const char *dir)
{
  const char *argv[] = { paddockctl, "net", verb, host != NULL ? host : dir, host != NULL ? dir : NULL, NULL };

  return run_in (NULL, argv);
}

/* `net on`, `allow`, `deny`, `remove` and `list` keep a project's network
 * choice and hosts in its settings, beside the folder lock's, and list
 * them back; a host moves from one list to the other, never in both. */
static void
test_net_round_trip (void)
{
  g_autofree char *real = realpath (project, NULL);
  g_autofree char *expect = NULL;
  PaddockProjectNet net = { 0 };
  PaddockProjectConfig config = { 0 };

  remove_settings ();
  {
    g_autoptr(TestResult) result = paddockctl_net ("list", NULL, project);

    g_assert_cmpint (result->status, ==, 0);
    expect = g_strdup_printf ("project: %s\nnetwork: open (nothing saved: the default)\n", real);
    g_assert_cmpstr (result->out, ==, expect);
    g_clear_pointer (&expect, g_free);
  }
  {
    g_autoptr(TestResult) lock = paddockctl_lock (NULL, "on", project);
    g_autoptr(TestResult) on = paddockctl_net ("on", NULL, project);
    g_autoptr(TestResult) allow = paddockctl_net ("allow", "API.example.org:443", project);
    g_autoptr(TestResult) allow_all = paddockctl_net ("allow", "*.registry.example", project);
    g_autoptr(TestResult) deny = paddockctl_net ("deny", "upload.example.net", project);

    g_assert_cmpint (lock->status, ==, 0);
    g_assert_cmpint (on->status, ==, 0);
    g_assert_nonnull (strstr (on->out, "is now on (it was off)"));
    g_assert_cmpint (allow->status, ==, 0);
    g_assert_cmpint (allow_all->status, ==, 0);
    g_assert_cmpint (deny->status, ==, 0);
  }
  g_assert_true (paddock_project_net_load (real, &net, NULL));
  g_assert_true (net.has_network && net.locked);
  g_assert_cmpuint (g_strv_length (net.allow), ==, 2);
  g_assert_cmpstr (net.allow[0], ==, "api.example.org:443");
  g_assert_cmpstr (net.deny[0], ==, "upload.example.net");
  paddock_project_net_clear (&net);
  /* The folder lock's choice is kept beside it. */
  g_assert_true (paddock_project_config_load (real, &config, NULL));
  g_assert_true (config.has_lock && config.lock);
  paddock_project_config_clear (&config);

  {
    /* Denied now, so no longer allowed. */
    g_autoptr(TestResult) deny = paddockctl_net ("deny", "api.example.org:443", project);
    g_autoptr(TestResult) remove = paddockctl_net ("remove", "*.registry.example", project);
    g_autoptr(TestResult) list = paddockctl_net ("list", NULL, project);

    g_assert_cmpint (deny->status, ==, 0);
    g_assert_cmpint (remove->status, ==, 0);
    g_assert_cmpint (list->status, ==, 0);
    expect = g_strdup_printf ("project: %s\nnetwork: locked (saved)\n"
                              "deny: upload.example.net\ndeny: api.example.org:443\n", real);
    g_assert_cmpstr (list->out, ==, expect);
    g_clear_pointer (&expect, g_free);
  }
  {
    g_autoptr(TestResult) off = paddockctl_net ("off", NULL, project);
    g_autoptr(TestResult) list = paddockctl_net ("list", NULL, project);

    g_assert_cmpint (off->status, ==, 0);
    g_assert_nonnull (strstr (list->out, "network: open (saved)\n"));
  }
  {
    /* Not a host name: nothing saved, a usage error. */
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;
    g_autofree char *path = paddock_project_config_path (real);
    g_autoptr(TestResult) bad = paddockctl_net ("allow", "exa mple/evil", project);

    g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
    assert_usage_error (bad, "is not a host name");
    g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
    g_assert_cmpstr (before, ==, after);
  }
  {
    const char *argv[] = { paddockctl, "net", "allow", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    assert_usage_error (result, "take a HOST");
  }
  remove_settings ();
}

/* The usage on a mistake and `paddockctl --help` are made from the one
 * table of commands: both list every command, and the help says what
 * each does. */
static void
test_usage_lists_every_command (void)
{
  const char *commands[] = {
    "list", "attach SESSION", "kill SESSION", "pause SESSION", "resume SESSION", "policy check FILE",
    "policy explain", "policy project", "policy forget", "audit verify LOG", "audit show LOG",
    "audit export LOG", "lock on|off|status", "lock git-config", "net on|off|list", "net allow|deny|remove HOST",
    "secret add NAME", "secret list", "secret remove NAME", "secret pin NAME PROGRAM",
    "secret unpin NAME PROGRAM", "secret mode NAME", "--version",
  };
  const char *usage_argv[] = { paddockctl, NULL };
  const char *help_argv[] = { paddockctl, "--help", NULL };
  g_autoptr(TestResult) usage = run_in (NULL, usage_argv);
  g_autoptr(TestResult) help = run_in (NULL, help_argv);

  g_assert_cmpint (usage->status, ==, 2);
  g_assert_cmpint (help->status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  paddockctl %s", commands[i]);

      g_assert_nonnull (strstr (usage->err, line));
      g_assert_nonnull (strstr (help->out, line));
    }
  /* The help says what each command does; the short usage does not. */
  g_assert_nonnull (strstr (help->out, "network lock on or off"));
  g_assert_null (strstr (usage->err, "network lock on or off"));
  /* The notes on the names the usage uses. */
  g_assert_nonnull (strstr (help->out, "\nHOST is a host name"));
  g_assert_nonnull (strstr (usage->err, "\nSESSION is a session id"));
}

/* Every command's --help (or -h) prints that command's usage, named as
 * it is typed, and exits 0; after "--", -h is the explained command's. */
static void
test_command_help (void)
{
  const char *commands[][2] = {
    { "list", NULL }, { "attach", NULL }, { "kill", NULL }, { "pause", NULL }, { "resume", NULL },
    { "lock", NULL }, { "net", NULL }, { "policy", "check" }, { "policy", "explain" },
    { "policy", "project" }, { "policy", "forget" }, { "secret", "add" }, { "secret", "mode" },
    { "audit", "verify" }, { "audit", "show" }, { "audit", "export" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    for (guint h = 0; h < 2; h++)
      {
        const char *flag = h == 0 ? "--help" : "-h";
        const char *argv[] = { paddockctl, commands[i][0], commands[i][1] != NULL ? commands[i][1] : flag,
                               commands[i][1] != NULL ? flag : NULL, NULL };
        g_autoptr(TestResult) result = run_in (NULL, argv);
        g_autofree char *words = g_strjoin (" ", commands[i][0], commands[i][1], NULL);
        g_autofree char *head = g_strdup_printf ("Usage:\n  paddockctl %s", words);

        g_assert_cmpint (result->status, ==, 0);
        g_assert_cmpstr (result->err, ==, "");
        g_assert_true (g_str_has_prefix (result->out, head));
      }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", "rm", "-h", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_true (g_str_has_prefix (result->out, "command: \"rm -h\"\n"));
  }
}

/* `policy project` lists the project's own rules, and `policy forget`
 * takes them out, by name or all; a name the file does not have changes
 * nothing and says which it has. */
static void
test_policy_project_and_forget (void)
{
  g_autofree char *real = realpath (project, NULL);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, real, -1);
  g_autofree char *name = g_strconcat (digest, ".json", NULL);
  g_autofree char *folder = g_build_filename (config_home, "paddock", "projects", NULL);
  g_autofree char *file = g_build_filename (folder, name, NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"project\": \"%s\", \"default\": \"ask\", \"rules\": ["
    "{\"name\": \"mine\", \"match\": {\"program\": \"make\"}, \"action\": \"allow\", \"reason\": \"builds\"},"
    "{\"name\": \"theirs\", \"match\": {\"program\": \"curl\"}, \"action\": \"deny\"}]}\n", real);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, text, -1, NULL));
  {
    const char *argv[] = { paddockctl, "policy", "project", "--project", project, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    g_autofree char *head = g_strdup_printf ("The project %s's own rules, first to last (%s):\n", real, file);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_true (g_str_has_prefix (result->out, head));
    g_assert_nonnull (strstr (result->out, "\n  mine                     allow  builds\n"
                                           "  theirs                   deny   (no reason given)\n"
                                           "Its file sets the decision where no rule matches: ask.\n"));
  }
  {
    const char *argv[] = { paddockctl, "policy", "forget", "--project", project, "mine", "bogus", NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    g_autofree char *says = g_strdup_printf ("paddockctl: the project %s has no rule \"bogus\" (its rules: mine, theirs)\n",
                                             real);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->err, ==, says);
    g_assert_true (g_file_get_contents (file, &before, NULL, NULL));
    g_assert_cmpstr (before, ==, text);
  }
  {
    const char *argv[] = { paddockctl, "policy", "forget", "mine", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, ": mine; sessions running there follow at once.\n"));
    g_assert_true (g_file_get_contents (file, &after, NULL, NULL));
    g_assert_null (strstr (after, "\"mine\""));
    g_assert_nonnull (strstr (after, "\"theirs\""));
  }
  {
    const char *argv[] = { paddockctl, "policy", "forget", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);
    assert_usage_error (result, "paddockctl: policy forget takes --all or the NAMEs of rules "
                                "(paddockctl policy project lists them)\n");
  }
  {
    const char *argv[] = { paddockctl, "policy", "forget", "--all", NULL };
    const char *list[] = { paddockctl, "policy", "project", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);
    g_autoptr(TestResult) listed = NULL;
    g_autofree char *none = g_strdup_printf ("The project %s has no rules of its own (nothing is remembered for it).\n"
                                             "Its file sets the decision where no rule matches: ask.\n", real);

    g_assert_cmpint (result->status, ==, 0);
    listed = run_in (project, list);
    g_assert_cmpstr (listed->out, ==, none);
  }
  g_unlink (file);
}

/* A LOG may be a session id, or a unique prefix of one: its log is found
 * where paddock-run writes them. A prefix of two ids, or of none, is
 * refused, named; a file of that name comes first. The prefixes are long
 * enough that no other test's session (a random id) begins with them:
 * with "ab", one in 256 did. */
static void
test_audit_log_by_session (void)
{
  g_autofree char *folder = g_build_filename (state_home, "paddock", NULL);
  g_autofree char *first = g_build_filename (folder, "session-20260101-000000-0123456789ab.jsonl", NULL);
  g_autofree char *second = g_build_filename (folder, "session-20260101-000001-01234567cdef.jsonl", NULL);
  g_autofree char *local = g_build_filename (base, "01234567cd", NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (first, "", 0, NULL));
  g_assert_true (g_file_set_contents (second, "", 0, NULL));
  {
    const char *argv[] = { paddockctl, "audit", "verify", "0123456789", NULL };
    g_autoptr(TestResult) result = run_in (base, argv);
    g_autofree char *says = g_strdup_printf ("%s: no records, so nothing to verify", first);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_true (g_str_has_prefix (result->out, says));
  }
  {
    const char *argv[] = { paddockctl, "audit", "show", "01234567", NULL };
    g_autoptr(TestResult) result = run_in (base, argv);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_nonnull (strstr (result->err, "\"01234567\" names no file here, and begins the ids of 2 session logs ("));
    g_assert_nonnull (strstr (result->err, first));
    g_assert_nonnull (strstr (result->err, second));
  }
  {
    const char *argv[] = { paddockctl, "audit", "export", "fffffffffff0", NULL };
    g_autoptr(TestResult) result = run_in (base, argv);
    g_autofree char *says = g_strdup_printf ("paddockctl: no file is named \"fffffffffff0\", and no session log in %s has an "
                                             "id that begins with it\n", folder);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->err, ==, says);
  }
  {
    /* A file here of that name is the one meant. */
    const char *argv[] = { paddockctl, "audit", "verify", "01234567cd", NULL };
    g_autoptr(TestResult) result = NULL;

    g_assert_true (g_file_set_contents (local, "", 0, NULL));
    result = run_in (base, argv);
    g_assert_cmpint (result->status, ==, 1);
    g_assert_true (g_str_has_prefix (result->out, "01234567cd: no records"));
  }
  g_unlink (local);
  g_unlink (first);
  g_unlink (second);
}

/* export writes the log's records, each as the log has it, as one JSON
 * array (written record by record: a log of millions took twelve times
 * its size in memory); a filter that keeps none gives an empty array. */
static void
test_audit_export_records (void)
{
  g_autofree char *seed = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fuzz", "corpus",
                                            "audit", "session.jsonl", NULL);
  const char *all_argv[] = { paddockctl, "audit", "export", seed, NULL };
  const char *none_argv[] = { paddockctl, "audit", "export", seed, "--grep", "no such text anywhere", NULL };
  g_autoptr(TestResult) all = run_in (NULL, all_argv);
  g_autoptr(TestResult) none = run_in (NULL, none_argv);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *records;
  guint n = 0;

  g_assert_cmpint (all->status, ==, 0);
  g_assert_cmpstr (all->err, ==, "");
  json_parser_load_from_data (parser, all->out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
  records = json_node_get_array (json_parser_get_root (parser));

  g_file_get_contents (seed, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) line_parser = json_parser_new ();

      if (*lines[i] == '\0')
        continue;
      json_parser_load_from_data (line_parser, lines[i], -1, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n, <, json_array_get_length (records));
      g_assert_true (json_node_equal (json_parser_get_root (line_parser), json_array_get_element (records, n)));
      n++;
    }
  g_assert_cmpuint (n, >, 2);
  g_assert_cmpuint (json_array_get_length (records), ==, n);

  g_assert_cmpint (none->status, ==, 0);
  g_assert_cmpstr (none->out, ==, "[]\n");
}

/* show and export print a log whose chain breaks, and say on stderr
 * where it breaks; an intact log gets no warning. A --type that no
 * record has is told which types there are. */
static void
test_audit_show_warns (void)
{
  g_autofree char *seed = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fuzz", "corpus",
                                            "audit", "session.jsonl", NULL);
  g_autofree char *intact = g_build_filename (base, "intact.jsonl", NULL);
  g_autofree char *edited = g_build_filename (base, "edited.jsonl", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  char *ls;

  g_file_get_contents (seed, &text, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (intact, text, -1, &error);
  g_assert_no_error (error);
  /* The third record's command: "ls" becomes "id". */
  ls = strstr (text, "\"argv\":[\"ls\"]");
  g_assert_nonnull (ls);
  memcpy (ls + strlen ("\"argv\":[\""), "id", 2);
  g_file_set_contents (edited, text, -1, &error);
  g_assert_no_error (error);

  for (const char **command = (const char *[]) { "show", "export", NULL }; *command; command++)
    {
      const char *intact_argv[] = { paddockctl, "audit", *command, intact, NULL };
      const char *edited_argv[] = { paddockctl, "audit", *command, edited, NULL };
      g_autoptr(TestResult) ok = run_in (NULL, intact_argv);
      g_autoptr(TestResult) warned = run_in (NULL, edited_argv);
      g_autofree char *expected = g_strdup_printf ("paddockctl: warning: %s: the chain breaks at line 3: ", edited);

      g_assert_cmpint (ok->status, ==, 0);
      g_assert_cmpstr (ok->err, ==, "");
      g_assert_cmpint (warned->status, ==, 0);
      g_assert_nonnull (strstr (warned->out, "id"));
      g_assert_true (g_str_has_prefix (warned->err, expected));
    }
  /* From a pipe, which cannot be read twice: the chain is checked on the
   * records as they are shown, and a --type no record has still gets the
   * log's types. */
  for (const char **command = (const char *[]) { "show", "export", NULL }; *command; command++)
    {
      const char *piped_argv[] = { "/bin/sh", "-c", "cat \"$2\" | \"$0\" audit \"$1\" /dev/stdin",
                                   paddockctl, *command, edited, NULL };
      const char *typo_argv[] = { "/bin/sh", "-c", "cat \"$2\" | \"$0\" audit \"$1\" /dev/stdin --type execs",
                                  paddockctl, *command, intact, NULL };
      g_autoptr(TestResult) warned = run_in (NULL, piped_argv);
      g_autoptr(TestResult) typo = run_in (NULL, typo_argv);

      g_assert_cmpint (warned->status, ==, 0);
      g_assert_nonnull (strstr (warned->out, "id"));
      g_assert_true (g_str_has_prefix (warned->err, "paddockctl: warning: /dev/stdin: the chain breaks at line 3: "));
      g_assert_cmpint (typo->status, ==, 0);
      g_assert_cmpstr (typo->err, ==, "paddockctl: no record in /dev/stdin has the type \"execs\"; "
                                      "its types are: exec, exit, session-end, session-start\n");
    }
  /* verify: exit 0 and the last hash for the intact log, 1 and the
   * line for the edited one. */
  {
    const char *intact_argv[] = { paddockctl, "audit", "verify", intact, NULL };
    const char *edited_argv[] = { paddockctl, "audit", "verify", edited, NULL };
    g_autoptr(TestResult) ok = run_in (NULL, intact_argv);
    g_autoptr(TestResult) broken = run_in (NULL, edited_argv);
    g_autofree char *holds = g_strdup_printf ("%s: ", intact);
    g_autofree char *breaks = g_strdup_printf ("%s: the chain breaks at line 3: ", edited);

    g_assert_cmpint (ok->status, ==, 0);
    g_assert_true (g_str_has_prefix (ok->out, holds));
    g_assert_nonnull (strstr (ok->out, " records, the chain holds, ends with session-end; last hash "));
    g_assert_cmpint (broken->status, ==, 1);
    g_assert_true (g_str_has_prefix (broken->out, breaks));
    g_assert_nonnull (strstr (broken->out, "(2 intact records before it)\n"));
  }
  /* A --type no record has gets the types the log does have. */
  {
    const char *typo_argv[] = { paddockctl, "audit", "show", intact, "--type", "execs", NULL };
    const char *right_argv[] = { paddockctl, "audit", "show", intact, "--type", "exec", NULL };
    g_autoptr(TestResult) typo = run_in (NULL, typo_argv);
    g_autoptr(TestResult) right = run_in (NULL, right_argv);
    g_autofree char *expected = g_strdup_printf ("paddockctl: no record in %s has the type \"execs\"; "
                                                 "its types are: exec, exit, session-end, session-start\n", intact);

    g_assert_cmpint (typo->status, ==, 0);
    g_assert_cmpstr (typo->err, ==, expected);
    g_assert_cmpint (right->status, ==, 0);
    g_assert_cmpstr (right->err, ==, "");
    g_assert_nonnull (strstr (right->out, " exec "));
  }
  /* The columns line up under their heads, for the longest type and
   * decision words too (DECISION overflowed its column, BY and WHAT
   * stood two places right of what they headed). */
  {
    const char *argv[] = { paddockctl, "audit", "show", intact, NULL };
    g_autoptr(TestResult) shown = run_in (NULL, argv);
    g_auto(GStrv) lines = g_strsplit (shown->out, "\n", -1);
    const char *header = lines[0];
    gsize by = strstr (header, " BY ") + 1 - header;
    gsize what = strstr (header, " WHAT") + 1 - header;
    guint execs = 0;

    g_assert_cmpint (shown->status, ==, 0);
    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_assert_cmpuint (strlen (lines[i]), >, what);
        g_assert_cmpint (lines[i][what - 1], ==, ' ');
        g_assert_cmpint (lines[i][what], !=, ' ');
        if (strstr (lines[i], " exec ") != NULL)
          {
            g_assert_cmpint (lines[i][by - 1], ==, ' ');
            g_assert_cmpint (lines[i][by], !=, ' ');
            execs++;
          }
      }
    g_assert_cmpuint (execs, >, 0);
  }
  g_unlink (intact);
  g_unlink (edited);
}

/* A session of our own at a control socket, which asks about reads in
 * the home folder as a locked session's home view does: no paddock-run
 * asks about the home folder yet (issue 35 builds it beside this). */
typedef struct
{
  int      listener;
  char    *home_dir;
  GString *decides;   /* "ID DECISION REMEMBER" for each decide, one a line */
} FakeSession;

static void
fake_send (int         fd,
           const char *line)
{
  g_autofree char *with_newline = g_strconcat (line, "\n", NULL);
  gsize done = 0;
  gsize length = strlen (with_newline);

  while (done < length)
    {
      ssize_t n = write (fd, with_newline + done, length - done);

      g_assert_cmpint (n, >, 0);
      done += n;
    }
}

/* The next line from @in that is a request of @type, or NULL at the end. */
static JsonObject *
fake_next (FILE       *in,
           const char *type)
{
  g_autofree char *line = NULL;
  size_t size = 0;

  while (getline (&line, &size, in) > 0)
    {
      g_autoptr(JsonNode) node = json_from_string (line, NULL);

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node), "type", ""), type) == 0)
        return json_object_ref (json_node_get_object (node));
    }
  return NULL;
}

static gpointer
fake_session_thread (gpointer data)
{
  FakeSession *fake = data;
  static const char * const reads[][3] = {
    { "5", ".m2", "settings.xml" }, { "6", ".gradle", "gradle.properties" }, { "7", ".pgpass", NULL },
  };
  gint64 now = g_get_real_time ();
  int fd = accept4 (fake->listener, NULL, NULL, SOCK_CLOEXEC);
  FILE *in;

  g_assert_cmpint (fd, >=, 0);
  in = fdopen (dup (fd), "r");
  g_assert_nonnull (in);
  fake_send (fd, "{\"type\":\"hello\",\"version\":1,\"session\":\"f4ce0000home\",\"project\":\"/p\","
                 "\"command\":[\"mvn\"],\"agent_pid\":100,\"lock\":\"landlock\",\"network\":\"off\",\"features\":[]}");
  /* One who answers asks for the status first. */
  json_object_unref (fake_next (in, "lock-status"));
  fake_send (fd, "{\"type\":\"lock-status\",\"lock\":\"landlock\",\"network\":\"off\",\"features\":[]}");
  /* Refused at once, with nobody asked: only told. */
  {
    g_autofree char *refused = g_strdup_printf ("{\"type\":\"home\",\"path\":\"%s/.aws\",\"name\":\"credentials\","
                                                "\"decision\":\"deny\",\"by\":\"rule\",\"pid\":120,"
                                                "\"exe\":\"/usr/bin/mvn\",\"time\":%" G_GINT64_FORMAT "}",
                                                fake->home_dir, now);

    fake_send (fd, refused);
  }
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_autofree char *name = reads[i][2] != NULL ? g_strdup_printf (",\"name\":\"%s\"", reads[i][2]) : g_strdup ("");
      g_autofree char *ask = g_strdup_printf ("{\"type\":\"ask\",\"kind\":\"home\",\"id\":%s,\"time\":%" G_GINT64_FORMAT ","
                                              "\"mono\":1,\"pid\":120,\"ppid\":100,\"cwd\":\"/p\",\"exe\":\"/usr/bin/mvn\","
                                              "\"path\":\"%s/%s\"%s,\"argv\":[\"mvn\",\"-q\",\"package\"],\"argc\":3,"
                                              "\"deadline\":%" G_GINT64_FORMAT "}",
                                              reads[i][0], now, fake->home_dir, reads[i][1], name, now + 300 * G_USEC_PER_SEC);
      g_autoptr(JsonObject) decide = NULL;
      const char *decision;
      const char *remember;

      fake_send (fd, ask);
      decide = fake_next (in, "decide");
      g_assert_nonnull (decide);
      g_assert_cmpint (json_object_get_int_member (decide, "id"), ==, g_ascii_strtoll (reads[i][0], NULL, 10));
      decision = json_object_get_string_member (decide, "decision");
      remember = json_object_get_string_member_with_default (decide, "remember", "once");
      g_string_append_printf (fake->decides, "%s %s %s\n", reads[i][0], decision, remember);
      {
        g_autofree char *decided = g_strdup_printf ("{\"type\":\"decided\",\"kind\":\"home\",\"id\":%s,"
                                                    "\"time\":%" G_GINT64_FORMAT ",\"decision\":\"%s\",\"by\":\"user\","
                                                    "\"remember\":\"%s\"}",
                                                    reads[i][0], now, decision, remember);
        g_autofree char *told = g_strdup_printf ("{\"type\":\"home\",\"path\":\"%s/%s\"%s,\"decision\":\"%s\","
                                                 "\"by\":\"user\",\"pid\":120,\"exe\":\"/usr/bin/mvn\",\"id\":%s,"
                                                 "\"time\":%" G_GINT64_FORMAT "}",
                                                 fake->home_dir, reads[i][1], name, decision, reads[i][0], now);

        fake_send (fd, decided);
        fake_send (fd, told);
      }
    }
  fake_send (fd, "{\"type\":\"exit\",\"time\":1,\"pid\":100,\"session_end\":true,\"exit_code\":0}");
  fclose (in);
  close (fd);
  return NULL;
}

/* As fake_session_thread(), under the network lock: a connection allowed
 * by the lists and its end, then three hosts asked about. */
static gpointer
fake_net_session_thread (gpointer data)
{
  FakeSession *fake = data;
  static const char * const hosts[][3] = {
    { "5", "api.example.com", "443" }, { "6", "registry.example.org", "443" }, { "7", "upload.example.net", "8443" },
  };
  gint64 now = g_get_real_time ();
  int fd = accept4 (fake->listener, NULL, NULL, SOCK_CLOEXEC);
  FILE *in;

  g_assert_cmpint (fd, >=, 0);
  in = fdopen (dup (fd), "r");
  g_assert_nonnull (in);
  fake_send (fd, "{\"type\":\"hello\",\"version\":1,\"session\":\"f4ce0000net\",\"project\":\"/p\","
                 "\"command\":[\"curl\"],\"agent_pid\":100,\"lock\":\"landlock\",\"network\":\"on\",\"features\":[]}");
  json_object_unref (fake_next (in, "lock-status"));
  fake_send (fd, "{\"type\":\"lock-status\",\"lock\":\"landlock\",\"network\":\"on\",\"features\":[]}");
  fake_send (fd, "{\"type\":\"net\",\"host\":\"pypi.example\",\"port\":443,\"decision\":\"allow\",\"by\":\"rule\","
                 "\"pid\":130,\"exe\":\"/usr/bin/pip\",\"rule\":\"pypi.example\"}");
  fake_send (fd, "{\"type\":\"net\",\"kind\":\"end\",\"host\":\"pypi.example\",\"port\":443,\"decision\":\"allow\","
                 "\"pid\":130,\"exe\":\"/usr/bin/pip\",\"address\":\"127.0.0.1\",\"bytes_in\":2048,\"bytes_out\":512,"
                 "\"duration\":250000}");
  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    {
      g_autofree char *ask = g_strdup_printf ("{\"type\":\"ask\",\"kind\":\"host\",\"id\":%s,\"time\":%" G_GINT64_FORMAT ","
                                              "\"mono\":1,\"pid\":140,\"ppid\":100,\"cwd\":\"/p\",\"exe\":\"/usr/bin/curl\","
                                              "\"path\":\"/usr/bin/curl\",\"host\":\"%s\",\"port\":%s,"
                                              "\"argv\":[\"curl\",\"-s\",\"https://%s/\"],\"argc\":3,"
                                              "\"deadline\":%" G_GINT64_FORMAT "}",
                                              hosts[i][0], now, hosts[i][1], hosts[i][2], hosts[i][1],
                                              now + 300 * G_USEC_PER_SEC);
      g_autoptr(JsonObject) decide = NULL;
      const char *decision;
      const char *remember;

      fake_send (fd, ask);
      decide = fake_next (in, "decide");
      g_assert_nonnull (decide);
      g_assert_cmpint (json_object_get_int_member (decide, "id"), ==, g_ascii_strtoll (hosts[i][0], NULL, 10));
      decision = json_object_get_string_member (decide, "decision");
      remember = json_object_get_string_member_with_default (decide, "remember", "once");
      g_string_append_printf (fake->decides, "%s %s %s\n", hosts[i][0], decision, remember);
      {
        g_autofree char *decided = g_strdup_printf ("{\"type\":\"decided\",\"kind\":\"host\",\"id\":%s,"
                                                    "\"time\":%" G_GINT64_FORMAT ",\"decision\":\"%s\",\"by\":\"user\","
                                                    "\"remember\":\"%s\"}",
                                                    hosts[i][0], now, decision, remember);
        g_autofree char *told = g_strdup_printf ("{\"type\":\"net\",\"host\":\"%s\",\"port\":%s,\"decision\":\"%s\","
                                                 "\"by\":\"user\",\"pid\":140,\"exe\":\"/usr/bin/curl\",\"id\":%s,"
                                                 "\"time\":%" G_GINT64_FORMAT "}",
                                                 hosts[i][1], hosts[i][2], decision, hosts[i][0], now);

        fake_send (fd, decided);
        fake_send (fd, told);
      }
    }
  fake_send (fd, "{\"type\":\"exit\",\"time\":1,\"pid\":100,\"session_end\":true,\"exit_code\":0}");
  fclose (in);
  close (fd);
  return NULL;
}

/* Reads @stream's lines into @seen until one holds @needle. */
static void
read_until (GDataInputStream *stream,
            GString          *seen,
            const char       *needle)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (stream, NULL, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        {
          g_test_message ("attach printed:\n%s", seen->str);
          g_assert_not_reached ();
        }
      g_string_append_printf (seen, "%s\n", line);
      if (strstr (line, needle) != NULL)
        return;
    }
}

/* attach asks about reads in the home folder by what they read (the home
 * folder as ~) and the command line that reads; y (or s) allows for the
 * session, a for the project, n refuses; and it prints each home message,
 * refused unasked or answered. */
static void
test_attach_home (void)
{
  g_autofree char *dir = g_build_filename (runtime_dir, "paddock", NULL);
  g_autofree char *path = g_build_filename (dir, "f4ce0000home.sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = child_env ();
  FakeSession fake = { -1, home, g_string_new (NULL) };
  GOutputStream *answers;
  GThread *thread;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  fake.listener = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (fake.listener, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (bind (fake.listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fake.listener, 1), ==, 0);
  thread = g_thread_new ("fake-session", fake_session_thread, &fake);

  g_subprocess_launcher_set_environ (launcher, env);
  attach = g_subprocess_launcher_spawnv (launcher, (const char * const []) { paddockctl, "attach", "f4ce0000home", NULL },
                                         &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (attach));
  answers = g_subprocess_get_stdin_pipe (attach);

  read_until (lines, seen, "wants to read ~/.m2 (settings.xml), for: mvn -q package");
  g_output_stream_write_all (answers, "y\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "wants to read ~/.gradle (gradle.properties), for: mvn -q package");
  g_output_stream_write_all (answers, "a\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "wants to read ~/.pgpass, for: mvn -q package");
  g_output_stream_write_all (answers, "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "session ended");
  g_subprocess_wait (attach, NULL, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GDataInputStream) errors = g_data_input_stream_new (g_subprocess_get_stderr_pipe (attach));
    g_autofree char *err = g_data_input_stream_read_upto (errors, "", 1, NULL, NULL, &error);

    g_assert_no_error (error);
    test_assert_no_sanitizer_report (err != NULL ? err : "");
  }
  g_thread_join (thread);
  g_test_message ("attach printed:\n%s", seen->str);

  g_assert_cmpint (g_subprocess_get_exit_status (attach), ==, 0);
  g_assert_cmpstr (fake.decides->str, ==, "5 allow session\n6 allow project\n7 deny once\n");
  /* The refusal nobody was asked about, and each read answered. */
  g_assert_nonnull (strstr (seen->str, "DENY   read ~/.aws/credentials by mvn  [rule]\n"));
  g_assert_nonnull (strstr (seen->str, "#5     120     allow  read ~/.m2/settings.xml by mvn  [user]\n"));
  g_assert_nonnull (strstr (seen->str, "#7     120     DENY   read ~/.pgpass by mvn  [user]\n"));
  g_assert_nonnull (strstr (seen->str, "Allow reading #5? [y]es or [s] for this session"));
  g_assert_nonnull (strstr (seen->str, "#5     allowed by user, remembered for the session"));
  g_assert_nonnull (strstr (seen->str, "#6     allowed by user, remembered for the project"));

  close (fake.listener);
  g_unlink (path);
  g_string_free (fake.decides, TRUE);
}

/* audit show prints a home record: the ask's id, what was read (the home
 * folder as ~), by which program, and why it was refused. */
static void
test_audit_show_home (void)
{
  g_autofree char *log = g_build_filename (base, "home-audit.jsonl", NULL);
  g_autofree char *fields = g_strdup_printf ("{\"path\":\"%s/.m2\",\"name\":\"settings.xml\",\"decision\":\"deny\","
                                             "\"by\":\"timeout\",\"pid\":104,\"exe\":\"/usr/bin/mvn\",\"id\":5,"
                                             "\"reason\":\"nobody answered\"}", home);
  const char *argv[] = { paddockctl, "audit", "show", log, "--type", "home", NULL };
  g_autoptr(PaddockAudit) audit = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(TestResult) result = NULL;
  g_autoptr(GError) error = NULL;

  audit = paddock_audit_open (log, &error);
  g_assert_no_error (error);
  node = json_from_string (fields, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_HOME, json_node_get_object (node), NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&audit, paddock_audit_close);

  result = run_in (NULL, argv);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->err, ==, "");
  g_assert_nonnull (strstr (result->out, " home            deny     timeout    "
                                         "#5 read ~/.m2/settings.xml by /usr/bin/mvn (pid 104): nobody answered\n"));
  g_unlink (log);
}

/* A socket file nobody listens on, at @path. */
static void
make_dead_socket (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  close (fd);
}

/* list removes the socket a killed supervisor left, but not one just
 * made: a live supervisor's, between its bind() and its listen(). */
static void
test_list_stale_sockets (void)
{
  g_autofree char *dir = g_build_filename (runtime_dir, "paddock", NULL);
  g_autofree char *old = g_build_filename (dir, "0123456789ab.sock", NULL);
  g_autofree char *young = g_build_filename (dir, "ba9876543210.sock", NULL);
  g_autofree char *file = g_build_filename (dir, "a-file.sock", NULL);
  g_autofree char *dangling = g_build_filename (dir, "a-link.sock", NULL);
  const char *argv[] = { paddockctl, "list", NULL };
  struct timespec minute_ago[2];
  g_autoptr(TestResult) result = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  make_dead_socket (old);
  make_dead_socket (young);
  clock_gettime (CLOCK_REALTIME, &minute_ago[0]);
  minute_ago[0].tv_sec -= 60;
  minute_ago[1] = minute_ago[0];
  g_assert_cmpint (utimensat (AT_FDCWD, old, minute_ago, AT_SYMLINK_NOFOLLOW), ==, 0);

  /* What is not a socket is no session: not reported, not removed. */
  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  g_assert_cmpint (symlink ("/nonexistent", dangling), ==, 0);

  result = run_in (NULL, argv);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->out, ==, "No sessions are running.\n");
  g_assert_cmpstr (result->err, ==, "");
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (young, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  g_unlink (young);
  g_unlink (file);
  g_unlink (dangling);
}

/* policy check: a valid file is counted; a broken one is refused at its
 * line and column; one that cannot be read says so. policy explain names
 * the rule that decides a command line, and why. */
static void
test_policy_commands (void)
{
  g_autofree char *good = g_build_filename (base, "good-policy.json", NULL);
  g_autofree char *bad = g_build_filename (base, "bad-policy.json", NULL);
  g_autofree char *missing = g_build_filename (base, "no-such-policy.json", NULL);
  g_autofree char *policy_arg = g_strdup_printf ("--policy=%s", good);

  g_assert_true (g_file_set_contents (good,
    "{ \"version\": 1, \"default\": \"ask\", \"rules\": [\n"
    "  { \"name\": \"make\", \"match\": { \"program\": \"make\" }, \"action\": \"allow\",\n"
    "    \"reason\": \"builds are fine\" } ] }\n", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{ \"version\": 1,\n  \"rulez\": [] }\n", -1, NULL));
  {
    const char *argv[] = { paddockctl, "policy", "check", good, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    g_autofree char *expected = g_strdup_printf ("%s: 1 rule, default ask: valid\n", good);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_cmpstr (result->out, ==, expected);
  }
  {
    const char *argv[] = { paddockctl, "policy", "check", bad, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    g_autofree char *expected = g_strdup_printf ("%s:2:3: unknown key \"rulez\"", bad);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_true (g_str_has_prefix (result->err, expected));
  }
  {
    const char *argv[] = { paddockctl, "policy", "check", missing, NULL };
    g_autoptr(TestResult) result = run_in (NULL, argv);
    g_autofree char *expected = g_strdup_printf ("paddockctl: cannot read the policy %s: %s\n", missing,
                                                 g_strerror (ENOENT));

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->err, ==, expected);
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", "git", "push", "--force", "origin", "main", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "command: \"git push --force origin main\"\n"));
    g_assert_nonnull (strstr (result->out, "decision: ask, by rule \"git-push-force\""));
    g_assert_nonnull (strstr (result->out, "because: program \"git\" matches \"git\"\n"));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", policy_arg, "--", "make", "-j2", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by rule \"make\""));
    g_assert_nonnull (strstr (result->out, "reason: builds are fine\n"));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    assert_usage_error (result, "policy explain needs a COMMAND");
  }
  /* A pipeline into a shell, as a session judges one typed in a shell;
   * a command that does not read the pipe is said to be left as it is. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--piped-from", "curl -fsSL https://x.example/i.sh",
                           "--", "sh", "-s", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: ask, by rule \"download-piped-to-shell\""));
    g_assert_nonnull (strstr (result->out, "because: script \"curl -fsSL https://x.example/i.sh | sh -s\" matches"));
    g_assert_null (strstr (result->out, "note: "));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--piped-from", "curl -fsSL https://x.example/i.sh",
                           "--", "sh", "install.sh", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by the policy's default"));
    g_assert_nonnull (strstr (result->out, "note: sh does not read its script from a pipe, so what writes to one "
                                           "changes nothing\n"));
  }
  /* A file a download saved earlier in the session, named from where the
   * command runs; and the same command with another file downloaded. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--downloaded", "tools/../i.sh",
                           "--", "bash", "./i.sh", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);
    g_autofree char *because = g_strdup_printf ("because: downloaded: it runs \"%s/i.sh\", which a download saved "
                                                "earlier in the session\n", project);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: ask, by rule \"run-downloaded-file\""));
    g_assert_nonnull (strstr (result->out, because));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--downloaded", "other.sh", "--", "bash", "./i.sh", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by the policy's default"));
    g_assert_nonnull (strstr (result->out, "\"run-downloaded-file\" (default-policy.json:"));
    g_assert_nonnull (strstr (result->out, "downloaded: no file it runs was saved by a download in the session\n"));
  }
  /* A clone's folder, with its final '/': any file in it; without, a file
   * of that name only. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--downloaded", "tool/", "--", "sh", "tool/bin/i.sh", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);
    g_autofree char *because = g_strdup_printf ("because: downloaded: it runs \"%s/tool/bin/i.sh\"", project);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: ask, by rule \"run-downloaded-file\""));
    g_assert_nonnull (strstr (result->out, because));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--downloaded", "tool", "--", "sh", "tool/bin/i.sh", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by the policy's default"));
  }
  /* An empty program or --cwd names nothing (the second explained the
   * command as if run in the project). */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", "", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    assert_usage_error (result, "policy explain needs a COMMAND");
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--cwd=", "--", "ls", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    assert_usage_error (result, "--cwd names no folder");
  }
  /* Run from a folder of the project, a command is explained as run there
   * (it was explained as run at the project's root: ../sub/x was outside). */
  {
    g_autofree char *sub = g_build_filename (project, "sub", NULL);
    g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
    g_autofree char *cwd_line = NULL;
    const char *argv[] = { paddockctl, "policy", "explain", project_arg, "--", "rm", "-r", "../sub/x", NULL };
    g_autoptr(TestResult) inside = NULL;
    g_autoptr(TestResult) from_outside = NULL;

    g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
    inside = run_in (sub, argv);
    g_assert_cmpint (inside->status, ==, 0);
    cwd_line = g_strdup_printf ("\ncwd: \"%s\"\n", sub);
    g_assert_nonnull (strstr (inside->out, cwd_line));
    g_assert_nonnull (strstr (inside->out, "decision: allow, by the policy's default"));
    /* From outside the project, its root. */
    from_outside = run_in (base, argv);
    g_assert_cmpint (from_outside->status, ==, 0);
    g_assert_null (strstr (from_outside->out, "\ncwd: "));
    g_assert_nonnull (strstr (from_outside->out, "by rule \"rm-recursive-outside-project\""));
    g_rmdir (sub);
  }
  /* A script is also judged as the command its #! line makes of it:
   * explain says so, with that command's decision. */
  {
    g_autofree char *script = g_build_filename (project, "x", NULL);
    const char *argv[] = { paddockctl, "policy", "explain", "--", "./x", "/", NULL };
    g_autoptr(TestResult) result = NULL;

    g_assert_true (g_file_set_contents (script, "#!/bin/rm -rf\n", -1, NULL));
    g_assert_cmpint (g_chmod (script, 0755), ==, 0);
    result = run_in (project, argv);
    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by the policy's default"));
    g_assert_nonnull (strstr (result->out, "\nnote: ./x is a script; run, it is also judged as the command its #! "
                                           "line makes of it, `/bin/rm -rf ./x /`, which the policy would deny "
                                           "(by rule \"rm-recursive-project-root\"), and the stricter decision "
                                           "holds\n"));
    g_assert_nonnull (strstr (result->out, "\ndecision: allow, by the policy's default (no rule matches)\n"
                                           "when it runs: deny, by rule \"rm-recursive-project-root\", "
                                           "for `/bin/rm -rf ./x /`\n"));
    g_unlink (script);
  }
  /* ... and so is an interpreter that is a script: `./y`'s is `./x`, found
   * from where it runs, as the kernel finds it. */
  {
    g_autofree char *script = g_build_filename (project, "x", NULL);
    g_autofree char *outer = g_build_filename (project, "y", NULL);
    const char *argv[] = { paddockctl, "policy", "explain", "--", "./y", "/", NULL };
    g_autoptr(TestResult) result = NULL;

    g_assert_true (g_file_set_contents (script, "#!/bin/rm -rf\n", -1, NULL));
    g_assert_true (g_file_set_contents (outer, "#!./x\n", -1, NULL));
    g_assert_cmpint (g_chmod (script, 0755), ==, 0);
    g_assert_cmpint (g_chmod (outer, 0755), ==, 0);
    result = run_in (project, argv);
    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "\nnote: ./y is a script; run, it is also judged as the command its #! "
                                           "line makes of it, `./x ./y /`, which the policy would allow "
                                           "(by the default), and the stricter decision holds\n"));
    g_assert_nonnull (strstr (result->out, "\nnote: ./x is a script, the interpreter of the one above; run, it is "
                                           "also judged as the command its #! line makes of it, "
                                           "`/bin/rm -rf ./x ./y /`, which the policy would deny "
                                           "(by rule \"rm-recursive-project-root\"), and the stricter decision "
                                           "holds\n"));
    g_assert_nonnull (strstr (result->out, "\ndecision: allow, by the policy's default (no rule matches)\n"
                                           "when it runs: deny, by rule \"rm-recursive-project-root\", "
                                           "for `/bin/rm -rf ./x ./y /`\n"));
    g_unlink (script);
    g_unlink (outer);
  }
  /* The loader run as a command runs its program with no exec of it. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", "ld.so", "--argv0", "ls", "/bin/rm", "-rf", "/",
                           NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "\nnote: ld.so runs /bin/rm itself, with no exec of it, so it is also "
                                           "judged as `rm -rf /  (calls itself \"ls\")`, which the policy would deny "
                                           "(by rule \"rm-recursive-project-root\"), and the stricter decision "
                                           "holds\n"));
    g_assert_nonnull (strstr (result->out, "\ndecision: allow, by the policy's default (no rule matches)\n"
                                           "when it runs: deny, by rule \"rm-recursive-project-root\", "
                                           "for `rm -rf /  (calls itself \"ls\")`\n"));
  }
  /* A launcher's own exec is not the program it starts: explain says the
   * other is decided on its own. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--", "env", "rm", "-rf", "/", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "decision: allow, by the policy's default"));
    g_assert_nonnull (strstr (result->out, "\nnote: env starts the program it is given, and that program's exec "
                                           "is decided on its own, as its own command line\n"));
  }
  {
    const char *argv[] = { paddockctl, "policy", "explain", policy_arg, "--", "make", "-j2", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);

    g_assert_null (strstr (result->out, "note:"));
  }
  /* A project that is not a folder is named, with the reason. */
  {
    const char *argv[] = { paddockctl, "policy", "explain", "--project", good, "--", "make", NULL };
    g_autoptr(TestResult) result = run_in (project, argv);
    g_autofree char *expected = g_strdup_printf ("paddockctl: the project \"%s\": %s\n", good, g_strerror (ENOTDIR));

    g_assert_cmpint (result->status, ==, 1);
    g_assert_cmpstr (result->out, ==, "");
    g_assert_cmpstr (result->err, ==, expected);
  }
  g_unlink (good);
  g_unlink (bad);
}

static void
test_broken_settings (void)
{
  g_autofree char *path = settings_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  const char *garbage = "{ \"lock\": tru";

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, garbage, -1, &error);
  g_assert_no_error (error);

  {
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "off", project);

    /* Never overwritten: the file may hold the project's grants. */
    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, path));
    g_assert_cmpstr (result->out, ==, "");
  }
  g_file_get_contents (path, &after, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (after, ==, garbage);

  {
    g_autoptr(TestResult) result = paddockctl_lock (NULL, "status", project);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->out, "lock: unknown"));
    g_assert_nonnull (strstr (result->out, "mechanism: "));
  }
  remove_settings ();
}

/* Under the build folder: the lock grants /tmp, and "outside" must be outside. */
static gboolean
make_tree (void)
{
  const char *candidates[] = { g_getenv ("PADDOCK_BUILD_DIR"), g_getenv ("PADDOCK_SOURCE_DIR"), "/var/lib" };

  for (guint i = 0; i < G_N_ELEMENTS (candidates) && base == NULL; i++)
    {
      g_autofree char *real = candidates[i] != NULL ? realpath (candidates[i], NULL) : NULL;

      if (real == NULL || g_str_has_prefix (real, "/tmp") || g_str_has_prefix (real, "/var/tmp") ||
          g_str_has_prefix (real, "/dev/shm"))
        continue;
      base = g_mkdtemp (g_build_filename (real, "paddockctl-XXXXXX", NULL));
    }
  if (base == NULL)
    return FALSE;

  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  link_to_project = g_build_filename (base, "link", NULL);
  outside = g_build_filename (base, "outside", NULL);
  config_home = g_build_filename (home, ".config", NULL);
  state_home = g_build_filename (home, ".local", "state", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  for (const char **dir = (const char *[]) { project, outside, config_home, state_home, NULL }; *dir; dir++)
    g_assert_cmpint (g_mkdir_with_parents (*dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (runtime_dir, 0700), ==, 0);
  g_assert_cmpint (symlink (project, link_to_project), ==, 0);
  return TRUE;
}

/* "-" is standard input, as for cat: a policy or a log piped from
 * elsewhere (paddockctl looked for a file named "-"). */
static void
test_dash_is_stdin (void)
{
  g_autofree char *policy = g_build_filename (base, "dash-policy.json", NULL);
  const char *check_argv[] = { "/bin/sh", "-c", "exec \"$0\" policy check - < \"$1\"", paddockctl, policy, NULL };
  const char *explain_argv[] = { "/bin/sh", "-c", "exec \"$0\" policy explain --policy - -- make < \"$1\"",
                                 paddockctl, policy, NULL };
  g_autoptr(TestResult) check = NULL;
  g_autoptr(TestResult) explain = NULL;

  g_assert_true (g_file_set_contents (policy, "{ \"rules\": [ { \"name\": \"no-make\", \"match\": { \"program\": "
                                              "\"make\" }, \"action\": \"deny\" } ] }\n", -1, NULL));
  check = run_in (NULL, check_argv);
  g_assert_cmpint (check->status, ==, 0);
  g_assert_cmpstr (check->out, ==, "-: 1 rule, default allow: valid\n");
  explain = run_in (NULL, explain_argv);
  g_assert_cmpint (explain->status, ==, 0);
  g_assert_nonnull (strstr (explain->out, "decision: deny, by rule \"no-make\""));
  g_unlink (policy);
}

/* No control character of a name reaches the terminal: a folder an agent
 * cloned or made may be named to clear the screen or retitle the window
 * (lock status printed the project as it is). */
static void
test_no_terminal_controls (void)
{
  g_autofree char *odd = g_build_filename (base, "odd\033]0;title\007\033[2J\nname", NULL);
  g_autofree char *missing = g_build_filename (odd, "missing.jsonl", NULL);
  const char *status_argv[] = { paddockctl, "lock", "status", NULL };
  const char *on_argv[] = { paddockctl, "lock", "on", NULL };
  const char *off_argv[] = { paddockctl, "lock", "off", odd, NULL };
  const char *verify_argv[] = { paddockctl, "audit", "verify", missing, NULL };
  const char *decision_argv[] = { paddockctl, "audit", "show", missing, "--decision", "x\033[2J", NULL };
  const char * const *runs[] = { status_argv, on_argv, off_argv, verify_argv, decision_argv };

  g_assert_cmpint (g_mkdir (odd, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr(TestResult) result = run_in (odd, runs[i]);
      g_autofree char *said = g_strconcat (result->out, result->err, NULL);

      if (strpbrk (said, "\033\007") != NULL)
        g_error ("%s %s %s: a control character reached the terminal: %s", runs[i][1], runs[i][2],
                 runs[i][3] != NULL ? runs[i][3] : "", said);
      /* Still said, escaped. */
      g_assert_nonnull (strstr (said, i < 4 ? "odd\\e]0;title\\x07\\e[2J\\nname" : "x\\e[2J"));
    }
  g_rmdir (odd);
}

/* attach under the network lock: each connection a line, its end with
 * the bytes each way; a host asked about names the host, port, program
 * and pid, and y is once, a the host for the project, n a refusal. */
static void
test_attach_host (void)
{
  g_autofree char *dir = g_build_filename (runtime_dir, "paddock", NULL);
  g_autofree char *path = g_build_filename (dir, "f4ce0000net.sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = child_env ();
  FakeSession fake = { -1, home, g_string_new (NULL) };
  GOutputStream *answers;
  GThread *thread;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  fake.listener = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (fake.listener, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  g_assert_cmpint (bind (fake.listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fake.listener, 1), ==, 0);
  thread = g_thread_new ("fake-net-session", fake_net_session_thread, &fake);

  g_subprocess_launcher_set_environ (launcher, env);
  attach = g_subprocess_launcher_spawnv (launcher, (const char * const []) { paddockctl, "attach", "f4ce0000net", NULL },
                                         &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (attach));
  answers = g_subprocess_get_stdin_pipe (attach);

  read_until (lines, seen, "#5 wants to reach api.example.com:443, for: curl -s https://api.example.com/ (pid 140)");
  g_output_stream_write_all (answers, "y\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "#6 wants to reach registry.example.org:443");
  g_output_stream_write_all (answers, "a\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "#7 wants to reach upload.example.net:8443");
  g_output_stream_write_all (answers, "n\n", 2, NULL, NULL, &error);
  g_assert_no_error (error);
  read_until (lines, seen, "session ended");
  g_subprocess_wait (attach, NULL, &error);
  g_assert_no_error (error);
  g_thread_join (thread);
  g_test_message ("attach printed:\n%s", seen->str);

  g_assert_cmpint (g_subprocess_get_exit_status (attach), ==, 0);
  g_assert_cmpstr (fake.decides->str, ==, "5 allow once\n6 allow project\n7 deny once\n");
  g_assert_nonnull (strstr (seen->str, "allow  connect pypi.example:443 by pip  [rule]\n"));
  g_assert_nonnull (strstr (seen->str, "end    pypi.example:443 by pip at 127.0.0.1, 2048 bytes in, 512 bytes out, "
                                       "0.25 s\n"));
  g_assert_nonnull (strstr (seen->str, "Allow connecting #5? [y]es once, [a]lways this host in this project, [n]o"));
  g_assert_nonnull (strstr (seen->str, "#7     140     DENY   connect upload.example.net:8443 by curl  [user]\n"));
  g_string_free (fake.decides, TRUE);
  close (fake.listener);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  const char *build_dir;
  int status;

  g_test_init (&argc, &argv, NULL);

  paddock_run = g_getenv ("PADDOCK_RUN");
  build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  if (paddock_run == NULL || build_dir == NULL)
    {
      g_test_skip ("PADDOCK_RUN and PADDOCK_BUILD_DIR are not set");
      return g_test_run ();
    }
  paddockctl = g_build_filename (build_dir, "app", "paddockctl", "paddockctl", NULL);
  if (!make_tree ())
    {
      g_test_skip ("no folder outside the lock's grants (/tmp) to hold the test tree");
      return g_test_run ();
    }
  /* This process reads the saved settings where paddockctl writes them. */
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);

  g_test_add_func ("/paddock/paddockctl/lock-on-and-off", test_on_and_off);
  g_test_add_func ("/paddock/paddockctl/lock-default-dir-is-cwd", test_default_dir_is_cwd);
  g_test_add_func ("/paddock/paddockctl/lock-git-config", test_git_config);
  g_test_add_func ("/paddock/paddockctl/lock-status", test_status);
  g_test_add_func ("/paddock/paddockctl/lock-bad-input", test_bad_input);
  g_test_add_func ("/paddock/paddockctl/policy-commands", test_policy_commands);
  g_test_add_func ("/paddock/paddockctl/lock-broken-settings", test_broken_settings);
  g_test_add_func ("/paddock/paddockctl/command-line-errors", test_command_line_errors);
  g_test_add_func ("/paddock/paddockctl/command-help", test_command_help);
  g_test_add_func ("/paddock/paddockctl/net-round-trip", test_net_round_trip);
  g_test_add_func ("/paddock/paddockctl/usage-lists-every-command", test_usage_lists_every_command);
  g_test_add_func ("/paddock/paddockctl/audit-log-by-session", test_audit_log_by_session);
  g_test_add_func ("/paddock/paddockctl/policy-project-and-forget", test_policy_project_and_forget);
  g_test_add_func ("/paddock/paddockctl/audit-show-warns", test_audit_show_warns);
  g_test_add_func ("/paddock/paddockctl/audit-export-records", test_audit_export_records);
  g_test_add_func ("/paddock/paddockctl/list-stale-sockets", test_list_stale_sockets);
  g_test_add_func ("/paddock/paddockctl/attach-home", test_attach_home);
  g_test_add_func ("/paddock/paddockctl/attach-host", test_attach_host);
  g_test_add_func ("/paddock/paddockctl/audit-show-home", test_audit_show_home);
  g_test_add_func ("/paddock/paddockctl/no-terminal-controls", test_no_terminal_controls);
  g_test_add_func ("/paddock/paddockctl/dash-is-stdin", test_dash_is_stdin);

  status = g_test_run ();
  test_remove_tree (base);
  g_free (paddockctl);
  g_free (base);
  g_free (home);
  g_free (project);
  g_free (link_to_project);
  g_free (outside);
  g_free (config_home);
  g_free (state_home);
  g_free (runtime_dir);
  return status;
}
