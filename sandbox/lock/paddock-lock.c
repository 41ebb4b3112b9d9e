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
#include "paddock-grants.h"
#include "paddock-landlock.h"
#include "paddock-lock.h"
#include "paddock-namespaces.h"
#include "paddock-profile.h"
#include "paddock-seccomp-deny.h"
#include "paddock-xdg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

G_DEFINE_QUARK (paddock-lock-error-quark, paddock_lock_error)

struct _PaddockLock
{
  PaddockLockBackend  backend;
  GPtrArray          *grants;     /* PaddockGrant, expanded */
  GPtrArray          *denials;    /* char *, canonical, NULL-terminated */
  int                 ruleset_fd; /* Landlock */
  PaddockNamespaces  *namespaces; /* the namespaces backend, or Landlock's private places */
  PaddockSeccompDeny *seccomp;
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
  STEP_NAMESPACES,  /* + the namespace plan's own step */
};

#define SOCKETS_WARNING "paddock-run: warning: named Unix sockets outside the folder lock stay reachable " \
                        "(in /tmp, /run, $XDG_RUNTIME_DIR): cannot "

/* Credential stores and Paddock's own settings: never readable under the lock. */
static const char * const home_denials[] = {
  ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gh", ".netrc",
  ".git-credentials", ".password-store", ".local/share/keyrings", ".mozilla",
  ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".thunderbird",
  ".config/gcloud", ".config/hub", ".config/op", ".pki", ".npmrc", ".pypirc",
  ".cargo/credentials", ".cargo/credentials.toml", ".vault-token", ".local/share/kwalletd",
};

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

/* Capabilities that reach past the lock; root loses them under it. */
static const int dangerous_caps[] = {
  CAP_SYS_MODULE, CAP_SYS_RAWIO, CAP_SYS_BOOT, CAP_MKNOD, CAP_SYS_ADMIN, CAP_SYS_TIME,
  CAP_MAC_ADMIN, CAP_MAC_OVERRIDE, CAP_SYSLOG, CAP_NET_ADMIN, CAP_LINUX_IMMUTABLE,
  CAP_AUDIT_CONTROL, CAP_SYS_PACCT, 38 /* CAP_PERFMON */, 39 /* CAP_BPF */,
};

/* realpath() for paths that may not exist yet: the longest existing prefix is
 * resolved, the rest appended. */
static char *
canonicalize (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *real_dir = NULL;
  char *real = realpath (path, NULL);

  if (real != NULL)
    return real;
  if (strcmp (path, "/") == 0 || !g_path_is_absolute (path))
    return g_strdup (path);
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  real_dir = canonicalize (dir);
  return g_build_filename (real_dir, base, NULL);
}

static void
add_denial (GPtrArray  *denials,
            const char *path)
{
  g_autofree char *real = canonicalize (path);

  for (guint i = 0; i < denials->len; i++)
    if (g_strcmp0 (g_ptr_array_index (denials, i), real) == 0)
      return;
  g_ptr_array_add (denials, g_steal_pointer (&real));
}

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
  real = canonicalize (path);
  real_project = canonicalize (project);
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

