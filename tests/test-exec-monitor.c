/* test-exec-monitor.c: the exec monitor sees, judges and records what a real agent runs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What each exec is to the policy and to the audit log: the program a path,
 * a link, a #! line, the loader or /proc names; programs that are no text;
 * threads, mounts and roots of the agent's own; runs and their ends.
 * See test-session.h for the sessions they run.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-audit.h"
#include "paddock-exec-monitor.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void
test_decisions (void)
{
  g_autoptr(Session) s = session_start ("basic", FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *err = NULL;
  JsonObject *record;
  gint64 last_event = 0;
  const char *order[] = { "fake-agent.sh", "/bin/true", "allowed-marker", "denied-marker", "asked-marker" };

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  err = out_text (s, "err");
  g_assert_nonnull (strstr (log, "true=0\n"));
  g_assert_nonnull (strstr (log, "allowed=0\n"));
  g_assert_true (out_exists (s, "allowed-marker"));

  /* Denied: never ran (no file), and exec said EACCES. */
  g_assert_nonnull (strstr (log, "denied=126\n"));
  g_assert_false (out_exists (s, "denied-marker"));
  g_assert_nonnull (strstr (err, g_strerror (EACCES)));
  /* Asked with nobody to answer: --on-ask's default, deny. */
  g_assert_nonnull (strstr (log, "asked=126\n"));
  g_assert_false (out_exists (s, "asked-marker"));
  g_assert_nonnull (strstr (log, "done\n"));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      record = audit_exec_with (execs, order[i]);
      g_assert_nonnull (record);
      g_assert_cmpint (json_object_get_int_member (record, "event"), >, last_event);
      last_event = json_object_get_int_member (record, "event");
    }
  /* An allowed exec's working directory is read once it is answered. */
  record = audit_exec_with (execs, "fake-agent.sh");
  g_assert_cmpstr (json_object_get_string_member (record, "cwd"), ==, s->out);
  record = audit_exec_with (execs, "/bin/true");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  /* Run by the agent's shell, the first exec. */
  g_assert_cmpint (json_object_get_int_member (record, "ppid"), ==,
                   json_object_get_int_member (g_ptr_array_index (execs, 0), "pid"));
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/true");
  record = audit_exec_with (execs, "denied-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  /* A refused exec's parent is read before its answer. */
  g_assert_cmpint (json_object_get_int_member (record, "ppid"), ==,
                   json_object_get_int_member (g_ptr_array_index (execs, 0), "pid"));
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "rule");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  g_assert_cmpstr (json_object_get_string_member (record, "cwd"), ==, s->out);
  record = audit_exec_with (execs, "asked-marker");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-ask");
  /* The session's terminal was told once how to answer next time. */
  {
    g_autofree char *runner_err = runner_err_text (s);
    const char *hint = strstr (runner_err, "needs an answer (rule test-ask)");

    g_assert_nonnull (hint);
    g_assert_nonnull (strstr (hint, "paddockctl attach "));
    g_assert_null (strstr (hint + 1, "needs an answer"));
  }

  /* PATH misses are not runs: sh looks touch up in every PATH directory. */
  for (guint i = 0; i < execs->len; i++)
    {
      record = g_ptr_array_index (execs, i);
      g_assert_true (g_file_test (json_object_get_string_member (record, "exe"), G_FILE_TEST_EXISTS));
    }
  /* A PATH search goes on after EACCES, so the shell may try a refused program twice. */
  g_assert_cmpuint (execs->len, >=, 5);
  g_assert_cmpuint (execs->len, <=, 7);

  {
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_assert_cmpuint (exits->len, >=, 3);
    for (guint i = 0; i < exits->len; i++)
      g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (exits, i), "duration_us"), >=, 0);
  }
  assert_chain_holds (s);
}

/* The same agent without the monitor: the denied program runs. */
static void
test_without_monitor (void)
{
  g_autoptr(Session) s = NULL;
  g_autofree char *log = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TestResult) run = NULL;

  s = g_new0 (Session, 1);
  s->raw_fd = -1;
  s->seen = g_ptr_array_new ();
  s->dir = g_dir_make_tmp ("paddock-exec-XXXXXX", &error);
  s->out = g_build_filename (s->dir, "out", NULL);
  s->runtime = g_build_filename (s->dir, "run", NULL);
  g_mkdir (s->out, 0700);
  run = session_run (s, (const char *[]) { paddock_run, "--project", s->out, "--no-monitor",
                                           "--", "sh", fake_agent, s->out, "basic", NULL });
  g_assert_cmpint (run->status, ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "denied=0\n"));
  g_assert_true (out_exists (s, "denied-marker"));
  g_assert_true (out_exists (s, "asked-marker"));
}

/* A script runs as its #! interpreter with the script's arguments: a
 * script whose line is `#!/usr/bin/touch` is touch to the policy (it ran,
 * though touch of denied-marker is denied), and the timeline says what
 * runs it. */
static void
test_script_interpreter (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "printf '#!/usr/bin/touch\\n' >\"$1/x\" && chmod +x \"$1/x\" && \"$1/x\" \"$1/denied-marker\"; "
    "echo x=$? >\"$1/log\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *script = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *line = NULL;
  JsonObject *record = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "x=126\n");
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  script = out_file (s, "x");
  record = audit_exec_at (execs, script);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, "/usr/bin/touch");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");

  shown = audit_show (s, "exec");
  line = g_strdup_printf ("%s %s/denied-marker  (#!/usr/bin/touch)  [test-deny]", script, s->out);
  g_assert_nonnull (strstr (shown, line));
}

/* An interpreter that is a script runs as its own #! line says, up to
 * the kernel's five lines: `x`, whose interpreter `y` is a script of
 * touch, is touch to the policy. An interpreter that is missing, or a
 * sixth line, makes exec fail: no run is recorded. */
static void
test_script_interpreter_nested (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && printf '#!/usr/bin/touch\\n' >y && printf '#!%s/y\\n' \"$1\" >x && "
    "printf '#!%s/missing\\n' \"$1\" >m && printf '#!/bin/true\\n' >s0 && "
    "for i in 1 2 3 4 5; do printf '#!%s/s%d\\n' \"$1\" $((i - 1)) >s$i; done && chmod +x x y m s0 s1 s2 s3 s4 s5 && "
    "{ ./x denied-marker; echo x=$?; ./m; echo m=$?; ./s4; echo s4=$?; ./s5; echo s5=$?; } >log 2>&1",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *x_line = NULL;
  g_autofree char *s4_line = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "x=126\n"));
  g_assert_nonnull (strstr (log, "m=127\n"));
  g_assert_nonnull (strstr (log, "s4=0\n"));
  g_assert_nonnull (strstr (log, "s5=127\n"));
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  record = audit_exec_at (execs, "./x");
  g_assert_nonnull (record);
  x_line = g_strdup_printf ("%s/y #!/usr/bin/touch", s->out);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, x_line);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  record = audit_exec_at (execs, "./s4");
  g_assert_nonnull (record);
  s4_line = g_strdup_printf ("%s/s3 #!%s/s2 #!%s/s1 #!%s/s0 #!/bin/true", s->out, s->out, s->out, s->out);
  g_assert_cmpstr (json_object_get_string_member (record, "interpreter"), ==, s4_line);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  g_assert_null (audit_exec_at (execs, "./m"));
  g_assert_null (audit_exec_at (execs, "./s5"));
}

