/*
 * interpreter_redelegate.c - delegate partitions for resized inputs, as
 * TFLite undoes its delegates, prepares on its kernels and applies the
 * delegates again.  The partitions are freed; every node is prepared on
 * a kernel, so the new shapes follow through resize_output; those shapes
 * are kept; then the delegates claim again on them (a shape may change
 * what a delegate takes) and their new partitions get init and prepare,
 * as at creation.  A delegate needs no callback beyond ABI 2.0's for it.
 */
#include <stdlib.h>
#include <string.h>

#include "interpreter_state.h"
#include "kernel_match.h"
#include "runtime.h"

static bool delegates_loaded(const opver__registry *registry)
{
	for (size_t p = 0; p < registry->num_plugins; p++)
		if (registry->plugins[p]->has_delegate)
			return true;
	return false;
}

static void discard(void *user_data, opver_log_level level,
		    const char *message)
{
	(void)user_data;
	(void)level;
	(void)message;
}

/* A kernel shapes each delegated node's outputs: refuses, naming the
 * delegate, a node that no kernel handles. */
static opver_status check_kernels(const opver_interpreter *it)
{
	const opver_runtime *runtime = it->runtime;
	const opver__reporter quiet = { .log = discard };

	/* None after a build that ran out of memory. */
	for (int32_t n = 0; it->delegation.node_partition != NULL &&
			    n < it->graph->num_nodes; n++) {
		int32_t p = it->delegation.node_partition[n];
		const opver__partition *partition;
		opver__binding binding;

		if (p < 0 || opver__resolve_node(&runtime->registry, it->graph,
						 n, runtime->strict,
						 runtime->strict_versions,
						 &quiet, &binding) == OPVER_OK)
			continue;
		partition = &it->delegation.partitions[p];
		opver__error(&runtime->reporter,
			     "allocate_tensors: node %d (%s) runs on delegate '%s' of plugin '%s', and no kernel handles it: a delegate's nodes take their new shapes from their kernels' prepare, so this model cannot run with resized inputs under this config; resize the inputs back, or add a plugin with a kernel for it",
			     (int)n, opver__node_label(&it->graph->nodes[n]),
			     partition->call.runner, partition->call.plugin);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

/* Builds the plan with `num_plugins` of the runtime's plugins' delegates
 * (none: every node on a kernel), which tensors kernels may reshape, and
 * the kernels of the nodes no partition takes. */
static opver_status plan(opver_interpreter *it, size_t num_plugins)
{
	const opver_runtime *runtime = it->runtime;
	uint8_t *resizable;
	opver_status status;

	opver__delegation_free(&it->delegation);
	/* Queries must not reach the freed partitions if the build fails. */
	for (int32_t n = 0; n < it->graph->num_nodes; n++)
		it->nodes[n].partition = -1;
	status = opver__delegation_build(runtime->registry.plugins,
					 num_plugins, it->graph, &it->view,
					 runtime->strict_versions, &it->session,
					 &runtime->reporter, &it->delegation);
	if (status != OPVER_OK)
		return status;
	/* unprepare reads the old flags until there are new ones. */
	resizable = opver__resizable_tensors(it->graph, it->tensors,
					     it->delegation.node_partition);
	if (resizable == NULL)
		return OPVER_ERROR_NOMEM;
	free(it->resizable);
	it->resizable = resizable;
	it->session.resizable = resizable;
	return opver__interpreter_resolve_nodes(it, OPVER_LOG_ERROR);
}

void opver__interpreter_free_kept_shapes(opver_interpreter *it)
{
	for (int32_t t = 0; it->kept_dims != NULL &&
			    t < it->graph->num_tensors; t++)
		free(it->kept_dims[t]);
	free(it->kept_dims);
	it->kept_dims = NULL;
}

/* The tensors whose shapes were kept back to the model's shapes (unprepare
 * resets only those kernels may reshape), and the kept shapes freed. */
static void reset_kept_shapes(opver_interpreter *it)
{
	for (int32_t t = 0; it->kept_dims != NULL &&
			    t < it->graph->num_tensors; t++) {
		const opver__graph_tensor *model = &it->graph->tensors[t];

		if (it->kept_dims[t] == NULL)
			continue;
		it->tensors[t].rank = model->rank;
		it->tensors[t].dims = model->dims;
		it->tensors[t].bytes = model->bytes;
	}
	opver__interpreter_free_kept_shapes(it);
}

/* Copies every shape a kernel's prepare gave (resize_output's, in the
 * session's memory) into kept_dims, for the partitions to see after the
 * session is freed. */
static opver_status keep_shapes(opver_interpreter *it)
{
	it->kept_dims = calloc((size_t)it->graph->num_tensors + 1,
			       sizeof(*it->kept_dims));
	if (it->kept_dims == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t t = 0; t < it->graph->num_tensors; t++) {
		opver_tensor *tensor = &it->tensors[t];
		int32_t *copy;

		if (!it->resizable[t] ||
		    tensor->dims == it->graph->tensors[t].dims)
			continue;
		copy = malloc((size_t)(tensor->rank > 0 ? tensor->rank : 1) *
			      sizeof(*copy));
		if (copy == NULL)
			return OPVER_ERROR_NOMEM;
		if (tensor->rank > 0)
			memcpy(copy, tensor->dims,
			       (size_t)tensor->rank * sizeof(*copy));
		it->kept_dims[t] = copy;
		tensor->dims = copy;
	}
	return OPVER_OK;
}

opver_status opver__interpreter_redelegate(opver_interpreter *it)
{
	const opver__registry *registry = &it->runtime->registry;
	opver_status status = OPVER_OK;

	if (!delegates_loaded(registry))
		return OPVER_OK;
	if (it->session.inputs_resized)
		status = check_kernels(it);
	if (status != OPVER_OK)
		return status;
	reset_kept_shapes(it);
	if (it->session.inputs_resized) {
		status = plan(it, 0);
		if (status == OPVER_OK)
			status = opver__interpreter_prepare_all(it);
		if (status == OPVER_OK)
			status = keep_shapes(it);
		/* On failure the next allocation frees what was prepared
		 * (unprepare); the tensors' dims stay valid till then. */
		if (status != OPVER_OK)
			return status;
		opver__interpreter_release_nodes(it);
		opver__session_free(&it->session);
	}
	return plan(it, registry->num_plugins);
}
