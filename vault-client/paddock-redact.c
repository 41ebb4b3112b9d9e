/* paddock-redact.c: standard input to standard output through the redactor
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   paddock-redact [--secrets-fd=FD] [--idle-ms=MS]
 *
 * The secrets come from descriptor FD (never from argv or the environment),
 * one a line: the name, a space, the value in standard base64. The tests
 * and the benchmark run it; the supervisor runs the redactor in-process
 * (paddock_redactor_pump_async()).
 */
#include "config.h"

#include "paddock-redactor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static gboolean
read_secrets (PaddockRedactor *redactor,
              int              fd,
              GError         **error)
{
  g_autoptr(GByteArray) text = g_byte_array_new ();
  g_auto(GStrv) lines = NULL;
  guint8 buffer[4096];

  for (;;)
    {
      ssize_t n = read (fd, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "cannot read the secrets from descriptor %d: %s", fd, g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        break;
      g_byte_array_append (text, buffer, (guint) n);
    }
  explicit_bzero (buffer, sizeof buffer);
  g_byte_array_append (text, (const guint8 *) "", 1);
  lines = g_strsplit ((const char *) text->data, "\n", -1);
  explicit_bzero (text->data, text->len);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strchr (lines[i], ' ');
      g_autofree guint8 *value = NULL;
      gsize len;
      gboolean ok;

      if (lines[i][0] == '\0')
        continue;
      if (space == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "cannot read the secrets from descriptor %d: line %u is not “NAME BASE64”", fd, i + 1);
          for (guint j = 0; lines[j] != NULL; j++)
            explicit_bzero (lines[j], strlen (lines[j]));
          return FALSE;
        }
      *space = '\0';
      value = g_base64_decode (space + 1, &len);
      ok = paddock_redactor_add_secret (redactor, lines[i], value, len, error);
      if (len > 0)
        explicit_bzero (value, len);
      explicit_bzero (space + 1, strlen (space + 1));
      if (!ok)
        {
          for (guint j = i + 1; lines[j] != NULL; j++)
            explicit_bzero (lines[j], strlen (lines[j]));
          return FALSE;
        }
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(PaddockRedactor) redactor = paddock_redactor_new ();
  g_autoptr(GError) error = NULL;
  int secrets_fd = -1;
  int idle_ms = PADDOCK_REDACTOR_IDLE_MS;
  GOptionEntry entries[] = {
    { "secrets-fd", 0, 0, G_OPTION_ARG_INT, &secrets_fd,
      "Read the secrets from FD, one “NAME BASE64-VALUE” a line", "FD" },
    { "idle-ms", 0, 0, G_OPTION_ARG_INT, &idle_ms,
      "Show held-back bytes after MS milliseconds without input", "MS" },
    { NULL }
  };

  context = g_option_context_new ("— mask secrets in standard input");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("paddock-redact: %s\n", error->message);
      return 2;
    }
  if (idle_ms < 0)
    {
      g_printerr ("paddock-redact: --idle-ms must not be negative\n");
      return 2;
    }
  if (secrets_fd >= 0)
    {
      if (!read_secrets (redactor, secrets_fd, &error))
        {
          g_printerr ("paddock-redact: %s\n", error->message);
          return 2;
        }
      close (secrets_fd);
    }

  if (!paddock_redactor_pump (redactor, STDIN_FILENO, STDOUT_FILENO, (guint) idle_ms, NULL, NULL, &error))
    {
      g_printerr ("paddock-redact: %s\n", error->message);
      return 1;
    }
  return 0;
}
