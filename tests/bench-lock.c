/* bench-lock.c: what the folder lock costs: an exec loop, a parallel build, start-up
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each figure is the median of several runs, taken in the same run as its
 * peers: the bare command, the same under paddock-run without the lock (so
 * the runner's own cost shows apart from the lock's), and for start-up
 * bubblewrap's `bwrap --ro-bind / /`. The peers take turns, in an order that
 * turns around every round, so that drift and other load on the machine hit
 * them alike. Besides the wall time, the CPU time of the whole process tree
 * (user + system, from wait4()) is given: it barely moves when other work
 * competes for the processors, so it shows small costs that the wall time's
 * noise hides. Ratios are medians of each round's ratio to the bare run.
 *
 * Targets (issue 3): loop and build ≤ 1.05×; start-up ≤ 10 ms and ≤ 3× bwrap.
 * PADDOCK_BENCH_QUICK=1 takes fewer rounds, for a look while developing.
 * PADDOCK_BENCH_BASELINE_RUN=PATH adds an earlier build's paddock-run
 * --lock as one more peer, so that what a change to the lock costs shows
 * in the same run.
 */
#include "config.h"

#include "bench-run.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *paddock_run;
static const char *paddock_run_baseline;  /* an older build, or NULL */
static gboolean has_no_monitor;
static gboolean quick;

typedef struct
{
  const char *name;
  GPtrArray  *argv;
  GArray     *wall;
  GArray     *cpu;
  GArray     *wall_ratio;  /* to the first peer, round by round */
  GArray     *cpu_ratio;
} Peer;


static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The value at fraction @q of the sorted samples (0.5: the median). */
static double
quantile (GArray *values,
          double  q)
{
  g_autoptr(GArray) sorted = g_array_copy (values);

  g_array_sort (sorted, compare_doubles);
  return g_array_index (sorted, double, (guint) (q * (sorted->len - 1) + 0.5));
}

/* RUNNER [--no-monitor] --project DIR --lock|--no-lock -- ARGV… */
static GPtrArray *
under (const char         *runner,
       const char         *project,
       gboolean            lock,
       const char * const *argv)
{
  GPtrArray *out = g_ptr_array_new ();

  g_ptr_array_add (out, (char *) runner);
  g_ptr_array_add (out, lock ? "--lock" : "--no-lock");
  if (has_no_monitor)
    g_ptr_array_add (out, "--no-monitor");
  g_ptr_array_add (out, "--project");
  g_ptr_array_add (out, (char *) project);
  g_ptr_array_add (out, "--");
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (out, (char *) argv[i]);
  g_ptr_array_add (out, NULL);
  return out;
}

static GPtrArray *
under_runner (const char         *project,
              gboolean            lock,
              const char * const *argv)
{
  return under (paddock_run, project, lock, argv);
}

static GPtrArray *
plain (const char * const *argv)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (out, (char *) argv[i]);
  g_ptr_array_add (out, NULL);
  return out;
}

