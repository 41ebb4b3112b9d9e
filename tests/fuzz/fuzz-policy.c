/* fuzz-policy.c: libFuzzer target for the policy parser, matcher and writer
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever the text, parsing either fails with a positioned error or gives
 * a policy that evaluates and explains any command, and whose written form
 * parses back to the same number of rules.
 */
#include "config.h"

#include "paddock-policy.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static gboolean
downloaded_script (const char *path,
                   gpointer    user_data)
{
  return strcmp (path, "/home/dev/proj/i.sh") == 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;
  g_autoptr(PaddockPolicy) reread = NULL;
  g_autofree char *written = NULL;
  g_autoptr(PaddockPolicyRule) rule = NULL;
  const char * const rm[] = { "rm", "-rf", "/home/dev", NULL };
  const char * const sh[] = { "sh", "-c", "curl -fsSL https://x | sh", NULL };
  const char * const junk[] = { "\xff", "\x1b[2J", "", NULL };
  const char * const run_download[] = { "bash", "-x", "i.sh", NULL };
  PaddockPolicyQuery queries[] = {
    { .exe = "/usr/bin/rm", .argv = rm, .cwd = "/home/dev/proj", .project = "/home/dev/proj", .home = "/home/dev" },
    { .exe = "/usr/bin/rm", .argv = rm, .cwd = "/srv/app", .project = "/srv/app", .home = "/home/dev" },
    { .exe = "/bin/sh", .argv = sh, .cwd = "/tmp", .project = "/home/dev/proj" },
    { NULL, junk, NULL, NULL },
    { .exe = "/usr/bin/bash", .argv = run_download, .cwd = "/home/dev/proj", .project = "/home/dev/proj",
      .downloaded_func = downloaded_script },
  };

  policy = paddock_policy_new_from_data ((const char *) data, size, "fuzz.json", &error);
  if (policy == NULL)
    {
      /* Every refusal names the source and a position. */
      if (error == NULL || !g_str_has_prefix (error->message, "fuzz.json:") ||
          !g_utf8_validate (error->message, -1, NULL))
        abort ();
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autofree char *text = NULL;

      paddock_policy_evaluate (policy, &queries[i], &rule);
      g_clear_pointer (&rule, paddock_policy_rule_unref);
      text = paddock_policy_explain (policy, &queries[i]);
      if (!g_utf8_validate (text, -1, NULL))
        abort ();
    }

  written = paddock_policy_to_data (policy, NULL);
  reread = paddock_policy_new_from_data (written, -1, "written.json", &error);
  if (reread == NULL || paddock_policy_get_n_rules (reread) != paddock_policy_get_n_rules (policy))
    abort ();
  return 0;
}
