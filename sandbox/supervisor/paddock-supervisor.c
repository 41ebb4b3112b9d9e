/* paddock-supervisor.c: runs one agent session: fork, terminal, signals, exit status
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The agent runs in a process group of its own, which owns the terminal's
 * foreground, so Ctrl-C, Ctrl-Z and window resizes reach it and not the
 * runner. paddock-run stays in the background: it is the agent's parent and
 * a child subreaper, reaps everything below it, forwards the signals sent to
 * it, and when the agent is stopped it stops too, so the user's shell sees
 * one job.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-control.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor.h"
#include "paddock-json-text.h"
#include "paddock-limits.h"
#include "paddock-lock.h"
#include "paddock-net-lock.h"
#include "paddock-net-proxy.h"
#include "paddock-process-tree.h"
#include "paddock-supervisor.h"
#include "paddock-profile.h"
#include "paddock-home-view.h"
#include "paddock-vault-broker.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

typedef struct
{
  PaddockRunOptions *options;
  PaddockLock       *lock;          /* the folder lock, or NULL */
  GMainLoop         *loop;
  pid_t              agent;
  pid_t              own_pgrp;
  int                tty_fd;        /* the controlling terminal we were foreground on, or -1 */
  int                signal_fd;
  sigset_t           old_mask;
  struct rlimit      agent_nofile;  /* the open-file limit we were given, for the agent */
  gboolean           nofile_raised;
  int                exit_status;
  int                exit_signal;   /* the signal that ended the agent, or 0 */
  gboolean           agent_exited;
  char             **script_argv;   /* sh and the command: for a script without "#!" (borrowed strings) */
  int                stopped_pipe[2]; /* a byte for each stop of an agent under a PID namespace's init */
  guint              stopped_source;

  /* The exec monitor and what comes with it; unused with --no-monitor. */
  PaddockExecFilter   exec_filter;
  int                 monitor_socket[2];
  char               *session_id;
  PaddockPolicy      *policy;
  PaddockAudit       *audit;
  gboolean            journal_absent;  /* --journal, with no journal here: said at the start */
  PaddockAsks        *asks;          /* every ask of the session, whoever asks */
  PaddockExecMonitor *monitor;
  PaddockControl     *control;
  /* The project's rules and remembered answers, read again when their
   * file changes (another session remembered an answer there, the user
   * took one back); the digest of the bytes last read, "" for no file. */
  char               *project_rules_file;
  int                 project_rules_dirs[2];  /* its folder and the one above, watched, or -1 */
  char               *project_rules_digest;
  /* A paused session's agent, resumed for a signal that ends programs,
   * has this long to end before its whole tree is killed. */
  guint               end_grace_source;
  int                 end_grace_signal;
  /* The vault socket paddock-secret reaches, or NULL where it could not be made. */
  PaddockVaultBroker *vault;
  /* Under the lock: the home folder's asked entries, served once allowed. */
  PaddockHomeView    *home_view;
  /* Under --net=locked: the agent's network namespace, and the proxy that
   * is its only way out. */
  PaddockNetLock     *net_lock;
  PaddockNetProxy    *net_proxy;
  const char         *connect_helper;  /* paddock-net-connect's path, or NULL (borrowed) */
} PaddockSupervisor;

#define END_GRACE_SECONDS 5

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGUSR1, SIGUSR2 };

void
paddock_run_options_clear (PaddockRunOptions *options)
{
  g_clear_pointer (&options->project, g_free);
  g_clear_pointer (&options->argv, g_strfreev);
  g_clear_pointer (&options->executable, g_free);
  g_clear_pointer (&options->grants, g_strfreev);
  g_clear_pointer (&options->profile, g_free);
  g_clear_pointer (&options->lock_backend, g_free);
  g_clear_pointer (&options->allow_hosts, g_strfreev);
  g_clear_pointer (&options->deny_hosts, g_strfreev);
  g_clear_pointer (&options->resolve, g_strfreev);
  g_clear_pointer (&options->allow_ports, g_free);
  g_clear_pointer (&options->policy_file, g_free);
  g_clear_pointer (&options->audit_file, g_free);
}

/* The monitor holds a pidfd for each program that runs, so an agent that
 * starts a thousand at once would run out the usual soft limit of 1024
 * open files, and their ends would go unrecorded. The hard limit is safe
 * here, as GLib polls and never uses select(); the agent gets back the
 * limit we were given, for programs of its own that do. */
static void
raise_fd_limit (PaddockSupervisor *self)
{
  struct rlimit raised;

  if (getrlimit (RLIMIT_NOFILE, &self->agent_nofile) != 0 ||
      self->agent_nofile.rlim_cur >= self->agent_nofile.rlim_max)
    return;
  raised = (struct rlimit) { .rlim_cur = self->agent_nofile.rlim_max, .rlim_max = self->agent_nofile.rlim_max };
  self->nofile_raised = setrlimit (RLIMIT_NOFILE, &raised) == 0;
}

/* Only async-signal-safe calls from here until exec: the parent may have threads. */
G_GNUC_NORETURN static void
child_fail (int report_fd,
            int step,
            int saved_errno)
{
  int msg[2] = { step, saved_errno };

  if (write (report_fd, msg, sizeof msg) < 0)
    _exit (127);
  _exit (saved_errno == ENOENT ? 127 : 126);
}

enum
{
  STEP_CHDIR = 1,
  STEP_EXEC,
  STEP_SIGNALS,
  STEP_MONITOR,
  STEP_NET = 50,   /* + the network lock's own step */
  STEP_LOCK = 100, /* + the lock's own step */
};

static const char *
step_name (int step)
{
  switch (step)
    {
    case STEP_CHDIR: return "cannot enter the project";
    case STEP_SIGNALS: return "cannot reset signals";
    case STEP_MONITOR: return "cannot start the exec monitor";
    case STEP_EXEC:
    default: return "cannot run";
    }
}

