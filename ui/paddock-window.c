/* paddock-window.c: a Paddock window: agent sessions in tabs, each in its project
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-window.h"

#include <glib/gi18n.h>
#include <sys/wait.h>

#include "paddock-escape.h"
#include "paddock-history-dialog.h"
#include "paddock-lock.h"
#include "paddock-hosts-window.h"
#include "paddock-lock-popover.h"
#include "paddock-lock-status.h"
#include "paddock-new-session-dialog.h"
#include "paddock-session-command.h"
#include "paddock-settings.h"
#include "paddock-toasts.h"
#include "paddock-vault-window.h"

struct _PaddockWindow
{
  AdwApplicationWindow  parent_instance;

  PaddockProject       *project;      /* the selected tab's */
  gboolean              lockable;     /* the project can be locked to (paddock_lock_check_project) */
  char                 *held_denial;  /* why not, where it holds a folder the lock keeps from the agent */
  GSettings            *settings;
  gboolean              show_timeline;
  gboolean              closing;
  gboolean              close_confirmed;  /* the user said to close while programs ran */
  AdwToast             *denied_toast;     /* the note on refused programs, while it shows */
  guint                 n_denied;         /* how many it tells of */
  GCancellable         *cancellable;
  PaddockLockStatus    *lock_status;       /* what the lock can do here, once known */
  char                 *lock_status_error; /* why that is not known */

  GtkStack             *stack;
  AdwWindowTitle       *window_title;
  GtkButton            *new_tab_button;
  GtkMenuButton        *lock_button;
  GtkToggleButton      *network_button;
  GtkButton            *pause_button;
  GtkButton            *resume_button;
  AdwToastOverlay      *toast_overlay;
  AdwTabView           *tab_view;
  AdwStatusPage        *error_page;
  AdwStatusPage        *empty_page;
  PaddockLockPopover   *lock_popover;
};

enum {
  PROP_0,
  PROP_PROJECT,
  PROP_LOCK,
  PROP_NETWORK_LOCKED,
  PROP_SHOW_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockWindow, paddock_window, ADW_TYPE_APPLICATION_WINDOW)

static PaddockSessionPage *
get_selected_session (PaddockWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page == NULL)
    return NULL;

  return PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));
}

/* Pause / Resume and Kill act on the selected tab's agent while it runs. */
static void
update_control (PaddockWindow *self)
{
  PaddockSessionPage *session = get_selected_session (self);
  gboolean running = session != NULL && paddock_session_page_get_running (session) &&
                     paddock_session_page_get_client (session) != NULL;
  gboolean paused = session != NULL && paddock_session_page_get_paused (session);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.pause-session", running && !paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.resume-session", running && paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.kill-session", running);
  gtk_widget_set_visible (GTK_WIDGET (self->pause_button), !paused);
  gtk_widget_set_visible (GTK_WIDGET (self->resume_button), paused);
}

static void
update_actions (PaddockWindow *self)
{
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;
  gboolean several = adw_tab_view_get_n_pages (self->tab_view) > 1;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-tab", self->project != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.past-sessions", self->project != NULL);
  /* A project that cannot be locked to (see update_lock) can still have a
   * lock saved before: that one can be turned off. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.lock",
                                 self->project != NULL &&
                                 (self->lockable || paddock_project_get_lock (self->project)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", has_pages);
  update_control (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.next-tab", several);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.previous-tab", several);
}

/* What enforces the lock here, for display, or NULL while that is not known. */
static char *
dup_mechanism (PaddockWindow *self)
{
  return self->lock_status != NULL ? paddock_lock_status_dup_mechanism (self->lock_status) : NULL;
}

/* The tab's tooltip (markup) and indicator say whether its session is locked. */
static void
update_page_lock (PaddockWindow *self,
                  AdwTabPage    *page)
{
  PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));
  gboolean locked = paddock_session_page_get_locked (session);
  gboolean net_locked = paddock_session_page_get_net_locked (session);
  const char *failure = paddock_session_page_get_start_failure (session);
  PaddockLockStatus *reported = paddock_session_page_get_reported_lock (session);
  /* The session's own word, once it gave it, over what a lock here would be. */
  g_autofree char *mechanism = reported != NULL ? paddock_lock_status_dup_mechanism (reported)
                                                : dup_mechanism (self);
  g_autofree char *state = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *tab_title = NULL;

  if (failure != NULL)
    /* TRANSLATORS: %s is paddock-run's reason, e.g. "cannot lock the folder: …" */
    state = g_strdup_printf (locked ? _("Could not start under the folder lock: %s") : _("Could not start: %s"),
                             failure);
  else if (locked && mechanism != NULL)
    /* TRANSLATORS: %s is what enforces the lock, e.g. "Landlock, ABI 7" */
    state = g_strdup_printf (_("Folder lock on (%s)"), mechanism);
  else
    state = g_strdup (locked ? _("Folder lock on") : _("Folder lock off"));

  if (net_locked)
    {
      /* TRANSLATORS: a tab's tooltip and indicator: the folder lock's state, then the network lock's,
       * e.g. "Folder lock on, network locked" */
      char *both = g_strdup_printf (_("%s, network locked"), state);

      g_free (state);
      state = both;
    }
  tab_title = paddock_session_page_dup_tab_title (session);
  tooltip = g_markup_printf_escaped ("%s\n%s\n<small>%s</small>", tab_title,
                                     paddock_session_page_get_title (session), state);
  adw_tab_page_set_tooltip (page, tooltip);

  if (paddock_session_page_get_paused (session))
    {
      g_autoptr(GIcon) icon = g_themed_icon_new ("media-playback-pause-symbolic");

      adw_tab_page_set_indicator_icon (page, icon);
      /* TRANSLATORS: a tab's indicator: its agent is paused */
      adw_tab_page_set_indicator_tooltip (page, _("Paused"));
    }
  else if (locked || net_locked || failure != NULL)
    {
      g_autoptr(GIcon) icon = g_themed_icon_new (failure != NULL ? "dialog-warning-symbolic"
                                                 : locked ? "changes-prevent-symbolic"
                                                 : "network-wired-disconnected-symbolic");

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, state);
    }
  else
    {
      adw_tab_page_set_indicator_icon (page, NULL);
      adw_tab_page_set_indicator_tooltip (page, "");
    }
}

