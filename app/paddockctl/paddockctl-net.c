/* paddockctl-net.c: paddockctl net: a project's saved network-lock choice and host lists
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-escape.h"
#include "paddock-project-net.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* @dir made canonical, as paddock-run looks the settings up; NULL (said)
 * where it names no folder. */
static char *
project_folder (const char *dir)
{
  g_autofree char *project = NULL;
  struct stat st;

  if (dir[0] == '\0')
    {
      usage ("net: DIR names no folder");
      return NULL;
    }
  project = realpath (dir, NULL);
  if (project == NULL)
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (errno));
      return NULL;
    }
  if (stat (project, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      paddock_printerr ("the project \"%s\": %s", dir, g_strerror (ENOTDIR));
      return NULL;
    }
  return g_steal_pointer (&project);
}

static int
net_list (const char *project,
          const char *shown)
{
  g_autoptr(GError) error = NULL;
  PaddockProjectNet net = { 0 };

  if (!paddock_project_net_load (project, &net, &error))
    {
      paddock_printerr ("cannot read the project's settings: %s", error->message);
      return 1;
    }
  g_print ("project: %s\nnetwork: %s\n", shown,
           !net.has_network ? "open (nothing saved: the default)" : net.locked ? "locked (saved)" : "open (saved)");
  for (guint i = 0; net.allow[i] != NULL; i++)
    g_print ("allow: %s\n", net.allow[i]);
  for (guint i = 0; net.deny[i] != NULL; i++)
    g_print ("deny: %s\n", net.deny[i]);
  paddock_project_net_clear (&net);
  return 0;
}

static int
net_set (const char *project,
         const char *shown,
         gboolean    locked)
{
  g_autoptr(GError) error = NULL;
  PaddockProjectNet net = { 0 };
  gboolean was_locked;

  /* A settings file that does not parse is never overwritten: it may hold grants. */
  if (!paddock_project_net_load (project, &net, &error))
    {
      paddock_printerr ("cannot read the project's settings: %s", error->message);
      return 1;
    }
  was_locked = net.locked;
  paddock_project_net_clear (&net);
  if (!paddock_project_net_save_locked (project, locked, &error))
    {
      paddock_printerr ("cannot save the network lock of %s: %s", shown, error->message);
      return 1;
    }
  if (locked == was_locked)
    g_print ("The network lock of %s stays %s. ", shown, locked ? "on" : "off");
  else
    g_print ("The network lock of %s is now %s (it was %s). ", shown, locked ? "on" : "off",
             was_locked ? "on" : "off");
  g_print ("This applies to sessions started from now on: a running session keeps the network it "
           "started with.\n");
  return 0;
}

static int
net_host (const char *project,
          const char *shown,
          const char *verb,
          const char *host)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *shown_host = display (host);
  gboolean done;

  if (strcmp (verb, "remove") != 0 && !paddock_project_net_pattern_valid (host))
    {
      g_autofree char *message = g_strdup_printf ("net %s: \"%s\" is not a host name "
                                                  "(example.org, *.example.org, example.org:443)",
                                                  verb, shown_host);
      return usage (message);
    }
  if (strcmp (verb, "remove") == 0)
    done = paddock_project_net_remove_host (project, host, &error);
  else
    done = paddock_project_net_add_host (project, verb, host, &error);
  if (!done)
    {
      paddock_printerr ("cannot save the hosts of %s: %s", shown, error->message);
      return 1;
    }
  if (strcmp (verb, "allow") == 0)
    g_print ("Under the network lock, the agent in %s now reaches %s without asking.\n", shown, shown_host);
  else if (strcmp (verb, "deny") == 0)
    g_print ("Under the network lock, the agent in %s is now refused %s without asking.\n", shown, shown_host);
  else
    g_print ("%s is in neither list of %s now: the agent is asked about it.\n", shown_host, shown);
  return 0;
}

/* paddockctl net on|off|list [DIR], net allow|deny|remove HOST [DIR]. */
int
paddockctl_builtin_net (int    argc,
                        char **argv)
{
  g_autofree char *project = NULL;
  g_autofree char *shown = NULL;
  const char *verb;
  gboolean takes_host;
  int n_args;

  if (argc < 2)
    return usage ("net takes on, off, list, allow, deny or remove");
  verb = argv[1];
  takes_host = strcmp (verb, "allow") == 0 || strcmp (verb, "deny") == 0 || strcmp (verb, "remove") == 0;
  if (!takes_host && strcmp (verb, "on") != 0 && strcmp (verb, "off") != 0 && strcmp (verb, "list") != 0)
    return usage ("net takes on, off, list, allow, deny or remove");
  n_args = takes_host ? 3 : 2;
  if (takes_host && argc < 3)
    return usage ("net allow, deny and remove take a HOST");
  if (argc > n_args + 1)
    return usage ("net takes at most one DIR");

  project = project_folder (argc == n_args + 1 ? argv[n_args] : ".");
  if (project == NULL)
    return EXIT_USAGE;
  /* The folder's name may be anything, this one's too (an agent's clone). */
  shown = paddock_escape_controls (project);

  if (strcmp (verb, "list") == 0)
    return net_list (project, shown);
  if (!takes_host)
    return net_set (project, shown, strcmp (verb, "on") == 0);
  return net_host (project, shown, verb, argv[2]);
}
