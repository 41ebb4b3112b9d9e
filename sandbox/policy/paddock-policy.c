/* paddock-policy.c: which programs the agent may run: allow, ask or deny, by rule
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The policy object: its rules, in order, indexed by the program names
 * they speak to, with a project's own rules merged in front of the
 * policy's. Reading a policy is paddock-policy-parser.c's, matching a
 * command against it paddock-policy-match.c's.
 */
#include "config.h"

#include "paddock-policy-private.h"

#include <string.h>

G_DEFINE_QUARK (paddock-policy-error-quark, paddock_policy_error)

const char *
paddock_policy_action_to_string (PaddockPolicyAction action)
{
  switch (action)
    {
    case PADDOCK_POLICY_ACTION_ALLOW:
      return "allow";
    case PADDOCK_POLICY_ACTION_ASK:
      return "ask";
    case PADDOCK_POLICY_ACTION_DENY:
      return "deny";
    default:
      g_return_val_if_reached ("deny");
    }
}

gboolean
paddock_policy_action_from_string (const char          *text,
                                   PaddockPolicyAction *out_action)
{
  PaddockPolicyAction action;

  if (g_strcmp0 (text, "allow") == 0)
    action = PADDOCK_POLICY_ACTION_ALLOW;
  else if (g_strcmp0 (text, "ask") == 0)
    action = PADDOCK_POLICY_ACTION_ASK;
  else if (g_strcmp0 (text, "deny") == 0)
    action = PADDOCK_POLICY_ACTION_DENY;
  else
    return FALSE;
  if (out_action != NULL)
    *out_action = action;
  return TRUE;
}

const char *
paddock_policy_scope_to_string (PaddockPolicyScope scope)
{
  switch (scope)
    {
    case PADDOCK_POLICY_SCOPE_POLICY:
      return "policy";
    case PADDOCK_POLICY_SCOPE_SESSION:
      return "session";
    case PADDOCK_POLICY_SCOPE_PROJECT:
      return "project";
    default:
      g_return_val_if_reached ("policy");
    }
}

static void
rule_free (PaddockPolicyRule *rule)
{
  g_free (rule->name);
  g_free (rule->reason);
  g_free (rule->origin);
  g_strfreev (rule->programs);
  g_clear_pointer (&rule->argv_regex, g_regex_unref);
  g_clear_pointer (&rule->script_regex, g_regex_unref);
  g_clear_pointer (&rule->match, json_node_unref);
  g_free (rule);
}

PaddockPolicyRule *
paddock_policy_rule_ref (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  g_atomic_ref_count_inc (&rule->ref_count);
  return rule;
}

void
paddock_policy_rule_unref (PaddockPolicyRule *rule)
{
  g_return_if_fail (rule != NULL);
  if (g_atomic_ref_count_dec (&rule->ref_count))
    rule_free (rule);
}

PaddockPolicyRule *
paddock_policy_rule_new_empty (void)
{
  PaddockPolicyRule *rule = g_new0 (PaddockPolicyRule, 1);

  g_atomic_ref_count_init (&rule->ref_count);
  return rule;
}

/* A glob glob_match() reads as nothing but itself, and no path. */
static gboolean
is_literal_name (const char *glob)
{
  return strpbrk (glob, "*?[\\/") == NULL;
}

static void
rule_indices_free (gpointer data)
{
  g_array_unref (data);
}

void
paddock_policy_rebuild_index (PaddockPolicy *self)
{
  g_hash_table_remove_all (self->by_name);
  g_array_set_size (self->unindexed, 0);
  g_atomic_int_inc (&self->generation);
  for (guint i = 0; i < self->rules->len; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);
      gboolean literal = rule->programs != NULL && rule->programs[0] != NULL;

      for (guint g = 0; literal && rule->programs[g] != NULL; g++)
        literal = is_literal_name (rule->programs[g]);
      if (!literal)
        {
          g_array_append_val (self->unindexed, i);
          continue;
        }
      for (guint g = 0; rule->programs[g] != NULL; g++)
        {
          GArray *indices = g_hash_table_lookup (self->by_name, rule->programs[g]);

          if (indices == NULL)
            {
              indices = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (self->by_name, rule->programs[g], indices);
            }
          if (indices->len == 0 || g_array_index (indices, guint, indices->len - 1) != i)
            g_array_append_val (indices, i);
        }
    }
}

