/* test-ask-registry.c: the session's one ask registry on its own
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The registry (paddock-asks.h) in this process: its ids, which an exec
 * monitor's events share, deadlines, --on-ask with and without a client
 * that answers, withdrawing, decides for asks that are not there, the
 * pending asks a client attaching late is sent, and an ask of kind
 * "home" whose answer is remembered for the project. Clients are the
 * control server's, on a socket pair, as the window's is.
 */
#include "config.h"

#include "paddock-asks.h"
#include "paddock-autofd.h"
#include "paddock-control.h"
#include "paddock-exec-monitor.h"

#include <errno.h>
#include <gio/gio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a wait for an event may take before the test fails: the
 * events come in milliseconds, this is for a machine under load. */
#define WAIT_SECONDS 30

/* What the registry's callback was told. */
typedef struct
{
  guint            calls;
  gint64           id;
  PaddockDecision  decision;
  PaddockRemember  remember;
  char            *by;
  int              client_pid;
  guint            destroyed;
  /* Said back from the callback, where set (paddock_asks_tell_decided()). */
  PaddockAsks     *tell;
  PaddockRemember  tell_remember;
  const char      *tell_rule;
} Answer;

static void
answer_clear (Answer *answer)
{
  g_clear_pointer (&answer->by, g_free);
}

static void
on_answered (gint64           id,
             PaddockDecision  decision,
             PaddockRemember  remember,
             const char      *by,
             int              client_pid,
             gpointer         user_data)
{
  Answer *answer = user_data;

  answer->calls++;
  answer->id = id;
  answer->decision = decision;
  answer->remember = remember;
  g_free (answer->by);
  answer->by = g_strdup (by);
  answer->client_pid = client_pid;
  if (answer->tell != NULL)
    paddock_asks_tell_decided (answer->tell, id, answer->tell_remember, answer->tell_rule);
}

static void
on_destroyed (gpointer user_data)
{
  ((Answer *) user_data)->destroyed++;
}

/* The messages the registry sent, when it has no control server. */
static void
collect (PaddockMessage *message,
         gpointer        user_data)
{
  g_ptr_array_add (user_data, message);
}

static GPtrArray *
messages_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
}

/* An ask of kind "home", as the home view makes one: its parent and
 * its count of arguments left to the registry. */
static PaddockMessage *
home_ask (const char *path)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_ASK);

  message->kind = g_strdup ("home");
  message->path = g_strdup (path);
  message->name = g_strdup ("settings.xml");
  message->pid = getpid ();
  message->exe = g_strdup ("/usr/bin/cat");
  message->argv = g_strdupv ((char *[]) { "cat", "settings.xml", NULL });
  message->cwd = g_strdup ("/");
  return message;
}

static gboolean
on_too_long (gpointer user_data)
{
  g_error ("waited %d s for %s", WAIT_SECONDS, (const char *) user_data);
  return G_SOURCE_REMOVE;
}

/* Runs the main context until *@flag is set (by a callback of the code
 * under test), failing the test where it never is. */
static void
run_until (const guint *flag,
           const char  *what)
{
  guint guard = g_timeout_add_seconds (WAIT_SECONDS, on_too_long, (gpointer) what);

  while (*flag == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
}

/* A client of the control server on an inherited socket pair: the
 * server's end is given to it, the test reads and writes this one. */
typedef struct
{
  int      fd;
  GString *input;
} Client;

static Client *
client_attach (PaddockControl *control,
               gboolean        answers)
{
  Client *client = g_new0 (Client, 1);
  g_autoptr(GError) error = NULL;
  int fds[2];

  g_assert_no_errno (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds));
  g_assert_true (paddock_control_add_client_fd (control, fds[0], answers, &error));
  g_assert_no_error (error);
  client->fd = fds[1];
  client->input = g_string_new (NULL);
  return client;
}

static void
client_free (Client *client)
{
  paddock_close_fd (&client->fd);
  g_string_free (client->input, TRUE);
  g_free (client);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Client, client_free)

/* The next message the server sent the client; NULL where none is
 * there (the server writes as it goes: what it sent is there). */
