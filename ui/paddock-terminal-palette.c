/* paddock-terminal-palette.c: terminal colours that match libadwaita's light and dark styles
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-terminal-palette.h"

#define N_COLORS 16

typedef struct
{
  const char *foreground;
  const char *background;
  const char *cursor;
  const char *cursor_foreground;
  const char *colors[N_COLORS];
} Palette;

/* Drawn from the GNOME HIG colour palette; the backgrounds are libadwaita's
 * view backgrounds, so the terminal reads as part of the window. The light
 * variant darkens the colours that would wash out on white. */
static const Palette light_palette = {
  .foreground = "#2e3436",
  .background = "#ffffff",
  .cursor = "#2e3436",
  .cursor_foreground = "#ffffff",
  .colors = {
    "#241f31", "#c01c28", "#26a269", "#a2734c",
    "#1c71d8", "#813d9c", "#0e8a9b", "#c0bfbc",
    "#5e5c64", "#e01b24", "#2ec27e", "#c88800",
    "#3584e4", "#9141ac", "#1da1b4", "#f6f5f4",
  },
};

static const Palette dark_palette = {
  .foreground = "#ffffff",
  .background = "#1e1e1e",
  .cursor = "#ffffff",
  .cursor_foreground = "#1e1e1e",
  .colors = {
    "#241f31", "#e01b24", "#2ec27e", "#f5c211",
    "#3584e4", "#c061cb", "#33c7de", "#c0bfbc",
    "#5e5c64", "#f66151", "#57e389", "#f8e45c",
    "#62a0ea", "#dc8add", "#93ddc2", "#f6f5f4",
  },
};

static void
parse_color (const char *spec,
             GdkRGBA    *rgba)
{
  gboolean parsed = gdk_rgba_parse (rgba, spec);

  g_assert (parsed);
}

/**
 * paddock_terminal_palette_apply:
 * @terminal: a terminal
 * @dark: whether the app uses its dark style
 *
 * Sets @terminal's colours to Paddock's palette for the style.
 */
void
paddock_terminal_palette_apply (VteTerminal *terminal,
                                gboolean     dark)
{
  const Palette *palette = dark ? &dark_palette : &light_palette;
  GdkRGBA foreground, background, cursor, cursor_foreground;
  GdkRGBA colors[N_COLORS];

  g_return_if_fail (VTE_IS_TERMINAL (terminal));

  parse_color (palette->foreground, &foreground);
  parse_color (palette->background, &background);
  parse_color (palette->cursor, &cursor);
  parse_color (palette->cursor_foreground, &cursor_foreground);
  for (guint i = 0; i < N_COLORS; i++)
    parse_color (palette->colors[i], &colors[i]);

  vte_terminal_set_colors (terminal, &foreground, &background, colors, N_COLORS);
  vte_terminal_set_color_cursor (terminal, &cursor);
  vte_terminal_set_color_cursor_foreground (terminal, &cursor_foreground);
}
