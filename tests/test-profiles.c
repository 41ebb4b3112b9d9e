/* test-profiles.c: the agents' profiles, read from agent-profiles.conf, and paddock-run --explain
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-profile.h"
#include "test-util.h"

#include <stdlib.h>
#include <string.h>

static char *home;

/* The built-in file reads, and says what the agents need. */
static void
test_builtin (void)
{
  const PaddockProfiles *profiles = paddock_profiles_get_default ();
  const PaddockProfile *claude = paddock_profile_lookup ("claude");
  const PaddockProfile *codex = paddock_profile_lookup ("codex");
  const PaddockProfile *gemini = paddock_profile_lookup ("gemini");
  g_autofree char *names = paddock_profile_list_names ();

  g_assert_cmpstr (names, ==, "claude, codex, gemini, opencode, aider, shell");
  g_assert_cmpuint (paddock_profiles_get_n (profiles), ==, 6);
  for (guint i = 0; i < paddock_profiles_get_n (profiles); i++)
    g_assert_nonnull (paddock_profiles_get (profiles, i)->keeps);

  g_assert_true (g_strv_contains ((const char * const *) claude->writes, "~/.claude/"));
  g_assert_cmpstr (claude->makes[0], ==, "~/.claude.json");
  g_assert_cmpstr (claude->make_texts[0], ==, "{}");
  g_assert_cmpstr (codex->locked_args[0], ==, "-c");
  g_assert_cmpstr (codex->locked_args[1], ==, "sandbox_mode=\"danger-full-access\"");
  g_assert_cmpstr (gemini->locked_env[0], ==, "GEMINI_SANDBOX=false");

  g_assert_true (paddock_profile_guess ("/usr/local/bin/codex") == codex);
  g_assert_cmpstr (paddock_profile_guess ("bash")->name, ==, "shell");
  g_assert_cmpstr (paddock_profile_guess ("/opt/x/opencode")->name, ==, "opencode");
  g_assert_null (paddock_profile_lookup ("nope"));
}

/* The locked arguments go after the program's name, and only where the
 * command is one of the profile's programs. */
static void
test_locked_argv (void)
{
  const PaddockProfile *codex = paddock_profile_lookup ("codex");
  g_auto(GStrv) locked = paddock_profile_locked_argv (codex, (const char *[]) { "/usr/bin/codex", "exec", "hi", NULL });
  g_auto(GStrv) other = paddock_profile_locked_argv (codex, (const char *[]) { "bash", "-l", NULL });
  g_autofree char *joined = g_strjoinv ("|", locked);
  g_autofree char *joined_other = g_strjoinv ("|", other);

  g_assert_cmpstr (joined, ==, "/usr/bin/codex|-c|sandbox_mode=\"danger-full-access\"|exec|hi");
  g_assert_cmpstr (joined_other, ==, "bash|-l");
}

static void
test_parse_good (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockProfiles) profiles = paddock_profiles_parse (
    "# a comment\n"
    "\n"
    "[tool]\n"
    "  title = A Tool  \n"
    "programs = tool tool2\n"
    "write = $DATA/tool/\n"
    "make = ~/.toolrc\n"
    "locked-arg = --no-sandbox\n"
    "locked-arg = two words\n"
    "locked-env = TOOL_SANDBOX=0\n"
    "keeps = nothing of its own\n"
    "[shell]\n", -1, "test.conf", &error);
  const PaddockProfile *tool;

  g_assert_no_error (error);
  tool = paddock_profiles_lookup (profiles, "tool");
  g_assert_cmpstr (tool->title, ==, "A Tool");
  g_assert_cmpstr (tool->origin, ==, "test.conf:3");
  g_assert_cmpuint (g_strv_length (tool->programs), ==, 2);
  g_assert_cmpstr (tool->makes[0], ==, "~/.toolrc");
  g_assert_cmpstr (tool->make_texts[0], ==, "");
  g_assert_cmpstr (tool->locked_args[1], ==, "two words");
  g_assert_true (paddock_profiles_guess (profiles, "/bin/tool2") == tool);
  g_assert_cmpstr (paddock_profiles_guess (profiles, "other")->name, ==, "shell");
}

