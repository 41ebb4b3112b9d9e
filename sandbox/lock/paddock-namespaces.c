/* paddock-namespaces.c: the folder lock's mount plans: the namespaces backend, and the private /tmp and /run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where Landlock is missing, the same grants come from an unprivileged user
 * namespace (mapping the user to itself) with a mount namespace: every mount
 * is made read-only and nosuid, the paths granted for writing are bound
 * read-write over themselves, denied paths are covered (an empty tmpfs for a
 * directory, a node that cannot be opened for a file), and /dev is rebuilt
 * from the few nodes an agent needs, so that not even root can open a disk.
 *
 * A new PID namespace with its own /proc hides every process outside the
 * lock: nothing inside can signal paddock-run or read another process's
 * memory or environment. Its first process (PID 1) is a small init that
 * relays the supervisor's signals to the agent and exits with its status.
 *
 * Under either backend the agent also gets private places: an empty /tmp,
 * /var/tmp, /dev/shm and $XDG_RUNTIME_DIR of its own, and a /run that holds
 * only what name resolution reads. Landlock (up to ABI 7) does not govern
 * connect() on named Unix sockets, and the services a locked agent must not
 * reach listen there: the D-Bus buses (and through them systemd-run),
 * systemd itself, ssh-agent, gpg-agent, Docker, X11, a tmux server. Under
 * Landlock this takes a mount namespace of its own, inside a user namespace
 * where paddock-run lacks CAP_SYS_ADMIN. What the lock keeps visible that
 * lies in those places (a project under /tmp, say) is bound back in.
 *
 * That mount namespace also gives the Landlock backend what its rules do
 * not govern, as the namespaces backend has it: every mount read-only but
 * the writable grants (chmod, chown, utimes, setxattr), the denied paths
 * covered (connect() to a socket in them, stat, inotify), and a devpts of
 * the agent's own (the user's other terminals).
 *
 * The plan is made in the parent; the child only makes system calls.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-fd-passing.h"
#include "paddock-grants.h"
#include "paddock-namespaces.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

#define OPEN_TREE_CLONE_ 1
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4

#define ATTR_RDONLY 0x1
#define ATTR_NOSUID 0x2
#define ATTR_NODEV  0x4
#define ATTR_NOEXEC 0x8

/* struct mount_attr; <linux/mount.h> clashes with glibc's <sys/mount.h>. */
struct paddock_mount_attr
{
  guint64 attr_set;
  guint64 attr_clr;
  guint64 propagation;
  guint64 userns_fd;
};

typedef enum
{
  STEP_UNSHARE,   /* enter new namespaces (flags) */
  STEP_WRITE,     /* write text to target */
  STEP_PRIVATE,   /* stop mount propagation below target */
  STEP_SETATTR,   /* set/clear mount flags on target (recursive when flags say) */
  STEP_BIND,      /* bind source over target */
  STEP_TMPFS,     /* mount an empty tmpfs over target, data as options */
  STEP_MKDIR,
  STEP_CREATE,    /* an empty file, as a mount point */
  STEP_SYMLINK,   /* target is the link, source what it points to */
  STEP_MOVE,      /* move the mount at source to target */
  STEP_UMOUNT,    /* detach the mount at target */
  STEP_RMDIR,
  STEP_OPEN_TREE, /* take a detached copy of the tree at target, before it is covered */
  STEP_ATTACH,    /* attach the copy taken by step->tree at target */
  STEP_DEVPTS,
  STEP_CHDIR,
  STEP_PROC,
  STEP_VIEW_OPEN, /* open /dev/fuse for the home view, before /dev is replaced */
  STEP_VIEW,      /* mount the home view at target, hand its descriptor to the supervisor */
  STEP_VIEW_BIND, /* bind an asked entry from the view; where there is none, cover target */
  STEP_CALL,      /* call call (data): another file's part of the plan, failing only with what it returns */
} StepKind;

typedef struct _Step Step;

struct _Step
{
  StepKind  kind;
  char     *source;
  char     *target;
  char     *data;
  guint64   set;
  guint64   clear;
  gboolean  recursive;
  int       flags;        /* STEP_UNSHARE */
  mode_t    mode;         /* STEP_MKDIR */
  int       fd;           /* STEP_OPEN_TREE: the copy, in the child */
  Step     *tree;         /* STEP_ATTACH */
  gboolean  view_only;    /* skipped where the home view could not be mounted */
  int     (*call) (gpointer data);  /* STEP_CALL */
  gpointer  call_data;
  char     *description;
};

struct _PaddockNamespaces
{
  PaddockNamespacesKind  kind;
  GPtrArray             *steps;
  guint                  first_mount_step;  /* failing before it changes nothing */
  GPtrArray             *fresh;             /* PaddockGrant: the new mounts Landlock must grant */
  int                    clone_flags;       /* the private places' namespaces, made by clone() */
  /* In the child only: */
  gboolean               in_pid_namespace;  /* paddock_namespaces_fork() made one */
  int                    proc_errno;        /* the private places' /proc could not be mounted */
  GPtrArray             *places;            /* Place: the private places, for what they hide */
  GPtrArray             *binds;             /* BindBack: what is kept in them */
  /* The home view (see paddock_namespaces_get_view_entries()): */
  GPtrArray             *view_entries;      /* char *: the asked entries, in the view's order */
  int                    view_socket;       /* the child's end; -1 once another child had it */
  char                  *view_options;      /* the mount's options after "fd=N" */
  int                    view_fd;           /* in the child: /dev/fuse */
  int                    view_errno;        /* in the child: why there is no view, or 0 */
};

/* A place the agent gets a fresh, empty one of. */
typedef struct
{
  char          *path;      /* first, as in BindBack (find_deepest) */
  char          *options;   /* tmpfs options */
  PaddockAccess  access;    /* what Landlock grants on it */
  gboolean       is_run;    /* keeps the links and name resolution of /run */
  gboolean       is_home;   /* the home folder: its copy is staged in it */
  gboolean       is_split;  /* holds its real entries bound back one by one: the home
                             * folder, and the folders below it whose entries are kinds
                             * of their own or that hold what the lock keeps */
} Place;

/* What is bound back into a place from the host. */
typedef struct
{
  char     *path;           /* first, as in Place (find_deepest) */
  gboolean  writable;
  gboolean  is_dir;
  Step     *tree;
  gboolean  from_home;      /* an entry of the home folder, bound from its copy */
  char     *link;           /* from_home: a symbolic link, made again */
  int       view_index;     /* from_home: served by the home view as its entry "N"; or -1 */
  gboolean  own_rule;       /* from_home: Landlock grants it a rule of its own, made in the child */
} BindBack;

static void
step_free (Step *step)
{
  g_free (step->source);
  g_free (step->target);
  g_free (step->data);
  g_free (step->description);
  g_free (step);
}

static void
place_free (Place *place)
{
  g_free (place->path);
  g_free (place->options);
  g_free (place);
}

static void
bind_back_free (BindBack *bind)
{
  g_free (bind->path);
  g_free (bind->link);
  g_free (bind);
}

static Step *
add_step (PaddockNamespaces *ns,
          StepKind           kind,
          const char        *source,
          const char        *target,
          const char        *description)
{
  Step *step = g_new0 (Step, 1);

  step->kind = kind;
  step->source = g_strdup (source);
  step->target = g_strdup (target);
  step->description = g_strdup (description);
  step->fd = -1;
  g_ptr_array_add (ns->steps, step);
  return step;
}

