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

#include "paddock-agent.h"
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
  GSettings      *settings;
  GHashTable     *projects;       /* path -> PaddockProject: one object per folder */
  guint           save_id;        /* the idle saving the open sessions */
  gboolean        keep_sessions;  /* quitting: what is open stays saved */
};

G_DEFINE_FINAL_TYPE (PaddockApplication, paddock_application, ADW_TYPE_APPLICATION)

/* What the command line asks for. */
typedef struct
{
  gboolean  version;
  gboolean  lock;
  gboolean  no_lock;
  char     *agent;
  GStrv     directories;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->agent);
  g_strfreev (options->directories);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static GOptionContext *
create_option_context (Options *options)
{
  GOptionContext *context;
  const GOptionEntry entries[] = {
    { "agent", 'a', 0, G_OPTION_ARG_STRING, &options->agent,
      N_("Run the agent NAME: claude, codex, gemini, opencode, aider or shell"), N_("NAME") },
    { "lock", 0, 0, G_OPTION_ARG_NONE, &options->lock,
      N_("Run the session under the folder lock"), NULL },
    { "no-lock", 0, 0, G_OPTION_ARG_NONE, &options->no_lock,
      N_("Run the session without the folder lock"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &options->version,
      N_("Show the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &options->directories,
      NULL, NULL },
    { NULL }
  };

  /* TRANSLATORS: the arguments in "paddock [OPTION…] [DIR] [-- COMMAND…]"; keep DIR and COMMAND as they are */
  context = g_option_context_new (_("[DIR] [-- COMMAND…]"));
  g_option_context_set_summary (context,
                                _("Opens a session in the project folder DIR (default: the current directory) "
                                  "in the running Paddock, or starts it. The session runs the agent NAME, "
                                  "COMMAND, or else the default agent; locked as --lock or --no-lock says, "
                                  "else as the project’s saved choice."));
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

/* Splits @arguments at the first "--": what follows is the command. */
static GStrv
split_command (char **arguments)
{
  for (guint i = 1; arguments[i] != NULL; i++)
    if (g_str_equal (arguments[i], "--"))
      {
        GStrv command = g_strdupv (arguments + i + 1);

        for (guint j = i; arguments[j] != NULL; j++)
          g_clear_pointer (&arguments[j], g_free);
        return command;
      }
  return NULL;
}

/* Checks the command line in the invoking process, so that a usage error
 * exits 2 with the usage (GApplication would exit 1 with only the message),
 * and resolves DIR against this process's current directory before it is
 * handed, possibly, to an instance already running elsewhere: as
 * [argv0, DIR, AGENT or "", "lock" or "no-lock" or "", COMMAND…]. */
static gboolean
paddock_application_local_command_line (GApplication   *app,
                                        char         ***arguments,
                                        int            *exit_status)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) command = NULL;
  g_auto(Options) options = { 0 };
  g_autoptr(PaddockAgent) agent = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *directory = NULL;
  g_autoptr(GStrvBuilder) forwarded = g_strv_builder_new ();

  context = create_option_context (&options);
  args = g_strdupv (*arguments);
  command = split_command (args);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      *exit_status = usage_error (context, error->message);
      return TRUE;
    }

  if (options.version)
    {
      g_print ("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
      *exit_status = EXIT_SUCCESS;
      return TRUE;
    }

  if (options.directories != NULL && g_strv_length (options.directories) > 1)
    {
      *exit_status = usage_error (context, _("Only one DIR may be given"));
      return TRUE;
    }
  if (options.lock && options.no_lock)
    {
      *exit_status = usage_error (context, _("--lock and --no-lock cannot both be given"));
      return TRUE;
    }
  if (command != NULL && command[0] == NULL)
    g_clear_pointer (&command, g_strfreev);
  if (command != NULL && options.agent != NULL)
    {
      *exit_status = usage_error (context, _("--agent and a COMMAND cannot both be given"));
      return TRUE;
    }
  if (options.agent != NULL && (agent = paddock_agent_lookup (options.agent, &error)) == NULL)
    {
      *exit_status = usage_error (context, error->message);
      return TRUE;
    }

  /* No DIR: "", for the sessions saved at the last quit, else the
   * current directory (the invoking one, which the remote end knows). */
  cwd = g_get_current_dir ();
  if (options.directories == NULL || options.directories[0] == NULL)
    directory = g_strdup ("");
  else if (g_path_is_absolute (options.directories[0]))
    directory = g_strdup (options.directories[0]);
  else
    directory = g_build_filename (cwd, options.directories[0], NULL);

  g_strv_builder_add (forwarded, (*arguments)[0] != NULL ? (*arguments)[0] : PACKAGE_NAME);
  g_strv_builder_add (forwarded, directory);
  g_strv_builder_add (forwarded, options.agent != NULL ? options.agent : "");
  g_strv_builder_add (forwarded, options.lock ? "lock" : options.no_lock ? "no-lock" : "");
  if (command != NULL)
    g_strv_builder_addv (forwarded, (const char **) command);
  g_strfreev (*arguments);
  *arguments = g_strv_builder_end (forwarded);

  return G_APPLICATION_CLASS (paddock_application_parent_class)->local_command_line (app, arguments, exit_status);
}

/* The agent a forwarded command line names: NULL for the default one. */
static PaddockAgent *
agent_from_arguments (PaddockApplication  *self,
                      char               **arguments,
                      int                  argc,
                      GError             **error)
{
  g_autofree char *fallback = NULL;

  if (argc > 4)
    return paddock_agent_new_command ((const char * const *) arguments + 4);
  if (argc > 2 && *arguments[2] != '\0')
    return paddock_agent_lookup (arguments[2], error);
  fallback = paddock_settings_dup_default_agent (self->settings);
  return paddock_agent_lookup (fallback, error);
}

static PaddockLockChoice
lock_choice_from_argument (const char *argument)
{
  if (g_strcmp0 (argument, "lock") == 0)
    return PADDOCK_LOCK_CHOICE_LOCK;
  if (g_strcmp0 (argument, "no-lock") == 0)
    return PADDOCK_LOCK_CHOICE_NO_LOCK;
  return PADDOCK_LOCK_CHOICE_PROJECT;
}

/* A bare `paddock`: no DIR, agent, lock or command. */
static gboolean
asks_for_nothing (char **arguments,
                  int    argc)
{
  for (int i = 1; i < argc; i++)
    if (*arguments[i] != '\0')
      return FALSE;
  return TRUE;
}

/* Opens what a command line asks for: in the running instance's window,
 * after the sessions saved at the last quit when this is the first. */
static int
paddock_application_command_line (GApplication            *app,
                                  GApplicationCommandLine *command_line)
{
  PaddockApplication *self = PADDOCK_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockAgent) agent = NULL;
  g_auto(GStrv) arguments = NULL;
  g_autofree char *directory = NULL;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  gboolean restored = FALSE;
  int argc;

  arguments = g_application_command_line_get_arguments (command_line, &argc);
  if (window == NULL)
    restored = paddock_application_restore_sessions (self) > 0;
  if (argc >= 2 && *arguments[1] != '\0')
    directory = g_strdup (arguments[1]);
  else if (restored && asks_for_nothing (arguments, argc))
    return EXIT_SUCCESS;
  else
    directory = g_strdup (g_application_command_line_get_cwd (command_line));
  if (directory == NULL)
    directory = g_get_current_dir ();

  agent = agent_from_arguments (self, arguments, argc, &error);
  if (agent != NULL)
    window = paddock_application_open_session (self, gtk_application_get_active_window (GTK_APPLICATION (app)),
                                               directory, agent,
                                               lock_choice_from_argument (argc > 3 ? arguments[3] : NULL),
                                               &error);
  else
    window = paddock_application_open_session (self, NULL, directory, NULL, PADDOCK_LOCK_CHOICE_PROJECT, NULL);

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

/* Launched from the desktop, or activated over D-Bus: the sessions saved
 * at the last quit, else a window to start one from. */
static void
paddock_application_activate (GApplication *app)
{
  PaddockApplication *self = PADDOCK_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window != NULL)
    gtk_window_present (window);
  else if (paddock_application_restore_sessions (self) == 0)
    gtk_window_present (GTK_WINDOW (paddock_window_new (self)));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  PaddockApplication *self = user_data;
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  PaddockSessionPage *session = NULL;
  PaddockWindow *window = paddock_window_new (self);

  /* Another of the selected tab's session, as a new tab would be; else
   * a window to start one from. */
  if (PADDOCK_IS_WINDOW (active))
    session = paddock_window_get_selected_session (PADDOCK_WINDOW (active));
  if (session != NULL)
    paddock_window_add_session (window, paddock_session_page_get_project (session),
                                paddock_session_page_get_agent (session),
                                paddock_session_page_get_lock_choice (session));
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

  /* What is open now comes back at the next start. */
  paddock_application_keep_sessions (PADDOCK_APPLICATION (app));
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
  PaddockRemember remember = PADDOCK_REMEMBER_ONCE;
  const PaddockMessage *ask;
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
  /* An Allow lasts as the bar's does: a home folder read's for the session. */
  ask = paddock_approval_bar_get_ask (paddock_session_page_get_approval_bar (page), ask_id);
  if (ask != NULL && decision == PADDOCK_DECISION_ALLOW)
    remember = paddock_approval_bar_allow_lasts (ask);
  if (!paddock_session_page_decide (page, ask_id, decision, remember))
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
    { "win.new-session", { "<Control><Shift>t", NULL } },
    { "win.new-tab", { "<Control><Shift><Alt>t", NULL } },
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
paddock_application_finalize (GObject *object)
{
  PaddockApplication *self = PADDOCK_APPLICATION (object);

  g_clear_handle_id (&self->save_id, g_source_remove);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->projects, g_hash_table_unref);

  G_OBJECT_CLASS (paddock_application_parent_class)->finalize (object);
}

