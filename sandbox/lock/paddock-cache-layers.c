/* paddock-cache-layers.c: tool caches under the lock, copy-on-write
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Today's package managers keep what they download in a cache of the
 * user's, and trust it: a package the agent wrote into ~/.npm would be
 * installed, unlocked, by the user's next build. Read-only, the cache
 * keeps that out, and with it `npm pack` and `npm install --offline`,
 * which write there. An overlay gives both: the real cache below, a layer
 * of the project's above. It is made with the new mount API (fsopen(),
 * fsmount()) as soon as the child's mounts are private, while the layer's
 * folder is still writable and not yet covered (Paddock's state folder is
 * denied), and attached, detached until then, once every other mount is
 * made: whatever the home folder's plan puts at the cache's path, the
 * overlay goes on top, and its lower layer is the real cache all the same.
 */
#include "config.h"

#include "paddock-cache-layers.h"
#include "paddock-grants.h"
#include "paddock-landlock.h"
#include "paddock-project-store.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif

/* <linux/mount.h> clashes with glibc's <sys/mount.h>. */
#define FSOPEN_CLOEXEC_           0x1
#define FSCONFIG_SET_FLAG_        0
#define FSCONFIG_SET_STRING_      1
#define FSCONFIG_CMD_CREATE_      6
#define FSMOUNT_CLOEXEC_          0x1
#define MOUNT_ATTR_NOSUID_        0x2
#define MOUNT_ATTR_NODEV_         0x4
#define MOVE_MOUNT_F_EMPTY_PATH_  0x4

typedef struct
{
  char     *name;      /* "npm": the layer's folder */
  char     *path;      /* the real cache, canonical: the lower layer and where the overlay goes */
  char     *upper;
  char     *work;
  int       lock_fd;   /* held for the session: one session of a project writes a layer at a time */
  /* In the child: */
  int       mount_fd;  /* the overlay, detached, or -1 */
  gboolean  attached;
} Layer;

struct _PaddockCacheLayers
{
  GPtrArray *layers;   /* Layer */
};

static void
layer_free (Layer *layer)
{
  if (layer->lock_fd >= 0)
    close (layer->lock_fd);
  g_free (layer->name);
  g_free (layer->path);
  g_free (layer->upper);
  g_free (layer->work);
  g_free (layer);
}

char **
paddock_cache_layers_dup_paths (PaddockCacheLayers *self)
{
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; self != NULL && i < self->layers->len; i++)
    g_ptr_array_add (paths, g_strdup (((Layer *) g_ptr_array_index (self->layers, i))->path));
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

void
paddock_cache_layers_free (PaddockCacheLayers *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->layers);
  g_free (self);
}

char *
paddock_cache_layers_dir (const char *project)
{
  g_autofree char *key = paddock_project_store_key (project);

  return g_build_filename (paddock_user_state_dir (), "paddock", "caches", key, NULL);
}

/* The caches, where each tool looks for its own: its variable naming the
 * cache, else one naming the folder that holds it, else its default, in
 * the home folder or in $XDG_CACHE_HOME. */
static const struct
{
  const char *name;       /* the layer's folder */
  const char *variable;   /* or NULL */
  const char *holder;     /* a variable naming the folder that holds it, or NULL */
  const char *in_holder;
  gboolean    in_cache;   /* the default lies in $XDG_CACHE_HOME, else in the home folder */
  const char *fallback;
} caches[] = {
  { "npm", "npm_config_cache", NULL, NULL, FALSE, ".npm" },
  { "pip", "PIP_CACHE_DIR", NULL, NULL, TRUE, "pip" },
  { "cargo-registry", NULL, "CARGO_HOME", "registry", FALSE, ".cargo/registry" },
  { "cargo-git", NULL, "CARGO_HOME", "git", FALSE, ".cargo/git" },
  { "maven", NULL, NULL, NULL, FALSE, ".m2/repository" },
  { "gradle", NULL, "GRADLE_USER_HOME", "caches", FALSE, ".gradle/caches" },
  { "go-mod", "GOMODCACHE", "GOPATH", "pkg/mod", FALSE, "go/pkg/mod" },
  { "go-build", "GOCACHE", NULL, NULL, TRUE, "go-build" },
};

