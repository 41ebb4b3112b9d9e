/* test-audit.c: the audit log's chain holds, and every kind of tampering breaks it at the right line
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-escape.h"
#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct
{
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("paddock-audit-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "session.jsonl", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static void
append_exec (PaddockAudit *audit,
             const char   *decision,
             const char   *arg)
{
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(JsonArray) argv = json_array_new ();
  g_autoptr(GError) error = NULL;

  json_array_add_string_element (argv, "git");
  json_array_add_string_element (argv, arg);
  json_object_set_int_member (fields, "pid", 4242);
  json_object_set_string_member (fields, "exe", "/usr/bin/git");
  json_object_set_array_member (fields, "argv", g_steal_pointer (&argv));
  json_object_set_string_member (fields, "decision", decision);
  json_object_set_string_member (fields, "by", "rule");
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error));
  g_assert_no_error (error);
}

/* One writer per log: a second open, as by another session given the
 * same --audit FILE, is refused while the first is open (they wrote over
 * each other's records before), and succeeds once it is closed. */
static void
test_one_writer (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) first = paddock_audit_open (f->path, &error);
  g_autoptr(PaddockAudit) second = NULL;
  PaddockAuditVerification result = { 0 };

  g_assert_no_error (error);
  g_assert_true (paddock_audit_append (first, PADDOCK_AUDIT_EXEC, NULL, NULL, NULL));

  second = paddock_audit_open (f->path, &error);
  g_assert_null (second);
  g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, f->path));
  g_clear_error (&error);

  g_assert_true (paddock_audit_append (first, PADDOCK_AUDIT_EXEC, NULL, NULL, NULL));
  g_clear_pointer (&first, paddock_audit_close);
  second = paddock_audit_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_audit_append (second, PADDOCK_AUDIT_EXIT, NULL, NULL, NULL));
  g_clear_pointer (&second, paddock_audit_close);

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 3);
  paddock_audit_verification_clear (&result);

  /* A device is no log to guard: two sessions may both send theirs to /dev/null. */
  {
    g_autoptr(PaddockAudit) null_first = paddock_audit_open ("/dev/null", &error);
    g_autoptr(PaddockAudit) null_second = NULL;

    g_assert_no_error (error);
    null_second = paddock_audit_open ("/dev/null", &error);
    g_assert_no_error (error);
    g_assert_true (paddock_audit_append (null_second, PADDOCK_AUDIT_EXEC, NULL, NULL, NULL));
  }
}

/* A write that fails (here: past a file-size limit, as on a full disk)
 * takes nothing of its record into the file, which keeps every record
 * before it and verifies; each record after it is counted as lost, with
 * an error that paddock_audit_print_error() leaves unsaid. */
static void
test_write_fails (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, NULL);
  g_autoptr(GString) big = g_string_new (NULL);
  PaddockAuditVerification result = { 0 };
  struct rlimit old_limit, small;
  void (*old_handler) (int);
  guint written = 0;
  gboolean failed = FALSE;

  g_assert_nonnull (audit);
  for (guint i = 0; i < 300; i++)
    g_string_append_c (big, 'a' + i % 26);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  small = old_limit;
  small.rlim_cur = 16 * 1024;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);

  while (!failed && written < 1000)
    {
      g_autoptr(JsonObject) fields = json_object_new ();
      g_autoptr(GError) error = NULL;

      json_object_set_string_member (fields, "filler", big->str);
      if (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error))
        {
          written++;
          continue;
        }
      failed = TRUE;
      g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, f->path));
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
    }
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(JsonObject) fields = json_object_new ();
      g_autoptr(GError) error = NULL;

      g_assert_false (paddock_audit_append (audit, PADDOCK_AUDIT_EXIT, fields, NULL, &error));
      g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_STOPPED);
    }

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old_limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_true (failed);
  g_assert_cmpuint (written, >, 10);
  g_assert_cmpuint (paddock_audit_get_n_lost (audit), ==, 6);
  g_clear_pointer (&audit, paddock_audit_close);

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, written);
  paddock_audit_verification_clear (&result);
}

/* A session of @n records: start, n - 2 execs, end. */
static void
write_session (const char *path,
               guint       n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = paddock_audit_open (path, &error);
  g_autoptr(JsonObject) start = json_object_new ();

  g_assert_no_error (error);
  json_object_set_string_member (start, "project", "/home/dev/proj");
  json_object_set_boolean_member (start, "lock", TRUE);
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_SESSION_START, start, NULL, &error));
  for (guint i = 0; i + 2 < n; i++)
    append_exec (audit, i % 3 == 0 ? "deny" : "allow", i % 2 ? "status" : "push");
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_SESSION_END, NULL, NULL, &error));
  g_assert_cmpuint (paddock_audit_get_last_seq (audit), ==, n);
}

static GPtrArray *
read_lines (const char *path)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i + 1] != NULL; i++)
    g_ptr_array_add (out, g_strdup (lines[i]));
  return out;
}

static void
write_lines (const char *path,
             GPtrArray  *lines)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (text, g_ptr_array_index (lines, i));
      g_string_append_c (text, '\n');
    }
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
}

static void
assert_breaks_at (const char *path,
                  guint64     line,
                  const char *reason_part)
{
  PaddockAuditVerification result;
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_audit_verify_file (path, &result, &error));
  g_assert_no_error (error);
  g_test_message ("line %" G_GUINT64_FORMAT ": %s", result.bad_line, result.reason ? result.reason : "(intact)");
  g_assert_cmpuint (result.bad_line, ==, line);
  g_assert_nonnull (result.reason);
  g_assert_nonnull (strstr (result.reason, reason_part));
  g_assert_cmpuint (result.n_records, ==, line - 1);
  paddock_audit_verification_clear (&result);
}

