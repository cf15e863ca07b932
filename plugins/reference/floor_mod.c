/*
 * floor_mod.c - FLOOR_MOD, float32, int32, int64, int16 and int8 (integers
 * as stored, without quantization), broadcasting as TFLite does
 * (broadcast.h), computed as TensorFlow Lite's kernel computes it: the
 * remainder of the division truncated toward zero (fmodf in float32), and,
 * when it is not 0 and its sign differs from the divisor's, the divisor
 * added, so that the result takes the divisor's sign.
 *
 * An integer divisor of 0 makes invoke report and fail, as TFLite's kernel
 * does; a float32 one gives NaN, as fmodf does.  The type's minimum
 * modulo -1 is 0 (undefined in C for int32 and int64, where the hardware
 * traps: computed here without dividing).
 *
 * Version ranges (TFLite's op_version rules for FLOOR_MOD):
 *   1  int32, int64, float32
 *   2  int16, int8
 * Every kernel implements every feature of its type, so each covers 1..2.
 */
#include <math.h>

#include "arithmetic.h"
#include "kernels.h"

typedef struct floor_mod_data {
	ref_broadcast plan;
} floor_mod_data;

static inline float floor_mod_float32_element(float a, float b,
					      const floor_mod_data *data)
{
	const float remainder = fmodf(a, b);

	(void)data;
	return remainder != 0 && (b < 0) != (remainder < 0) ? remainder + b :
							      remainder;
}

/* The integer element of type `type`; the corrected remainder lies
 * between 0 and the divisor, so adding cannot overflow. */
#define FLOOR_MOD_INTEGER_ELEMENT(name, type)                                \
	static inline type floor_mod_##name##_element(                       \
		type a, type b, const floor_mod_data *data)                  \
	{                                                                    \
		const type remainder = b == -1 ? 0 : (type)(a % b);          \
                                                                             \
		(void)data;                                                  \
		return remainder != 0 && (b < 0) != (remainder < 0) ?        \
			       (type)(remainder + b) :                       \
			       remainder;                                    \
	}

FLOOR_MOD_INTEGER_ELEMENT(int64, int64_t)
FLOOR_MOD_INTEGER_ELEMENT(int32, int32_t)
FLOOR_MOD_INTEGER_ELEMENT(int16, int16_t)
FLOOR_MOD_INTEGER_ELEMENT(int8, int8_t)

/*
 * Defines kernel ref_floor_mod_<name> for tensors of `TYPE` (C type
 * `type`): its broadcast walk, prepare, invoke (which
 * refuses a zero divisor first when `checks_zero`) and manifest entry.
 */
#define FLOOR_MOD_KERNEL(name, TYPE, type, checks_zero)                      \
	REF_BROADCAST_DEFINE(floor_mod_##name##_apply, type, floor_mod_data, \
			     floor_mod_##name##_element)                     \
	static opver_status floor_mod_##name##_prepare(                      \
		const opver_context *ctx, opver_node *node)                  \
	{                                                                    \
		floor_mod_data *data = node->op_data;                        \
                                                                             \
		return ref_binary_prepare(ctx, node, OPVER_TYPE_##TYPE,      \
					  "FLOOR_MOD", &data->plan);         \
	}                                                                    \
	static opver_status floor_mod_##name##_invoke(                       \
		const opver_context *ctx, opver_node *node)                  \
	{                                                                    \
		const floor_mod_data *data = node->op_data;                  \
		const type *divisors = node->inputs[1]->data;                \
		const size_t n = opver_tensor_elements(node->inputs[1]);     \
                                                                             \
		for (size_t i = 0; checks_zero && i < n; i++)                \
			if (divisors[i] == 0)                                \
				return ref_report_zero_divisor(ctx, node,    \
							       "FLOOR_MOD", \
							       i);           \
		floor_mod_##name##_apply(&data->plan, node->inputs[0]->data, \
					 divisors, node->outputs[0]->data,   \
					 data);                              \
		return OPVER_OK;                                             \
	}                                                                    \
	const opver_kernel ref_floor_mod_##name = {                          \
		OPVER_KERNEL("floor_mod_" #name, FLOOR_MOD, 1, 2),           \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(TYPE)),                  \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(floor_mod_data),                      \
		.prepare = floor_mod_##name##_prepare,                       \
		.invoke = floor_mod_##name##_invoke,                         \
	};

FLOOR_MOD_KERNEL(float32, FLOAT32, float, false)
FLOOR_MOD_KERNEL(int64, INT64, int64_t, true)
FLOOR_MOD_KERNEL(int32, INT32, int32_t, true)
FLOOR_MOD_KERNEL(int16, INT16, int16_t, true)
FLOOR_MOD_KERNEL(int8, INT8, int8_t, true)
