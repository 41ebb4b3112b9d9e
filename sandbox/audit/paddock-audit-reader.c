/* paddock-audit-reader.c: the audit log read back: its chain verified, its records filtered
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A log is read line by line with read(2), never mapped (a writer may cut
 * it short while it is read). Verification walks the chain from the
 * first record: each line's hash must be that of its text, its "prev" the
 * hash of the line before and its "seq" one more; a line that starts with
 * a NUL byte is the unused end a killed writer left.
 */
#include "config.h"

#include "paddock-audit-private.h"
#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-file-kind.h"
#include "paddock-protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The chain */

static gboolean
is_hex_hash (const char *text,
             gsize       length)
{
  if (length != PADDOCK_AUDIT_HASH_LEN)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isxdigit (text[i]) || g_ascii_isupper (text[i]))
      return FALSE;
  return TRUE;
}

gboolean
paddock_audit_split_line (const char  *line,
                          gsize        length,
                          gsize       *prefix_length,
                          const char **hash)
{
  static const gsize tail = sizeof HASH_KEY - 1 + PADDOCK_AUDIT_HASH_LEN + 2;  /* ,"hash":"<64>"} */

  if (length < tail + 1 || line[0] != '{')
    return FALSE;
  if (memcmp (line + length - tail, HASH_KEY, sizeof HASH_KEY - 1) != 0)
    return FALSE;
  if (line[length - 2] != '"' || line[length - 1] != '}')
    return FALSE;
  *hash = line + length - tail + sizeof HASH_KEY - 1;
  if (!is_hex_hash (*hash, PADDOCK_AUDIT_HASH_LEN))
    return FALSE;
  *prefix_length = length - tail;
  return TRUE;
}

gboolean
paddock_audit_hash_holds (const char *line,
                          gsize       prefix_length,
                          const char *hash)
{
  char computed[PADDOCK_AUDIT_HASH_LEN + 1];

  paddock_audit_sha256_hex (line, prefix_length, computed);
  return memcmp (computed, hash, PADDOCK_AUDIT_HASH_LEN) == 0;
}

/* How much of a log is read back for its last line. */
#define MAX_TAIL (16 * 1024 * 1024)

gboolean
paddock_audit_read_last_line (int          fd,
                              const char  *path,
                              GString     *out,
                              gboolean    *empty,
                              gboolean    *ends_with_newline,
                              GError     **error)
{
  struct stat st;
  off_t end, start;
  g_autofree char *buf = NULL;
  gsize want;
  ssize_t n;
  char *last;

  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot read the audit log %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }
  end = st.st_size;
  *ends_with_newline = TRUE;
  *empty = (end == 0);
  if (end == 0)
    return TRUE;

  /* Grow the window until it holds the whole last line. */
  for (want = 4096;; want *= 4)
    {
      if ((off_t) want > end)
        want = end;
      if (want > MAX_TAIL)
        {
          g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                       "cannot continue the audit log %s: its last line is longer than %d MiB",
                       path, MAX_TAIL / (1024 * 1024));
          return FALSE;
        }
      start = end - want;
      g_free (buf);
      buf = g_malloc (want + 1);
      n = pread (fd, buf, want, start);
      if (n != (ssize_t) want)
        {
          int saved_errno = n < 0 ? errno : EIO;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot read the audit log %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      buf[want] = '\0';
      *ends_with_newline = (buf[want - 1] == '\n');
      if (*ends_with_newline)
        buf[--n] = '\0';
      last = memrchr (buf, '\n', n);
      if (last != NULL || start == 0)
        {
          const char *line = last ? last + 1 : buf;

          g_string_append_len (out, line, buf + n - line);
          return TRUE;
        }
    }
}

/* Verification */

void
paddock_audit_verification_clear (PaddockAuditVerification *result)
{
  g_return_if_fail (result != NULL);
  g_clear_pointer (&result->reason, g_free);
  memset (result, 0, sizeof *result);
}

static gint64
parse_record_time (JsonObject *object)
{
  const char *text = json_object_get_string_member_with_default (object, "time", NULL);
  g_autoptr(GDateTime) dt = NULL;

  if (text == NULL)
    return -1;
  dt = g_date_time_new_from_iso8601 (text, NULL);
  if (dt == NULL)
    return -1;
  return g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
}

