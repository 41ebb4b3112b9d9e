/* paddockctl.c: watch and steer paddock-run sessions; check policies; read audit logs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-autofd.h"
#include "paddock-command-line.h"
#include "paddock-control-socket.h"
#include "paddock-download.h"
#include "paddock-escape.h"
#include "paddock-grants.h"
#include "paddock-lock.h"
#include "paddock-policy.h"
#include "paddock-proc.h"
#include "paddock-project-config.h"
#include "paddock-protocol.h"
#include "paddock-xdg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define EXIT_USAGE 2

/* How old a socket nobody listens on must be before list removes it. */
#define STALE_AFTER_S 10

static const char usage_text[] =
  "Usage:\n"
  "  paddockctl list\n"
  "  paddockctl attach SESSION [--watch | --answer allow|deny [--remember once|session|project]] [--verbose]\n"
  "  paddockctl kill|pause|resume SESSION\n"
  "  paddockctl policy check FILE\n"
  "  paddockctl policy explain [--policy FILE] [--project DIR] [--cwd DIR] [--piped-from LINE]\n"
  "                            [--downloaded FILE…] -- COMMAND [ARG…]\n"
  "  paddockctl policy project [--project DIR]\n"
  "  paddockctl policy forget [--project DIR] --all|NAME…\n"
  "  paddockctl audit verify LOG\n"
  "  paddockctl audit show LOG [--since TIME] [--decision allow|deny|ask] [--type TYPE] [--grep REGEX]\n"
  "  paddockctl audit export LOG [--since TIME] [--decision D] [--type TYPE] [--grep REGEX]\n"
  "  paddockctl lock on|off|status [DIR]\n"
  "  paddockctl --version\n"
  "\n"
  "SESSION is a session id from `paddockctl list`, or a unique prefix of one.\n"
  "DIR is a project folder (default: the current directory).\n"
  "FILE may be - for standard input.\n"
  "LOG is an audit log FILE, or a session id (or a unique prefix) whose log is under $XDG_STATE_HOME/paddock.\n";

static int
usage (const char *message)
{
  if (message != NULL)
    {
      paddock_printerr ("%s", message);
      g_printerr ("\n");
    }
  g_printerr ("%s", usage_text);
  return EXIT_USAGE;
}

/* "attach", "audit show": the known command @argv names, or NULL. */
static char *
command_words (int    argc,
               char **argv)
{
  const char *one[] = { "list", "attach", "kill", "pause", "resume", "lock", NULL };
  const char *two[] = { "policy check", "policy explain", "policy project", "policy forget", "audit verify", "audit show",
                        "audit export", NULL };
  g_autofree char *pair = argc >= 3 ? g_strdup_printf ("%s %s", argv[1], argv[2]) : NULL;

  if (g_strv_contains (one, argv[1]))
    return g_strdup (argv[1]);
  if (pair != NULL && g_strv_contains (two, pair))
    return g_steal_pointer (&pair);
  return NULL;
}

/* Whether --help or -h comes before any "--" (after it, they are the
 * explained command's). */
static gboolean
help_asked (int    argc,
            char **argv)
{
  for (int i = 2; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0 || strcmp (argv[i], "-?") == 0)
      return TRUE;
  return FALSE;
}

/* The commands that parse options, and so print GOption's help. */
static gboolean
command_has_options (const char *words)
{
  return g_strv_contains ((const char * const[]) { "attach", "policy explain", "policy project", "policy forget",
                                                   "audit show", "audit export", NULL },
                          words);
}

/* The lines of the usage for the command @words, and the notes on the
 * names they use. */
static int
print_command_usage (const char *words)
{
  g_auto(GStrv) lines = g_strsplit (usage_text, "\n", -1);
  g_auto(GStrv) wanted = g_strsplit (words, " ", 2);
  g_autoptr(GString) text = g_string_new ("Usage:\n");
  g_autoptr(GString) shown = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) line = NULL;
      g_auto(GStrv) verbs = NULL;

      if (!g_str_has_prefix (lines[i], "  paddockctl "))
        continue;
      line = g_strsplit (lines[i] + strlen ("  paddockctl "), " ", 3);
      verbs = g_strsplit (line[0], "|", -1);
      if (g_strv_contains ((const char * const *) verbs, wanted[0]) &&
          (wanted[1] == NULL || g_strcmp0 (line[1], wanted[1]) == 0))
        {
          /* "kill|pause|resume SESSION" for pause is "pause SESSION". */
          g_string_append_printf (text, "  paddockctl %s%s%s%s%s\n", wanted[0],
                                  line[1] != NULL ? " " : "", line[1] != NULL ? line[1] : "",
                                  line[1] != NULL && line[2] != NULL ? " " : "",
                                  line[1] != NULL && line[2] != NULL ? line[2] : "");
          g_string_append (shown, lines[i]);
        }
    }
  for (guint i = 0, notes = 0; lines[i] != NULL; i++)
    {
      const char *space = strchr (lines[i], ' ');
      g_autofree char *name = space != NULL ? g_strndup (lines[i], space - lines[i]) : NULL;

      if (name != NULL && g_str_has_suffix (lines[i], ".") && *name != '\0' && strstr (shown->str, name) != NULL)
        g_string_append_printf (text, "%s%s\n", notes++ == 0 ? "\n" : "", lines[i]);
    }
  g_print ("%s", text->str);
  return 0;
}

/* Anything from a session or a log goes through this before a terminal sees it. */
static char *
display (const char *text)
{
  return paddock_escape_for_display (text != NULL ? text : "", -1);
}

/* A FILE argument: "-" is standard input, as for cat. */
static const char *
input_path (const char *arg)
{
  return strcmp (arg, "-") == 0 ? "/dev/stdin" : arg;
}

/* A LOG argument: a file, as input_path(); or, where no file has that
 * name, a session id or a unique prefix of one, whose log is in the
 * folder paddock-run writes them to (session-DATE-TIME-ID.jsonl). NULL,
 * with @error, for such a name that no log has, or more than one. */
static char *
log_path (const char  *arg,
          GError     **error)
{
  g_autofree char *folder = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (strcmp (arg, "-") == 0 || strchr (arg, '/') != NULL || g_file_test (arg, G_FILE_TEST_EXISTS) ||
      *arg == '\0' || strlen (arg) > 12 || strspn (arg, "0123456789abcdef") != strlen (arg))
    return g_strdup (input_path (arg));
  folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  dir = g_dir_open (folder, 0, NULL);
  found = g_ptr_array_new_with_free_func (g_free);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      const char *id = strrchr (name, '-');

      if (g_str_has_prefix (name, "session-") && g_str_has_suffix (name, ".jsonl") && id != NULL &&
          g_str_has_prefix (id + 1, arg))
        g_ptr_array_add (found, g_build_filename (folder, name, NULL));
    }
  if (found->len == 1)
    return g_strdup (g_ptr_array_index (found, 0));
  if (found->len > 1)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < found->len; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", (const char *) g_ptr_array_index (found, i));
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   "\"%s\" names no file here, and begins the ids of %u session logs (%s): give more of the id",
                   arg, found->len, names->str);
      return NULL;
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
               "no file is named \"%s\", and no session log in %s has an id that begins with it", arg, folder);
  return NULL;
}

/* g_date_time_new_from_unix_local_usec() is GLib 2.80. */
static GDateTime *
local_time_new (gint64 time_us)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);

  if (seconds == NULL)
    return NULL;
  return g_date_time_add (seconds, time_us % G_USEC_PER_SEC);
}

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = local_time_new (time_us);
  g_autofree char *clock = NULL;

  if (time == NULL)
    return g_strdup ("?");
  clock = g_date_time_format (time, "%H:%M:%S");
  return g_strdup_printf ("%s.%03d", clock, g_date_time_get_microsecond (time) / 1000);
}

typedef struct
{
  int                fd;
  PaddockLineReader *reader;
  PaddockMessage    *hello;
} Connection;

static void
connection_free (Connection *connection)
{
  paddock_close_fd (&connection->fd);
  paddock_line_reader_free (connection->reader);
  paddock_message_free (connection->hello);
  g_free (connection);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Connection, connection_free)

/* Reads the next message; NULL at end of stream or after @timeout_ms
 * (-1: none), with *closed set at end of stream. */
static PaddockMessage *
connection_read (Connection *connection,
                 int         timeout_ms,
                 gboolean   *closed)
{
  *closed = FALSE;
  for (;;)
    {
      const char *line;
      gsize length;
      PaddockLineResult result = paddock_line_reader_next (connection->reader, &line, &length);
      char buffer[64 * 1024];
      struct pollfd fds = { .fd = connection->fd, .events = POLLIN };
      ssize_t n;

      if (result == PADDOCK_LINE_OK)
        {
          g_autoptr(GError) error = NULL;
          PaddockMessage *message = paddock_message_parse (line, length, &error);

          if (message != NULL)
            return message;
          paddock_printerr ("ignoring a message from the session: %s", error->message);
          continue;
        }
      if (result == PADDOCK_LINE_TOO_LONG)
        {
          paddock_printerr ("ignoring an over-long message from the session");
          continue;
        }

      if (poll (&fds, 1, timeout_ms) == 0)
        return NULL;
      n = recv (connection->fd, buffer, sizeof buffer, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          *closed = TRUE;
          return NULL;
        }
      paddock_line_reader_feed (connection->reader, buffer, n);
    }
}

