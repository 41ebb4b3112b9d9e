/* paddock-json-flat.c: one flat JSON object, read in one pass without a tree
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-json-flat.h"

#include "paddock-json-text.h"

#include <string.h>

/* More members than any message has: the check for a name given twice
 * compares each pair, so it stays bounded. */
#define MAX_MEMBERS 64

/* More digits could overflow a gint64: json-glib's to say what they are. */
#define MAX_DIGITS 18

typedef struct
{
  PaddockJsonFlat  flat;
  char            *text;     /* a copy of the text, its strings decoded in place */
  GArray          *members;  /* PaddockJsonFlatMember */
  GPtrArray       *strings;  /* the lists' strings, each list NULL-terminated */
} Reader;

typedef struct
{
  char       *p;
  const char *end;
} Cursor;

static void
skip_space (Cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static gboolean
take (Cursor *c,
      char    expected)
{
  skip_space (c);
  if (c->p == c->end || *c->p != expected)
    return FALSE;
  c->p++;
  skip_space (c);
  return TRUE;
}

/* The escape at c->p, decoded to *to, which is never ahead of it: no
 * escape is shorter than what it stands for. */
static gboolean
read_escape (Cursor  *c,
             char   **to)
{
  static const char from[] = "\"\\/bfnrt";
  static const char into[] = "\"\\/\b\f\n\r\t";
  guint unit, low;

  if (c->end - c->p < 2)
    return FALSE;
  if (c->p[1] != 'u')
    {
      const char *simple = c->p[1] != '\0' ? strchr (from, c->p[1]) : NULL;

      if (simple == NULL)
        return FALSE;
      *(*to)++ = into[simple - from];
      c->p += 2;
      return TRUE;
    }
  if (!paddock_json_read_hex4 (c->p + 2, c->end, &unit))
    return FALSE;
  c->p += 6;
  if (unit >= 0xd800 && unit <= 0xdbff)
    {
      if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
          !paddock_json_read_hex4 (c->p + 2, c->end, &low) || low < 0xdc00 || low > 0xdfff)
        return FALSE;
      unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
      c->p += 6;
    }
  else if (unit == 0 || (unit >= 0xdc00 && unit <= 0xdfff))
    return FALSE;
  *to += g_unichar_to_utf8 (unit, *to);
  return TRUE;
}

/* The string at c->p (its opening quote), decoded in place and ended with
 * a NUL where it was. */
static gboolean
read_string (Cursor      *c,
             const char **out)
{
  char *to;

  if (c->p == c->end || *c->p != '"')
    return FALSE;
  to = ++c->p;
  *out = to;
  while (c->p < c->end)
    {
      guchar byte = (guchar) *c->p;

      if (byte == '"')
        {
          *to = '\0';
          c->p++;
          return TRUE;
        }
      if (byte < 0x20)
        return FALSE;
      if (byte != '\\')
        *to++ = *c->p++;
      else if (!read_escape (c, &to))
        return FALSE;
    }
  return FALSE;
}

static gboolean
read_integer (Cursor *c,
              gint64 *out)
{
  gboolean negative = *c->p == '-';
  const char *first = c->p + negative;
  const char *p = first;
  gint64 value = 0;
  guint digits = 0;

  for (; p < c->end && g_ascii_isdigit (*p); p++, digits++)
    if (digits < MAX_DIGITS)
      value = value * 10 + (*p - '0');
  /* JSON writes no leading zero, and json-glib would read 010 as octal. */
  if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && *first == '0') ||
      (p < c->end && (*p == '.' || *p == 'e' || *p == 'E')))
    return FALSE;
  *out = negative ? -value : value;
  c->p = (char *) p;
  return TRUE;
}

static gboolean
read_word (Cursor     *c,
           const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (c->end - c->p) < length || memcmp (c->p, word, length) != 0 ||
      (c->p + length < c->end && g_ascii_isalnum (c->p[length])))
    return FALSE;
  c->p += length;
  return TRUE;
}

/* A list of strings; where it starts in reader->strings is kept in
 * member->integer until the reading is done and the array stops moving. */
