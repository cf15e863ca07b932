/*
 * geometry.h - the nodes the oneDNN delegate runs, each seen as one
 * (grouped) 2D convolution over NHWC tensors: CONV_2D as it is,
 * DEPTHWISE_CONV_2D with a group per input channel, FULLY_CONNECTED as a
 * 1x1 convolution sliding over the input's rows.  claims.c refuses what
 * has no such geometry; conv.c makes the primitive from it.
 */
#ifndef OPVER_ONEDNN_GEOMETRY_H
#define OPVER_ONEDNN_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

#include <oneapi/dnnl/dnnl.h>

#include <opver/plugin.h>

/* A convolution's geometry along one spatial axis, as TFLite pads it. */
typedef struct dn_axis {
	int32_t in, kernel, stride, dilation, out;
	int32_t pad_before, pad_after; /* pad_after < 0 drops input rows */
} dn_axis;

/* Fills `axis` for `padding` (an opver_padding); false when the output
 * size is not the one TFLite computes. */
bool dn_axis_of(int32_t padding, int32_t in, int32_t kernel, int32_t stride,
		int32_t dilation, int32_t out, dn_axis *axis);

typedef struct dn_geometry {
	/* Borrowed from the node; bias NULL when the node has none. */
	const opver_tensor *input, *filter, *bias, *output;
	/* Source [batches, rows.in, cols.in, in_channels], destination
	 * [batches, rows.out, cols.out, out_channels], both NHWC; channels
	 * counted over all groups. */
	int32_t batches, in_channels, out_channels, groups;
	dn_axis rows, cols;
	/* The model's filter as oneDNN's weights: [groups,] out, in, kernel
	 * rows, kernel columns (weight_ndims of them; groups, counting
	 * per-group channels, for DEPTHWISE_CONV_2D only), with each
	 * dimension's stride, in elements, in the model's bytes. */
	int weight_ndims;
	dnnl_dims_t weight_dims, weight_strides;
	/* The filter dimension its per-channel scales run along. */
	int32_t filter_axis;
	/* An opver_activation. */
	int32_t activation;
} dn_geometry;

/* Fills `g` for `node` (a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED
 * with an input, a filter and an output; types are not looked at).
 * NULL when its shapes and options are a convolution's; otherwise why
 * not, written to `buf` (`size` bytes). */
const char *dn_geometry_of(const opver_node *node, dn_geometry *g, char *buf,
			   size_t size);

#endif /* OPVER_ONEDNN_GEOMETRY_H */
