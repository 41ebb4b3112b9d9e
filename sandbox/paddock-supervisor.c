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

#include "paddock-lock.h"
#include "paddock-process-tree.h"
#include "paddock-supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
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
  int                exit_status;
  gboolean           agent_exited;
} PaddockSupervisor;

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
  g_clear_pointer (&options->policy_file, g_free);
  g_clear_pointer (&options->audit_file, g_free);
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

enum { STEP_CHDIR = 1, STEP_EXEC, STEP_SIGNALS, STEP_LOCK = 100 /* + the lock's own step */ };

static const char *
step_name (int step)
{
  switch (step)
    {
    case STEP_CHDIR: return "cannot enter the project";
    case STEP_SIGNALS: return "cannot reset signals";
    case STEP_EXEC:
    default: return "cannot run";
    }
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

  if (self->lock != NULL)
    {
      int lock_step = 0;
      int lock_errno = paddock_lock_enter (self->lock, report_fd, &lock_step);

      if (lock_errno != 0)
        child_fail (report_fd, STEP_LOCK + lock_step, lock_errno);
    }

  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      sigaction (sig, &dfl, NULL);
  if (sigprocmask (SIG_SETMASK, &self->old_mask, NULL) != 0)
    child_fail (report_fd, STEP_SIGNALS, errno);

  execv (options->executable, options->argv);
  child_fail (report_fd, STEP_EXEC, errno);
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
        continue;

      if (WIFSTOPPED (status))
        on_agent_stopped (self);
      else if (WIFEXITED (status))
        {
          self->exit_status = WEXITSTATUS (status);
          self->agent_exited = TRUE;
        }
      else if (WIFSIGNALED (status))
        {
          self->exit_status = 128 + WTERMSIG (status);
          self->agent_exited = TRUE;
        }
    }

  if (self->agent_exited)
    g_main_loop_quit (self->loop);
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
      else if (!self->agent_exited)
        kill (self->agent, (int) info.ssi_signo);
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

int
paddock_supervisor_run (PaddockRunOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(PaddockLock) lock = NULL;
  PaddockSupervisor self = {
    .options = options,
    .tty_fd = -1,
    .signal_fd = -1,
    .exit_status = 1,
  };
  int report[2];
  int msg[2];
  ssize_t n;
  guint signal_source;

  /* Everything the lock needs is prepared here, before the fork. */
  if (options->lock)
    {
      lock = paddock_lock_new (options, &error);
      if (lock == NULL)
        {
          g_printerr ("paddock-run: %s\n", error->message);
          return paddock_lock_exit_code (error);
        }
      self.lock = lock;
    }

  self.own_pgrp = getpgrp ();
  self.tty_fd = open_foreground_tty ();

  if (!paddock_process_tree_become_subreaper (&error) ||
      !setup_signals (&self, &error))
    {
      g_printerr ("paddock-run: %s\n", error->message);
      return 1;
    }

  if (pipe2 (report, O_CLOEXEC) != 0)
    {
      g_printerr ("paddock-run: cannot create a pipe: %s\n", g_strerror (errno));
      return 1;
    }

  self.agent = paddock_lock_fork (self.lock);
  if (self.agent < 0)
    {
      g_printerr ("paddock-run: cannot start %s: %s\n", options->argv[0], g_strerror (errno));
      return 1;
    }
  if (self.agent == 0)
    {
      close (report[0]);
      run_child (&self, report[1]);
    }

  close (report[1]);
  setpgid (self.agent, self.agent);
  if (self.tty_fd >= 0)
    tcsetpgrp (self.tty_fd, self.agent);

  /* The report pipe closes on a successful exec; anything read is a failure. */
  do
    n = read (report[0], msg, sizeof msg);
  while (n < 0 && errno == EINTR);
  close (report[0]);
  if (n == sizeof msg)
    {
      int status;

      g_printerr ("paddock-run: %s: %s: %s\n", options->argv[0],
                  msg[0] >= STEP_LOCK ? paddock_lock_step_name (self.lock, msg[0] - STEP_LOCK)
                                      : step_name (msg[0]),
                  g_strerror (msg[1]));
      waitpid (self.agent, &status, 0);
      take_back_terminal (&self);
      return WIFEXITED (status) ? WEXITSTATUS (status) : 126;
    }

  context = g_main_context_ref_thread_default ();
  self.loop = g_main_loop_new (context, FALSE);
  signal_source = g_unix_fd_add (self.signal_fd, G_IO_IN, on_signal, &self);
  /* A child may have exited before the source existed. */
  reap_children (&self);
  if (!self.agent_exited)
    g_main_loop_run (self.loop);

  g_source_remove (signal_source);
  take_back_terminal (&self);

  /* The session ends with its agent: nothing it started outlives it unsupervised. */
  paddock_process_tree_kill (getpid ());
  while (waitpid (-1, NULL, 0) > 0 || errno == EINTR)
    ;

  g_clear_pointer (&self.loop, g_main_loop_unref);
  close (self.signal_fd);
  if (self.tty_fd >= 0)
    close (self.tty_fd);
  return self.exit_status;
}
