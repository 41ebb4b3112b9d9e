/* paddock-home-view.c: the home folder's asked entries, served to the locked agent once allowed
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The view's root is a folder of its own making whose entry "N" is the Nth
 * asked entry; the lock binds each into the agent's home folder. Every
 * other node is a real file, held by an O_PATH descriptor and looked up by
 * one name at a time relative to its folder's, never following a link:
 * the agent's kernel resolves links in the agent's own view, where what
 * the lock hides stays hidden. Nodes are keyed by device and inode, so a
 * file has one node however it is reached, and the kernel's lookup counts
 * say when one may go.
 */
#include "config.h"

#define FUSE_USE_VERSION 312

#include "paddock-autofd.h"
#include "paddock-fd-passing.h"
#include "paddock-grants.h"
#include "paddock-home.h"
#include "paddock-home-view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <fuse_lowlevel.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long the kernel may keep names and attributes: the view is read-only
 * for the agent, and the user's own changes show within this. */
#define VIEW_CACHE_SECONDS 5.0

typedef enum
{
  ENTRY_UNASKED,
  ENTRY_ASKING,
  ENTRY_ALLOWED,
  ENTRY_DENIED,
} EntryState;

typedef struct
{
  char       *path;       /* canonical, real */
  EntryState  state;
  GPtrArray  *held;       /* Held: requests waiting on the ask */
  GHashTable *refused;    /* pids told once of a refusal, as keys */
  gint64      ask_id;
} Entry;

typedef struct
{
  fuse_ino_t  ino;        /* FUSE_ROOT_ID, or the node's address */
  int         fd;         /* O_PATH; -1 for the root */
  dev_t       dev;
  ino_t       real_ino;
  guint64     lookups;
  int         entry;      /* -1 for the root */
  char       *path;       /* real, canonical as reached */
} Node;

typedef enum
{
  OP_LOOKUP,
  OP_OPENDIR,
  OP_OPEN,
} Op;

typedef struct
{
  Op                     op;
  fuse_req_t             req;
  fuse_ino_t             ino;
  char                  *name;
  struct fuse_file_info  fi;
} Held;

typedef struct
{
  DIR           *dir;
  off_t          offset;
  struct dirent *pending;  /* read but not sent: the reply was full */
} OpenDir;

struct _PaddockHomeView
{
  /* Set before the thread starts, read-only after: */
  char                *project;
  GPtrArray           *entries;     /* Entry */
  char               **denials;
  char               **bindable;
  PaddockAudit        *audit;
  GMainContext        *context;     /* the main context, where asks are made */
  GThread             *thread;
  int                  socket_fd;
  int                  wake_fd;     /* an eventfd that ends the thread's loop */

  /* Main context only: */
  PaddockAsks         *asks;
  PaddockHomeViewFunc  func;
  gpointer             func_data;

  GMutex               lock;        /* guards what follows, and each Entry's state */
  GHashTable          *nodes;       /* "dev:ino" → Node */
  Node                 root;
  struct fuse_session *session;
  gboolean             serving;
  gboolean             setup_done;  /* the lock's child made its own lookups: the rest are the agent's */
  pid_t                agent_pid;
};

static void
held_free (Held *held)
{
  g_free (held->name);
  g_free (held);
}

static void
entry_free (Entry *entry)
{
  g_free (entry->path);
  g_ptr_array_unref (entry->held);
  g_hash_table_unref (entry->refused);
  g_free (entry);
}

static void
node_free (Node *node)
{
  if (node->fd >= 0)
    close (node->fd);
  g_free (node->path);
  g_free (node);
}

static char *
node_key (dev_t dev,
          ino_t ino)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, (guint64) dev, (guint64) ino);
}

static PaddockHomeView *
view_of (fuse_req_t req)
{
  return fuse_req_userdata (req);
}

/* Caller holds the lock. */
static Node *
find_node (PaddockHomeView *self,
           fuse_ino_t       ino)
{
  if (ino == FUSE_ROOT_ID)
    return &self->root;
  return (Node *) (uintptr_t) ino;
}

/* The pid that made @req, as paddock-run sees it: the kernel gives it as
 * the agent's own PID namespace numbers it. 0 where it is outside that
 * namespace (paddock-run itself, reading an executable for the exec
 * monitor): such a reader is no agent's. */
static pid_t
host_pid_of (PaddockHomeView *self,
             pid_t            pid)
{
  g_autofree char *agent_ns_link = g_strdup_printf ("/proc/%d/ns/pid", (int) self->agent_pid);
  g_autofree char *agent_ns = g_file_read_link (agent_ns_link, NULL);
  g_autoptr(GDir) proc = NULL;
  const char *name;

  if (pid <= 0 || agent_ns == NULL)
    return pid;
  proc = g_dir_open ("/proc", 0, NULL);
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *ns_link = NULL;
      g_autofree char *ns = NULL;
      g_autofree char *status_path = NULL;
      g_autofree char *status = NULL;
      char *line;

      if (!g_ascii_isdigit (*name))
        continue;
      ns_link = g_strdup_printf ("/proc/%s/ns/pid", name);
      ns = g_file_read_link (ns_link, NULL);
      if (ns == NULL || strcmp (ns, agent_ns) != 0)
        continue;
      status_path = g_strdup_printf ("/proc/%s/status", name);
      if (!g_file_get_contents (status_path, &status, NULL, NULL) ||
          (line = strstr (status, "\nNSpid:")) == NULL)
        continue;
      line++;
      line[strcspn (line, "\n")] = '\0';
      /* The last number is the pid in the process's own namespace. */
      line = strrchr (line, '\t');
      if (line != NULL && atoi (line + 1) == pid)
        return atoi (name);
    }
  return pid;
}

