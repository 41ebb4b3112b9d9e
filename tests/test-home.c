/* test-home.c: which entries of the home folder a locked agent reads unasked, never, or asks for
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a private home folder whose $XDG_CONFIG_HOME is not where it usually
 * is (~/cfg), so that the split folders and $CONFIG/ rules follow it
 * while ~/.config keeps its own. Nothing here needs the paths to exist,
 * except the symlink case.
 */
#include "config.h"

#include "paddock-home.h"
#include "paddock-lock-private.h"
#include "paddock-project-config.h"
#include "test-util.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *home;       /* canonical */
static char *project;    /* canonical; a folder in the home folder */
static char *user_file;  /* $XDG_CONFIG_HOME/paddock/home.conf */

static char *
in_home (const char *rest)
{
  return g_build_filename (home, rest, NULL);
}

static void
write_file (const char *path,
            const char *text)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* The user's home.conf holds @text, or is gone where @text is NULL. */
static void
set_user_file (const char *text)
{
  if (text == NULL)
    g_unlink (user_file);
  else
    write_file (user_file, text);
}

/* @json with the project's path for each "@PROJECT@". */
static char *
with_project (const char *json)
{
  g_auto(GStrv) parts = g_strsplit (json, "@PROJECT@", -1);

  return g_strjoinv (project, parts);
}

/* The project's settings hold @json (with_project()), or are gone where
 * @json is NULL. */
static void
set_settings (const char *json)
{
  g_autofree char *path = paddock_project_config_path (project);

  if (json == NULL)
    g_unlink (path);
  else
    {
      g_autofree char *text = with_project (json);

      write_file (path, text);
    }
}

static PaddockHome *
new_home (const char *with_project)
{
  g_autoptr(GError) error = NULL;
  PaddockHome *lists = paddock_home_new (home, with_project, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lists);
  return lists;
}

static void
assert_kind (PaddockHome     *lists,
             const char      *rest,
             PaddockHomeKind  kind)
{
  g_autofree char *path = in_home (rest);

  g_test_message ("%s", path);
  g_assert_cmpint (paddock_home_classify (lists, path), ==, kind);
}

/* The shipped rules: start-up files and toolchains open, credential
 * stores closed, the rest asked; closed paths below an entry covered. */