/* Every mistake is named with its file and line, and why. */
static void
test_parse_bad (void)
{
  static const struct
  {
    const char *text;
    const char *message;
  } cases[] = {
    { "[shell]\nwrite ~/.x\n", "bad.conf:2: expected [NAME] or KEY = VALUE" },
    { "title = x\n[shell]\n", "bad.conf:1: \"title\" comes before the first [NAME]" },
    { "[shell]\n\n[Bad Name]\n", "bad.conf:3: [Bad Name]: a profile's name is lower-case letters" },
    { "[shell\n", "bad.conf:1: a section is [NAME], with its ']' at the end of the line" },
    { "[shell]\n[shell]\n", "bad.conf:2: [shell] is there already, from bad.conf:1" },
    { "[shell]\ncolour = red\n", "bad.conf:2: unknown key \"colour\" (known: title, programs" },
    { "[shell]\ntitle =\n", "bad.conf:2: \"title\" has no value" },
    { "[shell]\n= x\n", "bad.conf:2: no key before the '='" },
    { "[shell]\ntitle = a\ntitle = b\n", "bad.conf:3: [shell] has a \"title\" already" },
    { "[shell]\nwrite = /etc/passwd\n", "bad.conf:2: write /etc/passwd: a path starts with ~/, $CONFIG/" },
    { "[shell]\nwrite = ~/../etc/\n", "bad.conf:2: write ~/../etc/: a path holds no \".\", \"..\" or \"//\"" },
    { "[shell]\nwrite = ~/\n", "bad.conf:2: write ~/: a path names something in its folder" },
    { "[shell]\nmake = ~/.dir/ x\n", "bad.conf:2: make ~/.dir/: a file made before the lock is a file" },
    { "[shell]\nlocked-env = 1X=2\n", "bad.conf:2: locked-env 1X=2: not NAME=VALUE" },
    { "[shell]\nlocked-env = NOVALUE\n", "bad.conf:2: locked-env NOVALUE: not NAME=VALUE" },
    { "[shell]\nprograms = bin/x\n", "bad.conf:2: program bin/x: a program is named without a folder" },
    { "[a]\nprograms = x\n[shell]\nprograms = y x\n", "bad.conf:4: program x is in [a] already" },
    { "[shell]\ntitle = a\x01" "b\n", "bad.conf:2: a control character is in the line" },
    { "[shell]\n\ntitle = \xff\n", "bad.conf:3: the line is not UTF-8 text" },
    { "[tool]\n", "bad.conf: no [shell] profile" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockProfiles) profiles = paddock_profiles_parse (cases[i].text, -1, "bad.conf", &error);

      g_assert_null (profiles);
      g_assert_error (error, PADDOCK_PROFILE_ERROR, PADDOCK_PROFILE_ERROR_INVALID);
      if (!g_str_has_prefix (error->message, cases[i].message))
        g_error ("case %u: \"%s\" does not start \"%s\"", i, error->message, cases[i].message);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockProfiles) profiles = paddock_profiles_parse ("[shell]\n\0title = x\n",
                                                                  sizeof "[shell]\n\0title = x\n" - 1,
                                                                  "nul.conf", &error);

    g_assert_null (profiles);
    g_assert_cmpstr (error->message, ==, "nul.conf:2: a NUL byte is in the line");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename (home, "bad-profiles.conf", NULL);
    g_autoptr(PaddockProfiles) profiles = NULL;
    g_autofree char *expected = g_strdup_printf ("%s:2: expected [NAME] or KEY = VALUE", path);

    g_assert_true (g_file_set_contents (path, "[shell]\noops\n", -1, NULL));
    profiles = paddock_profiles_load_file (path, &error);
    g_assert_null (profiles);
    g_assert_cmpstr (error->message, ==, expected);
  }
}

/* paddock-run --explain prints the profile, and with a command, how it
 * would start under the lock. */