/* A link of another name to a denied program is that program: `t`, a
 * link to touch, is denied as touch (it ran). */
static void
test_link_of_another_name (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "ln -s /usr/bin/touch \"$1/t\" && \"$1/t\" \"$1/denied-marker\"; echo t=$? >\"$1/log\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *link = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "t=126\n");
  g_assert_false (out_exists (s, "denied-marker"));

  execs = audit_records (s, "exec");
  link = out_file (s, "t");
  record = audit_exec_at (execs, link);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/touch");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
}

/* A copy of a program a rule names, under another name, is judged as
 * that program: cp /usr/bin/touch x; ./x denied-marker ran (the rule
 * goes by names). The record and the reason say what it is a copy of.
 * The copy still runs where the rule does not hold. */
static void
test_copy_of_named_program (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cp /usr/bin/touch \"$1/mytool\" && \"$1/mytool\" \"$1/denied-marker\"; echo copy=$? >\"$1/log\"; "
    "\"$1/mytool\" \"$1/allowed-marker\"; echo other=$? >>\"$1/log\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *marker = NULL;
  JsonObject *record;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "copy=126\nother=0\n");
  g_assert_false (out_exists (s, "denied-marker"));
  g_assert_true (out_exists (s, "allowed-marker"));

  execs = audit_records (s, "exec");
  copy = out_file (s, "mytool");
  marker = out_file (s, "denied-marker");
  record = audit_exec_with (execs, marker);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "path"), ==, copy);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  g_assert_cmpstr (json_object_get_string_member (record, "known_as"), ==, "a copy of touch");
}

/* A hard link to a program a rule names by its path, in a folder of its
 * own, is that program: same device, same inode. */
static void
test_hard_link_of_named_program (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-guarded-XXXXXX", &error);
  g_autofree char *guarded = NULL;
  g_autofree char *policy_file = NULL;
  g_autofree char *policy = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *log = NULL;
  g_autofree char *link = NULL;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  JsonObject *record;
  gsize length;

  g_assert_no_error (error);
  guarded = g_build_filename (dir, "guarded", NULL);
  g_file_get_contents ("/usr/bin/true", &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (guarded, contents, length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (guarded, 0755), ==, 0);
  policy = g_strdup_printf ("{ \"rules\": [ { \"name\": \"guarded\", \"match\": { \"program\": \"%s\" },"
                            " \"action\": \"deny\", \"reason\": \"the test guards it\" } ] }", guarded);
  policy_file = g_build_filename (dir, "policy.json", NULL);
  g_file_set_contents (policy_file, policy, -1, &error);
  g_assert_no_error (error);

  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "ln \"$2\" \"$1/other\" && \"$1/other\"; echo link=$? >\"$1/log\"; /bin/false; echo false=$? >>\"$1/log\"",
    "sh", "@OUT@", guarded, NULL }, FALSE, (const char *[]) { "--policy", policy_file, NULL });
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "link=126\nfalse=1\n");

  execs = audit_records (s, "exec");
  link = out_file (s, "other");
  record = audit_exec_at (execs, link);
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
  g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "guarded");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (record, "known_as"), "a hard link to "));

  g_unlink (guarded);
  g_unlink (policy_file);
  g_rmdir (dir);
}

/* A thread that swaps the path between the supervisor's read and the
 * kernel's ran the denied program about half the time, the audit log
 * naming the allowed one. What runs is checked against what was judged
 * once the exec is done: each run of the denied program is recorded as a
 * mismatch and killed, and none gets away. */
static void
test_swapped_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *helper = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "tests", "swap-exec", NULL);
  g_autofree char *dir = g_dir_make_tmp ("paddock-swap-XXXXXX", &error);
  g_autofree char *policy_file = NULL;
  g_autofree char *result = NULL;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  unsigned allowed, refused, caught, escaped;
  guint mismatches = 0;
  guint told = 0;
  PaddockMessage *message;

  g_assert_no_error (error);
  policy_file = g_build_filename (dir, "policy.json", NULL);
  g_file_set_contents (policy_file,
                       "{ \"rules\": [ { \"name\": \"no-sleep\", \"match\": { \"program\": \"sleep\" },"
                       " \"action\": \"deny\", \"reason\": \"the test denies sleep\" } ] }", -1, &error);
  g_assert_no_error (error);

  s = session_start_command (NULL, (const char *[]) {
    helper, "2000", "/usr/bin/false", "/usr/bin/sleep", "@OUT@/result", NULL }, TRUE,
    (const char *[]) { "--policy", policy_file, NULL });
  /* Every message, until the session ends and the client with it. */
  while ((message = session_read (s, TEST_SESSION_WAIT_SECONDS * 1000)) != NULL)
    {
      if (message->type == PADDOCK_MESSAGE_EXEC && g_strcmp0 (message->by, "mismatch") == 0)
        {
          g_assert_cmpint (message->decision, ==, PADDOCK_DECISION_DENY);
          g_assert_cmpstr (message->exe, ==, "/usr/bin/sleep");
          g_assert_nonnull (strstr (message->reason, "killed"));
          told++;
        }
      paddock_message_free (message);
    }
  g_assert_cmpint (session_wait (s), ==, 0);
  result = out_text (s, "result");
  g_test_message ("swap-exec: %s", result);
  g_assert_cmpint (sscanf (result, "allowed %u refused %u caught %u escaped %u",
                           &allowed, &refused, &caught, &escaped), ==, 4);
  g_assert_cmpuint (escaped, ==, 0);

  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (record, "by", ""), "mismatch") != 0)
        continue;
      mismatches++;
      g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/sleep");
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
      g_assert_true (json_object_has_member (record, "judged"));
    }
  g_assert_cmpuint (mismatches, ==, caught);
  g_assert_cmpuint (told, ==, caught);
  if (caught == 0)
    g_test_skip ("the kernel never read the swapped path in 2000 tries");

  g_unlink (policy_file);
  g_rmdir (dir);
}

