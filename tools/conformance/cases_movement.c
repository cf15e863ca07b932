/*
 * cases_movement.c - cases of the data-movement ops: PAD, PADV2,
 * MIRROR_PAD, CONCATENATION, SPLIT, SPLIT_V, PACK, UNPACK, SQUEEZE,
 * EXPAND_DIMS, TRANSPOSE, REVERSE_V2, DYNAMIC_UPDATE_SLICE, SLICE and
 * STRIDED_SLICE.
 *
 * Variants cross each op's element types (TFLite's list for the op) with
 * the parameter branches that matter to it: paddings as INT32 or INT64,
 * PADV2 with or without its constant, both mirror modes, UINT8 inputs
 * quantized unlike the output (CONCATENATION requantizes them), SPLIT_V
 * with a -1 size, SQUEEZE with and without squeeze_dims, ranks 5 and 6
 * (TRANSPOSE, PAD, SLICE), and every STRIDED_SLICE mask including
 * negative strides and offset.  Each case draws its shape (dimensions 1-4),
 * axes, index tensors (constant, as converters store them) and data.
 * Quantized tensors share one scale and zero point, as converters keep
 * them through these ops; the zero point is what PAD fills with.
 * CONCATENATION's requantizing then gets hard variants (cases_hard.h).
 */
#include <string.h>

#include "cases_hard.h"

/* The inputs CONCATENATION and PACK draw: at most 4, as when their
 * goldens were recorded. */
#define MAX_PIECES 4

/* TFLite's element types of the byte-moving kernels, in variant order. */
static const opver_type move_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	OPVER_TYPE_INT16, OPVER_TYPE_INT32, OPVER_TYPE_INT64, OPVER_TYPE_BOOL,
};
#define NUM_MOVE_TYPES ((int32_t)(sizeof(move_types) / sizeof(move_types[0])))

/* The same and UINT32 (CONCATENATION, SLICE, STRIDED_SLICE). */
static opver_type wide_type(int32_t index)
{
	return index < NUM_MOVE_TYPES ? move_types[index] : OPVER_TYPE_UINT32;
}
#define NUM_WIDE_TYPES (NUM_MOVE_TYPES + 1)

#define COUNT_SIZED(name, value, size) +((size) > 0)
enum { NUM_SIZED_TYPES = 0 OPVER_TYPE_MAP(COUNT_SIZED) };
#undef COUNT_SIZED

/* The index-th type with a fixed element size (SQUEEZE, EXPAND_DIMS). */
static opver_type sized_type(int32_t index)
{
	for (int32_t type = 0; type < OPVER_TYPE_COUNT; type++)
		if (opver_type_size(type) > 0 && index-- == 0)
			return (opver_type)type;
	return OPVER_TYPE_FLOAT32;
}

static bool quantized_type(opver_type type)
{
	return type == OPVER_TYPE_INT8 || type == OPVER_TYPE_UINT8 ||
	       type == OPVER_TYPE_INT16;
}

/* One scale and zero point for the case's quantized tensors. */
typedef struct move_quant {
	float scale;
	int64_t zero_point;
} move_quant;

static move_quant draw_quant(cf_rng *rng, opver_type type)
{
	move_quant q = { cf_rng_float(rng, 0.01f, 1.0f), 0 };

	if (type == OPVER_TYPE_INT8)
		q.zero_point = cf_rng_int(rng, -20, 20);
	else if (type == OPVER_TYPE_UINT8)
		q.zero_point = cf_rng_int(rng, 100, 150);
	return q;
}

/* A tensor of `type`, quantized with q when the type is. */
static int32_t move_tensor(cf_case *c, opver_type type, int32_t rank,
			   const int32_t *dims, const move_quant *q,
			   bool *ok)
{
	int32_t t = cf_case_tensor(c, type, rank, dims);

	if (quantized_type(type) && !cf_case_quantize(c, t, q->scale,
						     q->zero_point))
		*ok = false;
	return t;
}

