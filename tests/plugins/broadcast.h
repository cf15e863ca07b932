/*
 * broadcast.h - broadcasting walks for the test plugins' binary kernels
 * (wrong_relu6, add_no_clamp), up to 6-D.
 */
#ifndef OPVER_TEST_PLUGIN_BROADCAST_H
#define OPVER_TEST_PLUGIN_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

#define TEST_MAX_RANK 6

/* The element strides of `t` against an output of rank `rank`: 0 along a
 * broadcast axis (size 1, or missing in front). */
static inline void broadcast_strides(const opver_tensor *t, int32_t rank,
				     size_t *strides)
{
	size_t stride = 1;

	for (int32_t d = rank - 1; d >= 0; d--) {
		int32_t own = d - (rank - t->rank);
		int32_t size = own >= 0 ? t->dims[own] : 1;

		strides[d] = size == 1 ? 0 : stride;
		stride *= (size_t)size;
	}
}

/* The offset of output index `index` in a tensor with these strides. */
static inline size_t broadcast_offset(const int32_t *index,
				      const size_t *strides, int32_t rank)
{
	size_t offset = 0;

	for (int32_t d = 0; d < rank; d++)
		offset += (size_t)index[d] * strides[d];
	return offset;
}

/* Advances an output index, last axis fastest. */
static inline void broadcast_next(int32_t *index, const opver_tensor *out)
{
	for (int32_t d = out->rank - 1; d >= 0; d--) {
		if (++index[d] < out->dims[d])
			break;
		index[d] = 0;
	}
}

#endif /* OPVER_TEST_PLUGIN_BROADCAST_H */
