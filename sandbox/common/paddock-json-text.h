/* paddock-json-text.h: checks on JSON text that json-glib 1.6 is lax about
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Reads at most @max + 1 bytes of @path: a pipe works ("<(…)"), as do a
 * terminal and /dev/null; a device or a kernel file (/dev/zero, a disk,
 * /proc/kmsg, which would wait for the kernel) is refused, named (see
 * paddock_file_kind_refusal()). @what names the file in errors ("the
 * policy"). */
GByteArray *paddock_json_read_file (const char  *path,
                                    gsize        max,
                                    const char  *what,
                                    GError     **error);

/* paddock_json_read_file() for a file Paddock writes itself (a project's
 * settings or rules): anything else there is refused, named, and never
 * waited on: a pipe or a terminal would hold the reader until someone
 * writes or types. */
GByteArray *paddock_json_read_own_file (const char  *path,
                                        gsize        max,
                                        const char  *what,
                                        GError     **error);

/* Whether the bare word @token (@length bytes, not NUL-terminated) is one
 * JSON has: true, false, null, or a number as JSON writes one. json-glib
 * 1.6 also takes hex and octal numbers, and names other words in
 * GScanner's terms ("digit is beyond radix" for a '$'). */
gboolean paddock_json_is_literal (const char *token,
                                  gsize       length);

/* The reason to give for the bare word @token that is not a JSON value,
 * quoting it where it is short, valid UTF-8 text. */
char    *paddock_json_describe_bad_value (const char *token,
                                          gsize       length);

/* The four hex digits of a \u escape at @p (@end bounds them) into
 * @value; FALSE where there are not four. */
gboolean paddock_json_read_hex4 (const char *p,
                                 const char *end,
                                 guint      *value);

/* Why @text (@length bytes) is not one JSON object as JSON has it, in
 * words for an error message; NULL when it is. Refused: anything but one
 * object (with white space around), nesting deeper than @max_depth, the
 * escapes, comments, single quotes and bare words json-glib 1.6 reads its
 * own way. Valid UTF-8 is left to the caller. */
char    *paddock_json_check_object_text  (const char *text,
                                          gsize       length,
                                          guint       max_depth);

/* Where json-glib's parse error @message says it stopped ("<data>:LINE:COL:
 * Parse error: ..."), in @line and @column (0 when it does not say), and
 * the rest of @message. */
const char *paddock_json_parse_error_position (const char *message,
                                               guint      *line,
                                               guint      *column);

/* json-glib's @parse_error in words for a message: its "<data>:LINE:COL:
 * Parse error:" as "line LINE, column COL:", and the token it quotes
 * made valid UTF-8, control characters escaped. */
char    *paddock_json_describe_parse_error (const GError *parse_error);
