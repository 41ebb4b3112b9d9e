/* test-util.h: what several test programs share
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

/* Makes a private HOME with XDG_CONFIG_HOME, XDG_STATE_HOME and
 * XDG_RUNTIME_DIR in it and points the environment there, so that nothing
 * a test runs (paddock-run's audit logs, sockets) reaches the real ones;
 * call it before g_test_init(), which is before GLib caches them. Returns
 * the folder, for test_home_remove(). */
char *test_home_new    (void);
/* Removes @home and all it holds; frees @home. */
void  test_home_remove (char *home);

/* Removes @path and all it holds (rm -rf); nothing when @path is NULL.
 * A test that fails stops before it, and leaves its folder to look at. */
void  test_remove_tree (const char *path);

/* --- running a program ------------------------------------------------------
 *
 * The one way the tests run a program and collect what it did. */

/* What a program that ran to its end did. */
typedef struct
{
  int   status;  /* its exit code, or 128 + N where signal N ended it */
  int   signal;  /* N where signal N ended it, else 0 */
  char *out;     /* all it wrote to stdout, and to stderr: text, or bytes */
  char *err;
} TestResult;

void test_result_free (TestResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestResult, test_result_free)

/* How a program is run; every field may be left 0. */
typedef struct
{
  const char          *cwd;        /* NULL: ours */
  const char * const  *env;        /* NULL: ours */
  GSpawnChildSetupFunc setup;      /* runs in the child before its exec */
  gpointer             setup_data;
  /* The caller's, for what these fields do not say (descriptors to pass
   * on, say); its flags are set here, and its cwd, env and setup where
   * the fields above are given. NULL: a new one. */
  GSubprocessLauncher *launcher;
  guint                timeout;    /* s to run at most; 0: 60 */
  gboolean             quiet;      /* no message with the result */
} TestRunOptions;

/* Starts @argv (its first found along PATH where it has no slash) as
 * @options say (NULL: here, in our environment), standard input
 * /dev/null, standard output and error piped. Fails the test where it
 * cannot start. */
GSubprocess *test_spawn    (const char * const   *argv,
                            const TestRunOptions *options);
/* Reads what @proc, from test_spawn(), writes until it ends, and waits
 * for its end: its result, logged (unless quiet). Fails the test where it
 * runs longer than @options' timeout (it is killed then), or wrote a
 * sanitizer's report on stderr. */
TestResult  *test_finish   (GSubprocess          *proc,
                            const TestRunOptions *options);
/* test_spawn(), then test_finish(). */
TestResult  *test_run_full (const char * const   *argv,
                            const TestRunOptions *options);
TestResult  *test_run      (const char * const   *argv);

/* Under the sanitizer build a report ends a run with a failure that a
 * refused attempt would hide: test_finish() looks for one in every run's
 * stderr; a test that runs a program its own way calls this. */
void test_assert_no_sanitizer_report (const char *text);

/* The status a wait status says: the exit code, or 128 + N where signal N
 * ended the program; -1 for neither. */
int test_wait_status (int wait_status);

/* Drops to nobody (65534) for good: a GSpawnChildSetupFunc, or a forked
 * child's last step before execve(). Exits 125 where it cannot. */
void        test_become_nobody  (gpointer            user_data);
/* Runs @argv (its first element a path) with @env in @cwd, as nobody in a
 * user namespace (root's, mapped) where no further user namespace can be
 * made; its output goes through files in @scratch. Needs root. Returns its
 * result, logged; fails the test where it showed a sanitizer's report. */
TestResult *test_run_without_user_namespaces (const char * const *argv,
                                              const char * const *env,
                                              const char         *cwd,
                                              const char         *scratch);

/* Starts @argv (its first element a path) with @env in a new pty, 24 rows
 * by @columns, as its controlling terminal. Returns its pid; *@master is
 * the pty's other side. */
pid_t       test_pty_spawn      (const char * const *argv,
                                 const char * const *env,
                                 int                 columns,
                                 int                *master);
/* Reads from @master into @out until @what shows after @from (NULL: until
 * every holder of the pty is gone); FALSE if it does not, or after 60 s (a
 * bound, not a measure). */
gboolean    test_pty_read_until (int                 master,
                                 GString            *out,
                                 gsize               from,
                                 const char         *what);
void        test_pty_type       (int                 master,
                                 const char         *text);
/* test_pty_spawn(), 80 columns; types @input (where not NULL) once @when
 * shows (at once where NULL), reads until every holder of the pty is gone
 * and waits: its status, and all the pty showed as out (err is empty).
 * Fails the test where @when does not show, or the pty is held over 60 s,
 * or it showed a sanitizer's report. */
TestResult *test_run_in_pty     (const char * const *argv,
                                 const char * const *env,
                                 const char         *when,
                                 const char         *input);

/* --- the lock suites' start ---------------------------------------------- */

/* Takes --backend=NAME (default "landlock") out of the arguments, then
 * calls g_test_init(). Returns the backend, pointing into @argv. */
const char *test_lock_init        (int                *argc,
                                   char             ***argv);
/* Why no @backend lock can start here, as `@paddock_run --lock-status`
 * with @env (NULL: ours) says, for g_test_skip(); NULL where one can. */
char       *test_lock_unavailable (const char         *paddock_run,
                                   const char         *backend,
                                   const char * const *env);