static void
update_pages_lock (PaddockWindow *self)
{
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    update_page_lock (self, adw_tab_view_get_nth_page (self->tab_view, i));
}

/* Says, in the lock's popover, how the selected tab's session runs. */
static void
update_session_lock (PaddockWindow *self)
{
  PaddockSessionPage *session = get_selected_session (self);
  PaddockLockStatus *reported;
  gboolean locked;
  gboolean running;
  g_autofree char *text = NULL;

  if (session == NULL)
    {
      paddock_lock_popover_set_session (self->lock_popover, NULL, NULL);
      return;
    }
  locked = paddock_session_page_get_locked (session);
  running = paddock_session_page_get_running (session);
  reported = paddock_session_page_get_reported_lock (session);

  if (paddock_session_page_get_start_failure (session) != NULL)
    text = g_strdup (locked ? _("This tab could not start under the folder lock") : _("This tab could not start"));
  else if (locked && reported != NULL && paddock_lock_status_get_available (reported))
    {
      g_autofree char *mechanism = paddock_lock_status_dup_mechanism (reported);

      /* TRANSLATORS: %s is what the session says enforces its lock, e.g. "Landlock, ABI 7" */
      text = g_strdup_printf (running ? _("This tab runs under the folder lock (%s)")
                                      : _("This tab ran under the folder lock (%s)"), mechanism);
    }
  else if (running)
    text = g_strdup (locked ? _("This tab runs under the folder lock") : _("This tab runs without the folder lock"));
  else
    text = g_strdup (locked ? _("This tab ran under the folder lock") : _("This tab ran without the folder lock"));
  paddock_lock_popover_set_session (self->lock_popover,
                                    paddock_session_page_get_start_failure (session) != NULL ? "dialog-warning-symbolic" :
                                    locked ? "changes-prevent-symbolic" : "changes-allow-symbolic",
                                    text);
}

/* Tells the popover what the lock does on this machine. */
static void
update_protections (PaddockWindow *self)
{
  paddock_lock_popover_set_status (self->lock_popover, self->lock_status, self->lock_status_error);
}

/* The lock button and the popover follow the project's saved choice. */
static void
update_lock (PaddockWindow *self)
{
  gboolean lock = self->project != NULL && paddock_project_get_lock (self->project);
  const GError *error = self->project != NULL ? paddock_project_get_lock_error (self->project) : NULL;
  g_autofree char *description = NULL;

  gtk_menu_button_set_icon_name (self->lock_button, lock ? "changes-prevent-symbolic" : "changes-allow-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->lock_button),
                               lock ? _("Folder Lock: On for New Tabs") : _("Folder Lock: Off"));

  if (self->project == NULL)
    return;
  update_actions (self);
  if (!self->lockable && self->held_denial != NULL)
    {
      g_autofree char *held = paddock_display_path (self->held_denial);

      /* TRANSLATORS: the first %s is the project folder's name, the second a folder in it, such as ~/.config/gh */
      description = g_strdup_printf (_("%s holds %s, which a locked agent must not reach, and a lock gives the "
                                       "agent its whole project. Open a folder inside it to lock it."),
                                     paddock_project_get_name (self->project), held);
    }
  else if (!self->lockable)
    /* TRANSLATORS: %s is the project folder's name */
    description = g_strdup_printf (_("%s holds your home folder, so a lock here would still let the agent "
                                     "change what every login runs, such as ~/.bashrc. Open the project’s own "
                                     "folder to lock it."),
                                   paddock_project_get_name (self->project));
  else if (error != NULL)
    /* TRANSLATORS: %s says why the project's settings file cannot be read */
    description = g_strdup_printf (_("The project’s saved settings cannot be read, so new tabs ask for the lock "
                                     "and paddock-run will say why it cannot apply it: %s"),
                                   error->message);
  else if (lock)
    /* TRANSLATORS: %s is the project folder's name */
    description = g_strdup_printf (_("New tabs in %s can change files only inside the project, "
                                     "enforced by the kernel. Open tabs keep how they started."),
                                   paddock_project_get_name (self->project));
  else
    description = g_strdup_printf (_("New tabs in %s can change any of your files. "
                                     "Open tabs keep how they started."),
                                   paddock_project_get_name (self->project));
  paddock_lock_popover_set_description (self->lock_popover, description);
}

static void
project_lock_cb (PaddockWindow  *self,
                 GParamSpec     *pspec,
                 PaddockProject *project)
{
  update_lock (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCK]);
}

/* The network button follows the project's saved choice. */
static void
update_network (PaddockWindow *self)
{
  gboolean locked = self->project != NULL && paddock_project_get_network_locked (self->project);

  gtk_button_set_icon_name (GTK_BUTTON (self->network_button),
                            locked ? "network-wired-disconnected-symbolic" : "network-wired-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->network_button),
                               /* TRANSLATORS: tooltip of the header's network lock button */
                               locked ? _("Network Lock: On for New Tabs") : _("Network Lock: Off"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.network", self->project != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.network-hosts", self->project != NULL);
}

static void
project_network_cb (PaddockWindow  *self,
                    GParamSpec     *pspec,
                    PaddockProject *project)
{
  update_network (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NETWORK_LOCKED]);
}

