/* paddock-project-net.c: a project's saved network-lock choice and host lists
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A minimal reader and writer of the settings' "network" and "hosts"
 * members, for the clients; the lock's own reader (in
 * sandbox/lock/paddock-project-config.c, once the network lock lands
 * there) is the one paddock-run trusts, and the two agree on the schema.
 */
#include "config.h"

#include "paddock-project-net.h"

#include "paddock-json-text.h"
#include "paddock-project-config.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <string.h>

/* As paddock-project-config.c has it. */
#define MAX_SETTINGS_SIZE (1024 * 1024)

void
paddock_project_net_clear (PaddockProjectNet *net)
{
  g_clear_pointer (&net->allow, g_strfreev);
  g_clear_pointer (&net->deny, g_strfreev);
  net->has_network = FALSE;
  net->locked = FALSE;
}

gboolean
paddock_project_net_pattern_valid (const char *pattern)
{
  const char *p = pattern;
  const char *colon;
  gsize length;

  if (pattern == NULL)
    return FALSE;
  if (g_str_has_prefix (p, "*."))
    p += 2;
  colon = strchr (p, ':');
  length = colon != NULL ? (gsize) (colon - p) : strlen (p);
  if (length == 0 || length > 253 || p[0] == '.' || p[0] == '-' || p[length - 1] == '.')
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (p[i]) && p[i] != '-' && p[i] != '.')
      return FALSE;
  if (colon != NULL)
    {
      guint64 port = 0;

      if (!g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
        return FALSE;
    }
  return TRUE;
}

/* The settings' root object for @project (a new one where there is no
 * file), or NULL with @error where they do not read. */
static JsonNode *
read_root (const char  *path,
           GError     **error)
{
  g_autoptr(GByteArray) text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      root = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (root, json_object_new ());
      return root;
    }
  text = paddock_json_read_own_file (path, MAX_SETTINGS_SIZE, "the project settings", error);
  if (text == NULL)
    return NULL;
  if (!json_parser_load_from_data (parser, text->len > 0 ? (const char *) text->data : "", text->len, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a JSON object", path);
      return NULL;
    }
  return json_node_copy (root);
}

/* Whether @object's "path" says it is @project's (a file copied from
 * another project's name says nothing about this one). */
static gboolean
is_for (JsonObject *object,
        const char *project)
{
  JsonNode *node = json_object_get_member (object, "path");

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
         g_strcmp0 (json_node_get_string (node), project) == 0;
}

/* The strings of @hosts' list @name as a NULL-terminated array, or NULL
 * with @error where it is not a list of valid patterns. */
static char **
read_list (JsonObject  *hosts,
           const char  *name,
           const char  *path,
           GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonNode *node = hosts != NULL ? json_object_get_member (hosts, name) : NULL;

  if (node != NULL)
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"hosts\".\"%s\" must be a list of host names", path, name);
          return NULL;
        }
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING ||
              !paddock_project_net_pattern_valid (json_node_get_string (item)))
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s: \"hosts\".\"%s\" must be a list of host names", path, name);
              return NULL;
            }
          g_strv_builder_add (builder, json_node_get_string (item));
        }
    }
  return g_strv_builder_end (builder);
}

gboolean
paddock_project_net_load (const char         *project,
                          PaddockProjectNet  *net,
                          GError            **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonObject *hosts = NULL;
  JsonNode *node;

  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (net != NULL, FALSE);

  *net = (PaddockProjectNet) { 0 };
  path = paddock_project_config_path (project);
  root = read_root (path, error);
  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  if (is_for (object, project))
    {
      node = json_object_get_member (object, "network");
      if (node != NULL)
        {
          const char *value = NULL;

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            value = json_node_get_string (node);
          if (g_strcmp0 (value, "locked") != 0 && g_strcmp0 (value, "open") != 0)
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s: \"network\" must be \"locked\" or \"open\"", path);
              return FALSE;
            }
          net->has_network = TRUE;
          net->locked = strcmp (value, "locked") == 0;
        }
      node = json_object_get_member (object, "hosts");
      if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"hosts\" must be an object with \"allow\" and \"deny\"", path);
          paddock_project_net_clear (net);
          return FALSE;
        }
      hosts = node != NULL ? json_node_get_object (node) : NULL;
    }
  net->allow = read_list (hosts, "allow", path, error);
  net->deny = net->allow != NULL ? read_list (hosts, "deny", path, error) : NULL;
  if (net->allow == NULL || net->deny == NULL)
    {
      paddock_project_net_clear (net);
      return FALSE;
    }
  return TRUE;
}

