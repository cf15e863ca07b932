/*
 * resource_variables.c - the resource variables of an interpreter tree and
 * the nodes that use them (resource_variables.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resource_variables.h"
#include "session.h"
#include "text.h"

typedef struct variable {
	const char *container;          /* borrowed from the model */
	const char *shared_name;        /* borrowed from the model */
	/* The type prepare saw it used with (a READ_VARIABLE's output, an
	 * ASSIGN_VARIABLE's value, when the handle comes from a VAR_HANDLE
	 * of the same subgraph), and the first node that used it so;
	 * declared_node is -1 until one did. */
	int32_t declared_type;
	int32_t declared_node;
	int32_t declared_subgraph;
	/* The value, once assigned. */
	bool assigned;
	int32_t type;
	int32_t rank;
	int32_t *dims;                  /* owned; rank entries, or NULL */
	size_t bytes;
	uint8_t *data;                  /* owned */
} variable;

struct opver__variables {
	const opver__reporter *reporter;        /* borrowed */
	opver__budget *budget;                  /* borrowed */
	variable *vars;                         /* owned; count used */
	int32_t count;
	int32_t capacity;
};

bool opver__variable_node(const opver__graph_node *node)
{
	return node->op == OPVER_OP_VAR_HANDLE ||
	       node->op == OPVER_OP_READ_VARIABLE ||
	       node->op == OPVER_OP_ASSIGN_VARIABLE;
}

opver_status opver__variables_create(const opver__reporter *reporter,
				     opver__budget *budget,
				     opver__variables **out)
{
	*out = calloc(1, sizeof(**out));
	if (*out == NULL)
		return OPVER_ERROR_NOMEM;
	(*out)->reporter = reporter;
	(*out)->budget = budget;
	return OPVER_OK;
}

/* "'name'", or "'name' (container 'c')" when it has a container. */
static const char *variable_name(const variable *v, char *buf, size_t size)
{
	if (v->container[0] == '\0')
		snprintf(buf, size, "'%s'", v->shared_name);
	else
		snprintf(buf, size, "'%s' (container '%s')", v->shared_name,
			 v->container);
	return buf;
}

/* Reports "node N (OP) of subgraph S: variable 'V' " + the rest. */
#define NODE_ERROR(vars, site, v, format, ...)                              \
	do {                                                                \
		char name_[160];                                            \
		opver__error((vars)->reporter,                              \
			     "node %d (%s) of subgraph %d: variable %s " format, \
			     (int)(site)->index,                            \
			     opver_op_name((site)->graph->nodes[(site)->index].op), \
			     (int)(site)->subgraph,                         \
			     variable_name((v), name_, sizeof(name_)),      \
			     __VA_ARGS__);                                  \
	} while (0)

/* The index of the variable named by `params`, added if new. */
static opver_status find_or_add(opver__variables *vars,
				const opver_var_handle_params *params,
				int32_t *index)
{
	variable *grown;

	for (int32_t i = 0; i < vars->count; i++) {
		if (strcmp(vars->vars[i].container, params->container) == 0 &&
		    strcmp(vars->vars[i].shared_name, params->shared_name) ==
			    0) {
			*index = i;
			return OPVER_OK;
		}
	}
	if (vars->count == vars->capacity) {
		/* At most one variable per VAR_HANDLE node: int32 counts. */
		int32_t capacity = vars->capacity ? 2 * vars->capacity : 4;

		grown = realloc(vars->vars, (size_t)capacity * sizeof(*grown));
		if (grown == NULL)
			return OPVER_ERROR_NOMEM;
		vars->vars = grown;
		vars->capacity = capacity;
	}
	vars->vars[vars->count] = (variable){
		.container = params->container,
		.shared_name = params->shared_name,
		.declared_node = -1,
	};
	*index = vars->count++;
	return OPVER_OK;
}

void opver__variable_writers(const opver__graph *graph, int32_t *writers)
{
	for (int32_t t = 0; t < graph->num_tensors; t++)
		writers[t] = -2;        /* no writer yet */
	for (int32_t n = 0; n < graph->num_nodes; n++)
		for (int32_t o = 0; o < graph->nodes[n].num_outputs; o++) {
			int32_t *w = &writers[graph->nodes[n].outputs[o]];

			*w = *w == -2 ? n : -1;
		}
	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (writers[t] == -2)
			writers[t] = -1;
}

