/* paddock-redactor-forms.c: the forms a secret's value may be printed in
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program handed a token rarely prints it only as it is: it sends it in
 * an Authorization header (base64 of "user:token"), a URL (percent-encoded),
 * a JSON body, or, for a key file, prints it through a terminal that turns
 * its LFs into CRLFs. Each function here appends one family of forms; the
 * redactor masks them all.
 */
#include "config.h"

#include "paddock-redactor-private.h"

#include <string.h>

void
paddock_redactor_wipe_bytes (gpointer byte_array)
{
  GByteArray *array = byte_array;

  if (array == NULL)
    return;
  if (array->len > 0)
    explicit_bzero (array->data, array->len);
  g_byte_array_unref (array);
}

static void
add_form (GPtrArray  *forms,
          GByteArray *form)
{
  if (form->len < PADDOCK_REDACTOR_MIN_VALUE)
    {
      paddock_redactor_wipe_bytes (form);
      return;
    }
  for (guint i = 0; i < forms->len; i++)
    {
      GByteArray *other = g_ptr_array_index (forms, i);

      if (other->len == form->len && memcmp (other->data, form->data, form->len) == 0)
        {
          paddock_redactor_wipe_bytes (form);
          return;
        }
    }
  g_ptr_array_add (forms, form);
}

static GByteArray *
form_new (const guint8 *bytes,
          gsize         len)
{
  GByteArray *form = g_byte_array_sized_new ((guint) len);

  g_byte_array_append (form, bytes, (guint) len);
  return form;
}

static void
append_char (GByteArray *form,
             char        c)
{
  g_byte_array_append (form, (const guint8 *) &c, 1);
}

static void
append_text (GByteArray *form,
             const char *text)
{
  g_byte_array_append (form, (const guint8 *) text, (guint) strlen (text));
}

/* A multi-line value as a terminal shows it (each LF as CRLF), as it is
 * with CRLFs made LFs, and each of its lines of 8 bytes or more: a key
 * file printed in part, or wrapped, still has its lines masked. */
static void
add_line_forms (GPtrArray    *forms,
                const guint8 *value,
                gsize         len)
{
  GByteArray *crlf;
  GByteArray *lf;
  gsize start = 0;

  if (memchr (value, '\n', len) == NULL)
    return;

  crlf = g_byte_array_sized_new ((guint) len * 2);
  lf = g_byte_array_sized_new ((guint) len);
  for (gsize i = 0; i < len; i++)
    {
      if (value[i] == '\n' && (i == 0 || value[i - 1] != '\r'))
        append_char (crlf, '\r');
      if (!(value[i] == '\r' && i + 1 < len && value[i + 1] == '\n'))
        append_char (lf, (char) value[i]);
      append_char (crlf, (char) value[i]);
    }
  add_form (forms, crlf);
  add_form (forms, lf);

  for (gsize i = 0; i <= len; i++)
    if (i == len || value[i] == '\n')
      {
        gsize end = i;

        if (end > start && value[end - 1] == '\r')
          end--;
        if (end - start >= PADDOCK_REDACTOR_MIN_VALUE)
          add_form (forms, form_new (value + start, end - start));
        start = i + 1;
      }
}

static const char base64_standard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char base64_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The value @align bytes into a 3-byte group of a larger base64 stream.
 * Its characters are those of the stream "@align zero bytes, the value,
 * zeros": the ones from ceil (8 × align / 6) on carry the value's bits
 * alone, up to floor (8 × (align + len) / 6); the next, if any, mixes the
 * value's last bits with what follows it, which is zeros (and then '='
 * padding) when the value ends the stream. */
