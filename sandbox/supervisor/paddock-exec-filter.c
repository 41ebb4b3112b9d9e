/* paddock-exec-filter.c: the seccomp filter that hands each exec over, and how the answering thread is woken
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The filter hands every execve and execveat of the agent and its
 * descendants to the answering thread, and the calls that may give a
 * process another root or mount namespace (see paddock-exec-monitor.h);
 * the thread tells them apart by ABI and system call number.
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
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-fd-passing.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

void
paddock_exec_add_abis (PaddockExecMonitor *self)
{
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
}

/* How often, while execs come, the wake-up is chosen (the first time
 * sooner, at some loss of precision: /proc/stat counts 10 ms ticks); and
 * the idle CPUs below which the synchronous one comes back, and at which
 * it goes off. */
#define IDLE_SAMPLE_MS   100
#define IDLE_FIRST_MS    30
#define IDLE_FOR_ASYNC   0.6
#define IDLE_FOR_SYNC    0.4

void
paddock_exec_set_up_wake_up (PaddockExecMonitor *self)
{
  /* 0: off; 1: always on; else on while no CPU idles. */
  const char *sync_wake_setting = g_getenv ("PADDOCK_EXEC_SYNC_WAKE_UP");

  /* Linux 6.6; older kernels say EINVAL and the monitor works without it. */
  if (g_strcmp0 (sync_wake_setting, "0") != 0 &&
      ioctl (self->notify_fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0)
    {
      self->sync_wake = TRUE;
      if (g_strcmp0 (sync_wake_setting, "1") != 0)
        self->cpu_idle = paddock_cpu_idle_new ();
      g_ptr_array_add (self->features, g_strdup (self->cpu_idle != NULL ? "sync-wake-up-when-busy" : "sync-wake-up"));
    }
}

void
paddock_exec_start_wake_up (PaddockExecMonitor *self)
{
  if (self->cpu_idle != NULL)
    {
      double unused;

      paddock_cpu_idle_sample (self->cpu_idle, &unused);
      self->idle_sampled = g_get_monotonic_time ();
    }
}

/* Turns the synchronous wake-up off while a CPU idles, on while none
 * does (see the top of the file). A sample after a long pause only starts
 * the next interval: it would tell how idle the pause was. */
void
paddock_exec_choose_wake_up (PaddockExecMonitor *self)
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
