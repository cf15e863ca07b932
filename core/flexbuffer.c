/*
 * flexbuffer.c - the FlexBuffers map reader of flexbuffer.h.
 *
 * What it relies on of the format (FlexBuffers' public documentation):
 * values are little-endian, 1, 2, 4 or 8 bytes wide.  The last byte of
 * the buffer is the root's width, the byte before it the root's packed
 * type (type << 2 | log2 of the width of the data it refers to), and the
 * root value sits just before those.  Scalars (null, int, uint, float,
 * bool) are stored inline in the width of their parent; everything else
 * is an unsigned offset back from where it is stored.  A map's values
 * start at the address it refers to: before them, each in the map's width,
 * an offset back to its keys vector, that vector's width and the count;
 * after the values, one packed type byte per value.  The keys vector
 * holds, after its own count, offsets back to NUL-terminated keys.
 * Strings and blobs store their length just before their bytes, in the
 * width of their packed type; a string's bytes end with a NUL.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "flexbuffer.h"

/* FlexBuffers' type numbers, those this reader tells apart. */
enum {
	FLEX_NULL = 0,
	FLEX_INT = 1,
	FLEX_UINT = 2,
	FLEX_FLOAT = 3,
	FLEX_STRING = 5,
	FLEX_INDIRECT_INT = 6,
	FLEX_INDIRECT_UINT = 7,
	FLEX_INDIRECT_FLOAT = 8,
	FLEX_MAP = 9,
	FLEX_BLOB = 25,
	FLEX_BOOL = 26,
	FLEX_LAST_TYPE = 36 /* VECTOR_BOOL */
};

typedef struct reader {
	const uint8_t *data;
	size_t size;
	char *error;
	size_t error_size;
} reader;

static bool fail(reader *r, const char *format, ...) OPVER__PRINTF(2, 3);
static bool fail(reader *r, const char *format, ...)
{
	va_list args;

	if (r->error_size > 0) {
		va_start(args, format);
		vsnprintf(r->error, r->error_size, format, args);
		va_end(args);
	}
	return false;
}

static bool valid_width(uint64_t width)
{
	return width == 1 || width == 2 || width == 4 || width == 8;
}

/* The `width` bytes at pos, as an unsigned number. */
static bool read_uint(reader *r, size_t pos, size_t width, const char *what,
		      uint64_t *out)
{
	uint64_t v = 0;

	if (pos > r->size || width > r->size - pos)
		return fail(r, "%s at byte %zu (%zu wide) runs past the %zu bytes",
			    what, pos, width, r->size);
	for (size_t i = width; i-- > 0;)
		v = v << 8 | r->data[pos + i];
	*out = v;
	return true;
}

/* Where the offset stored at pos (in `width` bytes) points: back from pos,
 * never before the buffer. */
static bool follow(reader *r, size_t pos, size_t width, const char *what,
		   size_t *target)
{
	uint64_t offset;

	if (!read_uint(r, pos, width, what, &offset))
		return false;
	if (offset > pos)
		return fail(r, "%s at byte %zu points %llu bytes back, before the buffer",
			    what, pos, (unsigned long long)offset);
	*target = pos - (size_t)offset;
	return true;
}

/* Sign-extends a `width`-byte two's complement number. */
static int64_t sign_extend(uint64_t v, size_t width)
{
	const unsigned bits = (unsigned)(width * 8);

	if (bits < 64 && (v >> (bits - 1)) != 0)
		v |= ~UINT64_C(0) << bits;
	return v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
}

static bool read_float(reader *r, size_t pos, size_t width, double *out)
{
	uint64_t bits;

	if (width != 4 && width != 8)
		return fail(r, "a float %zu bytes wide at byte %zu", width, pos);
	if (!read_uint(r, pos, width, "float", &bits))
		return false;
	if (width == 4) {
		uint32_t b32 = (uint32_t)bits;
		float f;

		memcpy(&f, &b32, sizeof(f));
		*out = f;
	} else {
		memcpy(out, &bits, sizeof(*out));
	}
	return true;
}

