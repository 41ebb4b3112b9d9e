/* bench-lock.c: what the folder lock costs: an exec loop, a parallel build, start-up
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each figure is the median of several runs, taken in the same run as its
 * peer: the bare command, and for start-up bubblewrap's `bwrap --ro-bind / /`.
 * Targets (issue 3): loop and build ≤ 1.05×; start-up ≤ 10 ms and ≤ 3× bwrap.
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *paddock_run;
static gboolean has_no_monitor;

/* Runs argv (quietly) to its end; returns the wall time in ms, or -1. */
static double
time_run (const char * const *argv,
          const char         *cwd)
{
  posix_spawn_file_actions_t actions;
  gint64 start;
  pid_t pid;
  int status;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, 1, "/dev/null", O_WRONLY, 0);
  if (cwd != NULL)
    posix_spawn_file_actions_addchdir_np (&actions, cwd);
  start = g_get_monotonic_time ();
  if (posix_spawnp (&pid, argv[0], &actions, NULL, (char **) argv, environ) != 0)
    {
      posix_spawn_file_actions_destroy (&actions);
      return -1;
    }
  waitpid (pid, &status, 0);
  posix_spawn_file_actions_destroy (&actions);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return -1;
  return (g_get_monotonic_time () - start) / 1000.0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (GArray *times)
{
  g_array_sort (times, compare_doubles);
  return g_array_index (times, double, times->len / 2);
}

/* paddock-run --lock [--no-monitor] --project DIR -- ARGV… */
static GPtrArray *
locked (const char         *project,
        const char * const *argv)
{
  GPtrArray *out = g_ptr_array_new ();

  g_ptr_array_add (out, (char *) paddock_run);
  g_ptr_array_add (out, "--lock");
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

/* Alternates bare and locked runs, so drift hits both alike. */
static void
compare (const char         *what,
         const char         *project,
         const char * const *argv,
         guint               rounds)
{
  g_autoptr(GPtrArray) lock_argv = locked (project, argv);
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) lock = g_array_new (FALSE, FALSE, sizeof (double));
  double bare_ms, lock_ms;

  /* One warm-up each: page cache, first build. */
  time_run (argv, project);
  time_run ((const char * const *) lock_argv->pdata, project);
  for (guint i = 0; i < rounds; i++)
    {
      double b = time_run (argv, project);
      double l = time_run ((const char * const *) lock_argv->pdata, project);
      if (b < 0 || l < 0)
        {
          printf ("# %s: a run failed\n", what);
          return;
        }
      g_array_append_val (bare, b);
      g_array_append_val (lock, l);
    }
  bare_ms = median (bare);
  lock_ms = median (lock);
  printf ("%s: bare %.1f ms, locked %.1f ms (median of %u), ratio %.3f× (target ≤ 1.05×)\n",
          what, bare_ms, lock_ms, rounds, lock_ms / bare_ms);
}

static void
bench_loop (const char *project)
{
  g_autoptr(GString) script = g_string_new (NULL);

  for (int i = 0; i < 3000; i++)
    g_string_append (script, "/bin/true\n");
  compare ("loop of 3000 /bin/true", project,
           (const char *[]) { "sh", "-c", script->str, NULL }, 7);
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
           (const char *[]) { "make", "-s", "-j2", "-B", NULL }, 5);
}

static void
bench_startup (const char *project)
{
  const char *bwrap_argv[] = { "bwrap", "--ro-bind", "/", "/", "true", NULL };
  const char *bare_argv[] = { "true", NULL };
  g_autoptr(GPtrArray) lock_argv = locked (project, (const char *[]) { "true", NULL });
  g_autoptr(GArray) lock = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bwrap = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean bwrap_works = time_run (bwrap_argv, NULL) >= 0;
  double lock_ms, bwrap_ms = 0, bare_ms;

  for (int i = 0; i < 41; i++)
    {
      double l = time_run ((const char * const *) lock_argv->pdata, NULL);
      double b = time_run (bare_argv, NULL);
      g_array_append_val (lock, l);
      g_array_append_val (bare, b);
      if (bwrap_works)
        {
          double w = time_run (bwrap_argv, NULL);
          g_array_append_val (bwrap, w);
        }
    }
  lock_ms = median (lock);
  bare_ms = median (bare);
  if (bwrap_works)
    {
      bwrap_ms = median (bwrap);
      printf ("start-up: paddock-run --lock -- true %.2f ms, bwrap --ro-bind / / true %.2f ms, "
              "bare true %.2f ms (median of 41); ratio to bwrap %.2f× (targets ≤ 10 ms, ≤ 3×)\n",
              lock_ms, bwrap_ms, bare_ms, lock_ms / bwrap_ms);
    }
  else
    printf ("start-up: bwrap cannot run here; paddock-run --lock -- true %.2f ms, bare true %.2f ms "
            "(median of 41); ratio to bare %.2f× (target ≤ 10 ms)\n", lock_ms, bare_ms, lock_ms / bare_ms);
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

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      fprintf (stderr, "bench-lock: PADDOCK_RUN is not set\n");
      return 77;
    }
  g_spawn_sync (NULL, (char *[]) { (char *) paddock_run, "--help", NULL }, NULL, 0,
                NULL, NULL, &help, NULL, NULL, NULL);
  has_no_monitor = help != NULL && strstr (help, "--no-monitor") != NULL;
  printf ("# the folder lock alone%s (Landlock, this kernel)\n",
          has_no_monitor ? ", exec monitor off (--no-monitor)" : "");

  template = g_build_filename (build_dir ? build_dir : ".", "tests", "bench-lock-XXXXXX", NULL);
  project = g_mkdtemp (g_steal_pointer (&template));

  bench_startup (project);
  bench_loop (project);
  bench_make (project);

  rm_argv[2] = project;
  time_run (rm_argv, NULL);
  return 0;
}
