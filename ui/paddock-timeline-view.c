/* paddock-timeline-view.c: a session's timeline, shown: its programs in a list, searchable, with one's details
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-timeline-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "paddock-escape.h"
#include "paddock-project-rule.h"
#include "paddock-timeline-details.h"
#include "paddock-timeline-row.h"
#include "paddock-toasts.h"

/* How near the end, in pixels, still counts as at the end. */
#define AT_END_SLACK 8.0

struct _PaddockTimelineView
{
  GtkWidget             parent_instance;

  PaddockTimeline      *timeline;
  GtkFilterListModel   *filter_model;
  GtkCustomFilter      *filter;
  GtkSingleSelection   *selection;
  PaddockTimelineEvent *selected;  /* followed while it shows in the details */

  char                 *search;    /* casefolded, NULL when empty */
  PaddockTimelineFilter decisions;
  gboolean              show_folded;
  gboolean              following;
  guint                 scroll_tick;  /* going to the end before the next frame */
  double                last_value;

  GtkSearchEntry       *search_entry;
  GtkDropDown          *filter_dropdown;
  GtkStack             *content_stack;
  GtkScrolledWindow    *scroller;
  GtkListView          *list_view;
  GtkWidget            *details;   /* built when a program is first selected */

  GCancellable         *cancellable;  /* the rules being remembered or forgotten */
};

enum {
  PROP_0,
  PROP_TIMELINE,
  PROP_SHOW_FOLDED,
  PROP_FOLLOWING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PaddockTimelineView, paddock_timeline_view, GTK_TYPE_WIDGET)

static gboolean
is_asked (PaddockTimelineDecision decision)
{
  return decision == PADDOCK_TIMELINE_DECISION_ASKING ||
         decision == PADDOCK_TIMELINE_DECISION_ASKED_ALLOWED ||
         decision == PADDOCK_TIMELINE_DECISION_ASKED_DENIED;
}

static gboolean
row_visible (gpointer item,
             gpointer user_data)
{
  PaddockTimelineView *self = user_data;
  PaddockTimelineEvent *event = item;
  PaddockTimelineDecision decision = paddock_timeline_event_get_decision (event);

  if (!self->show_folded && paddock_timeline_event_get_folded (event))
    return FALSE;

  switch (self->decisions)
    {
    case PADDOCK_TIMELINE_FILTER_ASKED:
      if (!is_asked (decision))
        return FALSE;
      break;

    case PADDOCK_TIMELINE_FILTER_DENIED:
      if (decision != PADDOCK_TIMELINE_DECISION_DENIED && decision != PADDOCK_TIMELINE_DECISION_ASKED_DENIED)
        return FALSE;
      break;

    case PADDOCK_TIMELINE_FILTER_NETWORK:
      if (paddock_timeline_event_get_kind (event) != PADDOCK_TIMELINE_EVENT_NET)
        return FALSE;
      break;

    case PADDOCK_TIMELINE_FILTER_ALL:
    default:
      break;
    }

  if (self->search != NULL)
    return paddock_timeline_event_matches (event, self->search);

  return TRUE;
}

/* Built the first time a search or a filter leaves nothing to show: most
 * sessions never need it, and every tab would pay for it (55 KiB). */
static void
ensure_no_match_page (PaddockTimelineView *self)
{
  GtkWidget *page;

  if (gtk_stack_get_child_by_name (self->content_stack, "no-match") != NULL)
    return;
  page = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (page), "edit-find-symbolic");
  /* TRANSLATORS: the timeline shows nothing for the search and filter chosen */
  adw_status_page_set_title (ADW_STATUS_PAGE (page), _("No Matching Programs"));
  gtk_widget_add_css_class (page, "compact");
  gtk_stack_add_named (self->content_stack, page, "no-match");
}

