/* bench-redactor.c: the redactor's throughput, against cat(1) through the same pipes
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * 1 GiB of text (English-like lines, with a secret, raw or encoded, every
 * 256 KiB or so) and 20 registered secrets (tokens of the usual shapes,
 * passwords, a multi-line private key):
 *
 *   in-process  paddock_redactor_feed() on 128 KiB chunks, no I/O
 *   pipe        this process writes the text into a pipe, a filter copies
 *               it to a second pipe, this process reads it; the filter is
 *               cat(1) or paddock-redact, run alternately N_RUNS times each
 *
 * Medians quoted, in MB/s (10^6 bytes per second). Targets: >= 1 GB/s
 * in-process, and paddock-redact >= 0.5 x cat through the pipes.
 */
#include "config.h"

#include "paddock-redactor.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (16u * 1024 * 1024)
#define TOTAL (1024ull * 1024 * 1024)
#define CHUNK (128 * 1024)
#define N_RUNS 5
#define N_SECRETS 20

static const char *words[] = {
  "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "was", "on", "be", "at", "by",
  "this", "had", "not", "are", "but", "from", "or", "have", "an", "they", "which", "one", "you", "were",
  "all", "we", "when", "there", "can", "been", "has", "more", "if", "no", "out", "do", "so", "what", "up",
  "build", "test", "error", "warning", "compile", "linking", "target", "object", "file", "directory",
  "Running", "Downloading", "Resolving", "deltas", "objects", "100%", "done.", "remote:", "Counting",
  "src/main.c:42:7:", "->", "=>", "[INFO]", "[DEBUG]", "GET", "POST", "/api/v1/repos", "HTTP/1.1", "200",
  "OK", "Content-Type:", "application/json", "{\"id\":", "12345,", "\"name\":", "\"paddock\"}", "npm",
  "install", "added", "packages", "audited", "found", "0", "vulnerabilities", "git", "push", "origin",
  "main", "Enumerating", "Writing", "Total", "reused", "To", "github.com:user/repo.git", "a1b2c3d..e4f5a6b",
};

static char *
random_chars (GRand      *rand,
              const char *prefix,
              const char *alphabet,
              guint       n)
{
  GString *s = g_string_new (prefix);
  gsize alphabet_len = strlen (alphabet);

  for (guint i = 0; i < n; i++)
    g_string_append_c (s, alphabet[g_rand_int_range (rand, 0, (gint32) alphabet_len)]);
  return g_string_free (s, FALSE);
}

static GPtrArray *
make_secrets (GRand *rand)
{
  static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static const char base64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  GPtrArray *secrets = g_ptr_array_new_with_free_func (g_free);
  GString *key = g_string_new ("-----BEGIN OPENSSH PRIVATE KEY-----\n");

  for (guint i = 0; i < 6; i++)
    g_ptr_array_add (secrets, random_chars (rand, "ghp_", alnum, 36));
  for (guint i = 0; i < 4; i++)
    g_ptr_array_add (secrets, random_chars (rand, "", base64, 40));
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (secrets, random_chars (rand, "sk-", alnum, 48));
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (secrets, random_chars (rand, "", "0123456789abcdef", 32));
  g_ptr_array_add (secrets, random_chars (rand, "", "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*-_", 12));
  g_ptr_array_add (secrets, random_chars (rand, "", "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*-_", 16));
  g_ptr_array_add (secrets, random_chars (rand, "npm_", alnum, 36));
  for (guint i = 0; i < 25; i++)
    {
      g_autofree char *line = random_chars (rand, "", base64, 70);

      g_string_append_printf (key, "%s\n", line);
    }
  g_string_append (key, "-----END OPENSSH PRIVATE KEY-----\n");
  g_ptr_array_add (secrets, g_string_free (key, FALSE));
  g_assert_cmpuint (secrets->len, ==, N_SECRETS);
  return secrets;
}

/* Lines of words, and now and then a secret, as it is or in base64; returns
 * how many were put in. */
static guint
make_text (GRand     *rand,
           GPtrArray *secrets,
           guint8    *text)
{
  gsize at = 0, next_secret = 100000;
  guint n_secrets = 0;

  while (at < BLOCK)
    {
      const char *word;
      g_autofree char *encoded = NULL;
      gsize len;

      if (at >= next_secret)
        {
          const char *secret = g_ptr_array_index (secrets, g_rand_int_range (rand, 0, N_SECRETS));

          word = secret;
          if (g_rand_boolean (rand))
            word = encoded = g_base64_encode ((const guint8 *) secret, strlen (secret));
          next_secret = at + (gsize) g_rand_int_range (rand, 128 * 1024, 384 * 1024);
          n_secrets++;
        }
      else
        word = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
      len = strlen (word);
      if (at + len + 1 > BLOCK)
        {
          memset (text + at, '\n', BLOCK - at);
          break;
        }
      memcpy (text + at, word, len);
      at += len;
      text[at++] = g_rand_int_range (rand, 0, 12) == 0 ? '\n' : ' ';
    }
  return n_secrets;
}

