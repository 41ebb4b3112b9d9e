/* test-download.c: provenance: what downloads, clones and archives saved, and pipes into shells
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file a download saved (or a clone, or tar from a downloaded archive)
 * is asked about when run, under the default policy as it ships; a
 * pipeline into a shell is judged as the script it is.
 * See test-session.h for the sessions they run.
 */
#include "config.h"

#include "test-session.h"

#include "paddock-exec-monitor.h"

#include <stdlib.h>
#include <string.h>

/* `fetch-marker | sh` is two programs, neither of which says what the
 * other does: the shell is judged as the pipeline, by the rules that read
 * scripts, whichever of the two runs first, through a filter too, and
 * so is bash <(fetch-marker), which runs a pipe its operand names, and a
 * shell that env runs. The
 * same pipelines from another writer run (they all ran before). Started
 * together, as a shell starts a pipeline, the writer's exec is often let
 * go on but not yet done when the shell's comes: /proc still shows the
 * program it replaces (about half of these ran, before). */
static void
test_piped_script (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    "cd \"$1\" && printf '#!/bin/sh\\necho touch ran-$1\\nsleep ${2:-1}\\n' >fetch-marker && cp fetch-marker fetch-other && "
    "chmod +x fetch-marker fetch-other && "
    "./fetch-marker 1 | (sleep 0.5; exec sh); "
    "(sleep 0.5; exec ./fetch-marker 2) | sh; "
    "(sleep 0.5; exec ./fetch-marker 3) | cat | sh; "
    "./fetch-other 4 | (sleep 0.5; exec sh); "
    "(sleep 0.5; exec ./fetch-other 5) | sh; "
    "bash -c 'bash <(./fetch-marker 6)'; "
    "bash -c 'bash <(./fetch-other 7)'; "
    "./fetch-marker 10 | (sleep 0.5; exec env FOO=1 sh); "
    "for i in 0 1 2 3 4 5 6 7 8 9; do ./fetch-marker 8$i 0.2 | sh; bash -c \"bash <(./fetch-marker 9$i 0.2)\"; done; "
    /* Whichever of the last pipeline's programs was refused. */
    "exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  static const char * const expected[] = {
    "/bin/sh ./fetch-marker 1 | sh",
    "/bin/sh ./fetch-marker 2 | sh",
    "/bin/sh ./fetch-marker 3 | cat | sh",
    "/bin/sh ./fetch-marker 6 | bash /dev/fd/",
    "/bin/sh ./fetch-marker 10 | env FOO=1 sh",
    "/bin/sh ./fetch-marker 8",
    "/bin/sh ./fetch-marker 9",
  };
  g_autoptr(GPtrArray) execs = NULL;
  g_autofree char *shown = NULL;
  guint denied = 0;

  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_false (out_exists (s, "ran-1"));
  g_assert_false (out_exists (s, "ran-2"));
  g_assert_false (out_exists (s, "ran-3"));
  g_assert_true (out_exists (s, "ran-4"));
  g_assert_true (out_exists (s, "ran-5"));
  g_assert_false (out_exists (s, "ran-6"));
  g_assert_true (out_exists (s, "ran-7"));
  g_assert_false (out_exists (s, "ran-10"));
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *piped = g_strdup_printf ("ran-8%u", i);
      g_autofree char *substituted = g_strdup_printf ("ran-9%u", i);

      if (out_exists (s, piped) || out_exists (s, substituted))
        g_error ("%s or %s ran", piped, substituted);
    }

  /* Each pipeline was denied at whichever of its programs ran second (a
   * shell once for each directory of its PATH search), by the rule, and
   * nothing else was. */
  execs = audit_records (s, "exec");
  for (guint i = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      const char *pipeline = json_object_get_string_member_with_default (record, "pipeline", "");
      guint which = G_N_ELEMENTS (expected);

      if (g_strcmp0 (json_object_get_string_member (record, "decision"), "deny") != 0)
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (expected); j++)
        if (j < 3 ? strcmp (pipeline, expected[j]) == 0 : g_str_has_prefix (pipeline, expected[j]))
          which = j;
      if (which == G_N_ELEMENTS (expected))
        g_error ("%s was denied (pipeline: %s)", json_object_get_string_member (record, "path"), pipeline);
      g_assert_cmpstr (json_object_get_string_member (record, "rule"), ==, "test-piped");
      denied |= 1u << which;
    }
  g_assert_cmpuint (denied, ==, (1u << G_N_ELEMENTS (expected)) - 1);

  shown = audit_show (s, "exec");
  g_assert_nonnull (strstr (shown, "./fetch-marker 2  (#!/bin/sh)  (pipeline: /bin/sh ./fetch-marker 2 | sh)  [test-piped]"));
}

