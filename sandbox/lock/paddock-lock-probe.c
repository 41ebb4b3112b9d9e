/* paddock-lock-probe.c: what the lock keeps from the agent, whether a folder can be locked to, and what a lock here would enforce
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What paddock-run's clients ask before any lock exists (the window's lock
 * switch, paddockctl lock, paddock-run --lock-status), apart from applying
 * it: so that they link neither the seccomp filter nor the code that
 * enters the lock.
 */
#include "config.h"

#include "paddock-cache-layers.h"
#include "paddock-grants.h"
#include "paddock-home.h"
#include "paddock-landlock.h"
#include "paddock-lock-private.h"
#include "paddock-namespaces.h"
#include "paddock-net-lock.h"
#include "paddock-path.h"
#include "paddock-project-config.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

G_DEFINE_QUARK (paddock-lock-error-quark, paddock_lock_error)

/* Files that hold the system's secrets: the lock grants /etc readable, and
 * root, even without capabilities, owns them. Only those this user can read
 * are denied: for anyone else their modes do it already, and each one
 * splits /etc into a rule per entry (measured: about 3 ms more lock
 * start-up as root, on a loaded 2-CPU machine). */
static const char * const system_denials[] = {
  "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
  "/etc/security/opasswd", "/etc/ssl/private", "/etc/libvirt/secrets", "/etc/NetworkManager/system-connections",
  "/etc/wireguard", "/etc/krb5.keytab", "/var/lib/sss/secrets",
};

/* ssh's host keys: whoever holds one can pose as this machine. */
static void
add_ssh_host_keys (GPtrArray *denials)
{
  g_autoptr(GDir) dir = g_dir_open ("/etc/ssh", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "ssh_host_") && g_str_has_suffix (name, "_key"))
      {
        g_autofree char *path = g_build_filename ("/etc/ssh", name, NULL);

        if (access (path, R_OK) == 0)
          paddock_lock_add_denial (denials, path);
      }
}

/* realpath() for paths that may not exist yet: the longest existing prefix is
 * resolved, the rest appended. */
char *
paddock_lock_canonicalize (const char *path)
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
  real_dir = paddock_lock_canonicalize (dir);
  return g_build_filename (real_dir, base, NULL);
}

void
paddock_lock_add_denial (GPtrArray  *denials,
                         const char *path)
{
  g_autofree char *real = paddock_lock_canonicalize (path);

  for (guint i = 0; i < denials->len; i++)
    if (g_strcmp0 (g_ptr_array_index (denials, i), real) == 0)
      return;
  g_ptr_array_add (denials, g_steal_pointer (&real));
}

/* "~/PATH" under the home folder; an absolute path as it is; else NULL. */
char *
paddock_lock_expand_denial (const char *path)
{
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  if (g_path_is_absolute (path))
    return g_strdup (path);
  return NULL;
}

/* The home folder's closed paths are data (data/home.conf, the user's
 * home.conf and deny.conf: see paddock-home.c); the system's secrets and
 * $GNUPGHOME, which depend on this machine and this environment, are
 * found here. */
GPtrArray *
paddock_lock_build_denials (void)
{
  GPtrArray *denials = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *home = paddock_lock_canonicalize (g_get_home_dir ());
  g_auto(GStrv) closed = paddock_home_list_closed_anyway (home);
  const char *gnupg_home = g_getenv ("GNUPGHOME");

  for (guint i = 0; closed[i] != NULL; i++)
    paddock_lock_add_denial (denials, closed[i]);
  if (gnupg_home != NULL && g_path_is_absolute (gnupg_home))
    paddock_lock_add_denial (denials, gnupg_home);
  for (guint i = 0; i < G_N_ELEMENTS (system_denials); i++)
    if (access (system_denials[i], R_OK) == 0)
      paddock_lock_add_denial (denials, system_denials[i]);
  add_ssh_host_keys (denials);
  g_ptr_array_add (denials, NULL);
  return denials;
}

gboolean
paddock_lock_add_project_denials (GPtrArray   *denials,
                                  const char  *project,
                                  GError     **error)
{
  PaddockProjectConfig config;

  if (!paddock_project_config_load (project, &config, error))
    return FALSE;
  for (guint list = 0; list < 2; list++)
    {
      char **paths = list == 0 ? config.denials : config.home_closed;

      for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
        {
          g_autofree char *path = paddock_lock_expand_denial (paths[i]);
          g_autofree char *real = path != NULL ? paddock_lock_canonicalize (path) : NULL;

          if (real != NULL && !g_strv_contains ((const char * const *) denials->pdata, real))
            g_ptr_array_insert (denials, denials->len - 1, g_steal_pointer (&real));
        }
    }
  paddock_project_config_clear (&config);
  return TRUE;
}

