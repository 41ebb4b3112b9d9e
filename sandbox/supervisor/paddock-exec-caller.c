/* paddock-exec-caller.c: reading the caller: the path and argv of its exec, what it would run, its process
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The caller's memory is read with process_vm_readv, which pins the pages
 * it reads; a page a fork still shares with its parent is copied first
 * (the kernel unshares it), a copy the exec then throws away. Reading
 * /proc/PID/mem copies nothing, but its open, its close and the /proc
 * entry it makes cost more CPU time per exec (35-45 us here) than that.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-path.h"
#include "paddock-proc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#define ARG_READ_AHEAD 256   /* bytes of each argument read in one batch; longer ones are read on */

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
struct _ResolvedExe
{
  ExeIdentity  identity;
  char        *exe;
  char        *interpreter;      /* as in ExecInfo */
  char        *interpreter_arg;
};

#define RESOLVED_MAX 1024

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

void
paddock_exec_resolved_exe_free (ResolvedExe *entry)
{
  g_free (entry->exe);
  g_free (entry->interpreter);
  g_free (entry->interpreter_arg);
  g_free (entry);
}

static int
pidfd_open_nonblock (pid_t pid)
{
  return (int) syscall (SYS_pidfd_open, pid, 0);
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
 * else for the record just before the exec is answered
 * (paddock_exec_read_process). */
const char *
paddock_exec_load_cwd (gpointer data)
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

pid_t
paddock_exec_read_ppid (pid_t pid,
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
/* ... and what paddock_exec_identify() and the check of what runs need. */
#define FILE_MASK (IDENTITY_MASK | STATX_SIZE | STATX_MTIME | STATX_NLINK)

/* Notes the file @info runs, @stx, by what it is: for the check of what
 * runs once the exec is done, and a hard link or a copy of a program a
 * rule names under another name (paddock-exec-identity.c). @fd, or
 * @path_at from @dir_fd, is the file. */
static void
note_file (PaddockExecMonitor *self,
           ExecInfo           *info,
           int                 fd,
           int                 dir_fd,
           const char         *path_at,
           const struct statx *stx)
{
  KnownProgram *known;
  gboolean is_copy = FALSE;
  const char *name;

  if ((stx->stx_mask & STATX_INO) == 0)
    return;
  info->file_dev = makedev (stx->stx_dev_major, stx->stx_dev_minor);
  info->file_ino = stx->stx_ino;
  /* As the kernel names such a file: "/memfd:NAME (deleted)", "/tmp/x (deleted)". */
  info->unlinked = (stx->stx_mask & STATX_NLINK) != 0 && stx->stx_nlink == 0 &&
                   info->exe != NULL && g_str_has_suffix (info->exe, " (deleted)");
  known = paddock_exec_identify (self, fd, dir_fd, path_at, stx, &is_copy);
  if (known == NULL)
    return;
  name = paddock_exec_known_name (known);
  /* The program itself, or a copy of its own name: its name says it. */
  if (info->exe != NULL && strcmp (strrchr (info->exe, '/') != NULL ? strrchr (info->exe, '/') + 1 : info->exe,
                                   strrchr (name, '/') != NULL ? strrchr (name, '/') + 1 : name) == 0)
    return;
  info->known_path = g_strdup (paddock_exec_known_path (known));
  info->known_as = g_strdup_printf ("%s %s", is_copy ? "a copy of" : "a hard link to", name);
}

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
              statx (base_fd, info->path + strspn (info->path, "/"), 0, FILE_MASK, &stx) == 0 &&
              identity_from_statx (&stx, &id) && same_identity (&id, &entry->identity))
            {
              info->exe = g_strdup (entry->exe);
              note_file (self, info, -1, base_fd, info->path, &stx);
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
      gboolean known = statx (fd, "", AT_EMPTY_PATH, FILE_MASK | STATX_MODE, &stx) == 0 &&
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
      if (known && S_ISREG (stx.stx_mode) && info->exe != NULL)
        note_file (self, info, fd, -1, NULL, &stx);
      if (cacheable && known && info->exe != NULL)
        remember_exe (self, info->path, &stx, info->exe, shebang (info, 0), shebang (info, 1));
      if (own_path != NULL)
        info->lexical = g_strdup (info->exe);
    }
  return 0;
}

