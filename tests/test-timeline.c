/* test-timeline.c: a session's timeline, from messages, from a live session and from its audit log
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-timeline.h"
#include "test-util.h"

#include <glib/gstdio.h>

#include <string.h>
#include <sys/socket.h>

/* items-changed, as (position, removed, added) triples. */
typedef struct
{
  GArray *changes;  /* guint */
} Changes;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Changes    *changes)
{
  g_array_append_vals (changes->changes, (guint[]) { position, removed, added }, 3);
}

static void
changes_watch (Changes         *changes,
               PaddockTimeline *timeline)
{
  changes->changes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_signal_connect (timeline, "items-changed", G_CALLBACK (on_items_changed), changes);
}

static void
changes_clear (Changes *changes)
{
  g_clear_pointer (&changes->changes, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Changes, changes_clear)

static void
assert_changes (Changes     *changes,
                const guint *expected,
                guint        n_expected)
{
  g_assert_cmpuint (changes->changes->len, ==, n_expected * 3);
  for (guint i = 0; i < n_expected * 3; i++)
    g_assert_cmpuint (g_array_index (changes->changes, guint, i), ==, expected[i]);
  g_array_set_size (changes->changes, 0);
}

#define ASSERT_CHANGES(changes, ...) \
  G_STMT_START { \
    const guint expected_[] = { __VA_ARGS__ }; \
    assert_changes ((changes), expected_, G_N_ELEMENTS (expected_) / 3); \
  } G_STMT_END
#define ASSERT_NO_CHANGES(seen) g_assert_cmpuint ((seen)->changes->len, ==, 0)

static PaddockMessage *
exec_new (gint64           seq,
          int              pid,
          int              ppid,
          const char      *exe,
          PaddockDecision  decision,
          const char      *by,
          const char      *args)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_EXEC);

  message->seq = seq;
  message->time = 1700000000000000 + seq;
  message->pid = pid;
  message->ppid = ppid;
  message->cwd = g_strdup ("/home/me/proj");
  message->exe = g_strdup (exe);
  message->path = g_strdup (exe);
  message->argv = g_strsplit (args, " ", -1);
  message->argc = g_strv_length (message->argv);
  message->decision = decision;
  message->by = g_strdup (by);
  message->rule = g_strdup (decision == PADDOCK_DECISION_ALLOW ? NULL : "some-rule");
  return message;
}

static PaddockMessage *
allowed_new (gint64      seq,
             int         pid,
             int         ppid,
             const char *exe,
             const char *args)
{
  return exec_new (seq, pid, ppid, exe, PADDOCK_DECISION_ALLOW, "default", args);
}

static PaddockTimelineEvent *
row_at (PaddockTimeline *timeline,
        guint            position)
{
  g_autoptr(PaddockTimelineEvent) row = g_list_model_get_item (G_LIST_MODEL (timeline), position);

  g_assert_nonnull (row);
  /* The timeline keeps its own reference. */
  return row;
}

static void
add_take (PaddockTimeline *timeline,
          PaddockMessage  *message)
{
  paddock_timeline_add_message (timeline, message);
  paddock_message_free (message);
}

/* Execs become rows in the order they came, each announced as appended. */
static void
test_rows_in_order (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  PaddockTimelineEvent *row;
  g_autofree char *line = NULL;
  g_autofree char *program = NULL;
  g_autofree char *argv_text = NULL;
  g_auto(GStrv) argv = NULL;
  GType item_type;

  changes_watch (&changes, timeline);
  item_type = g_list_model_get_item_type (G_LIST_MODEL (timeline));
  g_assert_true (item_type == PADDOCK_TYPE_TIMELINE_EVENT);
  g_assert_false (paddock_timeline_get_read_only (timeline));

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  add_take (timeline, allowed_new (2, 101, 100, "/usr/bin/ls", "ls -la"));
  add_take (timeline, exec_new (3, 102, 100, "/usr/bin/rm", PADDOCK_DECISION_DENY, "rule", "rm -rf /"));
  /* A program that calls itself another: shown by the real one's name. */
  add_take (timeline, allowed_new (4, 103, 100, "/usr/bin/rm", "ls x"));

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 4);
  ASSERT_CHANGES (&changes, 0, 0, 1, 1, 0, 1, 2, 0, 1, 3, 0, 1);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (timeline), 4));
  for (guint i = 0; i < 4; i++)
    {
      row = row_at (timeline, i);
      g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, i + 1);
      g_assert_true (paddock_timeline_lookup (timeline, i + 1) == row);
      g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_EXEC);
    }

  row = row_at (timeline, 1);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "default");
  g_assert_cmpint (paddock_timeline_event_get_pid (row), ==, 101);
  g_assert_cmpint (paddock_timeline_event_get_ppid (row), ==, 100);
  g_assert_cmpstr (paddock_timeline_event_get_cwd (row), ==, "/home/me/proj");
  g_assert_cmpint (paddock_timeline_event_get_argc (row), ==, 2);
  g_assert_cmpint (paddock_timeline_event_get_time (row), ==, 1700000000000002);
  g_assert_false (paddock_timeline_event_get_ended (row));
  g_assert_cmpint (paddock_timeline_event_get_duration (row), ==, -1);
  g_assert_false (paddock_timeline_event_get_folded (row));
  line = paddock_timeline_event_dup_display_line (row);
  g_assert_cmpstr (line, ==, "ls -la");
  g_object_get (row, "argv", &argv, "program", &program, NULL);
  argv_text = g_strjoinv (" ", argv);
  g_assert_cmpstr (argv_text, ==, "ls -la");
  g_assert_cmpstr (program, ==, "ls");

  row = row_at (timeline, 2);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_rule (row), ==, "some-rule");

  row = row_at (timeline, 3);
  g_clear_pointer (&program, g_free);
  g_clear_pointer (&line, g_free);
  program = paddock_timeline_event_dup_program (row);
  g_assert_cmpstr (program, ==, "rm");
  line = paddock_timeline_event_dup_display_line (row);
  g_assert_true (g_str_has_prefix (line, "rm"));
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           GPtrArray  *names)
{
  g_ptr_array_add (names, g_strdup (pspec->name));
}

/* An ask's row is its exec's: the ask and its decision update it in
 * place, and announce that row alone. */
static void
test_ask_decided (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  g_autoptr(PaddockMessage) ask = NULL;
  g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
  g_autoptr(GPtrArray) notified = g_ptr_array_new_with_free_func (g_free);
  PaddockTimelineEvent *row;
  PaddockTimelineDecision decision;

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  ask = exec_new (2, 101, 100, "/usr/bin/git", PADDOCK_DECISION_ASK, "rule", "git push --force");
  ask->reason = g_strdup ("rewrites the remote's history");
  paddock_timeline_add_message (timeline, ask);
  add_take (timeline, allowed_new (3, 102, 100, "/usr/bin/true", "true"));
  changes_watch (&changes, timeline);

  row = paddock_timeline_lookup (timeline, 2);
  g_assert_nonnull (row);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKING);
  g_assert_cmpstr (paddock_timeline_event_get_reason (row), ==, "rewrites the remote's history");
  g_assert_null (paddock_timeline_event_get_by (row));
  g_signal_connect (row, "notify", G_CALLBACK (on_notify), notified);

  /* The ask the exec announced: the same row, now with its deadline. */
  ask->type = PADDOCK_MESSAGE_ASK;
  ask->id = 2;
  ask->seq = -1;
  ask->decision = PADDOCK_DECISION_NONE;
  ask->deadline = 1700000060000000;
  paddock_timeline_add_message (timeline, ask);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 3);
  g_assert_cmpint (paddock_timeline_event_get_deadline (row), ==, 1700000060000000);
  ASSERT_CHANGES (&changes, 1, 1, 1);
  /* The same ask again (a replay) changes nothing. */
  paddock_timeline_add_message (timeline, ask);
  ASSERT_NO_CHANGES (&changes);

  decided->id = 2;
  decided->decision = PADDOCK_DECISION_ALLOW;
  decided->by = g_strdup ("user");
  g_ptr_array_set_size (notified, 0);
  paddock_timeline_add_message (timeline, decided);
  ASSERT_CHANGES (&changes, 1, 1, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 3);
  g_assert_true (row_at (timeline, 1) == row);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "user");
  g_object_get (row, "decision", &decision, NULL);
  g_assert_cmpint (decision, ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  g_assert_true (g_ptr_array_find_with_equal_func (notified, "decision", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (notified, "by", g_str_equal, NULL));

  /* Decided is decided: a second decision of it changes nothing. */
  decided->decision = PADDOCK_DECISION_DENY;
  paddock_timeline_add_message (timeline, decided);
  ASSERT_NO_CHANGES (&changes);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);

  /* An ask that comes with no exec before it makes its row; the deadline
   * denies it. */
  ask->id = 4;
  paddock_timeline_add_message (timeline, ask);
  ASSERT_CHANGES (&changes, 3, 0, 1);
  row = row_at (timeline, 3);
  g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, 4);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKING);
  decided->id = 4;
  g_free (decided->by);
  decided->by = g_strdup ("timeout");
  paddock_timeline_add_message (timeline, decided);
  ASSERT_CHANGES (&changes, 3, 1, 1);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "timeout");

  /* Asked with nobody attached: decided at once, and asked all the same. */
  add_take (timeline, exec_new (5, 105, 100, "/usr/bin/sudo", PADDOCK_DECISION_DENY, "no-client", "sudo ls"));
  row = row_at (timeline, 4);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "no-client");
}

