/* paddock-window.c: a Paddock window: a project's sessions in tabs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-window.h"

#include <glib/gi18n.h>
#include <sys/wait.h>

#include "paddock-settings.h"

struct _PaddockWindow
{
  AdwApplicationWindow  parent_instance;

  PaddockProject       *project;
  GSettings            *settings;
  gboolean              closing;

  GtkStack             *stack;
  AdwWindowTitle       *window_title;
  GtkButton            *new_tab_button;
  AdwTabView           *tab_view;
  AdwStatusPage        *error_page;
};

enum {
  PROP_0,
  PROP_PROJECT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockWindow, paddock_window, ADW_TYPE_APPLICATION_WINDOW)

static PaddockSessionPage *
get_selected_session (PaddockWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page == NULL)
    return NULL;

  return PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));
}

static void
update_actions (PaddockWindow *self)
{
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;
  gboolean several = adw_tab_view_get_n_pages (self->tab_view) > 1;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-tab", self->project != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", has_pages);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.next-tab", several);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.previous-tab", several);
}

static void
set_project (PaddockWindow  *self,
             PaddockProject *project)
{
  if (g_set_object (&self->project, project))
    {
      update_actions (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECT]);
    }
}

static void
update_title (PaddockWindow *self)
{
  PaddockSessionPage *session = get_selected_session (self);
  g_autofree char *subtitle = NULL;
  const char *title;

  if (session == NULL)
    return;

  title = paddock_session_page_get_title (session);
  subtitle = paddock_project_dup_display_path (paddock_session_page_get_project (session));

  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
session_title_cb (PaddockWindow      *self,
                  GParamSpec         *pspec,
                  PaddockSessionPage *session)
{
  if (session == get_selected_session (self))
    update_title (self);
}

static void
session_exited_cb (PaddockWindow      *self,
                   int                 wait_status,
                   PaddockSessionPage *session)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (session));

  if (page == NULL)
    return;

  /* A clean exit is the user leaving the shell: the tab goes, as in any
   * terminal. Anything else stays open to show what happened, and flags a
   * tab in the background. */
  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0)
    adw_tab_view_close_page (self->tab_view, page);
  else if (page != adw_tab_view_get_selected_page (self->tab_view))
    adw_tab_page_set_needs_attention (page, TRUE);
}

static void
page_attached_cb (PaddockWindow *self,
                  AdwTabPage    *page,
                  int            position,
                  AdwTabView    *tab_view)
{
  PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));

  if (self->project == NULL)
    set_project (self, paddock_session_page_get_project (session));

  g_object_bind_property (session, "title", page, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (session, "title", page, "tooltip", G_BINDING_SYNC_CREATE);

  g_signal_connect_object (session, "notify::title",
                           G_CALLBACK (session_title_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "exited",
                           G_CALLBACK (session_exited_cb), self, G_CONNECT_SWAPPED);
}

static void
page_detached_cb (PaddockWindow *self,
                  AdwTabPage    *page,
                  int            position,
                  AdwTabView    *tab_view)
{
  g_signal_handlers_disconnect_by_data (adw_tab_page_get_child (page), self);
}

static void
selected_page_cb (PaddockWindow *self,
                  GParamSpec    *pspec,
                  AdwTabView    *tab_view)
{
  PaddockSessionPage *session = get_selected_session (self);

  if (session == NULL)
    return;

  adw_tab_page_set_needs_attention (adw_tab_view_get_selected_page (tab_view), FALSE);
  update_title (self);
  gtk_widget_grab_focus (GTK_WIDGET (session));
}

static void
n_pages_cb (PaddockWindow *self,
            GParamSpec    *pspec,
            AdwTabView    *tab_view)
{
  update_actions (self);

  if (adw_tab_view_get_n_pages (tab_view) == 0 && !self->closing)
    gtk_window_close (GTK_WINDOW (self));
}

static AdwTabView *
create_window_cb (PaddockWindow *self,
                  AdwTabView    *tab_view)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  PaddockWindow *window = paddock_window_new (PADDOCK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));

  return window->tab_view;
}

static void
new_tab_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);

  if (self->project != NULL)
    paddock_window_add_session (self, self->project);
}

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

