/* bench-timeline.c: 100,000 execs appended to a timeline: time and memory
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The issue's budget for the view is < 1 s and < 60 MB for 100,000 events;
 * "view" measures it, the others the model's share of it. Each way of appending runs in a
 * child process of its own, so memory one run gave back to malloc cannot
 * hide another's: the messages are made first (what the client would hold
 * anyway), then the clock and the resident set are read around the
 * appending alone. Realistic argv: an agent's commands, 2 to 9 arguments
 * with paths into the project, about 80 bytes of command line on average.
 *   one-by-one  add_message() for each exec, with an items-changed handler
 *               connected (what following a client does)
 *   batched     add_messages() 256 at a time (a client's read holds many)
 *   with-exits  one-by-one, each exec followed by its exit (the update
 *               path: a row found by seq, notified, announced)
 *   followed    the execs and exits as JSON lines through a socket to a
 *               PaddockClient the timeline follows (parsing included; the
 *               lines are written by a thread)
 *   view        followed, with the timeline shown in a PaddockTimelineView
 *               in a mapped window (500x600), until the rows are announced
 *               and the view has nothing more to do: the issue's budget
 *               (needs a display; skipped without one)
 *   audit       the same 100,000 execs and exits read back from an audit
 *               log by paddock_timeline_load_audit_async(), after the
 *               audit reader alone on it (audit-read: parsing each line)
 * Figures are printed; nothing is asserted about them. Arguments name the
 * runs to make, where not all ("bench-timeline view").
 */
#include "config.h"

#include "paddock-audit.h"
#include "paddock-timeline.h"
#include "paddock-timeline-view.h"

#include <adwaita.h>

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define N_EXECS 100000

static gsize
rss_bytes (void)
{
  g_autofree char *text = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &text, NULL, NULL) ||
      sscanf (text, "%lu %lu", &size, &resident) != 2)
    return 0;
  return resident * (gsize) sysconf (_SC_PAGESIZE);
}

static const char * const commands[] = {
  "git status --porcelain",
  "git diff --stat HEAD~1",
  "rg -n --hidden TODO src/@",
  "sed -n 1,120p src/widgets/frobnicator-@.c",
  "python3 -m pytest tests/test_cache_@.py -q -x --maxfail=1",
  "cat src/paddock-window-@.c",
  "grep -rn paddock_timeline_add_message app/ ui/ tests/ --include=*.c",
  "npm run build -- --mode production --out-dir dist/@",
  "ls -la src/components/@",
};

static PaddockMessage *
exec_message (guint i)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_EXEC);
  g_autoptr(GString) line = g_string_new (commands[i % G_N_ELEMENTS (commands)]);
  g_autofree char *number = g_strdup_printf ("%u", i);
  char *program;

  message->seq = i + 1;
  message->time = 1770000000000000 + (gint64) i * 1000;
  message->mono = (gint64) i * 1000;
  message->pid = 10000 + i;
  message->ppid = 9000 + i % 7;
  message->cwd = g_strdup (i % 5 == 0 ? "/home/dev/projects/paddock/src" : "/home/dev/projects/paddock");
  /* Each command names a file of its own. */
  g_string_replace (line, "@", number, 0);
  message->argv = g_strsplit (line->str, " ", -1);
  message->argc = g_strv_length (message->argv);
  program = message->argv[0];
  message->path = g_strdup_printf ("/usr/bin/%s", program);
  message->exe = g_strdup (message->path);
  message->decision = PADDOCK_DECISION_ALLOW;
  message->by = g_strdup (i % 50 == 0 ? "rule" : "default");
  message->rule = i % 50 == 0 ? g_strdup ("read-only-tools") : NULL;
  message->reason = i % 50 == 0 ? g_strdup ("reads files in the project") : NULL;
  return message;
}

static PaddockMessage *
exit_message (guint i)
{
  PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_EXIT);

  message->seq = i + 1;
  message->pid = 10000 + i;
  message->time = 1770000000000000 + (gint64) i * 1000 + 500;
  message->exit_code = i % 10 == 0 ? 1 : 0;
  message->duration = 500 + i % 1000;
  return message;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *n_signals)
{
  (*n_signals)++;
}

/* The process's CPU time so far, its threads' included, in ms: on a
 * machine others share, steadier than the clock on the wall. */
static double
cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec * 1000.0 + usage.ru_utime.tv_usec / 1000.0 +
         usage.ru_stime.tv_sec * 1000.0 + usage.ru_stime.tv_usec / 1000.0;
}

static void
report (const char *name,
        gint64      elapsed,
        double      cpu,
        gsize       before,
        gsize       after,
        guint       n_messages,
        guint       n_rows,
        guint       n_signals)
{
  g_print ("%-12s %6u rows in %7.1f ms (%5.2f us a message; CPU %7.1f ms), RSS +%5.1f MB (%4.0f bytes a row), "
           "%u items-changed\n",
           name, n_rows, elapsed / 1000.0, (double) elapsed / n_messages, cpu,
           (after - before) / (1024.0 * 1024.0), (double) (after - before) / n_rows, n_signals);
}

