/*
 * compare.c - the comparisons EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER
 * and GREATER_EQUAL, and the logical LOGICAL_AND, LOGICAL_OR and
 * LOGICAL_NOT: BOOL outputs, the binary ops broadcasting as TFLite does
 * (broadcast.h), computed as TensorFlow Lite's reference kernels compute
 * them.
 *
 *   float32, int16, int32, int64  the stored values compared (a NaN is
 *            unequal to everything, and neither less nor greater)
 *   uint8, int8  each input rescaled first, always, as TFLite does:
 *            ((x - zero point) << 8) times its own scale, as a multiplier
 *            and shift rounded twice (once in the single-rounding build);
 *            the two rescaled int32 values are compared.  Both inputs
 *            must be quantized per tensor (TFLite aborts on a scale of 0)
 *            with a scale below 1 (above, TFLite shifts by a negative
 *            amount, which is undefined).
 *   bool     inputs compared, and combined by LOGICAL_AND and LOGICAL_OR,
 *            as truth values: any nonzero byte is true.  Outputs are always
 *            0 or 1.
 *
 * TFLite broadcasts comparisons only through its 4-D path: inputs of
 * different shapes with more than 4 dimensions are refused.  Inputs of one
 * shape may have any rank.  LOGICAL_AND and LOGICAL_OR broadcast up to 4-D
 * too (TFLite's BinaryFunction broadcast).
 *
 * Types and version ranges (TFLite's kernels and op_version rules; a
 * string branch of EQUAL/NOT_EQUAL is a type opver's kernels lack):
 *   EQUAL          float32, int32, int64, uint8, bool (1), int8 (2),
 *                  int16 (5)                                    -> 1..5
 *   NOT_EQUAL      float32, int32, int64, uint8, bool (1), int8 (2),
 *                  int16 (4)                                    -> 1..4
 *   LESS, GREATER_EQUAL  float32, int32, int64, uint8 (1), int8 (2),
 *                  int16 (3)                                    -> 1..3
 *   GREATER, LESS_EQUAL  float32, int32, int64, uint8 (1), int8 (2)
 *                                                               -> 1..2
 *   LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT  bool                  -> 1
 */
#include <stdio.h>

#include "broadcast.h"
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

/* The most dimensions TFLite broadcasts these ops over (its 4-D slow
 * path). */
#define COMPARE_MAX_BROADCAST_RANK 4

/* TFLite shifts each 8-bit input's offset value left by this before
 * rescaling it. */
#define COMPARE_LEFT_SHIFT 8

/* How one 8-bit input is rescaled: minus its zero point, and its scale as
 * a multiplier and shift. */
typedef struct compare_side {
	int32_t offset;
	int32_t multiplier;
	int shift;
} compare_side;

struct compare_data;

/* A walk over the plan writing one op's 0/1 results for one type. */
typedef void compare_walk(const ref_broadcast *plan, const void *in1,
			  const void *in2, uint8_t *out,
			  const struct compare_data *data);

typedef struct compare_data {
	ref_broadcast plan;
	compare_side side[2]; /* inputs 1 and 2; 8-bit types only */
	compare_walk *walk;   /* the op's walk for the inputs' type */
} compare_data;

/* An 8-bit input value as TFLite compares it. */
static inline int32_t compare_rescaled(int32_t value, const compare_side *s)
{
	return ref_multiply_by_quantized_multiplier(
		(value + s->offset) * (1 << COMPARE_LEFT_SHIFT), s->multiplier,
		s->shift);
}

/* What an element is compared as: itself, its truth, its rescaled value. */
#define COMPARE_PLAIN(x, side) (x)
#define COMPARE_TRUTH(x, side) ((x) != 0)
#define COMPARE_SCALED(x, side) compare_rescaled((x), (side))

/*
 * Defines the compare_walk `name` over inputs of C type `type`, writing
 * value(a) `op` value(b) for each pair (value: one of the three above).
 */
