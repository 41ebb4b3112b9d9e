/* paddock-session-page.c: one session in a tab: its terminal, running under paddock-run
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-session-page-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paddock-approval-bar.h"
#include "paddock-client.h"
#include "paddock-escape.h"
#include "paddock-session-command.h"
#include "paddock-settings.h"
#include "paddock-terminal-palette.h"
#include "paddock-timeline.h"
#include "paddock-toasts.h"

#define FONT_SCALE_STEP 1.1
#define FONT_SCALE_MIN  0.5
#define FONT_SCALE_MAX  4.0

enum {
  PROP_0,
  PROP_PROJECT,
  PROP_AGENT,
  PROP_LOCK_CHOICE,
  PROP_TITLE,
  PROP_TAB_TITLE,
  PROP_RUNNING,
  PROP_LOCKED,
  PROP_NET_LOCKED,
  PROP_START_FAILURE,
  PROP_CLIENT,
  PROP_REPORTED_LOCK,
  PROP_SHOW_TIMELINE,
  PROP_PAUSED,
  N_PROPS
};

enum {
  EXITED,
  PROGRAM_DENIED,
  NOTICE,
  ATTENTION,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PaddockSessionPage, paddock_session_page, GTK_TYPE_WIDGET)

static void
update_actions (PaddockSessionPage *self)
{
  gboolean running, asked, connected;

  if (self->disposed)
    return;
  running = paddock_session_page_get_running (self);
  asked = paddock_approval_bar_get_current (self->approval_bar) != NULL;
  connected = self->client != NULL && !paddock_client_get_closed (self->client);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.restart", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.allow", asked);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.allow-always", asked);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.deny", asked);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.kill", running && connected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.pause",
                                 running && connected && !paddock_client_get_paused (self->client));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.resume",
                                 running && connected && paddock_client_get_paused (self->client));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "session.copy",
                                 vte_terminal_get_has_selection (self->terminal));
}

static void
set_title (PaddockSessionPage *self,
           const char         *title)
{
  if (title == NULL || *title == '\0')
    title = paddock_project_get_name (self->project);

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_runner_pid (PaddockSessionPage *self,
                GPid                pid,
                gboolean            starting)
{
  gboolean was_running = paddock_session_page_get_running (self);

  self->runner_pid = pid;
  self->starting = starting;

  if (was_running != paddock_session_page_get_running (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);

  update_actions (self);
}

static void
set_locked (PaddockSessionPage *self,
            gboolean            locked)
{
  if (self->locked == locked)
    return;
  self->locked = locked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCKED]);
}

static void
set_net_locked (PaddockSessionPage *self,
                gboolean            net_locked)
{
  if (self->net_locked == net_locked)
    return;
  self->net_locked = net_locked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NET_LOCKED]);
}

static void
set_start_failure (PaddockSessionPage *self,
                   const char         *failure)
{
  if (g_strcmp0 (self->start_failure, failure) == 0)
    return;
  g_free (self->start_failure);
  self->start_failure = g_strdup (failure);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_START_FAILURE]);
}

static void
client_status_cb (PaddockSessionPage   *self,
                  const PaddockMessage *message,
                  PaddockClient        *client)
{
  g_autoptr(GError) error = NULL;
  PaddockLockStatus *status = paddock_lock_status_new_from_message (message, &error);

  if (status == NULL)
    {
      g_debug ("session %s: %s", paddock_client_get_session_id (client), error->message);
      return;
    }
  g_clear_pointer (&self->reported_lock, paddock_lock_status_free);
  self->reported_lock = status;
  /* What the session says it runs under is the truth about it. */
  set_locked (self, paddock_lock_status_get_available (status));
  /* Its greeting says whether its network is locked ("on"); a lock-status
   * reply says nothing of it. */
  if (message->type == PADDOCK_MESSAGE_HELLO && message->network != NULL)
    set_net_locked (self, g_strcmp0 (message->network, "on") == 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORTED_LOCK]);
}

/* A program the policy refused outright: the tab says which rule, where
 * the program itself may say only "Permission denied". */
static void
client_exec_cb (PaddockSessionPage   *self,
                const PaddockMessage *message,
                PaddockClient        *client)
{
  g_autofree char *program = NULL;
  gboolean retry;

  if (message->decision != PADDOCK_DECISION_DENY || message->rule == NULL)
    return;
  /* A shell refused at /usr/bin/dd tries /bin/dd next: one refusal. */
  retry = paddock_message_is_path_retry (self->last_denied, message);
  g_clear_pointer (&self->last_denied, paddock_message_free);
  self->last_denied = paddock_message_copy (message);
  if (retry)
    return;
  program = g_path_get_basename (message->exe != NULL ? message->exe : message->path != NULL ? message->path : "?");
  g_signal_emit (self, signals[PROGRAM_DENIED], 0, program, message->rule, message->reason);
}

/* A note in the window about this session, where the page is in one. */
static void
add_note (PaddockSessionPage *self,
          const char         *title)
{
  paddock_toasts_add_near (GTK_WIDGET (self), adw_toast_new (title));
}

/* What paddock-run would have printed on the terminal, among the agent's
 * output, had the window not been attached: a note in the window. */
