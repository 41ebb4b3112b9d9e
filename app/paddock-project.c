/* paddock-project.c: a project folder, resolved and checked, that sessions run in
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-project.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _PaddockProject
{
  GObject  parent_instance;

  char    *path;
  char    *name;
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockProject, paddock_project, G_TYPE_OBJECT)

static void
paddock_project_finalize (GObject *object)
{
  PaddockProject *self = PADDOCK_PROJECT (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (paddock_project_parent_class)->finalize (object);
}

static void
paddock_project_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PaddockProject *self = PADDOCK_PROJECT (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_project_class_init (PaddockProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = paddock_project_finalize;
  object_class->get_property = paddock_project_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
paddock_project_init (PaddockProject *self)
{
}

/**
 * paddock_project_new_for_path:
 * @path: a folder, absolute or relative to the current directory
 * @error: return location for an error
 *
 * Resolves @path to its canonical absolute form and checks that it is a
 * folder the user can enter, since every session of the project runs there.
 *
 * Returns: (transfer full): the project, or %NULL with @error set to a
 *   message naming the folder and the reason
 */
PaddockProject *
paddock_project_new_for_path (const char  *path,
                              GError     **error)
{
  g_autoptr(PaddockProject) self = NULL;
  g_autofree char *canonical = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (*path == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("Cannot open a project with an empty folder name"));
      return NULL;
    }

  canonical = realpath (path, NULL);
  if (canonical == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  if (stat (canonical, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("Cannot open %s: %s"), path, g_strerror (ENOTDIR));
      return NULL;
    }

  /* The shell starts in the folder, so it must be enterable, not only listed. */
  if (access (canonical, X_OK) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot open %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  self = g_object_new (PADDOCK_TYPE_PROJECT, NULL);
  self->name = g_path_get_basename (canonical);
  self->path = g_steal_pointer (&canonical);

  return g_steal_pointer (&self);
}

const char *
paddock_project_get_path (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return self->path;
}

/* The folder's own name, what the user calls the project ("/" for the root). */
const char *
paddock_project_get_name (PaddockProject *self)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  return self->name;
}

/**
 * paddock_project_dup_display_path:
 * @self: a project
 *
 * Returns: (transfer full): the path for display, with the home folder
 *   written as "~", as shells and file choosers show it
 */
char *
paddock_project_dup_display_path (PaddockProject *self)
{
  const char *home;
  size_t home_len;

  g_return_val_if_fail (PADDOCK_IS_PROJECT (self), NULL);

  home = g_get_home_dir ();
  home_len = home != NULL ? strlen (home) : 0;

  if (home_len > 1 &&
      strncmp (self->path, home, home_len) == 0 &&
      (self->path[home_len] == '\0' || self->path[home_len] == '/'))
    return g_strconcat ("~", self->path + home_len, NULL);

  return g_strdup (self->path);
}
