/* text.c - a growing string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

void cf_text_vadd(cf_text *t, const char *format, va_list args)
{
	va_list copy;
	int length;

	va_copy(copy, args);
	length = vsnprintf(NULL, 0, format, copy);
	va_end(copy);
	if (length < 0 || t->failed)
		return;
	if (t->used + (size_t)length + 1 > t->capacity) {
		size_t capacity = (t->used + (size_t)length + 1) * 2;
		char *grown = realloc(t->data, capacity);

		if (grown == NULL) {
			t->failed = true;
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
	vsnprintf(t->data + t->used, t->capacity - t->used, format, args);
	t->used += (size_t)length;
}

void cf_text_add(cf_text *t, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	cf_text_vadd(t, format, args);
	va_end(args);
}

const char *cf_text_get(const cf_text *t)
{
	return t->data != NULL ? t->data : "";
}

void cf_text_clear(cf_text *t)
{
	t->used = 0;
	if (t->data != NULL)
		t->data[0] = '\0';
}

void cf_text_free(cf_text *t)
{
	free(t->data);
	memset(t, 0, sizeof(*t));
}
