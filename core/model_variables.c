/*
 * model_variables.c - checks the tensors of VAR_HANDLE, READ_VARIABLE and
 * ASSIGN_VARIABLE nodes (model_variables.h).
 */
#include "model_variables.h"

/* What each op takes and gives: a handle is a RESOURCE tensor of one
 * element, a value any tensor of a fixed element size. */
typedef struct variable_op {
	int32_t op;
	int32_t num_inputs;
	int32_t num_outputs;
} variable_op;

static const variable_op ops[] = {
	{ OPVER_OP_VAR_HANDLE, 0, 1 },          /* out: handle */
	{ OPVER_OP_READ_VARIABLE, 1, 1 },       /* in: handle; out: value */
	{ OPVER_OP_ASSIGN_VARIABLE, 2, 0 },     /* in: handle, value */
};

static opver_status check_handle(opver__model_reader *r,
				 const opver__graph_tensor *t,
				 const char *which)
{
	if (t->type != OPVER_TYPE_RESOURCE)
		return opver__model_invalid(r, "%s is %s; it takes a RESOURCE handle made by VAR_HANDLE",
					    which, opver_type_name(t->type));
	if (t->bytes != sizeof(int32_t))
		return opver__model_invalid(r, "%s, the handle, has %zu elements; a handle names one variable, so it has one",
					    which, t->bytes / sizeof(int32_t));
	return OPVER_OK;
}

/* A variable's value: an element type of fixed size, which a RESOURCE
 * is not (a variable does not hold handles). */
static opver_status check_value(opver__model_reader *r,
				const opver__graph_tensor *t,
				const char *which)
{
	if (t->type == OPVER_TYPE_RESOURCE || opver_type_size(t->type) == 0)
		return opver__model_invalid(r, "%s is %s; a variable holds values of a fixed-size element type",
					    which, opver_type_name(t->type));
	return OPVER_OK;
}

static opver_status check_node(opver__model_reader *r,
			       const opver__graph *graph,
			       const opver__graph_node *node,
			       const variable_op *op)
{
	if (node->num_inputs != op->num_inputs ||
	    node->num_outputs != op->num_outputs)
		return opver__model_invalid(r, "%s has %d inputs and %d outputs; it takes %d and gives %d",
					    opver_op_name(node->op),
					    node->num_inputs, node->num_outputs,
					    op->num_inputs, op->num_outputs);
	for (int32_t i = 0; i < node->num_inputs; i++)
		if (node->inputs[i] < 0)
			return opver__model_invalid(r, "input %d is omitted (-1); %s needs it",
						    i, opver_op_name(node->op));
	switch (node->op) {
	case OPVER_OP_VAR_HANDLE:
		return check_handle(r, &graph->tensors[node->outputs[0]],
				    "output 0");
	case OPVER_OP_READ_VARIABLE: {
		opver_status status = check_handle(
			r, &graph->tensors[node->inputs[0]], "input 0");

		return status != OPVER_OK ? status :
			check_value(r, &graph->tensors[node->outputs[0]],
				    "output 0");
	}
	default: {
		opver_status status = check_handle(
			r, &graph->tensors[node->inputs[0]], "input 0");

		return status != OPVER_OK ? status :
			check_value(r, &graph->tensors[node->inputs[1]],
				    "input 1, the value,");
	}
	}
}

opver_status opver__model_check_variables(opver__model_reader *r,
					  const opver__graph *graph)
{
	for (int32_t s = 0; s < graph->num_subgraphs; s++) {
		const opver__graph *g = opver__graph_subgraph(graph, s);

		for (int32_t n = 0; n < g->num_nodes; n++) {
			const opver__graph_node *node = &g->nodes[n];

			for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]);
			     k++) {
				opver_status status;

				if (ops[k].op != node->op)
					continue;
				opver__model_where(r, "node %d (%s v%d) of subgraph %d",
						   n, opver_op_name(node->op),
						   node->version, s);
				status = check_node(r, g, node, &ops[k]);
				if (status != OPVER_OK)
					return status;
			}
		}
	}
	return OPVER_OK;
}