/* Whether @path's first line (up to 80 bytes) holds a NUL byte. Only
 * system calls: it runs in the child, after the fork. */
static gboolean
looks_binary (const char *path)
{
  char start[80];
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  ssize_t n;

  if (fd < 0)
    return FALSE;
  n = read (fd, start, sizeof start);
  close (fd);
  for (ssize_t i = 0; i < n && start[i] != '\n'; i++)
    if (start[i] == '\0')
      return TRUE;
  return FALSE;
}

G_GNUC_NORETURN static void
run_child (PaddockSupervisor *self,
           int                report_fd)
{
  PaddockRunOptions *options = self->options;
  struct sigaction dfl = { .sa_handler = SIG_DFL };

  setpgid (0, 0);
  /* SIGTTOU is still blocked here, so a background group may take the terminal. */
  if (self->tty_fd >= 0)
    tcsetpgrp (self->tty_fd, getpid ());

  if (chdir (options->project) != 0)
    child_fail (report_fd, STEP_CHDIR, errno);
  /* Lowering a soft limit cannot fail for want of a right. */
  if (self->nofile_raised)
    setrlimit (RLIMIT_NOFILE, &self->agent_nofile);

  /* The network namespace first: the folder lock's seccomp filter refuses
   * the user namespace it may need. */
  if (self->net_lock != NULL)
    {
      int net_step = 0;
      int net_errno = paddock_net_lock_enter (self->net_lock, &net_step);

      if (net_errno != 0)
        child_fail (report_fd, STEP_NET + net_step, net_errno);
    }

  if (self->lock != NULL)
    {
      int lock_step = 0;
      int lock_errno = paddock_lock_enter (self->lock, report_fd, self->stopped_pipe[1], &lock_step);

      if (lock_errno != 0)
        child_fail (report_fd, STEP_LOCK + lock_step, lock_errno);
    }

  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      sigaction (sig, &dfl, NULL);
  if (sigprocmask (SIG_SETMASK, &self->old_mask, NULL) != 0)
    child_fail (report_fd, STEP_SIGNALS, errno);

  /* Last: from here every exec, this one included, waits for the monitor. */
  if (self->monitor_socket[1] >= 0)
    {
      int err = paddock_exec_filter_install (&self->exec_filter, self->monitor_socket[1]);

      if (err != 0)
        child_fail (report_fd, STEP_MONITOR, err);
    }

  /* What the command was given closed, it gets closed, as it would without us. */
  for (int fd = 0; fd <= 2; fd++)
    if (options->closed_std_fds & (1u << fd))
      close (fd);
  execv (options->executable, options->argv);
  /* A script without "#!": the shell runs it, as it would for execvp(),
   * env or nohup (its exec is decided as any other). Not a binary the
   * kernel cannot run (another architecture's): as bash, a NUL byte in
   * its first line says it is no script. */
  if (errno == ENOEXEC && !looks_binary (options->executable))
    {
      execv (self->script_argv[0], self->script_argv);
      errno = ENOEXEC;
    }
  child_fail (report_fd, STEP_EXEC, errno);
}

/* Built before the fork: the child only execs. */
static char **
script_argv_new (const PaddockRunOptions *options)
{
  guint argc = g_strv_length (options->argv);
  char **argv = g_new0 (char *, argc + 2);

  argv[0] = (char *) "/bin/sh";
  argv[1] = options->executable;
  for (guint i = 1; i < argc; i++)
    argv[i + 1] = options->argv[i];
  return argv;
}

static void
take_back_terminal (PaddockSupervisor *self)
{
  if (self->tty_fd >= 0)
    tcsetpgrp (self->tty_fd, self->own_pgrp);
}

static void
on_agent_stopped (PaddockSupervisor *self)
{
  /* Paused by a client: stay stopped until it resumes. */
  if (paddock_control_get_paused (self->control))
    return;

  /* As a session leader (inside the GUI's terminal) nobody could continue
   * us, so keep the agent running instead of leaving a frozen terminal. */
  if (self->tty_fd < 0 || getsid (0) == getpid ())
    {
      kill (-self->agent, SIGCONT);
      return;
    }

  take_back_terminal (self);
  raise (SIGSTOP);
  /* Continued: by "fg" when we are in the foreground again, else by "bg". */
  if (tcgetpgrp (self->tty_fd) == self->own_pgrp)
    tcsetpgrp (self->tty_fd, self->agent);
  kill (-self->agent, SIGCONT);
}

static void
reap_children (PaddockSupervisor *self)
{
  for (;;)
    {
      int status = 0;
      pid_t pid = waitpid (-1, &status, WNOHANG | WUNTRACED);

      if (pid <= 0)
        break;
      if (pid != self->agent)
        {
          paddock_vault_broker_child_exited (self->vault, pid, status);
          continue;
        }

      if (WIFSTOPPED (status))
        on_agent_stopped (self);
      else if (WIFEXITED (status))
        {
          self->exit_status = WEXITSTATUS (status);
          self->agent_exited = TRUE;
        }
      else if (WIFSIGNALED (status))
        {
          self->exit_signal = WTERMSIG (status);
          self->exit_status = 128 + WTERMSIG (status);
          self->agent_exited = TRUE;
        }
    }

  if (self->agent_exited)
    g_main_loop_quit (self->loop);
}

/* The agent, a child of its PID namespace's init, was stopped. */
static gboolean
on_agent_stopped_in_namespace (int          fd,
                               GIOCondition condition,
                               gpointer     user_data)
{
  PaddockSupervisor *self = user_data;
  char bytes[16];
  ssize_t n;

  do
    n = read (fd, bytes, sizeof bytes);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    {
      self->stopped_source = 0;  /* init is gone, or there is none */
      return G_SOURCE_REMOVE;
    }
  on_agent_stopped (self);
  return G_SOURCE_CONTINUE;
}