static void
add_setattr (PaddockNamespaces *ns,
             const char        *target,
             guint64            set,
             guint64            clear,
             gboolean           recursive,
             const char        *description)
{
  Step *step = add_step (ns, STEP_SETATTR, NULL, target, description);

  step->set = set;
  step->clear = clear;
  step->recursive = recursive;
}

static void
add_mkdir (PaddockNamespaces *ns,
           const char        *target,
           mode_t             mode,
           const char        *description)
{
  Step *step = add_step (ns, STEP_MKDIR, NULL, target, description);

  step->mode = mode;
}

/* Directories from @base (exclusive) down to @path (exclusive), for a
 * mount point on a fresh tmpfs. */
static void
add_mkdir_chain (PaddockNamespaces *ns,
                 const char        *base,
                 const char        *path,
                 const char        *description)
{
  g_autofree char *parent = g_path_get_dirname (path);

  if (strcmp (parent, base) == 0 || !paddock_path_is_within (parent, base))
    return;
  add_mkdir_chain (ns, base, parent, description);
  add_mkdir (ns, parent, 0755, description);
}

/* The new /dev is assembled on a tmpfs mounted over this directory, then
 * moved into place: binding needs the host's nodes at their own paths, and
 * they are hidden once /dev is covered. */
#define DEV_STAGING "/tmp"

static void
add_device (PaddockNamespaces *ns,
            const char        *name,
            gboolean           is_dir)
{
  g_autofree char *host = g_strconcat ("/dev/", name, NULL);
  g_autofree char *staged = g_strconcat (DEV_STAGING "/", name, NULL);
  g_autofree char *what = g_strdup_printf ("bind %s", host);

  if (!g_file_test (host, G_FILE_TEST_EXISTS))
    return;
  add_step (ns, is_dir ? STEP_MKDIR : STEP_CREATE, NULL, staged, what);
  add_step (ns, STEP_BIND, host, staged, what);
}

gboolean
paddock_namespaces_has_cap_sys_admin (void)
{
  struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
  struct __user_cap_data_struct data[2] = { { 0 } };

  if (syscall (__NR_capget, &header, data) != 0)
    return FALSE;
  return (data[CAP_TO_INDEX (CAP_SYS_ADMIN)].effective & CAP_TO_MASK (CAP_SYS_ADMIN)) != 0;
}

/* The user stays who they are inside: no root for a user who is not. */
static void
add_identity_map (PaddockNamespaces *ns)
{
  Step *step;

  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/setgroups", "write /proc/self/setgroups");
  step->data = g_strdup ("deny");
  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/uid_map", "map the user into the user namespace");
  step->data = g_strdup_printf ("%u %u 1\n", (guint) getuid (), (guint) getuid ());
  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/gid_map", "map the group into the user namespace");
  step->data = g_strdup_printf ("%u %u 1\n", (guint) getgid (), (guint) getgid ());
}

/* Up to the first change to the mounts: the namespaces, the identity, and
 * private propagation, so nothing done inside leaks out. */
static void
add_entry (PaddockNamespaces     *ns,
           PaddockNamespacesKind  kind)
{
  if (kind == PADDOCK_NAMESPACES_PRIVATE_PLACES)
    {
      gboolean as_root = paddock_namespaces_has_cap_sys_admin ();
      Step *step = add_step (ns, STEP_UNSHARE, NULL, NULL,
                             as_root ? "create a mount namespace" : "create a user and mount namespace");

      step->flags = CLONE_NEWNS | (as_root ? 0 : CLONE_NEWUSER);
      ns->clone_flags = step->flags;
      if (!as_root)
        add_identity_map (ns);
    }
  else
    add_identity_map (ns);

  ns->first_mount_step = ns->steps->len;
  add_step (ns, STEP_PRIVATE, NULL, "/", "make the mounts private");
}

static PaddockNamespaces *
namespaces_alloc (PaddockNamespacesKind kind)
{
  PaddockNamespaces *ns = g_new0 (PaddockNamespaces, 1);

  ns->kind = kind;
  ns->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);
  ns->fresh = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);
  ns->view_entries = g_ptr_array_new_with_free_func (g_free);
  ns->view_socket = -1;
  ns->view_fd = -1;
  return ns;
}

/* Probes, by trying in a short-lived child, whether this user can create the
 * namespaces @kind needs (and, for the private places, mount in them).
 * On failure, *what says which step failed. */
