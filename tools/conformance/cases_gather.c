/*
 * cases_gather.c - cases of the ops that gather, tile, fill and move data:
 * GATHER, GATHER_ND, TILE, BROADCAST_TO, SHAPE, RANK, FILL, ZEROS_LIKE, CAST,
 * SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND,
 * EMBEDDING_LOOKUP, BROADCAST_ARGS and ONE_HOT.
 *
 * Variants cross the element types each op takes in TFLite with the types
 * of its index or shape input and, for the shape-giving inputs, whether
 * they are constant or given at run time; GATHER also with batch_dims.
 * Each case draws small shapes (rank 1-4, dimensions 1-4), in-range
 * indices and the data.  SPACE_TO_BATCH_ND's 8-bit cases are quantized
 * with a random zero point, which is what its padding holds.  ONE_HOT's
 * variants cross its output types with int32 or int64 indices (drawn from
 * [-1, depth], so some lie outside) and axis -1 or one drawn from 0 to
 * the indices' rank; depth, on and off values are constants.
 */
#include <string.h>

#include "cases.h"

/* The element types the data-movement ops take, in variant order. */
static const opver_type data_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16,   OPVER_TYPE_INT32, OPVER_TYPE_INT64,
	OPVER_TYPE_BOOL,
};
#define NUM_DATA_TYPES 7

static const opver_type index_types[] = {
	OPVER_TYPE_INT32, OPVER_TYPE_INT64, OPVER_TYPE_INT16,
};

/* Draws a shape of `rank` dimensions in [lo, hi]. */
static void draw_dims(cf_rng *rng, int32_t rank, int32_t lo, int32_t hi,
		      int32_t *dims)
{
	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, lo, hi);
}

/* A 1-D tensor of `type` (INT16, INT32 or INT64) holding `values`, as
 * constant data or as the graph input's values. */
static bool integer_vector(cf_case *c, opver_type type, int32_t count,
			   const int64_t *values, bool constant,
			   int32_t rank, const int32_t *dims)
{
	const size_t size = opver_type_size(type);
	unsigned char *data = cf_case_alloc(c, (size_t)count * size + 1);
	int32_t t;

	if (data == NULL)
		return false;
	for (int32_t i = 0; i < count; i++) {
		if (type == OPVER_TYPE_INT16)
			((int16_t *)(void *)data)[i] = (int16_t)values[i];
		else if (type == OPVER_TYPE_INT32)
			((int32_t *)(void *)data)[i] = (int32_t)values[i];
		else
			((int64_t *)(void *)data)[i] = values[i];
	}
	t = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, t);
	if (constant) {
		c->tensors[t].data = data;
		c->tensors[t].data_size = (size_t)count * size;
	} else {
		c->values[t] = data;
	}
	return true;
}

/* The node's data input: a tensor of `type` and shape, random values. */
static bool data_input(cf_case *c, cf_rng *rng, opver_type type,
		       int32_t rank, const int32_t *dims)
{
	int32_t t = cf_case_tensor(c, type, rank, dims);

	cf_case_input(c, t);
	return cf_case_fill(c, t, rng, -100, 100, false);
}

/* --------------------------------------------------------------- GATHER */

static bool gather_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = data_types[variant % NUM_DATA_TYPES];
	const opver_type index = index_types[variant / NUM_DATA_TYPES % 3];
	const int32_t batch_dims = variant / (NUM_DATA_TYPES * 3) % 2;
	int32_t rank = cf_rng_int(rng, 1 + batch_dims, 4), dims[4];
	int32_t axis = cf_rng_int(rng, batch_dims, rank - 1);
	int32_t pos_rank = batch_dims + cf_rng_int(rng, 0, 2), pos_dims[4];
	int32_t out_dims[CF_MAX_RANK], o = 0, count = 1;
	int64_t values[64];

	draw_dims(rng, rank, 1, 4, dims);
	draw_dims(rng, pos_rank, 1, 3, pos_dims);
	for (int32_t d = 0; d < batch_dims; d++)
		pos_dims[d] = dims[d];
	for (int32_t d = 0; d < pos_rank; d++)
		count *= pos_dims[d];
	for (int32_t i = 0; i < count; i++)
		values[i] = cf_rng_int(rng, 0, dims[axis] - 1);
	for (int32_t d = 0; d < axis; d++)
		out_dims[o++] = dims[d];
	for (int32_t d = batch_dims; d < pos_rank; d++)
		out_dims[o++] = pos_dims[d];
	for (int32_t d = axis + 1; d < rank; d++)
		out_dims[o++] = dims[d];
	if (!data_input(c, rng, type, rank, dims) ||
	    !integer_vector(c, index, count, values, false, pos_rank,
			    pos_dims))
		return false;
	c->output = cf_case_tensor(c, type, o, out_dims);
	c->has_params = true;
	/* Half the cases count the axis from the end. */
	c->params.gather.axis = cf_rng_int(rng, 0, 1) ? axis - rank : axis;
	c->params.gather.batch_dims = batch_dims;
	cf_case_param(c, "axis=%d batch_dims=%d positions=%s",
		      c->params.gather.axis, batch_dims,
		      opver_type_name(index));
	return true;
}

