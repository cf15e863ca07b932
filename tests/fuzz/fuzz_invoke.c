/*
 * fuzz_invoke.c - libFuzzer target: reader, resolver, planner, every
 * kernel's prepare and invoke, with the reference plugin linked in and
 * registered statically.  A model that opens and binds is run once on
 * inputs filled from a fixed pattern; the arena is capped so that a model
 * asking for gigabytes is refused rather than taken.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_runtime.h"
#include "fuzz_target.h"

/* Large enough for every test model, small enough for ASan's limits. */
#define FUZZ_MAX_ARENA (64u << 20)
/* Passes of one WHILE per invoke. */
#define FUZZ_MAX_LOOP_ITERATIONS 1000

static void fill_inputs(opver_interpreter *it)
{
	for (size_t i = 0; i < opver_interpreter_input_count(it); i++) {
		opver_tensor *t = opver_interpreter_input(it, i);
		uint8_t *bytes = t->data;

		/* Small values of every sign, whatever the type. */
		for (size_t b = 0; b < t->bytes; b++)
			bytes[b] = (uint8_t)(b * 37 + i);
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
		fill_inputs(it);
		(void)opver_interpreter_invoke(it);
		opver_interpreter_destroy(it);
	}
	opver_model_close(model);
	return 0;
}
