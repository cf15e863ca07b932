/*
 * model_subgraphs.c - decodes the model's operator codes, subgraphs and
 * signatures (model_subgraphs.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_reader.h"
#include "model_subgraphs.h"
#include "model_tensors.h"
#include "op_params.h"
#include "schema/opver_ids.h"

opver_status opver__model_read_op_codes(opver__model_reader *r,
					const opver__fb_table *model)
{
	opver__fb_vector codes;
	opver_status status;

	status = opver__model_vector(r, model, MODEL_OPERATOR_CODES, "operator_codes",
				     4, &codes);
	if (status != OPVER_OK)
		return status;
	r->codes = opver__model_allocate(codes.length, sizeof(*r->codes));
	if (r->codes == NULL)
		return opver__model_no_memory(r);
	r->num_codes = codes.length;
	for (uint32_t i = 0; i < codes.length; i++) {
		opver__fb_table code;
		int8_t deprecated_code;
		int32_t builtin_code, version;
		const char *custom_code;
		opver__model_op_code *c = &r->codes[i];

		opver__model_where(r, "operator code %u", i);
		status = opver__model_element(r, &codes, i, "operator code", &code);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_int8(&r->fb, &code, CODE_DEPRECATED_BUILTIN_CODE,
				    "deprecated_builtin_code", 0,
				    &deprecated_code) ||
		    !opver__fb_string_field(&r->fb, &code, CODE_CUSTOM_CODE,
					    "custom_code", &custom_code,
					    NULL) ||
		    !opver__fb_int32(&r->fb, &code, CODE_VERSION, "version", 1,
				     &version) ||
		    !opver__fb_int32(&r->fb, &code, CODE_BUILTIN_CODE,
				     "builtin_code", 0, &builtin_code))
			return opver__model_broken(r);
		/* Old files only have the byte-sized field (builtin_code
		 * then reads 0); newer ones write both. */
		c->op = deprecated_code > builtin_code ? deprecated_code :
							 builtin_code;
		if (c->op < 0)
			return opver__model_invalid(r, "op code %d is not a builtin operator",
						    c->op);
		if (version < 1)
			return opver__model_invalid(r, "version %d is invalid (versions start at 1)",
						    version);
		if (c->op == OPVER_OP_CUSTOM && custom_code == NULL)
			return opver__model_invalid(r, "CUSTOM op has no custom_code naming it");
		c->version = version;
		c->custom_name = c->op == OPVER_OP_CUSTOM ? custom_code : NULL;
	}
	return OPVER_OK;
}

static opver_status read_operator(opver__model_reader *r,
				  const opver__fb_vector *operators,
				  uint32_t subgraph, uint32_t index,
				  int32_t num_tensors, opver__graph_node *node)
{
	opver__fb_table table, options;
	opver__fb_vector custom_options, mutating;
	uint64_t large_offset, large_size;
	uint32_t opcode_index;
	uint8_t options_type;
	const opver__model_op_code *code;
	char where[sizeof(r->where) + 256];
	opver__model_span custom;
	opver_status status;

	opver__model_where(r, "node %u of subgraph %u", index, subgraph);
	status = opver__model_element(r, operators, index, "operator", &table);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_uint32(&r->fb, &table, OPERATOR_OPCODE_INDEX,
			      "opcode_index", 0, &opcode_index))
		return opver__model_broken(r);
	if (opcode_index >= r->num_codes)
		return opver__model_invalid(r, "opcode_index %u out of range (model has %u operator codes)",
					    opcode_index, r->num_codes);
	code = &r->codes[opcode_index];
	node->op = code->op;
	node->version = code->version;
	node->custom_name = code->custom_name;
	opver__model_where(r, "node %u (%s%s%s v%d) of subgraph %u", index,
			   opver_op_name(node->op),
			   node->custom_name ? " " : "",
			   node->custom_name ? node->custom_name : "",
			   node->version, subgraph);

	status = opver__model_indices(r, &table, OPERATOR_INPUTS, "inputs",
				      num_tensors, true, &node->num_inputs,
				      &node->inputs);
	if (status == OPVER_OK)
		status = opver__model_indices(r, &table, OPERATOR_OUTPUTS, "outputs",
					      num_tensors, false,
					      &node->num_outputs,
					      &node->outputs);
	if (status == OPVER_OK)
		status = opver__model_indices(r, &table,
					      OPERATOR_INTERMEDIATES,
					      "intermediates", num_tensors,
					      true, &node->num_intermediates,
					      &node->intermediates);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_vector_field(&r->fb, &table,
				    OPERATOR_MUTATING_VARIABLE_INPUTS,
				    "mutating_variable_inputs", 1, &mutating) ||
	    !opver__fb_vector_field(&r->fb, &table, OPERATOR_CUSTOM_OPTIONS,
				    "custom_options", 1, &custom_options) ||
	    !opver__fb_uint64(&r->fb, &table,
			      OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET,
			      "large_custom_options_offset", 0,
			      &large_offset) ||
	    !opver__fb_uint64(&r->fb, &table,
			      OPERATOR_LARGE_CUSTOM_OPTIONS_SIZE,
			      "large_custom_options_size", 0, &large_size) ||
	    !opver__fb_union_field(&r->fb, &table,
				   OPERATOR_BUILTIN_OPTIONS_TYPE,
				   "builtin_options", &options_type, &options))
		return opver__model_broken(r);
	if (mutating.length != 0 &&
	    mutating.length != (uint32_t)node->num_inputs)
		return opver__model_invalid(r, "mutating_variable_inputs has %u entries for %d inputs",
					    mutating.length, node->num_inputs);
	status = opver__model_resolve_span(r, "custom options", &custom_options,
					   large_offset, large_size, &custom);
	if (status != OPVER_OK)
		return status;
	node->custom_options = custom.data;
	node->custom_options_size = custom.size;

	snprintf(where, sizeof(where), "%s: %s", r->name, r->where);
	return opver__op_params_decode(&r->fb, node->op, options_type,
				       &options, where, r->reporter,
				       &node->params, &node->params_size);
}

