/*
 * flatbuffer_mutator.c - a libFuzzer custom mutator for the model targets.
 *
 * Byte-level mutation of a .tflite file mostly breaks an offset, and the
 * reader's verifier stops it there: the kernels behind it are seldom
 * reached.  A FlatBuffer's offsets, vector lengths, shape dimensions,
 * indices and most scalars are little-endian 32-bit words at 4-byte
 * aligned positions, so half of the mutations here replace one aligned
 * word with a value that keeps most files well-formed but changes what
 * they say (a neighbour of the old value, a small number, a boundary);
 * the other half are libFuzzer's own.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_target.h"

/* xorshift32: the mutation must follow from `seed` alone. */
static uint32_t next(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* A replacement for the word `old` of a file of `size` bytes. */
static uint32_t mutated_word(uint32_t old, size_t size, uint32_t *state)
{
	static const uint32_t boundaries[] = {
		0, 1, 2, 3, 4, 8, 16, 0x7f, 0x80, 0xff, 0x100, 0x7fff,
		0x8000, 0xffff, 0x7fffffff, 0x80000000u, 0xffffffffu,
	};
	uint32_t r = next(state);

	switch (r % 6) {
	case 0:
		return old + 1;
	case 1:
		return old - 1;
	case 2:
		return old ^ (1u << (next(state) % 32));
	case 3:
		return boundaries[next(state) %
				  (sizeof(boundaries) / sizeof(boundaries[0]))];
	case 4:
		/* An offset or length near the end of the file. */
		return (uint32_t)size - next(state) % 64;
	default:
		return old * 2;
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	uint32_t state = seed | 1, word;
	size_t at;

	if (size < 8 || next(&state) % 2 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	at = (next(&state) % (size / 4)) * 4;
	memcpy(&word, data + at, sizeof(word));
	word = mutated_word(word, size, &state);
	memcpy(data + at, &word, sizeof(word));
	return size;
}