static gboolean
connection_send (Connection           *connection,
                 const PaddockMessage *message)
{
  g_autofree char *line = paddock_message_to_line (message);
  gsize length = strlen (line);
  gsize done = 0;

  while (done < length)
    {
      ssize_t n = send (connection->fd, line + done, length - done, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += n;
    }
  return TRUE;
}

static char *
session_of_path (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_strndup (base, strlen (base) - strlen (".sock"));
}

/* How long a session has to greet a new client. */
#define HELLO_TIMEOUT_S 5

typedef enum
{
  CONNECT_FAILED,
  CONNECT_STALE,    /* nobody listens there any more */
  CONNECT_STOPPED,  /* it took the connection, and its paddock-run is stopped */
  CONNECT_SILENT,   /* it took the connection, and said nothing in time */
} ConnectFailure;

/* Whether the process that listens on @fd's peer is stopped (^Z in its
 * terminal, SIGSTOP, a debugger); its pid goes to @pid, or 0. */
static gboolean
listener_stopped (int    fd,
                  pid_t *pid)
{
  struct ucred cred = { 0 };
  socklen_t length = sizeof cred;
  char state;

  *pid = 0;
  if (getsockopt (fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 || cred.pid <= 0)
    return FALSE;
  *pid = cred.pid;
  return paddock_proc_read_stat (-1, cred.pid, &state, NULL) && (state == 'T' || state == 't');
}

/* Connects and reads hello. Says in @failure why it could not. */
static Connection *
connect_path (const char     *path,
              ConnectFailure *failure,
              GError        **error)
{
  g_autoptr(Connection) connection = g_new0 (Connection, 1);
  g_autofree char *session = session_of_path (path);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  gboolean closed = FALSE;
  gboolean stopped;
  pid_t pid;
  ConnectFailure unused;

  if (failure == NULL)
    failure = &unused;
  *failure = CONNECT_FAILED;
  connection->reader = paddock_line_reader_new (PADDOCK_PROTOCOL_MAX_EVENT_LINE);
  connection->fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (strlen (path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG, "%s: path too long", path);
      return NULL;
    }
  strcpy (addr.sun_path, path);
  if (connection->fd < 0 || connect (connection->fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ECONNREFUSED)
        *failure = CONNECT_STALE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot connect to %s: %s", path, g_strerror (saved_errno));
      return NULL;
    }

  /* A stopped paddock-run cannot greet: said at once rather than waited for. */
  stopped = listener_stopped (connection->fd, &pid);
  if (!stopped)
    connection->hello = connection_read (connection, HELLO_TIMEOUT_S * 1000, &closed);
  if (connection->hello == NULL && (stopped || !closed))
    {
      if (stopped || listener_stopped (connection->fd, &pid))
        {
          *failure = CONNECT_STOPPED;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "session %s did not answer: its paddock-run (pid %d) is stopped; "
                       "kill -CONT %d resumes it", session, (int) pid, (int) pid);
        }
      else
        {
          *failure = CONNECT_SILENT;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "session %s did not answer within %d s", session, HELLO_TIMEOUT_S);
        }
      return NULL;
    }
  if (connection->hello != NULL && connection->hello->type == PADDOCK_MESSAGE_ERROR)
    {
      g_autofree char *text = display (connection->hello->message);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "the session says: %s", text);
      return NULL;
    }
  if (connection->hello == NULL || connection->hello->type != PADDOCK_MESSAGE_HELLO)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   connection->hello == NULL ? "session %s closed the connection without a greeting"
                                             : "session %s did not start with a greeting",
                   session);
      return NULL;
    }
  return g_steal_pointer (&connection);
}

