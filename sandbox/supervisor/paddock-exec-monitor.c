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
 *
 * How the thread is woken. With the kernel's synchronous wake-up
 * (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, Linux 6.6) the thread runs on the
 * caller's CPU, which the blocked caller leaves free, and the answered
 * caller on the thread's: no other CPU is woken or preempted either way.
 * That is what a busy machine wants. On one with a CPU to spare it
 * backfires: the supervisor's threads pile onto the agent's CPU, and the
 * scheduler's exec balancing then moves each new program to the idle CPU
 * (3,000 /bin/true in a sh loop on 2 CPUs: 4,664 migrations with it, 231
 * without; 1.21x-1.24x of bare against 1.08x-1.13x, though in the
 * machine's slow spells the two came out even). A make -j2, with
 * both CPUs busy, went the other way (1.06x-1.08x with it, 1.11x-1.12x
 * without). So the main context looks at how many of our CPUs sat idle
 * (paddock-cpu-idle.c) while execs come, 30 ms after the start and then
 * every 100 ms, and turns the flag off while at least 0.6 of a CPU idles,
 * on again below 0.4. (The first look comes early because a short agent
 * would otherwise run on the starting guess: at 100 ms, the sh loop's
 * first tenth.)
 * PADDOCK_EXEC_SYNC_WAKE_UP=1 keeps it on, =0 off.
 *
 * The caller's memory is read with process_vm_readv, which pins the pages
 * it reads; a page a fork still shares with its parent is copied first
 * (the kernel unshares it), a copy the exec then throws away. Reading
 * /proc/PID/mem copies nothing, but its open, its close and the /proc
 * entry it makes cost more CPU time per exec (35-45 us here) than that.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-cpu-idle.h"
#include "paddock-download.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor.h"
#include "paddock-fd-passing.h"
#include "paddock-path.h"
#include "paddock-proc.h"
#include "paddock-source.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <linux/audit.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

/* Linux 6.6; Debian 12's headers predate it. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW (4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif
/* Linux 5.19: once received, only a fatal signal interrupts the wait, so
 * a SIGCHLD or SIGWINCH does not restart the exec and ask twice. */
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
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
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif

gboolean
paddock_exec_filter_init (PaddockExecFilter *filter,
                          GError           **error)
{
  static const guint32 extra_arches[] = {
#if defined(__x86_64__)
    SCMP_ARCH_X86, SCMP_ARCH_X32,
#elif defined(__aarch64__)
    SCMP_ARCH_ARM,
#endif
    0
  };
  scmp_filter_ctx ctx;
  paddock_autofd int memfd = -1;
  off_t size;
  int rc;

  memset (filter, 0, sizeof *filter);
  ctx = seccomp_init (SCMP_ACT_ALLOW);
  if (ctx == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "cannot build the exec monitor's filter: libseccomp failed");
      return FALSE;
    }
  /* paddock-run sets no_new_privs itself, before installing. */
  seccomp_attr_set (ctx, SCMP_FLTATR_CTL_NNP, 0);
  for (guint i = 0; extra_arches[i] != 0; i++)
    {
      rc = seccomp_arch_add (ctx, extra_arches[i]);
      if (rc != 0 && rc != -EEXIST)
        goto failed;
    }
  /* And the calls that give a process another root or another mount
   * namespace, rare enough to be told of: until one is made, every process
   * sees the files the agent saw when it started. clone3 passes its flags
   * in memory a filter cannot read, so it looks absent and the C library
   * falls back to clone (as in Docker's and Flatpak's filters). */
  if ((rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (execve), 0)) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (execveat), 0)) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (chroot), 0)) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (pivot_root), 0)) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (setns), 0)) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (unshare), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWNS, CLONE_NEWNS))) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (unshare), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (clone), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWNS, CLONE_NEWNS))) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_NOTIFY, SCMP_SYS (clone), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) != 0 ||
      (rc = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS), SCMP_SYS (clone3), 0)) != 0)
    goto failed;

  memfd = memfd_create ("paddock-exec-filter", MFD_CLOEXEC);
  if (memfd < 0)
    {
      rc = -errno;
      goto failed;
    }
  if ((rc = seccomp_export_bpf (ctx, memfd)) != 0)
    goto failed;
  size = lseek (memfd, 0, SEEK_END);
  if (size <= 0 || size % sizeof (struct sock_filter) != 0 || size > 64 * 1024)
    {
      rc = -EINVAL;
      goto failed;
    }
  filter->program.filter = g_malloc (size);
  if (pread (memfd, filter->program.filter, size, 0) != size)
    {
      rc = -EIO;
      goto failed;
    }
  filter->program.len = size / sizeof (struct sock_filter);
  seccomp_release (ctx);
  return TRUE;

failed:
  seccomp_release (ctx);
  paddock_exec_filter_clear (filter);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-rc),
               "cannot build the exec monitor's filter: %s", g_strerror (-rc));
  return FALSE;
}

void
paddock_exec_filter_clear (PaddockExecFilter *filter)
{
  g_clear_pointer (&filter->program.filter, g_free);
  filter->program.len = 0;
}

int
paddock_exec_filter_install (const PaddockExecFilter *filter,
                             int                      socket_fd)
{
  unsigned long flags = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
  guint reported = PADDOCK_EXEC_FILTER_WAIT_KILLABLE;
  int fd;
  int err;

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return errno;

  fd = syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &filter->program);
  if (fd < 0 && errno == EINVAL)
    {
      flags &= ~SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
      reported = 0;
      fd = syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &filter->program);
    }
  if (fd < 0)
    return errno;

  err = paddock_send_fd (socket_fd, fd, &reported, sizeof reported);
  /* The agent must not keep its own listener. */
  close (fd);
  return err;
}

int
paddock_exec_filter_receive (int     socket_fd,
                             guint  *out_flags,
                             GError **error)
{
  guint flags = 0;
  int fd;
  ssize_t n = paddock_receive_fd (socket_fd, &flags, sizeof flags, &fd);

  if (n < 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot receive the exec monitor's listener: %s", g_strerror (saved_errno));
      return -1;
    }
  if (fd < 0 || n != sizeof flags)
    {
      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "cannot receive the exec monitor's listener: the agent ended before sending it");
      return -1;
    }
  if (out_flags != NULL)
    *out_flags = flags;
  return fd;
}

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

/* A shell that reads its script from a pipe (paddock_policy_query_script_fd),
 * kept by the answering thread so that the program that writes to the
 * pipe, if it comes later, is judged as the pipeline: `curl … | sh` is two
 * execs, neither of which says what the other does, and either may come
 * first. */
typedef struct
{
  guint64  pipe;       /* the pipe's inode */
  int      fd;         /* the shell's descriptor for it */
  pid_t    pid;
  pid_t    ppid;
  char    *exe;
  char    *resolved;
  GStrv    argv;
  char    *cwd;
} PipeReader;

#define MAX_PIPE_READERS     16
/* How often those kept are checked for still reading their pipe. */
#define PIPE_READERS_CHECK   (100 * G_TIME_SPAN_MILLISECOND)
/* How much of a writer's command line is read, and how many of the
 * shell's siblings are looked at for it. */
#define PIPE_WRITER_LINE_MAX (64 * 1024)
#define PIPE_WRITERS_MAX     64
/* How many programs a pipeline into a shell is followed through. */
#define PIPE_HOPS_MAX        4

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
  pid_t       pid;         /* the process, as recorded (see read_process) */
  pid_t       tid;         /* the thread that called exec */
  pid_t       ppid;
  char       *path;
  char       *cwd;         /* once cwd_read (load_cwd) */
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
  GPtrArray  *downloads;   /* for a download (curl, wget), the files it saves to (find_downloads);
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
} ExecInfo;

/* Bytes of the caller's memory, within one page. */
typedef struct
{
  guint64  address;
  gsize    length;
  char    *data;
} Span;

#define ARG_READ_AHEAD 256   /* bytes of each argument read in one batch; longer ones are read on */

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

typedef struct
{
  guint32  dev_major;
  guint32  dev_minor;
  guint64  ino;
  guint64  mnt_id;
  gint64   ctime_sec;
  guint32  ctime_nsec;
} ExeIdentity;

/* An absolute path a caller exec'd, resolved, and the file it led to. */
typedef struct
{
  ExeIdentity  identity;
  char        *exe;
  char        *interpreter;      /* as in ExecInfo */
  char        *interpreter_arg;
} ResolvedExe;

#define RESOLVED_MAX 1024

typedef struct _Ask Ask;

struct _PaddockExecMonitor
{
  int                      notify_fd;
  guint                    filter_flags;
  PaddockPolicy           *policy;
  PaddockAudit            *audit;
  char                    *project;
  char                    *home;          /* resolved, for the policy */
  int                      ask_timeout;
  gboolean                 on_ask_allow;

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
  gint                     n_deciders;
  gint                     stopped;

  GMutex                   lock;
  GHashTable              *pending;       /* id → Ask, guarded by lock */
  guint64                  next_seq;      /* only the thread writes it */

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

struct _Ask
{
  PaddockExecMonitor *monitor;
  gint64              id;
  guint64             cookie;      /* the kernel's notification id */
  PaddockMessage     *message;     /* the ask message */
  ExecInfo           *info;
  int                 pidfd;
  gint64              deadline;    /* monotonic */
  GSource            *timeout_source;
  GSource            *gone_source; /* tells when its process is gone: see watch_ask() */
  gint                generation;  /* the settle_generation it was judged in */
  gboolean            announced;   /* its ask message went out; main context */
  char               *download;    /* the downloaded file a "downloaded" rule asks about, or NULL */
};

typedef struct
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
} Running;

/* A pidfd tells how a process ended (Linux 6.15) only once its parent has
 * reaped it, a moment after the exit the pidfd reports: an ended run
 * waits that long, at most REAP_WAIT_MS, for its exit code. */
#define REAP_WAIT_MS 100
#define REAP_POLL_MS 5

#define EXITS_PER_ROUND 64

/* An ask that was denied. A shell's PATH search goes on after EACCES and
 * would ask the same question again for the next directory's copy. */
typedef struct
{
  pid_t   tid;                     /* the thread that asked */
  char   *exe;
  char  **argv;
  gint64  id;
  gint64  expires;                 /* monotonic */
} Refusal;

#define REFUSAL_LIFETIME (2 * G_USEC_PER_SEC)
#define NEWS_BATCH_MS    5

/* How often, while execs come, the wake-up is chosen (the first time
 * sooner, at some loss of precision: /proc/stat counts 10 ms ticks); and
 * the idle CPUs below which the synchronous one comes back, and at which
 * it goes off. */
#define IDLE_SAMPLE_MS   100
#define IDLE_FIRST_MS    30
#define IDLE_FOR_ASYNC   0.6
#define IDLE_FOR_SYNC    0.4

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
} News;

static void
pipe_reader_free (PipeReader *reader)
{
  if (reader == NULL)
    return;
  g_free (reader->exe);
  g_free (reader->resolved);
  g_strfreev (reader->argv);
  g_free (reader->cwd);
  g_free (reader);
}

static PipeReader *
pipe_reader_copy (const PipeReader *reader)
{
  PipeReader *copy = g_memdup2 (reader, sizeof *reader);

  copy->exe = g_strdup (reader->exe);
  copy->resolved = g_strdup (reader->resolved);
  copy->argv = g_strdupv (reader->argv);
  copy->cwd = g_strdup (reader->cwd);
  return copy;
}

static void
exec_info_free (ExecInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->stdin_from);
  pipe_reader_free (info->reader);
  g_free (info->writer);
  g_free (info->pipeline);
  g_free (info->path);
  g_free (info->cwd);
  g_free (info->lexical);
  g_free (info->exe);
  g_clear_pointer (&info->shebangs, g_ptr_array_unref);
  g_clear_pointer (&info->downloads, g_ptr_array_unref);
  g_free (info->saved_from);
  g_clear_pointer (&info->pipe_targets, g_ptr_array_unref);
  if (info->argv != NULL)
    g_ptr_array_unref (info->argv);
  g_free (info);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExecInfo, exec_info_free)

/* Takes @interpreter and @argument (or NULL) as @info's next #! line. */
static void
add_shebang (ExecInfo *info,
             char     *interpreter,
             char     *argument)
{
  if (info->shebangs == NULL)
    info->shebangs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (info->shebangs, interpreter);
  g_ptr_array_add (info->shebangs, argument);
}

/* Item @i of @info's #! lines (see ExecInfo), or NULL. */
static const char *
shebang (const ExecInfo *info,
         guint           i)
{
  return info->shebangs != NULL && i < info->shebangs->len ? g_ptr_array_index (info->shebangs, i) : NULL;
}

static void
resolved_exe_free (ResolvedExe *entry)
{
  g_free (entry->exe);
  g_free (entry->interpreter);
  g_free (entry->interpreter_arg);
  g_free (entry);
}

static void
ask_free (Ask *ask)
{
  paddock_clear_source (&ask->timeout_source);
  paddock_clear_source (&ask->gone_source);
  paddock_close_fd (&ask->pidfd);
  paddock_message_free (ask->message);
  exec_info_free (ask->info);
  g_free (ask->download);
  g_free (ask);
}

static void
running_free (Running *running)
{
  paddock_clear_source (&running->source);
  paddock_close_fd (&running->pidfd);
  g_free (running);
}

