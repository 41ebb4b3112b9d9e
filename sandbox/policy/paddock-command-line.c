/* paddock-command-line.c: what a command line runs, level by level, and which decision holds
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An exec runs more command lines than the one it is given: a script's #!
 * lines, and what the loader or a multi-call binary runs without an exec
 * of its own. Each is a level, judged by the policy like the command; the
 * strictest decision holds. The exec monitor and `paddockctl policy
 * explain` both judge here.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-command-line.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The kernel reads this much of a file for its #! line (BINPRM_BUF_SIZE). */
#define SHEBANG_MAX 256

/* The interpreter runs up to a blank, and the rest of the line, trimmed,
 * is its one argument. The kernel runs the interpreter with the script's
 * arguments, so it is that command line the policy must judge too. */
gboolean
paddock_exec_read_interpreter (int    fd,
                               char **interpreter,
                               char **argument)
{
  char self_path[48];
  char line[SHEBANG_MAX + 1];
  paddock_autofd int file = -1;
  ssize_t n;
  char *p, *end, *name;

  g_snprintf (self_path, sizeof self_path, "/proc/self/fd/%d", fd);
  file = open (self_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (file < 0)
    return FALSE;
  n = pread (file, line, SHEBANG_MAX, 0);
  if (n < 2 || line[0] != '#' || line[1] != '!')
    return FALSE;
  line[n] = '\0';
  end = memchr (line, '\n', (gsize) n);
  if (end == NULL)
    end = line + n;
  *end = '\0';
  /* A NUL ends the line too, as for the kernel; then the blanks around
   * its words go. */
  end = line + strlen (line);
  while (end > line + 2 && (end[-1] == ' ' || end[-1] == '\t'))
    *--end = '\0';
  for (p = line + 2; *p == ' ' || *p == '\t'; p++)
    ;
  if (*p == '\0')
    return FALSE;
  name = p;
  while (*p != '\0' && *p != ' ' && *p != '\t')
    p++;
  if (*p != '\0')
    {
      *p++ = '\0';
      while (*p == ' ' || *p == '\t')
        p++;
    }
  *interpreter = g_strdup (name);
  *argument = *p != '\0' ? g_strdup (p) : NULL;
  return TRUE;
}

/* How much an action holds a program back: deny, then ask, then allow. */
static int
strictness (PaddockPolicyAction action)
{
  return action == PADDOCK_POLICY_ACTION_DENY ? 2 : action == PADDOCK_POLICY_ACTION_ASK ? 1 : 0;
}

PaddockPolicyQuery
paddock_exec_interpreter_query (const PaddockPolicyQuery *query,
                                const char               *interpreter,
                                const char               *argument,
                                const char               *script_path,
                                GPtrArray                *argv)
{
  PaddockPolicyQuery script = *query;

  g_ptr_array_add (argv, (char *) interpreter);
  if (argument != NULL)
    g_ptr_array_add (argv, (char *) argument);
  g_ptr_array_add (argv, (char *) script_path);
  for (guint i = 1; query->argv[0] != NULL && query->argv[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) query->argv[i]);
  g_ptr_array_add (argv, NULL);
  script.exe = interpreter;
  script.argv = (const char * const *) argv->pdata;
  script.resolved = NULL;
  return script;
}

static const char *
base_name (const char *path)
{
  const char *slash = path != NULL ? strrchr (path, '/') : NULL;

  return slash != NULL ? slash + 1 : path;
}

/* ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld-musl-x86_64.so.1,
 * ld64.so.2, ld-2.31.so, ld.so: "ld", then "-", "." or "64", and ".so"
 * with nothing but version numbers after it. */
static gboolean
is_loader (const char *path)
{
  const char *name = base_name (path);
  const char *so;

  if (name == NULL || !(g_str_has_prefix (name, "ld-") || g_str_has_prefix (name, "ld.") ||
                        g_str_has_prefix (name, "ld64.")))
    return FALSE;
  so = g_strrstr (name, ".so");
  if (so == NULL)
    return FALSE;
  so += strlen (".so");
  return *so == '\0' || (*so == '.' && so[1] != '\0' && strspn (so, ".0123456789") == strlen (so));
}

static gboolean
is_multi_call (const char *path)
{
  const char *name = base_name (path);

  return name != NULL && (g_str_has_prefix (name, "busybox") || g_str_has_prefix (name, "toybox"));
}

GPtrArray *
paddock_exec_launched_query (const PaddockPolicyQuery *query,
                             PaddockPolicyQuery       *out)
{
  /* The loader's options (glibc's and musl's); it stops at the first
   * other word, which is the program. */
  static const char * const loader_flags[] = {
    "--list", "--verify", "--inhibit-cache", "--list-tunables", "--list-diagnostics", "--help", "--version", NULL,
  };
  static const char * const loader_options[] = {
    "--library-path", "--inhibit-rpath", "--audit", "--preload", "--argv0",
    "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask", NULL,
  };
  const char * const *args = query->argv;
  const char *program = query->resolved != NULL ? query->resolved : query->exe;
  const char *argv0 = NULL;
  GPtrArray *argv;
  guint i = 1;

  if (args == NULL || args[0] == NULL || program == NULL)
    return NULL;
  if (is_loader (program) || is_loader (query->exe))
    {
      while (args[i] != NULL)
        {
          if (g_strv_contains (loader_flags, args[i]))
            i++;
          else if (g_strv_contains (loader_options, args[i]) && args[i + 1] != NULL)
            {
              if (strcmp (args[i], "--argv0") == 0)
                argv0 = args[i + 1];
              i += 2;
            }
          else
            break;
        }
    }
  /* A multi-call binary runs the applet its name says; under its own
   * name, the one its first argument says. */
  else if (!(is_multi_call (program) && is_multi_call (args[0]) && args[1] != NULL && args[1][0] != '-'))
    return NULL;
  /* An option it does not know, or one without its value, is an error. */
  if (args[i] == NULL || args[i][0] == '\0' || args[i][0] == '-')
    return NULL;

  argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) (argv0 != NULL ? argv0 : args[i]));
  for (guint j = i + 1; args[j] != NULL; j++)
    g_ptr_array_add (argv, (char *) args[j]);
  g_ptr_array_add (argv, NULL);
  *out = *query;
  out->exe = args[i];
  out->argv = (const char * const *) argv->pdata;
  out->resolved = NULL;
  return argv;
}

