/*
 * control_flow.c - IF, WHILE and CALL_ONCE, run by the core over the
 * interpreters of the subgraphs they call (control_flow.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control_flow.h"
#include "interpreter.h"
#include "model_calls.h"
#include "resource_variables.h"
#include "runtime.h"

/* Deepest chain of calls whose interpreters are created: each level is a
 * recursion of creation, and real models nest a few. */
#define MAX_CALL_DEPTH 32

struct opver__callees {
	opver_runtime *runtime;                 /* borrowed */
	const opver_model *model;               /* borrowed */
	opver_interpreter_options options;
	struct opver__pool *pool;               /* borrowed, the root's */
	int32_t count;                          /* subgraphs in the model */
	/* Owned; one per subgraph, NULL until a node calling it is
	 * prepared. */
	opver_interpreter **interpreters;
	int32_t depth;          /* callee creations under way */
	/* WHILE body passes in the root's invoke under way, every WHILE of
	 * every subgraph counted against max_loop_iterations together:
	 * nested loops cannot multiply the limit. */
	uint64_t passes;
	/* The root's max_arena_bytes (borrowed), which every interpreter
	 * of the tree charges, so a model cannot multiply its memory limit
	 * by its number of subgraphs. */
	opver__budget *budget;
	opver__variables *variables;            /* owned; the tree's */
};

struct opver__control {
	opver__callees *callees;        /* owned when owns_callees */
	bool owns_callees;
	const opver__graph *graph;      /* borrowed; this interpreter's */
	int32_t subgraph;
	const opver__reporter *reporter;        /* borrowed */
	bool *called;           /* owned; per node, CALL_ONCE has run */
	/* Owned; per node and per tensor, what resource-variable nodes use
	 * (opver__variable_site). */
	int32_t *handles;
	int32_t *writers;
};

bool opver__control_node(const opver__graph_node *node)
{
	return node->op == OPVER_OP_IF || node->op == OPVER_OP_WHILE ||
	       node->op == OPVER_OP_CALL_ONCE || opver__variable_node(node);
}

const char *opver__control_kernel(const opver__graph_node *node)
{
	return opver__variable_node(node) ? OPVER__VARIABLE_KERNEL :
					    OPVER__CONTROL_KERNEL;
}

opver_status opver__control_check_version(const opver__graph_node *node,
					  int32_t version, int32_t index,
					  int32_t subgraph,
					  const opver__reporter *reporter)
{
	if (version == 1)
		return OPVER_OK;
	opver__error(reporter,
		     "node %d (%s v%d) of subgraph %d: %s runs in opver's core (%s), which handles version 1 only; a newer opver may run v%d",
		     (int)index, opver_op_name(node->op), (int)version,
		     (int)subgraph, opver_op_name(node->op),
		     opver__control_kernel(node), (int)version);
	return OPVER_ERROR_UNRESOLVED;
}

opver_status opver__control_create(opver_runtime *runtime,
				   const opver_model *model,
				   const opver_interpreter_options *options,
				   const opver__graph *graph, int32_t subgraph,
				   opver__callees *callees,
				   struct opver__pool *pool,
				   opver__budget *budget,
				   opver__control **out)
{
	const opver__graph *root = opver__model_graph(model);
	opver__control *control = calloc(1, sizeof(*control));

	*out = control;
	if (control == NULL)
		return OPVER_ERROR_NOMEM;
	control->graph = graph;
	control->subgraph = subgraph;
	control->reporter = &runtime->reporter;
	control->called = calloc((size_t)graph->num_nodes + 1,
				 sizeof(*control->called));
	control->handles = malloc(((size_t)graph->num_nodes + 1) *
				  sizeof(*control->handles));
	control->writers = malloc(((size_t)graph->num_tensors + 1) *
				  sizeof(*control->writers));
	if (control->called == NULL || control->handles == NULL ||
	    control->writers == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t n = 0; n < graph->num_nodes; n++)
		control->handles[n] = -1;
	opver__variable_writers(graph, control->writers);
	if (callees != NULL) {
		control->callees = callees;
		return OPVER_OK;
	}
	callees = calloc(1, sizeof(*callees));
	if (callees == NULL)
		return OPVER_ERROR_NOMEM;
	control->callees = callees;
	control->owns_callees = true;
	callees->runtime = runtime;
	callees->model = model;
	callees->options = *options;
	/* Time spent in a callee is its calling node's. */
	callees->options.profile = 0;
	callees->options.trace = NULL;
	callees->options.trace_user_data = NULL;
	callees->pool = pool;
	callees->budget = budget;
	callees->count = root->num_subgraphs;
	callees->interpreters = calloc((size_t)root->num_subgraphs,
				       sizeof(*callees->interpreters));
	if (callees->interpreters == NULL)
		return OPVER_ERROR_NOMEM;
	return opver__variables_create(&runtime->reporter, budget,
				       &callees->variables);
}

