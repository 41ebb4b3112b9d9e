/* paddock-timeline.c: one session's timeline as a GListModel
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-timeline.h"
#include "paddock-timeline-private.h"

#include "paddock-audit.h"

#include <string.h>

struct _PaddockTimeline
{
  GObject                 parent_instance;

  PaddockTimelineStrings *strings;
  GPtrArray              *rows;       /* PaddockTimelineEvent* */
  GHashTable             *by_seq;     /* &row->seq → row, exec rows */
  GQueue                  open_connections;  /* net rows nobody asked about, allowed, not ended:
                                              * borrowed from rows, oldest first */
  GHashTable             *shells;     /* pid → row, interactive shells running now */
  GHashTable             *pids;       /* every pid that ran a program here */
  guint                   n_busy;     /* rows running that are no shell or prompt helper */

  /* What the list's users were told: rows from n_announced on are not
   * announced yet (nor counted by get_n_items), and the announced rows
   * that changed since wait in changed. flush() tells them. */
  guint                   n_announced;
  GArray                 *changed;    /* guint positions */
  GSource                *flush_source; /* following a client: a flush is due */
  gint64                  flush_due;    /* monotonic: when it is due at the latest */

  char                   *project;    /* as the session's hello or start record said */
  gboolean                session_ended;
  gboolean                read_only;
};

static void paddock_timeline_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PaddockTimeline, paddock_timeline, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, paddock_timeline_list_model_init))

enum
{
  PROP_0,
  PROP_N_ITEMS,
  PROP_READ_ONLY,
  PROP_PROJECT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
paddock_timeline_get_item_type (GListModel *model)
{
  return PADDOCK_TYPE_TIMELINE_EVENT;
}

static guint
paddock_timeline_get_n_items (GListModel *model)
{
  return PADDOCK_TIMELINE (model)->n_announced;
}

static gpointer
paddock_timeline_get_item (GListModel *model,
                           guint       position)
{
  PaddockTimeline *self = PADDOCK_TIMELINE (model);

  if (position >= self->n_announced)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->rows, position));
}

static void
paddock_timeline_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = paddock_timeline_get_item_type;
  iface->get_n_items = paddock_timeline_get_n_items;
  iface->get_item = paddock_timeline_get_item;
}

static void
paddock_timeline_finalize (GObject *object)
{
  PaddockTimeline *self = PADDOCK_TIMELINE (object);

  if (self->flush_source != NULL)
    g_source_destroy (self->flush_source);
  g_clear_pointer (&self->flush_source, g_source_unref);
  g_clear_pointer (&self->by_seq, g_hash_table_unref);
  g_queue_clear (&self->open_connections);
  g_clear_pointer (&self->shells, g_hash_table_unref);
  g_clear_pointer (&self->pids, g_hash_table_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->changed, g_array_unref);
  g_clear_pointer (&self->strings, paddock_timeline_strings_unref);
  g_clear_pointer (&self->project, g_free);

  G_OBJECT_CLASS (paddock_timeline_parent_class)->finalize (object);
}

static void
paddock_timeline_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  PaddockTimeline *self = PADDOCK_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->n_announced);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;
    case PROP_PROJECT:
      g_value_set_string (value, self->project);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_timeline_class_init (PaddockTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = paddock_timeline_finalize;
  object_class->get_property = paddock_timeline_get_property;

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, "How many rows", 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, "A past session's, from its audit log", FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROJECT] =
    g_param_spec_string ("project", NULL, "The session's project, once it said", NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
paddock_timeline_init (PaddockTimeline *self)
{
  self->strings = paddock_timeline_strings_new ();
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_seq = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->shells = g_hash_table_new (NULL, NULL);
  self->pids = g_hash_table_new (NULL, NULL);
  self->changed = g_array_new (FALSE, FALSE, sizeof (guint));
}

PaddockTimeline *
paddock_timeline_new (void)
{
  return g_object_new (PADDOCK_TYPE_TIMELINE, NULL);
}

gboolean
paddock_timeline_get_read_only (PaddockTimeline *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE (self), FALSE);
  return self->read_only;
}

const char *
paddock_timeline_get_project (PaddockTimeline *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE (self), NULL);
  return self->project;
}

