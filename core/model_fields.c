/*
 * model_fields.c - the model reader's checked reads and its messages
 * (model_fields.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "model_fields.h"

void opver__model_where(opver__model_reader *r, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(r->where, sizeof(r->where), format, args);
	va_end(args);
}

/* Reports "FILE: WHERE: what" and returns `status`. */
static opver_status vfail(opver__model_reader *r, opver_status status,
			  const char *format, va_list args) OPVER__PRINTF(3, 0);

static opver_status vfail(opver__model_reader *r, opver_status status,
			  const char *format, va_list args)
{
	char what[512];

	vsnprintf(what, sizeof(what), format, args);
	opver__error(r->reporter, "%s: %s: %s%s", r->name, r->where, what,
		     r->has_identifier ? "" :
		     " (the file lacks the TFL3 identifier: is it a .tflite model?)");
	return status;
}

opver_status opver__model_invalid(opver__model_reader *r,
				  const char *format, ...)
{
	opver_status status;
	va_list args;

	va_start(args, format);
	status = vfail(r, OPVER_ERROR_INVALID_MODEL, format, args);
	va_end(args);
	return status;
}

opver_status opver__model_unsupported(opver__model_reader *r,
				      const char *format, ...)
{
	opver_status status;
	va_list args;

	va_start(args, format);
	status = vfail(r, OPVER_ERROR_UNSUPPORTED, format, args);
	va_end(args);
	return status;
}

opver_status opver__model_broken(opver__model_reader *r)
{
	return opver__model_invalid(r, "%s", r->fb.error);
}

opver_status opver__model_no_memory(opver__model_reader *r)
{
	opver__error(r->reporter, "%s: %s: out of memory", r->name, r->where);
	return OPVER_ERROR_NOMEM;
}

void *opver__model_allocate(size_t count, size_t size)
{
	return calloc(count ? count : 1, size);
}

opver_status opver__model_vector(opver__model_reader *r,
				 const opver__fb_table *table,
				 unsigned id, const char *name,
				 uint32_t elem_size,
				 opver__fb_vector *out)
{
	if (!opver__fb_vector_field(&r->fb, table, id, name, elem_size, out))
		return opver__model_broken(r);
	if (out->length > INT32_MAX)
		return opver__model_unsupported(r, "%s has %u entries, more than opver handles",
						name, out->length);
	return OPVER_OK;
}

opver_status opver__model_element(opver__model_reader *r,
				  const opver__fb_vector *vector,
				  uint32_t index, const char *name,
				  opver__fb_table *out)
{
	if (!opver__fb_vector_table(&r->fb, vector, index, name, out))
		return opver__model_broken(r);
	return OPVER_OK;
}

opver_status opver__model_indices(opver__model_reader *r,
				  const opver__fb_table *table,
				  unsigned id, const char *name,
				  int32_t num_tensors,
				  bool allow_omitted, int32_t *count,
				  int32_t **out)
{
	opver__fb_vector vector;
	opver_status status;

	*count = 0;
	*out = NULL;
	status = opver__model_vector(r, table, id, name, 4, &vector);
	if (status != OPVER_OK)
		return status;
	*out = opver__model_allocate(vector.length, sizeof(**out));
	if (*out == NULL)
		return opver__model_no_memory(r);
	*count = (int32_t)vector.length;
	if (!opver__fb_vector_int32(&r->fb, &vector, name, *out))
		return opver__model_broken(r);
	for (int32_t i = 0; i < *count; i++) {
		int32_t index = (*out)[i];

		if (index == -1 && allow_omitted)
			continue;
		if (index < 0 || index >= num_tensors)
			return opver__model_invalid(r, "%s[%d] is tensor %d, out of range (the subgraph has %d tensors)",
						    name, i, index,
						    num_tensors);
	}
	return OPVER_OK;
}

opver_status opver__model_resolve_span(opver__model_reader *r, const char *name,
				       const opver__fb_vector *inline_bytes,
				       uint64_t offset, uint64_t size,
				       opver__model_span *out)
{
	if (offset <= 1) {
		out->data = opver__fb_vector_bytes(&r->fb, inline_bytes);
		out->size = inline_bytes->length;
		return OPVER_OK;
	}
	if (inline_bytes->length != 0)
		return opver__model_invalid(r, "%s are both inline and at file offset %llu",
					    name, (unsigned long long)offset);
	if (offset > r->fb.size || size > r->fb.size - offset)
		return opver__model_invalid(r, "%s at file offset %llu, %llu bytes, run past the end of the %zu-byte file",
					    name, (unsigned long long)offset,
					    (unsigned long long)size,
					    r->fb.size);
	out->data = size != 0 ? r->fb.data + offset : NULL;
	out->size = (size_t)size;
	return OPVER_OK;
}
