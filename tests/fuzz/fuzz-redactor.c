/* fuzz-redactor.c: libFuzzer target for the streaming redactor, checked
 * against a naive search-and-replace over the whole input
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input says which secrets there are and what the output is:
 *
 *   byte 0          1 + (byte % 4) secrets, named s0…s3
 *   per secret      a byte: its top 2 bits say how the value is made (00 and
 *                   11: 8 + (low 6 bits % 33) bytes from the input; 01: the
 *                   previous value with 1 + (low 3 bits) input bytes after
 *                   it; 10: the same bytes before it), then those bytes
 *   4 bytes         the seed of the cuts
 *   the rest        the output, made by ops: a byte under 0x80 is itself;
 *                   0x80–0xbf, the next byte as it is; 0xc0–0xff, one of the
 *                   redactor's forms (index in the next byte), or with bit
 *                   0x20 set, its first (following byte % length) bytes
 *
 * The output is fed in pieces of random sizes, with flushes (as at the
 * end of the stream) between some, and idle flushes between others; what
 * comes out must be, piece between flushes by piece, what the naive
 * replacement gives: at each position, the longest form that starts
 * there is replaced, else the byte is kept; the bytes an idle flush showed
 * of a form come before its marker. No more is held than a form could
 * need; a flush holds nothing, an idle flush all or none of what it held.
 * And a value that shares no byte with the markers never shows in the
 * output of a stream not flushed midway.
 */
#include "config.h"

#include "paddock-redactor-private.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

#define MAX_OUTPUT (16 * 1024)

typedef struct
{
  const guint8 *data;
  size_t        size;
  size_t        at;
} Reader;

static guint8
next_byte (Reader *r)
{
  /* Past the end, a fixed filler, so every input makes values. */
  if (r->at >= r->size)
    return (guint8) ('a' + r->at++ % 26);
  return r->data[r->at++];
}

typedef struct
{
  const guint8 *bytes;
  gsize         len;
  const char   *name;
} Form;

/* The reference: the longest form at each position, left to right; of
 * the bytes it replaces, those @shown already come first. */
static void
replace_naively (const Form     *forms,
                 guint           n_forms,
                 const guint8   *text,
                 const gboolean *shown,
                 gsize           len,
                 GByteArray     *out)
{
  gsize i = 0;

  while (i < len)
    {
      const Form *best = NULL;

      for (guint f = 0; f < n_forms; f++)
        if (forms[f].len <= len - i && forms[f].bytes[0] == text[i] &&
            (best == NULL || forms[f].len > best->len) &&
            memcmp (forms[f].bytes, text + i, forms[f].len) == 0)
          best = &forms[f];
      if (best != NULL)
        {
          g_autofree char *marker = g_strdup_printf ("«secret:%s»", best->name);

          for (gsize j = i; j < i + best->len; j++)
            if (shown[j])
              g_byte_array_append (out, text + j, 1);
          g_byte_array_append (out, (const guint8 *) marker, (guint) strlen (marker));
          i += best->len;
        }
      else
        g_byte_array_append (out, text + i++, 1);
    }
}

