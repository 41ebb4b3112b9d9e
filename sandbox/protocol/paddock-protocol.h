/* paddock-protocol.h: the control protocol between paddock-run and its clients
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JSON, one object per line, over unix stream sockets; every message has a
 * "type". paddock-run sends hello, exec, ask, decided, net, secret, exit,
 * error, notice (what it would otherwise print on the session's terminal:
 * rules it cannot read, an answer it cannot remember), and lock-status
 * (the reply to a lock-status, pause or resume request, with the state the
 * session is in); it echoes kill, pause and resume to every client once
 * done. Clients send decide, kill, pause,
 * resume and lock-status; one that sends decide or lock-status counts as
 * one who answers asks.
 *
 * Secrets (paddock-secret, see sandbox/supervisor/paddock-vault-broker.h):
 * a program that asks for a secret is an ask with "kind": "secret", its
 * "name" and the program's "sha256" (an exec's ask has no kind); its id
 * is taken from the exec events' sequence, so decide and decided work as
 * for an exec. Every use of a secret, asked or not, is a secret message:
 * name, program, decision, by, sha256, argv, cwd, pid (the caller's), the
 * ask's id where there was one, and a reason for a refusal. No message
 * ever holds a secret's value.
 *
 * The network lock (--net=locked): a connection to a host nobody listed
 * is an ask with "kind": "host", its "host" and "port" and the asking
 * program's pid, exe, argv and cwd. Every connection the proxy decides is
 * a net message: host, port, decision, by, pid, exe, rule, the ask's id
 * where there was one, a reason for a refusal; at its end ("kind":
 * "end") also the address reached, bytes_in, bytes_out and duration.
 *
 * The home folder under the lock (see sandbox/lock/paddock-home.h): the
 * first read of an entry the agent is asked about is an ask with "kind":
 * "home", the entry as "path" (canonical), the file first tried below it
 * as "name" (absent for the entry itself), and the reading process's pid,
 * exe, argv and cwd. Every attempt the lock refuses or asks about is a
 * home message: path, name, decision, by, pid, exe, the ask's id where
 * there was one, and a reason for a refusal. Parsing is strict: a message with an
 * unknown type or field, a field of the wrong type, or a required field
 * missing is refused with an error naming the field.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define PADDOCK_PROTOCOL_VERSION 1

/* The longest line either side accepts, newline excluded. Client requests
 * are small; supervisor events carry bounded argv (see paddock-exec-monitor.h). */
#define PADDOCK_PROTOCOL_MAX_REQUEST_LINE  (64 * 1024)
#define PADDOCK_PROTOCOL_MAX_EVENT_LINE    (4 * 1024 * 1024)

#define PADDOCK_PROTOCOL_ERROR (paddock_protocol_error_quark ())

typedef enum
{
  PADDOCK_PROTOCOL_ERROR_INVALID,     /* not JSON, not an object, bad field */
  PADDOCK_PROTOCOL_ERROR_UNKNOWN_TYPE,
  PADDOCK_PROTOCOL_ERROR_TOO_LONG,
} PaddockProtocolError;

typedef enum
{
  PADDOCK_MESSAGE_HELLO = 1,
  PADDOCK_MESSAGE_EXEC,
  PADDOCK_MESSAGE_ASK,
  PADDOCK_MESSAGE_DECIDED,
  PADDOCK_MESSAGE_NET,
  PADDOCK_MESSAGE_SECRET,
  PADDOCK_MESSAGE_EXIT,
  PADDOCK_MESSAGE_ERROR,
  PADDOCK_MESSAGE_DECIDE,
  PADDOCK_MESSAGE_KILL,
  PADDOCK_MESSAGE_PAUSE,
  PADDOCK_MESSAGE_RESUME,
  PADDOCK_MESSAGE_LOCK_STATUS,
  PADDOCK_MESSAGE_NOTICE,
  PADDOCK_MESSAGE_HOME,
} PaddockMessageType;

typedef enum
{
  PADDOCK_DECISION_NONE = 0,
  PADDOCK_DECISION_ALLOW,
  PADDOCK_DECISION_DENY,
  PADDOCK_DECISION_ASK,
} PaddockDecision;

