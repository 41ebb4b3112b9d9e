/* paddock-exec-monitor-private.h: what the parts of the exec monitor share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exec monitor is one object in eight files, one idea each:
 *   paddock-exec-monitor.c      the object, the answering thread, and the
 *                               queue from it to the main context
 *   paddock-exec-filter.c       the seccomp filter, the calls it hands over,
 *                               and how the thread is woken
 *   paddock-exec-caller.c       reading the caller: its path and argv, what
 *                               it would run, its process and descriptors
 *   paddock-exec-provenance.c   files that downloads, clones and unpacked
 *                               archives made
 *   paddock-exec-pipelines.c    pipes into shells (`curl … | sh`)
 *   paddock-exec-asks.c         asks: held in the kernel while the session's
 *                               ask registry (paddock-asks.h) waits for an
 *                               answer; remembered answers, settling
 *   paddock-exec-exits.c        runs and their ends, pidfds, the ceiling
 *                               on the descriptors held for them, and the
 *                               check that what runs is what was judged
 *   paddock-exec-identity.c     the programs deny and ask rules name, known
 *                               by their files: hard links and copies
 * Which command lines an exec runs, and which decision holds, is the
 * policy's (paddock-command-line.h). Helpers on the answering thread's
 * path of every exec are static inline here, as they were static in one
 * file.
 */
#pragma once

#include "paddock-cpu-idle.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor.h"

#include <errno.h>
#include <glib.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

G_BEGIN_DECLS

/* Linux 6.13: a process's ids from its pidfd, one call instead of three on
 * /proc; 6.15: how it ended, for any process (waitid only tells a parent).
 * Our own copy of the first version of the structure, whatever the headers
 * have: the size is part of the request's number. */
typedef struct
{
  guint64 mask;
  guint64 cgroupid;
  guint32 pid;
  guint32 tgid;
  guint32 ppid;
  guint32 ruid;
  guint32 rgid;
  guint32 euid;
  guint32 egid;
  guint32 suid;
  guint32 sgid;
  guint32 fsuid;
  guint32 fsgid;
  gint32  exit_code;     /* a wait status, with PADDOCK_PIDFD_INFO_EXIT */
} PaddockPidfdInfo;
G_STATIC_ASSERT (sizeof (PaddockPidfdInfo) == 64);
#define PADDOCK_PIDFD_GET_INFO _IOWR (0xFF, 11, PaddockPidfdInfo)
#define PADDOCK_PIDFD_INFO_PID (1UL << 0)
#define PADDOCK_PIDFD_INFO_EXIT (1UL << 3)

typedef struct
{
  guint32 arch;          /* as the kernel reports it in seccomp_data */
  int     nr_execve;
  int     nr_execveat;
  int     nr_root[5];    /* chroot, pivot_root, setns, unshare, clone */
  guint   pointer_size;
} ExecAbi;

typedef enum
{
  CALL_EXECVE,
  CALL_EXECVEAT,
  CALL_ROOT,             /* may change the caller's root or mounts */
} Call;

/* Each kept by the part that knows it: a shell that reads its script from
 * a pipe (paddock-exec-pipelines.c), a file a download saved and an end
 * of a pipe from one (paddock-exec-provenance.c), a path resolved before
 * (paddock-exec-caller.c), an ask that was denied (paddock-exec-asks.c),
 * a program running (paddock-exec-exits.c). */
typedef struct _PipeReader  PipeReader;
typedef struct _Download    Download;
typedef struct _PipeEnd     PipeEnd;
typedef struct _ResolvedExe ResolvedExe;
typedef struct _Refusal     Refusal;
typedef struct _Running     Running;
typedef struct _KnownProgram KnownProgram;

typedef struct
{
  pid_t      pid;
  GPtrArray *argv;
  char      *path;        /* for a script */
  GPtrArray *shebangs;
} RecentExec;

/* For the policy's "downloaded": whose exec asks (see query_downloads()). */
typedef struct
{
  PaddockExecMonitor *monitor;
  pid_t               tid;
} DownloadLook;