gboolean
paddock_namespaces_probe (PaddockNamespacesKind   kind,
                          int                    *saved_errno,
                          char                  **what,
                          gboolean               *hides_processes)
{
  g_autoptr(PaddockNamespaces) ns = NULL;
  int report[2];
  int msg[3] = { 0, 0, 0 };
  pid_t pid;
  int status;

  if (what != NULL)
    *what = NULL;

  if (kind == PADDOCK_NAMESPACES_LOCK)
    {
      pid = paddock_namespaces_clone ();
      if (pid < 0)
        {
          *saved_errno = errno;
          if (what != NULL)
            *what = g_strdup ("create user, mount and PID namespaces");
          return FALSE;
        }
      if (pid == 0)
        _exit (0);
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
        ;
      *saved_errno = 0;
      if (hides_processes != NULL)
        *hides_processes = TRUE;
      return TRUE;
    }

  ns = namespaces_alloc (kind);
  add_entry (ns, kind);
  add_step (ns, STEP_PROC, NULL, "/proc", "mount /proc for the PID namespace");
  if (pipe2 (report, O_CLOEXEC) != 0)
    {
      *saved_errno = errno;
      return FALSE;
    }
  pid = paddock_namespaces_fork (ns);
  if (pid < 0)
    {
      *saved_errno = errno;
      close (report[0]);
      close (report[1]);
      return FALSE;
    }
  if (pid == 0)
    {
      msg[1] = paddock_namespaces_enter (ns, &msg[0]);
      msg[2] = ns->in_pid_namespace && ns->proc_errno == 0;
      if (write (report[1], msg, sizeof msg) < 0)
        _exit (1);
      _exit (0);
    }
  close (report[1]);
  if (read (report[0], msg, sizeof msg) != sizeof msg)
    msg[1] = ECHILD;
  close (report[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  *saved_errno = msg[1];
  if (msg[1] != 0 && what != NULL)
    *what = g_strdup (paddock_namespaces_step_name (ns, msg[0]));
  if (hides_processes != NULL)
    *hides_processes = msg[1] == 0 && msg[2];
  return msg[1] == 0;
}

/* Like fork(), but the child starts in new user, mount and PID namespaces,
 * as PID 1. Raw clone: the child must only make system calls. */
pid_t
paddock_namespaces_clone (void)
{
  return syscall (__NR_clone, (unsigned long) (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | SIGCHLD),
                  NULL, NULL, NULL, 0);
}

/* fork() for a child that will enter @ns. The namespaces backend's child
 * starts in its new namespaces as PID 1. So does the Landlock backend's
 * where it can, with a PID namespace added to its private places: the
 * agent's own /proc then shows no process outside the lock (command
 * lines, which Landlock leaves readable). Where that clone is refused,
 * a plain fork(), and the private places' own unshare() in the child. */
pid_t
paddock_namespaces_fork (PaddockNamespaces *ns)
{
  pid_t pid;

  if (ns->kind == PADDOCK_NAMESPACES_LOCK)
    return paddock_namespaces_clone ();
  pid = syscall (__NR_clone, (unsigned long) (ns->clone_flags | CLONE_NEWPID | SIGCHLD), NULL, NULL, NULL, 0);
  if (pid == 0)
    ns->in_pid_namespace = TRUE;
  if (pid >= 0)
    return pid;
  return fork ();
}

/* In the child: whether it is PID 1 of a namespace of its own, and so
 * must become its init once locked. */
gboolean
paddock_namespaces_in_pid_namespace (PaddockNamespaces *ns)
{
  return ns->kind == PADDOCK_NAMESPACES_LOCK || ns->in_pid_namespace;
}

/* In the child: why the private places' /proc could not be mounted (the
 * agent then sees every process's command line), or 0. */
int
paddock_namespaces_get_proc_errno (PaddockNamespaces *ns)
{
  return ns->proc_errno;
}

static int
compare_grants_by_path (gconstpointer a,
                        gconstpointer b)
{
  const PaddockGrant *ga = *(PaddockGrant * const *) a;
  const PaddockGrant *gb = *(PaddockGrant * const *) b;

  return strcmp (ga->path, gb->path);
}

static int
compare_places (gconstpointer a,
                gconstpointer b)
{
  return strcmp ((*(Place * const *) a)->path, (*(Place * const *) b)->path);
}

static int
compare_bind_backs (gconstpointer a,
                    gconstpointer b)
{
  return strcmp ((*(BindBack * const *) a)->path, (*(BindBack * const *) b)->path);
}

/* Returns the new place, or NULL where @path cannot be one or is one
 * already. */
static Place *
add_place (GPtrArray     *places,
           const char    *path,
           const char    *options,
           PaddockAccess  access,
           gboolean       is_run)
{
  g_autofree char *real = realpath (path, NULL);
  struct stat st;
  Place *place;

  if (real == NULL || strcmp (real, "/") == 0 || stat (real, &st) != 0 || !S_ISDIR (st.st_mode))
    return NULL;
  for (guint i = 0; i < places->len; i++)
    if (strcmp (((Place *) g_ptr_array_index (places, i))->path, real) == 0)
      return NULL;

  place = g_new0 (Place, 1);
  place->path = g_steal_pointer (&real);
  place->options = g_strdup (options);
  place->access = access;
  place->is_run = is_run;
  g_ptr_array_add (places, place);
  return place;
}

G_STATIC_ASSERT (G_STRUCT_OFFSET (Place, path) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (BindBack, path) == 0);

/* The deepest of @items (each a Place or a BindBack: their path comes
 * first) that holds @path: they are sorted, parents first. */
static gpointer
find_deepest (GPtrArray  *items,
              const char *path)
{
  gpointer found = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      gpointer item = g_ptr_array_index (items, i);

      if (paddock_path_is_within (path, *(char **) item))
        found = item;
    }
  return found;
}

static Place *
find_place (GPtrArray  *places,
            const char *path)
{
  return find_deepest (places, path);
}

static gboolean
is_place (GPtrArray  *places,
          const char *path)
{
  Place *place = find_place (places, path);

  return place != NULL && strcmp (place->path, path) == 0;
}

static BindBack *
find_bind_back (GPtrArray  *binds,
                const char *path)
{
  return find_deepest (binds, path);
}

/* Whether @path shows after the private places are made: outside them, or
 * in something bound back into them. */
static gboolean
is_visible (GPtrArray  *places,
            GPtrArray  *binds,
            const char *path)
{
  return find_place (places, path) == NULL || find_bind_back (binds, path) != NULL;
}

static void
add_bind_back (GPtrArray  *binds,
               GPtrArray  *places,
               const char *path,
               gboolean    writable,
               gboolean    even_onto_a_place)
{
  struct stat st;
  BindBack *bind;

  if (path == NULL || find_place (places, path) == NULL || stat (path, &st) != 0)
    return;
  /* A place granted whole stays private unless the grant asks to write
   * there: then the user wants the host's one. */
  if (is_place (places, path) && !even_onto_a_place)
    return;
  for (guint i = 0; i < binds->len; i++)
    {
      bind = g_ptr_array_index (binds, i);
      if (strcmp (bind->path, path) == 0)
        {
          bind->writable |= writable;
          return;
        }
    }
  bind = g_new0 (BindBack, 1);
  bind->path = g_strdup (path);
  bind->view_index = -1;
  bind->writable = writable;
  bind->is_dir = S_ISDIR (st.st_mode);
  g_ptr_array_add (binds, bind);
}

static void
add_cover (PaddockNamespaces *ns,
           const char        *denial)
{
  g_autofree char *what = g_strdup_printf ("hide %s", denial);
  struct stat st;
  Step *step;

  if (lstat (denial, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      step = add_step (ns, STEP_TMPFS, NULL, denial, what);
      step->data = g_strdup ("mode=0000,size=4k,nr_inodes=1");
    }
  else
    /* A device node on a nodev mount: every open of it fails. */
    add_step (ns, STEP_BIND, "/dev/null", denial, what);
  add_setattr (ns, denial, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV | ATTR_NOEXEC, 0, FALSE, what);
}

/* The home folder, as a place of its own: a tmpfs private to the agent,
 * holding a mount point for each entry the real one has at the start, each
 * bound back read-only (or with a grant's rights), its symbolic links made
 * again. Under the read-only home folder it replaces, making a file in it
 * failed with EROFS; here Landlock refuses it with EACCES, as for any
 * folder the agent may only read, and Claude Code, which writes
 * ~/.claude.json through a temporary file beside it, falls back to writing
 * it in place only after the second. Its mode is the real one's, less the
 * write bits; changing it changes nothing outside. Landlock lets the agent
 * list it, no more: what it may read of each entry comes from the entry's
 * own rule, which the home folder always has, since the deny list always
 * splits it (see paddock-grants.c). A name made in the real home folder
 * after the start does not show. Returns the place, or NULL where the home
 * folder is not a folder of its own to make one of (HOME=/, HOME=/tmp). */
static Place *
add_split_place (GPtrArray  *places,
                 const char *path)
{
  g_autofree char *options = NULL;
  struct stat st;
  Place *place;

  if (stat (path, &st) != 0 || !S_ISDIR (st.st_mode))
    return NULL;
  options = g_strdup_printf ("mode=0%o,uid=%u,gid=%u,size=1m", (guint) (st.st_mode & 07555),
                             (guint) getuid (), (guint) getgid ());
  place = add_place (places, path, options, PADDOCK_ACCESS_LIST, FALSE);
  if (place != NULL)
    place->is_split = TRUE;
  return place;
}

static Place *
add_home_place (GPtrArray                   *places,
                const PaddockNamespacesSpec *spec)
{
  Place *place;

  if (paddock_grants_find_denial (spec->home, spec->denials) != NULL ||
      paddock_grants_find_denial_beneath (spec->home, spec->denials) == NULL)
    return NULL;
  place = add_split_place (places, spec->home);
  if (place != NULL)
    place->is_home = TRUE;
  return place;
}

/* A name in @home for its copy, or the home view, while the entries are
 * bound from it: one that no entry has. */
static char *
find_home_staging (const char *home,
                   const char *base)
{
  for (guint i = 0;; i++)
    {
      g_autofree char *name = i == 0 ? g_strdup (base) : g_strdup_printf ("%s-%u", base, i);
      char *path = g_build_filename (home, name, NULL);
      struct stat st;

      if (lstat (path, &st) != 0 && errno == ENOENT)
        return path;
      g_free (path);
    }
}

/* Whether something the lock keeps (the project, a grant, the profile's
 * state) lies below @path. */
static gboolean
holds_kept (GPtrArray  *binds,
            const char *path)
{
  for (guint i = 0; i < binds->len; i++)
    {
      BindBack *bind = g_ptr_array_index (binds, i);

      if (!bind->from_home && strcmp (bind->path, path) != 0 && paddock_path_is_within (bind->path, path))
        return TRUE;
    }
  return FALSE;
}

/* The entries of @folder, a split folder of the home folder, as bind-backs
 * from the home folder's copy, but where a grant keeps one with its own
 * rights already, or where one holds another place (an $XDG_RUNTIME_DIR
 * in it), which stays private. With the home folder's kinds, a folder
 * that is split itself, or that holds what the lock keeps, becomes a split
 * place of its own, its entries bound one by one; an asked entry is bound
 * from the home view instead, which asks before it serves. */
static void
add_home_entries (PaddockNamespaces           *ns,
                  GPtrArray                   *binds,
                  GPtrArray                   *places,
                  const PaddockNamespacesSpec *spec,
                  const char                  *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_auto(GStrv) caches = paddock_cache_layers_dup_paths (spec->caches);
  gboolean below_home = strcmp (folder, spec->home) != 0;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      PaddockHomeKind kind = PADDOCK_HOME_OPEN;
      BindBack *bind;
      gboolean holds_place = FALSE;
      gboolean holds_cache = FALSE;
      struct stat st;

      if (lstat (path, &st) != 0 || find_bind_back (binds, path) != NULL)
        continue;
      for (guint i = 0; i < places->len; i++)
        holds_place |= paddock_path_is_within (((Place *) g_ptr_array_index (places, i))->path, path);
      if (holds_place)
        continue;
      if (spec->home_kinds != NULL)
        kind = paddock_home_classify (spec->home_kinds, path);
      /* A tool cache gets its overlay on top (paddock-cache-layers.h):
       * it and the folders holding it are never the view's, which would
       * ask while the lock is being made. */
      for (guint i = 0; caches[i] != NULL && kind == PADDOCK_HOME_ASKED; i++)
        if (paddock_path_is_within (caches[i], path))
          {
            holds_cache = strcmp (caches[i], path) != 0;
            kind = PADDOCK_HOME_OPEN;
          }
      if (spec->home_kinds != NULL && S_ISDIR (st.st_mode) && kind != PADDOCK_HOME_CLOSED &&
          paddock_grants_find_denial (path, spec->denials) == NULL &&
          (paddock_home_is_split (spec->home_kinds, path) || holds_kept (binds, path) || holds_cache))
        {
          Place *place = add_split_place (places, path);

          if (place != NULL)
            {
              add_home_entries (ns, binds, places, spec, place->path);
              continue;
            }
        }
      bind = g_new0 (BindBack, 1);
      bind->path = g_steal_pointer (&path);
      bind->is_dir = S_ISDIR (st.st_mode);
      bind->from_home = TRUE;
      bind->view_index = -1;
      if (S_ISLNK (st.st_mode))
        {
          bind->link = g_file_read_link (bind->path, NULL);
          if (bind->link == NULL)
            {
              bind_back_free (bind);
              continue;
            }
        }
      else if (kind == PADDOCK_HOME_ASKED && (S_ISDIR (st.st_mode) || S_ISREG (st.st_mode)) &&
               paddock_grants_find_denial (bind->path, spec->denials) == NULL)
        {
          bind->view_index = ns->view_entries->len;
          g_ptr_array_add (ns->view_entries, g_strdup (bind->path));
        }
      /* The view's files are its own inodes, which the ruleset made in the
       * parent never saw; so are entries below the home folder whose real
       * folder had no rule of its own. One that holds a denied path keeps
       * the rules the denial split it into. */
      bind->own_rule = bind->link == NULL &&
                       (bind->view_index >= 0 ||
                        (below_home && paddock_grants_find_denial (bind->path, spec->denials) == NULL &&
                         paddock_grants_find_denial_beneath (bind->path, spec->denials) == NULL));
      g_ptr_array_add (binds, bind);
    }
}

/* The private places, and what is bound back into them. Returns the places
 * and the bind-backs, for the steps that follow. */
static void
add_private_places (PaddockNamespaces           *ns,
                    const PaddockNamespacesSpec *spec,
                    GPtrArray                  **places_out,
                    GPtrArray                  **binds_out)
{
  g_autoptr(GPtrArray) places = g_ptr_array_new_with_free_func ((GDestroyNotify) place_free);
  g_autoptr(GPtrArray) binds = g_ptr_array_new_with_free_func ((GDestroyNotify) bind_back_free);
  g_autofree char *runtime_options = g_strdup_printf ("mode=0700,uid=%u,gid=%u",
                                                      (guint) getuid (), (guint) getgid ());
  g_autofree char *resolv_conf = realpath ("/etc/resolv.conf", NULL);
  const char *runtime = g_getenv ("XDG_RUNTIME_DIR");
  g_autofree char *real_runtime = runtime != NULL && g_path_is_absolute (runtime) ? realpath (runtime, NULL) : NULL;
  g_autofree char *home_staging = NULL;
  g_autofree char *view_staging = NULL;
  Step *home_tree = NULL;
  Place *home;

  add_place (places, "/tmp", "mode=1777", PADDOCK_ACCESS_READ_WRITE, FALSE);
  add_place (places, "/var/tmp", "mode=1777", PADDOCK_ACCESS_READ_WRITE, FALSE);
  /* The namespaces backend's /dev has a fresh /dev/shm already. */
  if (spec->kind == PADDOCK_NAMESPACES_PRIVATE_PLACES)
    add_place (places, "/dev/shm", "mode=1777", PADDOCK_ACCESS_READ_WRITE, FALSE);
  add_place (places, "/run", "mode=0755,size=64k", PADDOCK_ACCESS_READ_ONLY, TRUE);
  add_place (places, "/var/run", "mode=0755,size=64k", PADDOCK_ACCESS_READ_ONLY, TRUE);
  /* The runtime dir is left alone where it would take $HOME with it. */
  if (real_runtime != NULL && !paddock_path_is_within (spec->home, real_runtime))
    add_place (places, real_runtime, runtime_options, PADDOCK_ACCESS_READ_WRITE, FALSE);
  home = add_home_place (places, spec);
  g_ptr_array_sort (places, compare_places);

  /* What stays visible. $HOME is kept where it lies in a place; where it is
   * one (HOME=/tmp), the agent gets the private one. */
  for (guint i = 0; spec->kept != NULL && i < spec->kept->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (spec->kept, i);
      gboolean writable = (grant->access & PADDOCK_ACCESS_WRITE) != 0;

      if (paddock_grants_find_denial (grant->path, spec->denials) == NULL)
        add_bind_back (binds, places, grant->path, writable, writable);
    }
  /* Where the home folder is no place of its own, it is kept where it
   * lies in one. */
  if (home == NULL)
    add_bind_back (binds, places, spec->home, FALSE, FALSE);
  /* Name resolution, read-only: the resolvers' own directories, or the
   * file /etc/resolv.conf points to. */
  add_bind_back (binds, places, "/run/systemd/resolve", FALSE, FALSE);
  add_bind_back (binds, places, "/run/resolvconf", FALSE, FALSE);
  if (resolv_conf != NULL && find_bind_back (binds, resolv_conf) == NULL)
    add_bind_back (binds, places, resolv_conf, FALSE, FALSE);
  if (home != NULL)
    add_home_entries (ns, binds, places, spec, home->path);
  g_ptr_array_sort (places, compare_places);
  g_ptr_array_sort (binds, compare_bind_backs);

  /* Copies of what is bound back, taken before anything covers it: the
   * home folder's entries from one copy of it, by name, which keeps the
   * descriptors the child holds at once few. */
  for (guint i = 0; i < binds->len; i++)
    {
      BindBack *bind = g_ptr_array_index (binds, i);
      g_autofree char *what = g_strdup_printf ("keep %s", bind->path);

      if (!bind->from_home)
        bind->tree = add_step (ns, STEP_OPEN_TREE, NULL, bind->path, what);
    }
  if (home != NULL)
    {
      home_staging = find_home_staging (home->path, ".paddock-home");
      home_tree = add_step (ns, STEP_OPEN_TREE, NULL, home->path, "keep the home folder's entries");
      if (ns->view_entries->len > 0)
        view_staging = find_home_staging (home->path, ".paddock-view");
    }

  for (guint i = 0; i < places->len; i++)
    {
      Place *place = g_ptr_array_index (places, i);
      g_autofree char *what = g_strdup_printf ("mount a private %s", place->path);
      Place *outer = NULL;
      Step *step;

      for (guint j = 0; j < i; j++)
        if (paddock_path_is_within (place->path, ((Place *) g_ptr_array_index (places, j))->path))
          outer = g_ptr_array_index (places, j);
      if (outer != NULL)
        {
          add_mkdir_chain (ns, outer->path, place->path, what);
          add_mkdir (ns, place->path, 0755, what);
        }
      step = add_step (ns, STEP_TMPFS, NULL, place->path, what);
      step->data = g_strdup (place->options);
      g_ptr_array_add (ns->fresh, paddock_grant_new (place->path, place->access));

      /* The real home folder's copy, read-only, for its entries to be
       * bound from; gone again once they are. */
      if (place->is_home)
        {
          add_mkdir (ns, home_staging, 0700, "keep the home folder's entries");
          step = add_step (ns, STEP_ATTACH, NULL, home_staging, "keep the home folder's entries");
          step->tree = home_tree;
          add_setattr (ns, home_staging, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, 0, TRUE,
                       "keep the home folder's entries");
          if (view_staging != NULL)
            {
              add_mkdir (ns, view_staging, 0700, "mount the home view");
              add_step (ns, STEP_VIEW, NULL, view_staging, "mount the home view");
            }
        }

      /* /run/shm → /dev/shm, NixOS's /run/current-system, and the like. */
      if (place->is_run)
        {
          g_autoptr(GDir) dir = g_dir_open (place->path, 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *link = g_build_filename (place->path, name, NULL);
              g_autofree char *target = g_file_read_link (link, NULL);

              if (target != NULL)
                add_step (ns, STEP_SYMLINK, target, link, what);
            }
        }
    }

  for (guint i = 0; i < binds->len; i++)
    {
      BindBack *bind = g_ptr_array_index (binds, i);
      g_autofree char *what = g_strdup_printf ("keep %s", bind->path);
      BindBack *outer = NULL;
      Step *step;

      /* Binds inherit the copy's flags: read-only, nosuid, nodev. */
      if (bind->from_home)
        {
          g_autofree char *view_name = g_strdup_printf ("%d", bind->view_index);
          g_autofree char *staged = bind->view_index >= 0 ? g_build_filename (view_staging, view_name, NULL)
                                    : g_build_filename (home_staging, bind->path + strlen (home->path) + 1, NULL);

          if (bind->link != NULL)
            add_step (ns, STEP_SYMLINK, bind->link, bind->path, what);
          else
            {
              if (bind->is_dir)
                add_mkdir (ns, bind->path, 0755, what);
              else
                add_step (ns, STEP_CREATE, NULL, bind->path, what);
              step = add_step (ns, bind->view_index >= 0 ? STEP_VIEW_BIND : STEP_BIND, staged, bind->path, what);
              step->recursive = bind->is_dir;
            }
          if (bind->own_rule)
            g_ptr_array_add (ns->fresh, paddock_grant_new (bind->path, PADDOCK_ACCESS_READ_ONLY));
          continue;
        }
      for (guint j = 0; j < i; j++)
        if (paddock_path_is_within (bind->path, ((BindBack *) g_ptr_array_index (binds, j))->path))
          outer = g_ptr_array_index (binds, j);
      /* Inside another bind-back the mount point is there already. */
      if (outer == NULL && !is_place (places, bind->path))
        {
          add_mkdir_chain (ns, find_place (places, bind->path)->path, bind->path, what);
          if (bind->is_dir)
            add_mkdir (ns, bind->path, 0755, what);
          else
            add_step (ns, STEP_CREATE, NULL, bind->path, what);
        }
      step = add_step (ns, STEP_ATTACH, NULL, bind->path, what);
      step->tree = bind->tree;
      if (bind->writable)
        add_setattr (ns, bind->path, ATTR_NOSUID | ATTR_NODEV, ATTR_RDONLY, FALSE, what);
      else
        add_setattr (ns, bind->path, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, 0, TRUE, what);
    }
  if (home != NULL)
    {
      add_step (ns, STEP_UMOUNT, NULL, home_staging, "put away the home folder's copy");
      add_step (ns, STEP_RMDIR, NULL, home_staging, "put away the home folder's copy");
    }
  if (view_staging != NULL)
    {
      add_step (ns, STEP_UMOUNT, NULL, view_staging, "put away the home view")->view_only = TRUE;
      add_step (ns, STEP_RMDIR, NULL, view_staging, "put away the home view");
    }

  /* The split folders' own mounts stay writable: see add_home_place(). */
  for (guint i = 0; i < places->len; i++)
    {
      Place *place = g_ptr_array_index (places, i);
      if (!(place->access & PADDOCK_ACCESS_WRITE) && !place->is_split)
        {
          g_autofree char *what = g_strdup_printf ("make the private %s read-only", place->path);
          add_setattr (ns, place->path, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, 0, FALSE, what);
        }
    }

  *places_out = g_steal_pointer (&places);
  *binds_out = g_steal_pointer (&binds);
}

/* Binds the writable grants read-write over the read-only tree, parents
 * before children so a child's bind stays on top. What lies in the private
 * places was bound back with its own rights: the grants, made for the
 * host's /tmp, would open too much. */
static void
add_writable_grants (PaddockNamespaces           *ns,
                     const PaddockNamespacesSpec *spec,
                     GPtrArray                   *places)
{
  g_autoptr(GPtrArray) writable = g_ptr_array_new ();

  for (guint i = 0; i < spec->grants->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (spec->grants, i);
      struct stat st;

      if (!(grant->access & PADDOCK_ACCESS_WRITE) ||
          paddock_path_is_within (grant->path, "/dev") ||
          find_place (places, grant->path) != NULL ||
          lstat (grant->path, &st) != 0 || S_ISLNK (st.st_mode))
        continue;
      g_ptr_array_add (writable, grant);
    }
  g_ptr_array_sort (writable, compare_grants_by_path);
  for (guint i = 0; i < writable->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (writable, i);
      g_autofree char *what = g_strdup_printf ("bind %s read-write", grant->path);

      add_step (ns, STEP_BIND, grant->path, grant->path, what);
      add_setattr (ns, grant->path, ATTR_NOSUID | ATTR_NODEV, ATTR_RDONLY, FALSE, what);
    }
}

/* Under Landlock, what its rules do not govern. Metadata calls (chmod,
 * chown, utimes, setxattr) are not: every mount is made read-only but the
 * writable grants. Nor are connect() and stat(): the denied folders are
 * covered, as in the namespaces backend. And /dev/pts, granted whole so
 * the agent can make ptys, holds every other terminal: the agent gets a
 * devpts instance of its own, as in the namespaces backend. Its own
 * terminal it keeps open on 0, 1 and 2, and as /dev/tty; ttyname() says
 * ENODEV for it, as in any container. */
static void
add_landlock_mounts (PaddockNamespaces           *ns,
                     const PaddockNamespacesSpec *spec,
                     GPtrArray                  **places,
                     GPtrArray                  **binds)
{
  struct stat st;
  Step *step;

  add_setattr (ns, "/", ATTR_RDONLY | ATTR_NOSUID, 0, TRUE, "make every mount read-only");
  step = add_step (ns, STEP_DEVPTS, NULL, "/dev/pts", "mount a devpts instance on /dev/pts");
  step->data = g_strdup ("newinstance,ptmxmode=0666,mode=0620");
  g_ptr_array_add (ns->fresh, paddock_grant_new ("/dev/pts", PADDOCK_ACCESS_READ | PADDOCK_ACCESS_WRITE |
                                                             PADDOCK_ACCESS_DEVICE));
  /* Landlock skips a mount point on its way up: the node bound over the
   * host's /dev/ptmx needs a rule of its own. */
  if (lstat ("/dev/ptmx", &st) == 0 && S_ISCHR (st.st_mode))
    {
      add_step (ns, STEP_BIND, "/dev/pts/ptmx", "/dev/ptmx", "make /dev/ptmx the new devpts instance's");
      g_ptr_array_add (ns->fresh, paddock_grant_new ("/dev/ptmx", PADDOCK_ACCESS_READ | PADDOCK_ACCESS_WRITE |
                                                                  PADDOCK_ACCESS_DEVICE));
    }

  add_private_places (ns, spec, places, binds);
  add_writable_grants (ns, spec, *places);
}

/* The namespaces backend: read-only mounts, a minimal /dev, the private
 * places, the writable grants. */
static void
add_lock_mounts (PaddockNamespaces           *ns,
                 const PaddockNamespacesSpec *spec,
                 GPtrArray                  **places,
                 GPtrArray                  **binds)
{
  static const char * const devices[] = { "null", "zero", "full", "random", "urandom", "tty" };
  /* New ptys come from a devpts instance of the namespace's own. */
  static const char * const links[][2] = {
    { "/dev/ptmx", "pts/ptmx" }, { "/dev/fd", "/proc/self/fd" }, { "/dev/stdin", "/proc/self/fd/0" },
    { "/dev/stdout", "/proc/self/fd/1" }, { "/dev/stderr", "/proc/self/fd/2" },
  };
  Step *step;

  add_setattr (ns, "/", ATTR_RDONLY | ATTR_NOSUID, 0, TRUE, "make every mount read-only");

  /* A /dev with only what an agent needs; the pty lives in /dev/pts. */
  step = add_step (ns, STEP_TMPFS, NULL, DEV_STAGING, "mount a tmpfs for /dev");
  step->data = g_strdup ("mode=0755,size=64k");
  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    add_device (ns, devices[i], FALSE);
  add_step (ns, STEP_MKDIR, NULL, DEV_STAGING "/pts", "create /dev/pts")->mode = 0755;
  step = add_step (ns, STEP_DEVPTS, NULL, DEV_STAGING "/pts", "mount a devpts instance on /dev/pts");
  step->data = g_strdup ("newinstance,ptmxmode=0666,mode=0620");
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *staged = g_strconcat (DEV_STAGING, links[i][0] + strlen ("/dev"), NULL);
      add_step (ns, STEP_SYMLINK, links[i][1], staged, "create the links in /dev");
    }
  add_step (ns, STEP_MKDIR, NULL, DEV_STAGING "/shm", "create /dev/shm")->mode = 0755;
  step = add_step (ns, STEP_TMPFS, NULL, DEV_STAGING "/shm", "mount a tmpfs on /dev/shm");
  step->data = g_strdup ("mode=1777");
  add_step (ns, STEP_MOVE, DEV_STAGING, "/dev", "move the new /dev into place");
  add_setattr (ns, "/dev", ATTR_RDONLY | ATTR_NOSUID, 0, FALSE, "make /dev read-only");

  add_private_places (ns, spec, places, binds);

  add_writable_grants (ns, spec, *places);
}

