/* test-vault-broker.c: paddock-secret in a session: the program gets the secret, the agent never sees it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Against the real gnome-keyring on the test's private D-Bus session bus
 * (the test command starts one): a scripted agent under paddock-run runs
 * `paddock-secret run --env GITHUB_TOKEN=gh -- ./print-env-and-echo`, a
 * program that reports what it saw as a hash in a file and echoes the
 * value. What the agent's tree holds while it runs (/proc/PID/cmdline and
 * environ), what the agent captured, and the audit log must never hold
 * the value.
 */
#include "config.h"

#include "paddock-redactor.h"
#include "paddock-vault.h"
#include "test-session.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#define VALUE "ghp_Vau1tTestValue_8c1f2e9a"

static char *paddock_secret;

/* The program the secret is for: says where it runs, waits for the test,
 * then prints the value (which the redactor must mask) and the hash of
 * what it got into a file of the project's. */
static const char print_env_and_echo[] =
  "#!/bin/sh\n"
  "out=$PWD\n"
  "touch \"$out/program-started\"\n"
  "i=0; while [ ! -e \"$out/go-program\" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done\n"
  "echo \"token: $GITHUB_TOKEN\"\n"
  "echo \"to stderr: $GITHUB_TOKEN\" >&2\n"
  "printf '%s' \"$GITHUB_TOKEN\" | sha256sum | cut -d' ' -f1 > \"$out/seen.tmp\" && mv \"$out/seen.tmp\" \"$out/seen\"\n";

/* A program that prints what it got, at once. */
static const char print_now[] =
  "#!/bin/sh\n"
  "echo \"now: $GITHUB_TOKEN\"\n";

/* --helper vault-junk: sends a line that is no request on the vault
 * socket, as the agent could, and prints the answer. */
static int
helper_vault_junk (void)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  const char *path = g_getenv ("PADDOCK_VAULT_SOCKET");
  char reply[4096];
  ssize_t n;
  int fd;

  if (path == NULL || strlen (path) >= sizeof addr.sun_path)
    return 3;
  strcpy (addr.sun_path, path);
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    return 4;
  if (write (fd, "{\"type\":\"run\",\"argv\":[1,2]}\n", 28) != 28)
    return 5;
  n = read (fd, reply, sizeof reply - 1);
  if (n <= 0)
    return 6;
  reply[n] = '\0';
  fputs (reply, stdout);
  return 0;
}

static void
write_program (const char *dir,
               const char *name,
               const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

/* The secret gh, global, as the user stored it; NULL where no Secret
 * Service runs here (the test is then skipped, saying so). */
static gboolean
store_secret (const char        *name,
              PaddockSecretMode  mode)
{
  g_autoptr(GError) error = NULL;

  if (!paddock_vault_store_sync (name, "", (const guint8 *) VALUE, strlen (VALUE), NULL, &error))
    {
      if (g_error_matches (error, PADDOCK_VAULT_ERROR, PADDOCK_VAULT_ERROR_NO_SERVICE))
        {
          g_autofree char *reason = g_strdup_printf ("no Secret Service here: %s", error->message);

          g_test_skip (reason);
          return FALSE;
        }
      g_assert_no_error (error);
    }
  g_assert_true (paddock_vault_set_mode_sync (name, "", mode, NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
forget_secret (const char *name)
{
  paddock_vault_delete_sync (name, "", NULL, NULL);
}

/* Under the lock, with paddock-secret and this program reachable. */
static Session *
start_agent (const char *script,
             gboolean    with_client,
             gboolean    lock,
             const char *on_ask)
{
  g_autofree char *build_vault = g_path_get_dirname (paddock_secret);
  g_autofree char *build_tests = g_path_get_dirname (self_exe);
  const char *command[] = { "sh", "-c", script, "sh", "@OUT@", paddock_secret, NULL };
  const char *extra[] = { lock ? "--lock" : "--no-lock", "--on-ask", on_ask,
                          lock ? "--grant" : NULL, build_vault, "--grant", build_tests, NULL };

  return session_start_command (NULL, command, with_client, extra);
}

/* Every process below @root, and @root. */
static GArray *
tree_of (int root)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (int));
  const char *name;

  g_array_append_val (pids, root);
  for (gboolean grew = TRUE; grew;)
    {
      grew = FALSE;
      g_dir_rewind (proc);
      while ((name = g_dir_read_name (proc)) != NULL)
        {
          int pid = atoi (name);
          g_auto(GStrv) stat = pid > 0 ? process_stat_fields (pid) : NULL;
          gboolean known = FALSE;
          int ppid;

          if (stat == NULL || stat[0] == NULL || stat[1] == NULL)
            continue;
          ppid = atoi (stat[1]);
          for (guint i = 0; i < pids->len; i++)
            known |= g_array_index (pids, int, i) == pid;
          for (guint i = 0; i < pids->len && !known; i++)
            if (g_array_index (pids, int, i) == ppid)
              {
                g_array_append_val (pids, pid);
                grew = TRUE;
                break;
              }
        }
    }
  return pids;
}

static gboolean
file_holds (const char *path,
            const char *needle)
{
  g_autofree char *bytes = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &bytes, &length, NULL))
    return FALSE;
  return memmem (bytes, length, needle, strlen (needle)) != NULL;
}

