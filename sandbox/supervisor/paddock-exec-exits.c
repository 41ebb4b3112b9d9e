/* paddock-exec-exits.c: the runs the agent's execs start, and how they end
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each exec let go on starts a run, watched through a pidfd of its process
 * (one epoll for all of them), and ended by its process's exit or its
 * next exec. The descriptors held for runs stay below a ceiling, so that
 * the supervisor keeps some for its own work.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-source.h"

#include <glib-unix.h>
#include <signal.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct _Running
{
  PaddockExecMonitor *monitor;
  gint64              seq;
  pid_t               pid;
  gint64              start;       /* monotonic */
  gint64              ended;       /* monotonic, once its exit was seen; else 0 */
  int                 exit_code;   /* once known (read_exit_status); else -1 */
  int                 signal;      /* likewise; else 0 */
  int                 pidfd;
  GSource            *source;      /* only when exit_fd could not take the pidfd */
  /* The check of what runs (check_what_runs): */
  guint64             run_dev;     /* the file judged, as /proc/PID/exe will show it; 0: no check */
  guint64             run_ino;
  guint64             old_dev;     /* the image the exec replaces */
  guint64             old_ino;
  GSource            *check_source;
  guint               check_delay; /* ms */
  gint64              check_until; /* monotonic */
};

/* How long a run's exec may take to be done, at most, before its check
 * gives up (the exec failed, and the caller goes on as it was). */
#define CHECK_WAIT_MS 10000
#define CHECK_DELAY_MAX_MS 64

/* A pidfd tells how a process ended (Linux 6.15) only once its parent has
 * reaped it, a moment after the exit the pidfd reports: an ended run
 * waits that long, at most REAP_WAIT_MS, for its exit code. */
#define REAP_WAIT_MS 100
#define REAP_POLL_MS 5

#define EXITS_PER_ROUND 64

void
paddock_exec_running_free (Running *running)
{
  paddock_clear_source (&running->source);
  paddock_clear_source (&running->check_source);
  paddock_close_fd (&running->pidfd);
  g_free (running);
}

/* Below this, descriptors held for the agent's programs. However many
 * programs the agent runs at once, the supervisor keeps the rest, the
 * *@reserve above it, for its own work: to place a control client's
 * peer, to walk /proc for a kill or a pause, to answer an exec. A
 * quarter of the limit, 16 to 256. */
int
paddock_exec_descriptor_ceiling (int *reserve)
{
  struct rlimit limit;

  *reserve = 0;
  if (getrlimit (RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= (rlim_t) G_MAXINT)
    return G_MAXINT;
  *reserve = (int) MIN (CLAMP (limit.rlim_cur / 4, 16, 256), limit.rlim_cur);
  return (int) limit.rlim_cur - *reserve;
}

typedef enum
{
  EXIT_STATUS_KNOWN,     /* in running->exit_code or ->signal */
  EXIT_STATUS_LATER,     /* once the parent has reaped the process */
  EXIT_STATUS_NEVER,     /* this kernel does not tell */
} ExitStatus;

/* How @running's process ended, into @running: any process's on Linux
 * 6.15 and later, once its parent has reaped it; paddock-run's own
 * children's (the agent, orphans) on any kernel. */
static ExitStatus
read_exit_status (Running *running)
{
  PaddockPidfdInfo info = { .mask = PADDOCK_PIDFD_INFO_EXIT };
  siginfo_t status = { 0 };
  gboolean has_info;
  gboolean reaped;

  if (running->pidfd < 0)
    return EXIT_STATUS_NEVER;
  has_info = ioctl (running->pidfd, PADDOCK_PIDFD_GET_INFO, &info) == 0;
  /* Gone, its exit not on file: for a run reaped that moment (1 in 300
   * of test-exec-monitor's short-runs, sanitizer build, two busy loops beside),
   * a later try found it. Linux 6.13 and 6.14 never file it: there such
   * a run waits out REAP_WAIT_MS. */
  reaped = !has_info && errno == ESRCH;
  if (has_info && (info.mask & PADDOCK_PIDFD_INFO_EXIT) != 0)
    {
      if (WIFEXITED (info.exit_code))
        running->exit_code = WEXITSTATUS (info.exit_code);
      else if (WIFSIGNALED (info.exit_code))
        running->signal = WTERMSIG (info.exit_code);
      return EXIT_STATUS_KNOWN;
    }
  if (waitid (P_PIDFD, running->pidfd, &status, WEXITED | WNOHANG | WNOWAIT) == 0 && status.si_pid != 0)
    {
      if (status.si_code == CLD_EXITED)
        running->exit_code = status.si_status;
      else
        running->signal = status.si_status;
      return EXIT_STATUS_KNOWN;
    }
  /* Where the kernel has no pidfd information at all it will never tell. */
  return has_info || reaped ? EXIT_STATUS_LATER : EXIT_STATUS_NEVER;
}

void
paddock_exec_end_running (PaddockExecMonitor *self,
                          Running            *running,
                          gboolean            replaced)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  GString *out = self->exit_record;

  paddock_exec_end_clone (self, running->seq);
  message->seq = running->seq;
  message->pid = running->pid;
  message->time = g_get_real_time ();
  message->duration = (running->ended != 0 ? running->ended : g_get_monotonic_time ()) - running->start;
  message->exit_code = running->exit_code;
  message->signal = running->signal;
  message->replaced = replaced;

  if (self->audit != NULL)
    {
      g_autoptr(GError) error = NULL;

      g_string_truncate (out, 0);
      append_int_member (out, "event", running->seq);
      append_int_member (out, "pid", running->pid);
      append_int_member (out, "duration_us", message->duration);
      if (message->exit_code >= 0)
        append_int_member (out, "exit_code", message->exit_code);
      if (message->signal > 0)
        append_int_member (out, "signal", message->signal);
      if (replaced)
        {
          append_key (out, "replaced");
          g_string_append (out, "true");
        }
      if (!paddock_audit_append_members (self->audit, PADDOCK_AUDIT_EXIT, out->str, out->len, NULL, &error))
        paddock_audit_print_error (error);
    }
  emit (self, g_steal_pointer (&message));
}

