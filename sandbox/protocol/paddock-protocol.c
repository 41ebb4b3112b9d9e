/* paddock-protocol.c: the control protocol between paddock-run and its clients
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each message type lists the fields it may carry and which of them it must
 * carry; parsing walks the object once against that list, so an unknown
 * field, a wrong type or a missing field is always an error that names it.
 */
#include "config.h"

#include "paddock-escape.h"
#include "paddock-protocol.h"
#include "paddock-json-flat.h"
#include "paddock-json-text.h"

#include <glib-object.h>
#include <json-glib/json-glib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (paddock-protocol-error-quark, paddock_protocol_error)
G_DEFINE_BOXED_TYPE (PaddockMessage, paddock_message, paddock_message_copy, paddock_message_free)

/* Deeper nesting than this is never valid, and refusing it before json-glib
 * sees the line keeps its recursive parser off a deep stack. */
#define MAX_DEPTH 8

typedef enum
{
  KIND_STRING,
  KIND_STRV,
  KIND_INT,
  KIND_INT64,
  KIND_BOOL,
  KIND_DECISION,
  KIND_REMEMBER,
} FieldKind;

typedef struct
{
  const char *name;
  FieldKind   kind;
  gsize       offset;
} Field;

#define F(n, k, m) { n, k, offsetof (PaddockMessage, m) }

static const Field fields[] = {
  F ("version", KIND_INT, version),
  F ("session", KIND_STRING, session),
  F ("project", KIND_STRING, project),
  F ("command", KIND_STRV, command),
  F ("agent_pid", KIND_INT, agent_pid),
  F ("lock", KIND_STRING, lock),
  F ("network", KIND_STRING, network),
  F ("features", KIND_STRV, features),
  F ("denied", KIND_STRV, denied),
  F ("home_open", KIND_STRV, home_open),
  F ("home_asked", KIND_STRV, home_asked),
  F ("paused", KIND_BOOL, paused),
  F ("seq", KIND_INT64, seq),
  F ("id", KIND_INT64, id),
  F ("time", KIND_INT64, time),
  F ("mono", KIND_INT64, mono),
  F ("pid", KIND_INT, pid),
  F ("ppid", KIND_INT, ppid),
  F ("cwd", KIND_STRING, cwd),
  F ("exe", KIND_STRING, exe),
  F ("path", KIND_STRING, path),
  F ("argv", KIND_STRV, argv),
  F ("argc", KIND_INT64, argc),
  F ("truncated", KIND_BOOL, truncated),
  F ("interpreter", KIND_STRING, interpreter),
  F ("pipeline", KIND_STRING, pipeline),
  F ("escaped", KIND_BOOL, escaped),
  F ("decision", KIND_DECISION, decision),
  F ("rule", KIND_STRING, rule),
  F ("reason", KIND_STRING, reason),
  F ("by", KIND_STRING, by),
  F ("deadline", KIND_INT64, deadline),
  F ("remember", KIND_REMEMBER, remember),
  F ("client_pid", KIND_INT, client_pid),
  F ("session_end", KIND_BOOL, session_end),
  F ("replaced", KIND_BOOL, replaced),
  F ("exit_code", KIND_INT, exit_code),
  F ("signal", KIND_INT, signal),
  F ("duration", KIND_INT64, duration),
  F ("host", KIND_STRING, host),
  F ("port", KIND_INT, port),
  F ("address", KIND_STRING, address),
  F ("bytes_in", KIND_INT64, bytes_in),
  F ("bytes_out", KIND_INT64, bytes_out),
  F ("name", KIND_STRING, name),
  F ("program", KIND_STRING, program),
  F ("kind", KIND_STRING, kind),
  F ("sha256", KIND_STRING, sha256),
  F ("message", KIND_STRING, message),
};

#undef F

/* Per type: "name" is a required field, "?name" an optional one. */
typedef struct
{
  PaddockMessageType  type;
  const char         *name;
  gboolean            request;
  const char * const  spec[24];
} TypeSpec;

