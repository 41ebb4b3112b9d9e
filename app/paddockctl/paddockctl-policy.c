/* paddockctl-policy.c: paddockctl policy check, explain, project and forget
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-autofd.h"
#include "paddock-download.h"
#include "paddock-escape.h"
#include "paddock-command-line.h"
#include "paddock-path.h"
#include "paddock-policy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int
paddockctl_builtin_policy_check (int    argc,
                                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;

  if (argc != 2)
    return usage ("policy check takes one FILE");
  policy = paddock_policy_new_from_file (input_path (argv[1]), &error);
  if (policy == NULL)
    {
      /* What is wrong in the file is FILE:LINE:COLUMN: REASON, as compilers
       * say it; a file that cannot be read is paddockctl's to say. */
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s%s\n", error->domain == PADDOCK_POLICY_ERROR ? "" : "paddockctl: ", shown);
      return 1;
    }
  {
    g_autofree char *file = paddock_escape_controls (argv[1]);
    guint n_rules = paddock_policy_get_n_rules (policy);

    g_print ("%s: %u %s, default %s: valid\n", file, n_rules, n_rules == 1 ? "rule" : "rules",
             paddock_policy_action_to_string (paddock_policy_get_default_action (policy)));
  }
  return 0;
}

/* Where a shell would find @name: the path exec would be given. */
static char *
find_program (const char *name,
              const char *cwd)
{
  g_autofree char *found = NULL;

  if (strchr (name, '/') != NULL)
    return g_canonicalize_filename (name, cwd);
  found = g_find_program_in_path (name);
  return found != NULL ? g_canonicalize_filename (found, cwd) : NULL;
}

/* Programs whose work is to start the program they are given. */
static gboolean
is_launcher (const char *program)
{
  static const char * const launchers[] = {
    "env", "nice", "nohup", "timeout", "stdbuf", "setsid", "xargs", "time", "ionice", "chrt",
    "taskset", "flock", "watch", "unbuffer", "exec", NULL,
  };
  g_autofree char *name = g_path_get_basename (program);

  return g_strv_contains (launchers, name);
}

/* Notes in @notes what the policy makes of @level, one of the commands a
 * run of the explained command makes (see paddock_exec_level_queries()). */
static void
note_level (PaddockPolicy            *policy,
            const PaddockPolicyQuery *level,
            const char               *what,
            GString                  *notes)
{
  g_autoptr(PaddockPolicyRule) rule = NULL;
  PaddockPolicyAction action = paddock_policy_evaluate (policy, level, &rule);
  g_autofree char *line = paddock_exec_display_line (level->exe, level->resolved, NULL, NULL, level->argv);
  g_autofree char *rule_name = rule != NULL ? display (paddock_policy_rule_get_name (rule)) : NULL;

  g_string_append_printf (notes, "note: %s `%s`, which the policy would %s (%s%s%s), and the stricter decision "
                          "holds\n", what, line, paddock_policy_action_to_string (action),
                          rule_name != NULL ? "by rule \"" : "by the default", rule_name != NULL ? rule_name : "",
                          rule_name != NULL ? "\"" : "");
}

/* A script is also judged, when it runs, as the command its #! line makes
 * of it, and so is each interpreter that is a script itself; the loader
 * run as a command and a multi-call binary given its applet, as the
 * program they run (see paddock_exec_level_queries()): noted in @notes, with what the
 * policy makes of each. Where one of those is stricter than the command's
 * own decision, returns what holds ("deny, by rule …, for `…`"); else
 * NULL. */
