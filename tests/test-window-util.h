/* test-window-util.h: what the window's test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In-process GTK tests on the display the runner starts (Xvfb): they wait
 * on the main context for the event they need, never on a sleep.
 */
#pragma once

#include <adwaita.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-session-page.h"

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

/* Notifications the tests' own server was asked to show. */
extern GPtrArray *notifications;
/* Set by main(): whether GTK could open the display. */
extern gboolean have_display;
/* Counts the applications made, for their ids. */
extern guint app_serial;

void serve_notifications (void);
Notification *find_notification (const char *body);
gboolean notification_sent (gpointer data);
gboolean notification_closed (gpointer data);
gboolean wait_for (Condition   condition,
                   gpointer    data,
                   const char *what);
gboolean skip_without_display (void);
PaddockApplication *create_application (void);
GtkWidget *find_descendant (GtkWidget *widget,
                            GType      type,
                            gboolean   mapped_only);
gboolean find_label_containing (GtkWidget  *widget,
                                const char *needle);
gboolean label_shown (gpointer data);
gboolean terminal_shows (gpointer data);
gboolean terminal_has_prompt (gpointer data);
void assert_terminal_shows (VteTerminal *terminal,
                            const char  *needle);
void feed (VteTerminal *terminal,
           const char  *line);
gboolean session_running (gpointer data);
gboolean session_stopped (gpointer data);
gboolean process_gone (gpointer data);
gboolean flag_set (gpointer data);
void set_flag (gboolean *flag);
gboolean tab_title_is (gpointer data);
GtkWindow *open_session (PaddockApplication  *app,
                         const char          *dir,
                         VteTerminal        **terminal_out,
                         PaddockSessionPage **page_out);
char *make_project_dir (void);
void destroy_windows (PaddockApplication *app);
