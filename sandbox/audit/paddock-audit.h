/* paddock-audit.h: the session's tamper-evident audit log (JSON Lines, hash-chained)
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One file per session. Each record is one line, copied into a shared
 * mapping of the file (or written with one write(2) where the file cannot
 * be mapped), so a record that was appended survives kill -9 of the writer
 * (it is in the page cache; there is no fsync per record). The writer
 * reserves space ahead of its records and gives it back on close; a
 * writer that was killed leaves NUL bytes after its last record, which
 * readers and verification take as the end of the log and the next writer
 * cuts off. Truncating the file under a live writer is tampering: the
 * writer dies of SIGBUS, as if killed, and its agent's execs fail. The
 * line's key order is fixed:
 *
 *   {"seq":1,"time":"2026-03-01T12:00:00.123456Z","type":"session-start",
 *    <the caller's fields>,"prev":"000…000","hash":"<64 hex>"}
 *
 * seq counts from 1 (so an intact log has seq == line number); time is the
 * wall clock in UTC with microseconds; prev is the previous record's hash
 * (64 zeros for the first record); hash is the SHA-256, in lowercase hex, of
 * the line's bytes up to and excluding `,"hash":`. Verification recomputes
 * every hash and checks the chain, so an edited field, a deleted, inserted
 * or reordered record, or bytes cut out of the middle are reported at the
 * first line where the chain breaks. What a chain cannot show alone is a
 * log cut after its last intact record: verification reports whether the
 * log ends with a session-end record, and --journal copies of the records
 * give an anchor outside the file. Nor can it stop someone who rewrites the
 * whole file from scratch: it is evidence of tampering, not a signature.
 *
 * Strings in the caller's fields may hold any bytes. Valid UTF-8 is written
 * as a JSON string (control characters escaped); a string that is not
 * valid UTF-8 is written, as journald's JSON export does, as an array of
 * its byte values, so nothing is lost and the line stays valid JSON. Use
 * paddock_audit_node_dup_string() to read such a value back and
 * paddock_escape_for_display() before printing one to a terminal.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define PADDOCK_AUDIT_ERROR (paddock_audit_error_quark ())

typedef enum
{
  PADDOCK_AUDIT_ERROR_DAMAGED,   /* an existing log's last record cannot be continued */
  PADDOCK_AUDIT_ERROR_FAILED,    /* a write failed; the log refuses further records */
  PADDOCK_AUDIT_ERROR_TIME,      /* a time given by the user does not parse */
  PADDOCK_AUDIT_ERROR_STOPPED,   /* a record not written, as an earlier write failed */
  PADDOCK_AUDIT_ERROR_BUSY,      /* another writer has the log open */
  PADDOCK_AUDIT_ERROR_NOT_A_LOG,  /* a device or a kernel file, which no log may be */
} PaddockAuditError;

/* Record types. Callers may use others; these are the ones Paddock writes. */
#define PADDOCK_AUDIT_SESSION_START "session-start"
#define PADDOCK_AUDIT_EXEC          "exec"
#define PADDOCK_AUDIT_EXIT          "exit"
#define PADDOCK_AUDIT_DECISION      "decision"
#define PADDOCK_AUDIT_KILL          "kill"
#define PADDOCK_AUDIT_PAUSE         "pause"
#define PADDOCK_AUDIT_RESUME        "resume"
#define PADDOCK_AUDIT_NET           "net"
#define PADDOCK_AUDIT_SECRET        "secret"
#define PADDOCK_AUDIT_HOME          "home"    /* a home message's fields, as the message has them */
#define PADDOCK_AUDIT_POLICY        "policy"
#define PADDOCK_AUDIT_SESSION_END   "session-end"

#define PADDOCK_AUDIT_HASH_LEN 64  /* hex digits of a SHA-256 */

typedef struct _PaddockAudit PaddockAudit;

GQuark        paddock_audit_error_quark        (void);

/* $XDG_STATE_HOME/paddock/session-YYYYMMDD-HHMMSS-SESSION_ID.jsonl (local
 * time), creating the directory with mode 0700 (and tightening an existing
 * one that is wider). @session_id must be a non-empty single path component. */
