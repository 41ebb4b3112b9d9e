/* paddock-exec-provenance.c: which files the agent's downloads, clones and unpacked archives made
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the policy's "downloaded": a run of curl or wget notes the files it
 * saves to (its standard output too, where that is a file or a pipe into
 * tar or tee), a git clone the folder it makes, and an archiver unpacking
 * a downloaded archive the folder it unpacks into. A later exec of one of
 * them, or of a file a clone or an unpacking wrote, counts as downloaded
 * until a user let it run (see paddock-download.h for how a command line
 * is read).
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-download.h"
#include "paddock-escape.h"
#include "paddock-exec-monitor-private.h"

#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many downloaded files are kept: the oldest go first. */
#define DOWNLOADS_MAX 1024
/* How much of a download's command line is kept, to say what saved a file. */
#define DOWNLOAD_COMMAND_MAX 1024
/* How many files of one clone's folder a user let run are kept. */
#define DOWNLOAD_LOOKED_MAX 1024
/* A clone's files are those changed from this long before it was let
 * run: file times come from a clock that may lag by a tick. */
#define CLONE_EARLY_NS G_GINT64_CONSTANT (1000000000)

struct _Download
{
  char       *path;     /* the file saved, or a clone's folder (ending in '/'); the key */
  gint64      event;    /* the download's exec */
  char       *command;  /* its command line, cut at DOWNLOAD_COMMAND_MAX */
  /* For a clone's folder: the files it wrote are those changed while it
   * ran (ns since 1970; until G_MAXINT64 before its end is seen), less
   * those a user let run since. A file tar unpacks, or wget fetches,
   * has the time it had where it came from: only its inode's change
   * time says when it was written. A checkout's also counts as written
   * by the time of its contents, which a chmod +x after it leaves. */
  gint64      from;
  gint64      until;
  gboolean    by_mtime;
  int         pidfd;    /* ... and until then, its run's pidfd, or -1 */
  GHashTable *looked;   /* path, or NULL */
};

void
paddock_exec_download_free (Download *download)
{
  g_free (download->path);
  g_free (download->command);
  paddock_close_fd (&download->pidfd);
  g_clear_pointer (&download->looked, g_hash_table_unref);
  g_free (download);
}

/* One end of a pipe from a download into a program that saves what it
 * reads (`curl URL | tar xz`, `curl URL | tee i.sh`), or passes it on
 * (`curl URL | gunzip | tar x`), kept until the other end's run is let
 * go on: the two exec in either order. */
struct _PipeEnd
{
  guint64     pipe;      /* its inode */
  gint64      event;     /* this end's exec */
  char       *command;   /* its command line, cut at DOWNLOAD_COMMAND_MAX */
  GPtrArray  *targets;   /* for the reader, what it writes (tar's folder, tee's files), or NULL;
                          * NULL for the download */
  guint64     forward;   /* for a reader that is a filter, the pipe it writes to; else 0 */
  const char *input;     /* for the reader, what it reads, as ExecInfo's pipe_input */
  int         pidfd;     /* for a reader that saves, its run's, or -1 */
};

static gboolean
is_reader (const PipeEnd *end)
{
  return end->targets != NULL || end->forward != 0;
}

#define PIPE_ENDS_MAX 16

void
paddock_exec_pipe_end_free (PipeEnd *end)
{
  g_free (end->command);
  g_clear_pointer (&end->targets, g_ptr_array_unref);
  paddock_close_fd (&end->pidfd);
  g_free (end);
}

static gboolean
is_folder (const Download *download)
{
  return g_str_has_suffix (download->path, "/");
}

/* Under downloads_lock: the download that saved @path itself, or else the
 * clone whose folder holds it, the nearest (*@in_folder). */
static Download *
find_download (PaddockExecMonitor *self,
               const char         *path,
               gboolean           *in_folder)
{
  Download *download = g_hash_table_lookup (self->downloads, path);
  g_autofree char *prefix = NULL;

  *in_folder = FALSE;
  if (download != NULL || self->n_folders == 0)
    return download;
  prefix = g_strdup (path);
  for (char *slash = strrchr (prefix, '/'); slash != NULL; slash = strrchr (prefix, '/'))
    {
      slash[1] = '\0';
      download = g_hash_table_lookup (self->downloads, prefix);
      if (download != NULL && is_folder (download))
        {
          *in_folder = TRUE;
          return download;
        }
      *slash = '\0';
    }
  return NULL;
}

