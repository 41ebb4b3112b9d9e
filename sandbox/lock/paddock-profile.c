/* paddock-profile.c: what each kind of agent needs under the folder lock, read from agent-profiles.conf
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the folder lock an agent may write its project, /tmp, and its own
 * state: its settings, sessions and caches. Each profile names those
 * paths, the files made before the lock, and how the agent is started
 * under it (its own sandbox, which cannot nest in the lock, turned off).
 * The profiles are data, in data/agent-profiles.conf, compiled in; a
 * command that matches no profile gets the "shell" profile, which writes
 * nothing outside the project.
 *
 * The file is lines, not JSON, so that every mistake in it is named by its
 * line: "FILE:LINE: reason".
 */
#include "config.h"

#include "paddock-escape.h"
#include "paddock-profile.h"
#include "paddock-xdg.h"

#include <gio/gio.h>
#include <string.h>

#define MAX_PROFILES_SIZE (1024 * 1024)
#define MAX_NAME 64

extern GResource *paddock_lock_get_resource (void);

struct _PaddockProfiles
{
  GPtrArray *profiles;  /* PaddockProfile */
};

static const char * const path_prefixes[] = { "~/", "$CONFIG/", "$DATA/", "$STATE/", "$CACHE/" };

G_DEFINE_QUARK (paddock-profile-error-quark, paddock_profile_error)

static void
profile_free (PaddockProfile *profile)
{
  g_free (profile->name);
  g_free (profile->title);
  g_strfreev (profile->programs);
  g_strfreev (profile->writes);
  g_strfreev (profile->makes);
  g_strfreev (profile->make_texts);
  g_strfreev (profile->locked_args);
  g_strfreev (profile->locked_env);
  g_free (profile->keeps);
  g_free (profile->origin);
  g_free (profile);
}

void
paddock_profiles_free (PaddockProfiles *profiles)
{
  if (profiles == NULL)
    return;
  g_ptr_array_unref (profiles->profiles);
  g_free (profiles);
}

/* What one section is being read into: growing lists, made strvs at its end. */
typedef struct
{
  PaddockProfile *profile;
  guint           line;
  GPtrArray      *programs, *writes, *makes, *make_texts, *locked_args, *locked_env;
} Section;

static GPtrArray *
strings_new (void)
{
  return g_ptr_array_new_with_free_func (g_free);
}

static char **
strings_steal (GPtrArray **strings)
{
  g_ptr_array_add (*strings, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (strings), FALSE);
}

static void
section_clear (Section *section)
{
  g_clear_pointer (&section->programs, g_ptr_array_unref);
  g_clear_pointer (&section->writes, g_ptr_array_unref);
  g_clear_pointer (&section->makes, g_ptr_array_unref);
  g_clear_pointer (&section->make_texts, g_ptr_array_unref);
  g_clear_pointer (&section->locked_args, g_ptr_array_unref);
  g_clear_pointer (&section->locked_env, g_ptr_array_unref);
  g_clear_pointer (&section->profile, profile_free);
}

static void
section_finish (Section   *section,
                GPtrArray *profiles)
{
  PaddockProfile *profile = g_steal_pointer (&section->profile);

  if (profile == NULL)
    return;
  profile->programs = strings_steal (&section->programs);
  profile->writes = strings_steal (&section->writes);
  profile->makes = strings_steal (&section->makes);
  profile->make_texts = strings_steal (&section->make_texts);
  profile->locked_args = strings_steal (&section->locked_args);
  profile->locked_env = strings_steal (&section->locked_env);
  g_ptr_array_add (profiles, profile);
}

G_GNUC_PRINTF (4, 5)
static gboolean
refuse (GError    **error,
        const char *source,
        guint       line,
        const char *format,
        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, PADDOCK_PROFILE_ERROR, PADDOCK_PROFILE_ERROR_INVALID, "%s:%u: %s", source, line, message);
  return FALSE;
}

static gboolean
is_name (const char *name)
{
  if (*name == '\0' || strlen (name) > MAX_NAME || !g_ascii_isalnum (*name))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '-' && *p != '_')
      return FALSE;
  return TRUE;
}

