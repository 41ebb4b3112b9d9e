/* paddock-project-rule.c: a timeline row's command line, always allowed or denied in its project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-project-rule.h"

#include <glib/gi18n.h>

#include "paddock-timeline-event.h"

typedef struct
{
  char              *project;
  PaddockPolicyRule *rule;   /* remember */
  char              *name;   /* forget */
} Change;

static void
change_free (Change *change)
{
  g_free (change->project);
  g_clear_pointer (&change->rule, paddock_policy_rule_unref);
  g_free (change->name);
  g_free (change);
}

/* The rule the session would make for @event's command line, had it been
 * answered with Remember: the program as exec ran it (its path made
 * absolute from the working directory, symlinks not resolved), the argv
 * byte for byte. */
static PaddockPolicyRule *
rule_for_event (const char            *project,
                PaddockTimelineEvent  *event,
                PaddockPolicyAction    action,
                GError               **error)
{
  const char * const *argv = paddock_timeline_event_get_argv (event);
  const char *path = paddock_timeline_event_get_path (event);
  const char *cwd = paddock_timeline_event_get_cwd (event);
  g_autofree char *lexical = NULL;
  g_autofree char *home = NULL;
  PaddockPolicyQuery query = { 0 };

  if (paddock_timeline_event_get_kind (event) != PADDOCK_TIMELINE_EVENT_EXEC || argv == NULL || argv[0] == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only a program’s command line can be remembered"));
      return NULL;
    }
  if (paddock_timeline_event_get_truncated (event))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Its command line was cut short when it was recorded: a rule for what was kept "
                             "would never match it"));
      return NULL;
    }
  if (paddock_timeline_event_get_pipeline (event) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("It reads its script from a pipe: remember it when it asks, where the whole "
                             "pipeline is known"));
      return NULL;
    }

  if (path != NULL && *path != '\0')
    lexical = g_canonicalize_filename (path, cwd != NULL && cwd[0] == '/' ? cwd : "/");
  home = paddock_policy_dup_home ();
  query.exe = lexical != NULL ? lexical : paddock_timeline_event_get_exe (event);
  query.argv = argv;
  query.cwd = cwd != NULL && *cwd != '\0' ? cwd : NULL;
  query.project = project;
  query.home = home;
  query.resolved = paddock_timeline_event_get_exe (event);
  return paddock_policy_rule_new_remembered (&query, action, PADDOCK_POLICY_SCOPE_PROJECT, error);
}

static void
remember_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Change *change = task_data;
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (!paddock_policy_remember_in_project (change->project, change->rule, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_strdup (paddock_policy_rule_get_name (change->rule)), g_free);
}

void
paddock_project_rule_remember_async (const char           *project,
                                     PaddockTimelineEvent *event,
                                     PaddockPolicyAction   action,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  Change *change;

  g_return_if_fail (project != NULL);
  g_return_if_fail (PADDOCK_IS_TIMELINE_EVENT (event));
  g_return_if_fail (action == PADDOCK_POLICY_ACTION_ALLOW || action == PADDOCK_POLICY_ACTION_DENY);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_project_rule_remember_async);
  change = g_new0 (Change, 1);
  change->project = g_strdup (project);
  g_task_set_task_data (task, change, (GDestroyNotify) change_free);
  change->rule = rule_for_event (project, event, action, &error);
  if (change->rule == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, remember_thread);
}

char *
paddock_project_rule_remember_finish (GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == paddock_project_rule_remember_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
forget_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Change *change = task_data;
  const char *names[] = { change->name, NULL };
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (!paddock_policy_forget_in_project (change->project, names, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
paddock_project_rule_forget_async (const char          *project,
                                   const char          *name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Change *change;

  g_return_if_fail (project != NULL);
  g_return_if_fail (name != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_project_rule_forget_async);
  change = g_new0 (Change, 1);
  change->project = g_strdup (project);
  change->name = g_strdup (name);
  g_task_set_task_data (task, change, (GDestroyNotify) change_free);
  g_task_run_in_thread (task, forget_thread);
}

gboolean
paddock_project_rule_forget_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == paddock_project_rule_forget_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