static PaddockMessage *
home_new (const char      *entry,
          const char      *name,
          gint64           id,
          PaddockDecision  decision,
          const char      *by)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_HOME);

  message->time = 1700000000000000 + id;
  message->path = g_build_filename (g_get_home_dir (), entry, NULL);
  message->name = g_strdup (name);
  message->id = id;
  message->pid = 120;
  message->exe = g_strdup ("/usr/bin/mvn");
  message->decision = decision;
  message->by = g_strdup (by);
  return message;
}

static PaddockMessage *
net_new (const char      *host,
         int              port,
         gint64           id,
         PaddockDecision  decision,
         const char      *by)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_NET);

  message->time = 1700000000000000 + port;
  message->host = g_strdup (host);
  message->port = port;
  message->id = id;
  message->pid = 130;
  message->exe = g_strdup ("/usr/bin/curl");
  message->decision = decision;
  message->by = g_strdup (by);
  return message;
}

static PaddockMessage *
net_end_new (const char *host,
             int         port,
             gint64      id,
             gint64      bytes_in,
             gint64      bytes_out)
{
  PaddockMessage *message = net_new (host, port, id, PADDOCK_DECISION_ALLOW, NULL);

  message->kind = g_strdup ("end");
  message->address = g_strdup ("127.0.0.1");
  message->bytes_in = bytes_in;
  message->bytes_out = bytes_out;
  message->duration = 250000;
  return message;
}

/* Connections under the network lock are rows of their own: one allowed
 * by the host lists has its end merged into it by host, port and pid;
 * one asked about is one row for its ask, its decided, its net message
 * and its end (by the ask's id); one refused is a row that never ends.
 * They are found by host and program, and never count as programs. */
static void
test_net_rows (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  g_autoptr(PaddockMessage) ask = net_new ("api.example.com", 443, 7, PADDOCK_DECISION_NONE, NULL);
  g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
  g_autofree char *line = NULL;
  g_autofree char *program = NULL;
  PaddockTimelineEvent *row;
  PaddockTimelineEventKind kind;
  gint64 bytes_in = 0;

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  changes_watch (&changes, timeline);

  /* Allowed by the lists, nobody asked: a row, not ended. */
  add_take (timeline, net_new ("registry.example.org", 443, -1, PADDOCK_DECISION_ALLOW, "rule"));
  ASSERT_CHANGES (&changes, 1, 0, 1);
  row = row_at (timeline, 1);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_NET);
  g_object_get (row, "kind", &kind, NULL);
  g_assert_cmpint (kind, ==, PADDOCK_TIMELINE_EVENT_NET);
  g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, -1);
  g_assert_cmpstr (paddock_timeline_event_get_host (row), ==, "registry.example.org");
  g_assert_cmpint (paddock_timeline_event_get_port (row), ==, 443);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ALLOWED);
  g_assert_false (paddock_timeline_event_get_ended (row));
  g_assert_cmpint (paddock_timeline_event_get_bytes_in (row), ==, -1);
  line = paddock_timeline_event_dup_display_line (row);
  g_assert_cmpstr (line, ==, "registry.example.org:443");
  program = paddock_timeline_event_dup_program (row);
  g_assert_cmpstr (program, ==, "curl");

  /* An end for another port is not its end: a row of its own. */
  add_take (timeline, net_end_new ("registry.example.org", 80, -1, 10, 20));
  ASSERT_CHANGES (&changes, 2, 0, 1);
  g_assert_true (paddock_timeline_event_get_ended (row_at (timeline, 2)));
  g_assert_false (paddock_timeline_event_get_ended (row));

  /* Its end merges into it: the address, the bytes each way, the time. */
  add_take (timeline, net_end_new ("registry.example.org", 443, -1, 2048, 512));
  ASSERT_CHANGES (&changes, 1, 1, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 3);
  g_assert_true (paddock_timeline_event_get_ended (row));
  g_assert_cmpstr (paddock_timeline_event_get_address (row), ==, "127.0.0.1");
  g_object_get (row, "bytes-in", &bytes_in, NULL);
  g_assert_cmpint (bytes_in, ==, 2048);
  g_assert_cmpint (paddock_timeline_event_get_bytes_out (row), ==, 512);
  g_assert_cmpint (paddock_timeline_event_get_duration (row), ==, 250000);
  /* A second end for it finds no open connection: a row of its own. */
  add_take (timeline, net_end_new ("registry.example.org", 443, -1, 1, 1));
  ASSERT_CHANGES (&changes, 3, 0, 1);
  g_assert_cmpint (paddock_timeline_event_get_bytes_in (row), ==, 2048);

  /* Asked: its ask makes the row, waiting, with the command line. */
  ask->type = PADDOCK_MESSAGE_ASK;
  ask->kind = g_strdup ("host");
  ask->argv = g_strsplit ("curl -s https://api.example.com/", " ", -1);
  ask->cwd = g_strdup ("/home/me/proj");
  ask->deadline = 1700000060000000;
  paddock_timeline_add_message (timeline, ask);
  ASSERT_CHANGES (&changes, 4, 0, 1);
  row = row_at (timeline, 4);
  g_assert_true (paddock_timeline_lookup (timeline, 7) == row);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_NET);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKING);
  g_assert_cmpint (paddock_timeline_event_get_deadline (row), ==, 1700000060000000);
  g_assert_cmpstr (paddock_timeline_event_get_argv (row)[0], ==, "curl");
  /* Its net message, saying it is asked, is the same row. */
  add_take (timeline, net_new ("api.example.com", 443, 7, PADDOCK_DECISION_ASK, NULL));
  ASSERT_NO_CHANGES (&changes);
  decided->id = 7;
  decided->kind = g_strdup ("host");
  decided->decision = PADDOCK_DECISION_ALLOW;
  decided->by = g_strdup ("user");
  paddock_timeline_add_message (timeline, decided);
  ASSERT_CHANGES (&changes, 4, 1, 1);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "user");
  /* The net message telling of the answer changes nothing; its end, by the id, does. */
  add_take (timeline, net_new ("api.example.com", 443, 7, PADDOCK_DECISION_ALLOW, "user"));
  ASSERT_NO_CHANGES (&changes);
  add_take (timeline, net_end_new ("api.example.com", 443, 7, 100, 200));
  ASSERT_CHANGES (&changes, 4, 1, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 5);
  g_assert_true (paddock_timeline_event_get_ended (row));
  g_assert_cmpint (paddock_timeline_event_get_bytes_out (row), ==, 200);

  /* Refused by the lists: a row, denied, with its reason. A net message
   * with no host makes none. */
  {
    PaddockMessage *denied = net_new ("upload.example.net", 443, -1, PADDOCK_DECISION_DENY, "rule");
    PaddockMessage *hostless = net_new ("x", 1, -1, PADDOCK_DECISION_DENY, "rule");

    denied->reason = g_strdup ("in the project's denied hosts");
    g_clear_pointer (&hostless->host, g_free);
    add_take (timeline, denied);
    add_take (timeline, hostless);
  }
  ASSERT_CHANGES (&changes, 5, 0, 1);
  row = row_at (timeline, 5);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_reason (row), ==, "in the project's denied hosts");

  /* Searched as the view searches, casefolded: by host and by program. */
  g_assert_true (paddock_timeline_event_matches (row_at (timeline, 4), "api.example"));
  g_assert_true (paddock_timeline_event_matches (row_at (timeline, 4), "api.example.com:443"));
  g_assert_true (paddock_timeline_event_matches (row_at (timeline, 4), "curl"));
  g_assert_false (paddock_timeline_event_matches (row_at (timeline, 4), "upload"));
  g_assert_true (paddock_timeline_event_matches (row, "upload.example.net"));
  g_assert_false (paddock_timeline_event_matches (row_at (timeline, 0), "example"));
}

