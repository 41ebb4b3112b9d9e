/* paddock-project-config.c: a project's saved lock choice and grants, kept outside the project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Per-project settings live in $XDG_CONFIG_HOME/paddock/projects/, in
 * <SHA-256 of the canonical path>.settings.json (beside the project's policy
 * overrides, <hash>.json), never in the project itself: a locked agent must
 * not be able to change its own lock.
 * The folder lock denies that whole directory.
 */
#include "config.h"

#include "paddock-json-text.h"
#include "paddock-project-config.h"
#include "paddock-project-store.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <string.h>

/* Far more than a lock choice and a list of grants take. */
#define MAX_SETTINGS_SIZE  (1024 * 1024)
#define MAX_SETTINGS_DEPTH 8

char *
paddock_project_config_path (const char *project)
{
  return paddock_project_store_path (project, ".settings.json");
}

void
paddock_project_config_clear (PaddockProjectConfig *config)
{
  g_clear_pointer (&config->grants, g_strfreev);
  g_clear_pointer (&config->denials, g_strfreev);
  g_clear_pointer (&config->home_open, g_strfreev);
  g_clear_pointer (&config->home_closed, g_strfreev);
  g_clear_pointer (&config->hosts_allow, g_strfreev);
  g_clear_pointer (&config->hosts_deny, g_strfreev);
  config->has_lock = FALSE;
  config->lock = FALSE;
  config->git_config_writable = FALSE;
  config->has_network = FALSE;
  config->network_locked = FALSE;
}

/* Reads the saved settings of @project (canonical). No file is no choice,
 * not an error; a file that does not parse is. */
gboolean
paddock_project_config_load (const char           *project,
                             PaddockProjectConfig *config,
                             GError              **error)
{
  g_autofree char *path = paddock_project_config_path (project);
  g_autoptr(GByteArray) text = NULL;

  *config = (PaddockProjectConfig) { 0 };

  /* Most projects have none: stay off json-glib's start-up path then. */
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;

  text = paddock_json_read_own_file (path, MAX_SETTINGS_SIZE, "the project settings", error);
  if (text == NULL)
    return FALSE;
  return paddock_project_config_parse (project, path, text->len > 0 ? (const char *) text->data : "", text->len,
                                       config, error);
}

/* Reads @data (@length bytes) into @parser and returns its object, where
 * it is one JSON object as JSON has it and no larger than settings are;
 * else NULL, with @error saying why. json-glib 1.6 alone reads more than
 * JSON, and leaks on some of it. @source names the text in errors. */
static JsonObject *
load_object (JsonParser  *parser,
             const char  *source,
             const char  *data,
             gsize        length,
             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *reason = NULL;
  JsonNode *root;

  if (length > MAX_SETTINGS_SIZE)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: larger than %d KiB, which no settings are", source, MAX_SETTINGS_SIZE / 1024);
      return NULL;
    }
  if (!g_utf8_validate_len (data, length, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not valid UTF-8 (or holds a NUL byte)", source);
      return NULL;
    }
  reason = paddock_json_check_object_text (data, length, MAX_SETTINGS_DEPTH);
  if (reason != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", source, reason);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_autofree char *described = paddock_json_describe_parse_error (local_error);

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", source, described);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a JSON object", source);
      return NULL;
    }
  return json_node_get_object (root);
}

/* What a list of the settings holds, for parse_list(): its items' kind
 * in the user's words, the check of one, and what is wrong with one that
 * fails it. */
typedef struct
{
  const char  *kind;               /* "paths", "host patterns" */
  gboolean   (*valid) (const char *item);
  const char  *invalid;            /* follows the item in the error */
} ListKind;

static gboolean
path_is_valid (const char *path)
{
  return g_path_is_absolute (path) || g_str_has_prefix (path, "~/");
}

static const ListKind paths_kind = {
  "paths", path_is_valid, "is neither absolute nor under ~/",
};

static const ListKind hosts_kind = {
  "host patterns", paddock_project_config_host_pattern_is_valid,
  "is not a host pattern (example.org, *.example.org, optional :PORT)",
};

/* A list of @kind in @node, named @field in errors; @node NULL is none. */
static gboolean
parse_list (JsonNode        *node,
            const char      *source,
            const char      *field,
            const ListKind  *kind,
            char          ***items,
            GError         **error)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);
  JsonArray *array;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s must be a list of %s", source, field, kind->kind);
      return FALSE;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *text;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s must be a list of %s", source, field,
                       kind->kind);
          return FALSE;
        }
      text = json_node_get_string (item);
      if (!kind->valid (text))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s: %s %s", source, field, text, kind->invalid);
          return FALSE;
        }
      g_ptr_array_add (list, g_strdup (text));
    }
  g_ptr_array_add (list, NULL);
  *items = (char **) g_ptr_array_free (g_steal_pointer (&list), FALSE);
  return TRUE;
}

