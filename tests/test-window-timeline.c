/* test-window-timeline.c: each tab's timeline, in process: a shell's
 * commands appear as rows in order, an ask's row turns allowed or denied
 * as the user answers, two tabs never mix rows, a restart starts afresh,
 * the shell's prompt helpers hide until asked for,
 * F9's action hides and shows the pane in every tab and the setting
 * follows, a row's Always Deny and Always Allow write the project's rule
 * and the running session follows it (and its Undo), and 100,000 rows appended while the view is mapped keep few
 * row widgets and leave the view at the end
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "paddock-audit.h"
#include "paddock-policy.h"
#include "paddock-settings.h"
#include "paddock-timeline-row.h"
#include "paddock-timeline-view.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"
#include "paddock-xdg.h"

#define N_FLOOD 100000

/* The position in @model of the first exec row whose argv, joined by
 * spaces, is @command; -1 where there is none. */
static int
find_row (GListModel *model,
          const char *command)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);
      const char * const *argv = paddock_timeline_event_get_argv (event);
      g_autofree char *line = NULL;

      if (argv == NULL)
        continue;
      line = g_strjoinv (" ", (char **) argv);
      if (g_str_equal (line, command))
        return i;
    }
  return -1;
}

/* Says what @model holds, for a test that fails on it. */
static void
dump_rows (GListModel *model)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);
      g_autofree char *line = paddock_timeline_event_dup_display_line (event);

      g_test_message ("row %u: seq %" G_GINT64_FORMAT ", %s, decision %d by %s", i,
                      paddock_timeline_event_get_seq (event), line,
                      paddock_timeline_event_get_decision (event), paddock_timeline_event_get_by (event));
    }
}

/* Whether every row of @model passes @filter. */
static gboolean
all_rows_are (GListModel            *model,
              PaddockTimelineFilter  filter)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);
      PaddockTimelineDecision decision = paddock_timeline_event_get_decision (event);

      if (filter == PADDOCK_TIMELINE_FILTER_DENIED &&
          decision != PADDOCK_TIMELINE_DECISION_DENIED && decision != PADDOCK_TIMELINE_DECISION_ASKED_DENIED)
        return FALSE;
      if (filter == PADDOCK_TIMELINE_FILTER_ASKED &&
          decision != PADDOCK_TIMELINE_DECISION_ASKING && decision != PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED &&
          decision != PADDOCK_TIMELINE_DECISION_ASKED_DENIED)
        return FALSE;
    }
  return TRUE;
}

static GListModel *
shown_rows (PaddockSessionPage *page)
{
  return paddock_timeline_view_get_model (paddock_session_page_get_timeline_view (page));
}

typedef struct
{
  PaddockSessionPage *page;
  const char         *command;
} RowWait;

static gboolean
row_shown (gpointer data)
{
  RowWait *wait = data;

  return find_row (shown_rows (wait->page), wait->command) >= 0;
}

static gboolean
row_ended (gpointer data)
{
  RowWait *wait = data;
  GListModel *model = shown_rows (wait->page);
  int position = find_row (model, wait->command);
  g_autoptr(PaddockTimelineEvent) event = NULL;

  if (position < 0)
    return FALSE;
  event = g_list_model_get_item (model, position);
  return paddock_timeline_event_get_ended (event);
}

static void
assert_row_shown (PaddockSessionPage *page,
                  const char         *command)
{
  RowWait wait = { page, command };

  g_assert_true (wait_for (row_shown, &wait, command));
}

typedef struct
{
  PaddockSessionPage     *page;
  gint64                  seq;
  PaddockTimelineDecision decision;
} DecisionWait;

static gboolean
decision_is (gpointer data)
{
  DecisionWait *wait = data;
  PaddockTimeline *timeline = paddock_session_page_get_timeline (wait->page);
  PaddockTimelineEvent *event = paddock_timeline_lookup (timeline, wait->seq);

  return event != NULL && paddock_timeline_event_get_decision (event) == wait->decision;
}

static gboolean
timeline_ask_shown (gpointer data)
{
  PaddockApprovalBar *bar = paddock_session_page_get_approval_bar (PADDOCK_SESSION_PAGE (data));

  return paddock_approval_bar_get_current (bar) != NULL;
}

typedef struct
{
  GtkWidget *widget;
  gboolean   visible;
} VisibleWait;

