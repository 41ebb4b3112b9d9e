/* paddock-vault-broker.c: the vault socket: paddock-secret asks, the supervisor runs the program with the secret
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A request goes: read (its descriptors and one line), resolve and hash
 * the program, read each secret's mode and pins, decide each use (a pin,
 * an answer remembered for the session, or an ask), fetch the values,
 * start the program (paddock-vault-run.c), and answer with its exit once
 * it ended and its output was passed on. Every decision is a `secret`
 * message on the timeline and a record in the audit log, without the
 * value.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-process-tree.h"
#include "paddock-protocol.h"
#include "paddock-vault.h"
#include "paddock-vault-broker.h"
#include "paddock-vault-broker-private.h"
#include "paddock-vault-request.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* How long a client has to send its request. */
#define REQUEST_SECONDS 30
/* Requests served at once: more wait in the listen queue. */
#define MAX_REQUESTS 64

typedef enum
{
  STAGE_READING,
  STAGE_CHECKING,   /* modes, pins and asks */
  STAGE_FETCHING,
  STAGE_RUNNING,
  STAGE_DONE,
} Stage;

typedef struct
{
  char               *name;
  char               *var;       /* the environment variable, or NULL for stdin */
  PaddockSecretInfo  *info;
  GBytes             *value;
} Use;

typedef struct _Request Request;

struct _PaddockVaultBroker
{
  char                     *folder;
  char                     *socket_path;
  int                       listen_fd;
  GSource                  *listen_source;
  PaddockVaultBrokerConfig  config;
  gboolean                  started;
  GPtrArray                *requests;     /* Request, owned */
  GHashTable               *remembered;   /* "NAME\nSHA256" → GINT_TO_POINTER (PaddockDecision) */
  GPtrArray                *finished;     /* Request, owned: freed from the main loop */
  guint                     free_source;
};

struct _Request
{
  int                  refs;         /* the broker's, and one for each call to the vault under way */
  PaddockVaultBroker  *broker;
  int                  fd;
  pid_t                peer;
  GSource             *in_source;
  GSource             *timeout_source;
  GByteArray          *input;
  int                  fds[3];
  guint                n_fds;
  Stage                stage;
  GCancellable        *cancellable;

  PaddockVaultRequest *request;
  PaddockVaultProgram  program;
  GPtrArray           *uses;         /* Use */
  guint                next;         /* the use being checked or fetched */

  gint64               ask_id;       /* the ask of the use being checked, or -1 */
  gboolean             asking;       /* ... while the registry holds it (and a reference) */
  GSource             *vault_source; /* the deadline of the call to the vault under way */
  const char          *vault_waits_for; /* the secret it is about, or NULL */

  pid_t                child;
  int                  status;
  gboolean             exited;
  int                  master;       /* the pty's master, in tty mode; -1 */
  PaddockVaultPump    *pump;
  GSource             *pump_source;
  gboolean             pumped;
};

static void request_finish (Request *self);

static void
use_free (Use *use)
{
  g_free (use->name);
  g_free (use->var);
  g_clear_pointer (&use->info, paddock_secret_info_free);
  g_clear_pointer (&use->value, g_bytes_unref);
  g_free (use);
}

static Request *
request_ref (Request *self)
{
  self->refs++;
  return self;
}

static void
request_free (Request *self)
{
  if (self->vault_source != NULL)
    g_source_destroy (self->vault_source);
  g_clear_pointer (&self->vault_source, g_source_unref);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->in_source != NULL)
    g_source_destroy (self->in_source);
  g_clear_pointer (&self->in_source, g_source_unref);
  if (self->timeout_source != NULL)
    g_source_destroy (self->timeout_source);
  g_clear_pointer (&self->timeout_source, g_source_unref);
  if (self->pump_source != NULL)
    g_source_destroy (self->pump_source);
  g_clear_pointer (&self->pump_source, g_source_unref);
  g_clear_pointer (&self->pump, paddock_vault_pump_free);
  paddock_close_fd (&self->fd);
  for (guint i = 0; i < G_N_ELEMENTS (self->fds); i++)
    paddock_close_fd (&self->fds[i]);
  paddock_vault_program_clear (&self->program);
  paddock_close_fd (&self->master);
  g_clear_pointer (&self->input, g_byte_array_unref);
  g_clear_pointer (&self->request, paddock_vault_request_free);
  g_clear_pointer (&self->uses, g_ptr_array_unref);
  g_free (self);
}

static void
request_unref (Request *self)
{
  if (--self->refs == 0)
    request_free (self);
}

/* Replies */

