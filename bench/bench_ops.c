/*
 * bench_ops.c - invoke latency of single-op models on realistic shapes,
 * one line per op family and type, the median (with min) of several runs:
 * the baseline that optimized plugins are compared with.
 *
 *   bench_ops RUNS PLUGIN.so [FAMILY...]
 *
 * Models are made with the conformance kit's case builder
 * (tools/conformance/cases.h), weights and inputs seeded, so every run
 * and every plugin sees the same ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conformance/cases.h"

/* One benchmarked node: fills the initialized case, false when out of
 * memory. */
typedef struct bench_op {
	const char *family;
	int32_t op;
	const char *what;
	bool (*build)(cf_case *c, cf_rng *rng);
} bench_op;

/* A tensor of `type` and the given NHWC-or-other shape. */
#define TENSOR(c, type, ...)                                          \
	cf_case_tensor((c), OPVER_TYPE_##type,                        \
		       (int32_t)(sizeof((int32_t[]){ __VA_ARGS__ }) / \
				 sizeof(int32_t)),                    \
		       (int32_t[]){ __VA_ARGS__ })

/* An int8 activation tensor, quantized with scale 1/32 and a nonzero zero
 * point, filled when it is a graph input. */
static int32_t int8_activation(cf_case *c, cf_rng *rng, int32_t t,
			       bool input)
{
	if (!cf_case_quantize(c, t, 1.0f / 32, -3) ||
	    (input && !cf_case_fill(c, t, rng, -128, 127, false)))
		return -1;
	return t;
}

/* Constant int8 weights, one scale per slice along dimension `axis`. */
static bool int8_weights(cf_case *c, cf_rng *rng, int32_t t, int32_t axis)
{
	int32_t channels = c->tensors[t].dims[axis];
	float *scales = cf_case_alloc(c, (size_t)channels * sizeof(float));

	if (scales == NULL)
		return false;
	for (int32_t i = 0; i < channels; i++)
		scales[i] = cf_rng_float(rng, 0.002f, 0.004f);
	return cf_case_quantize_per_channel(c, t, axis, scales) &&
	       cf_case_fill(c, t, rng, -127, 127, true);
}

/* A constant int32 bias of `n` whose scale the kernel derives. */
static bool int32_bias(cf_case *c, cf_rng *rng, int32_t n)
{
	int32_t t = TENSOR(c, INT32, n);

	if (!cf_case_fill(c, t, rng, -2000, 2000, true))
		return false;
	cf_case_input(c, t);
	return true;
}

static bool conv_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64),
				     true);
	int32_t filter = TENSOR(c, INT8, 64, 3, 3, 64);
	int32_t out;

	if (in < 0 || !int8_weights(c, rng, filter, 0))
		return false;
	cf_case_input(c, in);
	cf_case_input(c, filter);
	if (!int32_bias(c, rng, 64))
		return false;
	out = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64), false);
	c->output = out;
	c->has_params = true;
	c->params.conv = (opver_conv_params)OPVER_CONV_PARAMS_DEFAULTS;
	c->params.conv.stride_width = c->params.conv.stride_height = 1;
	return out >= 0;
}

static bool depthwise_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng,
				     TENSOR(c, INT8, 1, 112, 112, 32), true);
	int32_t filter = TENSOR(c, INT8, 1, 3, 3, 32);
	int32_t out;

	if (in < 0 || !int8_weights(c, rng, filter, 3))
		return false;
	cf_case_input(c, in);
	cf_case_input(c, filter);
	if (!int32_bias(c, rng, 32))
		return false;
	out = int8_activation(c, rng, TENSOR(c, INT8, 1, 112, 112, 32),
			      false);
	c->output = out;
	c->has_params = true;
	c->params.depthwise =
		(opver_depthwise_conv_params)OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	c->params.depthwise.stride_width = 1;
	c->params.depthwise.stride_height = 1;
	c->params.depthwise.depth_multiplier = 1;
	return out >= 0;
}