static guint
n_lines (const char *text)
{
  guint n = 0;

  for (const char *c = text; *c != '\0'; c++)
    n += *c == '\n';
  return n;
}

static char *
sha256_of (const char *text)
{
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

/* The program's pid as the test sees it: under the lock it runs in a PID
 * namespace of its own, where its $$ names another process for the agent.
 * Found by what only it holds, and handed to the agent's script. */
static int
publish_program_pid (Session *s)
{
  g_autoptr(GDir) proc = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  int found = 0;

  g_assert_true (wait_for_out (s, "program-started", TEST_SESSION_WAIT_SECONDS));
  proc = g_dir_open ("/proc", 0, NULL);
  g_assert_nonnull (proc);
  while (found == 0 && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *environ_path = g_strdup_printf ("/proc/%s/environ", name);

      if (g_ascii_isdigit (name[0]) && atoi (name) != getpid () &&
          file_holds (environ_path, "GITHUB_TOKEN=" VALUE))
        found = atoi (name);
    }
  g_assert_cmpint (found, >, 0);
  text = g_strdup_printf ("%d\n", found);
  path = out_file (s, "program-pid");
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return found;
}

/* The whole path: the ask, the program's run under the lock, what the
 * agent and its tree could see meanwhile. */
static void
test_end_to_end (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; "
    "cd \"$1\" && \"$2\" run --env GITHUB_TOKEN=gh -- ./print-env-and-echo >captured 2>&1 &"
    "w \"$1\" program-pid; "
    "cat /proc/$(cat \"$1/program-pid\")/environ >\"$1/environ-attempt\" 2>&1; echo $? >\"$1/environ-status\"; "
    "kill -0 $(cat \"$1/program-pid\") 2>\"$1/kill-attempt\"; echo $? >\"$1/kill-status\"; "
    "touch \"$1/tried\"; wait; echo $? >\"$1/secret-status\"";
  g_autoptr(Session) s = NULL;
  g_autoptr(PaddockMessage) hello = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) used = NULL;
  g_autoptr(GArray) tree = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *captured = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *expected = sha256_of (VALUE);
  g_autofree char *status = NULL;
  int program_pid;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = start_agent (script, TRUE, TRUE, "deny");
  write_program (s->out, "print-env-and-echo", print_env_and_echo);
  session_go_on (s, "ready");
  hello = session_expect (s, PADDOCK_MESSAGE_HELLO);

  /* The ask names the secret and the program's hash, never the value. */
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->kind, ==, "secret");
  g_assert_cmpstr (ask->name, ==, "gh");
  g_assert_cmpuint (strlen (ask->sha256), ==, 64);
  g_assert_true (g_str_has_suffix (ask->exe, "/print-env-and-echo"));
  g_assert_null (strstr (ask->reason, VALUE));
  session_decide (s, ask->id, "allow");
  used = session_expect (s, PADDOCK_MESSAGE_SECRET);
  g_assert_cmpstr (used->name, ==, "gh");
  g_assert_cmpint (used->decision, ==, PADDOCK_DECISION_ALLOW);
  g_assert_cmpstr (used->sha256, ==, ask->sha256);

  program_pid = publish_program_pid (s);
  g_assert_true (wait_for_out (s, "tried", TEST_SESSION_WAIT_SECONDS));

  /* The agent cannot read the program's environment, nor signal it. */
  status = out_text (s, "environ-status");
  g_assert_cmpstr (g_strstrip (status), !=, "0");
  g_free (status);
  status = out_text (s, "kill-status");
  g_assert_cmpstr (g_strstrip (status), !=, "0");
  {
    g_autofree char *attempt = out_text (s, "environ-attempt");

    g_assert_null (strstr (attempt, VALUE));
  }

  /* The program holds it; nothing of the agent's tree does. */
  {
    g_autofree char *environ_path = g_strdup_printf ("/proc/%d/environ", program_pid);

    g_assert_true (file_holds (environ_path, VALUE));
  }
  tree = tree_of (hello->agent_pid);
  g_assert_cmpuint (tree->len, >=, 2);
  for (guint i = 0; i < tree->len; i++)
    {
      int pid = g_array_index (tree, int, i);
      g_autofree char *cmdline = g_strdup_printf ("/proc/%d/cmdline", pid);
      g_autofree char *environ_path = g_strdup_printf ("/proc/%d/environ", pid);

      g_assert_cmpint (pid, !=, program_pid);
      g_assert_false (file_holds (cmdline, VALUE));
      g_assert_false (file_holds (environ_path, VALUE));
    }

  session_go_on (s, "go-program");
  g_assert_cmpint (session_wait (s), ==, 0);

  g_free (status);
  status = out_text (s, "secret-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  seen = out_text (s, "seen");
  g_assert_cmpstr (g_strstrip (seen), ==, expected);
  captured = out_text (s, "captured");
  g_assert_nonnull (strstr (captured, "token: «secret:gh»"));
  g_assert_nonnull (strstr (captured, "to stderr: «secret:gh»"));
  g_assert_null (strstr (captured, VALUE));

  g_assert_false (file_holds (s->audit, VALUE));
  records = audit_records (s, "secret");
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "decision"), ==, "allow");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "name"), ==, "gh");
  assert_chain_holds (s);
  forget_secret ("gh");
}

