/*
 * maximum_minimum.c - MAXIMUM and MINIMUM, float32, uint8, int8, int16 and
 * int32, broadcasting as TFLite does (broadcast.h), computed as TensorFlow
 * Lite's kernels compute them: the larger (smaller) of the two stored
 * values, a > b ? a : b (a < b ? a : b), so a NaN in input 2 wins over a
 * number in input 1 and not the other way round.  Quantized values are
 * compared as stored, without rescaling, as in TFLite, which expects both
 * inputs and the output to share one quantization and does not check it.
 *
 * Version ranges (TFLite's op_version rules for MAXIMUM and MINIMUM):
 *   1  float32, uint8, int32 (and int64: not these kernels' types)
 *   2  int8
 *   3  broadcasting with an input of more than 4 dimensions: implemented
 *      (up to 6) by every kernel
 *   4  int16
 * so every kernel covers 1..4.
 */
#include "arithmetic.h"
#include "kernels.h"

typedef struct maximum_minimum_data {
	ref_broadcast plan;
} maximum_minimum_data;

/*
 * Defines kernel ref_<name> of `OP` (MAXIMUM or MINIMUM) for tensors of
 * `TYPE` (C type `type`), keeping input 1 where `a keeps_a b` (> for
 * MAXIMUM, < for MINIMUM): its element function, broadcast walk, prepare,
 * invoke and manifest entry.
 */
#define MAXIMUM_MINIMUM_KERNEL(name, OP, TYPE, type, keeps_a)                \
	static inline type name##_element(type a, type b,                    \
					  const maximum_minimum_data *data)  \
	{                                                                    \
		(void)data;                                                  \
		return a keeps_a b ? a : b;                                  \
	}                                                                    \
	REF_BROADCAST_DEFINE(name##_apply, type, maximum_minimum_data,       \
			     name##_element)                                 \
	static opver_status name##_prepare(const opver_context *ctx,         \
					   opver_node *node)                 \
	{                                                                    \
		maximum_minimum_data *data = node->op_data;                  \
                                                                             \
		return ref_binary_prepare(ctx, node, OPVER_TYPE_##TYPE, #OP, \
					  &data->plan);                      \
	}                                                                    \
	REF_BROADCAST_INVOKE(name##_invoke, name##_apply,                    \
			     maximum_minimum_data, data)                     \
	const opver_kernel ref_##name = {                                    \
		OPVER_KERNEL(#name, OP, 1, 4),                               \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(TYPE)),                  \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(maximum_minimum_data),                \
		.prepare = name##_prepare, .invoke = name##_invoke,          \
	};

MAXIMUM_MINIMUM_KERNEL(maximum_float32, MAXIMUM, FLOAT32, float, >)
MAXIMUM_MINIMUM_KERNEL(maximum_uint8, MAXIMUM, UINT8, uint8_t, >)
MAXIMUM_MINIMUM_KERNEL(maximum_int8, MAXIMUM, INT8, int8_t, >)
MAXIMUM_MINIMUM_KERNEL(maximum_int16, MAXIMUM, INT16, int16_t, >)
MAXIMUM_MINIMUM_KERNEL(maximum_int32, MAXIMUM, INT32, int32_t, >)

MAXIMUM_MINIMUM_KERNEL(minimum_float32, MINIMUM, FLOAT32, float, <)
MAXIMUM_MINIMUM_KERNEL(minimum_uint8, MINIMUM, UINT8, uint8_t, <)
MAXIMUM_MINIMUM_KERNEL(minimum_int8, MINIMUM, INT8, int8_t, <)
MAXIMUM_MINIMUM_KERNEL(minimum_int16, MINIMUM, INT16, int16_t, <)
MAXIMUM_MINIMUM_KERNEL(minimum_int32, MINIMUM, INT32, int32_t, <)
