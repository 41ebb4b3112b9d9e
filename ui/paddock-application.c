/* paddock-application.c: the Paddock application: command line, windows, app actions
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-application.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>

#include "paddock-escape.h"
#include "paddock-preferences-window.h"
#include "paddock-project.h"
#include "paddock-session-page.h"
#include "paddock-settings.h"
#include "paddock-window.h"

#define EXIT_USAGE 2

struct _PaddockApplication
{
  AdwApplication  parent_instance;

  int             exit_status;
};

G_DEFINE_FINAL_TYPE (PaddockApplication, paddock_application, ADW_TYPE_APPLICATION)

static GOptionContext *
create_option_context (gboolean  *version,
                       char    ***directories)
{
  GOptionContext *context;
  const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, version,
      N_("Show the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, directories,
      NULL, NULL },
    { NULL }
  };

  /* TRANSLATORS: the argument in "paddock [OPTION…] [DIR]"; keep DIR as is */
  context = g_option_context_new (_("[DIR]"));
  g_option_context_set_summary (context,
                                _("Opens the project folder DIR (default: the current directory) "
                                  "in a Paddock window."));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  return context;
}

static int
usage_error (GOptionContext *context,
             const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("paddock: %s\n\n%s", message, help);
  return EXIT_USAGE;
}

/* Checks the command line in the invoking process, so that a usage error
 * exits 2 with the usage (GApplication would exit 1 with only the message),
 * and resolves DIR against this process's current directory before it is
 * handed, possibly, to an instance already running elsewhere. */
static gboolean
paddock_application_local_command_line (GApplication   *app,
                                        char         ***arguments,
                                        int            *exit_status)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) directories = NULL;
  gboolean version = FALSE;
  g_autofree char *cwd = NULL;
  g_autofree char *directory = NULL;
  char **forwarded;

  context = create_option_context (&version, &directories);
  args = g_strdupv (*arguments);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      *exit_status = usage_error (context, error->message);
      return TRUE;
    }

  if (version)
    {
      g_print ("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
      *exit_status = EXIT_SUCCESS;
      return TRUE;
    }

  if (directories != NULL && g_strv_length (directories) > 1)
    {
      *exit_status = usage_error (context, _("Only one DIR may be given"));
      return TRUE;
    }

  cwd = g_get_current_dir ();
  if (directories == NULL || directories[0] == NULL)
    directory = g_strdup (cwd);
  else if (g_path_is_absolute (directories[0]))
    directory = g_strdup (directories[0]);
  else
    directory = g_build_filename (cwd, directories[0], NULL);

  forwarded = g_new0 (char *, 3);
  forwarded[0] = g_strdup ((*arguments)[0] != NULL ? (*arguments)[0] : PACKAGE_NAME);
  forwarded[1] = g_steal_pointer (&directory);
  g_strfreev (*arguments);
  *arguments = forwarded;

  return G_APPLICATION_CLASS (paddock_application_parent_class)->local_command_line (app, arguments, exit_status);
}

static int
paddock_application_command_line (GApplication            *app,
                                  GApplicationCommandLine *command_line)
{
  PaddockApplication *self = PADDOCK_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) arguments = NULL;
  g_autofree char *directory = NULL;
  GtkWindow *window;
  int argc;

  arguments = g_application_command_line_get_arguments (command_line, &argc);
  if (argc >= 2)
    directory = g_strdup (arguments[1]);
  else
    directory = g_strdup (g_application_command_line_get_cwd (command_line));
  if (directory == NULL)
    directory = g_get_current_dir ();

  window = paddock_application_open_directory (self, directory, &error);

  if (error == NULL)
    return EXIT_SUCCESS;

  {
    /* The folder's name may be anything (an agent's clone). */
    g_autofree char *shown = paddock_escape_controls (error->message);

    g_application_command_line_printerr (command_line, "paddock: %s\n", shown);
  }
  g_application_command_line_set_exit_status (command_line, EXIT_FAILURE);

  /* A remote invoker waits until its command line object is released, so
   * keep it until the window that shows the error goes away; the local one
   * reports through paddock_application_get_exit_status(). */
  if (g_application_command_line_get_is_remote (command_line))
    g_object_set_data_full (G_OBJECT (window), "paddock-command-line",
                            g_object_ref (command_line), g_object_unref);
  else
    self->exit_status = EXIT_FAILURE;

  return EXIT_FAILURE;
}