static void
client_notice_cb (PaddockSessionPage   *self,
                  const PaddockMessage *message,
                  PaddockClient        *client)
{
  g_autofree char *shown = paddock_escape_for_display (message->message, -1);
  g_autofree char *title = NULL;

  g_debug ("session %s: %s", paddock_client_get_session_id (client), shown);
  /* TRANSLATORS: a note in the window; %s is what the session's supervisor said, in English */
  title = g_strdup_printf (_("The session says: %s"), shown);
  add_note (self, title);
}

/* A line from paddock-run that is no message: skipped, and said once, as
 * what follows it is read as before. */
static void
client_bad_message_cb (PaddockSessionPage *self,
                       const GError       *error,
                       PaddockClient      *client)
{
  g_debug ("%s", error->message);
  if (self->told_bad_message)
    return;
  self->told_bad_message = TRUE;
  add_note (self, _("The window could not read a message from the session’s supervisor, and skipped it"));
}

/* The connection to paddock-run broke before the session said it ended:
 * the tab no longer follows the session, nor answers its asks. */
static void
tell_connection_lost (PaddockSessionPage *self,
                      const GError       *error)
{
  g_autofree char *shown = paddock_escape_for_display (error->message, -1);
  g_autofree char *title = NULL;

  /* TRANSLATORS: a note in the window; %s is why, in English */
  title = g_strdup_printf (_("The window lost its connection to the session’s supervisor: "
                             "its timeline stops here, and its asks cannot be answered (%s)"), shown);
  add_note (self, title);
}

/* The tab wants the user: see paddock-session-page-attention.c. */
void
paddock_session_page_emit_attention (PaddockSessionPage *self,
                                     const char         *reason)
{
  g_signal_emit (self, signals[ATTENTION], 0, reason);
}

static void
client_ask_cb (PaddockSessionPage   *self,
               const PaddockMessage *message,
               PaddockClient        *client)
{
  paddock_approval_bar_add_ask (self->approval_bar, message);
  paddock_session_page_tell_of_ask (self, message);
}

static void
client_decided_cb (PaddockSessionPage   *self,
                   const PaddockMessage *message,
                   PaddockClient        *client)
{
  /* Whoever decided it: the user here, another client, the deadline, or
   * the process being gone. */
  paddock_approval_bar_remove_ask (self->approval_bar, message->id);
  paddock_session_page_withdraw_notification (self, message->id);
}

static void
client_refused_cb (PaddockSessionPage   *self,
                   const PaddockMessage *message,
                   PaddockClient        *client)
{
  /* A decision that came too late (the ask was decided meanwhile) is
   * refused; its decided has come or comes, and clears the bar. */
  g_debug ("session %s refused a request: %s", paddock_client_get_session_id (client), message->message);
}