/* When @path was last written, and when its inode last changed (ns since
 * 1970), as process @tid sees its file system; left as they are when not
 * known. */
static void
written_at (pid_t       tid,
            const char *path,
            gint64      times[2])
{
  g_autofree char *seen = g_strdup_printf ("/proc/%d/root%s", (int) tid, path);
  struct statx stx;

  /* Cached attributes will do (see paddock_exec_read_fd_file()). */
  if (statx (AT_FDCWD, seen, AT_STATX_DONT_SYNC, STATX_MTIME | STATX_CTIME, &stx) != 0 ||
      (stx.stx_mask & (STATX_MTIME | STATX_CTIME)) != (STATX_MTIME | STATX_CTIME))
    return;
  times[0] = stx.stx_mtime.tv_sec * G_GINT64_CONSTANT (1000000000) + stx.stx_mtime.tv_nsec;
  times[1] = stx.stx_ctime.tv_sec * G_GINT64_CONSTANT (1000000000) + stx.stx_ctime.tv_nsec;
}

static gboolean
within (gint64          time,
        const Download *download)
{
  return time >= download->from && time <= download->until;
}

/* Whether the download that saved @path, a file process @tid runs, is
 * known, with (if not NULL) a copy of its exec and command line. In a
 * clone's folder, only a file the clone wrote counts, and not once a user
 * let it run. */
static gboolean
lookup_download (PaddockExecMonitor  *self,
                 const char          *path,
                 pid_t                tid,
                 gint64              *event,
                 char               **command)
{
  Download *download;
  gboolean in_folder;
  gint64 written[2] = { -1, -1 };
  gboolean found;

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  g_mutex_unlock (&self->downloads_lock);
  if (download == NULL)
    return FALSE;
  /* Not under the lock: a file system may be slow to answer. */
  if (in_folder)
    written_at (tid, path, written);

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  found = download != NULL &&
          (!in_folder || (((download->by_mtime && within (written[0], download)) || within (written[1], download)) &&
                          (download->looked == NULL || !g_hash_table_contains (download->looked, path))));
  if (found && event != NULL)
    *event = download->event;
  if (found && command != NULL)
    *command = g_strdup (download->command);
  g_mutex_unlock (&self->downloads_lock);
  return found;
}

gboolean
paddock_exec_is_downloaded (const char *path,
                            gpointer    data)
{
  DownloadLook *look = data;

  return lookup_download (look->monitor, path, look->tid, NULL, NULL);
}

/* @text, cut where a character starts once it is longer than @max bytes
 * and marked "…" where cut; freed into its string. */
char *
paddock_exec_free_cut (GString *text,
                       gsize    max)
{
  if (text->len > max)
    {
      g_string_truncate (text, paddock_utf8_char_start (text->str, max));
      g_string_append (text, "…");
    }
  return g_string_free (text, FALSE);
}

/* @argv joined by spaces, as paddock_exec_free_cut() cuts it at @max bytes. */
static char *
join_argv_cut (const char * const *argv,
               gsize               max)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL && line->len <= max; i++)
    {
      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, argv[i]);
    }
  return paddock_exec_free_cut (line, max);
}

/* Under downloads_lock: the end kept in self->piped of @pipe that is a
 * download (@reader FALSE) or what reads its output (TRUE), or NULL. */
static GList *
lookup_pipe_end (PaddockExecMonitor *self,
                 guint64             pipe,
                 gboolean            reader)
{
  for (GList *l = self->piped.tail; l != NULL; l = l->prev)
    {
      PipeEnd *end = l->data;

      if (end->pipe == pipe && is_reader (end) == reader)
        return l;
    }
  return NULL;
}

/* Where the input of a program that saves it (what it reads, @input)
 * came from: @download's run. */
