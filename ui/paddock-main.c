/* paddock-main.c: the paddock program: opens a project folder in a window
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "paddock-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PaddockApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = paddock_application_new (APPLICATION_ID, G_APPLICATION_DEFAULT_FLAGS);
  status = g_application_run (G_APPLICATION (app), argc, argv);

  /* A window that could not open its project makes a failed run even though
   * the main loop ran, which GApplication would report as success. */
  if (status == 0)
    status = paddock_application_get_exit_status (app);

  return status;
}