/* json-glib's parser recurses once per level of nesting; a forged line of
 * ten million '[' must not take the reader's stack with it. */
static gboolean
nested_too_deeply (const char *text,
                   gsize       length)
{
  guint depth = 0;
  char quote = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (quote != 0)
        {
          if (c == '\\')
            i++;
          else if (c == quote)
            quote = 0;
        }
      else if (c == '"' || c == '\'')
        quote = c;
      else if (c == '[' || c == '{')
        {
          if (++depth > 64)
            return TRUE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return FALSE;
}

JsonNode *
paddock_audit_parse_record (JsonParser  *parser,
                            const char  *line,
                            gsize        length,
                            const char **why)
{
  JsonNode *root;
  JsonObject *object;
  JsonNode *node;

  if (nested_too_deeply (line, length))
    {
      *why = "nested too deeply";
      return NULL;
    }
  if (!json_parser_load_from_data (parser, line, length, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      *why = "not a JSON object";
      return NULL;
    }
  object = json_node_get_object (root);
  node = json_object_get_member (object, "seq");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 1)
    {
      *why = "no valid \"seq\"";
      return NULL;
    }
  node = json_object_get_member (object, "type");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      *why = "no valid \"type\"";
      return NULL;
    }
  if (parse_record_time (object) < 0)
    {
      *why = "no valid \"time\"";
      return NULL;
    }
  node = json_object_get_member (object, "prev");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      *why = "no valid \"prev\"";
      return NULL;
    }
  return root;
}

/* The chain as far as it was read. */
typedef struct
{
  JsonParser               *parser;
  PaddockAuditVerification *result;
  char                      prev[PADDOCK_AUDIT_HASH_LEN + 1];
  guint64                   expected_seq;
  guint64                   line_number;
} Verifier;

static void
verifier_init (Verifier                 *v,
               PaddockAuditVerification *result)
{
  memset (result, 0, sizeof *result);
  v->parser = json_parser_new_immutable ();
  v->result = result;
  memcpy (v->prev, ZERO_HASH, sizeof v->prev);
  memcpy (result->last_hash, ZERO_HASH, sizeof v->prev);
  v->expected_seq = 1;
  v->line_number = 0;
}

/* Checks the line at @p (without its newline, which @has_newline says was
 * there). Returns FALSE once the chain breaks there: result says why. */
static gboolean
verifier_line (Verifier   *v,
               const char *p,
               gsize       line_length,
               gboolean    has_newline)
{
  PaddockAuditVerification *result = v->result;
  const char *hash;
  gsize prefix_length;
  const char *why = NULL;
  JsonNode *root;
  JsonObject *object;
  guint64 seq;
  const char *record_prev;

  v->line_number++;
  result->bad_line = v->line_number;

  if (!has_newline)
    {
      result->reason = g_strdup ("the last record is cut short (no end of line): the log was truncated");
      return FALSE;
    }
  if (line_length == 0)
    {
      result->reason = g_strdup ("an empty line where a record should be");
      return FALSE;
    }
  if (memchr (p, '\0', line_length) != NULL)
    {
      result->reason = g_strdup ("a NUL byte in the record: the file was damaged");
      return FALSE;
    }
  if (!paddock_audit_split_line (p, line_length, &prefix_length, &hash))
    {
      result->reason = g_strdup ("not a record: it does not end with a \"hash\" field (damaged, truncated, or garbage appended)");
      return FALSE;
    }
  root = paddock_audit_parse_record (v->parser, p, line_length, &why);
  if (root == NULL)
    {
      result->reason = g_strdup_printf ("not a record: %s", why);
      return FALSE;
    }
  object = json_node_get_object (root);
  if (!paddock_audit_hash_holds (p, prefix_length, hash))
    {
      result->reason = g_strdup ("the record's hash does not match its content: the record was edited or damaged");
      return FALSE;
    }
  seq = (guint64) json_object_get_int_member (object, "seq");
  record_prev = json_object_get_string_member (object, "prev");
  if (seq != v->expected_seq)
    {
      if (seq > v->expected_seq)
        result->reason = g_strdup_printf ("seq jumps from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                                          ": a record was deleted or moved",
                                          v->expected_seq - 1, seq);
      else
        result->reason = g_strdup_printf ("seq %" G_GUINT64_FORMAT " comes after %" G_GUINT64_FORMAT
                                          ": a record was moved or repeated",
                                          seq, v->expected_seq - 1);
      return FALSE;
    }
  if (strcmp (record_prev, v->prev) != 0)
    {
      if (v->line_number == 1)
        result->reason = g_strdup ("the first record does not start a chain (prev is not all zeros): "
                                   "the log's beginning was removed");
      else
        result->reason = g_strdup_printf ("the chain is broken: prev is not the hash of record %" G_GUINT64_FORMAT
                                          " (a record was replaced)", seq - 1);
      return FALSE;
    }

  memcpy (v->prev, hash, PADDOCK_AUDIT_HASH_LEN);
  memcpy (result->last_hash, hash, PADDOCK_AUDIT_HASH_LEN);
  result->n_records++;
  result->ended = (strcmp (json_object_get_string_member (object, "type"), PADDOCK_AUDIT_SESSION_END) == 0);
  v->expected_seq++;
  result->bad_line = 0;
  return TRUE;
}

