/* paddock-cpu-idle.c: how many of our CPUs sat idle lately, from /proc/stat
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exec monitor asks this every so often while execs come, to choose
 * how the kernel wakes its answering thread (see paddock-exec-filter.c).
 * /proc/stat counts in clock ticks (10 ms), so an interval of 100 ms on
 * two CPUs measures idleness to about a tenth of a CPU: enough to tell a
 * machine with a CPU to spare from one without.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-cpu-idle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* user nice system idle iowait irq softirq steal; guest time is already in
 * user and nice. Kernels before 2.6.11 print fewer; four is the least. */
#define N_FIELDS 8
#define MIN_FIELDS 4
#define IDLE_FIELD 3
#define IOWAIT_FIELD 4

/* Far above any CPU number the kernel gives (and cpu_set_t's 1024). */
#define MAX_CPU_NUMBER (1u << 20)

/* Reads one "cpuN f0 f1 ..." line from @line to @end (the newline).
 * Returns FALSE for anything else. */
static gboolean
parse_cpu_line (const char *line,
                const char *end,
                guint      *cpu,
                guint64     fields[N_FIELDS])
{
  const char *p = line + 3;
  guint64 number;
  guint n = 0;

  if (p >= end || !g_ascii_isdigit (*p))
    return FALSE;
  number = 0;
  while (p < end && g_ascii_isdigit (*p))
    {
      number = number * 10 + (guint64) (*p - '0');
      if (number >= MAX_CPU_NUMBER)
        return FALSE;
      p++;
    }
  *cpu = (guint) number;

  memset (fields, 0, sizeof (guint64) * N_FIELDS);
  while (p < end)
    {
      guint64 value = 0;
      guint digits = 0;

      if (*p != ' ')
        return FALSE;
      while (p < end && *p == ' ')
        p++;
      while (p < end && g_ascii_isdigit (*p))
        {
          /* 19 digits cannot overflow 64 bits; a counter never has more. */
          if (++digits > 19)
            return FALSE;
          value = value * 10 + (guint64) (*p - '0');
          p++;
        }
      if (digits == 0)
        return p == end && n >= MIN_FIELDS;
      if (n < N_FIELDS)
        fields[n] = value;
      n++;
    }
  return n >= MIN_FIELDS;
}

/* Sums the lines of /proc/stat's text for the CPUs in @cpus (all of them
 * when NULL). A line cut short by the end of @text is left out. Returns
 * FALSE when no CPU of the set was found. */
gboolean
paddock_cpu_times_parse (const char      *text,
                         gsize            length,
                         const cpu_set_t *cpus,
                         PaddockCpuTimes *times)
{
  const char *p = text;
  const char *end = text + length;

  *times = (PaddockCpuTimes) { 0 };
  while (p < end)
    {
      const char *newline = memchr (p, '\n', end - p);
      guint64 fields[N_FIELDS];
      guint cpu;

      if (newline == NULL)
        break;
      if (newline - p > 3 && memcmp (p, "cpu", 3) == 0 &&
          parse_cpu_line (p, newline, &cpu, fields) &&
          (cpus == NULL || (cpu < CPU_SETSIZE && CPU_ISSET (cpu, cpus))))
        {
          guint64 total = 0;

          for (guint i = 0; i < N_FIELDS; i++)
            total += fields[i];
          times->idle += fields[IDLE_FIELD] + fields[IOWAIT_FIELD];
          times->total += total;
          times->n_cpus++;
        }
      else if (times->n_cpus > 0)
        break;  /* the per-CPU lines come together */
      p = newline + 1;
    }
  return times->n_cpus > 0;
}

/* How many CPUs' worth of the time between two samples went idle. FALSE
 * when the two cannot be compared (no time passed, a CPU came or went, a
 * counter went back). */
gboolean
paddock_cpu_times_idle_cpus (const PaddockCpuTimes *before,
                             const PaddockCpuTimes *after,
                             double                *idle_cpus)
{
  guint64 idle, total;

  if (before->n_cpus == 0 || before->n_cpus != after->n_cpus ||
      after->total <= before->total || after->idle < before->idle)
    return FALSE;
  idle = after->idle - before->idle;
  total = after->total - before->total;
  if (idle > total)
    return FALSE;
  *idle_cpus = (double) idle / (double) total * after->n_cpus;
  return TRUE;
}

gboolean
paddock_cpu_idle_busy (gboolean current,
                       double   idle_cpus,
                       double   low,
                       double   high)
{
  if (idle_cpus < low)
    return TRUE;
  if (idle_cpus >= high)
    return FALSE;
  return current;
}

struct _PaddockCpuIdle
{
  int              fd;
  cpu_set_t        cpus;
  gboolean         all_cpus;
  char            *buffer;
  gsize            size;
  PaddockCpuTimes  last;
};

/* NULL when /proc/stat cannot be read (no /proc): the caller goes without. */
PaddockCpuIdle *
paddock_cpu_idle_new (void)
{
  g_autoptr(PaddockCpuIdle) self = g_new0 (PaddockCpuIdle, 1);
  long n_cpus = sysconf (_SC_NPROCESSORS_CONF);

  self->fd = open ("/proc/stat", O_RDONLY | O_CLOEXEC);
  if (self->fd < 0)
    return NULL;
  /* The CPUs the agent can run on, which it inherits from us. */
  if (sched_getaffinity (0, sizeof self->cpus, &self->cpus) != 0)
    self->all_cpus = TRUE;
  /* Room for every CPU's line (under 256 bytes each), not for the
   * interrupt counts after them. */
  self->size = 512 + 256 * (gsize) CLAMP (n_cpus, 1, 4096) + 256;
  self->buffer = g_malloc (self->size);
  return g_steal_pointer (&self);
}

void
paddock_cpu_idle_free (PaddockCpuIdle *self)
{
  if (self == NULL)
    return;
  paddock_close_fd (&self->fd);
  g_free (self->buffer);
  g_free (self);
}

/* Takes a sample; sets *idle_cpus to the idle CPUs since the last one.
 * FALSE on the first sample or when the two cannot be compared. */
gboolean
paddock_cpu_idle_sample (PaddockCpuIdle *self,
                         double         *idle_cpus)
{
  PaddockCpuTimes now;
  gboolean compared;
  ssize_t n;

  do
    n = pread (self->fd, self->buffer, self->size, 0);
  while (n < 0 && errno == EINTR);
  if (n <= 0 || !paddock_cpu_times_parse (self->buffer, n, self->all_cpus ? NULL : &self->cpus, &now))
    return FALSE;
  compared = paddock_cpu_times_idle_cpus (&self->last, &now, idle_cpus);
  self->last = now;
  return compared;
}
