/* paddock-escape.c: text from sessions, logs and the file system, made safe for a terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-escape.h"

#include <stdarg.h>
#include <string.h>

/* Characters that change how the text around them shows: bidirectional
 * controls (Trojan Source), zero-width ones, and the line separators. */
static gboolean
is_invisible_format (gunichar c)
{
  return (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
         (c >= 0x2060 && c <= 0x2069) || c == 0xfeff || c == 0x061c || c == 0x00ad;
}

/* @backslash: whether a backslash is escaped too, which makes the text
 * unambiguous; a message read by a person is clearer without. */
static char *
escape_for_terminal (const char *bytes,
                     gssize      length,
                     gboolean    backslash)
{
  GString *out;
  const char *p, *end;

  if (length < 0)
    length = strlen (bytes);
  out = g_string_sized_new (length + 8);
  p = bytes;
  end = bytes + length;
  while (p < end)
    {
      guchar c = *p;
      gunichar u;

      if (c < 0x80)
        {
          switch (c)
            {
            case '\\': g_string_append (out, backslash ? "\\\\" : "\\"); break;
            case '\n': g_string_append (out, "\\n"); break;
            case '\t': g_string_append (out, "\\t"); break;
            case '\r': g_string_append (out, "\\r"); break;
            case 0x1b: g_string_append (out, "\\e"); break;
            default:
              if (c < 0x20 || c == 0x7f)
                g_string_append_printf (out, "\\x%02x", c);
              else
                g_string_append_c (out, c);
              break;
            }
          p++;
          continue;
        }
      u = g_utf8_get_char_validated (p, end - p);
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", c);
          p++;
          continue;
        }
      if ((u >= 0x80 && u < 0xa0) || is_invisible_format (u))
        g_string_append_printf (out, "\\u{%04x}", u);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

char *
paddock_escape_for_display (const char *bytes,
                            gssize      length)
{
  g_return_val_if_fail (bytes != NULL || length == 0, NULL);

  return escape_for_terminal (bytes, length, TRUE);
}

char *
paddock_escape_argv_for_display (const char * const *argv)
{
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      g_autofree char *arg = paddock_escape_for_display (argv[i], -1);

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, arg);
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}

gsize
paddock_utf8_char_start (const char *text,
                         gsize       at)
{
  for (guint back = 0; back < 3 && at > 0 && ((guchar) text[at] & 0xc0) == 0x80; back++)
    at--;
  return at;
}

char *
paddock_escape_controls (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  return escape_for_terminal (text, -1, FALSE);
}

void
paddock_printerr (const char *format,
                  ...)
{
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  shown = paddock_escape_controls (text);
  g_printerr ("%s: %s\n", g_get_prgname () != NULL ? g_get_prgname () : "paddock", shown);
}