/* Fills the reading process's fields of @message from /proc. */
static void
describe_reader (PaddockMessage *message,
                 pid_t           pid)
{
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", (int) pid);
  g_autofree char *cwd_link = g_strdup_printf ("/proc/%d/cwd", (int) pid);
  g_autofree char *cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *cmdline = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  gsize length = 0;
  pid_t ppid = 0;

  message->pid = pid;
  message->exe = g_file_read_link (exe_link, NULL);
  message->cwd = g_file_read_link (cwd_link, NULL);
  if (g_file_get_contents (cmdline_path, &cmdline, &length, NULL))
    for (gsize at = 0; at < length; at += strlen (cmdline + at) + 1)
      g_ptr_array_add (argv, g_strdup (cmdline + at));
  {
    g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) pid);
    g_autofree char *stat = NULL;
    char *end;

    if (g_file_get_contents (stat_path, &stat, NULL, NULL) && (end = strrchr (stat, ')')) != NULL)
      sscanf (end + 1, " %*c %d", &ppid);
  }
  message->ppid = ppid;
  if (message->exe == NULL)
    message->exe = g_strdup ("");
  if (message->cwd == NULL)
    message->cwd = g_strdup ("");
  message->argc = argv->len;
  g_ptr_array_add (argv, NULL);
  message->argv = (char **) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

/* The timeline and the audit log: every read the view refused or asked
 * about. Main context. */
static void
record (PaddockHomeView *self,
        const char      *path,
        const char      *name,
        PaddockDecision  decision,
        const char      *by,
        pid_t            pid,
        gint64           id,
        const char      *reason)
{
  g_autoptr(PaddockMessage) message = paddock_message_new (PADDOCK_MESSAGE_HOME);
  g_autoptr(JsonObject) fields = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *exe_link = g_strdup_printf ("/proc/%d/exe", (int) pid);

  message->path = g_strdup (path);
  message->name = g_strdup (name);
  message->decision = decision;
  message->by = g_strdup (by);
  message->time = g_get_real_time ();
  message->pid = pid > 0 ? pid : -1;
  message->exe = pid > 0 ? g_file_read_link (exe_link, NULL) : NULL;
  message->id = id;
  message->reason = g_strdup (reason);

  json_object_set_string_member (fields, "path", path);
  if (name != NULL)
    json_object_set_string_member (fields, "name", name);
  json_object_set_string_member (fields, "decision", paddock_decision_to_string (decision));
  json_object_set_string_member (fields, "by", by);
  if (message->pid > 0)
    json_object_set_int_member (fields, "pid", message->pid);
  if (message->exe != NULL)
    json_object_set_string_member (fields, "exe", message->exe);
  if (id >= 0)
    json_object_set_int_member (fields, "id", id);
  if (reason != NULL)
    json_object_set_string_member (fields, "reason", reason);
  if (self->audit != NULL && !paddock_audit_append (self->audit, PADDOCK_AUDIT_HOME, fields, NULL, &error))
    paddock_audit_print_error (error);
  if (self->func != NULL)
    self->func (message, self->func_data);
}

/* What a refusal on the view's thread leaves for the main context. */
typedef struct
{
  PaddockHomeView *self;
  char            *path;
  char            *name;
  char            *by;
  char            *reason;
  pid_t            pid;
} Refusal;

static gboolean
record_refusal (gpointer user_data)
{
  Refusal *refusal = user_data;

  record (refusal->self, refusal->path, refusal->name, PADDOCK_DECISION_DENY, refusal->by,
          host_pid_of (refusal->self, refusal->pid), -1, refusal->reason);
  g_free (refusal->path);
  g_free (refusal->name);
  g_free (refusal->by);
  g_free (refusal->reason);
  g_free (refusal);
  return G_SOURCE_REMOVE;
}

/* Runs @func on the main context, from the main loop, never in this
 * thread: g_main_context_invoke() would run it here at once when nobody
 * iterates the context (paddock-run waiting for the child), with the
 * view's lock held. */
static void
invoke_later (PaddockHomeView *self,
              GSourceFunc      func,
              gpointer         data)
{
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, self->context);
  g_source_unref (source);
}

static void
post_refusal (PaddockHomeView *self,
              const char      *path,
              const char      *name,
              const char      *by,
              const char      *reason,
              pid_t            pid)
{
  Refusal *refusal = g_new0 (Refusal, 1);

  refusal->self = self;
  refusal->path = g_strdup (path);
  refusal->name = g_strdup (name);
  refusal->by = g_strdup (by);
  refusal->reason = g_strdup (reason);
  refusal->pid = pid;
  invoke_later (self, record_refusal, refusal);
}

