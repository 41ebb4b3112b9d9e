/* paddock-vault-program.c: the program a vault request names: found as its caller would find it, opened, hashed; the environment it gets
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The caller is in the agent's tree, maybe in the lock's mount namespace
 * (a private /tmp, its own $XDG_RUNTIME_DIR): names are resolved from its
 * working directory and, for absolute ones, inside its root, both opened
 * through /proc, so the file found is the one the caller meant.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-command-line.h"
#include "paddock-escape.h"
#include "paddock-vault.h"
#include "paddock-vault-broker.h"
#include "paddock-vault-broker-private.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void
paddock_vault_program_clear (PaddockVaultProgram *program)
{
  paddock_close_fd (&program->cwd_fd);
  paddock_close_fd (&program->root_fd);
  paddock_close_fd (&program->exe_fd);
  g_clear_pointer (&program->cwd, g_free);
  g_clear_pointer (&program->exe, g_free);
  g_clear_pointer (&program->sha256, g_free);
}

/* @path as the caller sees it: from its working directory, or inside its
 * root where it is absolute. */
static int
open_as_caller (PaddockVaultProgram *program,
                const char          *path)
{
  /* Non-blocking: a FIFO the agent names must not hold the supervisor. */
  const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
  struct open_how how = { .flags = flags, .resolve = RESOLVE_IN_ROOT };
  int fd;

  if (path[0] != '/' || program->root_fd < 0)
    return openat (program->cwd_fd, path, flags);
  fd = (int) syscall (SYS_openat2, program->root_fd, path, &how, sizeof how);
  /* Before Linux 5.6: as paddock-run sees it, which is the same outside
   * the lock's private places. */
  if (fd < 0 && errno == ENOSYS)
    return open (path, flags);
  return fd;
}

/* Whether the open file @fd may be executed by us, as execve would judge
 * its mode bits. */
static gboolean
is_executable (int fd)
{
  if (faccessat (fd, "", X_OK, AT_EMPTY_PATH | AT_EACCESS) == 0)
    return TRUE;
  return errno != EACCES && errno != EPERM;
}

