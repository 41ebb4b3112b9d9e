/* paddock-download.c: which files a run of curl or wget saves its download to, and which folder a clone makes
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both programs are read the same way: short options, alone or in a
 * cluster (`-fsSLo FILE`, `-qO-`), whose value is the rest of the cluster
 * or the next word; long options, with their value after '=' or in the
 * next word; and the other words, the URLs. An option's value is never
 * taken for a URL where this file knows the option takes one; where it
 * does not, a value may count as a URL, which can only name one more file.
 */
#include "config.h"

#include "paddock-download.h"
#include "paddock-path.h"

#include <string.h>

typedef enum
{
  DOWNLOADER_CURL,
  DOWNLOADER_WGET,
} Downloader;

/* An output that names no file of its own: the URL's last segment. */
static const char remote_name[] = "";

typedef struct
{
  Downloader  downloader;
  GPtrArray  *urls;             /* borrowed */
  GPtrArray  *outputs;          /* borrowed: a file, or remote_name */
  const char *dir;              /* curl --output-dir, wget -P */
  const char *document;         /* wget -O */
  gboolean    remote_name_all;  /* curl */
  gboolean    recursive;        /* wget -r, -m: files land under the host's name, or not */
  gboolean    server_names;     /* curl -J, wget --content-disposition: the server may name the file */
} Command;

/* Short options that take a value, and long ones that take it in the next
 * word when no '=' gives it. */
static const char curl_valued[] = "AbcCdDeEFHKmoPQrtTuUwxXyYz";
static const char * const curl_valued_long[] = {
  "abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers",
  "config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode",
  "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "dns-servers", "doh-url",
  "dump-header", "etag-compare", "etag-save", "expect100-timeout", "form", "form-string", "header",
  "hsts", "interface", "json", "keepalive-time", "key", "key-type", "limit-rate", "local-port",
  "max-filesize", "max-redirs", "max-time", "netrc-file", "noproxy", "oauth2-bearer", "output",
  "output-dir", "pass", "pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir", "proxy",
  "proxy-header", "proxy-user", "quote", "range", "rate", "referer", "request", "request-target",
  "resolve", "retry", "retry-delay", "retry-max-time", "speed-limit", "speed-time", "stderr",
  "time-cond", "trace", "trace-ascii", "unix-socket", "upload-file", "url", "url-query", "user",
  "user-agent", "variable", "write-out", NULL,
};
static const char wget_valued[] = "aABDeiIlOoPQRtTUwX";
static const char * const wget_valued_long[] = {
  "accept", "append-output", "base", "bind-address", "body-data", "ca-certificate", "certificate",
  "connect-timeout", "cut-dirs", "default-page", "directory-prefix", "dns-timeout", "domains",
  "exclude-directories", "execute", "header", "http-password", "http-user", "include-directories",
  "input-file", "level", "limit-rate", "load-cookies", "method", "output-document", "output-file",
  "password", "post-data", "post-file", "private-key", "progress", "proxy-password", "proxy-user",
  "quota", "read-timeout", "referer", "reject", "restrict-file-names", "save-cookies",
  "secure-protocol", "timeout", "tries", "user", "user-agent", "wait", "waitretry", NULL,
};

/* git's options before its command, and clone's, that take a value in
 * the next word when no '=' gives it; clone's short ones. */
static const char * const git_valued[] = {
  "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env",
  "--attr-source", NULL,
};
static const char git_clone_valued[] = "obujc";
static const char * const git_clone_valued_long[] = {
  "origin", "branch", "upload-pack", "reference", "reference-if-able", "separate-git-dir", "depth",
  "shallow-since", "shallow-exclude", "jobs", "template", "config", "filter", "server-option",
  "bundle-uri", "ref-format", "revision", NULL,
};
static const char * const gh_clone_valued_long[] = { "upstream-remote-name", NULL };

gboolean
paddock_download_is_downloader (const char *name)
{
  return name != NULL && (strcmp (name, "curl") == 0 || strcmp (name, "wget") == 0 ||
                          strcmp (name, "wget2") == 0 || strcmp (name, "git") == 0 ||
                          strcmp (name, "gh") == 0);
}

