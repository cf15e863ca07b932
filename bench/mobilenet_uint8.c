/*
 * mobilenet_uint8.c - writes a uint8 MobileNet v1 (width 0.25, 128 x 128
 * input, 1001 classes: the layer shapes and ops of TFLite's quantized
 * mobilenet_v1_0.25_128_quant) with seeded pseudo-random weights, and an
 * input for it, for bench/run: the corpus has no uint8 MobileNet.  Its
 * outputs are the logits, then the softmax of them: output 0 is what a
 * delegate computes, where a step of difference is not amplified.  Each
 * layer's weight scale follows its depth, so that sums of uniform bytes
 * come to a few units rather than all clamping at RELU6's ends.  The
 * reference plugin's output equals TFLite's on it.
 *
 * Usage: mobilenet_uint8 MODEL.tflite INPUT.raw
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance/model_builder.h"

/* Tensors: input, 3 per convolution (weights, bias, output), the pool's
 * output, the logits' 3, the reshape's shape and output, the softmax's. */
#define LAYERS 27
#define MAX_TENSORS (1 + 3 * LAYERS + 1 + 3 + 2 + 1)
#define MAX_NODES (LAYERS + 4)
#define CLASSES 1001

/* The body: a full 3x3 convolution, then depthwise 3x3 / pointwise pairs
 * (stride of the depthwise, channels of the pointwise). */
static const struct {
	int stride;
	int channels;
} pairs[] = {
	{ 1, 16 }, { 2, 32 }, { 1, 32 }, { 2, 64 }, { 1, 64 }, { 2, 128 },
	{ 1, 128 }, { 1, 128 }, { 1, 128 }, { 1, 128 }, { 1, 128 },
	{ 2, 256 }, { 1, 256 },
};

enum { OP_CONV, OP_DEPTHWISE, OP_POOL, OP_RESHAPE, OP_SOFTMAX };

static const cf_opcode_desc opcodes[] = {
	[OP_CONV] = { .op = OPVER_OP_CONV_2D, .version = 1 },
	[OP_DEPTHWISE] = { .op = OPVER_OP_DEPTHWISE_CONV_2D, .version = 1 },
	[OP_POOL] = { .op = OPVER_OP_AVERAGE_POOL_2D, .version = 1 },
	[OP_RESHAPE] = { .op = OPVER_OP_RESHAPE, .version = 1 },
	[OP_SOFTMAX] = { .op = OPVER_OP_SOFTMAX, .version = 1 },
};

/* RELU6 outputs over their whole uint8 range. */
static const float relu6_scale[1] = { 6.0f / 255.0f };
static const int64_t zero[1] = { 0 };
static const float input_scale[1] = { 1.0f / 128.0f };
static const float logits_scale[1] = { 0.1f };
static const float softmax_scale[1] = { 1.0f / 256.0f };
static const int64_t mid[1] = { 128 };
static const int32_t logits_shape[2] = { 1, CLASSES };

typedef struct graph {
	cf_tensor_desc tensors[MAX_TENSORS];
	int32_t num_tensors;
	cf_operator_desc nodes[MAX_NODES];
	int32_t num_nodes;
	/* Each node's tensor lists and parameters. */
	int32_t node_inputs[MAX_NODES][3];
	int32_t node_outputs[MAX_NODES][1];
	opver_conv_params conv[MAX_NODES];
	opver_depthwise_conv_params depthwise[MAX_NODES];
	/* Per tensor: its one scale, and constant data (owned). */
	float scales[MAX_TENSORS];
	void *data[MAX_TENSORS];
	uint32_t seed;
} graph;

static uint32_t next_random(graph *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return g->seed >> 8;
}

/* Appends an activation tensor of shape [1, h, w, c]. */
static int32_t activation(graph *g, int32_t h, int32_t w, int32_t c,
			  const float *scale, const int64_t *zero_point)
{
	cf_tensor_desc *t = &g->tensors[g->num_tensors];

	*t = (cf_tensor_desc){ .type = OPVER_TYPE_UINT8, .rank = 4,
			       .dims = { 1, h, w, c }, .quantized = true,
			       .num_scales = 1, .scales = scale,
			       .zero_points = zero_point };
	return g->num_tensors++;
}

