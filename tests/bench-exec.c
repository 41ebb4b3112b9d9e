/* bench-exec.c: what the exec monitor costs an exec-heavy agent, against the bare command
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two workloads, each run bare, under bench-notifier (seccomp user
 * notification answered at once, reading nothing: the floor of any exec
 * monitor built on it) and under paddock-run (default policy, audit log
 * on): a shell loop of 3000 /bin/true, and `make -j2` of a small
 * generated C project. The three run in rounds, back to back, the order
 * reversed from one round to the next, so that all see the same machine:
 * on these shared machines a bare run alone moves by half its time from
 * one minute to the next. Prints each round, the medians, and the median
 * of the rounds' ratios to bare (paddock-run's is the figure the targets
 * are read against, with the middle half of them); asserts nothing about
 * time. PADDOCK_BENCH_RUNS sets the rounds (default 25: here one round's
 * ratio moves by a fifth either way, and the median of 15 by several
 * hundredths from one run to the next). The CPU time of each run's whole
 * process tree (paddock-run's threads included) is printed beside. One
 * build takes a quarter of a second, so each make sample is the sum of
 * four builds (each after an untimed make clean). All run without the
 * test suite's debugging environment (G_DEBUG, G_SLICE, MALLOC_CHECK_), as
 * a user would run them.
 */
#include "config.h"

#include "bench-run.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>

static const char *paddock_run;
static const char *notifier;
static char *work_dir;
static char **run_environment;

static char **
environment_new (void)
{
  char **env = g_get_environ ();
  g_autofree char *state = g_build_filename (work_dir, "state", NULL);
  g_autofree char *runtime = g_build_filename (work_dir, "run", NULL);
  g_autofree char *config = g_build_filename (work_dir, "config", NULL);

  env = g_environ_unsetenv (env, "G_DEBUG");
  env = g_environ_unsetenv (env, "G_SLICE");
  env = g_environ_unsetenv (env, "MALLOC_CHECK_");
  env = g_environ_setenv (env, "XDG_STATE_HOME", state, TRUE);
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  return env;
}

static BenchSample
run_once (const char * const *argv,
          const char         *cwd)
{
  BenchSample sample;

  if (!bench_run (argv, cwd, run_environment, &sample))
    g_error ("%s failed", argv[0]);
  return sample;
}

/* After bench_median(): sorted. */
static double
fastest (GArray *values)
{
  return g_array_index (values, double, 0);
}

/* After bench_median(): the value a quarter (@quarter 1) or three quarters (3)
 * of the way up. */
static double
quartile (GArray *values,
          guint   quarter)
{
  return g_array_index (values, double, MIN (values->len - 1, values->len * quarter / 4));
}

/* One sample: @rounds timed runs of @command, each after an untimed
 * @before (may be NULL, e.g. make clean). */
static BenchSample
sample (const char * const *command,
        const char * const *before,
        const char         *cwd,
        guint               rounds,
        const char         *audit)
{
  BenchSample total = { 0, 0 };

  for (guint r = 0; r < rounds; r++)
    {
      BenchSample cost;

      if (before != NULL)
        run_once (before, cwd);
      if (audit != NULL)
        g_unlink (audit);
      cost = run_once (command, cwd);
      total.wall += cost.wall;
      total.cpu += cost.cpu;
    }
  return total;
}

static void
compare (const char         *name,
         const char * const *command,
         const char * const *before,
         const char         *cwd,
         guint               runs,
         guint               rounds,
         double              target)
{
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) notified = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) monitored = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ratios = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) floor_ratios = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_ratios = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) wrapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) floor = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *audit = g_build_filename (work_dir, "bench-audit.jsonl", NULL);
  double bare_median, notified_median, monitored_median, floor_median, ratio_median;

  g_ptr_array_add (wrapped, g_strdup (paddock_run));
  g_ptr_array_add (wrapped, g_strdup ("--audit"));
  g_ptr_array_add (wrapped, g_strdup (audit));
  g_ptr_array_add (wrapped, g_strdup ("--"));
  g_ptr_array_add (floor, g_strdup (notifier));
  for (guint i = 0; command[i] != NULL; i++)
    {
      g_ptr_array_add (wrapped, g_strdup (command[i]));
      g_ptr_array_add (floor, g_strdup (command[i]));
    }
  g_ptr_array_add (wrapped, NULL);
  g_ptr_array_add (floor, NULL);

  g_print ("%s\n", name);
  for (guint i = 0; i < runs + 1; i++)
    {
      BenchSample b, n, m;
      double ratio, floor_ratio, cpu_ratio;

      if (i % 2 == 0)
        {
          b = sample (command, before, cwd, rounds, NULL);
          n = sample ((const char * const *) floor->pdata, before, cwd, rounds, NULL);
          m = sample ((const char * const *) wrapped->pdata, before, cwd, rounds, audit);
        }
      else
        {
          m = sample ((const char * const *) wrapped->pdata, before, cwd, rounds, audit);
          n = sample ((const char * const *) floor->pdata, before, cwd, rounds, NULL);
          b = sample (command, before, cwd, rounds, NULL);
        }
      /* The first round warms caches and is not counted. */
      if (i == 0)
        continue;
      ratio = m.wall / b.wall;
      floor_ratio = n.wall / b.wall;
      cpu_ratio = m.cpu / b.cpu;
      /* In seconds, as the figures are printed. */
      b.wall /= 1000;
      n.wall /= 1000;
      m.wall /= 1000;
      g_array_append_val (bare, b.wall);
      g_array_append_val (notified, n.wall);
      g_array_append_val (monitored, m.wall);
      g_array_append_val (ratios, ratio);
      g_array_append_val (floor_ratios, floor_ratio);
      g_array_append_val (cpu_ratios, cpu_ratio);
      g_print ("  round %u: bare %.3f s, bare notifier %.3f s, paddock-run %.3f s; "
               "ratios %.3fx and %.3fx; CPU time ratio %.3fx\n",
               i, b.wall, n.wall, m.wall, floor_ratio, ratio, cpu_ratio);
    }
  bare_median = bench_median (bare);
  notified_median = bench_median (notified);
  monitored_median = bench_median (monitored);
  g_print ("  medians: bare %.3f s, bare notifier %.3f s, paddock-run %.3f s (against bare %.3fx and %.3fx)\n",
           bare_median, notified_median, monitored_median,
           notified_median / bare_median, monitored_median / bare_median);
  g_print ("  fastest: bare %.3f s, bare notifier %.3f s, paddock-run %.3f s (against bare %.3fx and %.3fx)\n",
           fastest (bare), fastest (notified), fastest (monitored),
           fastest (notified) / fastest (bare), fastest (monitored) / fastest (bare));
  g_print ("  median of paddock-run's CPU time ratios: %.3fx\n", bench_median (cpu_ratios));
  floor_median = bench_median (floor_ratios);
  g_print ("  median of the bare notifier's ratios: %.3fx; the middle half of them %.3fx to %.3fx\n",
           floor_median, quartile (floor_ratios, 1), quartile (floor_ratios, 3));
  ratio_median = bench_median (ratios);
  g_print ("  median of paddock-run's ratios: %.3fx (target <= %.2fx); the middle half of them %.3fx to %.3fx\n\n",
           ratio_median, target, quartile (ratios, 1), quartile (ratios, 3));
}

