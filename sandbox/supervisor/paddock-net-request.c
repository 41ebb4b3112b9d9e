/* paddock-net-request.c: what a client of the network lock's proxy asks for, read strictly
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-net-request.h"

#include <arpa/inet.h>
#include <gio/gio.h>
#include <string.h>

void
paddock_net_request_clear (PaddockNetRequest *request)
{
  g_clear_pointer (&request->host, g_free);
  if (request->head != NULL)
    g_string_free (g_steal_pointer (&request->head), TRUE);
  memset (request, 0, sizeof *request);
}

static PaddockNetRequestResult
refuse (PaddockNetRequest *request,
        int                status)
{
  g_clear_pointer (&request->host, g_free);
  if (request->head != NULL)
    g_string_free (g_steal_pointer (&request->head), TRUE);
  request->status = status;
  return PADDOCK_NET_REQUEST_REFUSED;
}

char *
paddock_net_host_normalize (const char *host,
                            gsize       length)
{
  g_autofree char *copy = NULL;
  gsize label = 0;

  if (length == 0 || memchr (host, '\0', length) != NULL)
    return NULL;
  if (host[0] == '[')
    {
      struct in6_addr address;

      if (length < 3 || host[length - 1] != ']')
        return NULL;
      copy = g_strndup (host + 1, length - 2);
      if (inet_pton (AF_INET6, copy, &address) != 1)
        return NULL;
      return g_ascii_strdown (copy, -1);
    }
  if (host[length - 1] == '.')
    length--;
  if (length == 0 || length > 253)
    return NULL;
  for (gsize i = 0; i < length; i++)
    {
      char c = host[i];

      if (c == '.')
        {
          if (label == 0)
            return NULL;
          label = 0;
          continue;
        }
      if (!g_ascii_isalnum (c) && c != '-' && c != '_')
        return NULL;
      if (++label > 63)
        return NULL;
    }
  if (label == 0)
    return NULL;
  copy = g_ascii_strdown (host, length);
  /* A dotted quad must be an address the usual way: "127.1" and octal
   * forms read differently from one resolver to the next. */
  if (g_ascii_isdigit (copy[length - 1]) && strspn (copy, "0123456789.") == length)
    {
      struct in_addr address;

      if (inet_pton (AF_INET, copy, &address) != 1)
        return NULL;
    }
  return g_steal_pointer (&copy);
}

/* "host:port" (port required) or "host[:port]" (else @default_port). */
static gboolean
parse_authority (const char  *authority,
                 gsize        length,
                 int          default_port,
                 char       **host,
                 guint16     *port)
{
  const char *colon = NULL;
  guint value = 0;

  if (length > 0 && authority[0] == '[')
    {
      const char *close = memchr (authority, ']', length);

      if (close == NULL)
        return FALSE;
      if ((gsize) (close + 1 - authority) < length)
        {
          if (close[1] != ':')
            return FALSE;
          colon = close + 1;
        }
    }
  else
    colon = memchr (authority, ':', length);

  if (colon != NULL)
    {
      gsize digits = authority + length - (colon + 1);

      if (digits == 0 || digits > 5)
        return FALSE;
      for (gsize i = 0; i < digits; i++)
        {
          if (!g_ascii_isdigit (colon[1 + i]))
            return FALSE;
          value = value * 10 + (colon[1 + i] - '0');
        }
      if (value == 0 || value > 65535)
        return FALSE;
    }
  else if (default_port < 0)
    return FALSE;
  else
    value = default_port;

  *host = paddock_net_host_normalize (authority, (colon != NULL ? colon : authority + length) - authority);
  if (*host == NULL)
    return FALSE;
  *port = value;
  return TRUE;
}

