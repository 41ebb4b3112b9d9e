/* bench-exec-paired.c: what one exec costs under the monitor, to a few microseconds
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-exec times whole runs, whose ratios move by a tenth from one round
 * to the next on these shared machines: enough to read a target against,
 * too coarse to tell one change from another. This one keeps three servers
 * running side by side, each the same program (this one, "serve N"): bare,
 * under bench-notifier, and under paddock-run (default policy, audit log
 * on). A round asks each, in a shuffled order, for N fork+exec+wait of
 * /bin/true, and each answers with the time they took. So the three meet
 * the machine at nearly the same moment, and the median of the paired
 * differences to bare says what an exec costs each, to about ten
 * microseconds. Prints those, and their share of a bare iteration.
 * Asserts nothing about time.
 * PADDOCK_BENCH_ROUNDS sets the rounds (default 150).
 * PADDOCK_BENCH_BASELINE_RUN names another paddock-run (an earlier build)
 * to run as a fourth server beside the others: the paired difference
 * between the two says what a change cost per exec.
 */
#include "config.h"

#include "bench-run.h"
#include "test-util.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXECS_PER_ROUND 50

/* The server: for each byte read, @n fork+exec+wait of /bin/true, then
 * the nanoseconds they took. */
static int
serve (int n)
{
  char *const true_argv[] = { (char *) "/bin/true", NULL };
  char request;

  while (read (STDIN_FILENO, &request, 1) == 1)
    {
      struct timespec start, end;
      gint64 ns;

      clock_gettime (CLOCK_MONOTONIC, &start);
      for (int i = 0; i < n; i++)
        {
          pid_t pid = fork ();
          int status;

          if (pid == 0)
            {
              execv (true_argv[0], true_argv);
              _exit (127);
            }
          if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
            return 1;
        }
      clock_gettime (CLOCK_MONOTONIC, &end);
      ns = (gint64) (end.tv_sec - start.tv_sec) * G_GINT64_CONSTANT (1000000000) + (end.tv_nsec - start.tv_nsec);
      if (write (STDOUT_FILENO, &ns, sizeof ns) != sizeof ns)
        return 1;
    }
  return 0;
}

typedef struct
{
  const char *name;
  GPid        pid;
  int         in;      /* requests to it */
  int         out;     /* its answers */
  GArray     *us;      /* per exec, each round */
} Server;

static void
server_start (Server              *server,
              const char * const  *argv,
              char               **envp)
{
  g_autoptr(GError) error = NULL;

  g_spawn_async_with_pipes (NULL, (char **) argv, envp, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                            NULL, NULL, &server->pid, &server->in, &server->out, NULL, &error);
  g_assert_no_error (error);
  server->us = g_array_new (FALSE, FALSE, sizeof (double));
}

static double
server_ask (Server *server)
{
  gint64 ns;
  gsize got = 0;

  if (write (server->in, "x", 1) != 1)
    g_error ("%s: cannot ask: %s", server->name, g_strerror (errno));
  while (got < sizeof ns)
    {
      ssize_t n = read (server->out, (char *) &ns + got, sizeof ns - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        g_error ("%s: no answer (did an exec fail?)", server->name);
      got += n;
    }
  return (double) ns / EXECS_PER_ROUND / 1000.0;
}

static void
server_stop (Server *server)
{
  int status;

  close (server->in);
  close (server->out);
  waitpid (server->pid, &status, 0);
  g_spawn_close_pid (server->pid);
  g_array_unref (server->us);
}

/* The median of @a's rounds minus @b's, round by round. */
static double
paired_median (GArray *a,
               GArray *b)
{
  g_autoptr(GArray) differences = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < a->len; i++)
    {
      double d = g_array_index (a, double, i) - g_array_index (b, double, i);

      g_array_append_val (differences, d);
    }
  return bench_median (differences);
}

