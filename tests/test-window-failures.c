/* test-window-failures.c: a tab whose session goes wrong says so in words; the rest of the app goes on
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case breaks one tab: its project folder gone, its agent not
 * installed, its paddock-run killed, garbage on its control socket, an
 * ask whose program is gone. Each then checks that the tab says what
 * happened in words, that another tab still runs commands, and that
 * nothing already logged is lost: the broken tab's timeline keeps its
 * rows, and its session's audit log still verifies.
 */

#include "config.h"

#include <adwaita.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-audit.h"
#include "paddock-project.h"
#include "paddock-session-page.h"
#include "paddock-timeline.h"
#include "paddock-window.h"
#include "paddock-xdg.h"
#include "test-util.h"
#include "test-window-util.h"

/* A tab in another window, on another project, that must keep working. */
typedef struct
{
  char               *dir;
  PaddockSessionPage *page;
  VteTerminal        *terminal;
  guint               n_checks;
} Bystander;

static void
bystander_open (PaddockApplication *app,
                Bystander          *bystander)
{
  bystander->dir = make_project_dir ();
  open_session (app, bystander->dir, &bystander->terminal, &bystander->page);
}

/* The other tab still runs a program, and its timeline shows it. */
static void
assert_bystander_works (Bystander *bystander)
{
  g_autofree char *line = g_strdup_printf ("/bin/echo \"bystander-$((%u + 1000))\"\n", bystander->n_checks);
  g_autofree char *shown = g_strdup_printf ("bystander-%u", bystander->n_checks + 1000);

  bystander->n_checks++;
  feed (bystander->terminal, line);
  assert_terminal_shows (bystander->terminal, shown);
  g_assert_true (paddock_session_page_get_running (bystander->page));
}

static void
bystander_clear (Bystander *bystander)
{
  g_rmdir (bystander->dir);
  g_clear_pointer (&bystander->dir, g_free);
}

static guint
n_rows (PaddockSessionPage *page)
{
  PaddockTimeline *timeline = paddock_session_page_get_timeline (page);

  return timeline != NULL ? g_list_model_get_n_items (G_LIST_MODEL (timeline)) : 0;
}

typedef struct
{
  PaddockSessionPage *page;
  guint               n;
} RowsWait;

static gboolean
has_rows (gpointer data)
{
  RowsWait *wait = data;

  return n_rows (wait->page) >= wait->n;
}

/* Runs /bin/true in @page until its timeline has a row for it; returns
 * how many rows it has. */
static guint
log_something (PaddockSessionPage *page,
               VteTerminal        *terminal)
{
  RowsWait wait = { page, 0 };

  wait.n = n_rows (page) + 1;
  feed (terminal, "/bin/true; echo \"logged-$((6 * 7))\"\n");
  assert_terminal_shows (terminal, "logged-42");
  g_assert_true (wait_for (has_rows, &wait, "the timeline's row"));
  return n_rows (page);
}

/* The session @session_id's audit log, written by its paddock-run, holds
 * an unbroken chain. */
static void
assert_audit_verifies (const char *session_id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  g_autofree char *ending = g_strdup_printf ("-%s.jsonl", session_id);
  g_autofree char *path = NULL;
  g_autoptr(GDir) logs = g_dir_open (folder, 0, &error);
  PaddockAuditVerification result = { 0 };
  const char *name;

  g_assert_no_error (error);
  /* Named by when it started, then by the session. */
  while ((name = g_dir_read_name (logs)) != NULL)
    if (g_str_has_prefix (name, "session-") && g_str_has_suffix (name, ending))
      {
        g_assert_null (path);
        path = g_build_filename (folder, name, NULL);
      }
  g_assert_nonnull (path);
  g_assert_true (paddock_audit_verify_file (path, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.bad_line, ==, 0);
  g_assert_cmpuint (result.n_records, >, 1);
  paddock_audit_verification_clear (&result);
}

static char *
session_id_of (PaddockSessionPage *page)
{
  g_assert_true (wait_for (lock_reported, page, "the session's hello"));
  return g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (page)));
}