static void
set_project (PaddockWindow  *self,
             PaddockProject *project)
{
  if (self->project == project)
    return;

  if (self->project != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->project, project_lock_cb, self);
      g_signal_handlers_disconnect_by_func (self->project, project_network_cb, self);
    }

  if (g_set_object (&self->project, project))
    {
      if (project != NULL)
        {
          g_signal_connect_object (project, "notify::lock",
                                   G_CALLBACK (project_lock_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (project, "notify::network-locked",
                                   G_CALLBACK (project_network_cb), self, G_CONNECT_SWAPPED);
        }
      /* Once per project: it resolves the folder's path on disk. */
      g_clear_pointer (&self->held_denial, g_free);
      self->lockable = project != NULL &&
                       paddock_lock_check_project (paddock_project_get_path (project), &self->held_denial, NULL);
      update_actions (self);
      update_lock (self);
      update_network (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECT]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCK]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NETWORK_LOCKED]);
    }
}

static void
lock_status_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PaddockWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  PaddockLockStatus *status = paddock_lock_status_load_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_pointer (&self->lock_status, paddock_lock_status_free);
  g_clear_pointer (&self->lock_status_error, g_free);
  self->lock_status = status;
  if (error != NULL)
    self->lock_status_error = g_strdup (error->message);
  update_protections (self);
  update_pages_lock (self);
}

static void
load_lock_status (PaddockWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *runner = paddock_session_command_find_runner (&error);

  if (runner == NULL)
    {
      self->lock_status_error = g_strdup (error->message);
      update_protections (self);
      return;
    }
  update_protections (self);
  paddock_lock_status_load_async (runner, self->cancellable, lock_status_cb, g_object_ref (self));
}

/* The running sessions of @project, in every window, that do not run as
 * its saved lock choice now says. */
static GPtrArray *
list_sessions_to_restart (PaddockWindow  *self,
                          PaddockProject *project,
                          gboolean        network)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GPtrArray *sessions = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean lock = network ? paddock_project_get_network_locked (project) : paddock_project_get_lock (project);

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    {
      AdwTabView *tab_view;

      if (!PADDOCK_IS_WINDOW (l->data))
        continue;
      tab_view = PADDOCK_WINDOW (l->data)->tab_view;
      for (int i = 0; i < adw_tab_view_get_n_pages (tab_view); i++)
        {
          PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (adw_tab_view_get_nth_page (tab_view, i)));

          if (paddock_session_page_get_project (session) == project &&
              paddock_session_page_get_running (session) &&
              (network ? paddock_session_page_get_net_locked (session)
                       : paddock_session_page_get_locked (session)) != lock)
            g_ptr_array_add (sessions, g_object_ref (session));
        }
    }
  return sessions;
}

static void
free_sessions (gpointer  data,
               GClosure *closure)
{
  g_ptr_array_unref (data);
}

static void
restart_response_cb (GPtrArray        *sessions,
                     const char       *response,
                     AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "restart") != 0)
    return;
  for (guint i = 0; i < sessions->len; i++)
    {
      PaddockSessionPage *session = g_ptr_array_index (sessions, i);

      /* As the project says from now on, whatever it was started with. */
      paddock_session_page_set_lock_choice (session, PADDOCK_LOCK_CHOICE_PROJECT);
      paddock_session_page_restart (session);
    }
}

/* A lock cannot change inside a running program: when the project's
 * choice changed under running sessions, offers to restart them as it
 * now says. */
