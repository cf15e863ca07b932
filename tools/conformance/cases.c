/*
 * cases.c - what every generator shares: the random generator, building a
 * case's tensors, and the registry of generators by op.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cases.h"

void cf_rng_seed(cf_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t cf_rng_next(cf_rng *rng)
{
	uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

int32_t cf_rng_int(cf_rng *rng, int32_t lo, int32_t hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;

	/* The modulo bias is far below anything a case could notice. */
	return (int32_t)((int64_t)lo + (int64_t)(cf_rng_next(rng) % span));
}

float cf_rng_float(cf_rng *rng, float lo, float hi)
{
	/* 24 random bits: every value is an exact float in [0, 1). */
	float unit = (float)(cf_rng_next(rng) >> 40) / (float)(1 << 24);

	return lo + (hi - lo) * unit;
}

uint64_t cf_seed_mix(uint64_t seed, uint64_t value)
{
	cf_rng rng = { seed ^ (value * UINT64_C(0xd6e8feb86659fd93)) };

	return cf_rng_next(&rng);
}

void cf_case_init(cf_case *c, int32_t op)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->output = -1;
}

void cf_case_free(cf_case *c)
{
	for (int i = 0; i < c->num_blocks; i++)
		free(c->blocks[i]);
	c->num_blocks = 0;
}

bool cf_case_quantize_random(cf_case *c, int32_t t, cf_rng *rng,
			     float scale_lo, float scale_hi, int32_t zero_lo,
			     int32_t zero_hi)
{
	const float scale = cf_rng_float(rng, scale_lo, scale_hi);
	const int32_t zero_point = cf_rng_int(rng, zero_lo, zero_hi);

	return cf_case_quantize(c, t, scale, zero_point);
}

int32_t cf_case_graph_inputs(const cf_case *c,
			     int32_t inputs[CF_MAX_NODE_INPUTS])
{
	int32_t count = 0;

	for (int32_t i = 0; i < c->num_inputs; i++) {
		int32_t t = c->inputs[i];

		if (t >= 0 && c->tensors[t].data == NULL &&
		    !c->tensors[t].is_variable)
			inputs[count++] = t;
	}
	return count;
}

bool cf_case_model(const cf_case *c, int32_t version, uint8_t **bytes,
		   size_t *size, char *error, size_t error_size)
{
	int32_t graph_inputs[CF_MAX_NODE_INPUTS], outputs[CF_MAX_NODE_OUTPUTS];
	const int32_t num_graph_inputs = cf_case_graph_inputs(c, graph_inputs);
	const int32_t num_outputs = cf_case_outputs(c, outputs);
	const cf_opcode_desc code = { c->op, version, c->custom_name };
	const cf_operator_desc node = {
		0, c->inputs, c->num_inputs, outputs, num_outputs,
		c->has_params ? &c->params : NULL,
		c->custom_options, c->custom_options_size,
	};
	const cf_intermediates between = { c->intermediates,
					   c->num_intermediates };
	const cf_model_desc desc = {
		c->tensors, c->num_tensors, &code, 1, &node, 1,
		graph_inputs, num_graph_inputs, outputs, num_outputs,
	};

	return cf_build_model_with_intermediates(&desc, &between, bytes, size,
						 error, error_size);
}

/* The version the core requires of the node of the model `bytes`; 0
 * after writing why to `error`. */
static int32_t required_version(opver_runtime *runtime, const uint8_t *bytes,
				size_t size, char *error, size_t error_size)
{
	opver_interpreter_options options;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	opver_node_info node;
	int32_t version = 0;

	opver_interpreter_options_init(&options);
	options.inspect_only = 1;
	if (opver_model_open_memory(runtime, bytes, size, &model) != OPVER_OK)
		snprintf(error, error_size, "the case's model does not open");
	else if (opver_interpreter_create_with_options(runtime, model,
						       &options,
						       &it) != OPVER_OK ||
		 opver_interpreter_node_info(it, 0, &node) != OPVER_OK)
		snprintf(error, error_size, "the case's node cannot be bound");
	else
		version = node.required_version;
	opver_interpreter_destroy(it);
	opver_model_close(model);
	return version;
}