static void
send_line (Request    *self,
           JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autofree char *line = g_strconcat (text, "\n", NULL);
  const char *p = line;
  gsize left = strlen (line);

  /* A line or two: the socket takes it, or the client is gone. */
  while (left > 0 && self->fd >= 0)
    {
      ssize_t n = send (self->fd, p, left, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      p += n;
      left -= (gsize) n;
    }
}

/* Tells the client why it gets nothing, in one line, and ends the request.
 * @text names the secret and the reason, never a value. */
static void
request_fail (Request    *self,
              int         exit_code,
              const char *text)
{
  g_autoptr(JsonObject) reply = json_object_new ();

  json_object_set_string_member (reply, "type", "error");
  json_object_set_string_member (reply, "message", text);
  json_object_set_int_member (reply, "exit_code", exit_code);
  send_line (self, reply);
  request_finish (self);
}

static gboolean
free_finished (gpointer user_data)
{
  PaddockVaultBroker *broker = user_data;

  broker->free_source = 0;
  g_ptr_array_set_size (broker->finished, 0);
  return G_SOURCE_REMOVE;
}

static void
request_finish (Request *self)
{
  PaddockVaultBroker *broker = self->broker;

  if (self->stage == STAGE_DONE)
    return;
  self->stage = STAGE_DONE;
  /* Its caller went away while it was asked: the ask is withdrawn. */
  if (self->asking)
    {
      self->asking = FALSE;
      paddock_asks_withdraw (broker->config.asks, self->ask_id, "gone");
    }
  /* Freed from the main loop: a callback of this request may be on the stack. */
  g_ptr_array_remove_fast (broker->requests, self);
  g_ptr_array_add (broker->finished, self);
  if (broker->free_source == 0)
    broker->free_source = g_idle_add (free_finished, broker);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->in_source != NULL)
    g_source_destroy (self->in_source);
}

static void
maybe_reply_exit (Request *self)
{
  g_autoptr(JsonObject) reply = json_object_new ();

  if (!self->exited || !self->pumped)
    return;
  json_object_set_string_member (reply, "type", "exit");
  if (WIFSIGNALED (self->status))
    json_object_set_int_member (reply, "signal", WTERMSIG (self->status));
  else
    json_object_set_int_member (reply, "exit_code", WEXITSTATUS (self->status));
  send_line (self, reply);
  request_finish (self);
}

/* The timeline and the audit log */

static void
record_use (Request         *self,
            Use             *use,
            PaddockDecision  decision,
            const char      *by,
            const char      *reason)
{
  PaddockVaultBroker *broker = self->broker;
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_SECRET);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *argv = json_array_new ();

  message->name = g_strdup (use->name);
  message->program = g_strdup (self->program.exe);
  message->sha256 = g_strdup (self->program.sha256);
  message->decision = decision;
  message->by = g_strdup (by);
  message->time = g_get_real_time ();
  message->pid = self->peer;
  message->cwd = g_strdup (self->program.cwd);
  message->argv = g_strdupv (self->request->argv);
  message->reason = g_strdup (reason);
  if (self->ask_id >= 0)
    message->id = self->ask_id;

  json_object_set_string_member (fields, "name", use->name);
  json_object_set_string_member (fields, "program", self->program.exe);
  json_object_set_string_member (fields, "sha256", self->program.sha256);
  for (guint i = 0; self->request->argv[i] != NULL; i++)
    json_array_add_string_element (argv, self->request->argv[i]);
  json_object_set_array_member (fields, "argv", argv);
  json_object_set_string_member (fields, "cwd", self->program.cwd);
  json_object_set_int_member (fields, "pid", self->peer);
  json_object_set_string_member (fields, use->var != NULL ? "env" : "stdin", use->var != NULL ? use->var : "");
  json_object_set_string_member (fields, "decision", paddock_decision_to_string (decision));
  json_object_set_string_member (fields, "by", by);
  if (reason != NULL)
    json_object_set_string_member (fields, "reason", reason);
  if (broker->config.audit != NULL &&
      !paddock_audit_append (broker->config.audit, PADDOCK_AUDIT_SECRET, fields, NULL, &error))
    paddock_audit_print_error (error);

  if (broker->config.control != NULL)
    paddock_control_broadcast_take (broker->config.control, message);
  else
    paddock_message_free (message);
}

/* Calls to the vault: each holds a reference, and has a deadline, so that
 * a keyring whose unlock prompt nobody answers does not hold the caller
 * for ever. */

static gboolean
on_vault_deadline (gpointer user_data)
{
  Request *self = user_data;
  g_autofree char *text = NULL;

  g_clear_pointer (&self->vault_source, g_source_unref);
  text = g_strdup_printf ("the Secret Service did not answer about “%s” within %d s (a locked keyring "
                          "whose unlock prompt nobody answered?)",
                          self->vault_waits_for != NULL ? self->vault_waits_for : "the secrets",
                          self->broker->config.ask_timeout);
  request_fail (self, 1, text);
  return G_SOURCE_REMOVE;
}

static gpointer
vault_call (Request    *self,
            const char *about)
{
  self->vault_waits_for = about;
  self->vault_source = g_timeout_source_new_seconds ((guint) self->broker->config.ask_timeout);
  g_source_set_callback (self->vault_source, on_vault_deadline, self, NULL);
  g_source_attach (self->vault_source, NULL);
  return request_ref (self);
}

/* In a call's callback: whether the request still waits for it. Drops
 * the call's reference where it does not. */