static void
add_call (PaddockNamespaces *ns,
          int              (*call) (gpointer data),
          gpointer           data,
          const char        *description)
{
  Step *step = add_step (ns, STEP_CALL, NULL, NULL, description);

  step->call = call;
  step->call_data = data;
}

/* What is bound over itself with rights of its own, after the grants: a
 * read-only one within the writable project, a folder the agent may write
 * in but not rename away. Only what the agent sees: the rest it cannot
 * write anyway. */
static void
add_pinned (PaddockNamespaces           *ns,
            const PaddockNamespacesSpec *spec,
            GPtrArray                   *places,
            GPtrArray                   *binds)
{
  for (guint i = 0; spec->pinned != NULL && i < spec->pinned->len; i++)
    {
      PaddockGrant *pin = g_ptr_array_index (spec->pinned, i);
      gboolean writable = (pin->access & PADDOCK_ACCESS_WRITE) != 0;
      g_autofree char *what = g_strdup_printf ("bind %s %s", pin->path, writable ? "over itself" : "read-only");

      if (!is_visible (places, binds, pin->path))
        continue;
      add_step (ns, STEP_BIND, pin->path, pin->path, what);
      if (writable)
        add_setattr (ns, pin->path, ATTR_NOSUID | ATTR_NODEV, 0, FALSE, what);
      else
        add_setattr (ns, pin->path, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, 0, FALSE, what);
    }
}