static void
test_chain_verifies (Fixture       *f,
                     gconstpointer  data)
{
  PaddockAuditVerification result;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  struct stat st;

  write_session (f->path, 10);
  g_assert_true (paddock_audit_verify_file (f->path, &result, &error));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_null (result.reason);
  g_assert_cmpuint (result.n_records, ==, 10);
  g_assert_true (result.ended);
  g_assert_cmpuint (strlen (result.last_hash), ==, PADDOCK_AUDIT_HASH_LEN);
  paddock_audit_verification_clear (&result);

  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* The fixed layout: seq, time, type first; prev and hash last. */
  lines = read_lines (f->path);
  g_assert_cmpuint (lines->len, ==, 10);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (lines, 0), "{\"seq\":1,\"time\":\""));
  g_assert_nonnull (strstr (g_ptr_array_index (lines, 0), "\"type\":\"session-start\",\"project\":\"/home/dev/proj\""));
  g_assert_nonnull (strstr (g_ptr_array_index (lines, 0), ",\"prev\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"hash\":\""));

  /* A log cut after an intact record verifies, but does not end the session. */
  g_ptr_array_remove_index (lines, 9);
  write_lines (f->path, lines);
  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_false (result.ended);
  paddock_audit_verification_clear (&result);

  g_assert_false (paddock_audit_verify_file ("/nonexistent/audit.jsonl", &result, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

static void
test_edit_field (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;
  char *line;
  char *at;

  write_session (f->path, 10);
  lines = read_lines (f->path);
  line = g_ptr_array_index (lines, 3);
  at = strstr (line, "\"decision\":\"deny\"");
  if (at == NULL)
    at = strstr (line, "\"decision\":\"allow\"");
  g_assert_nonnull (at);
  memcpy (at + strlen ("\"decision\":\""), "DENY", 4);
  write_lines (f->path, lines);
  assert_breaks_at (f->path, 4, "hash does not match its content");
}

/* An editor who also recomputes the edited record's own hash is caught by the next record. */
static void
test_edit_and_rehash (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *hash = NULL;
  char *line;
  char *hash_at;
  gsize prefix;

  write_session (f->path, 10);
  lines = read_lines (f->path);
  line = g_ptr_array_index (lines, 4);
  hash_at = strstr (line, ",\"hash\":\"");
  g_assert_nonnull (hash_at);
  prefix = hash_at - line;
  edited = g_strndup (line, prefix);
  g_assert_nonnull (strstr (edited, "\"pid\":4242"));
  memcpy (strstr (edited, "\"pid\":4242") + 6, "1111", 4);
  hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) edited, prefix);
  g_ptr_array_index (lines, 4) = g_strdup_printf ("%s,\"hash\":\"%s\"}", edited, hash);
  g_free (line);
  write_lines (f->path, lines);
  assert_breaks_at (f->path, 6, "prev is not the hash of record 5");
}

static void
test_delete_record (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;

  write_session (f->path, 10);
  lines = read_lines (f->path);
  g_ptr_array_remove_index (lines, 2);
  write_lines (f->path, lines);
  assert_breaks_at (f->path, 3, "seq jumps from 2 to 4");
}

static void
test_delete_first (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;

  write_session (f->path, 5);
  lines = read_lines (f->path);
  g_ptr_array_remove_index (lines, 0);
  write_lines (f->path, lines);
  assert_breaks_at (f->path, 1, "seq jumps from 0 to 2");
}

static void
test_reorder (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;
  gpointer tmp;

  write_session (f->path, 10);
  lines = read_lines (f->path);
  tmp = lines->pdata[5];
  lines->pdata[5] = lines->pdata[6];
  lines->pdata[6] = tmp;
  write_lines (f->path, lines);
  assert_breaks_at (f->path, 6, "seq jumps from 5 to 7");
}

static void
test_truncate (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *contents = NULL;
  gsize length;

  write_session (f->path, 10);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  /* Cut short at the end: half of the last record. */
  g_assert_true (g_file_set_contents (f->path, contents, length - 40, NULL));
  assert_breaks_at (f->path, 10, "cut short");

  /* Bytes cut out of the middle, across the end of record 3. */
  {
    g_autoptr(GString) cut = g_string_new_len (contents, length);
    const char *third_end = contents;

    for (int i = 0; i < 3; i++)
      third_end = strchr (third_end, '\n') + 1;
    g_string_erase (cut, (third_end - contents) - 30, 60);
    g_assert_true (g_file_set_contents (f->path, cut->str, cut->len, NULL));
    assert_breaks_at (f->path, 3, "hash does not match its content");
  }
}

static void
test_garbage_appended (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  FILE *file;

  write_session (f->path, 6);
  file = fopen (f->path, "a");
  g_assert_nonnull (file);
  fputs ("{\"seq\":7,\"type\":\"exec\"}\n", file);
  fclose (file);
  assert_breaks_at (f->path, 7, "not a record");

  /* A damaged log is not continued. */
  audit = paddock_audit_open (f->path, &error);
  g_assert_null (audit);
  g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED);
}

/* A forged line nested a million deep is refused, not followed down the stack. */
static void
test_deep_nesting (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GString) line = g_string_new ("{\"a\":");

  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (line, '[');
  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (line, ']');
  g_string_append (line, ",\"hash\":\"0000000000000000000000000000000000000000000000000000000000000000\"}\n");
  g_assert_true (g_file_set_contents (f->path, line->str, line->len, NULL));
  assert_breaks_at (f->path, 1, "nested too deeply");
}

static void
test_reopen_continues (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  PaddockAuditVerification result;
  char hash[PADDOCK_AUDIT_HASH_LEN + 1];

  {
    g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (paddock_audit_get_last_seq (audit), ==, 0);
    append_exec (audit, "allow", "status");
    append_exec (audit, "allow", "log");
    append_exec (audit, "deny", "push");
    paddock_audit_get_last_hash (audit, hash);
  }
  {
    g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, &error);
    char reopened_hash[PADDOCK_AUDIT_HASH_LEN + 1];
    guint64 seq = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (paddock_audit_get_last_seq (audit), ==, 3);
    paddock_audit_get_last_hash (audit, reopened_hash);
    g_assert_cmpstr (reopened_hash, ==, hash);
    append_exec (audit, "allow", "diff");
    g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_SESSION_END, NULL, &seq, &error));
    g_assert_cmpuint (seq, ==, 5);
  }
  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 5);
  g_assert_true (result.ended);
  paddock_audit_verification_clear (&result);
}

typedef struct
{
  PaddockAudit *audit;
  guint         index;
} Writer;

static gpointer
writer_thread (gpointer user_data)
{
  Writer *w = user_data;

  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(JsonObject) fields = json_object_new ();

      json_object_set_int_member (fields, "thread", w->index);
      json_object_set_int_member (fields, "i", i);
      g_assert_true (paddock_audit_append (w->audit, PADDOCK_AUDIT_EXEC, fields, NULL, NULL));
    }
  return NULL;
}

static void
test_concurrent (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, &error);
  PaddockAuditVerification result;
  Writer writers[4];
  GThread *threads[4];

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      writers[i] = (Writer) { audit, i };
      threads[i] = g_thread_new ("audit-writer", writer_thread, &writers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 8000);
  paddock_audit_verification_clear (&result);
}