void
paddock_exec_read_script (PaddockExecMonitor *self,
                          ExecInfo           *info,
                          guint               operand)
{
  g_autoptr(ExecInfo) script = g_new0 (ExecInfo, 1);
  const char *path = g_ptr_array_index (info->argv, operand);
  struct open_how how = { .flags = O_PATH | O_CLOEXEC };
  paddock_autofd int base = -1;
  paddock_autofd int fd = -1;
  char base_path[64];
  char self_path[48];
  struct statx stx;
  int base_fd = -1;

  /* As the caller sees it, as find_executable() looks a program up. */
  if (path[0] == '/')
    {
      how.resolve = RESOLVE_IN_ROOT;
      if (!self->roots_may_differ && self->root_fd >= 0)
        base_fd = self->root_fd;
      else
        g_snprintf (base_path, sizeof base_path, "/proc/%d/root", (int) info->tid);
    }
  else
    g_snprintf (base_path, sizeof base_path, "/proc/%d/cwd", (int) info->tid);
  if (base_fd < 0)
    {
      base = open (base_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (base < 0)
        return;
      base_fd = base;
    }
  fd = (int) syscall (SYS_openat2, base_fd, path, &how, sizeof how);
  if (fd < 0 || statx (fd, "", AT_EMPTY_PATH, FILE_MASK | STATX_MODE, &stx) != 0 ||
      (stx.stx_mask & STATX_TYPE) == 0 || !S_ISREG (stx.stx_mode))
    return;
  g_snprintf (self_path, sizeof self_path, "/proc/self/fd/%d", fd);
  script->exe = read_link_at (AT_FDCWD, self_path);
  if (script->exe == NULL)
    return;
  note_file (self, script, fd, -1, NULL, &stx);
  info->script_operand = operand;
  info->script_file = g_steal_pointer (&script->exe);
  info->script_known_path = g_steal_pointer (&script->known_path);
  info->script_known_as = g_steal_pointer (&script->known_as);
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
      info->run_dev = level->file_dev;
      info->run_ino = level->file_ino;
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
int
paddock_exec_read_caller (PaddockExecMonitor        *self,
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
  info->run_dev = info->file_dev;
  info->run_ino = info->file_ino;
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
        dir = g_strdup (paddock_exec_load_cwd (info));
      info->lexical = g_canonicalize_filename (info->path, dir != NULL && dir[0] == '/' ? dir : "/");
    }
  if (info->exe == NULL)
    info->exe = g_strdup (info->lexical);
  return 0;
}

/* The first exec is the agent's own, made once its lock (and the mount
 * namespace that comes with it) is in place: its root is every process's
 * until one makes a call in root_calls. */
void
paddock_exec_open_agent_root (PaddockExecMonitor         *self,
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
void
paddock_exec_read_process (PaddockExecMonitor *self,
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

  info->ppid = paddock_exec_read_ppid (info->pid, fd);
  paddock_exec_load_cwd (info);
  if (pidfd != NULL)
    *pidfd = fd;
  else
    paddock_close_fd (&fd);
}

/* The inode of the pipe that is thread @tid's descriptor @fd, or 0. */
guint64
paddock_exec_read_pipe (pid_t tid,
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

/* The regular file that is @tid's descriptor @fd, or NULL: where the
 * shell sends what a download writes to standard output (`curl URL >
 * i.sh`), or what tar reads (`tar xz < t.tgz`). */
char *
paddock_exec_read_fd_file (pid_t tid,
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
