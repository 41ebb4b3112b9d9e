/* paddockctl-audit.c: paddockctl audit verify, show and export
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-audit.h"
#include "paddock-escape.h"
#include "paddock-xdg.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A LOG argument: a file, as input_path(); or, where no file has that
 * name, a session id or a unique prefix of one, whose log is in the
 * folder paddock-run writes them to (session-DATE-TIME-ID.jsonl). NULL,
 * with @error, for such a name that no log has, or more than one. */
static char *
log_path (const char  *arg,
          GError     **error)
{
  g_autofree char *folder = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (strcmp (arg, "-") == 0 || strchr (arg, '/') != NULL || g_file_test (arg, G_FILE_TEST_EXISTS) ||
      *arg == '\0' || strlen (arg) > 12 || strspn (arg, "0123456789abcdef") != strlen (arg))
    return g_strdup (input_path (arg));
  folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  dir = g_dir_open (folder, 0, NULL);
  found = g_ptr_array_new_with_free_func (g_free);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      const char *id = strrchr (name, '-');

      if (g_str_has_prefix (name, "session-") && g_str_has_suffix (name, ".jsonl") && id != NULL &&
          g_str_has_prefix (id + 1, arg))
        g_ptr_array_add (found, g_build_filename (folder, name, NULL));
    }
  if (found->len == 1)
    return g_strdup (g_ptr_array_index (found, 0));
  if (found->len > 1)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < found->len; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", (const char *) g_ptr_array_index (found, i));
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   "\"%s\" names no file here, and begins the ids of %u session logs (%s): give more of the id",
                   arg, found->len, names->str);
      return NULL;
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
               "no file is named \"%s\", and no session log in %s has an id that begins with it", arg, folder);
  return NULL;
}