/* The part of a record between its type and its prev: the caller's fields. */
static char *
record_fields (const char *line)
{
  const char *start = strstr (line, "\"type\":");
  const char *end = strstr (line, ",\"prev\":");

  g_assert_nonnull (start);
  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

/* Fields serialized by the caller (the exec monitor's hot path) make the
 * same record as the same fields given as JSON. */
static void
test_members_match_fields (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, &error);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(JsonArray) argv = json_array_new ();
  g_autoptr(GString) members = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = NULL;
  g_autofree char *from_json = NULL;
  g_autofree char *from_members = NULL;
  PaddockAuditVerification result;
  static const char junk[] = "\xff\xfe\x01 rm \"-rf\" \x1b[2J\xe2\x80\xa9";

  json_array_add_string_element (argv, "sh");
  json_array_add_string_element (argv, junk);
  json_object_set_int_member (fields, "event", 12);
  json_object_set_int_member (fields, "pid", -1);
  json_object_set_string_member (fields, "cwd", "/home/dev/tab\there");
  json_object_set_array_member (fields, "argv", g_steal_pointer (&argv));
  json_object_set_boolean_member (fields, "truncated", TRUE);
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error));
  g_assert_no_error (error);

  g_string_append (members, ",\"event\":12,\"pid\":-1,\"cwd\":");
  paddock_audit_append_json_string (members, "/home/dev/tab\there", -1);
  g_string_append (members, ",\"argv\":[");
  paddock_audit_append_json_string (members, "sh", -1);
  g_string_append_c (members, ',');
  paddock_audit_append_json_string (members, junk, -1);
  g_string_append (members, "],\"truncated\":true");
  g_assert_true (paddock_audit_append_members (audit, PADDOCK_AUDIT_EXEC, members->str, members->len,
                                               NULL, &error));
  g_assert_no_error (error);
  g_assert_true (paddock_audit_append_members (audit, PADDOCK_AUDIT_EXIT, NULL, 0, NULL, &error));
  g_assert_no_error (error);

  lines = read_lines (f->path);
  g_assert_cmpuint (lines->len, ==, 3);
  from_json = record_fields (g_ptr_array_index (lines, 0));
  from_members = record_fields (g_ptr_array_index (lines, 1));
  g_assert_cmpstr (from_members, ==, from_json);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (lines, 1), "{\"seq\":2,\"time\":\""));
  g_assert_nonnull (strstr (g_ptr_array_index (lines, 2), "\"type\":\"exit\",\"prev\":\""));

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 3);
  paddock_audit_verification_clear (&result);
}

/* A writer killed with SIGKILL loses nothing it had appended. */
/* Another process cuts the log under a live writer: the writer survives
 * (no SIGBUS from its mapping), says so, and its later records follow the
 * cut, where verify reports the break. Run in a child, which the fault
 * would otherwise kill. */
static void
test_cut_under_writer (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = NULL;
  int ready[2], go[2];
  pid_t pid;
  int status;
  char byte = 0;

  g_assert_cmpint (pipe (ready), ==, 0);
  g_assert_cmpint (pipe (go), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      PaddockAudit *audit = paddock_audit_open (f->path, NULL);
      gboolean ok = audit != NULL;

      close (ready[0]);
      close (go[1]);
      for (guint i = 0; ok && i < 5; i++)
        {
          ok = paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, NULL, NULL, NULL);
          paddock_audit_prefault (audit);
        }
      if (write (ready[1], &byte, 1) != 1 || read (go[0], &byte, 1) != 1)
        _exit (2);
      for (guint i = 0; ok && i < 3; i++)
        {
          ok = paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, NULL, NULL, NULL);
          paddock_audit_prefault (audit);
        }
      paddock_audit_close (audit);
      _exit (ok ? 0 : 1);
    }
  close (ready[1]);
  close (go[0]);
  g_assert_cmpint (read (ready[0], &byte, 1), ==, 1);
  g_assert_cmpint (truncate (f->path, 0), ==, 0);
  g_assert_cmpint (write (go[1], &byte, 1), ==, 1);
  close (ready[0]);
  close (go[1]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  if (WIFSIGNALED (status))
    g_error ("the writer was killed by signal %d", WTERMSIG (status));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  /* Records 6 to 8, after the cut; the first no longer follows record 0. */
  lines = read_lines (f->path);
  g_assert_cmpuint (lines->len, ==, 3);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (lines, 0), "{\"seq\":6,"));
  assert_breaks_at (f->path, 1, "seq jumps from 0 to 6");
}

static void
test_kill_9 (Fixture       *f,
             gconstpointer  data)
{
  PaddockAuditVerification result;
  int pipe_fds[2];
  pid_t pid;
  int status;
  guint64 written = 0;

  g_assert_cmpint (pipe (pipe_fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      PaddockAudit *audit = paddock_audit_open (f->path, NULL);
      guint64 seq = 0;

      close (pipe_fds[0]);
      /* As the exec monitor writes: each record followed by a prefault,
       * which must leave the space ahead as the next writer expects it. */
      for (guint i = 0; i < 500; i++)
        {
          paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, NULL, &seq, NULL);
          paddock_audit_prefault (audit);
        }
      if (write (pipe_fds[1], &seq, sizeof seq) != sizeof seq)
        _exit (1);
      raise (SIGKILL);
      _exit (1);
    }
  close (pipe_fds[1]);
  g_assert_cmpint (read (pipe_fds[0], &written, sizeof written), ==, sizeof written);
  close (pipe_fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);

  g_assert_cmpuint (written, ==, 500);
  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, written);
  g_assert_false (result.ended);
  paddock_audit_verification_clear (&result);

  /* The killed writer's reserved space is NUL bytes after its records;
   * the next writer cuts it off and continues the chain. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockAudit) audit = NULL;
    g_autofree char *contents = NULL;
    gsize length;
    guint64 seq = 0;

    g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
    g_assert_cmpuint (strlen (contents), <, length);
    g_clear_pointer (&contents, g_free);

    audit = paddock_audit_open (f->path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (paddock_audit_get_last_seq (audit), ==, 500);
    g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_SESSION_END, NULL, &seq, &error));
    g_assert_cmpuint (seq, ==, 501);
    g_clear_pointer (&audit, paddock_audit_close);

    g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
    g_assert_cmpuint (strlen (contents), ==, length);
    g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
    g_assert_cmpuint (result.bad_line, ==, 0);
    g_assert_cmpuint (result.n_records, ==, 501);
    g_assert_true (result.ended);
    paddock_audit_verification_clear (&result);
  }
}

/* A writer killed in the middle of copying a record leaves a line that
 * starts with NUL (the record's first byte is stored last): the end of
 * the log, not damage. A NUL inside a record is damage. */
