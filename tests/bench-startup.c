/* bench-startup.c: Paddock's start-up and memory per tab, against GNOME Console in the same run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each round starts each app (in a shuffled order) on a fresh project
 * with one shell tab, and times it from the spawn to the later of two
 * events: its first window mapped (MapNotify, seen on the X server's
 * root) and the shell in its tab started (the shell, a script of ours,
 * writes to a FIFO first thing). Then it gives the window Paddock's
 * default size (900x600; Console opens at about 740x540, and a terminal's
 * memory grows with its size), opens four more tabs with
 * Ctrl+Shift+T (XTEST, through xdotool), each waited for the same way,
 * and takes the proportional set size (PSS) of the app's whole process
 * tree, paddock-run and shells included, at one tab and at five, a
 * second after the last shell started. Prints the medians and Paddock's
 * ratio to Console, and the floor beside them: bench-startup-floor's
 * window of bare VteTerminals, alone and with each shell under
 * paddock-run, so that a target below what any design with a supervisor
 * per tab can reach shows as such. Asserts nothing about time. Needs a display
 * (`xvfb-run`), `kgx` and `xdotool`; says so and exits 0 without them.
 * PADDOCK_BENCH_ROUNDS sets the rounds (default 7).
 */
#include "config.h"

#include "bench-run.h"
#include "paddock-process-tree.h"
#include "test-util.h"

#include <X11/Xlib.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXTRA_TABS 4
#define WAIT_MS    30000

typedef struct
{
  const char *name;
  const char *argv[5];
  char      **envp;      /* not owned */
  GArray     *startup;   /* ms */
  GArray     *per_tab;   /* KiB of PSS per extra tab */
  GArray     *first;     /* KiB of PSS with one tab */
  GArray     *per_tab_own; /* KiB of PSS per extra tab, the app's own process alone */
} App;

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* Waits for a line from the shells' FIFO; FALSE after @deadline. */
static gboolean
wait_for_shell (int    fifo,
                double deadline)
{
  for (;;)
    {
      struct pollfd fds = { .fd = fifo, .events = POLLIN };
      char buffer[64];
      int timeout = (int) MAX (0, deadline - now_ms ());
      ssize_t n;

      if (poll (&fds, 1, timeout) <= 0)
        return FALSE;
      n = read (fifo, buffer, sizeof buffer);
      if (n > 0 && memchr (buffer, '\n', n) != NULL)
        return TRUE;
      if (n == 0)
        g_usleep (1000);  /* no writer at the moment: the FIFO is open read-write, so rare */
    }
}

/* Waits for a top-level window to be mapped; its id, or 0 after @deadline. */
static Window
wait_for_map (Display *display,
              double   deadline)
{
  int fd = ConnectionNumber (display);

  for (;;)
    {
      while (XPending (display) > 0)
        {
          XEvent event;

          XNextEvent (display, &event);
          if (event.type == MapNotify && !event.xmap.override_redirect)
            return event.xmap.window;
        }
      {
        struct pollfd fds = { .fd = fd, .events = POLLIN };
        int timeout = (int) MAX (0, deadline - now_ms ());

        if (poll (&fds, 1, timeout) <= 0)
          return 0;
      }
    }
}

static guint64
process_pss (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps_rollup", (int) pid);
  g_autofree char *text = NULL;
  const char *pss;

  if (g_file_get_contents (path, &text, NULL, NULL) && (pss = strstr (text, "\nPss:")) != NULL)
    return g_ascii_strtoull (pss + strlen ("\nPss:"), NULL, 10);
  return 0;
}

/* The PSS of @root and all below it, in KiB. */
static guint64
tree_pss (pid_t root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) below = paddock_process_tree_list (root, &error);
  guint64 total = process_pss (root);

  g_assert_no_error (error);
  for (guint i = 0; i < below->len; i++)
    total += process_pss (g_array_index (below, pid_t, i));
  return total;
}

static void
stop_tree (GPid pid)
{
  int status;

  kill (pid, SIGTERM);
  for (int i = 0; i < 500 && waitpid (pid, &status, WNOHANG) == 0; i++)
    g_usleep (10 * 1000);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
}