/* Ends @running, with how it ended where that is known, and frees it. */
static void
finish_running (PaddockExecMonitor *self,
                Running            *running)
{
  paddock_exec_end_running (self, running, FALSE);
  paddock_exec_running_free (running);
}

/* Ends the runs whose status is known, or that waited long enough. */
static gboolean
on_reap_tick (gpointer user_data)
{
  PaddockExecMonitor *self = user_data;
  gint64 now = g_get_monotonic_time ();
  GList *l = self->reaping.head;

  while (l != NULL)
    {
      GList *next = l->next;
      Running *running = l->data;

      if (read_exit_status (running) == EXIT_STATUS_KNOWN || now - running->ended >= REAP_WAIT_MS * 1000)
        {
          g_queue_delete_link (&self->reaping, l);
          finish_running (self, running);
        }
      l = next;
    }
  if (self->reaping.length > 0)
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&self->reap_source, g_source_unref);
  return G_SOURCE_REMOVE;
}

/* @running's process ended (the run is no longer in self->running). */
static void
run_exited (PaddockExecMonitor *self,
            Running            *running)
{
  running->ended = g_get_monotonic_time ();
  if (read_exit_status (running) != EXIT_STATUS_LATER)
    {
      finish_running (self, running);
      return;
    }
  g_queue_push_tail (&self->reaping, running);
  if (self->reap_source == NULL)
    {
      self->reap_source = g_timeout_source_new (REAP_POLL_MS);
      g_source_set_callback (self->reap_source, on_reap_tick, self, NULL);
      g_source_attach (self->reap_source, self->context);
    }
}

/* Before @pid's end is taken: the thread answers an exec, then records it
 * and queues its news. @pid's last exec was answered before it ended, so
 * once the thread is past that pid, its news is in the queue, even where
 * the thread lost its CPU between the answer and the queue and the
 * program ended meanwhile. Drained, a program that exec'd and then ended
 * ends its new run, not the one it replaced. */
static void
drain_news_before_exit (PaddockExecMonitor *self,
                        pid_t               pid)
{
  while (pid == g_atomic_int_get (&self->answering))
    g_thread_yield ();
  paddock_exec_drain_news (self);
}

static gboolean
on_running_exit (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  Running *running = user_data;
  PaddockExecMonitor *self = running->monitor;
  pid_t pid = running->pid;
  gint64 seq = running->seq;

  /* The source goes with this call's return, not with the run. */
  g_clear_pointer (&running->source, g_source_unref);
  drain_news_before_exit (self, pid);
  /* A new exec in the news ended and freed this run as replaced. */
  running = g_hash_table_lookup (self->running, GINT_TO_POINTER (pid));
  if (running == NULL || running->seq != seq)
    return G_SOURCE_REMOVE;
  g_hash_table_steal (self->running, GINT_TO_POINTER (running->pid));
  run_exited (self, running);
  return G_SOURCE_REMOVE;
}

void
paddock_exec_note_image (ExecInfo *info)
{
  char path[48];
  struct stat st;

  g_snprintf (path, sizeof path, "/proc/%d/exe", (int) info->tid);
  if (stat (path, &st) == 0)
    {
      info->old_dev = st.st_dev;
      info->old_ino = st.st_ino;
    }
}

/* What @running's process runs is not what was judged: recorded as such,
 * and ended. @path is its /proc/PID/exe. */
