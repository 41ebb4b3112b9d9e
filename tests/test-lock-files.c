/* test-lock-files.c: files, credential stores, links, named sockets and metadata outside the grants
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-lock-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <grp.h>
#include <stdlib.h>
#include <sched.h>
#include <stddef.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <sys/shm.h>
#include <mqueue.h>
#include <unistd.h>


/* --- refused under the lock, allowed without ----------------------------- */

void
test_write_outside (void)
{
  g_autofree char *target = out_path ("existing");
  g_autofree char *script = g_strdup_printf ("echo pwned >> '%s'", target);
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (target, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
}

void
test_create_outside (void)
{
  g_autofree char *target = out_path ("created");
  g_autofree char *script = g_strdup_printf ("echo pwned > '%s'", target);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (target, G_FILE_TEST_EXISTS));
  g_unlink (target);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
}

void
test_rename_outside (void)
{
  g_autofree char *from = out_path ("a");
  g_autofree char *to = out_path ("b");
  g_autofree char *script = g_strdup_printf ("mv '%s' '%s'", from, to);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "a\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_rename (to, from);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_true (g_file_test (from, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

void
test_link_outside (void)
{
  g_autofree char *from = out_path ("existing");
  g_autofree char *to = out_path ("linked");
  g_autofree char *script = g_strdup_printf ("ln '%s' '%s'", from, to);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_unlink (to);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

void
test_truncate_outside (void)
{
  g_autofree char *target = out_path ("existing");
  g_autofree char *script = g_strdup_printf ("truncate -s 0 '%s'", target);
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (target, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
}

/* Runs @script both ways; the secret must show up only without the lock. */
void
assert_secret_only_unlocked (const char *script)
{
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_nonnull (strstr (free_run->out, "PRIVATE-KEY-MATERIAL"));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "PRIVATE-KEY-MATERIAL"));
}

void
test_read_ssh_key (void)
{
  assert_secret_only_unlocked ("cat \"$HOME/.ssh/id_ed25519\"");
}

/* Credential stores of the common command-line tools, under the test's
 * home folder (and runtime dir), each holding the marker. */
static const char * const credential_stores[] = {
  ".config/containers/auth.json", "@runtime/containers/auth.json", ".docker/config.json",
  ".terraform.d/credentials.tfrc.json", ".config/github-copilot/apps.json", ".gem/credentials",
  ".config/glab-cli/config.yml", ".config/rclone/rclone.conf", ".npmrc", ".pypirc",
  ".cargo/credentials.toml", ".kube/config", ".config/gcloud/credentials.db", ".azure/msal_token_cache.json",
  ".cache/huggingface/token", ".huggingface/token", ".config/hub", ".git-credentials", ".netrc",
  ".pulumi/credentials.json", ".config/helm/registry/config.json", ".authinfo",
};

static char *
credential_store_path (const char *store)
{
  if (g_str_has_prefix (store, "@runtime/"))
    return g_build_filename (runtime_dir, store + strlen ("@runtime/"), NULL);
  return g_build_filename (home, store, NULL);
}

void
test_read_credential_stores (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (credential_stores); i++)
    {
      g_autofree char *path = credential_store_path (credential_stores[i]);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *script = g_strdup_printf ("cat '%s'", path);

      g_test_message ("credential store %s", credential_stores[i]);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      write_file (path, "token = PRIVATE-KEY-MATERIAL\n");
      assert_secret_only_unlocked (script);
      g_unlink (path);
    }
}

/* The user's own additions: deny.conf for every project, "deny" in one
 * project's settings; both shown by --lock-status. */