/* One start of @app; FALSE where it did not come up. */
static gboolean
measure (App     *app,
         Display *display,
         int      fifo)
{
  g_autoptr(GError) error = NULL;
  double start, deadline, mapped = 0, shell = 0;
  guint64 one, all, one_own, all_own;
  GPid pid;
  Window window;
  gboolean ok = FALSE;

  /* What an earlier round left unread is no news of this one. */
  while (wait_for_shell (fifo, now_ms ()))
    ;
  XSync (display, True);

  start = now_ms ();
  deadline = start + WAIT_MS;
  if (!g_spawn_async (NULL, (char **) app->argv, app->envp, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &error))
    g_error ("cannot start %s: %s", app->argv[0], error->message);

  /* The two events, in whichever order they come. */
  {
    gboolean got_map = FALSE, got_shell = FALSE;

    while (!(got_map && got_shell) && now_ms () < deadline)
      {
        if (!got_map && (window = wait_for_map (display, got_shell ? deadline : now_ms () + 5)) != 0)
          {
            got_map = TRUE;
            mapped = now_ms ();
          }
        if (!got_shell && wait_for_shell (fifo, got_map ? deadline : now_ms () + 5))
          {
            got_shell = TRUE;
            shell = now_ms ();
          }
      }
    if (!(got_map && got_shell))
      {
        g_printerr ("%s: no %s within %d s\n", app->name, got_map ? "shell" : "window", WAIT_MS / 1000);
        goto out;
      }
  }
  g_array_append_vals (app->startup, (double[]) { MAX (mapped, shell) - start }, 1);

  /* Like for like: a terminal's memory grows with its size on screen
   * (Console opens smaller than Paddock), so every app's window gets
   * Paddock's default size before anything is measured. */
  {
    g_autofree char *id = g_strdup_printf ("%lu", (unsigned long) window);
    const char *resize[] = { "xdotool", "windowsize", id, "900", "600", NULL };
    BenchSample sample;

    if (!bench_run (resize, NULL, NULL, &sample))
      {
        g_printerr ("%s: cannot resize its window\n", app->name);
        goto out;
      }
  }
  g_usleep (G_USEC_PER_SEC);
  one = tree_pss (pid);
  one_own = process_pss (pid);
  for (guint i = 0; i < EXTRA_TABS; i++)
    {
      g_autofree char *id = g_strdup_printf ("%lu", (unsigned long) window);
      /* Another tab like the first: Paddock's Ctrl+Shift+T asks which
       * session to start; Ctrl+Shift+Alt+T opens one like the selected. */
      const char *keys = g_str_equal (app->name, "paddock") ? "ctrl+shift+alt+t" : "ctrl+shift+t";
      const char *key[] = { "xdotool", "key", "--window", id, keys, NULL };
      BenchSample sample;

      if (!bench_run (key, NULL, NULL, &sample) || !wait_for_shell (fifo, now_ms () + WAIT_MS))
        {
          g_printerr ("%s: tab %u did not open\n", app->name, i + 2);
          goto out;
        }
    }
  g_usleep (G_USEC_PER_SEC);
  all = tree_pss (pid);
  all_own = process_pss (pid);
  g_debug ("%s: pid %d, %" G_GUINT64_FORMAT " KiB at one tab, %" G_GUINT64_FORMAT " at %d", app->name, (int) pid, one, all, 1 + EXTRA_TABS);
  g_array_append_vals (app->first, (double[]) { (double) one }, 1);
  g_array_append_vals (app->per_tab, (double[]) { ((double) all - (double) one) / EXTRA_TABS }, 1);
  g_array_append_vals (app->per_tab_own, (double[]) { ((double) all_own - (double) one_own) / EXTRA_TABS }, 1);
  ok = TRUE;

out:
  stop_tree (pid);
  return ok;
}

static void
clear_samples (App *app)
{
  g_array_set_size (app->startup, 0);
  g_array_set_size (app->per_tab, 0);
  g_array_set_size (app->first, 0);
  g_array_set_size (app->per_tab_own, 0);
}

