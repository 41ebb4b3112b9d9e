/* test-window-history.c: past sessions in the window, in process: the
 * primary menu's Past Sessions lists the project's ended session, which
 * opens read-only in a window of its own with the rows the live timeline
 * had, in order, and a subtitle saying its log verifies; the same log
 * edited says plainly that it fails verification; a file that is no log
 * is a toast naming it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "paddock-history-dialog.h"
#include "paddock-history-window.h"
#include "paddock-timeline-view.h"
#include "paddock-window.h"
#include "paddock-xdg.h"
#include "test-util.h"
#include "test-window-util.h"

/* The application's window of @type shown last, or NULL. */
static GtkWindow *
find_window (PaddockApplication *app,
             GType               type)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;
  return NULL;
}

typedef struct
{
  PaddockApplication *app;
  GType               type;
} WindowWait;

static gboolean
window_shown (gpointer data)
{
  WindowWait *wait = data;
  GtkWindow *window = find_window (wait->app, wait->type);

  return window != NULL && gtk_widget_get_mapped (GTK_WIDGET (window));
}

static gboolean
dialog_loaded (gpointer data)
{
  return paddock_history_dialog_get_loaded (PADDOCK_HISTORY_DIALOG (data));
}

/* Each row as "KIND SEQ ARGV DECISION BY ENDED", one per line. */
static char *
describe_rows (GListModel *timeline)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr(PaddockTimelineEvent) row = g_list_model_get_item (timeline, i);
      const char * const *argv = paddock_timeline_event_get_argv (row);
      g_autofree char *line = argv != NULL ? g_strjoinv (" ", (char **) argv) : g_strdup ("-");

      g_string_append_printf (out, "%d %" G_GINT64_FORMAT " %s %d %s %d\n", paddock_timeline_event_get_kind (row),
                              paddock_timeline_event_get_seq (row), line, paddock_timeline_event_get_decision (row),
                              paddock_timeline_event_get_by (row), paddock_timeline_event_get_ended (row));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

typedef struct
{
  PaddockTimeline *timeline;
  const char      *command;
} RowWait;

static gboolean
row_ended (gpointer data)
{
  RowWait *wait = data;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (wait->timeline)); i++)
    {
      g_autoptr(PaddockTimelineEvent) row = g_list_model_get_item (G_LIST_MODEL (wait->timeline), i);
      const char * const *argv = paddock_timeline_event_get_argv (row);
      g_autofree char *line = argv != NULL ? g_strjoinv (" ", (char **) argv) : NULL;

      if (g_strcmp0 (line, wait->command) == 0 && paddock_timeline_event_get_ended (row))
        return TRUE;
    }
  return FALSE;
}

static gboolean
timeline_ended (gpointer data)
{
  GListModel *timeline = data;
  guint n = g_list_model_get_n_items (timeline);
  g_autoptr(PaddockTimelineEvent) last = n > 0 ? g_list_model_get_item (timeline, n - 1) : NULL;

  return last != NULL && paddock_timeline_event_get_kind (last) == PADDOCK_TIMELINE_EVENT_SESSION_END;
}

/* Opens @path from @dialog and waits for its window. */
static PaddockHistoryWindow *
open_past (PaddockApplication   *app,
           PaddockHistoryDialog *dialog,
           const char           *path)
{
  WindowWait shown = { app, PADDOCK_TYPE_HISTORY_WINDOW };
  PaddockHistoryWindow *window;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "history.open", "s", path));
  g_assert_true (wait_for (window_shown, &shown, "the past session's window"));
  window = PADDOCK_HISTORY_WINDOW (find_window (app, PADDOCK_TYPE_HISTORY_WINDOW));
  g_assert_cmpstr (paddock_past_session_get_path (paddock_history_window_get_session (window)), ==, path);
  return window;
}