PaddockNamespaces *
paddock_namespaces_new (const PaddockNamespacesSpec *spec,
                        GError                     **error)
{
  g_autoptr(PaddockNamespaces) ns = namespaces_alloc (spec->kind);
  g_autoptr(GPtrArray) places = NULL;
  g_autoptr(GPtrArray) binds = NULL;

  g_return_val_if_fail (spec->project != NULL && spec->home != NULL, NULL);

  add_entry (ns, spec->kind);
  /* While the layers' folder is writable and not yet covered. */
  if (spec->caches != NULL)
    add_call (ns, paddock_cache_layers_make, spec->caches, "make the tool caches' overlays");
  if (spec->kind == PADDOCK_NAMESPACES_LOCK)
    add_lock_mounts (ns, spec, &places, &binds);
  else
    add_landlock_mounts (ns, spec, &places, &binds);
  add_pinned (ns, spec, places, binds);
  if (spec->caches != NULL)
    add_call (ns, paddock_cache_layers_attach, spec->caches, "attach the tool caches' overlays");

  /* /dev/fuse is opened first: the namespaces backend replaces /dev. */
  if (ns->view_entries->len > 0)
    {
      Step *step = g_new0 (Step, 1);

      step->kind = STEP_VIEW_OPEN;
      step->fd = -1;
      step->description = g_strdup ("open /dev/fuse for the home view");
      g_ptr_array_insert (ns->steps, ns->first_mount_step, step);
      ns->view_socket = spec->view_socket >= 0 ? dup (spec->view_socket) : -1;
      ns->view_options = g_strdup_printf (",rootmode=40000,user_id=%u,group_id=%u,default_permissions",
                                          (guint) getuid (), (guint) getgid ());
    }

  /* Denied paths last, so nothing bound since covers them again: empty,
   * so that neither a socket in them (gpg-agent's, an ssh ControlMaster's)
   * nor the names and times of what they hold show, under Landlock too. */
  for (guint i = 0; spec->denials != NULL && spec->denials[i] != NULL; i++)
    {
      const char *denial = spec->denials[i];

      BindBack *bind = find_bind_back (binds, denial);

      /* Within an asked entry, the home view refuses it itself: a cover
       * would look it up through the view. */
      if (bind != NULL && bind->view_index >= 0)
        continue;
      if (is_visible (places, binds, denial))
        add_cover (ns, denial);
    }

  /* The working directory still points into the mount that was there before. */
  add_step (ns, STEP_CHDIR, NULL, spec->project, "enter the project");
  add_step (ns, STEP_PROC, NULL, "/proc", "mount /proc for the PID namespace");
  /* Landlock's rule for /proc names the mount it covers. */
  if (spec->kind == PADDOCK_NAMESPACES_PRIVATE_PLACES)
    g_ptr_array_add (ns->fresh, paddock_grant_new ("/proc", PADDOCK_ACCESS_READ));

  ns->places = g_steal_pointer (&places);
  ns->binds = g_steal_pointer (&binds);
  return g_steal_pointer (&ns);
}