/* Reads @project's settings for a change: their root, made this
 * project's (another project's members dropped). */
static JsonNode *
read_for_change (const char  *project,
                 const char  *path,
                 GError     **error)
{
  GError *read_error = NULL;
  JsonNode *root = read_root (path, &read_error);
  JsonObject *object;

  if (root == NULL)
    {
      g_set_error (error, read_error->domain, read_error->code, "%s (left as it is)", read_error->message);
      g_error_free (read_error);
      return NULL;
    }
  object = json_node_get_object (root);
  if (!is_for (object, project))
    {
      json_object_remove_member (object, "network");
      json_object_remove_member (object, "hosts");
    }
  json_object_set_string_member (object, "path", project);
  return root;
}

static gboolean
write_root (const char  *path,
            JsonNode    *root,
            GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }
  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

gboolean
paddock_project_net_save_locked (const char  *project,
                                 gboolean     locked,
                                 GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (project != NULL, FALSE);

  path = paddock_project_config_path (project);
  root = read_for_change (project, path, error);
  if (root == NULL)
    return FALSE;
  json_object_set_string_member (json_node_get_object (root), "network", locked ? "locked" : "open");
  return write_root (path, root, error);
}

/* @object's "hosts" list @name, made where missing; NULL with @error
 * where "hosts" or the list is not as it should be. */
static JsonArray *
get_list (JsonObject  *object,
          const char  *name,
          const char  *path,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, "hosts");
  JsonObject *hosts;

  if (node == NULL)
    json_object_set_object_member (object, "hosts", json_object_new ());
  else if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: \"hosts\" must be an object (left as it is)", path);
      return NULL;
    }
  hosts = json_object_get_object_member (object, "hosts");
  node = json_object_get_member (hosts, name);
  if (node == NULL)
    json_object_set_array_member (hosts, name, json_array_new ());
  else if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: \"hosts\".\"%s\" must be a list (left as it is)", path, name);
      return NULL;
    }
  return json_object_get_array_member (hosts, name);
}

/* Takes every @pattern out of @array; whether there was one. */
static gboolean
remove_from (JsonArray  *array,
             const char *pattern)
{
  gboolean found = FALSE;

  for (guint i = json_array_get_length (array); i-- > 0;)
    {
      JsonNode *item = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING &&
          g_ascii_strcasecmp (json_node_get_string (item), pattern) == 0)
        {
          json_array_remove_element (array, i);
          found = TRUE;
        }
    }
  return found;
}

gboolean
paddock_project_net_add_host (const char  *project,
                              const char  *list,
                              const char  *pattern,
                              GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *lower = NULL;
  JsonObject *object;
  JsonArray *into;
  JsonArray *other;
  gboolean allow;

  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (g_strcmp0 (list, "allow") == 0 || g_strcmp0 (list, "deny") == 0, FALSE);

  if (!paddock_project_net_pattern_valid (pattern))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "\"%s\" is not a host name (example.org, *.example.org, example.org:443)", pattern);
      return FALSE;
    }
  allow = strcmp (list, "allow") == 0;
  path = paddock_project_config_path (project);
  root = read_for_change (project, path, error);
  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  into = get_list (object, list, path, error);
  other = into != NULL ? get_list (object, allow ? "deny" : "allow", path, error) : NULL;
  if (other == NULL)
    return FALSE;
  /* Host names are compared without case, and kept in lower case. */
  lower = g_ascii_strdown (pattern, -1);
  remove_from (other, lower);
  remove_from (into, lower);
  json_array_add_string_element (into, lower);
  return write_root (path, root, error);
}

gboolean
paddock_project_net_remove_host (const char  *project,
                                 const char  *pattern,
                                 GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonArray *allow;
  JsonArray *deny;
  gboolean found;

  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);

  path = paddock_project_config_path (project);
  root = read_for_change (project, path, error);
  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  allow = get_list (object, "allow", path, error);
  deny = allow != NULL ? get_list (object, "deny", path, error) : NULL;
  if (deny == NULL)
    return FALSE;
  found = remove_from (allow, pattern);
  found = remove_from (deny, pattern) || found;
  return !found || write_root (path, root, error);
}