static GPtrArray *
build_denials (void)
{
  GPtrArray *denials = g_ptr_array_new_with_free_func (g_free);
  const char *home = g_get_home_dir ();
  const char *gnupg_home = g_getenv ("GNUPGHOME");
  g_autofree char *config = g_build_filename (paddock_user_config_dir (), "paddock", NULL);
  g_autofree char *state = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  g_autofree char *runtime = g_build_filename (paddock_user_runtime_dir (), "paddock", NULL);
  g_autofree char *gh = g_build_filename (paddock_user_config_dir (), "gh", NULL);
  g_autofree char *chrome = g_build_filename (paddock_user_config_dir (), "google-chrome", NULL);
  g_autofree char *chromium = g_build_filename (paddock_user_config_dir (), "chromium", NULL);
  g_autofree char *keyrings = g_build_filename (paddock_user_data_dir (), "keyrings", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (home_denials); i++)
    {
      g_autofree char *path = g_build_filename (home, home_denials[i], NULL);
      add_denial (denials, path);
    }
  add_denial (denials, config);
  add_denial (denials, state);
  add_denial (denials, runtime);
  add_denial (denials, gh);
  add_denial (denials, chrome);
  add_denial (denials, chromium);
  add_denial (denials, keyrings);
  if (gnupg_home != NULL && g_path_is_absolute (gnupg_home))
    add_denial (denials, gnupg_home);
  g_ptr_array_add (denials, NULL);
  return denials;
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

/* The canonical home folder where @real (canonical) is it or holds it,
 * else NULL. Locked to such a folder, or granted it read-write, the agent
 * could still write what every login runs (~/.bashrc, ~/.profile,
 * ~/.config/autostart): a lock in name only. */
static char *
holds_home (const char *real)
{
  char *home = canonicalize (g_get_home_dir ());

  if (paddock_path_is_within (home, real))
    return home;
  g_free (home);
  return NULL;
}

/* What a folder the agent may write, @real (canonical), would hand it
 * that it must not have: the home folder it holds (*@home, which the
 * caller frees), else a denied folder beneath it (*@denial). FALSE where
 * it holds neither. */
static gboolean
holds_forbidden (const char          *real,
                 const char * const  *denials,
                 char               **home,
                 const char         **denial)
{
  *home = holds_home (real);
  *denial = *home == NULL ? paddock_grants_find_denial_beneath (real, denials) : NULL;
  return *home != NULL || *denial != NULL;
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
  if (access == PADDOCK_ACCESS_READ_WRITE && holds_forbidden (real, denials, &home, &denial))
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

static gboolean
add_profile_grants (GPtrArray             *roots,
                    const PaddockProfile  *profile,
                    const char * const    *denials)
{
  for (guint i = 0; profile->state_paths[i] != NULL; i++)
    {
      gboolean is_dir;
      g_autofree char *path = paddock_profile_expand_path (profile->state_paths[i], &is_dir);
      g_autofree char *real = NULL;

      /* A state directory the agent has not made yet is made now, private,
       * since under the lock it could not create it in $HOME itself. */
      if (is_dir && !g_file_test (path, G_FILE_TEST_EXISTS))
        g_mkdir_with_parents (path, 0700);
      real = canonicalize (path);
      if (paddock_grants_find_denial (real, denials) == NULL)
        add_root (roots, real, PADDOCK_ACCESS_READ_WRITE);
    }
  return TRUE;
}

static gboolean
choose_backend (const char          *name,
                PaddockLockBackend  *backend,
                GError             **error)
{
  PaddockLandlockFeatures landlock;
  int ns_errno;

  if (name != NULL && strcmp (name, "landlock") != 0 && strcmp (name, "namespaces") != 0)
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "--lock-backend %s: unknown backend (use landlock or namespaces)", name);
      return FALSE;
    }

  paddock_landlock_probe (&landlock);
  if (g_strcmp0 (name, "namespaces") != 0)
    {
      if (landlock.abi >= 1)
        {
          *backend = PADDOCK_LOCK_BACKEND_LANDLOCK;
          return TRUE;
        }
      if (name != NULL)
        {
          g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_UNAVAILABLE,
                       "cannot lock the folder: Landlock is unavailable in this kernel (%s)",
                       landlock.unavailable_errno == EOPNOTSUPP ? "disabled at boot"
                                                                : g_strerror (landlock.unavailable_errno));
          return FALSE;
        }
    }

  if (!paddock_namespaces_probe (PADDOCK_NAMESPACES_LOCK, &ns_errno, NULL))
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_UNAVAILABLE,
                   "cannot lock the folder: %suser namespaces are unavailable to this user (%s)%s",
                   name == NULL ? "Landlock is unavailable in this kernel and " : "",
                   g_strerror (ns_errno),
                   ns_errno == EPERM || ns_errno == ENOSPC
                     ? "; check the sysctls user.max_user_namespaces, kernel.unprivileged_userns_clone "
                       "and kernel.apparmor_restrict_unprivileged_userns"
                     : "");
      return FALSE;
    }
  *backend = PADDOCK_LOCK_BACKEND_NAMESPACES;
  return TRUE;
}

/* Why no private mount namespace could be made, in words a user can act on. */
static const char *
namespace_error_text (int err)
{
  switch (err)
    {
    case ENOSPC:
      return "user namespaces are disabled or at their limit (sysctl user.max_user_namespaces)";
    case EPERM:
    case EACCES:
      return "not permitted (see the sysctls kernel.unprivileged_userns_clone and "
             "kernel.apparmor_restrict_unprivileged_userns)";
    default:
      return g_strerror (err);
    }
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
      lock->errno_text[i].text = namespace_error_text (errnos[i]);
    }
}

/* paddock_lock_check_project() on @real (canonical), with the lock's
 * @denials. The lock gives the agent its whole project: it cannot also
 * keep a credential store or Paddock's own settings in it from the agent. */