static void
refusal_free (Refusal *refusal)
{
  g_free (refusal->exe);
  g_strfreev (refusal->argv);
  g_free (refusal);
}

static void
news_free (News *news)
{
  paddock_message_free (news->message);
  exec_info_free (news->info);
  g_free (news->rule);
  g_free (news->reason);
  paddock_close_fd (&news->pidfd);
  g_free (news);
}

static int
pidfd_open_nonblock (pid_t pid)
{
  return (int) syscall (SYS_pidfd_open, pid, 0);
}

/* Below this, descriptors held for the agent's programs. However many
 * programs the agent runs at once, the supervisor keeps the rest, the
 * *@reserve above it, for its own work: to place a control client's
 * peer, to walk /proc for a kill or a pause, to answer an exec. A
 * quarter of the limit, 16 to 256. */
static int
descriptor_ceiling (int *reserve)
{
  struct rlimit limit;

  *reserve = 0;
  if (getrlimit (RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= (rlim_t) G_MAXINT)
    return G_MAXINT;
  *reserve = (int) MIN (CLAMP (limit.rlim_cur / 4, 16, 256), limit.rlim_cur);
  return (int) limit.rlim_cur - *reserve;
}

/* @fd, to be held for one of the agent's programs; or, where it is at
 * the ceiling or above, -1 with errno EMFILE and @fd closed. Descriptors
 * are handed out lowest first, so while every one held stays below the
 * ceiling, those above it are left to the supervisor. */
static int
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

static void
add_abi (PaddockExecMonitor *self,
         guint32             arch,
         guint32             scmp_arch,
         guint               pointer_size,
         int                 nr_bits)
{
  static const char * const root_calls[] = { "chroot", "pivot_root", "setns", "unshare", "clone" };
  int nr_execve = seccomp_syscall_resolve_name_arch (scmp_arch, "execve");
  int nr_execveat = seccomp_syscall_resolve_name_arch (scmp_arch, "execveat");
  ExecAbi *abi;

  if (nr_execve < 0 || self->n_abis >= G_N_ELEMENTS (self->abis))
    return;
  abi = &self->abis[self->n_abis++];
  *abi = (ExecAbi) {
    .arch = arch,
    .nr_execve = nr_execve | nr_bits,
    .nr_execveat = nr_execveat < 0 ? -1 : (nr_execveat | nr_bits),
    .pointer_size = pointer_size,
  };
  for (guint i = 0; i < G_N_ELEMENTS (root_calls); i++)
    {
      int nr = seccomp_syscall_resolve_name_arch (scmp_arch, root_calls[i]);

      abi->nr_root[i] = nr < 0 ? -1 : (nr | nr_bits);
    }
}

PaddockExecMonitor *
paddock_exec_monitor_new (int                             notify_fd,
                          guint                           filter_flags,
                          const PaddockExecMonitorConfig *config,
                          GMainContext                   *context,
                          PaddockExecMonitorFunc          func,
                          gpointer                        user_data)
{
  /* 0: off; 1: always on; else on while no CPU idles. */
  const char *sync_wake_setting = g_getenv ("PADDOCK_EXEC_SYNC_WAKE_UP");
  PaddockExecMonitor *self;

  g_return_val_if_fail (notify_fd >= 0, NULL);
  g_return_val_if_fail (config != NULL && config->policy != NULL, NULL);

  self = g_new0 (PaddockExecMonitor, 1);
  self->notify_fd = notify_fd;
  self->filter_flags = filter_flags;
  self->policy = paddock_policy_ref (config->policy);
  self->audit = config->audit;
  self->project = g_strdup (config->project);
  self->home = paddock_policy_dup_home ();
  self->ask_timeout = MAX (config->ask_timeout, 1);
  self->on_ask_allow = config->on_ask_allow;
  self->context = context != NULL ? g_main_context_ref (context) : g_main_context_ref_thread_default ();
  self->func = func;
  self->user_data = user_data;
  self->stop_fd = -1;
  self->root_fd = -1;
  self->fd_ceiling = descriptor_ceiling (&self->fd_reserve);
  self->wake_fd = -1;
  self->exit_fd = -1;
  self->news = g_async_queue_new_full ((GDestroyNotify) news_free);
  g_mutex_init (&self->lock);
  g_mutex_init (&self->downloads_lock);
  self->downloads = g_hash_table_new (g_str_hash, g_str_equal);
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, (GDestroyNotify) ask_free);
  self->running = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) running_free);
  self->features = g_ptr_array_new_with_free_func (g_free);
  self->record = g_string_sized_new (1024);
  self->exit_record = g_string_sized_new (128);
  self->scratch = g_new0 (ReadScratch, 1);
  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) resolved_exe_free);
  self->readers = g_ptr_array_new_with_free_func ((GDestroyNotify) pipe_reader_free);
  self->page_size = sysconf (_SC_PAGESIZE);
  if (self->page_size <= 0)
    self->page_size = 4096;

#if defined(__x86_64__)
  add_abi (self, AUDIT_ARCH_X86_64, SCMP_ARCH_X86_64, 8, 0);
  add_abi (self, AUDIT_ARCH_I386, SCMP_ARCH_X86, 4, 0);
  add_abi (self, AUDIT_ARCH_X86_64, SCMP_ARCH_X32, 4, __X32_SYSCALL_BIT);
#elif defined(__aarch64__)
  add_abi (self, AUDIT_ARCH_AARCH64, SCMP_ARCH_AARCH64, 8, 0);
  add_abi (self, AUDIT_ARCH_ARM, SCMP_ARCH_ARM, 4, 0);
#else
  add_abi (self, seccomp_arch_native (), SCMP_ARCH_NATIVE, sizeof (void *), 0);
#endif

  if (syscall (SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &self->sizes) != 0)
    memset (&self->sizes, 0, sizeof self->sizes);

  g_ptr_array_add (self->features, g_strdup ("seccomp-user-notif"));
  if (self->filter_flags & PADDOCK_EXEC_FILTER_WAIT_KILLABLE)
    g_ptr_array_add (self->features, g_strdup ("wait-killable-recv"));
  /* Linux 6.6; older kernels say EINVAL and the monitor works without it. */
  if (g_strcmp0 (sync_wake_setting, "0") != 0 &&
      ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0)
    {
      self->sync_wake = TRUE;
      if (g_strcmp0 (sync_wake_setting, "1") != 0)
        self->cpu_idle = paddock_cpu_idle_new ();
      g_ptr_array_add (self->features, g_strdup (self->cpu_idle != NULL ? "sync-wake-up-when-busy" : "sync-wake-up"));
    }
  g_ptr_array_add (self->features, NULL);
  return self;
}

static const ExecAbi *
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

/* Reads at most one page's worth, never crossing a page boundary, so an
 * unmapped page after the data cannot fail a read of what came before. */
static ssize_t
read_remote (PaddockExecMonitor *self,
             pid_t               pid,
             guint64             address,
             void               *buffer,
             gsize               length)
{
  gsize to_page_end = self->page_size - (address % self->page_size);
  struct iovec local = { buffer, MIN (length, to_page_end) };
  struct iovec remote = { (void *) (uintptr_t) address, local.iov_len };

  return process_vm_readv (pid, &local, 1, &remote, 1, 0);
}

/* Appends the string at @address (at most @max bytes) to @out. Returns 0
 * or an errno; sets *truncated when the string was longer. */
static int
read_remote_string (PaddockExecMonitor *self,
                    pid_t               pid,
                    guint64             address,
                    gsize               max,
                    GString            *out,
                    gboolean           *truncated)
{
  char buffer[4096];
  gsize total = 0;

  if (address == 0)
    return EFAULT;
  while (total < max)
    {
      ssize_t n = read_remote (self, pid, address, buffer, MIN (sizeof buffer, max - total));
      const char *nul;

      if (n <= 0)
        return n < 0 ? errno : EFAULT;
      nul = memchr (buffer, '\0', n);
      if (nul != NULL)
        {
          g_string_append_len (out, buffer, nul - buffer);
          return 0;
        }
      g_string_append_len (out, buffer, n);
      total += n;
      address += n;
    }
  *truncated = TRUE;
  return 0;
}

/* Reads the @n spans (each within one page) with one system call. A span
 * the read did not reach is left empty, to be read on its own. Returns 0,
 * or ESRCH when the caller is gone. */
static int
read_spans (pid_t  pid,
            Span  *spans,
            guint  n)
{
  struct iovec local[G_N_ELEMENTS (((ReadScratch *) NULL)->spans)];
  struct iovec remote[G_N_ELEMENTS (local)];
  ssize_t got;

  g_assert (n <= G_N_ELEMENTS (local));
  for (guint i = 0; i < n; i++)
    {
      local[i] = (struct iovec) { spans[i].data, spans[i].length };
      remote[i] = (struct iovec) { (void *) (uintptr_t) spans[i].address, spans[i].length };
    }
  got = n > 0 ? process_vm_readv (pid, local, n, remote, n, 0) : 0;
  if (got < 0 && errno == ESRCH)
    return ESRCH;
  for (guint i = 0; i < n; i++)
    {
      gsize length = got > 0 ? MIN ((gsize) got, spans[i].length) : 0;

      got -= length;
      spans[i].length = length;
    }
  return 0;
}

static const Span *
find_span (const Span *spans,
           guint       n,
           guint64     address)
{
  for (guint i = 0; i < n; i++)
    if (address >= spans[i].address && address - spans[i].address < spans[i].length)
      return &spans[i];
  return NULL;
}

/* The string at @address, from @span when it holds it (or its first @max
 * bytes) whole, else read from the caller. */
static int
take_string (PaddockExecMonitor *self,
             pid_t               pid,
             const Span         *span,
             guint64             address,
             gsize               max,
             GString            *out,
             gboolean           *truncated)
{
  if (span != NULL && address >= span->address && address - span->address < span->length)
    {
      const char *data = span->data + (address - span->address);
      gsize available = span->length - (address - span->address);
      const char *nul = memchr (data, '\0', MIN (available, max));

      if (nul != NULL)
        {
          g_string_append_len (out, data, nul - data);
          return 0;
        }
      if (available >= max)
        {
          g_string_append_len (out, data, max);
          *truncated = TRUE;
          return 0;
        }
    }
  return read_remote_string (self, pid, address, max, out, truncated);
}

/* @known: what was read already (the path's page, the first page of the
 * pointer array). Each further page of pointers costs one read for the
 * pointers and one for the first bytes of all the strings they point to;
 * a string longer than that is read on its own. */
static int
read_argv (PaddockExecMonitor *self,
           const ExecAbi      *abi,
           pid_t               pid,
           guint64             address,
           const Span         *known,
           guint               n_known,
           ExecInfo           *info)
{
  ReadScratch *scratch = self->scratch;
  gsize bytes = 0;
  g_autoptr(GString) arg = g_string_new (NULL);

  info->argv = g_ptr_array_new_with_free_func (g_free);
  info->argc = 0;
  /* A NULL argv is an empty one (the kernel supplies an empty argv[0]). */
  while (address != 0)
    {
      guint64 at = address + info->argc * abi->pointer_size;
      const Span *span = find_span (known, n_known, at);
      const guint8 *pointers;
      gsize n, count, used = 0;
      guint n_reads = 0;
      gboolean end = FALSE;
      int err;

      if (span != NULL && span->address + span->length - at >= abi->pointer_size)
        {
          pointers = (const guint8 *) span->data + (at - span->address);
          n = span->length - (at - span->address);
        }
      else
        {
          ssize_t got = read_remote (self, pid, at, scratch->pointers,
                                     sizeof scratch->pointers - (sizeof scratch->pointers % abi->pointer_size));

          if (got <= 0)
            return got < 0 ? errno : EFAULT;
          pointers = scratch->pointers;
          n = got;
        }
      count = MIN (n / abi->pointer_size, G_N_ELEMENTS (scratch->addresses));
      if (count == 0)
        return EFAULT;
      for (gsize i = 0; i < count; i++)
        {
          if (abi->pointer_size == 8)
            {
              guint64 p64;
              memcpy (&p64, pointers + i * 8, 8);
              scratch->addresses[i] = p64;
            }
          else
            {
              guint32 p32;
              memcpy (&p32, pointers + i * 4, 4);
              scratch->addresses[i] = p32;
            }
          if (scratch->addresses[i] == 0)
            {
              count = i;
              end = TRUE;
              break;
            }
        }

      /* One read for the strings of this page that were not read already. */
      for (gsize i = 0; i < count && info->argv->len + i < PADDOCK_EXEC_MAX_ARGS; i++)
        {
          guint64 pointer = scratch->addresses[i];
          gsize length = MIN (ARG_READ_AHEAD, self->page_size - (pointer % self->page_size));

          if (find_span (known, n_known, pointer) != NULL)
            continue;
          if (used + length > sizeof scratch->strings)
            break;
          scratch->spans[n_reads++] = (Span) { pointer, length, scratch->strings + used };
          used += length;
        }
      err = read_spans (pid, scratch->spans, n_reads);
      if (err != 0)
        return err;

      for (gsize i = 0, next_read = 0; i < count; i++)
        {
          guint64 pointer = scratch->addresses[i];

          if (info->argv->len < PADDOCK_EXEC_MAX_ARGS && bytes < PADDOCK_EXEC_MAX_ARGV_BYTES)
            {
              const Span *holder = find_span (known, n_known, pointer);

              if (holder == NULL && next_read < n_reads && scratch->spans[next_read].address == pointer)
                holder = &scratch->spans[next_read++];
              g_string_truncate (arg, 0);
              err = take_string (self, pid, holder, pointer, PADDOCK_EXEC_MAX_ARGV_BYTES - bytes,
                                 arg, &info->truncated);
              if (err != 0)
                return err;
              bytes += arg->len + 1;
              g_ptr_array_add (info->argv, g_strndup (arg->str, arg->len));
            }
          else
            info->truncated = TRUE;

          if (++info->argc >= PADDOCK_EXEC_MAX_ARGC)
            {
              info->truncated = TRUE;
              goto done;
            }
        }
      if (end)
        break;
    }
done:
  g_ptr_array_add (info->argv, NULL);
  return 0;
}