/* A program run from memory (memfd) or from a file deleted since it was
 * opened has no name that says what it is: the policy's "unlinked" key
 * judges it (ran before, whatever the rules). A file with a name, run
 * through a descriptor too, is not such a file. */
static const char unlinked_script[] =
  "import errno, os, sys\n"
  "out = sys.argv[1]\n"
  "code = open('/usr/bin/true', 'rb').read()\n"
  "def run(name, target):\n"
  "    pid = os.fork()\n"
  "    if pid == 0:\n"
  "        try:\n"
  "            os.execve(target, ['prog'], {})\n"
  "        except OSError as e:\n"
  "            os._exit(126 if e.errno == errno.EACCES else 127)\n"
  "    _, status = os.waitpid(pid, 0)\n"
  "    with open(os.path.join(out, 'log'), 'a') as log:\n"
  "        log.write('%s=%d\\n' % (name, os.waitstatus_to_exitcode(status)))\n"
  "m = os.memfd_create('prog')\n"
  "os.write(m, code)\n"
  "run('memfd', m)\n"
  "run('memfd-proc', '/proc/self/fd/%d' % m)\n"
  "path = os.path.join(out, 'prog')\n"
  "with open(path, 'wb') as f:\n"
  "    f.write(code)\n"
  "os.chmod(path, 0o755)\n"
  "d = os.open(path, os.O_RDONLY)\n"
  "run('named', '/proc/self/fd/%d' % d)\n"
  "os.unlink(path)\n"
  "run('deleted', '/proc/self/fd/%d' % d)\n";

static void
test_unlinked_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-unlinked-XXXXXX", &error);
  g_autofree char *policy_file = NULL;
  g_autofree char *log = NULL;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  guint refused = 0;

  g_assert_no_error (error);
  policy_file = g_build_filename (dir, "policy.json", NULL);
  g_file_set_contents (policy_file,
                       "{ \"rules\": [ { \"name\": \"no-unlinked\", \"match\": { \"unlinked\": true },"
                       " \"action\": \"deny\", \"reason\": \"the test denies it\" } ] }", -1, &error);
  g_assert_no_error (error);

  s = session_start_command (NULL, (const char *[]) { "python3", "-c", unlinked_script, "@OUT@", NULL }, FALSE,
                             (const char *[]) { "--policy", policy_file, NULL });
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "memfd=126\nmemfd-proc=126\nnamed=0\ndeleted=126\n");

  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (record, "rule", ""), "no-unlinked") != 0)
        continue;
      refused++;
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
      g_assert_true (g_str_has_suffix (json_object_get_string_member (record, "exe"), " (deleted)"));
    }
  g_assert_cmpuint (refused, ==, 3);

  g_unlink (policy_file);
  g_rmdir (dir);
}

/* A script given to a shell (`sh ./nuke.sh`) is judged as the script,
 * as if it ran by its #! line: by its own path, and as the program a rule
 * names that it is a copy or a hard link of; a binary given as a script
 * too. A script no rule names still runs. */
static void
test_script_operand (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-script-XXXXXX", &error);
  g_autofree char *nuke = NULL;
  g_autofree char *policy_file = NULL;
  g_autofree char *policy = NULL;
  g_autofree char *log = NULL;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  JsonObject *record;
  guint copies = 0;

  g_assert_no_error (error);
  nuke = g_build_filename (dir, "nuke.sh", NULL);
  g_file_set_contents (nuke, "#!/bin/sh\necho ran >\"$1/ran-$2\"\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (chmod (nuke, 0755), ==, 0);
  policy = g_strdup_printf ("{ \"rules\": [ { \"name\": \"no-nuke\", \"match\": { \"program\": \"%s\" },"
                            " \"action\": \"deny\", \"reason\": \"the test denies it\" },"
                            " { \"name\": \"test-deny\", \"match\": { \"program\": \"touch\", \"argv\": \"denied-marker\" },"
                            " \"action\": \"deny\" } ] }", nuke);
  policy_file = g_build_filename (dir, "policy.json", NULL);
  g_file_set_contents (policy_file, policy, -1, &error);
  g_assert_no_error (error);

  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "sh \"$2\" \"$1\" own; echo own=$? >\"$1/log\"; "
    "cp \"$2\" \"$1/copy.sh\" && bash \"$1/copy.sh\" \"$1\" copy; echo copy=$? >>\"$1/log\"; "
    "ln \"$2\" \"$1/link.sh\" && sh \"$1/link.sh\" \"$1\" link; echo link=$? >>\"$1/log\"; "
    "cp /usr/bin/touch \"$1/t\" && sh \"$1/t\" \"$1/denied-marker\"; "
    "printf 'echo ran >\"$1/ran-$2\"\\n' >\"$1/other.sh\" && sh \"$1/other.sh\" \"$1\" other; echo other=$? >>\"$1/log\"",
    "sh", "@OUT@", nuke, NULL }, FALSE, (const char *[]) { "--policy", policy_file, NULL });
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "own=126\ncopy=126\nlink=126\nother=0\n");
  g_assert_false (out_exists (s, "ran-own"));
  g_assert_false (out_exists (s, "ran-copy"));
  g_assert_false (out_exists (s, "ran-link"));
  g_assert_true (out_exists (s, "ran-other"));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      const char *known_as;

      record = g_ptr_array_index (execs, i);
      known_as = json_object_get_string_member_with_default (record, "script_known_as", NULL);
      if (known_as == NULL)
        continue;
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
      if (g_str_has_prefix (known_as, "a copy of "))
        {
          g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==,
                           g_str_equal (known_as, "a copy of touch") ? "test-deny" : "no-nuke");
          copies |= g_str_equal (known_as, "a copy of touch") ? 1 : 2;
        }
      else
        {
          g_assert_true (g_str_has_prefix (known_as, "a hard link to /") && g_str_has_suffix (known_as, "/nuke.sh"));
          copies |= 4;
        }
    }
  g_assert_cmpuint (copies, ==, 7);

  g_unlink (nuke);
  g_unlink (policy_file);
  g_rmdir (dir);
}

/* A file without an execute bit and a folder are refused by exec itself,
 * root or not: no run is recorded for them (they were, as programs that
 * ran and exited 126), as none is for a PATH miss. */
static void
test_not_executable (void)
{
  g_autoptr(Session) s = session_start ("not-executable", FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *script = NULL;
  gboolean ran_true = FALSE;

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "script=126\nfolder=126\nafter=0\n"));
  g_assert_false (out_exists (s, "script-marker"));

  script = out_file (s, "script");
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      const char *path = json_object_get_string_member (g_ptr_array_index (execs, i), "path");

      g_assert_cmpstr (path, !=, script);
      g_assert_cmpstr (path, !=, s->out);
      ran_true |= g_strcmp0 (path, "/bin/true") == 0;
    }
  g_assert_true (ran_true);
}

