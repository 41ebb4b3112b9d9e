/* test-paddockctl-secret.c: paddockctl secret against the real gnome-keyring:
 * add from standard input and from a prompt that does not echo, list,
 * remove, pin, unpin and mode; a value is never taken from argv nor
 * printed; bad input and no Secret Service are errors in words
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "test-util.h"
#include "test-vault-util.h"

static char *paddockctl;
static char *base;

/* Runs paddockctl with @argv (after its name), standard input read from a
 * file holding @input (NULL: /dev/null), in @env (NULL: ours). */
static TestResult *
run_ctl (const char         *input,
         gssize              input_length,
         const char * const *env,
         const char         *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autofree char *input_path = NULL;
  TestRunOptions options = { .env = env, .launcher = launcher };
  TestResult *result;
  va_list args;

  g_ptr_array_add (argv, paddockctl);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  if (input != NULL)
    {
      g_autoptr(GError) error = NULL;

      input_path = g_build_filename (base, "stdin", NULL);
      g_file_set_contents (input_path, input, input_length, &error);
      g_assert_no_error (error);
      g_subprocess_launcher_set_stdin_file_path (launcher, input_path);
    }
  result = test_run_full ((const char * const *) argv->pdata, &options);
  if (input_path != NULL)
    g_unlink (input_path);
  return result;
}

static void
assert_never_shows (const TestResult *result,
                    const char       *value)
{
  g_assert_null (strstr (result->out, value));
  g_assert_null (strstr (result->err, value));
}

static void
test_add_list_remove (void)
{
  g_autofree char *name = test_vault_name ("ctl-gh");
  g_autofree char *raw = NULL;
  g_autoptr(TestResult) result = NULL;

  if (!test_vault_require_service ())
    return;

  result = run_ctl ("ghp-piped-4e1d0c\n", -1, NULL, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, name));
  assert_never_shows (result, "ghp-piped-4e1d0c");
  /* In the keyring, its one trailing new line dropped. */
  raw = test_vault_read_raw (name, "");
  g_assert_cmpstr (raw, ==, "ghp-piped-4e1d0c");
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "list", NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_str_has_prefix (result->out, "NAME"));
  g_assert_nonnull (strstr (result->out, name));
  g_assert_nonnull (strstr (result->out, "(every project)"));
  assert_never_shows (result, "ghp-piped-4e1d0c");
  g_clear_pointer (&result, test_result_free);

  /* Replaced from a second add. */
  result = run_ctl ("ghp-second-77aa", -1, NULL, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&raw, g_free);
  raw = test_vault_read_raw (name, "");
  g_assert_cmpstr (raw, ==, "ghp-second-77aa");
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "remove", name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&raw, g_free);
  raw = test_vault_read_raw (name, "");
  g_assert_null (raw);
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "remove", name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, name));
  g_assert_nonnull (strstr (result->err, "no such secret"));
}

static void
test_project (void)
{
  g_autofree char *name = test_vault_name ("ctl-project");
  g_autofree char *project = g_build_filename (base, "project", NULL);
  g_autofree char *link = g_build_filename (base, "project-link", NULL);
  g_autofree char *missing = g_build_filename (base, "missing", NULL);
  g_autofree char *raw = NULL;
  g_autoptr(TestResult) result = NULL;

  if (!test_vault_require_service ())
    return;
  g_assert_no_errno (g_mkdir (project, 0700));
  g_assert_no_errno (symlink (project, link));

  /* Named through a symlink, stored under the canonical folder. */
  result = run_ctl ("project-value-e5e5\n", -1, NULL, "secret", "add", "--project", link, name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, project));
  raw = test_vault_read_raw (name, project);
  g_assert_cmpstr (raw, ==, "project-value-e5e5");
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "list", "--project", project, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, name));
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, NULL, "secret", "list", "--global", NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_null (strstr (result->out, name));
  g_clear_pointer (&result, test_result_free);

  /* Without --project it is another secret: the global one, none. */
  result = run_ctl (NULL, 0, NULL, "secret", "remove", name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, NULL, "secret", "remove", "--project", project, name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&result, test_result_free);

  result = run_ctl ("value-x1", -1, NULL, "secret", "add", "--project", missing, name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, missing));
  g_assert_nonnull (strstr (result->err, g_strerror (ENOENT)));
}

