/* test-policy.c: policy rules: parsing, errors with their positions, matching, remembered and project rules
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "test-policy-util.h"
#include "test-util.h"

#include "paddock-policy.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parse errors: each with its file, line, column and reason. */

static void
assert_refused (const char *text,
                int         code,
                const char *expected_prefix)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;

  policy = paddock_policy_new_from_data (text, -1, "test.json", &error);
  g_assert_null (policy);
  g_assert_error (error, PADDOCK_POLICY_ERROR, code);
  if (!g_str_has_prefix (error->message, expected_prefix))
    g_error ("for %s\nexpected: %s…\n     got: %s", text, expected_prefix, error->message);
}

static void
test_parse_errors (void)
{
  assert_refused ("{\"rules\": [}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:12: JSON syntax error: unexpected character `}'");
  assert_refused ("{\n  \"rules\": [\n    {\"name\": \"x\",, }\n  ]\n}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:3:");
  assert_refused ("{\n  \"rulez\": []\n}", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:2:3: unknown key \"rulez\" in the policy (known keys: version, default, project, rules)");
  assert_refused ("{\"rules\": [\n  {\"name\": \"a\",\n   \"acton\": \"deny\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:3:4: unknown key \"acton\" in a rule");
  assert_refused ("{\"rules\": [\n  {\"name\": \"a\", \"action\": \"maybe\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:2:27: unknown action \"maybe\" in rule \"a\" (expected \"allow\", \"ask\" or \"deny\")");
  assert_refused ("{\"rules\": [\n  {\"name\": \"a\", \"action\": \"deny\",\n   \"match\": {\"argv\": \"push (--force\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:3:22: bad regular expression in \"argv\": ");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"script\": \"a{2,1}\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:64: bad regular expression in \"script\": ");
  assert_refused ("{\"rules\": [{\"name\": 3, \"action\": \"deny\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:21: \"name\" must be a string, not a number");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\",\n \"match\": {\"program\": [\"ls\", true]}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:2:30: \"program\" entries must be strings, not a boolean");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"program\": \"[ab\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:65: bad glob \"[ab\" in \"program\": it has a '[' without its ']'");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"cwd\": \"sideways\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:61: unknown \"cwd\" value \"sideways\"");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"paths\": \"nearby\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:63: unknown \"paths\" value \"nearby\"");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"ask\", \"match\": {\"downloaded\": false}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:67: \"downloaded\" can only be true (leave it out to match any file)");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"ask\", \"match\": {\"downloaded\": \"yes\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:67: \"downloaded\" must be true, not a string");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"progam\": \"ls\"}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:54: unknown key \"progam\" in \"match\"");
  assert_refused ("{\"rules\": [\n  {\"name\": \"a\", \"action\": \"deny\"}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:2:3: the rule \"a\" has no \"match\"");
  assert_refused ("{\"rules\": [{\"action\": \"deny\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:12: the rule has no \"name\"");
  assert_refused ("{\"default\": \"maybe\"}", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:13: unknown default action \"maybe\"");
  assert_refused ("{\"version\": 2}", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:13: unsupported \"version\" (expected 1)");
  assert_refused ("{\"rules\": {}}", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:11: \"rules\" must be a list, not an object");
  assert_refused ("[1, 2]", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:1: a policy must be a JSON object, not an array");
  assert_refused ("", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:1: a policy must be a JSON object, not empty");
  /* Columns count characters, not bytes. */
  assert_refused ("{\"rules\": [{\"name\": \"héé\", \"action\": \"nope\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:38: unknown action \"nope\"");
  assert_refused ("{\n  \"default\": \"a\xff\"\n}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:2:16: the text is not valid UTF-8");
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"argv\": \"x\\udAA0ot\"}}]}",
                  PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:64: \"\\udaa0\" is half of a UTF-16 pair, alone");
  assert_refused ("{\"default\": \"\\udc00\\ud800\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:14: \"\\udc00\" is half of a UTF-16 pair, alone");
  assert_refused ("{\"default\": \"\\ud800\\u0041\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:14: \"\\ud800\" is half of a UTF-16 pair, alone");
  /* Escapes JSON does not have, which json-glib reads its own way. */
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"action\": \"deny\", \"match\": {\"program\": \"r\\155\"}}]}",
                  PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:67: \"\\1\" is not a JSON escape");
  assert_refused ("{\"default\": \"\\q\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:14: \"\\q\" is not a JSON escape");
  /* Found wherever it is, after a syntax error too (where json-glib leaked). */
  assert_refused ("{\"default\" \"x\",\n \"y\\u12\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:2:4: a \"\\u\" escape needs four hex digits");
  assert_refused ("{\"default\": \"\\u12\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:14: a \"\\u\" escape needs four hex digits");
  assert_refused ("{\"default\": \"\\ud800\\u12\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:20: a \"\\u\" escape needs four hex digits");
  assert_refused ("{\"default\": \"de\\u0000ny\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:16: \"\\u0000\", a NUL character, cannot be in a string");
  /* Escaped keys are found by what they say: the error is at the value. */
  assert_refused ("{\"rules\": [{\"n\\u0061me\": \"a\", \"\\u0061ction\": \"nope\", \"match\": {}}]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:46: unknown action \"nope\" in rule \"a\"");
  assert_refused ("{\"default\": \"deny\", \"\\ud83d\\ude80\": 1}", PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:1:21: unknown key \"\xf0\x9f\x9a\x80\" in the policy");
  assert_refused ("{\"\\udeproject\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:");
  assert_refused ("{\"rules\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
                  PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:42: JSON nested deeper than 32 levels");
  /* What JSON has no value for, json-glib named in GScanner's words ("digit
   * is beyond radix" for a '$'), or took (hex and octal numbers). */
  assert_refused ("{\"rules\": [{\"name\": \"a\", \"match\": {\"program\": $}}]}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:47: unexpected \"$\": a value is a \"string\", a number, true, false, null, "
                  "an object or a list");
  assert_refused ("{\"version\": 0x1}", PADDOCK_POLICY_ERROR_PARSE, "test.json:1:13: unexpected \"0x1\": ");
  assert_refused ("{\"version\": 01}", PADDOCK_POLICY_ERROR_PARSE, "test.json:1:13: unexpected \"01\": ");
  assert_refused ("{\"version\": +1}", PADDOCK_POLICY_ERROR_PARSE, "test.json:1:13: unexpected \"+1\": ");
  assert_refused ("{\"version\": 1.}", PADDOCK_POLICY_ERROR_PARSE, "test.json:1:13: unexpected \"1.\": ");
  assert_refused ("{\n  \"default\": tru\n}", PADDOCK_POLICY_ERROR_PARSE, "test.json:2:14: unexpected \"tru\": ");
  assert_refused ("{\"default\": dény}", PADDOCK_POLICY_ERROR_PARSE, "test.json:1:13: unexpected \"dény\": ");
  /* JSON's own numbers and words still read as JSON, and are judged as values. */
  assert_refused ("{\"version\": -1.5e+3}", PADDOCK_POLICY_ERROR_INVALID, "test.json:1:13: unsupported \"version\"");
  assert_refused ("{\"default\": null}", PADDOCK_POLICY_ERROR_INVALID, "test.json:1:13: \"default\" must be a string");
  /* Two policies in one file: json-glib alone would use one and drop the other. */
  assert_refused ("{\"default\": \"deny\"}\n/* more */ {\"default\": \"allow\"}\n", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:2:12: text after the policy's JSON object");
  assert_refused ("{\"default\": \"deny\"} x", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:21: text after the policy's JSON object");
  /* json-glib reads "/ … /" as a comment: what follows is still a second object. */
  assert_refused ("{\"default\": \"deny\"} // {\"default\": \"allow\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:24: text after the policy's JSON object");
  /* A slash and a star start no C comment there: the comment ends at the next slash. */
  assert_refused ("/*/1 {\"default\": \"deny\"}", PADDOCK_POLICY_ERROR_PARSE,
                  "test.json:1:6: text after the policy's JSON object");
}

static void
test_parse_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = NULL;
  g_autofree char *dir = g_dir_make_tmp ("paddock-policy-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "policy.json", NULL);
  g_autoptr(PaddockPolicyRule) rule = NULL;

  policy = paddock_policy_new_from_file (path, &error);
  g_assert_null (policy);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_true (strstr (error->message, path) != NULL);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "{\n  \"rules\": [\n    {\"name\": \"x\", \"action\": \"ask\", \"match\": {}}\n  ],\n  \"default\": 1\n}\n", -1, NULL));
  policy = paddock_policy_new_from_file (path, &error);
  g_assert_null (policy);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID);
  {
    g_autofree char *expected = g_strdup_printf ("%s:5:14: \"default\" must be a string, not a number", path);

    g_assert_cmpstr (error->message, ==, expected);
  }
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "{\n  \"rules\": [\n    {\"name\": \"x\", \"action\": \"ask\", \"match\": {}}\n  ]\n}\n", -1, NULL));
  policy = paddock_policy_new_from_file (path, &error);
  g_assert_no_error (error);
  rule = paddock_policy_get_rule (policy, 0);
  {
    g_autofree char *origin = g_strdup_printf ("%s:3:5", path);

    g_assert_cmpstr (paddock_policy_rule_get_origin (rule), ==, origin);
  }
  g_clear_pointer (&policy, paddock_policy_unref);

  /* A folder, a device and a kernel file are refused, named; /dev/zero
   * used to be read up to the size limit, /proc/kmsg waited for the
   * kernel's next message. A file too large is read only up to the limit
   * (it used to be read until memory ran out). */
  policy = paddock_policy_new_from_file (dir, &error);
  g_assert_null (policy);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_assert_nonnull (strstr (error->message, "it is a folder"));
  g_clear_error (&error);
  policy = paddock_policy_new_from_file ("/dev/zero", &error);
  g_assert_null (policy);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_cmpstr (error->message, ==, "cannot read the policy /dev/zero: it is a device (character 1:5)");
  g_clear_error (&error);
  policy = paddock_policy_new_from_file ("/proc/self/status", &error);
  g_assert_null (policy);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_cmpstr (error->message, ==, "cannot read the policy /proc/self/status: it is a kernel file (on /proc)");
  g_clear_error (&error);
  {
    int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, 17 * 1024 * 1024), ==, 0);
    close (fd);
  }
  policy = paddock_policy_new_from_file (path, &error);
  g_assert_null (policy);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message, ":1:1: the policy is larger than 16 MiB"));
  g_clear_error (&error);
  /* /dev/null is an empty policy, refused as one; it is no device to refuse. */
  policy = paddock_policy_new_from_file ("/dev/null", &error);
  g_assert_null (policy);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "/dev/null:1:1: a policy must be a JSON object, not empty");
  g_clear_error (&error);

  g_unlink (path);
  g_rmdir (dir);
}

