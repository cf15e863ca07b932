/*
 * floor_div.c - FLOOR_DIV, float32, int32, int16 and int8 (integers as
 * stored, without quantization), broadcasting as TFLite does (broadcast.h),
 * computed as TensorFlow Lite's kernel computes it: both inputs widened to
 * double, divided, floored, and converted back to the tensors' type.
 *
 * Converting back: float32 rounds to nearest.  The integer quotient's only
 * value outside its type is the type's minimum / -1; TFLite's conversion
 * is then undefined in C++, and x86 and WebAssembly give INT32_MIN for
 * int32 (their conversion's "invalid" value) and, for int8 and int16, the
 * quotient wrapped to the type (converted through int32): the type's
 * minimum in every case, which is what these kernels compute.
 *
 * A divisor of 0 (0.0 or -0.0 in float32 too) makes invoke report and
 * fail, as TFLite's kernel does before it computes anything.
 *
 * Version ranges (TFLite's op_version rules for FLOOR_DIV):
 *   1  int32
 *   2  float32
 *   3  int16, int8
 * Every kernel implements every feature of its type, so each covers 1..3.
 */
#include <math.h>

#include "arithmetic.h"
#include "kernels.h"

typedef struct floor_div_data {
	ref_broadcast plan;
} floor_div_data;

static inline double floor_div_quotient(double a, double b)
{
	return floor(a / b);
}

/* An integer quotient: in range but for the type's minimum / -1, which
 * is 2^31 for int32 and fits an int32 for the narrower types. */
static inline int32_t floor_div_to_int32(double quotient)
{
	return quotient >= 2147483648.0 ? INT32_MIN : (int32_t)quotient;
}

static inline float floor_div_float32_element(float a, float b,
					      const floor_div_data *data)
{
	(void)data;
	return (float)floor_div_quotient(a, b);
}

static inline int32_t floor_div_int32_element(int32_t a, int32_t b,
					      const floor_div_data *data)
{
	(void)data;
	return floor_div_to_int32(floor_div_quotient(a, b));
}

/* 128 and 32768 (the minimum / -1) wrap to the minimum, as TFLite's
 * conversion through int32 does. */
static inline int16_t floor_div_int16_element(int16_t a, int16_t b,
					      const floor_div_data *data)
{
	(void)data;
	return (int16_t)(uint16_t)floor_div_to_int32(
		floor_div_quotient(a, b));
}

static inline int8_t floor_div_int8_element(int8_t a, int8_t b,
					    const floor_div_data *data)
{
	(void)data;
	return (int8_t)(uint8_t)floor_div_to_int32(floor_div_quotient(a, b));
}

/*
 * Defines kernel ref_floor_div_<name> for tensors of `TYPE` (C type
 * `type`): its broadcast walk, prepare, invoke
 * (which refuses a zero divisor first) and manifest entry.
 */
#define FLOOR_DIV_KERNEL(name, TYPE, type)                                   \
	REF_BROADCAST_DEFINE(floor_div_##name##_apply, type, floor_div_data, \
			     floor_div_##name##_element)                     \
	static opver_status floor_div_##name##_prepare(                      \
		const opver_context *ctx, opver_node *node)                  \
	{                                                                    \
		floor_div_data *data = node->op_data;                        \
                                                                             \
		return ref_binary_prepare(ctx, node, OPVER_TYPE_##TYPE,      \
					  "FLOOR_DIV", &data->plan);         \
	}                                                                    \
	static opver_status floor_div_##name##_invoke(                       \
		const opver_context *ctx, opver_node *node)                  \
	{                                                                    \
		const floor_div_data *data = node->op_data;                  \
		const type *divisors = node->inputs[1]->data;                \
		const size_t n = opver_tensor_elements(node->inputs[1]);     \
                                                                             \
		for (size_t i = 0; i < n; i++)                               \
			if (divisors[i] == 0)                                \
				return ref_report_zero_divisor(ctx, node,    \
							       "FLOOR_DIV", \
							       i);           \
		floor_div_##name##_apply(&data->plan, node->inputs[0]->data, \
					 divisors, node->outputs[0]->data,   \
					 data);                              \
		return OPVER_OK;                                             \
	}                                                                    \
	const opver_kernel ref_floor_div_##name = {                          \
		OPVER_KERNEL("floor_div_" #name, FLOOR_DIV, 1, 3),           \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(TYPE)),                  \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(floor_div_data),                      \
		.prepare = floor_div_##name##_prepare,                       \
		.invoke = floor_div_##name##_invoke,                         \
	};

FLOOR_DIV_KERNEL(float32, FLOAT32, float)
FLOOR_DIV_KERNEL(int32, INT32, int32_t)
FLOOR_DIV_KERNEL(int16, INT16, int16_t)
FLOOR_DIV_KERNEL(int8, INT8, int8_t)
