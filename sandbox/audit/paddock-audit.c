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
 */
#include "config.h"

#include "paddock-audit.h"
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

#define ZERO_HASH "0000000000000000000000000000000000000000000000000000000000000000"
#define HASH_KEY ",\"hash\":\""
#define MAX_TAIL (16 * 1024 * 1024)
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
static void
sha256_hex (const char *data,
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
is_hex_hash (const char *text,
             gsize       length)
{
  if (length != PADDOCK_AUDIT_HASH_LEN)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isxdigit (text[i]) || g_ascii_isupper (text[i]))
      return FALSE;
  return TRUE;
}

/* The chain-relevant parts of one line: where its hash field starts and what it holds. */
static gboolean
split_line (const char  *line,
            gsize        length,
            gsize       *prefix_length,
            const char **hash)
{
  static const gsize tail = sizeof HASH_KEY - 1 + PADDOCK_AUDIT_HASH_LEN + 2;  /* ,"hash":"<64>"} */

  if (length < tail + 1 || line[0] != '{')
    return FALSE;
  if (memcmp (line + length - tail, HASH_KEY, sizeof HASH_KEY - 1) != 0)
    return FALSE;
  if (line[length - 2] != '"' || line[length - 1] != '}')
    return FALSE;
  *hash = line + length - tail + sizeof HASH_KEY - 1;
  if (!is_hex_hash (*hash, PADDOCK_AUDIT_HASH_LEN))
    return FALSE;
  *prefix_length = length - tail;
  return TRUE;
}

/* Whether @hash, the one a record carries, is that of its first
 * @prefix_length bytes (see split_line()). */
static gboolean
hash_holds (const char *line,
            gsize       prefix_length,
            const char *hash)
{
  char computed[PADDOCK_AUDIT_HASH_LEN + 1];

  sha256_hex (line, prefix_length, computed);
  return memcmp (computed, hash, PADDOCK_AUDIT_HASH_LEN) == 0;
}

/* Reads the last line of @fd into @out (without its newline). */
static gboolean
read_last_line (int          fd,
                const char  *path,
                GString     *out,
                gboolean    *empty,
                gboolean    *ends_with_newline,
                GError     **error)
{
  struct stat st;
  off_t end, start;
  g_autofree char *buf = NULL;
  gsize want;
  ssize_t n;
  char *last;

  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot read the audit log %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }
  end = st.st_size;
  *ends_with_newline = TRUE;
  *empty = (end == 0);
  if (end == 0)
    return TRUE;

  /* Grow the window until it holds the whole last line. */
  for (want = 4096;; want *= 4)
    {
      if ((off_t) want > end)
        want = end;
      if (want > MAX_TAIL)
        {
          g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                       "cannot continue the audit log %s: its last line is longer than %d MiB",
                       path, MAX_TAIL / (1024 * 1024));
          return FALSE;
        }
      start = end - want;
      g_free (buf);
      buf = g_malloc (want + 1);
      n = pread (fd, buf, want, start);
      if (n != (ssize_t) want)
        {
          int saved_errno = n < 0 ? errno : EIO;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot read the audit log %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      buf[want] = '\0';
      *ends_with_newline = (buf[want - 1] == '\n');
      if (*ends_with_newline)
        buf[--n] = '\0';
      last = memrchr (buf, '\n', n);
      if (last != NULL || start == 0)
        {
          const char *line = last ? last + 1 : buf;

          g_string_append_len (out, line, buf + n - line);
          return TRUE;
        }
    }
}

static JsonNode *parse_record (JsonParser  *parser,
                               const char  *line,
                               gsize        length,
                               const char **why);

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

  return split_line (line, line_length, &prefix_length, &hash) && hash_holds (line, prefix_length, hash);
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

    if (read_fd < 0 || !read_last_line (read_fd, path, last, &empty, &ends_with_newline, error))
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

    if (!ends_with_newline || !split_line (last->str, last->len, &prefix_length, &hash) ||
        (root = parse_record (parser, last->str, last->len, &why)) == NULL)
      {
        g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_DAMAGED,
                     "cannot continue the audit log %s: its last record is %s", path,
                     ends_with_newline ? "not a well-formed record" : "cut short");
        return NULL;
      }
    if (!hash_holds (last->str, prefix_length, hash))
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
  sha256_hex (line->str, prefix_length, hash);
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

/* Verification */

void
paddock_audit_verification_clear (PaddockAuditVerification *result)
{
  g_return_if_fail (result != NULL);
  g_clear_pointer (&result->reason, g_free);
  memset (result, 0, sizeof *result);
}

