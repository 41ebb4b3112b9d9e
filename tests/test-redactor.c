/* test-redactor.c: the streaming redactor masks each form of a secret, however
 * the output is cut, and passes everything else through unchanged
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The encoded forms are made here by other encoders than the redactor's
 * (GLib's base64 and URI escaping, json-glib), so a form the redactor
 * builds wrong shows as a form left unmasked.
 */
#include "config.h"

#include "paddock-redactor.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define TOKEN "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s"

static const char pem_key[] =
  "-----BEGIN OPENSSH PRIVATE KEY-----\n"
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
  "QyNTUxOQAAACDn4Q0cW5vN8Ytk0Bx3fJ3lI2hP6c6m3a5nEw6QK0PpmAAAAJh0Zx4ldGce\n"
  "JQAAAAtzc2gtZWQyNTUxOQAAACDn4Q0cW5vN8Ytk0Bx3fJ3lI2hP6c6m3a5nEw6QK0PpmA\n"
  "AAAEAu6m1I0vX1a0Tz2oq7yY3uC9mXqS8fE1b4hN7kPj2WQufhDRxbm83xi2TQHHd8neUj\n"
  "aE/pzqbdrmcTDpArQ+mYAAAAEHRlc3RAcGFkZG9jay5vcmcBAgMEBQ==\n"
  "-----END OPENSSH PRIVATE KEY-----\n";

static PaddockRedactor *
redactor_with (const char *name,
               const char *value,
               ...)
{
  PaddockRedactor *redactor = paddock_redactor_new ();
  va_list args;

  va_start (args, value);
  while (name != NULL)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (paddock_redactor_add_secret (redactor, name, (const guint8 *) value, strlen (value), &error));
      g_assert_no_error (error);
      name = va_arg (args, const char *);
      if (name != NULL)
        value = va_arg (args, const char *);
    }
  va_end (args);
  return redactor;
}

/* @input through a fresh copy of @redactor, in pieces of @piece bytes
 * (all at once for 0), flushed at the end. */
static GByteArray *
redact_in_pieces (PaddockRedactor *redactor,
                  const guint8    *input,
                  gsize            len,
                  gsize            piece)
{
  g_autoptr(PaddockRedactor) copy = paddock_redactor_copy (redactor);
  GByteArray *out = g_byte_array_new ();

  if (piece == 0)
    piece = MAX (len, 1);
  for (gsize at = 0; at < len; at += piece)
    paddock_redactor_feed (copy, input + at, MIN (piece, len - at), out);
  paddock_redactor_flush (copy, out);
  g_assert_cmpuint (paddock_redactor_held (copy), ==, 0);
  return out;
}

static char *
redact_text (PaddockRedactor *redactor,
             const char      *input)
{
  g_autoptr(GByteArray) out = redact_in_pieces (redactor, (const guint8 *) input, strlen (input), 0);

  return g_strndup ((const char *) out->data, out->len);
}

static void
assert_bytes (GByteArray *out,
              const char *expected)
{
  g_autofree char *text = g_strndup ((const char *) out->data, out->len);

  g_assert_cmpuint (out->len, ==, strlen (expected));
  g_assert_cmpstr (text, ==, expected);
}

/* The token written one byte per write, and in two writes cut at every
 * byte of the line, comes out masked the same. */
static void
test_every_split (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, NULL);
  const char *input = "token: " TOKEN "\nagain:" TOKEN TOKEN "!";
  const char *expected = "token: «secret:gh»\nagain:«secret:gh»«secret:gh»!";
  gsize len = strlen (input);

  for (gsize piece = 0; piece <= 3; piece++)
    {
      g_autoptr(GByteArray) out = redact_in_pieces (redactor, (const guint8 *) input, len, piece);

      assert_bytes (out, expected);
    }

  for (gsize cut = 0; cut <= len; cut++)
    {
      g_autoptr(PaddockRedactor) copy = paddock_redactor_copy (redactor);
      g_autoptr(GByteArray) out = g_byte_array_new ();

      paddock_redactor_feed (copy, (const guint8 *) input, cut, out);
      paddock_redactor_feed (copy, (const guint8 *) input + cut, len - cut, out);
      paddock_redactor_flush (copy, out);
      assert_bytes (out, expected);
    }
}