/* A session has one project: the first greeting names it. */
static void
set_project (PaddockTimeline *self,
             const char      *project)
{
  if (self->project != NULL || project == NULL || *project == '\0')
    return;
  self->project = g_strdup (project);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECT]);
}

PaddockTimelineEvent *
paddock_timeline_lookup (PaddockTimeline *self,
                         gint64           seq)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE (self), NULL);
  return g_hash_table_lookup (self->by_seq, &seq);
}

/* --- folding ------------------------------------------------------------- */

static const char *
base_name (const char *path)
{
  const char *slash = path != NULL ? strrchr (path, '/') : NULL;

  return slash != NULL ? slash + 1 : path;
}

/* A shell started to read commands from its terminal: options only, and
 * none that gives it a script. */
static gboolean
is_interactive_shell (PaddockTimelineEvent *row)
{
  static const char * const shells[] = { "bash", "zsh", "sh", "dash", "ksh", "mksh", "ash", "yash", "fish", NULL };

  if (row->exe == NULL || !g_strv_contains (shells, base_name (row->exe)) ||
      row->truncated || row->interpreter != NULL || row->pipeline != NULL || row->argv[0] == NULL)
    return FALSE;
  for (guint i = 1; row->argv[i] != NULL; i++)
    {
      const char *arg = row->argv[i];

      if (arg[0] != '-' && arg[0] != '+')
        return FALSE;
      if (strcmp (arg, "--rcfile") == 0 || strcmp (arg, "--init-file") == 0 || strcmp (arg, "-o") == 0)
        {
          if (row->argv[++i] == NULL)
            return FALSE;
          continue;
        }
      if (strcmp (arg, "--command") == 0 || strcmp (arg, "--") == 0 || strcmp (arg, "-") == 0)
        return FALSE;
      if (arg[0] == '-' && arg[1] != '-' && strpbrk (arg + 1, "cs") != NULL)
        return FALSE;
    }
  return TRUE;
}

/* Programs an agent running as the user cannot have written. */
static gboolean
is_system_program (const char *exe)
{
  static const char * const prefixes[] = { "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/",
                                           "/nix/store/", "/app/", "/snap/", NULL };

  for (guint i = 0; exe != NULL && prefixes[i] != NULL; i++)
    if (g_str_has_prefix (exe, prefixes[i]))
      return TRUE;
  return FALSE;
}

static gboolean
has_arg (const char * const *args,
         const char         *arg)
{
  return g_strv_contains (args, arg);
}

static guint
n_operands (const char * const *args)
{
  guint n = 0;

  for (guint i = 0; args[i] != NULL; i++)
    if (args[i][0] != '-')
      n++;
  return n;
}

/* The git queries a prompt runs (__git_ps1 in git-sh-prompt, zsh's
 * vcs_info, the common themes): each reads the repository, none writes
 * what the user would want to see. @argv is git's. */
static gboolean
is_git_prompt_query (const char * const *argv)
{
  const char *command;
  const char * const *args;
  guint i = 1;

  while (argv[i] != NULL && argv[i][0] == '-')
    {
      if (strcmp (argv[i], "-C") == 0 && argv[i + 1] != NULL)
        i += 2;
      else if (strcmp (argv[i], "--no-pager") == 0 || strcmp (argv[i], "--no-optional-locks") == 0)
        i++;
      else
        return FALSE;
    }
  command = argv[i];
  if (command == NULL)
    return FALSE;
  args = argv + i + 1;

  if (strcmp (command, "rev-parse") == 0 || strcmp (command, "describe") == 0 ||
      strcmp (command, "rev-list") == 0 || strcmp (command, "ls-files") == 0)
    return TRUE;
  if (strcmp (command, "symbolic-ref") == 0)
    return n_operands (args) == 1 && !has_arg (args, "-d") && !has_arg (args, "--delete");
  if (strcmp (command, "diff") == 0)
    return has_arg (args, "--quiet");
  if (strcmp (command, "status") == 0)
    {
      for (guint j = 0; args[j] != NULL; j++)
        if (g_str_has_prefix (args[j], "--porcelain"))
          return TRUE;
      return FALSE;
    }
  if (strcmp (command, "config") == 0)
    {
      static const char * const reading[] = { "-z", "--null", "--get", "--get-all", "--get-regexp", "--bool",
                                              "--int", "--path", "--local", "--global", NULL };

      for (guint j = 0; args[j] != NULL; j++)
        if (args[j][0] == '-' && !g_strv_contains (reading, args[j]))
          return FALSE;
      return n_operands (args) == 1;
    }
  return FALSE;
}