/* A pipeline's command lines are each as long as an exec's may be: what
 * the timeline shows of it is cut, so that the exec's message stays one
 * a client reads (with two 240 KiB lines of control bytes, each escaped
 * six times over, it was longer, and the client had to drop it). The
 * writer runs once the shell has, so that its exec is the one judged as
 * the pipeline. */
static void
test_pipeline_bounds (void)
{
  g_autofree char *big = g_strnfill (120 * 1024, '\001');
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "cd \"$1\" && printf '#!/bin/sh\\nsleep 1\\n' >fetch-other && chmod +x fetch-other && "
    "(w \"$1\" go; exec ./fetch-other \"$2\" \"$2\") | sh -s \"$2\" \"$2\"",
    "sh", "@OUT@", big, NULL }, TRUE, NULL);
  g_autoptr(GPtrArray) execs = NULL;
  const PaddockMessage *writer = NULL;
  const char *pipeline;
  gboolean shell_ran = FALSE;

  /* The whole stream: session_read() fails on a line too long. */
  for (PaddockMessage *message; (message = session_read (s, 20000)) != NULL;)
    {
      if (!shell_ran && message->type == PADDOCK_MESSAGE_EXEC && message->argv != NULL &&
          g_strcmp0 (message->argv[0], "sh") == 0 && g_strcmp0 (message->argv[1], "-s") == 0)
        {
          shell_ran = TRUE;
          session_go (s);
        }
      paddock_message_free (message);
    }
  g_assert_true (shell_ran);
  g_assert_cmpint (session_wait (s), ==, 0);

  for (guint i = 0; i < s->seen->len; i++)
    {
      const PaddockMessage *message = g_ptr_array_index (s->seen, i);

      if (message->type == PADDOCK_MESSAGE_EXEC && g_strcmp0 (message->path, "./fetch-other") == 0)
        writer = message;
    }
  g_assert_nonnull (writer);
  g_assert_nonnull (writer->pipeline);
  g_assert_true (g_str_has_prefix (writer->pipeline, "/bin/sh ./fetch-other \001\001"));
  g_assert_true (g_str_has_suffix (writer->pipeline, "…"));
  g_assert_cmpuint (strlen (writer->pipeline), <=, PADDOCK_EXEC_MAX_PIPELINE_SHOWN + strlen ("…"));

  execs = audit_records (s, "exec");
  pipeline = json_object_get_string_member (audit_exec_at (execs, "./fetch-other"), "pipeline");
  g_assert_cmpstr (pipeline, ==, writer->pipeline);
}

/* An answer remembered for a pipeline into a shell holds for that
 * pipeline, whichever of its programs starts first, and not for another
 * writer's: the first ask is answered "session", the same pipeline in the
 * other order runs without an ask, and one from another writer asks. The
 * first pipeline's writer runs once its shell has (the audit log says
 * so), so that it is the writer that is asked. */