/* The value of the short option at @c in the word argv[*@i]: the rest of
 * the word, or else the next word, which *@i then steps over. */
static const char *
cluster_value (const char * const *argv,
               guint              *i,
               const char         *c)
{
  if (c[1] != '\0')
    return c + 1;
  if (argv[*i + 1] == NULL)
    return NULL;
  return argv[++*i];
}

/* The name of the long option argv[*@i] ("--NAME[=VALUE]"), and in @value
 * its value: after '=', or, for one of @valued_long, the next word, which
 * *@i then steps over; else NULL. */
static char *
long_option (const char * const *argv,
             guint              *i,
             const char * const *valued_long,
             const char        **value)
{
  const char *arg = argv[*i];
  const char *equals = strchr (arg, '=');
  char *name = g_strndup (arg + 2, equals != NULL ? (gsize) (equals - arg - 2) : strlen (arg + 2));

  *value = equals != NULL ? equals + 1 : NULL;
  if (equals == NULL && g_strv_contains (valued_long, name) && argv[*i + 1] != NULL)
    *value = argv[++*i];
  return name;
}

/* One option, short (@letter) or long (@name), with its @value or NULL. */
static void
take_option (Command    *command,
             char        letter,
             const char *name,
             const char *value)
{
#define IS(short_letter, long_name) \
  ((letter != '\0' && letter == (short_letter)) || (name != NULL && strcmp (name, long_name) == 0))

  if (command->downloader == DOWNLOADER_CURL)
    {
      if (IS ('o', "output") && value != NULL)
        g_ptr_array_add (command->outputs, (gpointer) value);
      else if (IS ('O', "remote-name"))
        g_ptr_array_add (command->outputs, (gpointer) remote_name);
      else if (IS ('\0', "remote-name-all"))
        command->remote_name_all = TRUE;
      else if (IS ('\0', "no-remote-name-all"))
        command->remote_name_all = FALSE;
      else if (IS ('\0', "output-dir") && value != NULL)
        command->dir = value;
      else if (IS ('\0', "url") && value != NULL)
        g_ptr_array_add (command->urls, (gpointer) value);
      else if (IS ('J', "remote-header-name"))
        command->server_names = TRUE;
      else if (IS ('\0', "no-remote-header-name"))
        command->server_names = FALSE;
    }
  else
    {
      if (IS ('O', "output-document") && value != NULL)
        command->document = value;
      else if (IS ('P', "directory-prefix") && value != NULL)
        command->dir = value;
      else if (IS ('r', "recursive") || IS ('m', "mirror"))
        command->recursive = TRUE;
      else if (IS ('\0', "content-disposition") || IS ('\0', "trust-server-names"))
        command->server_names = TRUE;
      else if (IS ('\0', "no-content-disposition") || IS ('\0', "no-trust-server-names"))
        command->server_names = FALSE;
    }
#undef IS
}

/* Reads @argv into @command. */
static void
read_command (Command            *command,
              const char * const *argv)
{
  gboolean curl = command->downloader == DOWNLOADER_CURL;
  const char *valued = curl ? curl_valued : wget_valued;
  const char * const *valued_long = curl ? curl_valued_long : wget_valued_long;

  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        {
          for (i++; argv[i] != NULL; i++)
            g_ptr_array_add (command->urls, (gpointer) argv[i]);
          break;
        }
      if (g_str_has_prefix (arg, "--"))
        {
          const char *value;
          g_autofree char *name = long_option (argv, &i, valued_long, &value);

          take_option (command, '\0', name, value);
          continue;
        }
      if (arg[0] == '-' && arg[1] != '\0')
        {
          for (const char *c = arg + 1; *c != '\0'; c++)
            {
              /* wget's -nv, -nd, -nH, -np: one option, the rest its value. */
              if (!curl && *c == 'n')
                break;
              if (strchr (valued, *c) != NULL)
                {
                  take_option (command, *c, NULL, cluster_value (argv, &i, c));
                  break;
                }
              take_option (command, *c, NULL, NULL);
            }
          continue;
        }
      g_ptr_array_add (command->urls, (gpointer) arg);
    }
}

/* The last segment of @url's path, without its query or fragment; "" when
 * it has none (`https://example.com/`, `https://example.com`). */
