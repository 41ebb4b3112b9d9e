/* paddock-home.c: which entries of the home folder a locked agent reads unasked, never, or asks for
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules come from data: data/home.conf (compiled in), the user's
 * $XDG_CONFIG_HOME/paddock/home.conf in the same form, the user's
 * deny.conf (each line a closed path), and a project's settings ("deny",
 * and "home" with its "open" and "closed" lists). A rule's path is made
 * canonical once, here; what asks about a path gives it canonical too,
 * so that both compare names only.
 *
 * How a path's kind is found: a closed rule naming it or a folder above
 * it, from any source, makes it closed, so that no other rule can open a
 * credential store again (as no grant could under the deny list before
 * this). Otherwise the most specific open or asked rule naming it or a
 * folder above it decides, a project's over the user's over the shipped
 * one where two name the same path; a path no rule reaches is asked. A
 * rule on a split folder is the kind of its entries, not of itself: the
 * split folders and the home folder are listed, never asked about.
 */
#include "config.h"

#include "paddock-home.h"
#include "paddock-lock-private.h"
#include "paddock-path.h"
#include "paddock-project-config.h"
#include "paddock-xdg.h"

#include <gio/gio.h>
#include <string.h>
#include <unistd.h>

extern GResource *paddock_lock_get_resource (void);

/* Where a rule comes from; a higher rank wins where two name one path. */
typedef enum
{
  RANK_SHIPPED,
  RANK_USER,
  RANK_PROJECT,
} Rank;

typedef struct
{
  PaddockHomeKind kind;
  Rank            rank;
} Rule;

struct _PaddockHome
{
  char       *home;     /* canonical */
  GHashTable *closed;   /* canonical path → itself: every closed rule, the home folder's or not */
  GHashTable *rules;    /* canonical path → Rule: the winning open or asked rule of each path */
  GHashTable *splits;   /* canonical path → itself: the split folders, the home folder among them */
};

/* The user's own file, which only the user writes, is far smaller. */
#define MAX_RULES_SIZE (1024 * 1024)

static const char *
kind_name (PaddockHomeKind kind)
{
  switch (kind)
    {
    case PADDOCK_HOME_OPEN:
      return "open";
    case PADDOCK_HOME_CLOSED:
      return "closed";
    case PADDOCK_HOME_ASKED:
    default:
      return "asked";
    }
}

void
paddock_home_free (PaddockHome *self)
{
  if (self == NULL)
    return;
  g_free (self->home);
  g_clear_pointer (&self->closed, g_hash_table_unref);
  g_clear_pointer (&self->rules, g_hash_table_unref);
  g_clear_pointer (&self->splits, g_hash_table_unref);
  g_free (self);
}

const char *
paddock_home_get_path (PaddockHome *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->home;
}

/* The rules' paths are made canonical lexically first: a trailing "/"
 * would be taken for a name by paddock_lock_canonicalize() where the
 * path does not exist. */
static char *
canonicalize (const char *path)
{
  g_autofree char *plain = g_canonicalize_filename (path, "/");

  return paddock_lock_canonicalize (plain);
}

static void
add_closed (PaddockHome *self,
            const char  *path)
{
  char *real = canonicalize (path);

  g_hash_table_replace (self->closed, real, real);
}

/* An open or asked rule for @path: the higher rank wins, and at one rank
 * (two written paths that resolve to one) asked wins over open. */
static void
add_rule (PaddockHome     *self,
          const char      *path,
          PaddockHomeKind  kind,
          Rank             rank)
{
  g_autofree char *real = canonicalize (path);
  Rule *rule = g_hash_table_lookup (self->rules, real);

  /* Outside the home folder (a symlink leading out of it) only the
   * lock's grants and closed paths speak. */
  if (!paddock_path_is_within (real, self->home))
    return;
  if (rule == NULL)
    {
      rule = g_new0 (Rule, 1);
      g_hash_table_insert (self->rules, g_steal_pointer (&real), rule);
    }
  else if (rule->rank > rank || (rule->rank == rank && rule->kind == PADDOCK_HOME_ASKED))
    return;
  rule->kind = kind;
  rule->rank = rank;
}

static void
add (PaddockHome     *self,
     const char      *path,
     PaddockHomeKind  kind,
     Rank             rank)
{
  if (kind == PADDOCK_HOME_CLOSED)
    add_closed (self, path);
  else
    add_rule (self, path, kind, rank);
}