/* The graph input of `type` and shape, with random data. */
static int32_t move_input(cf_case *c, cf_rng *rng, opver_type type,
			  int32_t rank, const int32_t *dims,
			  const move_quant *q, bool *ok)
{
	int32_t t = move_tensor(c, type, rank, dims, q, ok);

	cf_case_input(c, t);
	if (!cf_case_fill(c, t, rng, -100, 100, false))
		*ok = false;
	return t;
}

/* A constant INT32 (or INT64 when wide) tensor of shape dims holding
 * `values`, added as the node's next input. */
static int32_t move_indices(cf_case *c, int32_t rank, const int32_t *dims,
			    const int32_t *values, bool wide, bool *ok)
{
	int32_t t = cf_case_tensor(c, wide ? OPVER_TYPE_INT64
					   : OPVER_TYPE_INT32,
				   rank, dims);
	size_t n = 1, size = wide ? 8 : 4;
	void *data;

	for (int32_t d = 0; d < rank; d++)
		n *= (size_t)dims[d];
	data = cf_case_alloc(c, n * size);
	if (data == NULL) {
		*ok = false;
		return t;
	}
	for (size_t i = 0; i < n; i++) {
		if (wide)
			((int64_t *)data)[i] = values[i];
		else
			((int32_t *)data)[i] = values[i];
	}
	c->tensors[t].data = data;
	c->tensors[t].data_size = n * size;
	cf_case_input(c, t);
	return t;
}

static int32_t move_scalar(cf_case *c, int32_t value, bool *ok)
{
	static const int32_t one = 1;

	return move_indices(c, 1, &one, &value, false, ok);
}

/* A shape of `rank` dimensions of 1-4. */
static void draw_shape(cf_rng *rng, int32_t rank, int32_t *dims)
{
	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 4);
}

/* ------------------------------------------- PAD, PADV2, MIRROR_PAD */

static bool generate_pad_family(int32_t op, int32_t variant, cf_rng *rng,
				cf_case *c)
{
	const bool mirror = op == OPVER_OP_MIRROR_PAD;
	const int32_t num_types = mirror ? NUM_MOVE_TYPES - 1 : NUM_MOVE_TYPES;
	const opver_type type = move_types[variant % num_types];
	const bool wide = variant / num_types % 2;
	const int32_t option = variant / num_types / 2 % 2;
	const bool rank5 = variant / num_types / 4 % 2;
	int32_t rank = rank5 ? 5 : cf_rng_int(rng, 1, 4);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK], pairs[2 * CF_MAX_RANK];
	const int32_t pair_dims[2] = { rank, 2 };
	move_quant q = draw_quant(rng, type);
	bool ok = true;
	int32_t input, output;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		/* REFLECT reaches size - 1, SYMMETRIC size. */
		int32_t reach = !mirror ? 3 : option == 0 ? dims[d] - 1
							  : dims[d];

		pairs[2 * d] = cf_rng_int(rng, 0, reach);
		pairs[2 * d + 1] = cf_rng_int(rng, 0, reach);
		out_dims[d] = dims[d] + pairs[2 * d] + pairs[2 * d + 1];
	}
	input = move_input(c, rng, type, rank, dims, &q, &ok);
	move_indices(c, 2, pair_dims, pairs, wide, &ok);
	if (op == OPVER_OP_PADV2 && option == 1) {
		static const int32_t one = 1;
		int32_t value = move_tensor(c, type, 1, &one, &q, &ok);

		cf_case_input(c, value);
		if (!cf_case_fill(c, value, rng, -100, 100, true))
			ok = false;
	}
	output = move_tensor(c, type, rank, out_dims, &q, &ok);
	(void)input;
	c->output = output;
	if (mirror) {
		c->has_params = true;
		c->params.mirror_pad.mode = option;
	}
	cf_case_param(c, "paddings=%s%s%s", wide ? "int64" : "int32",
		      op == OPVER_OP_PADV2 ? option ? " constant=yes"
						    : " constant=no"
		      : mirror ? option ? " mode=SYMMETRIC" : " mode=REFLECT"
			       : "",
		      rank5 ? " rank=5" : "");
	return ok;
}

