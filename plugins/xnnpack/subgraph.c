/*
 * subgraph.c - a partition's nodes as the nodes of one XNNPACK subgraph.
 * Tensors read or written outside the partition are external values that
 * XNNPACK reads and writes in place (the core's arena); tensors inside it
 * are XNNPACK's own.  Constants are static values: weights (which XNNPACK
 * packs when it creates the runtime) over the mapped model, any other
 * constant over a copy XNN_EXTRA_BYTES longer, since XNNPACK's kernels
 * read past their operands' ends and the model may end at a page.
 * Every value keeps its tensor's shape and its type: float32, or int8 and
 * uint8 with the tensor's scale and zero point (QC8 for an int8 filter
 * with a scale per channel).
 */
#include <math.h>
#include <string.h>

#include "claims.h"
#include "subgraph.h"

/* What defining a partition's subgraph works with. */
typedef struct builder {
	const opver_context *ctx;
	const opver_partition *partition;
	xnn_subgraph_t subgraph;
	/* Per graph tensor, its value or XNN_INVALID_VALUE_ID (weights are
	 * not kept: see define_value); owned. */
	uint32_t *ids;
} builder;

static int32_t tensor_index(const opver_graph_view *graph,
			    const opver_tensor *tensor)
{
	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t] == tensor)
			return t;
	return -1;
}

/* Its external id when `t` is a boundary tensor of the partition. */
static uint32_t external_id(const opver_partition *partition, int32_t t,
			    uint32_t *flags)
{
	for (int32_t i = 0; i < partition->num_inputs; i++)
		if (partition->input_indices[i] == t) {
			*flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
			return (uint32_t)i;
		}
	for (int32_t o = 0; o < partition->num_outputs; o++)
		if (partition->output_indices[o] == t) {
			*flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
			return (uint32_t)(partition->num_inputs + o);
		}
	*flags = 0;
	return XNN_INVALID_VALUE_ID;
}

/* What a constant's static value points at: `packed` weights the model's
 * bytes, anything else a padded copy the interpreter owns. */
static const void *static_data(builder *b, const opver_tensor *tensor,
			       bool packed)
{
	void *copy;

	if (packed)
		return tensor->data;
	copy = b->ctx->host->allocate_persistent(b->ctx, tensor->bytes +
							 XNN_EXTRA_BYTES);
	if (copy != NULL && tensor->bytes > 0)
		memcpy(copy, tensor->data, tensor->bytes);
	return copy;
}

/*
 * Defines a value of `tensor`'s type: float32, or int8 and uint8 with
 * their quantization (an int8 filter with a scale per channel is QC8).
 * `dims` (the tensor's rank of them), `data`, `id` and `flags` as for
 * xnn_define_tensor_value.
 */
static enum xnn_status define_typed(builder *b, const opver_tensor *tensor,
				    const size_t *dims, const void *data,
				    uint32_t id, uint32_t flags,
				    uint32_t *id_out)
{
	const opver_quantization *q = &tensor->quant;
	size_t rank = (size_t)tensor->rank;

	if (tensor->type == OPVER_TYPE_INT8 && q->count > 1)
		return xnn_define_channelwise_quantized_tensor_value(
			b->subgraph, xnn_datatype_qcint8, q->scale, rank,
			(size_t)q->axis, dims, data, id, flags, id_out);
	if (tensor->type == OPVER_TYPE_INT8 ||
	    tensor->type == OPVER_TYPE_UINT8)
		return xnn_define_quantized_tensor_value(b->subgraph,
			tensor->type == OPVER_TYPE_INT8 ? xnn_datatype_qint8 :
							  xnn_datatype_quint8,
			(int32_t)q->zero_point[0], q->scale[0], rank, dims,
			data, id, flags, id_out);
	return xnn_define_tensor_value(b->subgraph, xnn_datatype_fp32, rank,
				       dims, data, id, flags, id_out);
}

/*
 * The value of `tensor`, defined on first use; `packed` when it is a
 * weight XNNPACK packs at runtime creation.  Weight values are not
 * remembered, so a constant that is also another node's operand gets its
 * padded copy there.
 */
