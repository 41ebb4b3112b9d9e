/* paddock-timeline-event.c: one row of a session's timeline
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-timeline-private.h"

#include "paddock-escape.h"

#include <string.h>

struct _PaddockTimelineStrings
{
  GStringChunk *chunk;
};

PaddockTimelineStrings *
paddock_timeline_strings_new (void)
{
  PaddockTimelineStrings *strings = g_atomic_rc_box_new0 (PaddockTimelineStrings);

  strings->chunk = g_string_chunk_new (64 * 1024);
  return strings;
}

PaddockTimelineStrings *
paddock_timeline_strings_ref (PaddockTimelineStrings *strings)
{
  return g_atomic_rc_box_acquire (strings);
}

static void
strings_clear (gpointer data)
{
  PaddockTimelineStrings *strings = data;

  g_string_chunk_free (strings->chunk);
}

void
paddock_timeline_strings_unref (PaddockTimelineStrings *strings)
{
  g_atomic_rc_box_release_full (strings, strings_clear);
}

const char *
paddock_timeline_strings_add (PaddockTimelineStrings *strings,
                              const char             *string)
{
  if (string == NULL)
    return NULL;
  return g_string_chunk_insert_const (strings->chunk, string);
}

G_DEFINE_ENUM_TYPE (PaddockTimelineEventKind, paddock_timeline_event_kind,
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_EXEC, "exec"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_PAUSE, "pause"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_RESUME, "resume"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_KILL, "kill"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_SESSION_END, "session-end"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_HOME, "home"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_EVENT_NET, "net"))

G_DEFINE_ENUM_TYPE (PaddockTimelineDecision, paddock_timeline_decision,
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_NONE, "none"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_ALLOWED, "allowed"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_DENIED, "denied"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_ASKING, "asking"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED, "asked-allowed"),
                    G_DEFINE_ENUM_VALUE (PADDOCK_TIMELINE_DECISION_ASKED_DENIED, "asked-denied"))

G_DEFINE_FINAL_TYPE (PaddockTimelineEvent, paddock_timeline_event, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_KIND,
  PROP_SEQ,
  PROP_TIME,
  PROP_PID,
  PROP_PPID,
  PROP_CWD,
  PROP_EXE,
  PROP_PATH,
  PROP_NAME,
  PROP_ARGV,
  PROP_ARGC,
  PROP_TRUNCATED,
  PROP_INTERPRETER,
  PROP_PIPELINE,
  PROP_RULE,
  PROP_REASON,
  PROP_DECISION,
  PROP_BY,
  PROP_DEADLINE,
  PROP_ENDED,
  PROP_EXIT_CODE,
  PROP_SIGNAL,
  PROP_DURATION,
  PROP_REPLACED,
  PROP_FOLDED,
  PROP_PROGRAM,
  PROP_DISPLAY_LINE,
  PROP_PORT,
  PROP_ADDRESS,
  PROP_BYTES_IN,
  PROP_BYTES_OUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
paddock_timeline_event_finalize (GObject *object)
{
  PaddockTimelineEvent *self = PADDOCK_TIMELINE_EVENT (object);

  g_free (self->argv);
  g_clear_pointer (&self->strings, paddock_timeline_strings_unref);

  G_OBJECT_CLASS (paddock_timeline_event_parent_class)->finalize (object);
}

static void
paddock_timeline_event_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  PaddockTimelineEvent *self = PADDOCK_TIMELINE_EVENT (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_SEQ:
      g_value_set_int64 (value, self->seq);
      break;
    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_PPID:
      g_value_set_int (value, self->ppid);
      break;
    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;
    case PROP_EXE:
      g_value_set_string (value, self->exe);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_ARGV:
      g_value_set_boxed (value, self->argv);
      break;
    case PROP_ARGC:
      g_value_set_int64 (value, self->argc);
      break;
    case PROP_TRUNCATED:
      g_value_set_boolean (value, self->truncated);
      break;
    case PROP_INTERPRETER:
      g_value_set_string (value, self->interpreter);
      break;
    case PROP_PIPELINE:
      g_value_set_string (value, self->pipeline);
      break;
    case PROP_RULE:
      g_value_set_string (value, self->rule);
      break;
    case PROP_REASON:
      g_value_set_string (value, self->reason);
      break;
    case PROP_DECISION:
      g_value_set_enum (value, self->decision);
      break;
    case PROP_BY:
      g_value_set_string (value, self->by);
      break;
    case PROP_DEADLINE:
      g_value_set_int64 (value, self->deadline);
      break;
    case PROP_ENDED:
      g_value_set_boolean (value, self->ended);
      break;
    case PROP_EXIT_CODE:
      g_value_set_int (value, self->exit_code);
      break;
    case PROP_SIGNAL:
      g_value_set_int (value, self->signal);
      break;
    case PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;
    case PROP_REPLACED:
      g_value_set_boolean (value, self->replaced);
      break;
    case PROP_FOLDED:
      g_value_set_boolean (value, self->folded);
      break;
    case PROP_PROGRAM:
      g_value_take_string (value, paddock_timeline_event_dup_program (self));
      break;
    case PROP_DISPLAY_LINE:
      g_value_take_string (value, paddock_timeline_event_dup_display_line (self));
      break;
    case PROP_PORT:
      g_value_set_int (value, self->port);
      break;
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_BYTES_IN:
      g_value_set_int64 (value, self->bytes_in);
      break;
    case PROP_BYTES_OUT:
      g_value_set_int64 (value, self->bytes_out);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
string_property (const char *name,
                 const char *blurb)
{
  return g_param_spec_string (name, NULL, blurb, NULL,
                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static GParamSpec *
int64_property (const char *name,
                const char *blurb)
{
  return g_param_spec_int64 (name, NULL, blurb, -1, G_MAXINT64, -1,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static GParamSpec *
int_property (const char *name,
              const char *blurb)
{
  return g_param_spec_int (name, NULL, blurb, -1, G_MAXINT, -1,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static GParamSpec *
boolean_property (const char *name,
                  const char *blurb)
{
  return g_param_spec_boolean (name, NULL, blurb, FALSE,
                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static void
paddock_timeline_event_class_init (PaddockTimelineEventClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = paddock_timeline_event_finalize;
  object_class->get_property = paddock_timeline_event_get_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, "An exec, a read in the home folder, or which session event",
                       PADDOCK_TYPE_TIMELINE_EVENT_KIND, PADDOCK_TIMELINE_EVENT_EXEC,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SEQ] = int64_property ("seq", "The exec's sequence number, -1 for a session row");
  properties[PROP_TIME] = int64_property ("time", "Wall clock, µs since the epoch");
  properties[PROP_PID] = int_property ("pid", "The process");
  properties[PROP_PPID] = int_property ("ppid", "Its parent");
  properties[PROP_CWD] = string_property ("cwd", "Its working directory");
  properties[PROP_EXE] = string_property ("exe", "The resolved executable");
  properties[PROP_PATH] = string_property ("path", "The path as passed to exec, or the home folder's entry");
  properties[PROP_NAME] = string_property ("name", "The file first tried below a home folder's entry");
  properties[PROP_ARGV] =
    g_param_spec_boxed ("argv", NULL, "The recorded arguments", G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ARGC] = int64_property ("argc", "How many arguments there were");
  properties[PROP_TRUNCATED] = boolean_property ("truncated", "argv, path or cwd was cut short");
  properties[PROP_INTERPRETER] = string_property ("interpreter", "A script's #! interpreter");
  properties[PROP_PIPELINE] = string_property ("pipeline", "The pipe a shell reads this from");
  properties[PROP_RULE] = string_property ("rule", "The rule that decided");
  properties[PROP_REASON] = string_property ("reason", "Why, in words");
  properties[PROP_DECISION] =
    g_param_spec_enum ("decision", NULL, "How it was decided",
                       PADDOCK_TYPE_TIMELINE_DECISION, PADDOCK_TIMELINE_DECISION_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_BY] = string_property ("by", "Who decided");
  properties[PROP_DEADLINE] = int64_property ("deadline", "An ask's deadline (wall clock)");
  properties[PROP_ENDED] = boolean_property ("ended", "Its exit came");
  properties[PROP_EXIT_CODE] = int_property ("exit-code", "-1 when unknown or killed");
  properties[PROP_SIGNAL] = int_property ("signal", "The signal that ended it, -1 for none");
  properties[PROP_DURATION] = int64_property ("duration", "µs from exec to exit");
  properties[PROP_REPLACED] = boolean_property ("replaced", "It ended by running another program");
  properties[PROP_FOLDED] = boolean_property ("folded", "One of the shell's prompt helpers");
  properties[PROP_PROGRAM] = string_property ("program", "The real program's name, for display");
  properties[PROP_DISPLAY_LINE] = string_property ("display-line", "The command line, for display");
  properties[PROP_PORT] = int_property ("port", "A connection's port");
  properties[PROP_ADDRESS] = string_property ("address", "The address a connection reached");
  properties[PROP_BYTES_IN] = int64_property ("bytes-in", "Bytes a connection brought the agent");
  properties[PROP_BYTES_OUT] = int64_property ("bytes-out", "Bytes a connection took from the agent");

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
paddock_timeline_event_init (PaddockTimelineEvent *self)
{
  self->seq = -1;
  self->time = -1;
  self->deadline = -1;
  self->duration = -1;
  self->argc = -1;
  self->pid = -1;
  self->ppid = -1;
  self->exit_code = -1;
  self->signal = -1;
  self->port = -1;
  self->bytes_in = -1;
  self->bytes_out = -1;
}

/* One allocation for the array and its strings: a row's argv is read,
 * never changed, and a timeline holds 100,000 of them. */