static PaddockMessage *
client_try_next (Client *client)
{
  for (;;)
    {
      char *newline = memchr (client->input->str, '\n', client->input->len);
      char buffer[65536];
      ssize_t n;

      if (newline != NULL)
        {
          g_autoptr(GError) error = NULL;
          gsize length = newline - client->input->str;
          PaddockMessage *message = paddock_message_parse (client->input->str, length, &error);

          g_assert_no_error (error);
          g_string_erase (client->input, 0, length + 1);
          return message;
        }
      n = recv (client->fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return NULL;
      g_string_append_len (client->input, buffer, n);
    }
}

static PaddockMessage *
client_next (Client *client)
{
  PaddockMessage *message = client_try_next (client);

  g_assert_nonnull (message);
  return message;
}

/* Skips the hello and the backlog: the next message of @type. */
static PaddockMessage *
client_expect (Client             *client,
               PaddockMessageType  type)
{
  for (;;)
    {
      PaddockMessage *message = client_next (client);

      if (message->type == type)
        return message;
      g_assert_true (message->type == PADDOCK_MESSAGE_HELLO || message->type == PADDOCK_MESSAGE_DECIDED);
      paddock_message_free (message);
    }
}

static void
client_send (Client     *client,
             const char *line)
{
  gsize length = strlen (line);

  g_assert_cmpint (send (client->fd, line, length, MSG_NOSIGNAL), ==, (gssize) length);
}

static void
client_decide (Client     *client,
               gint64      id,
               const char *decision,
               const char *remember)
{
  g_autofree char *line = g_strdup_printf ("{\"type\":\"decide\",\"id\":%" G_GINT64_FORMAT ",\"decision\":\"%s\""
                                           "%s%s%s}\n", id, decision,
                                           remember != NULL ? ",\"remember\":\"" : "",
                                           remember != NULL ? remember : "", remember != NULL ? "\"" : "");

  client_send (client, line);
}

/* A control server with the registry, as paddock-run sets them up. */
typedef struct
{
  PaddockControl *control;
  PaddockAsks    *asks;
} Session;

static Session *
session_new (int          ask_timeout,
             PaddockOnAsk on_ask)
{
  Session *s = g_new0 (Session, 1);
  const char *command[] = { "agent", NULL };
  PaddockControlSession session = {
    .session_id = "0123456789ab",
    .project = "/nonexistent/project",
    .command = command,
    .agent_pid = 1,
    .tree_root = getpid (),
    .lock = "off",
    .network = "off",
  };

  s->control = paddock_control_new (&session, NULL);
  s->asks = paddock_asks_new (ask_timeout, on_ask, NULL, paddock_control_monitor_func, s->control);
  paddock_control_set_asks (s->control, s->asks);
  return s;
}

static void
session_free (Session *s)
{
  paddock_control_set_asks (s->control, NULL);
  paddock_asks_free (s->asks);
  paddock_control_free (s->control);
  g_free (s);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

/* The exec monitor's events and the registry's asks are numbered from
 * one sequence: an exec between two asks takes the number between. */
static void
test_ids_shared_with_exec_seq (void)
{
  g_autoptr(GPtrArray) messages = messages_new ();
  g_autoptr(PaddockAsks) asks = paddock_asks_new (60, PADDOCK_ON_ASK_ALLOW, NULL, collect, messages);
  g_autoptr(PaddockPolicy) policy = paddock_policy_new_default ();
  g_autoptr(PaddockExecMonitor) monitor = NULL;
  g_autoptr(GError) error = NULL;
  PaddockExecFilter filter;
  PaddockExecMonitorConfig config = { .policy = policy, .asks = asks };
  PaddockMessage *exec = NULL;
  Answer answer = { 0 };
  guint flags = 0;
  int sockets[2];
  int notify_fd;
  int status;
  gint64 first, home;
  pid_t child;

  first = paddock_asks_next_id (asks);
  g_assert_cmpint (first, ==, 1);

  g_assert_true (paddock_exec_filter_init (&filter, &error));
  g_assert_no_error (error);
  g_assert_no_errno (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets));
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      /* Async-signal-safe from here: the filter, then the exec it hands over. */
      if (paddock_exec_filter_install (&filter, sockets[1]) != 0)
        _exit (120);
      execl ("/bin/true", "true", (char *) NULL);
      _exit (121);
    }
  close (sockets[1]);
  notify_fd = paddock_exec_filter_receive (sockets[0], &flags, &error);
  g_assert_no_error (error);
  g_assert_cmpint (notify_fd, >=, 0);
  close (sockets[0]);
  paddock_exec_filter_clear (&filter);

  monitor = paddock_exec_monitor_new (notify_fd, flags, &config, NULL, collect, messages);
  g_assert_true (paddock_exec_monitor_start (monitor, &error));
  g_assert_no_error (error);

  /* The child's exec, held until the thread answers it. */
  {
    guint guard = g_timeout_add_seconds (WAIT_SECONDS, on_too_long, (gpointer) "the exec's message");

    while (exec == NULL)
      {
        g_main_context_iteration (NULL, TRUE);
        for (guint i = 0; i < messages->len && exec == NULL; i++)
          if (((PaddockMessage *) g_ptr_array_index (messages, i))->type == PADDOCK_MESSAGE_EXEC)
            exec = g_ptr_array_index (messages, i);
      }
    g_source_remove (guard);
  }
  g_assert_true (g_str_has_suffix (exec->exe, "/true"));
  g_assert_cmpint (exec->seq, ==, first + 1);

  /* Nobody to answer, and --on-ask=allow: let through at once, as the
   * exec would have been. */
  home = paddock_asks_add (asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
  g_assert_cmpint (home, ==, exec->seq + 1);
  g_assert_cmpint (paddock_exec_monitor_get_n_events (monitor), ==, home);
  g_assert_cmpuint (answer.calls, ==, 1);
  g_assert_cmpint (answer.id, ==, home);
  g_assert_cmpstr (answer.by, ==, "no-client");

  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  paddock_exec_monitor_stop (monitor);
  answer_clear (&answer);
}

/* An ask nobody answers is refused at its deadline, not before, and the
 * clients are told it was the deadline. */
static void
test_deadline (void)
{
  g_autoptr(Session) s = session_new (1, PADDOCK_ON_ASK_DENY);
  g_autoptr(Client) client = client_attach (s->control, TRUE);
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  Answer answer = { 0 };
  gint64 id;
  gint64 added = g_get_monotonic_time ();

  id = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
  g_assert_cmpuint (answer.calls, ==, 0);
  ask = client_expect (client, PADDOCK_MESSAGE_ASK);
  g_assert_cmpint (ask->id, ==, id);
  g_assert_cmpint (ask->deadline - ask->time, ==, G_USEC_PER_SEC);
  g_assert_cmpint (ask->argc, ==, 2);

  run_until (&answer.calls, "the deadline");
  g_assert_cmpint (g_get_monotonic_time () - added, >=, G_USEC_PER_SEC);
  g_assert_cmpuint (answer.calls, ==, 1);
  g_assert_cmpuint (answer.destroyed, ==, 1);
  g_assert_cmpint (answer.id, ==, id);
  g_assert_cmpint (answer.decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (answer.by, ==, "timeout");
  g_assert_cmpint (answer.client_pid, ==, -1);
  decided = client_expect (client, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, id);
  g_assert_cmpstr (decided->by, ==, "timeout");
  g_assert_cmpstr (decided->kind, ==, "home");
  pending = paddock_asks_dup_pending (s->asks);
  g_assert_cmpuint (pending->len, ==, 0);
  answer_clear (&answer);
}

/* A deadline the ask came with holds: one already past refuses it on
 * the next round of the main context. */
static void
test_deadline_given (void)
{
  g_autoptr(GPtrArray) messages = messages_new ();
  g_autoptr(PaddockAsks) asks = paddock_asks_new (3600, PADDOCK_ON_ASK_WAIT, NULL, collect, messages);
  PaddockMessage *message = home_ask ("/home/me/.m2");
  Answer answer = { 0 };

  message->time = g_get_real_time () - 2 * G_USEC_PER_SEC;
  message->mono = g_get_monotonic_time () - 2 * G_USEC_PER_SEC;
  message->deadline = message->time + G_USEC_PER_SEC;
  paddock_asks_add (asks, message, on_answered, &answer, NULL);
  g_assert_cmpuint (answer.calls, ==, 0);
  run_until (&answer.calls, "a deadline past");
  g_assert_cmpstr (answer.by, ==, "timeout");
  answer_clear (&answer);
}

/* --on-ask with no client that answers: allow and deny decide at once,
 * the ask never announced (its decided message is sent); wait holds it. */
static void
test_on_ask_unattended (void)
{
  const struct
  {
    PaddockOnAsk    on_ask;
    PaddockDecision decision;
  } cases[] = {
    { PADDOCK_ON_ASK_DENY, PADDOCK_DECISION_DENY },
    { PADDOCK_ON_ASK_ALLOW, PADDOCK_DECISION_ALLOW },
    { PADDOCK_ON_ASK_WAIT, PADDOCK_DECISION_ASK },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) messages = messages_new ();
      g_autoptr(PaddockAsks) asks = paddock_asks_new (60, cases[i].on_ask, NULL, collect, messages);
      Answer answer = { 0 };
      gint64 id;

      g_assert_cmpint (paddock_asks_unattended (asks), ==, cases[i].decision);
      id = paddock_asks_add (asks, home_ask ("/home/me/Documents"), on_answered, &answer, on_destroyed);
      if (cases[i].decision == PADDOCK_DECISION_ASK)
        {
          g_autoptr(GPtrArray) pending = paddock_asks_dup_pending (asks);

          g_assert_cmpuint (answer.calls, ==, 0);
          g_assert_cmpuint (messages->len, ==, 1);
          g_assert_cmpint (((PaddockMessage *) g_ptr_array_index (messages, 0))->type, ==, PADDOCK_MESSAGE_ASK);
          g_assert_cmpuint (pending->len, ==, 1);
          g_assert_true (paddock_asks_withdraw (asks, id, "session-end"));
        }
      else
        {
          PaddockMessage *decided;

          g_assert_cmpuint (answer.calls, ==, 1);
          g_assert_cmpuint (answer.destroyed, ==, 1);
          g_assert_cmpint (answer.decision, ==, cases[i].decision);
          g_assert_cmpstr (answer.by, ==, "no-client");
          g_assert_cmpuint (messages->len, ==, 1);
          decided = g_ptr_array_index (messages, 0);
          g_assert_cmpint (decided->type, ==, PADDOCK_MESSAGE_DECIDED);
          g_assert_cmpint (decided->id, ==, id);
          g_assert_cmpstr (decided->by, ==, "no-client");
          g_assert_cmpstr (decided->kind, ==, "home");
        }
      answer_clear (&answer);
    }
}

/* With a client that answers attached, every --on-ask holds the ask for
 * it; once it leaves, allow and deny decide the next ask at once again. */
static void
test_on_ask_attended (void)
{
  const PaddockOnAsk modes[] = { PADDOCK_ON_ASK_DENY, PADDOCK_ON_ASK_ALLOW, PADDOCK_ON_ASK_WAIT };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(Session) s = session_new (60, modes[i]);
      g_autoptr(Client) watcher = client_attach (s->control, FALSE);
      g_autoptr(Client) client = NULL;
      g_autoptr(PaddockMessage) ask = NULL;
      g_autoptr(PaddockMessage) decided = NULL;
      Answer answer = { 0 };
      Answer after = { 0 };
      gint64 id;

      /* One that only watches does not answer. */
      g_assert_cmpint (paddock_asks_unattended (s->asks), ==,
                       modes[i] == PADDOCK_ON_ASK_WAIT ? PADDOCK_DECISION_ASK :
                       modes[i] == PADDOCK_ON_ASK_ALLOW ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY);
      client = client_attach (s->control, TRUE);
      g_assert_cmpint (paddock_asks_unattended (s->asks), ==, PADDOCK_DECISION_ASK);

      id = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
      g_assert_cmpuint (answer.calls, ==, 0);
      ask = client_expect (client, PADDOCK_MESSAGE_ASK);
      g_assert_cmpint (ask->id, ==, id);
      g_assert_cmpstr (ask->kind, ==, "home");
      g_assert_cmpstr (ask->path, ==, "/home/me/.m2");
      g_clear_pointer (&ask, paddock_message_free);
      ask = client_expect (watcher, PADDOCK_MESSAGE_ASK);
      g_assert_cmpint (ask->id, ==, id);

      client_decide (client, id, "deny", NULL);
      run_until (&answer.calls, "a client's answer");
      g_assert_cmpint (answer.decision, ==, PADDOCK_DECISION_DENY);
      g_assert_cmpstr (answer.by, ==, "user");
      g_assert_cmpint (answer.remember, ==, PADDOCK_REMEMBER_ONCE);
      decided = client_expect (watcher, PADDOCK_MESSAGE_DECIDED);
      g_assert_cmpint (decided->id, ==, id);
      g_assert_cmpstr (decided->by, ==, "user");

      /* Gone, the client answers no more. */
      g_clear_pointer (&client, client_free);
      while (paddock_asks_unattended (s->asks) == PADDOCK_DECISION_ASK && modes[i] != PADDOCK_ON_ASK_WAIT)
        g_main_context_iteration (NULL, TRUE);
      paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &after, NULL);
      g_assert_cmpuint (after.calls, ==, modes[i] == PADDOCK_ON_ASK_WAIT ? 0 : 1);
      if (modes[i] == PADDOCK_ON_ASK_WAIT)
        g_assert_true (paddock_asks_withdraw (s->asks, paddock_asks_get_n_ids (s->asks), "session-end"));
      else
        g_assert_cmpstr (after.by, ==, "no-client");
      answer_clear (&answer);
      answer_clear (&after);
    }
}

