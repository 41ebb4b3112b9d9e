/* paddock-audit.c: the session's tamper-evident audit log (JSON Lines, hash-chained)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Records are serialized by hand rather than with JsonGenerator: the key
 * order must be fixed for the hash to be checkable, strings that are not
 * UTF-8 need their own form, and this is the hot path of every exec.
 * The caller's fields are serialized before the lock is taken; only seq,
 * time, the hash and the copy into the file happen under it, so file order
 * is seq order and the chain stays linear with any number of writers.
 *
 * A record is copied into a shared mapping of the file rather than
 * written with write(2): the page cache owns those pages, so a record is
 * as safe from kill -9 of the writer as a written one, and an append
 * costs no system call. The file is extended a window at a time
 * (fallocate, so a full disk fails there and not as SIGBUS on a page
 * fault) and cut back to its records on close; a writer that was killed
 * leaves the rest of its window as NUL bytes, which readers take as the
 * end of the records and the next writer cuts off. A record's first byte
 * is stored last, so a writer killed in the middle of a copy leaves a
 * line that starts with NUL too. Where the file cannot be mapped or space
 * cannot be reserved (a FIFO, some network file systems) each record is
 * one write(2) on an O_APPEND descriptor.
 *
 * Another process that truncates the file under a live writer would make
 * the next copy into the mapping fault with SIGBUS. Copies run under a
 * guard: the handler finds the fault inside the guarded span and jumps
 * back, and the writer says so and goes on with write(2) at the file's
 * new end (verify then reports the break).
 *
 * The log read back, its chain verified and its records filtered, is
 * paddock-audit-reader.c's.
 */
#include "config.h"

#include "paddock-audit-private.h"
#include "paddock-autofd.h"
#include "paddock-escape.h"
#include "paddock-file-kind.h"
#include "paddock-protocol.h"
#include "paddock-xdg.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <nettle/sha2.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/* How much of the file is reserved and mapped ahead of the records: a
 * small window first (most sessions are short, and the space reserved is
 * given back at close), doubled at each move up to the largest. */
#define MAP_WINDOW_FIRST (64 * 1024)
/* How long a pipe or terminal may take no record before the log stops. */
#define STALL_MS 1000
#define MAP_WINDOW_MAX (1024 * 1024)

G_DEFINE_QUARK (paddock-audit-error-quark, paddock_audit_error)

struct _PaddockAudit
{
  GMutex    lock;
  char     *path;
  int       fd;
  guint64   end;           /* length of the records: where the next one goes */
  char     *map;           /* shared mapping of the file from map_offset, or NULL */
  guint64   map_offset;    /* page-aligned */
  gsize     map_length;
  guint64   touched;       /* the file offset up to which the mapping's pages are written */
  gsize     next_window;   /* the size of the next mapping */
  gboolean  no_map;        /* records are written with write(2) */
  GString  *line;          /* the record being written, reused */
  guint64   seq;
  char      prev[PADDOCK_AUDIT_HASH_LEN + 1];
  gboolean  failed;
  guint64   n_lost;        /* records not written since the failure, it included */
  gboolean  journal;
  int       journal_fd;    /* non-blocking datagram socket, once the journal is on; else -1 */
  guint64   n_unjournaled; /* records the journal did not take */
  time_t    time_second;   /* the second time_text shows */
  char      time_text[32];
};

/* Serialization */

