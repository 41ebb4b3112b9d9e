/* paddock-net-rules.c: what the network lock lets through, by name, and which addresses are private
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-net-request.h"
#include "paddock-net-rules.h"
#include "paddock-project-config.h"

#include <string.h>

extern GResource *paddock_lock_get_resource (void);

typedef struct
{
  char     *text;      /* as written, for records */
  char     *name;      /* without "*." and port */
  gboolean  wildcard;  /* "*.NAME": names below NAME */
  guint16   port;      /* 0: any */
} Pattern;

struct _PaddockNetRules
{
  GPtrArray  *allow;    /* Pattern: the user's own, then the project's */
  GPtrArray  *deny;
  GPtrArray  *preset;   /* Pattern, text "LIST: PATTERN" */
  GHashTable *resolve;  /* name → GInetAddress */
  GHashTable *session;  /* names allowed for the session */
};

static void
pattern_free (Pattern *pattern)
{
  g_free (pattern->text);
  g_free (pattern->name);
  g_free (pattern);
}

static Pattern *
pattern_parse (const char  *text,
               const char  *label,
               GError     **error)
{
  Pattern *pattern;
  const char *colon;

  if (text == NULL || !paddock_project_config_host_pattern_is_valid (text))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: %s is not a host pattern (example.org, *.example.org, optional :PORT)",
                   label, text != NULL ? text : "(null)");
      return NULL;
    }
  pattern = g_new0 (Pattern, 1);
  pattern->text = g_strdup (text);
  pattern->wildcard = g_str_has_prefix (text, "*.");
  colon = strchr (text, ':');
  pattern->name = g_strndup (text + (pattern->wildcard ? 2 : 0),
                             (colon != NULL ? (gsize) (colon - text) : strlen (text)) - (pattern->wildcard ? 2 : 0));
  pattern->port = colon != NULL ? (guint16) g_ascii_strtoull (colon + 1, NULL, 10) : 0;
  return pattern;
}

static gboolean
pattern_matches (const Pattern *pattern,
                 const char    *host,
                 guint16        port)
{
  if (pattern->port != 0 && pattern->port != port)
    return FALSE;
  if (!pattern->wildcard)
    return strcmp (pattern->name, host) == 0;
  return g_str_has_suffix (host, pattern->name) &&
         strlen (host) > strlen (pattern->name) &&
         host[strlen (host) - strlen (pattern->name) - 1] == '.';
}

static const Pattern *
patterns_find (GPtrArray  *patterns,
               const char *host,
               guint16     port)
{
  for (guint i = 0; i < patterns->len; i++)
    if (pattern_matches (g_ptr_array_index (patterns, i), host, port))
      return g_ptr_array_index (patterns, i);
  return NULL;
}

static gboolean
add_patterns (GPtrArray          *patterns,
              const char * const *texts,
              const char         *label,
              GError            **error)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      Pattern *pattern = pattern_parse (texts[i], label, error);

      if (pattern == NULL)
        return FALSE;
      g_ptr_array_add (patterns, pattern);
    }
  return TRUE;
}

/* The preset lists in net-presets.conf: [NAME] sections of "hosts = …". */
static gboolean
add_presets (PaddockNetRules    *self,
             const char * const *names,
             GError            **error)
{
  g_autoptr(GBytes) bytes = g_resource_lookup_data (paddock_lock_get_resource (),
                                                    "/org/paddock/Paddock/net-presets.conf", 0, NULL);
  g_auto(GStrv) lines = g_strsplit (g_bytes_get_data (bytes, NULL), "\n", -1);
  g_autoptr(GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *section = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strstrip (g_strdup (lines[i]));
      g_auto(GStrv) words = NULL;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (line[0] == '[')
        {
          g_free (section);
          section = g_strndup (line + 1, strcspn (line + 1, "]"));
          g_hash_table_add (known, g_strdup (section));
          continue;
        }
      g_assert (section != NULL && g_str_has_prefix (line, "hosts = "));
      if (names != NULL && !g_strv_contains (names, section))
        continue;
      words = g_strsplit (line + strlen ("hosts = "), " ", -1);
      for (guint j = 0; words[j] != NULL; j++)
        {
          Pattern *pattern;

          if (words[j][0] == '\0')
            continue;
          pattern = pattern_parse (words[j], "net-presets.conf", NULL);
          g_assert (pattern != NULL);
          g_free (pattern->text);
          pattern->text = g_strdup_printf ("%s: %s", section, words[j]);
          g_ptr_array_add (self->preset, pattern);
        }
    }
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (!g_hash_table_contains (known, names[i]))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     "%s is not a preset of the network lock", names[i]);
        return FALSE;
      }
  return TRUE;
}