static bool fully_connected_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 1024), true);
	int32_t weights = TENSOR(c, INT8, 1000, 1024);
	int32_t out;

	if (in < 0 || !cf_case_quantize(c, weights, 0.003f, 0) ||
	    !cf_case_fill(c, weights, rng, -127, 127, true))
		return false;
	cf_case_input(c, in);
	cf_case_input(c, weights);
	if (!int32_bias(c, rng, 1000))
		return false;
	out = int8_activation(c, rng, TENSOR(c, INT8, 1, 1000), false);
	c->output = out;
	c->has_params = true;
	c->params.fully_connected = (opver_fully_connected_params)
		OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	return out >= 0;
}

static bool add_int8(cf_case *c, cf_rng *rng)
{
	int32_t a = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64),
				    true);
	int32_t b = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64),
				    true);

	if (a < 0 || b < 0)
		return false;
	cf_case_input(c, a);
	cf_case_input(c, b);
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64),
				    false);
	c->has_params = true;
	c->params.add = (opver_add_params)OPVER_ADD_PARAMS_DEFAULTS;
	return c->output >= 0;
}

static bool average_pool_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 7, 7, 1024),
				     true);

	if (in < 0)
		return false;
	cf_case_input(c, in);
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 1, 1, 1024),
				    false);
	c->has_params = true;
	c->params.pool = (opver_pool_params){
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1, .filter_width = 7, .filter_height = 7,
	};
	return c->output >= 0;
}

static bool softmax_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 1001), true);
	int32_t out = TENSOR(c, INT8, 1, 1001);

	if (in < 0 || !cf_case_quantize(c, out, 1.0f / 256, -128))
		return false;
	cf_case_input(c, in);
	c->output = out;
	c->has_params = true;
	c->params.softmax.beta = 1.0f;
	return true;
}

/* An embedding lookup: 128 rows of a 30522 x 128 int8 table (BERT's
 * vocabulary). */
static bool gather_int8(cf_case *c, cf_rng *rng)
{
	int32_t table = TENSOR(c, INT8, 30522, 128);
	int32_t positions = TENSOR(c, INT32, 128);

	if (!cf_case_fill(c, table, rng, -128, 127, true) ||
	    !cf_case_fill(c, positions, rng, 0, 30521, false))
		return false;
	cf_case_input(c, table);
	cf_case_input(c, positions);
	c->output = TENSOR(c, INT8, 128, 128);
	c->has_params = true;
	c->params.gather = (opver_gather_params)OPVER_GATHER_PARAMS_DEFAULTS;
	return true;
}

/* YOLO's reorg layer. */
static bool space_to_depth_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = TENSOR(c, INT8, 1, 208, 208, 32);

	if (!cf_case_fill(c, in, rng, -128, 127, false))
		return false;
	cf_case_input(c, in);
	c->output = TENSOR(c, INT8, 1, 104, 104, 128);
	c->has_params = true;
	c->params.space_depth.block_size = 2;
	return true;
}

/* An image's bytes to floats, as models that take uint8 pixels begin. */
static bool cast_uint8_float32(cf_case *c, cf_rng *rng)
{
	int32_t in = TENSOR(c, UINT8, 1, 224, 224, 3);

	if (!cf_case_fill(c, in, rng, 0, 255, false))
		return false;
	cf_case_input(c, in);
	c->output = TENSOR(c, FLOAT32, 1, 224, 224, 3);
	return true;
}

/* A constant int32 axis tensor holding `values` (count of them). */
static bool constant_axis(cf_case *c, const int32_t *values, int32_t count)
{
	int32_t *data = cf_case_alloc(c, (size_t)count * sizeof(int32_t));
	int32_t t = TENSOR(c, INT32, count);

	if (data == NULL)
		return false;
	memcpy(data, values, (size_t)count * sizeof(int32_t));
	c->tensors[t].data = data;
	c->tensors[t].data_size = (size_t)count * sizeof(int32_t);
	cf_case_input(c, t);
	return true;
}

/* MobileNet v2's global average pool: MEAN over height and width. */
static bool mean_int8(cf_case *c, cf_rng *rng)
{
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 7, 7, 1280),
				     true);

	if (in < 0)
		return false;
	cf_case_input(c, in);
	if (!constant_axis(c, (const int32_t[]){ 1, 2 }, 2))
		return false;
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 1, 1, 1280),
				    false);
	c->has_params = true;
	c->params.reducer.keep_dims = 1;
	return c->output >= 0;
}

