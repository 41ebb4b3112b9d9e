/* paddock-lock.c: the folder lock, as one thing to prepare in the parent and enter in the child
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddock_lock_new() does all the work that may allocate, open files or
 * fail on bad input: it resolves the grants and denials, builds the Landlock
 * ruleset or the namespace plan, and compiles the seccomp deny filter. The
 * child of paddock_lock_fork() then calls paddock_lock_enter(), which only
 * makes system calls, before the command's first instruction runs. Nothing
 * here ever falls back to running unlocked.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-grants.h"
#include "paddock-home.h"
#include "paddock-cache-layers.h"
#include "paddock-landlock.h"
#include "paddock-lock-git.h"
#include "paddock-lock-private.h"
#include "paddock-namespaces.h"
#include "paddock-profile.h"
#include "paddock-project-config.h"
#include "paddock-seccomp-deny.h"
#include "paddock-xdg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct _PaddockLock
{
  PaddockLockBackend  backend;
  GPtrArray          *grants;     /* PaddockGrant, expanded */
  GPtrArray          *listable;   /* PaddockGrant: folders on the way to a denied one, listed once it is covered */
  GPtrArray          *denials;    /* char *, canonical, NULL-terminated */
  int                 ruleset_fd; /* Landlock */
  int                 ruleset_closed_fd;  /* Landlock without the asked entries, or -1 */
  PaddockNamespaces  *namespaces; /* the namespaces backend, or Landlock's private places */
  GPtrArray          *pinned;     /* PaddockGrant: the project's git hooks and config (paddock-lock-git.h) */
  PaddockCacheLayers *caches;     /* the tool caches' overlays */
  PaddockSeccompDeny *seccomp;
  PaddockHome        *home;       /* which of the home folder's entries are open, closed or asked */
  int                 view_socket;  /* the supervisor's end of the home view's socket, or -1 */
  char              **features;   /* what it enforces, in the protocol's words */
  struct
  {
    int         number;
    const char *text;
  }                   errno_text[8];  /* for the child's warning */
};

enum
{
  STEP_NO_NEW_PRIVS,
  STEP_CAPABILITIES,
  STEP_LANDLOCK,
  STEP_SECCOMP,
  STEP_INIT,
  STEP_PRIVATE_PLACES,
  STEP_INHERITED_FDS,
  STEP_IPC,
  STEP_NAMESPACES,  /* + the namespace plan's own step */
};

#define SOCKETS_WARNING "paddock-run: warning: named Unix sockets outside the folder lock stay reachable " \
                        "(in /tmp, /run, $XDG_RUNTIME_DIR, and in the folders it denies, as ~/.ssh and " \
                        "~/.gnupg, whose file names show too), metadata outside the project (modes, times, " \
                        "extended attributes) can be changed, and other terminals opened: cannot "

/* System trees: readable and executable, never writable. */
static const char * const system_roots[] = {
  "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
  "/var", "/run", "/nix", "/gnu", "/snap",
};

static const char * const scratch_roots[] = { "/tmp", "/var/tmp", "/dev/shm" };

static const char * const device_roots[] = {
  "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
  "/dev/tty", "/dev/ptmx", "/dev/pts",
};

/* Paddock's own folders (settings, audit logs, control sockets) are made
 * before the lock is, where they are missing: the lock hides a folder that
 * is there, and one made later in a place the agent may write would be the
 * agent's to fill (its own rules, a log of its own). One we cannot make,
 * the agent, with less than our rights, cannot make either. */
static void
make_own_folders (void)
{
  const char *bases[] = { paddock_user_config_dir (), paddock_user_state_dir (), paddock_user_runtime_dir () };

  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    {
      g_autofree char *dir = g_build_filename (bases[i], "paddock", NULL);

      g_mkdir_with_parents (dir, 0700);
    }
}

/* Adds @path (the session's --audit or --policy FILE, or NULL) to the
 * NULL-terminated @denials, unless it is a pipe or a device, nothing the
 * agent could rewrite; a log not made yet is covered too. In @project, it
 * is refused: the agent gets its whole project. */