/* base64 of the token at each alignment in a larger stream (GLib's
 * encoder), standard and URL-safe: the characters that carry only the
 * token's bits are masked, in the middle of the stream and at its end,
 * where the last characters and the padding go too. */
static void
test_base64 (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, NULL);
  const gsize len = strlen (TOKEN);

  for (guint align = 0; align < 3; align++)
    for (guint at_end = 0; at_end < 2; at_end++)
      for (guint url = 0; url < 2; url++)
        for (guint padding = 0; padding < 2; padding++)
          {
            /* "user:" cut to the alignment, then the token, then more. */
            g_autoptr(GByteArray) plain = g_byte_array_new ();
            g_autofree char *encoded = NULL;
            g_autofree char *redacted = NULL;
            g_autofree char *expected = NULL;
            gsize real, first, value_end;

            g_byte_array_append (plain, (const guint8 *) "user:", 3 + align);
            g_byte_array_append (plain, (const guint8 *) TOKEN, (guint) len);
            /* What follows has its high bits set, so the character that
             * mixes it with the token's last bits differs from the one
             * the token alone ends with (a form, masked too). */
            if (!at_end)
              g_byte_array_append (plain, (const guint8 *) "\xff and more", 10);
            encoded = g_base64_encode (plain->data, plain->len);
            if (url)
              g_strdelimit (encoded, "+", '-'), g_strdelimit (encoded, "/", '_');
            if (!padding)
              g_strdelimit (encoded, "=", '\0');

            /* The characters of the token's bits: from the first whose
             * bits start at or after it, to the last that ends in it,
             * or to the end at the end. */
            real = 3 + align + len;
            first = (8 * (3 + align) + 5) / 6;
            value_end = at_end ? strlen (encoded) : 8 * real / 6;
            expected = g_strdup_printf ("%.*s«secret:gh»%s", (int) first, encoded, encoded + value_end);
            redacted = redact_text (redactor, encoded);
            g_assert_cmpstr (redacted, ==, expected);
          }
}

/* A key file through base64(1), whose lines GLib's encoder cuts as it
 * does (76 characters): each line is masked, the last one's padding too. */
static void
test_base64_lines (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("key", pem_key, NULL);
  gsize len = strlen (pem_key);
  g_autofree char *encoded = g_malloc (len * 2 + 16);
  g_autofree char *redacted = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);
  gint state = 0, save = 0;
  gsize n;
  g_auto(GStrv) lines = NULL;

  n = g_base64_encode_step ((const guint8 *) pem_key, len, TRUE, encoded, &state, &save);
  n += g_base64_encode_close (TRUE, encoded + n, &state, &save);
  encoded[n] = '\0';
  lines = g_strsplit (encoded, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 3);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != '\0')
        g_string_append (expected, "«secret:key»");
      if (lines[i + 1] != NULL)
        g_string_append_c (expected, '\n');
    }
  redacted = redact_text (redactor, encoded);
  g_assert_cmpstr (redacted, ==, expected->str);
}

/* A value in hex (GLib's checksum-style lower case and upper case), and
 * its base64 with '+', '/' or '=' in a URL's query, percent-encoded. */
static void
test_hex_and_query (void)
{
  /* Bytes whose base64 has '+' and '/', and padding. */
  static const guint8 value[] = { 0xfb, 0xff, 0xbf, 0x01, 0x02, 0x03, 0xfe, 0x0f, 0xf8, 0x41 };
  g_autoptr(PaddockRedactor) redactor = paddock_redactor_new ();
  g_autoptr(GString) hex = g_string_new (NULL);
  g_autofree char *upper = NULL;
  g_autofree char *encoded = g_base64_encode (value, sizeof value);
  g_autofree char *query = g_uri_escape_string (encoded, NULL, FALSE);
  g_autoptr(GError) error = NULL;
  const char *inputs[3];

  g_assert_true (paddock_redactor_add_secret (redactor, "bin", value, sizeof value, &error));
  for (gsize i = 0; i < sizeof value; i++)
    g_string_append_printf (hex, "%02x", value[i]);
  upper = g_ascii_strup (hex->str, -1);
  g_assert_nonnull (strchr (encoded, '+'));
  g_assert_nonnull (strchr (encoded, '/'));
  g_assert_nonnull (strstr (query, "%2B"));
  inputs[0] = hex->str;
  inputs[1] = upper;
  inputs[2] = query;
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autofree char *input = g_strdup_printf ("x=%s&y", inputs[i]);
      g_autofree char *redacted = redact_text (redactor, input);

      g_assert_cmpstr (redacted, ==, "x=«secret:bin»&y");
    }
}

