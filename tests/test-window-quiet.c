/* test-window-quiet.c: with the window attached, nothing paddock-run says lands in the tab's terminal
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddock-run's stderr is the tab's pty: what it prints there lands in the
 * agent's terminal, among the agent's own output, and an agent reading its
 * screen takes it for its own. With the window attached over --control-fd,
 * the window says it instead: a note, a timeline row.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-project-store.h"
#include "paddock-session-page.h"
#include "paddock-timeline.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

typedef struct
{
  PaddockTimeline        *timeline;
  const char             *program;
  PaddockTimelineDecision decision;
} RowWait;

/* Each thing paddock-run can say while the agent runs, in its own words;
 * none of it may reach the terminal. */
static const char * const runner_words[] = {
  "paddock-run",
  "nobody is attached",
  "the project's rules",
  "cannot remember the decision",
  "needs an answer",
  "rule dd-to-device",
  "Writing to a device overwrites a disk",
  NULL
};

static void
assert_terminal_quiet (VteTerminal *terminal)
{
  for (guint i = 0; runner_words[i] != NULL; i++)
    assert_terminal_lacks (terminal, runner_words[i]);
}

static gboolean
row_is (gpointer data)
{
  RowWait *wait = data;
  GListModel *rows = G_LIST_MODEL (wait->timeline);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(PaddockTimelineEvent) event = g_list_model_get_item (rows, i);
      g_autofree char *program = paddock_timeline_event_dup_program (event);

      if (g_strcmp0 (program, wait->program) == 0 && paddock_timeline_event_get_decision (event) == wait->decision)
        return TRUE;
    }
  return FALSE;
}

static void
assert_row (PaddockSessionPage      *page,
            const char              *program,
            PaddockTimelineDecision  decision)
{
  RowWait wait = { paddock_session_page_get_timeline (page), program, decision };

  g_assert_true (wait_for (row_is, &wait, program));
}

/* A refusal by rule, asks answered each way, a shell's PATH retry, the
 * project's rules broken under a running session, and an answer the
 * project cannot remember: the window says each, the terminal none. */
static void
test_runner_quiet_while_attached (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *rules = NULL;
  g_autofree char *store = NULL;
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);

  /* Refused by a rule with a reason; the shell tries dd along its PATH,
   * once a directory: one note. */
  feed (terminal, "PATH=/usr/bin:/bin dd if=/dev/zero of=/dev/sdz count=0; echo \"status=$?.\"\n");
  assert_terminal_shows (terminal, "status=126.");
  {
    LabelWait note = { GTK_WIDGET (window), "dd was refused by rule “dd-to-device”" };

    g_assert_true (wait_for (label_shown, &note, "the note naming the rule"));
  }
  assert_row (page, "dd", PADDOCK_TIMELINE_DECISION_DENIED);
  assert_terminal_quiet (terminal);

  /* Asks, allowed and denied. */
  run_asked (page, terminal, "git push --force quiet-one main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow", NULL));
  assert_terminal_shows (terminal, "status=128.");
  run_asked (page, terminal, "git push --force quiet-two main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.deny", NULL));
  g_assert_true (wait_for (no_ask_shown, page, "the bar to empty"));
  assert_row (page, "git", PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED);
  assert_row (page, "git", PADDOCK_TIMELINE_DECISION_ASKED_DENIED);
  assert_terminal_quiet (terminal);

  /* The project's rules, broken while the session runs: it keeps the
   * rules it had, and the window says so. */
  store = paddock_project_store_dir ();
  g_assert_cmpint (g_mkdir_with_parents (store, 0700), ==, 0);
  rules = paddock_project_store_path (dir, ".json");
  g_assert_true (g_file_set_contents (rules, "{ not the project's rules", -1, NULL));
  {
    LabelWait note = { GTK_WIDGET (window), "The session says: the project's rules changed, and cannot be read" };

    g_assert_true (wait_for (label_shown, &note, "the note on the broken rules"));
  }
  assert_terminal_quiet (terminal);

  /* Allow Always cannot be saved in a file that does not parse: the
   * answer counts for the session, and the window says so. */
  run_asked (page, terminal, "git push --force quiet-three main");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.allow-always", NULL));
  feed (terminal, "echo \"after-$((1 + 2))\"\n");
  assert_terminal_shows (terminal, "after-3");
  {
    LabelWait note = { GTK_WIDGET (window), "The session says: cannot remember the decision for the project" };

    g_assert_true (wait_for (label_shown, &note, "the note on the answer not remembered"));
  }
  assert_terminal_quiet (terminal);

  destroy_windows (app);
  g_unlink (rules);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  g_test_add_func ("/paddock/window-quiet/runner-quiet-while-attached", test_runner_quiet_while_attached);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
