/*
 * cases_reduce.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD,
 * REDUCE_ANY, REDUCE_ALL (bool, random 0 and 1), ARG_MAX and ARG_MIN
 * cases.
 *
 * Reductions: variants cross the op's types with the axes (the last one;
 * negative ones; one dimension named twice, once negative; axes [1, 2] of
 * a 4-D input, TFLite's spatial MEAN; every dimension) and, for quantized
 * types but in MAX and MIN (which TFLite requires to keep the input's),
 * an output quantized as the input (the integer paths) or not (the
 * rescaled ones).  Each case draws keep_dims, the shape (rank 1-4,
 * dimensions 1-4), the quantization and the data; products get an output
 * scale that holds the product of their reduced inputs.  The axis tensor
 * is constant.  MEAN ends with hard variants (cases_hard.h), int8 and
 * uint8 at every spot, over axes [1, 2] of a 4-D input with keep_dims
 * (TFLite's rescaling paths): the rescale input scale / output scale,
 * extreme zero points, a power-of-two count of 2 to 16 per output, the
 * first output's inputs at the type's lowest value and the last one's at
 * its highest, and at the ties spot every other output on a tie of the
 * rounding (int8: of the division by the count, after the rescale, signs
 * taking turns; uint8: of the rescale by 1 / count).
 *
 * ARG_MAX and ARG_MIN: variants cross the input types with an int32 or
 * int64 axis, constant or a graph input, and an int32 or int64 output;
 * each case draws the axis, positive or negative.  Small integer ranges
 * make ties, which go to the first index.
 *
 * CUMSUM: variants cross float32, int32 and int64 with exclusive and
 * reverse; each case draws the shape and a constant axis, positive or
 * negative.
 *
 * TOPK_V2: variants cross the input types with k of 1, of the whole row,
 * or drawn between; each case draws the shape (the row 1-8 long) and
 * values from a small integer range, so that rows have ties, which go to
 * the lower index.  k is a constant, as the reference requires.
 */
#include <math.h>

#include "cases_hard.h"

#define MAX_RANK 4

enum { AXES_LAST, AXES_NEGATIVE, AXES_REPEATED, AXES_SPATIAL, AXES_ALL,
       NUM_AXES };
static const char *const axes_names[NUM_AXES] = {
	"last", "negative", "repeated", "spatial", "all",
};

/* A constant int32 axis tensor of `count` entries. */
static bool add_axis(cf_case *c, const int32_t *values, int32_t count)
{
	int32_t *data = cf_case_alloc(c, (size_t)(count > 0 ? count : 1) *
						 sizeof(int32_t));
	int32_t t;

	if (data == NULL)
		return false;
	for (int32_t i = 0; i < count; i++)
		data[i] = values[i];
	t = cf_case_tensor(c, OPVER_TYPE_INT32, 1, &count);
	c->tensors[t].data = data;
	c->tensors[t].data_size = (size_t)count * sizeof(int32_t);
	cf_case_input(c, t);
	return true;
}

/* The axes of pattern `axes` for an input of `rank` into values, marking
 * each named dimension in reduced[]; returns their count. */
static int32_t draw_axes(cf_rng *rng, int32_t axes, int32_t rank,
			 int32_t *values, bool *reduced)
{
	int32_t n = 0, a;

	for (int32_t d = 0; d < rank; d++)
		reduced[d] = false;
	switch (axes) {
	case AXES_NEGATIVE:
		values[n++] = -cf_rng_int(rng, 1, rank);
		if (rank > 1 && cf_rng_int(rng, 0, 1))
			values[n++] = -cf_rng_int(rng, 1, rank);
		break;
	case AXES_REPEATED:
		a = cf_rng_int(rng, 0, rank - 1);
		values[n++] = a;
		values[n++] = a - rank;
		break;
	case AXES_SPATIAL:
		values[n++] = cf_rng_int(rng, 1, 2);
		values[n++] = 3 - values[0];
		break;
	case AXES_ALL:
		for (int32_t d = rank - 1; d >= 0; d--)
			values[n++] = d;
		break;
	default:
		values[n++] = rank - 1;
		break;
	}
	for (int32_t i = 0; i < n; i++)
		reduced[values[i] < 0 ? values[i] + rank : values[i]] = true;
	return n;
}