static char **
argv_pack (const char * const *argv)
{
  gsize n = 0, bytes = 0;
  char **packed;
  char *at;

  for (; argv != NULL && argv[n] != NULL; n++)
    bytes += strlen (argv[n]) + 1;
  packed = g_malloc ((n + 1) * sizeof (char *) + bytes);
  at = (char *) (packed + n + 1);
  for (gsize i = 0; i < n; i++)
    {
      gsize length = strlen (argv[i]) + 1;

      memcpy (at, argv[i], length);
      packed[i] = at;
      at += length;
    }
  packed[n] = NULL;
  return packed;
}

static PaddockTimelineEvent *
event_new (PaddockTimelineStrings   *strings,
           PaddockTimelineEventKind  kind,
           const PaddockMessage     *message)
{
  PaddockTimelineEvent *self = g_object_new (PADDOCK_TYPE_TIMELINE_EVENT, NULL);

  self->strings = paddock_timeline_strings_ref (strings);
  self->kind = kind;
  self->time = message->time;
  self->by = paddock_timeline_strings_add (strings, message->by);
  return self;
}

PaddockTimelineEvent *
paddock_timeline_event_new_exec (PaddockTimelineStrings *strings,
                                 const PaddockMessage   *message)
{
  PaddockTimelineEvent *self;
  gboolean no_client;

  g_return_val_if_fail (message->type == PADDOCK_MESSAGE_EXEC || message->type == PADDOCK_MESSAGE_ASK, NULL);

  self = event_new (strings, PADDOCK_TIMELINE_EVENT_EXEC, message);
  self->seq = message->type == PADDOCK_MESSAGE_ASK ? message->id : message->seq;
  self->pid = message->pid;
  self->ppid = message->ppid;
  self->cwd = paddock_timeline_strings_add (strings, message->cwd);
  self->exe = paddock_timeline_strings_add (strings, message->exe);
  self->path = paddock_timeline_strings_add (strings, message->path);
  self->argv = argv_pack ((const char * const *) message->argv);
  self->argc = message->argc;
  self->truncated = message->truncated;
  self->interpreter = paddock_timeline_strings_add (strings, message->interpreter);
  self->pipeline = paddock_timeline_strings_add (strings, message->pipeline);
  self->rule = paddock_timeline_strings_add (strings, message->rule);
  self->reason = paddock_timeline_strings_add (strings, message->reason);

  /* A program the policy would have asked about, decided at once as
   * nobody was attached to ask, was asked all the same. */
  no_client = g_strcmp0 (message->by, "no-client") == 0;
  if (message->type == PADDOCK_MESSAGE_ASK)
    {
      self->decision = PADDOCK_TIMELINE_DECISION_ASKING;
      self->deadline = message->deadline;
    }
  else if (message->decision == PADDOCK_DECISION_ASK)
    self->decision = PADDOCK_TIMELINE_DECISION_ASKING;
  else if (message->decision == PADDOCK_DECISION_ALLOW)
    self->decision = no_client ? PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED : PADDOCK_TIMELINE_DECISION_ALLOWED;
  else if (message->decision == PADDOCK_DECISION_DENY)
    self->decision = no_client ? PADDOCK_TIMELINE_DECISION_ASKED_DENIED : PADDOCK_TIMELINE_DECISION_DENIED;
  /* The exec's "by" is the policy's while it waits; the answer's comes with it. */
  if (self->decision == PADDOCK_TIMELINE_DECISION_ASKING)
    self->by = NULL;
  return self;
}