static gboolean
add_session_file (GPtrArray   *denials,
                  const char  *path,
                  const char  *what,
                  const char  *project,
                  GError     **error)
{
  g_autofree char *real = NULL;
  g_autofree char *real_project = NULL;
  struct stat st;

  if (path == NULL || (stat (path, &st) == 0 && !S_ISREG (st.st_mode)))
    return TRUE;
  real = paddock_lock_canonicalize (path);
  real_project = paddock_lock_canonicalize (project);
  if (paddock_path_is_within (real, real_project))
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "cannot lock %s: %s %s is in it, where the locked agent could rewrite it; "
                   "keep it outside the project", real_project, what, real);
      return FALSE;
    }
  g_ptr_array_insert (denials, denials->len - 1, g_steal_pointer (&real));
  return TRUE;
}

static void
add_root (GPtrArray     *roots,
          const char    *path,
          PaddockAccess  access)
{
  g_autofree char *real = realpath (path, NULL);

  if (real != NULL)
    g_ptr_array_add (roots, paddock_grant_new (real, access));
}

static char **
list_dir (const char *path,
          gpointer    user_data)
{
  g_autoptr(GPtrArray) names = NULL;
  DIR *dir = opendir (path);
  struct dirent *entry;

  if (dir == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((entry = readdir (dir)) != NULL)
    if (strcmp (entry->d_name, ".") != 0 && strcmp (entry->d_name, "..") != 0)
      g_ptr_array_add (names, g_strdup (entry->d_name));
  closedir (dir);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* "PATH", "PATH:ro" or "PATH:rw". */
static gboolean
add_user_grant (GPtrArray          *roots,
                const char         *spec,
                const char * const *denials,
                GError            **error)
{
  g_autofree char *path = g_strdup (spec);
  g_autofree char *real = NULL;
  g_autofree char *home = NULL;
  PaddockAccess access = PADDOCK_ACCESS_READ_ONLY;
  char *colon = strrchr (path, ':');
  const char *denial;

  if (colon != NULL && (strcmp (colon, ":ro") == 0 || strcmp (colon, ":rw") == 0))
    {
      access = strcmp (colon, ":rw") == 0 ? PADDOCK_ACCESS_READ_WRITE : PADDOCK_ACCESS_READ_ONLY;
      *colon = '\0';
    }
  if (*path == '\0')
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "--grant %s: no path given", spec);
      return FALSE;
    }

  real = realpath (path, NULL);
  if (real == NULL)
    {
      int saved_errno = errno;
      const char *last_colon = strrchr (path, ':');

      /* "/etc:rx" names no file: most likely a mistyped access, not a path. */
      if (saved_errno == ENOENT && last_colon != NULL && strchr (last_colon, '/') == NULL)
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "--grant %s: %s (the access after ':' is ro or rw)", path, g_strerror (saved_errno));
      else
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "--grant %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }
  denial = paddock_grants_find_denial (real, denials);
  if (denial != NULL)
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "--grant %s would open %s, which the folder lock denies", path, denial);
      return FALSE;
    }
  /* Read-write, it would be the agent's to change, as its project is. */
  if (access == PADDOCK_ACCESS_READ_WRITE && paddock_lock_holds_forbidden (real, denials, &home, &denial))
    {
      if (home != NULL)
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "--grant %s:rw would let the agent change what every login runs (~/.bashrc, "
                     "~/.profile), as it holds your home folder; grant the folders it needs, or %s:ro",
                     path, path);
      else
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "--grant %s:rw holds %s, which the folder lock keeps from the agent; grant the "
                     "folders it needs, or %s:ro", path, denial, path);
      return FALSE;
    }
  g_ptr_array_add (roots, paddock_grant_new (real, access));
  return TRUE;
}

/* A file the profile keeps in a read-only place ($HOME): made now, where
 * it is missing, since under the lock the agent could not make it there
 * itself. Never through a link, nor over anything: O_EXCL. */
static void
make_profile_file (const char *path,
                   const char *text)
{
  g_autofree char *folder = g_path_get_dirname (path);
  int fd;

  g_mkdir_with_parents (folder, 0700);
  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return;
  if (write (fd, text, strlen (text)) < 0)
    g_warning ("cannot write %s: %s", path, g_strerror (errno));
  close (fd);
}

