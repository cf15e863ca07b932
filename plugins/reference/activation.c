/*
 * activation.c - the node check every one-input activation shares.
 */
#include "activation.h"
#include "node_checks.h"
#include "quantization.h"

opver_status ref_activation_check(const opver_context *ctx,
				  const opver_node *node,
				  const opver_kernel *kernel,
				  ref_activation_quant *quant)
{
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1,
				 "an activation takes one input and one output");
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "input", node->inputs[0],
					    kernel->signatures[0].inputs[0]);
	if (status == OPVER_OK)
		status = ref_check_unary(ctx, node, node->inputs[0]->type,
					 node->inputs[0]->type,
					 "an activation takes one input and one output");
	if (status != OPVER_OK || quant == NULL)
		return status;
	status = ref_per_tensor_quantization(ctx, "input", node->inputs[0],
					     &quant->input_scale,
					     &quant->input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output",
						     node->outputs[0],
						     &quant->output_scale,
						     &quant->output_zero);
	return status;
}
