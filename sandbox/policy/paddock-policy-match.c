/* paddock-policy-match.c: which rule decides a command, and why
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Evaluation runs on the exec monitor's thread for every exec, so it takes
 * only a reader lock, and the rules it walks are immutable. Regexes are
 * compiled once, with PCRE2's JIT, and warmed up while still private: GLib
 * JIT-compiles a GRegex on its first match, which is not safe to race.
 */
#include "config.h"

#include "paddock-escape.h"
#include "paddock-path.h"
#include "paddock-policy-private.h"

#include <string.h>
#include <unistd.h>

/* Globs: '*' any run, '?' one character, '[…]' a set ('!' or '^' negates,
 * ranges), '\' quotes. Byte-wise and independent of the locale, so a name
 * that is not valid UTF-8 still matches predictably. In a glob for a path,
 * '*', '?' and sets never match '/'. */

static gunichar
next_char (const char **s)
{
  gunichar c = g_utf8_get_char_validated (*s, -1);

  if (c == (gunichar) -1 || c == (gunichar) -2 || (guchar) **s < 0x80)
    {
      c = (guchar) **s;
      (*s)++;
    }
  else
    *s = g_utf8_next_char (*s);
  return c;
}

static gboolean
glob_set_matches (const char **pattern,
                  gunichar     c)
{
  const char *p = *pattern + 1;
  gboolean negate = FALSE;
  gboolean found = FALSE;
  gboolean first = TRUE;

  if (*p == '!' || *p == '^')
    {
      negate = TRUE;
      p++;
    }
  while (*p != '\0' && (first || *p != ']'))
    {
      gunichar lo = next_char (&p);
      gunichar hi = lo;

      first = FALSE;
      if (*p == '-' && p[1] != ']' && p[1] != '\0')
        {
          p++;
          hi = next_char (&p);
        }
      if (lo <= c && c <= hi)
        found = TRUE;
    }
  *pattern = (*p == ']') ? p + 1 : p;
  return found != negate;
}

static gboolean
glob_match (const char *pattern,
            const char *text,
            gboolean    path)
{
  const char *star_p = NULL;
  const char *star_t = NULL;

  while (*text != '\0')
    {
      const char *t = text;
      gunichar c;

      if (*pattern == '*')
        {
          star_p = ++pattern;
          star_t = text;
          continue;
        }
      c = next_char (&t);
      if (*pattern == '?' && !(path && c == '/'))
        {
          pattern++;
          text = t;
          continue;
        }
      if (*pattern == '[' && !(path && c == '/'))
        {
          const char *p = pattern;

          if (glob_set_matches (&p, c))
            {
              pattern = p;
              text = t;
              continue;
            }
        }
      else if (*pattern != '\0' && *pattern != '?' && *pattern != '[')
        {
          const char *p = (*pattern == '\\' && pattern[1] != '\0') ? pattern + 1 : pattern;

          if (*p == *text)
            {
              pattern = p + 1;
              text++;
              continue;
            }
        }
      /* Backtrack: let the last '*' swallow one more character. */
      if (star_p == NULL || (path && *star_t == '/'))
        return FALSE;
      t = star_t;
      next_char (&t);
      star_t = t;
      text = t;
      pattern = star_p;
    }
  while (*pattern == '*')
    pattern++;
  return *pattern == '\0';
}

static const char * const empty_argv[] = { NULL };

