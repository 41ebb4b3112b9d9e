/* test-lock-status.c: reading what paddock-run --lock-status --json, or a session, says the lock does
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "paddock-lock-status.h"
#include "test-util.h"

static const char landlock_7[] =
  "{\"type\":\"lock-status\",\"lock\":\"landlock\",\"features\":[\"landlock-abi-7\",\"lock-files\","
  "\"lock-truncate\",\"lock-ioctl-dev\",\"lock-signals\",\"lock-abstract-unix-sockets\","
  "\"lock-named-unix-sockets\",\"lock-denied-folders\",\"lock-metadata\",\"lock-terminals\","
  "\"lock-home-asked\",\"lock-ipc\",\"lock-other-processes\",\"lock-seccomp\",\"lock-no-new-privs\"]}";

static const char landlock_3[] =
  "{\"type\":\"lock-status\",\"lock\":\"landlock\",\"features\":[\"landlock-abi-3\",\"lock-files\","
  "\"lock-truncate\",\"lock-seccomp\",\"lock-no-new-privs\"]}";

static const char nothing[] =
  "{\"type\":\"lock-status\",\"lock\":\"none\",\"reason\":\"cannot lock the folder: Landlock is unavailable "
  "in this kernel and user namespaces are unavailable to this user (Operation not permitted)\",\"features\":[]}";

/* A session that runs without the lock says so in its hello. */
static const char unlocked_hello[] =
  "{\"type\":\"hello\",\"version\":1,\"session\":\"5e55\",\"project\":\"/p\",\"command\":[\"sh\"],"
  "\"agent_pid\":1,\"lock\":\"off\",\"network\":\"off\",\"features\":[\"seccomp-user-notif\"]}";

static PaddockLockStatus *
status_of (const char  *line,
           GError     **error)
{
  g_autoptr(PaddockMessage) message = paddock_message_parse (line, strlen (line), error);

  return message != NULL ? paddock_lock_status_new_from_message (message, error) : NULL;
}

static PaddockLockProtection *
find_protection (GPtrArray  *protections,
                 const char *title)
{
  for (guint i = 0; i < protections->len; i++)
    {
      PaddockLockProtection *protection = g_ptr_array_index (protections, i);

      if (g_str_equal (protection->title, title))
        return protection;
    }
  return NULL;
}

static void
test_parse_landlock (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockLockStatus) status = status_of (landlock_7, &error);
  g_autoptr(GPtrArray) protections = NULL;
  g_autofree char *mechanism = NULL;

  g_assert_no_error (error);
  g_assert_true (paddock_lock_status_get_available (status));
  g_assert_cmpint (paddock_lock_status_get_landlock_abi (status), ==, 7);
  mechanism = paddock_lock_status_dup_mechanism (status);
  g_assert_cmpstr (mechanism, ==, "Landlock, ABI 7");

  protections = paddock_lock_status_list_protections (status);
  g_assert_cmpuint (protections->len, ==, 14);
  for (guint i = 0; i < protections->len; i++)
    g_assert_true (((PaddockLockProtection *) g_ptr_array_index (protections, i))->active);
  /* The network is not something the folder lock claims. */
  g_assert_null (find_protection (protections, "TCP"));
}

static void
test_parse_older_abi (void)
{
  g_autoptr(PaddockLockStatus) status = status_of (landlock_3, NULL);
  g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);
  PaddockLockProtection *files = find_protection (protections, "Files outside the project");
  PaddockLockProtection *signals = find_protection (protections, "Signals to programs outside the lock");
  PaddockLockProtection *abstract = find_protection (protections, "Abstract Unix sockets");
  PaddockLockProtection *named = find_protection (protections, "Named Unix sockets");

  g_assert_true (files->active);
  g_assert_false (signals->active);
  g_assert_nonnull (signals->detail);
  /* What is missing says why. */
  g_assert_false (abstract->active);
  g_assert_cmpstr (abstract->detail, ==, "Needs Landlock ABI 6");
  g_assert_false (named->active);
  g_assert_cmpstr (named->detail, ==, "Cannot create a mount namespace for a private /tmp and /run");
  /* Without the home view, the asked entries are closed, and the row says so. */
  g_assert_false (find_protection (protections, "The rest of your home folder")->active);
  g_assert_true (g_str_has_prefix (find_protection (protections, "The rest of your home folder")->detail, "Closed"));
  /* Without a PID namespace, what of other processes stays in sight. */
  g_assert_false (find_protection (protections, "Programs outside the lock")->active);
  g_assert_nonnull (strstr (find_protection (protections, "Programs outside the lock")->detail, "command lines"));
  /* Landlock alone leaves these to the mount namespace, which says why it is missing. */
  for (const char **title = (const char *[]) { "Sockets and file names in credential stores",
                                               "Permissions and times of files outside the project",
                                               "Other terminals", NULL }; *title; title++)
    {
      PaddockLockProtection *protection = find_protection (protections, *title);

      g_assert_false (protection->active);
      g_assert_true (g_str_has_prefix (protection->detail, "Cannot create a mount namespace: "));
    }
}

