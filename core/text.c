/* text.c - bounded appending of formatted text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

void opver__text_init(opver__text *text, char *data, size_t size)
{
	text->data = data;
	text->size = size;
	text->used = 0;
	data[0] = '\0';
}

void opver__text_append(opver__text *text, const char *format, ...)
{
	size_t room = text->size - text->used;
	va_list args;
	int written;

	if (room <= 1)
		return;
	va_start(args, format);
	written = vsnprintf(text->data + text->used, room, format, args);
	va_end(args);
	if (written < 0)
		return;
	if ((size_t)written < room) {
		text->used += (size_t)written;
		return;
	}
	/* Cut: mark it so a reader knows. */
	text->used = text->size - 1;
	if (text->size > 4)
		memcpy(text->data + text->size - 4, "...", 4);
}

void opver__text_dims(opver__text *text, int32_t rank, const int32_t *dims)
{
	opver__text_append(text, "[");
	for (int32_t i = 0; i < rank; i++)
		opver__text_append(text, i > 0 ? ", %d" : "%d", (int)dims[i]);
	opver__text_append(text, "]");
}