static const TypeSpec types[] = {
  { PADDOCK_MESSAGE_HELLO, "hello", FALSE,
    { "version", "session", "project", "command", "?truncated", "agent_pid", "lock", "network",
      "features", "?paused", NULL } },
  { PADDOCK_MESSAGE_EXEC, "exec", FALSE,
    { "seq", "time", "mono", "pid", "ppid", "cwd", "exe", "path", "argv", "argc",
      "?truncated", "?interpreter", "?pipeline", "decision", "?rule", "?reason", "by", NULL } },
  { PADDOCK_MESSAGE_ASK, "ask", FALSE,
    { "id", "time", "mono", "pid", "ppid", "cwd", "exe", "path", "argv", "argc",
      "?truncated", "?interpreter", "?pipeline", "?decision", "?rule", "?reason", "deadline",
      "?kind", "?name", "?sha256", "?host", "?port", NULL } },
  { PADDOCK_MESSAGE_DECIDED, "decided", FALSE,
    { "id", "time", "decision", "by", "?remember", "?rule", "?client_pid", "?kind", NULL } },
  { PADDOCK_MESSAGE_NET, "net", FALSE,
    { "host", "port", "decision", "?time", "?pid", "?exe", "?rule", "?by", "?address", "?bytes_in",
      "?bytes_out", "?duration", "?id", "?reason", "?kind", NULL } },
  { PADDOCK_MESSAGE_SECRET, "secret", FALSE,
    { "name", "program", "decision", "?time", "?pid", "?by", "?sha256", "?argv", "?cwd", "?reason",
      "?id", NULL } },
  { PADDOCK_MESSAGE_HOME, "home", FALSE,
    { "path", "decision", "?name", "?time", "?pid", "?exe", "?by", "?reason", "?id", NULL } },
  { PADDOCK_MESSAGE_EXIT, "exit", FALSE,
    { "time", "pid", "?seq", "?session_end", "?replaced", "?exit_code", "?signal", "?duration", NULL } },
  { PADDOCK_MESSAGE_ERROR, "error", FALSE,
    { "message", NULL } },
  { PADDOCK_MESSAGE_DECIDE, "decide", TRUE,
    { "id", "decision", "?remember", NULL } },
  { PADDOCK_MESSAGE_KILL, "kill", TRUE,
    { "?time", "?by", NULL } },
  { PADDOCK_MESSAGE_PAUSE, "pause", TRUE,
    { "?time", "?by", NULL } },
  { PADDOCK_MESSAGE_RESUME, "resume", TRUE,
    { "?time", "?by", NULL } },
  { PADDOCK_MESSAGE_LOCK_STATUS, "lock-status", TRUE,
    { "?session", "?lock", "?reason", "?network", "?features", "?denied", "?home_open", "?home_asked",
      "?paused", NULL } },
  { PADDOCK_MESSAGE_NOTICE, "notice", FALSE,
    { "time", "message", NULL } },
};

static const TypeSpec *
find_type (PaddockMessageType type)
{
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (types[i].type == type)
      return &types[i];
  return NULL;
}

/* Every member of every line is looked up by name: the fields by name,
 * and which fields each type lists, are built once rather than searched. */
typedef struct
{
  GHashTable *by_name;                      /* name → Field, in fields[] */
  guint64     listed[G_N_ELEMENTS (types)]; /* a bit per field of fields[] */
  guint64     required[G_N_ELEMENTS (types)];
} FieldIndex;

G_STATIC_ASSERT (G_N_ELEMENTS (fields) <= 64);

static const FieldIndex *
field_index (void)
{
  static FieldIndex index;
  static gsize built;

  if (g_once_init_enter (&built))
    {
      index.by_name = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        g_hash_table_insert (index.by_name, (gpointer) fields[i].name, (gpointer) &fields[i]);
      for (guint t = 0; t < G_N_ELEMENTS (types); t++)
        for (guint i = 0; types[t].spec[i] != NULL; i++)
          {
            const char *entry = types[t].spec[i];
            const Field *field = g_hash_table_lookup (index.by_name, entry + (entry[0] == '?'));

            g_assert (field != NULL);
            index.listed[t] |= G_GUINT64_CONSTANT (1) << (field - fields);
            if (entry[0] != '?')
              index.required[t] |= G_GUINT64_CONSTANT (1) << (field - fields);
          }
      g_once_init_leave (&built, 1);
    }
  return &index;
}

static const Field *
find_field (const char *name)
{
  return g_hash_table_lookup (field_index ()->by_name, name);
}

static guint64
field_bit (const Field *field)
{
  return G_GUINT64_CONSTANT (1) << (field - fields);
}

/* Whether @spec lists @field, as required or optional. */
static gboolean
spec_lists (const TypeSpec *spec,
            const Field    *field)
{
  return (field_index ()->listed[spec - types] & field_bit (field)) != 0;
}

