/* paddock-vault-request.c: what paddock-secret asks its session's vault for, as one JSON line
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-vault-request.h"

#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

G_DEFINE_QUARK (paddock-vault-request-error-quark, paddock_vault_request_error)

/* Far more than any command line or environment needs, far less than
 * would tie up the supervisor. */
#define MAX_STRINGS 65536

PaddockVaultRequest *
paddock_vault_request_new (PaddockVaultRequestType type)
{
  PaddockVaultRequest *request = g_new0 (PaddockVaultRequest, 1);

  request->type = type;
  request->argv = g_new0 (char *, 1);
  request->env_vars = g_new0 (char *, 1);
  request->env_names = g_new0 (char *, 1);
  request->environ = g_new0 (char *, 1);
  return request;
}

void
paddock_vault_request_free (PaddockVaultRequest *request)
{
  if (request == NULL)
    return;
  g_strfreev (request->argv);
  g_strfreev (request->env_vars);
  g_strfreev (request->env_names);
  g_free (request->stdin_name);
  g_strfreev (request->environ);
  g_free (request);
}

static JsonArray *
strv_to_array (char **strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

static char *
object_to_line (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);

  return g_strconcat (text, "\n", NULL);
}

char *
paddock_vault_request_to_line (const PaddockVaultRequest *request)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonArray *env;

  if (request->type == PADDOCK_VAULT_REQUEST_LIST)
    {
      json_object_set_string_member (object, "type", "list");
      return object_to_line (object);
    }
  json_object_set_string_member (object, "type", "run");
  json_object_set_array_member (object, "argv", strv_to_array (request->argv));
  env = json_array_new ();
  for (guint i = 0; request->env_vars[i] != NULL; i++)
    {
      JsonObject *pair = json_object_new ();

      json_object_set_string_member (pair, "var", request->env_vars[i]);
      json_object_set_string_member (pair, "name", request->env_names[i]);
      json_array_add_object_element (env, pair);
    }
  json_object_set_array_member (object, "env", env);
  if (request->stdin_name != NULL)
    json_object_set_string_member (object, "stdin", request->stdin_name);
  json_object_set_array_member (object, "environ", strv_to_array (request->environ));
  json_object_set_boolean_member (object, "tty", request->tty);
  json_object_set_boolean_member (object, "tty_input", request->tty_input);
  return object_to_line (object);
}

gboolean
paddock_vault_check_variable (const char  *name,
                              GError     **error)
{
  gboolean valid = name != NULL && (g_ascii_isalpha (name[0]) || name[0] == '_');

  for (const char *c = name; valid && *c != '\0'; c++)
    valid = g_ascii_isalnum (*c) || *c == '_';
  if (!valid)
    {
      g_autofree char *shown = name != NULL ? g_strescape (name, NULL) : g_strdup ("");

      g_set_error (error, PADDOCK_VAULT_REQUEST_ERROR, 0,
                   "“%s” is not an environment variable's name (a letter or _, then letters, digits or _)",
                   shown);
    }
  return valid;
}

static gboolean
fail (GError    **error,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError    **error,
      const char *format,
      ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, PADDOCK_VAULT_REQUEST_ERROR, 0, text);
  return FALSE;
}

/* A string, which JSON may hold with NULs: refused, as no argv can. */
static const char *
get_string (JsonNode *node)
{
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  text = json_node_get_string (node);
  return text;
}

static char **
get_strv (JsonObject  *object,
          const char  *member,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;
  g_autoptr(GPtrArray) strv = g_ptr_array_new_with_free_func (g_free);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      fail (error, "“%s” must be an array of strings", member);
      return NULL;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) > MAX_STRINGS)
    {
      fail (error, "“%s” holds more than %d strings", member, MAX_STRINGS);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *text = get_string (json_array_get_element (array, i));

      if (text == NULL)
        {
          fail (error, "“%s” must be an array of strings", member);
          return NULL;
        }
      g_ptr_array_add (strv, g_strdup (text));
    }
  g_ptr_array_add (strv, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&strv), FALSE);
}

/* An optional boolean member. */
static gboolean
get_boolean (JsonObject  *object,
             const char  *member,
             gboolean    *value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fail (error, "“%s” must be true or false", member);
  *value = json_node_get_boolean (node);
  return TRUE;
}

