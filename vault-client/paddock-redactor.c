/* paddock-redactor.c: the streaming redactor's matcher
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Wu–Manber scan. Every form is at least `window` bytes long (the
 * shortest form, at most MAX_WINDOW); a form can start at position p only
 * if the 2 bytes ending at p + window − 1 occur in some form's first
 * `window` bytes, and the shift table says, for each pair of bytes, how
 * far the window can move before they could be its last two: past most of
 * ordinary text in one step. Where the shift is 0, the forms whose first
 * `window` bytes end in that pair are compared at p, longest first.
 *
 * Each step waits for the one before it (its load gives the next
 * position), so a scan is bound by the latency of two loads; four scans,
 * over the four quarters of a segment, interleaved, keep the processor
 * busy: they list where a form could start, and one pass in order then
 * compares the forms there. (One scan: 3.0 GB/s of CPU time on the
 * benchmark's text, 20 secrets; four: see bench-redactor.) Pairs of bytes
 * beat triples hashed to 16 bits: the shortest form (a password of 12)
 * limits the shift more than the pairs of ordinary text that occur in a
 * form, and the hash's multiply lengthens each step (1.8 GB/s).
 *
 * A form may run past the bytes fed so far: the scan then stops at p and
 * holds the rest back until more comes (or a flush decides it as the end
 * of the stream; an idle flush may show the first few, which are matched
 * still, but not emitted again). Of the last window − 1 bytes, where no whole window fits,
 * only those from the first that starts some form's prefix are held; the
 * sorted list of forms answers that with a binary search. Held bytes and
 * the start of a new chunk are joined in a small buffer, as long as the
 * longest form, so the big chunk itself is scanned in place.
 */
#include "config.h"

#include "paddock-redactor-private.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WINDOW 32
/* Positions listed at a time, in N_LANES interleaved scans. */
#define SEGMENT (16 * 1024)
#define N_LANES 4
#define N_PAIRS 65536
/* The forms whose window ends in a pair are listed by a hash of the pair:
 * a small table, as a form is compared (its first 8 bytes) before all. */
#define N_BUCKETS 4096

typedef struct
{
  char   *name;
  char   *marker;   /* «secret:NAME» */
  guint8 *value;
  gsize   len;
} Secret;

typedef struct
{
  guint64       head;    /* the first 8 bytes, as they are in memory */
  const guint8 *bytes;   /* in `form_bytes` */
  gsize         len;
  guint         secret;
} Form;

static inline guint64
head_at (const guint8 *p)
{
  guint64 head;

  memcpy (&head, p, sizeof head);
  return head;
}

struct _PaddockRedactor
{
  GPtrArray  *secrets;        /* of Secret */
  GPtrArray  *form_bytes;     /* of GByteArray, wiped when freed */
  GArray     *forms;          /* of Form, each form once, in order of registration */
  gboolean    dirty;          /* secrets added since the table was built */

  gsize       window;
  gsize       max_len;
  guint8     *shift;          /* N_PAIRS */
  guint32    *candidate_start; /* N_BUCKETS + 1, into candidates */
  guint32    *candidates;     /* form indices, longest first in each bucket */
  guint32    *sorted;         /* form indices, in byte order */

  GByteArray *held;
  gsize       held_shown;     /* of held, the first bytes an idle flush showed */
  GByteArray *joined;
  guint32    *found;          /* SEGMENT: where a form could start, from the segment's start */
};

G_DEFINE_QUARK (paddock-redactor-error-quark, paddock_redactor_error)

static void
secret_free (gpointer data)
{
  Secret *secret = data;

  explicit_bzero (secret->value, secret->len);
  g_free (secret->value);
  g_free (secret->name);
  g_free (secret->marker);
  g_free (secret);
}

PaddockRedactor *
paddock_redactor_new (void)
{
  PaddockRedactor *self = g_new0 (PaddockRedactor, 1);

  self->secrets = g_ptr_array_new_with_free_func (secret_free);
  self->form_bytes = g_ptr_array_new_with_free_func (paddock_redactor_wipe_bytes);
  self->forms = g_array_new (FALSE, FALSE, sizeof (Form));
  self->held = g_byte_array_new ();
  self->joined = g_byte_array_new ();
  self->found = g_new (guint32, SEGMENT);
  return self;
}