static gboolean
vault_answered (Request *self)
{
  if (self->vault_source != NULL)
    g_source_destroy (self->vault_source);
  g_clear_pointer (&self->vault_source, g_source_unref);
  self->vault_waits_for = NULL;
  if (self->stage == STAGE_DONE)
    {
      request_unref (self);
      return FALSE;
    }
  self->refs--;
  return TRUE;
}

/* Checking: modes, pins, asks */

static void check_next (Request *self);
static void fetch_next (Request *self);

static char *
remembered_key (const char *name,
                const char *sha256)
{
  return g_strconcat (name, "\n", sha256, NULL);
}

static void
refuse_use (Request    *self,
            Use        *use,
            const char *by,
            const char *why)
{
  g_autofree char *program = paddock_escape_for_display (self->request->argv[0], -1);
  g_autofree char *text = g_strdup_printf ("the secret “%s” for %s: refused (%s)", use->name, program, why);

  record_use (self, use, PADDOCK_DECISION_DENY, by, why);
  request_fail (self, 1, text);
}

static void
allow_use (Request    *self,
           Use        *use,
           const char *by,
           const char *reason)
{
  record_use (self, use, PADDOCK_DECISION_ALLOW, by, reason);
  self->next++;
  check_next (self);
}

/* The registry's answer to the ask of the use being checked. */
static void
on_ask_answered (gint64           id,
                 PaddockDecision  decision,
                 PaddockRemember  remember,
                 const char      *by,
                 int              client_pid,
                 gpointer         user_data)
{
  Request *self = user_data;
  PaddockVaultBroker *broker = self->broker;
  Use *use;

  self->asking = FALSE;
  /* Withdrawn as the request ended: nobody waits for the answer. */
  if (self->stage == STAGE_DONE)
    return;
  use = g_ptr_array_index (self->uses, self->next);
  /* "Project" has nowhere to be kept but the session: the vault holds pins. */
  if (remember != PADDOCK_REMEMBER_ONCE)
    remember = PADDOCK_REMEMBER_SESSION;
  /* Asked once a session: the answer holds for it. */
  if (decision == PADDOCK_DECISION_ALLOW && use->info->mode == PADDOCK_SECRET_MODE_SESSION)
    remember = PADDOCK_REMEMBER_SESSION;
  if (remember == PADDOCK_REMEMBER_SESSION)
    g_hash_table_replace (broker->remembered, remembered_key (use->name, self->program.sha256),
                          GINT_TO_POINTER (decision));
  paddock_asks_tell_decided (broker->config.asks, id, remember, NULL);

  if (decision == PADDOCK_DECISION_ALLOW)
    allow_use (self, use, by, NULL);
  else
    refuse_use (self, use, by, g_strcmp0 (by, "timeout") == 0 ? "nobody answered in time" :
                               g_strcmp0 (by, "no-client") == 0 ? "no client is attached to answer; "
                               "see paddock-run --on-ask" : "denied");
  self->ask_id = -1;
}

static void
ask_use (Request    *self,
         Use        *use,
         const char *why)
{
  PaddockVaultBroker *broker = self->broker;
  PaddockMessage *ask = paddock_message_new (PADDOCK_MESSAGE_ASK);

  /* Known before it is added: --on-ask may answer it at once, and the
   * use's record names it. */
  ask->id = self->ask_id = paddock_asks_next_id (broker->config.asks);
  ask->kind = g_strdup ("secret");
  ask->name = g_strdup (use->name);
  ask->sha256 = g_strdup (self->program.sha256);
  /* Its parent and count of arguments are the registry's to fill in. */
  ask->pid = self->peer;
  ask->cwd = g_strdup (self->program.cwd);
  ask->exe = g_strdup (self->program.exe);
  ask->path = g_strdup (self->request->argv[0]);
  ask->argv = g_strdupv (self->request->argv);
  ask->reason = g_strdup_printf ("wants the secret “%s” (%s; sha256 %s)%s%s", use->name,
                                 paddock_secret_mode_to_string (use->info->mode), self->program.sha256,
                                 why != NULL ? ": " : "", why != NULL ? why : "");
  self->asking = TRUE;
  paddock_asks_add (broker->config.asks, ask, on_ask_answered, request_ref (self),
                    (GDestroyNotify) request_unref);
}

/* Decides @use by its mode, its pins and the answers remembered. */
static void
check_use (Request *self,
           Use     *use)
{
  PaddockVaultBroker *broker = self->broker;
  g_autofree char *key = remembered_key (use->name, self->program.sha256);
  gpointer remembered;

  if (use->info->mode == PADDOCK_SECRET_MODE_PINNED)
    {
      const PaddockSecretPin *pin = paddock_secret_info_find_pin (use->info, self->program.exe);

      if (self->program.given_code)
        {
          refuse_use (self, use, "pin", "it is pinned, and this program runs code given on its command "
                      "line or its input");
          return;
        }
      if (pin != NULL && g_strcmp0 (pin->sha256, self->program.sha256) == 0)
        {
          allow_use (self, use, "pin", NULL);
          return;
        }
      if (g_hash_table_lookup_extended (broker->remembered, key, NULL, &remembered))
        {
          if (GPOINTER_TO_INT (remembered) == PADDOCK_DECISION_ALLOW)
            allow_use (self, use, "remembered", NULL);
          else
            refuse_use (self, use, "remembered", "denied earlier in this session");
          return;
        }
      ask_use (self, use, pin != NULL ? "its file changed since it was pinned" : "not a pinned program");
      return;
    }

  if (g_hash_table_lookup_extended (broker->remembered, key, NULL, &remembered))
    {
      if (GPOINTER_TO_INT (remembered) == PADDOCK_DECISION_ALLOW)
        allow_use (self, use, "remembered", NULL);
      else
        refuse_use (self, use, "remembered", "denied earlier in this session");
      return;
    }
  ask_use (self, use, NULL);
}

