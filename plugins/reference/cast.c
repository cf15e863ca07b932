/*
 * cast.c - CAST: each element converted to the output's type, as TFLite's
 * kernel converts it (a C++ static_cast), between FLOAT32, FLOAT16,
 * FLOAT64, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64 and BOOL in
 * any pair.
 *
 * Every element goes through one value that keeps integers as int64 and
 * floating values as double, so each conversion rounds once, as a direct
 * cast does (an int64 is converted to float32 from the int64, never through
 * a double).  Integer to integer wraps modulo the width, anything to BOOL
 * is "not zero".  Floating values to integers truncate toward zero; TFLite
 * clamps to the range of INT32, INT16 and UINT8 (a NaN giving INT32's
 * maximum), and its cast is undefined outside the range of the other
 * integer types, where this kernel clamps too (a NaN giving 0).
 *
 * FLOAT16 goes through float32 both ways, as TFLite's: read exactly,
 * written from the value as float32 rounded to the nearest float16
 * (half.h), so an int64 or float64 rounds twice, as there.
 *
 * Version range: 1-5 (5 adds float64 and float16).  INT4 (6), BFLOAT16
 * (7) and COMPLEX64 are not computed.
 */
#include <math.h>
#include <stdbool.h>

#include "elements.h"
#include "half.h"
#include "kernels.h"
#include "node_checks.h"

/* One element on its way: an integer, or a floating value. */
typedef struct cast_value {
	bool is_float;
	int64_t i;
	double f;
} cast_value;

static cast_value cast_read(int32_t type, const void *data, size_t at)
{
	cast_value v = { false, 0, 0 };

	switch (type) {
	case OPVER_TYPE_FLOAT32:
		v.is_float = true;
		v.f = ((const float *)data)[at];
		break;
	case OPVER_TYPE_FLOAT64:
		v.is_float = true;
		v.f = ((const double *)data)[at];
		break;
	case OPVER_TYPE_FLOAT16:
		v.is_float = true;
		v.f = ref_half_to_float(((const uint16_t *)data)[at]);
		break;
	case OPVER_TYPE_INT8:
		v.i = ((const int8_t *)data)[at];
		break;
	case OPVER_TYPE_UINT8:
		v.i = ((const uint8_t *)data)[at];
		break;
	case OPVER_TYPE_INT16:
		v.i = ((const int16_t *)data)[at];
		break;
	case OPVER_TYPE_UINT16:
		v.i = ((const uint16_t *)data)[at];
		break;
	case OPVER_TYPE_INT32:
		v.i = ((const int32_t *)data)[at];
		break;
	case OPVER_TYPE_UINT32:
		v.i = ((const uint32_t *)data)[at];
		break;
	case OPVER_TYPE_INT64:
		v.i = ((const int64_t *)data)[at];
		break;
	default: /* BOOL */
		v.i = ((const uint8_t *)data)[at] != 0;
		break;
	}
	return v;
}

/* A floating value truncated toward zero into [lo, hi]; NaN gives `nan`. */
static int64_t cast_truncate(double f, double lo, double hi, int64_t nan)
{
	if (isnan(f))
		return nan;
	if (f <= lo)
		return (int64_t)lo;
	if (f >= hi)
		return (int64_t)hi;
	return (int64_t)f;
}

/* The value as an integer of [lo, hi]: wrapped when it is an integer
 * (by the caller's narrowing store), clamped when floating. */
static int64_t cast_integer(const cast_value *v, double lo, double hi,
			    int64_t nan)
{
	return v->is_float ? cast_truncate(v->f, lo, hi, nan) : v->i;
}

static void cast_write(int32_t type, void *data, size_t at,
		       const cast_value *v)
{
	switch (type) {
	case OPVER_TYPE_FLOAT32:
		((float *)data)[at] = v->is_float ? (float)v->f : (float)v->i;
		break;
	case OPVER_TYPE_FLOAT64:
		((double *)data)[at] = v->is_float ? v->f : (double)v->i;
		break;
	case OPVER_TYPE_FLOAT16:
		((uint16_t *)data)[at] = ref_float_to_half(
			v->is_float ? (float)v->f : (float)v->i);
		break;
	case OPVER_TYPE_INT8:
		((int8_t *)data)[at] =
			(int8_t)cast_integer(v, INT8_MIN, INT8_MAX, 0);
		break;
	case OPVER_TYPE_UINT8:
		((uint8_t *)data)[at] =
			(uint8_t)cast_integer(v, 0, UINT8_MAX, 0);
		break;
	case OPVER_TYPE_INT16:
		((int16_t *)data)[at] =
			(int16_t)cast_integer(v, INT16_MIN, INT16_MAX, 0);
		break;
	case OPVER_TYPE_UINT16:
		((uint16_t *)data)[at] =
			(uint16_t)cast_integer(v, 0, UINT16_MAX, 0);
		break;
	case OPVER_TYPE_INT32:
		((int32_t *)data)[at] = (int32_t)cast_integer(
			v, INT32_MIN, INT32_MAX, INT32_MAX);
		break;
	case OPVER_TYPE_UINT32:
		((uint32_t *)data)[at] =
			(uint32_t)cast_integer(v, 0, UINT32_MAX, 0);
		break;
	case OPVER_TYPE_INT64:
		/* 2^63 is the first double past INT64_MAX. */
		((int64_t *)data)[at] =
			!v->is_float ? v->i
			: v->f >= 9223372036854775808.0
				? INT64_MAX
				: cast_truncate(v->f, (double)INT64_MIN,
						(double)INT64_MIN * -1.0, 0);
		break;
	default: /* BOOL */
		((uint8_t *)data)[at] = v->is_float ? v->f != 0 : v->i != 0;
		break;
	}
}

/* The types converted here. */
#define CAST_TYPES                                                     \
	(OPVER_T(FLOAT32) | OPVER_T(FLOAT16) | OPVER_T(FLOAT64) |      \
	 OPVER_T(INT8) | OPVER_T(UINT8) | OPVER_T(INT16) |             \
	 OPVER_T(UINT16) | OPVER_T(INT32) | OPVER_T(UINT32) |          \
	 OPVER_T(INT64) | OPVER_T(BOOL))

static opver_status cast_prepare(const opver_context *ctx, opver_node *node)
{
	static const char usage[] = "CAST takes one input and one output";
	opver_status status = ref_check_arity(ctx, node, 1, 1, 1, usage);

	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "input", node->inputs[0],
					    CAST_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "output", node->outputs[0],
					    CAST_TYPES);
	if (status == OPVER_OK)
		status = ref_check_unary(ctx, node, node->inputs[0]->type,
					 node->outputs[0]->type, usage);
	return status;
}

static opver_status cast_invoke(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *input = node->inputs[0];
	opver_tensor *output = node->outputs[0];
	const size_t count = opver_tensor_elements(input);

	(void)ctx;
	for (size_t i = 0; i < count; i++) {
		const cast_value v = cast_read(input->type, input->data, i);

		cast_write(output->type, output->data, i, &v);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_cast = {
	OPVER_KERNEL("cast", CAST, 1, 5),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(CAST_TYPES),
				       OPVER_OUTPUT(CAST_TYPES))),
	REF_KERNEL_TRAITS,
	.prepare = cast_prepare, .invoke = cast_invoke,
};