static gint64
parse_record_time (JsonObject *object)
{
  const char *text = json_object_get_string_member_with_default (object, "time", NULL);
  g_autoptr(GDateTime) dt = NULL;

  if (text == NULL)
    return -1;
  dt = g_date_time_new_from_iso8601 (text, NULL);
  if (dt == NULL)
    return -1;
  return g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
}

/* json-glib's parser recurses once per level of nesting; a forged line of
 * ten million '[' must not take the reader's stack with it. */
static gboolean
nested_too_deeply (const char *text,
                   gsize       length)
{
  guint depth = 0;
  char quote = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (quote != 0)
        {
          if (c == '\\')
            i++;
          else if (c == quote)
            quote = 0;
        }
      else if (c == '"' || c == '\'')
        quote = c;
      else if (c == '[' || c == '{')
        {
          if (++depth > 64)
            return TRUE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return FALSE;
}

/* Parses one line as a record: an object whose seq, time, type and prev
 * have the right types. Returns the root node, or NULL with @why. */
static JsonNode *
parse_record (JsonParser  *parser,
              const char  *line,
              gsize        length,
              const char **why)
{
  JsonNode *root;
  JsonObject *object;
  JsonNode *node;

  if (nested_too_deeply (line, length))
    {
      *why = "nested too deeply";
      return NULL;
    }
  if (!json_parser_load_from_data (parser, line, length, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      *why = "not a JSON object";
      return NULL;
    }
  object = json_node_get_object (root);
  node = json_object_get_member (object, "seq");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 1)
    {
      *why = "no valid \"seq\"";
      return NULL;
    }
  node = json_object_get_member (object, "type");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      *why = "no valid \"type\"";
      return NULL;
    }
  if (parse_record_time (object) < 0)
    {
      *why = "no valid \"time\"";
      return NULL;
    }
  node = json_object_get_member (object, "prev");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      *why = "no valid \"prev\"";
      return NULL;
    }
  return root;
}

/* The chain as far as it was read. */
typedef struct
{
  JsonParser               *parser;
  PaddockAuditVerification *result;
  char                      prev[PADDOCK_AUDIT_HASH_LEN + 1];
  guint64                   expected_seq;
  guint64                   line_number;
} Verifier;

static void
verifier_init (Verifier                 *v,
               PaddockAuditVerification *result)
{
  memset (result, 0, sizeof *result);
  v->parser = json_parser_new_immutable ();
  v->result = result;
  memcpy (v->prev, ZERO_HASH, sizeof v->prev);
  memcpy (result->last_hash, ZERO_HASH, sizeof v->prev);
  v->expected_seq = 1;
  v->line_number = 0;
}

/* Checks the line at @p (without its newline, which @has_newline says was
 * there). Returns FALSE once the chain breaks there: result says why. */
static gboolean
verifier_line (Verifier   *v,
               const char *p,
               gsize       line_length,
               gboolean    has_newline)
{
  PaddockAuditVerification *result = v->result;
  const char *hash;
  gsize prefix_length;
  const char *why = NULL;
  JsonNode *root;
  JsonObject *object;
  guint64 seq;
  const char *record_prev;

  v->line_number++;
  result->bad_line = v->line_number;

  if (!has_newline)
    {
      result->reason = g_strdup ("the last record is cut short (no end of line): the log was truncated");
      return FALSE;
    }
  if (line_length == 0)
    {
      result->reason = g_strdup ("an empty line where a record should be");
      return FALSE;
    }
  if (memchr (p, '\0', line_length) != NULL)
    {
      result->reason = g_strdup ("a NUL byte in the record: the file was damaged");
      return FALSE;
    }
  if (!split_line (p, line_length, &prefix_length, &hash))
    {
      result->reason = g_strdup ("not a record: it does not end with a \"hash\" field (damaged, truncated, or garbage appended)");
      return FALSE;
    }
  root = parse_record (v->parser, p, line_length, &why);
  if (root == NULL)
    {
      result->reason = g_strdup_printf ("not a record: %s", why);
      return FALSE;
    }
  object = json_node_get_object (root);
  if (!hash_holds (p, prefix_length, hash))
    {
      result->reason = g_strdup ("the record's hash does not match its content: the record was edited or damaged");
      return FALSE;
    }
  seq = (guint64) json_object_get_int_member (object, "seq");
  record_prev = json_object_get_string_member (object, "prev");
  if (seq != v->expected_seq)
    {
      if (seq > v->expected_seq)
        result->reason = g_strdup_printf ("seq jumps from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                                          ": a record was deleted or moved",
                                          v->expected_seq - 1, seq);
      else
        result->reason = g_strdup_printf ("seq %" G_GUINT64_FORMAT " comes after %" G_GUINT64_FORMAT
                                          ": a record was moved or repeated",
                                          seq, v->expected_seq - 1);
      return FALSE;
    }
  if (strcmp (record_prev, v->prev) != 0)
    {
      if (v->line_number == 1)
        result->reason = g_strdup ("the first record does not start a chain (prev is not all zeros): "
                                   "the log's beginning was removed");
      else
        result->reason = g_strdup_printf ("the chain is broken: prev is not the hash of record %" G_GUINT64_FORMAT
                                          " (a record was replaced)", seq - 1);
      return FALSE;
    }

  memcpy (v->prev, hash, PADDOCK_AUDIT_HASH_LEN);
  memcpy (result->last_hash, hash, PADDOCK_AUDIT_HASH_LEN);
  result->n_records++;
  result->ended = (strcmp (json_object_get_string_member (object, "type"), PADDOCK_AUDIT_SESSION_END) == 0);
  v->expected_seq++;
  result->bad_line = 0;
  return TRUE;
}