static void
on_info (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Request *self = user_data;
  g_autoptr(GError) error = NULL;
  PaddockSecretInfo *info = paddock_vault_get_info_finish (result, &error);
  Use *use;

  if (!vault_answered (self))
    {
      g_clear_pointer (&info, paddock_secret_info_free);
      return;
    }
  use = g_ptr_array_index (self->uses, self->next);
  if (info == NULL)
    {
      /* The vault's messages name the secret and the reason, never a value. */
      request_fail (self, 1, error->message);
      return;
    }
  use->info = info;
  check_use (self, use);
}

static void
check_next (Request *self)
{
  if (self->next < self->uses->len)
    {
      Use *use = g_ptr_array_index (self->uses, self->next);

      /* Never fail open: the program would run outside the agent's
       * network namespace, with the secret and the whole network. */
      if (self->broker->config.net_locked)
        {
          refuse_use (self, use, "network-lock",
                      "a program run with a secret cannot be put under the network lock yet, and would "
                      "reach every host; start the session with --net=open to use secrets");
          return;
        }
      paddock_vault_get_info_async (use->name, self->broker->config.project, self->cancellable, on_info,
                                    vault_call (self, use->name));
      return;
    }
  self->stage = STAGE_FETCHING;
  self->next = 0;
  fetch_next (self);
}

/* Fetching the values, and the start */

static void start_program (Request *self);

static void
on_value (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Request *self = user_data;
  g_autoptr(GError) error = NULL;
  GBytes *value = paddock_vault_lookup_finish (result, &error);
  Use *use;

  if (!vault_answered (self))
    {
      g_clear_pointer (&value, g_bytes_unref);
      return;
    }
  use = g_ptr_array_index (self->uses, self->next);
  if (value == NULL)
    {
      /* The vault's messages name the secret and the reason, never a value. */
      request_fail (self, 1, error->message);
      return;
    }
  use->value = value;
  self->next++;
  fetch_next (self);
}

static void
fetch_next (Request *self)
{
  if (self->next < self->uses->len)
    {
      Use *use = g_ptr_array_index (self->uses, self->next);

      paddock_vault_lookup_async (use->name, self->broker->config.project, self->cancellable, on_value,
                                  vault_call (self, use->name));
      return;
    }
  start_program (self);
}

static gboolean
on_pump_done (int          fd,
              GIOCondition condition,
              gpointer     user_data)
{
  Request *self = user_data;

  self->pumped = TRUE;
  g_clear_pointer (&self->pump_source, g_source_unref);
  maybe_reply_exit (self);
  return G_SOURCE_REMOVE;
}