/* exec refuses a file on a noexec mount (a hardened /tmp), whoever asks:
 * no run to record. The same program on a mount that allows it runs, and
 * is recorded. (It was recorded as a run either way.) The mounts are made
 * in a user and mount namespace of the agent's own. */
static void
test_noexec_mount (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "mkdir \"$1/noexec\" \"$1/exec\" && "
    "unshare -rm sh -c 'mount -t tmpfs -o noexec none \"$1/noexec\" && mount -t tmpfs none \"$1/exec\" || exit 99; "
    "cp /bin/true \"$1/noexec/t\" && cp /bin/true \"$1/exec/t\" && "
    "{ \"$1/noexec/t\"; echo noexec=$?; \"$1/exec/t\"; echo exec=$?; } >\"$1/log\" 2>/dev/null' sh \"$1\"; "
    "echo $? >\"$1/status\"",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *status = NULL;
  g_autofree char *log = NULL;
  g_autofree char *refused = NULL;
  g_autofree char *ran = NULL;

  g_assert_cmpint (session_wait (s), ==, 0);
  status = out_text (s, "status");
  if (strcmp (status, "0\n") != 0)
    {
      g_test_skip ("no user and mount namespace to mount a tmpfs in");
      return;
    }
  log = out_text (s, "log");
  g_assert_cmpstr (log, ==, "noexec=126\nexec=0\n");

  refused = g_build_filename (s->out, "noexec", "t", NULL);
  ran = g_build_filename (s->out, "exec", "t", NULL);
  execs = audit_records (s, "exec");
  g_assert_null (audit_exec_at (execs, refused));
  g_assert_nonnull (audit_exec_at (execs, ran));
}

/* The loader run as a command runs its program with no exec of it:
 * `ld.so /usr/bin/touch denied-marker` is touch to the policy, with the
 * loader's options before the program or not. */
static void
test_loader_runs (void)
{
  const char *loader = "/lib64/ld-linux-x86-64.so.2";
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  guint denied = 0;

  if (!g_file_test (loader, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no x86-64 glibc loader here");
      return;
    }
  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && { \"$2\" /usr/bin/touch denied-marker; echo plain=$?; "
    "\"$2\" --inhibit-cache --argv0 ls /usr/bin/touch denied-marker; echo options=$?; "
    "\"$2\" /usr/bin/touch allowed; echo allowed=$?; } >log 2>&1",
    "sh", "@OUT@", loader, NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "plain=126\n"));
  g_assert_nonnull (strstr (log, "options=126\n"));
  g_assert_nonnull (strstr (log, "allowed=0\n"));
  g_assert_false (out_exists (s, "denied-marker"));
  g_assert_true (out_exists (s, "allowed"));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (g_strcmp0 (json_object_get_string_member (record, "path"), loader) != 0 ||
          g_strcmp0 (json_object_get_string_member (record, "decision"), "deny") != 0)
        continue;
      g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
      denied++;
    }
  g_assert_cmpuint (denied, ==, 2);
}

/* What the loader and a multi-call binary run, as the policy sees it. */
static void
test_launched_query (void)
{
  struct {
    const char *exe;
    const char *resolved;
    const char *argv[8];
    const char *program;            /* NULL: it runs nothing of its own */
    const char *command;
  } cases[] = {
    { "/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
      { "/lib64/ld-linux-x86-64.so.2", "/bin/rm", "-rf", "/", NULL }, "/bin/rm", "/bin/rm -rf /" },
    { "/usr/bin/ld.so", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
      { "ld.so", "--library-path", "/x", "--argv0", "ls", "./rm", "-r", NULL }, "./rm", "ls -r" },
    { "/lib/ld-musl-x86_64.so.1", NULL, { "ld", "--list", "/bin/true", NULL }, "/bin/true", "/bin/true" },
    { "/x/lib/ld-2.31.so", NULL, { "ld-2.31.so", "a", NULL }, "a", "a" },
    { "/bin/busybox", "/bin/busybox", { "busybox", "rm", "-rf", "/", NULL }, "rm", "rm -rf /" },
    { "/bin/toybox", "/bin/toybox", { "toybox", "rm", NULL }, "rm", "rm" },
    /* Near misses. */
    { "/lib64/ld-linux-x86-64.so.2", NULL, { "ld", "--preload", NULL }, NULL, NULL },
    { "/lib64/ld-linux-x86-64.so.2", NULL, { "ld", NULL }, NULL, NULL },
    { "/usr/bin/ld.solver", NULL, { "ld.solver", "/bin/rm", NULL }, NULL, NULL },
    { "/usr/bin/ld", "/usr/bin/x86_64-linux-gnu-ld.bfd", { "ld", "-o", "a", "a.o", NULL }, NULL, NULL },
    { "/bin/busybox", "/bin/busybox", { "busybox", "--list", NULL }, NULL, NULL },
    { "/bin/rm", "/bin/busybox", { "rm", "-rf", "x", NULL }, NULL, NULL },
    { "/bin/rm", "/usr/bin/rm", { "rm", "-rf", "x", NULL }, NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PaddockPolicyQuery query = { .exe = cases[i].exe, .argv = cases[i].argv, .resolved = cases[i].resolved };
      PaddockPolicyQuery out = { 0 };
      g_autoptr(GPtrArray) argv = paddock_exec_launched_query (&query, &out);
      g_autofree char *command = NULL;

      if (cases[i].program == NULL)
        {
          g_assert_null (argv);
          continue;
        }
      g_assert_nonnull (argv);
      command = g_strjoinv (" ", (char **) out.argv);
      g_assert_cmpstr (out.exe, ==, cases[i].program);
      g_assert_cmpstr (command, ==, cases[i].command);
      g_assert_null (out.resolved);
    }
}

/* A program run under another name (bash's exec -a) is shown under its
 * own, in attach and in audit show: a timeline must not show `ls` where
 * `rm` runs. The policy already judged it by both names. */
static void
test_exec_alias (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "bash", "-c",
    WAIT_FOR_GO "; (exec -a ls touch \"$1/made\"); "
    "(exec -a ls touch \"$1/denied-marker\"); exit 0",
    "bash", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *made = NULL;
  g_autofree char *denied = NULL;

  attach = attach_start (s, (const char *[]) { "--watch", session, NULL }, FALSE, &lines, &seen);
  session_go (s);
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));
  g_assert_true (out_exists (s, "made"));
  g_assert_false (out_exists (s, "denied-marker"));

  shown = audit_show (s, NULL);
  g_test_message ("%s%s", rest, shown);

  made = g_strdup_printf ("touch %s/made  (calls itself \"ls\")", s->out);
  denied = g_strdup_printf ("touch %s/denied-marker  (calls itself \"ls\")  [test-deny]", s->out);
  g_assert_nonnull (strstr (rest, made));
  g_assert_nonnull (strstr (rest, denied));
  g_assert_nonnull (strstr (shown, made));
  g_assert_nonnull (strstr (shown, denied));
  g_clear_pointer (&made, g_free);
  made = g_strdup_printf ("ls %s/made", s->out);
  g_assert_null (strstr (rest, made));
  g_assert_null (strstr (shown, made));
}

