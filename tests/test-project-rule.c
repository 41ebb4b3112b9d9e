/* test-project-rule.c: a timeline row's command line remembered for its
 * project: the rule written decides that command line, and no other, in
 * the project's file; Undo takes it out; rows that cannot be remembered,
 * a broken file, a lock held elsewhere and a command line too long for a
 * rule are errors in words
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "paddock-policy.h"
#include "paddock-project-rule.h"
#include "paddock-timeline.h"
#include "test-util.h"

static char *
make_project (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-project-rule-XXXXXX", &error);
  char *canonical;

  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  g_assert_nonnull (canonical);
  return canonical;
}

/* A timeline holding one exec row of @argv, run as @path from @cwd. */
static PaddockTimeline *
timeline_with_exec (const char         *path,
                    const char         *exe,
                    const char         *cwd,
                    const char * const *argv)
{
  PaddockTimeline *timeline = paddock_timeline_new ();
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_EXEC);

  message->seq = 1;
  message->time = 1700000000000000;
  message->pid = 100;
  message->ppid = 99;
  message->cwd = g_strdup (cwd);
  message->path = g_strdup (path);
  message->exe = g_strdup (exe);
  message->argv = g_strdupv ((char **) argv);
  message->argc = g_strv_length ((char **) argv);
  message->decision = PADDOCK_DECISION_ASK;
  message->by = g_strdup ("rule");
  paddock_timeline_add_message (timeline, message);
  return timeline;
}

static PaddockTimelineEvent *
first_row (PaddockTimeline *timeline)
{
  PaddockTimelineEvent *row = paddock_timeline_lookup (timeline, 1);

  g_assert_nonnull (row);
  return row;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static char *
remember (const char           *project,
          PaddockTimelineEvent *row,
          PaddockPolicyAction   action,
          GError              **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_project_rule_remember_async (project, row, action, NULL, result_cb, &result);
  return paddock_project_rule_remember_finish (wait_result (&result), error);
}

static gboolean
forget (const char  *project,
        const char  *name,
        GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_project_rule_forget_async (project, name, NULL, result_cb, &result);
  return paddock_project_rule_forget_finish (wait_result (&result), error);
}

/* How the project's file decides @argv run as @exe from @cwd, and by
 * which rule (NULL: the default). */
static PaddockPolicyAction
decide (const char         *project,
        const char         *exe,
        const char         *cwd,
        const char * const *argv,
        char              **out_rule)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) overrides = paddock_policy_load_project (project, &error);
  g_autoptr(PaddockPolicyRule) rule = NULL;
  PaddockPolicyQuery query = { .exe = exe, .argv = argv, .cwd = cwd, .project = project, .resolved = exe };
  PaddockPolicyAction action;

  g_assert_no_error (error);
  /* The project's rules alone, and a default that none of them gives. */
  paddock_policy_set_default_action (overrides, PADDOCK_POLICY_ACTION_ASK);
  action = paddock_policy_evaluate (overrides, &query, &rule);
  *out_rule = rule != NULL ? g_strdup (paddock_policy_rule_get_name (rule)) : NULL;
  return action;
}

static guint
n_project_rules (const char *project)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) overrides = paddock_policy_load_project (project, &error);

  g_assert_no_error (error);
  return paddock_policy_get_n_rules (overrides);
}

