/*
 * interpreter_invoke.c - opver_interpreter_invoke(): the plan's steps in
 * order (nodes on their kernels, partitions on their delegates, control
 * flow in the core), each timed, profiled and traced.
 */
#include "dynamic.h"
#include "interpreter_state.h"
#include "runtime.h"

/* Runs node n on its kernel, after making its inputs current. */
static opver_status invoke_node(opver_interpreter *it, int32_t n)
{
	node_state *state = &it->nodes[n];
	const opver__graph_node *node = &it->graph->nodes[n];
	opver_status status;

	for (int32_t i = 0; it->delegation.held != NULL && i < node->num_inputs;
	     i++) {
		if (node->inputs[i] < 0)
			continue;
		status = opver__delegation_fetch(&it->delegation,
						 node->inputs[i], NULL);
		if (status != OPVER_OK)
			return status;
	}
	if (opver__control_node(node))
		return opver__control_invoke(it->control, n, &state->node);
	if (state->deferred) {
		status = opver__interpreter_prepare_deferred(it, state);
		if (status != OPVER_OK)
			return status;
	}
	status = state->binding.chosen->kernel->invoke(&state->call.context,
						       &state->node);
	if (status != OPVER_OK)
		return opver__call_failed(&state->call, "invoke", status);
	return opver__dynamic_check_outputs(&state->call);
}

/* Ends what the step's plugin left open, and traces the step. */
static void end_profiled_step(opver__profiler *profiler,
			      const opver__step *step, uint64_t start,
			      uint64_t elapsed)
{
	opver__profiler_end_step(profiler);
	if (profiler->trace != NULL)
		opver__profiler_trace(profiler, &(opver_trace_event){
			.kind = step->partition >= 0 ? OPVER_TRACE_PARTITION :
						       OPVER_TRACE_NODE,
			.node = step->node,
			.partition = step->partition,
			.start_ns = start,
			.duration_ns = elapsed,
		});
}

/* Runs the plan's steps in order, timing each. */
static opver_status run_steps(opver_interpreter *it)
{
	opver_status status = OPVER_OK;

	for (int32_t s = 0; s < it->delegation.num_steps && status == OPVER_OK;
	     s++) {
		const opver__step *step = &it->delegation.steps[s];
		uint64_t start = opver__now_ns(), elapsed;

		if (step->partition >= 0)
			status = opver__partition_invoke(&it->delegation,
							 step->partition);
		else
			status = invoke_node(it, step->node);
		elapsed = opver__now_ns() - start;
		if (it->session.profiler != NULL)
			end_profiled_step(it->session.profiler, step, start,
					  elapsed);
		if (step->partition >= 0) {
			it->delegation.partitions[step->partition].total_ns += elapsed;
			it->delegation.partitions[step->partition].invocations++;
		} else {
			it->nodes[step->node].total_ns += elapsed;
			it->nodes[step->node].invocations++;
		}
	}
	/* What a delegate holds of the outputs, the application reads. */
	for (int32_t i = 0; status == OPVER_OK && i < it->graph->num_outputs; i++)
		status = opver__delegation_fetch(&it->delegation,
						 it->graph->outputs[i], NULL);
	return status;
}

OPVER_API opver_status opver_interpreter_invoke(opver_interpreter *it)
{
	opver_status status;

	if (it->inspect_only) {
		opver__error(&it->runtime->reporter,
			     "this interpreter was created for inspection only (inspect_only or prepare_only); create another to run the model");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	status = opver__interpreter_check_allocated(it);
	if (status != OPVER_OK)
		return status;
	opver__control_begin_invoke(it->control);
	it->session.phase = OPVER__PHASE_INVOKE;
	it->session.at_invoke = true;
	opver__session_rewind(&it->session);
	opver__dynamic_begin_invoke(&it->session);
	status = run_steps(it);
	it->session.at_invoke = false;
	it->session.phase = OPVER__PHASE_IDLE;
	return status;
}
