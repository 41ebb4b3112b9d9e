/* test-history.c: a project's past sessions, from their audit logs: the
 * project's logs listed newest first with what they ran; one opened
 * reads back into a timeline with the same rows in order; an edited log
 * fails verification and says where; a truncated one says so and shows
 * what it could read; garbage and a missing file are errors naming the
 * file
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "paddock-audit.h"
#include "paddock-history.h"
#include "paddock-xdg.h"
#include "test-util.h"

static void
append_record (PaddockAudit *audit,
               const char   *type,
               const char   *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_true (paddock_audit_append (audit, type, json_node_get_object (node), NULL, &error));
  g_assert_no_error (error);
}

/* A session's log in the folder paddock-run writes them to: it started
 * in @project, ran git push (asked, then denied), ls (allowed), rm
 * (refused by the policy) and, where @ended, ended. */
static char *
write_session (const char *id,
               const char *project,
               gboolean    ended)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = paddock_audit_default_path (id, &error);
  g_autoptr(PaddockAudit) audit = NULL;
  g_autofree char *start = NULL;

  g_assert_no_error (error);
  audit = paddock_audit_open (path, &error);
  g_assert_no_error (error);
  start = g_strdup_printf ("{\"session\":\"%s\",\"project\":\"%s\",\"command\":[\"claude\",\"--resume\"],"
                           "\"agent_pid\":100}", id, project);
  append_record (audit, PADDOCK_AUDIT_SESSION_START, start);
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":1,\"pid\":101,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/git\",\"exe\":\"/usr/bin/git\","
                 "\"argv\":[\"git\",\"push\",\"--force\",\"origin\",\"main\"],\"argc\":5,\"decision\":\"ask\","
                 "\"by\":\"rule\",\"rule\":\"git-push-force\"}");
  append_record (audit, PADDOCK_AUDIT_DECISION,
                 "{\"event\":1,\"pid\":101,\"decision\":\"deny\",\"by\":\"user\",\"remember\":\"once\"}");
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":2,\"pid\":102,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/ls\",\"exe\":\"/usr/bin/ls\","
                 "\"argv\":[\"ls\",\"-l\"],\"argc\":2,\"decision\":\"allow\",\"by\":\"default\"}");
  append_record (audit, PADDOCK_AUDIT_EXIT, "{\"event\":2,\"pid\":102,\"duration_us\":1500,\"exit_code\":0}");
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":3,\"pid\":103,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/rm\",\"exe\":\"/usr/bin/rm\","
                 "\"argv\":[\"rm\",\"-rf\",\"/\"],\"argc\":3,\"decision\":\"deny\",\"by\":\"rule\",\"rule\":\"rm-root\"}");
  if (ended)
    append_record (audit, PADDOCK_AUDIT_SESSION_END, "{\"exit_code\":0,\"execs\":3}");
  return g_steal_pointer (&path);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GListModel *
list (const char  *project,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_history_list_async (project, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return paddock_history_list_finish (result, error);
}

static PaddockPastSession *
open_log (const char  *path,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  paddock_history_open_async (path, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return paddock_history_open_finish (result, error);
}

static char *
make_project (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-history-XXXXXX", &error);
  char *canonical;

  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  g_assert_nonnull (canonical);
  return canonical;
}

/* The rows of @timeline as "PROGRAM ARGS… DECISION" lines. */
static char *
describe_rows (PaddockTimeline *timeline)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (timeline)); i++)
    {
      g_autoptr(PaddockTimelineEvent) row = g_list_model_get_item (G_LIST_MODEL (timeline), i);
      const char * const *argv = paddock_timeline_event_get_argv (row);
      g_autofree char *line = argv != NULL ? g_strjoinv (" ", (char **) argv) : g_strdup ("-");

      g_string_append_printf (out, "%s %d;", line, paddock_timeline_event_get_decision (row));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
remove_logs (void)
{
  g_autofree char *folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);

  test_remove_tree (folder);
}