/* Without the lock the program is a plain process of the same user: the
 * agent reads its environment. What the lock's test above refuses is
 * refused by the lock, not by chance. */
static void
test_environ_readable_without_lock (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; "
    "cd \"$1\" && \"$2\" run --env GITHUB_TOKEN=gh -- ./print-env-and-echo >captured 2>&1 &"
    "w \"$1\" program-pid; "
    "cat /proc/$(cat \"$1/program-pid\")/environ >\"$1/environ-attempt\" 2>&1; echo $? >\"$1/environ-status\"; "
    "touch \"$1/go-program\"; wait";
  g_autoptr(Session) s = NULL;
  g_autofree char *status = NULL;
  g_autofree char *attempt = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = start_agent (script, FALSE, FALSE, "allow");
  write_program (s->out, "print-env-and-echo", print_env_and_echo);
  session_go_on (s, "ready");
  publish_program_pid (s);
  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "environ-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  attempt = out_file (s, "environ-attempt");
  g_assert_true (file_holds (attempt, "GITHUB_TOKEN=" VALUE));
  forget_secret ("gh");
}

/* A pinned program gets it unasked; the same path with other content is
 * asked about again; a shell given inline code never gets it. */
static void
test_pinned (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" go; "
    "cd \"$1\"; \"$2\" list >list-out 2>&1; echo $? >list-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >pinned-out 2>&1; echo $? >pinned-status; "
    "printf '#!/bin/sh\\necho \"swapped: $GITHUB_TOKEN\"\\n' >print-now; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >swapped-out 2>&1; echo $? >swapped-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- sh -c 'echo \"inline: $GITHUB_TOKEN\"' >inline-out 2>&1; "
    "echo $? >inline-status";
  g_autoptr(Session) s = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockSecretPin) pin = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_PINNED))
    return;
  s = start_agent (script, TRUE, TRUE, "deny");
  write_program (s->out, "print-now", print_now);
  path = g_build_filename (s->out, "print-now", NULL);
  pin = paddock_vault_pin_sync ("gh", "", path, NULL, &error);
  g_assert_no_error (error);
  /* Pinned before the agent runs it: the file it hashed is the one pinned. */
  session_go (s);

  /* The swapped file asks again: its hash is not the pin's. */
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->kind, ==, "secret");
  g_assert_cmpstr (ask->sha256, !=, pin->sha256);
  g_assert_nonnull (strstr (ask->reason, "changed"));
  session_decide (s, ask->id, "deny");
  g_assert_cmpint (session_wait (s), ==, 0);

  /* The names, and which are pinned; no value. */
  status = out_text (s, "list-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  text = out_text (s, "list-out");
  g_assert_nonnull (strstr (text, "gh\tpinned\n"));
  g_assert_null (strstr (text, VALUE));
  g_clear_pointer (&text, g_free);
  g_free (status);
  status = out_text (s, "pinned-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  text = out_text (s, "pinned-out");
  g_assert_cmpstr (text, ==, "now: «secret:gh»\n");
  g_free (status);
  status = out_text (s, "swapped-status");
  g_assert_cmpstr (g_strstrip (status), !=, "0");
  g_free (text);
  text = out_text (s, "swapped-out");
  g_assert_null (strstr (text, "swapped:"));
  g_assert_nonnull (strstr (text, "refused"));
  g_free (status);
  status = out_text (s, "inline-status");
  g_assert_cmpstr (g_strstrip (status), !=, "0");
  g_free (text);
  text = out_text (s, "inline-out");
  g_assert_null (strstr (text, "inline:"));
  g_assert_nonnull (strstr (text, "code given on its command line"));
  g_assert_cmpuint (count_lines (text, "paddock-secret:"), ==, 1);

  records = audit_records (s, "secret");
  g_assert_cmpuint (records->len, ==, 3);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "by"), ==, "pin");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 1), "by"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 2), "decision"), ==, "deny");
  g_assert_false (file_holds (s->audit, VALUE));
  forget_secret ("gh");
}

