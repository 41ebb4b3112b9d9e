/* paddockctl-secret.c: paddockctl secret add, list, remove, pin, unpin and mode: secrets in the user's vault
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A value comes from standard input, or from a prompt that does not echo
 * where standard input is a terminal; never from argv, where any process
 * could read it. Nothing here prints a value.
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-escape.h"
#include "paddock-vault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* A value larger than this is no API key; reading stops there. */
#define VALUE_MAX_LENGTH (1024 * 1024)

/* Parses the options every secret command takes; argv then holds the
 * command's last word and its arguments. */
static gboolean
parse_options (const char   *parameters,
               int          *argc,
               char       ***argv,
               char        **project_arg,
               gboolean     *all,
               int          *status)
{
  g_autoptr(GOptionContext) context = g_option_context_new (parameters);
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, project_arg,
      "The secret is the project's own (default: a secret every project sees)", "DIR" },
    { NULL }
  };
  GOptionEntry list_entries[] = {
    { "project", 0, 0, G_OPTION_ARG_FILENAME, project_arg,
      "List the secrets this project sees: its own and the global ones (default: every secret)", "DIR" },
    { "global", 0, 0, G_OPTION_ARG_NONE, all, "List the global secrets only", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, all != NULL ? list_entries : entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = usage (error->message);
      return FALSE;
    }
  return TRUE;
}

