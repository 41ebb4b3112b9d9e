/* paddock-secret.c: hands a secret, by name, to one program the session's supervisor runs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs inside a Paddock session (the agent runs it): it never sees a
 * value. It sends the request and its own standard input, output and
 * error to paddock-run over the socket $PADDOCK_VAULT_SOCKET names; the
 * supervisor starts the program with the secret and masks it in the
 * output. paddock-secret waits, passes on the signals it gets, and ends
 * as the program did: with its exit status, or killed by the same signal.
 * On a terminal it puts the terminal in raw mode and forwards what is
 * typed, as ssh does: the program has a pseudo-terminal of its own.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-fd-passing.h"
#include "paddock-vault-request.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define SOCKET_ENV "PADDOCK_VAULT_SOCKET"
#define MAX_REPLY (4 * 1024 * 1024)

extern char **environ;

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2,
                                         SIGALRM, SIGCONT };

static struct termios saved_termios;
static gboolean terminal_raw;

static void
say (const char *format,
     ...) G_GNUC_PRINTF (1, 2);

static void
say (const char *format,
     ...)
{
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  /* What the supervisor says may name a path an agent chose: no control
   * bytes reach the terminal. */
  escaped = g_strdup (text);
  for (char *c = escaped; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      *c = '?';
  fprintf (stderr, "paddock-secret: %s\n", escaped);
}

static int
usage (const char *message)
{
  if (message != NULL)
    say ("%s", message);
  fprintf (stderr,
           "Usage: paddock-secret run [--env VAR=NAME]… [--stdin NAME] -- PROGRAM [ARG…]\n"
           "       paddock-secret list\n"
           "Run “man paddock-secret” for more.\n");
  return EXIT_USAGE;
}

static void
restore_terminal (void)
{
  if (terminal_raw)
    tcsetattr (STDIN_FILENO, TCSADRAIN, &saved_termios);
  terminal_raw = FALSE;
}

static void
make_terminal_raw (void)
{
  struct termios raw;

  if (!isatty (STDIN_FILENO) || tcgetattr (STDIN_FILENO, &saved_termios) != 0)
    return;
  raw = saved_termios;
  cfmakeraw (&raw);
  if (tcsetattr (STDIN_FILENO, TCSADRAIN, &raw) == 0)
    terminal_raw = TRUE;
}

static int
connect_vault (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd;

  if (strlen (path) >= sizeof addr.sun_path)
    {
      errno = ENAMETOOLONG;
      return -1;
    }
  strcpy (addr.sun_path, path);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    {
      int saved_errno = errno;

      close (fd);
      errno = saved_errno;
      return -1;
    }
  return fd;
}