static void
test_junk_argv (void)
{
  g_autoptr(Session) s = session_start ("junk", TRUE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  gboolean saw_escaped = FALSE, saw_many = FALSE;
  guint n_laid_out = 0;

  for (;;)
    {
      g_autoptr(PaddockMessage) message = session_read (s, 30000);

      g_assert_nonnull (message);
      if (message->type == PADDOCK_MESSAGE_EXEC && message->escaped)
        {
          const char * const expected[] = {
            "true", "\xff\xfe invalid \xc3", "\x01\x02\x1b[31mred\x1b[0m\x7f", "back\\slash", NULL
          };

          /* Sent escaped, read back as the bytes they were. */
          saw_escaped = TRUE;
          g_assert_cmpstrv (message->argv, expected);
        }
      if (message->type == PADDOCK_MESSAGE_EXEC && message->argc == 5 &&
          g_strcmp0 (message->argv[1], "laid-out") == 0)
        {
          const char * const expected[] = { "true", "laid-out", "one", "two", "three", NULL };

          n_laid_out++;
          g_assert_cmpstr (message->path, ==, "/bin/true");
          g_assert_cmpstrv (message->argv, expected);
          g_assert_false (message->truncated);
        }
      if (message->type == PADDOCK_MESSAGE_EXEC && message->argc == 100001)
        {
          saw_many = TRUE;
          g_assert_true (message->truncated);
        }
      if (message->type == PADDOCK_MESSAGE_EXIT && message->session_end)
        break;
    }
  g_assert_true (saw_escaped);
  g_assert_true (saw_many);
  g_assert_cmpuint (n_laid_out, ==, 2);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "junk=0\n"));

  execs = audit_records (s, "exec");
  saw_many = FALSE;
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);

      if (json_object_get_int_member (record, "argc") == 100001)
        {
          saw_many = TRUE;
          g_assert_true (json_object_get_boolean_member (record, "truncated"));
        }
    }
  g_assert_true (saw_many);
  assert_chain_holds (s);
}

/* After a chroot, an absolute path is looked up under the caller's root:
 * the exec is recorded with the file it names there. */
static void
test_chroot (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *expected = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("chroot needs root");
      return;
    }
  s = session_start ("chroot", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "after=0\n"));
  g_assert_false (g_file_test ("/bin/chrooted-probe", G_FILE_TEST_EXISTS));
  expected = g_build_filename (s->out, "root", "bin", "chrooted-probe", NULL);

  execs = audit_records (s, "exec");
  runs = audit_execs_at (execs, "/bin/chrooted-probe");
  g_assert_cmpuint (runs->len, >, 0);
  for (guint i = 0; i < runs->len; i++)
    g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, i), "exe"), ==, expected);
  assert_chain_holds (s);
}

/* Under the folder lock the agent has a /tmp of its own. A program it puts
 * there must be looked up there, not in paddock-run's /tmp where there is
 * no such file (that lookup would refuse it as a PATH miss). */
static void
test_private_tmp (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));
  JsonObject *record;

  /* The fake agent is read from the source tree, which the lock would hide. */
  s = session_start ("private-tmp", FALSE, (const char *[]) { "--lock", grant, NULL });
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "private=0\n"));
  g_assert_false (g_file_test ("/tmp/paddock-private-probe", G_FILE_TEST_EXISTS));
  execs = audit_records (s, "exec");
  record = audit_exec_at (execs, "/tmp/paddock-private-probe");
  g_assert_nonnull (record);
  g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/tmp/paddock-private-probe");
  g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
  assert_chain_holds (s);
}

/* The monitor remembers what a path led to. When the path is repointed
 * the record names the new program, and once it is removed, running it
 * again is a miss, not a run. */
static void
test_replaced (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *tool = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autoptr(GPtrArray) runs = NULL;

  s = session_start ("replaced", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "first=0\n"));
  g_assert_nonnull (strstr (log, "second=1\n"));
  g_assert_nonnull (strstr (log, "gone=127\n"));

  tool = g_build_filename (s->out, "tool", NULL);
  first = g_build_filename (s->out, "first", NULL);
  second = g_build_filename (s->out, "second", NULL);
  execs = audit_records (s, "exec");
  runs = audit_execs_at (execs, tool);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, 0), "exe"), ==, first);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (runs, 1), "exe"), ==, second);
  assert_chain_holds (s);
}

/* Likewise for a process that makes a mount namespace of its own. */
static void
test_own_mounts (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autoptr(TestResult) probe = test_run ((const char *[]) { "unshare", "--map-root-user", "--mount", "true", NULL });

  if (probe->status != 0)
    {
      g_test_skip ("this machine does not let a user make a user and mount namespace");
      return;
    }
  s = session_start ("own-mounts", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "own=0\n"));
  g_assert_false (g_file_test ("/tmp/paddock-own-probe", G_FILE_TEST_EXISTS));
  execs = audit_records (s, "exec");
  g_assert_nonnull (audit_exec_at (execs, "/tmp/paddock-own-probe"));
  assert_chain_holds (s);
}

/* Whether a pidfd tells how any process ended (Linux 6.15): asked of a
 * child already reaped, which waitid could no longer tell. */
static gboolean
kernel_reports_exit_status (void)
{
  struct
  {
    guint64 mask;
    guint64 cgroupid;
    guint32 ids[11];
    gint32  exit_code;
  } info = { .mask = 1u << 3 };
  int pidfd;
  pid_t pid = fork ();
  gboolean reported;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_usleep (20000);
      _exit (7);
    }
  pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  reported = pidfd >= 0 && ioctl (pidfd, _IOWR (0xFF, 11, info), &info) == 0 &&
             (info.mask & (1u << 3)) != 0 && WIFEXITED (info.exit_code) && WEXITSTATUS (info.exit_code) == 7;
  if (pidfd >= 0)
    close (pidfd);
  return reported;
}

/* Programs the agent's shell starts are not paddock-run's children, yet
 * their exit records say how they ended: an exit code or a signal. */