/*
 * Appends the weights [o, k, k, i] (zero point 128) and the int32 bias
 * (`channels` of them) of a convolution reading its input at scale
 * in_scale, scaled so that the accumulated sum of `depth` products has a
 * real spread of about 3.  Returns the weights' index; the bias follows.
 */
static int32_t filter(graph *g, int32_t o, int32_t k, int32_t i,
		      int32_t channels, int32_t depth, float in_scale)
{
	int32_t w = g->num_tensors, b = w + 1;
	size_t count = (size_t)o * k * k * i;
	uint8_t *weights = malloc(count);
	int32_t *bias = malloc((size_t)channels * sizeof(*bias));
	/* Uniform bytes about 128 have an RMS of 74; so have the inputs. */
	float scale = 3.0f / (in_scale * sqrtf((float)depth) * 74.0f * 74.0f);

	if (weights == NULL || bias == NULL) {
		fprintf(stderr, "mobilenet_uint8: out of memory\n");
		exit(1);
	}
	for (size_t e = 0; e < count; e++)
		weights[e] = (uint8_t)next_random(g);
	/* Biases within +-0.5 in real terms. */
	for (int32_t c = 0; c < channels; c++)
		bias[c] = (int32_t)(next_random(g) % 1001) - 500;
	g->scales[w] = scale;
	g->scales[b] = in_scale * scale;
	for (int32_t c = 0; c < channels; c++)
		bias[c] = (int32_t)lrintf((float)bias[c] / 1000.0f /
					  g->scales[b]);
	g->data[w] = weights;
	g->data[b] = bias;
	g->tensors[w] = (cf_tensor_desc){
		.type = OPVER_TYPE_UINT8, .rank = 4, .dims = { o, k, k, i },
		.quantized = true, .num_scales = 1, .scales = &g->scales[w],
		.zero_points = mid, .data = weights, .data_size = count };
	g->tensors[b] = (cf_tensor_desc){
		.type = OPVER_TYPE_INT32, .rank = 1, .dims = { channels },
		.quantized = true, .num_scales = 1, .scales = &g->scales[b],
		.zero_points = zero, .data = bias,
		.data_size = (size_t)channels * sizeof(*bias) };
	g->num_tensors += 2;
	return w;
}

/* Appends a node of opcode `code` from inputs (num_inputs) to output. */
static void node(graph *g, int code, const int32_t *inputs,
		 int32_t num_inputs, int32_t output, const void *params)
{
	int32_t n = g->num_nodes++;

	for (int32_t i = 0; i < num_inputs; i++)
		g->node_inputs[n][i] = inputs[i];
	g->node_outputs[n][0] = output;
	g->nodes[n] = (cf_operator_desc){ code, g->node_inputs[n], num_inputs,
					  g->node_outputs[n], 1, params,
					  NULL, 0 };
}

/* A SAME convolution (or depthwise one), RELU6, of `input` [1, h, w, c]
 * to `out_c` channels; returns its output and updates h and w. */
static int32_t convolution(graph *g, int32_t input, int32_t *h, int32_t *w,
			   int32_t c, int32_t out_c, int32_t k, int32_t stride,
			   bool depthwise, float in_scale)
{
	int32_t n = g->num_nodes;
	int32_t weights = depthwise ?
		filter(g, 1, k, c, c, k * k, in_scale) :
		filter(g, out_c, k, c, out_c, k * k * c, in_scale);
	int32_t inputs[3] = { input, weights, weights + 1 };

	*h = (*h + stride - 1) / stride;
	*w = (*w + stride - 1) / stride;
	if (depthwise) {
		g->depthwise[n] = (opver_depthwise_conv_params)
			OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
		g->depthwise[n].stride_width = stride;
		g->depthwise[n].stride_height = stride;
		g->depthwise[n].depth_multiplier = 1;
		g->depthwise[n].activation = OPVER_ACTIVATION_RELU6;
	} else {
		g->conv[n] = (opver_conv_params)OPVER_CONV_PARAMS_DEFAULTS;
		g->conv[n].stride_width = stride;
		g->conv[n].stride_height = stride;
		g->conv[n].activation = OPVER_ACTIVATION_RELU6;
	}
	node(g, depthwise ? OP_DEPTHWISE : OP_CONV, inputs, 3,
	     activation(g, *h, *w, out_c, relu6_scale, zero),
	     depthwise ? (const void *)&g->depthwise[n] :
			 (const void *)&g->conv[n]);
	return g->node_outputs[n][0];
}