void
paddock_audit_append_json_string (GString    *out,
                                  const char *str,
                                  gssize      length)
{
  static const char hex[] = "0123456789abcdef";
  const char *end;

  if (length < 0)
    length = strlen (str);
  end = str + length;

  if (!g_utf8_validate (str, length, NULL))
    {
      /* Not text: its bytes, as journald's JSON export writes them. */
      g_string_append_c (out, '[');
      for (const char *p = str; p < end; p++)
        g_string_append_printf (out, p == str ? "%u" : ",%u", (guint) (guchar) *p);
      g_string_append_c (out, ']');
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = str; p < end; p++)
    {
      guchar c = *p;

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            {
              g_string_append (out, "\\u00");
              g_string_append_c (out, hex[c >> 4]);
              g_string_append_c (out, hex[c & 0xf]);
            }
          else if (c == 0xe2 && end - p >= 3 && (guchar) p[1] == 0x80 &&
                   ((guchar) p[2] == 0xa8 || (guchar) p[2] == 0xa9))
            {
              /* U+2028/2029 end lines for some JSON readers; keep records one line everywhere. */
              g_string_append (out, (guchar) p[2] == 0xa8 ? "\\u2028" : "\\u2029");
              p += 2;
            }
          else
            g_string_append_c (out, c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void append_json_node (GString *out, JsonNode *node, guint depth);

static void
append_json_object (GString    *out,
                    JsonObject *object,
                    guint       depth,
                    gboolean    braces)
{
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;
  gboolean first = TRUE;

  if (braces)
    g_string_append_c (out, '{');
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &key, &node))
    {
      if (!first || !braces)
        g_string_append_c (out, ',');
      first = FALSE;
      if (g_utf8_validate (key, -1, NULL))
        paddock_audit_append_json_string (out, key, -1);
      else
        {
          /* A key must stay a string: escape what is not UTF-8. */
          g_autofree char *escaped = paddock_escape_for_display (key, -1);

          paddock_audit_append_json_string (out, escaped, -1);
        }
      g_string_append_c (out, ':');
      append_json_node (out, node, depth + 1);
    }
  if (braces)
    g_string_append_c (out, '}');
}

static void
append_json_node (GString  *out,
                  JsonNode *node,
                  guint     depth)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || depth > 64)
    {
      g_string_append (out, "null");
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      append_json_object (out, json_node_get_object (node), depth, TRUE);
      return;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_json_node (out, json_array_get_element (array, i), depth + 1);
        }
      g_string_append_c (out, ']');
      return;
    }
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      {
        const char *str = json_node_get_string (node);

        paddock_audit_append_json_string (out, str ? str : "", -1);
      }
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_DOUBLE:
      {
        double d = json_node_get_double (node);
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (!isfinite (d))
          g_string_append (out, "null");
        else
          {
            g_ascii_dtostr (buf, sizeof buf, d);
            g_string_append (out, buf);
            if (strpbrk (buf, ".eE") == NULL)
              g_string_append (out, ".0");
          }
      }
      break;
    default:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    }
}

/* Called under the log's lock: the date and time of day are formatted
 * once per second, the microseconds by hand. */
static void
append_uint64 (GString *out,
               guint64  value)
{
  char digits[20];
  int i = sizeof digits;

  do
    digits[--i] = (char) ('0' + value % 10);
  while ((value /= 10) != 0);
  g_string_append_len (out, digits + i, sizeof digits - i);
}

static void
format_time (PaddockAudit *self,
             GString      *out,
             gint64        time_us)
{
  time_t seconds = (time_t) (time_us / G_USEC_PER_SEC);
  guint micro = (guint) (time_us % G_USEC_PER_SEC);
  char digits[7];

  if (seconds != self->time_second || self->time_text[0] == '\0')
    {
      struct tm tm;

      gmtime_r (&seconds, &tm);
      strftime (self->time_text, sizeof self->time_text, "%Y-%m-%dT%H:%M:%S", &tm);
      self->time_second = seconds;
    }
  for (int i = 5; i >= 0; i--, micro /= 10)
    digits[i] = (char) ('0' + micro % 10);
  digits[6] = '\0';
  g_string_append_c (out, '"');
  g_string_append (out, self->time_text);
  g_string_append_c (out, '.');
  g_string_append_len (out, digits, 6);
  g_string_append (out, "Z\"");
}

/* Nettle rather than GChecksum: it uses the CPU's SHA instructions where
 * there are some, and takes no allocation. Each exec's record is hashed
 * before the exec is answered, so this is on the agent's path. */