static void
add_profile_grants (GPtrArray             *roots,
                    const PaddockProfile  *profile,
                    const char * const    *denials)
{
  for (guint i = 0; profile->makes[i] != NULL; i++)
    {
      gboolean is_dir;
      g_autofree char *path = paddock_profile_expand_path (profile->makes[i], &is_dir);
      g_autofree char *real = paddock_lock_canonicalize (path);

      if (paddock_grants_find_denial (real, denials) == NULL)
        make_profile_file (path, profile->make_texts[i]);
    }
  for (guint i = 0; profile->writes[i] != NULL; i++)
    {
      gboolean is_dir;
      g_autofree char *path = paddock_profile_expand_path (profile->writes[i], &is_dir);
      g_autofree char *real = NULL;

      /* A state directory the agent has not made yet is made now, private,
       * since under the lock it could not create it in $HOME itself. */
      if (is_dir && !g_file_test (path, G_FILE_TEST_EXISTS))
        g_mkdir_with_parents (path, 0700);
      real = paddock_lock_canonicalize (path);
      if (paddock_grants_find_denial (real, denials) == NULL)
        add_root (roots, real, PADDOCK_ACCESS_READ_WRITE);
    }
  for (guint i = 0; profile->makes[i] != NULL; i++)
    {
      gboolean is_dir;
      g_autofree char *path = paddock_profile_expand_path (profile->makes[i], &is_dir);
      g_autofree char *real = paddock_lock_canonicalize (path);

      if (paddock_grants_find_denial (real, denials) == NULL)
        add_root (roots, real, PADDOCK_ACCESS_READ_WRITE);
    }
}

/* The folders on the way from a readable root to a denied path: split to
 * keep the denial out, they get no rule of their own (see
 * paddock-grants.c), so they cannot be listed: `ls ~` would be refused.
 * Landlock's right to list one holds beneath it too, the denied folder
 * included, so it is given only in the child, once the denied folders
 * are covered (empty, mode 0) in its mount namespace; where they cannot
 * be, the names in them stay hidden and these folders unlisted. A denied
 * folder made after the start is not covered: its names would show, never
 * its files, which no rule grants. */
static GPtrArray *
find_listable (GPtrArray          *roots,
               const char * const *denials)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *listable = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);

  for (guint i = 0; i < roots->len; i++)
    {
      PaddockGrant *root = g_ptr_array_index (roots, i);

      if (!(root->access & PADDOCK_ACCESS_READ) || paddock_grants_find_denial (root->path, denials) != NULL)
        continue;
      for (guint j = 0; denials[j] != NULL; j++)
        {
          g_autofree char *folder = NULL;

          if (strcmp (root->path, denials[j]) == 0 || !paddock_path_is_within (denials[j], root->path))
            continue;
          folder = g_path_get_dirname (denials[j]);
          for (;;)
            {
              g_autofree char *parent = NULL;

              if (!g_hash_table_contains (seen, folder) && paddock_grants_find_denial (folder, denials) == NULL)
                {
                  PaddockGrant *grant = paddock_grant_new (folder, PADDOCK_ACCESS_LIST);

                  g_ptr_array_add (listable, grant);
                  g_hash_table_add (seen, grant->path);
                }
              if (strcmp (folder, root->path) == 0)
                break;
              parent = g_path_get_dirname (folder);
              g_free (folder);
              folder = g_steal_pointer (&parent);
            }
        }
    }
  return listable;
}

/* The child may only make system calls, so the words for its warning are
 * looked up here. */
static void
prepare_warning (PaddockLock *lock)
{
  static const int errnos[] = { EPERM, EACCES, EINVAL, ENOSPC, EUSERS, ENOSYS, ENOMEM, EOPNOTSUPP };

  G_STATIC_ASSERT (G_N_ELEMENTS (errnos) == G_N_ELEMENTS (lock->errno_text));
  for (guint i = 0; i < G_N_ELEMENTS (errnos); i++)
    {
      lock->errno_text[i].number = errnos[i];
      lock->errno_text[i].text = paddock_lock_namespace_error_text (errnos[i]);
    }
}

