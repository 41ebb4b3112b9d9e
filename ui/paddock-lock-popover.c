/* paddock-lock-popover.c: the padlock's popover: the project's locks, and what a lock protects here
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-lock-popover.h"

#include <glib/gi18n.h>

#include "paddock-project.h"

struct _PaddockLockRow
{
  GObject   parent_instance;

  char     *title;
  char     *detail;
  char    **paths;   /* a path list's, or NULL for a protection */
  gboolean  active;
};

G_DEFINE_FINAL_TYPE (PaddockLockRow, paddock_lock_row, G_TYPE_OBJECT)

static void
paddock_lock_row_finalize (GObject *object)
{
  PaddockLockRow *self = PADDOCK_LOCK_ROW (object);

  g_free (self->title);
  g_free (self->detail);
  g_strfreev (self->paths);

  G_OBJECT_CLASS (paddock_lock_row_parent_class)->finalize (object);
}

static void
paddock_lock_row_class_init (PaddockLockRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = paddock_lock_row_finalize;
}

static void
paddock_lock_row_init (PaddockLockRow *self)
{
}

static PaddockLockRow *
lock_row_new (const char         *title,
              const char         *detail,
              gboolean            active,
              const char * const *paths)
{
  PaddockLockRow *self = g_object_new (PADDOCK_TYPE_LOCK_ROW, NULL);

  self->title = g_strdup (title);
  self->detail = g_strdup (detail);
  self->active = active;
  self->paths = g_strdupv ((char **) paths);
  return self;
}

const char *
paddock_lock_row_get_title (PaddockLockRow *self)
{
  g_return_val_if_fail (PADDOCK_IS_LOCK_ROW (self), NULL);
  return self->title;
}

const char *
paddock_lock_row_get_detail (PaddockLockRow *self)
{
  g_return_val_if_fail (PADDOCK_IS_LOCK_ROW (self), NULL);
  return self->detail;
}

gboolean
paddock_lock_row_get_active (PaddockLockRow *self)
{
  g_return_val_if_fail (PADDOCK_IS_LOCK_ROW (self), FALSE);
  return self->active;
}

const char * const *
paddock_lock_row_get_paths (PaddockLockRow *self)
{
  g_return_val_if_fail (PADDOCK_IS_LOCK_ROW (self), NULL);
  return (const char * const *) self->paths;
}

struct _PaddockLockPopover
{
  GtkPopover   parent_instance;

  /* owned references */
  GListStore  *rows;   /* of PaddockLockRow */

  /* template widgets */
  GtkLabel    *lock_description;
  GtkWidget   *session_lock_box;
  GtkImage    *session_lock_icon;
  GtkLabel    *session_lock_label;
  GtkListBox  *protection_list;
  GtkLabel    *mechanism_label;
};

G_DEFINE_FINAL_TYPE (PaddockLockPopover, paddock_lock_popover, GTK_TYPE_POPOVER)

/* A protection: whether it holds here, and why not where it does not. */
static GtkWidget *
create_protection_widget (PaddockLockRow *row)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name (row->active ? "object-select-symbolic"
                                                              : "action-unavailable-symbolic");
  GtkWidget *title = gtk_label_new (row->title);

  gtk_widget_add_css_class (icon, row->active ? "success" : "warning");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  /* TRANSLATORS: the state of one protection of the lock, for a screen reader */
                                  row->active ? _("Protected") : _("Not protected"), -1);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_box_append (GTK_BOX (line), icon);
  gtk_box_append (GTK_BOX (line), title);
  gtk_box_append (GTK_BOX (box), line);

  /* Why something is not protected matters; how the rest is, is a tooltip.
   * At a fixed width in a horizontal box, as the popover's other wrapped
   * labels, so that it wraps at the width its height was measured for. */
  if (row->detail != NULL && !row->active)
    {
      GtkWidget *detail_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      GtkWidget *detail = gtk_label_new (row->detail);

      gtk_label_set_xalign (GTK_LABEL (detail), 0);
      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_label_set_width_chars (GTK_LABEL (detail), 36);
      gtk_label_set_max_width_chars (GTK_LABEL (detail), 36);
      gtk_widget_set_margin_start (detail_box, 24);
      gtk_widget_add_css_class (detail, "caption");
      gtk_widget_add_css_class (detail, "dim-label");
      gtk_box_append (GTK_BOX (detail_box), detail);
      gtk_box_append (GTK_BOX (box), detail_box);
    }
  else if (row->detail != NULL)
    gtk_widget_set_tooltip_text (box, row->detail);
  return box;
}

/* A list of paths, folded away under its title: they are long, and most
 * people look once. */
static GtkWidget *
create_path_list_widget (PaddockLockRow *row)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *expander;
  GtkWidget *label;

  for (guint i = 0; row->paths[i] != NULL; i++)
    {
      g_autofree char *shown = paddock_display_path (row->paths[i]);

      g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "", shown);
    }
  expander = gtk_expander_new (row->title);
  label = gtk_label_new (text->str);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 24);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_set_tooltip_text (expander, row->detail);
  gtk_expander_set_child (GTK_EXPANDER (expander), label);
  return expander;
}

static GtkWidget *
create_row_widget (gpointer item,
                   gpointer user_data)
{
  PaddockLockRow *row = item;
  GtkWidget *child = row->paths != NULL ? create_path_list_widget (row) : create_protection_widget (row);
  GtkWidget *list_row = gtk_list_box_row_new ();

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (list_row), child);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (list_row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (list_row), FALSE);
  return list_row;
}

static guint
count (const char * const *paths)
{
  return paths != NULL ? g_strv_length ((char **) paths) : 0;
}