typedef struct
{
  const char *cwd;
  guint       calls;
} CwdLookup;

static const char *
lookup_cwd (gpointer data)
{
  CwdLookup *lookup = data;

  lookup->calls++;
  return lookup->cwd;
}

/* A caller may hand the working directory over on demand: it is looked up
 * once, and only when a rule that could decide needs it. */
static void
test_cwd_on_demand (void)
{
  g_autoptr(PaddockPolicy) policy = parse_ok (
    "{\"default\": \"allow\", \"rules\": ["
    " {\"name\": \"make-outside\", \"match\": {\"program\": \"make\", \"cwd\": \"outside\"}, \"action\": \"ask\"},"
    " {\"name\": \"rm-outside\", \"match\": {\"program\": \"rm\", \"paths\": \"outside\"}, \"action\": \"deny\"}"
    "]}");
  const char * const make[] = { "make", NULL };
  const char * const rm_relative[] = { "rm", "-f", "x", NULL };
  const char * const rm_absolute[] = { "rm", "-f", PROJECT "/x", NULL };
  const char * const cc[] = { "cc", "-c", "x.c", NULL };
  struct { const char *exe; const char * const *argv; const char *cwd; guint calls; PaddockPolicyAction action; } cases[] = {
    { "/usr/bin/make", make, "/tmp", 1, PADDOCK_POLICY_ACTION_ASK },
    { "/usr/bin/make", make, PROJECT, 1, PADDOCK_POLICY_ACTION_ALLOW },
    /* Unknown counts as outside, as it does for a query's NULL cwd. */
    { "/usr/bin/make", make, NULL, 1, PADDOCK_POLICY_ACTION_ASK },
    { "/usr/bin/rm", rm_relative, "/tmp", 1, PADDOCK_POLICY_ACTION_DENY },
    { "/usr/bin/rm", rm_relative, PROJECT "/sub", 1, PADDOCK_POLICY_ACTION_ALLOW },
    { "/usr/bin/rm", rm_absolute, "/tmp", 0, PADDOCK_POLICY_ACTION_ALLOW },
    { "/usr/bin/cc", cc, "/tmp", 0, PADDOCK_POLICY_ACTION_ALLOW },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      CwdLookup lookup = { cases[i].cwd, 0 };
      PaddockPolicyQuery query = {
        .exe = cases[i].exe,
        .argv = cases[i].argv,
        .project = PROJECT,
        .cwd_func = lookup_cwd,
        .cwd_data = &lookup,
      };

      g_assert_cmpint (paddock_policy_evaluate (policy, &query, NULL), ==, cases[i].action);
      g_assert_cmpuint (lookup.calls, ==, cases[i].calls);
    }
}