const cf_generator cf_gather_cases = {
	.op = OPVER_OP_GATHER,
	.num_variants = NUM_DATA_TYPES * 3 * 2,
	.generate = gather_generate,
};

/* ------------------------------------------------------------ GATHER_ND */

static bool gather_nd_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = data_types[variant % NUM_DATA_TYPES];
	const opver_type index = index_types[variant / NUM_DATA_TYPES % 3];
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4];
	int32_t depth = cf_rng_int(rng, 1, rank);
	int32_t lead = cf_rng_int(rng, 0, 2), idx_dims[3];
	int32_t out_dims[CF_MAX_RANK], o = 0, rows = 1;
	int64_t values[64];

	draw_dims(rng, rank, 1, 4, dims);
	draw_dims(rng, lead, 1, 3, idx_dims);
	idx_dims[lead] = depth;
	for (int32_t d = 0; d < lead; d++) {
		rows *= idx_dims[d];
		out_dims[o++] = idx_dims[d];
	}
	for (int32_t d = depth; d < rank; d++)
		out_dims[o++] = dims[d];
	for (int32_t r = 0; r < rows; r++)
		for (int32_t j = 0; j < depth; j++)
			values[r * depth + j] = cf_rng_int(rng, 0, dims[j] - 1);
	if (!data_input(c, rng, type, rank, dims) ||
	    !integer_vector(c, index, rows * depth, values, false, lead + 1,
			    idx_dims))
		return false;
	c->output = cf_case_tensor(c, type, o, out_dims);
	cf_case_param(c, "depth=%d indices=%s", depth, opver_type_name(index));
	return true;
}

const cf_generator cf_gather_nd_cases = {
	.op = OPVER_OP_GATHER_ND,
	.num_variants = NUM_DATA_TYPES * 3,
	.generate = gather_nd_generate,
};

/* ------------------------------------------------- TILE and BROADCAST_TO */

/* Variants of the ops whose second input gives a shape: type, INT32 or
 * INT64, constant or not. */
#define SHAPED_VARIANTS (NUM_DATA_TYPES * 2 * 2)

static bool tile_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = data_types[variant % NUM_DATA_TYPES];
	const opver_type shape_type = variant / NUM_DATA_TYPES % 2
					      ? OPVER_TYPE_INT64
					      : OPVER_TYPE_INT32;
	const bool constant = variant / (NUM_DATA_TYPES * 2) % 2;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4], out_dims[4];
	int64_t multiples[4];

	draw_dims(rng, rank, 1, 3, dims);
	for (int32_t d = 0; d < rank; d++) {
		multiples[d] = cf_rng_int(rng, 1, 3);
		out_dims[d] = dims[d] * (int32_t)multiples[d];
	}
	if (!data_input(c, rng, type, rank, dims) ||
	    !integer_vector(c, shape_type, rank, multiples, constant, 1,
			    &rank))
		return false;
	c->output = cf_case_tensor(c, type, rank, out_dims);
	cf_case_param(c, "multiples=%s%s", opver_type_name(shape_type),
		      constant ? " constant" : "");
	return true;
}

const cf_generator cf_tile_cases = {
	.op = OPVER_OP_TILE,
	.num_variants = SHAPED_VARIANTS,
	.generate = tile_generate,
};