static void
test_past_session (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *live_rows = NULL;
  g_autofree char *past_rows = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *garbage = NULL;
  g_autofree char *garbage_name = NULL;
  g_autofree char *session_id = NULL;
  PaddockSessionPage *page;
  PaddockHistoryDialog *dialog;
  PaddockHistoryWindow *past;
  PaddockTimelineView *view;
  PaddockTimeline *live;
  VteTerminal *terminal;
  GtkWindow *window;
  WindowWait dialog_shown = { NULL, PADDOCK_TYPE_HISTORY_DIALOG };
  RowWait two_ended = { NULL, "/bin/echo two" };
  char *two;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  live = paddock_session_page_get_timeline (page);
  session_id = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (page)));
  two_ended.timeline = live;

  feed (terminal, "/bin/echo one; /bin/echo two\n");
  g_assert_true (wait_for (row_ended, &two_ended, "echo two's exit"));
  /* A failed exit keeps the tab, and the timeline, to compare with. */
  feed (terminal, "exit 3\n");
  g_assert_true (wait_for (session_stopped, page, "the session's end"));
  g_assert_true (wait_for (timeline_ended, live, "the session's end in the timeline"));
  live_rows = describe_rows (G_LIST_MODEL (live));

  /* The primary menu's Past Sessions: the session just ended, newest first. */
  dialog_shown.app = app;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.past-sessions", NULL));
  g_assert_true (wait_for (window_shown, &dialog_shown, "the past sessions"));
  dialog = PADDOCK_HISTORY_DIALOG (find_window (app, PADDOCK_TYPE_HISTORY_DIALOG));
  g_assert_true (wait_for (dialog_loaded, dialog, "the past sessions listed"));
  {
    GListModel *sessions = paddock_history_dialog_get_sessions (dialog);
    g_autoptr(PaddockPastSession) newest = NULL;
    LabelWait counts = { GTK_WIDGET (dialog), NULL };
    g_autofree char *n_programs = NULL;

    g_assert_cmpuint (g_list_model_get_n_items (sessions), >=, 1);
    newest = g_list_model_get_item (sessions, 0);
    g_assert_cmpstr (paddock_past_session_get_session_id (newest), ==, session_id);
    g_assert_true (paddock_past_session_get_verified (newest));
    g_assert_true (paddock_past_session_get_ended (newest));
    path = g_strdup (paddock_past_session_get_path (newest));
    n_programs = g_strdup_printf ("%u programs", paddock_past_session_get_n_execs (newest));
    counts.needle = n_programs;
    g_assert_true (wait_for (label_shown, &counts, "the session's counts in the list"));
  }

  /* Opened: the same rows, in order, read-only, and its log verifies. */
  past = open_past (app, dialog, path);
  view = paddock_history_window_get_timeline_view (past);
  g_assert_true (paddock_timeline_get_read_only (paddock_timeline_view_get_timeline (view)));
  past_rows = describe_rows (G_LIST_MODEL (paddock_timeline_view_get_timeline (view)));
  g_assert_cmpstr (past_rows, ==, live_rows);
  {
    LabelWait verifies = { GTK_WIDGET (past), "Its log verifies" };
    LabelWait row = { GTK_WIDGET (paddock_timeline_view_get_list_view (view)), "echo" };

    g_assert_true (wait_for (label_shown, &verifies, "the subtitle"));
    g_assert_true (wait_for (label_shown, &row, "the rows"));
  }
  /* Nothing to approve, no rules to write from a past session. */
  gtk_selection_model_select_item (gtk_list_view_get_model (paddock_timeline_view_get_list_view (view)), 0, TRUE);
  {
    GtkWidget *copy = find_button_for_action (GTK_WIDGET (past), "timeline.copy-command");
    GtkWidget *allow = find_button_for_action (GTK_WIDGET (past), "timeline.always-allow");
    GtkWidget *deny = find_button_for_action (GTK_WIDGET (past), "timeline.always-deny");

    g_assert_true (wait_for (widget_mapped, copy, "the row's details"));
    g_assert_true (gtk_widget_is_sensitive (copy));
    g_assert_false (gtk_widget_is_sensitive (allow));
    g_assert_false (gtk_widget_is_sensitive (deny));
  }
  gtk_window_destroy (GTK_WINDOW (past));

  /* Edited: one byte of a record changed. It opens, and says plainly it fails. */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  two = strstr (contents, "\"two\"]");
  g_assert_nonnull (two);
  memcpy (two, "\"twO\"]", strlen ("\"twO\"]"));
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  past = open_past (app, dialog, path);
  {
    LabelWait fails = { GTK_WIDGET (past), "Its log FAILS verification" };
    LabelWait why = { GTK_WIDGET (past), "does not verify: line" };

    g_assert_true (wait_for (label_shown, &fails, "the subtitle"));
    g_assert_true (wait_for (label_shown, &why, "why, above the rows"));
  }
  g_assert_false (paddock_past_session_get_verified (paddock_history_window_get_session (past)));
  gtk_window_destroy (GTK_WINDOW (past));

  /* Not a log: a toast naming the file, and no window. */
  garbage = g_build_filename (paddock_user_state_dir (), "paddock", "session-20000101-000000-0badc0de.jsonl", NULL);
  garbage_name = g_path_get_basename (garbage);
  g_assert_true (g_file_set_contents (garbage, "garbage\n", -1, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "history.open", "s", garbage));
  {
    LabelWait said = { GTK_WIDGET (dialog), garbage_name };

    g_assert_true (wait_for (label_shown, &said, "the toast naming the file"));
  }
  g_assert_null (find_window (app, PADDOCK_TYPE_HISTORY_WINDOW));

  destroy_windows (app);
  g_unlink (garbage);
  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);

  g_test_add_func ("/paddock/window-history/past-session", test_past_session);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
