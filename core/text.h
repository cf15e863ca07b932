/*
 * text.h - appending formatted text to a fixed buffer.  Output that does not
 * fit is cut (and ends in "..."); the buffer is always NUL-terminated.
 */
#ifndef OPVER_CORE_TEXT_H
#define OPVER_CORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "opver/common.h"

typedef struct opver__text {
	char *data;     /* borrowed; size bytes */
	size_t size;
	size_t used;    /* bytes written, excluding the NUL */
} opver__text;

/* Starts an empty text in `data` (size > 0). */
void opver__text_init(opver__text *text, char *data, size_t size);

void opver__text_append(opver__text *text, const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Appends a shape as "[1, 224, 224, 3]". */
void opver__text_dims(opver__text *text, int32_t rank, const int32_t *dims);

#endif /* OPVER_CORE_TEXT_H */
