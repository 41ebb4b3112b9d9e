/* paddock-command-line.c: what a command line runs, level by level, and which decision holds
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which program a shell, an interpreter or a wrapper (sudo, doas, env)
 * runs, and where it reads its script from, for the policy's matching.
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
#include "paddock-policy-private.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Shells, interpreters and the wrappers that run them */

static gboolean
is_shell_name (const char *name)
{
  static const char * const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", NULL };

  return g_strv_contains (shells, name);
}

/* Where the operands of a shell's @argv start (past its options), and
 * whether those options take the script from the next operand (-c) or
 * from stdin (-s). */
static guint
scan_shell_options (const char * const *argv,
                    gboolean           *has_c,
                    gboolean           *has_s)
{
  guint i;

  *has_c = *has_s = FALSE;
  for (i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0 || strcmp (arg, "-") == 0)
        {
          i++;
          break;
        }
      if ((arg[0] != '-' && arg[0] != '+') || arg[1] == '\0')
        break;
      if (arg[1] == '-')
        {
          if ((strcmp (arg, "--rcfile") == 0 || strcmp (arg, "--init-file") == 0) && argv[i + 1] != NULL)
            i++;
          continue;
        }
      for (const char *c = arg + 1; *c != '\0'; c++)
        {
          if (*c == 'c' && arg[0] == '-')
            *has_c = TRUE;
          else if (*c == 's' && arg[0] == '-')
            *has_s = TRUE;
          else if ((*c == 'o' || *c == 'O') && argv[i + 1] != NULL)
            {
              i++;
              break;
            }
        }
    }
  return i;
}

static gboolean
names_a_shell (const char * const *names,
               guint               n_names)
{
  for (guint i = 0; i < n_names; i++)
    if (is_shell_name (names[i]))
      return TRUE;
  return FALSE;
}

/* python, python3, python3.11 */
static gboolean
is_python_name (const char *name)
{
  if (!g_str_has_prefix (name, "python"))
    return FALSE;
  for (const char *c = name + strlen ("python"); *c != '\0'; c++)
    if (!g_ascii_isdigit (*c) && *c != '.')
      return FALSE;
  return TRUE;
}

static gboolean
is_other_interpreter_name (const char *name)
{
  static const char * const others[] = { "perl", "ruby", "node", "nodejs", NULL };

  return g_strv_contains (others, name);
}

/* An interpreter that runs a program given on its standard input. */
static gboolean
names_an_interpreter (const char * const *names,
                      guint               n_names)
{
  for (guint i = 0; i < n_names; i++)
    if (is_python_name (names[i]) || is_other_interpreter_name (names[i]))
      return TRUE;
  return FALSE;
}

/* The descriptor a script operand names (/dev/fd/N, /proc/self/fd/N:
 * what `bash <(curl …)` runs), or -1. */
static int
operand_fd (const char *operand)
{
  const char *digits = NULL;
  guint64 fd;
  char *end;

  if (g_str_has_prefix (operand, "/dev/fd/"))
    digits = operand + strlen ("/dev/fd/");
  else if (g_str_has_prefix (operand, "/proc/self/fd/"))
    digits = operand + strlen ("/proc/self/fd/");
  if (digits == NULL || !g_ascii_isdigit (*digits))
    return -1;
  fd = g_ascii_strtoull (digits, &end, 10);
  return *end == '\0' && fd <= G_MAXINT ? (int) fd : -1;
}

/* Where such an interpreter's @argv reads its program from, as
 * script_fd(): stdin with no program file and no option that gives the
 * program (python -c, -m; perl -e, -E; ruby -e; node -e, -p), or with
 * "-". An option's value taken for a file makes it say -1, never a
 * descriptor. */
static int
interpreter_script_fd (const char * const *argv,
                       guint              *operand)
{
  static const char * const program_options[] = {
    "-c", "-m", "-e", "-E", "-p", "--eval", "--print", NULL,
  };

  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "-") == 0)
        return STDIN_FILENO;
      if (strcmp (arg, "--") == 0)
        {
          if (argv[i + 1] == NULL || strcmp (argv[i + 1], "-") == 0)
            return STDIN_FILENO;
          *operand = i + 1;
          return operand_fd (argv[i + 1]);
        }
      if (arg[0] != '-')
        {
          *operand = i;
          return operand_fd (arg);
        }
      for (guint j = 0; program_options[j] != NULL; j++)
        if (g_str_has_prefix (arg, program_options[j]) &&
            (arg[strlen (program_options[j])] == '\0' || arg[1] != '-'))
          return -1;
    }
  return STDIN_FILENO;
}

/* Where the command that sudo, doas or env in @argv runs starts: past
 * their options (and the values of those that take one) and env's
 * NAME=VALUE words; 0 when there is none. */
