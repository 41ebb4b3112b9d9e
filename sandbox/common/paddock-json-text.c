/* paddock-json-text.c: checks on JSON text that json-glib 1.6 is lax about
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-json-text.h"

#include "paddock-autofd.h"
#include "paddock-file-kind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static GByteArray *
read_open_file (int          fd,
                const char  *path,
                gsize        max,
                const char  *what,
                GError     **error)
{
  g_autoptr(GByteArray) text = g_byte_array_new ();

  while (text->len <= max)
    {
      guint8 chunk[16384];
      ssize_t n = read (fd, chunk, MIN (sizeof chunk, max + 1 - text->len));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot read %s %s: %s", what, path, g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (text, chunk, (guint) n);
    }
  return g_steal_pointer (&text);
}

/* Anything but a file (or a folder, said elsewhere) where Paddock keeps a
 * file of its own: a pipe, a socket, any device. A terminal or /dev/null,
 * which --policy may be, would be read too, the terminal until someone
 * types. */
static gboolean
check_own (const char         *path,
           const struct stat  *st,
           const char         *what,
           GError            **error)
{
  char buffer[64];
  const char *kind;

  if (S_ISREG (st->st_mode) || S_ISDIR (st->st_mode))
    return TRUE;
  kind = S_ISFIFO (st->st_mode) ? "a pipe" : S_ISSOCK (st->st_mode) ? "a socket" :
         paddock_file_kind_refusal (st, -1, PADDOCK_FILE_USE_READ, buffer);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "cannot read %s %s: it is %s, where Paddock keeps a file",
               what, path, kind != NULL ? kind : "a device");
  return FALSE;
}

/* @own: a file Paddock writes, where anything else is refused (looked at
 * before the open, and opened without waiting, in case a pipe was put
 * there meanwhile) rather than read. */
static GByteArray *
read_file (const char  *path,
           gsize        max,
           const char  *what,
           gboolean     own,
           GError     **error)
{
  paddock_autofd int fd = -1;
  struct stat st;

  if (own && stat (path, &st) == 0 && !check_own (path, &st, what, error))
    return NULL;
  /* Looked at before the open too: opening some devices does something. */
  if (!paddock_file_kind_check_read (path, -1, what, error))
    return NULL;
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (own ? O_NONBLOCK : 0));
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot read %s %s: %s", what, path, g_strerror (saved_errno));
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "cannot read %s %s: it is a folder", what, path);
      return NULL;
    }
  if ((own && !check_own (path, &st, what, error)) || !paddock_file_kind_check_read (path, fd, what, error))
    return NULL;
  return read_open_file (fd, path, max, what, error);
}

GByteArray *
paddock_json_read_file (const char  *path,
                        gsize        max,
                        const char  *what,
                        GError     **error)
{
  return read_file (path, max, what, FALSE, error);
}

GByteArray *
paddock_json_read_own_file (const char  *path,
                            gsize        max,
                            const char  *what,
                            GError     **error)
{
  return read_file (path, max, what, TRUE, error);
}

static const char *
skip_digits (const char *p,
             const char *end)
{
  while (p < end && g_ascii_isdigit (*p))
    p++;
  return p;
}

