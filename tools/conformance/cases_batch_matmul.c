/*
 * cases_batch_matmul.c - BATCH_MATMUL, L2_NORMALIZATION, L2_POOL_2D and
 * LOCAL_RESPONSE_NORMALIZATION cases, the remaining ops of the spatial
 * and linear-algebra family.
 *
 * BATCH_MATMUL variants cross the types (float32, int8, int16) with
 * adj_x, adj_y and broadcasting: without it x and y share their batch
 * dimensions (0-2 of them, 1-3 each); with it y has fewer, or 1 where x
 * has more.  M, K and N are 1-6.  The hybrid variants after them (float32
 * x, constant int8 y quantized symmetrically) cross
 * asymmetric_quantize_inputs with the same choices.  Then the hard
 * variants (cases_hard.h), int8 and int16 at every spot, x [B, M, K] and y
 * [B, K, N] (B 1-2): x's first row and y's first column at the type's
 * lowest value and x's last row at its highest, so that the first and
 * last outputs go past the clamps as far as the zero points let them; at
 * the ties spot y's second column holds one odd multiple of half the
 * rescale's step and multiples of it elsewhere, and x's first column odd
 * deviations, which puts every output of that column on a tie.
 * L2_NORMALIZATION's
 * variants are its types (float32, int8, uint8; the quantized outputs in
 * 1/128 as TFLite requires) over ranks 1-4; L2_POOL_2D's (float32 only)
 * the padding and the clamp activations, with pooling's shapes.
 * LOCAL_RESPONSE_NORMALIZATION's (float32, 4-D) are TFLite's defaults
 * (radius 5, bias 1, alpha 1, beta 0.5), beta 0.75 as in AlexNet, beta 1,
 * and radius 0; each case draws the shape (1-8 channels), bias in [0.5,
 * 2] and alpha in [1e-4, 1] but for the defaults, and data in [-3, 3].
 */
#include <math.h>

#include "cases_hard.h"

enum { FLOAT32, INT8, INT16, UINT8 };

static const opver_type types[] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
	OPVER_TYPE_UINT8,
};

/* Fills tensor t with the whole range of its type (floats in [-1, 1]). */
static bool fill(cf_case *c, int32_t t, cf_rng *rng, int32_t kind)
{
	switch (kind) {
	case FLOAT32:
		return cf_case_fill(c, t, rng, -1, 1, false);
	case INT8:
		return cf_case_fill(c, t, rng, -128, 127, false);
	case INT16:
		return cf_case_fill(c, t, rng, -32768, 32767, false);
	default:
		return cf_case_fill(c, t, rng, 0, 255, false);
	}
}

/* ------------------------------------------------------- BATCH_MATMUL */

/* The variants of one type each, and the hybrid ones that follow. */
#define BMM_TYPED_VARIANTS (3 * 2 * 2 * 2)
#define BMM_HYBRID_VARIANTS (2 * 2 * 2 * 2)