static void
mismatch (PaddockExecMonitor *self,
          Running            *running,
          const char         *path)
{
  g_autofree char *exe = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  PaddockMessage *message;
  gint64 seq;
  char target[4096];
  ssize_t n = readlink (path, target, sizeof target - 1);

  exe = n > 0 ? g_strndup (target, n) : g_strdup ("");
  syscall (SYS_pidfd_send_signal, running->pidfd, SIGKILL, NULL, 0);
  reason = g_strdup_printf ("Process %d runs %s, not the program exec #%" G_GINT64_FORMAT
                            " was judged and allowed for (its path changed between the check"
                            " and the exec): killed.", (int) running->pid, exe, running->seq);

  seq = paddock_asks_next_id (self->asks);

  if (self->audit != NULL)
    {
      g_autoptr(GError) error = NULL;

      append_int_member (out, "event", seq);
      append_int_member (out, "pid", running->pid);
      append_string_member (out, "path", exe);
      append_string_member (out, "exe", exe);
      g_string_append (out, ",\"argv\":[]");
      append_int_member (out, "argc", 0);
      append_string_member (out, "decision", paddock_decision_to_string (PADDOCK_DECISION_DENY));
      append_string_member (out, "by", "mismatch");
      append_int_member (out, "judged", running->seq);
      append_string_member (out, "reason", reason);
      if (!paddock_audit_append_members (self->audit, PADDOCK_AUDIT_EXEC, out->str, out->len, NULL, &error))
        paddock_audit_print_error (error);
    }

  message = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  message->seq = seq;
  message->time = g_get_real_time ();
  message->mono = g_get_monotonic_time ();
  message->pid = running->pid;
  message->path = g_strdup (exe);
  message->exe = g_strdup (exe);
  message->cwd = g_strdup ("");
  message->argv = g_new0 (char *, 1);
  message->decision = PADDOCK_DECISION_DENY;
  message->by = g_strdup ("mismatch");
  message->reason = g_steal_pointer (&reason);
  emit (self, message);
}

/* Whether @st is an interpreter binfmt_misc runs files with (qemu-user
 * for another architecture's programs, Wine, a JVM): there the kernel
 * runs it, not the file judged, and /proc/PID/exe says so. Read when
 * needed, which is rarely: the kernel's list can change. */
static gboolean
is_binfmt_interpreter (const struct stat *st)
{
  static const char dir_path[] = "/proc/sys/fs/binfmt_misc";
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      const char *line;

      if (strcmp (name, "register") == 0 || strcmp (name, "status") == 0)
        continue;
      path = g_build_filename (dir_path, name, NULL);
      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      line = strstr (text, "interpreter ");
      if (line != NULL && (line == text || line[-1] == '\n'))
        {
          g_autofree char *interpreter = g_strndup (line + strlen ("interpreter "),
                                                    strcspn (line + strlen ("interpreter "), "\n"));
          struct stat its;

          if (stat (interpreter, &its) == 0 && its.st_dev == st->st_dev && its.st_ino == st->st_ino)
            return TRUE;
        }
    }
  return FALSE;
}

typedef enum
{
  CHECK_DONE,
  CHECK_LATER,     /* the exec is not done yet, or a newer one may be */
} Check;

/* Whether @running's process runs the file that was judged: /proc/PID/exe
 * is that file once the exec is done, the image it replaces until then.
 * Anything else, where no newer exec of the process was let go on
 * meanwhile, is a file put in the judged one's place (a path swapped in
 * the caller's memory after it was read, a rename) and is ended. */
static Check
check_what_runs (PaddockExecMonitor *self,
                 Running            *running)
{
  char path[48];
  struct stat st;

  /* Ended (most short programs have by the time their news is taken
   * in): nothing to look at, and its pid may be another's. A poll costs
   * a tenth of the stat (6 us here). */
  if (poll (&(struct pollfd) { .fd = running->pidfd, .events = POLLIN }, 1, 0) != 0)
    return CHECK_DONE;
  g_snprintf (path, sizeof path, "/proc/%d/exe", (int) running->pid);
  if (stat (path, &st) != 0)
    return CHECK_DONE;
  if (st.st_dev == running->run_dev && st.st_ino == running->run_ino)
    return CHECK_DONE;
  if (st.st_dev == running->old_dev && st.st_ino == running->old_ino)
    return CHECK_LATER;
  /* It may have ended since the poll. */
  if (poll (&(struct pollfd) { .fd = running->pidfd, .events = POLLIN }, 1, 0) != 0)
    return CHECK_DONE;
  /* A newer exec, answered and not yet in the news, may be what runs. */
  if (g_atomic_int_get (&self->answering) == running->pid || g_async_queue_length (self->news) > 0)
    return CHECK_LATER;
  if (is_binfmt_interpreter (&st))
    return CHECK_DONE;
  mismatch (self, running, path);
  return CHECK_DONE;
}

