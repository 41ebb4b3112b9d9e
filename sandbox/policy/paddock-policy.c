/* paddock-policy.c: which programs the agent may run: allow, ask or deny, by rule
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib parses the file and reports syntax errors with their line and
 * column. It does not keep positions for the nodes it builds, so before it
 * runs, a small scanner of our own walks the same text and records where
 * every value and object key starts; semantic errors ("unknown key",
 * "bad regex") look their node up there. The scanner also caps the nesting
 * depth, because json-glib's parser recurses without a limit.
 *
 * Evaluation runs on the exec monitor's thread for every exec, so it takes
 * only a reader lock, and the rules it walks are immutable. Regexes are
 * compiled once, with PCRE2's JIT, and warmed up while still private: GLib
 * JIT-compiles a GRegex on its first match, which is not safe to race.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-json-text.h"
#include "paddock-path.h"
#include "paddock-policy.h"
#include "paddock-project-store.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define MAX_POLICY_SIZE (16 * 1024 * 1024)
/* A rule's name and reason go with each exec it decides. */
#define MAX_RULE_NAME 128
#define MAX_RULE_REASON 4096
#define MAX_DEPTH 32

/* What a string decoded to bytes that are not UTF-8 is told: other
 * escapes that would do that are refused before json-glib reads them. */
#define NOT_A_CHARACTER "holds a \\u escape that is not a character (half of a UTF-16 pair)"

extern GResource *paddock_policy_get_resource (void);

G_DEFINE_QUARK (paddock-policy-error-quark, paddock_policy_error)

typedef enum
{
  WHERE_ANY,
  WHERE_INSIDE,
  WHERE_OUTSIDE,
  WHERE_PROJECT_ROOT,
  WHERE_HOME,
} Where;

struct _PaddockPolicyRule
{
  gatomicrefcount      ref_count;
  char                *name;
  char                *reason;
  char                *origin;
  PaddockPolicyAction  action;
  PaddockPolicyScope   scope;
  char               **programs;  /* globs, or NULL for any program */
  GRegex              *argv_regex;
  GRegex              *script_regex;
  Where                cwd;
  Where                paths;
  gboolean             downloaded;
  JsonNode            *match;     /* as written, for paddock_policy_to_data() */
};

struct _PaddockPolicy
{
  gatomicrefcount      ref_count;
  GRWLock              lock;
  GPtrArray           *rules;
  /* Which rules a command can match, from its program's names: most
   * rules name their programs outright, and most commands are none of
   * them. Rebuilt whenever the rules change, under the lock. */
  GHashTable          *by_name;     /* literal program name → GArray of rule indices, ascending */
  GArray              *unindexed;   /* indices of the rules any program may match */
  PaddockPolicyAction  default_action;
  gboolean             default_set;
  /* Before a project's overrides took theirs: for when they no longer do. */
  gboolean             merged;
  PaddockPolicyAction  own_default_action;
  gboolean             own_default_set;
  char                *project;
};

const char *
paddock_policy_action_to_string (PaddockPolicyAction action)
{
  switch (action)
    {
    case PADDOCK_POLICY_ACTION_ALLOW:
      return "allow";
    case PADDOCK_POLICY_ACTION_ASK:
      return "ask";
    case PADDOCK_POLICY_ACTION_DENY:
      return "deny";
    default:
      g_return_val_if_reached ("deny");
    }
}

gboolean
paddock_policy_action_from_string (const char          *text,
                                   PaddockPolicyAction *out_action)
{
  PaddockPolicyAction action;

  if (g_strcmp0 (text, "allow") == 0)
    action = PADDOCK_POLICY_ACTION_ALLOW;
  else if (g_strcmp0 (text, "ask") == 0)
    action = PADDOCK_POLICY_ACTION_ASK;
  else if (g_strcmp0 (text, "deny") == 0)
    action = PADDOCK_POLICY_ACTION_DENY;
  else
    return FALSE;
  if (out_action != NULL)
    *out_action = action;
  return TRUE;
}

const char *
paddock_policy_scope_to_string (PaddockPolicyScope scope)
{
  switch (scope)
    {
    case PADDOCK_POLICY_SCOPE_POLICY:
      return "policy";
    case PADDOCK_POLICY_SCOPE_SESSION:
      return "session";
    case PADDOCK_POLICY_SCOPE_PROJECT:
      return "project";
    default:
      g_return_val_if_reached ("policy");
    }
}

/* Positions of the JSON text's values */

typedef struct _Pos Pos;
struct _Pos
{
  guint       line;
  guint       column;
  guint       key_line;     /* of the member's key, when this is an object member */
  guint       key_column;
  GHashTable *members;      /* decoded key → Pos*, for objects */
  GPtrArray  *elements;     /* Pos*, for arrays */
};

static void
pos_free (gpointer data)
{
  Pos *pos = data;

  g_clear_pointer (&pos->members, g_hash_table_unref);
  g_clear_pointer (&pos->elements, g_ptr_array_unref);
  g_free (pos);
}

typedef struct
{
  const char *text;
  const char *end;
  const char *p;
  guint       line;
  const char *line_start;
  const char *error_at;     /* where the text is refused before json-glib reads it */
  char        error[256];   /* and why */
} Scanner;

/* Columns count characters from 1, as editors show them. */
static void
scanner_position (Scanner    *s,
                  const char *at,
                  guint      *line,
                  guint      *column)
{
  const char *q;
  guint col = 1;

  for (q = s->line_start; q < at; q++)
    if (((guchar) *q & 0xc0) != 0x80)
      col++;
  *line = s->line;
  *column = col;
}

static void
scanner_advance (Scanner *s)
{
  if (*s->p == '\n')
    {
      s->line++;
      s->line_start = s->p + 1;
    }
  s->p++;
}

/* json-glib 1.6 (GScanner, with "//" as its single-line comment pair)
 * takes any text from one '/' to the next as a comment: a C comment is
 * one, unless it holds a '/' itself, and so is "/ … /". */
static void
scanner_skip_blank (Scanner *s)
{
  while (s->p < s->end)
    {
      if (g_ascii_isspace (*s->p))
        scanner_advance (s);
      else if (*s->p == '/')
        {
          scanner_advance (s);
          while (s->p < s->end && *s->p != '/')
            scanner_advance (s);
          if (s->p < s->end)
            scanner_advance (s);
        }
      else
        break;
    }
}

/* Refuses the text at @at, for @format's reason; returns NULL. */
static char *scanner_refuse (Scanner    *s,
                             const char *at,
                             const char *format,
                             ...) G_GNUC_PRINTF (3, 4);

static char *
scanner_refuse (Scanner    *s,
                const char *at,
                const char *format,
                ...)
{
  va_list args;

  va_start (args, format);
  g_vsnprintf (s->error, sizeof s->error, format, args);
  va_end (args);
  s->error_at = at;
  return NULL;
}

/* Reads a quoted string at s->p and returns it decoded, or NULL (with
 * s->error_at set where the string has an escape JSON does not). */