static void
add_base64_forms (GPtrArray    *forms,
                  const guint8 *value,
                  gsize         len,
                  guint         align,
                  const char   *alphabet)
{
  gsize real = align + len;
  gsize padded = (real + 2) / 3 * 3;
  g_autofree guint8 *bytes = g_malloc0 (padded);
  gsize n_chars = padded / 3 * 4;
  g_autofree char *chars = g_malloc (n_chars);
  gsize first = (8 * align + 5) / 6;
  gsize stable_end = 8 * real / 6;
  gsize data_end = (8 * real + 5) / 6;
  GByteArray *form;

  memcpy (bytes + align, value, len);
  for (gsize i = 0, c = 0; i < padded; i += 3)
    {
      guint32 group = (guint32) bytes[i] << 16 | (guint32) bytes[i + 1] << 8 | bytes[i + 2];

      chars[c++] = alphabet[group >> 18 & 0x3f];
      chars[c++] = alphabet[group >> 12 & 0x3f];
      chars[c++] = alphabet[group >> 6 & 0x3f];
      chars[c++] = alphabet[group & 0x3f];
    }

  /* A long value's encoding, from its start, cut in lines by base64(1)
   * and MIME (76 characters) or PEM and openssl (64): each line. */
  if (align == 0 && data_end > 64)
    for (gsize width = 64; width <= 76; width += 12)
      {
        gsize line = 0;

        for (; line + width < data_end; line += width)
          add_form (forms, form_new ((const guint8 *) chars + line, width));
        add_form (forms, form_new ((const guint8 *) chars + line, data_end - line));
        add_form (forms, form_new ((const guint8 *) chars + line, n_chars - line));
      }

  add_form (forms, form_new ((const guint8 *) chars + first, stable_end - first));
  add_form (forms, form_new ((const guint8 *) chars + first, data_end - first));
  form = form_new ((const guint8 *) chars + first, data_end - first);
  for (gsize i = data_end; i < n_chars; i++)
    append_char (form, '=');
  add_form (forms, form);

  explicit_bzero (bytes, padded);
  explicit_bzero (chars, n_chars);
}

/* The value's bytes in hex, as a debug print or xxd -p shows them. */
static void
add_hex_forms (GPtrArray    *forms,
               const guint8 *value,
               gsize         len)
{
  for (guint upper = 0; upper < 2; upper++)
    {
      const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
      GByteArray *form = g_byte_array_sized_new ((guint) len * 2);

      for (gsize i = 0; i < len; i++)
        {
          append_char (form, hex[value[i] >> 4]);
          append_char (form, hex[value[i] & 0xf]);
        }
      add_form (forms, form);
    }
}

typedef enum
{
  PERCENT_RESERVED = 0,       /* what RFC 3986 does not leave unreserved */
  PERCENT_SPACE_PLUS = 1 << 0, /* and a space as '+', as HTML forms send it */
  PERCENT_EVERY_BYTE = 1 << 1,
  PERCENT_UPPER = 1 << 2,
} PercentStyle;

static GByteArray *
percent_encode (const guint8 *value,
                gsize         len,
                PercentStyle  style)
{
  const char *hex = style & PERCENT_UPPER ? "0123456789ABCDEF" : "0123456789abcdef";
  GByteArray *form = g_byte_array_sized_new ((guint) len * 3);

  for (gsize i = 0; i < len; i++)
    {
      guint8 b = value[i];

      if (!(style & PERCENT_EVERY_BYTE) && (g_ascii_isalnum (b) || strchr ("-._~", b) != NULL) && b != '\0')
        append_char (form, (char) b);
      else if ((style & PERCENT_SPACE_PLUS) && b == ' ')
        append_char (form, '+');
      else
        {
          append_char (form, '%');
          append_char (form, hex[b >> 4]);
          append_char (form, hex[b & 0xf]);
        }
    }
  return form;
}

typedef enum
{
  JSON_PLAIN = 0,
  JSON_SLASH = 1 << 0,  /* "/" as "\/", as PHP writes it */
  JSON_ASCII = 1 << 1,  /* non-ASCII characters as \u escapes, as Python's json writes them */
  JSON_HTML = 1 << 2,   /* < > & U+2028 U+2029 as \u escapes, as Go's encoding/json writes them */
  JSON_UPPER = 1 << 3,  /* upper case hex in \u escapes */
  JSON_ALL_STYLES = 1 << 4,
} JsonStyle;

static void
append_unicode_escape (GByteArray *form,
                       gunichar    c,
                       JsonStyle   style)
{
  char escape[7];

  g_snprintf (escape, sizeof escape, style & JSON_UPPER ? "\\u%04X" : "\\u%04x", c);
  append_text (form, escape);
}