static void
client_closed_cb (PaddockSessionPage *self,
                  const GError       *error,
                  PaddockClient      *client)
{
  /* The session ended (or its paddock-run did): the tab keeps what it said,
   * and nothing waits for an answer any more. */
  if (error != NULL)
    g_debug ("%s", error->message);
  /* One that never greeted never started: its end says why. */
  if (error != NULL && !self->disposed && paddock_client_get_hello (client) != NULL)
    tell_connection_lost (self, error);
  paddock_approval_bar_clear (self->approval_bar);
  paddock_session_page_withdraw_notifications (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

static void
client_paused_cb (PaddockSessionPage *self,
                  GParamSpec         *pspec,
                  PaddockClient      *client)
{
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

static void
set_client (PaddockSessionPage *self,
            PaddockClient      *client)
{
  if (self->client == client)
    return;
  if (self->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->client, self);
      paddock_client_close (self->client);
      g_clear_object (&self->client);
    }
  if (client != NULL)
    {
      self->client = g_object_ref (client);
      g_signal_connect_object (client, "hello", G_CALLBACK (client_status_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "lock-status", G_CALLBACK (client_status_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "ask", G_CALLBACK (client_ask_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "exec", G_CALLBACK (client_exec_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "decided", G_CALLBACK (client_decided_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "refused", G_CALLBACK (client_refused_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "notice", G_CALLBACK (client_notice_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "bad-message", G_CALLBACK (client_bad_message_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "closed", G_CALLBACK (client_closed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (client, "notify::paused", G_CALLBACK (client_paused_cb), self, G_CONNECT_SWAPPED);
    }
  paddock_session_page_withdraw_notifications (self);
  if (!self->disposed)
    {
      paddock_approval_bar_clear (self->approval_bar);
      update_actions (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

/* Built when a start first fails: a session that starts never needs it,
 * and every tab would pay for it (about 50 KiB of a tab's memory). */
static void
ensure_error_page (PaddockSessionPage *self)
{
  GtkWidget *button;

  if (self->error_page != NULL)
    return;
  self->error_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->error_page, "dialog-error-symbolic");
  /* TRANSLATORS: the title of a tab whose session could not start */
  adw_status_page_set_title (self->error_page, _("Cannot Start the Session"));
  /* TRANSLATORS: a button on a tab whose session could not start */
  button = gtk_button_new_with_mnemonic (_("_Try Again"));
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "session.restart");
  gtk_widget_add_css_class (button, "pill");
  adw_status_page_set_child (self->error_page, button);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->error_page), "error");
}

static void
show_start_error (PaddockSessionPage *self,
                  const GError       *error)
{
  ensure_error_page (self);
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

static void
spawn_cb (VteTerminal *terminal,
          GPid         pid,
          GError      *error,
          gpointer     user_data)
{
  g_autoptr(PaddockSessionPage) self = user_data;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->spawn_cancellable);

  if (error != NULL)
    {
      g_autoptr(GError) reported = NULL;

      reported = g_error_new (error->domain, error->code,
                              _("Cannot start paddock-run in %s: %s"),
                              paddock_project_get_path (self->project), error->message);
      set_runner_pid (self, 0, FALSE);
      set_client (self, NULL);
      show_start_error (self, reported);
      return;
    }

  set_runner_pid (self, pid, FALSE);
}

/* What the next start asks for: the session's own choice, else the
 * project's saved one as it is now, even if another program just changed it. */
static gboolean
dup_lock_wanted (PaddockSessionPage *self)
{
  if (self->lock_choice != PADDOCK_LOCK_CHOICE_PROJECT)
    return self->lock_choice == PADDOCK_LOCK_CHOICE_LOCK;
  paddock_project_reload_lock (self->project);
  return paddock_project_get_lock (self->project);
}

/* The project's folder may have gone since the window opened on it: say
 * so, rather than have paddock-run fail to find it in the terminal. */
static gboolean
check_project_folder (PaddockSessionPage  *self,
                      GError             **error)
{
  const char *path = paddock_project_get_path (self->project);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("The project folder %s no longer exists: make it again, or open another project"), path);
  return FALSE;
}

/**
 * paddock_session_page_start:
 * @self: a session page that is not running
 *
 * Starts the page's agent in the project, under paddock-run, in the
 * page's terminal, locked to the project when the page's lock choice, or
 * else the project's saved choice at this moment, says so. Failures show in the page, with a way to try
 * again.
 */
void
paddock_session_page_start (PaddockSessionPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *runner = NULL;
  g_autofree char *shell = NULL;
  g_auto(GStrv) command = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) envp = NULL;
  g_autoptr(PaddockClient) client = NULL;
  int pair[2];
  int session_end;
  const int session_fd = 3;

  g_return_if_fail (PADDOCK_IS_SESSION_PAGE (self));
  g_return_if_fail (!paddock_session_page_get_running (self));

  gtk_action_bar_set_revealed (self->exit_bar, FALSE);
  set_start_failure (self, NULL);
  set_client (self, NULL);
  self->told_bad_message = FALSE;
  if (self->reported_lock != NULL)
    {
      g_clear_pointer (&self->reported_lock, paddock_lock_status_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORTED_LOCK]);
    }

  if (!check_project_folder (self, &error))
    {
      show_start_error (self, error);
      return;
    }
  runner = paddock_session_command_find_runner (&error);
  if (runner == NULL)
    {
      show_start_error (self, error);
      return;
    }
  /* Looked for now: an agent installed since the last start is found. */
  command = paddock_agent_dup_argv (self->agent, &error);
  if (command == NULL)
    {
      show_start_error (self, error);
      return;
    }

  /* The session's end of a socket pair becomes its --control-fd: the tab
   * follows the session over it and answers its asks, from the first. */
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    {
      int saved_errno = errno;

      error = g_error_new (G_IO_ERROR, g_io_error_from_errno (saved_errno),
                           _("Cannot start paddock-run: no socket to follow the session over: %s"),
                           g_strerror (saved_errno));
      show_start_error (self, error);
      return;
    }
  session_end = pair[1];
  client = paddock_client_new_for_fd (pair[0], &error);
  if (client == NULL)
    {
      close (session_end);
      show_start_error (self, error);
      return;
    }
  set_client (self, client);
  /* Each start is a new session: its timeline starts empty. */
  {
    g_autoptr(PaddockTimeline) timeline = paddock_timeline_new ();

    paddock_timeline_follow (timeline, client);
    paddock_timeline_view_set_timeline (self->timeline_view, timeline);
  }

  gtk_stack_set_visible_child_name (self->stack, "terminal");

  set_locked (self, dup_lock_wanted (self));
  /* dup_lock_wanted() read the project's settings again: the network's choice too. */
  set_net_locked (self, paddock_project_get_network_locked (self->project));

  shell = paddock_session_command_dup_user_shell ();
  argv = paddock_session_command_build_argv (runner, self->project, self->locked, self->net_locked, session_fd,
                                             (const char * const *) command);
  envp = paddock_session_command_build_environ (shell);

  g_clear_object (&self->spawn_cancellable);
  self->spawn_cancellable = g_cancellable_new ();
  set_runner_pid (self, 0, TRUE);

  /* VTE takes the session's end, and gives it to paddock-run as fd 3. */
  vte_terminal_spawn_with_fds_async (self->terminal,
                                     VTE_PTY_DEFAULT,
                                     paddock_project_get_path (self->project),
                                     (const char * const *) argv,
                                     (const char * const *) envp,
                                     &session_end, 1,
                                     &session_fd, 1,
                                     G_SPAWN_DEFAULT,
                                     NULL, NULL, NULL,
                                     -1,
                                     self->spawn_cancellable,
                                     spawn_cb,
                                     g_object_ref (self));
}

static char *
describe_exit (int wait_status)
{
  if (WIFEXITED (wait_status))
    {
      int code = WEXITSTATUS (wait_status);

      /* paddock-run reports a command ended by signal N as 128+N, as shells do. */
      if (code > 128 && code < 128 + NSIG)
        return g_strdup_printf (_("The session ended by signal %d (%s)"),
                                code - 128, g_strsignal (code - 128));
      return g_strdup_printf (_("The session exited with status %d"), code);
    }

  if (WIFSIGNALED (wait_status))
    return g_strdup_printf (_("paddock-run was killed by signal %d (%s)"),
                            WTERMSIG (wait_status), g_strsignal (WTERMSIG (wait_status)));

  return g_strdup (_("The session ended"));
}

/* What paddock-run's death by a signal means for the session: the agent's
 * supervisor is gone, so the kernel refuses every program it starts (its
 * filter fails closed), and nothing more reaches the timeline or the
 * audit log. NULL for any other end. */
static char *
describe_runner_killed (int wait_status)
{
  if (!WIFSIGNALED (wait_status))
    return NULL;
  return g_strdup (_("paddock-run, the session’s supervisor, is gone: the agent is no longer supervised, "
                     "every program it starts now fails, and nothing more is logged. Restart for a new session."));
}

/* paddock-run's own complaint, when it is the terminal's last line: why it
 * could not start the session (a lock that cannot be applied, a command
 * that cannot run), as opposed to the session's program failing. */
static char *
dup_runner_complaint (VteTerminal *terminal)
{
  g_autofree char *text = vte_terminal_get_text (terminal, NULL, NULL, NULL);
  g_auto(GStrv) lines = NULL;
  guint n;

  if (text == NULL)
    return NULL;
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  n = g_strv_length (lines);
  if (n == 0 || !g_str_has_prefix (lines[n - 1], "paddock-run: "))
    return NULL;
  return g_strdup (g_strstrip (lines[n - 1] + strlen ("paddock-run: ")));
}

static void
paddock_session_page_real_exited (PaddockSessionPage *self,
                                  int                 wait_status)
{
  g_autofree char *message = NULL;
  g_autofree char *complaint = NULL;
  g_autofree char *meaning = NULL;
  g_autofree char *status = NULL;

  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0)
    return;

  /* Keep the terminal's last words on screen, and repeat paddock-run's
   * reason where it gave one: a lock that cannot be applied ends the
   * session before it starts, and must not pass for an ordinary exit. */
  complaint = dup_runner_complaint (self->terminal);
  if (complaint != NULL && self->locked)
    message = g_strdup (_("The session could not start under the folder lock"));
  else if (complaint != NULL)
    message = g_strdup (_("The session could not start"));
  status = describe_exit (wait_status);
  meaning = complaint != NULL ? g_strdup (complaint) : describe_runner_killed (wait_status);
  gtk_label_set_label (self->exit_label, message != NULL ? message : status);
  gtk_label_set_label (self->exit_detail_label, meaning != NULL ? meaning : "");
  gtk_widget_set_visible (GTK_WIDGET (self->exit_detail_label), meaning != NULL);
  if (complaint != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->exit_label), "heading");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->exit_label), "heading");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->exit_label), message != NULL ? status : NULL);
  gtk_action_bar_set_revealed (self->exit_bar, TRUE);
  set_start_failure (self, complaint);
}

static void
terminal_child_exited_cb (PaddockSessionPage *self,
                          int                 wait_status,
                          VteTerminal        *terminal)
{
  set_runner_pid (self, 0, FALSE);

  /* Killed to start again: no end to tell of. */
  if (self->restart_pending && !self->disposed)
    {
      self->restart_pending = FALSE;
      gtk_widget_activate_action (GTK_WIDGET (self), "session.restart", NULL);
      return;
    }
  /* The terminal reports its child's end as it goes away with the page. */
  if (!self->disposed)
    g_signal_emit (self, signals[EXITED], 0, wait_status);
}

static void
terminal_window_title_cb (PaddockSessionPage *self,
                          GParamSpec         *pspec,
                          VteTerminal        *terminal)
{
  set_title (self, vte_terminal_get_window_title (terminal));
}

static gboolean
save_timeline_width (gpointer data)
{
  PaddockSessionPage *self = data;
  int width = gtk_widget_get_width (GTK_WIDGET (self->paned)) - gtk_paned_get_position (self->paned);

  self->save_width_id = 0;
  if (self->settings != NULL && width > 0 && gtk_widget_get_visible (GTK_WIDGET (self->timeline_view)))
    g_settings_set_int (self->settings, "timeline-width", width);
  return G_SOURCE_REMOVE;
}

/* The timeline's width, as the user leaves it, is the next tab's; saved
 * once the dragging stops. */
static void
paned_position_cb (PaddockSessionPage *self,
                   GParamSpec         *pspec,
                   GtkPaned           *paned)
{
  if (self->disposed || !gtk_widget_get_mapped (GTK_WIDGET (paned)) || self->settings == NULL)
    return;
  g_clear_handle_id (&self->save_width_id, g_source_remove);
  self->save_width_id = g_timeout_add (500, save_timeline_width, self);
}

static void
terminal_selection_changed_cb (PaddockSessionPage *self,
                               VteTerminal        *terminal)
{
  update_actions (self);
}

static void
approval_bar_n_waiting_cb (PaddockSessionPage *self,
                           GParamSpec         *pspec,
                           PaddockApprovalBar *bar)
{
  update_actions (self);
}

static void
style_dark_cb (PaddockSessionPage *self,
               GParamSpec         *pspec,
               AdwStyleManager    *style_manager)
{
  paddock_terminal_palette_apply (self->terminal, adw_style_manager_get_dark (style_manager));
}

/* The preferences that shape the terminal: its font and its scrollback,
 * applied at the start and again whenever one of them, or the desktop's
 * monospace font, changes. */
static void
settings_changed_cb (PaddockSessionPage *self,
                     const char         *key,
                     GSettings          *settings)
{
  g_autofree char *font = paddock_settings_dup_font (self->settings, self->desktop_interface);
  g_autoptr(PangoFontDescription) font_desc = pango_font_description_from_string (font);

  vte_terminal_set_font (self->terminal, font_desc);
  if (self->settings != NULL)
    vte_terminal_set_scrollback_lines (self->terminal, g_settings_get_int (self->settings, "scrollback-lines"));
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);

  if (vte_terminal_get_has_selection (self->terminal))
    vte_terminal_copy_clipboard_format (self->terminal, VTE_FORMAT_TEXT);
}

static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  vte_terminal_paste_clipboard (PADDOCK_SESSION_PAGE (widget)->terminal);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);
  double scale = vte_terminal_get_font_scale (self->terminal);

  if (g_str_equal (action_name, "session.zoom-in"))
    scale *= FONT_SCALE_STEP;
  else if (g_str_equal (action_name, "session.zoom-out"))
    scale /= FONT_SCALE_STEP;
  else
    scale = 1.0;

  vte_terminal_set_font_scale (self->terminal, CLAMP (scale, FONT_SCALE_MIN, FONT_SCALE_MAX));
}