/* How long a decision made on an ask is remembered. */
typedef enum
{
  PADDOCK_REMEMBER_ONCE = 0,
  PADDOCK_REMEMBER_SESSION,
  PADDOCK_REMEMBER_PROJECT,
} PaddockRemember;

/* One message, either direction. Which fields are meaningful depends on the
 * type; strings are NULL and numbers -1 when absent. Times are microseconds: wall clock since the epoch, monotonic
 * since boot. */
typedef struct
{
  PaddockMessageType type;

  /* hello, lock-status */
  int              version;
  char            *session;       /* session id */
  char            *project;
  char           **command;
  int              agent_pid;
  char            *lock;          /* "off", "landlock", "namespaces"; in paddock-run
                                   * --lock-status --json, the lock a session would get
                                   * here, or "none" and the reason why none */
  char            *network;       /* "off", "on" */
  char           **features;      /* kernel features in use: the exec monitor's
                                   * ("seccomp-user-notif", "sync-wake-up", …) and,
                                   * under a lock, what the lock enforces:
                                   * "landlock-abi-N", "lock-files", "lock-truncate",
                                   * "lock-ioctl-dev", "lock-signals",
                                   * "lock-abstract-unix-sockets",
                                   * "lock-named-unix-sockets", "lock-denied-folders",
                                   * "lock-metadata", "lock-terminals",
                                   * "lock-home-asked", "lock-ipc",
                                   * "lock-other-processes", "lock-seccomp",
                                   * "lock-no-new-privs"; under --net=locked
                                   * (and in paddock-run --lock-status --json,
                                   * where it can start here) "net-namespace"
                                   * or "net-landlock-tcp" */
  char           **denied;        /* lock-status: what the lock keeps from the agent,
                                   * canonical paths (the built-in credential stores,
                                   * the system's secrets, the user's own additions) */
  char           **home_open;     /* lock-status: the home folder's entries the agent
                                   * reads unasked, canonical paths */
  char           **home_asked;    /* lock-status: the entries it is asked about, as
                                   * canonical paths (a folder ending in "/" stands for
                                   * each folder below it, as ~/.config/) */
  gboolean         paused;

  /* exec, ask, decided, decide, exit */
  gint64           seq;           /* exec, exit: the event's sequence number */
  gint64           id;            /* ask, decided, decide: the ask (the seq of its exec) */
  gint64           time;          /* wall clock */
  gint64           mono;          /* monotonic */
  int              pid;
  int              ppid;
  char            *cwd;
  char            *exe;           /* resolved executable */
  char            *path;          /* the path as passed to exec */
  char           **argv;          /* recorded (bounded) arguments */
  gint64           argc;          /* how many there were */
  gboolean         truncated;     /* argv, path or cwd was cut short */
  char            *interpreter;   /* a script's #! interpreter and its argument, or NULL */
  char            *pipeline;      /* "WRITER | SHELL" where this exec is one end of a pipe a
                                   * shell reads its script from, at most
                                   * PADDOCK_EXEC_MAX_PIPELINE_SHOWN bytes and "…"; or NULL */
  gboolean         escaped;       /* parsed: the line said "escaped" (some string held bytes that
                                   * are not UTF-8); the strings hold those bytes again */
  PaddockDecision  decision;
  char            *rule;
  char            *reason;
  char            *by;            /* "rule", "user", "timeout", "no-client", "remembered", "default", "gone" */
  gint64           deadline;      /* ask: wall clock */
  PaddockRemember  remember;      /* decide, decided */
  int              client_pid;    /* decided: the client whose answer it was, as the session
                                     sees its pid; -1 when no client answered */

  /* exit */
  gboolean         session_end;   /* the agent itself exited and the session ends */
  gboolean         replaced;      /* the process ran another program (exec): this one ended, the process goes on */
  int              exit_code;     /* -1 when unknown or killed by a signal */
  int              signal;        /* -1 when none */
  gint64           duration;      /* microseconds, -1 when unknown */

  /* net, secret; ask of kind "secret" or "host" */
  char            *host;          /* net, ask of kind "host": the name the client asked for */
  int              port;
  char            *address;       /* net: the address it resolved to and was reached at */
  gint64           bytes_in;      /* net, at a connection's end: bytes to the agent */
  gint64           bytes_out;     /* net, at a connection's end: bytes from the agent */
  char            *name;          /* secret, ask: the secret's name, never its value */
  char            *program;       /* secret: the program that gets it, resolved */
  char            *kind;          /* ask, decided: "secret" for a program that asks for a
                                   * secret (paddock-secret run), "home" for a read of an
                                   * asked entry of the home folder, "host" for a connection
                                   * to a host nobody listed; "exec" or absent for an
                                   * exec's ask. net: "end" for a connection's end */
  char            *sha256;        /* secret, ask of kind "secret": the SHA-256 of the
                                   * program's file, 64 lowercase hex digits */

  /* error, notice */
  char            *message;
} PaddockMessage;