PaddockRedactor *
paddock_redactor_copy (PaddockRedactor *self)
{
  PaddockRedactor *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = paddock_redactor_new ();
  for (guint i = 0; i < self->secrets->len; i++)
    {
      Secret *secret = g_ptr_array_index (self->secrets, i);

      paddock_redactor_add_secret (copy, secret->name, secret->value, secret->len, NULL);
    }
  return copy;
}

static void
wipe_array (GByteArray *array)
{
  if (array->len > 0)
    explicit_bzero (array->data, array->len);
  g_byte_array_set_size (array, 0);
}

static void
clear_table (PaddockRedactor *self)
{
  g_ptr_array_set_size (self->form_bytes, 0);
  g_array_set_size (self->forms, 0);
  g_clear_pointer (&self->shift, g_free);
  g_clear_pointer (&self->candidate_start, g_free);
  g_clear_pointer (&self->candidates, g_free);
  g_clear_pointer (&self->sorted, g_free);
}

void
paddock_redactor_free (PaddockRedactor *self)
{
  if (self == NULL)
    return;
  clear_table (self);
  wipe_array (self->held);
  wipe_array (self->joined);
  g_byte_array_unref (self->held);
  g_byte_array_unref (self->joined);
  g_array_unref (self->forms);
  g_ptr_array_unref (self->form_bytes);
  g_ptr_array_unref (self->secrets);
  g_free (self->found);
  g_free (self);
}

static gboolean
name_is_valid (const char *name)
{
  if (name[0] == '\0' || !g_utf8_validate (name, -1, NULL))
    return FALSE;
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0x00bb /* » ends the marker */)
        return FALSE;
    }
  return TRUE;
}

gboolean
paddock_redactor_add_secret (PaddockRedactor *self,
                             const char      *name,
                             const guint8    *value,
                             gsize            len,
                             GError         **error)
{
  Secret *secret;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!name_is_valid (name))
    {
      g_autofree char *shown = g_strescape (name, NULL);

      g_set_error (error, PADDOCK_REDACTOR_ERROR, PADDOCK_REDACTOR_ERROR_INVALID_NAME,
                   "cannot mask secret “%s”: a name must be UTF-8 text, not empty, "
                   "without control characters or “»”", shown);
      return FALSE;
    }
  if (len < PADDOCK_REDACTOR_MIN_VALUE)
    {
      g_set_error (error, PADDOCK_REDACTOR_ERROR, PADDOCK_REDACTOR_ERROR_TOO_SHORT,
                   "cannot mask secret “%s”: its value is shorter than %d bytes, "
                   "too short to tell from ordinary output; it will show unmasked",
                   name, PADDOCK_REDACTOR_MIN_VALUE);
      return FALSE;
    }

  secret = g_new0 (Secret, 1);
  secret->name = g_strdup (name);
  secret->marker = g_strdup_printf ("«secret:%s»", name);
  secret->value = g_memdup2 (value, len);
  secret->len = len;
  g_ptr_array_add (self->secrets, secret);
  self->dirty = TRUE;
  return TRUE;
}

static inline guint
pair_at (const guint8 *p)
{
  return (guint) p[0] | (guint) p[1] << 8;
}

static inline guint
bucket_of (guint pair)
{
  return (pair * 40503u >> 4) & (N_BUCKETS - 1);
}

static int
compare_forms_by_length (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  const Form *forms = user_data;
  gsize x = forms[*(const guint32 *) a].len, y = forms[*(const guint32 *) b].len;

  return (x < y) - (x > y);
}

static int
compare_bytes (const guint8 *a,
               gsize         a_len,
               const guint8 *b,
               gsize         b_len)
{
  int order = memcmp (a, b, MIN (a_len, b_len));

  if (order != 0)
    return order;
  return (a_len > b_len) - (a_len < b_len);
}

static int
compare_forms_by_bytes (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  const Form *forms = user_data;
  const Form *x = &forms[*(const guint32 *) a], *y = &forms[*(const guint32 *) b];

  return compare_bytes (x->bytes, x->len, y->bytes, y->len);
}

