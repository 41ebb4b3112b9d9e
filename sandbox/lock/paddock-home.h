/* paddock-home.h: which entries of the home folder a locked agent reads unasked, never, or asks for
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under the lock the home folder is closed except what the agent's work
 * needs. Each entry is one of three kinds:
 *
 *   open    bound read-only at full speed: shell start-up files, git's
 *           settings, toolchains and SDKs; and the agent profile's own
 *           state, writable as the profile says;
 *   closed  covered empty: credential stores, Paddock's own settings;
 *   asked   everything else: its first read is held and asked about, like
 *           a command, and served by the supervisor's home view once
 *           allowed (sandbox/supervisor/paddock-home-view.h).
 *
 * An entry is a name at the top of the home folder, or one folder below a
 * split folder (~/.config, ~/.local/share, ~/.var/app, and the folders on
 * the way to them, ~/.local and ~/.var): the unit that is asked about,
 * one ask per entry, not per file. Which kind each entry is comes from
 * data: the shipped list (home.conf in the lock's resources), the user's
 * own ($XDG_CONFIG_HOME/paddock/home.conf, and deny.conf for closed
 * paths), and each project's choices (its "home" settings, which "Allow in
 * This Project" writes), the most specific rule winning, a project's over
 * the user's over the shipped ones. A closed rule may name a path below an
 * entry (~/.m2/settings-security.xml): it is covered whatever the entry's
 * kind. Built once per session in the parent, before the lock's child is
 * made; read by any thread after that.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  PADDOCK_HOME_OPEN,
  PADDOCK_HOME_CLOSED,
  PADDOCK_HOME_ASKED,
} PaddockHomeKind;

typedef struct _PaddockHome PaddockHome;

/* Reads the lists for @home (canonical) and @project (canonical, or NULL:
 * none of a project's choices). A line of the user's file that cannot be
 * understood is an error naming the file, its line and why; so are a
 * project's settings that do not read. */
PaddockHome     *paddock_home_new               (const char    *home,
                                                 const char    *project,
                                                 GError       **error);
/* The shipped rules and @text (@length bytes), read as the user's
 * home.conf and named @source in errors; no file is read: for the tests
 * and the fuzz target. */
PaddockHome     *paddock_home_new_for_text      (const char    *home,
                                                 const char    *source,
                                                 const char    *text,
                                                 gsize          length,
                                                 GError       **error);
void             paddock_home_free              (PaddockHome   *self);
const char      *paddock_home_get_path          (PaddockHome   *self);

/* The kind of @path (canonical, within the home folder, or the home
 * folder itself, which is never asked about): a path within an entry has
 * its entry's kind, unless a closed rule names it or a folder holding it,
 * or a more specific open or asked rule does (~/.cargo/bin in the asked
 * ~/.cargo). A split folder itself is open: it is listed, never asked
 * about. */
PaddockHomeKind  paddock_home_classify          (PaddockHome   *self,
                                                 const char    *path);
/* Whether @path (canonical) is a split folder: the home folder, ~/.config,
 * ~/.local, ~/.local/share, ~/.var, ~/.var/app, whose entries are kinds of
 * their own. */
gboolean         paddock_home_is_split          (PaddockHome   *self,
                                                 const char    *path);
/* The entry @path lies in or is (a newly allocated canonical path), or
 * NULL where @path is outside the home folder or a split folder itself. */
char            *paddock_home_find_entry        (PaddockHome   *self,
                                                 const char    *path);

/* What the lock popover, --explain and lock-status show: the rules of
 * @kind as canonical paths, sorted; a split folder whose every entry
 * without a rule of its own has @kind ends in "/" (asked: "~/.config/"). */
char           **paddock_home_list              (PaddockHome   *self,
                                                 PaddockHomeKind kind);

/* The closed paths for @home (canonical) without a project's: the
 * shipped ones, deny.conf's and the user's home.conf's, or where that
 * file has an error (which paddock_home_new() reports), the others
 * still. What every lock keeps from the agent, sorted. */
char           **paddock_home_list_closed_anyway (const char   *home);

/* "Allow in This Project": @entry (canonical) becomes open in @project's
 * settings, kept outside the project, for its next sessions. */
gboolean         paddock_home_allow_in_project  (const char    *project,
                                                 const char    *entry,
                                                 GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockHome, paddock_home_free)

G_END_DECLS