void
paddock_policy_match_init (Match                    *m,
                           const PaddockPolicyQuery *query)
{
  memset (m, 0, sizeof *m);
  m->own = *query;
  if (m->own.argv == NULL)
    m->own.argv = empty_argv;
  m->query = query = &m->own;
  if (query->exe != NULL && *base_name (query->exe) != '\0')
    {
      m->paths[m->n_names] = query->exe;
      m->names[m->n_names++] = base_name (query->exe);
    }
  if (query->argv[0] != NULL)
    {
      const char *name = base_name (query->argv[0]);

      if (*name == '-')
        name++;
      if (*name != '\0')
        {
          m->paths[m->n_names] = strchr (query->argv[0], '/') ? query->argv[0] : NULL;
          m->names[m->n_names++] = name;
        }
    }
  m->resolved_slot = G_MAXUINT;
  if (query->resolved != NULL && *base_name (query->resolved) != '\0' &&
      g_strcmp0 (query->resolved, query->exe) != 0)
    {
      m->resolved_slot = m->n_names;
      m->paths[m->n_names] = query->resolved;
      m->names[m->n_names++] = base_name (query->resolved);
    }
}

void
paddock_policy_match_clear (Match *m)
{
  if (m->line != NULL)
    g_string_free (m->line, TRUE);
  if (m->piped != NULL)
    g_string_free (m->piped, TRUE);
  g_free (m->downloaded);
}