int
main (int   argc,
      char *argv[])
{
  const char *paddock = g_getenv ("PADDOCK_APP");
  const char *floor = g_getenv ("PADDOCK_BENCH_FLOOR");
  const char *rounds_text = g_getenv ("PADDOCK_BENCH_ROUNDS");
  guint rounds = rounds_text != NULL ? (guint) atoi (rounds_text) : 7;
  g_autofree char *kgx = g_find_program_in_path ("kgx");
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *work = NULL;
  g_autofree char *fifo_path = NULL;
  g_autofree char *shell = NULL;
  g_autofree char *project = NULL;
  g_autofree char *kgx_config = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_auto(GStrv) kgx_envp = NULL;
  /* Paddock, Console, and the floors: bare terminals, then bare
   * terminals each running its shell under paddock-run. */
  App apps[4] = { { .name = "paddock" }, { .name = "kgx" }, { .name = "floor" }, { .name = "floor+run" } };
  enum { PADDOCK, KGX, FLOOR, FLOOR_RUN };
  Display *display;
  int fifo;

  if (g_getenv ("DISPLAY") == NULL || kgx == NULL || xdotool == NULL || paddock == NULL || floor == NULL)
    {
      g_print ("startup: skipped: needs a display (xvfb-run), kgx (gnome-console), xdotool, PADDOCK_APP "
               "and PADDOCK_BENCH_FLOOR\n");
      return 0;
    }
  display = XOpenDisplay (NULL);
  g_assert_nonnull (display);
  XSelectInput (display, DefaultRootWindow (display), SubstructureNotifyMask);

  work = g_dir_make_tmp ("paddock-bench-startup-XXXXXX", NULL);
  g_assert_nonnull (work);
  project = g_build_filename (work, "project", NULL);
  g_assert_cmpint (g_mkdir (project, 0700), ==, 0);
  fifo_path = g_build_filename (work, "shells", NULL);
  g_assert_cmpint (mkfifo (fifo_path, 0600), ==, 0);
  fifo = open (fifo_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  g_assert_cmpint (fifo, >=, 0);
  /* The shell of every tab, in both apps: says it started, then waits. */
  shell = g_build_filename (work, "shell", NULL);
  {
    g_autofree char *script = g_strdup_printf ("#!/bin/sh\necho started >>'%s'\nexec sleep 600\n", fifo_path);

    g_assert_true (g_file_set_contents (shell, script, -1, NULL));
    g_assert_cmpint (g_chmod (shell, 0755), ==, 0);
  }
  envp = g_environ_setenv (envp, "SHELL", shell, TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "memory", TRUE);
  envp = g_environ_setenv (envp, "NO_AT_BRIDGE", "1", TRUE);
  envp = g_environ_unsetenv (envp, "G_DEBUG");
  envp = g_environ_unsetenv (envp, "MALLOC_CHECK_");
  envp = g_environ_unsetenv (envp, "G_SLICE");
  /* The sessions' audit logs, the recent projects and the sessions to
   * restore go to folders of the run's, not the user's. */
  for (const char **var = (const char *[]) { "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", NULL }; *var; var++)
    {
      g_autofree char *dir = g_build_filename (work, *var, NULL);

      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      envp = g_environ_setenv (envp, *var, dir, TRUE);
    }
  /* Console takes its shell from its settings only: a key file of ours. */
  kgx_config = g_build_filename (work, "kgx-config", NULL);
  {
    g_autofree char *dir = g_build_filename (kgx_config, "glib-2.0", "settings", NULL);
    g_autofree char *keyfile = g_build_filename (dir, "keyfile", NULL);
    g_autofree char *text = g_strdup_printf ("[org/gnome/Console]\nshell=['%s']\n", shell);

    g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
    g_assert_true (g_file_set_contents (keyfile, text, -1, NULL));
  }
  kgx_envp = g_strdupv (envp);
  kgx_envp = g_environ_setenv (kgx_envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
  kgx_envp = g_environ_setenv (kgx_envp, "XDG_CONFIG_HOME", kgx_config, TRUE);

  apps[PADDOCK] = (App) { "paddock", { paddock, project, NULL }, envp };
  apps[KGX] = (App) { "kgx", { kgx, "--working-directory", project, NULL }, kgx_envp };
  apps[FLOOR] = (App) { "floor", { floor, project, NULL }, envp };
  apps[FLOOR_RUN] = (App) { "floor+run", { floor, "--supervised", project, NULL }, envp };
  for (guint a = 0; a < G_N_ELEMENTS (apps); a++)
    {
      apps[a].startup = g_array_new (FALSE, FALSE, sizeof (double));
      apps[a].per_tab = g_array_new (FALSE, FALSE, sizeof (double));
      apps[a].first = g_array_new (FALSE, FALSE, sizeof (double));
      apps[a].per_tab_own = g_array_new (FALSE, FALSE, sizeof (double));
    }
  for (guint r = 0; r < rounds + 1; r++)
    {
      guint first = g_random_int_range (0, G_N_ELEMENTS (apps));

      for (guint i = 0; i < G_N_ELEMENTS (apps); i++)
        measure (&apps[(first + i) % G_N_ELEMENTS (apps)], display, fifo);
      /* The first round warms the page cache for all: not counted. */
      if (r == 0)
        for (guint a = 0; a < G_N_ELEMENTS (apps); a++)
          clear_samples (&apps[a]);
    }

  for (guint a = 0; a < G_N_ELEMENTS (apps); a++)
    if (apps[a].startup->len == 0 || apps[a].per_tab->len == 0)
      {
        g_printerr ("startup: %s did not come up in any round\n", apps[a].name);
        return 1;
      }
  {
    double start[G_N_ELEMENTS (apps)], tab[G_N_ELEMENTS (apps)], first_tab[G_N_ELEMENTS (apps)];
    double own[G_N_ELEMENTS (apps)];

    for (guint a = 0; a < G_N_ELEMENTS (apps); a++)
      {
        start[a] = bench_median (apps[a].startup);
        tab[a] = bench_median (apps[a].per_tab);
        first_tab[a] = bench_median (apps[a].first);
        own[a] = bench_median (apps[a].per_tab_own);
      }
    g_print ("start-up to the first window and shell, one tab, %u rounds (medians), side by side with GNOME Console:\n",
             apps[PADDOCK].startup->len);
    g_print ("  paddock: %.0f ms; kgx: %.0f ms; ratio %.2fx (target <= 1.10x)\n", start[PADDOCK], start[KGX],
             start[PADDOCK] / start[KGX]);
    g_print ("memory (PSS of the whole process tree, paddock-run and shells included):\n");
    g_print ("  one tab: paddock %.1f MiB, kgx %.1f MiB\n", first_tab[PADDOCK] / 1024, first_tab[KGX] / 1024);
    g_print ("  each of %d more tabs: paddock %.1f MiB, kgx %.1f MiB; ratio %.2fx (target <= 1.20x)\n",
             EXTRA_TABS, tab[PADDOCK] / 1024, tab[KGX] / 1024, tab[PADDOCK] / tab[KGX]);
    g_print ("    of which the app's own process: paddock %.1f MiB, kgx %.1f MiB "
             "(the rest: paddock-run and the shell, or the shell alone)\n", own[PADDOCK] / 1024, own[KGX] / 1024);
    g_print ("  the floor, each more tab of a window of bare VteTerminals: %.1f MiB (%.2fx kgx); "
             "each running its shell under paddock-run, as any design with a supervisor per tab does: "
             "%.1f MiB (%.2fx kgx)\n", tab[FLOOR] / 1024, tab[FLOOR] / tab[KGX], tab[FLOOR_RUN] / 1024,
             tab[FLOOR_RUN] / tab[KGX]);
    /* What the supervisor adds to a tab, on top of Console's own tab: the
     * least a tab with one can cost, next to the target. */
    g_print ("  a supervisor per tab adds %.1f MiB (floor+run less floor): Console's tab with it, %.1f MiB, "
             "is %.2fx kgx, the least any design with one reaches\n", (tab[FLOOR_RUN] - tab[FLOOR]) / 1024,
             (tab[KGX] + tab[FLOOR_RUN] - tab[FLOOR]) / 1024, (tab[KGX] + tab[FLOOR_RUN] - tab[FLOOR]) / tab[KGX]);
  }

  close (fifo);
  XCloseDisplay (display);
  test_remove_tree (work);
  return 0;
}
