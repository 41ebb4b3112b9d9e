/* fuzz-protocol.c: libFuzzer target for the control protocol's line reader
 * and message parser
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first two bytes choose a line cap and a chunk size; the rest is fed
 * to a line reader in chunks of that size, as a socket would deliver it.
 * The reader must hand back exactly the lines a plain split on newlines
 * gives, each line over the cap reported once instead, and hold the
 * unfinished tail. Each line is parsed: a refusal is a protocol error
 * with a readable message, and a message writes one JSON line that parses
 * back and writes the same again.
 */
#include "config.h"

#include "paddock-protocol.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
check_line (const char *line,
            gsize       length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockMessage) message = NULL;
  g_autoptr(PaddockMessage) again = NULL;
  g_autoptr(PaddockMessage) copy = NULL;
  g_autofree char *written = NULL;
  g_autofree char *rewritten = NULL;
  g_autofree char *copied = NULL;
  gsize written_length;

  message = paddock_message_parse (line, length, &error);
  if (message == NULL)
    {
      if (error == NULL || error->domain != PADDOCK_PROTOCOL_ERROR || error->message[0] == '\0' ||
          !g_utf8_validate (error->message, -1, NULL))
        abort ();
      return;
    }
  if (error != NULL)
    abort ();

  /* One line, ending in its only newline. */
  written = paddock_message_to_line (message);
  written_length = strlen (written);
  if (written_length < 2 || written[written_length - 1] != '\n' ||
      memchr (written, '\n', written_length - 1) != NULL || !g_utf8_validate (written, -1, NULL))
    abort ();

  /* What was written parses back and writes the same. */
  again = paddock_message_parse (written, written_length - 1, &error);
  if (again == NULL || again->type != message->type)
    abort ();
  rewritten = paddock_message_to_line (again);
  if (strcmp (written, rewritten) != 0)
    abort ();

  copy = paddock_message_copy (message);
  copied = paddock_message_to_line (copy);
  if (strcmp (written, copied) != 0)
    abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(PaddockLineReader) reader = NULL;
  const char *text;
  gsize length;
  gsize max_line;
  gsize chunk;
  gsize fed = 0;
  gsize expected = 0;   /* where the next expected line starts in text */

  if (size < 2)
    return 0;
  max_line = 1 + data[0] % 64;
  if (data[0] >= 192)
    max_line = PADDOCK_PROTOCOL_MAX_REQUEST_LINE;
  chunk = 1 + data[1] % 32;
  text = (const char *) data + 2;
  length = size - 2;

  reader = paddock_line_reader_new (max_line);
  while (fed < length)
    {
      gsize n = MIN (chunk, length - fed);
      const char *line;
      gsize line_length;
      PaddockLineResult result;

      paddock_line_reader_feed (reader, text + fed, n);
      fed += n;

      while ((result = paddock_line_reader_next (reader, &line, &line_length)) != PADDOCK_LINE_NONE)
        {
          const char *newline = memchr (text + expected, '\n', length - expected);
          gsize want = (newline != NULL ? (gsize) (newline - text) : length) - expected;

          if (result == PADDOCK_LINE_OK)
            {
              /* The next line of the input, whole, within the cap. */
              if (newline == NULL || (gsize) (newline - text) >= fed || want > max_line ||
                  line_length != want || memcmp (line, text + expected, want) != 0)
                abort ();
              check_line (line, line_length);
            }
          else
            {
              /* The next line, over the cap: reported before it ends or once it does. */
              if (result != PADDOCK_LINE_TOO_LONG || want <= max_line)
                abort ();
            }
          expected = newline != NULL ? (gsize) (newline - text) + 1 : length;
          if (expected > fed)
            break;  /* reported while still arriving: the rest is dropped as it comes */
        }
    }

  /* All lines were seen; the reader holds the unfinished tail within the cap. */
  if (expected < length)
    {
      if (memchr (text + expected, '\n', length - expected) != NULL ||
          paddock_line_reader_pending (reader) != length - expected || length - expected > max_line)
        abort ();
    }
  else if (paddock_line_reader_pending (reader) != 0)
    abort ();

  return 0;
}
