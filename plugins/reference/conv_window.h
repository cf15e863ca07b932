/*
 * conv_window.h - how CONV_2D walks its output and sums each output
 * element, as TensorFlow Lite's reference kernels do: for every output
 * position (batch, row, column) and output channel o, the filter taps that
 * land on the input, row by row, column by column, and in each tap the
 * input channels of o's group, o / (O / groups).  Taps in the padding are
 * skipped: they add nothing, not the input zero point.
 *
 * Prepare fills a conv_geometry; invoke asks conv_window_at() for each
 * position (node_checks.h's ref_window_position) and sums it per channel
 * with one of the conv_sum_*() functions.
 * Static inline so kernel loops inline them.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_CONV_WINDOW_H
#define OPVER_REFERENCE_CONV_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "dot.h"
#include "node_checks.h"

/* The node's geometry, as prepare checked it. */
typedef struct conv_geometry {
	int32_t batches;
	int32_t in_depth;
	int32_t group_depth;       /* input channels per group: filter dim 3 */
	int32_t filters_per_group; /* output channels per group */
	int32_t out_depth;
	ref_window rows; /* height: input, filter, stride, ..., padding */
	ref_window cols; /* width, likewise */
} conv_geometry;

/* Output positions of the node: N x OH x OW. */
static inline size_t conv_positions(const conv_geometry *g)
{
	return ref_window_positions(g->batches, &g->rows, &g->cols);
}

/* The window of output position `position`, counted in NHW order. */
static inline ref_window_position conv_window_at(const conv_geometry *g,
						 size_t position)
{
	return ref_window_at(&g->rows, &g->cols, position);
}

/* Index of the input element under tap (y, x), at the first channel of the
 * group starting at channel `group_start`. */
static inline size_t conv_input_index(const conv_geometry *g,
				      const ref_window_position *w,
				      size_t group_start, int32_t y, int32_t x)
{
	return ref_window_input_index(&g->rows, &g->cols,
				      (size_t)g->in_depth, w, y, x) +
	       group_start;
}

/* Index of filter element (channel, y, x, 0). */
static inline size_t conv_filter_index(const conv_geometry *g,
				       int32_t channel, int32_t y, int32_t x)
{
	return (((size_t)channel * (size_t)g->rows.filter + (size_t)y) *
			(size_t)g->cols.filter +
		(size_t)x) *
	       (size_t)g->group_depth;
}

/* First input channel of output channel `channel`'s group. */
static inline size_t conv_group_start(const conv_geometry *g, int32_t channel)
{
	return (size_t)(channel / g->filters_per_group) *
	       (size_t)g->group_depth;
}

static inline float conv_sum_float32(const conv_geometry *g,
				     const ref_window_position *w, const float *input,
				     const float *filter, int32_t channel)
{
	const size_t group = conv_group_start(g, channel);
	const size_t depth = (size_t)g->group_depth;
	float total = 0.0f;

	for (int32_t y = w->y_begin; y < w->y_end; y++)
		for (int32_t x = w->x_begin; x < w->x_end; x++)
			total = ref_dot_float(
				total,
				input + conv_input_index(g, w, group, y, x),
				filter + conv_filter_index(g, channel, y, x),
				depth);
	return total;
}

/*
 * The sum of (filter + filter_offset) * (input + input_offset) over the
 * window, modulo 2^32, for int8 (conv_sum_int8) and uint8 (conv_sum_uint8)
 * tensors.  The offsets are minus zero points; the filter's is 0 but for
 * uint8, whose legacy quantization is asymmetric.
 */
#define CONV_SUM_INTEGER_DEFINE(name, type, dot)                             \
	static inline uint32_t name(const conv_geometry *g,                   \
				    const ref_window_position *w,             \
				    const type *input, const type *filter,    \
				    int32_t channel, int32_t input_offset,    \
				    int32_t filter_offset)                    \
	{                                                                    \
		const size_t group = conv_group_start(g, channel);            \
		const size_t depth = (size_t)g->group_depth;                  \
		uint32_t total = 0;                                           \
                                                                             \
		for (int32_t y = w->y_begin; y < w->y_end; y++)               \
			for (int32_t x = w->x_begin; x < w->x_end; x++)       \
				total += dot(input + conv_input_index(        \
						     g, w, group, y, x),      \
					     input_offset,                    \
					     filter + conv_filter_index(      \
						     g, channel, y, x),       \
					     filter_offset, depth);           \
		return total;                                                 \
	}

CONV_SUM_INTEGER_DEFINE(conv_sum_int8, int8_t, ref_dot_int8)
CONV_SUM_INTEGER_DEFINE(conv_sum_uint8, uint8_t, ref_dot_uint8)

/* The sum of filter * input over the window, in 64 bits: int16 activations
 * with an int64 bias keep all of it. */
static inline int64_t conv_sum_int16(const conv_geometry *g,
				     const ref_window_position *w,
				     const int16_t *input,
				     const int8_t *filter, int32_t channel)
{
	const size_t group = conv_group_start(g, channel);
	int64_t total = 0;

	for (int32_t y = w->y_begin; y < w->y_end; y++)
		for (int32_t x = w->x_begin; x < w->x_end; x++) {
			const int16_t *in =
				input + conv_input_index(g, w, group, y, x);
			const int8_t *f =
				filter + conv_filter_index(g, channel, y, x);

			for (int32_t c = 0; c < g->group_depth; c++)
				total += (int32_t)f[c] * (int32_t)in[c];
		}
	return total;
}

#endif /* OPVER_REFERENCE_CONV_WINDOW_H */
