/*
 * cases_movement.c - cases of the data-movement ops: PAD, PADV2,
 * MIRROR_PAD, CONCATENATION, SPLIT, SPLIT_V, PACK, UNPACK, SQUEEZE,
 * EXPAND_DIMS, TRANSPOSE and REVERSE_V2 (the slicing ones are in
 * cases_slice.c).
 *
 * Variants cross each op's element types (TFLite's list for the op) with
 * the parameter branches that matter to it: paddings as INT32 or INT64,
 * PADV2 with or without its constant, both mirror modes, UINT8 inputs
 * quantized unlike the output (CONCATENATION requantizes them), SPLIT_V
 * with a -1 size, SQUEEZE with and without squeeze_dims, ranks 5 and 6
 * (TRANSPOSE, PAD).  Each case draws its shape (dimensions 1-4), axes,
 * index tensors (constant, as converters store them) and data.
 * Quantized tensors share one scale and zero point, as converters keep
 * them through these ops; the zero point is what PAD fills with.
 * CONCATENATION's requantizing then gets hard variants (cases_hard.h).
 */
#include <string.h>

#include "cases_hard.h"
#include "cases_move.h"

/* The inputs CONCATENATION and PACK draw: at most 4, as when their
 * goldens were recorded. */
#define MAX_PIECES 4

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

static int32_t move_scalar(cf_case *c, int32_t value, bool *ok)
{
	static const int32_t one = 1;

	return cf_move_indices(c, 1, &one, &value, false, ok);
}

/* ------------------------------------------- PAD, PADV2, MIRROR_PAD */

static bool generate_pad_family(int32_t op, int32_t variant, cf_rng *rng,
				cf_case *c)
{
	const bool mirror = op == OPVER_OP_MIRROR_PAD;
	const int32_t num_types = mirror ? CF_NUM_MOVE_TYPES - 1
					 : CF_NUM_MOVE_TYPES;
	const opver_type type = cf_move_types[variant % num_types];
	const bool wide = variant / num_types % 2;
	const int32_t option = variant / num_types / 2 % 2;
	const bool rank5 = variant / num_types / 4 % 2;
	int32_t rank = rank5 ? 5 : cf_rng_int(rng, 1, 4);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK];
	int32_t pairs[2 * CF_MAX_RANK];
	const int32_t pair_dims[2] = { rank, 2 };
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;
	int32_t input, output;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		/* REFLECT reaches size - 1, SYMMETRIC size. */
		int32_t reach = !mirror ? 3 : option == 0 ? dims[d] - 1
							  : dims[d];

		pairs[2 * d] = cf_rng_int(rng, 0, reach);
		pairs[2 * d + 1] = cf_rng_int(rng, 0, reach);
		out_dims[d] = dims[d] + pairs[2 * d] + pairs[2 * d + 1];
	}
	input = cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_indices(c, 2, pair_dims, pairs, wide, &ok);
	if (op == OPVER_OP_PADV2 && option == 1) {
		static const int32_t one = 1;
		int32_t value = cf_move_tensor(c, type, 1, &one, &q, &ok);

		cf_case_input(c, value);
		if (!cf_case_fill(c, value, rng, -100, 100, true))
			ok = false;
	}
	output = cf_move_tensor(c, type, rank, out_dims, &q, &ok);
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
	.num_variants = CF_NUM_MOVE_TYPES * 2 * 2 * 2,
	.generate = generate_pad,
};

const cf_generator cf_padv2_cases = {
	.op = OPVER_OP_PADV2,
	.num_variants = CF_NUM_MOVE_TYPES * 2 * 2 * 2,
	.generate = generate_padv2,
};

const cf_generator cf_mirror_pad_cases = {
	.op = OPVER_OP_MIRROR_PAD,
	.num_variants = (CF_NUM_MOVE_TYPES - 1) * 2 * 2,
	.generate = generate_mirror_pad,
};

/* ------------------------------------------------------ CONCATENATION */

/* Variants: the types and UINT32, then UINT8 with each input quantized
 * its own way. */
static bool generate_concatenation(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool requantize = variant == CF_NUM_WIDE_TYPES;
	const opver_type type = requantize ? OPVER_TYPE_UINT8
					   : cf_move_wide_type(variant);
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t count = cf_rng_int(rng, 1, MAX_PIECES);
	int32_t axis = cf_rng_int(rng, 0, rank - 1), along = 0;
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t k = 0; k < count; k++) {
		cf_move_quant own = requantize ? cf_move_draw_quant(rng, type)
						: q;

		dims[axis] = cf_rng_int(rng, 1, 3);
		along += dims[axis];
		cf_move_input(c, rng, type, rank, dims, &own, &ok);
	}
	dims[axis] = along;
	c->output = cf_move_tensor(c, type, rank, dims, &q, &ok);
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
	cf_move_draw_shape(rng, rank, dims);
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
	if (variant > CF_NUM_WIDE_TYPES)
		return generate_concatenation_hard(
			variant - CF_NUM_WIDE_TYPES - 1, rng, c);
	return generate_concatenation(variant, rng, c);
}

