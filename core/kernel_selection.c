/* kernel_selection.c - keeping only the kernels a config section names. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_selection.h"

static bool named(const opver__plugin_config *config, const char *name)
{
	for (size_t i = 0; i < config->num_kernels; i++)
		if (strcmp(config->kernels[i], name) == 0)
			return true;
	return false;
}

static bool has_kernel(const opver__plugin *plugin, const char *name)
{
	for (uint32_t k = 0; k < plugin->descriptor.num_kernels; k++)
		if (strcmp(plugin->kernels[k].name, name) == 0)
			return true;
	return false;
}

opver_status opver__select_kernels(opver__plugin *plugin,
				   const opver__plugin_config *config,
				   const opver__reporter *reporter)
{
	int length = snprintf(NULL, 0, "%s:%d", config->file,
			      config->kernels_line);
	uint32_t kept = 0;

	plugin->kernels_chosen_at = malloc((size_t)length + 1);
	if (plugin->kernels_chosen_at == NULL)
		return OPVER_ERROR_NOMEM;
	snprintf(plugin->kernels_chosen_at, (size_t)length + 1, "%s:%d",
		 config->file, config->kernels_line);
	for (size_t i = 0; i < config->num_kernels; i++)
		if (!has_kernel(plugin, config->kernels[i]))
			opver__warning(reporter,
				       "%s: [plugin.%s] kernels names '%s', which plugin '%s' does not have (opver-run --list-plugins lists its kernels under a config without kernels =)",
				       plugin->kernels_chosen_at, config->name,
				       config->kernels[i], plugin->file);
	for (uint32_t k = 0; k < plugin->descriptor.num_kernels; k++)
		if (named(config, plugin->kernels[k].name))
			plugin->kernels[kept++] = plugin->kernels[k];
	opver__info(reporter, "plugin '%s': %u of its %u kernels selected by %s",
		    plugin->config_name, kept, plugin->descriptor.num_kernels,
		    plugin->kernels_chosen_at);
	plugin->descriptor.num_kernels = kept;
	return OPVER_OK;
}