static void
switch_tab_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);

  if (g_str_equal (action_name, "win.next-tab"))
    {
      if (!adw_tab_view_select_next_page (self->tab_view))
        adw_tab_view_set_selected_page (self->tab_view, adw_tab_view_get_nth_page (self->tab_view, 0));
    }
  else
    {
      int last = adw_tab_view_get_n_pages (self->tab_view) - 1;

      if (!adw_tab_view_select_previous_page (self->tab_view) && last >= 0)
        adw_tab_view_set_selected_page (self->tab_view, adw_tab_view_get_nth_page (self->tab_view, last));
    }
}

static void
restore_window_state (PaddockWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);

  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
save_window_state (PaddockWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  /* The unmaximized size, so that unmaximizing next time restores it. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_apply (self->settings);
}

static gboolean
paddock_window_close_request (GtkWindow *window)
{
  PaddockWindow *self = PADDOCK_WINDOW (window);

  self->closing = TRUE;
  save_window_state (self);

  return GTK_WINDOW_CLASS (paddock_window_parent_class)->close_request (window);
}

static void
paddock_window_dispose (GObject *object)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  self->closing = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_WINDOW);

  G_OBJECT_CLASS (paddock_window_parent_class)->dispose (object);
}

static void
paddock_window_finalize (GObject *object)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  g_clear_object (&self->project);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (paddock_window_parent_class)->finalize (object);
}

static void
paddock_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_object (value, self->project);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_window_class_init (PaddockWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = paddock_window_dispose;
  object_class->finalize = paddock_window_finalize;
  object_class->get_property = paddock_window_get_property;

  window_class->close_request = paddock_window_close_request;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         PADDOCK_TYPE_PROJECT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PADDOCK_TYPE_SESSION_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, new_tab_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, error_page);
  gtk_widget_class_bind_template_callback (widget_class, selected_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, n_pages_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_attached_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_detached_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_window_cb);

  gtk_widget_class_install_action (widget_class, "win.new-tab", NULL, new_tab_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.next-tab", NULL, switch_tab_action);
  gtk_widget_class_install_action (widget_class, "win.previous-tab", NULL, switch_tab_action);
}

static void
paddock_window_init (PaddockWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = paddock_settings_new ();
  restore_window_state (self);
  update_actions (self);
}

PaddockWindow *
paddock_window_new (PaddockApplication *application)
{
  g_return_val_if_fail (PADDOCK_IS_APPLICATION (application), NULL);

  return g_object_new (PADDOCK_TYPE_WINDOW, "application", application, NULL);
}

/* The project the window's sessions run in, or NULL when it has none yet. */
PaddockProject *
paddock_window_get_project (PaddockWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);

  return self->project;
}

AdwTabView *
paddock_window_get_tab_view (PaddockWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);

  return self->tab_view;
}

/**
 * paddock_window_add_session:
 * @self: a window
 * @project: the project to run the session in
 *
 * Opens a new tab with a session of @project, selects it and starts it.
 *
 * Returns: (transfer none): the new session's page
 */
PaddockSessionPage *
paddock_window_add_session (PaddockWindow  *self,
                            PaddockProject *project)
{
  PaddockSessionPage *session;
  AdwTabPage *page;

  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);
  g_return_val_if_fail (PADDOCK_IS_PROJECT (project), NULL);

  set_project (self, project);
  gtk_stack_set_visible_child_name (self->stack, "sessions");

  session = paddock_session_page_new (project);
  page = adw_tab_view_append (self->tab_view, GTK_WIDGET (session));
  adw_tab_view_set_selected_page (self->tab_view, page);
  paddock_session_page_start (session);
  gtk_widget_grab_focus (GTK_WIDGET (session));

  return session;
}

/**
 * paddock_window_show_error:
 * @self: a window with no sessions
 * @directory: the folder that could not be opened
 * @error: why
 *
 * Shows, in place of the tabs, why @directory cannot be opened as a project.
 */
void
paddock_window_show_error (PaddockWindow *self,
                           const char    *directory,
                           const GError  *error)
{
  g_return_if_fail (PADDOCK_IS_WINDOW (self));
  g_return_if_fail (directory != NULL);
  g_return_if_fail (error != NULL);

  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  gtk_widget_set_visible (GTK_WIDGET (self->new_tab_button), FALSE);
  adw_window_title_set_subtitle (self->window_title, directory);
}
