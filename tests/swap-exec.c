/* swap-exec.c: execs one program while a thread swaps its path for another's
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: swap-exec TRIES ALLOWED DENIED RESULT. ALLOWED and DENIED are
 * paths of the same length: ALLOWED a program that exits 1 at once
 * (/usr/bin/false), DENIED one that runs on and exits 0 (/usr/bin/sleep,
 * given "60"). Each try forks a child whose second thread keeps writing
 * one path and then the other into the buffer the first thread passes to
 * execv(), so that what a supervisor reads may not be what the kernel
 * runs. Tries until TRIES, or until the denied program has been seen to
 * run 20 times, or once to end on its own (it got away). Writes to
 * RESULT, whole, "allowed A refused R caught C escaped E": the children
 * that ran ALLOWED, that could not exec, that were killed (SIGKILL),
 * and that ran DENIED to its end.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATH_MAX_BYTES 256

static char path[PATH_MAX_BYTES];
static const char *paths[2];

static void *
swap (void *data)
{
  for (unsigned i = 0;; i++)
    {
      const char *next = paths[i & 1];

      memcpy (path, next, strlen (next) + 1);
    }
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  unsigned allowed = 0, refused = 0, caught = 0, escaped = 0;
  char tmp[4096];
  FILE *file;
  int tries;

  if (argc != 5 || strlen (argv[2]) != strlen (argv[3]) || strlen (argv[2]) >= PATH_MAX_BYTES)
    {
      fprintf (stderr, "usage: swap-exec TRIES ALLOWED DENIED RESULT (paths of one length)\n");
      return 2;
    }
  tries = atoi (argv[1]);
  paths[0] = argv[2];
  paths[1] = argv[3];

  for (int i = 0; i < tries && caught < 20 && escaped == 0; i++)
    {
      pid_t pid = fork ();
      int status;

      if (pid < 0)
        return 1;
      if (pid == 0)
        {
          char *child_argv[] = { (char *) "swapped", (char *) "60", NULL };
          pthread_t thread;

          memcpy (path, argv[2], strlen (argv[2]) + 1);
          if (pthread_create (&thread, NULL, swap, NULL) != 0)
            _exit (3);
          execv (path, child_argv);
          _exit (127);
        }
      if (waitpid (pid, &status, 0) != pid)
        return 1;
      if (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL)
        caught++;
      else if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
        escaped++;
      else if (WIFEXITED (status) && WEXITSTATUS (status) == 1)
        allowed++;
      else
        refused++;
    }

  snprintf (tmp, sizeof tmp, "%s.tmp", argv[4]);
  file = fopen (tmp, "w");
  if (file == NULL ||
      fprintf (file, "allowed %u refused %u caught %u escaped %u\n", allowed, refused, caught, escaped) < 0 ||
      fclose (file) != 0 || rename (tmp, argv[4]) != 0)
    return 1;
  return 0;
}