void
test_user_denials (void)
{
  g_autofree char *conf = g_build_filename (config_home, "paddock", "deny.conf", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (hash, ".settings.json", NULL);
  g_autofree char *settings_dir = g_build_filename (config_home, "paddock", "projects", NULL);
  g_autofree char *settings = g_build_filename (settings_dir, name, NULL);
  g_autofree char *json = g_strdup_printf ("{ \"path\": \"%s\", \"deny\": [\"~/project-secret\"] }", project);
  g_autofree char *everywhere = g_build_filename (home, "my-secrets", "key", NULL);
  g_autofree char *everywhere_dir = g_path_get_dirname (everywhere);
  g_autofree char *here = g_build_filename (home, "project-secret", NULL);
  g_autofree char *expected = g_strdup_printf ("\ndenied: %s\n", everywhere_dir);
  g_autofree char *absolute = out_path ("absolute-secret");
  g_autofree char *conf_text = g_strdup_printf ("# mine\n~/my-secrets\n\n  %s  \nnot-a-path\n", absolute);
  const char *status_argv[] = { paddock_run, "--lock-status", NULL };
  g_auto(GStrv) env = child_env ();
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) status_run = NULL;

  g_assert_cmpint (g_mkdir_with_parents (everywhere_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  write_file (everywhere, "PRIVATE-KEY-MATERIAL\n");
  write_file (here, "PRIVATE-KEY-MATERIAL\n");
  write_file (absolute, "PRIVATE-KEY-MATERIAL\n");
  write_file (conf, conf_text);
  write_file (settings, json);

  assert_secret_only_unlocked ("cat \"$HOME/my-secrets/key\"");
  assert_secret_only_unlocked ("cat \"$HOME/project-secret\"");
  {
    g_autofree char *script = g_strdup_printf ("cat '%s'", absolute);
    assert_secret_only_unlocked (script);
  }

  status_run = test_run_full (status_argv, &options);
  g_assert_cmpint (status_run->status, ==, 0);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s\n", absolute);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s/.config/containers/auth.json\n", home);
  g_assert_nonnull (strstr (status_run->out, expected));
  g_assert_null (strstr (status_run->out, "not-a-path"));
  /* The project's own list only for that project. */
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\ndenied: %s\n", here);
  g_assert_null (strstr (status_run->out, expected));
  {
    const char *project_argv[] = { paddock_run, "--lock-status", "--project", project, NULL };
    const char *json_argv[] = { paddock_run, "--lock-status", "--json", "--project", project, NULL };
    g_autoptr(TestResult) project_run = test_run_full (project_argv, &options);
    g_autoptr(TestResult) json_run = test_run_full (json_argv, &options);
    g_autofree char *quoted = g_strdup_printf ("\"%s\"", here);

    g_assert_cmpint (project_run->status, ==, 0);
    g_assert_nonnull (strstr (project_run->out, expected));
    g_assert_cmpint (json_run->status, ==, 0);
    g_assert_nonnull (strstr (json_run->out, quoted));
  }

  g_unlink (conf);
  g_unlink (settings);
  g_unlink (everywhere);
  g_unlink (here);
  g_unlink (absolute);
}

void
test_symlink_in_project (void)
{
  g_autofree char *key_link = g_build_filename (project, "key", NULL);
  g_autofree char *key = g_build_filename (home, ".ssh", "id_ed25519", NULL);
  g_autofree char *out_link = g_build_filename (project, "out", NULL);
  g_autofree char *target = out_path ("existing");
  g_autofree char *after = NULL;
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  g_unlink (key_link);
  g_assert_cmpint (symlink (key, key_link), ==, 0);
  assert_secret_only_unlocked ("cat key");

  g_unlink (out_link);
  g_assert_cmpint (symlink (target, out_link), ==, 0);
  write_file (target, "outside\n");
  free_run = attempt (FALSE, "echo pwned >> out");
  g_assert_cmpint (free_run->status, ==, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\npwned\n");
  g_clear_pointer (&after, g_free);

  write_file (target, "outside\n");
  locked_run = attempt (TRUE, "echo pwned >> out");
  g_assert_cmpint (locked_run->status, !=, 0);
  after = read_file (target);
  g_assert_cmpstr (after, ==, "outside\n");
  g_unlink (key_link);
  g_unlink (out_link);
}

void
test_hard_link_into_project (void)
{
  g_autofree char *from = out_path ("existing");
  g_autofree char *to = g_build_filename (project, "hard", NULL);
  g_autofree char *script = g_strdup_printf ("ln '%s' hard", from);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (from, "outside\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_file_test (to, G_FILE_TEST_EXISTS));
  g_unlink (to);

  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_false (g_file_test (to, G_FILE_TEST_EXISTS));
}

void
test_own_settings_denied (void)
{
  g_autofree char *rules = g_build_filename (config_home, "paddock", "rules.json", NULL);
  g_autofree char *script = g_strdup_printf ("echo '{}' >> '%s' && cat '%s'", rules, rules);
  g_autoptr(TestResult) free_run = NULL, locked_run = NULL;

  write_file (rules, "PRIVATE-KEY-MATERIAL\n");
  free_run = attempt (FALSE, script);
  g_assert_cmpint (free_run->status, ==, 0);
  write_file (rules, "PRIVATE-KEY-MATERIAL\n");
  locked_run = attempt (TRUE, script);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "PRIVATE-KEY-MATERIAL"));
}

/* --- named Unix sockets: the session's services ----------------------------- */

/* A server outside the lock, listening at @path (@NAME: abstract), open to
 * every user. Connecting needs no accept(): the backlog takes it. */
static int
listen_unix (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  socklen_t len = offsetof (struct sockaddr_un, sun_path) + strlen (path);
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  if (path[0] == '@')
    addr.sun_path[0] = '\0';
  else
    {
      len++;
      g_unlink (path);
    }
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, len), ==, 0);
  if (path[0] != '@')
    g_assert_cmpint (chmod (path, 0777), ==, 0);
  g_assert_cmpint (listen (fd, 16), ==, 0);
  return fd;
}