/* Reads in the home folder that the lock refused or asked about are rows
 * of their own, which their ask, its decided and their home message
 * share; they are found by the path read and the program that read, the
 * home folder shown as ~, and never count as programs that run. */
static void
test_home_rows (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  g_autoptr(PaddockMessage) ask = home_new (".m2", "settings.xml", 2, PADDOCK_DECISION_NONE, NULL);
  g_autoptr(PaddockMessage) asked = home_new (".m2", "settings.xml", 2, PADDOCK_DECISION_ASK, NULL);
  g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
  g_autoptr(PaddockMessage) told = home_new (".m2", "settings.xml", 2, PADDOCK_DECISION_ALLOW, "user");
  g_autofree char *line = NULL;
  g_autofree char *program = NULL;
  PaddockTimelineEvent *row;
  PaddockTimelineEventKind kind;

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  changes_watch (&changes, timeline);

  /* The ask comes first: a row, waiting, with the command line that read. */
  ask->type = PADDOCK_MESSAGE_ASK;
  ask->kind = g_strdup ("home");
  ask->argv = g_strsplit ("mvn -q package", " ", -1);
  ask->cwd = g_strdup ("/home/me/proj");
  ask->deadline = 1700000060000000;
  paddock_timeline_add_message (timeline, ask);
  ASSERT_CHANGES (&changes, 1, 0, 1);
  row = row_at (timeline, 1);
  g_assert_true (paddock_timeline_lookup (timeline, 2) == row);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_HOME);
  g_object_get (row, "kind", &kind, NULL);
  g_assert_cmpint (kind, ==, PADDOCK_TIMELINE_EVENT_HOME);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKING);
  g_assert_cmpint (paddock_timeline_event_get_deadline (row), ==, 1700000060000000);
  g_assert_cmpstr (paddock_timeline_event_get_path (row), ==, ask->path);
  g_assert_cmpstr (paddock_timeline_event_get_name (row), ==, "settings.xml");
  g_assert_cmpstr (paddock_timeline_event_get_argv (row)[0], ==, "mvn");
  g_assert_cmpint (paddock_timeline_event_get_pid (row), ==, 120);
  line = paddock_timeline_event_dup_display_line (row);
  g_assert_cmpstr (line, ==, "~/.m2/settings.xml");
  program = paddock_timeline_event_dup_program (row);
  g_assert_cmpstr (program, ==, "mvn");

  /* Its home message, saying it was asked, is the same row. */
  paddock_timeline_add_message (timeline, asked);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 2);
  ASSERT_NO_CHANGES (&changes);

  /* Allowed: the row, and nothing counts it as a program running. */
  decided->id = 2;
  decided->kind = g_strdup ("home");
  decided->decision = PADDOCK_DECISION_ALLOW;
  decided->by = g_strdup ("user");
  decided->remember = PADDOCK_REMEMBER_SESSION;
  paddock_timeline_add_message (timeline, decided);
  ASSERT_CHANGES (&changes, 1, 1, 1);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "user");
  g_assert_false (paddock_timeline_event_get_ended (row));
  /* The home message that tells of the answer changes nothing more. */
  paddock_timeline_add_message (timeline, told);
  ASSERT_NO_CHANGES (&changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 2);

  /* Refused with nobody to ask, and a closed entry refused: rows of
   * their own, asked and not. A home message with no path makes none. */
  add_take (timeline, home_new (".pgpass", NULL, -1, PADDOCK_DECISION_DENY, "no-client"));
  add_take (timeline, home_new (".aws", "credentials", -1, PADDOCK_DECISION_DENY, "rule"));
  {
    PaddockMessage *pathless = home_new (".x", NULL, -1, PADDOCK_DECISION_DENY, "rule");

    g_clear_pointer (&pathless->path, g_free);
    add_take (timeline, pathless);
  }
  ASSERT_CHANGES (&changes, 2, 0, 1, 3, 0, 1);
  row = row_at (timeline, 2);
  g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, -1);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  g_assert_null (paddock_timeline_event_get_name (row));
  g_clear_pointer (&line, g_free);
  line = paddock_timeline_event_dup_display_line (row);
  g_assert_cmpstr (line, ==, "~/.pgpass");
  row = row_at (timeline, 3);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "rule");

  /* Searched as the view searches, casefolded: by what was read and by
   * the program that read; a command line is no home row's. */
  row = row_at (timeline, 1);
  g_assert_true (paddock_timeline_event_matches (row, "settings.xml"));
  g_assert_true (paddock_timeline_event_matches (row, "~/.m2"));
  g_assert_true (paddock_timeline_event_matches (row, "mvn"));
  g_assert_false (paddock_timeline_event_matches (row, "package"));
  g_assert_false (paddock_timeline_event_matches (row, ".aws"));
  g_assert_true (paddock_timeline_event_matches (row_at (timeline, 3), ".aws/credentials"));
  /* Exec rows as before, session rows never. */
  g_assert_true (paddock_timeline_event_matches (row_at (timeline, 0), "bash"));
  g_assert_false (paddock_timeline_event_matches (row_at (timeline, 0), "mvn"));
  add_take (timeline, paddock_message_new (PADDOCK_MESSAGE_PAUSE));
  g_assert_false (paddock_timeline_event_matches (row_at (timeline, 4), ""));
}

/* An exit fills its exec's row: status, duration, replaced. */
static void
test_exit (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  g_autoptr(PaddockMessage) exit = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  PaddockTimelineEvent *row;
  gint64 duration;

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  add_take (timeline, allowed_new (2, 101, 100, "/usr/bin/make", "make"));
  add_take (timeline, allowed_new (3, 102, 100, "/usr/bin/env", "env python3"));
  changes_watch (&changes, timeline);

  exit->seq = 2;
  exit->pid = 101;
  exit->exit_code = 2;
  exit->signal = -1;
  exit->duration = 1500000;
  paddock_timeline_add_message (timeline, exit);
  ASSERT_CHANGES (&changes, 1, 1, 1);
  row = row_at (timeline, 1);
  g_assert_true (paddock_timeline_event_get_ended (row));
  g_assert_cmpint (paddock_timeline_event_get_exit_code (row), ==, 2);
  g_assert_cmpint (paddock_timeline_event_get_signal (row), ==, -1);
  g_object_get (row, "duration", &duration, NULL);
  g_assert_cmpint (duration, ==, 1500000);
  g_assert_false (paddock_timeline_event_get_replaced (row));
  /* An exit comes once. */
  paddock_timeline_add_message (timeline, exit);
  ASSERT_NO_CHANGES (&changes);

  exit->seq = 3;
  exit->exit_code = -1;
  exit->duration = 800;
  exit->replaced = TRUE;
  paddock_timeline_add_message (timeline, exit);
  ASSERT_CHANGES (&changes, 2, 1, 1);
  row = row_at (timeline, 2);
  g_assert_true (paddock_timeline_event_get_replaced (row));
  g_assert_cmpint (paddock_timeline_event_get_duration (row), ==, 800);

  exit->seq = 1;
  exit->replaced = FALSE;
  exit->exit_code = -1;
  exit->signal = 9;
  paddock_timeline_add_message (timeline, exit);
  row = row_at (timeline, 0);
  g_assert_cmpint (paddock_timeline_event_get_signal (row), ==, 9);
  g_assert_cmpint (paddock_timeline_event_get_exit_code (row), ==, -1);
  ASSERT_CHANGES (&changes, 0, 1, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 3);
}