static char *
url_file_name (const char *url)
{
  const char *scheme = strstr (url, "://");
  const char *path;
  const char *end;
  const char *slash;

  path = strchr (scheme != NULL ? scheme + 3 : url, '/');
  if (path == NULL)
    return g_strdup ("");
  end = path + strcspn (path, "?#");
  slash = path;
  for (const char *c = path; c < end; c++)
    if (*c == '/')
      slash = c;
  return g_strndup (slash + 1, (gsize) (end - slash - 1));
}

/* Adds @name, in @dir if it is relative there, as an absolute path from
 * @cwd; not standard output, nor a device, nor a path with no start. */
static void
add_target (GPtrArray  *targets,
            const char *dir,
            const char *name,
            const char *cwd)
{
  g_autofree char *joined = NULL;
  char *path;

  if (name[0] == '\0' || strcmp (name, "-") == 0 || targets->len >= PADDOCK_DOWNLOAD_MAX_TARGETS)
    return;
  if (dir != NULL && dir[0] != '\0' && !g_path_is_absolute (name))
    name = joined = g_build_filename (dir, name, NULL);
  path = paddock_path_resolve (name, cwd);
  if (path == NULL)
    return;
  /* Nor a folder (`-o /`, `-o dir/`): no file is saved there, and a
   * final '/' names a clone's folder. */
  if (g_str_has_suffix (name, "/") || g_str_has_suffix (path, "/") || g_str_has_prefix (path, "/dev/") ||
      g_ptr_array_find_with_equal_func (targets, path, g_str_equal, NULL))
    {
      g_free (path);
      return;
    }
  g_ptr_array_add (targets, path);
}

/* Adds the file a download of @url is named after, its last segment (or
 * @fallback where it has none), as add_target() does. */
static void
add_url_target (GPtrArray  *targets,
                const char *dir,
                const char *url,
                const char *fallback,
                const char *cwd)
{
  g_autofree char *name = url_file_name (url);

  add_target (targets, dir, name[0] != '\0' ? name : fallback, cwd);
}

/* Adds the folder @name, as an absolute path from @cwd with a final '/':
 * a clone's, or a recursive download's. Never the root ("/", or "//" as
 * POSIX lets it stay), nor /dev or a folder in it, whose files are
 * devices, as add_target() does not take them. */
static void
add_folder_target (GPtrArray  *targets,
                   const char *name,
                   const char *cwd)
{
  g_autofree char *folder = paddock_path_resolve (name, cwd);

  if (folder != NULL && !g_str_has_suffix (folder, "/") && strcmp (folder, "/dev") != 0 &&
      !g_str_has_prefix (folder, "/dev/"))
    g_ptr_array_add (targets, g_strconcat (folder, "/", NULL));
}

/* Whether @repo, what a clone is given, is fetched from elsewhere: a URL
 * (not file://) or the `[user@]host:path` form, a ':' before any '/'.
 * A local folder's clone holds nothing new. */
static gboolean
is_remote_repository (const char *repo)
{
  const char *colon = strchr (repo, ':');
  const char *slash = strchr (repo, '/');

  if (strstr (repo, "://") != NULL)
    return !g_str_has_prefix (repo, "file://");
  return colon != NULL && colon != repo && (slash == NULL || colon < slash);
}

/* The folder git names a clone of @repo after: its last path segment
 * (after a '/' or ':'), without trailing slashes, "/.git" or ".git";
 * ".git" added for a bare clone. NULL when nothing is left. */
static char *
clone_folder_name (const char *repo,
                   gboolean    bare)
{
  g_autofree char *name = g_strdup (repo);
  gsize len = strlen (name);
  const char *start;

  while (len > 0 && (name[len - 1] == '/' || g_ascii_isspace (name[len - 1])))
    name[--len] = '\0';
  if (g_str_has_suffix (name, "/.git"))
    name[len -= 5] = '\0';
  while (len > 0 && name[len - 1] == '/')
    name[--len] = '\0';
  if (g_str_has_suffix (name, ".git"))
    name[len -= 4] = '\0';
  start = MAX (strrchr (name, '/'), strrchr (name, ':'));
  start = start != NULL ? start + 1 : name;
  if (*start == '\0' || strcmp (start, ".") == 0 || strcmp (start, "..") == 0)
    return NULL;
  return bare ? g_strconcat (start, ".git", NULL) : g_strdup (start);
}

