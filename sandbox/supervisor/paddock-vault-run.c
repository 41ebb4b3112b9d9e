/* paddock-vault-run.c: a vaulted program: forked from paddock-run under the folder lock, its output redacted
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The program is paddock-run's child, never the agent's: it enters the
 * session's lock on its own, so its Landlock domain is a sibling of the
 * agent's, not below it, and the kernel keeps the agent from tracing it,
 * signalling it or reading its /proc entries. It runs the very file the
 * broker hashed (execveat on the open descriptor).
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-redactor.h"
#include "paddock-vault-broker-private.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

enum { STEP_STDIO = 1, STEP_TERMINAL, STEP_CWD, STEP_SIGNALS, STEP_EXEC, STEP_LOCK = 100 };

/* Only async-signal-safe calls: paddock-run has threads. */
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

G_GNUC_NORETURN static void
run_child (const PaddockVaultChild *child,
           int                      report_fd)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigset_t none;
  int fds[3];

  /* Its own session: the agent's terminal's job control is not its. */
  setsid ();

  /* Above 2 first, so that dup2 onto 0-2 never overwrites another. */
  for (int i = 0; i < 3; i++)
    if ((fds[i] = fcntl (child->stdio[i], F_DUPFD_CLOEXEC, 3)) < 0)
      child_fail (report_fd, STEP_STDIO, errno);
  for (int i = 0; i < 3; i++)
    if (dup2 (fds[i], i) != i)
      child_fail (report_fd, STEP_STDIO, errno);
  if (child->terminal && ioctl (STDOUT_FILENO, TIOCSCTTY, 0) != 0)
    child_fail (report_fd, STEP_TERMINAL, errno);

  if (fchdir (child->cwd_fd) != 0)
    child_fail (report_fd, STEP_CWD, errno);

  if (child->lock != NULL)
    {
      int lock_step = 0;
      int lock_errno = paddock_lock_enter (child->lock, report_fd, -1, &lock_step);

      if (lock_errno != 0)
        child_fail (report_fd, STEP_LOCK + lock_step, lock_errno);
    }

  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      sigaction (sig, &dfl, NULL);
  sigemptyset (&none);
  if (sigprocmask (SIG_SETMASK, &none, NULL) != 0)
    child_fail (report_fd, STEP_SIGNALS, errno);

  /* A script's interpreter opens it again as /dev/fd/N. */
  if (child->exe_is_script && fcntl (child->exe_fd, F_SETFD, 0) != 0)
    child_fail (report_fd, STEP_EXEC, errno);
  syscall (SYS_execveat, child->exe_fd, "", (char * const *) child->argv, (char * const *) child->envp,
           AT_EMPTY_PATH);
  child_fail (report_fd, STEP_EXEC, errno);
}

static const char *
step_name (PaddockLock *lock,
           int          step)
{
  switch (step)
    {
    case STEP_STDIO: return "cannot pass on its standard input and output";
    case STEP_TERMINAL: return "cannot give it a terminal";
    case STEP_CWD: return "cannot enter the working directory";
    case STEP_SIGNALS: return "cannot reset signals";
    case STEP_EXEC: return "cannot run";
    default:
      return step >= STEP_LOCK ? paddock_lock_step_name (lock, step - STEP_LOCK) : "cannot start";
    }
}

pid_t
paddock_vault_child_spawn (const PaddockVaultChild *child,
                           GError                 **error)
{
  int report[2];
  int msg[2];
  ssize_t n;
  pid_t pid;

  if (pipe2 (report, O_CLOEXEC) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "cannot create a pipe: %s", g_strerror (errno));
      return -1;
    }
  pid = paddock_lock_fork (child->lock);
  if (pid < 0)
    {
      int saved_errno = errno;

      close (report[0]);
      close (report[1]);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot start %s: %s", child->argv[0], g_strerror (saved_errno));
      return -1;
    }
  if (pid == 0)
    {
      close (report[0]);
      run_child (child, report[1]);
    }
  close (report[1]);

  /* The pipe closes on a successful exec; anything read is a failure. */
  do
    n = read (report[0], msg, sizeof msg);
  while (n < 0 && errno == EINTR);
  close (report[0]);
  if (n == sizeof msg)
    {
      /* The supervisor's reaper collects it. */
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (msg[1]),
                   "%s: %s: %s", child->argv[0], step_name (child->lock, msg[0]), g_strerror (msg[1]));
      return -1;
    }
  return pid;
}