static bool generate_pad(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_pad_family(OPVER_OP_PAD, variant, rng, c);
}

static bool generate_padv2(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_pad_family(OPVER_OP_PADV2, variant, rng, c);
}

static bool generate_mirror_pad(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_pad_family(OPVER_OP_MIRROR_PAD, variant, rng, c);
}

const cf_generator cf_pad_cases = {
	.op = OPVER_OP_PAD,
	.num_variants = NUM_MOVE_TYPES * 2 * 2 * 2,
	.generate = generate_pad,
};

const cf_generator cf_padv2_cases = {
	.op = OPVER_OP_PADV2,
	.num_variants = NUM_MOVE_TYPES * 2 * 2 * 2,
	.generate = generate_padv2,
};

const cf_generator cf_mirror_pad_cases = {
	.op = OPVER_OP_MIRROR_PAD,
	.num_variants = (NUM_MOVE_TYPES - 1) * 2 * 2,
	.generate = generate_mirror_pad,
};

/* ------------------------------------------------------ CONCATENATION */

/* Variants: the types and UINT32, then UINT8 with each input quantized
 * its own way. */
static bool generate_concatenation(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool requantize = variant == NUM_WIDE_TYPES;
	const opver_type type = requantize ? OPVER_TYPE_UINT8
					   : wide_type(variant);
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t count = cf_rng_int(rng, 1, MAX_PIECES);
	int32_t axis = cf_rng_int(rng, 0, rank - 1), along = 0;
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t k = 0; k < count; k++) {
		move_quant own = requantize ? draw_quant(rng, type) : q;

		dims[axis] = cf_rng_int(rng, 1, 3);
		along += dims[axis];
		move_input(c, rng, type, rank, dims, &own, &ok);
	}
	dims[axis] = along;
	c->output = move_tensor(c, type, rank, dims, &q, &ok);
	c->has_params = true;
	c->params.concatenation.axis = cf_rng_int(rng, 0, 1) ? axis - rank
							       : axis;
	cf_case_param(c, "inputs=%d axis=%d%s", (int)count,
		      (int)c->params.concatenation.axis,
		      requantize ? " requantize=yes" : "");
	return ok;
}

/*
 * Hard variant v: UINT8 at spot v (cases_hard.h).  The first input is
 * requantized through the drawn rescale (TFLite computes q * scale + bias
 * in float and rounds half away from zero: ties at the ties spot, values
 * past 0 and 255 at every spot); the second shares the output's
 * quantization and is copied.
 */
static bool generate_concatenation_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t axis = cf_rng_int(rng, 0, rank - 1), along, t[2], copied;
	const cf_tensor_desc *out;
	cf_hard hard;

	cf_hard_draw(&hard, v, rng);
	draw_shape(rng, rank, dims);
	t[0] = cf_case_tensor(c, OPVER_TYPE_UINT8, rank, dims);
	cf_case_input(c, t[0]);
	along = dims[axis];
	dims[axis] = cf_rng_int(rng, 1, 3);
	along += dims[axis];
	copied = cf_case_tensor(c, OPVER_TYPE_UINT8, rank, dims);
	cf_case_input(c, copied);
	dims[axis] = along;
	t[1] = cf_case_tensor(c, OPVER_TYPE_UINT8, rank, dims);
	c->output = t[1];
	c->has_params = true;
	c->params.concatenation.axis = axis;
	cf_case_param(c, "inputs=2 axis=%d requantize=first", (int)axis);
	if (!cf_hard_unary_op(c, &hard, rng, t))
		return false;
	out = &c->tensors[t[1]];
	return cf_case_quantize(c, copied, out->scales[0],
				(int32_t)out->zero_points[0]) &&
	       cf_hard_fill(c, copied, rng,
			    cf_hard_deviation(&hard, 1, false,
					      OPVER_TYPE_UINT8),
			    false);
}

static bool generate_concatenation_any(int32_t variant, cf_rng *rng,
				       cf_case *c)
{
	if (variant > NUM_WIDE_TYPES)
		return generate_concatenation_hard(variant - NUM_WIDE_TYPES - 1,
						   rng, c);
	return generate_concatenation(variant, rng, c);
}