/* The canonical home folder where @real (canonical) is it or holds it,
 * else NULL. Locked to such a folder, or granted it read-write, the agent
 * could still write what every login runs (~/.bashrc, ~/.profile,
 * ~/.config/autostart): a lock in name only. */
static char *
holds_home (const char *real)
{
  char *home = paddock_lock_canonicalize (g_get_home_dir ());

  if (paddock_path_is_within (home, real))
    return home;
  g_free (home);
  return NULL;
}

/* What a folder the agent may write, @real (canonical), would hand it
 * that it must not have: the home folder it holds (*@home, which the
 * caller frees), else a denied folder beneath it (*@denial). FALSE where
 * it holds neither. */
gboolean
paddock_lock_holds_forbidden (const char          *real,
                              const char * const  *denials,
                              char               **home,
                              const char         **denial)
{
  *home = holds_home (real);
  *denial = *home == NULL ? paddock_grants_find_denial_beneath (real, denials) : NULL;
  return *home != NULL || *denial != NULL;
}

gboolean
paddock_lock_choose_backend (const char          *name,
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

  if (!paddock_namespaces_probe (PADDOCK_NAMESPACES_LOCK, &ns_errno, NULL, NULL))
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
const char *
paddock_lock_namespace_error_text (int err)
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

/* paddock_lock_check_project() on @real (canonical), with the lock's
 * @denials. The lock gives the agent its whole project: it cannot also
 * keep a credential store or Paddock's own settings in it from the agent. */
gboolean
paddock_lock_check_canonical (const char          *real,
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
  if (paddock_lock_holds_forbidden (real, denials, &home, &denial))
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
  g_autofree char *real = paddock_lock_canonicalize (project);
  g_autoptr(GPtrArray) denials = paddock_lock_build_denials ();

  return paddock_lock_check_canonical (real, (const char * const *) denials->pdata, held_denial, error);
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
  gboolean                hides_processes;  /* a PID namespace with a /proc of the agent's own */
  int                     view_errno;    /* why /dev/fuse cannot be opened for the home view, or 0 */
  gboolean                seccomp;
} Report;

static void
report_clear (Report *report)
{
  g_clear_error (&report->unavailable);
  g_clear_pointer (&report->places_what, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Report, report_clear)

/* Whether the home view (sandbox/supervisor/paddock-home-view.h) can be
 * served here: /dev/fuse opens and the kernel knows FUSE. The mount
 * itself is made in the lock's own namespaces. Returns 0 or an errno. */
static int
probe_home_view (void)
{
  g_autofree char *filesystems = NULL;
  int fd = open ("/dev/fuse", O_RDWR | O_CLOEXEC);

  if (fd < 0)
    return errno;
  close (fd);
  if (g_file_get_contents ("/proc/filesystems", &filesystems, NULL, NULL) &&
      strstr (filesystems, "\tfuse\n") == NULL)
    return ENODEV;
  return 0;
}

/* What a lock with @backend enforces here: what its features are told from. */
static void
probe_lock (PaddockLockBackend  backend,
            Report             *report)
{
  report->have_backend = TRUE;
  report->backend = backend;
  paddock_landlock_probe (&report->landlock);
  /* Landlock does not govern connect() on a named Unix socket, stat() or
   * the metadata calls: only the lock's mount namespace keeps the
   * session's services, the denied folders' sockets and names, and the
   * metadata of files outside the grants away. */
  if (backend == PADDOCK_LOCK_BACKEND_LANDLOCK)
    report->have_places = paddock_namespaces_probe (PADDOCK_NAMESPACES_PRIVATE_PLACES, &report->places_errno,
                                                    &report->places_what, &report->hides_processes);
  else
    report->hides_processes = TRUE;
  report->view_errno = probe_home_view ();
  report->seccomp = prctl (PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

/* All of it, for the words of --lock-status: which lock @backend (NULL:
 * the best) would be, and what else the kernel has. */
static void
probe (const char *backend,
       Report     *report)
{
  PaddockLockBackend chosen;

  if (paddock_lock_choose_backend (backend, &chosen, &report->unavailable))
    probe_lock (chosen, report);
  else
    {
      paddock_landlock_probe (&report->landlock);
      report->seccomp = prctl (PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
    }
  report->have_namespaces = paddock_namespaces_probe (PADDOCK_NAMESPACES_LOCK, &report->namespaces_errno, NULL, NULL);
}

/* What only the lock's mount namespace gives under Landlock, which does
 * not govern them: the lines after named-unix-sockets. */
static void
print_mount_namespace_status (FILE         *out,
                              const Report *report)
{
  static const struct
  {
    const char *key;
    const char *confined;
    const char *missing;
  } lines[] = {
    { "denied-folders", "hidden (an empty read-only tmpfs over each",
      "Landlock keeps their files from being read, not a socket in them (gpg-agent's, an ssh "
      "ControlMaster's) from being connected to, nor their file names from being listed" },
    { "metadata", "confined (every mount read-only outside the grants",
      "Landlock does not govern chmod, chown, utimes or setxattr, so the modes, owners, times and "
      "extended attributes of files outside the project can be changed" },
    { "other-terminals", "confined (a devpts instance of the agent's own on /dev/pts",
      "all of /dev/pts stays granted, so the agent can open the user's other terminals" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      if (!report->have_backend)
        fprintf (out, "%s: not confined (the lock cannot start here)\n", lines[i].key);
      else if (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
        fprintf (out, "%s: %s)\n", lines[i].key, lines[i].confined);
      else if (report->have_places)
        fprintf (out, "%s: %s, in a mount namespace)\n", lines[i].key, lines[i].confined);
      else
        fprintf (out, "%s: not confined (cannot %s: %s; %s)\n", lines[i].key,
                 report->places_what != NULL ? report->places_what : "create a mount namespace",
                 paddock_lock_namespace_error_text (report->places_errno), lines[i].missing);
    }
}

/* The folders on the way to a denied one ($HOME among them) may be listed
 * only where the denied ones are covered: Landlock's right to list a
 * folder holds beneath it too. Where they cannot be, keeping the names in
 * them hidden wins (see find_listable() in paddock-lock.c). */
static void
print_home_listing_status (FILE         *out,
                           const Report *report)
{
  if (!report->have_backend)
    fprintf (out, "home-listing: no (the lock cannot start here)\n");
  else if (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES)
    fprintf (out, "home-listing: yes (the agent's own home folder holds the real one's entries, read-only; "
                  "the denied folders in it are empty, an empty read-only tmpfs over each)\n");
  else if (report->have_places)
    fprintf (out, "home-listing: yes (the agent's own home folder holds the real one's entries, read-only; "
                  "the denied folders in it are empty, an empty read-only tmpfs over each, in a mount namespace)\n");
  else
    fprintf (out, "home-listing: no (cannot %s: %s; without a mount namespace the denied folders cannot be "
                  "emptied, and listing the folders on the way to them, the home folder among them, would "
                  "show the names of what they hold; keeping those hidden wins)\n",
             report->places_what != NULL ? report->places_what : "create a mount namespace",
             paddock_lock_namespace_error_text (report->places_errno));
}

/* The home folder's asked entries: asked where paddock-run can serve
 * them, closed where it cannot; never readable unasked. */
static gboolean
report_has_home_view (const Report *report)
{
  return report->have_backend && report->view_errno == 0 &&
         (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES || report->have_places);
}

static void
print_home_view_status (FILE         *out,
                        const Report *report)
{
  if (!report->have_backend)
    fprintf (out, "home-view: no (the lock cannot start here; the asked entries are closed)\n");
  else if (report_has_home_view (report))
    fprintf (out, "home-view: yes (the first read of each asked entry is held until answered, then "
                  "served by paddock-run through FUSE, read-only)\n");
  else if (report->view_errno != 0)
    fprintf (out, "home-view: no (cannot open /dev/fuse: %s; the asked entries are closed, each "
                  "covered empty)\n", g_strerror (report->view_errno));
  else
    fprintf (out, "home-view: no (cannot %s: %s; the asked entries are closed: without a mount "
                  "namespace Landlock grants them no read)\n",
             report->places_what != NULL ? report->places_what : "create a mount namespace",
             paddock_lock_namespace_error_text (report->places_errno));
}

/* The agent's IPC namespace comes with the namespaces it is given (see
 * enter_own_ipc() in paddock-lock.c): where the private places can be
 * made, so can it. */
static gboolean
report_has_ipc (const Report *report)
{
  return report->have_backend && (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES || report->have_places);
}

static void
print_ipc_status (FILE         *out,
                  const Report *report)
{
  if (report_has_ipc (report))
    fprintf (out, "ipc: confined (System V IPC and POSIX message queues in an IPC namespace of its own)\n");
  else if (!report->have_backend)
    fprintf (out, "ipc: not confined (the lock cannot start here)\n");
  else
    fprintf (out, "ipc: not confined (cannot create an IPC namespace: %s; System V shared memory, semaphores "
                  "and message queues outside the lock stay reachable)\n",
             paddock_lock_namespace_error_text (report->places_errno));
}

/* Other processes of the user's: the seccomp filter refuses their limits,
 * priorities and CPUs on both backends; only a PID namespace hides their
 * command lines, which the Landlock backend makes with its private places
 * where it can. */
static void
print_processes_status (FILE         *out,
                        const Report *report)
{
  if (!report->have_backend)
    fprintf (out, "other-processes: not confined (the lock cannot start here)\n");
  else if (report->hides_processes)
    fprintf (out, "other-processes: hidden (a PID namespace with a /proc of the agent's own)\n");
  else
    fprintf (out, "other-processes: partly confined (their limits, priorities and CPUs cannot be set, "
                  "their memory, environment and folders not read; their command lines stay readable "
                  "in /proc, which only a PID namespace would hide)\n");
}

/* The tool caches' overlays and the git hooks' read-only mounts are made
 * in the lock's mount namespace: where there is none, neither. */
static void
print_later_status (FILE         *out,
                    const Report *report,
                    const char   *project)
{
  gboolean has_mounts = report->have_backend &&
                        (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES || report->have_places);
  PaddockProjectConfig config = { 0 };
  int overlay_errno = 0;
  g_autofree char *overlay_what = NULL;

  if (!report->have_backend)
    fprintf (out, "tool-caches: read-only (the lock cannot start here)\n");
  else if (!has_mounts)
    fprintf (out, "tool-caches: read-only (cannot %s: %s; npm pack, npm install --offline and the like fail "
                  "where they write to their cache)\n",
             report->places_what != NULL ? report->places_what : "create a mount namespace",
             paddock_lock_namespace_error_text (report->places_errno));
  else if (paddock_cache_layers_probe (report->backend == PADDOCK_LOCK_BACKEND_NAMESPACES ||
                                       !paddock_namespaces_has_cap_sys_admin (),
                                       &overlay_errno, &overlay_what))
    fprintf (out, "tool-caches: copy-on-write (an overlay over each of ~/.npm, ~/.cache/pip, ~/.cargo/registry, "
                  "~/.m2/repository, ~/.gradle/caches and Go's caches: reads from the real one, writes to a "
                  "layer of the project's in $XDG_STATE_HOME/paddock/caches)\n");
  else
    fprintf (out, "tool-caches: read-only (cannot %s: %s; npm pack, npm install --offline and the like fail "
                  "where they write to their cache)\n",
             overlay_what, overlay_errno == EINVAL || overlay_errno == ENODEV
                           ? "overlayfs refuses it here (in a user namespace it needs Linux 5.11)"
                           : paddock_lock_namespace_error_text (overlay_errno));

  if (has_mounts)
    fprintf (out, "git-hooks: read-only (the project's .git/hooks, a read-only mount over itself)\n");
  else
    fprintf (out, "git-hooks: not confined (%s; the agent can write hooks and config that the user's git "
                  "runs later, outside the lock)\n",
             report->have_backend ? "no mount namespace for the read-only mounts" : "the lock cannot start here");
  if (project != NULL && !paddock_project_config_load (project, &config, NULL))
    fprintf (out, "git-config: read-only (the project's settings do not read)\n");
  else if (config.git_config_writable)
    fprintf (out, "git-config: writable (the project's \"git-config\" setting)\n");
  else if (has_mounts)
    fprintf (out, "git-config: read-only (the project's .git/config, a read-only mount over itself; "
                  "\"git-config\": \"writable\" in its settings, or paddockctl lock git-config on, lets the "
                  "agent change it)\n");
  else
    fprintf (out, "git-config: not confined (no mount namespace for the read-only mounts)\n");
  paddock_project_config_clear (&config);
}

char **
paddock_lock_list_denials (const char *project)
{
  g_autoptr(GPtrArray) denials = paddock_lock_build_denials ();

  /* Settings that do not read are said elsewhere, by what would use them. */
  if (project != NULL)
    paddock_lock_add_project_denials (denials, project, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&denials), FALSE);
}

/* One "denied:" line a path: a path may hold any character but a newline. */
static void
print_denials (FILE       *out,
               const char *project)
{
  g_auto(GStrv) denials = paddock_lock_list_denials (project);

  for (guint i = 0; denials[i] != NULL; i++)
    if (strchr (denials[i], '\n') == NULL)
      fprintf (out, "denied: %s\n", denials[i]);
}

gboolean
paddock_lock_list_home (const char   *project,
                        char       ***open,
                        char       ***asked,
                        GError      **error)
{
  g_autofree char *home = paddock_lock_canonicalize (g_get_home_dir ());
  g_autoptr(PaddockHome) lists = paddock_home_new (home, project, error);

  if (lists == NULL)
    return FALSE;
  *open = paddock_home_list (lists, PADDOCK_HOME_OPEN);
  *asked = paddock_home_list (lists, PADDOCK_HOME_ASKED);
  return TRUE;
}

/* A "home-open:" line for each entry the agent reads unasked, a
 * "home-asked:" line for each it is asked about; the closed ones are
 * among the "denied:" lines. */
static void
print_home (FILE       *out,
            const char *project)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) open = NULL;
  g_auto(GStrv) asked = NULL;

  if (!paddock_lock_list_home (project, &open, &asked, &error))
    {
      g_autofree char *message = g_strdelimit (g_strdup (error->message), "\n", ' ');

      fprintf (out, "home: not read (%s; a locked session would not start)\n", message);
      return;
    }
  for (guint i = 0; open[i] != NULL; i++)
    if (strchr (open[i], '\n') == NULL)
      fprintf (out, "home-open: %s\n", open[i]);
  for (guint i = 0; asked[i] != NULL; i++)
    if (strchr (asked[i], '\n') == NULL)
      fprintf (out, "home-asked: %s\n", asked[i]);
}

/* The network-lock: line: what --net=locked would use here, with or
 * without the folder lock. */
static void
print_network_lock_status (FILE *out)
{
  g_autofree char *reason = NULL;
  g_autofree char *feature = paddock_net_lock_probe (&reason);

  if (g_strcmp0 (feature, "net-namespace") == 0)
    fprintf (out, "network-lock: %s (the agent's own network namespace, the proxy its only way out)\n", feature);
  else if (feature != NULL)
    fprintf (out, "network-lock: %s (no network namespace can be made: Landlock lets TCP connect only to the "
                  "proxy's and the allowed ports, on any address, and a seccomp filter refuses UDP, raw and "
                  "packet sockets; the agent cannot connect to its own servers on other ports either)\n", feature);
  else
    fprintf (out, "network-lock: none (%s)\n", reason);
}

void
paddock_lock_print_status (FILE       *out,
                           const char *backend,
                           const char *project)
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
             paddock_lock_namespace_error_text (report.places_errno));
  print_mount_namespace_status (out, &report);
  print_home_listing_status (out, &report);
  print_home_view_status (out, &report);
  print_ipc_status (out, &report);
  print_processes_status (out, &report);
  print_later_status (out, &report, project);
  if (ll->scope_abstract_unix_socket && report.have_backend)
    fprintf (out, "abstract-unix-sockets: confined (Landlock scoping)\n");
  else
    fprintf (out, "abstract-unix-sockets: not confined (%s)\n",
             report.have_backend ? "needs Landlock ABI 6" : "the lock cannot start here");

  fprintf (out, "seccomp: %s\n", yes_no (report.seccomp));
  fprintf (out, "no-new-privs: yes\n");
  print_network_lock_status (out);
  print_denials (out, project);
  print_home (out, project);
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
    {
      g_ptr_array_add (features, g_strdup ("lock-named-unix-sockets"));
      g_ptr_array_add (features, g_strdup ("lock-denied-folders"));
      g_ptr_array_add (features, g_strdup ("lock-metadata"));
      g_ptr_array_add (features, g_strdup ("lock-terminals"));
    }
  if (report_has_home_view (report))
    g_ptr_array_add (features, g_strdup ("lock-home-asked"));
  if (report_has_ipc (report))
    g_ptr_array_add (features, g_strdup ("lock-ipc"));
  if (report->hides_processes)
    g_ptr_array_add (features, g_strdup ("lock-other-processes"));
  if (report->seccomp)
    g_ptr_array_add (features, g_strdup ("lock-seccomp"));
  g_ptr_array_add (features, g_strdup ("lock-no-new-privs"));
  g_ptr_array_add (features, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&features), FALSE);
}

char **
paddock_lock_features_for (PaddockLockBackend backend)
{
  g_auto(Report) report = { 0 };

  probe_lock (backend, &report);
  return report_features (&report);
}

char **
paddock_lock_list_features (const char  *backend,
                            char       **mechanism,
                            GError     **error)
{
  PaddockLockBackend chosen;

  if (!paddock_lock_choose_backend (backend, &chosen, error))
    return NULL;
  if (mechanism != NULL)
    *mechanism = g_strdup (chosen == PADDOCK_LOCK_BACKEND_LANDLOCK ? "landlock" : "namespaces");
  return paddock_lock_features_for (chosen);
}