static gboolean
folded (PaddockTimeline *timeline,
        gint64           seq)
{
  PaddockTimelineEvent *row = paddock_timeline_lookup (timeline, seq);

  g_assert_nonnull (row);
  return paddock_timeline_event_get_folded (row);
}

/* The prompt's helpers fold; the agent's commands, and anything asked
 * about or denied, never do. */
static void
test_folded (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  gboolean value;
  struct
  {
    int             ppid;
    const char     *exe;
    const char     *args;
    PaddockDecision decision;
    const char     *by;
    gboolean        folded;
  } cases[] = {
    /* Under the interactive shell (pid 100). */
    { 100, "/usr/libexec/vte-urlencode-cwd", "/usr/libexec/vte-urlencode-cwd", PADDOCK_DECISION_ALLOW, "default", TRUE },
    { 100, "/usr/bin/git", "git rev-parse --git-dir --is-inside-git-dir --is-bare-repository --is-inside-work-tree --short HEAD",
      PADDOCK_DECISION_ALLOW, "rule", TRUE },
    { 100, "/usr/bin/git", "git symbolic-ref HEAD", PADDOCK_DECISION_ALLOW, "default", TRUE },
    { 100, "/usr/bin/git", "git diff --no-ext-diff --quiet", PADDOCK_DECISION_ALLOW, "default", TRUE },
    { 100, "/usr/bin/git", "git config --bool bash.showDirtyState", PADDOCK_DECISION_ALLOW, "default", TRUE },
    { 100, "/usr/bin/git", "git -C /home/me/proj --no-optional-locks status --porcelain", PADDOCK_DECISION_ALLOW, "default", TRUE },
    { 100, "/usr/bin/git", "git describe --tags --exact-match HEAD", PADDOCK_DECISION_ALLOW, "default", TRUE },
    /* What writes, or can run programs, or is not a query. */
    { 100, "/usr/bin/git", "git push --force", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/git", "git symbolic-ref HEAD refs/heads/evil", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/git", "git config user.email x@y", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/git", "git config --unset user.email", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/git", "git -c core.fsmonitor=evil status --porcelain", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/git", "git diff", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/usr/bin/ls", "ls", PADDOCK_DECISION_ALLOW, "default", FALSE },
    /* Asked about, denied, or decided otherwise than by the policy. */
    { 100, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ASK, "rule", FALSE },
    { 100, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_DENY, "rule", FALSE },
    { 100, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "no-client", FALSE },
    { 100, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "remembered", FALSE },
    /* A program the agent could have written, under a helper's name. */
    { 100, "/home/me/proj/vte-urlencode-cwd", "vte-urlencode-cwd", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 100, "/home/me/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "default", FALSE },
    /* Under a shell that runs a command or a script (pids 200, 201), or
     * under a process that is no shell, or none this timeline saw. */
    { 200, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 201, "/usr/libexec/vte-urlencode-cwd", "vte-urlencode-cwd", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 202, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "default", FALSE },
    { 999, "/usr/bin/git", "git rev-parse HEAD", PADDOCK_DECISION_ALLOW, "default", FALSE },
  };
  gint64 seq = 1;
  g_autoptr(PaddockMessage) piped = NULL;

  add_take (timeline, allowed_new (seq++, 100, 1, "/usr/bin/bash", "-bash --noprofile -i"));
  add_take (timeline, allowed_new (seq++, 200, 100, "/usr/bin/bash", "bash -c git rev-parse HEAD; true"));
  add_take (timeline, allowed_new (seq++, 201, 100, "/usr/bin/zsh", "zsh ./install.sh"));
  add_take (timeline, allowed_new (seq++, 202, 100, "/usr/bin/python3", "python3"));
  /* A shell reading its script from a pipe is no prompt. */
  piped = allowed_new (seq++, 203, 100, "/usr/bin/bash", "bash");
  piped->pipeline = g_strdup ("curl https://example.com/x.sh | bash");
  paddock_timeline_add_message (timeline, piped);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s (ppid %d, %s by %s)", cases[i].args, cases[i].ppid,
                      paddock_decision_to_string (cases[i].decision), cases[i].by);
      add_take (timeline, exec_new (seq, 300 + i, cases[i].ppid, cases[i].exe, cases[i].decision, cases[i].by,
                                    cases[i].args));
      g_assert_cmpint (folded (timeline, seq), ==, cases[i].folded);
      seq++;
    }
  add_take (timeline, allowed_new (seq, 500, 203, "/usr/bin/git", "git rev-parse HEAD"));
  g_assert_false (folded (timeline, seq++));
  /* No shell folds itself. */
  g_assert_false (folded (timeline, 1));
  g_object_get (paddock_timeline_lookup (timeline, 3), "folded", &value, NULL);
  g_assert_false (value);

  /* Once the shell runs another program, or ends, it is no prompt. */
  add_take (timeline, allowed_new (seq, 400, 100, "/usr/bin/git", "git rev-parse HEAD"));
  g_assert_true (folded (timeline, seq++));
  add_take (timeline, allowed_new (seq++, 100, 1, "/usr/bin/vim", "vim"));
  add_take (timeline, allowed_new (seq, 401, 100, "/usr/bin/git", "git rev-parse HEAD"));
  g_assert_false (folded (timeline, seq++));
}

static void
add_exit (PaddockTimeline *timeline,
          gint64           seq)
{
  g_autoptr(PaddockMessage) exit = paddock_message_new (PADDOCK_MESSAGE_EXIT);

  exit->seq = seq;
  exit->exit_code = 0;
  exit->duration = 100;
  paddock_timeline_add_message (timeline, exit);
}

/* bash runs `$(git … 2>/dev/null)` from a fork (of a fork), which never
 * runs a program of its own: such a parent counts as the shell's while
 * the shell is at its prompt, and as the running command's otherwise. */
