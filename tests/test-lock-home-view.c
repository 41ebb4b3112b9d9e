/* test-lock-home-view.c: the home folder closed by default, its asked entries served by paddock-run once allowed
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the real paddock-run under the real kernel, on the backend given
 * as --backend=: each attempt is refused (or held) under the lock and
 * succeeds without it.
 */
#include "config.h"

#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *paddock_run;
static const char *backend = "landlock";
static char *base, *home, *project, *runtime_dir, *config_home, *state_home, *cache_home, *big_file;

#define BIG_FILE_SIZE (G_GINT64_CONSTANT (1) << 30)

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char **
child_env (void)
{
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config_home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state_home, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  env = g_environ_unsetenv (env, "XDG_DATA_HOME");
  env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  return env;
}

/* paddock-run [--lock --lock-backend=B] --audit=@audit EXTRA… -- sh -c @script */
static GPtrArray *
command_line (gboolean            locked,
              const char         *audit,
              const char * const *extra,
              const char         *script)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (argv, g_strdup (paddock_run));
  g_ptr_array_add (argv, g_strdup_printf ("--project=%s", project));
  g_ptr_array_add (argv, g_strdup (locked ? "--lock" : "--no-lock"));
  if (locked)
    g_ptr_array_add (argv, g_strdup_printf ("--lock-backend=%s", backend));
  if (audit != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--audit=%s", audit));
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (extra[i]));
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup ("sh"));
  g_ptr_array_add (argv, g_strdup ("-c"));
  g_ptr_array_add (argv, g_strdup (script));
  g_ptr_array_add (argv, NULL);
  return argv;
}

static TestResult *
run (gboolean            locked,
     const char         *audit,
     const char * const *extra,
     const char         *script)
{
  g_autoptr(GPtrArray) argv = command_line (locked, audit, extra, script);
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env, .timeout = 180 };

  return test_run_full ((const char * const *) argv->pdata, &options);
}

static char *
new_audit_path (const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s-%s.jsonl", name, backend);
  char *path = g_build_filename (base, "audit", file, NULL);

  g_unlink (path);
  return path;
}

/* The audit log's records of @type, as JSON objects. */
static GPtrArray *
read_records (const char *audit,
              const char *type)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (audit, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;

      if (*lines[i] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      object = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (object, "type", ""), type) == 0)
        g_ptr_array_add (records, json_object_ref (object));
    }
  return records;
}

static guint
count_home_records (GPtrArray  *records,
                    const char *path,
                    const char *decision,
                    const char *by)
{
  guint n = 0;

  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (records, i);

      n += g_strcmp0 (json_object_get_string_member_with_default (record, "path", ""), path) == 0 &&
           g_strcmp0 (json_object_get_string_member_with_default (record, "decision", ""), decision) == 0 &&
           (by == NULL || g_strcmp0 (json_object_get_string_member_with_default (record, "by", ""), by) == 0);
    }
  return n;
}

static char *
home_path (const char *relative)
{
  return g_build_filename (home, relative, NULL);
}

/* An open entry reads under the lock as without it; a closed one only
 * without; an asked one, with nobody to answer, is refused at once with
 * EACCES, and the refusal is in the audit log with its path and file. */
static void
test_three_kinds (void)
{
  const char *script = "cat ~/.bashrc; cat ~/.ssh/id_test; cat ~/.m2/settings.xml; true";
  g_autofree char *audit = new_audit_path ("three-kinds");
  g_autofree char *m2 = home_path (".m2");

  for (int locked = 0; locked <= 1; locked++)
    {
      g_autoptr(TestResult) result = run (locked, audit, NULL, script);

      g_assert_cmpint (result->status, ==, 0);
      g_assert_nonnull (strstr (result->out, "open-file-text"));
      if (locked)
        {
          g_autoptr(GPtrArray) records = read_records (audit, "home");
          JsonObject *record;

          g_assert_null (strstr (result->out, "KEY-MATERIAL"));
          g_assert_null (strstr (result->out, "registry-password"));
          g_assert_nonnull (strstr (result->err, "settings.xml: Permission denied"));
          g_assert_cmpuint (count_home_records (records, m2, "deny", NULL), ==, 1);
          record = g_ptr_array_index (records, 0);
          g_assert_cmpstr (json_object_get_string_member (record, "name"), ==, "settings.xml");
          g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
          g_assert_true (g_str_has_suffix (json_object_get_string_member (record, "exe"), "/cat"));
        }
      else
        {
          g_assert_nonnull (strstr (result->out, "KEY-MATERIAL"));
          g_assert_nonnull (strstr (result->out, "registry-password"));
        }
    }
}

