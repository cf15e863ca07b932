/*
 * fuzz_runtime.c - the fuzz targets' shared runtime (fuzz_runtime.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_runtime.h"

static void drop_message(void *user_data, opver_log_level level,
			 const char *message)
{
	(void)user_data;
	(void)level;
	(void)message;
}

opver_runtime *fuzz_runtime(opver_plugin_entry_fn entry)
{
	static const char config[] = "# fuzzing: plugins are registered statically\n";
	static opver_runtime *runtime;
	opver_runtime_options options;

	if (runtime != NULL)
		return runtime;
	opver_runtime_options_init(&options);
	options.log = drop_message;
	options.config_text = config;
	options.config_text_size = sizeof(config) - 1;
	if (opver_runtime_create(&options, &runtime) != OPVER_OK ||
	    (entry != NULL && opver_runtime_add_plugin(runtime, entry,
							"reference", NULL,
							0) != OPVER_OK)) {
		fprintf(stderr, "fuzz: cannot set up the runtime\n");
		abort();
	}
	return runtime;
}