/* Each gets one line and a failure; the session serves the next. */
static void
test_bad_input (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; "
    "cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=no-such-secret -- ./print-now >unknown-out 2>&1; echo $? >unknown-status; "
    "\"$PADDOCK_TEST_SELF\" --helper vault-junk >junk-out 2>&1; echo $? >junk-status; "
    "\"$2\" run --env 1BAD=gh -- ./print-now >var-out 2>&1; echo $? >var-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./no-such-program >missing-out 2>&1; echo $? >missing-status; "
    "echo \"$PADDOCK_VAULT_SOCKET\" >socket.tmp && mv socket.tmp socket; w \"$1\" go; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >after-out 2>&1; echo $? >after-status";
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;
  g_autofree char *socket_path = NULL;
  g_autoptr(GPtrArray) records = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = start_agent (script, FALSE, TRUE, "allow");
  write_program (s->out, "print-now", print_now);
  session_go_on (s, "ready");

  /* From outside the agent's tree: refused, in one line. */
  g_assert_true (wait_for_out (s, "socket", TEST_SESSION_WAIT_SECONDS));
  socket_path = out_text (s, "socket");
  g_strstrip (socket_path);
  {
    g_autoptr(TestResult) result = NULL;
    const char *argv[] = { paddock_secret, "run", "--env", "GITHUB_TOKEN=gh", "--", "/bin/true", NULL };
    g_autofree char *env_entry = g_strdup_printf ("PADDOCK_VAULT_SOCKET=%s", socket_path);
    const char *env[] = { env_entry, "PATH=/usr/bin:/bin", NULL };
    TestRunOptions options = { .env = env };

    result = test_run_full (argv, &options);
    g_assert_cmpint (result->status, !=, 0);
    g_assert_nonnull (strstr (result->err, "only the programs its agent runs"));
    g_assert_cmpuint (n_lines (result->err), ==, 1);
  }
  session_go (s);
  g_assert_cmpint (session_wait (s), ==, 0);

  status = out_text (s, "unknown-status");
  g_assert_cmpstr (g_strstrip (status), ==, "1");
  text = out_text (s, "unknown-out");
  g_assert_nonnull (strstr (text, "no-such-secret"));
  g_assert_cmpuint (n_lines (text), ==, 1);

  g_free (text);
  text = out_text (s, "junk-out");
  g_assert_nonnull (strstr (text, "malformed request"));
  g_assert_nonnull (strstr (text, "argv"));

  g_free (status);
  status = out_text (s, "var-status");
  g_assert_cmpstr (g_strstrip (status), ==, "2");

  g_free (status);
  status = out_text (s, "missing-status");
  g_assert_cmpstr (g_strstrip (status), ==, "127");
  g_free (text);
  text = out_text (s, "missing-out");
  g_assert_nonnull (strstr (text, "command not found"));

  /* The supervisor went on serving. */
  g_free (status);
  status = out_text (s, "after-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  g_free (text);
  text = out_text (s, "after-out");
  g_assert_cmpstr (text, ==, "now: «secret:gh»\n");
  records = audit_records (s, "secret");
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_false (file_holds (s->audit, VALUE));
  forget_secret ("gh");
}

/* The program's exit status is the caller's; a signal to the caller
 * reaches the program; a program killed by a signal kills the caller
 * with it. */
static void
test_signals (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./trap-term >trap-out 2>&1 & pid=$!; "
    "w \"$1\" trapping; kill -TERM $pid; wait $pid; echo $? >trap-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./die-by-kill >die-out 2>&1; echo $? >die-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./exit-7 >exit-out 2>&1; echo $? >exit-status";
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_SESSION))
    return;
  s = start_agent (script, FALSE, TRUE, "allow");
  write_program (s->out, "trap-term",
                 "#!/bin/sh\ntrap 'echo got-term; exit 3' TERM\n"
                 "touch trapping.tmp && mv trapping.tmp trapping\n"
                 "i=0; while [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done\n");
  write_program (s->out, "die-by-kill", "#!/bin/sh\nkill -KILL $$\n");
  write_program (s->out, "exit-7", "#!/bin/sh\nexit 7\n");
  session_go_on (s, "ready");
  g_assert_cmpint (session_wait (s), ==, 0);

  status = out_text (s, "trap-status");
  g_assert_cmpstr (g_strstrip (status), ==, "3");
  text = out_text (s, "trap-out");
  g_assert_nonnull (strstr (text, "got-term\n"));
  g_free (status);
  status = out_text (s, "die-status");
  g_assert_cmpstr (g_strstrip (status), ==, "137");
  g_free (status);
  status = out_text (s, "exit-status");
  g_assert_cmpstr (g_strstrip (status), ==, "7");
  forget_secret ("gh");
}

/* Mode "session": asked once for a program file, then not; another file
 * is asked about again. */
/* Under the network lock a program run with a secret is refused, named
 * for the lock: it would run outside the agent's network namespace. The
 * same use goes through with the network open. */