const cf_generator cf_concatenation_cases = {
	.op = OPVER_OP_CONCATENATION,
	.num_variants = NUM_WIDE_TYPES + 1 + CF_NUM_SPOTS,
	.generate = generate_concatenation_any,
};

/* -------------------------------------- SPLIT, SPLIT_V, PACK, UNPACK */

static const opver_type split_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16, OPVER_TYPE_INT32, OPVER_TYPE_INT64,
};

/* SPLIT (without INT64) and SPLIT_V; SPLIT_V's odd variants use -1. */
static bool generate_split_family(bool v, int32_t variant, cf_rng *rng,
				  cf_case *c)
{
	const opver_type type = split_types[variant % (v ? 6 : 5)];
	const bool stretch = v && variant / 6 % 2;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t count = cf_rng_int(rng, 1, CF_MAX_NODE_OUTPUTS);
	int32_t axis = cf_rng_int(rng, 0, rank - 1), sizes[CF_MAX_NODE_OUTPUTS];
	const int32_t count_dims[1] = { count };
	move_quant q = draw_quant(rng, type);
	bool ok = true;
	int32_t in_dims[CF_MAX_RANK];

	draw_shape(rng, rank, dims);
	dims[axis] = 0;
	for (int32_t k = 0; k < count; k++) {
		sizes[k] = v ? cf_rng_int(rng, 0, 3) : 0;
		dims[axis] += sizes[k];
	}
	if (!v) {
		int32_t part = cf_rng_int(rng, 1, 3);

		for (int32_t k = 0; k < count; k++)
			sizes[k] = part;
		dims[axis] = part * count;
	}
	memcpy(in_dims, dims, sizeof(in_dims));
	if (!v)
		move_scalar(c, cf_rng_int(rng, 0, 1) ? axis - rank : axis, &ok);
	move_input(c, rng, type, rank, in_dims, &q, &ok);
	if (v) {
		int32_t spec[CF_MAX_NODE_OUTPUTS];

		memcpy(spec, sizes, sizeof(spec));
		if (stretch)
			spec[cf_rng_int(rng, 0, count - 1)] = -1;
		move_indices(c, 1, count_dims, spec, false, &ok);
		move_scalar(c, axis, &ok);
	}
	for (int32_t k = 0; k < count; k++) {
		int32_t t;

		dims[axis] = sizes[k];
		t = move_tensor(c, type, rank, dims, &q, &ok);
		if (k == 0)
			c->output = t;
		else
			cf_case_more_output(c, t);
	}
	c->has_params = true;
	c->params.split.num_splits = count;
	cf_case_param(c, "parts=%d axis=%d%s", (int)count, (int)axis,
		      stretch ? " minus-one=yes" : "");
	return ok;
}

static bool generate_split(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_split_family(false, variant, rng, c);
}

static bool generate_split_v(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_split_family(true, variant, rng, c);
}

const cf_generator cf_split_cases = {
	.op = OPVER_OP_SPLIT,
	.num_variants = 5,
	.generate = generate_split,
};

const cf_generator cf_split_v_cases = {
	.op = OPVER_OP_SPLIT_V,
	.num_variants = 12,
	.generate = generate_split_v,
};

