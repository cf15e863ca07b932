/*
 * filter_node.h - the node of an op that applies a filter: CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED (whose filter is its "weights").
 * Each takes an input, a filter and an optional bias and gives one output,
 * each output channel being a sum over the filter plus that channel's bias.
 *
 *   ref_filter_tensors   the node's four tensors, collected and checked
 *                        with the fused activation (ref_filter_node_get)
 *   ref_check_bias_size  one bias element per output channel
 *   ref_bias_data        the bias's values at invoke, NULL without one
 *   ref_float_output     the float kernels' output stage: bias, clamp
 *   REF_FILTER_SIGNATURE a kernel's type signature
 *
 * The integer output stage is requantize.h's; the hybrid kernels' input
 * quantization is hybrid.h's.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_FILTER_NODE_H
#define OPVER_REFERENCE_FILTER_NODE_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "quantization.h"

/* Positions of the node's inputs. */
enum { REF_FILTER_INPUT = 0, REF_FILTER_FILTER = 1, REF_FILTER_BIAS = 2 };

/* The node's tensors, borrowed from it; bias is NULL when omitted. */
typedef struct ref_filter_tensors {
	const opver_tensor *input;
	const opver_tensor *filter;
	const opver_tensor *bias;
	const opver_tensor *output;
} ref_filter_tensors;

/*
 * What every filter op's kernel checks before the shapes: that the fused
 * `activation` is a clamp (ref_expect_clamp_activation()), that the node
 * has an input, a filter, an optional bias and one output (`usage` says so
 * in the message, as for ref_check_arity()), and their types, in that
 * order, against `types`, the kernel's signature (REF_FILTER_SIGNATURE).
 * Collects the tensors into *t.  `filter` names the filter in messages
 * ("filter", "weights").
 */
opver_status ref_filter_node_get(const opver_context *ctx,
				 const opver_node *node, int32_t activation,
				 const char *usage, const char *filter,
				 const opver_type_signature *types,
				 ref_filter_tensors *t);

/*
 * Checks that the bias, when there is one, has `channels` elements; the
 * message ends "; <holder> <channels> <unit>" ("; the filter has 4 output
 * channels").
 */
opver_status ref_check_bias_size(const opver_context *ctx,
				 const opver_tensor *bias, size_t channels,
				 const char *holder, const char *unit);

/* At invoke, the bias's values, or NULL when the node has none.  Borrowed
 * from the core; valid during the invoke. */
static inline const void *ref_bias_data(const opver_node *node)
{
	return node->num_inputs > REF_FILTER_BIAS &&
			       node->inputs[REF_FILTER_BIAS] != NULL
		       ? node->inputs[REF_FILTER_BIAS]->data
		       : NULL;
}

/* The float output of `channel`: its sum plus its bias (none when `bias`
 * is NULL), clamped to the fused activation's [min, max]. */
static inline float ref_float_output(float sum, const float *bias,
				     size_t channel, float min, float max)
{
	return ref_clamp_float(sum + (bias != NULL ? bias[channel] : 0.0f),
			       min, max);
}

/* The type signature of a kernel taking `input`, `filter` (type names:
 * INT8) and an optional bias of the types in `bias` (a mask:
 * OPVER_T(INT32)), giving `output`. */
#define REF_FILTER_SIGNATURE(input, filter, bias, output)                 \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(input), OPVER_T(filter),      \
				     (bias) | OPVER_TYPE_BIT_ABSENT),        \
			OPVER_OUTPUT(OPVER_T(output)))

#endif /* OPVER_REFERENCE_FILTER_NODE_H */