static void
paddock_application_class_init (PaddockApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = paddock_application_finalize;

  app_class->local_command_line = paddock_application_local_command_line;
  app_class->command_line = paddock_application_command_line;
  app_class->activate = paddock_application_activate;
  app_class->startup = paddock_application_startup;
}

static void
paddock_application_init (PaddockApplication *self)
{
  self->settings = paddock_settings_new ();
  self->projects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
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
 * paddock_application_lookup_project:
 * @self: the application
 * @directory: a project folder
 * @error: return location for why @directory cannot be a project
 *
 * The one #PaddockProject for @directory: every tab in that folder shares
 * it, so that its lock choice, changed in one window, shows in all.
 *
 * Returns: (transfer full) (nullable): the project
 */
PaddockProject *
paddock_application_lookup_project (PaddockApplication  *self,
                                    const char          *directory,
                                    GError             **error)
{
  g_autoptr(PaddockProject) project = NULL;
  PaddockProject *known;

  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (directory != NULL, NULL);

  project = paddock_project_new_for_path (directory, error);
  if (project == NULL)
    return NULL;
  known = g_hash_table_lookup (self->projects, paddock_project_get_path (project));
  if (known != NULL)
    return g_object_ref (known);
  g_hash_table_insert (self->projects, g_strdup (paddock_project_get_path (project)), g_object_ref (project));
  return g_steal_pointer (&project);
}

/**
 * paddock_application_open_session:
 * @self: the application
 * @window: (nullable): the window to open it in; %NULL for a new one
 * @directory: the project folder
 * @agent: (nullable): what the session runs; %NULL for the user's shell
 * @lock_choice: whether it runs locked, or as the project's saved choice says
 * @error: return location for the reason @directory cannot be opened
 *
 * Opens a tab with a session of @agent in @directory. When the folder
 * cannot be opened, a new window opens showing why (or @window shows it,
 * when it has no tabs), and @error is set so that the caller can also
 * report it and fail.
 *
 * Returns: (transfer none): the window, already presented
 */
GtkWindow *
paddock_application_open_session (PaddockApplication  *self,
                                  GtkWindow           *window,
                                  const char          *directory,
                                  PaddockAgent        *agent,
                                  PaddockLockChoice    lock_choice,
                                  GError             **error)
{
  g_autoptr(PaddockProject) project = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (window == NULL || PADDOCK_IS_WINDOW (window), NULL);
  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  project = paddock_application_lookup_project (self, directory, &local_error);
  if (window == NULL ||
      (project == NULL && adw_tab_view_get_n_pages (paddock_window_get_tab_view (PADDOCK_WINDOW (window))) > 0))
    window = GTK_WINDOW (paddock_window_new (self));

  if (project != NULL)
    paddock_window_add_session (PADDOCK_WINDOW (window), project, agent, lock_choice);
  else
    paddock_window_show_error (PADDOCK_WINDOW (window), directory, local_error);

  gtk_window_present (window);

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return window;
}

/**
 * paddock_application_open_directory:
 * @self: the application
 * @directory: the project folder
 * @error: return location for the reason @directory cannot be opened
 *
 * Opens a new window on @directory with a session of the user's shell in
 * its first tab, locked as the project's saved choice says; see
 * paddock_application_open_session().
 *
 * Returns: (transfer none): the new window, already presented
 */
GtkWindow *
paddock_application_open_directory (PaddockApplication  *self,
                                    const char          *directory,
                                    GError             **error)
{
  return paddock_application_open_session (self, NULL, directory, NULL, PADDOCK_LOCK_CHOICE_PROJECT, error);
}

static GVariant *
describe_session (guint               window_index,
                  PaddockSessionPage *session)
{
  PaddockAgent *agent = paddock_session_page_get_agent (session);
  const char * const *command = paddock_agent_get_command (agent);
  const char * const none[] = { NULL };

  return g_variant_new ("(uss^asi)", window_index,
                        paddock_project_get_path (paddock_session_page_get_project (session)),
                        paddock_agent_get_id (agent),
                        command != NULL ? command : none,
                        (gint32) paddock_session_page_get_lock_choice (session));
}

static gboolean
save_sessions (gpointer data)
{
  PaddockApplication *self = data;
  GVariantBuilder builder;
  guint window_index = 0;

  self->save_id = 0;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ussasi)"));
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      AdwTabView *tab_view;

      if (!PADDOCK_IS_WINDOW (l->data))
        continue;
      tab_view = paddock_window_get_tab_view (l->data);
      for (int i = 0; i < adw_tab_view_get_n_pages (tab_view); i++)
        g_variant_builder_add_value (&builder,
                                     describe_session (window_index,
                                                       PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, i)))));
      window_index++;
    }
  g_settings_set_value (self->settings, "sessions", g_variant_builder_end (&builder));
  return G_SOURCE_REMOVE;
}