static char *
note_levels (PaddockPolicy            *policy,
             const PaddockPolicyQuery *query,
             const char               *cwd,
             GString                  *notes)
{
  g_autoptr(GPtrArray) shebangs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) argvs = NULL;
  g_autoptr(PaddockPolicyRule) strictest_rule = NULL;
  PaddockPolicyAction own = paddock_policy_evaluate (policy, query, NULL);
  PaddockPolicyAction strictest;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  guint strictest_level = 0;
  /* The script's path as a shell hands it to exec: as typed, or as found
   * along PATH. */
  const char *file = strchr (query->argv[0], '/') != NULL ? query->argv[0] : query->exe;
  guint n_lines = 0;
  guint n;

  /* Its #! lines, each interpreter looked up from where it runs, as the
   * kernel looks it up. */
  for (const char *next = query->exe; next != NULL && n_lines < PADDOCK_EXEC_MAX_SHEBANG_LINES; n_lines++)
    {
      g_autofree char *path = g_canonicalize_filename (next, cwd);
      paddock_autofd int fd = -1;
      char *interpreter = NULL;
      char *argument = NULL;
      struct stat st;

      if ((fd = open (path, O_PATH | O_CLOEXEC)) < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) ||
          !paddock_exec_read_interpreter (fd, &interpreter, &argument))
        break;
      g_ptr_array_add (shebangs, interpreter);
      g_ptr_array_add (shebangs, argument);
      next = interpreter;
    }

  n = paddock_exec_level_queries (query, file, shebangs, &argvs, levels);
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *what = NULL;

      if (i <= n_lines)
        {
          /* The script, or the interpreter above that is one. */
          g_autofree char *shown = display (i == 1 ? query->argv[0] : levels[i - 1].exe);

          what = g_strdup_printf ("%s is a script%s; run, it is also judged as the command its #! line makes of it,",
                                  shown, i > 1 ? ", the interpreter of the one above" : "");
        }
      else
        {
          g_autofree char *launcher = display (levels[i - 1].argv[0]);
          g_autofree char *program = display (levels[i].exe);

          what = g_strdup_printf ("%s runs %s itself, with no exec of it, so it is also judged as", launcher, program);
        }
      note_level (policy, &levels[i], what, notes);
    }
  strictest = paddock_policy_evaluate_levels (policy, levels, n, &strictest_rule, &strictest_level, NULL);
  if (strictest != own)
    {
      const PaddockPolicyQuery *level = &levels[strictest_level];
      g_autofree char *line = paddock_exec_display_line (level->exe, level->resolved, NULL, NULL, level->argv);
      g_autofree char *rule_name = strictest_rule != NULL ? display (paddock_policy_rule_get_name (strictest_rule))
                                                          : NULL;

      if (rule_name == NULL)
        return g_strdup_printf ("%s, by the policy's default, for `%s`", paddock_policy_action_to_string (strictest),
                                line);
      return g_strdup_printf ("%s, by rule \"%s\", for `%s`", paddock_policy_action_to_string (strictest),
                              rule_name, line);
    }
  return NULL;
}

/* --project DIR (NULL: the current folder), canonical, in *@out. Returns
 * 0, or, having said why, the status to leave with: 2 for an empty name
 * (which would be the current folder, as it would to paddock-run), 1 for
 * one that is no folder. */
static int
project_folder (const char  *project_arg,
                char       **out)
{
  g_autofree char *project = NULL;

  if (project_arg != NULL && project_arg[0] == '\0')
    return usage ("--project names no folder");
  project = project_arg != NULL ? realpath (project_arg, NULL) : g_get_current_dir ();
  if (project == NULL || !g_file_test (project, G_FILE_TEST_IS_DIR))
    {
      paddock_printerr ("the project \"%s\": %s", project_arg != NULL ? project_arg : ".",
                        g_strerror (project == NULL ? errno : ENOTDIR));
      return 1;
    }
  *out = g_steal_pointer (&project);
  return 0;
}

/* The project's own rules: its overrides and the answers remembered for it. */
int
paddockctl_builtin_policy_project (int    argc,
                                   char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("");
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *file = NULL;
  g_autofree char *shown_project = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  guint n;
  int status;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (argc != 1)
    return usage ("policy project takes no arguments but --project");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  overrides = paddock_policy_load_project (project, &error);
  file = paddock_policy_project_file (project, NULL);
  if (overrides == NULL)
    {
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s\n", shown);
      return 1;
    }
  shown_project = display (project);
  n = paddock_policy_get_n_rules (overrides);
  if (n == 0)
    g_print ("The project %s has no rules of its own (nothing is remembered for it).\n", shown_project);
  else
    {
      g_autofree char *shown_file = display (file);

      g_print ("The project %s's own rules, first to last (%s):\n", shown_project, shown_file);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockPolicyRule) rule = paddock_policy_get_rule (overrides, i);
      g_autofree char *name = display (paddock_policy_rule_get_name (rule));
      g_autofree char *reason = display (paddock_policy_rule_get_reason (rule));

      g_print ("  %-24s %-5s  %s\n", name, paddock_policy_action_to_string (paddock_policy_rule_get_action (rule)),
               *reason != '\0' ? reason : "(no reason given)");
    }
  if (paddock_policy_sets_default (overrides))
    g_print ("Its file sets the decision where no rule matches: %s.\n",
             paddock_policy_action_to_string (paddock_policy_get_default_action (overrides)));
  return 0;
}

/* Takes answers remembered for the project (or rules of its own) back: a
 * session running there follows at once. */