/* What was read of one exec; strings are the caller's bytes. */
typedef struct
{
  pid_t       pid;         /* the process, as recorded (see paddock_exec_read_process) */
  pid_t       tid;         /* the thread that called exec */
  pid_t       ppid;
  char       *path;
  char       *cwd;         /* once cwd_read (paddock_exec_load_cwd) */
  gboolean    cwd_read;
  char       *lexical;     /* the absolute path exec runs, symlinks not resolved */
  char       *exe;         /* ... resolved */
  GPtrArray  *argv;        /* NULL-terminated */
  gint64      argc;
  gboolean    truncated;
  GPtrArray  *shebangs;    /* a script's #! lines, its own first, then those of
                            * interpreters that are scripts: pairs (interpreter,
                            * its one argument or NULL); NULL for no script */
  guint       asked_levels; /* bit i: the policy asks for level i (see paddock_exec_level_queries()) */
  /* A pipe between a shell reading its script from it and the program
   * writing to it (see find_pipe_writer, find_pipe_reader): */
  guint64     script_pipe; /* for such a shell, the pipe's inode, else 0 */
  int         script_fd;   /* ... and its descriptor for it */
  char       *stdin_from;  /* ... and the writer's command line, if known */
  PipeReader *reader;      /* for a writer, the shell, if it ran first */
  char       *writer;      /* ... and what writes to the shell: @info's command line, then the
                            * programs between them, "curl … | tee log" */
  char       *pipeline;    /* either way, "WRITER | SHELL", as far as it is shown (set_pipeline) */
  GPtrArray  *downloads;   /* for a download (curl, wget), the files it saves to (paddock_exec_find_downloads);
                            * for a clone, the folder it makes, ending in '/'; for an archiver
                            * unpacking a downloaded archive, the folder it unpacks into */
  char       *saved_from;  /* ... and where what it saves came from: "its archive saved by #N:
                            * COMMAND", or for tar or tee fed by a download, "its input piped from …" */
  guint64     download_pipe; /* for a download to standard output (or a filter passing one on),
                              * a pipe there; for tar, tee or a filter reading standard
                              * input, a pipe there; else 0 */
  GPtrArray  *pipe_targets; /* ... for such a tar, where it unpacks; for tee, the files it writes */
  guint64     pipe_forward; /* ... for a filter (tee too), the pipe on its standard output */
  const char *pipe_input;   /* ... and what it reads: "archive", "input" */
  gboolean    checks_out;  /* a git (or gh) clone, whose files have the time they were written */
  DownloadLook download_look; /* the policy's downloaded_data (query_downloads) */
  guint64     file_dev;    /* the file exec runs (the script, for a script), or 0 */
  guint64     file_ino;
  gboolean    unlinked;    /* it has no name in any folder: a memfd, a file deleted */
  char       *known_path;  /* where it is a program a deny or ask rule names under another
                            * name (paddock-exec-identity.c): that program's file */
  char       *known_as;    /* ... and what it is of it: "a copy of sudo" */
  guint       script_operand; /* for a shell or an interpreter given a script file, its index
                               * in argv (paddock_exec_read_script), else 0 */
  char       *script_file;    /* ... and the file, symlinks resolved */
  char       *script_known_path; /* ... where it is a program a rule names, as known_path */
  char       *script_known_as;
  guint64     run_dev;     /* the file /proc/PID/exe shows once the exec is done: the last */
  guint64     run_ino;     /* interpreter's for a script, else the file's; or 0 */
  guint64     old_dev;     /* ... and the one it shows before, for an exec let go on */
  guint64     old_ino;
} ExecInfo;

/* Bytes of the caller's memory, within one page. */
typedef struct
{
  guint64  address;
  gsize    length;
  char    *data;
} Span;

/* The answering thread's buffers for reading a caller. */
typedef struct
{
  guint8   path_page[4096];
  guint8   pointers_page[4096];
  guint8   pointers[4096];
  guint64  addresses[4096 / 4];
  Span     spans[4096 / 4];        /* no more than IOV_MAX */
  char     strings[64 * 1024];
} ReadScratch;

typedef struct _Ask Ask;

struct _PaddockExecMonitor
{
  int                      notify_fd;
  guint                    filter_flags;
  PaddockPolicy           *policy;
  PaddockAudit            *audit;
  char                    *project;
  char                    *home;          /* resolved, for the policy */
  PaddockAsks             *asks;          /* borrowed: ids, and what asks wait in */

  GMainContext            *context;
  PaddockExecMonitorFunc   func;
  gpointer                 user_data;