static void
keep_argv (GPtrArray **argvs,
           GPtrArray  *argv)
{
  if (*argvs == NULL)
    *argvs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_ptr_array_add (*argvs, argv);
}

guint
paddock_exec_level_queries (const PaddockPolicyQuery *query,
                            const char               *file,
                            GPtrArray                *shebangs,
                            GPtrArray               **argvs,
                            PaddockPolicyQuery       *levels)
{
  guint n = 0;

  levels[n++] = *query;
  for (guint i = 0; shebangs != NULL && i + 1 < shebangs->len && n < PADDOCK_EXEC_MAX_LEVELS; i += 2)
    {
      const char *interpreter = g_ptr_array_index (shebangs, i);
      GPtrArray *argv = g_ptr_array_new ();

      keep_argv (argvs, argv);
      levels[n] = paddock_exec_interpreter_query (&levels[n - 1], interpreter, g_ptr_array_index (shebangs, i + 1),
                                                  file, argv);
      n++;
      file = interpreter;
    }
  while (n < PADDOCK_EXEC_MAX_LEVELS)
    {
      GPtrArray *argv = paddock_exec_launched_query (&levels[n - 1], &levels[n]);

      if (argv == NULL)
        break;
      keep_argv (argvs, argv);
      n++;
    }
  return n;
}

PaddockPolicyAction
paddock_policy_evaluate_levels (PaddockPolicy             *policy,
                                const PaddockPolicyQuery  *levels,
                                guint                      n,
                                PaddockPolicyRule        **rule,
                                guint                     *out_level,
                                guint                     *asked)
{
  PaddockPolicyAction action = PADDOCK_POLICY_ACTION_ALLOW;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockPolicyRule) level_rule = NULL;
      PaddockPolicyAction level_action = paddock_policy_evaluate (policy, &levels[i], &level_rule);

      if (level_action == PADDOCK_POLICY_ACTION_ASK && asked != NULL)
        *asked |= 1u << i;
      /* At the same strictness a rule says more than the default: the
       * remembered answer that allows a script's #! line. */
      if (i == 0 || strictness (level_action) > strictness (action) ||
          (strictness (level_action) == strictness (action) && *rule == NULL))
        {
          action = level_action;
          g_clear_pointer (rule, paddock_policy_rule_unref);
          *rule = g_steal_pointer (&level_rule);
          if (out_level != NULL)
            *out_level = i;
        }
    }
  return action;
}