bool cf_case_model_required(opver_runtime *runtime, const cf_case *c,
			    uint8_t **bytes, size_t *size, int32_t *version,
			    char *error, size_t error_size)
{
	if (!cf_case_model(c, 1, bytes, size, error, error_size))
		return false;
	*version = required_version(runtime, *bytes, *size, error,
				    error_size);
	if (*version <= 1)
		return *version == 1;
	free(*bytes);
	*bytes = NULL;
	return cf_case_model(c, *version, bytes, size, error, error_size);
}

void *cf_case_alloc(cf_case *c, size_t bytes)
{
	void *block;

	if (c->num_blocks == CF_MAX_BLOCKS)
		return NULL;
	block = calloc(1, bytes ? bytes : 1);
	if (block != NULL)
		c->blocks[c->num_blocks++] = block;
	return block;
}

int32_t cf_case_tensor(cf_case *c, opver_type type, int32_t rank,
		       const int32_t *dims)
{
	cf_tensor_desc *t;

	/* Generators add a fixed handful of tensors; running out is a bug
	 * in one of them, which the bounds of the arrays must survive. */
	if (c->num_tensors == CF_MAX_TENSORS || rank > CF_MAX_RANK)
		abort();
	t = &c->tensors[c->num_tensors];
	t->type = type;
	t->rank = rank;
	memcpy(t->dims, dims, (size_t)rank * sizeof(*dims));
	return c->num_tensors++;
}

void cf_case_more_output(cf_case *c, int32_t t)
{
	/* As for tensors: a fixed handful, running out is a bug. */
	if (c->num_more_outputs == CF_MAX_MORE_OUTPUTS)
		abort();
	c->more_outputs[c->num_more_outputs++] = t;
}

int32_t cf_case_outputs(const cf_case *c, int32_t *outputs)
{
	outputs[0] = c->output;
	memcpy(outputs + 1, c->more_outputs,
	       (size_t)c->num_more_outputs * sizeof(*outputs));
	return 1 + c->num_more_outputs;
}

bool cf_case_quantize(cf_case *c, int32_t t, float scale, int64_t zero_point)
{
	cf_tensor_desc *tensor = &c->tensors[t];
	float *scales = cf_case_alloc(c, sizeof(*scales));
	int64_t *zero_points = cf_case_alloc(c, sizeof(*zero_points));

	if (scales == NULL || zero_points == NULL)
		return false;
	scales[0] = scale;
	zero_points[0] = zero_point;
	tensor->quantized = true;
	tensor->num_scales = 1;
	tensor->scales = scales;
	tensor->zero_points = zero_points;
	tensor->quantized_dimension = 0;
	return true;
}

bool cf_case_quantize_per_channel(cf_case *c, int32_t t, int32_t axis,
				  const float *scales)
{
	cf_tensor_desc *tensor = &c->tensors[t];
	int32_t n = tensor->dims[axis];
	float *copy = cf_case_alloc(c, (size_t)n * sizeof(*copy));
	int64_t *zero_points = cf_case_alloc(c, (size_t)n * sizeof(*zero_points));

	if (copy == NULL || zero_points == NULL)
		return false;
	memcpy(copy, scales, (size_t)n * sizeof(*copy));
	tensor->quantized = true;
	tensor->num_scales = n;
	tensor->scales = copy;
	tensor->zero_points = zero_points;
	tensor->quantized_dimension = axis;
	return true;
}

size_t cf_tensor_elements(const cf_tensor_desc *t)
{
	size_t n = 1;

	for (int32_t d = 0; d < t->rank; d++)
		n *= (size_t)t->dims[d];
	return n;
}

void *cf_case_values(cf_case *c, int32_t t)
{
	cf_tensor_desc *tensor = &c->tensors[t];

	return tensor->data != NULL ? (void *)tensor->data : c->values[t];
}

const char *const cf_pattern_names[CF_NUM_PATTERNS] = {
	"same", "scalar", "last-dim", "both-ways", "first-small",
};

