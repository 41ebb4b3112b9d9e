/* test-vault-request.c: the vault socket's request line, as paddock-secret writes it and paddock-run reads it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-vault-request.h"

#include <signal.h>
#include <string.h>

static PaddockVaultRequest *
parse (const char  *line,
       GError     **error)
{
  return paddock_vault_request_parse (line, strlen (line), error);
}

/* What paddock-secret writes, paddock-run reads back whole. */
static void
test_round_trip (void)
{
  g_autoptr(PaddockVaultRequest) request = paddock_vault_request_new (PADDOCK_VAULT_REQUEST_RUN);
  g_autoptr(PaddockVaultRequest) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const char *argv[] = { "gh", "pr", "list", "--json", "title\nwith\ttabs", NULL };
  const char *environ[] = { "PATH=/usr/bin", "HOME=/home/me", "ODD=\x01", NULL };

  g_strfreev (request->argv);
  request->argv = g_strdupv ((char **) argv);
  g_strfreev (request->environ);
  request->environ = g_strdupv ((char **) environ);
  g_strfreev (request->env_vars);
  request->env_vars = g_strsplit ("GH_TOKEN,OTHER", ",", -1);
  g_strfreev (request->env_names);
  request->env_names = g_strsplit ("gh,other.name", ",", -1);
  request->stdin_name = g_strdup ("registry");
  request->tty = TRUE;
  request->tty_input = TRUE;

  line = paddock_vault_request_to_line (request);
  g_assert_true (g_str_has_suffix (line, "\n"));
  g_assert_null (memchr (line, '\n', strlen (line) - 1));
  back = paddock_vault_request_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->type, ==, PADDOCK_VAULT_REQUEST_RUN);
  g_assert_true (g_strv_equal ((const char * const *) back->argv, argv));
  g_assert_true (g_strv_equal ((const char * const *) back->environ, environ));
  g_assert_cmpstr (back->env_vars[1], ==, "OTHER");
  g_assert_cmpstr (back->env_names[1], ==, "other.name");
  g_assert_null (back->env_vars[2]);
  g_assert_cmpstr (back->stdin_name, ==, "registry");
  g_assert_true (back->tty);
  g_assert_true (back->tty_input);
}

static void
test_list (void)
{
  g_autoptr(PaddockVaultRequest) request = paddock_vault_request_new (PADDOCK_VAULT_REQUEST_LIST);
  g_autoptr(PaddockVaultRequest) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = paddock_vault_request_to_line (request);

  back = paddock_vault_request_parse (line, strlen (line) - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->type, ==, PADDOCK_VAULT_REQUEST_LIST);
  g_clear_pointer (&back, paddock_vault_request_free);
  back = parse ("{\"type\":\"list\",\"argv\":[]}", &error);
  g_assert_null (back);
  g_assert_nonnull (strstr (error->message, "argv"));
}

/* Each malformed request is refused with an error that names what is
 * wrong with it. */
static void
test_malformed (void)
{
  static const struct
  {
    const char *line;
    const char *says;
  } cases[] = {
    { "", "JSON" },
    { "not json", "not JSON" },
    { "[1,2]", "not a JSON object" },
    { "{\"type\":\"run\"}", "argv" },
    { "{\"type\":\"steal\"}", "“type”" },
    { "{\"argv\":[\"x\"]}", "“type”" },
    { "{\"type\":\"run\",\"argv\":[],\"environ\":[],\"env\":[{\"var\":\"T\",\"name\":\"gh\"}]}", "no program" },
    { "{\"type\":\"run\",\"argv\":[\"\"],\"environ\":[],\"env\":[{\"var\":\"T\",\"name\":\"gh\"}]}", "no program" },
    { "{\"type\":\"run\",\"argv\":[1],\"environ\":[]}", "argv" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[]}", "no secret named" },
    { "{\"type\":\"run\",\"argv\":[\"x\"]}", "environ" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"env\":[{\"var\":\"1X\",\"name\":\"gh\"}]}",
      "environment variable" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"env\":[{\"var\":\"A=B\",\"name\":\"gh\"}]}",
      "environment variable" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"env\":[{\"var\":\"T\",\"name\":\"a\"},"
      "{\"var\":\"T\",\"name\":\"b\"}]}", "T is given twice" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"env\":[{\"var\":\"T\"}]}", "“env”" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"env\":[{\"var\":\"T\",\"name\":\"gh\",\"value\":\"v\"}]}",
      "unknown field “value”" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"stdin\":3}", "“stdin”" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"stdin\":\"gh\",\"tty\":\"yes\"}", "“tty”" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"stdin\":\"gh\",\"tty_input\":true}", "goes with" },
    { "{\"type\":\"run\",\"argv\":[\"x\"],\"environ\":[],\"stdin\":\"gh\",\"extra\":1}", "unknown field “extra”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PaddockVaultRequest) request = parse (cases[i].line, &error);

      g_test_message ("%s → %s", cases[i].line, error != NULL ? error->message : "(parsed)");
      g_assert_null (request);
      g_assert_error (error, PADDOCK_VAULT_REQUEST_ERROR, 0);
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }

  /* A NUL byte inside the line. */
  {
    g_autoptr(GError) error = NULL;
    const char line[] = "{\"type\":\"list\"}\0";

    g_assert_null (paddock_vault_request_parse (line, sizeof line - 1, &error));
    g_assert_nonnull (strstr (error->message, "NUL"));
  }
}

static int
parse_signal (const char  *line,
              GError     **error)
{
  return paddock_vault_request_parse_signal (line, strlen (line), error);
}

/* Signals: those a person sends a program pass; others are refused. */
static void
test_signal_lines (void)
{
  g_autofree char *line = paddock_vault_signal_to_line (SIGINT);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (paddock_vault_request_parse_signal (line, strlen (line) - 1, &error), ==, SIGINT);
  g_assert_no_error (error);
  g_assert_cmpint (parse_signal ("{\"type\":\"signal\",\"signal\":5}", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "signal 5"));
  g_clear_error (&error);
  g_assert_cmpint (parse_signal ("{\"type\":\"signal\",\"signal\":\"9\"}", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "number"));
  g_clear_error (&error);
  g_assert_cmpint (parse_signal ("{\"type\":\"run\"}", &error), ==, -1);
  g_assert_nonnull (strstr (error->message, "“type”"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/vault-request/round-trip", test_round_trip);
  g_test_add_func ("/paddock/vault-request/list", test_list);
  g_test_add_func ("/paddock/vault-request/malformed", test_malformed);
  g_test_add_func ("/paddock/vault-request/signal-lines", test_signal_lines);
  return g_test_run ();
}