/* Percent-encoding of a token with characters a URL escapes: GLib's
 * (upper case hex), its lower case, every byte escaped, and a form's
 * spaces as '+'. */
static void
test_percent (void)
{
  const char *value = "p@ss w0rd/with:reserved&chars=é";
  g_autoptr(PaddockRedactor) redactor = redactor_with ("pw", value, NULL);
  g_autofree char *upper = g_uri_escape_string (value, NULL, FALSE);
  g_autofree char *lower = NULL;
  g_autoptr(GString) every = g_string_new (NULL);
  g_autoptr(GString) plus = g_string_new (NULL);
  const char *forms[4];

  /* Only the hex goes down, not the letters. */
  {
    GString *s = g_string_new (NULL);

    for (const char *p = upper; *p != '\0'; p++)
      {
        g_string_append_c (s, *p);
        if (*p == '%')
          {
            g_string_append_c (s, g_ascii_tolower (p[1]));
            g_string_append_c (s, g_ascii_tolower (p[2]));
            p += 2;
          }
      }
    lower = g_string_free (s, FALSE);
  }
  for (const char *p = value; *p != '\0'; p++)
    g_string_append_printf (every, "%%%02X", (guchar) *p);
  for (const char *p = upper; *p != '\0'; p++)
    if (g_str_has_prefix (p, "%20"))
      g_string_append_c (plus, '+'), p += 2;
    else
      g_string_append_c (plus, *p);

  g_assert_cmpstr (upper, !=, value);
  forms[0] = upper;
  forms[1] = lower;
  forms[2] = every->str;
  forms[3] = plus->str;
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autofree char *input = g_strdup_printf ("GET /login?pw=%s HTTP/1.1", forms[i]);
      g_autofree char *redacted = redact_text (redactor, input);

      g_assert_cmpstr (redacted, ==, "GET /login?pw=«secret:pw» HTTP/1.1");
    }
}

/* The JSON string json-glib writes for a value with quotes, backslashes,
 * control characters, a slash and non-ASCII, and the forms other
 * writers give it: Python's \u escapes, PHP's "\/", Go's \u003c. */
static void
test_json (void)
{
  const char *value = "s3cr\"et\\with\nnew\tline\x01/é<&>";
  g_autoptr(PaddockRedactor) redactor = redactor_with ("js", value, NULL);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *glib_form = NULL;
  const char *others[] = {
    "\"s3cr\\\"et\\\\with\\nnew\\tline\\u0001/\\u00e9<&>\"",
    "\"s3cr\\\"et\\\\with\\nnew\\tline\\u0001\\/é<&>\"",
    "\"s3cr\\\"et\\\\with\\nnew\\tline\\u0001/é\\u003c\\u0026\\u003e\"",
    "\"s3cr\\\"et\\\\with\\nnew\\tline\\u0001/\\u00E9<&>\"",
  };

  json_node_set_string (node, value);
  glib_form = json_to_string (node, FALSE);
  {
    g_autofree char *input = g_strdup_printf ("{\"token\":%s}", glib_form);
    g_autofree char *redacted = redact_text (redactor, input);

    g_assert_cmpstr (redacted, ==, "{\"token\":\"«secret:js»\"}");
  }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *input = g_strdup_printf ("{\"token\":%s}", others[i]);
      g_autofree char *redacted = redact_text (redactor, input);

      g_assert_cmpstr (redacted, ==, "{\"token\":\"«secret:js»\"}");
    }
}

/* A multi-line key: whole, with CRLFs, and each of its lines alone
 * (the header line is one, too). */
static void
test_lines (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("key", pem_key, NULL);
  g_auto(GStrv) lines = g_strsplit (pem_key, "\n", -1);
  g_autofree char *joined = g_strjoinv ("\r\n", lines);
  g_autofree char *whole = g_strdup_printf ("cat id:\n%sdone\n", pem_key);
  g_autofree char *redacted = redact_text (redactor, whole);
  g_autofree char *crlf_input = g_strdup_printf ("cat id:\r\n%sdone\r\n", joined);
  g_autofree char *crlf_redacted = redact_text (redactor, crlf_input);
  g_autofree char *part = g_strdup_printf ("%s\n%s\n", lines[2], lines[3]);
  g_autofree char *part_redacted = redact_text (redactor, part);

  g_assert_cmpstr (redacted, ==, "cat id:\n«secret:key»done\n");
  g_assert_cmpstr (crlf_redacted, ==, "cat id:\r\n«secret:key»done\r\n");
  g_assert_cmpstr (part_redacted, ==, "«secret:key»\n«secret:key»\n");
}