const char *
paddock_message_type_to_string (PaddockMessageType type)
{
  const TypeSpec *spec = find_type (type);

  return spec != NULL ? spec->name : "unknown";
}

gboolean
paddock_message_type_is_request (PaddockMessageType type)
{
  const TypeSpec *spec = find_type (type);

  return spec != NULL && spec->request;
}

gboolean
paddock_message_is_path_retry (const PaddockMessage *denied,
                               const PaddockMessage *message)
{
  g_autofree char *denied_name = NULL;
  g_autofree char *name = NULL;

  if (denied == NULL || message->decision != PADDOCK_DECISION_DENY || message->pid != denied->pid ||
      denied->path == NULL || message->path == NULL || strcmp (denied->path, message->path) == 0 ||
      g_strcmp0 (denied->rule, message->rule) != 0)
    return FALSE;
  if (denied->argv == NULL || message->argv == NULL ||
      !g_strv_equal ((const char * const *) denied->argv, (const char * const *) message->argv))
    return FALSE;
  denied_name = g_path_get_basename (denied->path);
  name = g_path_get_basename (message->path);
  return strcmp (denied_name, name) == 0;
}

const char *
paddock_decision_to_string (PaddockDecision decision)
{
  switch (decision)
    {
    case PADDOCK_DECISION_ALLOW: return "allow";
    case PADDOCK_DECISION_DENY: return "deny";
    case PADDOCK_DECISION_ASK: return "ask";
    case PADDOCK_DECISION_NONE:
    default: return "none";
    }
}

gboolean
paddock_decision_from_string (const char      *string,
                              PaddockDecision *decision)
{
  if (g_strcmp0 (string, "allow") == 0)
    *decision = PADDOCK_DECISION_ALLOW;
  else if (g_strcmp0 (string, "deny") == 0)
    *decision = PADDOCK_DECISION_DENY;
  else if (g_strcmp0 (string, "ask") == 0)
    *decision = PADDOCK_DECISION_ASK;
  else
    return FALSE;
  return TRUE;
}

const char *
paddock_remember_to_string (PaddockRemember remember)
{
  switch (remember)
    {
    case PADDOCK_REMEMBER_SESSION: return "session";
    case PADDOCK_REMEMBER_PROJECT: return "project";
    case PADDOCK_REMEMBER_ONCE:
    default: return "once";
    }
}

