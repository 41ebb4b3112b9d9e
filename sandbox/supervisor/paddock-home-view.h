/* paddock-home-view.h: the home folder's asked entries, served to the locked agent once allowed
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Landlock cannot ask, so the entries of the home folder the agent is
 * asked about (see sandbox/lock/paddock-home.h) reach it through a FUSE
 * file system the lock's child mounts in the agent's mount namespace and
 * hands over (its /dev/fuse descriptor); the supervisor serves it, reading
 * the real files on the agent's behalf, read-only. The first read of an
 * entry (looking up a name in it, listing it, opening it) is held and
 * asked through the session's ask registry; the entry's name and its
 * attributes are never asked about, so `ls ~` lists every entry. One ask
 * per entry: the answer holds for every file in it for the session, and
 * "Allow in This Project" also makes it open in the project's settings.
 * Every attempt the view refuses or asks about is a home message to the
 * clients and a "home" record in the audit log. A path the lock denies
 * within an entry is refused whatever the answer.
 *
 * Requests are read and answered on the view's own thread; asks are made
 * and answered on the main context, and the requests they held answered
 * from there. If the supervisor dies, the kernel ends the connection and
 * the agent's reads fail with ENOTCONN: they never hang.
 */
#pragma once

#include "paddock-asks.h"
#include "paddock-audit.h"
#include "paddock-protocol.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct _PaddockHomeView PaddockHomeView;

/* Called on the main context with each home message (borrowed). */
typedef void (*PaddockHomeViewFunc) (const PaddockMessage *message,
                                     gpointer              user_data);

typedef struct
{
  const char          *project;   /* where "Allow in This Project" is kept */
  const char * const  *entries;   /* the asked entries, canonical, the view's root's "N" the Nth */
  const char * const  *denials;   /* refused within them, canonical */
  const char * const  *bindable;  /* those that may be bound whole once allowed */
  PaddockAudit        *audit;     /* or NULL; borrowed for the view's life */
} PaddockHomeViewConfig;

/* Waits on @socket_fd (taken: the lock's end, see
 * paddock_lock_steal_view_socket()) for the lock's child to hand the
 * view over, in a thread of its own, and serves it from then on. Call
 * right after the fork. The config is copied. */
PaddockHomeView *paddock_home_view_new        (int                          socket_fd,
                                               const PaddockHomeViewConfig *config);
/* The agent's pid (its PID namespace's first process), for telling which
 * process read; the registry the view asks through (NULL: nobody to ask,
 * every asked entry is refused); where its messages go. Main context. */
void             paddock_home_view_set_agent  (PaddockHomeView             *self,
                                               pid_t                        agent_pid);
void             paddock_home_view_set_asks   (PaddockHomeView             *self,
                                               PaddockAsks                 *asks);
void             paddock_home_view_set_func   (PaddockHomeView             *self,
                                               PaddockHomeViewFunc          func,
                                               gpointer                     user_data);
/* Whether the lock's child handed the view over and it is served. */
gboolean         paddock_home_view_is_serving (PaddockHomeView             *self);
/* Stops serving (held requests are refused) and joins the thread. */
void             paddock_home_view_free       (PaddockHomeView             *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockHomeView, paddock_home_view_free)

G_END_DECLS