char         *paddock_audit_default_path       (const char    *session_id,
                                                GError       **error);

/* Opens @path for appending, creating it with mode 0600 (never through a
 * symlink). An existing log is continued: its last record's seq and hash
 * seed the chain. Fails with PADDOCK_AUDIT_ERROR_DAMAGED when that last
 * record is not a complete, well-formed record (run verify to see why).
 * A log is a file, a pipe, a terminal, /dev/null or /dev/full: other
 * devices (a disk, /dev/kmsg, /dev/mem) and the kernel's own files (in
 * /proc, /sys, cgroup and debugging file systems) fail with
 * PADDOCK_AUDIT_ERROR_NOT_A_LOG, devices before they are opened. */
PaddockAudit *paddock_audit_open               (const char    *path,
                                                GError       **error);
/* Closes the file; records already appended are on disk (page cache). */
void          paddock_audit_close              (PaddockAudit  *self);
const char   *paddock_audit_get_path           (PaddockAudit  *self);

#define PADDOCK_AUDIT_JOURNAL_SOCKET "/run/systemd/journal/socket"

/* Also send each record to the systemd journal (structured fields
 * PADDOCK_SEQ, PADDOCK_TYPE, PADDOCK_HASH, PADDOCK_RECORD, MESSAGE,
 * SYSLOG_IDENTIFIER) when a journal is there; off by default. Never
 * waits for the journal: an entry it cannot take at once is not sent
 * (the log has it), and counted. */
void          paddock_audit_set_journal        (PaddockAudit  *self,
                                                gboolean       journal);
/* Records the journal did not take (not there, or not keeping up). */
guint64       paddock_audit_get_n_unjournaled  (PaddockAudit  *self);

/* Appends one record of @type with @fields (may be NULL; not modified, not
 * taken; keys "seq", "time", "type", "prev", "hash" are refused).
 * Thread-safe: records from concurrent callers are serialized, and seq
 * order is file order. Sets *@out_seq to the record's seq if not NULL.
 * On a failed write the log marks itself failed and refuses later records. */
gboolean      paddock_audit_append             (PaddockAudit  *self,
                                                const char    *type,
                                                JsonObject    *fields,
                                                guint64       *out_seq,
                                                GError       **error);
/* The same for a hot path that serializes its fields itself: @members is
 * what paddock_audit_append() would write for them, each member preceded
 * by a comma (",\"event\":7,\"path\":\"/bin/true\""), its strings written
 * with paddock_audit_append_json_string() and no reserved key among them.
 * @length 0 for none. */
gboolean      paddock_audit_append_members     (PaddockAudit  *self,
                                                const char    *type,
                                                const char    *members,
                                                gsize          length,
                                                guint64       *out_seq,
                                                GError       **error);
/* Appends @length bytes of @str (-1: up to its NUL) to @out as the log
 * writes a string: a JSON string, or the array of its byte values when it
 * is not valid UTF-8 (see above). */
void          paddock_audit_append_json_string (GString       *out,
                                                const char    *str,
                                                gssize         length);
/* Makes the file's next page ready for the records that will reach it
 * (where they go through a shared mapping, the first write to a page costs
 * a page fault): for a writer to call between records, off its hot path. */
void          paddock_audit_prefault           (PaddockAudit  *self);
/* The seq of the last record written (0 for an empty log). */
guint64       paddock_audit_get_last_seq       (PaddockAudit  *self);
/* The hash of the last record written (64 zeros for an empty log); copy it
 * into the session-end message or the journal as an anchor. */
void          paddock_audit_get_last_hash      (PaddockAudit  *self,
                                                char           out_hash[PADDOCK_AUDIT_HASH_LEN + 1]);
/* How many records were not written, the one whose write failed included. */
guint64       paddock_audit_get_n_lost         (PaddockAudit  *self);
/* Says an append's @error on stderr, as "PRGNAME: audit log: …"; quiet for
 * PADDOCK_AUDIT_ERROR_STOPPED, as the failure was said when it came. */