/* A terminal as a program's output meets it: LF written, CRLF read. */
static void
open_pty (int *master,
          int *slave)
{
  struct termios attributes;

  *master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (*master, >=, 0);
  g_assert_cmpint (grantpt (*master), ==, 0);
  g_assert_cmpint (unlockpt (*master), ==, 0);
  *slave = open (ptsname (*master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (*slave, >=, 0);
  g_assert_cmpint (tcgetattr (*slave, &attributes), ==, 0);
  attributes.c_oflag |= OPOST | ONLCR;
  attributes.c_lflag &= ~(tcflag_t) ECHO;
  g_assert_cmpint (tcsetattr (*slave, TCSANOW, &attributes), ==, 0);
}

typedef struct
{
  int         fd;
  const char *text;
} PtyWrite;

static gpointer
write_to_pty (gpointer data)
{
  PtyWrite *w = data;
  gsize len = strlen (w->text);

  for (gsize done = 0; done < len;)
    {
      /* In pieces, as a program prints: a line at a time. */
      const char *nl = memchr (w->text + done, '\n', len - done);
      gsize n = nl != NULL ? (gsize) (nl - (w->text + done)) + 1 : len - done;
      ssize_t written = write (w->fd, w->text + done, n);

      if (written < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (written, >, 0);
      done += (gsize) written;
    }
  return NULL;
}

/* The key printed to a real terminal: the tty turns each LF into CRLF,
 * and the master reads it in whatever pieces the tty hands over. */
static void
test_pty_pem (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("key", pem_key, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *text = g_strdup_printf ("before\n%safter\n", pem_key);
  gsize expected_len = strlen (text);
  PtyWrite w;
  GThread *writer;
  gsize got = 0;
  int master, slave;

  for (const char *p = text; *p != '\0'; p++)
    expected_len += *p == '\n';

  open_pty (&master, &slave);

  w.fd = slave;
  w.text = text;
  writer = g_thread_new ("pty-writer", write_to_pty, &w);
  while (got < expected_len)
    {
      guint8 buffer[256];
      ssize_t n = read (master, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      got += (gsize) n;
      paddock_redactor_feed (redactor, buffer, (gsize) n, out);
    }
  g_thread_join (writer);
  paddock_redactor_flush (redactor, out);
  close (slave);
  close (master);

  assert_bytes (out, "before\r\n«secret:key»after\r\n");
}

/* Bytes that hold no secret, NULs and invalid UTF-8 among them, come out
 * as they went in, however they are cut. */
static void
test_binary (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, "key", pem_key, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (30);
  gsize len = 1 << 20;
  g_autofree guint8 *input = g_malloc (len);
  static const gsize pieces[] = { 0, 1, 7, 4096, 65536 + 3 };

  for (gsize i = 0; i < len; i++)
    input[i] = (guint8) g_rand_int (rand);
  /* Runs of NULs, a lone continuation byte, a cut sequence, an overlong
   * one, and the first bytes of the token that never go on. */
  memset (input + 1000, 0, 300);
  memcpy (input + 2000, "\x80\xc3\xe2\x82\xc0\xaf\xff\xfe", 8);
  memcpy (input + 3000, TOKEN, 20);
  memcpy (input + len - 10, TOKEN, 10);

  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      g_autoptr(GByteArray) out = redact_in_pieces (redactor, input, len, pieces[i]);

      g_assert_cmpmem (out->data, out->len, input, len);
    }
}

/* A long output with the token, or a password in base64, every 997 bytes:
 * wherever the matcher's segments and lanes fall, each is
 * masked, and all else kept. */
static void
test_long_output (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, "pw", "correct horse battery", NULL);
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *encoded = g_base64_encode ((const guint8 *) "correct horse battery", 21);
  static const gsize pieces[] = { 0, 1000, 65536, 16384 + 7 };

  for (guint i = 0; input->len < 200 * 1024; i++)
    {
      for (guint j = 0; j < 997 / 9; j++)
        {
          g_string_append (input, "and some ");
          g_string_append (expected, "and some ");
        }
      g_string_append (input, i % 3 == 0 ? encoded : TOKEN);
      g_string_append (expected, i % 3 == 0 ? "«secret:pw»" : "«secret:gh»");
    }
  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      g_autoptr(GByteArray) out = redact_in_pieces (redactor, (const guint8 *) input->str, input->len, pieces[i]);

      assert_bytes (out, expected->str);
    }
}

/* A value that contains another is masked whole, whichever comes first;
 * the one inside, alone, as itself. */
static void
test_nested (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("inner", "INNERVALUE123", "outer", "pre-INNERVALUE123-post",
                                                       "prefix", "INNERVALUE123-and-more", NULL);
  g_autoptr(PaddockRedactor) reversed = redactor_with ("outer", "pre-INNERVALUE123-post", "prefix", "INNERVALUE123-and-more",
                                                       "inner", "INNERVALUE123", NULL);
  const char *input = "a pre-INNERVALUE123-post b INNERVALUE123 c INNERVALUE123-and-more d INNERVALUE123-and-less";
  const char *expected = "a «secret:outer» b «secret:inner» c «secret:prefix» d «secret:inner»-and-less";

  for (gsize piece = 0; piece < 3; piece++)
    {
      g_autoptr(GByteArray) out = redact_in_pieces (redactor, (const guint8 *) input, strlen (input), piece);
      g_autoptr(GByteArray) out_reversed = redact_in_pieces (reversed, (const guint8 *) input, strlen (input), piece);

      assert_bytes (out, expected);
      assert_bytes (out_reversed, expected);
    }
}

/* A value under 8 bytes is refused with an error that names the secret
 * but not the value; 8 bytes are enough. A name the marker cannot show
 * is refused too. */
static void
test_too_short (void)
{
  g_autoptr(PaddockRedactor) redactor = paddock_redactor_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();

  g_assert_false (paddock_redactor_add_secret (redactor, "pin", (const guint8 *) "8675309", 7, &error));
  g_assert_error (error, PADDOCK_REDACTOR_ERROR, PADDOCK_REDACTOR_ERROR_TOO_SHORT);
  g_assert_nonnull (strstr (error->message, "“pin”"));
  g_assert_null (strstr (error->message, "8675309"));
  g_clear_error (&error);

  g_assert_false (paddock_redactor_add_secret (redactor, "bad\nname", (const guint8 *) "12345678", 8, &error));
  g_assert_error (error, PADDOCK_REDACTOR_ERROR, PADDOCK_REDACTOR_ERROR_INVALID_NAME);
  g_assert_null (strstr (error->message, "12345678"));
  g_clear_error (&error);
  g_assert_false (paddock_redactor_add_secret (redactor, "", (const guint8 *) "12345678", 8, &error));
  g_assert_error (error, PADDOCK_REDACTOR_ERROR, PADDOCK_REDACTOR_ERROR_INVALID_NAME);
  g_clear_error (&error);

  /* The refused ones mask nothing; the one of 8 bytes does. */
  g_assert_true (paddock_redactor_add_secret (redactor, "code", (const guint8 *) "12345678", 8, &error));
  g_assert_no_error (error);
  paddock_redactor_feed (redactor, (const guint8 *) "8675309 12345678.", 17, out);
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "8675309 «secret:code».");
}

/* Held bytes: only what could start a form, and a flush shows them as
 * they were; a whole form in them (held as a longer one could follow) is
 * masked by the flush. */
static void
test_flush_held (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, "long", TOKEN "-and-a-longer-one", NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  paddock_redactor_feed (redactor, (const guint8 *) "Password for ghp_R4n", 20, out);
  assert_bytes (out, "Password for ");
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 7);
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "Password for ghp_R4n");
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 0);

  /* Nothing that could begin a form: nothing held. */
  g_byte_array_set_size (out, 0);
  paddock_redactor_feed (redactor, (const guint8 *) "$ ", 2, out);
  assert_bytes (out, "$ ");
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 0);

  g_byte_array_set_size (out, 0);
  paddock_redactor_feed (redactor, (const guint8 *) TOKEN "-and", strlen (TOKEN "-and"), out);
  g_assert_cmpuint (out->len, ==, 0);
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "«secret:gh»-and");
}

