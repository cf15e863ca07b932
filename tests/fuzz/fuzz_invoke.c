/*
 * fuzz_invoke.c - libFuzzer target: reader, resolver, planner, every
 * kernel's prepare and invoke, with the reference plugin linked in and
 * registered statically.  A model that opens and binds is run
 * FUZZ_INVOKES times, so that what lives from one invoke to the next
 * (buffers of tensors shaped at invoke, nodes prepared at every invoke,
 * variables) is fuzzed too: first on inputs filled from a fixed pattern,
 * then on small values (shapes, multiples, indices, axes) drawn from the
 * model's own bytes, different at each invoke.  The input is the model
 * alone, so the corpus is model files.  The arena is capped so that a
 * model asking for more is refused rather than taken, and a model whose
 * multiplications would take minutes is prepared but not run.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_runtime.h"
#include "fuzz_target.h"

/* Twice what any seed model needs (test models, corpus models under
 * 64 KiB: at most 8 MiB), and small enough that FUZZ_INVOKES invokes
 * filling it element by element under ASan stay within the run's
 * per-input timeout (tests/fuzz/run). */
#define FUZZ_MAX_ARENA (16u << 20)
/* Passes of one WHILE per invoke. */
#define FUZZ_MAX_LOOP_ITERATIONS 1000
/* Invokes per model: the fixed pattern, then two of small values. */
#define FUZZ_INVOKES 3
/* Multiply-accumulates of one invoke past which a model is opened and
 * prepared but not run: a few seconds of the reference kernels under
 * ASan.  A small file can ask for hours of work within the arena cap (a
 * convolution whose filter is its 256 KiB input: 7e10 MACs); that is
 * slow, not a memory error, and TFLite has no bound on it either. */
#define FUZZ_MAX_MACS 2e8

/* Ops whose work is each output element times a row of their largest
 * input (a filter or weight matrix per output channel). */
static bool multiplies(int32_t op)
{
	switch (op) {
	case OPVER_OP_CONV_2D:
	case OPVER_OP_CONV_3D:
	case OPVER_OP_CONV_3D_TRANSPOSE:
	case OPVER_OP_DEPTHWISE_CONV_2D:
	case OPVER_OP_TRANSPOSE_CONV:
	case OPVER_OP_FULLY_CONNECTED:
	case OPVER_OP_BATCH_MATMUL:
	case OPVER_OP_SVDF:
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN:
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM:
		return true;
	default:
		return false;
	}
}

/* An upper estimate of one invoke's multiply-accumulates: for each node
 * that multiplies, its output's elements times its largest input's
 * elements per output channel (the output's last dimension). */
static double estimated_macs(const opver_interpreter *it)
{
	double macs = 0;

	for (size_t n = 0; n < opver_interpreter_node_count(it); n++) {
		opver_node_info info;
		const int32_t *inputs, *outputs;
		int32_t num_inputs, num_outputs;
		const opver_tensor *out;
		double largest = 0;

		if (opver_interpreter_node_info(it, n, &info) != OPVER_OK ||
		    !multiplies(info.op) ||
		    opver_interpreter_node_tensors(it, n, &inputs, &num_inputs,
						   &outputs,
						   &num_outputs) != OPVER_OK ||
		    num_outputs < 1)
			continue;
		out = opver_interpreter_tensor(it, (size_t)outputs[0]);
		if (out == NULL || out->rank < 1 || out->dims[out->rank - 1] < 1)
			continue;
		for (int32_t i = 0; i < num_inputs; i++) {
			const opver_tensor *in = inputs[i] < 0 ? NULL :
				opver_interpreter_tensor(it, (size_t)inputs[i]);

			if (in != NULL &&
			    (double)opver_tensor_elements(in) > largest)
				largest = (double)opver_tensor_elements(in);
		}
		macs += (double)opver_tensor_elements(out) * largest /
			(double)out->dims[out->rank - 1];
	}
	return macs;
}

/* Small values of every sign, whatever the type. */
static void fill_pattern(opver_tensor *t, size_t i)
{
	uint8_t *bytes = t->data;

	for (size_t b = 0; b < t->bytes; b++)
		bytes[b] = (uint8_t)(b * 37 + i);
}

/* Element e of `t` gets `value` (-1 to 4): integers and floats as that
 * number, other types as that byte in each byte. */
static void set_small(opver_tensor *t, size_t e, int value)
{
	switch (t->type) {
	case OPVER_TYPE_INT32:
		((int32_t *)t->data)[e] = value;
		break;
	case OPVER_TYPE_INT64:
		((int64_t *)t->data)[e] = value;
		break;
	case OPVER_TYPE_FLOAT32:
		((float *)t->data)[e] = (float)value;
		break;
	default:
		((uint8_t *)t->data)[e] = (uint8_t)value;
		break;
	}
}

/* Elements of `t` set_small() addresses: by element for 4- and 8-byte
 * integers and floats, by byte otherwise. */
static size_t small_count(const opver_tensor *t)
{
	switch (t->type) {
	case OPVER_TYPE_INT32:
	case OPVER_TYPE_FLOAT32:
		return t->bytes / 4;
	case OPVER_TYPE_INT64:
		return t->bytes / 8;
	default:
		return t->bytes;
	}
}

/* Invoke `pass`'s inputs: the fixed pattern first, then values from -1
 * to 4 read from the model's bytes at a place that moves each pass. */
static void fill_inputs(opver_interpreter *it, int pass, const uint8_t *data,
			size_t size)
{
	for (size_t i = 0; i < opver_interpreter_input_count(it); i++) {
		opver_tensor *t = opver_interpreter_input(it, i);

		if (t->data == NULL)
			continue;
		if (pass == 0) {
			fill_pattern(t, i);
			continue;
		}
		for (size_t e = 0; e < small_count(t); e++) {
			size_t at = (e * 7 + i * 13 + (size_t)pass * 101) % size;

			set_small(t, e, (int)(data[at] % 6) - 1);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	opver_runtime *runtime = fuzz_runtime(opver_plugin_negotiate);
	opver_interpreter_options options;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;

	if (opver_model_open_memory(runtime, data, size, &model) != OPVER_OK)
		return 0;
	opver_interpreter_options_init(&options);
	options.max_arena_bytes = FUZZ_MAX_ARENA;
	/* A hostile WHILE may loop forever, as TFLite's would. */
	options.max_loop_iterations = FUZZ_MAX_LOOP_ITERATIONS;
	if (opver_interpreter_create_with_options(runtime, model, &options,
						  &it) == OPVER_OK) {
		/* A failed invoke leaves the interpreter to run again. */
		for (int pass = 0;
		     pass < FUZZ_INVOKES && estimated_macs(it) <= FUZZ_MAX_MACS;
		     pass++) {
			fill_inputs(it, pass, data, size);
			(void)opver_interpreter_invoke(it);
		}
		opver_interpreter_destroy(it);
	}
	opver_model_close(model);
	return 0;
}
