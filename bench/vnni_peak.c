/*
 * vnni_peak.c - how close the 1x1 int8 convolutions of an int8 MobileNetV2
 * (224 x 224) come to this CPU's AVX512-VNNI peak when opver runs them
 * under a config (bench/run passes the oneDNN delegate's).
 *
 * The peak is measured, not taken from a data sheet: one core issuing
 * VPDPBUSD (64 multiply-adds of u8 x s8 into int32 each) on 16
 * independent accumulators, so that neither latency nor memory limits
 * it.  Each distinct 1x1 layer of MobileNetV2 (and the 7x7x320 -> 1280
 * one the oneDNN issue quotes) is then written as a one-node int8 model:
 * per-channel filter scales, an input zero point, RELU6, as TFLite's
 * converter writes them, and timed through opver_interpreter_invoke on
 * one thread (median of RUNS invokes).  The layer's multiply-adds over
 * that median, against the peak, is its efficiency; the total weighs each
 * layer by how often MobileNetV2 has it.
 *
 * Usage: vnni_peak CONFIG [RUNS]   (pin it: taskset -c N)
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opver/opver.h>

#include "conformance/model_builder.h"

/* MobileNetV2-224's 1x1 convolutions: side of the square input, input and
 * output channels, and how many layers have that shape. */