static bool broadcast_to_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = data_types[variant % NUM_DATA_TYPES];
	const opver_type shape_type = variant / NUM_DATA_TYPES % 2
					      ? OPVER_TYPE_INT64
					      : OPVER_TYPE_INT32;
	const bool constant = variant / (NUM_DATA_TYPES * 2) % 2;
	int32_t rank = cf_rng_int(rng, 1, 4), out_dims[4];
	int32_t in_rank = cf_rng_int(rng, 1, rank), in_dims[4];
	int64_t shape[4];

	draw_dims(rng, rank, 1, 4, out_dims);
	for (int32_t d = 0; d < rank; d++)
		shape[d] = out_dims[d];
	for (int32_t d = 0; d < in_rank; d++)
		in_dims[d] = cf_rng_int(rng, 0, 1)
				     ? 1
				     : out_dims[rank - in_rank + d];
	if (!data_input(c, rng, type, in_rank, in_dims) ||
	    !integer_vector(c, shape_type, rank, shape, constant, 1, &rank))
		return false;
	c->output = cf_case_tensor(c, type, rank, out_dims);
	cf_case_param(c, "shape=%s%s", opver_type_name(shape_type),
		      constant ? " constant" : "");
	return true;
}

const cf_generator cf_broadcast_to_cases = {
	.op = OPVER_OP_BROADCAST_TO,
	.num_variants = SHAPED_VARIANTS,
	.generate = broadcast_to_generate,
};

/* ---------------------------------------------------------------- SHAPE */

static bool shape_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = data_types[variant % NUM_DATA_TYPES];
	const opver_type out_type = variant / NUM_DATA_TYPES % 2
					    ? OPVER_TYPE_INT64
					    : OPVER_TYPE_INT32;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4];

	draw_dims(rng, rank, 1, 4, dims);
	if (!data_input(c, rng, type, rank, dims))
		return false;
	c->output = cf_case_tensor(c, out_type, 1, &rank);
	c->has_params = true;
	c->params.shape.out_type = out_type;
	cf_case_param(c, "out_type=%s", opver_type_name(out_type));
	return true;
}

const cf_generator cf_shape_cases = {
	.op = OPVER_OP_SHAPE,
	.num_variants = NUM_DATA_TYPES * 2,
	.generate = shape_generate,
};

/* ---------------------------------------------------------------- RANK */

/* Variants: the data types; each case draws the rank, 0 to 4. */
static bool rank_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t rank = cf_rng_int(rng, 0, 4), dims[4];

	draw_dims(rng, rank, 1, 4, dims);
	if (!data_input(c, rng, data_types[variant], rank, dims))
		return false;
	c->output = cf_case_tensor(c, OPVER_TYPE_INT32, 0, dims); /* scalar */
	cf_case_param(c, "rank=%d", (int)rank);
	return true;
}

const cf_generator cf_rank_cases = {
	.op = OPVER_OP_RANK,
	.num_variants = NUM_DATA_TYPES,
	.generate = rank_generate,
};

/* ------------------------------------------------ FILL and ZEROS_LIKE */

/* FILL's value types: the data types but UINT8, and FLOAT16 (any bits:
 * FILL only copies them). */
static const opver_type fill_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,  OPVER_TYPE_INT16,
	OPVER_TYPE_INT32,   OPVER_TYPE_INT64, OPVER_TYPE_BOOL,
	OPVER_TYPE_FLOAT16,
};
#define NUM_FILL_TYPES 7

static bool fill_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = fill_types[variant % NUM_FILL_TYPES];
	const opver_type dims_type = variant / NUM_FILL_TYPES % 2
					     ? OPVER_TYPE_INT64
					     : OPVER_TYPE_INT32;
	const bool constant = variant / (NUM_FILL_TYPES * 2) % 2;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4];
	int64_t values[4];

	draw_dims(rng, rank, 1, 4, dims);
	for (int32_t d = 0; d < rank; d++)
		values[d] = dims[d];
	if (!integer_vector(c, dims_type, rank, values, constant, 1, &rank) ||
	    !data_input(c, rng, type, 0, dims))
		return false;
	c->output = cf_case_tensor(c, type, rank, dims);
	cf_case_param(c, "dims=%s%s", opver_type_name(dims_type),
		      constant ? " constant" : "");
	return true;
}