static void
test_matcher (void)
{
  g_autoptr(PaddockPolicy) policy = parse_ok (
    "{\"default\": \"deny\", \"rules\": ["
    " {\"name\": \"ls\", \"match\": {\"program\": \"ls\"}, \"action\": \"allow\"},"
    " {\"name\": \"usr-local\", \"match\": {\"program\": \"/usr/local/bin/*\"}, \"action\": \"ask\"},"
    " {\"name\": \"py\", \"match\": {\"program\": \"python3.[0-9]*\"}, \"action\": \"allow\"},"
    " {\"name\": \"make-outside\", \"match\": {\"program\": \"make\", \"cwd\": \"outside\"}, \"action\": \"ask\"},"
    " {\"name\": \"make\", \"match\": {\"program\": \"make\", \"cwd\": \"inside\"}, \"action\": \"allow\"},"
    " {\"name\": \"cat-inside\", \"match\": {\"program\": \"cat\", \"paths\": \"inside\"}, \"action\": \"allow\"},"
    " {\"name\": \"bash-script\", \"match\": {\"script\": \"^exit [0-9]+$\"}, \"action\": \"allow\"}"
    "]}");
  g_autoptr(PaddockPolicyRule) rule = NULL;
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL, *r5 = NULL;
  g_autofree char *r6 = NULL, *r7 = NULL, *r8 = NULL, *r9 = NULL, *r10 = NULL, *r11 = NULL, *r12 = NULL;
  const char * const ls[] = { "ls", "-l", NULL };
  const char * const fake_ls[] = { "ls", "-rf", "/", NULL };
  const char * const login_ls[] = { "-ls", NULL };
  const char * const tool[] = { "tool", NULL };
  const char * const py[] = { "python3.11", "x.py", NULL };
  const char * const make[] = { "make", NULL };
  const char * const cat_in[] = { "cat", "a", PROJECT "/b", NULL };
  const char * const cat_out[] = { "cat", "a", "/etc/passwd", NULL };
  const char * const cat_none[] = { "cat", NULL };
  const char * const bash_exit[] = { "bash", "-c", "exit 3", NULL };
  const char * const bash_other[] = { "bash", "-c", "exit 3; rm x", NULL };
  PaddockPolicyAction action;

  r1 = decide_full (policy, PROJECT, "/usr/bin/ls", ls, &action);
  g_assert_cmpstr (r1, ==, "ls");
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_ALLOW);
  /* An allow rule needs every name to match: argv[0] "ls" on /usr/bin/rm is not ls. */
  r2 = decide_full (policy, PROJECT, "/usr/bin/rm", fake_ls, &action);
  g_assert_null (r2);
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_DENY);
  r3 = decide_full (policy, PROJECT, "/usr/bin/ls", login_ls, &action);
  g_assert_cmpstr (r3, ==, "ls");
  r4 = decide_full (policy, PROJECT, "/usr/local/bin/tool", tool, &action);
  g_assert_cmpstr (r4, ==, "usr-local");
  r5 = decide_full (policy, PROJECT, "/usr/local/bin/sub/tool", tool, &action);
  g_assert_null (r5);  /* '*' does not cross '/' in a path glob */
  r6 = decide_full (policy, PROJECT, "/usr/bin/python3.11", py, &action);
  g_assert_cmpstr (r6, ==, "py");
  r7 = decide_full (policy, "/tmp", "/usr/bin/make", make, &action);
  g_assert_cmpstr (r7, ==, "make-outside");
  r8 = decide_full (policy, PROJECT "/sub", "/usr/bin/make", make, &action);
  g_assert_cmpstr (r8, ==, "make");
  r9 = decide_full (policy, PROJECT, "/usr/bin/cat", cat_in, &action);
  g_assert_cmpstr (r9, ==, "cat-inside");
  r10 = decide_full (policy, PROJECT, "/usr/bin/cat", cat_out, &action);
  g_assert_null (r10);
  g_free (r10);
  r10 = decide_full (policy, PROJECT, "/usr/bin/cat", cat_none, &action);
  g_assert_null (r10);  /* "inside" needs at least one path */
  r11 = decide_full (policy, PROJECT, "/bin/bash", bash_exit, &action);
  g_assert_cmpstr (r11, ==, "bash-script");
  r12 = decide_full (policy, PROJECT, "/bin/bash", bash_other, &action);
  g_assert_null (r12);

  /* Unknown cwd and no project count as outside. */
  {
    PaddockPolicyQuery query = { "/usr/bin/make", make, NULL, PROJECT };

    g_assert_cmpint (paddock_policy_evaluate (policy, &query, &rule), ==, PADDOCK_POLICY_ACTION_ASK);
    g_assert_cmpstr (paddock_policy_rule_get_name (rule), ==, "make-outside");
    g_clear_pointer (&rule, paddock_policy_rule_unref);
    query = (PaddockPolicyQuery) { "/usr/bin/make", make, PROJECT, NULL };
    g_assert_cmpint (paddock_policy_evaluate (policy, &query, &rule), ==, PADDOCK_POLICY_ACTION_ASK);
    g_clear_pointer (&rule, paddock_policy_rule_unref);
  }
}