/* The member @member of @object: an object of two lists of @kind, @first
 * and @second, into *@first_items and *@second_items; anything else in it
 * is an error that names it. */
static gboolean
parse_two_lists (JsonObject      *object,
                 const char      *source,
                 const char      *member,
                 const char      *first,
                 const char      *second,
                 const ListKind  *kind,
                 char          ***first_items,
                 char          ***second_items,
                 GError         **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *first_field = g_strdup_printf ("\"%s\".\"%s\"", member, first);
  g_autofree char *second_field = g_strdup_printf ("\"%s\".\"%s\"", member, second);
  g_autoptr(GList) members = NULL;
  JsonObject *lists;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: \"%s\" must be an object with \"%s\" and \"%s\" lists of %s",
                   source, member, first, second, kind->kind);
      return FALSE;
    }
  lists = json_node_get_object (node);
  members = json_object_get_members (lists);
  for (GList *l = members; l != NULL; l = l->next)
    if (strcmp (l->data, first) != 0 && strcmp (l->data, second) != 0)
      {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: \"%s\".\"%s\" is not understood (\"%s\" or \"%s\")",
                     source, member, (const char *) l->data, first, second);
        return FALSE;
      }
  return parse_list (json_object_get_member (lists, first), source, first_field, kind, first_items, error) &&
         parse_list (json_object_get_member (lists, second), source, second_field, kind, second_items, error);
}

/* "home": which entries of the home folder the agent reads unasked in
 * this project ("open", which "Allow in This Project" writes) and which it
 * never reads ("closed"), on top of the user's and the shipped rules. */
static gboolean
parse_home (JsonObject            *object,
            const char            *source,
            PaddockProjectConfig  *config,
            GError               **error)
{
  return parse_two_lists (object, source, "home", "open", "closed", &paths_kind,
                          &config->home_open, &config->home_closed, error);
}

gboolean
paddock_project_config_host_pattern_is_valid (const char *pattern)
{
  const char *colon = strchr (pattern, ':');
  const char *name = g_str_has_prefix (pattern, "*.") ? pattern + 2 : pattern;
  gsize length = colon != NULL ? (gsize) (colon - name) : strlen (name);

  if (colon != NULL && colon < name)
    return FALSE;
  if (length == 0 || length > 253 || name[0] == '.' || name[length - 1] == '.' || strstr (name, "..") != NULL)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_islower (name[i]) && !g_ascii_isdigit (name[i]) && strchr ("-_.", name[i]) == NULL)
      return FALSE;
  if (colon != NULL)
    {
      guint64 port;

      if (strlen (colon + 1) == 0 || strlen (colon + 1) > 5 || strspn (colon + 1, "0123456789") != strlen (colon + 1))
        return FALSE;
      port = g_ascii_strtoull (colon + 1, NULL, 10);
      if (port == 0 || port > 65535)
        return FALSE;
    }
  return TRUE;
}

/* "hosts": the network lock's own lists for this project ("allow",
 * which "Allow Host in This Project" writes, and "deny"). */
static gboolean
parse_hosts (JsonObject            *object,
             const char            *source,
             PaddockProjectConfig  *config,
             GError               **error)
{
  return parse_two_lists (object, source, "hosts", "allow", "deny", &hosts_kind,
                          &config->hosts_allow, &config->hosts_deny, error);
}