static char *
scanner_string (Scanner *s)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char quote = *s->p;

  scanner_advance (s);
  while (s->p < s->end && *s->p != quote)
    {
      if (*s->p == '\\' && s->p + 1 < s->end)
        {
          const char *at = s->p;
          char c = s->p[1];
          guint unit = 0;

          /* json-glib 1.6 reads "\101" as octal and "\q" as "q", and leaks
           * on a short "\u": JSON has none of them. */
          if (strchr ("\"\\/bfnrtu'", c) == NULL || c == '\0')
            return scanner_refuse (s, at, "\"\\%c\" is not a JSON escape", g_ascii_isprint (c) ? c : '?');
          if (c == 'u' && !paddock_json_read_hex4 (at + 2, s->end, &unit))
            return scanner_refuse (s, at, "a \"\\u\" escape needs four hex digits");
          if (c == 'u' && unit == 0)
            return scanner_refuse (s, at, "\"\\u0000\", a NUL character, cannot be in a string");
          scanner_advance (s);
          scanner_advance (s);
          switch (c)
            {
            case 'n': g_string_append_c (out, '\n'); break;
            case 't': g_string_append_c (out, '\t'); break;
            case 'r': g_string_append_c (out, '\r'); break;
            case 'b': g_string_append_c (out, '\b'); break;
            case 'f': g_string_append_c (out, '\f'); break;
            case 'u':
              {
                gunichar u = unit;

                for (int i = 0; i < 4; i++)
                  scanner_advance (s);
                if ((u >= 0xdc00 && u < 0xe000) ||
                    (u >= 0xd800 && u < 0xdc00 && !(s->end - s->p >= 6 && s->p[0] == '\\' && s->p[1] == 'u')))
                  return scanner_refuse (s, at, "\"\\u%04x\" is half of a UTF-16 pair, alone", u);
                if (u >= 0xd800 && u < 0xdc00)
                  {
                    guint low = 0;

                    if (!paddock_json_read_hex4 (s->p + 2, s->end, &low))
                      return scanner_refuse (s, s->p, "a \"\\u\" escape needs four hex digits");
                    /* The "\u" and its four digits. */
                    for (int i = 0; i < 6; i++)
                      scanner_advance (s);
                    if (low < 0xdc00 || low >= 0xe000)
                      return scanner_refuse (s, at, "\"\\u%04x\" is half of a UTF-16 pair, alone", u);
                    u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
                  }
                if (g_unichar_validate (u))
                  g_string_append_unichar (out, u);
              }
              break;
            default:
              g_string_append_c (out, c);
              break;
            }
        }
      else
        {
          g_string_append_c (out, *s->p);
          scanner_advance (s);
        }
    }
  if (s->p >= s->end)
    return NULL;
  scanner_advance (s);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Checks the escapes of every string from s->p on, token by token,
 * however broken the structure around them: json-glib 1.6 misreads or
 * leaks on some escapes wherever they are, even after a syntax error it
 * is about to report. Sets s->error_at at the first bad one. */
static void
scanner_check_strings (Scanner *s)
{
  while (s->p < s->end)
    {
      if (*s->p == '"' || *s->p == '\'')
        {
          g_autofree char *str = scanner_string (s);

          if (str == NULL)
            return;
        }
      else if (*s->p == '/')
        scanner_skip_blank (s);
      else
        scanner_advance (s);
    }
}

static Pos *scanner_value (Scanner *s, guint depth);

static Pos *
scanner_container (Scanner *s,
                   Pos     *pos,
                   guint    depth)
{
  gboolean object = (*s->p == '{');
  char close = object ? '}' : ']';

  if (depth >= MAX_DEPTH)
    {
      scanner_refuse (s, s->p, "JSON nested deeper than %d levels", MAX_DEPTH);
      pos_free (pos);
      return NULL;
    }
  if (object)
    pos->members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, pos_free);
  else
    pos->elements = g_ptr_array_new_with_free_func (pos_free);
  scanner_advance (s);

  for (;;)
    {
      Pos *child;

      scanner_skip_blank (s);
      if (s->p >= s->end)
        break;
      if (*s->p == close)
        {
          scanner_advance (s);
          return pos;
        }
      if (*s->p == ',')
        {
          scanner_advance (s);
          continue;
        }
      if (object)
        {
          g_autofree char *key = NULL;
          guint key_line, key_column;

          if (*s->p != '"' && *s->p != '\'')
            break;
          scanner_position (s, s->p, &key_line, &key_column);
          key = scanner_string (s);
          if (key == NULL)
            break;
          scanner_skip_blank (s);
          if (s->p >= s->end || *s->p != ':')
            break;
          scanner_advance (s);
          child = scanner_value (s, depth + 1);
          if (child == NULL)
            break;
          child->key_line = key_line;
          child->key_column = key_column;
          g_hash_table_replace (pos->members, g_steal_pointer (&key), child);
        }
      else
        {
          child = scanner_value (s, depth + 1);
          if (child == NULL)
            break;
          g_ptr_array_add (pos->elements, child);
        }
    }
  pos_free (pos);
  return NULL;
}

/* Returns NULL when the text is not something it can follow; json-glib then
 * says what is wrong with it. */
static Pos *
scanner_value (Scanner *s,
               guint    depth)
{
  Pos *pos;

  scanner_skip_blank (s);
  if (s->p >= s->end)
    return NULL;
  pos = g_new0 (Pos, 1);
  scanner_position (s, s->p, &pos->line, &pos->column);

  if (*s->p == '{' || *s->p == '[')
    return scanner_container (s, pos, depth);
  if (*s->p == '"' || *s->p == '\'')
    {
      g_autofree char *str = scanner_string (s);

      if (str == NULL)
        {
          pos_free (pos);
          return NULL;
        }
      return pos;
    }
  if (strchr ("}],:", *s->p) != NULL)
    {
      pos_free (pos);
      return NULL;
    }
  {
    const char *start = s->p;

    while (s->p < s->end && !g_ascii_isspace (*s->p) && strchr ("{}[],:\"'/", *s->p) == NULL)
      scanner_advance (s);
    if (s->p == start)
      {
        /* Something no value starts with (a lone '/'): let json-glib say what. */
        pos_free (pos);
        return NULL;
      }
    /* json-glib's own words for these are GScanner's ("digit is beyond
     * radix" for a '$'), and it has leaked on some of them. */
    if (!paddock_json_is_literal (start, s->p - start))
      {
        g_autofree char *reason = paddock_json_describe_bad_value (start, s->p - start);

        pos_free (pos);
        scanner_refuse (s, start, "%s", reason);
        return NULL;
      }
  }
  return pos;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Pos, pos_free)

static Pos *
pos_member (Pos        *pos,
            const char *key)
{
  if (pos == NULL || pos->members == NULL)
    return NULL;
  return g_hash_table_lookup (pos->members, key);
}

static Pos *
pos_element (Pos   *pos,
             guint  index)
{
  if (pos == NULL || pos->elements == NULL || index >= pos->elements->len)
    return NULL;
  return g_ptr_array_index (pos->elements, index);
}

/* Parsing and checking */

typedef struct
{
  const char         *source;
  PaddockPolicyScope  scope;
} ParseContext;

G_GNUC_PRINTF (5, 6)
static void
set_invalid (GError      **error,
             ParseContext *ctx,
             Pos          *pos,
             gboolean      at_key,
             const char   *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;
  guint line = 1, column = 1;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (pos != NULL)
    {
      line = at_key && pos->key_line ? pos->key_line : pos->line;
      column = at_key && pos->key_line ? pos->key_column : pos->column;
    }
  g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
               "%s:%u:%u: %s", ctx->source, line, column, message);
}

static const char *
node_type_name (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "a string";
    case G_TYPE_BOOLEAN:
      return "a boolean";
    default:
      return "a number";
    }
}

static const char *
get_string (JsonObject   *object,
            const char   *key,
            Pos          *object_pos,
            const char   *what,
            gboolean      required,
            ParseContext *ctx,
            GError      **error)
{
  JsonNode *node = json_object_get_member (object, key);
  Pos *pos = pos_member (object_pos, key);

  if (node == NULL)
    {
      if (required)
        set_invalid (error, ctx, object_pos, FALSE, "%s has no \"%s\"", what, key);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      set_invalid (error, ctx, pos, FALSE, "\"%s\" must be a string, not %s", key, node_type_name (node));
      return NULL;
    }
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    {
      /* json-glib lets "\udc00" through as bytes that are not UTF-8. */
      set_invalid (error, ctx, pos, FALSE, "\"%s\" " NOT_A_CHARACTER, key);
      return NULL;
    }
  return json_node_get_string (node);
}