static gboolean
visible_is (gpointer data)
{
  VisibleWait *wait = data;

  return gtk_widget_get_visible (wait->widget) == wait->visible;
}

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
pointer_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static void
test_rows_in_order (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *copied = NULL;
  PaddockSessionPage *page;
  PaddockTimelineView *view;
  PaddockTimeline *first;
  VteTerminal *terminal;
  GtkListView *list_view;
  RowWait echo_ended = { NULL, "/bin/echo hi" };
  int true_row, echo_row;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  view = paddock_session_page_get_timeline_view (page);
  list_view = paddock_timeline_view_get_list_view (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  first = paddock_session_page_get_timeline (page);
  g_assert_nonnull (first);

  feed (terminal, "/bin/true; /bin/echo hi\n");
  assert_terminal_shows (terminal, "hi");
  assert_row_shown (page, "/bin/echo hi");
  true_row = find_row (shown_rows (page), "/bin/true");
  echo_row = find_row (shown_rows (page), "/bin/echo hi");
  g_assert_cmpint (true_row, >=, 0);
  g_assert_cmpint (true_row, <, echo_row);
  /* The list shows them, with the program's name. */
  {
    LabelWait echo = { GTK_WIDGET (list_view), "echo" };

    g_assert_true (wait_for (label_shown, &echo, "a row showing echo"));
  }
  /* Its duration once it exited. */
  echo_ended.page = page;
  g_assert_true (wait_for (row_ended, &echo_ended, "echo's exit"));

  /* Selected, it shows its details, and copies its command. */
  gtk_selection_model_select_item (gtk_list_view_get_model (list_view), echo_row, TRUE);
  {
    LabelWait argv = { GTK_WIDGET (view), "/bin/echo hi" };
    LabelWait cwd = { GTK_WIDGET (view), dir };

    g_assert_true (wait_for (label_shown, &argv, "the details' command"));
    g_assert_true (wait_for (label_shown, &cwd, "the details' folder"));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.copy-command", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (view)), NULL, read_text_cb, &copied);
  g_assert_true (wait_for (pointer_set, &copied, "the clipboard"));
  g_assert_cmpstr (copied, ==, "/bin/echo hi");

  /* The search narrows, and the filters. */
  paddock_timeline_view_set_search (view, "ECHO H");
  g_assert_cmpint (find_row (shown_rows (page), "/bin/echo hi"), ==, 0);
  g_assert_cmpint (find_row (shown_rows (page), "/bin/true"), ==, -1);
  paddock_timeline_view_set_search (view, NULL);
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_DENIED);
  g_assert_cmpuint (g_list_model_get_n_items (shown_rows (page)), ==, 0);
  {
    LabelWait none = { GTK_WIDGET (view), "No Matching Programs" };

    g_assert_true (wait_for (label_shown, &none, "the no-match state"));
  }
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_ALL);
  g_assert_cmpint (find_row (shown_rows (page), "/bin/true"), ==, true_row);

  /* A restart is a new session, with a timeline of its own (a failed
   * exit keeps the tab). */
  feed (terminal, "exit 3\n");
  g_assert_true (wait_for (session_stopped, page, "the session's end"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.restart", NULL));
  g_assert_true (wait_for (session_running, page, "paddock-run to start again"));
  g_assert_true (paddock_session_page_get_timeline (page) != first);
  g_assert_cmpint (find_row (shown_rows (page), "/bin/echo hi"), ==, -1);

  destroy_windows (app);
  g_rmdir (dir);
}

static gint64
run_asked_for_id (PaddockSessionPage *page,
           VteTerminal        *terminal,
           const char         *command)
{
  PaddockApprovalBar *bar = paddock_session_page_get_approval_bar (page);
  g_autofree char *line = g_strdup_printf ("%s; echo \"status=$?.\"\n", command);
  DecisionWait asking = { page, 0, PADDOCK_TIMELINE_DECISION_ASKING };

  feed (terminal, line);
  g_assert_true (wait_for (timeline_ask_shown, page, "the approval bar"));
  asking.seq = paddock_approval_bar_get_current (bar)->id;
  g_assert_true (wait_for (decision_is, &asking, "an asking row"));
  return asking.seq;
}

static void
test_asked_rows (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  PaddockSessionPage *page;
  PaddockTimelineView *view;
  VteTerminal *terminal;
  DecisionWait allowed = { NULL, 0, PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED };
  DecisionWait denied = { NULL, 0, PADDOCK_TIMELINE_DECISION_ASKED_DENIED };

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  view = paddock_session_page_get_timeline_view (page);

  allowed.page = denied.page = page;
  allowed.seq = run_asked_for_id (page, terminal, "git push --force nowhere main");
  {
    LabelWait asking = { GTK_WIDGET (paddock_timeline_view_get_list_view (view)), "git push --force" };

    g_assert_true (wait_for (label_shown, &asking, "the asking row"));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  g_assert_true (wait_for (decision_is, &allowed, "the row allowed"));
  g_assert_cmpstr (paddock_timeline_event_get_by (paddock_timeline_lookup (paddock_session_page_get_timeline (page),
                                                                            allowed.seq)), ==, "user");
  assert_terminal_shows (terminal, "status=128.");

  denied.seq = run_asked_for_id (page, terminal, "git push --force nowhere other");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  g_assert_true (wait_for (decision_is, &denied, "the row denied"));
  g_assert_cmpstr (paddock_timeline_event_get_by (paddock_timeline_lookup (paddock_session_page_get_timeline (page),
                                                                            denied.seq)), ==, "user");

  /* Asked: both; denied: the one (once announced: lookup finds rows first). */
  assert_row_shown (page, "git push --force nowhere other");
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_ASKED);
  if (!all_rows_are (shown_rows (page), PADDOCK_TIMELINE_FILTER_ASKED) ||
      find_row (shown_rows (page), "git push --force nowhere main") < 0 ||
      find_row (shown_rows (page), "git push --force nowhere other") < 0)
    {
      dump_rows (G_LIST_MODEL (paddock_session_page_get_timeline (page)));
      g_assert_not_reached ();
    }
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_DENIED);
  if (!all_rows_are (shown_rows (page), PADDOCK_TIMELINE_FILTER_DENIED) ||
      find_row (shown_rows (page), "git push --force nowhere main") >= 0 ||
      find_row (shown_rows (page), "git push --force nowhere other") != 0)
    {
      dump_rows (G_LIST_MODEL (paddock_session_page_get_timeline (page)));
      g_assert_not_reached ();
    }
  {
    LabelWait by_you = { GTK_WIDGET (view), "Denied by you" };

    gtk_selection_model_select_item (gtk_list_view_get_model (paddock_timeline_view_get_list_view (view)), 0, TRUE);
    g_assert_true (wait_for (label_shown, &by_you, "the denied row's details"));
  }

  destroy_windows (app);
  g_rmdir (dir);
}

static void
test_tabs_apart_and_toggle (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GSettings) settings = paddock_settings_new ();
  g_autofree char *dir = NULL;
  PaddockSessionPage *one, *two;
  VteTerminal *terminal_one, *terminal_two;
  GtkWindow *window;
  VisibleWait hidden_one = { NULL, FALSE }, hidden_two = { NULL, FALSE };
  VisibleWait shown_one = { NULL, TRUE }, shown_two = { NULL, TRUE };

  if (skip_without_display ())
    return;
  g_assert_nonnull (settings);
  g_assert_true (g_settings_get_boolean (settings, "show-timeline"));

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal_one, &one);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  {
    AdwTabView *tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));

    two = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  }
  g_assert_true (two != one);
  terminal_two = paddock_session_page_get_terminal (two);
  g_assert_true (wait_for (session_running, two, "the second tab's paddock-run"));
  g_assert_true (wait_for (terminal_has_prompt, terminal_two, "the second tab's prompt"));

  feed (terminal_one, "/bin/echo tab-one\n");
  feed (terminal_two, "/bin/echo tab-two\n");
  assert_row_shown (one, "/bin/echo tab-one");
  assert_row_shown (two, "/bin/echo tab-two");
  g_assert_cmpint (find_row (shown_rows (one), "/bin/echo tab-two"), ==, -1);
  g_assert_cmpint (find_row (shown_rows (two), "/bin/echo tab-one"), ==, -1);
  g_assert_true (paddock_session_page_get_timeline (one) != paddock_session_page_get_timeline (two));

  /* F9's action: every tab, and the setting. */
  hidden_one.widget = shown_one.widget = GTK_WIDGET (paddock_session_page_get_timeline_view (one));
  hidden_two.widget = shown_two.widget = GTK_WIDGET (paddock_session_page_get_timeline_view (two));
  g_assert_true (visible_is (&shown_one) && visible_is (&shown_two));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-timeline", NULL));
  g_assert_true (visible_is (&hidden_one) && visible_is (&hidden_two));
  g_assert_false (paddock_session_page_get_show_timeline (one));
  g_assert_true (wait_for ((Condition) visible_is, &hidden_two, "the pane hidden"));
  g_assert_false (g_settings_get_boolean (settings, "show-timeline"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-timeline", NULL));
  g_assert_true (visible_is (&shown_one) && visible_is (&shown_two));
  g_assert_true (g_settings_get_boolean (settings, "show-timeline"));

  /* The setting changed elsewhere: the window follows. */
  g_settings_set_boolean (settings, "show-timeline", FALSE);
  g_assert_true (wait_for (visible_is, &hidden_one, "the pane hidden by the setting"));
  g_assert_true (visible_is (&hidden_two));
  g_settings_set_boolean (settings, "show-timeline", TRUE);
  g_assert_true (wait_for (visible_is, &shown_one, "the pane shown by the setting"));
  g_assert_true (visible_is (&shown_two));

  destroy_windows (app);
  g_rmdir (dir);
}

/* --- Always Allow, Always Deny ------------------------------------------ */

/* The position in @model of the @nth (from 0) exec row of @command,
 * or of the last one for LAST_ROW. */
#define LAST_ROW G_MAXUINT

static int
find_nth_row (GListModel *model,
              const char *command,
              guint       nth)
{
  guint n = g_list_model_get_n_items (model);
  int last = -1;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);
      const char * const *argv = paddock_timeline_event_get_argv (event);
      g_autofree char *line = NULL;

      if (argv == NULL)
        continue;
      line = g_strjoinv (" ", (char **) argv);
      if (!g_str_equal (line, command))
        continue;
      if (nth == LAST_ROW)
        last = i;
      else if (nth-- == 0)
        return i;
    }
  return last;
}