/* A pseudo-terminal for a caller on a terminal, sized as the caller's. */
static gboolean
open_terminal (Request  *self,
               int      *slave,
               GError  **error)
{
  char name[128];
  struct winsize size;

  self->master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (self->master < 0 || grantpt (self->master) != 0 || unlockpt (self->master) != 0 ||
      ptsname_r (self->master, name, sizeof name) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot open a pseudo-terminal: %s", g_strerror (errno));
      return FALSE;
    }
  *slave = open (name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (*slave < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot open %s: %s", name, g_strerror (errno));
      return FALSE;
    }
  if (ioctl (self->fds[1], TIOCGWINSZ, &size) == 0)
    ioctl (self->master, TIOCSWINSZ, &size);
  return TRUE;
}

/* The value for --stdin, in a pipe of its own that it fits in. */
static int
stdin_with_value (Use     *use,
                  GError **error)
{
  int pipe_fds[2];
  gsize length;
  const guint8 *value = g_bytes_get_data (use->value, &length);
  ssize_t n;

  if (pipe2 (pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "cannot create a pipe: %s",
                   g_strerror (errno));
      return -1;
    }
  if (length > 64 * 1024)
    fcntl (pipe_fds[1], F_SETPIPE_SZ, (int) MIN (length, 1024 * 1024));
  n = length > 0 ? write (pipe_fds[1], value, length) : 0;
  close (pipe_fds[1]);
  if (n < 0 || (gsize) n != length)
    {
      close (pipe_fds[0]);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the secret “%s” does not fit in a pipe", use->name);
      return -1;
    }
  /* The program's stdin blocks as any other. */
  fcntl (pipe_fds[0], F_SETFL, fcntl (pipe_fds[0], F_GETFL) & ~O_NONBLOCK);
  return pipe_fds[0];
}

static void
start_program (Request *self)
{
  PaddockVaultBroker *broker = self->broker;
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockRedactor) redactor = paddock_redactor_new ();
  paddock_autofd int in_fd = -1;
  paddock_autofd int slave = -1;
  paddock_autofd int out_read = -1;
  paddock_autofd int out_write = -1;
  paddock_autofd int err_read = -1;
  paddock_autofd int err_write = -1;
  int pipe_fds[2];
  PaddockVaultPumpSetup pump = { .output = -1, .errors = -1, .input = -1 };
  PaddockVaultChild child = {
    .exe_fd = self->program.exe_fd,
    .exe_is_script = self->program.is_script,
    .argv = (const char * const *) self->request->argv,
    .cwd_fd = self->program.cwd_fd,
    .lock = broker->config.lock,
  };
  GPtrArray *envp;

  self->stage = STAGE_RUNNING;
  for (guint i = 0; i < self->uses->len; i++)
    {
      Use *use = g_ptr_array_index (self->uses, i);

      if (use->var == NULL && (in_fd = stdin_with_value (use, &error)) < 0)
        {
          request_fail (self, 1, error->message);
          return;
        }
    }

  if (self->request->tty && !open_terminal (self, &slave, &error))
    {
      request_fail (self, 1, error->message);
      return;
    }
  child.terminal = self->request->tty;
  /* The terminal's input comes forwarded, into the pty; any other input
   * (a pipe, a file) is the program's own, and ends when it ends. */
  child.stdio[0] = in_fd >= 0 ? in_fd : self->request->tty_input ? slave : self->fds[0];
  if (self->request->tty)
    child.stdio[1] = slave;
  else
    {
      if (pipe2 (pipe_fds, O_CLOEXEC) != 0)
        {
          request_fail (self, 1, "cannot create a pipe for the program's output");
          return;
        }
      out_read = pipe_fds[0];
      out_write = pipe_fds[1];
      child.stdio[1] = out_write;
    }
  if (self->request->tty && isatty (self->fds[2]))
    child.stdio[2] = slave;
  else
    {
      if (pipe2 (pipe_fds, O_CLOEXEC) != 0)
        {
          request_fail (self, 1, "cannot create a pipe for the program's errors");
          return;
        }
      err_read = pipe_fds[0];
      err_write = pipe_fds[1];
      child.stdio[2] = err_write;
    }

  {
    g_autoptr(GPtrArray) vars = g_ptr_array_new ();
    g_autoptr(GPtrArray) values = g_ptr_array_new ();

    for (guint i = 0; i < self->uses->len; i++)
      {
        Use *use = g_ptr_array_index (self->uses, i);

        if (use->var != NULL)
          {
            g_ptr_array_add (vars, use->var);
            g_ptr_array_add (values, use->value);
          }
      }
    g_ptr_array_add (vars, NULL);
    envp = paddock_vault_environment_new ((const char * const *) self->request->environ,
                                          (const char * const *) vars->pdata, (GBytes * const *) values->pdata);
  }
  child.envp = (const char * const *) envp->pdata;
  self->child = paddock_vault_child_spawn (&child, &error);
  paddock_vault_environment_free (envp);
  if (self->child < 0)
    {
      self->child = 0;
      request_fail (self, 126, error->message);
      return;
    }
  paddock_close_fd (&slave);
  paddock_close_fd (&out_write);
  paddock_close_fd (&err_write);

  for (guint i = 0; i < self->uses->len; i++)
    {
      Use *use = g_ptr_array_index (self->uses, i);
      gsize length;
      const guint8 *value = g_bytes_get_data (use->value, &length);
      g_autoptr(GError) mask_error = NULL;

      /* Too short to mask without blanking ordinary words: said, not hidden. */
      if (!paddock_redactor_add_secret (redactor, use->name, value, length, &mask_error))
        {
          g_autofree char *text = g_strdup_printf ("the output of %s is not masked for the secret “%s”: %s",
                                                   self->program.exe, use->name, mask_error->message);

          paddock_control_notice (broker->config.control, text);
        }
    }
  pump.redactor = g_steal_pointer (&redactor);
  pump.caller_out = self->fds[1];
  pump.caller_err = self->fds[2];
  if (self->request->tty)
    {
      pump.output = fcntl (self->master, F_DUPFD_CLOEXEC, 3);
      /* paddock-secret's terminal input, forwarded into a pipe. */
      if (in_fd < 0 && self->request->tty_input)
        pump.input = paddock_steal_fd (&self->fds[0]);
    }
  else
    pump.output = paddock_steal_fd (&out_read);
  if (err_read >= 0)
    pump.errors = paddock_steal_fd (&err_read);
  self->pump = paddock_vault_pump_start (&pump);
  self->pump_source = g_unix_fd_source_new (paddock_vault_pump_get_done_fd (self->pump), G_IO_IN);
  g_source_set_callback (self->pump_source, (GSourceFunc) (GCallback) on_pump_done, self, NULL);
  g_source_attach (self->pump_source, NULL);
  /* The values are the pump's now, and the redactor's; none is kept here. */
  for (guint i = 0; i < self->uses->len; i++)
    g_clear_pointer (&((Use *) g_ptr_array_index (self->uses, i))->value, g_bytes_unref);
}