/* A secret printed a byte at a time, quiet after each: idle flushes show
 * its first 3 bytes, then hold the rest, and its marker follows them. A
 * prompt that only begins like a secret shows whole, and the end of the
 * stream shows what an idle flush held. */
static void
test_slow_secret (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();

  for (const char *p = TOKEN "!"; *p != '\0'; p++)
    {
      paddock_redactor_feed (redactor, (const guint8 *) p, 1, out);
      paddock_redactor_flush_idle (redactor, out);
    }
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "ghp«secret:gh»!");

  g_byte_array_set_size (out, 0);
  paddock_redactor_feed (redactor, (const guint8 *) "login: gh", 9, out);
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 2);
  paddock_redactor_flush_idle (redactor, out);
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 0);
  assert_bytes (out, "login: gh");
  paddock_redactor_feed (redactor, (const guint8 *) "ost\n", 4, out);
  assert_bytes (out, "login: ghost\n");

  g_byte_array_set_size (out, 0);
  paddock_redactor_feed (redactor, (const guint8 *) "key: ghp_R4nd", 13, out);
  paddock_redactor_flush_idle (redactor, out);
  assert_bytes (out, "key: ");
  g_assert_cmpuint (paddock_redactor_held (redactor), ==, 8);
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "key: ghp_R4nd");
}