const cf_generator cf_fill_cases = {
	.op = OPVER_OP_FILL,
	.num_variants = NUM_FILL_TYPES * 2 * 2,
	.generate = fill_generate,
};

static bool zeros_like_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const opver_type types[] = { OPVER_TYPE_FLOAT32,
					    OPVER_TYPE_INT32,
					    OPVER_TYPE_INT64 };
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4];

	draw_dims(rng, rank, 1, 4, dims);
	if (!data_input(c, rng, types[variant % 3], rank, dims))
		return false;
	c->output = cf_case_tensor(c, types[variant % 3], rank, dims);
	return true;
}

const cf_generator cf_zeros_like_cases = {
	.op = OPVER_OP_ZEROS_LIKE,
	.num_variants = 3,
	.generate = zeros_like_generate,
};

/* ----------------------------------------------------------------- CAST */

static const opver_type cast_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT64, OPVER_TYPE_INT8,
	OPVER_TYPE_UINT8,   OPVER_TYPE_INT16,   OPVER_TYPE_UINT16,
	OPVER_TYPE_INT32,   OPVER_TYPE_UINT32,  OPVER_TYPE_INT64,
	OPVER_TYPE_BOOL,    OPVER_TYPE_FLOAT16,
};
#define NUM_CAST_TYPES 11

static bool is_unsigned(opver_type type)
{
	return type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_UINT16 ||
	       type == OPVER_TYPE_UINT32 || type == OPVER_TYPE_BOOL;
}

/*
 * `count` float16 values of magnitude below 64, subnormals included,
 * non-negative when `positive`: the bits drawn directly, exponent fields
 * 0 to 20.
 */
static uint16_t *half_values(cf_case *c, cf_rng *rng, size_t count,
			     bool positive)
{
	uint16_t *values = cf_case_alloc(c, count * sizeof(*values));

	for (size_t i = 0; values != NULL && i < count; i++) {
		uint32_t sign = positive ? 0 : (uint32_t)cf_rng_int(rng, 0, 1);
		uint32_t exponent = (uint32_t)cf_rng_int(rng, 0, 20);
		uint32_t mantissa = (uint32_t)cf_rng_int(rng, 0, 1023);

		values[i] = (uint16_t)(sign << 15 | exponent << 10 | mantissa);
	}
	return values;
}

/*
 * Values every conversion defines the same way everywhere: integers in
 * [-100, 100] (wrapping into unsigned types as C++ casts do), floating
 * values with fractions in the target's range ([0, 100] for unsigned
 * targets, where a negative value is undefined in C++; float16 below 64).
 */
static bool cast_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type from = cast_types[variant % NUM_CAST_TYPES];
	const opver_type to = cast_types[variant / NUM_CAST_TYPES];
	const bool floating = from == OPVER_TYPE_FLOAT32 ||
			      from == OPVER_TYPE_FLOAT64 ||
			      from == OPVER_TYPE_FLOAT16;
	const double lo = floating && is_unsigned(to) ? 0 : -100;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4], input;
	size_t n = 1;

	draw_dims(rng, rank, 1, 4, dims);
	input = cf_case_tensor(c, from, rank, dims);
	cf_case_input(c, input);
	c->output = cf_case_tensor(c, to, rank, dims);
	for (int32_t d = 0; d < rank; d++)
		n *= (size_t)dims[d];
	if (from == OPVER_TYPE_FLOAT16) {
		c->values[input] = half_values(c, rng, n, is_unsigned(to));
		return c->values[input] != NULL;
	}
	if (from == OPVER_TYPE_FLOAT64) {
		double *values;

		values = cf_case_alloc(c, n * sizeof(double));
		if (values == NULL)
			return false;
		for (size_t i = 0; i < n; i++)
			values[i] = lo + (100 - lo) * cf_rng_float(rng, 0, 1);
		c->values[input] = values;
		return true;
	}
	return cf_case_fill(c, input, rng, lo, 100, false);
}

const cf_generator cf_cast_cases = {
	.op = OPVER_OP_CAST,
	.num_variants = NUM_CAST_TYPES * NUM_CAST_TYPES,
	.generate = cast_generate,
};

