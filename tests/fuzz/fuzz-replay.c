/* fuzz-replay.c: the fuzz targets as ordinary tests, without libFuzzer
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each target runs on its seed files (tests/fuzz/corpus/NAME/), then on
 * inputs made from them by a fixed sequence of random edits: bytes
 * flipped, set to the characters the parsers treat specially, cut,
 * repeated, or spliced in from another seed. The targets abort when an
 * invariant breaks, so a failure here is an input worth keeping: before
 * the process dies, the input is written to a file whose name is printed.
 *
 * Set PADDOCK_FUZZ_SEED for another sequence and PADDOCK_FUZZ_RUNS for
 * more or fewer inputs per target. libFuzzer builds of the same targets
 * (-Dfuzzers=true) search far wider; this keeps the invariants checked
 * in every test run, under the sanitizers too.
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int paddock_fuzz_policy (const guint8 *data, size_t size);
int paddock_fuzz_match (const guint8 *data, size_t size);
int paddock_fuzz_audit (const guint8 *data, size_t size);
int paddock_fuzz_protocol (const guint8 *data, size_t size);
int paddock_fuzz_client (const guint8 *data, size_t size);
int paddock_fuzz_settings (const guint8 *data, size_t size);
int paddock_fuzz_home (const guint8 *data, size_t size);
int paddock_fuzz_redactor (const guint8 *data, size_t size);
int paddock_fuzz_net_request (const guint8 *data, size_t size);

typedef int (*FuzzTarget) (const guint8 *data, size_t size);

/* LeakSanitizer's, where the build has it: a leak is then pinned on the
 * target that made it, not only reported as the process exits. */
int __lsan_do_recoverable_leak_check (void) __attribute__ ((weak));

typedef struct
{
  const char *name;
  FuzzTarget  target;
} Target;

#define MAX_EDITED (64 * 1024)
#define DEFAULT_RUNS 4000

/* What the crash handler writes out: set before each run. */
static const guint8 *current_data;
static size_t current_size;
static char crash_path[4096];

static void
write_all (int         fd,
           const void *data,
           size_t      size)
{
  const char *p = data;

  while (size > 0)
    {
      ssize_t n = write (fd, p, size);

      if (n <= 0)
        return;
      p += n;
      size -= (size_t) n;
    }
}

/* Async-signal-safe: open, write, close. */
static void
on_abort (int signum)
{
  static const char saved[] = "\nfuzz-replay: the failing input is in ";
  int fd = current_data != NULL ? open (crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;

  if (fd >= 0)
    {
      write_all (fd, current_data, current_size);
      close (fd);
      write_all (STDERR_FILENO, saved, sizeof saved - 1);
      write_all (STDERR_FILENO, crash_path, strlen (crash_path));
      write_all (STDERR_FILENO, "\n", 1);
    }
  signal (signum, SIG_DFL);
  raise (signum);
}

static void
run_one (FuzzTarget    target,
         const guint8 *data,
         size_t        size)
{
  current_data = data;
  current_size = size;
  target (data, size);
  current_data = NULL;
  current_size = 0;
}

static void
insert_bytes (GByteArray   *array,
              guint         at,
              const guint8 *bytes,
              guint         n)
{
  guint old_len = array->len;

  g_byte_array_set_size (array, old_len + n);
  memmove (array->data + at + n, array->data + at, old_len - at);
  memcpy (array->data + at, bytes, n);
}

static const guint8 special[] = {
  '\0', '\n', '"', '\\', '{', '}', '[', ']', ':', ',', '*', '?', '(', ')', '|',
  '/', '-', ' ', 'u', '0', 0x7f, 0x80, 0xc3, 0xe2, 0xf0, 0xff,
};

/* One random edit of @input, kept under MAX_EDITED. */
static void
mutate (GByteArray *input,
        GPtrArray  *seeds,
        GRand      *rand)
{
  guint len = input->len;
  guint at = len > 0 ? (guint) g_rand_int_range (rand, 0, (gint32) len) : 0;
  guint span = len > at ? (guint) g_rand_int_range (rand, 1, (gint32) MIN (len - at, 64) + 1) : 0;

  switch (g_rand_int_range (rand, 0, 7))
    {
    case 0:
      if (len > 0)
        input->data[at] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
      break;
    case 1:
      if (len > 0)
        input->data[at] = special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))];
      break;
    case 2:
      {
        guint8 byte = special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))];

        insert_bytes (input, at, &byte, 1);
      }
      break;
    case 3:
      if (span > 0)
        g_byte_array_remove_range (input, at, span);
      break;
    case 4:
      if (span > 0 && len + span < MAX_EDITED)
        {
          g_autofree guint8 *copy = g_memdup2 (input->data + at, span);

          insert_bytes (input, at, copy, span);
        }
      break;
    case 5:
      {
        GBytes *other = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, (gint32) seeds->len));
        gsize other_len;
        const guint8 *other_data = g_bytes_get_data (other, &other_len);

        if (other_len > 0)
          {
            guint from = (guint) g_rand_int_range (rand, 0, (gint32) other_len);
            guint n = (guint) g_rand_int_range (rand, 1, (gint32) MIN (other_len - from, 256) + 1);

            if (len + n < MAX_EDITED)
              insert_bytes (input, at, other_data + from, n);
          }
      }
      break;
    default:
      if (len > 0)
        g_byte_array_set_size (input, at);
      break;
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static GPtrArray *
load_seeds (const char *name)
{
  const char *source_dir = g_getenv ("PADDOCK_SOURCE_DIR");
  g_autofree char *dir_path = source_dir != NULL ?
    g_build_filename (source_dir, "tests", "fuzz", "corpus", name, NULL) :
    g_test_build_filename (G_TEST_DIST, "corpus", name, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *entry;

  g_assert_no_error (error);
  while ((entry = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (entry));
  /* The same order everywhere, so a seed reproduces the same inputs. */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, ((char **) names->pdata)[i], NULL);
      char *contents;
      gsize length;

      g_assert_true (g_file_get_contents (path, &contents, &length, &error));
      g_ptr_array_add (seeds, g_bytes_new_take (contents, length));
    }
  return seeds;
}

