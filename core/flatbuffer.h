/*
 * flatbuffer.h - a bounds-checked reader for FlatBuffers data that nobody
 * has verified yet.
 *
 *   opver__fb         the buffer being read, plus the reason of the last
 *                     failure
 *   opver__fb_table   a table whose header and vtable have been checked
 *   opver__fb_vector  a vector whose length and elements lie in the buffer
 *
 * Nothing is read before it is checked: each helper checks the bytes it is
 * about to read (offset in range, alignment, vtable bounds, vector length,
 * string terminator) and the handles it returns are only made from checked
 * data.  A failed check returns false and leaves a one-line reason naming
 * the field in fb->error; the caller adds where the field is (which tensor,
 * which operator).  Multi-byte values are assembled byte by byte, so the
 * reader needs no alignment from the host and works on any byte order.
 *
 * Fields are addressed by their id: the position of the field in its table
 * declaration, counting two ids for a union (its type, then its value).
 *
 * Decoding is bounded by the buffer's size.  Offsets may point anywhere,
 * so one table or vector can be referenced many times (one Operator table
 * listed N times in `operators`, one K-entry vector shared by N tables)
 * and decode into N * K entries: an 80 KB file could ask for hundreds of
 * megabytes.  Each element of a vector of tables and each byte a vector
 * copy produces is charged against fb->budget, which starts at the
 * buffer's size; once it is spent, helpers fail.  A buffer whose parts
 * are each stored once never runs out, since every charge pays for bytes
 * of its own (a table's 4-byte soffset, a vector's elements).  This bound
 * was chosen over refusing a table reached twice: it needs no record of
 * visited offsets, and it also stops vectors shared by distinct tables,
 * which the format allows and a record of tables would miss.
 */
#ifndef OPVER_CORE_FLATBUFFER_H
#define OPVER_CORE_FLATBUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct opver__fb {
	const uint8_t *data;    /* borrowed; must outlive every handle */
	size_t size;
	size_t budget;          /* bytes decoding may still charge */
	char error[256];        /* why the last failing helper failed */
} opver__fb;

/*
 * A checked table.  pos is 0 for an absent table: no table can start at
 * offset 0, where the root offset is.  Scalar getters return their default
 * for every field of an absent table, which is how FlatBuffers treats a
 * missing options table.
 */
typedef struct opver__fb_table {
	size_t pos;             /* offset of the table (its vtable soffset) */
	size_t vtable;          /* offset of its vtable */
	uint16_t vtable_size;   /* bytes of vtable, header included */
	uint16_t inline_size;   /* bytes of the table's inline part */
} opver__fb_table;

/* A checked vector: length elements of elem_size bytes from pos on.  An
 * absent vector has length 0. */
typedef struct opver__fb_vector {
	size_t pos;             /* offset of the first element */
	uint32_t length;
	uint32_t elem_size;
} opver__fb_vector;

/* Starts reading `size` bytes at `data` (borrowed). */
void opver__fb_init(opver__fb *fb, const uint8_t *data, size_t size);

/* True when bytes 4..7 hold the 4-character file identifier. */
bool opver__fb_has_identifier(const opver__fb *fb, const char *identifier);

/* The root table. */
bool opver__fb_root(opver__fb *fb, opver__fb_table *root);

/*
 * Scalar fields: *out is the stored value, or `def` when the field (or the
 * whole table) is absent.  `name` is only used in fb->error.
 */
bool opver__fb_bool(opver__fb *fb, const opver__fb_table *table, unsigned id,
		    const char *name, bool def, bool *out);
bool opver__fb_int8(opver__fb *fb, const opver__fb_table *table, unsigned id,
		    const char *name, int8_t def, int8_t *out);
bool opver__fb_int32(opver__fb *fb, const opver__fb_table *table,
		     unsigned id, const char *name, int32_t def, int32_t *out);
bool opver__fb_uint32(opver__fb *fb, const opver__fb_table *table,
		      unsigned id, const char *name, uint32_t def,
		      uint32_t *out);
/* A float field, stored as its IEEE-754 bits (little-endian). */
bool opver__fb_float(opver__fb *fb, const opver__fb_table *table,
		     unsigned id, const char *name, float def, float *out);
bool opver__fb_uint64(opver__fb *fb, const opver__fb_table *table,
		      unsigned id, const char *name, uint64_t def,
		      uint64_t *out);

/* A table field; out->pos is 0 when absent. */
bool opver__fb_table_field(opver__fb *fb, const opver__fb_table *table,
			   unsigned id, const char *name, opver__fb_table *out);

/* A vector field of elem_size-byte elements (1, 2, 4 or 8; tables and
 * strings are 4-byte offsets); length 0 when absent. */
bool opver__fb_vector_field(opver__fb *fb, const opver__fb_table *table,
			    unsigned id, const char *name, uint32_t elem_size,
			    opver__fb_vector *out);

/*
 * A string field: *out points into the buffer at `*length` bytes followed
 * by a NUL inside the buffer (borrowed, like the buffer); NULL when absent.
 * The string may contain further NULs.  length may be NULL.
 */
bool opver__fb_string_field(opver__fb *fb, const opver__fb_table *table,
			    unsigned id, const char *name, const char **out,
			    size_t *length);

/*
 * A union field: its type at `id` and its table at id + 1.  *type is 0
 * (NONE) when absent; out->pos is 0 when the type is NONE or the table is
 * absent.  Any table is checked, whatever the type code says.
 */
bool opver__fb_union_field(opver__fb *fb, const opver__fb_table *table,
			   unsigned id, const char *name, uint8_t *type,
			   opver__fb_table *out);

/* Element `index` of a vector of tables; charges 4 bytes of budget. */
bool opver__fb_vector_table(opver__fb *fb, const opver__fb_vector *vector,
			    uint32_t index, const char *name,
			    opver__fb_table *out);

/* Element bytes of a vector of 1-byte elements (borrowed; NULL when
 * empty). */
const uint8_t *opver__fb_vector_bytes(const opver__fb *fb,
				      const opver__fb_vector *vector);

/*
 * Copy every element of a vector into out[0 .. length - 1] (out is the
 * caller's, length entries), charging the vector's bytes to the budget.
 * Fails when the vector's elements are not of the requested width or the
 * budget is spent.
 */
bool opver__fb_vector_int32(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, int32_t *out);
bool opver__fb_vector_int64(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, int64_t *out);
bool opver__fb_vector_float(opver__fb *fb, const opver__fb_vector *vector,
			    const char *name, float *out);

#endif /* OPVER_CORE_FLATBUFFER_H */
