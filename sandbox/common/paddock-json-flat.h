/* paddock-json-flat.h: one flat JSON object, read in one pass without a tree
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The protocol's messages are flat objects: each member a string, an
 * integer, true or false, or a list of strings. json-glib builds a tree of
 * nodes for each line, and that is most of the time a client spends on a
 * message (measured: 2.6 s of 2.8 s for 100,000 execs and their exits
 * followed through a PaddockClient); this reads such an object straight
 * into its members. It takes nothing else: a null, a fraction, an
 * exponent, a nested object, a list holding anything but strings, a name
 * given twice or a control character in a string makes it give up, and
 * the caller asks json-glib, so that what is accepted and how a refusal
 * reads stay json-glib's. What it reads is strict JSON: text it reads,
 * paddock_json_check_object_text() accepts too, so that check is needed
 * only before json-glib. Any thread; it keeps no state.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PADDOCK_JSON_FLAT_STRING,
  PADDOCK_JSON_FLAT_INTEGER,
  PADDOCK_JSON_FLAT_BOOLEAN,
  PADDOCK_JSON_FLAT_STRINGS,
  /* Never read here: for a caller that also reads json-glib's tree into
   * members, a list holding anything but strings, and any other value. */
  PADDOCK_JSON_FLAT_LIST,
  PADDOCK_JSON_FLAT_OTHER,
} PaddockJsonFlatKind;

typedef struct
{
  const char          *name;
  PaddockJsonFlatKind  kind;
  const char          *string;   /* STRING */
  gint64               integer;  /* INTEGER */
  gboolean             boolean;  /* BOOLEAN */
  const char * const  *strings;  /* STRINGS, NULL-terminated */
} PaddockJsonFlatMember;

/* The members, in the order of the text; their strings belong to it. */
typedef struct
{
  PaddockJsonFlatMember *members;
  guint                  n_members;
} PaddockJsonFlat;

/* @text (@length bytes, valid UTF-8, not NUL-terminated) as a flat
 * object, or NULL where it is anything else (then ask json-glib). */
PaddockJsonFlat *paddock_json_flat_read (const char      *text,
                                         gsize            length);
void             paddock_json_flat_free (PaddockJsonFlat *flat);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockJsonFlat, paddock_json_flat_free)

G_END_DECLS
