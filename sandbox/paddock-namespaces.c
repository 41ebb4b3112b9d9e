/* paddock-namespaces.c: the folder lock through user, mount and PID namespaces
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
 * The plan is made in the parent; the child only makes system calls.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-grants.h"
#include "paddock-namespaces.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
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
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

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
  STEP_WRITE,     /* write text to target */
  STEP_PRIVATE,   /* stop mount propagation below target */
  STEP_SETATTR,   /* set/clear mount flags on target (recursive when flags say) */
  STEP_BIND,      /* bind source over target */
  STEP_TMPFS,     /* mount an empty tmpfs over target, data as options */
  STEP_MKDIR,
  STEP_CREATE,    /* an empty file, as a mount point */
  STEP_SYMLINK,   /* target is the link, source what it points to */
  STEP_MOVE,      /* move the mount at source to target */
  STEP_DEVPTS,
  STEP_CHDIR,
  STEP_PROC,
} StepKind;

typedef struct
{
  StepKind  kind;
  char     *source;
  char     *target;
  char     *data;
  guint64   set;
  guint64   clear;
  gboolean  recursive;
  char     *description;
} Step;

struct _PaddockNamespaces
{
  GPtrArray *steps;
  pid_t      agent;
};

static void
step_free (Step *step)
{
  g_free (step->source);
  g_free (step->target);
  g_free (step->data);
  g_free (step->description);
  g_free (step);
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

/* Probes, by trying in a short-lived child, whether this user can create the
 * user, mount and PID namespaces the lock needs. */
gboolean
paddock_namespaces_probe (int *saved_errno)
{
  pid_t pid = paddock_namespaces_clone ();
  int status;

  if (pid < 0)
    {
      *saved_errno = errno;
      return FALSE;
    }
  if (pid == 0)
    _exit (0);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  *saved_errno = 0;
  return TRUE;
}

/* Like fork(), but the child starts in new user, mount and PID namespaces,
 * as PID 1. Raw clone: the child must only make system calls. */
pid_t
paddock_namespaces_clone (void)
{
  return syscall (__NR_clone, (unsigned long) (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | SIGCHLD),
                  NULL, NULL, NULL, 0);
}

static int
compare_grants_by_path (gconstpointer a,
                        gconstpointer b)
{
  const PaddockGrant *ga = *(PaddockGrant * const *) a;
  const PaddockGrant *gb = *(PaddockGrant * const *) b;

  return strcmp (ga->path, gb->path);
}

PaddockNamespaces *
paddock_namespaces_new (const char         *project,
                        GPtrArray          *grants,
                        const char * const *denials,
                        GError            **error)
{
  g_autoptr(PaddockNamespaces) ns = g_new0 (PaddockNamespaces, 1);
  g_autoptr(GPtrArray) writable = g_ptr_array_new ();
  static const char * const devices[] = { "null", "zero", "full", "random", "urandom", "tty" };
  /* New ptys come from a devpts instance of the namespace's own. */
  static const char * const links[][2] = {
    { "/dev/ptmx", "pts/ptmx" }, { "/dev/fd", "/proc/self/fd" }, { "/dev/stdin", "/proc/self/fd/0" },
    { "/dev/stdout", "/proc/self/fd/1" }, { "/dev/stderr", "/proc/self/fd/2" },
  };
  g_autofree char *uid_map = g_strdup_printf ("%u %u 1\n", (guint) getuid (), (guint) getuid ());
  g_autofree char *gid_map = g_strdup_printf ("%u %u 1\n", (guint) getgid (), (guint) getgid ());
  Step *step;

  ns->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);

  /* The user stays who they are inside: no root for a user who is not. */
  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/setgroups", "write /proc/self/setgroups");
  step->data = g_strdup ("deny");
  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/uid_map", "map the user into the user namespace");
  step->data = g_steal_pointer (&uid_map);
  step = add_step (ns, STEP_WRITE, NULL, "/proc/self/gid_map", "map the group into the user namespace");
  step->data = g_steal_pointer (&gid_map);

  add_step (ns, STEP_PRIVATE, NULL, "/", "make the mounts private");
  add_setattr (ns, "/", ATTR_RDONLY | ATTR_NOSUID, 0, TRUE, "make every mount read-only");

  /* A /dev with only what an agent needs; the pty lives in /dev/pts. */
  step = add_step (ns, STEP_TMPFS, NULL, DEV_STAGING, "mount a tmpfs for /dev");
  step->data = g_strdup ("mode=0755,size=64k");
  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    add_device (ns, devices[i], FALSE);
  add_step (ns, STEP_MKDIR, NULL, DEV_STAGING "/pts", "create /dev/pts");
  step = add_step (ns, STEP_DEVPTS, NULL, DEV_STAGING "/pts", "mount a devpts instance on /dev/pts");
  step->data = g_strdup ("newinstance,ptmxmode=0666,mode=0620");
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *staged = g_strconcat (DEV_STAGING, links[i][0] + strlen ("/dev"), NULL);
      add_step (ns, STEP_SYMLINK, links[i][1], staged, "create the links in /dev");
    }
  add_step (ns, STEP_MKDIR, NULL, DEV_STAGING "/shm", "create /dev/shm");
  step = add_step (ns, STEP_TMPFS, NULL, DEV_STAGING "/shm", "mount a tmpfs on /dev/shm");
  step->data = g_strdup ("mode=1777");
  add_step (ns, STEP_MOVE, DEV_STAGING, "/dev", "move the new /dev into place");
  add_setattr (ns, "/dev", ATTR_RDONLY | ATTR_NOSUID, 0, FALSE, "make /dev read-only");

  /* Writable grants, parents before children so a child's bind stays on top. */
  for (guint i = 0; i < grants->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (grants, i);
      struct stat st;

      if (!(grant->access & PADDOCK_ACCESS_WRITE) ||
          paddock_path_is_within (grant->path, "/dev") ||
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

  /* Denied paths last, so no grant's bind covers them again. */
  for (guint i = 0; denials != NULL && denials[i] != NULL; i++)
    {
      g_autofree char *what = g_strdup_printf ("hide %s", denials[i]);
      struct stat st;

      if (lstat (denials[i], &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        {
          step = add_step (ns, STEP_TMPFS, NULL, denials[i], what);
          step->data = g_strdup ("mode=0000,size=4k,nr_inodes=1");
          add_setattr (ns, denials[i], ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV | ATTR_NOEXEC, 0, FALSE, what);
        }
      else
        {
          /* A device node on a nodev mount: every open of it fails. */
          add_step (ns, STEP_BIND, "/dev/null", denials[i], what);
          add_setattr (ns, denials[i], ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV | ATTR_NOEXEC, 0, FALSE, what);
        }
    }

  /* The working directory still points into the mount that was there before. */
  add_step (ns, STEP_CHDIR, NULL, project, "enter the project");
  add_step (ns, STEP_PROC, NULL, "/proc", "mount /proc for the PID namespace");

  return g_steal_pointer (&ns);
}

void
paddock_namespaces_free (PaddockNamespaces *ns)
{
  if (ns == NULL)
    return;
  g_ptr_array_unref (ns->steps);
  g_free (ns);
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
run_step (Step *step)
{
  int fd;

  switch (step->kind)
    {
    case STEP_WRITE:
      return write_file (step->target, step->data);
    case STEP_PRIVATE:
      return mount (NULL, step->target, NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : errno;
    case STEP_SETATTR:
      return set_attr (step->target, step->set, step->clear, step->recursive);
    case STEP_BIND:
      return mount (step->source, step->target, NULL, MS_BIND | MS_REC, NULL) == 0 ? 0 : errno;
    case STEP_TMPFS:
      return mount ("tmpfs", step->target, "tmpfs", MS_NOSUID | MS_NODEV, step->data) == 0 ? 0 : errno;
    case STEP_MKDIR:
      return mkdir (step->target, 0755) == 0 || errno == EEXIST ? 0 : errno;
    case STEP_CREATE:
      fd = open (step->target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
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
    case STEP_CHDIR:
      return chdir (step->target) == 0 ? 0 : errno;
    case STEP_PROC:
      return mount ("proc", step->target, "proc",
                    MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) == 0 ? 0 : errno;
    default:
      return EINVAL;
    }
}

/* In the child made by paddock_namespaces_clone(): async-signal-safe. Sets
 * up the namespaces. Returns 0, or an errno with *step set to the step that
 * failed (see paddock_namespaces_step_name()). */
int
paddock_namespaces_enter (PaddockNamespaces *ns,
                          int               *step)
{
  for (guint i = 0; i < ns->steps->len; i++)
    {
      int err = run_step (g_ptr_array_index (ns->steps, i));
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
 * and never returns. Returns an errno when the agent cannot be started. */
int
paddock_namespaces_become_init (PaddockNamespaces *ns,
                                int                report_fd)
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

  /* Hold nothing open: the report pipe must close when the agent runs. */
  close (report_fd);
  syscall (__NR_close_range, 3, ~0U, 0);

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
      /* PID 1 cannot stop itself for paddock-run to see, so an agent that
       * is stopped by the terminal is let go on rather than left frozen. */
      if (WIFSTOPPED (status))
        kill (agent, SIGCONT);
      else if (WIFEXITED (status))
        _exit (WEXITSTATUS (status));
      else if (WIFSIGNALED (status))
        _exit (128 + WTERMSIG (status));
    }
}