const cf_generator cf_concatenation_cases = {
	.op = OPVER_OP_CONCATENATION,
	.num_variants = CF_NUM_WIDE_TYPES + 1 + CF_NUM_SPOTS,
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
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;
	int32_t in_dims[CF_MAX_RANK];

	cf_move_draw_shape(rng, rank, dims);
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
	cf_move_input(c, rng, type, rank, in_dims, &q, &ok);
	if (v) {
		int32_t spec[CF_MAX_NODE_OUTPUTS];

		memcpy(spec, sizes, sizeof(spec));
		if (stretch)
			spec[cf_rng_int(rng, 0, count - 1)] = -1;
		cf_move_indices(c, 1, count_dims, spec, false, &ok);
		move_scalar(c, axis, &ok);
	}
	for (int32_t k = 0; k < count; k++) {
		int32_t t;

		dims[axis] = sizes[k];
		t = cf_move_tensor(c, type, rank, dims, &q, &ok);
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
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0, i = 0; d <= rank; d++)
		whole[d] = d == axis ? count : dims[i++];
	if (pack) {
		for (int32_t k = 0; k < count; k++)
			cf_move_input(c, rng, type, rank, dims, &q, &ok);
		c->output = cf_move_tensor(c, type, rank + 1, whole, &q, &ok);
		c->params.pack.values_count = count;
		c->params.pack.axis = option_axis;
	} else {
		cf_move_input(c, rng, type, rank + 1, whole, &q, &ok);
		for (int32_t k = 0; k < count; k++) {
			int32_t t = cf_move_tensor(c, type, rank, dims, &q,
						   &ok);

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
	cf_move_quant q = cf_move_draw_quant(rng, type);
	opver_squeeze_params *p = &c->params.squeeze;
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
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
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	c->output = cf_move_tensor(c, type, out_rank, out_dims, &q, &ok);
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
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0, i = 0; d <= rank; d++)
		out_dims[d] = d == axis ? 1 : dims[i++];
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	axis = cf_rng_int(rng, 0, 1) ? axis - rank - 1 : axis;
	move_scalar(c, axis, &ok);
	c->output = cf_move_tensor(c, type, rank + 1, out_dims, &q, &ok);
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
	const bool bfloat16 = variant == CF_NUM_MOVE_TYPES + 4;
	const opver_type type =
		variant < CF_NUM_MOVE_TYPES ? cf_move_types[variant]
				: bfloat16 ? OPVER_TYPE_BFLOAT16
					   : OPVER_TYPE_FLOAT32;
	int32_t rank = variant < CF_NUM_MOVE_TYPES || bfloat16
			       ? cf_rng_int(rng, 1, 4)
			       : 5 + (variant - CF_NUM_MOVE_TYPES);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK], perm[CF_MAX_RANK];
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++)
		perm[d] = d;
	for (int32_t d = rank - 1; d > 0; d--) {
		int32_t j = cf_rng_int(rng, 0, d), swap = perm[d];

		perm[d] = perm[j];
		perm[j] = swap;
	}
	for (int32_t d = 0; d < rank; d++)
		out_dims[d] = dims[perm[d]];
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_indices(c, 1, &rank, perm, false, &ok);
	c->output = cf_move_tensor(c, type, rank, out_dims, &q, &ok);
	cf_case_param(c, "rank=%d", (int)rank);
	return ok;
}

const cf_generator cf_transpose_cases = {
	.op = OPVER_OP_TRANSPOSE,
	.num_variants = CF_NUM_MOVE_TYPES + 5,
	.generate = generate_transpose,
};

/* --------------------------------------------------------- REVERSE_V2 */

/* Variants: the types with one axis, then FLOAT32 with two and with three
 * adjacent axes.  Each case draws the axes' place and gives some
 * negative. */
static bool generate_reverse_v2(int32_t variant, cf_rng *rng, cf_case *c)
{
	const int32_t count = variant < CF_NUM_MOVE_TYPES
				      ? 1
				      : 2 + (variant - CF_NUM_MOVE_TYPES);
	const opver_type type = variant < CF_NUM_MOVE_TYPES
					? cf_move_types[variant]
					: OPVER_TYPE_FLOAT32;
	int32_t rank = cf_rng_int(rng, count, 4), dims[CF_MAX_RANK];
	int32_t first = cf_rng_int(rng, 0, rank - count), axes[3];
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t i = 0; i < count; i++)
		axes[i] = cf_rng_int(rng, 0, 1) ? first + i - rank : first + i;
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_indices(c, 1, &count, axes, false, &ok);
	c->output = cf_move_tensor(c, type, rank, dims, &q, &ok);
	cf_case_param(c, "axes=%d from=%d rank=%d", (int)count, (int)axes[0],
		      (int)rank);
	return ok;
}

const cf_generator cf_reverse_v2_cases = {
	.op = OPVER_OP_REVERSE_V2,
	.num_variants = CF_NUM_MOVE_TYPES + 2,
	.generate = generate_reverse_v2,
};

