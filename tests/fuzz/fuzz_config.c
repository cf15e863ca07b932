/*
 * fuzz_config.c - libFuzzer target: the config parser, from memory.  Every
 * input is a runtime's config text; the runtime is created (parsing,
 * fragments, plugin sections) and destroyed.  Messages are dropped.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_target.h"
#include "opver/opver.h"

static void drop_message(void *user_data, opver_log_level level,
			 const char *message)
{
	(void)user_data;
	(void)level;
	(void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	opver_runtime_options options;
	opver_runtime *runtime = NULL;

	/* Empty text is no config at all: the installed one would be read. */
	if (size == 0)
		return 0;
	opver_runtime_options_init(&options);
	options.log = drop_message;
	options.config_text = (const char *)data;
	options.config_text_size = size;
	if (opver_runtime_create(&options, &runtime) == OPVER_OK)
		opver_runtime_destroy(runtime);
	return 0;
}