static guint
wrapped_command (const char * const *argv,
                 const char         *wrapper)
{
  /* Those of sudo's and doas's options that take a value, short and long. */
  static const char valued[] = "CDghprtUuTa";
  static const char * const valued_long[] = {
    "--close-from", "--chdir", "--group", "--host", "--prompt", "--role", "--type", "--other-user",
    "--user", "--command-timeout", "--unset", "--split-string", NULL,
  };
  gboolean env = strcmp (wrapper, "env") == 0;
  guint i;

  for (i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        {
          i++;
          break;
        }
      if (arg[0] == '-' && arg[1] == '-')
        {
          if (g_strv_contains (valued_long, arg) && argv[i + 1] != NULL)
            i++;
          continue;
        }
      if (arg[0] == '-' && arg[1] != '\0')
        {
          /* -u root, -uroot; env's -u NAME, -C DIR and -S STRING too. */
          const char *value = strpbrk (arg + 1, env ? "uCS" : valued);

          if (value != NULL && value[1] == '\0' && argv[i + 1] != NULL)
            i++;
          continue;
        }
      if (env && strchr (arg, '=') != NULL)
        continue;
      break;
    }
  return argv[i] != NULL ? i : 0;
}

/* The descriptor from which @argv, a @shell or an @interpreter, reads its
 * script: for a shell, stdin with no -c, and -s or no operand, or the one
 * its operand names (/dev/fd/63); for an interpreter, as
 * interpreter_script_fd() says. Else -1. Where an operand gives the
 * script (a file, or such a descriptor), *@operand is its index. */
static int
argv_script_fd (const char * const *argv,
                gboolean            shell,
                gboolean            interpreter,
                guint              *operand)
{
  gboolean has_c, has_s;
  guint i;

  if (argv[0] == NULL)
    return -1;
  if (!shell)
    return interpreter ? interpreter_script_fd (argv, operand) : -1;
  i = scan_shell_options (argv, &has_c, &has_s);
  if (has_c)
    return -1;
  if (has_s || argv[i] == NULL)
    return STDIN_FILENO;
  *operand = i;
  return operand_fd (argv[i]);
}

int
paddock_command_line_script_fd (const char * const *argv,
                                const char * const *names,
                                guint               n_names,
                                guint              *command,
                                guint              *operand)
{
  static const char * const wrappers[] = { "sudo", "doas", "env", NULL };
  guint ignored;
  int fd;

  if (operand == NULL)
    operand = &ignored;
  *command = 0;
  *operand = 0;
  if (argv[0] == NULL)
    return -1;
  for (guint n = 0; n < n_names; n++)
    if (g_strv_contains (wrappers, names[n]))
      {
        guint i = wrapped_command (argv, names[n]);
        const char *inner;

        if (i == 0)
          return -1;
        inner = base_name (argv[i]);
        *command = i;
        fd = argv_script_fd (argv + i, is_shell_name (inner),
                             is_python_name (inner) || is_other_interpreter_name (inner), operand);
        if (*operand != 0)
          *operand += i;
        return fd;
      }
  return argv_script_fd (argv, names_a_shell (names, n_names), names_an_interpreter (names, n_names), operand);
}

gboolean
paddock_command_line_runs_given_code (const char * const *argv,
                                      const char * const *names,
                                      guint               n_names)
{
  static const char * const wrappers[] = { "sudo", "doas", "env", NULL };
  const char * const *inner = argv;
  guint command = 0, operand = 0;
  gboolean shell, interpreter;
  int fd;

  if (argv == NULL || argv[0] == NULL)
    return FALSE;
  fd = paddock_command_line_script_fd (argv, names, n_names, &command, &operand);
  /* A program from stdin or a descriptor is whatever the caller wrote. */
  if (fd >= 0)
    return TRUE;
  if (operand != 0)
    return FALSE;
  for (guint n = 0; n < n_names; n++)
    if (g_strv_contains (wrappers, names[n]))
      {
        const char *name;

        if (command == 0)
          return FALSE;
        inner = argv + command;
        name = base_name (inner[0]);
        return is_shell_name (name) || is_python_name (name) || is_other_interpreter_name (name);
      }
  shell = names_a_shell (names, n_names);
  interpreter = names_an_interpreter (names, n_names);
  /* No script file and not stdin: the program is on the command line. */
  return shell || interpreter;
}

const char *
paddock_command_line_shell_script (const char * const *argv,
                                   const char * const *names,
                                   guint               n_names)
{
  gboolean has_c, has_s;
  guint i;

  if (argv[0] == NULL || !names_a_shell (names, n_names))
    return NULL;
  i = scan_shell_options (argv, &has_c, &has_s);
  return has_c ? argv[i] : NULL;
}

/* #! lines, the loader, multi-call binaries: the levels */

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