static bool generate_batch_matmul(int32_t variant, cf_rng *rng, cf_case *c)
{
	bool hybrid = variant >= BMM_TYPED_VARIANTS;
	int32_t kind = hybrid ? FLOAT32 : variant % 3;
	int32_t rest = hybrid ? (variant - BMM_TYPED_VARIANTS) / 2
			      : variant / 3;
	bool asymmetric = hybrid && variant % 2;
	bool adj_x = rest % 2, adj_y = rest / 2 % 2;
	bool broadcast = rest / 4 % 2;
	int32_t m = cf_rng_int(rng, 1, 6), k = cf_rng_int(rng, 1, 6);
	int32_t n = cf_rng_int(rng, 1, 6);
	int32_t batch = cf_rng_int(rng, broadcast ? 1 : 0, 2);
	int32_t y_batch = broadcast ? cf_rng_int(rng, 0, batch) : batch;
	int32_t x_dims[4], y_dims[4], out_dims[4], x, y, out;

	for (int32_t i = 0; i < batch; i++) {
		x_dims[i] = cf_rng_int(rng, 1, 3);
		out_dims[i] = x_dims[i];
	}
	/* y's batch is x's trailing y_batch dimensions, some 1. */
	for (int32_t i = 0; i < y_batch; i++) {
		int32_t from = batch - y_batch + i;

		y_dims[i] = broadcast && cf_rng_int(rng, 0, 1) ? 1
							       : x_dims[from];
	}
	/* Broadcasting both ways: x's 1 against y's 2. */
	if (broadcast && y_batch > 0 && x_dims[batch - 1] == 1)
		y_dims[y_batch - 1] = out_dims[batch - 1] = 2;
	x_dims[batch] = adj_x ? k : m;
	x_dims[batch + 1] = adj_x ? m : k;
	y_dims[y_batch] = adj_y ? n : k;
	y_dims[y_batch + 1] = adj_y ? k : n;
	out_dims[batch] = m;
	out_dims[batch + 1] = n;
	x = cf_case_tensor(c, types[kind], batch + 2, x_dims);
	y = cf_case_tensor(c, hybrid ? OPVER_TYPE_INT8 : types[kind],
			   y_batch + 2, y_dims);
	out = cf_case_tensor(c, types[kind], batch + 2, out_dims);
	cf_case_input(c, x);
	cf_case_input(c, y);
	c->output = out;
	c->has_params = true;
	c->params.batch_matmul = (opver_batch_matmul_params){ adj_x, adj_y,
							      asymmetric };
	if (hybrid) {
		if (!cf_case_quantize(c, y, cf_rng_float(rng, 0.005f, 0.02f),
				      0))
			return false;
	} else if (kind != FLOAT32) {
		bool int16 = kind == INT16;
		float xs = cf_rng_float(rng, 0.01f, 0.05f);
		float ys = cf_rng_float(rng, 0.01f, 0.05f);

		if (!cf_case_quantize(c, x, xs, int16 ? 0 : cf_rng_int(rng, -10, 10)) ||
		    !cf_case_quantize(c, y, ys, int16 ? 0 : cf_rng_int(rng, -10, 10)) ||
		    !cf_case_quantize(c, out,
				      xs * ys * sqrtf((float)k) *
					      (int16 ? 30000.0f : 100.0f),
				      int16 ? 0 : cf_rng_int(rng, -10, 10)))
			return false;
	}
	cf_case_param(c, "adj_x=%d adj_y=%d broadcast=%s m=%d k=%d n=%d",
		      adj_x, adj_y, broadcast ? "yes" : "no", m, k, n);
	if (!hybrid)
		return fill(c, x, rng, kind) && fill(c, y, rng, kind);
	cf_case_param(c, "hybrid asymmetric_quantize_inputs=%d", asymmetric);
	return fill(c, x, rng, kind) &&
	       cf_case_fill(c, y, rng, -127, 127, true);
}

/* Element (b, row, col) of a [B, rows, cols] tensor's values, as
 * deviations from the zero point set to `deviation` within the type. */
static void set_deviation(cf_case *c, int32_t t, size_t at,
			  int32_t deviation)
{
	const cf_tensor_desc *d = &c->tensors[t];
	const int32_t zero = (int32_t)d->zero_points[0];
	const int32_t lo = d->type == OPVER_TYPE_INT16 ? INT16_MIN : INT8_MIN;
	const int32_t hi = d->type == OPVER_TYPE_INT16 ? INT16_MAX : INT8_MAX;
	int32_t v = zero + deviation;

	v = v < lo ? lo : v > hi ? hi : v;
	if (d->type == OPVER_TYPE_INT16)
		((int16_t *)cf_case_values(c, t))[at] = (int16_t)v;
	else
		((int8_t *)cf_case_values(c, t))[at] = (int8_t)v;
}

/* The deviation from its zero point of element `at` of tensor t. */
static int32_t deviation_at(cf_case *c, int32_t t, size_t at)
{
	const cf_tensor_desc *d = &c->tensors[t];
	const void *values = cf_case_values(c, t);
	const int32_t v = d->type == OPVER_TYPE_INT16 ?
				  ((const int16_t *)values)[at] :
				  ((const int8_t *)values)[at];

	return v - (int32_t)d->zero_points[0];
}

/* The ties of the top of the file: y's column 1 and x's column 0. */
static void plant_matmul_ties(cf_case *c, int32_t x, int32_t y, int32_t b,
			      int32_t m, int32_t k, int32_t n, int32_t step)
{
	for (int32_t i = 0; i < b * k; i++) {
		const size_t at = (size_t)i * (size_t)n + 1;
		const int32_t d = deviation_at(c, y, at);

		set_deviation(c, y, at,
			      i % k == 0 ? (2 * (d / step) + 1) * (step / 2) :
					   d / step * step);
	}
	for (int32_t i = 0; i < b * m; i++) {
		const size_t at = (size_t)i * (size_t)k;

		set_deviation(c, x, at, deviation_at(c, x, at) | 1);
	}
}

