/* test-lock-processes.c: other processes, limits, setuid and root, IPC, terminals
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-lock-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <grp.h>
#include <stdlib.h>
#include <sched.h>
#include <stddef.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <sys/shm.h>
#include <mqueue.h>
#include <unistd.h>


void
test_proc_self_root (void)
{
  assert_secret_only_unlocked ("cat \"/proc/self/root$HOME/.ssh/id_ed25519\"");
}

/* A process outside the lock, sitting in ~/.ssh with a secret in its environment. */
static GPid
start_outsider (void)
{
  g_autofree char *cwd = g_build_filename (home, ".ssh", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "PADDOCK_SECRET", "PRIVATE-KEY-MATERIAL", TRUE);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sleep", "120", NULL };
  GPid pid;

  g_spawn_async (cwd, (char **) argv, env, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

static void
stop_outsider (GPid pid)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

void
test_proc_cwd (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("cat /proc/%d/cwd/id_ed25519", (int) pid);

  assert_secret_only_unlocked (script);
  stop_outsider (pid);
}

void
test_proc_environ (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("tr '\\0' '\\n' < /proc/%d/environ", (int) pid);

  assert_secret_only_unlocked (script);
  stop_outsider (pid);
}

void
test_proc_mem (void)
{
  GPid pid = start_outsider ();
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' read-mem %d", bindir, (int) pid);
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "read 64 bytes"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "read"));
  stop_outsider (pid);
}


/* Another process's limits, priority and CPUs: an outsider the test
 * started, and paddock-run itself (the shell's parent), whose open-file
 * limit lowered would leave it unable to end the session. As root, once
 * more as a user, whom dropping capabilities does not stop. */
static void
assert_process_only_unlocked (const char *what)
{
  GSpawnChildSetupFunc setups[] = { NULL, test_become_nobody };

  for (guint u = 0; u < (geteuid () == 0 ? 2 : 1); u++)
    {
      const char *argv[] = { "sleep", "120", NULL };
      g_autoptr(GError) error = NULL;
      g_autofree char *outsider = NULL;
      g_autofree char *runner = NULL;
      GPid pid;

      g_spawn_async ("/", (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                     setups[u], NULL, &pid, &error);
      g_assert_no_error (error);
      outsider = g_strdup_printf ("'%s/lock-probe' %s %d", bindir, what, (int) pid);
      runner = g_strdup_printf ("'%s/lock-probe' %s $PPID", bindir, what);

      for (guint i = 0; i < 2; i++)
        {
          const char *script = i == 0 ? outsider : runner;
          g_autoptr(TestResult) free_run = attempt_as (FALSE, NULL, script, NULL, setups[u]);
          g_autoptr(TestResult) locked_run = attempt_as (TRUE, NULL, script, NULL, setups[u]);

          g_assert_cmpint (free_run->status, ==, 0);
          g_assert_nonnull (strstr (free_run->out, "changed"));
          g_assert_cmpint (locked_run->status, !=, 0);
          g_assert_null (strstr (locked_run->out, "changed"));
        }
      stop_outsider (pid);
    }
}

void
test_prlimit_outside (void)
{
  assert_process_only_unlocked ("prlimit");
}

void
test_setpriority_outside (void)
{
  assert_process_only_unlocked ("renice");
}

void
test_affinity_outside (void)
{
  assert_process_only_unlocked ("affinity");
}

/* A process outside the lock whose command line holds a marker. Under
 * the namespaces backend its /proc shows none of them; under Landlock the
 * host's /proc stays, and with it other processes' command lines (a PID
 * namespace would be needed for a /proc of the agent's own): not run there. */
void
test_proc_cmdline (void)
{
  /* sleep, named by the marker: the process the test kills is the one that holds it. */
  const char *argv[] = { "sleep", "OUTSIDE-CMDLINE-MARKER", "120", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *script = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  GPid pid;

  g_spawn_async ("/", (char **) argv, NULL,
                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_FILE_AND_ARGV_ZERO,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  script = g_strdup_printf ("tr '\\0' ' ' < /proc/%d/cmdline", (int) pid);
  free_run = attempt (FALSE, script);
  locked_run = attempt (TRUE, script);
  stop_outsider (pid);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "OUTSIDE-CMDLINE-MARKER"));
  g_assert_null (strstr (locked_run->out, "OUTSIDE-CMDLINE-MARKER"));
}

/* What a build does to itself stays possible under the lock. */
void
test_own_limits (void)
{
  g_autoptr(TestResult) locked_run = attempt (TRUE, "ulimit -n 256 && ulimit -f 100000 && "
                                                    "nice -n 5 true && taskset -c 0 true && "
                                                    "ionice -c 3 true && echo fine");

  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_cmpstr (locked_run->out, ==, "fine\n");
}

void
test_setuid (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/suid-probe' euid", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("making a setuid copy owned by another user needs root");
      return;
    }
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "euid=65534\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_cmpstr (locked_run->out, ==, "euid=0\n");
}