PaddockLock *
paddock_lock_new (const PaddockLockOptions *options,
                  GError                  **error)
{
  g_autoptr(PaddockLock) lock = NULL;
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autofree char *home = paddock_lock_canonicalize (g_get_home_dir ());
  const PaddockProfile *profile;
  const char * const *denials;
  const char *denial;
  PaddockNamespacesSpec spec = { 0 };
  guint first_kept;

  g_return_val_if_fail (options != NULL && options->project != NULL, NULL);

  lock = g_new0 (PaddockLock, 1);
  lock->ruleset_fd = -1;
  lock->ruleset_closed_fd = -1;
  lock->view_socket = -1;
  make_own_folders ();
  lock->denials = paddock_lock_build_denials ();
  /* The session's own policy and log, where given: the agent must neither
   * rewrite its rules for the next session nor edit its record. */
  if (!add_session_file (lock->denials, options->audit_file, "the audit log", options->project, error) ||
      !add_session_file (lock->denials, options->policy_file, "the policy", options->project, error) ||
      !paddock_lock_add_project_denials (lock->denials, options->project, error))
    return NULL;
  denials = (const char * const *) lock->denials->pdata;

  if (options->profile != NULL)
    {
      profile = paddock_profile_lookup (options->profile);
      if (profile == NULL)
        {
          g_autofree char *names = paddock_profile_list_names ();
          g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                       "--profile %s: unknown profile (known: %s)", options->profile, names);
          return NULL;
        }
    }
  else
    profile = paddock_profile_guess (options->command != NULL && options->command[0] != NULL
                                     ? options->command[0] : "sh");

  denial = paddock_grants_find_denial (options->project, denials);
  if (denial != NULL)
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "cannot lock %s: it lies in %s, which the folder lock denies",
                   options->project, denial);
      return NULL;
    }

  {
    g_autofree char *real_project = paddock_lock_canonicalize (options->project);

    if (!paddock_lock_check_canonical (real_project, denials, NULL, error))
      return NULL;
  }

  if (!paddock_lock_choose_backend (options->backend, &lock->backend, error))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (system_roots); i++)
    add_root (roots, system_roots[i], PADDOCK_ACCESS_READ_ONLY);
  add_root (roots, "/proc", PADDOCK_ACCESS_READ);
  add_root (roots, "/sys", PADDOCK_ACCESS_READ);
  add_root (roots, home, PADDOCK_ACCESS_READ_ONLY);
  for (guint i = 0; i < G_N_ELEMENTS (scratch_roots); i++)
    add_root (roots, scratch_roots[i], PADDOCK_ACCESS_READ_WRITE);
  for (guint i = 0; i < G_N_ELEMENTS (device_roots); i++)
    add_root (roots, device_roots[i], PADDOCK_ACCESS_READ | PADDOCK_ACCESS_WRITE | PADDOCK_ACCESS_DEVICE);
  /* From here on, what stays visible where it lies in a private place. */
  first_kept = roots->len;
  add_profile_grants (roots, profile, denials);
  for (guint i = 0; options->grants != NULL && options->grants[i] != NULL; i++)
    if (!add_user_grant (roots, options->grants[i], denials, error))
      return NULL;
  g_ptr_array_add (roots, paddock_grant_new (options->project, PADDOCK_ACCESS_READ_WRITE));

  lock->grants = paddock_grants_expand (roots, denials, list_dir, NULL);
  lock->listable = find_listable (roots, denials);

  lock->seccomp = paddock_seccomp_deny_new (error);
  if (lock->seccomp == NULL)
    return NULL;

  {
    PaddockProjectConfig config;

    if (!paddock_project_config_load (options->project, &config, error))
      return NULL;
    lock->pinned = paddock_lock_git_list_pinned (options->project, config.git_config_writable);
    paddock_project_config_clear (&config);
  }

  for (guint i = first_kept; i < roots->len; i++)
    g_ptr_array_add (kept, g_ptr_array_index (roots, i));
  lock->home = paddock_home_new (home, options->project, error);
  if (lock->home == NULL)
    return NULL;
  /* The scratch folders' grants are for the agent's private ones. */
  lock->caches = paddock_cache_layers_new (options->project, kept, denials);
  spec.project = options->project;
  spec.home = home;
  spec.kept = kept;
  spec.grants = lock->grants;
  spec.denials = denials;
  spec.pinned = lock->pinned;
  spec.caches = lock->caches;
  spec.home_kinds = lock->home;
  spec.view_socket = -1;
  spec.kind = lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK ? PADDOCK_NAMESPACES_PRIVATE_PLACES
                                                             : PADDOCK_NAMESPACES_LOCK;
  if (options->home_view)
    {
      int pair[2];

      if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        {
          g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_FAILED,
                       "cannot lock %s: cannot make the home view's socket: %s",
                       options->project, g_strerror (errno));
          return NULL;
        }
      lock->view_socket = pair[0];
      spec.view_socket = pair[1];
    }

  /* A mount hides only a file that is there: a log not made yet is made
   * now, empty, as paddock-run would make it a moment later, so that a
   * read-only grant of its folder does not show it to the agent. */
  if (options->audit_file != NULL)
    {
      int fd = open (options->audit_file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);

      if (fd >= 0)
        close (fd);
    }
  lock->namespaces = paddock_namespaces_new (&spec, error);
  if (spec.view_socket >= 0)
    close (spec.view_socket);
  if (lock->namespaces == NULL)
    return NULL;

  if (lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK)
    {
      const char * const *asked = paddock_namespaces_get_view_entries (lock->namespaces);
      g_autoptr(GPtrArray) ruled = NULL;

      /* Two rulesets. Where the lock's mount namespace is made, the real
       * asked entries lie hidden under the agent's own home folder, and
       * the one to enforce grants them as before: the view's copy, granted
       * in the child, is what the agent reads, and an entry once allowed
       * may be bound whole over it (see paddock-home-view.c). Where it is
       * not made, they would be in plain sight: the other one grants them
       * nothing, and they stay closed. */
      if (asked[0] != NULL)
        {
          g_autoptr(GPtrArray) closed = g_ptr_array_new ();

          for (guint i = 0; denials[i] != NULL; i++)
            g_ptr_array_add (closed, (gpointer) denials[i]);
          for (guint i = 0; asked[i] != NULL; i++)
            g_ptr_array_add (closed, (gpointer) asked[i]);
          g_ptr_array_add (closed, NULL);
          ruled = paddock_grants_expand (roots, (const char * const *) closed->pdata, list_dir, NULL);
          lock->ruleset_closed_fd = paddock_landlock_ruleset_new (ruled, error);
          if (lock->ruleset_closed_fd < 0)
            return NULL;
        }
      lock->ruleset_fd = paddock_landlock_ruleset_new (lock->grants, error);
      if (lock->ruleset_fd < 0)
        return NULL;
      prepare_warning (lock);
    }
  else
    {
      /* Landlock's scoping, where the kernel has it, keeps abstract Unix
       * sockets (X11's, for one) out of reach here too. */
      lock->ruleset_fd = paddock_landlock_scope_ruleset_new ();
    }

  return g_steal_pointer (&lock);
}