static void
test_list (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *other = make_project ();
  g_autofree char *older = write_session ("aaaa0001", project, TRUE);
  g_autofree char *elsewhere = write_session ("cccc0003", other, TRUE);
  g_autofree char *newer = write_session ("bbbb0002", project, FALSE);
  g_autofree char *folder = g_path_get_dirname (older);
  g_autofree char *garbage = g_build_filename (folder, "session-20260101-000000-dddd0004.jsonl", NULL);
  g_autofree char *stranger = g_build_filename (folder, "notes.txt", NULL);
  g_autofree char *base = g_path_get_basename (project);
  g_autofree char *dotted = g_build_filename (project, "..", base, NULL);
  g_autoptr(GListModel) sessions = NULL;
  g_autoptr(PaddockPastSession) first = NULL;
  g_autoptr(PaddockPastSession) second = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (garbage, "this is not a log\n", -1, NULL));
  g_assert_true (g_file_set_contents (stranger, "{}", -1, NULL));

  /* The project, named another way: the same folder. */
  sessions = list (dotted, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 2);
  first = g_list_model_get_item (sessions, 0);
  second = g_list_model_get_item (sessions, 1);
  /* Newest first. */
  g_assert_cmpstr (paddock_past_session_get_path (first), ==, newer);
  g_assert_cmpstr (paddock_past_session_get_path (second), ==, older);
  g_assert_cmpint (paddock_past_session_get_start_time (first), >=, paddock_past_session_get_start_time (second));
  g_assert_cmpstr (paddock_past_session_get_session_id (first), ==, "bbbb0002");
  g_assert_cmpstr (paddock_past_session_get_project (first), ==, project);
  g_assert_cmpstr (paddock_past_session_get_command (first), ==, "claude --resume");
  g_assert_cmpuint (paddock_past_session_get_n_execs (first), ==, 3);
  g_assert_cmpuint (paddock_past_session_get_n_asked (first), ==, 1);
  g_assert_cmpuint (paddock_past_session_get_n_denied (first), ==, 2);
  g_assert_null (paddock_past_session_get_timeline (first));
  /* Listed, not opened: it verifies, and says it has no end. */
  g_assert_true (paddock_past_session_get_verified (first));
  g_assert_false (paddock_past_session_get_ended (first));
  g_assert_nonnull (strstr (paddock_past_session_get_problem (first), "has no end"));
  g_assert_true (paddock_past_session_get_verified (second));
  g_assert_true (paddock_past_session_get_ended (second));
  g_assert_null (paddock_past_session_get_problem (second));
  g_assert_cmpint (paddock_past_session_get_end_time (second), >=, paddock_past_session_get_start_time (second));
  g_clear_object (&sessions);

  sessions = list (other, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 1);
  g_clear_object (&sessions);

  /* No logs at all: none, not an error. */
  remove_logs ();
  sessions = list (project, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 0);

  test_remove_tree (project);
  test_remove_tree (other);
}