/* A file the launching shell left open, as "7>>file" would, outside the project. */
static char *left_open_path;

static void
leave_fd_open (gpointer user_data)
{
  int fd = open (left_open_path, O_WRONLY | O_APPEND);

  if (fd < 0 || dup2 (fd, 7) != 7)
    _exit (125);
  close (fd);
}

void
test_inherited_fd (void)
{
  g_autofree char *target = out_path ("left-open");
  const char *script = "echo pwned >&7; echo pwned >> /proc/self/fd/7";
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  left_open_path = target;
  write_file (target, "outside\n");
  free_run = attempt_as (FALSE, NULL, script, NULL, leave_fd_open);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt_as (TRUE, NULL, script, NULL, leave_fd_open);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
  left_open_path = NULL;
}

/* --- root under the lock: no capabilities, no setuid leftovers ------------ */

static gboolean
skip_unless_root (void)
{
  if (geteuid () == 0)
    return FALSE;
  g_test_skip ("what root may do without the lock needs root");
  return TRUE;
}

void
test_root_read_shadow (void)
{
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  if (!g_file_test ("/etc/shadow", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /etc/shadow here");
      return;
    }
  free_run = attempt (FALSE, "grep -c : /etc/shadow");
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (atoi (free_run->out), >, 0);
  /* The namespaces backend shows a node every open of which fails. */
  locked_run = attempt (TRUE, "grep -c : /etc/shadow");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (atoi (locked_run->out), ==, 0);
}

void
test_root_raw_socket (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' raw-socket", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "raw socket"));
}

void
test_root_chown (void)
{
  g_autofree char *file = g_build_filename (project, "owned", NULL);
  struct stat st;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  write_file (file, "mine\n");
  free_run = attempt (FALSE, "chown 65534 owned");
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_uid, ==, 65534);

  g_assert_cmpint (chown (file, 0, 0), ==, 0);
  locked_run = attempt (TRUE, "chown 65534 owned");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_uid, ==, 0);
  g_unlink (file);
}

void
test_setuid_bit (void)
{
  g_autofree char *file = g_build_filename (project, "tool", NULL);
  g_autofree char *made = g_build_filename (project, "made", NULL);
  g_autofree char *script = g_strdup_printf ("chmod u+s tool; chmod g+s tool; '%s/lock-probe' create-setuid made",
                                             bindir);
  struct stat st;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (file, "#!/bin/sh\n");
  g_assert_cmpint (chmod (file, 0755), ==, 0);
  g_unlink (made);
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & (S_ISUID | S_ISGID), ==, S_ISUID | S_ISGID);
  g_assert_cmpint (stat (made, &st), ==, 0);
  g_assert_cmpint (st.st_mode & S_ISUID, ==, S_ISUID);

  g_assert_cmpint (chmod (file, 0755), ==, 0);
  g_unlink (made);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & (S_ISUID | S_ISGID), ==, 0);
  g_assert_false (stat (made, &st) == 0 && (st.st_mode & S_ISUID));
  g_unlink (file);
  g_unlink (made);
}

void
test_root_setcap (void)
{
  g_autofree char *file = g_build_filename (project, "capable", NULL);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' setcap capable", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (skip_unless_root ())
    return;
  write_file (file, "#!/bin/sh\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (getxattr (file, "security.capability", NULL, 0), >, 0);

  g_assert_cmpint (removexattr (file, "security.capability"), ==, 0);
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpint (getxattr (file, "security.capability", NULL, 0), <, 0);
  g_unlink (file);
}

/* --- IPC: named by keys, outside every file system ------------------------ */


static void
assert_shm_only_unlocked (GSpawnChildSetupFunc setup)
{
  key_t key = (key_t) (0x50AD0000 | (getpid () & 0xffff));
  int id = shmget (key, 4096, IPC_CREAT | IPC_EXCL | 0666);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' shm %d", bindir, (int) key);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  char *memory;

  g_assert_cmpint (id, >=, 0);
  memory = shmat (id, NULL, 0);
  g_assert_true (memory != (void *) -1);
  strcpy (memory, "OUTSIDE-SHM-MARKER");

  free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  locked_run = attempt_as (TRUE, NULL, script, NULL, setup);
  shmdt (memory);
  shmctl (id, IPC_RMID, NULL);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "OUTSIDE-SHM-MARKER"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "OUTSIDE-SHM-MARKER"));
}

