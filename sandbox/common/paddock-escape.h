/* paddock-escape.h: text from sessions, logs and the file system, made safe for a terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Printable, valid UTF-8, unambiguous: backslash as \\, control characters
 * as \n \t \r \e \xNN, C1 controls and bidirectional/invisible formatting
 * characters as \u{XXXX}, invalid UTF-8 bytes as \xNN. Safe for a terminal:
 * for what a session or a log holds (argv, paths, reasons). */
char *paddock_escape_for_display (const char *bytes,
                                  gssize      length);

/* A command line: each argument escaped as above, joined by spaces. */
char *paddock_escape_argv_for_display (const char * const *argv);

/* Where the UTF-8 character that holds byte @at of @text starts: a place
 * to cut valid UTF-8 text. It goes back three bytes at most, as far as a
 * character may take. */
gsize paddock_utf8_char_start    (const char *text,
                                  gsize       at);

/* The same, but a backslash kept as it is: for messages, which may name a
 * path or a pattern a person typed, and must still not drive the terminal. */
char *paddock_escape_controls    (const char *text);

/* "PROGRAM: " and the message, escaped as paddock_escape_controls() does,
 * on stderr: a path in it may be a folder an agent named, made to clear
 * the screen or retitle the window. */
void  paddock_printerr           (const char *format,
                                  ...) G_GNUC_PRINTF (1, 2);
