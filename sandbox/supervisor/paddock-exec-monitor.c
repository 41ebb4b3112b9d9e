/* paddock-exec-monitor.c: every program the agent starts, decided by policy, on a timeline
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The answering thread does only what must happen before the exec may go
 * on: read the caller's path and argv (process_vm_readv), find what it
 * would run (a PATH miss is answered at once, never reported), ask the
 * policy, read what needs the caller alive (its pidfd, parent and
 * working directory), answer. That the answer reached a caller still
 * blocked in its exec says what was read was the caller's (a held exec is
 * checked with SECCOMP_IOCTL_NOTIF_ID_VALID). The audit record (a copy
 * into the page cache) comes right after the answer, while the new
 * program loads.
 * All the rest (protocol messages, exit watches, deadlines, decisions from
 * clients) runs on the main context, which the thread feeds through a
 * queue and one eventfd wake-up per batch.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-source.h"

#include <errno.h>
#include <glib-unix.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* From the answering thread to the main context: a message ready to go
 * (asks), or an exec decided on the spot, whose message the main context
 * builds, so the thread does no more than the kernel waits for. */
typedef struct
{
  PaddockMessage *message;
  ExecInfo       *info;
  gint64          seq;
  gint64          wall;
  gint64          start;           /* monotonic */
  PaddockDecision decision;
  const char     *by;              /* static */
  char           *rule;
  char           *reason;
  int             pidfd;
  Ask            *ask;             /* with an ask message: the exec it holds */
} News;

/* How long the main context takes the news in batches while execs keep coming. */
#define NEWS_BATCH_MS 5

void
paddock_exec_info_free (ExecInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->stdin_from);
  paddock_exec_pipe_reader_free (info->reader);
  g_free (info->writer);
  g_free (info->pipeline);
  g_free (info->path);
  g_free (info->cwd);
  g_free (info->lexical);
  g_free (info->exe);
  g_clear_pointer (&info->shebangs, g_ptr_array_unref);
  g_free (info->known_path);
  g_free (info->known_as);
  g_free (info->script_file);
  g_free (info->script_known_path);
  g_free (info->script_known_as);
  g_clear_pointer (&info->downloads, g_ptr_array_unref);
  g_free (info->saved_from);
  g_clear_pointer (&info->pipe_targets, g_ptr_array_unref);
  if (info->argv != NULL)
    g_ptr_array_unref (info->argv);
  g_free (info);
}

static void
news_free (News *news)
{
  paddock_message_free (news->message);
  paddock_exec_info_free (news->info);
  g_free (news->rule);
  g_free (news->reason);
  paddock_close_fd (&news->pidfd);
  if (news->ask != NULL)
    paddock_exec_ask_free (news->ask);
  g_free (news);
}