/* Steps *@i over the value of the option argv[*@i], where it takes one in
 * the next word. */
static void
skip_value (const char * const *argv,
            guint              *i,
            const char * const *valued_long,
            const char         *valued)
{
  const char *arg = argv[*i];
  const char *value;

  if (g_str_has_prefix (arg, "--"))
    {
      g_free (long_option (argv, i, valued_long, &value));
      return;
    }
  /* A cluster: the first option that takes a value takes the rest, or the next word. */
  for (const char *c = arg + 1; *c != '\0'; c++)
    if (strchr (valued, *c) != NULL)
      {
        cluster_value (argv, i, c);
        return;
      }
}

/* The folder `git clone` (argv[@i] is "clone") or `gh repo clone` (@gh,
 * argv[@i] is "clone") makes in @cwd, added to @targets with a final '/'. */
static void
add_clone_target (GPtrArray          *targets,
                  const char * const *argv,
                  guint               i,
                  gboolean            gh,
                  const char         *cwd)
{
  const char *positional[2] = { NULL, NULL };
  guint n_positional = 0;
  gboolean bare = FALSE;
  g_autofree char *name = NULL;

  for (i++; argv[i] != NULL && n_positional < 2; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        {
          /* gh passes what follows on to git. */
          if (gh)
            break;
          for (i++; argv[i] != NULL && n_positional < 2; i++)
            positional[n_positional++] = argv[i];
          break;
        }
      if (arg[0] == '-' && arg[1] != '\0')
        {
          bare |= strcmp (arg, "--bare") == 0 || strcmp (arg, "--mirror") == 0;
          if (gh)
            skip_value (argv, &i, gh_clone_valued_long, "u");
          else
            skip_value (argv, &i, git_clone_valued_long, git_clone_valued);
          continue;
        }
      positional[n_positional++] = arg;
    }
  if (positional[0] == NULL || (!gh && !is_remote_repository (positional[0])))
    return;
  name = positional[1] != NULL ? g_strdup (positional[1]) : clone_folder_name (positional[0], bare);
  if (name != NULL)
    add_folder_target (targets, name, cwd);
}

/* A run of git or gh: the folder it clones into, if it clones. */
static GPtrArray *
clone_targets (const char * const *argv,
               const char         *program,
               const char         *cwd)
{
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *moved = NULL;
  guint i = 1;

  if (strcmp (program, "gh") == 0)
    {
      if (argv[1] != NULL && strcmp (argv[1], "repo") == 0 && argv[2] != NULL && strcmp (argv[2], "clone") == 0)
        add_clone_target (targets, argv, 2, TRUE, cwd);
      return targets->len > 0 ? g_steal_pointer (&targets) : NULL;
    }
  /* git's own options, up to its command; -C moves where it starts. */
  for (; argv[i] != NULL && argv[i][0] == '-'; i++)
    {
      if (strcmp (argv[i], "-C") == 0 && argv[i + 1] != NULL)
        {
          char *next = paddock_path_resolve (argv[i + 1], cwd);

          if (next == NULL)
            return NULL;
          g_free (moved);
          cwd = moved = next;
        }
      if (g_strv_contains (git_valued, argv[i]) && argv[i + 1] != NULL)
        i++;
    }
  if (argv[i] != NULL && strcmp (argv[i], "clone") == 0)
    add_clone_target (targets, argv, i, FALSE, cwd);
  return targets->len > 0 ? g_steal_pointer (&targets) : NULL;
}