/* Escaped text in a rule means what it says: a name with a UTF-16 pair,
 * a program spelled with \u escapes. */
static void
test_escapes (void)
{
  g_autoptr(PaddockPolicy) policy = parse_ok (
    "{\"default\": \"deny\", \"rules\": [{\"name\": \"\\ud83d\\ude80\", \"action\": \"allow\","
    " \"match\": {\"program\": \"\\u0072m\"}}]}");
  const char * const rm[] = { "rm", "x", NULL };
  const char * const rn[] = { "rn", "x", NULL };
  g_autofree char *r1 = NULL, *r2 = NULL;
  PaddockPolicyAction action;

  r1 = decide_full (policy, PROJECT, NULL, rm, &action);
  g_assert_cmpstr (r1, ==, "\xf0\x9f\x9a\x80");
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_ALLOW);
  r2 = decide_full (policy, PROJECT, NULL, rn, &action);
  g_assert_null (r2);
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_DENY);
}

static void
test_explain (void)
{
  g_autoptr(PaddockPolicy) policy = paddock_policy_new_default ();
  const char * const push[] = { "git", "push", "--force", "origin", "main", NULL };
  const char * const rm[] = { "rm", "-rf", "build", NULL };
  PaddockPolicyQuery query = { "/usr/bin/git", push, PROJECT, PROJECT };
  g_autofree char *text = paddock_policy_explain (policy, &query);
  g_autofree char *text2 = NULL;

  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "decision: ask, by rule \"git-push-force\" (default-policy.json:"));
  g_assert_nonnull (strstr (text, "because: program \"git\" matches \"git\""));
  g_assert_nonnull (strstr (text, "because: argv \"git push --force origin main\" matches /"));
  g_assert_nonnull (strstr (text, "reason: Force-pushing"));

  query = (PaddockPolicyQuery) { "/usr/bin/rm", rm, PROJECT, PROJECT };
  text2 = paddock_policy_explain (policy, &query);
  g_test_message ("%s", text2);
  g_assert_nonnull (strstr (text2, "decision: allow, by the policy's default (no rule matches)"));
  g_assert_nonnull (strstr (text2, "\"rm-recursive-outside-project\""));
  g_assert_nonnull (strstr (text2, "paths: no path argument is outside the project"));
  g_assert_null (strstr (text2, "\ncwd: "));

  /* Run elsewhere, the same command deletes outside the project; explain
   * says where it runs. */
  {
    g_autofree char *text3 = NULL;

    query = (PaddockPolicyQuery) { "/usr/bin/rm", rm, "/etc", PROJECT };
    text3 = paddock_policy_explain (policy, &query);
    g_test_message ("%s", text3);
    g_assert_nonnull (strstr (text3, "\ncwd: \"/etc\"\n"));
    g_assert_nonnull (strstr (text3, "decision: ask, by rule \"rm-recursive-outside-project\""));
    /* And which argument decided it. */
    g_assert_nonnull (strstr (text3, "because: paths: a path argument is outside the project: \"build\"\n"));
  }
}

/* PCRE's UTF mode on command lines that need not be UTF-8 is undefined
 * behaviour (GLib skips PCRE's check for a raw pattern): refused, however
 * the pattern turns it on. It matched "ls a\xffb" as if it were text. */
static void
test_utf_mode_refused (void)
{
  const char *patterns[] = { "(*UTF)a", "(*UTF8)a", "(*LIMIT_MATCH=9)(*UTF)a", "(*CR)(*UTF8)x" };

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"rules\": [{\"name\": \"x\", \"action\": \"allow\", "
                                               "\"match\": {\"program\": \"ls\", \"argv\": \"%s\"}}]}",
                                               patterns[i]);

      assert_refused (text, PADDOCK_POLICY_ERROR_INVALID, "test.json:1:80: bad regular expression in \"argv\": "
                      "(*UTF) is not allowed");
    }
  /* Other leading settings, and (*UTF) later in a pattern (PCRE refuses
   * it there itself), are left to PCRE. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockPolicy) policy =
      paddock_policy_new_from_data ("{\"rules\": [{\"name\": \"x\", \"action\": \"deny\", "
                                    "\"match\": {\"program\": \"ls\", \"argv\": \"(*LIMIT_MATCH=9)a\"}}]}",
                                    -1, "test.json", &error);

    g_assert_no_error (error);
    g_assert_nonnull (policy);
  }
}

/* A rule's name and reason go with each exec and ask it decides, to
 * every client and into the log: a reason of megabytes made each ask
 * longer than a client reads, so none could be answered. */
