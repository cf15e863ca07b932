/*
 * json_tree.h - a small JSON parser for tests that check a document's
 * structure (opver-run --profile's trace), not only that it parses
 * (json_check.h).  Strings keep \u escapes as written; numbers are
 * doubles.  Defined in json_tree.c.
 */
#ifndef OPVER_TESTS_JSON_TREE_H
#define OPVER_TESTS_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum json_kind {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
} json_kind;

typedef struct json_value {
	json_kind kind;
	bool boolean;
	double number;
	char *string;                   /* STRING; owned */
	/* ARRAY: the items; OBJECT: the values, keys[i] naming items[i]. */
	struct json_value *items;       /* owned; count */
	char **keys;                    /* owned; count (OBJECT) */
	size_t count;
} json_value;

/* The document `text` as a tree, or NULL when it is not exactly one
 * JSON value.  Caller owns it; release with json_tree_free(). */
json_value *json_tree_parse(const char *text);
void json_tree_free(json_value *value);

/* The member `key` of an object, or NULL (also for a non-object). */
const json_value *json_tree_get(const json_value *object, const char *key);

#endif