static PaddockRedactor *
make_redactor (GPtrArray *secrets)
{
  PaddockRedactor *redactor = paddock_redactor_new ();

  for (guint i = 0; i < secrets->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", i);
      const char *value = g_ptr_array_index (secrets, i);

      g_assert_true (paddock_redactor_add_secret (redactor, name, (const guint8 *) value, strlen (value), NULL));
    }
  return redactor;
}

static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
children_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* The MB/s by the wall clock; by the CPU time the scan took in @cpu_rate. */
static double
run_in_process (GPtrArray    *secrets,
                const guint8 *text,
                double       *cpu_rate)
{
  g_autoptr(PaddockRedactor) redactor = make_redactor (secrets);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (CHUNK * 2);
  double cpu_start = thread_cpu_seconds ();
  gint64 start = g_get_monotonic_time ();

  for (guint64 done = 0; done < TOTAL; done += CHUNK)
    {
      g_byte_array_set_size (out, 0);
      paddock_redactor_feed (redactor, text + done % BLOCK, CHUNK, out);
    }
  paddock_redactor_flush (redactor, out);
  *cpu_rate = TOTAL / (thread_cpu_seconds () - cpu_start) / 1e6;
  return TOTAL / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC) / 1e6;
}

typedef struct
{
  int           fd;
  const guint8 *text;
  guint64       total;
} Writer;

