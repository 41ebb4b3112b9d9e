/* paddock-cpu-idle.h: how many of our CPUs sat idle lately, from /proc/stat
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sched.h>

G_BEGIN_DECLS

/* Idle and total time (in the kernel's clock ticks) summed over a set of CPUs. */
typedef struct
{
  guint64 idle;
  guint64 total;
  guint   n_cpus;       /* how many of the set's CPUs the text had */
} PaddockCpuTimes;

gboolean paddock_cpu_times_parse     (const char      *text,
                                      gsize            length,
                                      const cpu_set_t *cpus,
                                      PaddockCpuTimes *times);
gboolean paddock_cpu_times_idle_cpus (const PaddockCpuTimes *before,
                                      const PaddockCpuTimes *after,
                                      double                *idle_cpus);

/* With hysteresis: TRUE below @low idle CPUs, FALSE at @high or more,
 * else @current. */
gboolean paddock_cpu_idle_busy (gboolean current,
                                double   idle_cpus,
                                double   low,
                                double   high);

typedef struct _PaddockCpuIdle PaddockCpuIdle;

PaddockCpuIdle *paddock_cpu_idle_new    (void);
void            paddock_cpu_idle_free   (PaddockCpuIdle *self);
gboolean        paddock_cpu_idle_sample (PaddockCpuIdle *self,
                                         double         *idle_cpus);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockCpuIdle, paddock_cpu_idle_free)

G_END_DECLS