static gboolean
send_all (int         fd,
          const char *data,
          gsize       length)
{
  while (length > 0)
    {
      ssize_t n = send (fd, data, length, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* Dies as the program died; the terminal first put back. */
G_GNUC_NORETURN static void
die_by (int signo)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigset_t set;

  restore_terminal ();
  sigaction (signo, &dfl, NULL);
  sigemptyset (&set);
  sigaddset (&set, signo);
  sigprocmask (SIG_UNBLOCK, &set, NULL);
  raise (signo);
  _exit (128 + signo);
}

/* Acts on the one reply line; returns the exit status, or -1 for a line
 * that says nothing of the end. */
static int
handle_reply (const char *line,
              gsize       length)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  const char *type;

  if (!json_parser_load_from_data (parser, line, (gssize) length, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      say ("the session's vault answered something that is not JSON");
      return 1;
    }
  object = json_node_get_object (json_parser_get_root (parser));
  type = json_object_get_string_member_with_default (object, "type", "");
  if (strcmp (type, "exit") == 0)
    {
      if (json_object_has_member (object, "signal"))
        die_by ((int) json_object_get_int_member (object, "signal"));
      return (int) json_object_get_int_member_with_default (object, "exit_code", 1);
    }
  if (strcmp (type, "error") == 0)
    {
      restore_terminal ();
      say ("%s", json_object_get_string_member_with_default (object, "message", "the vault refused"));
      return (int) json_object_get_int_member_with_default (object, "exit_code", 1);
    }
  if (strcmp (type, "list") == 0)
    {
      JsonArray *secrets = json_object_get_array_member (object, "secrets");

      for (guint i = 0; secrets != NULL && i < json_array_get_length (secrets); i++)
        {
          JsonObject *item = json_array_get_object_element (secrets, i);

          if (item == NULL)
            continue;
          printf ("%s%s\n", json_object_get_string_member_with_default (item, "name", "?"),
                  json_object_get_boolean_member_with_default (item, "pinned", FALSE) ? "\tpinned" : "");
        }
      return fflush (stdout) == 0 ? 0 : 1;
    }
  say ("the session's vault answered a “%s” this paddock-secret does not know", type);
  return 1;
}

/* Waits for the reply, passing on signals and, on a terminal, what is typed. */
static int
wait_for_reply (int socket_fd,
                int signal_fd,
                int forward_fd)
{
  g_autoptr(GByteArray) input = g_byte_array_new ();

  for (;;)
    {
      struct pollfd fds[3] = {
        { .fd = socket_fd, .events = POLLIN },
        { .fd = signal_fd, .events = POLLIN },
        { .fd = forward_fd >= 0 ? STDIN_FILENO : -1, .events = POLLIN },
      };
      guint8 *newline;

      if (poll (fds, 3, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          say ("cannot wait for the program: %s", g_strerror (errno));
          return 1;
        }
      if (fds[1].revents & POLLIN)
        {
          struct signalfd_siginfo info;

          while (read (signal_fd, &info, sizeof info) == sizeof info)
            {
              g_autofree char *line = paddock_vault_signal_to_line ((int) info.ssi_signo);

              send_all (socket_fd, line, strlen (line));
            }
        }
      if (fds[2].revents != 0)
        {
          char buffer[4096];
          ssize_t n = read (STDIN_FILENO, buffer, sizeof buffer);

          if (n > 0)
            {
              if (write (forward_fd, buffer, (gsize) n) < 0 && errno != EAGAIN)
                paddock_close_fd (&forward_fd);
            }
          else if (n == 0 || errno != EINTR)
            paddock_close_fd (&forward_fd);
        }
      if (fds[0].revents != 0)
        {
          char buffer[16384];
          ssize_t n = recv (socket_fd, buffer, sizeof buffer, 0);

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            {
              restore_terminal ();
              say ("the session's vault went away before the program ended");
              return 1;
            }
          g_byte_array_append (input, (guint8 *) buffer, (guint) n);
          newline = memchr (input->data, '\n', input->len);
          if (newline != NULL)
            return handle_reply ((const char *) input->data, (gsize) (newline - input->data));
          if (input->len > MAX_REPLY)
            {
              say ("the session's vault answered a line too long");
              return 1;
            }
        }
    }
}

static gboolean
parse_run (int                   argc,
           char                **argv,
           PaddockVaultRequest  *request,
           int                  *exit_code)
{
  g_autoptr(GPtrArray) vars = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  int i;

  for (i = 2; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *value = NULL;

      if (strcmp (arg, "--") == 0)
        {
          i++;
          break;
        }
      if (arg[0] != '-')
        break;
      if (strcmp (arg, "--env") == 0 || strcmp (arg, "--stdin") == 0)
        {
          if (i + 1 >= argc)
            {
              g_autofree char *text = g_strdup_printf ("%s needs a value", arg);

              *exit_code = usage (text);
              return FALSE;
            }
          value = argv[++i];
        }
      else if (g_str_has_prefix (arg, "--env="))
        value = arg + strlen ("--env="), arg = "--env";
      else if (g_str_has_prefix (arg, "--stdin="))
        value = arg + strlen ("--stdin="), arg = "--stdin";
      else
        {
          g_autofree char *text = g_strdup_printf ("unknown option %s", arg);

          *exit_code = usage (text);
          return FALSE;
        }

      if (strcmp (arg, "--env") == 0)
        {
          const char *equals = strchr (value, '=');
          g_autofree char *var = equals != NULL ? g_strndup (value, (gsize) (equals - value)) : NULL;
          g_autoptr(GError) error = NULL;

          if (equals == NULL || equals[1] == '\0')
            {
              *exit_code = usage ("--env takes VAR=NAME: the variable, and the secret's name");
              return FALSE;
            }
          if (!paddock_vault_check_variable (var, &error))
            {
              *exit_code = usage (error->message);
              return FALSE;
            }
          g_ptr_array_add (vars, g_steal_pointer (&var));
          g_ptr_array_add (names, g_strdup (equals + 1));
        }
      else
        {
          if (request->stdin_name != NULL)
            {
              *exit_code = usage ("--stdin is given once: a program has one standard input");
              return FALSE;
            }
          request->stdin_name = g_strdup (value);
        }
    }
  if (i >= argc)
    {
      *exit_code = usage ("no program given");
      return FALSE;
    }
  if (vars->len == 0 && request->stdin_name == NULL)
    {
      *exit_code = usage ("no secret named: give --env VAR=NAME or --stdin NAME");
      return FALSE;
    }
  g_ptr_array_add (vars, NULL);
  g_ptr_array_add (names, NULL);
  g_strfreev (request->env_vars);
  g_strfreev (request->env_names);
  request->env_vars = (char **) g_ptr_array_free (g_steal_pointer (&vars), FALSE);
  request->env_names = (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  g_strfreev (request->argv);
  request->argv = g_strdupv (argv + i);
  g_strfreev (request->environ);
  request->environ = g_strdupv (environ);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PaddockVaultRequest) request = NULL;
  g_autofree char *line = NULL;
  const char *socket_path;
  paddock_autofd int socket_fd = -1;
  paddock_autofd int signal_fd = -1;
  paddock_autofd int forward_read = -1;
  paddock_autofd int forward_write = -1;
  sigset_t mask;
  int exit_code = 1;
  int status;

  setlocale (LC_ALL, "");
  /* A closed standard descriptor would be taken by the socket. */
  paddock_open_std_fds ();

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      if (argc >= 2)
        {
          printf ("Usage: paddock-secret run [--env VAR=NAME]… [--stdin NAME] -- PROGRAM [ARG…]\n"
                  "       paddock-secret list\n\n"
                  "Inside a Paddock session: runs PROGRAM with the secret NAME from the user's vault\n"
                  "in the variable VAR (--env) or on its standard input (--stdin). The session's\n"
                  "supervisor runs it; the value never reaches the caller, and is masked as\n"
                  "«secret:NAME» in the program's output. \"list\" names the secrets this project sees.\n");
          return 0;
        }
      return usage (NULL);
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("paddock-secret %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (strcmp (argv[1], "list") == 0)
    {
      if (argc != 2)
        return usage ("list takes no arguments");
      request = paddock_vault_request_new (PADDOCK_VAULT_REQUEST_LIST);
    }
  else if (strcmp (argv[1], "run") == 0)
    {
      request = paddock_vault_request_new (PADDOCK_VAULT_REQUEST_RUN);
      if (!parse_run (argc, argv, request, &exit_code))
        return exit_code;
      request->tty = isatty (STDOUT_FILENO);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("unknown command “%s”", argv[1]);

      return usage (text);
    }

  socket_path = g_getenv (SOCKET_ENV);
  if (socket_path == NULL || *socket_path == '\0')
    {
      say ("not inside a Paddock session (%s is not set): run it from a program paddock-run started",
           SOCKET_ENV);
      return EXIT_USAGE;
    }
  socket_fd = connect_vault (socket_path);
  if (socket_fd < 0)
    {
      say ("cannot reach the session's vault at %s: %s", socket_path, g_strerror (errno));
      return EXIT_USAGE;
    }

  /* Blocked before the request goes: none may be lost while it runs. */
  sigemptyset (&mask);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_signals); i++)
    sigaddset (&mask, forwarded_signals[i]);
  sigaddset (&mask, SIGPIPE);
  sigprocmask (SIG_BLOCK, &mask, NULL);
  sigdelset (&mask, SIGPIPE);
  signal_fd = signalfd (-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

  if (request->type == PADDOCK_VAULT_REQUEST_RUN)
    {
      int fds[3] = { STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO };

      /* On a terminal, what is typed goes through us: the supervisor
       * cannot read a terminal it is in the background of. */
      if (request->tty && request->stdin_name == NULL && isatty (STDIN_FILENO))
        {
          int forward[2];

          if (pipe2 (forward, O_CLOEXEC) != 0)
            {
              say ("cannot create a pipe: %s", g_strerror (errno));
              return 1;
            }
          forward_read = forward[0];
          forward_write = forward[1];
          fds[0] = forward_read;
          request->tty_input = TRUE;
        }
      /* A vault that refuses closes at once, its reason in our socket:
       * a failed send is read on below. */
      for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
        if (paddock_send_fd (socket_fd, fds[i], "", 1) != 0)
          break;
      paddock_close_fd (&forward_read);
    }
  line = paddock_vault_request_to_line (request);
  send_all (socket_fd, line, strlen (line));

  if (forward_write >= 0)
    make_terminal_raw ();
  status = wait_for_reply (socket_fd, signal_fd, paddock_steal_fd (&forward_write));
  restore_terminal ();
  return status;
}
