/* paddock-audit-private.h: what the audit log's writer and its reader share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A record is one line, `{…,"hash":"<64 hex digits>"}`: the SHA-256 of
 * everything before its hash field chains it to the record before, whose
 * hash is its "prev" (sixty-four zeros for the first).
 */
#pragma once

#include "paddock-audit.h"

G_BEGIN_DECLS

#define ZERO_HASH "0000000000000000000000000000000000000000000000000000000000000000"
#define HASH_KEY ",\"hash\":\""

/* paddock-audit.c */

/* The SHA-256 of @data, in lower-case hex. */
void       paddock_audit_sha256_hex  (const char  *data,
                                      gsize        length,
                                      char         out[PADDOCK_AUDIT_HASH_LEN + 1]);

/* paddock-audit-reader.c */

/* The chain-relevant parts of one line: where its hash field starts and what it holds. */
gboolean   paddock_audit_split_line  (const char  *line,
                                      gsize        length,
                                      gsize       *prefix_length,
                                      const char **hash);
/* Whether @hash, the one a record carries, is that of its first
 * @prefix_length bytes (see paddock_audit_split_line()). */
gboolean   paddock_audit_hash_holds  (const char  *line,
                                      gsize        prefix_length,
                                      const char  *hash);
/* Reads the last line of @fd, the log at @path, into @out (without its
 * newline). */
gboolean   paddock_audit_read_last_line (int          fd,
                                         const char  *path,
                                         GString     *out,
                                         gboolean    *empty,
                                         gboolean    *ends_with_newline,
                                         GError     **error);
/* Parses one line as a record: an object whose seq, time, type and prev
 * have the right types. Returns the root node, or NULL with @why. */
JsonNode  *paddock_audit_parse_record (JsonParser  *parser,
                                       const char  *line,
                                       gsize        length,
                                       const char **why);

G_END_DECLS
