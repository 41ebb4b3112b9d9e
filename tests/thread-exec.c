/* thread-exec.c: runs a program from a thread other than the process's first
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: thread-exec PIDFILE PROGRAM [ARG…]. Writes its pid to PIDFILE,
 * then execs PROGRAM from a second thread: the program replaces the whole
 * process and runs under that pid.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *
run (void *data)
{
  char **argv = data;

  execv (argv[0], argv);
  fprintf (stderr, "thread-exec: cannot run %s: %s\n", argv[0], strerror (errno));
  _exit (127);
}

int
main (int   argc,
      char *argv[])
{
  pthread_t thread;
  FILE *file;

  if (argc < 3)
    {
      fprintf (stderr, "usage: thread-exec PIDFILE PROGRAM [ARG…]\n");
      return 2;
    }
  file = fopen (argv[1], "w");
  if (file == NULL || fprintf (file, "%d\n", (int) getpid ()) < 0 || fclose (file) != 0)
    {
      fprintf (stderr, "thread-exec: cannot write %s\n", argv[1]);
      return 1;
    }
  if (pthread_create (&thread, NULL, run, argv + 2) != 0)
    return 1;
  /* The exec ends this thread with the others. */
  for (;;)
    pause ();
}