/* A secret added while bytes are held is matched in them too. */
static void
test_added_later (void)
{
  g_autoptr(PaddockRedactor) redactor = redactor_with ("gh", TOKEN, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  paddock_redactor_feed (redactor, (const guint8 *) "x ghp_R4nd0m", 12, out);
  g_assert_true (paddock_redactor_add_secret (redactor, "other", (const guint8 *) "ghp_R4nd0mOther", 15, &error));
  paddock_redactor_feed (redactor, (const guint8 *) "Other y", 7, out);
  paddock_redactor_flush (redactor, out);
  assert_bytes (out, "x «secret:other» y");
}

typedef struct
{
  GMainLoop *loop;
  gboolean   ok;
  guint64    bytes_in;
  GError    *error;
} PumpResult;

static void
on_pump_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  PumpResult *r = user_data;

  r->ok = paddock_redactor_pump_finish (result, &r->bytes_in, &r->error);
  g_main_loop_quit (r->loop);
}

static void
read_exactly (int         fd,
              const char *expected)
{
  gsize len = strlen (expected);
  g_autofree char *got = g_malloc0 (len + 1);

  for (gsize done = 0; done < len;)
    {
      ssize_t n = read (fd, got + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      done += (gsize) n;
    }
  g_assert_cmpstr (got, ==, expected);
}

/* The pump from a pipe to a pipe: a prompt that ends like the start of
 * the token shows after the idle time, without more input; the token
 * that then goes on from there is masked; the callback comes in the
 * main loop at the end. */
static void
test_pump (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  PumpResult r = { loop, FALSE, 0, NULL };
  int in[2], out[2];
  const char *prompt = "Token? gh";
  const char *line = TOKEN + 2;
  const char *rest = "\nagain: " TOKEN "\n";

  g_assert_cmpint (pipe2 (in, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (out, O_CLOEXEC), ==, 0);
  paddock_redactor_pump_async (redactor_with ("gh", TOKEN, NULL), in[0], out[1], PADDOCK_REDACTOR_IDLE_MS,
                               NULL, on_pump_done, &r);

  g_assert_cmpint (write (in[1], prompt, strlen (prompt)), ==, (gssize) strlen (prompt));
  read_exactly (out[0], prompt);
  g_assert_cmpint (write (in[1], line, strlen (line)), ==, (gssize) strlen (line));
  read_exactly (out[0], "«secret:gh»");
  g_assert_cmpint (write (in[1], rest, strlen (rest)), ==, (gssize) strlen (rest));
  read_exactly (out[0], "\nagain: «secret:gh»\n");
  close (in[1]);
  g_main_loop_run (loop);

  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpuint (r.bytes_in, ==, strlen (prompt) + strlen (line) + strlen (rest));
  close (in[0]);
  close (out[0]);
  close (out[1]);
}

/* The pump from a terminal's master: the key printed to the terminal is
 * masked, and the last close of the slave (EIO on the master) ends the
 * pump as an end of file does. */
static void
test_pump_pty (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  PumpResult r = { loop, FALSE, 0, NULL };
  g_autofree char *text = g_strdup_printf ("$ cat id\n%s$ exit\n", pem_key);
  int master, slave, out[2];
  PtyWrite w;
  GThread *writer;
  g_autoptr(GString) got = g_string_new (NULL);

  open_pty (&master, &slave);
  g_assert_cmpint (pipe2 (out, O_CLOEXEC), ==, 0);
  paddock_redactor_pump_async (redactor_with ("key", pem_key, NULL), master, out[1], PADDOCK_REDACTOR_IDLE_MS,
                               NULL, on_pump_done, &r);
  w.fd = slave;
  w.text = text;
  writer = g_thread_new ("pty-writer", write_to_pty, &w);
  g_thread_join (writer);
  close (slave);
  g_main_loop_run (loop);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);

  close (out[1]);
  for (;;)
    {
      char buffer[4096];
      ssize_t n = read (out[0], buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >=, 0);
      if (n == 0)
        break;
      g_string_append_len (got, buffer, n);
    }
  g_assert_cmpstr (got->str, ==, "$ cat id\r\n«secret:key»$ exit\r\n");
  close (out[0]);
  close (master);
}

/* A pump cancelled while its input is open and quiet: the callback says
 * so, and what the pump held comes out first. */
static void
test_pump_cancel (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  PumpResult r = { loop, FALSE, 0, NULL };
  int in[2], out[2];

  g_assert_cmpint (pipe2 (in, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (out, O_CLOEXEC), ==, 0);
  /* An idle time no test waits for: only the cancellation shows it. */
  paddock_redactor_pump_async (redactor_with ("gh", TOKEN, NULL), in[0], out[1], 3600 * 1000,
                               cancellable, on_pump_done, &r);
  g_assert_cmpint (write (in[1], "abc ghp_R4n", 11), ==, 11);
  read_exactly (out[0], "abc ");
  g_cancellable_cancel (cancellable);
  g_main_loop_run (loop);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (r.ok);
  read_exactly (out[0], "ghp_R4n");
  g_clear_error (&r.error);
  for (guint i = 0; i < 2; i++)
    {
      close (in[i]);
      close (out[i]);
    }
}

typedef struct
{
  int           fd;
  const guint8 *bytes;
  gsize         len;
} PipeWrite;

static gpointer
write_to_pipe (gpointer data)
{
  PipeWrite *w = data;

  for (gsize done = 0; done < w->len;)
    {
      ssize_t n = write (w->fd, w->bytes + done, MIN (w->len - done, 1000));

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      done += (gsize) n;
    }
  close (w->fd);
  return NULL;
}

/* Descriptors another holder made non-blocking, as Node.js does to its
 * standard output: the pump waits on them rather than fail, and a MiB,
 * more than the pipes hold, comes through whole. */
static void
test_pump_nonblocking (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  PumpResult r = { loop, FALSE, 0, NULL };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gsize len = 1 << 20;
  g_autofree guint8 *input = g_malloc (len);
  g_autoptr(GByteArray) got = g_byte_array_new ();
  int in[2], out[2];
  PipeWrite w;
  GThread *writer;

  for (gsize i = 0; i < len; i++)
    input[i] = (guint8) g_rand_int (rand);
  g_assert_cmpint (pipe2 (in, O_CLOEXEC), ==, 0);
  g_assert_cmpint (pipe2 (out, O_CLOEXEC), ==, 0);
  g_assert_cmpint (fcntl (in[0], F_SETFL, O_NONBLOCK), ==, 0);
  g_assert_cmpint (fcntl (out[1], F_SETFL, O_NONBLOCK), ==, 0);
  paddock_redactor_pump_async (redactor_with ("gh", TOKEN, NULL), in[0], out[1], PADDOCK_REDACTOR_IDLE_MS,
                               NULL, on_pump_done, &r);
  w = (PipeWrite) { in[1], input, len };
  writer = g_thread_new ("pipe-writer", write_to_pipe, &w);
  while (got->len < len)
    {
      guint8 buffer[4096];
      ssize_t n = read (out[0], buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      g_byte_array_append (got, buffer, (guint) n);
    }
  g_thread_join (writer);
  g_main_loop_run (loop);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpmem (got->data, got->len, input, len);
  close (in[0]);
  close (out[0]);
  close (out[1]);
}

/* paddock-redact, with its secrets from a descriptor: masks, and says
 * which line of the secrets it cannot read, without the value. */
static void
test_tool (void)
{
  const char *tool = g_getenv ("PADDOCK_REDACT");
  g_autofree char *encoded = g_base64_encode ((const guint8 *) TOKEN, strlen (TOKEN));
  g_autofree char *secrets = g_strdup_printf ("gh %s\n", encoded);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) stdout_bytes = NULL;
  g_autoptr(GBytes) stderr_bytes = NULL;
  g_autoptr(GBytes) input = g_bytes_new_static ("clone https://x:" TOKEN "@github.com/\n",
                                                strlen ("clone https://x:" TOKEN "@github.com/\n"));
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GError) error = NULL;
  int secrets_pipe[2];

  if (tool == NULL)
    {
      g_test_skip ("PADDOCK_REDACT is not set (run through meson test)");
      return;
    }

  for (guint bad = 0; bad < 2; bad++)
    {
      g_assert_cmpint (pipe2 (secrets_pipe, O_CLOEXEC), ==, 0);
      launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                            G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_subprocess_launcher_take_fd (launcher, secrets_pipe[0], 3);
      process = g_subprocess_launcher_spawn (launcher, &error, tool, "--secrets-fd=3", NULL);
      g_assert_no_error (error);
      if (bad)
        g_assert_cmpint (write (secrets_pipe[1], TOKEN "\n", strlen (TOKEN) + 1), >, 0);
      else
        g_assert_cmpint (write (secrets_pipe[1], secrets, strlen (secrets)), ==, (gssize) strlen (secrets));
      close (secrets_pipe[1]);
      g_subprocess_communicate (process, bad ? empty : input, NULL, &stdout_bytes, &stderr_bytes, &error);
      g_assert_no_error (error);

      if (bad)
        {
          g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 2);
          g_assert_nonnull (strstr (g_bytes_get_data (stderr_bytes, NULL), "line 1"));
          g_assert_null (g_strstr_len (g_bytes_get_data (stderr_bytes, NULL), (gssize) g_bytes_get_size (stderr_bytes),
                                       "R4nd0m"));
        }
      else
        {
          g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
          g_assert_cmpmem (g_bytes_get_data (stdout_bytes, NULL), g_bytes_get_size (stdout_bytes),
                           "clone https://x:«secret:gh»@github.com/\n",
                           strlen ("clone https://x:«secret:gh»@github.com/\n"));
        }
      g_clear_object (&launcher);
      g_clear_object (&process);
      g_clear_pointer (&stdout_bytes, g_bytes_unref);
      g_clear_pointer (&stderr_bytes, g_bytes_unref);
    }
}

