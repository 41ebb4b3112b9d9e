/* test-window-dbus.c: app.decide and app.show-session, called over D-Bus by another connection
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A notification's buttons reach the application as org.gtk.Actions.Activate
 * on its object path, from the notification server's connection, not from
 * inside the process: so does every call here, on a connection of its own
 * to the test's private bus, to an application that owns its name there.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <vte/vte.h>

#include "paddock-application.h"
#include "paddock-session-page.h"
#include "paddock-window.h"
#include "test-util.h"
#include "test-window-util.h"

typedef struct
{
  GVariant *reply;
  GError   *error;
  gboolean  done;
} Call;

typedef struct
{
  GtkWindow          *window;
  PaddockSessionPage *page;
  VteTerminal        *terminal;
  char               *dir;
  char               *session_id;
} Session;

static void
call_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Call *call = data;

  call->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &call->error);
  call->done = TRUE;
}

/* A connection of its own to the test's bus, as a notification server has. */
static GDBusConnection *
connect_to_bus (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  GDBusConnection *bus;

  g_assert_no_error (error);
  bus = g_dbus_connection_new_for_address_sync (address,
                                                G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                NULL, NULL, &error);
  g_assert_no_error (error);
  return bus;
}

/* Calls org.gtk.Actions.Activate (@action, [@parameter]) on @app's name
 * and path from @bus, and waits for the reply, which the application
 * sends from this thread's main context. Returns the error, if any. */
static GError *
activate_over_bus (GDBusConnection    *bus,
                   PaddockApplication *app,
                   const char         *action,
                   GVariant           *parameter)
{
  GVariantBuilder parameters;
  Call call = { 0 };

  g_variant_builder_init (&parameters, G_VARIANT_TYPE ("av"));
  if (parameter != NULL)
    g_variant_builder_add (&parameters, "v", parameter);
  g_dbus_connection_call (bus,
                          g_application_get_application_id (G_APPLICATION (app)),
                          g_application_get_dbus_object_path (G_APPLICATION (app)),
                          "org.gtk.Actions", "Activate",
                          g_variant_new ("(sava{sv})", action, &parameters, NULL),
                          NULL, G_DBUS_CALL_FLAGS_NONE, WAIT_SECONDS * 1000, NULL, call_cb, &call);
  g_assert_true (wait_for (flag_set, &call.done, "the reply to Activate"));
  g_clear_pointer (&call.reply, g_variant_unref);
  return call.error;
}

static void
decide_over_bus (GDBusConnection    *bus,
                 PaddockApplication *app,
                 const char         *session_id,
                 gint64              ask_id,
                 const char         *answer)
{
  g_autoptr(GError) error = activate_over_bus (bus, app, "decide",
                                               g_variant_new ("(sxs)", session_id, ask_id, answer));

  g_assert_no_error (error);
}

static void
open_project (PaddockApplication *app,
              Session            *session)
{
  session->dir = make_project_dir ();
  session->window = open_session (app, session->dir, &session->terminal, &session->page);
  g_assert_true (wait_for (lock_reported, session->page, "the session's hello"));
  session->session_id = g_strdup (paddock_client_get_session_id (paddock_session_page_get_client (session->page)));
  g_assert_nonnull (session->session_id);
}

static void
session_clear (Session *session)
{
  g_rmdir (session->dir);
  g_clear_pointer (&session->dir, g_free);
  g_clear_pointer (&session->session_id, g_free);
}

static gint64
current_ask (PaddockSessionPage *page)
{
  const PaddockMessage *ask = paddock_approval_bar_get_current (paddock_session_page_get_approval_bar (page));

  return ask != NULL ? ask->id : -1;
}

static gboolean
is_selected (PaddockSessionPage *page)
{
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));

  return adw_tab_view_get_selected_page (tab_view) == adw_tab_view_get_page (tab_view, GTK_WIDGET (page));
}

/* Two projects, each with a command waiting: each answer over the bus
 * reaches its own session's ask and no other; what names nothing waiting
 * changes nothing; app.show-session selects the session's tab. */
