/* paddock-download.h: which files a run of curl or wget saves its download to, which folder a clone makes, and where an archive unpacks
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the policy's "downloaded" match: the exec monitor notes what each
 * download the agent runs will save, and a later exec of one of those
 * files (or a shell or interpreter given one as its script) can be asked
 * about, as `curl -o i.sh URL && sh i.sh` in one command already is.
 *
 * Read from the command line alone, as curl and wget would read it:
 *   curl -o FILE, --output FILE, -O / --remote-name (the URL's last
 *   path segment), --remote-name-all, --output-dir DIR;
 *   wget -O FILE, --output-document[=]FILE, -P / --directory-prefix DIR,
 *   and without -O the URL's last path segment (index.html when none).
 * Where the download goes to standard output, the exec monitor looks at
 * what that is: the file of `curl URL > i.sh`.
 * A clone of a repository from elsewhere (`git clone URL [DIR]`, with
 * git's -C; `gh repo clone REPO [DIR]`; not a local folder's) and a
 * recursive wget (-r, -m) save into a folder, named with a final '/'
 * (wget's is the one it starts in: -P, or the working directory): the
 * exec monitor counts the files written there while they ran.
 * So does an archive unpacked (tar -x, unzip) from a file that counts as
 * downloaded itself, in the folder it unpacks into (tar's -C, unzip's -d,
 * or the working directory): `curl -LO URL/t.tgz && tar xzf t.tgz &&
 * ./t/install.sh`. An archive read from standard input is not known.
 * Not known: names the server gives (curl -J, wget --content-disposition
 * pick their own), URLs read from a file
 * (curl -K, wget -i), and other downloaders. This is the supervision
 * layer's best guess, not a security boundary (DESIGN.md, "Threat model").
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* At most this many files are taken from one command line. */
#define PADDOCK_DOWNLOAD_MAX_TARGETS 64

/* Whether @name (a program's base name) is a downloader this file reads
 * (git and gh for their clones). */
gboolean   paddock_download_is_downloader (const char *name);

/* The files @argv, a run of the downloader @program (its base name, as
 * paddock_download_is_downloader() takes), saves to: absolute paths made
 * from @cwd, resolved lexically (symlinks are not followed). Standard
 * output ("-") and device files (/dev/…) are no files. NULL when there
 * are none, when @program is no downloader, or when a relative path has
 * no @cwd to start from. A folder (a clone's) ends in '/'. *@to_stdout (if not NULL) says whether a
 * download goes to standard output (curl URL, wget -O -), which the
 * shell may have sent to a file: `curl -fsSL URL > i.sh`. */
GPtrArray *paddock_download_targets       (const char * const *argv,
                                           const char         *program,
                                           const char         *cwd,
                                           gboolean           *to_stdout);

/* Whether @name (a program's base name) is an archiver this file reads:
 * tar (gtar, bsdtar) or unzip. */
gboolean   paddock_download_is_extractor  (const char *name);

/* Whether @name (a program's base name) passes what it reads from its
 * standard input on to its standard output, changed or not: a
 * decompressor (gunzip, xz, zstd, ...), cat, pv or tee. What a download
 * pipes into one and it pipes on is still the download. */
gboolean   paddock_download_is_filter     (const char *name);

/* Where @argv, a run of the archiver @program, unpacks an archive
 * into: an absolute folder from @cwd, with a final '/'; the archive, an
 * absolute path from @cwd, or "-" where tar reads it from standard input
 * (`curl URL | tar xz`), in *@archive. NULL when it unpacks nothing (a
 * listing, a test, to standard output), or would unpack into the root. */
char      *paddock_download_extract_folder (const char * const *argv,
                                            const char         *program,
                                            const char         *cwd,
                                            char              **archive);

/* The files @argv, a run of tee, writes what it reads to: absolute paths
 * from @cwd, as paddock_download_targets() makes them; NULL when none, or
 * when it writes none (--help, --version). */
GPtrArray *paddock_download_tee_targets   (const char * const *argv,
                                           const char         *cwd);

/* Whether @path is @target, or lies in it where @target is a folder (a
 * clone's, ending in '/'). Both absolute. */
gboolean   paddock_download_holds         (const char         *target,
                                           const char         *path);

G_END_DECLS