static void
verifier_clear (Verifier *v)
{
  g_clear_object (&v->parser);
}

void
paddock_audit_verify_data (const char               *data,
                           gsize                     length,
                           PaddockAuditVerification *result)
{
  Verifier v;
  const char *p = data;
  const char *end = data + length;

  g_return_if_fail (result != NULL);
  g_return_if_fail (data != NULL || length == 0);

  verifier_init (&v, result);
  while (p < end)
    {
      const char *newline = memchr (p, '\n', end - p);
      gsize line_length = (newline ? newline : end) - p;

      /* Space the writer reserved and did not fill: it was killed. */
      if (*p == '\0')
        break;
      if (!verifier_line (&v, p, line_length, newline != NULL))
        break;
      p = newline ? newline + 1 : end;
    }
  verifier_clear (&v);
}

/* A log read line by line with read(2), never mapped: a writer may cut the
 * file short while it is read (a session trims its reserved space when it
 * ends), and a mapping would fault there. */
typedef struct
{
  int    fd;
  char  *buffer;
  gsize  size;
  gsize  start;       /* of the next line */
  gsize  filled;
  gboolean eof;
} LineFile;

/* Longer than any record paddock-run writes (argv is capped well below). */
#define MAX_LINE_BYTES (64 * 1024 * 1024)

static gboolean
line_file_open (LineFile    *lf,
                const char  *path,
                GError     **error)
{
  *lf = (LineFile) { .fd = -1, .size = 1024 * 1024 };
  /* Looked at before the open too: opening some devices does something. */
  if (!paddock_file_kind_check_read (path, -1, NULL, error))
    return FALSE;
  lf->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (lf->fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot open %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }
  /* /proc/kmsg, say, would wait for the kernel's next message. */
  if (!paddock_file_kind_check_read (path, lf->fd, NULL, error))
    {
      paddock_close_fd (&lf->fd);
      return FALSE;
    }
  lf->buffer = g_malloc (lf->size);
  return TRUE;
}

static void
line_file_close (LineFile *lf)
{
  paddock_close_fd (&lf->fd);
  g_clear_pointer (&lf->buffer, g_free);
}

/* The next line, without its newline (*has_newline says whether it had
 * one: only the last line can lack it). FALSE at the end of the file, or
 * with @error when it cannot be read or a line is longer than
 * MAX_LINE_BYTES. */
static gboolean
line_file_next (LineFile    *lf,
                const char  *path,
                const char **line,
                gsize       *length,
                gboolean    *has_newline,
                GError     **error)
{
  for (;;)
    {
      const char *at = lf->buffer + lf->start;
      gsize available = lf->filled - lf->start;
      const char *newline = memchr (at, '\n', available);
      ssize_t n;

      if (newline != NULL || (lf->eof && available > 0))
        {
          *line = at;
          *length = newline != NULL ? (gsize) (newline - at) : available;
          *has_newline = newline != NULL;
          lf->start += *length + (newline != NULL);
          return TRUE;
        }
      if (lf->eof)
        return FALSE;

      /* Keep the partial line, make room for more. */
      memmove (lf->buffer, at, available);
      lf->start = 0;
      lf->filled = available;
      if (lf->filled == lf->size)
        {
          if (lf->size >= MAX_LINE_BYTES)
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s: a line longer than %d MiB: not an audit log", path,
                           MAX_LINE_BYTES / (1024 * 1024));
              return FALSE;
            }
          lf->size *= 2;
          lf->buffer = g_realloc (lf->buffer, lf->size);
        }
      do
        n = read (lf->fd, lf->buffer + lf->filled, lf->size - lf->filled);
      while (n < 0 && errno == EINTR);
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot read %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        lf->eof = TRUE;
      lf->filled += n;
    }
}