static gboolean
check_keys (JsonObject          *object,
            Pos                 *object_pos,
            const char * const  *known,
            const char          *what,
            ParseContext        *ctx,
            GError             **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) known);
        g_autofree char *shown = paddock_escape_for_display (l->data, -1);

        set_invalid (error, ctx, pos_member (object_pos, l->data), TRUE,
                     "unknown key \"%s\" in %s (known keys: %s)", shown, what, list);
        return FALSE;
      }
  return TRUE;
}

/* Globs: '*' any run, '?' one character, '[…]' a set ('!' or '^' negates,
 * ranges), '\' quotes. Byte-wise and independent of the locale, so a name
 * that is not valid UTF-8 still matches predictably. In a glob for a path,
 * '*', '?' and sets never match '/'. */

static gboolean
glob_is_valid (const char  *glob,
               const char **problem)
{
  const char *p;

  if (*glob == '\0')
    {
      *problem = "is empty";
      return FALSE;
    }
  for (p = glob; *p != '\0'; p++)
    {
      if (*p == '\\')
        {
          if (p[1] == '\0')
            {
              *problem = "ends with a lone backslash";
              return FALSE;
            }
          p++;
        }
      else if (*p == '[')
        {
          const char *q = p + 1;

          if (*q == '!' || *q == '^')
            q++;
          if (*q == ']')
            q++;
          while (*q != '\0' && *q != ']')
            q++;
          if (*q == '\0')
            {
              *problem = "has a '[' without its ']'";
              return FALSE;
            }
          p = q;
        }
    }
  return TRUE;
}

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

/* Whether @source starts PCRE's UTF mode with a leading (*UTF) or (*UTF8),
 * alone or among the other (*…) settings that may open a pattern. */
static gboolean
starts_utf_mode (const char *source)
{
  const char *p = source;

  while (g_str_has_prefix (p, "(*"))
    {
      const char *end = strchr (p, ')');

      if (end == NULL)
        return FALSE;
      if ((end - p == 5 && strncmp (p + 2, "UTF", 3) == 0) ||
          (end - p == 6 && strncmp (p + 2, "UTF8", 4) == 0))
        return TRUE;
      p = end + 1;
    }
  return FALSE;
}

static GRegex *
compile_regex (const char   *source,
               const char   *key,
               Pos          *pos,
               ParseContext *ctx,
               GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  GRegex *regex;

  /* GLib runs a raw pattern without PCRE's UTF-8 check, and a command
   * line may be any bytes: in UTF mode, PCRE's behaviour on those is
   * undefined. */
  if (starts_utf_mode (source))
    {
      set_invalid (error, ctx, pos, FALSE,
                   "bad regular expression in \"%s\": (*UTF) is not allowed, as command lines are bytes "
                   "that need not be UTF-8", key);
      return NULL;
    }

  /* Not G_REGEX_OPTIMIZE: JIT-compiling the default policy's patterns took
   * 1.1 ms of each paddock-run's start here, and a pattern only ever runs
   * on one command line, after its rule's program matched. */
  regex = g_regex_new (source, G_REGEX_RAW, 0, &local_error);
  if (regex == NULL)
    {
      set_invalid (error, ctx, pos, FALSE, "bad regular expression in \"%s\": %s", key, local_error->message);
      return NULL;
    }
  return regex;
}

static gboolean
parse_where (const char   *text,
             gboolean      paths,
             Where        *out)
{
  if (g_strcmp0 (text, "inside") == 0)
    *out = WHERE_INSIDE;
  else if (g_strcmp0 (text, "outside") == 0)
    *out = WHERE_OUTSIDE;
  else if (paths && g_strcmp0 (text, "project-root") == 0)
    *out = WHERE_PROJECT_ROOT;
  else if (paths && g_strcmp0 (text, "home") == 0)
    *out = WHERE_HOME;
  else
    return FALSE;
  return TRUE;
}

static void
rule_free (PaddockPolicyRule *rule)
{
  g_free (rule->name);
  g_free (rule->reason);
  g_free (rule->origin);
  g_strfreev (rule->programs);
  g_clear_pointer (&rule->argv_regex, g_regex_unref);
  g_clear_pointer (&rule->script_regex, g_regex_unref);
  g_clear_pointer (&rule->match, json_node_unref);
  g_free (rule);
}

PaddockPolicyRule *
paddock_policy_rule_ref (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  g_atomic_ref_count_inc (&rule->ref_count);
  return rule;
}

void
paddock_policy_rule_unref (PaddockPolicyRule *rule)
{
  g_return_if_fail (rule != NULL);
  if (g_atomic_ref_count_dec (&rule->ref_count))
    rule_free (rule);
}

static PaddockPolicyRule *
rule_new (void)
{
  PaddockPolicyRule *rule = g_new0 (PaddockPolicyRule, 1);

  g_atomic_ref_count_init (&rule->ref_count);
  return rule;
}

