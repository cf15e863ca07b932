/*
 * raw_io.h - raw tensor files, the model corpus's format: the tensor's
 * elements packed little-endian in its own type and NHWC layout, no header.
 * Reading insists on the exact byte size, since a file of the wrong size is
 * almost always the wrong file.  Also here: a tensor's "INT8[1,1]" signature
 * for messages, and element access widened to 64 bits for printing and
 * comparing.  Errors are written, as one line naming the file and the
 * reason, into a caller's buffer.
 */
#ifndef OPVER_TOOLS_RAW_IO_H
#define OPVER_TOOLS_RAW_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

typedef enum raw_status {
	RAW_OK = 0,
	/* The file could not be opened, read or written. */
	RAW_ERROR_IO,
	/* The file's size differs from the tensor's byte size. */
	RAW_ERROR_SIZE
} raw_status;

/*
 * Reads `path` into tensor->data, which must hold tensor->bytes bytes.
 * `role` names the tensor in the size message ("input": "FILE has N bytes,
 * the model's INT8[1,1] input needs M").
 */
raw_status raw_read_tensor(const char *path, opver_tensor *tensor,
			   const char *role, char *error, size_t error_size);

/* Writes tensor->bytes bytes of tensor->data to `path`, replacing it. */
raw_status raw_write_tensor(const char *path, const opver_tensor *tensor,
			    char *error, size_t error_size);

/* Formats "INT8[1,1]" (type and shape) into `text`. */
void raw_format_signature(const opver_tensor *tensor, char *text,
			  size_t text_size);

/* One element widened without loss: integers to 64 bits, floats to double. */
typedef struct raw_value {
	enum { RAW_VALUE_INT, RAW_VALUE_UINT, RAW_VALUE_FLOAT } kind;
	union {
		int64_t i;
		uint64_t u;
		double f;
	} as;
} raw_value;

/*
 * Reads element `index` of `data`, an array of `type`.  Returns false for
 * types without a plain numeric element (FLOAT16, STRING, COMPLEX64, ...).
 */
bool raw_element(int32_t type, const void *data, size_t index,
		 raw_value *value);

/* The value as a double, for tolerance checks. */
double raw_value_double(const raw_value *value);

#endif /* OPVER_TOOLS_RAW_IO_H */