static uint32_t define_value(builder *b, const opver_tensor *tensor,
			     bool packed)
{
	int32_t t = tensor_index(b->partition->graph, tensor);
	const void *data = NULL;
	size_t dims[XP_MAX_DIMS];
	uint32_t flags, id;

	if (t < 0 || tensor->rank > XP_MAX_DIMS)
		return XNN_INVALID_VALUE_ID;
	if (b->ids[t] != XNN_INVALID_VALUE_ID)
		return b->ids[t];
	for (int32_t d = 0; d < tensor->rank; d++)
		dims[d] = (size_t)tensor->dims[d];
	if (tensor->is_constant) {
		data = static_data(b, tensor, packed);
		if (data == NULL)
			return XNN_INVALID_VALUE_ID;
	}
	id = external_id(b->partition, t, &flags);
	if (define_typed(b, tensor, dims, data, id, flags, &id) !=
	    xnn_status_success)
		return XNN_INVALID_VALUE_ID;
	if (!packed)
		b->ids[t] = id;
	return id;
}

static uint32_t value(builder *b, const opver_tensor *tensor)
{
	return define_value(b, tensor, false);
}

/* The value of the node's filter (input 1). */
static uint32_t filter_value(builder *b, const opver_node *node)
{
	return define_value(b, node->inputs[1], true);
}

/*
 * The value of the node's bias (input 2), XNN_INVALID_VALUE_ID when
 * absent.  An int32 bias is added to the accumulators as it is, as TFLite
 * adds it; XNNPACK wants it typed with the scale input * filter (one per
 * channel, QC8's int32, with a per-channel filter), whatever the model
 * stores.
 */
static uint32_t bias_value(builder *b, const opver_node *node)
{
	const opver_tensor *bias = node->num_inputs > 2 ? node->inputs[2] :
							   NULL;
	const opver_quantization *filter = &node->inputs[1]->quant;
	float in_scale;
	float *scales;
	size_t dims[1];
	uint32_t id;

	if (bias == NULL)
		return XNN_INVALID_VALUE_ID;
	if (bias->type != OPVER_TYPE_INT32)
		return define_value(b, bias, true);
	in_scale = node->inputs[0]->quant.scale[0];
	dims[0] = (size_t)bias->dims[0];
	if (filter->count == 1) {
		if (xnn_define_quantized_tensor_value(b->subgraph,
			    xnn_datatype_qint32, 0, in_scale * filter->scale[0],
			    1, dims, bias->data, XNN_INVALID_VALUE_ID, 0,
			    &id) != xnn_status_success)
			return XNN_INVALID_VALUE_ID;
		return id;
	}
	/* Owned by the interpreter: XNNPACK reads it when it creates the
	 * runtime. */
	scales = b->ctx->host->allocate_persistent(b->ctx, dims[0] *
						   sizeof(*scales));
	if (scales == NULL)
		return XNN_INVALID_VALUE_ID;
	for (size_t c = 0; c < dims[0]; c++)
		scales[c] = in_scale * filter->scale[c];
	if (xnn_define_channelwise_quantized_tensor_value(b->subgraph,
		    xnn_datatype_qcint32, scales, 1, 0, dims, bias->data,
		    XNN_INVALID_VALUE_ID, 0, &id) != xnn_status_success)
		return XNN_INVALID_VALUE_ID;
	return id;
}

/*
 * Explicit paddings of a window op, as TFLite computes them: this
 * XNNPACK's XNN_FLAG_TENSORFLOW_SAME_PADDING goes wrong when a stride is
 * larger than the (dilated) window (the total padding is negative there),
 * so the flag is never used.
 */
typedef struct paddings {
	uint32_t top, right, bottom, left;
} paddings;

static void same_padding(int32_t in, int32_t window, int32_t stride,
			 int32_t dilation, uint32_t *before, uint32_t *after)
{
	int64_t out = ((int64_t)in + stride - 1) / stride;
	int64_t total = (out - 1) * stride +
			((int64_t)window - 1) * dilation + 1 - in;

	if (total < 0)
		total = 0;
	*before = (uint32_t)(total / 2);
	*after = (uint32_t)(total - total / 2);
}