static void on_project_rules_changed (PaddockSupervisor *self);

static gboolean
on_end_grace (gpointer user_data)
{
  PaddockSupervisor *self = user_data;

  self->end_grace_source = 0;
  if (!self->agent_exited)
    paddock_control_kill_for_signal (self->control, self->end_grace_signal);
  return G_SOURCE_REMOVE;
}

static gboolean
on_signal (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  PaddockSupervisor *self = user_data;
  struct signalfd_siginfo info;

  while (read (fd, &info, sizeof info) == sizeof info)
    {
      if (info.ssi_signo == SIGCHLD)
        reap_children (self);
      else if (info.ssi_signo == SIGIO)
        on_project_rules_changed (self);
      else if (!self->agent_exited)
        {
          int signo = (int) info.ssi_signo;

          kill (self->agent, signo);
          /* Paused, the agent would keep a signal that ends it until
           * resumed: to end the session is to resume it. What was paused
           * must not run on if the agent does not end: it gets a grace
           * period, then its tree is killed. */
          if ((signo == SIGTERM || signo == SIGHUP || signo == SIGINT || signo == SIGQUIT) &&
              paddock_control_resume_for_signal (self->control, signo) && self->end_grace_source == 0)
            {
              self->end_grace_signal = signo;
              self->end_grace_source = g_timeout_add_seconds (END_GRACE_SECONDS, on_end_grace, self);
            }
        }
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
setup_signals (PaddockSupervisor *self,
               GError           **error)
{
  sigset_t mask;

  sigemptyset (&mask);
  sigaddset (&mask, SIGCHLD);
  sigaddset (&mask, SIGIO);
  sigaddset (&mask, SIGTTOU);
  sigaddset (&mask, SIGTTIN);
  sigaddset (&mask, SIGPIPE);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_signals); i++)
    sigaddset (&mask, forwarded_signals[i]);

  if (sigprocmask (SIG_BLOCK, &mask, &self->old_mask) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   "cannot block signals: %s", g_strerror (errno));
      return FALSE;
    }

  sigdelset (&mask, SIGTTOU);
  sigdelset (&mask, SIGTTIN);
  sigdelset (&mask, SIGPIPE);
  self->signal_fd = signalfd (-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (self->signal_fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   "cannot watch signals: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static int
open_foreground_tty (void)
{
  /* Only take part in job control when we own the terminal's foreground. */
  for (int fd = 0; fd <= 2; fd++)
    if (isatty (fd) && tcgetpgrp (fd) == getpgrp ())
      return fcntl (fd, F_DUPFD_CLOEXEC, 3);
  return -1;
}

/* What the project's file at @path holds, to tell a change: the SHA-256
 * of its bytes, "" where there is none, or what else is there. Read as
 * Paddock reads its own files: a pipe must not hold the session. */
static char *
project_file_digest (const char *path)
{
  /* The policy's own limit is 16 MiB: past twice that, the size tells. */
  const gsize most = 32 * 1024 * 1024;
  g_autoptr(GByteArray) text = NULL;
  g_autoptr(GError) error = NULL;
  struct stat st;

  if (stat (path, &st) != 0)
    return errno == ENOENT ? g_strdup ("") : g_strdup_printf ("unreadable: %s", g_strerror (errno));
  text = paddock_json_read_own_file (path, most, "the project's rules", &error);
  if (text == NULL)
    return g_strdup_printf ("unreadable: %s", error->message);
  if (text->len > most)
    return g_strdup_printf ("large: %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, (gint64) st.st_size,
                            (gint64) st.st_mtime);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, text->data, text->len);
}

/* The project's file changed: its rules replace the project's rules the
 * session has. A file that does not read or parse changes nothing, and
 * says so; either way the audit log records it. */
static void
reload_project_rules (PaddockSupervisor *self)
{
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(PaddockPolicy) overrides = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = project_file_digest (self->project_rules_file);

  if (g_strcmp0 (digest, self->project_rules_digest) == 0)
    return;
  json_object_set_string_member (fields, "source", "project");
  json_object_set_string_member (fields, "file", self->project_rules_file);
  overrides = paddock_policy_load_project (self->options->project, &error);
  if (overrides == NULL)
    {
      g_autofree char *text = g_strdup_printf ("the project's rules changed, and cannot be read; "
                                               "the session keeps the rules it had: %s", error->message);

      paddock_control_notice (self->control, text);
      json_object_set_string_member (fields, "error", error->message);
    }
  else
    {
      paddock_policy_set_project_overrides (self->policy, overrides);
      json_object_set_int_member (fields, "rules", paddock_policy_get_n_rules (overrides));
      /* Which bytes were taken, for whoever reads the log against the file. */
      if (strlen (digest) == 64)
        json_object_set_string_member (fields, "sha256", digest);
    }
  g_free (self->project_rules_digest);
  self->project_rules_digest = g_steal_pointer (&digest);
  g_clear_error (&error);
  if (!paddock_audit_append (self->audit, PADDOCK_AUDIT_POLICY, fields, NULL, &error))
    paddock_audit_print_error (error);
  /* After the record of the change: the asks it now decides follow it. */
  if (overrides != NULL && self->monitor != NULL)
    paddock_exec_monitor_settle_pending (self->monitor);
}

/* Watches the folder @path through *@fd with dnotify, unless *@fd already
 * is that folder. */
static gboolean
watch_folder (const char  *path,
              int         *fd,
              GError     **error)
{
  struct stat named, held;
  int saved_errno;

  if (*fd >= 0 && stat (path, &named) == 0 && fstat (*fd, &held) == 0 &&
      named.st_dev == held.st_dev && named.st_ino == held.st_ino)
    return TRUE;
  paddock_close_fd (fd);
  *fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*fd >= 0 &&
      fcntl (*fd, F_NOTIFY, DN_MODIFY | DN_CREATE | DN_DELETE | DN_RENAME | DN_ATTRIB | DN_MULTISHOT) == 0)
    return TRUE;
  saved_errno = errno;
  paddock_close_fd (fd);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s: %s", path,
               g_strerror (saved_errno));
  return FALSE;
}