/* The first of $@variable's ':'-separated folders (GOPATH may name
 * several), where it names one; npm reads its variables in either case. */
static char *
first_in_variable (const char *variable)
{
  g_autofree char *upper = g_ascii_strup (variable, -1);
  const char *value = g_getenv (variable);
  g_auto(GStrv) parts = NULL;

  if (value == NULL || *value == '\0')
    value = g_getenv (upper);
  if (value == NULL || *value == '\0')
    return NULL;
  parts = g_strsplit (value, ":", 2);
  return g_path_is_absolute (parts[0]) ? g_strdup (parts[0]) : NULL;
}

static char *
find_cache (guint i)
{
  g_autofree char *holder = NULL;
  char *found;

  if (caches[i].variable != NULL && (found = first_in_variable (caches[i].variable)) != NULL)
    return found;
  if (caches[i].holder != NULL && (holder = first_in_variable (caches[i].holder)) != NULL)
    return g_build_filename (holder, caches[i].in_holder, NULL);
  return g_build_filename (caches[i].in_cache ? paddock_user_cache_dir () : g_get_home_dir (),
                           caches[i].fallback, NULL);
}

/* Whether the lock leaves @real writable already, or must keep it whole:
 * then it gets no layer. */
static gboolean
is_left_alone (const char         *real,
               GPtrArray          *grants,
               const char * const *denials)
{
  for (guint i = 0; grants != NULL && i < grants->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (grants, i);

      if ((grant->access & PADDOCK_ACCESS_WRITE) && paddock_path_is_within (real, grant->path))
        return TRUE;
    }
  return paddock_grants_find_denial (real, denials) != NULL ||
         paddock_grants_find_denial_beneath (real, denials) != NULL;
}

/* overlayfs's options split at ',' and ':' where the kernel still reads
 * them as one string (before Linux 6.5), and '\' escapes. */
static gboolean
is_plain_path (const char *path)
{
  return strpbrk (path, ",:\\") == NULL;
}

static Layer *
layer_new (const char *name,
           const char *real,
           const char *dir)
{
  g_autofree char *folder = g_build_filename (dir, name, NULL);
  g_autofree char *lock_path = g_build_filename (folder, "lock", NULL);
  Layer *layer = g_new0 (Layer, 1);

  layer->name = g_strdup (name);
  layer->path = g_strdup (real);
  layer->upper = g_build_filename (folder, "upper", NULL);
  layer->work = g_build_filename (folder, "work", NULL);
  layer->mount_fd = -1;
  layer->lock_fd = -1;
  if (g_mkdir_with_parents (layer->upper, 0700) != 0 || g_mkdir_with_parents (layer->work, 0700) != 0 ||
      !is_plain_path (layer->upper))
    {
      layer_free (layer);
      return NULL;
    }
  layer->lock_fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  /* Two overlays writing one upper folder at once is undefined: the
   * second session of a project keeps the cache read-only. */
  if (layer->lock_fd < 0 || flock (layer->lock_fd, LOCK_EX | LOCK_NB) != 0)
    {
      layer_free (layer);
      return NULL;
    }
  return layer;
}