static void
test_target (gconstpointer data)
{
  const Target *t = data;
  g_autoptr(GPtrArray) seeds = load_seeds (t->name);
  g_autoptr(GByteArray) input = g_byte_array_new ();
  const char *seed_text = g_getenv ("PADDOCK_FUZZ_SEED");
  const char *runs_text = g_getenv ("PADDOCK_FUZZ_RUNS");
  guint32 seed = seed_text != NULL ? (guint32) g_ascii_strtoull (seed_text, NULL, 10) : 20261130;
  guint runs = runs_text != NULL ? (guint) g_ascii_strtoull (runs_text, NULL, 10) : DEFAULT_RUNS;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  g_snprintf (crash_path, sizeof crash_path, "%s/%s-crash", g_get_tmp_dir (), t->name);
  g_assert_cmpuint (seeds->len, >, 0);

  for (guint i = 0; i < seeds->len; i++)
    {
      gsize length;
      const guint8 *bytes = g_bytes_get_data (g_ptr_array_index (seeds, i), &length);

      run_one (t->target, bytes, length);
    }

  for (guint run = 0; run < runs; run++)
    {
      GBytes *from = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, (gint32) seeds->len));
      gsize length;
      const guint8 *bytes = g_bytes_get_data (from, &length);
      guint edits = (guint) g_rand_int_range (rand, 1, 5);

      g_byte_array_set_size (input, 0);
      g_byte_array_append (input, bytes, (guint) length);
      for (guint e = 0; e < edits; e++)
        mutate (input, seeds, rand);
      run_one (t->target, input->data, input->len);
    }
  g_test_message ("%s: %u seeds and %u edited inputs (PADDOCK_FUZZ_SEED=%u)",
                  t->name, seeds->len, runs, (unsigned) seed);

  if (__lsan_do_recoverable_leak_check != NULL && __lsan_do_recoverable_leak_check () != 0)
    {
      g_test_message ("%s leaked (see LeakSanitizer's report); PADDOCK_FUZZ_RUNS=N "
                      "replays only the first N edited inputs, to find the one", t->name);
      g_test_fail ();
    }
}

int
main (int    argc,
      char **argv)
{
  static const Target targets[] = {
    { "policy", paddock_fuzz_policy },
    { "match", paddock_fuzz_match },
    { "audit", paddock_fuzz_audit },
    { "protocol", paddock_fuzz_protocol },
    { "client", paddock_fuzz_client },
    { "settings", paddock_fuzz_settings },
    { "home", paddock_fuzz_home },
    { "redactor", paddock_fuzz_redactor },
    { "net-request", paddock_fuzz_net_request },
  };
  const char *base = g_getenv ("TMPDIR");
  g_autofree char *tmp = NULL;
  int status;

  /* The audit target writes its log under g_get_tmp_dir (): a directory
   * of our own, set before GLib first reads TMPDIR. A failing input is
   * saved there too, and then the directory stays. */
  tmp = g_build_filename (base != NULL && base[0] != '\0' ? base : "/tmp", "paddock-fuzz-replay-XXXXXX", NULL);
  if (g_mkdtemp (tmp) == NULL)
    {
      g_printerr ("fuzz-replay: cannot make a directory in %s: %s\n", base != NULL ? base : "/tmp", g_strerror (errno));
      return 1;
    }
  g_setenv ("TMPDIR", tmp, TRUE);
  signal (SIGABRT, on_abort);

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autofree char *path = g_strdup_printf ("/fuzz-replay/%s", targets[i].name);

      g_test_add_data_func (path, &targets[i], test_target);
    }
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmp, 0, NULL);
    const char *entry;

    while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmp, entry, NULL);

        g_unlink (path);
      }
    g_rmdir (tmp);
  }
  return status;
}
