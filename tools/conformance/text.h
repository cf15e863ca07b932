/*
 * text.h - a growing string, for the names, details and captured log
 * messages of a conformance run.
 */
#ifndef OPVER_CONFORMANCE_TEXT_H
#define OPVER_CONFORMANCE_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <opver/common.h>

/* Zero-initialize ({ 0 }) to start empty.  `failed` once out of memory:
 * the text is then truncated, but still a string. */
typedef struct cf_text {
	char *data;             /* owned; NULL while empty */
	size_t used;
	size_t capacity;
	bool failed;
} cf_text;

void cf_text_add(cf_text *t, const char *format, ...) OPVER__PRINTF(2, 3);
void cf_text_vadd(cf_text *t, const char *format, va_list args)
	OPVER__PRINTF(2, 0);
/* The text so far, "" while empty; valid until the next change. */
const char *cf_text_get(const cf_text *t);
/* Empties the text, keeping its memory. */
void cf_text_clear(cf_text *t);
void cf_text_free(cf_text *t);

#endif /* OPVER_CONFORMANCE_TEXT_H */