typedef struct
{
  PaddockSessionPage     *page;
  const char             *command;
  guint                   nth;
  PaddockTimelineDecision decision;
} NthWait;

static gboolean
nth_row_decided (gpointer data)
{
  NthWait *wait = data;
  GListModel *model = G_LIST_MODEL (paddock_session_page_get_timeline (wait->page));
  int position = find_nth_row (model, wait->command, wait->nth);
  g_autoptr(PaddockTimelineEvent) event = NULL;

  if (position < 0)
    return FALSE;
  event = g_list_model_get_item (model, position);
  return paddock_timeline_event_get_decision (event) == wait->decision;
}

static PaddockTimelineEvent *
nth_row (PaddockSessionPage *page,
         const char         *command,
         guint               nth)
{
  GListModel *model = G_LIST_MODEL (paddock_session_page_get_timeline (page));
  int position = find_nth_row (model, command, nth);
  g_autoptr(PaddockTimelineEvent) event = NULL;

  g_assert_cmpint (position, >=, 0);
  event = g_list_model_get_item (model, position);
  /* The timeline keeps its own reference. */
  return event;
}

/* Selects the first shown row of @command, and waits for its details. */
static void
select_row (PaddockSessionPage *page,
            const char         *command)
{
  PaddockTimelineView *view = paddock_session_page_get_timeline_view (page);
  GtkListView *list_view = paddock_timeline_view_get_list_view (view);
  int position = find_row (shown_rows (page), command);
  LabelWait details = { GTK_WIDGET (view), command };

  g_assert_cmpint (position, >=, 0);
  gtk_selection_model_select_item (gtk_list_view_get_model (list_view), position, TRUE);
  g_assert_true (wait_for (label_shown, &details, "the row's details"));
}