PaddockExecMonitor *
paddock_exec_monitor_new (int                             notify_fd,
                          guint                           filter_flags,
                          const PaddockExecMonitorConfig *config,
                          GMainContext                   *context,
                          PaddockExecMonitorFunc          func,
                          gpointer                        user_data)
{
  PaddockExecMonitor *self;

  g_return_val_if_fail (notify_fd >= 0, NULL);
  g_return_val_if_fail (config != NULL && config->policy != NULL, NULL);
  g_return_val_if_fail (config->asks != NULL, NULL);

  self = g_new0 (PaddockExecMonitor, 1);
  self->notify_fd = notify_fd;
  self->filter_flags = filter_flags;
  self->policy = paddock_policy_ref (config->policy);
  self->audit = config->audit;
  self->project = g_strdup (config->project);
  self->home = paddock_policy_dup_home ();
  /* Read here, not on the thread: the environment is the main thread's. */
  self->search_path = g_strdup (g_getenv ("PATH"));
  self->asks = config->asks;
  self->context = context != NULL ? g_main_context_ref (context) : g_main_context_ref_thread_default ();
  self->func = func;
  self->user_data = user_data;
  self->stop_fd = -1;
  self->root_fd = -1;
  self->fd_ceiling = paddock_exec_descriptor_ceiling (&self->fd_reserve);
  self->wake_fd = -1;
  self->exit_fd = -1;
  self->news = g_async_queue_new_full ((GDestroyNotify) news_free);
  g_mutex_init (&self->lock);
  g_mutex_init (&self->downloads_lock);
  self->downloads = g_hash_table_new (g_str_hash, g_str_equal);
  self->pending = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->running = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) paddock_exec_running_free);
  self->features = g_ptr_array_new_with_free_func (g_free);
  self->record = g_string_sized_new (1024);
  self->exit_record = g_string_sized_new (128);
  self->scratch = g_new0 (ReadScratch, 1);
  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) paddock_exec_resolved_exe_free);
  self->readers = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_exec_pipe_reader_free);
  self->page_size = sysconf (_SC_PAGESIZE);
  if (self->page_size <= 0)
    self->page_size = 4096;

  paddock_exec_add_abis (self);

  if (syscall (SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &self->sizes) != 0)
    memset (&self->sizes, 0, sizeof self->sizes);

  g_ptr_array_add (self->features, g_strdup ("seccomp-user-notif"));
  if (self->filter_flags & PADDOCK_EXEC_FILTER_WAIT_KILLABLE)
    g_ptr_array_add (self->features, g_strdup ("wait-killable-recv"));
  paddock_exec_set_up_wake_up (self);
  g_ptr_array_add (self->features, NULL);
  return self;
}

/* "INTERPRETER [ARGUMENT]" of the script's #! line, and " #!…" of each
 * line the kernel follows from there. */
static char *
interpreter_line (const ExecInfo *info)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; i + 1 < info->shebangs->len; i += 2)
    {
      g_string_append_printf (line, "%s%s", i > 0 ? " #!" : "", shebang (info, i));
      if (shebang (info, i + 1) != NULL)
        g_string_append_printf (line, " %s", shebang (info, i + 1));
    }
  return g_string_free (line, FALSE);
}

static PaddockMessage *
exec_message_new (const ExecInfo *info,
                  gint64          seq,
                  gint64          wall,
                  gint64          mono)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  guint n_args = info->argv->len - 1;

  message->seq = seq;
  message->time = wall;
  message->mono = mono;
  message->pid = info->pid;
  message->ppid = info->ppid;
  message->path = g_strdup (info->path);
  message->cwd = g_strdup (info->cwd != NULL ? info->cwd : "");
  message->exe = g_strdup (info->exe);
  message->argv = g_new0 (char *, n_args + 1);
  for (guint i = 0; i < n_args; i++)
    message->argv[i] = g_strdup (g_ptr_array_index (info->argv, i));
  message->argc = info->argc;
  message->truncated = info->truncated;
  if (info->shebangs != NULL)
    message->interpreter = interpreter_line (info);
  message->pipeline = g_strdup (info->pipeline);
  return message;
}

/* The exec's audit record, with the caller's bytes as they were: the same
 * record paddock_audit_append() would write for these fields, serialized
 * here without building them as JSON nodes first. */
static void
audit_exec (PaddockExecMonitor *self,
            const ExecInfo     *info,
            gint64              seq,
            PaddockDecision     decision,
            const char         *by,
            const char         *rule)
{
  GString *out = self->record;
  g_autoptr(GError) error = NULL;

  if (self->audit == NULL)
    return;
  g_string_truncate (out, 0);
  append_int_member (out, "event", seq);
  append_int_member (out, "pid", info->pid);
  append_int_member (out, "ppid", info->ppid);
  append_string_member (out, "cwd", info->cwd != NULL ? info->cwd : "");
  append_string_member (out, "path", info->path);
  append_string_member (out, "exe", info->exe);
  g_string_append (out, ",\"argv\":[");
  for (guint i = 0; i + 1 < info->argv->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      paddock_audit_append_json_string (out, g_ptr_array_index (info->argv, i), -1);
    }
  g_string_append_c (out, ']');
  append_int_member (out, "argc", info->argc);
  if (info->truncated)
    g_string_append (out, ",\"truncated\":true");
  if (info->shebangs != NULL)
    {
      g_autofree char *line = interpreter_line (info);

      append_string_member (out, "interpreter", line);
    }
  if (info->pipeline != NULL)
    append_string_member (out, "pipeline", info->pipeline);
  if (info->known_as != NULL)
    append_string_member (out, "known_as", info->known_as);
  if (info->script_known_as != NULL)
    append_string_member (out, "script_known_as", info->script_known_as);
  append_string_member (out, "decision", paddock_decision_to_string (decision));
  append_string_member (out, "by", by);
  if (rule != NULL)
    append_string_member (out, "rule", rule);
  if (!paddock_audit_append_members (self->audit, PADDOCK_AUDIT_EXEC, out->str, out->len, NULL, &error))
    paddock_audit_print_error (error);
}