static void
test_torn_tail (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GString) torn = NULL;
  PaddockAuditVerification result;
  gsize length;
  char *line_3;

  write_session (f->path, 5);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  /* Lines 1-2, then line 3 with its first byte missing, then reserved space. */
  line_3 = contents;
  for (guint i = 0; i < 2; i++)
    line_3 = strchr (line_3, '\n') + 1;
  torn = g_string_new_len (contents, line_3 - contents);
  g_string_append_c (torn, '\0');
  g_string_append_len (torn, line_3 + 1, 40);
  for (guint i = 0; i < 4096; i++)
    g_string_append_c (torn, '\0');
  g_assert_true (g_file_set_contents (f->path, torn->str, torn->len, NULL));

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 2);
  paddock_audit_verification_clear (&result);

  audit = paddock_audit_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (paddock_audit_get_last_seq (audit), ==, 2);
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_SESSION_END, NULL, NULL, &error));
  g_clear_pointer (&audit, paddock_audit_close);
  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 3);
  g_assert_true (result.ended);
  paddock_audit_verification_clear (&result);

  /* A NUL in the middle of the last record: reported, and not continued. */
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  contents[length - 10] = '\0';
  g_assert_true (g_file_set_contents (f->path, contents, length, NULL));
  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 3);
  g_assert_nonnull (strstr (result.reason, "NUL"));
  paddock_audit_verification_clear (&result);
  audit = paddock_audit_open (f->path, &error);
  g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED);
  g_assert_null (audit);
}

static void
test_binary_fields (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = paddock_audit_open (f->path, &error);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(JsonArray) argv = json_array_new ();
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  PaddockAuditVerification result;
  static const char junk[] = "\xff\xfe\x01 rm -rf \x1b[2J";
  const char *control = "tab\there \"quoted\" back\\slash \x7f line\xe2\x80\xa8sep";
  JsonArray *read_argv;
  g_autofree char *back_junk = NULL;
  g_autofree char *back_control = NULL;

  json_array_add_string_element (argv, "sh");
  json_array_add_string_element (argv, junk);
  json_array_add_string_element (argv, control);
  json_object_set_array_member (fields, "argv", g_steal_pointer (&argv));
  json_object_set_string_member (fields, "\xc3(key", "value");
  g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error));
  g_assert_no_error (error);

  lines = read_lines (f->path);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_true (g_utf8_validate (g_ptr_array_index (lines, 0), -1, NULL));
  g_assert_null (strchr (g_ptr_array_index (lines, 0), 0x1b));
  g_assert_null (strstr (g_ptr_array_index (lines, 0), "\xe2\x80\xa8"));
  g_assert_true (json_parser_load_from_data (parser, g_ptr_array_index (lines, 0), -1, &error));
  g_assert_no_error (error);

  read_argv = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "argv");
  back_junk = paddock_audit_node_dup_string (json_array_get_element (read_argv, 1));
  back_control = paddock_audit_node_dup_string (json_array_get_element (read_argv, 2));
  g_assert_cmpstr (back_junk, ==, junk);
  g_assert_cmpstr (back_control, ==, control);

  g_assert_true (paddock_audit_verify_file (f->path, &result, NULL));
  g_assert_cmpuint (result.bad_line, ==, 0);
  paddock_audit_verification_clear (&result);

  /* The audit log sets these itself. */
  json_object_set_int_member (fields, "seq", 99);
  g_assert_false (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* Devices and kernel files are no place for a log: a typo as root must
 * not put records in the kernel's log, on a disk or into /proc. Devices
 * are refused before they are opened. /dev/null, and a plain file, are
 * logs. */
static void
test_not_a_log (Fixture       *f,
                gconstpointer  data)
{
  const struct { const char *path; const char *says; } refused[] = {
    { "/dev/kmsg", "is a device (character 1:11); a log is a file, a pipe, a terminal or /dev/null" },
    { "/proc/self/comm", "is a kernel file (on /proc)" },
  };
  g_autofree char *disk = g_build_filename (f->dir, "disk", NULL);
  g_autoptr(PaddockAudit) null_log = NULL;
  g_autoptr(PaddockAudit) file_log = NULL;
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) refusal = NULL;
      g_autofree char *expected = g_strdup_printf ("the audit log %s %s", refused[i].path, refused[i].says);

      g_assert_null (paddock_audit_open (refused[i].path, &refusal));
      g_assert_error (refusal, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_NOT_A_LOG);
      g_assert_true (g_str_has_prefix (refusal->message, expected));
    }

  /* A block device node (of a loop device that need not exist). */
  if (mknod (disk, S_IFBLK | 0600, makedev (7, 250)) == 0)
    {
      g_autoptr(GError) refusal = NULL;

      g_assert_null (paddock_audit_open (disk, &refusal));
      g_assert_error (refusal, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_NOT_A_LOG);
      g_assert_nonnull (strstr (refusal->message, "is a block device"));
      g_unlink (disk);
    }
  else
    g_test_message ("no block device node: mknod: %s", g_strerror (errno));

  null_log = paddock_audit_open ("/dev/null", &error);
  g_assert_no_error (error);
  g_assert_nonnull (null_log);
  file_log = paddock_audit_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file_log);
}

/* Nor are they logs to read: /proc/kmsg's read waited for the kernel's
 * next message (paddockctl audit verify /proc/kmsg hung), and /dev/zero
 * was read up to the longest line. A log that is read is checked. */