/* The page's session's audit log, named by its id. */
static char *
session_log (PaddockSessionPage *page)
{
  const char *id = paddock_client_get_session_id (paddock_session_page_get_client (page));
  g_autofree char *folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_autofree char *suffix = g_strdup_printf ("-%s.jsonl", id);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, suffix))
      return g_build_filename (folder, name, NULL);
  g_assert_not_reached ();
}

static gboolean
keep_last_sha256 (const PaddockAuditRecord *record,
                  gpointer                  user_data)
{
  char **sha256 = user_data;

  g_free (*sha256);
  *sha256 = g_strdup (json_object_get_string_member_with_default (record->object, "sha256", ""));
  return TRUE;
}

typedef struct
{
  const char *log;
  const char *project;
} TakenWait;

/* The session read the project's file as it is now: its log's last
 * record of a change to the project's rules names these bytes. */
static gboolean
session_took_file (gpointer data)
{
  TakenWait *wait = data;
  PaddockAuditFilter filter = { .type = PADDOCK_AUDIT_POLICY };
  g_autofree char *file = paddock_policy_project_file (wait->project, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *taken = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
  expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
  g_assert_true (paddock_audit_foreach (wait->log, &filter, keep_last_sha256, &taken, NULL, NULL));
  return g_strcmp0 (taken, expected) == 0;
}

static guint
n_project_rules (const char *project)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) overrides = paddock_policy_load_project (project, &error);

  g_assert_no_error (error);
  return paddock_policy_get_n_rules (overrides);
}

static char *
project_rule_name (const char *project)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) overrides = paddock_policy_load_project (project, &error);
  g_autoptr(PaddockPolicyRule) rule = NULL;

  g_assert_no_error (error);
  rule = paddock_policy_get_rule (overrides, 0);
  g_assert_nonnull (rule);
  return g_strdup (paddock_policy_rule_get_name (rule));
}

static gboolean
one_project_rule (gpointer data)
{
  return n_project_rules (data) == 1;
}