static gboolean
is_prompt_helper (PaddockTimeline      *self,
                  PaddockTimelineEvent *row)
{
  const char *program;

  if (row->decision != PADDOCK_TIMELINE_DECISION_ALLOWED ||
      (g_strcmp0 (row->by, "rule") != 0 && g_strcmp0 (row->by, "default") != 0))
    return FALSE;
  if (row->truncated || row->interpreter != NULL || row->pipeline != NULL || row->argv[0] == NULL ||
      !is_system_program (row->exe))
    return FALSE;
  /* The shell runs `$(helper)` in a fork, which often forks again for
   * `$(helper 2>/dev/null)`: a parent that never ran a program here is
   * such a fork, the shell's where it is at its prompt, nothing else
   * running; the fork of a command that runs is that command's. */
  if (g_hash_table_lookup (self->shells, GINT_TO_POINTER (row->ppid)) == NULL &&
      (g_hash_table_contains (self->pids, GINT_TO_POINTER (row->ppid)) ||
       g_hash_table_size (self->shells) == 0 || self->n_busy > 0))
    return FALSE;
  program = base_name (row->exe);
  if (strcmp (program, "vte-urlencode-cwd") == 0)
    return TRUE;
  if (strcmp (program, "git") == 0)
    return is_git_prompt_query ((const char * const *) row->argv);
  return FALSE;
}

/* --- adding -------------------------------------------------------------- */

static void
append_row (PaddockTimeline      *self,
            PaddockTimelineEvent *row)
{
  row->position = self->rows->len;
  g_ptr_array_add (self->rows, row);
}

static void
row_changed (PaddockTimeline      *self,
             PaddockTimelineEvent *row)
{
  /* A row not yet announced is announced as it is now. */
  if (row->position < self->n_announced && !row->changed)
    {
      row->changed = TRUE;
      g_array_append_val (self->changed, row->position);
    }
}

/* @row runs now: counted unless it is a shell or a prompt helper. */
static void
row_runs (PaddockTimeline      *self,
          PaddockTimelineEvent *row)
{
  if (row->busy || row->folded || g_hash_table_lookup (self->shells, GINT_TO_POINTER (row->pid)) == row)
    return;
  row->busy = TRUE;
  self->n_busy++;
}

static void
row_ends (PaddockTimeline      *self,
          PaddockTimelineEvent *row)
{
  if (!row->busy)
    return;
  row->busy = FALSE;
  if (self->n_busy > 0)
    self->n_busy--;
}

static void
add_exec (PaddockTimeline      *self,
          const PaddockMessage *message)
{
  PaddockTimelineEvent *row;
  gint64 seq = message->type == PADDOCK_MESSAGE_ASK ? message->id : message->seq;

  if (seq < 0)
    return;
  row = g_hash_table_lookup (self->by_seq, &seq);
  if (row != NULL)
    {
      /* The ask that an exec announced: its deadline. A repeated exec
       * (a replay) changes nothing. */
      if (message->type == PADDOCK_MESSAGE_ASK && paddock_timeline_event_ask (row, message))
        row_changed (self, row);
      return;
    }

  row = paddock_timeline_event_new_exec (self->strings, message);
  g_hash_table_insert (self->by_seq, &row->seq, row);
  /* This process runs another program now: no longer the shell it was. */
  g_hash_table_remove (self->shells, GINT_TO_POINTER (row->pid));
  row->folded = is_prompt_helper (self, row);
  if (row->decision == PADDOCK_TIMELINE_DECISION_ALLOWED && is_interactive_shell (row))
    g_hash_table_insert (self->shells, GINT_TO_POINTER (row->pid), row);
  g_hash_table_add (self->pids, GINT_TO_POINTER (row->pid));
  if (row->decision == PADDOCK_TIMELINE_DECISION_ALLOWED || row->decision == PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED)
    row_runs (self, row);
  append_row (self, row);
}

/* A read in the home folder: its ask and its home messages share the
 * ask's id and make one row; one without an id is a row of its own. */
