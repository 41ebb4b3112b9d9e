/* paddock-project-config.h: a project's saved lock choice and grants, kept outside the project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean   has_lock;  /* FALSE: no choice saved */
  gboolean   lock;
  char     **grants;    /* "PATH[:ro|rw]", or NULL */
  char     **denials;   /* "deny": absolute or "~/" paths kept from the agent, or NULL */
  gboolean   git_config_writable;  /* "git-config": "writable"; else read-only under the lock */
  char     **home_open;   /* "home"."open": absolute or "~/" paths the agent reads unasked, or NULL */
  char     **home_closed; /* "home"."closed": absolute or "~/" paths kept from it, or NULL */
  char     **hosts_allow; /* "hosts"."allow": host patterns the network lock lets through, or NULL */
  char     **hosts_deny;  /* "hosts"."deny": host patterns it refuses, or NULL */
  gboolean   has_network;   /* FALSE: no network choice saved */
  gboolean   network_locked; /* "network": "locked" (TRUE) or "open" */
} PaddockProjectConfig;

char     *paddock_project_config_path      (const char           *project);
gboolean  paddock_project_config_load      (const char           *project,
                                            PaddockProjectConfig *config,
                                            GError              **error);
/* Reads settings from @data (@length bytes); @source names them in errors. */
gboolean  paddock_project_config_parse     (const char           *project,
                                            const char           *source,
                                            const char           *data,
                                            gsize                 length,
                                            PaddockProjectConfig *config,
                                            GError              **error);
gboolean  paddock_project_config_save_lock (const char           *project,
                                            gboolean              lock,
                                            GError              **error);
/* Saves the network lock's choice for @project ("network"). */
gboolean  paddock_project_config_save_network (const char        *project,
                                               gboolean           locked,
                                               GError           **error);
/* Saves whether the locked agent may change @project's git config. */
gboolean  paddock_project_config_save_git_config (const char     *project,
                                                  gboolean        writable,
                                                  GError        **error);
/* Adds @path ("~/" or absolute) to "home"."open" in @project's settings,
 * keeping everything else in them; a path already there is left. Settings
 * that do not read, or whose "home" is not as it should be, are left as
 * they are, and the call fails. */
gboolean  paddock_project_config_add_home_open (const char       *project,
                                                const char       *path,
                                                GError          **error);
/* Adds the host pattern @host ("example.org", "*.example.org", with an
 * optional ":PORT") to "hosts"."allow" in @project's settings, keeping
 * everything else, as paddock_project_config_add_home_open() does. */
/* Puts @host (a host pattern, kept in lower case) in @project's "hosts"
 * list @list ("allow" or "deny"), taking it out of the other; with @list
 * NULL, out of both. Keeps everything else in the settings; settings that
 * do not read, or whose "hosts" is not as it should be, are left as they
 * are and the call fails. */
gboolean  paddock_project_config_set_host     (const char       *project,
                                                const char       *host,
                                                const char       *list,
                                                GError          **error);
gboolean  paddock_project_config_add_host_allow (const char      *project,
                                                 const char      *host,
                                                 GError         **error);
/* Whether @pattern reads as a host pattern of the network lock. */
gboolean  paddock_project_config_host_pattern_is_valid (const char *pattern);
void      paddock_project_config_clear     (PaddockProjectConfig *config);

G_END_DECLS
