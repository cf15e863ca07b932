/*
 * add_sub.c - ADD and SUB, float32, int32, int64, uint8, int8 and int16,
 * broadcasting as TFLite does (broadcast.h), computed as TensorFlow Lite's
 * reference kernels compute them.  SUB is ADD with input 2 negated, so one
 * kernel serves both ops, telling them apart by the node's op:
 *
 *   float32  a + b (a - b), clamped to the fused activation's range.
 *   int32, int64  a + b (a - b), wrapping as TFLite's int arithmetic
 *            does, clamped to the activation's integer range.
 *   uint8, int8, and int16 with general scales: the general quantized path
 *            of quantized_add.h (uint8 is TFLite's legacy asymmetric
 *            scheme, computed as int8 is).
 *   int16 with power-of-two scales (pot_scale_int16 set, every scale a
 *            power of two, every zero point 0): quantized_add.h's
 *            power-of-two path.
 *            pot_scale_int16 with other scales takes the general path, as
 *            in TFLite; so do zero points other than 0, as in TFLite
 *            releases before it began refusing them for int16.
 *   int16 without quantization (ADD only): a + b narrowed to int16 (it
 *            wraps, as TFLite's int arithmetic narrowed to int16 does),
 *            clamped to the activation's integer range.
 *
 * Version ranges (TFLite's op_version rules):
 *   ADD 1  float32, int32, uint8, int16 with power-of-two scales
 *       2  int8
 *       3  int16 with general scales (pot_scale_int16 false)
 *       4  int64
 *       5  int16 without quantization
 *       6  float16: not these kernels' types
 *   SUB 1  float32, int32, uint8, int16 with power-of-two scales
 *       2  int8
 *       3  broadcasting with an input of more than 4 dimensions:
 *          implemented (up to 6) by every kernel
 *       4  int64
 *       5  int16 with general scales (pot_scale_int16 false)
 * Every kernel implements every feature of its types, so each covers ADD
 * 1..6 and SUB 1..5.
 */
#include "arithmetic.h"
#include "kernels.h"
#include "quantization.h"
#include "quantized_add.h"

/* ADD's and SUB's options, which are alike. */
typedef struct add_sub_options {
	ref_add_sign sign;
	const char *op; /* for messages */
	int32_t activation;
	int32_t pot_scale_int16;
} add_sub_options;

/* float32 and int32: the arithmetic op data and the sign. */
typedef struct add_sub_float32_data {
	ref_arithmetic_float32 arithmetic;
	ref_add_sign sign;
} add_sub_float32_data;

typedef struct add_sub_int32_data {
	ref_arithmetic_int32 arithmetic;
	ref_add_sign sign;
} add_sub_int32_data;

typedef struct add_sub_int64_data {
	ref_arithmetic_int64 arithmetic;
	ref_add_sign sign;
} add_sub_int64_data;

/* uint8 and int8: the general path. */
typedef struct add_sub_8bit_data {
	ref_broadcast plan;
	ref_add_rescale rescale;
} add_sub_8bit_data;

typedef enum add_sub_int16_path {
	ADD_SUB_INT16_GENERAL,
	ADD_SUB_INT16_POWER_OF_TWO,
	ADD_SUB_INT16_UNQUANTIZED
} add_sub_int16_path;

typedef struct add_sub_int16_data {
	ref_broadcast plan;
	add_sub_int16_path path;
	ref_add_rescale rescale; /* general path */
	/* Power-of-two path; its clamp is also the unquantized path's. */
	ref_add_pot pot;
} add_sub_int16_data;

static add_sub_options add_sub_read_options(const opver_node *node)
{
	if (node->op == OPVER_OP_SUB) {
		opver_sub_params p = OPVER_SUB_PARAMS_DEFAULTS;

		opver_read_params(node, &p, sizeof(p));
		return (add_sub_options){ REF_SUBTRACT, "SUB", p.activation,
					  p.pot_scale_int16 };
	}
	opver_add_params p = OPVER_ADD_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	return (add_sub_options){ REF_ADD, "ADD", p.activation,
				  p.pot_scale_int16 };
}