/* Whether @rest (what follows a rule's "~/" or "$CONFIG/") names a path
 * plainly: no empty, "." or ".." names (one trailing "/" aside), no
 * pattern. Else FALSE, with *@reason. */
static gboolean
check_rest (const char  *rest,
            const char **reason)
{
  g_auto(GStrv) names = g_strsplit (rest, "/", -1);
  guint n = g_strv_length (names);

  if (strpbrk (rest, "*?[") != NULL)
    {
      *reason = "patterns (*, ?, [) are not understood: a rule names one path";
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      if (names[i][0] == '\0' && !(i == n - 1 && i > 0))
        {
          *reason = "holds an empty name (two slashes)";
          return FALSE;
        }
      if (strcmp (names[i], ".") == 0 || strcmp (names[i], "..") == 0)
        {
          *reason = "holds . or .., which a rule does not need";
          return FALSE;
        }
    }
  return TRUE;
}

/* The base folders a rule may start with, and where each usually is in
 * the home folder. */
static const struct
{
  const char  *prefix;
  const char *(*dir) (void);
  const char  *usual;   /* in the home folder; NULL: none */
} bases[] = {
  { "$CONFIG/", paddock_user_config_dir, ".config" },
  { "$DATA/", paddock_user_data_dir, ".local/share" },
  { "$STATE/", paddock_user_state_dir, ".local/state" },
  { "$CACHE/", paddock_user_cache_dir, ".cache" },
  { "$RUNTIME/", paddock_user_runtime_dir, NULL },
};

/* The absolute paths (one, or two for a base folder that is not where it
 * usually is) that @written names in @home; NULL with *@reason where it
 * names none. *@absolute: whether it was written as an absolute path. */
static GPtrArray *
expand (const char  *home,
        const char  *written,
        gboolean    *absolute,
        const char **reason)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  *absolute = FALSE;
  if (strcmp (written, "~") == 0 || strcmp (written, "~/") == 0)
    {
      g_ptr_array_add (paths, g_strdup (home));
      return g_steal_pointer (&paths);
    }
  if (g_str_has_prefix (written, "~/"))
    {
      if (!check_rest (written + 2, reason))
        return NULL;
      g_ptr_array_add (paths, g_canonicalize_filename (written + 2, home));
      return g_steal_pointer (&paths);
    }
  if (written[0] == '/')
    {
      if (!check_rest (written + 1, reason))
        return NULL;
      if (written[1] == '\0')
        {
          *reason = "names the root folder";
          return NULL;
        }
      *absolute = TRUE;
      g_ptr_array_add (paths, g_canonicalize_filename (written, "/"));
      return g_steal_pointer (&paths);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    if (g_str_has_prefix (written, bases[i].prefix))
      {
        const char *rest = written + strlen (bases[i].prefix);
        char *path;

        if (*rest == '\0' || *rest == '/')
          {
            *reason = "names a whole base folder";
            return NULL;
          }
        if (!check_rest (rest, reason))
          return NULL;
        path = g_canonicalize_filename (rest, bases[i].dir ());
        g_ptr_array_add (paths, path);
        if (bases[i].usual != NULL)
          {
            g_autofree char *base = g_build_filename (home, bases[i].usual, NULL);
            char *usual = g_canonicalize_filename (rest, base);

            if (strcmp (usual, path) != 0)
              g_ptr_array_add (paths, usual);
            else
              g_free (usual);
          }
        return g_steal_pointer (&paths);
      }
  *reason = "must start with ~/, /, $CONFIG/, $DATA/, $STATE/, $CACHE/ or $RUNTIME/";
  return NULL;
}

static gboolean
parse_kind (const char      *word,
            PaddockHomeKind *kind)
{
  static const PaddockHomeKind kinds[] = { PADDOCK_HOME_OPEN, PADDOCK_HOME_CLOSED, PADDOCK_HOME_ASKED };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (word, kind_name (kinds[i])) == 0)
      {
        *kind = kinds[i];
        return TRUE;
      }
  return FALSE;
}

/* Reads home.conf's form from @text (@length bytes), named @source in
 * errors, a rule of @rank a line. */