static void
build_table (PaddockRedactor *self)
{
  /* The forms so far, by their bytes (GBytes over the forms' own). */
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  const Form *forms;
  guint n_forms;
  guint32 *counts;

  clear_table (self);
  self->dirty = FALSE;
  self->window = MAX_WINDOW;
  self->max_len = 0;

  for (guint s = 0; s < self->secrets->len; s++)
    {
      Secret *secret = g_ptr_array_index (self->secrets, s);
      g_autoptr(GPtrArray) secret_forms = paddock_redactor_forms_new (secret->value, secret->len);

      for (guint i = 0; i < secret_forms->len; i++)
        {
          GByteArray *bytes = g_ptr_array_index (secret_forms, i);
          Form form = { head_at (bytes->data), bytes->data, bytes->len, s };
          GBytes *key = g_bytes_new_static (bytes->data, bytes->len);

          /* Not g_hash_table_add(): it would keep the new key, over the
           * bytes of a form about to be freed. */
          if (g_hash_table_contains (seen, key))
            {
              g_bytes_unref (key);
              continue;
            }
          g_hash_table_add (seen, key);
          /* Moved, not shared: the list wipes what it still holds. */
          g_ptr_array_add (self->form_bytes, g_steal_pointer (&secret_forms->pdata[i]));
          g_array_append_val (self->forms, form);
          self->window = MIN (self->window, form.len);
          self->max_len = MAX (self->max_len, form.len);
        }
    }

  forms = (const Form *) self->forms->data;
  n_forms = self->forms->len;
  if (n_forms == 0)
    return;
  g_assert (self->window >= PADDOCK_REDACTOR_MIN_VALUE);

  /* The shift for a pair: how far its last occurrence in a form's first
   * `window` bytes is from the window's end. */
  self->shift = g_malloc (N_PAIRS);
  memset (self->shift, (int) (self->window - 1), N_PAIRS);
  counts = g_new0 (guint32, N_BUCKETS);
  for (guint f = 0; f < n_forms; f++)
    {
      for (gsize j = 1; j < self->window; j++)
        {
          guint pair = pair_at (forms[f].bytes + j - 1);

          self->shift[pair] = (guint8) MIN (self->shift[pair], self->window - 1 - j);
        }
      counts[bucket_of (pair_at (forms[f].bytes + self->window - 2))]++;
    }

  self->candidate_start = g_new0 (guint32, N_BUCKETS + 1);
  for (guint b = 0; b < N_BUCKETS; b++)
    self->candidate_start[b + 1] = self->candidate_start[b] + counts[b];
  self->candidates = g_new (guint32, n_forms);
  memset (counts, 0, sizeof (guint32) * N_BUCKETS);
  for (guint f = 0; f < n_forms; f++)
    {
      guint b = bucket_of (pair_at (forms[f].bytes + self->window - 2));

      self->candidates[self->candidate_start[b] + counts[b]++] = f;
    }
  for (guint b = 0; b < N_BUCKETS; b++)
    if (counts[b] > 1)
      g_qsort_with_data (self->candidates + self->candidate_start[b], (gint) counts[b],
                         sizeof (guint32), compare_forms_by_length, (gpointer) forms);
  g_free (counts);

  self->sorted = g_new (guint32, n_forms);
  for (guint f = 0; f < n_forms; f++)
    self->sorted[f] = f;
  g_qsort_with_data (self->sorted, (gint) n_forms, sizeof (guint32), compare_forms_by_bytes, (gpointer) forms);
}