PaddockCacheLayers *
paddock_cache_layers_new (const char          *project,
                          GPtrArray           *grants,
                          const char * const  *denials)
{
  PaddockCacheLayers *self = g_new0 (PaddockCacheLayers, 1);
  g_autofree char *dir = paddock_cache_layers_dir (project);

  self->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) layer_free);
  for (guint i = 0; i < G_N_ELEMENTS (caches); i++)
    {
      g_autofree char *path = find_cache (i);
      g_autofree char *real = realpath (path, NULL);
      gboolean nested = FALSE;
      struct stat st;
      Layer *layer;

      if (real == NULL || stat (real, &st) != 0 || !S_ISDIR (st.st_mode) || !is_plain_path (real) ||
          is_left_alone (real, grants, denials))
        continue;
      /* One overlay a tree: a cache in another's (GOCACHE in ~/go) is in its layer. */
      for (guint j = 0; j < self->layers->len; j++)
        {
          Layer *other = g_ptr_array_index (self->layers, j);

          nested |= paddock_path_is_within (real, other->path) || paddock_path_is_within (other->path, real);
        }
      if (nested)
        continue;
      layer = layer_new (caches[i].name, real, dir);
      if (layer != NULL)
        g_ptr_array_add (self->layers, layer);
    }
  return self;
}

/* In the child: the overlay of @lower, @upper and @work, detached, as a
 * descriptor; or -1 with errno set. */
static int
make_overlay (const char *lower,
              const char *upper,
              const char *work,
              gboolean    user_xattr)
{
  int fs = syscall (__NR_fsopen, "overlay", FSOPEN_CLOEXEC_);
  int mnt = -1;
  int saved_errno;

  if (fs < 0)
    return -1;
  if (syscall (__NR_fsconfig, fs, FSCONFIG_SET_STRING_, "lowerdir", lower, 0) == 0 &&
      syscall (__NR_fsconfig, fs, FSCONFIG_SET_STRING_, "upperdir", upper, 0) == 0 &&
      syscall (__NR_fsconfig, fs, FSCONFIG_SET_STRING_, "workdir", work, 0) == 0 &&
      (!user_xattr || syscall (__NR_fsconfig, fs, FSCONFIG_SET_FLAG_, "userxattr", NULL, 0) == 0) &&
      syscall (__NR_fsconfig, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0) == 0)
    mnt = syscall (__NR_fsmount, fs, FSMOUNT_CLOEXEC_, MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_);
  saved_errno = errno;
  close (fs);
  errno = saved_errno;
  return mnt;
}

/* overlayfs keeps what it needs (an opaque folder, a renamed one) in
 * extended attributes of the upper layer, trusted.* ones unless told
 * user.* ones: in a user namespace only the latter can be set, and
 * without them removing a folder of the real cache fails with EIO.
 * user.* first, then (a tmpfs before Linux 6.6 has none) trusted.*. */
static int
make_overlay_either (const char *lower,
                     const char *upper,
                     const char *work)
{
  int mnt = make_overlay (lower, upper, work, TRUE);

  if (mnt < 0 && errno != ENOSYS)
    {
      int saved_errno = errno;

      mnt = make_overlay (lower, upper, work, FALSE);
      if (mnt < 0)
        errno = saved_errno;
    }
  return mnt;
}

int
paddock_cache_layers_make (gpointer data)
{
  PaddockCacheLayers *self = data;

  for (guint i = 0; i < self->layers->len; i++)
    {
      Layer *layer = g_ptr_array_index (self->layers, i);

      layer->mount_fd = make_overlay_either (layer->path, layer->upper, layer->work);
    }
  return 0;
}

int
paddock_cache_layers_attach (gpointer data)
{
  PaddockCacheLayers *self = data;

  for (guint i = 0; i < self->layers->len; i++)
    {
      Layer *layer = g_ptr_array_index (self->layers, i);

      if (layer->mount_fd < 0)
        continue;
      layer->attached = syscall (__NR_move_mount, layer->mount_fd, "", AT_FDCWD, layer->path,
                                 MOVE_MOUNT_F_EMPTY_PATH_) == 0;
      close (layer->mount_fd);
      layer->mount_fd = -1;
    }
  return 0;
}