const char *
paddock_policy_match_line (Match *m)
{
  if (m->line == NULL)
    {
      m->line = g_string_new (NULL);
      for (guint i = 0; m->query->argv[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (m->line, ' ');
          g_string_append (m->line, m->query->argv[i]);
        }
    }
  return m->line->str;
}

/* As paddock_command_line_script_fd() for @m's command. */
static int
script_fd_operand (const Match *m,
                   guint       *command,
                   guint       *operand)
{
  return paddock_command_line_script_fd (m->query->argv, m->names, m->n_names, command, operand);
}

static int
script_fd (const Match *m,
           guint       *command)
{
  return script_fd_operand (m, command, NULL);
}

int
paddock_policy_query_script_fd (const PaddockPolicyQuery *query)
{
  Match m;
  guint command;
  int fd;

  g_return_val_if_fail (query != NULL, -1);

  paddock_policy_match_init (&m, query);
  fd = script_fd (&m, &command);
  paddock_policy_match_clear (&m);
  return fd;
}

guint
paddock_policy_query_script_operand (const PaddockPolicyQuery *query)
{
  Match m;
  guint command;
  guint operand = 0;
  int fd;

  g_return_val_if_fail (query != NULL, 0);

  paddock_policy_match_init (&m, query);
  fd = script_fd_operand (&m, &command, &operand);
  paddock_policy_match_clear (&m);
  return fd < 0 ? operand : 0;
}

/* The SCRIPT of `sh [options] -c SCRIPT [name [args…]]`, or NULL. */
static const char *
shell_c_script (const Match *m)
{
  return paddock_command_line_shell_script (m->query->argv, m->names, m->n_names);
}

/* The SCRIPT of `sh [options] -c SCRIPT [name [args…]]`; for a shell (or
 * python, perl, ruby, node, or one that sudo, doas or env runs) that reads
 * its script from a pipe (its stdin, or one its operand names: `bash
 * <(curl …)`) whose writer is known (@stdin_from), the pipeline `WRITER |
 * SHELL`, which is what a script rule is about; or NULL. */
const char *
paddock_policy_match_script (Match *m)
{
  const char * const *argv = m->query->argv;
  guint i;

  if (m->script_done)
    return m->script;
  m->script_done = TRUE;

  m->script = shell_c_script (m);
  if (m->script != NULL)
    return m->script;
  if (m->query->stdin_from != NULL && script_fd (m, &i) >= 0)
    {
      /* What reads the script: for sudo -E bash -, bash -. */
      m->piped = g_string_new (m->query->stdin_from);
      g_string_append (m->piped, " |");
      for (; argv[i] != NULL; i++)
        {
          g_string_append_c (m->piped, ' ');
          g_string_append (m->piped, argv[i]);
        }
      m->script = m->piped->str;
    }
  return m->script;
}

static gboolean
path_inside (const char *path,
             const char *project)
{
  return project != NULL && paddock_path_is_within (path, project);
}

/* @path is the project root or one of its ancestors. */
static gboolean
path_is_root_or_above (const char *path,
                       const char *project)
{
  if (project == NULL)
    return strcmp (path, "/") == 0;
  return path_inside (project, path);
}

static const char *
match_cwd (Match *m)
{
  if (!m->cwd_done)
    {
      m->cwd_done = TRUE;
      m->cwd = m->query->cwd;
      if (m->cwd == NULL && m->query->cwd_func != NULL)
        m->cwd = m->query->cwd_func (m->query->cwd_data);
    }
  return m->cwd;
}

static gboolean
cwd_inside (Match *m)
{
  const char *cwd = match_cwd (m);

  return cwd != NULL && g_path_is_absolute (cwd) && path_inside (cwd, m->query->project);
}

static void
match_paths (Match *m)
{
  const char * const *argv = m->query->argv;
  gboolean options = TRUE;

  if (m->paths_done)
    return;
  m->paths_done = TRUE;
  if (argv[0] == NULL)
    return;

  for (guint i = 1; argv[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      const char *arg = argv[i];

      if (options && strcmp (arg, "--") == 0)
        {
          options = FALSE;
          continue;
        }
      if ((options && arg[0] == '-' && arg[1] != '\0') || arg[0] == '\0')
        continue;
      m->n_paths++;
      path = paddock_path_resolve (arg, g_path_is_absolute (arg) ? NULL : match_cwd (m));
      if (path == NULL)
        {
          /* Relative to a directory we do not know: count it as outside. */
          if (!m->any_outside)
            m->outside_arg = arg;
          m->any_outside = TRUE;
          continue;
        }
      if (!path_inside (path, m->query->project) && !m->any_outside)
        {
          m->any_outside = TRUE;
          m->outside_arg = arg;
        }
      if (path_is_root_or_above (path, m->query->project) && !m->any_root)
        {
          m->any_root = TRUE;
          m->root_arg = arg;
        }
      if (m->query->home != NULL && path_inside (m->query->home, path) && !m->any_home)
        {
          m->any_home = TRUE;
          m->home_arg = arg;
        }
    }
}

/* Whether @candidate, a path the command runs, was downloaded in the
 * session; remembers it in @m if so. */
static gboolean
downloaded_path (Match      *m,
                 const char *candidate)
{
  g_autofree char *path = NULL;

  if (candidate == NULL || candidate[0] == '\0')
    return FALSE;
  path = paddock_path_resolve (candidate, g_path_is_absolute (candidate) ? NULL : match_cwd (m));
  if (path == NULL || !m->query->downloaded_func (path, m->query->downloaded_data))
    return FALSE;
  m->downloaded = g_steal_pointer (&path);
  return TRUE;
}

/* How many files sourced in one script are looked up. */
#define SOURCED_MAX 64

/* Whether @script, a shell's `-c` script, reads a downloaded file with
 * `source FILE` or `. FILE`, builtins that run it with no exec of its own
 * (`eval 'source i.sh'` too). Read loosely, as words: a command starts
 * after ; & | ( { ` or a newline, or after then, do, else, elif, eval, !
 * or time; quotes around the file are dropped. A separator inside quotes
 * is taken for one, which can only look up one more file. */
static gboolean
downloaded_sourced (Match      *m,
                    const char *script)
{
  static const char separators[] = ";&|({`\n";
  static const char * const keeps_start[] = { "then", "do", "else", "elif", "eval", "!", "time", NULL };
  gboolean command_start = TRUE;
  guint looked = 0;

  for (const char *p = script; *p != '\0' && looked < SOURCED_MAX;)
    {
      gsize length;

      if (strchr (separators, *p) != NULL)
        {
          command_start = TRUE;
          p++;
          continue;
        }
      if (g_ascii_isspace (*p) || (command_start && (*p == '\'' || *p == '"')))
        {
          p++;
          continue;
        }
      length = strcspn (p, " \t\n;&|(){}`'\"<>");
      if (length == 0)
        {
          /* ) } < > or a quote within a command. */
          command_start = FALSE;
          p++;
          continue;
        }
      if (command_start && ((length == 6 && strncmp (p, "source", 6) == 0) || (length == 1 && *p == '.')))
        {
          const char *file = p + length;
          char quote = 0;
          g_autofree char *name = NULL;

          while (*file == ' ' || *file == '\t')
            file++;
          if (*file == '\'' || *file == '"')
            quote = *file++;
          length = quote != 0 ? strcspn (file, quote == '\'' ? "'" : "\"")
                              : strcspn (file, " \t\n;&|(){}`'\"<>");
          name = g_strndup (file, length);
          looked++;
          if (downloaded_path (m, name))
            return TRUE;
          p = file + length;
          command_start = FALSE;
          continue;
        }
      if (command_start)
        {
          g_autofree char *word = g_strndup (p, length);

          command_start = g_strv_contains (keeps_start, word);
        }
      p += length;
    }
  return FALSE;
}

/* Whether the file that runs was saved by a download earlier in the
 * session: the executable (as run, or resolved), the script file a shell
 * or an interpreter is given, or one a shell's -c script sources. */
static gboolean
match_downloaded (Match *m)
{
  guint command, operand;
  const char *script;

  if (m->downloaded_done)
    return m->downloaded != NULL;
  m->downloaded_done = TRUE;
  if (m->query->downloaded_func == NULL)
    return FALSE;
  if (downloaded_path (m, m->query->exe) || downloaded_path (m, m->query->resolved))
    return TRUE;
  if (script_fd_operand (m, &command, &operand) < 0 && operand != 0)
    return downloaded_path (m, m->query->argv[operand]);
  script = shell_c_script (m);
  return script != NULL && downloaded_sourced (m, script);
}

char *
paddock_policy_query_downloaded (const PaddockPolicyQuery *query)
{
  Match m;
  char *path;

  g_return_val_if_fail (query != NULL, NULL);

  paddock_policy_match_init (&m, query);
  match_downloaded (&m);
  path = g_steal_pointer (&m.downloaded);
  paddock_policy_match_clear (&m);
  return path;
}

/* A regex that fails to run (PCRE's match limits) counts as matching for
 * ask and deny rules and as not matching for allow rules: an error must
 * never make the policy more permissive. */
static gboolean
regex_holds (PaddockPolicyRule *rule,
             GRegex            *regex,
             const char        *text,
             gboolean          *gave_up)
{
  g_autoptr(GError) error = NULL;

  *gave_up = FALSE;
  if (g_regex_match_full (regex, text, -1, 0, 0, NULL, &error))
    return TRUE;
  if (error != NULL)
    {
      *gave_up = TRUE;
      return rule->action != PADDOCK_POLICY_ACTION_ALLOW;
    }
  return FALSE;
}

/* What explain says of a regex's verdict on @text (quoted before it). */
static void
append_regex_verdict (GString    *why,
                      GRegex     *regex,
                      gboolean    holds,
                      gboolean    gave_up)
{
  if (gave_up)
    g_string_append_printf (why, " could not be matched against /%s/ (it hit PCRE's match limit), "
                            "which %s\n", g_regex_get_pattern (regex),
                            holds ? "an ask or deny rule counts as a match" : "an allow rule counts as no match");
  else
    g_string_append_printf (why, " %s /%s/\n", holds ? "matches" : "does not match", g_regex_get_pattern (regex));
}

/* Each name is matched by the globs without a '/'; its path (the executed
 * path for the executable's name, argv[0] when it holds a '/') by those
 * with one. A deny or ask rule holds when any name or path matches; an
 * allow rule only when every name that some glob can speak to matches. */
static gboolean
program_holds (PaddockPolicyRule *rule,
               Match             *m,
               const char       **out_name,
               const char       **out_glob)
{
  gboolean all = (rule->action == PADDOCK_POLICY_ACTION_ALLOW);
  guint n_matched = 0;

  for (guint i = 0; i < m->n_names; i++)
    {
      gboolean matched = FALSE;
      gboolean applicable = FALSE;

      if (all && i == m->resolved_slot)
        continue;
      for (guint g = 0; rule->programs[g] != NULL && !matched; g++)
        {
          const char *glob = rule->programs[g];
          gboolean path_glob = (strchr (glob, '/') != NULL);
          const char *subject = path_glob ? m->paths[i] : m->names[i];

          if (subject == NULL)
            continue;
          applicable = TRUE;
          matched = glob_match (glob, subject, path_glob);
          if (matched && out_glob != NULL)
            {
              *out_glob = glob;
              *out_name = subject;
            }
        }
      if (matched)
        {
          n_matched++;
          if (!all)
            return TRUE;
        }
      else if (applicable && all)
        return FALSE;
    }
  return n_matched > 0;
}

static void
append_quoted (GString    *out,
               const char *bytes)
{
  g_autofree char *shown = paddock_escape_for_display (bytes, -1);

  g_string_append_printf (out, "\"%s\"", shown);
}

/* Whether @rule matches; with @why, says why (each key that holds), or
 * which key fails. */
static gboolean
rule_matches (PaddockPolicyRule *rule,
              Match             *m,
              GString           *why)
{
  /* First: for every other exec it is the only key looked at. */
  if (rule->unlinked)
    {
      if (why != NULL)
        g_string_append_printf (why, "unlinked: the file that runs %s\n",
                                m->query->unlinked ? "is in memory or deleted, with no name in any folder"
                                                   : "has a name in a folder");
      if (!m->query->unlinked)
        return FALSE;
    }

  if (rule->programs != NULL)
    {
      const char *name = NULL, *glob = NULL;

      if (!program_holds (rule, m, &name, &glob))
        {
          if (why != NULL)
            {
              g_autofree char *globs = g_strjoinv ("\", \"", rule->programs);

              g_string_append (why, "program ");
              append_quoted (why, m->n_names ? m->names[0] : "");
              g_string_append_printf (why, " does not match \"%s\"%s\n", globs,
                                      rule->action == PADDOCK_POLICY_ACTION_ALLOW &&
                                      m->n_names - (m->resolved_slot != G_MAXUINT) > 1
                                      ? " (an allow rule needs the executable's and argv[0]'s names to match)" : "");
            }
          return FALSE;
        }
      if (why != NULL)
        {
          g_string_append (why, "program ");
          append_quoted (why, name);
          g_string_append_printf (why, " matches \"%s\"\n", glob);
        }
    }

  if (rule->cwd != WHERE_ANY)
    {
      gboolean inside = cwd_inside (m);
      gboolean holds = (rule->cwd == WHERE_INSIDE) == inside;

      if (why != NULL)
        {
          const char *cwd = match_cwd (m);

          g_string_append (why, "cwd ");
          append_quoted (why, cwd != NULL ? cwd : "(unknown)");
          g_string_append_printf (why, " is %s the project, and the rule wants it %s\n",
                                  inside ? "inside" : "outside",
                                  rule->cwd == WHERE_INSIDE ? "inside" : "outside");
        }
      if (!holds)
        return FALSE;
    }

  if (rule->paths != WHERE_ANY)
    {
      gboolean holds;
      const char *said;
      const char *which = NULL;    /* the argument that says so */

      match_paths (m);
      switch (rule->paths)
        {
        case WHERE_INSIDE:
          holds = m->n_paths > 0 && !m->any_outside;
          said = holds ? "every path argument is inside the project"
                       : (m->n_paths == 0 ? "there is no path argument" : "a path argument is outside the project");
          which = holds ? NULL : m->outside_arg;
          break;
        case WHERE_OUTSIDE:
          holds = m->any_outside;
          said = holds ? "a path argument is outside the project" : "no path argument is outside the project";
          which = m->outside_arg;
          break;
        case WHERE_HOME:
          holds = m->any_home;
          said = holds ? "a path argument is the home folder or above it"
                       : "no path argument is the home folder or above it";
          which = m->home_arg;
          break;
        case WHERE_PROJECT_ROOT:
        default:
          holds = m->any_root;
          said = holds ? "a path argument is the project root or above it"
                       : "no path argument is the project root or above it";
          which = m->root_arg;
          break;
        }
      if (why != NULL)
        {
          g_string_append_printf (why, "paths: %s", said);
          if (which != NULL)
            {
              g_string_append (why, ": ");
              append_quoted (why, which);
            }
          g_string_append_c (why, '\n');
        }
      if (!holds)
        return FALSE;
    }

  if (rule->downloaded)
    {
      gboolean holds = match_downloaded (m);

      if (why != NULL)
        {
          if (holds)
            {
              g_string_append (why, "downloaded: it runs ");
              append_quoted (why, m->downloaded);
              g_string_append (why, ", which a download saved earlier in the session\n");
            }
          else if (m->query->downloaded_func == NULL)
            g_string_append (why, "downloaded: nothing was downloaded in the session\n");
          else
            g_string_append (why, "downloaded: no file it runs was saved by a download in the session\n");
        }
      if (!holds)
        return FALSE;
    }

  if (rule->argv_regex != NULL)
    {
      const char *line = paddock_policy_match_line (m);
      gboolean gave_up;
      gboolean holds = regex_holds (rule, rule->argv_regex, line, &gave_up);

      if (why != NULL)
        {
          g_string_append (why, "argv ");
          append_quoted (why, line);
          append_regex_verdict (why, rule->argv_regex, holds, gave_up);
        }
      if (!holds)
        return FALSE;
    }

  if (rule->script_regex != NULL)
    {
      const char *script = paddock_policy_match_script (m);
      gboolean gave_up = FALSE;
      gboolean holds = script != NULL && regex_holds (rule, rule->script_regex, script, &gave_up);

      if (why != NULL)
        {
          if (script == NULL)
            g_string_append (why, "script: the command is not `sh -c SCRIPT` or a similar shell\n");
          else
            {
              g_string_append (why, "script ");
              append_quoted (why, script);
              append_regex_verdict (why, rule->script_regex, holds, gave_up);
            }
        }
      if (!holds)
        return FALSE;
    }
  return TRUE;
}

PaddockPolicyAction
paddock_policy_evaluate (PaddockPolicy             *self,
                         const PaddockPolicyQuery  *query,
                         PaddockPolicyRule        **out_rule)
{
  PaddockPolicyRule *decided = NULL;
  PaddockPolicyAction action;
  Match m;

  if (out_rule != NULL)
    *out_rule = NULL;
  g_return_val_if_fail (self != NULL, PADDOCK_POLICY_ACTION_DENY);
  g_return_val_if_fail (query != NULL, PADDOCK_POLICY_ACTION_DENY);

  paddock_policy_match_init (&m, query);

  g_rw_lock_reader_lock (&self->lock);
  {
    /* The rules that name one of the command's programs, and those that
     * name none outright, in the policy's order: first match wins. */
    GArray *lists[G_N_ELEMENTS (m.names) + 1];
    guint at[G_N_ELEMENTS (lists)] = { 0 };
    guint n_lists = 0;

    lists[n_lists++] = self->unindexed;
    for (guint i = 0; i < m.n_names; i++)
      {
        GArray *indices = g_hash_table_lookup (self->by_name, m.names[i]);
        gboolean listed = FALSE;

        for (guint j = 0; j < i; j++)
          listed |= strcmp (m.names[j], m.names[i]) == 0;
        if (indices != NULL && !listed)
          lists[n_lists++] = indices;
      }
    while (decided == NULL)
      {
        guint next = G_MAXUINT;

        for (guint l = 0; l < n_lists; l++)
          if (at[l] < lists[l]->len)
            next = MIN (next, g_array_index (lists[l], guint, at[l]));
        if (next == G_MAXUINT)
          break;
        for (guint l = 0; l < n_lists; l++)
          if (at[l] < lists[l]->len && g_array_index (lists[l], guint, at[l]) == next)
            at[l]++;
        if (rule_matches (g_ptr_array_index (self->rules, next), &m, NULL))
          decided = g_ptr_array_index (self->rules, next);
      }
  }
  action = decided ? decided->action : self->default_action;
  if (decided != NULL && out_rule != NULL)
    *out_rule = paddock_policy_rule_ref (decided);
  g_rw_lock_reader_unlock (&self->lock);

  paddock_policy_match_clear (&m);
  return action;
}

char *
paddock_policy_explain (PaddockPolicy            *self,
                        const PaddockPolicyQuery *query)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) skipped = g_string_new (NULL);
  PaddockPolicyRule *decided = NULL;
  Match m;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  paddock_policy_match_init (&m, query);

  g_string_append (out, "command: ");
  append_quoted (out, paddock_policy_match_line (&m));
  g_string_append_c (out, '\n');
  if (query->exe != NULL)
    {
      g_string_append (out, "executable: ");
      append_quoted (out, query->exe);
      g_string_append_c (out, '\n');
    }
  if (query->resolved != NULL && g_strcmp0 (query->resolved, query->exe) != 0)
    {
      g_string_append (out, "which is: ");
      append_quoted (out, query->resolved);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "project: ");
  append_quoted (out, query->project ? query->project : "(none)");
  g_string_append_c (out, '\n');
  /* Where it runs, where that is not the project: relative path
   * arguments are read from there. */
  if (query->cwd != NULL && g_strcmp0 (query->cwd, query->project) != 0)
    {
      g_string_append (out, "cwd: ");
      append_quoted (out, query->cwd);
      g_string_append_c (out, '\n');
    }

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->rules->len && decided == NULL; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);
      g_autoptr(GString) why = g_string_new (NULL);

      if (rule_matches (rule, &m, why))
        {
          decided = rule;
          g_string_append_printf (out, "decision: %s, by rule \"%s\" (%s, %s)\n",
                                  paddock_policy_action_to_string (rule->action), rule->name,
                                  rule->origin, paddock_policy_scope_to_string (rule->scope));
          if (rule->reason != NULL)
            g_string_append_printf (out, "reason: %s\n", rule->reason);
          if (why->len == 0)
            g_string_append (out, "because: the rule matches every command\n");
          else
            {
              g_auto(GStrv) lines = g_strsplit (why->str, "\n", -1);

              for (guint j = 0; lines[j] != NULL && *lines[j] != '\0'; j++)
                g_string_append_printf (out, "because: %s\n", lines[j]);
            }
        }
      else if (rule->programs != NULL ? program_holds (rule, &m, NULL, NULL)
                                      : ((rule->script_regex == NULL || paddock_policy_match_script (&m) != NULL) &&
                                         (!rule->downloaded || query->downloaded_func != NULL) &&
                                         (!rule->unlinked || query->unlinked)))
        {
          g_auto(GStrv) lines = g_strsplit (why->str, "\n", -1);
          guint n = g_strv_length (lines);

          /* The last line said is the key that failed. */
          while (n > 0 && *lines[n - 1] == '\0')
            n--;
          g_string_append_printf (skipped, "  \"%s\" (%s, would %s): %s\n", rule->name, rule->origin,
                                  paddock_policy_action_to_string (rule->action),
                                  n > 0 ? lines[n - 1] : "does not match");
        }
    }
  if (decided == NULL)
    g_string_append_printf (out, "decision: %s, by the policy's default (no rule matches)\n",
                            paddock_policy_action_to_string (self->default_action));
  g_rw_lock_reader_unlock (&self->lock);

  if (skipped->len > 0)
    {
      g_string_append (out, "earlier rules for this program that do not apply:\n");
      g_string_append (out, skipped->str);
    }
  paddock_policy_match_clear (&m);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
