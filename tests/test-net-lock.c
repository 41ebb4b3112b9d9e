/* test-net-lock.c: the network lock's enforcement, against the real kernel
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each attempt is shown refused under --net=locked and working with
 * --net=open, with the folder lock of --backend=landlock or namespaces,
 * or none (--backend=none). Every server is one this test starts on
 * 127.0.0.1; nothing else is ever reached.
 */
#include "config.h"

#include "test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *paddock_run;
static const char *backend;
static char *base, *home, *project, *runtime_dir;

static char **
child_env (void)
{
  g_autofree char *config_home = g_build_filename (home, ".config", NULL);
  g_autofree char *state_home = g_build_filename (home, ".local", "state", NULL);
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_unsetenv (env, "XDG_DATA_HOME");
  env = g_environ_unsetenv (env, "XDG_CACHE_HOME");
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_setenv (env, "PATH", "/usr/local/bin:/usr/bin:/bin", TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  /* The test's own proxy settings, if any, are never the agent's. */
  for (const char **name = (const char *[]) { "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy",
                                              "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy", NULL };
       *name != NULL; name++)
    env = g_environ_unsetenv (env, *name);
  return env;
}

/* The Python @script through paddock-run, the network @net ("open" or
 * "locked"; NULL: the project's saved choice), with the folder lock of --backend, and @extra options. */
static TestResult *
run_python (const char         *net,
            const char * const *extra,
            const char         *script)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_autofree char *net_arg = net != NULL ? g_strdup_printf ("--net=%s", net) : NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, project_arg);
  if (strcmp (backend, "none") != 0)
    {
      g_ptr_array_add (argv, (char *) "--lock");
      g_ptr_array_add (argv, backend_arg);
    }
  if (net_arg != NULL)
    g_ptr_array_add (argv, net_arg);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) extra[i]);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, (char *) "/usr/bin/python3");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) script);
  g_ptr_array_add (argv, NULL);
  return test_run_full ((const char * const *) argv->pdata,
                        &(TestRunOptions) { .env = (const char * const *) env, .timeout = 60 });
}

/* A socket of @type bound to 127.0.0.1 on a port the kernel picks, and
 * listening where it is a stream; the port in *@port. */
static int
loopback_socket (int      type,
                 guint16 *port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  int fd = socket (AF_INET, type | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  if (type == SOCK_STREAM)
    g_assert_cmpint (listen (fd, 16), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &address, &length), ==, 0);
  *port = ntohs (address.sin_port);
  return fd;
}

#define CONNECT_SCRIPT \
  "import socket\n" \
  "s = socket.socket()\n" \
  "s.settimeout(10)\n" \
  "try:\n" \
  "    s.connect(('127.0.0.1', %u))\n" \
  "    print('connected')\n" \
  "except OSError as e:\n" \
  "    print('refused', e)\n"

/* A service on the host's loopback, bypassing the proxy: refused locked,
 * reached open. The listener's backlog takes the connection unaccepted. */
static void
test_direct_tcp (void)
{
  guint16 port;
  int fd = loopback_socket (SOCK_STREAM, &port);
  g_autofree char *script = g_strdup_printf (CONNECT_SCRIPT, (guint) port);
  g_autoptr(TestResult) locked = run_python ("locked", NULL, script);
  g_autoptr(TestResult) open = run_python ("open", NULL, script);

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "refused"));
  close (fd);
  g_assert_cmpint (open->status, ==, 0);
  g_assert_nonnull (strstr (open->out, "connected"));
}

/* The agent cannot step back into the host's network namespace, even as
 * root: without the folder lock its capabilities are its own user
 * namespace's, under it they are dropped and setns() refused. */
static void
test_setns_host (void)
{
  guint16 port;
  int fd = loopback_socket (SOCK_STREAM, &port);
  g_autofree char *script = g_strdup_printf (
    "import ctypes, os, socket\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "try:\n"
    "    ns = os.open('/proc/%d/ns/net', os.O_RDONLY)\n"
    "    r = libc.setns(ns, 0x40000000)\n"
    "    print('setns', r, os.strerror(ctypes.get_errno()) if r else '')\n"
    "except OSError as e:\n"
    "    print('open refused', e)\n"
    "s = socket.socket()\n"
    "s.settimeout(10)\n"
    "try:\n"
    "    s.connect(('127.0.0.1', %u))\n"
    "    print('connected')\n"
    "except OSError as e:\n"
    "    print('refused', e)\n", (int) getpid (), (guint) port);
  g_autoptr(TestResult) locked = run_python ("locked", NULL, script);

  close (fd);
  g_assert_cmpint (locked->status, ==, 0);
  g_assert_null (strstr (locked->out, "setns 0 "));
  g_assert_nonnull (strstr (locked->out, "refused"));
  g_assert_null (strstr (locked->out, "connected"));
}