#define COMPARE_ELEMENT(name, type, op, value)                              \
	static inline uint8_t name##_element(type a, type b,                \
					     const compare_data *data)      \
	{                                                                   \
		(void)data;                                                 \
		return value(a, &data->side[0]) op value(b, &data->side[1]); \
	}                                                                   \
	REF_BROADCAST_DEFINE_TO(name##_typed, type, uint8_t, compare_data,  \
				name##_element)                             \
	static void name(const ref_broadcast *plan, const void *in1,        \
			 const void *in2, uint8_t *out,                     \
			 const compare_data *data)                          \
	{                                                                   \
		name##_typed(plan, in1, in2, out, data);                    \
	}

/*
 * The walks of comparison `name` (C operator `op`) for every type, and
 * their table by opver_type.  Each kernel's manifest says which of them
 * its op takes.
 */
#define COMPARE_OP(name, op)                                                \
	COMPARE_ELEMENT(name##_float32, float, op, COMPARE_PLAIN)           \
	COMPARE_ELEMENT(name##_int16, int16_t, op, COMPARE_PLAIN)           \
	COMPARE_ELEMENT(name##_int32, int32_t, op, COMPARE_PLAIN)           \
	COMPARE_ELEMENT(name##_int64, int64_t, op, COMPARE_PLAIN)           \
	COMPARE_ELEMENT(name##_bool, uint8_t, op, COMPARE_TRUTH)            \
	COMPARE_ELEMENT(name##_uint8, uint8_t, op, COMPARE_SCALED)          \
	COMPARE_ELEMENT(name##_int8, int8_t, op, COMPARE_SCALED)            \
	static compare_walk *const name##_walks[OPVER_TYPE_INT8 + 1] = {    \
		[OPVER_TYPE_FLOAT32] = name##_float32,                      \
		[OPVER_TYPE_INT16] = name##_int16,                          \
		[OPVER_TYPE_INT32] = name##_int32,                          \
		[OPVER_TYPE_INT64] = name##_int64,                          \
		[OPVER_TYPE_BOOL] = name##_bool,                            \
		[OPVER_TYPE_UINT8] = name##_uint8,                          \
		[OPVER_TYPE_INT8] = name##_int8,                            \
	};

COMPARE_OP(equal, ==)
COMPARE_OP(not_equal, !=)
COMPARE_OP(less, <)
COMPARE_OP(less_equal, <=)
COMPARE_OP(greater, >)
COMPARE_OP(greater_equal, >=)

/* LOGICAL_AND and LOGICAL_OR: bool only. */
COMPARE_ELEMENT(logical_and_bool, uint8_t, &&, COMPARE_TRUTH)
COMPARE_ELEMENT(logical_or_bool, uint8_t, ||, COMPARE_TRUTH)
static compare_walk *const logical_and_walks[OPVER_TYPE_BOOL + 1] = {
	[OPVER_TYPE_BOOL] = logical_and_bool,
};
static compare_walk *const logical_or_walks[OPVER_TYPE_BOOL + 1] = {
	[OPVER_TYPE_BOOL] = logical_or_bool,
};

/* ---------------------------------------------------------------- prepare */

/* Reads how input `role` (an 8-bit tensor) is rescaled into *side. */
static opver_status compare_side_prepare(const opver_context *ctx,
					 const char *role,
					 const opver_tensor *tensor,
					 compare_side *side)
{
	float scale;
	int32_t zero_point;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, role, tensor, &scale,
					     &zero_point);
	if (status != OPVER_OK)
		return status;
	if (scale >= 1.0f) {
		OPVER_REPORT(ctx,
			     "%s '%s' has scale %g: TFLite rescales comparison inputs of scale below 1 only",
			     role, tensor->name, (double)scale);
		return OPVER_ERROR_UNSUPPORTED;
	}
	side->offset = -zero_point;
	ref_quantize_multiplier(scale, &side->multiplier, &side->shift);
	return OPVER_OK;
}

/*
 * The node of `kernel`'s op, two inputs of one type its signature takes
 * and a BOOL output, broadcast as TFLite broadcasts these ops; sets the
 * walk from `walks` (`count` entries, by type) and, for 8-bit inputs, the
 * rescales.
 */
static opver_status compare_prepare(const opver_context *ctx,
				    opver_node *node,
				    const opver_kernel *kernel,
				    compare_walk *const *walks, size_t count)
{
	compare_data *data = node->op_data;
	const opver_tensor *in1, *in2, *out;
	char usage[96];
	opver_status status;

	snprintf(usage, sizeof(usage),
		 "%s takes two inputs of one type and one BOOL output",
		 ctx->host->op_name(kernel->op));
	status = ref_check_arity(ctx, node, 2, 2, 1, usage);
	if (status != OPVER_OK)
		return status;
	in1 = node->inputs[0];
	in2 = node->inputs[1];
	out = node->outputs[0];
	status = ref_expect_type_in(ctx, "input 1", in1,
				    kernel->signatures[0].inputs[0]);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "input 2", in2, in1->type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", out, OPVER_TYPE_BOOL);
	if (status == OPVER_OK)
		status = ref_broadcast_shape_output(
			ctx, (const opver_tensor *const *)node->inputs, 2);
	if (status == OPVER_OK)
		status = ref_broadcast_plan(ctx, in1, in2, out, &data->plan);
	if (status != OPVER_OK)
		return status;
	if (!ref_same_shape(in1, in2) &&
	    out->rank > COMPARE_MAX_BROADCAST_RANK) {
		OPVER_REPORT(ctx,
			     "inputs of different shapes broadcast to %d dimensions; TFLite broadcasts %s over %d at most",
			     (int)out->rank, ctx->host->op_name(kernel->op),
			     COMPARE_MAX_BROADCAST_RANK);
		return OPVER_ERROR_UNSUPPORTED;
	}
	/* The signature's types all have a walk. */
	data->walk = (size_t)in1->type < count ? walks[in1->type] : NULL;
	if (data->walk == NULL)
		return OPVER_ERROR_UNSUPPORTED;
	if (in1->type == OPVER_TYPE_UINT8 || in1->type == OPVER_TYPE_INT8) {
		status = compare_side_prepare(ctx, "input 1", in1,
					      &data->side[0]);
		if (status == OPVER_OK)
			status = compare_side_prepare(ctx, "input 2", in2,
						      &data->side[1]);
	}
	return status;
}

static opver_status compare_invoke(const opver_context *ctx,
				   opver_node *node)
{
	const compare_data *data = node->op_data;

	(void)ctx;
	data->walk(&data->plan, node->inputs[0]->data, node->inputs[1]->data,
		   node->outputs[0]->data, data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define COMPARE_NUMBERS                                               \
	(OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(INT64) |         \
	 OPVER_T(UINT8) | OPVER_T(INT8))

/* Kernel ref_<name> of `OP`, versions 1..max, inputs of the types of
 * `types` (a mask). */
#define COMPARE_KERNEL(name, OP, max, types)                                 \
	static opver_status name##_prepare(const opver_context *ctx,         \
					   opver_node *node)                 \
	{                                                                    \
		return compare_prepare(ctx, node, &ref_##name, name##_walks, \
				       sizeof(name##_walks) /                \
					       sizeof(name##_walks[0]));     \
	}                                                                    \
	const opver_kernel ref_##name = {                                    \
		OPVER_KERNEL(#name, OP, 1, max),                             \
		REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(types, types),   \
					       OPVER_OUTPUT(OPVER_T(BOOL)))), \
		REF_KERNEL_TRAITS,                                           \
		.op_data_size = sizeof(compare_data),                        \
		.prepare = name##_prepare, .invoke = compare_invoke,         \
	};

COMPARE_KERNEL(equal, EQUAL, 5,
	       COMPARE_NUMBERS | OPVER_T(BOOL) | OPVER_T(INT16))
COMPARE_KERNEL(not_equal, NOT_EQUAL, 4,
	       COMPARE_NUMBERS | OPVER_T(BOOL) | OPVER_T(INT16))
COMPARE_KERNEL(less, LESS, 3, COMPARE_NUMBERS | OPVER_T(INT16))
COMPARE_KERNEL(greater_equal, GREATER_EQUAL, 3,
	       COMPARE_NUMBERS | OPVER_T(INT16))
COMPARE_KERNEL(greater, GREATER, 2, COMPARE_NUMBERS)
COMPARE_KERNEL(less_equal, LESS_EQUAL, 2, COMPARE_NUMBERS)
COMPARE_KERNEL(logical_and, LOGICAL_AND, 1, OPVER_T(BOOL))
COMPARE_KERNEL(logical_or, LOGICAL_OR, 1, OPVER_T(BOOL))

/* ------------------------------------------------------------ LOGICAL_NOT */

static opver_status logical_not_prepare(const opver_context *ctx,
					opver_node *node)
{
	return ref_check_unary(ctx, node, OPVER_TYPE_BOOL, OPVER_TYPE_BOOL,
			       "LOGICAL_NOT takes one BOOL input and one BOOL output");
}

static opver_status logical_not_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const uint8_t *in = node->inputs[0]->data;
	uint8_t *out = node->outputs[0]->data;
	const size_t n = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < n; i++)
		out[i] = in[i] == 0;
	return OPVER_OK;
}

const opver_kernel ref_logical_not = {
	OPVER_KERNEL("logical_not", LOGICAL_NOT, 1, 1),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(BOOL, BOOL)),
	REF_KERNEL_TRAITS,
	.prepare = logical_not_prepare, .invoke = logical_not_invoke,
};