static paddings window_padding(const opver_node *node, int32_t padding,
			       int32_t window_h, int32_t window_w,
			       int32_t stride_h, int32_t stride_w,
			       int32_t dilation_h, int32_t dilation_w)
{
	const int32_t *in = node->inputs[0]->dims;
	paddings p = { 0, 0, 0, 0 };

	if (padding != OPVER_PADDING_SAME)
		return p;
	same_padding(in[1], window_h, stride_h, dilation_h, &p.top,
		     &p.bottom);
	same_padding(in[2], window_w, stride_w, dilation_w, &p.left,
		     &p.right);
	return p;
}

static enum xnn_status define_conv(builder *b, const opver_node *node,
				   uint32_t in, uint32_t out)
{
	opver_conv_params p = OPVER_CONV_PARAMS_DEFAULTS;
	const int32_t *filter = node->inputs[1]->dims;
	uint32_t groups = (uint32_t)(node->inputs[0]->dims[3] / filter[3]);
	float min, max;

	paddings pad;

	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	pad = window_padding(node, p.padding, filter[1], filter[2],
			     p.stride_height, p.stride_width,
			     p.dilation_height, p.dilation_width);
	return xnn_define_convolution_2d(b->subgraph, pad.top, pad.right,
		pad.bottom, pad.left, (uint32_t)filter[1], (uint32_t)filter[2],
		(uint32_t)p.stride_height, (uint32_t)p.stride_width,
		(uint32_t)p.dilation_height, (uint32_t)p.dilation_width,
		groups, (size_t)filter[3], (size_t)filter[0] / groups,
		min, max, in, filter_value(b, node), bias_value(b, node),
		out, 0);
}

static enum xnn_status define_depthwise(builder *b, const opver_node *node,
					uint32_t in, uint32_t out)
{
	opver_depthwise_conv_params p = OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	const int32_t *filter = node->inputs[1]->dims;
	int32_t channels = node->inputs[0]->dims[3];
	float min, max;

	paddings pad;

	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	pad = window_padding(node, p.padding, filter[1], filter[2],
			     p.stride_height, p.stride_width,
			     p.dilation_height, p.dilation_width);
	/* The multiplier the filter implies; TFLite does not trust the
	 * stored one either. */
	return xnn_define_depthwise_convolution_2d(b->subgraph, pad.top,
		pad.right, pad.bottom, pad.left,
		(uint32_t)filter[1], (uint32_t)filter[2],
		(uint32_t)p.stride_height, (uint32_t)p.stride_width,
		(uint32_t)p.dilation_height, (uint32_t)p.dilation_width,
		(uint32_t)(filter[3] / channels), (size_t)channels,
		min, max, in, filter_value(b, node), bias_value(b, node),
		out, 0);
}

static enum xnn_status define_fc(builder *b, const opver_node *node,
				 uint32_t in, uint32_t out)
{
	opver_fully_connected_params p = OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	float min, max;

	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	/* Without keep_num_dims TFLite flattens the input to rows of the
	 * weights' depth, as the flag makes XNNPACK do. */
	return xnn_define_fully_connected(b->subgraph, min, max, in,
		filter_value(b, node), bias_value(b, node), out,
		p.keep_num_dims ? 0 : XNN_FLAG_TENSORFLOW_RESHAPE_2D);
}