static void
offer_restart (PaddockWindow  *self,
               PaddockProject *project)
{
  g_autoptr(GPtrArray) sessions = list_sessions_to_restart (self, project, FALSE);
  gboolean lock = paddock_project_get_lock (project);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (sessions->len == 0)
    return;
  if (lock)
    /* TRANSLATORS: %u is how many sessions run, %s the project folder's name */
    body = g_strdup_printf (ngettext ("New tabs in %2$s run under the folder lock. %1$u session there is running "
                                      "unlocked: a running program cannot be locked. Restart it locked? What it "
                                      "runs now ends.",
                                      "New tabs in %2$s run under the folder lock. %1$u sessions there are running "
                                      "unlocked: a running program cannot be locked. Restart them locked? What "
                                      "they run now ends.", sessions->len),
                            sessions->len, paddock_project_get_name (project));
  else
    body = g_strdup_printf (ngettext ("New tabs in %2$s run without the folder lock. %1$u session there is still "
                                      "locked, and stays so until it restarts. Restart it unlocked? What it runs "
                                      "now ends.",
                                      "New tabs in %2$s run without the folder lock. %1$u sessions there are still "
                                      "locked, and stay so until they restart. Restart them unlocked? What they "
                                      "run now ends.", sessions->len),
                            sessions->len, paddock_project_get_name (project));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       lock ? _("Restart Locked?") : _("Restart Unlocked?"), body));
  adw_message_dialog_add_responses (dialog, "keep", _("_Keep Running"),
                                    "restart", lock ? _("_Restart Locked") : _("_Restart Unlocked"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "restart",
                                              lock ? ADW_RESPONSE_SUGGESTED : ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "restart");
  adw_message_dialog_set_close_response (dialog, "keep");
  g_signal_connect_data (dialog, "response", G_CALLBACK (restart_response_cb),
                         g_ptr_array_ref (sessions), free_sessions, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The network lock cannot change inside a running program either: when
 * the project's choice changed under running sessions, offers to
 * restart them as it now says. */
static void
offer_network_restart (PaddockWindow  *self,
                       PaddockProject *project)
{
  g_autoptr(GPtrArray) sessions = list_sessions_to_restart (self, project, TRUE);
  gboolean locked = paddock_project_get_network_locked (project);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (sessions->len == 0)
    return;
  if (locked)
    /* TRANSLATORS: %u is how many sessions run, %s the project folder's name */
    body = g_strdup_printf (ngettext ("New tabs in %2$s run under the network lock. %1$u session there reaches "
                                      "any host: a running program's network cannot be locked. Restart it locked? "
                                      "What it runs now ends.",
                                      "New tabs in %2$s run under the network lock. %1$u sessions there reach "
                                      "any host: a running program's network cannot be locked. Restart them "
                                      "locked? What they run now ends.", sessions->len),
                            sessions->len, paddock_project_get_name (project));
  else
    /* TRANSLATORS: %u is how many sessions run, %s the project folder's name */
    body = g_strdup_printf (ngettext ("New tabs in %2$s reach any host. %1$u session there is still under the "
                                      "network lock until it restarts. Restart it unlocked? What it runs now ends.",
                                      "New tabs in %2$s reach any host. %1$u sessions there are still under the "
                                      "network lock until they restart. Restart them unlocked? What they run now "
                                      "ends.", sessions->len),
                            sessions->len, paddock_project_get_name (project));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       /* TRANSLATORS: a dialog's title: restart sessions under
                                                        * the network lock, or without it */
                                                       locked ? _("Restart with the Network Locked?")
                                                              : _("Restart with the Network Open?"), body));
  adw_message_dialog_add_responses (dialog, "keep", _("_Keep Running"),
                                    "restart", locked ? _("_Restart Locked") : _("_Restart Unlocked"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "restart",
                                              locked ? ADW_RESPONSE_SUGGESTED : ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "restart");
  adw_message_dialog_set_close_response (dialog, "keep");
  g_signal_connect_data (dialog, "response", G_CALLBACK (restart_response_cb),
                         g_ptr_array_ref (sessions), free_sessions, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The user's choice, from the win.network action: saved for new tabs. */
static void
set_network_locked (PaddockWindow *self,
                    gboolean       locked)
{
  g_autoptr(GError) error = NULL;
  AdwToast *toast;

  if (self->project == NULL || paddock_project_get_network_locked (self->project) == locked)
    return;
  if (!paddock_project_set_network_locked (self->project, locked, &error))
    {
      /* TRANSLATORS: a dialog's title: the network lock's choice could not be saved */
      GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Cannot Save the Network Lock"),
                                                  error->message);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NETWORK_LOCKED]);
      return;
    }
  toast = locked
    /* TRANSLATORS: %s is the project folder's name */
    ? adw_toast_new_format (_("Network lock on for new tabs in %s"), paddock_project_get_name (self->project))
    /* TRANSLATORS: %s is the project folder's name */
    : adw_toast_new_format (_("Network lock off for new tabs in %s"), paddock_project_get_name (self->project));
  paddock_toasts_add (self->toast_overlay, toast);
  offer_network_restart (self, self->project);
}

static void
lock_saved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PaddockProject *project = PADDOCK_PROJECT (object);
  g_autoptr(PaddockWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdwToast) toast = NULL;
  GtkWidget *dialog;

  if (!paddock_project_set_lock_finish (project, result, &error))
    {
      if (self->closing)
        return;
      dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Cannot Save the Folder Lock"), error->message);
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  if (self->closing)
    return;

  toast = paddock_project_get_lock (project)
    /* TRANSLATORS: %s is the project folder's name */
    ? adw_toast_new_format (_("Folder lock on for new tabs in %s"), paddock_project_get_name (project))
    : adw_toast_new_format (_("Folder lock off for new tabs in %s"), paddock_project_get_name (project));
  paddock_toasts_add (self->toast_overlay, g_steal_pointer (&toast));
  offer_restart (self, project);
}

/* The user's choice, from the win.lock action: saved for new tabs. */
static void
set_lock (PaddockWindow *self,
          gboolean       lock)
{
  if (self->project == NULL || paddock_project_get_lock (self->project) == lock)
    return;

  paddock_project_set_lock_async (self->project, lock, NULL, lock_saved_cb, g_object_ref (self));
}

static void
update_title (PaddockWindow *self)
{
  PaddockSessionPage *session = get_selected_session (self);
  g_autofree char *subtitle = NULL;
  const char *title;

  if (session == NULL)
    return;

  title = paddock_session_page_get_title (session);
  subtitle = paddock_project_dup_display_path (paddock_session_page_get_project (session));

  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
session_title_cb (PaddockWindow      *self,
                  GParamSpec         *pspec,
                  PaddockSessionPage *session)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (session));

  if (page != NULL)
    update_page_lock (self, page);
  if (session == get_selected_session (self))
    update_title (self);
}

static void
session_lock_state_cb (PaddockWindow      *self,
                   GParamSpec         *pspec,
                   PaddockSessionPage *session)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (session));

  if (page != NULL)
    update_page_lock (self, page);
  if (session == get_selected_session (self))
    {
      update_session_lock (self);
      update_control (self);
    }
}

/* A tab out of sight wants the user: an ask, the bell, quiet after output. */
static void
session_attention_cb (PaddockWindow      *self,
                      const char         *reason,
                      PaddockSessionPage *session)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (session));

  if (page != NULL && page != adw_tab_view_get_selected_page (self->tab_view))
    adw_tab_page_set_needs_attention (page, TRUE);
}

static void
session_notice_cb (PaddockWindow      *self,
                   const char         *text,
                   PaddockSessionPage *session)
{
  paddock_toasts_add (self->toast_overlay, adw_toast_new (text));
}

static void
denied_toast_dismissed_cb (PaddockWindow *self,
                           AdwToast      *toast)
{
  if (self->denied_toast == toast)
    {
      self->denied_toast = NULL;
      self->n_denied = 0;
    }
}

/* One note for a run of refusals, not a toast each: an agent that retries
 * would queue them for minutes. */
