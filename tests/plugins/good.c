/*
 * good.c - a valid plugin: two kernels of one op and version range that
 * take different tensor types (not an overlap), a custom-op kernel with
 * init/free, and a plugin init that logs every option it is given and fails
 * when the option fail_init is "true".  Its fini logs "fini", so a test sees
 * it called.
 */
#include <string.h>

#include "common.h"

/* The kernel object is the plugin's data, which fini frees. */
static opver_status custom_init(const opver_context *ctx, void **kernel_data)
{
	*kernel_data = ctx->plugin_data;
	return OPVER_OK;
}

static void custom_free(const opver_context *ctx, void *kernel_data)
{
	(void)ctx;
	(void)kernel_data;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};
static const opver_type_signature int8_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8)),
			OPVER_OUTPUT(OPVER_T(INT8))),
};

static const opver_kernel fc_float = {
	OPVER_KERNEL("fc_float", FULLY_CONNECTED, 1, 3),
	OPVER_KERNEL_SIGNATURES(float_types),
	.priority = 10,
	TEST_CALLBACKS,
};
static const opver_kernel fc_int8 = {
	OPVER_KERNEL("fc_int8", FULLY_CONNECTED, 1, 3),
	OPVER_KERNEL_SIGNATURES(int8_types),
	TEST_CALLBACKS,
};
static const opver_kernel custom = {
	OPVER_CUSTOM_KERNEL("my_custom", "MyCustomOp", 1, 1),
	.init = custom_init,
	.free = custom_free,
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &fc_float, &fc_int8, &custom };

static opver_status good_init(const opver_context *ctx,
			      const opver_option *options,
			      uint32_t num_options, void **plugin_data)
{
	OPVER_LOG(ctx, OPVER_LOG_INFO, "init with %u options",
		  (unsigned)num_options);
	for (uint32_t i = 0; i < num_options; i++) {
		OPVER_LOG(ctx, OPVER_LOG_INFO, "option %s=%s", options[i].key,
			  options[i].value);
		if (strcmp(options[i].key, "fail_init") == 0 &&
		    strcmp(options[i].value, "true") == 0) {
			OPVER_REPORT(ctx, "fail_init is set");
			return OPVER_ERROR;
		}
	}
	*plugin_data = ctx->host->allocate(ctx, 16);
	return *plugin_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static void good_fini(const opver_context *ctx, void *plugin_data)
{
	OPVER_LOG(ctx, OPVER_LOG_INFO, "fini");
	ctx->host->free_memory(ctx, plugin_data);
}

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "good",
	.vendor = "opver tests",
	.version = "1.0",
	.init = good_init,
	.fini = good_fini,
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
