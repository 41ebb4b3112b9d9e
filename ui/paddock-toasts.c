/* paddock-toasts.c: the window's toasts, shown one after another
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libadwaita before 1.3 frees what it keeps of a toast once the toast's
 * hide animation is done, and the show animation, if still running, then
 * writes to that memory (upstream's "toast-overlay: Prevent show_done from
 * firing after hide_done"). A toast shown while the one before it still
 * fades out takes 500 ms to come in, and 300 ms to go: dismissed in its
 * first 200 ms (its Undo or its close button clicked), it took the window
 * down. So toasts go to the overlay one at a time, each once the one
 * before it is out of sight: then none is shown as a replacement, and none
 * comes in slower than it goes. A toast dismissed in the very frame it
 * comes in can still meet the bug: no hand is that fast, a test's can be.
 */
#include "config.h"

#include "paddock-toasts.h"

/* libadwaita's hide animation, and a frame or two. */
#define HIDDEN_AFTER_MS 350

typedef struct
{
  AdwToastOverlay *overlay;  /* holds this queue */
  GQueue           waiting;  /* AdwToast, owned */
  AdwToast        *showing;  /* weak */
  guint            gap_id;
} ToastQueue;

static void show_next (ToastQueue *queue);

static void
toast_queue_free (ToastQueue *queue)
{
  if (queue->showing != NULL)
    g_signal_handlers_disconnect_by_data (queue->showing, queue);
  g_clear_weak_pointer (&queue->showing);
  g_clear_handle_id (&queue->gap_id, g_source_remove);
  g_queue_clear_full (&queue->waiting, g_object_unref);
  g_free (queue);
}

static gboolean
gap_done_cb (gpointer user_data)
{
  ToastQueue *queue = user_data;

  queue->gap_id = 0;
  show_next (queue);
  return G_SOURCE_REMOVE;
}

static void
dismissed_cb (AdwToast   *toast,
              ToastQueue *queue)
{
  if (toast != queue->showing)
    return;
  g_signal_handlers_disconnect_by_data (toast, queue);
  g_clear_weak_pointer (&queue->showing);
  if (queue->gap_id == 0)
    queue->gap_id = g_timeout_add (HIDDEN_AFTER_MS, gap_done_cb, queue);
}

static void
show_next (ToastQueue *queue)
{
  AdwToast *toast;

  if (queue->showing != NULL || queue->gap_id != 0)
    return;
  toast = g_queue_pop_head (&queue->waiting);
  if (toast == NULL)
    return;
  g_set_weak_pointer (&queue->showing, toast);
  g_signal_connect (toast, "dismissed", G_CALLBACK (dismissed_cb), queue);
  adw_toast_overlay_add_toast (queue->overlay, toast);
}

/* Shows @toast (taking it) on @overlay once the toasts handed in before it
 * through here are gone. */
void
paddock_toasts_add (AdwToastOverlay *overlay,
                    AdwToast        *toast)
{
  ToastQueue *queue;

  g_return_if_fail (ADW_IS_TOAST_OVERLAY (overlay));
  g_return_if_fail (ADW_IS_TOAST (toast));

  queue = g_object_get_data (G_OBJECT (overlay), "paddock-toasts");
  if (queue == NULL)
    {
      queue = g_new0 (ToastQueue, 1);
      queue->overlay = overlay;
      g_queue_init (&queue->waiting);
      g_object_set_data_full (G_OBJECT (overlay), "paddock-toasts", queue, (GDestroyNotify) toast_queue_free);
    }
  g_queue_push_tail (&queue->waiting, toast);
  show_next (queue);
}

/* The same, on the toast overlay @widget lies in. Returns FALSE, and drops
 * @toast, where it lies in none. */
gboolean
paddock_toasts_add_near (GtkWidget *widget,
                         AdwToast  *toast)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);

  if (overlay == NULL)
    {
      g_object_unref (toast);
      return FALSE;
    }
  paddock_toasts_add (ADW_TOAST_OVERLAY (overlay), toast);
  return TRUE;
}