/* Another tensor with constant data from the buffer of tensor t, or -1. */
static int32_t constant_sharing(const opver__graph *graph,
				const uint32_t *buffer_of, int32_t t)
{
	for (int32_t i = 0; i < graph->num_tensors; i++)
		if (i != t && buffer_of[i] == buffer_of[t] &&
		    graph->tensors[i].constant_data != NULL)
			return i;
	return -1;
}

/*
 * Constant data stays in the file's bytes: a read-only mapping, where a
 * write faults, or the copy of opver_model_open_memory(), which every
 * interpreter of the model shares, where a write corrupts the weights of
 * all.  Kernels write their nodes' outputs and the state in variable
 * tensors, so neither may have constant data (TFLite refuses variables
 * with a buffer too); and applications are handed the data pointer of
 * each graph output, so no graph output may share its buffer with another
 * constant tensor.  Graph inputs with a buffer are activations
 * initialised from it (read_subgraph), so writing them is safe, and
 * constants may share a buffer with each other.
 */
static opver_status check_written_tensors(opver__model_reader *r,
					  const opver__graph *graph,
					  const uint32_t *buffer_of)
{
	uint32_t *users;
	opver_status status = OPVER_OK;

	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t].is_variable &&
		    graph->tensors[t].constant_data != NULL)
			return opver__model_invalid(r, "tensor %d \"%s\" is a variable, which kernels write, but has constant data in buffer %u; give it an empty buffer (0)",
						    t, graph->tensors[t].name,
						    buffer_of[t]);
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];

		for (int32_t i = 0; i < node->num_outputs; i++) {
			int32_t t = node->outputs[i];
			int32_t other;
			char shared[128] = "";

			if (graph->tensors[t].constant_data == NULL)
				continue;
			other = constant_sharing(graph, buffer_of, t);
			if (other >= 0)
				snprintf(shared, sizeof(shared),
					 ", shared with constant tensor %d \"%s\"",
					 other, graph->tensors[other].name);
			return opver__model_invalid(r, "tensor %d \"%s\" is an output of node %d (%s%s%s v%d) but has constant data in buffer %u%s; kernels write their outputs, so give it an empty buffer (0)",
						    t, graph->tensors[t].name,
						    n, opver_op_name(node->op),
						    node->custom_name ? " " : "",
						    node->custom_name ? node->custom_name : "",
						    node->version, buffer_of[t],
						    shared);
		}
	}
	/* Constant tensors per buffer, so that graph outputs are checked in
	 * linear time whatever their number. */
	users = opver__model_allocate(r->num_buffers, sizeof(*users));
	if (users == NULL)
		return opver__model_no_memory(r);
	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t].constant_data != NULL)
			users[buffer_of[t]]++;
	for (int32_t i = 0; status == OPVER_OK && i < graph->num_outputs; i++) {
		int32_t t = graph->outputs[i];
		int32_t other;

		if (graph->tensors[t].constant_data == NULL ||
		    users[buffer_of[t]] < 2)
			continue;
		other = constant_sharing(graph, buffer_of, t);
		status = opver__model_invalid(r, "tensor %d \"%s\", graph output %d, shares buffer %u with constant tensor %d \"%s\"; applications may write outputs, so give the output a buffer of its own",
					      t, graph->tensors[t].name, i,
					      buffer_of[t], other,
					      graph->tensors[other].name);
	}
	free(users);
	return status;
}