static void
decide_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);
  const PaddockMessage *ask = paddock_approval_bar_get_current (self->approval_bar);
  gboolean allow = !g_str_equal (action_name, "session.deny");
  gboolean always = g_str_equal (action_name, "session.allow-always");
  PaddockRemember remember;

  if (ask == NULL)
    return;
  remember = always ? PADDOCK_REMEMBER_PROJECT :
             allow ? paddock_approval_bar_allow_lasts (ask) : PADDOCK_REMEMBER_ONCE;
  paddock_session_page_decide (self, ask->id, allow ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY, remember);
}

static void
kill_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PaddockMessage) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = paddock_client_request_finish (PADDOCK_CLIENT (object), result, &error);
  /* The session's end shows in the tab; a kill that failed says why in the debug log. */
  if (error != NULL)
    g_debug ("cannot kill the session: %s", error->message);
}

static void
pause_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(PaddockSessionPage) self = user_data;
  g_autoptr(PaddockMessage) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = paddock_client_request_finish (PADDOCK_CLIENT (object), result, &error);
  if (error != NULL && !self->disposed)
    {
      g_autofree char *title = NULL;

      /* TRANSLATORS: %s is the session's own reason, e.g. "the agent has ended" */
      title = g_strdup_printf (_("Cannot pause or resume the agent: %s"), error->message);
      g_signal_emit (self, signals[NOTICE], 0, title);
    }
}

