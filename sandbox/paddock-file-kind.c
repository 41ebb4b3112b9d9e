/* paddock-file-kind.c: what a path names, before Paddock reads or writes it as text
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-file-kind.h"

#include <sys/statfs.h>
#include <sys/sysmacros.h>

const char *
paddock_file_kind_refusal (const struct stat *st,
                           PaddockFileUse     use,
                           char               buffer[64])
{
  guint major = major (st->st_rdev);
  guint minor = minor (st->st_rdev);

  if (S_ISBLK (st->st_mode))
    return "a block device (a disk or a partition)";
  if (!S_ISCHR (st->st_mode))
    return NULL;
  /* Memory devices: /dev/null, and /dev/full, which takes nothing. */
  if (major == 1 && (minor == 3 || (minor == 7 && use == PADDOCK_FILE_USE_WRITE)))
    return NULL;
  /* Terminals: virtual consoles, serial lines and /dev/tty (4 and 5),
   * pseudo-terminals (136 to 143). */
  if (major == 4 || major == 5 || (major >= 136 && major <= 143))
    return NULL;
  g_snprintf (buffer, 64, "a device (character %u:%u)", major, minor);
  return buffer;
}

const char *
paddock_file_kind_kernel_fs (int fd)
{
  static const struct { unsigned long magic; const char *name; } kinds[] = {
    { 0x9fa0, "/proc" },
    { 0x62656572, "sysfs" },
    { 0x27e0eb, "cgroup" },
    { 0x63677270, "cgroup2" },
    { 0x64626720, "debugfs" },
    { 0x74726163, "tracefs" },
    { 0x73636673, "securityfs" },
    { 0xcafe4a11, "bpf" },
    { 0x62656570, "configfs" },
    { 0xde5e81e4, "efivarfs" },
    { 0x6165676c, "pstore" },
    { 0xf97cff8c, "selinuxfs" },
  };
  struct statfs sfs;

  if (fstatfs (fd, &sfs) != 0)
    return NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if ((unsigned long) sfs.f_type == kinds[i].magic)
      return kinds[i].name;
  return NULL;
}

gboolean
paddock_file_kind_check_read (const char  *path,
                              int          fd,
                              const char  *what,
                              GError     **error)
{
  const char *refusal = NULL;
  const char *kernel_fs;
  char buffer[64];
  struct stat st;

  if (fd < 0 ? stat (path, &st) != 0 : fstat (fd, &st) != 0)
    return TRUE;
  refusal = paddock_file_kind_refusal (&st, PADDOCK_FILE_USE_READ, buffer);
  if (refusal == NULL && fd >= 0 && (kernel_fs = paddock_file_kind_kernel_fs (fd)) != NULL)
    {
      g_snprintf (buffer, sizeof buffer, "a kernel file (on %s)", kernel_fs);
      refusal = buffer;
    }
  if (refusal == NULL)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "cannot read %s%s%s: it is %s",
               what != NULL ? what : "", what != NULL ? " " : "", path, refusal);
  return FALSE;
}