static char *
piped_from (const char    *input,
            const PipeEnd *download)
{
  return g_strdup_printf ("its %s piped from #%" G_GINT64_FORMAT ": %s", input, download->event, download->command);
}

/* @info, a run of tar, tee or a filter, saves what it reads from @pipe
 * (its standard input) to @targets (or NULL), and passes it on to the
 * pipe @forward (or 0): where a download that writes to @pipe was let go
 * on before, the targets count as downloaded by @info, and @forward is a
 * download's pipe; else this end waits for it (note_piped()). */
static void
find_piped_download (PaddockExecMonitor *self,
                     ExecInfo           *info,
                     guint64             pipe,
                     GPtrArray          *targets,
                     guint64             forward,
                     const char         *input)
{
  GList *l;

  g_mutex_lock (&self->downloads_lock);
  if ((l = lookup_pipe_end (self, pipe, FALSE)) != NULL)
    {
      PipeEnd *download = l->data;

      info->downloads = targets;
      info->saved_from = piped_from (input, download);
      info->download_pipe = forward;
      g_queue_delete_link (&self->piped, l);
      paddock_exec_pipe_end_free (download);
    }
  else
    {
      info->download_pipe = pipe;
      info->pipe_targets = targets;
      info->pipe_forward = forward;
      info->pipe_input = input;
    }
  g_mutex_unlock (&self->downloads_lock);
}

/* If @info, a run of the archiver @program, unpacks an archive that
 * counts as downloaded, the folder it unpacks into counts as a clone's.
 * An archive tar reads from standard input counts where it is a file
 * that does, or a pipe from a download (`curl URL | tar xz`): where the
 * download has not run yet, this end waits for it (note_piped()). */
static void
find_unpacked (PaddockExecMonitor *self,
               ExecInfo           *info,
               const char         *program)
{
  g_autofree char *archive = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *command = NULL;
  g_autofree char *zip = NULL;
  gint64 event;

  folder = paddock_download_extract_folder ((const char * const *) info->argv->pdata, program,
                                            paddock_exec_load_cwd (info), &archive);
  if (folder == NULL)
    return;
  if (strcmp (archive, "-") == 0)
    {
      guint64 pipe;

      g_clear_pointer (&archive, g_free);
      if ((pipe = paddock_exec_read_pipe (info->tid, STDIN_FILENO)) != 0)
        {
          GPtrArray *targets = g_ptr_array_new_with_free_func (g_free);

          g_ptr_array_add (targets, g_steal_pointer (&folder));
          find_piped_download (self, info, pipe, targets, 0, "archive");
          return;
        }
      if ((archive = paddock_exec_read_fd_file (info->tid, STDIN_FILENO)) == NULL)
        return;
    }
  if (g_atomic_int_get (&self->n_downloads) == 0)
    return;
  /* unzip NAME opens NAME.zip where there is no NAME. */
  if (!lookup_download (self, archive, info->tid, &event, &command) &&
      (strcmp (program, "unzip") != 0 || !lookup_download (self, (zip = g_strconcat (archive, ".zip", NULL)),
                                                           info->tid, &event, &command)))
    return;
  info->downloads = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (info->downloads, g_steal_pointer (&folder));
  info->saved_from = g_strdup_printf ("its archive saved by #%" G_GINT64_FORMAT ": %s", event, command);
}

/* If @info is a download (curl, wget), finds the files it saves to, its
 * standard output too where the download goes there; if it unpacks a
 * downloaded archive, the folder it unpacks into: while its process
 * waits in the exec, before it is answered. */