/* A path list's row, where paddock-run named any. */
static void
append_path_list (GPtrArray          *rows,
                  const char * const *paths,
                  const char         *title,
                  const char         *tooltip)
{
  if (paths == NULL || paths[0] == NULL)
    return;
  g_ptr_array_add (rows, lock_row_new (title, tooltip, TRUE, paths));
}

/* The home folder's three lists: what a locked agent reads unasked
 * (shell start-up files, git's settings, toolchains), what it is asked
 * about, and what every lock keeps from it (the credential stores, the
 * system's secrets, the user's deny.conf). */
static void
append_home_lists (GPtrArray         *rows,
                   PaddockLockStatus *status)
{
  const char * const *open = paddock_lock_status_get_home_open (status);
  const char * const *asked = paddock_lock_status_get_home_asked (status);
  const char * const *denied = paddock_lock_status_get_denied (status);
  g_autofree char *open_title = NULL;
  g_autofree char *asked_title = NULL;
  g_autofree char *denied_title = NULL;

  /* TRANSLATORS: %u is how many files and folders of the home folder a locked agent reads without asking */
  open_title = g_strdup_printf (ngettext ("Read without asking: %u path", "Read without asking: %u paths",
                                          count (open)), count (open));
  /* TRANSLATORS: %u is how many files and folders of the home folder a locked agent must ask for */
  asked_title = g_strdup_printf (ngettext ("Asked for on first read: %u path", "Asked for on first read: %u paths",
                                           count (asked)), count (asked));
  /* TRANSLATORS: %u is how many files and folders a locked agent cannot read */
  denied_title = g_strdup_printf (ngettext ("Kept from the agent: %u path", "Kept from the agent: %u paths",
                                            count (denied)), count (denied));

  append_path_list (rows, open, open_title,
                    _("Shell start-up files, git's settings, toolchains. Add your own in "
                      "~/.config/paddock/home.conf"));
  append_path_list (rows, asked, asked_title,
                    _("Everything else in the home folder. A folder ending in / stands for each "
                      "folder in it"));
  append_path_list (rows, denied, denied_title,
                    _("Add your own in ~/.config/paddock/home.conf or deny.conf"));
}

void
paddock_lock_popover_set_status (PaddockLockPopover *self,
                                 PaddockLockStatus  *status,
                                 const char         *error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *mechanism = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (PADDOCK_IS_LOCK_POPOVER (self));

  if (status == NULL)
    {
      g_list_store_remove_all (self->rows);
      gtk_widget_set_visible (GTK_WIDGET (self->protection_list), FALSE);
      gtk_label_set_label (self->mechanism_label,
                           error != NULL ? error
                           /* TRANSLATORS: the lock's popover, while paddock-run --lock-status runs */
                           : _("Asking paddock-run what this computer offers…"));
      return;
    }

  mechanism = paddock_lock_status_dup_mechanism (status);
  if (paddock_lock_status_get_available (status))
    /* TRANSLATORS: %s is what enforces the lock, e.g. "Landlock, ABI 7" */
    text = g_strdup_printf (_("Enforced by the kernel: %s"), mechanism);
  else
    /* TRANSLATORS: %s says why no lock can start, e.g. "Unavailable: Landlock is…" */
    text = g_strdup_printf (_("A locked tab cannot start on this computer. %s"), mechanism);
  gtk_label_set_label (self->mechanism_label, text);

  {
    g_autoptr(GPtrArray) protections = paddock_lock_status_list_protections (status);

    for (guint i = 0; i < protections->len; i++)
      {
        PaddockLockProtection *protection = g_ptr_array_index (protections, i);

        g_ptr_array_add (rows, lock_row_new (protection->title, protection->detail, protection->active, NULL));
      }
  }
  if (paddock_lock_status_get_available (status))
    append_home_lists (rows, status);
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       rows->pdata, rows->len);
  gtk_widget_set_visible (GTK_WIDGET (self->protection_list), rows->len > 0);
}

void
paddock_lock_popover_set_description (PaddockLockPopover *self,
                                      const char         *description)
{
  g_return_if_fail (PADDOCK_IS_LOCK_POPOVER (self));

  gtk_label_set_label (self->lock_description, description != NULL ? description : "");
}

void
paddock_lock_popover_set_session (PaddockLockPopover *self,
                                  const char         *icon_name,
                                  const char         *text)
{
  g_return_if_fail (PADDOCK_IS_LOCK_POPOVER (self));

  gtk_widget_set_visible (self->session_lock_box, text != NULL);
  if (text == NULL)
    return;
  gtk_image_set_from_icon_name (self->session_lock_icon, icon_name);
  gtk_label_set_label (self->session_lock_label, text);
}

GListModel *
paddock_lock_popover_get_rows (PaddockLockPopover *self)
{
  g_return_val_if_fail (PADDOCK_IS_LOCK_POPOVER (self), NULL);

  return G_LIST_MODEL (self->rows);
}

static void
paddock_lock_popover_dispose (GObject *object)
{
  PaddockLockPopover *self = PADDOCK_LOCK_POPOVER (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_LOCK_POPOVER);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (paddock_lock_popover_parent_class)->dispose (object);
}

static void
paddock_lock_popover_class_init (PaddockLockPopoverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_lock_popover_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/paddock/Paddock/paddock-lock-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, lock_description);
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, session_lock_box);
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, session_lock_icon);
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, session_lock_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, protection_list);
  gtk_widget_class_bind_template_child (widget_class, PaddockLockPopover, mechanism_label);
}

static void
paddock_lock_popover_init (PaddockLockPopover *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_list_store_new (PADDOCK_TYPE_LOCK_ROW);
  gtk_list_box_bind_model (self->protection_list, G_LIST_MODEL (self->rows), create_row_widget, NULL, NULL);
  paddock_lock_popover_set_status (self, NULL, NULL);
}