static gboolean
parse_match (PaddockPolicyRule *rule,
             JsonNode          *node,
             Pos               *pos,
             ParseContext      *ctx,
             GError           **error)
{
  static const char * const known[] = { "program", "argv", "script", "cwd", "paths", "downloaded", NULL };
  JsonObject *match;
  JsonNode *program;
  JsonNode *downloaded;
  const char *text;
  GError *local_error = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_invalid (error, ctx, pos, FALSE, "\"match\" must be an object, not %s", node_type_name (node));
      return FALSE;
    }
  match = json_node_get_object (node);
  if (!check_keys (match, pos, known, "\"match\"", ctx, error))
    return FALSE;

  program = json_object_get_member (match, "program");
  if (program != NULL)
    {
      Pos *program_pos = pos_member (pos, "program");
      g_autoptr(GPtrArray) globs = g_ptr_array_new_with_free_func (g_free);

      if (JSON_NODE_HOLDS_ARRAY (program))
        {
          JsonArray *array = json_node_get_array (program);

          if (json_array_get_length (array) == 0)
            {
              set_invalid (error, ctx, program_pos, FALSE, "\"program\" is an empty list");
              return FALSE;
            }
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);

              if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
                {
                  set_invalid (error, ctx, pos_element (program_pos, i), FALSE,
                               "\"program\" entries must be strings, not %s", node_type_name (element));
                  return FALSE;
                }
              if (!g_utf8_validate (json_node_get_string (element), -1, NULL))
                {
                  set_invalid (error, ctx, pos_element (program_pos, i), FALSE,
                               "a \"program\" entry " NOT_A_CHARACTER);
                  return FALSE;
                }
              g_ptr_array_add (globs, g_strdup (json_node_get_string (element)));
            }
        }
      else if (JSON_NODE_HOLDS_VALUE (program) && json_node_get_value_type (program) == G_TYPE_STRING)
        {
          if (!g_utf8_validate (json_node_get_string (program), -1, NULL))
            {
              set_invalid (error, ctx, program_pos, FALSE,
                           "\"program\" " NOT_A_CHARACTER);
              return FALSE;
            }
          g_ptr_array_add (globs, g_strdup (json_node_get_string (program)));
        }
      else
        {
          set_invalid (error, ctx, program_pos, FALSE,
                       "\"program\" must be a string or a list of strings, not %s", node_type_name (program));
          return FALSE;
        }
      for (guint i = 0; i < globs->len; i++)
        {
          const char *problem = NULL;

          if (!glob_is_valid (g_ptr_array_index (globs, i), &problem))
            {
              Pos *at = JSON_NODE_HOLDS_ARRAY (program) ? pos_element (program_pos, i) : program_pos;

              set_invalid (error, ctx, at ? at : program_pos, FALSE,
                           "bad glob \"%s\" in \"program\": it %s", (const char *) g_ptr_array_index (globs, i), problem);
              return FALSE;
            }
        }
      g_ptr_array_add (globs, NULL);
      rule->programs = (char **) g_ptr_array_free (g_steal_pointer (&globs), FALSE);
    }

  if ((text = get_string (match, "argv", pos, "\"match\"", FALSE, ctx, &local_error)) != NULL)
    {
      rule->argv_regex = compile_regex (text, "argv", pos_member (pos, "argv"), ctx, error);
      if (rule->argv_regex == NULL)
        return FALSE;
    }
  if (local_error == NULL && (text = get_string (match, "script", pos, "\"match\"", FALSE, ctx, &local_error)) != NULL)
    {
      rule->script_regex = compile_regex (text, "script", pos_member (pos, "script"), ctx, error);
      if (rule->script_regex == NULL)
        return FALSE;
    }
  if (local_error == NULL && (text = get_string (match, "cwd", pos, "\"match\"", FALSE, ctx, &local_error)) != NULL)
    {
      if (!parse_where (text, FALSE, &rule->cwd))
        {
          set_invalid (error, ctx, pos_member (pos, "cwd"), FALSE,
                       "unknown \"cwd\" value \"%s\" (expected \"inside\" or \"outside\")", text);
          return FALSE;
        }
    }
  if (local_error == NULL && (text = get_string (match, "paths", pos, "\"match\"", FALSE, ctx, &local_error)) != NULL)
    {
      if (!parse_where (text, TRUE, &rule->paths))
        {
          set_invalid (error, ctx, pos_member (pos, "paths"), FALSE,
                       "unknown \"paths\" value \"%s\" (expected \"inside\", \"outside\", \"project-root\" or \"home\")", text);
          return FALSE;
        }
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  downloaded = json_object_get_member (match, "downloaded");
  if (downloaded != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (downloaded) || json_node_get_value_type (downloaded) != G_TYPE_BOOLEAN)
        {
          set_invalid (error, ctx, pos_member (pos, "downloaded"), FALSE,
                       "\"downloaded\" must be true, not %s", node_type_name (downloaded));
          return FALSE;
        }
      if (!json_node_get_boolean (downloaded))
        {
          set_invalid (error, ctx, pos_member (pos, "downloaded"), FALSE,
                       "\"downloaded\" can only be true (leave it out to match any file)");
          return FALSE;
        }
      rule->downloaded = TRUE;
    }
  rule->match = json_node_copy (node);
  return TRUE;
}

static PaddockPolicyRule *
parse_rule (JsonNode      *node,
            Pos           *pos,
            ParseContext  *ctx,
            GError       **error)
{
  static const char * const known[] = { "name", "match", "action", "reason", NULL };
  g_autoptr(PaddockPolicyRule) rule = rule_new ();
  JsonObject *object;
  JsonNode *match;
  const char *text;
  GError *local_error = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_invalid (error, ctx, pos, FALSE, "a rule must be an object, not %s", node_type_name (node));
      return NULL;
    }
  object = json_node_get_object (node);
  if (!check_keys (object, pos, known, "a rule", ctx, error))
    return NULL;

  text = get_string (object, "name", pos, "the rule", TRUE, ctx, error);
  if (text == NULL)
    return NULL;
  if (*text == '\0')
    {
      set_invalid (error, ctx, pos_member (pos, "name"), FALSE, "the rule's \"name\" is empty");
      return NULL;
    }
  /* Both go with every exec and ask the rule decides, to each client and
   * into the log; a client reads lines of at most 4 MiB. */
  if (strlen (text) > MAX_RULE_NAME)
    {
      set_invalid (error, ctx, pos_member (pos, "name"), FALSE,
                   "the rule's \"name\" is %zu bytes long; at most %d", strlen (text), MAX_RULE_NAME);
      return NULL;
    }
  rule->name = g_strdup (text);

  text = get_string (object, "action", pos, "the rule", TRUE, ctx, error);
  if (text == NULL)
    return NULL;
  if (!paddock_policy_action_from_string (text, &rule->action))
    {
      set_invalid (error, ctx, pos_member (pos, "action"), FALSE,
                   "unknown action \"%s\" in rule \"%s\" (expected \"allow\", \"ask\" or \"deny\")", text, rule->name);
      return NULL;
    }

  text = get_string (object, "reason", pos, "the rule", FALSE, ctx, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (text != NULL && strlen (text) > MAX_RULE_REASON)
    {
      set_invalid (error, ctx, pos_member (pos, "reason"), FALSE,
                   "the rule's \"reason\" is %zu bytes long; at most %d", strlen (text), MAX_RULE_REASON);
      return NULL;
    }
  rule->reason = g_strdup (text);

  match = json_object_get_member (object, "match");
  if (match == NULL)
    {
      set_invalid (error, ctx, pos, FALSE, "the rule \"%s\" has no \"match\" (use {} to match every program)", rule->name);
      return NULL;
    }
  if (!parse_match (rule, match, pos_member (pos, "match"), ctx, error))
    return NULL;

  rule->scope = ctx->scope;
  rule->origin = g_strdup_printf ("%s:%u:%u", ctx->source, pos ? pos->line : 1, pos ? pos->column : 1);
  return g_steal_pointer (&rule);
}

/* A glob glob_match() reads as nothing but itself, and no path. */
static gboolean
is_literal_name (const char *glob)
{
  return strpbrk (glob, "*?[\\/") == NULL;
}

static void
rule_indices_free (gpointer data)
{
  g_array_unref (data);
}

/* Called with the lock held for writing, or before the policy is shared. */
static void
rebuild_index (PaddockPolicy *self)
{
  g_hash_table_remove_all (self->by_name);
  g_array_set_size (self->unindexed, 0);
  for (guint i = 0; i < self->rules->len; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);
      gboolean literal = rule->programs != NULL && rule->programs[0] != NULL;

      for (guint g = 0; literal && rule->programs[g] != NULL; g++)
        literal = is_literal_name (rule->programs[g]);
      if (!literal)
        {
          g_array_append_val (self->unindexed, i);
          continue;
        }
      for (guint g = 0; rule->programs[g] != NULL; g++)
        {
          GArray *indices = g_hash_table_lookup (self->by_name, rule->programs[g]);

          if (indices == NULL)
            {
              indices = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (self->by_name, rule->programs[g], indices);
            }
          if (indices->len == 0 || g_array_index (indices, guint, indices->len - 1) != i)
            g_array_append_val (indices, i);
        }
    }
}

static PaddockPolicy *
policy_new (void)
{
  PaddockPolicy *self = g_new0 (PaddockPolicy, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_rw_lock_init (&self->lock);
  self->rules = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_policy_rule_unref);
  /* Keys are the rules' own strings: the rules outlive the index. */
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, rule_indices_free);
  self->unindexed = g_array_new (FALSE, FALSE, sizeof (guint));
  self->default_action = PADDOCK_POLICY_ACTION_ALLOW;
  return self;
}

PaddockPolicy *
paddock_policy_new (void)
{
  return policy_new ();
}