/* FALSE when the caller is no longer there to answer (it was killed). */
gboolean
paddock_exec_respond (PaddockExecMonitor *self,
                      guint64             cookie,
                      int                 err)
{
  g_autofree struct seccomp_notif_resp *resp =
    g_malloc0 (MAX (self->sizes.seccomp_notif_resp, sizeof (struct seccomp_notif_resp)));

  resp->id = cookie;
  if (err == 0)
    resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  else
    resp->error = -err;
  if (ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_SEND, resp) == 0)
    return TRUE;
  /* ENOENT: the caller died meanwhile; nothing ran. */
  if (errno != ENOENT)
    paddock_printerr ("cannot answer an exec: %s", g_strerror (errno));
  return FALSE;
}

/* Wakes the main context for the news queued, unless a batch already runs. */
static void
wake (PaddockExecMonitor *self)
{
  guint64 one = 1;

  if (g_atomic_int_compare_and_exchange (&self->wake_pending, 0, 1))
    if (write (self->wake_fd, &one, sizeof one) < 0)
      g_atomic_int_set (&self->wake_pending, 0);
}

static void
post (PaddockExecMonitor *self,
      News               *news)
{
  g_async_queue_push (self->news, news);
  wake (self);
}

/* The next event's number, once its exec was answered or is held: the
 * registry's, which numbers the asks of other kinds too. */
static gint64
take_seq (PaddockExecMonitor *self)
{
  return paddock_asks_next_id (self->asks);
}

/* For @rule, a "downloaded" rule that decided @query, the downloaded
 * file @query runs; else NULL. */
static char *
rule_download (const PaddockPolicyQuery *query,
               PaddockPolicyRule        *rule)
{
  if (rule == NULL || !paddock_policy_rule_get_downloaded (rule) || query->downloaded_func == NULL)
    return NULL;
  return paddock_policy_query_downloaded (query);
}

/* Every level of @info is judged, and the strictest decision holds, with
 * the rule that made it; the levels that ask are noted, for an answer to
 * remember them all. */
PaddockPolicyAction
paddock_exec_judge_levels (PaddockExecMonitor        *self,
                           ExecInfo                  *info,
                           const PaddockPolicyQuery  *query,
                           PaddockPolicyRule        **rule)
{
  g_autoptr(GPtrArray) argvs = NULL;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  guint n = paddock_exec_level_queries (query, info->path, info->shebangs, &argvs, levels);

  n = paddock_exec_add_pipe_level (info, query, levels, n);
  /* A hard link or a copy of a program a rule names: judged as it too. */
  if (info->known_path != NULL && n < PADDOCK_EXEC_MAX_LEVELS)
    {
      levels[n] = *query;
      levels[n].resolved = info->known_path;
      n++;
    }
  /* A script given to a shell or an interpreter, as if it ran by its #!
   * line: its own command, and as the program it is a copy of. */
  if (info->script_file != NULL && n < PADDOCK_EXEC_MAX_LEVELS)
    {
      levels[n] = *query;
      levels[n].exe = info->script_file;
      levels[n].resolved = info->script_file;
      levels[n].argv = (const char * const *) info->argv->pdata + info->script_operand;
      n++;
      if (info->script_known_path != NULL && n < PADDOCK_EXEC_MAX_LEVELS)
        {
          levels[n] = levels[n - 1];
          levels[n].resolved = info->script_known_path;
          n++;
        }
    }
  return paddock_policy_evaluate_levels (self->policy, levels, n, rule, NULL, &info->asked_levels);
}