/* session.pause and session.resume: every program of the agent's stops
 * (SIGSTOP, through the session) or goes on; the state shows in the tab. */
static void
pause_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);
  PaddockMessageType type = g_str_equal (action_name, "session.pause") ? PADDOCK_MESSAGE_PAUSE
                                                                         : PADDOCK_MESSAGE_RESUME;

  if (self->client == NULL || paddock_client_get_closed (self->client))
    return;
  paddock_client_request_async (self->client, type, 10000, NULL, pause_cb, g_object_ref (self));
}

static void
kill_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);

  if (self->client == NULL || paddock_client_get_closed (self->client))
    return;
  paddock_client_request_async (self->client, PADDOCK_MESSAGE_KILL, 10000, NULL, kill_cb, NULL);
}

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);

  if (paddock_session_page_get_running (self))
    return;

  vte_terminal_reset (self->terminal, TRUE, TRUE);
  set_title (self, NULL);
  paddock_session_page_start (self);
  /* The Restart button that had the keyboard is going away with its bar:
   * typing goes to the new session, not nowhere. */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "terminal") == 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->terminal));
}

static gboolean
paddock_session_page_grab_focus (GtkWidget *widget)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (widget);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "terminal") == 0)
    return gtk_widget_grab_focus (GTK_WIDGET (self->terminal));

  return GTK_WIDGET_CLASS (paddock_session_page_parent_class)->grab_focus (widget);
}

static void
paddock_session_page_constructed (GObject *object)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (object);
  AdwStyleManager *style_manager = adw_style_manager_get_default ();

  G_OBJECT_CLASS (paddock_session_page_parent_class)->constructed (object);

  g_assert (PADDOCK_IS_PROJECT (self->project));
  if (self->agent == NULL)
    self->agent = paddock_agent_lookup ("shell", NULL);

  set_title (self, NULL);

  g_signal_connect_object (style_manager, "notify::dark",
                           G_CALLBACK (style_dark_cb), self, G_CONNECT_SWAPPED);
  style_dark_cb (self, NULL, style_manager);

  self->settings = paddock_settings_new ();
  self->desktop_interface = paddock_settings_new_desktop_interface ();
  /* The width the user last gave the timeline; it can be dragged narrower. */
  if (self->settings != NULL && g_settings_get_int (self->settings, "timeline-width") > 0)
    gtk_widget_set_size_request (GTK_WIDGET (self->timeline_view),
                                 g_settings_get_int (self->settings, "timeline-width"), -1);
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed",
                             G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  if (self->desktop_interface != NULL)
    g_signal_connect_object (self->desktop_interface, "changed::monospace-font-name",
                             G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  settings_changed_cb (self, NULL, NULL);
}

