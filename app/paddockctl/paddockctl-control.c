/* paddockctl-control.c: paddockctl kill, pause and resume
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddockctl-private.h"

#include "paddock-escape.h"

/* How long the session has to confirm: a kill waits for the agent's
 * programs to end. */
#define CONFIRM_TIMEOUT_MS (10 * 1000)

typedef struct
{
  GMainLoop          *loop;
  PaddockMessageType  type;
  int                 status;
} Control;

static void
say_bad_message (PaddockClient *client,
                 const GError  *error,
                 gpointer       user_data)
{
  paddock_printerr ("%s", error->message);
}

static void
confirmed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  PaddockClient *client = PADDOCK_CLIENT (object);
  Control *control = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockMessage) reply = paddock_client_request_finish (client, result, &error);
  g_autofree char *session = display (paddock_client_get_session_id (client));
  gboolean want = control->type == PADDOCK_MESSAGE_PAUSE;
  gboolean was = paddock_client_get_hello (client)->paused;

  g_main_loop_quit (control->loop);
  control->status = 1;
  if (error != NULL)
    paddock_printerr ("%s", error->message);
  else if (control->type == PADDOCK_MESSAGE_KILL)
    {
      g_print ("%s killed\n", session);
      control->status = 0;
    }
  else if (reply->paused != want)
    paddock_printerr ("%s could not be %s: the session is ending", session, want ? "paused" : "resumed");
  else
    {
      if (was == want)
        g_print ("%s was %s\n", session, want ? "already paused" : "not paused");
      else
        g_print ("%s %s\n", session, want ? "paused" : "resumed");
      control->status = 0;
    }
}

static int
cmd_control (int                 argc,
             char              **argv,
             PaddockMessageType  type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PaddockClient) client = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  Control control;

  if (argc != 2)
    return usage ("give one SESSION");
  client = connect_session (argv[1], &error);
  if (client == NULL)
    {
      paddock_printerr ("%s", error->message);
      return 1;
    }
  g_signal_connect (client, "bad-message", G_CALLBACK (say_bad_message), NULL);

  /* The supervisor echoes a kill to every client once it is done, and
   * answers a pause or resume with the state it left the session in. */
  loop = g_main_loop_new (NULL, FALSE);
  control = (Control) { loop, type, 1 };
  paddock_client_request_async (client, type, CONFIRM_TIMEOUT_MS, NULL, confirmed, &control);
  g_main_loop_run (loop);
  paddock_client_close (client);
  return control.status;
}

int
paddockctl_builtin_kill (int    argc,
                         char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_KILL);
}

int
paddockctl_builtin_pause (int    argc,
                          char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_PAUSE);
}

int
paddockctl_builtin_resume (int    argc,
                           char **argv)
{
  return cmd_control (argc, argv, PADDOCK_MESSAGE_RESUME);
}