void cf_draw_binary_shapes(int32_t pattern, const cf_shape_limits *limits,
			   cf_rng *rng, cf_binary_shapes *s)
{
	int32_t rank = cf_rng_int(rng, 1, limits->max_rank);
	int32_t *a = s->dims[0], *b = s->dims[1], *out = s->dims[2];

	for (int32_t d = 0; d < rank; d++)
		out[d] = cf_rng_int(rng, d == rank - 1 ? 2 : 1,
				    rank > 4 ? limits->dim_max_above_4d :
					       limits->dim_max);
	s->rank[0] = s->rank[1] = s->rank[2] = rank;
	for (int32_t d = 0; d < rank; d++)
		a[d] = b[d] = out[d];
	switch (pattern) {
	case CF_PATTERN_SCALAR:
		s->rank[1] = 1;
		b[0] = 1;
		break;
	case CF_PATTERN_LAST:
		s->rank[1] = 1;
		b[0] = out[rank - 1];
		break;
	case CF_PATTERN_FIRST_SMALL:
		s->rank[0] = 1;
		a[0] = out[rank - 1];
		break;
	case CF_PATTERN_MUTUAL:
		/* Each input broadcasts the other along a different axis. */
		s->rank[0] = s->rank[1] = s->rank[2] = 4;
		for (int32_t d = 0; d < 4; d++)
			out[d] = cf_rng_int(rng, 2, limits->mutual_max);
		for (int32_t d = 0; d < 4; d++) {
			a[d] = d == 1 ? 1 : out[d];
			b[d] = d == 0 || d == 2 ? 1 : out[d];
		}
		break;
	default:
		break;
	}
}

bool cf_case_fill(cf_case *c, int32_t t, cf_rng *rng, double lo, double hi,
		  bool constant)
{
	cf_tensor_desc *tensor = &c->tensors[t];
	size_t n = cf_tensor_elements(tensor);
	size_t size = opver_type_size(tensor->type);
	void *data = cf_case_alloc(c, n * size);

	if (size == 0 || data == NULL)
		return false;
	for (size_t i = 0; i < n; i++) {
		switch (tensor->type) {
		case OPVER_TYPE_FLOAT32:
			((float *)data)[i] =
				cf_rng_float(rng, (float)lo, (float)hi);
			break;
		case OPVER_TYPE_INT8:
			((int8_t *)data)[i] = (int8_t)cf_rng_int(
				rng, (int32_t)lo, (int32_t)hi);
			break;
		case OPVER_TYPE_INT16:
			((int16_t *)data)[i] = (int16_t)cf_rng_int(
				rng, (int32_t)lo, (int32_t)hi);
			break;
		case OPVER_TYPE_INT32:
			((int32_t *)data)[i] =
				cf_rng_int(rng, (int32_t)lo, (int32_t)hi);
			break;
		case OPVER_TYPE_INT64:
			((int64_t *)data)[i] =
				cf_rng_int(rng, (int32_t)lo, (int32_t)hi);
			break;
		case OPVER_TYPE_BOOL:
			((uint8_t *)data)[i] = (uint8_t)cf_rng_int(rng, 0, 1);
			break;
		default:
			/* Any bits: only copied and compared as bytes. */
			for (size_t b = 0; b < size; b++)
				((uint8_t *)data)[i * size + b] =
					(uint8_t)cf_rng_next(rng);
			break;
		}
	}
	if (constant) {
		tensor->data = data;
		tensor->data_size = n * size;
	} else {
		c->values[t] = data;
	}
	return true;
}

void cf_case_input(cf_case *c, int32_t t)
{
	if (c->num_inputs == CF_MAX_NODE_INPUTS)
		abort();
	c->inputs[c->num_inputs++] = t;
}

void cf_case_param(cf_case *c, const char *format, ...)
{
	size_t used = strlen(c->params_text);
	va_list args;

	if (used > 0 && used + 1 < sizeof(c->params_text))
		c->params_text[used++] = ' ';
	va_start(args, format);
	vsnprintf(c->params_text + used, sizeof(c->params_text) - used, format,
		  args);
	va_end(args);
}

int32_t cf_window_output(int32_t in, int32_t filter, int32_t stride,
			 int32_t dilation, opver_padding padding)
{
	int32_t effective = (filter - 1) * dilation + 1;

	if (padding == OPVER_PADDING_SAME)
		return (in + stride - 1) / stride;
	if (effective > in)
		return 0;
	return (in - effective + stride) / stride;
}

int32_t cf_padding_before(int32_t in, int32_t filter, int32_t stride,
			  int32_t dilation, opver_padding padding)
{
	int32_t out = cf_window_output(in, filter, stride, dilation, padding);
	int32_t total = (out - 1) * stride + (filter - 1) * dilation + 1 - in;

	return padding == OPVER_PADDING_SAME && total > 0 ? total / 2 : 0;
}

/* Along one axis: the first tap with which an output reads inside the
 * input, and the index it reads. */
