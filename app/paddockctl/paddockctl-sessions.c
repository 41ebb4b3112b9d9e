/* paddockctl-sessions.c: paddockctl list, attach, kill, pause and resume
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-autofd.h"
#include "paddock-control.h"
#include "paddock-escape.h"
#include "paddock-process-tree.h"
#include "paddock-protocol.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* How old a socket nobody listens on must be before list removes it. */
#define STALE_AFTER_S 10

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
cmd_kill (int    argc,
          char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_KILL);
}

static int
cmd_pause (int    argc,
           char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_PAUSE);
}

static int
cmd_resume (int    argc,
            char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_RESUME);
}

const PaddockctlCommand paddockctl_session_commands[] = {
  { "list", cmd_list, FALSE },
  { "attach", cmd_attach, TRUE },
  { "kill", cmd_kill, FALSE },
  { "pause", cmd_pause, FALSE },
  { "resume", cmd_resume, FALSE },
  { NULL }
};