static gboolean
parse_rules (PaddockHome  *self,
             const char   *text,
             gsize         length,
             const char   *source,
             Rank          rank,
             GError      **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *copy = NULL;
  g_auto(GStrv) lines = NULL;

  if (length > MAX_RULES_SIZE)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: larger than %d KiB, which no rules are",
                   source, MAX_RULES_SIZE / 1024);
      return FALSE;
    }
  if (!g_utf8_validate_len (text, length, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not valid UTF-8 (or holds a NUL byte)", source);
      return FALSE;
    }
  copy = g_strndup (text, length);
  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint number = i + 1;
      char *line = g_strstrip (lines[i]);
      g_autoptr(GPtrArray) paths = NULL;
      const char *reason = NULL;
      PaddockHomeKind kind;
      gboolean absolute;
      gsize word_length;
      char *written;

      if (*line == '\0' || *line == '#')
        continue;
      word_length = strcspn (line, " \t");
      written = line + word_length;
      written += strspn (written, " \t");
      line[word_length] = '\0';
      if (!parse_kind (line, &kind))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s:%u: %s is not a kind of rule (open, closed or asked, then a path)", source, number, line);
          return FALSE;
        }
      if (*written == '\0')
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s names no path", source, number, line);
          return FALSE;
        }
      if (g_hash_table_contains (seen, written))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s is named on line %u already",
                       source, number, written, GPOINTER_TO_UINT (g_hash_table_lookup (seen, written)));
          return FALSE;
        }
      g_hash_table_insert (seen, g_strdup (written), GUINT_TO_POINTER (number));
      paths = expand (self->home, written, &absolute, &reason);
      if (paths == NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s: %s", source, number, written, reason);
          return FALSE;
        }
      if (kind == PADDOCK_HOME_CLOSED && strcmp (g_ptr_array_index (paths, 0), self->home) == 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s:%u: %s: the home folder itself cannot be closed (the agent's own state is in it)",
                       source, number, written);
          return FALSE;
        }
      if (kind != PADDOCK_HOME_CLOSED && absolute &&
          !paddock_path_is_within (g_ptr_array_index (paths, 0), self->home))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s:%u: %s is not in the home folder %s: only a closed rule reaches outside it",
                       source, number, written, self->home);
          return FALSE;
        }
      for (guint j = 0; j < paths->len; j++)
        add (self, g_ptr_array_index (paths, j), kind, rank);
    }
  return TRUE;
}

static void
parse_shipped (PaddockHome *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_resource_lookup_data (paddock_lock_get_resource (), "/org/paddock/Paddock/home.conf",
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  gsize length;
  const char *text;

  g_assert (bytes != NULL);
  text = g_bytes_get_data (bytes, &length);
  /* The shipped rules are checked by the test suite (test-home); nothing
   * at run time can break them: what they name need not exist. */
  if (!parse_rules (self, text, length, "home.conf", RANK_SHIPPED, &error))
    g_error ("the built-in home.conf is broken: %s", error->message);
}

/* deny.conf: one closed path a line, "~/" or absolute. It predates
 * home.conf, and a line that names no such path is skipped as it always
 * was: whatever it says, the shipped list stands. */
static void
read_deny_conf (PaddockHome *self)
{
  g_autofree char *file = g_build_filename (paddock_user_config_dir (), "paddock", "deny.conf", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (file, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (g_str_has_prefix (line, "~/"))
        {
          g_autofree char *path = g_canonicalize_filename (line + 2, self->home);

          if (strcmp (path, self->home) != 0)
            add_closed (self, path);
        }
      else if (g_path_is_absolute (line))
        add_closed (self, line);
    }
}

/* $XDG_CONFIG_HOME/paddock/home.conf: no file is no rules; one that does
 * not read, or says what is not understood, is an error. */
static gboolean
read_user_file (PaddockHome  *self,
                GError      **error)
{
  g_autofree char *file = g_build_filename (paddock_user_config_dir (), "paddock", "home.conf", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) read_error = NULL;
  gsize length;

  if (!g_file_get_contents (file, &text, &length, &read_error))
    {
      g_autofree char *folder = g_path_get_dirname (file);

      /* A Paddock folder we may not even look into is someone else's
       * (a home folder not ours), as deny.conf has it: no rules. */
      if (g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
          (g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_ACCES) && access (folder, X_OK) != 0))
        return TRUE;
      g_set_error (error, G_FILE_ERROR, read_error->code, "%s", read_error->message);
      return FALSE;
    }
  return parse_rules (self, text, length, file, RANK_USER, error);
}

/* One list of a project's settings, @field in errors: "~/" or absolute
 * paths of @kind. The home folder itself can be neither closed nor
 * opened (it is listed, never asked about); "deny" has skipped it
 * always. */
static gboolean
read_project_list (PaddockHome      *self,
                   const char       *project,
                   char            **paths,
                   PaddockHomeKind   kind,
                   const char       *field,
                   GError          **error)
{
  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      g_autofree char *path = g_str_has_prefix (paths[i], "~/") ? g_canonicalize_filename (paths[i] + 2, self->home)
                                                                : g_canonicalize_filename (paths[i], "/");
      const char *rest = paddock_path_beneath (path, self->home);
      g_autofree char *settings = NULL;

      if (kind == PADDOCK_HOME_OPEN && rest == NULL)
        {
          settings = paddock_project_config_path (project);
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s: %s is not in the home folder %s",
                       settings, field, paths[i], self->home);
          return FALSE;
        }
      if (rest != NULL && *rest == '\0' && strcmp (field, "\"deny\"") != 0)
        {
          settings = paddock_project_config_path (project);
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: %s: %s is the home folder itself, which is listed, never asked about",
                       settings, field, paths[i]);
          return FALSE;
        }
      if (rest == NULL || *rest != '\0')
        add (self, path, kind, RANK_PROJECT);
    }
  return TRUE;
}

