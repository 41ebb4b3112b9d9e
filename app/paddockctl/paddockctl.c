/* paddockctl.c: watch and steer paddock-run sessions; check policies; read audit logs
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The usage, the dispatcher, and the few helpers every command group
 * shares (paddockctl-private.h); the commands are in paddockctl-GROUP.c.
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-autofd.h"
#include "paddock-escape.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

/* Every command: its words, its code, its usage and its help. The usage
 * on a mistake, `paddockctl --help` and each command's --help are all
 * made from here, so a command is described once. */
const PaddockctlCommand paddockctl_commands[] = {
  { "list", paddockctl_builtin_list, FALSE, "",
    /* TRANSLATORS: paddockctl's help for "paddockctl list" */
    N_("List the sessions running now, with their projects and locks") },
  { "attach", paddockctl_builtin_attach, TRUE,
    "SESSION [--watch | --answer allow|deny [--remember once|session|project]] [--verbose]",
    /* TRANSLATORS: paddockctl's help for "paddockctl attach" */
    N_("Follow a session's commands and connections, and answer its asks") },
  { "kill", paddockctl_builtin_kill, FALSE, "SESSION",
    /* TRANSLATORS: paddockctl's help for "paddockctl kill" */
    N_("End a session's agent and every program it started") },
  { "pause", paddockctl_builtin_pause, FALSE, "SESSION",
    /* TRANSLATORS: paddockctl's help for "paddockctl pause" */
    N_("Stop a session's programs until it is resumed") },
  { "resume", paddockctl_builtin_resume, FALSE, "SESSION",
    /* TRANSLATORS: paddockctl's help for "paddockctl resume" */
    N_("Let a paused session's programs go on") },
  { "policy check", paddockctl_builtin_policy_check, FALSE, "FILE",
    /* TRANSLATORS: paddockctl's help for "paddockctl policy check" */
    N_("Check a policy file and say what is wrong in it") },
  { "policy explain", paddockctl_builtin_policy_explain, TRUE,
    "[--policy FILE] [--project DIR] [--cwd DIR] [--piped-from LINE]\n"
    "                            [--downloaded FILE…] -- COMMAND [ARG…]",
    /* TRANSLATORS: paddockctl's help for "paddockctl policy explain" */
    N_("Say what the policy decides for a command, and why") },
  { "policy project", paddockctl_builtin_policy_project, TRUE, "[--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl policy project" */
    N_("List the rules remembered for a project") },
  { "policy forget", paddockctl_builtin_policy_forget, TRUE, "[--project DIR] --all|NAME…",
    /* TRANSLATORS: paddockctl's help for "paddockctl policy forget" */
    N_("Forget rules remembered for a project") },
  { "audit verify", paddockctl_builtin_audit_verify, FALSE, "LOG",
    /* TRANSLATORS: paddockctl's help for "paddockctl audit verify" */
    N_("Check that no record of an audit log was changed or removed") },
  { "audit show", paddockctl_builtin_audit_show, TRUE,
    "LOG [--since TIME] [--decision allow|deny|ask] [--type TYPE] [--grep REGEX]",
    /* TRANSLATORS: paddockctl's help for "paddockctl audit show" */
    N_("Show an audit log's records as a table") },
  { "audit export", paddockctl_builtin_audit_export, TRUE,
    "LOG [--since TIME] [--decision D] [--type TYPE] [--grep REGEX]",
    /* TRANSLATORS: paddockctl's help for "paddockctl audit export" */
    N_("Write an audit log's records as JSON Lines") },
  { "lock", paddockctl_builtin_lock, FALSE, "on|off|status [DIR]\ngit-config on|off [DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl lock" */
    N_("Keep a project's folder lock on or off, and show what this kernel offers") },
  { "net", paddockctl_builtin_net, FALSE, "on|off|list [DIR]\nallow|deny|remove HOST [DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl net" */
    N_("Keep a project's network lock on or off, and the hosts it allows and denies") },
  { "secret add", paddockctl_builtin_secret_add, TRUE, "NAME [--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret add" */
    N_("Store a secret in your vault for commands to use by name") },
  { "secret list", paddockctl_builtin_secret_list, TRUE, "[--project DIR | --global]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret list" */
    N_("List the secrets a project sees") },
  { "secret remove", paddockctl_builtin_secret_remove, TRUE, "NAME [--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret remove" */
    N_("Remove a secret from your vault") },
  { "secret pin", paddockctl_builtin_secret_pin, TRUE, "NAME PROGRAM [--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret pin" */
    N_("Let a program have a secret without asking") },
  { "secret unpin", paddockctl_builtin_secret_pin, TRUE, "NAME PROGRAM [--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret unpin" */
    N_("Stop a program having a secret without asking") },
  { "secret mode", paddockctl_builtin_secret_mode, TRUE, "NAME ask|session|pinned [--project DIR]",
    /* TRANSLATORS: paddockctl's help for "paddockctl secret mode" */
    N_("Choose when a secret is asked for") },
  { NULL }
};