static void
update_stack (PaddockTimelineView *self)
{
  guint n_all = self->timeline != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->timeline)) : 0;
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  const char *name = n_all == 0 ? "empty" : n_shown == 0 ? "no-match" : "list";

  if (n_all > 0 && n_shown == 0)
    ensure_no_match_page (self);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), name) != 0)
    gtk_stack_set_visible_child_name (self->content_stack, name);
}

static void
set_following (PaddockTimelineView *self,
               gboolean             following)
{
  if (self->following == following)
    return;
  self->following = following;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
}

static void
scroll_to_end (PaddockTimelineView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));

  if (n > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", n - 1);
}

static gboolean
scroll_to_end_tick (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (widget);

  self->scroll_tick = 0;
  if (self->following)
    scroll_to_end (self);
  return G_SOURCE_REMOVE;
}

static void
shown_items_changed_cb (PaddockTimelineView *self,
                        guint                position,
                        guint                removed,
                        guint                added,
                        GListModel          *model)
{
  update_stack (self);
  /* Only rows added at the end move the view; one updated in place never
   * does. Once a frame, however many batches came: scrolling costs more
   * than taking a batch of rows (measured: 115 of 350 ms for 100,000
   * rows in 50 batches), and a frame shows only where the view ends up. */
  if (self->following && added > removed && position + added == g_list_model_get_n_items (model) &&
      self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_end_tick, NULL, NULL);
}

static void
timeline_items_changed_cb (PaddockTimelineView *self,
                           guint                position,
                           guint                removed,
                           guint                added,
                           GListModel          *model)
{
  update_stack (self);
}

/* The user scrolling up stops following; reaching the end again resumes
 * it. Rows added below never move the value, so only a move up stops it. */
static void
scroll_value_cb (PaddockTimelineView *self,
                 GtkAdjustment       *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (value >= end - AT_END_SLACK)
    set_following (self, TRUE);
  else if (value < self->last_value)
    set_following (self, FALSE);
  self->last_value = value;
}

/* The list view learns its rows' true size only as it lays them out: once
 * it knows more, a view that follows goes to the very end again. */
static void
scroll_range_cb (PaddockTimelineView *self,
                 GtkAdjustment       *adjustment)
{
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (self->following && gtk_adjustment_get_value (adjustment) < end)
    gtk_adjustment_set_value (adjustment, end);
}

/* Rules are remembered for the project of a session that runs: a past
 * session's timeline is read-only, and one that has not said its project
 * yet has none to write to. */
static void
update_rule_actions (PaddockTimelineView *self)
{
  PaddockTimelineEvent *event = self->selected;
  gboolean enabled = event != NULL && paddock_timeline_event_get_kind (event) == PADDOCK_TIMELINE_EVENT_EXEC &&
                     self->timeline != NULL && !paddock_timeline_get_read_only (self->timeline) &&
                     paddock_timeline_get_project (self->timeline) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.always-allow", enabled);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.always-deny", enabled);
}

static void
project_notify_cb (PaddockTimelineView *self,
                   GParamSpec          *pspec,
                   PaddockTimeline     *timeline)
{
  update_rule_actions (self);
}

/* Says @text under the row's details (NULL: nothing), as an error or not. */
static void
set_rule_status (PaddockTimelineView *self,
                 const char          *text,
                 gboolean             error)
{
  if (self->details != NULL)
    paddock_timeline_details_set_status (PADDOCK_TIMELINE_DETAILS (self->details), text, error);
}