/* `ls ~` lists every entry, whatever its kind, and asks about none. */
static void
test_listing (void)
{
  g_autofree char *audit = new_audit_path ("listing");
  g_autoptr(TestResult) result = run (TRUE, audit, NULL, "ls -a ~; ls -l ~ >/dev/null");
  g_autoptr(GPtrArray) records = read_records (audit, "home");

  g_assert_cmpint (result->status, ==, 0);
  for (const char **name = (const char *[]) { ".bashrc", ".ssh", ".m2", "Documents", "Data", NULL }; *name; name++)
    {
      g_autofree char *line = g_strdup_printf ("\n%s\n", *name);
      g_assert_nonnull (strstr (result->out, line));
    }
  g_assert_cmpuint (records->len, ==, 0);
}

/* With --on-ask=allow an asked entry is served, all of it, and `grep -r`
 * over it asks once, not once a file. */
static void
test_allowed_grep_asks_once (void)
{
  g_autofree char *audit = new_audit_path ("grep-once");
  g_autofree char *documents = home_path ("Documents");
  const char *extra[] = { "--on-ask=allow", NULL };
  g_autoptr(TestResult) result = run (TRUE, audit, extra, "grep -r -c needle ~/Documents | sort | tail -n 3; "
                                                        "grep -rl needle ~/Documents | wc -l");
  g_autoptr(GPtrArray) records = read_records (audit, "home");
  g_autoptr(GPtrArray) asks = read_records (audit, "ask");

  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_str_has_suffix (result->out, "300\n"));
  g_assert_cmpuint (count_home_records (records, documents, "allow", NULL), ==, 1);
  g_assert_cmpuint (count_home_records (records, documents, "deny", NULL), ==, 0);
  (void) asks;
}

/* Held, and refused at the deadline, by "timeout". */
static void
test_deadline (void)
{
  g_autofree char *audit = new_audit_path ("deadline");
  g_autofree char *m2 = home_path (".m2");
  const char *extra[] = { "--on-ask=wait", "--ask-timeout=1", NULL };
  g_autoptr(TestResult) result = run (TRUE, audit, extra, "cat ~/.m2/settings.xml; echo status=$?");
  g_autoptr(GPtrArray) records = read_records (audit, "home");

  g_assert_nonnull (strstr (result->out, "status=1"));
  g_assert_nonnull (strstr (result->err, "Permission denied"));
  g_assert_cmpuint (count_home_records (records, m2, "deny", "timeout"), ==, 1);
}

/* A client's answer over the control protocol: the ask names the entry
 * and the file, Allow in This Project serves it now, and the next session
 * reads it without asking, with nobody to answer. */
static void
test_allowed_by_client (void)
{
  g_autofree char *audit = new_audit_path ("client");
  g_autofree char *pgdir = home_path (".pgdata");
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_auto(GStrv) env = child_env ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(TestResult) result = NULL;
  g_autoptr(TestResult) again = NULL;
  TestRunOptions options = { .env = (const char * const *) env, .launcher = launcher, .timeout = 120 };
  const char *extra[] = { "--control-fd=3", NULL };
  gboolean answered = FALSE;
  int pair[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  g_subprocess_launcher_take_fd (launcher, pair[1], 3);
  argv = command_line (TRUE, audit, extra, "cat ~/.pgdata/password");
  proc = test_spawn ((const char * const *) argv->pdata, &options);
  stream = g_unix_input_stream_new (pair[0], FALSE);
  lines = g_data_input_stream_new (stream);
  while (!answered)
    {
      g_autofree char *line = g_data_input_stream_read_line (lines, NULL, NULL, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *message;

      g_assert_nonnull (line);
      if (!json_parser_load_from_data (parser, line, -1, NULL))
        continue;
      message = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (message, "type", ""), "ask") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (message, "kind", ""), "home") == 0)
        {
          g_autofree char *decide = NULL;

          g_assert_cmpstr (json_object_get_string_member (message, "path"), ==, pgdir);
          g_assert_cmpstr (json_object_get_string_member (message, "name"), ==, "password");
          decide = g_strdup_printf ("{\"type\":\"decide\",\"id\":%" G_GINT64_FORMAT ",\"decision\":\"allow\","
                                    "\"remember\":\"project\"}\n", json_object_get_int_member (message, "id"));
          g_assert_cmpint (write (pair[0], decide, strlen (decide)), ==, (gssize) strlen (decide));
          answered = TRUE;
        }
    }
  result = test_finish (proc, &options);
  close (pair[0]);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, "pg-password"));

  /* The next session: nobody to answer, and no ask. */
  again = run (TRUE, NULL, NULL, "cat ~/.pgdata/password");
  g_assert_cmpint (again->status, ==, 0);
  g_assert_nonnull (strstr (again->out, "pg-password"));
}