static void
test_not_a_log_to_read (Fixture       *f,
                        gconstpointer  data)
{
  const struct { const char *path; const char *says; } refused[] = {
    { "/dev/zero", "cannot read /dev/zero: it is a device (character 1:5)" },
    { "/proc/kmsg", "cannot read /proc/kmsg: it is a kernel file (on /proc)" },
    { "/proc/self/status", "cannot read /proc/self/status: it is a kernel file (on /proc)" },
  };
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) refusal = NULL;
      PaddockAuditVerification verification = { 0 };

      g_assert_false (paddock_audit_verify_file (refused[i].path, &verification, &refusal));
      g_assert_error (refusal, G_FILE_ERROR, G_FILE_ERROR_INVAL);
      g_assert_cmpstr (refusal->message, ==, refused[i].says);
    }

  write_session (f->path, 5);
  {
    PaddockAuditVerification verification = { 0 };

    g_assert_true (paddock_audit_verify_file (f->path, &verification, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (verification.n_records, ==, 5);
    g_assert_cmpuint (verification.bad_line, ==, 0);
    paddock_audit_verification_clear (&verification);
  }
}

/* A file that ends in NUL bytes is cut only where a writer left them:
 * after a record of its own, or as an unused first window. Anything else
 * (a disk image, a binary named by mistake) is refused and left whole. */
static void
test_not_ours_to_cut (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GByteArray) zeros = g_byte_array_new ();
  g_autoptr(GByteArray) text_then_zeros = g_byte_array_new ();
  g_autoptr(GByteArray) junk_after_zero = g_byte_array_new ();
  const GByteArray *refused[3];
  static const guint8 nul = 0;

  for (guint i = 0; i < 100 * 1024; i++)
    g_byte_array_append (zeros, &nul, 1);
  g_byte_array_append (text_then_zeros, (const guint8 *) "hello\n", 6);
  g_byte_array_append (junk_after_zero, &nul, 1);
  g_byte_array_append (junk_after_zero, (const guint8 *) "ISO 9660", 8);
  for (guint i = 0; i < 4096; i++)
    {
      g_byte_array_append (text_then_zeros, &nul, 1);
      g_byte_array_append (junk_after_zero, &nul, 1);
    }
  refused[0] = zeros;
  refused[1] = text_then_zeros;
  refused[2] = junk_after_zero;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockAudit) audit = NULL;
      g_autofree char *after = NULL;
      gsize after_length = 0;

      g_assert_true (g_file_set_contents (f->path, (const char *) refused[i]->data, refused[i]->len, NULL));
      audit = paddock_audit_open (f->path, &error);
      g_assert_null (audit);
      g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED);
      g_assert_true (g_str_has_suffix (error->message, "it is left as it is"));
      g_assert_true (g_file_get_contents (f->path, &after, &after_length, NULL));
      g_assert_cmpmem (after, after_length, refused[i]->data, refused[i]->len);
    }

  /* An unused first window is a log with nothing in it yet. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockAudit) audit = NULL;
    struct stat st;

    g_assert_true (g_file_set_contents (f->path, (const char *) zeros->data, 4096, NULL));
    audit = paddock_audit_open (f->path, &error);
    g_assert_no_error (error);
    g_assert_nonnull (audit);
    g_assert_cmpint (stat (f->path, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, 0);
  }
}

typedef struct
{
  int    fd;
  gsize  n_read;
} Drain;

static gpointer
drain_thread (gpointer data)
{
  Drain *drain = data;
  char buffer[4096];
  ssize_t n;

  while ((n = read (drain->fd, buffer, sizeof buffer)) > 0)
    drain->n_read += n;
  return NULL;
}

/* A named pipe as the log: while something reads it, every record goes
 * through; once nothing does, an append stops waiting after a moment, and
 * the log stops as on a full disk, rather than blocking the session (the
 * exec monitor's answering thread appends). Without the bound, this test
 * hangs. */
static void
test_pipe_nobody_reads (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *read_fifo = g_build_filename (f->dir, "read-fifo", NULL);
  g_autofree char *unread_fifo = g_build_filename (f->dir, "unread-fifo", NULL);
  g_autoptr(GString) big = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  PaddockAudit *audit;
  Drain drain = { -1, 0 };
  GThread *reader;
  guint written = 0;
  gboolean failed = FALSE;

  for (guint i = 0; i < 300; i++)
    g_string_append_c (big, 'a' + i % 26);

  /* Read: 2000 records of 300 bytes, far more than a pipe holds. */
  g_assert_cmpint (mkfifo (read_fifo, 0600), ==, 0);
  audit = paddock_audit_open (read_fifo, &error);
  g_assert_no_error (error);
  drain.fd = open (read_fifo, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (drain.fd, >=, 0);
  reader = g_thread_new ("drain", drain_thread, &drain);
  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(JsonObject) fields = json_object_new ();

      json_object_set_string_member (fields, "filler", big->str);
      g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (paddock_audit_get_n_lost (audit), ==, 0);
  paddock_audit_close (audit);
  g_thread_join (reader);
  close (drain.fd);
  g_assert_cmpuint (drain.n_read, >, 2000 * 300);

  /* Not read (the log holds the pipe open itself, so opening it did not
   * wait for a reader): the log stops, and says why. */
  g_assert_cmpint (mkfifo (unread_fifo, 0600), ==, 0);
  audit = paddock_audit_open (unread_fifo, &error);
  g_assert_no_error (error);
  while (!failed && written < 100000)
    {
      g_autoptr(JsonObject) fields = json_object_new ();
      g_autoptr(GError) append_error = NULL;

      json_object_set_string_member (fields, "filler", big->str);
      if (!paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, &append_error))
        {
          failed = TRUE;
          g_assert_error (append_error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_FAILED);
          g_assert_nonnull (strstr (append_error->message, "nothing took a record for a second"));
        }
      written++;
    }
  g_assert_true (failed);
  g_assert_cmpuint (paddock_audit_get_n_lost (audit), >=, 1);
  paddock_audit_close (audit);
  g_unlink (read_fifo);
  g_unlink (unread_fifo);
}

