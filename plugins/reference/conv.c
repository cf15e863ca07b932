/*
 * conv.c - CONV_2D, computed as TensorFlow Lite's reference kernels compute
 * it.  Input [N, H, W, C], filter [O, KH, KW, C / groups], optional bias
 * [O], output [N, OH, OW, O].  Output channel o reads the input channels of
 * its group, o / (O / groups).  Filter taps that fall in the padding are
 * skipped: they contribute nothing, not the input zero point.
 *
 *   conv_2d_float32  float throughout, summed in TFLite's order (filter
 *                    row, column, channel), bias added, clamped
 *   conv_2d_int8     filter symmetric, per tensor or per output channel:
 *                    filter * (input - input zero point) summed in int32,
 *                    bias added, rescaled per channel, output zero point
 *                    added, clamped (TFLite's ConvPerChannel)
 *   conv_2d_hybrid   float input, int8 filter: each batch of the input is
 *                    quantized on the fly, the int32 sum scaled back to
 *                    float, bias added, clamped.  Symmetric quantization
 *                    with one filter scale (TFLite's EvalHybrid); asymmetric
 *                    with scales that differ per channel or with groups
 *                    (EvalHybridPerChannel, which TFLite also uses for
 *                    grouped hybrid convolutions)
 *   conv_2d_int16x8  int16 activations with zero point 0, int8 filter: with
 *                    an int64 bias the sum stays in 64 bits and is rescaled
 *                    by TFLite's 64-bit multiplier; with an int32 bias (or
 *                    quantized_bias_type INT32) it is summed and rescaled in
 *                    32 bits, as TFLite's int32-bias instantiation does
 *
 * Integer sums are accumulated in 64 bits and wrapped where TFLite keeps
 * them in an int32: the same result, without undefined overflow.
 *
 * Version ranges (TFLite's op_version rules for CONV_2D):
 *   1  float                      5  hybrid, per-channel filter
 *   2  hybrid, per-tensor filter  6  grouped convolution: implemented
 *   3  int8                       7  int4 filter: no kernel here takes it
 *   4  int16 activations          8  quantized_bias_type (int16): honoured
 * Every kernel implements all of 1..8 that concerns its tensor types, so
 * each covers 1..8; the type signatures tell them apart.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

enum { CONV_INPUT = 0, CONV_FILTER = 1, CONV_BIAS = 2 };

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

typedef struct conv_float32_data {
	conv_geometry geometry;
	float activation_min;
	float activation_max;
} conv_float32_data;

typedef struct conv_int8_data {
	conv_geometry geometry;
	int32_t input_offset;  /* minus the input zero point */
	int32_t output_offset; /* the output zero point */
	int32_t activation_min;
	int32_t activation_max;
	/* out_depth entries each, in node memory (allocate_persistent). */
	int32_t *multipliers;
	int *shifts;
} conv_int8_data;

typedef struct conv_int16x8_data {
	conv_geometry geometry;
	/* The int64-bias arithmetic: 64-bit sum and rescale. */
	bool wide;
	int32_t activation_min;
	int32_t activation_max;
	/* out_depth entries each, in node memory (allocate_persistent). */
	int32_t *multipliers;
	int *shifts;
} conv_int16x8_data;

typedef struct conv_hybrid_data {
	conv_geometry geometry;
	/* Asymmetric input quantization and per-channel filter scales;
	 * otherwise symmetric and the one filter scale, channel_scales[0]. */
	bool per_channel;
	float activation_min;
	float activation_max;
	/* Node memory (allocate_persistent): the filter scale of each output
	 * channel (out_depth entries), and the scratch invoke quantizes the
	 * input into, with each batch's scale (times the filter scale when
	 * not per channel) and zero point. */
	float *channel_scales;
	int8_t *quantized_input;
	float *batch_scales;
	int32_t *batch_zero_points;
} conv_hybrid_data;

/* The node's tensors; bias is NULL when omitted. */
typedef struct conv_tensors {
	const opver_tensor *input;
	const opver_tensor *filter;
	const opver_tensor *bias;
	const opver_tensor *output;
} conv_tensors;

/* The tensor types one kernel takes; the bias may have either bias type. */
typedef struct conv_types {
	opver_type input, filter, output;
	opver_type bias, wide_bias;
	const char *bias_names; /* for messages */
} conv_types;