void
paddock_exec_find_downloads (PaddockExecMonitor *self,
                             ExecInfo           *info)
{
  const char *paths[] = { info->exe, info->lexical, g_ptr_array_index (info->argv, 0) };
  const char *program = NULL;
  gboolean to_stdout = FALSE;
  char *stdout_file;

  for (guint i = 0; i < G_N_ELEMENTS (paths) && program == NULL; i++)
    {
      const char *slash = paths[i] != NULL ? strrchr (paths[i], '/') : NULL;
      const char *name = slash != NULL ? slash + 1 : paths[i];

      if (paddock_download_is_downloader (name) || paddock_download_is_extractor (name) ||
          paddock_download_is_filter (name))
        program = name;
    }
  if (program == NULL)
    return;
  if (paddock_download_is_extractor (program))
    {
      find_unpacked (self, info, program);
      return;
    }
  if (paddock_download_is_filter (program))
    {
      GPtrArray *targets = NULL;
      guint64 pipe;
      guint64 forward;

      if ((pipe = paddock_exec_read_pipe (info->tid, STDIN_FILENO)) == 0)
        return;
      if (strcmp (program, "tee") == 0)
        targets = paddock_download_tee_targets ((const char * const *) info->argv->pdata,
                                                paddock_exec_load_cwd (info));
      forward = paddock_exec_read_pipe (info->tid, STDOUT_FILENO);
      if (targets != NULL || forward != 0)
        find_piped_download (self, info, pipe, targets, forward, "input");
      return;
    }
  info->checks_out = strcmp (program, "git") == 0 || strcmp (program, "gh") == 0;
  info->downloads = paddock_download_targets ((const char * const *) info->argv->pdata, program,
                                              paddock_exec_load_cwd (info), &to_stdout);
  if (!to_stdout)
    return;
  if ((stdout_file = paddock_exec_read_fd_file (info->tid, STDOUT_FILENO)) == NULL)
    {
      /* Perhaps into tar or tee (note_piped()); a clone writes nothing there. */
      if (!info->checks_out)
        info->download_pipe = paddock_exec_read_pipe (info->tid, STDOUT_FILENO);
      return;
    }
  if (info->downloads == NULL)
    info->downloads = g_ptr_array_new_with_free_func (g_free);
  if (g_ptr_array_find_with_equal_func (info->downloads, stdout_file, g_str_equal, NULL))
    g_free (stdout_file);
  else
    g_ptr_array_add (info->downloads, stdout_file);
}

/* Takes @download out of the table; under downloads_lock. */
static void
drop_download (PaddockExecMonitor *self,
               Download           *download)
{
  g_queue_remove (&self->downloads_order, download);
  g_hash_table_remove (self->downloads, download->path);
  if (is_folder (download))
    self->n_folders--;
  if (download->until == G_MAXINT64)
    self->n_cloning--;
  paddock_exec_download_free (download);
  g_atomic_int_set (&self->n_downloads, (gint) g_queue_get_length (&self->downloads_order));
}

/* Under downloads_lock: notes @path, saved by @event's @command, for a
 * later run of it. @pidfd (or -1) is the run's, for a clone's end to be
 * seen before the main context sees it (close_ended_clones()). */
static void
add_download (PaddockExecMonitor *self,
              char               *path,
              gint64              event,
              const char         *command,
              gboolean            by_mtime,
              int                 pidfd)
{
  Download *download = g_hash_table_lookup (self->downloads, path);

  /* Saved again: the latest download is the one that counts. */
  if (download != NULL)
    drop_download (self, download);
  else if (g_queue_get_length (&self->downloads_order) >= DOWNLOADS_MAX)
    drop_download (self, g_queue_peek_head (&self->downloads_order));
  download = g_new0 (Download, 1);
  download->path = path;
  download->event = event;
  download->command = g_strdup (command);
  download->pidfd = -1;
  download->by_mtime = by_mtime;
  if (is_folder (download))
    {
      download->from = g_get_real_time () * 1000 - CLONE_EARLY_NS;
      download->until = G_MAXINT64;
      if (pidfd >= 0)
        download->pidfd = keep_below_ceiling (self, fcntl (pidfd, F_DUPFD_CLOEXEC, 3));
      self->n_folders++;
      self->n_cloning++;
    }
  g_queue_push_tail (&self->downloads_order, download);
  g_hash_table_insert (self->downloads, download->path, download);
  g_atomic_int_set (&self->n_downloads, (gint) g_queue_get_length (&self->downloads_order));
}