/* @reason (taken), saying what the file is where @rule decided because
 * it is a hard link or a copy of a program the rule names. */
static char *
identity_reason (PaddockExecMonitor       *self,
                 const ExecInfo           *info,
                 const PaddockPolicyQuery *query,
                 PaddockPolicyRule        *rule,
                 char                     *reason)
{
  g_autoptr(PaddockPolicyRule) by_identity = NULL;
  PaddockPolicyQuery as_known = *query;
  const char *file = info->exe;
  const char *known_as = info->known_as;
  char *text;

  if (rule == NULL)
    return reason;
  if (known_as != NULL)
    as_known.resolved = info->known_path;
  else if (info->script_known_as != NULL)
    {
      file = info->script_file;
      known_as = info->script_known_as;
      as_known.exe = info->script_file;
      as_known.resolved = info->script_known_path;
      as_known.argv = (const char * const *) info->argv->pdata + info->script_operand;
    }
  else
    return reason;
  paddock_policy_evaluate (self->policy, &as_known, &by_identity);
  if (by_identity != rule)
    return reason;
  text = g_strdup_printf ("%s is %s.%s%s", file, known_as,
                          reason != NULL ? " " : "", reason != NULL ? reason : "");
  g_free (reason);
  return text;
}

static void
handle_notification (PaddockExecMonitor   *self,
                     struct seccomp_notif *req)
{
  g_autoptr(ExecInfo) info = g_new0 (ExecInfo, 1);
  g_autoptr(PaddockPolicyRule) rule = NULL;
  g_autofree char *download = NULL;
  PaddockPolicyQuery query;
  PaddockPolicyAction action;
  PaddockMessage *message;
  PaddockMessage *ask_message;
  PaddockDecision unattended;
  Ask *ask;
  const ExecAbi *abi;
  gboolean is_execveat;
  Call call;
  gint64 mono = g_get_monotonic_time ();
  gint64 wall = g_get_real_time ();
  const char *by;
  const char *rule_name = NULL;
  PaddockDecision decision;
  int pidfd = -1;
  int err;
  gint64 seq;
  /* Read before the policy is: a rule added after it is looked at gets
   * this ask judged again once it is announced. */
  gint generation = g_atomic_int_get (&self->settle_generation);

  abi = find_abi (self, req->data.arch, req->data.nr, &call);
  if (abi == NULL)
    {
      paddock_exec_respond (self, req->id, EACCES);
      return;
    }
  if (call == CALL_ROOT)
    {
      /* From now on each exec's root is looked at (before the call goes on). */
      self->roots_may_differ = TRUE;
      paddock_exec_respond (self, req->id, 0);
      return;
    }
  is_execveat = call == CALL_EXECVEAT;
  if (self->root_fd < 0 && !self->roots_may_differ)
    paddock_exec_open_agent_root (self, req);

  err = paddock_exec_read_caller (self, req, abi, is_execveat, info);
  if (err != 0)
    {
      /* What the kernel would say, so a PATH search goes on; never a run. */
      if (err != ESRCH)
        paddock_exec_respond (self, req->id, err);
      return;
    }

  query = (PaddockPolicyQuery) {
    .exe = info->lexical,
    .argv = (const char * const *) info->argv->pdata,
    .project = self->project,
    .home = self->home,
    .cwd_func = paddock_exec_load_cwd,
    .cwd_data = info,
    .resolved = info->exe,
    .unlinked = info->unlinked,
  };
  {
    guint operand = paddock_policy_query_script_operand (&query);

    if (operand > 0)
      paddock_exec_read_script (self, info, operand);
  }
  close_ended_clones (self);
  query_downloads (self, info, &query);
  paddock_exec_find_pipe_end (self, info, &query, mono);
  action = paddock_exec_judge_levels (self, info, &query, &rule);
  by = decided_by (rule);
  if (rule != NULL)
    rule_name = paddock_policy_rule_get_name (rule);