static const char *
last_component (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* The name of the program that runs, where argv[0] names another; else NULL. */
static const char *
exec_other_name (const char *path,
                 const char *exe,
                 const char *argv0)
{
  const char *claimed = last_component (argv0 != NULL ? argv0 : "");
  const char *called = NULL;
  const char *resolved = exe != NULL && *exe != '\0' ? last_component (exe) : NULL;

  /* A login shell's "-bash". */
  if (*claimed == '-')
    claimed++;
  /* The path's name, unless it is a descriptor's number or /proc's "exe",
   * which say nothing of what runs: then only the file it led to does. */
  if (path != NULL && *path != '\0' && !g_str_has_prefix (path, "/proc/") && !g_str_has_prefix (path, "/dev/fd/"))
    called = last_component (path);

  if (*claimed != '\0' && (g_strcmp0 (claimed, called) == 0 || g_strcmp0 (claimed, resolved) == 0))
    return NULL;
  if (called != NULL && *called != '\0')
    return called;
  if (resolved != NULL && *resolved != '\0')
    return resolved;
  return NULL;
}

/* Adds "  (LABELTEXT)" to @line, @text made safe for display. */
static void
append_note (GString    *line,
             const char *label,
             const char *text)
{
  g_autofree char *shown = paddock_escape_for_display (text, -1);

  g_string_append_printf (line, "  (%s%s)", label, shown);
}

char *
paddock_exec_display_line (const char         *path,
                           const char         *exe,
                           const char         *interpreter,
                           const char         *pipeline,
                           const char * const *argv)
{
  const char *argv0 = argv != NULL ? argv[0] : NULL;
  const char *other = exec_other_name (path, exe, argv0);
  GString *line = g_string_new (NULL);

  if (other == NULL)
    {
      g_autofree char *words = paddock_escape_argv_for_display (argv);

      g_string_append (line, words);
    }
  else
    {
      g_autofree char *name = paddock_escape_for_display (other, -1);
      g_autofree char *claimed = paddock_escape_for_display (argv0 != NULL ? argv0 : "", -1);
      g_autofree char *rest = paddock_escape_argv_for_display (argv0 != NULL ? argv + 1 : NULL);

      g_string_append_printf (line, "%s%s%s  (calls itself \"%s\")", name, *rest != '\0' ? " " : "", rest, claimed);
    }
  if (interpreter != NULL)
    append_note (line, "#!", interpreter);
  if (pipeline != NULL)
    append_note (line, "pipeline: ", pipeline);
  return g_string_free (line, FALSE);
}

/* @path below @home, as "~" and the rest, or NULL. */
static char *
under_home (const char *path,
            const char *home)
{
  gsize length;

  if (home == NULL || *home == '\0' || strcmp (home, "/") == 0)
    return NULL;
  length = strlen (home);
  while (length > 1 && home[length - 1] == '/')
    length--;
  if (strncmp (path, home, length) != 0 || (path[length] != '\0' && path[length] != '/'))
    return NULL;
  return g_strconcat ("~", path + length, NULL);
}

char *
paddock_home_display_path (const char *path,
                           const char *name)
{
  g_autofree char *full = NULL;
  g_autofree char *tilde = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  full = name != NULL && *name != '\0' ? g_build_filename (path, name, NULL) : g_strdup (path);
  /* The entry is canonical: the home folder may be a link (/home to
   * /var/home), so its canonical form is tried too. */
  tilde = under_home (full, g_get_home_dir ());
  if (tilde == NULL)
    {
      g_autofree char *canonical = g_canonicalize_filename (g_get_home_dir (), "/");
      g_autofree char *real = realpath (canonical, NULL);

      tilde = under_home (full, real);
    }
  return paddock_escape_for_display (tilde != NULL ? tilde : full, -1);
}

static gboolean
remember_from_string (const char      *string,
                      PaddockRemember *remember)
{
  if (g_strcmp0 (string, "once") == 0)
    *remember = PADDOCK_REMEMBER_ONCE;
  else if (g_strcmp0 (string, "session") == 0)
    *remember = PADDOCK_REMEMBER_SESSION;
  else if (g_strcmp0 (string, "project") == 0)
    *remember = PADDOCK_REMEMBER_PROJECT;
  else
    return FALSE;
  return TRUE;
}

PaddockMessage *
paddock_message_new (PaddockMessageType type)
{
  PaddockMessage *message = g_new0 (PaddockMessage, 1);

  /* Numbers start at -1, "not set", so optional ones are left out when written. */
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gpointer slot = G_STRUCT_MEMBER_P (message, fields[i].offset);

      if (fields[i].kind == KIND_INT)
        *(int *) slot = -1;
      else if (fields[i].kind == KIND_INT64)
        *(gint64 *) slot = -1;
    }
  message->type = type;
  message->version = PADDOCK_PROTOCOL_VERSION;
  return message;
}

void
paddock_message_free (PaddockMessage *message)
{
  if (message == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gpointer slot = G_STRUCT_MEMBER_P (message, fields[i].offset);

      if (fields[i].kind == KIND_STRING)
        g_free (*(char **) slot);
      else if (fields[i].kind == KIND_STRV)
        g_strfreev (*(char ***) slot);
    }
  g_free (message);
}

PaddockMessage *
paddock_message_copy (const PaddockMessage *message)
{
  PaddockMessage *copy = g_memdup2 (message, sizeof *message);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gpointer slot = G_STRUCT_MEMBER_P (copy, fields[i].offset);

      if (fields[i].kind == KIND_STRING)
        *(char **) slot = g_strdup (*(char **) slot);
      else if (fields[i].kind == KIND_STRV)
        *(char ***) slot = g_strdupv (*(char ***) slot);
    }
  return copy;
}

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_INVALID, text);
  return FALSE;
}

static gboolean
read_integer (const PaddockJsonFlatMember *member,
              const char                  *name,
              gint64                       min,
              gint64                       max,
              gint64                      *out,
              GError                     **error)
{
  if (member->kind != PADDOCK_JSON_FLAT_INTEGER)
    return invalid (error, "field \"%s\" must be an integer", name);
  if (member->integer < min || member->integer > max)
    return invalid (error, "field \"%s\" is out of range", name);
  *out = member->integer;
  return TRUE;
}