static void
test_decide_over_bus (void)
{
  g_autoptr(PaddockApplication) app = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *app_id = NULL;
  Session first = { 0 }, second = { 0 };
  PaddockSessionPage *other_tab;
  gint64 first_ask, second_ask;

  if (skip_without_display ())
    return;

  /* Unique, so that it owns its name on the bus as the real one does. */
  app_id = g_strdup_printf ("%s.TestDBus%d", APPLICATION_ID, (int) getpid ());
  app = paddock_application_new (app_id, G_APPLICATION_DEFAULT_FLAGS);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  bus = connect_to_bus ();
  g_assert_true (bus != g_application_get_dbus_connection (G_APPLICATION (app)));

  open_project (app, &first);
  open_project (app, &second);
  g_assert_true (first.window != second.window);
  g_assert_cmpstr (first.session_id, !=, second.session_id);

  first_ask = run_asked (first.page, first.terminal, "git push --force over-bus-one main")->id;
  second_ask = run_asked (second.page, second.terminal, "git push --force over-bus-two main")->id;

  /* What names nothing waiting is ignored: an unknown session, an unknown
   * ask, an answer that is neither allow nor deny, the other session's
   * ask id, a parameter of the wrong type, an action that does not exist. */
  decide_over_bus (bus, app, "no-such-session", second_ask, "allow");
  decide_over_bus (bus, app, "", second_ask, "allow");
  decide_over_bus (bus, app, second.session_id, first_ask + second_ask + 1000, "allow");
  decide_over_bus (bus, app, second.session_id, -1, "allow");
  decide_over_bus (bus, app, second.session_id, second_ask, "maybe");
  decide_over_bus (bus, app, second.session_id, second_ask, "");
  decide_over_bus (bus, app, second.session_id, second_ask, "ALLOW");
  if (first_ask != second_ask)
    decide_over_bus (bus, app, second.session_id, first_ask, "allow");
  {
    g_autoptr(GError) wrong_type = activate_over_bus (bus, app, "decide", g_variant_new_string (second.session_id));
    g_autoptr(GError) no_parameter = activate_over_bus (bus, app, "decide", NULL);
    g_autoptr(GError) no_action = activate_over_bus (bus, app, "no-such-action", NULL);

    /* Refused by GApplication before the action sees them. */
    g_assert_nonnull (wrong_type);
    g_assert_nonnull (no_parameter);
    g_assert_nonnull (no_action);
  }
  g_assert_cmpint (current_ask (first.page), ==, first_ask);
  g_assert_cmpint (current_ask (second.page), ==, second_ask);
  assert_terminal_lacks (first.terminal, "status=1");
  assert_terminal_lacks (second.terminal, "status=1");

  /* The second session's ask, allowed: git runs there (and fails outside
   * a repository); the first session's still waits. */
  decide_over_bus (bus, app, second.session_id, second_ask, "allow");
  assert_terminal_shows (second.terminal, "status=128.");
  g_assert_true (wait_for (no_ask_shown, second.page, "the second bar to empty"));
  g_assert_cmpint (current_ask (first.page), ==, first_ask);
  assert_terminal_lacks (first.terminal, "status=1");

  /* Decided already: a second answer changes nothing. */
  decide_over_bus (bus, app, second.session_id, second_ask, "deny");
  g_assert_cmpint (current_ask (first.page), ==, first_ask);

  /* The first's, denied. */
  decide_over_bus (bus, app, first.session_id, first_ask, "deny");
  assert_terminal_shows (first.terminal, "status=126.");
  g_assert_true (wait_for (no_ask_shown, first.page, "the first bar to empty"));
  assert_terminal_lacks (second.terminal, "status=126.");
  assert_runner_quiet (first.terminal);
  assert_runner_quiet (second.terminal);

  /* Another tab in the first window, selected: showing the first session
   * over the bus selects its tab again; an unknown one changes nothing. */
  other_tab = open_tab (first.window);
  g_assert_true (is_selected (other_tab));
  g_assert_false (is_selected (first.page));
  {
    g_autoptr(GError) unknown = activate_over_bus (bus, app, "show-session", g_variant_new_string ("no-such-session"));
    g_autoptr(GError) wrong_type = activate_over_bus (bus, app, "show-session", g_variant_new_int32 (1));

    g_assert_no_error (unknown);
    g_assert_nonnull (wrong_type);
  }
  g_assert_true (is_selected (other_tab));
  {
    g_autoptr(GError) shown = activate_over_bus (bus, app, "show-session", g_variant_new_string (first.session_id));

    g_assert_no_error (shown);
  }
  g_assert_true (is_selected (first.page));
  g_assert_false (is_selected (other_tab));
  g_assert_true (is_selected (second.page));

  /* All the while, the app went on: each tab still runs commands. */
  feed (first.terminal, "echo \"still-$((40 + 2))\"\n");
  feed (second.terminal, "echo \"still-$((40 + 3))\"\n");
  assert_terminal_shows (first.terminal, "still-42");
  assert_terminal_shows (second.terminal, "still-43");

  destroy_windows (app);
  session_clear (&first);
  session_clear (&second);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_window_init (&argc, &argv);
  /* A tab out of sight notifies of its ask; this program runs alone. */
  if (have_display)
    serve_notifications ();
  g_test_add_func ("/paddock/window-dbus/decide-over-bus", test_decide_over_bus);

  status = g_test_run ();
  test_window_cleanup ();
  return status;
}
