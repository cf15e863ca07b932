/*
 * interpreter_resize.c - giving model inputs new shapes and re-preparing,
 * as TFLite's ResizeInputTensor and AllocateTensors.  Kernels give their
 * outputs the shapes that follow through resize_output (resize.c), which
 * also refuses nodes whose kernel kept the model's output shapes.
 * Delegate partitions are built for the shapes at hand, so allocating
 * re-creates them (interpreter_redelegate.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "interpreter_state.h"
#include "runtime.h"

/* Checks every dimension and the tensor's size; reports what is wrong. */
static opver_status check_dims(const opver_interpreter *it, size_t input,
			       const opver_tensor *tensor, const int32_t *dims,
			       int32_t rank, size_t *bytes)
{
	size_t type_size = opver__element_size(tensor->type);
	uint64_t elements = 1;

	for (int32_t i = 0; i < rank; i++) {
		if (dims[i] < 1) {
			opver__error(&it->runtime->reporter,
				     "resize_input: dimension %d of input %zu ('%s') is %d; every dimension must be at least 1",
				     (int)i, input, tensor->name, (int)dims[i]);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		/* Saturates once past any limit. */
		elements = elements <= UINT64_MAX / (uint64_t)dims[i] ?
			   elements * (uint64_t)dims[i] : UINT64_MAX;
	}
	if (elements > it->max_tensor_bytes / (type_size ? type_size : 1)) {
		opver__error(&it->runtime->reporter,
			     "resize_input: input %zu ('%s') would take more than the %" PRIu64 " bytes allowed for one tensor (max_tensor_bytes in the config, opver-run --max-tensor)",
			     input, tensor->name, it->max_tensor_bytes);
		return OPVER_ERROR_NOMEM;
	}
	*bytes = (size_t)elements * type_size;
	return OPVER_OK;
}

OPVER_API opver_status opver_interpreter_resize_input(opver_interpreter *it,
						      size_t input,
						      const int32_t *dims,
						      int32_t rank)
{
	const opver__graph_tensor *model;
	opver_tensor *tensor;
	int32_t *copy;
	size_t bytes = 0;
	opver_status status;

	if (it->inspect_only) {
		opver__error(&it->runtime->reporter,
			     "resize_input: this interpreter was created for inspection only (inspect_only or prepare_only)");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (input >= (size_t)it->graph->num_inputs || rank < 0 ||
	    (rank > 0 && dims == NULL)) {
		opver__error(&it->runtime->reporter,
			     "resize_input: no input %zu (the model has %d), or no dims for rank %d",
			     input, (int)it->graph->num_inputs, (int)rank);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	tensor = &it->tensors[it->graph->inputs[input]];
	model = &it->graph->tensors[it->graph->inputs[input]];
	if (opver__same_dims(rank, dims, tensor->rank, tensor->dims))
		return OPVER_OK;
	status = check_dims(it, input, tensor, dims, rank, &bytes);
	if (status != OPVER_OK)
		return status;
	/* Its first values are the model's buffer, of the model's size (and
	 * TFLite refuses to resize a tensor with a buffer too). */
	if (model->initial_data != NULL &&
	    !opver__same_dims(rank, dims, model->rank, model->dims)) {
		opver__error(&it->runtime->reporter,
			     "resize_input: input %zu ('%s') starts from the values of a buffer in the model, which fit the model's shape only, and keeps that shape",
			     input, tensor->name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (it->input_dims == NULL) {
		it->input_dims = calloc((size_t)it->graph->num_inputs,
					sizeof(*it->input_dims));
		if (it->input_dims == NULL)
			return OPVER_ERROR_NOMEM;
	}
	copy = malloc((size_t)(rank > 0 ? rank : 1) * sizeof(*copy));
	if (copy == NULL)
		return OPVER_ERROR_NOMEM;
	if (rank > 0)
		memcpy(copy, dims, (size_t)rank * sizeof(*copy));
	free(it->input_dims[input]);
	it->input_dims[input] = copy;
	tensor->rank = rank;
	tensor->dims = copy;
	tensor->bytes = bytes;
	/* Its buffer has the old size until the arena is planned again. */
	tensor->data = NULL;
	it->needs_allocate = true;
	return OPVER_OK;
}

/* Whether some input no longer has the model's shape. */
static bool inputs_resized(const opver_interpreter *it)
{
	for (int32_t i = 0; i < it->graph->num_inputs; i++) {
		const opver_tensor *now = &it->tensors[it->graph->inputs[i]];
		const opver__graph_tensor *model =
			&it->graph->tensors[it->graph->inputs[i]];

		if (!opver__same_dims(now->rank, now->dims, model->rank, model->dims))
			return true;
	}
	return false;
}

/* Back to the state before any prepare: nothing from init or prepare,
 * no arena, every tensor a kernel may reshape with the model's shape. */
static void unprepare(opver_interpreter *it)
{
	/* Partitions first, as destroy does: a delegate's free may read
	 * its persistent memory, which the session frees below. */
	opver__delegation_release(&it->delegation);
	opver__interpreter_release_nodes(it);
	/* Times and profile events describe one plan: the partitions are
	 * new and plan steps may change, so nodes start again too. */
	for (int32_t n = 0; n < it->graph->num_nodes; n++)
		it->nodes[n].total_ns = it->nodes[n].invocations = 0;
	opver__profiler_free(&it->profiler);
	opver__session_free(&it->session);
	free(it->arena);
	it->arena = NULL;
	it->arena_bytes = 0;
	it->naive_bytes = 0;
	for (int32_t t = 0; t < it->graph->num_tensors; t++) {
		opver_tensor *tensor = &it->tensors[t];
		const opver__graph_tensor *model = &it->graph->tensors[t];

		if (tensor->is_constant)
			continue;
		tensor->data = NULL;
		if (!it->resizable[t])
			continue;
		tensor->rank = model->rank;
		tensor->dims = model->dims;
		tensor->bytes = model->bytes;
	}
}

OPVER_API opver_status opver_interpreter_allocate_tensors(
	opver_interpreter *it)
{
	opver_status status;

	if (it->inspect_only) {
		opver__error(&it->runtime->reporter,
			     "allocate_tensors: this interpreter was created for inspection only (inspect_only or prepare_only)");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (!it->needs_allocate)
		return OPVER_OK;
	unprepare(it);
	it->session.inputs_resized = inputs_resized(it);
	status = opver__interpreter_redelegate(it);
	if (status == OPVER_OK)
		status = opver__interpreter_prepare_all(it);
	if (status == OPVER_OK)
		status = opver__interpreter_plan_arena(
			it, true, it->preserve_intermediates);
	if (status == OPVER_OK)
		status = opver__delegation_bind_memory(&it->delegation);
	if (status == OPVER_OK) {
		it->needs_allocate = false;
		return OPVER_OK;
	}
	if (it->session.inputs_resized)
		opver__error(&it->runtime->reporter,
			     "allocate_tensors: the model cannot run with its inputs' new shapes; resize them back to allocate again");
	else
		opver__error(&it->runtime->reporter,
			     "allocate_tensors: the model cannot run with its own input shapes (see above)");
	/* What prepared before the refusal is freed at the next try. */
	return status == OPVER_ERROR_NOMEM ? status
					   : OPVER_ERROR_INVALID_ARGUMENT;
}

opver_status opver__interpreter_check_allocated(const opver_interpreter *it)
{
	if (!it->needs_allocate)
		return OPVER_OK;
	opver__error(&it->runtime->reporter,
		     "an input was resized: call opver_interpreter_allocate_tensors() (Python: allocate_tensors()) before writing the inputs and invoking");
	return OPVER_ERROR_INVALID_ARGUMENT;
}

void opver__interpreter_free_resized(opver_interpreter *it)
{
	opver__interpreter_free_kept_shapes(it);
	for (int32_t i = 0; it->input_dims != NULL &&
			    i < it->graph->num_inputs; i++)
		free(it->input_dims[i]);
	free(it->input_dims);
}
