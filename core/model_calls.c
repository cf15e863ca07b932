/*
 * model_calls.c - checks the subgraph calls of IF, WHILE and CALL_ONCE
 * nodes (model_calls.h).
 */
#include <stdlib.h>

#include "model_calls.h"

int opver__node_callees(const opver__graph_node *node,
			int32_t callees[OPVER__MAX_CALLEES])
{
	/* op_params.c gives IF, WHILE and CALL_ONCE a parameter struct always. */
	switch (node->op) {
	case OPVER_OP_IF: {
		const opver_if_params *p = node->params;

		callees[0] = p->then_subgraph_index;
		callees[1] = p->else_subgraph_index;
		return 2;
	}
	case OPVER_OP_WHILE: {
		const opver_while_params *p = node->params;

		callees[0] = p->cond_subgraph_index;
		callees[1] = p->body_subgraph_index;
		return 2;
	}
	case OPVER_OP_CALL_ONCE:
		callees[0] = ((const opver_call_once_params *)node->params)
				     ->init_subgraph_index;
		return 1;
	default:
		return 0;
	}
}

const char *opver__callee_role(int32_t op, int which)
{
	static const char *const roles[][OPVER__MAX_CALLEES] = {
		{ "then", "else" }, { "cond", "body" }, { "init", "" },
	};
	int row = op == OPVER_OP_IF ? 0 : op == OPVER_OP_WHILE ? 1 : 2;

	return roles[row][which];
}

/*
 * `count` tensors of the caller (`tensors`, indices into `caller`) must
 * match a list of the callee's (`list`, `list_count` of them) in count and
 * type: `values` names the caller's side, `side` the callee's.
 */
static opver_status match_list(opver__model_reader *r,
			       const opver__graph *caller,
			       const int32_t *tensors, int32_t count,
			       const char *values, const opver__graph *callee,
			       const int32_t *list, int32_t list_count,
			       const char *side)
{
	if (count != list_count)
		return opver__model_invalid(r, "%s count %d, but the subgraph's %s count is %d",
					    values, count, side, list_count);
	for (int32_t i = 0; i < count; i++) {
		opver_type mine = caller->tensors[tensors[i]].type;
		opver_type its = callee->tensors[list[i]].type;

		if (mine != its)
			return opver__model_invalid(r, "%s %d is %s, but the subgraph's %s %d is %s",
						    values, i,
						    opver_type_name(mine),
						    side, i,
						    opver_type_name(its));
	}
	return OPVER_OK;
}

/* Checks the inputs and outputs of `callee`, the node's callee `which`,
 * against the node's. */
static opver_status check_signature(opver__model_reader *r,
				    const opver__graph *caller,
				    const opver__graph_node *node, int which,
				    const opver__graph *callee)
{
	opver_status status;

	switch (node->op) {
	case OPVER_OP_IF:
		/* Input 0 is the condition; the rest go to the branch. */
		status = match_list(r, caller, node->inputs + 1,
				    node->num_inputs - 1, "branch input",
				    callee, callee->inputs, callee->num_inputs,
				    "input");
		if (status != OPVER_OK)
			return status;
		return match_list(r, caller, node->outputs, node->num_outputs,
				  "output", callee, callee->outputs,
				  callee->num_outputs, "output");
	case OPVER_OP_WHILE:
		status = match_list(r, caller, node->inputs, node->num_inputs,
				    "loop value", callee, callee->inputs,
				    callee->num_inputs, "input");
		if (status != OPVER_OK || which == 0)
			return status;
		return match_list(r, caller, node->inputs, node->num_inputs,
				  "loop value", callee, callee->outputs,
				  callee->num_outputs, "output");
	default:
		if (callee->num_inputs != 0 || callee->num_outputs != 0)
			return opver__model_invalid(r, "the subgraph has %d inputs and %d outputs; CALL_ONCE runs one with none",
						    callee->num_inputs,
						    callee->num_outputs);
		return OPVER_OK;
	}
}

/* The node's own tensors: WHILE carries as many values out as in, IF
 * takes a BOOL condition of one element, CALL_ONCE takes nothing. */
static opver_status check_node(opver__model_reader *r,
			       const opver__graph *caller,
			       const opver__graph_node *node)
{
	const opver__graph_tensor *cond;

	for (int32_t i = 0; i < node->num_inputs; i++)
		if (node->inputs[i] < 0)
			return opver__model_invalid(r, "input %d is omitted (-1); %s passes every input on",
						    i, opver_op_name(node->op));
	switch (node->op) {
	case OPVER_OP_IF:
		if (node->num_inputs < 1)
			return opver__model_invalid(r, "IF has no condition input");
		cond = &caller->tensors[node->inputs[0]];
		if (cond->type != OPVER_TYPE_BOOL || cond->bytes != 1)
			return opver__model_invalid(r, "the condition (input 0) is %s of %zu bytes; IF takes one BOOL",
						    opver_type_name(cond->type),
						    cond->bytes);
		return OPVER_OK;
	case OPVER_OP_WHILE:
		if (node->num_inputs != node->num_outputs)
			return opver__model_invalid(r, "WHILE has %d inputs but %d outputs; each loop value is both",
						    node->num_inputs,
						    node->num_outputs);
		for (int32_t i = 0; i < node->num_inputs; i++) {
			opver_type in = caller->tensors[node->inputs[i]].type;
			opver_type out = caller->tensors[node->outputs[i]].type;

			if (in != out)
				return opver__model_invalid(r, "input %d is %s but output %d is %s; a loop value keeps its type",
							    i, opver_type_name(in),
							    i, opver_type_name(out));
		}
		return OPVER_OK;
	default:
		if (node->num_inputs != 0 || node->num_outputs != 0)
			return opver__model_invalid(r, "CALL_ONCE has %d inputs and %d outputs; it takes none",
						    node->num_inputs,
						    node->num_outputs);
		return OPVER_OK;
	}
}

