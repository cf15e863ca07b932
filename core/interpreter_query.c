/* interpreter_query.c - what an opver_interpreter answers about its
 * inputs, outputs, tensors, nodes, profile and memory. */
#include "interpreter_state.h"
#include "sized.h"

OPVER_API size_t opver_interpreter_input_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_inputs;
}

OPVER_API size_t opver_interpreter_output_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_outputs;
}

OPVER_API opver_tensor *opver_interpreter_input(opver_interpreter *it,
						size_t index)
{
	if (index >= (size_t)it->graph->num_inputs)
		return NULL;
	return &it->tensors[it->graph->inputs[index]];
}

OPVER_API const opver_tensor *opver_interpreter_output(const opver_interpreter *it,
						       size_t index)
{
	if (index >= (size_t)it->graph->num_outputs)
		return NULL;
	return &it->tensors[it->graph->outputs[index]];
}

OPVER_API size_t opver_interpreter_tensor_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_tensors;
}

OPVER_API const opver_tensor *opver_interpreter_tensor(
	const opver_interpreter *it, size_t index)
{
	if (index >= (size_t)it->graph->num_tensors)
		return NULL;
	return &it->tensors[index];
}

OPVER_API size_t opver_interpreter_node_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_nodes;
}

OPVER_API opver_status opver_interpreter_node_info_sized(
	const opver_interpreter *it, size_t index, opver_node_info *out,
	size_t size)
{
	const node_state *state;
	opver_node_info info = { .struct_size = sizeof(info) };

	if (index >= (size_t)it->graph->num_nodes || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	state = &it->nodes[index];
	info.index = (int32_t)index;
	info.op = state->node.op;
	info.custom_name = state->node.custom_name;
	info.version = state->node.version;
	info.required_version = it->graph->nodes[index].required_version;
	info.version_reason = it->graph->nodes[index].version_reason;
	info.resolved_version = state->node.resolved_version;
	info.num_inputs = it->graph->nodes[index].num_inputs;
	info.input_types = state->input_types;
	info.partition = state->partition;
	if (state->partition >= 0) {
		const opver__partition *partition =
			&it->delegation.partitions[state->partition];

		info.plugin = partition->plugin->config_name;
		info.delegate = partition->plugin->delegate.name;
		info.total_ns = partition->total_ns;
		info.invocations = partition->invocations;
	} else if (state->binding.chosen != NULL) {
		info.plugin = state->binding.chosen->plugin->config_name;
		info.kernel = state->binding.chosen->kernel->name;
		info.fallback = state->binding.preferred != NULL;
	}
	if (state->partition < 0) {
		if (opver__control_node(&it->graph->nodes[index])) {
			info.plugin = OPVER__CONTROL_PLUGIN;
			info.kernel = opver__control_kernel(
				&it->graph->nodes[index]);
		}
		info.total_ns = state->total_ns;
		info.invocations = state->invocations;
	}
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}

OPVER_API opver_status opver_interpreter_node_tensors(
	const opver_interpreter *it, size_t index, const int32_t **inputs,
	int32_t *num_inputs, const int32_t **outputs, int32_t *num_outputs)
{
	const opver__graph_node *node;

	if (index >= (size_t)it->graph->num_nodes)
		return OPVER_ERROR_INVALID_ARGUMENT;
	node = &it->graph->nodes[index];
	*inputs = node->inputs;
	*num_inputs = node->num_inputs;
	*outputs = node->outputs;
	*num_outputs = node->num_outputs;
	return OPVER_OK;
}

OPVER_API size_t opver_interpreter_profile_event_count(
	const opver_interpreter *it)
{
	return it->profiler.num_events;
}

OPVER_API opver_status opver_interpreter_profile_event_info_sized(
	const opver_interpreter *it, size_t index,
	opver_profile_event_info *out, size_t size)
{
	opver_profile_event_info info = { .struct_size = sizeof(info) };

	if (index >= it->profiler.num_events || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	opver__profile_event_describe(&it->profiler, index, &info);
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}

OPVER_API uint32_t opver_interpreter_threads(const opver_interpreter *it)
{
	return opver__pool_threads(it->pool);
}

OPVER_API void opver_interpreter_memory(const opver_interpreter *it,
					size_t *arena_bytes,
					size_t *naive_bytes)
{
	if (arena_bytes != NULL)
		*arena_bytes = it->arena_bytes;
	if (naive_bytes != NULL)
		*naive_bytes = it->naive_bytes;
}

OPVER_API uint64_t opver_interpreter_memory_in_use(const opver_interpreter *it,
						   uint64_t *limit)
{
	if (limit != NULL)
		*limit = it->session.budget->limit;
	return it->session.budget->used;
}
