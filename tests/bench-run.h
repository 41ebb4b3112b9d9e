/* bench-run.h: one timed run of a command, for the benchmarks
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

typedef struct
{
  double wall;  /* ms */
  double cpu;   /* ms, user + system of the whole process tree */
} BenchSample;

/* Runs @argv (found in PATH) in @cwd (NULL: here) with @envp (NULL: ours),
 * its output to /dev/null, to its end. FALSE when it could not start or
 * did not exit 0; @sample is filled either way once it ran. */
gboolean bench_run (const char * const *argv,
                    const char         *cwd,
                    char              **envp,
                    BenchSample        *sample);

/* The median of @values, which it sorts. */
double   bench_median (GArray *values);
