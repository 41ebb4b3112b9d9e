/* test-session.h: the harness of the tests that run paddock-run on a fake agent
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by test-exec-monitor, test-asks, test-download, test-control,
 * test-pause-kill and test-protocol: each starts sessions (paddock-run on
 * tests/fake-agent.sh, or on a command of its own), talks to them as a
 * client does, and reads what they left: the agent's out dir, the
 * protocol's messages, the audit log.
 */
#pragma once

#include "paddock-client.h"
#include "paddock-protocol.h"
#include "test-util.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sys/resource.h>

/* The programs under test, set by test_session_init(). */
extern const char *paddock_run;
extern char       *paddockctl;
extern char       *fake_agent;
extern char       *self_exe;    /* this test program, which the agent runs as a helper */

/* Handles `--helper NAME …`, which the fake agent runs as
 * $PADDOCK_TEST_HELPER (connect: a peer inside the agent's tree that
 * tries to approve something; junk: execs with argv that are no text),
 * and exits; otherwise g_test_init() and the programs under test. Call it
 * first thing in main(). */
void test_session_init (int    *argc,
                        char ***argv);

typedef struct
{
  char              *dir;
  char              *out;
  char              *audit;
  char              *runtime;
  GSubprocess       *run;
  PaddockClient     *client;       /* on our end of --control-fd, or session_connect()'s; or NULL */
  int                raw_fd;       /* a dup of --control-fd's end, for session_send_raw() alone; or -1 */
  GQueue             messages;     /* PaddockMessage *, what the client told and was not read yet */
  GError            *closed_error; /* why the client closed, where it did with an error */
  GPtrArray         *seen;         /* every message read */
} Session;

void session_free (Session *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Session, session_free)

/* A limit paddock-run is started with, where a test sets one: point
 * spawn_limit at it for the session_start*() call, then back to NULL. */
typedef struct
{
  int           resource;
  struct rlimit limit;
} SpawnLimit;

extern SpawnLimit *spawn_limit;

/* --- starting and ending a session ------------------------------------------ */

/* Runs @command (NULL: the fake agent's @scenario) under paddock-run, with
 * a client on --control-fd where @with_client, and the options @extra; in
 * @command, "@OUT@" at the start of an argument stands for the out dir. */
Session *session_start_command (const char         *scenario,
                                const char * const *command,
                                gboolean            with_client,
                                const char * const *extra);
Session *session_start         (const char         *scenario,
                                gboolean            with_client,
                                const char * const *extra);
/* session_start() under the default policy, as it ships, and with
 * --on-ask @on_ask unless it is NULL. */
Session *session_start_shipped (const char         *scenario,
                                gboolean            with_client,
                                const char         *on_ask);
/* paddock-run's exit status, or 128 + N where signal N ended it. */
int      session_wait          (Session            *s);
/* A launcher with the session's XDG folders (and so its control socket). */
GSubprocessLauncher *launcher_new (Session *s);

/* How long a test waits for what a session is to do, at most: a busy
 * machine may take its time, a failed test need not take for ever. */
#define TEST_SESSION_WAIT_SECONDS 60

/* For an agent given as `sh -c SCRIPT sh @OUT@`: waits until the test
 * says go (session_go()), or a minute at the least. The file appears
 * whole (renamed into place), so that it is there is the test's word. */
#define WAIT_FOR_GO "i=0; while [ ! -e \"$1/go\" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done"

/* For an inline agent's script: `w "$1" NAME` waits, a minute at the
 * least, for the file NAME in the out dir ($1), as the fake agent's
 * wait_for does. */
#define SH_WAIT_FOR "w () { i=0; while [ ! -e \"$1/$2\" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done; }; "

/* Lets the fake agent go on past its wait_for "go". */
void session_go    (Session    *s);
/* Lets it go on past its wait for @name: the file appears, whole. */
void session_go_on (Session    *s,
                    const char *name);

/* --- the client ------------------------------------------------------------ */

/* The session's PaddockClient: every message it tells is queued, and
 * read from the queue in order. It reads only while the default main
 * context runs: in session_read(), or wherever else a test iterates it. */