static void
test_remember_pipeline (void)
{
  g_autoptr(Session) s = session_start_command (NULL, (const char *[]) {
    "sh", "-c",
    SH_WAIT_FOR
    "w \"$1\" go; "
    "cd \"$1\" && printf '#!/bin/sh\\necho touch ran-$1\\nsleep 1\\n' >fetch-asked && chmod +x fetch-asked && "
    "(w \"$1\" shell-ran; exec ./fetch-asked 1) | sh; "
    "./fetch-asked 1 | (sleep 0.5; exec sh); "
    "./fetch-asked 2 | (sleep 0.5; exec sh); exit 0",
    "sh", "@OUT@", NULL }, FALSE, NULL);
  g_autofree char *session = wait_for_socket (s);
  g_autoptr(GPtrArray) decisions = NULL;
  g_autoptr(GPtrArray) execs = NULL;
  g_autoptr(GSubprocess) attach = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *rest = NULL;
  const char *got[3] = { NULL };

  attach = attach_start (s, (const char *[]) { session, "--answer", "allow", "--remember", "session", NULL },
                         TRUE, &lines, &seen);
  session_go (s);
  {
    const char *shell = "\"argv\":[\"sh\"]";
    g_autofree char *log = wait_for_lines (s->audit, shell, 1);

    g_assert_cmpuint (count_lines (log, shell), >=, 1);
  }
  session_go_on (s, "shell-ran");
  rest = read_until (lines, "session ended");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_free (attach_finish (attach));

  g_assert_true (out_exists (s, "ran-1"));
  g_assert_true (out_exists (s, "ran-2"));
  decisions = audit_records (s, "decision");
  g_assert_cmpuint (decisions->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (decisions, 0), "remember"), ==, "session");

  /* Each pipeline's one record with it: the writer's, then the shell's
   * twice. */
  execs = audit_records (s, "exec");
  for (guint i = 0, n = 0; i < execs->len; i++)
    {
      JsonObject *record = g_ptr_array_index (execs, i);
      const char *pipeline = json_object_get_string_member_with_default (record, "pipeline", NULL);

      if (pipeline == NULL || !g_str_has_prefix (pipeline, "/bin/sh ./fetch-asked"))
        continue;
      g_assert_cmpuint (n, <, G_N_ELEMENTS (got));
      g_assert_cmpstr (pipeline, ==, n < 2 ? "/bin/sh ./fetch-asked 1 | sh" : "/bin/sh ./fetch-asked 2 | sh");
      got[n++] = json_object_get_string_member (record, "by");
      if (n == 2)
        g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "allow");
      else
        g_assert_cmpstr (json_object_get_string_member (record, "decision"), ==, "ask");
    }
  g_assert_cmpstr (got[1], ==, "remembered");
  g_assert_nonnull (got[2]);
  /* attach showed both asks with their pipelines. */
  g_assert_nonnull (strstr (rest, "ASK    ./fetch-asked 1  (#!/bin/sh)  (pipeline: /bin/sh ./fetch-asked 1 | sh)  [test-piped-ask]"));
  g_assert_nonnull (strstr (rest, "(pipeline: /bin/sh ./fetch-asked 2 | sh)  [test-piped-ask]"));
}

/* Runs @scenario with no client, refused and then allowed by --on-ask.
 * Each step of @asked (its name, and its command line) runs a downloaded
 * file: refused by run-downloaded-file, with no client, or let run,
 * leaving @asked_markers. Each of @free runs without a rule, and @markers
 * are left either way. */