/* ------------------------------------------------------------- float32 */

static inline float add_float32_element(float a, float b,
					const ref_arithmetic_float32 *data)
{
	return ref_clamp_float(a + b, data->activation_min,
			       data->activation_max);
}

static inline float sub_float32_element(float a, float b,
					const ref_arithmetic_float32 *data)
{
	return ref_clamp_float(a - b, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(add_float32_apply, float, ref_arithmetic_float32,
		     add_float32_element)
REF_BROADCAST_DEFINE(sub_float32_apply, float, ref_arithmetic_float32,
		     sub_float32_element)

static opver_status add_sub_float32_prepare(const opver_context *ctx,
					    opver_node *node)
{
	add_sub_float32_data *data = node->op_data;
	const add_sub_options options = add_sub_read_options(node);

	data->sign = options.sign;
	return ref_arithmetic_float32_prepare(ctx, node, options.op,
					      options.activation,
					      &data->arithmetic);
}

static opver_status add_sub_float32_invoke(const opver_context *ctx,
					   opver_node *node)
{
	const add_sub_float32_data *data = node->op_data;
	const ref_arithmetic_float32 *a = &data->arithmetic;

	(void)ctx;
	if (data->sign == REF_ADD)
		add_float32_apply(&a->plan, node->inputs[0]->data,
			      node->inputs[1]->data, node->outputs[0]->data, a);
	else
		sub_float32_apply(&a->plan, node->inputs[0]->data,
			      node->inputs[1]->data, node->outputs[0]->data, a);
	return OPVER_OK;
}

/* ------------------------------------------------------- int32, int64 */

/*
 * Defines the callbacks of the int`bits` kernels (32 or 64): each element
 * computed unsigned, so that it wraps without undefined behaviour, then
 * clamped to the fused activation's range.
 */
#define ADD_SUB_INTEGER_DEFINE(bits)                                          \
	static inline int##bits##_t add_int##bits##_element(                  \
		int##bits##_t a, int##bits##_t b,                              \
		const ref_arithmetic_int##bits *data)                          \
	{                                                                     \
		const uint##bits##_t sum =                                     \
			(uint##bits##_t)a + (uint##bits##_t)b;                 \
                                                                              \
		return ref_clamp_int##bits((int##bits##_t)sum,                 \
					   data->activation_min,              \
					   data->activation_max);             \
	}                                                                     \
                                                                              \
	static inline int##bits##_t sub_int##bits##_element(                  \
		int##bits##_t a, int##bits##_t b,                              \
		const ref_arithmetic_int##bits *data)                          \
	{                                                                     \
		const uint##bits##_t difference =                              \
			(uint##bits##_t)a - (uint##bits##_t)b;                 \
                                                                              \
		return ref_clamp_int##bits((int##bits##_t)difference,          \
					   data->activation_min,              \
					   data->activation_max);             \
	}                                                                     \
                                                                              \
	REF_BROADCAST_DEFINE(add_int##bits##_apply, int##bits##_t,            \
			     ref_arithmetic_int##bits,                        \
			     add_int##bits##_element)                         \
	REF_BROADCAST_DEFINE(sub_int##bits##_apply, int##bits##_t,            \
			     ref_arithmetic_int##bits,                        \
			     sub_int##bits##_element)                         \
                                                                              \
	static opver_status add_sub_int##bits##_prepare(                      \
		const opver_context *ctx, opver_node *node)                    \
	{                                                                     \
		add_sub_int##bits##_data *data = node->op_data;                \
		const add_sub_options options = add_sub_read_options(node);    \
                                                                              \
		data->sign = options.sign;                                    \
		return ref_arithmetic_int##bits##_prepare(                     \
			ctx, node, options.op, options.activation,             \
			&data->arithmetic);                                    \
	}                                                                     \
                                                                              \
	static opver_status add_sub_int##bits##_invoke(                       \
		const opver_context *ctx, opver_node *node)                    \
	{                                                                     \
		const add_sub_int##bits##_data *data = node->op_data;          \
		const ref_arithmetic_int##bits *a = &data->arithmetic;         \
                                                                              \
		(void)ctx;                                                    \
		if (data->sign == REF_ADD)                                    \
			add_int##bits##_apply(&a->plan,                        \
					      node->inputs[0]->data,          \
					      node->inputs[1]->data,          \
					      node->outputs[0]->data, a);     \
		else                                                          \
			sub_int##bits##_apply(&a->plan,                        \
					      node->inputs[0]->data,          \
					      node->inputs[1]->data,          \
					      node->outputs[0]->data, a);     \
		return OPVER_OK;                                              \
	}