/* Connecting to @path works without the lock and fails under it. */
static void
assert_connect_only_unlocked (const char           *path,
                              GSpawnChildSetupFunc  setup)
{
  int server = listen_unix (path);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' connect '%s'", bindir, path);
  g_autoptr(TestResult) free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  g_autoptr(TestResult) locked_run = attempt_as (TRUE, NULL, script, NULL, setup);

  close (server);
  if (path[0] != '@')
    g_unlink (path);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "connected\n");
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_null (strstr (locked_run->out, "connected"));
  g_assert_null (strstr (locked_run->err, "warning"));
}

/* The session bus, Wayland, PipeWire, gpg-agent and ssh-agent live here. */
void
test_socket_runtime_dir (void)
{
  g_autofree char *path = g_build_filename (runtime_dir, "bus", NULL);

  assert_connect_only_unlocked (path, NULL);
}

/* ssh-agent, tmux, Java's attach sockets, … */
void
test_socket_tmp (void)
{
  g_autofree char *dir = g_dir_make_tmp ("paddock-lock-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "agent.sock", NULL);

  g_assert_nonnull (dir);
  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  assert_connect_only_unlocked (path, NULL);
  g_rmdir (dir);
}

/* The system bus, systemd's private socket, docker.sock live in /run. */
void
test_socket_run (void)
{
  g_autofree char *path = g_strdup_printf ("/run/paddock-lock-test-%d.sock", (int) getpid ());

  if (access ("/run", W_OK) != 0)
    {
      g_test_skip ("cannot make a socket in /run as this user");
      return;
    }
  assert_connect_only_unlocked (path, NULL);
}

/* An X server: any client may inject keystrokes into every window. */
void
test_socket_x11 (void)
{
  g_autofree char *path = g_strdup_printf ("/tmp/.X11-unix/X%d", 4000 + (int) getpid () % 1000);
  gboolean made = FALSE;

  if (!g_file_test ("/tmp/.X11-unix", G_FILE_TEST_IS_DIR))
    {
      g_assert_cmpint (g_mkdir ("/tmp/.X11-unix", 01777), ==, 0);
      made = TRUE;
    }
  assert_connect_only_unlocked (path, NULL);
  if (made)
    g_rmdir ("/tmp/.X11-unix");
}

/* X11 and some D-Bus buses listen on abstract names too. */
void
test_socket_abstract (void)
{
  g_autofree char *name = g_strdup_printf ("@paddock-lock-test-%d", (int) getpid ());
  long abi = syscall (444 /* landlock_create_ruleset */, NULL, 0, 1);

  if (abi < 6)
    {
      g_test_skip ("Landlock ABI < 6 cannot scope abstract Unix sockets");
      return;
    }
  assert_connect_only_unlocked (name, NULL);
}

/* A user who is not root gets the private places through a user namespace. */
void
test_socket_unprivileged (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, the other cases cover this)");
      return;
    }
  dir = g_dir_make_tmp ("paddock-lock-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  path = g_build_filename (dir, "agent.sock", NULL);
  assert_connect_only_unlocked (path, test_become_nobody);
  g_rmdir (dir);
}