/* The pump */

#define CHUNK 4096

struct _PaddockVaultPump
{
  int              output;
  int              errors;
  int              input;
  int              caller_out;
  int              caller_err;
  int              stop_fd;           /* an eventfd: the session ends */
  PaddockRedactor *out_redactor;
  PaddockRedactor *err_redactor;
  GByteArray      *pending_input;     /* for the pty, not yet taken */
  GThread         *thread;
  int              done_fd;           /* an eventfd: every output ended */
};

/* Writes all of @data to @fd, a descriptor the agent shares (so never
 * made non-blocking here): a chunk at a time once poll says it has room,
 * ending early when the session ends or nobody reads any more. */
static gboolean
write_all (PaddockVaultPump *pump,
           int               fd,
           const guint8     *data,
           gsize             length)
{
  while (length > 0)
    {
      struct pollfd fds[2] = { { .fd = fd, .events = POLLOUT }, { .fd = pump->stop_fd, .events = POLLIN } };
      ssize_t n;

      if (poll (fds, 2, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      if (fds[1].revents != 0)
        return FALSE;
      if (fds[0].revents & (POLLERR | POLLNVAL))
        return FALSE;
      n = write (fd, data, MIN (length, CHUNK));
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static void
pass_on (PaddockVaultPump *pump,
         int               caller_fd,
         GByteArray       *out)
{
  if (out->len > 0 && caller_fd >= 0 && !write_all (pump, caller_fd, out->data, out->len))
    {
      /* Nobody reads it: the program's output goes nowhere from here. */
      if (caller_fd == pump->caller_out)
        pump->caller_out = -1;
      else
        pump->caller_err = -1;
    }
  g_byte_array_set_size (out, 0);
}

/* Reads what @fd has; FALSE at its end. */
static gboolean
pump_output (PaddockVaultPump *pump,
             int               fd,
             PaddockRedactor  *redactor,
             int               caller_fd,
             GByteArray       *out)
{
  guint8 buffer[CHUNK * 4];
  ssize_t n;

  do
    n = read (fd, buffer, sizeof buffer);
  while (n < 0 && errno == EINTR);
  /* A pty's master reads EIO once the last slave closed. */
  if (n <= 0)
    {
      if (n < 0 && errno == EAGAIN)
        return TRUE;
      paddock_redactor_flush (redactor, out);
      pass_on (pump, caller_fd, out);
      return FALSE;
    }
  paddock_redactor_feed (redactor, buffer, (gsize) n, out);
  pass_on (pump, caller_fd, out);
  return TRUE;
}

static void
pump_input (PaddockVaultPump *pump)
{
  guint8 buffer[CHUNK];
  ssize_t n;

  do
    n = read (pump->input, buffer, sizeof buffer);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    {
      if (n < 0 && errno == EAGAIN)
        return;
      paddock_close_fd (&pump->input);
      return;
    }
  g_byte_array_append (pump->pending_input, buffer, (guint) n);
}

static void
pump_pending_input (PaddockVaultPump *pump)
{
  ssize_t n;

  do
    n = write (pump->output, pump->pending_input->data, pump->pending_input->len);
  while (n < 0 && errno == EINTR);
  if (n > 0)
    g_byte_array_remove_range (pump->pending_input, 0, (guint) n);
  else if (n < 0 && errno != EAGAIN)
    g_byte_array_set_size (pump->pending_input, 0);
}

static gpointer
pump_thread (gpointer data)
{
  PaddockVaultPump *pump = data;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gboolean held = FALSE;
  gboolean idle_flushed = FALSE;

  while (pump->output >= 0 || pump->errors >= 0)
    {
      struct pollfd fds[4];
      nfds_t n = 0;
      int ready;
      int i_out = -1, i_err = -1, i_in = -1;

      fds[n++] = (struct pollfd) { .fd = pump->stop_fd, .events = POLLIN };
      if (pump->output >= 0)
        {
          i_out = (int) n;
          fds[n++] = (struct pollfd) { .fd = pump->output,
                                       .events = POLLIN | (pump->pending_input->len > 0 ? POLLOUT : 0) };
        }
      if (pump->errors >= 0)
        {
          i_err = (int) n;
          fds[n++] = (struct pollfd) { .fd = pump->errors, .events = POLLIN };
        }
      if (pump->input >= 0 && pump->pending_input->len < 64 * 1024)
        {
          i_in = (int) n;
          fds[n++] = (struct pollfd) { .fd = pump->input, .events = POLLIN };
        }

      /* What the redactor holds back, as the possible start of a secret,
       * is shown once the program is quiet, once: a prompt must show. */
      held = !idle_flushed &&
             (paddock_redactor_held (pump->out_redactor) > 0 || paddock_redactor_held (pump->err_redactor) > 0);
      ready = poll (fds, n, held ? PADDOCK_REDACTOR_IDLE_MS : -1);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready < 0 || fds[0].revents != 0)
        break;
      if (ready == 0)
        {
          /* Quiet: what the redactor held back goes out, so prompts show. */
          paddock_redactor_flush_idle (pump->out_redactor, out);
          pass_on (pump, pump->caller_out, out);
          paddock_redactor_flush_idle (pump->err_redactor, out);
          pass_on (pump, pump->caller_err, out);
          idle_flushed = TRUE;
          continue;
        }
      if (i_in >= 0 && fds[i_in].revents != 0)
        pump_input (pump);
      if (i_out >= 0 && (fds[i_out].revents & POLLOUT))
        pump_pending_input (pump);
      if ((i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP | POLLERR))) ||
          (i_err >= 0 && (fds[i_err].revents & (POLLIN | POLLHUP | POLLERR))))
        idle_flushed = FALSE;
      if (i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP | POLLERR)))
        {
          if (!pump_output (pump, pump->output, pump->out_redactor, pump->caller_out, out))
            paddock_close_fd (&pump->output);
        }
      if (i_err >= 0 && (fds[i_err].revents & (POLLIN | POLLHUP | POLLERR)))
        {
          if (!pump_output (pump, pump->errors, pump->err_redactor, pump->caller_err, out))
            paddock_close_fd (&pump->errors);
        }
    }

  paddock_close_fd (&pump->output);
  paddock_close_fd (&pump->errors);
  paddock_close_fd (&pump->input);
  {
    guint64 one = 1;

    if (write (pump->done_fd, &one, sizeof one) < 0)
      g_warning ("cannot tell that a vaulted program's output ended: %s", g_strerror (errno));
  }
  return NULL;
}

