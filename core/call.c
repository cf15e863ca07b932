/* call.c - the records behind plugin contexts, and what messages about a
 * call start with. */
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "kernel_match.h"

void opver__call_init(opver__call *call, opver__call_kind kind,
		      const opver__reporter *reporter, const char *plugin,
		      const char *runner, void *plugin_data)
{
	memset(call, 0, sizeof(*call));
	call->context.struct_size = sizeof(call->context);
	call->context.host = &opver__host_services;
	call->context.plugin_data = plugin_data;
	call->kind = kind;
	call->reporter = reporter;
	call->plugin = plugin;
	call->runner = runner;
	call->node_index = -1;
	call->partition_index = -1;
	call->step = -1;
}

void opver__call_describe(const opver__call *call, char *buffer, size_t size)
{
	switch (call->kind) {
	case OPVER__CALL_PLUGIN:
		snprintf(buffer, size, "plugin '%s'", call->plugin);
		break;
	case OPVER__CALL_KERNEL:
		snprintf(buffer, size, "kernel '%s' of plugin '%s'",
			 call->runner, call->plugin);
		break;
	case OPVER__CALL_NODE:
		snprintf(buffer, size, "node %d (%s v%d, kernel '%s' of plugin '%s')",
			 call->node_index, opver__node_label(call->node),
			 call->node->version, call->runner, call->plugin);
		break;
	case OPVER__CALL_PARTITION:
		snprintf(buffer, size,
			 "partition %d (from node %d) of delegate '%s' of plugin '%s'",
			 call->partition_index, call->node_index, call->runner,
			 call->plugin);
		break;
	}
}

opver_status opver__call_failed(const opver__call *call, const char *callback,
				opver_status status)
{
	char who[320];

	opver__call_describe(call, who, sizeof(who));
	opver__error(call->reporter, "%s: %s failed (%s)", who, callback,
		     opver_status_name(status));
	return OPVER_ERROR_PLUGIN;
}

opver_status opver__call_prepare_failed(const opver__call *call,
					opver_status status)
{
	char who[320];

	if (status != OPVER_ERROR_INVALID_MODEL)
		return opver__call_failed(call, "prepare", status);
	opver__call_describe(call, who, sizeof(who));
	opver__error(call->reporter, "%s: prepare rejected the model as invalid",
		     who);
	return OPVER_ERROR_MODEL_REJECTED;
}
