/* json_writer.c - streams JSON to a FILE*, tracking nesting and commas so
 * callers only say what comes next. */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "json_writer.h"

void json_init(json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->in_object[0] = false;
	w->has_member[0] = false;
	w->after_key = false;
}

void json_finish(json_writer *w)
{
	assert(w->depth == 0 && !w->after_key);
	fputc('\n', w->out);
}

static void indent(json_writer *w)
{
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Puts the comma and line break due before a key or a value. */
static void before_item(json_writer *w, bool is_key)
{
	if (w->after_key) {
		assert(!is_key);
		w->after_key = false;
		return;
	}
	/* Inside an object only keys start a member; at the top level only
	 * one value may appear. */
	assert(w->depth == 0 ? !is_key && !w->has_member[0]
			     : is_key == w->in_object[w->depth]);
	if (w->has_member[w->depth])
		fputc(',', w->out);
	w->has_member[w->depth] = true;
	if (w->depth > 0)
		indent(w);
}

static void begin(json_writer *w, bool object)
{
	before_item(w, false);
	assert(w->depth + 1 < JSON_MAX_DEPTH);
	fputc(object ? '{' : '[', w->out);
	w->depth++;
	w->in_object[w->depth] = object;
	w->has_member[w->depth] = false;
}

static void end(json_writer *w, bool object)
{
	assert(w->depth > 0 && w->in_object[w->depth] == object &&
	       !w->after_key);
	w->depth--;
	/* Empty containers stay on one line: {} and []. */
	if (w->has_member[w->depth + 1])
		indent(w);
	fputc(object ? '}' : ']', w->out);
}

void json_begin_object(json_writer *w)
{
	begin(w, true);
}

void json_end_object(json_writer *w)
{
	end(w, true);
}

void json_begin_array(json_writer *w)
{
	begin(w, false);
}

void json_end_array(json_writer *w)
{
	end(w, false);
}

/* Writes a quoted string; JSON requires escaping only quote, backslash and
 * control characters, so UTF-8 passes through unchanged. */
static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void json_key(json_writer *w, const char *key)
{
	before_item(w, true);
	write_string(w->out, key);
	fputs(": ", w->out);
	w->after_key = true;
}

void json_string(json_writer *w, const char *value)
{
	if (value == NULL) {
		json_null(w);
		return;
	}
	before_item(w, false);
	write_string(w->out, value);
}

void json_int(json_writer *w, int64_t value)
{
	before_item(w, false);
	fprintf(w->out, "%" PRId64, value);
}

void json_uint(json_writer *w, uint64_t value)
{
	before_item(w, false);
	fprintf(w->out, "%" PRIu64, value);
}

/* Writes the shortest %g form, from `digits` up to `max_digits`, that reads
 * back as `value` (rounded to float when `as_float`). */
static void write_number(json_writer *w, double value, int digits,
			 int max_digits, bool as_float)
{
	char text[32];
	double back;

	if (!isfinite(value)) {
		json_null(w);
		return;
	}
	for (;; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, value);
		back = strtod(text, NULL);
		if (digits == max_digits ||
		    (as_float ? (float)back == (float)value : back == value))
			break;
	}
	before_item(w, false);
	fputs(text, w->out);
}

void json_double(json_writer *w, double value)
{
	/* 17 significant digits always read back exactly; try fewer first
	 * so 0.1 stays 0.1. */
	write_number(w, value, 15, 17, false);
}

void json_float(json_writer *w, float value)
{
	write_number(w, value, 6, 9, true);
}

void json_bool(json_writer *w, bool value)
{
	before_item(w, false);
	fputs(value ? "true" : "false", w->out);
}

void json_null(json_writer *w)
{
	before_item(w, false);
	fputs("null", w->out);
}