static void
update_details (PaddockTimelineView *self)
{
  PaddockTimelineEvent *event = self->selected;
  PaddockTimelineEventKind kind = event != NULL ? paddock_timeline_event_get_kind (event) : PADDOCK_TIMELINE_EVENT_EXEC;
  gboolean exec = event != NULL && kind == PADDOCK_TIMELINE_EVENT_EXEC;
  /* A read in the home folder and a connection have details too, but no command to copy or remember. */
  gboolean shown = exec || (event != NULL && (kind == PADDOCK_TIMELINE_EVENT_HOME || kind == PADDOCK_TIMELINE_EVENT_NET));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.copy-command", exec);
  update_rule_actions (self);
  if (self->details == NULL && shown)
    {
      self->details = paddock_timeline_details_new ();
      gtk_widget_insert_before (self->details, GTK_WIDGET (self), NULL);
    }
  if (self->details == NULL)
    return;
  gtk_widget_set_visible (self->details, shown);
  if (shown)
    paddock_timeline_details_set_event (PADDOCK_TIMELINE_DETAILS (self->details), event);
}

static void
selected_notify_cb (PaddockTimelineView  *self,
                    GParamSpec           *pspec,
                    PaddockTimelineEvent *event)
{
  update_details (self);
}

static void
set_selected (PaddockTimelineView  *self,
              PaddockTimelineEvent *event)
{
  if (self->selected == event)
    return;
  if (self->selected != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->selected, selected_notify_cb, self);
      g_clear_object (&self->selected);
    }
  if (event != NULL)
    {
      self->selected = g_object_ref (event);
      g_signal_connect_object (event, "notify", G_CALLBACK (selected_notify_cb), self, G_CONNECT_SWAPPED);
    }
  /* What was said of the row before is not said of this one. */
  set_rule_status (self, NULL, FALSE);
  update_details (self);
}

static void
selected_item_cb (PaddockTimelineView *self,
                  GParamSpec          *pspec,
                  GtkSingleSelection  *selection)
{
  set_selected (self, gtk_single_selection_get_selected_item (selection));
}

static void
refilter (PaddockTimelineView *self,
          GtkFilterChange      change)
{
  gtk_filter_changed (GTK_FILTER (self->filter), change);
  update_stack (self);
  if (self->following)
    scroll_to_end (self);
}

static void
search_changed_cb (PaddockTimelineView *self,
                   GtkSearchEntry      *entry)
{
  paddock_timeline_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
filter_selected_cb (PaddockTimelineView *self,
                    GParamSpec          *pspec,
                    GtkDropDown         *dropdown)
{
  paddock_timeline_view_set_filter (self, gtk_drop_down_get_selected (dropdown));
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item)
{
  gtk_list_item_set_child (item, paddock_timeline_row_new ());
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  paddock_timeline_row_set_event (PADDOCK_TIMELINE_ROW (gtk_list_item_get_child (item)),
                                  gtk_list_item_get_item (item));
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  paddock_timeline_row_set_event (PADDOCK_TIMELINE_ROW (gtk_list_item_get_child (item)), NULL);
}

static void
copy_command_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (widget);
  g_autofree char *command = NULL;
  g_autofree char *text = NULL;

  if (self->selected == NULL)
    return;
  command = paddock_timeline_dup_command (self->selected);
  /* The clipboard takes text: bytes that are not UTF-8 cannot go as they are. */
  text = g_utf8_make_valid (command, -1);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* --- Always Allow, Always Deny ----------------------------------------- */

typedef struct
{
  PaddockTimelineView  *view;     /* a reference, until the change is done */
  PaddockTimelineEvent *event;
  char                 *project;
  char                 *program;  /* the row's, escaped */
  PaddockPolicyAction   action;
} RuleChange;

static void
rule_change_free (RuleChange *change)
{
  g_clear_object (&change->view);
  g_clear_object (&change->event);
  g_free (change->project);
  g_free (change->program);
  g_free (change);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RuleChange, rule_change_free)

/* Where the window shows its toasts, or NULL (a view on its own). */
static AdwToastOverlay *
find_toast_overlay (PaddockTimelineView *self)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  return overlay != NULL ? ADW_TOAST_OVERLAY (overlay) : NULL;
}