int
main (int   argc,
      char *argv[])
{
  signal (SIGPIPE, SIG_IGN);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/redactor/every-split", test_every_split);
  g_test_add_func ("/paddock/redactor/base64", test_base64);
  g_test_add_func ("/paddock/redactor/base64-lines", test_base64_lines);
  g_test_add_func ("/paddock/redactor/percent", test_percent);
  g_test_add_func ("/paddock/redactor/hex-and-query", test_hex_and_query);
  g_test_add_func ("/paddock/redactor/json", test_json);
  g_test_add_func ("/paddock/redactor/lines", test_lines);
  g_test_add_func ("/paddock/redactor/pty-pem", test_pty_pem);
  g_test_add_func ("/paddock/redactor/binary", test_binary);
  g_test_add_func ("/paddock/redactor/long-output", test_long_output);
  g_test_add_func ("/paddock/redactor/nested", test_nested);
  g_test_add_func ("/paddock/redactor/too-short", test_too_short);
  g_test_add_func ("/paddock/redactor/flush-held", test_flush_held);
  g_test_add_func ("/paddock/redactor/slow-secret", test_slow_secret);
  g_test_add_func ("/paddock/redactor/added-later", test_added_later);
  g_test_add_func ("/paddock/redactor/pump", test_pump);
  g_test_add_func ("/paddock/redactor/pump-pty", test_pump_pty);
  g_test_add_func ("/paddock/redactor/pump-cancel", test_pump_cancel);
  g_test_add_func ("/paddock/redactor/pump-nonblocking", test_pump_nonblocking);
  g_test_add_func ("/paddock/redactor/tool", test_tool);

  return g_test_run ();
}