PaddockVaultPump *
paddock_vault_pump_start (const PaddockVaultPumpSetup *setup)
{
  PaddockVaultPump *pump = g_new0 (PaddockVaultPump, 1);

  pump->output = setup->output;
  pump->errors = setup->errors;
  pump->input = setup->input;
  pump->caller_out = setup->caller_out;
  pump->caller_err = setup->caller_err;
  pump->stop_fd = eventfd (0, EFD_CLOEXEC);
  pump->out_redactor = setup->redactor;
  pump->err_redactor = paddock_redactor_copy (setup->redactor);
  pump->pending_input = g_byte_array_new ();
  pump->done_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  /* The pty's master is written from here, between reads: never block on it. */
  if (pump->input >= 0)
    fcntl (pump->output, F_SETFL, fcntl (pump->output, F_GETFL) | O_NONBLOCK);
  pump->thread = g_thread_new ("paddock-vault-pump", pump_thread, pump);
  return pump;
}

int
paddock_vault_pump_get_done_fd (PaddockVaultPump *pump)
{
  return pump->done_fd;
}

void
paddock_vault_pump_free (PaddockVaultPump *pump)
{
  guint64 one = 1;

  if (pump == NULL)
    return;
  if (write (pump->stop_fd, &one, sizeof one) < 0)
    g_warning ("cannot stop a vaulted program's output: %s", g_strerror (errno));
  g_thread_join (pump->thread);
  paddock_close_fd (&pump->stop_fd);
  paddock_redactor_free (pump->out_redactor);
  paddock_redactor_free (pump->err_redactor);
  g_byte_array_unref (pump->pending_input);
  paddock_close_fd (&pump->done_fd);
  g_free (pump);
}