gboolean
paddock_project_config_parse (const char           *project,
                              const char           *source,
                              const char           *data,
                              gsize                 length,
                              PaddockProjectConfig *config,
                              GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *node;
  JsonObject *object;
  gboolean has_lock = FALSE;
  gboolean lock = FALSE;

  *config = (PaddockProjectConfig) { 0 };

  object = load_object (parser, source, data, length, error);
  if (object == NULL)
    return FALSE;

  /* A file copied from another project's name says nothing about this one. */
  node = json_object_get_member (object, "path");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (node), project) != 0)
    return TRUE;

  if (json_object_has_member (object, "lock"))
    {
      node = json_object_get_member (object, "lock");
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"lock\" must be true or false", source);
          return FALSE;
        }
      has_lock = TRUE;
      lock = json_node_get_boolean (node);
    }

  if (json_object_has_member (object, "grants"))
    {
      g_autoptr(GPtrArray) grants = g_ptr_array_new_with_free_func (g_free);
      JsonArray *array;

      node = json_object_get_member (object, "grants");
      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"grants\" must be a list of paths", source);
          return FALSE;
        }
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);
          if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s: \"grants\" must be a list of paths", source);
              return FALSE;
            }
          g_ptr_array_add (grants, g_strdup (json_node_get_string (item)));
        }
      g_ptr_array_add (grants, NULL);
      config->grants = (char **) g_ptr_array_free (g_steal_pointer (&grants), FALSE);
    }

  /* "deny": paths the lock keeps from the agent in this project. */
  if (!parse_list (json_object_get_member (object, "deny"), source, "\"deny\"", &paths_kind, &config->denials, error) ||
      !parse_home (object, source, config, error) ||
      !parse_hosts (object, source, config, error))
    {
      paddock_project_config_clear (config);
      return FALSE;
    }

  /* "git-config": "writable" lets the locked agent change the project's
   * git config (see paddock-lock-git.h); "read-only", the default, not. */
  if (json_object_has_member (object, "git-config"))
    {
      const char *value = NULL;

      node = json_object_get_member (object, "git-config");
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        value = json_node_get_string (node);
      if (g_strcmp0 (value, "writable") != 0 && g_strcmp0 (value, "read-only") != 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"git-config\" must be \"writable\" or \"read-only\"", source);
          paddock_project_config_clear (config);
          return FALSE;
        }
      config->git_config_writable = strcmp (value, "writable") == 0;
    }

  /* "network": "locked" starts the project's sessions with --net=locked. */
  if (json_object_has_member (object, "network"))
    {
      const char *value = NULL;

      node = json_object_get_member (object, "network");
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        value = json_node_get_string (node);
      if (g_strcmp0 (value, "locked") != 0 && g_strcmp0 (value, "open") != 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: \"network\" must be \"locked\" or \"open\"", source);
          paddock_project_config_clear (config);
          return FALSE;
        }
      config->has_network = TRUE;
      config->network_locked = strcmp (value, "locked") == 0;
    }

  /* Only now: a file refused further on gives no choice. */
  config->has_lock = has_lock;
  config->lock = lock;
  return TRUE;
}

/* The settings file's object; NULL where there is no file, and (with
 * @error) where it does not read as one. */
static JsonNode *
read_object (const char  *path,
             GError     **error)
{
  g_autoptr(GByteArray) text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();  /* the copy is changed */

  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return NULL;
  text = paddock_json_read_own_file (path, MAX_SETTINGS_SIZE, "the project settings", error);
  if (text == NULL ||
      load_object (parser, path, text->len > 0 ? (const char *) text->data : "", text->len, error) == NULL)
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

/* Reads @project's settings for a change: their object, or a new one
 * where there are none. NULL (and @error) where they do not read: they
 * may hold what the user would not want lost (a hand edit gone wrong). */
static JsonNode *
read_for_change (const char  *path,
                 GError     **error)
{
  GError *read_error = NULL;
  JsonNode *root = read_object (path, &read_error);

  if (read_error != NULL)
    {
      g_set_error (error, read_error->domain, read_error->code, "%s (left as it is)", read_error->message);
      g_error_free (read_error);
      return NULL;
    }
  if (root == NULL)
    {
      /* json_node_init_object() would take a second reference on the object. */
      root = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (root, json_object_new ());
    }
  return root;
}

static gboolean
write_object (const char  *path,
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

/* Saves the lock choice for @project, keeping the file's other members.
 * Settings that do not read are left as they are, and the save fails. */
gboolean
paddock_project_config_save_lock (const char  *project,
                                  gboolean     lock,
                                  GError     **error)
{
  g_autofree char *path = paddock_project_config_path (project);
  g_autoptr(JsonNode) root = read_for_change (path, error);
  JsonObject *object;

  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  json_object_set_string_member (object, "path", project);
  json_object_set_boolean_member (object, "lock", lock);
  return write_object (path, root, error);
}

gboolean
paddock_project_config_save_git_config (const char  *project,
                                        gboolean     writable,
                                        GError     **error)
{
  g_autofree char *path = paddock_project_config_path (project);
  g_autoptr(JsonNode) root = read_for_change (path, error);
  JsonObject *object;

  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  json_object_set_string_member (object, "path", project);
  json_object_set_string_member (object, "git-config", writable ? "writable" : "read-only");
  return write_object (path, root, error);
}

gboolean
paddock_project_config_save_network (const char  *project,
                                     gboolean     locked,
                                     GError     **error)
{
  g_autofree char *path = paddock_project_config_path (project);
  g_autoptr(JsonNode) root = read_for_change (path, error);
  JsonObject *object;

  if (root == NULL)
    return FALSE;
  object = json_node_get_object (root);
  json_object_set_string_member (object, "path", project);
  json_object_set_string_member (object, "network", locked ? "locked" : "open");
  return write_object (path, root, error);
}

/* In @object, @project's settings being changed, the member @member (an
 * object), made where missing. A member written for another project (a
 * copy of its settings under this name) says nothing of this one and is
 * dropped. NULL and @error where it is there but not an object: the file
 * is left as it is. */
static JsonObject *
member_for_change (JsonObject  *object,
                   const char  *project,
                   const char  *file,
                   const char  *member,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, "path");

  if (node != NULL && (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
                       g_strcmp0 (json_node_get_string (node), project) != 0))
    json_object_remove_member (object, member);
  json_object_set_string_member (object, "path", project);

  node = json_object_get_member (object, member);
  if (node == NULL)
    json_object_set_object_member (object, member, json_object_new ());
  else if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: \"%s\" must be an object (left as it is)", file, member);
      return NULL;
    }
  return json_object_get_object_member (object, member);
}