static void
test_network_lock (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" go; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-other >use-out 2>&1; echo $? >use-status";

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_SESSION))
    return;
  for (int locked = 0; locked <= 1; locked++)
    {
      g_autofree char *build_vault = g_path_get_dirname (paddock_secret);
      g_autofree char *build_tests = g_path_get_dirname (self_exe);
      const char *command[] = { "sh", "-c", script, "sh", "@OUT@", paddock_secret, NULL };
      const char *extra[] = { "--lock", "--on-ask", "deny", "--grant", build_vault, "--grant", build_tests,
                              locked ? "--net=locked" : "--net=open", NULL };
      g_autoptr(Session) s = session_start_command (NULL, command, TRUE, extra);
      g_autofree char *status = NULL;
      g_autofree char *out = NULL;

      write_program (s->out, "print-other", "#!/bin/sh\necho \"got: ${GITHUB_TOKEN:+a token}\"\n");
      session_go (s);
      /* The network open, the use asks first, as the secret's mode says. */
      if (!locked)
        {
          g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);

          session_decide (s, ask->id, "allow");
        }
      g_assert_cmpint (session_wait (s), ==, 0);
      status = out_text (s, "use-status");
      out = out_text (s, "use-out");
      if (locked)
        {
          g_assert_cmpstr (g_strstrip (status), !=, "0");
          g_assert_nonnull (strstr (out, "network lock"));
          g_assert_null (strstr (out, "got: a token"));
        }
      else
        {
          g_assert_cmpstr (g_strstrip (status), ==, "0");
          g_assert_nonnull (strstr (out, "got: a token"));
        }
    }
  forget_secret ("gh");
}

static void
test_session_mode (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" go; cd \"$1\"; "
    "export NODE_OPTIONS=--require=/x BASH_ENV=/x PYTHONPATH=/x PERL5OPT=-x KEEP_ME=kept; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-loaders >first-out 2>&1; echo $? >first-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-loaders >second-out 2>&1; echo $? >second-status; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-other >other-out 2>&1; echo $? >other-status";
  g_autoptr(Session) s = NULL;
  g_autoptr(PaddockMessage) first = NULL;
  g_autoptr(PaddockMessage) other = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *status = NULL;
  g_autofree char *text = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_SESSION))
    return;
  s = start_agent (script, TRUE, TRUE, "deny");
  write_program (s->out, "print-loaders",
                 "#!/bin/sh\necho \"loaders=[$NODE_OPTIONS$BASH_ENV$PYTHONPATH$PERL5OPT$PADDOCK_VAULT_SOCKET]"
                 " keep=[$KEEP_ME] token=[$GITHUB_TOKEN]\"\n");
  write_program (s->out, "print-other", "#!/bin/sh\necho \"other: $GITHUB_TOKEN\"\n");
  session_go (s);
  first = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_true (g_str_has_suffix (first->exe, "/print-loaders"));
  session_decide (s, first->id, "allow");
  other = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_true (g_str_has_suffix (other->exe, "/print-other"));
  g_assert_cmpstr (other->sha256, !=, first->sha256);
  session_decide (s, other->id, "deny");
  g_assert_cmpint (session_wait (s), ==, 0);

  status = out_text (s, "first-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  /* What changes what a program loads is not passed on; the rest is. */
  text = out_text (s, "first-out");
  g_assert_cmpstr (text, ==, "loaders=[] keep=[kept] token=[«secret:gh»]\n");
  g_free (status);
  status = out_text (s, "second-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  g_free (status);
  status = out_text (s, "other-status");
  g_assert_cmpstr (g_strstrip (status), ==, "1");
  records = audit_records (s, "secret");
  g_assert_cmpuint (records->len, ==, 3);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 0), "by"), ==, "user");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 1), "by"), ==, "remembered");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (records, 2), "decision"), ==, "deny");
  forget_secret ("gh");
}

static void
take_terminal (gpointer user_data)
{
  setsid ();
  ioctl (STDIN_FILENO, TIOCSCTTY, 0);
}

/* Reads the pty's master until @needle shows (or it ends); FALSE if it
 * never did in a minute. */
static gboolean
read_until_seen (int         master,
                 GString    *seen,
                 const char *needle)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (strstr (seen->str, needle) == NULL)
    {
      struct pollfd fd = { .fd = master, .events = POLLIN };
      char buffer[4096];
      ssize_t n;
      int left = (int) ((end - g_get_monotonic_time ()) / 1000);

      if (left <= 0 || poll (&fd, 1, left) <= 0)
        return FALSE;
      n = read (master, buffer, sizeof buffer);
      if (n <= 0)
        return strstr (seen->str, needle) != NULL;
      g_string_append_len (seen, buffer, n);
    }
  return TRUE;
}

/* On a terminal: the program has one too, sized as the caller's, its
 * colours come through, what is typed reaches it; the value is masked. */