/* The button labelled @label under @widget, or NULL. */
static GtkWidget *
find_button_labelled (GtkWidget  *widget,
                      const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0 &&
      gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_labelled (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct
{
  GtkWidget  *root;
  const char *label;
} ButtonWait;

static gboolean
button_shown (gpointer data)
{
  ButtonWait *wait = data;

  return find_button_labelled (wait->root, wait->label) != NULL;
}

/* Always Deny on a row the policy allowed: the project's file has the
 * rule, a toast names it, and the session, which follows the file,
 * refuses the same command line next time, by that rule. */
static void
test_always_deny (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *log = NULL;
  g_autofree char *name = NULL;
  g_autofree char *toast = NULL;
  PaddockSessionPage *page;
  PaddockTimelineView *view;
  VteTerminal *terminal;
  GtkWindow *window;
  NthWait allowed = { NULL, "/bin/echo deny-me", 0, PADDOCK_TIMELINE_DECISION_ALLOWED };
  /* The shell may try the path again once refused: that row is refused too. */
  NthWait denied = { NULL, "/bin/echo deny-me", LAST_ROW, PADDOCK_TIMELINE_DECISION_DENIED };
  TakenWait taken = { NULL, NULL };

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  view = paddock_session_page_get_timeline_view (page);
  allowed.page = denied.page = page;
  log = session_log (page);
  taken.log = log;
  taken.project = dir;

  feed (terminal, "/bin/echo deny-me; echo \"first=$?.\"\n");
  assert_terminal_shows (terminal, "first=0.");
  g_assert_true (wait_for (nth_row_decided, &allowed, "the allowed row"));
  assert_row_shown (page, "/bin/echo deny-me");
  select_row (page, "/bin/echo deny-me");

  g_assert_cmpuint (n_project_rules (dir), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.always-deny", NULL));
  {
    LabelWait shown = { GTK_WIDGET (window), "echo always denied in this project, by rule remembered-" };

    g_assert_true (wait_for (label_shown, &shown, "the toast"));
  }
  g_assert_cmpuint (n_project_rules (dir), ==, 1);
  name = project_rule_name (dir);
  toast = g_strdup_printf ("echo always denied in this project, by rule %s", name);
  g_assert_true (find_label_containing (GTK_WIDGET (window), toast));

  /* The session read the file again; the same command line is refused. */
  g_assert_true (wait_for (session_took_file, &taken, "the session to read the project's file"));
  feed (terminal, "/bin/echo deny-me; echo \"second=$?.\"\n");
  assert_terminal_shows (terminal, "second=126.");
  g_assert_true (wait_for (nth_row_decided, &denied, "the refused row"));
  g_assert_cmpstr (paddock_timeline_event_get_rule (nth_row (page, "/bin/echo deny-me", 1)), ==, name);
  g_assert_cmpstr (paddock_timeline_event_get_by (nth_row (page, "/bin/echo deny-me", 1)), !=, "repeat");
  /* Another command line is not. */
  feed (terminal, "/bin/echo deny-me too; echo \"third=$?.\"\n");
  assert_terminal_shows (terminal, "third=0.");

  destroy_windows (app);
  test_remove_tree (dir);
}

/* Always Allow on a command that asked (and was denied): the toast's Undo
 * takes the rule out of the file, and the session asks again; allowed
 * again, the session lets it run without asking. */
static void
test_always_allow_undo (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *log = NULL;
  g_autofree char *name = NULL;
  PaddockSessionPage *page;
  PaddockTimelineView *view;
  VteTerminal *terminal;
  GtkWindow *window;
  const char *command = "git push --force nowhere main";
  NthWait asked = { NULL, "git push --force nowhere main", 0, PADDOCK_TIMELINE_DECISION_ASKED_DENIED };
  /* After the refused one, and the shell's retry of it, refused again. */
  NthWait allowed = { NULL, "git push --force nowhere main", LAST_ROW, PADDOCK_TIMELINE_DECISION_ALLOWED };
  TakenWait taken = { NULL, NULL };
  ButtonWait undo = { NULL, "_Undo" };

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  view = paddock_session_page_get_timeline_view (page);
  asked.page = allowed.page = page;
  log = session_log (page);
  taken.log = log;
  taken.project = dir;
  undo.root = GTK_WIDGET (window);

  run_asked_for_id (page, terminal, command);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  g_assert_true (wait_for (nth_row_decided, &asked, "the row denied"));
  assert_row_shown (page, command);
  select_row (page, command);

  /* Always Allow, then at once the toast's Undo (the toast goes by
   * itself after a while): the rule is in the file, then out of it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.always-allow", NULL));
  g_assert_true (wait_for (button_shown, &undo, "the toast's Undo"));
  g_assert_true (find_label_containing (GTK_WIDGET (window),
                                        "git always allowed in this project, by rule remembered-"));
  g_assert_cmpuint (n_project_rules (dir), ==, 1);
  name = project_rule_name (dir);
  /* Clicked once the toast is in, as a person would: libadwaita 1.2 reads
   * freed memory when a toast is dismissed as it comes in (fixed in 1.3;
   * see ui/paddock-toasts.c). */
  run_main_loop_for (400);
  g_signal_emit_by_name (find_button_labelled (GTK_WIDGET (window), "_Undo"), "clicked");
  {
    LabelWait shown = { GTK_WIDGET (window), "git no longer remembered for this project" };

    g_assert_true (wait_for (label_shown, &shown, "the Undo's toast"));
  }
  g_assert_cmpuint (n_project_rules (dir), ==, 0);
  /* The session follows: it asks again. */
  g_assert_true (wait_for (session_took_file, &taken, "the session to read the project's file"));
  {
    DecisionWait again = { page, 0, PADDOCK_TIMELINE_DECISION_ASKED_DENIED };

    again.seq = run_asked_for_id (page, terminal, command);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
    g_assert_true (wait_for (decision_is, &again, "the row denied again"));
  }

  /* Always Allow again (the first toast may still be on its way out, so
   * the file says when it is done): no ask this time; git runs, and fails
   * to find the remote. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.always-allow", NULL));
  g_assert_true (wait_for (one_project_rule, dir, "the rule in the project's file"));
  g_assert_true (wait_for (session_took_file, &taken, "the session to read the project's file again"));
  feed (terminal, "git push --force nowhere main; echo \"allowed=$?.\"\n");
  assert_terminal_shows (terminal, "allowed=128.");
  if (!wait_for (nth_row_decided, &allowed, "the allowed row"))
    {
      dump_rows (G_LIST_MODEL (paddock_session_page_get_timeline (page)));
      g_assert_not_reached ();
    }
  g_assert_cmpstr (paddock_timeline_event_get_rule (nth_row (page, command, LAST_ROW)), ==, name);
  g_assert_true (no_ask_shown (page));

  destroy_windows (app);
  test_remove_tree (dir);
}

/* The project's file is locked by another program, or broken: the
 * details say so in words, nothing is written, nothing crashes. */
static void
test_always_deny_locked (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *lock = NULL;
  g_autofree char *folder = NULL;
  PaddockSessionPage *page;
  PaddockTimelineView *view;
  VteTerminal *terminal;
  int fd;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  view = paddock_session_page_get_timeline_view (page);

  feed (terminal, "/bin/echo locked-out\n");
  assert_row_shown (page, "/bin/echo locked-out");
  select_row (page, "/bin/echo locked-out");

  file = paddock_policy_project_file (dir, &error);
  g_assert_no_error (error);
  folder = g_path_get_dirname (file);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  lock = g_strconcat (file, ".lock", NULL);
  fd = open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.always-deny", NULL));
  {
    LabelWait said = { GTK_WIDGET (view), "Cannot remember this command line for the project: cannot lock" };

    g_assert_true (wait_for (label_shown, &said, "the error under the details"));
    g_assert_true (find_label_containing (GTK_WIDGET (view), lock));
  }
  close (fd);
  g_assert_cmpuint (n_project_rules (dir), ==, 0);

  /* A broken file: said, naming it, and left as it was. */
  g_assert_true (g_file_set_contents (file, "{ \"rules\": [ oops", -1, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.always-deny", NULL));
  {
    g_autofree char *needle = g_strdup_printf ("Cannot remember this command line for the project: %s:1:", file);
    LabelWait said = { GTK_WIDGET (view), needle };
    g_autofree char *contents = NULL;

    g_assert_true (wait_for (label_shown, &said, "the broken file under the details"));
    g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "{ \"rules\": [ oops");
  }

  destroy_windows (app);
  g_unlink (file);
  g_unlink (lock);
  test_remove_tree (dir);
}

static PaddockMessage *
allowed_new (gint64      seq,
             int         pid,
             int         ppid,
             const char *exe,
             const char *args)
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
  message->decision = PADDOCK_DECISION_ALLOW;
  message->by = g_strdup ("default");
  return message;
}

/* The shell's prompt helpers hide until the toggle (its action) shows them. */
static void
test_folded_hidden (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockMessage) shell = allowed_new (1, 100, 1, "/usr/bin/bash", "-bash -i");
  g_autoptr(PaddockMessage) helper = allowed_new (2, 101, 100, "/usr/libexec/vte-urlencode-cwd", "vte-urlencode-cwd");
  g_autoptr(PaddockMessage) command = allowed_new (3, 102, 100, "/usr/bin/make", "make -j2");
  const PaddockMessage *messages[] = { shell, helper, command };
  GtkWidget *view;
  GListModel *shown;
  gboolean shows;

  if (skip_without_display ())
    return;

  view = g_object_ref_sink (paddock_timeline_view_new ());
  shown = paddock_timeline_view_get_model (PADDOCK_TIMELINE_VIEW (view));
  paddock_timeline_add_messages (timeline, messages, G_N_ELEMENTS (messages));
  g_assert_true (paddock_timeline_event_get_folded (paddock_timeline_lookup (timeline, 2)));
  paddock_timeline_view_set_timeline (PADDOCK_TIMELINE_VIEW (view), timeline);

  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2);
  g_assert_cmpint (find_row (shown, "vte-urlencode-cwd"), ==, -1);
  g_assert_cmpint (find_row (shown, "make -j2"), ==, 1);

  g_assert_true (gtk_widget_activate_action (view, "timeline.show-folded", NULL));
  g_object_get (view, "show-folded", &shows, NULL);
  g_assert_true (shows);
  g_assert_cmpint (find_row (shown, "vte-urlencode-cwd"), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 3);
  g_assert_true (gtk_widget_activate_action (view, "timeline.show-folded", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2);

  g_object_unref (view);
}

static PaddockMessage *
home_new (const char      *entry,
          const char      *name,
          gint64           id,
          PaddockDecision  decision,
          const char      *by)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_HOME);

  message->time = g_get_real_time ();
  message->path = g_build_filename (g_get_home_dir (), entry, NULL);
  message->name = g_strdup (name);
  message->id = id;
  message->pid = 120;
  message->exe = g_strdup ("/usr/bin/mvn");
  message->decision = decision;
  message->by = g_strdup (by);
  return message;
}

/* The position in @model of the first home row that read @line, as its
 * display line says; -1 where there is none. */
static int
find_home_row (GListModel *model,
               const char *line)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);
      g_autofree char *shown = paddock_timeline_event_dup_display_line (event);

      if (paddock_timeline_event_get_kind (event) == PADDOCK_TIMELINE_EVENT_HOME && g_str_equal (shown, line))
        return i;
    }
  return -1;
}