/* PACK over TFLite's PACK types; UNPACK over its UNPACK ones. */
static bool generate_pack_family(bool pack, int32_t variant, cf_rng *rng,
				 cf_case *c)
{
	static const opver_type pack_types[] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
		OPVER_TYPE_INT16, OPVER_TYPE_INT32, OPVER_TYPE_INT64,
		OPVER_TYPE_UINT32,
	};
	static const opver_type unpack_types[] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32, OPVER_TYPE_UINT8,
		OPVER_TYPE_INT8, OPVER_TYPE_BOOL, OPVER_TYPE_INT16,
		OPVER_TYPE_FLOAT16, OPVER_TYPE_BFLOAT16,
	};
	const opver_type type = pack ? pack_types[variant % 7]
				     : unpack_types[variant % 8];
	int32_t rank = cf_rng_int(rng, 0, 3), dims[CF_MAX_RANK];
	int32_t whole[CF_MAX_RANK];
	int32_t count = cf_rng_int(rng, 1, pack ? MAX_PIECES
						: CF_MAX_NODE_OUTPUTS);
	int32_t axis = cf_rng_int(rng, 0, rank);
	int32_t option_axis = cf_rng_int(rng, 0, 1) ? axis - rank - 1 : axis;
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0, i = 0; d <= rank; d++)
		whole[d] = d == axis ? count : dims[i++];
	if (pack) {
		for (int32_t k = 0; k < count; k++)
			move_input(c, rng, type, rank, dims, &q, &ok);
		c->output = move_tensor(c, type, rank + 1, whole, &q, &ok);
		c->params.pack.values_count = count;
		c->params.pack.axis = option_axis;
	} else {
		move_input(c, rng, type, rank + 1, whole, &q, &ok);
		for (int32_t k = 0; k < count; k++) {
			int32_t t = move_tensor(c, type, rank, dims, &q, &ok);

			if (k == 0)
				c->output = t;
			else
				cf_case_more_output(c, t);
		}
		c->params.unpack.num = count;
		c->params.unpack.axis = option_axis;
	}
	c->has_params = true;
	cf_case_param(c, "parts=%d axis=%d", (int)count, (int)option_axis);
	return ok;
}

static bool generate_pack(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_pack_family(true, variant, rng, c);
}

static bool generate_unpack(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_pack_family(false, variant, rng, c);
}

const cf_generator cf_pack_cases = {
	.op = OPVER_OP_PACK,
	.num_variants = 7,
	.generate = generate_pack,
};

const cf_generator cf_unpack_cases = {
	.op = OPVER_OP_UNPACK,
	.num_variants = 8,
	.generate = generate_unpack,
};

/* ------------------------------------------- SQUEEZE and EXPAND_DIMS */

/* SQUEEZE: odd variants list squeeze_dims, even ones leave it empty. */
static bool generate_squeeze(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = sized_type(variant % NUM_SIZED_TYPES);
	const bool listed = variant / NUM_SIZED_TYPES % 2;
	int32_t rank = cf_rng_int(rng, 1, 5), dims[CF_MAX_RANK];
	int32_t out_dims[CF_MAX_RANK], out_rank = 0;
	int32_t forced = cf_rng_int(rng, 0, rank - 1);
	move_quant q = draw_quant(rng, type);
	opver_squeeze_params *p = &c->params.squeeze;
	bool ok = true;

	draw_shape(rng, rank, dims);
	/* One dimension of 1, listed for sure when the list is used. */
	dims[forced] = 1;
	for (int32_t d = 0; d < rank; d++) {
		bool drop = dims[d] == 1 &&
			    (!listed || d == forced || cf_rng_int(rng, 0, 1));

		if (drop && listed)
			p->dims[p->num_dims++] =
				cf_rng_int(rng, 0, 1) ? d - rank : d;
		if (!drop)
			out_dims[out_rank++] = dims[d];
	}
	move_input(c, rng, type, rank, dims, &q, &ok);
	c->output = move_tensor(c, type, out_rank, out_dims, &q, &ok);
	c->has_params = true;
	cf_case_param(c, "squeeze_dims=%s", listed ? "listed" : "all");
	return ok;
}

const cf_generator cf_squeeze_cases = {
	.op = OPVER_OP_SQUEEZE,
	.num_variants = NUM_SIZED_TYPES * 2,
	.generate = generate_squeeze,
};

static bool generate_expand_dims(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = sized_type(variant % NUM_SIZED_TYPES);
	int32_t rank = cf_rng_int(rng, 0, 4), dims[CF_MAX_RANK];
	int32_t out_dims[CF_MAX_RANK], axis = cf_rng_int(rng, 0, rank);
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0, i = 0; d <= rank; d++)
		out_dims[d] = d == axis ? 1 : dims[i++];
	move_input(c, rng, type, rank, dims, &q, &ok);
	axis = cf_rng_int(rng, 0, 1) ? axis - rank - 1 : axis;
	move_scalar(c, axis, &ok);
	c->output = move_tensor(c, type, rank + 1, out_dims, &q, &ok);
	cf_case_param(c, "axis=%d", (int)axis);
	return ok;
}

