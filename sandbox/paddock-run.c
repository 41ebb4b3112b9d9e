/* paddock-run.c: runs one agent session under Paddock's supervision, in any terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-control.h"
#include "paddock-escape.h"
#include "paddock-home.h"
#include "paddock-lock.h"
#include "paddock-net-lock.h"
#include "paddock-profile.h"
#include "paddock-project-config.h"
#include "paddock-protocol.h"
#include "paddock-supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_USAGE 2

/* The mistake and where to look, not the whole --help, which would push
 * the one line that matters off a small terminal. */
static int
usage_error (const char *message)
{
  paddock_printerr ("%s", message);
  g_printerr ("Usage: paddock-run [OPTION…] -- COMMAND [ARG…]\n"
              "Run “paddock-run --help” to see the options.\n");
  return EXIT_USAGE;
}

/* Finds @name along PATH as a shell would. Returns the path, or NULL with
 * *exit_code set to 127 (not found) or 126 (found, not executable). */
static char *
resolve_command (const char *name,
                 int        *exit_code,
                 int        *saved_errno)
{
  const char *path_env;
  g_auto(GStrv) dirs = NULL;
  char *found_not_exec = NULL;
  struct stat st;

  *exit_code = 127;
  *saved_errno = ENOENT;

  if (strchr (name, '/') != NULL)
    {
      if (stat (name, &st) != 0)
        {
          *saved_errno = errno;
          *exit_code = (errno == ENOENT || errno == ENOTDIR) ? 127 : 126;
          return NULL;
        }
      if (S_ISDIR (st.st_mode))
        {
          *saved_errno = EISDIR;
          *exit_code = 126;
          return NULL;
        }
      if (access (name, X_OK) != 0)
        {
          *saved_errno = errno;
          *exit_code = 126;
          return NULL;
        }
      return g_strdup (name);
    }

  path_env = g_getenv ("PATH");
  if (path_env == NULL)
    path_env = "/usr/local/bin:/usr/bin:/bin";
  dirs = g_strsplit (path_env, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (*dirs[i] ? dirs[i] : ".", name, NULL);

      if (stat (candidate, &st) != 0 || S_ISDIR (st.st_mode))
        continue;
      if (access (candidate, X_OK) == 0)
        {
          g_free (found_not_exec);
          return g_steal_pointer (&candidate);
        }
      if (found_not_exec == NULL)
        found_not_exec = g_steal_pointer (&candidate);
    }

  if (found_not_exec != NULL)
    {
      g_free (found_not_exec);
      *exit_code = 126;
      *saved_errno = EACCES;
    }
  return NULL;
}

/* What a lock started here would be, as a client reads a session's:
 * "lock" names the mechanism, or is "none" with the "reason". */
static int
print_lock_status_message (const char *backend,
                           const char *project)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_LOCK_STATUS);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *net_reason = NULL;
  g_autofree char *net_feature = paddock_net_lock_probe (&net_reason);

  message->features = paddock_lock_list_features (backend, &message->lock, &error);
  if (message->features == NULL)
    {
      message->lock = g_strdup ("none");
      message->reason = g_strdup (error->message);
      message->features = g_new0 (char *, 1);
    }
  /* What --net=locked would use here; nothing where it cannot start. */
  if (net_feature != NULL)
    {
      guint n = g_strv_length (message->features);

      message->features = g_renew (char *, message->features, n + 2);
      message->features[n] = g_steal_pointer (&net_feature);
      message->features[n + 1] = NULL;
    }
  message->denied = paddock_lock_list_denials (project);
  /* Where the user's home.conf or the project's settings do not read, the
   * lists are left out: a locked session would not start to use them. */
  (void) paddock_lock_list_home (project, &message->home_open, &message->home_asked, NULL);
  line = paddock_message_to_line (message);
  fputs (line, stdout);
  return fflush (stdout) == 0 ? 0 : 1;
}

/* --allow-port's ports, each 1 to 65535, into @options. FALSE, said, on
 * one that is not. */