  GThread                 *thread;
  int                      stop_fd;
  int                      wake_fd;
  GSource                 *wake_source;
  GSource                 *batch_source;
  int                      exit_fd;       /* epoll of the running programs' pidfds */
  GSource                 *exit_source;
  GAsyncQueue             *news;
  gint                     wake_pending;
  gint                     settle_generation; /* one more each time the pending asks are judged again */
  gint64                   last_news_wake;  /* monotonic; main context */
  gint                     answering;     /* the pid whose answered exec is not queued yet, or 0 */
  gint                     stopped;

  GMutex                   lock;          /* guards refused */
  GHashTable              *pending;       /* id → Ask (the registry owns it), main context only */

  GHashTable              *running;       /* pid → Running, main context only */
  GQueue                   reaping;       /* ended Running waiting for their status, main context only */
  GSource                 *reap_source;
  GQueue                   refused;       /* Refusal, guarded by lock */

  /* The files the agent's downloads (curl, wget) saved, for the policy's
   * "downloaded": the thread judges with them, the main context too
   * (settling, answers), so both add and look under downloads_lock. */
  GMutex                   downloads_lock;
  GHashTable              *downloads;     /* absolute path → Download, in downloads_order */
  GQueue                   downloads_order; /* Download, oldest first */
  gint                     n_downloads;   /* atomic: none, and the policy is not asked to look */
  guint                    n_folders;     /* of them, clones' folders */
  guint                    n_cloning;     /* ... whose clone has not been seen to end */
  GQueue                   piped;         /* PipeEnd, oldest first, under downloads_lock */

  struct seccomp_notif_sizes sizes;
  GString                 *record;        /* the thread's exec record, reused */
  GString                 *exit_record;   /* the main context's, reused */
  ReadScratch             *scratch;       /* the thread's */
  GHashTable              *resolved;      /* path → ResolvedExe, the thread's */
  char                    *search_path;   /* paddock-run's PATH, where rules' names are looked for */
  /* The programs deny and ask rules name, by their files (paddock-exec-identity.c), the thread's: */
  GPtrArray               *known;         /* KnownProgram, or NULL until learnt */
  gint                     known_generation; /* the policy's, when they were */
  GHashTable              *known_files;   /* by device and inode → KnownProgram */
  GHashTable              *known_sizes;   /* their sizes */
  GHashTable              *digests;       /* files hashed, by device and inode */
  GPtrArray               *readers;       /* PipeReader, oldest first, the thread's */
  RecentExec               recent[32];    /* the last execs let go on, the thread's */
  guint                    recent_next;
  gint64                   readers_checked; /* monotonic */
  int                      root_fd;       /* the agent's root, in its mount namespace; the thread's */
  int                      fd_ceiling;    /* see keep_below_ceiling() */
  int                      fd_reserve;    /* how many open files above it the limit leaves */
  gboolean                 warned_no_pidfd;   /* the thread's */
  gboolean                 roots_may_differ;  /* a call in root_calls was made; the thread's */
  ExecAbi                  abis[4];
  guint                    n_abis;
  GPtrArray               *features;
  long                     page_size;

  PaddockCpuIdle          *cpu_idle;      /* while the wake-up follows the load; main context */
  gint64                   idle_sampled;  /* monotonic */
  gboolean                 idle_chosen;   /* a sample chose the wake-up */
  gboolean                 sync_wake;     /* the flag as set now */
};

/* An exec held in the kernel while the registry waits for its answer:
 * made by the thread, queued to the main context, then held by the
 * registry (paddock_exec_hold_ask()), which frees it once decided. */
struct _Ask
{
  PaddockExecMonitor *monitor;
  gint64              id;
  guint64             cookie;      /* the kernel's notification id */
  ExecInfo           *info;
  int                 pidfd;
  GSource            *gone_source; /* tells when its process is gone: see paddock_exec_hold_ask() */
  gint                generation;  /* the settle_generation it was judged in */
  gboolean            held;        /* the kernel holds its exec still: the answer goes there */
  char               *settled_by;  /* the rule that settled it (paddock_exec_monitor_settle_pending()) */
  char               *download;    /* the downloaded file a "downloaded" rule asks about, or NULL */
};

/* paddock-exec-monitor.c */

void         paddock_exec_info_free          (ExecInfo                   *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExecInfo, paddock_exec_info_free)
/* FALSE when the caller is no longer there to answer (it was killed). */
gboolean     paddock_exec_respond            (PaddockExecMonitor         *self,
                                              guint64                     cookie,
                                              int                         err);
