/* fuzz-settings.c: libFuzzer target for a project's saved settings
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is read as the settings of one project. A refusal names the
 * source, in valid UTF-8; what is read is a choice or none, grants
 * that are strings, and the "deny" and "home" paths absolute or under
 * ~/; reading must never crash, leak or warn.
 */
#include "config.h"

#include "paddock-project-config.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  PaddockProjectConfig config = { 0 };

  if (!paddock_project_config_parse ("/home/dev/proj", "fuzz.json", (const char *) data, size, &config, &error))
    {
      if (error == NULL || !g_str_has_prefix (error->message, "fuzz.json: ") ||
          !g_utf8_validate (error->message, -1, NULL) || config.has_lock || config.grants != NULL ||
          config.denials != NULL || config.home_open != NULL || config.home_closed != NULL)
        abort ();
      return 0;
    }
  if (error != NULL || (!config.has_lock && config.lock))
    abort ();
  for (guint i = 0; config.grants != NULL && config.grants[i] != NULL; i++)
    if (!g_utf8_validate (config.grants[i], -1, NULL))
      abort ();
  /* The home folder's paths are absolute or under ~/, as each "deny" path. */
  for (guint list = 0; list < 3; list++)
    {
      char **paths = list == 0 ? config.denials : list == 1 ? config.home_open : config.home_closed;

      for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
        if (!g_utf8_validate (paths[i], -1, NULL) || (paths[i][0] != '/' && !g_str_has_prefix (paths[i], "~/")))
          abort ();
    }
  paddock_project_config_clear (&config);
  return 0;
}