static void
test_exit_codes (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  JsonObject *exit_record;

  if (!kernel_reports_exit_status ())
    {
      g_test_skip ("this kernel tells only a parent how its child ended (Linux 6.15 tells a pidfd's holder)");
      return;
    }
  s = session_start ("exit-codes", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");

  exit_record = find_exit (exits, json_object_get_int_member (audit_exec_with (execs, "exit 3"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 3);
  exit_record = find_exit (exits, json_object_get_int_member (audit_exec_at (execs, "/bin/false"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 1);
  exit_record = find_exit (exits, json_object_get_int_member (audit_exec_with (execs, "kill -TERM"), "event"));
  g_assert_nonnull (exit_record);
  g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "signal", -1), ==, SIGTERM);
  g_assert_false (json_object_has_member (exit_record, "exit_code"));
  assert_chain_holds (s);

  /* And paddockctl audit show says so. */
  {
    g_autofree char *out = audit_show (s, NULL);
    g_autofree char *three = g_strdup_printf ("#%" G_GINT64_FORMAT " after ",
                                              json_object_get_int_member (audit_exec_with (execs, "exit 3"), "event"));
    const char *line;

    line = strstr (out, three);
    g_assert_nonnull (line);
    g_assert_true (g_str_has_prefix (strstr (line, "µs"), "µs, status 3\n"));
    g_assert_nonnull (strstr (out, "µs, signal 15\n"));
  }
}

/* A program run through the caller's own /proc entries (/proc/self/fd/N,
 * /dev/fd/N, /proc/thread-self/fd/N, /proc/self/exe) is recorded as the
 * file it is, and decided by that file's name: the monitor looked them up
 * as its own entries, recorded "/proc/self/fd/5" as the program, and let
 * touch denied-marker through as a program named "5". */
static void
check_proc_self (const char * const *extra)
{
  g_autoptr(Session) s = session_start ("proc-self", FALSE, extra);
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *log = NULL;
  g_autofree char *denied = NULL;
  g_autofree char *shell = realpath ("/bin/sh", NULL);
  const char *files[] = { "fd-ran", "devfd-ran", "threadself-ran" };
  const struct { const char *path; const char *exe; } runs[] = {
    { "/proc/self/fd/5", "/usr/bin/touch" },
    { "/dev/fd/5", "/usr/bin/touch" },
    { "/proc/thread-self/fd/5", "/usr/bin/touch" },
    { "/proc/self/exe", shell },
  };

  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  if (strstr (log, "fd=0\ndevfd=0\nthreadself=0\nselfexe=7\nnofd=127\nslash=127\ndenied=126\n") == NULL)
    g_error ("unexpected steps:\n%s", log);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = out_file (s, files[i]);

      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  denied = out_file (s, "denied-marker");
  g_assert_false (g_file_test (denied, G_FILE_TEST_EXISTS));

  execs = audit_records (s, "exec");
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      JsonObject *record = audit_exec_at (execs, runs[i].path);

      if (record == NULL)
        g_error ("no record of %s", runs[i].path);
      g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, runs[i].exe);
      g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
    }
  {
    JsonObject *record = find_exec_argv (execs, "/dev/fd/5", denied);

    g_assert_nonnull (record);
    g_assert_cmpstr (json_object_get_string_member (record, "exe"), ==, "/usr/bin/touch");
    g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "deny");
    g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-deny");
  }
  /* A descriptor that is not open is a miss, as the kernel has it: no run;
   * nor is one named with a trailing slash, which exec refuses. */
  g_assert_null (audit_exec_at (execs, "/dev/fd/9"));
  g_assert_null (audit_exec_at (execs, "/dev/fd/5/"));
  assert_chain_holds (s);
}

static void
test_proc_self (void)
{
  check_proc_self (NULL);
}

/* Under the lock, with its own mounts and (namespaces) process numbers. */
static void
test_proc_self_locked (void)
{
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));

  check_proc_self ((const char *[]) { "--lock", grant, NULL });
}

/* The namespaces backend: a pid namespace of its own (its /proc/self is
 * another number than the monitor is told) and a /dev it built. */
static void
test_proc_self_namespaces (void)
{
  g_autofree char *grant = g_strdup_printf ("--grant=%s", g_getenv ("PADDOCK_SOURCE_DIR"));

  check_proc_self ((const char *[]) { "--lock", "--lock-backend", "namespaces", grant, NULL });
}

/* A program run from a thread other than its process's first replaces the
 * process and runs under its pid: the run is recorded under that pid, it
 * ends the run of the program it replaced, and it gets its own end. */
static void
test_thread_exec (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  g_autofree char *log = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *after_text = NULL;
  g_autofree char *helper = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "tests", "thread-exec", NULL);
  g_autoptr(GPtrArray) exit_messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  JsonObject *helper_run;
  JsonObject *shell_run;
  JsonObject *child_run;
  JsonObject *end;
  gint64 pid;
  guint n_replaced = 0;

  s = session_start ("thread-exec", TRUE, NULL);
  /* The whole stream, up to its end, for the exit messages below. */
  for (PaddockMessage *message; (message = session_read (s, 20000)) != NULL;)
    g_ptr_array_add (exit_messages, message);
  g_assert_cmpint (session_wait (s), ==, 0);
  log = out_text (s, "log");
  g_assert_nonnull (strstr (log, "thread=0\n"));
  pid_text = out_text (s, "pid");
  after_text = out_text (s, "after");
  pid = g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (pid, >, 0);
  /* The shell's $$ is the process's first pid. */
  g_assert_cmpint (g_ascii_strtoll (after_text, NULL, 10), ==, pid);

  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  helper_run = audit_exec_at (execs, helper);
  shell_run = find_exec_argv (execs, "/bin/sh", "-c");
  child_run = find_exec_argv (execs, "/bin/true", "thread-child");
  g_assert_nonnull (helper_run);
  g_assert_nonnull (shell_run);
  g_assert_nonnull (child_run);
  g_assert_cmpint (json_object_get_int_member (helper_run, "pid"), ==, pid);
  g_assert_cmpint (json_object_get_int_member (shell_run, "pid"), ==, pid);
  /* So the shell's child names a parent the timeline knows. */
  g_assert_cmpint (json_object_get_int_member (child_run, "ppid"), ==, pid);

  /* The helper's run ended when the shell replaced it; the shell's when it
   * exited. */
  end = find_exit (exits, json_object_get_int_member (helper_run, "event"));
  g_assert_nonnull (end);
  g_assert_true (json_object_get_boolean_member_with_default (end, "replaced", FALSE));
  end = find_exit (exits, json_object_get_int_member (shell_run, "event"));
  g_assert_nonnull (end);
  g_assert_false (json_object_get_boolean_member_with_default (end, "replaced", FALSE));
  g_assert_cmpint (json_object_get_int_member (end, "pid"), ==, pid);
  assert_chain_holds (s);

  /* Clients are told so: the helper's run was replaced, the rest exited. */
  for (guint i = 0; i < exit_messages->len; i++)
    {
      PaddockMessage *message = g_ptr_array_index (exit_messages, i);

      if (message->type != PADDOCK_MESSAGE_EXIT || message->session_end)
        continue;
      g_assert_cmpint (message->replaced, ==, message->seq == json_object_get_int_member (helper_run, "event"));
      n_replaced += message->replaced;
    }
  g_assert_cmpuint (n_replaced, ==, 1);

  /* And audit show. */
  {
    g_autofree char *out = audit_show (s, "exit");
    g_autofree char *helper_end = g_strdup_printf ("#%" G_GINT64_FORMAT " after ",
                                                   json_object_get_int_member (helper_run, "event"));
    const char *line;

    line = strstr (out, helper_end);
    g_assert_nonnull (line);
    g_assert_true (g_str_has_prefix (strstr (line, "µs"), "µs, replaced by the next program\n"));
    g_assert_nonnull (strstr (line + 1, "µs, status 0\n"));
  }
}

