/* fuzz-match.c: libFuzzer target for the default policy's matcher and the
 * timeline's command line, fed command lines rather than policies
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is argv, its arguments separated by NUL bytes; the first is
 * also the executed path, run as itself and as a link to rm. Whatever the arguments, the default policy
 * decides and explains them, its explanation is valid UTF-8, and the line
 * a timeline shows for them is valid UTF-8 with no control character:
 * it goes to a terminal. What the loader or busybox would run of them is
 * a command line that ends, with a program. Read as a shell fed through a
 * pipe by their last argument, they are decided and explained too, and a
 * descriptor the script comes from is one there is. Read as curl and
 * as wget, the files they would save are absolute paths with no . or ..
 * in them, at most PADDOCK_DOWNLOAD_MAX_TARGETS; and with every file
 * counted as downloaded, the arguments are decided and explained again.
 */
#include "config.h"

#include "paddock-command-line.h"
#include "paddock-download.h"
#include "paddock-policy.h"
#include "paddock-protocol.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static gboolean
every_file_downloaded (const char *path,
                       gpointer    user_data)
{
  if (!g_path_is_absolute (path))
    abort ();
  return TRUE;
}

static void
check_download_targets (const char * const *argv,
                        const char         *program)
{
  gboolean to_stdout;
  g_autoptr(GPtrArray) targets = strcmp (program, "tee") == 0 ?
                                  paddock_download_tee_targets (argv, "/home/dev/proj/src") :
                                  paddock_download_targets (argv, program, "/home/dev/proj/src", &to_stdout);

  if (targets == NULL)
    return;
  if (targets->len == 0 || targets->len > PADDOCK_DOWNLOAD_MAX_TARGETS)
    abort ();
  for (guint i = 0; i < targets->len; i++)
    {
      const char *path = g_ptr_array_index (targets, i);

      if (!g_path_is_absolute (path) || strstr (path, "/./") != NULL || strstr (path, "/../") != NULL ||
          g_str_has_suffix (path, "/.") || g_str_has_suffix (path, "/..") || g_str_has_prefix (path, "/dev/"))
        abort ();
      /* A clone's folder: one final '/', never the root; it holds what is
       * in it, not itself. */
      if (g_str_has_suffix (path, "/"))
        {
          g_autofree char *inside = g_strconcat (path, "f", NULL);
          g_autofree char *itself = g_strndup (path, strlen (path) - 1);

          if (strcmp (path, "/") == 0 || g_str_has_suffix (path, "//") || !paddock_download_holds (path, inside) ||
              paddock_download_holds (path, itself))
            abort ();
        }
    }
}

/* An archive unpacked: from a file, absolute, or from standard input ("-"),
 * into a folder as a clone's is. */
static void
check_extract_folder (const char * const *argv,
                      const char         *program)
{
  g_autofree char *archive = NULL;
  g_autofree char *folder = paddock_download_extract_folder (argv, program, "/home/dev/proj/src", &archive);
  g_autofree char *inside = NULL;

  if (folder == NULL)
    {
      if (archive != NULL)
        abort ();
      return;
    }
  inside = g_strconcat (folder, "f", NULL);
  if (archive == NULL || (strcmp (archive, "-") != 0 && !g_path_is_absolute (archive)) ||
      g_str_has_suffix (archive, "/") ||
      !g_path_is_absolute (folder) || strcmp (folder, "/") == 0 || g_str_has_suffix (folder, "//") ||
      strstr (folder, "/../") != NULL || strstr (folder, "/./") != NULL || !paddock_download_holds (folder, inside))
    abort ();
}

