/* test-json-flat.c: the flat reader reads what json-glib reads, or leaves the text to it
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "paddock-json-flat.h"
#include "paddock-json-text.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define MAX_DEPTH 8

/* @flat's members are json-glib's reading of @text, one for one. */
static void
assert_same_as_json_glib (const PaddockJsonFlat *flat,
                          const char            *text,
                          gsize                  length)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *object;
  guint i = 0;

  json_parser_load_from_data (parser, text, (gssize) length, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  object = json_node_get_object (json_parser_get_root (parser));
  names = json_object_get_members (object);
  g_assert_cmpuint (g_list_length (names), ==, flat->n_members);
  for (const GList *l = names; l != NULL; l = l->next, i++)
    {
      const PaddockJsonFlatMember *member = &flat->members[i];
      JsonNode *node = json_object_get_member (object, l->data);

      g_assert_cmpstr (member->name, ==, l->data);
      switch (member->kind)
        {
        case PADDOCK_JSON_FLAT_STRING:
          g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_STRING);
          g_assert_cmpstr (member->string, ==, json_node_get_string (node));
          break;
        case PADDOCK_JSON_FLAT_INTEGER:
          g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
          g_assert_cmpint (member->integer, ==, json_node_get_int (node));
          break;
        case PADDOCK_JSON_FLAT_BOOLEAN:
          g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_BOOLEAN);
          g_assert_cmpint (member->boolean, ==, json_node_get_boolean (node));
          break;
        case PADDOCK_JSON_FLAT_STRINGS:
          {
            JsonArray *array = json_node_get_array (node);

            g_assert_cmpuint (g_strv_length ((char **) member->strings), ==, json_array_get_length (array));
            for (guint j = 0; member->strings[j] != NULL; j++)
              g_assert_cmpstr (member->strings[j], ==, json_array_get_string_element (array, j));
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* What the protocol's parser does: the flat reader on UTF-8; what it
 * reads, the strict checks accept too. */
static PaddockJsonFlat *
read_checked (const char *text,
              gsize       length)
{
  PaddockJsonFlat *flat;

  if (!g_utf8_validate_len (text, length, NULL))
    return NULL;
  flat = paddock_json_flat_read (text, length);
  if (flat != NULL)
    {
      g_autofree char *reason = paddock_json_check_object_text (text, length, MAX_DEPTH);

      g_assert_null (reason);
    }
  return flat;
}

static void
test_reads (void)
{
  const char *texts[] = {
    "{}",
    " \t{ }\r\n",
    "{\"type\":\"exec\",\"seq\":42,\"pid\":-1,\"paused\":false,\"escaped\":true}",
    "{\"argv\":[\"git\", \"push\" ,\"\"],\"features\":[],\"n\":0,\"big\":-999999999999999999}",
    "{\"s\":\"quote \\\" slash \\/ back \\\\ \\b\\f\\n\\r\\t é \\u00e9 \\u20ac \\ud83d\\ude00\"}",
    "{ \"a\" : \"b\" , \"c\" : [ \"d\" ] }",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(PaddockJsonFlat) flat = read_checked (texts[i], strlen (texts[i]));

      g_test_message ("%s", texts[i]);
      g_assert_nonnull (flat);
      assert_same_as_json_glib (flat, texts[i], strlen (texts[i]));
    }
}

static void
test_leaves_to_json_glib (void)
{
  const char *texts[] = {
    "{\"a\":null}",
    "{\"a\":1.5}",
    "{\"a\":1e3}",
    "{\"a\":{\"b\":1}}",
    "{\"a\":[1]}",
    "{\"a\":[\"b\",null]}",
    "{\"a\":[[\"b\"]]}",
    "{\"a\":1,\"a\":2}",
    "{\"a\":\"tab\there\"}",
    "{\"a\":1234567890123456789}",
    "{\"a\":01}",
    "{\"a\":-01}",
    "{\"a\":-}",
    "{\"a\":0x1}",
    "{\"a\":tru}",
    "{\"a\":1}x",
    "{\"a\" 1}",
    "{\"a\":1,}",
    "{,}",
    "[\"a\"]",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_test_message ("%s", texts[i]);
      g_assert_null (paddock_json_flat_read (texts[i], strlen (texts[i])));
    }
}

/* Random changes to a real line: wherever the flat reader reads it, the
 * strict checks pass and json-glib reads the same. */
static void
test_mutations (void)
{
  const char *line =
    "{\"type\":\"exec\",\"seq\":7,\"time\":1700000000000000,\"mono\":12,\"pid\":4242,\"ppid\":1,"
    "\"cwd\":\"/home/me/pr\\u00f6j\",\"exe\":\"/usr/bin/git\",\"path\":\"/usr/bin/git\","
    "\"argv\":[\"git\",\"commit\",\"-m\",\"say \\\"hi\\\"\\n\"],\"argc\":4,\"truncated\":false,"
    "\"decision\":\"allow\",\"by\":\"rule\",\"rule\":\"git\"}";
  const char alphabet[] = "{}[],:\"\\/' \tu0123456789abcdefnrtlsx-.eE\xc3\xa9";
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  guint n_read = 0;

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GString) text = g_string_new (line);
      g_autoptr(PaddockJsonFlat) flat = NULL;
      guint n_changes = g_rand_int_range (rand, 1, 4);

      for (guint c = 0; c < n_changes; c++)
        {
          guint at = g_rand_int_range (rand, 0, text->len);
          char byte = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];

          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0:
              text->str[at] = byte;
              break;
            case 1:
              g_string_insert_c (text, at, byte);
              break;
            default:
              g_string_erase (text, at, 1);
              break;
            }
        }
      flat = read_checked (text->str, text->len);
      if (flat == NULL)
        continue;
      n_read++;
      assert_same_as_json_glib (flat, text->str, text->len);
    }
  g_test_message ("%u of 20000 changed lines read flat", n_read);
  g_assert_cmpuint (n_read, >, 100);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paddock/json-flat/reads", test_reads);
  g_test_add_func ("/paddock/json-flat/leaves-to-json-glib", test_leaves_to_json_glib);
  g_test_add_func ("/paddock/json-flat/mutations", test_mutations);

  return g_test_run ();
}