/* Whether @len bytes (fewer than any form has) start some form. */
static gboolean
starts_a_form (PaddockRedactor *self,
               const guint8    *bytes,
               gsize            len)
{
  const Form *forms = (const Form *) self->forms->data;
  guint lo = 0, hi = self->forms->len;

  /* The first form not before @bytes in byte order is the one it would
   * be a prefix of, if any is. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Form *form = &forms[self->sorted[mid]];

      if (compare_bytes (form->bytes, form->len, bytes, len) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->forms->len && memcmp (forms[self->sorted[lo]].bytes, bytes, len) == 0;
}

/* The longest form that starts at @text, of @avail bytes there are: its
 * index, or -1 for none, or -2 if a form could start here, but runs
 * past them (never if @at_end). */
static inline gint64
form_at (PaddockRedactor *self,
         const guint8    *text,
         gsize            avail,
         gboolean         at_end)
{
  const Form *forms = (const Form *) self->forms->data;
  guint b = bucket_of (pair_at (text + self->window - 2));
  guint64 head = head_at (text);

  for (guint32 c = self->candidate_start[b]; c < self->candidate_start[b + 1]; c++)
    {
      guint32 f = self->candidates[c];
      const Form *form = &forms[f];

      if (form->head != head)
        continue;
      if (form->len <= avail)
        {
          if (memcmp (form->bytes, text, form->len) == 0)
            return f;
        }
      else if (!at_end && memcmp (form->bytes, text, avail) == 0)
        return -2;
    }
  return -1;
}

static inline void
emit (GByteArray   *out,
      const guint8 *bytes,
      gsize         len)
{
  if (len > 0)
    g_byte_array_append (out, bytes, (guint) len);
}

/* One lane's steps: where the window's last pair has shift 0, the
 * position is listed (stored always, counted only then: no branch). */
#define LANE_STEP(k) \
  G_STMT_START { \
    guint8 s_ = shift[pair_at (pair_end + p[k])]; \
    found[k][n[k]] = (guint32) (p[k] - from); \
    n[k] += s_ == 0; \
    p[k] += s_ + (s_ == 0); \
  } G_STMT_END

/* The positions in [@from, @to) where a form could start, in order, into
 * @found (as offsets from @from); returns how many. @to - @from is at
 * most SEGMENT, and every position in it has a whole window. */
static gsize
find_candidates (PaddockRedactor *self,
                 const guint8    *text,
                 gsize            from,
                 gsize            to,
                 guint32         *found_all)
{
  const guint8 *shift = self->shift;
  const guint8 *pair_end = text + self->window - 2;
  gsize lane_len = (to - from + N_LANES - 1) / N_LANES;
  gsize p[N_LANES], end[N_LANES], n[N_LANES];
  guint32 *found[N_LANES];
  gsize total = 0;

  for (guint k = 0; k < N_LANES; k++)
    {
      p[k] = MIN (to, from + k * lane_len);
      end[k] = MIN (to, p[k] + lane_len);
      /* A lane's list starts where its positions do: it cannot list
       * more than it has. */
      found[k] = found_all + (p[k] - from);
      n[k] = 0;
    }

  while (p[0] < end[0] && p[1] < end[1] && p[2] < end[2] && p[3] < end[3])
    {
      LANE_STEP (0);
      LANE_STEP (1);
      LANE_STEP (2);
      LANE_STEP (3);
    }
  for (guint k = 0; k < N_LANES; k++)
    {
      while (p[k] < end[k])
        LANE_STEP (k);
      /* The last step may list a position past the lane's end, and not
       * count it. */
      memmove (found_all + total, found[k], n[k] * sizeof (guint32));
      total += n[k];
    }
  return total;
}

/* Decides the positions of @text from @pos until one at or past @stop,
 * appending to @out the bytes before it, masked; returns that position.
 * Stops earlier, where a form could start but @text ends before it does:
 * the bytes from there are to be held (never if @at_end). The bytes
 * before @shown are out already: not again, but a form that starts in
 * them still has its marker (after them). */
static gsize
scan (PaddockRedactor *self,
      const guint8    *text,
      gsize            len,
      gsize            pos,
      gsize            stop,
      gboolean         at_end,
      gsize            shown,
      GByteArray      *out)
{
  const gsize window = self->window;
  gsize emitted = MAX (pos, shown);

  if (self->forms->len == 0)
    {
      emit (out, text + emitted, len - emitted);
      return len;
    }

  while (pos < stop)
    {
      gsize segment_start, segment_end, n_found;

      if (len - pos < window)
        {
          /* No whole window fits: keep what could begin a form. */
          if (!at_end)
            while (pos < len && !starts_a_form (self, text + pos, len - pos))
              pos++;
          else
            pos = len;
          break;
        }

      segment_start = pos;
      segment_end = MIN (MIN (stop, len - window + 1), pos + SEGMENT);
      n_found = find_candidates (self, text, segment_start, segment_end, self->found);
      for (gsize i = 0; i < n_found; i++)
        {
          gsize at = segment_start + self->found[i];
          gint64 f;

          if (at < pos)
            continue;
          f = form_at (self, text + at, len - at, at_end);
          if (f == -2)
            {
              pos = at;
              goto held;
            }
          if (f >= 0)
            {
              const Form *form = &g_array_index (self->forms, Form, f);
              const Secret *secret = g_ptr_array_index (self->secrets, form->secret);

              if (at > emitted)
                emit (out, text + emitted, at - emitted);
              emit (out, (const guint8 *) secret->marker, strlen (secret->marker));
              pos = at + form->len;
              emitted = MAX (pos, emitted);
            }
        }
      pos = MAX (pos, segment_end);
    }

held:
  pos = MIN (pos, len);
  if (pos > emitted)
    emit (out, text + emitted, pos - emitted);
  return pos;
}

/* Holds @text from @pos on, of which the bytes before @shown are out. */
static void
hold (PaddockRedactor *self,
      const guint8    *text,
      gsize            len,
      gsize            pos,
      gsize            shown)
{
  g_assert (self->held->len == 0);
  emit (self->held, text + pos, len - pos);
  self->held_shown = shown > pos ? shown - pos : 0;
}

void
paddock_redactor_feed (PaddockRedactor *self,
                       const guint8    *data,
                       gsize            len,
                       GByteArray      *out)
{
  gsize take, pos, held_len, shown;

  g_return_if_fail (self != NULL);
  g_return_if_fail (data != NULL || len == 0);
  g_return_if_fail (out != NULL);

  if (self->dirty)
    build_table (self);
  if (len == 0)
    return;

  if (self->held->len == 0)
    {
      pos = scan (self, data, len, 0, len, FALSE, 0, out);
      hold (self, data, len, pos, 0);
      return;
    }

  /* The held bytes and as much of @data as a form that starts in them
   * can reach. */
  held_len = self->held->len;
  shown = self->held_shown;
  take = MIN (len, self->max_len);
  g_byte_array_set_size (self->joined, 0);
  emit (self->joined, self->held->data, held_len);
  emit (self->joined, data, take);
  wipe_array (self->held);
  self->held_shown = 0;

  if (take == len)
    {
      pos = scan (self, self->joined->data, self->joined->len, 0, self->joined->len, FALSE, shown, out);
      hold (self, self->joined->data, self->joined->len, pos, shown);
      wipe_array (self->joined);
      return;
    }

  pos = scan (self, self->joined->data, self->joined->len, 0, held_len, FALSE, shown, out);
  g_assert (pos >= held_len);
  wipe_array (self->joined);
  pos = scan (self, data, len, pos - held_len, len, FALSE, 0, out);
  hold (self, data, len, pos, 0);
}

void
paddock_redactor_flush (PaddockRedactor *self,
                        GByteArray      *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  if (self->dirty)
    build_table (self);
  if (self->held->len == 0)
    return;
  scan (self, self->held->data, self->held->len, 0, self->held->len, TRUE, self->held_shown, out);
  wipe_array (self->held);
  self->held_shown = 0;
}

void
paddock_redactor_flush_idle (PaddockRedactor *self,
                             GByteArray      *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  /* Held bytes are the start of a form: a few are a coincidence (and
   * fewer than PADDOCK_REDACTOR_MIN_VALUE hold no whole form), more are
   * likely a secret printed slowly, which an idle flush must not show. */
  if (self->held->len >= PADDOCK_REDACTOR_IDLE_SHOW_MAX)
    return;
  emit (out, self->held->data + self->held_shown, self->held->len - self->held_shown);
  self->held_shown = self->held->len;
}

gsize
paddock_redactor_held (PaddockRedactor *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->held->len - self->held_shown;
}

gboolean
paddock_redactor_get_form (PaddockRedactor *self,
                           guint            index,
                           const guint8   **bytes,
                           gsize           *len,
                           const char     **name)
{
  const Form *form;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->dirty)
    build_table (self);
  if (index >= self->forms->len)
    return FALSE;
  form = &g_array_index (self->forms, Form, index);
  *bytes = form->bytes;
  *len = form->len;
  *name = ((Secret *) g_ptr_array_index (self->secrets, form->secret))->name;
  return TRUE;
}