int
main (int   argc,
      char *argv[])
{
  const char *paddock_run = g_getenv ("PADDOCK_RUN");
  const char *notifier = g_getenv ("PADDOCK_BENCH_NOTIFIER");
  const char *rounds_text = g_getenv ("PADDOCK_BENCH_ROUNDS");
  g_autofree char *self = NULL;
  g_autofree char *work_dir = NULL;
  g_autofree char *audit = NULL;
  g_autofree char *per_round = g_strdup_printf ("%d", EXECS_PER_ROUND);
  g_auto(GStrv) envp = g_get_environ ();
  const char *baseline_run = g_getenv ("PADDOCK_BENCH_BASELINE_RUN");
  g_autofree char *baseline_audit = NULL;
  Server servers[4] = { { .name = "bare" }, { .name = "bare notifier" }, { .name = "paddock-run" },
                        { .name = "baseline paddock-run" } };
  guint order[4] = { 0, 1, 2, 3 };
  guint n_servers = baseline_run != NULL && *baseline_run != '\0' ? 4 : 3;
  guint rounds = rounds_text != NULL ? (guint) atoi (rounds_text) : 150;
  double bare, notifier_cost, paddock_cost;

  if (argc == 3 && strcmp (argv[1], "serve") == 0)
    return serve (atoi (argv[2]));

  g_assert_nonnull (paddock_run);
  g_assert_nonnull (notifier);
  g_assert_cmpuint (rounds, >=, 3);
  self = g_file_read_link ("/proc/self/exe", NULL);
  g_assert_nonnull (self);
  work_dir = g_dir_make_tmp ("paddock-bench-paired-XXXXXX", NULL);
  g_assert_nonnull (work_dir);
  audit = g_build_filename (work_dir, "audit.jsonl", NULL);

  /* As a user runs them: without the test suite's debugging, its own folders. */
  envp = g_environ_unsetenv (envp, "G_DEBUG");
  envp = g_environ_unsetenv (envp, "G_SLICE");
  envp = g_environ_unsetenv (envp, "MALLOC_CHECK_");
  for (const char **name = (const char *[]) { "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", NULL };
       *name != NULL; name++)
    {
      g_autofree char *dir = g_build_filename (work_dir, *name, NULL);

      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      envp = g_environ_setenv (envp, *name, dir, TRUE);
    }

  server_start (&servers[0], (const char *[]) { self, "serve", per_round, NULL }, envp);
  server_start (&servers[1], (const char *[]) { notifier, self, "serve", per_round, NULL }, envp);
  server_start (&servers[2], (const char *[]) { paddock_run, "--audit", audit, "--", self, "serve", per_round, NULL },
                envp);
  if (n_servers == 4)
    {
      baseline_audit = g_build_filename (work_dir, "baseline-audit.jsonl", NULL);
      server_start (&servers[3], (const char *[]) { baseline_run, "--audit", baseline_audit, "--", self, "serve",
                                                    per_round, NULL },
                    envp);
    }

  /* One round unrecorded: each server's first start is no exec like the rest. */
  for (guint s = 0; s < n_servers; s++)
    server_ask (&servers[s]);
  for (guint r = 0; r < rounds; r++)
    {
      for (guint i = n_servers - 1; i > 0; i--)
        {
          guint j = g_random_int_range (0, i + 1);
          guint swap = order[i];

          order[i] = order[j];
          order[j] = swap;
        }
      for (guint i = 0; i < n_servers; i++)
        {
          double us = server_ask (&servers[order[i]]);

          g_array_append_val (servers[order[i]].us, us);
        }
    }

  notifier_cost = paired_median (servers[1].us, servers[0].us);
  paddock_cost = paired_median (servers[2].us, servers[0].us);
  bare = bench_median (servers[0].us);
  g_print ("exec cost, paired: %u rounds of %d fork+exec+wait of /bin/true, %u servers side by side\n",
           rounds, EXECS_PER_ROUND, n_servers);
  g_print ("  bare: %.1f us per exec (median)\n", bare);
  g_print ("  bare notifier: %+.1f us per exec over bare (median of the paired differences)\n", notifier_cost);
  g_print ("  paddock-run: %+.1f us per exec over bare (median of the paired differences)\n", paddock_cost);
  g_print ("  over the bare iteration: notifier %.3fx, paddock-run %.3fx (a sh loop's iteration is longer by "
           "the shell's own work, so the same cost is a smaller share of it)\n",
           1.0 + notifier_cost / bare, 1.0 + paddock_cost / bare);
  if (n_servers == 4)
    g_print ("  baseline paddock-run (%s): %+.1f us per exec over bare; this paddock-run %+.1f us per exec "
             "over it (median of the paired differences)\n", baseline_run,
             paired_median (servers[3].us, servers[0].us), paired_median (servers[2].us, servers[3].us));

  for (guint s = 0; s < n_servers; s++)
    server_stop (&servers[s]);
  test_remove_tree (work_dir);
  return 0;
}