int
paddockctl_builtin_audit_verify (int    argc,
                                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  PaddockAuditVerification result = { 0 };
  int status;

  if (argc != 2)
    return usage ("audit verify takes one LOG");
  path = log_path (argv[1], &error);
  if (path == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  file = paddock_escape_controls (strcmp (argv[1], "-") == 0 ? argv[1] : path);
  if (!paddock_audit_verify_file (path, &result, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  if (result.bad_line != 0)
    {
      g_autofree char *reason = display (result.reason);
      g_print ("%s: the chain breaks at line %" G_GUINT64_FORMAT ": %s (%" G_GUINT64_FORMAT
               " intact records before it)\n", file, result.bad_line, reason, result.n_records);
      status = 1;
    }
  else if (result.n_records == 0)
    {
      /* Every log begins with its session's start: an empty one is what
       * deleting all its records leaves, and nothing here is verified. */
      g_print ("%s: no records, so nothing to verify (a session's log begins with its session-start)\n",
               file);
      status = 1;
    }
  else
    {
      g_print ("%s: %" G_GUINT64_FORMAT " records, the chain holds%s; last hash %s\n", file,
               result.n_records,
               result.ended ? ", ends with session-end" :
                              "; it does not end with session-end (still being written, or cut short)",
               result.last_hash);
      status = 0;
    }
  paddock_audit_verification_clear (&result);
  return status;
}

typedef struct
{
  PaddockAuditFilter  filter;
  GRegex             *grep;
  char               *file;
  char               *decision;
  char               *type;
} AuditArgs;

static void
audit_args_clear (AuditArgs *args)
{
  g_clear_pointer (&args->grep, g_regex_unref);
  g_clear_pointer (&args->file, g_free);
  g_clear_pointer (&args->decision, g_free);
  g_clear_pointer (&args->type, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AuditArgs, audit_args_clear)

static int
parse_audit_args (int        argc,
                  char     **argv,
                  AuditArgs *args)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(GError) error = NULL;
  g_autofree char *since = NULL;
  g_autofree char *grep = NULL;
  GOptionEntry entries[] = {
    { "since", 0, 0, G_OPTION_ARG_STRING, &since, "Records at or after TIME (2026-03-01T12:00, 2026-03-01, 15m, 2h, 3d)", "TIME" },
    { "decision", 0, 0, G_OPTION_ARG_STRING, &args->decision, "Records with this decision", "allow|deny|ask" },
    { "type", 0, 0, G_OPTION_ARG_STRING, &args->type, "Records of this type (exec, exit, decision, …)", "TYPE" },
    { "grep", 0, 0, G_OPTION_ARG_STRING, &grep, "Records whose JSON text or command line matches REGEX", "REGEX" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage (error->message);
  if (argc != 2)
    return usage ("give one LOG");
  args->file = log_path (argv[1], &error);
  if (args->file == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }

  if (args->decision != NULL &&
      !g_strv_contains ((const char * const[]) { "allow", "deny", "ask", NULL }, args->decision))
    {
      paddock_printerr ("--decision: \"%s\" is not allow, deny or ask", args->decision);
      return EXIT_USAGE;
    }

  if (since != NULL &&
      !paddock_audit_parse_time (since, g_get_real_time (), &args->filter.since_us, &error))
    {
      paddock_printerr ("--since: %s", error->message);
      return EXIT_USAGE;
    }
  if (grep != NULL)
    {
      args->grep = g_regex_new (grep, G_REGEX_OPTIMIZE, 0, &error);
      if (args->grep == NULL)
        {
          paddock_printerr ("--grep: %s", error->message);
          return EXIT_USAGE;
        }
    }
  args->filter.decision = args->decision;
  args->filter.type = args->type;
  args->filter.grep = args->grep;
  return 0;
}

static char *
member_text (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autofree char *raw = NULL;

  if (node == NULL)
    return g_strdup ("");
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  raw = paddock_audit_node_dup_string (node);
  return display (raw);
}

static char *
member_argv (JsonObject *object,
             const char *name)
{
  char *line = paddock_audit_dup_command_line (object, name);

  return line != NULL ? line : g_strdup ("");
}

static void
print_show_header (gboolean *printed)
{
  if (!*printed)
    g_print ("%-19s %6s  %-15s %-8s %-10s %s\n", "TIME", "SEQ", "TYPE", "DECISION", "BY", "WHAT");
  *printed = TRUE;
}

/* @user_data: whether the header was printed, which the first record does. */
static gboolean
show_record (const PaddockAuditRecord *record,
             gpointer                  user_data)
{
  JsonObject *object = record->object;
  g_autoptr(GDateTime) time = local_time_new (record->time_us);
  g_autofree char *when = time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("?");
  g_autofree char *decision = member_text (object, "decision");
  g_autofree char *by = member_text (object, "by");
  g_autofree char *detail = NULL;
  g_autofree char *type = display (record->type);

  if (g_strcmp0 (record->type, PADDOCK_AUDIT_EXEC) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *argv = paddock_audit_dup_exec_line (object);
      g_autofree char *rule = member_text (object, "rule");

      detail = g_strdup_printf ("#%s %s%s%s%s", event, argv, *rule ? "  [" : "", rule, *rule ? "]" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_EXIT) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *duration = member_text (object, "duration_us");
      g_autofree char *exit_code = member_text (object, "exit_code");
      g_autofree char *signal = member_text (object, "signal");
      JsonNode *replaced_node = json_object_get_member (object, "replaced");
      gboolean replaced = replaced_node != NULL && JSON_NODE_HOLDS_VALUE (replaced_node) &&
                          json_node_get_value_type (replaced_node) == G_TYPE_BOOLEAN &&
                          json_node_get_boolean (replaced_node);

      detail = g_strdup_printf ("#%s after %s µs%s%s%s%s%s", event, duration,
                                *exit_code ? ", status " : "", exit_code,
                                *signal ? ", signal " : "", signal,
                                replaced ? ", replaced by the next program" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_DECISION) == 0)
    {
      g_autofree char *event = member_text (object, "event");
      g_autofree char *remember = member_text (object, "remember");
      g_autofree char *rule = member_text (object, "rule");
      g_autofree char *client_pid = member_text (object, "client_pid");
      /* An answer remembered names the rule it made; a decision that took
       * no answer, the rule that made it. */
      gboolean remembered = *remember != '\0' && g_strcmp0 (remember, "once") != 0;

      detail = g_strdup_printf ("#%s%s%s%s%s%s%s%s", event,
                                remembered ? ", remembered for the " : "", remembered ? remember : "",
                                *client_pid ? ", at client pid " : "", client_pid,
                                *rule ? "  [" : "", rule, *rule ? "]" : "");
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_KILL) == 0 || g_strcmp0 (record->type, PADDOCK_AUDIT_PAUSE) == 0 ||
           g_strcmp0 (record->type, PADDOCK_AUDIT_RESUME) == 0)
    {
      g_autofree char *client_pid = member_text (object, "client_pid");
      g_autofree char *signal = member_text (object, "signal");

      if (*signal != '\0' && g_strcmp0 (record->type, PADDOCK_AUDIT_KILL) == 0)
        detail = g_strdup_printf ("all the agent's programs: the agent did not end after %s to paddock-run", signal);
      else if (*signal != '\0')
        detail = g_strdup_printf ("all the agent's programs, for %s to paddock-run to reach them", signal);
      else
        detail = g_strdup_printf ("all the agent's programs%s%s", *client_pid ? ", asked by pid " : "", client_pid);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_POLICY) == 0)
    {
      g_autofree char *file = member_text (object, "file");
      g_autofree char *rules = member_text (object, "rules");
      g_autofree char *error = member_text (object, "error");

      if (*error != '\0')
        detail = g_strdup_printf ("the project's rules changed, not taken: %s", error);
      else
        detail = g_strdup_printf ("the project's rules changed: %s rule%s now, from %s", rules,
                                  g_strcmp0 (rules, "1") == 0 ? "" : "s", file);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_SECRET) == 0)
    {
      g_autofree char *name = member_text (object, "name");
      g_autofree char *argv = member_argv (object, "argv");
      g_autofree char *sha256 = member_text (object, "sha256");
      g_autofree char *reason = member_text (object, "reason");

      /* The secret's name and who got it; a record never holds a value. */
      detail = g_strdup_printf ("%s for %s  [sha256 %.12s]%s%s", name, argv, sha256, *reason ? ": " : "", reason);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_HOME) == 0)
    {
      JsonNode *path_node = json_object_get_member (object, "path");
      JsonNode *name_node = json_object_get_member (object, "name");
      g_autofree char *path = path_node != NULL ? paddock_audit_node_dup_string (path_node) : NULL;
      g_autofree char *name = name_node != NULL ? paddock_audit_node_dup_string (name_node) : NULL;
      g_autofree char *what = paddock_home_display_path (path != NULL ? path : "", name);
      g_autofree char *id = member_text (object, "id");
      g_autofree char *exe = member_text (object, "exe");
      g_autofree char *pid = member_text (object, "pid");
      g_autofree char *reason = member_text (object, "reason");

      /* What was read in the home folder (the home folder as ~), by which
       * process, and the ask's id where it was asked. */
      detail = g_strdup_printf ("%s%s%sread %s%s%s%s%s%s%s%s", *id ? "#" : "", id, *id ? " " : "", what,
                                *exe ? " by " : "", exe, *pid ? " (pid " : "", pid, *pid ? ")" : "",
                                *reason ? ": " : "", reason);
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_SESSION_START) == 0)
    {
      g_autofree char *session = member_text (object, "session");
      g_autofree char *project = member_text (object, "project");
      g_autofree char *command = member_argv (object, "command");

      detail = g_strdup_printf ("%s in %s: %s", session, project, command);
    }
  else
    {
      g_autofree char *exit_code = member_text (object, "exit_code");
      g_autofree char *signal = member_text (object, "signal");
      g_autofree char *reason = member_text (object, "reason");
      g_autofree char *error = member_text (object, "error");

      detail = g_strdup_printf ("%s%s%s%s%s%s", *exit_code ? "exit code " : "", exit_code,
                                *signal ? "signal " : "", signal, reason, error);
    }

  print_show_header (user_data);
  g_print ("%-19s %6" G_GUINT64_FORMAT "  %-15s %-8s %-10s %s\n", when, record->seq, type,
           decision, by, detail);
  return TRUE;
}