/* Reads @fd until @text has come, or its end. */
static char *
read_until (int         fd,
            const char *text)
{
  GString *read_so_far = g_string_new (NULL);

  while (strstr (read_so_far->str, text) == NULL)
    {
      char buffer[256];
      gssize n = read (fd, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      g_string_append_len (read_so_far, buffer, n);
    }
  return g_string_free (read_so_far, FALSE);
}

static void
test_prompt_no_echo (void)
{
  g_autofree char *name = test_vault_name ("ctl-typed");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *raw = NULL;
  g_autoptr(GString) echoed = g_string_new (NULL);
  const char *argv[] = { paddockctl, "secret", "add", name, NULL };
  struct termios after;
  int master;
  int slave;

  if (!test_vault_require_service ())
    return;

  master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (master, >=, 0);
  g_assert_no_errno (grantpt (master));
  g_assert_no_errno (unlockpt (master));
  slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_take_stdin_fd (launcher, slave);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);

  /* Typed once the prompt shows, as a person would. */
  prompt = read_until (g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stderr_pipe (proc))),
                       "(not shown): ");
  g_assert_nonnull (strstr (prompt, name));
  g_assert_cmpint (write (master, "typed-value-c0ffee\n", 19), ==, 19);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_null (strstr (out, "typed-value"));
  g_assert_null (strstr (err, "typed-value"));

  /* The terminal shows nothing of what was typed, and echoes again. */
  g_unix_set_fd_nonblocking (master, TRUE, NULL);
  for (;;)
    {
      char buffer[256];
      gssize n = read (master, buffer, sizeof buffer);

      if (n <= 0)
        break;
      g_string_append_len (echoed, buffer, n);
    }
  g_assert_null (strstr (echoed->str, "typed"));
  g_assert_no_errno (tcgetattr (master, &after));
  g_assert_true (after.c_lflag & ECHO);
  close (master);

  raw = test_vault_read_raw (name, "");
  g_assert_cmpstr (raw, ==, "typed-value-c0ffee");
  test_vault_clear (name);
}

/* The lines `secret list` prints for @name: its row and its pins'. */
static char *
secret_rows (const char *out,
             const char *name)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr(GString) rows = g_string_new (NULL);
  gboolean inside = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != ' ')
        inside = g_str_has_prefix (lines[i], name) && lines[i][strlen (name)] == ' ';
      if (inside)
        g_string_append_printf (rows, "%s\n", lines[i]);
    }
  return g_string_free (g_steal_pointer (&rows), FALSE);
}

static void
test_pin_unpin_mode (void)
{
  g_autofree char *name = test_vault_name ("ctl-pin");
  g_autofree char *sh = realpath ("/bin/sh", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *sha256 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TestResult) result = NULL;
  gsize length;

  if (!test_vault_require_service ())
    return;
  g_file_get_contents (sh, &contents, &length, &error);
  g_assert_no_error (error);
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);

  result = run_ctl ("pin-value-0101", -1, NULL, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&result, test_result_free);

  /* A command name is found along PATH; the pin names the file itself. */
  result = run_ctl (NULL, 0, NULL, "secret", "pin", name, "sh", NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_nonnull (strstr (result->out, sh));
  g_assert_nonnull (strstr (result->out, sha256));
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "mode", name, "pinned", NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "list", NULL);
  g_assert_cmpint (result->status, ==, 0);
  {
    g_autofree char *rows = secret_rows (result->out, name);
    g_autofree char *row = g_strdup_printf ("%s  pinned", name);
    g_autofree char *pin = g_strdup_printf ("pinned to %s  sha256:%s", sh, sha256);

    g_assert_true (g_str_has_prefix (rows, row));
    g_assert_nonnull (strstr (rows, pin));
  }
  assert_never_shows (result, "pin-value-0101");
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "mode", name, "always", NULL);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_nonnull (strstr (result->err, "unknown mode \"always\""));
  g_clear_pointer (&result, test_result_free);

  result = run_ctl (NULL, 0, NULL, "secret", "unpin", name, "/bin/sh", NULL);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, NULL, "secret", "list", NULL);
  {
    g_autofree char *rows = secret_rows (result->out, name);

    g_assert_nonnull (strstr (rows, name));
    g_assert_null (strstr (rows, "pinned to"));
  }
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, NULL, "secret", "unpin", name, "/bin/sh", NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "not pinned"));
  g_clear_pointer (&result, test_result_free);

  /* Not a program file. */
  result = run_ctl (NULL, 0, NULL, "secret", "pin", name, base, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "not a regular file"));
  g_clear_pointer (&result, test_result_free);

  test_vault_clear (name);
}