void
paddock_namespaces_free (PaddockNamespaces *ns)
{
  if (ns == NULL)
    return;
  g_ptr_array_unref (ns->steps);
  g_ptr_array_unref (ns->fresh);
  g_clear_pointer (&ns->places, g_ptr_array_unref);
  g_clear_pointer (&ns->binds, g_ptr_array_unref);
  g_ptr_array_unref (ns->view_entries);
  g_free (ns->view_options);
  if (ns->view_socket >= 0)
    close (ns->view_socket);
  g_free (ns);
}

const char * const *
paddock_namespaces_get_view_entries (PaddockNamespaces *ns)
{
  if (ns->view_entries->len == 0 || g_ptr_array_index (ns->view_entries, ns->view_entries->len - 1) != NULL)
    g_ptr_array_add (ns->view_entries, NULL);
  return (const char * const *) ns->view_entries->pdata;
}

void
paddock_namespaces_forget_view_socket (PaddockNamespaces *ns)
{
  paddock_close_fd (&ns->view_socket);
}

/* In the child: the lock has made everything that looks a path up
 * through the view (its binds, Landlock's rules): from now on its reads
 * are the agent's, and asked about. Async-signal-safe. */
void
paddock_namespaces_end_view_setup (PaddockNamespaces *ns)
{
  if (ns == NULL || ns->view_socket < 0)
    return;
  if (write (ns->view_socket, "d", 1) != 1)
    {
      /* Closing it says the same. */
    }
  close (ns->view_socket);
  ns->view_socket = -1;
}

