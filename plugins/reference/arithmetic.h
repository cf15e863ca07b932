/*
 * arithmetic.h - what the arithmetic ops with a fused activation (ADD, SUB,
 * MUL, DIV) share: the activation must be a clamp, and their float32 and
 * int32 kernels keep the broadcast plan and the clamp as op data.  Also
 * REF_BROADCAST_INVOKE(), the invoke of any kernel that walks a broadcast
 * plan.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_ARITHMETIC_H
#define OPVER_REFERENCE_ARITHMETIC_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "broadcast.h"

/* The op data of a float32 kernel: the plan and the activation's clamp. */
typedef struct ref_arithmetic_float32 {
	ref_broadcast plan;
	float activation_min;
	float activation_max;
} ref_arithmetic_float32;

/* The op data of an int32 kernel: the plan and the activation's clamp. */
typedef struct ref_arithmetic_int32 {
	ref_broadcast plan;
	int32_t activation_min;
	int32_t activation_max;
} ref_arithmetic_int32;

/* The op data of an int64 kernel: the plan and the activation's clamp. */
typedef struct ref_arithmetic_int64 {
	ref_broadcast plan;
	int64_t activation_min;
	int64_t activation_max;
} ref_arithmetic_int64;

/*
 * ref_binary_prepare() for an op whose fused `activation` (an
 * opver_activation) must be a clamp: reports and fails otherwise.  `op`
 * names the op in messages ("SUB").
 */
opver_status ref_arithmetic_prepare(const opver_context *ctx,
				    const opver_node *node, opver_type type,
				    const char *op, int32_t activation,
				    ref_broadcast *plan);

/* ref_arithmetic_prepare() for float32 tensors; fills *data. */
opver_status ref_arithmetic_float32_prepare(const opver_context *ctx,
					    const opver_node *node,
					    const char *op, int32_t activation,
					    ref_arithmetic_float32 *data);

/* ref_arithmetic_prepare() for int32 tensors, which clamp like a
 * quantization of scale 1 and zero point 0; fills *data. */
opver_status ref_arithmetic_int32_prepare(const opver_context *ctx,
					  const opver_node *node,
					  const char *op, int32_t activation,
					  ref_arithmetic_int32 *data);

/* ref_arithmetic_prepare() for int64 tensors, which clamp over int64's
 * range as TFLite's CalculateActivationRange does; fills *data. */
opver_status ref_arithmetic_int64_prepare(const opver_context *ctx,
					  const opver_node *node,
					  const char *op, int32_t activation,
					  ref_arithmetic_int64 *data);

static inline int64_t ref_clamp_int64(int64_t x, int64_t min, int64_t max)
{
	return x < min ? min : x > max ? max : x;
}

/* Reports that element `index` of the node's input 2 is a zero divisor,
 * which `op` ("DIV") refuses; returns the error invoke returns. */
opver_status ref_report_zero_divisor(const opver_context *ctx,
				     const opver_node *node, const char *op,
				     size_t index);

/*
 * Defines
 *   static opver_status name(const opver_context *ctx, opver_node *node)
 * which runs `apply` (a REF_BROADCAST_DEFINE() walk) over the node's two
 * inputs and its output.  The op data is a `data_type` whose member `plan`
 * is the walk's plan; `arg` is what the element function gets, an
 * expression of `data`, the op data (data itself, or &data->member).
 */
#define REF_BROADCAST_INVOKE(name, apply, data_type, arg)                   \
	static opver_status name(const opver_context *ctx, opver_node *node) \
	{                                                                    \
		const data_type *data = node->op_data;                       \
                                                                             \
		(void)ctx;                                                   \
		apply(&data->plan, node->inputs[0]->data,                    \
		      node->inputs[1]->data, node->outputs[0]->data, arg);   \
		return OPVER_OK;                                             \
	}

#endif /* OPVER_REFERENCE_ARITHMETIC_H */