static void
test_bad_input (void)
{
  g_autofree char *name = test_vault_name ("ctl-bad");
  g_autoptr(TestResult) result = NULL;
  g_auto(GStrv) env = NULL;

  if (!test_vault_require_service ())
    return;

  /* A value is never taken from the command line. */
  result = run_ctl ("value-from-stdin", -1, NULL, "secret", "add", name, "argv-value-9f9f", NULL);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_nonnull (strstr (result->err, "never from the command line"));
  assert_never_shows (result, "argv-value-9f9f");
  g_clear_pointer (&result, test_result_free);

  result = run_ctl ("value-x2", -1, NULL, "secret", "add", "bad name", NULL);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_nonnull (strstr (result->err, "not valid"));
  g_clear_pointer (&result, test_result_free);

  /* Not UTF-8; nothing; too long. */
  result = run_ctl ("latin1-\xe9-value", -1, NULL, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "not UTF-8"));
  assert_never_shows (result, "latin1");
  g_clear_pointer (&result, test_result_free);
  result = run_ctl ("", 0, NULL, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "empty"));
  g_clear_pointer (&result, test_result_free);
  {
    g_autofree char *huge = g_strnfill (1024 * 1024 + 1, 'k');

    result = run_ctl (huge, -1, NULL, "secret", "add", name, NULL);
    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, "longer than"));
    g_clear_pointer (&result, test_result_free);
  }
  {
    g_autofree char *raw = test_vault_read_raw (name, "");

    g_assert_null (raw);
  }

  result = run_ctl (NULL, 0, NULL, "secret", NULL);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_nonnull (strstr (result->err, "secret needs a command: add, list, remove, pin, unpin or mode"));
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, NULL, "secret", "pin", name, NULL);
  g_assert_cmpint (result->status, ==, 2);
  g_clear_pointer (&result, test_result_free);

  /* No Secret Service: one line that says so. */
  env = g_environ_setenv (g_get_environ (), "DBUS_SESSION_BUS_ADDRESS",
                          "unix:path=/nonexistent/paddock-test-bus", TRUE);
  result = run_ctl ("nosvc-value-3c3c", -1, (const char * const *) env, "secret", "add", name, NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "no Secret Service"));
  assert_never_shows (result, "nosvc-value-3c3c");
  g_clear_pointer (&result, test_result_free);
  result = run_ctl (NULL, 0, (const char * const *) env, "secret", "list", NULL);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, "no Secret Service"));
}

int
main (int   argc,
      char *argv[])
{
  const char *build_dir;
  g_autoptr(GError) error = NULL;
  char *tmp;
  int status;

  g_test_init (&argc, &argv, NULL);

  build_dir = g_getenv ("PADDOCK_BUILD_DIR");
  if (build_dir == NULL)
    {
      g_test_skip ("PADDOCK_BUILD_DIR is not set");
      return g_test_run ();
    }
  paddockctl = g_build_filename (build_dir, "app", "paddockctl", "paddockctl", NULL);
  tmp = g_dir_make_tmp ("paddockctl-secret-XXXXXX", &error);
  g_assert_no_error (error);
  base = realpath (tmp, NULL);
  g_free (tmp);

  g_test_add_func ("/paddock/paddockctl-secret/add-list-remove", test_add_list_remove);
  g_test_add_func ("/paddock/paddockctl-secret/project", test_project);
  g_test_add_func ("/paddock/paddockctl-secret/prompt-no-echo", test_prompt_no_echo);
  g_test_add_func ("/paddock/paddockctl-secret/pin-unpin-mode", test_pin_unpin_mode);
  g_test_add_func ("/paddock/paddockctl-secret/bad-input", test_bad_input);

  status = g_test_run ();
  test_remove_tree (base);
  g_free (base);
  g_free (paddockctl);
  return status;
}
