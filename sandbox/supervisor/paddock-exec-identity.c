/* paddock-exec-identity.c: the programs deny and ask rules name, known by their files
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rule goes by names; a hard link or a copy of the program it names
 * has another. So the files those names lead to are known, by device and
 * inode, and, for a copy, by content: a file exec'd whose size is one of
 * theirs is hashed (SHA-256), once for as long as its device, inode, size
 * and modification time stay the same. Such a file is judged as the
 * program too (paddock_exec_judge_levels()). Only the answering thread
 * uses what is here.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-exec-monitor-private.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Where a rule's plain name is looked for, after paddock-run's PATH. */
static const char * const standard_dirs[] = {
  "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin",
};

/* Hashed files kept, at most: past it the cache starts again. */
#define DIGESTS_MAX 256

typedef struct
{
  guint64 dev;
  guint64 ino;
  guint64 size;
  gint64  mtime_sec;
  guint32 mtime_nsec;
} FileKey;

struct _KnownProgram
{
  char    *name;       /* as the rule gives it: "sudo", or an absolute path */
  char    *path;       /* the file it led to */
  FileKey  key;
  guint8   digest[32];
  gboolean digest_known;
};

typedef struct
{
  FileKey key;
  guint8  digest[32];
} Digest;

static guint
file_key_hash (gconstpointer data)
{
  const FileKey *key = data;

  return (guint) (key->ino ^ (key->ino >> 32) ^ key->dev * 31);
}

/* By device and inode: what identifies a file. */
static gboolean
file_key_same_file (gconstpointer a,
                    gconstpointer b)
{
  const FileKey *x = a;
  const FileKey *y = b;

  return x->dev == y->dev && x->ino == y->ino;
}

static gboolean
file_key_same_content (const FileKey *x,
                       const FileKey *y)
{
  return file_key_same_file (x, y) && x->size == y->size &&
         x->mtime_sec == y->mtime_sec && x->mtime_nsec == y->mtime_nsec;
}

static void
known_program_free (KnownProgram *known)
{
  g_free (known->name);
  g_free (known->path);
  g_free (known);
}

void
paddock_exec_identities_clear (PaddockExecMonitor *self)
{
  g_clear_pointer (&self->known, g_ptr_array_unref);
  g_clear_pointer (&self->known_files, g_hash_table_unref);
  g_clear_pointer (&self->known_sizes, g_hash_table_unref);
  g_clear_pointer (&self->digests, g_hash_table_unref);
}

static gboolean
key_from_stat (const struct stat *st,
               FileKey           *key)
{
  if (!S_ISREG (st->st_mode))
    return FALSE;
  *key = (FileKey) {
    .dev = st->st_dev,
    .ino = st->st_ino,
    .size = st->st_size,
    .mtime_sec = st->st_mtim.tv_sec,
    .mtime_nsec = st->st_mtim.tv_nsec,
  };
  return TRUE;
}

static void
add_known (PaddockExecMonitor *self,
           const char         *name,
           const char         *path)
{
  KnownProgram *known;
  struct stat st;
  FileKey key;

  if (stat (path, &st) != 0 || !key_from_stat (&st, &key) || (st.st_mode & 0111) == 0)
    return;
  /* /bin and /usr/bin are often one folder. */
  if (g_hash_table_contains (self->known_files, &key))
    return;
  known = g_new0 (KnownProgram, 1);
  known->name = g_strdup (name);
  known->path = g_strdup (path);
  known->key = key;
  g_ptr_array_add (self->known, known);
  g_hash_table_insert (self->known_files, &known->key, known);
  g_hash_table_add (self->known_sizes, &known->key.size);
}

/* From the policy as it is now: each name its deny and ask rules give,
 * wherever along PATH and the standard folders it is found. */