PaddockTimelineEvent *
paddock_timeline_event_new_session (PaddockTimelineStrings *strings,
                                    const PaddockMessage   *message)
{
  PaddockTimelineEvent *self;

  switch ((int) message->type)
    {
    case PADDOCK_MESSAGE_PAUSE:
      return event_new (strings, PADDOCK_TIMELINE_EVENT_PAUSE, message);
    case PADDOCK_MESSAGE_RESUME:
      return event_new (strings, PADDOCK_TIMELINE_EVENT_RESUME, message);
    case PADDOCK_MESSAGE_KILL:
      return event_new (strings, PADDOCK_TIMELINE_EVENT_KILL, message);
    case PADDOCK_MESSAGE_EXIT:
      if (!message->session_end)
        return NULL;
      self = event_new (strings, PADDOCK_TIMELINE_EVENT_SESSION_END, message);
      self->pid = message->pid;
      self->ended = TRUE;
      self->exit_code = message->exit_code;
      self->signal = message->signal > 0 ? message->signal : -1;
      return self;
    default:
      return NULL;
    }
}

/* How a home message's attempt was decided: an attempt the lock asked
 * about, or would have with someone to ask, is ASKED_ once answered. */
static PaddockTimelineDecision
home_decision (const PaddockMessage *message)
{
  static const char * const asked_by[] = { "user", "timeout", "no-client", "gone", NULL };
  gboolean asked;

  if (message->type == PADDOCK_MESSAGE_ASK || message->decision == PADDOCK_DECISION_ASK)
    return PADDOCK_TIMELINE_DECISION_ASKING;
  asked = message->id >= 0 || (message->by != NULL && g_strv_contains (asked_by, message->by));
  if (message->decision == PADDOCK_DECISION_ALLOW)
    return asked ? PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED : PADDOCK_TIMELINE_DECISION_ALLOWED;
  if (message->decision == PADDOCK_DECISION_DENY)
    return asked ? PADDOCK_TIMELINE_DECISION_ASKED_DENIED : PADDOCK_TIMELINE_DECISION_DENIED;
  return PADDOCK_TIMELINE_DECISION_NONE;
}