int
paddock_namespaces_get_view_errno (PaddockNamespaces *ns)
{
  return ns->view_errno;
}

/* The fresh mounts (PaddockGrant, path and access): Landlock's ruleset, made
 * before they existed, must grant them in the child. */
GPtrArray *
paddock_namespaces_get_fresh_mounts (PaddockNamespaces *ns)
{
  return ns->fresh;
}

const char *
paddock_namespaces_find_hiding_place (PaddockNamespaces *ns,
                                      const char        *path)
{
  Place *place;

  if (ns->places == NULL)
    return NULL;
  place = find_place (ns->places, path);
  /* The home folder's is no empty one: what it lacks came after the start. */
  if (place == NULL || place->is_home || find_bind_back (ns->binds, path) != NULL)
    return NULL;
  return place->path;
}

/* Whether a failure at @step left the process as it was: no mount changed. */
gboolean
paddock_namespaces_step_is_before_mounts (PaddockNamespaces *ns,
                                          int                step)
{
  return step >= 0 && (guint) step <= ns->first_mount_step;
}

static int
write_file (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  ssize_t len = strlen (text);
  int saved_errno;

  if (fd < 0)
    return errno;
  saved_errno = write (fd, text, len) == len ? 0 : (errno ? errno : EIO);
  close (fd);
  return saved_errno;
}

static int
set_attr (const char *target,
          guint64     set,
          guint64     clear,
          gboolean    recursive)
{
  struct paddock_mount_attr attr = { .attr_set = set, .attr_clr = clear };

  if (syscall (__NR_mount_setattr, AT_FDCWD, target, recursive ? AT_RECURSIVE : 0,
               &attr, sizeof attr) != 0)
    return errno;
  return 0;
}

static int
make_dir (const char *path,
          mode_t      mode)
{
  struct stat st;

  if (mkdir (path, mode) == 0)
    return 0;
  if (stat (path, &st) == 0 && S_ISDIR (st.st_mode))
    return 0;
  return errno;
}

