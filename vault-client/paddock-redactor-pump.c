/* paddock-redactor-pump.c: a descriptor copied to another through a redactor
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Blocking reads and writes, in the caller's thread or one of the pump's
 * own: the descriptors may be a terminal the agent shares, whose flags
 * (O_NONBLOCK) are not ours to change, and a terminal nobody reads blocks
 * its writer, which must not be a main loop.
 */
#include "config.h"

#include "paddock-redactor.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* What cat(1) reads at a time. */
#define CHUNK (128 * 1024)

static gboolean
write_all (int           fd,
           const guint8 *bytes,
           gsize         len,
           GError      **error)
{
  while (len > 0)
    {
      ssize_t n = write (fd, bytes, len);

      if (n < 0 && errno == EINTR)
        continue;
      /* Someone else who shares the descriptor made it non-blocking (as
       * Node.js does to its standard output): wait until it takes more. */
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          GPollFD writable = { fd, G_IO_OUT, 0 };

          g_poll (&writable, 1, -1);
          continue;
        }
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "cannot write a vaulted program's output to descriptor %d: %s",
                       fd, g_strerror (saved_errno));
          return FALSE;
        }
      bytes += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
flush_out (GByteArray *out,
           int         fd,
           GError    **error)
{
  gboolean ok = write_all (fd, out->data, out->len, error);

  g_byte_array_set_size (out, 0);
  return ok;
}

gboolean
paddock_redactor_pump (PaddockRedactor *redactor,
                       int              in_fd,
                       int              out_fd,
                       guint            idle_ms,
                       guint64         *bytes_in,
                       GCancellable    *cancellable,
                       GError         **error)
{
  g_autofree guint8 *buffer = g_malloc (CHUNK);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (CHUNK + 4096);
  GPollFD poll_fds[2] = { { in_fd, G_IO_IN, 0 }, { -1, G_IO_IN, 0 } };
  guint n_poll_fds = 1;
  guint64 total = 0;
  gboolean ok = TRUE;
  gboolean idle_flushed = FALSE;
  gboolean in_nonblocking = FALSE;

  g_return_val_if_fail (redactor != NULL, FALSE);
  g_return_val_if_fail (in_fd >= 0 && out_fd >= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &poll_fds[1]))
    n_poll_fds = 2;

  for (;;)
    {
      ssize_t n;

      /* Wait only where there is something to wait for: held bytes to
       * flush on idle (once: what it keeps waits for more input), or a
       * cancellable. Otherwise block in read(). */
      gboolean idle_wait = paddock_redactor_held (redactor) > 0 && !idle_flushed;

      if (n_poll_fds > 1 || idle_wait || in_nonblocking)
        {
          int timeout = idle_wait ? (int) idle_ms : -1;
          int ready = g_poll (poll_fds, n_poll_fds, timeout);

          if (ready < 0 && errno == EINTR)
            continue;
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              ok = FALSE;
              break;
            }
          if (ready == 0)
            {
              paddock_redactor_flush_idle (redactor, out);
              idle_flushed = TRUE;
              if (!flush_out (out, out_fd, error))
                {
                  ok = FALSE;
                  break;
                }
              continue;
            }
        }

      n = read (in_fd, buffer, CHUNK);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          /* A non-blocking descriptor: wait in poll() from now on. */
          in_nonblocking = TRUE;
          continue;
        }
      if (n < 0 && errno != EIO)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "cannot read a vaulted program's output from descriptor %d: %s",
                       in_fd, g_strerror (saved_errno));
          ok = FALSE;
          break;
        }
      if (n <= 0)
        break;
      total += (guint64) n;
      idle_flushed = FALSE;
      paddock_redactor_feed (redactor, buffer, (gsize) n, out);
      if (out->len > 0 && !flush_out (out, out_fd, error))
        {
          ok = FALSE;
          explicit_bzero (buffer, CHUNK);
          goto out;
        }
    }

  explicit_bzero (buffer, CHUNK);
  /* The end, an error reading or a cancellation: what was held is all
   * that is left to show. */
  paddock_redactor_flush (redactor, out);
  if (out->len > 0)
    {
      if (ok)
        ok = flush_out (out, out_fd, error);
      else
        flush_out (out, out_fd, NULL);
    }

out:
  if (n_poll_fds > 1)
    g_cancellable_release_fd (cancellable);
  if (bytes_in != NULL)
    *bytes_in = total;
  return ok;
}

typedef struct
{
  PaddockRedactor *redactor;
  int              in_fd;
  int              out_fd;
  guint            idle_ms;
  guint64          bytes_in;
} Pump;

static void
pump_free (gpointer data)
{
  Pump *pump = data;

  paddock_redactor_free (pump->redactor);
  g_free (pump);
}

static gpointer
pump_thread (gpointer data)
{
  GTask *task = data;
  Pump *pump = g_task_get_task_data (task);
  GError *error = NULL;

  if (paddock_redactor_pump (pump->redactor, pump->in_fd, pump->out_fd, pump->idle_ms, &pump->bytes_in,
                             g_task_get_cancellable (task), &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
  return NULL;
}

void
paddock_redactor_pump_async (PaddockRedactor    *redactor,
                             int                 in_fd,
                             int                 out_fd,
                             guint               idle_ms,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  GTask *task;
  Pump *pump;

  g_return_if_fail (redactor != NULL);
  g_return_if_fail (in_fd >= 0 && out_fd >= 0);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_redactor_pump_async);
  pump = g_new0 (Pump, 1);
  pump->redactor = redactor;
  pump->in_fd = in_fd;
  pump->out_fd = out_fd;
  pump->idle_ms = idle_ms;
  g_task_set_task_data (task, pump, pump_free);
  /* A thread of its own, not GTask's pool: a pump runs as long as its
   * program, and the pool is shared with GIO's short jobs. */
  g_thread_unref (g_thread_new ("paddock-redactor-pump", pump_thread, task));
}

gboolean
paddock_redactor_pump_finish (GAsyncResult *result,
                              guint64      *bytes_in,
                              GError      **error)
{
  GTask *task;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  task = G_TASK (result);
  if (bytes_in != NULL)
    *bytes_in = ((Pump *) g_task_get_task_data (task))->bytes_in;
  return g_task_propagate_boolean (task, error);
}
