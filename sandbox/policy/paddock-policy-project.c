/* paddock-policy-project.c: a project's own rules and the answers remembered for it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An answer remembered is a rule for exactly the command line asked
 * about. Those remembered for a project, and the project's own rules, are
 * kept under $XDG_CONFIG_HOME/paddock/projects/, one file per project.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-project-store.h"
#include "paddock-policy-private.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* @path with its symbolic links resolved, or only its . and .. where it
 * cannot be (it does not exist), taken from @relative_to where relative
 * (NULL: the current folder). GLib's allocator is the C library's (since
 * 2.46), so realpath()'s string is ours to g_free(). */
static char *
canonical_path (const char *path,
                const char *relative_to)
{
  char *real = realpath (path, NULL);

  return real != NULL ? real : g_canonicalize_filename (path, relative_to);
}

char *
paddock_policy_dup_home (void)
{
  return canonical_path (g_get_home_dir (), "/");
}

/* Regex text matching exactly @bytes: ASCII letters and digits as they
 * are, every other byte as \xHH, so the result is ASCII (fit for JSON)
 * whatever the bytes were. */
static void
append_regex_literal (GString    *out,
                      const char *bytes)
{
  for (const guchar *p = (const guchar *) bytes; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        g_string_append_c (out, *p);
      else if (*p == ' ')
        g_string_append (out, "\\x20");
      else
        g_string_append_printf (out, "\\x%02x", *p);
    }
}

/* A glob matching exactly @bytes (specials quoted); bytes that cannot go
 * into a JSON string become '?'. */
static char *
glob_literal (const char *bytes)
{
  GString *out = g_string_new (NULL);
  const char *p = bytes;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if ((guchar) *p >= 0x80 && (c == (gunichar) -1 || c == (gunichar) -2))
        {
          g_string_append_c (out, '?');
          p++;
          continue;
        }
      if (strchr ("*?[]\\", *p) != NULL)
        g_string_append_c (out, '\\');
      if ((guchar) *p < 0x80)
        {
          g_string_append_c (out, *p);
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

PaddockPolicyRule *
paddock_policy_rule_new_remembered (const PaddockPolicyQuery  *query,
                                    PaddockPolicyAction        action,
                                    PaddockPolicyScope         scope,
                                    GError                   **error)
{
  g_autoptr(PaddockPolicyRule) rule = paddock_policy_rule_new_empty ();
  g_autoptr(GString) regex = g_string_new ("^");
  g_autoptr(JsonObject) match = json_object_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M");
  g_autofree char *digest = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(GError) local_error = NULL;
  Match m;

  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (scope == PADDOCK_POLICY_SCOPE_SESSION || scope == PADDOCK_POLICY_SCOPE_PROJECT, NULL);

  paddock_policy_match_init (&m, query);

  if (query->exe != NULL && *query->exe != '\0')
    {
      rule->programs = g_new0 (char *, 2);
      rule->programs[0] = glob_literal (query->exe);
      json_object_set_string_member (match, "program", rule->programs[0]);
    }
  append_regex_literal (regex, paddock_policy_match_line (&m));
  g_string_append_c (regex, '$');
  /* A command line of tens of kilobytes is more than PCRE compiles. */
  rule->argv_regex = g_regex_new (regex->str, G_REGEX_RAW, 0, &local_error);
  if (rule->argv_regex == NULL)
    {
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                   "its command line (%zu bytes) is too long for a rule: %s",
                   strlen (paddock_policy_match_line (&m)), local_error->message);
      paddock_policy_match_clear (&m);
      return NULL;
    }
  g_regex_match (rule->argv_regex, "", 0, NULL);
  json_object_set_string_member (match, "argv", regex->str);

  /* A shell reading from a pipe is remembered with what it read from: an
   * answer for `curl … | sh` is not one for every `… | sh`. */
  if (paddock_policy_match_script (&m) != NULL && m.piped != NULL)
    {
      g_autoptr(GString) script = g_string_new ("^");

      append_regex_literal (script, m.script);
      g_string_append_c (script, '$');
      rule->script_regex = g_regex_new (script->str, G_REGEX_RAW, 0, &local_error);
      if (rule->script_regex == NULL)
        {
          g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                       "the pipeline it reads from (%zu bytes) is too long for a rule: %s",
                       strlen (m.script), local_error->message);
          paddock_policy_match_clear (&m);
          return NULL;
        }
      json_object_set_string_member (match, "script", script->str);
    }

  /* Named for the program and the line (and the pipeline): the same
   * arguments to another program are another rule, which must not
   * replace this one. */
  {
    g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

    if (rule->programs != NULL)
      g_checksum_update (checksum, (const guchar *) rule->programs[0], strlen (rule->programs[0]) + 1);
    g_checksum_update (checksum, (const guchar *) paddock_policy_match_line (&m), -1);
    if (m.piped != NULL)
      g_checksum_update (checksum, (const guchar *) m.piped->str, m.piped->len + 1);
    digest = g_strdup (g_checksum_get_string (checksum));
  }
  {
    /* The whole command, `curl … | sudo -E bash -`, where the script the
     * rule names is what the wrapped shell reads. */
    g_autofree char *line = m.piped != NULL ? g_strconcat (query->stdin_from, " | ", paddock_policy_match_line (&m), NULL)
                                            : g_strdup (paddock_policy_match_line (&m));

    shown = paddock_escape_for_display (line, -1);
  }
  if (g_utf8_strlen (shown, -1) > 120)
    {
      char *cut = g_utf8_offset_to_pointer (shown, 117);

      strcpy (cut, "...");
    }
  rule->name = g_strdup_printf ("remembered-%.12s", digest);
  rule->reason = g_strdup_printf ("You chose to %s `%s` %s (%s).", paddock_policy_action_to_string (action), shown,
                                  scope == PADDOCK_POLICY_SCOPE_PROJECT ? "in this project" : "for this session", when);
  rule->action = action;
  rule->scope = scope;
  rule->origin = g_strdup (scope == PADDOCK_POLICY_SCOPE_PROJECT ? "remembered" : "session");
  rule->match = json_node_init_object (json_node_alloc (), match);
  paddock_policy_match_clear (&m);
  return g_steal_pointer (&rule);
}

