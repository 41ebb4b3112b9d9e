/* bench-run.c: one timed run of a command, for the benchmarks
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CPU time comes from wait4(): the command's own and that of every
 * process below it that was waited for, paddock-run's threads included.
 */
#include "config.h"

#include "bench-run.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

gboolean
bench_run (const char * const *argv,
           const char         *cwd,
           char              **envp,
           BenchSample        *sample)
{
  posix_spawn_file_actions_t actions;
  struct rusage usage;
  gint64 start;
  pid_t pid;
  int status;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, 1, "/dev/null", O_WRONLY, 0);
  if (cwd != NULL)
    posix_spawn_file_actions_addchdir_np (&actions, cwd);
  start = g_get_monotonic_time ();
  if (posix_spawnp (&pid, argv[0], &actions, NULL, (char **) argv, envp != NULL ? envp : environ) != 0)
    {
      posix_spawn_file_actions_destroy (&actions);
      return FALSE;
    }
  while (wait4 (pid, &status, 0, &usage) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  sample->wall = (g_get_monotonic_time () - start) / 1000.0;
  sample->cpu = usage.ru_utime.tv_sec * 1000.0 + usage.ru_utime.tv_usec / 1000.0 +
                usage.ru_stime.tv_sec * 1000.0 + usage.ru_stime.tv_usec / 1000.0;
  posix_spawn_file_actions_destroy (&actions);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}