static void
run_messages (const char *name)
{
  gboolean exits = strcmp (name, "with-exits") == 0;
  gboolean batched = strcmp (name, "batched") == 0;
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_message_free);
  g_autoptr(PaddockTimeline) timeline = NULL;
  guint n_signals = 0;
  gsize before;
  double cpu;
  gint64 start, elapsed;

  for (guint i = 0; i < N_EXECS; i++)
    {
      g_ptr_array_add (messages, exec_message (i));
      if (exits)
        g_ptr_array_add (messages, exit_message (i));
    }

  before = rss_bytes ();
  cpu = cpu_ms ();
  start = g_get_monotonic_time ();
  timeline = paddock_timeline_new ();
  g_signal_connect (timeline, "items-changed", G_CALLBACK (on_items_changed), &n_signals);
  if (batched)
    for (guint i = 0; i < messages->len; i += 256)
      paddock_timeline_add_messages (timeline, (const PaddockMessage * const *) messages->pdata + i,
                                     MIN (256, messages->len - i));
  else
    for (guint i = 0; i < messages->len; i++)
      paddock_timeline_add_message (timeline, g_ptr_array_index (messages, i));
  elapsed = g_get_monotonic_time () - start;
  report (name, elapsed, cpu_ms () - cpu, before, rss_bytes (), messages->len, g_list_model_get_n_items (G_LIST_MODEL (timeline)), n_signals);
}

typedef struct
{
  int      fd;
  GString *lines;
} Writer;

static gpointer
write_lines (gpointer data)
{
  Writer *writer = data;
  gsize done = 0;

  while (done < writer->lines->len)
    {
      gssize n = write (writer->fd, writer->lines->str + done, writer->lines->len - done);

      if (n <= 0)
        break;
      done += n;
    }
  close (writer->fd);
  return NULL;
}

static void
on_closed (PaddockClient *client,
           const GError  *error,
           gboolean      *closed)
{
  *closed = TRUE;
}

static gboolean
idle_done (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main context until nothing more urgent than idle is left. */
static void
drain (void)
{
  gboolean done = FALSE;

  g_idle_add_full (G_PRIORITY_LOW, idle_done, &done, NULL);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* A mapped window showing @timeline, drawn once before the clock starts. */
static GtkWidget *
show_timeline (PaddockTimeline *timeline)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = paddock_timeline_view_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 500, 600);
  gtk_window_set_child (GTK_WINDOW (window), view);
  paddock_timeline_view_set_timeline (PADDOCK_TIMELINE_VIEW (view), timeline);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (view))
    g_main_context_iteration (NULL, TRUE);
  drain ();
  return window;
}

static void
run_followed (gboolean with_view)
{
  g_autoptr(GString) lines = g_string_new (
    "{\"type\":\"hello\",\"version\":1,\"session\":\"b0b\",\"project\":\"/p\",\"command\":[\"sh\"],"
    "\"agent_pid\":1,\"lock\":\"off\",\"network\":\"off\",\"features\":[],\"paused\":false}\n");
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *window = NULL;
  Writer writer;
  GThread *thread;
  gboolean closed = FALSE;
  guint n_signals = 0;
  int pair[2];
  gsize before;
  double cpu;
  gint64 start, elapsed;

  if (with_view)
    {
      if (!gtk_init_check ())
        {
          g_print ("%-12s skipped: needs a display\n", "view");
          return;
        }
      adw_init ();
      window = show_timeline (timeline);
    }
  for (guint i = 0; i < N_EXECS; i++)
    {
      g_autoptr(PaddockMessage) exec = exec_message (i);
      g_autoptr(PaddockMessage) exit = exit_message (i);
      g_autofree char *exec_line = paddock_message_to_line (exec);
      g_autofree char *exit_line = paddock_message_to_line (exit);

      g_string_append (lines, exec_line);
      g_string_append (lines, exit_line);
    }
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), ==, 0);

  before = rss_bytes ();
  cpu = cpu_ms ();
  start = g_get_monotonic_time ();
  client = paddock_client_new_for_fd (pair[0], &error);
  g_assert_no_error (error);
  paddock_timeline_follow (timeline, client);
  g_signal_connect (timeline, "items-changed", G_CALLBACK (on_items_changed), &n_signals);
  g_signal_connect (client, "closed", G_CALLBACK (on_closed), &closed);
  writer = (Writer) { pair[1], lines };
  thread = g_thread_new ("writer", write_lines, &writer);
  while (!closed)
    g_main_context_iteration (NULL, TRUE);
  if (with_view)
    drain ();
  elapsed = g_get_monotonic_time () - start;
  g_thread_join (thread);
  report (with_view ? "view" : "followed", elapsed, cpu_ms () - cpu, before, rss_bytes (), 2 * N_EXECS,
          g_list_model_get_n_items (G_LIST_MODEL (timeline)), n_signals);
  if (with_view)
    {
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }

  /* paddock_message_parse() alone on the same lines, after the run (its
   * memory freed would hide the run's), for what the client's share is. */
  {
    g_auto(GStrv) split = g_strsplit (lines->str, "\n", -1);

    start = g_get_monotonic_time ();
    for (guint i = 0; split[i] != NULL && split[i][0] != '\0'; i++)
      paddock_message_free (paddock_message_parse (split[i], strlen (split[i]), NULL));
    g_print ("%-12s %6u lines parsed in %7.1f ms by paddock_message_parse() alone\n", "parse",
             g_strv_length (split) - 1, (g_get_monotonic_time () - start) / 1000.0);
  }
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
count_record (const PaddockAuditRecord *record,
              gpointer                  user_data)
{
  (*(guint *) user_data)++;
  return TRUE;
}

