/* paddock-exec-asks.c: asks: an exec held until a client decides, its deadline passes or its process goes
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An ask stays blocked in the kernel, recorded, and held in the session's
 * ask registry (paddock-asks.h), which announces it, until a client
 * decides it (once, for the session or for the project: an answer
 * remembered is a rule for each level of the exec that asked), its
 * deadline passes, its process dies, or the policy as it now stands
 * decides it (settling). The registry tells us of the end; what follows
 * (the rules remembered, the record, the kernel's answer) is ours.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-source.h"

#include <glib-unix.h>
#include <sys/ioctl.h>

/* An ask that was denied. A shell's PATH search goes on after EACCES and
 * would ask the same question again for the next directory's copy. */
struct _Refusal
{
  pid_t   tid;                     /* the thread that asked */
  char   *exe;
  char  **argv;
  gint64  id;
  gint64  expires;                 /* monotonic */
};

#define REFUSAL_LIFETIME (2 * G_USEC_PER_SEC)

void
paddock_exec_ask_free (Ask *ask)
{
  paddock_clear_source (&ask->gone_source);
  paddock_close_fd (&ask->pidfd);
  paddock_exec_info_free (ask->info);
  g_free (ask->settled_by);
  g_free (ask->download);
  g_free (ask);
}

void
paddock_exec_refusal_free (Refusal *refusal)
{
  g_free (refusal->exe);
  g_strfreev (refusal->argv);
  g_free (refusal);
}

static void
audit_simple (PaddockExecMonitor *self,
              const char         *type,
              JsonObject         *fields)
{
  g_autoptr(GError) error = NULL;

  if (self->audit != NULL && !paddock_audit_append (self->audit, type, fields, NULL, &error))
    paddock_audit_print_error (error);
}

gboolean
paddock_exec_was_refused (PaddockExecMonitor *self,
                          const ExecInfo     *info,
                          gint64              now)
{
  gboolean found = FALSE;

  g_mutex_lock (&self->lock);
  while (self->refused.head != NULL && ((Refusal *) self->refused.head->data)->expires < now)
    paddock_exec_refusal_free (g_queue_pop_head (&self->refused));
  for (GList *l = self->refused.head; l != NULL && !found; l = l->next)
    {
      Refusal *refusal = l->data;

      found = refusal->tid == info->tid &&
              g_strcmp0 (refusal->exe, info->exe) == 0 &&
              g_strv_equal ((const char * const *) refusal->argv, (const char * const *) info->argv->pdata);
    }
  g_mutex_unlock (&self->lock);
  return found;
}

/* The query @ask was judged by: what was read of its process then (its
 * working directory too) stands for it. */
static PaddockPolicyQuery
ask_query (PaddockExecMonitor *self,
           const Ask          *ask)
{
  PaddockPolicyQuery query = {
    .exe = ask->info->lexical,
    .argv = (const char * const *) ask->info->argv->pdata,
    .cwd = ask->info->cwd,
    .project = self->project,
    .home = self->home,
    .resolved = ask->info->exe,
    .unlinked = ask->info->unlinked,
    .stdin_from = ask->info->stdin_from,
  };

  query_downloads (self, ask->info, &query);
  return query;
}

/* A rule of @action and @scope for each of the @n @levels that asked
 * (bits of @asked), or NULL where a command line is too long for one. */
static GPtrArray *
remembered_rules (const PaddockPolicyQuery  *levels,
                  guint                      n,
                  guint                      asked,
                  PaddockPolicyAction        action,
                  PaddockPolicyScope         scope,
                  GError                   **error)
{
  g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_policy_rule_unref);

  for (guint i = 0; i < n; i++)
    {
      PaddockPolicyRule *rule;

      if ((asked & (1u << i)) == 0)
        continue;
      rule = paddock_policy_rule_new_remembered (&levels[i], action, scope, error);
      if (rule == NULL)
        return NULL;
      g_ptr_array_add (rules, rule);
    }
  return g_steal_pointer (&rules);
}

/* Makes a rule of @decision for each level of the asked exec that asked
 * (a script's #! line may be what asks: a rule for the script's own
 * command line would not answer it next time), saves them in the
 * project's file where @remember says so and can, and adds them to the
 * policy. Lowers @remember to what was remembered: rules the project's
 * file could not take are the session's, which a change of that file
 * leaves in place. Returns the first rule, or NULL when none could be
 * made. */
