/* paddock-json-text.c: checks on JSON text that json-glib 1.6 is lax about
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-json-text.h"

#include <string.h>

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