static void
test_escape_for_display (void)
{
  static const struct { const char *in; const char *out; } cases[] = {
    { "plain text", "plain text" },
    { "a\\b", "a\\\\b" },
    { "line\nnext\ttab\r", "line\\nnext\\ttab\\r" },
    { "\x1b[31mred", "\\e[31mred" },
    { "\x01\x7f", "\\x01\\x7f" },
    { "caf\xc3\xa9", "caf\xc3\xa9" },
    { "bad\xff\xc3", "bad\\xff\\xc3" },
    { "\xc2\x9b" "31m", "\\u{009b}31m" },
    { "evil\xe2\x80\xaeTXT", "evil\\u{202e}TXT" },
    { "zero\xe2\x80\x8bwidth", "zero\\u{200b}width" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = paddock_escape_for_display (cases[i].in, -1);
      g_autofree char *controls = paddock_escape_controls (cases[i].in);
      g_autoptr(GString) expected = g_string_new (cases[i].out);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (g_utf8_validate (out, -1, NULL));
      /* For messages: the same, but a backslash is left as it is. */
      g_string_replace (expected, "\\\\", "\\", 0);
      g_assert_cmpstr (controls, ==, expected->str);
    }
}

typedef struct
{
  guint    count;
  guint64  first_seq;
} Count;

static gboolean
count_record (const PaddockAuditRecord *record,
              gpointer                  user_data)
{
  Count *c = user_data;

  if (c->count++ == 0)
    c->first_seq = record->seq;
  g_assert_nonnull (record->object);
  g_assert_cmpuint (record->line, ==, record->seq);
  return TRUE;
}

static void
test_foreach_filters (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GRegex) grep = g_regex_new ("\"status\"", 0, 0, NULL);
  PaddockAuditFilter filter = { 0 };
  Count c = { 0 };
  g_autoptr(GError) error = NULL;

  write_session (f->path, 11);  /* 9 execs: i = 0..8, deny when i % 3 == 0, "status" when i odd */

  g_assert_true (paddock_audit_foreach (f->path, NULL, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 11);

  c = (Count) { 0 };
  filter.decision = "deny";
  g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 3);

  c = (Count) { 0 };
  filter = (PaddockAuditFilter) { .grep = grep };
  g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 4);

  /* The command line as shown, which the JSON text ("argv":["git","push"])
   * does not hold as one string. */
  for (guint i = 0; i < 2; i++)
    {
      const char *pattern = i == 0 ? "^git push$" : "t pu";
      g_autoptr(GRegex) command = g_regex_new (pattern, 0, 0, NULL);

      c = (Count) { 0 };
      filter = (PaddockAuditFilter) { .grep = command };
      g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
      g_assert_cmpuint (c.count, ==, 5);
      g_assert_cmpuint (c.first_seq, ==, 2);
    }

  c = (Count) { 0 };
  filter = (PaddockAuditFilter) { .type = PADDOCK_AUDIT_SESSION_END };
  g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 1);
  g_assert_cmpuint (c.first_seq, ==, 11);

  c = (Count) { 0 };
  filter = (PaddockAuditFilter) { .since_us = g_get_real_time () + G_USEC_PER_SEC };
  g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 0);
  c = (Count) { 0 };
  filter = (PaddockAuditFilter) { .since_us = g_get_real_time () - 60 * G_USEC_PER_SEC };
  g_assert_true (paddock_audit_foreach (f->path, &filter, count_record, &c, NULL, &error));
  g_assert_cmpuint (c.count, ==, 11);
}

static void
test_parse_time (void)
{
  gint64 now = 1772366400LL * G_USEC_PER_SEC;  /* 2026-03-01T12:00:00Z */
  gint64 t;
  g_autoptr(GError) error = NULL;

  g_assert_true (paddock_audit_parse_time ("15m", now, &t, &error));
  g_assert_cmpint (t, ==, now - (gint64) 15 * 60 * G_USEC_PER_SEC);
  g_assert_true (paddock_audit_parse_time ("2d", now, &t, &error));
  g_assert_cmpint (t, ==, now - (gint64) 2 * 86400 * G_USEC_PER_SEC);
  g_assert_true (paddock_audit_parse_time ("2026-03-01T12:00:00Z", now, &t, &error));
  g_assert_cmpint (t, ==, now);
  g_assert_true (paddock_audit_parse_time ("2026-03-01T13:00+01:00", now, &t, &error));
  g_assert_cmpint (t, ==, now);
  g_assert_true (paddock_audit_parse_time ("2026-03-01 12:00", now, &t, &error));
  g_assert_true (paddock_audit_parse_time ("2026-03-01", now, &t, &error));
  g_assert_no_error (error);
  /* A time of day alone is today's, local time, as attach prints it. */
  {
    g_autoptr(GDateTime) now_local = g_date_time_new_from_unix_local (now / G_USEC_PER_SEC);
    g_autoptr(GDateTime) at = g_date_time_new_local (g_date_time_get_year (now_local),
                                                     g_date_time_get_month (now_local),
                                                     g_date_time_get_day_of_month (now_local), 9, 5, 30.25);
    gint64 expected = g_date_time_to_unix (at) * G_USEC_PER_SEC + g_date_time_get_microsecond (at);

    g_assert_true (paddock_audit_parse_time ("09:05:30.250", now, &t, &error));
    g_assert_no_error (error);
    g_assert_cmpint (t, ==, expected);
    g_assert_true (paddock_audit_parse_time ("9:05", now, &t, &error));
    g_assert_no_error (error);
    g_assert_cmpint (t, ==, expected - 30250000);
    g_assert_false (paddock_audit_parse_time ("25:00", now, &t, &error));
    g_clear_error (&error);
  }
  g_assert_false (paddock_audit_parse_time ("yesterday", now, &t, &error));
  g_assert_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_TIME);
}

static void
test_default_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = paddock_audit_default_path ("abc123", &error);
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *bad = NULL;
  struct stat st;

  g_assert_no_error (error);
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  g_assert_true (g_str_has_prefix (path, g_get_user_state_dir ()));
  g_assert_true (g_str_has_prefix (base, "session-"));
  g_assert_true (g_str_has_suffix (base, "-abc123.jsonl"));
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  bad = paddock_audit_default_path ("../escape", &error);
  g_assert_null (bad);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

static void
test_no_symlink (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  g_autofree char *target = g_build_filename (f->dir, "target", NULL);

  g_assert_true (g_file_set_contents (target, "", 0, NULL));
  g_assert_cmpint (symlink (target, f->path), ==, 0);
  audit = paddock_audit_open (f->path, &error);
  g_assert_null (audit);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP);
  g_unlink (target);
}

static gboolean
tally_record (const PaddockAuditRecord *record,
              gpointer                  user_data)
{
  (*(guint *) user_data)++;
  return TRUE;
}

/* Reading a log that another process cuts short and writes back, over and
 * over (as a session trims its reserved space when it ends): verify and
 * show read with read(2), so they see a shorter file, never fault. A
 * reader that mapped the file died with SIGBUS here. */