/* A withdrawn ask ends denied by the caller's reason, once: neither a
 * second withdraw nor a client's decide finds it. */
static void
test_withdraw (void)
{
  g_autoptr(Session) s = session_new (60, PADDOCK_ON_ASK_DENY);
  g_autoptr(Client) client = client_attach (s->control, TRUE);
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autoptr(GError) local_error = NULL;
  Answer answer = { 0 };
  gint64 id;

  id = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
  g_assert_true (paddock_asks_withdraw (s->asks, id, "gone"));
  g_assert_cmpuint (answer.calls, ==, 1);
  g_assert_cmpuint (answer.destroyed, ==, 1);
  g_assert_cmpint (answer.decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (answer.by, ==, "gone");
  g_assert_cmpint (answer.client_pid, ==, -1);
  ask = client_expect (client, PADDOCK_MESSAGE_ASK);
  g_assert_cmpint (ask->id, ==, id);
  decided = client_expect (client, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, id);
  g_assert_cmpstr (decided->by, ==, "gone");
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_DENY);

  g_assert_false (paddock_asks_withdraw (s->asks, id, "gone"));
  g_assert_false (paddock_asks_decide (s->asks, id, PADDOCK_DECISION_ALLOW, PADDOCK_REMEMBER_ONCE, "user", -1,
                                       &local_error));
  g_assert_error (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpuint (answer.calls, ==, 1);
  g_assert_null (client_try_next (client));
  answer_clear (&answer);
}

/* A decide for an id no ask has, or that is neither allow nor deny, is
 * an error, to the client that sent it; the ask pending stays. */
static void
test_decide_unknown (void)
{
  g_autoptr(Session) s = session_new (60, PADDOCK_ON_ASK_DENY);
  g_autoptr(Client) client = client_attach (s->control, TRUE);
  g_autoptr(PaddockMessage) error = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  Answer answer = { 0 };
  gint64 id;

  id = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
  g_assert_false (paddock_asks_decide (s->asks, id + 100, PADDOCK_DECISION_ALLOW, PADDOCK_REMEMBER_ONCE, "user",
                                       -1, &local_error));
  g_assert_error (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&local_error);
  g_assert_false (paddock_asks_decide (s->asks, id, PADDOCK_DECISION_ASK, PADDOCK_REMEMBER_ONCE, "user", -1,
                                       &local_error));
  g_assert_error (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  client_decide (client, id + 100, "allow", NULL);
  {
    guint guard = g_timeout_add_seconds (WAIT_SECONDS, on_too_long, (gpointer) "the error reply");

    while (error == NULL)
      {
        g_main_context_iteration (NULL, TRUE);
        while (error == NULL)
          {
            PaddockMessage *message = client_try_next (client);

            if (message == NULL)
              break;
            if (message->type == PADDOCK_MESSAGE_ERROR)
              error = message;
            else
              paddock_message_free (message);
          }
      }
    g_source_remove (guard);
  }
  g_assert_nonnull (strstr (error->message, "no ask"));
  g_assert_cmpuint (answer.calls, ==, 0);
  pending = paddock_asks_dup_pending (s->asks);
  g_assert_cmpuint (pending->len, ==, 1);
  g_assert_true (paddock_asks_withdraw (s->asks, id, "session-end"));
  answer_clear (&answer);
}

/* A client that attaches while asks wait is sent them, oldest first,
 * whatever their kind; those decided meanwhile are not sent again. */
static void
test_pending_to_late_client (void)
{
  g_autoptr(Session) s = session_new (60, PADDOCK_ON_ASK_WAIT);
  g_autoptr(Client) early = NULL;
  g_autoptr(Client) late = NULL;
  g_autoptr(PaddockMessage) first = NULL;
  g_autoptr(PaddockMessage) second = NULL;
  g_autoptr(PaddockMessage) third = NULL;
  PaddockMessage *secret = paddock_message_new (PADDOCK_MESSAGE_ASK);
  Answer answers[3] = { { 0 } };
  gint64 ids[3];

  secret->kind = g_strdup ("secret");
  secret->name = g_strdup ("gh");
  secret->pid = getpid ();
  secret->argv = g_strdupv ((char *[]) { "gh", "auth", NULL });
  ids[0] = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answers[0], on_destroyed);
  ids[1] = paddock_asks_add (s->asks, secret, on_answered, &answers[1], on_destroyed);
  ids[2] = paddock_asks_add (s->asks, home_ask ("/home/me/.gradle"), on_answered, &answers[2], on_destroyed);
  g_assert_cmpint (ids[0], <, ids[1]);
  g_assert_cmpint (ids[1], <, ids[2]);

  early = client_attach (s->control, FALSE);
  first = client_expect (early, PADDOCK_MESSAGE_ASK);
  second = client_expect (early, PADDOCK_MESSAGE_ASK);
  third = client_expect (early, PADDOCK_MESSAGE_ASK);
  g_assert_cmpint (first->id, ==, ids[0]);
  g_assert_cmpstr (first->path, ==, "/home/me/.m2");
  g_assert_cmpint (second->id, ==, ids[1]);
  g_assert_cmpstr (second->kind, ==, "secret");
  g_assert_cmpint (third->id, ==, ids[2]);
  g_assert_null (client_try_next (early));

  client_decide (early, ids[1], "allow", NULL);
  run_until (&answers[1].calls, "the secret's answer");
  g_assert_cmpint (answers[1].decision, ==, PADDOCK_DECISION_ALLOW);

  late = client_attach (s->control, FALSE);
  g_clear_pointer (&first, paddock_message_free);
  g_clear_pointer (&second, paddock_message_free);
  first = client_expect (late, PADDOCK_MESSAGE_ASK);
  second = client_expect (late, PADDOCK_MESSAGE_ASK);
  g_assert_cmpint (first->id, ==, ids[0]);
  g_assert_cmpint (second->id, ==, ids[2]);
  g_assert_null (client_try_next (late));

  g_assert_true (paddock_asks_withdraw (s->asks, ids[0], "session-end"));
  g_assert_true (paddock_asks_withdraw (s->asks, ids[2], "session-end"));
  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      g_assert_cmpuint (answers[i].calls, ==, 1);
      g_assert_cmpuint (answers[i].destroyed, ==, 1);
      answer_clear (&answers[i]);
    }
}