static PaddockPolicyRule *
remember_answer (PaddockExecMonitor *self,
                 Ask                *ask,
                 PaddockDecision     decision,
                 PaddockRemember    *remember)
{
  PaddockPolicyQuery query = ask_query (self, ask);
  g_autoptr(GPtrArray) argvs = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  PaddockPolicyAction action = decision == PADDOCK_DECISION_ALLOW ? PADDOCK_POLICY_ACTION_ALLOW :
                                                                   PADDOCK_POLICY_ACTION_DENY;
  PaddockPolicyScope scope = *remember == PADDOCK_REMEMBER_PROJECT && self->project != NULL ?
                             PADDOCK_POLICY_SCOPE_PROJECT : PADDOCK_POLICY_SCOPE_SESSION;
  guint asked = ask->info->asked_levels != 0 ? ask->info->asked_levels : 1;
  guint n = paddock_exec_level_queries (&query, ask->info->path, ask->info->shebangs, &argvs, levels);
  g_autoptr(GError) error = NULL;

  n = paddock_exec_add_pipe_level (ask->info, &query, levels, n);

  rules = remembered_rules (levels, n, asked, action, scope, &error);
  if (rules == NULL || rules->len == 0)
    {
      if (error != NULL)
        {
          g_autofree char *text = g_strdup_printf ("cannot remember the decision on #%" G_GINT64_FORMAT
                                                   ", only take it this once: %s", ask->id, error->message);

          emit_notice (self, text);
        }
      *remember = PADDOCK_REMEMBER_ONCE;
      return NULL;
    }
  *remember = scope == PADDOCK_POLICY_SCOPE_PROJECT ? PADDOCK_REMEMBER_PROJECT : PADDOCK_REMEMBER_SESSION;
  for (guint i = 0; *remember == PADDOCK_REMEMBER_PROJECT && i < rules->len; i++)
    if (!paddock_policy_remember_in_project (self->project, g_ptr_array_index (rules, i), &error))
      {
        g_autofree char *text = g_strdup_printf ("cannot remember the decision for the project, "
                                                 "only for this session: %s", error->message);

        emit_notice (self, text);
        g_clear_error (&error);
        *remember = PADDOCK_REMEMBER_SESSION;
        g_clear_pointer (&rules, g_ptr_array_unref);
        /* The same lines made rules a moment ago. */
        rules = remembered_rules (levels, n, asked, action, PADDOCK_POLICY_SCOPE_SESSION, NULL);
        if (rules == NULL)
          {
            *remember = PADDOCK_REMEMBER_ONCE;
            return NULL;
          }
      }
  for (guint i = 0; i < rules->len; i++)
    paddock_policy_prepend_rule (self->policy, g_ptr_array_index (rules, i));
  return paddock_policy_rule_ref (g_ptr_array_index (rules, 0));
}

/* The registry's callback: @ask ended as @by says. The kernel is
 * answered where it still holds the exec (not where its process is gone
 * or the session ends); the registry frees @ask once this returns. */
static void
on_ask_answered (gint64           id,
                 PaddockDecision  decision,
                 PaddockRemember  remember,
                 const char      *by,
                 int              client_pid,
                 gpointer         user_data)
{
  Ask *ask = user_data;
  PaddockExecMonitor *self = ask->monitor;
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(PaddockPolicyRule) rule = NULL;
  const char *by_rule = ask->settled_by;
  gboolean answer = ask->held;

  g_hash_table_remove (self->pending, &ask->id);

  /* The agent is answered last: a shell that retries the refused program
   * along PATH must find the refusal and the remembered rule in place, and
   * the decision must be on disk before it takes effect. */
  if (answer && decision == PADDOCK_DECISION_DENY)
    {
      Refusal *refusal = g_new0 (Refusal, 1);

      refusal->tid = ask->info->tid;
      refusal->exe = g_strdup (ask->info->exe);
      refusal->argv = g_strdupv ((char **) ask->info->argv->pdata);
      refusal->id = ask->id;
      refusal->expires = g_get_monotonic_time () + REFUSAL_LIFETIME;
      g_mutex_lock (&self->lock);
      g_queue_push_tail (&self->refused, refusal);
      g_mutex_unlock (&self->lock);
    }

  if (remember != PADDOCK_REMEMBER_ONCE)
    rule = remember_answer (self, ask, decision, &remember);
  if (rule != NULL)
    by_rule = paddock_policy_rule_get_name (rule);

  json_object_set_int_member (fields, "event", ask->id);
  json_object_set_int_member (fields, "pid", ask->info->pid);
  json_object_set_string_member (fields, "decision", paddock_decision_to_string (decision));
  json_object_set_string_member (fields, "by", by);
  json_object_set_string_member (fields, "remember", paddock_remember_to_string (remember));
  if (client_pid > 0)
    json_object_set_int_member (fields, "client_pid", client_pid);
  if (by_rule != NULL)
    json_object_set_string_member (fields, "rule", by_rule);
  audit_simple (self, PADDOCK_AUDIT_DECISION, fields);

  if (answer)
    paddock_exec_respond (self, ask->cookie, decision == PADDOCK_DECISION_ALLOW ? 0 : EACCES);

  if (decision == PADDOCK_DECISION_ALLOW && answer)
    paddock_exec_note_download (self, ask->info, ask->id, ask->pidfd);
  if (decision == PADDOCK_DECISION_ALLOW && ask->download != NULL && g_strcmp0 (by, "user") == 0)
    paddock_exec_forget_download (self, ask->download);
  if (decision == PADDOCK_DECISION_ALLOW && answer && ask->pidfd >= 0)
    {
      replace_running (self, ask->info->pid);
      paddock_exec_start_running (self, ask->id, ask->info->pid, g_get_monotonic_time (),
                     paddock_steal_fd (&ask->pidfd), ask->info);
    }

  paddock_asks_tell_decided (self->asks, ask->id, remember, by_rule);

  /* "Always" answers the asks held behind this one that it covers. */
  if (rule != NULL)
    paddock_exec_monitor_settle_pending (self);
}