gboolean
paddock_audit_verify_file (const char                *path,
                           PaddockAuditVerification  *result,
                           GError                   **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  return paddock_audit_foreach (path, NULL, NULL, NULL, result, error);
}

/* Reading */

/* The string array @node as bytes, NULL-terminated; NULL when @node is no array. */
static GStrv
node_dup_strv (JsonNode *node)
{
  JsonArray *array;
  GStrv strv;
  guint length;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  strv = g_new0 (char *, length + 1);
  for (guint i = 0; i < length; i++)
    {
      char *bytes = paddock_audit_node_dup_string (json_array_get_element (array, i));

      strv[i] = bytes != NULL ? bytes : g_strdup ("");
    }
  return strv;
}

char *
paddock_audit_dup_command_line (JsonObject *object,
                                const char *member)
{
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (member != NULL, NULL);

  argv = node_dup_strv (json_object_get_member (object, member));
  return argv != NULL ? paddock_escape_argv_for_display ((const char * const *) argv) : NULL;
}

char *
paddock_audit_dup_exec_line (JsonObject *object)
{
  g_auto(GStrv) argv = NULL;
  g_autofree char *path = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *interpreter = NULL;
  g_autofree char *pipeline = NULL;
  JsonNode *node;

  g_return_val_if_fail (object != NULL, NULL);

  argv = node_dup_strv (json_object_get_member (object, "argv"));
  if (argv == NULL)
    return g_strdup ("");
  if ((node = json_object_get_member (object, "path")) != NULL)
    path = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "exe")) != NULL)
    exe = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "interpreter")) != NULL)
    interpreter = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "pipeline")) != NULL)
    pipeline = paddock_audit_node_dup_string (node);
  return paddock_exec_display_line (path, exe, interpreter, pipeline, (const char * const *) argv);
}

/* --grep looks at the record's JSON text and at its command line as shown,
 * where the arguments are one string ("rm -rf build" is not in the JSON). */
static gboolean
grep_matches (GRegex                   *grep,
              const PaddockAuditRecord *record)
{
  g_autofree char *command = NULL;

  if (g_regex_match_full (grep, record->text, record->text_len, 0, 0, NULL, NULL))
    return TRUE;
  if (json_object_has_member (record->object, "argv"))
    command = paddock_audit_dup_exec_line (record->object);
  else
    command = paddock_audit_dup_command_line (record->object, "command");
  return command != NULL && g_regex_match (grep, command, 0, NULL);
}

gboolean
paddock_audit_filter_matches (const PaddockAuditFilter *filter,
                              const PaddockAuditRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);

  return filter == NULL ||
         ((filter->since_us == 0 || record->time_us >= filter->since_us) &&
          (filter->type == NULL || strcmp (filter->type, record->type) == 0) &&
          (filter->decision == NULL ||
           g_strcmp0 (json_object_get_string_member_with_default (record->object, "decision", NULL),
                      filter->decision) == 0) &&
          (filter->grep == NULL || grep_matches (filter->grep, record)));
}