void
paddock_audit_sha256_hex (const char *data,
                          gsize       length,
                          char        out[PADDOCK_AUDIT_HASH_LEN + 1])
{
  static const char hex[] = "0123456789abcdef";
  struct sha256_ctx context;
  guint8 digest[SHA256_DIGEST_SIZE];

  sha256_init (&context);
  sha256_update (&context, length, (const guint8 *) data);
  sha256_digest (&context, sizeof digest, digest);
  for (gsize i = 0; i < sizeof digest; i++)
    {
      out[2 * i] = hex[digest[i] >> 4];
      out[2 * i + 1] = hex[digest[i] & 0xf];
    }
  out[PADDOCK_AUDIT_HASH_LEN] = '\0';
}

/* Paths */

char *
paddock_audit_default_path (const char  *session_id,
                            GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  g_return_val_if_fail (session_id != NULL, NULL);

  if (*session_id == '\0' || strchr (session_id, '/') != NULL ||
      strcmp (session_id, ".") == 0 || strcmp (session_id, "..") == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "cannot name an audit log after the session \"%s\": not a plain name", session_id);
      return NULL;
    }
  dir = g_build_filename (paddock_user_state_dir (), "paddock", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0 || g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot create the audit log folder %s: %s", dir, g_strerror (saved_errno));
      return NULL;
    }
  name = g_strdup_printf ("session-%s-%s.jsonl", stamp, session_id);
  return g_build_filename (dir, name, NULL);
}

/* Opening */

static gboolean
write_all (int          fd,
           const char  *data,
           gsize        length,
           int         *out_errno)
{
  gint64 deadline = 0;

  while (length > 0)
    {
      ssize_t n = write (fd, data, length);

      if (n < 0 && errno == EAGAIN)
        {
          /* A pipe or terminal, non-blocking (see paddock_audit_open()):
           * its reader gets STALL_MS to take more; then, as with a full
           * disk, the log stops. EAGAIN says which. */
          gint64 now = g_get_monotonic_time ();
          struct pollfd pfd = { .fd = fd, .events = POLLOUT };

          if (deadline == 0)
            deadline = now + STALL_MS * 1000;
          if (now >= deadline || poll (&pfd, 1, (int) ((deadline - now + 999) / 1000)) == 0)
            {
              *out_errno = EAGAIN;
              return FALSE;
            }
          continue;
        }
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          *out_errno = errno;
          return FALSE;
        }
      if (n == 0)
        {
          *out_errno = ENOSPC;
          return FALSE;
        }
      data += n;
      length -= n;
    }
  return TRUE;
}

/* A writer that was killed leaves NUL bytes after its last record (the
 * rest of the space it had reserved, or the line it was writing). Finds
 * where the records end, cuts the file there, and decides whether records
 * go through a mapping. */
/* Whether the @length bytes of @data (which end with a newline) end with
 * a record whose hash matches it. */
static gboolean
ends_with_record (const char *data,
                  gsize       length)
{
  const char *newline = length > 1 ? memrchr (data, '\n', length - 1) : NULL;
  const char *line = newline != NULL ? newline + 1 : data;
  gsize line_length = data + length - 1 - line;
  gsize prefix_length;
  const char *hash;

  return paddock_audit_split_line (line, line_length, &prefix_length, &hash) && paddock_audit_hash_holds (line, prefix_length, hash);
}

/* Whether @data (@length bytes, the first a NUL) is what a writer killed
 * before its first record left: its first window, unused; or one that
 * holds that record but its first byte (stored last), or part of it,
 * with NUL bytes after. */
static gboolean
is_unused_reservation (const char *data,
                       gsize       length)
{
  const char *end = data + length;
  const char *rest = data;

  if (length > 7 && memcmp (data + 1, "\"seq\":", 6) == 0)
    {
      rest = data + 1;
      while (rest < end && *rest != '\0')
        rest++;
    }
  else if (length > MAP_WINDOW_FIRST)
    return FALSE;
  for (; rest < end; rest++)
    if (*rest != '\0')
      return FALSE;
  return TRUE;
}