static gboolean
on_check (gpointer user_data)
{
  Running *running = user_data;
  PaddockExecMonitor *self = running->monitor;
  pid_t pid = running->pid;
  gint64 seq = running->seq;

  g_clear_pointer (&running->check_source, g_source_unref);
  /* Newer execs first: one of this pid's ends this run and its check. */
  if (g_async_queue_length (self->news) > 0)
    {
      paddock_exec_drain_news (self);
      running = g_hash_table_lookup (self->running, GINT_TO_POINTER (pid));
      if (running == NULL || running->seq != seq)
        return G_SOURCE_REMOVE;
    }
  if (check_what_runs (self, running) == CHECK_LATER && g_get_monotonic_time () < running->check_until)
    {
      running->check_delay = MIN (running->check_delay * 2, CHECK_DELAY_MAX_MS);
      running->check_source = g_timeout_source_new (running->check_delay);
      g_source_set_callback (running->check_source, on_check, running, NULL);
      g_source_attach (running->check_source, self->context);
    }
  return G_SOURCE_REMOVE;
}

void
paddock_exec_start_running (PaddockExecMonitor *self,
                            gint64              seq,
                            pid_t               pid,
                            gint64              start,
                            int                 pidfd,
                            const ExecInfo     *info)
{
  Running *running;

  if (pidfd < 0)
    return;
  running = g_new0 (Running, 1);
  running->monitor = self;
  running->seq = seq;
  running->pid = pid;
  running->start = start;
  running->exit_code = -1;
  running->pidfd = pidfd;
  /* One epoll for all runs: a GSource per run would add and remove a poll
   * record, and wake the main loop for each, on every exec. One-shot, and
   * named by pid and pidfd, so a stale registration fires once, is ignored. */
  if (self->exit_fd < 0 ||
      epoll_ctl (self->exit_fd, EPOLL_CTL_ADD, pidfd,
                 &(struct epoll_event) {
                   .events = EPOLLIN | EPOLLONESHOT,
                   .data.u64 = ((guint64) (guint32) pidfd << 32) | (guint32) pid,
                 }) != 0)
    {
      running->source = g_unix_fd_source_new (pidfd, G_IO_IN);
      g_source_set_callback (running->source, (GSourceFunc) (GCallback) on_running_exit, running, NULL);
      g_source_attach (running->source, self->context);
    }
  g_hash_table_replace (self->running, GINT_TO_POINTER (pid), running);

  running->run_dev = info->run_dev;
  running->run_ino = info->run_ino;
  running->old_dev = info->old_dev;
  running->old_ino = info->old_ino;
  /* An exec of the image the process has already would pass whatever runs. */
  if (running->run_ino == 0 || running->old_ino == 0 ||
      (running->run_dev == running->old_dev && running->run_ino == running->old_ino))
    return;
  running->check_until = g_get_monotonic_time () + CHECK_WAIT_MS * G_TIME_SPAN_MILLISECOND;
  running->check_delay = 1;
  if (check_what_runs (self, running) == CHECK_LATER)
    {
      running->check_source = g_timeout_source_new (running->check_delay);
      g_source_set_callback (running->check_source, on_check, running, NULL);
      g_source_attach (running->check_source, self->context);
    }
}

gboolean
paddock_exec_on_exits (int          fd,
                       GIOCondition condition,
                       gpointer     user_data)
{
  PaddockExecMonitor *self = user_data;
  struct epoll_event events[EXITS_PER_ROUND];
  int n;

  do
    {
      n = epoll_wait (fd, events, G_N_ELEMENTS (events), 0);
      for (int i = 0; i < n; i++)
        {
          pid_t pid = (pid_t) (guint32) events[i].data.u64;
          int pidfd = (int) (events[i].data.u64 >> 32);
          Running *running;

          drain_news_before_exit (self, pid);
          running = g_hash_table_lookup (self->running, GINT_TO_POINTER (pid));
          if (running == NULL || running->pidfd != pidfd || running->source != NULL)
            continue;
          g_hash_table_steal (self->running, GINT_TO_POINTER (pid));
          run_exited (self, running);
        }
    }
  while (n == G_N_ELEMENTS (events) || (n < 0 && errno == EINTR));
  return G_SOURCE_CONTINUE;
}

void
paddock_exec_end_runs (PaddockExecMonitor *self)
{
  GHashTableIter iter;
  Running *running;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &running))
    {
      read_exit_status (running);
      paddock_exec_end_running (self, running, FALSE);
      g_hash_table_iter_remove (&iter);
    }
  /* And those still waiting for their status: what is known now goes. */
  while ((running = g_queue_pop_head (&self->reaping)) != NULL)
    {
      read_exit_status (running);
      finish_running (self, running);
    }
  paddock_clear_source (&self->reap_source);
}