/**
 * paddock_application_sessions_changed:
 * @self: the application
 *
 * A tab opened or closed: what is open is saved, to come back at the next
 * start, unless the application is quitting (then what was open stays).
 */
void
paddock_application_sessions_changed (PaddockApplication *self)
{
  g_return_if_fail (PADDOCK_IS_APPLICATION (self));

  if (self->settings == NULL || self->keep_sessions || self->save_id != 0)
    return;
  self->save_id = g_idle_add (save_sessions, self);
}

/**
 * paddock_application_keep_sessions:
 * @self: the application
 *
 * The application is about to quit (its last window closes): the sessions
 * open now are the ones the next start brings back, not the none left
 * once the windows are gone.
 */
void
paddock_application_keep_sessions (PaddockApplication *self)
{
  g_return_if_fail (PADDOCK_IS_APPLICATION (self));

  if (self->settings == NULL || self->keep_sessions)
    return;
  g_clear_handle_id (&self->save_id, g_source_remove);
  save_sessions (self);
  self->keep_sessions = TRUE;
}

/* Opens one saved session in @windows' window @window_index; a project or
 * agent gone since shows in its window in words. */
static void
restore_session (PaddockApplication *self,
                 GPtrArray          *windows,
                 GVariant           *saved)
{
  g_autoptr(PaddockAgent) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **command = NULL;
  const char *directory, *agent_id;
  guint32 window_index;
  gint32 lock_choice;
  GtkWindow *window;

  g_variant_get (saved, "(u&s&s^a&si)", &window_index, &directory, &agent_id, &command, &lock_choice);
  agent = paddock_agent_new_saved (agent_id, command, &error);
  if (agent == NULL)
    {
      g_warning ("Cannot restore a session in %s: %s", directory, error->message);
      return;
    }
  if (lock_choice < PADDOCK_LOCK_CHOICE_PROJECT || lock_choice > PADDOCK_LOCK_CHOICE_NO_LOCK)
    lock_choice = PADDOCK_LOCK_CHOICE_PROJECT;
  window = window_index < windows->len ? g_ptr_array_index (windows, window_index) : NULL;
  window = paddock_application_open_session (self, window, directory, agent, lock_choice, NULL);
  while (windows->len <= window_index)
    g_ptr_array_add (windows, window);
}

/**
 * paddock_application_restore_sessions:
 * @self: the application
 *
 * Opens again the sessions that were open when the application last quit,
 * in as many windows, when the "restore-sessions" setting says to.
 *
 * Returns: how many sessions it opened
 */
guint
paddock_application_restore_sessions (PaddockApplication *self)
{
  g_autoptr(GVariant) sessions = NULL;
  g_autoptr(GPtrArray) windows = g_ptr_array_new ();
  gsize n;

  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), 0);

  if (self->settings == NULL || !g_settings_get_boolean (self->settings, "restore-sessions"))
    return 0;
  sessions = g_settings_get_value (self->settings, "sessions");
  n = g_variant_n_children (sessions);
  self->keep_sessions = FALSE;
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) saved = g_variant_get_child_value (sessions, i);

      restore_session (self, windows, saved);
    }
  return n;
}

/* EXIT_FAILURE when a window opened by the local command line could not open
 * its project, EXIT_SUCCESS otherwise. */
int
paddock_application_get_exit_status (PaddockApplication *self)
{
  g_return_val_if_fail (PADDOCK_IS_APPLICATION (self), EXIT_FAILURE);

  return self->exit_status;
}