void
paddock_lock_free (PaddockLock *lock)
{
  if (lock == NULL)
    return;
  paddock_close_fd (&lock->ruleset_fd);
  paddock_close_fd (&lock->ruleset_closed_fd);
  g_clear_pointer (&lock->namespaces, paddock_namespaces_free);
  g_clear_pointer (&lock->pinned, g_ptr_array_unref);
  g_clear_pointer (&lock->caches, paddock_cache_layers_free);
  g_clear_pointer (&lock->seccomp, paddock_seccomp_deny_free);
  g_clear_pointer (&lock->home, paddock_home_free);
  paddock_close_fd (&lock->view_socket);
  g_clear_pointer (&lock->grants, g_ptr_array_unref);
  g_clear_pointer (&lock->listable, g_ptr_array_unref);
  g_clear_pointer (&lock->denials, g_ptr_array_unref);
  g_clear_pointer (&lock->features, g_strfreev);
  g_free (lock);
}

PaddockLockBackend
paddock_lock_get_backend (PaddockLock *lock)
{
  return lock->backend;
}

GPtrArray *
paddock_lock_get_grants (PaddockLock *lock)
{
  return lock->grants;
}

const char * const *
paddock_lock_get_denials (PaddockLock *lock)
{
  return (const char * const *) lock->denials->pdata;
}

char *
paddock_lock_describe_hidden (PaddockLock *lock,
                              const char  *path)
{
  g_autofree char *real = paddock_lock_canonicalize (path);
  g_autofree char *grant = NULL;
  g_autofree char *shown_path = NULL;
  g_autofree char *shown_grant = NULL;
  const char *place;
  const char *slash;

  if (lock == NULL || lock->namespaces == NULL || real == NULL)
    return NULL;
  place = paddock_namespaces_find_hiding_place (lock->namespaces, real);
  /* The place itself the agent has, empty: naming it is nothing amiss. */
  if (place == NULL || strcmp (place, real) == 0)
    return NULL;
  /* The folder right in the place: an agent installed there needs its
   * whole tree (node_modules, a virtualenv), not its one file. */
  slash = strchr (real + strlen (place) + 1, '/');
  grant = slash != NULL ? g_strndup (real, slash - real) : g_strdup (real);
  shown_path = paddock_escape_for_display (path, -1);
  shown_grant = paddock_escape_for_display (grant, -1);
  return g_strdup_printf ("%s lies in %s, which is private under the folder lock (the agent gets an empty one "
                          "of its own); --grant %s keeps it visible (--grant %s:rw to let the agent write there too)",
                          shown_path, place, shown_grant, shown_grant);
}