/* Every session's socket path, sorted. */
static GPtrArray *
list_sockets (GError **error)
{
  g_autofree char *dir_path = paddock_control_socket_dir (error);
  g_autoptr(GPtrArray) paths = NULL;
  DIR *dir;
  struct dirent *entry;

  if (dir_path == NULL)
    return NULL;
  paths = g_ptr_array_new_with_free_func (g_free);
  dir = opendir (dir_path);
  if (dir == NULL)
    return g_steal_pointer (&paths);
  while ((entry = readdir (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      struct stat st;

      if (!g_str_has_suffix (entry->d_name, ".sock"))
        continue;
      path = g_build_filename (dir_path, entry->d_name, NULL);
      /* Only sockets: not a file, a folder or a link someone put there. */
      if (lstat (path, &st) == 0 && S_ISSOCK (st.st_mode))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  closedir (dir);
  g_ptr_array_sort (paths, (GCompareFunc) (GCallback) g_strcmp0);
  return g_steal_pointer (&paths);
}

static Connection *
connect_session (const char *session,
                 GError    **error)
{
  g_autoptr(GPtrArray) paths = list_sockets (error);
  const char *match = NULL;

  if (paths == NULL)
    return NULL;
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *id = session_of_path (g_ptr_array_index (paths, i));

      if (strcmp (id, session) == 0)
        {
          match = g_ptr_array_index (paths, i);
          break;
        }
      if (g_str_has_prefix (id, session))
        {
          if (match != NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "%s matches more than one session; give more of its id", session);
              return NULL;
            }
          match = g_ptr_array_index (paths, i);
        }
    }
  if (match == NULL || *session == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no session %s is running (see paddockctl list)", session);
      return NULL;
    }
  return connect_path (match, NULL, error);
}

static int
cmd_list (int    argc,
          char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  guint shown = 0;
  int status = 0;

  if (argc != 1)
    return usage ("list takes no arguments");
  paths = list_sockets (&error);
  if (paths == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(Connection) connection = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *project = NULL;
      g_autofree char *command = NULL;
      g_autofree char *session = NULL;
      g_autofree char *lock = NULL;
      ConnectFailure failure;

      connection = connect_path (path, &failure, &local_error);
      if (connection == NULL && failure == CONNECT_STALE)
        {
          /* Left behind by a supervisor that was killed: tidy up our own
           * directory. A socket that new may be one a live supervisor has
           * bound and not yet listens on: left alone. */
          struct stat st;

          if (lstat (path, &st) == 0 && S_ISSOCK (st.st_mode) &&
              (gint64) st.st_mtime < g_get_real_time () / G_USEC_PER_SEC - STALE_AFTER_S)
            unlink (path);
          continue;
        }
      if (connection == NULL)
        {
          paddock_printerr ("%s", local_error->message);
          status = 1;
        }
      if (shown++ == 0)
        g_print ("%-14s %-8s %-10s %-7s %-30s %s\n", "SESSION", "PID", "LOCK", "STATE", "PROJECT", "COMMAND");
      if (connection == NULL)
        {
          /* Running, as far as anyone can tell, but not saying what. */
          g_autofree char *id = session_of_path (path);

          session = display (id);
          g_print ("%-14s %-8s %-10s %-7s %-30s %s\n", session, "?", "?",
                   failure == CONNECT_STOPPED ? "stopped" : failure == CONNECT_SILENT ? "silent" : "?",
                   "?", "?");
          continue;
        }
      session = display (connection->hello->session);
      lock = display (connection->hello->lock);
      project = display (connection->hello->project);
      command = paddock_escape_argv_for_display ((const char * const *) connection->hello->command);
      g_print ("%-14s %-8d %-10s %-7s %-30s %s%s\n", session,
               connection->hello->agent_pid, lock,
               connection->hello->paused ? "paused" : "running", project, command,
               connection->hello->truncated ? " …(truncated)" : "");
    }
  if (shown == 0)
    g_print ("No sessions are running.\n");
  return status;
}

static int
cmd_control (int                argc,
             char             **argv,
             PaddockMessageType type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(Connection) connection = NULL;
  g_autoptr(PaddockMessage) request = paddock_message_new (type);
  gint64 deadline;

  if (argc != 2)
    return usage ("give one SESSION");
  connection = connect_session (argv[1], &error);
  if (connection == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  if (!connection_send (connection, request))
    {
      paddock_printerr ("the session went away");
      return 1;
    }

  /* The supervisor echoes a kill to every client once it is done, and
   * answers a pause or resume with the state it left the session in. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  for (;;)
    {
      gboolean closed;
      g_autoptr(PaddockMessage) message =
        connection_read (connection, (int) ((deadline - g_get_monotonic_time ()) / 1000), &closed);

      if (message == NULL)
        {
          if (closed && type == PADDOCK_MESSAGE_KILL)
            break;
          if (closed)
            {
              paddock_printerr ("the session ended");
              return 1;
            }
          if (g_get_monotonic_time () >= deadline)
            {
              paddock_printerr ("the session did not confirm in time");
              return 1;
            }
          continue;
        }
      if (message->type == PADDOCK_MESSAGE_ERROR)
        {
          paddock_printerr ("the session says: %s", message->message);
          return 1;
        }
      if (type == PADDOCK_MESSAGE_KILL &&
          (message->type == type || (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)))
        break;
      if (type != PADDOCK_MESSAGE_KILL && message->type == PADDOCK_MESSAGE_LOCK_STATUS)
        {
          gboolean want = type == PADDOCK_MESSAGE_PAUSE;
          gboolean was = connection->hello->paused;

          if (message->paused != want)
            {
              paddock_printerr ("%s could not be %s: the session is ending", connection->hello->session,
                                want ? "paused" : "resumed");
              return 1;
            }
          if (was == want)
            g_print ("%s was %s\n", connection->hello->session, want ? "already paused" : "not paused");
          else
            g_print ("%s %s\n", connection->hello->session, want ? "paused" : "resumed");
          return 0;
        }
    }

  g_print ("%s killed\n", connection->hello->session);
  return 0;
}

typedef struct
{
  Connection      *connection;
  PaddockDecision  answer;          /* NONE: ask the user */
  PaddockRemember  remember;
  gboolean         verbose;
  gboolean         can_prompt;      /* stdin gives answers */
  GQueue           asks;            /* PaddockMessage*, the oldest first */
  gboolean         prompting;       /* the answer line is on screen, the cursor at its end */
  gint64           shown;           /* the ask whose command and reason were printed last */
  gboolean         tty;             /* stdout is a terminal that moves its cursor: the answer line is redrawn in place */
  guint            prompt_rows;     /* the terminal rows the answer line takes */
  PaddockLineReader *input;
  PaddockMessage  *last_denial;     /* the last exec, where it was denied */
  GHashTable      *answered;        /* ask id (gint64*) → the PaddockRemember this client asked for */
  gboolean         registering;     /* the status asked for has not come yet */
  GQueue           held;            /* PaddockMessage*, the timeline replayed before it */
  gint64           remembered;      /* the ask answered here for good, whose decided has not come */
  gint64           quiet_at;        /* the next ask is asked once decided messages stop until then */
  gint64           gone_id;         /* the ask whose question went from the screen, decided elsewhere */
  gint64           gone_at;         /* when */
} Attach;

/* A line that comes this soon after the question on screen was decided
 * elsewhere (another client, its deadline, its end) was typed for that
 * question, not for the one that took its place. */
#define GONE_GRACE_US (G_USEC_PER_SEC)

/* An answer for good settles the other asks it covers: their decided
 * messages follow its own. The next ask is drawn once they stop coming,
 * not for each in turn. */
#define SETTLE_QUIET_US (100 * 1000)
#define SETTLE_WAIT_US  (2 * G_USEC_PER_SEC)

/* Sends @decide, noting that it was answered here, and what it asked
 * to be remembered. */
static void
send_decide (Attach         *attach,
             PaddockMessage *decide)
{
  g_hash_table_insert (attach->answered, g_memdup2 (&decide->id, sizeof decide->id),
                       GINT_TO_POINTER (decide->remember));
  connection_send (attach->connection, decide);
}

/* Whether the user's answer @decided was given at another client than
 * this one: this one did not answer, or another's answer came first. A
 * client on --control-fd (the window) has no pid to name. */
static gboolean
answered_elsewhere (Attach               *attach,
                    const PaddockMessage *decided)
{
  return !g_hash_table_contains (attach->answered, &decided->id) ||
         (decided->client_pid > 0 && decided->client_pid != getpid ());
}

/* Where @decided is remembered for less than this client asked (a command
 * line too long for a rule, the project's file locked by another program),
 * says so; paddock-run says why where it runs. */
static const char *
remembered_less (Attach               *attach,
                 const PaddockMessage *decided)
{
  gpointer asked;

  /* Another client's answer came first: what it asked for is not known here. */
  if (answered_elsewhere (attach, decided))
    return "";
  g_hash_table_lookup_extended (attach->answered, &decided->id, NULL, &asked);
  if (GPOINTER_TO_INT (asked) == PADDOCK_REMEMBER_ONCE)
    return "";
  if (decided->remember == PADDOCK_REMEMBER_ONCE)
    return ", this once: it could not be remembered (paddock-run says why, where it runs)";
  if (decided->remember == PADDOCK_REMEMBER_SESSION && GPOINTER_TO_INT (asked) == PADDOCK_REMEMBER_PROJECT)
    return " only, not for the project (paddock-run says why, where it runs)";
  return "";
}

/* What attach shows of a command line: a terminal takes a long one (a
 * megabyte of escapes) for many seconds and shows none of it usefully.
 * Its start and its end are kept, and what is left out is said; the
 * audit log has the whole line. */
#define TIMELINE_SHOWN (4 * 1024)
#define QUESTION_SHOWN (16 * 1024)

/* Takes @line; returns it, or, where it is longer than @shown bytes, its
 * first two thirds and last third of that with the bytes between left out. */
static char *
cut_line (char  *line,
          gsize  shown)
{
  gsize length = strlen (line);
  gsize head;
  gsize tail;
  char *cut;

  if (length <= shown)
    return line;
  head = paddock_utf8_char_start (line, shown * 2 / 3);
  tail = paddock_utf8_char_start (line, length - shown / 3);
  cut = g_strdup_printf ("%.*s … [%" G_GSIZE_FORMAT " bytes not shown] … %s",
                         (int) head, line, tail - head, line + tail);
  g_free (line);
  return cut;
}

static void
print_exec (const PaddockMessage *message)
{
  g_autofree char *time = format_time (message->time);
  g_autofree char *command = cut_line (paddock_exec_display_line (message->path, message->exe, message->interpreter,
                                                                  message->pipeline, (const char * const *) message->argv),
                                       TIMELINE_SHOWN);
  g_autofree char *rule = display (message->rule);
  const char *decision = message->decision == PADDOCK_DECISION_ALLOW ? "allow" :
                         message->decision == PADDOCK_DECISION_DENY ? "DENY " : "ASK  ";
  /* Decided otherwise than by the rule's own action. */
  const char *why = g_strcmp0 (message->by, "no-client") == 0 ? "no one to answer" :
                    g_strcmp0 (message->by, "repeat") == 0 ? "refused a moment ago" : NULL;
  g_autofree char *note = message->rule != NULL && why != NULL ? g_strdup_printf ("  [%s, %s]", rule, why) :
                          message->rule != NULL ? g_strdup_printf ("  [%s]", rule) :
                          why != NULL ? g_strdup_printf ("  [%s]", why) : g_strdup ("");

  g_print ("%s  #%-5" G_GINT64_FORMAT " %-7d %s  %s%s%s\n", time, message->seq, message->pid,
           decision, command, message->truncated ? " …(truncated)" : "", note);
}

/* Whether @message is @denied's process trying the same command again
 * at another path of the same name, and denied again: a PATH search. */
static gboolean
is_next_on_path (const PaddockMessage *denied,
                 const PaddockMessage *message)
{
  g_autofree char *denied_name = NULL;
  g_autofree char *name = NULL;

  if (denied == NULL || message->decision != PADDOCK_DECISION_DENY || message->pid != denied->pid ||
      denied->path == NULL || message->path == NULL || strcmp (denied->path, message->path) == 0 ||
      g_strcmp0 (denied->rule, message->rule) != 0)
    return FALSE;
  if (denied->argv == NULL || message->argv == NULL ||
      !g_strv_equal ((const char * const *) denied->argv, (const char * const *) message->argv))
    return FALSE;
  denied_name = g_path_get_basename (denied->path);
  name = g_path_get_basename (message->path);
  return strcmp (denied_name, name) == 0;
}

/* Takes the answer line off the screen before anything else is printed:
 * on a terminal it is erased, to be drawn again below by prompt_next();
 * elsewhere what comes goes on a line of its own. */
static void
hide_prompt (Attach *attach)
{
  if (!attach->prompting)
    return;
  if (attach->tty)
    {
      g_print ("\r\033[K");
      for (guint i = 1; i < attach->prompt_rows; i++)
        g_print ("\033[A\033[K");
    }
  else
    g_print ("\n");
  attach->prompting = FALSE;
}

static guint
terminal_columns (void)
{
  struct winsize size;

  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 80;
}

/* Asks about the oldest ask: its command and reason once, then the answer
 * line, which is all that is drawn again after each event printed above
 * it, with its countdown updated. */
static void
prompt_next (Attach *attach)
{
  PaddockMessage *ask = g_queue_peek_head (&attach->asks);
  g_autofree char *command = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *line = NULL;
  guint columns;
  gint64 seconds;

  if (ask == NULL || attach->prompting || g_get_monotonic_time () < attach->quiet_at)
    return;

  if (attach->answer != PADDOCK_DECISION_NONE)
    {
      g_autoptr(PaddockMessage) decide = paddock_message_new (PADDOCK_MESSAGE_DECIDE);

      decide->id = ask->id;
      decide->decision = attach->answer;
      decide->remember = attach->remember;
      send_decide (attach, decide);
      g_queue_pop_head (&attach->asks);
      paddock_message_free (ask);
      prompt_next (attach);
      return;
    }
  if (!attach->can_prompt)
    return;

  if (ask->id != attach->shown)
    {
      command = cut_line (paddock_exec_display_line (ask->path, ask->exe, ask->interpreter, ask->pipeline,
                                                     (const char * const *) ask->argv),
                          QUESTION_SHOWN);
      reason = display (ask->reason != NULL ? ask->reason : ask->rule);
      g_print ("\n  #%" G_GINT64_FORMAT " wants to run: %s\n", ask->id, command);
      /* A link of another name (./g, a link to git): what it leads to
       * matters to the answer, and is what a deny or ask rule went by. */
      if (ask->path != NULL && *ask->path != '\0' && ask->exe != NULL)
        {
          g_autofree char *called = g_path_get_basename (ask->path);
          g_autofree char *resolved = g_path_get_basename (ask->exe);

          if (strcmp (called, resolved) != 0)
            {
              g_autofree char *exe = display (ask->exe);

              g_print ("  which is: %s\n", exe);
            }
        }
      if (ask->reason != NULL || ask->rule != NULL)
        g_print ("  why it asks: %s\n", reason);
      attach->shown = ask->id;
    }
  seconds = MAX (0, (ask->deadline - g_get_real_time ()) / G_USEC_PER_SEC);
  line = g_strdup_printf ("  Allow #%" G_GINT64_FORMAT "? [y]es, [n]o, [a]lways in this project, [s]ession (denied in %"
                          G_GINT64_FORMAT " s) > ", ask->id, seconds);
  columns = terminal_columns ();
  attach->prompt_rows = MAX (1, (strlen (line) + columns - 1) / columns);
  g_print ("%s", line);
  fflush (stdout);
  attach->prompting = TRUE;
}

static void
answer_current (Attach     *attach,
                const char *text)
{
  PaddockMessage *ask = g_queue_peek_head (&attach->asks);
  g_autoptr(PaddockMessage) decide = NULL;
  g_autofree char *word = g_ascii_strdown (text, -1);

  if (ask == NULL || !attach->prompting)
    return;
  g_strstrip (word);

  if (attach->gone_at > 0 && g_get_monotonic_time () - attach->gone_at < GONE_GRACE_US && ask->id != attach->gone_id)
    {
      hide_prompt (attach);
      g_print ("  That answer came for #%" G_GINT64_FORMAT ", decided just before it; "
               "it is not taken for #%" G_GINT64_FORMAT ".\n", attach->gone_id, ask->id);
      attach->gone_at = 0;
      prompt_next (attach);
      return;
    }

  decide = paddock_message_new (PADDOCK_MESSAGE_DECIDE);
  decide->id = ask->id;
  decide->remember = PADDOCK_REMEMBER_ONCE;
  if (strcmp (word, "y") == 0 || strcmp (word, "yes") == 0)
    decide->decision = PADDOCK_DECISION_ALLOW;
  else if (strcmp (word, "n") == 0 || strcmp (word, "no") == 0)
    decide->decision = PADDOCK_DECISION_DENY;
  else if (strcmp (word, "a") == 0 || strcmp (word, "always") == 0)
    {
      decide->decision = PADDOCK_DECISION_ALLOW;
      decide->remember = PADDOCK_REMEMBER_PROJECT;
    }
  else if (strcmp (word, "s") == 0 || strcmp (word, "session") == 0)
    {
      decide->decision = PADDOCK_DECISION_ALLOW;
      decide->remember = PADDOCK_REMEMBER_SESSION;
    }
  else
    {
      g_print ("  Answer y, n, a or s > ");
      fflush (stdout);
      attach->prompt_rows = 1;
      return;
    }

  send_decide (attach, decide);
  if (decide->remember != PADDOCK_REMEMBER_ONCE)
    {
      attach->remembered = ask->id;
      attach->quiet_at = g_get_monotonic_time () + SETTLE_WAIT_US;
    }
  attach->prompting = FALSE;
  g_queue_pop_head (&attach->asks);
  paddock_message_free (ask);
  prompt_next (attach);
}

static void
forget_ask (Attach *attach,
            gint64  id)
{
  for (GList *l = attach->asks.head; l != NULL; l = l->next)
    {
      PaddockMessage *ask = l->data;

      if (ask->id != id)
        continue;
      /* Its question was on screen: an answer to it may be on its way. */
      if (l == attach->asks.head && attach->can_prompt && attach->shown == id)
        {
          attach->gone_id = id;
          attach->gone_at = g_get_monotonic_time ();
        }
      g_queue_delete_link (&attach->asks, l);
      paddock_message_free (ask);
      break;
    }
}

/* From hello, or the reply to lock-status. */
static void
print_status (const PaddockMessage *message)
{
  g_autofree char *features = g_strjoinv (", ", message->features != NULL ? message->features : (char *[]) { NULL });

  g_print ("lock: %s, network: %s, %s; kernel features: %s\n", message->lock, message->network,
           message->paused ? "paused" : "running", features);
}

/* Whether standard input is already at its end (< /dev/null, a closed
 * pipe): then no answer can come from it. Reads only what is there to
 * read, and drops it, as lines typed before any question are. */
static gboolean
stdin_at_end (void)
{
  struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
  char buffer[4096];

  if (poll (&pfd, 1, 0) < 0)
    return FALSE;
  if ((pfd.revents & POLLNVAL) != 0)
    return TRUE;
  if ((pfd.revents & (POLLIN | POLLHUP)) == 0)
    return FALSE;
  return read (STDIN_FILENO, buffer, sizeof buffer) == 0;
}

/* Returns FALSE when the session ended. */
static gboolean
handle_event (Attach         *attach,
              PaddockMessage *message)
{
  g_autofree char *time = format_time (message->time > 0 ? message->time : g_get_real_time ());

  hide_prompt (attach);
  switch (message->type)
    {
    case PADDOCK_MESSAGE_EXEC:
      if (is_next_on_path (attach->last_denial, message))
        {
          g_autofree char *path = display (message->path);

          /* The shell, finding it denied, tries the next folder on PATH
           * (on a merged /usr, /bin/rm after /usr/bin/rm): a row of its
           * own in the log, one line here. */
          g_print ("%s  #%-5" G_GINT64_FORMAT " %-7d DENY   again, at %s (the next folder on its PATH)\n",
                   time, message->seq, message->pid, path);
        }
      else
        print_exec (message);
      g_clear_pointer (&attach->last_denial, paddock_message_free);
      if (message->decision == PADDOCK_DECISION_DENY)
        attach->last_denial = paddock_message_copy (message);
      break;

    case PADDOCK_MESSAGE_ASK:
      forget_ask (attach, message->id);
      g_queue_push_tail (&attach->asks, paddock_message_copy (message));
      break;

    case PADDOCK_MESSAGE_DECIDED:
      {
        g_autofree char *by = display (message->by);
        const char *decided = message->decision == PADDOCK_DECISION_ALLOW ? "allowed" : "denied";

        forget_ask (attach, message->id);
        if (message->id == attach->remembered || (attach->remembered == 0 && attach->quiet_at > 0))
          {
            attach->remembered = 0;
            attach->quiet_at = g_get_monotonic_time () + SETTLE_QUIET_US;
          }
        /* Decided by no one: say what happened instead. */
        if (g_strcmp0 (message->by, "gone") == 0)
          g_print ("%s  #%-5" G_GINT64_FORMAT " ended before it was answered\n", time, message->id);
        else if (g_strcmp0 (message->by, "timeout") == 0)
          g_print ("%s  #%-5" G_GINT64_FORMAT " denied: no answer came in time\n", time, message->id);
        else if (g_strcmp0 (message->by, "session-end") == 0)
          g_print ("%s  #%-5" G_GINT64_FORMAT " denied: the session ended\n", time, message->id);
        /* Settled while it waited, by an answer remembered for another
         * ask or by a change of the project's rules. */
        else if (g_strcmp0 (message->by, "remembered") == 0 || g_strcmp0 (message->by, "rule") == 0 ||
                 g_strcmp0 (message->by, "default") == 0)
          {
            g_autofree char *rule = message->rule != NULL ? display (message->rule) : g_strdup ("the default");

            g_print ("%s  #%-5" G_GINT64_FORMAT " %s by the rules as they now stand  [%s]\n",
                     time, message->id, decided, rule);
          }
        else
          {
            g_autofree char *elsewhere = !answered_elsewhere (attach, message) ? g_strdup ("") :
                                         message->client_pid > 0 ?
                                         g_strdup_printf (" at another client (pid %d)", message->client_pid) :
                                         g_strdup (" at another client");

            g_print ("%s  #%-5" G_GINT64_FORMAT " %s by %s%s%s%s%s\n", time, message->id, decided, by, elsewhere,
                     message->remember != PADDOCK_REMEMBER_ONCE ? ", remembered for the " : "",
                     message->remember != PADDOCK_REMEMBER_ONCE ? paddock_remember_to_string (message->remember) : "",
                     remembered_less (attach, message));
          }
        g_hash_table_remove (attach->answered, &message->id);
      }
      break;

    case PADDOCK_MESSAGE_EXIT:
      if (message->session_end)
        {
          if (message->signal > 0)
            g_print ("%s  session ended: the agent was killed by signal %d\n", time, message->signal);
          else
            g_print ("%s  session ended: the agent exited with status %d\n", time, message->exit_code);
          return FALSE;
        }
      if (attach->verbose)
        {
          g_autofree char *how = message->signal > 0 ? g_strdup_printf (", killed by signal %d", message->signal) :
                                 message->exit_code >= 0 ? g_strdup_printf (" with status %d", message->exit_code) :
                                 g_strdup ("");

          if (message->replaced)
            g_print ("%s  #%-5" G_GINT64_FORMAT " replaced by the next program of pid %d after %.3f s\n",
                     time, message->seq, message->pid, message->duration / 1e6);
          else
            g_print ("%s  #%-5" G_GINT64_FORMAT " exited after %.3f s%s\n", time, message->seq,
                     message->duration / 1e6, how);
        }
      break;

    case PADDOCK_MESSAGE_KILL:
    case PADDOCK_MESSAGE_PAUSE:
    case PADDOCK_MESSAGE_RESUME:
      /* By a signal: a paused session resumed for one that ends programs,
       * and killed when its agent did not end after it. */
      g_print ("%s  session %s%s\n", time,
               message->type == PADDOCK_MESSAGE_KILL ? "killed" :
               message->type == PADDOCK_MESSAGE_PAUSE ? "paused" : "resumed",
               g_strcmp0 (message->by, "signal") != 0 ? "" :
               message->type == PADDOCK_MESSAGE_KILL ? ": the agent did not end after a signal to paddock-run that ends it" :
               ", for a signal to paddock-run that ends it");
      break;

    case PADDOCK_MESSAGE_LOCK_STATUS:
      print_status (message);
      break;

    case PADDOCK_MESSAGE_ERROR:
      {
        paddock_printerr ("the session says: %s", message->message);
        /* Perhaps about the answer: nothing to wait for. */
        attach->remembered = 0;
        attach->quiet_at = 0;
      }
      break;

    case PADDOCK_MESSAGE_NET:
    case PADDOCK_MESSAGE_SECRET:
      {
        g_autofree char *what = display (message->type == PADDOCK_MESSAGE_NET ? message->host : message->name);
        g_print ("%s  %s %s: %s\n", time, paddock_message_type_to_string (message->type), what,
                 paddock_decision_to_string (message->decision));
      }
      break;

    default:
      break;
    }
  prompt_next (attach);
  fflush (stdout);
  return TRUE;
}

/* The timeline held back until the status came (see cmd_attach()).
 * Returns FALSE when it shows the session's end. */
static gboolean
show_held (Attach *attach)
{
  PaddockMessage *message;
  gboolean go_on = TRUE;

  while (go_on && (message = g_queue_pop_head (&attach->held)) != NULL)
    {
      go_on = handle_event (attach, message);
      paddock_message_free (message);
    }
  return go_on;
}

/* The session closed @connection without ending. A session that ends says
 * so first; one that still runs dropped this client for falling too far
 * behind (a terminal paused with ^S or in a scrollback mode, a pipe not
 * read): say that, rather than that it went away. */
static void
report_closed (Connection *connection)
{
  g_autoptr(Connection) probe = connect_session (connection->hello->session, NULL);

  if (probe == NULL)
    {
      paddock_printerr ("the session went away");
      return;
    }
  paddock_printerr ("the session %s runs on, but stopped sending to this client, which fell too far behind "
                    "(its terminal paused, or its output not read); the audit log has everything. "
                    "Attach again to follow it from now on.", connection->hello->session);
}

static int
cmd_attach (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("SESSION");
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *remember = NULL;
  gboolean verbose = FALSE;
  gboolean watch = FALSE;
  g_autoptr(Connection) connection = NULL;
  g_autoptr(PaddockMessage) status = paddock_message_new (PADDOCK_MESSAGE_LOCK_STATUS);
  g_autofree char *command = NULL;
  g_autofree char *project = NULL;
  g_autofree char *session = NULL;
  Attach attach = { 0 };
  int result = 0;
  GOptionEntry entries[] = {
    { "answer", 0, 0, G_OPTION_ARG_STRING, &answer, "Answer every ask with allow or deny, without asking", "allow|deny" },
    { "remember", 0, 0, G_OPTION_ARG_STRING, &remember, "With --answer: remember it once, for the session or the project", "once|session|project" },
    { "watch", 0, 0, G_OPTION_ARG_NONE, &watch, "Only show the timeline: answer no asks, and leave them to others", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Also show when programs exit", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (argc != 2)
    return usage ("attach takes one SESSION");

  attach.answer = PADDOCK_DECISION_NONE;
  if (answer != NULL)
    {
      if (strcmp (answer, "allow") == 0)
        attach.answer = PADDOCK_DECISION_ALLOW;
      else if (strcmp (answer, "deny") == 0)
        attach.answer = PADDOCK_DECISION_DENY;
      else
        return usage ("--answer takes allow or deny");
    }
  if (watch && answer != NULL)
    return usage ("--watch answers nothing; it cannot be given with --answer");
  if (remember != NULL && answer == NULL)
    return usage ("--remember goes with --answer");
  if (remember != NULL)
    {
      if (strcmp (remember, "session") == 0)
        attach.remember = PADDOCK_REMEMBER_SESSION;
      else if (strcmp (remember, "project") == 0)
        attach.remember = PADDOCK_REMEMBER_PROJECT;
      else if (strcmp (remember, "once") != 0)
        return usage ("--remember takes once, session or project");
    }

  connection = connect_session (argv[1], &error);
  if (connection == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  attach.connection = connection;
  attach.verbose = verbose;
  attach.can_prompt = attach.answer == PADDOCK_DECISION_NONE && !watch;
  if (attach.can_prompt && stdin_at_end ())
    {
      /* Counted as someone who answers, it would hold each ask until its
       * deadline, the agent waiting, with nobody to type the answer. */
      g_printerr ("paddockctl: standard input is closed, so this only watches: "
                  "asks are left to other clients, or decided as with none (--watch says so)\n");
      attach.can_prompt = FALSE;
    }
  attach.tty = isatty (STDOUT_FILENO) && g_strcmp0 (g_getenv ("TERM"), "dumb") != 0;
  attach.input = paddock_line_reader_new (4096);
  g_queue_init (&attach.asks);
  g_queue_init (&attach.held);
  attach.answered = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  command = paddock_escape_argv_for_display ((const char * const *) connection->hello->command);
  project = display (connection->hello->project);
  session = display (connection->hello->session);
  g_print ("Session %s: %s%s (agent pid %d) in %s\n", session, command,
           connection->hello->truncated ? " …(truncated)" : "",
           connection->hello->agent_pid, project);
  /* Asking for the status also tells the supervisor that someone here
   * answers asks; one who only watches never sends a request. */
  if (attach.can_prompt || attach.answer != PADDOCK_DECISION_NONE)
    {
      connection_send (connection, status);
      attach.registering = TRUE;
    }
  else
    print_status (connection->hello);
  fflush (stdout);

  for (;;)
    {
      struct pollfd fds[2] = {
        { .fd = connection->fd, .events = POLLIN },
        { .fd = STDIN_FILENO, .events = POLLIN },
      };
      gboolean closed = FALSE;
      PaddockMessage *message;
      gboolean watch_stdin = attach.can_prompt;

      /* Drain what is already buffered before waiting. */
      while ((message = connection_read (connection, 0, &closed)) != NULL)
        {
          gboolean go_on = TRUE;

          /* The session replays its timeline before it replies to the
           * status request: the status goes under the session's line, and
           * the replay under it, as it does when only watching. */
          if (attach.registering && message->type != PADDOCK_MESSAGE_LOCK_STATUS)
            {
              g_queue_push_tail (&attach.held, message);
              continue;
            }
          go_on = handle_event (&attach, message);
          paddock_message_free (message);
          if (attach.registering)
            {
              attach.registering = FALSE;
              go_on = go_on && show_held (&attach);
            }
          if (!go_on)
            goto done;
        }
      if (closed)
        {
          /* Gone before its reply: what it sent still shows. */
          if (!show_held (&attach))
            goto done;
          report_closed (connection);
          result = 1;
          break;
        }

      if (attach.quiet_at > 0 && g_get_monotonic_time () >= attach.quiet_at)
        {
          attach.remembered = 0;
          attach.quiet_at = 0;
          prompt_next (&attach);
          fflush (stdout);
        }
      if (poll (fds, watch_stdin ? 2 : 1,
                attach.quiet_at > 0 ? (int) MAX (0, (attach.quiet_at - g_get_monotonic_time () + 999) / 1000) : -1) < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (watch_stdin && fds[1].revents != 0)
        {
          char buffer[4096];
          ssize_t n = read (STDIN_FILENO, buffer, sizeof buffer);
          const char *line;
          gsize length;

          if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            {
              PaddockMessage *ask = g_queue_peek_head (&attach.asks);

              /* Ctrl-D, or the end of piped answers: nothing more can be
               * answered here, so this client goes, and the asks with it:
               * to another client, or, with none, decided as without one. */
              hide_prompt (&attach);
              if (ask != NULL)
                g_printerr ("paddockctl: no more input; detached. #%" G_GINT64_FORMAT
                            " still waits for an answer from another client, else it is denied in %"
                            G_GINT64_FORMAT " s\n", ask->id,
                            MAX (0, (ask->deadline - g_get_real_time ()) / G_USEC_PER_SEC));
              else
                paddock_printerr ("no more input; detached");
              break;
            }
          if (n < 0)
            continue;
          paddock_line_reader_feed (attach.input, buffer, n);
          while (paddock_line_reader_next (attach.input, &line, &length) == PADDOCK_LINE_OK)
            {
              g_autofree char *text = g_strndup (line, length);
              answer_current (&attach, text);
            }
        }
    }

done:
  g_queue_clear_full (&attach.asks, (GDestroyNotify) paddock_message_free);
  g_queue_clear_full (&attach.held, (GDestroyNotify) paddock_message_free);
  g_clear_pointer (&attach.last_denial, paddock_message_free);
  g_clear_pointer (&attach.answered, g_hash_table_unref);
  paddock_line_reader_free (attach.input);
  return result;
}

static int
cmd_policy_check (int    argc,
                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;

  if (argc != 2)
    return usage ("policy check takes one FILE");
  policy = paddock_policy_new_from_file (input_path (argv[1]), &error);
  if (policy == NULL)
    {
      /* What is wrong in the file is FILE:LINE:COLUMN: REASON, as compilers
       * say it; a file that cannot be read is paddockctl's to say. */
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s%s\n", error->domain == PADDOCK_POLICY_ERROR ? "" : "paddockctl: ", shown);
      return 1;
    }
  {
    g_autofree char *file = paddock_escape_controls (argv[1]);
    guint n_rules = paddock_policy_get_n_rules (policy);

    g_print ("%s: %u %s, default %s: valid\n", file, n_rules, n_rules == 1 ? "rule" : "rules",
             paddock_policy_action_to_string (paddock_policy_get_default_action (policy)));
  }
  return 0;
}

/* Where a shell would find @name: the path exec would be given. */
static char *
find_program (const char *name,
              const char *cwd)
{
  g_autofree char *found = NULL;

  if (strchr (name, '/') != NULL)
    return g_canonicalize_filename (name, cwd);
  found = g_find_program_in_path (name);
  return found != NULL ? g_canonicalize_filename (found, cwd) : NULL;
}

/* Programs whose work is to start the program they are given. */
static gboolean
is_launcher (const char *program)
{
  static const char * const launchers[] = {
    "env", "nice", "nohup", "timeout", "stdbuf", "setsid", "xargs", "time", "ionice", "chrt",
    "taskset", "flock", "watch", "unbuffer", "exec", NULL,
  };
  g_autofree char *name = g_path_get_basename (program);

  return g_strv_contains (launchers, name);
}

/* Notes in @notes what the policy makes of @level, one of the commands a
 * run of the explained command makes (see paddock_exec_level_queries()). */
static void
note_level (PaddockPolicy            *policy,
            const PaddockPolicyQuery *level,
            const char               *what,
            GString                  *notes)
{
  g_autoptr(PaddockPolicyRule) rule = NULL;
  PaddockPolicyAction action = paddock_policy_evaluate (policy, level, &rule);
  g_autofree char *line = paddock_exec_display_line (level->exe, level->resolved, NULL, NULL, level->argv);
  g_autofree char *rule_name = rule != NULL ? display (paddock_policy_rule_get_name (rule)) : NULL;

  g_string_append_printf (notes, "note: %s `%s`, which the policy would %s (%s%s%s), and the stricter decision "
                          "holds\n", what, line, paddock_policy_action_to_string (action),
                          rule_name != NULL ? "by rule \"" : "by the default", rule_name != NULL ? rule_name : "",
                          rule_name != NULL ? "\"" : "");
}

/* A script is also judged, when it runs, as the command its #! line makes
 * of it, and so is each interpreter that is a script itself; the loader
 * run as a command and a multi-call binary given its applet, as the
 * program they run (see paddock_exec_level_queries()): noted in @notes, with what the
 * policy makes of each. Where one of those is stricter than the command's
 * own decision, returns what holds ("deny, by rule …, for `…`"); else
 * NULL. */
static char *
note_levels (PaddockPolicy            *policy,
             const PaddockPolicyQuery *query,
             const char               *cwd,
             GString                  *notes)
{
  g_autoptr(GPtrArray) shebangs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) argvs = NULL;
  g_autoptr(PaddockPolicyRule) strictest_rule = NULL;
  PaddockPolicyAction own = paddock_policy_evaluate (policy, query, NULL);
  PaddockPolicyAction strictest;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  guint strictest_level = 0;
  /* The script's path as a shell hands it to exec: as typed, or as found
   * along PATH. */
  const char *file = strchr (query->argv[0], '/') != NULL ? query->argv[0] : query->exe;
  guint n_lines = 0;
  guint n;

  /* Its #! lines, each interpreter looked up from where it runs, as the
   * kernel looks it up. */
  for (const char *next = query->exe; next != NULL && n_lines < PADDOCK_EXEC_MAX_SHEBANG_LINES; n_lines++)
    {
      g_autofree char *path = g_canonicalize_filename (next, cwd);
      paddock_autofd int fd = -1;
      char *interpreter = NULL;
      char *argument = NULL;
      struct stat st;

      if ((fd = open (path, O_PATH | O_CLOEXEC)) < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) ||
          !paddock_exec_read_interpreter (fd, &interpreter, &argument))
        break;
      g_ptr_array_add (shebangs, interpreter);
      g_ptr_array_add (shebangs, argument);
      next = interpreter;
    }

  n = paddock_exec_level_queries (query, file, shebangs, &argvs, levels);
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *what = NULL;

      if (i <= n_lines)
        {
          /* The script, or the interpreter above that is one. */
          g_autofree char *shown = display (i == 1 ? query->argv[0] : levels[i - 1].exe);

          what = g_strdup_printf ("%s is a script%s; run, it is also judged as the command its #! line makes of it,",
                                  shown, i > 1 ? ", the interpreter of the one above" : "");
        }
      else
        {
          g_autofree char *launcher = display (levels[i - 1].argv[0]);
          g_autofree char *program = display (levels[i].exe);

          what = g_strdup_printf ("%s runs %s itself, with no exec of it, so it is also judged as", launcher, program);
        }
      note_level (policy, &levels[i], what, notes);
    }
  strictest = paddock_policy_evaluate_levels (policy, levels, n, &strictest_rule, &strictest_level, NULL);
  if (strictest != own)
    {
      const PaddockPolicyQuery *level = &levels[strictest_level];
      g_autofree char *line = paddock_exec_display_line (level->exe, level->resolved, NULL, NULL, level->argv);
      g_autofree char *rule_name = strictest_rule != NULL ? display (paddock_policy_rule_get_name (strictest_rule))
                                                          : NULL;

      if (rule_name == NULL)
        return g_strdup_printf ("%s, by the policy's default, for `%s`", paddock_policy_action_to_string (strictest),
                                line);
      return g_strdup_printf ("%s, by rule \"%s\", for `%s`", paddock_policy_action_to_string (strictest),
                              rule_name, line);
    }
  return NULL;
}

/* --project DIR (NULL: the current folder), canonical, in *@out. Returns
 * 0, or, having said why, the status to leave with: 2 for an empty name
 * (which would be the current folder, as it would to paddock-run), 1 for
 * one that is no folder. */
static int
project_folder (const char  *project_arg,
                char       **out)
{
  g_autofree char *project = NULL;

  if (project_arg != NULL && project_arg[0] == '\0')
    return usage ("--project names no folder");
  project = project_arg != NULL ? realpath (project_arg, NULL) : g_get_current_dir ();
  if (project == NULL || !g_file_test (project, G_FILE_TEST_IS_DIR))
    {
      paddock_printerr ("the project \"%s\": %s", project_arg != NULL ? project_arg : ".",
                        g_strerror (project == NULL ? errno : ENOTDIR));
      return 1;
    }
  *out = g_steal_pointer (&project);
  return 0;
}

/* The project's own rules: its overrides and the answers remembered for it. */
static int
cmd_policy_project (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("");
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *file = NULL;
  g_autofree char *shown_project = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  guint n;
  int status;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (argc != 1)
    return usage ("policy project takes no arguments but --project");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  overrides = paddock_policy_load_project (project, &error);
  file = paddock_policy_project_file (project, NULL);
  if (overrides == NULL)
    {
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s\n", shown);
      return 1;
    }
  shown_project = display (project);
  n = paddock_policy_get_n_rules (overrides);
  if (n == 0)
    g_print ("The project %s has no rules of its own (nothing is remembered for it).\n", shown_project);
  else
    {
      g_autofree char *shown_file = display (file);

      g_print ("The project %s's own rules, first to last (%s):\n", shown_project, shown_file);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockPolicyRule) rule = paddock_policy_get_rule (overrides, i);
      g_autofree char *name = display (paddock_policy_rule_get_name (rule));
      g_autofree char *reason = display (paddock_policy_rule_get_reason (rule));

      g_print ("  %-24s %-5s  %s\n", name, paddock_policy_action_to_string (paddock_policy_rule_get_action (rule)),
               *reason != '\0' ? reason : "(no reason given)");
    }
  if (paddock_policy_sets_default (overrides))
    g_print ("Its file sets the decision where no rule matches: %s.\n",
             paddock_policy_action_to_string (paddock_policy_get_default_action (overrides)));
  return 0;
}

/* Takes answers remembered for the project (or rules of its own) back: a
 * session running there follows at once. */
static int
cmd_policy_forget (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("--all|NAME…");
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *shown_project = NULL;
  gboolean all = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, "Every rule of the project's own", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (all == (argc > 1))
    return usage ("policy forget takes --all or the NAMEs of rules (paddockctl policy project lists them)");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  if (!paddock_policy_forget_in_project (project, all ? NULL : (const char * const *) argv + 1, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  shown_project = display (project);
  if (all)
    g_print ("The project %s has no rules of its own now", shown_project);
  else
    {
      g_autofree char *names = g_strjoinv (", ", argv + 1);
      g_autofree char *shown_names = display (names);

      g_print ("Taken out of the project %s's rules: %s", shown_project, shown_names);
    }
  g_print ("; sessions running there follow at once.\n");
  return 0;
}

static gboolean
explained_download (const char *path,
                    gpointer    user_data)
{
  for (char **target = user_data; *target != NULL; target++)
    if (paddock_download_holds (*target, path))
      return TRUE;
  return FALSE;
}

static int
cmd_policy_explain (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("-- COMMAND [ARG…]");
  g_autoptr(GError) error = NULL;
  g_autofree char *policy_file = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *cwd_arg = NULL;
  g_autofree char *piped_from = NULL;
  g_auto(GStrv) downloaded = NULL;
  g_autoptr(GPtrArray) downloads = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *project = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *home = NULL;
  g_autofree char *text = NULL;
  g_autofree char *holds = NULL;
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(PaddockPolicy) policy = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  PaddockPolicyQuery query;
  char **command;
  int status;
  GOptionEntry entries[] = {
    { "policy", 0, 0, G_OPTION_ARG_FILENAME, &policy_file, "The policy file (default: the built-in policy)", "FILE" },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project_arg, "The project (default: the current directory)", "DIR" },
    { "cwd", 0, 0, G_OPTION_ARG_FILENAME, &cwd_arg, "Where the command runs (default: the current directory where it is in the project, else the project)", "DIR" },
    { "piped-from", 0, 0, G_OPTION_ARG_STRING, &piped_from, "Explain COMMAND as reading its script from a pipe that LINE writes to (curl … | sh)", "LINE" },
    { "downloaded", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &downloaded, "Explain COMMAND as run after a download (curl, wget) saved FILE in the session, "
      "or a clone (git clone) made the folder FILE/ (repeatable)", "FILE" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  command = argv + 1;
  if (command[0] != NULL && strcmp (command[0], "--") == 0)
    command++;
  if (command[0] == NULL || command[0][0] == '\0')
    return usage ("policy explain needs a COMMAND");
  /* An empty name would be the current folder, as it would to paddock-run. */
  if (cwd_arg != NULL && cwd_arg[0] == '\0')
    return usage ("--cwd names no folder");
  status = project_folder (project_arg, &project);
  if (status != 0)
    return status;
  if (cwd_arg != NULL)
    cwd = g_canonicalize_filename (cwd_arg, NULL);
  else
    {
      /* Here, as a command typed here would run, where here is in the project. */
      g_autofree char *here = realpath (".", NULL);

      cwd = g_strdup (here != NULL && paddock_path_is_within (here, project) ? here : project);
    }

  policy = policy_file != NULL ? paddock_policy_new_from_file (input_path (policy_file), &error)
                              : paddock_policy_new_default ();
  if (policy != NULL)
    overrides = paddock_policy_load_project (project, &error);
  if (overrides == NULL)
    {
      g_autofree char *shown = paddock_escape_controls (error->message);

      g_printerr ("%s\n", shown);
      return 1;
    }
  paddock_policy_set_project_overrides (policy, overrides);

  exe = find_program (command[0], cwd);
  resolved = exe != NULL ? realpath (exe, NULL) : NULL;
  home = paddock_policy_dup_home ();
  query = (PaddockPolicyQuery) {
    .exe = exe,
    .argv = (const char * const *) command,
    .cwd = cwd,
    .project = project,
    .home = home,
    .resolved = resolved,
    .stdin_from = piped_from,
  };
  if (downloaded != NULL)
    {
      /* As the session notes them: from where the command runs, lexically;
       * a clone's folder with a final '/'. */
      for (guint i = 0; downloaded[i] != NULL; i++)
        if (downloaded[i][0] != '\0')
          {
            g_autofree char *path = g_canonicalize_filename (downloaded[i], cwd);
            gboolean folder = g_str_has_suffix (downloaded[i], "/") && !g_str_has_suffix (path, "/");

            g_ptr_array_add (downloads, g_strconcat (path, folder ? "/" : "", NULL));
          }
      g_ptr_array_add (downloads, NULL);
      query.downloaded_func = explained_download;
      query.downloaded_data = downloads->pdata;
    }
  text = paddock_policy_explain (policy, &query);
  holds = note_levels (policy, &query, cwd, notes);
  {
    /* What holds goes right under the command's own decision. */
    const char *decision = g_str_has_prefix (text, "decision: ") ? text : strstr (text, "\ndecision: ");
    const char *end = decision != NULL ? strchr (decision + 1, '\n') : NULL;

    if (holds != NULL && end != NULL)
      g_print ("%.*swhen it runs: %s\n%s", (int) (end + 1 - text), text, holds, end + 1);
    else
      g_print ("%s", text);
    if (!g_str_has_suffix (text, "\n"))
      g_print ("\n");
    if (holds != NULL && end == NULL)
      g_print ("when it runs: %s\n", holds);
  }
  g_print ("%s", notes->str);
  if (piped_from != NULL && paddock_policy_query_script_fd (&query) < 0)
    {
      g_autofree char *shown = display (command[0]);

      g_print ("note: %s does not read its script from a pipe, so what writes to one changes nothing\n", shown);
    }
  if (command[1] != NULL && is_launcher (command[0]))
    {
      g_autofree char *name = g_path_get_basename (command[0]);
      g_autofree char *shown = display (name);

      g_print ("note: %s starts the program it is given, and that program's exec is decided on its own, "
               "as its own command line\n", shown);
    }
  return 0;
}

static int
cmd_audit_verify (int    argc,
                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  PaddockAuditVerification result = { 0 };
  int status;

  if (argc != 2)
    return usage ("audit verify takes one LOG");
  path = log_path (argv[1], &error);
  if (path == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  file = paddock_escape_controls (strcmp (argv[1], "-") == 0 ? argv[1] : path);
  if (!paddock_audit_verify_file (path, &result, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  if (result.bad_line != 0)
    {
      g_autofree char *reason = display (result.reason);
      g_print ("%s: the chain breaks at line %" G_GUINT64_FORMAT ": %s (%" G_GUINT64_FORMAT
               " intact records before it)\n", file, result.bad_line, reason, result.n_records);
      status = 1;
    }
  else if (result.n_records == 0)
    {
      /* Every log begins with its session's start: an empty one is what
       * deleting all its records leaves, and nothing here is verified. */
      g_print ("%s: no records, so nothing to verify (a session's log begins with its session-start)\n",
               file);
      status = 1;
    }
  else
    {
      g_print ("%s: %" G_GUINT64_FORMAT " records, the chain holds%s; last hash %s\n", file,
               result.n_records,
               result.ended ? ", ends with session-end" :
                              "; it does not end with session-end (still being written, or cut short)",
               result.last_hash);
      status = 0;
    }
  paddock_audit_verification_clear (&result);
  return status;
}

typedef struct
{
  PaddockAuditFilter  filter;
  GRegex             *grep;
  char               *file;
  char               *decision;
  char               *type;
} AuditArgs;

static void
audit_args_clear (AuditArgs *args)
{
  g_clear_pointer (&args->grep, g_regex_unref);
  g_clear_pointer (&args->file, g_free);
  g_clear_pointer (&args->decision, g_free);
  g_clear_pointer (&args->type, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AuditArgs, audit_args_clear)

static int
parse_audit_args (int        argc,
                  char     **argv,
                  AuditArgs *args)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(GError) error = NULL;
  g_autofree char *since = NULL;
  g_autofree char *grep = NULL;
  GOptionEntry entries[] = {
    { "since", 0, 0, G_OPTION_ARG_STRING, &since, "Records at or after TIME (2026-03-01T12:00, 2026-03-01, 15m, 2h, 3d)", "TIME" },
    { "decision", 0, 0, G_OPTION_ARG_STRING, &args->decision, "Records with this decision", "allow|deny|ask" },
    { "type", 0, 0, G_OPTION_ARG_STRING, &args->type, "Records of this type (exec, exit, decision, …)", "TYPE" },
    { "grep", 0, 0, G_OPTION_ARG_STRING, &grep, "Records whose JSON text or command line matches REGEX", "REGEX" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (argc != 2)
    return usage ("give one LOG");
  args->file = log_path (argv[1], &error);
  if (args->file == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }

  if (args->decision != NULL &&
      !g_strv_contains ((const char * const[]) { "allow", "deny", "ask", NULL }, args->decision))
    {
      paddock_printerr ("--decision: \"%s\" is not allow, deny or ask", args->decision);
      return EXIT_USAGE;
    }

  if (since != NULL &&
      !paddock_audit_parse_time (since, g_get_real_time (), &args->filter.since_us, &error))
    {
      paddock_printerr ("--since: %s", error->message);
      return EXIT_USAGE;
    }
  if (grep != NULL)
    {
      args->grep = g_regex_new (grep, G_REGEX_OPTIMIZE, 0, &error);
      if (args->grep == NULL)
        {
          paddock_printerr ("--grep: %s", error->message);
          return EXIT_USAGE;
        }
    }
  args->filter.decision = args->decision;
  args->filter.type = args->type;
  args->filter.grep = args->grep;
  return 0;
}

static char *
member_text (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autofree char *raw = NULL;

  if (node == NULL)
    return g_strdup ("");
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  raw = paddock_audit_node_dup_string (node);
  return display (raw);
}

static char *
member_argv (JsonObject *object,
             const char *name)
{
  char *line = paddock_audit_dup_command_line (object, name);

  return line != NULL ? line : g_strdup ("");
}

static void
print_show_header (gboolean *printed)
{
  if (!*printed)
    g_print ("%-19s %6s  %-15s %-8s %-10s %s\n", "TIME", "SEQ", "TYPE", "DECISION", "BY", "WHAT");
  *printed = TRUE;
}

/* @user_data: whether the header was printed, which the first record does. */
static gboolean
show_record (const PaddockAuditRecord *record,
             gpointer                  user_data)
{
  JsonObject *object = record->object;
  g_autoptr(GDateTime) time = local_time_new (record->time_us);
  g_autofree char *when = time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("?");
  g_autofree char *decision = member_text (object, "decision");
  g_autofree char *by = member_text (object, "by");
  g_autofree char *detail = NULL;
  g_autofree char *type = display (record->type);

  if (g_strcmp0 (record->type, PADDOCK_AUDIT_EXEC) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *argv = paddock_audit_dup_exec_line (object);
      g_autofree char *rule = member_text (object, "rule");

      detail = g_strdup_printf ("#%s %s%s%s%s", event, argv, *rule ? "  [" : "", rule, *rule ? "]" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_EXIT) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *duration = member_text (object, "duration_us");
      g_autofree char *exit_code = member_text (object, "exit_code");
      g_autofree char *signal = member_text (object, "signal");
      JsonNode *replaced_node = json_object_get_member (object, "replaced");
      gboolean replaced = replaced_node != NULL && JSON_NODE_HOLDS_VALUE (replaced_node) &&
                          json_node_get_value_type (replaced_node) == G_TYPE_BOOLEAN &&
                          json_node_get_boolean (replaced_node);

      detail = g_strdup_printf ("#%s after %s µs%s%s%s%s%s", event, duration,
                                *exit_code ? ", status " : "", exit_code,
                                *signal ? ", signal " : "", signal,
                                replaced ? ", replaced by the next program" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_DECISION) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *remember = member_text (object, "remember");
      g_autofree char *rule = member_text (object, "rule");
      g_autofree char *client_pid = member_text (object, "client_pid");
      /* An answer remembered names the rule it made; a decision that took
       * no answer, the rule that made it. */
      gboolean remembered = *remember != '\0' && g_strcmp0 (remember, "once") != 0;

      detail = g_strdup_printf ("#%s%s%s%s%s%s%s%s", event,
                                remembered ? ", remembered for the " : "", remembered ? remember : "",
                                *client_pid ? ", at client pid " : "", client_pid,
                                *rule ? "  [" : "", rule, *rule ? "]" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_KILL) == 0 || g_strcmp0 (record->type, PADDOCK_AUDIT_PAUSE) == 0 ||
           g_strcmp0 (record->type, PADDOCK_AUDIT_RESUME) == 0)
    {
      g_autofree char *client_pid = member_text (object, "client_pid");
      g_autofree char *signal = member_text (object, "signal");

      if (*signal != '\0' && g_strcmp0 (record->type, PADDOCK_AUDIT_KILL) == 0)
        detail = g_strdup_printf ("all the agent's programs: the agent did not end after %s to paddock-run", signal);
      else if (*signal != '\0')
        detail = g_strdup_printf ("all the agent's programs, for %s to paddock-run to reach them", signal);
      else
        detail = g_strdup_printf ("all the agent's programs%s%s", *client_pid ? ", asked by pid " : "", client_pid);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_POLICY) == 0)
    {
      g_autofree char *file = member_text (object, "file");
      g_autofree char *rules = member_text (object, "rules");
      g_autofree char *error = member_text (object, "error");

      if (*error != '\0')
        detail = g_strdup_printf ("the project's rules changed, not taken: %s", error);
      else
        detail = g_strdup_printf ("the project's rules changed: %s rule%s now, from %s", rules,
                                  g_strcmp0 (rules, "1") == 0 ? "" : "s", file);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_SESSION_START) == 0)
    {
      g_autofree char *session = member_text (object, "session");
      g_autofree char *project = member_text (object, "project");
      g_autofree char *command = member_argv (object, "command");

      detail = g_strdup_printf ("%s in %s: %s", session, project, command);
    }
  else
    {
      g_autofree char *exit_code = member_text (object, "exit_code");
      g_autofree char *signal = member_text (object, "signal");
      g_autofree char *reason = member_text (object, "reason");
      g_autofree char *error = member_text (object, "error");

      detail = g_strdup_printf ("%s%s%s%s%s%s", *exit_code ? "exit code " : "", exit_code,
                                *signal ? "signal " : "", signal, reason, error);
    }

  print_show_header (user_data);
  g_print ("%-19s %6" G_GUINT64_FORMAT "  %-15s %-8s %-10s %s\n", when, record->seq, type,
           decision, by, detail);
  return TRUE;
}

static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* One pass over the log, for show and export: the records that pass the
 * filter go to @func, the types of all are kept where --type was given
 * (for one no record has), and the chain is verified on the very bytes
 * shown, so that a log edited meanwhile, or a pipe, is checked too. */
typedef struct
{
  const AuditArgs          *args;
  PaddockAuditRecordFunc    func;
  gpointer                  user_data;
  GHashTable               *types;      /* as displayed; only with --type */
  gboolean                  selected;   /* some record passed the filter */
  PaddockAuditVerification  verification;
} Reading;

static void
reading_clear (Reading *reading)
{
  g_clear_pointer (&reading->types, g_hash_table_unref);
  paddock_audit_verification_clear (&reading->verification);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Reading, reading_clear)

static gboolean
read_record (const PaddockAuditRecord *record,
             gpointer                  user_data)
{
  Reading *reading = user_data;

  if (reading->types != NULL)
    g_hash_table_add (reading->types, display (record->type));
  if (!paddock_audit_filter_matches (&reading->args->filter, record))
    return TRUE;
  reading->selected = TRUE;
  return reading->func (record, reading->user_data);
}

/* FALSE, said on stderr, where the log cannot be read. */
static gboolean
read_log (const AuditArgs        *args,
          PaddockAuditRecordFunc  func,
          gpointer                user_data,
          Reading                *reading)
{
  g_autoptr(GError) error = NULL;

  *reading = (Reading) {
    .args = args,
    .func = func,
    .user_data = user_data,
    .types = args->type != NULL ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) : NULL,
  };
  if (!paddock_audit_foreach (args->file, NULL, read_record, reading, &reading->verification, &error))
    {
      paddock_printerr ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* After the records, on stderr: that --type names a type no record in the
 * log has (a typo, most likely), with the types it does have; and where
 * the chain breaks, since what was printed is only as good as the log. */
static void
report_reading (const Reading *reading)
{
  const AuditArgs *args = reading->args;
  const PaddockAuditVerification *result = &reading->verification;

  if (!reading->selected && reading->types != NULL)
    {
      g_autofree char *shown = display (args->type);

      if (!g_hash_table_contains (reading->types, shown))
        {
          g_autofree const char **names = (const char **) g_hash_table_get_keys_as_array (reading->types, NULL);
          g_autofree char *list = NULL;

          qsort (names, g_hash_table_size (reading->types), sizeof *names, compare_strings);
          list = g_strjoinv (", ", (char **) names);
          paddock_printerr ("no record in %s has the type \"%s\"; its types are: %s",
                            args->file, shown, *list != '\0' ? list : "(none)");
        }
    }
  if (result->bad_line != 0)
    {
      g_autofree char *reason = display (result->reason);

      paddock_printerr ("warning: %s: the chain breaks at line %" G_GUINT64_FORMAT
                        ": %s; what is shown from there on cannot be trusted", args->file, result->bad_line, reason);
    }
}

static int
cmd_audit_show (int    argc,
                char **argv)
{
  g_auto(AuditArgs) args = { 0 };
  g_auto(Reading) reading = { 0 };
  int status = parse_audit_args (argc, argv, &args);
  gboolean header = FALSE;

  if (status != 0)
    return status;
  /* The header once the file reads, so a log that cannot be read gets
   * only its error; an empty selection, only the header. */
  if (!read_log (&args, show_record, &header, &reading))
    return 1;
  print_show_header (&header);
  report_reading (&reading);
  return 0;
}

/* Export writes each record as it is read: a log of a long session holds
 * millions, and a tree of them all took twelve times the log's size. */
typedef struct
{
  JsonGenerator *generator;
  GString       *out;
  guint          n;
} Export;

static gboolean
export_record (const PaddockAuditRecord *record,
               gpointer                  user_data)
{
  Export *export = user_data;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, record->object);
  json_generator_set_root (export->generator, node);
  text = json_generator_to_data (export->generator, NULL);
  /* An element of the array: indented one level more. */
  g_string_assign (export->out, export->n++ == 0 ? "[\n  " : ",\n  ");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\n')
        g_string_append (export->out, "\n  ");
      else
        g_string_append_c (export->out, *p);
    }
  fwrite (export->out->str, 1, export->out->len, stdout);
  return TRUE;
}

static int
cmd_audit_export (int    argc,
                  char **argv)
{
  g_auto(AuditArgs) args = { 0 };
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_auto(Reading) reading = { 0 };
  g_autoptr(GString) out = g_string_new (NULL);
  Export export = { generator, out, 0 };
  gboolean read;
  int status = parse_audit_args (argc, argv, &args);

  if (status != 0)
    return status;
  json_generator_set_pretty (generator, TRUE);
  read = read_log (&args, export_record, &export, &reading);
  /* What was written stays a JSON array, even where reading stopped. */
  if (export.n > 0)
    g_print ("\n]\n");
  else if (read)
    g_print ("[]\n");
  if (!read)
    return 1;
  report_reading (&reading);
  return 0;
}

/* The project's saved folder-lock choice, and where it comes from. */
static const char *
describe_choice (const PaddockProjectConfig *config)
{
  if (!config->has_lock)
    return "off (nothing saved: the default)";
  return config->lock ? "on (saved)" : "off (saved)";
}

static int
cmd_lock (int    argc,
          char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  g_autofree char *shown = NULL;
  PaddockProjectConfig config = { 0 };
  const char *verb;
  const char *dir;
  gboolean was_on;
  gboolean on;
  struct stat st;

  if (argc < 2 || argc > 3)
    return usage ("lock takes on, off or status, and at most one DIR");
  verb = argv[1];
  if (strcmp (verb, "on") != 0 && strcmp (verb, "off") != 0 && strcmp (verb, "status") != 0)
    return usage ("lock takes on, off or status");

  /* The choice is saved under the canonical path, as paddock-run looks it up. */
  dir = argc == 3 ? argv[2] : ".";
  if (dir[0] == '\0')
    return usage ("lock: DIR names no folder");
  project = realpath (dir, NULL);
  if (project == NULL)
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (errno));
      return EXIT_USAGE;
    }
  if (stat (project, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (ENOTDIR));
      return EXIT_USAGE;
    }
  /* The folder's name may be anything, this one's too (an agent's clone). */
  shown = paddock_escape_controls (project);

  /* A settings file that does not parse is never overwritten: it may hold grants. */
  if (!paddock_project_config_load (project, &config, &error))
    {
      paddock_printerr ("cannot read the project's settings: %s", error->message);
      if (strcmp (verb, "status") == 0)
        {
          g_print ("project: %s\nlock: unknown (the settings do not parse)\n", shown);
          fflush (stdout);
          paddock_lock_print_status (stdout, NULL);
        }
      return 1;
    }

  if (strcmp (verb, "status") == 0)
    {
      g_print ("project: %s\nlock: %s\n", shown, describe_choice (&config));
      paddock_project_config_clear (&config);
      fflush (stdout);
      /* What this kernel offers, in paddock-run --lock-status's own words. */
      paddock_lock_print_status (stdout, NULL);
      return 0;
    }

  was_on = config.has_lock && config.lock;
  paddock_project_config_clear (&config);
  on = strcmp (verb, "on") == 0;
  if (on && !paddock_lock_check_project (project, NULL, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  if (!paddock_project_config_save_lock (project, on, &error))
    {
      paddock_printerr ("cannot save the folder lock of %s: %s", shown, error->message);
      return 1;
    }

  if (on == was_on)
    g_print ("The folder lock of %s stays %s. ", shown, on ? "on" : "off");
  else
    g_print ("The folder lock of %s is now %s (it was %s). ", shown, on ? "on" : "off", was_on ? "on" : "off");
  g_print ("This applies to sessions started from now on: a running session keeps the lock it started "
           "with, which cannot be %s while it runs.\n", on ? "added" : "lifted");
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *command;
  g_autofree char *words = NULL;

  paddock_open_std_fds ();
  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      g_set_prgname ("paddockctl");
      return usage (NULL);
    }
  command = argv[1];
  words = command_words (argc, argv);
  if (words != NULL && help_asked (argc, argv))
    {
      /* GOption's help names the program: make it name the command. */
      g_autofree char *name = g_strdup_printf ("paddockctl %s", words);

      g_set_prgname (name);
      if (!command_has_options (words))
        return print_command_usage (words);
    }
  else
    g_set_prgname ("paddockctl");

  if (strcmp (command, "--help") == 0 || strcmp (command, "-h") == 0 || strcmp (command, "help") == 0)
    {
      g_print ("%s", usage_text);
      return 0;
    }
  if (strcmp (command, "--version") == 0)
    {
      g_print ("paddockctl %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (strcmp (command, "list") == 0)
    return cmd_list (argc - 1, argv + 1);
  if (strcmp (command, "attach") == 0)
    return cmd_attach (argc - 1, argv + 1);
  if (strcmp (command, "kill") == 0)
    return cmd_control (argc - 1, argv + 1, PADDOCK_MESSAGE_KILL);
  if (strcmp (command, "pause") == 0)
    return cmd_control (argc - 1, argv + 1, PADDOCK_MESSAGE_PAUSE);
  if (strcmp (command, "resume") == 0)
    return cmd_control (argc - 1, argv + 1, PADDOCK_MESSAGE_RESUME);
  if (strcmp (command, "policy") == 0 && argc >= 3)
    {
      if (strcmp (argv[2], "check") == 0)
        return cmd_policy_check (argc - 2, argv + 2);
      if (strcmp (argv[2], "explain") == 0)
        return cmd_policy_explain (argc - 2, argv + 2);
      if (strcmp (argv[2], "project") == 0)
        return cmd_policy_project (argc - 2, argv + 2);
      if (strcmp (argv[2], "forget") == 0)
        return cmd_policy_forget (argc - 2, argv + 2);
    }
  if (strcmp (command, "audit") == 0 && argc >= 3)
    {
      if (strcmp (argv[2], "verify") == 0)
        return cmd_audit_verify (argc - 2, argv + 2);
      if (strcmp (argv[2], "show") == 0)
        return cmd_audit_show (argc - 2, argv + 2);
      if (strcmp (argv[2], "export") == 0)
        return cmd_audit_export (argc - 2, argv + 2);
    }
  if (strcmp (command, "lock") == 0)
    return cmd_lock (argc - 1, argv + 1);
  {
    gboolean has_sub = strcmp (command, "policy") == 0 || strcmp (command, "audit") == 0;
    g_autofree char *shown = display (command);
    g_autofree char *sub = has_sub && argc >= 3 ? display (argv[2]) : NULL;
    g_autofree char *message = NULL;

    if (has_sub && sub == NULL)
      message = g_strdup_printf ("%s needs a command: %s", shown,
                                 strcmp (command, "audit") == 0 ? "verify, show or export" : "check, explain, project or forget");
    else
      message = g_strdup_printf ("unknown command \"%s%s%s\"", shown, sub ? " " : "", sub ? sub : "");
    return usage (message);
  }
}
