/* paddock-hosts-window.c: a project's allowed and denied hosts, for its network lock
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-hosts-window.h"

#include <glib/gi18n.h>

#include "paddock-escape.h"
#include "paddock-project-net.h"

struct _PaddockHostsWindow
{
  AdwWindow             parent_instance;

  /* owned references */
  PaddockProject       *project;
  GPtrArray            *rows;       /* GtkWidget*, the host rows shown, to take out on reload */

  /* template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwPreferencesGroup  *allow_group;
  AdwPreferencesGroup  *deny_group;
  AdwEntryRow          *allow_entry;
  AdwEntryRow          *deny_entry;
};

G_DEFINE_FINAL_TYPE (PaddockHostsWindow, paddock_hosts_window, ADW_TYPE_WINDOW)

static void
say (PaddockHostsWindow *self,
     const char         *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

static GtkWidget *
create_host_row (const char *host)
{
  g_autofree char *shown = paddock_escape_for_display (host, -1);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), shown);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  /* TRANSLATORS: tooltip of the button that takes a host out of the project's lists */
  gtk_widget_set_tooltip_text (remove, _("Remove"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "hosts.remove");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", host);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
  return row;
}

/* Shows the lists as the project's settings have them now. */
static void
reload (PaddockHostsWindow *self)
{
  g_autoptr(GError) error = NULL;
  PaddockProjectNet net = { 0 };

  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);
      GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);

      if (group != NULL)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->rows, 0);

  if (!paddock_project_net_load (paddock_project_get_path (self->project), &net, &error))
    {
      say (self, error->message);
      return;
    }
  for (guint i = 0; net.allow[i] != NULL; i++)
    {
      GtkWidget *row = create_host_row (net.allow[i]);

      adw_preferences_group_add (self->allow_group, row);
      g_ptr_array_add (self->rows, g_object_ref (row));
    }
  for (guint i = 0; net.deny[i] != NULL; i++)
    {
      GtkWidget *row = create_host_row (net.deny[i]);

      adw_preferences_group_add (self->deny_group, row);
      g_ptr_array_add (self->rows, g_object_ref (row));
    }
  paddock_project_net_clear (&net);
}

static void
add_host (PaddockHostsWindow *self,
          AdwEntryRow        *entry,
          const char         *list)
{
  g_autofree char *host = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
  g_autoptr(GError) error = NULL;

  if (!paddock_project_net_pattern_valid (host))
    {
      /* TRANSLATORS: a host typed in the hosts editor is not one, e.g. "a b" */
      g_autofree char *text = g_strdup_printf (_("“%s” is not a host name: example.org, *.example.org or "
                                                 "example.org:443"), host);

      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      say (self, text);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  if (!paddock_project_net_add_host (paddock_project_get_path (self->project), list, host, &error))
    {
      say (self, error->message);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  reload (self);
}

static void
allow_apply_cb (PaddockHostsWindow *self,
                AdwEntryRow        *entry)
{
  add_host (self, entry, "allow");
}

static void
deny_apply_cb (PaddockHostsWindow *self,
               AdwEntryRow        *entry)
{
  add_host (self, entry, "deny");
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PaddockHostsWindow *self = PADDOCK_HOSTS_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!paddock_project_net_remove_host (paddock_project_get_path (self->project),
                                        g_variant_get_string (parameter, NULL), &error))
    say (self, error->message);
  reload (self);
}

static void
paddock_hosts_window_dispose (GObject *object)
{
  PaddockHostsWindow *self = PADDOCK_HOSTS_WINDOW (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_HOSTS_WINDOW);
  g_clear_object (&self->project);

  G_OBJECT_CLASS (paddock_hosts_window_parent_class)->dispose (object);
}

static void
paddock_hosts_window_class_init (PaddockHostsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_hosts_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/paddock/Paddock/paddock-hosts-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockHostsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PaddockHostsWindow, allow_group);
  gtk_widget_class_bind_template_child (widget_class, PaddockHostsWindow, deny_group);
  gtk_widget_class_bind_template_child (widget_class, PaddockHostsWindow, allow_entry);
  gtk_widget_class_bind_template_child (widget_class, PaddockHostsWindow, deny_entry);
  gtk_widget_class_bind_template_callback (widget_class, allow_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, deny_apply_cb);
  gtk_widget_class_install_action (widget_class, "hosts.remove", "s", remove_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
paddock_hosts_window_init (PaddockHostsWindow *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * paddock_hosts_window_new:
 * @parent: the window it belongs to
 * @project: the project whose hosts it shows
 *
 * Returns: (transfer floating): the editor of @project's hosts
 */
GtkWidget *
paddock_hosts_window_new (GtkWindow      *parent,
                          PaddockProject *project)
{
  PaddockHostsWindow *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (PADDOCK_IS_PROJECT (project), NULL);

  self = g_object_new (PADDOCK_TYPE_HOSTS_WINDOW, "transient-for", parent, NULL);
  self->project = g_object_ref (project);
  /* TRANSLATORS: the hosts editor's title; %s is the project folder's name */
  title = g_strdup_printf (_("Hosts of %s"), paddock_project_get_name (project));
  gtk_window_set_title (GTK_WINDOW (self), title);
  reload (self);
  return GTK_WIDGET (self);
}