/* Whether a datagram saying @word is waiting at @fd; drains the rest. */
static gboolean
received (int         fd,
          const char *word)
{
  gboolean found = FALSE;
  char buf[64];
  ssize_t n;

  while ((n = recv (fd, buf, sizeof buf - 1, MSG_DONTWAIT)) > 0)
    {
      buf[n] = '\0';
      found = found || strcmp (buf, word) == 0;
    }
  return found;
}

#define UDP_SCRIPT \
  "import socket\n" \
  "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n" \
  "try:\n" \
  "    s.sendto(b'%s', ('127.0.0.1', %u))\n" \
  "    print('sent')\n" \
  "except OSError as e:\n" \
  "    print('refused', e)\n"

/* A datagram to the host's loopback never arrives locked; it does open.
 * The sender's process has ended by then, and loopback delivery is done
 * within the send, so whatever is not there was not sent. */
static void
test_udp (void)
{
  guint16 port;
  int fd = loopback_socket (SOCK_DGRAM, &port);
  g_autofree char *locked_script = g_strdup_printf (UDP_SCRIPT, "locked", (guint) port);
  g_autofree char *open_script = g_strdup_printf (UDP_SCRIPT, "open", (guint) port);
  g_autoptr(TestResult) locked = run_python ("locked", NULL, locked_script);
  gboolean locked_arrived = received (fd, "locked");
  g_autoptr(TestResult) open = run_python ("open", NULL, open_script);

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_false (locked_arrived);
  gboolean open_arrived = received (fd, "open");

  close (fd);
  g_assert_cmpint (open->status, ==, 0);
  g_assert_true (open_arrived);
}

/* The agent's own servers: it listens on its loopback and talks to itself. */
static void
test_own_loopback (void)
{
  const char *script =
    "import socket\n"
    "server = socket.socket()\n"
    "server.bind(('127.0.0.1', 0))\n"
    "server.listen(1)\n"
    "client = socket.create_connection(server.getsockname(), timeout=10)\n"
    "peer, _ = server.accept()\n"
    "peer.sendall(b'own loopback works')\n"
    "print(client.recv(64).decode())\n";
  g_autoptr(TestResult) locked = run_python ("locked", NULL, script);

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "own loopback works"));
}

/* Accepts one connection on the listener (within 30 s) and greets it. */
static gpointer
greet_one (gpointer data)
{
  int fd = GPOINTER_TO_INT (data);
  struct pollfd poll_fd = { .fd = fd, .events = POLLIN };
  const char *greeting = "hello from the host\n";
  int peer;

  if (poll (&poll_fd, 1, 30 * 1000) != 1)
    return NULL;
  peer = accept4 (fd, NULL, NULL, SOCK_CLOEXEC);
  if (peer < 0)
    return NULL;
  if (write (peer, greeting, strlen (greeting)) < 0)
    g_message ("cannot greet: %s", g_strerror (errno));
  close (peer);
  return NULL;
}

/* --allow-port forwards a host loopback port into the agent's loopback:
 * the host's own service answers. */
static void
test_allow_port (void)
{
  guint16 port;
  int fd = loopback_socket (SOCK_STREAM, &port);
  g_autofree char *port_arg = g_strdup_printf ("--allow-port=%u", (guint) port);
  g_autofree char *script = g_strdup_printf ("import socket\n"
                                             "s = socket.create_connection(('127.0.0.1', %u), timeout=10)\n"
                                             "print(s.makefile().readline().strip())\n", (guint) port);
  GThread *thread = g_thread_new ("greeter", greet_one, GINT_TO_POINTER (fd));
  g_autoptr(TestResult) locked = run_python ("locked", (const char *[]) { port_arg, NULL }, script);

  g_thread_join (thread);
  close (fd);
  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "hello from the host"));
}