/* Makes the folder of the project's file (0700, as saving makes it) where
 * it is missing, and watches it and the folder above it: the file is
 * replaced whole when saved, and the folder may be removed and made again.
 * On failure neither is watched. */
static gboolean
watch_project_rules_folders (PaddockSupervisor  *self,
                             GError            **error)
{
  g_autofree char *folder = g_path_get_dirname (self->project_rules_file);
  g_autofree char *parent = g_path_get_dirname (folder);

  g_mkdir_with_parents (folder, 0700);
  if (watch_folder (parent, &self->project_rules_dirs[1], error) &&
      watch_folder (folder, &self->project_rules_dirs[0], error))
    return TRUE;
  paddock_close_fd (&self->project_rules_dirs[0]);
  paddock_close_fd (&self->project_rules_dirs[1]);
  return FALSE;
}

/* SIGIO: something in either folder changed. Any of it may be the file (or
 * the folder, gone or made again), and the digest tells whether it
 * changed. A folder removed or moved away is made and watched again, so
 * that a file put there later is seen. */
static void
on_project_rules_changed (PaddockSupervisor *self)
{
  g_autoptr(GError) error = NULL;

  if (self->project_rules_dirs[0] < 0)
    return;
  if (!watch_project_rules_folders (self, &error))
    {
      g_autofree char *text = g_strdup_printf ("the project's rules are no longer watched: answers remembered "
                                               "for it elsewhere, or taken back, count from the next session: %s",
                                               error->message);

      paddock_control_notice (self->control, text);
    }
  reload_project_rules (self);
}

/* Watches the project's file, from the bytes read at the start (a change
 * since then is taken now), through its folder. dnotify, not inotify:
 * closing an inotify instance waits for the kernel's grace period (6 to
 * 15 ms here), and every session would end that much later. Nor GIO's
 * monitors, which would load GVfs's modules into the supervisor. The
 * events come as SIGIO, to the signal fd. */
static void
watch_project_rules (PaddockSupervisor *self)
{
  g_autoptr(GError) error = NULL;

  if (self->project_rules_file == NULL)
    return;
  if (!watch_project_rules_folders (self, &error))
    {
      g_autofree char *text = g_strdup_printf ("the project's rules are not watched: answers remembered for it "
                                               "elsewhere, or taken back, count from the next session: %s",
                                               error->message);

      paddock_control_notice (self->control, text);
      return;
    }
  reload_project_rules (self);
}

/* Before fork: everything the monitor needs, so a broken policy never starts
 * the agent. Returns 0, or the exit status to leave with. */
static int
prepare_supervision (PaddockSupervisor *self)
{
  PaddockRunOptions *options = self->options;
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  g_autofree char *audit_path = NULL;

  if (!options->monitor)
    return 0;

  policy = options->policy_file != NULL ? paddock_policy_new_from_file (options->policy_file, &error)
                                        : paddock_policy_new_default ();
  /* What the project's file held, read before it is loaded: a change
   * from there on is seen (watch_project_rules). */
  self->project_rules_file = paddock_policy_project_file (options->project, NULL);
  if (self->project_rules_file != NULL)
    self->project_rules_digest = project_file_digest (self->project_rules_file);
  if (policy != NULL)
    overrides = paddock_policy_load_project (options->project, &error);
  if (overrides == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 2;
    }
  paddock_policy_set_project_overrides (policy, overrides);
  self->policy = g_steal_pointer (&policy);

  self->session_id = paddock_control_new_session_id ();
  audit_path = options->audit_file != NULL ? g_strdup (options->audit_file)
                                           : paddock_audit_default_path (self->session_id, &error);
  if (audit_path != NULL)
    self->audit = paddock_audit_open (audit_path, &error);
  if (self->audit == NULL ||
      !paddock_exec_filter_init (&self->exec_filter, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  paddock_audit_set_journal (self->audit, options->journal);
  if (options->journal && !g_file_test (PADDOCK_AUDIT_JOURNAL_SOCKET, G_FILE_TEST_EXISTS))
    {
      paddock_printerr ("--journal: the systemd journal is not running here; "
                        "the audit log goes to %s only", audit_path);
      self->journal_absent = TRUE;
    }

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, self->monitor_socket) != 0)
    {
      paddock_printerr ("cannot start the exec monitor: %s", g_strerror (errno));
      return 1;
    }
  return 0;
}

static JsonArray *
strv_to_json_array (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (; strv != NULL && *strv != NULL; strv++)
    json_array_add_string_element (array, *strv);
  return array;
}

/* Serves paddock-secret, with the session's lock, asks and audit log. */
static void
start_vault (PaddockSupervisor *self)
{
  PaddockVaultBrokerConfig config = {
    .project = self->options->project,
    .agent_pid = self->agent,
    .lock = self->lock,
    .audit = self->audit,
    .control = self->control,
    .asks = self->asks,
    .ask_timeout = self->options->ask_timeout,
    .net_locked = self->options->net_locked,
  };

  if (self->vault != NULL)
    paddock_vault_broker_start (self->vault, &config);
}

/* Before the lock is made, which grants its folder: the socket paddock-secret
 * finds in $PADDOCK_VAULT_SOCKET. Without one, the session goes on, and
 * paddock-secret says it has no vault. */
