/* paddock-asks.c: the session's one ask registry: exec, secret and home asks share ids, deadlines, --on-ask and their messages
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An ask is pending from its announcement until it is decided: by a
 * client, by its deadline, by its caller withdrawing it, or at once by
 * --on-ask. Ending it takes it out of the table first, so that whatever
 * its callback does (settle other asks, withdraw, decide) never finds it
 * again; the callback runs, then the decided message goes out (or from
 * the callback, where it says what became of the answer), then the
 * caller's data is let go.
 */
#include "config.h"

#include "paddock-asks.h"
#include "paddock-proc.h"
#include "paddock-source.h"

#include <gio/gio.h>

typedef struct
{
  PaddockAsks        *asks;
  gint64              id;
  PaddockMessage     *message;        /* the ask message */
  gint64              deadline;       /* monotonic */
  GSource            *deadline_source;
  PaddockAskAnswered  answered;
  gpointer            user_data;
  GDestroyNotify      destroy;

  /* While its callback runs: the answer, for the decided message. */
  PaddockDecision     decision;
  char               *by;
  int                 client_pid;
  gboolean            told;           /* the decided message went out */
} Pending;

struct _PaddockAsks
{
  int              ask_timeout;       /* seconds */
  PaddockOnAsk     on_ask;
  GMainContext    *context;
  PaddockAsksFunc  func;
  gpointer         user_data;

  GMutex           lock;              /* the sequence */
  gint64           last_id;
  gint             n_deciders;        /* atomic */

  GHashTable      *pending;           /* &id → Pending, main context */
  GSList          *answering;         /* Pending whose callbacks run, innermost first */
};

PaddockAsks *
paddock_asks_new (int              ask_timeout,
                  PaddockOnAsk     on_ask,
                  GMainContext    *context,
                  PaddockAsksFunc  func,
                  gpointer         user_data)
{
  PaddockAsks *self = g_new0 (PaddockAsks, 1);

  self->ask_timeout = MAX (ask_timeout, 1);
  self->on_ask = on_ask;
  self->context = context != NULL ? g_main_context_ref (context) : g_main_context_ref_thread_default ();
  self->func = func;
  self->user_data = user_data;
  g_mutex_init (&self->lock);
  self->pending = g_hash_table_new (g_int64_hash, g_int64_equal);
  return self;
}

static void
pending_free (Pending *pending)
{
  paddock_clear_source (&pending->deadline_source);
  paddock_message_free (pending->message);
  g_free (pending->by);
  if (pending->destroy != NULL)
    pending->destroy (pending->user_data);
  g_free (pending);
}

void
paddock_asks_free (PaddockAsks *self)
{
  GHashTableIter iter;
  Pending *pending;

  if (self == NULL)
    return;
  g_return_if_fail (self->answering == NULL);

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      g_hash_table_iter_steal (&iter);
      pending_free (pending);
    }
  g_hash_table_unref (self->pending);
  g_mutex_clear (&self->lock);
  g_main_context_unref (self->context);
  g_free (self);
}

/* Takes @message. */
static void
emit (PaddockAsks    *self,
      PaddockMessage *message)
{
  if (self->func != NULL)
    self->func (message, self->user_data);
  else
    paddock_message_free (message);
}

static void
send_decided (PaddockAsks     *self,
              Pending         *pending,
              PaddockRemember  remember,
              const char      *rule)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_DECIDED);

  pending->told = TRUE;
  message->id = pending->id;
  message->time = g_get_real_time ();
  message->decision = pending->decision;
  message->by = g_strdup (pending->by);
  message->remember = remember;
  if (pending->client_pid > 0)
    message->client_pid = pending->client_pid;
  message->rule = g_strdup (rule);
  /* An exec's ask has no kind, as before kinds were told. */
  message->kind = g_strdup (pending->message->kind);
  emit (self, message);
}

/* Ends @pending, out of the table already: its caller is told, then the
 * clients. */
static void
end (PaddockAsks     *self,
     Pending         *pending,
     PaddockDecision  decision,
     PaddockRemember  remember,
     const char      *by,
     int              client_pid)
{
  paddock_clear_source (&pending->deadline_source);
  pending->decision = decision;
  pending->by = g_strdup (by);
  pending->client_pid = client_pid;

  self->answering = g_slist_prepend (self->answering, pending);
  pending->answered (pending->id, decision, remember, by, client_pid > 0 ? client_pid : -1,
                     pending->user_data);
  self->answering = g_slist_remove (self->answering, pending);
  if (!pending->told)
    send_decided (self, pending, remember, NULL);
  pending_free (pending);
}

static Pending *
steal_pending (PaddockAsks *self,
               gint64       id)
{
  Pending *pending = NULL;

  g_hash_table_steal_extended (self->pending, &id, NULL, (gpointer *) &pending);
  return pending;
}

static gboolean
on_deadline (gpointer user_data)
{
  Pending *pending = user_data;
  PaddockAsks *self = pending->asks;

  pending = steal_pending (self, pending->id);
  g_assert (pending != NULL);
  end (self, pending, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, "timeout", -1);
  return G_SOURCE_REMOVE;
}

gint64
paddock_asks_next_id (PaddockAsks *self)
{
  gint64 id;

  g_mutex_lock (&self->lock);
  id = ++self->last_id;
  g_mutex_unlock (&self->lock);
  return id;
}

