/*
 * flexbuffer_writer.c - the FlexBuffers map writer of flexbuffer_writer.h.
 *
 * The layout, from FlexBuffers' public documentation, front to back: the
 * keys (NUL-terminated, sorted); the keys vector (its count, then an
 * offset back to each key); the map's header (an offset back to the keys
 * vector, the keys' width, the count), its values, and a packed type
 * byte (type << 2 | log2 of the width) per value; then the root: an
 * offset back to the map's values, the map's packed type, and the root's
 * width, the buffer's last byte.  Every number is 4 bytes wide,
 * little-endian, and stored 4-byte aligned.
 */
#include <string.h>

#include "flexbuffer_writer.h"

/* FlexBuffers' type numbers, those written here. */
enum { FLEX_INT = 1, FLEX_FLOAT = 3, FLEX_MAP = 9, FLEX_BOOL = 26 };

#define WIDTH 4
/* log2 of WIDTH, the low bits of a packed type. */
#define WIDTH_CODE 2

static size_t round_up(size_t n)
{
	return (n + WIDTH - 1) / WIDTH * WIDTH;
}

static void put32(uint8_t *out, size_t pos, uint32_t value)
{
	if (out == NULL)
		return;
	for (int i = 0; i < WIDTH; i++)
		out[pos + (size_t)i] = (uint8_t)(value >> (8 * i));
}

/* Entry order sorted by key (strcmp, as FlexBuffers compares keys). */
static void sort_keys(const cf_flex_entry *entries, size_t count,
		      size_t *order)
{
	for (size_t i = 0; i < count; i++) {
		size_t j = i;

		for (; j > 0 && strcmp(entries[order[j - 1]].key,
				       entries[i].key) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

static uint32_t value_bits(const cf_flex_entry *e)
{
	uint32_t bits;

	if (e->kind != CF_FLEX_FLOAT)
		return (uint32_t)e->as_int;
	memcpy(&bits, &e->as_float, sizeof(bits));
	return bits;
}

static uint8_t packed_type(cf_flex_kind kind)
{
	const int type = kind == CF_FLEX_INT ? FLEX_INT :
			 kind == CF_FLEX_FLOAT ? FLEX_FLOAT : FLEX_BOOL;

	return (uint8_t)(type << 2 | WIDTH_CODE);
}

size_t cf_flex_write_map(const cf_flex_entry *entries, size_t count,
			 uint8_t *out)
{
	size_t order[CF_FLEX_MAX_ENTRIES], key_pos[CF_FLEX_MAX_ENTRIES];
	size_t pos = 0, keys, values, root;

	if (count > CF_FLEX_MAX_ENTRIES)
		return 0;
	sort_keys(entries, count, order);
	for (size_t i = 0; i < count; i++) {
		const size_t length = strlen(entries[order[i]].key) + 1;

		key_pos[i] = pos;
		if (out != NULL)
			memcpy(out + pos, entries[order[i]].key, length);
		pos += length;
	}
	/* The keys vector: its count, then its elements from `keys`. */
	keys = round_up(pos) + WIDTH;
	if (out != NULL)
		memset(out + pos, 0, keys - WIDTH - pos);
	put32(out, keys - WIDTH, (uint32_t)count);
	for (size_t i = 0; i < count; i++)
		put32(out, keys + WIDTH * i,
		      (uint32_t)(keys + WIDTH * i - key_pos[i]));
	/* The map: header, values from `values`, type bytes. */
	values = keys + WIDTH * count + 3 * WIDTH;
	put32(out, values - 3 * WIDTH,
	      (uint32_t)(values - 3 * WIDTH - keys));
	put32(out, values - 2 * WIDTH, WIDTH);
	put32(out, values - WIDTH, (uint32_t)count);
	for (size_t i = 0; i < count; i++) {
		put32(out, values + WIDTH * i, value_bits(&entries[order[i]]));
		if (out != NULL)
			out[values + WIDTH * count + i] =
				packed_type(entries[order[i]].kind);
	}
	pos = values + (WIDTH + 1) * count;
	root = round_up(pos);
	if (out != NULL) {
		memset(out + pos, 0, root - pos);
		out[root + WIDTH] = FLEX_MAP << 2 | WIDTH_CODE;
		out[root + WIDTH + 1] = WIDTH;
	}
	put32(out, root, (uint32_t)(root - values));
	return root + WIDTH + 2;
}
