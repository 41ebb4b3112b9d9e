/* paddock-exec-pipelines.c: pipes into shells: `curl … | sh` judged as the pipeline it is
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A shell reading its script from a pipe runs what the program writing to
 * the pipe writes, and a "script" rule is about that pipeline. The shell
 * that runs second finds the writer among its siblings (what its pipeline
 * made), up the pipes; a writer that runs second finds the shell kept
 * from before. Either way the pipeline is recorded, and the shell's
 * command is judged with its writer.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-exec-monitor-private.h"
#include "paddock-proc.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A shell that reads its script from a pipe (paddock_policy_query_script_fd),
 * kept by the answering thread so that the program that writes to the
 * pipe, if it comes later, is judged as the pipeline: `curl … | sh` is two
 * execs, neither of which says what the other does, and either may come
 * first. */
struct _PipeReader
{
  guint64  pipe;       /* the pipe's inode */
  int      fd;         /* the shell's descriptor for it */
  pid_t    pid;
  pid_t    ppid;
  char    *exe;
  char    *resolved;
  GStrv    argv;
  char    *cwd;
};

#define MAX_PIPE_READERS     16
/* How often those kept are checked for still reading their pipe. */
#define PIPE_READERS_CHECK   (100 * G_TIME_SPAN_MILLISECOND)
/* How much of a writer's command line is read, and how many of the
 * shell's siblings are looked at for it. */
#define PIPE_WRITER_LINE_MAX (64 * 1024)
#define PIPE_WRITERS_MAX     64
/* How many programs a pipeline into a shell is followed through. */
#define PIPE_HOPS_MAX        4

void
paddock_exec_pipe_reader_free (PipeReader *reader)
{
  if (reader == NULL)
    return;
  g_free (reader->exe);
  g_free (reader->resolved);
  g_strfreev (reader->argv);
  g_free (reader->cwd);
  g_free (reader);
}

static PipeReader *
pipe_reader_copy (const PipeReader *reader)
{
  PipeReader *copy = g_memdup2 (reader, sizeof *reader);

  copy->exe = g_strdup (reader->exe);
  copy->resolved = g_strdup (reader->resolved);
  copy->argv = g_strdupv (reader->argv);
  copy->cwd = g_strdup (reader->cwd);
  return copy;
}

/* @pid's command line, its arguments joined by spaces, at most
 * PIPE_WRITER_LINE_MAX bytes of it; NULL when it cannot be read. */
static char *
read_command_line (pid_t pid)
{
  g_autofree char *buffer = g_malloc (PIPE_WRITER_LINE_MAX + 1);
  char path[48];
  paddock_autofd int fd = -1;
  gsize length = 0;
  ssize_t n;

  g_snprintf (path, sizeof path, "/proc/%d/cmdline", (int) pid);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  while (length < PIPE_WRITER_LINE_MAX &&
         (n = read (fd, buffer + length, PIPE_WRITER_LINE_MAX - length)) > 0)
    length += n;
  while (length > 0 && buffer[length - 1] == '\0')
    length--;
  if (length == 0)
    return NULL;
  for (gsize i = 0; i < length; i++)
    if (buffer[i] == '\0')
      buffer[i] = ' ';
  buffer[length] = '\0';
  return g_strndup (buffer, length);
}

static char *
join_argv (const char * const *argv)
{
  return g_strjoinv (" ", (GStrv) argv);
}

/* The command line of an exec of @argv, run as @path, with #! lines
 * @shebangs, as /proc/PID/cmdline has it once the exec is done, which is
 * how a shell that runs second sees it (find_pipe_writer): for a script,
 * its last #! line's. */
static char *
running_line (const char * const *argv,
              const char         *path,
              GPtrArray          *shebangs)
{
  g_autoptr(GPtrArray) argvs = NULL;
  PaddockPolicyQuery levels[PADDOCK_EXEC_MAX_LEVELS];
  PaddockPolicyQuery query = { .exe = path, .argv = argv };
  guint n_lines = shebangs != NULL ? shebangs->len / 2 : 0;
  guint n;

  if (n_lines == 0)
    return join_argv (argv);
  n = paddock_exec_level_queries (&query, path, shebangs, &argvs, levels);
  return join_argv (levels[MIN (n_lines, n - 1)].argv);
}