GPtrArray *
paddock_download_targets (const char * const *argv,
                          const char         *program,
                          const char         *cwd,
                          gboolean           *to_stdout)
{
  g_autoptr(GPtrArray) urls = g_ptr_array_new ();
  g_autoptr(GPtrArray) outputs = g_ptr_array_new ();
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func (g_free);
  Command command = { .urls = urls, .outputs = outputs };
  gboolean stdout_used = FALSE;

  g_return_val_if_fail (argv != NULL, NULL);

  if (to_stdout != NULL)
    *to_stdout = FALSE;
  if (!paddock_download_is_downloader (program) || argv[0] == NULL)
    return NULL;
  if (strcmp (program, "git") == 0 || strcmp (program, "gh") == 0)
    return clone_targets (argv, program, cwd);
  command.downloader = strcmp (program, "curl") == 0 ? DOWNLOADER_CURL : DOWNLOADER_WGET;
  read_command (&command, argv);

  if (command.downloader == DOWNLOADER_CURL)
    {
      gboolean url_named = FALSE;

      /* Each output is the next URL's, in order, wherever it stands. */
      for (guint i = 0; i < outputs->len; i++)
        {
          const char *output = g_ptr_array_index (outputs, i);

          if (output != remote_name)
            {
              stdout_used |= strcmp (output, "-") == 0 && i < urls->len;
              add_target (targets, command.dir, output, cwd);
            }
          else if (i < urls->len)
            {
              add_url_target (targets, command.dir, g_ptr_array_index (urls, i), "", cwd);
              url_named = TRUE;
            }
        }
      for (guint i = outputs->len; command.remote_name_all && i < urls->len; i++)
        {
          add_url_target (targets, command.dir, g_ptr_array_index (urls, i), "", cwd);
          url_named = TRUE;
        }
      /* -J: a name the server sends instead, any name, in the same
       * folder: every file written there while curl runs, as a
       * clone's. */
      if (command.server_names && url_named)
        add_folder_target (targets, command.dir != NULL ? command.dir : ".", cwd);
      /* A URL with no output of its own goes to standard output. */
      stdout_used |= !command.remote_name_all && outputs->len < urls->len;
    }
  else if (command.document != NULL)
    {
      stdout_used = strcmp (command.document, "-") == 0 && urls->len > 0;
      add_target (targets, NULL, command.document, cwd);
    }
  else if (!command.recursive && !command.server_names)
    for (guint i = 0; i < urls->len; i++)
      add_url_target (targets, command.dir, g_ptr_array_index (urls, i), "index.html", cwd);
  /* Under the host's name, or not (-nH, -nd), or named by the server
   * (--content-disposition, or the last URL a redirect led to): the
   * folder it starts in, as a clone's, whose files written meanwhile
   * are its. */
  else if (urls->len > 0)
    add_folder_target (targets, command.dir != NULL ? command.dir : ".", cwd);

  if (to_stdout != NULL)
    *to_stdout = stdout_used;
  if (targets->len == 0)
    return NULL;
  return g_steal_pointer (&targets);
}

/* tar's (GNU tar's and bsdtar's) options that take a value: short ones,
 * in a cluster or in the old style's first word, and long ones, in the
 * next word when no '=' gives it. */
static const char tar_valued[] = "bCfFgHIKLNTVX";
static const char * const tar_valued_long[] = {
  "after-date", "blocking-factor", "directory", "exclude", "exclude-from", "exclude-tag",
  "exclude-tag-all", "exclude-tag-under", "file", "files-from", "format", "group", "group-map",
  "hole-detection", "index-file", "info-script", "label", "listed-incremental", "mode", "mtime",
  "new-volume-script", "newer", "newer-mtime", "owner", "owner-map", "pax-option", "quoting-style",
  "record-size", "rmt-command", "rsh-command", "sparse-version", "starting-file", "strip-components",
  "suffix", "tape-length", "to-command", "transform", "use-compress-program", "volno-file", "xform",
  "options", NULL,
};
/* 7-Zip's programs: p7zip's (Debian 12's p7zip-full) and 7-Zip's own. */
static gboolean
is_7zip (const char *name)
{
  return strcmp (name, "7z") == 0 || strcmp (name, "7za") == 0 || strcmp (name, "7zr") == 0 ||
         strcmp (name, "7zz") == 0;
}

/* unzip's options that take a value (Debian's has -I and -O). */
static const char unzip_valued[] = "dIOP";

gboolean
paddock_download_is_extractor (const char *name)
{
  return name != NULL && (strcmp (name, "tar") == 0 || strcmp (name, "bsdtar") == 0 ||
                          strcmp (name, "gtar") == 0 || strcmp (name, "unzip") == 0 || is_7zip (name));
}