static gpointer
write_text (gpointer data)
{
  Writer *w = data;

  for (guint64 done = 0; done < w->total;)
    {
      gsize at = done % BLOCK;
      ssize_t n = write (w->fd, w->text + at, MIN ((guint64) (BLOCK - at), w->total - done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        g_error ("cannot write to the filter: %s", g_strerror (errno));
      done += (guint64) n;
    }
  close (w->fd);
  return NULL;
}

/* @total bytes of @text through @argv; the MB/s, and what came out in
 * @out_total; the output itself into @kept, if not NULL. The filter's
 * own CPU time, user and system, as MB/s in @cpu_rate. */
static double
run_pipe (const char * const *argv,
          const char         *secrets_text,
          const guint8       *text,
          guint64             total,
          guint64            *out_total,
          GByteArray         *kept,
          double             *cpu_rate)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc (CHUNK);
  int in[2], out[2], secrets_pipe[2];
  Writer writer;
  GThread *thread;
  gint64 start;
  guint64 got = 0;
  double rate, cpu_start = children_cpu_seconds ();

  g_assert_cmpint (pipe2 (in, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (out, O_CLOEXEC), ==, 0);
  g_subprocess_launcher_take_stdin_fd (launcher, in[0]);
  g_subprocess_launcher_take_stdout_fd (launcher, out[1]);
  if (secrets_text != NULL)
    {
      g_assert_cmpint (pipe2 (secrets_pipe, O_CLOEXEC), ==, 0);
      g_subprocess_launcher_take_fd (launcher, secrets_pipe[0], 3);
    }
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  /* Only the filter holds the far ends now, so its exit ends our read. */
  g_clear_object (&launcher);
  if (secrets_text != NULL)
    {
      g_assert_cmpint (write (secrets_pipe[1], secrets_text, strlen (secrets_text)), ==, (gssize) strlen (secrets_text));
      close (secrets_pipe[1]);
    }

  start = g_get_monotonic_time ();
  writer = (Writer) { in[1], text, total };
  thread = g_thread_new ("writer", write_text, &writer);
  for (;;)
    {
      ssize_t n = read (out[0], buffer, CHUNK);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        break;
      got += (guint64) n;
      if (kept != NULL)
        g_byte_array_append (kept, buffer, (guint) n);
    }
  rate = total / ((g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC) / 1e6;
  g_thread_join (thread);
  close (out[0]);
  g_subprocess_wait_check (process, NULL, &error);
  g_assert_no_error (error);
  *cpu_rate = total / (children_cpu_seconds () - cpu_start) / 1e6;
  *out_total = got;
  return rate;
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
  const char *redact = g_getenv ("PADDOCK_REDACT");
  g_autoptr(GRand) rand = g_rand_new_with_seed (30);
  g_autoptr(GPtrArray) secrets = make_secrets (rand);
  g_autofree guint8 *text = g_malloc (BLOCK);
  g_autoptr(GString) secrets_text = g_string_new (NULL);
  g_autoptr(GByteArray) kept = g_byte_array_new ();
  const char *cat_argv[] = { "cat", NULL };
  const char *redact_argv[] = { redact, "--secrets-fd=3", NULL };
  double in_process[N_RUNS], cat[N_RUNS], redactor[N_RUNS];
  double in_process_cpu[N_RUNS], cat_cpu[N_RUNS], redactor_cpu[N_RUNS];
  double ignored;
  guint n_inserted;
  guint64 out_total;
  guint n_markers = 0;

  signal (SIGPIPE, SIG_IGN);
  if (redact == NULL)
    {
      g_printerr ("bench-redactor: PADDOCK_REDACT is not set (run through meson test --benchmark)\n");
      return 77;
    }
  n_inserted = make_text (rand, secrets, text);
  for (guint i = 0; i < secrets->len; i++)
    {
      const char *value = g_ptr_array_index (secrets, i);
      g_autofree char *encoded = g_base64_encode ((const guint8 *) value, strlen (value));

      g_string_append_printf (secrets_text, "s%u %s\n", i, encoded);
    }

  /* First, that it masks: each secret put in the text, once. */
  run_pipe (redact_argv, secrets_text->str, text, BLOCK, &out_total, kept, &ignored);
  for (const guint8 *p = kept->data; (p = memmem (p, kept->len - (gsize) (p - kept->data), "«secret:s", 10)) != NULL; p++)
    n_markers++;
  if (n_markers != n_inserted)
    {
      g_printerr ("bench-redactor: %u secrets put in the text, %u masked\n", n_inserted, n_markers);
      return 1;
    }

  /* Interleaved, so the machine's other load falls on all alike. */
  for (guint r = 0; r < N_RUNS; r++)
    {
      in_process[r] = run_in_process (secrets, text, &in_process_cpu[r]);
      cat[r] = run_pipe (cat_argv, NULL, text, TOTAL, &out_total, NULL, &cat_cpu[r]);
      g_assert_cmpuint (out_total, ==, TOTAL);
      redactor[r] = run_pipe (redact_argv, secrets_text->str, text, TOTAL, &out_total, NULL, &redactor_cpu[r]);
    }
  qsort (in_process_cpu, N_RUNS, sizeof (double), compare_double);
  qsort (cat_cpu, N_RUNS, sizeof (double), compare_double);
  qsort (redactor_cpu, N_RUNS, sizeof (double), compare_double);
  qsort (in_process, N_RUNS, sizeof (double), compare_double);
  qsort (cat, N_RUNS, sizeof (double), compare_double);
  qsort (redactor, N_RUNS, sizeof (double), compare_double);

  printf ("redactor, 1 GiB of text, %u secrets (%u of them in each 16 MiB), %d runs each (medians):\n",
          N_SECRETS, n_inserted, N_RUNS);
  printf ("by the wall clock:\n");
  printf ("  paddock_redactor_feed, in-process:  %7.0f MB/s (min %.0f, max %.0f)\n",
          in_process[N_RUNS / 2], in_process[0], in_process[N_RUNS - 1]);
  printf ("  cat, pipe to pipe:                  %7.0f MB/s (min %.0f, max %.0f)\n",
          cat[N_RUNS / 2], cat[0], cat[N_RUNS - 1]);
  printf ("  paddock-redact, pipe to pipe:       %7.0f MB/s (min %.0f, max %.0f)\n",
          redactor[N_RUNS / 2], redactor[0], redactor[N_RUNS - 1]);
  printf ("  ratio paddock-redact / cat:         %7.2f\n", redactor[N_RUNS / 2] / cat[N_RUNS / 2]);
  printf ("  target >= 1000 MB/s in-process:     %s\n", in_process[N_RUNS / 2] >= 1000 ? "met" : "NOT met");
  printf ("  target >= 1000 MB/s through a pipe: %s\n", redactor[N_RUNS / 2] >= 1000 ? "met" : "NOT met");
  printf ("  target >= 0.5 x cat:                %s\n",
          redactor[N_RUNS / 2] >= 0.5 * cat[N_RUNS / 2] ? "met" : "NOT met");
  /* A busy machine stretches the wall clock of a pipeline of three
   * processes far more than the CPU time each takes. */
  printf ("by CPU time (user + system), which the machine's other load changes less:\n");
  printf ("  paddock_redactor_feed, in-process:  %7.0f MB/s\n", in_process_cpu[N_RUNS / 2]);
  printf ("  cat, the filter alone:              %7.0f MB/s\n", cat_cpu[N_RUNS / 2]);
  printf ("  paddock-redact, the filter alone:   %7.0f MB/s\n", redactor_cpu[N_RUNS / 2]);
  printf ("  ratio paddock-redact / cat:         %7.2f\n", redactor_cpu[N_RUNS / 2] / cat_cpu[N_RUNS / 2]);
  return 0;
}