static gboolean
parse_allow_ports (char              **ports,
                   PaddockRunOptions  *options)
{
  guint n = ports != NULL ? g_strv_length (ports) : 0;

  options->allow_ports = g_new0 (guint16, MAX (n, 1));
  options->n_allow_ports = 0;
  for (guint i = 0; i < n; i++)
    {
      guint64 port = 0;

      if (!g_ascii_string_to_unsigned (ports[i], 10, 1, 65535, &port, NULL))
        {
          g_autofree char *message = g_strdup_printf ("--allow-port takes a port, 1 to 65535, not “%s”", ports[i]);

          usage_error (message);
          return FALSE;
        }
      if (port == PADDOCK_NET_LOCK_PROXY_PORT)
        {
          g_autofree char *message = g_strdup_printf ("--allow-port %u: the agent finds the network lock's proxy "
                                                      "there", (guint) port);

          usage_error (message);
          return FALSE;
        }
      /* Each port is listened on once in the agent's namespace. */
      for (guint j = 0; j < options->n_allow_ports; j++)
        if (options->allow_ports[j] == port)
          port = 0;
      if (port != 0)
        options->allow_ports[options->n_allow_ports++] = (guint16) port;
    }
  return TRUE;
}

static const PaddockProfile *
find_profile (const char *name,
              const char *command)
{
  g_autoptr(GError) error = NULL;
  const PaddockProfile *profile;

  /* The user's own profiles must read, or nothing starts. */
  if (paddock_profiles_load (&error) == NULL)
    {
      paddock_printerr ("%s", error->message);
      return NULL;
    }
  profile = name != NULL ? paddock_profile_lookup (name) : paddock_profile_guess (command);
  if (profile == NULL)
    {
      g_autofree char *names = paddock_profile_list_names ();

      paddock_printerr ("--profile %s: unknown profile (known: %s)", name, names);
    }
  return profile;
}

/* --explain's lines for the home folder: its entries of each kind, as
 * the user's home.conf and @project's settings (canonical; or NULL) make
 * them for this home folder. FALSE, said, where they do not read. */
static gboolean
explain_home (const char *project,
              GString    *out)
{
  static const struct
  {
    PaddockHomeKind  kind;
    const char      *key;
  } kinds[] = {
    { PADDOCK_HOME_OPEN, "home-open" },
    { PADDOCK_HOME_ASKED, "home-asked" },
    { PADDOCK_HOME_CLOSED, "home-closed" },
  };
  g_autofree char *home = realpath (g_get_home_dir (), NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockHome) lists = NULL;

  lists = paddock_home_new (home != NULL ? home : g_get_home_dir (), project, &error);
  if (lists == NULL)
    {
      paddock_printerr ("%s", error->message);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_auto(GStrv) paths = paddock_home_list (lists, kinds[i].kind);

      for (guint j = 0; paths[j] != NULL; j++)
        {
          g_autofree char *shown = paddock_escape_for_display (paths[j], -1);

          g_string_append_printf (out, "%s: %s\n", kinds[i].key, shown);
        }
    }
  return TRUE;
}

/* --explain: the profile, and with a command, how it would start; then
 * what the home folder holds of each kind, with @project's choices. */
static int
explain_profile (const char         *name,
                 const char * const *command,
                 int                 n_command,
                 const char         *project)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const PaddockProfile *profile;
  gboolean home_read;

  if (name == NULL && n_command <= 0)
    return usage_error ("--explain needs --profile NAME or a command");
  profile = find_profile (name, n_command > 0 ? command[0] : NULL);
  if (profile == NULL)
    return EXIT_USAGE;
  paddock_profile_explain (profile, out);
  if (n_command > 0)
    {
      g_auto(GStrv) locked = paddock_profile_locked_argv (profile, command);
      g_autofree char *shown = paddock_escape_argv_for_display ((const char * const *) locked);

      g_string_append_printf (out, "locked-command: %s\n", shown);
    }
  home_read = explain_home (project, out);
  fputs (out->str, stdout);
  return fflush (stdout) == 0 && home_read ? 0 : 1;
}