static void
paddock_session_page_dispose (GObject *object)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (object);

  self->disposed = TRUE;
  g_clear_handle_id (&self->quiet_id, g_source_remove);
  g_clear_handle_id (&self->save_width_id, g_source_remove);

  g_cancellable_cancel (self->spawn_cancellable);
  g_clear_object (&self->spawn_cancellable);
  set_client (self, NULL);
  /* Nothing the preferences say applies to a terminal going away. */
  g_clear_object (&self->settings);
  g_clear_object (&self->desktop_interface);

  /* Closing the tab ends the session: the terminal, going away, hangs up on
   * paddock-run, which passes the hangup on to the command. */
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_SESSION_PAGE);

  G_OBJECT_CLASS (paddock_session_page_parent_class)->dispose (object);
}

static void
paddock_session_page_finalize (GObject *object)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (object);

  g_clear_object (&self->project);
  g_clear_object (&self->agent);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->start_failure, g_free);
  g_clear_pointer (&self->reported_lock, paddock_lock_status_free);
  g_clear_pointer (&self->last_denied, paddock_message_free);
  g_clear_pointer (&self->notified, g_hash_table_unref);
  g_clear_weak_pointer (&self->notifying_app);

  G_OBJECT_CLASS (paddock_session_page_parent_class)->finalize (object);
}