/* The interpreter of subgraph `index`, created on first use. */
static opver_status callee(opver__control *control, int32_t index,
			   opver_interpreter **out)
{
	opver__callees *callees = control->callees;
	opver_status status;

	*out = callees->interpreters[index];
	if (*out != NULL)
		return OPVER_OK;
	if (callees->depth >= MAX_CALL_DEPTH) {
		opver__error(control->reporter,
			     "subgraph %d: calls nest more than %d deep; opver does not run such models",
			     (int)index, MAX_CALL_DEPTH);
		return OPVER_ERROR_UNSUPPORTED;
	}
	callees->depth++;
	status = opver__interpreter_create_callee(
		callees->runtime, callees->model, &callees->options, index,
		callees, callees->pool, callees->budget, out);
	callees->depth--;
	callees->interpreters[index] = *out;
	return status;
}

/* Writes "[1,2,3]" into buf. */
static const char *shape_text(const opver_tensor *t, char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "[");

	for (int32_t d = 0; d < t->rank && used < size; d++)
		used += (size_t)snprintf(buf + used, size - used, "%s%d",
					 d ? "," : "", (int)t->dims[d]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
	return buf;
}

static bool same_shape(const opver_tensor *a, const opver_tensor *b)
{
	if (a->rank != b->rank || a->bytes != b->bytes)
		return false;
	for (int32_t d = 0; d < a->rank; d++)
		if (a->dims[d] != b->dims[d])
			return false;
	return true;
}

/* What a node checks a callee's tensor against. */
typedef struct shape_check {
	const opver_node *node;
	int32_t index;          /* the node's */
	int32_t callee;         /* subgraph */
	const char *role;       /* "cond", "body", "then", "else" */
} shape_check;

static opver_status check_shape(const opver__control *control,
				const shape_check *check, const char *what,
				int32_t i, const opver_tensor *mine,
				const opver_tensor *its)
{
	char a[96], b[96];

	if (same_shape(mine, its))
		return OPVER_OK;
	opver__error(control->reporter,
		     "node %d (%s) of subgraph %d: %s %d is %s (%zu bytes), but subgraph %d (%s) has %s (%zu bytes) there; opver passes values between subgraphs at one fixed shape, so a value whose shape changes across calls is not supported",
		     (int)check->index, opver_op_name(check->node->op),
		     (int)control->subgraph, what, (int)i,
		     shape_text(mine, a, sizeof(a)), mine->bytes,
		     (int)check->callee, check->role,
		     shape_text(its, b, sizeof(b)), its->bytes);
	return OPVER_ERROR_UNSUPPORTED;
}

/* `count` of the node's tensors from `first` against the callee's inputs
 * (outputs when `outputs`). */
