/* bench-startup-floor.c: the least a terminal app with tabs can be, for bench-startup's floor
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-startup-floor [--supervised] FOLDER: a window with an AdwTabBar
 * and an AdwTabView, one bare VteTerminal per tab running $SHELL in
 * FOLDER; Ctrl+Shift+T opens a tab.
 * Nothing else: no header bar, timeline, approval bar or client. With
 * --supervised each tab's shell runs under paddock-run (from
 * $PADDOCK_RUN, unlocked), as a Paddock tab's does, so that the two
 * floors side by side say what the supervisor process costs alone.
 */
#include "config.h"

#include <adwaita.h>
#include <vte/vte.h>

static gboolean supervised;
static const char *folder;

static void
add_tab (AdwTabView *tab_view)
{
  const char *shell = g_getenv ("SHELL") != NULL ? g_getenv ("SHELL") : "/bin/sh";
  const char *runner = g_getenv ("PADDOCK_RUN");
  GtkWidget *terminal = vte_terminal_new ();
  const char *plain[] = { shell, NULL };
  const char *wrapped[] = { runner, "--project", folder, "--no-lock", "--", shell, NULL };

  adw_tab_view_set_selected_page (tab_view, adw_tab_view_append (tab_view, terminal));
  vte_terminal_spawn_async (VTE_TERMINAL (terminal), VTE_PTY_DEFAULT, folder,
                            (char **) (supervised ? wrapped : plain), NULL,
                            G_SPAWN_DEFAULT, NULL, NULL, NULL, -1, NULL, NULL, NULL);
}

static gboolean
new_tab_cb (GtkWidget *widget,
            GVariant  *args,
            gpointer   user_data)
{
  add_tab (ADW_TAB_VIEW (user_data));
  return TRUE;
}

static void
activate_cb (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  AdwTabView *tab_view = adw_tab_view_new ();
  AdwTabBar *tab_bar = adw_tab_bar_new ();
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  adw_tab_bar_set_view (tab_bar, tab_view);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (tab_bar));
  gtk_widget_set_vexpand (GTK_WIDGET (tab_view), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (tab_view));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);

  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control><Shift>t"),
                                                          gtk_callback_action_new (new_tab_cb, tab_view, NULL)));
  gtk_widget_add_controller (window, shortcuts);

  add_tab (tab_view);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = NULL;

  supervised = argc > 2 && g_strcmp0 (argv[1], "--supervised") == 0;
  if (argc < 2 + supervised)
    {
      g_printerr ("Usage: bench-startup-floor [--supervised] FOLDER\n");
      return 2;
    }
  folder = argv[1 + supervised];
  if (supervised && g_getenv ("PADDOCK_RUN") == NULL)
    {
      g_printerr ("bench-startup-floor: --supervised needs PADDOCK_RUN, the paddock-run to use\n");
      return 2;
    }
  app = adw_application_new ("org.paddock.BenchFloor", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), 1, argv);
}