/* A program under the monitor cannot take its execs' notifications for
 * itself (the kernel gives a task one listener in its filter chain, and
 * the newest filter's would come first): the attempt fails, where it
 * succeeds unsupervised, and the program's execs stay the monitor's. */
static void
test_own_listener (void)
{
  g_autofree char *probe = g_build_filename (g_getenv ("PADDOCK_BUILD_DIR"), "tests", "lock-probe", NULL);
  g_autoptr(Session) s = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) execs = NULL;

  {
    g_autoptr(TestResult) unsupervised = test_run ((const char *[]) { probe, "listener", NULL });

    g_assert_cmpint (unsupervised->status, ==, 0);
  }
  s = session_start_command (NULL, (const char *[]) { probe, "listener", NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 1);
  err = runner_err_text (s);
  g_assert_nonnull (strstr (err, "lock-probe: a listener of its own: "));
  execs = audit_records (s, "exec");
  g_assert_nonnull (audit_exec_at (execs, probe));
}

/* Programs that end as soon as they start, on a machine kept busy, each
 * recorded with their working directory and their end: what needs the
 * process alive is read before the exec is answered. Read after, some
 * would be gone by then (1 in 75 on an idle machine, 1 in 10 beside two
 * busy loops). */
static void
test_short_runs (void)
{
  const guint n_runs = 300;
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GPtrArray) burners = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *loop = g_strdup_printf ("i=0; while [ $i -lt %u ]; do /bin/false; i=$((i+1)); done", n_runs);
  gboolean exit_status = kernel_reports_exit_status ();

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      /* At the lowest priority, so that tests running beside this one
       * feel it least. */
      GSubprocess *burner = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                                              "nice", "-n", "19", "sh", "-c", "while :; do :; done", NULL);

      g_assert_no_error (error);
      g_ptr_array_add (burners, burner);
    }
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", loop, NULL }, FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 0);
  for (guint i = 0; i < burners->len; i++)
    {
      g_subprocess_force_exit (g_ptr_array_index (burners, i));
      g_subprocess_wait (g_ptr_array_index (burners, i), NULL, NULL);
    }

  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  runs = audit_execs_at (execs, "/bin/false");
  g_assert_cmpuint (runs->len, ==, n_runs);
  for (guint i = 0; i < runs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (runs, i);
      JsonObject *exit_record;

      g_assert_cmpstr (json_object_get_string_member_with_default (record, "cwd", NULL), ==, s->out);
      exit_record = find_exit (exits, json_object_get_int_member (record, "event"));
      g_assert_nonnull (exit_record);
      if (exit_status)
        g_assert_cmpint (json_object_get_int_member_with_default (exit_record, "exit_code", -1), ==, 1);
    }
  assert_chain_holds (s);
}

/* Runs @n sleeps at once under paddock-run, started with an open-file
 * limit of @soft (hard limit @hard), and ends them once the audit log
 * has all their runs; returns the session, ended. (Sleeps that ended by
 * themselves, all started within their time, would not all have run at
 * once on a busy machine.) */
static Session *
run_many_at_once (guint n,
                  rlim_t soft,
                  rlim_t hard)
{
  g_autofree char *script = g_strdup_printf (
    "ulimit -Sn > \"$1/agent-limit\"; pids=; i=0; "
    "while [ $i -lt %u ]; do /bin/sleep 60 & pids=\"$pids $!\"; i=$((i+1)); done; "
    "echo $pids > \"$1/pids\"; wait", n);
  SpawnLimit given = { RLIMIT_NOFILE, { .rlim_cur = soft, .rlim_max = hard } };
  const char *sleep_run = "\"path\":\"/bin/sleep\"";
  g_autofree char *pids_text = NULL;
  g_autofree char *log = NULL;
  g_auto(GStrv) pids = NULL;
  Session *s;

  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) { "sh", "-c", script, "sh", "@OUT@", NULL }, FALSE, NULL);
  spawn_limit = NULL;
  pids_text = wait_for_out_lines (s, "pids", NULL, 1);
  pids = g_strsplit (g_strstrip (pids_text), " ", -1);
  g_assert_cmpuint (g_strv_length (pids), ==, n);
  log = wait_for_lines (s->audit, sleep_run, n);
  g_assert_cmpuint (count_lines (log, sleep_run), ==, n);
  for (guint i = 0; pids[i] != NULL; i++)
    g_assert_cmpint (kill (atoi (pids[i]), SIGTERM), ==, 0);
  g_assert_cmpint (session_wait (s), ==, 0);
  return s;
}

/* Each running program costs the monitor a pidfd: 150 at once under a
 * soft limit of 64 still all have their end recorded, as the supervisor
 * takes its hard limit; the agent keeps the limit it was given. Where
 * the hard limit is as low, the ends that cannot be watched are said to
 * be lost, on the terminal. */
static void
test_many_at_once (void)
{
  const guint n = 150;
  struct rlimit ours;

  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &ours), ==, 0);
  if (ours.rlim_max < 1024)
    {
      g_test_skip ("needs a hard open-file limit of at least 1024");
      return;
    }

  {
    g_autoptr(Session) s = run_many_at_once (n, 64, ours.rlim_max);
    g_autoptr(GPtrArray) execs = audit_records (s, "exec");
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_autoptr(GPtrArray) sleeps = audit_execs_at (execs, "/bin/sleep");
    g_autofree char *limit = out_text (s, "agent-limit");

    g_assert_cmpstr (limit, ==, "64\n");
    g_assert_cmpuint (sleeps->len, ==, n);
    for (guint i = 0; i < sleeps->len; i++)
      g_assert_nonnull (find_exit (exits, json_object_get_int_member (g_ptr_array_index (sleeps, i), "event")));
    assert_chain_holds (s);
  }

  {
    g_autoptr(Session) s = run_many_at_once (n, 64, 64);
    g_autoptr(GPtrArray) execs = audit_records (s, "exec");
    g_autoptr(GPtrArray) exits = audit_records (s, "exit");
    g_autoptr(GPtrArray) sleeps = audit_execs_at (execs, "/bin/sleep");
    g_autofree char *err = runner_err_text (s);
    guint ended = 0;

    g_assert_cmpuint (sleeps->len, ==, n);
    for (guint i = 0; i < sleeps->len; i++)
      ended += find_exit (exits, json_object_get_int_member (g_ptr_array_index (sleeps, i), "event")) != NULL;
    g_assert_cmpuint (ended, <, n);
    g_assert_nonnull (strstr (err, "cannot watch for programs' ends: they hold all open files but the 16 paddock-run keeps for itself"));
    assert_chain_holds (s);
  }
}