/* The agent is told where the proxy is, and the proxy's port on its
 * loopback reaches paddock-run, which answers an HTTP request (here with
 * a refusal, the name being denied). */
static void
test_proxy (void)
{
  const char *script =
    "import os, socket\n"
    "for name in ('HTTP_PROXY', 'https_proxy', 'ALL_PROXY', 'no_proxy'):\n"
    "    print(name, os.environ.get(name))\n"
    "s = socket.create_connection(('127.0.0.1', 3128), timeout=20)\n"
    "s.sendall(b'CONNECT denied.test:443 HTTP/1.1\\r\\nHost: denied.test:443\\r\\n\\r\\n')\n"
    "print('reply', s.recv(12).decode(errors='replace'))\n";
  g_autoptr(TestResult) locked = run_python ("locked", (const char *[]) { "--deny-host=denied.test", NULL }, script);

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "HTTP_PROXY http://127.0.0.1:3128\n"));
  g_assert_nonnull (strstr (locked->out, "https_proxy http://127.0.0.1:3128\n"));
  g_assert_nonnull (strstr (locked->out, "ALL_PROXY socks5h://127.0.0.1:3128\n"));
  g_assert_nonnull (strstr (locked->out, "no_proxy localhost,127.0.0.1,::1\n"));
  g_assert_nonnull (strstr (locked->out, "reply HTTP/1."));
}

/* Runs git with @args in @dir, as the user, and fails the test where it fails. */
static void
git (const char         *dir,
     const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(TestResult) result = NULL;

  g_ptr_array_add (argv, (char *) "git");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "user.name=Paddock Test");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "user.email=test@paddock.invalid");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  result = test_run_full ((const char * const *) argv->pdata, &(TestRunOptions) { .cwd = dir, .quiet = TRUE });
  g_assert_cmpint (result->status, ==, 0);
}

/* git clone over HTTP from a server the test runs on loopback: by an
 * allowed name, through the proxy, under the network lock; by the
 * server's own address, refused locked (it is not the agent's loopback)
 * and reached open. */
static void
test_git_clone_http (void)
{
  g_autofree char *served = g_build_filename (base, "served", NULL);
  g_autofree char *work = g_build_filename (base, "served-work", NULL);
  g_autofree char *bare = g_build_filename (served, "repo.git", NULL);
  /* The server ends by itself within two minutes, whatever the test does. */
  g_autofree char *server_script = g_strdup_printf (
    "import functools, http.server\n"
    "handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory='%s')\n"
    "handler.log_message = lambda *args: None\n"
    "server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)\n"
    "print(server.server_address[1], flush=True)\n"
    "import threading\n"
    "threading.Timer(120, server.shutdown).start()\n"
    "server.serve_forever()\n", served);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *port = NULL;
  g_autofree char *clone_script = NULL;
  g_autofree char *by_name = NULL;
  g_autofree char *by_address = NULL;
  g_autofree char *resolve = g_strdup ("--resolve=repo.test=127.0.0.1");
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (work, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (served, 0755), ==, 0);
  git (work, (const char *[]) { "init", "-q", NULL });
  git (work, (const char *[]) { "commit", "-q", "--allow-empty", "-m", "served over HTTP", NULL });
  git (served, (const char *[]) { "clone", "-q", "--bare", work, bare, NULL });
  /* Git's "dumb" HTTP: plain files, as any static server gives them. */
  git (bare, (const char *[]) { "update-server-info", NULL });

  server = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "/usr/bin/python3", "-c", server_script, NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  port = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (port);

  clone_script = g_strdup (
    "import subprocess, sys, shutil\n"
    "for url in sys.argv[1:]:\n"
    "    shutil.rmtree('cloned', ignore_errors=True)\n"
    "    done = subprocess.run(['git', 'clone', '-q', url, 'cloned'], capture_output=True, text=True, timeout=40)\n"
    "    log = subprocess.run(['git', '-C', 'cloned', 'log', '--format=%s'], capture_output=True, text=True)\n"
    "    print(url, 'cloned' if done.returncode == 0 else 'failed', log.stdout.strip())\n");
  by_name = g_strdup_printf ("http://repo.test:%s/repo.git", port);
  by_address = g_strdup_printf ("http://127.0.0.1:%s/repo.git", port);
  {
    g_autofree char *locked_script = g_strdup_printf ("import sys\nsys.argv[1:] = ['%s', '%s']\n%s",
                                                      by_name, by_address, clone_script);
    g_autofree char *open_script = g_strdup_printf ("import sys\nsys.argv[1:] = ['%s']\n%s",
                                                    by_address, clone_script);
    g_autoptr(TestResult) locked = run_python ("locked", (const char *[]) { "--allow-host=repo.test", resolve, NULL },
                                               locked_script);
    g_autoptr(TestResult) open = run_python ("open", NULL, open_script);
    g_autofree char *name_cloned = g_strdup_printf ("%s cloned served over HTTP\n", by_name);
    g_autofree char *address_failed = g_strdup_printf ("%s failed", by_address);
    g_autofree char *address_cloned = g_strdup_printf ("%s cloned served over HTTP\n", by_address);

    g_assert_cmpint (locked->status, ==, 0);
    g_assert_nonnull (strstr (locked->out, name_cloned));
    g_assert_nonnull (strstr (locked->out, address_failed));
    g_assert_cmpint (open->status, ==, 0);
    g_assert_nonnull (strstr (open->out, address_cloned));
  }
  g_subprocess_force_exit (server);
  g_subprocess_wait (server, NULL, NULL);
  test_remove_tree (served);
  test_remove_tree (work);
}

