/* test-cpu-idle.c: reading idle CPUs from /proc/stat's text, and from the real one
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-cpu-idle.h"

#include <string.h>
#include <time.h>

#define STAT_HEAD "cpu  300 0 100 800 20 0 5 0 0 0\n"
#define STAT_TAIL "intr 12345 0 1 2 3\nctxt 999\nbtime 1700000000\n"

static gboolean
parse (const char      *text,
       const cpu_set_t *cpus,
       PaddockCpuTimes *times)
{
  return paddock_cpu_times_parse (text, strlen (text), cpus, times);
}

static void
test_parse (void)
{
  PaddockCpuTimes times;
  cpu_set_t only1;

  /* idle and iowait are idle; guest time is already in user. */
  g_assert_true (parse (STAT_HEAD
                        "cpu0 100 0 50 400 10 0 2 3 70 0\n"
                        "cpu1 200 1 50 400 10 0 3 0 0 0\n"
                        STAT_TAIL, NULL, &times));
  g_assert_cmpuint (times.n_cpus, ==, 2);
  g_assert_cmpuint (times.idle, ==, 820);
  g_assert_cmpuint (times.total, ==, 100 + 50 + 400 + 10 + 2 + 3 + 200 + 1 + 50 + 400 + 10 + 3);

  /* Only the CPUs we may run on count. */
  CPU_ZERO (&only1);
  CPU_SET (1, &only1);
  g_assert_true (parse (STAT_HEAD
                        "cpu0 100 0 50 400 10 0 2 3 70 0\n"
                        "cpu1 200 1 50 400 10 0 3 0 0 0\n"
                        STAT_TAIL, &only1, &times));
  g_assert_cmpuint (times.n_cpus, ==, 1);
  g_assert_cmpuint (times.idle, ==, 410);

  /* An old kernel's four fields. */
  g_assert_true (parse ("cpu  1 2 3 4\ncpu0 1 2 3 4\n", NULL, &times));
  g_assert_cmpuint (times.n_cpus, ==, 1);
  g_assert_cmpuint (times.idle, ==, 4);
  g_assert_cmpuint (times.total, ==, 10);
}

static void
test_parse_bad (void)
{
  static const char * const bad[] = {
    "",
    "\n\n",
    "cpu  1 2 3 4\n",                          /* no CPU of its own */
    "cpu0 1 2 3\n",                            /* too few fields */
    "cpu0 1 2 x 4\n",                          /* not a number */
    "cpu0 1 2 3 -4\n",
    "cpu0 1 2 3 4",                            /* cut short: no newline */
    "cpu0 99999999999999999999 2 3 4\n",       /* more than 64 bits */
    "cpux 1 2 3 4\n",
    "cpu99999999999 1 2 3 4\n",
    "cpu0\t1 2 3 4\n",
    "intr 1 2 3\ncpu0\n",
  };
  PaddockCpuTimes times;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_test_message ("%u: %s", i, bad[i]);
      g_assert_false (parse (bad[i], NULL, &times));
      g_assert_cmpuint (times.n_cpus, ==, 0);
    }

  /* A line cut by the end of what was read is left out, the rest kept. */
  g_assert_true (parse ("cpu0 1 2 3 4\ncpu1 5 6 7 8", NULL, &times));
  g_assert_cmpuint (times.n_cpus, ==, 1);
  /* The per-CPU lines come together: a later one is not taken. */
  g_assert_true (parse ("cpu0 1 2 3 4\nintr 5\ncpu1 5 6 7 8\n", NULL, &times));
  g_assert_cmpuint (times.n_cpus, ==, 1);
  /* Binary junk, NUL bytes included, is no CPU. */
  {
    static const char junk[] = "cpu0 1\0002 3 4\ncpu\xff 1 2 3 4\n";

    g_assert_false (paddock_cpu_times_parse (junk, sizeof junk - 1, NULL, &times));
  }
}

