/*
 * good.c - a valid plugin: two kernels of one op and version range that
 * take different tensor types (not an overlap), a custom-op kernel with
 * init/free, and a plugin init that logs every option it is given and fails
 * when the option fail_init is "true".  Its fini logs "fini", so a test sees
 * it called.
 */
#include <string.h>

#include "common.h"

static opver_status custom_init(const opver_host *host, void *plugin_data,
				void **kernel_data)
{
	(void)host;
	*kernel_data = plugin_data;
	return OPVER_OK;
}

static void custom_free(const opver_host *host, void *kernel_data)
{
	(void)host;
	(void)kernel_data;
}

static const opver_type_signature float_types = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		    OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
};
static const opver_type_signature int8_types = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		    OPVER_TYPE_BIT(OPVER_TYPE_INT8) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
};

static const opver_kernel fc_float = {
	TEST_KERNEL("fc_float", OPVER_OP_FULLY_CONNECTED, 1, 3),
	TEST_CALLBACKS,
	.signatures = &float_types,
	.num_signatures = 1,
	.priority = 10,
};
static const opver_kernel fc_int8 = {
	TEST_KERNEL("fc_int8", OPVER_OP_FULLY_CONNECTED, 1, 3),
	TEST_CALLBACKS,
	.signatures = &int8_types,
	.num_signatures = 1,
};
static const opver_kernel custom = {
	TEST_KERNEL("my_custom", OPVER_OP_CUSTOM, 1, 1),
	TEST_CALLBACKS,
	.custom_name = "MyCustomOp",
	.init = custom_init,
	.free = custom_free,
};
static const opver_kernel *const kernels[] = { &fc_float, &fc_int8, &custom };

static opver_status good_init(const opver_host *host,
			      const opver_option *options, size_t num_options,
			      void **plugin_data)
{
	host->log(host, OPVER_LOG_INFO, "init with %zu options", num_options);
	for (size_t i = 0; i < num_options; i++) {
		host->log(host, OPVER_LOG_INFO, "option %s=%s", options[i].key,
			  options[i].value);
		if (strcmp(options[i].key, "fail_init") == 0 &&
		    strcmp(options[i].value, "true") == 0) {
			host->report_error(host, "fail_init is set");
			return OPVER_ERROR;
		}
	}
	*plugin_data = host->allocate(host, 16);
	return *plugin_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static void good_fini(const opver_host *host, void *plugin_data)
{
	host->log(host, OPVER_LOG_INFO, "fini");
	host->free_memory(host, plugin_data);
}

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "good",
	.vendor = "opver tests",
	.version = "1.0",
	.init = good_init,
	.fini = good_fini,
	TEST_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
