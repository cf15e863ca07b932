/*
 * dot.h - the dot products that CONV_2D and FULLY_CONNECTED kernels sum
 * their outputs from, in TensorFlow Lite's order: element by element, so
 * that float sums round exactly as there, and integer sums wrap as its
 * int32 accumulator does (computed unsigned, so without undefined
 * overflow).
 *
 * Static inline so kernel loops inline them and stay vectorizable.
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_DOT_H
#define OPVER_REFERENCE_DOT_H

#include <stddef.h>
#include <stdint.h>

/* total + a[0] * b[0] + ... + a[n - 1] * b[n - 1], added in that order. */
static inline float ref_dot_float(float total, const float *a,
				  const float *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		total += a[i] * b[i];
	return total;
}

/*
 * The sum of (a[i] + a_offset) * (b[i] + b_offset) modulo 2^32, for int8
 * (ref_dot_int8) and uint8 (ref_dot_uint8) operands: one body, so the two
 * quantization schemes share their arithmetic.  The offsets are minus zero
 * points, so each factor is at most 255 in magnitude and each product fits
 * an int32.
 */
#define REF_DOT_INTEGER_DEFINE(name, type)                                   \
	static inline uint32_t name(const type *a, int32_t a_offset,          \
				    const type *b, int32_t b_offset,          \
				    size_t n)                                 \
	{                                                                    \
		uint32_t total = 0;                                          \
                                                                             \
		for (size_t i = 0; i < n; i++)                               \
			total += (uint32_t)(((int32_t)a[i] + a_offset) *     \
					    ((int32_t)b[i] + b_offset));     \
		return total;                                                \
	}

REF_DOT_INTEGER_DEFINE(ref_dot_int8, int8_t)
REF_DOT_INTEGER_DEFINE(ref_dot_uint8, uint8_t)

/* The sum of a[i] * (b[i] + b_offset) for int16 activations `a` and int8
 * weights `b`, in int64 as TFLite's 16x8 kernels: each product fits an
 * int32, the sum may not. */
static inline int64_t ref_dot_int16x8(const int16_t *a, const int8_t *b,
				      int32_t b_offset, size_t n)
{
	int64_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += (int32_t)a[i] * ((int32_t)b[i] + b_offset);
	return total;
}

#endif /* OPVER_REFERENCE_DOT_H */