static void
test_name_and_reason_bounds (void)
{
  g_autofree char *name_ok = g_strnfill (128, 'n');
  g_autofree char *name_long = g_strnfill (129, 'n');
  g_autofree char *reason_ok = g_strnfill (4096, 'r');
  g_autofree char *reason_long = g_strnfill (4097, 'r');
#define BOUNDS_POLICY "{\"rules\": [{\"name\": \"%s\", \"action\": \"ask\", \"reason\": \"%s\", " \
                      "\"match\": {\"program\": \"ls\"}}]}"

  {
    g_autofree char *text = g_strdup_printf (BOUNDS_POLICY, name_ok, reason_ok);
    g_autoptr(GError) error = NULL;
    g_autoptr(PaddockPolicy) policy = paddock_policy_new_from_data (text, -1, "test.json", &error);

    g_assert_no_error (error);
    g_assert_nonnull (policy);
  }
  {
    g_autofree char *text = g_strdup_printf (BOUNDS_POLICY, name_long, reason_ok);

    assert_refused (text, PADDOCK_POLICY_ERROR_INVALID,
                    "test.json:1:21: the rule's \"name\" is 129 bytes long; at most 128");
  }
  {
    g_autofree char *text = g_strdup_printf (BOUNDS_POLICY, name_ok, reason_long);

    assert_refused (text, PADDOCK_POLICY_ERROR_INVALID,
                    "test.json:1:180: the rule's \"reason\" is 4097 bytes long; at most 4096");
  }
#undef BOUNDS_POLICY
}

/* Two rules of one file may not share a name: a record names the rule
 * that decided. The refusal points at the second, and names the first. */
static void
test_duplicate_names (void)
{
  assert_refused ("{\"rules\": [\n"
                  "  {\"name\": \"a\", \"action\": \"deny\", \"match\": {\"program\": \"ls\"}},\n"
                  "  {\"name\": \"a\", \"action\": \"ask\", \"match\": {\"program\": \"cat\"}}\n"
                  "]}",
                  PADDOCK_POLICY_ERROR_INVALID,
                  "test.json:3:12: the rule name \"a\" is taken by the rule at 2:12; each rule needs its own");

  /* Remembered rules are named for their program and command line: the
   * same arguments to another program are another rule, which must not
   * take (and, remembered in a project, replace) the first one's name. */
  {
    const char * const argv[] = { "git", "push", "--force", NULL };
    PaddockPolicyQuery usr = { "/usr/bin/git", argv, PROJECT, PROJECT };
    PaddockPolicyQuery opt = { "/opt/git/bin/git", argv, PROJECT, PROJECT };
    g_autoptr(PaddockPolicyRule) a = paddock_policy_rule_new_remembered (&usr, PADDOCK_POLICY_ACTION_ALLOW,
                                                                         PADDOCK_POLICY_SCOPE_PROJECT, NULL);
    g_autoptr(PaddockPolicyRule) b = paddock_policy_rule_new_remembered (&opt, PADDOCK_POLICY_ACTION_ALLOW,
                                                                         PADDOCK_POLICY_SCOPE_PROJECT, NULL);
    g_autoptr(PaddockPolicyRule) again = paddock_policy_rule_new_remembered (&usr, PADDOCK_POLICY_ACTION_DENY,
                                                                             PADDOCK_POLICY_SCOPE_PROJECT, NULL);

    g_assert_cmpstr (paddock_policy_rule_get_name (a), !=, paddock_policy_rule_get_name (b));
    g_assert_cmpstr (paddock_policy_rule_get_name (a), ==, paddock_policy_rule_get_name (again));
  }
}

static void
test_remember_too_long (void)
{
  g_autofree char *long_arg = g_strnfill (100 * 1024, 'a');
  g_autofree char *fits_arg = g_strnfill (1024, 'a');
  const char * const long_argv[] = { "touch", long_arg, NULL };
  const char * const fits_argv[] = { "touch", fits_arg, NULL };
  PaddockPolicyQuery query = { "/usr/bin/touch", long_argv, PROJECT, PROJECT };
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicyRule) rule = NULL;

  rule = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_ALLOW, PADDOCK_POLICY_SCOPE_SESSION, &error);
  g_assert_null (rule);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "its command line (102406 bytes) is too long for a rule: "));

  g_clear_error (&error);
  query.argv = fits_argv;
  rule = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_ALLOW, PADDOCK_POLICY_SCOPE_SESSION, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rule);
}

/* A regex that hits PCRE's match limit (here: 28 "a"s and a "b" against
 * nested alternatives) never makes the policy more permissive: a deny
 * rule holds, an allow rule does not, and explain says it gave up rather
 * than that it matched. */
static void
test_regex_limit (void)
{
  const char *text =
    "{\"default\": \"ask\", \"rules\": [\n"
    "  {\"name\": \"deny-a\", \"match\": {\"program\": \"deny-me\", \"argv\": \"^\\\\S+ (a|a)+$\"}, \"action\": \"deny\"},\n"
    "  {\"name\": \"allow-a\", \"match\": {\"program\": \"allow-me\", \"argv\": \"^\\\\S+ (a|a)+$\"}, \"action\": \"allow\"}\n"
    "]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockPolicy) policy = paddock_policy_new_from_data (text, -1, "limit.json", &error);
  g_autofree char *as = g_strnfill (28, 'a');
  g_autofree char *arg = g_strconcat (as, "b", NULL);
  const char * const deny_me[] = { "deny-me", arg, NULL };
  const char * const allow_me[] = { "allow-me", arg, NULL };
  PaddockPolicyQuery query = { "/usr/bin/deny-me", deny_me, PROJECT, PROJECT };
  g_autoptr(PaddockPolicyRule) rule = NULL;
  g_autofree char *denied = NULL;
  g_autofree char *not_allowed = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (paddock_policy_evaluate (policy, &query, &rule), ==, PADDOCK_POLICY_ACTION_DENY);
  denied = paddock_policy_explain (policy, &query);
  g_test_message ("%s", denied);
  g_assert_nonnull (strstr (denied, "could not be matched against /^\\S+ (a|a)+$/ (it hit PCRE's match limit), "
                                    "which an ask or deny rule counts as a match"));

  g_clear_pointer (&rule, paddock_policy_rule_unref);
  query = (PaddockPolicyQuery) { "/usr/bin/allow-me", allow_me, PROJECT, PROJECT };
  g_assert_cmpint (paddock_policy_evaluate (policy, &query, &rule), ==, PADDOCK_POLICY_ACTION_ASK);
  not_allowed = paddock_policy_explain (policy, &query);
  g_test_message ("%s", not_allowed);
  g_assert_nonnull (strstr (not_allowed, "which an allow rule counts as no match"));
}

