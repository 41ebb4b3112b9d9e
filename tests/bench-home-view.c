/* bench-home-view.c: what the home view costs: start-up with it mounted, a 1 GiB read, ls -lR of 10,000 files
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A home folder of its own, with open entries, an asked folder of 10,000
 * files and an asked 1 GiB file, measured in one run against its peers:
 *
 *   start-up    `paddock-run --lock --no-monitor true` with asked entries
 *               (the view mounted) against the same with none (no view),
 *               bare `true` and `bwrap --ro-bind / /`; medians of rounds
 *               taken in turns;
 *   read        the 1 GiB file read whole by one process inside a locked
 *               session whose ask was allowed (--on-ask=allow), against
 *               the same reads outside any session, each timed by the
 *               reader itself: several reads a side, the median of each;
 *   ls -lR      likewise, over the 10,000 files.
 *
 * Targets (issue 35): start-up ≤ 10 ms with the view; read ≥ 0.5× native
 * (native time / view time); ls -lR ≤ 2× native.
 * PADDOCK_BENCH_QUICK=1 takes fewer rounds.
 */
#include "config.h"

#include "bench-run.h"

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG_SIZE (G_GINT64_CONSTANT (1) << 30)
#define N_FILES  10000

static const char *paddock_run;
static gboolean quick;
static char *base, *project, *home_viewed, *home_plain;

static char **
env_for (const char *home)
{
  char **env = g_get_environ ();
  g_autofree char *config = g_build_filename (home, ".config", NULL);
  g_autofree char *state = g_build_filename (home, ".local", "state", NULL);

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state, TRUE);
  return env;
}

static void
make_home (const char *home,
           gboolean    asked)
{
  static const char * const open_files[] = { ".bashrc", ".profile", ".gitconfig", ".inputrc", NULL };
  g_autofree char *config = g_build_filename (home, ".config", NULL);
  g_autofree char *state = g_build_filename (home, ".local", "state", NULL);

  g_mkdir_with_parents (config, 0755);
  g_mkdir_with_parents (state, 0755);
  for (guint i = 0; open_files[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (home, open_files[i], NULL);
      g_file_set_contents (path, "# settings\n", -1, NULL);
    }
  if (!asked)
    return;
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("folder-%u/file", i);
      g_autofree char *path = g_build_filename (home, name, NULL);
      g_autofree char *dir = g_path_get_dirname (path);

      g_mkdir_with_parents (dir, 0755);
      g_file_set_contents (path, "data\n", -1, NULL);
    }
}

/* 10,000 files in 100 folders, and a 1 GiB file of real (not sparse) data. */
static void
make_data (const char *home)
{
  g_autofree char *big = g_build_filename (home, "Data", "big", NULL);
  g_autofree char *data = g_build_filename (home, "Data", NULL);
  g_autofree char *block = g_malloc (1 << 20);
  int fd;

  for (guint d = 0; d < N_FILES / 100; d++)
    for (guint f = 0; f < 100; f++)
      {
        g_autofree char *name = g_strdup_printf ("Tree/d%03u/f%03u", d, f);
        g_autofree char *path = g_build_filename (home, name, NULL);

        if (f == 0)
          {
            g_autofree char *dir = g_path_get_dirname (path);
            g_mkdir_with_parents (dir, 0755);
          }
        g_file_set_contents (path, "x\n", -1, NULL);
      }
  g_mkdir_with_parents (data, 0755);
  for (gsize i = 0; i < (1 << 20); i++)
    block[i] = (char) (i * 2654435761u >> 13);
  fd = open (big, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  for (gint64 done = 0; fd >= 0 && done < BIG_SIZE; done += 1 << 20)
    if (write (fd, block, 1 << 20) != 1 << 20)
      break;
  if (fd >= 0)
    close (fd);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return values->len == 0 ? 0 : g_array_index (values, double, values->len / 2);
}

static void
bench_startup (void)
{
  const char *bwrap[] = { "bwrap", "--ro-bind", "/", "/", "true", NULL };
  const char *bare[] = { "true", NULL };
  const char *locked[] = { paddock_run, "--lock", "--no-monitor", "--project", project, "--", "true", NULL };
  g_auto(GStrv) env_viewed = env_for (home_viewed);
  g_auto(GStrv) env_plain = env_for (home_plain);
  struct
  {
    const char         *name;
    const char * const *argv;
    char              **env;
    GArray             *wall;
  } peers[] = {
    { "bare true", bare, NULL, NULL },
    { "bwrap --ro-bind / /", bwrap, NULL, NULL },
    { "--lock, no asked entry", locked, env_plain, NULL },
    { "--lock, the view mounted", locked, env_viewed, NULL },
  };
  guint rounds = quick ? 11 : 41;

  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    peers[p].wall = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint r = 0; r < rounds; r++)
    for (guint i = 0; i < G_N_ELEMENTS (peers); i++)
      {
        guint p = r % 2 == 0 ? i : G_N_ELEMENTS (peers) - 1 - i;
        BenchSample sample;

        if (bench_run (peers[p].argv, NULL, peers[p].env, &sample))
          g_array_append_val (peers[p].wall, sample.wall);
      }
  printf ("start-up, wall time (median of %u rounds):\n", rounds);
  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    printf ("  %-28s %6.2f ms\n", peers[p].name, median (peers[p].wall));
  printf ("  the view costs %.2f ms; --lock with it: %.2f ms (target ≤ 10 ms), %.2f× bwrap\n",
          median (peers[3].wall) - median (peers[2].wall), median (peers[3].wall),
          median (peers[3].wall) / median (peers[1].wall));
  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    g_array_unref (peers[p].wall);
}

