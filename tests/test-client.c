/* test-client.c: PaddockClient against a real paddock-run, and against peers that misbehave
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-client.h"
#include "paddock-control-socket.h"
#include "test-util.h"

#include <glib/gstdio.h>

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a client told, in order. */
typedef struct
{
  GPtrArray *messages;     /* PaddockMessage*, from "message" */
  GPtrArray *typed;        /* char*, "TYPE" for each typed signal, in order */
  GPtrArray *bad;          /* char*, bad-message errors */
  gboolean   closed;
  GError    *closed_error;
} Seen;

static void
seen_clear (Seen *seen)
{
  g_clear_pointer (&seen->messages, g_ptr_array_unref);
  g_clear_pointer (&seen->typed, g_ptr_array_unref);
  g_clear_pointer (&seen->bad, g_ptr_array_unref);
  g_clear_error (&seen->closed_error);
  seen->closed = FALSE;
}

static void
on_message (PaddockClient        *client,
            const PaddockMessage *message,
            Seen                 *seen)
{
  g_ptr_array_add (seen->messages, paddock_message_copy (message));
}

static void
on_typed (PaddockClient        *client,
          const PaddockMessage *message,
          Seen                 *seen)
{
  g_ptr_array_add (seen->typed, g_strdup (paddock_message_type_to_string (message->type)));
}

static void
on_bad (PaddockClient *client,
        const GError  *error,
        Seen          *seen)
{
  g_ptr_array_add (seen->bad, g_strdup (error->message));
}

static void
on_closed (PaddockClient *client,
           const GError  *error,
           Seen          *seen)
{
  g_assert_false (seen->closed);
  seen->closed = TRUE;
  seen->closed_error = error != NULL ? g_error_copy (error) : NULL;
}

static void
watch (PaddockClient *client,
       Seen          *seen)
{
  const char *typed[] = { "hello", "exec", "ask", "decided", "exit", "lock-status", "kill",
                          "pause", "resume", "refused" };

  seen->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  seen->typed = g_ptr_array_new_with_free_func (g_free);
  seen->bad = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (client, "message", G_CALLBACK (on_message), seen);
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    g_signal_connect (client, typed[i], G_CALLBACK (on_typed), seen);
  g_signal_connect (client, "bad-message", G_CALLBACK (on_bad), seen);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), seen);
}

/* The first message of @type seen from index *@from on, waiting for it;
 * *@from moves past it. */