static void
test_terminal (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) run = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autofree char *dir = g_dir_make_tmp ("paddock-vault-tty-XXXXXX", &error);
  g_autofree char *project = g_build_filename (dir, "project", NULL);
  g_autofree char *runtime = g_build_filename (dir, "run", NULL);
  g_autofree char *audit = g_build_filename (dir, "audit.jsonl", NULL);
  g_autofree char *build_vault = g_path_get_dirname (paddock_secret);
  struct winsize size = { .ws_row = 33, .ws_col = 91 };
  char slave_name[128];
  int master, slave;
  const char *script = "cd \"$1\"; \"$2\" run --env GITHUB_TOKEN=gh -- ./tty-program; echo \"status=$?\"; "
                       "echo piped | \"$2\" run --env GITHUB_TOKEN=gh -- sh -c 'read x; echo \"read <$x>\"; "
                       "read y || echo at-eof'; echo \"piped=$?\"";

  g_assert_no_error (error);
  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  g_assert_cmpint (g_mkdir (project, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (runtime, 0700), ==, 0);
  write_program (project, "tty-program",
                 "#!/bin/sh\n"
                 "if [ -t 0 ] && [ -t 1 ] && [ -t 2 ]; then echo term-yes; fi\n"
                 "printf '\\033[31m%s\\033[0m\\n' \"$GITHUB_TOKEN\"\n"
                 "printf 'name? '\n"
                 "read x\n"
                 "echo \"got <$x>\"\n"
                 "stty size\n");
  master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  g_assert_cmpint (ptsname_r (master, slave_name, sizeof slave_name), ==, 0);
  g_assert_cmpint (ioctl (master, TIOCSWINSZ, &size), ==, 0);
  slave = open (slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_take_stdin_fd (launcher, dup (slave));
  g_subprocess_launcher_take_stdout_fd (launcher, dup (slave));
  g_subprocess_launcher_take_stderr_fd (launcher, slave);
  g_subprocess_launcher_set_child_setup (launcher, take_terminal, NULL, NULL);
  run = g_subprocess_launcher_spawn (launcher, &error, paddock_run, "--project", project, "--lock",
                                     "--grant", build_vault, "--audit", audit, "--on-ask", "allow", "--",
                                     "sh", "-c", script, "sh", project, paddock_secret, NULL);
  g_assert_no_error (error);

  g_assert_true (read_until_seen (master, seen, "name? "));
  g_assert_cmpint (write (master, "hello\r", 6), ==, 6);
  /* Input from a pipe is the program's own, and ends. */
  g_assert_true (read_until_seen (master, seen, "piped="));
  g_assert_true (read_until_seen (master, seen, "piped=0"));
  g_subprocess_wait (run, NULL, &error);
  g_assert_no_error (error);
  close (master);
  g_test_message ("the terminal showed: %s", seen->str);

  g_assert_nonnull (strstr (seen->str, "term-yes"));
  g_assert_nonnull (strstr (seen->str, "\033[31m«secret:gh»\033[0m"));
  g_assert_nonnull (strstr (seen->str, "got <hello>"));
  g_assert_nonnull (strstr (seen->str, "33 91"));
  g_assert_nonnull (strstr (seen->str, "status=0"));
  g_assert_nonnull (strstr (seen->str, "read <piped>"));
  g_assert_nonnull (strstr (seen->str, "at-eof"));
  g_assert_null (strstr (seen->str, VALUE));
  g_assert_cmpint (g_subprocess_get_exit_status (run), ==, 0);
  test_remove_tree (dir);
  forget_secret ("gh");
}

/* A caller that goes away while its use is asked: the ask is withdrawn,
 * and the session goes on. */
static void
test_caller_gone (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >gone-out 2>&1 & pid=$!; "
    "w \"$1\" go-kill; kill -KILL $pid; wait $pid; echo $? >gone-status";
  g_autoptr(Session) s = NULL;
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = start_agent (script, TRUE, TRUE, "deny");
  write_program (s->out, "print-now", print_now);
  session_go_on (s, "ready");
  ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr (ask->kind, ==, "secret");
  session_go_on (s, "go-kill");
  decided = session_expect (s, PADDOCK_MESSAGE_DECIDED);
  g_assert_cmpint (decided->id, ==, ask->id);
  g_assert_cmpstr (decided->by, ==, "gone");
  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "gone-status");
  g_assert_cmpstr (g_strstrip (status), ==, "137");
  forget_secret ("gh");
}

/* Under the namespaces backend too: the program runs in a PID namespace
 * of its own, its status and output come back. */
