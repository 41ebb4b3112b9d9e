/* paddock-limits.c: paddock-run under limits another process set on it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * poll(2) refuses more descriptors than the open-file limit with EINVAL,
 * whatever they are. Past that limit the main loop's descriptors are
 * polled a share at a time without waiting, and between rounds the loop
 * sleeps at most POLL_TURN_MS: a session that ends still ends, signals
 * (through the signal descriptor) still arrive, at about ten wake-ups a
 * second. The file-size limit needs nothing here: SIGXFSZ is ignored and
 * the audit log's writer reports what it could not write.
 */
#include "config.h"

#include "paddock-escape.h"
#include "paddock-limits.h"

#include <errno.h>
#include <poll.h>
#include <sys/resource.h>

#define POLL_TURN_MS 100

static gboolean said_limited;

/* Raises the soft open-file limit back to the hard one, when someone
 * lowered only the soft: TRUE when it is there now. */
gboolean
paddock_limits_restore_nofile (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0)
    return FALSE;
  if (limit.rlim_cur >= limit.rlim_max)
    return TRUE;
  limit.rlim_cur = limit.rlim_max;
  return setrlimit (RLIMIT_NOFILE, &limit) == 0;
}

static gint
poll_in_turns (GPollFD *fds,
               guint    nfds,
               gint     timeout)
{
  struct pollfd *pfds = (struct pollfd *) fds;
  struct rlimit limit;
  guint share;
  int ready = 0;

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == 0)
    share = 0;
  else
    share = limit.rlim_cur < nfds ? (guint) limit.rlim_cur : nfds;

  if (!said_limited)
    {
      said_limited = TRUE;
      paddock_printerr ("warning: its open-file limit was lowered to %lu, below the %u "
                        "descriptors it watches: it looks at them in turns from now on%s",
                        (unsigned long) limit.rlim_cur, nfds,
                        share == 0 ? ", and with a limit of 0 cannot look at them at all" : "");
    }

  for (guint i = 0; i < nfds; i++)
    pfds[i].revents = 0;
  for (guint start = 0; share > 0 && start < nfds; start += share)
    {
      guint n = MIN (share, nfds - start);
      int got = poll (pfds + start, n, 0);

      if (got > 0)
        ready += got;
    }
  if (ready == 0 && timeout != 0)
    {
      poll (NULL, 0, timeout < 0 || timeout > POLL_TURN_MS ? POLL_TURN_MS : timeout);
      return 0;
    }
  return ready;
}

static gint
poll_within_limits (GPollFD *fds,
                    guint    nfds,
                    gint     timeout)
{
  gint ret = g_poll (fds, nfds, timeout);

  if (ret >= 0 || errno != EINVAL)
    return ret;
  /* Too many for the limit: raised back where that can be done, else in turns. */
  if (paddock_limits_restore_nofile ())
    {
      ret = g_poll (fds, nfds, timeout);
      if (ret >= 0 || errno != EINVAL)
        return ret;
    }
  return poll_in_turns (fds, nfds, timeout);
}

void
paddock_limits_watch_poll (GMainContext *context)
{
  g_main_context_set_poll_func (context, poll_within_limits);
}