/* ----------------------------------------- SPACE_TO_DEPTH, DEPTH_TO_SPACE */

static const opver_type space_depth_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT32,   OPVER_TYPE_INT64,
};

static bool space_depth_generate(int32_t variant, cf_rng *rng, cf_case *c,
				 bool to_depth)
{
	const opver_type type = space_depth_types[variant % 5];
	const int32_t b = cf_rng_int(rng, 1, 3);
	int32_t space[4], depth[4];

	space[0] = depth[0] = cf_rng_int(rng, 1, 2);
	depth[1] = cf_rng_int(rng, 1, 3);
	depth[2] = cf_rng_int(rng, 1, 3);
	space[3] = cf_rng_int(rng, 1, 4);
	space[1] = depth[1] * b;
	space[2] = depth[2] * b;
	depth[3] = space[3] * b * b;
	if (!data_input(c, rng, type, 4, to_depth ? space : depth))
		return false;
	c->output = cf_case_tensor(c, type, 4, to_depth ? depth : space);
	c->has_params = true;
	c->params.space_depth.block_size = b;
	cf_case_param(c, "block_size=%d", b);
	return true;
}

static bool space_to_depth_generate(int32_t variant, cf_rng *rng,
				    cf_case *c)
{
	return space_depth_generate(variant, rng, c, true);
}

static bool depth_to_space_generate(int32_t variant, cf_rng *rng,
				    cf_case *c)
{
	return space_depth_generate(variant, rng, c, false);
}

const cf_generator cf_space_to_depth_cases = {
	.op = OPVER_OP_SPACE_TO_DEPTH,
	.num_variants = 5,
	.generate = space_to_depth_generate,
};

const cf_generator cf_depth_to_space_cases = {
	.op = OPVER_OP_DEPTH_TO_SPACE,
	.num_variants = 5,
	.generate = depth_to_space_generate,
};

/* ------------------------------- SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND */

static const opver_type space_batch_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16,   OPVER_TYPE_INT32, OPVER_TYPE_INT64,
};

/*
 * Variants: the type, then rank 4 or 3.  A case draws the batch side
 * [N * blocks, H, W, C] and the space side [N, H * bh - cuts, ...] it
 * maps to, the paddings (crops) cutting at most a block less one pixel
 * in each dimension.
 */
static bool space_batch_generate(int32_t variant, cf_rng *rng, cf_case *c,
				 bool to_batch)
{
	const opver_type type = space_batch_types[variant % 6];
	const int32_t rank = variant / 6 % 2 ? 3 : 4;
	const int32_t spatial = rank - 2;
	int32_t batch[4], space[4], block_dims = spatial, pad_dims[2];
	int64_t block[2], pads[4];
	int32_t blocks = 1, input;

	space[0] = cf_rng_int(rng, 1, 2);
	for (int32_t d = 0; d < spatial; d++) {
		const int32_t b = cf_rng_int(rng, 1, 3);
		const int32_t cells = cf_rng_int(rng, 1, 3);
		const int32_t cut = cf_rng_int(rng, 0, b - 1);

		block[d] = b;
		blocks *= b;
		batch[d + 1] = cells;
		space[d + 1] = cells * b - cut;
		pads[2 * d] = cf_rng_int(rng, 0, cut);
		pads[2 * d + 1] = cut - pads[2 * d];
	}
	batch[0] = space[0] * blocks;
	batch[rank - 1] = space[rank - 1] = cf_rng_int(rng, 1, 4);
	input = cf_case_tensor(c, type, rank, to_batch ? space : batch);
	cf_case_input(c, input);
	c->output = cf_case_tensor(c, type, rank, to_batch ? batch : space);
	pad_dims[0] = spatial;
	pad_dims[1] = 2;
	if (!integer_vector(c, OPVER_TYPE_INT32, spatial, block, true, 1,
			    &block_dims) ||
	    !integer_vector(c, OPVER_TYPE_INT32, 2 * spatial, pads, true, 2,
			    pad_dims))
		return false;
	if (type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8) {
		const int64_t zero = type == OPVER_TYPE_UINT8
					     ? cf_rng_int(rng, 0, 255)
					     : cf_rng_int(rng, -128, 127);

		if (!cf_case_quantize(c, input, 0.5f, zero) ||
		    !cf_case_quantize(c, c->output, 0.5f, zero))
			return false;
	}
	cf_case_param(c, "rank=%d", rank);
	return cf_case_fill(c, input, rng, -100, 100, false);
}