static void
session_program_denied_cb (PaddockWindow      *self,
                           const char         *program,
                           const char         *rule,
                           const char         *reason,
                           PaddockSessionPage *session)
{
  g_autofree char *shown_program = paddock_escape_for_display (program, -1);
  g_autofree char *shown_rule = paddock_escape_for_display (rule, -1);
  g_autofree char *title = NULL;

  self->n_denied++;
  if (self->n_denied == 1)
    /* TRANSLATORS: the first %s is a program's name, the second a policy rule's */
    title = g_strdup_printf (_("%s was refused by rule “%s”"), shown_program, shown_rule);
  else
    /* TRANSLATORS: %u is how many programs were refused (two or more); then a program's name and a rule's */
    title = g_strdup_printf (ngettext ("%u program was refused, the last %s by rule “%s”",
                                       "%u programs were refused, the last %s by rule “%s”", self->n_denied),
                             self->n_denied, shown_program, shown_rule);
  if (self->denied_toast != NULL)
    {
      adw_toast_set_title (self->denied_toast, title);
      return;
    }
  self->denied_toast = adw_toast_new (title);
  g_signal_connect_object (self->denied_toast, "dismissed", G_CALLBACK (denied_toast_dismissed_cb), self,
                           G_CONNECT_SWAPPED);
  paddock_toasts_add (self->toast_overlay, self->denied_toast);
}

static void
session_exited_cb (PaddockWindow      *self,
                   int                 wait_status,
                   PaddockSessionPage *session)
{
  AdwTabPage *page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (session));

  if (page == NULL)
    return;

  /* A clean exit is the user leaving the shell: the tab goes, as in any
   * terminal. Anything else stays open to show what happened, and flags a
   * tab in the background. */
  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0)
    adw_tab_view_close_page (self->tab_view, page);
  else if (page != adw_tab_view_get_selected_page (self->tab_view))
    adw_tab_page_set_needs_attention (page, TRUE);
}

/* What is open is saved, to come back at the next start. */
static void
sessions_changed (PaddockWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (PADDOCK_IS_APPLICATION (app))
    paddock_application_sessions_changed (PADDOCK_APPLICATION (app));
}

static void
page_attached_cb (PaddockWindow *self,
                  AdwTabPage    *page,
                  int            position,
                  AdwTabView    *tab_view)
{
  PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));

  if (self->project == NULL)
    set_project (self, paddock_session_page_get_project (session));

  g_object_bind_property (session, "tab-title", page, "title", G_BINDING_SYNC_CREATE);
  /* Every tab of the window shows its timeline, or none does. */
  g_object_set_data (G_OBJECT (session), "paddock-show-timeline-binding",
                     g_object_bind_property (self, "show-timeline", session, "show-timeline",
                                             G_BINDING_SYNC_CREATE));
  update_page_lock (self, page);

  g_signal_connect_object (session, "notify::title",
                           G_CALLBACK (session_title_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::locked",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::net-locked",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::start-failure",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::reported-lock",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::running",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "exited",
                           G_CALLBACK (session_exited_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::paused",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::client",
                           G_CALLBACK (session_lock_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "attention",
                           G_CALLBACK (session_attention_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notice",
                           G_CALLBACK (session_notice_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "program-denied",
                           G_CALLBACK (session_program_denied_cb), self, G_CONNECT_SWAPPED);
  sessions_changed (self);
}

static void
page_detached_cb (PaddockWindow *self,
                  AdwTabPage    *page,
                  int            position,
                  AdwTabView    *tab_view)
{
  GObject *session = G_OBJECT (adw_tab_page_get_child (page));
  GBinding *binding = g_object_steal_data (session, "paddock-show-timeline-binding");

  /* A tab dragged to another window follows that one. */
  if (binding != NULL)
    g_binding_unbind (binding);
  g_signal_handlers_disconnect_by_data (session, self);
  sessions_changed (self);
}

/* A tab left with an ask waiting stays marked until it is seen again. */
static void
mark_waiting_tabs (PaddockWindow *self)
{
  AdwTabPage *selected = adw_tab_view_get_selected_page (self->tab_view);

  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));

      if (page != selected &&
          paddock_approval_bar_get_n_waiting (paddock_session_page_get_approval_bar (session)) > 0)
        adw_tab_page_set_needs_attention (page, TRUE);
    }
}

static void
selected_page_cb (PaddockWindow *self,
                  GParamSpec    *pspec,
                  AdwTabView    *tab_view)
{
  PaddockSessionPage *session = get_selected_session (self);

  if (session == NULL)
    return;

  /* The lock button and its popover are the selected tab's project's. */
  set_project (self, paddock_session_page_get_project (session));
  adw_tab_page_set_needs_attention (adw_tab_view_get_selected_page (tab_view), FALSE);
  mark_waiting_tabs (self);
  update_title (self);
  update_session_lock (self);
  update_control (self);
  gtk_widget_grab_focus (GTK_WIDGET (session));
}

static void
n_pages_cb (PaddockWindow *self,
            GParamSpec    *pspec,
            AdwTabView    *tab_view)
{
  update_actions (self);

  if (adw_tab_view_get_n_pages (tab_view) == 0 && !self->closing)
    gtk_window_close (GTK_WINDOW (self));
}

static AdwTabView *
create_window_cb (PaddockWindow *self,
                  AdwTabView    *tab_view)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  PaddockWindow *window = paddock_window_new (PADDOCK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));

  return window->tab_view;
}

static void
new_tab_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);
  PaddockSessionPage *session = get_selected_session (self);

  /* Another of the selected tab's: the same project, agent and lock. */
  if (session != NULL)
    paddock_window_add_session (self, paddock_session_page_get_project (session),
                                paddock_session_page_get_agent (session),
                                paddock_session_page_get_lock_choice (session));
}

/* win.new-session opens the New Session dialog; win.choose-project the
 * same, with its folder chooser open. */
static void
new_session_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PaddockNewSessionDialog *dialog = paddock_new_session_dialog_new (PADDOCK_WINDOW (widget));

  gtk_window_present (GTK_WINDOW (dialog));
  if (g_str_equal (action_name, "win.choose-project"))
    gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.choose-folder", NULL);
}

