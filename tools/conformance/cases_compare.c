/*
 * cases_compare.c - the comparison, logical and selection ops' cases:
 * EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL (two inputs
 * of one type, a BOOL output), LOGICAL_AND and LOGICAL_OR (BOOL),
 * broadcast to one output, LOGICAL_NOT, and SELECT and SELECT_V2 over
 * every type TFLite's select takes (SELECT with inputs of one shape or a
 * rank-1 condition, SELECT_V2 broadcasting its three inputs, up to 5-D).
 *
 * Variants cross each op's input kinds with five broadcast patterns:
 *
 *   every comparison  float32, int32, int64 (v1); uint8 (v1) and int8
 *                     (v2) with one quantization shared by both inputs,
 *                     and with input 2's scale twice input 1's and other
 *                     zero points (TFLite rescales both)
 *   EQUAL, NOT_EQUAL  also bool (v1) and int16 (EQUAL v5, NOT_EQUAL v4)
 *   LESS, GREATER_EQUAL  also int16 (v3)
 *   LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT  bool
 *
 * Values are drawn from a few steps around 0 (or the zero point), so that
 * equal values, and equal real values of differently quantized inputs,
 * occur in every case.  TFLite broadcasts these ops up to 4-D; inputs of
 * one shape reach 5-D.  int64 inputs are constants: TFLite's tool feeds
 * no int64 input.
 */
#include <math.h>

#include "cases.h"

typedef enum kind {
	FLOAT32,
	INT32,
	INT64,
	UINT8_SHARED, /* both inputs of one quantization */
	UINT8_SCALED, /* input 2's scale twice input 1's */
	INT8_SHARED,
	INT8_SCALED,
	BOOL,
	INT16
} kind;

static const char *const kind_names[] = {
	"float32", "int32", "int64", "uint8", "uint8", "int8", "int8", "bool",
	"int16",
};

#define COMMON_KINDS FLOAT32, INT32, INT64, UINT8_SHARED, UINT8_SCALED, \
		     INT8_SHARED, INT8_SCALED

typedef struct op_kinds {
	int32_t op;
	int32_t count;
	kind kinds[10];
} op_kinds;

static const op_kinds ops[] = {
	{ OPVER_OP_EQUAL, 9, { COMMON_KINDS, BOOL, INT16 } },
	{ OPVER_OP_NOT_EQUAL, 9, { COMMON_KINDS, BOOL, INT16 } },
	{ OPVER_OP_LESS, 8, { COMMON_KINDS, INT16 } },
	{ OPVER_OP_GREATER_EQUAL, 8, { COMMON_KINDS, INT16 } },
	{ OPVER_OP_GREATER, 7, { COMMON_KINDS } },
	{ OPVER_OP_LESS_EQUAL, 7, { COMMON_KINDS } },
	{ OPVER_OP_LOGICAL_AND, 1, { BOOL } },
	{ OPVER_OP_LOGICAL_OR, 1, { BOOL } },
	{ OPVER_OP_LOGICAL_NOT, 1, { BOOL } },
};

static const op_kinds *kinds_of(int32_t op)
{
	size_t i = 0;

	while (ops[i].op != op)
		i++;
	return &ops[i];
}

static opver_type type_of(kind k)
{
	switch (k) {
	case FLOAT32:
		return OPVER_TYPE_FLOAT32;
	case INT32:
		return OPVER_TYPE_INT32;
	case INT64:
		return OPVER_TYPE_INT64;
	case UINT8_SHARED:
	case UINT8_SCALED:
		return OPVER_TYPE_UINT8;
	case INT8_SHARED:
	case INT8_SCALED:
		return OPVER_TYPE_INT8;
	case BOOL:
		return OPVER_TYPE_BOOL;
	default:
		return OPVER_TYPE_INT16;
	}
}

#define MAX_RANK 5

/*
 * Fills tensor t with values a few steps around `zero` (its zero point,
 * or 0), halves for float32 so that ties occur.  False when out of
 * memory.
 */
static bool fill(cf_case *c, int32_t t, cf_rng *rng, int32_t zero,
		 int32_t spread, bool constant)
{
	cf_tensor_desc *tensor = &c->tensors[t];
	size_t n = cf_tensor_elements(tensor);

	if (!cf_case_fill(c, t, rng, zero - spread, zero + spread, constant))
		return false;
	if (tensor->type == OPVER_TYPE_FLOAT32) {
		float *v = cf_case_values(c, t);

		for (size_t i = 0; i < n; i++)
			v[i] = roundf(v[i] * 2) / 2;
	} else if (tensor->type == OPVER_TYPE_UINT8) {
		/* cf_case_fill() gives uint8 random bytes. */
		uint8_t *v = cf_case_values(c, t);

		for (size_t i = 0; i < n; i++)
			v[i] = (uint8_t)cf_rng_int(rng, zero - spread,
						   zero + spread);
	}
	return true;
}