int
paddockctl_builtin_policy_forget (int    argc,
                                  char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("--all|NAME…");
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *shown_project = NULL;
  gboolean all = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, "Every rule of the project's own", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (all == (argc > 1))
    return usage ("policy forget takes --all or the NAMEs of rules (paddockctl policy project lists them)");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  if (!paddock_policy_forget_in_project (project, all ? NULL : (const char * const *) argv + 1, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  shown_project = display (project);
  if (all)
    g_print ("The project %s has no rules of its own now", shown_project);
  else
    {
      g_autofree char *names = g_strjoinv (", ", argv + 1);
      g_autofree char *shown_names = display (names);

      g_print ("Taken out of the project %s's rules: %s", shown_project, shown_names);
    }
  g_print ("; sessions running there follow at once.\n");
  return 0;
}

static gboolean
explained_download (const char *path,
                    gpointer    user_data)
{
  for (char **target = user_data; *target != NULL; target++)
    if (paddock_download_holds (*target, path))
      return TRUE;
  return FALSE;
}

int
paddockctl_builtin_policy_explain (int    argc,
                                   char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("-- COMMAND [ARG…]");
  g_autoptr(GError) error = NULL;
  g_autofree char *policy_file = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *cwd_arg = NULL;
  g_autofree char *piped_from = NULL;
  g_auto(GStrv) downloaded = NULL;
  g_autoptr(GPtrArray) downloads = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *project = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *home = NULL;
  g_autofree char *text = NULL;
  g_autofree char *holds = NULL;
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(PaddockPolicy) policy = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  PaddockPolicyQuery query;
  char **command;
  int status;
  GOptionEntry entries[] = {
    { "policy", 0, 0, G_OPTION_ARG_FILENAME, &policy_file, "The policy file (default: the built-in policy)", "FILE" },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { "cwd", 0, 0, G_OPTION_ARG_FILENAME, &cwd_arg, "Where the command runs (default: the current directory where it is in the project, else the project)", "DIR" },
    { "piped-from", 0, 0, G_OPTION_ARG_STRING, &piped_from, "Explain COMMAND as reading its script from a pipe that LINE writes to (curl … | sh)", "LINE" },
    { "downloaded", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &downloaded, "Explain COMMAND as run after a download (curl, wget) saved FILE in the session, "
      "or a clone (git clone) made the folder FILE/ (repeatable)", "FILE" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  command = argv + 1;
  if (command[0] != NULL && strcmp (command[0], "--") == 0)
    command++;
  if (command[0] == NULL || command[0][0] == '\0')
    return usage ("policy explain needs a COMMAND");
  /* An empty name would be the current folder, as it would to paddock-run. */
  if (cwd_arg != NULL && cwd_arg[0] == '\0')
    return usage ("--cwd names no folder");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  if (cwd_arg != NULL)
    cwd = g_canonicalize_filename (cwd_arg, NULL);
  else
    {
      /* Here, as a command typed here would run, where here is in the project. */
      g_autofree char *here = realpath (".", NULL);

      cwd = g_strdup (here != NULL && paddock_path_is_within (here, project) ? here : project);
    }

  policy = policy_file != NULL ? paddock_policy_new_from_file (input_path (policy_file), &error)
                              : paddock_policy_new_default ();
  if (policy != NULL)
    overrides = paddock_policy_load_project (project, &error);
  if (overrides == NULL)
    {
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s\n", shown);
      return 1;
    }
  paddock_policy_set_project_overrides (policy, overrides);

  exe = find_program (command[0], cwd);
  resolved = exe != NULL ? realpath (exe, NULL) : NULL;
  home = paddock_policy_dup_home ();
  query = (PaddockPolicyQuery) {
    .exe = exe,
    .argv = (const char * const *) command,
    .cwd = cwd,
    .project = project,
    .home = home,
    .resolved = resolved,
    .stdin_from = piped_from,
  };
  if (downloaded != NULL)
    {
      /* As the session notes them: from where the command runs, lexically;
       * a clone's folder with a final '/'. */
      for (guint i = 0; downloaded[i] != NULL; i++)
        if (downloaded[i][0] != '\0')
          {
            g_autofree char *path = g_canonicalize_filename (downloaded[i], cwd);
            gboolean folder = g_str_has_suffix (downloaded[i], "/") && !g_str_has_suffix (path, "/");

            g_ptr_array_add (downloads, g_strconcat (path, folder ? "/" : "", NULL));
          }
      g_ptr_array_add (downloads, NULL);
      query.downloaded_func = explained_download;
      query.downloaded_data = downloads->pdata;
    }
  text = paddock_policy_explain (policy, &query);
  holds = note_levels (policy, &query, cwd, notes);
  {
    /* What holds goes right under the command's own decision. */
    const char *decision = g_str_has_prefix (text, "decision: ") ? text : strstr (text, "\ndecision: ");
    const char *end = decision != NULL ? strchr (decision + 1, '\n') : NULL;

    if (holds != NULL && end != NULL)
      g_print ("%.*swhen it runs: %s\n%s", (int) (end + 1 - text), text, holds, end + 1);
    else
      g_print ("%s", text);
    if (!g_str_has_suffix (text, "\n"))
      g_print ("\n");
    if (holds != NULL && end == NULL)
      g_print ("when it runs: %s\n", holds);
  }
  g_print ("%s", notes->str);
  if (piped_from != NULL && paddock_policy_query_script_fd (&query) < 0)
    {
      g_autofree char *shown = display (command[0]);

      g_print ("note: %s does not read its script from a pipe, so what writes to one changes nothing\n", shown);
    }
  if (command[1] != NULL && is_launcher (command[0]))
    {
      g_autofree char *name = g_path_get_basename (command[0]);
      g_autofree char *shown = display (name);

      g_print ("note: %s starts the program it is given, and that program's exec is decided on its own, "
               "as its own command line\n", shown);
    }
  return 0;
}
