/* test-grants.c: "readable except" turned into a list of grants, on made-up trees
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-grants.h"

#include <string.h>

/* A made-up tree: every path, directory or not, with its children. */
static char **
list_fake (const char *path,
           gpointer    user_data)
{
  const char * const *tree = user_data;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  size_t len = strlen (path);
  gboolean found = FALSE;

  for (guint i = 0; tree[i] != NULL; i++)
    {
      const char *entry = tree[i];
      const char *rest;

      if (strcmp (entry, path) == 0)
        found = TRUE;
      if (strcmp (path, "/") == 0)
        rest = entry + 1;
      else if (strncmp (entry, path, len) == 0 && entry[len] == '/')
        rest = entry + len + 1;
      else
        continue;
      if (*rest != '\0' && strchr (rest, '/') == NULL)
        g_ptr_array_add (names, g_strdup (rest));
    }
  if (!found && strcmp (path, "/") != 0)
    return NULL;
  g_ptr_array_set_free_func (names, NULL);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

static const char * const home_tree[] = {
  "/home", "/home/me", "/home/me/.bashrc", "/home/me/.ssh", "/home/me/.ssh/id_ed25519",
  "/home/me/.config", "/home/me/.config/gh", "/home/me/.config/gh/hosts.yml",
  "/home/me/.config/git", "/home/me/.config/git/config", "/home/me/src", "/home/me/src/proj",
  "/home/me/.netrc", "/home/other", NULL,
};

static GPtrArray *
roots_of (const char *first_path,
          ...)
{
  GPtrArray *roots = g_ptr_array_new_with_free_func ((GDestroyNotify) paddock_grant_free);
  const char *path = first_path;
  va_list args;

  va_start (args, first_path);
  while (path != NULL)
    {
      PaddockAccess access = va_arg (args, int);
      g_ptr_array_add (roots, paddock_grant_new (path, access));
      path = va_arg (args, const char *);
    }
  va_end (args);
  return roots;
}

/* "path=access;path=access;…" in the order produced. */
static char *
describe (GPtrArray *grants)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < grants->len; i++)
    {
      PaddockGrant *grant = g_ptr_array_index (grants, i);
      g_string_append_printf (out, "%s%s=%s%s%s%s", i ? ";" : "", grant->path,
                              grant->access & PADDOCK_ACCESS_READ ? "r" : "",
                              grant->access & PADDOCK_ACCESS_WRITE ? "w" : "",
                              grant->access & PADDOCK_ACCESS_EXECUTE ? "x" : "",
                              grant->access & PADDOCK_ACCESS_DEVICE ? "d" : "");
    }
  return g_string_free (out, FALSE);
}

static char *
expand (GPtrArray          *roots,
        const char * const *denials,
        const char * const *tree)
{
  g_autoptr(GPtrArray) grants = paddock_grants_expand (roots, denials, list_fake, (gpointer) tree);
  return describe (grants);
}

static void
test_no_denials (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me", PADDOCK_ACCESS_READ_ONLY, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { NULL }, home_tree);

  g_assert_cmpstr (out, ==, "/home/me=rx");
}

static void
test_siblings (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me", PADDOCK_ACCESS_READ_ONLY, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.ssh", NULL }, home_tree);

  /* $HOME itself gets no rule: that would cover ~/.ssh again. */
  g_assert_cmpstr (out, ==, "/home/me/.bashrc=rx;/home/me/.config=rx;/home/me/.netrc=rx;/home/me/src=rx");
}

static void
test_nested_denials (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me", PADDOCK_ACCESS_READ_ONLY, NULL);
  g_autofree char *out = expand (roots,
                                 (const char *[]) { "/home/me/.ssh", "/home/me/.config/gh", "/home/me/.netrc", NULL },
                                 home_tree);

  g_assert_cmpstr (out, ==, "/home/me/.bashrc=rx;/home/me/.config/git=rx;/home/me/src=rx");
}

static void
test_denial_missing_from_tree (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me", PADDOCK_ACCESS_READ_ONLY, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.aws", NULL }, home_tree);

  /* Even a denial that does not exist splits its parent, so it cannot be
   * created or reached later through a grant on the parent. */
  g_assert_null (strstr (out, "/home/me="));
  g_assert_nonnull (strstr (out, "/home/me/.ssh=rx"));
}

