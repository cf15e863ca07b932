/* kernel_match.c - type-signature matching of kernels against nodes and
 * against each other. */
#include <string.h>

#include "kernel_match.h"

const char *opver__op_label(int32_t op, const char *custom_name)
{
	return op == OPVER_OP_CUSTOM ? custom_name : opver_op_name(op);
}

const char *opver__node_label(const opver__graph_node *node)
{
	return opver__op_label(node->op, node->custom_name);
}

bool opver__same_op(int32_t op_a, const char *custom_a, int32_t op_b,
		    const char *custom_b)
{
	if (op_a != op_b)
		return false;
	if (op_a != OPVER_OP_CUSTOM)
		return true;
	return custom_a != NULL && custom_b != NULL &&
	       strcmp(custom_a, custom_b) == 0;
}

/* Whether a mask accepts a type, -1 standing for an omitted input. */
static bool mask_accepts(uint32_t mask, int32_t type)
{
	if (mask == 0)
		return true;
	if (type < 0)
		return (mask & OPVER_TYPE_BIT_ABSENT) != 0;
	return opver_type_mask_has(mask, type);
}

static int32_t tensor_type(const opver__graph *graph, int32_t tensor)
{
	return tensor < 0 ? -1 : (int32_t)graph->tensors[tensor].type;
}

static bool signature_accepts(const opver_type_signature *signature,
			      const opver__graph *graph,
			      const opver__graph_node *node)
{
	for (int i = 0; i < OPVER_SIGNATURE_INPUTS; i++) {
		int32_t type = i < node->num_inputs ?
			tensor_type(graph, node->inputs[i]) : -1;

		if (!mask_accepts(signature->inputs[i], type))
			return false;
	}
	return node->num_outputs == 0 ||
	       mask_accepts(signature->output,
			    tensor_type(graph, node->outputs[0]));
}

bool opver__signatures_accept(const opver_type_signature *signatures,
			      uint32_t count, const opver__graph *graph,
			      const opver__graph_node *node)
{
	if (count == 0)
		return true;
	for (uint32_t i = 0; i < count; i++)
		if (signature_accepts(&signatures[i], graph, node))
			return true;
	return false;
}

bool opver__kernel_accepts_types(const opver_kernel *kernel,
				 const opver__graph *graph,
				 const opver__graph_node *node)
{
	return opver__same_op(kernel->op, kernel->custom_name, node->op,
			      node->custom_name) &&
	       opver__signatures_accept(kernel->signatures,
					kernel->num_signatures, graph, node);
}

/* Two masks can accept one value: either accepts anything, or they share a
 * bit. */
static bool masks_intersect(uint32_t a, uint32_t b)
{
	return a == 0 || b == 0 || (a & b) != 0;
}

static bool signatures_intersect(const opver_type_signature *a,
				 const opver_type_signature *b)
{
	for (int i = 0; i < OPVER_SIGNATURE_INPUTS; i++)
		if (!masks_intersect(a->inputs[i], b->inputs[i]))
			return false;
	return masks_intersect(a->output, b->output);
}

bool opver__kernels_overlap(const opver_kernel *a, const opver_kernel *b)
{
	static const opver_type_signature any;
	uint32_t count_a = a->num_signatures ? a->num_signatures : 1;
	uint32_t count_b = b->num_signatures ? b->num_signatures : 1;

	if (!opver__same_op(a->op, a->custom_name, b->op, b->custom_name))
		return false;
	if (a->max_version < b->min_version || b->max_version < a->min_version)
		return false;
	for (uint32_t i = 0; i < count_a; i++) {
		const opver_type_signature *sa =
			a->num_signatures ? &a->signatures[i] : &any;

		for (uint32_t j = 0; j < count_b; j++) {
			const opver_type_signature *sb =
				b->num_signatures ? &b->signatures[j] : &any;

			if (signatures_intersect(sa, sb))
				return true;
		}
	}
	return false;
}

/* Appends "INT8|INT16" (or "any") for one mask. */
static void format_mask(opver__text *text, uint32_t mask)
{
	const char *separator = "";

	if (mask == 0) {
		opver__text_append(text, "any");
		return;
	}
	for (int type = 0; type < OPVER_TYPE_COUNT; type++) {
		if (mask & OPVER_TYPE_BIT(type)) {
			opver__text_append(text, "%s%s", separator,
					   opver_type_name(type));
			separator = "|";
		}
	}
	if (mask & OPVER_TYPE_BIT_ABSENT)
		opver__text_append(text, "%sabsent", separator);
}

void opver__format_signatures(const opver_type_signature *signatures,
			      uint32_t count, opver__text *text)
{
	if (count == 0) {
		opver__text_append(text, "any types");
		return;
	}
	for (uint32_t s = 0; s < count; s++) {
		const opver_type_signature *signature = &signatures[s];
		int last = OPVER_SIGNATURE_INPUTS - 1;

		/* Trailing unconstrained positions say nothing: leave them out. */
		while (last > 0 && signature->inputs[last] == 0)
			last--;
		opver__text_append(text, "%s(", s > 0 ? ", " : "");
		for (int i = 0; i <= last; i++) {
			if (i > 0)
				opver__text_append(text, ",");
			format_mask(text, signature->inputs[i]);
		}
		opver__text_append(text, " -> ");
		format_mask(text, signature->output);
		opver__text_append(text, ")");
	}
}