/* git over ssh is told to go through the proxy (GIT_SSH_COMMAND names
 * paddock-net-connect as ssh's ProxyCommand), and the helper says so when
 * the proxy refuses the host. */
static void
test_ssh_helper_refused (void)
{
  const char *script =
    "import os, shlex, subprocess\n"
    "command = shlex.split(os.environ['GIT_SSH_COMMAND'])\n"
    "print('ssh', command[0], command[1])\n"
    "helper = shlex.split(command[2].split('=', 1)[1])\n"
    "print('helper', os.path.basename(helper[0]), helper[1:])\n"
    "r = subprocess.run([helper[0], 'denied.test', '22'], stdin=subprocess.DEVNULL,\n"
    "                   stderr=subprocess.PIPE, timeout=20)\n"
    "print('status', r.returncode, r.stderr.decode().strip())\n";
  g_autoptr(TestResult) locked = run_python ("locked", (const char *[]) { "--deny-host=denied.test", NULL }, script);

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "ssh ssh -o\n"));
  g_assert_nonnull (strstr (locked->out, "helper paddock-net-connect ['%h', '%p']\n"));
  g_assert_nonnull (strstr (locked->out, "status 1 paddock-net-connect: the proxy refused denied.test:22: HTTP/1."));
}

/* A CONNECT proxy of the test's own: takes one client, checks its
 * request, opens the tunnel, greets as an ssh server would, and keeps
 * what the client sends through it. */
typedef struct
{
  int      fd;
  GString *request;
  GString *tunnelled;
} FakeProxy;

static gpointer
serve_fake_proxy (gpointer data)
{
  FakeProxy *proxy = data;
  struct pollfd poll_fd = { .fd = proxy->fd, .events = POLLIN };
  const char *reply = "HTTP/1.1 200 Connection established\r\n\r\nSSH-2.0-paddock-test\r\n";
  char buf[256];
  ssize_t n;
  int peer;

  if (poll (&poll_fd, 1, 30 * 1000) != 1 || (peer = accept4 (proxy->fd, NULL, NULL, SOCK_CLOEXEC)) < 0)
    return NULL;
  poll_fd.fd = peer;
  while (strstr (proxy->request->str, "\r\n\r\n") == NULL && poll (&poll_fd, 1, 30 * 1000) == 1 &&
         (n = read (peer, buf, sizeof buf)) > 0)
    g_string_append_len (proxy->request, buf, n);
  if (write (peer, reply, strlen (reply)) < 0)
    g_message ("cannot answer: %s", g_strerror (errno));
  while (poll (&poll_fd, 1, 30 * 1000) == 1 && (n = read (peer, buf, sizeof buf)) > 0)
    g_string_append_len (proxy->tunnelled, buf, n);
  close (peer);
  return NULL;
}

/* paddock-net-connect on its own, against a proxy that lets it through:
 * the tunnel carries both ways, and the end of its input is passed on. */
