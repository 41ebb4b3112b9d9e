/* paddock-net-lock.c: the network lock's enforcement: the agent's own network namespace
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-net-lock.h"

#include "paddock-autofd.h"
#include "paddock-fd-passing.h"
#include "paddock-landlock.h"
#include "paddock-seccomp-deny.h"

#include <gio/gio.h>

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* "port 65535" and its NUL. */
#define PORT_MESSAGE_SIZE 11

struct _PaddockNetLock
{
  guint16  proxy_port;
  guint16 *ports;
  char   (*port_messages)[PORT_MESSAGE_SIZE];
  guint    n_ports;
  /* The identity map of a user namespace made for the network one, where
   * the child is in none of its own; built here, as the child only makes
   * system calls. */
  char    *uid_map;
  char    *gid_map;
  /* Without the folder lock, which drops every capability, the agent gets
   * a user namespace of its own even as root: root's capabilities there
   * reach no namespace outside (setns(), a veth moved out, ptrace). */
  gboolean own_user_namespace;
  int      handover[2];  /* the supervisor's end, the child's */
  /* Without a network namespace: Landlock lets TCP connect only to the
   * proxy, which paddock-run serves on the host's loopback, and to the
   * allowed ports; the seccomp filter refuses every other socket. */
  gboolean            landlock_tcp;
  int                 host_listener;
  int                 ruleset_fd;
  PaddockSeccompDeny *filter;
};

enum
{
  STEP_NAMESPACE = 1,
  STEP_IDENTITY,
  STEP_LOOPBACK,
  STEP_LISTEN,
  STEP_HANDOVER,
  STEP_NO_NEW_PRIVS,
  STEP_LANDLOCK,
  STEP_SECCOMP,
};

const char *
paddock_net_lock_step_name (int step)
{
  switch (step)
    {
    case STEP_NAMESPACE: return "cannot enter the network lock: creating a network namespace";
    case STEP_IDENTITY: return "cannot enter the network lock: mapping the user into its user namespace";
    case STEP_LOOPBACK: return "cannot enter the network lock: bringing up the loopback";
    case STEP_LISTEN: return "cannot enter the network lock: listening on the loopback";
    case STEP_NO_NEW_PRIVS: return "cannot enter the network lock: no_new_privs";
    case STEP_LANDLOCK: return "cannot enter the network lock: Landlock's TCP rules";
    case STEP_SECCOMP: return "cannot enter the network lock: its seccomp filter";
    case STEP_HANDOVER:
    default: return "cannot enter the network lock: handing the listeners to paddock-run";
    }
}

static int
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  ssize_t n;
  int err = 0;

  if (fd < 0)
    return errno;
  n = write (fd, text, strlen (text));
  if (n < 0)
    err = errno;
  else if ((size_t) n != strlen (text))
    err = EIO;
  close (fd);
  return err;
}

/* A network namespace, with the user namespace it needs where this
 * process has no right to make one in its own (a user without --lock, or
 * a lock child that forked without one): the user stays who they are. */
static int
make_namespace (const PaddockNetLock *net,
                int                  *step)
{
  int err;

  *step = STEP_NAMESPACE;
  if (!net->own_user_namespace)
    {
      if (unshare (CLONE_NEWNET) == 0)
        return 0;
      if (errno != EPERM)
        return errno;
    }
  if (unshare (CLONE_NEWUSER | CLONE_NEWNET) != 0)
    return errno;
  *step = STEP_IDENTITY;
  /* Kernels before 3.19 have no setgroups file; the map then needs none. */
  err = write_file ("/proc/self/setgroups", "deny");
  if (err != 0 && err != ENOENT)
    return err;
  if ((err = write_file ("/proc/self/uid_map", net->uid_map)) != 0 ||
      (err = write_file ("/proc/self/gid_map", net->gid_map)) != 0)
    return err;
  return 0;
}