/* The home view's ask: allowed for the project by a client, the answer
 * reaches its callback with the scope (which the home view keeps), and
 * the decided message says its kind. */
static void
test_home_remember_project (void)
{
  g_autoptr(Session) s = session_new (60, PADDOCK_ON_ASK_DENY);
  g_autoptr(Client) client = client_attach (s->control, TRUE);
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  Answer answer = { 0 };
  gint64 id;

  id = paddock_asks_add (s->asks, home_ask ("/home/me/.m2"), on_answered, &answer, on_destroyed);
  ask = client_expect (client, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->kind, ==, "home");
  g_assert_cmpstr (ask->path, ==, "/home/me/.m2");
  g_assert_cmpstr (ask->name, ==, "settings.xml");
  g_assert_cmpstr (ask->exe, ==, "/usr/bin/cat");
  g_assert_cmpstr (ask->cwd, ==, "/");
  g_assert_cmpint (ask->pid, ==, getpid ());
  /* Left out by the home view, filled in from the process. */
  g_assert_cmpint (ask->ppid, ==, getppid ());
  g_assert_cmpint (ask->argc, ==, 2);

  client_decide (client, id, "allow", "project");
  run_until (&answer.calls, "the answer for the project");
  g_assert_cmpint (answer.id, ==, id);
  g_assert_cmpint (answer.decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpint (answer.remember, ==, PADDOCK_REMEMBER_PROJECT);
  g_assert_cmpstr (answer.by, ==, "user");
  g_assert_cmpuint (answer.destroyed, ==, 1);
  decided = client_expect (client, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, id);
  g_assert_cmpstr (decided->kind, ==, "home");
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_PROJECT);
  answer_clear (&answer);
}