static void
test_shipped (void)
{
  g_autoptr(PaddockHome) lists = new_home (NULL);

  g_assert_cmpstr (paddock_home_get_path (lists), ==, home);
  /* The home folder itself is listed, never asked about. */
  g_assert_cmpint (paddock_home_classify (lists, home), ==, PADDOCK_HOME_OPEN);

  assert_kind (lists, ".bashrc", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".profile", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".gitconfig", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".rustup/toolchains/stable/bin/rustc", PADDOCK_HOME_OPEN);
  assert_kind (lists, "go/bin/gopls", PADDOCK_HOME_OPEN);

  assert_kind (lists, ".ssh", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".ssh/id_ed25519", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".netrc", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".docker/config.json", PADDOCK_HOME_CLOSED);

  assert_kind (lists, "Documents", PADDOCK_HOME_ASKED);
  assert_kind (lists, "Documents/taxes.pdf", PADDOCK_HOME_ASKED);
  assert_kind (lists, "other-project/src/main.c", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".cache", PADDOCK_HOME_ASKED);

  /* Closed and open paths below an asked entry. */
  assert_kind (lists, ".m2", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".m2/settings.xml", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".m2/settings-security.xml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".cargo", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".cargo/registry/index", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".cargo/bin/cargo", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".cargo/env", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".cargo/credentials.toml", PADDOCK_HOME_CLOSED);

  /* Paddock's own settings, wherever $XDG_CONFIG_HOME is. */
  assert_kind (lists, "cfg/paddock", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".config/paddock/projects", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".local/state/paddock", PADDOCK_HOME_CLOSED);
}

/* Entries below the split folders are kinds of their own, and $CONFIG/
 * rules reach both $XDG_CONFIG_HOME and ~/.config. */
static void
test_split (void)
{
  static const char * const split[] = { "", ".config", ".local", ".local/share", ".var", ".var/app", "cfg" };
  static const char * const not_split[] = { ".cache", ".config/git", ".local/bin", ".var/app/org.gnome.Maps", "cfg/gh" };
  static const struct
  {
    const char *path;
    const char *entry;   /* NULL: none */
  } entries[] = {
    { ".config/foo/bar/baz", ".config/foo" },
    { ".config/foo", ".config/foo" },
    { ".local/share/fonts/a.ttf", ".local/share/fonts" },
    { ".local/bin/tool", ".local/bin" },
    { ".local/state/x/y", ".local/state" },
    { ".var/app/org.gnome.Maps/config/x", ".var/app/org.gnome.Maps" },
    { "cfg/nvim/init.lua", "cfg/nvim" },
    { ".m2/settings.xml", ".m2" },
    { "Documents", "Documents" },
    { ".config", NULL },
    { ".var/app", NULL },
    { "", NULL },
  };
  g_autoptr(PaddockHome) lists = new_home (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (split); i++)
    {
      g_autofree char *path = in_home (split[i]);

      g_test_message ("split: %s", path);
      g_assert_true (paddock_home_is_split (lists, path));
      g_assert_cmpint (paddock_home_classify (lists, path), ==, PADDOCK_HOME_OPEN);
    }
  for (guint i = 0; i < G_N_ELEMENTS (not_split); i++)
    {
      g_autofree char *path = in_home (not_split[i]);

      g_assert_false (paddock_home_is_split (lists, path));
    }

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autofree char *path = in_home (entries[i].path);
      g_autofree char *expected = entries[i].entry != NULL ? in_home (entries[i].entry) : NULL;
      g_autofree char *entry = paddock_home_find_entry (lists, path);

      g_assert_cmpstr (entry, ==, expected);
    }
  {
    g_autofree char *outside = paddock_home_find_entry (lists, "/etc/passwd");

    g_assert_null (outside);
  }

  assert_kind (lists, ".config/git/config", PADDOCK_HOME_OPEN);
  assert_kind (lists, "cfg/git/config", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".config/gh/hosts.yml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, "cfg/gh/hosts.yml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".config/foo", PADDOCK_HOME_ASKED);
  assert_kind (lists, "cfg/foo/bar", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".local/share/keyrings/login.keyring", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".local/share/fonts", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".local/share/pnpm/pnpm", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".local/bin/tool", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".var/app/org.mozilla.firefox", PADDOCK_HOME_ASKED);
}

/* The user's rules over the shipped ones, the most specific winning;
 * none reopens a closed path. */
static void
test_user_rules (void)
{
  g_autoptr(PaddockHome) lists = NULL;

  set_user_file ("# mine\n"
                 "asked ~/.bashrc\n"
                 "\n"
                 "  open ~/.m2  \n"
                 "closed ~/.m2/settings.xml\n"
                 "open ~/.ssh\n"
                 "open ~/.docker/config.json\n"
                 "asked ~/.cargo\n"
                 "open $CONFIG/foo\n"
                 "open ~/.var/app\n"
                 "closed ~/Documents/taxes\n"
                 "closed /srv/secrets\n");
  lists = new_home (NULL);

  assert_kind (lists, ".bashrc", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".m2/repository/org/x.jar", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".m2/settings.xml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".m2/settings-security.xml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".ssh/id_ed25519", PADDOCK_HOME_CLOSED);
  assert_kind (lists, ".docker/config.json", PADDOCK_HOME_CLOSED);
  /* The shipped ~/.cargo/bin is more specific than the user's ~/.cargo. */
  assert_kind (lists, ".cargo/registry", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".cargo/bin/cargo", PADDOCK_HOME_OPEN);
  assert_kind (lists, "cfg/foo/x", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".config/foo/x", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".var/app/org.gnome.Maps", PADDOCK_HOME_OPEN);
  assert_kind (lists, "Documents/taxes/2025.pdf", PADDOCK_HOME_CLOSED);
  assert_kind (lists, "Documents/notes", PADDOCK_HOME_ASKED);
  g_clear_pointer (&lists, paddock_home_free);

  /* deny.conf's lines are closed, as before home.conf. */
  {
    g_autofree char *deny = g_build_filename (g_get_user_config_dir (), "paddock", "deny.conf", NULL);

    write_file (deny, "# old\n~/private\nnot-a-path\n~/missing/\n");
    lists = new_home (NULL);
    assert_kind (lists, "private/key", PADDOCK_HOME_CLOSED);
    assert_kind (lists, "missing/key", PADDOCK_HOME_CLOSED);
    assert_kind (lists, "not-a-path", PADDOCK_HOME_ASKED);
    g_unlink (deny);
  }
  set_user_file (NULL);
}