static gboolean
cut_reserved_tail (PaddockAudit  *self,
                   GError       **error)
{
  struct stat st;
  char last = 0;
  const char *nul;
  void *data;

  if (fstat (self->fd, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot read the audit log %s: %s", self->path, g_strerror (saved_errno));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      self->no_map = TRUE;
      return TRUE;
    }
  self->end = st.st_size;
  if (st.st_size == 0 || pread (self->fd, &last, 1, st.st_size - 1) != 1 || last != '\0')
    return TRUE;

  data = mmap (NULL, st.st_size, PROT_READ, MAP_SHARED, self->fd, 0);
  if (data == MAP_FAILED)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot read the audit log %s: %s", self->path, g_strerror (saved_errno));
      return FALSE;
    }
  nul = memchr (data, '\0', st.st_size);
  self->end = nul - (const char *) data;
  if (self->end > 0 && nul[-1] != '\n')
    {
      munmap (data, st.st_size);
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                   "cannot continue the audit log %s: a NUL byte inside its record at byte %" G_GUINT64_FORMAT,
                   self->path, self->end);
      return FALSE;
    }
  /* Cut only what a writer left: a file that merely ends in NUL bytes (a
   * disk image, a binary named by mistake) is not ours to shorten. */
  if (!(self->end > 0 ? ends_with_record (data, self->end) : is_unused_reservation (data, st.st_size)))
    {
      munmap (data, st.st_size);
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                   "cannot continue the audit log %s: it ends in NUL bytes, as a log whose writer was "
                   "killed does, but %s; it is left as it is", self->path,
                   self->end > 0 ? "what comes before them is not an audit record"
                                 : "it holds no audit record");
      return FALSE;
    }
  munmap (data, st.st_size);
  if (ftruncate (self->fd, self->end) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot continue the audit log %s: cannot cut off the space a killed writer left: %s",
                   self->path, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/* Guarded copies */

typedef struct
{
  const char *start;
  const char *end;
  sigjmp_buf  jump;
} CopyGuard;

static __thread CopyGuard *copy_guard;
static struct sigaction previous_sigbus;

static void
on_sigbus (int        sig,
           siginfo_t *info,
           void      *context)
{
  CopyGuard *guard = copy_guard;

  if (guard != NULL && (const char *) info->si_addr >= guard->start &&
      (const char *) info->si_addr < guard->end)
    siglongjmp (guard->jump, 1);
  /* Not a copy of ours: as if this handler were not here. */
  if ((previous_sigbus.sa_flags & SA_SIGINFO) && previous_sigbus.sa_sigaction != NULL)
    previous_sigbus.sa_sigaction (sig, info, context);
  else if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != SIG_IGN)
    previous_sigbus.sa_handler (sig);
  else
    {
      /* A fault comes again once this returns, and ends the process; a
       * SIGBUS sent by someone is sent again. */
      signal (SIGBUS, SIG_DFL);
      if (info->si_code <= 0)
        raise (SIGBUS);
    }
}

static void
guard_copies (void)
{
  static gsize installed;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };

      action.sa_sigaction = on_sigbus;
      /* Left with siglongjmp, which restores no mask: SIGBUS stays unblocked. */
      action.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&action.sa_mask);
      sigaction (SIGBUS, &action, &previous_sigbus);
      g_once_init_leave (&installed, 1);
    }
}

/* Copies @length bytes of @from to @to, the first byte last (a copy cut
 * short by kill -9 reads as the end). FALSE when the file no longer
 * reaches @to's pages. */
static gboolean
guarded_copy (char       *to,
              const char *from,
              gsize       length)
{
  CopyGuard guard;

  guard.start = to;
  guard.end = to + length;
  if (sigsetjmp (guard.jump, 0) != 0)
    {
      copy_guard = NULL;
      return FALSE;
    }
  copy_guard = &guard;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  memcpy (to + 1, from + 1, length - 1);
  __atomic_store_n (to, from[0], __ATOMIC_RELEASE);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  copy_guard = NULL;
  return TRUE;
}

/* Gives up the mapping (and the space reserved past the records): from
 * now on records are written. */
static gboolean
unmap (PaddockAudit *self,
       int          *out_errno)
{
  gboolean ok = TRUE;

  if (self->map != NULL)
    {
      munmap (self->map, self->map_length);
      self->map = NULL;
      self->map_length = 0;
      if (ftruncate (self->fd, self->end) != 0)
        {
          *out_errno = errno;
          ok = FALSE;
        }
    }
  self->no_map = TRUE;
  return ok;
}