/* Withdraws @ask, whose process is gone: the kernel has nothing to answer. */
static void
withdraw_gone (Ask *ask)
{
  ask->held = FALSE;
  paddock_clear_source (&ask->gone_source);
  paddock_asks_withdraw (ask->monitor->asks, ask->id, "gone");
}

static gboolean
on_ask_gone (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  /* The registry frees the ask, and with it this source: not removed again. */
  withdraw_gone (user_data);
  return G_SOURCE_CONTINUE;
}

/* For an ask without a pidfd: whether the kernel still holds its exec. */
static gboolean
on_ask_check (gpointer user_data)
{
  Ask *ask = user_data;

  if (ioctl (ask->monitor->notify_fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &ask->cookie) == 0)
    return G_SOURCE_CONTINUE;
  withdraw_gone (ask);
  return G_SOURCE_CONTINUE;
}

/* How often an ask without a pidfd is checked for its process's end. */
#define ASK_CHECK_MS 500

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  gint64 id_a = *(const gint64 *) a;
  gint64 id_b = *(const gint64 *) b;

  return (id_a > id_b) - (id_a < id_b);
}

/* Judges @ask again by the policy as it now stands, and decides it if
 * the policy no longer asks about it. */
static void
settle_one (PaddockExecMonitor *self,
            Ask                *ask)
{
  g_autoptr(PaddockPolicyRule) rule = NULL;
  PaddockPolicyQuery query = ask_query (self, ask);
  PaddockPolicyAction action;

  ask->info->asked_levels = 0;
  action = paddock_exec_judge_levels (self, ask->info, &query, &rule);
  if (action == PADDOCK_POLICY_ACTION_ASK)
    return;

  g_free (ask->settled_by);
  ask->settled_by = rule != NULL ? g_strdup (paddock_policy_rule_get_name (rule)) : NULL;
  paddock_asks_decide (self->asks, ask->id,
                       action == PADDOCK_POLICY_ACTION_ALLOW ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY,
                       PADDOCK_REMEMBER_ONCE, decided_by (rule), -1, NULL);
}

void
paddock_exec_hold_ask (PaddockExecMonitor *self,
                       Ask                *ask,
                       PaddockMessage     *message)
{
  gint64 id = ask->id;

  ask->held = TRUE;
  g_hash_table_insert (self->pending, &ask->id, ask);
  /* --on-ask may decide it at once, and the registry free it. */
  paddock_asks_add (self->asks, message, on_ask_answered, ask, (GDestroyNotify) paddock_exec_ask_free);
  ask = g_hash_table_lookup (self->pending, &id);
  if (ask == NULL)
    return;

  /* Its process's end withdraws the question: told by its pidfd, or
   * where it got none (out of descriptors), found by asking the kernel
   * now and then, rather than left to its deadline. */
  if (ask->pidfd >= 0)
    {
      ask->gone_source = g_unix_fd_source_new (ask->pidfd, G_IO_IN);
      g_source_set_callback (ask->gone_source, (GSourceFunc) (GCallback) on_ask_gone, ask, NULL);
    }
  else
    {
      ask->gone_source = g_timeout_source_new (ASK_CHECK_MS);
      g_source_set_callback (ask->gone_source, on_ask_check, ask, NULL);
    }
  g_source_attach (ask->gone_source, self->context);

  /* Once clients know of it: a decided message must not come first.
   * Where the policy changed after it was judged, it is judged again. */
  if (ask->generation != g_atomic_int_get (&self->settle_generation))
    settle_one (self, ask);
}

void
paddock_exec_monitor_settle_pending (PaddockExecMonitor *self)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  Ask *ask;

  /* Asks judged before this and not held yet are judged again when
   * they are (paddock_exec_hold_ask). */
  g_atomic_int_inc (&self->settle_generation);
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ask))
    g_array_append_val (ids, ask->id);
  g_array_sort (ids, compare_ids);

  /* Settling one may settle others (an answer it remembers): each is
   * looked for again. */
  for (guint i = 0; i < ids->len; i++)
    {
      ask = g_hash_table_lookup (self->pending, &g_array_index (ids, gint64, i));
      if (ask != NULL)
        settle_one (self, ask);
    }
}

void
paddock_exec_end_asks (PaddockExecMonitor *self)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  Ask *ask;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ask))
    {
      ask->held = FALSE;
      g_array_append_val (ids, ask->id);
    }
  g_array_sort (ids, compare_ids);
  for (guint i = 0; i < ids->len; i++)
    paddock_asks_withdraw (self->asks, g_array_index (ids, gint64, i), "session-end");
}