static void
add_home (PaddockTimeline      *self,
          const PaddockMessage *message)
{
  PaddockTimelineEvent *row = NULL;

  if (message->path == NULL)
    return;
  if (message->id >= 0)
    row = g_hash_table_lookup (self->by_seq, &message->id);
  if (row != NULL)
    {
      if (paddock_timeline_event_home (row, message))
        row_changed (self, row);
      return;
    }
  row = paddock_timeline_event_new_home (self->strings, message);
  if (row->seq >= 0)
    g_hash_table_insert (self->by_seq, &row->seq, row);
  append_row (self, row);
}

/* Whether the net row @row is the open connection @end tells the end of:
 * the same host, port and program, not ended yet. */
/* How many connections nobody asked about wait for their ends at most;
 * past that the oldest is taken for one whose end will never come. */
#define MAX_OPEN_CONNECTIONS 1024

static gboolean
is_connection_of (PaddockTimelineEvent *row,
                  const PaddockMessage *end)
{
  return !row->ended && row->port == end->port && row->pid == end->pid &&
         g_strcmp0 (row->path, end->host) == 0;
}

/* A connection under the network lock: its ask and its net messages
 * share the ask's id and make one row; a connection nobody was asked
 * about has no id, and its end is matched to the oldest open row of the
 * same host, port and pid (the proxy reports a connection's start before
 * its end). A message that matches nothing is a row of its own. */
static void
add_net (PaddockTimeline      *self,
         const PaddockMessage *message)
{
  PaddockTimelineEvent *row = NULL;
  gboolean end = message->type == PADDOCK_MESSAGE_NET && g_strcmp0 (message->kind, "end") == 0;

  if (message->host == NULL)
    return;
  if (message->id >= 0)
    row = g_hash_table_lookup (self->by_seq, &message->id);
  else if (end)
    for (GList *l = self->open_connections.head; l != NULL && row == NULL; l = l->next)
      if (is_connection_of (l->data, message))
        row = l->data;
  if (row != NULL)
    {
      if (paddock_timeline_event_net (row, message))
        row_changed (self, row);
      if (row->ended)
        g_queue_remove (&self->open_connections, row);
      return;
    }
  row = paddock_timeline_event_new_net (self->strings, message);
  if (row->seq >= 0)
    g_hash_table_insert (self->by_seq, &row->seq, row);
  /* Only one nobody asked about waits for its end this way; the open
   * list is bounded, so a proxy that never reports ends costs nothing. */
  if (!row->ended && row->seq < 0 && row->decision == PADDOCK_TIMELINE_DECISION_ALLOWED)
    {
      g_queue_push_tail (&self->open_connections, row);
      if (self->open_connections.length > MAX_OPEN_CONNECTIONS)
        g_queue_pop_head (&self->open_connections);
    }
  append_row (self, row);
}

static void
add_one (PaddockTimeline      *self,
         const PaddockMessage *message)
{
  PaddockTimelineEvent *row;

  switch ((int) message->type)
    {
    case PADDOCK_MESSAGE_ASK:
      if (g_strcmp0 (message->kind, "home") == 0)
        add_home (self, message);
      else if (g_strcmp0 (message->kind, "host") == 0)
        add_net (self, message);
      else
        add_exec (self, message);
      break;

    case PADDOCK_MESSAGE_EXEC:
      add_exec (self, message);
      break;

    case PADDOCK_MESSAGE_HOME:
      add_home (self, message);
      break;

    case PADDOCK_MESSAGE_NET:
      add_net (self, message);
      break;

    case PADDOCK_MESSAGE_DECIDED:
      row = message->id >= 0 ? g_hash_table_lookup (self->by_seq, &message->id) : NULL;
      if (row != NULL && paddock_timeline_event_decide (row, message))
        {
          if (row->kind == PADDOCK_TIMELINE_EVENT_EXEC && row->decision == PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED)
            row_runs (self, row);
          row_changed (self, row);
        }
      break;

    case PADDOCK_MESSAGE_EXIT:
      if (message->session_end)
        {
          /* A session ends once; a replay of its end is no second row. */
          if (self->session_ended)
            break;
          self->session_ended = TRUE;
          append_row (self, paddock_timeline_event_new_session (self->strings, message));
          g_hash_table_remove_all (self->shells);
          self->n_busy = 0;
          break;
        }
      row = message->seq >= 0 ? g_hash_table_lookup (self->by_seq, &message->seq) : NULL;
      if (row == NULL || !paddock_timeline_event_end (row, message))
        break;
      row_ends (self, row);
      /* A pid that ended may come back as another process. */
      if (!row->replaced && g_hash_table_lookup (self->shells, GINT_TO_POINTER (row->pid)) == row)
        g_hash_table_remove (self->shells, GINT_TO_POINTER (row->pid));
      row_changed (self, row);
      break;

    case PADDOCK_MESSAGE_KILL:
    case PADDOCK_MESSAGE_PAUSE:
    case PADDOCK_MESSAGE_RESUME:
      append_row (self, paddock_timeline_event_new_session (self->strings, message));
      break;

    case PADDOCK_MESSAGE_HELLO:
      set_project (self, message->project);
      break;

    default:
      /* secret, error, lock-status, requests: no row of their own. */
      break;
    }
}