/* Quantizes inputs t[0] and t[1] as `k` says and returns the values
 * their draws centre on in zero[] (their zero points, or 0); false when
 * out of memory. */
static bool quantize(cf_case *c, cf_rng *rng, kind k, const int32_t *t,
		     int32_t *zero)
{
	const bool shared = k == UINT8_SHARED || k == INT8_SHARED;
	const int32_t base = type_of(k) == OPVER_TYPE_UINT8 ? 128 : 0;
	float scale;

	zero[0] = zero[1] = 0;
	if (k != UINT8_SHARED && k != UINT8_SCALED && k != INT8_SHARED &&
	    k != INT8_SCALED)
		return true;
	scale = cf_rng_float(rng, 0.01f, 0.1f);
	zero[0] = base + cf_rng_int(rng, -20, 20);
	zero[1] = shared ? zero[0] : base + cf_rng_int(rng, -20, 20);
	return cf_case_quantize(c, t[0], scale, zero[0]) &&
	       cf_case_quantize(c, t[1], shared ? scale : 2 * scale,
				zero[1]);
}

static bool generate_logical_not(cf_rng *rng, cf_case *c)
{
	int32_t dims[4], rank = cf_rng_int(rng, 1, 4), in, out;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 4);
	in = cf_case_tensor(c, OPVER_TYPE_BOOL, rank, dims);
	out = cf_case_tensor(c, OPVER_TYPE_BOOL, rank, dims);
	cf_case_input(c, in);
	c->output = out;
	cf_case_param(c, "rank=%d", (int)rank);
	return cf_case_fill(c, in, rng, 0, 1, false);
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const op_kinds *o = kinds_of(c->op);
	const kind k = o->kinds[variant % o->count];
	const int32_t pattern = variant / o->count % CF_NUM_PATTERNS;
	const opver_type type = type_of(k);
	bool constant;
	int32_t t[3], zero[2];
	cf_binary_shapes s;
	/* Rank 1..5 for one shape, 1..4 when the inputs differ (TFLite's
	 * 4-D broadcast); dimensions 1..4. */
	const cf_shape_limits limits = {
		pattern == CF_PATTERN_SAME ? 5 : 4, 4, 4, 3,
	};

	if (c->op == OPVER_OP_LOGICAL_NOT)
		return generate_logical_not(rng, c);
	constant = cf_rng_int(rng, 0, 3) == 0;
	cf_draw_binary_shapes(pattern, &limits, rng, &s);
	for (int i = 0; i < 2; i++)
		t[i] = cf_case_tensor(c, type, s.rank[i], s.dims[i]);
	t[2] = cf_case_tensor(c, OPVER_TYPE_BOOL, s.rank[2], s.dims[2]);
	cf_case_input(c, t[0]);
	cf_case_input(c, t[1]);
	c->output = t[2];
	if (!quantize(c, rng, k, t, zero))
		return false;
	/* Input 2 at twice the scale: half the spread meets input 1's
	 * real values. */
	/* TFLite's tool cannot feed int64 inputs: such cases are all
	 * constants. */
	if (k == INT64)
		constant = true;
	if (!fill(c, t[0], rng, zero[0], 6, k == INT64) ||
	    !fill(c, t[1], rng, zero[1],
		  k == UINT8_SCALED || k == INT8_SCALED ? 3 : 6, constant))
		return false;
	cf_case_param(c, "type=%s", kind_names[k]);
	if (k == UINT8_SHARED || k == INT8_SHARED)
		cf_case_param(c, "quantization=shared");
	else if (k == UINT8_SCALED || k == INT8_SCALED)
		cf_case_param(c, "quantization=scale2x");
	cf_case_param(c, "broadcast=%s", cf_pattern_names[pattern]);
	cf_case_param(c, "second=%s", constant ? "constant" : "input");
	return true;
}