static void
learn_identities (PaddockExecMonitor *self)
{
  g_auto(GStrv) names = paddock_policy_dup_guarded_programs (self->policy);
  g_auto(GStrv) path_dirs = g_strsplit (self->search_path != NULL ? self->search_path : "", ":", -1);
  g_autoptr(GPtrArray) dirs = g_ptr_array_new ();

  paddock_exec_identities_clear (self);
  self->known = g_ptr_array_new_with_free_func ((GDestroyNotify) known_program_free);
  self->known_files = g_hash_table_new (file_key_hash, file_key_same_file);
  self->known_sizes = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->digests = g_hash_table_new_full (file_key_hash, file_key_same_file, NULL, g_free);

  for (guint i = 0; path_dirs[i] != NULL; i++)
    if (path_dirs[i][0] == '/')
      g_ptr_array_add (dirs, path_dirs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (standard_dirs); i++)
    g_ptr_array_add (dirs, (char *) standard_dirs[i]);

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (names[i][0] == '/')
        {
          add_known (self, names[i], names[i]);
          continue;
        }
      for (guint d = 0; d < dirs->len; d++)
        {
          g_autofree char *path = g_build_filename (g_ptr_array_index (dirs, d), names[i], NULL);

          add_known (self, names[i], path);
        }
    }
}

static gboolean
hash_file (int     fd,
           guint8  digest[32])
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 buffer[64 * 1024];
  gsize length = 32;
  ssize_t n;

  while ((n = read (fd, buffer, sizeof buffer)) != 0)
    {
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      g_checksum_update (checksum, buffer, n);
    }
  g_checksum_get_digest (checksum, digest, &length);
  return length == 32;
}

static gboolean
known_digest (KnownProgram *known)
{
  paddock_autofd int fd = -1;
  struct stat st;
  FileKey key;

  if (known->digest_known)
    return TRUE;
  fd = open (known->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  /* Replaced since it was learnt: no longer the file its key says. */
  if (fd < 0 || fstat (fd, &st) != 0 || !key_from_stat (&st, &key) || !file_key_same_content (&key, &known->key))
    return FALSE;
  known->digest_known = hash_file (fd, known->digest);
  return known->digest_known;
}

KnownProgram *
paddock_exec_identify (PaddockExecMonitor *self,
                       int                 fd,
                       int                 dir_fd,
                       const char         *path_at,
                       const struct statx *stx,
                       gboolean           *is_copy)
{
  FileKey key = {
    .dev = makedev (stx->stx_dev_major, stx->stx_dev_minor),
    .ino = stx->stx_ino,
    .size = stx->stx_size,
    .mtime_sec = stx->stx_mtime.tv_sec,
    .mtime_nsec = stx->stx_mtime.tv_nsec,
  };
  KnownProgram *known;
  Digest *digest;
  gint generation = paddock_policy_get_generation (self->policy);

  if (self->known == NULL || generation != self->known_generation)
    {
      self->known_generation = generation;
      learn_identities (self);
    }
  if (self->known->len == 0 || (stx->stx_mask & (STATX_SIZE | STATX_MTIME | STATX_INO)) != (STATX_SIZE | STATX_MTIME | STATX_INO))
    return NULL;

  known = g_hash_table_lookup (self->known_files, &key);
  if (known != NULL)
    {
      *is_copy = FALSE;
      return known;
    }
  if (!g_hash_table_contains (self->known_sizes, &key.size))
    return NULL;

  digest = g_hash_table_lookup (self->digests, &key);
  if (digest == NULL || !file_key_same_content (&digest->key, &key))
    {
      paddock_autofd int readable = -1;
      char path[48];

      if (fd >= 0)
        {
          g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
          readable = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        }
      else
        {
          struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | O_NOCTTY, .resolve = RESOLVE_IN_ROOT };

          readable = (int) syscall (SYS_openat2, dir_fd, path_at, &how, sizeof how);
        }
      if (readable < 0)
        return NULL;
      if (g_hash_table_size (self->digests) >= DIGESTS_MAX)
        g_hash_table_remove_all (self->digests);
      digest = g_new0 (Digest, 1);
      digest->key = key;
      if (!hash_file (readable, digest->digest))
        {
          g_free (digest);
          return NULL;
        }
      g_hash_table_replace (self->digests, &digest->key, digest);
    }

  for (guint i = 0; i < self->known->len; i++)
    {
      known = g_ptr_array_index (self->known, i);
      if (known->key.size == key.size && known_digest (known) &&
          memcmp (known->digest, digest->digest, sizeof known->digest) == 0)
        {
          *is_copy = TRUE;
          return known;
        }
    }
  return NULL;
}

const char *
paddock_exec_known_path (KnownProgram *known)
{
  return known->path;
}

const char *
paddock_exec_known_name (KnownProgram *known)
{
  return known->name[0] == '/' ? known->path : known->name;
}