/* --- what Landlock does not govern: denied folders' sockets and names,
 * metadata, other terminals ------------------------------------------------ */

/* gpg-agent in ~/.gnupg, an ssh ControlMaster in ~/.ssh: connecting signs
 * with the user's key, or reaches their servers, without reading a key. */
void
test_socket_denied_folder (void)
{
  g_autofree char *gnupg = g_build_filename (home, ".gnupg", NULL);
  g_autofree char *gpg_socket = g_build_filename (gnupg, "S.gpg-agent", NULL);
  g_autofree char *ssh_socket = g_build_filename (home, ".ssh", "cm-git@example.org:22", NULL);

  g_assert_cmpint (g_mkdir_with_parents (gnupg, 0700), ==, 0);
  assert_connect_only_unlocked (gpg_socket, NULL);
  assert_connect_only_unlocked (ssh_socket, NULL);
  g_rmdir (gnupg);
}

/* The names, sizes and times of what a denied folder holds. */
void
test_stat_denied_folder (void)
{
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' stat \"$HOME/.ssh/id_ed25519\"", bindir);
  g_autoptr(TestResult) free_run = attempt (FALSE, script);
  g_autoptr(TestResult) locked_run = attempt (TRUE, script);

  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_true (g_str_has_prefix (free_run->out, "size "));
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");
}

/* A file of the user's, outside the project, whose metadata the probe
 * changes with @what: refused under the lock, done without it. With
 * @setup, paddock-run runs as another user, who owns the file. */
static void
assert_metadata_only_unlocked (const char           *what,
                               GSpawnChildSetupFunc  setup)
{
  g_autofree char *target = g_build_filename (home, "notes.txt", NULL);
  g_autofree char *script = g_strdup_printf ("'%s/lock-probe' %s '%s'", bindir, what, target);
  g_autoptr(TestResult) locked_run = NULL;
  g_autoptr(TestResult) free_run = NULL;
  struct stat st;
  char value[8];

  write_file (target, "notes\n");
  g_assert_cmpint (chmod (target, 0600), ==, 0);
  if (setup != NULL)
    g_assert_cmpint (chown (target, 65534, 65534), ==, 0);

  locked_run = attempt_as (TRUE, NULL, script, NULL, setup);
  g_assert_cmpint (locked_run->status, !=, 0);
  g_assert_cmpstr (locked_run->out, ==, "");
  g_assert_cmpint (stat (target, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_mtime, !=, 0);
  g_assert_cmpint (getxattr (target, "user.paddock", value, sizeof value), <, 0);

  free_run = attempt_as (FALSE, NULL, script, NULL, setup);
  g_assert_cmpint (free_run->status, ==, 0);
  g_assert_cmpstr (free_run->out, ==, "changed\n");
  g_assert_cmpint (stat (target, &st), ==, 0);
  if (strcmp (what, "chmod") == 0)
    g_assert_cmpint (st.st_mode & 07777, ==, 0644);
  else if (strcmp (what, "utime") == 0)
    g_assert_cmpint (st.st_mtime, ==, 0);
  else
    g_assert_cmpint (getxattr (target, "user.paddock", value, sizeof value), ==, 1);
  g_unlink (target);
}

void
test_chmod_outside (void)
{
  assert_metadata_only_unlocked ("chmod", NULL);
}

void
test_utime_outside (void)
{
  assert_metadata_only_unlocked ("utime", NULL);
}

void
test_setxattr_outside (void)
{
  assert_metadata_only_unlocked ("setxattr", NULL);
}

/* A user who is not root gets the read-only mounts through a user namespace. */
void
test_chmod_unprivileged (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("switching to another user needs root (as a user, the other cases cover this)");
      return;
    }
  assert_metadata_only_unlocked ("chmod", test_become_nobody);
}
