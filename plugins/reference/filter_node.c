/* filter_node.c - the checks of a filter op's tensors (filter_node.h). */
#include "filter_node.h"
#include "node_checks.h"
#include "quantization.h"

opver_status ref_filter_node_get(const opver_context *ctx,
				 const opver_node *node, int32_t activation,
				 const char *usage, const char *filter,
				 const opver_type_signature *types,
				 ref_filter_tensors *t)
{
	opver_status status;

	status = ref_expect_clamp_activation(ctx, activation);
	if (status == OPVER_OK)
		status = ref_check_arity(ctx, node, 2, 3, 1, usage);
	if (status != OPVER_OK)
		return status;
	t->input = node->inputs[REF_FILTER_INPUT];
	t->filter = node->inputs[REF_FILTER_FILTER];
	t->bias = node->num_inputs > REF_FILTER_BIAS
			  ? node->inputs[REF_FILTER_BIAS]
			  : NULL;
	t->output = node->outputs[0];
	status = ref_expect_type_in(ctx, "input", t->input,
				    types->inputs[REF_FILTER_INPUT]);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, filter, t->filter,
					    types->inputs[REF_FILTER_FILTER]);
	if (status == OPVER_OK && t->bias != NULL)
		status = ref_expect_type_in(ctx, "bias", t->bias,
					    types->inputs[REF_FILTER_BIAS]);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "output", t->output,
					    types->output);
	return status;
}

opver_status ref_check_bias_size(const opver_context *ctx,
				 const opver_tensor *bias, size_t channels,
				 const char *holder, const char *unit)
{
	if (bias == NULL || opver_tensor_elements(bias) == channels)
		return OPVER_OK;
	OPVER_REPORT(ctx, "bias '%s' has %zu elements; %s %zu %s", bias->name,
		     opver_tensor_elements(bias), holder, channels, unit);
	return OPVER_ERROR_INVALID_MODEL;
}