static void
print_labels (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    g_test_message ("label: %s", gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    print_labels (child);
}

static void
assert_says (GtkWidget  *root,
             const char *words)
{
  LabelWait wait = { root, words };

  if (!wait_for (label_shown, &wait, words))
    {
      print_labels (root);
      g_assert_not_reached ();
    }
}

/* The project's folder, removed after the window opened on it: Restart,
 * and a new tab, say the folder is gone, not only that something failed. */
static void
test_project_vanished (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *session_id = NULL;
  Bystander bystander = { 0 };
  PaddockSessionPage *page, *new_page;
  VteTerminal *terminal;
  GtkWindow *window;
  AdwTabView *tab_view;
  guint rows;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  bystander_open (app, &bystander);
  session_id = session_id_of (page);
  rows = log_something (page, terminal);

  /* The session ends with a failure, which keeps its tab; then the folder goes. */
  feed (terminal, "exit 3\n");
  g_assert_true (wait_for (session_stopped, page, "the session to end"));
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "session.restart", NULL));
  g_assert_true (wait_for (session_stopped, page, "the restart to fail"));
  assert_says (GTK_WIDGET (page), "no longer exists");
  assert_says (GTK_WIDGET (page), dir);
  /* The ended session's timeline stays in view (its end added), and its
   * log verifies. */
  g_assert_cmpuint (n_rows (page), >, rows);
  assert_audit_verifies (session_id);

  /* A new tab on the vanished folder says the same. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  new_page = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (new_page != page);
  g_assert_true (wait_for (session_stopped, new_page, "the new tab to fail"));
  assert_says (GTK_WIDGET (new_page), "no longer exists");

  assert_bystander_works (&bystander);

  destroy_windows (app);
  bystander_clear (&bystander);
}

/* The agent's program is not installed: the tab says so in words, not
 * with a bare exit status. */
static void
test_agent_not_installed (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(PaddockAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  const char * const command[] = { "paddock-test-no-such-agent", "--yes", NULL };
  Bystander bystander = { 0 };
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GtkWindow *window;
  AdwTabView *tab_view;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  bystander_open (app, &bystander);

  project = paddock_project_new_for_path (dir, &error);
  g_assert_no_error (error);
  agent = paddock_agent_new_command (command);
  page = paddock_session_page_new (project, agent, PADDOCK_LOCK_CHOICE_PROJECT);
  adw_tab_view_set_selected_page (tab_view, adw_tab_view_append (tab_view, GTK_WIDGET (page)));
  paddock_session_page_start (page);
  g_assert_true (wait_for (session_stopped, page, "the agent's session to end"));
  /* Looked for before paddock-run starts, and said in words. */
  assert_says (GTK_WIDGET (page), "Cannot find the program “paddock-test-no-such-agent”");
  g_assert_false (find_label_containing (GTK_WIDGET (page), "status 127"));
  /* It never started: no connection to have lost. */
  g_assert_false (find_label_containing (GTK_WIDGET (window), "lost its connection"));

  assert_bystander_works (&bystander);
  feed (terminal, "echo \"first-$((2 + 2))\"\n");
  assert_terminal_shows (terminal, "first-4");

  destroy_windows (app);
  bystander_clear (&bystander);
  g_rmdir (dir);
}

/* paddock-run killed: the tab says its supervisor ended and what that
 * means for the agent; the other tab goes on. */
static void
test_runner_killed (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *session_id = NULL;
  Bystander bystander = { 0 };
  PaddockSessionPage *page;
  VteTerminal *terminal;
  GPid runner;
  guint rows;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  bystander_open (app, &bystander);
  session_id = session_id_of (page);
  rows = log_something (page, terminal);
  runner = paddock_session_page_get_runner_pid (page);

  g_assert_cmpint (kill (runner, SIGKILL), ==, 0);
  g_assert_true (wait_for (session_stopped, page, "the tab to see paddock-run end"));
  g_assert_true (wait_for (process_gone, GINT_TO_POINTER (runner), "paddock-run to be reaped"));
  assert_says (GTK_WIDGET (page), "paddock-run was killed by signal 9");
  assert_says (GTK_WIDGET (page), "the agent is no longer supervised, every program it starts now fails");
  g_assert_cmpuint (n_rows (page), ==, rows);
  assert_audit_verifies (session_id);

  assert_bystander_works (&bystander);

  destroy_windows (app);
  bystander_clear (&bystander);
  g_rmdir (dir);
}

/* A paddock-run that greets the window, then sends it @garbage and hangs
 * up on it, and runs a shell in the tab as the real one would. */
static char *
write_fake_runner (const char *dir,
                   const char *garbage)
{
  g_autofree char *script = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "fake-paddock-run", NULL);

  script = g_strdup_printf ("#!/bin/sh\n"
                            "printf '{\"type\":\"hello\",\"version\":1,\"session\":\"fake00000001\","
                            "\"project\":\"%%s\",\"command\":[\"sh\"],\"agent_pid\":%%d,"
                            "\"lock\":\"off\",\"network\":\"off\",\"features\":[]}\\n' \"$PWD\" $$ >&3\n"
                            "printf '%%s\\n' '%s' >&3\n"
                            "exec 3>&-\n"
                            "exec /bin/sh\n",
                            garbage);
  g_file_set_contents (path, script, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0700), ==, 0);
  return path;
}