static bool reading_tap(int32_t in, int32_t filter, int32_t stride,
			int32_t dilation, opver_padding padding, int32_t *tap,
			int32_t *index)
{
	int32_t outs = cf_window_output(in, filter, stride, dilation, padding);
	int32_t before = cf_padding_before(in, filter, stride, dilation,
					   padding);

	for (int32_t out = 0; out < outs; out++) {
		for (*tap = 0; *tap < filter; (*tap)++) {
			*index = out * stride - before + *tap * dilation;
			if (*index >= 0 && *index < in)
				return true;
		}
	}
	return false;
}

bool cf_reading_pixel(const cf_tensor_desc *in, const cf_tensor_desc *filter,
		      int32_t stride_height, int32_t stride_width,
		      int32_t dilation_height, int32_t dilation_width,
		      opver_padding padding, int32_t *ky, int32_t *kx,
		      size_t *pixel)
{
	int32_t iy, ix;

	if (!reading_tap(in->dims[1], filter->dims[1], stride_height,
			 dilation_height, padding, ky, &iy) ||
	    !reading_tap(in->dims[2], filter->dims[2], stride_width,
			 dilation_width, padding, kx, &ix))
		return false;
	*pixel = ((size_t)iy * (size_t)in->dims[2] + (size_t)ix) *
		 (size_t)in->dims[3];
	return true;
}

float cf_dominant_input(float lead, float rest, float bias, bool hybrid)
{
	return (7 + rest + bias) / (lead - (hybrid ? rest / 127 : 0));
}

float cf_weight(const cf_tensor_desc *w, size_t i, int32_t channel)
{
	if (w->type == OPVER_TYPE_FLOAT32)
		return ((const float *)w->data)[i];
	return (float)((const int8_t *)w->data)[i] *
	       w->scales[w->num_scales > 1 ? channel : 0];
}

void cf_set_lead_weight(cf_tensor_desc *w, size_t i, bool positive)
{
	/* The case allocated the data (cf_case_fill): it is its to change. */
	if (w->type == OPVER_TYPE_FLOAT32)
		((float *)w->data)[i] = positive ? 1.0f : -1.0f;
	else
		((int8_t *)w->data)[i] = (int8_t)(positive ? 127 : -127);
}

const char *cf_padding_name(opver_padding padding)
{
	return padding == OPVER_PADDING_SAME ? "SAME" : "VALID";
}

const char *cf_activation_name(opver_activation activation)
{
	switch (activation) {
	case OPVER_ACTIVATION_NONE:
		return "NONE";
	case OPVER_ACTIVATION_RELU:
		return "RELU";
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		return "RELU_N1_TO_1";
	case OPVER_ACTIVATION_RELU6:
		return "RELU6";
	case OPVER_ACTIVATION_TANH:
		return "TANH";
	default:
		return "SIGN_BIT";
	}
}

opver_activation cf_activation(int32_t index)
{
	static const opver_activation clamps[CF_NUM_ACTIVATIONS] = {
		OPVER_ACTIVATION_NONE, OPVER_ACTIVATION_RELU,
		OPVER_ACTIVATION_RELU_N1_TO_1, OPVER_ACTIVATION_RELU6,
	};

	return clamps[index % CF_NUM_ACTIVATIONS];
}

