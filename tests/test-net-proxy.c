/* test-net-proxy.c: the network lock's proxy on its own, driven by real clients
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The proxy (paddock-net-proxy.h) serves a listener on 127.0.0.1 in this
 * process; curl goes through it with CONNECT, plain HTTP and SOCKS5 to
 * servers this test starts on loopback, by names the proxy's resolve map
 * (or a resolver of the test's own) sends to 127.0.0.1. Nothing here
 * talks to another address. Raw clients (on threads of their own, so the
 * proxy's main context runs) send garbage, a header line of 64 KiB, a
 * byte at a time, or nothing at all, while curl still gets through.
 */
#include "config.h"

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-fd-passing.h"
#include "paddock-net-proxy.h"
#include "paddock-net-request.h"
#include "paddock-net-rules.h"
#include "paddock-project-config.h"
#include "test-util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define WAIT_SECONDS 60

/* A loopback server on its own thread: answers each request with its
 * name, or (echo) reads until the client's end and says how much came. */
typedef struct
{
  int       fd;
  guint16   port;
  gboolean  echo;
  GThread  *thread;
  GMutex    lock;
  GString  *last_head;
  gint      served;
} Server;

static int
listen_loopback (guint16 *port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_no_errno (bind (fd, (struct sockaddr *) &address, sizeof address));
  g_assert_no_errno (listen (fd, 4096));
  g_assert_no_errno (getsockname (fd, (struct sockaddr *) &address, &length));
  *port = ntohs (address.sin_port);
  return fd;
}

static gpointer
server_run (gpointer data)
{
  Server *server = data;

  for (;;)
    {
      g_autoptr(GString) head = g_string_new (NULL);
      char buffer[65536];
      int client = accept4 (server->fd, NULL, NULL, SOCK_CLOEXEC);
      gint64 total = 0;

      if (client < 0)
        return NULL;
      for (;;)
        {
          ssize_t n = read (client, buffer, sizeof buffer);

          if (n <= 0)
            break;
          total += n;
          if (!server->echo)
            {
              g_string_append_len (head, buffer, n);
              if (strstr (head->str, "\r\n\r\n") != NULL)
                break;
            }
        }
      /* Noted before the answer, which the client waits for. */
      g_mutex_lock (&server->lock);
      g_string_assign (server->last_head, head->str);
      g_mutex_unlock (&server->lock);
      g_atomic_int_inc (&server->served);
      if (server->echo)
        {
          g_autofree char *answer = g_strdup_printf ("got %" G_GINT64_FORMAT " bytes", total);

          g_assert_cmpint (write (client, answer, strlen (answer)), ==, (ssize_t) strlen (answer));
        }
      else
        {
          static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nConnection: close\r\n\r\nhello from test";

          g_assert_cmpint (write (client, answer, strlen (answer)), ==, (ssize_t) strlen (answer));
        }
      close (client);
    }
}

/* The last request head the server read. */
static char *
server_dup_head (Server *server)
{
  char *head;

  g_mutex_lock (&server->lock);
  head = g_strdup (server->last_head->str);
  g_mutex_unlock (&server->lock);
  return head;
}

static Server *
server_start (gboolean echo)
{
  Server *server = g_new0 (Server, 1);

  server->fd = listen_loopback (&server->port);
  server->echo = echo;
  server->last_head = g_string_new (NULL);
  g_mutex_init (&server->lock);
  server->thread = g_thread_new ("test-server", server_run, server);
  return server;
}

static void
server_stop (Server *server)
{
  shutdown (server->fd, SHUT_RDWR);
  g_thread_join (server->thread);
  close (server->fd);
  g_string_free (server->last_head, TRUE);
  g_mutex_clear (&server->lock);
  g_free (server);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Server, server_stop)

/* What the proxy said: its net messages, copied. */
typedef struct
{
  PaddockNetProxy *proxy;
  guint16          port;
  GPtrArray       *messages;
} Fixture;

static void
collect (const PaddockMessage *message,
         gpointer              user_data)
{
  g_ptr_array_add (user_data, paddock_message_copy (message));
}

static Fixture *
fixture_new (PaddockNetProxyConfig *config)
{
  Fixture *fixture = g_new0 (Fixture, 1);
  g_autoptr(GError) error = NULL;
  int fd;

  fixture->proxy = paddock_net_proxy_new (config, &error);
  g_assert_no_error (error);
  fixture->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  paddock_net_proxy_set_func (fixture->proxy, collect, fixture->messages);
  fd = listen_loopback (&fixture->port);
  paddock_net_proxy_add_listener (fixture->proxy, fd);
  return fixture;
}

static void
fixture_free (Fixture *fixture)
{
  g_clear_pointer (&fixture->proxy, paddock_net_proxy_free);
  g_ptr_array_unref (fixture->messages);
  g_free (fixture);
}

/* The first net message about @host of @kind (NULL: the decision). */
static const PaddockMessage *
find_message (Fixture    *fixture,
              const char *host,
              const char *kind)
{
  for (guint i = 0; i < fixture->messages->len; i++)
    {
      const PaddockMessage *message = g_ptr_array_index (fixture->messages, i);

      if (g_strcmp0 (message->host, host) == 0 && g_strcmp0 (message->kind, kind) == 0)
        return message;
    }
  return NULL;
}