static gboolean
contains (const guint8 *haystack,
          gsize         haystack_len,
          const guint8 *needle,
          gsize         needle_len)
{
  return needle_len <= haystack_len && memmem (haystack, haystack_len, needle, needle_len) != NULL;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const char *names[] = { "s0", "s1", "s2", "s3" };
  static const char marker_bytes[] = "\xc2\xab\xbbsecrt:0123";
  g_autoptr(PaddockRedactor) redactor = paddock_redactor_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GArray) forms = g_array_new (FALSE, FALSE, sizeof (Form));
  g_autoptr(GByteArray) text = g_byte_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GRand) rand = NULL;
  g_autofree gboolean *shown = NULL;
  Reader r = { data, size, 0 };
  guint n_secrets;
  guint32 seed = 0;
  gsize max_len = 0, segment_start = 0;
  gboolean flushed_midway = FALSE;
  Form form;

  if (size == 0)
    return 0;
  n_secrets = 1 + next_byte (&r) % 4;
  for (guint s = 0; s < n_secrets; s++)
    {
      guint8 how = next_byte (&r);
      guint mode = how >> 6;
      GByteArray *value = g_byte_array_new ();
      GByteArray *previous = s > 0 ? g_ptr_array_index (values, s - 1) : NULL;
      guint n = previous != NULL && (mode == 1 || mode == 2) ? 1 + (how & 7) : 8 + (how & 0x3f) % 33;

      if (previous != NULL && mode == 1)
        g_byte_array_append (value, previous->data, previous->len);
      for (guint i = 0; i < n; i++)
        {
          guint8 b = next_byte (&r);

          g_byte_array_append (value, &b, 1);
        }
      if (previous != NULL && mode == 2)
        g_byte_array_append (value, previous->data, previous->len);
      if (!paddock_redactor_add_secret (redactor, names[s], value->data, value->len, NULL))
        abort ();
      g_ptr_array_add (values, value);
    }
  for (guint i = 0; i < 4; i++)
    seed = seed << 8 | next_byte (&r);
  rand = g_rand_new_with_seed (seed);

  while (paddock_redactor_get_form (redactor, forms->len, &form.bytes, &form.len, &form.name))
    {
      if (form.len < PADDOCK_REDACTOR_MIN_VALUE)
        abort ();
      max_len = MAX (max_len, form.len);
      g_array_append_val (forms, form);
    }

  while (r.at < size && text->len < MAX_OUTPUT)
    {
      guint8 op = next_byte (&r);

      if (op < 0x80)
        g_byte_array_append (text, &op, 1);
      else if (op < 0xc0)
        {
          guint8 b = next_byte (&r);

          g_byte_array_append (text, &b, 1);
        }
      else
        {
          const Form *f = &g_array_index (forms, Form, next_byte (&r) % forms->len);
          gsize len = op & 0x20 ? next_byte (&r) % f->len : f->len;

          g_byte_array_append (text, f->bytes, (guint) len);
        }
    }

  shown = g_new0 (gboolean, text->len + 1);

  /* Pieces of 1 to 64 bytes, or up to 4 KiB, a flush after some, an idle
   * flush after others. */
  for (gsize at = 0; at < text->len;)
    {
      gsize piece = g_rand_int_range (rand, 0, 4) == 0 ? (gsize) g_rand_int_range (rand, 1, 4097)
                                                        : (gsize) g_rand_int_range (rand, 1, 65);

      piece = MIN (piece, text->len - at);
      paddock_redactor_feed (redactor, text->data + at, piece, out);
      at += piece;
      if (paddock_redactor_held (redactor) >= max_len)
        abort ();
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          gsize held = paddock_redactor_held (redactor);

          paddock_redactor_flush_idle (redactor, out);
          if (paddock_redactor_held (redactor) == 0)
            for (gsize j = at - held; j < at; j++)
              shown[j] = TRUE;
          else if (paddock_redactor_held (redactor) != held)
            abort ();
        }
      if (at < text->len && g_rand_int_range (rand, 0, 16) == 0)
        {
          paddock_redactor_flush (redactor, out);
          if (paddock_redactor_held (redactor) != 0)
            abort ();
          replace_naively ((const Form *) forms->data, forms->len, text->data + segment_start, shown + segment_start,
                           at - segment_start, expected);
          segment_start = at;
          flushed_midway = TRUE;
        }
    }
  paddock_redactor_flush (redactor, out);
  if (paddock_redactor_held (redactor) != 0)
    abort ();
  replace_naively ((const Form *) forms->data, forms->len, text->data + segment_start, shown + segment_start,
                   text->len - segment_start, expected);

  if (out->len != expected->len || (out->len > 0 && memcmp (out->data, expected->data, out->len) != 0))
    abort ();

  if (!flushed_midway)
    for (guint s = 0; s < values->len; s++)
      {
        GByteArray *value = g_ptr_array_index (values, s);
        gboolean shares_a_byte = FALSE;

        for (guint i = 0; i < value->len && !shares_a_byte; i++)
          shares_a_byte = memchr (marker_bytes, value->data[i], sizeof marker_bytes - 1) != NULL;
        if (!shares_a_byte && contains (out->data, out->len, value->data, value->len))
          abort ();
      }
  return 0;
}