/* The three numeric forms of a value, saturating. */
static void set_int(opver_flex_value *v, int32_t kind, int64_t i)
{
	v->kind = kind;
	v->is_number = 1;
	v->as_int = i;
	v->as_uint = i < 0 ? 0 : (uint64_t)i;
	v->as_float = (double)i;
}

static void set_uint(opver_flex_value *v, uint64_t u)
{
	v->kind = OPVER_FLEX_UINT;
	v->is_number = 1;
	v->as_int = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
	v->as_uint = u;
	v->as_float = (double)u;
}

static void set_float(opver_flex_value *v, double d)
{
	v->kind = OPVER_FLEX_FLOAT;
	v->is_number = 1;
	v->as_float = d;
	/* 0x1p63 is the first double past INT64_MAX and UINT64_MAX / 2. */
	if (isnan(d))
		v->as_int = 0;
	else if (d >= 0x1p63)
		v->as_int = INT64_MAX;
	else if (d <= -0x1p63)
		v->as_int = INT64_MIN;
	else
		v->as_int = (int64_t)d;
	if (isnan(d) || d <= 0)
		v->as_uint = 0;
	else if (d >= 0x1p64)
		v->as_uint = UINT64_MAX;
	else
		v->as_uint = (uint64_t)d;
}

/* A string or blob: its length in `width` bytes before `at`, then the bytes
 * (and a NUL for a string). */
static bool read_bytes(reader *r, size_t at, size_t width, bool string,
		       opver_flex_value *v)
{
	uint64_t length;

	if (at < width)
		return fail(r, "a %s at byte %zu has no room for its length",
			    string ? "string" : "blob", at);
	if (!read_uint(r, at - width, width, "length", &length))
		return false;
	if (length > r->size - at || (string && length == r->size - at))
		return fail(r, "a %s of %llu bytes at byte %zu runs past the %zu bytes",
			    string ? "string" : "blob",
			    (unsigned long long)length, at, r->size);
	if (string && r->data[at + length] != 0)
		return fail(r, "the string at byte %zu has no terminating NUL",
			    at);
	v->kind = string ? OPVER_FLEX_STRING : OPVER_FLEX_BLOB;
	v->bytes = r->data + at;
	v->size = length;
	return true;
}

/* The value stored at pos in the parent's `width`, of packed type
 * `packed`. */
static bool read_value(reader *r, size_t pos, size_t width, uint8_t packed,
		       opver_flex_value *v)
{
	const unsigned type = packed >> 2;
	const size_t own_width = (size_t)1 << (packed & 3);
	uint64_t u;
	double d;
	size_t at = 0;

	switch (type) {
	case FLEX_NULL:
		v->kind = OPVER_FLEX_NULL;
		return true;
	case FLEX_INT:
	case FLEX_BOOL:
		if (!read_uint(r, pos, width, "value", &u))
			return false;
		if (type == FLEX_BOOL)
			set_int(v, OPVER_FLEX_BOOL, u != 0);
		else
			set_int(v, OPVER_FLEX_INT, sign_extend(u, width));
		return true;
	case FLEX_UINT:
		if (!read_uint(r, pos, width, "value", &u))
			return false;
		set_uint(v, u);
		return true;
	case FLEX_FLOAT:
		if (!read_float(r, pos, width, &d))
			return false;
		set_float(v, d);
		return true;
	default:
		break;
	}
	if (type > FLEX_LAST_TYPE)
		return fail(r, "value at byte %zu has unknown type %u", pos,
			    type);
	if (!follow(r, pos, width, "value offset", &at))
		return false;
	switch (type) {
	case FLEX_INDIRECT_INT:
	case FLEX_INDIRECT_UINT:
		if (!read_uint(r, at, own_width, "indirect value", &u))
			return false;
		if (type == FLEX_INDIRECT_INT)
			set_int(v, OPVER_FLEX_INT, sign_extend(u, own_width));
		else
			set_uint(v, u);
		return true;
	case FLEX_INDIRECT_FLOAT:
		if (!read_float(r, at, own_width, &d))
			return false;
		set_float(v, d);
		return true;
	case FLEX_STRING:
	case FLEX_BLOB:
		return read_bytes(r, at, own_width, type == FLEX_STRING, v);
	default:
		v->kind = OPVER_FLEX_OTHER;
		return true;
	}
}