static void
check_downloaded_runs (const char         *scenario,
                       const char * const *asked,
                       const char * const *asked_markers,
                       const char * const *free,
                       const char * const *markers)
{
  for (guint allow = 0; allow < 2; allow++)
    {
      g_autoptr(Session) s = session_start_shipped (scenario, FALSE, allow ? "allow" : "deny");
      const char *decision = allow ? "allow" : "deny";
      g_autoptr(GPtrArray) execs = NULL;
      g_autofree char *log = NULL;

      g_assert_cmpint (session_wait (s), ==, 0);
      log = out_text (s, "log");
      g_test_message ("%s", log);
      execs = audit_records (s, "exec");
      for (guint i = 0; asked[i] != NULL; i += 2)
        {
          g_autofree char *step = g_strdup_printf ("\n%s=%d\n", asked[i], allow ? 0 : 126);
          JsonObject *record;

          g_assert_nonnull (strstr (log, step));
          record = assert_exec_decided (execs, asked[i + 1], decision, "run-downloaded-file");
          g_assert_cmpstr (json_object_get_string_member (record, "by"), ==, "no-client");
        }
      for (guint i = 0; asked_markers[i] != NULL; i++)
        g_assert_cmpint (out_exists (s, asked_markers[i]), ==, allow);
      for (guint i = 0; free[i] != NULL; i += 2)
        {
          g_autofree char *step = g_strdup_printf ("\n%s=0\n", free[i]);

          g_assert_nonnull (strstr (log, step));
          if (free[i + 1] != NULL)
            assert_exec_decided (execs, free[i + 1], "allow", NULL);
        }
      for (guint i = 0; markers[i] != NULL; i++)
        g_assert_true (out_exists (s, markers[i]));
    }
}

/* Runs @scenario with a client that lets its first ask, about a
 * downloaded file, go on: that file left @marker. Returns the session
 * ended, with the ask in @ask and the exec records in @execs. */
static Session *
allow_downloaded_run (const char      *scenario,
                      const char      *marker,
                      PaddockMessage **ask,
                      GPtrArray      **execs)
{
  Session *s = session_start_shipped (scenario, TRUE, NULL);

  *ask = session_expect (s, PADDOCK_MESSAGE_ASK);
  g_assert_cmpstr ((*ask)->rule, ==, "run-downloaded-file");
  session_decide (s, (*ask)->id, "allow");
  g_assert_cmpint (session_wait (s), ==, 0);
  g_assert_true (out_exists (s, marker));
  *execs = audit_records (s, "exec");
  return s;
}

/* A script downloaded in one command and run in the next is asked about
 * (the default policy's run-downloaded-file): with no client to answer,
 * it is refused and never runs; allowed, it runs. A script the agent
 * wrote itself runs either way, and so does the download. */
static void
test_download_then_run (void)
{
  /* The second of the two is refused, or let through with no one to
   * look: still unread. j.sh was saved by the shell from the download's
   * standard output, served-k.sh under a name the server sent (-J). */
  check_downloaded_runs ("download-then-run",
                         (const char *[]) { "downloaded", "sh i.sh", "downloaded-again", "sh i.sh",
                                            "run-redirected", "sh j.sh", "run-server-named", "sh served-k.sh",
                                            NULL },
                         (const char *[]) { "i.sh-marker", "j.sh-marker", "k.sh-marker", NULL },
                         (const char *[]) { "download", NULL, "local", "sh local.sh", "redirected", NULL,
                                            "server-named", NULL, NULL },
                         (const char *[]) { "local-marker", NULL });

  /* Asked of a client, the question says which file runs, and which
   * download saved it. Once a user let it run, the file counts as read:
   * its second run is not asked about (it was before). */
  {
    g_autoptr(Session) s = session_start_shipped ("download-then-run", TRUE, NULL);
    g_autoptr(PaddockMessage) ask = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_autoptr(GPtrArray) execs = NULL;
    g_autofree char *expected = NULL;
    g_autoptr(PaddockMessage) second = NULL;
    g_autoptr(PaddockMessage) third = NULL;
    JsonObject *download;

    g_assert_cmpstr (ask->rule, ==, "run-downloaded-file");
    session_decide (s, ask->id, "allow");
    second = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_assert_cmpstr (second->rule, ==, "run-downloaded-file");
    g_assert_cmpstr (second->argv[1], ==, "j.sh");
    session_decide (s, second->id, "deny");
    third = session_expect (s, PADDOCK_MESSAGE_ASK);
    g_assert_cmpstr (third->argv[1], ==, "served-k.sh");
    g_assert_nonnull (strstr (third->reason, "-fsSL -OJ https://x.example/k.sh"));
    session_decide (s, third->id, "deny");
    g_assert_cmpint (session_wait (s), ==, 0);
    g_assert_true (out_exists (s, "i.sh-marker"));
    g_assert_false (out_exists (s, "j.sh-marker"));
    execs = audit_records (s, "exec");
    download = audit_exec_with (execs, "https://x.example/i.sh");
    g_assert_nonnull (download);
    expected = g_strdup_printf ("Runs a file downloaded earlier in this session (by curl or wget, or tee from "
                                "them, in a git clone, or unpacked from a downloaded archive), without anyone "
                                "reading it. It runs %s/work/i.sh, which #%" G_GINT64_FORMAT " saved: "
                                "%s/bin/curl -fsSL -o i.sh https://x.example/i.sh",
                                s->out, json_object_get_int_member (download, "event"), s->out);
    g_assert_cmpstr (ask->reason, ==, expected);
  }
}