static enum xnn_status define_binary(builder *b, const opver_node *node,
				     uint32_t in, uint32_t out)
{
	/* ADD, MUL, SUB and DIV all start with the activation. */
	opver_mul_params p = OPVER_MUL_PARAMS_DEFAULTS;
	uint32_t in2 = value(b, node->inputs[1]);
	float min, max;

	if (in2 == XNN_INVALID_VALUE_ID)
		return xnn_status_invalid_parameter;
	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	switch (node->op) {
	case OPVER_OP_ADD:
		return xnn_define_add2(b->subgraph, min, max, in, in2, out, 0);
	case OPVER_OP_MUL:
		return xnn_define_multiply2(b->subgraph, min, max, in, in2,
					    out, 0);
	case OPVER_OP_SUB:
		return xnn_define_subtract(b->subgraph, min, max, in, in2, out,
					   0);
	case OPVER_OP_DIV:
		return xnn_define_divide(b->subgraph, min, max, in, in2, out,
					 0);
	case OPVER_OP_MAXIMUM:
		return xnn_define_maximum2(b->subgraph, in, in2, out, 0);
	case OPVER_OP_MINIMUM:
		return xnn_define_minimum2(b->subgraph, in, in2, out, 0);
	default:
		return xnn_define_squared_difference(b->subgraph, in, in2, out,
						     0);
	}
}

static enum xnn_status define_leaky_relu(builder *b, const opver_node *node,
					  uint32_t in, uint32_t out)
{
	opver_leaky_relu_params p = OPVER_LEAKY_RELU_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	return xnn_define_leaky_relu(b->subgraph, p.alpha, in, out, 0);
}

static enum xnn_status define_pool(builder *b, const opver_node *node,
				   uint32_t in, uint32_t out)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;
	float min, max;

	paddings pad;

	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	pad = window_padding(node, p.padding, p.filter_height, p.filter_width,
			     p.stride_height, p.stride_width, 1, 1);
	/* The only quantized average pooling of this XNNPACK. */
	if (node->op == OPVER_OP_AVERAGE_POOL_2D &&
	    node->inputs[0]->type != OPVER_TYPE_FLOAT32)
		return xnn_define_global_average_pooling_2d(b->subgraph, min,
							    max, in, out, 0);
	if (node->op == OPVER_OP_AVERAGE_POOL_2D)
		return xnn_define_average_pooling_2d(b->subgraph, pad.top,
			pad.right, pad.bottom, pad.left,
			(uint32_t)p.filter_height, (uint32_t)p.filter_width,
			(uint32_t)p.stride_height, (uint32_t)p.stride_width,
			min, max, in, out, 0);
	return xnn_define_max_pooling_2d(b->subgraph, pad.top, pad.right,
		pad.bottom, pad.left,
		(uint32_t)p.filter_height, (uint32_t)p.filter_width,
		(uint32_t)p.stride_height, (uint32_t)p.stride_width, 1, 1,
		min, max, in, out, 0);
}

static enum xnn_status define_reshape(builder *b, const opver_node *node,
				      uint32_t in, uint32_t out)
{
	const opver_tensor *o = node->outputs[0];
	size_t dims[XP_MAX_DIMS];

	for (int32_t d = 0; d < o->rank; d++)
		dims[d] = (size_t)o->dims[d];
	return xnn_define_static_reshape(b->subgraph, (size_t)o->rank, dims,
					 in, out, 0);
}

static enum xnn_status define_pad(builder *b, const opver_node *node,
				  uint32_t in, uint32_t out)
{
	const int32_t *pads = node->inputs[1]->data;
	size_t before[XP_MAX_DIMS], after[XP_MAX_DIMS];

	for (int32_t d = 0; d < node->inputs[0]->rank; d++) {
		before[d] = (size_t)pads[2 * d];
		after[d] = (size_t)pads[2 * d + 1];
	}
	return xnn_define_static_constant_pad(b->subgraph, before, after, 0.0f,
					      in, out, 0);
}

static enum xnn_status define_resize(builder *b, const opver_node *node,
				     uint32_t in, uint32_t out)
{
	opver_resize_bilinear_params p = OPVER_RESIZE_BILINEAR_PARAMS_DEFAULTS;
	const int32_t *dims = node->outputs[0]->dims;
	uint32_t flags = 0;

	opver_read_params(node, &p, sizeof(p));
	/* No flag: half-pixel centres (claims.c refuses them with aligned
	 * corners). */
	if (p.align_corners)
		flags = XNN_FLAG_ALIGN_CORNERS;
	else if (!p.half_pixel_centers)
		flags = XNN_FLAG_TENSORFLOW_LEGACY_MODE;
	return xnn_define_static_resize_bilinear_2d(b->subgraph,
		(size_t)dims[1], (size_t)dims[2], in, out, flags);
}