static gboolean
read_strings (Reader                *reader,
              Cursor                *c,
              PaddockJsonFlatMember *member)
{
  if (reader->strings == NULL)
    reader->strings = g_ptr_array_sized_new (32);
  member->kind = PADDOCK_JSON_FLAT_STRINGS;
  member->integer = reader->strings->len;
  c->p++;
  skip_space (c);
  if (c->p < c->end && *c->p == ']')
    c->p++;
  else
    for (;;)
      {
        const char *string;

        if (!read_string (c, &string))
          return FALSE;
        g_ptr_array_add (reader->strings, (gpointer) string);
        skip_space (c);
        if (c->p < c->end && *c->p == ']')
          {
            c->p++;
            break;
          }
        if (!take (c, ','))
          return FALSE;
      }
  g_ptr_array_add (reader->strings, NULL);
  return TRUE;
}

static gboolean
read_value (Reader                *reader,
            Cursor                *c,
            PaddockJsonFlatMember *member)
{
  if (c->p == c->end)
    return FALSE;
  switch (*c->p)
    {
    case '"':
      member->kind = PADDOCK_JSON_FLAT_STRING;
      return read_string (c, &member->string);
    case '[':
      return read_strings (reader, c, member);
    case 't':
    case 'f':
      member->kind = PADDOCK_JSON_FLAT_BOOLEAN;
      member->boolean = *c->p == 't';
      return read_word (c, member->boolean ? "true" : "false");
    default:
      member->kind = PADDOCK_JSON_FLAT_INTEGER;
      return (*c->p == '-' || g_ascii_isdigit (*c->p)) && read_integer (c, &member->integer);
    }
}

static gboolean
read_members (Reader *reader,
              Cursor *c)
{
  if (!take (c, '{'))
    return FALSE;
  if (c->p < c->end && *c->p == '}')
    {
      c->p++;
      return TRUE;
    }
  for (;;)
    {
      PaddockJsonFlatMember member = { 0 };

      if (reader->members->len == MAX_MEMBERS || !read_string (c, &member.name) || !take (c, ':') ||
          !read_value (reader, c, &member))
        return FALSE;
      g_array_append_val (reader->members, member);
      skip_space (c);
      if (c->p < c->end && *c->p == '}')
        {
          c->p++;
          return TRUE;
        }
      if (!take (c, ','))
        return FALSE;
    }
}

static gboolean
names_unique (const PaddockJsonFlatMember *members,
              guint                        n_members)
{
  /* The first bytes first: most pairs differ there, and this runs for
   * every line a client reads. */
  for (guint i = 1; i < n_members; i++)
    for (guint j = 0; j < i; j++)
      if (members[i].name[0] == members[j].name[0] && strcmp (members[i].name, members[j].name) == 0)
        return FALSE;
  return TRUE;
}

PaddockJsonFlat *
paddock_json_flat_read (const char *text,
                        gsize       length)
{
  g_autoptr(PaddockJsonFlat) flat = NULL;
  Reader *reader;
  Cursor c;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  reader = g_new0 (Reader, 1);
  flat = &reader->flat;
  reader->text = g_malloc (length + 1);
  memcpy (reader->text, text, length);
  reader->text[length] = '\0';
  reader->members = g_array_sized_new (FALSE, FALSE, sizeof (PaddockJsonFlatMember), 24);
  c = (Cursor) { reader->text, reader->text + length };

  if (!read_members (reader, &c))
    return NULL;
  skip_space (&c);
  if (c.p != c.end)
    return NULL;

  flat->members = (PaddockJsonFlatMember *) (gpointer) reader->members->data;
  flat->n_members = reader->members->len;
  if (!names_unique (flat->members, flat->n_members))
    return NULL;
  for (guint i = 0; i < flat->n_members; i++)
    if (flat->members[i].kind == PADDOCK_JSON_FLAT_STRINGS)
      {
        flat->members[i].strings = (const char * const *) &reader->strings->pdata[flat->members[i].integer];
        flat->members[i].integer = 0;
      }
  return g_steal_pointer (&flat);
}

void
paddock_json_flat_free (PaddockJsonFlat *flat)
{
  Reader *reader = (Reader *) flat;

  if (reader == NULL)
    return;
  g_free (reader->text);
  g_array_unref (reader->members);
  g_clear_pointer (&reader->strings, g_ptr_array_unref);
  g_free (reader);
}