static void
check_display_line (const char *line)
{
  if (!g_utf8_validate (line, -1, NULL))
    abort ();
  for (const char *p = line; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static PaddockPolicy *policy;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(PaddockPolicyRule) rule = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *why = NULL;
  g_autofree char *line = NULL;
  g_autofree char *memory_line = NULL;
  PaddockPolicyQuery query;
  size_t start = 0;

  if (policy == NULL)
    policy = paddock_policy_new_default ();

  for (size_t i = 0; i <= size; i++)
    if (i == size || data[i] == '\0')
      {
        g_ptr_array_add (argv, g_strndup ((const char *) data + start, i - start));
        start = i + 1;
      }
  g_ptr_array_add (argv, NULL);

  /* As the monitor would have it: an absolute path as it is, a name
   * found along PATH. */
  exe = g_path_is_absolute (argv->pdata[0]) ? g_strdup (argv->pdata[0])
                                            : g_build_filename ("/usr/bin", argv->pdata[0], NULL);
  query = (PaddockPolicyQuery) {
    .exe = exe,
    .argv = (const char * const *) argv->pdata,
    .cwd = "/home/dev/proj/src",
    .project = "/home/dev/proj",
    .home = "/home/dev",
  };
  paddock_policy_evaluate (policy, &query, &rule);
  why = paddock_policy_explain (policy, &query);
  if (!g_utf8_validate (why, -1, NULL))
    abort ();
  /* The same, run through a link to another program. */
  g_clear_pointer (&rule, paddock_policy_rule_unref);
  g_clear_pointer (&why, g_free);
  query.resolved = "/usr/bin/rm";
  paddock_policy_evaluate (policy, &query, &rule);
  why = paddock_policy_explain (policy, &query);
  if (!g_utf8_validate (why, -1, NULL))
    abort ();

  /* As a shell (or interpreter) that reads its script from a pipe, which
   * the last argument writes to. */
  {
    PaddockPolicyQuery piped = query;
    g_autoptr(PaddockPolicyRule) piped_rule = NULL;
    g_autofree char *piped_why = NULL;
    int fd;

    piped.resolved = "/usr/bin/bash";
    piped.stdin_from = argv->pdata[argv->len - 2];
    fd = paddock_policy_query_script_fd (&piped);
    if (fd < -1)
      abort ();
    paddock_policy_evaluate (policy, &piped, &piped_rule);
    piped_why = paddock_policy_explain (policy, &piped);
    if (!g_utf8_validate (piped_why, -1, NULL))
      abort ();
  }

  /* What the loader or a multi-call binary would run of the same
   * arguments, judged as the exec monitor judges it. */
  for (guint i = 0; i < 2; i++)
    {
      PaddockPolicyQuery as_launcher = query;
      PaddockPolicyQuery launched;
      g_autoptr(GPtrArray) inner = NULL;

      as_launcher.resolved = i == 0 ? "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" : "/usr/bin/busybox";
      inner = paddock_exec_launched_query (&as_launcher, &launched);
      if (inner == NULL)
        continue;
      if (launched.argv[inner->len - 1] != NULL || launched.exe == NULL || launched.exe[0] == '\0')
        abort ();
      paddock_policy_evaluate (policy, &launched, NULL);
    }

  check_download_targets ((const char * const *) argv->pdata, "curl");
  check_download_targets ((const char * const *) argv->pdata, "wget");
  check_download_targets ((const char * const *) argv->pdata, "git");
  check_download_targets ((const char * const *) argv->pdata, "gh");
  check_download_targets ((const char * const *) argv->pdata, "tee");
  check_extract_folder ((const char * const *) argv->pdata, "tar");
  check_extract_folder ((const char * const *) argv->pdata, "unzip");
  check_extract_folder ((const char * const *) argv->pdata, "7z");
  {
    PaddockPolicyQuery downloaded = query;
    g_autofree char *downloaded_why = NULL;

    downloaded.resolved = NULL;
    downloaded.downloaded_func = every_file_downloaded;
    if (paddock_policy_evaluate (policy, &downloaded, NULL) == PADDOCK_POLICY_ACTION_ALLOW)
      abort ();
    downloaded_why = paddock_policy_explain (policy, &downloaded);
    if (!g_utf8_validate (downloaded_why, -1, NULL))
      abort ();
  }

  line = paddock_exec_display_line (exe, exe, NULL, NULL, (const char * const *) argv->pdata);
  check_display_line (line);
  /* The same arguments run from memory, under whatever name argv[0] gives. */
  memory_line = paddock_exec_display_line ("", "/memfd:x (deleted)", argv->pdata[0], argv->pdata[0],
                                           (const char * const *) argv->pdata);
  check_display_line (memory_line);
  return 0;
}