static void
test_folded_forks (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);

  /* No interactive shell yet: nothing is at a prompt. */
  add_take (timeline, allowed_new (1, 90, 1, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_false (folded (timeline, 1));
  add_exit (timeline, 1);

  add_take (timeline, allowed_new (2, 100, 1, "/usr/bin/bash", "bash --norc -i"));
  add_take (timeline, allowed_new (3, 152, 151, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_true (folded (timeline, 3));
  add_exit (timeline, 3);

  /* A command runs: a fork's helper is the command's. */
  add_take (timeline, allowed_new (4, 160, 100, "/usr/bin/make", "make"));
  add_take (timeline, allowed_new (5, 172, 171, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_false (folded (timeline, 5));
  add_exit (timeline, 5);
  add_exit (timeline, 4);
  add_take (timeline, allowed_new (6, 182, 181, "/usr/bin/git", "git symbolic-ref HEAD"));
  g_assert_true (folded (timeline, 6));
  add_exit (timeline, 6);

  /* Nor while an asked command that was allowed runs; a parent that ran a
   * program here is that program, never a fork of the shell. */
  add_take (timeline, exec_new (7, 190, 100, "/usr/bin/bash", PADDOCK_DECISION_ASK, "rule", "bash -c x"));
  add_take (timeline, allowed_new (8, 192, 191, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_true (folded (timeline, 8));
  decided->id = 7;
  decided->decision = PADDOCK_DECISION_ALLOW;
  decided->by = g_strdup ("user");
  paddock_timeline_add_message (timeline, decided);
  add_take (timeline, allowed_new (9, 194, 193, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_false (folded (timeline, 9));
  add_exit (timeline, 9);
  add_exit (timeline, 7);
  add_take (timeline, allowed_new (10, 196, 190, "/usr/bin/git", "git rev-parse --git-dir"));
  g_assert_false (folded (timeline, 10));
  add_exit (timeline, 10);
  add_take (timeline, allowed_new (11, 198, 197, "/usr/libexec/vte-urlencode-cwd", "vte-urlencode-cwd"));
  g_assert_true (folded (timeline, 11));
}

/* Pause, resume, kill and the session's end are rows of their own. */
static void
test_session_rows (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  PaddockMessageType types[] = { PADDOCK_MESSAGE_PAUSE, PADDOCK_MESSAGE_RESUME, PADDOCK_MESSAGE_KILL };
  PaddockTimelineEventKind kinds[] = { PADDOCK_TIMELINE_EVENT_PAUSE, PADDOCK_TIMELINE_EVENT_RESUME,
                                       PADDOCK_TIMELINE_EVENT_KILL };
  g_autoptr(PaddockMessage) end = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  PaddockTimelineEvent *row;
  g_autofree char *line = NULL;
  g_autofree char *program = NULL;

  changes_watch (&changes, timeline);
  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(PaddockMessage) message = paddock_message_new (types[i]);

      message->time = 1700000001000000 + i;
      message->by = g_strdup (i == 2 ? "signal" : "user");
      paddock_timeline_add_message (timeline, message);
    }
  end->session_end = TRUE;
  end->pid = 100;
  end->exit_code = -1;
  end->signal = 9;
  paddock_timeline_add_message (timeline, end);
  ASSERT_CHANGES (&changes, 0, 0, 1, 1, 0, 1, 2, 0, 1, 3, 0, 1, 4, 0, 1);
  /* Its end again (a replay) is no second row. */
  paddock_timeline_add_message (timeline, end);
  ASSERT_NO_CHANGES (&changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 5);

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      row = row_at (timeline, i + 1);
      g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, kinds[i]);
      g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, -1);
      g_assert_cmpint (paddock_timeline_event_get_time (row), ==, 1700000001000000 + i);
      g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_NONE);
      g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, i == 2 ? "signal" : "user");
    }
  row = row_at (timeline, 4);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_SESSION_END);
  g_assert_true (paddock_timeline_event_get_ended (row));
  g_assert_cmpint (paddock_timeline_event_get_signal (row), ==, 9);
  line = paddock_timeline_event_dup_display_line (row);
  program = paddock_timeline_event_dup_program (row);
  g_assert_cmpstr (line, ==, "");
  g_assert_cmpstr (program, ==, "");
  /* The session's end is not its agent's exec's. */
  g_assert_false (paddock_timeline_event_get_ended (row_at (timeline, 0)));
}

/* What makes no row, or refers to none, is ignored and announces nothing. */
static void
test_bad_messages (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  PaddockMessageType ignored[] = { PADDOCK_MESSAGE_HELLO, PADDOCK_MESSAGE_NET, PADDOCK_MESSAGE_SECRET,
                                   PADDOCK_MESSAGE_ERROR, PADDOCK_MESSAGE_DECIDE, PADDOCK_MESSAGE_LOCK_STATUS,
                                   PADDOCK_MESSAGE_NOTICE };
  const char *lines[] = {
    "{\"type\":\"exec\",\"seq\":-5,\"decision\":\"allow\"}",
    "{\"type\":\"decided\",\"id\":77,\"decision\":\"allow\",\"by\":\"user\"}",
    "{\"type\":\"exit\",\"seq\":78,\"exit_code\":0}",
    "{\"type\":\"ask\",\"id\":-1}",
  };
  g_autoptr(PaddockMessage) empty = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  g_autoptr(PaddockMessage) strange = paddock_message_new (PADDOCK_MESSAGE_HELLO);
  g_autoptr(PaddockMessage) decided = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
  g_autoptr(PaddockMessage) exit = paddock_message_new (PADDOCK_MESSAGE_EXIT);
  PaddockTimelineEvent *row;
  g_autofree char *line = NULL;
  g_autofree char *program = NULL;

  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  changes_watch (&changes, timeline);

  for (guint i = 0; i < G_N_ELEMENTS (ignored); i++)
    {
      g_autoptr(PaddockMessage) message = paddock_message_new (ignored[i]);

      message->id = 1;
      message->seq = 1;
      paddock_timeline_add_message (timeline, message);
    }
  /* A greeting that names no project names none. */
  g_assert_null (paddock_timeline_get_project (timeline));
  /* A type no version of the protocol has. */
  strange->type = 99;
  paddock_timeline_add_message (timeline, strange);
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockMessage) message = paddock_message_parse (lines[i], strlen (lines[i]), &error);

      if (message != NULL)
        paddock_timeline_add_message (timeline, message);
    }
  /* A decision that is not one, an exit that names no exec. */
  decided->id = 1;
  decided->decision = PADDOCK_DECISION_ASK;
  paddock_timeline_add_message (timeline, decided);
  exit->seq = -1;
  paddock_timeline_add_message (timeline, exit);
  /* The same exec again (a replay) makes no second row. */
  add_take (timeline, allowed_new (1, 100, 99, "/usr/bin/bash", "bash"));
  ASSERT_NO_CHANGES (&changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 1);

  /* An exec with nothing but its seq is a row all the same, that shows
   * what it has. */
  empty->seq = 2;
  paddock_timeline_add_message (timeline, empty);
  ASSERT_CHANGES (&changes, 1, 0, 1);
  row = row_at (timeline, 1);
  line = paddock_timeline_event_dup_display_line (row);
  program = paddock_timeline_event_dup_program (row);
  g_assert_nonnull (line);
  g_assert_cmpstr (program, ==, "");
  g_assert_nonnull (paddock_timeline_event_get_argv (row));
  g_assert_null (paddock_timeline_event_get_argv (row)[0]);

  /* Bytes that are not UTF-8 are shown escaped. */
  g_clear_pointer (&line, g_free);
  g_clear_pointer (&program, g_free);
  add_take (timeline, allowed_new (3, 103, 100, "/tmp/\xff\x1b[2Jx", "\xff\x1b[2Jx arg"));
  row = row_at (timeline, 2);
  line = paddock_timeline_event_dup_display_line (row);
  program = paddock_timeline_event_dup_program (row);
  g_assert_true (g_utf8_validate (line, -1, NULL));
  g_assert_null (strchr (line, '\x1b'));
  g_assert_true (g_utf8_validate (program, -1, NULL));
  g_assert_null (strchr (program, '\x1b'));
}

/* A batch announces its new rows once, then each run of earlier rows
 * that changed, and nothing for new rows that changed. */
static void
test_batch (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_auto(Changes) changes = { 0 };
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  PaddockMessage *message;

  for (gint64 seq = 1; seq <= 5; seq++)
    add_take (timeline, allowed_new (seq, 100 + seq, 99, "/usr/bin/true", "true"));
  changes_watch (&changes, timeline);

  for (gint64 seq = 6; seq <= 8; seq++)
    g_ptr_array_add (batch, allowed_new (seq, 100 + seq, 99, "/usr/bin/true", "true"));
  /* Exits of rows 4, 2, 3 (so 1..3 in one run, in any order) and of one new row. */
  for (guint i = 0; i < 4; i++)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
      message->seq = (gint64[]) { 4, 2, 3, 7 }[i];
      message->exit_code = 0;
      message->duration = 10;
      g_ptr_array_add (batch, message);
    }
  message = paddock_message_new (PADDOCK_MESSAGE_PAUSE);
  g_ptr_array_add (batch, message);
  paddock_timeline_add_messages (timeline, (const PaddockMessage * const *) batch->pdata, batch->len);
  ASSERT_CHANGES (&changes, 5, 0, 4, 1, 3, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 9);
  g_assert_true (paddock_timeline_event_get_ended (paddock_timeline_lookup (timeline, 7)));
  g_assert_true (paddock_timeline_event_get_ended (paddock_timeline_lookup (timeline, 3)));
  g_assert_false (paddock_timeline_event_get_ended (paddock_timeline_lookup (timeline, 1)));

  /* An empty batch says nothing. */
  paddock_timeline_add_messages (timeline, NULL, 0);
  ASSERT_NO_CHANGES (&changes);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static PaddockTimeline *