PaddockPolicy *
paddock_policy_ref (PaddockPolicy *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
paddock_policy_unref (PaddockPolicy *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_hash_table_destroy (self->by_name);
  g_array_unref (self->unindexed);
  g_ptr_array_unref (self->rules);
  g_rw_lock_clear (&self->lock);
  g_free (self->project);
  g_free (self);
}

/* json-glib says "<data>:LINE:COL: Parse error: WHAT"; say it with the source's name. */
static void
set_syntax_error (GError      **error,
                  const char   *source,
                  const char   *data,
                  gsize         length,
                  const GError *parse_error)
{
  const char *bad = NULL;
  const char *message = parse_error->message;
  g_autofree char *shown = NULL;
  guint line = 1, column = 1;

  if (!g_utf8_validate (data, length, &bad) || memchr (data, '\0', length) != NULL)
    {
      Scanner s = { data, data + length, data, 1, data, NULL };
      const char *at = bad;
      const char *nul = memchr (data, '\0', length);

      if (nul != NULL && (at == NULL || nul < at))
        at = nul;
      while (s.p < at)
        scanner_advance (&s);
      scanner_position (&s, at, &line, &column);
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE,
                   "%s:%u:%u: %s", source, line, column,
                   *at == '\0' ? "a NUL byte in the text" : "the text is not valid UTF-8");
      return;
    }
  message = paddock_json_parse_error_position (message, &line, &column);
  /* json-glib quotes the offending token, which may hold any bytes. */
  shown = paddock_escape_for_display (message, -1);
  g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE,
               "%s:%u:%u: JSON syntax error: %s", source, MAX (line, 1), MAX (column, 1), shown);
}

static PaddockPolicy *
policy_parse (const char          *data,
              gssize               length,
              const char          *source,
              PaddockPolicyScope   scope,
              GError             **error)
{
  static const char * const known[] = { "version", "default", "project", "rules", NULL };
  g_autoptr(PaddockPolicy) self = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(Pos) root_pos = NULL;
  g_autoptr(GHashTable) names = NULL;
  ParseContext ctx = { source, scope };
  Scanner s;
  JsonNode *root;
  JsonObject *object;
  JsonNode *node;
  JsonArray *rules;
  Pos *rules_pos;
  GError *local_error = NULL;
  const char *text;

  if (length < 0)
    length = strlen (data);
  if (length > MAX_POLICY_SIZE)
    {
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE,
                   "%s:1:1: the policy is larger than %d MiB", source, MAX_POLICY_SIZE / (1024 * 1024));
      return NULL;
    }

  s = (Scanner) { data, data + length, data, 1, data, NULL, "" };
  root_pos = scanner_value (&s, 0);
  /* Where the structure broke, the strings after are still checked. */
  if (root_pos == NULL && s.error_at == NULL)
    scanner_check_strings (&s);
  if (s.error_at != NULL)
    {
      guint line, column;

      scanner_position (&s, s.error_at, &line, &column);
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE,
                   "%s:%u:%u: %s", source, line, column, s.error);
      return NULL;
    }
  /* json-glib 1.6 takes "{…} {…}" and uses one of them: a second policy
   * pasted below the first would be ignored without a word. */
  if (root_pos != NULL)
    {
      scanner_skip_blank (&s);
      if (s.p < s.end)
        {
          guint line, column;

          scanner_position (&s, s.p, &line, &column);
          g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE,
                       "%s:%u:%u: text after the policy's JSON object (a policy is one object)",
                       source, line, column);
          return NULL;
        }
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, length, &parse_error))
    {
      set_syntax_error (error, source, data, length, parse_error);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      set_invalid (error, &ctx, root_pos, FALSE, "a policy must be a JSON object, not %s",
                   root == NULL ? "empty" : node_type_name (root));
      return NULL;
    }
  object = json_node_get_object (root);
  if (!check_keys (object, root_pos, known, "the policy", &ctx, error))
    return NULL;

  self = policy_new ();

  node = json_object_get_member (object, "version");
  if (node != NULL &&
      (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
       json_node_get_int (node) != 1))
    {
      set_invalid (error, &ctx, pos_member (root_pos, "version"), FALSE, "unsupported \"version\" (expected 1)");
      return NULL;
    }

  text = get_string (object, "default", root_pos, "the policy", FALSE, &ctx, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (text != NULL)
    {
      if (!paddock_policy_action_from_string (text, &self->default_action))
        {
          set_invalid (error, &ctx, pos_member (root_pos, "default"), FALSE,
                       "unknown default action \"%s\" (expected \"allow\", \"ask\" or \"deny\")", text);
          return NULL;
        }
      self->default_set = TRUE;
    }

  text = get_string (object, "project", root_pos, "the policy", FALSE, &ctx, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (text != NULL && !g_path_is_absolute (text))
    {
      set_invalid (error, &ctx, pos_member (root_pos, "project"), FALSE, "\"project\" must be an absolute path");
      return NULL;
    }
  self->project = g_strdup (text);

  node = json_object_get_member (object, "rules");
  rules_pos = pos_member (root_pos, "rules");
  if (node == NULL)
    return g_steal_pointer (&self);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      set_invalid (error, &ctx, rules_pos, FALSE, "\"rules\" must be a list, not %s", node_type_name (node));
      return NULL;
    }
  rules = json_node_get_array (node);
  /* A record names the rule that decided: one name, one rule. */
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < json_array_get_length (rules); i++)
    {
      PaddockPolicyRule *rule;
      Pos *rule_pos = pos_element (rules_pos, i);
      gpointer first;

      rule = parse_rule (json_array_get_element (rules, i), rule_pos, &ctx, error);
      if (rule == NULL)
        return NULL;
      g_ptr_array_add (self->rules, rule);
      if (g_hash_table_lookup_extended (names, rule->name, NULL, &first))
        {
          Pos *first_pos = pos_member (pos_element (rules_pos, GPOINTER_TO_UINT (first)), "name");

          if (first_pos != NULL)
            set_invalid (error, &ctx, pos_member (rule_pos, "name"), FALSE,
                         "the rule name \"%s\" is taken by the rule at %u:%u; each rule needs its own",
                         rule->name, first_pos->line, first_pos->column);
          else
            set_invalid (error, &ctx, pos_member (rule_pos, "name"), FALSE,
                         "the rule name \"%s\" is taken by an earlier rule; each rule needs its own", rule->name);
          return NULL;
        }
      g_hash_table_insert (names, rule->name, GUINT_TO_POINTER (i));
    }
  rebuild_index (self);
  return g_steal_pointer (&self);
}

PaddockPolicy *
paddock_policy_new_from_data (const char  *data,
                              gssize       length,
                              const char  *source_name,
                              GError     **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return policy_parse (data ? data : "", length, source_name ? source_name : "<data>",
                       PADDOCK_POLICY_SCOPE_POLICY, error);
}

static PaddockPolicy *
policy_load_file (const char          *path,
                  PaddockPolicyScope   scope,
                  GError             **error)
{
  /* A project's file is Paddock's own; --policy may be a pipe. */
  g_autoptr(GByteArray) text = scope == PADDOCK_POLICY_SCOPE_PROJECT ?
                               paddock_json_read_own_file (path, MAX_POLICY_SIZE, "the project's rules", error) :
                               paddock_json_read_file (path, MAX_POLICY_SIZE, "the policy", error);

  if (text == NULL)
    return NULL;
  /* Past MAX_POLICY_SIZE, the parser refuses it by its length. */
  return policy_parse (text->len > 0 ? (const char *) text->data : "", text->len, path, scope, error);
}

PaddockPolicy *
paddock_policy_new_from_file (const char  *path,
                              GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return policy_load_file (path, PADDOCK_POLICY_SCOPE_POLICY, error);
}

