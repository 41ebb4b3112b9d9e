/* test-lock-status.c: reading what paddock-run --lock-status says the folder lock can do
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "paddock-lock-status.h"
#include "test-util.h"

static const char landlock_7[] =
  "mechanism: landlock\n"
  "landlock-abi: 7\n"
  "filesystem: yes\n"
  "refer: yes\n"
  "truncate: yes\n"
  "tcp: yes (not used: the folder lock leaves the network open)\n"
  "ioctl-dev: yes\n"
  "scope-signal: yes\n"
  "scope-abstract-unix-socket: yes\n"
  "logging: yes\n"
  "namespaces: yes\n"
  "named-unix-sockets: confined (private /tmp, /var/tmp, /dev/shm, /run and $XDG_RUNTIME_DIR in a mount namespace)\n"
  "abstract-unix-sockets: confined (Landlock scoping)\n"
  "seccomp: yes\n"
  "no-new-privs: yes\n";

static const char landlock_3[] =
  "mechanism: landlock\n"
  "landlock-abi: 3\n"
  "filesystem: yes\n"
  "refer: yes\n"
  "truncate: yes\n"
  "tcp: no\n"
  "ioctl-dev: no\n"
  "scope-signal: no\n"
  "scope-abstract-unix-socket: no\n"
  "logging: no\n"
  "namespaces: no (Operation not permitted)\n"
  "named-unix-sockets: not confined (cannot create a mount namespace: Operation not permitted)\n"
  "abstract-unix-sockets: not confined (needs Landlock ABI 6)\n"
  "seccomp: yes\n"
  "no-new-privs: yes\n";

static const char nothing[] =
  "mechanism: none (cannot lock the folder: Landlock is unavailable in this kernel and user namespaces "
  "are unavailable to this user (Operation not permitted))\n"
  "landlock-abi: 0 (disabled at boot)\n"
  "filesystem: no\n"
  "truncate: no\n"
  "seccomp: yes\n"
  "no-new-privs: yes\n";

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
  g_autoptr(PaddockLockStatus) status = paddock_lock_status_parse (landlock_7, &error);
  g_autoptr(GPtrArray) protections = NULL;
  g_autofree char *mechanism = NULL;

  g_assert_no_error (error);
  g_assert_true (paddock_lock_status_get_available (status));
  g_assert_cmpint (paddock_lock_status_get_landlock_abi (status), ==, 7);
  g_assert_cmpstr (paddock_lock_status_get (status, "tcp"), ==, "yes (not used: the folder lock leaves the network open)");
  g_assert_null (paddock_lock_status_get (status, "no-such-fact"));
  mechanism = paddock_lock_status_dup_mechanism (status);
  g_assert_cmpstr (mechanism, ==, "Landlock, ABI 7");

  protections = paddock_lock_status_list_protections (status);
  g_assert_cmpuint (protections->len, ==, 8);
  for (guint i = 0; i < protections->len; i++)
    g_assert_true (((PaddockLockProtection *) g_ptr_array_index (protections, i))->active);
  /* The network is not something the folder lock claims. */
  g_assert_null (find_protection (protections, "TCP"));
}

static void
test_parse_older_abi (void)
{
  g_autoptr(PaddockLockStatus) status = paddock_lock_status_parse (landlock_3, NULL);
  g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);
  PaddockLockProtection *files = find_protection (protections, "Files outside the project");
  PaddockLockProtection *signals = find_protection (protections, "Signals to programs outside the lock");
  PaddockLockProtection *abstract = find_protection (protections, "Abstract Unix sockets");
  PaddockLockProtection *named = find_protection (protections, "Named Unix sockets");

  g_assert_true (files->active);
  g_assert_false (signals->active);
  g_assert_nonnull (signals->detail);
  /* What is missing says why, in paddock-run's words. */
  g_assert_false (abstract->active);
  g_assert_cmpstr (abstract->detail, ==, "Needs Landlock ABI 6");
  g_assert_false (named->active);
  g_assert_cmpstr (named->detail, ==, "Cannot create a mount namespace: Operation not permitted");
}

static void
test_parse_unavailable (void)
{
  g_autoptr(PaddockLockStatus) status = paddock_lock_status_parse (nothing, NULL);
  g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);
  g_autofree char *mechanism = paddock_lock_status_dup_mechanism (status);

  g_assert_false (paddock_lock_status_get_available (status));
  g_assert_cmpint (paddock_lock_status_get_landlock_abi (status), ==, 0);
  g_assert_true (g_str_has_prefix (mechanism, "Unavailable: Cannot lock the folder: Landlock is unavailable"));
  /* Nothing is protected where no lock can start, whatever else the kernel has. */
  for (guint i = 0; i < protections->len; i++)
    g_assert_false (((PaddockLockProtection *) g_ptr_array_index (protections, i))->active);
}

static void
test_parse_garbage (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockLockStatus) status = paddock_lock_status_parse ("hello\nfilesystem: yes\n", &error);

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
  const char *argv[] = { runner, "--lock-status", NULL };

  if (runner == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }

  status = load (runner, &error);
  g_assert_no_error (error);
  run = test_run (argv);
  out = run->out;
  g_assert_true (g_str_has_prefix (out, "mechanism: "));
  g_assert_nonnull (strstr (out, paddock_lock_status_get (status, "mechanism")));
  g_assert_cmpstr (paddock_lock_status_get (status, "no-new-privs"), ==, "yes");
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
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/lock-status/parse-landlock", test_parse_landlock);
  g_test_add_func ("/paddock/lock-status/parse-older-abi", test_parse_older_abi);
  g_test_add_func ("/paddock/lock-status/parse-unavailable", test_parse_unavailable);
  g_test_add_func ("/paddock/lock-status/parse-garbage", test_parse_garbage);
  g_test_add_func ("/paddock/lock-status/load-from-runner", test_load_from_runner);
  g_test_add_func ("/paddock/lock-status/load-failures", test_load_failures);

  return g_test_run ();
}