/* Reads in the home folder show as rows ("read ~/.m2/settings.xml", the
 * program that read), which the search finds by path or program, and
 * the filters keep by their decision as they keep execs. */
static void
test_home_rows (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockMessage) shell = allowed_new (1, 100, 1, "/usr/bin/bash", "-bash -i");
  g_autoptr(PaddockMessage) build = allowed_new (2, 120, 100, "/usr/bin/mvn", "mvn package");
  g_autoptr(PaddockMessage) allowed = home_new (".m2", "settings.xml", 3, PADDOCK_DECISION_ALLOW, "user");
  g_autoptr(PaddockMessage) refused = home_new (".pgpass", NULL, -1, PADDOCK_DECISION_DENY, "rule");
  const PaddockMessage *messages[] = { shell, build, allowed, refused };
  GtkWidget *window;
  PaddockTimelineView *view;
  GListModel *shown;

  if (skip_without_display ())
    return;

  window = gtk_window_new ();
  view = PADDOCK_TIMELINE_VIEW (paddock_timeline_view_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  shown = paddock_timeline_view_get_model (view);
  paddock_timeline_add_messages (timeline, messages, G_N_ELEMENTS (messages));
  paddock_timeline_view_set_timeline (view, timeline);
  gtk_window_present (GTK_WINDOW (window));

  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 4);
  g_assert_cmpint (find_home_row (shown, "~/.m2/settings.xml"), ==, 2);
  {
    LabelWait read = { GTK_WIDGET (view), "read ~/.m2/settings.xml" };
    LabelWait refused_read = { GTK_WIDGET (view), "read ~/.pgpass" };

    g_assert_true (wait_for (label_shown, &read, read.needle));
    g_assert_true (wait_for (label_shown, &refused_read, refused_read.needle));
  }

  /* Found by what was read, in any case, and by the program that read. */
  paddock_timeline_view_set_search (view, "SETTINGS");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpint (find_home_row (shown, "~/.m2/settings.xml"), ==, 0);
  paddock_timeline_view_set_search (view, "mvn");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 3);
  g_assert_cmpint (find_row (shown, "mvn package"), ==, 0);
  g_assert_cmpint (find_home_row (shown, "~/.pgpass"), ==, 2);
  paddock_timeline_view_set_search (view, NULL);

  /* Asked: the read that was asked about; denied: the one refused. */
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_ASKED);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpint (find_home_row (shown, "~/.m2/settings.xml"), ==, 0);
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_DENIED);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpint (find_home_row (shown, "~/.pgpass"), ==, 0);
  paddock_timeline_view_set_filter (view, PADDOCK_TIMELINE_FILTER_ALL);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 4);

  /* Selected, a read has its details: the program that read and the
   * answer, and no command to copy or remember. */
  gtk_selection_model_select_item (gtk_list_view_get_model (paddock_timeline_view_get_list_view (view)), 2, TRUE);
  {
    LabelWait program = { GTK_WIDGET (view), "/usr/bin/mvn" };
    LabelWait decision = { GTK_WIDGET (view), "Allowed by you" };

    g_assert_true (wait_for (label_shown, &program, program.needle));
    g_assert_true (wait_for (label_shown, &decision, decision.needle));
  }
  g_assert_false (find_label_containing (GTK_WIDGET (view), "Copy Command"));
  g_assert_false (find_label_containing (GTK_WIDGET (view), "Allow in This Project"));
  /* A command's details have them. */
  gtk_selection_model_select_item (gtk_list_view_get_model (paddock_timeline_view_get_list_view (view)), 1, TRUE);
  {
    LabelWait copy = { GTK_WIDGET (view), "Copy Command" };

    g_assert_true (wait_for (label_shown, &copy, copy.needle));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
idle_done (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main context until it has nothing more urgent than idle work. */
static void
drain (void)
{
  gboolean done = FALSE;

  g_idle_add_full (G_PRIORITY_LOW, idle_done, &done, NULL);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static guint
count_rows (GtkWidget *widget)
{
  guint n = PADDOCK_IS_TIMELINE_ROW (widget) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_rows (child);
  return n;
}

static gboolean
at_end (gpointer data)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (data));

  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) >=
         gtk_adjustment_get_upper (adjustment) - 1;
}