/* What the user's file says that is not understood: an error naming the
 * file, the line and why, and no lists. */
static void
test_user_errors (void)
{
  static const struct
  {
    const char *text;
    const char *message;   /* after "FILE:" */
  } cases[] = {
    { "opne ~/x\n", "1: opne is not a kind of rule" },
    { "# fine\nopen x\n", "2: x: must start with ~/" },
    { "open ~/a/*.txt\n", "1: ~/a/*.txt: patterns" },
    { "open ~/a/../.ssh\n", "1: ~/a/../.ssh: holds . or .." },
    { "open ~/a//b\n", "1: ~/a//b: holds an empty name" },
    { "open /etc/passwd\n", "1: /etc/passwd is not in the home folder" },
    { "closed ~\n", "1: ~: the home folder itself cannot be closed" },
    { "open ~/a\n\nasked ~/a\n", "3: ~/a is named on line 1 already" },
    { "open\n", "1: open names no path" },
    { "closed $CONFIG/\n", "1: $CONFIG/: names a whole base folder" },
    { "open $HOME/x\n", "1: $HOME/x: must start with" },
    { "open ~/caf\xc3\n", "not valid UTF-8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockHome) lists = NULL;
      g_autofree char *expected = g_strdup_printf ("%s:%s", user_file, cases[i].message);

      set_user_file (cases[i].text);
      lists = paddock_home_new (home, NULL, &error);
      g_assert_null (lists);
      g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
      g_test_message ("%s", error->message);
      if (strstr (cases[i].message, "UTF-8") != NULL)
        g_assert_nonnull (strstr (error->message, cases[i].message));
      else
        g_assert_true (g_str_has_prefix (error->message, expected));
    }

  /* The closed paths stand whatever the user's file says. */
  {
    g_auto(GStrv) closed = paddock_home_list_closed_anyway (home);
    g_autofree char *ssh = in_home (".ssh");

    g_assert_true (g_strv_contains ((const char * const *) closed, ssh));
  }
  set_user_file (NULL);
}

/* A project's choices over the user's over the shipped ones. */
static void
test_project (void)
{
  g_autoptr(PaddockHome) lists = NULL;

  set_user_file ("asked ~/.gitconfig\nasked ~/.m2\nopen ~/Documents\n");
  set_settings ("{ \"path\": \"@PROJECT@\", \"deny\": [\"~/project-secret\"],"
                "  \"home\": { \"open\": [\"~/.m2\", \"~/.gitconfig\"], \"closed\": [\"~/Documents/taxes\"] } }");

  lists = new_home (project);
  assert_kind (lists, ".gitconfig", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".m2/repository", PADDOCK_HOME_OPEN);
  assert_kind (lists, ".m2/settings-security.xml", PADDOCK_HOME_CLOSED);
  assert_kind (lists, "Documents/notes", PADDOCK_HOME_OPEN);
  assert_kind (lists, "Documents/taxes/2025.pdf", PADDOCK_HOME_CLOSED);
  assert_kind (lists, "project-secret", PADDOCK_HOME_CLOSED);
  g_clear_pointer (&lists, paddock_home_free);

  /* Without the project, the user's rules. */
  lists = new_home (NULL);
  assert_kind (lists, ".gitconfig", PADDOCK_HOME_ASKED);
  assert_kind (lists, ".m2/repository", PADDOCK_HOME_ASKED);
  assert_kind (lists, "Documents/taxes/2025.pdf", PADDOCK_HOME_OPEN);
  assert_kind (lists, "project-secret", PADDOCK_HOME_ASKED);
  g_clear_pointer (&lists, paddock_home_free);

  /* Without the user's either, the shipped ones. */
  set_user_file (NULL);
  lists = new_home (NULL);
  assert_kind (lists, ".gitconfig", PADDOCK_HOME_OPEN);
  set_settings (NULL);
}

/* Settings whose "home" is not as it should be: an error naming the
 * field, and for a project that uses them, no lists. */
static void
test_project_errors (void)
{
  static const struct
  {
    const char *home;
    const char *message;
    gboolean    parses;   /* the settings read; the home folder's rules do not */
  } cases[] = {
    { "[]", ": \"home\" must be an object", FALSE },
    { "{ \"opne\": [] }", ": \"home\".\"opne\" is not understood", FALSE },
    { "{ \"open\": \"~/.m2\" }", ": \"home\".\"open\" must be a list of paths", FALSE },
    { "{ \"closed\": [1] }", ": \"home\".\"closed\" must be a list of paths", FALSE },
    { "{ \"open\": [\".m2\"] }", ": \"home\".\"open\": .m2 is neither absolute nor under ~/", FALSE },
    { "{ \"open\": [\"/etc\"] }", ": \"home\".\"open\": /etc is not in the home folder", TRUE },
    { "{ \"closed\": [\"~/\"] }", ": \"home\".\"closed\": ~/ is the home folder itself", TRUE },
  };
  g_autofree char *settings = paddock_project_config_path (project);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockHome) lists = NULL;
      g_autofree char *json = g_strdup_printf ("{ \"path\": \"@PROJECT@\", \"lock\": true, \"home\": %s }", cases[i].home);
      g_autofree char *expected = g_strconcat (settings, cases[i].message, NULL);

      set_settings (json);
      lists = paddock_home_new (home, project, &error);
      g_assert_null (lists);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, expected));

      /* The parser alone says the same, and gives no choice. */
      if (!cases[i].parses)
        {
          PaddockProjectConfig config;
          g_autoptr(GError) parse_error = NULL;
          g_autofree char *text = with_project (json);

          g_assert_false (paddock_project_config_parse (project, "s.json", text, strlen (text), &config,
                                                        &parse_error));
          g_assert_false (config.has_lock);
          g_assert_true (g_str_has_prefix (parse_error->message, "s.json: \"home\""));
        }
    }
  set_settings (NULL);
}