static void
test_ssh_helper_tunnel (void)
{
  g_auto(GStrv) env = child_env ();
  FakeProxy proxy = { .request = g_string_new (NULL), .tunnelled = g_string_new (NULL) };
  g_autofree char *helper = NULL;
  g_autofree char *proxy_url = NULL;
  g_autofree char *command = NULL;
  g_autoptr(TestResult) result = NULL;
  GThread *thread;
  guint16 port;

  if (g_getenv ("PADDOCK_BUILD_DIR") == NULL)
    {
      g_test_skip ("PADDOCK_BUILD_DIR is not set");
      return;
    }
  helper = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "sandbox", "paddock-net-connect", NULL);
  proxy.fd = loopback_socket (SOCK_STREAM, &port);
  proxy_url = g_strdup_printf ("http://127.0.0.1:%u", (guint) port);
  env = g_environ_setenv (env, "HTTP_PROXY", proxy_url, TRUE);
  command = g_strdup_printf ("printf 'client hello' | '%s' git.test 22", helper);
  thread = g_thread_new ("fake-proxy", serve_fake_proxy, &proxy);
  result = test_run_full ((const char *[]) { "sh", "-c", command, NULL },
                          &(TestRunOptions) { .env = (const char * const *) env, .timeout = 60 });
  g_thread_join (thread);
  close (proxy.fd);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_str_has_prefix (proxy.request->str, "CONNECT git.test:22 HTTP/1.1\r\n"));
  g_assert_cmpstr (result->out, ==, "SSH-2.0-paddock-test\r\n");
  g_assert_cmpstr (proxy.tunnelled->str, ==, "client hello");
  g_string_free (proxy.request, TRUE);
  g_string_free (proxy.tunnelled, TRUE);
}

/* A session under --net=locked says so to its clients: its hello's
 * network is on, and its features name the network lock's mechanism. */
static void
test_hello (void)
{
  g_auto(GStrv) env = child_env ();
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *backend_arg = g_strdup_printf ("--lock-backend=%s", backend);
  g_autoptr(TestResult) locked = NULL;
  g_autoptr(GString) said = g_string_new (NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  gboolean lock = strcmp (backend, "none") != 0;
  char buf[4096];
  ssize_t n;
  int pair[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  g_subprocess_launcher_take_fd (launcher, pair[1], 3);
  g_ptr_array_add (argv, (char *) paddock_run);
  g_ptr_array_add (argv, project_arg);
  g_ptr_array_add (argv, (char *) "--control-fd=3");
  g_ptr_array_add (argv, (char *) "--net=locked");
  g_ptr_array_add (argv, (char *) (lock ? "--lock" : "--no-lock"));
  if (lock)
    g_ptr_array_add (argv, backend_arg);
  for (const char **arg = (const char *[]) { "--", "/usr/bin/python3", "-c", "pass", NULL }; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  locked = test_run_full ((const char * const *) argv->pdata,
                          &(TestRunOptions) { .env = (const char * const *) env, .launcher = launcher,
                                              .timeout = 60 });
  while ((n = recv (pair[0], buf, sizeof buf, MSG_DONTWAIT)) > 0)
    g_string_append_len (said, buf, n);
  close (pair[0]);
  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (said->str, "\"type\":\"hello\""));
  g_assert_nonnull (strstr (said->str, "\"network\":\"on\""));
  g_assert_nonnull (strstr (said->str, "\"net-namespace\""));
}

/* What paddock-run refuses before anything starts: a --net that is
 * neither, lists without the lock, the proxy's own port forwarded. */
static void
test_usage (void)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  const struct
  {
    const char *options[3];
    const char *said;
  } cases[] = {
    { { "--net=maybe", NULL }, "--net takes open or locked" },
    { { "--net=open", "--allow-host=example.test", NULL }, "only apply with --net=locked" },
    { { "--net=locked", "--allow-port=0", NULL }, "--allow-port takes a port" },
    { { "--net=locked", "--allow-port=3128", NULL }, "the network lock's proxy" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TestResult) result = NULL;
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();

      g_ptr_array_add (argv, (char *) paddock_run);
      g_ptr_array_add (argv, project_arg);
      for (guint j = 0; cases[i].options[j] != NULL; j++)
        g_ptr_array_add (argv, (char *) cases[i].options[j]);
      for (const char **arg = (const char *[]) { "--", "/bin/echo", "ran", NULL }; *arg != NULL; arg++)
        g_ptr_array_add (argv, (char *) *arg);
      g_ptr_array_add (argv, NULL);
      result = test_run_full ((const char * const *) argv->pdata,
                              &(TestRunOptions) { .env = (const char * const *) env });
      g_assert_cmpint (result->status, ==, 2);
      g_assert_cmpstr (result->out, ==, "");
      g_assert_nonnull (strstr (result->err, cases[i].said));
    }
}

/* paddockctl net @verb for the project. */
static void
save_choice (const char *verb)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *paddockctl = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "app", "paddockctl",
                                                  "paddockctl", NULL);
  g_autoptr(TestResult) saved = test_run_full ((const char *[]) { paddockctl, "net", verb, project, NULL },
                                               &(TestRunOptions) { .env = (const char * const *) env });

  g_assert_cmpint (saved->status, ==, 0);
}

