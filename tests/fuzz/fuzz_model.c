/*
 * fuzz_model.c - libFuzzer target: the model reader alone.  Every input
 * is opened as a model from memory (verification, decoding, parameter
 * structs, op-version rules) by a runtime without plugins, then closed.
 * Any crash, sanitizer report or leak is a finding.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_runtime.h"
#include "fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	opver_runtime *runtime = fuzz_runtime(NULL);
	opver_model *model = NULL;

	if (opver_model_open_memory(runtime, data, size, &model) == OPVER_OK)
		opver_model_close(model);
	return 0;
}