const cf_generator cf_expand_dims_cases = {
	.op = OPVER_OP_EXPAND_DIMS,
	.num_variants = NUM_SIZED_TYPES,
	.generate = generate_expand_dims,
};

/* ---------------------------------------------------------- TRANSPOSE */

/* Variants: the types at rank 1-4, FLOAT32 at ranks 5 to 8, then BFLOAT16
 * (version 8) at rank 1-4. */
static bool generate_transpose(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool bfloat16 = variant == NUM_MOVE_TYPES + 4;
	const opver_type type = variant < NUM_MOVE_TYPES ? move_types[variant]
				: bfloat16 ? OPVER_TYPE_BFLOAT16
					   : OPVER_TYPE_FLOAT32;
	int32_t rank = variant < NUM_MOVE_TYPES || bfloat16
			       ? cf_rng_int(rng, 1, 4)
			       : 5 + (variant - NUM_MOVE_TYPES);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK], perm[CF_MAX_RANK];
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++)
		perm[d] = d;
	for (int32_t d = rank - 1; d > 0; d--) {
		int32_t j = cf_rng_int(rng, 0, d), swap = perm[d];

		perm[d] = perm[j];
		perm[j] = swap;
	}
	for (int32_t d = 0; d < rank; d++)
		out_dims[d] = dims[perm[d]];
	move_input(c, rng, type, rank, dims, &q, &ok);
	move_indices(c, 1, &rank, perm, false, &ok);
	c->output = move_tensor(c, type, rank, out_dims, &q, &ok);
	cf_case_param(c, "rank=%d", (int)rank);
	return ok;
}

const cf_generator cf_transpose_cases = {
	.op = OPVER_OP_TRANSPOSE,
	.num_variants = NUM_MOVE_TYPES + 5,
	.generate = generate_transpose,
};

/* --------------------------------------------------------- REVERSE_V2 */

/* Variants: the types with one axis, then FLOAT32 with two and with three
 * adjacent axes.  Each case draws the axes' place and gives some
 * negative. */
static bool generate_reverse_v2(int32_t variant, cf_rng *rng, cf_case *c)
{
	const int32_t count = variant < NUM_MOVE_TYPES
				      ? 1
				      : 2 + (variant - NUM_MOVE_TYPES);
	const opver_type type = variant < NUM_MOVE_TYPES ? move_types[variant]
							 : OPVER_TYPE_FLOAT32;
	int32_t rank = cf_rng_int(rng, count, 4), dims[CF_MAX_RANK];
	int32_t first = cf_rng_int(rng, 0, rank - count), axes[3];
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t i = 0; i < count; i++)
		axes[i] = cf_rng_int(rng, 0, 1) ? first + i - rank : first + i;
	move_input(c, rng, type, rank, dims, &q, &ok);
	move_indices(c, 1, &count, axes, false, &ok);
	c->output = move_tensor(c, type, rank, dims, &q, &ok);
	cf_case_param(c, "axes=%d from=%d rank=%d", (int)count, (int)axes[0],
		      (int)rank);
	return ok;
}

const cf_generator cf_reverse_v2_cases = {
	.op = OPVER_OP_REVERSE_V2,
	.num_variants = NUM_MOVE_TYPES + 2,
	.generate = generate_reverse_v2,
};

/* ------------------------------------------------ DYNAMIC_UPDATE_SLICE */

/* Variants: the types but UINT8 (TFLite's kernel has none) with INT32 or
 * INT64 start indices, then FLOAT16 (version 3) and BFLOAT16 (version 6)
 * with INT32 ones.  Start indices are drawn past both ends of the room
 * the update leaves, to reach the clamping. */
