/*
 * unary.c - the one-input math ops on unquantized tensors, computed per
 * element as TensorFlow Lite's kernels (elementwise.cc, neg.cc, exp.cc,
 * floor.cc, ceil.cc, round.cc, sign.cc) compute them.
 *
 *   float32  ABS, NEG, SQRT, RSQRT (1 / sqrt), SQUARE (x * x), EXP, LOG,
 *            SIN, COS, FLOOR, CEIL, ROUND (half to even) and SIGN (-1, 0
 *            or 1; NaN gives 0), each by its single-precision libm
 *            function.  Out of the domain the result is libm's: SQRT and
 *            LOG of a negative number NaN, LOG(0) -inf, RSQRT(0) +inf, as
 *            TFLite, which checks nothing on float32.
 *   int32    ABS (version 5), NEG and SIGN (version 2); int64 NEG.  The
 *            negation of the type's minimum wraps to itself, as TFLite's
 *            int arithmetic does on every machine it runs on.
 *
 * Every other version of these ops adds a quantized type (unary_quantized.c)
 * so each kernel here covers all its op's versions and its signature picks
 * the types.
 */
#include <math.h>

#include "activation.h"
#include "kernels.h"

typedef float (*unary_float_fn)(float x);

typedef struct float32_data {
	unary_float_fn f;
	size_t count;
} float32_data;

typedef struct integer_data {
	int32_t op;
	int32_t type;
	size_t count;
} integer_data;

/* TFLite's functions, in float. */
static float absolute(float x)
{
	return fabsf(x);
}

static float negate(float x)
{
	return -x;
}

static float reciprocal_sqrt(float x)
{
	return 1.0f / sqrtf(x);
}

static float square(float x)
{
	return x * x;
}

/* Half to even, as TFLite's RoundToNearest: the current rounding mode is
 * to nearest, ties to even, and nearbyintf keeps NaN and infinities. */
static float round_half_even(float x)
{
	return nearbyintf(x);
}

static float sign(float x)
{
	return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
}

static unary_float_fn float_function_of(int32_t op)
{
	switch (op) {
	case OPVER_OP_ABS:
		return absolute;
	case OPVER_OP_NEG:
		return negate;
	case OPVER_OP_SQRT:
		return sqrtf;
	case OPVER_OP_RSQRT:
		return reciprocal_sqrt;
	case OPVER_OP_SQUARE:
		return square;
	case OPVER_OP_EXP:
		return expf;
	case OPVER_OP_LOG:
		return logf;
	case OPVER_OP_SIN:
		return sinf;
	case OPVER_OP_COS:
		return cosf;
	case OPVER_OP_FLOOR:
		return floorf;
	case OPVER_OP_CEIL:
		return ceilf;
	case OPVER_OP_ROUND:
		return round_half_even;
	default: /* SIGN */
		return sign;
	}
}

static opver_status float32_invoke(const opver_context *ctx, opver_node *node)
{
	const float32_data *data = node->op_data;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		output[i] = data->f(input[i]);
	return OPVER_OK;
}

/* ABS, NEG or SIGN of one value, in 64 bits; the caller narrows, so the
 * negation of the narrow type's minimum wraps (computed unsigned, without
 * undefined behaviour, for int64). */
static int64_t integer_of(int32_t op, int64_t x)
{
	switch (op) {
	case OPVER_OP_ABS:
		return x < 0 ? (int64_t)(0u - (uint64_t)x) : x;
	case OPVER_OP_NEG:
		return (int64_t)(0u - (uint64_t)x);
	default: /* SIGN */
		return x > 0 ? 1 : x < 0 ? -1 : 0;
	}
}

