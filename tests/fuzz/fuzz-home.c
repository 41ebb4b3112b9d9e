/* fuzz-home.c: libFuzzer target for home.conf, the rules of the home folder's kinds
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is read as the user's home.conf, over the shipped rules. A
 * refusal names the source (and, for a line, its number) in valid UTF-8;
 * what is read lists each kind sorted, every listed path in the home
 * folder of the kind it is listed as, a split folder's "/" standing for
 * its entries; reading must never crash, leak or warn.
 */
#include "config.h"

#include "paddock-home.h"
#include "paddock-path.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

#define HOME "/home/dev"

static void
check_list (PaddockHome     *lists,
            PaddockHomeKind  kind)
{
  g_auto(GStrv) list = paddock_home_list (lists, kind);

  for (guint i = 0; list[i] != NULL; i++)
    {
      if (list[i][0] != '/' || !g_utf8_validate (list[i], -1, NULL) ||
          (i > 0 && strcmp (list[i - 1], list[i]) >= 0))
        abort ();
      if (g_str_has_suffix (list[i], "/") && kind != PADDOCK_HOME_CLOSED)
        {
          g_autofree char *folder = g_strndup (list[i], strlen (list[i]) - 1);

          if (!paddock_home_is_split (lists, folder) || paddock_home_classify (lists, folder) != PADDOCK_HOME_OPEN)
            abort ();
        }
      else if (paddock_path_is_within (list[i], HOME))
        {
          g_autofree char *entry = paddock_home_find_entry (lists, list[i]);

          if (paddock_home_classify (lists, list[i]) != kind)
            abort ();
          if (!paddock_home_is_split (lists, list[i]) &&
              (entry == NULL || !paddock_path_is_within (list[i], entry)))
            abort ();
        }
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockHome) lists = paddock_home_new_for_text (HOME, "fuzz.conf", (const char *) data, size, &error);

  if (lists == NULL)
    {
      if (error == NULL || !g_str_has_prefix (error->message, "fuzz.conf:") ||
          !g_utf8_validate (error->message, -1, NULL))
        abort ();
      return 0;
    }
  if (error != NULL || strcmp (paddock_home_get_path (lists), HOME) != 0)
    abort ();
  check_list (lists, PADDOCK_HOME_OPEN);
  check_list (lists, PADDOCK_HOME_ASKED);
  check_list (lists, PADDOCK_HOME_CLOSED);
  return 0;
}