/* Serving a request */

static void
on_list (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Request *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) secrets = paddock_vault_list_finish (result, &error);
  g_autoptr(JsonObject) reply = NULL;
  JsonArray *array;

  if (!vault_answered (self))
    return;
  if (secrets == NULL)
    {
      request_fail (self, 1, error->message);
      return;
    }
  reply = json_object_new ();
  array = json_array_new ();
  for (guint i = 0; i < secrets->len; i++)
    {
      PaddockSecretInfo *info = g_ptr_array_index (secrets, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "name", info->name);
      json_object_set_string_member (item, "mode", paddock_secret_mode_to_string (info->mode));
      json_object_set_boolean_member (item, "pinned", info->pins->len > 0);
      json_array_add_object_element (array, item);
    }
  json_object_set_string_member (reply, "type", "list");
  json_object_set_array_member (reply, "secrets", array);
  send_line (self, reply);
  request_finish (self);
}

/* Finding and hashing the program reads it whole (a runtime of 100 MB
 * takes a while): in a thread, so that clients and asks are served
 * meanwhile. */
typedef struct
{
  PaddockVaultProgram  program;
  int                  exit_code;   /* where it failed: 127 not found, 126 not executable */
  GError              *error;
} OpenResult;

static void
open_result_free (OpenResult *result)
{
  paddock_vault_program_clear (&result->program);
  g_clear_error (&result->error);
  g_free (result);
}

static void
open_program_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  Request *self = task_data;
  OpenResult *result = g_new0 (OpenResult, 1);

  /* The request is held by the task and not changed meanwhile: its argv
   * and environment are read here, and nothing else. */
  result->program = (PaddockVaultProgram) PADDOCK_VAULT_PROGRAM_INIT;
  paddock_vault_program_open (&result->program, self->peer, (const char * const *) self->request->argv,
                              (const char * const *) self->request->environ, &result->exit_code, &result->error);
  g_task_return_pointer (task, result, (GDestroyNotify) open_result_free);
}

static void
on_program_opened (GObject      *source,
                   GAsyncResult *async_result,
                   gpointer      user_data)
{
  Request *self = user_data;
  OpenResult *result = g_task_propagate_pointer (G_TASK (async_result), NULL);

  if (self->stage == STAGE_DONE)
    {
      open_result_free (result);
      request_unref (self);
      return;
    }
  self->refs--;
  if (result->error != NULL)
    {
      request_fail (self, result->exit_code, result->error->message);
      open_result_free (result);
      return;
    }
  self->program = result->program;
  result->program = (PaddockVaultProgram) PADDOCK_VAULT_PROGRAM_INIT;
  open_result_free (result);
  self->stage = STAGE_CHECKING;
  check_next (self);
}

static void
open_program (Request *self)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, on_program_opened, request_ref (self));

  g_task_set_task_data (task, self, NULL);
  g_task_run_in_thread (task, open_program_thread);
}

static void
serve (Request *self)
{
  g_autoptr(GError) error = NULL;

  self->cancellable = g_cancellable_new ();
  if (self->request->type == PADDOCK_VAULT_REQUEST_LIST)
    {
      paddock_vault_list_async (self->broker->config.project, self->cancellable, on_list, vault_call (self, NULL));
      return;
    }
  if (self->n_fds != 3)
    {
      request_fail (self, 2, "the request came without its standard input, output and error");
      return;
    }
  for (guint i = 0; self->request->env_names[i] != NULL; i++)
    if (!paddock_vault_check_name (self->request->env_names[i], &error))
      {
        request_fail (self, 2, error->message);
        return;
      }
  if (self->request->stdin_name != NULL && !paddock_vault_check_name (self->request->stdin_name, &error))
    {
      request_fail (self, 2, error->message);
      return;
    }
  self->uses = g_ptr_array_new_with_free_func ((GDestroyNotify) use_free);
  for (guint i = 0; self->request->env_vars[i] != NULL; i++)
    {
      Use *use = g_new0 (Use, 1);

      use->var = g_strdup (self->request->env_vars[i]);
      use->name = g_strdup (self->request->env_names[i]);
      g_ptr_array_add (self->uses, use);
    }
  if (self->request->stdin_name != NULL)
    {
      Use *use = g_new0 (Use, 1);

      use->name = g_strdup (self->request->stdin_name);
      g_ptr_array_add (self->uses, use);
    }
  open_program (self);
}