static void
paddock_session_page_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_object (value, self->project);
      break;

    case PROP_AGENT:
      g_value_set_object (value, self->agent);
      break;

    case PROP_LOCK_CHOICE:
      g_value_set_int (value, self->lock_choice);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_TAB_TITLE:
      g_value_take_string (value, paddock_session_page_dup_tab_title (self));
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, paddock_session_page_get_running (self));
      break;

    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;

    case PROP_REPORTED_LOCK:
      g_value_set_pointer (value, self->reported_lock);
      break;

    case PROP_LOCKED:
      g_value_set_boolean (value, self->locked);
      break;

    case PROP_NET_LOCKED:
      g_value_set_boolean (value, self->net_locked);
      break;

    case PROP_START_FAILURE:
      g_value_set_string (value, self->start_failure);
      break;

    case PROP_SHOW_TIMELINE:
      g_value_set_boolean (value, paddock_session_page_get_show_timeline (self));
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, paddock_session_page_get_paused (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_session_page_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  PaddockSessionPage *self = PADDOCK_SESSION_PAGE (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      self->project = g_value_dup_object (value);
      break;

    case PROP_AGENT:
      self->agent = g_value_dup_object (value);
      break;

    case PROP_LOCK_CHOICE:
      paddock_session_page_set_lock_choice (self, g_value_get_int (value));
      break;

    case PROP_SHOW_TIMELINE:
      paddock_session_page_set_show_timeline (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_session_page_class_init (PaddockSessionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = paddock_session_page_constructed;
  object_class->dispose = paddock_session_page_dispose;
  object_class->finalize = paddock_session_page_finalize;
  object_class->get_property = paddock_session_page_get_property;
  object_class->set_property = paddock_session_page_set_property;

  widget_class->grab_focus = paddock_session_page_grab_focus;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         PADDOCK_TYPE_PROJECT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* What the session runs; the user's shell when constructed without one. */
  properties[PROP_AGENT] =
    g_param_spec_object ("agent", NULL, NULL,
                         PADDOCK_TYPE_AGENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* A PaddockLockChoice: whether the next start is locked, or follows the project. */
  properties[PROP_LOCK_CHOICE] =
    g_param_spec_int ("lock-choice", NULL, NULL,
                      PADDOCK_LOCK_CHOICE_PROJECT, PADDOCK_LOCK_CHOICE_NO_LOCK, PADDOCK_LOCK_CHOICE_PROJECT,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The terminal's title (what the shell or the program sets), else the project's name. */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* What the tab is called: the project and the agent ("app · Shell"),
   * which tell tabs apart where every shell's title reads the same. */
  properties[PROP_TAB_TITLE] =
    g_param_spec_string ("tab-title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the session started (or last started) under the folder lock. */
  properties[PROP_LOCKED] =
    g_param_spec_boolean ("locked", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the session started (or last started) under the network lock. */
  properties[PROP_NET_LOCKED] =
    g_param_spec_boolean ("net-locked", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* paddock-run's reason when it could not start the session, e.g. under the lock. */
  properties[PROP_START_FAILURE] =
    g_param_spec_string ("start-failure", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The session, as its paddock-run reports it (NULL before it starts). */
  properties[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, PADDOCK_TYPE_CLIENT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The lock the session says it runs under: a PaddockLockStatus, or NULL
   * until it said (or when it could not start). */
  properties[PROP_REPORTED_LOCK] =
    g_param_spec_pointer ("reported-lock", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the session's timeline shows beside its terminal. */
  properties[PROP_SHOW_TIMELINE] =
    g_param_spec_boolean ("show-timeline", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* Whether the session says the agent is paused. */
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PaddockSessionPage::exited:
   * @self: the page
   * @wait_status: paddock-run's wait status, as from waitpid()
   *
   * The session's paddock-run ended.
   */
  signals[EXITED] =
    g_signal_new_class_handler ("exited",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST,
                                G_CALLBACK (paddock_session_page_real_exited),
                                NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_INT);

  /**
   * PaddockSessionPage::program-denied:
   * @self: the page
   * @program: the refused program's name (not escaped for display)
   * @rule: the rule that refused it
   * @reason: (nullable): the rule's reason
   *
   * The policy refused a program the session started.
   */
  signals[PROGRAM_DENIED] =
    g_signal_new ("program-denied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * PaddockSessionPage::notice:
   * @self: the page
   * @text: a one-line note for the user, e.g. why a request failed
   */
  signals[ATTENTION] =
    g_signal_new ("attention", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  signals[NOTICE] =
    g_signal_new ("notice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (VTE_TYPE_TERMINAL);
  g_type_ensure (PADDOCK_TYPE_APPROVAL_BAR);
  g_type_ensure (PADDOCK_TYPE_TIMELINE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-session-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, stack);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, paned);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, approval_bar);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, terminal);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, exit_bar);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, exit_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, exit_detail_label);
  gtk_widget_class_bind_template_child (widget_class, PaddockSessionPage, timeline_view);
  gtk_widget_class_bind_template_callback (widget_class, terminal_child_exited_cb);
  gtk_widget_class_bind_template_callback (widget_class, terminal_window_title_cb);
  gtk_widget_class_bind_template_callback (widget_class, terminal_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, approval_bar_n_waiting_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "terminal_bell_cb",
                                                G_CALLBACK (paddock_session_page_terminal_bell_cb));
  gtk_widget_class_bind_template_callback (widget_class, paned_position_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "terminal_commit_cb",
                                                G_CALLBACK (paddock_session_page_terminal_commit_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "terminal_contents_changed_cb",
                                                G_CALLBACK (paddock_session_page_terminal_contents_changed_cb));

  gtk_widget_class_install_action (widget_class, "session.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "session.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "session.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "session.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "session.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "session.restart", NULL, restart_action);
  /* The approval bar's buttons, on the ask it shows. */
  gtk_widget_class_install_action (widget_class, "session.allow", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "session.allow-always", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "session.deny", NULL, decide_action);
  gtk_widget_class_install_action (widget_class, "session.kill", NULL, kill_action);
  gtk_widget_class_install_action (widget_class, "session.pause", NULL, pause_action);
  gtk_widget_class_install_action (widget_class, "session.resume", NULL, pause_action);

  gtk_widget_class_set_css_name (widget_class, "paddock-session");
}

static void
paddock_session_page_init (PaddockSessionPage *self)
{
  self->notified = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_actions (self);
}

/**
 * paddock_session_page_new:
 * @project: the project the session runs in
 * @agent: (nullable): what it runs; %NULL for the user's shell
 * @lock_choice: whether it runs locked, or as the project's saved choice says
 *
 * Returns: (transfer floating): a new page; call paddock_session_page_start()
 *   to start its session
 */
PaddockSessionPage *
paddock_session_page_new (PaddockProject    *project,
                          PaddockAgent      *agent,
                          PaddockLockChoice  lock_choice)
{
  g_return_val_if_fail (PADDOCK_IS_PROJECT (project), NULL);
  g_return_val_if_fail (agent == NULL || PADDOCK_IS_AGENT (agent), NULL);

  return g_object_new (PADDOCK_TYPE_SESSION_PAGE,
                       "project", project,
                       "agent", agent,
                       "lock-choice", lock_choice,
                       NULL);
}

PaddockAgent *
paddock_session_page_get_agent (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->agent;
}

PaddockLockChoice
paddock_session_page_get_lock_choice (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), PADDOCK_LOCK_CHOICE_PROJECT);

  return self->lock_choice;
}

/**
 * paddock_session_page_set_lock_choice:
 * @self: a session page
 * @lock_choice: the lock its next start asks for
 *
 * A running session keeps the lock it started with: the choice holds from
 * its next start (a restart).
 */
void
paddock_session_page_set_lock_choice (PaddockSessionPage *self,
                                      PaddockLockChoice   lock_choice)
{
  g_return_if_fail (PADDOCK_IS_SESSION_PAGE (self));
  g_return_if_fail (lock_choice <= PADDOCK_LOCK_CHOICE_NO_LOCK);

  if (self->lock_choice == lock_choice)
    return;
  self->lock_choice = lock_choice;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCK_CHOICE]);
}

PaddockProject *
paddock_session_page_get_project (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->project;
}

/* The terminal's title as the shell last set it, else the project's name. */
const char *
paddock_session_page_get_title (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->title;
}

VteTerminal *
paddock_session_page_get_terminal (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->terminal;
}

/* The process id of the session's paddock-run, or 0 when none runs. */
GPid
paddock_session_page_get_runner_pid (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), 0);

  return self->runner_pid;
}

/* Whether the session started, or last started, under the folder lock. */
gboolean
paddock_session_page_get_locked (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);

  return self->locked;
}

/* Whether the session started (or last started) under the network lock. */
gboolean
paddock_session_page_get_net_locked (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);

  return self->net_locked;
}

/* paddock-run's reason when it could not start the last session, else NULL. */
const char *
paddock_session_page_get_start_failure (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->start_failure;
}

/* The connection to the session's paddock-run, or NULL before it starts. */
PaddockClient *
paddock_session_page_get_client (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->client;
}

/* The lock the session says it runs under, or NULL until it said. */
PaddockLockStatus *
paddock_session_page_get_reported_lock (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->reported_lock;
}

/* Whether the session is starting or running. */
gboolean
paddock_session_page_get_running (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);

  return self->runner_pid > 0 || self->starting;
}

/* The approval bar above the terminal. */
PaddockApprovalBar *
paddock_session_page_get_approval_bar (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->approval_bar;
}

/**
 * paddock_session_page_decide:
 * @self: a session page
 * @ask_id: the id of an ask of its session
 * @decision: %PADDOCK_DECISION_ALLOW or %PADDOCK_DECISION_DENY
 * @remember: how long the session should remember it
 *
 * Answers the ask @ask_id, if it still waits for an answer from here, and
 * takes it out of the approval bar; it leaves the bar for good when the
 * session says it was decided.
 *
 * Returns: whether the ask waited and the answer was sent
 */
gboolean
paddock_session_page_decide (PaddockSessionPage *self,
                             gint64              ask_id,
                             PaddockDecision     decision,
                             PaddockRemember     remember)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);
  g_return_val_if_fail (decision == PADDOCK_DECISION_ALLOW || decision == PADDOCK_DECISION_DENY, FALSE);

  if (self->client == NULL || !paddock_approval_bar_is_waiting (self->approval_bar, ask_id))
    return FALSE;
  if (!paddock_client_decide (self->client, ask_id, decision, remember, &error))
    {
      g_debug ("cannot answer ask %" G_GINT64_FORMAT ": %s", ask_id, error->message);
      return FALSE;
    }
  paddock_approval_bar_set_answered (self->approval_bar, ask_id);
  return TRUE;
}

/**
 * paddock_session_page_restart:
 * @self: a session page
 *
 * Starts the session again, with the page's lock choice as it is now:
 * at once when it has ended, else once the running one, killed, has.
 */
void
paddock_session_page_restart (PaddockSessionPage *self)
{
  g_return_if_fail (PADDOCK_IS_SESSION_PAGE (self));

  if (!paddock_session_page_get_running (self))
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "session.restart", NULL);
      return;
    }
  self->restart_pending = TRUE;
  if (self->client != NULL && !paddock_client_get_closed (self->client))
    paddock_client_request_async (self->client, PADDOCK_MESSAGE_KILL, 10000, NULL, kill_cb, NULL);
  else if (self->runner_pid > 0)
    kill (self->runner_pid, SIGTERM);
}