static void
verifier_clear (Verifier *v)
{
  g_clear_object (&v->parser);
}

void
paddock_audit_verify_data (const char               *data,
                           gsize                     length,
                           PaddockAuditVerification *result)
{
  Verifier v;
  const char *p = data;
  const char *end = data + length;

  g_return_if_fail (result != NULL);
  g_return_if_fail (data != NULL || length == 0);

  verifier_init (&v, result);
  while (p < end)
    {
      const char *newline = memchr (p, '\n', end - p);
      gsize line_length = (newline ? newline : end) - p;

      /* Space the writer reserved and did not fill: it was killed. */
      if (*p == '\0')
        break;
      if (!verifier_line (&v, p, line_length, newline != NULL))
        break;
      p = newline ? newline + 1 : end;
    }
  verifier_clear (&v);
}

/* A log read line by line with read(2), never mapped: a writer may cut the
 * file short while it is read (a session trims its reserved space when it
 * ends), and a mapping would fault there. */
typedef struct
{
  int    fd;
  char  *buffer;
  gsize  size;
  gsize  start;       /* of the next line */
  gsize  filled;
  gboolean eof;
} LineFile;

/* Longer than any record paddock-run writes (argv is capped well below). */
#define MAX_LINE_BYTES (64 * 1024 * 1024)

static gboolean
line_file_open (LineFile    *lf,
                const char  *path,
                GError     **error)
{
  *lf = (LineFile) { .fd = -1, .size = 1024 * 1024 };
  /* Looked at before the open too: opening some devices does something. */
  if (!paddock_file_kind_check_read (path, -1, NULL, error))
    return FALSE;
  lf->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (lf->fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "cannot open %s: %s", path, g_strerror (saved_errno));
      return FALSE;
    }
  /* /proc/kmsg, say, would wait for the kernel's next message. */
  if (!paddock_file_kind_check_read (path, lf->fd, NULL, error))
    {
      paddock_close_fd (&lf->fd);
      return FALSE;
    }
  lf->buffer = g_malloc (lf->size);
  return TRUE;
}

static void
line_file_close (LineFile *lf)
{
  paddock_close_fd (&lf->fd);
  g_clear_pointer (&lf->buffer, g_free);
}

/* The next line, without its newline (*has_newline says whether it had
 * one: only the last line can lack it). FALSE at the end of the file, or
 * with @error when it cannot be read or a line is longer than
 * MAX_LINE_BYTES. */
static gboolean
line_file_next (LineFile    *lf,
                const char  *path,
                const char **line,
                gsize       *length,
                gboolean    *has_newline,
                GError     **error)
{
  for (;;)
    {
      const char *at = lf->buffer + lf->start;
      gsize available = lf->filled - lf->start;
      const char *newline = memchr (at, '\n', available);
      ssize_t n;

      if (newline != NULL || (lf->eof && available > 0))
        {
          *line = at;
          *length = newline != NULL ? (gsize) (newline - at) : available;
          *has_newline = newline != NULL;
          lf->start += *length + (newline != NULL);
          return TRUE;
        }
      if (lf->eof)
        return FALSE;

      /* Keep the partial line, make room for more. */
      memmove (lf->buffer, at, available);
      lf->start = 0;
      lf->filled = available;
      if (lf->filled == lf->size)
        {
          if (lf->size >= MAX_LINE_BYTES)
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s: a line longer than %d MiB: not an audit log", path,
                           MAX_LINE_BYTES / (1024 * 1024));
              return FALSE;
            }
          lf->size *= 2;
          lf->buffer = g_realloc (lf->buffer, lf->size);
        }
      do
        n = read (lf->fd, lf->buffer + lf->filled, lf->size - lf->filled);
      while (n < 0 && errno == EINTR);
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "cannot read %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        lf->eof = TRUE;
      lf->filled += n;
    }
}