/* The next message, or NULL after @timeout_ms or once the client is
 * closed and all it told has been read. Fails the test on a line that
 * is not a message. */
PaddockMessage *session_read    (Session           *s,
                                 int                timeout_ms);
/* The next message of @type, the ones before it skipped
 * (TEST_SESSION_WAIT_SECONDS at most). */
PaddockMessage *session_expect  (Session           *s,
                                 PaddockMessageType type);
/* Sends a kill, pause, resume or lock-status request; the session's
 * reply (an echo, a lock-status) comes to session_read(). On return it
 * is in the socket, as are the client's earlier requests (unless the
 * socket is full: the session has stopped reading). */
void            session_request (Session           *s,
                                 PaddockMessageType type);
/* Answers the ask @id with @decision ("allow" or "deny"), remembered as
 * @remember says ("once", "session", "project"; NULL: once), through
 * the client; in the socket on return, as with session_request(). */
void session_decide_remember (Session    *s,
                              gint64      id,
                              const char *decision,
                              const char *remember);
void session_decide          (Session    *s,
                              gint64      id,
                              const char *decision);
/* Connects to the session's control socket, as paddockctl does, in
 * place of the client @s had (closed, if still open). The greeting the
 * client waited for is the first message read. */
void            session_connect    (Session        *s);

/* Only for tests of what paddock-run does with bytes no client sends
 * (garbage, a line cut short, a line of 10 MB): PaddockClient writes
 * whole, valid requests only. Sends @bytes, all of them, on the socket
 * of --control-fd, beside the client. */
void            session_send_raw   (Session        *s,
                                    const char     *bytes);
/* Closes the connection, the client's descriptor and the raw one, as a
 * client that goes away does; whatever it had not read is dropped. */
void            session_disconnect (Session        *s);

/* A GAsyncReadyCallback that keeps the result in the GAsyncResult * at
 * @user_data, for wait_for_result(). */
void            store_result       (GObject        *object,
                                    GAsyncResult   *result,
                                    gpointer        user_data);
/* Runs the default main context until *@slot holds a result; returns it. */
GAsyncResult   *wait_for_result    (GAsyncResult  **slot);
/* Runs the default main context for @ms milliseconds: for a test that
 * measures what a session does meanwhile, never to wait for an event. */
void            run_main_context   (guint           ms);

/* Closes *@client, waits for its pending reads and writes to end (the
 * default main context runs meanwhile) and lets it go; *@client becomes
 * NULL. For a test's own clients, which must be gone before it ends; a
 * request's GAsyncResult holds its client, and must be let go first. */
void            client_close_and_free (PaddockClient **client);

/* --- what the agent and paddock-run left ------------------------------------ */

char    *out_file        (Session    *s,
                          const char *name);
gboolean out_exists      (Session    *s,
                          const char *name);
/* Whether @name is in @s's folder within @seconds (looked for every 50
 * ms): only for a file that appears whole, an empty marker or one renamed
 * into place. A file that is written after it is made is read with
 * wait_for_out_lines(). */
gboolean wait_for_out    (Session    *s,
                          const char *name,
                          guint       seconds);
/* The text of @name in the out dir once @n of its whole lines hold
 * @needle (NULL: once it has @n whole lines); fails the test after
 * TEST_SESSION_WAIT_SECONDS. */
char    *wait_for_out_lines (Session    *s,
                             const char *name,
                             const char *needle,
                             guint       n);
/* The text of @name in the out dir; "" where there is none. */
char    *out_text        (Session    *s,
                          const char *name);
/* What paddock-run (and the agent, which shares it) wrote to stderr. */
char    *runner_err_text (Session    *s);

/* How many whole lines of @text hold @needle. */
guint count_lines    (const char *text,
                      const char *needle);
/* The text of @path once @n of its whole lines hold @needle (a file
 * another process is writing), or as it is after
 * TEST_SESSION_WAIT_SECONDS. */
char *wait_for_lines (const char *path,
                      const char *needle,
                      guint       n);
/* Waits until @s's paddock-run says it is out of descriptors: its
 * programs hold them. Returns what it said. */
char *wait_out_of_descriptors (Session *s);

