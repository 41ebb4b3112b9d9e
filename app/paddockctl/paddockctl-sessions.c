/* paddockctl-sessions.c: paddockctl list and attach: the sessions, one session's timeline and asks
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both talk to sessions through PaddockClient, on a GMainLoop: attach
 * follows the session's messages, its standard input for answers, and a
 * timer for when to ask next, all on the default main context.
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-escape.h"

#include <errno.h>
#include <glib-unix.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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
  GMainLoop *loop;
  guint      waiting;        /* for this many greetings */
} Listing;

/* One session as list found it. */
typedef struct
{
  Listing        *listing;
  char           *path;
  PaddockMessage *hello;     /* or NULL, and: */
  GError         *error;
} Listed;

static void
listed_clear (Listed *listed)
{
  g_clear_pointer (&listed->path, g_free);
  g_clear_pointer (&listed->hello, paddock_message_free);
  g_clear_error (&listed->error);
}

static void
listed_connected (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Listed *listed = user_data;
  Listing *listing = listed->listing;
  g_autoptr(PaddockClient) client = paddock_client_connect_finish (result, &listed->error);

  /* Its greeting says all list shows. */
  if (client != NULL)
    {
      listed->hello = paddock_message_copy (paddock_client_get_hello (client));
      paddock_client_close (client);
    }
  if (--listing->waiting == 0)
    g_main_loop_quit (listing->loop);
}

int
paddockctl_builtin_list (int    argc,
                         char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GArray) sessions = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  Listing listing;
  guint shown = 0;
  int status = 0;

  if (argc != 1)
    return usage ("list takes no arguments");
  paths = paddock_client_list_sockets (&error);
  if (paths == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }

  /* All asked at once, so that one that does not answer delays the list
   * once, not once for each; shown in the order of their ids. */
  sessions = g_array_sized_new (FALSE, TRUE, sizeof (Listed), paths->len);
  g_array_set_clear_func (sessions, (GDestroyNotify) listed_clear);
  g_array_set_size (sessions, paths->len);
  loop = g_main_loop_new (NULL, FALSE);
  listing = (Listing) { loop, paths->len };
  for (guint i = 0; i < paths->len; i++)
    {
      Listed *listed = &g_array_index (sessions, Listed, i);

      listed->listing = &listing;
      listed->path = g_strdup (g_ptr_array_index (paths, i));
      paddock_client_connect_async (listed->path, 0, NULL, listed_connected, listed);
    }
  if (listing.waiting > 0)
    g_main_loop_run (loop);

  for (guint i = 0; i < sessions->len; i++)
    {
      Listed *listed = &g_array_index (sessions, Listed, i);
      g_autofree char *project = NULL;
      g_autofree char *command = NULL;
      g_autofree char *session = NULL;
      g_autofree char *lock = NULL;

      if (g_error_matches (listed->error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STALE))
        {
          /* Left behind by a supervisor that was killed: tidy up our own
           * directory. A socket that new may be one a live supervisor has
           * bound and not yet listens on: left alone. */
          struct stat st;

          if (lstat (listed->path, &st) == 0 && S_ISSOCK (st.st_mode) &&
              (gint64) st.st_mtime < g_get_real_time () / G_USEC_PER_SEC - STALE_AFTER_S)
            unlink (listed->path);
          continue;
        }
      if (listed->error != NULL)
        {
          paddock_printerr ("%s", listed->error->message);
          status = 1;
        }
      if (shown++ == 0)
        g_print ("%-14s %-8s %-10s %-7s %-30s %s\n", "SESSION", "PID", "LOCK", "STATE", "PROJECT", "COMMAND");
      if (listed->hello == NULL)
        {
          /* Running, as far as anyone can tell, but not saying what. */
          g_autofree char *id = paddock_client_session_of_socket (listed->path);

          session = display (id);
          g_print ("%-14s %-8s %-10s %-7s %-30s %s\n", session, "?", "?",
                   g_error_matches (listed->error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STOPPED) ? "stopped" :
                   g_error_matches (listed->error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_SILENT) ? "silent" : "?",
                   "?", "?");
          continue;
        }
      session = display (listed->hello->session);
      lock = display (listed->hello->lock);
      project = display (listed->hello->project);
      command = paddock_escape_argv_for_display ((const char * const *) listed->hello->command);
      g_print ("%-14s %-8d %-10s %-7s %-30s %s%s\n", session,
               listed->hello->agent_pid, lock,
               listed->hello->paused ? "paused" : "running", project, command,
               listed->hello->truncated ? " …(truncated)" : "");
    }
  if (shown == 0)
    g_print ("No sessions are running.\n");
  return status;
}