  decision = action == PADDOCK_POLICY_ACTION_ALLOW ? PADDOCK_DECISION_ALLOW :
             action == PADDOCK_POLICY_ACTION_DENY ? PADDOCK_DECISION_DENY : PADDOCK_DECISION_ASK;
  if (decision == PADDOCK_DECISION_ASK && paddock_exec_was_refused (self, info, mono))
    {
      decision = PADDOCK_DECISION_DENY;
      by = "repeat";
    }
  /* As the registry would decide it (--on-ask), on the spot. */
  if (decision == PADDOCK_DECISION_ASK && (unattended = paddock_asks_unattended (self->asks)) != PADDOCK_DECISION_ASK)
    {
      decision = unattended;
      by = "no-client";
    }

  if (decision != PADDOCK_DECISION_ASK)
    {
      News *news;

      /* What needs the live process (its pidfd, its parent, its working
       * directory if the decision did not read it) is read before the
       * answer: once answered, a short program may end, its working
       * directory going with its exit, and be reaped before this thread
       * runs again. Read after the answer, 1500 /bin/false lost their
       * directory 20-30 times with the CPUs idle, 44-154 times beside
       * two busy loops, where a pidfd opened late also missed a fifth of
       * their ends. Until the news is queued, the main context takes no
       * exit of this pid (see paddock_exec_on_exits). */
      paddock_exec_read_process (self, req->pid, info, decision == PADDOCK_DECISION_ALLOW ? &pidfd : NULL);
      if (decision == PADDOCK_DECISION_ALLOW)
        {
          paddock_exec_find_downloads (self, info);
          paddock_exec_note_image (info);
        }
      g_atomic_int_set (&self->answering, info->pid);
      /* Answered, the caller was still blocked in this exec: what was
       * read is its, and so is the pidfd. */
      if (!paddock_exec_respond (self, req->id, decision == PADDOCK_DECISION_ALLOW ? 0 : EACCES))
        {
          paddock_close_fd (&pidfd);
          g_atomic_int_set (&self->answering, 0);
          return;
        }
      seq = take_seq (self);
      audit_exec (self, info, seq, decision, by, rule_name);
      if (decision == PADDOCK_DECISION_ALLOW)
        {
          keep_recent_exec (self, info);
          paddock_exec_note_download (self, info, seq, pidfd);
          if (info->script_pipe != 0)
            paddock_exec_keep_pipe_reader (self, info);
        }

      news = g_new0 (News, 1);
      news->info = g_steal_pointer (&info);
      news->seq = seq;
      news->wall = wall;
      news->start = mono;
      news->decision = decision;
      news->by = by;
      news->rule = g_strdup (rule_name);
      download = rule_download (&query, rule);
      news->reason = identity_reason (self, news->info, &query, rule,
                                      paddock_exec_decision_reason (self, rule, download, news->info->tid));
      news->pidfd = pidfd;
      g_async_queue_push (self->news, news);
      g_atomic_int_set (&self->answering, 0);
      wake (self);
      if (self->audit != NULL)
        paddock_audit_prefault (self->audit);
      return;
    }