static opver_status read_subgraph(opver__model_reader *r,
				  const opver__fb_vector *subgraphs,
				  uint32_t index, opver__graph *graph)
{
	opver__fb_table table;
	opver__fb_vector tensors, operators;
	const char *name;
	uint32_t *buffer_of = NULL;     /* the buffer of each tensor */
	opver_status status;

	opver__model_where(r, "subgraph %u", index);
	status = opver__model_element(r, subgraphs, index, "subgraph", &table);
	if (status == OPVER_OK)
		status = opver__model_vector(r, &table, SUBGRAPH_TENSORS, "tensors", 4,
					     &tensors);
	if (status == OPVER_OK)
		status = opver__model_vector(r, &table, SUBGRAPH_OPERATORS,
					     "operators", 4, &operators);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_string_field(&r->fb, &table, SUBGRAPH_NAME, "name",
				    &name, NULL))
		return opver__model_broken(r);

	graph->tensors = opver__model_allocate(tensors.length,
					       sizeof(*graph->tensors));
	graph->nodes = opver__model_allocate(operators.length,
					     sizeof(*graph->nodes));
	buffer_of = opver__model_allocate(tensors.length, sizeof(*buffer_of));
	if (graph->tensors == NULL || graph->nodes == NULL ||
	    buffer_of == NULL) {
		status = opver__model_no_memory(r);
		goto out;
	}
	graph->num_tensors = (int32_t)tensors.length;
	graph->num_nodes = (int32_t)operators.length;
	r->subgraph_tensors[index] = tensors.length;
	for (uint32_t i = 0; status == OPVER_OK && i < tensors.length; i++)
		status = opver__model_read_tensor(r, &tensors, index, i,
						  &graph->tensors[i],
						  &buffer_of[i]);
	if (status != OPVER_OK)
		goto out;

	opver__model_where(r, "subgraph %u", index);
	status = opver__model_indices(r, &table, SUBGRAPH_INPUTS, "inputs",
				      graph->num_tensors, false,
				      &graph->num_inputs, &graph->inputs);
	if (status == OPVER_OK)
		status = opver__model_indices(r, &table, SUBGRAPH_OUTPUTS, "outputs",
					      graph->num_tensors, false,
					      &graph->num_outputs,
					      &graph->outputs);
	for (int32_t i = 0; status == OPVER_OK && i < graph->num_inputs; i++) {
		opver__graph_tensor *input = &graph->tensors[graph->inputs[i]];

		if (input->constant_data != NULL) {
			input->initial_data = input->constant_data;
			input->constant_data = NULL;
		}
	}
	for (uint32_t i = 0; status == OPVER_OK && i < operators.length; i++)
		status = read_operator(r, &operators, index, i,
				       graph->num_tensors, &graph->nodes[i]);
	if (status == OPVER_OK) {
		opver__model_where(r, "subgraph %u", index);
		status = check_written_tensors(r, graph, buffer_of);
	}
out:
	free(buffer_of);
	return status;
}

opver_status opver__model_read_subgraphs(opver__model_reader *r,
					 const opver__fb_table *model,
					 opver__graph *graph)
{
	opver__fb_vector subgraphs;
	opver_status status;

	status = opver__model_vector(r, model, MODEL_SUBGRAPHS, "subgraphs", 4,
				     &subgraphs);
	if (status != OPVER_OK)
		return status;
	if (subgraphs.length == 0)
		return opver__model_invalid(r, "the model has no subgraph");
	r->subgraph_tensors =
		opver__model_allocate(subgraphs.length,
				      sizeof(*r->subgraph_tensors));
	if (r->subgraph_tensors == NULL)
		return opver__model_no_memory(r);
	r->num_subgraphs = subgraphs.length;
	if (subgraphs.length > 1) {
		graph->others = opver__model_allocate(subgraphs.length - 1,
						      sizeof(*graph->others));
		if (graph->others == NULL)
			return opver__model_no_memory(r);
	}
	/* Counted once allocated, so that a failure below frees them. */
	graph->num_subgraphs = (int32_t)subgraphs.length;
	status = read_subgraph(r, &subgraphs, 0, graph);
	for (uint32_t i = 1; status == OPVER_OK && i < subgraphs.length; i++)
		status = read_subgraph(r, &subgraphs, i, &graph->others[i - 1]);
	return status;
}