static gboolean
open_cwd (PaddockVaultProgram  *program,
          pid_t                 caller,
          GError              **error)
{
  g_autofree char *cwd_link = g_strdup_printf ("/proc/%d/cwd", (int) caller);
  g_autofree char *root_link = g_strdup_printf ("/proc/%d/root", (int) caller);

  program->cwd_fd = open (cwd_link, O_PATH | O_DIRECTORY | O_CLOEXEC);
  program->cwd = g_file_read_link (cwd_link, NULL);
  program->root_fd = open (root_link, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (program->cwd_fd < 0 || program->cwd == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot find the caller's working directory");
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_vault_program_open (PaddockVaultProgram *program,
                            pid_t                caller,
                            const char * const  *argv,
                            const char * const  *environ,
                            int                 *exit_code,
                            GError             **error)
{
  const char *name = argv[0];
  const char *path_env = "/usr/local/bin:/usr/bin:/bin";
  g_auto(GStrv) dirs = NULL;
  g_autofree char *shown = paddock_escape_for_display (name, -1);
  char link[64];
  char target[PATH_MAX];
  ssize_t n;
  struct stat st;
  char start[2];

  *exit_code = 1;
  if (!open_cwd (program, caller, error))
    return FALSE;

  *exit_code = 127;
  for (guint i = 0; environ[i] != NULL; i++)
    if (g_str_has_prefix (environ[i], "PATH="))
      path_env = environ[i] + strlen ("PATH=");
  /* A name with a slash is the one place to look; "" stands for it. */
  dirs = g_strsplit (strchr (name, '/') != NULL ? "" : path_env, ":", -1);
  if (dirs[0] == NULL)
    {
      g_strfreev (dirs);
      dirs = g_new0 (char *, 2);
      dirs[0] = g_strdup ("");
    }
  for (guint i = 0; dirs[i] != NULL && program->exe_fd < 0; i++)
    {
      g_autofree char *candidate = strchr (name, '/') != NULL ? g_strdup (name) :
                                   g_build_filename (*dirs[i] != '\0' ? dirs[i] : ".", name, NULL);
      paddock_autofd int fd = open_as_caller (program, candidate);

      if (fd < 0)
        {
          if (errno != ENOENT && errno != ENOTDIR)
            *exit_code = 126;
          continue;
        }
      if (fstat (fd, &st) != 0 || S_ISDIR (st.st_mode))
        continue;
      if (!S_ISREG (st.st_mode) || !is_executable (fd))
        {
          *exit_code = 126;
          continue;
        }
      program->exe_fd = paddock_steal_fd (&fd);
    }
  if (program->exe_fd < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, *exit_code == 127 ? "%s: command not found" :
                   "%s: not an executable file", shown);
      return FALSE;
    }

  *exit_code = 126;
  g_snprintf (link, sizeof link, "/proc/self/fd/%d", program->exe_fd);
  n = readlink (link, target, sizeof target - 1);
  if (n <= 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: cannot tell its path: %s", shown,
                   g_strerror (errno));
      return FALSE;
    }
  program->exe = g_strndup (target, (gsize) n);
  program->sha256 = paddock_vault_hash_fd (program->exe_fd, error);
  if (program->sha256 == NULL)
    return FALSE;
  program->is_script = pread (program->exe_fd, start, 2, 0) == 2 && start[0] == '#' && start[1] == '!';
  {
    g_autofree char *argv_name = g_path_get_basename (name);
    g_autofree char *exe_name = g_path_get_basename (program->exe);
    const char *names[] = { argv_name, exe_name };

    program->given_code = paddock_command_line_runs_given_code (argv, names, G_N_ELEMENTS (names));
  }
  *exit_code = 0;
  return TRUE;
}

/* What a program loads or runs before its own code: never passed on to
 * one that holds a secret, whatever the agent set. */
static gboolean
is_loader_variable (const char *entry)
{
  static const char * const names[] = {
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "LD_DEBUG_OUTPUT", "LD_PROFILE", "LD_ORIGIN_PATH",
    "GCONV_PATH", "LOCPATH", "MALLOC_TRACE", "HOSTALIASES", "RESOLV_HOST_CONF",
    "NODE_OPTIONS", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE",
    "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "ZDOTDIR",
    "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "PYTHONUSERBASE", "PYTHONEXECUTABLE",
    "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERL_MB_OPT",
    "RUBYOPT", "RUBYLIB",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
    "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "EDITOR", "VISUAL",
    "GIO_EXTRA_MODULES", "GTK_MODULES", "GST_PLUGIN_PATH", "LUA_INIT", "LUA_PATH", "LUA_CPATH",
    PADDOCK_VAULT_SOCKET_ENV,
    NULL,
  };
  const char *equals = strchr (entry, '=');
  g_autofree char *name = g_strndup (entry, equals != NULL ? (gsize) (equals - entry) : strlen (entry));

  if (g_str_has_prefix (name, "LD_") || g_str_has_prefix (name, "GIT_CONFIG_KEY_") ||
      g_str_has_prefix (name, "GIT_CONFIG_VALUE_") || g_str_has_prefix (name, "BASH_FUNC_"))
    return TRUE;
  return g_strv_contains (names, name);
}

GPtrArray *
paddock_vault_environment_new (const char * const *environ,
                               const char * const *vars,
                               GBytes * const     *values)
{
  GPtrArray *envp = g_ptr_array_new ();

  for (guint i = 0; environ[i] != NULL; i++)
    {
      const char *entry = environ[i];
      gboolean replaced = FALSE;

      if (strchr (entry, '=') == NULL || is_loader_variable (entry))
        continue;
      for (guint j = 0; vars[j] != NULL && !replaced; j++)
        replaced = g_str_has_prefix (entry, vars[j]) && entry[strlen (vars[j])] == '=';
      if (!replaced)
        g_ptr_array_add (envp, g_strdup (entry));
    }
  for (guint j = 0; vars[j] != NULL; j++)
    {
      gsize var_length = strlen (vars[j]), value_length;
      const guint8 *value = g_bytes_get_data (values[j], &value_length);
      char *entry = g_malloc (var_length + 1 + value_length + 1);

      memcpy (entry, vars[j], var_length);
      entry[var_length] = '=';
      memcpy (entry + var_length + 1, value, value_length);
      entry[var_length + 1 + value_length] = '\0';
      g_ptr_array_add (envp, entry);
    }
  g_ptr_array_add (envp, NULL);
  return envp;
}

void
paddock_vault_environment_free (GPtrArray *envp)
{
  for (guint i = 0; i < envp->len; i++)
    {
      char *entry = g_ptr_array_index (envp, i);

      if (entry != NULL)
        {
          explicit_bzero (entry, strlen (entry));
          g_free (entry);
        }
    }
  g_ptr_array_unref (envp);
}