  /* An ask: held in the kernel until it is decided on the main context,
   * and recorded before anyone can decide it. Its pidfd also tells
   * whether the process waits on. */
  paddock_exec_read_process (self, req->pid, info, &pidfd);
  paddock_exec_find_downloads (self, info);
  paddock_exec_note_image (info);
  /* Still the same process, blocked in this exec: what was read is its,
   * and so is the pidfd. */
  if (ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) != 0)
    {
      paddock_close_fd (&pidfd);
      return;
    }
  seq = take_seq (self);
  audit_exec (self, info, seq, decision, by, rule_name);
  if (info->script_pipe != 0)
    paddock_exec_keep_pipe_reader (self, info);

  message = exec_message_new (info, seq, wall, mono);
  message->decision = decision;
  message->by = g_strdup (by);
  message->rule = g_strdup (rule_name);
  download = rule_download (&query, rule);
  message->reason = identity_reason (self, info, &query, rule,
                                     paddock_exec_decision_reason (self, rule, download, info->tid));

  ask_message = paddock_message_copy (message);
  ask_message->type = PADDOCK_MESSAGE_ASK;
  ask_message->id = seq;
  ask_message->seq = -1;
  ask_message->decision = PADDOCK_DECISION_NONE;
  g_clear_pointer (&ask_message->by, g_free);
  /* Its deadline is the registry's, from the exec's time (mono). */

  ask = g_new0 (Ask, 1);
  ask->monitor = self;
  ask->id = seq;
  ask->cookie = req->id;
  ask->info = g_steal_pointer (&info);
  ask->pidfd = pidfd;
  ask->generation = generation;
  ask->download = g_steal_pointer (&download);

  post (self, g_memdup2 (&(News) { .message = message, .pidfd = -1, .start = mono }, sizeof (News)));
  post (self, g_memdup2 (&(News) { .message = ask_message, .pidfd = -1, .start = mono, .ask = ask }, sizeof (News)));
}

static gpointer
monitor_thread (gpointer data)
{
  PaddockExecMonitor *self = data;
  gsize size = MAX (self->sizes.seccomp_notif, sizeof (struct seccomp_notif));
  g_autofree struct seccomp_notif *req = g_malloc0 (size);
  struct pollfd fds[2] = {
    { .fd = self->notify_fd, .events = POLLIN },
    { .fd = self->stop_fd, .events = POLLIN },
  };

  for (;;)
    {
      if (poll (fds, G_N_ELEMENTS (fds), -1) < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (fds[1].revents != 0)
        break;
      /* Hung up: no process is left under the filter. */
      if ((fds[0].revents & POLLIN) == 0)
        break;

      memset (req, 0, size);
      if (ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_RECV, req) != 0)
        {
          if (errno == EINTR || errno == ENOENT)
            continue;
          break;
        }
      handle_notification (self, req);
    }
  return NULL;
}

guint
paddock_exec_drain_news (PaddockExecMonitor *self)
{
  News *news;
  guint n = 0;

  while ((news = g_async_queue_try_pop (self->news)) != NULL)
    {
      PaddockMessage *message = news->message;

      if (message == NULL)
        {
          message = news->message = exec_message_new (news->info, news->seq, news->wall, news->start);
          message->decision = news->decision;
          message->by = g_strdup (news->by);
          message->rule = g_steal_pointer (&news->rule);
          message->reason = g_strdup (news->reason);
        }

      if (message->type == PADDOCK_MESSAGE_EXEC)
        {
          if (message->decision == PADDOCK_DECISION_ALLOW)
            {
              replace_running (self, message->pid);
              paddock_exec_start_running (self, message->seq, message->pid, news->start,
                             paddock_steal_fd (&news->pidfd), news->info);
            }
        }
      else if (message->type == PADDOCK_MESSAGE_ASK)
        {
          Ask *ask = g_steal_pointer (&news->ask);

          /* The registry announces it, after its exec message. */
          news->message = NULL;
          news_free (news);
          n++;
          paddock_exec_hold_ask (self, ask, message);
          continue;
        }

      news->message = NULL;
      emit (self, message);
      news_free (news);
      n++;
    }
  if (n > 0)
    paddock_exec_choose_wake_up (self);
  return n;
}

/* While execs keep coming, the thread does not wake the main context for
 * each one: this picks them up in batches until a round finds none. A
 * source of its own rather than a timeout: GLib wakes the main loop up
 * (an eventfd write and a spare poll) whenever a timeout is armed. */