/* The variable of the VAR_HANDLE that alone writes `tensor`, before the
 * site's node; else -1 (the handle comes from elsewhere: a subgraph
 * input, a WHILE's loop value). */
static int32_t static_handle(const opver__variable_site *site,
			     int32_t tensor)
{
	int32_t writer = site->writers[tensor];

	if (writer < 0 || writer >= site->index ||
	    site->graph->nodes[writer].op != OPVER_OP_VAR_HANDLE)
		return -1;
	return site->handles[writer];
}

/* Every node prepare can tie to a variable uses it with one type. */
static opver_status declare_type(opver__variables *vars,
				 const opver__variable_site *site,
				 int32_t handle, int32_t type)
{
	variable *v = &vars->vars[handle];

	if (v->declared_node < 0) {
		v->declared_type = type;
		v->declared_node = site->index;
		v->declared_subgraph = site->subgraph;
		return OPVER_OK;
	}
	if (v->declared_type == type)
		return OPVER_OK;
	NODE_ERROR(vars, site, v,
		   "is %s here, but node %d of subgraph %d uses it as %s; a variable keeps the type of its first value",
		   opver_type_name(type), (int)v->declared_node,
		   (int)v->declared_subgraph,
		   opver_type_name(v->declared_type));
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status opver__variables_prepare(opver__variables *vars,
				      const opver__variable_site *site,
				      const opver_node *node)
{
	const opver__graph_node *source = &site->graph->nodes[site->index];
	const opver_tensor *handle_tensor;
	int32_t handle;

	if (source->op == OPVER_OP_VAR_HANDLE)
		return find_or_add(vars, source->params,
				   &site->handles[site->index]);
	/* The reader checked the model's shape; a resized input may have
	 * another. */
	handle_tensor = node->inputs[0];
	if (handle_tensor->bytes != sizeof(int32_t)) {
		opver__error(vars->reporter,
			     "node %d (%s) of subgraph %d: input 0, the handle, has %zu elements; a handle names one variable, so it has one",
			     (int)site->index, opver_op_name(source->op),
			     (int)site->subgraph,
			     handle_tensor->bytes / sizeof(int32_t));
		return OPVER_ERROR_INVALID_MODEL;
	}
	handle = static_handle(site, source->inputs[0]);
	if (handle < 0)
		return OPVER_OK;
	return declare_type(vars, site, handle,
			    source->op == OPVER_OP_READ_VARIABLE ?
				    node->outputs[0]->type :
				    node->inputs[1]->type);
}

/* The variable input 0's handle names, or NULL, reported. */
static variable *handle_variable(opver__variables *vars,
				 const opver__variable_site *site,
				 const opver_node *node)
{
	int32_t handle;

	memcpy(&handle, node->inputs[0]->data, sizeof(handle));
	if (handle >= 0 && handle < vars->count)
		return &vars->vars[handle];
	opver__error(vars->reporter,
		     "node %d (%s) of subgraph %d: input 0 holds handle %d, which names no variable (the model's VAR_HANDLE nodes name %d)",
		     (int)site->index,
		     opver_op_name(site->graph->nodes[site->index].op),
		     (int)site->subgraph, (int)handle, (int)vars->count);
	return NULL;
}

/* Charges a value of `bytes` for `v` in place of its old value's. */
static opver_status charge_value(opver__variables *vars,
				 const opver__variable_site *site,
				 const variable *v, size_t bytes)
{
	char what[320], name[160];

	snprintf(what, sizeof(what),
		 "node %d (%s) of subgraph %d: the value of variable %s",
		 (int)site->index,
		 opver_op_name(site->graph->nodes[site->index].op),
		 (int)site->subgraph, variable_name(v, name, sizeof(name)));
	return opver__budget_charge(vars->budget, bytes, v->bytes,
				    vars->reporter, what);
}

static opver_status assign(opver__variables *vars,
			   const opver__variable_site *site, variable *v,
			   const opver_tensor *value)
{
	const bool new_data = !v->assigned || v->bytes != value->bytes;
	const bool new_dims =
		!v->assigned ||
		!opver__same_dims(v->rank, v->dims, value->rank, value->dims);
	uint8_t *data = v->data;
	int32_t *dims = v->dims;

	if (v->assigned && v->type != value->type) {
		NODE_ERROR(vars, site, v,
			   "holds %s; a value of %s would change its type, which opver refuses",
			   opver_type_name(v->type),
			   opver_type_name(value->type));
		return OPVER_ERROR;
	}
	/* A new shape or size, as TFLite allows: new memory first (the
	 * value is within max_tensor_bytes, a copy of a tensor), charged in
	 * place of the old, so a failure leaves the old value whole. */
	if (new_data)
		data = malloc(value->bytes > 0 ? value->bytes : 1);
	if (new_dims)
		dims = malloc((size_t)(value->rank > 0 ? value->rank : 1) *
			      sizeof(*dims));
	if (data == NULL || dims == NULL ||
	    (new_data &&
	     charge_value(vars, site, v, value->bytes) != OPVER_OK)) {
		if (new_data)
			free(data);
		if (new_dims)
			free(dims);
		return OPVER_ERROR_NOMEM;
	}
	if (new_data) {
		free(v->data);
		v->data = data;
		v->bytes = value->bytes;
	}
	if (new_dims) {
		if (value->rank > 0)
			memcpy(dims, value->dims,
			       (size_t)value->rank * sizeof(*dims));
		free(v->dims);
		v->dims = dims;
		v->rank = value->rank;
	}
	if (value->bytes > 0)
		memcpy(v->data, value->data, value->bytes);
	v->type = value->type;
	v->assigned = true;
	return OPVER_OK;
}

static opver_status read_value(opver__variables *vars,
			       const opver__variable_site *site,
			       const variable *v, opver_tensor *out)
{
	char have[96], want[96];
	opver__text text;

	if (!v->assigned) {
		NODE_ERROR(vars, site, v, "%s",
			   "is read before any ASSIGN_VARIABLE gave it a value (the model's initialisation, usually a CALL_ONCE subgraph, did not run or did not assign it)");
		return OPVER_ERROR;
	}
	if (v->type != out->type) {
		NODE_ERROR(vars, site, v, "holds %s, but the output is %s",
			   opver_type_name(v->type),
			   opver_type_name(out->type));
		return OPVER_ERROR;
	}
	if (!opver__same_dims(v->rank, v->dims, out->rank, out->dims)) {
		opver__text_init(&text, have, sizeof(have));
		opver__text_dims(&text, v->rank, v->dims);
		opver__text_init(&text, want, sizeof(want));
		opver__text_dims(&text, out->rank, out->dims);
		NODE_ERROR(vars, site, v,
			   "has shape %s, but the output has shape %s; opver does not reshape outputs while invoking",
			   have, want);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (v->bytes > 0)
		memcpy(out->data, v->data, v->bytes);
	return OPVER_OK;
}

opver_status opver__variables_invoke(opver__variables *vars,
				     const opver__variable_site *site,
				     const opver_node *node)
{
	int32_t op = site->graph->nodes[site->index].op;
	variable *v;

	if (op == OPVER_OP_VAR_HANDLE) {
		memcpy(node->outputs[0]->data, &site->handles[site->index],
		       sizeof(int32_t));
		return OPVER_OK;
	}
	v = handle_variable(vars, site, node);
	if (v == NULL)
		return OPVER_ERROR;
	if (op == OPVER_OP_READ_VARIABLE)
		return read_value(vars, site, v, node->outputs[0]);
	return assign(vars, site, v, node->inputs[1]);
}

void opver__variables_reset(opver__variables *vars)
{
	for (int32_t i = 0; vars != NULL && i < vars->count; i++) {
		variable *v = &vars->vars[i];

		opver__budget_release(vars->budget, v->bytes);
		free(v->data);
		free(v->dims);
		v->data = NULL;
		v->dims = NULL;
		v->rank = 0;
		v->bytes = 0;
		v->assigned = false;
	}
}

void opver__variables_free(opver__variables *vars)
{
	if (vars == NULL)
		return;
	opver__variables_reset(vars);
	free(vars->vars);
	free(vars);
}