PaddockPolicy *
paddock_policy_new (void)
{
  PaddockPolicy *self = g_new0 (PaddockPolicy, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_rw_lock_init (&self->lock);
  self->rules = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_policy_rule_unref);
  /* Keys are the rules' own strings: the rules outlive the index. */
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, rule_indices_free);
  self->unindexed = g_array_new (FALSE, FALSE, sizeof (guint));
  self->default_action = PADDOCK_POLICY_ACTION_ALLOW;
  return self;
}

PaddockPolicy *
paddock_policy_ref (PaddockPolicy *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
paddock_policy_unref (PaddockPolicy *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_hash_table_destroy (self->by_name);
  g_array_unref (self->unindexed);
  g_ptr_array_unref (self->rules);
  g_rw_lock_clear (&self->lock);
  g_free (self->project);
  g_free (self);
}

guint
paddock_policy_get_n_rules (PaddockPolicy *self)
{
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  g_rw_lock_reader_lock (&self->lock);
  n = self->rules->len;
  g_rw_lock_reader_unlock (&self->lock);
  return n;
}

PaddockPolicyRule *
paddock_policy_get_rule (PaddockPolicy *self,
                         guint          index)
{
  PaddockPolicyRule *rule = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_rw_lock_reader_lock (&self->lock);
  if (index < self->rules->len)
    rule = paddock_policy_rule_ref (g_ptr_array_index (self->rules, index));
  g_rw_lock_reader_unlock (&self->lock);
  return rule;
}

gboolean
paddock_policy_sets_default (PaddockPolicy *self)
{
  gboolean set;

  g_return_val_if_fail (self != NULL, FALSE);
  g_rw_lock_reader_lock (&self->lock);
  set = self->default_set;
  g_rw_lock_reader_unlock (&self->lock);
  return set;
}

PaddockPolicyAction
paddock_policy_get_default_action (PaddockPolicy *self)
{
  PaddockPolicyAction action;

  g_return_val_if_fail (self != NULL, PADDOCK_POLICY_ACTION_DENY);
  g_rw_lock_reader_lock (&self->lock);
  action = self->default_action;
  g_rw_lock_reader_unlock (&self->lock);
  return action;
}

void
paddock_policy_set_default_action (PaddockPolicy       *self,
                                   PaddockPolicyAction  action)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (action <= PADDOCK_POLICY_ACTION_DENY);
  g_rw_lock_writer_lock (&self->lock);
  self->default_action = action;
  self->default_set = TRUE;
  g_rw_lock_writer_unlock (&self->lock);
}

const char *
paddock_policy_get_project (PaddockPolicy *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->project;
}

void
paddock_policy_set_project_overrides (PaddockPolicy *self,
                                      PaddockPolicy *overrides)
{
  g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_policy_rule_unref);
  PaddockPolicyAction default_action;
  gboolean default_set;
  guint at;

  g_return_if_fail (self != NULL);
  g_return_if_fail (overrides != NULL);
  g_return_if_fail (self != overrides);

  g_rw_lock_reader_lock (&overrides->lock);
  for (guint i = 0; i < overrides->rules->len; i++)
    g_ptr_array_add (rules, paddock_policy_rule_ref (g_ptr_array_index (overrides->rules, i)));
  default_action = overrides->default_action;
  default_set = overrides->default_set;
  g_rw_lock_reader_unlock (&overrides->lock);

  g_rw_lock_writer_lock (&self->lock);
  if (!self->merged)
    {
      self->merged = TRUE;
      self->own_default_action = self->default_action;
      self->own_default_set = self->default_set;
    }
  for (guint i = self->rules->len; i > 0; i--)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i - 1);

      if (rule->scope == PADDOCK_POLICY_SCOPE_PROJECT)
        g_ptr_array_remove_index (self->rules, i - 1);
    }
  /* After the session's own answers, before the policy's rules. */
  for (at = 0; at < self->rules->len; at++)
    if (((PaddockPolicyRule *) g_ptr_array_index (self->rules, at))->scope == PADDOCK_POLICY_SCOPE_POLICY)
      break;
  for (guint i = rules->len; i > 0; i--)
    g_ptr_array_insert (self->rules, at, paddock_policy_rule_ref (g_ptr_array_index (rules, i - 1)));
  self->default_action = default_set ? default_action : self->own_default_action;
  self->default_set = default_set ? TRUE : self->own_default_set;
  paddock_policy_rebuild_index (self);
  g_rw_lock_writer_unlock (&self->lock);
}