GQuark           paddock_protocol_error_quark   (void);

/* A boxed type, so signals can carry a message. */
#define PADDOCK_TYPE_MESSAGE (paddock_message_get_type ())
GType            paddock_message_get_type       (void) G_GNUC_CONST;

PaddockMessage  *paddock_message_new            (PaddockMessageType    type);
void             paddock_message_free           (PaddockMessage       *message);
PaddockMessage  *paddock_message_copy           (const PaddockMessage *message);

/* Parses one line (without its newline, need not be NUL-terminated). */
PaddockMessage  *paddock_message_parse          (const char           *line,
                                                 gsize                 length,
                                                 GError              **error);
/* The message as one JSON line, ending in "\n". */
char            *paddock_message_to_line        (const PaddockMessage *message);

const char      *paddock_message_type_to_string (PaddockMessageType    type);
const char      *paddock_decision_to_string     (PaddockDecision       decision);
gboolean         paddock_decision_from_string   (const char           *string,
                                                 PaddockDecision      *decision);
const char      *paddock_remember_to_string     (PaddockRemember       remember);

/* An exec's command line as a person should see it, escaped for display.
 * Where argv[0] names another program than the one that runs (`exec -a ls
 * rm`, a program run from memory or through a descriptor), the line starts
 * with the real one's name, and says what argv[0] called it: a timeline
 * never shows a command under a name it chose for itself. A script's #!
 * @interpreter (or NULL), which is what runs, follows, then the
 * @pipeline (or NULL) it is in, as the policy judged it. */
char            *paddock_exec_display_line      (const char           *path,
                                                 const char           *exe,
                                                 const char           *interpreter,
                                                 const char           *pipeline,
                                                 const char * const   *argv);

/* What the agent read in the home folder (a home message's or a home
 * ask's @path, and @name below it, or NULL), as a person should see it:
 * escaped for display, the user's home folder as "~" ("~/.m2/settings.xml"). */
char            *paddock_home_display_path      (const char           *path,
                                                 const char           *name);

/* Whether a message of @type may come from a client. */
gboolean         paddock_message_type_is_request (PaddockMessageType   type);

/* Whether the exec @message is @denied's process trying the same command
 * again at another path of the same name, and denied again by the same
 * rule: a shell's PATH search (/usr/bin/dd, then /bin/dd on a merged
 * /usr), one refusal to a person. @denied may be NULL. */
gboolean         paddock_message_is_path_retry  (const PaddockMessage *denied,
                                                 const PaddockMessage *message);

/* Splits a byte stream into lines no longer than a cap. Lines over the cap
 * are dropped whole (up to their newline) and reported once each. */
typedef struct _PaddockLineReader PaddockLineReader;

typedef enum
{
  PADDOCK_LINE_NONE,       /* need more input */
  PADDOCK_LINE_OK,         /* *line / *length hold one line, valid until the next call */
  PADDOCK_LINE_TOO_LONG,   /* a line over the cap was (or is being) dropped */
} PaddockLineResult;

PaddockLineReader *paddock_line_reader_new   (gsize              max_line);
void               paddock_line_reader_free  (PaddockLineReader *reader);
void               paddock_line_reader_feed  (PaddockLineReader *reader,
                                              const char        *data,
                                              gsize              length);
PaddockLineResult  paddock_line_reader_next  (PaddockLineReader *reader,
                                              const char       **line,
                                              gsize             *length);
/* Bytes of an unfinished line held at the end of input. */
gsize              paddock_line_reader_pending (PaddockLineReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockMessage, paddock_message_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockLineReader, paddock_line_reader_free)

G_END_DECLS