/* Every level of @info is judged, and the strictest decision holds. */
PaddockPolicyAction paddock_exec_judge_levels (PaddockExecMonitor        *self,
                                               ExecInfo                  *info,
                                               const PaddockPolicyQuery  *query,
                                               PaddockPolicyRule        **rule);
/* Emits what the answering thread queued; returns how many. */
guint        paddock_exec_drain_news         (PaddockExecMonitor         *self);

/* Item @i of @info's #! lines (see ExecInfo), or NULL. */
static inline const char *
shebang (const ExecInfo *info,
         guint           i)
{
  return info->shebangs != NULL && i < info->shebangs->len ? g_ptr_array_index (info->shebangs, i) : NULL;
}

/* Records are serialized by hand, without printf: @key is one of ours and
 * needs no escaping; numbers as paddock_audit_append() writes an int64. */
static inline void
append_key (GString    *out,
            const char *key)
{
  g_string_append_len (out, ",\"", 2);
  g_string_append (out, key);
  g_string_append_len (out, "\":", 2);
}

static inline void
append_int_member (GString    *out,
                   const char *key,
                   gint64      value)
{
  char digits[24];
  char *p = digits + sizeof digits;
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;

  append_key (out, key);
  do
    {
      *--p = (char) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (out, p, digits + sizeof digits - p);
}

static inline void
append_string_member (GString    *out,
                      const char *key,
                      const char *value)
{
  append_key (out, key);
  paddock_audit_append_json_string (out, value, -1);
}

/* Takes @message. */
static inline void
emit (PaddockExecMonitor *self,
      PaddockMessage     *message)
{
  if (self->func != NULL)
    self->func (message, self->user_data);
  else
    paddock_message_free (message);
}

/* Says @text to the session's user as a notice, where the clients are
 * (see paddock_control_notice()); on stderr with nobody to emit to. */
static inline void
emit_notice (PaddockExecMonitor *self,
             const char         *text)
{
  PaddockMessage *message;

  if (self->func == NULL)
    {
      paddock_printerr ("%s", text);
      return;
    }
  message = paddock_message_new (PADDOCK_MESSAGE_NOTICE);
  message->time = g_get_real_time ();
  message->message = g_strdup (text);
  emit (self, message);
}

/* Who decided, as the audit log and the protocol say it: the policy's
 * default, one of its rules, or an answer remembered. */
static inline const char *
decided_by (PaddockPolicyRule *rule)
{
  if (rule == NULL)
    return "default";
  return paddock_policy_rule_get_scope (rule) == PADDOCK_POLICY_SCOPE_POLICY ? "rule" : "remembered";
}

/* paddock-exec-filter.c */

/* The calls the filter hands over, for each ABI this machine runs. */
void         paddock_exec_add_abis           (PaddockExecMonitor         *self);
/* The kernel's synchronous wake-up, as PADDOCK_EXEC_SYNC_WAKE_UP says,
 * and its feature. */
void         paddock_exec_set_up_wake_up     (PaddockExecMonitor         *self);
/* The first look at how idle the CPUs are, as the thread starts. */
void         paddock_exec_start_wake_up      (PaddockExecMonitor         *self);
void         paddock_exec_choose_wake_up     (PaddockExecMonitor         *self);

static inline const ExecAbi *
find_abi (PaddockExecMonitor *self,
          guint32             arch,
          int                 nr,
          Call               *call)
{
  for (guint i = 0; i < self->n_abis; i++)
    {
      if (self->abis[i].arch != arch)
        continue;
      if (nr == self->abis[i].nr_execve)
        {
          *call = CALL_EXECVE;
          return &self->abis[i];
        }
      if (nr == self->abis[i].nr_execveat)
        {
          *call = CALL_EXECVEAT;
          return &self->abis[i];
        }
      for (guint j = 0; j < G_N_ELEMENTS (self->abis[i].nr_root); j++)
        if (nr == self->abis[i].nr_root[j])
          {
            *call = CALL_ROOT;
            return &self->abis[i];
          }
    }
  return NULL;
}

/* paddock-exec-identity.c */

/* The program a deny or ask rule names (as the policy is now) that the
 * file @stx is: that very file (*@is_copy FALSE), or one of the same
 * content (TRUE); else NULL. Reads the file, @fd (O_PATH will do) or
 * @path_at under @dir_fd, only where its size is such a program's and
 * it was not hashed as it is before. Valid until the next call. */
KnownProgram *paddock_exec_identify          (PaddockExecMonitor         *self,
                                              int                         fd,
                                              int                         dir_fd,
                                              const char                 *path_at,
                                              const struct statx         *stx,
                                              gboolean                   *is_copy);
const char   *paddock_exec_known_path        (KnownProgram               *known);
/* The name its rule gives it. */
const char   *paddock_exec_known_name        (KnownProgram               *known);
void          paddock_exec_identities_clear  (PaddockExecMonitor         *self);

/* paddock-exec-caller.c */

void         paddock_exec_resolved_exe_free  (ResolvedExe                *entry);
int          paddock_exec_read_caller        (PaddockExecMonitor         *self,
                                              const struct seccomp_notif *req,
                                              const ExecAbi              *abi,
                                              gboolean                    is_execveat,
                                              ExecInfo                   *info);
void         paddock_exec_open_agent_root    (PaddockExecMonitor         *self,
                                              const struct seccomp_notif *req);
void         paddock_exec_read_process       (PaddockExecMonitor         *self,
                                              pid_t                       pid,
                                              ExecInfo                   *info,
                                              int                        *pidfd);
/* For a shell or an interpreter given the script file argv[@operand]
 * (`sh ./x.sh`): the file, as the caller sees it, and what it is (see
 * paddock_exec_identify()), for it to be judged as a #! script is. */
void         paddock_exec_read_script        (PaddockExecMonitor         *self,
                                              ExecInfo                   *info,
                                              guint                       operand);
/* The caller's working directory (@data is its ExecInfo), read on first use. */
const char  *paddock_exec_load_cwd           (gpointer                    data);
pid_t        paddock_exec_read_ppid          (pid_t                       pid,
                                              int                         pidfd);
guint64      paddock_exec_read_pipe          (pid_t                       tid,
                                              int                         fd);
char        *paddock_exec_read_fd_file       (pid_t                       tid,
                                              int                         fd);

/* paddock-exec-provenance.c */

void         paddock_exec_download_free      (Download                   *download);
void         paddock_exec_pipe_end_free      (PipeEnd                    *end);
gboolean     paddock_exec_is_downloaded      (const char                 *path,
                                              gpointer                    data);
char        *paddock_exec_free_cut           (GString                    *text,
                                              gsize                       max);
void         paddock_exec_find_downloads     (PaddockExecMonitor         *self,
                                              ExecInfo                   *info);
void         paddock_exec_note_download      (PaddockExecMonitor         *self,
                                              ExecInfo                   *info,
                                              gint64                      event,
                                              int                         pidfd);
void         paddock_exec_forget_download    (PaddockExecMonitor         *self,
                                              const char                 *path);
void         paddock_exec_end_clone          (PaddockExecMonitor         *self,
                                              gint64                      event);
void         paddock_exec_close_ended_clones (PaddockExecMonitor         *self);
char        *paddock_exec_decision_reason    (PaddockExecMonitor         *self,
                                              PaddockPolicyRule          *rule,
                                              const char                 *path,
                                              pid_t                       tid);

/* For @query, of @info's exec, "downloaded": NULL while nothing was
 * downloaded, so the policy does not look. */
static inline void
query_downloads (PaddockExecMonitor *self,
                 ExecInfo           *info,
                 PaddockPolicyQuery *query)
{
  if (g_atomic_int_get (&self->n_downloads) > 0)
    {
      info->download_look.monitor = self;
      info->download_look.tid = info->tid;
      query->downloaded_func = paddock_exec_is_downloaded;
      query->downloaded_data = &info->download_look;
    }
}

/* Ends the clones whose runs have ended, before the exec being answered
 * is judged. The main context sees an end later, after a batch of exits:
 * by then `tar xf t.tgz && tar xf mine.tar -C t/mine && t/mine/run` had
 * written its own archive's files inside the first one's time, and they
 * counted as downloaded. A run that ended did so before this exec began. */
static inline void
close_ended_clones (PaddockExecMonitor *self)
{
  if (g_atomic_int_get (&self->n_downloads) == 0)
    return;
  paddock_exec_close_ended_clones (self);
}

/* paddock-exec-pipelines.c */

void         paddock_exec_pipe_reader_free   (PipeReader                 *reader);
void         paddock_exec_keep_pipe_reader   (PaddockExecMonitor         *self,
                                              const ExecInfo             *info);
guint        paddock_exec_add_pipe_level     (const ExecInfo             *info,
                                              const PaddockPolicyQuery   *query,
                                              PaddockPolicyQuery         *levels,
                                              guint                       n);
void         paddock_exec_find_pipe_end      (PaddockExecMonitor         *self,
                                              ExecInfo                   *info,
                                              PaddockPolicyQuery         *query,
                                              gint64                      now);

/* An exec lately let go on: until the kernel has done it, which takes a
 * while after the answer, /proc shows the program it replaces (see
 * sibling_on_pipe). The thread's. */
static inline void
recent_exec_clear (RecentExec *recent)
{
  recent->pid = 0;
  g_clear_pointer (&recent->argv, g_ptr_array_unref);
  g_clear_pointer (&recent->path, g_free);
  g_clear_pointer (&recent->shebangs, g_ptr_array_unref);
}

static inline void
keep_recent_exec (PaddockExecMonitor *self,
                  const ExecInfo     *info)
{
  RecentExec *recent = &self->recent[self->recent_next++ % G_N_ELEMENTS (self->recent)];

  recent_exec_clear (recent);
  recent->pid = info->pid;
  recent->argv = g_ptr_array_ref (info->argv);
  if (info->shebangs != NULL)
    {
      recent->path = g_strdup (info->path);
      recent->shebangs = g_ptr_array_ref (info->shebangs);
    }
}

/* paddock-exec-asks.c */

void         paddock_exec_ask_free           (Ask                        *ask);
void         paddock_exec_refusal_free       (Refusal                    *refusal);
gboolean     paddock_exec_was_refused        (PaddockExecMonitor         *self,
                                              const ExecInfo             *info,
                                              gint64                      now);
/* Hands @ask, whose exec message went out, to the registry with its ask
 * @message (taken), watches its process, and judges it again where the
 * policy changed since it was judged. Main context. */
void         paddock_exec_hold_ask           (PaddockExecMonitor         *self,
                                              Ask                        *ask,
                                              PaddockMessage             *message);
/* Records the asks still held as ended with the session (their execs
 * fail in the kernel once the listener is closed). */
void         paddock_exec_end_asks           (PaddockExecMonitor         *self);

/* paddock-exec-exits.c */

void         paddock_exec_running_free       (Running                    *running);
int          paddock_exec_descriptor_ceiling (int                        *reserve);
/* Also checks, once @info's exec is done, that what runs is the file
 * that was judged (check_what_runs); a mismatch is recorded and ended. */
void         paddock_exec_start_running      (PaddockExecMonitor         *self,
                                              gint64                      seq,
                                              pid_t                       pid,
                                              gint64                      start,
                                              int                         pidfd,
                                              const ExecInfo             *info);
/* Notes the image @info's caller runs now, which its exec replaces. */
void         paddock_exec_note_image         (ExecInfo                   *info);
void         paddock_exec_end_running        (PaddockExecMonitor         *self,
                                              Running                    *running,
                                              gboolean                    replaced);
gboolean     paddock_exec_on_exits           (int                         fd,
                                              GIOCondition                condition,
                                              gpointer                    user_data);
/* Ends the runs left, and those waiting for their status, as the session
 * ends (the agent's tree is gone by then). */
void         paddock_exec_end_runs           (PaddockExecMonitor         *self);

/* @fd, to be held for one of the agent's programs; or, where it is at
 * the ceiling or above, -1 with errno EMFILE and @fd closed. Descriptors
 * are handed out lowest first, so while every one held stays below the
 * ceiling, those above it are left to the supervisor. */
static inline int
keep_below_ceiling (PaddockExecMonitor *self,
                    int                 fd)
{
  if (fd >= self->fd_ceiling)
    {
      close (fd);
      errno = EMFILE;
      return -1;
    }
  return fd;
}

/* A new exec by a pid ends its previous program's run. */
static inline void
replace_running (PaddockExecMonitor *self,
                 pid_t               pid)
{
  Running *previous = g_hash_table_lookup (self->running, GINT_TO_POINTER (pid));

  if (previous != NULL)
    {
      paddock_exec_end_running (self, previous, TRUE);
      g_hash_table_remove (self->running, GINT_TO_POINTER (pid));
    }
}

G_END_DECLS