static gboolean
read_string (const PaddockJsonFlatMember  *member,
             const char                   *name,
             char                        **out,
             GError                      **error)
{
  if (member->kind != PADDOCK_JSON_FLAT_STRING)
    return invalid (error, "field \"%s\" must be a string", name);
  *out = g_strdup (member->string);
  return TRUE;
}

static gboolean
read_field (PaddockMessage              *message,
            const Field                 *field,
            const PaddockJsonFlatMember *member,
            GError                     **error)
{
  gpointer slot = G_STRUCT_MEMBER_P (message, field->offset);
  g_autofree char *text = NULL;
  gint64 value = 0;

  switch (field->kind)
    {
    case KIND_STRING:
      return read_string (member, field->name, (char **) slot, error);

    case KIND_STRV:
      /* A list's first string that is not one is what is wrong with it. */
      if (member->kind == PADDOCK_JSON_FLAT_LIST)
        return invalid (error, "field \"%s\" must be a string", field->name);
      if (member->kind != PADDOCK_JSON_FLAT_STRINGS)
        return invalid (error, "field \"%s\" must be an array of strings", field->name);
      *(char ***) slot = g_strdupv ((char **) member->strings);
      return TRUE;

    case KIND_INT:
      if (!read_integer (member, field->name, -1, G_MAXINT, &value, error))
        return FALSE;
      *(int *) slot = (int) value;
      return TRUE;

    case KIND_INT64:
      return read_integer (member, field->name, -1, G_MAXINT64, (gint64 *) slot, error);

    case KIND_BOOL:
      if (member->kind != PADDOCK_JSON_FLAT_BOOLEAN)
        return invalid (error, "field \"%s\" must be true or false", field->name);
      *(gboolean *) slot = member->boolean;
      return TRUE;

    case KIND_DECISION:
      if (!read_string (member, field->name, &text, error))
        return FALSE;
      if (!paddock_decision_from_string (text, (PaddockDecision *) slot))
        return invalid (error, "field \"decision\" must be \"allow\", \"deny\" or \"ask\"");
      return TRUE;

    case KIND_REMEMBER:
      if (!read_string (member, field->name, &text, error))
        return FALSE;
      if (!remember_from_string (text, (PaddockRemember *) slot))
        return invalid (error, "field \"remember\" must be \"once\", \"session\" or \"project\"");
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

/* The bytes \xNN and \\ stand for, back in place; FALSE where a
 * backslash starts anything else, or stands for a NUL. */
static gboolean
unescape_in_place (char *text)
{
  char *to = text;

  for (const char *from = text; *from != '\0'; from++)
    {
      int high, low;

      if (*from != '\\')
        *to++ = *from;
      else if (from[1] == '\\')
        *to++ = *++from;
      else if (from[1] == 'x' && (high = g_ascii_xdigit_value (from[2])) >= 0 &&
               (low = g_ascii_xdigit_value (from[3])) >= 0 && (high | low) != 0)
        {
          *to++ = (char) (high << 4 | low);
          from += 3;
        }
      else
        return FALSE;
    }
  *to = '\0';
  return TRUE;
}

/* The first field of @spec one of whose strings in @message @func says
 * FALSE of, going through them in order; NULL when it says TRUE of all. */
static const Field *
find_string_field (const PaddockMessage *message,
                   const TypeSpec       *spec,
                   gboolean            (*func) (char *string))
{
  for (guint i = 0; spec->spec[i] != NULL; i++)
    {
      const Field *field = find_field (spec->spec[i] + (spec->spec[i][0] == '?'));
      gconstpointer slot = G_STRUCT_MEMBER_P (message, field->offset);
      char *one[] = { field->kind == KIND_STRING ? *(char * const *) slot : NULL, NULL };
      char * const *strings = field->kind == KIND_STRV ? *(char ** const *) slot : one;

      for (guint j = 0; strings != NULL && strings[j] != NULL; j++)
        if (!func (strings[j]))
          return field;
    }
  return NULL;
}

static gboolean
unescape_fields (PaddockMessage *message,
                 const TypeSpec *spec,
                 GError        **error)
{
  const Field *field = find_string_field (message, spec, unescape_in_place);

  if (field != NULL)
    return invalid (error, "field \"%s\" of an escaped message holds a backslash that is "
                    "neither \\\\ nor \\xNN (NN not 00)", field->name);
  return TRUE;
}

/* @name as an error shows it: escaped, and cut short where long. */
static char *
shown_name (const char *name)
{
  char *shown = g_strescape (name, NULL);

  if (strlen (shown) > 64)
    strcpy (shown + 61, "...");
  return shown;
}

static const TypeSpec *
find_type_spec (const PaddockJsonFlatMember *members,
                guint                        n_members,
                GError                     **error)
{
  const PaddockJsonFlatMember *type = NULL;
  g_autofree char *shown = NULL;

  for (guint i = 0; i < n_members && type == NULL; i++)
    if (strcmp (members[i].name, "type") == 0)
      type = &members[i];
  if (type == NULL)
    return invalid (error, "no \"type\" field"), NULL;
  if (type->kind != PADDOCK_JSON_FLAT_STRING)
    return invalid (error, "field \"type\" must be a string"), NULL;
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (strcmp (types[i].name, type->string) == 0)
      return &types[i];
  shown = shown_name (type->string);
  g_set_error (error, PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_UNKNOWN_TYPE,
               "unknown message type \"%s\"", shown);
  return NULL;
}

/* The message @members make, whichever reader read them: each checked
 * against its type's list, in the order they came. */
static PaddockMessage *
message_of_members (const PaddockJsonFlatMember *members,
                    guint                        n_members,
                    GError                     **error)
{
  g_autoptr(PaddockMessage) message = NULL;
  const TypeSpec *spec = find_type_spec (members, n_members, error);
  guint64 seen = 0;  /* a bit for each of fields[] */

  if (spec == NULL)
    return NULL;

  message = paddock_message_new (spec->type);
  for (guint i = 0; i < n_members; i++)
    {
      const char *name = members[i].name;
      const Field *field;

      if (strcmp (name, "type") == 0)
        continue;
      field = find_field (name);
      /* Any message may be written escaped (see paddock_message_to_line). */
      if (field == NULL || (strcmp (name, "escaped") != 0 && !spec_lists (spec, field)))
        {
          g_autofree char *shown = shown_name (name);

          return invalid (error, "unknown field \"%s\" in a %s message", shown, spec->name), NULL;
        }
      if (!read_field (message, field, &members[i], error))
        return NULL;
      seen |= field_bit (field);
    }

  if ((field_index ()->required[spec - types] & ~seen) != 0)
    for (guint i = 0; spec->spec[i] != NULL; i++)
      if (spec->spec[i][0] != '?' && (seen & field_bit (find_field (spec->spec[i]))) == 0)
        return invalid (error, "the %s message needs a \"%s\" field", spec->name, spec->spec[i]), NULL;

  if (spec->type == PADDOCK_MESSAGE_DECIDE &&
      message->decision != PADDOCK_DECISION_ALLOW && message->decision != PADDOCK_DECISION_DENY)
    return invalid (error, "a decide message decides \"allow\" or \"deny\""), NULL;

  if (message->escaped && !unescape_fields (message, spec, error))
    return NULL;

  return g_steal_pointer (&message);
}

/* json-glib's value @node as a member; a list's strings are kept in @keep. */
static void
member_of_node (PaddockJsonFlatMember *member,
                JsonNode              *node,
                GPtrArray             *keep)
{
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  member->kind = PADDOCK_JSON_FLAT_OTHER;
  if (type == G_TYPE_STRING)
    {
      member->kind = PADDOCK_JSON_FLAT_STRING;
      member->string = json_node_get_string (node);
    }
  else if (type == G_TYPE_INT64)
    {
      member->kind = PADDOCK_JSON_FLAT_INTEGER;
      member->integer = json_node_get_int (node);
    }
  else if (type == G_TYPE_BOOLEAN)
    {
      member->kind = PADDOCK_JSON_FLAT_BOOLEAN;
      member->boolean = json_node_get_boolean (node);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      GPtrArray *strings = g_ptr_array_new ();

      g_ptr_array_add (keep, strings);
      member->kind = PADDOCK_JSON_FLAT_STRINGS;
      for (guint i = 0; i < json_array_get_length (array) && member->kind == PADDOCK_JSON_FLAT_STRINGS; i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_ptr_array_add (strings, (gpointer) json_node_get_string (element));
          else
            member->kind = PADDOCK_JSON_FLAT_LIST;
        }
      g_ptr_array_add (strings, NULL);
      member->strings = (const char * const *) strings->pdata;
    }
}

/* What the flat reader leaves: json-glib's reading, and its words for
 * what is wrong. */
static PaddockMessage *
message_of_tree (const char *line,
                 gsize       length,
                 GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GArray) members = g_array_new (FALSE, TRUE, sizeof (PaddockJsonFlatMember));
  JsonNode *root;
  JsonObject *object;

  if (!json_parser_load_from_data (parser, line, (gssize) length, &local_error))
    {
      g_autofree char *described = paddock_json_describe_parse_error (local_error);

      return invalid (error, "not JSON: %s", described), NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return invalid (error, "not a JSON object"), NULL;
  object = json_node_get_object (root);

  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      PaddockJsonFlatMember member = { .name = l->data };

      member_of_node (&member, json_object_get_member (object, l->data), keep);
      g_array_append_val (members, member);
    }
  return message_of_members ((const PaddockJsonFlatMember *) (gpointer) members->data, members->len, error);
}

PaddockMessage *
paddock_message_parse (const char *line,
                       gsize       length,
                       GError    **error)
{
  g_autoptr(PaddockJsonFlat) flat = NULL;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (line != NULL || length == 0, NULL);

  if (length > PADDOCK_PROTOCOL_MAX_EVENT_LINE)
    {
      g_set_error (error, PADDOCK_PROTOCOL_ERROR, PADDOCK_PROTOCOL_ERROR_TOO_LONG,
                   "line is longer than %d bytes", PADDOCK_PROTOCOL_MAX_EVENT_LINE);
      return NULL;
    }
  if (length == 0)
    return invalid (error, "empty line"), NULL;
  if (!g_utf8_validate_len (line, length, NULL))
    return invalid (error, "not valid UTF-8 (or holds a NUL byte)"), NULL;
  /* What the flat reader reads is strict JSON already: the checks are for
   * what goes to json-glib. */
  flat = paddock_json_flat_read (line, length);
  if (flat != NULL)
    return message_of_members (flat->members, flat->n_members, error);
  reason = paddock_json_check_object_text (line, length, MAX_DEPTH);
  if (reason != NULL)
    return invalid (error, "%s", reason), NULL;
  return message_of_tree (line, length, error);
}

static gboolean
field_is_set (const PaddockMessage *message,
              const Field          *field)
{
  gconstpointer slot = G_STRUCT_MEMBER_P (message, field->offset);

  switch (field->kind)
    {
    case KIND_STRING:
      return *(char * const *) slot != NULL;
    case KIND_STRV:
      return *(char ** const *) slot != NULL;
    case KIND_INT:
      return *(const int *) slot != -1;
    case KIND_INT64:
      return *(const gint64 *) slot != -1;
    case KIND_BOOL:
      return *(const gboolean *) slot;
    case KIND_DECISION:
      return *(const PaddockDecision *) slot != PADDOCK_DECISION_NONE;
    case KIND_REMEMBER:
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

/* Invalid UTF-8 as \xNN, and so backslashes as \\. */
static char *
escape_bytes (const char *bytes)
{
  const char *end = bytes + strlen (bytes);
  GString *out = g_string_sized_new (end - bytes + 16);

  for (const char *p = bytes; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        g_string_append_printf (out, "\\x%02x", (guchar) *p++);
      else if (c == '\\')
        {
          g_string_append (out, "\\\\");
          p++;
        }
      else
        {
          const char *next = g_utf8_next_char (p);

          g_string_append_len (out, p, next - p);
          p = next;
        }
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_utf8 (char *string)
{
  return g_utf8_validate (string, -1, NULL);
}

static void
add_string (JsonBuilder *builder,
            const char  *value,
            gboolean     escape)
{
  g_autofree char *escaped = escape ? escape_bytes (value) : NULL;

  json_builder_add_string_value (builder, escape ? escaped : value);
}

/* A message whose strings hold bytes that are not UTF-8 (a file name, an
 * argument) says "escaped": true, and every string in it, not only those,
 * is written with \xNN for such a byte and \\ for a backslash: a reader
 * turns each back into the bytes, which paddock_message_parse() does. */
char *
paddock_message_to_line (const PaddockMessage *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  const TypeSpec *spec;
  g_autofree char *text = NULL;
  gboolean escape;

  g_return_val_if_fail (message != NULL, NULL);
  spec = find_type (message->type);
  g_return_val_if_fail (spec != NULL, NULL);
  /* JSON carries only UTF-8. */
  escape = find_string_field (message, spec, is_utf8) != NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, spec->name);
  if (escape)
    {
      json_builder_set_member_name (builder, "escaped");
      json_builder_add_boolean_value (builder, TRUE);
    }

  for (guint i = 0; spec->spec[i] != NULL; i++)
    {
      const char *entry = spec->spec[i];
      gboolean optional = entry[0] == '?';
      const Field *field = find_field (optional ? entry + 1 : entry);
      gconstpointer slot = G_STRUCT_MEMBER_P (message, field->offset);

      g_assert (field != NULL);
      /* Required fields are always written, so a reader never misses one. */
      if (optional && !field_is_set (message, field))
        continue;

      json_builder_set_member_name (builder, field->name);
      switch (field->kind)
        {
        case KIND_STRING:
          add_string (builder, *(char * const *) slot ? *(char * const *) slot : "", escape);
          break;
        case KIND_STRV:
          json_builder_begin_array (builder);
          for (char * const *s = *(char ** const *) slot; s != NULL && *s != NULL; s++)
            add_string (builder, *s, escape);
          json_builder_end_array (builder);
          break;
        case KIND_INT:
          json_builder_add_int_value (builder, *(const int *) slot);
          break;
        case KIND_INT64:
          json_builder_add_int_value (builder, *(const gint64 *) slot);
          break;
        case KIND_BOOL:
          json_builder_add_boolean_value (builder, *(const gboolean *) slot);
          break;
        case KIND_DECISION:
          json_builder_add_string_value (builder,
                                         paddock_decision_to_string (*(const PaddockDecision *) slot));
          break;
        case KIND_REMEMBER:
          json_builder_add_string_value (builder,
                                         paddock_remember_to_string (*(const PaddockRemember *) slot));
          break;
        default:
          g_assert_not_reached ();
        }
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  return g_strconcat (text, "\n", NULL);
}

struct _PaddockLineReader
{
  GByteArray *buffer;
  gsize       consumed;     /* bytes of the lines returned, dropped on the next feed */
  gsize       max_line;
  gboolean    discarding;   /* inside a line that went over the cap */
};

PaddockLineReader *
paddock_line_reader_new (gsize max_line)
{
  PaddockLineReader *reader = g_new0 (PaddockLineReader, 1);

  reader->buffer = g_byte_array_new ();
  reader->max_line = max_line;
  return reader;
}

void
paddock_line_reader_free (PaddockLineReader *reader)
{
  if (reader == NULL)
    return;
  g_byte_array_unref (reader->buffer);
  g_free (reader);
}

static void
drop_consumed (PaddockLineReader *reader)
{
  if (reader->consumed > 0)
    {
      g_byte_array_remove_range (reader->buffer, 0, reader->consumed);
      reader->consumed = 0;
    }
}

void
paddock_line_reader_feed (PaddockLineReader *reader,
                          const char        *data,
                          gsize              length)
{
  drop_consumed (reader);
  if (reader->discarding)
    {
      const char *newline = memchr (data, '\n', length);

      /* Never hold the rest of an over-long line in memory. */
      if (newline == NULL)
        return;
      reader->discarding = FALSE;
      length -= (newline + 1) - data;
      data = newline + 1;
    }
  g_byte_array_append (reader->buffer, (const guint8 *) data, length);
}

/* Lines are taken where they are, and the buffer moved up once a feed:
 * moving it up once a line moved a read's 64 KiB hundreds of times. */
PaddockLineResult
paddock_line_reader_next (PaddockLineReader *reader,
                          const char       **line,
                          gsize             *length)
{
  const guint8 *start = reader->buffer->data + reader->consumed;
  gsize available = reader->buffer->len - reader->consumed;
  const guint8 *newline = available > 0 ? memchr (start, '\n', available) : NULL;
  gsize line_length;

  if (newline == NULL)
    {
      if (available > reader->max_line)
        {
          g_byte_array_set_size (reader->buffer, 0);
          reader->consumed = 0;
          reader->discarding = TRUE;
          return PADDOCK_LINE_TOO_LONG;
        }
      return PADDOCK_LINE_NONE;
    }

  line_length = newline - start;
  reader->consumed += line_length + 1;
  if (line_length > reader->max_line)
    return PADDOCK_LINE_TOO_LONG;

  *line = (const char *) start;
  *length = line_length;
  return PADDOCK_LINE_OK;
}

gsize
paddock_line_reader_pending (PaddockLineReader *reader)
{
  return reader->buffer->len - reader->consumed;
}