static void
test_idle_cpus (void)
{
  PaddockCpuTimes before = { .idle = 1000, .total = 4000, .n_cpus = 2 };
  PaddockCpuTimes after = { .idle = 1015, .total = 4020, .n_cpus = 2 };
  PaddockCpuTimes fewer = { .idle = 1015, .total = 4020, .n_cpus = 1 };
  PaddockCpuTimes back = { .idle = 990, .total = 4020, .n_cpus = 2 };
  PaddockCpuTimes still = before;
  PaddockCpuTimes odd = { .idle = 1030, .total = 4020, .n_cpus = 2 };
  double idle = -1;

  /* 15 of 20 ticks on 2 CPUs: 1.5 CPUs idle. */
  g_assert_true (paddock_cpu_times_idle_cpus (&before, &after, &idle));
  g_assert_cmpfloat_with_epsilon (idle, 1.5, 1e-9);

  g_assert_false (paddock_cpu_times_idle_cpus (&before, &fewer, &idle));
  g_assert_false (paddock_cpu_times_idle_cpus (&before, &back, &idle));
  g_assert_false (paddock_cpu_times_idle_cpus (&before, &still, &idle));
  g_assert_false (paddock_cpu_times_idle_cpus (&before, &odd, &idle));
  g_assert_false (paddock_cpu_times_idle_cpus (&(PaddockCpuTimes) { 0 }, &after, &idle));
}

static void
test_busy (void)
{
  /* Busy below 0.4 idle CPUs, not busy from 0.6; in between, as it was. */
  g_assert_true (paddock_cpu_idle_busy (FALSE, 0.0, 0.4, 0.6));
  g_assert_true (paddock_cpu_idle_busy (FALSE, 0.39, 0.4, 0.6));
  g_assert_false (paddock_cpu_idle_busy (FALSE, 0.4, 0.4, 0.6));
  g_assert_false (paddock_cpu_idle_busy (FALSE, 0.59, 0.4, 0.6));
  g_assert_true (paddock_cpu_idle_busy (TRUE, 0.59, 0.4, 0.6));
  g_assert_true (paddock_cpu_idle_busy (TRUE, 0.4, 0.4, 0.6));
  g_assert_false (paddock_cpu_idle_busy (TRUE, 0.6, 0.4, 0.6));
  g_assert_false (paddock_cpu_idle_busy (TRUE, 1.5, 0.4, 0.6));
}

static guint64
spin_for (double seconds)
{
  struct timespec start, now;
  volatile guint64 sink = 0;

  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      for (int i = 0; i < 100000; i++)
        sink += i;
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
  return sink;
}

/* The real /proc/stat: a CPU kept busy is not idle. The sampler reads the
 * CPUs this process may use; pinned to one, that one is the whole set. */
static void
test_real (void)
{
  g_autoptr(PaddockCpuIdle) sampler = NULL;
  cpu_set_t all, one;
  double busy = -1, idle = -1;
  int cpu = -1;

  g_assert_cmpint (sched_getaffinity (0, sizeof all, &all), ==, 0);
  for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
    if (CPU_ISSET (i, &all))
      cpu = i;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  g_assert_cmpint (sched_setaffinity (0, sizeof one, &one), ==, 0);

  sampler = paddock_cpu_idle_new ();
  g_assert_nonnull (sampler);
  g_assert_false (paddock_cpu_idle_sample (sampler, &busy));
  (void) spin_for (0.3);
  g_assert_true (paddock_cpu_idle_sample (sampler, &busy));
  g_usleep (300 * 1000);
  g_assert_true (paddock_cpu_idle_sample (sampler, &idle));
  g_test_message ("one CPU: %.2f idle while we spun, %.2f while we slept", busy, idle);

  g_assert_cmpint (sched_setaffinity (0, sizeof all, &all), ==, 0);
  /* Ticks are 10 ms. Other work may take the CPU while we sleep, so the
   * second figure is only checked for its range. */
  g_assert_cmpfloat (busy, >=, 0.0);
  g_assert_cmpfloat (busy, <, 0.3);
  g_assert_cmpfloat (idle, >=, 0.0);
  g_assert_cmpfloat (idle, <=, 1.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/cpu-idle/parse", test_parse);
  g_test_add_func ("/paddock/cpu-idle/parse-bad", test_parse_bad);
  g_test_add_func ("/paddock/cpu-idle/idle-cpus", test_idle_cpus);
  g_test_add_func ("/paddock/cpu-idle/busy", test_busy);
  g_test_add_func ("/paddock/cpu-idle/real", test_real);

  return g_test_run ();
}