static int
bring_up_loopback (void)
{
  struct ifreq request = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int err = 0;

  if (fd < 0)
    return errno;
  memcpy (request.ifr_name, "lo", 3);
  if (ioctl (fd, SIOCGIFFLAGS, &request) != 0)
    err = errno;
  else
    {
      request.ifr_flags |= IFF_UP | IFF_RUNNING;
      if (ioctl (fd, SIOCSIFFLAGS, &request) != 0)
        err = errno;
    }
  close (fd);
  return err;
}

/* A listener on @port of the loopback, IPv4 or IPv6; -1 with errno. */
static int
listen_on_loopback (int     family,
                    guint16 port)
{
  int fd = socket (family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  int ok;

  if (fd < 0)
    return -1;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (family == AF_INET6)
    {
      struct sockaddr_in6 address = { .sin6_family = AF_INET6, .sin6_port = htons (port),
                                      .sin6_addr = IN6ADDR_LOOPBACK_INIT };

      setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
      ok = bind (fd, (struct sockaddr *) &address, sizeof address) == 0;
    }
  else
    {
      struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons (port),
                                     .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };

      ok = bind (fd, (struct sockaddr *) &address, sizeof address) == 0;
    }
  if (!ok || listen (fd, SOMAXCONN) != 0)
    {
      int saved_errno = errno;

      close (fd);
      errno = saved_errno;
      return -1;
    }
  return fd;
}

/* Listens on @port over IPv4 (which must work) and IPv6 (where the kernel
 * has it), and sends each listener with @message. */
static int
hand_over_port (int         socket_fd,
                guint16     port,
                const char *message,
                int        *step)
{
  static const int families[] = { AF_INET, AF_INET6 };

  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    {
      int fd = listen_on_loopback (families[i], port);
      int err;

      if (fd < 0)
        {
          if (families[i] == AF_INET6)
            continue;
          *step = STEP_LISTEN;
          return errno;
        }
      err = paddock_send_fd (socket_fd, fd, message, strlen (message));
      close (fd);
      if (err != 0)
        {
          *step = STEP_HANDOVER;
          return err;
        }
    }
  return 0;
}

/* Without a network namespace: Landlock's TCP rules and the seccomp
 * filter, which both need no_new_privs. */
static int
enter_landlock_tcp (PaddockNetLock *net,
                    int            *step)
{
  int err;

  paddock_close_fd (&net->host_listener);
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      *step = STEP_NO_NEW_PRIVS;
      return errno;
    }
  if ((err = paddock_landlock_restrict_self (net->ruleset_fd)) != 0)
    {
      *step = STEP_LANDLOCK;
      return err;
    }
  paddock_close_fd (&net->ruleset_fd);
  if ((err = paddock_seccomp_deny_install (net->filter)) != 0)
    {
      *step = STEP_SECCOMP;
      return err;
    }
  return 0;
}

int
paddock_net_lock_enter (PaddockNetLock *net,
                        int            *step)
{
  int err;

  if (net->landlock_tcp)
    return enter_landlock_tcp (net, step);
  /* Paddock-run's end is its own: the child holds only its own. */
  paddock_close_fd (&net->handover[0]);
  if ((err = make_namespace (net, step)) != 0)
    return err;
  if ((err = bring_up_loopback ()) != 0)
    {
      *step = STEP_LOOPBACK;
      return err;
    }
  if ((err = hand_over_port (net->handover[1], net->proxy_port, "proxy", step)) != 0)
    return err;
  for (guint i = 0; i < net->n_ports; i++)
    if ((err = hand_over_port (net->handover[1], net->ports[i], net->port_messages[i], step)) != 0)
      return err;
  paddock_close_fd (&net->handover[1]);
  return 0;
}

static PaddockNetLock *
net_lock_alloc (void)
{
  PaddockNetLock *net = g_new0 (PaddockNetLock, 1);

  net->proxy_port = PADDOCK_NET_LOCK_PROXY_PORT;
  net->uid_map = g_strdup_printf ("%u %u 1\n", (guint) getuid (), (guint) getuid ());
  net->gid_map = g_strdup_printf ("%u %u 1\n", (guint) getgid (), (guint) getgid ());
  net->handover[0] = net->handover[1] = -1;
  net->host_listener = -1;
  net->ruleset_fd = -1;
  return net;
}