/* @command, and in brackets where what it saved came from, @source. */
static char *
unpack_line (const char *command,
             const char *source)
{
  GString *line = g_string_new (command);

  g_string_append_printf (line, " (%s)", source);
  return paddock_exec_free_cut (line, DOWNLOAD_COMMAND_MAX);
}

static void offer_pipe_end (PaddockExecMonitor *self,
                            PipeEnd            *end);

/* Under downloads_lock: @download's output reaches @reader. What the
 * reader saves counts as downloaded from now (tar's folder as a clone's,
 * until tar's end; the paths are taken from its targets); what it passes
 * on (a filter's standard output) is a download of its own, which goes on
 * to its reader in turn. */
static void
connect_pipe_ends (PaddockExecMonitor *self,
                   const PipeEnd      *download,
                   PipeEnd            *reader)
{
  g_autofree char *from = piped_from (reader->input, download);
  g_autofree char *line = unpack_line (reader->command, from);

  for (guint i = 0; reader->targets != NULL && i < reader->targets->len; i++)
    add_download (self, g_steal_pointer (&g_ptr_array_index (reader->targets, i)), reader->event, line, FALSE,
                  reader->pidfd);
  if (reader->forward != 0)
    {
      PipeEnd passed = { .pipe = reader->forward, .event = reader->event, .command = line, .pidfd = -1 };

      offer_pipe_end (self, &passed);
    }
}

/* Under downloads_lock: @end (not kept: what it holds is copied or
 * taken) meets its other end, where that one's run was let go on
 * before; else a copy of it is kept for it, the oldest going when too
 * many are. Each meeting takes an end out of self->piped, so a chain of
 * filters ends. A pipe's inode is not used again while the pipe is open. */
static void
offer_pipe_end (PaddockExecMonitor *self,
                PipeEnd            *end)
{
  GList *l = lookup_pipe_end (self, end->pipe, !is_reader (end));
  PipeEnd *kept;

  if (l != NULL)
    {
      PipeEnd *other = l->data;

      g_queue_delete_link (&self->piped, l);
      if (is_reader (end))
        connect_pipe_ends (self, other, end);
      else
        connect_pipe_ends (self, end, other);
      paddock_exec_pipe_end_free (other);
      return;
    }

  if (g_queue_get_length (&self->piped) >= PIPE_ENDS_MAX)
    paddock_exec_pipe_end_free (g_queue_pop_head (&self->piped));
  kept = g_new0 (PipeEnd, 1);
  kept->pipe = end->pipe;
  kept->event = end->event;
  kept->command = g_strdup (end->command);
  kept->targets = g_steal_pointer (&end->targets);
  kept->forward = end->forward;
  kept->input = end->input;
  kept->pidfd = kept->targets != NULL && end->pidfd >= 0 ?
                keep_below_ceiling (self, fcntl (end->pidfd, F_DUPFD_CLOEXEC, 3)) : -1;
  g_queue_push_tail (&self->piped, kept);
}

/* Under downloads_lock: @info, let go on as @event with @command, is one
 * end of a pipe from a download into what saves its output or passes it
 * on (its download_pipe): see offer_pipe_end(). */
static void
note_piped (PaddockExecMonitor *self,
            ExecInfo           *info,
            gint64              event,
            const char         *command,
            int                 pidfd)
{
  PipeEnd mine = {
    .pipe = info->download_pipe,
    .event = event,
    .command = (char *) command,
    .targets = info->pipe_targets,
    .forward = info->pipe_forward,
    .input = info->pipe_input,
    .pidfd = pidfd,
  };

  offer_pipe_end (self, &mine);
  info->pipe_targets = mine.targets;
}

/* Notes the files @info, let go on as @event, saves to (see
 * paddock_exec_find_downloads()), for a later run of one of them, and an
 * end of a pipe from a download into tar or tee. @pidfd (or -1) is the
 * run's, for a clone's end to be seen before the main context sees it
 * (close_ended_clones()). */