static void
test_open (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *path = write_session ("eeee0005", project, TRUE);
  g_autoptr(PaddockPastSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  PaddockTimeline *timeline;

  session = open_log (path, &error);
  g_assert_no_error (error);
  timeline = paddock_past_session_get_timeline (session);
  g_assert_nonnull (timeline);
  g_assert_true (paddock_timeline_get_read_only (timeline));
  g_assert_cmpstr (paddock_timeline_get_project (timeline), ==, project);
  rows = describe_rows (timeline);
  g_assert_cmpstr (rows, ==,
                   "git push --force origin main 5;"   /* asked, denied */
                   "ls -l 1;"                          /* allowed */
                   "rm -rf / 2;"                       /* denied */
                   "- 0;");                            /* the session's end */
  g_assert_true (paddock_past_session_get_verified (session));
  g_assert_true (paddock_past_session_get_ended (session));
  g_assert_null (paddock_past_session_get_problem (session));
  g_assert_cmpuint (paddock_past_session_get_n_execs (session), ==, 3);

  remove_logs ();
  test_remove_tree (project);
}

/* Reads of the home folder count with the commands: an ask's answer
 * (with its id) as asked, a refusal as denied. */
static void
test_home_counts (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *path = write_session ("dddd0004", project, FALSE);
  g_autoptr(PaddockPastSession) session = NULL;
  g_autoptr(PaddockAudit) audit = NULL;
  g_autoptr(GError) error = NULL;

  audit = paddock_audit_open (path, &error);
  g_assert_no_error (error);
  append_record (audit, PADDOCK_AUDIT_HOME,
                 "{\"path\":\"/home/me/.m2\",\"name\":\"settings.xml\",\"decision\":\"deny\",\"by\":\"user\","
                 "\"pid\":104,\"id\":4}");
  append_record (audit, PADDOCK_AUDIT_HOME,
                 "{\"path\":\"/home/me/Documents\",\"decision\":\"allow\",\"by\":\"user\",\"pid\":105,\"id\":5}");
  append_record (audit, PADDOCK_AUDIT_HOME,
                 "{\"path\":\"/home/me/.m2\",\"name\":\"x\",\"decision\":\"deny\",\"by\":\"denied\",\"pid\":106}");
  g_clear_pointer (&audit, paddock_audit_close);

  session = open_log (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (paddock_past_session_get_n_execs (session), ==, 3);
  /* The push, and the two reads asked about. */
  g_assert_cmpuint (paddock_past_session_get_n_asked (session), ==, 3);
  /* The push and rm -rf /, the read denied by the user and the one refused after. */
  g_assert_cmpuint (paddock_past_session_get_n_denied (session), ==, 4);

  remove_logs ();
  test_remove_tree (project);
}

/* One byte changed in a record: the log fails verification at that line,
 * says so naming the file, and shows what it holds. */
static void
test_edited (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *path = write_session ("ffff0006", project, TRUE);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *contents = NULL;
  g_autoptr(PaddockPastSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  char *rm;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  rm = strstr (contents, "\"rm\",\"-rf\",\"/\"");
  g_assert_nonnull (rm);
  memcpy (rm, "\"rm\",\"-rf\",\".\"", strlen ("\"rm\",\"-rf\",\".\""));
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));

  session = open_log (path, &error);
  g_assert_no_error (error);
  g_assert_false (paddock_past_session_get_verified (session));
  g_test_message ("%s", paddock_past_session_get_problem (session));
  g_assert_nonnull (strstr (paddock_past_session_get_problem (session), "does not verify: line 6:"));
  g_assert_nonnull (strstr (paddock_past_session_get_problem (session), name));
  rows = describe_rows (paddock_past_session_get_timeline (session));
  g_assert_cmpstr (rows, ==, "git push --force origin main 5;ls -l 1;rm -rf . 2;- 0;");

  remove_logs ();
  test_remove_tree (project);
}

/* Cut in the middle of its last record: what came before shows, and the
 * problem says the log was truncated. */
static void
test_truncated (void)
{
  g_autofree char *project = make_project ();
  g_autofree char *path = write_session ("abab0007", project, TRUE);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *contents = NULL;
  g_autoptr(PaddockPastSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length - 40, NULL));

  session = open_log (path, &error);
  g_assert_no_error (error);
  g_test_message ("%s", paddock_past_session_get_problem (session));
  g_assert_false (paddock_past_session_get_verified (session));
  g_assert_false (paddock_past_session_get_ended (session));
  g_assert_nonnull (strstr (paddock_past_session_get_problem (session), name));
  g_assert_nonnull (strstr (paddock_past_session_get_problem (session), "truncated"));
  rows = describe_rows (paddock_past_session_get_timeline (session));
  g_assert_cmpstr (rows, ==, "git push --force origin main 5;ls -l 1;rm -rf / 2;");

  remove_logs ();
  test_remove_tree (project);
}

/* Not a log, or not there: an error naming the file. */
static void
test_not_a_log (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-history-XXXXXX", &error);
  g_autofree char *garbage = g_build_filename (dir, "garbage.jsonl", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.jsonl", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.jsonl", NULL);
  g_autoptr(PaddockPastSession) session = NULL;
  const char *bad[] = { garbage, empty, missing };

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (garbage, "\x7f" "ELF\x01\x02 not json\n{\"also\": \"not a record\"}\n", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      session = open_log (bad[i], &error);
      g_assert_null (session);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, bad[i]));
      if (i < 2)
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_clear_error (&error);
    }

  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/history/list", test_list);
  g_test_add_func ("/paddock/history/open", test_open);
  g_test_add_func ("/paddock/history/home-counts", test_home_counts);
  g_test_add_func ("/paddock/history/edited", test_edited);
  g_test_add_func ("/paddock/history/truncated", test_truncated);
  g_test_add_func ("/paddock/history/not-a-log", test_not_a_log);

  status = g_test_run ();
  test_home_remove (g_steal_pointer (&home));
  return status;
}