/* Quantizes input and output of a reduction of `count` inputs each: the
 * output as the input when `same`, else with its own scale and zero
 * point, wide enough for a sum or product. */
static bool quantize_reduction(cf_case *c, cf_rng *rng, int32_t op,
			       opver_type type, int32_t input,
			       int32_t output, bool same, size_t count)
{
	const bool int16 = type == OPVER_TYPE_INT16;
	const float range = int16 ? 32768.0f : 128.0f;
	float scale = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f)
			    : cf_rng_float(rng, 0.01f, 0.1f);
	const int64_t zero =
		int16 ? 0
		: type == OPVER_TYPE_UINT8 ? cf_rng_int(rng, 100, 150)
					   : cf_rng_int(rng, -20, 20);
	float out_scale = scale * cf_rng_float(rng, 0.5f, 2.0f);
	int64_t out_zero = int16 ? 0 : zero + cf_rng_int(rng, -10, 10);

	if (op == OPVER_OP_REDUCE_PROD) {
		/* Reals within about +-1.5, and an output scale for the
		 * product of count of them: each step's rescale,
		 * (range - 8)^(1/count) / range, stays below 1. */
		scale = cf_rng_float(rng, 1.0f, 1.5f) / range;
		out_scale = powf(range * scale, (float)count) / (range - 8);
		out_zero = 0;
	}
	/* TFLite sums int16 only to the input's quantization. */
	if (same || (op == OPVER_OP_SUM && int16))
		return cf_case_quantize(c, input, scale, zero) &&
		       cf_case_quantize(c, output, scale, zero);
	if (op == OPVER_OP_SUM)
		out_scale *= (float)count;
	return cf_case_quantize(c, input, scale, zero) &&
	       cf_case_quantize(c, output, out_scale, out_zero);
}

static bool is_quantized(opver_type type)
{
	return type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8 ||
	       type == OPVER_TYPE_INT16;
}

static bool generate_reduction(const opver_type *types, int32_t num_types,
			       int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = types[variant % num_types];
	const int32_t axes = variant / num_types % NUM_AXES;
	const bool keep = cf_rng_int(rng, 0, 1);
	const bool same = variant / (num_types * NUM_AXES) % 2 ||
			  c->op == OPVER_OP_REDUCE_MAX ||
			  c->op == OPVER_OP_REDUCE_MIN;
	int32_t rank = axes == AXES_SPATIAL ? 4 : cf_rng_int(rng, 1, MAX_RANK);
	int32_t dims[MAX_RANK], out_dims[MAX_RANK], out_rank = 0;
	int32_t values[2 * MAX_RANK], num_axes, input, output;
	bool reduced[MAX_RANK];
	size_t count = 1;
	bool ok = true;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, c->op == OPVER_OP_REDUCE_PROD ? 3
									  : 4);
	num_axes = draw_axes(rng, axes, rank, values, reduced);
	for (int32_t d = 0; d < rank; d++) {
		if (reduced[d])
			count *= (size_t)dims[d];
		if (!reduced[d])
			out_dims[out_rank++] = dims[d];
		else if (keep)
			out_dims[out_rank++] = 1;
	}
	input = cf_case_tensor(c, type, rank, dims);
	output = cf_case_tensor(c, type, out_rank, out_dims);
	cf_case_input(c, input);
	c->output = output;
	c->has_params = true;
	c->params.reducer.keep_dims = keep;
	if (!add_axis(c, values, num_axes))
		return false;
	if (is_quantized(type))
		ok = quantize_reduction(c, rng, c->op, type, input, output,
					same, count);
	if (type == OPVER_TYPE_FLOAT32)
		ok = ok && cf_case_fill(c, input, rng, -2, 2, false);
	else if (type == OPVER_TYPE_INT32)
		ok = ok && cf_case_fill(c, input, rng, -1000, 1000, false);
	else if (type == OPVER_TYPE_INT16)
		ok = ok && cf_case_fill(c, input, rng, -32768, 32767, false);
	else
		ok = ok && cf_case_fill(c, input, rng, -128, 127, false);
	cf_case_param(c, "axes=%s keep_dims=%d%s", axes_names[axes], keep,
		      is_quantized(type)
			      ? same ? " output-quantization=input's"
				     : " output-quantization=own"
			      : "");
	return ok;
}