static void
prepare_vault (PaddockSupervisor *self)
{
  g_autoptr(GError) error = NULL;

  self->vault = paddock_vault_broker_new (&error);
  if (self->vault == NULL)
    {
      paddock_printerr ("warning: paddock-secret cannot reach this session: %s", error->message);
      g_unsetenv (PADDOCK_VAULT_SOCKET_ENV);
      return;
    }
  /* Before any thread: the agent inherits it. */
  g_setenv (PADDOCK_VAULT_SOCKET_ENV, paddock_vault_broker_get_socket_path (self->vault), TRUE);
}

static void
broadcast_to_clients (const PaddockMessage *message,
                      gpointer              user_data)
{
  PaddockSupervisor *self = user_data;

  if (self->control != NULL)
    paddock_control_broadcast (self->control, message);
}

/* Right after the fork, before the child mounts it: the home view's
 * thread waits for the child to hand it over, and serves it from then on.
 * Its asks go through the session's registry once there is one (with the
 * exec monitor); until then, and without, asked entries are refused. */
static void
start_home_view (PaddockSupervisor *self)
{
  PaddockHomeViewConfig config = { 0 };
  g_auto(GStrv) bindable = NULL;
  int socket_fd;

  if (self->lock == NULL || (socket_fd = paddock_lock_steal_view_socket (self->lock)) < 0)
    return;
  config.project = self->options->project;
  config.entries = paddock_lock_get_view_entries (self->lock);
  config.denials = paddock_lock_get_denials_for_view (self->lock);
  bindable = paddock_lock_list_view_bindable (self->lock);
  config.bindable = (const char * const *) bindable;
  config.audit = self->audit;
  self->home_view = paddock_home_view_new (socket_fd, &config);
  paddock_home_view_set_agent (self->home_view, self->agent);
  paddock_home_view_set_func (self->home_view, broadcast_to_clients, self);
}

/* paddock-net-connect, ssh's ProxyCommand under the network lock: beside
 * paddock-run (installed, or in the build folder), else along PATH; NULL
 * where there is none. */
static char *
find_connect_helper (void)
{
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);

  if (self_exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self_exe);
      g_autofree char *beside = g_build_filename (dir, "paddock-net-connect", NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&beside);
    }
  return g_find_program_in_path ("paddock-net-connect");
}

/* Before the fork, before any thread (it sets the agent's environment):
 * the network namespace is checked, and the proxy made from the
 * session's lists. Returns 0, or the exit status to end with, said. */
static int
prepare_network (PaddockSupervisor *self)
{
  PaddockRunOptions *options = self->options;
  g_autoptr(GError) error = NULL;
  PaddockNetProxyConfig config = {
    .project = options->project,
    .allow_hosts = (const char * const *) options->allow_hosts,
    .deny_hosts = (const char * const *) options->deny_hosts,
    .resolve = (const char * const *) options->resolve,
    .audit = self->audit,
  };

  const PaddockProfile *profile;
  const char *presets[] = { NULL, "registries", "forges", NULL };

  if (!options->net_locked)
    return 0;
  /* The agent's own model API hosts, the package registries and the
   * forges; a profile without a list of its own (a shell) gets the rest. */
  profile = options->profile != NULL ? paddock_profile_lookup (options->profile)
                                     : paddock_profile_guess (options->argv[0]);
  presets[0] = profile != NULL ? profile->name : NULL;
  config.presets = presets[0] != NULL ? presets : presets + 1;
  self->net_proxy = paddock_net_proxy_new (&config, &error);
  if (self->net_proxy == NULL && presets[0] != NULL)
    {
      g_clear_error (&error);
      config.presets = presets + 1;
      self->net_proxy = paddock_net_proxy_new (&config, &error);
    }
  if (self->net_proxy == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 2;
    }
  self->net_lock = paddock_net_lock_new (options->allow_ports, options->n_allow_ports, options->lock, &error);
  if (self->net_lock == NULL)
    {
      paddock_printerr ("%s", error->message);
      g_clear_pointer (&self->net_proxy, paddock_net_proxy_free);
      return 1;
    }
  paddock_net_lock_set_environment (self->net_lock, self->connect_helper);
  return 0;
}

/* Right after the fork: the proxy waits for the child's listeners, and
 * serves them from then on. Its asks go through the session's registry
 * once there is one; until then, and without, unknown hosts are refused. */
static void
start_network (PaddockSupervisor *self)
{
  int listener;

  if (self->net_proxy == NULL)
    return;
  /* The child hands its listeners over in its network namespace; under
   * Landlock's TCP rules paddock-run listens on the host's loopback. */
  listener = paddock_net_lock_steal_host_listener (self->net_lock);
  if (listener >= 0)
    paddock_net_proxy_add_listener (self->net_proxy, listener);
  else
    paddock_net_proxy_take_handover (self->net_proxy, paddock_net_lock_steal_handover (self->net_lock));
  paddock_net_proxy_set_agent (self->net_proxy, self->agent);
  paddock_net_proxy_set_func (self->net_proxy, broadcast_to_clients, self);
}

/* After fork: takes the child's listener and answers it from a thread,
 * before the child's first exec can need an answer. */
