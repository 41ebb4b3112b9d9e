/* lock-probe.c: small attempts for the escape suites, one per word
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   lock-probe euid          prints the effective uid (for the setuid test)
 *   lock-probe tiocsti       pushes a byte into the terminal on stdin
 *   lock-probe read-mem PID  reads a page of PID's memory through /proc
 *   lock-probe connect PATH  connects to the Unix socket at PATH (@NAME: abstract)
 *   lock-probe listener      installs a seccomp filter that sends its execs
 *                            to a listener of its own (the exec monitor's way)
 *   lock-probe stat PATH     learns that PATH is there, and its size
 *   lock-probe chmod PATH    makes PATH readable by everyone
 *   lock-probe utime PATH    sets PATH's times to the epoch
 *   lock-probe setxattr PATH sets the extended attribute user.paddock on PATH
 *   lock-probe terminal PATH opens the terminal at PATH for reading and
 *                            writing, and writes to it
 *   lock-probe raw-socket    opens a raw IPv4 socket (CAP_NET_RAW)
 *   lock-probe setcap FILE   gives FILE a file capability (security.capability)
 *   lock-probe create-setuid FILE  creates FILE with mode 04755
 *   lock-probe shm KEY       attaches the System V shared memory segment KEY
 *   lock-probe mq NAME       opens the POSIX message queue NAME
 *   lock-probe prlimit PID   sets PID's open-file limit to what it is
 *   lock-probe renice PID    sets PID's priority to what it is
 *   lock-probe affinity PID  sets PID's CPUs to what they are
 *
 * Exits 0 when the attempt succeeded, 1 when it was refused.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sched.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* Under the sanitizer build: the setuid copy is not dumpable, so
 * LeakSanitizer could not stop its threads and would fail every run. A
 * program that lives for one system call has nothing to leak. */
int __lsan_is_turned_off (void);

int
__lsan_is_turned_off (void)
{
  return 1;
}

static int
connect_to (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  socklen_t len;
  int fd;

  if (strlen (path) >= sizeof addr.sun_path)
    {
      fprintf (stderr, "lock-probe: %s: name too long\n", path);
      return 2;
    }
  strcpy (addr.sun_path, path);
  len = offsetof (struct sockaddr_un, sun_path) + strlen (path);
  if (path[0] == '@')
    addr.sun_path[0] = '\0';
  else
    len++;

  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, len) != 0)
    {
      fprintf (stderr, "lock-probe: connect %s: %s\n", path, strerror (errno));
      return 1;
    }
  close (fd);
  printf ("connected\n");
  return 0;
}

static int
read_mem (const char *pid)
{
  char path[64], line[512], buf[64];
  unsigned long start, end;
  char perms[8];
  FILE *maps;
  int fd;

  snprintf (path, sizeof path, "/proc/%s/maps", pid);
  maps = fopen (path, "r");
  if (maps == NULL)
    {
      fprintf (stderr, "lock-probe: %s: %s\n", path, strerror (errno));
      return 1;
    }
  while (fgets (line, sizeof line, maps) != NULL)
    if (sscanf (line, "%lx-%lx %7s", &start, &end, perms) == 3 && perms[0] == 'r')
      break;
  fclose (maps);

  snprintf (path, sizeof path, "/proc/%s/mem", pid);
  fd = open (path, O_RDONLY);
  if (fd < 0 || pread (fd, buf, sizeof buf, (off_t) start) != (ssize_t) sizeof buf)
    {
      fprintf (stderr, "lock-probe: %s: %s\n", path, strerror (errno));
      return 1;
    }
  close (fd);
  printf ("read %zu bytes\n", sizeof buf);
  return 0;
}

/* A program that took its own execs' notifications would answer for them
 * itself, past the exec monitor. */
static int
take_listener (void)
{
  struct sock_filter code[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = { sizeof code / sizeof code[0], code };
  int fd;

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      fprintf (stderr, "lock-probe: no_new_privs: %s\n", strerror (errno));
      return 1;
    }
  fd = (int) syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &program);
  if (fd < 0)
    {
      fprintf (stderr, "lock-probe: a listener of its own: %s\n", strerror (errno));
      return 1;
    }
  printf ("listening\n");
  return 0;
}

/* Metadata that Landlock does not govern. */
static int
change_metadata (const char *what,
                 const char *path)
{
  struct timespec epoch[2] = { { 0, 0 }, { 0, 0 } };
  struct stat st;
  int ret;

  if (strcmp (what, "stat") == 0)
    ret = stat (path, &st);
  else if (strcmp (what, "chmod") == 0)
    ret = chmod (path, 0644);
  else if (strcmp (what, "utime") == 0)
    ret = utimensat (AT_FDCWD, path, epoch, 0);
  else
    ret = setxattr (path, "user.paddock", "1", 1, 0);
  if (ret != 0)
    {
      fprintf (stderr, "lock-probe: %s %s: %s\n", what, path, strerror (errno));
      return 1;
    }
  if (strcmp (what, "stat") == 0)
    printf ("size %lld\n", (long long) st.st_size);
  else
    printf ("changed\n");
  return 0;
}

/* Another terminal: what the user types there could be read, and what
 * shows there written. */