/* Whether the session says the agent is paused (every program of its stopped). */
gboolean
paddock_session_page_get_paused (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);

  return self->client != NULL && !paddock_client_get_closed (self->client) &&
         paddock_client_get_paused (self->client);
}

/**
 * paddock_session_page_dup_busy_program:
 * @self: a session page
 *
 * What the session's shell is running in the foreground, as GNOME Console
 * asks before closing a busy tab: the terminal's foreground process group
 * is then another than the shell's. A tab at its shell's prompt, one not
 * running, or one whose shell has not said who it is yet, is not busy.
 *
 * Returns: (transfer full) (nullable): the foreground program's name, or
 *   %NULL when the tab can close without asking
 */
char *
paddock_session_page_dup_busy_program (PaddockSessionPage *self)
{
  const PaddockMessage *hello;
  VtePty *pty;
  pid_t foreground, shell_group;
  g_autofree char *comm_path = NULL;
  g_autofree char *comm = NULL;

  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  if (self->runner_pid <= 0 || self->client == NULL)
    return NULL;
  hello = paddock_client_get_hello (self->client);
  pty = vte_terminal_get_pty (self->terminal);
  if (hello == NULL || hello->agent_pid <= 0 || pty == NULL)
    return NULL;
  foreground = tcgetpgrp (vte_pty_get_fd (pty));
  shell_group = getpgid (hello->agent_pid);
  if (foreground <= 0 || shell_group <= 0 || foreground == shell_group)
    return NULL;
  comm_path = g_strdup_printf ("/proc/%d/comm", (int) foreground);
  if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
    return g_strdup (_("A program"));
  return g_strdup (g_strchomp (comm));
}

/**
 * paddock_session_page_dup_tab_title:
 * @self: a session page
 *
 * Returns: (transfer full): the tab's name: the project and the agent
 */
char *
paddock_session_page_dup_tab_title (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  /* TRANSLATORS: a tab's title: the project's name, then the agent's ("Claude Code", "Shell") */
  return g_strdup_printf (_("%s · %s"), paddock_project_get_name (self->project),
                          paddock_agent_get_name (self->agent));
}

/* The view of the session's timeline, beside the terminal. */
PaddockTimelineView *
paddock_session_page_get_timeline_view (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return self->timeline_view;
}

/* The timeline of the session started last, or NULL before it starts. */
PaddockTimeline *
paddock_session_page_get_timeline (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), NULL);

  return paddock_timeline_view_get_timeline (self->timeline_view);
}

gboolean
paddock_session_page_get_show_timeline (PaddockSessionPage *self)
{
  g_return_val_if_fail (PADDOCK_IS_SESSION_PAGE (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->timeline_view));
}

/* Shows or hides the timeline pane; the terminal takes the room. */
void
paddock_session_page_set_show_timeline (PaddockSessionPage *self,
                                        gboolean            show_timeline)
{
  g_return_if_fail (PADDOCK_IS_SESSION_PAGE (self));

  show_timeline = !!show_timeline;
  if (paddock_session_page_get_show_timeline (self) == show_timeline)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->timeline_view), show_timeline);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_TIMELINE]);
}