static int
compare_positions (gconstpointer a,
                   gconstpointer b)
{
  guint pa = *(const guint *) a, pb = *(const guint *) b;

  return pa < pb ? -1 : pa > pb;
}

static void
announce (PaddockTimeline *self,
          guint            position,
          guint            removed,
          guint            added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* Tells what changed since the last flush: the rows appended first, so
 * every later signal sees them counted; then the earlier rows that
 * changed, a run of neighbours as one range. A handler may add more:
 * what it adds is its own call's to tell. */
static void
flush (PaddockTimeline *self)
{
  guint first_new = self->n_announced;
  guint n_new = self->rows->len - first_new;
  g_autoptr(GArray) changed = NULL;
  guint i = 0;

  if (self->flush_source != NULL)
    {
      g_source_destroy (self->flush_source);
      g_clear_pointer (&self->flush_source, g_source_unref);
    }

  self->n_announced = self->rows->len;
  if (n_new > 0)
    {
      announce (self, first_new, 0, n_new);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }

  if (self->changed->len == 0)
    return;
  changed = g_steal_pointer (&self->changed);
  self->changed = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_sort (changed, compare_positions);
  for (guint j = 0; j < changed->len; j++)
    PADDOCK_TIMELINE_EVENT (g_ptr_array_index (self->rows, g_array_index (changed, guint, j)))->changed = FALSE;
  while (i < changed->len)
    {
      guint start = g_array_index (changed, guint, i);
      guint n = 1;

      while (i + n < changed->len && g_array_index (changed, guint, i + n) == start + n)
        n++;
      i += n;
      announce (self, start, n, n);
    }
}

void
paddock_timeline_add_message (PaddockTimeline      *self,
                              const PaddockMessage *message)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE (self));
  g_return_if_fail (message != NULL);
  g_return_if_fail (!self->read_only);

  add_one (self, message);
  flush (self);
}

void
paddock_timeline_add_messages (PaddockTimeline              *self,
                               const PaddockMessage * const *messages,
                               guint                         n_messages)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE (self));
  g_return_if_fail (messages != NULL || n_messages == 0);
  g_return_if_fail (!self->read_only);

  for (guint i = 0; i < n_messages; i++)
    if (messages[i] != NULL)
      add_one (self, messages[i]);
  flush (self);
}

/* While a flood of messages keeps the context busy, idle never comes:
 * what waits is announced once this many rows, or this long, have. */
#define MAX_UNANNOUNCED 4096
#define MAX_UNANNOUNCED_US (50 * 1000)

static gboolean
flush_cb (gpointer user_data)
{
  flush (PADDOCK_TIMELINE (user_data));
  return G_SOURCE_REMOVE;
}

/* A client emits every message of a read (up to 64 KiB, hundreds of
 * execs) in one go: they are announced together, once the context is
 * idle, which it is before it draws. */