static void
test_parse_unavailable (void)
{
  g_autoptr(PaddockLockStatus) status = status_of (nothing, NULL);
  g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);
  g_autofree char *mechanism = paddock_lock_status_dup_mechanism (status);

  g_assert_false (paddock_lock_status_get_available (status));
  g_assert_cmpint (paddock_lock_status_get_landlock_abi (status), ==, 0);
  g_assert_cmpstr (paddock_lock_status_get_denied (status)[0], ==, NULL);
  g_assert_true (g_str_has_prefix (mechanism, "Unavailable: Cannot lock the folder: Landlock is unavailable"));
  /* Nothing is protected where no lock can start, whatever else the kernel has. */
  for (guint i = 0; i < protections->len; i++)
    g_assert_false (((PaddockLockProtection *) g_ptr_array_index (protections, i))->active);
}

static void
test_parse_unlocked_session (void)
{
  g_autoptr(PaddockLockStatus) status = status_of (unlocked_hello, NULL);
  g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);
  g_autofree char *mechanism = paddock_lock_status_dup_mechanism (status);

  g_assert_false (paddock_lock_status_get_available (status));
  g_assert_cmpstr (mechanism, ==, "Off");
  for (guint i = 0; i < protections->len; i++)
    {
      PaddockLockProtection *protection = g_ptr_array_index (protections, i);

      g_assert_false (protection->active);
      g_assert_cmpstr (protection->detail, ==, "This session has no lock");
    }
}

static void
test_parse_garbage (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockLockStatus) status = status_of ("{\"type\":\"lock-status\",\"features\":[]}", &error);

  /* A status that does not say which lock is no status. */
  g_assert_null (status);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  status = status_of ("{\"type\":\"exit\",\"time\":1,\"pid\":2}", &error);
  g_assert_null (status);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static PaddockLockStatus *
load (const char  *runner,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_lock_status_load_async (runner, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return paddock_lock_status_load_finish (result, error);
}

static void
test_load_from_runner (void)
{
  const char *runner = g_getenv ("PADDOCK_RUN");
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockLockStatus) status = NULL;
  g_autoptr(TestResult) run = NULL;
  const char *out;
  g_autofree char *mechanism = NULL;
  g_autoptr(GPtrArray) protections = NULL;
  const char *argv[] = { runner, "--lock-status", NULL };

  if (runner == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }

  status = load (runner, &error);
  g_assert_no_error (error);
  /* The words and the message come from one probe: they agree. */
  run = test_run (argv);
  out = run->out;
  g_assert_true (g_str_has_prefix (out, "mechanism: "));
  if (paddock_lock_status_get_available (status))
    {
      g_autofree char *abi = g_strdup_printf ("landlock-abi: %d\n", paddock_lock_status_get_landlock_abi (status));

      g_assert_true (g_str_has_prefix (out, "mechanism: landlock\n") || g_str_has_prefix (out, "mechanism: namespaces\n"));
      g_assert_nonnull (strstr (out, abi));
    }
  else
    g_assert_true (g_str_has_prefix (out, "mechanism: none ("));
  protections = paddock_lock_status_list_protections (status);
  g_assert_cmpuint (protections->len, ==, 14);
  mechanism = paddock_lock_status_dup_mechanism (status);
  g_test_message ("%s", mechanism);
  /* The deny list too: each path the words list, the message lists. */
  {
    const char * const *denied = paddock_lock_status_get_denied (status);
    g_autofree char *ssh = g_build_filename (g_get_home_dir (), ".ssh", NULL);
    g_autofree char *line = NULL;
    g_autofree char *real = realpath (ssh, NULL);

    g_assert_nonnull (denied);
    g_assert_cmpuint (g_strv_length ((char **) denied), >, 20);
    for (guint i = 0; denied[i] != NULL; i++)
      {
        g_autofree char *expected = g_strdup_printf ("\ndenied: %s\n", denied[i]);
        g_assert_nonnull (strstr (out, expected));
      }
    line = g_strdup_printf ("\ndenied: %s\n", real != NULL ? real : ssh);
    g_assert_nonnull (strstr (out, line));
  }
  /* The home folder's open and asked entries, in both. */
  {
    const char * const *open = paddock_lock_status_get_home_open (status);
    const char * const *asked = paddock_lock_status_get_home_asked (status);
    g_autofree char *home = realpath (g_get_home_dir (), NULL);
    g_autofree char *bashrc = g_build_filename (home, ".bashrc", NULL);
    g_autofree char *split = g_strconcat (home, "/", NULL);
    g_autofree char *ssh = g_build_filename (home, ".ssh", NULL);

    g_assert_true (g_strv_contains (open, bashrc));
    g_assert_true (g_strv_contains (asked, split));
    g_assert_false (g_strv_contains (open, ssh) || g_strv_contains (asked, ssh));
    for (guint i = 0; open[i] != NULL; i++)
      {
        g_autofree char *expected = g_strdup_printf ("\nhome-open: %s\n", open[i]);
        g_assert_nonnull (strstr (out, expected));
      }
    for (guint i = 0; asked[i] != NULL; i++)
      {
        g_autofree char *expected = g_strdup_printf ("\nhome-asked: %s\n", asked[i]);
        g_assert_nonnull (strstr (out, expected));
      }
    g_assert_null (strstr (out, "\nhome-open: /nonexistent"));
  }
}