gboolean
paddock_net_address_is_private (const guint8 *a,
                                gsize         length)
{
  static const guint8 mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
  static const guint8 zero[16] = { 0 };

  if (length == 16)
    {
      if (memcmp (a, mapped, 12) == 0)
        return paddock_net_address_is_private (a + 12, 4);
      return memcmp (a, zero, 15) == 0 ||             /* :: and ::1 */
             (a[0] & 0xfe) == 0xfc ||                 /* fc00::/7 */
             (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) || /* fe80::/10 */
             a[0] == 0xff;                            /* multicast */
    }
  if (length != 4)
    return TRUE;
  return a[0] == 0 || a[0] == 127 || a[0] == 10 ||
         (a[0] == 172 && (a[1] & 0xf0) == 16) ||
         (a[0] == 192 && a[1] == 168) ||
         (a[0] == 169 && a[1] == 254) ||
         (a[0] == 100 && (a[1] & 0xc0) == 64) ||
         a[0] >= 224;
}

PaddockNetRules *
paddock_net_rules_new (const char * const  *allow,
                       const char * const  *deny,
                       const char * const  *resolve,
                       const char * const  *presets,
                       const char          *project,
                       GError             **error)
{
  g_autoptr(PaddockNetRules) self = g_new0 (PaddockNetRules, 1);

  self->allow = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
  self->deny = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
  self->preset = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
  self->resolve = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->session = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!add_patterns (self->deny, deny, "denied hosts", error) ||
      !add_patterns (self->allow, allow, "allowed hosts", error) ||
      !add_presets (self, presets, error))
    return NULL;

  for (guint i = 0; resolve != NULL && resolve[i] != NULL; i++)
    {
      const char *entry = resolve[i];
      const char *equals = strchr (entry, '=');
      g_autofree char *name = equals != NULL ? paddock_net_host_normalize (entry, equals - entry) : NULL;
      g_autofree char *text = NULL;
      GInetAddress *address = NULL;

      if (equals != NULL)
        {
          text = g_str_has_prefix (equals + 1, "[") && g_str_has_suffix (equals + 1, "]")
                 ? g_strndup (equals + 2, strlen (equals + 2) - 1) : g_strdup (equals + 1);
          address = g_inet_address_new_from_string (text);
        }
      if (name == NULL || address == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "%s does not read as NAME=ADDRESS", entry);
          return NULL;
        }
      g_hash_table_replace (self->resolve, g_steal_pointer (&name), address);
    }

  if (project != NULL)
    {
      PaddockProjectConfig config = { 0 };
      g_autoptr(GError) local_error = NULL;
      gboolean ok;

      if (!paddock_project_config_load (project, &config, &local_error))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "the project's hosts: ");
          return NULL;
        }
      ok = add_patterns (self->deny, (const char * const *) config.hosts_deny, "the project's denied hosts", error) &&
           add_patterns (self->allow, (const char * const *) config.hosts_allow, "the project's allowed hosts", error);
      paddock_project_config_clear (&config);
      if (!ok)
        return NULL;
    }
  return g_steal_pointer (&self);
}

void
paddock_net_rules_free (PaddockNetRules *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->allow, g_ptr_array_unref);
  g_clear_pointer (&self->deny, g_ptr_array_unref);
  g_clear_pointer (&self->preset, g_ptr_array_unref);
  g_clear_pointer (&self->resolve, g_hash_table_unref);
  g_clear_pointer (&self->session, g_hash_table_unref);
  g_free (self);
}

PaddockDecision
paddock_net_rules_decide (PaddockNetRules  *self,
                          const char       *host,
                          guint16           port,
                          char            **rule,
                          gboolean         *exact)
{
  const Pattern *pattern;

  *rule = NULL;
  *exact = FALSE;
  if ((pattern = patterns_find (self->deny, host, port)) != NULL)
    {
      *rule = g_strdup_printf ("deny %s", pattern->text);
      return PADDOCK_DECISION_DENY;
    }
  if (g_hash_table_contains (self->resolve, host))
    {
      *rule = g_strdup_printf ("resolve %s", host);
      *exact = TRUE;
      return PADDOCK_DECISION_ALLOW;
    }
  if ((pattern = patterns_find (self->allow, host, port)) != NULL)
    {
      *rule = g_strdup_printf ("allow %s", pattern->text);
      *exact = !pattern->wildcard;
      return PADDOCK_DECISION_ALLOW;
    }
  if ((pattern = patterns_find (self->preset, host, port)) != NULL)
    {
      *rule = g_strdup_printf ("preset %s", pattern->text);
      return PADDOCK_DECISION_ALLOW;
    }
  if (g_hash_table_contains (self->session, host))
    {
      /* The user allowed this very name in an answer. */
      *exact = TRUE;
      return PADDOCK_DECISION_ALLOW;
    }
  return PADDOCK_DECISION_ASK;
}

GInetAddress *
paddock_net_rules_lookup_address (PaddockNetRules *self,
                                  const char      *host)
{
  return g_hash_table_lookup (self->resolve, host);
}

void
paddock_net_rules_remember (PaddockNetRules *self,
                            const char      *host)
{
  g_hash_table_add (self->session, g_strdup (host));
}
