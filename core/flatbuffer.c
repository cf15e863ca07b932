/*
 * flatbuffer.c - the checked FlatBuffers reader of flatbuffer.h.  Every
 * helper validates the bytes it reads against the buffer bounds and the
 * format's alignment rules (tables and offsets 4 bytes, vtables 2, scalars
 * and vector elements their own width) before reading them, the way the
 * FlatBuffers verifier does, but lazily: only what the caller asks for.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opver/common.h"

#include "flatbuffer.h"

/* Bytes of a uoffset, a soffset, a vector length and a voffset. */
#define OFFSET_SIZE 4u
#define VOFFSET_SIZE 2u

static uint16_t load16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t load64(const uint8_t *p)
{
	return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

static bool fail(opver__fb *fb, const char *format, ...) OPVER__PRINTF(2, 3);

static bool fail(opver__fb *fb, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(fb->error, sizeof(fb->error), format, args);
	va_end(args);
	return false;
}

/* True when [pos, pos + length) lies inside the buffer (no overflow). */
static bool in_range(const opver__fb *fb, size_t pos, size_t length)
{
	return pos <= fb->size && length <= fb->size - pos;
}

void opver__fb_init(opver__fb *fb, const uint8_t *data, size_t size)
{
	fb->data = data;
	fb->size = size;
	fb->budget = size;
	fb->error[0] = '\0';
}

/* Pays for `bytes` of decoded output (flatbuffer.h says why). */
static bool charge(opver__fb *fb, const char *name, size_t bytes)
{
	if (bytes > fb->budget)
		return fail(fb, "%s: decoding needs more than the file's %zu bytes, so tables or vectors are referenced more than once (no .tflite writer does that); re-export the model",
			    name, fb->size);
	fb->budget -= bytes;
	return true;
}

bool opver__fb_has_identifier(const opver__fb *fb, const char *identifier)
{
	return in_range(fb, OFFSET_SIZE, 4) &&
	       memcmp(fb->data + OFFSET_SIZE, identifier, 4) == 0;
}

/* Checks the table starting at pos: its soffset, vtable and inline size. */
static bool check_table(opver__fb *fb, size_t pos, const char *name,
			opver__fb_table *out)
{
	int32_t soffset;
	size_t vtable;

	if (pos % OFFSET_SIZE != 0)
		return fail(fb, "%s: table at offset %zu is not 4-byte aligned",
			    name, pos);
	if (!in_range(fb, pos, OFFSET_SIZE))
		return fail(fb, "%s: table at offset %zu is outside the %zu-byte buffer",
			    name, pos, fb->size);
	/* The vtable sits at pos - soffset, before or after the table. */
	soffset = (int32_t)load32(fb->data + pos);
	if (soffset > 0 && (size_t)soffset > pos)
		return fail(fb, "%s: vtable of the table at offset %zu starts before the buffer",
			    name, pos);
	if (soffset > 0)
		vtable = pos - (size_t)soffset;
	else if ((uint64_t)-(int64_t)soffset <= fb->size - pos)
		vtable = pos + (size_t)-(int64_t)soffset;
	else
		return fail(fb, "%s: vtable of the table at offset %zu is past the end of the %zu-byte buffer",
			    name, pos, fb->size);
	if (vtable % VOFFSET_SIZE != 0 || !in_range(fb, vtable, 2 * VOFFSET_SIZE))
		return fail(fb, "%s: vtable at offset %zu is misaligned or outside the %zu-byte buffer",
			    name, vtable, fb->size);
	out->pos = pos;
	out->vtable = vtable;
	out->vtable_size = load16(fb->data + vtable);
	out->inline_size = load16(fb->data + vtable + VOFFSET_SIZE);
	if (out->vtable_size < 2 * VOFFSET_SIZE ||
	    out->vtable_size % VOFFSET_SIZE != 0 ||
	    !in_range(fb, vtable, out->vtable_size))
		return fail(fb, "%s: vtable at offset %zu has an invalid size of %u bytes",
			    name, vtable, out->vtable_size);
	if (out->inline_size < OFFSET_SIZE ||
	    !in_range(fb, pos, out->inline_size))
		return fail(fb, "%s: table at offset %zu declares %u inline bytes, outside the %zu-byte buffer",
			    name, pos, out->inline_size, fb->size);
	return true;
}

bool opver__fb_root(opver__fb *fb, opver__fb_table *root)
{
	uint32_t offset;

	if (!in_range(fb, 0, OFFSET_SIZE))
		return fail(fb, "%zu bytes are too few for a FlatBuffer",
			    fb->size);
	/* Offset 0 would make the root overlap its own offset. */
	offset = load32(fb->data);
	if (offset < OFFSET_SIZE)
		return fail(fb, "root table offset %u is invalid", offset);
	return check_table(fb, offset, "root table", root);
}

/*
 * Finds field `id` of `width` bytes: *pos is its offset in the buffer, or
 * 0 when the field or the table is absent.  The field must lie inside the
 * table's inline part and be aligned to its width.
 */
static bool field_pos(opver__fb *fb, const opver__fb_table *table, unsigned id,
		      const char *name, size_t width, size_t *pos)
{
	size_t slot = 2 * VOFFSET_SIZE + (size_t)id * VOFFSET_SIZE;
	uint16_t offset;

	*pos = 0;
	/* Fields past the end of the vtable were added after the writer. */
	if (table->pos == 0 || slot + VOFFSET_SIZE > table->vtable_size)
		return true;
	offset = load16(fb->data + table->vtable + slot);
	if (offset == 0)
		return true;
	if (offset < OFFSET_SIZE || offset > table->inline_size ||
	    width > (size_t)(table->inline_size - offset))
		return fail(fb, "%s: field at byte %u of the table at offset %zu overruns its %u inline bytes",
			    name, offset, table->pos, table->inline_size);
	if ((table->pos + offset) % width != 0)
		return fail(fb, "%s: field at offset %zu is not %zu-byte aligned",
			    name, table->pos + offset, width);
	*pos = table->pos + offset;
	return true;
}

/* Reads a scalar field of width 1, 4 or 8 into *value, or leaves it. */
static bool scalar(opver__fb *fb, const opver__fb_table *table, unsigned id,
		   const char *name, size_t width, uint64_t *value)
{
	size_t pos;

	if (!field_pos(fb, table, id, name, width, &pos))
		return false;
	if (pos == 0)
		return true;
	if (width == 1)
		*value = fb->data[pos];
	else if (width == 4)
		*value = load32(fb->data + pos);
	else
		*value = load64(fb->data + pos);
	return true;
}

bool opver__fb_bool(opver__fb *fb, const opver__fb_table *table, unsigned id,
		    const char *name, bool def, bool *out)
{
	uint64_t value = def;

	if (!scalar(fb, table, id, name, 1, &value))
		return false;
	*out = value != 0;
	return true;
}

bool opver__fb_int8(opver__fb *fb, const opver__fb_table *table, unsigned id,
		    const char *name, int8_t def, int8_t *out)
{
	uint64_t value = (uint8_t)def;

	if (!scalar(fb, table, id, name, 1, &value))
		return false;
	*out = (int8_t)(uint8_t)value;
	return true;
}

bool opver__fb_int32(opver__fb *fb, const opver__fb_table *table,
		     unsigned id, const char *name, int32_t def, int32_t *out)
{
	uint64_t value = (uint32_t)def;

	if (!scalar(fb, table, id, name, 4, &value))
		return false;
	*out = (int32_t)(uint32_t)value;
	return true;
}

bool opver__fb_uint32(opver__fb *fb, const opver__fb_table *table,
		      unsigned id, const char *name, uint32_t def,
		      uint32_t *out)
{
	uint64_t value = def;

	if (!scalar(fb, table, id, name, 4, &value))
		return false;
	*out = (uint32_t)value;
	return true;
}

bool opver__fb_float(opver__fb *fb, const opver__fb_table *table,
		     unsigned id, const char *name, float def, float *out)
{
	uint32_t bits;
	uint64_t value;

	memcpy(&bits, &def, sizeof(bits));
	value = bits;
	if (!scalar(fb, table, id, name, 4, &value))
		return false;
	bits = (uint32_t)value;
	memcpy(out, &bits, sizeof(*out));
	return true;
}

bool opver__fb_uint64(opver__fb *fb, const opver__fb_table *table,
		      unsigned id, const char *name, uint64_t def,
		      uint64_t *out)
{
	*out = def;
	return scalar(fb, table, id, name, 8, out);
}

/* Follows the uoffset field `id`: *target is where it points, 0 when the
 * field is absent.  Targets are always past their field, never at 0. */
static bool offset_field(opver__fb *fb, const opver__fb_table *table,
			 unsigned id, const char *name, size_t *target)
{
	size_t pos;
	uint32_t offset;

	*target = 0;
	if (!field_pos(fb, table, id, name, OFFSET_SIZE, &pos))
		return false;
	if (pos == 0)
		return true;
	offset = load32(fb->data + pos);
	if (offset > fb->size - pos)
		return fail(fb, "%s: offset %u at offset %zu points past the end of the %zu-byte buffer",
			    name, offset, pos, fb->size);
	*target = pos + offset;
	return true;
}

bool opver__fb_table_field(opver__fb *fb, const opver__fb_table *table,
			   unsigned id, const char *name, opver__fb_table *out)
{
	size_t target;

	memset(out, 0, sizeof(*out));
	if (!offset_field(fb, table, id, name, &target))
		return false;
	return target == 0 || check_table(fb, target, name, out);
}

/* Checks the length-prefixed array at pos: length, alignment, bounds. */
static bool check_vector(opver__fb *fb, size_t pos, const char *name,
			 uint32_t elem_size, opver__fb_vector *out)
{
	size_t first = pos + OFFSET_SIZE;
	uint32_t length;

	if (pos % OFFSET_SIZE != 0 || !in_range(fb, pos, OFFSET_SIZE))
		return fail(fb, "%s: vector at offset %zu is misaligned or outside the %zu-byte buffer",
			    name, pos, fb->size);
	length = load32(fb->data + pos);
	if (first % elem_size != 0)
		return fail(fb, "%s: elements at offset %zu are not %u-byte aligned",
			    name, first, elem_size);
	if (length > (fb->size - first) / elem_size)
		return fail(fb, "%s: vector of %u %u-byte elements at offset %zu runs past the end of the %zu-byte buffer",
			    name, length, elem_size, pos, fb->size);
	out->pos = first;
	out->length = length;
	out->elem_size = elem_size;
	return true;
}

bool opver__fb_vector_field(opver__fb *fb, const opver__fb_table *table,
			    unsigned id, const char *name, uint32_t elem_size,
			    opver__fb_vector *out)
{
	size_t target;

	memset(out, 0, sizeof(*out));
	out->elem_size = elem_size;
	if (!offset_field(fb, table, id, name, &target))
		return false;
	return target == 0 || check_vector(fb, target, name, elem_size, out);
}

bool opver__fb_string_field(opver__fb *fb, const opver__fb_table *table,
			    unsigned id, const char *name, const char **out,
			    size_t *length)
{
	opver__fb_vector chars;
	size_t target;

	*out = NULL;
	if (length != NULL)
		*length = 0;
	if (!offset_field(fb, table, id, name, &target))
		return false;
	if (target == 0)
		return true;
	if (!check_vector(fb, target, name, 1, &chars))
		return false;
	/* The terminator must be inside the buffer too. */
	if (chars.length == fb->size - chars.pos ||
	    fb->data[chars.pos + chars.length] != '\0')
		return fail(fb, "%s: string at offset %zu is not NUL-terminated",
			    name, target);
	*out = (const char *)(fb->data + chars.pos);
	if (length != NULL)
		*length = chars.length;
	return true;
}

bool opver__fb_union_field(opver__fb *fb, const opver__fb_table *table,
			   unsigned id, const char *name, uint8_t *type,
			   opver__fb_table *out)
{
	uint64_t value = 0;

	memset(out, 0, sizeof(*out));
	if (!scalar(fb, table, id, name, 1, &value))
		return false;
	*type = (uint8_t)value;
	/* A value without a type is meaningless and ignored, as FlatBuffers
	 * does. */
	return *type == 0 || opver__fb_table_field(fb, table, id + 1, name, out);
}

bool opver__fb_vector_table(opver__fb *fb, const opver__fb_vector *vector,
			    uint32_t index, const char *name,
			    opver__fb_table *out)
{
	size_t pos;
	uint32_t offset;

	memset(out, 0, sizeof(*out));
	if (vector->elem_size != OFFSET_SIZE || index >= vector->length)
		return fail(fb, "%s: no table %u in a vector of %u %u-byte elements",
			    name, index, vector->length, vector->elem_size);
	if (!charge(fb, name, OFFSET_SIZE))
		return false;
	pos = vector->pos + (size_t)index * OFFSET_SIZE;
	offset = load32(fb->data + pos);
	if (offset > fb->size - pos)
		return fail(fb, "%s: offset %u of element %u points past the end of the %zu-byte buffer",
			    name, offset, index, fb->size);
	return check_table(fb, pos + offset, name, out);
}

const uint8_t *opver__fb_vector_bytes(const opver__fb *fb,
				      const opver__fb_vector *vector)
{
	if (vector->elem_size != 1 || vector->length == 0)
		return NULL;
	return fb->data + vector->pos;
}

/* Checks that a vector has elements of `width` bytes before a copy, and
 * pays for the copy. */
static bool check_width(opver__fb *fb, const opver__fb_vector *vector,
			const char *name, uint32_t width)
{
	if (vector->length != 0 && vector->elem_size != width)
		return fail(fb, "%s: vector holds %u-byte elements, not %u-byte ones",
			    name, vector->elem_size, width);
	return charge(fb, name, (size_t)vector->length * width);
}

bool opver__fb_vector_int32(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, int32_t *out)
{
	if (!check_width(fb, vector, name, 4))
		return false;
	for (uint32_t i = 0; i < vector->length; i++)
		out[i] = (int32_t)load32(fb->data + vector->pos + (size_t)i * 4);
	return true;
}

bool opver__fb_vector_int64(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, int64_t *out)
{
	if (!check_width(fb, vector, name, 8))
		return false;
	for (uint32_t i = 0; i < vector->length; i++)
		out[i] = (int64_t)load64(fb->data + vector->pos + (size_t)i * 8);
	return true;
}

bool opver__fb_vector_float(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, float *out)
{
	if (!check_width(fb, vector, name, 4))
		return false;
	for (uint32_t i = 0; i < vector->length; i++) {
		uint32_t bits = load32(fb->data + vector->pos + (size_t)i * 4);

		memcpy(&out[i], &bits, sizeof(bits));
	}
	return true;
}