typedef struct
{
  GSource             source;
  PaddockExecMonitor *monitor;
  gint64              due;         /* monotonic; 0 while no batch runs */
} BatchSource;

static gboolean
batch_prepare (GSource *source,
               gint    *timeout)
{
  BatchSource *batch = (BatchSource *) source;
  gint64 now;

  *timeout = -1;
  if (batch->due == 0)
    return FALSE;
  now = g_source_get_time (source);
  if (now >= batch->due)
    return TRUE;
  *timeout = (gint) ((batch->due - now + 999) / 1000);
  return FALSE;
}

static gboolean
batch_check (GSource *source)
{
  BatchSource *batch = (BatchSource *) source;

  return batch->due != 0 && g_source_get_time (source) >= batch->due;
}

void
paddock_exec_monitor_flush (PaddockExecMonitor *self)
{
  g_return_if_fail (self != NULL);

  /* As drain_news_before_exit(): the thread pushes its news soon after
   * it answers, and waits on nothing of ours meanwhile. */
  while (g_atomic_int_get (&self->answering) != 0)
    g_thread_yield ();
  paddock_exec_drain_news (self);
}

/* No batch runs from here: the thread's next news wakes us. */
static void
end_batch (PaddockExecMonitor *self)
{
  ((BatchSource *) self->batch_source)->due = 0;
  g_atomic_int_set (&self->wake_pending, 0);
  /* Anything queued before the reset did not wake us: take it now. */
  paddock_exec_drain_news (self);
}