static gboolean
on_too_long (gpointer user_data)
{
  g_error ("waited %d s for %s", WAIT_SECONDS, (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static void
run_until (const gboolean *flag,
           const char     *what)
{
  guint guard = g_timeout_add_seconds (WAIT_SECONDS, on_too_long, (gpointer) what);

  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
}

typedef struct
{
  gboolean  done;
  char     *out;
  int       status;
} CurlResult;

static void
on_curl_done (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  CurlResult *curl = data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &curl->out, NULL, &error);
  g_assert_no_error (error);
  curl->status = g_subprocess_get_exit_status (G_SUBPROCESS (source));
  curl->done = TRUE;
}

/* Runs curl with @args (its output the body and then the HTTP code), the
 * main context turning meanwhile; returns its output. */
static char *
curl (int          *status,
      const char   *first,
      ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  CurlResult result = { 0 };
  va_list args;

  g_ptr_array_add (argv, (char *) "curl");
  g_ptr_array_add (argv, (char *) "-sS");
  g_ptr_array_add (argv, (char *) "--noproxy");
  g_ptr_array_add (argv, (char *) "");
  g_ptr_array_add (argv, (char *) "--max-time");
  g_ptr_array_add (argv, (char *) "30");
  g_ptr_array_add (argv, (char *) "-w");
  g_ptr_array_add (argv, (char *) " code=%{http_code}");
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_curl_done, &result);
  run_until (&result.done, "curl");
  if (status != NULL)
    *status = result.status;
  return result.out;
}

static char *
proxy_url (Fixture *fixture)
{
  return g_strdup_printf ("http://127.0.0.1:%u", fixture->port);
}

static char *
target_url (const char *host,
            Server     *server,
            const char *path)
{
  return g_strdup_printf ("http://%s:%u%s", host, server->port, path);
}

/* A raw client on a thread: sends @send (in @chunk bytes every @pause_ms,
 * or at once), shuts its write side where asked, reads to the end. */
typedef struct
{
  guint16      port;
  GBytes      *send;
  gsize        chunk;
  guint        pause_ms;
  gboolean     shut;
  gboolean     done;
  gboolean     answered;  /* the first bytes came */
  GString     *received;
  GThread     *thread;
} Raw;

static int
connect_loopback (guint16 port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons (port),
                                 .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_no_errno (connect (fd, (struct sockaddr *) &address, sizeof address));
  return fd;
}

static gpointer
raw_run (gpointer data)
{
  Raw *raw = data;
  int fd = connect_loopback (raw->port);
  gsize length;
  const char *bytes = g_bytes_get_data (raw->send, &length);
  char buffer[4096];
  ssize_t n;

  for (gsize done = 0; done < length;)
    {
      gsize step = raw->chunk > 0 ? MIN (raw->chunk, length - done) : length - done;

      n = send (fd, bytes + done, step, MSG_NOSIGNAL);
      if (n <= 0)
        break;
      done += n;
      if (raw->pause_ms > 0)
        g_usleep (raw->pause_ms * 1000);
    }
  if (raw->shut)
    shutdown (fd, SHUT_WR);
  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    {
      g_string_append_len (raw->received, buffer, n);
      g_atomic_int_set (&raw->answered, TRUE);
      g_main_context_wakeup (NULL);
    }
  close (fd);
  g_atomic_int_set (&raw->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

static Raw *
raw_start (guint16     port,
           const void *data,
           gsize       length,
           gsize       chunk,
           guint       pause_ms,
           gboolean    shut)
{
  Raw *raw = g_new0 (Raw, 1);

  raw->port = port;
  raw->send = g_bytes_new (data, length);
  raw->chunk = chunk;
  raw->pause_ms = pause_ms;
  raw->shut = shut;
  raw->received = g_string_new (NULL);
  raw->thread = g_thread_new ("test-raw", raw_run, raw);
  return raw;
}

static char *
raw_finish (Raw   *raw,
            gsize *length)
{
  guint guard = g_timeout_add_seconds (WAIT_SECONDS, on_too_long, (gpointer) "a raw client");
  char *received;

  while (!g_atomic_int_get (&raw->done))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
  g_thread_join (raw->thread);
  g_bytes_unref (raw->send);
  if (length != NULL)
    *length = raw->received->len;
  received = g_string_free (raw->received, FALSE);
  g_free (raw);
  return received;
}

static void
assert_curl_gets_through (Fixture    *fixture,
                          Server     *server,
                          const char *host)
{
  g_autofree char *proxy = proxy_url (fixture);
  g_autofree char *url = target_url (host, server, "/still");
  g_autofree char *out = curl (NULL, "--proxy", proxy, url, NULL);

  g_assert_cmpstr (out, ==, "hello from test code=200");
}

static const char * const resolve_allowed[] = { "allowed.test=127.0.0.1", "denied.test=127.0.0.1", NULL };

static void
test_connect (void)
{
  g_autoptr(Server) server = NULL;
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  g_autofree char *proxy = proxy_url (fixture);
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  const PaddockMessage *message;

  server = server_start (FALSE);
  url = target_url ("allowed.test", server, "/tunnel");
  out = curl (NULL, "--proxytunnel", "--proxy", proxy, url, NULL);
  g_assert_cmpstr (out, ==, "hello from test code=200");
  {
    g_autofree char *head = server_dup_head (server);

    g_assert_true (g_str_has_prefix (head, "GET /tunnel HTTP/1.1\r\n"));
  }

  message = find_message (fixture, "allowed.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (message->by, ==, "rule");
  g_assert_cmpstr (message->rule, ==, "resolve allowed.test");
  g_assert_cmpint (message->port, ==, server->port);

  /* The end comes once the relay thread has ended. */
  while (find_message (fixture, "allowed.test", "end") == NULL)
    g_main_context_iteration (NULL, TRUE);
  message = find_message (fixture, "allowed.test", "end");
  g_assert_cmpstr (message->address, ==, "127.0.0.1");
  g_assert_cmpint (message->bytes_in, ==, strlen ("HTTP/1.1 200 OK\r\nContent-Length: 15\r\nConnection: close\r\n\r\nhello from test"));
  g_assert_cmpint (message->bytes_out, >, 0);
  g_assert_cmpint (message->duration, >, 0);
  fixture_free (fixture);
}

static void
test_plain_http (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  g_autofree char *proxy = proxy_url (fixture);
  g_autofree char *url = target_url ("allowed.test", server, "/plain?q=1");
  g_autofree char *out = curl (NULL, "--proxy", proxy, "-H", "Proxy-Authorization: Basic c2VjcmV0", url, NULL);

  g_assert_cmpstr (out, ==, "hello from test code=200");
  /* The server gets an origin-form request, without what was the proxy's. */
  {
    g_autofree char *head = server_dup_head (server);

    g_assert_true (g_str_has_prefix (head, "GET /plain?q=1 HTTP/1.1\r\n"));
    g_assert_null (strstr (head, "Proxy-"));
    g_assert_nonnull (strstr (head, "Connection: close\r\n"));
  }
  fixture_free (fixture);
}

static void
test_socks5 (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  g_autofree char *socks = g_strdup_printf ("127.0.0.1:%u", fixture->port);
  g_autofree char *url = target_url ("allowed.test", server, "/socks");
  g_autofree char *out = curl (NULL, "--socks5-hostname", socks, url, NULL);
  const PaddockMessage *message;

  g_assert_cmpstr (out, ==, "hello from test code=200");
  {
    g_autofree char *head = server_dup_head (server);

    g_assert_true (g_str_has_prefix (head, "GET /socks HTTP/1.1\r\n"));
  }
  message = find_message (fixture, "allowed.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_ALLOW);

  /* A name nobody allowed, with no one to ask, gets SOCKS's refusal. */
  g_free (url);
  url = target_url ("unknown.test", server, "/socks");
  g_free (out);
  out = curl (NULL, "--socks5-hostname", socks, url, NULL);
  g_assert_cmpstr (out, ==, " code=000");
  message = find_message (fixture, "unknown.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
  fixture_free (fixture);
}

static void
test_denied (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autofree char *state = g_dir_make_tmp ("paddock-net-XXXXXX", NULL);
  g_autofree char *log_path = g_build_filename (state, "audit.jsonl", NULL);
  g_autoptr(GError) error = NULL;
  PaddockAudit *audit = paddock_audit_open (log_path, &error);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .deny_hosts = (const char *[]) { "denied.test", NULL },
                                   .presets = (const char *[]) { NULL }, .audit = audit };
  Fixture *fixture = fixture_new (&config);
  g_autofree char *proxy = proxy_url (fixture);
  g_autofree char *url = target_url ("denied.test", server, "/");
  g_autofree char *out = NULL;
  g_autofree char *log = NULL;
  const PaddockMessage *message;

  g_assert_no_error (error);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_nonnull (strstr (out, "Paddock's network lock denies denied.test"));
  g_assert_true (g_str_has_suffix (out, "code=403"));
  {
    g_autofree char *request = g_strdup_printf ("CONNECT denied.test:%u HTTP/1.1\r\n\r\n", server->port);
    Raw *raw = raw_start (fixture->port, request, strlen (request), 0, 0, FALSE);
    g_autofree char *received = raw_finish (raw, NULL);

    g_assert_true (g_str_has_prefix (received, "HTTP/1.1 403 Forbidden\r\n"));
    g_assert_nonnull (strstr (received, "Paddock's network lock denies denied.test"));
  }
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 0);

  message = find_message (fixture, "denied.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (message->rule, ==, "deny denied.test");
  /* The refused client is curl, found by its socket. */
  g_assert_cmpint (message->pid, >, 0);
  g_assert_true (g_str_has_suffix (message->exe, "/curl"));
  fixture_free (fixture);
  paddock_audit_close (audit);

  g_assert_true (g_file_get_contents (log_path, &log, NULL, NULL));
  g_assert_nonnull (strstr (log, "\"type\":\"net\",\"host\":\"denied.test\""));
  g_assert_nonnull (strstr (log, "\"decision\":\"deny\",\"by\":\"rule\""));

  /* The same name without the deny goes through: the refusal was the list's. */
  config.deny_hosts = NULL;
  config.audit = NULL;
  fixture = fixture_new (&config);
  assert_curl_gets_through (fixture, server, "denied.test");
  fixture_free (fixture);
  test_remove_tree (state);
}

/* A resolver of the test's own: every name under .test is 127.0.0.1,
 * but private.test, which is 127.0.0.2; so is registry.npmjs.org, which
 * is never looked up for real here. */
typedef struct { GResolver parent; } TestResolver;
typedef struct { GResolverClass parent_class; } TestResolverClass;
static GType test_resolver_get_type (void);
G_DEFINE_TYPE (TestResolver, test_resolver, G_TYPE_RESOLVER)

static GList *
test_resolver_lookup (const char *hostname)
{
  if (!g_str_has_suffix (hostname, ".test") && strcmp (hostname, "registry.npmjs.org") != 0)
    return NULL;
  return g_list_prepend (NULL, g_inet_address_new_from_string (strcmp (hostname, "private.test") == 0 ? "127.0.0.2"
                                                                                                    : "127.0.0.1"));
}

static GList *
test_resolver_lookup_by_name (GResolver     *resolver,
                              const char    *hostname,
                              GCancellable  *cancellable,
                              GError       **error)
{
  GList *list = test_resolver_lookup (hostname);

  if (list == NULL)
    g_set_error (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_NOT_FOUND, "no %s here", hostname);
  return list;
}

static void
test_resolver_lookup_by_name_async (GResolver           *resolver,
                                    const char          *hostname,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);
  GList *list = test_resolver_lookup (hostname);

  if (list == NULL)
    g_task_return_new_error (task, G_RESOLVER_ERROR, G_RESOLVER_ERROR_NOT_FOUND, "no %s here", hostname);
  else
    g_task_return_pointer (task, list, (GDestroyNotify) g_resolver_free_addresses);
}

static GList *
test_resolver_lookup_by_name_finish (GResolver     *resolver,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_resolver_class_init (TestResolverClass *klass)
{
  GResolverClass *resolver_class = G_RESOLVER_CLASS (klass);

  resolver_class->lookup_by_name = test_resolver_lookup_by_name;
  resolver_class->lookup_by_name_async = test_resolver_lookup_by_name_async;
  resolver_class->lookup_by_name_finish = test_resolver_lookup_by_name_finish;
}

static void
test_resolver_init (TestResolver *resolver)
{
}

/* The asks the registry sent, and a test that answers them. */
typedef struct
{
  PaddockAsks     *asks;
  GPtrArray       *messages;
  PaddockDecision  answer;
  PaddockRemember  remember;
  gboolean         asked;
} Asker;

static void
on_ask_message (PaddockMessage *message,
                gpointer        user_data)
{
  Asker *asker = user_data;

  if (message->type == PADDOCK_MESSAGE_ASK)
    {
      asker->asked = TRUE;
      if (asker->answer != PADDOCK_DECISION_NONE)
        {
          g_autoptr(GError) error = NULL;

          g_assert_true (paddock_asks_decide (asker->asks, message->id, asker->answer, asker->remember,
                                              "user", -1, &error));
          g_assert_no_error (error);
        }
    }
  g_ptr_array_add (asker->messages, message);
}

static void
test_ask (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autoptr(GResolver) resolver = g_object_new (test_resolver_get_type (), NULL);
  g_autoptr(GResolver) system_resolver = g_resolver_get_default ();
  g_autofree char *project = g_dir_make_tmp ("paddock-project-XXXXXX", NULL);
  Asker asker = { .messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free) };
  PaddockNetProxyConfig config = { .project = project, .presets = (const char *[]) { NULL } };
  Fixture *fixture;
  g_autofree char *proxy = NULL;
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  PaddockProjectConfig saved = { 0 };
  g_autoptr(GError) error = NULL;
  const PaddockMessage *message;
  PaddockMessage *ask;

  g_resolver_set_default (resolver);
  fixture = fixture_new (&config);
  proxy = proxy_url (fixture);
  asker.asks = paddock_asks_new (1, PADDOCK_ON_ASK_WAIT, NULL, on_ask_message, &asker);
  paddock_asks_set_deciders (asker.asks, 1);
  paddock_net_proxy_set_asks (fixture->proxy, asker.asks);
  /* This process stands for the agent: the asking curl is looked for in
   * its tree (test_denied finds one without an agent). */
  paddock_net_proxy_set_agent (fixture->proxy, getpid ());

  /* Nobody answers: refused at the deadline. */
  url = target_url ("asked.test", server, "/");
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (asker.asked);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  g_assert_nonnull (strstr (out, "nobody allowed it in time"));
  message = find_message (fixture, "asked.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (message->by, ==, "timeout");
  g_assert_cmpint (message->id, >=, 0);
  ask = g_ptr_array_index (asker.messages, 0);
  g_assert_cmpstr (ask->kind, ==, "host");
  g_assert_cmpstr (ask->host, ==, "asked.test");
  g_assert_cmpint (ask->port, ==, server->port);
  g_assert_cmpint (ask->pid, >, 0);
  g_assert_true (g_str_has_suffix (ask->exe, "/curl"));
  g_assert_cmpstr (ask->argv[0], ==, "curl");

  /* Allowed in this project: it goes through, and the project keeps it. */
  asker.answer = PADDOCK_DECISION_ALLOW;
  asker.remember = PADDOCK_REMEMBER_PROJECT;
  g_free (out);
  out = curl (NULL, "--proxytunnel", "--proxy", proxy, url, NULL);
  g_assert_cmpstr (out, ==, "hello from test code=200");
  g_assert_true (paddock_project_config_load (project, &saved, &error));
  g_assert_no_error (error);
  g_assert_nonnull (saved.hosts_allow);
  g_assert_cmpstr (saved.hosts_allow[0], ==, "asked.test");
  g_assert_null (saved.hosts_allow[1]);
  paddock_project_config_clear (&saved);

  /* Remembered now: no second ask. */
  asker.asked = FALSE;
  g_free (out);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_cmpstr (out, ==, "hello from test code=200");
  g_assert_false (asker.asked);

  fixture_free (fixture);
  paddock_asks_free (asker.asks);
  g_ptr_array_unref (asker.messages);
  g_resolver_set_default (system_resolver);
  test_remove_tree (project);
}

static void
test_private_address (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autoptr(GResolver) resolver = g_object_new (test_resolver_get_type (), NULL);
  g_autoptr(GResolver) system_resolver = g_resolver_get_default ();
  PaddockNetProxyConfig config = { .allow_hosts = (const char *[]) { "*.test", NULL }, .presets = (const char *[]) { NULL } };
  Fixture *fixture;
  g_autofree char *proxy = NULL;
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  const PaddockMessage *message;
  static const struct { const char *address; gboolean private; } addresses[] = {
    { "127.0.0.2", TRUE }, { "10.1.2.3", TRUE }, { "172.16.0.1", TRUE }, { "172.32.0.1", FALSE },
    { "192.168.1.1", TRUE }, { "169.254.169.254", TRUE }, { "100.64.0.1", TRUE }, { "100.128.0.1", FALSE },
    { "0.1.2.3", TRUE }, { "93.184.215.14", FALSE }, { "::1", TRUE }, { "fe80::1", TRUE }, { "fd00::1", TRUE },
    { "::ffff:192.168.0.1", TRUE }, { "::ffff:93.184.215.14", FALSE }, { "2606:2800:21f:cb07::1", FALSE },
  };

  /* The classifier alone, on addresses never connected to. */
  for (guint i = 0; i < G_N_ELEMENTS (addresses); i++)
    {
      g_autoptr(GInetAddress) address = g_inet_address_new_from_string (addresses[i].address);

      g_assert_cmpint (paddock_net_address_is_private (g_inet_address_to_bytes (address),
                                                       g_inet_address_get_native_size (address)),
                       ==, addresses[i].private);
    }

  /* A wildcard pattern lets the name through, not to a private address. */
  g_resolver_set_default (resolver);
  fixture = fixture_new (&config);
  proxy = proxy_url (fixture);
  url = target_url ("private.test", server, "/");
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  g_assert_nonnull (strstr (out, "127.0.0.2, a private address"));
  message = find_message (fixture, "private.test", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (message->rule, ==, "private-address");
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 0);

  /* An exact pattern the user gave reaches it: loopback here. */
  g_free (url);
  url = target_url ("public.test", server, "/");
  g_free (out);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  fixture_free (fixture);
  config.allow_hosts = (const char *[]) { "public.test", NULL };
  fixture = fixture_new (&config);
  g_free (proxy);
  proxy = proxy_url (fixture);
  g_free (out);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_cmpstr (out, ==, "hello from test code=200");
  fixture_free (fixture);
  g_resolver_set_default (system_resolver);
}

/* The presets allow their names, the ones the session names only, and
 * never to a private address: npm's registry, which the test's resolver
 * sends to loopback, is let through by name and refused by address. */
static void
test_presets (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autoptr(GResolver) resolver = g_object_new (test_resolver_get_type (), NULL);
  g_autoptr(GResolver) system_resolver = g_resolver_get_default ();
  PaddockNetProxyConfig config = { .presets = (const char *[]) { "registries", NULL } };
  Fixture *fixture;
  g_autofree char *proxy = NULL;
  g_autofree char *url = NULL;
  g_autofree char *out = NULL;
  const PaddockMessage *message;

  g_resolver_set_default (resolver);
  fixture = fixture_new (&config);
  proxy = proxy_url (fixture);
  url = target_url ("registry.npmjs.org", server, "/");
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  message = find_message (fixture, "registry.npmjs.org", NULL);
  g_assert_nonnull (message);
  g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (message->rule, ==, "private-address");
  fixture_free (fixture);

  /* Without the registries, the name itself is refused (nobody to ask). */
  config.presets = (const char *[]) { "forges", "claude", NULL };
  fixture = fixture_new (&config);
  g_free (proxy);
  proxy = proxy_url (fixture);
  g_free (out);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  message = find_message (fixture, "registry.npmjs.org", NULL);
  g_assert_nonnull (message);
  g_assert_cmpstr (message->by, ==, "default");
  g_assert_null (message->rule);
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 0);
  fixture_free (fixture);
  g_resolver_set_default (system_resolver);
}

static void
test_garbage (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  static const char * const http_garbage[] = {
    "\x16\x03\x01\x02\x01\x01\x01\x01\xfc",
    "GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n",               /* not absolute: not a proxy request */
    "GET http://allowed.test/ HTTP/1.1\nHost: x\n\n",              /* bare LF */
    "CONNECT allowed.test HTTP/1.1\r\n\r\n",                       /* no port */
    "CONNECT allowed.test:99999 HTTP/1.1\r\n\r\n",
    "GET http://user@allowed.test/ HTTP/1.1\r\n\r\n",
    "GET http://allowed.test/ HTTP/1.1\r\n folded: x\r\n\r\n",
    "GET http://allowed..test/ HTTP/1.1\r\n\r\n",
    "GET https://allowed.test/ HTTP/1.1\r\n\r\n",
  };
  struct { const char *send; gsize length; const char *reply; gsize reply_length; } socks_garbage[] = {
    { "\x05\x01\x02", 3, "\x05\xff", 2 },                                          /* no "no authentication" */
    { "\x05\x01\x00\x05\x02\x00\x01\x7f\x00\x00\x01\x00\x50", 13, "\x05\x00\x05\x07", 4 },  /* BIND */
    { "\x05\x01\x00\x05\x03\x00\x01\x7f\x00\x00\x01\x00\x50", 13, "\x05\x00\x05\x07", 4 },  /* UDP ASSOCIATE */
    { "\x05\x01\x00\x05\x01\x00\x09", 7, "\x05\x00\x05\x08", 4 },                  /* no such address type */
    { "\x05\x01\x00\x05\x01\x00\x03\x03" "a b\x00\x50", 13, "\x05\x00\x05\x08", 4 },  /* not a name */
    { "\x04\x01\x00\x50\x7f\x00\x00\x01\x00", 9, "HTTP/1.1 400", 12 },            /* SOCKS4 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (http_garbage); i++)
    {
      Raw *raw = raw_start (fixture->port, http_garbage[i], strlen (http_garbage[i]), 0, 0, FALSE);
      g_autofree char *received = raw_finish (raw, NULL);

      if (!g_str_has_prefix (received, "HTTP/1.1 400 "))
        g_error ("%s: %s", http_garbage[i], received);
    }
  for (guint i = 0; i < G_N_ELEMENTS (socks_garbage); i++)
    {
      Raw *raw = raw_start (fixture->port, socks_garbage[i].send, socks_garbage[i].length, 0, 0, FALSE);
      gsize length = 0;
      g_autofree char *received = raw_finish (raw, &length);

      g_test_message ("SOCKS garbage %u", i);
      g_assert_cmpmem (received, MIN (length, socks_garbage[i].reply_length),
                       socks_garbage[i].reply, socks_garbage[i].reply_length);
    }
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 0);
  assert_curl_gets_through (fixture, server, "allowed.test");
  fixture_free (fixture);
}

static void
test_long_header (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  g_autoptr(GString) request = g_string_new ("GET http://allowed.test/ HTTP/1.1\r\nX-Long: ");
  Raw *raw;
  g_autofree char *received = NULL;

  for (guint i = 0; i < 64 * 1024; i++)
    g_string_append_c (request, 'a');
  g_string_append (request, "\r\n\r\n");
  raw = raw_start (fixture->port, request->str, request->len, 0, 0, FALSE);
  received = raw_finish (raw, NULL);
  g_assert_true (g_str_has_prefix (received, "HTTP/1.1 431 "));
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 0);
  assert_curl_gets_through (fixture, server, "allowed.test");
  fixture_free (fixture);
}

static void
test_slow_client (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  static const char request[] = "GET http://allowed.test/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n";
  Raw *raw;
  g_autofree char *received = NULL;

  /* A byte every 100 ms would take 6 s; the head has 1 s. */
  paddock_net_proxy_set_head_timeout (fixture->proxy, 1000);
  raw = raw_start (fixture->port, request, strlen (request), 1, 100, FALSE);
  assert_curl_gets_through (fixture, server, "allowed.test");
  received = raw_finish (raw, NULL);
  /* Cut short: the whole request would have been answered 200. */
  g_assert_true (g_str_has_prefix (received, "HTTP/1.1 408 "));
  g_assert_cmpint (g_atomic_int_get (&server->served), ==, 1);
  fixture_free (fixture);
}

static void
test_idle_connections (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  struct rlimit limit;
  int idle[1000];

  /* Both ends of each are in this process. */
  g_assert_no_errno (getrlimit (RLIMIT_NOFILE, &limit));
  if (limit.rlim_max < 2 * G_N_ELEMENTS (idle) + 256)
    {
      g_test_skip ("too few descriptors allowed for 1,000 connections");
      fixture_free (fixture);
      return;
    }
  limit.rlim_cur = limit.rlim_max;
  g_assert_no_errno (setrlimit (RLIMIT_NOFILE, &limit));

  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    {
      idle[i] = connect_loopback (fixture->port);
      /* Half of them start a request and stop. */
      if (i % 2 == 1)
        g_assert_cmpint (write (idle[i], "GET http://allo", 15), ==, 15);
    }
  assert_curl_gets_through (fixture, server, "allowed.test");
  for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
    close (idle[i]);
  fixture_free (fixture);
}

static void
test_half_closed (void)
{
  g_autoptr(Server) echo = server_start (TRUE);
  g_autoptr(Server) server = server_start (FALSE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture = fixture_new (&config);
  g_autofree char *request = g_strdup_printf ("CONNECT allowed.test:%u HTTP/1.1\r\n\r\n0123456789", echo->port);
  g_autofree char *received = NULL;
  Raw *raw;
  const PaddockMessage *message;

  /* The client sends and shuts its side; the server reads to the end
   * and still answers through the tunnel's other half. */
  raw = raw_start (fixture->port, request, strlen (request), 0, 0, TRUE);
  received = raw_finish (raw, NULL);
  g_assert_cmpstr (received, ==, "HTTP/1.1 200 Connection established\r\n\r\ngot 10 bytes");
  while ((message = find_message (fixture, "allowed.test", "end")) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (message->bytes_out, ==, 10);
  g_assert_cmpint (message->bytes_in, ==, strlen ("got 10 bytes"));
  assert_curl_gets_through (fixture, server, "allowed.test");
  fixture_free (fixture);
}

static void
test_free_closes (void)
{
  g_autoptr(Server) echo = server_start (TRUE);
  g_autoptr(GResolver) resolver = g_object_new (test_resolver_get_type (), NULL);
  g_autoptr(GResolver) system_resolver = g_resolver_get_default ();
  Asker asker = { .messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free) };
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  Fixture *fixture;
  g_autofree char *tunnel_request = g_strdup_printf ("CONNECT allowed.test:%u HTTP/1.1\r\n\r\n", echo->port);
  g_autofree char *held_request = g_strdup_printf ("CONNECT held.test:%u HTTP/1.1\r\n\r\n", echo->port);
  g_autofree char *tunnel_received = NULL;
  g_autofree char *held_received = NULL;
  Raw *tunnel;
  Raw *held;

  g_resolver_set_default (resolver);
  fixture = fixture_new (&config);
  asker.asks = paddock_asks_new (60, PADDOCK_ON_ASK_WAIT, NULL, on_ask_message, &asker);
  paddock_asks_set_deciders (asker.asks, 1);
  paddock_net_proxy_set_asks (fixture->proxy, asker.asks);

  /* A tunnel up and a connection held on its ask. */
  tunnel = raw_start (fixture->port, tunnel_request, strlen (tunnel_request), 0, 0, FALSE);
  held = raw_start (fixture->port, held_request, strlen (held_request), 0, 0, FALSE);
  while (!g_atomic_int_get (&tunnel->answered) || !asker.asked)
    g_main_context_iteration (NULL, TRUE);
  g_clear_pointer (&fixture->proxy, paddock_net_proxy_free);
  tunnel_received = raw_finish (tunnel, NULL);
  held_received = raw_finish (held, NULL);
  g_assert_true (g_str_has_prefix (tunnel_received, "HTTP/1.1 200 Connection established\r\n\r\n"));
  g_assert_cmpstr (held_received, ==, "");
  /* The tunnel's end was told, and the ask withdrawn. */
  g_assert_nonnull (find_message (fixture, "allowed.test", "end"));
  g_assert_cmpuint (g_ptr_array_index (asker.messages, asker.messages->len - 1) != NULL, ==, TRUE);
  g_assert_cmpint (((PaddockMessage *) g_ptr_array_index (asker.messages, asker.messages->len - 1))->type,
                   ==, PADDOCK_MESSAGE_DECIDED);

  fixture_free (fixture);
  paddock_asks_free (asker.asks);
  g_ptr_array_unref (asker.messages);
  g_resolver_set_default (system_resolver);
}

/* The lock's child hands the listeners over a socket, as paddock-run
 * gets them: the proxy's, and a forwarded port's, which reaches the
 * host's loopback port it names with no request at all. */
static void
test_handover (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autoptr(Server) echo = server_start (TRUE);
  PaddockNetProxyConfig config = { .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0 };
  g_autofree char *what = NULL;
  g_autofree char *received = NULL;
  guint16 forward_port;
  int forward_fd;
  int proxy_fd;
  int pair[2];
  Raw *raw;

  fixture.proxy = paddock_net_proxy_new (&config, &error);
  g_assert_no_error (error);
  fixture.messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  paddock_net_proxy_set_func (fixture.proxy, collect, fixture.messages);
  g_assert_no_errno (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair));
  paddock_net_proxy_take_handover (fixture.proxy, pair[0]);

  proxy_fd = listen_loopback (&fixture.port);
  forward_fd = listen_loopback (&forward_port);
  what = g_strdup_printf ("port %u", echo->port);
  g_assert_cmpint (paddock_send_fd (pair[1], proxy_fd, "proxy", 5), ==, 0);
  g_assert_cmpint (paddock_send_fd (pair[1], forward_fd, what, strlen (what)), ==, 0);
  close (proxy_fd);
  close (forward_fd);
  close (pair[1]);

  assert_curl_gets_through (&fixture, server, "allowed.test");
  raw = raw_start (forward_port, "forwarded", 9, 0, 0, TRUE);
  received = raw_finish (raw, NULL);
  g_assert_cmpstr (received, ==, "got 9 bytes");
  while (find_message (&fixture, "127.0.0.1", "end") == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_clear_pointer (&fixture.proxy, paddock_net_proxy_free);
  g_ptr_array_unref (fixture.messages);
}

static void
write_settings (const char *project,
                const char *json)
{
  g_autofree char *path = paddock_project_config_path (project);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GString) text = g_string_new (json);
  g_autoptr(GError) error = NULL;

  g_string_replace (text, "@PROJECT@", project, 0);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text->str, -1, &error));
  g_assert_no_error (error);
}

/* A project's "hosts": read strictly, its deny before every allow, its
 * allow as the user's own; adding to it keeps the rest of the file. */
static void
test_project_hosts (void)
{
  g_autoptr(Server) server = server_start (FALSE);
  g_autofree char *project = g_dir_make_tmp ("paddock-project-XXXXXX", NULL);
  g_autofree char *settings = paddock_project_config_path (project);
  PaddockNetProxyConfig config = { .project = project, .resolve = resolve_allowed, .presets = (const char *[]) { NULL } };
  static const struct { const char *hosts; const char *message; } broken[] = {
    { "[]", "\"hosts\" must be an object" },
    { "{ \"alow\": [] }", "\"hosts\".\"alow\" is not understood" },
    { "{ \"allow\": \"example.org\" }", "\"hosts\".\"allow\" must be a list of host patterns" },
    { "{ \"deny\": [\"exa mple.org\"] }", "exa mple.org is not a host pattern" },
    { "{ \"deny\": [\"*\"] }", "* is not a host pattern" },
  };
  g_autoptr(GError) error = NULL;
  PaddockProjectConfig saved = { 0 };
  g_autofree char *text = NULL;
  Fixture *fixture;
  g_autofree char *proxy = NULL;
  g_autofree char *url = target_url ("denied.test", server, "/");
  g_autofree char *out = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autofree char *json = g_strdup_printf ("{ \"path\": \"@PROJECT@\", \"hosts\": %s }", broken[i].hosts);

      write_settings (project, json);
      g_assert_null (paddock_net_proxy_new (&config, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, broken[i].message));
      g_clear_error (&error);
    }

  /* The project's deny comes before --resolve's allow. */
  write_settings (project, "{ \"path\": \"@PROJECT@\", \"lock\": true, \"later\": 7,"
                           "  \"hosts\": { \"deny\": [\"denied.test\"], \"allow\": [\"*.example.org:443\"] } }");
  fixture = fixture_new (&config);
  proxy = proxy_url (fixture);
  out = curl (NULL, "--proxy", proxy, url, NULL);
  g_assert_true (g_str_has_suffix (out, "code=403"));
  g_assert_cmpstr (find_message (fixture, "denied.test", NULL)->rule, ==, "deny denied.test");
  fixture_free (fixture);

  g_assert_true (paddock_project_config_add_host_allow (project, "api.example.org", &error));
  g_assert_no_error (error);
  g_assert_true (paddock_project_config_add_host_allow (project, "api.example.org", &error));
  g_assert_false (paddock_project_config_add_host_allow (project, "*", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);
  g_assert_true (paddock_project_config_load (project, &saved, &error));
  g_assert_no_error (error);
  g_assert_true (saved.has_lock && saved.lock);
  g_assert_cmpstrv (saved.hosts_allow, ((const char * const []) { "*.example.org:443", "api.example.org", NULL }));
  g_assert_cmpstrv (saved.hosts_deny, ((const char * const []) { "denied.test", NULL }));
  paddock_project_config_clear (&saved);
  g_assert_true (g_file_get_contents (settings, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"later\" : 7"));
  test_remove_tree (project);
}

static void
test_config (void)
{
  g_autoptr(GError) error = NULL;
  PaddockNetProxyConfig config = { .allow_hosts = (const char *[]) { "*.example.org:443", "example.org", NULL } };
  PaddockNetProxy *proxy = paddock_net_proxy_new (&config, &error);
  static const char * const bad_patterns[] = { "exa mple.org", "*example.org", "example.org:0", "Example.org", "a.*.org", "", NULL };

  g_assert_no_error (error);
  g_assert_nonnull (proxy);
  paddock_net_proxy_free (proxy);
  for (guint i = 0; bad_patterns[i] != NULL; i++)
    {
      config.allow_hosts = (const char *[]) { bad_patterns[i], NULL };
      proxy = paddock_net_proxy_new (&config, &error);
      g_assert_null (proxy);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
  config.allow_hosts = NULL;
  config.presets = (const char *[]) { "nonesuch", NULL };
  g_assert_null (paddock_net_proxy_new (&config, &error));
  g_assert_nonnull (strstr (error->message, "nonesuch"));
  g_clear_error (&error);
  config.presets = NULL;
  config.resolve = (const char *[]) { "name.test=not-an-address", NULL };
  g_assert_null (paddock_net_proxy_new (&config, &error));
  g_assert_nonnull (strstr (error->message, "name.test=not-an-address"));
}

int
main (int    argc,
      char **argv)
{
  char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paddock/net-proxy/config", test_config);
  g_test_add_func ("/paddock/net-proxy/connect", test_connect);
  g_test_add_func ("/paddock/net-proxy/plain-http", test_plain_http);
  g_test_add_func ("/paddock/net-proxy/socks5", test_socks5);
  g_test_add_func ("/paddock/net-proxy/denied", test_denied);
  g_test_add_func ("/paddock/net-proxy/ask", test_ask);
  g_test_add_func ("/paddock/net-proxy/private-address", test_private_address);
  g_test_add_func ("/paddock/net-proxy/presets", test_presets);
  g_test_add_func ("/paddock/net-proxy/garbage", test_garbage);
  g_test_add_func ("/paddock/net-proxy/long-header", test_long_header);
  g_test_add_func ("/paddock/net-proxy/slow-client", test_slow_client);
  g_test_add_func ("/paddock/net-proxy/idle-connections", test_idle_connections);
  g_test_add_func ("/paddock/net-proxy/half-closed", test_half_closed);
  g_test_add_func ("/paddock/net-proxy/free-closes", test_free_closes);
  g_test_add_func ("/paddock/net-proxy/handover", test_handover);
  g_test_add_func ("/paddock/net-proxy/project-hosts", test_project_hosts);
  status = g_test_run ();
  test_home_remove (home);
  return status;
}