static void
test_explain (void)
{
  const char *paddock_run = g_getenv ("PADDOCK_RUN");
  g_autoptr(TestResult) codex = NULL;
  g_autoptr(TestResult) claude = NULL;
  g_autoptr(TestResult) unknown = NULL;
  g_autoptr(TestResult) nothing = NULL;
  g_autofree char *claude_write = g_strdup_printf ("write: ~/.claude/ (%s/.claude/)\n", home);
  g_autofree char *claude_json = g_build_filename (home, ".claude.json", NULL);
  g_autofree char *claude_made = g_strdup_printf ("made-before-lock: ~/.claude.json (%s/.claude.json), holding {}\n",
                                                  home);

  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }
  codex = test_run ((const char *[]) { paddock_run, "--explain", "--", "codex", "exec", "hi", NULL });
  g_assert_cmpint (codex->status, ==, 0);
  g_assert_true (g_str_has_prefix (codex->out, "profile: codex\ntitle: Codex CLI\nfrom: agent-profiles.conf:"));
  g_assert_nonnull (strstr (codex->out, "\nprograms: codex\n"));
  g_assert_nonnull (strstr (codex->out, "\nmade-before-lock: none\n"));
  g_assert_nonnull (strstr (codex->out, "\nlocked-args: -c 'sandbox_mode=\"danger-full-access\"'\n"));
  g_assert_nonnull (strstr (codex->out, "\nlocked-env: none\n"));
  g_assert_nonnull (strstr (codex->out, "\nkeeps: its approval policy"));
  g_assert_nonnull (strstr (codex->out, "\nlocked-command: codex -c sandbox_mode=\"danger-full-access\" exec hi\n"));

  claude = test_run ((const char *[]) { paddock_run, "--profile=claude", "--explain", NULL });
  g_assert_cmpint (claude->status, ==, 0);
  g_assert_nonnull (strstr (claude->out, claude_write));
  g_assert_nonnull (strstr (claude->out, claude_made));
  g_assert_null (strstr (claude->out, "locked-command:"));
  /* Nothing is made by explaining. */
  g_assert_false (g_file_test (claude_json, G_FILE_TEST_EXISTS));

  unknown = test_run ((const char *[]) { paddock_run, "--profile=nope", "--explain", NULL });
  g_assert_cmpint (unknown->status, ==, 2);
  g_assert_nonnull (strstr (unknown->err, "--profile nope: unknown profile (known: claude, codex, gemini, opencode, "
                                          "aider, shell)"));
  nothing = test_run ((const char *[]) { paddock_run, "--explain", NULL });
  g_assert_cmpint (nothing->status, ==, 2);
  g_assert_nonnull (strstr (nothing->err, "--explain needs --profile NAME or a command"));
}

/* The user's own profiles, in $XDG_CONFIG_HOME/paddock, add to the
 * built-in ones and replace them by name; a file that does not read stops
 * paddock-run, named by its line. */
static void
test_user_file (void)
{
  const char *paddock_run = g_getenv ("PADDOCK_RUN");
  g_autofree char *config = g_build_filename (home, "user-config", NULL);
  g_autofree char *folder = g_build_filename (config, "paddock", NULL);
  g_autofree char *file = g_build_filename (folder, "agent-profiles.conf", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "XDG_CONFIG_HOME", config, TRUE);
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) goose = NULL;
  g_autoptr(TestResult) codex = NULL;
  g_autoptr(TestResult) claude = NULL;
  g_autoptr(TestResult) broken = NULL;
  g_autoptr(TestResult) broken_locked = NULL;
  g_autofree char *from = g_strdup_printf ("\nfrom: %s:1\n", file);
  g_autofree char *error = g_strdup_printf ("paddock-run: %s:3: unknown key \"colour\"", file);

  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file,
                                      "[goose]\nprograms = goose\nwrite = ~/.config/goose/\n"
                                      "locked-arg = --no-sandbox\n"
                                      "[codex]\nprograms = codex\nlocked-arg = --mine\n", -1, NULL));

  goose = test_run_full ((const char *[]) { paddock_run, "--explain", "--", "goose", "run", NULL }, &options);
  g_assert_cmpint (goose->status, ==, 0);
  g_assert_true (g_str_has_prefix (goose->out, "profile: goose\n"));
  g_assert_nonnull (strstr (goose->out, from));
  g_assert_nonnull (strstr (goose->out, "\nlocked-command: goose --no-sandbox run\n"));

  /* Replaced by name; the others stay built in. */
  codex = test_run_full ((const char *[]) { paddock_run, "--explain", "--", "codex", NULL }, &options);
  g_assert_nonnull (strstr (codex->out, "\nlocked-command: codex --mine\n"));
  claude = test_run_full ((const char *[]) { paddock_run, "--explain", "--", "claude", NULL }, &options);
  g_assert_nonnull (strstr (claude->out, "\nfrom: agent-profiles.conf:"));

  g_assert_true (g_file_set_contents (file, "[goose]\nprograms = goose\ncolour = red\n", -1, NULL));
  broken = test_run_full ((const char *[]) { paddock_run, "--explain", "--", "goose", NULL }, &options);
  g_assert_cmpint (broken->status, ==, 2);
  g_assert_cmpstr (broken->out, ==, "");
  g_assert_nonnull (strstr (broken->err, error));
  broken_locked = test_run_full ((const char *[]) { paddock_run, "--lock", "--no-monitor", "--", "true", NULL },
                                 &options);
  g_assert_cmpint (broken_locked->status, ==, 2);
  g_assert_nonnull (strstr (broken_locked->err, error));
}