/* Rules that name their program outright are looked up by name; the others
 * are tried for every command. Either way the first rule in the policy's
 * order that matches decides. */
static void
test_first_match_order (void)
{
  g_autoptr(PaddockPolicy) policy = parse_ok (
    "{\"default\": \"allow\", \"rules\": ["
    " {\"name\": \"glob-first\", \"match\": {\"program\": \"ma*\", \"argv\": \"--glob\"}, \"action\": \"deny\"},"
    " {\"name\": \"literal\", \"match\": {\"program\": [\"cc\", \"make\"], \"argv\": \"--lit\"}, \"action\": \"ask\"},"
    " {\"name\": \"any-program\", \"match\": {\"argv\": \"--(?:any|lit)\"}, \"action\": \"deny\"},"
    " {\"name\": \"literal-late\", \"match\": {\"program\": \"make\"}, \"action\": \"ask\"}"
    "]}");
  const struct { const char *command; const char *rule; } cases[] = {
    { "make --glob", "glob-first" },
    { "make --lit --glob", "glob-first" },
    { "make --lit", "literal" },
    { "cc --lit", "literal" },
    { "cc --any", "any-program" },
    { "make --any", "any-program" },
    { "ls --lit", "any-program" },
    { "make", "literal-late" },
    { "mask --glob", "glob-first" },
    { "ls", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rule = decide (policy, NULL, PROJECT, cases[i].command);

      if (g_strcmp0 (rule, cases[i].rule) != 0)
        g_error ("%s: decided by %s, expected %s", cases[i].command, rule, cases[i].rule);
    }

  /* A rule put first (a remembered decision) comes first. */
  {
    g_autoptr(PaddockPolicy) first = parse_ok (
      "{\"rules\": [{\"name\": \"mine\", \"match\": {\"program\": \"make\"}, \"action\": \"allow\"}]}");
    g_autofree char *rule = NULL;

    paddock_policy_set_project_overrides (policy, first);
    rule = decide (policy, NULL, PROJECT, "make --glob");
    g_assert_cmpstr (rule, ==, "mine");
  }
}

static void
test_merge_and_remember (void)
{
  g_autoptr(PaddockPolicy) policy = paddock_policy_new_default ();
  g_autoptr(PaddockPolicy) overrides = parse_ok (
    "{\"default\": \"ask\", \"rules\": [{\"name\": \"my-push\", \"match\": {\"program\": \"git\", \"argv\": \"push --force origin scratch$\"}, \"action\": \"allow\"}]}");
  const char * const scratch[] = { "git", "push", "--force", "origin", "scratch", NULL };
  const char * const other[] = { "git", "push", "--force", "origin", "main", NULL };
  const char * const unknown[] = { "frob", NULL };
  const char * const rsync[] = { "rsync", "-a", "x", "host:y", NULL };
  const char * const rsync2[] = { "rsync", "-a", "x", "host:z", NULL };
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL, *r5 = NULL, *r6 = NULL;
  g_autoptr(PaddockPolicyRule) remembered = NULL;
  PaddockPolicyAction action;
  PaddockPolicyQuery query = { "/usr/bin/rsync", rsync, PROJECT, PROJECT };

  paddock_policy_set_project_overrides (policy, overrides);
  r1 = decide_full (policy, PROJECT, NULL, scratch, &action);
  g_assert_cmpstr (r1, ==, "my-push");
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_ALLOW);
  r2 = decide_full (policy, PROJECT, NULL, other, &action);
  g_assert_cmpstr (r2, ==, "git-push-force");
  r3 = decide_full (policy, PROJECT, NULL, unknown, &action);
  g_assert_null (r3);
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_ASK);

  remembered = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_ALLOW, PADDOCK_POLICY_SCOPE_SESSION, NULL);
  g_assert_cmpint (paddock_policy_rule_get_scope (remembered), ==, PADDOCK_POLICY_SCOPE_SESSION);
  g_assert_true (g_str_has_prefix (paddock_policy_rule_get_name (remembered), "remembered-"));
  paddock_policy_prepend_rule (policy, remembered);
  r4 = decide_full (policy, PROJECT, "/usr/bin/rsync", rsync, &action);
  g_assert_cmpstr (r4, ==, paddock_policy_rule_get_name (remembered));
  g_assert_cmpint (action, ==, PADDOCK_POLICY_ACTION_ALLOW);
  /* Exactly that command: another destination still asks, and so does another rsync binary. */
  r5 = decide_full (policy, PROJECT, "/usr/bin/rsync", rsync2, &action);
  g_assert_cmpstr (r5, ==, "remote-copy");
  r6 = decide_full (policy, PROJECT, "/tmp/rsync", rsync, &action);
  g_assert_cmpstr (r6, ==, "remote-copy");
}

static void
test_remembered_round_trip (void)
{
  const char * const argv[] = { "tool", "a b", "c*[d]", "\xff\x01", "$x", NULL };
  PaddockPolicyQuery query = { "/opt/to[o]l/bin/tool*", argv, PROJECT, PROJECT };
  g_autoptr(PaddockPolicyRule) rule = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_DENY,
                                                                          PADDOCK_POLICY_SCOPE_PROJECT, NULL);
  g_autoptr(PaddockPolicy) policy = paddock_policy_new ();
  g_autoptr(PaddockPolicy) reread = NULL;
  g_autoptr(PaddockPolicyRule) decided = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  const char * const near[] = { "tool", "a b", "c*[d]", "\xff\x02", "$x", NULL };
  PaddockPolicyQuery near_query = { "/opt/to[o]l/bin/tool*", near, PROJECT, PROJECT };

  paddock_policy_prepend_rule (policy, rule);
  data = paddock_policy_to_data (policy, NULL);
  g_assert_true (g_utf8_validate (data, -1, NULL));
  reread = paddock_policy_new_from_data (data, -1, "saved.json", &error);
  g_assert_no_error (error);
  g_assert_cmpint (paddock_policy_evaluate (reread, &query, &decided), ==, PADDOCK_POLICY_ACTION_DENY);
  g_assert_nonnull (decided);
  g_clear_pointer (&decided, paddock_policy_rule_unref);
  g_assert_cmpint (paddock_policy_evaluate (reread, &near_query, &decided), ==, PADDOCK_POLICY_ACTION_ALLOW);
  g_assert_null (decided);
}