void          paddock_audit_print_error        (const GError  *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockAudit, paddock_audit_close)

/* Verification. */
typedef struct
{
  guint64   n_records;    /* intact records before the break (all of them when intact) */
  guint64   bad_line;     /* 1-based line of the first break, 0 when the chain holds */
  char     *reason;       /* why it breaks there, NULL when it holds */
  gboolean  ended;        /* the last intact record is a session-end */
  char      last_hash[PADDOCK_AUDIT_HASH_LEN + 1];  /* of the last intact record */
} PaddockAuditVerification;

void          paddock_audit_verification_clear (PaddockAuditVerification *result);
/* Returns FALSE with @error only when the file cannot be read; a broken
 * chain is reported in @result (bad_line != 0), e.g. bad_line 7, reason
 * "the record's hash does not match its content (edited)". */
gboolean      paddock_audit_verify_file        (const char    *path,
                                                PaddockAuditVerification *result,
                                                GError       **error);
void          paddock_audit_verify_data        (const char    *data,
                                                gsize          length,
                                                PaddockAuditVerification *result);

/* Reading. */
typedef struct
{
  guint64      line;       /* 1-based */
  guint64      seq;
  gint64       time_us;    /* µs since the Unix epoch, UTC */
  const char  *type;
  JsonObject  *object;     /* the whole record, borrowed */
  const char  *text;       /* the line without its newline, borrowed */
  gsize        text_len;
} PaddockAuditRecord;

typedef struct
{
  gint64       since_us;   /* records at or after this time; 0 for all */
  const char  *decision;   /* records whose "decision" field equals this; NULL for all */
  const char  *type;       /* records of this type; NULL for all */
  GRegex      *grep;       /* records whose line (the JSON text) or command line
                           * (argv as `audit show` prints it) matches; NULL for all */
} PaddockAuditFilter;

/* Return FALSE to stop. */
typedef gboolean (*PaddockAuditRecordFunc) (const PaddockAuditRecord *record,
                                            gpointer                  user_data);

/* Whether @record passes @filter (NULL passes all). */
gboolean      paddock_audit_filter_matches     (const PaddockAuditFilter *filter,
                                                const PaddockAuditRecord *record);

/* Calls @func for each record of @path that passes @filter (NULL: all), in
 * file order. Lines that do not parse as a JSON object are skipped. Where
 * @verification is given, the lines are checked against the chain as
 * they are read: what @func saw is what was verified, even if the file
 * changes meanwhile, and a pipe is verified too. Once @func returns FALSE
 * (or where it is NULL) the rest is read only to verify it. */
gboolean      paddock_audit_foreach            (const char               *path,
                                                const PaddockAuditFilter *filter,
                                                PaddockAuditRecordFunc    func,
                                                gpointer                  user_data,
                                                PaddockAuditVerification *verification,
                                                GError                  **error);

/* Parses a user's time for --since: ISO 8601 ("2026-03-01T12:00",
 * "2026-03-01 12:00:00", local time unless a zone is given), a date
 * ("2026-03-01", local midnight), or an age ago from @now_us: "90s",
 * "15m", "2h", "3d". */
gboolean      paddock_audit_parse_time         (const char    *text,
                                                gint64         now_us,
                                                gint64        *out_us,
                                                GError       **error);

/* A record's string value back as the bytes that were given: a JSON string
 * as is, an array of byte values (invalid UTF-8, see above) reassembled.
 * NULL when @node is neither. */
char         *paddock_audit_node_dup_string    (JsonNode      *node);

/* The array @member of a record (an exec's "argv", a session start's
 * "command") as `paddockctl audit show` prints it: each element escaped
 * for display, joined by spaces. NULL when @member is not an array. */
char         *paddock_audit_dup_command_line   (JsonObject    *object,
                                                const char    *member);

/* An exec record's command line as paddock_exec_display_line() shows it,
 * from its "path", "exe", "interpreter", "pipeline" and "argv"; "" without an argv. */
char         *paddock_audit_dup_exec_line      (JsonObject    *object);

G_END_DECLS