typedef struct
{
  const char *name;
  const char *text;
} Note;

/* The names the usage uses; a command's help says those it uses. */
static const Note notes[] = {
  /* TRANSLATORS: the notes under paddockctl's usage, one a name it uses; keep the name in capitals as it is */
  { "SESSION", N_("SESSION is a session id from `paddockctl list`, or a unique prefix of one.") },
  { "DIR", N_("DIR is a project folder (default: the current directory).") },
  { "FILE", N_("FILE may be - for standard input.") },
  { "NAME", N_("NAME is a secret's name: letters, digits, '.', '_' and '-'; "
               "without --project, every project sees it.") },
  { "PROGRAM", N_("PROGRAM is a program's file, or a command found along PATH.") },
  { "LOG", N_("LOG is an audit log FILE, or a session id (or a unique prefix) "
              "whose log is under $XDG_STATE_HOME/paddock.") },
  { "HOST", N_("HOST is a host name (example.org), every name below one (*.example.org), "
               "either with :PORT.") },
};

/* Appends the usage lines of @command to @text, each with its words as
 * typed ("paddockctl policy check FILE"). */
static void
append_usage (GString                 *text,
              const PaddockctlCommand *command)
{
  g_auto(GStrv) forms = g_strsplit (command->synopsis, "\n", -1);

  /* "" splits into no forms at all. */
  if (forms[0] == NULL)
    g_string_append_printf (text, "  paddockctl %s\n", command->words);
  for (guint i = 0; forms[i] != NULL; i++)
    {
      /* A form's second line goes on under the first. */
      if (i > 0 && forms[i][0] == ' ')
        g_string_append_printf (text, "%s\n", forms[i]);
      else
        g_string_append_printf (text, "  paddockctl %s%s%s\n", command->words, *forms[i] != '\0' ? " " : "",
                                forms[i]);
    }
}

/* The notes on the names @shown uses, after a blank line. */
static void
append_notes (GString    *text,
              const char *shown)
{
  gboolean first = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    if (strstr (shown, notes[i].name) != NULL)
      {
        g_string_append_printf (text, "%s%s\n", first ? "\n" : "", _(notes[i].text));
        first = FALSE;
      }
}

/* The usage: every command's forms, with its help line where @verbose. */
static char *
make_usage (gboolean verbose)
{
  g_autoptr(GString) text = g_string_new ("Usage:\n");
  g_autoptr(GString) shown = g_string_new (NULL);

  for (const PaddockctlCommand *command = paddockctl_commands; command->words != NULL; command++)
    {
      append_usage (text, command);
      if (verbose)
        g_string_append_printf (text, "      %s\n", _(command->description));
      g_string_append_printf (shown, "%s\n", command->synopsis);
    }
  g_string_append (text, "  paddockctl --version\n");
  append_notes (text, shown->str);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The second words of the commands that begin with @group, as a list
 * for a sentence ("verify, show or export"), or NULL where none does. */
static char *
group_commands (const char *group)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  gsize length = strlen (group);

  for (const PaddockctlCommand *command = paddockctl_commands; command->words != NULL; command++)
    if (strncmp (command->words, group, length) == 0 && command->words[length] == ' ')
      g_ptr_array_add (words, (gpointer) (command->words + length + 1));
  if (words->len == 0)
    return NULL;
  for (guint i = 0; i < words->len; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : i + 1 == words->len ? " or " : ", ",
                            (const char *) words->pdata[i]);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

int
usage (const char *message)
{
  if (message != NULL)
    {
      paddock_printerr ("%s", message);
      g_printerr ("\n");
    }
  {
    g_autofree char *text = make_usage (FALSE);

    g_printerr ("%s", text);
  }
  return EXIT_USAGE;
}

char *
display (const char *text)
{
  return paddock_escape_for_display (text != NULL ? text : "", -1);
}

const char *
input_path (const char *arg)
{
  return strcmp (arg, "-") == 0 ? "/dev/stdin" : arg;
}

/* g_date_time_new_from_unix_local_usec() is GLib 2.80. */
GDateTime *
local_time_new (gint64 time_us)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);

  if (seconds == NULL)
    return NULL;
  return g_date_time_add (seconds, time_us % G_USEC_PER_SEC);
}

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Connecting;