static gboolean
batch_dispatch (GSource    *source,
                GSourceFunc callback,
                gpointer    user_data)
{
  BatchSource *batch = (BatchSource *) source;
  PaddockExecMonitor *self = batch->monitor;

  if (paddock_exec_drain_news (self) > 0)
    {
      batch->due = g_source_get_time (source) + NEWS_BATCH_MS * 1000;
      return G_SOURCE_CONTINUE;
    }
  end_batch (self);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs batch_funcs = {
  .prepare = batch_prepare,
  .check = batch_check,
  .dispatch = batch_dispatch,
};

/* A wake-up for news starts a batch only when the last one came less than
 * a batch ago: an exec now and then (a build's, a few milliseconds apart)
 * is taken at once, without a round that would find nothing. */
static gboolean
on_news (int          fd,
         GIOCondition condition,
         gpointer     user_data)
{
  PaddockExecMonitor *self = user_data;
  BatchSource *batch = (BatchSource *) self->batch_source;
  gint64 now = g_get_monotonic_time ();
  gboolean burst = now - self->last_news_wake < NEWS_BATCH_MS * 1000;
  guint64 count;

  if (read (fd, &count, sizeof count) < 0 && errno != EAGAIN)
    return G_SOURCE_CONTINUE;
  self->last_news_wake = now;
  /* end_batch() takes the news itself, after letting the thread wake us. */
  if (batch->due == 0 && !burst)
    {
      end_batch (self);
      return G_SOURCE_CONTINUE;
    }
  paddock_exec_drain_news (self);
  if (batch->due == 0)
    batch->due = now + NEWS_BATCH_MS * 1000;
  return G_SOURCE_CONTINUE;
}

gboolean
paddock_exec_monitor_start (PaddockExecMonitor  *self,
                            GError             **error)
{
  g_return_val_if_fail (self->thread == NULL, FALSE);

  self->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->exit_fd = epoll_create1 (EPOLL_CLOEXEC);
  if (self->stop_fd < 0 || self->wake_fd < 0 || self->exit_fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot start the exec monitor: %s", g_strerror (saved_errno));
      return FALSE;
    }
  self->wake_source = g_unix_fd_source_new (self->wake_fd, G_IO_IN);
  g_source_set_callback (self->wake_source, (GSourceFunc) (GCallback) on_news, self, NULL);
  g_source_set_priority (self->wake_source, G_PRIORITY_HIGH);
  /* Dispatching a source that may not recurse takes its fd out of the
   * poll set and puts it back, and GLib 2.74 wakes the loop up for each
   * (two eventfd writes and a spare poll per dispatch); the callbacks
   * here run no main loop of their own. */
  g_source_set_can_recurse (self->wake_source, TRUE);
  g_source_attach (self->wake_source, self->context);
  self->batch_source = g_source_new (&batch_funcs, sizeof (BatchSource));
  ((BatchSource *) self->batch_source)->monitor = self;
  g_source_attach (self->batch_source, self->context);
  self->exit_source = g_unix_fd_source_new (self->exit_fd, G_IO_IN);
  g_source_set_callback (self->exit_source, (GSourceFunc) (GCallback) paddock_exec_on_exits, self, NULL);
  g_source_set_can_recurse (self->exit_source, TRUE);
  g_source_attach (self->exit_source, self->context);

  paddock_exec_start_wake_up (self);

  self->thread = g_thread_try_new ("exec-monitor", monitor_thread, self, error);
  return self->thread != NULL;
}

void
paddock_exec_monitor_stop (PaddockExecMonitor *self)
{
  guint64 one = 1;

  if (!g_atomic_int_compare_and_exchange (&self->stopped, 0, 1))
    return;
  if (self->thread != NULL)
    {
      if (write (self->stop_fd, &one, sizeof one) < 0)
        paddock_printerr ("cannot stop the exec monitor: %s", g_strerror (errno));
      g_thread_join (g_steal_pointer (&self->thread));
    }
  /* From here every exec under the filter fails with ENOSYS. */
  paddock_close_fd (&self->notify_fd);

  paddock_exec_drain_news (self);
  paddock_clear_source (&self->batch_source);

  /* The tree is gone by now: close the runs the main loop did not see end. */
  paddock_exec_end_runs (self);
  /* Held execs now fail in the kernel; record them as ended with the session. */
  paddock_exec_end_asks (self);
}

void
paddock_exec_monitor_free (PaddockExecMonitor *self)
{
  if (self == NULL)
    return;
  paddock_exec_monitor_stop (self);
  paddock_clear_source (&self->wake_source);
  paddock_clear_source (&self->exit_source);
  g_hash_table_destroy (self->running);
  g_queue_clear_full (&self->reaping, (GDestroyNotify) paddock_exec_running_free);
  paddock_clear_source (&self->reap_source);
  paddock_close_fd (&self->exit_fd);
  g_queue_clear_full (&self->refused, (GDestroyNotify) paddock_exec_refusal_free);
  g_hash_table_destroy (self->pending);
  g_async_queue_unref (self->news);
  g_mutex_clear (&self->lock);
  g_hash_table_destroy (self->downloads);
  g_queue_clear_full (&self->downloads_order, (GDestroyNotify) paddock_exec_download_free);
  g_queue_clear_full (&self->piped, (GDestroyNotify) paddock_exec_pipe_end_free);
  g_mutex_clear (&self->downloads_lock);
  paddock_close_fd (&self->stop_fd);
  paddock_close_fd (&self->wake_fd);
  paddock_close_fd (&self->root_fd);
  g_ptr_array_unref (self->features);
  paddock_cpu_idle_free (self->cpu_idle);
  g_string_free (self->record, TRUE);
  g_string_free (self->exit_record, TRUE);
  g_free (self->scratch);
  g_hash_table_destroy (self->resolved);
  paddock_exec_identities_clear (self);
  g_free (self->search_path);
  g_ptr_array_unref (self->readers);
  for (guint i = 0; i < G_N_ELEMENTS (self->recent); i++)
    recent_exec_clear (&self->recent[i]);
  g_main_context_unref (self->context);
  paddock_policy_unref (self->policy);
  g_free (self->project);
  g_free (self->home);
  g_free (self);
}

const char * const *
paddock_exec_monitor_get_features (PaddockExecMonitor *self)
{
  return (const char * const *) self->features->pdata;
}

guint64
paddock_exec_monitor_get_n_events (PaddockExecMonitor *self)
{
  return (guint64) paddock_asks_get_n_ids (self->asks);
}