static int
open_terminal (const char *path)
{
  int fd = open (path, O_RDWR | O_NOCTTY | O_CLOEXEC);

  if (fd < 0 || write (fd, "X", 1) != 1)
    {
      fprintf (stderr, "lock-probe: terminal %s: %s\n", path, strerror (errno));
      return 1;
    }
  close (fd);
  printf ("opened\n");
  return 0;
}

static int
refused (const char *what)
{
  fprintf (stderr, "lock-probe: %s: %s\n", what, strerror (errno));
  return 1;
}

static int
raw_socket (void)
{
  int fd = socket (AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);

  if (fd < 0)
    return refused ("raw socket");
  close (fd);
  printf ("raw socket\n");
  return 0;
}

static int
set_file_capability (const char *path)
{
  struct vfs_cap_data data = { .magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE };

  data.data[0].permitted = 1u << CAP_NET_RAW;
  if (setxattr (path, "security.capability", &data, XATTR_CAPS_SZ_2, 0) != 0)
    return refused ("security.capability");
  printf ("capability set\n");
  return 0;
}

static int
create_setuid (const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 04755);
  struct stat st;

  if (fd < 0)
    return refused (path);
  if (fstat (fd, &st) != 0 || !(st.st_mode & S_ISUID))
    {
      close (fd);
      fprintf (stderr, "lock-probe: %s: made without its setuid bit\n", path);
      return 1;
    }
  close (fd);
  printf ("setuid file\n");
  return 0;
}

static int
attach_shm (const char *key)
{
  int id = shmget ((key_t) strtol (key, NULL, 0), 0, 0);
  void *at;

  if (id < 0)
    return refused ("shmget");
  at = shmat (id, NULL, SHM_RDONLY);
  if (at == (void *) -1)
    return refused ("shmat");
  printf ("attached: %.32s\n", (const char *) at);
  shmdt (at);
  return 0;
}

static int
open_mq (const char *name)
{
  mqd_t mq = mq_open (name, O_RDONLY);

  if (mq == (mqd_t) -1)
    return refused ("mq_open");
  mq_close (mq);
  printf ("opened\n");
  return 0;
}

/* Another process's limit, priority or CPUs, each set to what it is: the
 * attempt succeeds or is refused without changing anything. */
static int
address_process (const char *what,
                 const char *pid_text)
{
  pid_t pid = (pid_t) atoi (pid_text);

  if (strcmp (what, "prlimit") == 0)
    {
      struct rlimit limit;

      if (prlimit (pid, RLIMIT_NOFILE, NULL, &limit) != 0 ||
          prlimit (pid, RLIMIT_NOFILE, &limit, NULL) != 0)
        return refused ("prlimit");
    }
  else if (strcmp (what, "renice") == 0)
    {
      int nice;

      errno = 0;
      nice = getpriority (PRIO_PROCESS, (id_t) pid);
      if ((nice == -1 && errno != 0) || setpriority (PRIO_PROCESS, (id_t) pid, nice) != 0)
        return refused ("setpriority");
    }
  else
    {
      cpu_set_t cpus;

      if (sched_getaffinity (pid, sizeof cpus, &cpus) != 0 ||
          sched_setaffinity (pid, sizeof cpus, &cpus) != 0)
        return refused ("sched_setaffinity");
    }
  printf ("changed %d\n", (int) pid);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 2 && strcmp (argv[1], "euid") == 0)
    {
      printf ("euid=%u\n", (unsigned) geteuid ());
      return 0;
    }
  if (argc >= 2 && strcmp (argv[1], "tiocsti") == 0)
    {
      char c = '#';
      if (ioctl (0, TIOCSTI, &c) != 0)
        {
          fprintf (stderr, "lock-probe: TIOCSTI: %s\n", strerror (errno));
          return 1;
        }
      printf ("injected\n");
      return 0;
    }
  if (argc >= 3 && strcmp (argv[1], "read-mem") == 0)
    return read_mem (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "connect") == 0)
    return connect_to (argv[2]);
  if (argc >= 2 && strcmp (argv[1], "listener") == 0)
    return take_listener ();
  if (argc >= 3 && (strcmp (argv[1], "stat") == 0 || strcmp (argv[1], "chmod") == 0 ||
                    strcmp (argv[1], "utime") == 0 || strcmp (argv[1], "setxattr") == 0))
    return change_metadata (argv[1], argv[2]);
  if (argc >= 3 && strcmp (argv[1], "terminal") == 0)
    return open_terminal (argv[2]);

  if (argc >= 2 && strcmp (argv[1], "raw-socket") == 0)
    return raw_socket ();
  if (argc >= 3 && strcmp (argv[1], "setcap") == 0)
    return set_file_capability (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "create-setuid") == 0)
    return create_setuid (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "shm") == 0)
    return attach_shm (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "mq") == 0)
    return open_mq (argv[2]);
  if (argc >= 3 && (strcmp (argv[1], "prlimit") == 0 || strcmp (argv[1], "renice") == 0 ||
                    strcmp (argv[1], "affinity") == 0))
    return address_process (argv[1], argv[2]);

  fprintf (stderr, "usage: lock-probe euid|tiocsti|read-mem PID|connect PATH|listener|stat PATH|chmod PATH|\n"
                   "       utime PATH|setxattr PATH|terminal PATH|raw-socket|setcap FILE|\n"
                   "       create-setuid FILE|shm KEY|mq NAME|prlimit PID|renice PID|affinity PID\n");
  return 2;
}