static enum xnn_status define_depth_to_space(builder *b,
					     const opver_node *node,
					     uint32_t in, uint32_t out)
{
	opver_space_depth_params p = OPVER_SPACE_DEPTH_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	return xnn_define_depth_to_space(b->subgraph, in, out,
					 (uint32_t)p.block_size, 0);
}

static enum xnn_status define_prelu(builder *b, const opver_node *node,
				    uint32_t in, uint32_t out)
{
	/* The slopes, [C] or [1, ..., C]: XNNPACK packs their C floats. */
	uint32_t slope = define_value(b, node->inputs[1], true);

	if (slope == XNN_INVALID_VALUE_ID)
		return xnn_status_invalid_parameter;
	return xnn_define_prelu(b->subgraph, in, slope, out, 0);
}

/* TRANSPOSE_CONV: filter [O, KH, KW, I], as XNNPACK's deconvolution takes
 * it, and the optional bias (input 3), both packed. */
static enum xnn_status define_transpose_conv(builder *b,
					     const opver_node *node,
					     uint32_t in, uint32_t out)
{
	opver_transpose_conv_params p = OPVER_TRANSPOSE_CONV_PARAMS_DEFAULTS;
	const int32_t *filter = node->inputs[1]->dims;
	const int32_t *in_dims = node->inputs[2]->dims;
	const int32_t *out_dims = node->outputs[0]->dims;
	uint32_t bias = XNN_INVALID_VALUE_ID;
	xp_deconv_axis rows, cols;
	float min, max;

	opver_read_params(node, &p, sizeof(p));
	xp_activation_range(p.activation, &min, &max);
	xp_deconv_axis_of(p.padding, in_dims[1], filter[1], p.stride_height,
			  out_dims[1], &rows);
	xp_deconv_axis_of(p.padding, in_dims[2], filter[2], p.stride_width,
			  out_dims[2], &cols);
	if (node->num_inputs > 3 && node->inputs[3] != NULL) {
		bias = define_value(b, node->inputs[3], true);
		if (bias == XNN_INVALID_VALUE_ID)
			return xnn_status_invalid_parameter;
	}
	return xnn_define_deconvolution_2d(b->subgraph, rows.before,
		cols.after, rows.after, cols.before, rows.adjustment,
		cols.adjustment, (uint32_t)filter[1], (uint32_t)filter[2],
		(uint32_t)p.stride_height, (uint32_t)p.stride_width, 1, 1, 1,
		(size_t)filter[3], (size_t)filter[0], min, max, in,
		filter_value(b, node), bias, out, 0);
}

static enum xnn_status define_node(builder *b, const opver_node *node)
{
	uint32_t in = value(b, node->inputs[xp_value_input(node)]);
	uint32_t out = value(b, node->outputs[0]);

