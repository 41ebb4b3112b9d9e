/* test-window-util.h: what the window's test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test_window_init() gives each program a private home, a folder for the
 * lock's tests outside every grant, the display and a notification server
 * of its own on the test's private bus; the helpers run the main context
 * until what they wait for happens (WAIT_SECONDS at most).
 */
#pragma once

#include <adwaita.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-client.h"
#include "paddock-session-page.h"

G_BEGIN_DECLS

#define WAIT_SECONDS 30

typedef gboolean (*Condition) (gpointer data);

/* A notification server of our own on the test's private bus, which
 * keeps what it is asked to show and to close. */
typedef struct
{
  guint32   id;
  char     *summary;
  char     *body;
  char    **actions;
  gboolean  closed;
} Notification;

typedef struct
{
  GtkWidget  *root;
  const char *needle;
} LabelWait;

typedef struct
{
  VteTerminal *terminal;
  const char  *needle;
} TextWait;

typedef struct
{
  AdwTabView *tab_view;
  const char *title;
} TitleWait;

typedef struct
{
  PaddockSessionPage *page;
  guint               n;
} WaitingWait;

typedef struct
{
  gboolean saw_error_page;
  gboolean saw_terminal;
} RunCheck;

typedef struct
{
  GtkWidget  *root;
  const char *title;
} StatusWait;

typedef struct
{
  const char *project;
  int         choice;
} SavedWait;

typedef struct
{
  GObject  *object;
  gboolean  value;
} LockWait;

typedef struct
{
  const char       *heading;
  AdwMessageDialog *dialog;
} DialogWait;

extern gboolean have_display;
/* Outside /tmp, which the folder lock grants: what "outside" means for it. */
extern char *lock_base;

/* Notification*, what the tests' notification server was asked to show. */
extern GPtrArray *notifications;

/* Owns org.freedesktop.Notifications on the test's bus, and keeps what it
 * is asked to show in notifications; fails the program where another owns it. */
void serve_notifications (void);

/* The last notification whose body is @body, or NULL. */
Notification *find_notification (const char *body);

gboolean notification_sent (gpointer data);

gboolean notification_closed (gpointer data);

/* Runs the main context until @condition holds; FALSE after WAIT_SECONDS. */
gboolean wait_for (Condition condition, gpointer data, const char *what);

gboolean skip_without_display (void);

PaddockApplication *create_application (void);

GtkWidget *find_descendant (GtkWidget *widget, GType type, gboolean mapped_only);

GtkWidget *find_button_for_action (GtkWidget *widget, const char *action);

gboolean find_label_containing (GtkWidget *widget, const char *needle);

gboolean label_shown (gpointer data);

gboolean terminal_shows (gpointer data);

gboolean terminal_has_prompt (gpointer data);

void assert_terminal_shows (VteTerminal *terminal, const char *needle);

void feed (VteTerminal *terminal, const char *line);

gboolean session_running (gpointer data);

gboolean session_stopped (gpointer data);

gboolean process_gone (gpointer data);

gboolean flag_set (gpointer data);

void set_flag (gboolean *flag);

/* Lets the main loop run for @ms: for what must not happen meanwhile, or
 * an animation to finish. */
void run_main_loop_for (guint ms);

gboolean tab_title_is (gpointer data);

/* Opens a window on @dir and waits for its first session's shell prompt. */
GtkWindow *open_session (PaddockApplication *app, const char *dir, VteTerminal **terminal_out, PaddockSessionPage **page_out);

char *make_project_dir (void);

void destroy_windows (PaddockApplication *app);

gboolean lock_reported (gpointer data);

/* What @page's session said of its lock, over the window's connection. */
void assert_reported_lock (PaddockSessionPage *page, gboolean locked);

void keep_ask_cb (PaddockClient *client, const PaddockMessage *message, PaddockMessage **ask);

gboolean message_kept (gpointer data);

void assert_terminal_lacks (VteTerminal *terminal, const char *needle);

gboolean ask_shown (gpointer data);

gboolean no_ask_shown (gpointer data);

gboolean n_waiting_is (gpointer data);

/* Runs @command in @page's shell, waits for the approval bar to show
 * it, and returns the ask shown. */
const PaddockMessage *run_asked (PaddockSessionPage *page, VteTerminal *terminal, const char *command);

/* Nothing paddock-run says about asks lands in the terminal. */
void assert_runner_quiet (VteTerminal *terminal);

void activate_decide (PaddockApplication *app, const char *session_id, gint64 ask_id, const char *answer);

gboolean widget_mapped (gpointer data);

void assert_error_window (GtkWindow *window, const char *path, int saved_errno);

gboolean close_window (gpointer data);

void window_mapped_cb (GtkWidget *window, RunCheck *check);

void window_added_cb (GtkApplication *app, GtkWindow *window, RunCheck *check);

/* Runs the application as main() does, closing each window once it shows. */
int run_command_line (const char *dir, RunCheck *check);

gboolean status_page_shown (gpointer data);

char *make_lock_dir (const char *name);

gboolean skip_without_lock_base (void);

/* paddock-run's command line, from the kernel's record of it. */
char **runner_cmdline (PaddockSessionPage *page);

void assert_runner_lock_flag (PaddockSessionPage *page, const char *flag, const char *not_flag);

/* -1 nothing saved, else the saved choice. */
int saved_lock (const char *project);

gboolean lock_saved_as (gpointer data);

gboolean window_lock_is (gpointer data);

const char *indicator_icon_name (PaddockSessionPage *page);

/* Opens a new tab with win.new-tab and waits for its shell's prompt. */
PaddockSessionPage *open_tab (GtkWindow *window);

gboolean tab_busy (gpointer data);
gboolean tab_runs_sleep (gpointer data);

/* A message dialog with @heading is showing: one answered a moment ago
 * may still be there until it is gone. */
gboolean dialog_shown (gpointer data);

int n_pages_of (GtkWindow *window);

gboolean one_page_left (gpointer data);

gboolean terminal_shows_either (gpointer data);

/* Has the tab's shell write @name in @dir; returns whether the file appeared,
 * after checking the shell saw the same. */
gboolean tab_writes (PaddockSessionPage *page, const char *dir, const char *name);

/* The home folder cannot be locked to (paddock-run refuses it): the
 * switch is off and insensitive, and the popover says why. */
/* Opens a window on @project, which cannot be locked to: the switch is
 * off and insensitive, its popover says each of @because, and no choice
 * is saved. */
void assert_cannot_lock (const char *project, const char * const *because);

void run_paddock (const char * const *args, int *exit_status, char **out, char **err);

void test_window_init    (int    *argc,
                          char ***argv);
void test_window_cleanup (void);

G_END_DECLS