/* Maps a window that holds the next @length bytes. FALSE when the file
 * cannot take a mapping here (the caller writes instead). */
static gsize
page_size_get (void)
{
  static gsize page_size;

  if (page_size == 0)
    page_size = MAX (sysconf (_SC_PAGESIZE), 4096);
  return page_size;
}

static gboolean
map_window (PaddockAudit *self,
            gsize         length)
{
  gsize page_size = page_size_get ();
  guint64 offset;
  gsize window;
  void *map;
  int err;

  if (self->map != NULL && self->end + length <= self->map_offset + self->map_length)
    return TRUE;

  offset = self->end - self->end % page_size;
  if (self->next_window == 0)
    self->next_window = MAP_WINDOW_FIRST;
  window = MAX (self->next_window, self->end - offset + length);
  window = (window + page_size - 1) / page_size * page_size;
  /* Space first: a full disk is an error here, never SIGBUS in the copy. */
  do
    err = posix_fallocate (self->fd, offset, window);
  while (err == EINTR);
  if (err != 0)
    return FALSE;
  map = mmap (NULL, window, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, offset);
  if (map == MAP_FAILED)
    return FALSE;
  /* Children paddock-run forks (the agent) must not inherit a view of the log. */
  madvise (map, window, MADV_DONTFORK);
  guard_copies ();
  if (self->map != NULL)
    munmap (self->map, self->map_length);
  self->map = map;
  self->map_offset = offset;
  self->map_length = window;
  self->next_window = MIN (self->next_window * 2, MAP_WINDOW_MAX);
  self->touched = self->end;
  return TRUE;
}

/* Called under the lock, after a copy found the file cut under the
 * records: the mapping goes, the end is where the file now ends (or where
 * the records did, if the cut fell past them, inside the reserved space),
 * and records are written from here on. */
static gboolean
continue_after_cut (PaddockAudit *self,
                    int          *out_errno)
{
  struct stat st;
  guint64 records = self->end;

  if (fstat (self->fd, &st) != 0)
    {
      *out_errno = errno;
      return FALSE;
    }
  self->end = MIN ((guint64) st.st_size, records);
  if (!unmap (self, out_errno))
    return FALSE;
  paddock_printerr ("the audit log %s was cut to %" G_GUINT64_FORMAT " bytes by another process "
                    "while it held %" G_GUINT64_FORMAT " bytes of records; the records go on after the cut, "
                    "and verifying the log will report the break",
                    self->path, (guint64) st.st_size, records);
  return TRUE;
}

/* Called under the lock. */
static gboolean
store_record (PaddockAudit *self,
              const char   *line,
              gsize         length,
              int          *out_errno)
{
  if (!self->no_map && !map_window (self, length) && !unmap (self, out_errno))
    return FALSE;
  if (self->map != NULL &&
      !guarded_copy (self->map + (self->end - self->map_offset), line, length) &&
      !continue_after_cut (self, out_errno))
    return FALSE;
  if (self->map == NULL && !write_all (self->fd, line, length, out_errno))
    {
      /* A full disk takes part of a line: cut it, so the log stays whole. */
      if (ftruncate (self->fd, self->end) != 0)
        {
          /* verify will show where the records stop */
        }
      return FALSE;
    }
  self->end += length;
  return TRUE;
}

/* Whether @st (@fd once open, else -1) may be written as a log (see
 * paddock_file_kind_refusal()). */
static gboolean
check_log_kind (const char         *path,
                const struct stat  *st,
                int                 fd,
                GError            **error)
{
  char buffer[64];
  const char *refusal = paddock_file_kind_refusal (st, fd, PADDOCK_FILE_USE_WRITE, buffer);

  if (refusal == NULL)
    return TRUE;
  g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_NOT_A_LOG,
               "the audit log %s is %s; a log is a file, a pipe, a terminal or /dev/null", path, refusal);
  return FALSE;
}

