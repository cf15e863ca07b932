/*
 * flexbuffer_writer.h - writes the FlexBuffers maps that custom ops keep
 * their options in (what TFLite's converter writes with
 * flexbuffers::Builder), for the cases of custom ops.  It writes one
 * thing: a root map of int32, float32 and bool scalars, every value 4
 * bytes wide, its keys sorted as FlexBuffers' lookups need them.  The
 * runtime's reader is core/flexbuffer.c.
 */
#ifndef OPVER_CONFORMANCE_FLEXBUFFER_WRITER_H
#define OPVER_CONFORMANCE_FLEXBUFFER_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cf_flex_kind {
	CF_FLEX_INT,
	CF_FLEX_FLOAT,
	CF_FLEX_BOOL,
} cf_flex_kind;

/* One key and its value: as_int for INT and BOOL (0 or 1), as_float for
 * FLOAT.  The key is borrowed. */
typedef struct cf_flex_entry {
	const char *key;
	cf_flex_kind kind;
	int32_t as_int;
	float as_float;
} cf_flex_entry;

/* The most entries a map may have. */
#define CF_FLEX_MAX_ENTRIES 16

/*
 * Writes the map of entries[0..count-1] (distinct keys, count at most
 * CF_FLEX_MAX_ENTRIES) to `out` and returns its size in bytes; with `out`
 * NULL, only returns the size, so that the caller can allocate it.
 * Returns 0 for too many entries.
 */
size_t cf_flex_write_map(const cf_flex_entry *entries, size_t count,
			 uint8_t *out);

#endif /* OPVER_CONFORMANCE_FLEXBUFFER_WRITER_H */