/* Whether the NUL-terminated key at `at` is `key`; fails when the buffer
 * ends first.  Reads at most strlen(key) + 1 bytes. */
static bool key_is(reader *r, size_t at, const char *key, bool *equal)
{
	for (size_t i = 0;; i++) {
		if (at >= r->size || i >= r->size - at)
			return fail(r, "the key at byte %zu has no terminating NUL",
				    at);
		if (r->data[at + i] != (uint8_t)key[i]) {
			*equal = false;
			return true;
		}
		if (key[i] == '\0') {
			*equal = true;
			return true;
		}
	}
}

/* A map whose values start at `values`, `width` bytes each. */
typedef struct map {
	size_t values, width, count;
	size_t keys, key_width; /* the keys vector's elements */
} map;

static bool read_map(reader *r, size_t values, size_t width, map *m)
{
	uint64_t count, key_width, key_count;

	if (values < 3 * width)
		return fail(r, "the map at byte %zu has no room for its header",
			    values);
	m->values = values;
	m->width = width;
	if (!read_uint(r, values - width, width, "map size", &count) ||
	    !read_uint(r, values - 2 * width, width, "key width", &key_width) ||
	    !follow(r, values - 3 * width, width, "keys offset", &m->keys))
		return false;
	/* The values, then a type byte for each. */
	if (count > (r->size - values) / (width + 1))
		return fail(r, "a map of %llu values at byte %zu runs past the %zu bytes",
			    (unsigned long long)count, values, r->size);
	if (!valid_width(key_width))
		return fail(r, "the map at byte %zu has keys %llu bytes wide",
			    values, (unsigned long long)key_width);
	m->count = (size_t)count;
	m->key_width = (size_t)key_width;
	if (m->keys < m->key_width)
		return fail(r, "the keys at byte %zu have no room for their size",
			    m->keys);
	if (!read_uint(r, m->keys - m->key_width, m->key_width, "key count",
		       &key_count))
		return false;
	if (key_count != count)
		return fail(r, "the map at byte %zu has %llu values but %llu keys",
			    values, (unsigned long long)count,
			    (unsigned long long)key_count);
	if (m->keys > r->size || count > (r->size - m->keys) / m->key_width)
		return fail(r, "the %llu keys at byte %zu run past the %zu bytes",
			    (unsigned long long)count, m->keys, r->size);
	return true;
}

/* The root: a map, with its own width and packed type in the last two
 * bytes. */
static bool read_root(reader *r, map *m)
{
	size_t width, at = 0;
	uint8_t packed;

	if (r->data == NULL || r->size < 3)
		return fail(r, "%zu bytes are too few for a FlexBuffers root",
			    r->data == NULL ? (size_t)0 : r->size);
	width = r->data[r->size - 1];
	packed = r->data[r->size - 2];
	if (!valid_width(width) || width > r->size - 2)
		return fail(r, "the root's width byte is %zu", width);
	if ((packed >> 2) != FLEX_MAP)
		return fail(r, "the root is of type %u, not a map",
			    (unsigned)(packed >> 2));
	if (!follow(r, r->size - 2 - width, width, "root offset", &at))
		return false;
	return read_map(r, at, (size_t)1 << (packed & 3), m);
}

bool opver__flex_map_find(const uint8_t *data, size_t size, const char *key,
			  opver_flex_value *value, char *error,
			  size_t error_size)
{
	reader r = { data, size, error, error_size };
	map m = { 0 };

	memset(value, 0, sizeof(*value));
	if (error_size > 0)
		error[0] = '\0';
	if (!read_root(&r, &m))
		return false;
	for (size_t i = 0; i < m.count; i++) {
		size_t at = 0;
		bool equal;

		if (!follow(&r, m.keys + i * m.key_width, m.key_width,
			    "key offset", &at) ||
		    !key_is(&r, at, key, &equal))
			return false;
		if (!equal)
			continue;
		if (read_value(&r, m.values + i * m.width, m.width,
			       r.data[m.values + m.count * m.width + i], value))
			return true;
		memset(value, 0, sizeof(*value));
		return false;
	}
	return true;
}