load_audit (const char  *path,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;

  paddock_timeline_load_audit_async (file, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return paddock_timeline_load_audit_finish (result, error);
}

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

/* A log written by the audit writer reads back as the session's rows. */
static void
test_audit_log (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-timeline-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "audit.jsonl", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.jsonl", NULL);
  g_autoptr(PaddockAudit) audit = NULL;
  g_autoptr(PaddockTimeline) timeline = NULL;
  PaddockTimelineEvent *row;
  gboolean read_only;

  g_assert_no_error (error);
  audit = paddock_audit_open (path, &error);
  g_assert_no_error (error);
  append_record (audit, PADDOCK_AUDIT_SESSION_START,
                 "{\"session\":\"abc\",\"project\":\"/p\",\"command\":[\"bash\"],\"agent_pid\":100}");
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":1,\"pid\":100,\"ppid\":99,\"cwd\":\"/p\",\"path\":\"/usr/bin/bash\",\"exe\":\"/usr/bin/bash\","
                 "\"argv\":[\"bash\"],\"argc\":1,\"decision\":\"allow\",\"by\":\"default\"}");
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":2,\"pid\":101,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/git\",\"exe\":\"/usr/bin/git\","
                 "\"argv\":[\"git\",\"push\",\"--force\"],\"argc\":3,\"decision\":\"ask\",\"by\":\"rule\",\"rule\":\"git-push-force\"}");
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":3,\"pid\":102,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/git\",\"exe\":\"/usr/bin/git\","
                 "\"argv\":[\"git\",\"rev-parse\",\"HEAD\"],\"argc\":3,\"decision\":\"allow\",\"by\":\"default\"}");
  append_record (audit, PADDOCK_AUDIT_EXIT, "{\"event\":3,\"pid\":102,\"duration_us\":2000,\"exit_code\":0}");
  append_record (audit, PADDOCK_AUDIT_DECISION,
                 "{\"event\":2,\"pid\":101,\"decision\":\"deny\",\"by\":\"user\",\"remember\":\"once\",\"client_pid\":5}");
  append_record (audit, PADDOCK_AUDIT_PAUSE, "{\"by\":\"user\",\"client_pid\":5}");
  append_record (audit, PADDOCK_AUDIT_RESUME, "{\"by\":\"user\",\"client_pid\":5}");
  /* Bytes that are not UTF-8, written as an array of byte values. */
  append_record (audit, PADDOCK_AUDIT_EXEC,
                 "{\"event\":4,\"pid\":103,\"ppid\":100,\"cwd\":\"/p\",\"path\":\"/usr/bin/touch\",\"exe\":\"/usr/bin/touch\","
                 "\"argv\":[\"touch\",[255,97]],\"argc\":2,\"decision\":\"allow\",\"by\":\"default\"}");
  append_record (audit, "policy", "{\"file\":\"/p/.paddock.json\",\"rules\":1}");
  /* A read in the home folder, refused, with the fields of its message. */
  append_record (audit, PADDOCK_AUDIT_HOME,
                 "{\"path\":\"/home/u/.m2\",\"name\":\"settings.xml\",\"decision\":\"deny\",\"by\":\"timeout\","
                 "\"pid\":104,\"exe\":\"/usr/bin/mvn\",\"id\":5,\"reason\":\"nobody answered\"}");
  append_record (audit, PADDOCK_AUDIT_KILL, "{\"by\":\"signal\",\"signal\":\"SIGTERM\"}");
  append_record (audit, PADDOCK_AUDIT_SESSION_END, "{\"signal\":9,\"execs\":4}");
  /* A connection, and its end: the fields of their net messages. */
  append_record (audit, PADDOCK_AUDIT_NET,
                 "{\"host\":\"api.example.com\",\"port\":443,\"decision\":\"allow\",\"by\":\"rule\","
                 "\"pid\":105,\"exe\":\"/usr/bin/curl\",\"rule\":\"api.example.com\"}");
  append_record (audit, PADDOCK_AUDIT_NET,
                 "{\"host\":\"api.example.com\",\"port\":443,\"decision\":\"allow\",\"pid\":105,"
                 "\"exe\":\"/usr/bin/curl\",\"kind\":\"end\",\"address\":\"127.0.0.1\",\"bytes_in\":4096,"
                 "\"bytes_out\":300,\"duration\":1500}");
  g_clear_pointer (&audit, paddock_audit_close);

  timeline = load_audit (path, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_timeline_get_read_only (timeline));
  g_object_get (timeline, "read-only", &read_only, NULL);
  g_assert_true (read_only);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, 10);
  /* The session-start record names the project. */
  g_assert_cmpstr (paddock_timeline_get_project (timeline), ==, "/p");

  row = row_at (timeline, 1);
  g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, 2);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "user");
  g_assert_cmpstr (paddock_timeline_event_get_rule (row), ==, "git-push-force");
  g_assert_cmpint (paddock_timeline_event_get_time (row), >, 0);
  row = row_at (timeline, 2);
  g_assert_true (paddock_timeline_event_get_folded (row));
  g_assert_cmpint (paddock_timeline_event_get_duration (row), ==, 2000);
  g_assert_cmpint (paddock_timeline_event_get_exit_code (row), ==, 0);
  g_assert_cmpint (paddock_timeline_event_get_kind (row_at (timeline, 3)), ==, PADDOCK_TIMELINE_EVENT_PAUSE);
  g_assert_cmpint (paddock_timeline_event_get_kind (row_at (timeline, 4)), ==, PADDOCK_TIMELINE_EVENT_RESUME);
  row = row_at (timeline, 5);
  g_assert_cmpstr (paddock_timeline_event_get_argv (row)[1], ==, "\xff" "a");
  row = row_at (timeline, 6);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_HOME);
  g_assert_cmpstr (paddock_timeline_event_get_path (row), ==, "/home/u/.m2");
  g_assert_cmpstr (paddock_timeline_event_get_name (row), ==, "settings.xml");
  g_assert_cmpstr (paddock_timeline_event_get_exe (row), ==, "/usr/bin/mvn");
  g_assert_cmpint (paddock_timeline_event_get_pid (row), ==, 104);
  g_assert_cmpint (paddock_timeline_event_get_seq (row), ==, 5);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "timeout");
  g_assert_cmpstr (paddock_timeline_event_get_reason (row), ==, "nobody answered");
  g_assert_cmpint (paddock_timeline_event_get_time (row), >, 0);
  row = row_at (timeline, 7);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_KILL);
  g_assert_cmpstr (paddock_timeline_event_get_by (row), ==, "signal");
  row = row_at (timeline, 8);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_SESSION_END);
  g_assert_cmpint (paddock_timeline_event_get_signal (row), ==, 9);
  /* The connection and its end are one row. */
  row = row_at (timeline, 9);
  g_assert_cmpint (paddock_timeline_event_get_kind (row), ==, PADDOCK_TIMELINE_EVENT_NET);
  g_assert_cmpstr (paddock_timeline_event_get_host (row), ==, "api.example.com");
  g_assert_cmpint (paddock_timeline_event_get_port (row), ==, 443);
  g_assert_cmpint (paddock_timeline_event_get_decision (row), ==, PADDOCK_TIMELINE_DECISION_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_rule (row), ==, "api.example.com");
  g_assert_cmpint (paddock_timeline_event_get_pid (row), ==, 105);
  g_assert_true (paddock_timeline_event_get_ended (row));
  g_assert_cmpstr (paddock_timeline_event_get_address (row), ==, "127.0.0.1");
  g_assert_cmpint (paddock_timeline_event_get_bytes_in (row), ==, 4096);
  g_assert_cmpint (paddock_timeline_event_get_bytes_out (row), ==, 300);
  g_assert_cmpint (paddock_timeline_event_get_duration (row), ==, 1500);

  /* Cancelled before it ran: cancelled, and no timeline. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) cancelled = NULL;
    g_autoptr(PaddockTimeline) none = NULL;

    g_cancellable_cancel (cancellable);
    paddock_timeline_load_audit_async (file, cancellable, result_cb, &result);
    while (result == NULL)
      g_main_context_iteration (NULL, TRUE);
    none = paddock_timeline_load_audit_finish (result, &cancelled);
    g_assert_null (none);
    g_assert_error (cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }

  /* A log that is not there is an error, in words. */
  g_clear_object (&timeline);
  timeline = load_audit (missing, &error);
  g_assert_null (timeline);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);

  test_remove_tree (dir);
}

