/* paddock-seccomp-deny.c: the seccomp filter that refuses what the folder lock must not allow
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Landlock guards the file system; this filter refuses the system calls that
 * reach past it: typing into the terminal (TIOCSTI, TIOCLINUX), new user
 * namespaces, mounts, file handles, loading kernel code, io_uring (which
 * would run system calls that the exec monitor cannot see), the kernel
 * keyring, setuid or setgid bits on the files the agent makes, and
 * resource limits, priorities and CPU placement of any process but the
 * caller. The filter is compiled with libseccomp in the parent and
 * exported as BPF, so the child only has to load it.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-seccomp-deny.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <unistd.h>

/* Refused outright with EPERM. */
static const char * const denied_syscalls[] = {
  "mount", "umount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen",
  "fsconfig", "fsmount", "fspick", "mount_setattr", "setns",
  "open_by_handle_at",
  "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
  "reboot", "swapon", "swapoff", "iopl", "ioperm",
  "bpf", "perf_event_open", "userfaultfd",
  "io_uring_setup", "io_uring_enter", "io_uring_register",
  "keyctl", "add_key", "request_key",
};

/* A setuid or setgid file the agent leaves behind (a copy of a shell,
 * owned by root when the agent runs as root) would run with its owner's
 * rights the next time anyone outside the lock starts it: refuse those
 * bits wherever a mode is given. The mode's argument, by call. */
static const struct
{
  const char *name;
  unsigned    mode_arg;
  int         flags_arg;  /* -1: the call always creates or changes a mode */
} mode_calls[] = {
  { "chmod", 1, -1 }, { "fchmod", 1, -1 }, { "fchmodat", 2, -1 }, { "fchmodat2", 2, -1 },
  { "creat", 1, -1 }, { "mknod", 1, -1 }, { "mknodat", 2, -1 },
  { "open", 2, 1 }, { "openat", 3, 2 },
};

/* O_TMPFILE includes O_DIRECTORY; its own bit is what tells it apart. */
#ifndef __O_TMPFILE
#define __O_TMPFILE 020000000
#endif

static int
add_mode_rules (scmp_filter_ctx ctx)
{
  const uint32_t deny = SCMP_ACT_ERRNO (EPERM);
  const scmp_datum_t bits[] = { S_ISUID, S_ISGID };
  const scmp_datum_t creating[] = { O_CREAT, __O_TMPFILE };
  int rc;

  for (guint i = 0; i < G_N_ELEMENTS (mode_calls); i++)
    {
      int nr = seccomp_syscall_resolve_name (mode_calls[i].name);

      if (nr == __NR_SCMP_ERROR)
        continue;
      for (guint b = 0; b < G_N_ELEMENTS (bits); b++)
        {
          struct scmp_arg_cmp mode = SCMP_CMP (mode_calls[i].mode_arg, SCMP_CMP_MASKED_EQ, bits[b], bits[b]);

          /* open's mode is only read when it creates: elsewhere it may be anything. */
          rc = 0;
          if (mode_calls[i].flags_arg < 0)
            rc = seccomp_rule_add (ctx, deny, nr, 1, mode);
          else
            for (guint c = 0; c < G_N_ELEMENTS (creating) && rc == 0; c++)
              rc = seccomp_rule_add (ctx, deny, nr, 2, mode,
                                     SCMP_CMP (mode_calls[i].flags_arg, SCMP_CMP_MASKED_EQ,
                                               creating[c], creating[c]));
          if (rc < 0)
            return rc;
        }
    }

  /* openat2 passes its mode in memory a filter cannot read: make it look
   * absent, and the C library falls back to openat, whose mode is checked. */
  if ((rc = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS), SCMP_SYS (openat2), 0)) < 0)
    return rc;
  return 0;
}

/* A process of the same user outside the lock may be given limits, a
 * priority or CPUs by any of its processes: paddock-run with one open file
 * cannot end the session, with a tiny file size cannot keep its audit log.
 * Landlock guards none of these and a filter cannot tell the caller's tree
 * from the rest, so each call works on the caller alone (pid 0), as ulimit,
 * nice and taskset without -p use them; naming any process, the caller's
 * own thread included (pthread_setaffinity_np), is refused, and so is
 * reading another's limits through prlimit; getpriority and
 * sched_getaffinity stay allowed. Each comparison refuses what is not the
 * one allowed value, so high bits set cannot slip past. */