/* A project's settings: "deny" and "home"."closed" are closed, each path
 * in "home"."open" is open and must be in the home folder. */
static gboolean
read_project (PaddockHome  *self,
              const char   *project,
              GError      **error)
{
  PaddockProjectConfig config;
  gboolean ok;

  if (!paddock_project_config_load (project, &config, error))
    return FALSE;
  ok = read_project_list (self, project, config.denials, PADDOCK_HOME_CLOSED, "\"deny\"", error) &&
       read_project_list (self, project, config.home_closed, PADDOCK_HOME_CLOSED, "\"home\".\"closed\"", error) &&
       read_project_list (self, project, config.home_open, PADDOCK_HOME_OPEN, "\"home\".\"open\"", error);
  paddock_project_config_clear (&config);
  return ok;
}

/* @dir (canonical) and the folders on the way to it from the home folder
 * are split, where it is in the home folder. */
static void
add_split_chain (PaddockHome *self,
                 const char  *dir)
{
  g_autofree char *real = paddock_lock_canonicalize (dir);

  if (!paddock_path_is_within (real, self->home))
    return;
  while (strcmp (real, self->home) != 0 && !g_hash_table_contains (self->splits, real))
    {
      char *parent = g_path_get_dirname (real);

      g_hash_table_add (self->splits, g_steal_pointer (&real));
      real = parent;
    }
}

static void
add_splits (PaddockHome *self)
{
  static const char * const usual[] = { ".config", ".local/share", ".var/app" };

  g_hash_table_add (self->splits, g_strdup (self->home));
  for (guint i = 0; i < G_N_ELEMENTS (usual); i++)
    {
      g_autofree char *dir = g_build_filename (self->home, usual[i], NULL);

      add_split_chain (self, dir);
    }
  add_split_chain (self, paddock_user_config_dir ());
  add_split_chain (self, paddock_user_data_dir ());
}

static PaddockHome *
home_new (const char *home)
{
  PaddockHome *self = g_new0 (PaddockHome, 1);

  self->home = g_strdup (home);
  self->closed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->rules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->splits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_splits (self);
  parse_shipped (self);
  return self;
}