gint64
paddock_asks_get_n_ids (PaddockAsks *self)
{
  gint64 n;

  g_mutex_lock (&self->lock);
  n = self->last_id;
  g_mutex_unlock (&self->lock);
  return n;
}

void
paddock_asks_set_deciders (PaddockAsks *self,
                           guint        n_deciders)
{
  g_atomic_int_set (&self->n_deciders, (gint) n_deciders);
}

PaddockDecision
paddock_asks_unattended (PaddockAsks *self)
{
  if (self->on_ask == PADDOCK_ON_ASK_WAIT || g_atomic_int_get (&self->n_deciders) > 0)
    return PADDOCK_DECISION_ASK;
  return self->on_ask == PADDOCK_ON_ASK_ALLOW ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY;
}

int
paddock_asks_get_timeout (PaddockAsks *self)
{
  return self->ask_timeout;
}

gint64
paddock_asks_add (PaddockAsks        *self,
                  PaddockMessage     *message,
                  PaddockAskAnswered  answered,
                  gpointer            user_data,
                  GDestroyNotify      destroy)
{
  Pending *pending;
  PaddockDecision unattended;
  gint64 timeout = (gint64) self->ask_timeout * G_USEC_PER_SEC;
  gint64 remaining;
  gint64 id;

  g_return_val_if_fail (message != NULL && message->type == PADDOCK_MESSAGE_ASK, -1);
  g_return_val_if_fail (answered != NULL, -1);
  /* Two asks with one id would answer each other's decide. */
  g_return_val_if_fail (message->id < 0 || !g_hash_table_contains (self->pending, &message->id), -1);

  /* The deadline runs from when the ask was made: an exec's, on the
   * answering thread, a moment before it reaches this context. */
  if (message->id < 0)
    message->id = paddock_asks_next_id (self);
  if (message->time < 0)
    message->time = g_get_real_time ();
  if (message->mono < 0)
    message->mono = g_get_monotonic_time ();
  if (message->deadline < 0)
    message->deadline = message->time + timeout;
  /* What a caller that knows the process only by its pid (a home
   * view's read) may leave out. */
  if (message->argc < 0 && message->argv != NULL)
    message->argc = g_strv_length (message->argv);
  if (message->ppid < 0 && message->pid > 0)
    {
      pid_t ppid = -1;

      if (paddock_proc_read_stat (-1, message->pid, NULL, &ppid))
        message->ppid = ppid;
    }

  pending = g_new0 (Pending, 1);
  pending->asks = self;
  pending->id = id = message->id;
  pending->message = message;
  pending->deadline = message->mono + (message->deadline - message->time);
  pending->answered = answered;
  pending->user_data = user_data;
  pending->destroy = destroy;

  unattended = paddock_asks_unattended (self);
  if (unattended != PADDOCK_DECISION_ASK)
    {
      end (self, pending, unattended, PADDOCK_REMEMBER_ONCE, "no-client", -1);
      return id;
    }
  g_hash_table_insert (self->pending, &pending->id, pending);
  remaining = pending->deadline - g_get_monotonic_time ();
  /* Rounded up: a deadline is never met before its time. */
  pending->deadline_source = g_timeout_source_new ((MAX (remaining, 0) + 999) / 1000);
  g_source_set_callback (pending->deadline_source, on_deadline, pending, NULL);
  g_source_attach (pending->deadline_source, self->context);
  emit (self, paddock_message_copy (message));
  return id;
}

gboolean
paddock_asks_withdraw (PaddockAsks *self,
                       gint64       id,
                       const char  *by)
{
  Pending *pending = steal_pending (self, id);

  if (pending == NULL)
    return FALSE;
  end (self, pending, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, by, -1);
  return TRUE;
}

gboolean
paddock_asks_decide (PaddockAsks      *self,
                     gint64            id,
                     PaddockDecision   decision,
                     PaddockRemember   remember,
                     const char       *by,
                     int               client_pid,
                     GError          **error)
{
  Pending *pending;

  if (decision != PADDOCK_DECISION_ALLOW && decision != PADDOCK_DECISION_DENY)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "ask %" G_GINT64_FORMAT " can only be allowed or denied", id);
      return FALSE;
    }
  pending = steal_pending (self, id);
  if (pending == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no ask %" G_GINT64_FORMAT " is pending (decided, timed out, or its process is gone)",
                   id);
      return FALSE;
    }
  end (self, pending, decision, remember, by, client_pid);
  return TRUE;
}

void
paddock_asks_tell_decided (PaddockAsks     *self,
                           gint64           id,
                           PaddockRemember  remember,
                           const char      *rule)
{
  for (GSList *l = self->answering; l != NULL; l = l->next)
    {
      Pending *pending = l->data;

      if (pending->id == id)
        {
          g_return_if_fail (!pending->told);
          send_decided (self, pending, remember, rule);
          return;
        }
    }
  g_return_if_reached ();
}

static int
compare_asks (gconstpointer a,
              gconstpointer b)
{
  gint64 id_a = (*(PaddockMessage * const *) a)->id;
  gint64 id_b = (*(PaddockMessage * const *) b)->id;

  return (id_a > id_b) - (id_a < id_b);
}

GPtrArray *
paddock_asks_dup_pending (PaddockAsks *self)
{
  GPtrArray *asks = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  GHashTableIter iter;
  Pending *pending;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    g_ptr_array_add (asks, paddock_message_copy (pending->message));
  g_ptr_array_sort (asks, compare_asks);
  return asks;
}