/* win.open-project (folder): the default agent in it, as its saved lock
 * choice says; for the recent projects of the empty and error pages. */
static void
open_project_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);
  PaddockApplication *app = PADDOCK_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autofree char *default_agent = paddock_settings_dup_default_agent (self->settings);
  g_autoptr(PaddockAgent) agent = paddock_agent_lookup (default_agent, NULL);
  g_autoptr(GError) error = NULL;

  if (paddock_application_open_session (app, GTK_WINDOW (self), g_variant_get_string (parameter, NULL),
                                        agent, PADDOCK_LOCK_CHOICE_PROJECT, &error) != GTK_WINDOW (self))
    g_debug ("%s", error != NULL ? error->message : "opened elsewhere");
}

/* The recent projects to start in, and the buttons to choose another: on
 * the empty page and on the one saying a project cannot be opened. */
static GtkWidget *
create_start_box (PaddockWindow *self)
{
  g_auto(GStrv) recent = paddock_settings_dup_recent_projects (self->settings);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *button;

  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  if (recent[0] != NULL)
    {
      GtkWidget *list = gtk_list_box_new ();

      gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
      gtk_widget_add_css_class (list, "boxed-list");
      for (guint i = 0; recent[i] != NULL && i < 5; i++)
        {
          g_autofree char *name = g_path_get_basename (recent[i]);
          g_autofree char *shown = paddock_display_path (recent[i]);
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown);
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
          gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
          gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-project");
          gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", recent[i]);
          gtk_list_box_append (GTK_LIST_BOX (list), row);
        }
      gtk_box_append (GTK_BOX (box), list);
    }
  gtk_widget_set_halign (buttons, GTK_ALIGN_CENTER);
  button = gtk_button_new_with_mnemonic (_("_New Session…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.new-session");
  gtk_widget_add_css_class (button, "pill");
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_box_append (GTK_BOX (buttons), button);
  button = gtk_button_new_with_mnemonic (_("_Open Folder…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.choose-project");
  gtk_widget_add_css_class (button, "pill");
  gtk_box_append (GTK_BOX (buttons), button);
  gtk_box_append (GTK_BOX (box), buttons);
  return box;
}

static void
pause_session_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PaddockSessionPage *session = get_selected_session (PADDOCK_WINDOW (widget));

  if (session != NULL)
    gtk_widget_activate_action (GTK_WIDGET (session),
                                g_str_equal (action_name, "win.pause-session") ? "session.pause" : "session.resume",
                                NULL);
}

static void
kill_response_cb (PaddockSessionPage *session,
                  const char         *response,
                  AdwMessageDialog   *dialog)
{
  if (g_strcmp0 (response, "kill") == 0)
    gtk_widget_activate_action (GTK_WIDGET (session), "session.kill", NULL);
  else
    gtk_widget_grab_focus (GTK_WIDGET (session));
}

/* win.kill-session: asks first, as it ends everything the agent started. */
static void
kill_session_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PaddockSessionPage *session = get_selected_session (PADDOCK_WINDOW (widget));
  g_autofree char *tab_title = NULL;
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (session == NULL)
    return;
  tab_title = paddock_session_page_dup_tab_title (session);
  /* TRANSLATORS: %s is the tab's title, e.g. "app · Claude Code" */
  body = g_strdup_printf (_("Everything the agent in “%s” runs ends now, and any command it was waiting on. "
                            "The tab stays open to show what happened."), tab_title);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (widget), _("Kill the Agent?"), body));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "kill", _("_Kill Agent"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "kill", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (kill_response_cb), session, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A window on the selected tab's project: its past sessions, from their
 * audit logs, to open read-only; the secrets it sees in the user's vault. */
static void
project_window_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);
  const char *project = self->project != NULL ? paddock_project_get_path (self->project) : NULL;
  GtkWidget *window;

  if (g_str_equal (action_name, "win.secrets"))
    window = GTK_WIDGET (paddock_vault_window_new (GTK_WINDOW (self), project));
  else if (project != NULL)
    {
      window = paddock_history_dialog_new (project);
      g_object_set (window, "transient-for", self, "modal", TRUE,
                    "application", gtk_window_get_application (GTK_WINDOW (self)), NULL);
    }
  else
    return;
  gtk_window_present (GTK_WINDOW (window));
}

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

static void
switch_tab_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);

  if (g_str_equal (action_name, "win.next-tab"))
    {
      if (!adw_tab_view_select_next_page (self->tab_view))
        adw_tab_view_set_selected_page (self->tab_view, adw_tab_view_get_nth_page (self->tab_view, 0));
    }
  else
    {
      int last = adw_tab_view_get_n_pages (self->tab_view) - 1;

      if (!adw_tab_view_select_previous_page (self->tab_view) && last >= 0)
        adw_tab_view_set_selected_page (self->tab_view, adw_tab_view_get_nth_page (self->tab_view, last));
    }
}

static void
restore_window_state (PaddockWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);

  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
save_window_state (PaddockWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  /* The unmaximized size, so that unmaximizing next time restores it. */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_apply (self->settings);
}

/* What runs in the window's tabs that closing would end: one program's
 * name (*@program) and how many tabs run one. */
static guint
count_busy_tabs (PaddockWindow  *self,
                 char          **program)
{
  guint busy = 0;

  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      g_autofree char *name = paddock_session_page_dup_busy_program (PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page)));

      if (name == NULL)
        continue;
      if (busy++ == 0 && program != NULL)
        *program = g_steal_pointer (&name);
    }
  return busy;
}