static GByteArray *
json_escape (const guint8 *value,
             gsize         len,
             JsonStyle     style)
{
  GByteArray *form = g_byte_array_sized_new ((guint) len * 2);
  gsize i = 0;

  while (i < len)
    {
      guint8 b = value[i];
      gunichar c;
      gsize n;

      switch (b)
        {
        case '"': append_text (form, "\\\""); i++; continue;
        case '\\': append_text (form, "\\\\"); i++; continue;
        case '\b': append_text (form, "\\b"); i++; continue;
        case '\f': append_text (form, "\\f"); i++; continue;
        case '\n': append_text (form, "\\n"); i++; continue;
        case '\r': append_text (form, "\\r"); i++; continue;
        case '\t': append_text (form, "\\t"); i++; continue;
        case '/':
          append_text (form, style & JSON_SLASH ? "\\/" : "/");
          i++;
          continue;
        case '<': case '>': case '&':
          if (style & JSON_HTML)
            append_unicode_escape (form, b, style);
          else
            append_char (form, (char) b);
          i++;
          continue;
        default:
          break;
        }
      if (b < 0x20)
        {
          append_unicode_escape (form, b, style);
          i++;
          continue;
        }
      if (b < 0x80 || !(style & (JSON_ASCII | JSON_HTML)))
        {
          append_char (form, (char) b);
          i++;
          continue;
        }

      /* A UTF-8 sequence; bytes that are not one stay as they are. */
      for (n = 2; n <= 4 && i + n <= len; n++)
        if (g_utf8_validate ((const char *) value + i, (gssize) n, NULL))
          break;
      if (n > 4 || i + n > len)
        {
          append_char (form, (char) b);
          i++;
          continue;
        }
      c = g_utf8_get_char ((const char *) value + i);
      if (style & JSON_ASCII)
        {
          if (c > 0xffff)
            {
              append_unicode_escape (form, 0xd800 + ((c - 0x10000) >> 10), style);
              append_unicode_escape (form, 0xdc00 + ((c - 0x10000) & 0x3ff), style);
            }
          else
            append_unicode_escape (form, c, style);
        }
      else if (c == 0x2028 || c == 0x2029)
        append_unicode_escape (form, c, style);
      else
        g_byte_array_append (form, value + i, (guint) n);
      i += n;
    }
  return form;
}

GPtrArray *
paddock_redactor_forms_new (const guint8 *value,
                            gsize         len)
{
  GPtrArray *forms = g_ptr_array_new_with_free_func (paddock_redactor_wipe_bytes);

  g_return_val_if_fail (value != NULL || len == 0, forms);

  guint base64_start, base64_end;

  add_form (forms, form_new (value, len));
  add_line_forms (forms, value, len);
  base64_start = forms->len;
  for (guint align = 0; align < 3; align++)
    {
      add_base64_forms (forms, value, len, align, base64_standard);
      add_base64_forms (forms, value, len, align, base64_url);
    }
  base64_end = forms->len;
  for (PercentStyle style = 0; style <= (PERCENT_SPACE_PLUS | PERCENT_EVERY_BYTE | PERCENT_UPPER); style++)
    if (!((style & PERCENT_SPACE_PLUS) && (style & PERCENT_EVERY_BYTE)))
      add_form (forms, percent_encode (value, len, style));
  /* base64 in a URL's query: its '+', '/' and '=' escaped. */
  for (guint i = base64_start; i < base64_end; i++)
    {
      GByteArray *encoded = g_ptr_array_index (forms, i);

      if (memchr (encoded->data, '+', encoded->len) != NULL || memchr (encoded->data, '/', encoded->len) != NULL ||
          memchr (encoded->data, '=', encoded->len) != NULL)
        {
          add_form (forms, percent_encode (encoded->data, encoded->len, PERCENT_RESERVED | PERCENT_UPPER));
          add_form (forms, percent_encode (encoded->data, encoded->len, PERCENT_RESERVED));
        }
    }
  add_hex_forms (forms, value, len);
  for (JsonStyle style = 0; style < JSON_ALL_STYLES; style++)
    add_form (forms, json_escape (value, len, style));
  return forms;
}