/* Tries, in a short child, what paddock_net_lock_enter() does up to the
 * listeners. Returns 0, or an errno with *@step set. */
static int
try_namespace (PaddockNetLock *net,
               int            *step)
{
  int report[2];
  int msg[2] = { STEP_NAMESPACE, ECHILD };
  pid_t pid;
  int status;

  if (pipe2 (report, O_CLOEXEC) != 0)
    {
      *step = STEP_NAMESPACE;
      return errno;
    }
  pid = fork ();
  if (pid < 0)
    {
      int saved_errno = errno;

      close (report[0]);
      close (report[1]);
      *step = STEP_NAMESPACE;
      return saved_errno;
    }
  if (pid == 0)
    {
      msg[1] = make_namespace (net, &msg[0]);
      if (msg[1] == 0 && (msg[1] = bring_up_loopback ()) != 0)
        msg[0] = STEP_LOOPBACK;
      if (write (report[1], msg, sizeof msg) < 0)
        _exit (1);
      _exit (0);
    }
  close (report[1]);
  if (read (report[0], msg, sizeof msg) != sizeof msg)
    msg[1] = ECHILD;
  close (report[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  *step = msg[0];
  return msg[1];
}

static char *
describe_failure (int step,
                  int err)
{
  const char *hint = "";

  if (err == EPERM || err == EACCES || err == ENOSPC)
    hint = " (this system refuses unprivileged user namespaces, which the network lock needs where "
           "paddock-run is not root)";
  return g_strdup_printf ("%s: %s%s", paddock_net_lock_step_name (step), g_strerror (err), hint);
}

char *
paddock_net_lock_probe (char **reason)
{
  g_autoptr(PaddockNetLock) net = net_lock_alloc ();
  g_autoptr(GError) error = NULL;
  int step = 0;
  int err = try_namespace (net, &step);
  int ruleset_fd;

  *reason = NULL;
  if (err == 0)
    return g_strdup ("net-namespace");
  ruleset_fd = paddock_landlock_tcp_ruleset_new (NULL, 0, &error);
  if (ruleset_fd >= 0)
    {
      close (ruleset_fd);
      return g_strdup ("net-landlock-tcp");
    }
  {
    g_autofree char *text = describe_failure (step, err);

    *reason = g_strdup_printf ("%s; and %s", text, error->message);
  }
  return NULL;
}

/* Where no network namespace can be made: paddock-run's own listener on
 * the host's loopback for the proxy, Landlock's TCP rules for it and the
 * allowed ports, and the seccomp filter. FALSE with @error where Landlock
 * cannot. */
static gboolean
prepare_landlock_tcp (PaddockNetLock  *net,
                      GError         **error)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  g_autofree guint16 *ports = g_new0 (guint16, net->n_ports + 1);

  net->host_listener = listen_on_loopback (AF_INET, 0);
  if (net->host_listener < 0 ||
      getsockname (net->host_listener, (struct sockaddr *) &address, &length) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot listen on the loopback for the proxy: %s", g_strerror (saved_errno));
      return FALSE;
    }
  net->proxy_port = ntohs (address.sin_port);
  ports[0] = net->proxy_port;
  memcpy (ports + 1, net->ports, net->n_ports * sizeof (guint16));
  net->ruleset_fd = paddock_landlock_tcp_ruleset_new (ports, net->n_ports + 1, error);
  if (net->ruleset_fd < 0)
    return FALSE;
  net->filter = paddock_seccomp_deny_new_for_network (error);
  if (net->filter == NULL)
    return FALSE;
  net->landlock_tcp = TRUE;
  return TRUE;
}

PaddockNetLock *
paddock_net_lock_new (const guint16  *allow_ports,
                      guint           n_ports,
                      gboolean        folder_lock,
                      GError        **error)
{
  g_autoptr(PaddockNetLock) net = net_lock_alloc ();
  int step = 0;
  int err;

  net->own_user_namespace = !folder_lock;
  net->n_ports = n_ports;
  net->ports = g_new0 (guint16, MAX (n_ports, 1));
  net->port_messages = g_malloc0_n (MAX (n_ports, 1), PORT_MESSAGE_SIZE);
  for (guint i = 0; i < n_ports; i++)
    {
      net->ports[i] = allow_ports[i];
      g_snprintf (net->port_messages[i], PORT_MESSAGE_SIZE, "port %u", (guint) allow_ports[i]);
    }

  /* Never fail open: where the agent cannot have a network of its own,
   * nothing starts. */
  if ((err = try_namespace (net, &step)) != 0)
    {
      g_autoptr(GError) landlock_error = NULL;
      g_autofree char *text = NULL;

      if (prepare_landlock_tcp (net, &landlock_error))
        return g_steal_pointer (&net);
      text = describe_failure (step, err);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "--net=locked cannot start here: %s; and %s", text, landlock_error->message);
      return NULL;
    }
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, net->handover) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "--net=locked: cannot create a socket pair: %s", g_strerror (saved_errno));
      return NULL;
    }
  return g_steal_pointer (&net);
}