/* The command line of @pid's exec, if it was one of the last let go on. */
static char *
recent_exec_line (PaddockExecMonitor *self,
                  pid_t               pid)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->recent); i++)
    {
      /* The latest first: a pid execs again more often than it is reused. */
      RecentExec *recent = &self->recent[(self->recent_next - 1 - i) % G_N_ELEMENTS (self->recent)];

      if (recent->pid == pid && recent->argv != NULL)
        return running_line ((const char * const *) recent->argv->pdata, recent->path, recent->shebangs);
    }
  return NULL;
}

/* The other programs a shell's pipeline made: the children of thread
 * @tid's parent, and @tid's own (`bash <(curl …)` run in place of the
 * shell that made the pipe); and the command lines that one of them that
 * has not yet run its program still shows, its parent's. */
typedef struct
{
  pid_t  pids[PIPE_WRITERS_MAX];
  guint  n;
  char  *parent_line;
  char  *self_line;
} Siblings;

static void
siblings_clear (Siblings *siblings)
{
  g_clear_pointer (&siblings->parent_line, g_free);
  g_clear_pointer (&siblings->self_line, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Siblings, siblings_clear)

/* Adds the children of thread @tid (but @except) to @siblings. */
static void
add_children (Siblings *siblings,
              pid_t     tid,
              pid_t     except)
{
  char buffer[PIPE_WRITERS_MAX * 12];
  char name[48];
  char *next;

  g_snprintf (name, sizeof name, "task/%d/children", (int) tid);
  if (!paddock_proc_read_start (-1, tid, name, buffer, sizeof buffer))
    return;
  for (char *p = buffer; *p != '\0' && siblings->n < PIPE_WRITERS_MAX; p = next)
    {
      gint64 child = g_ascii_strtoll (p, &next, 10);

      if (next == p)
        break;
      if (child > 0 && child != except)
        siblings->pids[siblings->n++] = (pid_t) child;
    }
}

/* @ppid: thread @tid's parent. */
static gboolean
read_siblings (pid_t     tid,
               pid_t     ppid,
               Siblings *siblings)
{
  add_children (siblings, ppid, tid);
  add_children (siblings, tid, tid);
  siblings->parent_line = read_command_line (ppid);
  siblings->self_line = read_command_line (tid);
  return siblings->n > 0;
}

/* The command line of the sibling whose descriptor @fd is @pipe, and in
 * @other, the pipe that is its descriptor @other_fd (or 0); NULL when none
 * is, or it has not yet run its program. One whose exec was let go on
 * but not yet done still shows the program it replaces: its exec's line
 * is the one it will have. */
static char *
sibling_on_pipe (PaddockExecMonitor *self,
                 const Siblings     *siblings,
                 int                 fd,
                 guint64             pipe,
                 int                 other_fd,
                 guint64            *other)
{
  for (guint i = 0; i < siblings->n; i++)
    {
      char *line;

      if (paddock_exec_read_pipe (siblings->pids[i], fd) != pipe)
        continue;
      line = read_command_line (siblings->pids[i]);
      if (line == NULL || g_strcmp0 (line, siblings->parent_line) == 0 || g_strcmp0 (line, siblings->self_line) == 0)
        {
          g_free (line);
          line = recent_exec_line (self, siblings->pids[i]);
          if (line == NULL)
            return NULL;
        }
      *other = paddock_exec_read_pipe (siblings->pids[i], other_fd);
      return line;
    }
  return NULL;
}

/* What writes to @pipe, the stdin of the shell that thread @tid execs:
 * the command lines of the shell's siblings (what its pipeline made) up
 * the pipes, `curl … | tee log` for `curl … | tee log | sh`; or NULL. A
 * sibling that has not yet run its program is not known; its exec, when
 * it comes, finds the shell (find_pipe_reader). */
static char *
find_pipe_writer (PaddockExecMonitor *self,
                  pid_t               tid,
                  guint64             pipe)
{
  g_auto(Siblings) siblings = { { 0 }, 0, NULL, NULL };
  g_autoptr(GString) pipeline = NULL;
  pid_t ppid = paddock_exec_read_ppid (tid, -1);

  if (ppid <= 0 || !read_siblings (tid, ppid, &siblings))
    return NULL;
  for (guint hops = 0; pipe != 0 && hops < PIPE_HOPS_MAX; hops++)
    {
      guint64 upstream = 0;
      g_autofree char *line = sibling_on_pipe (self, &siblings, STDOUT_FILENO, pipe, STDIN_FILENO, &upstream);

      if (line == NULL)
        break;
      if (pipeline == NULL)
        pipeline = g_string_new (line);
      else
        {
          g_string_prepend (pipeline, " | ");
          g_string_prepend (pipeline, line);
        }
      pipe = upstream;
    }
  return pipeline != NULL ? g_string_free (g_steal_pointer (&pipeline), FALSE) : NULL;
}

/* Whether @reader still reads its script from its pipe. */
static gboolean
reader_reads (const PipeReader *reader)
{
  return paddock_exec_read_pipe (reader->pid, reader->fd) == reader->pipe;
}

/* A shell in self->readers that reads its script from @pipe, still. */
static const PipeReader *
reader_of (PaddockExecMonitor *self,
           guint64             pipe)
{
  for (guint i = self->readers->len; i > 0; i--)
    {
      PipeReader *reader = g_ptr_array_index (self->readers, i - 1);

      if (reader->pipe != pipe)
        continue;
      if (reader_reads (reader))
        return reader;
      g_ptr_array_remove_index (self->readers, i - 1);
    }
  return NULL;
}

/* Whether a shell in self->readers has the parent of thread @tid, which
 * goes in @ppid. */
static gboolean
has_sibling_reader (PaddockExecMonitor *self,
                    pid_t               tid,
                    pid_t              *ppid)
{
  *ppid = paddock_exec_read_ppid (tid, -1);
  if (*ppid <= 0)
    return FALSE;
  for (guint i = 0; i < self->readers->len; i++)
    if (((PipeReader *) g_ptr_array_index (self->readers, i))->ppid == *ppid)
      return TRUE;
  return FALSE;
}

/* The shell kept in self->readers that reads its script from the pipe
 * thread @tid writes to (its stdout), directly or through its siblings
 * down the pipes (`curl … | tee log | sh`, the shell having run first);
 * in @between, those siblings' command lines, " | tee log" (or ""). */
static const PipeReader *
find_pipe_reader (PaddockExecMonitor  *self,
                  pid_t                tid,
                  gint64               now,
                  char               **between)
{
  g_auto(Siblings) siblings = { { 0 }, 0, NULL, NULL };
  g_autoptr(GString) lines = NULL;
  const PipeReader *reader;
  guint64 pipe;
  pid_t ppid;

  /* Those that no longer read their pipe (gone, or past it) go, now and
   * then, so that an exec pays for the looks below only while one reads. */
  if (now - self->readers_checked >= PIPE_READERS_CHECK)
    {
      self->readers_checked = now;
      for (guint i = self->readers->len; i > 0; i--)
        {
          if (!reader_reads (g_ptr_array_index (self->readers, i - 1)))
            g_ptr_array_remove_index (self->readers, i - 1);
        }
    }
  if (self->readers->len == 0)
    return NULL;

  pipe = paddock_exec_read_pipe (tid, STDOUT_FILENO);
  if (pipe == 0)
    return NULL;
  lines = g_string_new (NULL);
  reader = reader_of (self, pipe);
  /* Through filters, only where one of those shells is a sibling: an
   * agent's own shell fed through a pipe for the whole session must not
   * make each exec whose output a pipe takes look at its siblings. */
  if (reader == NULL && has_sibling_reader (self, tid, &ppid) && read_siblings (tid, ppid, &siblings))
    for (guint hops = 0; reader == NULL && pipe != 0 && hops < PIPE_HOPS_MAX; hops++)
      {
        guint64 downstream = 0;
        g_autofree char *line = sibling_on_pipe (self, &siblings, STDIN_FILENO, pipe, STDOUT_FILENO, &downstream);

        if (line == NULL)
          break;
        g_string_append (lines, " | ");
        g_string_append (lines, line);
        pipe = downstream;
        if (pipe != 0)
          reader = reader_of (self, pipe);
      }
  if (reader != NULL)
    *between = g_string_free (g_steal_pointer (&lines), FALSE);
  return reader;
}

/* @info, a shell reading its script from a pipe, is kept for the pipe's
 * writer to find; the oldest goes when too many are. */
void
paddock_exec_keep_pipe_reader (PaddockExecMonitor *self,
                               const ExecInfo     *info)
{
  PipeReader *reader = g_new0 (PipeReader, 1);

  reader->pipe = info->script_pipe;
  reader->fd = info->script_fd;
  reader->pid = info->pid;
  reader->ppid = info->ppid;
  reader->exe = g_strdup (info->lexical);
  reader->resolved = g_strdup (info->exe);
  reader->argv = g_strdupv ((GStrv) info->argv->pdata);
  reader->cwd = g_strdup (info->cwd);
  if (self->readers->len >= MAX_PIPE_READERS)
    g_ptr_array_remove_index (self->readers, 0);
  g_ptr_array_add (self->readers, reader);
}

/* Where @info writes to a pipe a shell that ran first reads its script
 * from, the shell's level, with @info's writer as what writes to it,
 * after the @n @levels of @query. (A shell that runs second is its own
 * level 0, whose query has its stdin_from.) Returns the levels' new
 * count. */
guint
paddock_exec_add_pipe_level (const ExecInfo           *info,
                             const PaddockPolicyQuery *query,
                             PaddockPolicyQuery       *levels,
                             guint                     n)
{
  if (info->reader == NULL || n >= PADDOCK_EXEC_MAX_LEVELS)
    return n;
  levels[n] = (PaddockPolicyQuery) {
    .exe = info->reader->exe,
    .argv = (const char * const *) info->reader->argv,
    .cwd = info->reader->cwd,
    .project = query->project,
    .home = query->home,
    .resolved = info->reader->resolved,
    .stdin_from = info->writer,
  };
  return n + 1;
}

/* @info's pipeline, "WRITER | SHELL", as far as it is shown
 * (PADDOCK_EXEC_MAX_PIPELINE_SHOWN), cut where a character may start, and
 * marked "…" where cut. */
static void
set_pipeline (ExecInfo   *info,
              const char *writer,
              const char *shell)
{
  GString *pipeline = g_string_new (writer);

  g_string_append (pipeline, " | ");
  g_string_append (pipeline, shell);
  g_free (info->pipeline);
  info->pipeline = paddock_exec_free_cut (pipeline, PADDOCK_EXEC_MAX_PIPELINE_SHOWN);
}

/* Which end of a pipe into a shell that reads its script from it @info
 * is, if either: the shell (its script_pipe; @query's stdin_from is then
 * what writes to it, if known) or what writes to it, the shell having
 * run first. Either way the pipeline goes in @info. */
void
paddock_exec_find_pipe_end (PaddockExecMonitor *self,
                            ExecInfo           *info,
                            PaddockPolicyQuery *query,
                            gint64              now)
{
  g_autofree char *between = NULL;
  const PipeReader *reader;
  guint64 pipe;
  int fd;

  if ((fd = paddock_policy_query_script_fd (query)) >= 0 && (pipe = paddock_exec_read_pipe (info->tid, fd)) != 0)
    {
      info->script_pipe = pipe;
      info->script_fd = fd;
      info->stdin_from = find_pipe_writer (self, info->tid, pipe);
      query->stdin_from = info->stdin_from;
      if (info->stdin_from != NULL)
        {
          g_autofree char *line = join_argv (query->argv);

          set_pipeline (info, info->stdin_from, line);
        }
      return;
    }
  reader = find_pipe_reader (self, info->tid, now, &between);
  if (reader != NULL)
    {
      g_autofree char *line = running_line (query->argv, info->path, info->shebangs);
      g_autofree char *reader_line = join_argv ((const char * const *) reader->argv);

      info->reader = pipe_reader_copy (reader);
      info->writer = g_strconcat (line, between, NULL);
      set_pipeline (info, info->writer, reader_line);
    }
}