/* The keyboard goes back to the terminal the popover took it from. */
/* win.network-hosts: the project's allowed and denied hosts. */
static void
network_hosts_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PaddockWindow *self = PADDOCK_WINDOW (widget);

  if (self->project == NULL)
    return;
  gtk_popover_popdown (GTK_POPOVER (self->lock_popover));
  gtk_window_present (GTK_WINDOW (paddock_hosts_window_new (GTK_WINDOW (self), self->project)));
}

static void
lock_popover_closed_cb (PaddockWindow *self,
                        GtkPopover    *popover)
{
  PaddockSessionPage *session = get_selected_session (self);

  if (session != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (session));
}

static void
close_page_response_cb (AdwMessageDialog *dialog,
                        const char       *response,
                        AdwTabPage       *page)
{
  GtkWidget *child = adw_tab_page_get_child (page);
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (child, ADW_TYPE_TAB_VIEW));

  if (tab_view != NULL)
    adw_tab_view_close_page_finish (tab_view, page, g_strcmp0 (response, "close") == 0);
  /* Back to the terminal the dialog took the keyboard from. */
  if (g_strcmp0 (response, "close") != 0)
    gtk_widget_grab_focus (child);
}

/* A tab whose shell runs a program asks first, as GNOME Console's does:
 * closing it ends that program and everything the agent started. */
static gboolean
close_page_cb (PaddockWindow *self,
               AdwTabPage    *page,
               AdwTabView    *tab_view)
{
  PaddockSessionPage *session = PADDOCK_SESSION_PAGE (adw_tab_page_get_child (page));
  g_autofree char *program = paddock_session_page_dup_busy_program (session);
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  if (program == NULL || self->closing)
    {
      adw_tab_view_close_page_finish (tab_view, page, TRUE);
      return GDK_EVENT_STOP;
    }
  /* TRANSLATORS: %s is the name of the program running in the tab, e.g. "claude" */
  body = g_strdup_printf (_("%s is still running. Closing the tab ends it, and everything the agent started."),
                          program);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Close Running Tab?"), body));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "close", _("C_lose Tab"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "close", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_page_response_cb), page, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return GDK_EVENT_STOP;
}

static gboolean
close_confirmed_window (gpointer data)
{
  g_autoptr(PaddockWindow) self = data;

  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
  return G_SOURCE_REMOVE;
}

static void
close_window_response_cb (PaddockWindow    *self,
                          const char       *response,
                          AdwMessageDialog *dialog)
{
  /* Once the dialog, transient for the window, is done with it. */
  if (g_strcmp0 (response, "close") == 0)
    g_idle_add (close_confirmed_window, g_object_ref (self));
}

static gboolean
paddock_window_close_request (GtkWindow *window)
{
  PaddockWindow *self = PADDOCK_WINDOW (window);
  g_autofree char *program = NULL;
  guint busy;

  if (!self->close_confirmed && (busy = count_busy_tabs (self, &program)) > 0)
    {
      g_autofree char *body = NULL;
      AdwMessageDialog *dialog;

      if (busy == 1)
        /* TRANSLATORS: %s is the name of the program running in a tab, e.g. "claude" */
        body = g_strdup_printf (_("%s is still running in a tab. Closing the window ends it, and everything "
                                  "the agents started."), program);
      else
        /* TRANSLATORS: %u is how many tabs run a program (two or more) */
        body = g_strdup_printf (ngettext ("%u tab is still running a program. Closing the window ends them, and "
                                          "everything the agents started.",
                                          "%u tabs are still running programs. Closing the window ends them, and "
                                          "everything the agents started.", busy), busy);
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, _("Close Window?"), body));
      adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "close", _("C_lose Window"), NULL);
      adw_message_dialog_set_response_appearance (dialog, "close", ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_set_default_response (dialog, "cancel");
      adw_message_dialog_set_close_response (dialog, "cancel");
      g_signal_connect_object (dialog, "response", G_CALLBACK (close_window_response_cb), self, G_CONNECT_SWAPPED);
      gtk_window_present (GTK_WINDOW (dialog));
      return TRUE;
    }

  self->closing = TRUE;
  save_window_state (self);
  /* The last window closing quits: its sessions come back next time. */
  if (PADDOCK_IS_APPLICATION (gtk_window_get_application (window)) &&
      g_list_length (gtk_application_get_windows (gtk_window_get_application (window))) == 1)
    paddock_application_keep_sessions (PADDOCK_APPLICATION (gtk_window_get_application (window)));

  return GTK_WINDOW_CLASS (paddock_window_parent_class)->close_request (window);
}

static void
paddock_window_dispose (GObject *object)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  self->closing = TRUE;
  g_cancellable_cancel (self->cancellable);
  if (self->project != NULL)
    g_signal_handlers_disconnect_by_func (self->project, project_lock_cb, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_WINDOW);

  G_OBJECT_CLASS (paddock_window_parent_class)->dispose (object);
}

static void
paddock_window_finalize (GObject *object)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  g_clear_object (&self->project);
  g_clear_pointer (&self->held_denial, g_free);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->lock_status, paddock_lock_status_free);
  g_clear_pointer (&self->lock_status_error, g_free);

  G_OBJECT_CLASS (paddock_window_parent_class)->finalize (object);
}