static void
on_client_message (PaddockClient        *client,
                   const PaddockMessage *message,
                   gpointer              user_data)
{
  PaddockTimeline *self = PADDOCK_TIMELINE (user_data);

  add_one (self, message);
  if (self->flush_source != NULL &&
      (self->rows->len - self->n_announced >= MAX_UNANNOUNCED || g_get_monotonic_time () >= self->flush_due))
    flush (self);
  else if (self->flush_source == NULL && (self->rows->len > self->n_announced || self->changed->len > 0))
    {
      self->flush_due = g_get_monotonic_time () + MAX_UNANNOUNCED_US;
      self->flush_source = g_idle_source_new ();
      g_source_set_priority (self->flush_source, G_PRIORITY_HIGH_IDLE);
      g_source_set_callback (self->flush_source, flush_cb, self, NULL);
      g_source_set_static_name (self->flush_source, "[paddock] timeline flush");
      g_source_attach (self->flush_source, g_main_context_get_thread_default ());
    }
}

/* The session's last words are not left waiting for idle. */
static void
on_client_closed (PaddockClient *client,
                  const GError  *error,
                  gpointer       user_data)
{
  flush (PADDOCK_TIMELINE (user_data));
}

void
paddock_timeline_follow (PaddockTimeline *self,
                         PaddockClient   *client)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE (self));
  g_return_if_fail (PADDOCK_IS_CLIENT (client));
  g_return_if_fail (!self->read_only);

  /* A client that connected has its greeting already. */
  if (paddock_client_get_hello (client) != NULL)
    set_project (self, paddock_client_get_hello (client)->project);
  g_signal_connect_object (client, "message", G_CALLBACK (on_client_message), self, 0);
  g_signal_connect_object (client, "closed", G_CALLBACK (on_client_closed), self, 0);
}

/* --- a past session, from its audit log ------------------------------------ */

static gint64
member_int (JsonObject *object,
            const char *name,
            gint64      absent)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return absent;
  return json_node_get_int (node);
}

static gboolean
member_boolean (JsonObject *object,
                const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node);
}

static char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL ? paddock_audit_node_dup_string (node) : NULL;
}

static char **
member_strv (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autoptr(GPtrArray) strv = g_ptr_array_new ();
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      char *arg = paddock_audit_node_dup_string (json_array_get_element (array, i));

      g_ptr_array_add (strv, arg != NULL ? arg : g_strdup (""));
    }
  g_ptr_array_add (strv, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&strv), FALSE);
}

static PaddockDecision
member_decision (JsonObject *object)
{
  g_autofree char *text = member_string (object, "decision");
  PaddockDecision decision = PADDOCK_DECISION_NONE;

  if (text == NULL || !paddock_decision_from_string (text, &decision))
    return PADDOCK_DECISION_NONE;
  return decision;
}

