/*
 * model.c - opver_model: a mapped or copied, verified model, with the version
 * TFLite's rules require of each node and the runtime release they add up
 * to.
 */
#include <stdlib.h>
#include <string.h>

#include "model_reader.h"
#include "op_version.h"
#include "runtime.h"
#include "sized.h"

struct opver_model {
	opver__model_file file;
};

/* Fills every node's required version and reason in `graph`, one
 * subgraph, and raises *runtime_version: TFLite's converter writes the
 * release of the highest (op, version) after raising each stored version
 * to the required one, so that is what is computed here. */
static opver_status assign_versions(opver__graph *graph,
				    const char **runtime_version,
				    const opver__reporter *reporter)
{
	opver__tensor_signature *tensors;
	size_t largest = 1;

	/* One signature array, sized for the node with the most tensors. */
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		size_t count = (size_t)graph->nodes[n].num_inputs +
			       (size_t)graph->nodes[n].num_outputs;

		if (count > largest)
			largest = count;
	}
	tensors = calloc(largest, sizeof(*tensors));
	if (tensors == NULL)
		goto nomem;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		opver__graph_node *node = &graph->nodes[n];
		opver__op_signature sig;
		char reason[OPVER__VERSION_REASON_SIZE];
		const char *release;

		opver__op_signature_from_graph(graph, n, &sig, tensors);
		node->required_version =
			opver__op_required_version(&sig, reason, sizeof(reason));
		node->version_reason = strdup(reason);
		if (node->version_reason == NULL)
			goto nomem;
		release = opver__op_runtime_version(
			node->op, node->version > node->required_version ?
					  node->version :
					  node->required_version);
		if (release != NULL &&
		    (*runtime_version == NULL ||
		     opver__compare_runtime_versions(release,
						     *runtime_version) > 0))
			*runtime_version = release;
	}
	free(tensors);
	return OPVER_OK;
nomem:
	free(tensors);
	opver__error(reporter, "out of memory computing op versions");
	return OPVER_ERROR_NOMEM;
}

/* Finishes opening: `status` is how reading `file` went; on success the
 * graph gets its versions and *out the model, which takes the file. */
static opver_status finish_open(opver_runtime *runtime, opver_model *model,
				opver_status status, opver_model **out)
{
	opver__graph *graph = &model->file.graph;

	if (status != OPVER_OK) {
		free(model);
		return status;
	}
	for (int32_t i = 0; status == OPVER_OK && i < graph->num_subgraphs; i++)
		status = assign_versions(i == 0 ? graph : &graph->others[i - 1],
					 &graph->computed_runtime_version,
					 &runtime->reporter);
	if (status != OPVER_OK) {
		opver_model_close(model);
		return status;
	}
	*out = model;
	return OPVER_OK;
}

OPVER_API opver_status opver_model_open(opver_runtime *runtime,
					const char *path, opver_model **out)
{
	opver_model *model;

	*out = NULL;
	model = calloc(1, sizeof(*model));
	if (model == NULL)
		return OPVER_ERROR_NOMEM;
	return finish_open(runtime, model,
			   opver__model_file_open(path, &runtime->reporter,
						  &model->file),
			   out);
}

OPVER_API opver_status opver_model_open_memory(opver_runtime *runtime,
					       const void *data, size_t size,
					       opver_model **out)
{
	opver_model *model;

	*out = NULL;
	model = calloc(1, sizeof(*model));
	if (model == NULL)
		return OPVER_ERROR_NOMEM;
	return finish_open(runtime, model,
			   opver__model_file_copy(data, size, "<memory>",
						  &runtime->reporter,
						  &model->file),
			   out);
}

OPVER_API void opver_model_close(opver_model *model)
{
	if (model == NULL)
		return;
	opver__model_file_close(&model->file);
	free(model);
}

OPVER_API const char *opver_model_min_runtime_version(const opver_model *model)
{
	return model->file.graph.min_runtime_version;
}

OPVER_API const char *opver_model_computed_runtime_version(
	const opver_model *model)
{
	return model->file.graph.computed_runtime_version;
}

const opver__graph *opver__model_graph(const opver_model *model)
{
	return &model->file.graph;
}

OPVER_API size_t opver_model_signature_count(const opver_model *model)
{
	return (size_t)model->file.graph.num_signatures;
}

OPVER_API opver_status opver_model_signature_info_sized(
	const opver_model *model, size_t index, opver_signature_info *out,
	size_t size)
{
	const opver__signature *signature;
	opver_signature_info info = { .struct_size = sizeof(info) };

	if (index >= opver_model_signature_count(model) || out == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	signature = &model->file.graph.signatures[index];
	info.subgraph = (uint32_t)signature->subgraph;
	info.num_inputs = (uint32_t)signature->num_inputs;
	info.num_outputs = (uint32_t)signature->num_outputs;
	info.key = signature->key;
	opver__copy_sized(out, &info, size, sizeof(info));
	return OPVER_OK;
}

/* Entry `index` of one of a signature's tensor lists. */
static opver_status signature_tensor(const opver_model *model,
				     size_t signature, size_t index,
				     bool output, const char **name,
				     int32_t *tensor)
{
	const opver__signature *s;
	const opver__signature_tensor *entry;

	if (signature >= opver_model_signature_count(model))
		return OPVER_ERROR_INVALID_ARGUMENT;
	s = &model->file.graph.signatures[signature];
	if (index >= (size_t)(output ? s->num_outputs : s->num_inputs))
		return OPVER_ERROR_INVALID_ARGUMENT;
	entry = output ? &s->outputs[index] : &s->inputs[index];
	*name = entry->name;
	*tensor = entry->tensor;
	return OPVER_OK;
}

OPVER_API opver_status opver_model_signature_input(const opver_model *model,
						   size_t signature,
						   size_t index,
						   const char **name,
						   int32_t *tensor)
{
	return signature_tensor(model, signature, index, false, name, tensor);
}

OPVER_API opver_status opver_model_signature_output(const opver_model *model,
						    size_t signature,
						    size_t index,
						    const char **name,
						    int32_t *tensor)
{
	return signature_tensor(model, signature, index, true, name, tensor);
}