static void
paddock_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECT:
      g_value_set_object (value, self->project);
      break;

    case PROP_LOCK:
      g_value_set_boolean (value, self->project != NULL && paddock_project_get_lock (self->project));
      break;

    case PROP_NETWORK_LOCKED:
      g_value_set_boolean (value, self->project != NULL && paddock_project_get_network_locked (self->project));
      break;

    case PROP_SHOW_TIMELINE:
      g_value_set_boolean (value, self->show_timeline);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_window_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  PaddockWindow *self = PADDOCK_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LOCK:
      set_lock (self, g_value_get_boolean (value));
      break;

    case PROP_NETWORK_LOCKED:
      set_network_locked (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_TIMELINE:
      if (self->show_timeline != g_value_get_boolean (value))
        {
          self->show_timeline = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_window_class_init (PaddockWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = paddock_window_dispose;
  object_class->finalize = paddock_window_finalize;
  object_class->get_property = paddock_window_get_property;
  object_class->set_property = paddock_window_set_property;

  window_class->close_request = paddock_window_close_request;

  properties[PROP_PROJECT] =
    g_param_spec_object ("project", NULL, NULL,
                         PADDOCK_TYPE_PROJECT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The project's saved folder-lock choice: setting it saves it for new tabs. */
  properties[PROP_LOCK] =
    g_param_spec_boolean ("lock", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The project's saved network-lock choice: setting it saves it for new tabs. */
  properties[PROP_NETWORK_LOCKED] =
    g_param_spec_boolean ("network-locked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the tabs show their session's timeline beside the terminal
   * (the "show-timeline" setting, where the schema is installed). */
  properties[PROP_SHOW_TIMELINE] =
    g_param_spec_boolean ("show-timeline", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PADDOCK_TYPE_SESSION_PAGE);
  g_type_ensure (PADDOCK_TYPE_LOCK_POPOVER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, new_tab_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, lock_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, network_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, pause_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, resume_button);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, lock_popover);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, PaddockWindow, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, selected_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, n_pages_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_attached_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, lock_popover_closed_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_detached_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_window_cb);

  gtk_widget_class_install_action (widget_class, "win.new-tab", NULL, new_tab_action);
  gtk_widget_class_install_action (widget_class, "win.pause-session", NULL, pause_session_action);
  gtk_widget_class_install_action (widget_class, "win.resume-session", NULL, pause_session_action);
  gtk_widget_class_install_action (widget_class, "win.kill-session", NULL, kill_session_action);
  gtk_widget_class_install_action (widget_class, "win.new-session", NULL, new_session_action);
  gtk_widget_class_install_action (widget_class, "win.choose-project", NULL, new_session_action);
  gtk_widget_class_install_action (widget_class, "win.open-project", "s", open_project_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.past-sessions", NULL, project_window_action);
  gtk_widget_class_install_action (widget_class, "win.secrets", NULL, project_window_action);
  gtk_widget_class_install_action (widget_class, "win.next-tab", NULL, switch_tab_action);
  gtk_widget_class_install_action (widget_class, "win.previous-tab", NULL, switch_tab_action);
  gtk_widget_class_install_property_action (widget_class, "win.lock", "lock");
  gtk_widget_class_install_property_action (widget_class, "win.network", "network-locked");
  gtk_widget_class_install_action (widget_class, "win.network-hosts", NULL, network_hosts_action);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-timeline", "show-timeline");
}

static void
paddock_window_init (PaddockWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->show_timeline = TRUE;
  self->settings = paddock_settings_new ();
  if (self->settings != NULL)
    g_settings_bind (self->settings, "show-timeline", self, "show-timeline", G_SETTINGS_BIND_DEFAULT);
  restore_window_state (self);
  update_actions (self);
  update_lock (self);
  update_network (self);
  load_lock_status (self);
  adw_status_page_set_child (self->empty_page, create_start_box (self));
  adw_status_page_set_child (self->error_page, create_start_box (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

PaddockWindow *
paddock_window_new (PaddockApplication *application)
{
  g_return_val_if_fail (PADDOCK_IS_APPLICATION (application), NULL);

  return g_object_new (PADDOCK_TYPE_WINDOW, "application", application, NULL);
}

/* The selected tab's session, or NULL when the window has none. */
PaddockSessionPage *
paddock_window_get_selected_session (PaddockWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);

  return get_selected_session (self);
}

/* The selected tab's project, or NULL when the window has none. */
PaddockProject *
paddock_window_get_project (PaddockWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);

  return self->project;
}

AdwTabView *
paddock_window_get_tab_view (PaddockWindow *self)
{
  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);

  return self->tab_view;
}

/**
 * paddock_window_add_session:
 * @self: a window
 * @project: the project to run the session in
 * @agent: (nullable): what the session runs; %NULL for the user's shell
 * @lock_choice: whether it runs locked, or as the project's saved choice says
 *
 * Opens a new tab with a session of @agent in @project, selects it and
 * starts it.
 *
 * Returns: (transfer none): the new session's page
 */
PaddockSessionPage *
paddock_window_add_session (PaddockWindow     *self,
                            PaddockProject    *project,
                            PaddockAgent      *agent,
                            PaddockLockChoice  lock_choice)
{
  PaddockSessionPage *session;
  AdwTabPage *page;

  g_return_val_if_fail (PADDOCK_IS_WINDOW (self), NULL);
  g_return_val_if_fail (PADDOCK_IS_PROJECT (project), NULL);

  set_project (self, project);
  gtk_stack_set_visible_child_name (self->stack, "sessions");
  paddock_settings_add_recent_project (self->settings, paddock_project_get_path (project));

  session = paddock_session_page_new (project, agent, lock_choice);
  page = adw_tab_view_append (self->tab_view, GTK_WIDGET (session));
  adw_tab_view_set_selected_page (self->tab_view, page);
  paddock_session_page_start (session);
  gtk_widget_grab_focus (GTK_WIDGET (session));

  return session;
}

/**
 * paddock_window_show_error:
 * @self: a window with no sessions
 * @directory: the folder that could not be opened
 * @error: why
 *
 * Shows, in place of the tabs, why @directory cannot be opened as a project.
 */
void
paddock_window_show_error (PaddockWindow *self,
                           const char    *directory,
                           const GError  *error)
{
  g_return_if_fail (PADDOCK_IS_WINDOW (self));
  g_return_if_fail (directory != NULL);
  g_return_if_fail (error != NULL);

  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  gtk_widget_set_visible (GTK_WIDGET (self->new_tab_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->lock_button), FALSE);
  adw_window_title_set_subtitle (self->window_title, directory);
}