static const opver_type common_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16, OPVER_TYPE_INT32,
};
#define NUM_COMMON_TYPES 5

/* TFLite multiplies quantized int8 and int16, and uint8 not at all. */
static const opver_type prod_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
	OPVER_TYPE_INT32,
};
#define NUM_PROD_TYPES 4

/* MEAN's hard variant v (see the top of the file). */
static bool generate_mean_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_UINT8 : OPVER_TYPE_INT8;
	static const int32_t axes[2] = { 1, 2 };
	int32_t dims[4], t[2];
	size_t elements[16], n;
	cf_hard hard;

	cf_hard_draw(&hard, v / 2, rng);
	dims[0] = cf_rng_int(rng, 1, 2);
	dims[1] = 1 << cf_rng_int(rng, 0, 2);
	dims[2] = 1 << cf_rng_int(rng, 1, 2);
	dims[3] = cf_rng_int(rng, 2, 4);
	n = (size_t)dims[1] * (size_t)dims[2];
	t[0] = cf_case_tensor(c, type, 4, dims);
	dims[1] = dims[2] = 1;
	t[1] = cf_case_tensor(c, type, 4, dims);
	cf_case_input(c, t[0]);
	c->output = t[1];
	c->has_params = true;
	c->params.reducer.keep_dims = true;
	if (!add_axis(c, axes, 2) || !cf_hard_unary_op(c, &hard, rng, t))
		return false;
	for (int32_t b = 0; b < dims[0]; b++) {
		for (int32_t ch = 0; ch < dims[3]; ch++) {
			const size_t out = (size_t)b * (size_t)dims[3] +
					   (size_t)ch;
			const size_t last = (size_t)dims[0] * (size_t)dims[3];

			for (size_t e = 0; e < n; e++)
				elements[e] = (out - (size_t)ch) * n +
					      e * (size_t)dims[3] + (size_t)ch;
			if (out == 0 || out == last - 1)
				cf_hard_set_group(c, t[0], elements, n,
						  out != 0);
			else if (hard.spot == CF_SPOT_TIES)
				cf_hard_plant_tie(
					c, t[0], elements, n,
					type == OPVER_TYPE_UINT8 ?
						0 :
						(int32_t)c->tensors[t[0]]
							.zero_points[0],
					(int64_t)n * lrint(1 / hard.multiplier),
					type == OPVER_TYPE_UINT8 ? 1 :
					out % 2			 ? -1 :
								   1);
		}
	}
	cf_case_param(c, "axes=spatial keep_dims=1 output-quantization=own");
	return true;
}

/* MEAN's plain variants, as many as every reduction's. */
#define MEAN_PLAIN_VARIANTS (NUM_COMMON_TYPES * NUM_AXES * 2)

static bool generate_mean(int32_t variant, cf_rng *rng, cf_case *c)
{
	if (variant >= MEAN_PLAIN_VARIANTS)
		return generate_mean_hard(variant - MEAN_PLAIN_VARIANTS, rng,
					  c);
	return generate_reduction(common_types, NUM_COMMON_TYPES, variant, rng,
				  c);
}

static bool generate_common(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_reduction(common_types, NUM_COMMON_TYPES, variant, rng,
				  c);
}

static bool generate_prod(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_reduction(prod_types, NUM_PROD_TYPES, variant, rng, c);
}

/* `quantizations`: 2 to cross an output quantized as the input with one
 * of its own, 1 for the input's only (MAX and MIN, as TFLite requires). */
#define REDUCTION_CASES(name, op_name, types, quantizations, fill)      \
	const cf_generator name = {                                       \
		.op = OPVER_OP_##op_name,                                 \
		.num_variants = (types) * NUM_AXES * (quantizations),     \
		.generate = fill,                                         \
	}