static opver_status integer_invoke(const opver_context *ctx, opver_node *node)
{
	const integer_data *d = node->op_data;
	const void *input = node->inputs[0]->data;
	void *output = node->outputs[0]->data;

	(void)ctx;
	switch (d->type) {
	case OPVER_TYPE_INT32:
		for (size_t i = 0; i < d->count; i++)
			((int32_t *)output)[i] = (int32_t)integer_of(
				d->op, ((const int32_t *)input)[i]);
		break;
	default: /* INT64 */
		for (size_t i = 0; i < d->count; i++)
			((int64_t *)output)[i] = integer_of(
				d->op, ((const int64_t *)input)[i]);
		break;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static opver_status float32_prepare(const opver_context *ctx,
				    opver_node *node);
static opver_status integer_prepare(const opver_context *ctx,
				    opver_node *node);

#define UNARY_SIGNATURE(types) \
	OPVER_SIGNATURE(OPVER_INPUTS(types), OPVER_OUTPUT(types))

#define FLOAT32_KERNEL(prefix, name, op, max)                                 \
	const opver_kernel ref_##prefix##_float32 = {                         \
		OPVER_KERNEL(name "_float32", op, 1, max),                    \
		REF_SIGNATURES(UNARY_SIGNATURE(OPVER_T(FLOAT32))),            \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(float32_data),                         \
		.prepare = float32_prepare, .invoke = float32_invoke,         \
	}

#define INTEGER_KERNEL(prefix, name, op, max, types)                          \
	const opver_kernel ref_##prefix##_integer = {                         \
		OPVER_KERNEL(name "_integer", op, 1, max),                    \
		REF_SIGNATURES(UNARY_SIGNATURE(types)),                       \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(integer_data),                         \
		.prepare = integer_prepare, .invoke = integer_invoke,         \
	}

FLOAT32_KERNEL(abs, "abs", ABS, 5);
FLOAT32_KERNEL(neg, "neg", NEG, 1);
FLOAT32_KERNEL(sqrt, "sqrt", SQRT, 2);
FLOAT32_KERNEL(rsqrt, "rsqrt", RSQRT, 3);
FLOAT32_KERNEL(square, "square", SQUARE, 1);
FLOAT32_KERNEL(exp, "exp", EXP, 2);
FLOAT32_KERNEL(log, "log", LOG, 2);
FLOAT32_KERNEL(sin, "sin", SIN, 1);
FLOAT32_KERNEL(cos, "cos", COS, 1);
FLOAT32_KERNEL(floor, "floor", FLOOR, 1);
FLOAT32_KERNEL(ceil, "ceil", CEIL, 1);
FLOAT32_KERNEL(round, "round", ROUND, 1);
FLOAT32_KERNEL(sign, "sign", SIGN, 2);
INTEGER_KERNEL(abs, "abs", ABS, 5, OPVER_T(INT32));
INTEGER_KERNEL(neg, "neg", NEG, 1, OPVER_T(INT32) | OPVER_T(INT64));
INTEGER_KERNEL(sign, "sign", SIGN, 2, OPVER_T(INT32));

static const opver_kernel *integer_kernel(int32_t op)
{
	switch (op) {
	case OPVER_OP_ABS:
		return &ref_abs_integer;
	case OPVER_OP_NEG:
		return &ref_neg_integer;
	default:
		return &ref_sign_integer;
	}
}

/* -------------------------------------------------------------- prepare */

static opver_status float32_prepare(const opver_context *ctx,
				    opver_node *node)
{
	float32_data *data = node->op_data;
	opver_status status;

	/* Every float32 kernel has the same signature. */
	status = ref_activation_check(ctx, node, &ref_abs_float32, NULL);
	if (status != OPVER_OK)
		return status;
	data->f = float_function_of(node->op);
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}

static opver_status integer_prepare(const opver_context *ctx,
				    opver_node *node)
{
	integer_data *d = node->op_data;
	opver_status status;

	status = ref_activation_check(ctx, node, integer_kernel(node->op),
				      NULL);
	if (status != OPVER_OK)
		return status;
	d->op = node->op;
	d->type = node->inputs[0]->type;
	d->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}
