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
 * model asking for more is refused rather than taken.
 */
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
		for (int pass = 0; pass < FUZZ_INVOKES; pass++) {
			fill_inputs(it, pass, data, size);
			(void)opver_interpreter_invoke(it);
		}
		opver_interpreter_destroy(it);
	}
	opver_model_close(model);
	return 0;
}