/* Then the hard ones: int8 and uint8 at every spot. */
const cf_generator cf_mean_cases = {
	.op = OPVER_OP_MEAN,
	.num_variants = MEAN_PLAIN_VARIANTS + 2 * CF_NUM_SPOTS,
	.generate = generate_mean,
};
REDUCTION_CASES(cf_sum_cases, SUM, NUM_COMMON_TYPES, 2, generate_common);
REDUCTION_CASES(cf_reduce_max_cases, REDUCE_MAX, NUM_COMMON_TYPES, 1,
		generate_common);
REDUCTION_CASES(cf_reduce_min_cases, REDUCE_MIN, NUM_COMMON_TYPES, 1,
		generate_common);
REDUCTION_CASES(cf_reduce_prod_cases, REDUCE_PROD, NUM_PROD_TYPES, 2,
		generate_prod);

static const opver_type bool_types[] = { OPVER_TYPE_BOOL };

static bool generate_bool(int32_t variant, cf_rng *rng, cf_case *c)
{
	return generate_reduction(bool_types, 1, variant, rng, c);
}

REDUCTION_CASES(cf_reduce_any_cases, REDUCE_ANY, 1, 1, generate_bool);
REDUCTION_CASES(cf_reduce_all_cases, REDUCE_ALL, 1, 1, generate_bool);

/* -------------------------------------------------------- ARG_MAX/MIN */

static const opver_type arg_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT32, OPVER_TYPE_BOOL,
};
#define NUM_ARG_TYPES 5

static bool generate_arg(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = arg_types[variant % NUM_ARG_TYPES];
	const bool axis64 = variant / NUM_ARG_TYPES % 2;
	const bool index64 = variant / (NUM_ARG_TYPES * 2) % 2;
	/* The axis a graph input, so known only at invoke. */
	const bool run_time = variant / (NUM_ARG_TYPES * 4) % 2;
	const bool negative = cf_rng_int(rng, 0, 1);
	int32_t rank = cf_rng_int(rng, 1, MAX_RANK), dims[MAX_RANK];
	int32_t out_dims[MAX_RANK], out_rank = 0, axis, input, output, t;
	const int32_t one = 1;
	void *data;
	bool ok = true;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	axis = cf_rng_int(rng, 0, rank - 1);
	for (int32_t d = 0; d < rank; d++)
		if (d != axis)
			out_dims[out_rank++] = dims[d];
	input = cf_case_tensor(c, type, rank, dims);
	output = cf_case_tensor(c,
				index64 ? OPVER_TYPE_INT64 : OPVER_TYPE_INT32,
				out_rank, out_dims);
	cf_case_input(c, input);
	c->output = output;
	data = cf_case_alloc(c, sizeof(int64_t));
	if (data == NULL)
		return false;
	if (axis64)
		*(int64_t *)data = negative ? axis - rank : axis;
	else
		*(int32_t *)data = negative ? axis - rank : axis;
	t = cf_case_tensor(c, axis64 ? OPVER_TYPE_INT64 : OPVER_TYPE_INT32, 1,
			   &one);
	if (run_time) {
		c->values[t] = data;
	} else {
		c->tensors[t].data = data;
		c->tensors[t].data_size =
			axis64 ? sizeof(int64_t) : sizeof(int32_t);
	}
	cf_case_input(c, t);
	c->has_params = true;
	c->params.arg.output_type = index64 ? OPVER_TYPE_INT64
					    : OPVER_TYPE_INT32;
	if (type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8)
		ok = cf_case_quantize(c, input, 0.05f,
				      type == OPVER_TYPE_UINT8 ? 128 : 0);
	/* Few distinct values, so that lines have ties. */
	if (type == OPVER_TYPE_FLOAT32)
		ok = ok && cf_case_fill(c, input, rng, -2, 2, false);
	else if (type == OPVER_TYPE_UINT8)
		ok = ok && cf_case_fill(c, input, rng, 0, 255, false);
	else
		ok = ok && cf_case_fill(c, input, rng, -3, 3, false);
	cf_case_param(c, "axis=%d%s%s index=%s", negative ? axis - rank : axis,
		      axis64 ? "(int64)" : "", run_time ? "(run time)" : "",
		      index64 ? "int64" : "int32");
	return ok;
}

const cf_generator cf_arg_max_cases = {
	.op = OPVER_OP_ARG_MAX,
	.num_variants = NUM_ARG_TYPES * 8,
	.generate = generate_arg,
};