/* Why @pattern is no state path, or NULL when it is one. */
static const char *
check_path (const char *pattern,
            gboolean    may_be_dir)
{
  const char *rest = NULL;
  g_auto(GStrv) parts = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (path_prefixes); i++)
    if (g_str_has_prefix (pattern, path_prefixes[i]))
      rest = pattern + strlen (path_prefixes[i]);
  if (rest == NULL)
    return "a path starts with ~/, $CONFIG/, $DATA/, $STATE/ or $CACHE/";
  if (*rest == '\0' || strcmp (rest, "/") == 0)
    return "a path names something in its folder, not the folder itself";
  if (!may_be_dir && g_str_has_suffix (rest, "/"))
    return "a file made before the lock is a file: no '/' at its end";
  parts = g_strsplit (rest, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if ((parts[i][0] == '\0' && parts[i + 1] != NULL) ||
        strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
      return "a path holds no \".\", \"..\" or \"//\"";
  return NULL;
}

static gboolean
is_env_name (const char *name,
             gsize       length)
{
  if (length == 0 || g_ascii_isdigit (*name))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

static const PaddockProfile *
find_program (GPtrArray  *profiles,
              Section    *section,
              const char *program)
{
  for (guint i = 0; i < profiles->len; i++)
    {
      PaddockProfile *profile = g_ptr_array_index (profiles, i);

      if (g_strv_contains ((const char * const *) profile->programs, program))
        return profile;
    }
  for (guint i = 0; section->programs != NULL && i < section->programs->len; i++)
    if (strcmp (g_ptr_array_index (section->programs, i), program) == 0)
      return section->profile;
  return NULL;
}

/* One "key = value" line of @section. */
static gboolean
read_member (Section     *section,
             GPtrArray   *profiles,
             const char  *key,
             const char  *value,
             const char  *source,
             guint        line,
             GError     **error)
{
  PaddockProfile *profile = section->profile;
  g_autofree char *shown = paddock_escape_for_display (value, -1);
  const char *why;

  if (strcmp (key, "title") == 0 || strcmp (key, "keeps") == 0)
    {
      char **field = strcmp (key, "title") == 0 ? &profile->title : &profile->keeps;

      if (*field != NULL)
        return refuse (error, source, line, "[%s] has a \"%s\" already", profile->name, key);
      *field = g_strdup (value);
      return TRUE;
    }
  if (strcmp (key, "programs") == 0)
    {
      g_auto(GStrv) names = g_strsplit_set (value, " \t", -1);

      for (guint i = 0; names[i] != NULL; i++)
        {
          const PaddockProfile *other;

          if (names[i][0] == '\0')
            continue;
          if (strchr (names[i], '/') != NULL || strcmp (names[i], ".") == 0 || strcmp (names[i], "..") == 0)
            {
              g_autofree char *name = paddock_escape_for_display (names[i], -1);
              return refuse (error, source, line, "program %s: a program is named without a folder", name);
            }
          other = find_program (profiles, section, names[i]);
          if (other != NULL)
            {
              g_autofree char *name = paddock_escape_for_display (names[i], -1);
              return refuse (error, source, line, "program %s is in [%s] already", name, other->name);
            }
          g_ptr_array_add (section->programs, g_strdup (names[i]));
        }
      return TRUE;
    }
  if (strcmp (key, "write") == 0)
    {
      if ((why = check_path (value, TRUE)) != NULL)
        return refuse (error, source, line, "write %s: %s", shown, why);
      g_ptr_array_add (section->writes, g_strdup (value));
      return TRUE;
    }
  if (strcmp (key, "make") == 0)
    {
      gsize length = strcspn (value, " \t");
      g_autofree char *path = g_strndup (value, length);
      const char *text = value + length;

      while (*text == ' ' || *text == '\t')
        text++;
      if ((why = check_path (path, FALSE)) != NULL)
        {
          g_autofree char *shown_path = paddock_escape_for_display (path, -1);
          return refuse (error, source, line, "make %s: %s", shown_path, why);
        }
      g_ptr_array_add (section->makes, g_steal_pointer (&path));
      g_ptr_array_add (section->make_texts, g_strdup (text));
      return TRUE;
    }
  if (strcmp (key, "locked-arg") == 0)
    {
      g_ptr_array_add (section->locked_args, g_strdup (value));
      return TRUE;
    }
  if (strcmp (key, "locked-env") == 0)
    {
      const char *equals = strchr (value, '=');

      if (equals == NULL || !is_env_name (value, equals - value))
        return refuse (error, source, line, "locked-env %s: not NAME=VALUE, with a NAME of letters, "
                       "digits and '_'", shown);
      g_ptr_array_add (section->locked_env, g_strdup (value));
      return TRUE;
    }
  {
    g_autofree char *shown_key = paddock_escape_for_display (key, -1);

    return refuse (error, source, line, "unknown key \"%s\" (known: title, programs, write, make, "
                   "locked-arg, locked-env, keeps)", shown_key);
  }
}

/* The first control character in @line (a tab aside), or NULL. */
static const char *
find_control (const char *line)
{
  for (const char *p = line; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\t')
      return p;
    else if ((guchar) *p == 0x7f)
      return p;
  return NULL;
}

static gboolean
read_lines (const char  *text,
            gsize        length,
            const char  *source,
            GPtrArray   *profiles,
            GError     **error)
{
  g_auto(GStrv) lines = NULL;
  g_autofree char *copy = g_strndup (text, length);
  Section section = { 0 };
  gboolean ok = TRUE;

  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; ok && lines[i] != NULL; i++)
    {
      guint number = i + 1;
      char *line = g_strstrip (lines[i]);
      char *equals;

      if (*line == '\0' || *line == '#')
        continue;
      if (find_control (line) != NULL)
        {
          ok = refuse (error, source, number, "a control character is in the line");
          break;
        }
      if (*line == '[')
        {
          size_t len = strlen (line);
          g_autofree char *name = NULL;

          if (line[len - 1] != ']')
            {
              ok = refuse (error, source, number, "a section is [NAME], with its ']' at the end of the line");
              break;
            }
          name = g_strstrip (g_strndup (line + 1, len - 2));
          if (!is_name (name))
            {
              g_autofree char *shown = paddock_escape_for_display (name, -1);
              ok = refuse (error, source, number, "[%s]: a profile's name is lower-case letters, digits, "
                           "'-' and '_', at most %d", shown, MAX_NAME);
              break;
            }
          section_finish (&section, profiles);
          for (guint j = 0; j < profiles->len; j++)
            if (strcmp (((PaddockProfile *) g_ptr_array_index (profiles, j))->name, name) == 0)
              {
                ok = refuse (error, source, number, "[%s] is there already, from %s", name,
                             ((PaddockProfile *) g_ptr_array_index (profiles, j))->origin);
                break;
              }
          if (!ok)
            break;
          section_clear (&section);
          section.profile = g_new0 (PaddockProfile, 1);
          section.profile->name = g_steal_pointer (&name);
          section.profile->origin = g_strdup_printf ("%s:%u", source, number);
          section.line = number;
          section.programs = strings_new ();
          section.writes = strings_new ();
          section.makes = strings_new ();
          section.make_texts = strings_new ();
          section.locked_args = strings_new ();
          section.locked_env = strings_new ();
          continue;
        }
      equals = strchr (line, '=');
      if (equals == NULL)
        {
          ok = refuse (error, source, number, "expected [NAME] or KEY = VALUE");
          break;
        }
      *equals = '\0';
      g_strstrip (line);
      g_strstrip (equals + 1);
      if (*line == '\0')
        ok = refuse (error, source, number, "no key before the '='");
      else if (section.profile == NULL)
        ok = refuse (error, source, number, "\"%s\" comes before the first [NAME]", line);
      else if (equals[1] == '\0')
        ok = refuse (error, source, number, "\"%s\" has no value", line);
      else
        ok = read_member (&section, profiles, line, equals + 1, source, number, error);
    }
  if (ok)
    section_finish (&section, profiles);
  section_clear (&section);
  return ok;
}

PaddockProfiles *
paddock_profiles_parse (const char  *text,
                        gssize       length,
                        const char  *source,
                        GError     **error)
{
  g_autoptr(PaddockProfiles) profiles = g_new0 (PaddockProfiles, 1);
  const char *bad;
  gsize len;

  g_return_val_if_fail (text != NULL && source != NULL, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  profiles->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) profile_free);
  if (len > MAX_PROFILES_SIZE)
    {
      g_set_error (error, PADDOCK_PROFILE_ERROR, PADDOCK_PROFILE_ERROR_INVALID,
                   "%s: larger than %d bytes; agent profiles are a few lines each", source, MAX_PROFILES_SIZE);
      return NULL;
    }
  if (memchr (text, '\0', len) != NULL || !g_utf8_validate (text, len, &bad))
    {
      const char *at = memchr (text, '\0', len);
      guint line = 1;

      if (at == NULL || (!g_utf8_validate (text, len, &bad) && bad < at))
        at = bad;
      for (const char *p = text; p < at; p++)
        line += *p == '\n';
      refuse (error, source, line, "%s", *at == '\0' ? "a NUL byte is in the line" : "the line is not UTF-8 text");
      return NULL;
    }
  if (!read_lines (text, len, source, profiles->profiles, error))
    return NULL;
  if (paddock_profiles_lookup (profiles, "shell") == NULL)
    {
      g_set_error (error, PADDOCK_PROFILE_ERROR, PADDOCK_PROFILE_ERROR_INVALID,
                   "%s: no [shell] profile, which a command no other profile names gets", source);
      return NULL;
    }
  return g_steal_pointer (&profiles);
}

PaddockProfiles *
paddock_profiles_load_file (const char  *path,
                            GError     **error)
{
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  return paddock_profiles_parse (text, length, path, error);
}

guint
paddock_profiles_get_n (const PaddockProfiles *profiles)
{
  return profiles->profiles->len;
}

const PaddockProfile *
paddock_profiles_get (const PaddockProfiles *profiles,
                      guint                  index)
{
  g_return_val_if_fail (index < profiles->profiles->len, NULL);
  return g_ptr_array_index (profiles->profiles, index);
}

const PaddockProfile *
paddock_profiles_lookup (const PaddockProfiles *profiles,
                         const char            *name)
{
  for (guint i = 0; i < profiles->profiles->len; i++)
    {
      const PaddockProfile *profile = g_ptr_array_index (profiles->profiles, i);

      if (g_strcmp0 (profile->name, name) == 0)
        return profile;
    }
  return NULL;
}

gboolean
paddock_profile_runs (const PaddockProfile *profile,
                      const char           *command)
{
  g_autofree char *base = g_path_get_basename (command);

  return g_strv_contains ((const char * const *) profile->programs, base);
}

const PaddockProfile *
paddock_profiles_guess (const PaddockProfiles *profiles,
                        const char            *command)
{
  for (guint i = 0; i < profiles->profiles->len; i++)
    {
      const PaddockProfile *profile = g_ptr_array_index (profiles->profiles, i);

      if (paddock_profile_runs (profile, command))
        return profile;
    }
  return paddock_profiles_lookup (profiles, "shell");
}

const PaddockProfiles *
paddock_profiles_get_default (void)
{
  static PaddockProfiles *profiles;

  if (g_once_init_enter (&profiles))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_resource_lookup_data (paddock_lock_get_resource (),
                                                        "/org/paddock/Paddock/agent-profiles.conf",
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      PaddockProfiles *parsed;

      g_assert (bytes != NULL);
      parsed = paddock_profiles_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                       "agent-profiles.conf", &error);
      /* The built-in profiles are checked by the test suite; they cannot be broken at run time. */
      if (parsed == NULL)
        g_error ("the built-in agent profiles are broken: %s", error->message);
      g_once_init_leave (&profiles, parsed);
    }
  return profiles;
}