/* Runs @script (Python, which prints one time in seconds a line) inside a
 * locked session whose asks are allowed, or outside any; the times. */
static GArray *
timed (const char *script,
       gboolean    in_view)
{
  g_autofree char *out = NULL;
  g_auto(GStrv) env = env_for (home_viewed);
  g_auto(GStrv) lines = NULL;
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  const char *view_argv[] = { paddock_run, "--lock", "--on-ask=allow", "--project", project, "--",
                              "/usr/bin/python3", "-c", script, NULL };
  const char *native_argv[] = { "/usr/bin/python3", "-c", script, NULL };

  if (!g_spawn_sync (project, (char **) (in_view ? view_argv : native_argv), env, G_SPAWN_SEARCH_PATH,
                     NULL, NULL, &out, NULL, NULL, NULL))
    return times;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      {
        double t = g_ascii_strtod (lines[i], NULL);
        g_array_append_val (times, t);
      }
  return times;
}

static void
compare (const char *what,
         const char *script,
         const char *target,
         gboolean    higher_is_faster)
{
  g_autoptr(GArray) native = NULL;
  g_autoptr(GArray) view = NULL;
  guint rounds = quick ? 2 : 3;
  double n, v;

  native = g_array_new (FALSE, FALSE, sizeof (double));
  view = g_array_new (FALSE, FALSE, sizeof (double));
  /* Turns, so that the page cache and other load hit both alike. */
  for (guint r = 0; r < rounds; r++)
    {
      g_autoptr(GArray) a = timed (script, FALSE);
      g_autoptr(GArray) b = timed (script, TRUE);

      g_array_append_vals (native, a->data, a->len);
      g_array_append_vals (view, b->data, b->len);
    }
  n = median (native);
  v = median (view);
  printf ("%s (median of %u reads a side):\n  native %8.2f ms\n  view   %8.2f ms\n", what, native->len,
          n * 1000, v * 1000);
  if (higher_is_faster)
    printf ("  %.2f× native speed (target %s)\n", v > 0 ? n / v : 0, target);
  else
    printf ("  %.2f× native time (target %s)\n", n > 0 ? v / n : 0, target);
}

int
main (int   argc,
      char *argv[])
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *template = NULL;
  g_autofree char *read_script = NULL;
  g_autofree char *ls_script = NULL;
  const char *rm_argv[] = { "rm", "-rf", NULL, NULL };
  BenchSample sample;

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      fprintf (stderr, "bench-home-view: PADDOCK_RUN is not set\n");
      return 77;
    }
  if (access ("/dev/fuse", R_OK | W_OK) != 0)
    {
      fprintf (stderr, "bench-home-view: /dev/fuse cannot be opened here\n");
      return 77;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  quick = g_strcmp0 (g_getenv ("PADDOCK_BENCH_QUICK"), "1") == 0;

  /* Not under /tmp: the lock makes its own. */
  template = g_build_filename (build_dir ? build_dir : ".", "tests", "bench-home-view-XXXXXX", NULL);
  base = g_mkdtemp (g_steal_pointer (&template));
  project = g_build_filename (base, "project", NULL);
  home_viewed = g_build_filename (base, "home", NULL);
  home_plain = g_build_filename (base, "home-open", NULL);
  g_mkdir_with_parents (project, 0755);
  make_home (home_viewed, TRUE);
  make_home (home_plain, FALSE);
  printf ("# a home folder of %u asked entries beside the open ones; making 1 GiB and 10,000 files…\n", 22);
  make_data (home_viewed);

  bench_startup ();

  read_script = g_strdup_printf ("import time\n"
                                 "for i in range(%d):\n"
                                 "    t = time.perf_counter()\n"
                                 "    with open('%s/Data/big', 'rb', buffering=0) as f:\n"
                                 "        while f.read(1 << 20): pass\n"
                                 "    print(time.perf_counter() - t)\n",
                                 quick ? 3 : 5, home_viewed);
  compare ("reading 1 GiB", read_script, "≥ 0.5×", TRUE);

  ls_script = g_strdup_printf ("import subprocess, time\n"
                               "for i in range(%d):\n"
                               "    t = time.perf_counter()\n"
                               "    subprocess.run(['ls', '-lR', '%s/Tree'], stdout=subprocess.DEVNULL)\n"
                               "    print(time.perf_counter() - t)\n",
                               quick ? 3 : 7, home_viewed);
  compare ("ls -lR over 10,000 files", ls_script, "≤ 2×", FALSE);

  rm_argv[2] = base;
  bench_run (rm_argv, NULL, NULL, &sample);
  return 0;
}