PaddockTimelineEvent *
paddock_timeline_event_new_home (PaddockTimelineStrings *strings,
                                 const PaddockMessage   *message)
{
  PaddockTimelineEvent *self;

  g_return_val_if_fail (message->type == PADDOCK_MESSAGE_HOME || message->type == PADDOCK_MESSAGE_ASK, NULL);

  self = event_new (strings, PADDOCK_TIMELINE_EVENT_HOME, message);
  self->seq = message->id >= 0 ? message->id : -1;
  self->pid = message->pid;
  self->ppid = message->ppid;
  self->cwd = paddock_timeline_strings_add (strings, message->cwd);
  self->exe = paddock_timeline_strings_add (strings, message->exe);
  self->path = paddock_timeline_strings_add (strings, message->path);
  self->name = paddock_timeline_strings_add (strings, message->name);
  self->argv = argv_pack ((const char * const *) message->argv);
  self->argc = message->argc;
  self->truncated = message->truncated;
  self->reason = paddock_timeline_strings_add (strings, message->reason);
  self->decision = home_decision (message);
  if (message->type == PADDOCK_MESSAGE_ASK)
    self->deadline = message->deadline;
  /* Who answers comes with the answer. */
  if (self->decision == PADDOCK_TIMELINE_DECISION_ASKING)
    self->by = NULL;
  return self;
}

/* A home or host ask's row takes, from the ask, the command line that
 * read or connected (which the home and net messages do not name) and
 * its deadline while it waits. Notifies within the caller's freeze;
 * TRUE where something changed. */
static gboolean
take_ask (PaddockTimelineEvent *self,
          const PaddockMessage *ask)
{
  GObject *object = G_OBJECT (self);
  gboolean changed = FALSE;

  if (self->argv[0] == NULL && ask->argv != NULL && ask->argv[0] != NULL)
    {
      g_free (self->argv);
      self->argv = argv_pack ((const char * const *) ask->argv);
      self->argc = ask->argc;
      self->truncated = ask->truncated;
      g_object_notify_by_pspec (object, properties[PROP_ARGV]);
      changed = TRUE;
    }
  if (self->decision == PADDOCK_TIMELINE_DECISION_ASKING && self->deadline != ask->deadline)
    {
      self->deadline = ask->deadline;
      g_object_notify_by_pspec (object, properties[PROP_DEADLINE]);
      changed = TRUE;
    }
  return changed;
}