/* The list @list of @lists (the member @member), made where missing; NULL
 * and @error where it is there but not a list of @kind. */
static JsonArray *
list_for_change (JsonObject      *lists,
                 const char      *file,
                 const char      *member,
                 const char      *list,
                 const ListKind  *kind,
                 GError         **error)
{
  JsonNode *node = json_object_get_member (lists, list);

  if (node == NULL)
    json_object_set_array_member (lists, list, json_array_new ());
  else if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: \"%s\".\"%s\" must be a list of %s (left as it is)",
                   file, member, list, kind->kind);
      return NULL;
    }
  return json_object_get_array_member (lists, list);
}

gboolean
paddock_project_config_add_home_open (const char  *project,
                                      const char  *path,
                                      GError     **error)
{
  g_autofree char *file = paddock_project_config_path (project);
  g_autoptr(JsonNode) root = read_for_change (file, error);
  JsonObject *home;
  JsonArray *open;

  if (root == NULL ||
      (home = member_for_change (json_node_get_object (root), project, file, "home", error)) == NULL ||
      (open = list_for_change (home, file, "home", "open", &paths_kind, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (open); i++)
    {
      JsonNode *item = json_array_get_element (open, i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING &&
          strcmp (json_node_get_string (item), path) == 0)
        return TRUE;
    }
  json_array_add_string_element (open, path);
  return write_object (file, root, error);
}

/* Takes @host out of @array (a JSON list of strings). */
static void
remove_string (JsonArray  *array,
               const char *host)
{
  for (guint i = json_array_get_length (array); i > 0; i--)
    {
      JsonNode *item = json_array_get_element (array, i - 1);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING &&
          strcmp (json_node_get_string (item), host) == 0)
        json_array_remove_element (array, i - 1);
    }
}

gboolean
paddock_project_config_set_host (const char  *project,
                                 const char  *host,
                                 const char  *list,
                                 GError     **error)
{
  static const char * const lists[] = { "allow", "deny" };
  g_autofree char *file = paddock_project_config_path (project);
  g_autofree char *name = g_ascii_strdown (host, -1);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *hosts;

  g_return_val_if_fail (list == NULL || g_strcmp0 (list, "allow") == 0 || g_strcmp0 (list, "deny") == 0, FALSE);

  if (list != NULL && !paddock_project_config_host_pattern_is_valid (name))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s is not a host pattern", host);
      return FALSE;
    }
  root = read_for_change (file, error);
  if (root == NULL || (hosts = member_for_change (json_node_get_object (root), project, file, "hosts", error)) == NULL)
    return FALSE;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      JsonArray *array = list_for_change (hosts, file, "hosts", lists[l], &hosts_kind, error);

      if (array == NULL)
        return FALSE;
      remove_string (array, name);
      if (g_strcmp0 (list, lists[l]) == 0)
        json_array_add_string_element (array, name);
    }
  return write_object (file, root, error);
}

gboolean
paddock_project_config_add_host_allow (const char  *project,
                                       const char  *host,
                                       GError     **error)
{
  return paddock_project_config_set_host (project, host, "allow", error);
}