static void
start_supervision (PaddockSupervisor *self)
{
  PaddockRunOptions *options = self->options;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) fields = json_object_new ();
  /* The mechanism the lock chose, which may not be the one asked for. */
  const char *lock = self->lock != NULL ? paddock_lock_get_mechanism (self->lock) : "off";
  PaddockControlSession session = {
    .session_id = self->session_id,
    .project = options->project,
    .command = (const char * const *) options->argv,
    .agent_pid = self->agent,
    .tree_root = getpid (),
    .lock = lock,
    .network = self->net_proxy != NULL ? "on" : "off",
  };
  PaddockExecMonitorConfig config = {
    .policy = self->policy,
    .audit = self->audit,
    .project = options->project,
  };
  g_autoptr(GPtrArray) features = g_ptr_array_new ();
  guint flags = 0;
  int notify_fd;

  if (self->monitor_socket[0] < 0)
    return;
  paddock_close_fd (&self->monitor_socket[1]);
  notify_fd = paddock_exec_filter_receive (self->monitor_socket[0], &flags, &error);
  paddock_close_fd (&self->monitor_socket[0]);
  /* Without one the child failed first, and the report pipe says why. */
  if (notify_fd < 0)
    return;

  /* Probed only now: a session without the monitor has no one to tell. */
  session.lock_features = self->lock != NULL ? paddock_lock_get_features (self->lock) : NULL;
  /* The network lock's mechanism is among them, with or without the folder lock. */
  if (self->net_lock != NULL)
    {
      for (guint i = 0; session.lock_features != NULL && session.lock_features[i] != NULL; i++)
        g_ptr_array_add (features, (char *) session.lock_features[i]);
      g_ptr_array_add (features, (char *) paddock_net_lock_get_mechanism (self->net_lock));
      g_ptr_array_add (features, NULL);
      session.lock_features = (const char * const *) features->pdata;
    }
  self->control = paddock_control_new (&session, self->audit);
  self->asks = paddock_asks_new (options->ask_timeout, options->on_ask, NULL,
                                 paddock_control_monitor_func, self->control);
  config.asks = self->asks;
  self->monitor = paddock_exec_monitor_new (notify_fd, flags, &config, NULL,
                                            paddock_control_monitor_func, self->control);

  json_object_set_string_member (fields, "session", self->session_id);
  json_object_set_string_member (fields, "project", options->project);
  json_object_set_array_member (fields, "command", strv_to_json_array ((const char * const *) options->argv));
  json_object_set_int_member (fields, "agent_pid", self->agent);
  json_object_set_int_member (fields, "supervisor_pid", getpid ());
  json_object_set_string_member (fields, "lock", lock);
  json_object_set_string_member (fields, "network", self->net_proxy != NULL ? "on" : "off");
  /* The agent profile the lock was built from; its locked arguments are in "command". */
  if (self->lock != NULL && options->profile != NULL)
    json_object_set_string_member (fields, "profile", options->profile);
  json_object_set_array_member (fields, "features",
                                strv_to_json_array (paddock_exec_monitor_get_features (self->monitor)));
  json_object_set_string_member (fields, "policy", options->policy_file != NULL ? options->policy_file : "default");
  json_object_set_int_member (fields, "ask_timeout", options->ask_timeout);
  json_object_set_string_member (fields, "on_ask",
                                 options->on_ask == PADDOCK_ON_ASK_ALLOW ? "allow" :
                                 options->on_ask == PADDOCK_ON_ASK_WAIT ? "wait" : "deny");
  if (!paddock_audit_append (self->audit, PADDOCK_AUDIT_SESSION_START, fields, NULL, &error))
    {
      paddock_audit_print_error (error);
      g_clear_error (&error);
    }

  paddock_control_set_monitor (self->control, self->monitor);
  paddock_control_set_asks (self->control, self->asks);
  if (self->home_view != NULL)
    paddock_home_view_set_asks (self->home_view, self->asks);
  if (self->net_proxy != NULL)
    paddock_net_proxy_set_asks (self->net_proxy, self->asks);
  watch_project_rules (self);
  /* The client on --control-fd (the window) is there before the agent's
   * first exec can be decided: an ask must never find nobody to ask. */
  if (options->control_fd >= 0 &&
      !paddock_control_add_client_fd (self->control, paddock_steal_fd (&options->control_fd),
                                      options->control_fd_answers, &error))
    {
      paddock_printerr ("--control-fd: %s", error->message);
      g_clear_error (&error);
    }
  /* The socket is there before the agent's first exec is answered, so
   * nothing the agent runs can look for it and find none. */
  if (!paddock_control_listen (self->control, &error))
    {
      paddock_printerr ("paddockctl cannot reach this session, and its asks are decided as with "
                        "nobody attached: %s", error->message);
      g_clear_error (&error);
    }
  start_vault (self);
  if (!paddock_exec_monitor_start (self->monitor, &error))
    {
      /* Nothing can answer the agent's exec: end it rather than leave it hanging. */
      paddock_printerr ("%s", error->message);
      kill (self->agent, SIGKILL);
      return;
    }
}