/* A caller that could keep less than was asked says so from its
 * callback: the decided message carries that, and the rule; once. */
static void
test_tell_decided (void)
{
  g_autoptr(GPtrArray) messages = messages_new ();
  g_autoptr(PaddockAsks) asks = paddock_asks_new (60, PADDOCK_ON_ASK_WAIT, NULL, collect, messages);
  Answer answer = { .tell = asks, .tell_remember = PADDOCK_REMEMBER_SESSION, .tell_rule = "mine" };
  PaddockMessage *exec = home_ask ("/home/me/.m2");
  PaddockMessage *decided;
  g_autoptr(GError) error = NULL;
  gint64 id;

  /* An exec's ask has no kind, and its decided message none either. */
  g_clear_pointer (&exec->kind, g_free);
  id = paddock_asks_add (asks, exec, on_answered, &answer, NULL);
  g_assert_true (paddock_asks_decide (asks, id, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_PROJECT, "user", 4242,
                                      &error));
  g_assert_no_error (error);
  g_assert_cmpint (answer.remember, ==, PADDOCK_REMEMBER_PROJECT);
  g_assert_cmpint (answer.client_pid, ==, 4242);
  g_assert_cmpuint (messages->len, ==, 2);
  decided = g_ptr_array_index (messages, 1);
  g_assert_cmpint (decided->type, ==, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->remember, ==, PADDOCK_REMEMBER_SESSION);
  g_assert_cmpstr (decided->rule, ==, "mine");
  g_assert_cmpint (decided->client_pid, ==, 4242);
  g_assert_null (decided->kind);
  answer_clear (&answer);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* A client that went away must not end the test with SIGPIPE. */
  signal (SIGPIPE, SIG_IGN);

  g_test_add_func ("/paddock/ask-registry/ids-shared-with-exec-seq", test_ids_shared_with_exec_seq);
  g_test_add_func ("/paddock/ask-registry/deadline", test_deadline);
  g_test_add_func ("/paddock/ask-registry/deadline-given", test_deadline_given);
  g_test_add_func ("/paddock/ask-registry/on-ask-unattended", test_on_ask_unattended);
  g_test_add_func ("/paddock/ask-registry/on-ask-attended", test_on_ask_attended);
  g_test_add_func ("/paddock/ask-registry/withdraw", test_withdraw);
  g_test_add_func ("/paddock/ask-registry/decide-unknown", test_decide_unknown);
  g_test_add_func ("/paddock/ask-registry/pending-to-late-client", test_pending_to_late_client);
  g_test_add_func ("/paddock/ask-registry/home-remember-project", test_home_remember_project);
  g_test_add_func ("/paddock/ask-registry/tell-decided", test_tell_decided);
  return g_test_run ();
}
