/* paddock-source.h: removing a GSource one holds a reference to
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Detaches *@source from its context, drops our reference to it and sets
 * it to NULL; nothing when it is NULL already. */
static inline void
paddock_clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}