static void
test_project_overrides (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project = g_dir_make_tmp ("paddock-project-XXXXXX", NULL);
  g_autofree char *other = g_dir_make_tmp ("paddock-project-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree char *other_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(PaddockPolicy) overrides = NULL;
  g_autoptr(PaddockPolicyRule) rule = NULL;
  const char * const argv[] = { "git", "push", "--force", NULL };
  PaddockPolicyQuery query = { "/usr/bin/git", argv, project, project };
  struct stat st;

  path = paddock_policy_project_file (project, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (path, g_get_user_config_dir ()));
  g_assert_false (g_str_has_prefix (path, project));
  other_path = paddock_policy_project_file (other, &error);
  g_assert_cmpstr (path, !=, other_path);

  overrides = paddock_policy_load_project (project, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (paddock_policy_get_n_rules (overrides), ==, 0);
  g_clear_pointer (&overrides, paddock_policy_unref);

  rule = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_ALLOW, PADDOCK_POLICY_SCOPE_PROJECT, NULL);
  g_assert_true (paddock_policy_remember_in_project (project, rule, &error));
  g_assert_no_error (error);
  /* The same command remembered again replaces its rule: a file that
   * held the name twice would not load. */
  g_assert_true (paddock_policy_remember_in_project (project, rule, &error));

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  dir = g_path_get_dirname (path);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, project));

  overrides = paddock_policy_load_project (project, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (paddock_policy_get_n_rules (overrides), ==, 1);
  {
    g_autoptr(PaddockPolicyRule) loaded = paddock_policy_get_rule (overrides, 0);

    g_assert_cmpint (paddock_policy_rule_get_scope (loaded), ==, PADDOCK_POLICY_SCOPE_PROJECT);
    g_assert_cmpint (paddock_policy_evaluate (overrides, &query, NULL), ==, PADDOCK_POLICY_ACTION_ALLOW);
  }
  g_clear_pointer (&overrides, paddock_policy_unref);

  /* The file read again takes the place of the project's rules a session
   * has, and of the answers it remembered for the project meanwhile; the
   * answers remembered for the session stay first, the policy's rules
   * after them. A file with a default action sets it, and one without
   * gives the policy its own back. */
  {
    g_autoptr(PaddockPolicy) policy = paddock_policy_new_default ();
    g_autoptr(PaddockPolicy) first = paddock_policy_load_project (project, &error);
    g_autoptr(PaddockPolicy) again = NULL;
    g_autoptr(PaddockPolicyRule) session_rule = NULL;
    g_autoptr(PaddockPolicyRule) project_rule = NULL;
    g_autoptr(PaddockPolicyRule) decided = NULL;
    g_autofree char *with_default = NULL;
    const char * const ls[] = { "ls", "-l", NULL };
    const char * const unknown[] = { "frob", NULL };
    PaddockPolicyQuery ls_query = { "/usr/bin/ls", ls, project, project };
    PaddockPolicyQuery unknown_query = { "/usr/bin/frob", unknown, project, project };
    guint n_policy = paddock_policy_get_n_rules (policy);

    g_assert_no_error (error);
    paddock_policy_set_project_overrides (policy, first);
    session_rule = paddock_policy_rule_new_remembered (&ls_query, PADDOCK_POLICY_ACTION_DENY,
                                                       PADDOCK_POLICY_SCOPE_SESSION, NULL);
    project_rule = paddock_policy_rule_new_remembered (&unknown_query, PADDOCK_POLICY_ACTION_DENY,
                                                       PADDOCK_POLICY_SCOPE_PROJECT, NULL);
    paddock_policy_prepend_rule (policy, session_rule);
    paddock_policy_prepend_rule (policy, project_rule);
    g_assert_cmpuint (paddock_policy_get_n_rules (policy), ==, n_policy + 3);

    with_default = g_strdup_printf ("{\"project\": \"%s\", \"default\": \"ask\", \"rules\": []}", project);
    g_assert_true (g_file_set_contents (path, with_default, -1, NULL));
    again = paddock_policy_load_project (project, &error);
    g_assert_no_error (error);
    paddock_policy_set_project_overrides (policy, again);
    g_assert_cmpuint (paddock_policy_get_n_rules (policy), ==, n_policy + 1);
    g_assert_cmpint (paddock_policy_evaluate (policy, &ls_query, &decided), ==, PADDOCK_POLICY_ACTION_DENY);
    g_assert_true (decided == session_rule);
    g_clear_pointer (&decided, paddock_policy_rule_unref);
    g_assert_cmpint (paddock_policy_evaluate (policy, &query, NULL), ==, PADDOCK_POLICY_ACTION_ASK);
    g_assert_cmpint (paddock_policy_evaluate (policy, &unknown_query, &decided), ==, PADDOCK_POLICY_ACTION_ASK);
    g_assert_null (decided);

    g_clear_pointer (&again, paddock_policy_unref);
    g_assert_true (g_file_set_contents (path, contents, -1, NULL));
    again = paddock_policy_load_project (project, &error);
    g_assert_no_error (error);
    paddock_policy_set_project_overrides (policy, again);
    g_assert_cmpuint (paddock_policy_get_n_rules (policy), ==, n_policy + 2);
    g_assert_cmpint (paddock_policy_evaluate (policy, &query, NULL), ==, PADDOCK_POLICY_ACTION_ALLOW);
    g_assert_cmpint (paddock_policy_evaluate (policy, &unknown_query, NULL), ==, PADDOCK_POLICY_ACTION_ALLOW);
    {
      g_autoptr(PaddockPolicyRule) at_first = paddock_policy_get_rule (policy, 0);
      g_autoptr(PaddockPolicyRule) at_third = paddock_policy_get_rule (policy, 2);

      g_assert_true (at_first == session_rule);
      g_assert_cmpint (paddock_policy_rule_get_scope (at_third), ==, PADDOCK_POLICY_SCOPE_POLICY);
    }
  }

  /* A file copied over from another project is refused, not applied. */
  g_assert_true (g_file_set_contents (other_path, contents, -1, NULL));
  overrides = paddock_policy_load_project (other, &error);
  g_assert_null (overrides);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PROJECT);
  g_clear_error (&error);

  /* A broken file is refused at its line and column, and the refusal says
   * whose file it is: its name, a digest, does not. */
  g_assert_true (g_file_set_contents (other_path, "{\"version\": 1, \"rules\": [", -1, NULL));
  overrides = paddock_policy_load_project (other, &error);
  g_assert_null (overrides);
  g_assert_error (error, PADDOCK_POLICY_ERROR, PADDOCK_POLICY_ERROR_PARSE);
  {
    g_autofree char *at = g_strdup_printf ("%s:1:", other_path);
    g_autofree char *whose = g_strdup_printf (" (the file holds the project %s's own rules and remembered answers: "
                                              "mend it, or remove it to start them over)", other);

    g_assert_true (g_str_has_prefix (error->message, at));
    g_assert_true (g_str_has_suffix (error->message, whose));
  }
  g_clear_error (&error);

  g_unlink (other_path);
  g_unlink (path);
  {
    g_autofree char *lock = g_strconcat (path, ".lock", NULL);

    g_unlink (lock);
  }
  g_rmdir (project);
  g_rmdir (other);
}