gboolean
paddock_download_is_filter (const char *name)
{
  static const char * const filters[] = {
    "gzip", "gunzip", "zcat", "pigz", "unpigz", "xz", "unxz", "xzcat", "lzma", "unlzma", "lzcat",
    "bzip2", "bunzip2", "bzcat", "lbzip2", "pbzip2", "zstd", "unzstd", "zstdcat", "lz4", "lz4cat",
    "brotli", "cat", "pv", "tee", NULL,
  };

  return name != NULL && g_strv_contains (filters, name);
}

typedef struct
{
  const char *archive;    /* -f, or NULL: standard input (Debian's tar's default) */
  char       *folder;     /* where it extracts, from -C (each from the last), absolute */
  gboolean    extracts;
  gboolean    failed;     /* a -C with no start */
} TarCommand;

/* One tar option, short (@letter) or long (@name), with its @value. */
static void
take_tar_option (TarCommand *command,
                 char        letter,
                 const char *name,
                 const char *value)
{
  if (letter == 'x' || g_strcmp0 (name, "extract") == 0 || g_strcmp0 (name, "get") == 0)
    command->extracts = TRUE;
  else if ((letter == 'f' || g_strcmp0 (name, "file") == 0) && value != NULL)
    command->archive = value;
  else if ((letter == 'C' || g_strcmp0 (name, "directory") == 0) && value != NULL)
    {
      char *next = paddock_path_resolve (value, command->folder);

      command->failed |= next == NULL;
      g_free (command->folder);
      command->folder = next;
    }
}

/* The old style's first word (`tar xzf FILE -C DIR`): letters, whose
 * values are the next words, in turn. Returns the index of the word after
 * the values. */
static guint
read_tar_letters (TarCommand         *command,
                  const char * const *argv)
{
  guint next = 2;

  for (const char *c = argv[1]; *c != '\0'; c++)
    {
      const char *value = NULL;

      if (strchr (tar_valued, *c) != NULL && argv[next] != NULL)
        value = argv[next++];
      take_tar_option (command, *c, NULL, value);
      if (command->folder == NULL)
        return next;
    }
  return next;
}

static char *
tar_folder (const char * const *argv,
            const char         *cwd,
            const char        **archive)
{
  TarCommand command = { .folder = g_strdup (cwd) };
  guint i = 1;

  if (argv[1] != NULL && argv[1][0] != '-')
    i = read_tar_letters (&command, argv);
  for (; argv[i] != NULL && command.folder != NULL; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--") == 0)
        break;
      if (g_str_has_prefix (arg, "--"))
        {
          const char *value;
          g_autofree char *name = long_option (argv, &i, tar_valued_long, &value);

          take_tar_option (&command, '\0', name, value);
          continue;
        }
      if (arg[0] != '-' || arg[1] == '\0')
        continue;
      for (const char *c = arg + 1; *c != '\0'; c++)
        {
          if (strchr (tar_valued, *c) != NULL)
            {
              take_tar_option (&command, *c, NULL, cluster_value (argv, &i, c));
              break;
            }
          take_tar_option (&command, *c, NULL, NULL);
        }
    }
  if (!command.extracts || command.failed)
    {
      g_free (command.folder);
      return NULL;
    }
  *archive = command.archive != NULL ? command.archive : "-";
  return command.folder;
}

static char *
unzip_folder (const char * const *argv,
              const char         *cwd,
              const char        **archive)
{
  const char *folder = ".";
  gboolean excluding = FALSE;

  *archive = NULL;
  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (arg[0] == '-' && arg[1] != '\0')
        {
          excluding = FALSE;
          for (const char *c = arg + 1; *c != '\0'; c++)
            {
              /* A listing, a test, a comment, or to standard output: no files. */
              if (strchr ("lvtzZcp", *c) != NULL)
                return NULL;
              if (*c == 'x')
                excluding = TRUE;
              if (strchr (unzip_valued, *c) != NULL)
                {
                  const char *value = cluster_value (argv, &i, c);

                  if (*c == 'd' && value != NULL)
                    folder = value;
                  break;
                }
            }
          continue;
        }
      /* The archive, then the members to extract, or not (after -x). */
      if (*archive == NULL && !excluding)
        *archive = arg;
    }
  if (*archive == NULL)
    return NULL;
  return paddock_path_resolve (folder, cwd);
}