typedef struct
{
  PaddockClient   *client;
  GMainLoop       *loop;
  int              status;          /* to leave with, once the loop ends */
  gboolean         finished;        /* the loop ends: nothing more is shown */
  guint            input_source;    /* standard input, where it gives answers */
  guint            quiet_source;    /* at quiet_at */
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

/* Answers the ask @id, noting that it was answered here, and what it
 * asked to be remembered. */
static void
send_decide (Attach          *attach,
             gint64           id,
             PaddockDecision  decision,
             PaddockRemember  remember)
{
  g_hash_table_insert (attach->answered, g_memdup2 (&id, sizeof id), GINT_TO_POINTER (remember));
  /* Where the connection closed meanwhile, "closed" has said so already. */
  paddock_client_decide (attach->client, id, decision, remember, NULL);
}

static void
finish (Attach *attach,
        int     status)
{
  if (attach->finished)
    return;
  attach->finished = TRUE;
  attach->status = status;
  g_main_loop_quit (attach->loop);
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

static gboolean
is_home (const PaddockMessage *ask)
{
  return g_strcmp0 (ask->kind, "home") == 0;
}

/* A read in the home folder the lock refused or asked about: the ask's id
 * where there was one, the process, the decision, what was read (the
 * home folder as ~) and by which program, who decided and why. */
static void
print_home (const PaddockMessage *message)
{
  g_autofree char *time = format_time (message->time > 0 ? message->time : g_get_real_time ());
  g_autofree char *what = paddock_home_display_path (message->path, message->name);
  g_autofree char *program = message->exe != NULL ? g_path_get_basename (message->exe) : NULL;
  g_autofree char *by_program = program != NULL ? g_strdup_printf (" by %s", program) : g_strdup ("");
  g_autofree char *shown_by_program = display (by_program);
  g_autofree char *id = message->id >= 0 ? g_strdup_printf ("#%" G_GINT64_FORMAT, message->id) : g_strdup ("");
  g_autofree char *who = g_strcmp0 (message->by, "no-client") == 0 ? g_strdup ("no one to answer") :
                         g_strcmp0 (message->by, "timeout") == 0 ? g_strdup ("no answer in time") :
                         message->by != NULL ? display (message->by) : NULL;
  g_autofree char *reason = message->reason != NULL ? display (message->reason) : NULL;
  g_autofree char *note = who != NULL && reason != NULL ? g_strdup_printf ("  [%s: %s]", who, reason) :
                          who != NULL || reason != NULL ? g_strdup_printf ("  [%s]", who != NULL ? who : reason) :
                          g_strdup ("");
  const char *decision = message->decision == PADDOCK_DECISION_ALLOW ? "allow" :
                         message->decision == PADDOCK_DECISION_DENY ? "DENY " : "ASK  ";

  g_print ("%s  %-6s %-7d %s  read %s%s%s\n", time, id, message->pid, decision, what, shown_by_program, note);
}

static gboolean
is_host (const PaddockMessage *ask)
{
  return g_strcmp0 (ask->kind, "host") == 0;
}

/* A connection under the network lock: the ask's id where there was one,
 * the process, the decision, the host and port and the program, who
 * decided and why; at its end, the address reached, the bytes each way
 * and how long it lasted. */
static void
print_net (const PaddockMessage *message)
{
  g_autofree char *time = format_time (message->time > 0 ? message->time : g_get_real_time ());
  g_autofree char *host = display (message->host);
  g_autofree char *program = message->exe != NULL ? g_path_get_basename (message->exe) : NULL;
  g_autofree char *by_program = program != NULL ? g_strdup_printf (" by %s", program) : g_strdup ("");
  g_autofree char *shown_by_program = display (by_program);
  g_autofree char *id = message->id >= 0 ? g_strdup_printf ("#%" G_GINT64_FORMAT, message->id) : g_strdup ("");
  g_autofree char *who = g_strcmp0 (message->by, "no-client") == 0 ? g_strdup ("no one to answer") :
                         g_strcmp0 (message->by, "timeout") == 0 ? g_strdup ("no answer in time") :
                         message->by != NULL ? display (message->by) : NULL;
  g_autofree char *reason = message->reason != NULL ? display (message->reason) : NULL;
  g_autofree char *note = who != NULL && reason != NULL ? g_strdup_printf ("  [%s: %s]", who, reason) :
                          who != NULL || reason != NULL ? g_strdup_printf ("  [%s]", who != NULL ? who : reason) :
                          g_strdup ("");
  const char *decision = message->decision == PADDOCK_DECISION_ALLOW ? "allow" :
                         message->decision == PADDOCK_DECISION_DENY ? "DENY " : "ASK  ";

  if (g_strcmp0 (message->kind, "end") == 0)
    {
      g_autofree char *address = message->address != NULL ? display (message->address) : g_strdup ("?");

      g_print ("%s  %-6s %-7d end    %s:%d%s at %s, %" G_GINT64_FORMAT " bytes in, %" G_GINT64_FORMAT
               " bytes out, %.2f s\n", time, id, message->pid, host, message->port, shown_by_program, address,
               MAX (message->bytes_in, 0), MAX (message->bytes_out, 0),
               MAX (message->duration, 0) / (double) G_USEC_PER_SEC);
      return;
    }
  g_print ("%s  %-6s %-7d %s  connect %s:%d%s%s\n", time, id, message->pid, decision, host, message->port,
           shown_by_program, note);
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
      /* A home folder entry is asked about once: never allowed for one read only. */
      send_decide (attach, ask->id, attach->answer,
                   is_home (ask) && attach->answer == PADDOCK_DECISION_ALLOW && attach->remember == PADDOCK_REMEMBER_ONCE ?
                   PADDOCK_REMEMBER_SESSION : attach->remember);
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
      if (is_home (ask))
        {
          g_autofree char *entry = paddock_home_display_path (ask->path != NULL ? ask->path : "", NULL);
          g_autofree char *name = display (ask->name);

          /* A home ask's path is the entry it reads: the command line is the process's alone. */
          g_free (command);
          command = cut_line (paddock_exec_display_line (NULL, ask->exe, NULL, NULL, (const char * const *) ask->argv),
                              QUESTION_SHOWN);
          g_print ("\n  #%" G_GINT64_FORMAT " wants to read %s%s%s%s, for: %s\n", ask->id, entry,
                   ask->name != NULL ? " (" : "", ask->name != NULL ? name : "", ask->name != NULL ? ")" : "", command);
        }
      else if (is_host (ask))
        {
          g_autofree char *host = display (ask->host);

          /* The connection's program and pid, not a command of its own. */
          g_free (command);
          command = cut_line (paddock_exec_display_line (NULL, ask->exe, NULL, NULL, (const char * const *) ask->argv),
                              QUESTION_SHOWN);
          g_print ("\n  #%" G_GINT64_FORMAT " wants to reach %s:%d, for: %s (pid %d)\n", ask->id, host, ask->port,
                   command, ask->pid);
        }
      else if (g_strcmp0 (ask->kind, "secret") == 0)
        {
          g_autofree char *name = display (ask->name);

          /* The program, not the agent, would get the value. */
          g_print ("\n  #%" G_GINT64_FORMAT " wants the secret \"%s\" for: %s\n", ask->id, name, command);
        }
      else
        g_print ("\n  #%" G_GINT64_FORMAT " wants to run: %s\n", ask->id, command);
      /* A link of another name (./g, a link to git): what it leads to
       * matters to the answer, and is what a deny or ask rule went by. */
      if (!is_home (ask) && !is_host (ask) && ask->path != NULL && *ask->path != '\0' && ask->exe != NULL)
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
  if (is_host (ask))
    line = g_strdup_printf ("  Allow connecting #%" G_GINT64_FORMAT "? [y]es once, [a]lways this host in this "
                            "project, [n]o (denied in %" G_GINT64_FORMAT " s) > ", ask->id, seconds);
  else if (is_home (ask))
    line = g_strdup_printf ("  Allow reading #%" G_GINT64_FORMAT "? [y]es or [s] for this session, [a]lways in this "
                            "project, [n]o (denied in %" G_GINT64_FORMAT " s) > ", ask->id, seconds);
  else
    line = g_strdup_printf ("  Allow #%" G_GINT64_FORMAT "? [y]es, [n]o, [a]lways in this project, [s]ession (denied in %"
                          G_GINT64_FORMAT " s) > ", ask->id, seconds);
  columns = terminal_columns ();
  attach->prompt_rows = MAX (1, (strlen (line) + columns - 1) / columns);
  g_print ("%s", line);
  fflush (stdout);
  attach->prompting = TRUE;
}

static gboolean
quiet_reached (gpointer user_data)
{
  Attach *attach = user_data;

  attach->quiet_source = 0;
  attach->remembered = 0;
  attach->quiet_at = 0;
  prompt_next (attach);
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

/* Holds the next question back until @when (monotonic), or, with 0, no
 * longer. */
static void
set_quiet_at (Attach *attach,
              gint64  when)
{
  attach->quiet_at = when;
  g_clear_handle_id (&attach->quiet_source, g_source_remove);
  if (when > 0)
    attach->quiet_source = g_timeout_add ((guint) MAX (0, (when - g_get_monotonic_time () + 999) / 1000),
                                          quiet_reached, attach);
}

static void
answer_current (Attach     *attach,
                const char *text)
{
  PaddockMessage *ask = g_queue_peek_head (&attach->asks);
  PaddockDecision decision = PADDOCK_DECISION_ALLOW;
  PaddockRemember remember = PADDOCK_REMEMBER_ONCE;
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

  /* A home folder entry is asked about once: its yes is for the session. */
  if (is_home (ask) && (strcmp (word, "y") == 0 || strcmp (word, "yes") == 0))
    remember = PADDOCK_REMEMBER_SESSION;
  else if (strcmp (word, "y") == 0 || strcmp (word, "yes") == 0)
    decision = PADDOCK_DECISION_ALLOW;
  else if (strcmp (word, "n") == 0 || strcmp (word, "no") == 0)
    decision = PADDOCK_DECISION_DENY;
  else if (strcmp (word, "a") == 0 || strcmp (word, "always") == 0)
    remember = PADDOCK_REMEMBER_PROJECT;
  else if (strcmp (word, "s") == 0 || strcmp (word, "session") == 0)
    remember = PADDOCK_REMEMBER_SESSION;
  else
    {
      g_print ("  Answer y, n, a or s > ");
      fflush (stdout);
      attach->prompt_rows = 1;
      return;
    }

  send_decide (attach, ask->id, decision, remember);
  if (remember != PADDOCK_REMEMBER_ONCE)
    {
      attach->remembered = ask->id;
      set_quiet_at (attach, g_get_monotonic_time () + SETTLE_WAIT_US);
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
handle_event (Attach               *attach,
              const PaddockMessage *message)
{
  g_autofree char *time = format_time (message->time > 0 ? message->time : g_get_real_time ());

  hide_prompt (attach);
  switch (message->type)
    {
    case PADDOCK_MESSAGE_EXEC:
      if (paddock_message_is_path_retry (attach->last_denial, message))
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
            set_quiet_at (attach, g_get_monotonic_time () + SETTLE_QUIET_US);
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

    case PADDOCK_MESSAGE_NOTICE:
      {
        g_autofree char *text = display (message->message);

        g_print ("%s  the session says: %s\n", time, text);
      }
      break;

    case PADDOCK_MESSAGE_ERROR:
      {
        paddock_printerr ("the session says: %s", message->message);
        /* Perhaps about the answer: nothing to wait for. */
        attach->remembered = 0;
        set_quiet_at (attach, 0);
      }
      break;

    case PADDOCK_MESSAGE_HOME:
      print_home (message);
      break;

    case PADDOCK_MESSAGE_NET:
      print_net (message);
      break;

    case PADDOCK_MESSAGE_SECRET:
      {
        g_autofree char *what = display (message->name);
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

/* The timeline held back until the status came (see on_message()).
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

/* The session closed the connection without ending. A session that
 * ends says so first; one that still runs dropped this client for falling
 * too far behind (a terminal paused with ^S or in a scrollback mode, a
 * pipe not read): said, rather than that it went away, once a new
 * connection shows which. */
static void
probed (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Attach *attach = user_data;
  g_autoptr(PaddockClient) probe = paddock_client_connect_finish (result, NULL);
  g_autofree char *session = display (paddock_client_get_session_id (attach->client));

  if (probe == NULL)
    paddock_printerr ("the session went away");
  else
    {
      paddock_client_close (probe);
      paddock_printerr ("the session %s runs on, but stopped sending to this client, which fell too far behind "
                        "(its terminal paused, or its output not read); the audit log has everything. "
                        "Attach again to follow it from now on.", session);
    }
  finish (attach, 1);
}

static void
on_closed (PaddockClient *client,
           const GError  *error,
           Attach        *attach)
{
  g_autofree char *socket = NULL;

  if (attach->finished)
    return;
  /* Nothing can be answered any more. */
  g_clear_handle_id (&attach->input_source, g_source_remove);
  g_clear_handle_id (&attach->quiet_source, g_source_remove);
  /* Gone before its reply: what it sent still shows. */
  if (!show_held (attach))
    {
      finish (attach, 0);
      return;
    }
  socket = paddock_client_find_socket (paddock_client_get_session_id (client), NULL);
  if (socket == NULL)
    {
      paddock_printerr ("the session went away");
      finish (attach, 1);
      return;
    }
  paddock_client_connect_async (socket, 0, NULL, probed, attach);
}

static void
on_message (PaddockClient        *client,
            const PaddockMessage *message,
            Attach               *attach)
{
  gboolean go_on;

  if (attach->finished)
    return;
  /* The session replays its timeline before it replies to the status
   * request: the status goes under the session's line, and the replay
   * under it, as it does when only watching. */
  if (attach->registering && message->type != PADDOCK_MESSAGE_LOCK_STATUS)
    {
      g_queue_push_tail (&attach->held, paddock_message_copy (message));
      return;
    }
  go_on = handle_event (attach, message);
  if (attach->registering)
    {
      attach->registering = FALSE;
      go_on = go_on && show_held (attach);
    }
  if (!go_on)
    finish (attach, 0);
}

static void
on_bad_message (PaddockClient *client,
                const GError  *error,
                Attach        *attach)
{
  if (attach->finished)
    return;
  hide_prompt (attach);
  paddock_printerr ("%s", error->message);
  prompt_next (attach);
  fflush (stdout);
}

static gboolean
on_input (int           fd,
          GIOCondition  condition,
          gpointer      user_data)
{
  Attach *attach = user_data;
  char buffer[4096];
  ssize_t n = read (fd, buffer, sizeof buffer);
  const char *line;
  gsize length;

  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      PaddockMessage *ask = g_queue_peek_head (&attach->asks);

      /* Ctrl-D, or the end of piped answers: nothing more can be
       * answered here, so this client goes, and the asks with it:
       * to another client, or, with none, decided as without one. */
      hide_prompt (attach);
      if (ask != NULL)
        g_printerr ("paddockctl: no more input; detached. #%" G_GINT64_FORMAT
                    " still waits for an answer from another client, else it is denied in %"
                    G_GINT64_FORMAT " s\n", ask->id,
                    MAX (0, (ask->deadline - g_get_real_time ()) / G_USEC_PER_SEC));
      else
        paddock_printerr ("no more input; detached");
      attach->input_source = 0;
      finish (attach, 0);
      return G_SOURCE_REMOVE;
    }
  paddock_line_reader_feed (attach->input, buffer, n);
  while (!attach->finished && paddock_line_reader_next (attach->input, &line, &length) == PADDOCK_LINE_OK)
    {
      g_autofree char *text = g_strndup (line, length);

      answer_current (attach, text);
    }
  return G_SOURCE_CONTINUE;
}

int
paddockctl_builtin_attach (int    argc,
                           char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("SESSION");
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *remember = NULL;
  gboolean verbose = FALSE;
  gboolean watch = FALSE;
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *command = NULL;
  g_autofree char *project = NULL;
  g_autofree char *session = NULL;
  const PaddockMessage *hello;
  Attach attach = { 0 };
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

  client = connect_session (argv[1], &error);
  if (client == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  hello = paddock_client_get_hello (client);
  loop = g_main_loop_new (NULL, FALSE);
  attach.client = client;
  attach.loop = loop;
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

  command = paddock_escape_argv_for_display ((const char * const *) hello->command);
  project = display (hello->project);
  session = display (hello->session);
  g_print ("Session %s: %s%s (agent pid %d) in %s\n", session, command,
           hello->truncated ? " …(truncated)" : "", hello->agent_pid, project);

  g_signal_connect (client, "message", G_CALLBACK (on_message), &attach);
  g_signal_connect (client, "bad-message", G_CALLBACK (on_bad_message), &attach);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &attach);
  if (attach.can_prompt)
    attach.input_source = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, &attach);
  /* Asking for the status also tells the supervisor that someone here
   * answers asks; one who only watches never sends a request. */
  if (attach.can_prompt || attach.answer != PADDOCK_DECISION_NONE)
    {
      g_autoptr(PaddockMessage) status = paddock_message_new (PADDOCK_MESSAGE_LOCK_STATUS);

      paddock_client_send (client, status, NULL);
      attach.registering = TRUE;
    }
  else
    print_status (hello);
  fflush (stdout);

  g_main_loop_run (loop);

  g_signal_handlers_disconnect_by_data (client, &attach);
  paddock_client_close (client);
  g_clear_handle_id (&attach.input_source, g_source_remove);
  g_clear_handle_id (&attach.quiet_source, g_source_remove);
  g_queue_clear_full (&attach.asks, (GDestroyNotify) paddock_message_free);
  g_queue_clear_full (&attach.held, (GDestroyNotify) paddock_message_free);
  g_clear_pointer (&attach.last_denial, paddock_message_free);
  g_clear_pointer (&attach.answered, g_hash_table_unref);
  paddock_line_reader_free (attach.input);
  return attach.status;
}