static void
test_flood (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  GtkWidget *window;
  GtkWidget *view;
  GtkListView *list_view;
  GtkAdjustment *adjustment;
  gint64 start, in_view, elapsed = 0, elapsed_view = 0;
  const guint batch = 4096;

  if (skip_without_display ())
    return;

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 500, 600);
  view = paddock_timeline_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), view);
  paddock_timeline_view_set_timeline (PADDOCK_TIMELINE_VIEW (view), timeline);
  gtk_window_present (GTK_WINDOW (window));
  list_view = paddock_timeline_view_get_list_view (PADDOCK_TIMELINE_VIEW (view));
  {
    LabelWait empty = { view, "No Programs Yet" };

    g_assert_true (wait_for (label_shown, &empty, "the empty state"));
  }

  for (guint done = 0; done < N_FLOOD; done += batch)
    {
      guint n = MIN (batch, N_FLOOD - done);
      g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);

      for (guint i = 0; i < n; i++)
        {
          PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_EXEC);
          gint64 seq = done + i + 1;

          message->seq = seq;
          message->time = 1700000000000000 + seq * 1000;
          message->pid = 1000 + seq;
          message->ppid = 999;
          message->cwd = g_strdup ("/home/me/proj");
          message->exe = g_strdup ("/usr/bin/make");
          message->path = g_strdup ("/usr/bin/make");
          message->argv = g_strdupv ((char *[]) { "make", "-C", "src", NULL });
          message->argc = 3;
          message->decision = PADDOCK_DECISION_ALLOW;
          message->by = g_strdup ("rule");
          g_ptr_array_add (messages, message);
        }
      start = g_get_monotonic_time ();
      paddock_timeline_add_messages (timeline, (const PaddockMessage * const *) messages->pdata, n);
      in_view = g_get_monotonic_time ();
      /* The view's work for the batch, before the next comes. */
      drain ();
      elapsed += g_get_monotonic_time () - start;
      elapsed_view += g_get_monotonic_time () - in_view;
    }
  g_test_message ("%u rows appended while mapped, in batches of %u: %.0f ms in the timeline and the view, "
                  "%.0f ms of it after the timeline announced them (filter, selection, list view, frames)",
                  N_FLOOD, batch, elapsed / 1000.0, elapsed_view / 1000.0);

  g_assert_cmpuint (g_list_model_get_n_items (paddock_timeline_view_get_model (PADDOCK_TIMELINE_VIEW (view))), ==, N_FLOOD);
  /* Rows for what is in sight, not for every event. */
  g_assert_cmpuint (count_rows (GTK_WIDGET (list_view)), >, 0);
  g_assert_cmpuint (count_rows (GTK_WIDGET (list_view)), <, 500);
  g_assert_true (paddock_timeline_view_get_following (PADDOCK_TIMELINE_VIEW (view)));
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list_view));
  g_assert_true (wait_for (at_end, list_view, "the view at the end"));

  /* Scrolled up, it stays put as rows come. */
  gtk_adjustment_set_value (adjustment, 0);
  g_assert_false (paddock_timeline_view_get_following (PADDOCK_TIMELINE_VIEW (view)));
  {
    g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_EXEC);

    message->seq = N_FLOOD + 1;
    message->time = 1700000000000000;
    message->pid = 7;
    message->ppid = 999;
    message->exe = g_strdup ("/usr/bin/true");
    message->path = g_strdup ("/usr/bin/true");
    message->argv = g_strdupv ((char *[]) { "true", NULL });
    message->argc = 1;
    message->decision = PADDOCK_DECISION_ALLOW;
    message->by = g_strdup ("rule");
    paddock_timeline_add_message (timeline, message);
  }
  drain ();
  g_assert_false (at_end (list_view));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <, 1.0);
  /* Back at the end, it follows again. */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  g_assert_true (paddock_timeline_view_get_following (PADDOCK_TIMELINE_VIEW (view)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static PaddockMessage *
net_message_new (const char      *host,
                 const char      *kind,
                 PaddockDecision  decision)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_NET);

  message->time = g_get_real_time ();
  message->host = g_strdup (host);
  message->port = 443;
  message->id = -1;
  message->pid = 140;
  message->exe = g_strdup ("/usr/bin/curl");
  message->decision = decision;
  message->by = g_strdup ("rule");
  message->kind = g_strdup (kind);
  if (kind != NULL)
    {
      message->bytes_in = 2048;
      message->bytes_out = 100;
      message->duration = 1000;
    }
  return message;
}