static const struct
{
  const char  *name;
  unsigned     pid_arg;
  int          which_arg;  /* -1: none; else any "which" but @process is refused */
  scmp_datum_t process;
} process_calls[] = {
  { "prlimit64", 0, -1, 0 },
  { "sched_setaffinity", 0, -1, 0 }, { "sched_setscheduler", 0, -1, 0 },
  { "sched_setparam", 0, -1, 0 }, { "sched_setattr", 0, -1, 0 },
  { "setpriority", 1, 0, 0 },  /* PRIO_PROCESS; PRIO_PGRP and PRIO_USER are refused */
  { "ioprio_set", 1, 0, 1 },   /* IOPRIO_WHO_PROCESS */
};

static int
add_process_rules (scmp_filter_ctx ctx)
{
  const uint32_t deny = SCMP_ACT_ERRNO (EPERM);
  int rc;

  for (guint i = 0; i < G_N_ELEMENTS (process_calls); i++)
    {
      int nr = seccomp_syscall_resolve_name (process_calls[i].name);

      if (nr == __NR_SCMP_ERROR)
        continue;
      if ((rc = seccomp_rule_add (ctx, deny, nr, 1,
                                  SCMP_CMP (process_calls[i].pid_arg, SCMP_CMP_NE, 0))) < 0)
        return rc;
      if (process_calls[i].which_arg >= 0 &&
          (rc = seccomp_rule_add (ctx, deny, nr, 1,
                                  SCMP_CMP (process_calls[i].which_arg, SCMP_CMP_NE,
                                            process_calls[i].process))) < 0)
        return rc;
    }
  return 0;
}

static int
add_rules (scmp_filter_ctx ctx)
{
  const uint32_t deny = SCMP_ACT_ERRNO (EPERM);
  int rc;

  for (guint i = 0; i < G_N_ELEMENTS (denied_syscalls); i++)
    {
      int nr = seccomp_syscall_resolve_name (denied_syscalls[i]);

      if (nr == __NR_SCMP_ERROR)
        continue;  /* not on this architecture */
      if ((rc = seccomp_rule_add (ctx, deny, nr, 0)) < 0)
        return rc;
    }

  /* The kernel reads ioctl's request as 32 bits: compare only those, or a
   * request with high bits set would slip past. */
  if ((rc = seccomp_rule_add (ctx, deny, SCMP_SYS (ioctl), 1,
                              SCMP_A1 (SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI))) < 0 ||
      (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (ioctl), 1,
                              SCMP_A1 (SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX))) < 0)
    return rc;

  if ((rc = seccomp_rule_add (ctx, deny, SCMP_SYS (unshare), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) < 0 ||
      (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (clone), 1,
                              SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))) < 0)
    return rc;

  /* clone3 passes its flags in memory a filter cannot read: make it look
   * absent, and the C library falls back to clone, whose flags are checked. */
  if ((rc = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (ENOSYS), SCMP_SYS (clone3), 0)) < 0)
    return rc;

  if ((rc = add_process_rules (ctx)) < 0)
    return rc;
  return add_mode_rules (ctx);
}

/* The network lock's rules where it has no network namespace of its own
 * (Landlock governs TCP's connect() only): no socket of the internet
 * families but TCP (no UDP, raw, SCTP or MPTCP), no packet socket or other
 * family that reaches a network, no TCP Fast Open (data sent with an
 * implicit connect), and no io_uring, whose operations seccomp cannot see.
 * Refused with EACCES, as a refused connection would be. */