static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* One pass over the log, for show and export: the records that pass the
 * filter go to @func, the types of all are kept where --type was given
 * (for one no record has), and the chain is verified on the very bytes
 * shown, so that a log edited meanwhile, or a pipe, is checked too. */
typedef struct
{
  const AuditArgs          *args;
  PaddockAuditRecordFunc    func;
  gpointer                  user_data;
  GHashTable               *types;      /* as displayed; only with --type */
  gboolean                  selected;   /* some record passed the filter */
  PaddockAuditVerification  verification;
} Reading;

static void
reading_clear (Reading *reading)
{
  g_clear_pointer (&reading->types, g_hash_table_unref);
  paddock_audit_verification_clear (&reading->verification);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Reading, reading_clear)

static gboolean
read_record (const PaddockAuditRecord *record,
             gpointer                  user_data)
{
  Reading *reading = user_data;

  if (reading->types != NULL)
    g_hash_table_add (reading->types, display (record->type));
  if (!paddock_audit_filter_matches (&reading->args->filter, record))
    return TRUE;
  reading->selected = TRUE;
  return reading->func (record, reading->user_data);
}

/* FALSE, said on stderr, where the log cannot be read. */
static gboolean
read_log (const AuditArgs        *args,
          PaddockAuditRecordFunc  func,
          gpointer                user_data,
          Reading                *reading)
{
  g_autoptr(GError) error = NULL;

  *reading = (Reading) {
    .args = args,
    .func = func,
    .user_data = user_data,
    .types = args->type != NULL ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) : NULL,
  };
  if (!paddock_audit_foreach (args->file, NULL, read_record, reading, &reading->verification, &error))
    {
      paddock_printerr ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* After the records, on stderr: that --type names a type no record in the
 * log has (a typo, most likely), with the types it does have; and where
 * the chain breaks, since what was printed is only as good as the log. */
static void
report_reading (const Reading *reading)
{
  const AuditArgs *args = reading->args;
  const PaddockAuditVerification *result = &reading->verification;

  if (!reading->selected && reading->types != NULL)
    {
      g_autofree char *shown = display (args->type);

      if (!g_hash_table_contains (reading->types, shown))
        {
          g_autofree const char **names = (const char **) g_hash_table_get_keys_as_array (reading->types, NULL);
          g_autofree char *list = NULL;

          qsort (names, g_hash_table_size (reading->types), sizeof *names, compare_strings);
          list = g_strjoinv (", ", (char **) names);
          paddock_printerr ("no record in %s has the type \"%s\"; its types are: %s",
                            args->file, shown, *list != '\0' ? list : "(none)");
        }
    }
  if (result->bad_line != 0)
    {
      g_autofree char *reason = display (result->reason);

      paddock_printerr ("warning: %s: the chain breaks at line %" G_GUINT64_FORMAT
                        ": %s; what is shown from there on cannot be trusted", args->file, result->bad_line, reason);
    }
}

int
paddockctl_builtin_audit_show (int    argc,
                               char **argv)
{
  g_auto(AuditArgs) args = { 0 };
  g_auto(Reading) reading = { 0 };
  int status = parse_audit_args (argc, argv, &args);
  gboolean header = FALSE;

  if (status != 0)
    return status;
  /* The header once the file reads, so a log that cannot be read gets
   * only its error; an empty selection, only the header. */
  if (!read_log (&args, show_record, &header, &reading))
    return 1;
  print_show_header (&header);
  report_reading (&reading);
  return 0;
}

/* Export writes each record as it is read: a log of a long session holds
 * millions, and a tree of them all took twelve times the log's size. */
typedef struct
{
  JsonGenerator *generator;
  GString       *out;
  guint          n;
} Export;

static gboolean
export_record (const PaddockAuditRecord *record,
               gpointer                  user_data)
{
  Export *export = user_data;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, record->object);
  json_generator_set_root (export->generator, node);
  text = json_generator_to_data (export->generator, NULL);
  /* An element of the array: indented one level more. */
  g_string_assign (export->out, export->n++ == 0 ? "[\n  " : ",\n  ");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\n')
        g_string_append (export->out, "\n  ");
      else
        g_string_append_c (export->out, *p);
    }
  fwrite (export->out->str, 1, export->out->len, stdout);
  return TRUE;
}

int
paddockctl_builtin_audit_export (int    argc,
                                 char **argv)
{
  g_auto(AuditArgs) args = { 0 };
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_auto(Reading) reading = { 0 };
  g_autoptr(GString) out = g_string_new (NULL);
  Export export = { generator, out, 0 };
  gboolean read;
  int status = parse_audit_args (argc, argv, &args);

  if (status != 0)
    return status;
  json_generator_set_pretty (generator, TRUE);
  read = read_log (&args, export_record, &export, &reading);
  /* What was written stays a JSON array, even where reading stopped. */
  if (export.n > 0)
    g_print ("\n]\n");
  else if (read)
    g_print ("[]\n");
  if (!read)
    return 1;
  report_reading (&reading);
  return 0;
}