/* The Network filter shows the connections alone, the search finds them
 * by host, and a row says the host, its port and, once it ended, the
 * bytes each way. */
static void
test_network_filter (void)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(PaddockMessage) exec = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  g_autoptr(PaddockMessage) api = net_message_new ("api.example.com", NULL, PADDOCK_DECISION_ALLOW);
  g_autoptr(PaddockMessage) api_end = net_message_new ("api.example.com", "end", PADDOCK_DECISION_ALLOW);
  g_autoptr(PaddockMessage) upload = net_message_new ("upload.example.net", NULL, PADDOCK_DECISION_DENY);
  GtkWidget *view;
  GtkWidget *window;
  GListModel *model;

  if (skip_without_display ())
    return;

  exec->seq = 1;
  exec->time = g_get_real_time ();
  exec->pid = 139;
  exec->ppid = 1;
  exec->cwd = g_strdup ("/");
  exec->exe = g_strdup ("/usr/bin/curl");
  exec->path = g_strdup ("/usr/bin/curl");
  exec->argv = g_strsplit ("curl https://api.example.com/", " ", -1);
  exec->argc = 2;
  exec->decision = PADDOCK_DECISION_ALLOW;
  exec->by = g_strdup ("default");
  paddock_timeline_add_message (timeline, exec);
  paddock_timeline_add_message (timeline, api);
  paddock_timeline_add_message (timeline, upload);
  paddock_timeline_add_message (timeline, api_end);

  window = gtk_window_new ();
  view = paddock_timeline_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), view);
  paddock_timeline_view_set_timeline (PADDOCK_TIMELINE_VIEW (view), timeline);
  gtk_window_present (GTK_WINDOW (window));
  model = paddock_timeline_view_get_model (PADDOCK_TIMELINE_VIEW (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);

  paddock_timeline_view_set_filter (PADDOCK_TIMELINE_VIEW (view), PADDOCK_TIMELINE_FILTER_NETWORK);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (model, i);

      g_assert_cmpint (paddock_timeline_event_get_kind (event), ==, PADDOCK_TIMELINE_EVENT_NET);
    }
  {
    /* In the words and units of the locale's g_format_size(). */
    g_autofree char *in = g_format_size (2048);
    g_autofree char *out = g_format_size (100);
    g_autofree char *line = g_strdup_printf ("connect api.example.com:443, %s in, %s out", in, out);
    LabelWait row = { view, line };
    LabelWait denied = { view, "connect upload.example.net:443" };

    g_assert_true (wait_for (label_shown, &row, "the connection's row"));
    g_assert_true (wait_for (label_shown, &denied, "the refused connection's row"));
  }

  /* The search finds a connection by its host; the exec whose command
   * line names it is not shown under the Network filter. */
  paddock_timeline_view_set_search (PADDOCK_TIMELINE_VIEW (view), "upload.example");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  paddock_timeline_view_set_search (PADDOCK_TIMELINE_VIEW (view), "api.example");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  paddock_timeline_view_set_filter (PADDOCK_TIMELINE_VIEW (view), PADDOCK_TIMELINE_FILTER_ALL);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  paddock_timeline_view_set_filter (PADDOCK_TIMELINE_VIEW (view), PADDOCK_TIMELINE_FILTER_DENIED);
  paddock_timeline_view_set_search (PADDOCK_TIMELINE_VIEW (view), NULL);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* A tab asks with a notification where its window is not active. */
  if (have_display)
    serve_notifications ();

  g_test_add_func ("/paddock/window-timeline/rows-in-order", test_rows_in_order);
  g_test_add_func ("/paddock/window-timeline/asked-rows", test_asked_rows);
  g_test_add_func ("/paddock/window-timeline/tabs-apart-and-toggle", test_tabs_apart_and_toggle);
  g_test_add_func ("/paddock/window-timeline/folded-hidden", test_folded_hidden);
  g_test_add_func ("/paddock/window-timeline/home-rows", test_home_rows);
  g_test_add_func ("/paddock/window-timeline/network-filter", test_network_filter);
  g_test_add_func ("/paddock/window-timeline/always-deny", test_always_deny);
  g_test_add_func ("/paddock/window-timeline/always-allow-undo", test_always_allow_undo);
  g_test_add_func ("/paddock/window-timeline/always-deny-locked", test_always_deny_locked);
  g_test_add_func ("/paddock/window-timeline/flood", test_flood);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