/* ------------------------------------------------------------- prepare */

/* The node's parameters, with the defaults of ops.h for every field the core
 * did not fill. */
static opver_conv_params conv_params(const opver_node *node)
{
	const opver_conv_params *given = node->params;
	opver_conv_params params = {
		.padding = OPVER_PADDING_SAME,
		.activation = OPVER_ACTIVATION_NONE,
		.dilation_width = 1,
		.dilation_height = 1,
		.quantized_bias_type = OPVER_TYPE_FLOAT32,
	};

	if (REF_PARAM_PRESENT(node, opver_conv_params, padding))
		params.padding = given->padding;
	if (REF_PARAM_PRESENT(node, opver_conv_params, stride_width))
		params.stride_width = given->stride_width;
	if (REF_PARAM_PRESENT(node, opver_conv_params, stride_height))
		params.stride_height = given->stride_height;
	if (REF_PARAM_PRESENT(node, opver_conv_params, activation))
		params.activation = given->activation;
	if (REF_PARAM_PRESENT(node, opver_conv_params, dilation_width))
		params.dilation_width = given->dilation_width;
	if (REF_PARAM_PRESENT(node, opver_conv_params, dilation_height))
		params.dilation_height = given->dilation_height;
	if (REF_PARAM_PRESENT(node, opver_conv_params, quantized_bias_type))
		params.quantized_bias_type = given->quantized_bias_type;
	return params;
}

/* The bias tensor, or NULL when the node has none. */
static const opver_tensor *conv_bias(const opver_node *node)
{
	return node->num_inputs > CONV_BIAS ? node->inputs[CONV_BIAS] : NULL;
}

/* Collects the node's tensors and checks their count and types. */
static opver_status conv_get_tensors(const opver_host *host,
				     const opver_node *node,
				     const conv_types *types, conv_tensors *t)
{
	opver_status status;

	status = ref_check_arity(host, node, 2, 3, 1,
				 "CONV_2D takes input, filter, an optional bias and one output");
	if (status != OPVER_OK)
		return status;
	t->input = node->inputs[CONV_INPUT];
	t->filter = node->inputs[CONV_FILTER];
	t->bias = conv_bias(node);
	t->output = node->outputs[0];
	status = ref_expect_type(host, "input", t->input, types->input);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "filter", t->filter,
					 types->filter);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", t->output,
					 types->output);
	if (status == OPVER_OK && t->bias != NULL &&
	    t->bias->type != types->bias && t->bias->type != types->wide_bias) {
		host->report_error(host,
				   "bias '%s' has type %s; this kernel takes %s",
				   t->bias->name, ref_type_name(t->bias->type),
				   types->bias_names);
		status = OPVER_ERROR_UNSUPPORTED;
	}
	return status;
}

/* Checks the shapes against each other and the parameters, and fills the
 * geometry. */