const PaddockProfile *
paddock_profile_lookup (const char *name)
{
  return paddock_profiles_lookup (paddock_profiles_get_default (), name);
}

const PaddockProfile *
paddock_profile_guess (const char *command)
{
  return paddock_profiles_guess (paddock_profiles_get_default (), command);
}

char *
paddock_profile_list_names (void)
{
  const PaddockProfiles *profiles = paddock_profiles_get_default ();
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < profiles->profiles->len; i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "",
                            ((PaddockProfile *) g_ptr_array_index (profiles->profiles, i))->name);
  return g_string_free (g_steal_pointer (&names), FALSE);
}

char **
paddock_profile_locked_argv (const PaddockProfile *profile,
                             const char * const   *argv)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  gboolean runs = argv[0] != NULL && paddock_profile_runs (profile, argv[0]);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      g_ptr_array_add (out, g_strdup (argv[i]));
      for (guint j = 0; i == 0 && runs && profile->locked_args[j] != NULL; j++)
        g_ptr_array_add (out, g_strdup (profile->locked_args[j]));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

/* Expands a state path pattern against $HOME and the XDG base directories. */
char *
paddock_profile_expand_path (const char *pattern,
                             gboolean   *is_dir)
{
  static const struct { const char *prefix; const char *(*dir) (void); } bases[] = {
    { "~/", g_get_home_dir },
    { "$CONFIG/", paddock_user_config_dir },
    { "$DATA/", paddock_user_data_dir },
    { "$STATE/", paddock_user_state_dir },
    { "$CACHE/", paddock_user_cache_dir },
  };
  size_t len = strlen (pattern);

  *is_dir = len > 0 && pattern[len - 1] == '/';
  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    if (g_str_has_prefix (pattern, bases[i].prefix))
      {
        g_autofree char *rest = g_strndup (pattern + strlen (bases[i].prefix),
                                           len - strlen (bases[i].prefix) - (*is_dir ? 1 : 0));
        return g_build_filename (bases[i].dir (), rest, NULL);
      }
  g_return_val_if_reached (NULL);
}