PaddockAudit *
paddock_audit_open (const char  *path,
                    GError     **error)
{
  g_autoptr(PaddockAudit) self = NULL;
  g_autoptr(GString) last = g_string_new (NULL);
  gboolean ends_with_newline;
  gboolean empty;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (PaddockAudit, 1);
  self->fd = -1;
  self->journal_fd = -1;
  g_mutex_init (&self->lock);
  self->line = g_string_sized_new (1024);
  self->path = g_strdup (path);
  memcpy (self->prev, ZERO_HASH, sizeof self->prev);
  /* Looked at before the open too: opening some devices does something. */
  if (lstat (path, &st) == 0 && !check_log_kind (path, &st, -1, error))
    return NULL;
  self->fd = open (path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (self->fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot open the audit log %s: %s", path,
                   saved_errno == ELOOP ? "it is a symbolic link" : g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (self->fd, &st) != 0 || !check_log_kind (path, &st, self->fd, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                     "cannot look at the audit log %s: %s", path, g_strerror (errno));
      return NULL;
    }
  /* A pipe nobody reads, or a terminal stopped with ^S, would block the
   * append, and with it the thread that answers execs: writes there wait
   * at most STALL_MS (see write_all()). */
  if (!S_ISREG (st.st_mode))
    {
      int flags = fcntl (self->fd, F_GETFL);

      if (flags >= 0)
        fcntl (self->fd, F_SETFL, flags | O_NONBLOCK);
    }

  /* One writer per log, across processes too: two sessions appending to
   * one file would write over each other's records through their
   * mappings, and break the chain. Taken before anything is cut. Where
   * the file system has no locks, it goes on without; a pipe or a device
   * (/dev/null) is not a log to guard. */
  if (S_ISREG (st.st_mode) && flock (self->fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    {
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_BUSY,
                   "the audit log %s is being written by another session; give each session its own log",
                   path);
      return NULL;
    }

  if (!cut_reserved_tail (self, error))
    return NULL;

  {
    paddock_autofd int read_fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    const char *hash;
    gsize prefix_length;
    g_autoptr(JsonParser) parser = json_parser_new_immutable ();
    JsonNode *root;
    const char *why;

    if (read_fd < 0 || !paddock_audit_read_last_line (read_fd, path, last, &empty, &ends_with_newline, error))
      {
        if (read_fd < 0)
          {
            int saved_errno = errno;

            g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                         "cannot read the audit log %s: %s", path, g_strerror (saved_errno));
          }
        return NULL;
      }
    if (empty)
      return g_steal_pointer (&self);

    if (!ends_with_newline || !paddock_audit_split_line (last->str, last->len, &prefix_length, &hash) ||
        (root = paddock_audit_parse_record (parser, last->str, last->len, &why)) == NULL)
      {
        g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                     "cannot continue the audit log %s: its last record is %s", path,
                     ends_with_newline ? "not a well-formed record" : "cut short");
        return NULL;
      }
    if (!paddock_audit_hash_holds (last->str, prefix_length, hash))
      {
        g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                     "cannot continue the audit log %s: its last record's hash does not match its content",
                     path);
        return NULL;
      }
    self->seq = (guint64) json_object_get_int_member (json_node_get_object (root), "seq");
    memcpy (self->prev, hash, PADDOCK_AUDIT_HASH_LEN);
  }
  return g_steal_pointer (&self);
}

void
paddock_audit_close (PaddockAudit *self)
{
  if (self == NULL)
    return;
  if (self->map != NULL)
    {
      int ignored;

      unmap (self, &ignored);
    }
  paddock_close_fd (&self->fd);
  paddock_close_fd (&self->journal_fd);
  g_mutex_clear (&self->lock);
  g_string_free (self->line, TRUE);
  g_free (self->path);
  g_free (self);
}

const char *
paddock_audit_get_path (PaddockAudit *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

void
paddock_audit_set_journal (PaddockAudit *self,
                           gboolean      journal)
{
  g_return_if_fail (self != NULL);
  g_mutex_lock (&self->lock);
  self->journal = !!journal;
  if (self->journal && self->journal_fd < 0)
    self->journal_fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  g_mutex_unlock (&self->lock);
}

guint64
paddock_audit_get_n_unjournaled (PaddockAudit *self)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  n = self->n_unjournaled;
  g_mutex_unlock (&self->lock);
  return n;
}