/* paddockctl net on makes the project's sessions start locked, --net=open
 * still opens one, and paddockctl net off opens them again. */
static void
test_saved_choice (void)
{
  guint16 port;
  int fd = loopback_socket (SOCK_STREAM, &port);
  g_autofree char *script = g_strdup_printf (CONNECT_SCRIPT, (guint) port);
  g_autoptr(TestResult) saved_on = NULL;
  g_autoptr(TestResult) overridden = NULL;
  g_autoptr(TestResult) saved_off = NULL;

  if (g_getenv ("PADDOCK_BUILD_DIR") == NULL)
    {
      close (fd);
      g_test_skip ("PADDOCK_BUILD_DIR is not set");
      return;
    }
  save_choice ("on");
  saved_on = run_python (NULL, NULL, script);
  overridden = run_python ("open", NULL, script);
  save_choice ("off");
  saved_off = run_python (NULL, NULL, script);
  close (fd);
  g_assert_nonnull (strstr (saved_on->out, "refused"));
  g_assert_nonnull (strstr (overridden->out, "connected"));
  g_assert_nonnull (strstr (saved_off->out, "connected"));
}

#define FALLBACK_SCRIPT \
  "import os, socket\n" \
  "proxy = os.environ['HTTP_PROXY']\n" \
  "print('proxy', proxy)\n" \
  "try:\n" \
  "    socket.create_connection(('127.0.0.1', %u), timeout=10)\n" \
  "    print('direct connected')\n" \
  "except OSError as e:\n" \
  "    print('direct refused', e)\n" \
  "try:\n" \
  "    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'fallback', ('127.0.0.1', %u))\n" \
  "    print('udp sent')\n" \
  "except OSError as e:\n" \
  "    print('udp refused', e)\n" \
  "s = socket.create_connection(('127.0.0.1', int(proxy.rsplit(':', 1)[1])), timeout=20)\n" \
  "s.sendall(b'CONNECT denied.test:443 HTTP/1.1\\r\\nHost: denied.test:443\\r\\n\\r\\n')\n" \
  "print('reply', s.recv(12).decode(errors='replace'))\n"

/* Where no user namespace can be made and paddock-run is not root, the
 * network lock falls back to Landlock's TCP rules and the seccomp filter
 * where the kernel has them (ABI 4): a direct connection and a UDP
 * socket are refused, the proxy on the host's loopback answers. Where it
 * has not, --net=locked refuses to start, and says why. Either way
 * --net=open runs. */