static void
connected (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Connecting *connecting = user_data;

  connecting->result = g_object_ref (result);
  g_main_loop_quit (connecting->loop);
}

PaddockClient *
connect_session (const char  *session,
                 GError     **error)
{
  g_autofree char *socket = paddock_client_find_socket (session, error);
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  Connecting connecting;

  if (socket == NULL)
    return NULL;
  loop = g_main_loop_new (NULL, FALSE);
  connecting = (Connecting) { loop, NULL };
  paddock_client_connect_async (socket, 0, NULL, connected, &connecting);
  g_main_loop_run (loop);
  result = connecting.result;
  return paddock_client_connect_finish (result, error);
}

/* The known command @argv names ("attach", "audit show"), or NULL. */
static const PaddockctlCommand *
find_command (int    argc,
              char **argv)
{
  g_autofree char *pair = argc >= 3 ? g_strdup_printf ("%s %s", argv[1], argv[2]) : NULL;

  for (const PaddockctlCommand *command = paddockctl_commands; command->words != NULL; command++)
    if (g_strcmp0 (command->words, strchr (command->words, ' ') != NULL ? pair : argv[1]) == 0)
      return command;
  return NULL;
}

/* Whether --help or -h comes before any "--" (after it, they are the
 * explained command's). */
static gboolean
help_asked (int    argc,
            char **argv)
{
  for (int i = 2; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0 || strcmp (argv[i], "-?") == 0)
      return TRUE;
  return FALSE;
}

/* The usage of @command, what it does, and the notes on the names its
 * usage uses. */
static int
print_command_usage (const PaddockctlCommand *command)
{
  g_autoptr(GString) text = g_string_new ("Usage:\n");

  append_usage (text, command);
  g_string_append_printf (text, "\n%s\n", _(command->description));
  append_notes (text, command->synopsis);
  g_print ("%s", text->str);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  const PaddockctlCommand *command;
  const char *name;

  paddock_open_std_fds ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      g_set_prgname ("paddockctl");
      return usage (NULL);
    }
  name = argv[1];
  command = find_command (argc, argv);
  if (command != NULL && help_asked (argc, argv))
    {
      /* GOption's help names the program: make it name the command. */
      g_autofree char *prgname = g_strdup_printf ("paddockctl %s", command->words);

      g_set_prgname (prgname);
      if (!command->has_options)
        return print_command_usage (command);
    }
  else
    g_set_prgname ("paddockctl");

  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      g_autofree char *text = make_usage (TRUE);

      g_print ("%s", text);
      return 0;
    }
  if (strcmp (name, "--version") == 0)
    {
      g_print ("paddockctl %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (command != NULL)
    {
      /* Its argv[0] is its last word, as a program's is its name. */
      int n_words = strchr (command->words, ' ') != NULL ? 2 : 1;

      return command->run (argc - n_words, argv + n_words);
    }
  {
    g_autofree char *sub_commands = group_commands (name);
    g_autofree char *shown = display (name);
    g_autofree char *sub = sub_commands != NULL && argc >= 3 ? display (argv[2]) : NULL;
    g_autofree char *message = NULL;

    if (sub_commands != NULL && sub == NULL)
      message = g_strdup_printf ("%s needs a command: %s", shown, sub_commands);
    else
      message = g_strdup_printf ("unknown command \"%s%s%s\"", shown, sub ? " " : "", sub ? sub : "");
    return usage (message);
  }
}
