/* fuzz-audit.c: libFuzzer target for the audit log verifier and the record writer
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is verified as a log (which must never crash, and must report
 * a line within the input), then cut at NUL bytes into strings that are
 * written as one record's argv: that log must verify, each string must
 * read back byte for byte, whatever bytes it held, and --grep must see the
 * command line as shown.
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-escape.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *log_path;

static gboolean
check_record (const PaddockAuditRecord *record,
              gpointer                  user_data)
{
  GPtrArray *strings = user_data;
  JsonArray *argv = json_object_get_array_member (record->object, "argv");

  if (argv == NULL || json_array_get_length (argv) != strings->len)
    abort ();
  for (guint i = 0; i < strings->len; i++)
    {
      g_autofree char *back = paddock_audit_node_dup_string (json_array_get_element (argv, i));
      g_autofree char *shown = NULL;

      if (back == NULL || strcmp (back, g_ptr_array_index (strings, i)) != 0)
        abort ();
      shown = paddock_escape_for_display (back, -1);
      if (!g_utf8_validate (shown, -1, NULL) || strchr (shown, 0x1b) != NULL)
        abort ();
    }
  return TRUE;
}

static gboolean
count_record (const PaddockAuditRecord *record G_GNUC_UNUSED,
              gpointer                  user_data)
{
  guint *count = user_data;

  (*count)++;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  PaddockAuditVerification result;
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(JsonArray) argv = json_array_new ();
  g_autoptr(PaddockAudit) audit = NULL;
  guint64 lines = 1;
  const guint8 *p = data;
  const guint8 *end = data + size;

  paddock_audit_verify_data ((const char *) data, size, &result);
  for (size_t i = 0; i < size; i++)
    lines += (data[i] == '\n');
  if (result.bad_line > lines || (result.bad_line != 0) != (result.reason != NULL))
    abort ();
  paddock_audit_verification_clear (&result);

  if (log_path == NULL)
    log_path = g_build_filename (g_get_tmp_dir (), "paddock-fuzz-audit.jsonl", NULL);
  g_unlink (log_path);
  audit = paddock_audit_open (log_path, NULL);
  if (audit == NULL)
    abort ();

  while (p <= end && strings->len < 64)
    {
      const guint8 *nul = memchr (p, '\0', end - p);
      const guint8 *stop = nul ? nul : end;
      char *s = g_strndup ((const char *) p, stop - p);

      g_ptr_array_add (strings, s);
      json_array_add_string_element (argv, s);
      if (nul == NULL)
        break;
      p = nul + 1;
    }
  json_object_set_array_member (fields, "argv", g_steal_pointer (&argv));
  if (!paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, NULL))
    abort ();

  if (!paddock_audit_verify_file (log_path, &result, NULL) || result.bad_line != 0 || result.n_records != 1)
    abort ();
  paddock_audit_verification_clear (&result);
  if (!paddock_audit_foreach (log_path, NULL, check_record, strings, NULL, NULL))
    abort ();

  /* --grep: a pattern no JSON line matches (each starts with "{") is
   * tried on the command line as shown, which starts with the first
   * argument ("{" is shown as it is). */
  {
    static GRegex *not_brace;
    PaddockAuditFilter filter = { 0 };
    guint passed = 0;

    if (not_brace == NULL)
      not_brace = g_regex_new ("\\A(?!\\{)", 0, 0, NULL);
    filter.grep = not_brace;
    if (!paddock_audit_foreach (log_path, &filter, count_record, &passed, NULL, NULL) ||
        passed != (((const char *) g_ptr_array_index (strings, 0))[0] != '{'))
      abort ();
  }
  return 0;
}