/* A waiting row takes @decision (of @message, a home or net message),
 * who made it, its rule and reason. A decision once made stays: the
 * message that tells it after the ask's decided changes nothing. TRUE
 * where something changed. */
static gboolean
settle (PaddockTimelineEvent    *self,
        PaddockTimelineDecision  decision,
        const PaddockMessage    *message)
{
  GObject *object = G_OBJECT (self);

  if (self->decision != PADDOCK_TIMELINE_DECISION_ASKING || decision == PADDOCK_TIMELINE_DECISION_ASKING ||
      decision == PADDOCK_TIMELINE_DECISION_NONE)
    return FALSE;
  self->decision = decision;
  g_object_notify_by_pspec (object, properties[PROP_DECISION]);
  self->by = paddock_timeline_strings_add (self->strings, message->by);
  g_object_notify_by_pspec (object, properties[PROP_BY]);
  if (message->rule != NULL)
    {
      self->rule = paddock_timeline_strings_add (self->strings, message->rule);
      g_object_notify_by_pspec (object, properties[PROP_RULE]);
    }
  if (message->reason != NULL)
    {
      self->reason = paddock_timeline_strings_add (self->strings, message->reason);
      g_object_notify_by_pspec (object, properties[PROP_REASON]);
    }
  return TRUE;
}

gboolean
paddock_timeline_event_home (PaddockTimelineEvent *self,
                             const PaddockMessage *message)
{
  GObject *object = G_OBJECT (self);
  PaddockTimelineDecision decision = home_decision (message);
  gboolean changed = FALSE;

  if (self->kind != PADDOCK_TIMELINE_EVENT_HOME)
    return FALSE;

  g_object_freeze_notify (object);
  /* The ask names the command line that read, which the home message does not. */
  if (message->type == PADDOCK_MESSAGE_ASK)
    {
      changed |= take_ask (self, message);
      if (self->cwd == NULL && message->cwd != NULL)
        {
          self->cwd = paddock_timeline_strings_add (self->strings, message->cwd);
          g_object_notify_by_pspec (object, properties[PROP_CWD]);
          changed = TRUE;
        }
    }
  if (self->name == NULL && message->name != NULL)
    {
      self->name = paddock_timeline_strings_add (self->strings, message->name);
      g_object_notify_by_pspec (object, properties[PROP_NAME]);
      changed = TRUE;
    }
  changed |= settle (self, decision, message);
  g_object_thaw_notify (object);
  return changed;
}

gboolean
paddock_timeline_event_ask (PaddockTimelineEvent *self,
                            const PaddockMessage *ask)
{
  if (self->decision != PADDOCK_TIMELINE_DECISION_ASKING || self->deadline == ask->deadline)
    return FALSE;
  self->deadline = ask->deadline;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEADLINE]);
  return TRUE;
}

PaddockTimelineEvent *
paddock_timeline_event_new_net (PaddockTimelineStrings *strings,
                                const PaddockMessage   *message)
{
  PaddockTimelineEvent *self;

  g_return_val_if_fail (message->type == PADDOCK_MESSAGE_NET || message->type == PADDOCK_MESSAGE_ASK, NULL);

  self = event_new (strings, PADDOCK_TIMELINE_EVENT_NET, message);
  self->seq = message->id >= 0 ? message->id : -1;
  self->pid = message->pid;
  self->ppid = message->type == PADDOCK_MESSAGE_ASK ? message->ppid : -1;
  self->cwd = paddock_timeline_strings_add (strings, message->cwd);
  self->exe = paddock_timeline_strings_add (strings, message->exe);
  self->path = paddock_timeline_strings_add (strings, message->host);
  self->port = message->port;
  self->argv = argv_pack ((const char * const *) message->argv);
  self->argc = message->argc;
  self->truncated = message->truncated;
  self->rule = paddock_timeline_strings_add (strings, message->rule);
  self->reason = paddock_timeline_strings_add (strings, message->reason);
  /* A connection is decided as a read in the home folder is. */
  self->decision = home_decision (message);
  if (message->type == PADDOCK_MESSAGE_ASK)
    self->deadline = message->deadline;
  if (self->decision == PADDOCK_TIMELINE_DECISION_ASKING)
    self->by = NULL;
  if (message->type == PADDOCK_MESSAGE_NET && g_strcmp0 (message->kind, "end") == 0)
    {
      /* Its end alone came (its start was before a client followed). */
      self->ended = TRUE;
      self->address = paddock_timeline_strings_add (strings, message->address);
      self->bytes_in = message->bytes_in;
      self->bytes_out = message->bytes_out;
      self->duration = message->duration;
    }
  return self;
}