static JsonObject *
parse_object (const char  *line,
              gsize        length,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (memchr (line, '\0', length) != NULL)
    {
      fail (error, "not JSON: it holds a NUL byte");
      return NULL;
    }
  if (!json_parser_load_from_data (parser, line, (gssize) length, &local_error))
    {
      fail (error, "not JSON: %s", local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (error, "not a JSON object");
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

static gboolean
check_members (JsonObject         *object,
               const char * const *known,
               GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (known, l->data))
      {
        g_autofree char *shown = g_strescape (l->data, NULL);

        return fail (error, "unknown field “%s”", shown);
      }
  return TRUE;
}

static gboolean
parse_env (PaddockVaultRequest  *request,
           JsonObject           *object,
           GError              **error)
{
  static const char * const pair_members[] = { "var", "name", NULL };
  JsonNode *node = json_object_get_member (object, "env");
  JsonArray *array;
  g_autoptr(GPtrArray) vars = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, "“env” must be an array of {\"var\", \"name\"}");
  array = json_node_get_array (node);
  if (json_array_get_length (array) > 64)
    return fail (error, "more than 64 secrets for one program");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *pair;
      const char *var, *name;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return fail (error, "“env” must be an array of {\"var\", \"name\"}");
      pair = json_node_get_object (element);
      if (!check_members (pair, pair_members, error))
        return FALSE;
      var = get_string (json_object_get_member (pair, "var"));
      name = get_string (json_object_get_member (pair, "name"));
      if (var == NULL || name == NULL)
        return fail (error, "“env” must be an array of {\"var\", \"name\"}");
      if (!paddock_vault_check_variable (var, error))
        return FALSE;
      for (guint j = 0; j < vars->len; j++)
        if (strcmp (g_ptr_array_index (vars, j), var) == 0)
          return fail (error, "%s is given twice", var);
      g_ptr_array_add (vars, g_strdup (var));
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_add (vars, NULL);
  g_ptr_array_add (names, NULL);
  g_strfreev (request->env_vars);
  g_strfreev (request->env_names);
  request->env_vars = (char **) g_ptr_array_free (g_steal_pointer (&vars), FALSE);
  request->env_names = (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  return TRUE;
}

PaddockVaultRequest *
paddock_vault_request_parse (const char  *line,
                             gsize        length,
                             GError     **error)
{
  static const char * const list_members[] = { "type", NULL };
  static const char * const run_members[] = { "type", "argv", "env", "stdin", "environ", "tty", "tty_input", NULL };
  g_autoptr(JsonObject) object = parse_object (line, length, error);
  g_autoptr(PaddockVaultRequest) request = NULL;
  const char *type;
  JsonNode *node;

  if (object == NULL)
    return NULL;
  type = get_string (json_object_get_member (object, "type"));
  if (g_strcmp0 (type, "list") == 0)
    {
      if (!check_members (object, list_members, error))
        return NULL;
      return paddock_vault_request_new (PADDOCK_VAULT_REQUEST_LIST);
    }
  if (g_strcmp0 (type, "run") != 0)
    {
      fail (error, "“type” must be “run” or “list”");
      return NULL;
    }
  if (!check_members (object, run_members, error))
    return NULL;
  request = paddock_vault_request_new (PADDOCK_VAULT_REQUEST_RUN);
  g_strfreev (request->argv);
  if ((request->argv = get_strv (object, "argv", error)) == NULL)
    return NULL;
  if (request->argv[0] == NULL || request->argv[0][0] == '\0')
    {
      fail (error, "no program given");
      return NULL;
    }
  g_strfreev (request->environ);
  if ((request->environ = get_strv (object, "environ", error)) == NULL)
    return NULL;
  if (!parse_env (request, object, error))
    return NULL;
  node = json_object_get_member (object, "stdin");
  if (node != NULL && (request->stdin_name = g_strdup (get_string (node))) == NULL)
    {
      fail (error, "“stdin” must be a secret's name");
      return NULL;
    }
  if (!get_boolean (object, "tty", &request->tty, error) ||
      !get_boolean (object, "tty_input", &request->tty_input, error))
    return NULL;
  if (request->tty_input && !request->tty)
    {
      fail (error, "“tty_input” goes with “tty”");
      return NULL;
    }
  if (request->env_vars[0] == NULL && request->stdin_name == NULL)
    {
      fail (error, "no secret named: give --env VAR=NAME or --stdin NAME");
      return NULL;
    }
  return g_steal_pointer (&request);
}

char *
paddock_vault_signal_to_line (int signo)
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "type", "signal");
  json_object_set_int_member (object, "signal", signo);
  return object_to_line (object);
}

int
paddock_vault_request_parse_signal (const char  *line,
                                    gsize        length,
                                    GError     **error)
{
  static const char * const members[] = { "type", "signal", NULL };
  /* What a person or a program may send another; never one that only
   * a debugger or the kernel sends. */
  static const int allowed[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT,
                                 SIGTSTP, SIGKILL, SIGALRM, SIGPIPE };
  g_autoptr(JsonObject) object = parse_object (line, length, error);
  JsonNode *node;
  gint64 signo;

  if (object == NULL || !check_members (object, members, error))
    return -1;
  if (g_strcmp0 (get_string (json_object_get_member (object, "type")), "signal") != 0)
    {
      fail (error, "“type” must be “signal” while the program runs");
      return -1;
    }
  node = json_object_get_member (object, "signal");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      fail (error, "“signal” must be a number");
      return -1;
    }
  signo = json_node_get_int (node);
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    if (allowed[i] == signo)
      return (int) signo;
  fail (error, "signal %" G_GINT64_FORMAT " is not one passed on", signo);
  return -1;
}