gboolean
paddock_audit_verify_file (const char                *path,
                           PaddockAuditVerification  *result,
                           GError                   **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  return paddock_audit_foreach (path, NULL, NULL, NULL, result, error);
}

/* Reading */

/* The string array @node as bytes, NULL-terminated; NULL when @node is no array. */
static GStrv
node_dup_strv (JsonNode *node)
{
  JsonArray *array;
  GStrv strv;
  guint length;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  strv = g_new0 (char *, length + 1);
  for (guint i = 0; i < length; i++)
    {
      char *bytes = paddock_audit_node_dup_string (json_array_get_element (array, i));

      strv[i] = bytes != NULL ? bytes : g_strdup ("");
    }
  return strv;
}

char *
paddock_audit_dup_command_line (JsonObject *object,
                                const char *member)
{
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (member != NULL, NULL);

  argv = node_dup_strv (json_object_get_member (object, member));
  return argv != NULL ? paddock_escape_argv_for_display ((const char * const *) argv) : NULL;
}

char *
paddock_audit_dup_exec_line (JsonObject *object)
{
  g_auto(GStrv) argv = NULL;
  g_autofree char *path = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *interpreter = NULL;
  g_autofree char *pipeline = NULL;
  JsonNode *node;

  g_return_val_if_fail (object != NULL, NULL);

  argv = node_dup_strv (json_object_get_member (object, "argv"));
  if (argv == NULL)
    return g_strdup ("");
  if ((node = json_object_get_member (object, "path")) != NULL)
    path = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "exe")) != NULL)
    exe = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "interpreter")) != NULL)
    interpreter = paddock_audit_node_dup_string (node);
  if ((node = json_object_get_member (object, "pipeline")) != NULL)
    pipeline = paddock_audit_node_dup_string (node);
  return paddock_exec_display_line (path, exe, interpreter, pipeline, (const char * const *) argv);
}

/* --grep looks at the record's JSON text and at its command line as shown,
 * where the arguments are one string ("rm -rf build" is not in the JSON). */
static gboolean
grep_matches (GRegex                   *grep,
              const PaddockAuditRecord *record)
{
  g_autofree char *command = NULL;

  if (g_regex_match_full (grep, record->text, record->text_len, 0, 0, NULL, NULL))
    return TRUE;
  if (json_object_has_member (record->object, "argv"))
    command = paddock_audit_dup_exec_line (record->object);
  else
    command = paddock_audit_dup_command_line (record->object, "command");
  return command != NULL && g_regex_match (grep, command, 0, NULL);
}

gboolean
paddock_audit_filter_matches (const PaddockAuditFilter *filter,
                              const PaddockAuditRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);

  return filter == NULL ||
         ((filter->since_us == 0 || record->time_us >= filter->since_us) &&
          (filter->type == NULL || strcmp (filter->type, record->type) == 0) &&
          (filter->decision == NULL ||
           g_strcmp0 (json_object_get_string_member_with_default (record->object, "decision", NULL),
                      filter->decision) == 0) &&
          (filter->grep == NULL || grep_matches (filter->grep, record)));
}

