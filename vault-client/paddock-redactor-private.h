/* paddock-redactor-private.h: what the redactor's files, its tests and its
 * fuzz target share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-redactor.h"

G_BEGIN_DECLS

/* The forms of @value that output may show it in (see paddock-redactor.h),
 * each a GByteArray of at least PADDOCK_REDACTOR_MIN_VALUE bytes, the value
 * itself first, none twice. Freeing the array wipes them. */
GPtrArray *paddock_redactor_forms_new    (const guint8 *value,
                                          gsize         len);

/* Fills a GByteArray's bytes with zeros, then unrefs it; NULL is ignored. */
void       paddock_redactor_wipe_bytes   (gpointer      byte_array);

/* The forms the redactor matches, in the order of registration, each form
 * once (under the first secret that has it): the @index-th form's bytes,
 * its length and its secret's name. Returns FALSE past the last. */
gboolean   paddock_redactor_get_form     (PaddockRedactor *self,
                                          guint            index,
                                          const guint8   **bytes,
                                          gsize           *len,
                                          const char     **name);

G_END_DECLS