static int
run_step (Step *step)
{
  int fd;

  switch (step->kind)
    {
    case STEP_UNSHARE:
      return unshare (step->flags) == 0 ? 0 : errno;
    case STEP_WRITE:
      return write_file (step->target, step->data);
    case STEP_PRIVATE:
      return mount (NULL, step->target, NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : errno;
    case STEP_SETATTR:
      return set_attr (step->target, step->set, step->clear, step->recursive);
    case STEP_BIND:
    case STEP_VIEW_BIND:
      return mount (step->source, step->target, NULL, MS_BIND | MS_REC, NULL) == 0 ? 0 : errno;
    case STEP_TMPFS:
      return mount ("tmpfs", step->target, "tmpfs", MS_NOSUID | MS_NODEV, step->data) == 0 ? 0 : errno;
    case STEP_MKDIR:
      return make_dir (step->target, step->mode);
    case STEP_CREATE:
      fd = open (step->target, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0)
        return errno;
      close (fd);
      return 0;
    case STEP_SYMLINK:
      return symlink (step->source, step->target) == 0 ? 0 : errno;
    case STEP_DEVPTS:
      return mount ("devpts", step->target, "devpts", MS_NOSUID | MS_NOEXEC, step->data) == 0 ? 0 : errno;
    case STEP_MOVE:
      return mount (step->source, step->target, NULL, MS_MOVE, NULL) == 0 ? 0 : errno;
    case STEP_UMOUNT:
      return umount2 (step->target, MNT_DETACH) == 0 ? 0 : errno;
    case STEP_RMDIR:
      return rmdir (step->target) == 0 ? 0 : errno;
    case STEP_OPEN_TREE:
      step->fd = syscall (__NR_open_tree, AT_FDCWD, step->target,
                          OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE);
      return step->fd >= 0 ? 0 : errno;
    case STEP_ATTACH:
      fd = step->tree->fd;
      step->tree->fd = -1;
      if (syscall (__NR_move_mount, fd, "", AT_FDCWD, step->target, MOVE_MOUNT_F_EMPTY_PATH_) != 0)
        {
          int saved_errno = errno;
          close (fd);
          return saved_errno;
        }
      close (fd);
      return 0;
    case STEP_CHDIR:
      return chdir (step->target) == 0 ? 0 : errno;
    case STEP_PROC:
      return mount ("proc", step->target, "proc",
                    MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) == 0 ? 0 : errno;
    case STEP_CALL:
      return step->call (step->call_data);
    default:
      return EINVAL;
    }
}

/* In the child: mounts the home view at @target on the /dev/fuse opened
 * before, hands that descriptor to the supervisor, and waits for its word
 * that it serves it: an access to a view nobody serves would wait for
 * ever. Returns 0 or an errno; on failure nothing stays mounted. */
static int
mount_view (PaddockNamespaces *ns,
            const char        *target)
{
  char options[256];
  char number[16];
  int n = sizeof number - 1;
  int fd = ns->view_fd;
  char byte;
  int err;

  number[n] = '\0';
  do
    number[--n] = '0' + fd % 10;
  while ((fd /= 10) > 0 && n > 0);
  if (strlen (number + n) + strlen (ns->view_options) + 4 > sizeof options)
    return ENAMETOOLONG;
  strcpy (options, "fd=");
  strcat (options, number + n);
  strcat (options, ns->view_options);

  if (mount ("paddock", target, "fuse.paddock", MS_NOSUID | MS_NODEV | MS_RDONLY, options) != 0)
    return errno;
  err = paddock_send_fd (ns->view_socket, ns->view_fd, "v", 1);
  close (ns->view_fd);
  ns->view_fd = -1;
  if (err == 0)
    {
      ssize_t got;

      do
        got = read (ns->view_socket, &byte, 1);
      while (got < 0 && errno == EINTR);
      err = got == 1 ? 0 : got < 0 ? errno : ECONNREFUSED;
    }
  if (err != 0)
    umount2 (target, MNT_DETACH);
  return err;
}

/* In the child, where there is no home view: the asked entry at
 * @target is closed, as a denied one is. */
static int
cover_asked_entry (Step *step)
{
  struct stat st;

  if (lstat (step->target, &st) != 0)
    return errno;
  if (S_ISDIR (st.st_mode))
    return mount ("tmpfs", step->target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
                  "mode=0000,size=4k,nr_inodes=1") == 0 ? 0 : errno;
  return mount ("/dev/null", step->target, NULL, MS_BIND, NULL) == 0 ? 0 : errno;
}

/* In the child: the home view's own steps, none of which fails the lock:
 * without a view, the asked entries are closed. Returns TRUE where @step
 * was one (and *err what it gave). */
static gboolean
run_view_step (PaddockNamespaces *ns,
               Step              *step,
               int               *err)
{
  *err = 0;
  switch (step->kind)
    {
    case STEP_VIEW_OPEN:
      if (ns->view_socket < 0)
        ns->view_errno = ENOTCONN;
      else if ((ns->view_fd = open ("/dev/fuse", O_RDWR | O_CLOEXEC)) < 0)
        ns->view_errno = errno;
      return TRUE;
    case STEP_VIEW:
      if (ns->view_errno == 0)
        ns->view_errno = mount_view (ns, step->target);
      if (ns->view_fd >= 0)
        close (ns->view_fd);
      ns->view_fd = -1;
      /* Kept open for paddock_namespaces_end_view_setup(). */
      if (ns->view_errno != 0 && ns->view_socket >= 0)
        {
          close (ns->view_socket);
          ns->view_socket = -1;
        }
      return TRUE;
    case STEP_VIEW_BIND:
      if (ns->view_errno == 0)
        return FALSE;
      *err = cover_asked_entry (step);
      return TRUE;
    default:
      if (step->view_only && ns->view_errno != 0)
        return TRUE;
      return FALSE;
    }
}

/* In the child: async-signal-safe. Sets up the namespaces. Returns 0, or an
 * errno with *step set to the step that failed (see
 * paddock_namespaces_step_name()). */
int
paddock_namespaces_enter (PaddockNamespaces *ns,
                          int               *step)
{
  for (guint i = 0; i < ns->steps->len; i++)
    {
      Step *s = g_ptr_array_index (ns->steps, i);
      int err;

      /* The private places: made by clone() already, or no PID
       * namespace to mount a /proc for. */
      if (ns->kind == PADDOCK_NAMESPACES_PRIVATE_PLACES &&
          ((s->kind == STEP_UNSHARE && ns->in_pid_namespace) ||
           (s->kind == STEP_PROC && !ns->in_pid_namespace)))
        continue;
      if (!run_view_step (ns, s, &err))
        err = run_step (s);
      /* Without it the agent sees what it would without a PID namespace:
       * less than the lock could give, said by the caller, not a reason
       * to refuse the lock. */
      if (err != 0 && s->kind == STEP_PROC && ns->kind == PADDOCK_NAMESPACES_PRIVATE_PLACES)
        {
          ns->proc_errno = err;
          continue;
        }
      if (err != 0)
        {
          *step = (int) i;
          return err;
        }
    }
  return 0;
}

const char *
paddock_namespaces_step_name (PaddockNamespaces *ns,
                              int                step)
{
  if (step < 0 || (guint) step >= ns->steps->len)
    return "set up the namespaces";
  return ((Step *) g_ptr_array_index (ns->steps, step))->description;
}

static volatile pid_t init_agent;

/* The signals paddock-run forwards arrive here, sent by a process outside
 * the namespace; ones the terminal sends (Ctrl-C, resize) reach the agent's
 * process group directly and are not relayed twice. */
static void
relay_signal (int        sig,
              siginfo_t *info,
              void      *context)
{
  if (info->si_code != SI_KERNEL && init_agent > 0)
    kill (init_agent, sig);
}

/* Called in PID 1 of the namespace, locked already. Starts the agent's
 * process and returns 0 in it; PID 1 stays behind as the namespace's init
 * and never returns. Returns an errno when the agent cannot be started.
 *
 * PID 1 cannot be stopped from inside its namespace, so the terminal's
 * Ctrl-Z stops the agent alone, which paddock-run, its grandparent, does
 * not see: init writes a byte to @stopped_fd for each stop, and
 * paddock-run does what it would for a child of its own (job control in
 * the shell it runs in). Without @stopped_fd (-1), the agent is let go
 * on rather than left frozen. */
int
paddock_namespaces_become_init (PaddockNamespaces *ns,
                                int                report_fd,
                                int                stopped_fd)
{
  static const int relayed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2, SIGCONT };
  struct sigaction relay = { .sa_sigaction = relay_signal, .sa_flags = SA_SIGINFO | SA_RESTART };
  sigset_t unblock;
  pid_t agent;

  agent = syscall (__NR_clone, (unsigned long) SIGCHLD, NULL, NULL, NULL, 0);
  if (agent < 0)
    return errno;
  if (agent == 0)
    return 0;

  /* Hold nothing open but @stopped_fd, as 3: the report pipe must close
   * when the agent runs. */
  close (report_fd);
  if (stopped_fd >= 0 && dup2 (stopped_fd, 3) == 3)
    stopped_fd = 3;
  else
    stopped_fd = -1;
  syscall (__NR_close_range, stopped_fd >= 0 ? 4 : 3, ~0U, 0);

  init_agent = agent;
  sigemptyset (&unblock);
  sigaddset (&unblock, SIGCHLD);
  for (guint i = 0; i < G_N_ELEMENTS (relayed); i++)
    {
      sigaction (relayed[i], &relay, NULL);
      sigaddset (&unblock, relayed[i]);
    }
  sigprocmask (SIG_UNBLOCK, &unblock, NULL);

  for (;;)
    {
      int status;
      pid_t pid = waitpid (-1, &status, WUNTRACED);

      if (pid < 0)
        {
          if (errno == EINTR)
            continue;
          _exit (1);
        }
      if (pid != agent)
        continue;
      if (WIFSTOPPED (status) && (stopped_fd < 0 || write (stopped_fd, "s", 1) != 1))
        kill (agent, SIGCONT);
      else if (WIFEXITED (status))
        _exit (WEXITSTATUS (status));
      else if (WIFSIGNALED (status))
        _exit (128 + WTERMSIG (status));
    }
}