static void
test_namespaces_backend (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >ns-out 2>&1; echo $? >ns-status";
  g_autofree char *build_vault = g_path_get_dirname (paddock_secret);
  const char *command[] = { "sh", "-c", script, "sh", "@OUT@", paddock_secret, NULL };
  const char *extra[] = { "--lock", "--lock-backend", "namespaces", "--on-ask", "allow", "--grant", build_vault, NULL };
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = session_start_command (NULL, command, FALSE, extra);
  write_program (s->out, "print-now", print_now);
  session_go_on (s, "ready");
  if (session_wait (s) != 0)
    {
      g_autofree char *err = runner_err_text (s);

      /* The backend needs user namespaces: said, never passed silently. */
      if (strstr (err, "namespace") != NULL && !out_exists (s, "ns-status"))
        {
          g_autofree char *reason = g_strdup_printf ("the namespaces backend cannot run here: %s", err);

          g_test_skip (reason);
          forget_secret ("gh");
          return;
        }
      g_error ("paddock-run failed: %s", err);
    }
  status = out_text (s, "ns-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  text = out_text (s, "ns-out");
  g_assert_cmpstr (text, ==, "now: «secret:gh»\n");
  forget_secret ("gh");
}

/* A value written a byte at a time, with pauses longer than the idle
 * flush's: the caller sees at most its first bytes, then the mask. */
static void
test_slow_output (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-slowly >slow-out 2>&1; echo $? >slow-status";
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  s = start_agent (script, FALSE, TRUE, "allow");
  write_program (s->out, "print-slowly",
                 "#!/bin/sh\n"
                 "printf 'token: '\n"
                 "rest=$GITHUB_TOKEN\n"
                 "while [ -n \"$rest\" ]; do\n"
                 "  c=${rest%\"${rest#?}\"}; rest=${rest#?}\n"
                 "  printf '%s' \"$c\"; sleep 0.05\n"
                 "done\n"
                 "echo ' done'\n");
  session_go_on (s, "ready");
  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "slow-status");
  g_assert_cmpstr (g_strstrip (status), ==, "0");
  text = out_text (s, "slow-out");
  g_test_message ("written a byte at a time, shown: %s", text);
  g_assert_true (g_str_has_prefix (text, "token: "));
  g_assert_nonnull (strstr (text, "«secret:gh» done\n"));
  g_assert_null (strstr (text, VALUE));
  /* At most the first few bytes showed, while it could still be anything. */
  g_assert_cmpuint (strlen (text), <=, strlen ("token: ") + PADDOCK_REDACTOR_IDLE_SHOW_MAX - 1 +
                                       strlen ("«secret:gh» done\n"));
  forget_secret ("gh");
}

/* The keyring's default collection, as the Secret Service names it. */
static char *
default_collection (GDBusConnection *bus)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  char *path = NULL;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "ReadAlias",
                                       g_variant_new ("(s)", "default"), G_VARIANT_TYPE ("(o)"),
                                       G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  if (reply == NULL)
    return NULL;
  g_variant_get (reply, "(o)", &path);
  if (g_strcmp0 (path, "/") == 0)
    g_clear_pointer (&path, g_free);
  return path;
}

/* gnome-keyring's way for tests to unlock without its prompt, with the
 * password the test command unlocked it with; FALSE where it will not. */
static gboolean
unlock_with_password (GDBusConnection *bus,
                      const char      *collection)
{
  static const char password[] = "paddock-test-password";
  g_autoptr(GVariant) session_reply = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;
  GVariant *master;

  session_reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                               "org.freedesktop.Secret.Service", "OpenSession",
                                               g_variant_new ("(sv)", "plain", g_variant_new_string ("")),
                                               G_VARIANT_TYPE ("(vo)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL,
                                               &error);
  if (session_reply == NULL)
    return FALSE;
  g_variant_get (session_reply, "(@vo)", NULL, &session);
  master = g_variant_new ("(o@ay@ays)", session,
                          g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, "", 0, 1),
                          g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, password, strlen (password), 1),
                          "text/plain");
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface",
                                       "UnlockWithMasterPassword", g_variant_new ("(o@(oayays))", collection, master),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  if (reply == NULL)
    g_test_message ("cannot unlock %s with the test's password: %s", collection, error->message);
  return reply != NULL;
}

/* Takes (@take) or gives back the name gnome-keyring finds its system
 * prompter by, with no prompter behind it: the keyring's prompt then
 * fails at once, as a dismissed one, and gcr's real prompter, which
 * would wait on the test display for a person (and stay there for the
 * tests that follow), is never started. FALSE where another has it. */
static gboolean
hold_prompter_name (GDBusConnection *bus,
                    gboolean         take)
{
  g_autoptr(GVariant) reply = NULL;
  guint32 result = 0;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", take ? "RequestName" : "ReleaseName",
                                       take ? g_variant_new ("(su)", "org.gnome.keyring.SystemPrompter", 4)
                                            : g_variant_new ("(s)", "org.gnome.keyring.SystemPrompter"),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL, NULL);
  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(u)", &result);
  return result == 1;
}

static gboolean
lock_collection (GDBusConnection *bus,
                 const char      *collection)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *objects[] = { collection };

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "Lock",
                                       g_variant_new ("(@ao)", g_variant_new_objv (objects, 1)),
                                       G_VARIANT_TYPE ("(aoo)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  return reply != NULL;
}

/* A locked keyring whose unlock prompt is dismissed: the agent gets one
 * line that names the secret, and the session goes on. The keyring is
 * unlocked again with the test's password; where gnome-keyring will not,
 * the test is skipped before it locks anything. */
