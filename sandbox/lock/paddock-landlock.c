/* paddock-landlock.c: the folder lock through Landlock
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Best effort up to the kernel's ABI: every access right this kernel knows
 * is handled (so refused unless granted), and the rights of newer ABIs are
 * left out where the kernel does not know them. Network rights are never
 * handled in the folder lock's ruleset: the network lock has its own
 * (paddock_landlock_tcp_ruleset_new()), where it can have no network
 * namespace.
 *
 * The ruleset is built in the parent; the child only calls
 * landlock_restrict_self().
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-grants.h"
#include "paddock-landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Debian 12's headers stop at ABI 2. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define LANDLOCK_RULE_NET_PORT 2
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

/* The attribute as ABI 6 defines it; older kernels take a prefix of it. */
struct paddock_ruleset_attr
{
  guint64 handled_access_fs;
  guint64 handled_access_net;
  guint64 scoped;
};

#define FS_ABI1 ((1ULL << 13) - 1)
#define FS_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
                        LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
                        LANDLOCK_ACCESS_FS_IOCTL_DEV)

static int
landlock_abi (int *unavailable_errno)
{
  static int abi = -1;
  static int saved_errno;

  if (abi < 0)
    {
      long v = syscall (__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
      saved_errno = v < 0 ? errno : 0;
      abi = v < 0 ? 0 : (int) v;
    }
  if (unavailable_errno)
    *unavailable_errno = saved_errno;
  return abi;
}

void
paddock_landlock_probe (PaddockLandlockFeatures *features)
{
  int abi = landlock_abi (&features->unavailable_errno);

  features->abi = abi;
  features->filesystem = abi >= 1;
  features->refer = abi >= 2;
  features->truncate = abi >= 3;
  features->tcp = abi >= 4;
  features->ioctl_dev = abi >= 5;
  features->scope_signal = abi >= 6;
  features->scope_abstract_unix_socket = abi >= 6;
  features->logging = abi >= 7;
}

static guint64
handled_fs (int abi)
{
  guint64 handled = FS_ABI1;

  if (abi >= 2)
    handled |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3)
    handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
  if (abi >= 5)
    handled |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return handled;
}

/* Device nodes are never created under the lock: MAKE_CHAR and MAKE_BLOCK
 * stay handled and are granted nowhere, so even root cannot mknod a disk. */
static guint64
rights_for (PaddockAccess access)
{
  guint64 rights = 0;

  if (access & PADDOCK_ACCESS_READ)
    rights |= LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
  if (access & PADDOCK_ACCESS_LIST)
    rights |= LANDLOCK_ACCESS_FS_READ_DIR;
  if (access & PADDOCK_ACCESS_EXECUTE)
    rights |= LANDLOCK_ACCESS_FS_EXECUTE;
  if (access & PADDOCK_ACCESS_WRITE)
    rights |= LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
              LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |
              LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |
              LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM |
              LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE;
  if (access & PADDOCK_ACCESS_DEVICE)
    rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return rights;
}

/* Grants @access beneath @path (canonical; a path that does not exist or is
 * a symlink is skipped) in the ruleset. Async-signal-safe once a ruleset
 * was made, so the child can grant the mounts it makes. Returns 0 or an
 * errno. */
int
paddock_landlock_add_path (int            ruleset_fd,
                           const char    *path,
                           PaddockAccess  access)
{
  struct landlock_path_beneath_attr rule = { 0 };
  int fd;
  struct stat st;
  int err = 0;

  fd = open (path, O_PATH | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return 0;
  if (fstat (fd, &st) == 0 && !S_ISLNK (st.st_mode))
    {
      rule.allowed_access = rights_for (access) & handled_fs (landlock_abi (NULL));
      if (!S_ISDIR (st.st_mode))
        rule.allowed_access &= FS_FILE_RIGHTS;
      rule.parent_fd = fd;
      if (rule.allowed_access != 0 &&
          syscall (__NR_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
        err = errno;
    }
  close (fd);
  return err;
}

/* Builds a ruleset from @grants (canonical paths; ones that do not exist or
 * are symlinks are skipped). Returns its fd (close-on-exec), or -1. */
int
paddock_landlock_ruleset_new (GPtrArray  *grants,
                              GError    **error)
{
  int unavailable_errno;
  int abi = landlock_abi (&unavailable_errno);
  struct paddock_ruleset_attr attr = { 0 };
  size_t attr_size;
  paddock_autofd int ruleset_fd = -1;

  if (abi < 1)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSYS,
                   "Landlock is unavailable in this kernel: %s",
                   unavailable_errno == EOPNOTSUPP ? "it is built in but disabled at boot"
                                                   : g_strerror (unavailable_errno));
      return -1;
    }

  attr.handled_access_fs = handled_fs (abi);
  attr_size = sizeof attr.handled_access_fs;
  if (abi >= 6)
    {
      attr.scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
      attr_size = sizeof attr;
    }

  ruleset_fd = syscall (__NR_landlock_create_ruleset, &attr, attr_size, 0);
  if (ruleset_fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create a Landlock ruleset: %s", g_strerror (saved_errno));
      return -1;
    }

  for (guint i = 0; i < grants->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (grants, i);
      int err = paddock_landlock_add_path (ruleset_fd, grant->path, grant->access);

      if (err != 0)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                       "cannot grant %s in the Landlock ruleset: %s",
                       grant->path, g_strerror (err));
          return -1;
        }
    }

  return paddock_steal_fd (&ruleset_fd);
}

/* A ruleset that only scopes signals and abstract Unix sockets (ABI 6),
 * for the namespaces backend; -1 where the kernel cannot. */
int
paddock_landlock_scope_ruleset_new (void)
{
  struct paddock_ruleset_attr attr = {
    .scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET,
  };

  if (landlock_abi (NULL) < 6)
    return -1;
  return syscall (__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
}

/* The port rule as ABI 4 defines it (Debian 12's headers lack it). */
struct paddock_net_port_attr
{
  guint64 allowed_access;
  guint64 port;
} __attribute__ ((packed));

int
paddock_landlock_tcp_ruleset_new (const guint16  *ports,
                                  guint           n_ports,
                                  GError        **error)
{
  struct paddock_ruleset_attr attr = { .handled_access_net = LANDLOCK_ACCESS_NET_CONNECT_TCP };
  paddock_autofd int ruleset_fd = -1;
  int abi = landlock_abi (NULL);

  if (abi < 4)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSYS,
                   "Landlock's TCP rules need ABI 4 (Linux 6.7), and this kernel has %d", abi);
      return -1;
    }
  ruleset_fd = syscall (__NR_landlock_create_ruleset, &attr,
                        G_STRUCT_OFFSET (struct paddock_ruleset_attr, scoped), 0);
  if (ruleset_fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create a Landlock ruleset for TCP: %s", g_strerror (saved_errno));
      return -1;
    }
  for (guint i = 0; i < n_ports; i++)
    {
      struct paddock_net_port_attr rule = { .allowed_access = LANDLOCK_ACCESS_NET_CONNECT_TCP, .port = ports[i] };

      if (syscall (__NR_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_NET_PORT, &rule, 0) != 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot allow TCP port %u in the Landlock ruleset: %s", (guint) ports[i],
                       g_strerror (saved_errno));
          return -1;
        }
    }
  return paddock_steal_fd (&ruleset_fd);
}

/* In the child: async-signal-safe. Returns 0 or an errno. */
int
paddock_landlock_restrict_self (int ruleset_fd)
{
  if (syscall (__NR_landlock_restrict_self, ruleset_fd, 0) != 0)
    return errno;
  return 0;
}