const cf_generator cf_equal_cases = {
	.op = OPVER_OP_EQUAL,
	.num_variants = 9 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_not_equal_cases = {
	.op = OPVER_OP_NOT_EQUAL,
	.num_variants = 9 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_less_cases = {
	.op = OPVER_OP_LESS,
	.num_variants = 8 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_less_equal_cases = {
	.op = OPVER_OP_LESS_EQUAL,
	.num_variants = 7 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_greater_cases = {
	.op = OPVER_OP_GREATER,
	.num_variants = 7 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_greater_equal_cases = {
	.op = OPVER_OP_GREATER_EQUAL,
	.num_variants = 8 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_logical_and_cases = {
	.op = OPVER_OP_LOGICAL_AND,
	.num_variants = CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_logical_or_cases = {
	.op = OPVER_OP_LOGICAL_OR,
	.num_variants = CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_logical_not_cases = {
	.op = OPVER_OP_LOGICAL_NOT,
	.num_variants = 4,
	.generate = generate,
};

/* --------------------------------------------------- SELECT, SELECT_V2 */

/* The types of SELECT's x, y and output. */
static const opver_type select_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16,   OPVER_TYPE_INT32, OPVER_TYPE_INT64,
	OPVER_TYPE_BOOL,    OPVER_TYPE_UINT32,
};
#define SELECT_KINDS \
	(int32_t)(sizeof(select_types) / sizeof(select_types[0]))

/* How SELECT's inputs are shaped: SELECT takes the first two, SELECT_V2
 * all but RANK_ONE. */
enum { SELECT_SAME, SELECT_RANK_ONE, SELECT_CONDITION_SCALAR,
       SELECT_CONDITION_LAST, SELECT_MUTUAL, SELECT_5D, SELECT_SHAPES };

static const char *const select_shape_names[SELECT_SHAPES] = {
	"same", "rank-one-condition", "scalar-condition", "last-dim-condition",
	"three-ways", "5-d",
};

/* The shapes of condition, x, y and output (rank[i], dims[i]). */
static void draw_select_shapes(int32_t mode, cf_rng *rng,
			       int32_t rank[4], int32_t dims[4][MAX_RANK])
{
	const int32_t r = mode == SELECT_5D ? 5 :
			  mode == SELECT_MUTUAL ? 4 : cf_rng_int(rng, 1, 4);

	for (int32_t d = 0; d < r; d++)
		dims[3][d] = cf_rng_int(rng, 2, mode == SELECT_5D ? 2 : 3);
	for (int i = 0; i < 4; i++) {
		rank[i] = r;
		for (int32_t d = 0; d < r; d++)
			dims[i][d] = dims[3][d];
	}
	switch (mode) {
	case SELECT_RANK_ONE:
		rank[0] = 1;
		break;
	case SELECT_CONDITION_SCALAR:
		rank[0] = 1;
		dims[0][0] = 1;
		break;
	case SELECT_CONDITION_LAST:
		rank[0] = 1;
		dims[0][0] = dims[3][r - 1];
		break;
	case SELECT_MUTUAL:
		/* [N, 1, W, C], [1, H, 1, C] and [N, H, W, 1]. */
		dims[0][1] = 1;
		dims[1][0] = dims[1][2] = 1;
		dims[2][3] = 1;
		break;
	case SELECT_5D:
		dims[0][2] = 1;
		dims[1][0] = 1;
		break;
	default:
		break;
	}
}

static bool generate_select(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool v2 = c->op == OPVER_OP_SELECT_V2;
	const opver_type type = select_types[variant % SELECT_KINDS];
	static const int32_t v2_modes[] = { SELECT_SAME,
					    SELECT_CONDITION_SCALAR,
					    SELECT_CONDITION_LAST,
					    SELECT_MUTUAL, SELECT_5D };
	const int32_t mode = v2 ? v2_modes[variant / SELECT_KINDS] :
				  variant / SELECT_KINDS;
	const float scale = cf_rng_float(rng, 0.01f, 0.1f);
	const int32_t zero = cf_rng_int(rng, -20, 20);
	int32_t rank[4], dims[4][MAX_RANK], t[4];
	bool constant = type == OPVER_TYPE_INT64;

	draw_select_shapes(mode, rng, rank, dims);
	t[0] = cf_case_tensor(c, OPVER_TYPE_BOOL, rank[0], dims[0]);
	for (int i = 1; i < 4; i++)
		t[i] = cf_case_tensor(c, type, rank[i], dims[i]);
	for (int i = 0; i < 3; i++)
		cf_case_input(c, t[i]);
	c->output = t[3];
	if (type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8)
		for (int i = 1; i < 4; i++)
			if (!cf_case_quantize(c, t[i], scale,
					      type == OPVER_TYPE_UINT8 ?
						      128 + zero : zero))
				return false;
	if (!cf_case_fill(c, t[0], rng, 0, 1, false) ||
	    !cf_case_fill(c, t[1], rng, -100, 100, constant) ||
	    !cf_case_fill(c, t[2], rng, -100, 100,
			  constant || cf_rng_int(rng, 0, 3) == 0))
		return false;
	cf_case_param(c, "type=%s", opver_type_name(type));
	cf_case_param(c, "shapes=%s", select_shape_names[mode]);
	return true;
}

/* SELECT: same shapes and a rank-one condition; SELECT_V2: same shapes
 * and four broadcasts. */
const cf_generator cf_select_cases = {
	.op = OPVER_OP_SELECT,
	.num_variants = 2 * SELECT_KINDS,
	.generate = generate_select,
};

const cf_generator cf_select_v2_cases = {
	.op = OPVER_OP_SELECT_V2,
	.num_variants = (SELECT_SHAPES - 1) * SELECT_KINDS,
	.generate = generate_select,
};