static opver_status conv_check_shapes(const opver_host *host,
				      const opver_conv_params *params,
				      const conv_tensors *t, conv_geometry *g)
{
	const opver_tensor *in = t->input, *f = t->filter, *out = t->output;
	ref_window rows, columns;
	int32_t groups;
	opver_status status;

	status = ref_expect_rank(host, "input", in, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "filter", f, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "output", out, 4);
	if (status != OPVER_OK)
		return status;
	if (f->dims[0] <= 0 || f->dims[1] <= 0 || f->dims[2] <= 0 ||
	    f->dims[3] <= 0) {
		host->report_error(host,
				   "filter '%s' has shape [%d, %d, %d, %d]; every dimension must be positive",
				   f->name, (int)f->dims[0], (int)f->dims[1],
				   (int)f->dims[2], (int)f->dims[3]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (in->dims[0] < 0 || in->dims[3] <= 0 ||
	    in->dims[3] % f->dims[3] != 0) {
		host->report_error(host,
				   "input '%s' has shape [%d, %d, %d, %d]; its channels must be a positive multiple of the filter's %d input channels (one group each)",
				   in->name, (int)in->dims[0], (int)in->dims[1],
				   (int)in->dims[2], (int)in->dims[3],
				   (int)f->dims[3]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	groups = in->dims[3] / f->dims[3];
	if (f->dims[0] % groups != 0) {
		host->report_error(host,
				   "filter '%s' has %d output channels, not a multiple of its %d groups (input channels / filter input channels)",
				   f->name, (int)f->dims[0], (int)groups);
		return OPVER_ERROR_INVALID_MODEL;
	}
	rows = (ref_window){ .in = in->dims[1], .filter = f->dims[1],
			     .stride = params->stride_height,
			     .dilation = params->dilation_height };
	columns = (ref_window){ .in = in->dims[2], .filter = f->dims[2],
				.stride = params->stride_width,
				.dilation = params->dilation_width };
	status = ref_window_compute(host, "height", params->padding, &rows);
	if (status == OPVER_OK)
		status = ref_window_compute(host, "width", params->padding,
					    &columns);
	if (status != OPVER_OK)
		return status;
	if (t->bias != NULL &&
	    opver_tensor_elements(t->bias) != (size_t)f->dims[0]) {
		host->report_error(host,
				   "bias '%s' has %zu elements; the filter has %d output channels",
				   t->bias->name,
				   opver_tensor_elements(t->bias),
				   (int)f->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (out->dims[0] != in->dims[0] || out->dims[1] != rows.out ||
	    out->dims[2] != columns.out || out->dims[3] != f->dims[0]) {
		host->report_error(host,
				   "output '%s' has shape [%d, %d, %d, %d]; this convolution gives [%d, %d, %d, %d]",
				   out->name, (int)out->dims[0],
				   (int)out->dims[1], (int)out->dims[2],
				   (int)out->dims[3], (int)in->dims[0],
				   (int)rows.out, (int)columns.out,
				   (int)f->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*g = (conv_geometry){
		.batches = in->dims[0],
		.in_depth = in->dims[3],
		.group_depth = f->dims[3],
		.filters_per_group = f->dims[0] / groups,
		.out_depth = f->dims[0],
		.rows = rows,
		.cols = columns,
	};
	return OPVER_OK;
}

/* Everything every kernel checks: parameters, tensor types and shapes. */
static opver_status conv_prepare_common(const opver_host *host,
					const opver_node *node,
					const conv_types *types,
					opver_conv_params *params,
					conv_tensors *t, conv_geometry *g)
{
	opver_status status;

	*params = conv_params(node);
	status = ref_expect_clamp_activation(host, params->activation);
	if (status == OPVER_OK)
		status = conv_get_tensors(host, node, types, t);
	if (status == OPVER_OK)
		status = conv_check_shapes(host, params, t, g);
	return status;
}

/* TFLite requires a quantized bias to have zero point 0. */
static opver_status conv_check_bias_zero_points(const opver_host *host,
						const opver_tensor *bias)
{
	if (bias == NULL)
		return OPVER_OK;
	for (int32_t i = 0; i < bias->quant.count; i++) {
		const long long zero_point = bias->quant.zero_point[i];

		if (zero_point != 0) {
			host->report_error(host,
					   "bias '%s' has zero point %lld; a quantized bias must have zero point 0",
					   bias->name, zero_point);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	return OPVER_OK;
}

/*
 * The per-channel multipliers and shifts of the int8 and int16 kernels, in
 * node memory.  TFLite requires their filters to be symmetric, quantized per
 * tensor or per output channel (axis 0).
 */
static opver_status conv_rescales(const opver_host *host,
				  const opver_tensor *filter, int32_t channels,
				  float input_scale, float output_scale,
				  int32_t **multipliers, int **shifts)
{
	opver_status status;

	status = ref_filter_scales_check(host, filter, 0, channels);
	if (status != OPVER_OK)
		return status;
	*multipliers = host->allocate_persistent(
		host, (size_t)channels * sizeof(**multipliers));
	*shifts = host->allocate_persistent(
		host, (size_t)channels * sizeof(**shifts));
	if (*multipliers == NULL || *shifts == NULL) {
		host->report_error(host,
				   "out of memory for %d per-channel multipliers",
				   (int)channels);
		return OPVER_ERROR_NOMEM;
	}
	return ref_channel_rescales(host, filter, 0, channels, input_scale,
				    output_scale, *multipliers, *shifts);
}

/* -------------------------------------------------------------- invoke */

/*
 * One output position: its batch, the input position of filter tap (0, 0)
 * (possibly in the padding), and the taps that land inside the input: rows
 * [y_begin, y_end) and columns [x_begin, x_end) of the filter.
 */
typedef struct conv_window {
	int32_t batch;
	size_t batch_start; /* index of input element (batch, 0, 0, 0) */
	int64_t in_y, in_x;
	int32_t y_begin, y_end;
	int32_t x_begin, x_end;
} conv_window;

/* The window of output position `position`, counted in NHW order. */
static conv_window conv_window_at(const conv_geometry *g, size_t position)
{
	const size_t per_batch = (size_t)g->rows.out * (size_t)g->cols.out;
	const size_t in_row = (size_t)g->cols.in * (size_t)g->in_depth;
	const size_t within = position % per_batch;
	conv_window w;

	w.batch = (int32_t)(position / per_batch);
	w.batch_start = (size_t)w.batch * (size_t)g->rows.in * in_row;
	w.in_y = (int64_t)(within / (size_t)g->cols.out) * g->rows.stride -
		 g->rows.pad;
	w.in_x = (int64_t)(within % (size_t)g->cols.out) * g->cols.stride -
		 g->cols.pad;
	ref_window_taps(&g->rows, w.in_y, &w.y_begin, &w.y_end);
	ref_window_taps(&g->cols, w.in_x, &w.x_begin, &w.x_end);
	return w;
}

/* Output positions of the node: N x OH x OW. */
static size_t conv_positions(const conv_geometry *g)
{
	return (size_t)g->batches * (size_t)g->rows.out * (size_t)g->cols.out;
}

/* Index of the input element under tap (y, x), at the first channel of the
 * group starting at channel `group_start`. */
static inline size_t conv_input_index(const conv_geometry *g,
				      const conv_window *w, size_t group_start,
				      int32_t y, int32_t x)
{
	const size_t row = (size_t)(w->in_y + (int64_t)y * g->rows.dilation);
	const size_t column =
		(size_t)(w->in_x + (int64_t)x * g->cols.dilation);

	return w->batch_start +
	       (row * (size_t)g->cols.in + column) * (size_t)g->in_depth +
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
				     const conv_window *w, const float *input,
				     const float *filter, int32_t channel)
{
	const size_t group = conv_group_start(g, channel);
	float total = 0.0f;

	for (int32_t y = w->y_begin; y < w->y_end; y++)
		for (int32_t x = w->x_begin; x < w->x_end; x++) {
			const float *in =
				input + conv_input_index(g, w, group, y, x);
			const float *f =
				filter + conv_filter_index(g, channel, y, x);

			for (int32_t c = 0; c < g->group_depth; c++)
				total += in[c] * f[c];
		}
	return total;
}

/* The sum of filter * (input + input_offset) over the window. */
static inline int64_t conv_sum_int8(const conv_geometry *g,
				    const conv_window *w, const int8_t *input,
				    const int8_t *filter, int32_t channel,
				    int32_t input_offset)
{
	const size_t group = conv_group_start(g, channel);
	int64_t total = 0;

	for (int32_t y = w->y_begin; y < w->y_end; y++)
		for (int32_t x = w->x_begin; x < w->x_end; x++) {
			const int8_t *in =
				input + conv_input_index(g, w, group, y, x);
			const int8_t *f =
				filter + conv_filter_index(g, channel, y, x);

			for (int32_t c = 0; c < g->group_depth; c++)
				total += (int32_t)f[c] *
					 ((int32_t)in[c] + input_offset);
		}
	return total;
}

static inline int64_t conv_sum_int16(const conv_geometry *g,
				     const conv_window *w,
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

/* What TFLite's int32 accumulator holds: the sum modulo 2^32. */
static inline int32_t conv_wrap_int32(int64_t sum)
{
	return (int32_t)(uint32_t)(uint64_t)sum;
}

/* a + b modulo 2^64, as TFLite's int64 accumulator adds its bias. */
static inline int64_t conv_wrapping_add_int64(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* A rescaled sum plus the output offset, clamped; the addition cannot
 * overflow in 64 bits. */
static inline int32_t conv_offset_clamp(int32_t scaled, int32_t offset,
					int32_t min, int32_t max)
{
	const int64_t value = (int64_t)scaled + offset;

	return value < min ? min : value > max ? max : (int32_t)value;
}

/* ------------------------------------------------------------- float32 */

static const conv_types conv_float32_types = {
	.input = OPVER_TYPE_FLOAT32,
	.filter = OPVER_TYPE_FLOAT32,
	.output = OPVER_TYPE_FLOAT32,
	.bias = OPVER_TYPE_FLOAT32,
	.wide_bias = OPVER_TYPE_FLOAT32,
	.bias_names = "FLOAT32",
};

static opver_status conv_float32_prepare(const opver_host *host,
					 opver_node *node)
{
	conv_float32_data *data = node->op_data;
	opver_conv_params params;
	conv_tensors t;
	opver_status status;

	status = conv_prepare_common(host, node, &conv_float32_types, &params,
				     &t, &data->geometry);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status conv_float32_invoke(const opver_host *host,
					opver_node *node)
{
	const conv_float32_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const float *input = node->inputs[CONV_INPUT]->data;
	const float *filter = node->inputs[CONV_FILTER]->data;
	const opver_tensor *bias_tensor = conv_bias(node);
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *output = node->outputs[0]->data;

	(void)host;
	for (size_t p = 0; p < positions; p++) {
		const conv_window w = conv_window_at(g, p);

		for (int32_t o = 0; o < g->out_depth; o++) {
			const float total =
				conv_sum_float32(g, &w, input, filter, o);

			*output++ = ref_clamp_float(
				total + (bias != NULL ? bias[o] : 0.0f),
				data->activation_min, data->activation_max);
		}
	}
	return OPVER_OK;
}

/* ---------------------------------------------------------------- int8 */

static const conv_types conv_int8_types = {
	.input = OPVER_TYPE_INT8,
	.filter = OPVER_TYPE_INT8,
	.output = OPVER_TYPE_INT8,
	.bias = OPVER_TYPE_INT32,
	.wide_bias = OPVER_TYPE_INT32,
	.bias_names = "INT32",
};

static opver_status conv_int8_prepare(const opver_host *host,
				      opver_node *node)
{
	conv_int8_data *data = node->op_data;
	opver_conv_params params;
	conv_tensors t;
	float input_scale, output_scale;
	int32_t input_zero, output_zero;
	opver_status status;

	status = conv_prepare_common(host, node, &conv_int8_types, &params,
				     &t, &data->geometry);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "input", t.input,
						     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "output", t.output,
						     &output_scale,
						     &output_zero);
	if (status == OPVER_OK)
		status = conv_check_bias_zero_points(host, t.bias);
	if (status == OPVER_OK)
		status = conv_rescales(host, t.filter,
				       data->geometry.out_depth, input_scale,
				       output_scale, &data->multipliers,
				       &data->shifts);
	if (status == OPVER_OK)
		status = ref_output_activation_range(host, params.activation,
						     t.output, output_scale,
						     output_zero,
						     &data->activation_min,
						     &data->activation_max);
	if (status != OPVER_OK)
		return status;
	data->input_offset = -input_zero;
	data->output_offset = output_zero;
	return OPVER_OK;
}

static opver_status conv_int8_invoke(const opver_host *host,
				     opver_node *node)
{
	const conv_int8_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const int8_t *input = node->inputs[CONV_INPUT]->data;
	const int8_t *filter = node->inputs[CONV_FILTER]->data;
	const opver_tensor *bias_tensor = conv_bias(node);
	const int32_t *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	int8_t *output = node->outputs[0]->data;

	(void)host;
	for (size_t p = 0; p < positions; p++) {
		const conv_window w = conv_window_at(g, p);

		for (int32_t o = 0; o < g->out_depth; o++) {
			int64_t sum = conv_sum_int8(g, &w, input, filter, o,
						    data->input_offset);
			int32_t acc;

			if (bias != NULL)
				sum += bias[o];
			acc = ref_multiply_by_quantized_multiplier(
				conv_wrap_int32(sum), data->multipliers[o],
				data->shifts[o]);
			*output++ = (int8_t)conv_offset_clamp(
				acc, data->output_offset, data->activation_min,
				data->activation_max);
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- int16x8 */

static const conv_types conv_int16x8_types = {
	.input = OPVER_TYPE_INT16,
	.filter = OPVER_TYPE_INT8,
	.output = OPVER_TYPE_INT16,
	.bias = OPVER_TYPE_INT32,
	.wide_bias = OPVER_TYPE_INT64,
	.bias_names = "INT32 or INT64",
};

/* int16 activations are quantized symmetrically, as TFLite requires. */
static opver_status conv_int16_quantization(const opver_host *host,
					    const char *role,
					    const opver_tensor *tensor,
					    float *scale)
{
	int32_t zero_point;
	opver_status status;

	status = ref_per_tensor_quantization(host, role, tensor, scale,
					     &zero_point);
	if (status == OPVER_OK && zero_point != 0) {
		host->report_error(host,
				   "%s '%s' has zero point %d; int16 activations must have zero point 0",
				   role, tensor->name, (int)zero_point);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

/*
 * Whether the node takes the int64-bias arithmetic: from the bias type, or
 * without a bias from quantized_bias_type (unset means int64, TFLite's
 * original 16x8 bias).  A set quantized_bias_type must be INT32 or INT64
 * and match the bias.
 */
static opver_status conv_int16x8_wide(const opver_host *host,
				      const opver_conv_params *params,
				      const opver_tensor *bias, bool *wide)
{
	const opver_type chosen = params->quantized_bias_type;

	if (chosen != OPVER_TYPE_FLOAT32 && chosen != OPVER_TYPE_INT32 &&
	    chosen != OPVER_TYPE_INT64) {
		host->report_error(host,
				   "quantized_bias_type is %s; it must be INT32 or INT64",
				   ref_type_name(chosen));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (bias != NULL && chosen != OPVER_TYPE_FLOAT32 &&
	    bias->type != chosen) {
		host->report_error(host,
				   "bias '%s' has type %s, but quantized_bias_type is %s",
				   bias->name, ref_type_name(bias->type),
				   ref_type_name(chosen));
		return OPVER_ERROR_INVALID_MODEL;
	}
	*wide = bias != NULL ? bias->type == OPVER_TYPE_INT64
			     : chosen != OPVER_TYPE_INT32;
	return OPVER_OK;
}

/* The 64-bit rescale is defined for shifts up to 7 (see quantization.h). */
static opver_status conv_check_wide_shifts(const opver_host *host,
					   const int *shifts, int32_t channels)
{
	for (int32_t c = 0; c < channels; c++)
		if (shifts[c] > 7) {
			host->report_error(host,
					   "channel %d: input scale x filter scale / output scale is 2^%d or more; with an int64 bias rescale factors of 128 and more are not supported",
					   (int)c, shifts[c] - 1);
			return OPVER_ERROR_UNSUPPORTED;
		}
	return OPVER_OK;
}

static opver_status conv_int16x8_prepare(const opver_host *host,
					 opver_node *node)
{
	conv_int16x8_data *data = node->op_data;
	opver_conv_params params;
	conv_tensors t;
	float input_scale, output_scale;
	opver_status status;

	status = conv_prepare_common(host, node, &conv_int16x8_types, &params,
				     &t, &data->geometry);
	if (status == OPVER_OK)
		status = conv_int16_quantization(host, "input", t.input,
						 &input_scale);
	if (status == OPVER_OK)
		status = conv_int16_quantization(host, "output", t.output,
						 &output_scale);
	if (status == OPVER_OK)
		status = conv_check_bias_zero_points(host, t.bias);
	if (status == OPVER_OK)
		status = conv_int16x8_wide(host, &params, t.bias, &data->wide);
	if (status == OPVER_OK)
		status = conv_rescales(host, t.filter,
				       data->geometry.out_depth, input_scale,
				       output_scale, &data->multipliers,
				       &data->shifts);
	if (status == OPVER_OK && data->wide)
		status = conv_check_wide_shifts(host, data->shifts,
						data->geometry.out_depth);
	if (status == OPVER_OK)
		status = ref_output_activation_range(host, params.activation,
						     t.output, output_scale, 0,
						     &data->activation_min,
						     &data->activation_max);
	return status;
}

/* The sum plus the bias, rescaled in the arithmetic the bias width
 * selects. */
static inline int32_t conv_int16x8_rescale(const conv_int16x8_data *data,
					   const void *bias, int32_t channel,
					   int64_t sum)
{
	const int32_t multiplier = data->multipliers[channel];
	const int shift = data->shifts[channel];

	if (data->wide) {
		const int64_t *wide_bias = bias;

		if (wide_bias != NULL)
			sum = conv_wrapping_add_int64(sum, wide_bias[channel]);
		return ref_multiply_by_quantized_multiplier_int64(
			sum, multiplier, shift);
	}
	if (bias != NULL)
		sum += ((const int32_t *)bias)[channel];
	return ref_multiply_by_quantized_multiplier(conv_wrap_int32(sum),
						    multiplier, shift);
}

static opver_status conv_int16x8_invoke(const opver_host *host,
					opver_node *node)
{
	const conv_int16x8_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const int16_t *input = node->inputs[CONV_INPUT]->data;
	const int8_t *filter = node->inputs[CONV_FILTER]->data;
	const opver_tensor *bias_tensor = conv_bias(node);
	const void *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	int16_t *output = node->outputs[0]->data;

	(void)host;
	for (size_t p = 0; p < positions; p++) {
		const conv_window w = conv_window_at(g, p);

		for (int32_t o = 0; o < g->out_depth; o++) {
			const int32_t acc = conv_int16x8_rescale(
				data, bias, o,
				conv_sum_int16(g, &w, input, filter, o));

			*output++ = (int16_t)ref_clamp_int32(
				acc, data->activation_min,
				data->activation_max);
		}
	}
	return OPVER_OK;
}

/* -------------------------------------------------------------- hybrid */

static const conv_types conv_hybrid_types = {
	.input = OPVER_TYPE_FLOAT32,
	.filter = OPVER_TYPE_INT8,
	.output = OPVER_TYPE_FLOAT32,
	.bias = OPVER_TYPE_FLOAT32,
	.wide_bias = OPVER_TYPE_FLOAT32,
	.bias_names = "FLOAT32",
};

/* True when a per-channel filter's scales are not all the same: only then
 * does TFLite take its per-channel hybrid path. */
static bool conv_scales_differ(const opver_tensor *filter)
{
	for (int32_t c = 1; c < filter->quant.count; c++)
		if (filter->quant.scale[c] != filter->quant.scale[0])
			return true;
	return false;
}

/* Node memory for the hybrid kernel's scales and scratch. */
static opver_status conv_hybrid_allocate(const opver_host *host,
					 conv_hybrid_data *data,
					 size_t input_elements)
{
	const size_t batches = (size_t)data->geometry.batches;

	data->channel_scales = host->allocate_persistent(
		host, (size_t)data->geometry.out_depth * sizeof(float));
	data->quantized_input =
		host->allocate_persistent(host, input_elements);
	data->batch_scales =
		host->allocate_persistent(host, batches * sizeof(float));
	data->batch_zero_points =
		host->allocate_persistent(host, batches * sizeof(int32_t));
	if (data->channel_scales == NULL || data->quantized_input == NULL ||
	    data->batch_scales == NULL || data->batch_zero_points == NULL) {
		host->report_error(host,
				   "out of memory for the quantized input (%zu bytes)",
				   input_elements);
		return OPVER_ERROR_NOMEM;
	}
	return OPVER_OK;
}

static opver_status conv_hybrid_prepare(const opver_host *host,
					opver_node *node)
{
	conv_hybrid_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	opver_conv_params params;
	conv_tensors t;
	opver_status status;

	status = conv_prepare_common(host, node, &conv_hybrid_types, &params,
				     &t, &data->geometry);
	if (status == OPVER_OK)
		status = ref_filter_scales_check(host, t.filter, 0,
						 g->out_depth);
	if (status == OPVER_OK)
		status = conv_hybrid_allocate(host, data,
					      opver_tensor_elements(t.input));
	if (status != OPVER_OK)
		return status;
	data->per_channel =
		g->group_depth != g->in_depth || conv_scales_differ(t.filter);
	for (int32_t o = 0; o < g->out_depth; o++)
		data->channel_scales[o] = ref_filter_scale(t.filter, o);
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

/* Quantizes each batch of the input into the scratch, as TFLite does before
 * its integer sums. */
static void conv_hybrid_quantize(const conv_hybrid_data *data,
				 const float *input)
{
	const conv_geometry *g = &data->geometry;
	const size_t size = (size_t)g->rows.in * (size_t)g->cols.in *
			    (size_t)g->in_depth;

	for (int32_t b = 0; b < g->batches; b++) {
		const float *values = input + (size_t)b * size;
		int8_t *quantized = data->quantized_input + (size_t)b * size;

		if (data->per_channel) {
			ref_quantize_floats_asymmetric(
				values, size, quantized, &data->batch_scales[b],
				&data->batch_zero_points[b]);
		} else {
			ref_quantize_floats_symmetric(values, size, quantized,
						      &data->batch_scales[b]);
			data->batch_scales[b] *= data->channel_scales[0];
			data->batch_zero_points[b] = 0;
		}
	}
}

static opver_status conv_hybrid_invoke(const opver_host *host,
				       opver_node *node)
{
	const conv_hybrid_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const int8_t *filter = node->inputs[CONV_FILTER]->data;
	const opver_tensor *bias_tensor = conv_bias(node);
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *output = node->outputs[0]->data;

	(void)host;
	conv_hybrid_quantize(data, node->inputs[CONV_INPUT]->data);
	for (size_t p = 0; p < positions; p++) {
		const conv_window w = conv_window_at(g, p);
		const float batch_scale = data->batch_scales[w.batch];
		const int32_t input_offset = -data->batch_zero_points[w.batch];

		for (int32_t o = 0; o < g->out_depth; o++) {
			const int32_t acc = conv_wrap_int32(
				conv_sum_int8(g, &w, data->quantized_input,
					      filter, o, input_offset));
			/* TFLite's per-channel reference scales by the
			 * channel first, then the batch; its per-tensor path
			 * by their product, taken at quantization. */
			const float scaled =
				data->per_channel ?
					(float)acc * data->channel_scales[o] *
						batch_scale :
					(float)acc * batch_scale;

			*output++ = ref_clamp_float(
				scaled + (bias != NULL ? bias[o] : 0.0f),
				data->activation_min, data->activation_max);
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static const opver_type_signature conv_float32_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature conv_int8_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
} };

static const opver_type_signature conv_hybrid_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature conv_int16x8_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_INT16),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT32) |
			OPVER_TYPE_BIT(OPVER_TYPE_INT64) |
			OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT16),
} };

/*
 * Every kernel is stateless: what a node needs lives in its op_data and in
 * node memory from allocate_persistent, the hybrid kernel's scratch too (an
 * interpreter runs on one thread at a time, and each has its own nodes).
 */
const opver_kernel ref_conv_2d_float32 = {
	.struct_size = sizeof(opver_kernel),
	.name = "conv_2d_float32",
	.op = OPVER_OP_CONV_2D,
	.min_version = 1,
	.max_version = 8,
	.signatures = conv_float32_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(conv_float32_data),
	.prepare = conv_float32_prepare,
	.invoke = conv_float32_invoke,
};

const opver_kernel ref_conv_2d_int8 = {
	.struct_size = sizeof(opver_kernel),
	.name = "conv_2d_int8",
	.op = OPVER_OP_CONV_2D,
	.min_version = 1,
	.max_version = 8,
	.signatures = conv_int8_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(conv_int8_data),
	.prepare = conv_int8_prepare,
	.invoke = conv_int8_invoke,
};

const opver_kernel ref_conv_2d_hybrid = {
	.struct_size = sizeof(opver_kernel),
	.name = "conv_2d_hybrid",
	.op = OPVER_OP_CONV_2D,
	.min_version = 1,
	.max_version = 8,
	.signatures = conv_hybrid_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(conv_hybrid_data),
	.prepare = conv_hybrid_prepare,
	.invoke = conv_hybrid_invoke,
};

const opver_kernel ref_conv_2d_int16x8 = {
	.struct_size = sizeof(opver_kernel),
	.name = "conv_2d_int16x8",
	.op = OPVER_OP_CONV_2D,
	.min_version = 1,
	.max_version = 8,
	.signatures = conv_int16x8_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(conv_int16x8_data),
	.prepare = conv_int16x8_prepare,
	.invoke = conv_int16x8_invoke,
};