/* A path the lock denies within an asked entry stays refused when the
 * entry is allowed. */
static void
test_denied_within_allowed (void)
{
  const char *extra[] = { "--on-ask=allow", NULL };
  g_autoptr(TestResult) result = run (TRUE, NULL, extra, "cat ~/.m2/settings.xml; cat ~/.m2/settings-security.xml; true");
  g_autoptr(TestResult) unlocked = run (FALSE, NULL, NULL, "cat ~/.m2/settings-security.xml");

  g_assert_nonnull (strstr (result->out, "registry-password"));
  g_assert_null (strstr (result->out, "MASTER-PASSWORD"));
  g_assert_nonnull (strstr (result->err, "settings-security.xml: Permission denied"));
  g_assert_nonnull (strstr (unlocked->out, "MASTER-PASSWORD"));
}

/* 10,000 opens in a storm, and a 1 GiB file read whole, through the view:
 * every byte as the real file's. */
static void
test_storm_and_big_file (void)
{
  const char *extra[] = { "--on-ask=allow", NULL };
  g_autofree char *script = g_strdup_printf (
    "/usr/bin/python3 -c 'import os\n"
    "n = 0\n"
    "for i in range(10000):\n"
    "    with open(os.path.expanduser(\"~/Documents/sub/f%%d\" %% (i %% 300 + 1))) as f: n += len(f.read()) > 0\n"
    "print(\"opened\", n)'; "
    "cksum < %s", big_file);
  g_autoptr(TestResult) locked = run (TRUE, NULL, extra, script);
  g_autoptr(TestResult) unlocked = run (FALSE, NULL, NULL, script);
  const char *sum;

  g_assert_cmpint (locked->status, ==, 0);
  g_assert_nonnull (strstr (locked->out, "opened 10000\n"));
  sum = strchr (locked->out, '\n') + 1;
  g_assert_cmpstr (sum, ==, strchr (unlocked->out, '\n') + 1);
  g_assert_nonnull (strstr (sum, " 1073741824\n"));
}

/* paddock-run killed in the middle of a read: the agent's next read of
 * the view fails (it is nobody's to serve), and it ends; nothing hangs. */
static void
test_supervisor_killed (void)
{
  g_autofree char *ready = g_build_filename (project, "view-ready", NULL);
  g_autofree char *outcome = g_build_filename (project, "view-outcome", NULL);
  /* Python, not a loop of programs: with paddock-run gone, no program
   * starts, and a read must be what fails. */
  g_autofree char *script = g_strdup_printf (
    "/usr/bin/python3 -c 'import time\n"
    "f = open(\"%s\", \"rb\", buffering=0)\n"
    "f.read(1 << 20)\n"
    "open(\"%s\", \"w\").write(\"ready\")\n"
    "try:\n"
    "    while f.read(1 << 16):\n"
    "        time.sleep(0.002)\n"
    "    outcome = \"read-all\"\n"
    "except OSError as e:\n"
    "    outcome = \"read-failed \" + e.strerror\n"
    "open(\"%s\", \"w\").write(outcome)'",
    big_file, ready, outcome);
  const char *extra[] = { "--on-ask=allow", NULL };
  g_autoptr(GPtrArray) argv = command_line (TRUE, NULL, extra, script);
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env, .timeout = 60, .quiet = TRUE };
  g_autoptr(GSubprocess) proc = NULL;
  g_autofree char *text = NULL;
  gint64 give_up = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_unlink (ready);
  g_unlink (outcome);
  proc = test_spawn ((const char * const *) argv->pdata, &options);
  /* The file's content, not its mere existence, says the read began. */
  while (!(g_file_get_contents (ready, &text, NULL, NULL) && g_str_has_prefix (text, "ready")))
    {
      g_clear_pointer (&text, g_free);
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      g_usleep (20 * 1000);
    }
  g_clear_pointer (&text, g_free);
  g_subprocess_send_signal (proc, SIGKILL);
  g_subprocess_wait (proc, NULL, NULL);
  while (!(g_file_get_contents (outcome, &text, NULL, NULL) && g_str_has_prefix (text, "read-failed")))
    {
      g_clear_pointer (&text, g_free);
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      g_usleep (20 * 1000);
    }
}

