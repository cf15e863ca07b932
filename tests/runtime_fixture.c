/* runtime_fixture.c - runtimes, models and plugin counters for tests. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime_fixture.h"

opver_runtime *fixture_runtime(const char *config_text, messages *captured)
{
	char path[] = "/tmp/opver-test-XXXXXX.ini";
	opver_runtime_options options;
	opver_runtime *runtime;
	int fd = mkstemps(path, 4);
	FILE *file;

	cr_assert_geq(fd, 0);
	file = fdopen(fd, "w");
	cr_assert_not_null(file);
	fputs(config_text, file);
	fclose(file);
	opver_runtime_options_init(&options);
	options.config_path = path;
	options.log = messages_log;
	options.log_user_data = captured;
	options.log_level = OPVER_LOG_DEBUG;
	cr_assert_eq(opver_runtime_create(&options, &runtime), OPVER_OK,
		     "runtime: %s", captured->text);
	unlink(path);
	return runtime;
}

opver_model *fixture_model(opver_runtime *runtime, const char *name)
{
	char path[512];
	opver_model *model;

	snprintf(path, sizeof(path), "%s/%s.tflite", TEST_MODEL_DIR, name);
	cr_assert_eq(opver_model_open(runtime, path, &model), OPVER_OK,
		     "cannot open %s", path);
	return model;
}

void *fixture_symbol(const char *plugin_name, const char *symbol)
{
	char path[512];
	void *handle, *address;

	snprintf(path, sizeof(path), "%s/%s.so", TEST_PLUGIN_DIR, plugin_name);
	/* The runtime holds it open; this only finds it. */
	handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	cr_assert_not_null(handle, "%s is not loaded", path);
	address = dlsym(handle, symbol);
	cr_assert_not_null(address, "%s has no %s", path, symbol);
	dlclose(handle);
	return address;
}

test_counters *fixture_stats(const char *plugin_name)
{
	return fixture_symbol(plugin_name, TEST_STATS_SYMBOL);
}