/* What a clone of a remote repository wrote, run in a later command, is
 * asked about (no client: refused, or let through with --on-ask allow);
 * what a clone of a local folder wrote, or a file written into the
 * clone's folder after it ended, is not. Asked of a client, the question
 * names the clone, and once let run the file counts as read. Before, the
 * clone's files ran unasked. */
static void
test_clone_then_run (void)
{
  check_downloaded_runs ("clone-then-run",
                         (const char *[]) { "cloned", "sh tool/install.sh", "cloned-again", "./tool/install.sh", NULL },
                         (const char *[]) { "tool.git-marker", NULL },
                         (const char *[]) { "clone", NULL, "local-clone", NULL, "copied", "sh copy/install.sh",
                                            "built", "sh tool/built.sh", NULL },
                         (const char *[]) { "tool-marker", "built-marker", NULL });

  {
    g_autoptr(PaddockMessage) ask = NULL;
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = allow_downloaded_run ("clone-then-run", "tool.git-marker", &ask, &execs);
    g_autofree char *expected = NULL;
    JsonObject *clone;

    clone = audit_exec_with (execs, "https://x.example/tool.git");
    g_assert_nonnull (clone);
    expected = g_strdup_printf ("It runs %s/work/tool/install.sh, which #%" G_GINT64_FORMAT " saved: "
                                "%s/bin/git clone https://x.example/tool.git",
                                s->out, json_object_get_int_member (clone, "event"), s->out);
    g_assert_true (g_str_has_suffix (ask->reason, expected));
    /* Let run once, asked: the second run, as a program, was not asked about. */
    assert_exec_decided (execs, "./tool/install.sh", "allow", NULL);
  }
}

/* An archive a download saved is unpacked, and its script run: asked
 * about, as a clone's is, though tar gave the file the time it was packed
 * with. A local archive's script, and one written after tar ended, are
 * not. */
static void
test_unpack_then_run (void)
{
  check_downloaded_runs ("unpack-then-run",
                         (const char *[]) { "unpacked", "sh t/install.sh", "unpacked-again", "./t/install.sh", NULL },
                         (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "download", NULL, "unpack", NULL, "local-unpack", NULL,
                                            "local", "sh into/l/install.sh", "built", "sh t/built.sh", NULL },
                         (const char *[]) { "local-marker", "built-marker", NULL });

  {
    g_autoptr(PaddockMessage) ask = NULL;
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = allow_downloaded_run ("unpack-then-run", "unpacked-marker", &ask, &execs);
    g_autofree char *expected = NULL;
    JsonObject *download;
    JsonObject *unpack;

    download = audit_exec_with (execs, "https://x.example/t.tgz");
    unpack = audit_exec_with (execs, "-xzf");
    g_assert_nonnull (download);
    g_assert_nonnull (unpack);
    /* Which run saved the file, and which the archive. */
    expected = g_strdup_printf ("It runs %s/work/t/install.sh, which #%" G_GINT64_FORMAT " saved: tar -xzf t.tgz "
                                "(its archive saved by #%" G_GINT64_FORMAT ": %s/bin/curl -fsSL -o t.tgz "
                                "https://x.example/t.tgz)",
                                s->out, json_object_get_int_member (unpack, "event"),
                                json_object_get_int_member (download, "event"), s->out);
    if (!g_str_has_suffix (ask->reason, expected))
      g_error ("the reason \"%s\" does not end in \"%s\"", ask->reason, expected);
    assert_exec_decided (execs, "./t/install.sh", "allow", NULL);
  }
}

