/* paddock-process-tree.c: the agent's whole process tree, as one thing to stop, pause and kill
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * paddock-run is a child subreaper, so every process the agent starts stays
 * below it, double-forked and setsid() ones included. The tree is found by
 * walking /proc. A kill first stops every process it finds, then looks again
 * until a pass finds nothing new, so nothing escapes by forking faster than
 * the sweep; only then does it send SIGKILL.
 */
#include "config.h"

#include "paddock-autofd.h"
#include "paddock-proc.h"
#include "paddock-process-tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

gboolean
paddock_process_tree_become_subreaper (GError **error)
{
  if (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot become a child subreaper: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/* The parent of @pid, or 0 when it is gone. */
static pid_t
read_ppid (int   proc_fd,
           pid_t pid)
{
  pid_t ppid = 0;

  return paddock_proc_read_stat (proc_fd, pid, NULL, &ppid) ? ppid : 0;
}

static gboolean
set_error_from_errno (GError     **error,
                      const char  *what)
{
  int saved_errno = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s: %s", what, g_strerror (saved_errno));
  return FALSE;
}

/* Every live descendant of @root (not @root itself), parents before
 * children; NULL with @error set where /proc cannot be read (out of
 * descriptors, say), never an empty list that would stop nothing. */
GArray *
paddock_process_tree_list (pid_t    root,
                           GError **error)
{
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr(GArray) parents = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr(GArray) result = g_array_new (FALSE, FALSE, sizeof (pid_t));
  paddock_autofd int proc_fd = -1;
  DIR *dir;
  struct dirent *entry;
  gboolean grew = TRUE;
  g_autoptr(GHashTable) in_tree = g_hash_table_new (NULL, NULL);

  proc_fd = open ("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc_fd < 0)
    {
      set_error_from_errno (error, "cannot open /proc");
      return NULL;
    }
  {
    int dir_fd = fcntl (proc_fd, F_DUPFD_CLOEXEC, 0);

    dir = dir_fd >= 0 ? fdopendir (dir_fd) : NULL;
    if (dir == NULL)
      {
        set_error_from_errno (error, "cannot read /proc");
        if (dir_fd >= 0)
          close (dir_fd);
        return NULL;
      }
  }
  while ((entry = readdir (dir)) != NULL)
    {
      char *end;
      long pid = strtol (entry->d_name, &end, 10);
      pid_t p, pp;

      if (*end != '\0' || pid <= 0)
        continue;
      p = (pid_t) pid;
      pp = read_ppid (proc_fd, p);
      if (pp <= 0)
        continue;
      g_array_append_val (pids, p);
      g_array_append_val (parents, pp);
    }
  closedir (dir);

  g_hash_table_add (in_tree, GINT_TO_POINTER (root));
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < pids->len; i++)
        {
          pid_t p = g_array_index (pids, pid_t, i);
          pid_t pp = g_array_index (parents, pid_t, i);

          if (!g_hash_table_contains (in_tree, GINT_TO_POINTER (p)) &&
              g_hash_table_contains (in_tree, GINT_TO_POINTER (pp)))
            {
              g_hash_table_add (in_tree, GINT_TO_POINTER (p));
              g_array_append_val (result, p);
              grew = TRUE;
            }
        }
    }
  return g_steal_pointer (&result);
}

/* Whether @pid is @root's descendant. FALSE with @error set where that
 * cannot be told, never a plain FALSE: /proc cannot be opened (out of
 * descriptors, say), a process on the way up cannot be read for another
 * reason than that it is gone, or @pid itself is gone. An ancestor that
 * ends during the walk leaves @pid with a new parent (a subreaper, @root
 * where that is one), so the walk starts again. */
gboolean
paddock_process_tree_is_descendant (pid_t    root,
                                    pid_t    pid,
                                    GError **error)
{
  paddock_autofd int proc_fd = open ("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int saved_errno;

  if (proc_fd < 0)
    return set_error_from_errno (error, "cannot open /proc");
  for (guint attempt = 0; attempt < 8; attempt++)
    {
      pid_t at = pid;
      gboolean gone = FALSE;

      /* Walk up: bounded, since a pid's ancestry is short and ends at 1. */
      for (guint depth = 0; at > 1 && depth < 4096 && !gone; depth++)
        {
          pid_t parent = 0;

          errno = 0;
          if (!paddock_proc_read_stat (proc_fd, at, NULL, &parent))
            {
              saved_errno = errno != 0 ? errno : EIO;
              if (saved_errno != ENOENT && saved_errno != ESRCH)
                {
                  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                               "cannot read process %d: %s", (int) at, g_strerror (saved_errno));
                  return FALSE;
                }
              gone = TRUE;
            }
          else if (parent == root)
            return TRUE;
          at = parent;
        }
      if (!gone)
        return FALSE;
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "process %d, or a parent of it, ended while it was looked at",
               (int) pid);
  return FALSE;
}

/* Whether @pid waits where a stop cannot reach it, and does not run
 * meanwhile: held in a seccomp notification (an exec, an ask waiting for
 * its answer), or a vfork()'s parent waiting for its child to exec or
 * exit (dash starts programs so: the parent of an ask waits with it). It
 * stops on its way out. Where the kernel does not say (wchan may read
 * "0"), FALSE. */
static gboolean
waits_beyond_stop (int   proc_fd,
                   pid_t pid)
{
  char wchan[64];

  if (!paddock_proc_read_start (proc_fd, pid, "wchan", wchan, sizeof wchan))
    return FALSE;
  return g_str_has_prefix (wchan, "seccomp_do_user_notification") ||
         strcmp (wchan, "kernel_clone") == 0 || strcmp (wchan, "_do_fork") == 0 || strcmp (wchan, "do_fork") == 0;
}

/* SIGSTOP takes effect when the target next runs; wait (a bounded while)
 * until it has, so "paused" means stopped. A process that waits beyond a
 * stop's reach (see waits_beyond_stop()) stays put without stopping: it
 * is not waited for (a pause with an ask pending took the whole half
 * second). */
static void
wait_until_stopped (GHashTable *pids)
{
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  paddock_autofd int proc_fd = open ("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, pids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      for (;;)
        {
          char state = 0;

          if (!paddock_proc_read_stat (proc_fd, GPOINTER_TO_INT (key), &state, NULL) || state == 'T' || state == 't' || state == 'Z' || state == 'X' ||
              waits_beyond_stop (proc_fd, GPOINTER_TO_INT (key)) || g_get_monotonic_time () >= deadline)
            break;
          g_usleep (1000);
        }
    }
}

/* Stops the whole tree. FALSE with @error set where a pass could not
 * list it: what was found is stopped, but more may run. */
gboolean
paddock_process_tree_freeze (pid_t    root,
                             GError **error)
{
  g_autoptr(GHashTable) stopped = g_hash_table_new (NULL, NULL);
  gboolean found_new = TRUE;
  gboolean listed = TRUE;

  for (guint pass = 0; found_new && pass < 1000; pass++)
    {
      g_autoptr(GArray) pids = paddock_process_tree_list (root, error);

      found_new = FALSE;
      if (pids == NULL)
        {
          listed = FALSE;
          break;
        }
      for (guint i = 0; i < pids->len; i++)
        {
          pid_t p = g_array_index (pids, pid_t, i);

          if (g_hash_table_contains (stopped, GINT_TO_POINTER (p)))
            continue;
          if (kill (p, SIGSTOP) == 0)
            {
              g_hash_table_add (stopped, GINT_TO_POINTER (p));
              found_new = TRUE;
            }
        }
    }
  wait_until_stopped (stopped);
  return listed;
}

gboolean
paddock_process_tree_thaw (pid_t    root,
                           GError **error)
{
  g_autoptr(GArray) pids = paddock_process_tree_list (root, error);

  if (pids == NULL)
    return FALSE;
  for (guint i = 0; i < pids->len; i++)
    kill (g_array_index (pids, pid_t, i), SIGCONT);
  return TRUE;
}

/* Freezes, then kills every descendant of @root. FALSE with @error set
 * where the tree could not be listed: what was found is killed, but more
 * may run. */
gboolean
paddock_process_tree_kill (pid_t    root,
                           GError **error)
{
  g_autoptr(GArray) pids = NULL;
  siginfo_t info = { 0 };
  gboolean frozen;

  /* Our own tree is empty when we have no child: skip the walks of /proc. */
  if (root == getpid () &&
      waitid (P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT | __WALL) != 0 &&
      errno == ECHILD)
    return TRUE;

  /* Where the freeze fell short, still kill all that a list finds. */
  frozen = paddock_process_tree_freeze (root, error);
  pids = paddock_process_tree_list (root, frozen ? error : NULL);
  if (pids == NULL)
    return FALSE;
  for (guint i = 0; i < pids->len; i++)
    kill (g_array_index (pids, pid_t, i), SIGKILL);
  return frozen;
}

/* Our own children, as the kernel lists them, opened while descriptors
 * were to be had: an open-file limit lowered later (by another process of
 * the user's) keeps /proc shut, and the sweep above with it. */
static int held_children_fd = -1;

void
paddock_process_tree_hold_children (void)
{
  char path[64];

  if (held_children_fd >= 0)
    return;
  g_snprintf (path, sizeof path, "/proc/self/task/%d/children", (int) gettid ());
  held_children_fd = open (path, O_RDONLY | O_CLOEXEC);
}

/* Kills our children, waits for them, and again, until none is left:
 * as a child subreaper we inherit what each leaves behind, setsid() ones
 * included, so this ends the whole tree without opening anything. Only
 * children of the main thread show (those reparented to us are). TRUE when
 * none is left. */
gboolean
paddock_process_tree_kill_children (void)
{
  if (held_children_fd < 0)
    return FALSE;
  for (guint round = 0; round < 100000; round++)
    {
      g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
      g_autoptr(GString) text = g_string_new (NULL);
      char buf[4096];
      off_t offset = 0;
      ssize_t n;
      char *p;

      while ((n = pread (held_children_fd, buf, sizeof buf, offset)) > 0)
        {
          g_string_append_len (text, buf, n);
          offset += n;
        }
      if (n < 0)
        return FALSE;
      for (p = text->str; *p != '\0';)
        {
          char *end;
          long pid = strtol (p, &end, 10);

          if (end == p)
            break;
          if (pid > 0)
            {
              pid_t child = (pid_t) pid;
              g_array_append_val (pids, child);
            }
          p = end;
        }
      if (pids->len == 0)
        return TRUE;
      for (guint i = 0; i < pids->len; i++)
        kill (g_array_index (pids, pid_t, i), SIGKILL);
      for (guint i = 0; i < pids->len; i++)
        while (waitpid (g_array_index (pids, pid_t, i), NULL, __WALL) < 0 && errno == EINTR)
          ;
    }
  return FALSE;
}