/* The exit status paddock-run gives for an error from paddock_lock_new(). */
int
paddock_lock_exit_code (const GError *error)
{
  return g_error_matches (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID) ? 2 : 1;
}

/* fork(), or a child in the lock's new namespaces: see
 * paddock_namespaces_fork(). */
pid_t
paddock_lock_fork (PaddockLock *lock)
{
  pid_t pid;

  if (lock == NULL || lock->namespaces == NULL)
    return fork ();
  pid = paddock_namespaces_fork (lock->namespaces);
  /* The home view is the first child's: the supervisor learns it ended
   * without one when that child's end closes. */
  if (pid > 0)
    paddock_namespaces_forget_view_socket (lock->namespaces);
  return pid;
}

PaddockHome *
paddock_lock_get_home (PaddockLock *lock)
{
  return lock->home;
}

const char * const *
paddock_lock_get_view_entries (PaddockLock *lock)
{
  return paddock_namespaces_get_view_entries (lock->namespaces);
}

int
paddock_lock_steal_view_socket (PaddockLock *lock)
{
  return paddock_steal_fd (&lock->view_socket);
}

char **
paddock_lock_list_view_bindable (PaddockLock *lock)
{
  const char * const *asked = paddock_namespaces_get_view_entries (lock->namespaces);
  GPtrArray *bindable = g_ptr_array_new ();

  /* Landlock's walk up from a file skips the mount point a mount covers:
   * an entry bound whole is readable only where its real folder has a
   * rule of its own, where it is a split folder's entry. */
  for (guint i = 0; asked[i] != NULL; i++)
    {
      gboolean ruled = lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES;

      for (guint j = 0; j < lock->grants->len && !ruled; j++)
        {
          PaddockGrant *grant = g_ptr_array_index (lock->grants, j);

          ruled = strcmp (grant->path, asked[i]) == 0 && (grant->access & PADDOCK_ACCESS_READ);
        }
      if (ruled)
        g_ptr_array_add (bindable, g_strdup (asked[i]));
    }
  g_ptr_array_add (bindable, NULL);
  return (char **) g_ptr_array_free (bindable, FALSE);
}

const char * const *
paddock_lock_get_denials_for_view (PaddockLock *lock)
{
  return (const char * const *) lock->denials->pdata;
}

/* The agent needs no capability: run as root it would otherwise keep
 * CAP_DAC_OVERRIDE (files of every user), CAP_CHOWN, CAP_FSETID and
 * CAP_SETFCAP (setuid and file-capability programs left for later),
 * CAP_NET_RAW (sniffing) and the rest. Every set is emptied: effective,
 * permitted and inheritable here, bounding and ambient for what it execs.
 * Where the bounding set may not be shrunk (EPERM: a user who is not
 * root, outside a user namespace), no_new_privs still keeps any exec from
 * gaining what the permitted set lost. */
static int
drop_capabilities (void)
{
  struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
  struct __user_cap_data_struct data[2] = { { 0 } };

  for (int cap = 0; cap < 64; cap++)
    if (prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM)
      return errno;
  prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  if (syscall (__NR_capset, &header, data) != 0)
    return errno;
  return 0;
}

static void
write_text (const char *text)
{
  if (write (STDERR_FILENO, text, strlen (text)) < 0)
    return;
}

/* In the child: one line, "@warning: reason", for what the lock goes on
 * without. Async-signal-safe: the reasons were looked up beforehand. */
static void
warn_going_on_without (PaddockLock *lock,
                       const char  *warning,
                       int          err)
{
  const char *text = NULL;
  char number[16];
  int n = sizeof number - 1;

  for (guint i = 0; i < G_N_ELEMENTS (lock->errno_text); i++)
    if (lock->errno_text[i].number == err)
      text = lock->errno_text[i].text;
  number[n] = '\0';
  do
    number[--n] = '0' + err % 10;
  while ((err /= 10) > 0 && n > 0);

  write_text (warning);
  write_text (text != NULL ? text : "error ");
  write_text (text != NULL ? "" : number + n);
  write_text ("\n");
}

