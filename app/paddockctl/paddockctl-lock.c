/* paddockctl-lock.c: paddockctl lock and net: a project's saved folder-lock and network-lock choices
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-escape.h"
#include "paddock-lock.h"
#include "paddock-project-config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The project's saved folder-lock choice, and where it comes from. */
static const char *
describe_choice (const PaddockProjectConfig *config)
{
  if (!config->has_lock)
    return "off (nothing saved: the default)";
  return config->lock ? "on (saved)" : "off (saved)";
}

/* paddockctl lock git-config on|off [DIR]: whether the locked agent may
 * change the project's git config (see paddock-lock-git.h). */
static int
cmd_lock_git_config (int    argc,
                     char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  g_autofree char *shown = NULL;
  PaddockProjectConfig config = { 0 };
  const char *dir;
  gboolean on;

  if (argc < 3 || argc > 4 || (strcmp (argv[2], "on") != 0 && strcmp (argv[2], "off") != 0))
    return usage ("lock git-config takes on or off, and at most one DIR");
  on = strcmp (argv[2], "on") == 0;
  dir = argc == 4 ? argv[3] : ".";
  project = dir[0] != '\0' ? realpath (dir, NULL) : NULL;
  if (project == NULL)
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (dir[0] != '\0' ? errno : ENOENT));
      return EXIT_USAGE;
    }
  shown = paddock_escape_controls (project);
  if (!paddock_project_config_load (project, &config, &error))
    {
      paddock_printerr ("cannot read the project's settings: %s", error->message);
      return 1;
    }
  paddock_project_config_clear (&config);
  if (!paddock_project_config_save_git_config (project, on, &error))
    {
      paddock_printerr ("cannot save the git config choice of %s: %s", shown, error->message);
      return 1;
    }
  g_print ("Under the folder lock, the git config of %s is now %s for sessions started from now on.\n",
           shown, on ? "writable by the agent" : "read-only");
  return 0;
}

int
paddockctl_builtin_lock (int    argc,
                         char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project = NULL;
  g_autofree char *shown = NULL;
  PaddockProjectConfig config = { 0 };
  const char *verb;
  const char *dir;
  gboolean was_on;
  gboolean on;
  struct stat st;

  if (argc >= 2 && strcmp (argv[1], "git-config") == 0)
    return cmd_lock_git_config (argc, argv);
  if (argc < 2 || argc > 3)
    return usage ("lock takes on, off, status or git-config, and at most one DIR");
  verb = argv[1];
  if (strcmp (verb, "on") != 0 && strcmp (verb, "off") != 0 && strcmp (verb, "status") != 0)
    return usage ("lock takes on, off or status");

  /* The choice is saved under the canonical path, as paddock-run looks it up. */
  dir = argc == 3 ? argv[2] : ".";
  if (dir[0] == '\0')
    return usage ("lock: DIR names no folder");
  project = realpath (dir, NULL);
  if (project == NULL)
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (errno));
      return EXIT_USAGE;
    }
  if (stat (project, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (ENOTDIR));
      return EXIT_USAGE;
    }
  /* The folder's name may be anything, this one's too (an agent's clone). */
  shown = paddock_escape_controls (project);

  /* A settings file that does not parse is never overwritten: it may hold grants. */
  if (!paddock_project_config_load (project, &config, &error))
    {
      paddock_printerr ("cannot read the project's settings: %s", error->message);
      if (strcmp (verb, "status") == 0)
        {
          g_print ("project: %s\nlock: unknown (the settings do not parse)\n", shown);
          fflush (stdout);
          paddock_lock_print_status (stdout, NULL, project);
        }
      return 1;
    }

  if (strcmp (verb, "status") == 0)
    {
      g_print ("project: %s\nlock: %s\n", shown, describe_choice (&config));
      paddock_project_config_clear (&config);
      fflush (stdout);
      /* What this kernel offers, in paddock-run --lock-status's own words. */
      paddock_lock_print_status (stdout, NULL, project);
      return 0;
    }

  was_on = config.has_lock && config.lock;
  paddock_project_config_clear (&config);
  on = strcmp (verb, "on") == 0;
  if (on && !paddock_lock_check_project (project, NULL, &error))
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  if (!paddock_project_config_save_lock (project, on, &error))
    {
      paddock_printerr ("cannot save the folder lock of %s: %s", shown, error->message);
      return 1;
    }

  if (on == was_on)
    g_print ("The folder lock of %s stays %s. ", shown, on ? "on" : "off");
  else
    g_print ("The folder lock of %s is now %s (it was %s). ", shown, on ? "on" : "off", was_on ? "on" : "off");
  g_print ("This applies to sessions started from now on: a running session keeps the lock it started "
           "with, which cannot be %s while it runs.\n", on ? "added" : "lifted");
  return 0;
}