static char *
read_link_at (int         dir_fd,
              const char *path)
{
  char buffer[PADDOCK_EXEC_MAX_PATH + 1];
  ssize_t n = readlinkat (dir_fd, path, buffer, sizeof buffer - 1);

  if (n < 0)
    return NULL;
  return g_strndup (buffer, n);
}

/* The caller's working directory, read on first use: by a relative
 * path's lookup, by the policy when a rule that could decide needs it,
 * else for the record just before the exec is answered (read_process). */
static const char *
load_cwd (gpointer data)
{
  ExecInfo *info = data;
  char path[48];

  if (!info->cwd_read)
    {
      g_snprintf (path, sizeof path, "/proc/%d/cwd", (int) info->tid);
      info->cwd = read_link_at (AT_FDCWD, path);
      info->cwd_read = TRUE;
    }
  return info->cwd;
}

/* The process of thread @tid, from /proc/TID/status; -1 when unknown. */
static pid_t
read_tgid (pid_t tid)
{
  char buffer[1024];
  const char *line;

  if (!paddock_proc_read_start (-1, tid, "status", buffer, sizeof buffer))
    return -1;
  line = strstr (buffer, "\nTgid:");
  if (line == NULL)
    return -1;
  return (pid_t) strtol (line + strlen ("\nTgid:"), NULL, 10);
}

static pid_t
read_ppid (pid_t pid,
           int   pidfd)
{
  PaddockPidfdInfo pidfd_info = { .mask = PADDOCK_PIDFD_INFO_PID };
  pid_t ppid;

  if (pidfd >= 0 && ioctl (pidfd, PADDOCK_PIDFD_GET_INFO, &pidfd_info) == 0)
    return (pid_t) pidfd_info.ppid;
  return paddock_proc_read_stat (-1, pid, NULL, &ppid) ? ppid : -1;
}

/* The mount id is Linux 5.8's. */
#define IDENTITY_MASK (STATX_TYPE | STATX_INO | STATX_CTIME | STATX_MNT_ID)

static gboolean
identity_from_statx (const struct statx *stx,
                     ExeIdentity        *id)
{
  if ((stx->stx_mask & IDENTITY_MASK) != IDENTITY_MASK || !S_ISREG (stx->stx_mode))
    return FALSE;
  *id = (ExeIdentity) {
    .dev_major = stx->stx_dev_major,
    .dev_minor = stx->stx_dev_minor,
    .ino = stx->stx_ino,
    .mnt_id = stx->stx_mnt_id,
    .ctime_sec = stx->stx_ctime.tv_sec,
    .ctime_nsec = stx->stx_ctime.tv_nsec,
  };
  return TRUE;
}

static gboolean
same_identity (const ExeIdentity *a,
               const ExeIdentity *b)
{
  return a->dev_major == b->dev_major && a->dev_minor == b->dev_minor && a->ino == b->ino &&
         a->mnt_id == b->mnt_id && a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec;
}

static void
remember_exe (PaddockExecMonitor *self,
              const char         *path,
              const struct statx *stx,
              const char         *exe,
              const char         *interpreter,
              const char         *interpreter_arg)
{
  ResolvedExe *entry;

  entry = g_new0 (ResolvedExe, 1);
  if (!identity_from_statx (stx, &entry->identity))
    {
      g_free (entry);
      return;
    }
  entry->exe = g_strdup (exe);
  entry->interpreter = g_strdup (interpreter);
  entry->interpreter_arg = g_strdup (interpreter_arg);
  if (g_hash_table_size (self->resolved) >= RESOLVED_MAX)
    g_hash_table_remove_all (self->resolved);
  g_hash_table_replace (self->resolved, g_strdup (path), entry);
}

/* @path as thread @tid means it, where it leads through the caller's own
 * entries in /proc: "/proc/self/…", "/proc/thread-self/…" and "/dev/fd/…"
 * (a program that runs itself again as /proc/self/exe, the C library's
 * fexecve() without execveat). Looked up here, they would be paddock-run's
 * own. Returns "/proc/TID/…", or NULL for any other path. */
static char *
caller_proc_path (const char *path,
                  pid_t       tid)
{
  g_autofree char *clean = NULL;
  const char *slash;
  const char *rest;

  /* Most paths are none of these: no allocation before their answer. */
  if (strstr (path, "/proc") == NULL && strstr (path, "/dev") == NULL)
    return NULL;
  clean = g_canonicalize_filename (path, "/");
  /* Kept: a trailing slash makes exec fail (ENOTDIR), as it must here. */
  slash = g_str_has_suffix (path, "/") && !g_str_has_suffix (clean, "/") ? "/" : "";

  if ((rest = paddock_path_beneath (clean, "/proc/self")) != NULL)
    return g_strdup_printf ("/proc/%d%s%s", (int) tid, rest, slash);
  if ((rest = paddock_path_beneath (clean, "/proc/thread-self")) != NULL)
    return g_strdup_printf ("/proc/%d/task/%d%s%s", (int) tid, (int) tid, rest, slash);
  if ((rest = paddock_path_beneath (clean, "/dev/fd")) != NULL)
    return g_strdup_printf ("/proc/%d/fd%s%s", (int) tid, rest, slash);
  return NULL;
}

/* Finds what exec will run, as the caller sees its file system: absolute
 * paths under its root, relative ones from its cwd or dirfd. Sets
 * info->exe (symlinks resolved) when there is a file. Returns 0, or ENOENT
 * / ENOTDIR when there is nothing to run there (a PATH search miss).
 *
 * An absolute path in a process that shares the agent's root and mounts
 * is looked up in a cache first: a path that still leads to the same regular file on the
 * same mount, its ctime unchanged (a rename or a new link changes it), is
 * recorded with the name it resolved to before. That costs one statx
 * instead of an open, a readlink of /proc/self/fd and a close. At worst
 * (a symlink repointed at another hard link of the same file) the record
 * names the file that runs by another of its names. The statx comes
 * before the answer even for an exec the policy allows: a program run
 * once and deleted since must be a PATH miss, not a run, when tried again. */