void
paddock_net_lock_free (PaddockNetLock *net)
{
  if (net == NULL)
    return;
  paddock_close_fd (&net->handover[0]);
  paddock_close_fd (&net->handover[1]);
  paddock_close_fd (&net->host_listener);
  paddock_close_fd (&net->ruleset_fd);
  g_clear_pointer (&net->filter, paddock_seccomp_deny_free);
  g_free (net->ports);
  g_free (net->port_messages);
  g_free (net->uid_map);
  g_free (net->gid_map);
  g_free (net);
}

int
paddock_net_lock_steal_handover (PaddockNetLock *net)
{
  paddock_close_fd (&net->handover[1]);
  return paddock_steal_fd (&net->handover[0]);
}

int
paddock_net_lock_steal_host_listener (PaddockNetLock *net)
{
  return paddock_steal_fd (&net->host_listener);
}

const char *
paddock_net_lock_get_mechanism (PaddockNetLock *net)
{
  return net->landlock_tcp ? "net-landlock-tcp" : "net-namespace";
}

guint16
paddock_net_lock_get_proxy_port (PaddockNetLock *net)
{
  return net->proxy_port;
}

void
paddock_net_lock_set_environment (PaddockNetLock *net,
                                  const char     *connect_helper)
{
  g_autofree char *http = g_strdup_printf ("http://127.0.0.1:%u", (guint) net->proxy_port);
  g_autofree char *socks = g_strdup_printf ("socks5h://127.0.0.1:%u", (guint) net->proxy_port);
  const struct
  {
    const char *name;
    const char *value;
  } variables[] = {
    { "HTTP_PROXY", http },
    { "http_proxy", http },
    { "HTTPS_PROXY", http },
    { "https_proxy", http },
    { "ALL_PROXY", socks },
    { "all_proxy", socks },
    { "NO_PROXY", "localhost,127.0.0.1,::1" },
    { "no_proxy", "localhost,127.0.0.1,::1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_setenv (variables[i].name, variables[i].value, TRUE);
  /* git over ssh goes through the proxy too; ssh's own settings are left
   * to the user where they name a command of their own. */
  if (connect_helper != NULL && g_getenv ("GIT_SSH_COMMAND") == NULL && g_getenv ("GIT_SSH") == NULL)
    {
      g_autofree char *quoted_helper = g_shell_quote (connect_helper);
      g_autofree char *option = g_strdup_printf ("ProxyCommand=%s %%h %%p", quoted_helper);
      g_autofree char *quoted_option = g_shell_quote (option);
      g_autofree char *command = g_strdup_printf ("ssh -o %s", quoted_option);

      g_setenv ("GIT_SSH_COMMAND", command, TRUE);
    }
}