/* "Allow in This Project" adds to "home"."open", keeping the rest. */
static void
test_allow_in_project (void)
{
  g_autofree char *settings = paddock_project_config_path (project);
  g_autofree char *m2 = in_home (".m2");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  PaddockProjectConfig config;

  /* Nothing saved yet: the file is made. */
  g_assert_true (paddock_home_allow_in_project (project, m2, &error));
  g_assert_no_error (error);
  g_assert_true (paddock_project_config_load (project, &config, &error));
  g_assert_nonnull (config.home_open);
  g_assert_cmpstr (config.home_open[0], ==, "~/.m2");
  g_assert_null (config.home_open[1]);
  g_assert_false (config.has_lock);
  paddock_project_config_clear (&config);

  set_settings ("{ \"path\": \"@PROJECT@\", \"lock\": true, \"grants\": [\"/opt/sdk\"], \"deny\": [\"~/s\"],"
                "  \"home\": { \"closed\": [\"~/c\"], \"open\": [\"~/.gradle\"] }, \"later\": 7 }");
  {
    g_autoptr(PaddockHome) before = new_home (project);

    assert_kind (before, ".m2/repository", PADDOCK_HOME_ASKED);
  }
  g_assert_true (paddock_home_allow_in_project (project, m2, &error));
  g_assert_no_error (error);
  /* Twice is once. */
  g_assert_true (paddock_home_allow_in_project (project, m2, &error));
  g_assert_no_error (error);

  g_assert_true (paddock_project_config_load (project, &config, &error));
  g_assert_no_error (error);
  g_assert_true (config.has_lock && config.lock);
  g_assert_cmpstrv (config.grants, ((const char * const []) { "/opt/sdk", NULL }));
  g_assert_cmpstrv (config.denials, ((const char * const []) { "~/s", NULL }));
  g_assert_cmpstrv (config.home_closed, ((const char * const []) { "~/c", NULL }));
  g_assert_cmpstrv (config.home_open, ((const char * const []) { "~/.gradle", "~/.m2", NULL }));
  paddock_project_config_clear (&config);
  g_assert_true (g_file_get_contents (settings, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"later\" : 7"));
  {
    g_autoptr(PaddockHome) after = new_home (project);

    assert_kind (after, ".m2/repository", PADDOCK_HOME_OPEN);
    assert_kind (after, "c", PADDOCK_HOME_CLOSED);
  }

  /* Neither the home folder nor a path outside it is an entry. */
  g_assert_false (paddock_home_allow_in_project (project, home, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);
  g_assert_false (paddock_home_allow_in_project (project, "/etc", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);

  /* Settings that do not read, or whose "home" is not an object, are
   * left as they are. */
  for (guint i = 0; i < 2; i++)
    {
      const char *broken = i == 0 ? "{ \"path\": \"@PROJECT@\", \"lock\": tru" : "{ \"path\": \"@PROJECT@\", \"home\": 3 }";
      g_autofree char *before = with_project (broken);
      g_autofree char *after = NULL;

      set_settings (broken);
      g_assert_false (paddock_home_allow_in_project (project, m2, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "left as it is"));
      g_clear_error (&error);
      g_assert_true (g_file_get_contents (settings, &after, NULL, NULL));
      g_assert_cmpstr (after, ==, before);
    }
  set_settings (NULL);
}

static gboolean
strv_has (char      **list,
          const char *rest)
{
  g_autofree char *path = in_home (rest);

  return g_strv_contains ((const char * const *) list, path);
}

/* What --explain, --lock-status and the popover show: sorted, split
 * folders ending in "/", each path of the kind it is listed as. */
static void
test_lists (void)
{
  static const PaddockHomeKind kinds[] = { PADDOCK_HOME_OPEN, PADDOCK_HOME_CLOSED, PADDOCK_HOME_ASKED };
  g_autoptr(PaddockHome) lists = NULL;
  g_auto(GStrv) open = NULL;
  g_auto(GStrv) asked = NULL;
  g_auto(GStrv) closed = NULL;

  lists = new_home (NULL);
  open = paddock_home_list (lists, PADDOCK_HOME_OPEN);
  asked = paddock_home_list (lists, PADDOCK_HOME_ASKED);
  closed = paddock_home_list (lists, PADDOCK_HOME_CLOSED);

  g_assert_true (strv_has (open, ".bashrc"));
  g_assert_true (strv_has (open, ".cargo/bin"));
  g_assert_true (strv_has (open, "cfg/git"));
  g_assert_true (strv_has (open, ".config/git"));
  g_assert_false (strv_has (open, ".ssh"));
  g_assert_true (strv_has (asked, "/"));
  g_assert_true (strv_has (asked, ".config/"));
  g_assert_true (strv_has (asked, "cfg/"));
  g_assert_true (strv_has (asked, ".local/"));
  g_assert_true (strv_has (asked, ".local/share/"));
  g_assert_true (strv_has (asked, ".var/app/"));
  g_assert_false (strv_has (asked, ".config"));
  g_assert_true (strv_has (closed, ".ssh"));
  g_assert_true (strv_has (closed, "cfg/gh"));
  g_assert_true (strv_has (closed, ".config/gh"));
  g_assert_true (strv_has (closed, "runtime/containers/auth.json"));
  g_assert_true (strv_has (closed, "cfg/paddock"));

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_auto(GStrv) list = paddock_home_list (lists, kinds[k]);

      for (guint i = 0; list[i] != NULL; i++)
        {
          if (i > 0)
            g_assert_cmpint (strcmp (list[i - 1], list[i]), <, 0);
          if (g_str_has_suffix (list[i], "/"))
            {
              g_autofree char *folder = g_strndup (list[i], strlen (list[i]) - 1);
              g_autofree char *unnamed = g_build_filename (folder, "unnamed-by-any-rule", NULL);

              g_assert_true (paddock_home_is_split (lists, folder));
              g_assert_cmpint (paddock_home_classify (lists, unnamed), ==, kinds[k]);
            }
          else if (g_str_has_prefix (list[i], home))
            g_assert_cmpint (paddock_home_classify (lists, list[i]), ==, kinds[k]);
        }
    }
  g_clear_pointer (&lists, paddock_home_free);
  g_clear_pointer (&open, g_strfreev);
  g_clear_pointer (&asked, g_strfreev);

  /* The user's rules change the lists; an open path in a closed one is
   * not listed as open. */
  set_user_file ("open ~/.config\nopen ~/.ssh/config\nasked ~/.cargo/bin\n");
  lists = new_home (NULL);
  open = paddock_home_list (lists, PADDOCK_HOME_OPEN);
  asked = paddock_home_list (lists, PADDOCK_HOME_ASKED);
  g_assert_true (strv_has (open, ".config/"));
  g_assert_false (strv_has (asked, ".config/"));
  g_assert_true (strv_has (asked, "cfg/"));
  g_assert_false (strv_has (open, ".ssh/config"));
  g_assert_true (strv_has (asked, ".cargo/bin"));
  g_assert_false (strv_has (open, ".cargo/bin"));
  set_user_file (NULL);
}

/* A rule's path and the path asked about are both canonical: a start-up
 * file that is a link into a dotfiles folder is open there. */
static void
test_symlink (void)
{
  g_autofree char *dotfiles = in_home ("dotfiles");
  g_autofree char *target = in_home ("dotfiles/bashrc");
  g_autofree char *link = in_home (".bashrc");
  g_autofree char *real = NULL;
  g_autoptr(PaddockHome) lists = NULL;

  write_file (target, "# mine\n");
  g_assert_cmpint (symlink (target, link), ==, 0);
  lists = new_home (NULL);
  real = paddock_lock_canonicalize (link);
  g_assert_cmpstr (real, ==, target);
  g_assert_cmpint (paddock_home_classify (lists, real), ==, PADDOCK_HOME_OPEN);
  assert_kind (lists, "dotfiles/vimrc", PADDOCK_HOME_ASKED);
  g_unlink (link);
  test_remove_tree (dotfiles);
}

/* The lock's deny list: every path the built-in list held before it
 * became data, and the closed rules of home.conf. */
static void
test_denials (void)
{
  static const char * const before[] = {
    ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gh", ".netrc",
    ".git-credentials", ".password-store", ".local/share/keyrings", ".mozilla",
    ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".thunderbird",
    ".config/gcloud", ".config/hub", ".config/op", ".pki", ".npmrc", ".pypirc",
    ".cargo/credentials", ".cargo/credentials.toml", ".vault-token", ".local/share/kwalletd",
    ".config/containers/auth.json", ".terraform.d/credentials.tfrc.json", ".terraformrc",
    ".pulumi/credentials.json", ".config/helm/registry", ".config/doctl", ".config/hcloud", ".oci",
    ".s3cfg", ".boto", ".fly", ".config/rclone", ".config/glab-cli", ".gem/credentials",
    ".m2/settings-security.xml", ".nuget/NuGet/NuGet.Config", ".composer/auth.json",
    ".config/composer/auth.json", ".config/cachix", ".config/github-copilot", ".cache/huggingface/token",
    ".huggingface", ".config/sops/age", ".config/Bitwarden CLI", ".authinfo", ".authinfo.gpg",
    /* Where $XDG_CONFIG_HOME, the runtime and the state folders are. */
    "cfg/gh", "cfg/google-chrome", "cfg/chromium", "cfg/BraveSoftware", "cfg/hub", "cfg/gcloud", "cfg/op",
    "cfg/containers/auth.json", "cfg/helm/registry", "cfg/doctl", "cfg/hcloud", "cfg/rclone", "cfg/glab-cli",
    "cfg/composer/auth.json", "cfg/cachix", "cfg/github-copilot", "cfg/sops/age", "cfg/Bitwarden CLI",
    "runtime/containers/auth.json", "cfg/paddock", ".local/state/paddock", "runtime/paddock",
  };
  g_autoptr(GPtrArray) denials = paddock_lock_build_denials ();
  g_autoptr(PaddockHome) lists = new_home (NULL);
  g_auto(GStrv) closed = paddock_home_list (lists, PADDOCK_HOME_CLOSED);
  const char * const *denied = (const char * const *) denials->pdata;

  for (guint i = 0; i < G_N_ELEMENTS (before); i++)
    {
      g_autofree char *path = in_home (before[i]);

      g_test_message ("%s", path);
      g_assert_true (g_strv_contains (denied, path));
    }
  for (guint i = 0; closed[i] != NULL; i++)
    g_assert_true (g_strv_contains (denied, closed[i]));
}

/* The shipped file reads alone too (as the fuzz target reads it), and an
 * empty user's text adds nothing. */
static void
test_for_text (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockHome) lists = paddock_home_new_for_text (home, "mine.conf", "asked ~/.bashrc\n", 16, &error);
  g_autoptr(PaddockHome) broken = NULL;

  g_assert_no_error (error);
  assert_kind (lists, ".bashrc", PADDOCK_HOME_ASKED);
  broken = paddock_home_new_for_text (home, "mine.conf", "open ~/x\nclose ~/y\n", 18, &error);
  g_assert_null (broken);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_true (g_str_has_prefix (error->message, "mine.conf:2: close is not a kind"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *made = test_home_new ();
  g_autofree char *config = NULL;
  int status;

  home = realpath (made, NULL);
  config = g_build_filename (home, "cfg", NULL);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_unsetenv ("XDG_DATA_HOME");
  g_unsetenv ("XDG_CACHE_HOME");
  {
    g_autofree char *state = g_build_filename (home, ".local", "state", NULL);
    g_autofree char *runtime = g_build_filename (home, "runtime", NULL);

    g_setenv ("XDG_STATE_HOME", state, TRUE);
    g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  }
  project = g_build_filename (home, "src", "proj", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  user_file = g_build_filename (config, "paddock", "home.conf", NULL);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paddock/home/shipped", test_shipped);
  g_test_add_func ("/paddock/home/split", test_split);
  g_test_add_func ("/paddock/home/user-rules", test_user_rules);
  g_test_add_func ("/paddock/home/user-errors", test_user_errors);
  g_test_add_func ("/paddock/home/project", test_project);
  g_test_add_func ("/paddock/home/project-errors", test_project_errors);
  g_test_add_func ("/paddock/home/allow-in-project", test_allow_in_project);
  g_test_add_func ("/paddock/home/lists", test_lists);
  g_test_add_func ("/paddock/home/symlink", test_symlink);
  g_test_add_func ("/paddock/home/denials", test_denials);
  g_test_add_func ("/paddock/home/for-text", test_for_text);
  status = g_test_run ();

  g_free (project);
  g_free (user_file);
  test_home_remove (g_steal_pointer (&made));
  free (home);
  return status;
}