/* A segmenter's class map: ARG_MAX over 21 classes of 1x129x129. */
static bool arg_max_float(cf_case *c, cf_rng *rng)
{
	int32_t in = TENSOR(c, FLOAT32, 1, 129, 129, 21);

	if (!cf_case_fill(c, in, rng, -1, 1, false))
		return false;
	cf_case_input(c, in);
	if (!constant_axis(c, (const int32_t[]){ 3 }, 1))
		return false;
	c->output = TENSOR(c, INT64, 1, 129, 129);
	c->has_params = true;
	c->params.arg.output_type = OPVER_TYPE_INT64;
	return true;
}

/* conv_int8 in TFLite's legacy uint8 quantization: zero points on input,
 * filter (one scale) and output, the bias at input x filter scale. */
static bool conv_uint8(cf_case *c, cf_rng *rng)
{
	int32_t in = TENSOR(c, UINT8, 1, 56, 56, 64);
	int32_t filter = TENSOR(c, UINT8, 64, 3, 3, 64);
	int32_t bias = TENSOR(c, INT32, 64);
	int32_t out = TENSOR(c, UINT8, 1, 56, 56, 64);

	if (!cf_case_quantize(c, in, 1.0f / 32, 125) ||
	    !cf_case_fill(c, in, rng, 0, 255, false) ||
	    !cf_case_quantize(c, filter, 0.003f, 131) ||
	    !cf_case_fill(c, filter, rng, 0, 255, true) ||
	    !cf_case_quantize(c, bias, 0.003f / 32, 0) ||
	    !cf_case_fill(c, bias, rng, -2000, 2000, true) ||
	    !cf_case_quantize(c, out, 1.0f / 4, 120))
		return false;
	cf_case_input(c, in);
	cf_case_input(c, filter);
	cf_case_input(c, bias);
	c->output = out;
	c->has_params = true;
	c->params.conv = (opver_conv_params)OPVER_CONV_PARAMS_DEFAULTS;
	c->params.conv.stride_width = c->params.conv.stride_height = 1;
	return true;
}

/* A constant int32 tensor of `count` values, as the node's next input. */
static bool int32_constant(cf_case *c, int32_t rank, const int32_t *dims,
			   const int32_t *values, size_t count)
{
	int32_t t = cf_case_tensor(c, OPVER_TYPE_INT32, rank, dims);
	int32_t *data = cf_case_alloc(c, count * sizeof(*data));

	if (data == NULL)
		return false;
	memcpy(data, values, count * sizeof(*data));
	c->tensors[t].data = data;
	c->tensors[t].data_size = count * sizeof(*data);
	cf_case_input(c, t);
	return true;
}

static bool pad_int8(cf_case *c, cf_rng *rng)
{
	static const int32_t pairs[] = { 0, 0, 1, 1, 1, 1, 0, 0 };
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 112, 112, 32),
				     true);

	if (in < 0)
		return false;
	cf_case_input(c, in);
	if (!int32_constant(c, 2, (const int32_t[]){ 4, 2 }, pairs, 8))
		return false;
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 114, 114, 32),
				    false);
	return c->output >= 0;
}

static bool concatenation_int8(cf_case *c, cf_rng *rng)
{
	for (int k = 0; k < 2; k++) {
		int32_t in = int8_activation(
			c, rng, TENSOR(c, INT8, 1, 28, 28, 128), true);

		if (in < 0)
			return false;
		cf_case_input(c, in);
	}
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 28, 28, 256),
				    false);
	c->has_params = true;
	c->params.concatenation = (opver_concatenation_params){ .axis = 3 };
	return c->output >= 0;
}

static bool transpose_int8(cf_case *c, cf_rng *rng)
{
	static const int32_t perm[] = { 0, 3, 1, 2 };
	int32_t in = int8_activation(c, rng, TENSOR(c, INT8, 1, 56, 56, 64),
				     true);

	if (in < 0)
		return false;
	cf_case_input(c, in);
	if (!int32_constant(c, 1, (const int32_t[]){ 4 }, perm, 4))
		return false;
	c->output = int8_activation(c, rng, TENSOR(c, INT8, 1, 64, 56, 56),
				    false);
	return c->output >= 0;
}

/* An int8 tensor of `dims` quantized with scale 1/32, filled as a graph
 * input; -1 when out of memory. */
