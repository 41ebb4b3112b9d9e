/* paddock-history.c: a project's past sessions, read back from their audit logs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-history.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "paddock-audit.h"
#include "paddock-timeline-private.h"
#include "paddock-xdg.h"

struct _PaddockPastSession
{
  GObject          parent_instance;

  char            *path;
  char            *session_id;
  char            *project;
  char            *command;
  char            *problem;
  PaddockTimeline *timeline;
  gint64           start_time;
  gint64           end_time;
  guint            n_execs;
  guint            n_asked;
  guint            n_denied;
  guint            n_records;   /* that parsed */
  gboolean         started;     /* the first record is a session-start */
  gboolean         verified;
  gboolean         ended;
};

G_DEFINE_FINAL_TYPE (PaddockPastSession, paddock_past_session, G_TYPE_OBJECT)

static void
paddock_past_session_finalize (GObject *object)
{
  PaddockPastSession *self = PADDOCK_PAST_SESSION (object);

  g_free (self->path);
  g_free (self->session_id);
  g_free (self->project);
  g_free (self->command);
  g_free (self->problem);
  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (paddock_past_session_parent_class)->finalize (object);
}

static void
paddock_past_session_class_init (PaddockPastSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = paddock_past_session_finalize;
}

static void
paddock_past_session_init (PaddockPastSession *self)
{
  self->start_time = -1;
  self->end_time = -1;
}

static PaddockPastSession *
past_session_new (const char *path)
{
  PaddockPastSession *self = g_object_new (PADDOCK_TYPE_PAST_SESSION, NULL);

  self->path = g_strdup (path);
  return self;
}

const char *
paddock_past_session_get_path (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->path;
}

const char *
paddock_past_session_get_session_id (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->session_id;
}

const char *
paddock_past_session_get_project (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->project;
}

const char *
paddock_past_session_get_command (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->command != NULL ? self->command : "";
}

gint64
paddock_past_session_get_start_time (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), -1);
  return self->start_time;
}

gint64
paddock_past_session_get_end_time (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), -1);
  return self->end_time;
}

guint
paddock_past_session_get_n_execs (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), 0);
  return self->n_execs;
}

guint
paddock_past_session_get_n_asked (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), 0);
  return self->n_asked;
}

guint
paddock_past_session_get_n_denied (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), 0);
  return self->n_denied;
}

gboolean
paddock_past_session_get_verified (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), FALSE);
  return self->verified;
}

gboolean
paddock_past_session_get_ended (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), FALSE);
  return self->ended;
}

const char *
paddock_past_session_get_problem (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->problem;
}

PaddockTimeline *
paddock_past_session_get_timeline (PaddockPastSession *self)
{
  g_return_val_if_fail (PADDOCK_IS_PAST_SESSION (self), NULL);
  return self->timeline;
}

/* --- reading a log --------------------------------------------------------- */

static char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL ? paddock_audit_node_dup_string (node) : NULL;
}

/* What the session-start record says of the session. */
static void
read_start (PaddockPastSession       *self,
            const PaddockAuditRecord *record)
{
  self->started = TRUE;
  self->session_id = member_string (record->object, "session");
  self->project = member_string (record->object, "project");
  self->command = paddock_audit_dup_command_line (record->object, "command");
}

/* Counts what @record tells: a program run, asked about, refused. */
static gboolean
count_record (const PaddockAuditRecord *record,
              gpointer                  user_data)
{
  PaddockPastSession *self = user_data;
  const char *decision = json_object_get_string_member_with_default (record->object, "decision", NULL);

  if (self->n_records++ == 0)
    {
      self->start_time = record->time_us;
      if (g_strcmp0 (record->type, PADDOCK_AUDIT_SESSION_START) == 0)
        read_start (self, record);
    }
  self->end_time = record->time_us;
  if (g_strcmp0 (record->type, PADDOCK_AUDIT_EXEC) == 0)
    {
      self->n_execs++;
      if (g_strcmp0 (decision, "ask") == 0)
        self->n_asked++;
      else if (g_strcmp0 (decision, "deny") == 0)
        self->n_denied++;
    }
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_DECISION) == 0 && g_strcmp0 (decision, "deny") == 0)
    self->n_denied++;
  /* A read of the home folder: an ask's answer carries the ask's id; a
   * refusal without one was refused unasked. */
  else if (g_strcmp0 (record->type, PADDOCK_AUDIT_HOME) == 0)
    {
      if (json_object_has_member (record->object, "id"))
        self->n_asked++;
      if (g_strcmp0 (decision, "deny") == 0)
        self->n_denied++;
    }
  return TRUE;
}