static const cf_generator *const generators[] = {
	&cf_add_cases,
	&cf_average_pool_2d_cases,
	&cf_batch_to_space_nd_cases,
	&cf_broadcast_to_cases,
	&cf_cast_cases,
	&cf_batch_matmul_cases,
	&cf_conv_2d_cases,
	&cf_depthwise_conv_2d_cases,
	&cf_detection_postprocess_cases,
	&cf_depth_to_space_cases,
	&cf_dequantize_cases,
	&cf_div_cases,
	&cf_elu_cases,
	&cf_fully_connected_cases,
	&cf_gelu_cases,
	&cf_hard_swish_cases,
	&cf_leaky_relu_cases,
	&cf_logistic_cases,
	&cf_log_softmax_cases,
	&cf_fill_cases,
	&cf_gather_cases,
	&cf_gather_nd_cases,
	&cf_l2_normalization_cases,
	&cf_l2_pool_2d_cases,
	&cf_max_pool_2d_cases,
	&cf_maximum_cases,
	&cf_minimum_cases,
	&cf_mul_cases,
	&cf_prelu_cases,
	&cf_quantize_cases,
	&cf_relu_cases,
	&cf_relu6_cases,
	&cf_relu_n1_to_1_cases,
	&cf_relu_0_to_1_cases,
	&cf_reshape_cases,
	&cf_shape_cases,
	&cf_softmax_cases,
	&cf_squared_difference_cases,
	&cf_floor_div_cases,
	&cf_floor_mod_cases,
	&cf_pow_cases,
	&cf_add_n_cases,
	&cf_sub_cases,
	&cf_tanh_cases,
	&cf_mean_cases,
	&cf_sum_cases,
	&cf_reduce_max_cases,
	&cf_reduce_min_cases,
	&cf_reduce_prod_cases,
	&cf_arg_max_cases,
	&cf_arg_min_cases,
	&cf_space_to_batch_nd_cases,
	&cf_space_to_depth_cases,
	&cf_tile_cases,
	&cf_zeros_like_cases,
	&cf_concatenation_cases,
	&cf_expand_dims_cases,
	&cf_mirror_pad_cases,
	&cf_pack_cases,
	&cf_pad_cases,
	&cf_padv2_cases,
	&cf_slice_cases,
	&cf_split_cases,
	&cf_split_v_cases,
	&cf_squeeze_cases,
	&cf_strided_slice_cases,
	&cf_transpose_cases,
	&cf_unpack_cases,
	&cf_resize_bilinear_cases,
	&cf_resize_nearest_neighbor_cases,
	&cf_transpose_conv_cases,
	&cf_abs_cases,
	&cf_ceil_cases,
	&cf_cos_cases,
	&cf_exp_cases,
	&cf_floor_cases,
	&cf_log_cases,
	&cf_neg_cases,
	&cf_round_cases,
	&cf_rsqrt_cases,
	&cf_sign_cases,
	&cf_sin_cases,
	&cf_sqrt_cases,
	&cf_square_cases,
	&cf_equal_cases,
	&cf_not_equal_cases,
	&cf_less_cases,
	&cf_less_equal_cases,
	&cf_greater_cases,
	&cf_greater_equal_cases,
	&cf_logical_and_cases,
	&cf_logical_or_cases,
	&cf_logical_not_cases,
	&cf_select_cases,
	&cf_select_v2_cases,
	&cf_reduce_any_cases,
	&cf_reduce_all_cases,
	&cf_cumsum_cases,
	&cf_reverse_v2_cases,
	&cf_dynamic_update_slice_cases,
	&cf_embedding_lookup_cases,
	&cf_broadcast_args_cases,
	&cf_svdf_cases,
	&cf_sequence_rnn_cases,
	&cf_sequence_lstm_cases,
	&cf_topk_v2_cases,
	&cf_one_hot_cases,
	&cf_rank_cases,
	&cf_atan2_cases,
	&cf_local_response_norm_cases,
};

const cf_generator *cf_generator_at(size_t index)
{
	return index < sizeof(generators) / sizeof(generators[0])
		       ? generators[index]
		       : NULL;
}

const cf_generator *cf_generator_for(int32_t op)
{
	for (size_t i = 0; i < sizeof(generators) / sizeof(generators[0]); i++)
		if (generators[i]->op == op &&
		    generators[i]->custom_name == NULL)
			return generators[i];
	return NULL;
}

const char *cf_generator_name(const cf_generator *g)
{
	return g->custom_name != NULL ? g->custom_name : opver_op_name(g->op);
}

const cf_generator *cf_generator_named(const char *name)
{
	for (size_t i = 0; i < sizeof(generators) / sizeof(generators[0]); i++)
		if (strcasecmp(cf_generator_name(generators[i]), name) == 0)
			return generators[i];
	return NULL;
}

/* FNV-1a of a custom op's name, which stands for the op code (shared by
 * every custom op) in its seeds. */
static uint64_t name_hash(const char *name)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *name != '\0'; name++)
		h = (h ^ (uint8_t)*name) * UINT64_C(0x100000001b3);
	return h;
}

uint64_t cf_case_seed(uint64_t seed, const cf_generator *g, int32_t variant,
		      int32_t repetition)
{
	const uint64_t op = g->custom_name != NULL ? name_hash(g->custom_name)
						   : (uint64_t)g->op;

	return cf_seed_mix(cf_seed_mix(cf_seed_mix(seed, op),
				       (uint64_t)variant),
			   (uint64_t)repetition);
}