static int32_t int8_input(cf_case *c, cf_rng *rng, int32_t rank,
			  const int32_t *dims)
{
	int32_t t = cf_case_tensor(c, OPVER_TYPE_INT8, rank, dims);

	t = int8_activation(c, rng, t, true);
	if (t >= 0)
		cf_case_input(c, t);
	return t;
}

/* A unary int8 op of one shape whose output is quantized with `scale` and
 * `zero_point`. */
static bool unary_int8(cf_case *c, cf_rng *rng, int32_t rank,
		       const int32_t *dims, float scale, int32_t zero_point)
{
	int32_t out = cf_case_tensor(c, OPVER_TYPE_INT8, rank, dims);

	c->output = out;
	return int8_input(c, rng, rank, dims) >= 0 &&
	       cf_case_quantize(c, out, scale, zero_point);
}

/* LOGISTIC at the output scale TFLite requires, on a MobileNet-v3-sized
 * feature map. */
static bool logistic_int8(cf_case *c, cf_rng *rng)
{
	return unary_int8(c, rng, 4, (const int32_t[]){ 1, 56, 56, 64 },
			  1.0f / 256, -128);
}

static bool hard_swish_int8(cf_case *c, cf_rng *rng)
{
	return unary_int8(c, rng, 4, (const int32_t[]){ 1, 112, 112, 16 },
			  1.0f / 16, -10);
}

/* A YOLO-style feature map. */
static bool leaky_relu_int8(cf_case *c, cf_rng *rng)
{
	c->has_params = true;
	c->params.leaky_relu.alpha = 0.1f;
	return unary_int8(c, rng, 4, (const int32_t[]){ 1, 104, 104, 64 },
			  1.0f / 32, -3);
}

/* A squeeze-and-excitation scale: a feature map times per-channel
 * weights, broadcast. */
static bool mul_int8_broadcast(cf_case *c, cf_rng *rng)
{
	int32_t out = TENSOR(c, INT8, 1, 28, 28, 128);

	if (int8_input(c, rng, 4, (const int32_t[]){ 1, 28, 28, 128 }) < 0 ||
	    int8_input(c, rng, 4, (const int32_t[]){ 1, 1, 1, 128 }) < 0)
		return false;
	c->output = int8_activation(c, rng, out, false);
	c->has_params = true;
	c->params.mul = (opver_mul_params)OPVER_MUL_PARAMS_DEFAULTS;
	return c->output >= 0;
}

static bool sub_float32(cf_case *c, cf_rng *rng)
{
	int32_t a = TENSOR(c, FLOAT32, 1, 56, 56, 64);
	int32_t b = TENSOR(c, FLOAT32, 1, 56, 56, 64);

	if (!cf_case_fill(c, a, rng, -2, 2, false) ||
	    !cf_case_fill(c, b, rng, -2, 2, false))
		return false;
	cf_case_input(c, a);
	cf_case_input(c, b);
	c->output = TENSOR(c, FLOAT32, 1, 56, 56, 64);
	c->has_params = true;
	c->params.sub = (opver_sub_params)OPVER_SUB_PARAMS_DEFAULTS;
	return true;
}

/* A feature-pyramid upsampling: twice the size, half-pixel centers. */
static bool resize_bilinear_int8(cf_case *c, cf_rng *rng)
{
	static const int32_t size[] = { 64, 64 };
	int32_t out = TENSOR(c, INT8, 1, 64, 64, 64);

	if (int8_input(c, rng, 4, (const int32_t[]){ 1, 32, 32, 64 }) < 0 ||
	    !int32_constant(c, 1, (const int32_t[]){ 2 }, size, 2))
		return false;
	c->output = int8_activation(c, rng, out, false);
	c->has_params = true;
	c->params.resize_bilinear = (opver_resize_bilinear_params){
		.half_pixel_centers = 1,
	};
	return c->output >= 0;
}

/* A decoder's upsampling: 1x14x14x64 to 1x28x28x32, 3x3, stride 2. */
static bool transpose_conv_int8(cf_case *c, cf_rng *rng)
{
	static const int32_t shape[] = { 1, 28, 28, 32 };
	int32_t filter = TENSOR(c, INT8, 32, 3, 3, 64);
	int32_t out = TENSOR(c, INT8, 1, 28, 28, 32);

	if (!int32_constant(c, 1, (const int32_t[]){ 4 }, shape, 4) ||
	    !int8_weights(c, rng, filter, 0))
		return false;
	cf_case_input(c, filter);
	if (int8_input(c, rng, 4, (const int32_t[]){ 1, 14, 14, 64 }) < 0)
		return false;
	c->output = int8_activation(c, rng, out, false);
	c->has_params = true;
	c->params.transpose_conv = (opver_transpose_conv_params){
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2,
	};
	return c->output >= 0;
}