/* --project DIR as a canonical folder, or "" without it. */
static int
project_of (const char  *project_arg,
            char       **out)
{
  g_autofree char *project = NULL;

  if (project_arg == NULL)
    {
      *out = g_strdup ("");
      return 0;
    }
  if (project_arg[0] == '\0')
    return usage ("--project names no folder");
  project = realpath (project_arg, NULL);
  if (project == NULL || !g_file_test (project, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *shown = display (project_arg);

      paddock_printerr ("the project \"%s\": %s", shown, g_strerror (project == NULL ? errno : ENOTDIR));
      return 1;
    }
  *out = g_steal_pointer (&project);
  return 0;
}

static int
vault_failed (GError *error)
{
  paddock_printerr ("%s", error->message);
  return 1;
}

/* "secret “gh”" or "secret “gh” of project /x", for what paddockctl says. */
static char *
describe (const char *name,
          const char *project)
{
  g_autofree char *shown_name = display (name);
  g_autofree char *shown_project = display (project);

  if (project[0] == '\0')
    return g_strdup_printf ("secret \"%s\" (every project sees it)", shown_name);
  return g_strdup_printf ("secret \"%s\" of project %s", shown_name, shown_project);
}

static void
wipe_and_free (GByteArray *buffer)
{
  explicit_bzero (buffer->data, buffer->len);
  g_byte_array_unref (buffer);
}

/* Reads all of standard input, as piped in; NULL (having said why) where
 * it cannot. The buffer is reserved whole at once, so no copy is left
 * behind unwiped by a reallocation. The caller wipes it. */
static GByteArray *
read_piped_value (void)
{
  GByteArray *buffer = g_byte_array_sized_new (VALUE_MAX_LENGTH + 1);
  gsize length = 0;

  /* Sized whole, then cut to what was read. */
  g_byte_array_set_size (buffer, VALUE_MAX_LENGTH + 1);
  memset (buffer->data, 0, buffer->len);
  while (length <= VALUE_MAX_LENGTH)
    {
      gssize n = read (STDIN_FILENO, buffer->data + length, VALUE_MAX_LENGTH + 1 - length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          wipe_and_free (buffer);
          paddock_printerr ("cannot read the value from standard input: %s", g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        break;
      length += n;
    }
  if (length > VALUE_MAX_LENGTH)
    {
      wipe_and_free (buffer);
      paddock_printerr ("the value on standard input is longer than %d bytes: that is no secret to store",
                        VALUE_MAX_LENGTH);
      return NULL;
    }
  g_byte_array_set_size (buffer, length);
  return buffer;
}

/* Asks for the value on the terminal without echoing it. */
static GByteArray *
prompt_value (const char *what)
{
  GByteArray *buffer = g_byte_array_sized_new (4096);
  struct termios saved;
  struct termios quiet;
  gboolean restored = FALSE;
  gboolean too_long = FALSE;
  FILE *tty = stderr;

  if (tcgetattr (STDIN_FILENO, &saved) < 0)
    {
      int saved_errno = errno;

      g_byte_array_unref (buffer);
      paddock_printerr ("cannot turn the terminal's echo off: %s", g_strerror (saved_errno));
      return NULL;
    }
  quiet = saved;
  quiet.c_lflag &= ~(ECHO | ECHONL);
  quiet.c_lflag |= ICANON;
  /* Echo off before the prompt shows, so nothing typed after it echoes. */
  if (tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet) < 0)
    {
      int saved_errno = errno;

      g_byte_array_unref (buffer);
      paddock_printerr ("cannot turn the terminal's echo off: %s", g_strerror (saved_errno));
      return NULL;
    }
  fprintf (tty, "Value of the %s (not shown): ", what);
  fflush (tty);
  for (;;)
    {
      char c;
      gssize n = read (STDIN_FILENO, &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || c == '\n')
        break;
      /* Within what was reserved: never reallocated, never copied. */
      if (buffer->len < 4096)
        g_byte_array_append (buffer, (const guint8 *) &c, 1);
      else
        too_long = TRUE;
      c = 0;
    }
  restored = tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved) == 0;
  fprintf (tty, "\n");
  if (!restored)
    paddock_printerr ("could not turn the terminal's echo back on: run `stty echo`");
  if (too_long)
    {
      wipe_and_free (buffer);
      paddock_printerr ("the value typed is longer than 4096 bytes: pipe it in on standard input instead");
      return NULL;
    }
  return buffer;
}

int
paddockctl_builtin_secret_add (int    argc,
                               char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *what = NULL;
  GByteArray *value;
  const char *name;
  gboolean ok;
  int status = 0;

  if (!parse_options ("NAME", &argc, &argv, &project_arg, NULL, &status))
    return status;
  if (argc != 2)
    return usage ("secret add takes one NAME; the value comes from standard input, never from the command line");
  name = argv[1];
  if (!paddock_vault_check_name (name, &error))
    return usage (error->message);
  status = project_of (project_arg, &project);
  if (status != 0)
    return status;
  what = describe (name, project);

  value = isatty (STDIN_FILENO) ? prompt_value (what) : read_piped_value ();
  if (value == NULL)
    return 1;
  ok = paddock_vault_store_sync (name, project, value->data, value->len, NULL, &error);
  wipe_and_free (value);
  if (!ok)
    return vault_failed (error);
  g_print ("Stored the %s.\n", what);
  return 0;
}

static void
print_info (const PaddockSecretInfo *info,
            int                      name_width)
{
  g_autofree char *name = display (info->name);
  g_autofree char *project = display (info->project);

  g_print ("%-*s  %-7s  %s\n", name_width, name, paddock_secret_mode_to_string (info->mode),
           info->project[0] != '\0' ? project : "(every project)");
  for (guint i = 0; i < info->pins->len; i++)
    {
      const PaddockSecretPin *pin = g_ptr_array_index (info->pins, i);
      g_autofree char *path = display (pin->path);

      g_print ("%-*s  pinned to %s  sha256:%s\n", name_width, "", path, pin->sha256);
    }
}

int
paddockctl_builtin_secret_list (int    argc,
                                char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  gboolean global = FALSE;
  int name_width = 4;
  int status = 0;

  if (!parse_options ("", &argc, &argv, &project_arg, &global, &status))
    return status;
  if (argc != 1)
    return usage ("secret list takes no arguments but --project or --global");
  if (global && project_arg != NULL)
    return usage ("secret list takes --project or --global, not both");
  status = project_of (project_arg, &project);
  if (status != 0)
    return status;

  infos = paddock_vault_list_sync (project_arg != NULL || global ? project : NULL, NULL, &error);
  if (infos == NULL)
    return vault_failed (error);
  if (infos->len == 0)
    {
      g_print ("No secrets%s. Add one with `paddockctl secret add NAME`.\n",
               project_arg != NULL ? " that this project sees" : global ? " for every project" : "");
      return 0;
    }
  for (guint i = 0; i < infos->len; i++)
    {
      const PaddockSecretInfo *info = g_ptr_array_index (infos, i);

      name_width = MAX (name_width, (int) strlen (info->name));
    }
  g_print ("%-*s  %-7s  %s\n", name_width, "NAME", "MODE", "PROJECT");
  for (guint i = 0; i < infos->len; i++)
    print_info (g_ptr_array_index (infos, i), name_width);
  return 0;
}

int
paddockctl_builtin_secret_remove (int    argc,
                                  char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *what = NULL;
  int status = 0;

  if (!parse_options ("NAME", &argc, &argv, &project_arg, NULL, &status))
    return status;
  if (argc != 2)
    return usage ("secret remove takes one NAME");
  if (!paddock_vault_check_name (argv[1], &error))
    return usage (error->message);
  status = project_of (project_arg, &project);
  if (status != 0)
    return status;
  if (!paddock_vault_delete_sync (argv[1], project, NULL, &error))
    return vault_failed (error);
  what = describe (argv[1], project);
  g_print ("Removed the %s.\n", what);
  return 0;
}

/* PROGRAM as a path: a name without a slash is found along PATH, as a
 * shell finds it. */
static char *
program_path (const char *program)
{
  char *found;

  if (strchr (program, '/') != NULL)
    return g_strdup (program);
  found = g_find_program_in_path (program);
  return found != NULL ? found : g_strdup (program);
}

int
paddockctl_builtin_secret_pin (int    argc,
                               char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *what = NULL;
  g_autofree char *path = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(PaddockSecretPin) pin = NULL;
  gboolean pinning = strcmp (argv[0], "pin") == 0;
  int status = 0;

  if (!parse_options ("NAME PROGRAM", &argc, &argv, &project_arg, NULL, &status))
    return status;
  if (argc != 3)
    return usage (pinning ? "secret pin takes a NAME and a PROGRAM" : "secret unpin takes a NAME and a PROGRAM");
  if (!paddock_vault_check_name (argv[1], &error))
    return usage (error->message);
  status = project_of (project_arg, &project);
  if (status != 0)
    return status;
  path = program_path (argv[2]);
  what = describe (argv[1], project);
  if (!pinning)
    {
      if (!paddock_vault_unpin_sync (argv[1], project, path, NULL, &error))
        return vault_failed (error);
      shown = display (path);
      g_print ("Unpinned the %s from %s.\n", what, shown);
      return 0;
    }
  pin = paddock_vault_pin_sync (argv[1], project, path, NULL, &error);
  if (pin == NULL)
    return vault_failed (error);
  shown = display (pin->path);
  g_print ("Pinned the %s to %s (sha256:%s). A program whose file no longer has this hash is asked about again.\n",
           what, shown, pin->sha256);
  return 0;
}

int
paddockctl_builtin_secret_mode (int    argc,
                                char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *project_arg = NULL;
  g_autofree char *project = NULL;
  g_autofree char *what = NULL;
  PaddockSecretMode mode;
  int status = 0;

  if (!parse_options ("NAME ask|session|pinned", &argc, &argv, &project_arg, NULL, &status))
    return status;
  if (argc != 3)
    return usage ("secret mode takes a NAME and a mode: ask, session or pinned");
  if (!paddock_vault_check_name (argv[1], &error))
    return usage (error->message);
  if (!paddock_secret_mode_from_string (argv[2], &mode))
    {
      g_autofree char *shown = display (argv[2]);
      g_autofree char *message = g_strdup_printf ("unknown mode \"%s\": ask, session or pinned", shown);

      return usage (message);
    }
  status = project_of (project_arg, &project);
  if (status != 0)
    return status;
  if (!paddock_vault_set_mode_sync (argv[1], project, mode, NULL, &error))
    return vault_failed (error);
  what = describe (argv[1], project);
  switch (mode)
    {
    case PADDOCK_SECRET_MODE_ASK:
      g_print ("The %s is now asked about at every use.\n", what);
      break;
    case PADDOCK_SECRET_MODE_SESSION:
      g_print ("The %s is now asked about once per session and program.\n", what);
      break;
    case PADDOCK_SECRET_MODE_PINNED:
    default:
      g_print ("The %s now goes to its pinned programs without asking; others are asked about.\n", what);
      break;
    }
  return 0;
}
