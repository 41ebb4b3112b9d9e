/* paddock-redactor.h: the streaming redactor that masks secret values in a
 * vaulted program's output before the agent sees it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each registered secret is masked as «secret:NAME» wherever its value, or
 * one of the forms a program may print it in, appears in the stream:
 *
 *   - the value's bytes;
 *   - for a multi-line value, the value with LF turned into CRLF (what a
 *     terminal shows) and CRLF into LF, and each of its lines of 8 bytes
 *     or more on its own;
 *   - base64, standard and URL-safe alphabets, at each of the three
 *     alignments the value can have inside a larger encoded stream: the
 *     characters that depend on the value's bytes alone, and, where the
 *     value ends the stream, those with the last partial character, with
 *     and without '=' padding; and a long value's encoding cut in lines
 *     of 76 (base64(1), MIME) or 64 characters (PEM), each line;
 *   - percent-encoding, with upper and lower case hex, of the characters
 *     a URL must escape and of every byte, and of the base64 forms;
 *   - hex, upper and lower case;
 *   - the JSON-escaped string, with the usual variants of escapers ("\/",
 *     \u escapes of non-ASCII characters and of < > &, upper and lower hex).
 *
 * Matching is on bytes, leftmost first and, among the forms that start at
 * the same byte, the longest (so a value that contains another is masked
 * whole). The result does not depend on how the stream is cut into
 * chunks: paddock_redactor_feed() emits what can be decided and holds back
 * only the bytes at the end of the stream that could be the start of a
 * form. paddock_redactor_flush() decides those as if the stream ended
 * there: call it at the end of the stream. When the stream has been quiet
 * for a short while (PADDOCK_REDACTOR_IDLE_MS), call
 * paddock_redactor_flush_idle(), so a prompt without a newline is still
 * shown: it shows held bytes only while they are fewer than
 * PADDOCK_REDACTOR_IDLE_SHOW_MAX, and goes on matching them as if not
 * shown, so a secret printed a byte at a time shows at most its first 3
 * bytes before its marker. Output in which no form appears passes through
 * byte for byte, binary and invalid UTF-8 included.
 *
 * Speed: a Wu–Manber scan over the forms' first bytes, which looks at 2
 * bytes and then skips up to the shortest form's length less one, four
 * scans interleaved. Measured by `meson test --benchmark redactor` (1 GiB
 * of English-like text, 20 secrets, on a 2-CPU AMD EPYC shared with
 * builds, load 7 to 10; medians of 5 runs, three such runs): by CPU time,
 * paddock_redactor_feed() 3.9 to 4.4 GB/s, and paddock-redact as a filter
 * between two pipes 1.06 to 1.47 GB/s where cat(1) does 1.75 to 2.2
 * (0.60x to 0.67x: the scan's time on top of the same copies); by the
 * wall clock, feed() 1.5 to 2.4 GB/s, and through the pipes 0.63x to
 * 0.79x cat, both slowed by the load to 0.25 to 0.64 GB/s. The worst case
 * is output made to look like the start of a form again and again (a
 * long value of one repeated byte, fed that byte): each position is then
 * compared with the forms, up to their length.
 *
 * Values under PADDOCK_REDACTOR_MIN_VALUE bytes are refused: masking them
 * would blank ordinary words and still tell their value away.
 *
 * A PaddockRedactor is not thread-safe; use one per stream (stdout and
 * stderr each need their own, see paddock_redactor_copy()). It keeps its
 * copies of the values, and wipes them when freed.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PADDOCK_REDACTOR_MIN_VALUE 8

/* How long a stream is quiet before held bytes are flushed: short enough
 * that a prompt seems to come at once, long enough that a program writing
 * a line in a few pieces is not cut between them. */
#define PADDOCK_REDACTOR_IDLE_MS 20

/* Held bytes an idle flush shows: fewer than this many. */
#define PADDOCK_REDACTOR_IDLE_SHOW_MAX 4

#define PADDOCK_REDACTOR_ERROR (paddock_redactor_error_quark ())

