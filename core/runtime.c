/* runtime.c - opver_runtime: config, plugin loading and the registry, and
 * the introspection the host API offers over them. */
#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "runtime.h"
#include "sized.h"

OPVER_API void opver_runtime_options_init_sized(opver_runtime_options *options,
						size_t size)
{
	opver_runtime_options defaults = {
		.struct_size = sizeof(defaults),
		.log_level = -1,
	};

	opver__copy_sized(options, &defaults, size, sizeof(defaults));
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
		opver__plugin *plugin = malloc(sizeof(*plugin));

		status = plugin == NULL ? OPVER_ERROR_NOMEM :
			 opver__plugin_load(sources[i].path,
					    sources[i].config_name,
					    sources[i].config,
					    &runtime->reporter, plugin);
		if (status == OPVER_OK) {
			runtime->plugins[runtime->num_plugins++] = plugin;
			continue;
		}
		free(plugin);
		if (status == OPVER_ERROR_NOMEM)
			break;
		status = OPVER_OK;
	}
	opver__plugin_sources_free(sources, count);
	return status;
}

OPVER_API opver_status opver_runtime_create(const opver_runtime_options *given,
					    opver_runtime **out)
{
	opver_runtime_options read, *options = &read;
	opver_runtime *runtime;
	opver_status status;

	*out = NULL;
	/* Fields past the caller's struct_size keep their defaults. */
	opver_runtime_options_init(&read);
	if (given != NULL)
		opver__read_sized(&read, sizeof(read), given,
				  given->struct_size);
	runtime = calloc(1, sizeof(*runtime));
	if (runtime == NULL)
		return OPVER_ERROR_NOMEM;
	runtime->reporter.log = options->log;
	runtime->reporter.log_user_data = options->log_user_data;
	/* Until the config says otherwise: errors and warnings. */
	runtime->reporter.level = options->log_level >= 0 ?
		(opver_log_level)options->log_level : OPVER_LOG_WARNING;

	if (options->config_path != NULL && options->config_text != NULL) {
		opver__error(&runtime->reporter, "opver_runtime_create: options set both config_path ('%s') and config_text; set one",
			     options->config_path);
		status = OPVER_ERROR_INVALID_ARGUMENT;
	} else if (options->config_path != NULL) {
		status = opver__config_read(options->config_path,
					    &runtime->reporter,
					    &runtime->config);
	} else if (options->config_text != NULL) {
		status = opver__config_read_text(options->config_text,
						 options->config_text_size,
						 &runtime->reporter,
						 &runtime->config);
	} else {
		status = opver__config_default(OPVER_CONFIG_FILE,
					       OPVER_PLUGIN_DIR,
					       OPVER_FRAGMENT_DIR,
					       &runtime->reporter,
					       &runtime->config);
	}
	if (status != OPVER_OK)
		goto fail;
	if (options->log_level < 0)
		runtime->reporter.level = runtime->config.log_level;
	runtime->strict = options->strict || runtime->config.strict;
	runtime->strict_versions = options->strict_versions ||
				   runtime->config.strict_versions;
	runtime->threads = options->threads > 0 ? options->threads :
						  runtime->config.threads;

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
	for (size_t i = runtime->num_plugins; i-- > 0;) {
		opver__plugin_unload(runtime->plugins[i]);
		free(runtime->plugins[i]);
	}
	free(runtime->plugins);
	opver__config_free(&runtime->config);
	free(runtime);
}

OPVER_API size_t opver_runtime_plugin_count(const opver_runtime *runtime)
{
	return runtime->num_plugins;
}

/* The union of signatures' masks: what any of them accepts. */
static void union_of_signatures(const opver_type_signature *signatures,
				uint32_t count, uint32_t *inputs,
				uint32_t *output)
{
	for (uint32_t s = 0; s < count; s++) {
		for (int i = 0; i < OPVER_SIGNATURE_INPUTS; i++)
			inputs[i] |= signatures[s].inputs[i];
		*output |= signatures[s].output;
	}
}

OPVER_API opver_status opver_runtime_plugin_info_sized(
	const opver_runtime *runtime, size_t index, opver_plugin_info *out,
	size_t size)
{
	opver_plugin_info info = { .struct_size = sizeof(info) };
	const opver__plugin *plugin;

	if (index >= runtime->num_plugins || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = runtime->plugins[index];
	info.file = plugin->file;
	info.config_name = plugin->config_name;
	info.name = plugin->descriptor.name;
	info.vendor = plugin->descriptor.vendor;
	info.version = plugin->descriptor.version;
	info.abi_major = plugin->descriptor.abi_major;
	info.abi_minor = plugin->descriptor.abi_minor;
	info.min_abi_minor = plugin->descriptor.min_abi_minor;
	info.num_kernels = plugin->descriptor.num_kernels;
	if (plugin->has_delegate) {
		info.delegate_name = plugin->delegate.name;
		info.num_delegate_ops = plugin->delegate.num_ops;
	}
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_kernel_info_sized(
	const opver_runtime *runtime, size_t plugin_index, size_t kernel_index,
	opver_kernel_info *out, size_t size)
{
	opver_kernel_info info = { .struct_size = sizeof(info) };
	const opver__plugin *plugin;
	const opver_kernel *kernel;

	if (plugin_index >= runtime->num_plugins || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = runtime->plugins[plugin_index];
	if (kernel_index >= plugin->descriptor.num_kernels)
		return OPVER_ERROR_INVALID_ARGUMENT;
	kernel = &plugin->kernels[kernel_index];
	info.name = kernel->name;
	info.op = kernel->op;
	info.custom_name = kernel->custom_name;
	info.min_version = kernel->min_version;
	info.max_version = kernel->max_version;
	info.priority = opver__effective_priority(plugin, kernel);
	info.stateless = (kernel->flags & OPVER_KERNEL_STATELESS) != 0;
	union_of_signatures(kernel->signatures, kernel->num_signatures,
			    info.input_types, &info.output_types);
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_plugin_option(
	const opver_runtime *runtime, size_t plugin_index, size_t option,
	const char **key, const char **value)
{
	const opver__plugin_config *section;

	if (plugin_index >= runtime->num_plugins)
		return OPVER_ERROR_INVALID_ARGUMENT;
	section = runtime->plugins[plugin_index]->section;
	if (section == NULL || option >= section->num_options)
		return OPVER_ERROR_INVALID_ARGUMENT;
	*key = section->options[option].key;
	*value = section->options[option].value;
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_delegate_op_info_sized(
	const opver_runtime *runtime, size_t plugin_index, size_t op_index,
	opver_delegate_op_info *out, size_t size)
{
	opver_delegate_op_info info = { .struct_size = sizeof(info) };
	const opver__plugin *plugin;
	const opver_delegate_op *op;

	if (plugin_index >= runtime->num_plugins || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	plugin = runtime->plugins[plugin_index];
	if (!plugin->has_delegate || op_index >= plugin->delegate.num_ops)
		return OPVER_ERROR_INVALID_ARGUMENT;
	op = &plugin->delegate_ops[op_index];
	info.op = op->op;
	info.custom_name = op->custom_name;
	info.min_version = op->min_version;
	info.max_version = op->max_version;
	union_of_signatures(op->signatures, op->num_signatures,
			    info.input_types, &info.output_types);
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}