static void
test_read_while_cut (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *contents = NULL;
  gsize length;
  gint64 end;
  guint n_intact = 0, n_broken = 0;
  pid_t cutter;
  int status;

  write_session (f->path, 3000);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));

  cutter = fork ();
  g_assert_cmpint (cutter, >=, 0);
  if (cutter == 0)
    {
      int fd = open (f->path, O_WRONLY | O_CLOEXEC);

      /* Not to outlive a reader that dies (as one that mapped the file did). */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      for (;;)
        {
          if (fd < 0 || ftruncate (fd, (off_t) length / 3) != 0 || ftruncate (fd, 0) != 0 ||
              pwrite (fd, contents, length, 0) != (ssize_t) length)
            _exit (1);
        }
    }

  end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < end || n_broken == 0)
    {
      PaddockAuditVerification result;
      g_autoptr(GError) error = NULL;
      guint n = 0;

      g_assert_true (paddock_audit_verify_file (f->path, &result, &error));
      g_assert_no_error (error);
      if (result.bad_line == 0)
        n_intact++;
      else
        {
          /* Cut mid-record, or rewritten under the reader. */
          g_assert_nonnull (result.reason);
          n_broken++;
        }
      paddock_audit_verification_clear (&result);
      g_assert_true (paddock_audit_foreach (f->path, NULL, tally_record, &n, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (n, <=, 3000);
      if (g_get_monotonic_time () > end + 10 * G_USEC_PER_SEC)
        break;
    }
  g_test_message ("%u reads found the log intact, %u cut", n_intact, n_broken);
  kill (cutter, SIGKILL);
  g_assert_cmpint (waitpid (cutter, &status, 0), ==, cutter);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpuint (n_broken, >, 0);
}

/* A log that is not a file: read from a pipe, as in
 * `ssh host cat log | paddockctl audit verify /dev/stdin`. */
static void
test_verify_pipe (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *contents = NULL;
  g_autofree char *pipe_path = NULL;
  PaddockAuditVerification result;
  g_autoptr(GError) error = NULL;
  gsize length;
  int fds[2];
  pid_t feeder;
  int status;

  write_session (f->path, 50);
  g_assert_true (g_file_get_contents (f->path, &contents, &length, NULL));
  g_assert_cmpint (pipe (fds), ==, 0);
  feeder = fork ();
  g_assert_cmpint (feeder, >=, 0);
  if (feeder == 0)
    {
      close (fds[0]);
      _exit (write (fds[1], contents, length) == (ssize_t) length ? 0 : 1);
    }
  close (fds[1]);
  pipe_path = g_strdup_printf ("/proc/self/fd/%d", fds[0]);
  g_assert_true (paddock_audit_verify_file (pipe_path, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, ==, 50);
  g_assert_true (result.ended);
  paddock_audit_verification_clear (&result);
  close (fds[0]);
  g_assert_cmpint (waitpid (feeder, &status, 0), ==, feeder);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* Writes @text to the /proc file @path, in place. */
static gboolean
write_proc (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean written;

  if (fd < 0)
    return FALSE;
  written = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return written;
}

/* Makes this process root of its own user and mount namespaces, with an
 * empty /run: the place of a journal socket of its own. */
static gboolean
enter_private_run (void)
{
  uid_t uid = getuid ();
  gid_t gid = getgid ();
  g_autofree char *uid_map = g_strdup_printf ("0 %u 1\n", (unsigned) uid);
  g_autofree char *gid_map = g_strdup_printf ("0 %u 1\n", (unsigned) gid);

  if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
    return FALSE;
  if (!write_proc ("/proc/self/setgroups", "deny") || !write_proc ("/proc/self/uid_map", uid_map) ||
      !write_proc ("/proc/self/gid_map", gid_map))
    return FALSE;
  return mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
         mount ("tmpfs", "/run", "tmpfs", 0, "mode=0755") == 0 &&
         g_mkdir_with_parents ("/run/systemd/journal", 0755) == 0;
}

/* Runs the calling test again in a subprocess, where this returns TRUE
 * with the subprocess made root of its own namespaces and bound to a
 * journal socket of its own, @fd. In the test's process, returns FALSE
 * once the subprocess passed, failed, was skipped (no namespaces), or
 * ran past @timeout_s (and then fails with @on_timeout, if given). */
static gboolean
in_own_journal (guint       timeout_s,
                const char *on_timeout,
                int        *fd)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX, .sun_path = PADDOCK_AUDIT_JOURNAL_SOCKET };

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, (guint64) timeout_s * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      if (g_test_trap_has_passed ())
        return FALSE;
      if (g_test_trap_reached_timeout ())
        {
          g_test_fail_printf ("%s", on_timeout != NULL ? on_timeout : "the test did not end in time");
          return FALSE;
        }
      g_test_trap_assert_stdout ("*no user and mount namespace*");
      g_test_skip ("no user and mount namespace for a journal socket of the test's own");
      return FALSE;
    }

  if (!enter_private_run ())
    {
      g_print ("no user and mount namespace: %s\n", g_strerror (errno));
      exit (1);
    }
  *fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (*fd, >=, 0);
  g_assert_cmpint (bind (*fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  return TRUE;
}

/* One journal datagram's fields: KEY=VALUE lines, or, for a value that
 * holds a newline, KEY, a newline, its length (64 bits, little endian)
 * and its bytes. */
static GHashTable *
parse_journal_datagram (const char *data,
                        gsize       length)
{
  GHashTable *fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *end = data + length;

  while (data < end)
    {
      const char *line_end = memchr (data, '\n', end - data);
      const char *equals;

      g_assert_nonnull (line_end);
      equals = memchr (data, '=', line_end - data);
      if (equals != NULL)
        {
          g_hash_table_insert (fields, g_strndup (data, equals - data), g_strndup (equals + 1, line_end - equals - 1));
          data = line_end + 1;
        }
      else
        {
          guint64 size;

          g_assert_cmpint (end - (line_end + 1), >=, 8);
          memcpy (&size, line_end + 1, 8);
          size = GUINT64_FROM_LE (size);
          g_assert_cmpuint (size, <=, (guint64) (end - (line_end + 9)));
          g_hash_table_insert (fields, g_strndup (data, line_end - data), g_strndup (line_end + 9, size));
          data = line_end + 9 + size + 1;
        }
    }
  return fields;
}

/* The next entry on the journal socket @fd, a datagram or a memfd passed
 * in one; NULL when none waits. */
static GHashTable *
receive_journal_entry (int fd)
{
  static char buffer[256 * 1024];
  union {
    struct cmsghdr header;
    char           space[CMSG_SPACE (sizeof (int))];
  } control;
  struct iovec iov = { buffer, sizeof buffer };
  struct msghdr message = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space,
                            .msg_controllen = sizeof control.space };
  struct cmsghdr *cmsg;
  ssize_t n = recvmsg (fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

  if (n < 0 && errno == EAGAIN)
    return NULL;
  g_assert_cmpint (n, >=, 0);
  cmsg = CMSG_FIRSTHDR (&message);
  if (cmsg != NULL && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
    {
      g_autofree char *data = NULL;
      struct stat st;
      int memfd;

      g_assert_cmpint (n, ==, 0);
      memcpy (&memfd, CMSG_DATA (cmsg), sizeof memfd);
      g_assert_cmpint (fstat (memfd, &st), ==, 0);
      /* Sealed: the journal may map it without a copy. */
      g_assert_cmpint (fcntl (memfd, F_GET_SEALS) & F_SEAL_WRITE, !=, 0);
      data = g_malloc (st.st_size);
      g_assert_cmpint (pread (memfd, data, st.st_size, 0), ==, st.st_size);
      close (memfd);
      return parse_journal_datagram (data, st.st_size);
    }
  return parse_journal_datagram (buffer, n);
}

/* --journal: each record, and only while it is on, goes to the journal as
 * one entry with the record's type, sequence number, hash and line. */
static void
test_journal (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *big = g_strnfill (300 * 1024, 'x');
  guint n_entries = 0;
  int fd;

  if (!in_own_journal (60, NULL, &fd))
    return;

  audit = paddock_audit_open (f->path, &error);
  g_assert_no_error (error);
  append_exec (audit, "allow", "not-in-the-journal");
  paddock_audit_set_journal (audit, TRUE);
  append_exec (audit, "deny", "push");
  append_exec (audit, "allow", "line\nbreak \"quoted\" \xff");
  /* More than a datagram holds. */
  append_exec (audit, "allow", big);
  paddock_audit_set_journal (audit, FALSE);
  append_exec (audit, "allow", "after");
  g_clear_pointer (&audit, paddock_audit_close);

  g_file_get_contents (f->path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);

  for (;;)
    {
      g_autoptr(GHashTable) fields = receive_journal_entry (fd);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *message = NULL;
      const char *line;
      JsonObject *record;

      if (fields == NULL)
        break;
      g_assert_cmpuint (n_entries, <, 3);
      line = lines[1 + n_entries];
      n_entries++;
      g_assert_cmpstr (g_hash_table_lookup (fields, "PADDOCK_RECORD"), ==, line);
      json_parser_load_from_data (parser, line, -1, &error);
      g_assert_no_error (error);
      record = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpstr (g_hash_table_lookup (fields, "PADDOCK_TYPE"), ==, "exec");
      g_assert_cmpstr (g_hash_table_lookup (fields, "PADDOCK_HASH"), ==, json_object_get_string_member (record, "hash"));
      g_assert_cmpint (g_ascii_strtoll (g_hash_table_lookup (fields, "PADDOCK_SEQ"), NULL, 10), ==,
                       json_object_get_int_member (record, "seq"));
      message = g_strdup_printf ("paddock audit exec #%" G_GINT64_FORMAT, json_object_get_int_member (record, "seq"));
      g_assert_cmpstr (g_hash_table_lookup (fields, "MESSAGE"), ==, message);
      g_assert_cmpstr (g_hash_table_lookup (fields, "PRIORITY"), ==, "6");
      g_assert_cmpstr (g_hash_table_lookup (fields, "SYSLOG_IDENTIFIER"), ==, g_get_prgname ());
    }
  g_assert_cmpuint (n_entries, ==, 3);
  close (fd);
}

/* A journal that does not read (stalled, or too slow) never holds up an
 * append, which may be an exec's: what it cannot take at once is counted
 * and not sent, and the log still has every record. */
static void
test_journal_stalled (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  PaddockAuditVerification result = { 0 };
  guint64 n_unjournaled;
  guint n_received = 0;
  GHashTable *fields;
  int fd;

  if (!in_own_journal (30, "appending waited for a journal that does not read", &fd))
    return;

  audit = paddock_audit_open (f->path, &error);
  g_assert_no_error (error);
  paddock_audit_set_journal (audit, TRUE);
  for (guint i = 0; i < 5000; i++)
    append_exec (audit, "allow", "status");
  n_unjournaled = paddock_audit_get_n_unjournaled (audit);
  g_clear_pointer (&audit, paddock_audit_close);

  g_assert_true (paddock_audit_verify_file (f->path, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.n_records, ==, 5000);
  paddock_audit_verification_clear (&result);

  while ((fields = receive_journal_entry (fd)) != NULL)
    {
      n_received++;
      g_hash_table_unref (fields);
    }
  g_assert_cmpuint (n_unjournaled, >, 0);
  g_assert_cmpuint (n_received + n_unjournaled, ==, 5000);
  close (fd);
}

int
main (int   argc,
      char *argv[])
{
  char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) g_test_add ("/paddock/audit/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("chain-verifies", test_chain_verifies);
  ADD ("edit-field", test_edit_field);
  ADD ("edit-and-rehash", test_edit_and_rehash);
  ADD ("delete-record", test_delete_record);
  ADD ("delete-first", test_delete_first);
  ADD ("reorder", test_reorder);
  ADD ("truncate", test_truncate);
  ADD ("garbage-appended", test_garbage_appended);
  ADD ("deep-nesting", test_deep_nesting);
  ADD ("reopen-continues", test_reopen_continues);
  ADD ("concurrent", test_concurrent);
  ADD ("members-match-fields", test_members_match_fields);
  ADD ("kill-9", test_kill_9);
  ADD ("cut-under-writer", test_cut_under_writer);
  ADD ("torn-tail", test_torn_tail);
  ADD ("binary-fields", test_binary_fields);
  ADD ("foreach-filters", test_foreach_filters);
  ADD ("no-symlink", test_no_symlink);
  ADD ("read-while-cut", test_read_while_cut);
  ADD ("verify-pipe", test_verify_pipe);
  ADD ("write-fails", test_write_fails);
  ADD ("one-writer", test_one_writer);
  ADD ("journal", test_journal);
  ADD ("journal-stalled", test_journal_stalled);
  ADD ("not-a-log", test_not_a_log);
  ADD ("not-a-log-to-read", test_not_a_log_to_read);
  ADD ("not-ours-to-cut", test_not_ours_to_cut);
  ADD ("pipe-nobody-reads", test_pipe_nobody_reads);
#undef ADD
  g_test_add_func ("/paddock/audit/escape-for-display", test_escape_for_display);
  g_test_add_func ("/paddock/audit/parse-time", test_parse_time);
  g_test_add_func ("/paddock/audit/default-path", test_default_path);

  status = g_test_run ();
  test_home_remove (home);
  return status;
}