/* The user's home.conf moves an entry from one list to another, and a
 * line it cannot understand is said, with its file and line. */
static void
test_home_lists_follow_user_file (void)
{
  const char *runner = g_getenv ("PADDOCK_RUN");
  g_autofree char *file = g_build_filename (g_get_user_config_dir (), "paddock", "home.conf", NULL);
  g_autofree char *dir = g_path_get_dirname (file);
  g_autofree char *home = realpath (g_get_home_dir (), NULL);
  g_autofree char *bashrc = g_build_filename (home, ".bashrc", NULL);
  g_autofree char *open_line = g_strdup_printf ("\nhome-open: %s\n", bashrc);
  g_autofree char *asked_line = g_strdup_printf ("\nhome-asked: %s\n", bashrc);
  g_autofree char *error_line = g_strdup_printf ("\nhome: not read (%s:2: ", file);
  const char *argv[] = { runner, "--lock-status", NULL };
  g_autoptr(TestResult) before = NULL;
  g_autoptr(TestResult) moved = NULL;
  g_autoptr(TestResult) broken = NULL;

  if (runner == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_unlink (file);
  before = test_run (argv);
  g_assert_nonnull (strstr (before->out, open_line));
  g_assert_null (strstr (before->out, asked_line));

  g_assert_true (g_file_set_contents (file, "# mine\nasked ~/.bashrc\n", -1, NULL));
  moved = test_run (argv);
  g_assert_null (strstr (moved->out, open_line));
  g_assert_nonnull (strstr (moved->out, asked_line));

  g_assert_true (g_file_set_contents (file, "asked ~/.bashrc\nopne ~/.m2\n", -1, NULL));
  broken = test_run (argv);
  g_assert_nonnull (strstr (broken->out, error_line));
  g_assert_null (strstr (broken->out, asked_line));
  /* The deny list stands. */
  g_assert_nonnull (strstr (broken->out, "\ndenied: "));
  g_unlink (file);
}

static void
test_load_failures (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockLockStatus) status = NULL;

  status = load ("/nonexistent/paddock-run", &error);
  g_assert_null (status);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent/paddock-run"));
  g_clear_error (&error);

  /* A runner that fails, or says nothing useful, is an error, not a lock. */
  status = load ("/bin/false", &error);
  g_assert_null (status);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);

  status = load ("/bin/true", &error);
  g_assert_null (status);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int   argc,
      char *argv[])
{
  /* The home-lists case writes the user's home.conf: a private one. */
  char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/lock-status/parse-landlock", test_parse_landlock);
  g_test_add_func ("/paddock/lock-status/parse-older-abi", test_parse_older_abi);
  g_test_add_func ("/paddock/lock-status/parse-unavailable", test_parse_unavailable);
  g_test_add_func ("/paddock/lock-status/parse-unlocked-session", test_parse_unlocked_session);
  g_test_add_func ("/paddock/lock-status/parse-garbage", test_parse_garbage);
  g_test_add_func ("/paddock/lock-status/load-from-runner", test_load_from_runner);
  g_test_add_func ("/paddock/lock-status/load-failures", test_load_failures);
  g_test_add_func ("/paddock/lock-status/home-lists-follow-user-file", test_home_lists_follow_user_file);

  status = g_test_run ();
  test_home_remove (home);
  return status;
}