static void
peer_init (Peer       *peer,
           const char *name,
           GPtrArray  *argv)
{
  peer->name = name;
  peer->argv = argv;
  peer->wall = g_array_new (FALSE, FALSE, sizeof (double));
  peer->cpu = g_array_new (FALSE, FALSE, sizeof (double));
  peer->wall_ratio = g_array_new (FALSE, FALSE, sizeof (double));
  peer->cpu_ratio = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
peer_clear (Peer *peer)
{
  g_ptr_array_unref (peer->argv);
  g_array_unref (peer->wall);
  g_array_unref (peer->cpu);
  g_array_unref (peer->wall_ratio);
  g_array_unref (peer->cpu_ratio);
}

/* Runs every peer once a round, in an order that turns around each round;
 * peers[0] is the one the others are measured against. */
static gboolean
measure (Peer       *peers,
         guint       n_peers,
         const char *cwd,
         guint       rounds)
{
  g_autofree BenchSample *round = g_new0 (BenchSample, n_peers);

  /* One warm-up each: page cache, first build. */
  for (guint p = 0; p < n_peers; p++)
    bench_run ((const char * const *) peers[p].argv->pdata, cwd, NULL, &round[p]);

  for (guint r = 0; r < rounds; r++)
    {
      for (guint i = 0; i < n_peers; i++)
        {
          guint p = r % 2 == 0 ? i : n_peers - 1 - i;

          if (!bench_run ((const char * const *) peers[p].argv->pdata, cwd, NULL, &round[p]))
            {
              printf ("# %s: a run failed\n", peers[p].name);
              return FALSE;
            }
        }
      for (guint p = 0; p < n_peers; p++)
        {
          double wall_ratio = round[p].wall / round[0].wall;
          double cpu_ratio = round[p].cpu / round[0].cpu;

          g_array_append_val (peers[p].wall, round[p].wall);
          g_array_append_val (peers[p].cpu, round[p].cpu);
          g_array_append_val (peers[p].wall_ratio, wall_ratio);
          g_array_append_val (peers[p].cpu_ratio, cpu_ratio);
        }
    }
  return TRUE;
}

/* peers: bare, paddock-run without the lock, paddock-run --lock, and
 * perhaps the older build's --lock. */
static void
report (const char *what,
        Peer       *peers,
        guint       n_peers,
        guint       rounds)
{
  g_autoptr(GArray) lock_wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) lock_cpu = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert (n_peers >= 3);
  for (guint r = 0; r < rounds; r++)
    {
      double wall = g_array_index (peers[2].wall, double, r) / g_array_index (peers[1].wall, double, r);
      double cpu = g_array_index (peers[2].cpu, double, r) / g_array_index (peers[1].cpu, double, r);

      g_array_append_val (lock_wall, wall);
      g_array_append_val (lock_cpu, cpu);
    }

  printf ("%s (median of %u rounds; wall time, then CPU time of the process tree):\n", what, rounds);
  for (guint p = 0; p < n_peers; p++)
    {
      printf ("  %-24s wall %8.1f ms (IQR %.1f–%.1f)  cpu %8.1f ms",
              peers[p].name, quantile (peers[p].wall, 0.5), quantile (peers[p].wall, 0.25),
              quantile (peers[p].wall, 0.75), quantile (peers[p].cpu, 0.5));
      if (p > 0)
        printf ("  ratio wall %.3f×, cpu %.3f×", quantile (peers[p].wall_ratio, 0.5),
                quantile (peers[p].cpu_ratio, 0.5));
      printf ("\n");
    }
  printf ("  the lock alone (locked / paddock-run without it): wall %.3f×, cpu %.3f×\n",
          quantile (lock_wall, 0.5), quantile (lock_cpu, 0.5));
  printf ("  target: locked ≤ 1.05× bare\n");
}

static void
compare (const char         *what,
         const char         *project,
         const char * const *argv,
         guint               rounds)
{
  Peer peers[4];
  guint n_peers = 3;

  peer_init (&peers[0], "bare", plain (argv));
  peer_init (&peers[1], "paddock-run, no lock", under_runner (project, FALSE, argv));
  peer_init (&peers[2], "paddock-run --lock", under_runner (project, TRUE, argv));
  if (paddock_run_baseline != NULL)
    peer_init (&peers[n_peers++], "--lock, baseline build", under (paddock_run_baseline, project, TRUE, argv));
  if (measure (peers, n_peers, project, rounds))
    report (what, peers, n_peers, rounds);
  for (guint p = 0; p < n_peers; p++)
    peer_clear (&peers[p]);
}

static void
bench_loop (const char *project)
{
  g_autoptr(GString) script = g_string_new (NULL);

  for (int i = 0; i < 3000; i++)
    g_string_append (script, "/bin/true\n");
  compare ("loop of 3000 /bin/true", project,
           (const char *[]) { "sh", "-c", script->str, NULL }, quick ? 3 : 15);
}

static void
bench_make (const char *project)
{
  g_autoptr(GString) makefile = g_string_new ("OBJS =");
  g_autofree char *path = NULL;

  for (int i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/unit%d.c", project, i);
      g_autofree char *code = g_strdup_printf (
        "#include <stdio.h>\n#include <string.h>\n"
        "int unit%d (int n) { char buf[64]; int s = 0;\n"
        "  for (int i = 0; i < n; i++) { snprintf (buf, sizeof buf, \"%%d\", i); s += (int) strlen (buf); }\n"
        "  return s; }\n", i);
      g_file_set_contents (name, code, -1, NULL);
      g_string_append_printf (makefile, " unit%d.o", i);
    }
  path = g_build_filename (project, "main.c", NULL);
  g_file_set_contents (path, "int main (void) { return 0; }\n", -1, NULL);
  g_clear_pointer (&path, g_free);
  g_string_append (makefile, " main.o\nCFLAGS = -O2\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\nclean:\n\trm -f app *.o\n");
  path = g_build_filename (project, "Makefile", NULL);
  g_file_set_contents (path, makefile->str, -1, NULL);

  compare ("make -j2 of 41 C files", project,
           (const char *[]) { "make", "-s", "-j2", "-B", NULL }, quick ? 3 : 11);
}