gboolean
paddock_audit_foreach (const char                *path,
                       const PaddockAuditFilter  *filter,
                       PaddockAuditRecordFunc     func,
                       gpointer                   user_data,
                       PaddockAuditVerification  *verification,
                       GError                   **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  LineFile lf;
  Verifier v;
  const char *p;
  gsize length;
  gboolean has_newline;
  gboolean calling = func != NULL;
  gboolean verifying = verification != NULL;
  guint64 line_number = 0;
  GError *local_error = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (func != NULL || verification != NULL, FALSE);

  if (verification != NULL)
    memset (verification, 0, sizeof *verification);
  if (!line_file_open (&lf, path, error))
    return FALSE;
  if (verification != NULL)
    verifier_init (&v, verification);
  while ((calling || verifying) && line_file_next (&lf, path, &p, &length, &has_newline, &local_error))
    {
      const char *why;
      JsonNode *root;
      PaddockAuditRecord record;

      /* Space the writer reserved and did not fill: it was killed. */
      if (length > 0 && *p == '\0')
        break;
      if (verifying && !verifier_line (&v, p, length, has_newline))
        verifying = FALSE;
      line_number++;
      if (!calling)
        continue;
      root = (length > 0 && memchr (p, '\0', length) == NULL) ? parse_record (parser, p, length, &why) : NULL;
      if (root == NULL)
        continue;
      record.object = json_node_get_object (root);
      record.line = line_number;
      record.seq = (guint64) json_object_get_int_member (record.object, "seq");
      record.time_us = parse_record_time (record.object);
      record.type = json_object_get_string_member (record.object, "type");
      record.text = p;
      record.text_len = length;
      if (paddock_audit_filter_matches (filter, &record) && !func (&record, user_data))
        calling = FALSE;
    }
  if (verification != NULL)
    verifier_clear (&v);
  line_file_close (&lf);
  if (local_error != NULL)
    {
      if (verification != NULL)
        paddock_audit_verification_clear (verification);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
paddock_audit_parse_time (const char  *text,
                          gint64       now_us,
                          gint64      *out_us,
                          GError     **error)
{
  g_autoptr(GTimeZone) local = g_time_zone_new_local ();
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *iso = NULL;
  char *end;
  guint64 amount;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out_us != NULL, FALSE);

  if (g_ascii_isdigit (*text))
    {
      amount = g_ascii_strtoull (text, &end, 10);
      if (end[0] != '\0' && end[1] == '\0' && strchr ("smhd", end[0]) != NULL && amount < G_MAXINT32)
        {
          gint64 unit = end[0] == 's' ? 1 : end[0] == 'm' ? 60 : end[0] == 'h' ? 3600 : 86400;

          *out_us = now_us - (gint64) amount * unit * G_USEC_PER_SEC;
          return TRUE;
        }
    }

  iso = g_strdup (text);
  g_strstrip (iso);
  /* A time of day alone ("10:54", "10:53:30.910", as attach shows one):
   * today's, in local time. */
  if (g_ascii_isdigit (iso[0]) && (iso[1] == ':' || (g_ascii_isdigit (iso[1]) && iso[2] == ':')))
    {
      g_autoptr(GDateTime) now = g_date_time_new_from_unix_local (now_us / G_USEC_PER_SEC);
      g_autofree char *today = now != NULL ? g_date_time_format (now, "%Y-%m-%d") : NULL;
      char *dated = g_strdup_printf ("%sT%s%s", today != NULL ? today : "", iso[1] == ':' ? "0" : "", iso);

      g_free (iso);
      iso = dated;
    }
  if (strlen (iso) == 10)
    {
      char *with_time = g_strconcat (iso, "T00:00:00", NULL);

      g_free (iso);
      iso = with_time;
    }
  else if (strlen (iso) > 10 && iso[10] == ' ')
    iso[10] = 'T';
  /* g_date_time_new_from_iso8601() wants seconds; allow "12:00". */
  if (strlen (iso) >= 16 && iso[10] == 'T' && iso[13] == ':' && iso[16] != ':')
    {
      char *with_seconds = g_strdup_printf ("%.16s:00%s", iso, iso + 16);

      g_free (iso);
      iso = with_seconds;
    }
  dt = g_date_time_new_from_iso8601 (iso, local);
  if (dt == NULL)
    {
      g_set_error (error, PADDOCK_AUDIT_ERROR, PADDOCK_AUDIT_ERROR_TIME,
                   "cannot read the time \"%s\": use 2026-03-01, 2026-03-01T12:00, 12:00 (today), or an age like "
                   "15m, 2h, 3d", text);
      return FALSE;
    }
  *out_us = g_date_time_to_unix (dt) * G_USEC_PER_SEC + g_date_time_get_microsecond (dt);
  return TRUE;
}

char *
paddock_audit_node_dup_string (JsonNode *node)
{
  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      g_autoptr(GString) out = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          gint64 value;

          if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_INT64)
            return NULL;
          value = json_node_get_int (element);
          if (value < 1 || value > 255)
            return NULL;
          g_string_append_c (out, (char) value);
        }
      return g_string_free (g_steal_pointer (&out), FALSE);
    }
  return NULL;
}