static void
test_allow_deny_forget (void)
{
  g_autofree char *project = make_project ();
  const char *push[] = { "git", "push", "--force", "origin", "main", NULL };
  const char *other[] = { "git", "push", "--force", "origin", "other", NULL };
  /* Run as `git …` from the project: the rule names the path exec ran. */
  g_autoptr(PaddockTimeline) timeline = timeline_with_exec ("/usr/bin/git", "/usr/bin/git", project, push);
  g_autoptr(GError) error = NULL;
  g_autofree char *allow = NULL;
  g_autofree char *deny = NULL;
  g_autofree char *rule = NULL;

  g_assert_cmpuint (n_project_rules (project), ==, 0);
  allow = remember (project, first_row (timeline), PADDOCK_POLICY_ACTION_ALLOW, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (allow, "remembered-"));
  g_assert_cmpuint (n_project_rules (project), ==, 1);
  g_assert_cmpint (decide (project, "/usr/bin/git", project, push, &rule), ==, PADDOCK_POLICY_ACTION_ALLOW);
  g_assert_cmpstr (rule, ==, allow);
  g_clear_pointer (&rule, g_free);
  /* Exactly that command line: another branch is not it. */
  g_assert_cmpint (decide (project, "/usr/bin/git", project, other, &rule), ==, PADDOCK_POLICY_ACTION_ASK);
  g_assert_null (rule);

  /* Deny for the same line replaces it first (a rule of its own name). */
  deny = remember (project, first_row (timeline), PADDOCK_POLICY_ACTION_DENY, &error);
  g_assert_no_error (error);
  g_assert_cmpint (decide (project, "/usr/bin/git", project, push, &rule), ==, PADDOCK_POLICY_ACTION_DENY);
  g_assert_cmpstr (rule, ==, deny);
  g_clear_pointer (&rule, g_free);

  /* Undo: the rule is gone from the file. */
  g_assert_true (forget (project, deny, &error));
  g_assert_no_error (error);
  g_assert_cmpint (decide (project, "/usr/bin/git", project, push, &rule), !=, PADDOCK_POLICY_ACTION_DENY);
  g_clear_pointer (&rule, g_free);
  /* A second Undo of the same rule says the file has no such rule. */
  g_assert_false (forget (project, deny, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);

  test_remove_tree (project);
}

/* A program run by a relative path is remembered as exec ran it: the
 * path made absolute from its working directory. */
static void
test_relative_path (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *tool = g_build_filename (project, "bin", "tool", NULL);
  const char *argv[] = { "./bin/tool", "--all", NULL };
  g_autoptr(PaddockTimeline) timeline = timeline_with_exec ("./bin/tool", tool, project, argv);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *rule = NULL;

  name = remember (project, first_row (timeline), PADDOCK_POLICY_ACTION_DENY, &error);
  g_assert_no_error (error);
  g_assert_cmpint (decide (project, tool, project, argv, &rule), ==, PADDOCK_POLICY_ACTION_DENY);
  g_assert_cmpstr (rule, ==, name);

  test_remove_tree (project);
}

/* What cannot be remembered, and files that cannot take it: errors in
 * words, and the file as it was. */
static void
test_errors (void)
{
  g_autofree char *project = make_project ();
  const char *echo[] = { "echo", "hi", NULL };
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockTimeline) plain = timeline_with_exec ("/bin/echo", "/bin/echo", project, echo);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  g_autofree char *lock = NULL;

  {
    g_autoptr(PaddockMessage) cut = paddock_message_new (PADDOCK_MESSAGE_EXEC);
    g_autoptr(PaddockMessage) piped = paddock_message_new (PADDOCK_MESSAGE_EXEC);
    g_autoptr(PaddockMessage) pause = paddock_message_new (PADDOCK_MESSAGE_PAUSE);

    cut->seq = 1;
    cut->pid = 100;
    cut->cwd = g_strdup (project);
    cut->path = g_strdup ("/bin/echo");
    cut->exe = g_strdup ("/bin/echo");
    cut->argv = g_strdupv ((char **) echo);
    cut->argc = 7;
    cut->truncated = TRUE;
    cut->decision = PADDOCK_DECISION_ALLOW;
    piped->seq = 2;
    piped->pid = 101;
    piped->cwd = g_strdup (project);
    piped->path = g_strdup ("/bin/sh");
    piped->exe = g_strdup ("/bin/sh");
    piped->argv = g_strdupv ((char *[]) { "sh", NULL });
    piped->argc = 1;
    piped->pipeline = g_strdup ("curl https://example.com/x | sh");
    piped->decision = PADDOCK_DECISION_ALLOW;
    pause->by = g_strdup ("user");
    paddock_timeline_add_message (timeline, cut);
    paddock_timeline_add_message (timeline, piped);
    paddock_timeline_add_message (timeline, pause);
  }
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(PaddockTimelineEvent) row = g_list_model_get_item (G_LIST_MODEL (timeline), i);

      name = remember (project, row, PADDOCK_POLICY_ACTION_ALLOW, &error);
      g_assert_null (name);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
  g_assert_cmpuint (n_project_rules (project), ==, 0);

  /* Too long for a rule's pattern. */
  {
    g_autofree char *huge = g_strnfill (256 * 1024, 'x');
    const char *long_argv[] = { "echo", huge, NULL };
    g_autoptr(PaddockTimeline) big = timeline_with_exec ("/bin/echo", "/bin/echo", project, long_argv);

    name = remember (project, first_row (big), PADDOCK_POLICY_ACTION_DENY, &error);
    g_assert_null (name);
    g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "too long"));
    g_clear_error (&error);
  }

  /* Another program holds the file's lock: it fails, it does not wait on. */
  file = paddock_policy_project_file (project, &error);
  g_assert_no_error (error);
  lock = g_strconcat (file, ".lock", NULL);
  {
    g_autofree char *folder = g_path_get_dirname (file);
    int fd;

    g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
    fd = open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);
    name = remember (project, first_row (plain), PADDOCK_POLICY_ACTION_DENY, &error);
    g_assert_null (name);
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN);
    g_test_message ("%s", error->message);
    g_clear_error (&error);
    close (fd);
  }

  /* A broken file is not overwritten. */
  g_assert_true (g_file_set_contents (file, "{ \"rules\": [ oops", -1, &error));
  name = remember (project, first_row (plain), PADDOCK_POLICY_ACTION_DENY, &error);
  g_assert_null (name);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "{ \"rules\": [ oops");
  }
  g_unlink (file);
  g_unlink (lock);

  test_remove_tree (project);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/project-rule/allow-deny-forget", test_allow_deny_forget);
  g_test_add_func ("/paddock/project-rule/relative-path", test_relative_path);
  g_test_add_func ("/paddock/project-rule/errors", test_errors);

  status = g_test_run ();
  test_home_remove (g_steal_pointer (&home));
  return status;
}
