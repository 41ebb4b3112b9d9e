/* paddock-control-socket.c: where a session's control socket lives
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "paddock-control-socket.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

char *
paddock_control_socket_dir (GError **error)
{
  g_autofree char *dir = g_build_filename (paddock_user_runtime_dir (), "paddock", NULL);
  struct stat st;

  if (mkdir (dir, 0700) != 0 && errno != EEXIST)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot create %s: %s", dir, g_strerror (saved_errno));
      return NULL;
    }
  if (lstat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   "cannot use %s for control sockets: not a directory", dir);
      return NULL;
    }
  if (st.st_uid != geteuid ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "cannot use %s for control sockets: owned by uid %u, not us",
                   dir, (guint) st.st_uid);
      return NULL;
    }
  if ((st.st_mode & 077) != 0 && chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "cannot make %s private: %s", dir, g_strerror (saved_errno));
      return NULL;
    }
  return g_steal_pointer (&dir);
}

char *
paddock_control_socket_path (const char *session_id,
                             GError    **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  char *path;
  struct sockaddr_un addr;

  g_return_val_if_fail (session_id != NULL && *session_id != '\0', NULL);

  if (strchr (session_id, '/') != NULL || strcmp (session_id, ".") == 0 || strcmp (session_id, "..") == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "session id %s is not a plain name", session_id);
      return NULL;
    }
  dir = paddock_control_socket_dir (error);
  if (dir == NULL)
    return NULL;
  name = g_strconcat (session_id, ".sock", NULL);
  path = g_build_filename (dir, name, NULL);
  if (strlen (path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG,
                   "control socket path %s is too long for a unix socket", path);
      g_free (path);
      return NULL;
    }
  return path;
}
