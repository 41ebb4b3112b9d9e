/* paddock-terminal-palette.h: terminal colours that match libadwaita's light and dark styles
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <vte/vte.h>

G_BEGIN_DECLS

void paddock_terminal_palette_apply (VteTerminal *terminal,
                                     gboolean     dark);

G_END_DECLS