/* Reads the tensor maps of a signature into *out (*count of them, owned by
 * the caller), checking them against its subgraph. */
static opver_status read_tensor_maps(opver__model_reader *r,
				     const opver__fb_table *table, unsigned id,
				     const char *name, uint32_t num_tensors,
				     opver__signature_tensor **out,
				     int32_t *count)
{
	opver__fb_vector maps;
	opver_status status;

	status = opver__model_vector(r, table, id, name, 4, &maps);
	if (status != OPVER_OK || maps.length == 0)
		return status;
	*out = opver__model_allocate(maps.length, sizeof(**out));
	if (*out == NULL)
		return opver__model_no_memory(r);
	for (uint32_t i = 0; status == OPVER_OK && i < maps.length; i++) {
		opver__fb_table map;
		const char *alias;
		uint32_t tensor;

		status = opver__model_element(r, &maps, i, name, &map);
		if (status != OPVER_OK)
			break;
		if (!opver__fb_string_field(&r->fb, &map, TENSOR_MAP_NAME,
					    "name", &alias, NULL) ||
		    !opver__fb_uint32(&r->fb, &map, TENSOR_MAP_TENSOR_INDEX,
				      "tensor_index", 0, &tensor))
			return opver__model_broken(r);
		if (tensor >= num_tensors)
			return opver__model_invalid(r, "%s[%u] is tensor %u, out of range (the subgraph has %u tensors)",
						    name, i, tensor,
						    num_tensors);
		(*out)[i].name = alias != NULL ? alias : "";
		(*out)[i].tensor = (int32_t)tensor;
		*count = (int32_t)i + 1;
	}
	return status;
}

opver_status opver__model_read_signatures(opver__model_reader *r,
					  const opver__fb_table *model,
					  opver__graph *graph)
{
	opver__fb_vector signatures;
	opver_status status;

	opver__model_where(r, "model");
	status = opver__model_vector(r, model, MODEL_SIGNATURE_DEFS, "signature_defs",
				     4, &signatures);
	if (status != OPVER_OK || signatures.length == 0)
		return status;
	graph->signatures = opver__model_allocate(signatures.length,
						  sizeof(*graph->signatures));
	if (graph->signatures == NULL)
		return opver__model_no_memory(r);
	for (uint32_t i = 0; status == OPVER_OK && i < signatures.length; i++) {
		opver__signature *out = &graph->signatures[i];
		opver__fb_table signature;
		const char *key;
		uint32_t subgraph;

		/* Counted first, so that a failure below frees its maps. */
		graph->num_signatures = (int32_t)i + 1;
		opver__model_where(r, "signature %u", i);
		status = opver__model_element(r, &signatures, i, "signature", &signature);
		if (status != OPVER_OK)
			break;
		if (!opver__fb_string_field(&r->fb, &signature, SIGNATURE_KEY,
					    "signature_key", &key, NULL) ||
		    !opver__fb_uint32(&r->fb, &signature,
				      SIGNATURE_SUBGRAPH_INDEX,
				      "subgraph_index", 0, &subgraph))
			return opver__model_broken(r);
		if (subgraph >= r->num_subgraphs)
			return opver__model_invalid(r, "subgraph_index %u out of range (model has %u subgraphs)",
						    subgraph, r->num_subgraphs);
		out->key = key != NULL ? key : "";
		out->subgraph = (int32_t)subgraph;
		status = read_tensor_maps(r, &signature, SIGNATURE_INPUTS,
					  "inputs", r->subgraph_tensors[subgraph],
					  &out->inputs, &out->num_inputs);
		if (status == OPVER_OK)
			status = read_tensor_maps(r, &signature,
						  SIGNATURE_OUTPUTS, "outputs",
						  r->subgraph_tensors[subgraph],
						  &out->outputs,
						  &out->num_outputs);
	}
	return status;
}