static bool space_to_batch_generate(int32_t variant, cf_rng *rng,
				    cf_case *c)
{
	return space_batch_generate(variant, rng, c, true);
}

static bool batch_to_space_generate(int32_t variant, cf_rng *rng,
				    cf_case *c)
{
	return space_batch_generate(variant, rng, c, false);
}

const cf_generator cf_space_to_batch_nd_cases = {
	.op = OPVER_OP_SPACE_TO_BATCH_ND,
	.num_variants = 12,
	.generate = space_to_batch_generate,
};

const cf_generator cf_batch_to_space_nd_cases = {
	.op = OPVER_OP_BATCH_TO_SPACE_ND,
	.num_variants = 12,
	.generate = batch_to_space_generate,
};

/* ----------------------------------------------------- EMBEDDING_LOOKUP */

/* Variants: float32, int8 and uint8 tables looked up as stored, then int8
 * and uint8 tables dequantized to float32 (symmetric), with one scale and
 * with one per row (version 4).  The table is constant, as a model's
 * weights are; the ids a graph input within the rows. */
static bool embedding_lookup_generate(int32_t variant, cf_rng *rng,
				      cf_case *c)
{
	static const opver_type plain[3] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	};
	const bool hybrid = variant >= 3, per_row = variant >= 5;
	const opver_type type = !hybrid         ? plain[variant]
				: variant % 2 ? OPVER_TYPE_INT8
					      : OPVER_TYPE_UINT8;
	int32_t rank = cf_rng_int(rng, 2, 4), dims[4], out_dims[4];
	int32_t count = cf_rng_int(rng, 1, 6), table;
	int64_t ids[6];
	float scales[4];
	int32_t zero = 0;
	bool ok;

	draw_dims(rng, rank, per_row ? 2 : 1, 4, dims);
	for (int32_t i = 0; i < count; i++)
		ids[i] = cf_rng_int(rng, 0, dims[0] - 1);
	ok = integer_vector(c, OPVER_TYPE_INT32, count, ids, false, 1,
			    &count);
	table = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, table);
	if (per_row) {
		for (int32_t r = 0; r < dims[0]; r++)
			scales[r] = cf_rng_float(rng, 0.01f, 0.5f);
		ok = ok && cf_case_quantize_per_channel(c, table, 0, scales);
	} else if (hybrid) {
		ok = ok && cf_case_quantize(c, table,
					    cf_rng_float(rng, 0.01f, 0.5f), 0);
	} else if (type != OPVER_TYPE_FLOAT32) {
		scales[0] = cf_rng_float(rng, 0.01f, 0.5f);
		zero = cf_rng_int(rng, -10, 10);
		ok = ok && cf_case_quantize(c, table, scales[0], zero);
	}
	ok = ok && cf_case_fill(c, table, rng, -128, 127, true);
	out_dims[0] = count;
	for (int32_t d = 1; d < rank; d++)
		out_dims[d] = dims[d];
	c->output = cf_case_tensor(c, hybrid ? OPVER_TYPE_FLOAT32 : type,
				   rank, out_dims);
	if (!hybrid && type != OPVER_TYPE_FLOAT32)
		ok = ok && cf_case_quantize(c, c->output, scales[0], zero);
	cf_case_param(c, "table=%s%s", opver_type_name(type),
		      per_row ? " per-row" : hybrid ? " hybrid" : "");
	return ok;
}

const cf_generator cf_embedding_lookup_cases = {
	.op = OPVER_OP_EMBEDDING_LOOKUP,
	.num_variants = 7,
	.generate = embedding_lookup_generate,
};

/* ------------------------------------------------------- BROADCAST_ARGS */

/* Variants: int32 or int64 shapes, of one length or the first or the
 * second longer.  Each dimension of the broadcast shape is held by one
 * input, the other holding it too or 1.  int64 shapes are constants:
 * TFLite's tool feeds no int64 input. */