int
paddock_cache_layers_grant (PaddockCacheLayers *self,
                            int                 ruleset_fd)
{
  for (guint i = 0; self != NULL && i < self->layers->len; i++)
    {
      Layer *layer = g_ptr_array_index (self->layers, i);
      int err;

      if (layer->attached && (err = paddock_landlock_add_path (ruleset_fd, layer->path, PADDOCK_ACCESS_READ_WRITE)) != 0)
        return err;
    }
  return 0;
}

static void
remove_probe (const char *dir)
{
  static const char * const names[] = { "work/work", "work/index", "work", "upper", "lower" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      rmdir (path);
    }
  rmdir (dir);
}

static int
write_text (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  ssize_t length = strlen (text);
  int err = 0;

  if (fd < 0)
    return errno;
  if (write (fd, text, length) != length)
    err = errno ? errno : EIO;
  close (fd);
  return err;
}

gboolean
paddock_cache_layers_probe (gboolean   user_namespace,
                            int       *saved_errno,
                            char     **what)
{
  static const char * const steps[] = {
    "create a mount namespace", "map the user into the user namespace", "make the mounts private",
    "mount an overlay", "make a folder for the layers",
  };
  g_autofree char *base = g_build_filename (paddock_user_state_dir (), "paddock", "caches", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *lower = NULL;
  g_autofree char *upper = NULL;
  g_autofree char *work = NULL;
  g_autofree char *uid_map = g_strdup_printf ("%u %u 1\n", (guint) getuid (), (guint) getuid ());
  g_autofree char *gid_map = g_strdup_printf ("%u %u 1\n", (guint) getgid (), (guint) getgid ());
  int report[2];
  int msg[2] = { 4, 0 };
  pid_t pid;
  int status;

  *saved_errno = 0;
  *what = NULL;
  if (g_mkdir_with_parents (base, 0700) == 0)
    dir = g_build_filename (base, ".probe-XXXXXX", NULL);
  if (dir == NULL || g_mkdtemp (dir) == NULL)
    {
      *saved_errno = errno;
      *what = g_strdup (steps[4]);
      return FALSE;
    }
  lower = g_build_filename (dir, "lower", NULL);
  upper = g_build_filename (dir, "upper", NULL);
  work = g_build_filename (dir, "work", NULL);
  if (mkdir (lower, 0700) != 0 || mkdir (upper, 0700) != 0 || mkdir (work, 0700) != 0 ||
      pipe2 (report, O_CLOEXEC) != 0)
    {
      msg[1] = errno;
      remove_probe (dir);
      *saved_errno = msg[1];
      *what = g_strdup (steps[4]);
      return FALSE;
    }

  pid = fork ();
  if (pid == 0)
    {
      int mnt;

      msg[0] = 0;
      if (unshare (CLONE_NEWNS | (user_namespace ? CLONE_NEWUSER : 0)) != 0)
        msg[1] = errno;
      else if (user_namespace &&
               ((msg[1] = write_text ("/proc/self/setgroups", "deny")) != 0 ||
                (msg[1] = write_text ("/proc/self/uid_map", uid_map)) != 0 ||
                (msg[1] = write_text ("/proc/self/gid_map", gid_map)) != 0))
        msg[0] = 1;
      else if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        msg[0] = 2, msg[1] = errno;
      else if ((mnt = make_overlay_either (lower, upper, work)) < 0)
        msg[0] = 3, msg[1] = errno;
      if (write (report[1], msg, sizeof msg) < 0)
        _exit (1);
      _exit (0);
    }
  close (report[1]);
  if (pid < 0 || read (report[0], msg, sizeof msg) != sizeof msg)
    msg[0] = 0, msg[1] = pid < 0 ? errno : ECHILD;
  close (report[0]);
  while (pid > 0 && waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  remove_probe (dir);
  *saved_errno = msg[1];
  if (msg[1] != 0)
    *what = g_strdup (steps[msg[0]]);
  return msg[1] == 0;
}