static void
rule_forgotten_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(RuleChange) change = user_data;
  PaddockTimelineView *self = change->view;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean forgotten = paddock_project_rule_forget_finish (result, &error);

  /* The view is gone (its tab closed): the rule was taken back all the same. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (forgotten)
    /* TRANSLATORS: a toast once Undo took back an Always Allow or Always Deny; %s is the program */
    text = g_strdup_printf (_("%s no longer remembered for this project"), change->program);
  else
    /* TRANSLATORS: %s says why, e.g. "cannot lock FILE: another program has held it for over 250 ms" */
    text = g_strdup_printf (_("Cannot undo: %s"), error->message);

  if (!paddock_toasts_add_near (GTK_WIDGET (self), adw_toast_new (text)) && self->selected == change->event)
    set_rule_status (self, text, error != NULL);
}

static void
undo_clicked_cb (AdwToast   *toast,
                 RuleChange *change)
{
  const char *name = g_object_get_data (G_OBJECT (toast), "rule-name");
  RuleChange *undo = g_new0 (RuleChange, 1);

  undo->view = g_object_ref (change->view);
  undo->event = g_object_ref (change->event);
  undo->project = g_strdup (change->project);
  undo->program = g_strdup (change->program);
  undo->action = change->action;
  /* Not cancelled with the view: the user asked for it. */
  paddock_project_rule_forget_async (change->project, name, NULL, rule_forgotten_cb, undo);
}

static void
rule_remembered_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(RuleChange) change = user_data;
  PaddockTimelineView *self = change->view;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = paddock_project_rule_remember_finish (result, &error);
  g_autofree char *text = NULL;
  AdwToastOverlay *overlay;
  AdwToast *toast;

  /* The view is gone: nobody is there to tell. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (name == NULL)
    {
      /* TRANSLATORS: shown under a timeline row's details; %s says why, e.g. "cannot lock FILE: …" */
      text = g_strdup_printf (_("Cannot remember this command line for the project: %s"), error->message);
      if (self->selected == change->event)
        set_rule_status (self, text, TRUE);
      else
        paddock_toasts_add_near (GTK_WIDGET (self), adw_toast_new (text));
      return;
    }

  if (change->action == PADDOCK_POLICY_ACTION_ALLOW)
    /* TRANSLATORS: a toast after Always Allow; the first %s is the program, the second the rule's name */
    text = g_strdup_printf (_("%s always allowed in this project, by rule %s"), change->program, name);
  else
    /* TRANSLATORS: a toast after Always Deny; the first %s is the program, the second the rule's name */
    text = g_strdup_printf (_("%s always denied in this project, by rule %s"), change->program, name);

  overlay = find_toast_overlay (self);
  if (overlay == NULL)
    {
      if (self->selected == change->event)
        set_rule_status (self, text, FALSE);
      return;
    }
  toast = adw_toast_new (text);
  adw_toast_set_button_label (toast, _("_Undo"));
  /* Normal priority: a high one, pushing aside the window's note on a
   * refused program, made libadwaita 1.2 abort in show_toast
   * (!info->widget) once ours went (test-window-timeline, under ASan). */
  g_object_set_data_full (G_OBJECT (toast), "rule-name", g_steal_pointer (&name), g_free);
  g_signal_connect_data (toast, "button-clicked", G_CALLBACK (undo_clicked_cb), g_steal_pointer (&change),
                         (GClosureNotify) (void (*) (void)) rule_change_free, 0);
  paddock_toasts_add (overlay, toast);
}

static void
remember_rule (PaddockTimelineView *self,
               PaddockPolicyAction  action)
{
  RuleChange *change;
  const char *project;

  if (self->selected == NULL || self->timeline == NULL ||
      (project = paddock_timeline_get_project (self->timeline)) == NULL)
    return;
  change = g_new0 (RuleChange, 1);
  change->view = g_object_ref (self);
  change->event = g_object_ref (self->selected);
  change->project = g_strdup (project);
  change->program = paddock_timeline_event_dup_program (self->selected);
  change->action = action;
  set_rule_status (self, NULL, FALSE);
  paddock_project_rule_remember_async (project, self->selected, action, self->cancellable, rule_remembered_cb, change);
}