static int
add_network_rules (scmp_filter_ctx ctx)
{
  const uint32_t deny = SCMP_ACT_ERRNO (EACCES);
  const int inet[] = { AF_INET, AF_INET6 };
  const int other_types[] = { SOCK_DGRAM, SOCK_RAW, SOCK_RDM, SOCK_SEQPACKET, SOCK_DCCP, SOCK_PACKET };
  int rc;

  for (guint f = 0; f < G_N_ELEMENTS (inet); f++)
    {
      for (guint t = 0; t < G_N_ELEMENTS (other_types); t++)
        if ((rc = seccomp_rule_add (ctx, deny, SCMP_SYS (socket), 2, SCMP_A0 (SCMP_CMP_EQ, inet[f]),
                                    SCMP_A1 (SCMP_CMP_MASKED_EQ, 0xf, other_types[t]))) < 0)
          return rc;
      if ((rc = seccomp_rule_add (ctx, deny, SCMP_SYS (socket), 2, SCMP_A0 (SCMP_CMP_EQ, inet[f]),
                                  SCMP_A2 (SCMP_CMP_GT, IPPROTO_TCP))) < 0)
        return rc;
    }
  /* Every other family but Unix sockets and netlink (the kernel's own). */
  for (int family = 0; family < AF_MAX; family++)
    if (family != AF_UNIX && family != AF_INET && family != AF_INET6 && family != AF_NETLINK &&
        (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (socket), 1, SCMP_A0 (SCMP_CMP_EQ, family))) < 0)
      return rc;
  if ((rc = seccomp_rule_add (ctx, deny, SCMP_SYS (socket), 1, SCMP_A0 (SCMP_CMP_GE, AF_MAX))) < 0 ||
      (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (sendto), 1,
                              SCMP_A3 (SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN))) < 0 ||
      (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (sendmsg), 1,
                              SCMP_A2 (SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN))) < 0 ||
      (rc = seccomp_rule_add (ctx, deny, SCMP_SYS (sendmmsg), 1,
                              SCMP_A3 (SCMP_CMP_MASKED_EQ, MSG_FASTOPEN, MSG_FASTOPEN))) < 0)
    return rc;
  for (const char * const *name = (const char *[]) { "io_uring_setup", "io_uring_enter", "io_uring_register",
                                                     NULL };
       *name != NULL; name++)
    if ((rc = seccomp_rule_add (ctx, deny, seccomp_syscall_resolve_name (*name), 0)) < 0)
      return rc;
  return 0;
}

/* Compiles the rules @add adds (@what, in errors) to BPF. */
static PaddockSeccompDeny *
filter_new (int        (*add) (scmp_filter_ctx ctx),
            gboolean     compat,
            const char  *what,
            GError     **error)
{
  g_autoptr(PaddockSeccompDeny) deny = g_new0 (PaddockSeccompDeny, 1);
  scmp_filter_ctx ctx;
  paddock_autofd int fd = -1;
  g_autoptr(GByteArray) bpf = g_byte_array_new ();
  guint8 buf[4096];
  ssize_t n;
  int rc;

  ctx = seccomp_init (SCMP_ACT_ALLOW);
  if (ctx == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot create a seccomp filter");
      return NULL;
    }
#if defined(__x86_64__)
  /* 32-bit system calls would otherwise bypass the rules (and be killed).
   * The network rules leave them killed: i386's socketcall() hides the
   * arguments they look at. */
  if (compat)
    seccomp_arch_add (ctx, SCMP_ARCH_X86);
#endif
  seccomp_attr_set (ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  seccomp_attr_set (ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);

  rc = add (ctx);
  if (rc == 0)
    {
      fd = memfd_create ("paddock-seccomp", MFD_CLOEXEC);
      rc = fd < 0 ? -errno : seccomp_export_bpf (ctx, fd);
    }
  seccomp_release (ctx);
  if (rc < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (-rc),
                   "cannot build %s: %s", what, g_strerror (-rc));
      return NULL;
    }

  lseek (fd, 0, SEEK_SET);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_byte_array_append (bpf, buf, n);
  if (n < 0 || bpf->len == 0 || bpf->len % sizeof (struct sock_filter) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "cannot read back %s", what);
      return NULL;
    }

  deny->program.len = bpf->len / sizeof (struct sock_filter);
  deny->program.filter = (struct sock_filter *) g_byte_array_free (g_steal_pointer (&bpf), FALSE);
  return g_steal_pointer (&deny);
}

PaddockSeccompDeny *
paddock_seccomp_deny_new (GError **error)
{
  return filter_new (add_rules, TRUE, "the seccomp deny filter", error);
}

PaddockSeccompDeny *
paddock_seccomp_deny_new_for_network (GError **error)
{
  return filter_new (add_network_rules, FALSE, "the network lock's seccomp filter", error);
}

void
paddock_seccomp_deny_free (PaddockSeccompDeny *deny)
{
  if (deny == NULL)
    return;
  g_free (deny->program.filter);
  g_free (deny);
}

/* In the child, with no_new_privs already set: async-signal-safe. */
int
paddock_seccomp_deny_install (PaddockSeccompDeny *deny)
{
  if (syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &deny->program) != 0)
    return errno;
  return 0;
}