static const PaddockMessage *
wait_for_type (Seen               *seen,
               PaddockMessageType  type,
               guint              *from)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  for (;;)
    {
      for (; *from < seen->messages->len; (*from)++)
        {
          const PaddockMessage *message = g_ptr_array_index (seen->messages, *from);

          if (message->type == type)
            {
              (*from)++;
              return message;
            }
        }
      if (seen->closed)
        {
          for (guint i = 0; i < seen->messages->len; i++)
            {
              g_autofree char *line = paddock_message_to_line (g_ptr_array_index (seen->messages, i));
              g_test_message ("seen: %s", line);
            }
          g_error ("closed before a %s came: %s", paddock_message_type_to_string (type),
                   seen->closed_error != NULL ? seen->closed_error->message : "the session ended");
        }
      if (g_get_monotonic_time () > deadline)
        g_error ("no %s within a minute", paddock_message_type_to_string (type));
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
wait_until_closed (Seen *seen)
{
  while (!seen->closed)
    g_main_context_iteration (NULL, TRUE);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* A paddock-run session of the fake agent, its policy asking before
 * `touch asked-marker`. */
typedef struct
{
  char        *dir;
  char        *out;
  GSubprocess *run;
} Session;

static void
session_free (Session *session)
{
  if (session->run != NULL && g_subprocess_get_identifier (session->run) != NULL)
    {
      g_subprocess_force_exit (session->run);
      g_subprocess_wait (session->run, NULL, NULL);
    }
  g_clear_object (&session->run);
  test_remove_tree (session->dir);
  g_free (session->dir);
  g_free (session->out);
  g_free (session);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Seen, seen_clear)

/* With @control_fd >= 0, it is given as --control-fd (and taken), or as
 * --watch-fd where @options start with "--watch-fd"; @options go before
 * the command. */
static Session *
session_start_with (const char         *scenario,
                    int                 control_fd,
                    const char * const *options)
{
  Session *session = g_new0 (Session, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *policy = NULL;
  g_autofree char *audit = NULL;
  g_autofree char *agent = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-agent.sh", NULL);

  session->dir = g_dir_make_tmp ("paddock-client-XXXXXX", &error);
  g_assert_no_error (error);
  session->out = g_build_filename (session->dir, "out", NULL);
  policy = g_build_filename (session->dir, "policy.json", NULL);
  audit = g_build_filename (session->dir, "audit.jsonl", NULL);
  g_assert_cmpint (g_mkdir (session->out, 0700), ==, 0);
  g_file_set_contents (policy,
                       "{\"rules\":[{\"name\":\"test-ask\",\"match\":{\"program\":\"touch\",\"argv\":\"asked-marker\"},"
                       "\"action\":\"ask\"}]}", -1, &error);
  g_assert_no_error (error);

  g_ptr_array_add (args, (char *) g_getenv ("PADDOCK_RUN"));
  g_ptr_array_add (args, "--project");
  g_ptr_array_add (args, session->out);
  g_ptr_array_add (args, "--policy");
  g_ptr_array_add (args, policy);
  g_ptr_array_add (args, "--audit");
  g_ptr_array_add (args, audit);
  g_ptr_array_add (args, "--ask-timeout");
  g_ptr_array_add (args, "60");
  if (control_fd >= 0)
    {
      gboolean watch_only = options != NULL && g_strcmp0 (options[0], "--watch-fd") == 0;

      g_subprocess_launcher_take_fd (launcher, control_fd, 3);
      if (watch_only)
        options++;
      g_ptr_array_add (args, watch_only ? "--watch-fd" : "--control-fd");
      g_ptr_array_add (args, "3");
    }
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (args, (char *) options[i]);
  g_ptr_array_add (args, "--");
  g_ptr_array_add (args, "sh");
  g_ptr_array_add (args, agent);
  g_ptr_array_add (args, session->out);
  g_ptr_array_add (args, (char *) scenario);
  g_ptr_array_add (args, NULL);
  session->run = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  return session;
}

static Session *
session_start (const char *scenario,
               int         control_fd)
{
  return session_start_with (scenario, control_fd, NULL);
}

static void
tell_go (Session *session)
{
  g_autofree char *go = g_build_filename (session->out, "go", NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (go, "", 0, &error);
  g_assert_no_error (error);
}

/* The window's way: an inherited socket; hello, an ask answered, the end. */
static void
test_inherited_fd (void)
{
  int pair[2];
  g_autoptr(Session) session = NULL;
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *marker = NULL;
  g_auto(Seen) seen = { 0 };
  const PaddockMessage *hello, *ask, *decided, *exit;
  guint at = 0;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  session = session_start ("ask", pair[1]);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  /* Nothing is read before the context runs: the handlers come first. */
  g_assert_null (paddock_client_get_hello (client));
  watch (client, &seen);

  hello = wait_for_type (&seen, PADDOCK_MESSAGE_HELLO, &at);
  g_assert_cmpuint (at, ==, 1);
  g_assert_cmpstr (hello->lock, ==, "off");
  g_assert_nonnull (paddock_client_get_hello (client));
  g_assert_cmpstr (paddock_client_get_session_id (client), ==, hello->session);
  g_assert_cmpstr (paddock_client_get_lock (client), ==, "off");
  g_assert_cmpstr (g_ptr_array_index (seen.typed, 0), ==, "hello");

  ask = wait_for_type (&seen, PADDOCK_MESSAGE_ASK, &at);
  g_assert_cmpstr (ask->rule, ==, "test-ask");
  marker = g_build_filename (session->out, "asked-marker", NULL);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_assert_true (paddock_client_decide (client, ask->id, PADDOCK_DECISION_ALLOW, PADDOCK_REMEMBER_ONCE, &error));
  g_assert_no_error (error);
  decided = wait_for_type (&seen, PADDOCK_MESSAGE_DECIDED, &at);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpint (decided->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (decided->by, ==, "user");

  exit = wait_for_type (&seen, PADDOCK_MESSAGE_EXIT, &at);
  while (!exit->session_end)
    exit = wait_for_type (&seen, PADDOCK_MESSAGE_EXIT, &at);
  wait_until_closed (&seen);
  /* The session said it ended: a close without an error. */
  g_assert_no_error (seen.closed_error);
  g_assert_true (paddock_client_get_closed (client));
  g_subprocess_wait_check (session->run, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
  /* Every message also came on its typed signal, in the same order. */
  g_assert_cmpuint (seen.typed->len, ==, seen.messages->len);
  for (guint i = 0; i < seen.messages->len; i++)
    g_assert_cmpstr (g_ptr_array_index (seen.typed, i), ==,
                     paddock_message_type_to_string (((PaddockMessage *) g_ptr_array_index (seen.messages, i))->type));

  /* Closed is closed: a request says so. */
  g_assert_false (paddock_client_decide (client, ask->id, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, &error));
  g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED);
}

/* A locked session's greeting names the mechanism that locks it, and what
 * it enforces; an unlocked one's has no lock feature. */
static void
test_lock_in_hello (void)
{
  struct
  {
    const char *options[4];
    const char *lock;
  } cases[] = {
    { { NULL }, "off" },
    { { "--lock", "--lock-backend", "landlock", NULL }, "landlock" },
    { { "--lock", "--lock-backend", "namespaces", NULL }, "namespaces" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int pair[2];
      g_autoptr(Session) session = NULL;
      g_autoptr(PaddockClient) client = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(Seen) seen = { 0 };
      const PaddockMessage *hello;
      guint at = 0;
      gboolean locked = g_strcmp0 (cases[i].lock, "off") != 0;

      g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
      session = session_start_with ("not-executable", pair[1], cases[i].options);
      client = paddock_client_new_for_fd (pair[0], &error);
      g_assert_no_error (error);
      watch (client, &seen);
      hello = wait_for_type (&seen, PADDOCK_MESSAGE_HELLO, &at);
      g_assert_cmpstr (hello->lock, ==, cases[i].lock);
      g_assert_true (g_strv_contains ((const char * const *) hello->features, "seccomp-user-notif"));
      g_assert_true (g_strv_contains ((const char * const *) hello->features, "lock-files") == locked);
      g_assert_true (g_strv_contains ((const char * const *) hello->features, "lock-no-new-privs") == locked);
      wait_until_closed (&seen);
      g_assert_no_error (seen.closed_error);
      g_subprocess_wait (session->run, NULL, NULL);
    }
}

/* A client on --watch-fd answers no asks until it says it will: the
 * window's way while it has nothing to answer with. */
static void
test_watch_fd (void)
{
  const char *options[] = { "--watch-fd", NULL };
  int pair[2];
  g_autoptr(Session) session = NULL;
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(PaddockMessage) reply = NULL;
  g_autofree char *marker = NULL;
  g_auto(Seen) seen = { 0 };
  const PaddockMessage *exec;
  guint at = 0;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  session = session_start_with ("ask-twice", pair[1], options);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  watch (client, &seen);

  /* Nobody answers: decided at once, as with no client. */
  do
    exec = wait_for_type (&seen, PADDOCK_MESSAGE_EXEC, &at);
  while (exec->rule == NULL);
  g_assert_cmpstr (exec->rule, ==, "test-ask");
  g_assert_cmpint (exec->decision, ==, PADDOCK_DECISION_DENY);
  g_assert_cmpstr (exec->by, ==, "no-client");
  wait_until_closed (&seen);
  g_subprocess_wait (session->run, NULL, NULL);
  for (guint i = 0; i < seen.messages->len; i++)
    g_assert_cmpint (((PaddockMessage *) g_ptr_array_index (seen.messages, i))->type, !=, PADDOCK_MESSAGE_ASK);
  g_clear_object (&client);
  g_clear_pointer (&session, session_free);
  seen_clear (&seen);

  /* Once it asks for the status, asks are its to answer. */
  at = 0;
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  session = session_start_with ("wait-then-ask", pair[1], options);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  watch (client, &seen);
  paddock_client_request_async (client, PADDOCK_MESSAGE_LOCK_STATUS, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  tell_go (session);
  g_assert_cmpstr (wait_for_type (&seen, PADDOCK_MESSAGE_ASK, &at)->rule, ==, "test-ask");
  g_clear_object (&result);
  g_clear_pointer (&reply, paddock_message_free);
  paddock_client_request_async (client, PADDOCK_MESSAGE_KILL, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  wait_until_closed (&seen);
}

/* paddockctl's way: find the session by a prefix of its id, then pause,
 * resume and kill it, each confirmed. */
static void
test_connect_and_steer (void)
{
  g_autoptr(Session) session = session_start ("wait-then-ask", -1);
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(PaddockMessage) reply = NULL;
  g_autofree char *socket = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *session_id = NULL;
  g_autoptr(GPtrArray) sockets = NULL;
  g_auto(Seen) seen = { 0 };
  guint at = 0;

  /* The session's socket shows up once it listens: wait for it. */
  for (gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;; g_usleep (10 * 1000))
    {
      g_clear_pointer (&sockets, g_ptr_array_unref);
      sockets = paddock_client_list_sockets (&error);
      g_assert_no_error (error);
      if (sockets->len == 1)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  session_id = paddock_client_session_of_socket (g_ptr_array_index (sockets, 0));
  prefix = g_strndup (session_id, 4);
  socket = paddock_client_find_socket (prefix, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (socket, ==, g_ptr_array_index (sockets, 0));

  /* Bound a moment before it listens: stale until then. */
  for (;;)
    {
      paddock_client_connect_async (socket, 0, NULL, result_cb, &result);
      client = paddock_client_connect_finish (wait_for_result (&result), &error);
      g_clear_object (&result);
      if (!g_error_matches (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STALE))
        break;
      g_clear_error (&error);
    }
  g_assert_no_error (error);
  g_assert_cmpstr (paddock_client_get_session_id (client), ==, session_id);
  g_assert_cmpstr (paddock_client_get_hello (client)->session, ==, session_id);
  g_assert_false (paddock_client_get_paused (client));
  watch (client, &seen);

  paddock_client_request_async (client, PADDOCK_MESSAGE_PAUSE, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpint (reply->type, ==, PADDOCK_MESSAGE_LOCK_STATUS);
  g_assert_true (reply->paused);
  g_assert_true (paddock_client_get_paused (client));
  g_clear_pointer (&reply, paddock_message_free);

  paddock_client_request_async (client, PADDOCK_MESSAGE_RESUME, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_false (reply->paused);
  g_assert_false (paddock_client_get_paused (client));
  g_clear_pointer (&reply, paddock_message_free);

  /* Having asked for a status, this client answers asks: it gets one. */
  paddock_client_request_async (client, PADDOCK_MESSAGE_LOCK_STATUS, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpstr (reply->lock, ==, "off");
  g_clear_pointer (&reply, paddock_message_free);
  tell_go (session);
  g_assert_cmpstr (wait_for_type (&seen, PADDOCK_MESSAGE_ASK, &at)->rule, ==, "test-ask");

  paddock_client_request_async (client, PADDOCK_MESSAGE_KILL, 10000, NULL, result_cb, &result);
  reply = paddock_client_request_finish (client, wait_for_result (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  wait_until_closed (&seen);
  g_assert_no_error (seen.closed_error);
  g_subprocess_wait (session->run, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_if_exited (session->run) && g_subprocess_get_exit_status (session->run) == 0);
}

/* A listener on @path that serves one connection with @script, then
 * keeps it open until the test ends; NULL @script: never accept. */
typedef struct
{
  int          listen_fd;
  const char  *script;
  gsize        length;
  gboolean     close_after;
  GThread     *thread;
  int          served;
} Peer;

static gpointer
peer_serve (gpointer user_data)
{
  Peer *peer = user_data;
  int fd = accept4 (peer->listen_fd, NULL, NULL, SOCK_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  if (peer->length > 0)
    g_assert_cmpint (send (fd, peer->script, peer->length, MSG_NOSIGNAL), ==, (gssize) peer->length);
  if (peer->close_after)
    close (fd);
  else
    peer->served = fd;
  return NULL;
}

static int
listen_on (const char *path,
           gboolean    listening)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  unlink (path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  if (listening)
    g_assert_cmpint (listen (fd, 4), ==, 0);
  return fd;
}

static PaddockClient *
connect_to (const char *path,
            guint       timeout_ms,
            GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_client_connect_async (path, timeout_ms, NULL, result_cb, &result);
  return paddock_client_connect_finish (wait_for_result (&result), error);
}

static char *
socket_path (const char *session)
{
  g_autoptr(GError) error = NULL;
  char *path = paddock_control_socket_path (session, &error);

  g_assert_no_error (error);
  return path;
}

/* Each way a connection can fail says which, and names the session. */
static void
test_connect_failures (void)
{
  struct
  {
    const char        *session;
    const char        *script;
    gboolean           close_after;
    PaddockClientError code;
    const char        *says;
  } peers[] = {
    { "f00d01", NULL, FALSE, PADDOCK_CLIENT_ERROR_SILENT, "did not answer within 1 s" },
    { "f00d02", "{\"type\":\"error\",\"message\":\"not \\u001b[31myou\"}\n", FALSE,
      PADDOCK_CLIENT_ERROR_REFUSED, "the session says: not \\e[31myou" },
    { "f00d03", "{\"type\":\"exec\",\"seq\":1}\n", FALSE, PADDOCK_CLIENT_ERROR_PROTOCOL,
      "session f00d03 did not start with a greeting" },
    { "f00d04", "", TRUE, PADDOCK_CLIENT_ERROR_PROTOCOL,
      "session f00d04 closed the connection without a greeting" },
  };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (peers); i++)
    {
      g_autofree char *path = socket_path (peers[i].session);
      Peer peer = { .listen_fd = listen_on (path, TRUE), .script = peers[i].script,
                    .close_after = peers[i].close_after, .served = -1 };
      g_autoptr(PaddockClient) client = NULL;

      peer.length = peer.script != NULL ? strlen (peer.script) : 0;
      if (peers[i].script != NULL)
        peer.thread = g_thread_new ("peer", peer_serve, &peer);
      client = connect_to (path, 1000, &error);
      g_assert_null (client);
      g_assert_error (error, PADDOCK_CLIENT_ERROR, (int) peers[i].code);
      g_test_message ("%s: %s", peers[i].session, error->message);
      g_assert_nonnull (strstr (error->message, peers[i].says));
      g_clear_error (&error);
      if (peer.thread != NULL)
        g_thread_join (peer.thread);
      if (peer.served >= 0)
        close (peer.served);
      close (peer.listen_fd);
      unlink (path);
    }

  /* A socket nobody listens on: stale. */
  {
    g_autofree char *path = socket_path ("f00d05");
    int fd = listen_on (path, FALSE);
    g_autoptr(PaddockClient) client = connect_to (path, 1000, &error);

    g_assert_null (client);
    g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STALE);
    g_clear_error (&error);
    close (fd);
    unlink (path);
  }

  /* A stopped listener is said at once, with how to resume it. */
  {
    g_autofree char *path = socket_path ("f00d06");
    pid_t child = fork ();
    g_autoptr(PaddockClient) client = NULL;
    g_autofree char *resume = NULL;
    gint64 started;
    int status;

    /* The stopped one is the one that listens, as paddock-run would be. */
    g_assert_cmpint (child, >=, 0);
    if (child == 0)
      {
        listen_on (path, TRUE);
        raise (SIGSTOP);
        _exit (0);
      }
    g_assert_cmpint (waitpid (child, &status, WUNTRACED), ==, child);
    g_assert_true (WIFSTOPPED (status));
    started = g_get_monotonic_time ();
    client = connect_to (path, 20000, &error);
    g_assert_null (client);
    g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_STOPPED);
    resume = g_strdup_printf ("kill -CONT %d", (int) child);
    g_assert_nonnull (strstr (error->message, resume));
    g_assert_cmpint (g_get_monotonic_time () - started, <, 15 * G_USEC_PER_SEC);
    g_clear_error (&error);
    kill (child, SIGKILL);
    g_assert_cmpint (waitpid (child, &status, 0), ==, child);
    unlink (path);
  }

  /* Ids: none, or more than one that begin the same. */
  {
    g_autofree char *one = socket_path ("abc123");
    g_autofree char *two = socket_path ("abc456");
    int fds[2] = { listen_on (one, TRUE), listen_on (two, TRUE) };
    g_autofree char *found = NULL;

    found = paddock_client_find_socket ("abc", &error);
    g_assert_null (found);
    g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_AMBIGUOUS);
    g_clear_error (&error);
    found = paddock_client_find_socket ("abc4", &error);
    g_assert_no_error (error);
    g_assert_cmpstr (found, ==, two);
    g_clear_pointer (&found, g_free);
    found = paddock_client_find_socket ("zzz", &error);
    g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_NOT_FOUND);
    g_clear_error (&error);
    found = paddock_client_find_socket ("", &error);
    g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_NOT_FOUND);
    g_clear_error (&error);
    for (guint i = 0; i < 2; i++)
      close (fds[i]);
    unlink (one);
    unlink (two);
  }
}

/* A peer that sends what is not a message: skipped and said, the rest
 * still comes; a close without the session's end is an error. */
static void
test_bad_messages (void)
{
  int pair[2];
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Seen) seen = { 0 };
  gsize huge_length = PADDOCK_PROTOCOL_MAX_EVENT_LINE + 10;
  g_autofree char *huge = g_malloc (huge_length);
  const char *script =
    "{\"type\":\"hello\",\"version\":1,\"session\":\"5e55\",\"project\":\"/p\",\"command\":[\"sh\"],"
    "\"agent_pid\":1,\"lock\":\"off\",\"network\":\"off\",\"features\":[],\"paused\":false}\n"
    "garbage\n"
    "{\"type\":\"hello\",\"surprise\":1}\n";
  const char *after =
    "{\"type\":\"pause\"}\n";
  guint at = 0;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  watch (client, &seen);
  memset (huge, 'x', huge_length);
  /* The socket's buffer holds less than the long line: a thread writes. */
  {
    GString *all = g_string_new (script);

    g_string_append_len (all, huge, huge_length);
    g_string_append_c (all, '\n');
    g_string_append (all, after);
    {
      int fd = pair[1];
      gsize done = 0;

      /* Written from here, read by the client as the context runs. */
      while (done < all->len)
        {
          gssize n = send (fd, all->str + done, all->len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

          if (n > 0)
            done += n;
          else
            g_main_context_iteration (NULL, FALSE);
        }
      close (fd);
    }
    g_string_free (all, TRUE);
  }

  g_assert_cmpstr (wait_for_type (&seen, PADDOCK_MESSAGE_HELLO, &at)->session, ==, "5e55");
  wait_for_type (&seen, PADDOCK_MESSAGE_PAUSE, &at);
  g_assert_true (paddock_client_get_paused (client));
  wait_until_closed (&seen);
  g_assert_cmpuint (seen.messages->len, ==, 2);
  g_assert_cmpuint (seen.bad->len, ==, 3);
  for (guint i = 0; i < seen.bad->len; i++)
    g_test_message ("%s", (char *) g_ptr_array_index (seen.bad, i));
  g_assert_nonnull (strstr (g_ptr_array_index (seen.bad, 0), "session 5e55 sent a message that was skipped"));
  g_assert_nonnull (strstr (g_ptr_array_index (seen.bad, 1), "surprise"));
  g_assert_nonnull (strstr (g_ptr_array_index (seen.bad, 2), "over"));
  g_assert_error (seen.closed_error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED);
  g_assert_nonnull (strstr (seen.closed_error->message, "session 5e55 closed the connection without ending"));
}

/* A client made on a thread's own context does all its work there: the
 * global default context is never iterated here. */
static void
test_own_context (void)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(Seen) seen = { 0 };
  const char *hello =
    "{\"type\":\"hello\",\"version\":1,\"session\":\"c0de\",\"project\":\"/p\",\"command\":[\"sh\"],"
    "\"agent_pid\":1,\"lock\":\"off\",\"network\":\"off\",\"features\":[]}\n"
    "{\"type\":\"exit\",\"time\":1,\"pid\":1,\"session_end\":true,\"exit_code\":0}\n";
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  int pair[2];

  g_main_context_push_thread_default (context);
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  watch (client, &seen);
  /* A request, whose timeout also lives on this context. */
  paddock_client_request_async (client, PADDOCK_MESSAGE_LOCK_STATUS, 60000, NULL, result_cb, &result);
  g_assert_cmpint (write (pair[1], hello, strlen (hello)), ==, (gssize) strlen (hello));
  close (pair[1]);
  while (!seen.closed && g_get_monotonic_time () < deadline)
    g_main_context_iteration (context, TRUE);
  g_assert_true (seen.closed);
  g_assert_no_error (seen.closed_error);
  g_assert_cmpuint (seen.messages->len, ==, 2);
  g_assert_cmpstr (paddock_client_get_session_id (client), ==, "c0de");
  /* The session ended before it answered: the request says so. */
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_assert_null (paddock_client_request_finish (client, result, &error));
  g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED);
  g_assert_false (g_main_context_pending (NULL));
  g_main_context_pop_thread_default (context);
}

/* A flush is done once what was queued before it is in the socket: more
 * than the socket holds goes out as the peer reads, and a flush after a
 * close fails. */
static void
test_flush (void)
{
  int pair[2];
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  guint n_requests = 20000;
  char buffer[65536];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_requests; i++)
    g_assert_true (paddock_client_decide (client, i, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, &error));
  paddock_client_flush_async (client, NULL, result_cb, &result);
  /* The socket holds less than all of it: not done until the peer reads. */
  while (result == NULL)
    {
      gssize n = recv (pair[1], buffer, sizeof buffer, MSG_DONTWAIT);

      if (n > 0)
        g_string_append_len (got, buffer, n);
      g_main_context_iteration (NULL, n <= 0);
    }
  g_assert_true (paddock_client_flush_finish (client, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  /* Everything queued before it is in the socket now. */
  for (gssize n; (n = recv (pair[1], buffer, sizeof buffer, MSG_DONTWAIT)) > 0;)
    g_string_append_len (got, buffer, n);
  {
    guint lines = 0;

    for (gsize i = 0; i < got->len; i++)
      lines += got->str[i] == '\n';
    g_assert_cmpuint (lines, ==, n_requests);
  }

  /* Nothing queued: done at once. */
  paddock_client_flush_async (client, NULL, result_cb, &result);
  g_assert_true (paddock_client_flush_finish (client, wait_for_result (&result), &error));
  g_clear_object (&result);

  paddock_client_close (client);
  paddock_client_flush_async (client, NULL, result_cb, &result);
  g_assert_false (paddock_client_flush_finish (client, wait_for_result (&result), &error));
  g_assert_error (error, PADDOCK_CLIENT_ERROR, PADDOCK_CLIENT_ERROR_CLOSED);
  close (pair[1]);
}

/* What is not a Unix stream socket is refused, and the descriptor closed. */
static void
test_not_a_socket (void)
{
  int pipe_fds[2];
  int pair[2];
  g_autoptr(GError) error = NULL;
  PaddockClient *client;

  g_assert_cmpint (pipe (pipe_fds), ==, 0);
  client = paddock_client_new_for_fd (pipe_fds[0], &error);
  g_assert_null (client);
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpint (fcntl (pipe_fds[0], F_GETFD), ==, -1);
  close (pipe_fds[1]);

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_null (client);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (fcntl (pair[0], F_GETFD), ==, -1);
  close (pair[1]);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/client/connect-failures", test_connect_failures);
  g_test_add_func ("/paddock/client/bad-messages", test_bad_messages);
  g_test_add_func ("/paddock/client/not-a-socket", test_not_a_socket);
  g_test_add_func ("/paddock/client/own-context", test_own_context);
  g_test_add_func ("/paddock/client/flush", test_flush);
  if (g_getenv ("PADDOCK_RUN") != NULL)
    {
      g_test_add_func ("/paddock/client/inherited-fd", test_inherited_fd);
      g_test_add_func ("/paddock/client/connect-and-steer", test_connect_and_steer);
      g_test_add_func ("/paddock/client/lock-in-hello", test_lock_in_hello);
      g_test_add_func ("/paddock/client/watch-fd", test_watch_fd);
    }
  status = g_test_run ();
  test_home_remove (g_steal_pointer (&home));
  return status;
}
