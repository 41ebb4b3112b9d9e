/* paddock-policy-parser.c: reading a policy's JSON, with the line and column of what is wrong
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
 */
#include "config.h"

#include "paddock-escape.h"
#include "paddock-json-text.h"
#include "paddock-policy-private.h"

#include <string.h>

#define MAX_POLICY_SIZE (16 * 1024 * 1024)
/* A rule's name and reason go with each exec it decides. */
#define MAX_RULE_NAME 128
#define MAX_RULE_REASON 4096
#define MAX_DEPTH 32

/* What a string decoded to bytes that are not UTF-8 is told: other
 * escapes that would do that are refused before json-glib reads them. */
#define NOT_A_CHARACTER "holds a \\u escape that is not a character (half of a UTF-16 pair)"

extern GResource *paddock_policy_get_resource (void);

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

/* A glob as glob_match() reads it (paddock-policy-match.c). */
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

static gboolean
parse_match (PaddockPolicyRule *rule,
             JsonNode          *node,
             Pos               *pos,
             ParseContext      *ctx,
             GError           **error)
{
  static const char * const known[] = { "program", "argv", "script", "cwd", "paths", "downloaded", "unlinked", NULL };
  JsonObject *match;
  JsonNode *program;
  JsonNode *downloaded;
  JsonNode *unlinked;
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
  unlinked = json_object_get_member (match, "unlinked");
  if (unlinked != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (unlinked) || json_node_get_value_type (unlinked) != G_TYPE_BOOLEAN)
        {
          set_invalid (error, ctx, pos_member (pos, "unlinked"), FALSE,
                       "\"unlinked\" must be true, not %s", node_type_name (unlinked));
          return FALSE;
        }
      if (!json_node_get_boolean (unlinked))
        {
          set_invalid (error, ctx, pos_member (pos, "unlinked"), FALSE,
                       "\"unlinked\" can only be true (leave it out to match any file)");
          return FALSE;
        }
      rule->unlinked = TRUE;
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
  g_autoptr(PaddockPolicyRule) rule = paddock_policy_rule_new_empty ();
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

  self = paddock_policy_new ();

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
  paddock_policy_rebuild_index (self);
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

PaddockPolicy *
paddock_policy_load_file (const char          *path,
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

  return paddock_policy_load_file (path, PADDOCK_POLICY_SCOPE_POLICY, error);
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
