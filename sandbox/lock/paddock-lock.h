/* paddock-lock.h: the folder lock, as one thing to prepare in the parent and enter in the child
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-home.h"

#include <glib.h>
#include <stdio.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define PADDOCK_LOCK_ERROR (paddock_lock_error_quark ())

typedef enum
{
  PADDOCK_LOCK_ERROR_INVALID,      /* bad input: exit 2, nothing started */
  PADDOCK_LOCK_ERROR_UNAVAILABLE,  /* no mechanism works here */
  PADDOCK_LOCK_ERROR_FAILED,
} PaddockLockError;

typedef enum
{
  PADDOCK_LOCK_BACKEND_LANDLOCK,
  PADDOCK_LOCK_BACKEND_NAMESPACES,
} PaddockLockBackend;

typedef struct _PaddockLock PaddockLock;

/* What one session's lock is built from; every field is borrowed from the
 * caller for the length of paddock_lock_new(). */
typedef struct
{
  const char          *project;       /* absolute, canonical */
  const char * const  *command;       /* the agent's argv, for guessing its profile */
  const char * const  *grants;        /* "PATH[:ro|rw]", as given, or NULL */
  const char          *profile;       /* NULL: guessed from the command */
  const char          *backend;       /* NULL, "landlock" or "namespaces" */
  const char          *policy_file;   /* the session's own, kept from the agent; or NULL */
  const char          *audit_file;    /* likewise */
  gboolean             home_view;     /* the caller serves the home view (paddock-run's
                                       * supervisor): asked entries are asked about;
                                       * without it they are closed */
} PaddockLockOptions;

GQuark              paddock_lock_error_quark   (void);

/* Whether @project can be locked to: not /, nor a folder that holds the
 * home folder (the lock would leave what every login runs writable), nor
 * one that holds a folder the lock keeps from the agent, which is then
 * *@held_denial (a copy; unset otherwise) where that is not NULL. */
gboolean            paddock_lock_check_project (const char              *project,
                                                char                   **held_denial,
                                                GError                 **error);
PaddockLock        *paddock_lock_new           (const PaddockLockOptions *options,
                                                GError                 **error);
void                paddock_lock_free          (PaddockLock             *lock);
PaddockLockBackend  paddock_lock_get_backend   (PaddockLock             *lock);
/* "landlock" or "namespaces", as the protocol's "lock" names it. */
const char         *paddock_lock_get_mechanism (PaddockLock             *lock);
/* What it enforces, as paddock_lock_list_features() says. */
const char * const *paddock_lock_get_features  (PaddockLock             *lock);
GPtrArray          *paddock_lock_get_grants    (PaddockLock             *lock);
const char * const *paddock_lock_get_denials   (PaddockLock             *lock);
int                 paddock_lock_exit_code     (const GError            *error);
/* Where the agent will not find @path (as the user names it) because it
 * lies in a place the lock gives it an empty one of its own (/tmp, /run,
 * $XDG_RUNTIME_DIR, …): a sentence that says so and names the --grant
 * that keeps it; NULL where the agent sees it. */
char               *paddock_lock_describe_hidden (PaddockLock           *lock,
                                                  const char            *path);

pid_t               paddock_lock_fork          (PaddockLock             *lock);

/* The home folder under the lock (see paddock-home.h): its kinds; the
 * asked entries (canonical, NULL-terminated) the home view serves, its
 * root's "N" being the Nth; the paths it must refuse within them (the
 * lock's denials, canonical, NULL-terminated). All owned by @lock. */
PaddockHome        *paddock_lock_get_home      (PaddockLock             *lock);
const char * const *paddock_lock_get_view_entries (PaddockLock          *lock);
const char * const *paddock_lock_get_denials_for_view (PaddockLock      *lock);
/* Of the view's entries, those that may be bound whole once allowed (a
 * new NULL-terminated array): the lock grants their real folders too. */
char              **paddock_lock_list_view_bindable (PaddockLock        *lock);
/* The supervisor's end of the home view's socket (with home_view), which
 * the first child sends /dev/fuse over, or closes without; -1 otherwise. */
int                 paddock_lock_steal_view_socket (PaddockLock         *lock);
int                 paddock_lock_enter         (PaddockLock             *lock,
                                                int                      report_fd,
                                                int                      stopped_fd,
                                                int                     *step);
const char         *paddock_lock_step_name     (PaddockLock             *lock,
                                                int                      step);

/* What a lock started here (with @backend: NULL, "landlock" or
 * "namespaces") would enforce: in words, one "key: value" a line, for
 * paddock-run --lock-status; or as the features of the protocol's hello
 * and lock-status (see paddock-protocol.h), its mechanism in *@mechanism.
 * NULL and @error where no lock can start here. Both fork a child to try
 * namespaces: not for a thread of a program that has others. */
void                paddock_lock_print_status  (FILE                    *out,
                                                const char              *backend,
                                                const char              *project);
char              **paddock_lock_list_features (const char              *backend,
                                                char                   **mechanism,
                                                GError                 **error);

/* What a lock started here keeps from the agent: the built-in credential
 * stores and system secrets, the user's deny.conf and, with @project
 * (canonical; or NULL), its own "deny" list; as canonical paths.
 * paddock_lock_print_status() prints them too, a "denied:" line each. */
char              **paddock_lock_list_denials  (const char              *project);
/* The home folder's entries a lock started here lets the agent read
 * unasked (*@open) and asks about (*@asked), with @project's choices
 * (canonical; or NULL), as paddock_home_list() has them. FALSE where the
 * user's home.conf or the project's settings do not read.
 * paddock_lock_print_status() prints them too, "home-open:" and
 * "home-asked:" lines. */
gboolean            paddock_lock_list_home     (const char              *project,
                                                char                  ***open,
                                                char                  ***asked,
                                                GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockLock, paddock_lock_free)

G_END_DECLS
