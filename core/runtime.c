/* runtime.c - opver_runtime: config, plugin loading and the registry, and
 * the introspection the host API offers over them. */
#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "runtime.h"

OPVER_API void opver_runtime_options_init(opver_runtime_options *options)
{
	memset(options, 0, sizeof(*options));
	options->struct_size = sizeof(*options);
	options->log_level = -1;
}

/* Loads every discovered plugin; one that fails is reported by the loader
 * and skipped. */
static opver_status load_plugins(opver_runtime *runtime)
{
	opver__plugin_source *sources;
	size_t count;
	opver_status status;

	status = opver__discover_plugins(&runtime->config, &runtime->reporter,
					 &sources, &count);
	if (status != OPVER_OK)
		return status;
	runtime->plugins = calloc(count ? count : 1, sizeof(*runtime->plugins));
	if (runtime->plugins == NULL) {
		opver__plugin_sources_free(sources, count);
		return OPVER_ERROR_NOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		opver__plugin *plugin = &runtime->plugins[runtime->num_plugins];

		status = opver__plugin_load(sources[i].path,
					    sources[i].config_name,
					    sources[i].config,
					    &runtime->host.services,
					    &runtime->reporter, plugin);
		if (status == OPVER_ERROR_NOMEM)
			break;
		if (status == OPVER_OK)
			runtime->num_plugins++;
		status = OPVER_OK;
	}
	opver__plugin_sources_free(sources, count);
	return status;
}

OPVER_API opver_status opver_runtime_create(const opver_runtime_options *options,
					    opver_runtime **out)
{
	opver_runtime_options defaults;
	opver_runtime *runtime;
	opver_status status;

	*out = NULL;
	if (options == NULL) {
		opver_runtime_options_init(&defaults);
		options = &defaults;
	}
	runtime = calloc(1, sizeof(*runtime));
	if (runtime == NULL)
		return OPVER_ERROR_NOMEM;
	runtime->reporter.log = options->log;
	runtime->reporter.log_user_data = options->log_user_data;
	/* Until the config says otherwise: errors and warnings. */
	runtime->reporter.level = options->log_level >= 0 ?
		(opver_log_level)options->log_level : OPVER_LOG_WARNING;
	opver__host_init(&runtime->host, &runtime->reporter);

	if (options->config_path != NULL)
		status = opver__config_read(options->config_path,
					    &runtime->reporter,
					    &runtime->config);
	else
		status = opver__config_default(OPVER_CONFIG_FILE,
					       OPVER_PLUGIN_DIR,
					       OPVER_FRAGMENT_DIR,
					       &runtime->reporter,
					       &runtime->config);
	if (status != OPVER_OK)
		goto fail;
	if (options->log_level < 0)
		runtime->reporter.level = runtime->config.log_level;
	runtime->strict = options->strict || runtime->config.strict;
	runtime->strict_versions = options->strict_versions ||
				   runtime->config.strict_versions;

	status = load_plugins(runtime);
	if (status != OPVER_OK)
		goto fail;
	status = opver__registry_build(runtime->plugins, runtime->num_plugins,
				       &runtime->reporter, &runtime->registry);
	if (status != OPVER_OK)
		goto fail;
	*out = runtime;
	return OPVER_OK;
fail:
	if (status == OPVER_ERROR_NOMEM)
		opver__error(&runtime->reporter, "out of memory while starting the runtime");
	opver_runtime_destroy(runtime);
	return status;
}

OPVER_API void opver_runtime_destroy(opver_runtime *runtime)
{
	if (runtime == NULL)
		return;
	opver__registry_free(&runtime->registry);
	/* Unload in reverse load order, as constructors/destructors pair. */
	for (size_t i = runtime->num_plugins; i-- > 0;)
		opver__plugin_unload(&runtime->plugins[i],
				     &runtime->host.services);
	free(runtime->plugins);
	opver__config_free(&runtime->config);
	free(runtime);
}

OPVER_API size_t opver_runtime_plugin_count(const opver_runtime *runtime)
{
	return runtime->num_plugins;
}

OPVER_API opver_status opver_runtime_plugin_info(const opver_runtime *runtime,
						 size_t index,
						 opver_plugin_info *info)
{
	const opver__plugin *plugin;

	if (index >= runtime->num_plugins)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = &runtime->plugins[index];
	memset(info, 0, sizeof(*info));
	info->file = plugin->file;
	info->config_name = plugin->config_name;
	info->name = plugin->descriptor.name;
	info->vendor = plugin->descriptor.vendor;
	info->version = plugin->descriptor.version;
	info->abi_major = plugin->descriptor.abi_major;
	info->abi_minor = plugin->descriptor.abi_minor;
	info->num_kernels = plugin->descriptor.num_kernels;
	if (plugin->has_delegate) {
		info->delegate_name = plugin->delegate.name;
		info->num_delegate_ops = plugin->delegate.num_ops;
	}
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_kernel_info(const opver_runtime *runtime,
						 size_t plugin_index,
						 size_t kernel_index,
						 opver_kernel_info *info)
{
	const opver__plugin *plugin;
	const opver_kernel *kernel;

	if (plugin_index >= runtime->num_plugins)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = &runtime->plugins[plugin_index];
	if (kernel_index >= plugin->descriptor.num_kernels)
		return OPVER_ERROR_INVALID_ARGUMENT;
	kernel = &plugin->kernels[kernel_index];
	memset(info, 0, sizeof(*info));
	info->name = kernel->name;
	info->op = kernel->op;
	info->custom_name = kernel->custom_name;
	info->min_version = kernel->min_version;
	info->max_version = kernel->max_version;
	info->priority = opver__effective_priority(plugin, kernel);
	info->stateless = (kernel->flags & OPVER_KERNEL_STATELESS) != 0;
	/* The union of the signatures: what any of them accepts. */
	for (uint32_t s = 0; s < kernel->num_signatures; s++) {
		for (int i = 0; i < OPVER_SIGNATURE_INPUTS; i++)
			info->input_types[i] |= kernel->signatures[s].inputs[i];
		info->output_types |= kernel->signatures[s].output;
	}
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_delegate_op_info(const opver_runtime *runtime,
						      size_t plugin_index,
						      size_t op_index,
						      opver_delegate_op_info *info)
{
	const opver__plugin *plugin;

	if (plugin_index >= runtime->num_plugins)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = &runtime->plugins[plugin_index];
	if (!plugin->has_delegate || op_index >= plugin->delegate.num_ops)
		return OPVER_ERROR_INVALID_ARGUMENT;
	info->op = plugin->delegate.ops[op_index].op;
	info->custom_name = plugin->delegate.ops[op_index].custom_name;
	info->max_version = plugin->delegate.ops[op_index].max_version;
	return OPVER_OK;
}