gboolean
paddock_timeline_event_net (PaddockTimelineEvent *self,
                            const PaddockMessage *message)
{
  GObject *object = G_OBJECT (self);
  PaddockTimelineDecision decision = home_decision (message);
  gboolean changed = FALSE;

  if (self->kind != PADDOCK_TIMELINE_EVENT_NET)
    return FALSE;

  g_object_freeze_notify (object);
  /* The ask names the command line that connects, which net messages do not. */
  if (message->type == PADDOCK_MESSAGE_ASK)
    {
      changed |= take_ask (self, message);
    }
  if (message->type == PADDOCK_MESSAGE_NET && g_strcmp0 (message->kind, "end") == 0)
    {
      if (!self->ended)
        {
          self->ended = TRUE;
          self->address = paddock_timeline_strings_add (self->strings, message->address);
          self->bytes_in = message->bytes_in;
          self->bytes_out = message->bytes_out;
          self->duration = message->duration;
          g_object_notify_by_pspec (object, properties[PROP_ENDED]);
          g_object_notify_by_pspec (object, properties[PROP_ADDRESS]);
          g_object_notify_by_pspec (object, properties[PROP_BYTES_IN]);
          g_object_notify_by_pspec (object, properties[PROP_BYTES_OUT]);
          g_object_notify_by_pspec (object, properties[PROP_DURATION]);
          changed = TRUE;
        }
    }
  /* An end says no decision of its own. */
  else
    changed |= settle (self, decision, message);
  if (self->exe == NULL && message->exe != NULL)
    {
      self->exe = paddock_timeline_strings_add (self->strings, message->exe);
      g_object_notify_by_pspec (object, properties[PROP_EXE]);
      changed = TRUE;
    }
  g_object_thaw_notify (object);
  return changed;
}

gboolean
paddock_timeline_event_decide (PaddockTimelineEvent *self,
                               const PaddockMessage *decided)
{
  const char *by;

  /* Only an ask waits for a decision; any other is not this row's. */
  if (self->decision != PADDOCK_TIMELINE_DECISION_ASKING)
    return FALSE;
  if (decided->decision != PADDOCK_DECISION_ALLOW && decided->decision != PADDOCK_DECISION_DENY)
    return FALSE;
  by = paddock_timeline_strings_add (self->strings, decided->by);

  g_object_freeze_notify (G_OBJECT (self));
  self->decision = decided->decision == PADDOCK_DECISION_ALLOW ? PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED
                                                               : PADDOCK_TIMELINE_DECISION_ASKED_DENIED;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DECISION]);
  if (self->by != by)
    {
      self->by = by;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY]);
    }
  /* An answer remembered names the rule it made. */
  if (decided->rule != NULL)
    {
      self->rule = paddock_timeline_strings_add (self->strings, decided->rule);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RULE]);
    }
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

gboolean
paddock_timeline_event_end (PaddockTimelineEvent *self,
                            const PaddockMessage *exit)
{
  GObject *object = G_OBJECT (self);

  if (self->kind != PADDOCK_TIMELINE_EVENT_EXEC || self->ended)
    return FALSE;

  g_object_freeze_notify (object);
  self->ended = TRUE;
  g_object_notify_by_pspec (object, properties[PROP_ENDED]);
  if (self->exit_code != exit->exit_code)
    {
      self->exit_code = exit->exit_code;
      g_object_notify_by_pspec (object, properties[PROP_EXIT_CODE]);
    }
  if (exit->signal > 0)
    {
      self->signal = exit->signal;
      g_object_notify_by_pspec (object, properties[PROP_SIGNAL]);
    }
  if (exit->duration >= 0)
    {
      self->duration = exit->duration;
      g_object_notify_by_pspec (object, properties[PROP_DURATION]);
    }
  if (exit->replaced)
    {
      self->replaced = TRUE;
      g_object_notify_by_pspec (object, properties[PROP_REPLACED]);
    }
  g_object_thaw_notify (object);
  return TRUE;
}