gboolean
paddock_audit_foreach (const char                *path,
                       const PaddockAuditFilter  *filter,
                       PaddockAuditRecordFunc     func,
                       gpointer                   user_data,
                       PaddockAuditVerification  *verification,
                       GError                   **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  LineFile lf;
  Verifier v;
  const char *p;
  gsize length;
  gboolean has_newline;
  gboolean calling = func != NULL;
  gboolean verifying = verification != NULL;
  guint64 line_number = 0;
  GError *local_error = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (func != NULL || verification != NULL, FALSE);

  if (verification != NULL)
    memset (verification, 0, sizeof *verification);
  if (!line_file_open (&lf, path, error))
    return FALSE;
  if (verification != NULL)
    verifier_init (&v, verification);
  while ((calling || verifying) && line_file_next (&lf, path, &p, &length, &has_newline, &local_error))
    {
      const char *why;
      JsonNode *root;
      PaddockAuditRecord record;

      /* Space the writer reserved and did not fill: it was killed. */
      if (length > 0 && *p == '\0')
        break;
      if (verifying && !verifier_line (&v, p, length, has_newline))
        verifying = FALSE;
      line_number++;
      if (!calling)
        continue;
      root = (length > 0 && memchr (p, '\0', length) == NULL) ? paddock_audit_parse_record (parser, p, length, &why) : NULL;
      if (root == NULL)
        continue;
      record.object = json_node_get_object (root);
      record.line = line_number;
      record.seq = (guint64) json_object_get_int_member (record.object, "seq");
      record.time_us = parse_record_time (record.object);
      record.type = json_object_get_string_member (record.object, "type");
      record.text = p;
      record.text_len = length;
      if (paddock_audit_filter_matches (filter, &record) && !func (&record, user_data))
        calling = FALSE;
    }
  if (verification != NULL)
    verifier_clear (&v);
  line_file_close (&lf);
  if (local_error != NULL)
    {
      if (verification != NULL)
        paddock_audit_verification_clear (verification);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_audit_parse_time (const char  *text,
                          gint64       now_us,
                          gint64      *out_us,
                          GError     **error)
{
  g_autoptr(GTimeZone) local = g_time_zone_new_local ();
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *iso = NULL;
  char *end;
  guint64 amount;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out_us != NULL, FALSE);

  if (g_ascii_isdigit (*text))
    {
      amount = g_ascii_strtoull (text, &end, 10);
      if (end[0] != '\0' && end[1] == '\0' && strchr ("smhd", end[0]) != NULL && amount < G_MAXINT32)
        {
          gint64 unit = end[0] == 's' ? 1 : end[0] == 'm' ? 60 : end[0] == 'h' ? 3600 : 86400;

          *out_us = now_us - (gint64) amount * unit * G_USEC_PER_SEC;
          return TRUE;
        }
    }

  iso = g_strdup (text);
  g_strstrip (iso);
  /* A time of day alone ("10:54", "10:53:30.910", as attach shows one):
   * today's, in local time. */
  if (g_ascii_isdigit (iso[0]) && (iso[1] == ':' || (g_ascii_isdigit (iso[1]) && iso[2] == ':')))
    {
      g_autoptr(GDateTime) now = g_date_time_new_from_unix_local (now_us / G_USEC_PER_SEC);
      g_autofree char *today = now != NULL ? g_date_time_format (now, "%Y-%m-%d") : NULL;
      char *dated = g_strdup_printf ("%sT%s%s", today != NULL ? today : "", iso[1] == ':' ? "0" : "", iso);

      g_free (iso);
      iso = dated;
    }
  if (strlen (iso) == 10)
    {
      char *with_time = g_strconcat (iso, "T00:00:00", NULL);

      g_free (iso);
      iso = with_time;
    }
  else if (strlen (iso) > 10 && iso[10] == ' ')
    iso[10] = 'T';
  /* g_date_time_new_from_iso8601() wants seconds; allow "12:00". */
  if (strlen (iso) >= 16 && iso[10] == 'T' && iso[13] == ':' && iso[16] != ':')
    {
      char *with_seconds = g_strdup_printf ("%.16s:00%s", iso, iso + 16);

      g_free (iso);
      iso = with_seconds;
    }
  dt = g_date_time_new_from_iso8601 (iso, local);
  if (dt == NULL)
    {
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_TIME,
                   "cannot read the time \"%s\": use 2026-03-01, 2026-03-01T12:00, 12:00 (today), or an age like "
                   "15m, 2h, 3d", text);
      return FALSE;
    }
  *out_us = g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
  return TRUE;
}

char *
paddock_audit_node_dup_string (JsonNode *node)
{
  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      g_autoptr(GString) out = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          gint64 value;

          if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_INT64)
            return NULL;
          value = json_node_get_int (element);
          if (value < 1 || value > 255)
            return NULL;
          g_string_append_c (out, (char) value);
        }
      return g_string_free (g_steal_pointer (&out), FALSE);
    }
  return NULL;
}