/* Hard variant v (see the top of the file). */
static bool generate_batch_matmul_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_INT16 : OPVER_TYPE_INT8;
	const int32_t b = cf_rng_int(rng, 1, 2), m = cf_rng_int(rng, 2, 5);
	const int32_t k = cf_rng_int(rng, 1, 6), n = cf_rng_int(rng, 2, 5);
	const int32_t x_dims[3] = { b, m, k }, y_dims[3] = { b, k, n };
	const int32_t out_dims[3] = { b, m, n };
	int32_t x, y, out, deviation, step;
	cf_hard hard;
	float xs, ys;

	cf_hard_draw(&hard, v / 2, rng);
	x = cf_case_tensor(c, type, 3, x_dims);
	y = cf_case_tensor(c, type, 3, y_dims);
	out = cf_case_tensor(c, type, 3, out_dims);
	cf_case_input(c, x);
	cf_case_input(c, y);
	c->output = out;
	c->has_params = true;
	c->params.batch_matmul = (opver_batch_matmul_params){ 0, 0, 0 };
	xs = cf_hard_input_scale(&hard, 0, 0x1p-6f);
	ys = cf_hard_input_scale(&hard, 1, 0x1p-6f);
	deviation = cf_hard_deviation(&hard, k, true, type);
	if (!cf_case_quantize(c, x, xs,
			      cf_hard_zero_point(&hard, CF_HARD_INPUT, type,
						 rng)) ||
	    !cf_case_quantize(c, y, ys,
			      cf_hard_zero_point(&hard, CF_HARD_SECOND, type,
						 rng)) ||
	    !cf_case_quantize(c, out,
			      cf_hard_output_scale(&hard, (double)xs * ys),
			      cf_hard_zero_point(&hard, CF_HARD_OUTPUT, type,
						 rng)) ||
	    !cf_hard_fill(c, x, rng, deviation, false) ||
	    !cf_hard_fill(c, y, rng, deviation, false))
		return false;
	/* Past the clamps: output (0, 0) sums lowest x lowest, the last
	 * output's row the highest x. */
	for (int32_t i = 0; i < k; i++) {
		set_deviation(c, x, (size_t)i, -65536);
		set_deviation(c, y, (size_t)i * (size_t)n, -65536);
		set_deviation(c, x, (size_t)(b * m - 1) * (size_t)k + (size_t)i,
			      65536);
	}
	step = (int32_t)lrint(1 / hard.multiplier);
	if (hard.spot == CF_SPOT_TIES)
		plant_matmul_ties(c, x, y, b, m, k, n, step);
	cf_hard_param(c, &hard,
		      (const int32_t[CF_HARD_ROLES]){ x, y, out });
	cf_case_param(c, "adj_x=0 adj_y=0 broadcast=no m=%d k=%d n=%d", m, k,
		      n);
	return true;
}

static bool generate_batch_matmul_any(int32_t variant, cf_rng *rng,
				      cf_case *c)
{
	if (variant >= BMM_TYPED_VARIANTS + BMM_HYBRID_VARIANTS)
		return generate_batch_matmul_hard(
			variant - BMM_TYPED_VARIANTS - BMM_HYBRID_VARIANTS,
			rng, c);
	return generate_batch_matmul(variant, rng, c);
}

const cf_generator cf_batch_matmul_cases = {
	.op = OPVER_OP_BATCH_MATMUL,
	.num_variants = BMM_TYPED_VARIANTS + BMM_HYBRID_VARIANTS +
			2 * CF_NUM_SPOTS,
	.generate = generate_batch_matmul_any,
};

/* --------------------------------------------------- L2_NORMALIZATION */

static bool generate_l2_normalization(int32_t variant, cf_rng *rng,
				      cf_case *c)
{
	static const int32_t kinds[] = { FLOAT32, INT8, UINT8 };
	int32_t kind = kinds[variant % 3];
	int32_t rank = cf_rng_int(rng, 1, 4), dims[4], input, output;

	for (int32_t i = 0; i < rank; i++)
		dims[i] = cf_rng_int(rng, 1, 6);
	input = cf_case_tensor(c, types[kind], rank, dims);
	output = cf_case_tensor(c, types[kind], rank, dims);
	cf_case_input(c, input);
	c->output = output;
	c->has_params = true;
	c->params.l2_norm = (opver_l2_norm_params){ OPVER_ACTIVATION_NONE };
	if (kind != FLOAT32 &&
	    (!cf_case_quantize_random(c, input, rng, 0.01f, 0.1f,
				      kind == INT8 ? -10 : 118,
				      kind == INT8 ? 10 : 138) ||
	     !cf_case_quantize(c, output, 1.0f / 128,
			       kind == INT8 ? 0 : 128)))
		return false;
	cf_case_param(c, "rank=%d", rank);
	return fill(c, input, rng, kind);
}