static void
test_locked_vault (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; cd \"$1\"; "
    "\"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >locked-out 2>&1; echo $? >locked-status";
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autofree char *collection = NULL;
  g_autofree char *build_vault = g_path_get_dirname (paddock_secret);
  const char *command[] = { "sh", "-c", script, "sh", "@OUT@", paddock_secret, NULL };
  const char *extra[] = { "--lock", "--on-ask", "allow", "--ask-timeout", "5", "--grant", build_vault, NULL };
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;

  if (!store_secret ("gh", PADDOCK_SECRET_MODE_ASK))
    return;
  collection = bus != NULL ? default_collection (bus) : NULL;
  if (collection == NULL || !unlock_with_password (bus, collection))
    {
      g_test_skip ("this Secret Service cannot be unlocked again without its prompt "
                   "(gnome-keyring's UnlockWithMasterPassword): the keyring is left unlocked");
      forget_secret ("gh");
      return;
    }
  if (!hold_prompter_name (bus, TRUE))
    {
      g_test_skip ("a system prompter runs on this bus, which would ask a person: the keyring is left unlocked");
      forget_secret ("gh");
      return;
    }
  g_assert_true (lock_collection (bus, collection));
  s = session_start_command (NULL, command, FALSE, extra);
  write_program (s->out, "print-now", print_now);
  session_go_on (s, "ready");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (unlock_with_password (bus, collection));
  hold_prompter_name (bus, FALSE);

  status = out_text (s, "locked-status");
  g_assert_cmpstr (g_strstrip (status), ==, "1");
  text = out_text (s, "locked-out");
  g_test_message ("locked: %s", text);
  g_assert_cmpuint (n_lines (text), ==, 1);
  g_assert_nonnull (strstr (text, "gh"));
  g_assert_nonnull (strstr (text, "dismissed"));
  g_assert_false (file_holds (s->audit, VALUE));
  forget_secret ("gh");
}

/* Outside a session it says so, and exits 2. */
static void
test_outside_session (void)
{
  g_autoptr(TestResult) result = NULL;
  const char *argv[] = { paddock_secret, "run", "--env", "T=gh", "--", "true", NULL };
  const char *env[] = { "PATH=/usr/bin:/bin", NULL };
  TestRunOptions options = { .env = env };

  result = test_run_full (argv, &options);
  g_assert_cmpint (result->status, ==, 2);
  g_assert_nonnull (strstr (result->err, "not inside a Paddock session"));
}

/* With no Secret Service on the bus, the agent is told so; the session
 * goes on. */
static void
test_no_service_run (void)
{
  const char *script =
    SH_WAIT_FOR "w \"$1\" ready; "
    "cd \"$1\"; \"$2\" run --env GITHUB_TOKEN=gh -- ./print-now >out 2>&1; echo $? >status; "
    "\"$2\" list >list-out 2>&1; echo $? >list-status";
  g_autoptr(Session) s = NULL;
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;
  g_autofree char *bus = g_build_filename (g_get_tmp_dir (), "paddock-no-such-bus", NULL);
  g_autofree char *address = g_strdup_printf ("unix:path=%s", bus);

  /* In a process of its own, which has no thread yet to race setenv(). */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", address, TRUE);
  s = start_agent (script, FALSE, TRUE, "allow");
  write_program (s->out, "print-now", print_now);
  session_go_on (s, "ready");
  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "status");
  g_assert_cmpstr (g_strstrip (status), ==, "1");
  text = out_text (s, "out");
  g_assert_cmpuint (count_lines (text, "paddock-secret: "), ==, 1);
  g_assert_cmpuint (n_lines (text), ==, 1);
  g_free (status);
  status = out_text (s, "list-status");
  g_assert_cmpstr (g_strstrip (status), ==, "1");
}

static void
test_no_service (void)
{
  if (g_test_subprocess ())
    {
      test_no_service_run ();
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && strcmp (argv[1], "--helper") == 0 && strcmp (argv[2], "vault-junk") == 0)
    return helper_vault_junk ();
  test_session_init (&argc, &argv);
  paddock_secret = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "vault-client", "paddock-secret", NULL);
  /* Before any thread: the agents run this program as a helper. */
  g_setenv ("PADDOCK_TEST_SELF", self_exe, TRUE);

  g_test_add_func ("/paddock/vault-broker/end-to-end", test_end_to_end);
  g_test_add_func ("/paddock/vault-broker/environ-readable-without-lock", test_environ_readable_without_lock);
  g_test_add_func ("/paddock/vault-broker/pinned", test_pinned);
  g_test_add_func ("/paddock/vault-broker/signals", test_signals);
  g_test_add_func ("/paddock/vault-broker/session-mode", test_session_mode);
  g_test_add_func ("/paddock/vault-broker/network-lock", test_network_lock);
  g_test_add_func ("/paddock/vault-broker/terminal", test_terminal);
  g_test_add_func ("/paddock/vault-broker/slow-output", test_slow_output);
  g_test_add_func ("/paddock/vault-broker/caller-gone", test_caller_gone);
  g_test_add_func ("/paddock/vault-broker/namespaces-backend", test_namespaces_backend);
  g_test_add_func ("/paddock/vault-broker/bad-input", test_bad_input);
  g_test_add_func ("/paddock/vault-broker/locked-vault", test_locked_vault);
  g_test_add_func ("/paddock/vault-broker/outside-session", test_outside_session);
  g_test_add_func ("/paddock/vault-broker/no-service", test_no_service);
  return g_test_run ();
}