const cf_generator cf_arg_min_cases = {
	.op = OPVER_OP_ARG_MIN,
	.num_variants = NUM_ARG_TYPES * 8,
	.generate = generate_arg,
};

/* -------------------------------------------------------------- CUMSUM */

static const opver_type cumsum_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32, OPVER_TYPE_INT64,
};
#define NUM_CUMSUM_TYPES 3

/* Variants: the three types crossed with exclusive and reverse.  int64
 * inputs are constants: TFLite's tool feeds no int64 input. */
static bool generate_cumsum(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = cumsum_types[variant % NUM_CUMSUM_TYPES];
	const int32_t options = variant / NUM_CUMSUM_TYPES;
	int32_t rank = cf_rng_int(rng, 1, MAX_RANK), dims[MAX_RANK];
	int32_t axis = cf_rng_int(rng, -rank, rank - 1);
	int32_t input;
	bool ok;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 4);
	input = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, input);
	ok = cf_case_fill(c, input, rng, -100, 100, type == OPVER_TYPE_INT64) &&
	     add_axis(c, &axis, 1);
	c->output = cf_case_tensor(c, type, rank, dims);
	c->has_params = true;
	c->params.cumsum.exclusive = options & 1;
	c->params.cumsum.reverse = options >> 1 & 1;
	cf_case_param(c, "axis=%d exclusive=%d reverse=%d", (int)axis,
		      (int)c->params.cumsum.exclusive,
		      (int)c->params.cumsum.reverse);
	return ok;
}

const cf_generator cf_cumsum_cases = {
	.op = OPVER_OP_CUMSUM,
	.num_variants = NUM_CUMSUM_TYPES * 4,
	.generate = generate_cumsum,
};

/* ------------------------------------------------------------- TOPK_V2 */

static const opver_type topk_types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, OPVER_TYPE_INT8,
	OPVER_TYPE_INT16,   OPVER_TYPE_INT32, OPVER_TYPE_INT64,
};
#define NUM_TOPK_TYPES 6
enum { TOPK_K_ONE, TOPK_K_ROW, TOPK_K_DRAWN, NUM_TOPK_KS };

/* int64 inputs are constants: TFLite's tool feeds no int64 input. */
static bool generate_topk(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = topk_types[variant % NUM_TOPK_TYPES];
	const int32_t k_kind = variant / NUM_TOPK_TYPES;
	int32_t rank = cf_rng_int(rng, 1, MAX_RANK), dims[MAX_RANK];
	int32_t input, indices, k;
	bool ok;

	for (int32_t d = 0; d < rank - 1; d++)
		dims[d] = cf_rng_int(rng, 1, 3);
	dims[rank - 1] = cf_rng_int(rng, 1, 8);
	k = k_kind == TOPK_K_ONE   ? 1
	    : k_kind == TOPK_K_ROW ? dims[rank - 1]
				   : cf_rng_int(rng, 1, dims[rank - 1]);
	input = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, input);
	ok = cf_case_fill(c, input, rng, type == OPVER_TYPE_UINT8 ? 0 : -3,
			  type == OPVER_TYPE_UINT8 ? 6 : 3,
			  type == OPVER_TYPE_INT64) &&
	     add_axis(c, &k, 1);
	if (ok && type == OPVER_TYPE_FLOAT32) { /* whole numbers: ties */
		float *values = cf_case_values(c, input);

		for (size_t i = 0; i < cf_tensor_elements(&c->tensors[input]);
		     i++)
			values[i] = roundf(values[i]);
	}
	dims[rank - 1] = k;
	c->output = cf_case_tensor(c, type, rank, dims);
	indices = cf_case_tensor(c, OPVER_TYPE_INT32, rank, dims);
	cf_case_more_output(c, indices);
	if (type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8)
		ok = ok && cf_case_quantize(c, input, 0.5f, 0) &&
		     cf_case_quantize(c, c->output, 0.5f, 0);
	cf_case_param(c, "k=%d", (int)k);
	return ok;
}

const cf_generator cf_topk_v2_cases = {
	.op = OPVER_OP_TOPK_V2,
	.num_variants = NUM_TOPK_TYPES * NUM_TOPK_KS,
	.generate = generate_topk,
};