/* While the program runs: signals for it. Before: nothing but the request. */
static void
handle_line (Request    *self,
             const char *line,
             gsize       length)
{
  g_autoptr(GError) error = NULL;
  int signo;

  if (self->stage == STAGE_READING)
    {
      self->request = paddock_vault_request_parse (line, length, &error);
      if (self->request == NULL)
        {
          g_autofree char *text = g_strdup_printf ("malformed request: %s", error->message);

          request_fail (self, 2, text);
          return;
        }
      g_source_destroy (self->timeout_source);
      g_clear_pointer (&self->timeout_source, g_source_unref);
      serve (self);
      return;
    }

  signo = paddock_vault_request_parse_signal (line, length, &error);
  if (signo <= 0)
    return;
  if (self->stage != STAGE_RUNNING || self->child <= 0 || self->exited)
    return;
  if (signo == SIGWINCH && self->master >= 0)
    {
      struct winsize size;

      /* The kernel tells the program's foreground group itself. */
      if (ioctl (self->fds[1], TIOCGWINSZ, &size) == 0)
        ioctl (self->master, TIOCSWINSZ, &size);
      return;
    }
  /* Its own session and group: the group gets it, as from a terminal. */
  kill (-self->child, signo);
}

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  Request *self = user_data;
  union
  {
    char           buf[CMSG_SPACE (3 * sizeof (int))];
    struct cmsghdr align;
  } control;
  guint8 buffer[16 * 1024];
  struct iovec iov = { buffer, sizeof buffer };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                        .msg_controllen = sizeof control.buf };
  ssize_t n;
  guint8 *newline;

  n = recvmsg (fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  for (struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg); n >= 0 && cmsg != NULL; cmsg = CMSG_NXTHDR (&msg, cmsg))
    if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
      {
        guint count = (cmsg->cmsg_len - CMSG_LEN (0)) / sizeof (int);
        int received[3];

        memcpy (received, CMSG_DATA (cmsg), MIN (count, 3u) * sizeof (int));
        for (guint i = 0; i < MIN (count, 3u); i++)
          {
            if (self->stage == STAGE_READING && self->n_fds < 3)
              self->fds[self->n_fds++] = received[i];
            else
              close (received[i]);
          }
      }
  if (msg.msg_flags & MSG_CTRUNC)
    {
      request_fail (self, 2, "malformed request: more descriptors than standard input, output and error");
      return G_SOURCE_REMOVE;
    }
  if (n <= 0)
    {
      /* The caller is gone: so is whatever would read the program's output. */
      if (self->stage == STAGE_RUNNING && self->child > 0 && !self->exited)
        kill (-self->child, SIGHUP);
      g_clear_pointer (&self->in_source, g_source_unref);
      if (self->stage != STAGE_RUNNING)
        request_finish (self);
      return G_SOURCE_REMOVE;
    }

  g_byte_array_append (self->input, buffer, (guint) n);
  while (self->stage != STAGE_DONE &&
         (newline = memchr (self->input->data, '\n', self->input->len)) != NULL)
    {
      gsize length = (gsize) (newline - self->input->data);
      gsize start = 0;
      g_autofree char *line = NULL;

      /* The bytes that carried the descriptors. */
      while (start < length && self->input->data[start] == '\0')
        start++;
      line = g_strndup ((const char *) self->input->data + start, length - start);
      g_byte_array_remove_range (self->input, 0, (guint) length + 1);
      handle_line (self, line, length - start);
    }
  if (self->stage != STAGE_DONE && self->input->len > PADDOCK_VAULT_MAX_REQUEST)
    {
      request_fail (self, 2, "malformed request: a line longer than 1 MiB");
      return G_SOURCE_REMOVE;
    }
  return self->stage == STAGE_DONE ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static gboolean
on_request_timeout (gpointer user_data)
{
  Request *self = user_data;

  g_clear_pointer (&self->timeout_source, g_source_unref);
  request_fail (self, 2, "malformed request: none came in time");
  return G_SOURCE_REMOVE;
}

