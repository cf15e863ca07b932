/*
 * claims.h - what the XNNPACK delegate runs: its typed claims (op, version
 * range, float32, int8 and uint8 signatures) and, per node, why it leaves
 * a node to the kernels when XNNPACK would not compute it as TensorFlow
 * Lite does.
 */
#ifndef OPVER_XNNPACK_CLAIMS_H
#define OPVER_XNNPACK_CLAIMS_H

#include <stddef.h>

#include <opver/plugin.h>

/* Dimensions an XNNPACK value may have (XNN_MAX_TENSOR_DIMS). */
#define XP_MAX_DIMS 6

#define XP_NUM_CLAIMS 60
extern const opver_delegate_op *const xp_claims[XP_NUM_CLAIMS];

/*
 * NULL when the delegate runs `node` (at its resolved version, with its
 * types and parameters); otherwise why not, formatted into buf (size bytes)
 * and returned.
 */
const char *xp_refusal(const opver_node *node, char *buf, size_t size);

/* Facts of the per-op checks that building the subgraph uses too
 * (refusals.c). */

/*
 * Whether a 4D AVERAGE_POOL_2D's window is its whole input (one output
 * pixel, no padding counted): XNNPACK's global average pooling, which
 * TFLite's quantized average computes too, rounding ties otherwise.
 */
bool xp_is_global_pool(const opver_node *node);

/* The input holding the node's values: TRANSPOSE_CONV's 2 (after its
 * output_shape and filter), every other op's 0. */
int32_t xp_value_input(const opver_node *node);

/*
 * One spatial axis of a TRANSPOSE_CONV as an XNNPACK deconvolution:
 * TFLite's padding (that of a convolution over the output, cropping the
 * output's start) and what crops (`after`) or extends (`adjustment`, below
 * the stride) its end so that the output has the size output_shape gives.
 */
typedef struct xp_deconv_axis {
	uint32_t before, after, adjustment;
} xp_deconv_axis;

/* False when the convolution over the output (TFLite's padding) does
 * not give `in` windows: an output_shape TFLite's optimized kernel
 * computes otherwise than its reference kernel. */
bool xp_deconv_axis_of(int32_t padding, int32_t in, int32_t kernel,
		       int32_t stride, int32_t out, xp_deconv_axis *axis);

/* The output clamp of a fused activation; false for one XNNPACK lacks. */
bool xp_activation_range(int32_t activation, float *min, float *max);

#endif /* OPVER_XNNPACK_CLAIMS_H */