static void
explain_paths (GString            *out,
               const char         *key,
               const char * const *patterns,
               const char * const *texts)
{
  if (patterns[0] == NULL)
    g_string_append_printf (out, "%s: none\n", key);
  for (guint i = 0; patterns[i] != NULL; i++)
    {
      gboolean is_dir;
      g_autofree char *path = paddock_profile_expand_path (patterns[i], &is_dir);
      g_autofree char *shown = paddock_escape_for_display (path, -1);

      g_string_append_printf (out, "%s: %s (%s%s)", key, patterns[i], shown, is_dir ? "/" : "");
      if (texts != NULL && texts[i][0] != '\0')
        g_string_append_printf (out, ", holding %s", texts[i]);
      g_string_append_c (out, '\n');
    }
}

void
paddock_profile_explain (const PaddockProfile *profile,
                         GString              *out)
{
  g_string_append_printf (out, "profile: %s\n", profile->name);
  g_string_append_printf (out, "title: %s\n", profile->title != NULL ? profile->title : profile->name);
  g_string_append_printf (out, "from: %s\n", profile->origin);
  if (profile->programs[0] == NULL)
    g_string_append (out, "programs: none (any command no other profile names)\n");
  else
    {
      g_autofree char *programs = g_strjoinv (" ", profile->programs);

      g_string_append_printf (out, "programs: %s\n", programs);
    }
  explain_paths (out, "write", (const char * const *) profile->writes, NULL);
  explain_paths (out, "made-before-lock", (const char * const *) profile->makes,
                 (const char * const *) profile->make_texts);
  if (profile->locked_args[0] == NULL)
    g_string_append (out, "locked-args: none\n");
  else
    {
      g_string_append (out, "locked-args:");
      for (guint i = 0; profile->locked_args[i] != NULL; i++)
        {
          const char *arg = profile->locked_args[i];
          gboolean plain = *arg != '\0' && strspn (arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                        "0123456789_./=:,@%+-") == strlen (arg);
          g_autofree char *quoted = plain ? g_strdup (arg) : g_shell_quote (arg);

          g_string_append_printf (out, " %s", quoted);
        }
      g_string_append (out, "\n");
    }
  if (profile->locked_env[0] == NULL)
    g_string_append (out, "locked-env: none\n");
  for (guint i = 0; profile->locked_env[i] != NULL; i++)
    g_string_append_printf (out, "locked-env: %s\n", profile->locked_env[i]);
  g_string_append_printf (out, "keeps: %s\n", profile->keeps != NULL ? profile->keeps : "not said");
}
