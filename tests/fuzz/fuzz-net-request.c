/* fuzz-net-request.c: libFuzzer target for the network lock's request parsers
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is read as an HTTP request head and as SOCKS5's greeting and
 * request (after the greeting's bytes). A request read names a host that
 * is already normal (normalizing it again gives it back), a port, and
 * took no more than it was given; a plain request's head for the server
 * ends its headers with "Connection: close" and carries no bare line
 * feed; a refusal is 400 or 431; more is asked for only below the limit.
 * Reading must never crash, leak or warn.
 */
#include "config.h"

#include "paddock-net-request.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
check_request (const PaddockNetRequest *request,
               gsize                    size)
{
  g_autofree char *again = NULL;

  if (request->host == NULL || request->port == 0 || request->consumed == 0 || request->consumed > size)
    abort ();
  again = paddock_net_host_normalize (request->host, strlen (request->host));
  if (again == NULL && strchr (request->host, ':') != NULL)
    {
      g_autofree char *bracketed = g_strdup_printf ("[%s]", request->host);

      again = paddock_net_host_normalize (bracketed, strlen (bracketed));
    }
  if (again == NULL || strcmp (again, request->host) != 0)
    abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  PaddockNetRequest request = { 0 };
  PaddockNetRequestResult result;
  gsize consumed = 0;

  result = paddock_net_request_parse_http ((const char *) data, size, &request);
  switch (result)
    {
    case PADDOCK_NET_REQUEST_DONE:
      check_request (&request, size);
      if ((request.protocol == PADDOCK_NET_PROTOCOL_HTTP) != (request.head != NULL))
        abort ();
      if (request.head != NULL)
        {
          if (!g_str_has_suffix (request.head->str, "Connection: close\r\n\r\n") ||
              strlen (request.head->str) != request.head->len)
            abort ();
          for (gsize i = 0; i < request.head->len; i++)
            if (request.head->str[i] == '\n' && (i == 0 || request.head->str[i - 1] != '\r'))
              abort ();
        }
      break;
    case PADDOCK_NET_REQUEST_REFUSED:
      if (request.status != 400 && request.status != 431)
        abort ();
      break;
    case PADDOCK_NET_REQUEST_MORE:
      if (size >= PADDOCK_NET_REQUEST_MAX_HEAD)
        abort ();
      break;
    }
  paddock_net_request_clear (&request);

  result = paddock_net_request_parse_socks_hello (data, size, &consumed);
  if (result == PADDOCK_NET_REQUEST_DONE)
    {
      if (consumed < 3 || consumed > size)
        abort ();
      result = paddock_net_request_parse_socks (data + consumed, size - consumed, &request);
      if (result == PADDOCK_NET_REQUEST_DONE)
        {
          check_request (&request, size - consumed);
          if (request.protocol != PADDOCK_NET_PROTOCOL_SOCKS5)
            abort ();
        }
      else if (result == PADDOCK_NET_REQUEST_REFUSED && request.status != 1 && request.status != 7 &&
               request.status != 8)
        abort ();
      paddock_net_request_clear (&request);
    }
  return 0;
}
