/* STAND-IN, not to be committed: the lead's minimal paddock-home.c until the homedata branch lands. */
#include "config.h"
#include "paddock-home.h"
#include "paddock-path.h"
#include <gio/gio.h>
#include <string.h>

struct _PaddockHome { char *home; };

static const char * const open_names[] = { ".bashrc", ".profile", ".bash_profile", ".gitconfig", ".cargo", ".rustup", ".local/bin", ".nvm", "go", ".claude", ".claude.json", ".codex", ".gemini", ".npm", ".cache", NULL };
static const char * const closed_names[] = { ".ssh", ".gnupg", ".aws", ".config/paddock", ".local/share/keyrings", ".netrc", NULL };
static const char * const split_names[] = { ".config", ".local", ".local/share", ".var", ".var/app", NULL };

PaddockHome *
paddock_home_new (const char *home, const char *project, GError **error)
{
  PaddockHome *self = g_new0 (PaddockHome, 1);
  self->home = g_strdup (home);
  return self;
}

void
paddock_home_free (PaddockHome *self)
{
  if (self == NULL)
    return;
  g_free (self->home);
  g_free (self);
}

const char *
paddock_home_get_path (PaddockHome *self)
{
  return self->home;
}

static gboolean
in_list (PaddockHome *self, const char * const *list, const char *path, gboolean below)
{
  for (guint i = 0; list[i] != NULL; i++)
    {
      g_autofree char *p = g_build_filename (self->home, list[i], NULL);
      if (below ? paddock_path_is_within (path, p) : strcmp (path, p) == 0)
        return TRUE;
    }
  return FALSE;
}

PaddockHomeKind
paddock_home_classify (PaddockHome *self, const char *path)
{
  if (in_list (self, closed_names, path, TRUE))
    return PADDOCK_HOME_CLOSED;
  if (in_list (self, open_names, path, TRUE))
    return PADDOCK_HOME_OPEN;
  if (strcmp (path, self->home) == 0 || in_list (self, split_names, path, FALSE))
    return PADDOCK_HOME_OPEN;
  return PADDOCK_HOME_ASKED;
}

gboolean
paddock_home_is_split (PaddockHome *self, const char *path)
{
  return strcmp (path, self->home) == 0 || in_list (self, split_names, path, FALSE);
}

char *
paddock_home_find_entry (PaddockHome *self, const char *path)
{
  g_autofree char *cur = g_strdup (path);

  if (!paddock_path_is_within (path, self->home) || paddock_home_is_split (self, path))
    return NULL;
  for (;;)
    {
      g_autofree char *parent = g_path_get_dirname (cur);
      if (paddock_home_is_split (self, parent))
        return g_steal_pointer (&cur);
      if (strcmp (parent, "/") == 0)
        return NULL;
      g_free (cur);
      cur = g_steal_pointer (&parent);
    }
}

char **
paddock_home_list (PaddockHome *self, PaddockHomeKind kind)
{
  return g_new0 (char *, 1);
}

gboolean
paddock_home_allow_in_project (const char *project, const char *entry, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not yet");
  return FALSE;
}