/* Lets the next @n asks of @s, each about a downloaded file, go on, into
 * @asks, and waits for the session's end. Returns its exec records; the
 * first @n runs of the scenario's stand-in curl, in the order they ran,
 * go into @downloads. */
static GPtrArray *
allow_downloaded_runs (Session         *s,
                       PaddockMessage **asks,
                       JsonObject     **downloads,
                       guint            n)
{
  GPtrArray *execs;
  guint found = 0;

  for (guint i = 0; i < n; i++)
    {
      asks[i] = session_expect (s, PADDOCK_MESSAGE_ASK);
      g_assert_cmpstr (asks[i]->rule, ==, "run-downloaded-file");
      session_decide (s, asks[i]->id, "allow");
      downloads[i] = NULL;
    }
  g_assert_cmpint (session_wait (s), ==, 0);
  execs = audit_records (s, "exec");
  for (guint j = 0; j < execs->len && found < n; j++)
    {
      JsonObject *record = g_ptr_array_index (execs, j);
      JsonArray *argv = json_object_get_array_member (record, "argv");

      if (g_str_has_suffix (json_array_get_string_element (argv, 0), "/bin/curl"))
        downloads[found++] = record;
    }
  return execs;
}

/* A download piped into tar through other programs (gzip -d, in either
 * order; tee, which saves a copy too): what tar unpacked is asked about
 * when run, and the question names each run on the way. An archive
 * piped from a file through cat is not downloaded. Before, none was
 * asked. */
static void
test_filter_unpack_then_run (void)
{
  check_downloaded_runs ("filter-unpack-then-run",
                         (const char *[]) { "piped-h", "sh h/t/install.sh", "piped-i", "sh i/t/install.sh",
                                            "piped-j", "sh j/t/install.sh", NULL },
                         (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "curl-first", NULL, "tar-first", NULL, "tee-through", NULL,
                                            "local-filtered", NULL, "local", "sh k/l/install.sh", NULL },
                         (const char *[]) { "local-marker", NULL });

  {
    g_autoptr(GPtrArray) execs = NULL;
    g_autoptr(Session) s = session_start_shipped ("filter-unpack-then-run", TRUE, NULL);
    static const char * const filters[] = { "gzip -d", "gzip -dc", "tee copy.tgz" };
    static const char * const tars[] = { "tar x -C h", "tar x -C i", "tar xz -C j" };
    PaddockMessage *asks[3];
    JsonObject *downloads[3];

    execs = allow_downloaded_runs (s, asks, downloads, G_N_ELEMENTS (asks));
    for (guint i = 0; i < G_N_ELEMENTS (asks); i++)
      {
        JsonObject *filter = assert_exec_decided (execs, filters[i], "allow", NULL);
        JsonObject *tar = assert_exec_decided (execs, tars[i], "allow", NULL);
        g_autofree char *expected = NULL;

        g_assert_nonnull (downloads[i]);
        expected = g_strdup_printf ("which #%" G_GINT64_FORMAT " saved: %s (its archive piped from #%" G_GINT64_FORMAT
                                    ": %s (its input piped from #%" G_GINT64_FORMAT
                                    ": %s/bin/curl -fsSL https://x.example/t.tgz))",
                                    json_object_get_int_member (tar, "event"), tars[i],
                                    json_object_get_int_member (filter, "event"), filters[i],
                                    json_object_get_int_member (downloads[i], "event"), s->out);
        if (!g_str_has_suffix (asks[i]->reason, expected))
          g_error ("the reason \"%s\" does not end in \"%s\"", asks[i]->reason, expected);
        paddock_message_free (asks[i]);
      }
  }
}