PaddockTimelineEventKind
paddock_timeline_event_get_kind (PaddockTimelineEvent *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), 0);
  return self->kind;
}

#define GETTER(type, name, fail) \
  type \
  paddock_timeline_event_get_##name (PaddockTimelineEvent *self) \
  { \
    g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), fail); \
    return self->name; \
  }

GETTER (gint64, seq, -1)
GETTER (gint64, time, -1)
GETTER (int, pid, -1)
GETTER (int, ppid, -1)
GETTER (const char *, cwd, NULL)
GETTER (const char *, exe, NULL)
GETTER (const char *, path, NULL)
GETTER (const char *, name, NULL)
GETTER (gint64, argc, -1)
GETTER (gboolean, truncated, FALSE)
GETTER (const char *, interpreter, NULL)
GETTER (const char *, pipeline, NULL)
GETTER (const char *, rule, NULL)
GETTER (const char *, reason, NULL)
GETTER (PaddockTimelineDecision, decision, PADDOCK_TIMELINE_DECISION_NONE)
GETTER (const char *, by, NULL)
GETTER (gint64, deadline, -1)
GETTER (gboolean, ended, FALSE)
GETTER (int, exit_code, -1)
GETTER (int, signal, -1)
GETTER (gint64, duration, -1)
GETTER (gboolean, replaced, FALSE)
GETTER (gboolean, folded, FALSE)
GETTER (int, port, -1)
GETTER (const char *, address, NULL)
GETTER (gint64, bytes_in, -1)
GETTER (gint64, bytes_out, -1)

const char *
paddock_timeline_event_get_host (PaddockTimelineEvent *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), NULL);

  return self->kind == PADDOCK_TIMELINE_EVENT_NET ? self->path : NULL;
}

#undef GETTER

const char * const *
paddock_timeline_event_get_argv (PaddockTimelineEvent *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), NULL);
  return (const char * const *) self->argv;
}

char *
paddock_timeline_event_dup_program (PaddockTimelineEvent *self)
{
  const char *file;
  const char *slash;

  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), NULL);

  file = self->exe != NULL && *self->exe != '\0' ? self->exe : self->path;
  if (file == NULL)
    return g_strdup ("");
  slash = strrchr (file, '/');
  return paddock_escape_for_display (slash != NULL && slash[1] != '\0' ? slash + 1 : file, -1);
}

char *
paddock_timeline_event_dup_display_line (PaddockTimelineEvent *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), NULL);

  if (self->kind == PADDOCK_TIMELINE_EVENT_HOME)
    return self->path != NULL ? paddock_home_display_path (self->path, self->name) : g_strdup ("");
  if (self->kind == PADDOCK_TIMELINE_EVENT_NET)
    {
      g_autofree char *host = paddock_escape_for_display (self->path != NULL ? self->path : "", -1);

      return g_strdup_printf ("%s:%d", host, self->port);
    }
  if (self->kind != PADDOCK_TIMELINE_EVENT_EXEC)
    return g_strdup ("");
  return paddock_exec_display_line (self->path, self->exe, self->interpreter, self->pipeline,
                                    (const char * const *) self->argv);
}

static gboolean
holds (const char *text,
       const char *search)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);

  return strstr (folded, search) != NULL;
}

gboolean
paddock_timeline_event_matches (PaddockTimelineEvent *self,
                                const char           *search)
{
  g_autofree char *line = NULL;

  g_return_val_if_fail (PADDOCK_IS_TIMELINE_EVENT (self), FALSE);
  g_return_val_if_fail (search != NULL, FALSE);

  if (self->kind != PADDOCK_TIMELINE_EVENT_EXEC && self->kind != PADDOCK_TIMELINE_EVENT_HOME &&
      self->kind != PADDOCK_TIMELINE_EVENT_NET)
    return FALSE;
  line = paddock_timeline_event_dup_display_line (self);
  if (holds (line, search))
    return TRUE;
  /* A read is found by the program that read, too: "mvn" finds what
   * Maven read; and a connection by the program that connected. */
  if (self->kind == PADDOCK_TIMELINE_EVENT_HOME || self->kind == PADDOCK_TIMELINE_EVENT_NET)
    {
      g_autofree char *program = paddock_timeline_event_dup_program (self);

      return holds (program, search);
    }
  return FALSE;
}