int main(int argc, char **argv)
{
	static graph g = { .seed = 20261125 };
	static const opver_pool_params pool = {
		.padding = OPVER_PADDING_VALID, .stride_width = 4,
		.stride_height = 4, .filter_width = 4, .filter_height = 4,
	};
	static const opver_reshape_params reshape = { .num_dims = 2,
						      .dims = { 1, CLASSES } };
	static const opver_softmax_params softmax = { .beta = 1.0f };
	static const opver_conv_params logits_conv = {
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1, .dilation_width = 1, .dilation_height = 1,
	};
	int32_t h = 128, w = 128, c = 8, x, weights, shape, logits, input_id;
	int32_t outputs[2];
	uint8_t *bytes, input[128 * 128 * 3];
	size_t size;
	char error[256];
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mobilenet_uint8 MODEL.tflite INPUT.raw\n");
		return 2;
	}
	input_id = activation(&g, h, w, 3, input_scale, mid);
	x = convolution(&g, input_id, &h, &w, 3, c, 3, 2, false,
			input_scale[0]);
	for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		x = convolution(&g, x, &h, &w, c, c, 3, pairs[p].stride, true,
				relu6_scale[0]);
		x = convolution(&g, x, &h, &w, c, pairs[p].channels, 1, 1,
				false, relu6_scale[0]);
		c = pairs[p].channels;
	}
	{
		int32_t pooled = activation(&g, 1, 1, c, relu6_scale, zero);
		int32_t reshape_in[2], softmax_in[1];

		node(&g, OP_POOL, &x, 1, pooled, &pool);
		weights = filter(&g, CLASSES, 1, c, CLASSES, c, relu6_scale[0]);
		logits = activation(&g, 1, 1, CLASSES, logits_scale, mid);
		node(&g, OP_CONV, (const int32_t[3]){ pooled, weights,
						      weights + 1 },
		     3, logits, &logits_conv);
		shape = g.num_tensors++;
		g.tensors[shape] = (cf_tensor_desc){
			.type = OPVER_TYPE_INT32, .rank = 1, .dims = { 2 },
			.data = logits_shape,
			.data_size = sizeof(logits_shape) };
		reshape_in[0] = logits;
		reshape_in[1] = shape;
		x = g.num_tensors++;
		g.tensors[x] = (cf_tensor_desc){
			.type = OPVER_TYPE_UINT8, .rank = 2,
			.dims = { 1, CLASSES }, .quantized = true,
			.num_scales = 1, .scales = logits_scale,
			.zero_points = mid };
		node(&g, OP_RESHAPE, reshape_in, 2, x, &reshape);
		softmax_in[0] = x;
		x = g.num_tensors++;
		g.tensors[x] = (cf_tensor_desc){
			.type = OPVER_TYPE_UINT8, .rank = 2,
			.dims = { 1, CLASSES }, .quantized = true,
			.num_scales = 1, .scales = softmax_scale,
			.zero_points = zero };
		node(&g, OP_SOFTMAX, softmax_in, 1, x, &softmax);
		outputs[0] = softmax_in[0];
		outputs[1] = x;
	}
	{
		const cf_model_desc desc = {
			g.tensors, g.num_tensors, opcodes,
			(int32_t)(sizeof(opcodes) / sizeof(opcodes[0])),
			g.nodes, g.num_nodes, &input_id, 1, outputs, 2,
		};

		if (!cf_build_model(&desc, &bytes, &size, error,
				    sizeof(error))) {
			fprintf(stderr, "mobilenet_uint8: %s\n", error);
			return 1;
		}
	}
	for (int32_t t = 0; t < g.num_tensors; t++)
		free(g.data[t]);
	for (size_t i = 0; i < sizeof(input); i++)
		input[i] = (uint8_t)next_random(&g);
	f = fopen(argv[1], "wb");
	if (f == NULL || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	free(bytes);
	f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(input, 1, sizeof(input), f) != sizeof(input) ||
	    fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
