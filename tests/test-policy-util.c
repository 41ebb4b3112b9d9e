/* test-policy-util.c: deciding command lines by a policy, for the policy's tests
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-policy-util.h"

#include <string.h>

gboolean
downloaded_in (const char *path,
               gpointer    user_data)
{
  return g_strv_contains (user_data, path);
}

char *
decide_downloaded (PaddockPolicy       *policy,
                   const char          *project,
                   const char          *cwd,
                   const char          *exe,
                   const char * const  *argv,
                   const char * const  *downloaded,
                   PaddockPolicyAction *out_action)
{
  g_autoptr(PaddockPolicyRule) rule = NULL;
  g_autofree char *resolved = NULL;
  PaddockPolicyQuery query;
  PaddockPolicyAction action;

  /* As the monitor has it: a path as it is, from @cwd where relative; a
   * name found along PATH. */
  if (exe == NULL && argv[0] != NULL)
    exe = resolved = strchr (argv[0], '/') != NULL ? g_canonicalize_filename (argv[0], cwd)
                                                   : g_build_filename ("/usr/bin", argv[0], NULL);
  query = (PaddockPolicyQuery) { .exe = exe, .argv = argv, .cwd = cwd, .project = project, .home = HOME_DIR };
  if (downloaded != NULL)
    {
      query.downloaded_func = downloaded_in;
      query.downloaded_data = (gpointer) downloaded;
    }
  action = paddock_policy_evaluate (policy, &query, &rule);
  if (out_action != NULL)
    *out_action = action;
  return rule ? g_strdup (paddock_policy_rule_get_name (rule)) : NULL;
}

char *
decide_in (PaddockPolicy       *policy,
           const char          *project,
           const char          *cwd,
           const char          *exe,
           const char * const  *argv,
           PaddockPolicyAction *out_action)
{
  return decide_downloaded (policy, project, cwd, exe, argv, NULL, out_action);
}

char *
decide_full (PaddockPolicy       *policy,
             const char          *cwd,
             const char          *exe,
             const char * const  *argv,
             PaddockPolicyAction *out_action)
{
  return decide_in (policy, PROJECT, cwd, exe, argv, out_action);
}

char *
decide_after (PaddockPolicy *policy,
              const char    *project,
              const char    *cwd,
              const char    *command,
              const char    *downloaded)
{
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GError) error = NULL;

  g_shell_parse_argv (command, NULL, &argv, &error);
  g_assert_no_error (error);
  if (downloaded != NULL)
    {
      g_shell_parse_argv (downloaded, NULL, &files, &error);
      g_assert_no_error (error);
    }
  return decide_downloaded (policy, project != NULL ? project : PROJECT, cwd, NULL, (const char * const *) argv,
                            (const char * const *) files, NULL);
}

char *
decide (PaddockPolicy *policy,
        const char    *project,
        const char    *cwd,
        const char    *command)
{
  return decide_after (policy, project, cwd, command, NULL);
}

PaddockPolicy *
parse_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  PaddockPolicy *policy = paddock_policy_new_from_data (text, -1, "test.json", &error);

  g_assert_no_error (error);
  return policy;
}