static gboolean
on_report_ready (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The first exec may be held for a client's answer: serve clients meanwhile. */
static void
wait_for_report (PaddockSupervisor *self,
                 int                report_fd)
{
  gboolean ready = FALSE;

  if (self->monitor == NULL)
    return;
  g_unix_fd_add (report_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_report_ready, &ready);
  while (!ready)
    g_main_context_iteration (NULL, TRUE);
}

static void
end_supervision (PaddockSupervisor *self,
                 int                exit_code,
                 int                signal)
{
  g_autoptr(GError) error = NULL;

  /* It asks through the control server, and records in the audit log. */
  g_clear_pointer (&self->vault, paddock_vault_broker_free);
  /* Its held reads are refused, and its asks withdrawn, while the
   * registry and the audit log are there. */
  g_clear_pointer (&self->home_view, paddock_home_view_free);
  /* Its held connections likewise: refused, their asks withdrawn. */
  g_clear_pointer (&self->net_proxy, paddock_net_proxy_free);
  g_clear_pointer (&self->net_lock, paddock_net_lock_free);
  /* Held execs are recorded first, so clients see them end with the session. */
  if (self->monitor != NULL)
    paddock_exec_monitor_stop (self->monitor);
  if (self->control != NULL)
    paddock_control_session_end (self->control, exit_code, signal);
  if (self->audit != NULL)
    {
      g_autoptr(JsonObject) fields = json_object_new ();

      if (exit_code >= 0)
        json_object_set_int_member (fields, "exit_code", exit_code);
      if (signal > 0)
        json_object_set_int_member (fields, "signal", signal);
      json_object_set_int_member (fields, "execs", self->monitor != NULL ?
                                  (gint64) paddock_exec_monitor_get_n_events (self->monitor) : 0);
      if (!paddock_audit_append (self->audit, PADDOCK_AUDIT_SESSION_END, fields, NULL, &error))
        paddock_audit_print_error (error);
      if (paddock_audit_get_n_lost (self->audit) > 0)
        paddock_printerr ("%" G_GUINT64_FORMAT " records of this session, its end included, "
                          "are missing from the audit log %s",
                          paddock_audit_get_n_lost (self->audit), paddock_audit_get_path (self->audit));
      if (self->options->journal && !self->journal_absent && paddock_audit_get_n_unjournaled (self->audit) > 0)
        paddock_printerr ("--journal: the journal did not take %" G_GUINT64_FORMAT " of this "
                          "session's records (it did not keep up, or went away); the audit log %s has them all",
                          paddock_audit_get_n_unjournaled (self->audit), paddock_audit_get_path (self->audit));
    }

  g_clear_pointer (&self->monitor, paddock_exec_monitor_free);
  if (self->control != NULL)
    paddock_control_set_asks (self->control, NULL);
  g_clear_pointer (&self->asks, paddock_asks_free);
  g_clear_pointer (&self->control, paddock_control_free);
  g_clear_pointer (&self->audit, paddock_audit_close);
  paddock_close_fd (&self->project_rules_dirs[0]);
  paddock_close_fd (&self->project_rules_dirs[1]);
  g_clear_pointer (&self->project_rules_file, g_free);
  g_clear_pointer (&self->project_rules_digest, g_free);
  g_clear_pointer (&self->policy, paddock_policy_unref);
  g_clear_pointer (&self->session_id, g_free);
  paddock_exec_filter_clear (&self->exec_filter);
  paddock_close_fd (&self->monitor_socket[0]);
  paddock_close_fd (&self->monitor_socket[1]);
}

/* Before the agent starts, while the terminal is still paddock-run's: a
 * file or folder the command names that the lock's private /tmp (or /run,
 * …) will hide from it. */
static void
warn_hidden_arguments (PaddockSupervisor *self)
{
  for (guint i = 1; self->options->argv[i] != NULL; i++)
    {
      const char *arg = self->options->argv[i];
      g_autofree char *hidden = NULL;

      if (!g_path_is_absolute (arg) || !g_file_test (arg, G_FILE_TEST_EXISTS))
        continue;
      hidden = paddock_lock_describe_hidden (self->lock, arg);
      if (hidden != NULL)
        paddock_printerr ("warning: the agent will not see what its command names: %s", hidden);
    }
}

int
paddock_supervisor_run (PaddockRunOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(PaddockLock) lock = NULL;
  g_autofree char **script_argv = NULL;
  g_autofree char *connect_helper = NULL;
  PaddockSupervisor self = {
    .options = options,
    .tty_fd = -1,
    .signal_fd = -1,
    .exit_status = 1,
    .monitor_socket = { -1, -1 },
    .project_rules_dirs = { -1, -1 },
    .stopped_pipe = { -1, -1 },
  };
  int report[2];
  int msg[2];
  ssize_t n;
  guint signal_source;
  int status;

  raise_fd_limit (&self);
  /* Past a file-size limit, the audit log's write fails (and says so)
   * rather than the signal ending the session. The agent gets the default
   * back with every other signal. */
  signal (SIGXFSZ, SIG_IGN);

  /* Only with the exec monitor: a secret's use is asked and recorded. An
   * outer session's socket is never passed on. */
  if (options->monitor)
    prepare_vault (&self);
  else
    g_unsetenv (PADDOCK_VAULT_SOCKET_ENV);

  if (options->net_locked)
    self.connect_helper = connect_helper = find_connect_helper ();

  /* Everything the lock needs is prepared here, before the fork. */
  if (options->lock)
    {
      g_autoptr(GPtrArray) grants = g_ptr_array_new_with_free_func (g_free);
      PaddockLockOptions lock_options = {
        .project = options->project,
        .command = (const char * const *) options->argv,
        .profile = options->profile,
        .backend = options->lock_backend,
        .policy_file = options->policy_file,
        .audit_file = options->audit_file,
        .home_view = TRUE,
      };

      for (guint i = 0; options->grants != NULL && options->grants[i] != NULL; i++)
        g_ptr_array_add (grants, g_strdup (options->grants[i]));
      /* The vault's socket stays where $PADDOCK_VAULT_SOCKET says, under
       * the lock's private $XDG_RUNTIME_DIR too. */
      /* ssh's ProxyCommand runs from wherever paddock-run is, a build
       * folder too. */
      if (self.connect_helper != NULL)
        g_ptr_array_add (grants, g_strconcat (self.connect_helper, ":ro", NULL));
      if (self.vault != NULL)
        g_ptr_array_add (grants, g_strconcat (paddock_vault_broker_get_folder (self.vault), ":ro", NULL));
      g_ptr_array_add (grants, NULL);
      lock_options.grants = (const char * const *) grants->pdata;

      lock = paddock_lock_new (&lock_options, &error);
      /* The vault must never keep a session from starting: without its
       * grant, the lock goes on, and paddock-secret says it has no vault. */
      if (lock == NULL && self.vault != NULL)
        {
          g_autoptr(GError) vault_error = g_steal_pointer (&error);

          g_ptr_array_remove_index (grants, grants->len - 2);
          lock_options.grants = (const char * const *) grants->pdata;
          lock = paddock_lock_new (&lock_options, &error);
          if (lock != NULL)
            {
              paddock_printerr ("warning: paddock-secret cannot reach this session under the lock: %s",
                                vault_error->message);
              g_clear_pointer (&self.vault, paddock_vault_broker_free);
              g_unsetenv (PADDOCK_VAULT_SOCKET_ENV);
            }
        }
      if (lock == NULL)
        {
          paddock_printerr ("%s", error->message);
          g_clear_pointer (&self.vault, paddock_vault_broker_free);
          return paddock_lock_exit_code (error);
        }
      self.lock = lock;
      warn_hidden_arguments (&self);
    }

  status = prepare_supervision (&self);
  if (status == 0)
    status = prepare_network (&self);
  if (status != 0)
    {
      end_supervision (&self, -1, 0);
      return status;
    }

  self.own_pgrp = getpgrp ();
  self.tty_fd = open_foreground_tty ();

  if (!paddock_process_tree_become_subreaper (&error) ||
      !setup_signals (&self, &error))
    {
      paddock_printerr ("%s", error->message);
      g_clear_pointer (&self.vault, paddock_vault_broker_free);
      return 1;
    }
  paddock_process_tree_hold_children ();

  if (pipe2 (report, O_CLOEXEC) != 0)
    {
      paddock_printerr ("cannot create a pipe: %s", g_strerror (errno));
      g_clear_pointer (&self.vault, paddock_vault_broker_free);
      return 1;
    }

  if (self.lock != NULL && pipe2 (self.stopped_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    {
      paddock_printerr ("cannot create a pipe: %s", g_strerror (errno));
      return 1;
    }

  script_argv = script_argv_new (options);
  self.script_argv = script_argv;
  self.agent = paddock_lock_fork (self.lock);
  if (self.agent < 0)
    {
      paddock_printerr ("cannot start %s: %s", options->argv[0], g_strerror (errno));
      g_clear_pointer (&self.vault, paddock_vault_broker_free);
      return 1;
    }
  if (self.agent == 0)
    {
      close (report[0]);
      run_child (&self, report[1]);
    }

  close (report[1]);
  paddock_close_fd (&self.stopped_pipe[1]);
  start_home_view (&self);
  start_network (&self);
  setpgid (self.agent, self.agent);
  if (self.tty_fd >= 0)
    tcsetpgrp (self.tty_fd, self.agent);

  start_supervision (&self);
  wait_for_report (&self, report[0]);

  /* The report pipe closes on a successful exec; anything read is a failure. */
  do
    n = read (report[0], msg, sizeof msg);
  while (n < 0 && errno == EINTR);
  close (report[0]);
  if (n == sizeof msg)
    {
      paddock_printerr ("%s: %s: %s", options->argv[0],
                        msg[0] >= STEP_LOCK ? paddock_lock_step_name (self.lock, msg[0] - STEP_LOCK)
                        : msg[0] >= STEP_NET ? paddock_net_lock_step_name (msg[0] - STEP_NET)
                        : step_name (msg[0]),
                        g_strerror (msg[1]));
      if (msg[0] == STEP_EXEC && msg[1] == ENOENT)
        {
          g_autofree char *hidden = paddock_lock_describe_hidden (self.lock, options->executable);

          if (hidden != NULL)
            paddock_printerr ("%s", hidden);
        }
      waitpid (self.agent, &status, 0);
      take_back_terminal (&self);
      end_supervision (&self, WIFEXITED (status) ? WEXITSTATUS (status) : -1,
                       WIFSIGNALED (status) ? WTERMSIG (status) : 0);
      return WIFEXITED (status) ? WEXITSTATUS (status) : 126;
    }

  context = g_main_context_ref_thread_default ();
  paddock_limits_watch_poll (context);
  self.loop = g_main_loop_new (context, FALSE);
  signal_source = g_unix_fd_add (self.signal_fd, G_IO_IN, on_signal, &self);
  if (self.stopped_pipe[0] >= 0)
    self.stopped_source = g_unix_fd_add (self.stopped_pipe[0], G_IO_IN | G_IO_HUP | G_IO_ERR,
                                         on_agent_stopped_in_namespace, &self);
  /* A child may have exited before the source existed. */
  reap_children (&self);
  if (!self.agent_exited)
    g_main_loop_run (self.loop);

  g_source_remove (signal_source);
  g_clear_handle_id (&self.stopped_source, g_source_remove);
  paddock_close_fd (&self.stopped_pipe[0]);
  g_clear_handle_id (&self.end_grace_source, g_source_remove);
  take_back_terminal (&self);

  /* The session ends with its agent: nothing it started outlives it unsupervised. */
  {
    g_autoptr(GError) sweep_error = NULL;

    /* An open-file limit lowered under us would keep /proc shut. */
    paddock_limits_restore_nofile ();
    if (!paddock_process_tree_kill (getpid (), &sweep_error))
      {
        /* Without /proc, through the children's list held open since the start. */
        if (paddock_process_tree_kill_children ())
          paddock_printerr ("could not look through /proc for what the agent left (%s): "
                            "ended every process below it instead", sweep_error->message);
        else
          paddock_printerr ("cannot end every process the agent left: %s", sweep_error->message);
      }
  }
  while (waitpid (-1, NULL, 0) > 0 || errno == EINTR)
    ;
  end_supervision (&self, self.exit_signal > 0 ? -1 : self.exit_status, self.exit_signal);

  g_clear_pointer (&self.loop, g_main_loop_unref);
  close (self.signal_fd);
  if (self.tty_fd >= 0)
    close (self.tty_fd);
  return self.exit_status;
}