static bool broadcast_args_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = variant % 2 ? OPVER_TYPE_INT64
					    : OPVER_TYPE_INT32;
	const int32_t longer = variant / 2 % 3;
	const bool constant = type == OPVER_TYPE_INT64;
	int32_t rank = cf_rng_int(rng, longer > 0 ? 2 : 1, 4), dims[4];
	int32_t len[2] = { rank, rank };
	int64_t shape[2][4];

	draw_dims(rng, rank, 1, 4, dims);
	if (longer > 0)
		len[2 - longer] = cf_rng_int(rng, 1, rank - 1);
	for (int32_t i = 0; i < rank; i++) {
		const int32_t holder = cf_rng_int(rng, 0, 1);

		for (int32_t k = 0; k < 2; k++) {
			const int32_t at = len[k] - rank + i;
			const bool holds = k == holder || at < 0 ||
					   len[1 - k] - rank + i < 0;

			if (at >= 0)
				shape[k][at] = holds || cf_rng_int(rng, 0, 1)
						       ? dims[i]
						       : 1;
		}
	}
	if (!integer_vector(c, type, len[0], shape[0], constant, 1, &len[0]) ||
	    !integer_vector(c, type, len[1], shape[1], constant, 1, &len[1]))
		return false;
	c->output = cf_case_tensor(c, type, 1, &rank);
	cf_case_param(c, "lengths=%d,%d", (int)len[0], (int)len[1]);
	return true;
}

const cf_generator cf_broadcast_args_cases = {
	.op = OPVER_OP_BROADCAST_ARGS,
	.num_variants = 6,
	.generate = broadcast_args_generate,
};

/* -------------------------------------------------------------- ONE_HOT */

/* TFLite's output types: it fails int16 at invoke. */
static const opver_type one_hot_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT32,   OPVER_TYPE_INT64, OPVER_TYPE_BOOL,
};
#define NUM_ONE_HOT_TYPES 6

/* int64 indices are constants: TFLite's tool feeds no int64 input. */
static bool one_hot_generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = one_hot_types[variant % NUM_ONE_HOT_TYPES];
	const opver_type index = index_types[variant / NUM_ONE_HOT_TYPES % 2];
	const bool last = variant / (NUM_ONE_HOT_TYPES * 2) % 2 == 0;
	int32_t rank = cf_rng_int(rng, 0, 3), dims[3];
	int32_t depth = cf_rng_int(rng, 1, 4);
	int32_t axis = last ? rank : cf_rng_int(rng, 0, rank);
	int32_t out_dims[4], count = 1, on, off;
	int64_t values[27];
	const int64_t depth_value = depth;

	draw_dims(rng, rank, 1, 3, dims);
	for (int32_t d = 0; d < rank; d++)
		count *= dims[d];
	for (int32_t i = 0; i < count; i++)
		values[i] = cf_rng_int(rng, -1, depth);
	for (int32_t d = 0, o = 0; d <= rank; d++)
		out_dims[d] = d == axis ? depth : dims[o++];
	if (!integer_vector(c, index, count, values,
			    index == OPVER_TYPE_INT64, rank, dims) ||
	    !integer_vector(c, OPVER_TYPE_INT32, 1, &depth_value, true, 0,
			    dims))
		return false;
	/* Scalars: dims is not read, but must not be NULL. */
	on = cf_case_tensor(c, type, 0, dims);
	off = cf_case_tensor(c, type, 0, dims);
	cf_case_input(c, on);
	cf_case_input(c, off);
	if (!cf_case_fill(c, on, rng, -100, 100, true) ||
	    !cf_case_fill(c, off, rng, -100, 100, true))
		return false;
	c->output = cf_case_tensor(c, type, rank + 1, out_dims);
	c->has_params = true;
	c->params.one_hot.axis = last ? -1 : axis;
	cf_case_param(c, "depth=%d axis=%d indices=%s", (int)depth,
		      (int)c->params.one_hot.axis, opver_type_name(index));
	return true;
}

const cf_generator cf_one_hot_cases = {
	.op = OPVER_OP_ONE_HOT,
	.num_variants = NUM_ONE_HOT_TYPES * 2 * 2,
	.generate = one_hot_generate,
};
