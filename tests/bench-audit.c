/* bench-audit.c: audit records appended per second, against unhashed peers
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three writers of the same exec records, each run several times in this
 * process, medians quoted:
 *   audit   paddock_audit_append(): serialize, SHA-256 chain, one write(2)
 *   write   the same JSON line without prev/hash, one write(2) per record
 *           (what any log that survives kill -9 pays)
 *   fprintf the same JSON line without prev/hash through stdio's buffer
 *           (the brief's peer: fast, but a kill -9 loses the buffer)
 */
#include "config.h"

#include "paddock-audit.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N_RECORDS 50000
#define N_RUNS 5

static JsonObject *
make_fields (guint i)
{
  JsonObject *fields = json_object_new ();
  JsonArray *argv = json_array_new ();

  json_array_add_string_element (argv, "git");
  json_array_add_string_element (argv, "commit");
  json_array_add_string_element (argv, "-m");
  json_array_add_string_element (argv, "Fix the frobnicator's off-by-one in the widget cache");
  json_object_set_int_member (fields, "pid", 10000 + i);
  json_object_set_int_member (fields, "ppid", 9999);
  json_object_set_string_member (fields, "cwd", "/home/dev/projects/paddock");
  json_object_set_string_member (fields, "exe", "/usr/bin/git");
  json_object_set_array_member (fields, "argv", argv);
  json_object_set_string_member (fields, "decision", "allow");
  json_object_set_string_member (fields, "by", "policy");
  return fields;
}

static char *
plain_line (JsonObject *fields,
            guint       seq)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), fields);
  g_autofree char *body = json_to_string (node, FALSE);

  /* The same record, minus prev and hash. */
  return g_strdup_printf ("{\"seq\":%u,\"time\":\"2026-03-01T12:00:00.000000Z\",\"type\":\"exec\",%s\n",
                          seq, body + 1);
}

static double
run_audit (const char  *path,
           JsonObject **fields)
{
  g_autoptr(PaddockAudit) audit = NULL;
  gint64 start;

  g_unlink (path);
  audit = paddock_audit_open (path, NULL);
  g_assert_nonnull (audit);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_RECORDS; i++)
    paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields[i % 16], NULL, NULL);
  return N_RECORDS / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

static double
run_write (const char  *path,
           JsonObject **fields)
{
  int fd;
  gint64 start;

  g_unlink (path);
  fd = open (path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_RECORDS; i++)
    {
      g_autofree char *line = plain_line (fields[i % 16], i + 1);

      if (write (fd, line, strlen (line)) < 0)
        g_error ("write: %s", g_strerror (errno));
    }
  close (fd);
  return N_RECORDS / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

static double
run_fprintf (const char  *path,
             JsonObject **fields)
{
  FILE *file;
  gint64 start;

  g_unlink (path);
  file = fopen (path, "ae");
  g_assert_nonnull (file);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_RECORDS; i++)
    {
      g_autofree char *line = plain_line (fields[i % 16], i + 1);

      fprintf (file, "%s", line);
    }
  fclose (file);
  return N_RECORDS / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-bench-audit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.jsonl", NULL);
  JsonObject *fields[16];
  double audit[N_RUNS], plain_write[N_RUNS], plain_fprintf[N_RUNS];
  PaddockAuditVerification result;
  gint64 start;
  double verify_rate;

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    fields[i] = make_fields (i);

  /* Interleaved, so that the machine's other load falls on all three alike. */
  for (guint r = 0; r < N_RUNS; r++)
    {
      audit[r] = run_audit (path, fields);
      plain_write[r] = run_write (path, fields);
      plain_fprintf[r] = run_fprintf (path, fields);
    }

  run_audit (path, fields);
  start = g_get_monotonic_time ();
  paddock_audit_verify_file (path, &result, NULL);
  verify_rate = result.n_records / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
  g_assert_cmpuint (result.bad_line, ==, 0);
  paddock_audit_verification_clear (&result);

  qsort (audit, N_RUNS, sizeof (double), compare_double);
  qsort (plain_write, N_RUNS, sizeof (double), compare_double);
  qsort (plain_fprintf, N_RUNS, sizeof (double), compare_double);

  printf ("audit append, %d records x %d runs, in %s (medians):\n", N_RECORDS, N_RUNS, dir);
  printf ("  paddock_audit_append:          %9.0f records/s (min %.0f, max %.0f)\n",
          audit[N_RUNS / 2], audit[0], audit[N_RUNS - 1]);
  printf ("  write(2) per line, no hash:    %9.0f records/s\n", plain_write[N_RUNS / 2]);
  printf ("  fprintf, buffered, no hash:    %9.0f records/s\n", plain_fprintf[N_RUNS / 2]);
  printf ("  ratio audit / write(2):        %9.2f\n", audit[N_RUNS / 2] / plain_write[N_RUNS / 2]);
  printf ("  ratio audit / fprintf:         %9.2f\n", audit[N_RUNS / 2] / plain_fprintf[N_RUNS / 2]);
  printf ("  target >= 50000 records/s:     %s\n", audit[N_RUNS / 2] >= 50000 ? "met" : "NOT met");
  printf ("verify: %.0f records/s\n", verify_rate);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    json_object_unref (fields[i]);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