typedef enum
{
  PADDOCK_REDACTOR_ERROR_TOO_SHORT,     /* a value under PADDOCK_REDACTOR_MIN_VALUE bytes */
  PADDOCK_REDACTOR_ERROR_INVALID_NAME,  /* a name that is empty, not UTF-8, or has control characters */
} PaddockRedactorError;

typedef struct _PaddockRedactor PaddockRedactor;

GQuark           paddock_redactor_error_quark (void);

PaddockRedactor *paddock_redactor_new         (void);
PaddockRedactor *paddock_redactor_copy        (PaddockRedactor *self);
void             paddock_redactor_free        (PaddockRedactor *self);

/* Registers @value (@len bytes, any bytes) under @name. A secret can be
 * added between feeds; bytes held back so far are then matched against it
 * too. Fails, naming the secret and never showing the value, for a value
 * under PADDOCK_REDACTOR_MIN_VALUE bytes or an unusable name. */
gboolean         paddock_redactor_add_secret  (PaddockRedactor *self,
                                               const char      *name,
                                               const guint8    *value,
                                               gsize            len,
                                               GError         **error);

/* Appends to @out what can be emitted of the stream once @data is added
 * to it; the rest is held back (paddock_redactor_held()). */
void             paddock_redactor_feed        (PaddockRedactor *self,
                                               const guint8    *data,
                                               gsize            len,
                                               GByteArray      *out);

/* The end of the stream: appends to @out the bytes held back, masked
 * where a form is complete in them and unchanged otherwise. The redactor
 * can go on with a new stream. */
void             paddock_redactor_flush       (PaddockRedactor *self,
                                               GByteArray      *out);

/* The stream has been quiet: appends to @out the bytes held back, as they
 * are, if they are fewer than PADDOCK_REDACTOR_IDLE_SHOW_MAX; they are
 * still matched with what comes next (and a form that starts in them is
 * masked after them). */
void             paddock_redactor_flush_idle  (PaddockRedactor *self,
                                               GByteArray      *out);

/* How many bytes of the stream are held back, not yet shown. */
gsize            paddock_redactor_held        (PaddockRedactor *self);

/* Copies @in_fd to @out_fd through @redactor until @in_fd ends, in the
 * calling thread, with blocking reads and writes; held-back bytes are
 * flushed (paddock_redactor_flush_idle()) once @in_fd has been quiet for
 * @idle_ms milliseconds, and at its end (paddock_redactor_flush()).
 * Neither descriptor is closed, nor are its flags changed (a terminal's
 * descriptor may be shared); one that another holder made non-blocking
 * is waited on with poll(). The end of @in_fd is a read of 0 bytes, or
 * EIO, which is what a pty's master reads once the last holder of its
 * slave closes it. Fails with G_IO_ERROR_CANCELLED if @cancellable is
 * cancelled while waiting for input (what was held is flushed first), or
 * with the error of a failed read or write, naming the descriptor. A
 * write to a closed pipe raises SIGPIPE unless the process blocks or
 * ignores it. @bytes_in, if not %NULL, is set to the number of bytes
 * read. */
gboolean         paddock_redactor_pump        (PaddockRedactor *redactor,
                                               int              in_fd,
                                               int              out_fd,
                                               guint            idle_ms,
                                               guint64         *bytes_in,
                                               GCancellable    *cancellable,
                                               GError         **error);

/* paddock_redactor_pump() in a thread of its own (a vaulted program's
 * stdout and stderr each need one; they may block on a terminal nobody
 * reads), for a GLib main loop: @callback runs in the thread-default
 * main context of the caller once @in_fd has ended, or failed. Takes
 * @redactor (freed when the pump is done); the caller keeps the
 * descriptors and must keep them open until @callback has run. */
void             paddock_redactor_pump_async  (PaddockRedactor    *redactor,
                                               int                 in_fd,
                                               int                 out_fd,
                                               guint               idle_ms,
                                               GCancellable       *cancellable,
                                               GAsyncReadyCallback callback,
                                               gpointer            user_data);
gboolean         paddock_redactor_pump_finish (GAsyncResult       *result,
                                               guint64            *bytes_in,
                                               GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockRedactor, paddock_redactor_free)

G_END_DECLS