static opver_status check_list(const opver__control *control,
			       const shape_check *check,
			       opver_tensor *const *tensors, int32_t count,
			       opver_interpreter *callee, bool outputs)
{
	for (int32_t i = 0; i < count; i++) {
		const opver_tensor *its =
			outputs ? opver_interpreter_output(callee, (size_t)i)
				: opver_interpreter_input(callee, (size_t)i);
		opver_status status = check_shape(control, check,
						   outputs ? "output" : "input",
						   i, tensors[i], its);

		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

/*
 * A condition (IF's input 0, the output of WHILE's cond) holds one
 * element, as TFLite requires: the reader checked the shapes the model
 * states, but a kernel's prepare may have shaped the tensor since
 * (resize_output), to no element at all, where invoke would read a byte
 * past it.
 */
static opver_status check_condition(const opver__control *control,
				    int32_t index, const char *what,
				    const opver_tensor *cond)
{
	char shape[96];

	if (opver_tensor_elements(cond) == 1)
		return OPVER_OK;
	opver__error(control->reporter,
		     "node %d (%s) of subgraph %d: %s has shape %s, %zu elements; it must hold one BOOL",
		     (int)index,
		     opver_op_name(control->graph->nodes[index].op),
		     (int)control->subgraph, what,
		     shape_text(cond, shape, sizeof(shape)),
		     opver_tensor_elements(cond));
	return OPVER_ERROR_INVALID_MODEL;
}

/* Node `index` of this interpreter, as resource_variables.c takes it. */
static opver__variable_site variable_site(const opver__control *control,
					  int32_t index)
{
	return (opver__variable_site){ control->graph, control->subgraph,
				       index, control->handles,
				       control->writers };
}

opver_status opver__control_prepare(opver__control *control, int32_t index,
				    const opver_node *node)
{
	const opver__graph_node *source = &control->graph->nodes[index];
	int32_t callees[OPVER__MAX_CALLEES];
	int count = opver__node_callees(source, callees);

	if (opver__variable_node(source)) {
		opver__variable_site site = variable_site(control, index);

		return opver__variables_prepare(control->callees->variables,
						&site, node);
	}
	if (source->op == OPVER_OP_IF) {
		opver_status status = check_condition(
			control, index, "the condition (input 0)",
			node->inputs[0]);

		if (status != OPVER_OK)
			return status;
	}
	for (int i = 0; i < count; i++) {
		shape_check check = { node, index, callees[i],
				      opver__callee_role(source->op, i) };
		opver_interpreter *it;
		opver_status status = callee(control, callees[i], &it);

		if (status != OPVER_OK)
			return status;
		if (source->op == OPVER_OP_IF) {
			status = check_list(control, &check, node->inputs + 1,
					    node->num_inputs - 1, it, false);
			if (status == OPVER_OK)
				status = check_list(control, &check,
						    node->outputs,
						    node->num_outputs, it,
						    true);
		} else if (source->op == OPVER_OP_WHILE) {
			/* Each loop value: in, out, cond's and body's in,
			 * body's out all of one shape. */
			status = i == 0 ? check_condition(control, index,
					"the cond subgraph's output",
					opver_interpreter_output(it, 0))
					: OPVER_OK;
			if (status == OPVER_OK)
				status = check_list(control, &check,
						    node->inputs,
						    node->num_inputs, it,
						    false);
			if (status == OPVER_OK)
				status = check_list(control, &check,
						    node->outputs,
						    node->num_outputs, it,
						    false);
			if (status == OPVER_OK && i == 1)
				status = check_list(control, &check,
						    node->inputs,
						    node->num_inputs, it,
						    true);
		}
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static void copy_value(opver_tensor *to, const opver_tensor *from)
{
	/* Shapes and so sizes were checked equal in prepare. */
	if (to->data != from->data && to->bytes > 0)
		memcpy(to->data, from->data, to->bytes);
}

/* Runs callee `index`, saying which node called it when it fails. */
static opver_status run(opver__control *control, int32_t node_index,
			int32_t index)
{
	opver_status status =
		opver_interpreter_invoke(control->callees->interpreters[index]);

	if (status != OPVER_OK)
		opver__error(control->reporter,
			     "node %d (%s) of subgraph %d: subgraph %d failed",
			     (int)node_index,
			     opver_op_name(control->graph->nodes[node_index].op),
			     (int)control->subgraph, (int)index);
	return status;
}

static opver_status run_if(opver__control *control, int32_t index,
			   const opver_node *node,
			   const opver_if_params *params)
{
	bool cond = *(const uint8_t *)node->inputs[0]->data != 0;
	int32_t branch = cond ? params->then_subgraph_index :
				params->else_subgraph_index;
	opver_interpreter *it = control->callees->interpreters[branch];
	opver_status status;

	for (int32_t i = 1; i < node->num_inputs; i++)
		copy_value(opver_interpreter_input(it, (size_t)i - 1),
			   node->inputs[i]);
	status = run(control, index, branch);
	for (int32_t i = 0; status == OPVER_OK && i < node->num_outputs; i++)
		copy_value(node->outputs[i],
			   opver_interpreter_output(it, (size_t)i));
	return status;
}

/* The loop values live in the node's outputs from the start: cond and
 * body read them from there and body's results go back there. */
static opver_status run_while(opver__control *control, int32_t index,
			      const opver_node *node,
			      const opver_while_params *params)
{
	opver_interpreter *cond =
		control->callees->interpreters[params->cond_subgraph_index];
	opver_interpreter *body =
		control->callees->interpreters[params->body_subgraph_index];
	int32_t count = node->num_outputs;
	uint64_t limit = control->callees->options.max_loop_iterations;
	opver_status status;

	for (int32_t i = 0; i < count; i++)
		copy_value(node->outputs[i], node->inputs[i]);
	for (uint64_t pass = 0;; pass++) {
		for (int32_t i = 0; i < count; i++)
			copy_value(opver_interpreter_input(cond, (size_t)i),
				   node->outputs[i]);
		status = run(control, index, params->cond_subgraph_index);
		if (status != OPVER_OK)
			return status;
		if (*(const uint8_t *)opver_interpreter_output(cond, 0)->data ==
		    0)
			return OPVER_OK;
		if (limit > 0 && control->callees->passes == limit) {
			opver__error(control->reporter,
				     "node %d (WHILE) of subgraph %d: still looping after %" PRIu64 " passes; WHILE bodies have passed %" PRIu64 " times in this invoke, the most max_loop_iterations allows",
				     (int)index, (int)control->subgraph, pass,
				     limit);
			return OPVER_ERROR;
		}
		control->callees->passes++;
		for (int32_t i = 0; i < count; i++)
			copy_value(opver_interpreter_input(body, (size_t)i),
				   node->outputs[i]);
		status = run(control, index, params->body_subgraph_index);
		if (status != OPVER_OK)
			return status;
		for (int32_t i = 0; i < count; i++)
			copy_value(node->outputs[i],
				   opver_interpreter_output(body, (size_t)i));
	}
}

opver_status opver__control_invoke(opver__control *control, int32_t index,
				   const opver_node *node)
{
	const opver__graph_node *source = &control->graph->nodes[index];
	opver__variable_site site;
	opver_status status;

	if (opver__variable_node(source)) {
		site = variable_site(control, index);
		return opver__variables_invoke(control->callees->variables,
					       &site, node);
	}
	switch (source->op) {
	case OPVER_OP_IF:
		return run_if(control, index, node, source->params);
	case OPVER_OP_WHILE:
		return run_while(control, index, node, source->params);
	default:
		/* CALL_ONCE: the first invoke initialises, later ones skip. */
		if (control->called[index])
			return OPVER_OK;
		status = run(control, index,
			     ((const opver_call_once_params *)source->params)
				     ->init_subgraph_index);
		control->called[index] = status == OPVER_OK;
		return status;
	}
}

void opver__control_begin_invoke(opver__control *control)
{
	if (control != NULL && control->owns_callees)
		control->callees->passes = 0;
}

void opver__control_reset_variables(opver__control *control)
{
	if (control == NULL)
		return;
	memset(control->called, 0,
	       (size_t)control->graph->num_nodes * sizeof(*control->called));
	if (!control->owns_callees)
		return;
	opver__variables_reset(control->callees->variables);
	for (int32_t i = 0; i < control->callees->count; i++)
		if (control->callees->interpreters[i] != NULL)
			opver_interpreter_reset_variables(
				control->callees->interpreters[i]);
}

opver__callees *opver__control_callees(const opver__control *control)
{
	return control->callees;
}

void opver__control_free(opver__control *control)
{
	if (control == NULL)
		return;
	if (control->owns_callees && control->callees != NULL) {
		for (int32_t i = 0; control->callees->interpreters != NULL &&
				    i < control->callees->count;
		     i++)
			opver_interpreter_destroy(
				control->callees->interpreters[i]);
		free(control->callees->interpreters);
		opver__variables_free(control->callees->variables);
		free(control->callees);
	}
	free(control->called);
	free(control->handles);
	free(control->writers);
	free(control);
}