	if (in == XNN_INVALID_VALUE_ID || out == XNN_INVALID_VALUE_ID)
		return xnn_status_invalid_parameter;
	switch (node->op) {
	case OPVER_OP_CONV_2D:
		return define_conv(b, node, in, out);
	case OPVER_OP_DEPTHWISE_CONV_2D:
		return define_depthwise(b, node, in, out);
	case OPVER_OP_FULLY_CONNECTED:
		return define_fc(b, node, in, out);
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
	case OPVER_OP_SUB:
	case OPVER_OP_DIV:
	case OPVER_OP_MAXIMUM:
	case OPVER_OP_MINIMUM:
	case OPVER_OP_SQUARED_DIFFERENCE:
		return define_binary(b, node, in, out);
	case OPVER_OP_LEAKY_RELU:
		return define_leaky_relu(b, node, in, out);
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
		return define_pool(b, node, in, out);
	case OPVER_OP_RESHAPE:
		return define_reshape(b, node, in, out);
	case OPVER_OP_SOFTMAX:
		return xnn_define_softmax(b->subgraph, in, out, 0);
	case OPVER_OP_RELU:
		return xnn_define_clamp(b->subgraph, 0.0f, INFINITY, in, out, 0);
	case OPVER_OP_RELU6:
		return xnn_define_clamp(b->subgraph, 0.0f, 6.0f, in, out, 0);
	case OPVER_OP_RELU_N1_TO_1:
		return xnn_define_clamp(b->subgraph, -1.0f, 1.0f, in, out, 0);
	case OPVER_OP_LOGISTIC:
		return xnn_define_sigmoid(b->subgraph, in, out, 0);
	case OPVER_OP_HARD_SWISH:
		return xnn_define_hardswish(b->subgraph, in, out, 0);
	case OPVER_OP_ABS:
		return xnn_define_abs(b->subgraph, in, out, 0);
	case OPVER_OP_NEG:
		return xnn_define_negate(b->subgraph, in, out, 0);
	case OPVER_OP_SQUARE:
		return xnn_define_square(b->subgraph, in, out, 0);
	case OPVER_OP_SQRT:
		return xnn_define_square_root(b->subgraph, in, out, 0);
	case OPVER_OP_FLOOR:
		return xnn_define_floor(b->subgraph, in, out, 0);
	case OPVER_OP_CEIL:
		return xnn_define_ceiling(b->subgraph, in, out, 0);
	case OPVER_OP_ROUND:
		return xnn_define_bankers_rounding(b->subgraph, in, out, 0);
	case OPVER_OP_PAD:
		return define_pad(b, node, in, out);
	case OPVER_OP_MEAN:
		return xnn_define_global_average_pooling_2d(b->subgraph,
			-INFINITY, INFINITY, in, out, 0);
	case OPVER_OP_QUANTIZE:
	case OPVER_OP_DEQUANTIZE:
		return xnn_define_convert(b->subgraph, in, out, 0);
	case OPVER_OP_RESIZE_BILINEAR:
		return define_resize(b, node, in, out);
	case OPVER_OP_DEPTH_TO_SPACE:
		return define_depth_to_space(b, node, in, out);
	case OPVER_OP_PRELU:
		return define_prelu(b, node, in, out);
	case OPVER_OP_ELU:
		/* TFLite's ELU has alpha 1. */
		return xnn_define_elu(b->subgraph, 1.0f, in, out, 0);
	case OPVER_OP_TRANSPOSE_CONV:
		return define_transpose_conv(b, node, in, out);
	default:
		return xnn_status_unsupported_parameter;
	}
}

/* Records the boundary tensors the subgraph has values for (RESHAPE's
 * shape input, for one, is not a value). */
static opver_status boundary(const opver_context *ctx, xp_partition *xp,
			     const opver_partition *partition,
			     const uint32_t *ids)
{
	size_t most = (size_t)partition->num_inputs +
		      (size_t)partition->num_outputs + 1;

	xp->tensors = ctx->host->allocate(ctx, most * sizeof(*xp->tensors));
	xp->external = ctx->host->allocate(ctx, most * sizeof(*xp->external));
	if (xp->tensors == NULL || xp->external == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t i = 0; i < partition->num_inputs; i++) {
		if (ids[partition->input_indices[i]] == XNN_INVALID_VALUE_ID)
			continue;
		xp->tensors[xp->num_external] = partition->inputs[i];
		xp->external[xp->num_external++].id = (uint32_t)i;
	}
	for (int32_t o = 0; o < partition->num_outputs; o++) {
		xp->tensors[xp->num_external] = partition->outputs[o];
		xp->external[xp->num_external++].id =
			(uint32_t)(partition->num_inputs + o);
	}
	return OPVER_OK;
}