void
paddock_exec_note_download (PaddockExecMonitor *self,
                            ExecInfo           *info,
                            gint64              event,
                            int                 pidfd)
{
  g_autofree char *command = NULL;
  GPtrArray *targets = info->downloads;

  if (targets == NULL && info->download_pipe == 0)
    return;
  command = join_argv_cut ((const char * const *) info->argv->pdata, DOWNLOAD_COMMAND_MAX);
  if (info->saved_from != NULL)
    {
      char *line = unpack_line (command, info->saved_from);

      g_free (command);
      command = line;
    }

  g_mutex_lock (&self->downloads_lock);
  for (guint i = 0; targets != NULL && i < targets->len; i++)
    add_download (self, g_steal_pointer (&g_ptr_array_index (targets, i)), event, command, info->checks_out, pidfd);
  if (info->download_pipe != 0)
    note_piped (self, info, event, command, pidfd);
  g_mutex_unlock (&self->downloads_lock);
}

/* A downloaded file a user let run, asked about it: someone has now
 * looked, and it no longer counts as downloaded, until it is again. */
void
paddock_exec_forget_download (PaddockExecMonitor *self,
                              const char         *path)
{
  Download *download;
  gboolean in_folder;

  g_mutex_lock (&self->downloads_lock);
  download = find_download (self, path, &in_folder);
  if (download != NULL && !in_folder)
    drop_download (self, download);
  else if (download != NULL)
    {
      if (download->looked == NULL)
        download->looked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (g_hash_table_size (download->looked) < DOWNLOAD_LOOKED_MAX)
        g_hash_table_add (download->looked, g_strdup (path));
    }
  g_mutex_unlock (&self->downloads_lock);
}

/* Under downloads_lock: @download, a clone's folder, has all its files.
 * The kernel's file times lag by up to a tick (4 ms at 250 Hz): a file
 * changed within one after this may still count as the clone's, which
 * asks once too often rather than not at all. */
static void
clone_ended (PaddockExecMonitor *self,
             Download           *download)
{
  download->until = g_get_real_time () * 1000;
  paddock_close_fd (&download->pidfd);
  self->n_cloning--;
}

/* The run of @event ended: a clone it was has written what it wrote. */
void
paddock_exec_end_clone (PaddockExecMonitor *self,
                        gint64              event)
{
  g_mutex_lock (&self->downloads_lock);
  if (self->n_cloning > 0)
    for (GList *l = self->downloads_order.head; l != NULL; l = l->next)
      {
        Download *download = l->data;

        if (download->event == event && download->until == G_MAXINT64)
          clone_ended (self, download);
      }
  g_mutex_unlock (&self->downloads_lock);
}

/* close_ended_clones(), where a download is known. */
void
paddock_exec_close_ended_clones (PaddockExecMonitor *self)
{
  g_mutex_lock (&self->downloads_lock);
  if (self->n_cloning > 0)
    for (GList *l = self->downloads_order.head; l != NULL; l = l->next)
      {
        Download *download = l->data;
        struct pollfd ended = { .fd = download->pidfd, .events = POLLIN };

        if (download->until == G_MAXINT64 && download->pidfd >= 0 && poll (&ended, 1, 0) > 0)
          clone_ended (self, download);
      }
  g_mutex_unlock (&self->downloads_lock);
}

/* The reason @rule gives; for a "downloaded" rule, also which file runs
 * (@path, from rule_download()) and which download saved it: what one who
 * decides needs. */
char *
paddock_exec_decision_reason (PaddockExecMonitor *self,
                              PaddockPolicyRule  *rule,
                              const char         *path,
                              pid_t               tid)
{
  g_autofree char *command = NULL;
  const char *reason;
  GString *text;
  gint64 event;

  if (rule == NULL)
    return NULL;
  reason = paddock_policy_rule_get_reason (rule);
  if (path == NULL)
    return g_strdup (reason);

  text = g_string_new (reason);
  if (text->len > 0)
    g_string_append_c (text, ' ');
  if (lookup_download (self, path, tid, &event, &command))
    g_string_append_printf (text, "It runs %s, which #%" G_GINT64_FORMAT " saved: %s", path, event, command);
  else
    g_string_append_printf (text, "It runs %s, which a download saved.", path);
  return g_string_free (text, FALSE);
}