static bool generate_dynamic_update_slice(int32_t variant, cf_rng *rng,
					  cf_case *c)
{
	const int32_t k = variant % (NUM_MOVE_TYPES - 1);
	const bool half = variant >= 2 * (NUM_MOVE_TYPES - 1);
	const opver_type type =
		!half ? move_types[k + (k >= 2)]
		: variant % 2 ? OPVER_TYPE_BFLOAT16 : OPVER_TYPE_FLOAT16;
	const bool wide = !half && variant / (NUM_MOVE_TYPES - 1);
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t update_dims[CF_MAX_RANK], start[CF_MAX_RANK];
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		update_dims[d] = cf_rng_int(rng, 1, dims[d]);
		start[d] = cf_rng_int(rng, -2, dims[d] - update_dims[d] + 2);
	}
	move_input(c, rng, type, rank, dims, &q, &ok);
	move_input(c, rng, type, rank, update_dims, &q, &ok);
	move_indices(c, 1, &rank, start, wide, &ok);
	c->output = move_tensor(c, type, rank, dims, &q, &ok);
	cf_case_param(c, "indices=%s rank=%d", wide ? "int64" : "int32",
		      (int)rank);
	return ok;
}

const cf_generator cf_dynamic_update_slice_cases = {
	.op = OPVER_OP_DYNAMIC_UPDATE_SLICE,
	.num_variants = 2 * (NUM_MOVE_TYPES - 1) + 2,
	.generate = generate_dynamic_update_slice,
};

/* -------------------------------------------------------------- SLICE */

/* Variants: the types and UINT32 with INT32 or INT64 indices, then rank
 * 5. */
static bool generate_slice(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool rank5 = variant == 2 * NUM_WIDE_TYPES;
	const opver_type type = rank5 ? OPVER_TYPE_FLOAT32
				      : wide_type(variant % NUM_WIDE_TYPES);
	const bool wide = !rank5 && variant / NUM_WIDE_TYPES;
	int32_t rank = rank5 ? 5 : cf_rng_int(rng, 1, 4);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK];
	int32_t begin[CF_MAX_RANK], size[CF_MAX_RANK];
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		begin[d] = cf_rng_int(rng, 0, dims[d] - 1);
		out_dims[d] = cf_rng_int(rng, 1, dims[d] - begin[d]);
		size[d] = out_dims[d] == dims[d] - begin[d] &&
					  cf_rng_int(rng, 0, 1)
				  ? -1
				  : out_dims[d];
	}
	move_input(c, rng, type, rank, dims, &q, &ok);
	move_indices(c, 1, &rank, begin, wide, &ok);
	move_indices(c, 1, &rank, size, wide, &ok);
	c->output = move_tensor(c, type, rank, out_dims, &q, &ok);
	cf_case_param(c, "indices=%s rank=%d", wide ? "int64" : "int32",
		      (int)rank);
	return ok;
}

const cf_generator cf_slice_cases = {
	.op = OPVER_OP_SLICE,
	.num_variants = 2 * NUM_WIDE_TYPES + 1,
	.generate = generate_slice,
};

/* ------------------------------------------------------ STRIDED_SLICE */

enum {
	SS_PLAIN, SS_MASKS, SS_NEGATIVE, SS_SHRINK, SS_ELLIPSIS, SS_NEW_AXIS,
	SS_OFFSET, SS_NUM_KINDS
};
static const char *const ss_kinds[SS_NUM_KINDS] = {
	"plain", "begin-end-masks", "negative-strides", "shrink", "ellipsis",
	"new-axis", "offset",
};

/* Output count along a dimension of n with begin b, end e, stride s, as
 * TFLite clamps them (no masks). */
static int32_t ss_count(int32_t n, int32_t b, int32_t e, int32_t s)
{
	int32_t count;

	b = b < 0 ? b + n : b;
	e = e < 0 ? e + n : e;
	if (s > 0) {
		b = b < 0 ? 0 : b > n ? n : b;
		e = e < 0 ? 0 : e > n ? n : e;
		count = (e - b + s - 1) / s;
	} else {
		b = b < -1 ? -1 : b > n - 1 ? n - 1 : b;
		e = e < -1 ? -1 : e > n - 1 ? n - 1 : e;
		count = (b - e - s - 1) / -s;
	}
	return count < 0 ? 0 : count;
}