/* Under the lock: the agent's own sandbox, which cannot nest in it, off
 * (its profile's locked-arg and locked-env lines), its approvals kept.
 * The arguments only where the command is one of the profile's programs.
 * Returns the profile's name, or NULL (said) where @name is none. */
static const char *
apply_profile (PaddockRunOptions *options,
               const char        *name)
{
  const PaddockProfile *profile = find_profile (name, options->argv[0]);
  char **argv;

  if (profile == NULL)
    return NULL;
  argv = paddock_profile_locked_argv (profile, (const char * const *) options->argv);
  g_strfreev (options->argv);
  options->argv = argv;
  for (guint i = 0; profile->locked_env[i] != NULL; i++)
    {
      g_autofree char *variable = g_strdup (profile->locked_env[i]);
      char *equals = strchr (variable, '=');

      *equals = '\0';
      g_setenv (variable, equals + 1, TRUE);
    }
  return profile->name;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  g_autofree char *on_ask = NULL;
  g_autofree char *command_path = NULL;
  PaddockRunOptions options = { .control_fd = -1, .ask_timeout = 120, .monitor = TRUE };
  gboolean lock = FALSE, no_lock = FALSE, lock_status = FALSE, json = FALSE;
  gboolean no_monitor = FALSE, journal = FALSE, version = FALSE, explain = FALSE;
  g_autofree char *policy_file = NULL;
  g_autofree char *audit_file = NULL;
  int ask_timeout = 120, control_fd = -1, watch_fd = -1;
  g_auto(GStrv) grants = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *lock_backend = NULL;
  g_autoptr(GPtrArray) all_grants = NULL;
  PaddockProjectConfig project_config = { 0 };
  g_autofree char *net = NULL;
  g_auto(GStrv) allow_hosts = NULL;
  g_auto(GStrv) deny_hosts = NULL;
  g_auto(GStrv) resolve = NULL;
  g_auto(GStrv) allow_ports = NULL;
  gboolean net_locked;
  int status, exit_code, saved_errno;
  char **command;
  int n_command;

  GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &project,
      "Run the command in DIR, the project (default: the current directory)", "DIR" },
    { "lock", 0, 0, G_OPTION_ARG_NONE, &lock,
      "Lock the command and everything it starts to the project (kernel-enforced)", NULL },
    { "no-lock", 0, 0, G_OPTION_ARG_NONE, &no_lock,
      "Run without the folder lock", NULL },
    { "grant", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &grants,
      "Also grant PATH under the lock, read-only (the default) or read-write; repeatable", "PATH[:ro|rw]" },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile,
      "The agent's profile: its state stays writable, and it starts as the profile says under the lock "
      "(default: from the command's name; see --explain)", "NAME" },
    { "lock-backend", 0, 0, G_OPTION_ARG_STRING, &lock_backend,
      "Lock with landlock or namespaces (default: Landlock where the kernel has it)", "BACKEND" },
    { "explain", 0, 0, G_OPTION_ARG_NONE, &explain,
      "Print the agent profile the lock would use (--profile NAME, or the command's), and exit", NULL },
    { "lock-status", 0, 0, G_OPTION_ARG_NONE, &lock_status,
      "Print which lock this kernel supports, and exit", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "With --lock-status: print it as the control protocol's lock-status message, one JSON line", NULL },
    { "net", 0, 0, G_OPTION_ARG_STRING, &net,
      "open, or locked: the command reaches the network only through Paddock's proxy, which lets through "
      "the hosts allowed (default: the project's saved choice, else open)", "open|locked" },
    { "allow-host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &allow_hosts,
      "With --net=locked: let the command reach HOST (example.org, *.example.org, optional :PORT); repeatable",
      "HOST" },
    { "deny-host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &deny_hosts,
      "With --net=locked: refuse HOST, as --allow-host names it; repeatable", "HOST" },
    { "resolve", 0, 0, G_OPTION_ARG_STRING_ARRAY, &resolve,
      "With --net=locked: NAME is at ADDR, as curl's --resolve, and allowed; repeatable", "NAME=ADDR" },
    { "allow-port", 0, 0, G_OPTION_ARG_STRING_ARRAY, &allow_ports,
      "With --net=locked: let the command reach PORT on the host's loopback (a local database); repeatable",
      "PORT" },
    { "policy", 0, 0, G_OPTION_ARG_FILENAME, &policy_file,
      "Decide the programs the command runs by the rules in FILE (default: the built-in policy)", "FILE" },
    { "audit", 0, 0, G_OPTION_ARG_FILENAME, &audit_file,
      "Append the session's audit log to FILE (default: one file per session under $XDG_STATE_HOME/paddock)", "FILE" },
    { "ask-timeout", 0, 0, G_OPTION_ARG_INT, &ask_timeout,
      "Deny a program held for an answer after SECONDS (default: 120)", "SECONDS" },
    { "on-ask", 0, 0, G_OPTION_ARG_STRING, &on_ask,
      "What a program that needs an answer gets when no client is attached: deny (the default), allow, "
      "or wait for one to attach until --ask-timeout", "deny|allow|wait" },
    { "control-fd", 0, 0, G_OPTION_ARG_INT, &control_fd,
      "Serve the control protocol on the inherited socket N too; its client answers asks", "N" },
    { "watch-fd", 0, 0, G_OPTION_ARG_INT, &watch_fd,
      "As --control-fd, for a client that answers no asks until it decides or asks for the status", "N" },
    { "journal", 0, 0, G_OPTION_ARG_NONE, &journal,
      "Also send each audit record to the systemd journal", NULL },
    { "no-monitor", 0, 0, G_OPTION_ARG_NONE, &no_monitor,
      "Run without the exec timeline, policy and audit log", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version,
      "Print Paddock's version, and exit", NULL },
    { NULL }
  };

  options.closed_std_fds = paddock_open_std_fds ();
  setlocale (LC_ALL, "");
  g_set_prgname ("paddock-run");

  context = g_option_context_new ("-- COMMAND [ARG…]");
  g_option_context_set_summary (context,
    "Runs COMMAND in the project under Paddock's supervision and exits with its status.");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_strict_posix (context, TRUE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage_error (error->message);
  if (version)
    {
      g_print ("paddock-run %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (lock && no_lock)
    return usage_error ("--lock and --no-lock cannot be used together");
  if (json && !lock_status)
    return usage_error ("--json goes with --lock-status");
  if (net != NULL && strcmp (net, "open") != 0 && strcmp (net, "locked") != 0)
    return usage_error ("--net takes open or locked");
  if (control_fd != -1 && watch_fd != -1)
    return usage_error ("--control-fd and --watch-fd cannot be used together");
  {
    /* One inherited client, which may or may not answer asks from the start. */
    const char *fd_option = watch_fd != -1 ? "--watch-fd" : "--control-fd";

    options.control_fd_answers = watch_fd == -1;
    if (watch_fd != -1)
      control_fd = watch_fd;
    if (no_monitor && (policy_file != NULL || audit_file != NULL || on_ask != NULL || journal || control_fd >= 0))
      return usage_error ("--no-monitor cannot be used with --policy, --audit, --on-ask, --journal, --control-fd "
                          "or --watch-fd");
    if (on_ask != NULL && strcmp (on_ask, "deny") != 0 && strcmp (on_ask, "allow") != 0 &&
        strcmp (on_ask, "wait") != 0)
      return usage_error ("--on-ask takes deny, allow or wait");
    if (ask_timeout < 1 || ask_timeout > 24 * 3600)
      return usage_error ("--ask-timeout takes 1 to 86400 seconds");
    if (control_fd >= 0)
      {
        /* The agent must never inherit the controller's socket. */
        if (control_fd <= 2 || fcntl (control_fd, F_SETFD, FD_CLOEXEC) != 0)
          {
            g_autofree char *message = g_strdup_printf ("%s does not name an open descriptor above 2", fd_option);

            return usage_error (message);
          }
        /* Checked before the agent starts, which it must not without its client. */
        if (!paddock_control_check_client_fd (control_fd, NULL))
          {
            g_autofree char *message = g_strdup_printf ("%s %d is not a Unix stream socket", fd_option, control_fd);

            return usage_error (message);
          }
      }
    else if (control_fd != -1)
      {
        g_autofree char *message = g_strdup_printf ("%s takes a descriptor number", fd_option);

        return usage_error (message);
      }
  }
  /* An empty name would be the current folder, and each says so in its own way. */
  if (project != NULL && *project == '\0')
    return usage_error ("--project names no folder");
  if (policy_file != NULL && *policy_file == '\0')
    return usage_error ("--policy names no file");
  if (audit_file != NULL && *audit_file == '\0')
    return usage_error ("--audit names no file");
  /* Named from here, used from the project. */
  if (policy_file != NULL && !g_path_is_absolute (policy_file))
    {
      char *absolute = g_canonicalize_filename (policy_file, NULL);
      g_free (policy_file);
      policy_file = absolute;
    }
  if (audit_file != NULL && !g_path_is_absolute (audit_file))
    {
      char *absolute = g_canonicalize_filename (audit_file, NULL);
      g_free (audit_file);
      audit_file = absolute;
    }

  if (lock_status)
    {
      /* With --project, its own "deny" list is listed too. */
      g_autofree char *real_project = project != NULL ? realpath (project, NULL) : NULL;

      if (project != NULL && real_project == NULL)
        {
          paddock_printerr ("project %s: %s", project, g_strerror (errno));
          return EXIT_USAGE;
        }
      if (json)
        return print_lock_status_message (lock_backend, real_project);
      paddock_lock_print_status (stdout, lock_backend, real_project);
      return 0;
    }

  /* Grants name paths as the user sees them, before the move into the project. */
  for (guint i = 0; grants != NULL && grants[i] != NULL; i++)
    if (*grants[i] == '\0' || *grants[i] == ':')
      return usage_error ("--grant names no path");
    else if (!g_path_is_absolute (grants[i]))
      {
        g_autofree char *cwd = g_get_current_dir ();
        char *absolute = g_build_filename (cwd, grants[i], NULL);
        g_free (grants[i]);
        grants[i] = absolute;
      }

  /* Strict POSIX parsing stops at the command; a leading "--" is left in place. */
  command = argv + 1;
  n_command = argc - 1;
  if (n_command > 0 && strcmp (command[0], "--") == 0)
    {
      command++;
      n_command--;
    }
  if (explain)
    {
      /* The project's choices of the home folder's kinds: --project's, or
       * the current folder's. */
      g_autofree char *real_project = realpath (project != NULL ? project : ".", NULL);

      if (project != NULL && real_project == NULL)
        {
          paddock_printerr ("project %s: %s", project, g_strerror (errno));
          return EXIT_USAGE;
        }
      return explain_profile (profile, (const char * const *) command, n_command, real_project);
    }
  if (n_command <= 0)
    return usage_error ("no command given");
  if (command[0][0] == '-')
    {
      g_autofree char *message = g_strdup_printf ("unknown option %s", command[0]);
      return usage_error (message);
    }

  if (project == NULL)
    project = g_get_current_dir ();
  options.project = realpath (project, NULL);
  if (options.project == NULL)
    {
      paddock_printerr ("project %s: %s", project, g_strerror (errno));
      return EXIT_USAGE;
    }
  if (!g_file_test (options.project, G_FILE_TEST_IS_DIR))
    {
      paddock_printerr ("project %s: %s", project, g_strerror (ENOTDIR));
      paddock_run_options_clear (&options);
      return EXIT_USAGE;
    }

  /* Resolve relative to the project, where the command will run. */
  if (chdir (options.project) != 0)
    {
      paddock_printerr ("project %s: %s", project, g_strerror (errno));
      paddock_run_options_clear (&options);
      return EXIT_USAGE;
    }
  /* And say so to the command: OpenCode (Bun) takes $PWD for its working
   * folder, and ran its tools in the folder paddock-run was started in. */
  g_setenv ("PWD", options.project, TRUE);

  /* Without --lock or --no-lock, the project's saved choice decides; so
   * it does without --net, --no-lock or not. */
  if ((!no_lock || net == NULL) && !paddock_project_config_load (options.project, &project_config, &error))
    {
      paddock_printerr ("%s", error->message);
      paddock_run_options_clear (&options);
      return EXIT_USAGE;
    }
  if (!lock && !no_lock)
    lock = project_config.has_lock && project_config.lock;
  net_locked = net != NULL ? strcmp (net, "locked") == 0
                           : project_config.has_network && project_config.network_locked;
  if (!net_locked && (allow_hosts != NULL || deny_hosts != NULL || resolve != NULL || allow_ports != NULL))
    {
      paddock_project_config_clear (&project_config);
      paddock_run_options_clear (&options);
      return usage_error ("--allow-host, --deny-host, --resolve and --allow-port only apply with --net=locked");
    }
  if (!lock && (grants != NULL || profile != NULL || lock_backend != NULL))
    {
      paddock_project_config_clear (&project_config);
      paddock_run_options_clear (&options);
      return usage_error ("--grant, --profile and --lock-backend only apply with --lock");
    }
  all_grants = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; project_config.grants != NULL && project_config.grants[i] != NULL; i++)
    g_ptr_array_add (all_grants, g_strdup (project_config.grants[i]));
  for (guint i = 0; grants != NULL && grants[i] != NULL; i++)
    g_ptr_array_add (all_grants, g_strdup (grants[i]));
  g_ptr_array_add (all_grants, NULL);
  paddock_project_config_clear (&project_config);

  command_path = resolve_command (command[0], &exit_code, &saved_errno);
  if (command_path == NULL)
    {
      if (saved_errno == ENOENT && strchr (command[0], '/') == NULL)
        paddock_printerr ("%s: command not found", command[0]);
      else
        paddock_printerr ("%s: %s", command[0], g_strerror (saved_errno));
      paddock_run_options_clear (&options);
      return exit_code;
    }

  options.executable = g_steal_pointer (&command_path);
  options.argv = g_new0 (char *, n_command + 1);
  for (int i = 0; i < n_command; i++)
    options.argv[i] = g_strdup (command[i]);
  options.lock = lock;
  if (lock)
    {
      const char *applied = apply_profile (&options, profile);

      if (applied == NULL)
        {
          paddock_run_options_clear (&options);
          return EXIT_USAGE;
        }
      options.grants = (char **) g_ptr_array_free (g_steal_pointer (&all_grants), FALSE);
      options.profile = g_strdup (applied);
      options.lock_backend = g_steal_pointer (&lock_backend);
    }

  options.net_locked = net_locked;
  if (net_locked)
    {
      if (!parse_allow_ports (allow_ports, &options))
        {
          paddock_run_options_clear (&options);
          return EXIT_USAGE;
        }
      options.allow_hosts = g_steal_pointer (&allow_hosts);
      options.deny_hosts = g_steal_pointer (&deny_hosts);
      options.resolve = g_steal_pointer (&resolve);
    }
  options.monitor = !no_monitor;
  options.policy_file = g_steal_pointer (&policy_file);
  options.audit_file = g_steal_pointer (&audit_file);
  options.ask_timeout = ask_timeout;
  options.on_ask = g_strcmp0 (on_ask, "allow") == 0 ? PADDOCK_ON_ASK_ALLOW :
                   g_strcmp0 (on_ask, "wait") == 0 ? PADDOCK_ON_ASK_WAIT : PADDOCK_ON_ASK_DENY;
  options.control_fd = control_fd;
  options.journal = journal;

  status = paddock_supervisor_run (&options);
  paddock_run_options_clear (&options);
  return status;
}
