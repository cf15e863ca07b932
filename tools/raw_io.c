/* raw_io.c - reads and writes raw tensor files with exact size checks, and
 * widens tensor elements for printing and comparing.  .tflite data is
 * little-endian and so are the hosts opver runs on, so bytes are copied as
 * they are. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "raw_io.h"

static raw_status size_error(const char *path, const opver_tensor *tensor,
			     const char *role, const char *file_bytes,
			     char *error, size_t error_size)
{
	char signature[128];

	raw_format_signature(tensor, signature, sizeof(signature));
	snprintf(error, error_size, "%s has %s bytes, the model's %s %s needs %zu",
		 path, file_bytes, signature, role, tensor->bytes);
	return RAW_ERROR_SIZE;
}

raw_status raw_read_tensor(const char *path, opver_tensor *tensor,
			   const char *role, char *error, size_t error_size)
{
	raw_status status = RAW_OK;
	char count[32];
	struct stat st;
	size_t got;
	FILE *file;

	file = fopen(path, "rb");
	if (file == NULL) {
		snprintf(error, error_size, "cannot open %s: %s", path,
			 strerror(errno));
		return RAW_ERROR_IO;
	}
	/* A regular file's size is known up front; a pipe's only by reading. */
	if (fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size != tensor->bytes) {
		snprintf(count, sizeof(count), "%jd", (intmax_t)st.st_size);
		status = size_error(path, tensor, role, count, error,
				    error_size);
		goto out;
	}
	got = fread(tensor->data, 1, tensor->bytes, file);
	if (ferror(file)) {
		snprintf(error, error_size, "cannot read %s: %s", path,
			 strerror(errno));
		status = RAW_ERROR_IO;
	} else if (got < tensor->bytes) {
		snprintf(count, sizeof(count), "%zu", got);
		status = size_error(path, tensor, role, count, error,
				    error_size);
	} else if (fgetc(file) != EOF) {
		snprintf(count, sizeof(count), "more than %zu", got);
		status = size_error(path, tensor, role, count, error,
				    error_size);
	}
out:
	fclose(file);
	return status;
}

raw_status raw_write_tensor(const char *path, const opver_tensor *tensor,
			    char *error, size_t error_size)
{
	FILE *file;
	bool ok;

	file = fopen(path, "wb");
	if (file == NULL) {
		snprintf(error, error_size, "cannot create %s: %s", path,
			 strerror(errno));
		return RAW_ERROR_IO;
	}
	ok = fwrite(tensor->data, 1, tensor->bytes, file) == tensor->bytes;
	/* fclose flushes: a full disk may show only here. */
	ok = (fclose(file) == 0) && ok;
	if (!ok) {
		snprintf(error, error_size, "cannot write %s: %s", path,
			 strerror(errno));
		return RAW_ERROR_IO;
	}
	return RAW_OK;
}

void raw_format_signature(const opver_tensor *tensor, char *text,
			  size_t text_size)
{
	size_t used;

	used = (size_t)snprintf(text, text_size, "%s[",
				opver_type_name(tensor->type));
	for (int32_t i = 0; i < tensor->rank && used < text_size; i++)
		used += (size_t)snprintf(text + used, text_size - used, "%s%d",
					 i ? "," : "", tensor->dims[i]);
	if (used < text_size)
		snprintf(text + used, text_size - used, "]");
}

/* Copies one element out: tensor data need not be aligned for its type. */
#define LOAD(ctype, field, kind_)                                        \
	do {                                                             \
		ctype v_;                                                \
		memcpy(&v_, (const char *)data + index * sizeof(v_),     \
		       sizeof(v_));                                      \
		value->kind = (kind_);                                   \
		value->as.field = v_;                                    \
	} while (0)

bool raw_element(int32_t type, const void *data, size_t index,
		 raw_value *value)
{
	switch (type) {
	case OPVER_TYPE_FLOAT32:
		LOAD(float, f, RAW_VALUE_FLOAT);
		return true;
	case OPVER_TYPE_FLOAT64:
		LOAD(double, f, RAW_VALUE_FLOAT);
		return true;
	case OPVER_TYPE_INT8:
		LOAD(int8_t, i, RAW_VALUE_INT);
		return true;
	case OPVER_TYPE_INT16:
		LOAD(int16_t, i, RAW_VALUE_INT);
		return true;
	case OPVER_TYPE_INT32:
		LOAD(int32_t, i, RAW_VALUE_INT);
		return true;
	case OPVER_TYPE_INT64:
		LOAD(int64_t, i, RAW_VALUE_INT);
		return true;
	case OPVER_TYPE_UINT8:
	case OPVER_TYPE_BOOL:
		LOAD(uint8_t, u, RAW_VALUE_UINT);
		return true;
	case OPVER_TYPE_UINT16:
		LOAD(uint16_t, u, RAW_VALUE_UINT);
		return true;
	case OPVER_TYPE_UINT32:
		LOAD(uint32_t, u, RAW_VALUE_UINT);
		return true;
	case OPVER_TYPE_UINT64:
		LOAD(uint64_t, u, RAW_VALUE_UINT);
		return true;
	}
	return false;
}

double raw_value_double(const raw_value *value)
{
	switch (value->kind) {
	case RAW_VALUE_INT:
		return (double)value->as.i;
	case RAW_VALUE_UINT:
		return (double)value->as.u;
	case RAW_VALUE_FLOAT:
		break;
	}
	return value->as.f;
}