/*
 * Every kind draws a spec over rank 1-4 (the ellipsis and new axis kinds
 * rewrite one entry); begin and end lie in [-n, n], strides in 1-2 (or
 * -2..-1).  Each dimension's output count is computed here, independently
 * of the kernels' planning.
 */
static bool generate_strided_slice(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = wide_type(variant % NUM_WIDE_TYPES);
	const int32_t kind = variant / NUM_WIDE_TYPES;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t begin[CF_MAX_RANK + 1], end[CF_MAX_RANK + 1];
	int32_t stride[CF_MAX_RANK + 1], out_dims[CF_MAX_RANK + 1];
	int32_t count = rank, out_rank = 0;
	opver_strided_slice_params *p = &c->params.strided_slice;
	move_quant q = draw_quant(rng, type);
	bool ok = true;

	draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		int32_t n = dims[d], b, e, s;

		s = cf_rng_int(rng, 1, 2);
		if (kind == SS_NEGATIVE && cf_rng_int(rng, 0, 1))
			s = -s;
		b = cf_rng_int(rng, -n, n);
		e = cf_rng_int(rng, -n, n);
		begin[d] = b;
		end[d] = e;
		stride[d] = s;
		if (kind == SS_MASKS && cf_rng_int(rng, 0, 1)) {
			p->begin_mask |= 1 << d;
			b = s > 0 ? 0 : n - 1;
		}
		if (kind == SS_MASKS && cf_rng_int(rng, 0, 1)) {
			p->end_mask |= 1 << d;
			e = s > 0 ? n : -n - 1;
		}
		if (kind == SS_OFFSET) {
			/* end counts from begin, which lies inside. */
			b = begin[d] = cf_rng_int(rng, 0, n - 1);
			end[d] = cf_rng_int(rng, 0, n - b);
			e = b + end[d];
		}
		if (kind == SS_SHRINK && cf_rng_int(rng, 0, 1)) {
			/* One element at an index inside the dimension. */
			begin[d] = cf_rng_int(rng, -n, n - 1);
			end[d] = begin[d] + 1;
			stride[d] = 1;
			p->shrink_axis_mask |= 1 << d;
			continue;
		}
		out_dims[out_rank++] = ss_count(n, b, e, s);
	}
	if (kind == SS_ELLIPSIS) {
		/* Entry 0 becomes the ellipsis: dimension 0 whole. */
		p->ellipsis_mask = 1;
		out_dims[0] = dims[0];
	}
	if (kind == SS_NEW_AXIS) {
		/* An extra entry in front inserts a dimension of 1. */
		memmove(begin + 1, begin, (size_t)rank * sizeof(*begin));
		memmove(end + 1, end, (size_t)rank * sizeof(*end));
		memmove(stride + 1, stride, (size_t)rank * sizeof(*stride));
		memmove(out_dims + 1, out_dims,
			(size_t)out_rank * sizeof(*out_dims));
		begin[0] = end[0] = 0;
		stride[0] = 1;
		out_dims[0] = 1;
		out_rank++;
		count++;
		p->new_axis_mask = 1;
	}
	p->offset = kind == SS_OFFSET;
	move_input(c, rng, type, rank, dims, &q, &ok);
	move_indices(c, 1, &count, begin, false, &ok);
	move_indices(c, 1, &count, end, false, &ok);
	move_indices(c, 1, &count, stride, false, &ok);
	c->output = move_tensor(c, type, out_rank, out_dims, &q, &ok);
	c->has_params = true;
	cf_case_param(c, "kind=%s begin_mask=%d end_mask=%d shrink=%d",
		      ss_kinds[kind], (int)p->begin_mask, (int)p->end_mask,
		      (int)p->shrink_axis_mask);
	return ok;
}

const cf_generator cf_strided_slice_cases = {
	.op = OPVER_OP_STRIDED_SLICE,
	.num_variants = NUM_WIDE_TYPES * SS_NUM_KINDS,
	.generate = generate_strided_slice,
};