/* In the child: says, in one line, that the private places could not be
 * made. Async-signal-safe. */
static void
warn_sockets_reachable (PaddockLock *lock,
                        int          ns_step,
                        int          err)
{
  write_text (SOCKETS_WARNING);
  write_text (paddock_namespaces_step_name (lock->namespaces, ns_step));
  warn_going_on_without (lock, ": ", err);
}

#define PROCESSES_WARNING "paddock-run: warning: the command lines of processes outside the folder lock " \
                          "stay readable in /proc: cannot mount /proc for the PID namespace: "

/* Under Landlock: the agent's own /tmp, /run, runtime dir and /dev/pts,
 * read-only mounts outside the grants, the denied folders covered. Where
 * no mount namespace can be made, the lock goes on without them, and says
 * so. */
static int
enter_private_places (PaddockLock *lock,
                      int         *step)
{
  GPtrArray *fresh;
  int ns_step = 0;
  int err;

  if ((err = paddock_namespaces_enter (lock->namespaces, &ns_step)) != 0)
    {
      if (!paddock_namespaces_step_is_before_mounts (lock->namespaces, ns_step))
        {
          *step = STEP_NAMESPACES + ns_step;
          return err;
        }
      warn_sockets_reachable (lock, ns_step, err);
      /* The home folder is the host's: its asked entries stay closed. */
      if (lock->ruleset_closed_fd >= 0)
        {
          close (lock->ruleset_fd);
          lock->ruleset_fd = lock->ruleset_closed_fd;
          lock->ruleset_closed_fd = -1;
        }
      return 0;
    }
  if (lock->ruleset_closed_fd >= 0)
    {
      close (lock->ruleset_closed_fd);
      lock->ruleset_closed_fd = -1;
    }

  if ((err = paddock_namespaces_get_proc_errno (lock->namespaces)) != 0)
    warn_going_on_without (lock, PROCESSES_WARNING, err);
  /* The denied folders are covered now: the folders on the way to them
   * may be listed. */
  for (guint i = 0; i < lock->listable->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (lock->listable, i);

      if ((err = paddock_landlock_add_path (lock->ruleset_fd, grant->path, grant->access)) != 0)
        {
          *step = STEP_PRIVATE_PLACES;
          return err;
        }
    }

  /* The ruleset was made before these mounts existed. */
  fresh = paddock_namespaces_get_fresh_mounts (lock->namespaces);
  for (guint i = 0; i < fresh->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (fresh, i);

      if ((err = paddock_landlock_add_path (lock->ruleset_fd, grant->path, grant->access)) != 0)
        {
          *step = STEP_PRIVATE_PLACES;
          return err;
        }
    }
  if ((err = paddock_cache_layers_grant (lock->caches, lock->ruleset_fd)) != 0)
    {
      *step = STEP_PRIVATE_PLACES;
      return err;
    }
  return 0;
}

#define IPC_WARNING "paddock-run: warning: System V IPC and POSIX message queues outside the folder lock " \
                    "stay reachable: cannot create an IPC namespace: "

/* System V shared memory, semaphores and message queues, and POSIX message
 * queues, are named by keys and names outside any file system Landlock or a
 * mount governs: the agent gets an IPC namespace of its own. Root may make
 * one where it is; a user only inside the user namespace of the private
 * places (or of the namespaces backend). Where Landlock's private places
 * could not be made, neither can this: the lock goes on, and says so. */