static void
test_without_user_namespaces (void)
{
  g_auto(GStrv) env = child_env ();
  g_autofree char *project_arg = g_strdup_printf ("--project=%s", project);
  g_autofree char *scratch = g_build_filename (base, "scratch", NULL);
  g_autofree char *script = NULL;
  g_autoptr(TestResult) status = NULL;
  g_autoptr(TestResult) locked = NULL;
  g_autoptr(TestResult) open = NULL;
  guint16 tcp_port, udp_port;
  int tcp_fd, udp_fd;
  gboolean udp_arrived;

  if (getuid () != 0)
    {
      g_test_skip ("needs root, to run as nobody without user namespaces");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (scratch, 0777), ==, 0);
  g_assert_cmpint (chmod (scratch, 0777), ==, 0);
  tcp_fd = loopback_socket (SOCK_STREAM, &tcp_port);
  udp_fd = loopback_socket (SOCK_DGRAM, &udp_port);
  script = g_strdup_printf (FALLBACK_SCRIPT, (guint) tcp_port, (guint) udp_port);
  status = test_run_without_user_namespaces ((const char *[]) { paddock_run, "--lock-status", NULL },
                                             (const char * const *) env, "/", scratch);
  /* The Landlock backend of the folder lock goes on without namespaces,
   * and says so; the namespaces backend cannot. */
  locked = test_run_without_user_namespaces ((const char *[]) { paddock_run, project_arg, "--no-monitor",
                                                                "--deny-host=denied.test", "--net=locked",
                                                                strcmp (backend, "landlock") == 0 ? "--lock"
                                                                                                 : "--no-lock",
                                                                "--", "/usr/bin/python3", "-c", script, NULL },
                                             (const char * const *) env, "/", scratch);
  udp_arrived = received (udp_fd, "fallback");
  open = test_run_without_user_namespaces ((const char *[]) { paddock_run, project_arg, "--no-monitor",
                                                              "--net=open", "--", "/bin/echo", "ran", NULL },
                                           (const char * const *) env, "/", scratch);
  close (tcp_fd);
  close (udp_fd);
  g_assert_null (strstr (status->out, "network-lock: net-namespace"));
  if (strstr (status->out, "network-lock: net-landlock-tcp") != NULL)
    {
      g_assert_cmpint (locked->status, ==, 0);
      g_assert_nonnull (strstr (locked->out, "direct refused"));
      g_assert_nonnull (strstr (locked->out, "udp refused"));
      g_assert_false (udp_arrived);
      g_assert_nonnull (strstr (locked->out, "reply HTTP/1."));
    }
  else
    {
      g_assert_nonnull (strstr (status->out, "network-lock: none"));
      g_assert_cmpint (locked->status, !=, 0);
      g_assert_null (strstr (locked->out, "proxy"));
      g_assert_nonnull (strstr (locked->err, "--net=locked cannot start here"));
    }
  g_assert_cmpint (open->status, ==, 0);
  g_assert_nonnull (strstr (open->out, "ran"));
}

static void
make_tree (void)
{
  base = g_dir_make_tmp ("paddock-net-lock-XXXXXX", NULL);
  g_assert_nonnull (base);
  g_assert_cmpint (chmod (base, 0755), ==, 0);
  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (home, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (runtime_dir, 0700), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *why = NULL;
  int result;

  backend = test_lock_init (&argc, &argv);
  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return g_test_run ();
    }
  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the agent's side is written in Python, and /usr/bin/python3 is missing");
      return g_test_run ();
    }
  make_tree ();
  if (strcmp (backend, "none") != 0)
    {
      g_auto(GStrv) env = child_env ();

      why = test_lock_unavailable (paddock_run, backend, (const char * const *) env);
    }
  if (why != NULL)
    g_test_skip (why);
  else
    {
      g_test_add_func ("/paddock/net-lock/usage", test_usage);
      g_test_add_func ("/paddock/net-lock/direct-tcp", test_direct_tcp);
      g_test_add_func ("/paddock/net-lock/udp", test_udp);
      g_test_add_func ("/paddock/net-lock/setns-host", test_setns_host);
      g_test_add_func ("/paddock/net-lock/own-loopback", test_own_loopback);
      g_test_add_func ("/paddock/net-lock/allow-port", test_allow_port);
      g_test_add_func ("/paddock/net-lock/proxy", test_proxy);
      g_test_add_func ("/paddock/net-lock/hello", test_hello);
      g_test_add_func ("/paddock/net-lock/ssh-helper-refused", test_ssh_helper_refused);
      g_test_add_func ("/paddock/net-lock/ssh-helper-tunnel", test_ssh_helper_tunnel);
      g_test_add_func ("/paddock/net-lock/saved-choice", test_saved_choice);
      g_test_add_func ("/paddock/net-lock/git-clone-http", test_git_clone_http);
      g_test_add_func ("/paddock/net-lock/without-user-namespaces", test_without_user_namespaces);
    }

  result = g_test_run ();
  if (result == 0)
    test_remove_tree (base);
  return result;
}