static void
write_project (const char *dir)
{
  g_autoptr(GString) makefile = g_string_new ("CFLAGS ?= -O1\nOBJS =");
  g_autoptr(GString) main_c = g_string_new ("#include <stdio.h>\n");
  g_autoptr(GError) error = NULL;
  const guint n_units = 24;

  for (guint i = 0; i < n_units; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/unit%u.c", dir, i);
      g_autofree char *text = g_strdup_printf (
        "#include <string.h>\n"
        "static int table%u[256];\n"
        "int unit%u (const char *s)\n{\n"
        "  int h = %u;\n"
        "  for (size_t i = 0; i < strlen (s); i++)\n"
        "    h = h * 31 + table%u[(unsigned char) s[i]] + s[i];\n"
        "  return h;\n}\n", i, i, i, i);

      g_file_set_contents (path, text, -1, &error);
      g_assert_no_error (error);
      g_string_append_printf (makefile, " unit%u.o", i);
      g_string_append_printf (main_c, "int unit%u (const char *s);\n", i);
    }
  g_string_append (main_c, "int main (int argc, char **argv)\n{\n  int h = 0;\n");
  for (guint i = 0; i < n_units; i++)
    g_string_append_printf (main_c, "  h += unit%u (argv[0]);\n", i);
  g_string_append (main_c, "  printf (\"%d\\n\", h);\n  return 0;\n}\n");
  g_string_append (makefile, " main.o\n\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n\n"
                             "clean:\n\trm -f prog *.o\n");
  {
    g_autofree char *path = g_build_filename (dir, "main.c", NULL);
    g_file_set_contents (path, main_c->str, -1, &error);
    g_assert_no_error (error);
  }
  {
    g_autofree char *path = g_build_filename (dir, "Makefile", NULL);
    g_file_set_contents (path, makefile->str, -1, &error);
    g_assert_no_error (error);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  const char *runs_env = g_getenv ("PADDOCK_BENCH_RUNS");
  guint runs = runs_env != NULL ? (guint) CLAMP (atoi (runs_env), 1, 100) : 25;
  g_autofree char *runtime = NULL;

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_printerr ("PADDOCK_RUN must name the paddock-run under test\n");
      return 1;
    }
  notifier = g_getenv ("PADDOCK_BENCH_NOTIFIER");
  if (notifier == NULL)
    {
      g_printerr ("PADDOCK_BENCH_NOTIFIER must name bench-notifier\n");
      return 1;
    }
  work_dir = g_dir_make_tmp ("paddock-bench-exec-XXXXXX", &error);
  g_assert_no_error (error);
  runtime = g_build_filename (work_dir, "run", NULL);
  g_mkdir (runtime, 0700);
  run_environment = environment_new ();
  project = g_build_filename (work_dir, "project", NULL);
  g_mkdir (project, 0700);
  write_project (project);

  g_print ("exec overhead: default policy, audit log on, %u rounds of runs, medians\n\n", runs);
  compare ("sh -c loop of 3000 /bin/true",
           (const char *[]) { "sh", "-c", "i=0; while [ $i -lt 3000 ]; do /bin/true; i=$((i+1)); done", NULL },
           NULL, project, runs, 1, 1.10);
  compare ("make -j2 of a generated 25-file C project, 4 builds per run",
           (const char *[]) { "make", "-s", "-j2", NULL },
           (const char *[]) { "make", "-s", "clean", NULL },
           project, runs, 4, 1.03);

  {
    g_autoptr(GSubprocess) rm = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, NULL, "rm", "-rf", work_dir, NULL);
    if (rm != NULL)
      g_subprocess_wait (rm, NULL, NULL);
  }
  g_strfreev (run_environment);
  g_free (work_dir);
  return 0;
}