PaddockHome *
paddock_home_new (const char  *home,
                  const char  *project,
                  GError     **error)
{
  g_autoptr(PaddockHome) self = NULL;

  g_return_val_if_fail (home != NULL && g_path_is_absolute (home), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = home_new (home);
  read_deny_conf (self);
  if (!read_user_file (self, error))
    return NULL;
  if (project != NULL && !read_project (self, project, error))
    return NULL;
  return g_steal_pointer (&self);
}

PaddockHome *
paddock_home_new_for_text (const char  *home,
                           const char  *source,
                           const char  *text,
                           gsize        length,
                           GError     **error)
{
  g_autoptr(PaddockHome) self = NULL;

  g_return_val_if_fail (home != NULL && g_path_is_absolute (home), NULL);
  g_return_val_if_fail (source != NULL && (text != NULL || length == 0), NULL);

  self = home_new (home);
  if (!parse_rules (self, text != NULL ? text : "", length, source, RANK_USER, error))
    return NULL;
  return g_steal_pointer (&self);
}

char **
paddock_home_list_closed_anyway (const char *home)
{
  g_autoptr(PaddockHome) self = paddock_home_new (home, NULL, NULL);

  if (self == NULL)
    {
      /* The user's file is said to be broken by whatever builds the lock;
       * what it would close is lost, what the others close is not. */
      self = home_new (home);
      read_deny_conf (self);
    }
  return paddock_home_list (self, PADDOCK_HOME_CLOSED);
}

/* Whether a closed rule names @path or a folder holding it. */
static gboolean
is_closed (PaddockHome *self,
           const char  *path)
{
  g_autofree char *dir = g_strdup (path);
  char *slash;

  for (;;)
    {
      if (g_hash_table_contains (self->closed, dir))
        return TRUE;
      slash = strrchr (dir, '/');
      if (slash == NULL || slash == dir)
        return g_hash_table_contains (self->closed, "/");
      *slash = '\0';
    }
}

/* The kind of the most specific open or asked rule naming @path (within
 * the home folder) or a folder holding it; asked where none does. */
static PaddockHomeKind
find_rule_kind (PaddockHome *self,
                const char  *path)
{
  g_autofree char *dir = g_strdup (path);

  for (;;)
    {
      Rule *rule = g_hash_table_lookup (self->rules, dir);
      char *slash;

      if (rule != NULL)
        return rule->kind;
      if (strcmp (dir, self->home) == 0)
        return PADDOCK_HOME_ASKED;
      slash = strrchr (dir, '/');
      g_assert (slash != NULL);
      slash[slash == dir ? 1 : 0] = '\0';
    }
}

PaddockHomeKind
paddock_home_classify (PaddockHome *self,
                       const char  *path)
{
  g_return_val_if_fail (self != NULL, PADDOCK_HOME_CLOSED);
  g_return_val_if_fail (path != NULL && paddock_path_is_within (path, self->home), PADDOCK_HOME_CLOSED);

  if (is_closed (self, path))
    return PADDOCK_HOME_CLOSED;
  if (g_hash_table_contains (self->splits, path))
    return PADDOCK_HOME_OPEN;
  return find_rule_kind (self, path);
}

gboolean
paddock_home_is_split (PaddockHome *self,
                       const char  *path)
{
  g_return_val_if_fail (self != NULL && path != NULL, FALSE);

  return g_hash_table_contains (self->splits, path);
}

char *
paddock_home_find_entry (PaddockHome *self,
                         const char  *path)
{
  g_autofree char *entry = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, NULL);

  if (!paddock_path_is_within (path, self->home) || g_hash_table_contains (self->splits, path))
    return NULL;
  entry = g_strdup (path);
  for (;;)
    {
      g_autofree char *parent = g_path_get_dirname (entry);

      /* The home folder is split, and holds @path: this ends there. */
      if (g_hash_table_contains (self->splits, parent))
        return g_steal_pointer (&entry);
      g_free (entry);
      entry = g_steal_pointer (&parent);
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

char **
paddock_home_list (PaddockHome     *self,
                   PaddockHomeKind  kind)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (self != NULL, NULL);

  if (kind == PADDOCK_HOME_CLOSED)
    {
      g_hash_table_iter_init (&iter, self->closed);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_ptr_array_add (list, g_strdup (key));
    }
  else
    {
      g_hash_table_iter_init (&iter, self->rules);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (((Rule *) value)->kind == kind && !g_hash_table_contains (self->splits, key) && !is_closed (self, key))
          g_ptr_array_add (list, g_strdup (key));
      /* A split folder stands for its entries that no rule names. */
      g_hash_table_iter_init (&iter, self->splits);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!is_closed (self, key) && find_rule_kind (self, key) == kind)
          g_ptr_array_add (list, g_strconcat (key, strcmp (key, "/") == 0 ? "" : "/", NULL));
    }
  g_ptr_array_sort (list, compare_strings);
  g_ptr_array_add (list, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&list), FALSE);
}

gboolean
paddock_home_allow_in_project (const char  *project,
                               const char  *entry,
                               GError     **error)
{
  g_autofree char *home = NULL;
  g_autofree char *written = NULL;
  const char *rest;

  g_return_val_if_fail (project != NULL && entry != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  home = paddock_lock_canonicalize (g_get_home_dir ());
  rest = paddock_path_beneath (entry, home);
  if (rest == NULL || *rest == '\0')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "cannot allow %s in %s: it is not an entry of the home folder %s", entry, project, home);
      return FALSE;
    }
  /* As the user would write it, so that the settings read the same after
   * a move of the home folder. */
  written = g_strconcat ("~", rest, NULL);
  return paddock_project_config_add_home_open (project, written, error);
}