/* The message the session sent for what @record logs, or NULL. */
static PaddockMessage *
message_of_record (const PaddockAuditRecord *record)
{
  JsonObject *object = record->object;
  g_autoptr(PaddockMessage) message = NULL;
  const char *type = record->type;

  if (g_strcmp0 (type, PADDOCK_AUDIT_SESSION_START) == 0)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_HELLO);
      message->session = member_string (object, "session");
      message->project = member_string (object, "project");
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_EXEC) == 0)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_EXEC);
      message->seq = member_int (object, "event", -1);
      message->pid = member_int (object, "pid", -1);
      message->ppid = member_int (object, "ppid", -1);
      message->cwd = member_string (object, "cwd");
      message->path = member_string (object, "path");
      message->exe = member_string (object, "exe");
      message->argv = member_strv (object, "argv");
      message->argc = member_int (object, "argc", -1);
      message->truncated = member_boolean (object, "truncated");
      message->interpreter = member_string (object, "interpreter");
      message->pipeline = member_string (object, "pipeline");
      message->decision = member_decision (object);
      message->by = member_string (object, "by");
      message->rule = member_string (object, "rule");
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_DECISION) == 0)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_DECIDED);
      message->id = member_int (object, "event", -1);
      message->decision = member_decision (object);
      message->by = member_string (object, "by");
      message->rule = member_string (object, "rule");
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_HOME) == 0)
    {
      /* The supervisor writes a home message's fields as they are. */
      message = paddock_message_new (PADDOCK_MESSAGE_HOME);
      message->path = member_string (object, "path");
      message->name = member_string (object, "name");
      message->decision = member_decision (object);
      message->by = member_string (object, "by");
      message->pid = member_int (object, "pid", -1);
      message->exe = member_string (object, "exe");
      message->id = member_int (object, "id", -1);
      message->reason = member_string (object, "reason");
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_NET) == 0)
    {
      /* The supervisor writes a net message's fields as they are. */
      message = paddock_message_new (PADDOCK_MESSAGE_NET);
      message->host = member_string (object, "host");
      message->port = member_int (object, "port", -1);
      message->decision = member_decision (object);
      message->by = member_string (object, "by");
      message->pid = member_int (object, "pid", -1);
      message->exe = member_string (object, "exe");
      message->rule = member_string (object, "rule");
      message->id = member_int (object, "id", -1);
      message->reason = member_string (object, "reason");
      message->kind = member_string (object, "kind");
      message->address = member_string (object, "address");
      message->bytes_in = member_int (object, "bytes_in", -1);
      message->bytes_out = member_int (object, "bytes_out", -1);
      message->duration = member_int (object, "duration", -1);
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_EXIT) == 0)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
      message->seq = member_int (object, "event", -1);
      message->pid = member_int (object, "pid", -1);
      message->duration = member_int (object, "duration_us", -1);
      message->exit_code = member_int (object, "exit_code", -1);
      message->signal = member_int (object, "signal", -1);
      message->replaced = member_boolean (object, "replaced");
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_SESSION_END) == 0)
    {
      message = paddock_message_new (PADDOCK_MESSAGE_EXIT);
      message->session_end = TRUE;
      message->exit_code = member_int (object, "exit_code", -1);
      message->signal = member_int (object, "signal", -1);
    }
  else if (g_strcmp0 (type, PADDOCK_AUDIT_KILL) == 0 || g_strcmp0 (type, PADDOCK_AUDIT_PAUSE) == 0 ||
           g_strcmp0 (type, PADDOCK_AUDIT_RESUME) == 0)
    {
      message = paddock_message_new (g_strcmp0 (type, PADDOCK_AUDIT_KILL) == 0 ? PADDOCK_MESSAGE_KILL :
                                     g_strcmp0 (type, PADDOCK_AUDIT_PAUSE) == 0 ? PADDOCK_MESSAGE_PAUSE :
                                                                                 PADDOCK_MESSAGE_RESUME);
      message->by = member_string (object, "by");
    }
  else
    return NULL;

  message->time = record->time_us;
  return g_steal_pointer (&message);
}

typedef struct
{
  PaddockTimeline        *timeline;
  GCancellable           *cancellable;
  PaddockAuditRecordFunc  func;
  gpointer                user_data;
} Load;

static gboolean
load_record (const PaddockAuditRecord *record,
             gpointer                  user_data)
{
  Load *load = user_data;
  g_autoptr(PaddockMessage) message = message_of_record (record);

  if (message != NULL)
    add_one (load->timeline, message);
  if (load->func != NULL)
    load->func (record, load->user_data);
  /* Checked now and then: a check takes a lock. */
  return (record->line % 1024) != 0 || !g_cancellable_is_cancelled (load->cancellable);
}

PaddockTimeline *
paddock_timeline_load_audit_file (const char                *path,
                                  PaddockAuditRecordFunc     func,
                                  gpointer                   user_data,
                                  PaddockAuditVerification  *verification,
                                  GCancellable              *cancellable,
                                  GError                   **error)
{
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  Load load = { timeline, cancellable, func, user_data };

  g_return_val_if_fail (path != NULL, NULL);

  if (!paddock_audit_foreach (path, NULL, load_record, &load, verification, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      if (verification != NULL)
        paddock_audit_verification_clear (verification);
      return NULL;
    }
  /* Nobody watches the timeline yet: one announcement, to nobody. */
  flush (timeline);
  timeline->read_only = TRUE;
  return g_steal_pointer (&timeline);
}

static void
load_audit_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(PaddockTimeline) timeline = NULL;
  g_autofree char *path = g_file_get_path (file);
  GError *error = NULL;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "cannot read the audit log %s: it is not a local file", uri);
      return;
    }
  timeline = paddock_timeline_load_audit_file (path, NULL, NULL, NULL, cancellable, &error);
  if (timeline == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&timeline), g_object_unref);
}

void
paddock_timeline_load_audit_async (GFile               *file,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, paddock_timeline_load_audit_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_audit_thread);
}

PaddockTimeline *
paddock_timeline_load_audit_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == paddock_timeline_load_audit_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
