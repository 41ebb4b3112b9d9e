/* fuzz-settings.c: libFuzzer target for a project's saved settings
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is read as the settings of one project. A refusal names the
 * source, in valid UTF-8; what is read is a choice or none, and grants
 * that are strings; reading must never crash, leak or warn.
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
          !g_utf8_validate (error->message, -1, NULL) || config.has_lock || config.grants != NULL)
        abort ();
      return 0;
    }
  if (error != NULL || (!config.has_lock && config.lock))
    abort ();
  for (guint i = 0; config.grants != NULL && config.grants[i] != NULL; i++)
    if (!g_utf8_validate (config.grants[i], -1, NULL))
      abort ();
  paddock_project_config_clear (&config);
  return 0;
}