static void
paddock_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window != NULL)
    gtk_window_present (window);
  else
    paddock_application_open_directory (PADDOCK_APPLICATION (app), g_get_home_dir (), NULL);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  PaddockApplication *self = user_data;
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  PaddockProject *project = NULL;
  PaddockWindow *window;

  if (PADDOCK_IS_WINDOW (active))
    project = paddock_window_get_project (PADDOCK_WINDOW (active));

  if (project == NULL)
    {
      paddock_application_open_directory (self, g_get_home_dir (), NULL);
      return;
    }

  window = paddock_window_new (self);
  paddock_window_add_session (window, project);
  gtk_window_present (GTK_WINDOW (window));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  PaddockApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *developers[] = { _("The Paddock authors"), NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", TRUE,
                        "application-icon", APPLICATION_ID,
                        "application-name", _("Paddock"),
                        "developer-name", _("The Paddock authors"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Run coding agents in real terminals and watch what they do"),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Paddock authors",
                        "developers", developers,
                        /* TRANSLATORS: your name(s), one per line, to credit yourself */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (paddock_preferences_window_new (parent)));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* Close each window as the user would, so that each saves its state. */
  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);

  g_list_free_full (windows, g_object_unref);
}

/* The tab whose session has the id @session_id, in any window; NULL when
 * none has (it ended and its tab closed, or it never was). */
static PaddockSessionPage *
find_session (PaddockApplication *self,
              const char         *session_id)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      AdwTabView *tab_view;
      int n_pages;

      if (!PADDOCK_IS_WINDOW (l->data))
        continue;
      tab_view = paddock_window_get_tab_view (l->data);
      n_pages = adw_tab_view_get_n_pages (tab_view);
      for (int i = 0; i < n_pages; i++)
        {
          GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, i));
          PaddockClient *client;

          if (!PADDOCK_IS_SESSION_PAGE (child))
            continue;
          client = paddock_session_page_get_client (PADDOCK_SESSION_PAGE (child));
          if (client != NULL && g_strcmp0 (paddock_client_get_session_id (client), session_id) == 0)
            return PADDOCK_SESSION_PAGE (child);
        }
    }
  return NULL;
}

/* app.decide (session id, ask id, "allow" or "deny"): answers an ask from
 * anywhere, a notification's buttons included. What names nothing that
 * waits (a session gone, an ask decided meanwhile) is ignored. */
static void
decide_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  PaddockApplication *self = user_data;
  PaddockSessionPage *page;
  PaddockDecision decision = PADDOCK_DECISION_NONE;
  const char *session_id;
  const char *answer;
  gint64 ask_id;

  g_variant_get (parameter, "(&sx&s)", &session_id, &ask_id, &answer);
  if (!paddock_decision_from_string (answer, &decision) ||
      (decision != PADDOCK_DECISION_ALLOW && decision != PADDOCK_DECISION_DENY))
    {
      g_debug ("app.decide: \"%s\" is neither allow nor deny", answer);
      return;
    }
  page = find_session (self, session_id);
  if (page == NULL)
    {
      g_debug ("app.decide: no tab follows session %s", session_id);
      return;
    }
  if (!paddock_session_page_decide (page, ask_id, decision, PADDOCK_REMEMBER_ONCE))
    g_debug ("app.decide: ask %" G_GINT64_FORMAT " of session %s does not wait", ask_id, session_id);
}

/* app.show-session (session id): brings its tab forward. */
static void
show_session_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  PaddockApplication *self = user_data;
  const char *session_id = g_variant_get_string (parameter, NULL);
  PaddockSessionPage *page = find_session (self, session_id);
  AdwTabView *tab_view;
  GtkRoot *root;

  if (page == NULL)
    {
      g_debug ("app.show-session: no tab follows session %s", session_id);
      return;
    }
  tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
  adw_tab_view_set_selected_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (page)));
  root = gtk_widget_get_root (GTK_WIDGET (page));
  if (GTK_IS_WINDOW (root))
    gtk_window_present (GTK_WINDOW (root));
  gtk_widget_grab_focus (GTK_WIDGET (page));
}