static void
run_audit (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "audit.jsonl", NULL);
  g_autoptr(PaddockAudit) audit = paddock_audit_open (path, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(PaddockTimeline) timeline = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;
  double cpu;
  gint64 start, elapsed;
  guint n_records = 0;

  g_assert_nonnull (audit);
  for (guint i = 0; i < N_EXECS; i++)
    {
      g_autoptr(PaddockMessage) exec = exec_message (i);
      g_autoptr(JsonObject) fields = json_object_new ();
      g_autoptr(JsonObject) exit_fields = json_object_new ();
      JsonArray *argv = json_array_new ();

      for (guint j = 0; exec->argv[j] != NULL; j++)
        json_array_add_string_element (argv, exec->argv[j]);
      json_object_set_int_member (fields, "event", exec->seq);
      json_object_set_int_member (fields, "pid", exec->pid);
      json_object_set_int_member (fields, "ppid", exec->ppid);
      json_object_set_string_member (fields, "cwd", exec->cwd);
      json_object_set_string_member (fields, "path", exec->path);
      json_object_set_string_member (fields, "exe", exec->exe);
      json_object_set_array_member (fields, "argv", argv);
      json_object_set_int_member (fields, "argc", exec->argc);
      json_object_set_string_member (fields, "decision", "allow");
      json_object_set_string_member (fields, "by", exec->by);
      g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXEC, fields, NULL, NULL));
      json_object_set_int_member (exit_fields, "event", exec->seq);
      json_object_set_int_member (exit_fields, "pid", exec->pid);
      json_object_set_int_member (exit_fields, "duration_us", 500);
      json_object_set_int_member (exit_fields, "exit_code", 0);
      g_assert_true (paddock_audit_append (audit, PADDOCK_AUDIT_EXIT, exit_fields, NULL, NULL));
    }
  g_clear_pointer (&audit, paddock_audit_close);

  /* The reader alone, for what parsing the log costs. */
  start = g_get_monotonic_time ();
  g_assert_true (paddock_audit_foreach (path, NULL, count_record, &n_records, NULL, &error));
  g_assert_no_error (error);
  g_print ("%-12s %6u records read in %7.1f ms by paddock_audit_foreach() alone\n", "audit-read", n_records,
           (g_get_monotonic_time () - start) / 1000.0);

  before = rss_bytes ();
  cpu = cpu_ms ();
  start = g_get_monotonic_time ();
  paddock_timeline_load_audit_async (file, NULL, result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  timeline = paddock_timeline_load_audit_finish (result, &error);
  g_assert_no_error (error);
  elapsed = g_get_monotonic_time () - start;
  report ("audit", elapsed, cpu_ms () - cpu, before, rss_bytes (), 2 * N_EXECS, g_list_model_get_n_items (G_LIST_MODEL (timeline)), 0);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  const char *runs[] = { "one-by-one", "batched", "with-exits", "followed", "view", "audit" };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-bench-timeline-XXXXXX", &error);

  g_assert_no_error (error);
  g_print ("%u execs appended to a PaddockTimeline, each way in a process of its own:\n", N_EXECS);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      pid_t pid;
      int status;

      /* Named runs only, where any are named. */
      if (argc > 1 && !g_strv_contains ((const char * const *) argv + 1, runs[i]))
        continue;
      pid = fork ();

      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          if (strcmp (runs[i], "audit") == 0)
            run_audit (dir);
          else if (strcmp (runs[i], "followed") == 0 || strcmp (runs[i], "view") == 0)
            run_followed (strcmp (runs[i], "view") == 0);
          else
            run_messages (runs[i]);
          fflush (stdout);
          _exit (0);
        }
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  g_rmdir (dir);
  return 0;
}