static const struct {
	int32_t side, in, out, count;
} layers[] = {
	{ 112, 32, 16, 1 },  { 112, 16, 96, 1 },  { 56, 96, 24, 1 },
	{ 56, 24, 144, 2 },  { 56, 144, 24, 1 },  { 28, 144, 32, 1 },
	{ 28, 32, 192, 3 },  { 28, 192, 32, 2 },  { 14, 192, 64, 1 },
	{ 14, 64, 384, 4 },  { 14, 384, 64, 3 },  { 14, 384, 96, 1 },
	{ 14, 96, 576, 3 },  { 14, 576, 96, 2 },  { 7, 576, 160, 1 },
	{ 7, 160, 960, 3 },  { 7, 960, 160, 2 },  { 7, 960, 320, 1 },
	{ 7, 320, 1280, 1 },
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `rounds` rounds of 16 VPDPBUSD into 16 independent accumulators, in
 * assembly: compiled from intrinsics, the destructive accumulate made gcc
 * copy every accumulator each round, which halved the rate. */
__attribute__((target("avx512f,avx512vnni"), noinline))
static void dpbusd_rounds(long rounds)
{
	static const int8_t ones[64] __attribute__((aligned(64))) = { 1 };

	__asm__ volatile(
		"vmovdqa64 %1, %%zmm16\n\t"
		"vmovdqa64 %1, %%zmm17\n\t"
		"1:\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm0\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm1\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm2\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm3\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm4\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm5\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm6\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm7\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm8\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm9\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm10\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm11\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm12\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm13\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm14\n\t"
		"vpdpbusd %%zmm16, %%zmm17, %%zmm15\n\t"
		"dec %0\n\t"
		"jnz 1b\n\t"
		"vzeroupper"
		: "+r"(rounds)
		: "m"(ones)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "xmm14", "xmm15", "xmm16", "xmm17", "cc");
}

/* The best of several timed bursts, in multiply-adds per second. */
static double vnni_peak(void)
{
	const long rounds = 2000000;
	double best = 0.0;

	dpbusd_rounds(rounds / 10); /* warms the clock up */
	for (int i = 0; i < 7; i++) {
		double start = now_seconds(), rate;

		dpbusd_rounds(rounds);
		rate = (double)rounds * 16 * 64 / (now_seconds() - start);
		best = rate > best ? rate : best;
	}
	return best;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint32_t next_random(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/*
 * Writes a one-node int8 model: [1, side, side, in] -> 1x1 CONV_2D with
 * RELU6 -> [1, side, side, out], seeded filter bytes with one scale per
 * output channel, a bias.  The caller frees *bytes.
 */
static bool build_layer(int32_t side, int32_t in, int32_t out,
			uint8_t **bytes, size_t *size)
{
	static const float in_scale[1] = { 0.02f }, out_scale[1] = { 0.05f };
	static const int64_t in_zero[1] = { -3 }, out_zero[1] = { -128 };
	static const cf_opcode_desc opcodes[] = {
		{ OPVER_OP_CONV_2D, 3, NULL },
	};
	opver_conv_params conv = OPVER_CONV_PARAMS_DEFAULTS;

	conv.stride_width = conv.stride_height = 1;
	conv.dilation_width = conv.dilation_height = 1;
	int8_t *filter = malloc((size_t)out * in);
	int32_t *bias = malloc((size_t)out * sizeof(*bias));
	float *scales = malloc((size_t)out * 2 * sizeof(float));
	int64_t *zeros = calloc((size_t)out, sizeof(*zeros));
	uint32_t seed = (uint32_t)(side * 7919 + in * 31 + out);
	char error[256];
	bool ok = false;

	if (filter == NULL || bias == NULL || scales == NULL || zeros == NULL)
		goto out;
	for (size_t e = 0; e < (size_t)out * in; e++)
		filter[e] = (int8_t)(next_random(&seed) % 255 - 127);
	for (int32_t c = 0; c < out; c++) {
		scales[c] = 0.001f + 0.0001f * (float)(c % 7);
		scales[out + c] = in_scale[0] * scales[c];
		bias[c] = (int32_t)(next_random(&seed) % 2001) - 1000;
	}
	conv.activation = OPVER_ACTIVATION_RELU6;
	{
		const cf_tensor_desc tensors[] = {
			{ .type = OPVER_TYPE_INT8, .rank = 4,
			  .dims = { 1, side, side, in }, .quantized = true,
			  .num_scales = 1, .scales = in_scale,
			  .zero_points = in_zero },
			{ .type = OPVER_TYPE_INT8, .rank = 4,
			  .dims = { out, 1, 1, in }, .quantized = true,
			  .num_scales = out, .scales = scales,
			  .zero_points = zeros, .data = filter,
			  .data_size = (size_t)out * in },
			{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { out },
			  .quantized = true, .num_scales = out,
			  .scales = scales + out, .zero_points = zeros,
			  .data = bias, .data_size = (size_t)out * sizeof(*bias) },
			{ .type = OPVER_TYPE_INT8, .rank = 4,
			  .dims = { 1, side, side, out }, .quantized = true,
			  .num_scales = 1, .scales = out_scale,
			  .zero_points = out_zero },
		};
		const int32_t node_inputs[] = { 0, 1, 2 }, node_outputs[] = { 3 };
		const int32_t graph_inputs[] = { 0 }, graph_outputs[] = { 3 };
		const cf_operator_desc node = { 0, node_inputs, 3, node_outputs,
						1, &conv, NULL, 0 };
		const cf_model_desc desc = { tensors, 4, opcodes, 1, &node, 1,
					     graph_inputs, 1, graph_outputs, 1 };

		ok = cf_build_model(&desc, bytes, size, error, sizeof(error));
		if (!ok)
			fprintf(stderr, "vnni_peak: %s\n", error);
	}
out:
	free(filter);
	free(bias);
	free(scales);
	free(zeros);
	return ok;
}

/* The median seconds of `runs` invokes of one layer's model, and which
 * delegate ran its node (NULL for a kernel); negative on failure. */
static double time_layer(opver_runtime *runtime, const uint8_t *bytes,
			 size_t size, int runs, char *delegate,
			 size_t delegate_size)
{
	opver_interpreter_options options;
	opver_model *model = NULL;
	opver_interpreter *it = NULL;
	opver_node_info info;
	opver_tensor *input;
	double *times = malloc((size_t)runs * sizeof(*times)), median = -1.0;

	opver_interpreter_options_init(&options);
	options.threads = 1;
	if (times == NULL ||
	    opver_model_open_memory(runtime, bytes, size, &model) != OPVER_OK ||
	    opver_interpreter_create_with_options(runtime, model, &options,
						  &it) != OPVER_OK ||
	    opver_interpreter_node_info(it, 0, &info) != OPVER_OK)
		goto out;
	snprintf(delegate, delegate_size, "%s",
		 info.delegate != NULL ? info.delegate : "kernel");
	input = opver_interpreter_input(it, 0);
	for (size_t e = 0; e < input->bytes; e++)
		((uint8_t *)input->data)[e] = (uint8_t)(e * 37 + 11);
	for (int r = 0; r < 3; r++)
		if (opver_interpreter_invoke(it) != OPVER_OK)
			goto out;
	for (int r = 0; r < runs; r++) {
		double start = now_seconds();

		if (opver_interpreter_invoke(it) != OPVER_OK)
			goto out;
		times[r] = now_seconds() - start;
	}
	qsort(times, (size_t)runs, sizeof(*times), compare_doubles);
	median = times[runs / 2];
out:
	opver_interpreter_destroy(it);
	opver_model_close(model);
	free(times);
	return median;
}

int main(int argc, char **argv)
{
	opver_runtime_options options;
	opver_runtime *runtime;
	double peak, total_macs = 0.0, total_seconds = 0.0;
	int runs = argc > 2 ? atoi(argv[2]) : 200;

	if (argc < 2 || argc > 3 || runs < 1) {
		fprintf(stderr, "usage: vnni_peak CONFIG [RUNS]\n");
		return 2;
	}
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx512vnni")) {
		printf("this CPU has no AVX512-VNNI: no peak to compare with\n");
		return 0;
	}
	peak = vnni_peak();
	printf("VNNI peak, one core (VPDPBUSD on 16 accumulators): %.1f GMAC/s\n",
	       peak * 1e-9);
	opver_runtime_options_init(&options);
	options.config_path = argv[1];
	if (opver_runtime_create(&options, &runtime) != OPVER_OK)
		return 1;
	printf("MobileNetV2-224's 1x1 int8 convolutions through opver, one thread, median of %d invokes:\n",
	       runs);
	printf("  %-22s %5s %10s %9s %9s %7s  %s\n", "layer", "count", "MMAC",
	       "ms", "GMAC/s", "peak", "run by");
	for (size_t l = 0; l < sizeof(layers) / sizeof(layers[0]); l++) {
		double macs = (double)layers[l].side * layers[l].side *
			      layers[l].in * layers[l].out;
		char name[32], delegate[64];
		uint8_t *bytes;
		size_t size;
		double seconds;

		if (!build_layer(layers[l].side, layers[l].in, layers[l].out,
				 &bytes, &size))
			return 1;
		seconds = time_layer(runtime, bytes, size, runs, delegate,
				     sizeof(delegate));
		free(bytes);
		snprintf(name, sizeof(name), "%dx%dx%d -> %d",
			 (int)layers[l].side, (int)layers[l].side,
			 (int)layers[l].in, (int)layers[l].out);
		if (seconds <= 0.0) {
			printf("  %-22s failed\n", name);
			continue;
		}
		printf("  %-22s %5d %10.2f %9.4f %9.1f %6.1f%%  %s\n", name,
		       (int)layers[l].count, macs * 1e-6, seconds * 1e3,
		       macs / seconds * 1e-9, 100.0 * macs / seconds / peak,
		       delegate);
		total_macs += macs * layers[l].count;
		total_seconds += seconds * layers[l].count;
	}
	printf("  %-22s %5s %10.2f %9.4f %9.1f %6.1f%%\n", "all, weighted", "",
	       total_macs * 1e-6, total_seconds * 1e3,
	       total_macs / total_seconds * 1e-9,
	       100.0 * total_macs / total_seconds / peak);
	opver_runtime_destroy(runtime);
	return 0;
}
