/*
 * static_plugin.c - opver_runtime_add_plugin(): a plugin linked into the
 * program joins a runtime.  The loader checks its descriptor as it checks a
 * loaded plugin's (opver__plugin_load_static); this file checks the
 * arguments, keeps the new plugin record and rebuilds the registry, and
 * leaves the runtime as it was when any of that fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* The arguments of opver_runtime_add_plugin(), checked before anything is
 * called; reports what is wrong. */
static opver_status check_arguments(const opver_runtime *runtime,
				    opver_plugin_entry_fn entry,
				    const char *name,
				    const opver_option *options,
				    size_t num_options)
{
	const opver__reporter *reporter = &runtime->reporter;

	if (entry == NULL || name == NULL || name[0] == '\0') {
		opver__error(reporter,
			     "opver_runtime_add_plugin: %s is NULL%s, not loading",
			     entry == NULL ? "the entry point" : "the name",
			     entry == NULL || name == NULL ? "" : " or empty");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (num_options > UINT32_MAX || (num_options > 0 && options == NULL)) {
		opver__error(reporter,
			     "opver_runtime_add_plugin: plugin '%s' is given %zu options %s, not loading",
			     name, num_options,
			     options == NULL ? "but no options array" :
					       "(too many)");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (size_t i = 0; i < num_options; i++) {
		if (options[i].key == NULL || options[i].value == NULL) {
			opver__error(reporter,
				     "opver_runtime_add_plugin: plugin '%s' is given option #%zu with a NULL %s, not loading",
				     name, i,
				     options[i].key == NULL ? "key" : "value");
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
	}
	size_t interpreters = atomic_load(&runtime->num_interpreters);

	if (interpreters > 0) {
		opver__error(reporter,
			     "opver_runtime_add_plugin: plugin '%s' cannot join a runtime with %zu interpreters (they are bound to its registry): add plugins before creating interpreters, not loading",
			     name, interpreters);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (size_t p = 0; p < runtime->num_plugins; p++) {
		const opver__plugin *other = runtime->plugins[p];

		if (strcmp(other->config_name, name) == 0) {
			opver__error(reporter,
				     "opver_runtime_add_plugin: plugin '%s' has the name of a plugin already loaded (%s), not loading",
				     name, other->file);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
	}
	return OPVER_OK;
}

OPVER_API opver_status opver_runtime_add_plugin(opver_runtime *runtime,
						opver_plugin_entry_fn entry,
						const char *name,
						const opver_option *options,
						size_t num_options)
{
	opver__plugin **grown, *plugin = NULL;
	opver__registry registry;
	opver_status status;

	if (runtime == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	status = check_arguments(runtime, entry, name, options, num_options);
	if (status != OPVER_OK)
		return status;
	/* The registry keeps its own list of plugins: moving this one
	 * leaves it intact, and the plugin records themselves never move. */
	grown = realloc(runtime->plugins,
			(runtime->num_plugins + 1) * sizeof(*grown));
	if (grown == NULL)
		goto out_of_memory;
	runtime->plugins = grown;
	plugin = malloc(sizeof(*plugin));
	if (plugin == NULL)
		goto out_of_memory;
	status = opver__plugin_load_static(entry, name, options, num_options,
					   &runtime->reporter, plugin);
	if (status != OPVER_OK)
		goto out;
	runtime->plugins[runtime->num_plugins] = plugin;
	status = opver__registry_build(runtime->plugins,
				       runtime->num_plugins + 1,
				       &runtime->reporter, &registry);
	if (status != OPVER_OK) {
		opver__plugin_unload(plugin);
		goto out_of_memory;
	}
	opver__registry_free(&runtime->registry);
	runtime->registry = registry;
	runtime->num_plugins++;
	return OPVER_OK;
out_of_memory:
	status = OPVER_ERROR_NOMEM;
	opver__error(&runtime->reporter,
		     "out of memory while adding plugin '%s'", name);
out:
	free(plugin);
	return status;
}
