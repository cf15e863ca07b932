/*
 * json_writer.h - a small streaming JSON writer for the command-line tools.
 * The caller opens and closes objects and arrays and writes keys and values
 * in document order; the writer tracks nesting and commas, escapes strings,
 * indents the output, and writes straight to a FILE* without building a tree.
 * Misuse (a value where a key is due, an unbalanced end) is a programming
 * error caught by assert().  Write errors are left in the FILE's error flag
 * for the caller to check once with ferror().
 */
#ifndef OPVER_TOOLS_JSON_WRITER_H
#define OPVER_TOOLS_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Deepest nesting of objects and arrays a writer accepts. */
#define JSON_MAX_DEPTH 32

typedef struct json_writer {
	/* Borrowed; must stay open while the writer is used. */
	FILE *out;
	int depth;
	/* Per level: true inside an object, false inside an array. */
	bool in_object[JSON_MAX_DEPTH];
	/* Per level: true once the level holds a member, so the next needs a
	 * comma. */
	bool has_member[JSON_MAX_DEPTH];
	/* A key was written and its value is due. */
	bool after_key;
} json_writer;

void json_init(json_writer *w, FILE *out);
/* Ends the document with a newline; every container must be closed. */
void json_finish(json_writer *w);

void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);

/* The key of the next object member. */
void json_key(json_writer *w, const char *key);

/* A string value; NULL writes null.  Bytes from 0x80 up pass through. */
void json_string(json_writer *w, const char *value);
void json_int(json_writer *w, int64_t value);
void json_uint(json_writer *w, uint64_t value);
/* A finite double in the shortest form that reads back exactly; NaN and
 * infinities, which JSON cannot express, write null. */
void json_double(json_writer *w, double value);
/* The same for a float, in the fewer digits that identify a float. */
void json_float(json_writer *w, float value);
void json_bool(json_writer *w, bool value);
void json_null(json_writer *w);

#endif /* OPVER_TOOLS_JSON_WRITER_H */
