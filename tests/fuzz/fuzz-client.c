/* fuzz-client.c: libFuzzer target for PaddockClient reading what a session sends
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte chooses a chunk size; the rest goes down a socket pair to
 * a client, in chunks of that size, and the socket closes. Whatever the
 * bytes, the client ends with one "closed"; every message it emits is one
 * the protocol writes and parses back the same; every line it skips is
 * said with a reason; it never emits more messages and refusals than the
 * input had lines; and once closed, a request is refused, not sent.
 */
#include "config.h"

#include "paddock-client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

typedef struct
{
  guint  messages;
  guint  bad;
  guint  closed;
} Seen;

static void
on_message (PaddockClient        *client,
            const PaddockMessage *message,
            Seen                 *seen)
{
  g_autofree char *line = paddock_message_to_line (message);
  g_autoptr(PaddockMessage) again = NULL;
  g_autofree char *rewritten = NULL;
  g_autoptr(GError) error = NULL;

  again = paddock_message_parse (line, strlen (line) - 1, &error);
  if (again == NULL)
    abort ();
  rewritten = paddock_message_to_line (again);
  if (strcmp (line, rewritten) != 0)
    abort ();
  seen->messages++;
}

static void
on_bad (PaddockClient *client,
        const GError  *error,
        Seen          *seen)
{
  if (error == NULL || error->message[0] == '\0')
    abort ();
  seen->bad++;
}

static void
on_closed (PaddockClient *client,
           const GError  *error,
           Seen          *seen)
{
  if (error != NULL && error->message[0] == '\0')
    abort ();
  seen->closed++;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };
  gsize chunk, done = 0, lines = 1;
  int pair[2];

  if (size < 1)
    return 0;
  chunk = 1 + data[0] * 97;
  data++;
  size--;
  for (gsize i = 0; i < size; i++)
    lines += data[i] == '\n';

  g_main_context_push_thread_default (context);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    abort ();
  client = paddock_client_new_for_fd (pair[0], &error);
  if (client == NULL)
    abort ();
  g_signal_connect (client, "message", G_CALLBACK (on_message), &seen);
  g_signal_connect (client, "bad-message", G_CALLBACK (on_bad), &seen);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &seen);

  while (done < size)
    {
      ssize_t n = send (pair[1], data + done, MIN (chunk, size - done), MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n > 0)
        done += n;
      else if (n < 0 && errno != EAGAIN && errno != EINTR)
        break;   /* the client closed its end: nothing more to read */
      else
        g_main_context_iteration (context, FALSE);
    }
  close (pair[1]);
  while (seen.closed == 0)
    g_main_context_iteration (context, TRUE);

  if (seen.closed != 1 || seen.messages + seen.bad > lines || !paddock_client_get_closed (client))
    abort ();
  if (paddock_client_decide (client, 1, PADDOCK_DECISION_ALLOW, PADDOCK_REMEMBER_ONCE, &error) ||
      !g_error_matches (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED))
    abort ();
  g_clear_object (&client);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  return 0;
}