static void
bench_startup (const char *project)
{
  const char *bwrap_argv[] = { "bwrap", "--ro-bind", "/", "/", "true", NULL };
  const char *true_argv[] = { "true", NULL };
  Peer peers[5];
  guint n_peers = 3;
  guint rounds = quick ? 11 : 41;
  int bwrap = -1;
  BenchSample sample;

  peer_init (&peers[0], "bare true", plain (true_argv));
  peer_init (&peers[1], "paddock-run, no lock", under_runner (project, FALSE, true_argv));
  peer_init (&peers[2], "paddock-run --lock", under_runner (project, TRUE, true_argv));
  if (bench_run (bwrap_argv, NULL, NULL, &sample))
    {
      bwrap = n_peers;
      peer_init (&peers[n_peers++], "bwrap --ro-bind / /", plain (bwrap_argv));
    }
  else
    printf ("# bwrap cannot run here: start-up is compared with bare true only\n");
  if (paddock_run_baseline != NULL)
    peer_init (&peers[n_peers++], "--lock, baseline build", under (paddock_run_baseline, project, TRUE, true_argv));

  if (measure (peers, n_peers, NULL, rounds))
    {
      double lock_ms = quantile (peers[2].wall, 0.5);

      printf ("start-up, wall time (median of %u rounds):\n", rounds);
      for (guint p = 0; p < n_peers; p++)
        printf ("  %-24s %6.2f ms (IQR %.2f–%.2f)\n", peers[p].name, quantile (peers[p].wall, 0.5),
                quantile (peers[p].wall, 0.25), quantile (peers[p].wall, 0.75));
      if (bwrap >= 0)
        printf ("  paddock-run --lock: %.2f ms, %.2f× bwrap (targets ≤ 10 ms, ≤ 3×)\n",
                lock_ms, lock_ms / quantile (peers[bwrap].wall, 0.5));
      else
        printf ("  paddock-run --lock: %.2f ms (target ≤ 10 ms)\n", lock_ms);
    }
  for (guint p = 0; p < n_peers; p++)
    peer_clear (&peers[p]);
}

int
main (int   argc,
      char *argv[])
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *template = NULL;
  g_autofree char *project = NULL;
  g_autofree char *help = NULL;
  const char *rm_argv[] = { "rm", "-rf", NULL, NULL };
  BenchSample sample;

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      fprintf (stderr, "bench-lock: PADDOCK_RUN is not set\n");
      return 77;
    }
  /* Each figure as it comes: a run cut short by meson's timeout keeps them. */
  setvbuf (stdout, NULL, _IOLBF, 0);
  quick = g_strcmp0 (g_getenv ("PADDOCK_BENCH_QUICK"), "1") == 0;
  paddock_run_baseline = g_getenv ("PADDOCK_BENCH_BASELINE_RUN");
  g_spawn_sync (NULL, (char *[]) { (char *) paddock_run, "--help", NULL }, NULL, 0,
                NULL, NULL, &help, NULL, NULL, NULL);
  has_no_monitor = help != NULL && strstr (help, "--no-monitor") != NULL;
  printf ("# the folder lock alone%s (Landlock, this kernel)%s\n",
          has_no_monitor ? ", exec monitor off (--no-monitor)" : "",
          quick ? "; quick: few rounds, rough figures" : "");

  template = g_build_filename (build_dir ? build_dir : ".", "tests", "bench-lock-XXXXXX", NULL);
  project = g_mkdtemp (g_steal_pointer (&template));

  bench_startup (project);
  bench_loop (project);
  bench_make (project);

  rm_argv[2] = project;
  bench_run (rm_argv, NULL, NULL, &sample);
  return 0;
}
