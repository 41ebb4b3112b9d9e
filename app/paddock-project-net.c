/* paddock-project-net.c: a project's saved network-lock choice and host lists
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's and paddockctl's words for what paddock-project-config
 * reads and writes: the one schema of a project's settings.
 */
#include "config.h"

#include "paddock-project-config.h"
#include "paddock-project-net.h"

#include <string.h>

gboolean
paddock_project_net_pattern_valid (const char *pattern)
{
  g_autofree char *name = NULL;

  if (pattern == NULL)
    return FALSE;
  /* Names are kept in lower case, and taken in any. */
  name = g_ascii_strdown (pattern, -1);
  return paddock_project_config_host_pattern_is_valid (name);
}

gboolean
paddock_project_net_load (const char         *project,
                          PaddockProjectNet  *net,
                          GError            **error)
{
  PaddockProjectConfig config = { 0 };
  char *none[] = { NULL };

  memset (net, 0, sizeof *net);
  if (!paddock_project_config_load (project, &config, error))
    return FALSE;
  net->has_network = config.has_network;
  net->locked = config.has_network && config.network_locked;
  net->allow = g_strdupv (config.hosts_allow != NULL ? config.hosts_allow : none);
  net->deny = g_strdupv (config.hosts_deny != NULL ? config.hosts_deny : none);
  paddock_project_config_clear (&config);
  return TRUE;
}

void
paddock_project_net_clear (PaddockProjectNet *net)
{
  g_clear_pointer (&net->allow, g_strfreev);
  g_clear_pointer (&net->deny, g_strfreev);
}

gboolean
paddock_project_net_save_locked (const char  *project,
                                 gboolean     locked,
                                 GError     **error)
{
  return paddock_project_config_save_network (project, locked, error);
}

gboolean
paddock_project_net_add_host (const char  *project,
                              const char  *list,
                              const char  *pattern,
                              GError     **error)
{
  return paddock_project_config_set_host (project, pattern, list, error);
}

gboolean
paddock_project_net_remove_host (const char  *project,
                                 const char  *pattern,
                                 GError     **error)
{
  return paddock_project_config_set_host (project, pattern, NULL, error);
}