/* Takes what verification found, and says in words what is wrong. */
static void
take_verification (PaddockPastSession       *self,
                   PaddockAuditVerification *verification)
{
  g_autofree char *name = g_filename_display_name (self->path);

  self->verified = verification->bad_line == 0;
  self->ended = verification->ended;
  if (!self->verified)
    /* TRANSLATORS: a past session's audit log failed verification; %s is its file, %lu the line,
       the last %s why (in English, from the verifier), e.g. "the record's hash does not match its
       content: the record was edited or damaged" */
    self->problem = g_strdup_printf (_("The log %s does not verify: line %lu: %s. What comes before it is "
                                       "intact; what is shown from there on may have been changed."),
                                     name, (unsigned long) verification->bad_line, verification->reason);
  else if (!self->ended)
    /* TRANSLATORS: %s is a past session's audit log file */
    self->problem = g_strdup_printf (_("The log %s has no end: its session is still running, or the log was "
                                       "cut short after its last record."), name);
}

/* The canonical project folder, as paddock-run resolves --project (GLib
 * allocates with malloc, so the result is g_free()d like any other). */
static char *
resolve_project (const char *project)
{
  char *resolved = realpath (project, NULL);

  return resolved != NULL ? resolved : g_canonicalize_filename (project, NULL);
}

static gboolean
read_first_record (const PaddockAuditRecord *record,
                   gpointer                  user_data)
{
  PaddockPastSession *self = user_data;

  if (g_strcmp0 (record->type, PADDOCK_AUDIT_SESSION_START) == 0)
    read_start (self, record);
  return FALSE;
}

static gint
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  PaddockPastSession *sa = *(PaddockPastSession * const *) a;
  PaddockPastSession *sb = *(PaddockPastSession * const *) b;

  if (sa->start_time != sb->start_time)
    return sa->start_time > sb->start_time ? -1 : 1;
  return g_strcmp0 (sb->path, sa->path);
}

static void
list_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autofree char *project = resolve_project (task_data);
  g_autofree char *folder = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GListStore) store = g_list_store_new (PADDOCK_TYPE_PAST_SESSION);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  dir = g_dir_open (folder, 0, &error);
  if (dir == NULL && !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(PaddockPastSession) first = NULL;
      g_autoptr(PaddockPastSession) session = NULL;
      PaddockAuditVerification verification = { 0 };

      if (g_task_return_error_if_cancelled (task))
        return;
      if (!g_str_has_prefix (name, "session-") || !g_str_has_suffix (name, ".jsonl"))
        continue;
      path = g_build_filename (folder, name, NULL);
      /* The first record says whose it is: only the project's are read through. */
      first = past_session_new (path);
      if (!paddock_audit_foreach (path, NULL, read_first_record, first, NULL, NULL) ||
          g_strcmp0 (first->project, project) != 0)
        continue;
      session = past_session_new (path);
      if (!paddock_audit_foreach (path, NULL, count_record, session, &verification, NULL))
        continue;
      take_verification (session, &verification);
      paddock_audit_verification_clear (&verification);
      g_ptr_array_add (sessions, g_steal_pointer (&session));
    }
  g_ptr_array_sort (sessions, compare_newest_first);
  g_list_store_splice (store, 0, 0, sessions->pdata, sessions->len);
  g_task_return_pointer (task, g_steal_pointer (&store), g_object_unref);
}

void
paddock_history_list_async (const char          *project,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (project != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_history_list_async);
  g_task_set_task_data (task, g_strdup (project), g_free);
  g_task_run_in_thread (task, list_thread);
}

GListModel *
paddock_history_list_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == paddock_history_list_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(PaddockPastSession) session = past_session_new (path);
  PaddockAuditVerification verification = { 0 };
  GError *error = NULL;

  session->timeline = paddock_timeline_load_audit_file (path, count_record, session, &verification,
                                                        cancellable, &error);
  if (session->timeline == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  take_verification (session, &verification);
  paddock_audit_verification_clear (&verification);
  if (session->n_records == 0)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               /* TRANSLATORS: %s is a file that was to be a past session's audit log */
                               _("Cannot read %s as a session’s log: none of its lines is an audit record"),
                               name);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&session), g_object_unref);
}

void
paddock_history_open_async (const char          *path,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_history_open_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, open_thread);
}

PaddockPastSession *
paddock_history_open_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == paddock_history_open_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