/* A download piped into tar, whichever of the two runs first, an archive
 * a download saved unpacked from a redirection, and a download piped into
 * tee, in either order: what each saved is asked about when run, and the
 * question names both runs. An archive piped from cat, and a script from
 * echo, are not downloaded. Before, none was asked. */
static void
test_pipe_unpack_then_run (void)
{
  static const char * const asked[] = { "piped-a", "sh a/t/install.sh", "piped-b", "sh b/t/install.sh",
                                        "redirected-run", "sh c/t/install.sh", "teed-e", "sh e.sh",
                                        "teed-f", "sh f.sh", NULL };

  check_downloaded_runs ("pipe-unpack-then-run", asked, (const char *[]) { "unpacked-marker", NULL },
                         (const char *[]) { "curl-first", NULL, "tar-first", NULL, "download", NULL, "redirected", NULL,
                                            "local-unpack", NULL, "local", "sh d/l/install.sh", "tee-first", NULL,
                                            "curl-tee", NULL, "local-tee", NULL, "local-teed", "sh g.sh", NULL },
                         (const char *[]) { "local-marker", NULL });

  {
    g_autoptr(Session) s = session_start_shipped ("pipe-unpack-then-run", TRUE, NULL);
    PaddockMessage *asks[5] = { NULL, NULL, NULL, NULL, NULL };
    g_autoptr(GPtrArray) execs = NULL;
    /* The runs that saved each, and the downloads, in the order they ran. */
    static const char * const savers[] = { "tar xzf - -C a", "tar xz -C b", "tar xz -C c", "tee e.sh", "tee -a f.sh" };
    static const char * const runs[] = { "a/t/install.sh", "b/t/install.sh", "c/t/install.sh", "e.sh", "f.sh" };
    static const char * const urls[] = { "t.tgz", "t.tgz", "-o t.tgz https://x.example/t.tgz", "e.sh", "f.sh" };
    JsonObject *downloads[5];

    execs = allow_downloaded_runs (s, asks, downloads, G_N_ELEMENTS (asks));
    for (guint i = 0; i < G_N_ELEMENTS (asks); i++)
      {
        JsonObject *saver = assert_exec_decided (execs, savers[i], "allow", NULL);
        g_autofree char *expected = NULL;

        g_assert_nonnull (downloads[i]);
        expected = g_strdup_printf ("It runs %s/work/%s, which #%" G_GINT64_FORMAT " saved: %s (its %s #%" G_GINT64_FORMAT
                                    ": %s/bin/curl -fsSL %s%s)",
                                    s->out, runs[i], json_object_get_int_member (saver, "event"), savers[i],
                                    i < 2 ? "archive piped from" : i == 2 ? "archive saved by" : "input piped from",
                                    json_object_get_int_member (downloads[i], "event"), s->out,
                                    i == 2 ? "" : "https://x.example/", urls[i]);
        if (!g_str_has_suffix (asks[i]->reason, expected))
          g_error ("the reason \"%s\" does not end in \"%s\"", asks[i]->reason, expected);
        paddock_message_free (asks[i]);
      }
  }
}

int
main (int   argc,
      char *argv[])
{
  test_session_init (&argc, &argv);

  g_test_add_func ("/paddock/download/download-then-run", test_download_then_run);
  g_test_add_func ("/paddock/download/clone-then-run", test_clone_then_run);
  g_test_add_func ("/paddock/download/unpack-then-run", test_unpack_then_run);
  g_test_add_func ("/paddock/download/pipe-unpack-then-run", test_pipe_unpack_then_run);
  g_test_add_func ("/paddock/download/filter-unpack-then-run", test_filter_unpack_then_run);
  g_test_add_func ("/paddock/download/piped-script", test_piped_script);
  g_test_add_func ("/paddock/download/remember-pipeline", test_remember_pipeline);
  g_test_add_func ("/paddock/download/pipeline-bounds", test_pipeline_bounds);

  return g_test_run ();
}
