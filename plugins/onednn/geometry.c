/*
 * geometry.c - CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED nodes as one
 * convolution geometry, with the shape checks TFLite's kernels make (a
 * delegate's nodes skip the kernels' prepare, so what is not checked here
 * would be read out of bounds).  DEPTHWISE_CONV_2D's output channel
 * c * M + m is group c's output m, as oneDNN numbers a grouped
 * convolution's channels.  FULLY_CONNECTED's input rows lie in memory as a
 * one-row NHWC image of that many columns, its output rows likewise, so a
 * 1x1 convolution computes it, with the zero points oneDNN 2.6's inner
 * product lacks.
 */
#include <stdint.h>

#include "delegate_claims.h"
#include "geometry.h"

bool dn_axis_of(int32_t padding, int32_t in, int32_t kernel, int32_t stride,
		int32_t dilation, int32_t out, dn_axis *axis)
{
	int64_t span = (int64_t)(kernel - 1) * dilation + 1;
	int64_t expected, total;

	if (in < 1 || kernel < 1 || stride < 1 || dilation < 1 || out < 1)
		return false;
	if (padding == OPVER_PADDING_SAME)
		expected = (in + (int64_t)stride - 1) / stride;
	else if (padding == OPVER_PADDING_VALID)
		expected = in >= span ? (in - span) / stride + 1 : 0;
	else
		return false;
	if (expected != out)
		return false;
	/* What the last window reaches past the input; SAME pads half of it
	 * before (the smaller half), VALID none: its last rows may go
	 * unread, a negative pad after. */
	total = (int64_t)(out - 1) * stride + span - in;
	axis->in = in;
	axis->kernel = kernel;
	axis->stride = stride;
	axis->dilation = dilation;
	axis->out = out;
	axis->pad_before = padding == OPVER_PADDING_SAME && total > 0 ?
				   (int32_t)(total / 2) : 0;
	axis->pad_after = (int32_t)(total - axis->pad_before);
	return true;
}

static void set_weights(dn_geometry *g, int ndims, const int64_t *dims,
			const int64_t *strides)
{
	g->weight_ndims = ndims;
	for (int d = 0; d < ndims; d++) {
		g->weight_dims[d] = dims[d];
		g->weight_strides[d] = strides[d];
	}
}

/* Both spatial axes of an NHWC input and output and a filter whose kernel
 * rows and columns are its dimensions 1 and 2. */
static const char *spatial_axes(int32_t padding, int32_t stride_height,
				int32_t stride_width, int32_t dilation_height,
				int32_t dilation_width, dn_geometry *g,
				char *buf, size_t size)
{
	const opver_tensor *in = g->input, *out = g->output;

	if (!dn_axis_of(padding, in->dims[1], g->filter->dims[1],
			stride_height, dilation_height, out->dims[1],
			&g->rows) ||
	    !dn_axis_of(padding, in->dims[2], g->filter->dims[2],
			stride_width, dilation_width, out->dims[2], &g->cols))
		return dc_say(buf, size,
			   "output %dx%d is not what the padding, strides and dilation give",
			   (int)out->dims[1], (int)out->dims[2]);
	return NULL;
}

static const char *conv_geometry(const opver_node *node, dn_geometry *g,
				 char *buf, size_t size)
{
	const opver_tensor *in = g->input, *f = g->filter, *out = g->output;
	opver_conv_params p = OPVER_CONV_PARAMS_DEFAULTS;

	if (in->rank != 4 || f->rank != 4 || out->rank != 4)
		return dc_say(buf, size, "input, filter and output must be 4D");
	if (f->dims[3] != in->dims[3])
		return dc_say(buf, size,
			   "grouped convolution (input %d channels, filter %d)",
			   (int)in->dims[3], (int)f->dims[3]);
	if (out->dims[0] != in->dims[0] || out->dims[3] != f->dims[0])
		return dc_say(buf, size, "output shape is not the convolution's");
	opver_read_params(node, &p, sizeof(p));
	g->batches = in->dims[0];
	g->in_channels = in->dims[3];
	g->out_channels = f->dims[0];
	g->groups = 1;
	g->filter_axis = 0;
	g->activation = p.activation;
	{
		/* TFLite's OHWI filter. */
		const int64_t o = f->dims[0], i = f->dims[3], kh = f->dims[1],
			      kw = f->dims[2];
		const int64_t dims[] = { o, i, kh, kw };
		const int64_t strides[] = { kh * kw * i, 1, kw * i, i };

		set_weights(g, 4, dims, strides);
	}
	return spatial_axes(p.padding, p.stride_height, p.stride_width,
			    p.dilation_height, p.dilation_width, g, buf, size);
}