static void
add (const char *name,
     GTestFunc   func)
{
  g_autofree char *path = g_strdup_printf ("/paddock/lock-home-view/%s/%s", backend, name);

  g_test_add_func (path, func);
}

static void
make_tree (void)
{
  const char *build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  g_autofree char *template = g_build_filename (build_dir != NULL ? build_dir : ".", "paddock-view-XXXXXX", NULL);
  int fd;

  /* Not under /tmp: the lock makes its own /tmp, and the home must be the host's. */
  base = g_mkdtemp (g_steal_pointer (&template));
  g_assert_nonnull (base);
  home = g_build_filename (base, "home", NULL);
  project = g_build_filename (base, "project", NULL);
  runtime_dir = g_build_filename (base, "runtime", NULL);
  config_home = g_build_filename (home, ".config", NULL);
  state_home = g_build_filename (home, ".local", "state", NULL);
  cache_home = g_build_filename (home, ".cache", NULL);
  for (const char **dir = (const char *[]) { project, config_home, state_home, cache_home, NULL }; *dir; dir++)
    g_assert_cmpint (g_mkdir_with_parents (*dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (runtime_dir, 0700), ==, 0);
  {
    g_autofree char *audit_dir = g_build_filename (base, "audit", NULL);
    g_assert_cmpint (g_mkdir (audit_dir, 0700), ==, 0);
  }

  {
    struct
    {
      const char *path;
      const char *text;
    } files[] = {
      { ".bashrc", "open-file-text\n" },
      { ".ssh/id_test", "KEY-MATERIAL\n" },
      { ".m2/settings.xml", "<password>registry-password</password>\n" },
      { ".m2/settings-security.xml", "MASTER-PASSWORD\n" },
      { ".pgdata/password", "pg-password\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (files); i++)
      {
        g_autofree char *path = home_path (files[i].path);
        write_file (path, files[i].text);
      }
  }
  for (guint i = 1; i <= 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("Documents/sub/f%u", i);
      g_autofree char *path = home_path (name);
      write_file (path, "a needle in the haystack\n");
    }

  /* A sparse file: 1 GiB to read, none of it on disk. */
  big_file = home_path ("Data/big");
  write_file (big_file, "start\n");
  fd = open (big_file, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, BIG_FILE_SIZE), ==, 0);
  g_assert_cmpint (pwrite (fd, "end\n", 4, BIG_FILE_SIZE - 4), ==, 4);
  close (fd);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *unavailable = NULL;
  int result;

  backend = test_lock_init (&argc, &argv);

  paddock_run = g_getenv ("PADDOCK_RUN");
  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return g_test_run ();
    }
  unavailable = test_lock_unavailable (paddock_run, backend, NULL);
  if (unavailable != NULL)
    {
      g_test_skip (unavailable);
      return g_test_run ();
    }
  if (access ("/dev/fuse", R_OK | W_OK) != 0)
    {
      g_test_skip ("/dev/fuse cannot be opened here: the asked entries are closed, and the lock-home tests say so");
      return g_test_run ();
    }
  make_tree ();

  add ("three-kinds", test_three_kinds);
  add ("listing", test_listing);
  add ("grep-asks-once", test_allowed_grep_asks_once);
  add ("deadline", test_deadline);
  add ("allowed-by-client", test_allowed_by_client);
  add ("denied-within-allowed", test_denied_within_allowed);
  add ("storm-and-big-file", test_storm_and_big_file);
  add ("supervisor-killed", test_supervisor_killed);

  result = g_test_run ();
  if (result == 0)
    test_remove_tree (base);
  return result;
}