guint64
paddock_audit_get_last_seq (PaddockAudit *self)
{
  guint64 seq;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  seq = self->seq;
  g_mutex_unlock (&self->lock);
  return seq;
}

void
paddock_audit_get_last_hash (PaddockAudit *self,
                             char          out_hash[PADDOCK_AUDIT_HASH_LEN + 1])
{
  g_return_if_fail (self != NULL);
  g_mutex_lock (&self->lock);
  memcpy (out_hash, self->prev, PADDOCK_AUDIT_HASH_LEN + 1);
  g_mutex_unlock (&self->lock);
}

guint64
paddock_audit_get_n_lost (PaddockAudit *self)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  n = self->n_lost;
  g_mutex_unlock (&self->lock);
  return n;
}

void
paddock_audit_print_error (const GError *error)
{
  g_return_if_fail (error != NULL);
  if (g_error_matches (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_STOPPED))
    return;
  paddock_printerr ("audit log: %s", error->message);
}

/* Sends @iov to the journal without waiting: a journal that does not keep
 * up (its socket's queue full) must not hold the caller, which may be the
 * thread every exec of the agent waits on. An entry too big for one
 * datagram goes in a sealed memfd, as the journal's native protocol has it. */
static gboolean
journal_send (int                 fd,
              const struct iovec *iov,
              int                 n_iov)
{
  static const struct sockaddr_un address = { .sun_family = AF_UNIX, .sun_path = PADDOCK_AUDIT_JOURNAL_SOCKET };
  struct msghdr message = {
    .msg_name = (void *) &address,
    .msg_namelen = sizeof address,
    .msg_iov = (struct iovec *) iov,
    .msg_iovlen = n_iov,
  };
  union {
    struct cmsghdr header;
    char           space[CMSG_SPACE (sizeof (int))];
  } control = { 0 };
  paddock_autofd int memfd = -1;
  struct cmsghdr *cmsg;
  gsize total = 0;

  if (sendmsg (fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
    return TRUE;
  if (errno != EMSGSIZE && errno != ENOBUFS)
    return FALSE;

  memfd = memfd_create ("paddock-journal", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memfd < 0)
    return FALSE;
  for (int i = 0; i < n_iov; i++)
    total += iov[i].iov_len;
  if (writev (memfd, iov, n_iov) != (ssize_t) total ||
      fcntl (memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    return FALSE;
  message.msg_iov = NULL;
  message.msg_iovlen = 0;
  message.msg_control = control.space;
  message.msg_controllen = sizeof control.space;
  cmsg = CMSG_FIRSTHDR (&message);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &memfd, sizeof (int));
  return sendmsg (fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0;
}

/* One journal entry for the record @line (no newline in it: JSON escapes
 * them), as KEY=VALUE lines. Called with the lock held, so that entries
 * go in the log's order; it does not wait. */
static void
send_to_journal (PaddockAudit *self,
                 const char   *type,
                 guint64       seq,
                 const char   *hash,
                 const char   *line,
                 gsize         length)
{
  char head[256];
  int head_length;
  struct iovec iov[3];

  head_length = g_snprintf (head, sizeof head,
                            "MESSAGE=paddock audit %s #%" G_GUINT64_FORMAT "\n"
                            "PRIORITY=6\n"
                            "SYSLOG_IDENTIFIER=%s\n"
                            "PADDOCK_SEQ=%" G_GUINT64_FORMAT "\n"
                            "PADDOCK_TYPE=%s\n"
                            "PADDOCK_HASH=%s\n"
                            "PADDOCK_RECORD=",
                            type, seq, g_get_prgname () != NULL ? g_get_prgname () : "paddock",
                            seq, type, hash);
  if (head_length < 0 || (gsize) head_length >= sizeof head)
    {
      self->n_unjournaled++;
      return;
    }
  iov[0] = (struct iovec) { head, head_length };
  iov[1] = (struct iovec) { (void *) line, length };
  iov[2] = (struct iovec) { "\n", 1 };
  if (self->journal_fd < 0 || !journal_send (self->journal_fd, iov, G_N_ELEMENTS (iov)))
    self->n_unjournaled++;
}

gboolean
paddock_audit_append (PaddockAudit  *self,
                      const char    *type,
                      JsonObject    *fields,
                      guint64       *out_seq,
                      GError       **error)
{
  static const char * const reserved[] = { "seq", "time", "type", "prev", "hash", NULL };
  g_autoptr(GString) members = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (type != NULL && *type != '\0', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (fields != NULL)
    {
      for (guint i = 0; reserved[i] != NULL; i++)
        if (json_object_has_member (fields, reserved[i]))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                         "cannot record the field \"%s\": the audit log sets it itself", reserved[i]);
            return FALSE;
          }
      append_json_object (members, fields, 0, FALSE);
    }
  return paddock_audit_append_members (self, type, members->str, members->len, out_seq, error);
}

gboolean
paddock_audit_append_members (PaddockAudit  *self,
                              const char    *type,
                              const char    *members,
                              gsize          length,
                              guint64       *out_seq,
                              GError       **error)
{
  GString *line;
  char hash[PADDOCK_AUDIT_HASH_LEN + 1];
  gsize prefix_length;
  guint64 seq;
  int saved_errno = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (type != NULL && *type != '\0', FALSE);
  g_return_val_if_fail (members != NULL || length == 0, FALSE);
  g_return_val_if_fail (length == 0 || members[0] == ',', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_mutex_lock (&self->lock);
  line = self->line;
  g_string_truncate (line, 0);
  if (self->failed)
    {
      self->n_lost++;
      g_mutex_unlock (&self->lock);
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_STOPPED,
                   "the audit log %s takes no more records after a failed write", self->path);
      return FALSE;
    }
  seq = self->seq + 1;
  g_string_append (line, "{\"seq\":");
  append_uint64 (line, seq);
  g_string_append (line, ",\"time\":");
  format_time (self, line, g_get_real_time ());
  g_string_append (line, ",\"type\":");
  paddock_audit_append_json_string (line, type, -1);
  g_string_append_len (line, members, length);
  g_string_append (line, ",\"prev\":\"");
  g_string_append_len (line, self->prev, PADDOCK_AUDIT_HASH_LEN);
  g_string_append_c (line, '"');
  prefix_length = line->len;
  paddock_audit_sha256_hex (line->str, prefix_length, hash);
  g_string_append (line, HASH_KEY);
  g_string_append_len (line, hash, PADDOCK_AUDIT_HASH_LEN);
  g_string_append (line, "\"}\n");

  if (!store_record (self, line->str, line->len, &saved_errno))
    {
      self->failed = TRUE;
      self->n_lost++;
      g_mutex_unlock (&self->lock);
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_FAILED,
                   "cannot append to the audit log %s: %s; it takes no more records, and holds "
                   "those before this one", self->path,
                   saved_errno == EAGAIN ? "nothing took a record for a second (a pipe nobody reads, "
                                           "or a stopped terminal)"
                                         : g_strerror (saved_errno));
      return FALSE;
    }
  self->seq = seq;
  memcpy (self->prev, hash, sizeof hash);
  if (self->journal)
    send_to_journal (self, type, seq, hash, line->str, line->len - 1);
  g_mutex_unlock (&self->lock);
  if (out_seq != NULL)
    *out_seq = seq;
  return TRUE;
}

void
paddock_audit_prefault (PaddockAudit *self)
{
  gsize page_size = page_size_get ();

  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  if (self->map != NULL && !self->failed)
    {
      guint64 next = (self->end / page_size + 1) * page_size;

      if (next > self->touched && next < self->map_offset + self->map_length)
        {
          int ignored;

          /* Reserved space reads as NUL bytes: this writes what is there. */
          if (guarded_copy (self->map + (next - self->map_offset), "", 1))
            self->touched = next;
          else if (!continue_after_cut (self, &ignored))
            self->failed = TRUE;
        }
    }
  g_mutex_unlock (&self->lock);
}