static const char *depthwise_geometry(const opver_node *node, dn_geometry *g,
				      char *buf, size_t size)
{
	const opver_tensor *in = g->input, *f = g->filter, *out = g->output;
	opver_depthwise_conv_params p = OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	int32_t multiplier;

	if (in->rank != 4 || f->rank != 4 || out->rank != 4)
		return dc_say(buf, size, "input, filter and output must be 4D");
	opver_read_params(node, &p, sizeof(p));
	if (f->dims[0] != 1 || in->dims[3] < 1 || f->dims[3] % in->dims[3] != 0)
		return dc_say(buf, size,
			   "filter [%d,..,%d] is not [1, rows, columns, a multiple of the input's %d channels]",
			   (int)f->dims[0], (int)f->dims[3], (int)in->dims[3]);
	multiplier = f->dims[3] / in->dims[3];
	if (p.depth_multiplier != 0 && p.depth_multiplier != multiplier)
		return dc_say(buf, size,
			   "depth_multiplier %d, but the filter gives each input channel %d",
			   (int)p.depth_multiplier, (int)multiplier);
	if (out->dims[0] != in->dims[0] || out->dims[3] != f->dims[3])
		return dc_say(buf, size, "output shape is not the convolution's");
	g->batches = in->dims[0];
	g->in_channels = in->dims[3];
	g->out_channels = f->dims[3];
	g->groups = in->dims[3];
	g->filter_axis = 3;
	g->activation = p.activation;
	{
		/* [1, KH, KW, C * M]: group c's output m at c * M + m. */
		const int64_t c = in->dims[3], m = multiplier, kh = f->dims[1],
			      kw = f->dims[2];
		const int64_t dims[] = { c, m, 1, kh, kw };
		const int64_t strides[] = { m, 1, c * m, kw * c * m, c * m };

		set_weights(g, 5, dims, strides);
	}
	return spatial_axes(p.padding, p.stride_height, p.stride_width,
			    p.dilation_height, p.dilation_width, g, buf, size);
}

/* The output TFLite gives: the input's leading dimensions and the units
 * with keep_num_dims, else any shape of rows x units elements ending in
 * the units (as the reference kernel accepts). */
static bool fc_output_ok(const opver_tensor *in, const opver_tensor *out,
			 size_t rows, int32_t units, bool keep_num_dims)
{
	if (out->rank < 1 || out->dims[out->rank - 1] != units)
		return false;
	if (!keep_num_dims)
		return opver_tensor_elements(out) == rows * (size_t)units;
	if (out->rank != in->rank)
		return false;
	for (int32_t d = 0; d + 1 < in->rank; d++)
		if (out->dims[d] != in->dims[d])
			return false;
	return true;
}

static const char *fc_geometry(const opver_node *node, dn_geometry *g,
			       char *buf, size_t size)
{
	const opver_tensor *in = g->input, *f = g->filter, *out = g->output;
	opver_fully_connected_params p = OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	size_t elements = opver_tensor_elements(in), rows;
	int32_t units, depth;

	opver_read_params(node, &p, sizeof(p));
	if (p.weights_format != OPVER_FC_WEIGHTS_DEFAULT)
		return dc_say(buf, size, "weights format %d is not the default",
			   (int)p.weights_format);
	if (f->rank != 2 || f->dims[0] < 1 || f->dims[1] < 1)
		return dc_say(buf, size, "weights are not [units, depth]");
	units = f->dims[0];
	depth = f->dims[1];
	if (elements == 0 || elements % (size_t)depth != 0 ||
	    elements / (size_t)depth > INT32_MAX)
		return dc_say(buf, size,
			   "input of %zu elements is not rows of the weights' depth %d",
			   elements, (int)depth);
	rows = elements / (size_t)depth;
	if (p.keep_num_dims &&
	    (in->rank < 1 || in->dims[in->rank - 1] != depth))
		return dc_say(buf, size,
			   "keep_num_dims with an input whose last dimension is not the weights' depth %d",
			   (int)depth);
	if (!fc_output_ok(in, out, rows, units, p.keep_num_dims != 0))
		return dc_say(buf, size, "output shape is not the layer's");
	g->batches = 1;
	g->in_channels = depth;
	g->out_channels = units;
	g->groups = 1;
	g->filter_axis = 0;
	g->activation = p.activation;
	dn_axis_of(OPVER_PADDING_VALID, 1, 1, 1, 1, 1, &g->rows);
	dn_axis_of(OPVER_PADDING_VALID, (int32_t)rows, 1, 1, 1, (int32_t)rows,
		   &g->cols);
	{
		/* [units, depth]: each unit's weights in a row. */
		const int64_t dims[] = { units, depth, 1, 1 };
		const int64_t strides[] = { depth, 1, depth, depth };

		set_weights(g, 4, dims, strides);
	}
	return NULL;
}

const char *dn_geometry_of(const opver_node *node, dn_geometry *g, char *buf,
			   size_t size)
{
	const char *reason;

	g->input = node->inputs[0];
	g->filter = node->inputs[1];
	g->bias = node->num_inputs > 2 ? node->inputs[2] : NULL;
	g->output = node->outputs[0];
	switch (node->op) {
	case OPVER_OP_CONV_2D:
		reason = conv_geometry(node, g, buf, size);
		break;
	case OPVER_OP_DEPTHWISE_CONV_2D:
		reason = depthwise_geometry(node, g, buf, size);
		break;
	case OPVER_OP_FULLY_CONNECTED:
		reason = fc_geometry(node, g, buf, size);
		break;
	default:
		return dc_say(buf, size, "op not supported by this delegate");
	}
	/* The spatial axes are checked positive; oneDNN takes no empty
	 * batch or channel dimension either. */
	if (reason == NULL &&
	    (g->batches < 1 || g->in_channels < 1 || g->out_channels < 1))
		return dc_say(buf, size, "a tensor has no elements");
	return reason;
}