/* --explain lists the home folder's entries of each kind, as the user's
 * home.conf and the project's settings (--project's) make them. */
static void
test_explain_home (void)
{
  const char *paddock_run = g_getenv ("PADDOCK_RUN");
  g_autofree char *real_home = realpath (home, NULL);
  g_autofree char *config = g_build_filename (home, "home-config", NULL);
  g_autofree char *file = g_build_filename (config, "paddock", "home.conf", NULL);
  g_autofree char *project = g_build_filename (real_home, "proj", NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, project, -1);
  g_autofree char *name = g_strconcat (hash, ".settings.json", NULL);
  g_autofree char *settings = g_build_filename (config, "paddock", "projects", name, NULL);
  g_autofree char *json = g_strdup_printf ("{ \"path\": \"%s\", \"home\": { \"open\": [\"~/.m2\"] } }", project);
  g_autofree char *bashrc_asked = g_strdup_printf ("\nhome-asked: %s/.bashrc\n", real_home);
  g_autofree char *profile_open = g_strdup_printf ("\nhome-open: %s/.profile\n", real_home);
  g_autofree char *home_asked = g_strdup_printf ("\nhome-asked: %s/\n", real_home);
  g_autofree char *config_asked = g_strdup_printf ("\nhome-asked: %s/.config/\n", real_home);
  g_autofree char *ssh_closed = g_strdup_printf ("\nhome-closed: %s/.ssh\n", real_home);
  g_autofree char *m2_open = g_strdup_printf ("\nhome-open: %s/.m2\n", real_home);
  g_autofree char *error = g_strdup_printf ("paddock-run: %s:1: closd is not a kind of rule", file);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "XDG_CONFIG_HOME", config, TRUE);
  TestRunOptions options = { .env = (const char * const *) env };
  g_autoptr(TestResult) with_project = NULL;
  g_autoptr(TestResult) without = NULL;
  g_autoptr(TestResult) broken = NULL;

  if (paddock_run == NULL)
    {
      g_test_skip ("PADDOCK_RUN is not set");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  {
    g_autofree char *folder = g_path_get_dirname (settings);

    g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  }
  g_assert_true (g_file_set_contents (file, "# mine\nasked ~/.bashrc\n", -1, NULL));
  g_assert_true (g_file_set_contents (settings, json, -1, NULL));

  with_project = test_run_full ((const char *[]) { paddock_run, "--explain", "--project", project, "--profile", "shell",
                                                   NULL }, &options);
  g_assert_cmpint (with_project->status, ==, 0);
  g_assert_true (g_str_has_prefix (with_project->out, "profile: shell\n"));
  g_assert_nonnull (strstr (with_project->out, bashrc_asked));
  g_assert_nonnull (strstr (with_project->out, profile_open));
  g_assert_nonnull (strstr (with_project->out, home_asked));
  g_assert_nonnull (strstr (with_project->out, config_asked));
  g_assert_nonnull (strstr (with_project->out, ssh_closed));
  g_assert_nonnull (strstr (with_project->out, m2_open));

  /* The project's choices only for that project. */
  without = test_run_full ((const char *[]) { paddock_run, "--explain", "--profile", "shell", NULL }, &options);
  g_assert_cmpint (without->status, ==, 0);
  g_assert_nonnull (strstr (without->out, bashrc_asked));
  g_assert_null (strstr (without->out, m2_open));

  /* A line of the user's file that cannot be understood is said, by its
   * line, and explaining fails. */
  g_assert_true (g_file_set_contents (file, "closd ~/.aws\n", -1, NULL));
  broken = test_run_full ((const char *[]) { paddock_run, "--explain", "--profile", "shell", NULL }, &options);
  g_assert_cmpint (broken->status, ==, 1);
  g_assert_nonnull (strstr (broken->err, error));
  g_assert_null (strstr (broken->out, "home-open:"));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  home = test_home_new ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/profiles/builtin", test_builtin);
  g_test_add_func ("/paddock/profiles/locked-argv", test_locked_argv);
  g_test_add_func ("/paddock/profiles/parse-good", test_parse_good);
  g_test_add_func ("/paddock/profiles/parse-bad", test_parse_bad);
  g_test_add_func ("/paddock/profiles/explain", test_explain);
  g_test_add_func ("/paddock/profiles/explain-home", test_explain_home);
  g_test_add_func ("/paddock/profiles/user-file", test_user_file);

  status = g_test_run ();
  test_home_remove (home);
  return status;
}