static gboolean
check_project (const char          *real,
               const char * const  *denials,
               char               **held_denial,
               GError             **error)
{
  g_autofree char *home = NULL;
  const char *denial;

  if (strcmp (real, "/") == 0)
    {
      g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                   "cannot lock /: the lock would let the agent write the whole file system; "
                   "run it in the project's own folder");
      return FALSE;
    }
  if (holds_forbidden (real, denials, &home, &denial))
    {
      if (home != NULL)
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "cannot lock %s: it holds your home folder %s, so the lock would let the agent "
                     "change what every login runs (~/.bashrc, ~/.profile); run it in the project's own folder",
                     real, home);
      else
        g_set_error (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID,
                     "cannot lock %s: it holds %s, which the folder lock keeps from the agent, and a "
                     "locked agent gets its whole project; run it in a folder inside", real, denial);
      if (held_denial != NULL)
        *held_denial = g_strdup (denial);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_lock_check_project (const char  *project,
                            char       **held_denial,
                            GError     **error)
{
  g_autofree char *real = canonicalize (project);
  g_autoptr(GPtrArray) denials = build_denials ();

  return check_project (real, (const char * const *) denials->pdata, held_denial, error);
}

PaddockLock *
paddock_lock_new (const PaddockLockOptions *options,
                  GError                  **error)
{
  g_autoptr(PaddockLock) lock = NULL;
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autofree char *home = canonicalize (g_get_home_dir ());
  const PaddockProfile *profile;
  const char * const *denials;
  const char *denial;
  PaddockNamespacesSpec spec = { 0 };
  guint first_kept;

  g_return_val_if_fail (options != NULL && options->project != NULL, NULL);

  lock = g_new0 (PaddockLock, 1);
  lock->ruleset_fd = -1;
  make_own_folders ();
  lock->denials = build_denials ();
  /* The session's own policy and log, where given: the agent must neither
   * rewrite its rules for the next session nor edit its record. */
  if (!add_session_file (lock->denials, options->audit_file, "the audit log", options->project, error) ||
      !add_session_file (lock->denials, options->policy_file, "the policy", options->project, error))
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
    g_autofree char *real_project = canonicalize (options->project);

    if (!check_project (real_project, denials, NULL, error))
      return NULL;
  }

  if (!choose_backend (options->backend, &lock->backend, error))
    return NULL;
  /* What the session tells its clients the lock enforces. */
  lock->features = paddock_lock_list_features (lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK
                                               ? "landlock" : "namespaces", NULL, error);
  if (lock->features == NULL)
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

  lock->seccomp = paddock_seccomp_deny_new (error);
  if (lock->seccomp == NULL)
    return NULL;

  for (guint i = first_kept; i < roots->len; i++)
    g_ptr_array_add (kept, g_ptr_array_index (roots, i));
  spec.project = options->project;
  spec.home = home;
  spec.kept = kept;
  spec.grants = lock->grants;
  spec.denials = denials;

  if (lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK)
    {
      lock->ruleset_fd = paddock_landlock_ruleset_new (lock->grants, error);
      if (lock->ruleset_fd < 0)
        return NULL;
      spec.kind = PADDOCK_NAMESPACES_PRIVATE_PLACES;
      prepare_warning (lock);
    }
  else
    {
      /* Landlock's scoping, where the kernel has it, keeps abstract Unix
       * sockets (X11's, for one) out of reach here too. */
      lock->ruleset_fd = paddock_landlock_scope_ruleset_new ();
      spec.kind = PADDOCK_NAMESPACES_LOCK;
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
  if (lock->namespaces == NULL)
    return NULL;

  return g_steal_pointer (&lock);
}