static gboolean
is_tchar (char c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Headers the proxy speaks for itself, never passed on. */
static gboolean
is_hop_header (const char *name,
               gsize       length)
{
  static const char * const hop[] = { "connection", "proxy-connection", "proxy-authorization",
                                      "keep-alive", "proxy-authenticate", NULL };

  for (guint i = 0; hop[i] != NULL; i++)
    if (strlen (hop[i]) == length && g_ascii_strncasecmp (name, hop[i], length) == 0)
      return TRUE;
  return FALSE;
}

PaddockNetRequestResult
paddock_net_request_parse_http (const char        *data,
                                gsize              length,
                                PaddockNetRequest *request)
{
  gsize limit = MIN (length, PADDOCK_NET_REQUEST_MAX_HEAD);
  const char *end = NULL;
  const char *line;
  const char *eol;
  const char *method_end;
  const char *target;
  const char *target_end;
  const char *version;
  const char *path = "/";
  gsize path_length = 1;
  guint n_headers = 0;

  memset (request, 0, sizeof *request);

  /* A method is a token: a client speaking something else (TLS without a
   * CONNECT, SOCKS4) is refused at its first byte, not at the timeout. */
  for (gsize i = 0; i < length && data[i] != ' '; i++)
    if (!is_tchar (data[i]) || i > 32)
      return refuse (request, 400);

  /* Every line ends in CRLF; each is checked as it comes, so a line past
   * the limit is refused before the head ends. */
  for (line = data; line < data + limit;)
    {
      eol = memchr (line, '\n', data + limit - line);
      if (eol == NULL)
        {
          if ((gsize) (data + limit - line) > PADDOCK_NET_REQUEST_MAX_LINE || length >= PADDOCK_NET_REQUEST_MAX_HEAD)
            return refuse (request, 431);
          return PADDOCK_NET_REQUEST_MORE;
        }
      /* CR only as the line's end: the passes below find lines by it. */
      if (eol == line || eol[-1] != '\r' || memchr (line, '\r', eol - 1 - line) != NULL)
        return refuse (request, 400);
      if ((gsize) (eol - line) > PADDOCK_NET_REQUEST_MAX_LINE)
        return refuse (request, 431);
      if (eol - line == 1)
        {
          end = eol + 1;
          break;
        }
      if (line != data && ++n_headers > PADDOCK_NET_REQUEST_MAX_HEADERS)
        return refuse (request, 431);
      line = eol + 1;
    }
  if (end == NULL)
    return length >= PADDOCK_NET_REQUEST_MAX_HEAD ? refuse (request, 431) : PADDOCK_NET_REQUEST_MORE;

  /* The request line: METHOD SP TARGET SP HTTP/1.x CRLF. */
  eol = memchr (data, '\r', end - data);
  for (method_end = data; method_end < eol && is_tchar (*method_end); method_end++)
    ;
  if (method_end == data || method_end == eol || *method_end != ' ')
    return refuse (request, 400);
  target = method_end + 1;
  target_end = memchr (target, ' ', eol - target);
  if (target_end == NULL || target_end == target)
    return refuse (request, 400);
  for (const char *p = target; p < target_end; p++)
    if ((guchar) *p <= 0x20 || (guchar) *p >= 0x7f)
      return refuse (request, 400);
  version = target_end + 1;
  if (eol - version != 8 || (memcmp (version, "HTTP/1.1", 8) != 0 && memcmp (version, "HTTP/1.0", 8) != 0))
    return refuse (request, 400);

  if (method_end - data == 7 && memcmp (data, "CONNECT", 7) == 0)
    {
      request->protocol = PADDOCK_NET_PROTOCOL_CONNECT;
      if (!parse_authority (target, target_end - target, -1, &request->host, &request->port))
        return refuse (request, 400);
    }
  else
    {
      const char *authority = target + 7;
      const char *authority_end;

      if (target_end - target < 8 || g_ascii_strncasecmp (target, "http://", 7) != 0)
        return refuse (request, 400);
      for (authority_end = authority; authority_end < target_end && strchr ("/?#", *authority_end) == NULL; authority_end++)
        if (*authority_end == '@')
          return refuse (request, 400);
      request->protocol = PADDOCK_NET_PROTOCOL_HTTP;
      if (!parse_authority (authority, authority_end - authority, 80, &request->host, &request->port))
        return refuse (request, 400);
      if (authority_end < target_end)
        {
          if (*authority_end == '#')
            return refuse (request, 400);
          path = authority_end;
          path_length = target_end - authority_end;
        }
      request->head = g_string_sized_new (end - data + 32);
      g_string_append_len (request->head, data, method_end - data + 1);
      if (path[0] == '?')
        g_string_append_c (request->head, '/');
      g_string_append_len (request->head, path, path_length);
      g_string_append_c (request->head, ' ');
      g_string_append_len (request->head, version, 8);
      g_string_append (request->head, "\r\n");
    }

  /* Headers: NAME ":" OWS VALUE, no folded lines, no control bytes. */
  for (line = eol + 2; line < end - 2; line = eol + 2)
    {
      const char *colon;

      eol = memchr (line, '\r', end - line);
      for (colon = line; colon < eol && is_tchar (*colon); colon++)
        ;
      if (colon == line || colon == eol || *colon != ':')
        return refuse (request, 400);
      for (const char *p = colon + 1; p < eol; p++)
        if (((guchar) *p < 0x20 && *p != '\t') || *p == 0x7f)
          return refuse (request, 400);
      if (request->head != NULL && !is_hop_header (line, colon - line))
        g_string_append_len (request->head, line, eol + 2 - line);
    }
  if (request->head != NULL)
    g_string_append (request->head, "Connection: close\r\n\r\n");
  request->consumed = end - data;
  return PADDOCK_NET_REQUEST_DONE;
}

PaddockNetRequestResult
paddock_net_request_parse_socks_hello (const guint8 *data,
                                       gsize         length,
                                       gsize        *consumed)
{
  if (length >= 1 && data[0] != 5)
    return PADDOCK_NET_REQUEST_REFUSED;
  if (length >= 2 && data[1] == 0)
    return PADDOCK_NET_REQUEST_REFUSED;
  if (length < 2 || length < 2 + (gsize) data[1])
    return PADDOCK_NET_REQUEST_MORE;
  if (memchr (data + 2, 0, data[1]) == NULL)
    return PADDOCK_NET_REQUEST_REFUSED;
  *consumed = 2 + data[1];
  return PADDOCK_NET_REQUEST_DONE;
}

/* SOCKS5's reply codes. */
enum
{
  SOCKS_FAILURE = 1,
  SOCKS_COMMAND_UNSUPPORTED = 7,
  SOCKS_ADDRESS_UNSUPPORTED = 8,
};

PaddockNetRequestResult
paddock_net_request_parse_socks (const guint8      *data,
                                 gsize              length,
                                 PaddockNetRequest *request)
{
  gsize address_length;
  gsize need;
  char text[INET6_ADDRSTRLEN];

  memset (request, 0, sizeof *request);
  if (length >= 1 && data[0] != 5)
    return refuse (request, SOCKS_FAILURE);
  if (length >= 2 && data[1] != 1)
    return refuse (request, SOCKS_COMMAND_UNSUPPORTED);
  if (length >= 3 && data[2] != 0)
    return refuse (request, SOCKS_FAILURE);
  if (length >= 4 && data[3] != 1 && data[3] != 3 && data[3] != 4)
    return refuse (request, SOCKS_ADDRESS_UNSUPPORTED);
  if (length < 5)
    return PADDOCK_NET_REQUEST_MORE;
  switch (data[3])
    {
    case 1: address_length = 4; need = 4 + 4 + 2; break;
    case 4: address_length = 16; need = 4 + 16 + 2; break;
    case 3: address_length = data[4]; need = 5 + address_length + 2; break;
    default: return refuse (request, SOCKS_ADDRESS_UNSUPPORTED);
    }
  if (length < need)
    return PADDOCK_NET_REQUEST_MORE;

  request->protocol = PADDOCK_NET_PROTOCOL_SOCKS5;
  if (data[3] == 3)
    request->host = paddock_net_host_normalize ((const char *) data + 5, address_length);
  else if (inet_ntop (data[3] == 1 ? AF_INET : AF_INET6, data + 4, text, sizeof text) != NULL)
    request->host = g_strdup (text);
  if (request->host == NULL)
    return refuse (request, SOCKS_ADDRESS_UNSUPPORTED);
  request->port = (data[need - 2] << 8) | data[need - 1];
  if (request->port == 0)
    return refuse (request, SOCKS_FAILURE);
  request->consumed = need;
  return PADDOCK_NET_REQUEST_DONE;
}