const char *
paddock_policy_get_default_data (void)
{
  /* Kept for the life of the process, like the resource it points into. */
  static GBytes *bytes;

  if (g_once_init_enter (&bytes))
    {
      GBytes *found = g_resource_lookup_data (paddock_policy_get_resource (),
                                              "/org/paddock/Paddock/default-policy.json",
                                              G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

      g_assert (found != NULL);
      g_once_init_leave (&bytes, found);
    }
  return g_bytes_get_data (bytes, NULL);
}

PaddockPolicy *
paddock_policy_new_default (void)
{
  g_autoptr(GError) error = NULL;
  PaddockPolicy *self;

  self = policy_parse (paddock_policy_get_default_data (), -1, "default-policy.json",
                       PADDOCK_POLICY_SCOPE_POLICY, &error);
  /* The built-in policy is checked by the test suite; it cannot be broken at run time. */
  if (self == NULL)
    g_error ("the built-in default policy is broken: %s", error->message);
  return self;
}

guint
paddock_policy_get_n_rules (PaddockPolicy *self)
{
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  g_rw_lock_reader_lock (&self->lock);
  n = self->rules->len;
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

PaddockPolicyRule *
paddock_policy_get_rule (PaddockPolicy *self,
                         guint          index)
{
  PaddockPolicyRule *rule = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_rw_lock_reader_lock (&self->lock);
  if (index < self->rules->len)
    rule = paddock_policy_rule_ref (g_ptr_array_index (self->rules, index));
  g_rw_lock_reader_unlock (&self->lock);
  return rule;
}

gboolean
paddock_policy_sets_default (PaddockPolicy *self)
{
  gboolean set;

  g_return_val_if_fail (self != NULL, FALSE);
  g_rw_lock_reader_lock (&self->lock);
  set = self->default_set;
  g_rw_lock_reader_unlock (&self->lock);
  return set;
}

PaddockPolicyAction
paddock_policy_get_default_action (PaddockPolicy *self)
{
  PaddockPolicyAction action;

  g_return_val_if_fail (self != NULL, PADDOCK_POLICY_ACTION_DENY);
  g_rw_lock_reader_lock (&self->lock);
  action = self->default_action;
  g_rw_lock_reader_unlock (&self->lock);
  return action;
}

void
paddock_policy_set_default_action (PaddockPolicy       *self,
                                   PaddockPolicyAction  action)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (action <= PADDOCK_POLICY_ACTION_DENY);
  g_rw_lock_writer_lock (&self->lock);
  self->default_action = action;
  self->default_set = TRUE;
  g_rw_lock_writer_unlock (&self->lock);
}

const char *
paddock_policy_get_project (PaddockPolicy *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->project;
}

void
paddock_policy_set_project_overrides (PaddockPolicy *self,
                                      PaddockPolicy *overrides)
{
  g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_policy_rule_unref);
  PaddockPolicyAction default_action;
  gboolean default_set;
  guint at;

  g_return_if_fail (self != NULL);
  g_return_if_fail (overrides != NULL);
  g_return_if_fail (self != overrides);

  g_rw_lock_reader_lock (&overrides->lock);
  for (guint i = 0; i < overrides->rules->len; i++)
    g_ptr_array_add (rules, paddock_policy_rule_ref (g_ptr_array_index (overrides->rules, i)));
  default_action = overrides->default_action;
  default_set = overrides->default_set;
  g_rw_lock_reader_unlock (&overrides->lock);

  g_rw_lock_writer_lock (&self->lock);
  if (!self->merged)
    {
      self->merged = TRUE;
      self->own_default_action = self->default_action;
      self->own_default_set = self->default_set;
    }
  for (guint i = self->rules->len; i > 0; i--)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i - 1);

      if (rule->scope == PADDOCK_POLICY_SCOPE_PROJECT)
        g_ptr_array_remove_index (self->rules, i - 1);
    }
  /* After the session's own answers, before the policy's rules. */
  for (at = 0; at < self->rules->len; at++)
    if (((PaddockPolicyRule *) g_ptr_array_index (self->rules, at))->scope == PADDOCK_POLICY_SCOPE_POLICY)
      break;
  for (guint i = rules->len; i > 0; i--)
    g_ptr_array_insert (self->rules, at, paddock_policy_rule_ref (g_ptr_array_index (rules, i - 1)));
  self->default_action = default_set ? default_action : self->own_default_action;
  self->default_set = default_set ? TRUE : self->own_default_set;
  rebuild_index (self);
  g_rw_lock_writer_unlock (&self->lock);
}

void
paddock_policy_prepend_rule (PaddockPolicy     *self,
                             PaddockPolicyRule *rule)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (rule != NULL);

  g_rw_lock_writer_lock (&self->lock);
  g_ptr_array_insert (self->rules, 0, paddock_policy_rule_ref (rule));
  rebuild_index (self);
  g_rw_lock_writer_unlock (&self->lock);
}

/* Matching */

typedef struct
{
  PaddockPolicyQuery        own;           /* the query, its argv never NULL */
  const PaddockPolicyQuery *query;         /* &own */
  const char               *names[3];
  const char               *paths[3];      /* the path each name comes from, if known */
  guint                     resolved_slot; /* the names' index of the resolved file's, or G_MAXUINT */
  guint                     n_names;
  GString                  *line;          /* argv joined, built on first use */
  const char               *script;
  GString                  *piped;         /* the script a shell reads from a pipe, built on first use */
  gboolean                  script_done;
  gboolean                  paths_done;
  gboolean                  downloaded_done;
  char                     *downloaded;    /* the downloaded file that runs, or NULL */
  const char               *cwd;           /* looked up on first use */
  gboolean                  cwd_done;
  gboolean                  any_outside;
  gboolean                  any_root;
  gboolean                  any_home;
  const char               *outside_arg;   /* the first argument of each kind, for explain */
  const char               *root_arg;
  const char               *home_arg;
  guint                     n_paths;
} Match;

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash ? slash + 1 : path;
}

static const char * const empty_argv[] = { NULL };