/* 7-Zip: `7z x|e [-SWITCH...] ARCHIVE [NAME...]`, each switch's value
 * joined to it (-oDIR), in any case, before or after the command. -si
 * reads the archive from standard input (a name after it is a member's);
 * -so writes what it unpacks there, not to files. */
static char *
sevenzip_folder (const char * const *argv,
                 const char         *cwd,
                 const char        **archive)
{
  const char *folder = ".";
  const char *command = NULL;
  gboolean switches = TRUE;
  gboolean from_input = FALSE;

  *archive = NULL;
  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (switches && strcmp (arg, "--") == 0)
        switches = FALSE;
      else if (switches && arg[0] == '-' && arg[1] != '\0')
        {
          if (g_ascii_strcasecmp (arg + 1, "so") == 0)
            return NULL;
          if (g_ascii_strcasecmp (arg + 1, "si") == 0)
            from_input = TRUE;
          else if (arg[1] == 'o' || arg[1] == 'O')
            folder = arg[2] != '\0' ? arg + 2 : ".";
        }
      else if (command == NULL)
        command = arg;
      else if (*archive == NULL)
        *archive = arg;
    }
  if (command == NULL || (g_ascii_strcasecmp (command, "x") != 0 && g_ascii_strcasecmp (command, "e") != 0))
    return NULL;
  if (from_input)
    *archive = "-";
  if (*archive == NULL)
    return NULL;
  return paddock_path_resolve (folder, cwd);
}

char *
paddock_download_extract_folder (const char * const *argv,
                                 const char         *program,
                                 const char         *cwd,
                                 char              **archive)
{
  const char *named = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (argv != NULL && archive != NULL, NULL);

  *archive = NULL;
  if (!paddock_download_is_extractor (program) || argv[0] == NULL || cwd == NULL)
    return NULL;
  if (strcmp (program, "unzip") == 0)
    folder = unzip_folder (argv, cwd, &named);
  else if (is_7zip (program))
    folder = sevenzip_folder (argv, cwd, &named);
  else
    folder = tar_folder (argv, cwd, &named);
  /* The archive is opened where tar starts, whatever -C says. */
  if (folder == NULL || g_str_has_suffix (named, "/"))
    return NULL;
  if (strcmp (named, "-") == 0)
    file = g_strdup ("-");
  else if ((file = paddock_path_resolve (named, cwd)) == NULL || g_str_has_suffix (file, "/"))
    return NULL;
  /* Never the root: not a folder whose every file a run of tar could write. */
  if (g_str_has_suffix (folder, "/"))
    return NULL;
  *archive = g_steal_pointer (&file);
  return g_strconcat (folder, "/", NULL);
}

GPtrArray *
paddock_download_tee_targets (const char * const *argv,
                              const char         *cwd)
{
  g_autoptr(GPtrArray) targets = NULL;
  gboolean options = TRUE;

  g_return_val_if_fail (argv != NULL, NULL);

  if (argv[0] == NULL || cwd == NULL)
    return NULL;
  targets = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 1; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (options && strcmp (arg, "--") == 0)
        options = FALSE;
      else if (options && (strcmp (arg, "--help") == 0 || strcmp (arg, "--version") == 0))
        return NULL;
      /* -a, -i, -p, --append, --output-error[=MODE]: none takes the next word. */
      else if (!options || arg[0] != '-' || arg[1] == '\0')
        add_target (targets, NULL, arg, cwd);
    }
  if (targets->len == 0)
    return NULL;
  return g_steal_pointer (&targets);
}

gboolean
paddock_download_holds (const char *target,
                        const char *path)
{
  gsize len;

  g_return_val_if_fail (target != NULL && path != NULL, FALSE);

  len = strlen (target);
  if (len > 0 && target[len - 1] == '/')
    return strncmp (path, target, len) == 0 && path[len] != '\0';
  return strcmp (path, target) == 0;
}
