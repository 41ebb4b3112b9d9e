/* paddock-file-kind.c: what a path names, before Paddock reads or writes it as text
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-file-kind.h"

#include <sys/statfs.h>
#include <sys/sysmacros.h>

/* The kernel file system @fd lies on, or NULL. */
static const char *
kernel_file_system (int fd)
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

const char *
paddock_file_kind_refusal (const struct stat *st,
                           int                fd,
                           PaddockFileUse     use,
                           char               buffer[64])
{
  guint major = major (st->st_rdev);
  guint minor = minor (st->st_rdev);
  const char *kernel_fs;

  if (S_ISBLK (st->st_mode))
    return "a block device (a disk or a partition)";
  if (!S_ISCHR (st->st_mode))
    {
      if (fd < 0 || (kernel_fs = kernel_file_system (fd)) == NULL)
        return NULL;
      g_snprintf (buffer, 64, "a kernel file (on %s)", kernel_fs);
      return buffer;
    }
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

gboolean
paddock_file_kind_check_read (const char  *path,
                              int          fd,
                              const char  *what,
                              GError     **error)
{
  const char *refusal;
  char buffer[64];
  struct stat st;

  if (fd < 0 ? stat (path, &st) != 0 : fstat (fd, &st) != 0)
    return TRUE;
  refusal = paddock_file_kind_refusal (&st, fd, PADDOCK_FILE_USE_READ, buffer);
  if (refusal == NULL)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "cannot read %s%s%s: it is %s",
               what != NULL ? what : "", what != NULL ? " " : "", path, refusal);
  return FALSE;
}