static void
match_init (Match                    *m,
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

static void
match_clear (Match *m)
{
  if (m->line != NULL)
    g_string_free (m->line, TRUE);
  if (m->piped != NULL)
    g_string_free (m->piped, TRUE);
  g_free (m->downloaded);
}

static const char *
match_line (Match *m)
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
names_a_shell (const Match *m)
{
  for (guint i = 0; i < m->n_names; i++)
    if (is_shell_name (m->names[i]))
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
names_an_interpreter (const Match *m)
{
  for (guint i = 0; i < m->n_names; i++)
    if (is_python_name (m->names[i]) || is_other_interpreter_name (m->names[i]))
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

/* As argv_script_fd() for @m's command, or for the command that sudo,
 * doas or env runs (`curl … | sudo -E bash -`), which starts at
 * *@command (0 for @m's own). *@operand, if not NULL, is the index in
 * @m's argv of the operand that gives the script, or 0 for none. */
static int
script_fd_operand (const Match *m,
                   guint       *command,
                   guint       *operand)
{
  static const char * const wrappers[] = { "sudo", "doas", "env", NULL };
  const char * const *argv = m->query->argv;
  guint ignored;
  int fd;

  if (operand == NULL)
    operand = &ignored;
  *command = 0;
  *operand = 0;
  if (argv[0] == NULL)
    return -1;
  for (guint n = 0; n < m->n_names; n++)
    if (g_strv_contains (wrappers, m->names[n]))
      {
        guint i = wrapped_command (argv, m->names[n]);
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
  return argv_script_fd (argv, names_a_shell (m), names_an_interpreter (m), operand);
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

  match_init (&m, query);
  fd = script_fd (&m, &command);
  match_clear (&m);
  return fd;
}

/* The SCRIPT of `sh [options] -c SCRIPT [name [args…]]`, or NULL. */
static const char *
shell_c_script (const Match *m)
{
  const char * const *argv = m->query->argv;
  gboolean has_c, has_s;
  guint i;

  if (argv[0] == NULL || !names_a_shell (m))
    return NULL;
  i = scan_shell_options (argv, &has_c, &has_s);
  return has_c ? argv[i] : NULL;
}

/* The SCRIPT of `sh [options] -c SCRIPT [name [args…]]`; for a shell (or
 * python, perl, ruby, node, or one that sudo, doas or env runs) that reads
 * its script from a pipe (its stdin, or one its operand names: `bash
 * <(curl …)`) whose writer is known (@stdin_from), the pipeline `WRITER |
 * SHELL`, which is what a script rule is about; or NULL. */
static const char *
match_script (Match *m)
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

  match_init (&m, query);
  match_downloaded (&m);
  path = g_steal_pointer (&m.downloaded);
  match_clear (&m);
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
      const char *line = match_line (m);
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
      const char *script = match_script (m);
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

/* @path with its symbolic links resolved, or only its . and .. where it
 * cannot be (it does not exist), taken from @relative_to where relative
 * (NULL: the current folder). GLib's allocator is the C library's (since
 * 2.46), so realpath()'s string is ours to g_free(). */
static char *
canonical_path (const char *path,
                const char *relative_to)
{
  char *real = realpath (path, NULL);

  return real != NULL ? real : g_canonicalize_filename (path, relative_to);
}

char *
paddock_policy_dup_home (void)
{
  return canonical_path (g_get_home_dir (), "/");
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

  match_init (&m, query);

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

  match_clear (&m);
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

  match_init (&m, query);

  g_string_append (out, "command: ");
  append_quoted (out, match_line (&m));
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
                                      : ((rule->script_regex == NULL || match_script (&m) != NULL) &&
                                         (!rule->downloaded || query->downloaded_func != NULL)))
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
  match_clear (&m);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
paddock_policy_to_data (PaddockPolicy *self,
                        gsize         *length)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char *data;

  g_return_val_if_fail (self != NULL, NULL);

  g_rw_lock_reader_lock (&self->lock);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  if (self->project != NULL)
    {
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, self->project);
    }
  if (self->default_set)
    {
      json_builder_set_member_name (builder, "default");
      json_builder_add_string_value (builder, paddock_policy_action_to_string (self->default_action));
    }
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->rules->len; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, rule->name);
      json_builder_set_member_name (builder, "match");
      json_builder_add_value (builder, json_node_copy (rule->match));
      json_builder_set_member_name (builder, "action");
      json_builder_add_string_value (builder, paddock_policy_action_to_string (rule->action));
      if (rule->reason != NULL)
        {
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, rule->reason);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  g_rw_lock_reader_unlock (&self->lock);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  data = json_generator_to_data (generator, length);
  return data;
}

const char *
paddock_policy_rule_get_name (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->name;
}

const char *
paddock_policy_rule_get_reason (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->reason;
}

gboolean
paddock_policy_rule_get_downloaded (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, FALSE);
  return rule->downloaded;
}

PaddockPolicyAction
paddock_policy_rule_get_action (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, PADDOCK_POLICY_ACTION_DENY);
  return rule->action;
}

PaddockPolicyScope
paddock_policy_rule_get_scope (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, PADDOCK_POLICY_SCOPE_POLICY);
  return rule->scope;
}

const char *
paddock_policy_rule_get_origin (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->origin;
}

/* Regex text matching exactly @bytes: ASCII letters and digits as they
 * are, every other byte as \xHH, so the result is ASCII (fit for JSON)
 * whatever the bytes were. */
static void
append_regex_literal (GString    *out,
                      const char *bytes)
{
  for (const guchar *p = (const guchar *) bytes; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        g_string_append_c (out, *p);
      else if (*p == ' ')
        g_string_append (out, "\\x20");
      else
        g_string_append_printf (out, "\\x%02x", *p);
    }
}

/* A glob matching exactly @bytes (specials quoted); bytes that cannot go
 * into a JSON string become '?'. */
static char *
glob_literal (const char *bytes)
{
  GString *out = g_string_new (NULL);
  const char *p = bytes;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if ((guchar) *p >= 0x80 && (c == (gunichar) -1 || c == (gunichar) -2))
        {
          g_string_append_c (out, '?');
          p++;
          continue;
        }
      if (strchr ("*?[]\\", *p) != NULL)
        g_string_append_c (out, '\\');
      if ((guchar) *p < 0x80)
        {
          g_string_append_c (out, *p);
          p++;
        }
      else
        {
          const char *next = g_utf8_next_char (p);

          g_string_append_len (out, p, next - p);
          p = next;
        }
    }
  return g_string_free (out, FALSE);
}

PaddockPolicyRule *
paddock_policy_rule_new_remembered (const PaddockPolicyQuery  *query,
                                    PaddockPolicyAction        action,
                                    PaddockPolicyScope         scope,
                                    GError                   **error)
{
  g_autoptr(PaddockPolicyRule) rule = rule_new ();
  g_autoptr(GString) regex = g_string_new ("^");
  g_autoptr(JsonObject) match = json_object_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M");
  g_autofree char *digest = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(GError) local_error = NULL;
  Match m;

  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (scope == PADDOCK_POLICY_SCOPE_SESSION || scope == PADDOCK_POLICY_SCOPE_PROJECT, NULL);

  match_init (&m, query);

  if (query->exe != NULL && *query->exe != '\0')
    {
      rule->programs = g_new0 (char *, 2);
      rule->programs[0] = glob_literal (query->exe);
      json_object_set_string_member (match, "program", rule->programs[0]);
    }
  append_regex_literal (regex, match_line (&m));
  g_string_append_c (regex, '$');
  /* A command line of tens of kilobytes is more than PCRE compiles. */
  rule->argv_regex = g_regex_new (regex->str, G_REGEX_RAW, 0, &local_error);
  if (rule->argv_regex == NULL)
    {
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                   "its command line (%zu bytes) is too long for a rule: %s",
                   strlen (match_line (&m)), local_error->message);
      match_clear (&m);
      return NULL;
    }
  g_regex_match (rule->argv_regex, "", 0, NULL);
  json_object_set_string_member (match, "argv", regex->str);

  /* A shell reading from a pipe is remembered with what it read from: an
   * answer for `curl … | sh` is not one for every `… | sh`. */
  if (match_script (&m) != NULL && m.piped != NULL)
    {
      g_autoptr(GString) script = g_string_new ("^");

      append_regex_literal (script, m.script);
      g_string_append_c (script, '$');
      rule->script_regex = g_regex_new (script->str, G_REGEX_RAW, 0, &local_error);
      if (rule->script_regex == NULL)
        {
          g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                       "the pipeline it reads from (%zu bytes) is too long for a rule: %s",
                       strlen (m.script), local_error->message);
          match_clear (&m);
          return NULL;
        }
      json_object_set_string_member (match, "script", script->str);
    }

  /* Named for the program and the line (and the pipeline): the same
   * arguments to another program are another rule, which must not
   * replace this one. */
  {
    g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

    if (rule->programs != NULL)
      g_checksum_update (checksum, (const guchar *) rule->programs[0], strlen (rule->programs[0]) + 1);
    g_checksum_update (checksum, (const guchar *) match_line (&m), -1);
    if (m.piped != NULL)
      g_checksum_update (checksum, (const guchar *) m.piped->str, m.piped->len + 1);
    digest = g_strdup (g_checksum_get_string (checksum));
  }
  {
    /* The whole command, `curl … | sudo -E bash -`, where the script the
     * rule names is what the wrapped shell reads. */
    g_autofree char *line = m.piped != NULL ? g_strconcat (query->stdin_from, " | ", match_line (&m), NULL)
                                            : g_strdup (match_line (&m));

    shown = paddock_escape_for_display (line, -1);
  }
  if (g_utf8_strlen (shown, -1) > 120)
    {
      char *cut = g_utf8_offset_to_pointer (shown, 117);

      strcpy (cut, "...");
    }
  rule->name = g_strdup_printf ("remembered-%.12s", digest);
  rule->reason = g_strdup_printf ("You chose to %s `%s` %s (%s).", paddock_policy_action_to_string (action), shown,
                                  scope == PADDOCK_POLICY_SCOPE_PROJECT ? "in this project" : "for this session", when);
  rule->action = action;
  rule->scope = scope;
  rule->origin = g_strdup (scope == PADDOCK_POLICY_SCOPE_PROJECT ? "remembered" : "session");
  rule->match = json_node_init_object (json_node_alloc (), match);
  match_clear (&m);
  return g_steal_pointer (&rule);
}