opver_status xp_partition_name_events(const opver_context *ctx,
				      xp_partition *xp,
				      const opver_partition *partition,
				      xp_event_names *names)
{
	const char **node_names = ctx->host->allocate_persistent(ctx,
		(size_t)partition->num_nodes * sizeof(*node_names));

	if (node_names == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t k = 0; k < partition->num_nodes; k++) {
		node_names[k] = xp_event_name(ctx, names,
			partition->graph->nodes[partition->nodes[k]]);
		if (node_names[k] == NULL)
			return OPVER_ERROR_NOMEM;
	}
	xp->node_names = node_names;
	xp->num_nodes = (uint32_t)partition->num_nodes;
	return OPVER_OK;
}

/*
 * After the first invoke, which counted the runtime's operators: per node
 * names when XNNPACK kept one operator per node, one shared name when it
 * fused some (a node's clamp into its producer, say).
 */
static void choose_event_names(xp_partition *xp)
{
	static const char *const fused[] = { "XNNPACK operators" };

	if (xp->pool.operator == xp->num_nodes) {
		xp->pool.names = xp->node_names;
		xp->pool.num_names = xp->num_nodes;
	} else {
		xp->pool.names = fused;
		xp->pool.num_names = 1;
	}
	xp->events_named = true;
}

opver_status xp_partition_prepare(const opver_context *ctx, xp_partition *xp,
				  const opver_partition *partition,
				  pthreadpool_t pool)
{
	const opver_graph_view *graph = partition->graph;
	builder b = { .ctx = ctx, .partition = partition };
	uint32_t reserved = (uint32_t)(partition->num_inputs +
				       partition->num_outputs);
	opver_status status;
	enum xnn_status xs;

	b.ids = ctx->host->allocate(ctx, ((size_t)graph->num_tensors + 1) *
				    sizeof(*b.ids));
	if (b.ids == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t t = 0; t < graph->num_tensors; t++)
		b.ids[t] = XNN_INVALID_VALUE_ID;
	status = OPVER_ERROR;
	if (xnn_create_subgraph(reserved, 0, &b.subgraph) !=
	    xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK could not create a subgraph");
		goto out;
	}
	for (int32_t k = 0; k < partition->num_nodes; k++) {
		const opver_node *node = graph->nodes[partition->nodes[k]];

		xs = define_node(&b, node);
		if (xs != xnn_status_success) {
			OPVER_REPORT(ctx,
				     "XNNPACK refused node %d (%s): status %d",
				     (int)node->index,
				     ctx->host->op_name(node->op), (int)xs);
			goto out;
		}
	}
	status = boundary(ctx, xp, partition, b.ids);
	if (status != OPVER_OK)
		goto out;
	status = OPVER_ERROR;
	xs = xnn_create_runtime_v2(b.subgraph, pool, 0, &xp->runtime);
	if (xs != xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK could not create the runtime: status %d",
			     (int)xs);
		goto out;
	}
	status = OPVER_OK;
out:
	/* The runtime keeps what it needs of the subgraph. */
	if (b.subgraph != NULL)
		xnn_delete_subgraph(b.subgraph);
	ctx->host->free_memory(ctx, b.ids);
	return status;
}

opver_status xp_partition_bind(const opver_context *ctx, xp_partition *xp)
{
	enum xnn_status xs;

	for (uint32_t e = 0; e < xp->num_external; e++)
		xp->external[e].data = xp->tensors[e]->data;
	xs = xnn_setup_runtime(xp->runtime, xp->num_external, xp->external);
	if (xs != xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK runtime setup failed: status %d",
			     (int)xs);
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

opver_status xp_partition_invoke(const opver_context *ctx, xp_partition *xp)
{
	enum xnn_status xs;

	xp->pool.ctx = ctx;
	xp->pool.operator = 0;
	xs = xnn_invoke_runtime(xp->runtime);
	xp->pool.ctx = NULL;
	if (!xp->events_named)
		choose_event_names(xp);
	if (xs != xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK runtime failed: status %d", (int)xs);
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

void xp_partition_release(const opver_context *ctx, xp_partition *xp)
{
	if (xp->runtime != NULL)
		xnn_delete_runtime(xp->runtime);
	ctx->host->free_memory(ctx, xp->tensors);
	ctx->host->free_memory(ctx, xp->external);
	memset(xp, 0, sizeof(*xp));
}