gboolean
paddock_json_is_literal (const char *token,
                         gsize       length)
{
  const char *p = token;
  const char *end = token + length;

  if ((length == 4 && memcmp (token, "true", 4) == 0) || (length == 5 && memcmp (token, "false", 5) == 0) ||
      (length == 4 && memcmp (token, "null", 4) == 0))
    return TRUE;

  /* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
  if (p < end && *p == '-')
    p++;
  if (p < end && *p == '0')
    p++;
  else if (p < end && *p >= '1' && *p <= '9')
    p = skip_digits (p, end);
  else
    return FALSE;
  if (p < end && *p == '.')
    {
      if (p + 1 == end || !g_ascii_isdigit (p[1]))
        return FALSE;
      p = skip_digits (p + 1, end);
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      p = skip_digits (p, end);
    }
  return p == end;
}

char *
paddock_json_describe_bad_value (const char *token,
                                 gsize       length)
{
  gboolean showable = length <= 24 && g_utf8_validate (token, length, NULL);

  for (gsize i = 0; i < length && showable; i++)
    showable = !g_ascii_iscntrl (token[i]);
  return g_strdup_printf ("unexpected %s%.*s%s: a value is a \"string\", a number, true, false, null, "
                          "an object or a list", showable ? "\"" : "", showable ? (int) length : 4,
                          showable ? token : "text", showable ? "\"" : "");
}

gboolean
paddock_json_read_hex4 (const char *p,
                        const char *end,
                        guint      *value)
{
  *value = 0;
  if (end - p < 4)
    return FALSE;
  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return FALSE;
      *value = *value << 4 | (guint) digit;
    }
  return TRUE;
}

static gboolean
is_json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* What json-glib would take too kindly, refused before it parses: text
 * that is not one object, nesting deeper than @max_depth, and string
 * escapes JSON does not have, comments and single quotes (in which an
 * escape would go unseen). json-glib 1.6 reads "{}{}" or "1 {}" as
 * valid, keeping the last value and leaking the others; it reads "\101"
 * as an octal byte and a lone "\ud800" as a surrogate, either of which
 * makes a string that is not UTF-8, and cuts a string at "\u0000". None
 * of them comes from a writer of Paddock's JSON. */
char *
paddock_json_check_object_text (const char *text,
                                 gsize       length,
                                 guint       max_depth)
{
  const char *end = text + length;
  const char *p = text;
  gboolean in_string = FALSE;
  gboolean closed = FALSE;
  guint depth = 0;

  while (p < end && is_json_space (*p))
    p++;
  if (p == end || *p != '{')
    return g_strdup ("not a JSON object");

  for (; p < end; p++)
    {
      char c = *p;

      if (closed)
        {
          if (!is_json_space (c))
            return g_strdup ("text after the JSON object");
        }
      else if (in_string)
        {
          guint unit;
          guint low;

          if (c == '"')
            in_string = FALSE;
          if (c != '\\')
            continue;
          if (++p == end)
            return g_strdup ("a string ends in a lone backslash");
          if (*p != '\0' && strchr ("\"\\/bfnrt", *p) != NULL)
            continue;
          if (*p != 'u')
            return g_strdup_printf ("a string holds \"\\%c\", which is not a JSON escape",
                                    g_ascii_isprint (*p) ? *p : '?');
          if (!paddock_json_read_hex4 (p + 1, end, &unit))
            return g_strdup ("a \"\\u\" escape needs four hex digits");
          p += 4;
          if (unit == 0)
            return g_strdup ("a string holds \"\\u0000\", a NUL character");
          if (unit >= 0xdc00 && unit <= 0xdfff)
            return g_strdup_printf ("a string holds \"\\u%04x\", half of a UTF-16 pair alone", unit);
          if (unit >= 0xd800 && unit <= 0xdbff)
            {
              if (end - p < 3 || p[1] != '\\' || p[2] != 'u' || !paddock_json_read_hex4 (p + 3, end, &low) ||
                  low < 0xdc00 || low > 0xdfff)
                return g_strdup_printf ("a string holds \"\\u%04x\", half of a UTF-16 pair alone", unit);
              p += 6;
            }
        }
      else if (c == '"')
        in_string = TRUE;
      /* json-glib reads "/…/" as a comment and '…' as a string: either would
       * hide a string's escapes from this scan. */
      else if (c == '/')
        return g_strdup ("a comment ('/'), which JSON does not have");
      else if (c == '\'')
        return g_strdup ("a string in single quotes, which JSON does not have");
      else if (c == '{' || c == '[')
        {
          if (++depth > max_depth)
            return g_strdup_printf ("nested deeper than %u levels", max_depth);
        }
      else if ((c == '}' || c == ']') && --depth == 0)
        closed = TRUE;
      else if (!is_json_space (c) && strchr ("{}[],:", c) == NULL)
        {
          /* A bare word: json-glib also takes hex and octal numbers, and
           * names a '$' "digit is beyond radix". */
          const char *start = p;

          while (p + 1 < end && !is_json_space (p[1]) && strchr ("{}[],:\"'/", p[1]) == NULL)
            p++;
          if (!paddock_json_is_literal (start, p + 1 - start))
            return paddock_json_describe_bad_value (start, p + 1 - start);
        }
    }
  return NULL;
}

const char *
paddock_json_parse_error_position (const char *message,
                                   guint      *line,
                                   guint      *column)
{
  char *end;

  *line = *column = 0;
  if (!g_str_has_prefix (message, "<data>:"))
    return message;
  *line = (guint) strtoul (message + strlen ("<data>:"), &end, 10);
  if (*end == ':')
    *column = (guint) strtoul (end + 1, &end, 10);
  if (*end != ':')
    {
      *line = *column = 0;
      return message;
    }
  message = end + 1;
  while (*message == ' ')
    message++;
  if (g_str_has_prefix (message, "Parse error: "))
    message += strlen ("Parse error: ");
  return message;
}

char *
paddock_json_describe_parse_error (const GError *parse_error)
{
  guint line, column;
  const char *message = paddock_json_parse_error_position (parse_error->message, &line, &column);
  g_autofree char *valid = NULL;
  g_autoptr(GString) shown = g_string_new (NULL);

  if (line > 0)
    g_string_append_printf (shown, "line %u, column %u: ", line, column);
  /* json-glib quotes the token it stopped at, cut anywhere, control
   * characters and all. */
  valid = g_utf8_make_valid (message, -1);
  for (const char *p = valid; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      g_string_append_printf (shown, "\\x%02x", (guint) (guchar) *p);
    else
      g_string_append_c (shown, *p);
  return g_string_free (g_steal_pointer (&shown), FALSE);
}