static gboolean
client_closed (gpointer data)
{
  PaddockClient *client = paddock_session_page_get_client (PADDOCK_SESSION_PAGE (data));

  return client == NULL || paddock_client_get_closed (client);
}

/* Garbage on the control socket is skipped, and the tab says so; the
 * connection then broken, the tab says that too. The app goes on. */
static void
test_garbage_on_control_socket (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *fakes = NULL;
  g_autofree char *runner = NULL;
  g_autofree char *session_id = NULL;
  Bystander bystander = { 0 };
  PaddockSessionPage *page, *fake;
  VteTerminal *terminal;
  GtkWindow *window;
  AdwTabView *tab_view;
  guint rows;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  fakes = make_project_dir ();
  runner = write_fake_runner (fakes, "{\"type\": \x01garbage");
  window = open_session (app, dir, &terminal, &page);
  tab_view = paddock_window_get_tab_view (PADDOCK_WINDOW (window));
  bystander_open (app, &bystander);
  session_id = session_id_of (page);
  rows = log_something (page, terminal);

  g_setenv ("PADDOCK_RUN", runner, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  g_unsetenv ("PADDOCK_RUN");
  fake = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_selected_page (tab_view)));
  g_assert_true (fake != page);
  g_assert_true (wait_for (session_running, fake, "the fake paddock-run"));
  assert_says (GTK_WIDGET (window), "could not read a message from the session’s supervisor");
  g_assert_true (wait_for (client_closed, fake, "the connection to break"));
  assert_says (GTK_WIDGET (window), "lost its connection to the session’s supervisor");
  /* The fake's shell still runs in its tab. */
  feed (paddock_session_page_get_terminal (fake), "echo \"fake-$((5 * 5))\"\n");
  assert_terminal_shows (paddock_session_page_get_terminal (fake), "fake-25");

  /* The real tabs go on, and lost nothing. */
  assert_bystander_works (&bystander);
  g_assert_cmpuint (n_rows (page), ==, rows);
  g_assert_cmpuint (log_something (page, terminal), >, rows);
  assert_audit_verifies (session_id);

  destroy_windows (app);
  bystander_clear (&bystander);
  g_unlink (runner);
  g_rmdir (fakes);
  g_rmdir (dir);
}

/* The program that waits for an answer is killed: its ask leaves the bar. */
static void
test_asking_process_gone (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *session_id = NULL;
  Bystander bystander = { 0 };
  PaddockSessionPage *page;
  VteTerminal *terminal;
  const PaddockMessage *ask;
  guint rows;

  if (skip_without_display ())
    return;

  app = create_application ();
  dir = make_project_dir ();
  open_session (app, dir, &terminal, &page);
  bystander_open (app, &bystander);
  session_id = session_id_of (page);
  rows = log_something (page, terminal);

  ask = run_asked (page, terminal, "git push --force gone main");
  g_assert_cmpint (ask->pid, >, 0);
  g_assert_cmpint (kill (ask->pid, SIGKILL), ==, 0);
  g_assert_true (wait_for (no_ask_shown, page, "the ask to leave the bar"));
  assert_terminal_shows (terminal, "status=137.");
  g_assert_cmpuint (n_rows (page), >, rows);
  assert_runner_quiet (terminal);

  assert_bystander_works (&bystander);
  g_assert_cmpuint (log_something (page, terminal), >, rows);
  assert_audit_verifies (session_id);

  destroy_windows (app);
  bystander_clear (&bystander);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* Tabs out of sight notify of their asks; this program runs alone. */
  if (have_display)
    serve_notifications ();
  g_test_add_func ("/paddock/window-failures/project-vanished", test_project_vanished);
  g_test_add_func ("/paddock/window-failures/agent-not-installed", test_agent_not_installed);
  g_test_add_func ("/paddock/window-failures/runner-killed", test_runner_killed);
  g_test_add_func ("/paddock/window-failures/garbage-on-control-socket", test_garbage_on_control_socket);
  g_test_add_func ("/paddock/window-failures/asking-process-gone", test_asking_process_gone);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