/* Per-project overrides */

char *
paddock_policy_project_file (const char  *project,
                             GError     **error)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (project != NULL, NULL);

  if (*project == '\0')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the project path is empty");
      return NULL;
    }
  canonical = canonical_path (project, NULL);
  return paddock_project_store_path (canonical, ".json");
}

PaddockPolicy *
paddock_policy_load_project (const char  *project,
                             GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *canonical = NULL;
  PaddockPolicy *self;
  struct stat st;

  g_return_val_if_fail (project != NULL, NULL);

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return NULL;
  canonical = canonical_path (project, NULL);
  if (stat (path, &st) != 0 && errno == ENOENT)
    {
      self = paddock_policy_new ();
      self->project = g_steal_pointer (&canonical);
      return self;
    }
  self = paddock_policy_load_file (path, PADDOCK_POLICY_SCOPE_PROJECT, error);
  if (self == NULL)
    {
      /* The file's name is a digest: say whose it is, and what to do. */
      if (error != NULL && *error != NULL)
        {
          char *message = g_strdup_printf ("%s (the file holds the project %s's own rules and remembered answers: "
                                           "mend it, or remove it to start them over)", (*error)->message, canonical);

          g_free ((*error)->message);
          (*error)->message = message;
        }
      return NULL;
    }
  if (g_strcmp0 (self->project, canonical) != 0)
    {
      g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PROJECT,
                   "%s: the overrides are for the project %s, not %s", path,
                   self->project ? self->project : "(none)", canonical);
      paddock_policy_unref (self);
      return NULL;
    }
  return self;
}