/* A paddock-run session of the fake agent, its policy asking before
 * `touch asked-marker`, the window's way: --control-fd 3. */
typedef struct
{
  char        *dir;
  char        *out;
  char        *audit;
  GSubprocess *run;
} Session;

static void
session_free (Session *session)
{
  if (session->run != NULL && g_subprocess_get_identifier (session->run) != NULL)
    {
      g_subprocess_force_exit (session->run);
      g_subprocess_wait (session->run, NULL, NULL);
    }
  g_clear_object (&session->run);
  test_remove_tree (session->dir);
  g_free (session->dir);
  g_free (session->out);
  g_free (session->audit);
  g_free (session);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

static Session *
session_start (const char *scenario,
               int         control_fd)
{
  Session *session = g_new0 (Session, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autofree char *policy = NULL;
  g_autofree char *agent = g_build_filename (g_getenv ("PADDOCK_SOURCE_DIR"), "tests", "fake-agent.sh", NULL);

  session->dir = g_dir_make_tmp ("paddock-timeline-XXXXXX", &error);
  g_assert_no_error (error);
  session->out = g_build_filename (session->dir, "out", NULL);
  session->audit = g_build_filename (session->dir, "audit.jsonl", NULL);
  policy = g_build_filename (session->dir, "policy.json", NULL);
  g_assert_cmpint (g_mkdir (session->out, 0700), ==, 0);
  g_file_set_contents (policy,
                       "{\"rules\":[{\"name\":\"test-ask\",\"match\":{\"program\":\"touch\",\"argv\":\"asked-marker\"},"
                       "\"action\":\"ask\"}]}", -1, &error);
  g_assert_no_error (error);

  g_subprocess_launcher_take_fd (launcher, control_fd, 3);
  session->run = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("PADDOCK_RUN"),
                                              "--project", session->out, "--policy", policy,
                                              "--audit", session->audit, "--ask-timeout", "60",
                                              "--control-fd", "3", "--",
                                              "sh", agent, session->out, scenario, NULL);
  g_assert_no_error (error);
  return session;
}

static PaddockTimelineEvent *
find_row (PaddockTimeline *timeline,
          const char      *arg)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (timeline)); i++)
    {
      PaddockTimelineEvent *row = row_at (timeline, i);
      const char * const *argv = paddock_timeline_event_get_argv (row);

      for (guint j = 0; argv != NULL && argv[j] != NULL; j++)
        if (g_str_has_suffix (argv[j], arg))
          return row;
    }
  return NULL;
}

static void
on_closed (PaddockClient *client,
           const GError  *error,
           gboolean      *closed)
{
  *closed = TRUE;
}

/* The window's way: a timeline following a live session, an ask answered
 * from it; then the same session read back from its audit log. */
static void
test_follow (void)
{
  int pair[2];
  g_autoptr(Session) session = NULL;
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockTimeline) past = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Changes) changes = { 0 };
  PaddockTimelineEvent *asked = NULL, *allowed, *last;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  gboolean closed = FALSE;
  guint n;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  session = session_start ("ask", pair[1]);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  paddock_timeline_follow (timeline, client);
  changes_watch (&changes, timeline);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &closed);

  while ((asked = find_row (timeline, "asked-marker")) == NULL ||
         paddock_timeline_event_get_decision (asked) != PADDOCK_TIMELINE_DECISION_ASKING ||
         paddock_timeline_event_get_deadline (asked) < 0)
    {
      g_assert_false (closed);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpstr (paddock_timeline_event_get_rule (asked), ==, "test-ask");
  g_assert_true (paddock_client_decide (client, paddock_timeline_event_get_seq (asked), PADDOCK_DECISION_ALLOW,
                                        PADDOCK_REMEMBER_ONCE, &error));
  g_assert_no_error (error);
  while (!closed)
    g_main_context_iteration (NULL, TRUE);
  g_subprocess_wait_check (session->run, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpint (paddock_timeline_event_get_decision (asked), ==, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  g_assert_cmpstr (paddock_timeline_event_get_by (asked), ==, "user");
  g_assert_true (paddock_timeline_event_get_ended (asked));
  g_assert_cmpint (paddock_timeline_event_get_exit_code (asked), ==, 0);
  allowed = find_row (timeline, "allowed-marker");
  g_assert_nonnull (allowed);
  g_assert_cmpint (paddock_timeline_event_get_decision (allowed), ==, PADDOCK_TIMELINE_DECISION_ALLOWED);
  g_assert_cmpint (paddock_timeline_event_get_seq (allowed), <, paddock_timeline_event_get_seq (asked));
  g_assert_true (paddock_timeline_event_get_ended (allowed));
  g_assert_cmpint (paddock_timeline_event_get_duration (allowed), >=, 0);

  /* Execs in order; the session's end last. */
  n = g_list_model_get_n_items (G_LIST_MODEL (timeline));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = paddock_timeline_event_dup_display_line (row_at (timeline, i));
      g_autoptr(GEnumClass) decisions = g_type_class_ref (PADDOCK_TYPE_TIMELINE_DECISION);
      PaddockTimelineEvent *row = row_at (timeline, i);

      g_test_message ("row %u: #%" G_GINT64_FORMAT " %s: %s by %s", i, paddock_timeline_event_get_seq (row), line,
                      g_enum_get_value (decisions, paddock_timeline_event_get_decision (row))->value_nick,
                      paddock_timeline_event_get_by (row));
    }
  g_assert_cmpuint (n, >=, 4);
  for (guint i = 1; i + 1 < n; i++)
    g_assert_cmpint (paddock_timeline_event_get_seq (row_at (timeline, i - 1)), <,
                     paddock_timeline_event_get_seq (row_at (timeline, i)));
  last = row_at (timeline, n - 1);
  g_assert_cmpint (paddock_timeline_event_get_kind (last), ==, PADDOCK_TIMELINE_EVENT_SESSION_END);
  g_assert_cmpint (paddock_timeline_event_get_exit_code (last), ==, 0);
  /* Every row announced once, in order; an update only of rows announced. */
  {
    guint appended = 0;

    for (guint i = 0; i < changes.changes->len; i += 3)
      {
        guint position = g_array_index (changes.changes, guint, i);
        guint removed = g_array_index (changes.changes, guint, i + 1);
        guint added = g_array_index (changes.changes, guint, i + 2);

        if (removed == 0)
          {
            g_assert_cmpuint (position, ==, appended);
            appended += added;
          }
        else
          {
            g_assert_cmpuint (removed, ==, added);
            g_assert_cmpuint (position + removed, <=, appended);
          }
      }
    g_assert_cmpuint (appended, ==, n);
  }

  /* The audit log tells the same story. */
  past = load_audit (session->audit, &error);
  g_assert_no_error (error);
  g_assert_true (paddock_timeline_get_read_only (past));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (past)), ==, n);
  for (guint i = 0; i < n; i++)
    {
      PaddockTimelineEvent *live = row_at (timeline, i);
      PaddockTimelineEvent *read = row_at (past, i);
      g_autofree char *live_line = paddock_timeline_event_dup_display_line (live);
      g_autofree char *read_line = paddock_timeline_event_dup_display_line (read);

      g_assert_cmpint (paddock_timeline_event_get_kind (live), ==, paddock_timeline_event_get_kind (read));
      g_assert_cmpint (paddock_timeline_event_get_seq (live), ==, paddock_timeline_event_get_seq (read));
      g_assert_cmpint (paddock_timeline_event_get_decision (live), ==, paddock_timeline_event_get_decision (read));
      g_assert_cmpstr (paddock_timeline_event_get_by (live), ==, paddock_timeline_event_get_by (read));
      g_assert_cmpstr (live_line, ==, read_line);
      g_assert_cmpint (paddock_timeline_event_get_ended (live), ==, paddock_timeline_event_get_ended (read));
      g_assert_cmpint (paddock_timeline_event_get_exit_code (live), ==, paddock_timeline_event_get_exit_code (read));
    }
}

static void
on_n_items (GObject    *object,
            GParamSpec *pspec,
            guint      *n_notified)
{
  (*n_notified)++;
}

/* Execs a client reads together are announced together: a burst of
 * 2,000 execs and their exits, written at once, is a few items-changed,
 * each consistent with the rows counted when it comes. */