void
paddock_policy_prepend_rule (PaddockPolicy     *self,
                             PaddockPolicyRule *rule)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (rule != NULL);

  g_rw_lock_writer_lock (&self->lock);
  g_ptr_array_insert (self->rules, 0, paddock_policy_rule_ref (rule));
  paddock_policy_rebuild_index (self);
  g_rw_lock_writer_unlock (&self->lock);
}

gint
paddock_policy_get_generation (PaddockPolicy *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return g_atomic_int_get (&self->generation);
}

/* A glob that is an absolute path and nothing but itself. */
static gboolean
is_literal_path (const char *glob)
{
  return glob[0] == '/' && strpbrk (glob, "*?[\\") == NULL;
}

GStrv
paddock_policy_dup_guarded_programs (PaddockPolicy *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  g_rw_lock_reader_lock (&self->lock);
  for (guint i = 0; i < self->rules->len; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);

      if (rule->action == PADDOCK_POLICY_ACTION_ALLOW || rule->programs == NULL)
        continue;
      for (guint g = 0; rule->programs[g] != NULL; g++)
        if ((is_literal_name (rule->programs[g]) || is_literal_path (rule->programs[g])) &&
            g_hash_table_add (seen, rule->programs[g]))
          g_strv_builder_add (builder, rule->programs[g]);
    }
  g_rw_lock_reader_unlock (&self->lock);
  return g_strv_builder_end (builder);
}

char *
paddock_policy_to_data (PaddockPolicy *self,
                        gsize         *length)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char *data;

  g_return_val_if_fail (self != NULL, NULL);

  g_rw_lock_reader_lock (&self->lock);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  if (self->project != NULL)
    {
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, self->project);
    }
  if (self->default_set)
    {
      json_builder_set_member_name (builder, "default");
      json_builder_add_string_value (builder, paddock_policy_action_to_string (self->default_action));
    }
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->rules->len; i++)
    {
      PaddockPolicyRule *rule = g_ptr_array_index (self->rules, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, rule->name);
      json_builder_set_member_name (builder, "match");
      json_builder_add_value (builder, json_node_copy (rule->match));
      json_builder_set_member_name (builder, "action");
      json_builder_add_string_value (builder, paddock_policy_action_to_string (rule->action));
      if (rule->reason != NULL)
        {
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, rule->reason);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  g_rw_lock_reader_unlock (&self->lock);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  data = json_generator_to_data (generator, length);
  return data;
}

const char *
paddock_policy_rule_get_name (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->name;
}

const char *
paddock_policy_rule_get_reason (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->reason;
}

gboolean
paddock_policy_rule_get_downloaded (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, FALSE);
  return rule->downloaded;
}

PaddockPolicyAction
paddock_policy_rule_get_action (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, PADDOCK_POLICY_ACTION_DENY);
  return rule->action;
}

PaddockPolicyScope
paddock_policy_rule_get_scope (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, PADDOCK_POLICY_SCOPE_POLICY);
  return rule->scope;
}

const char *
paddock_policy_rule_get_origin (PaddockPolicyRule *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);
  return rule->origin;
}