typedef struct
{
  PaddockPolicy *policy;
  guint          n_wrong;
} ThreadData;

static gpointer
evaluate_thread (gpointer user_data)
{
  ThreadData *data = user_data;
  const char * const push[] = { "git", "push", "--force", NULL };
  const char * const ls[] = { "ls", NULL };
  PaddockPolicyQuery q1 = { "/usr/bin/git", push, PROJECT, PROJECT };
  PaddockPolicyQuery q2 = { "/usr/bin/ls", ls, PROJECT, PROJECT };

  for (guint i = 0; i < 20000; i++)
    {
      if (paddock_policy_evaluate (data->policy, &q1, NULL) != PADDOCK_POLICY_ACTION_ASK)
        g_atomic_int_inc (&data->n_wrong);
      if (paddock_policy_evaluate (data->policy, &q2, NULL) != PADDOCK_POLICY_ACTION_ALLOW)
        g_atomic_int_inc (&data->n_wrong);
    }
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr(PaddockPolicy) policy = paddock_policy_new_default ();
  ThreadData data = { policy, 0 };
  GThread *threads[4];
  const char * const other[] = { "unrelated", NULL };
  PaddockPolicyQuery query = { "/usr/bin/unrelated", other, PROJECT, PROJECT };
  gint64 start, elapsed;
  const char * const push[] = { "git", "push", "origin", "main", NULL };
  PaddockPolicyQuery timed = { "/usr/bin/git", push, PROJECT, PROJECT };

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("evaluate", evaluate_thread, &data);
  /* Rules arrive while the others evaluate. */
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(PaddockPolicyRule) rule = paddock_policy_rule_new_remembered (&query, PADDOCK_POLICY_ACTION_DENY,
                                                                              PADDOCK_POLICY_SCOPE_SESSION, NULL);

      paddock_policy_prepend_rule (policy, rule);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (data.n_wrong, ==, 0);
  g_assert_cmpint (paddock_policy_evaluate (policy, &query, NULL), ==, PADDOCK_POLICY_ACTION_DENY);

  /* Not asserted on (the machine is shared): how long one decision takes. */
  g_clear_pointer (&policy, paddock_policy_unref);
  policy = paddock_policy_new_default ();
  start = g_get_monotonic_time ();
  for (guint i = 0; i < 20000; i++)
    paddock_policy_evaluate (policy, &timed, NULL);
  elapsed = g_get_monotonic_time () - start;
  g_test_message ("default policy, `git push origin main`: %.2f µs per decision", elapsed / 20000.0);
}

int
main (int   argc,
      char *argv[])
{
  char *home = test_home_new ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/policy/parse-errors", test_parse_errors);
  g_test_add_func ("/paddock/policy/parse-file", test_parse_file);
  g_test_add_func ("/paddock/policy/matcher", test_matcher);
  g_test_add_func ("/paddock/policy/escapes", test_escapes);
  g_test_add_func ("/paddock/policy/explain", test_explain);
  g_test_add_func ("/paddock/policy/regex-limit", test_regex_limit);
  g_test_add_func ("/paddock/policy/first-match-order", test_first_match_order);
  g_test_add_func ("/paddock/policy/cwd-on-demand", test_cwd_on_demand);
  g_test_add_func ("/paddock/policy/merge-and-remember", test_merge_and_remember);
  g_test_add_func ("/paddock/policy/remember-too-long", test_remember_too_long);
  g_test_add_func ("/paddock/policy/duplicate-names", test_duplicate_names);
  g_test_add_func ("/paddock/policy/name-and-reason-bounds", test_name_and_reason_bounds);
  g_test_add_func ("/paddock/policy/utf-mode-refused", test_utf_mode_refused);
  g_test_add_func ("/paddock/policy/remembered-round-trip", test_remembered_round_trip);
  g_test_add_func ("/paddock/policy/project-overrides", test_project_overrides);
  g_test_add_func ("/paddock/policy/threads", test_threads);

  status = g_test_run ();
  test_home_remove (home);
  return status;
}
