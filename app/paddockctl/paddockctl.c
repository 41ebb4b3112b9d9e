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

#include <locale.h>
#include <string.h>

static const char usage_text[] =
  "Usage:\n"
  "  paddockctl list\n"
  "  paddockctl attach SESSION [--watch | --answer allow|deny [--remember once|session|project]] [--verbose]\n"
  "  paddockctl kill|pause|resume SESSION\n"
  "  paddockctl policy check FILE\n"
  "  paddockctl policy explain [--policy FILE] [--project DIR] [--cwd DIR] [--piped-from LINE]\n"
  "                            [--downloaded FILE…] -- COMMAND [ARG…]\n"
  "  paddockctl policy project [--project DIR]\n"
  "  paddockctl policy forget [--project DIR] --all|NAME…\n"
  "  paddockctl audit verify LOG\n"
  "  paddockctl audit show LOG [--since TIME] [--decision allow|deny|ask] [--type TYPE] [--grep REGEX]\n"
  "  paddockctl audit export LOG [--since TIME] [--decision D] [--type TYPE] [--grep REGEX]\n"
  "  paddockctl lock on|off|status [DIR]\n"
  "  paddockctl lock git-config on|off [DIR]\n"
  "  paddockctl net on|off [DIR]\n"
  "  paddockctl secret add NAME [--project DIR]\n"
  "  paddockctl secret list [--project DIR | --global]\n"
  "  paddockctl secret remove NAME [--project DIR]\n"
  "  paddockctl secret pin NAME PROGRAM [--project DIR]\n"
  "  paddockctl secret unpin NAME PROGRAM [--project DIR]\n"
  "  paddockctl secret mode NAME ask|session|pinned [--project DIR]\n"
  "  paddockctl --version\n"
  "\n"
  "SESSION is a session id from `paddockctl list`, or a unique prefix of one.\n"
  "DIR is a project folder (default: the current directory).\n"
  "FILE may be - for standard input.\n"
  "NAME is a secret's name: letters, digits, '.', '_' and '-'; without --project, every project sees it.\n"
  "PROGRAM is a program's file, or a command found along PATH.\n"
  "LOG is an audit log FILE, or a session id (or a unique prefix) whose log is under $XDG_STATE_HOME/paddock.\n";

static const PaddockctlCommand * const groups[] = {
  paddockctl_session_commands,
  paddockctl_control_commands,
  paddockctl_policy_commands,
  paddockctl_audit_commands,
  paddockctl_lock_commands,
  paddockctl_secret_commands,
};

int
usage (const char *message)
{
  if (message != NULL)
    {
      paddock_printerr ("%s", message);
      g_printerr ("\n");
    }
  g_printerr ("%s", usage_text);
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

  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    for (const PaddockctlCommand *command = groups[i]; command->words != NULL; command++)
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

/* The lines of the usage for the command @words, and the notes on the
 * names they use. */
static int
print_command_usage (const char *words)
{
  g_auto(GStrv) lines = g_strsplit (usage_text, "\n", -1);
  g_auto(GStrv) wanted = g_strsplit (words, " ", 2);
  g_autoptr(GString) text = g_string_new ("Usage:\n");
  g_autoptr(GString) shown = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) line = NULL;
      g_auto(GStrv) verbs = NULL;

      if (!g_str_has_prefix (lines[i], "  paddockctl "))
        continue;
      line = g_strsplit (lines[i] + strlen ("  paddockctl "), " ", 3);
      verbs = g_strsplit (line[0], "|", -1);
      if (g_strv_contains ((const char * const *) verbs, wanted[0]) &&
          (wanted[1] == NULL || g_strcmp0 (line[1], wanted[1]) == 0))
        {
          /* "kill|pause|resume SESSION" for pause is "pause SESSION". */
          g_string_append_printf (text, "  paddockctl %s%s%s%s%s\n", wanted[0],
                                  line[1] != NULL ? " " : "", line[1] != NULL ? line[1] : "",
                                  line[1] != NULL && line[2] != NULL ? " " : "",
                                  line[1] != NULL && line[2] != NULL ? line[2] : "");
          g_string_append (shown, lines[i]);
        }
    }
  for (guint i = 0, notes = 0; lines[i] != NULL; i++)
    {
      const char *space = strchr (lines[i], ' ');
      g_autofree char *name = space != NULL ? g_strndup (lines[i], space - lines[i]) : NULL;

      if (name != NULL && g_str_has_suffix (lines[i], ".") && *name != '\0' && strstr (shown->str, name) != NULL)
        g_string_append_printf (text, "%s%s\n", notes++ == 0 ? "\n" : "", lines[i]);
    }
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
        return print_command_usage (command->words);
    }
  else
    g_set_prgname ("paddockctl");

  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      g_print ("%s", usage_text);
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
    gboolean has_sub = strcmp (name, "policy") == 0 || strcmp (name, "audit") == 0 || strcmp (name, "secret") == 0;
    g_autofree char *shown = display (name);
    g_autofree char *sub = has_sub && argc >= 3 ? display (argv[2]) : NULL;
    g_autofree char *message = NULL;

    if (has_sub && sub == NULL)
      message = g_strdup_printf ("%s needs a command: %s", shown,
                                 strcmp (name, "audit") == 0 ? "verify, show or export"
                                 : strcmp (name, "secret") == 0 ? "add, list, remove, pin, unpin or mode"
                                 : "check, explain, project or forget");
    else
      message = g_strdup_printf ("unknown command \"%s%s%s\"", shown, sub ? " " : "", sub ? sub : "");
    return usage (message);
  }
}