/* Per-project overrides */

char *
paddock_policy_project_file (const char  *project,
                             GError     **error)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (project != NULL, NULL);

  if (*project == '\0')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the project path is empty");
      return NULL;
    }
  canonical = canonical_path (project, NULL);
  return paddock_project_store_path (canonical, ".json");
}

PaddockPolicy *
paddock_policy_load_project (const char  *project,
                             GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *canonical = NULL;
  PaddockPolicy *self;
  struct stat st;

  g_return_val_if_fail (project != NULL, NULL);

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return NULL;
  canonical = canonical_path (project, NULL);
  if (stat (path, &st) != 0 && errno == ENOENT)
    {
      self = policy_new ();
      self->project = g_steal_pointer (&canonical);
      return self;
    }
  self = policy_load_file (path, PADDOCK_POLICY_SCOPE_PROJECT, error);
  if (self == NULL)
    {
      /* The file's name is a digest: say whose it is, and what to do. */
      if (error != NULL && *error != NULL)
        {
          char *message = g_strdup_printf ("%s (the file holds the project %s's own rules and remembered answers: "
                                           "mend it, or remove it to start them over)", (*error)->message, canonical);

          g_free ((*error)->message);
          (*error)->message = message;
        }
      return NULL;
    }
  if (g_strcmp0 (self->project, canonical) != 0)
    {
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PROJECT,
                   "%s: the overrides are for the project %s, not %s", path,
                   self->project ? self->project : "(none)", canonical);
      paddock_policy_unref (self);
      return NULL;
    }
  return self;
}

static gboolean
ensure_private_dir (const char  *dir,
                    GError     **error)
{
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }
  if (g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot make %s private: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_policy_save_project (PaddockPolicy  *overrides,
                             const char     *project,
                             GError        **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *old_project = NULL;
  gsize length;
  gboolean ok;

  g_return_val_if_fail (overrides != NULL, FALSE);
  g_return_val_if_fail (project != NULL, FALSE);

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return FALSE;
  dir = paddock_project_store_dir ();
  if (!ensure_private_dir (dir, error))
    return FALSE;

  g_rw_lock_writer_lock (&overrides->lock);
  old_project = g_steal_pointer (&overrides->project);
  overrides->project = canonical_path (project, NULL);
  g_rw_lock_writer_unlock (&overrides->lock);

  data = paddock_policy_to_data (overrides, &length);
  ok = g_file_set_contents_full (path, data, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
  if (!ok)
    g_prefix_error (error, "cannot save the project's policy overrides: ");
  return ok;
}

/* Another session's read, merge and write of the same file holds its lock
 * for a few milliseconds. A lock held longer is another program's, and
 * waiting on it would hold the supervisor's main context with it: its
 * other asks, its clients, a kill. */
#define PROJECT_LOCK_WAIT_MS 250

static gboolean
lock_project_file (int fd)
{
  for (guint waited = 0;; waited += 5)
    {
      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return TRUE;
      if (errno != EWOULDBLOCK && errno != EINTR)
        return FALSE;
      if (waited >= PROJECT_LOCK_WAIT_MS)
        {
          errno = EWOULDBLOCK;
          return FALSE;
        }
      g_usleep (5 * 1000);
    }
}

/* Takes the lock on @project's file for a change, made private where it
 * is missing; its descriptor in *@lock_fd, which closing lets go. */
static gboolean
lock_project (const char  *project,
              int         *lock_fd,
              GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *lock_path = NULL;

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return FALSE;
  dir = paddock_project_store_dir ();
  if (!ensure_private_dir (dir, error))
    return FALSE;

  lock_path = g_strconcat (path, ".lock", NULL);
  *lock_fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (*lock_fd < 0 || !lock_project_file (*lock_fd))
    {
      int saved_errno = errno;

      if (saved_errno == EWOULDBLOCK)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN,
                     "cannot lock %s: another program has held it for over %d ms",
                     lock_path, PROJECT_LOCK_WAIT_MS);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                     "cannot lock %s: %s", lock_path, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_policy_remember_in_project (const char         *project,
                                    PaddockPolicyRule  *rule,
                                    GError            **error)
{
  g_autoptr(PaddockPolicy) overrides = NULL;
  paddock_autofd int lock_fd = -1;

  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (rule != NULL, FALSE);

  if (!lock_project (project, &lock_fd, error))
    return FALSE;
  overrides = paddock_policy_load_project (project, error);
  if (overrides == NULL)
    return FALSE;
  /* The same command remembered again (two sessions asked it at once, or
   * it was decided otherwise since): the new answer replaces the old. */
  for (guint i = 0; i < overrides->rules->len; i++)
    {
      PaddockPolicyRule *old = g_ptr_array_index (overrides->rules, i);

      if (strcmp (old->name, rule->name) == 0)
        {
          g_ptr_array_remove_index (overrides->rules, i);
          break;
        }
    }
  paddock_policy_prepend_rule (overrides, rule);
  return paddock_policy_save_project (overrides, project, error);
}

gboolean
paddock_policy_forget_in_project (const char          *project,
                                  const char * const  *names,
                                  GError             **error)
{
  g_autoptr(PaddockPolicy) overrides = NULL;
  paddock_autofd int lock_fd = -1;

  g_return_val_if_fail (project != NULL, FALSE);

  if (!lock_project (project, &lock_fd, error))
    return FALSE;
  overrides = paddock_policy_load_project (project, error);
  if (overrides == NULL)
    return FALSE;
  /* All named rules are there, or nothing changes. */
  for (guint n = 0; names != NULL && names[n] != NULL; n++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < overrides->rules->len && !found; i++)
        found = strcmp (((PaddockPolicyRule *) g_ptr_array_index (overrides->rules, i))->name, names[n]) == 0;
      if (!found)
        {
          g_autoptr(GString) known = g_string_new (NULL);
          g_autofree char *shown = paddock_escape_for_display (names[n], -1);

          for (guint i = 0; i < overrides->rules->len; i++)
            g_string_append_printf (known, "%s%s", i > 0 ? ", " : "",
                                    ((PaddockPolicyRule *) g_ptr_array_index (overrides->rules, i))->name);
          g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                       "the project %s has no rule \"%s\" (its rules: %s)", overrides->project, shown,
                       known->len > 0 ? known->str : "none");
          return FALSE;
        }
    }
  for (guint i = overrides->rules->len; i > 0; i--)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (overrides->rules, i - 1);

      if (names == NULL || g_strv_contains (names, rule->name))
        g_ptr_array_remove_index (overrides->rules, i - 1);
    }
  rebuild_index (overrides);
  return paddock_policy_save_project (overrides, project, error);
}