const cf_generator cf_l2_normalization_cases = {
	.op = OPVER_OP_L2_NORMALIZATION,
	.num_variants = 3,
	.generate = generate_l2_normalization,
};

/* --------------------------------------------------------- L2_POOL_2D */

static bool generate_l2_pool(int32_t variant, cf_rng *rng, cf_case *c)
{
	opver_padding padding = variant % 2 ? OPVER_PADDING_VALID
					    : OPVER_PADDING_SAME;
	opver_activation activation = cf_activation(variant / 2);
	opver_pool_params *p = &c->params.pool;
	int32_t in_dims[4], out_dims[4], input, output;

	*p = (opver_pool_params){
		.padding = padding,
		.stride_width = cf_rng_int(rng, 1, 3),
		.stride_height = cf_rng_int(rng, 1, 3),
		.filter_width = cf_rng_int(rng, 1, 3),
		.filter_height = cf_rng_int(rng, 1, 3),
		.activation = activation,
	};
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	in_dims[1] = cf_rng_int(rng, padding == OPVER_PADDING_VALID
					     ? p->filter_height : 1, 9);
	in_dims[2] = cf_rng_int(rng, padding == OPVER_PADDING_VALID
					     ? p->filter_width : 1, 9);
	in_dims[3] = cf_rng_int(rng, 1, 8);
	out_dims[0] = in_dims[0];
	out_dims[1] = cf_window_output(in_dims[1], p->filter_height,
				       p->stride_height, 1, padding);
	out_dims[2] = cf_window_output(in_dims[2], p->filter_width,
				       p->stride_width, 1, padding);
	out_dims[3] = in_dims[3];
	input = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4, in_dims);
	output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4, out_dims);
	cf_case_input(c, input);
	c->output = output;
	cf_case_param(c, "padding=%s stride=%dx%d filter=%dx%d activation=%s",
		      cf_padding_name(padding), p->stride_width,
		      p->stride_height, p->filter_width, p->filter_height,
		      cf_activation_name(activation));
	/* Root mean squares up to 8: RELU_N1_TO_1 and RELU6 clamp some. */
	return cf_case_fill(c, input, rng, -8, 8, false);
}

const cf_generator cf_l2_pool_2d_cases = {
	.op = OPVER_OP_L2_POOL_2D,
	.num_variants = 2 * CF_NUM_ACTIVATIONS,
	.generate = generate_l2_pool,
};

/* ------------------------------------------ LOCAL_RESPONSE_NORMALIZATION */

static bool generate_local_response_norm(int32_t variant, cf_rng *rng,
					 cf_case *c)
{
	static const opver_local_response_norm_params kinds[] = {
		{ 5, 1.0f, 1.0f, 0.5f },
		{ 2, 0.0f, 0.0f, 0.75f },
		{ 1, 0.0f, 0.0f, 1.0f },
		{ 0, 0.0f, 0.0f, 0.5f },
	};
	opver_local_response_norm_params p = kinds[variant];
	int32_t dims[4], input;

	dims[0] = cf_rng_int(rng, 1, 2);
	dims[1] = cf_rng_int(rng, 1, 3);
	dims[2] = cf_rng_int(rng, 1, 3);
	dims[3] = cf_rng_int(rng, 1, 8);
	if (variant > 0) {
		p.bias = cf_rng_float(rng, 0.5f, 2.0f);
		p.alpha = cf_rng_float(rng, 1e-4f, 1.0f);
	}
	input = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4, dims);
	cf_case_input(c, input);
	c->output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4, dims);
	c->has_params = true;
	c->params.local_response_norm = p;
	cf_case_param(c, "radius=%d bias=%g alpha=%g beta=%g", (int)p.radius,
		      (double)p.bias, (double)p.alpha, (double)p.beta);
	return cf_case_fill(c, input, rng, -3, 3, false);
}

const cf_generator cf_local_response_norm_cases = {
	.op = OPVER_OP_LOCAL_RESPONSE_NORMALIZATION,
	.num_variants = 4,
	.generate = generate_local_response_norm,
};