ADD_SUB_INTEGER_DEFINE(32)
ADD_SUB_INTEGER_DEFINE(64)

/* -------------------------------------------------------- uint8, int8 */

/* The sign is in the rescale's input 2 multiplier. */
static inline int8_t add_sub_int8_element(int8_t a, int8_t b,
					  const ref_add_rescale *r)
{
	return (int8_t)ref_add_rescaled(a, b, r);
}

static inline uint8_t add_sub_uint8_element(uint8_t a, uint8_t b,
					    const ref_add_rescale *r)
{
	return (uint8_t)ref_add_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(add_sub_int8_apply, int8_t, ref_add_rescale,
		     add_sub_int8_element)
REF_BROADCAST_DEFINE(add_sub_uint8_apply, uint8_t, ref_add_rescale,
		     add_sub_uint8_element)
REF_BROADCAST_INVOKE(add_sub_int8_invoke, add_sub_int8_apply,
		     add_sub_8bit_data, &data->rescale)
REF_BROADCAST_INVOKE(add_sub_uint8_invoke, add_sub_uint8_apply,
		     add_sub_8bit_data, &data->rescale)

/* int8 and uint8 compute alike: TFLite's general path. */
static opver_status add_sub_8bit_prepare(const opver_context *ctx,
					 opver_node *node, opver_type type)
{
	add_sub_8bit_data *data = node->op_data;
	const add_sub_options options = add_sub_read_options(node);
	float scales[3];
	int32_t zero_points[3];
	opver_status status;

	status = ref_arithmetic_prepare(ctx, node, type, options.op,
					options.activation, &data->plan);
	if (status == OPVER_OK)
		status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	return ref_add_rescale_prepare(ctx, node, options.activation, scales,
				       zero_points, REF_ADD_8BIT_LEFT_SHIFT,
				       options.sign, &data->rescale);
}

static opver_status add_sub_int8_prepare(const opver_context *ctx,
					 opver_node *node)
{
	return add_sub_8bit_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status add_sub_uint8_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return add_sub_8bit_prepare(ctx, node, OPVER_TYPE_UINT8);
}

/* --------------------------------------------------------------- int16 */

static inline int16_t add_sub_int16_general_element(int16_t a, int16_t b,
						    const ref_add_rescale *r)
{
	return (int16_t)ref_add_rescaled(a, b, r);
}

static inline int16_t add_int16_unquantized_element(int16_t a, int16_t b,
						    const ref_add_pot *p)
{
	/* Narrowing the int sum to int16 wraps, as in TFLite. */
	const int16_t sum = (int16_t)(a + b);

	return (int16_t)ref_clamp_int32(sum, p->activation_min,
					p->activation_max);
}

REF_BROADCAST_DEFINE(add_sub_int16_general_apply, int16_t, ref_add_rescale,
		     add_sub_int16_general_element)
REF_BROADCAST_DEFINE(add_sub_int16_pot_apply, int16_t, ref_add_pot,
		     ref_add_pot_element)
REF_BROADCAST_DEFINE(add_int16_unquantized_apply, int16_t, ref_add_pot,
		     add_int16_unquantized_element)

static opver_status add_sub_int16_prepare(const opver_context *ctx,
					  opver_node *node)
{
	add_sub_int16_data *data = node->op_data;
	const add_sub_options options = add_sub_read_options(node);
	float scales[3];
	int32_t zero_points[3];
	int log2s[3];
	opver_status status;

	status = ref_arithmetic_prepare(ctx, node, OPVER_TYPE_INT16, options.op,
					options.activation, &data->plan);
	if (status != OPVER_OK)
		return status;
	/* TFLite's SUB has no unquantized int16 form: its quantization is
	 * checked, and reported missing, below. */
	if (options.sign == REF_ADD && !ref_is_quantized(node->inputs[0]) &&
	    !ref_is_quantized(node->inputs[1]) &&
	    !ref_is_quantized(node->outputs[0])) {
		/* Plain integers clamp like a quantization of scale 1 and
		 * zero point 0. */
		data->path = ADD_SUB_INT16_UNQUANTIZED;
		return ref_output_activation_range(ctx, options.activation,
						   node->outputs[0], 1.0f, 0,
						   &data->pot.activation_min,
						   &data->pot.activation_max);
	}
	status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	if (ref_add_takes_pot_path(options.pot_scale_int16, scales,
				   zero_points, log2s)) {
		data->path = ADD_SUB_INT16_POWER_OF_TWO;
		return ref_add_pot_prepare(ctx, node, options.activation,
					   scales, log2s, options.sign,
					   &data->pot);
	}
	data->path = ADD_SUB_INT16_GENERAL;
	return ref_add_rescale_prepare(ctx, node, options.activation, scales,
				       zero_points, REF_ADD_INT16_LEFT_SHIFT,
				       options.sign, &data->rescale);
}

static opver_status add_sub_int16_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const add_sub_int16_data *data = node->op_data;
	const int16_t *in1 = node->inputs[0]->data;
	const int16_t *in2 = node->inputs[1]->data;
	int16_t *out = node->outputs[0]->data;

	(void)ctx;
	switch (data->path) {
	case ADD_SUB_INT16_GENERAL:
		add_sub_int16_general_apply(&data->plan, in1, in2, out,
					    &data->rescale);
		break;
	case ADD_SUB_INT16_POWER_OF_TWO:
		add_sub_int16_pot_apply(&data->plan, in1, in2, out,
					&data->pot);
		break;
	case ADD_SUB_INT16_UNQUANTIZED:
		add_int16_unquantized_apply(&data->plan, in1, in2, out,
					    &data->pot);
		break;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* Kernels ref_add_<type> and ref_sub_<type>, sharing prepare and invoke. */
#define ADD_SUB_KERNELS(type, TYPE, data_type)                               \
	const opver_kernel ref_add_##type = {                                \
		OPVER_KERNEL("add_" #type, ADD, 1, 6),                       \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(TYPE)),                  \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(data_type),                           \
		.prepare = add_sub_##type##_prepare,                         \
		.invoke = add_sub_##type##_invoke,                           \
	};                                                                   \
	const opver_kernel ref_sub_##type = {                                \
		OPVER_KERNEL("sub_" #type, SUB, 1, 5),                       \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(TYPE)),                  \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(data_type),                           \
		.prepare = add_sub_##type##_prepare,                         \
		.invoke = add_sub_##type##_invoke,                           \
	};

ADD_SUB_KERNELS(float32, FLOAT32, add_sub_float32_data)
ADD_SUB_KERNELS(int32, INT32, add_sub_int32_data)
ADD_SUB_KERNELS(int64, INT64, add_sub_int64_data)
ADD_SUB_KERNELS(uint8, UINT8, add_sub_8bit_data)
ADD_SUB_KERNELS(int8, INT8, add_sub_8bit_data)
ADD_SUB_KERNELS(int16, INT16, add_sub_int16_data)