/* An attention score: 4 heads of 128x64 times 64x128. */
static bool batch_matmul_int8(cf_case *c, cf_rng *rng)
{
	int32_t out = TENSOR(c, INT8, 4, 128, 128);

	if (int8_input(c, rng, 3, (const int32_t[]){ 4, 128, 64 }) < 0 ||
	    int8_input(c, rng, 3, (const int32_t[]){ 4, 64, 128 }) < 0 ||
	    !cf_case_quantize(c, out, 0.5f, 0))
		return false;
	c->output = out;
	c->has_params = true;
	c->params.batch_matmul = (opver_batch_matmul_params){ 0 };
	return true;
}

static const bench_op bench_ops[] = {
	{ "conv", OPVER_OP_CONV_2D, "CONV_2D int8 1x56x56x64, 3x3x64",
	  conv_int8 },
	{ "depthwise_conv", OPVER_OP_DEPTHWISE_CONV_2D,
	  "DEPTHWISE_CONV_2D int8 1x112x112x32, 3x3", depthwise_int8 },
	{ "fully_connected", OPVER_OP_FULLY_CONNECTED,
	  "FULLY_CONNECTED int8 1024 -> 1000", fully_connected_int8 },
	{ "elementwise", OPVER_OP_ADD, "ADD int8 1x56x56x64", add_int8 },
	{ "pool", OPVER_OP_AVERAGE_POOL_2D,
	  "AVERAGE_POOL_2D int8 1x7x7x1024, 7x7", average_pool_int8 },
	{ "softmax", OPVER_OP_SOFTMAX, "SOFTMAX int8 1x1001", softmax_int8 },
	{ "gather", OPVER_OP_GATHER, "GATHER int8 30522x128, 128 rows",
	  gather_int8 },
	{ "gather", OPVER_OP_SPACE_TO_DEPTH,
	  "SPACE_TO_DEPTH int8 1x208x208x32, block 2", space_to_depth_int8 },
	{ "gather", OPVER_OP_CAST, "CAST uint8 -> float32 1x224x224x3",
	  cast_uint8_float32 },
	{ "reduce", OPVER_OP_MEAN, "MEAN int8 1x7x7x1280 over [1, 2]",
	  mean_int8 },
	{ "reduce", OPVER_OP_ARG_MAX, "ARG_MAX float32 1x129x129x21 -> int64",
	  arg_max_float },
	{ "uint8", OPVER_OP_CONV_2D, "CONV_2D uint8 1x56x56x64, 3x3x64",
	  conv_uint8 },
	{ "movement", OPVER_OP_PAD, "PAD int8 1x112x112x32, 1 each side",
	  pad_int8 },
	{ "movement", OPVER_OP_CONCATENATION,
	  "CONCATENATION int8 2 x 1x28x28x128, axis 3", concatenation_int8 },
	{ "movement", OPVER_OP_TRANSPOSE, "TRANSPOSE int8 1x56x56x64 -> NCHW",
	  transpose_int8 },
	{ "activation", OPVER_OP_LOGISTIC, "LOGISTIC int8 1x56x56x64",
	  logistic_int8 },
	{ "activation", OPVER_OP_HARD_SWISH, "HARD_SWISH int8 1x112x112x16",
	  hard_swish_int8 },
	{ "activation", OPVER_OP_LEAKY_RELU, "LEAKY_RELU int8 1x104x104x64",
	  leaky_relu_int8 },
	{ "binary", OPVER_OP_MUL, "MUL int8 1x28x28x128 x 1x1x1x128",
	  mul_int8_broadcast },
	{ "binary", OPVER_OP_SUB, "SUB float32 1x56x56x64", sub_float32 },
	{ "spatial", OPVER_OP_RESIZE_BILINEAR,
	  "RESIZE_BILINEAR int8 1x32x32x64 -> 64x64", resize_bilinear_int8 },
	{ "spatial", OPVER_OP_TRANSPOSE_CONV,
	  "TRANSPOSE_CONV int8 14x14x64 -> 28x28x32 s2",
	  transpose_conv_int8 },
	{ "spatial", OPVER_OP_BATCH_MATMUL,
	  "BATCH_MATMUL int8 4x128x64 x 4x64x128", batch_matmul_int8 },
};