/* WHILE's cond gives one BOOL of one element. */
static opver_status check_cond(opver__model_reader *r,
			       const opver__graph *cond)
{
	const opver__graph_tensor *out;

	if (cond->num_outputs != 1)
		return opver__model_invalid(r, "the cond subgraph has %d outputs; WHILE needs one BOOL",
					    cond->num_outputs);
	out = &cond->tensors[cond->outputs[0]];
	if (out->type != OPVER_TYPE_BOOL || out->bytes != 1)
		return opver__model_invalid(r, "the cond subgraph's output is %s of %zu bytes; WHILE needs one BOOL",
					    opver_type_name(out->type),
					    out->bytes);
	return OPVER_OK;
}

/* Checks the calls of subgraph `s`'s nodes, one by one. */
static opver_status check_subgraph_calls(opver__model_reader *r,
					 const opver__graph *graph, int32_t s)
{
	const opver__graph *caller = opver__graph_subgraph(graph, s);

	for (int32_t n = 0; n < caller->num_nodes; n++) {
		const opver__graph_node *node = &caller->nodes[n];
		int32_t callees[OPVER__MAX_CALLEES];
		int count = opver__node_callees(node, callees);
		opver_status status;

		if (count == 0)
			continue;
		opver__model_where(r, "node %d (%s v%d) of subgraph %d", n,
				   opver_op_name(node->op), node->version, s);
		status = check_node(r, caller, node);
		for (int i = 0; status == OPVER_OK && i < count; i++) {
			const opver__graph *callee =
				opver__graph_subgraph(graph, callees[i]);

			opver__model_where(r, "node %d (%s v%d) of subgraph %d",
					   n, opver_op_name(node->op),
					   node->version, s);
			if (callee == NULL)
				return opver__model_invalid(r, "%s_subgraph_index %d is out of range (the model has %d subgraphs)",
							    opver__callee_role(node->op, i),
							    callees[i],
							    graph->num_subgraphs);
			opver__model_where(r, "node %d (%s v%d) of subgraph %d, calling subgraph %d (%s)",
					   n, opver_op_name(node->op),
					   node->version, s, callees[i],
					   opver__callee_role(node->op, i));
			status = check_signature(r, caller, node, i, callee);
			if (status == OPVER_OK && node->op == OPVER_OP_WHILE &&
			    i == 0)
				status = check_cond(r, callee);
		}
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

/* A depth-first walk's frame: a subgraph, the node and the callee of it
 * to follow next. */
typedef struct walk_frame {
	int32_t subgraph;
	int32_t node;
	int callee;
} walk_frame;

enum { UNSEEN, ON_PATH, DONE };

/*
 * Refuses a cycle of calls, found by a depth-first walk from each subgraph
 * with its own stack (a hostile file may chain thousands of subgraphs):
 * a call to a subgraph on the current path closes one.  Each subgraph is
 * on the path at most once, so the stack needs one frame per subgraph.
 */
static opver_status check_cycles(opver__model_reader *r,
				 const opver__graph *graph)
{
	int32_t count = graph->num_subgraphs;
	uint8_t *state = opver__model_allocate((size_t)count, sizeof(*state));
	walk_frame *stack = opver__model_allocate((size_t)count,
						  sizeof(*stack));
	opver_status status = OPVER_OK;

	if (state == NULL || stack == NULL) {
		status = opver__model_no_memory(r);
		goto out;
	}
	for (int32_t root = 0; root < count; root++) {
		int32_t depth = 0;

		if (state[root] != UNSEEN)
			continue;
		stack[depth++] = (walk_frame){ root, 0, 0 };
		state[root] = ON_PATH;
		while (depth > 0) {
			walk_frame *top = &stack[depth - 1];
			const opver__graph *g =
				opver__graph_subgraph(graph, top->subgraph);
			int32_t callees[OPVER__MAX_CALLEES], next;

			if (top->node == g->num_nodes) {
				state[top->subgraph] = DONE;
				depth--;
				continue;
			}
			if (top->callee >= opver__node_callees(
					&g->nodes[top->node], callees)) {
				top->node++;
				top->callee = 0;
				continue;
			}
			next = callees[top->callee++];
			if (state[next] == ON_PATH) {
				opver__model_where(r, "node %d (%s) of subgraph %d",
						   top->node,
						   opver_op_name(g->nodes[top->node].op),
						   top->subgraph);
				status = opver__model_invalid(r, "it calls subgraph %d, %s: a subgraph may not call itself, directly or through others",
							      next,
							      next == top->subgraph ? "its own subgraph" : "which called it");
				goto out;
			}
			if (state[next] == UNSEEN) {
				state[next] = ON_PATH;
				stack[depth++] = (walk_frame){ next, 0, 0 };
			}
		}
	}
out:
	free(state);
	free(stack);
	return status;
}

opver_status opver__model_check_calls(opver__model_reader *r,
				      const opver__graph *graph)
{
	for (int32_t s = 0; s < graph->num_subgraphs; s++) {
		opver_status status = check_subgraph_calls(r, graph, s);

		if (status != OPVER_OK)
			return status;
	}
	return check_cycles(r, graph);
}