static const GActionEntry app_actions[] = {
  { "new-window", new_window_action },
  { "decide", decide_action, "(sxs)" },
  { "show-session", show_session_action, "s" },
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

/* The style key's choices as libadwaita's colour schemes. */
static gboolean
style_to_color_scheme (GValue   *value,
                       GVariant *variant,
                       gpointer  user_data)
{
  const char *style = g_variant_get_string (variant, NULL);

  if (g_str_equal (style, "light"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_str_equal (style, "dark"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    g_value_set_enum (value, ADW_COLOR_SCHEME_DEFAULT);
  return TRUE;
}

static void
paddock_application_startup (GApplication *app)
{
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.new-window", { "<Control><Shift>n", NULL } },
    { "window.close", { "<Control><Shift>q", NULL } },
    { "win.new-tab", { "<Control><Shift>t", NULL } },
    { "win.close-tab", { "<Control><Shift>w", NULL } },
    { "win.next-tab", { "<Control>Page_Down", NULL } },
    { "win.previous-tab", { "<Control>Page_Up", NULL } },
    { "win.toggle-timeline", { "F9", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
  };
  g_autoptr(GSettings) settings = NULL;

  G_APPLICATION_CLASS (paddock_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app),
                                           accels[i].action, accels[i].accels);

  gtk_window_set_default_icon_name (APPLICATION_ID);

  /* Light or dark as the preferences say; the terminals follow the style. */
  settings = paddock_settings_new ();
  if (settings != NULL)
    g_settings_bind_with_mapping (settings, "style", adw_style_manager_get_default (), "color-scheme",
                                  G_SETTINGS_BIND_GET, style_to_color_scheme, NULL, NULL, NULL);
}

static void
paddock_application_class_init (PaddockApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->local_command_line = paddock_application_local_command_line;
  app_class->command_line = paddock_application_command_line;
  app_class->activate = paddock_application_activate;
  app_class->startup = paddock_application_startup;
}

static void
paddock_application_init (PaddockApplication *self)
{
}

/**
 * paddock_application_new:
 * @application_id: the application id, normally %APPLICATION_ID
 * @flags: extra flags, such as %G_APPLICATION_NON_UNIQUE for tests
 *
 * Returns: (transfer full): a new application that handles its command line
 */
PaddockApplication *
paddock_application_new (const char        *application_id,
                         GApplicationFlags  flags)
{
  g_return_val_if_fail (g_application_id_is_valid (application_id), NULL);

  return g_object_new (PADDOCK_TYPE_APPLICATION,
                       "application-id", application_id,
                       "flags", flags | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/org/paddock/Paddock",
                       NULL);
}

/**
 * paddock_application_open_directory:
 * @self: the application
 * @directory: the project folder
 * @error: return location for the reason @directory cannot be opened
 *
 * Opens a window on @directory with a session in its first tab. When the
 * folder cannot be opened the window still opens, showing why, and @error
 * is set so that the caller can also report it and fail.
 *
 * Returns: (transfer none): the new window, already presented
 */
GtkWindow *
paddock_application_open_directory (PaddockApplication  *self,
                                    const char          *directory,
                                    GError             **error)
{
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(GError) local_error = NULL;
  PaddockWindow *window;

  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  window = paddock_window_new (self);
  project = paddock_project_new_for_path (directory, &local_error);

  if (project != NULL)
    paddock_window_add_session (window, project);
  else
    paddock_window_show_error (window, directory, local_error);

  gtk_window_present (GTK_WINDOW (window));

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return GTK_WINDOW (window);
}

/* EXIT_FAILURE when a window opened by the local command line could not open
 * its project, EXIT_SUCCESS otherwise. */
int
paddock_application_get_exit_status (PaddockApplication *self)
{
  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), EXIT_FAILURE);

  return self->exit_status;
}