/* The runtime's latest message: finding a case's required version probes
 * version 1 first, whose refusal is not worth printing unless the op then
 * cannot run. */
static char last_message[512];

static void keep_last_message(void *user_data, opver_log_level level,
			      const char *message)
{
	(void)user_data;
	(void)level;
	snprintf(last_message, sizeof(last_message), "%s", message);
}

static double now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Builds and times one node on `runtime`; prints its line.  False when it
 * cannot run (the line says why). */
static bool bench_one(opver_runtime *runtime, const bench_op *b, int runs,
		      double *samples)
{
	int32_t inputs[CF_MAX_NODE_INPUTS], count;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	uint8_t *bytes = NULL;
	char error[sizeof(last_message) + 32] = "out of memory";
	int32_t version;
	size_t size;
	cf_case c;
	cf_rng rng;
	bool ok = false;

	cf_case_init(&c, b->op);
	cf_rng_seed(&rng, 1);
	if (!b->build(&c, &rng) ||
	    !cf_case_model_required(runtime, &c, &bytes, &size, &version,
				    error, sizeof(error)))
		goto out;
	snprintf(error, sizeof(error), "%s", last_message);
	if (opver_model_open_memory(runtime, bytes, size, &model) != OPVER_OK ||
	    opver_interpreter_create(runtime, model, &it) != OPVER_OK)
		goto out;
	snprintf(error, sizeof(error), "invoke failed: %s", last_message);
	count = cf_case_graph_inputs(&c, inputs);
	for (int32_t i = 0; i < count; i++) {
		opver_tensor *t = opver_interpreter_input(it, (size_t)i);

		memcpy(t->data, c.values[inputs[i]], t->bytes);
	}
	if (opver_interpreter_invoke(it) != OPVER_OK)
		goto out;
	for (int r = 0; r < runs; r++) {
		double start = now_ms();

		if (opver_interpreter_invoke(it) != OPVER_OK)
			goto out;
		samples[r] = now_ms() - start;
	}
	qsort(samples, (size_t)runs, sizeof(*samples), compare_doubles);
	printf("  %-16s %-44s median %9.3f ms   min %9.3f ms\n", b->family,
	       b->what, samples[runs / 2], samples[0]);
	ok = true;
out:
	if (!ok)
		printf("  %-16s %-44s cannot run: %s\n", b->family, b->what,
		       error);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	free(bytes);
	cf_case_free(&c);
	return ok;
}

static bool wanted(const char *family, char **names, int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], family) == 0)
			return true;
	return count == 0;
}

int main(int argc, char **argv)
{
	opver_runtime_options options;
	opver_runtime *runtime;
	char config[4200];
	double *samples;
	int runs, length;

	if (argc < 3 || (runs = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: bench_ops RUNS PLUGIN.so [FAMILY...]\n");
		return 2;
	}
	length = snprintf(config, sizeof(config),
			  "[plugin.bench]\nlibrary = %s\n", argv[2]);
	samples = calloc((size_t)runs, sizeof(*samples));
	if (samples == NULL || length < 0 || (size_t)length >= sizeof(config))
		return 1;
	opver_runtime_options_init(&options);
	options.config_text = config;
	options.config_text_size = (size_t)length;
	options.log = keep_last_message;
	if (opver_runtime_create(&options, &runtime) != OPVER_OK) {
		fprintf(stderr, "bench_ops: cannot load %s\n", argv[2]);
		return 1;
	}
	printf("single-op latency, %s, median of %d runs:\n", argv[2], runs);
	for (size_t i = 0; i < sizeof(bench_ops) / sizeof(bench_ops[0]); i++)
		if (wanted(bench_ops[i].family, argv + 3, argc - 3))
			bench_one(runtime, &bench_ops[i], runs, samples);
	opver_runtime_destroy(runtime);
	free(samples);
	return 0;
}