void
paddock_lock_free (PaddockLock *lock)
{
  if (lock == NULL)
    return;
  paddock_close_fd (&lock->ruleset_fd);
  g_clear_pointer (&lock->namespaces, paddock_namespaces_free);
  g_clear_pointer (&lock->seccomp, paddock_seccomp_deny_free);
  g_clear_pointer (&lock->grants, g_ptr_array_unref);
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

/* The exit status paddock-run gives for an error from paddock_lock_new(). */
int
paddock_lock_exit_code (const GError *error)
{
  return g_error_matches (error, PADDOCK_LOCK_ERROR, PADDOCK_LOCK_ERROR_INVALID) ? 2 : 1;
}

/* fork(), or for the namespaces backend a child in new namespaces. */
pid_t
paddock_lock_fork (PaddockLock *lock)
{
  if (lock != NULL && lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
    return paddock_namespaces_clone ();
  return fork ();
}

static int
drop_capabilities (gboolean all)
{
  struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
  struct __user_cap_data_struct data[2] = { { 0 } };

  if (!all)
    {
      /* Root's commands get their capabilities from the bounding set at
       * exec; a user who is not root has none to lose (EPERM). */
      for (guint i = 0; i < G_N_ELEMENTS (dangerous_caps); i++)
        if (prctl (PR_CAPBSET_DROP, dangerous_caps[i], 0, 0, 0) != 0 &&
            errno != EINVAL && errno != EPERM)
          return errno;
      return 0;
    }

  for (int cap = 0; cap < 64; cap++)
    if (prctl (PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
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

/* In the child: says, in one line, that the private places could not be
 * made. Async-signal-safe. */
static void
warn_sockets_reachable (PaddockLock *lock,
                        int          ns_step,
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

  write_text (SOCKETS_WARNING);
  write_text (paddock_namespaces_step_name (lock->namespaces, ns_step));
  write_text (": ");
  write_text (text != NULL ? text : "error ");
  write_text (text != NULL ? "" : number + n);
  write_text ("\n");
}

/* Under Landlock: the agent's own /tmp, /run and runtime dir. Where no mount
 * namespace can be made, the lock goes on without them, and says so. */
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
      return 0;
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
  return 0;
}

/* In the child, right after it entered the project: enters the lock. Only
 * system calls from here. Returns 0 in the process that goes on to run the
 * command, or an errno with *step set for paddock_lock_step_name(). */
int
paddock_lock_enter (PaddockLock *lock,
                    int          report_fd,
                    int         *step)
{
  int err;

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

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      *step = STEP_NO_NEW_PRIVS;
      return errno;
    }

  if ((err = drop_capabilities (lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)) != 0)
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

  if (lock->backend == PADDOCK_LOCK_BACKEND_NAMESPACES &&
      (err = paddock_namespaces_become_init (lock->namespaces, report_fd)) != 0)
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
    case STEP_PRIVATE_PLACES: return "cannot enter the folder lock: Landlock: granting the private /tmp and /run";
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

static const char *
yes_no (gboolean value)
{
  return value ? "yes" : "no";
}

/* One fact a line: what --lock would use here, and what it protects. */
/* What a lock started here would be, probed once for both the words of
 * paddock-run --lock-status and the features of the protocol. */
typedef struct
{
  PaddockLandlockFeatures landlock;
  gboolean                have_backend;
  PaddockLockBackend      backend;
  GError                 *unavailable;   /* why no lock can start, where none can */
  gboolean                have_namespaces;
  int                     namespaces_errno;
  gboolean                have_places;   /* Landlock: the private /tmp, /run… in a mount namespace */
  int                     places_errno;
  char                   *places_what;
  gboolean                seccomp;
} Report;

static void
report_clear (Report *report)
{
  g_clear_error (&report->unavailable);
  g_clear_pointer (&report->places_what, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Report, report_clear)

static void
probe (const char *backend,
       Report     *report)
{
  paddock_landlock_probe (&report->landlock);
  report->have_namespaces = paddock_namespaces_probe (PADDOCK_NAMESPACES_LOCK, &report->namespaces_errno, NULL);
  report->have_backend = choose_backend (backend, &report->backend, &report->unavailable);
  /* Landlock does not govern connect() on a named Unix socket: only the
   * private /tmp, /run and runtime dir keep the session's services away. */
  if (report->have_backend && report->backend == PADDOCK_LOCK_BACKEND_LANDLOCK)
    report->have_places = paddock_namespaces_probe (PADDOCK_NAMESPACES_PRIVATE_PLACES, &report->places_errno,
                                                    &report->places_what);
  report->seccomp = prctl (PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

void
paddock_lock_print_status (FILE       *out,
                           const char *backend)
{
  g_auto(Report) report = { 0 };
  const PaddockLandlockFeatures *ll = &report.landlock;

  probe (backend, &report);

  if (report.have_backend)
    fprintf (out, "mechanism: %s\n", report.backend == PADDOCK_LOCK_BACKEND_LANDLOCK ? "landlock" : "namespaces");
  else
    fprintf (out, "mechanism: none (%s)\n", report.unavailable->message);

  if (ll->abi >= 1)
    fprintf (out, "landlock-abi: %d\n", ll->abi);
  else
    fprintf (out, "landlock-abi: 0 (%s)\n",
             ll->unavailable_errno == EOPNOTSUPP ? "disabled at boot" : g_strerror (ll->unavailable_errno));
  fprintf (out, "filesystem: %s\n", yes_no (ll->filesystem));
  fprintf (out, "refer: %s\n", yes_no (ll->refer));
  fprintf (out, "truncate: %s\n", yes_no (ll->truncate));
  fprintf (out, "tcp: %s%s\n", yes_no (ll->tcp), ll->tcp ? " (not used: the folder lock leaves the network open)" : "");
  fprintf (out, "ioctl-dev: %s\n", yes_no (ll->ioctl_dev));
  fprintf (out, "scope-signal: %s\n", yes_no (ll->scope_signal));
  fprintf (out, "scope-abstract-unix-socket: %s\n", yes_no (ll->scope_abstract_unix_socket));
  fprintf (out, "logging: %s\n", yes_no (ll->logging));
  if (report.have_namespaces)
    fprintf (out, "namespaces: yes\n");
  else
    fprintf (out, "namespaces: no (%s)\n", g_strerror (report.namespaces_errno));

  if (!report.have_backend)
    fprintf (out, "named-unix-sockets: not confined (the lock cannot start here)\n");
  else if (report.backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
    fprintf (out, "named-unix-sockets: confined (private /tmp, /var/tmp, /dev/shm, /run and $XDG_RUNTIME_DIR)\n");
  else if (report.have_places)
    fprintf (out, "named-unix-sockets: confined (private /tmp, /var/tmp, /dev/shm, /run and $XDG_RUNTIME_DIR "
                  "in a mount namespace)\n");
  else
    fprintf (out, "named-unix-sockets: not confined (cannot %s: %s; Landlock does not govern connecting to "
                  "them, so services listening in /tmp, /run and $XDG_RUNTIME_DIR stay reachable)\n",
             report.places_what != NULL ? report.places_what : "create a mount namespace",
             namespace_error_text (report.places_errno));
  if (ll->scope_abstract_unix_socket && report.have_backend)
    fprintf (out, "abstract-unix-sockets: confined (Landlock scoping)\n");
  else
    fprintf (out, "abstract-unix-sockets: not confined (%s)\n",
             report.have_backend ? "needs Landlock ABI 6" : "the lock cannot start here");

  fprintf (out, "seccomp: %s\n", yes_no (report.seccomp));
  fprintf (out, "no-new-privs: yes\n");
}

/* The protocol's words for what a lock with @report's backend enforces. */
static char **
report_features (const Report *report)
{
  const PaddockLandlockFeatures *ll = &report->landlock;
  g_autoptr(GPtrArray) features = g_ptr_array_new_with_free_func (g_free);
  gboolean landlock = report->backend == PADDOCK_LOCK_BACKEND_LANDLOCK;

  g_assert (report->have_backend);

  if (ll->abi >= 1)
    g_ptr_array_add (features, g_strdup_printf ("landlock-abi-%d", ll->abi));
  /* The namespaces backend keeps files by read-only mounts, Landlock by rules. */
  g_ptr_array_add (features, g_strdup ("lock-files"));
  if (!landlock || ll->truncate)
    g_ptr_array_add (features, g_strdup ("lock-truncate"));
  if (landlock && ll->ioctl_dev)
    g_ptr_array_add (features, g_strdup ("lock-ioctl-dev"));
  if (ll->scope_signal)
    g_ptr_array_add (features, g_strdup ("lock-signals"));
  if (ll->scope_abstract_unix_socket)
    g_ptr_array_add (features, g_strdup ("lock-abstract-unix-sockets"));
  if (!landlock || report->have_places)
    g_ptr_array_add (features, g_strdup ("lock-named-unix-sockets"));
  if (report->seccomp)
    g_ptr_array_add (features, g_strdup ("lock-seccomp"));
  g_ptr_array_add (features, g_strdup ("lock-no-new-privs"));
  g_ptr_array_add (features, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&features), FALSE);
}

char **
paddock_lock_list_features (const char  *backend,
                            char       **mechanism,
                            GError     **error)
{
  g_auto(Report) report = { 0 };

  probe (backend, &report);
  if (!report.have_backend)
    {
      g_propagate_error (error, g_steal_pointer (&report.unavailable));
      return NULL;
    }
  if (mechanism != NULL)
    *mechanism = g_strdup (report.backend == PADDOCK_LOCK_BACKEND_LANDLOCK ? "landlock" : "namespaces");
  return report_features (&report);
}

const char * const *
paddock_lock_get_features (PaddockLock *lock)
{
  return (const char * const *) lock->features;
}

const char *
paddock_lock_get_mechanism (PaddockLock *lock)
{
  return lock->backend == PADDOCK_LOCK_BACKEND_LANDLOCK ? "landlock" : "namespaces";
}