void
test_sysv_shm (void)
{
  assert_shm_only_unlocked (NULL);
}

/* A user who is not root gets the IPC namespace inside a user namespace. */
void
test_sysv_shm_unprivileged (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, sysv-shm covers this)");
      return;
    }
  assert_shm_only_unlocked (test_become_nobody);
}

void
test_posix_mqueue (void)
{
  g_autofree char *name = g_strdup_printf ("/paddock-test-%d", (int) getpid ());
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' mq %s", bindir, name);
  mqd_t mq = mq_open (name, O_CREAT | O_EXCL | O_RDWR, 0666, NULL);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  g_assert_true (mq != (mqd_t) -1);
  free_run = attempt (FALSE, script);
  locked_run = attempt (TRUE, script);
  mq_close (mq);
  mq_unlink (name);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "opened"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "opened"));
}

void
test_unshare_user (void)
{
  g_autoptr(TestResult) free_run = attempt (FALSE, "unshare -U true");
  g_autoptr(TestResult) locked_run = attempt (TRUE, "unshare -U true");

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpint (locked_run->status, !=, 0);
}

void
test_tiocsti (void)
{
  const char *sysctl = "/proc/sys/dev/tty/legacy_tiocsti";
  g_autofree char *saved = read_file (sysctl);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' tiocsti", bindir);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;
  gboolean restore = FALSE;

  /* Since Linux 6.2 the kernel may refuse TIOCSTI to everyone; then the
   * attempt cannot succeed without the lock either. */
  if (saved != NULL && saved[0] == '0')
    {
      if (geteuid () != 0)
        {
          g_test_skip ("dev.tty.legacy_tiocsti is 0, so TIOCSTI cannot succeed even unlocked");
          return;
        }
      write_file (sysctl, "1\n");
      restore = TRUE;
    }

  free_run = attempt_in_pty (FALSE, NULL, script, NULL, NULL);
  locked_run = attempt_in_pty (TRUE, NULL, script, NULL, NULL);
  if (restore)
    write_file (sysctl, saved);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "injected"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "injected"));
}

void
test_signal_supervisor (void)
{
  g_autofree char *pid_file = g_build_filename (project, "runner.pid", NULL);
  g_autofree char *script = g_strdup_printf (
    "while [ ! -s '%s' ]; do sleep 0.01; done; kill -KILL $(cat '%s') && sleep 1; echo survived",
    pid_file, pid_file);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  if (strcmp (backend, "landlock") == 0)
    {
      long abi = syscall (444 /* landlock_create_ruleset */, NULL, 0, 1);
      if (abi < 6)
        {
          g_test_skip ("Landlock ABI < 6 cannot scope signals");
          return;
        }
    }

  g_unlink (pid_file);
  free_run = attempt_full (FALSE, NULL, script, pid_file);
  g_assert_cmpint (free_run->status, ==, 128 + SIGKILL);

  g_unlink (pid_file);
  locked_run = attempt_full (TRUE, NULL, script, pid_file);
  g_assert_cmpint (locked_run->status, ==, 0);
  g_assert_nonnull (strstr (locked_run->out, "survived"));
  g_unlink (pid_file);
}

/* A terminal of the user's other than the session's own. */
void
test_other_terminal (void)
{
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_autofree char *script = NULL;
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) free_run = NULL;
  struct pollfd pfd = { .events = POLLIN };
  char byte = 0;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  script = g_strdup_printf ("'%s/lock-probe' terminal '%s'", bindir, ptsname (master));

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");

  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "opened\n");
  /* What the probe wrote shows in the other terminal: the first byte there. */
  pfd.fd = master;
  g_assert_cmpint (poll (&pfd, 1, 60 * 1000), ==, 1);
  g_assert_cmpint (read (master, &byte, 1), ==, 1);
  g_assert_cmpint (byte, ==, 'X');
  close (master);
}

/* The session's own terminal stays the agent's: its size, /dev/tty, its
 * reopening through /proc/self/fd, and ptys of its own (script, tmux, an
 * agent's shell tool). */
void
test_own_terminal (void)
{
  g_autoptr(TestResult) run = attempt_in_pty (TRUE, NULL,
    "stty size && echo typed >/dev/tty && echo reopened >/dev/stdout && "
    "script -qec 'echo inner-$((6*7))' /dev/null && echo done",
    NULL, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "24 80\r\n"));
  g_assert_nonnull (strstr (run->out, "typed\r\n"));
  g_assert_nonnull (strstr (run->out, "reopened\r\n"));
  g_assert_nonnull (strstr (run->out, "inner-42"));
  g_assert_nonnull (strstr (run->out, "done"));
}