static void
test_root_is_denied (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me/.ssh", PADDOCK_ACCESS_READ_WRITE,
                                         "/home/me/src", PADDOCK_ACCESS_READ_WRITE, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.ssh", NULL }, home_tree);

  g_assert_cmpstr (out, ==, "/home/me/src=rwx");
}

static void
test_root_inside_denial (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me/.ssh/id_ed25519", PADDOCK_ACCESS_READ, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.ssh", NULL }, home_tree);

  g_assert_cmpstr (out, ==, "");
}

static void
test_merge_rights (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/home/me", PADDOCK_ACCESS_READ_ONLY,
                                         "/home/me/src", PADDOCK_ACCESS_READ_WRITE,
                                         "/home/me/.bashrc", PADDOCK_ACCESS_WRITE, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.ssh", NULL }, home_tree);

  g_assert_cmpstr (out, ==, "/home/me/.bashrc=rwx;/home/me/.config=rx;/home/me/.netrc=rx;/home/me/src=rwx");
}

static void
test_from_slash (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/", PADDOCK_ACCESS_READ, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/home/me/.ssh", NULL }, home_tree);

  g_assert_cmpstr (out, ==, "/home/me/.bashrc=r;/home/me/.config=r;/home/me/.netrc=r;/home/me/src=r;/home/other=r");
}

static void
test_unlistable (void)
{
  g_autoptr(GPtrArray) roots = roots_of ("/srv", PADDOCK_ACCESS_READ, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/srv/secret", NULL }, home_tree);

  /* /srv cannot be listed, so it cannot be split: nothing of it is granted. */
  g_assert_cmpstr (out, ==, "");
}

static void
test_prefix_is_not_parent (void)
{
  static const char * const tree[] = { "/data", "/data/ssh", "/data/ssh-keys", "/data/sshx", NULL };
  g_autoptr(GPtrArray) roots = roots_of ("/data", PADDOCK_ACCESS_READ, NULL);
  g_autofree char *out = expand (roots, (const char *[]) { "/data/ssh", NULL }, tree);

  g_assert_cmpstr (out, ==, "/data/ssh-keys=r;/data/sshx=r");
  g_assert_true (paddock_path_is_within ("/data/ssh/x", "/data/ssh"));
  g_assert_false (paddock_path_is_within ("/data/sshx", "/data/ssh"));
  g_assert_true (paddock_path_is_within ("/data", "/"));
  /* The one test of where a path lies, for the lock, the policy and the
   * exec monitor: a folder given with a trailing slash, the root, and the
   * rest of the path beneath. */
  g_assert_true (paddock_path_is_within ("/data/ssh", "/data/ssh/"));
  g_assert_false (paddock_path_is_within ("/data/sshx", "/data/ssh/"));
  g_assert_true (paddock_path_is_within ("/", "//"));
  g_assert_false (paddock_path_is_within ("data", "/"));
  g_assert_false (paddock_path_is_within ("", "/"));
  g_assert_cmpstr (paddock_path_beneath ("/proc/self/fd/3", "/proc/self"), ==, "/fd/3");
  g_assert_cmpstr (paddock_path_beneath ("/proc/self", "/proc/self"), ==, "");
  g_assert_null (paddock_path_beneath ("/proc/selfish", "/proc/self"));
  g_assert_cmpstr (paddock_path_beneath ("/usr", "/"), ==, "/usr");
  g_assert_cmpstr (paddock_grants_find_denial ("/data/ssh/a", (const char *[]) { "/x", "/data/ssh", NULL }), ==, "/data/ssh");
  g_assert_null (paddock_grants_find_denial ("/data/sshx", (const char *[]) { "/data/ssh", NULL }));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/grants/no-denials", test_no_denials);
  g_test_add_func ("/paddock/grants/siblings", test_siblings);
  g_test_add_func ("/paddock/grants/nested-denials", test_nested_denials);
  g_test_add_func ("/paddock/grants/denial-missing", test_denial_missing_from_tree);
  g_test_add_func ("/paddock/grants/root-is-denied", test_root_is_denied);
  g_test_add_func ("/paddock/grants/root-inside-denial", test_root_inside_denial);
  g_test_add_func ("/paddock/grants/merge-rights", test_merge_rights);
  g_test_add_func ("/paddock/grants/from-slash", test_from_slash);
  g_test_add_func ("/paddock/grants/unlistable", test_unlistable);
  g_test_add_func ("/paddock/grants/prefix-is-not-parent", test_prefix_is_not_parent);

  return g_test_run ();
}