static gboolean
ensure_private_dir (const char  *dir,
                    GError     **error)
{
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }
  if (g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot make %s private: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_policy_save_project (PaddockPolicy  *overrides,
                             const char     *project,
                             GError        **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *old_project = NULL;
  gsize length;
  gboolean ok;

  g_return_val_if_fail (overrides != NULL, FALSE);
  g_return_val_if_fail (project != NULL, FALSE);

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return FALSE;
  dir = paddock_project_store_dir ();
  if (!ensure_private_dir (dir, error))
    return FALSE;

  g_rw_lock_writer_lock (&overrides->lock);
  old_project = g_steal_pointer (&overrides->project);
  overrides->project = canonical_path (project, NULL);
  g_rw_lock_writer_unlock (&overrides->lock);

  data = paddock_policy_to_data (overrides, &length);
  ok = g_file_set_contents_full (path, data, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
  if (!ok)
    g_prefix_error (error, "cannot save the project's policy overrides: ");
  return ok;
}

/* Another session's read, merge and write of the same file holds its lock
 * for a few milliseconds. A lock held longer is another program's, and
 * waiting on it would hold the supervisor's main context with it: its
 * other asks, its clients, a kill. */
#define PROJECT_LOCK_WAIT_MS 250

static gboolean
lock_project_file (int fd)
{
  for (guint waited = 0;; waited += 5)
    {
      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return TRUE;
      if (errno != EWOULDBLOCK && errno != EINTR)
        return FALSE;
      if (waited >= PROJECT_LOCK_WAIT_MS)
        {
          errno = EWOULDBLOCK;
          return FALSE;
        }
      g_usleep (5 * 1000);
    }
}

/* Takes the lock on @project's file for a change, made private where it
 * is missing; its descriptor in *@lock_fd, which closing lets go. */
static gboolean
lock_project (const char  *project,
              int         *lock_fd,
              GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *lock_path = NULL;

  path = paddock_policy_project_file (project, error);
  if (path == NULL)
    return FALSE;
  dir = paddock_project_store_dir ();
  if (!ensure_private_dir (dir, error))
    return FALSE;

  lock_path = g_strconcat (path, ".lock", NULL);
  *lock_fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (*lock_fd < 0 || !lock_project_file (*lock_fd))
    {
      int saved_errno = errno;

      if (saved_errno == EWOULDBLOCK)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN,
                     "cannot lock %s: another program has held it for over %d ms",
                     lock_path, PROJECT_LOCK_WAIT_MS);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                     "cannot lock %s: %s", lock_path, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_policy_remember_in_project (const char         *project,
                                    PaddockPolicyRule  *rule,
                                    GError            **error)
{
  g_autoptr(PaddockPolicy) overrides = NULL;
  paddock_autofd int lock_fd = -1;

  g_return_val_if_fail (project != NULL, FALSE);
  g_return_val_if_fail (rule != NULL, FALSE);

  if (!lock_project (project, &lock_fd, error))
    return FALSE;
  overrides = paddock_policy_load_project (project, error);
  if (overrides == NULL)
    return FALSE;
  /* The same command remembered again (two sessions asked it at once, or
   * it was decided otherwise since): the new answer replaces the old. */
  for (guint i = 0; i < overrides->rules->len; i++)
    {
      PaddockPolicyRule *old = g_ptr_array_index (overrides->rules, i);

      if (strcmp (old->name, rule->name) == 0)
        {
          g_ptr_array_remove_index (overrides->rules, i);
          break;
        }
    }
  paddock_policy_prepend_rule (overrides, rule);
  return paddock_policy_save_project (overrides, project, error);
}

gboolean
paddock_policy_forget_in_project (const char          *project,
                                  const char * const  *names,
                                  GError             **error)
{
  g_autoptr(PaddockPolicy) overrides = NULL;
  paddock_autofd int lock_fd = -1;

  g_return_val_if_fail (project != NULL, FALSE);

  if (!lock_project (project, &lock_fd, error))
    return FALSE;
  overrides = paddock_policy_load_project (project, error);
  if (overrides == NULL)
    return FALSE;
  /* All named rules are there, or nothing changes. */
  for (guint n = 0; names != NULL && names[n] != NULL; n++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < overrides->rules->len && !found; i++)
        found = strcmp (((PaddockPolicyRule *) g_ptr_array_index (overrides->rules, i))->name, names[n]) == 0;
      if (!found)
        {
          g_autoptr(GString) known = g_string_new (NULL);
          g_autofree char *shown = paddock_escape_for_display (names[n], -1);

          for (guint i = 0; i < overrides->rules->len; i++)
            g_string_append_printf (known, "%s%s", i > 0 ? ", " : "",
                                    ((PaddockPolicyRule *) g_ptr_array_index (overrides->rules, i))->name);
          g_set_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID,
                       "the project %s has no rule \"%s\" (its rules: %s)", overrides->project, shown,
                       known->len > 0 ? known->str : "none");
          return FALSE;
        }
    }
  for (guint i = overrides->rules->len; i > 0; i--)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (overrides->rules, i - 1);

      if (names == NULL || g_strv_contains (names, rule->name))
        g_ptr_array_remove_index (overrides->rules, i - 1);
    }
  paddock_policy_rebuild_index (overrides);
  return paddock_policy_save_project (overrides, project, error);
}