static void
test_follow_burst (void)
{
  int pair[2];
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) lines = g_string_new (
    "{\"type\":\"hello\",\"version\":1,\"session\":\"b0b\",\"project\":\"/p\",\"command\":[\"sh\"],"
    "\"agent_pid\":1,\"lock\":\"off\",\"network\":\"off\",\"features\":[],\"paused\":false}\n");
  g_auto(Changes) changes = { 0 };
  gboolean closed = FALSE;
  guint n_notified = 0, appended = 0;
  gsize done = 0;
  const guint n_execs = 2000;

  for (guint i = 1; i <= n_execs; i++)
    {
      g_autoptr(PaddockMessage) exec = allowed_new (i, 1000 + i, 1, "/usr/bin/cat", "cat src/file.c");
      g_autoptr(PaddockMessage) exit = paddock_message_new (PADDOCK_MESSAGE_EXIT);
      g_autofree char *exec_line = paddock_message_to_line (exec);
      g_autofree char *exit_line = NULL;

      exit->seq = i;
      exit->pid = 1000 + i;
      exit->time = exec->time + 10;
      exit->exit_code = 0;
      exit->duration = 10;
      exit_line = paddock_message_to_line (exit);
      g_string_append (lines, exec_line);
      g_string_append (lines, exit_line);
    }

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  paddock_timeline_follow (timeline, client);
  changes_watch (&changes, timeline);
  g_signal_connect (timeline, "notify::n-items", G_CALLBACK (on_n_items), &n_notified);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &closed);
  while (done < lines->len)
    {
      gssize n = send (pair[1], lines->str + done, lines->len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n > 0)
        done += n;
      else
        g_main_context_iteration (NULL, FALSE);
    }
  close (pair[1]);
  /* What was left is announced when the connection closes. */
  while (!closed)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (timeline)), ==, n_execs);
  for (guint i = 0; i < n_execs; i++)
    g_assert_true (paddock_timeline_event_get_ended (row_at (timeline, i)));
  g_test_message ("%u items-changed for %u execs and their exits", changes.changes->len / 3, n_execs);
  g_assert_cmpuint (changes.changes->len / 3, <, n_execs / 10);
  for (guint i = 0; i < changes.changes->len; i += 3)
    {
      guint position = g_array_index (changes.changes, guint, i);
      guint removed = g_array_index (changes.changes, guint, i + 1);
      guint added = g_array_index (changes.changes, guint, i + 2);

      if (removed == 0)
        {
          g_assert_cmpuint (position, ==, appended);
          appended += added;
        }
      else
        g_assert_cmpuint (position + removed, <=, appended);
    }
  g_assert_cmpuint (appended, ==, n_execs);
  /* The greeting named the project. */
  g_assert_cmpstr (paddock_timeline_get_project (timeline), ==, "/p");
  g_assert_cmpuint (n_notified, >, 0);
  g_assert_cmpuint (n_notified, <, n_execs / 10);
}

/* A real interactive bash under paddock-run, its prompt running git as
 * __git_ps1 does, read back from the session's audit log: the prompt's
 * queries fold, the typed commands and what an agent's `bash -c` runs
 * do not. */
static void
test_folded_real_prompt (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-timeline-XXXXXX", &error);
  g_autofree char *audit = g_build_filename (dir, "audit.jsonl", NULL);
  g_autoptr(GSubprocess) run = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(PaddockTimeline) timeline = NULL;
  static const char typed[] =
    "PROMPT_COMMAND='x=$(git rev-parse --git-dir 2>/dev/null); y=$(git symbolic-ref HEAD 2>/dev/null)'\n"
    "ls >/dev/null\n"
    "bash -c 'z=$(git rev-parse --git-dir 2>/dev/null)'\n"
    "exit\n";
  g_autoptr(GBytes) input = g_bytes_new_static (typed, strlen (typed));
  g_autofree char *git = g_find_program_in_path ("git");
  g_autofree char *bash = g_find_program_in_path ("bash");
  const char * const init[] = { "git", "init", "-q", dir, NULL };
  PaddockTimelineEvent *shell = NULL, *agent_shell = NULL;
  guint n, n_folded = 0;

  g_assert_no_error (error);
  if (git == NULL || bash == NULL)
    {
      g_test_skip ("needs git and bash");
      test_remove_tree (dir);
      return;
    }
  {
    g_autoptr(TestResult) result = test_run (init);

    g_assert_cmpint (result->status, ==, 0);
  }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_cwd (launcher, dir);
  run = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("PADDOCK_RUN"), "--project", dir,
                                     "--audit", audit, "--", "bash", "--norc", "--noprofile", "-i", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (run, input, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (run));
  g_assert_cmpint (g_subprocess_get_exit_status (run), ==, 0);

  timeline = load_audit (audit, &error);
  g_assert_no_error (error);
  n = g_list_model_get_n_items (G_LIST_MODEL (timeline));
  for (guint i = 0; i < n; i++)
    {
      PaddockTimelineEvent *row = row_at (timeline, i);
      g_autofree char *line = paddock_timeline_event_dup_display_line (row);
      const char * const *argv = paddock_timeline_event_get_argv (row);

      g_test_message ("#%" G_GINT64_FORMAT " pid %d ppid %d %s%s", paddock_timeline_event_get_seq (row),
                      paddock_timeline_event_get_pid (row), paddock_timeline_event_get_ppid (row), line,
                      paddock_timeline_event_get_folded (row) ? " (folded)" : "");
      if (paddock_timeline_event_get_kind (row) != PADDOCK_TIMELINE_EVENT_EXEC)
        continue;
      if (g_strcmp0 (argv[1], "--norc") == 0)
        shell = row;
      else if (g_strcmp0 (argv[1], "-c") == 0)
        agent_shell = row;
      else if (g_strcmp0 (argv[0], "ls") == 0)
        g_assert_false (paddock_timeline_event_get_folded (row));
      n_folded += paddock_timeline_event_get_folded (row);
    }
  g_assert_nonnull (shell);
  g_assert_nonnull (agent_shell);
  g_assert_false (paddock_timeline_event_get_folded (shell));
  g_assert_false (paddock_timeline_event_get_folded (agent_shell));
  /* The first prompt after PROMPT_COMMAND is set follows no command. */
  g_assert_true (paddock_timeline_event_get_folded (paddock_timeline_lookup (timeline, paddock_timeline_event_get_seq (shell) + 1)));
  g_assert_true (paddock_timeline_event_get_folded (paddock_timeline_lookup (timeline, paddock_timeline_event_get_seq (shell) + 2)));
  /* What the agent's shell ran is the agent's. */
  g_assert_false (paddock_timeline_event_get_folded (paddock_timeline_lookup (timeline, paddock_timeline_event_get_seq (agent_shell) + 1)));
  g_assert_cmpuint (n_folded, >=, 2);
  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/timeline/rows-in-order", test_rows_in_order);
  g_test_add_func ("/paddock/timeline/ask-decided", test_ask_decided);
  g_test_add_func ("/paddock/timeline/home-rows", test_home_rows);
  g_test_add_func ("/paddock/timeline/net-rows", test_net_rows);
  g_test_add_func ("/paddock/timeline/exit", test_exit);
  g_test_add_func ("/paddock/timeline/folded", test_folded);
  g_test_add_func ("/paddock/timeline/folded-forks", test_folded_forks);
  g_test_add_func ("/paddock/timeline/session-rows", test_session_rows);
  g_test_add_func ("/paddock/timeline/bad-messages", test_bad_messages);
  g_test_add_func ("/paddock/timeline/batch", test_batch);
  g_test_add_func ("/paddock/timeline/audit-log", test_audit_log);
  g_test_add_func ("/paddock/timeline/follow-burst", test_follow_burst);
  if (g_getenv ("PADDOCK_RUN") != NULL)
    {
      g_test_add_func ("/paddock/timeline/follow", test_follow);
      g_test_add_func ("/paddock/timeline/folded-real-prompt", test_folded_real_prompt);
    }
  status = g_test_run ();
  test_home_remove (g_steal_pointer (&home));
  return status;
}