/* Serving */

static void
fill_entry_param (struct fuse_entry_param *param,
                  Node                    *node,
                  const struct stat       *st)
{
  memset (param, 0, sizeof *param);
  param->ino = node->ino;
  param->attr = *st;
  param->attr.st_ino = node->ino;
  param->attr_timeout = VIEW_CACHE_SECONDS;
  param->entry_timeout = VIEW_CACHE_SECONDS;
}

/* Finds or makes the node for @name in @parent, counting one lookup;
 * fills @param. Caller holds the lock. Returns 0 or an errno. */
static int
lookup_locked (PaddockHomeView         *self,
               Node                    *parent,
               const char              *name,
               struct fuse_entry_param *param)
{
  g_autofree char *key = NULL;
  paddock_autofd int fd = -1;
  struct stat st;
  Node *node;
  int entry;

  if (parent == &self->root)
    {
      char *end;
      gint64 index = g_ascii_strtoll (name, &end, 10);

      if (*name == '\0' || *end != '\0' || index < 0 || index >= self->entries->len)
        return ENOENT;
      entry = index;
      fd = open (((Entry *) g_ptr_array_index (self->entries, entry))->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    }
  else
    {
      if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0 || strchr (name, '/') != NULL)
        return ENOENT;
      entry = parent->entry;
      fd = openat (parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    }
  if (fd < 0)
    return errno;
  if (fstatat (fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
    return errno;

  key = node_key (st.st_dev, st.st_ino);
  node = g_hash_table_lookup (self->nodes, key);
  if (node == NULL)
    {
      node = g_new0 (Node, 1);
      node->fd = paddock_steal_fd (&fd);
      node->dev = st.st_dev;
      node->real_ino = st.st_ino;
      node->entry = entry;
      node->path = parent == &self->root ? g_strdup (((Entry *) g_ptr_array_index (self->entries, entry))->path)
                                         : g_build_filename (parent->path, name, NULL);
      node->ino = (fuse_ino_t) (uintptr_t) node;
      g_hash_table_insert (self->nodes, g_steal_pointer (&key), node);
    }
  node->lookups++;
  fill_entry_param (param, node, &st);
  return 0;
}

/* Caller holds the lock. */
static void
forget_locked (PaddockHomeView *self,
               fuse_ino_t       ino,
               guint64          n)
{
  Node *node = find_node (self, ino);
  g_autofree char *key = NULL;

  if (node == &self->root)
    return;
  node->lookups = n >= node->lookups ? 0 : node->lookups - n;
  if (node->lookups > 0)
    return;
  key = node_key (node->dev, node->real_ino);
  g_hash_table_remove (self->nodes, key);
}

/* Whether @path (within an entry) is one the lock denies. */
static gboolean
is_denied (PaddockHomeView *self,
           const char      *path)
{
  return paddock_grants_find_denial (path, (const char * const *) self->denials) != NULL;
}

static void
serve_lookup (PaddockHomeView *self,
              fuse_req_t       req,
              fuse_ino_t       parent_ino,
              const char      *name)
{
  struct fuse_entry_param param;
  g_autofree char *path = NULL;
  Node *parent;
  int err;

  g_mutex_lock (&self->lock);
  parent = find_node (self, parent_ino);
  if (parent != &self->root)
    {
      path = g_build_filename (parent->path, name, NULL);
      if (is_denied (self, path))
        {
          Entry *entry = g_ptr_array_index (self->entries, parent->entry);
          const char *below = path + strlen (entry->path) + 1;

          g_mutex_unlock (&self->lock);
          post_refusal (self, entry->path, below, "closed",
                        "the folder lock keeps it from the agent, whatever is allowed around it",
                        fuse_req_ctx (req)->pid);
          fuse_reply_err (req, EACCES);
          return;
        }
    }
  err = lookup_locked (self, parent, name, &param);
  g_mutex_unlock (&self->lock);
  if (err != 0)
    fuse_reply_err (req, err);
  else
    fuse_reply_entry (req, &param);
}

/* Reopens @node for reading, as @flags say. Caller holds the lock. */
static int
reopen_locked (Node *node,
               int   flags)
{
  char path[64];

  g_snprintf (path, sizeof path, "/proc/self/fd/%d", node->fd);
  return open (path, (flags & O_DIRECTORY) | O_RDONLY | O_CLOEXEC | O_NOCTTY);
}

static void
serve_opendir (PaddockHomeView       *self,
               fuse_req_t             req,
               fuse_ino_t             ino,
               struct fuse_file_info *fi)
{
  OpenDir *open_dir;
  int fd;

  g_mutex_lock (&self->lock);
  fd = reopen_locked (find_node (self, ino), O_DIRECTORY);
  g_mutex_unlock (&self->lock);
  if (fd < 0)
    {
      fuse_reply_err (req, errno);
      return;
    }
  open_dir = g_new0 (OpenDir, 1);
  open_dir->dir = fdopendir (fd);
  if (open_dir->dir == NULL)
    {
      int err = errno;

      close (fd);
      g_free (open_dir);
      fuse_reply_err (req, err);
      return;
    }
  fi->fh = (uint64_t) (uintptr_t) open_dir;
  fi->cache_readdir = 0;
  if (fuse_reply_open (req, fi) != 0)
    {
      closedir (open_dir->dir);
      g_free (open_dir);
    }
}

static void
serve_open (PaddockHomeView       *self,
            fuse_req_t             req,
            fuse_ino_t             ino,
            struct fuse_file_info *fi)
{
  int fd;

  if ((fi->flags & O_ACCMODE) != O_RDONLY)
    {
      fuse_reply_err (req, EROFS);
      return;
    }
  g_mutex_lock (&self->lock);
  fd = reopen_locked (find_node (self, ino), fi->flags);
  g_mutex_unlock (&self->lock);
  if (fd < 0)
    {
      fuse_reply_err (req, errno);
      return;
    }
  fi->fh = fd;
  /* The kernel drops what it kept when it sees the file change (size,
   * times), as libfuse asks for by default: a second read runs at the
   * page cache's speed. */
  fi->keep_cache = 1;
  if (fuse_reply_open (req, fi) != 0)
    close (fd);
}

static void
serve (PaddockHomeView *self,
       Held            *held)
{
  switch (held->op)
    {
    case OP_LOOKUP:
      serve_lookup (self, held->req, held->ino, held->name);
      break;
    case OP_OPENDIR:
      serve_opendir (self, held->req, held->ino, &held->fi);
      break;
    case OP_OPEN:
      serve_open (self, held->req, held->ino, &held->fi);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* An allowed entry, bound whole */

#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#define OPEN_TREE_CLONE_         1
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4
#define MOUNT_ATTR_RDONLY_       0x1
#define MOUNT_ATTR_NOSUID_       0x2
#define MOUNT_ATTR_NODEV_        0x4
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

struct view_mount_attr
{
  guint64 attr_set;
  guint64 attr_clr;
  guint64 propagation;
  guint64 userns_fd;
};

/* In a child of paddock-run's, which has one thread: binds @path, as the
 * host has it and read-only, over the view's copy in the agent's mount
 * namespace (@user_ns_fd is -1 where the agent shares paddock-run's user
 * namespace). Only system calls. */
static int
bind_over_view (const char *path,
                int         user_ns_fd,
                int         mount_ns_fd)
{
  struct view_mount_attr attr = {
    .attr_set = MOUNT_ATTR_RDONLY_ | MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_,
  };
  int tree = syscall (__NR_open_tree, AT_FDCWD, path, OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE);

  if (tree < 0)
    return errno;
  if (syscall (__NR_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) != 0)
    return errno;
  if (user_ns_fd >= 0 && setns (user_ns_fd, CLONE_NEWUSER) != 0)
    return errno;
  if (setns (mount_ns_fd, CLONE_NEWNS) != 0)
    return errno;
  if (syscall (__NR_move_mount, tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH_) != 0)
    return errno;
  return 0;
}

/* Once an entry is allowed for the session, nothing more is asked about
 * it: its real folder is bound over the view's copy in the agent's mount
 * namespace, and what the agent opens from then on it reads at the
 * kernel's speed, no longer through paddock-run (what it has open stays
 * the view's). Under Landlock the rule the lock made for the view's copy
 * covers the folder on top. Not where the lock denies a path within it,
 * which only the view refuses, nor where the lock could not grant its real
 * folder (paddock_lock_list_view_bindable()). FALSE where it could not be done: the view
 * goes on serving it. Main context. */
static gboolean
bind_allowed_entry (PaddockHomeView *self,
                    Entry           *entry)
{
  g_autofree char *user_ns = g_strdup_printf ("/proc/%d/ns/user", (int) self->agent_pid);
  g_autofree char *mount_ns = g_strdup_printf ("/proc/%d/ns/mnt", (int) self->agent_pid);
  paddock_autofd int user_ns_fd = -1;
  paddock_autofd int mount_ns_fd = -1;
  struct stat own, theirs;
  int status;
  pid_t pid;

  if (self->agent_pid <= 0 || self->bindable == NULL ||
      !g_strv_contains ((const char * const *) self->bindable, entry->path) ||
      paddock_grants_find_denial_beneath (entry->path, (const char * const *) self->denials) != NULL)
    return FALSE;
  user_ns_fd = open (user_ns, O_RDONLY | O_CLOEXEC);
  mount_ns_fd = open (mount_ns, O_RDONLY | O_CLOEXEC);
  if (user_ns_fd < 0 || mount_ns_fd < 0 || fstat (user_ns_fd, &theirs) != 0 ||
      stat ("/proc/self/ns/user", &own) != 0)
    return FALSE;
  if (own.st_ino == theirs.st_ino && own.st_dev == theirs.st_dev)
    paddock_close_fd (&user_ns_fd);

  pid = fork ();
  if (pid < 0)
    return FALSE;
  if (pid == 0)
    _exit (bind_over_view (entry->path, user_ns_fd, mount_ns_fd));
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return FALSE;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_debug ("cannot bind %s over the home view: %s", entry->path,
               WIFEXITED (status) ? g_strerror (WEXITSTATUS (status)) : "killed");
      return FALSE;
    }
  return TRUE;
}

/* Asking */

typedef struct
{
  PaddockHomeView *self;
  int              entry;
  char            *name;
  pid_t            pid;
} AskStart;

static void
answer_held (PaddockHomeView *self,
             Entry           *entry,
             gboolean         allowed)
{
  g_autoptr(GPtrArray) held = NULL;

  g_mutex_lock (&self->lock);
  entry->state = allowed ? ENTRY_ALLOWED : ENTRY_DENIED;
  held = g_steal_pointer (&entry->held);
  entry->held = g_ptr_array_new_with_free_func ((GDestroyNotify) held_free);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < held->len; i++)
    {
      Held *one = g_ptr_array_index (held, i);

      if (allowed)
        serve (self, one);
      else
        fuse_reply_err (one->req, EACCES);
    }
}

static void
ask_start_free (gpointer data)
{
  AskStart *context = data;

  g_free (context->name);
  g_free (context);
}

static void
on_answered (gint64           id,
             PaddockDecision  decision,
             PaddockRemember  remember,
             const char      *by,
             int              client_pid,
             gpointer         user_data)
{
  AskStart *context = user_data;
  PaddockHomeView *self = context->self;
  Entry *entry = g_ptr_array_index (self->entries, context->entry);
  gboolean allowed = decision == PADDOCK_DECISION_ALLOW;
  g_autofree char *reason = NULL;

  if (allowed && remember == PADDOCK_REMEMBER_PROJECT)
    {
      g_autoptr(GError) error = NULL;

      if (!paddock_home_allow_in_project (self->project, entry->path, &error))
        reason = g_strdup_printf ("allowed for this session only: %s", error->message);
    }
  record (self, entry->path, context->name, allowed ? PADDOCK_DECISION_ALLOW : PADDOCK_DECISION_DENY,
          by, context->pid, id, reason);
  if (!allowed)
    g_hash_table_add (entry->refused, GINT_TO_POINTER (context->pid));
  /* First: a held lookup keeps its folder locked, which the bind waits for. */
  answer_held (self, entry, allowed);
  if (allowed)
    bind_allowed_entry (self, entry);
}

static gboolean
start_ask (gpointer user_data)
{
  AskStart *start = user_data;
  PaddockHomeView *self = start->self;
  Entry *entry = g_ptr_array_index (self->entries, start->entry);
  pid_t pid = host_pid_of (self, start->pid);

  if (self->asks == NULL)
    {
      record (self, entry->path, start->name, PADDOCK_DECISION_DENY, "no-client", pid, -1,
              "nobody can answer: the session has no exec monitor");
      answer_held (self, entry, FALSE);
    }
  else
    {
      PaddockMessage *message = paddock_message_new (PADDOCK_MESSAGE_ASK);
      AskStart *context = g_new0 (AskStart, 1);

      message->kind = g_strdup ("home");
      message->path = g_strdup (entry->path);
      message->name = g_strdup (start->name);
      message->mono = g_get_monotonic_time ();
      message->id = -1;
      describe_reader (message, pid);
      context->self = self;
      context->entry = start->entry;
      context->name = g_strdup (start->name);
      context->pid = pid;
      entry->ask_id = paddock_asks_add (self->asks, message, on_answered, context, ask_start_free);
    }
  g_free (start->name);
  g_free (start);
  return G_SOURCE_REMOVE;
}

/* Whether the request for @ino may be served now; if not, it is held or
 * refused here. @name: what is looked up in it, or NULL. */
static gboolean
pass_gate (PaddockHomeView       *self,
           fuse_req_t             req,
           Op                     op,
           fuse_ino_t             ino,
           const char            *name,
           struct fuse_file_info *fi)
{
  pid_t pid = fuse_req_ctx (req)->pid;
  Node *node;
  Entry *entry;
  Held *held;

  if (ino == FUSE_ROOT_ID)
    return TRUE;
  g_mutex_lock (&self->lock);
  node = find_node (self, ino);
  entry = g_ptr_array_index (self->entries, node->entry);
  /* A reader outside the agent's PID namespace is paddock-run's own;
   * before the lock is made, the reader is the lock's child itself. */
  if (pid == 0 || !self->setup_done || entry->state == ENTRY_ALLOWED)
    {
      g_mutex_unlock (&self->lock);
      return TRUE;
    }
  if (entry->state == ENTRY_DENIED)
    {
      gboolean told = g_hash_table_contains (entry->refused, GINT_TO_POINTER (pid));
      g_autofree char *below = NULL;

      if (!told)
        g_hash_table_add (entry->refused, GINT_TO_POINTER (pid));
      if (!told)
        below = name != NULL ? g_build_filename (node->path + strlen (entry->path), name, NULL)
                             : g_strdup (node->path + strlen (entry->path));
      g_mutex_unlock (&self->lock);
      if (!told)
        post_refusal (self, entry->path, *below == '/' ? below + 1 : (*below == '\0' ? NULL : below),
                      "denied", "refused for this session", pid);
      fuse_reply_err (req, EACCES);
      return FALSE;
    }

  held = g_new0 (Held, 1);
  held->op = op;
  held->req = req;
  held->ino = ino;
  held->name = g_strdup (name);
  if (fi != NULL)
    held->fi = *fi;
  g_ptr_array_add (entry->held, held);
  if (entry->state == ENTRY_UNASKED)
    {
      AskStart *start = g_new0 (AskStart, 1);
      g_autofree char *below = name != NULL ? g_build_filename (node->path + strlen (entry->path), name, NULL)
                                            : g_strdup (node->path + strlen (entry->path));

      entry->state = ENTRY_ASKING;
      start->self = self;
      start->entry = node->entry;
      start->name = g_strdup (*below == '/' ? below + 1 : (*below == '\0' ? NULL : below));
      start->pid = pid;
      invoke_later (self, start_ask, start);
    }
  g_mutex_unlock (&self->lock);
  return FALSE;
}

/* The FUSE operations */

static void
on_init (void                  *user_data,
         struct fuse_conn_info *conn)
{
  if (conn->capable & FUSE_CAP_SPLICE_WRITE)
    conn->want |= FUSE_CAP_SPLICE_WRITE;
  if (conn->capable & FUSE_CAP_SPLICE_MOVE)
    conn->want |= FUSE_CAP_SPLICE_MOVE;
  conn->want &= ~FUSE_CAP_ATOMIC_O_TRUNC;
}

static void
on_lookup (fuse_req_t  req,
           fuse_ino_t  parent,
           const char *name)
{
  PaddockHomeView *self = view_of (req);

  if (pass_gate (self, req, OP_LOOKUP, parent, name, NULL))
    serve_lookup (self, req, parent, name);
}

static void
on_forget (fuse_req_t req,
           fuse_ino_t ino,
           uint64_t   n)
{
  PaddockHomeView *self = view_of (req);

  g_mutex_lock (&self->lock);
  forget_locked (self, ino, n);
  g_mutex_unlock (&self->lock);
  fuse_reply_none (req);
}

static void
on_forget_multi (fuse_req_t                 req,
                 size_t                     count,
                 struct fuse_forget_data   *forgets)
{
  PaddockHomeView *self = view_of (req);

  g_mutex_lock (&self->lock);
  for (size_t i = 0; i < count; i++)
    forget_locked (self, forgets[i].ino, forgets[i].nlookup);
  g_mutex_unlock (&self->lock);
  fuse_reply_none (req);
}

static void
on_getattr (fuse_req_t             req,
            fuse_ino_t             ino,
            struct fuse_file_info *fi)
{
  PaddockHomeView *self = view_of (req);
  struct stat st;
  Node *node;
  int err = 0;

  g_mutex_lock (&self->lock);
  node = find_node (self, ino);
  if (node == &self->root)
    {
      memset (&st, 0, sizeof st);
      st.st_mode = S_IFDIR | 0555;
      st.st_nlink = 2;
      st.st_uid = getuid ();
      st.st_gid = getgid ();
    }
  else if (fstatat (node->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
    err = errno;
  g_mutex_unlock (&self->lock);
  if (err != 0)
    {
      fuse_reply_err (req, err);
      return;
    }
  st.st_ino = ino;
  fuse_reply_attr (req, &st, VIEW_CACHE_SECONDS);
}

static void
on_readlink (fuse_req_t req,
             fuse_ino_t ino)
{
  PaddockHomeView *self = view_of (req);
  char target[PATH_MAX + 1];
  ssize_t n;

  g_mutex_lock (&self->lock);
  n = readlinkat (find_node (self, ino)->fd, "", target, sizeof target - 1);
  g_mutex_unlock (&self->lock);
  if (n < 0)
    {
      fuse_reply_err (req, errno);
      return;
    }
  target[n] = '\0';
  fuse_reply_readlink (req, target);
}

static void
on_opendir (fuse_req_t             req,
            fuse_ino_t             ino,
            struct fuse_file_info *fi)
{
  PaddockHomeView *self = view_of (req);

  /* The root is never shown to the agent: it lists nothing. */
  if (ino == FUSE_ROOT_ID)
    {
      fuse_reply_err (req, EACCES);
      return;
    }
  if (pass_gate (self, req, OP_OPENDIR, ino, NULL, fi))
    serve_opendir (self, req, ino, fi);
}

static void
reply_dir (fuse_req_t             req,
           fuse_ino_t             ino,
           size_t                 size,
           off_t                  offset,
           struct fuse_file_info *fi,
           gboolean               plus)
{
  PaddockHomeView *self = view_of (req);
  OpenDir *open_dir = (OpenDir *) (uintptr_t) fi->fh;
  g_autofree char *buffer = g_malloc (size);
  size_t used = 0;

  if (offset != open_dir->offset)
    {
      seekdir (open_dir->dir, offset);
      open_dir->pending = NULL;
      open_dir->offset = offset;
    }
  for (;;)
    {
      struct dirent *dirent = open_dir->pending;
      struct fuse_entry_param param;
      g_autofree char *path = NULL;
      off_t next;
      size_t added;
      Node *parent;

      if (dirent == NULL)
        {
          errno = 0;
          dirent = readdir (open_dir->dir);
          if (dirent == NULL)
            break;
        }
      open_dir->pending = dirent;
      next = telldir (open_dir->dir);
      memset (&param, 0, sizeof param);
      param.attr.st_ino = dirent->d_ino;
      param.attr.st_mode = (mode_t) dirent->d_type << 12;

      /* Every entry of a readdirplus reply has the plus form; "." and
       * "..", and a denied name, carry no node. */
      if (plus && (strcmp (dirent->d_name, ".") == 0 || strcmp (dirent->d_name, "..") == 0))
        added = fuse_add_direntry_plus (req, buffer + used, size - used, dirent->d_name, &param, next);
      else if (plus)
        {
          g_mutex_lock (&self->lock);
          parent = find_node (self, ino);
          path = g_build_filename (parent->path, dirent->d_name, NULL);
          /* A denied name is listed, never looked up. */
          if (is_denied (self, path) || lookup_locked (self, parent, dirent->d_name, &param) != 0)
            param.ino = 0;
          g_mutex_unlock (&self->lock);
          added = fuse_add_direntry_plus (req, buffer + used, size - used, dirent->d_name, &param, next);
          if (added > size - used && param.ino != 0)
            {
              g_mutex_lock (&self->lock);
              forget_locked (self, param.ino, 1);
              g_mutex_unlock (&self->lock);
            }
        }
      else
        added = fuse_add_direntry (req, buffer + used, size - used, dirent->d_name, &param.attr, next);
      if (added > size - used)
        break;
      used += added;
      open_dir->pending = NULL;
      open_dir->offset = next;
    }
  fuse_reply_buf (req, buffer, used);
}

static void
on_readdir (fuse_req_t             req,
            fuse_ino_t             ino,
            size_t                 size,
            off_t                  offset,
            struct fuse_file_info *fi)
{
  reply_dir (req, ino, size, offset, fi, FALSE);
}

static void
on_readdirplus (fuse_req_t             req,
                fuse_ino_t             ino,
                size_t                 size,
                off_t                  offset,
                struct fuse_file_info *fi)
{
  reply_dir (req, ino, size, offset, fi, TRUE);
}

static void
on_releasedir (fuse_req_t             req,
               fuse_ino_t             ino,
               struct fuse_file_info *fi)
{
  OpenDir *open_dir = (OpenDir *) (uintptr_t) fi->fh;

  closedir (open_dir->dir);
  g_free (open_dir);
  fuse_reply_err (req, 0);
}

static void
on_open (fuse_req_t             req,
         fuse_ino_t             ino,
         struct fuse_file_info *fi)
{
  PaddockHomeView *self = view_of (req);

  if (pass_gate (self, req, OP_OPEN, ino, NULL, fi))
    serve_open (self, req, ino, fi);
}

static void
on_read (fuse_req_t             req,
         fuse_ino_t             ino,
         size_t                 size,
         off_t                  offset,
         struct fuse_file_info *fi)
{
  struct fuse_bufvec buffer = FUSE_BUFVEC_INIT (size);

  buffer.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
  buffer.buf[0].fd = fi->fh;
  buffer.buf[0].pos = offset;
  fuse_reply_data (req, &buffer, FUSE_BUF_SPLICE_MOVE);
}

static void
on_release (fuse_req_t             req,
            fuse_ino_t             ino,
            struct fuse_file_info *fi)
{
  close (fi->fh);
  fuse_reply_err (req, 0);
}

static void
on_statfs (fuse_req_t req,
           fuse_ino_t ino)
{
  PaddockHomeView *self = view_of (req);
  struct statvfs st;
  int err = 0;

  g_mutex_lock (&self->lock);
  if (ino == FUSE_ROOT_ID || fstatvfs (find_node (self, ino)->fd, &st) != 0)
    {
      memset (&st, 0, sizeof st);
      st.f_bsize = 4096;
      st.f_namemax = 255;
    }
  g_mutex_unlock (&self->lock);
  if (err != 0)
    fuse_reply_err (req, err);
  else
    fuse_reply_statfs (req, &st);
}

static const struct fuse_lowlevel_ops view_ops = {
  .init = on_init,
  .lookup = on_lookup,
  .forget = on_forget,
  .forget_multi = on_forget_multi,
  .getattr = on_getattr,
  .readlink = on_readlink,
  .opendir = on_opendir,
  .readdir = on_readdir,
  .readdirplus = on_readdirplus,
  .releasedir = on_releasedir,
  .open = on_open,
  .read = on_read,
  .release = on_release,
  .statfs = on_statfs,
};

/* The thread */

static void
discard_fuse_log (enum fuse_log_level  level,
                  const char          *format,
                  va_list              args)
{
}

static gpointer
serve_thread (gpointer user_data)
{
  PaddockHomeView *self = user_data;
  struct fuse_args args = FUSE_ARGS_INIT (0, NULL);
  struct fuse_buf buffer = { 0 };
  g_autofree char *mountpoint = NULL;
  char byte;
  int fd = -1;

  if (paddock_receive_fd (self->socket_fd, &byte, 1, &fd) != 1 || fd < 0)
    return NULL;
  fuse_opt_add_arg (&args, "paddock-run");
  g_mutex_lock (&self->lock);
  self->session = fuse_session_new (&args, &view_ops, sizeof view_ops, self);
  g_mutex_unlock (&self->lock);
  fuse_opt_free_args (&args);
  mountpoint = g_strdup_printf ("/dev/fd/%d", fd);
  if (self->session == NULL || fuse_session_mount (self->session, mountpoint) != 0)
    {
      /* Closing it ends the connection: the agent's reads fail, never hang. */
      close (fd);
      return NULL;
    }
  g_mutex_lock (&self->lock);
  self->serving = TRUE;
  g_mutex_unlock (&self->lock);
  if (write (self->socket_fd, "v", 1) != 1)
    return NULL;

  for (;;)
    {
      struct pollfd fds[3] = {
        { .fd = fuse_session_fd (self->session), .events = POLLIN },
        { .fd = self->wake_fd, .events = POLLIN },
        { .fd = self->setup_done ? -1 : self->socket_fd, .events = POLLIN },
      };
      int n;

      if (poll (fds, 3, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (fds[1].revents != 0)
        break;
      /* The child's word that the lock is made, or its end. */
      if (fds[2].revents != 0)
        {
          if (read (self->socket_fd, &byte, 1) != 1 || byte == 'd')
            {
              g_mutex_lock (&self->lock);
              self->setup_done = TRUE;
              g_mutex_unlock (&self->lock);
            }
          continue;
        }
      if (fds[0].revents == 0)
        continue;
      n = fuse_session_receive_buf (self->session, &buffer);
      if (n == -EINTR || n == -EAGAIN)
        continue;
      if (n <= 0)
        break;
      fuse_session_process_buf (self->session, &buffer);
    }
  free (buffer.mem);
  return NULL;
}

PaddockHomeView *
paddock_home_view_new (int                          socket_fd,
                       const PaddockHomeViewConfig *config)
{
  PaddockHomeView *self = g_new0 (PaddockHomeView, 1);
  static gsize log_set;

  if (g_once_init_enter (&log_set))
    {
      /* libfuse's own complaints would land on the agent's terminal. */
      fuse_set_log_func (discard_fuse_log);
      g_once_init_leave (&log_set, 1);
    }
  self->project = g_strdup (config->project);
  self->denials = g_strdupv ((char **) config->denials);
  self->bindable = g_strdupv ((char **) config->bindable);
  self->audit = config->audit;
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  for (guint i = 0; config->entries != NULL && config->entries[i] != NULL; i++)
    {
      Entry *entry = g_new0 (Entry, 1);

      entry->path = g_strdup (config->entries[i]);
      entry->held = g_ptr_array_new_with_free_func ((GDestroyNotify) held_free);
      entry->refused = g_hash_table_new (NULL, NULL);
      entry->ask_id = -1;
      g_ptr_array_add (self->entries, entry);
    }
  self->context = g_main_context_ref_thread_default ();
  self->socket_fd = socket_fd;
  self->wake_fd = eventfd (0, EFD_CLOEXEC);
  self->nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) node_free);
  self->root.ino = FUSE_ROOT_ID;
  self->root.fd = -1;
  self->root.entry = -1;
  g_mutex_init (&self->lock);
  self->thread = g_thread_new ("paddock-home-view", serve_thread, self);
  return self;
}

void
paddock_home_view_set_agent (PaddockHomeView *self,
                             pid_t            agent_pid)
{
  self->agent_pid = agent_pid;
}

void
paddock_home_view_set_asks (PaddockHomeView *self,
                            PaddockAsks     *asks)
{
  self->asks = asks;
}

void
paddock_home_view_set_func (PaddockHomeView     *self,
                            PaddockHomeViewFunc  func,
                            gpointer             user_data)
{
  self->func = func;
  self->func_data = user_data;
}

gboolean
paddock_home_view_is_serving (PaddockHomeView *self)
{
  gboolean serving;

  g_mutex_lock (&self->lock);
  serving = self->serving;
  g_mutex_unlock (&self->lock);
  return serving;
}

void
paddock_home_view_free (PaddockHomeView *self)
{
  guint64 one = 1;

  if (self == NULL)
    return;
  /* Asks still waiting end with the session. */
  for (guint i = 0; self->asks != NULL && i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (entry->state == ENTRY_ASKING && entry->ask_id >= 0)
        paddock_asks_withdraw (self->asks, entry->ask_id, "gone");
    }
  /* The thread may still wait for the child's descriptor. */
  shutdown (self->socket_fd, SHUT_RDWR);
  if (write (self->wake_fd, &one, sizeof one) != sizeof one)
    g_warning ("cannot wake the home view's thread: %s", g_strerror (errno));
  g_thread_join (self->thread);
  for (guint i = 0; i < self->entries->len; i++)
    answer_held (self, g_ptr_array_index (self->entries, i), FALSE);
  if (self->session != NULL)
    fuse_session_destroy (self->session);
  close (self->socket_fd);
  close (self->wake_fd);
  g_hash_table_unref (self->nodes);
  g_ptr_array_unref (self->entries);
  g_strfreev (self->denials);
  g_strfreev (self->bindable);
  g_free (self->project);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_free (self);
}