/* Whether the peer is the agent or below it; where it is not, why. */
static gboolean
check_peer (PaddockVaultBroker *broker,
            int                 fd,
            pid_t              *out_pid,
            char              **refusal)
{
  struct ucred cred = { 0 };
  socklen_t length = sizeof cred;
  g_autoptr(GError) error = NULL;

  if (getsockopt (fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0)
    {
      *refusal = g_strdup_printf ("cannot identify the caller: %s", g_strerror (errno));
      return FALSE;
    }
  *out_pid = cred.pid;
  if (cred.uid != getuid ())
    {
      *refusal = g_strdup ("this session's vault serves its own user only");
      return FALSE;
    }
  if (cred.pid != broker->config.agent_pid &&
      !paddock_process_tree_is_descendant (broker->config.agent_pid, cred.pid, &error))
    {
      *refusal = g_strdup ("this session's vault serves only the programs its agent runs");
      return FALSE;
    }
  return TRUE;
}

static gboolean
on_accept (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  PaddockVaultBroker *broker = user_data;
  g_autofree char *refusal = NULL;
  Request *self;
  int client = accept4 (fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
  pid_t pid = -1;

  if (client < 0)
    return G_SOURCE_CONTINUE;

  self = g_new0 (Request, 1);
  self->refs = 1;
  self->broker = broker;
  self->fd = client;
  self->fds[0] = self->fds[1] = self->fds[2] = -1;
  self->program = (PaddockVaultProgram) PADDOCK_VAULT_PROGRAM_INIT;
  self->master = -1;
  self->ask_id = -1;
  self->input = g_byte_array_new ();
  g_ptr_array_add (broker->requests, self);

  if (!check_peer (broker, client, &pid, &refusal))
    {
      request_fail (self, 2, refusal);
      return G_SOURCE_CONTINUE;
    }
  if (broker->requests->len > MAX_REQUESTS)
    {
      request_fail (self, 1, "too many programs with secrets at once");
      return G_SOURCE_CONTINUE;
    }
  self->peer = pid;
  self->in_source = g_unix_fd_source_new (client, G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->in_source, (GSourceFunc) (GCallback) on_readable, self, NULL);
  g_source_attach (self->in_source, NULL);
  self->timeout_source = g_timeout_source_new_seconds (REQUEST_SECONDS);
  g_source_set_callback (self->timeout_source, on_request_timeout, self, NULL);
  g_source_attach (self->timeout_source, NULL);
  return G_SOURCE_CONTINUE;
}

/* The broker */

PaddockVaultBroker *
paddock_vault_broker_new (GError **error)
{
  g_autoptr(PaddockVaultBroker) self = g_new0 (PaddockVaultBroker, 1);
  /* Beside $XDG_RUNTIME_DIR/paddock, not in it: the lock keeps that
   * folder, with every session's control socket, from the agent. */
  const char *dir = paddock_user_runtime_dir ();
  g_autofree char *template = NULL;
  struct sockaddr_un addr = { .sun_family = AF_UNIX };

  self->listen_fd = -1;
  self->requests = g_ptr_array_new ();
  self->remembered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->finished = g_ptr_array_new_with_free_func ((GDestroyNotify) request_unref);
  template = g_build_filename (dir, "paddock-vault-XXXXXX", NULL);
  if (g_mkdtemp_full (template, 0700) == NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot create the vault's folder in %s: %s", dir, g_strerror (errno));
      return NULL;
    }
  self->folder = g_steal_pointer (&template);
  self->socket_path = g_build_filename (self->folder, "vault.sock", NULL);
  if (strlen (self->socket_path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG,
                   "the vault's socket path %s is too long for a Unix socket", self->socket_path);
      return NULL;
    }
  strcpy (addr.sun_path, self->socket_path);
  self->listen_fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (self->listen_fd < 0 || bind (self->listen_fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
      chmod (self->socket_path, 0600) != 0 || listen (self->listen_fd, 64) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot listen on the vault's socket %s: %s", self->socket_path, g_strerror (errno));
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
paddock_vault_broker_get_folder (PaddockVaultBroker *self)
{
  return self->folder;
}

const char *
paddock_vault_broker_get_socket_path (PaddockVaultBroker *self)
{
  return self->socket_path;
}

void
paddock_vault_broker_start (PaddockVaultBroker             *self,
                            const PaddockVaultBrokerConfig *config)
{
  g_return_if_fail (!self->started);
  g_return_if_fail (config->asks != NULL);

  self->config = *config;
  self->started = TRUE;
  self->listen_source = g_unix_fd_source_new (self->listen_fd, G_IO_IN);
  g_source_set_callback (self->listen_source, (GSourceFunc) (GCallback) on_accept, self, NULL);
  g_source_attach (self->listen_source, NULL);
}

gboolean
paddock_vault_broker_child_exited (PaddockVaultBroker *self,
                                   pid_t               pid,
                                   int                 status)
{
  if (self == NULL)
    return FALSE;
  for (guint i = 0; i < self->requests->len; i++)
    {
      Request *request = g_ptr_array_index (self->requests, i);

      if (request->child == pid && !request->exited)
        {
          if (WIFSTOPPED (status) || WIFCONTINUED (status))
            return TRUE;
          request->exited = TRUE;
          request->status = status;
          maybe_reply_exit (request);
          return TRUE;
        }
    }
  return FALSE;
}

void
paddock_vault_broker_free (PaddockVaultBroker *self)
{
  if (self == NULL)
    return;
  if (self->listen_source != NULL)
    g_source_destroy (self->listen_source);
  g_clear_pointer (&self->listen_source, g_source_unref);
  paddock_close_fd (&self->listen_fd);
  while (self->requests->len > 0)
    {
      Request *request = g_ptr_array_steal_index_fast (self->requests, self->requests->len - 1);

      request->stage = STAGE_DONE;
      /* Its ask ends with the session; the registry lets go of it. */
      if (request->asking)
        {
          request->asking = FALSE;
          paddock_asks_withdraw (self->config.asks, request->ask_id, "session-end");
        }
      request_unref (request);
    }
  g_clear_handle_id (&self->free_source, g_source_remove);
  g_ptr_array_unref (self->finished);
  g_ptr_array_unref (self->requests);
  g_hash_table_unref (self->remembered);
  if (self->socket_path != NULL)
    unlink (self->socket_path);
  if (self->folder != NULL)
    rmdir (self->folder);
  g_free (self->socket_path);
  g_free (self->folder);
  g_free (self);
}