/* The fields of /proc/PID/stat after the command's name, the state
 * (field 3 of stat(5)) first; none where there is no name to skip. */
GStrv process_stat_fields (int pid);

/* --- the audit log ---------------------------------------------------------- */

/* The audit log's records of @type (NULL: all), in order: its whole
 * lines, so that it may be read while paddock-run writes it. */
GPtrArray  *audit_records       (Session    *s,
                                 const char *type);
/* Waits (TEST_SESSION_WAIT_SECONDS at most) for the session's audit log
 * to hold @n records of @type, whole lines. */
void        wait_for_records    (Session    *s,
                                 const char *type,
                                 guint       n);
/* The exec record whose command line mentions @needle. */
JsonObject *audit_exec_with     (GPtrArray  *execs,
                                 const char *needle);
/* The exec record of the path @path as exec was given it, or NULL. */
JsonObject *audit_exec_at       (GPtrArray  *execs,
                                 const char *path);
/* The exec records whose path is @path, in the log's order. */
GPtrArray  *audit_execs_at      (GPtrArray  *execs,
                                 const char *path);
/* The first exec whose argv begins with @first and @second. */
JsonObject *find_exec_argv      (GPtrArray  *execs,
                                 const char *first,
                                 const char *second);
/* The exit record of the exec event @event, or NULL. */
JsonObject *find_exit           (GPtrArray  *exits,
                                 gint64      event);
/* The exec record of @line in @execs, which must be there, decided
 * @decision by the rule @rule (NULL: by none). */
JsonObject *assert_exec_decided (GPtrArray  *execs,
                                 const char *line,
                                 const char *decision,
                                 const char *rule);
/* The log's chain of digests holds, up to the session's end. */
void        assert_chain_holds  (Session    *s);

/* --- paddockctl ------------------------------------------------------------- */

/* The session's id, once its control socket listens. */
char        *wait_for_socket (Session            *s);
/* Runs @argv to its end in the session's folders (test_run()). */
TestResult  *session_run     (Session            *s,
                              const char * const *argv);
/* Runs paddockctl @args… so. */
TestResult  *ctl_run         (Session            *s,
                              const char * const *args);
/* What `paddockctl audit show` prints of the session's log, its records
 * of @type only where @type is not NULL. */
char        *audit_show      (Session            *s,
                              const char         *type);
/* Runs `paddockctl COMMAND SESSION`, which must succeed and print the
 * session id and @says. */
void         assert_ctl_says (Session            *s,
                              const char         *command,
                              const char         *session,
                              const char         *says);

/* Reads @stream until a line holding @needle; returns all read. */
char *read_until  (GDataInputStream *stream,
                   const char       *needle);
/* What is left to read on @stream, up to its end. */
char *stream_text (GInputStream     *stream);

/* Runs `paddockctl attach @args…` (stdout and stderr piped; stdin piped,
 * or at its end from the start, /dev/null, where @closed_stdin) and reads
 * its output up to its status line: from then on it is attached, counted
 * as one who answers unless it only watches. Its output stream goes to
 * @lines; what it printed before and at the status line, to @seen. */
GSubprocess *attach_start  (Session             *s,
                            const char * const  *args,
                            gboolean             closed_stdin,
                            GDataInputStream   **lines,
                            char               **seen);
/* Waits for @attach to exit 0; returns what it wrote to stderr. */
char        *attach_finish (GSubprocess         *attach);

/* Lets the agent go with `paddockctl attach SESSION --answer allow
 * --remember session` attached, to the session's end, which must be a
 * clean exit. Returns all that attach printed. */
char *run_allowing_for_session (Session    *s,
                                const char *session);
/* Lists the session @s, whose agent waits for the test's go: `paddockctl
 * list` ends well, with nothing on stderr, and shows @session; what it
 * printed goes in @listed. Then watches it (attach --watch), whose
 * greeting holds @greeted, lets the agent go, and returns the timeline
 * attach shows up to the session's end, which it reaches with nothing on
 * stderr. */
char *list_and_watch           (Session    *s,
                                const char *session,
                                char      **listed,
                                const char *greeted);