static int
enter_own_ipc (PaddockLock *lock)
{
  int err;

  if (unshare (CLONE_NEWIPC) == 0)
    return 0;
  err = errno;
  if (lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
    return err;
  warn_going_on_without (lock, IPC_WARNING, err);
  return 0;
}

#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* What paddock-run was started with beyond 0-2 (a file the launching shell
 * left open, a make jobserver's pipe) is the launcher's, not the agent's:
 * written through, it reaches past every grant. paddock-run's own
 * descriptors are close-on-exec already; marking the rest so too keeps
 * what the child still needs until its exec (the report pipe, the exec
 * monitor's socket). Without the lock paddock-run passes them on, as env
 * or nohup would. */
static int
close_inherited_fds (void)
{
  struct rlimit limit;

  if (syscall (__NR_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
    return 0;
  if (errno != ENOSYS && errno != EINVAL)
    return errno;
  /* Before Linux 5.11: one descriptor at a time, up to the limit. */
  if (getrlimit (RLIMIT_NOFILE, &limit) != 0)
    return errno;
  for (rlim_t fd = 3; fd < limit.rlim_cur && fd < (1 << 20); fd++)
    {
      int flags = fcntl ((int) fd, F_GETFD);

      if (flags >= 0 && !(flags & FD_CLOEXEC) && fcntl ((int) fd, F_SETFD, flags | FD_CLOEXEC) != 0)
        return errno;
    }
  return 0;
}

/* In the child, right after it entered the project: enters the lock. Only
 * system calls from here. Returns 0 in the process that goes on to run the
 * command, or an errno with *step set for paddock_lock_step_name(). In a
 * PID namespace, the child stays behind as its init, and writes a byte to
 * @stopped_fd (or -1) each time the command is stopped. */
int
paddock_lock_enter (PaddockLock *lock,
                    int          report_fd,
                    int          stopped_fd,
                    int         *step)
{
  int err;

  if ((err = close_inherited_fds ()) != 0)
    {
      *step = STEP_INHERITED_FDS;
      return err;
    }

  if (lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
    {
      int ns_step = 0;

      if ((err = paddock_namespaces_enter (lock->namespaces, &ns_step)) != 0)
        {
          *step = STEP_NAMESPACES + ns_step;
          return err;
        }
    }
  else if ((err = enter_private_places (lock, step)) != 0)
    return err;
  paddock_namespaces_end_view_setup (lock->namespaces);

  if ((err = enter_own_ipc (lock)) != 0)
    {
      *step = STEP_IPC;
      return err;
    }

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      *step = STEP_NO_NEW_PRIVS;
      return errno;
    }

  if ((err = drop_capabilities ()) != 0)
    {
      *step = STEP_CAPABILITIES;
      return err;
    }

  if (lock->ruleset_fd >= 0)
    {
      if ((err = paddock_landlock_restrict_self (lock->ruleset_fd)) != 0)
        {
          *step = STEP_LANDLOCK;
          return err;
        }
      close (lock->ruleset_fd);
    }

  if ((err = paddock_seccomp_deny_install (lock->seccomp)) != 0)
    {
      *step = STEP_SECCOMP;
      return err;
    }

  if (paddock_namespaces_in_pid_namespace (lock->namespaces) &&
      (err = paddock_namespaces_become_init (lock->namespaces, report_fd, stopped_fd)) != 0)
    {
      *step = STEP_INIT;
      return err;
    }

  return 0;
}

const char *
paddock_lock_step_name (PaddockLock *lock,
                        int          step)
{
  static char name[256];

  switch (step)
    {
    case STEP_NO_NEW_PRIVS: return "cannot enter the folder lock: no_new_privs";
    case STEP_CAPABILITIES: return "cannot enter the folder lock: dropping capabilities";
    case STEP_LANDLOCK: return "cannot enter the folder lock: Landlock";
    case STEP_SECCOMP: return "cannot enter the folder lock: seccomp filter";
    case STEP_INIT: return "cannot enter the folder lock: starting the command in its PID namespace";
    case STEP_IPC: return "cannot enter the folder lock: an IPC namespace";
    case STEP_INHERITED_FDS: return "cannot enter the folder lock: closing inherited descriptors";
    case STEP_PRIVATE_PLACES: return "cannot enter the folder lock: Landlock: granting the private /tmp, /run and /dev/pts";
    default:
      if (lock != NULL && lock->namespaces != NULL && step >= STEP_NAMESPACES)
        {
          g_snprintf (name, sizeof name, "cannot enter the folder lock: %s",
                      paddock_namespaces_step_name (lock->namespaces, step - STEP_NAMESPACES));
          return name;
        }
      return "cannot enter the folder lock";
    }
}

/* What the session tells its clients the lock enforces, found out on
 * first use: a probe of the namespaces in a short-lived child, which a
 * session without clients (--no-monitor) never needs, and a session with
 * them asks for only once its agent runs. */
const char * const *
paddock_lock_get_features (PaddockLock *lock)
{
  if (lock->features == NULL)
    lock->features = paddock_lock_features_for (lock->backend);
  return (const char * const *) lock->features;
}

const char *
paddock_lock_get_mechanism (PaddockLock *lock)
{
  return lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK ? "landlock" : "namespaces";
}
