/* paddock-net-request.h: what a client of the network lock's proxy asks for, read strictly
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The proxy's parsers, apart from its sockets so that a fuzzer reads the
 * same code: an HTTP request head (CONNECT host:port, or a plain request
 * to an absolute http:// URI, rewritten for the server), and SOCKS5's
 * greeting and CONNECT request. Each takes the bytes read so far and says
 * whether it needs more, has a request, or refuses what it was given
 * (with the HTTP status or the SOCKS reply code to answer). Host names
 * come out lowercase, without a trailing dot; address literals without
 * brackets. Pure functions, any thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The longest request head (request line and headers) and the longest
 * line in it; past either the head is refused with 431. */
#define PADDOCK_NET_REQUEST_MAX_HEAD    (32 * 1024)
#define PADDOCK_NET_REQUEST_MAX_LINE    (8 * 1024)
#define PADDOCK_NET_REQUEST_MAX_HEADERS 100

typedef enum
{
  PADDOCK_NET_REQUEST_MORE,     /* need more bytes */
  PADDOCK_NET_REQUEST_DONE,     /* a request: the fields are filled */
  PADDOCK_NET_REQUEST_REFUSED,  /* status says how to answer */
} PaddockNetRequestResult;

typedef enum
{
  PADDOCK_NET_PROTOCOL_CONNECT = 1,  /* HTTP CONNECT: a tunnel */
  PADDOCK_NET_PROTOCOL_HTTP,         /* plain HTTP to an absolute URI */
  PADDOCK_NET_PROTOCOL_SOCKS5,       /* SOCKS5 CONNECT */
} PaddockNetProtocol;

typedef struct
{
  PaddockNetProtocol  protocol;
  char               *host;      /* lowercase name, or an address literal */
  guint16             port;
  GString            *head;      /* plain HTTP: the head to send the server */
  gsize               consumed;  /* input bytes the request took */
  int                 status;    /* refused: HTTP status, or SOCKS reply code */
} PaddockNetRequest;

void                    paddock_net_request_clear       (PaddockNetRequest *request);
/* An HTTP request head at the start of @data. */
PaddockNetRequestResult paddock_net_request_parse_http  (const char        *data,
                                                         gsize              length,
                                                         PaddockNetRequest *request);
/* SOCKS5's greeting (VER NMETHODS METHODS): DONE where "no
 * authentication" is offered, with *@consumed its length; REFUSED
 * (answer 05 FF) otherwise. */
PaddockNetRequestResult paddock_net_request_parse_socks_hello (const guint8 *data,
                                                               gsize         length,
                                                               gsize        *consumed);
/* SOCKS5's request that follows: CONNECT only. */
PaddockNetRequestResult paddock_net_request_parse_socks (const guint8      *data,
                                                         gsize              length,
                                                         PaddockNetRequest *request);
/* @host (@length bytes) as a name or address literal, normalized
 * (lowercase, no trailing dot, no brackets), or NULL where it is not one. */
char                   *paddock_net_host_normalize      (const char        *host,
                                                         gsize              length);

G_END_DECLS