static int
find_executable (PaddockExecMonitor *self,
                 pid_t               pid,
                 gboolean            is_execveat,
                 int                 dirfd,
                 int                 at_flags,
                 ExecInfo           *info)
{
  char base_path[64];
  char self_path[48];
  g_autofree char *own_path = NULL;
  paddock_autofd int base = -1;
  paddock_autofd int fd = -1;
  int base_fd = -1;
  struct open_how how = { .flags = O_PATH | O_CLOEXEC };
  gboolean cacheable = FALSE;

  if (is_execveat && (at_flags & AT_SYMLINK_NOFOLLOW))
    how.flags |= O_NOFOLLOW;

  if (info->path[0] == '\0' && is_execveat && (at_flags & AT_EMPTY_PATH))
    {
      g_snprintf (base_path, sizeof base_path, "/proc/%d/fd/%d", (int) pid, dirfd);
      info->lexical = read_link_at (AT_FDCWD, base_path);
      fd = open (base_path, O_PATH | O_CLOEXEC);
    }
  else if (info->path[0] == '/' && (own_path = caller_proc_path (info->path, pid)) != NULL)
    {
      /* Their links (exe, fd/N) lead to the file itself, whatever root and
       * mounts the caller has. A descriptor or a process's exe is no name:
       * the file's own is the one the policy and the record go by. */
      fd = open (own_path, (int) how.flags);
      if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
        return errno;
    }
  else
    {
      if (info->path[0] == '/')
        {
          /* Looked up from the caller's root in the caller's mount
           * namespace, which under the folder lock is not ours (its /tmp
           * is its own). Until some process made a call that could change
           * either, that is the agent's, opened once. */
          how.resolve = RESOLVE_IN_ROOT;
          if (!self->roots_may_differ && self->root_fd >= 0)
            {
              base_fd = self->root_fd;
              cacheable = (how.flags & O_NOFOLLOW) == 0;
            }
          else
            g_snprintf (base_path, sizeof base_path, "/proc/%d/root", (int) pid);
        }
      else if (is_execveat && dirfd != AT_FDCWD)
        g_snprintf (base_path, sizeof base_path, "/proc/%d/fd/%d", (int) pid, dirfd);
      else
        g_snprintf (base_path, sizeof base_path, "/proc/%d/cwd", (int) pid);

      /* The cache is checked with a plain statx from the root: where that
       * walk strays (an absolute symbolic link leads back to our root) the
       * file it finds has another mount id, and the exact lookup decides. */
      if (cacheable && info->path[strspn (info->path, "/")] != '\0')
        {
          ResolvedExe *entry = g_hash_table_lookup (self->resolved, info->path);
          struct statx stx;
          ExeIdentity id;

          if (entry != NULL &&
              statx (base_fd, info->path + strspn (info->path, "/"), 0, IDENTITY_MASK, &stx) == 0 &&
              identity_from_statx (&stx, &id) && same_identity (&id, &entry->identity))
            {
              info->exe = g_strdup (entry->exe);
              if (entry->interpreter != NULL)
                add_shebang (info, g_strdup (entry->interpreter), g_strdup (entry->interpreter_arg));
              return 0;
            }
        }
      if (base_fd < 0)
        {
          base = open (base_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
          if (base < 0)
            return 0;
          base_fd = base;
        }
      fd = (int) syscall (SYS_openat2, base_fd, info->path, &how, sizeof how);
      if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
        return errno;
    }

  if (fd >= 0)
    {
      struct statx stx;
      gboolean known = statx (fd, "", AT_EMPTY_PATH, IDENTITY_MASK | STATX_MODE, &stx) == 0 &&
                       (stx.stx_mask & (STATX_TYPE | STATX_MODE)) == (STATX_TYPE | STATX_MODE);

      /* What exec refuses whoever asks, root too: a folder, a device, a
       * file without an execute bit. Not a run, as a PATH miss is not. */
      if (known && !S_ISLNK (stx.stx_mode) && (!S_ISREG (stx.stx_mode) || (stx.stx_mode & 0111) == 0))
        return EACCES;

      if (known && S_ISREG (stx.stx_mode))
        {
          char *interpreter = NULL;
          char *argument = NULL;
          struct statfs fs;

          /* Nor does it run a file on a noexec mount (a hardened /tmp). */
          if (fstatfs (fd, &fs) == 0 && (fs.f_flags & ST_NOEXEC) != 0)
            return EACCES;

          if (paddock_exec_read_interpreter (fd, &interpreter, &argument))
            add_shebang (info, interpreter, argument);
        }
      g_snprintf (self_path, sizeof self_path, "/proc/self/fd/%d", fd);
      info->exe = read_link_at (AT_FDCWD, self_path);
      if (cacheable && known && info->exe != NULL)
        remember_exe (self, info->path, &stx, info->exe, shebang (info, 0), shebang (info, 1));
      if (own_path != NULL)
        info->lexical = g_strdup (info->exe);
    }
  return 0;
}

/* A script's interpreter may be a script itself. The kernel reads up to
 * five #! lines, the script's and four more (then fails with ELOOP), and
 * runs the last interpreter with every line's interpreter, argument and
 * file before the script's arguments. Each interpreter is looked up as the
 * caller sees it, like the script, so an exec that fails because one is
 * missing or cannot run fails here, unreported, with the kernel's errno.
 * Each one's identity is checked on every exec (the cache's statx), for
 * the script's line alone is cached: another file can take an
 * interpreter's place. */
static int
follow_interpreters (PaddockExecMonitor *self,
                     pid_t               pid,
                     ExecInfo           *info)
{
  const char *next = shebang (info, 0);

  for (guint lines = 1; next != NULL; lines++)
    {
      g_autoptr(ExecInfo) level = g_new0 (ExecInfo, 1);
      int err;

      level->pid = level->tid = info->tid;
      level->path = g_strdup (next);
      err = find_executable (self, pid, FALSE, AT_FDCWD, 0, level);
      if (err != 0)
        return err;
      if (level->shebangs == NULL)
        return 0;
      if (lines == PADDOCK_EXEC_MAX_SHEBANG_LINES)
        return ELOOP;
      add_shebang (info, g_strdup (shebang (level, 0)), g_strdup (shebang (level, 1)));
      next = shebang (info, info->shebangs->len - 2);
    }
  return 0;
}

/* Reads the exec the kernel handed over. Returns 0, or the errno exec
 * should fail with without being reported (a PATH miss, a file exec
 * refuses, a bad pointer).
 * A PATH miss is found before argv and cwd are read: a shell or make
 * tries each directory of PATH in turn, and only the last try runs. */
static int
read_exec (PaddockExecMonitor        *self,
           const struct seccomp_notif *req,
           const ExecAbi              *abi,
           gboolean                    is_execveat,
           ExecInfo                   *info)
{
  ReadScratch *scratch = self->scratch;
  char path[48];
  g_autoptr(GString) exec_path = g_string_new (NULL);
  guint64 path_address = is_execveat ? req->data.args[1] : req->data.args[0];
  guint64 argv_address = is_execveat ? req->data.args[2] : req->data.args[1];
  int dirfd = (int) req->data.args[0];
  int at_flags = is_execveat ? (int) req->data.args[4] : 0;
  Span known[2];
  guint n_known = 0;
  gboolean shared_page;
  int err;

  info->pid = info->tid = req->pid;
  if (abi->pointer_size == 4)
    {
      path_address &= 0xffffffffu;
      argv_address &= 0xffffffffu;
    }

  /* One read for the path's page and the first page of argv's pointers,
   * which usually hold the strings too; one span where the two share a
   * page (a shell's often do), so that the page is pinned once. */
  shared_page = path_address != 0 && argv_address != 0 &&
                path_address / self->page_size == argv_address / self->page_size;
  if (path_address != 0)
    {
      guint64 start = shared_page ? MIN (path_address, argv_address) : path_address;

      known[n_known++] = (Span) { start,
                                  MIN (self->page_size - (start % self->page_size), sizeof scratch->path_page),
                                  (char *) scratch->path_page };
    }
  if (argv_address != 0 && !shared_page)
    {
      gsize length = MIN (self->page_size - (argv_address % self->page_size), sizeof scratch->pointers_page);

      length -= length % abi->pointer_size;
      if (length > 0)
        known[n_known++] = (Span) { argv_address, length, (char *) scratch->pointers_page };
    }
  err = read_spans (req->pid, known, n_known);
  if (err != 0)
    return err;

  err = take_string (self, req->pid, find_span (known, n_known, path_address), path_address,
                     PADDOCK_EXEC_MAX_PATH, exec_path, &info->truncated);
  if (err != 0)
    return err == ESRCH ? ESRCH : EFAULT;
  info->path = g_strndup (exec_path->str, exec_path->len);

  err = find_executable (self, req->pid, is_execveat, dirfd, at_flags, info);
  if (err == 0 && info->shebangs != NULL)
    err = follow_interpreters (self, req->pid, info);
  if (err != 0)
    return err;

  err = read_argv (self, abi, req->pid, argv_address, known, n_known, info);
  if (err != 0)
    return err == ESRCH ? ESRCH : EFAULT;

  if (info->lexical == NULL)
    {
      g_autofree char *dir = NULL;

      if (info->path[0] != '/' && is_execveat && dirfd != AT_FDCWD)
        {
          g_snprintf (path, sizeof path, "/proc/%d/fd/%d", (int) req->pid, dirfd);
          dir = read_link_at (AT_FDCWD, path);
        }
      else if (info->path[0] != '/')
        dir = g_strdup (load_cwd (info));
      info->lexical = g_canonicalize_filename (info->path, dir != NULL && dir[0] == '/' ? dir : "/");
    }
  if (info->exe == NULL)
    info->exe = g_strdup (info->lexical);
  return 0;
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

/* Records are serialized by hand, without printf: @key is one of ours and
 * needs no escaping; numbers as paddock_audit_append() writes an int64. */
static void
append_key (GString    *out,
            const char *key)
{
  g_string_append_len (out, ",\"", 2);
  g_string_append (out, key);
  g_string_append_len (out, "\":", 2);
}

static void
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

static void
append_string_member (GString    *out,
                      const char *key,
                      const char *value)
{
  append_key (out, key);
  paddock_audit_append_json_string (out, value, -1);
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
  append_string_member (out, "decision", paddock_decision_to_string (decision));
  append_string_member (out, "by", by);
  if (rule != NULL)
    append_string_member (out, "rule", rule);
  if (!paddock_audit_append_members (self->audit, PADDOCK_AUDIT_EXEC, out->str, out->len, NULL, &error))
    paddock_audit_print_error (error);
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

/* FALSE when the caller is no longer there to answer (it was killed). */
static gboolean
respond (PaddockExecMonitor *self,
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

static gboolean
was_refused (PaddockExecMonitor *self,
             const ExecInfo     *info,
             gint64              now)
{
  gboolean found = FALSE;

  g_mutex_lock (&self->lock);
  while (self->refused.head != NULL && ((Refusal *) self->refused.head->data)->expires < now)
    refusal_free (g_queue_pop_head (&self->refused));
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

/* The first exec is the agent's own, made once its lock (and the mount
 * namespace that comes with it) is in place: its root is every process's
 * until one makes a call in root_calls. */
static void
open_agent_root (PaddockExecMonitor         *self,
                 const struct seccomp_notif *req)
{
  char path[48];
  paddock_autofd int fd = -1;

  g_snprintf (path, sizeof path, "/proc/%d/root", (int) req->pid);
  fd = open (path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      /* Looked up for each exec instead. */
      self->roots_may_differ = TRUE;
      return;
    }
  if (ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0)
    self->root_fd = g_steal_fd (&fd);
}

/* Reads what needs the caller alive: its parent, its working directory,
 * and, where @pidfd is given, a pidfd (-1 where none could be opened). */
static void
read_process (PaddockExecMonitor *self,
              pid_t               pid,
              ExecInfo           *info,
              int                *pidfd)
{
  int fd = pidfd_open_nonblock (pid);
  gboolean at_ceiling;

  /* A thread other than its process's first, which pidfd_open refuses
   * (EINVAL on older kernels, ENOENT on 6.18): its exec ends the process's
   * other threads and the program they ran, and goes on as the process,
   * under the process's pid. That is the pid the run is recorded and
   * watched under. */
  if (fd < 0 && (errno == EINVAL || errno == ENOENT))
    {
      pid_t tgid = read_tgid (pid);

      if (tgid > 0 && tgid != pid)
        {
          info->pid = tgid;
          fd = pidfd_open_nonblock (tgid);
        }
    }
  at_ceiling = fd >= self->fd_ceiling;
  fd = keep_below_ceiling (self, fd);

  /* Out of the descriptors that may be held for programs (the supervisor
   * raised its soft limit to the hard one): the run is recorded, its end
   * will not be. Said once. */
  if (fd < 0 && (errno == EMFILE || errno == ENFILE) && !self->warned_no_pidfd)
    {
      g_autofree char *why = at_ceiling ?
        g_strdup_printf ("they hold all open files but the %d paddock-run keeps for itself", self->fd_reserve) :
        g_strdup (g_strerror (errno));

      self->warned_no_pidfd = TRUE;
      paddock_printerr ("cannot watch for programs' ends: %s; "
                        "a program started while this lasts is recorded without its end", why);
    }

  info->ppid = read_ppid (info->pid, fd);
  load_cwd (info);
  if (pidfd != NULL)
    *pidfd = fd;
  else
    paddock_close_fd (&fd);
}

/* The inode of the pipe that is thread @tid's descriptor @fd, or 0. */
static guint64
read_pipe (pid_t tid,
           int   fd)
{
  char path[48];
  char target[64];
  ssize_t n;
  guint64 inode;
  char *end;

  g_snprintf (path, sizeof path, "/proc/%d/fd/%d", (int) tid, fd);
  n = readlinkat (AT_FDCWD, path, target, sizeof target - 1);
  if (n <= 0)
    return 0;
  target[n] = '\0';
  if (!g_str_has_prefix (target, "pipe:["))
    return 0;
  inode = g_ascii_strtoull (target + strlen ("pipe:["), &end, 10);
  return end[0] == ']' && end[1] == '\0' ? inode : 0;
}

/* @pid's command line, its arguments joined by spaces, at most
 * PIPE_WRITER_LINE_MAX bytes of it; NULL when it cannot be read. */
static char *
read_command_line (pid_t pid)
{
  g_autofree char *buffer = g_malloc (PIPE_WRITER_LINE_MAX + 1);
  char path[48];
  paddock_autofd int fd = -1;
  gsize length = 0;
  ssize_t n;

  g_snprintf (path, sizeof path, "/proc/%d/cmdline", (int) pid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  while (length < PIPE_WRITER_LINE_MAX &&
         (n = read (fd, buffer + length, PIPE_WRITER_LINE_MAX - length)) > 0)
    length += n;
  while (length > 0 && buffer[length - 1] == '\0')
    length--;
  if (length == 0)
    return NULL;
  for (gsize i = 0; i < length; i++)
    if (buffer[i] == '\0')
      buffer[i] = ' ';
  buffer[length] = '\0';
  return g_strndup (buffer, length);
}

static char *
join_argv (const char * const *argv)
{
  return g_strjoinv (" ", (GStrv) argv);
}

/* The command line of an exec of @argv, run as @path, with #! lines
 * @shebangs, as /proc/PID/cmdline has it once the exec is done, which is
 * how a shell that runs second sees it (find_pipe_writer): for a script,
 * its last #! line's. */
static char *
running_line (const char * const *argv,
              const char         *path,
              GPtrArray          *shebangs)
{
  g_autoptr(GPtrArray) argvs = NULL;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  PaddockPolicyQuery query = { .exe = path, .argv = argv };
  guint n_lines = shebangs != NULL ? shebangs->len / 2 : 0;
  guint n;

  if (n_lines == 0)
    return join_argv (argv);
  n = paddock_exec_level_queries (&query, path, shebangs, &argvs, levels);
  return join_argv (levels[MIN (n_lines, n - 1)].argv);
}

/* An exec lately let go on: until the kernel has done it, which takes a
 * while after the answer, /proc shows the program it replaces (see
 * sibling_on_pipe). The thread's. */
static void
recent_exec_clear (RecentExec *recent)
{
  recent->pid = 0;
  g_clear_pointer (&recent->argv, g_ptr_array_unref);
  g_clear_pointer (&recent->path, g_free);
  g_clear_pointer (&recent->shebangs, g_ptr_array_unref);
}

static void
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

/* How many downloaded files are kept: the oldest go first. */
#define DOWNLOADS_MAX 1024
/* How much of a download's command line is kept, to say what saved a file. */
#define DOWNLOAD_COMMAND_MAX 1024
/* How many files of one clone's folder a user let run are kept. */
#define DOWNLOAD_LOOKED_MAX 1024
/* A clone's files are those changed from this long before it was let
 * run: file times come from a clock that may lag by a tick. */
#define CLONE_EARLY_NS G_GINT64_CONSTANT (1000000000)

typedef struct
{
  char       *path;     /* the file saved, or a clone's folder (ending in '/'); the key */
  gint64      event;    /* the download's exec */
  char       *command;  /* its command line, cut at DOWNLOAD_COMMAND_MAX */
  /* For a clone's folder: the files it wrote are those changed while it
   * ran (ns since 1970; until G_MAXINT64 before its end is seen), less
   * those a user let run since. A file tar unpacks, or wget fetches,
   * has the time it had where it came from: only its inode's change
   * time says when it was written. A checkout's also counts as written
   * by the time of its contents, which a chmod +x after it leaves. */
  gint64      from;
  gint64      until;
  gboolean    by_mtime;
  int         pidfd;    /* ... and until then, its run's pidfd, or -1 */
  GHashTable *looked;   /* path, or NULL */
} Download;

static void
download_free (Download *download)
{
  g_free (download->path);
  g_free (download->command);
  paddock_close_fd (&download->pidfd);
  g_clear_pointer (&download->looked, g_hash_table_unref);
  g_free (download);
}

/* One end of a pipe from a download into a program that saves what it
 * reads (`curl URL | tar xz`, `curl URL | tee i.sh`), or passes it on
 * (`curl URL | gunzip | tar x`), kept until the other end's run is let
 * go on: the two exec in either order. */
typedef struct
{
  guint64     pipe;      /* its inode */
  gint64      event;     /* this end's exec */
  char       *command;   /* its command line, cut at DOWNLOAD_COMMAND_MAX */
  GPtrArray  *targets;   /* for the reader, what it writes (tar's folder, tee's files), or NULL;
                          * NULL for the download */
  guint64     forward;   /* for a reader that is a filter, the pipe it writes to; else 0 */
  const char *input;     /* for the reader, what it reads, as ExecInfo's pipe_input */
  int         pidfd;     /* for a reader that saves, its run's, or -1 */
} PipeEnd;

static gboolean
is_reader (const PipeEnd *end)
{
  return end->targets != NULL || end->forward != 0;
}

#define PIPE_ENDS_MAX 16

static void
pipe_end_free (PipeEnd *end)
{
  g_free (end->command);
  g_clear_pointer (&end->targets, g_ptr_array_unref);
  paddock_close_fd (&end->pidfd);
  g_free (end);
}

static gboolean
is_folder (const Download *download)
{
  return g_str_has_suffix (download->path, "/");
}

/* Under downloads_lock: the download that saved @path itself, or else the
 * clone whose folder holds it, the nearest (*@in_folder). */
static Download *
find_download (PaddockExecMonitor *self,
               const char         *path,
               gboolean           *in_folder)
{
  Download *download = g_hash_table_lookup (self->downloads, path);
  g_autofree char *prefix = NULL;

  *in_folder = FALSE;
  if (download != NULL || self->n_folders == 0)
    return download;
  prefix = g_strdup (path);
  for (char *slash = strrchr (prefix, '/'); slash != NULL; slash = strrchr (prefix, '/'))
    {
      slash[1] = '\0';
      download = g_hash_table_lookup (self->downloads, prefix);
      if (download != NULL && is_folder (download))
        {
          *in_folder = TRUE;
          return download;
        }
      *slash = '\0';
    }
  return NULL;
}

/* When @path was last written, and when its inode last changed (ns since
 * 1970), as process @tid sees its file system; left as they are when not
 * known. */
static void
written_at (pid_t       tid,
            const char *path,
            gint64      times[2])
{
  g_autofree char *seen = g_strdup_printf ("/proc/%d/root%s", (int) tid, path);
  struct statx stx;

  /* Cached attributes will do (see read_fd_file()). */
  if (statx (AT_FDCWD, seen, AT_STATX_DONT_SYNC, STATX_MTIME | STATX_CTIME, &stx) != 0 ||
      (stx.stx_mask & (STATX_MTIME | STATX_CTIME)) != (STATX_MTIME | STATX_CTIME))
    return;
  times[0] = stx.stx_mtime.tv_sec * G_GINT64_CONSTANT (1000000000) + stx.stx_mtime.tv_nsec;
  times[1] = stx.stx_ctime.tv_sec * G_GINT64_CONSTANT (1000000000) + stx.stx_ctime.tv_nsec;
}

static gboolean
within (gint64          time,
        const Download *download)
{
  return time >= download->from && time <= download->until;
}

/* Whether the download that saved @path, a file process @tid runs, is
 * known, with (if not NULL) a copy of its exec and command line. In a
 * clone's folder, only a file the clone wrote counts, and not once a user
 * let it run. */
static gboolean
lookup_download (PaddockExecMonitor  *self,
                 const char          *path,
                 pid_t                tid,
                 gint64              *event,
                 char               **command)
{
  Download *download;
  gboolean in_folder;
  gint64 written[2] = { -1, -1 };
  gboolean found;

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  g_mutex_unlock (&self->downloads_lock);
  if (download == NULL)
    return FALSE;
  /* Not under the lock: a file system may be slow to answer. */
  if (in_folder)
    written_at (tid, path, written);

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  found = download != NULL &&
          (!in_folder || (((download->by_mtime && within (written[0], download)) || within (written[1], download)) &&
                          (download->looked == NULL || !g_hash_table_contains (download->looked, path))));
  if (found && event != NULL)
    *event = download->event;
  if (found && command != NULL)
    *command = g_strdup (download->command);
  g_mutex_unlock (&self->downloads_lock);
  return found;
}

static gboolean
is_downloaded (const char *path,
               gpointer    data)
{
  DownloadLook *look = data;

  return lookup_download (look->monitor, path, look->tid, NULL, NULL);
}

/* For @query, of @info's exec, "downloaded": NULL while nothing was
 * downloaded, so the policy does not look. */
static void
query_downloads (PaddockExecMonitor *self,
                 ExecInfo           *info,
                 PaddockPolicyQuery *query)
{
  if (g_atomic_int_get (&self->n_downloads) > 0)
    {
      info->download_look.monitor = self;
      info->download_look.tid = info->tid;
      query->downloaded_func = is_downloaded;
      query->downloaded_data = &info->download_look;
    }
}

/* @text, cut where a character starts once it is longer than @max bytes
 * and marked "…" where cut; freed into its string. */
static char *
free_cut (GString *text,
          gsize    max)
{
  if (text->len > max)
    {
      g_string_truncate (text, paddock_utf8_char_start (text->str, max));
      g_string_append (text, "…");
    }
  return g_string_free (text, FALSE);
}

/* @argv joined by spaces, as free_cut() cuts it at @max bytes. */
static char *
join_argv_cut (const char * const *argv,
               gsize               max)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL && line->len <= max; i++)
    {
      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, argv[i]);
    }
  return free_cut (line, max);
}

/* The regular file that is @tid's descriptor @fd, or NULL: where the
 * shell sends what a download writes to standard output (`curl URL >
 * i.sh`), or what tar reads (`tar xz < t.tgz`). */
static char *
read_fd_file (pid_t tid,
              int   fd)
{
  char link[48];
  struct statx stx;
  char *path;

  g_snprintf (link, sizeof link, "/proc/%d/fd/%d", (int) tid, fd);
  /* Cached attributes will do: a file system the agent serves itself
   * (FUSE) must not keep this thread waiting. */
  if (statx (AT_FDCWD, link, AT_STATX_DONT_SYNC, STATX_TYPE, &stx) != 0 || !(stx.stx_mask & STATX_TYPE) ||
      !S_ISREG (stx.stx_mode))
    return NULL;
  path = read_link_at (AT_FDCWD, link);
  /* A file since deleted, or one in another mount namespace's view. */
  if (path != NULL && (!g_path_is_absolute (path) || g_str_has_suffix (path, " (deleted)")))
    g_clear_pointer (&path, g_free);
  return path;
}

/* Under downloads_lock: the end kept in self->piped of @pipe that is a
 * download (@reader FALSE) or what reads its output (TRUE), or NULL. */
static GList *
lookup_pipe_end (PaddockExecMonitor *self,
                 guint64             pipe,
                 gboolean            reader)
{
  for (GList *l = self->piped.tail; l != NULL; l = l->prev)
    {
      PipeEnd *end = l->data;

      if (end->pipe == pipe && is_reader (end) == reader)
        return l;
    }
  return NULL;
}

/* Where the input of a program that saves it (what it reads, @input)
 * came from: @download's run. */
static char *
piped_from (const char    *input,
            const PipeEnd *download)
{
  return g_strdup_printf ("its %s piped from #%" G_GINT64_FORMAT ": %s", input, download->event, download->command);
}

/* @info, a run of tar, tee or a filter, saves what it reads from @pipe
 * (its standard input) to @targets (or NULL), and passes it on to the
 * pipe @forward (or 0): where a download that writes to @pipe was let go
 * on before, the targets count as downloaded by @info, and @forward is a
 * download's pipe; else this end waits for it (note_piped()). */
static void
find_piped_download (PaddockExecMonitor *self,
                     ExecInfo           *info,
                     guint64             pipe,
                     GPtrArray          *targets,
                     guint64             forward,
                     const char         *input)
{
  GList *l;

  g_mutex_lock (&self->downloads_lock);
  if ((l = lookup_pipe_end (self, pipe, FALSE)) != NULL)
    {
      PipeEnd *download = l->data;

      info->downloads = targets;
      info->saved_from = piped_from (input, download);
      info->download_pipe = forward;
      g_queue_delete_link (&self->piped, l);
      pipe_end_free (download);
    }
  else
    {
      info->download_pipe = pipe;
      info->pipe_targets = targets;
      info->pipe_forward = forward;
      info->pipe_input = input;
    }
  g_mutex_unlock (&self->downloads_lock);
}

/* If @info, a run of the archiver @program, unpacks an archive that
 * counts as downloaded, the folder it unpacks into counts as a clone's.
 * An archive tar reads from standard input counts where it is a file
 * that does, or a pipe from a download (`curl URL | tar xz`): where the
 * download has not run yet, this end waits for it (note_piped()). */
static void
find_unpacked (PaddockExecMonitor *self,
               ExecInfo           *info,
               const char         *program)
{
  g_autofree char *archive = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *command = NULL;
  g_autofree char *zip = NULL;
  gint64 event;

  folder = paddock_download_extract_folder ((const char * const *) info->argv->pdata, program, load_cwd (info),
                                            &archive);
  if (folder == NULL)
    return;
  if (strcmp (archive, "-") == 0)
    {
      guint64 pipe;

      g_clear_pointer (&archive, g_free);
      if ((pipe = read_pipe (info->tid, STDIN_FILENO)) != 0)
        {
          GPtrArray *targets = g_ptr_array_new_with_free_func (g_free);

          g_ptr_array_add (targets, g_steal_pointer (&folder));
          find_piped_download (self, info, pipe, targets, 0, "archive");
          return;
        }
      if ((archive = read_fd_file (info->tid, STDIN_FILENO)) == NULL)
        return;
    }
  if (g_atomic_int_get (&self->n_downloads) == 0)
    return;
  /* unzip NAME opens NAME.zip where there is no NAME. */
  if (!lookup_download (self, archive, info->tid, &event, &command) &&
      (strcmp (program, "unzip") != 0 || !lookup_download (self, (zip = g_strconcat (archive, ".zip", NULL)),
                                                           info->tid, &event, &command)))
    return;
  info->downloads = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (info->downloads, g_steal_pointer (&folder));
  info->saved_from = g_strdup_printf ("its archive saved by #%" G_GINT64_FORMAT ": %s", event, command);
}

/* If @info is a download (curl, wget), finds the files it saves to, its
 * standard output too where the download goes there; if it unpacks a
 * downloaded archive, the folder it unpacks into: while its process
 * waits in the exec, before it is answered. */
static void
find_downloads (PaddockExecMonitor *self,
                ExecInfo           *info)
{
  const char *paths[] = { info->exe, info->lexical, g_ptr_array_index (info->argv, 0) };
  const char *program = NULL;
  gboolean to_stdout = FALSE;
  char *stdout_file;

  for (guint i = 0; i < G_N_ELEMENTS (paths) && program == NULL; i++)
    {
      const char *slash = paths[i] != NULL ? strrchr (paths[i], '/') : NULL;
      const char *name = slash != NULL ? slash + 1 : paths[i];

      if (paddock_download_is_downloader (name) || paddock_download_is_extractor (name) ||
          paddock_download_is_filter (name))
        program = name;
    }
  if (program == NULL)
    return;
  if (paddock_download_is_extractor (program))
    {
      find_unpacked (self, info, program);
      return;
    }
  if (paddock_download_is_filter (program))
    {
      GPtrArray *targets = NULL;
      guint64 pipe;
      guint64 forward;

      if ((pipe = read_pipe (info->tid, STDIN_FILENO)) == 0)
        return;
      if (strcmp (program, "tee") == 0)
        targets = paddock_download_tee_targets ((const char * const *) info->argv->pdata, load_cwd (info));
      forward = read_pipe (info->tid, STDOUT_FILENO);
      if (targets != NULL || forward != 0)
        find_piped_download (self, info, pipe, targets, forward, "input");
      return;
    }
  info->checks_out = strcmp (program, "git") == 0 || strcmp (program, "gh") == 0;
  info->downloads = paddock_download_targets ((const char * const *) info->argv->pdata, program, load_cwd (info),
                                              &to_stdout);
  if (!to_stdout)
    return;
  if ((stdout_file = read_fd_file (info->tid, STDOUT_FILENO)) == NULL)
    {
      /* Perhaps into tar or tee (note_piped()); a clone writes nothing there. */
      if (!info->checks_out)
        info->download_pipe = read_pipe (info->tid, STDOUT_FILENO);
      return;
    }
  if (info->downloads == NULL)
    info->downloads = g_ptr_array_new_with_free_func (g_free);
  if (g_ptr_array_find_with_equal_func (info->downloads, stdout_file, g_str_equal, NULL))
    g_free (stdout_file);
  else
    g_ptr_array_add (info->downloads, stdout_file);
}

/* Takes @download out of the table; under downloads_lock. */
static void
drop_download (PaddockExecMonitor *self,
               Download           *download)
{
  g_queue_remove (&self->downloads_order, download);
  g_hash_table_remove (self->downloads, download->path);
  if (is_folder (download))
    self->n_folders--;
  if (download->until == G_MAXINT64)
    self->n_cloning--;
  download_free (download);
  g_atomic_int_set (&self->n_downloads, (gint) g_queue_get_length (&self->downloads_order));
}

/* Under downloads_lock: notes @path, saved by @event's @command, for a
 * later run of it. @pidfd (or -1) is the run's, for a clone's end to be
 * seen before the main context sees it (close_ended_clones()). */
static void
add_download (PaddockExecMonitor *self,
              char               *path,
              gint64              event,
              const char         *command,
              gboolean            by_mtime,
              int                 pidfd)
{
  Download *download = g_hash_table_lookup (self->downloads, path);

  /* Saved again: the latest download is the one that counts. */
  if (download != NULL)
    drop_download (self, download);
  else if (g_queue_get_length (&self->downloads_order) >= DOWNLOADS_MAX)
    drop_download (self, g_queue_peek_head (&self->downloads_order));
  download = g_new0 (Download, 1);
  download->path = path;
  download->event = event;
  download->command = g_strdup (command);
  download->pidfd = -1;
  download->by_mtime = by_mtime;
  if (is_folder (download))
    {
      download->from = g_get_real_time () * 1000 - CLONE_EARLY_NS;
      download->until = G_MAXINT64;
      if (pidfd >= 0)
        download->pidfd = keep_below_ceiling (self, fcntl (pidfd, F_DUPFD_CLOEXEC, 3));
      self->n_folders++;
      self->n_cloning++;
    }
  g_queue_push_tail (&self->downloads_order, download);
  g_hash_table_insert (self->downloads, download->path, download);
  g_atomic_int_set (&self->n_downloads, (gint) g_queue_get_length (&self->downloads_order));
}

/* @command, and in brackets where what it saved came from, @source. */
static char *
unpack_line (const char *command,
             const char *source)
{
  GString *line = g_string_new (command);

  g_string_append_printf (line, " (%s)", source);
  return free_cut (line, DOWNLOAD_COMMAND_MAX);
}

static void offer_pipe_end (PaddockExecMonitor *self,
                            PipeEnd            *end);

/* Under downloads_lock: @download's output reaches @reader. What the
 * reader saves counts as downloaded from now (tar's folder as a clone's,
 * until tar's end; the paths are taken from its targets); what it passes
 * on (a filter's standard output) is a download of its own, which goes on
 * to its reader in turn. */
static void
connect_pipe_ends (PaddockExecMonitor *self,
                   const PipeEnd      *download,
                   PipeEnd            *reader)
{
  g_autofree char *from = piped_from (reader->input, download);
  g_autofree char *line = unpack_line (reader->command, from);

  for (guint i = 0; reader->targets != NULL && i < reader->targets->len; i++)
    add_download (self, g_steal_pointer (&g_ptr_array_index (reader->targets, i)), reader->event, line, FALSE,
                  reader->pidfd);
  if (reader->forward != 0)
    {
      PipeEnd passed = { .pipe = reader->forward, .event = reader->event, .command = line, .pidfd = -1 };

      offer_pipe_end (self, &passed);
    }
}

/* Under downloads_lock: @end (not kept: what it holds is copied or
 * taken) meets its other end, where that one's run was let go on
 * before; else a copy of it is kept for it, the oldest going when too
 * many are. Each meeting takes an end out of self->piped, so a chain of
 * filters ends. A pipe's inode is not used again while the pipe is open. */
static void
offer_pipe_end (PaddockExecMonitor *self,
                PipeEnd            *end)
{
  GList *l = lookup_pipe_end (self, end->pipe, !is_reader (end));
  PipeEnd *kept;

  if (l != NULL)
    {
      PipeEnd *other = l->data;

      g_queue_delete_link (&self->piped, l);
      if (is_reader (end))
        connect_pipe_ends (self, other, end);
      else
        connect_pipe_ends (self, end, other);
      pipe_end_free (other);
      return;
    }

  if (g_queue_get_length (&self->piped) >= PIPE_ENDS_MAX)
    pipe_end_free (g_queue_pop_head (&self->piped));
  kept = g_new0 (PipeEnd, 1);
  kept->pipe = end->pipe;
  kept->event = end->event;
  kept->command = g_strdup (end->command);
  kept->targets = g_steal_pointer (&end->targets);
  kept->forward = end->forward;
  kept->input = end->input;
  kept->pidfd = kept->targets != NULL && end->pidfd >= 0 ?
                keep_below_ceiling (self, fcntl (end->pidfd, F_DUPFD_CLOEXEC, 3)) : -1;
  g_queue_push_tail (&self->piped, kept);
}

/* Under downloads_lock: @info, let go on as @event with @command, is one
 * end of a pipe from a download into what saves its output or passes it
 * on (its download_pipe): see offer_pipe_end(). */
static void
note_piped (PaddockExecMonitor *self,
            ExecInfo           *info,
            gint64              event,
            const char         *command,
            int                 pidfd)
{
  PipeEnd mine = {
    .pipe = info->download_pipe,
    .event = event,
    .command = (char *) command,
    .targets = info->pipe_targets,
    .forward = info->pipe_forward,
    .input = info->pipe_input,
    .pidfd = pidfd,
  };

  offer_pipe_end (self, &mine);
  info->pipe_targets = mine.targets;
}

/* Notes the files @info, let go on as @event, saves to (see
 * find_downloads()), for a later run of one of them, and an end of a
 * pipe from a download into tar or tee. @pidfd (or -1) is the run's, for a
 * clone's end to be seen before the main context sees it
 * (close_ended_clones()). */
static void
note_download (PaddockExecMonitor *self,
               ExecInfo           *info,
               gint64              event,
               int                 pidfd)
{
  g_autofree char *command = NULL;
  GPtrArray *targets = info->downloads;

  if (targets == NULL && info->download_pipe == 0)
    return;
  command = join_argv_cut ((const char * const *) info->argv->pdata, DOWNLOAD_COMMAND_MAX);
  if (info->saved_from != NULL)
    {
      char *line = unpack_line (command, info->saved_from);

      g_free (command);
      command = line;
    }

  g_mutex_lock (&self->downloads_lock);
  for (guint i = 0; targets != NULL && i < targets->len; i++)
    add_download (self, g_steal_pointer (&g_ptr_array_index (targets, i)), event, command, info->checks_out, pidfd);
  if (info->download_pipe != 0)
    note_piped (self, info, event, command, pidfd);
  g_mutex_unlock (&self->downloads_lock);
}

/* A downloaded file a user let run, asked about it: someone has now
 * looked, and it no longer counts as downloaded, until it is again. */
static void
forget_download (PaddockExecMonitor *self,
                 const char         *path)
{
  Download *download;
  gboolean in_folder;

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  if (download != NULL && !in_folder)
    drop_download (self, download);
  else if (download != NULL)
    {
      if (download->looked == NULL)
        download->looked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (g_hash_table_size (download->looked) < DOWNLOAD_LOOKED_MAX)
        g_hash_table_add (download->looked, g_strdup (path));
    }
  g_mutex_unlock (&self->downloads_lock);
}

/* Under downloads_lock: @download, a clone's folder, has all its files.
 * The kernel's file times lag by up to a tick (4 ms at 250 Hz): a file
 * changed within one after this may still count as the clone's, which
 * asks once too often rather than not at all. */
static void
clone_ended (PaddockExecMonitor *self,
             Download           *download)
{
  download->until = g_get_real_time () * 1000;
  paddock_close_fd (&download->pidfd);
  self->n_cloning--;
}

/* The run of @event ended: a clone it was has written what it wrote. */
static void
end_clone (PaddockExecMonitor *self,
           gint64              event)
{
  g_mutex_lock (&self->downloads_lock);
  if (self->n_cloning > 0)
    for (GList *l = self->downloads_order.head; l != NULL; l = l->next)
      {
        Download *download = l->data;

        if (download->event == event && download->until == G_MAXINT64)
          clone_ended (self, download);
      }
  g_mutex_unlock (&self->downloads_lock);
}

/* Ends the clones whose runs have ended, before the exec being answered
 * is judged. The main context sees an end later, after a batch of exits:
 * by then `tar xf t.tgz && tar xf mine.tar -C t/mine && t/mine/run` had
 * written its own archive's files inside the first one's time, and they
 * counted as downloaded. A run that ended did so before this exec began. */
static void
close_ended_clones (PaddockExecMonitor *self)
{
  if (g_atomic_int_get (&self->n_downloads) == 0)
    return;
  g_mutex_lock (&self->downloads_lock);
  if (self->n_cloning > 0)
    for (GList *l = self->downloads_order.head; l != NULL; l = l->next)
      {
        Download *download = l->data;
        struct pollfd ended = { .fd = download->pidfd, .events = POLLIN };

        if (download->until == G_MAXINT64 && download->pidfd >= 0 && poll (&ended, 1, 0) > 0)
          clone_ended (self, download);
      }
  g_mutex_unlock (&self->downloads_lock);
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

/* The reason @rule gives; for a "downloaded" rule, also which file runs
 * (@path, from rule_download()) and which download saved it: what one who
 * decides needs. */
static char *
decision_reason (PaddockExecMonitor *self,
                 PaddockPolicyRule  *rule,
                 const char         *path,
                 pid_t               tid)
{
  g_autofree char *command = NULL;
  const char *reason;
  GString *text;
  gint64 event;

  if (rule == NULL)
    return NULL;
  reason = paddock_policy_rule_get_reason (rule);
  if (path == NULL)
    return g_strdup (reason);

  text = g_string_new (reason);
  if (text->len > 0)
    g_string_append_c (text, ' ');
  if (lookup_download (self, path, tid, &event, &command))
    g_string_append_printf (text, "It runs %s, which #%" G_GINT64_FORMAT " saved: %s", path, event, command);
  else
    g_string_append_printf (text, "It runs %s, which a download saved.", path);
  return g_string_free (text, FALSE);
}

/* The command line of @pid's exec, if it was one of the last let go on. */
static char *
recent_exec_line (PaddockExecMonitor *self,
                  pid_t               pid)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->recent); i++)
    {
      /* The latest first: a pid execs again more often than it is reused. */
      RecentExec *recent = &self->recent[(self->recent_next - 1 - i) % G_N_ELEMENTS (self->recent)];

      if (recent->pid == pid && recent->argv != NULL)
        return running_line ((const char * const *) recent->argv->pdata, recent->path, recent->shebangs);
    }
  return NULL;
}

/* The other programs a shell's pipeline made: the children of thread
 * @tid's parent, and @tid's own (`bash <(curl …)` run in place of the
 * shell that made the pipe); and the command lines that one of them that
 * has not yet run its program still shows, its parent's. */
typedef struct
{
  pid_t  pids[PIPE_WRITERS_MAX];
  guint  n;
  char  *parent_line;
  char  *self_line;
} Siblings;

static void
siblings_clear (Siblings *siblings)
{
  g_clear_pointer (&siblings->parent_line, g_free);
  g_clear_pointer (&siblings->self_line, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Siblings, siblings_clear)

/* Adds the children of thread @tid (but @except) to @siblings. */
static void
add_children (Siblings *siblings,
              pid_t     tid,
              pid_t     except)
{
  char buffer[PIPE_WRITERS_MAX * 12];
  char name[48];
  char *next;

  g_snprintf (name, sizeof name, "task/%d/children", (int) tid);
  if (!paddock_proc_read_start (-1, tid, name, buffer, sizeof buffer))
    return;
  for (char *p = buffer; *p != '\0' && siblings->n < PIPE_WRITERS_MAX; p = next)
    {
      gint64 child = g_ascii_strtoll (p, &next, 10);

      if (next == p)
        break;
      if (child > 0 && child != except)
        siblings->pids[siblings->n++] = (pid_t) child;
    }
}

/* @ppid: thread @tid's parent. */
static gboolean
read_siblings (pid_t     tid,
               pid_t     ppid,
               Siblings *siblings)
{
  add_children (siblings, ppid, tid);
  add_children (siblings, tid, tid);
  siblings->parent_line = read_command_line (ppid);
  siblings->self_line = read_command_line (tid);
  return siblings->n > 0;
}

/* The command line of the sibling whose descriptor @fd is @pipe, and in
 * @other, the pipe that is its descriptor @other_fd (or 0); NULL when none
 * is, or it has not yet run its program. One whose exec was let go on
 * but not yet done still shows the program it replaces: its exec's line
 * is the one it will have. */
static char *
sibling_on_pipe (PaddockExecMonitor *self,
                 const Siblings     *siblings,
                 int                 fd,
                 guint64             pipe,
                 int                 other_fd,
                 guint64            *other)
{
  for (guint i = 0; i < siblings->n; i++)
    {
      char *line;

      if (read_pipe (siblings->pids[i], fd) != pipe)
        continue;
      line = read_command_line (siblings->pids[i]);
      if (line == NULL || g_strcmp0 (line, siblings->parent_line) == 0 || g_strcmp0 (line, siblings->self_line) == 0)
        {
          g_free (line);
          line = recent_exec_line (self, siblings->pids[i]);
          if (line == NULL)
            return NULL;
        }
      *other = read_pipe (siblings->pids[i], other_fd);
      return line;
    }
  return NULL;
}

/* What writes to @pipe, the stdin of the shell that thread @tid execs:
 * the command lines of the shell's siblings (what its pipeline made) up
 * the pipes, `curl … | tee log` for `curl … | tee log | sh`; or NULL. A
 * sibling that has not yet run its program is not known; its exec, when
 * it comes, finds the shell (find_pipe_reader). */
static char *
find_pipe_writer (PaddockExecMonitor *self,
                  pid_t               tid,
                  guint64             pipe)
{
  g_auto(Siblings) siblings = { { 0 }, 0, NULL, NULL };
  g_autoptr(GString) pipeline = NULL;
  pid_t ppid = read_ppid (tid, -1);

  if (ppid <= 0 || !read_siblings (tid, ppid, &siblings))
    return NULL;
  for (guint hops = 0; pipe != 0 && hops < PIPE_HOPS_MAX; hops++)
    {
      guint64 upstream = 0;
      g_autofree char *line = sibling_on_pipe (self, &siblings, STDOUT_FILENO, pipe, STDIN_FILENO, &upstream);

      if (line == NULL)
        break;
      if (pipeline == NULL)
        pipeline = g_string_new (line);
      else
        {
          g_string_prepend (pipeline, " | ");
          g_string_prepend (pipeline, line);
        }
      pipe = upstream;
    }
  return pipeline != NULL ? g_string_free (g_steal_pointer (&pipeline), FALSE) : NULL;
}

/* Whether @reader still reads its script from its pipe. */
static gboolean
reader_reads (const PipeReader *reader)
{
  return read_pipe (reader->pid, reader->fd) == reader->pipe;
}

/* A shell in self->readers that reads its script from @pipe, still. */
static const PipeReader *
reader_of (PaddockExecMonitor *self,
           guint64             pipe)
{
  for (guint i = self->readers->len; i > 0; i--)
    {
      PipeReader *reader = g_ptr_array_index (self->readers, i - 1);

      if (reader->pipe != pipe)
        continue;
      if (reader_reads (reader))
        return reader;
      g_ptr_array_remove_index (self->readers, i - 1);
    }
  return NULL;
}

/* Whether a shell in self->readers has the parent of thread @tid, which
 * goes in @ppid. */
static gboolean
has_sibling_reader (PaddockExecMonitor *self,
                    pid_t               tid,
                    pid_t              *ppid)
{
  *ppid = read_ppid (tid, -1);
  if (*ppid <= 0)
    return FALSE;
  for (guint i = 0; i < self->readers->len; i++)
    if (((PipeReader *) g_ptr_array_index (self->readers, i))->ppid == *ppid)
      return TRUE;
  return FALSE;
}

/* The shell kept in self->readers that reads its script from the pipe
 * thread @tid writes to (its stdout), directly or through its siblings
 * down the pipes (`curl … | tee log | sh`, the shell having run first);
 * in @between, those siblings' command lines, " | tee log" (or ""). */
static const PipeReader *
find_pipe_reader (PaddockExecMonitor  *self,
                  pid_t                tid,
                  gint64               now,
                  char               **between)
{
  g_auto(Siblings) siblings = { { 0 }, 0, NULL, NULL };
  g_autoptr(GString) lines = NULL;
  const PipeReader *reader;
  guint64 pipe;
  pid_t ppid;

  /* Those that no longer read their pipe (gone, or past it) go, now and
   * then, so that an exec pays for the looks below only while one reads. */
  if (now - self->readers_checked >= PIPE_READERS_CHECK)
    {
      self->readers_checked = now;
      for (guint i = self->readers->len; i > 0; i--)
        {
          if (!reader_reads (g_ptr_array_index (self->readers, i - 1)))
            g_ptr_array_remove_index (self->readers, i - 1);
        }
    }
  if (self->readers->len == 0)
    return NULL;

  pipe = read_pipe (tid, STDOUT_FILENO);
  if (pipe == 0)
    return NULL;
  lines = g_string_new (NULL);
  reader = reader_of (self, pipe);
  /* Through filters, only where one of those shells is a sibling: an
   * agent's own shell fed through a pipe for the whole session must not
   * make each exec whose output a pipe takes look at its siblings. */
  if (reader == NULL && has_sibling_reader (self, tid, &ppid) && read_siblings (tid, ppid, &siblings))
    for (guint hops = 0; reader == NULL && pipe != 0 && hops < PIPE_HOPS_MAX; hops++)
      {
        guint64 downstream = 0;
        g_autofree char *line = sibling_on_pipe (self, &siblings, STDIN_FILENO, pipe, STDOUT_FILENO, &downstream);

        if (line == NULL)
          break;
        g_string_append (lines, " | ");
        g_string_append (lines, line);
        pipe = downstream;
        if (pipe != 0)
          reader = reader_of (self, pipe);
      }
  if (reader != NULL)
    *between = g_string_free (g_steal_pointer (&lines), FALSE);
  return reader;
}

/* @info, a shell reading its script from a pipe, is kept for the pipe's
 * writer to find; the oldest goes when too many are. */
static void
keep_pipe_reader (PaddockExecMonitor *self,
                  const ExecInfo     *info)
{
  PipeReader *reader = g_new0 (PipeReader, 1);

  reader->pipe = info->script_pipe;
  reader->fd = info->script_fd;
  reader->pid = info->pid;
  reader->ppid = info->ppid;
  reader->exe = g_strdup (info->lexical);
  reader->resolved = g_strdup (info->exe);
  reader->argv = g_strdupv ((GStrv) info->argv->pdata);
  reader->cwd = g_strdup (info->cwd);
  if (self->readers->len >= MAX_PIPE_READERS)
    g_ptr_array_remove_index (self->readers, 0);
  g_ptr_array_add (self->readers, reader);
}

/* Where @info writes to a pipe a shell that ran first reads its script
 * from, the shell's level, with @info's writer as what writes to it,
 * after the @n @levels of @query. (A shell that runs second is its own
 * level 0, whose query has its stdin_from.) Returns the levels' new
 * count. */
static guint
add_pipe_level (const ExecInfo           *info,
                const PaddockPolicyQuery *query,
                PaddockPolicyQuery       *levels,
                guint                     n)
{
  if (info->reader == NULL || n >= PADDOCK_EXEC_MAX_LEVELS)
    return n;
  levels[n] = (PaddockPolicyQuery) {
    .exe = info->reader->exe,
    .argv = (const char * const *) info->reader->argv,
    .cwd = info->reader->cwd,
    .project = query->project,
    .home = query->home,
    .resolved = info->reader->resolved,
    .stdin_from = info->writer,
  };
  return n + 1;
}

/* The next event's number, once its exec was answered or is held. */
static gint64
take_seq (PaddockExecMonitor *self)
{
  gint64 seq;

  g_mutex_lock (&self->lock);
  seq = (gint64) ++self->next_seq;
  g_mutex_unlock (&self->lock);
  return seq;
}

/* @info's pipeline, "WRITER | SHELL", as far as it is shown
 * (PADDOCK_EXEC_MAX_PIPELINE_SHOWN), cut where a character may start, and
 * marked "…" where cut. */
static void
set_pipeline (ExecInfo   *info,
              const char *writer,
              const char *shell)
{
  GString *pipeline = g_string_new (writer);

  g_string_append (pipeline, " | ");
  g_string_append (pipeline, shell);
  g_free (info->pipeline);
  info->pipeline = free_cut (pipeline, PADDOCK_EXEC_MAX_PIPELINE_SHOWN);
}

/* Which end of a pipe into a shell that reads its script from it @info
 * is, if either: the shell (its script_pipe; @query's stdin_from is then
 * what writes to it, if known) or what writes to it, the shell having
 * run first. Either way the pipeline goes in @info. */
static void
find_pipe_end (PaddockExecMonitor *self,
               ExecInfo           *info,
               PaddockPolicyQuery *query,
               gint64              now)
{
  g_autofree char *between = NULL;
  const PipeReader *reader;
  guint64 pipe;
  int fd;

  if ((fd = paddock_policy_query_script_fd (query)) >= 0 && (pipe = read_pipe (info->tid, fd)) != 0)
    {
      info->script_pipe = pipe;
      info->script_fd = fd;
      info->stdin_from = find_pipe_writer (self, info->tid, pipe);
      query->stdin_from = info->stdin_from;
      if (info->stdin_from != NULL)
        {
          g_autofree char *line = join_argv (query->argv);

          set_pipeline (info, info->stdin_from, line);
        }
      return;
    }
  reader = find_pipe_reader (self, info->tid, now, &between);
  if (reader != NULL)
    {
      g_autofree char *line = running_line (query->argv, info->path, info->shebangs);
      g_autofree char *reader_line = join_argv ((const char * const *) reader->argv);

      info->reader = pipe_reader_copy (reader);
      info->writer = g_strconcat (line, between, NULL);
      set_pipeline (info, info->writer, reader_line);
    }
}

/* Who decided, as the audit log and the protocol say it: the policy's
 * default, one of its rules, or an answer remembered. */
static const char *
decided_by (PaddockPolicyRule *rule)
{
  if (rule == NULL)
    return "default";
  return paddock_policy_rule_get_scope (rule) == PADDOCK_POLICY_SCOPE_POLICY ? "rule" : "remembered";
}

/* Every level of @info is judged, and the strictest decision holds, with
 * the rule that made it; the levels that ask are noted, for an answer to
 * remember them all. */
static PaddockPolicyAction
judge_levels (PaddockExecMonitor        *self,
              ExecInfo                  *info,
              const PaddockPolicyQuery  *query,
              PaddockPolicyRule        **rule)
{
  g_autoptr(GPtrArray) argvs = NULL;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  guint n = paddock_exec_level_queries (query, info->path, info->shebangs, &argvs, levels);

  n = add_pipe_level (info, query, levels, n);
  return paddock_policy_evaluate_levels (self->policy, levels, n, rule, NULL, &info->asked_levels);
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
      respond (self, req->id, EACCES);
      return;
    }
  if (call == CALL_ROOT)
    {
      /* From now on each exec's root is looked at (before the call goes on). */
      self->roots_may_differ = TRUE;
      respond (self, req->id, 0);
      return;
    }
  is_execveat = call == CALL_EXECVEAT;
  if (self->root_fd < 0 && !self->roots_may_differ)
    open_agent_root (self, req);

  err = read_exec (self, req, abi, is_execveat, info);
  if (err != 0)
    {
      /* What the kernel would say, so a PATH search goes on; never a run. */
      if (err != ESRCH)
        respond (self, req->id, err);
      return;
    }

  query = (PaddockPolicyQuery) {
    .exe = info->lexical,
    .argv = (const char * const *) info->argv->pdata,
    .project = self->project,
    .home = self->home,
    .cwd_func = load_cwd,
    .cwd_data = info,
    .resolved = info->exe,
  };
  close_ended_clones (self);
  query_downloads (self, info, &query);
  find_pipe_end (self, info, &query, mono);
  action = judge_levels (self, info, &query, &rule);
  by = decided_by (rule);
  if (rule != NULL)
    rule_name = paddock_policy_rule_get_name (rule);

  decision = action == PADDOCK_POLICY_ACTION_ALLOW ? PADDOCK_DECISION_ALLOW :
             action == PADDOCK_POLICY_ACTION_DENY ? PADDOCK_DECISION_DENY : PADDOCK_DECISION_ASK;
  if (decision == PADDOCK_DECISION_ASK && was_refused (self, info, mono))
    {
      decision = PADDOCK_DECISION_DENY;
      by = "repeat";
    }
  if (decision == PADDOCK_DECISION_ASK && g_atomic_int_get (&self->n_deciders) == 0)
    {
      decision = self->on_ask_allow ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY;
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
       * exit of this pid (see on_exits). */
      read_process (self, req->pid, info, decision == PADDOCK_DECISION_ALLOW ? &pidfd : NULL);
      if (decision == PADDOCK_DECISION_ALLOW)
        find_downloads (self, info);
      g_atomic_int_set (&self->answering, info->pid);
      /* Answered, the caller was still blocked in this exec: what was
       * read is its, and so is the pidfd. */
      if (!respond (self, req->id, decision == PADDOCK_DECISION_ALLOW ? 0 : EACCES))
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
          note_download (self, info, seq, pidfd);
          if (info->script_pipe != 0)
            keep_pipe_reader (self, info);
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
      news->reason = decision_reason (self, rule, download, news->info->tid);
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
  read_process (self, req->pid, info, &pidfd);
  find_downloads (self, info);
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
    keep_pipe_reader (self, info);

  message = exec_message_new (info, seq, wall, mono);
  message->decision = decision;
  message->by = g_strdup (by);
  message->rule = g_strdup (rule_name);
  download = rule_download (&query, rule);
  message->reason = decision_reason (self, rule, download, info->tid);

  ask_message = paddock_message_copy (message);
  ask_message->type = PADDOCK_MESSAGE_ASK;
  ask_message->id = seq;
  ask_message->seq = -1;
  ask_message->decision = PADDOCK_DECISION_NONE;
  g_clear_pointer (&ask_message->by, g_free);
  ask_message->deadline = wall + (gint64) self->ask_timeout * G_USEC_PER_SEC;

  ask = g_new0 (Ask, 1);
  ask->monitor = self;
  ask->id = seq;
  ask->cookie = req->id;
  ask->message = paddock_message_copy (ask_message);
  ask->info = g_steal_pointer (&info);
  ask->pidfd = pidfd;
  ask->deadline = mono + (gint64) self->ask_timeout * G_USEC_PER_SEC;
  ask->generation = generation;
  ask->download = g_steal_pointer (&download);

  g_mutex_lock (&self->lock);
  g_hash_table_insert (self->pending, &ask->id, ask);
  g_mutex_unlock (&self->lock);

  post (self, g_memdup2 (&(News) { .message = message, .pidfd = -1, .start = mono }, sizeof (News)));
  post (self, g_memdup2 (&(News) { .message = ask_message, .pidfd = -1, .start = mono }, sizeof (News)));
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

/* Takes @message. */
static void
emit (PaddockExecMonitor *self,
      PaddockMessage     *message)
{
  if (self->func != NULL)
    self->func (message, self->user_data);
  else
    paddock_message_free (message);
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
   * of test-exec's short-runs, sanitizer build, two busy loops beside),
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

static void
end_running (PaddockExecMonitor *self,
             Running            *running,
             gboolean            replaced)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  GString *out = self->exit_record;

  end_clone (self, running->seq);
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
  end_running (self, running, FALSE);
  running_free (running);
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

static guint drain_news (PaddockExecMonitor *self);

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
  drain_news (self);
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

static void
start_running (PaddockExecMonitor *self,
               gint64              seq,
               pid_t               pid,
               gint64              start,
               int                 pidfd)
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
}

static void settle_announced (PaddockExecMonitor *self,
                              gint64              id);

static gboolean
on_exits (int          fd,
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

/* A new exec by a pid ends its previous program's run. */
static void
replace_running (PaddockExecMonitor *self,
                 pid_t               pid)
{
  Running *previous = g_hash_table_lookup (self->running, GINT_TO_POINTER (pid));

  if (previous != NULL)
    {
      end_running (self, previous, TRUE);
      g_hash_table_remove (self->running, GINT_TO_POINTER (pid));
    }
}

static Ask *
steal_pending (PaddockExecMonitor *self,
               gint64              id)
{
  Ask *ask = NULL;

  g_mutex_lock (&self->lock);
  g_hash_table_steal_extended (self->pending, &id, NULL, (gpointer *) &ask);
  g_mutex_unlock (&self->lock);
  return ask;
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

  n = add_pipe_level (ask->info, &query, levels, n);

  rules = remembered_rules (levels, n, asked, action, scope, &error);
  if (rules == NULL || rules->len == 0)
    {
      if (error != NULL)
        paddock_printerr ("cannot remember the decision on #%" G_GINT64_FORMAT ", only take it this once: %s",
                          ask->id, error->message);
      *remember = PADDOCK_REMEMBER_ONCE;
      return NULL;
    }
  *remember = scope == PADDOCK_POLICY_SCOPE_PROJECT ? PADDOCK_REMEMBER_PROJECT : PADDOCK_REMEMBER_SESSION;
  for (guint i = 0; *remember == PADDOCK_REMEMBER_PROJECT && i < rules->len; i++)
    if (!paddock_policy_remember_in_project (self->project, g_ptr_array_index (rules, i), &error))
      {
        paddock_printerr ("cannot remember the decision for the project, "
                          "only for this session: %s", error->message);
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

static void
finish_ask (PaddockExecMonitor *self,
            Ask                *ask,
            PaddockDecision     decision,
            PaddockRemember     remember,
            const char         *by,
            const char         *by_rule,
            int                 client_pid,
            gboolean            answer)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(PaddockPolicyRule) rule = NULL;

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

  message->id = ask->id;
  message->time = g_get_real_time ();
  message->decision = decision;
  message->by = g_strdup (by);
  message->remember = remember;
  if (client_pid > 0)
    message->client_pid = client_pid;
  if (rule != NULL)
    by_rule = paddock_policy_rule_get_name (rule);
  message->rule = g_strdup (by_rule);

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
    respond (self, ask->cookie, decision == PADDOCK_DECISION_ALLOW ? 0 : EACCES);

  if (decision == PADDOCK_DECISION_ALLOW && answer)
    note_download (self, ask->info, ask->id, ask->pidfd);
  if (decision == PADDOCK_DECISION_ALLOW && ask->download != NULL && g_strcmp0 (by, "user") == 0)
    forget_download (self, ask->download);
  if (decision == PADDOCK_DECISION_ALLOW && answer && ask->pidfd >= 0)
    {
      replace_running (self, ask->info->pid);
      start_running (self, ask->id, ask->info->pid, g_get_monotonic_time (),
                     paddock_steal_fd (&ask->pidfd));
    }

  emit (self, g_steal_pointer (&message));

  /* "Always" answers the asks held behind this one that it covers. */
  if (rule != NULL)
    paddock_exec_monitor_settle_pending (self);
}

/* Denies @ask if it is still pending; @answer is FALSE when its process is gone. */
static void
deny_if_pending (Ask        *ask,
                 const char *by,
                 gboolean    answer)
{
  PaddockExecMonitor *self = ask->monitor;

  ask = steal_pending (self, ask->id);
  if (ask != NULL)
    {
      finish_ask (self, ask, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, by, NULL, 0, answer);
      ask_free (ask);
    }
}

static gboolean
on_ask_deadline (gpointer user_data)
{
  deny_if_pending (user_data, "timeout", TRUE);
  return G_SOURCE_REMOVE;
}

static gboolean
on_ask_gone (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  deny_if_pending (user_data, "gone", FALSE);
  return G_SOURCE_REMOVE;
}

/* For an ask without a pidfd: whether the kernel still holds its exec. */
static gboolean
on_ask_check (gpointer user_data)
{
  Ask *ask = user_data;

  if (ioctl (ask->monitor->notify_fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &ask->cookie) == 0)
    return G_SOURCE_CONTINUE;
  deny_if_pending (ask, "gone", FALSE);
  return G_SOURCE_REMOVE;
}

/* How often an ask without a pidfd is checked for its process's end. */
#define ASK_CHECK_MS 500

static void
watch_ask (PaddockExecMonitor *self,
           gint64              id)
{
  Ask *ask;
  gint64 remaining;

  g_mutex_lock (&self->lock);
  ask = g_hash_table_lookup (self->pending, &id);
  if (ask != NULL && ask->timeout_source == NULL)
    {
      remaining = ask->deadline - g_get_monotonic_time ();
      ask->timeout_source = g_timeout_source_new (MAX (remaining, 0) / 1000);
      g_source_set_callback (ask->timeout_source, on_ask_deadline, ask, NULL);
      g_source_attach (ask->timeout_source, self->context);
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
    }
  g_mutex_unlock (&self->lock);
}

/* Turns the synchronous wake-up off while a CPU idles, on while none
 * does (see the top of the file). A sample after a long pause only starts
 * the next interval: it would tell how idle the pause was. */
static void
choose_wake_up (PaddockExecMonitor *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 since = now - self->idle_sampled;
  gint64 interval = (self->idle_chosen ? IDLE_SAMPLE_MS : IDLE_FIRST_MS) * 1000;
  gboolean sync_wake;
  double idle;

  if (self->cpu_idle == NULL || self->notify_fd < 0 || since < interval)
    return;
  self->idle_sampled = now;
  if (!paddock_cpu_idle_sample (self->cpu_idle, &idle) || since > 4 * IDLE_SAMPLE_MS * 1000)
    return;
  self->idle_chosen = TRUE;
  sync_wake = paddock_cpu_idle_busy (self->sync_wake, idle, IDLE_FOR_SYNC, IDLE_FOR_ASYNC);
  if (sync_wake == self->sync_wake)
    return;
  if (ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
             sync_wake ? SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP : 0UL) != 0)
    return;
  self->sync_wake = sync_wake;
  g_debug ("exec monitor: %.2f CPUs idle, synchronous wake-up %s", idle, sync_wake ? "on" : "off");
}

static guint
drain_news (PaddockExecMonitor *self)
{
  News *news;
  guint n = 0;

  while ((news = g_async_queue_try_pop (self->news)) != NULL)
    {
      PaddockMessage *message = news->message;
      gint64 ask_id = -1;

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
              start_running (self, message->seq, message->pid, news->start,
                             paddock_steal_fd (&news->pidfd));
            }
        }
      else if (message->type == PADDOCK_MESSAGE_ASK)
        {
          ask_id = message->id;
          watch_ask (self, ask_id);
        }

      news->message = NULL;
      emit (self, message);
      news_free (news);
      n++;
      /* Once clients know of it: a decided message must not come first. */
      if (ask_id >= 0)
        settle_announced (self, ask_id);
    }
  if (n > 0)
    choose_wake_up (self);
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
  drain_news (self);
}

/* No batch runs from here: the thread's next news wakes us. */
static void
end_batch (PaddockExecMonitor *self)
{
  ((BatchSource *) self->batch_source)->due = 0;
  g_atomic_int_set (&self->wake_pending, 0);
  /* Anything queued before the reset did not wake us: take it now. */
  drain_news (self);
}

static gboolean
batch_dispatch (GSource    *source,
                GSourceFunc callback,
                gpointer    user_data)
{
  BatchSource *batch = (BatchSource *) source;
  PaddockExecMonitor *self = batch->monitor;

  if (drain_news (self) > 0)
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
  drain_news (self);
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
  g_source_set_callback (self->exit_source, (GSourceFunc) (GCallback) on_exits, self, NULL);
  g_source_set_can_recurse (self->exit_source, TRUE);
  g_source_attach (self->exit_source, self->context);

  if (self->cpu_idle != NULL)
    {
      double unused;

      paddock_cpu_idle_sample (self->cpu_idle, &unused);
      self->idle_sampled = g_get_monotonic_time ();
    }

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

  drain_news (self);
  paddock_clear_source (&self->batch_source);

  /* The tree is gone by now: close the runs the main loop did not see end. */
  {
    GHashTableIter iter;
    Running *running;

    g_hash_table_iter_init (&iter, self->running);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &running))
      {
        read_exit_status (running);
        end_running (self, running, FALSE);
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

  /* Held execs now fail in the kernel; record them as ended with the session. */
  for (;;)
    {
      GHashTableIter iter;
      Ask *ask = NULL;

      g_mutex_lock (&self->lock);
      g_hash_table_iter_init (&iter, self->pending);
      if (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ask))
        g_hash_table_iter_steal (&iter);
      g_mutex_unlock (&self->lock);
      if (ask == NULL)
        break;
      finish_ask (self, ask, PADDOCK_DECISION_DENY, PADDOCK_REMEMBER_ONCE, "session-end", NULL, 0, FALSE);
      ask_free (ask);
    }
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
  g_queue_clear_full (&self->reaping, (GDestroyNotify) running_free);
  paddock_clear_source (&self->reap_source);
  paddock_close_fd (&self->exit_fd);
  g_queue_clear_full (&self->refused, (GDestroyNotify) refusal_free);
  g_hash_table_destroy (self->pending);
  g_async_queue_unref (self->news);
  g_mutex_clear (&self->lock);
  g_hash_table_destroy (self->downloads);
  g_queue_clear_full (&self->downloads_order, (GDestroyNotify) download_free);
  g_queue_clear_full (&self->piped, (GDestroyNotify) pipe_end_free);
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

void
paddock_exec_monitor_set_deciders (PaddockExecMonitor *self,
                                   guint               n_deciders)
{
  g_atomic_int_set (&self->n_deciders, (gint) n_deciders);
}

gboolean
paddock_exec_monitor_decide (PaddockExecMonitor  *self,
                             gint64               id,
                             PaddockDecision      decision,
                             PaddockRemember      remember,
                             const char          *by,
                             int                  client_pid,
                             GError             **error)
{
  Ask *ask;

  g_return_val_if_fail (decision == PADDOCK_DECISION_ALLOW || decision == PADDOCK_DECISION_DENY, FALSE);

  ask = steal_pending (self, id);
  if (ask == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no ask %" G_GINT64_FORMAT " is pending (decided, timed out, or its process is gone)",
                   id);
      return FALSE;
    }
  finish_ask (self, ask, decision, remember, by, NULL, client_pid, TRUE);
  ask_free (ask);
  return TRUE;
}

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
  action = judge_levels (self, ask->info, &query, &rule);
  if (action == PADDOCK_POLICY_ACTION_ASK)
    return;

  ask = steal_pending (self, ask->id);
  finish_ask (self, ask,
              action == PADDOCK_POLICY_ACTION_ALLOW ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY,
              PADDOCK_REMEMBER_ONCE, decided_by (rule), rule != NULL ? paddock_policy_rule_get_name (rule) : NULL, 0, TRUE);
  ask_free (ask);
}