static void
always_allow_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  remember_rule (PADDOCK_TIMELINE_VIEW (widget), PADDOCK_POLICY_ACTION_ALLOW);
}

static void
always_deny_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  remember_rule (PADDOCK_TIMELINE_VIEW (widget), PADDOCK_POLICY_ACTION_DENY);
}

static void
paddock_timeline_view_dispose (GObject *object)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick);
  self->scroll_tick = 0;
  set_selected (self, NULL);
  paddock_timeline_view_set_timeline (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADDOCK_TYPE_TIMELINE_VIEW);
  /* The template's unnamed children too: the search bar and separators. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  /* Gone with the children: what still answers (a rule being written,
   * a toast's Undo) must not reach it. */
  self->details = NULL;
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (paddock_timeline_view_parent_class)->dispose (object);
}

static void
paddock_timeline_view_finalize (GObject *object)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (object);

  g_clear_pointer (&self->search, g_free);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (paddock_timeline_view_parent_class)->finalize (object);
}

static void
paddock_timeline_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;

    case PROP_SHOW_FOLDED:
      g_value_set_boolean (value, self->show_folded);
      break;

    case PROP_FOLLOWING:
      g_value_set_boolean (value, self->following);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_timeline_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PaddockTimelineView *self = PADDOCK_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      paddock_timeline_view_set_timeline (self, g_value_get_object (value));
      break;

    case PROP_SHOW_FOLDED:
      paddock_timeline_view_set_show_folded (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
paddock_timeline_view_class_init (PaddockTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = paddock_timeline_view_dispose;
  object_class->finalize = paddock_timeline_view_finalize;
  object_class->get_property = paddock_timeline_view_get_property;
  object_class->set_property = paddock_timeline_view_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, PADDOCK_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the shell's prompt helpers (folded rows) show. */
  properties[PROP_SHOW_FOLDED] =
    g_param_spec_boolean ("show-folded", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether new rows scroll into sight. */
  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (PADDOCK_TYPE_TIMELINE_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/paddock/Paddock/paddock-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineView, filter_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineView, scroller);
  gtk_widget_class_bind_template_child (widget_class, PaddockTimelineView, list_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_unbind_cb);

  gtk_widget_class_install_property_action (widget_class, "timeline.show-folded", "show-folded");
  gtk_widget_class_install_action (widget_class, "timeline.copy-command", NULL, copy_command_action);
  gtk_widget_class_install_action (widget_class, "timeline.always-allow", NULL, always_allow_action);
  gtk_widget_class_install_action (widget_class, "timeline.always-deny", NULL, always_deny_action);

  gtk_widget_class_set_css_name (widget_class, "paddock-timeline");
}

static void
paddock_timeline_view_init (PaddockTimelineView *self)
{
  GtkAdjustment *vadjustment;

  self->following = TRUE;
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (row_visible, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  /* After the list view's own handler, so that it knows of the new rows. */
  g_signal_connect_object (self->selection, "items-changed",
                           G_CALLBACK (shown_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (selected_item_cb), self, G_CONNECT_SWAPPED);

  vadjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect_object (vadjustment, "value-changed",
                           G_CALLBACK (scroll_value_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (vadjustment, "changed",
                           G_CALLBACK (scroll_range_cb), self, G_CONNECT_SWAPPED);

  update_details (self);
  update_stack (self);
}

GtkWidget *
paddock_timeline_view_new (void)
{
  return g_object_new (PADDOCK_TYPE_TIMELINE_VIEW, NULL);
}

PaddockTimeline *
paddock_timeline_view_get_timeline (PaddockTimelineView *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_VIEW (self), NULL);

  return self->timeline;
}

/* Shows @timeline (or nothing), from its end, following it. */
void
paddock_timeline_view_set_timeline (PaddockTimelineView *self,
                                    PaddockTimeline     *timeline)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE_VIEW (self));
  g_return_if_fail (timeline == NULL || PADDOCK_IS_TIMELINE (timeline));

  if (self->timeline == timeline)
    return;
  if (self->timeline != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->timeline, timeline_items_changed_cb, self);
      g_signal_handlers_disconnect_by_func (self->timeline, project_notify_cb, self);
      g_clear_object (&self->timeline);
    }
  if (timeline != NULL)
    {
      self->timeline = g_object_ref (timeline);
      g_signal_connect_object (timeline, "items-changed",
                               G_CALLBACK (timeline_items_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (timeline, "notify::project",
                               G_CALLBACK (project_notify_cb), self, G_CONNECT_SWAPPED);
    }
  update_rule_actions (self);
  if (self->filter_model != NULL)
    {
      set_following (self, TRUE);
      self->last_value = 0;
      gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (timeline));
      update_stack (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

GListModel *
paddock_timeline_view_get_model (PaddockTimelineView *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_VIEW (self), NULL);

  return G_LIST_MODEL (self->filter_model);
}

GtkListView *
paddock_timeline_view_get_list_view (PaddockTimelineView *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_VIEW (self), NULL);

  return self->list_view;
}

/* Shows only the programs whose command line holds @text, in any case,
 * and the reads in the home folder whose path or program does. */
void
paddock_timeline_view_set_search (PaddockTimelineView *self,
                                  const char          *text)
{
  g_autofree char *search = NULL;
  GtkFilterChange change;

  g_return_if_fail (PADDOCK_IS_TIMELINE_VIEW (self));

  if (text != NULL && *text != '\0')
    search = g_utf8_casefold (text, -1);
  if (g_strcmp0 (search, self->search) == 0)
    return;

  if (self->search == NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (search == NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else if (strstr (search, self->search) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (strstr (self->search, search) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;

  g_free (self->search);
  self->search = g_steal_pointer (&search);
  /* Setting the text empties the entry first, which it says at once: not
   * to be taken for a search, which would leave none. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text != NULL ? text : "") != 0)
    {
      g_signal_handlers_block_by_func (self->search_entry, search_changed_cb, self);
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
      g_signal_handlers_unblock_by_func (self->search_entry, search_changed_cb, self);
    }
  refilter (self, change);
}

void
paddock_timeline_view_set_filter (PaddockTimelineView   *self,
                                  PaddockTimelineFilter  filter)
{
  GtkFilterChange change;

  g_return_if_fail (PADDOCK_IS_TIMELINE_VIEW (self));
  g_return_if_fail (filter <= PADDOCK_TIMELINE_FILTER_NETWORK);

  if (self->decisions == filter)
    return;
  if (self->decisions == PADDOCK_TIMELINE_FILTER_ALL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (filter == PADDOCK_TIMELINE_FILTER_ALL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;
  self->decisions = filter;
  if (gtk_drop_down_get_selected (self->filter_dropdown) != (guint) filter)
    gtk_drop_down_set_selected (self->filter_dropdown, filter);
  refilter (self, change);
}

void
paddock_timeline_view_set_show_folded (PaddockTimelineView *self,
                                       gboolean             show_folded)
{
  g_return_if_fail (PADDOCK_IS_TIMELINE_VIEW (self));

  show_folded = !!show_folded;
  if (self->show_folded == show_folded)
    return;
  self->show_folded = show_folded;
  refilter (self, show_folded ? GTK_FILTER_CHANGE_LESS_STRICT : GTK_FILTER_CHANGE_MORE_STRICT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_FOLDED]);
}

gboolean
paddock_timeline_view_get_following (PaddockTimelineView *self)
{
  g_return_val_if_fail (PADDOCK_IS_TIMELINE_VIEW (self), FALSE);

  return self->following;
}
