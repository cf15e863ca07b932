/* json_tree.c - recursive descent into a tree of json_value. */
#include <stdlib.h>
#include <string.h>

#include "json_tree.h"

/* Deeper documents are refused rather than recursed into. */
#define MAX_DEPTH 64

static void skip_space(const char **at)
{
	while (**at == ' ' || **at == '\t' || **at == '\n' || **at == '\r')
		(*at)++;
}

static bool parse_value(const char **at, json_value *value, int depth);

/* A string after its opening quote, into a new buffer. */
static char *parse_string(const char **at)
{
	const char *start = *at;
	char *out;

	while (**at != '"') {
		if ((unsigned char)**at < 0x20)
			return NULL;
		if (**at == '\\' && (*at)[1] != '\0')
			(*at)++;
		(*at)++;
	}
	out = malloc((size_t)(*at - start) + 1);
	if (out == NULL)
		return NULL;
	memcpy(out, start, (size_t)(*at - start));
	out[*at - start] = '\0';
	(*at)++;
	return out;
}

/* One more item (and key) in a container; NULL when memory runs out. */
static json_value *grow(json_value *container, char *key)
{
	json_value *items = realloc(container->items, (container->count + 1) *
						       sizeof(*items));
	char **keys;

	if (items == NULL)
		return NULL;
	container->items = items;
	if (container->kind == JSON_OBJECT) {
		keys = realloc(container->keys,
			       (container->count + 1) * sizeof(*keys));
		if (keys == NULL)
			return NULL;
		container->keys = keys;
		keys[container->count] = key;
	}
	memset(&items[container->count], 0, sizeof(*items));
	return &items[container->count++];
}

/* The members or items after '{' or '['. */
static bool parse_container(const char **at, json_value *value, int depth)
{
	char close = value->kind == JSON_OBJECT ? '}' : ']';
	char *key = NULL;
	json_value *item;

	skip_space(at);
	if (**at == close) {
		(*at)++;
		return true;
	}
	for (;;) {
		skip_space(at);
		if (value->kind == JSON_OBJECT) {
			if (**at != '"')
				return false;
			(*at)++;
			key = parse_string(at);
			skip_space(at);
			if (key == NULL || **at != ':') {
				free(key);
				return false;
			}
			(*at)++;
		}
		item = grow(value, key);
		if (item == NULL) {
			free(key);
			return false;
		}
		if (!parse_value(at, item, depth + 1))
			return false;
		skip_space(at);
		if (**at == close) {
			(*at)++;
			return true;
		}
		if (**at != ',')
			return false;
		(*at)++;
	}
}

static bool parse_value(const char **at, json_value *value, int depth)
{
	char *end;

	if (depth > MAX_DEPTH)
		return false;
	skip_space(at);
	switch (**at) {
	case '{':
	case '[':
		value->kind = **at == '{' ? JSON_OBJECT : JSON_ARRAY;
		(*at)++;
		return parse_container(at, value, depth);
	case '"':
		value->kind = JSON_STRING;
		(*at)++;
		value->string = parse_string(at);
		return value->string != NULL;
	case 't':
	case 'f':
	case 'n':
		if (strncmp(*at, "true", 4) == 0 || strncmp(*at, "null", 4) == 0) {
			value->kind = **at == 't' ? JSON_BOOL : JSON_NULL;
			value->boolean = **at == 't';
			*at += 4;
			return true;
		}
		if (strncmp(*at, "false", 5) != 0)
			return false;
		value->kind = JSON_BOOL;
		*at += 5;
		return true;
	default:
		value->kind = JSON_NUMBER;
		value->number = strtod(*at, &end);
		if (end == *at)
			return false;
		*at = end;
		return true;
	}
}

static void free_contents(json_value *value)
{
	for (size_t i = 0; i < value->count; i++) {
		free_contents(&value->items[i]);
		if (value->keys != NULL)
			free(value->keys[i]);
	}
	free(value->items);
	free(value->keys);
	free(value->string);
}

json_value *json_tree_parse(const char *text)
{
	json_value *root = calloc(1, sizeof(*root));
	const char *at = text;

	if (root == NULL)
		return NULL;
	if (!parse_value(&at, root, 0) || (skip_space(&at), *at != '\0')) {
		json_tree_free(root);
		return NULL;
	}
	return root;
}

void json_tree_free(json_value *value)
{
	if (value == NULL)
		return;
	free_contents(value);
	free(value);
}

const json_value *json_tree_get(const json_value *object, const char *key)
{
	if (object == NULL || object->kind != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < object->count; i++)
		if (strcmp(object->keys[i], key) == 0)
			return &object->items[i];
	return NULL;
}