/* The ask @id was just announced: where the policy changed after it was
 * judged, and before it was pending, it is judged again. */
static void
settle_announced (PaddockExecMonitor *self,
                  gint64              id)
{
  Ask *ask;

  /* Only this context takes asks out of the table, and frees them. */
  g_mutex_lock (&self->lock);
  ask = g_hash_table_lookup (self->pending, &id);
  if (ask != NULL)
    ask->announced = TRUE;
  g_mutex_unlock (&self->lock);
  if (ask != NULL && ask->generation != g_atomic_int_get (&self->settle_generation))
    settle_one (self, ask);
}

void
paddock_exec_monitor_settle_pending (PaddockExecMonitor *self)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  Ask *ask;

  /* Asks judged before this and not announced yet are judged again when
   * they are (settle_announced). */
  g_atomic_int_inc (&self->settle_generation);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ask))
    if (ask->announced)
      g_array_append_val (ids, ask->id);
  g_mutex_unlock (&self->lock);
  g_array_sort (ids, compare_ids);

  for (guint i = 0; i < ids->len; i++)
    {
      g_mutex_lock (&self->lock);
      ask = g_hash_table_lookup (self->pending, &g_array_index (ids, gint64, i));
      g_mutex_unlock (&self->lock);
      if (ask != NULL)
        settle_one (self, ask);
    }
}

static int
compare_asks (gconstpointer a,
              gconstpointer b)
{
  const PaddockMessage *ask_a = *(PaddockMessage * const *) a;
  const PaddockMessage *ask_b = *(PaddockMessage * const *) b;

  return compare_ids (&ask_a->id, &ask_b->id);
}

GPtrArray *
paddock_exec_monitor_dup_pending (PaddockExecMonitor *self)
{
  GPtrArray *asks = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  GHashTableIter iter;
  Ask *ask;

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ask))
    g_ptr_array_add (asks, paddock_message_copy (ask->message));
  g_mutex_unlock (&self->lock);

  g_ptr_array_sort (asks, compare_asks);
  return asks;
}

guint64
paddock_exec_monitor_get_n_events (PaddockExecMonitor *self)
{
  guint64 n;

  g_mutex_lock (&self->lock);
  n = self->next_seq;
  g_mutex_unlock (&self->lock);
  return n;
}