/* The audit log's disk fills up (here: a file-size limit, which the
 * agent shares, and which would end paddock-run by SIGXFSZ): the failure
 * is said once, and how many records are missing once at the end, not a
 * line per record; the session runs on, the log keeps every record before
 * the failure whole. */
static void
test_audit_write_fails (void)
{
  SpawnLimit given = { RLIMIT_FSIZE, { .rlim_cur = 16 * 1024, .rlim_max = RLIM_INFINITY } };
  g_autoptr(Session) s = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  PaddockAuditVerification result = { 0 };

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &given.limit), ==, 0);
  given.limit.rlim_cur = 16 * 1024;
  spawn_limit = &given;
  s = session_start_command (NULL, (const char *[]) {
    "sh", "-c", "i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; : > \"$1/finished\"", "sh", "@OUT@", NULL
  }, FALSE, NULL);
  spawn_limit = NULL;
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, "finished"));

  err = runner_err_text (s);
  g_test_message ("%s", err);
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], "paddock-run: audit log: cannot append to the audit log "));
  g_assert_nonnull (strstr (lines[0], g_strerror (EFBIG)));
  g_assert_true (g_str_has_prefix (lines[1], "paddock-run: "));
  g_assert_nonnull (strstr (lines[1], " records of this session, its end included, are missing from the audit log"));

  g_assert_true (paddock_audit_verify_file (s->audit, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, >, 10);
  paddock_audit_verification_clear (&result);
}

/* The agent execs a program that ends at once: the exit ends that
 * program's run, and the agent's own run is recorded as replaced by it,
 * however soon the exit follows the exec. */
static void
test_exit_after_exec (void)
{
  g_autoptr(Session) s = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GPtrArray) exits = NULL;
  JsonObject *last;
  gint64 pid;
  guint n_replaced = 0;
  gboolean last_ended = FALSE;

  s = session_start ("exec-last", FALSE, NULL);
  g_assert_cmpint (session_wait (s), ==, 7);
  execs = audit_records (s, "exec");
  exits = audit_records (s, "exit");
  last = audit_exec_with (execs, "last-program");
  g_assert_nonnull (last);
  pid = json_object_get_int_member (last, "pid");

  for (guint i = 0; i < exits->len; i++)
    {
      JsonObject *exit = g_ptr_array_index (exits, i);

      if (json_object_has_member (exit, "session_end") ||
          json_object_get_int_member (exit, "pid") != pid)
        continue;
      if (json_object_get_int_member (exit, "event") == json_object_get_int_member (last, "event"))
        {
          g_assert_false (json_object_has_member (exit, "replaced"));
          last_ended = TRUE;
        }
      else
        {
          g_assert_true (json_object_get_boolean_member_with_default (exit, "replaced", FALSE));
          n_replaced++;
        }
    }
  g_assert_true (last_ended);
  g_assert_cmpuint (n_replaced, ==, 1);
  assert_chain_holds (s);
}

int
main (int   argc,
      char *argv[])
{
  test_session_init (&argc, &argv);

  g_test_add_func ("/paddock/exec-monitor/decisions", test_decisions);
  g_test_add_func ("/paddock/exec-monitor/without-monitor", test_without_monitor);
  g_test_add_func ("/paddock/exec-monitor/junk-argv", test_junk_argv);
  g_test_add_func ("/paddock/exec-monitor/chroot", test_chroot);
  g_test_add_func ("/paddock/exec-monitor/exit-after-exec", test_exit_after_exec);
  g_test_add_func ("/paddock/exec-monitor/private-tmp", test_private_tmp);
  g_test_add_func ("/paddock/exec-monitor/replaced", test_replaced);
  g_test_add_func ("/paddock/exec-monitor/own-mounts", test_own_mounts);
  g_test_add_func ("/paddock/exec-monitor/exit-codes", test_exit_codes);
  g_test_add_func ("/paddock/exec-monitor/thread-exec", test_thread_exec);
  g_test_add_func ("/paddock/exec-monitor/proc-self", test_proc_self);
  g_test_add_func ("/paddock/exec-monitor/proc-self-locked", test_proc_self_locked);
  g_test_add_func ("/paddock/exec-monitor/proc-self-namespaces", test_proc_self_namespaces);
  g_test_add_func ("/paddock/exec-monitor/own-listener", test_own_listener);
  g_test_add_func ("/paddock/exec-monitor/short-runs", test_short_runs);
  g_test_add_func ("/paddock/exec-monitor/many-at-once", test_many_at_once);
  g_test_add_func ("/paddock/exec-monitor/exec-alias", test_exec_alias);
  g_test_add_func ("/paddock/exec-monitor/not-executable", test_not_executable);
  g_test_add_func ("/paddock/exec-monitor/noexec-mount", test_noexec_mount);
  g_test_add_func ("/paddock/exec-monitor/link-of-another-name", test_link_of_another_name);
  g_test_add_func ("/paddock/exec-monitor/copy-of-named-program", test_copy_of_named_program);
  g_test_add_func ("/paddock/exec-monitor/hard-link-of-named-program", test_hard_link_of_named_program);
  g_test_add_func ("/paddock/exec-monitor/swapped-path", test_swapped_path);
  g_test_add_func ("/paddock/exec-monitor/unlinked-file", test_unlinked_file);
  g_test_add_func ("/paddock/exec-monitor/script-operand", test_script_operand);
  g_test_add_func ("/paddock/exec-monitor/script-interpreter", test_script_interpreter);
  g_test_add_func ("/paddock/exec-monitor/script-interpreter-nested", test_script_interpreter_nested);
  g_test_add_func ("/paddock/exec-monitor/loader-runs", test_loader_runs);
  g_test_add_func ("/paddock/exec-monitor/launched-query", test_launched_query);
  g_test_add_func ("/paddock/exec-monitor/audit-write-fails", test_audit_write_fails);

  return g_test_run ();
}
