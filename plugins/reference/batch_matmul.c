/*
 * batch_matmul.c - BATCH_MATMUL, float32, int8 and int16, computed as
 * TensorFlow Lite's reference kernels compute it: x [..., M, K] times
 * y [..., K, N] gives [..., M, N], x taken transposed ([..., K, M]) under
 * adj_x and y under adj_y ([..., N, K]).  Ranks 2 to 5; the batch
 * dimensions (all but the last two, the shorter shape padded with leading
 * 1s) broadcast: a dimension of 1 repeats along the other's.
 *
 *   float32  each output the sum over k in order
 *   int8     the sum of (x - x zero point) (y - y zero point) in int32
 *            (wrapping as TFLite's accumulator), rescaled by x scale x
 *            y scale / output scale, plus the output zero point, clamped
 *   int16    zero points 0; the sum in int64 and TFLite's 64-bit rescale
 *   hybrid   float32 x and output, int8 y quantized symmetrically per
 *            tensor: each row of x (after adj_x) quantized to int8 on the
 *            fly with its own scale, and zero point under
 *            asymmetric_quantize_inputs (hybrid.h); the int32 sum of
 *            (x - zero point) y times the float product of the row's
 *            scale and y's
 *
 * Version ranges (TFLite's op_version rules): 1 float32, and hybrid
 * without asymmetric_quantize_inputs; 2 int8; 3 int16; 4 hybrid with it.
 * Each kernel covers its type's versions: the hybrid one 1-4, as a hybrid
 * node is never version 2 or 3.
 */
#include <stdint.h>

#include "hybrid.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"

enum { BMM_X = 0, BMM_Y = 1 };

/* TFLite's largest rank for this op; the batch is what precedes M, K. */
#define BMM_MAX_RANK 5
#define BMM_BATCH_DIMS (BMM_MAX_RANK - 2)

typedef struct bmm_data {
	/* Output batch dimensions, and each input's element stride along
	 * them (0 where it broadcasts); all padded to BMM_BATCH_DIMS. */
	int32_t batch[BMM_BATCH_DIMS];
	size_t x_stride[BMM_BATCH_DIMS];
	size_t y_stride[BMM_BATCH_DIMS];
	int32_t m, k, n;
	/* Element (m, k) of x' is x[m * x_m + k * x_k] in its matrix; (k, n)
	 * of y' is y[k * y_k + n * y_n]. */
	size_t x_m, x_k, y_k, y_n;
	/* integer kernels */
	int32_t x_offset, y_offset; /* minus the zero points */
	int32_t output_offset;
	int32_t multiplier;
	int shift;
	int32_t activation_min, activation_max;
	/* hybrid: y's scale, and scratch for a row of x (K floats, then
	 * K int8) */
	float y_scale;
	bool asymmetric; /* asymmetric_quantize_inputs */
	int32_t row, row_quantized;
} bmm_data;

/* Dimension i of `t`'s batch padded to BMM_BATCH_DIMS with leading 1s. */
static int32_t bmm_batch_dim(const opver_tensor *t, int32_t i)
{
	const int32_t at = i - (BMM_BATCH_DIMS - (t->rank - 2));

	return at >= 0 ? t->dims[at] : 1;
}

/* Checks types (x and the output `type`, y `y_type`) and shapes, and
 * fills data's geometry. */
static opver_status bmm_check_node(const opver_context *ctx,
				   const opver_node *node, int32_t type,
				   int32_t y_type, bmm_data *d)
{
	const opver_tensor *x, *y, *out;
	opver_batch_matmul_params params = OPVER_BATCH_MATMUL_PARAMS_DEFAULTS;
	int32_t x_rows, x_cols, y_rows, y_cols, rank;
	ref_dims shape = { 0 };
	size_t x_matrix, y_matrix, x_step, y_step;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "BATCH_MATMUL takes x, y and one output");
	if (status != OPVER_OK)
		return status;
	x = node->inputs[BMM_X];
	y = node->inputs[BMM_Y];
	out = node->outputs[0];
	status = ref_expect_type(ctx, "x", x, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "y", y, y_type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", out, type);
	if (status != OPVER_OK)
		return status;
	if (x->rank < 2 || x->rank > BMM_MAX_RANK || y->rank < 2 ||
	    y->rank > BMM_MAX_RANK) {
		OPVER_REPORT(ctx,
			     "x '%s' has rank %d and y '%s' rank %d; BATCH_MATMUL takes ranks 2 to %d",
			     x->name, (int)x->rank, y->name, (int)y->rank,
			     BMM_MAX_RANK);
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	x_rows = x->dims[x->rank - 2];
	x_cols = x->dims[x->rank - 1];
	y_rows = y->dims[y->rank - 2];
	y_cols = y->dims[y->rank - 1];
	d->m = params.adj_x ? x_cols : x_rows;
	d->k = params.adj_x ? x_rows : x_cols;
	d->n = params.adj_y ? y_rows : y_cols;
	if ((params.adj_y ? y_cols : y_rows) != d->k) {
		OPVER_REPORT(ctx,
			     "x '%s' has depth %d and y '%s' %d; they must be equal",
			     x->name, (int)d->k, y->name,
			     (int)(params.adj_y ? y_cols : y_rows));
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->x_m = params.adj_x ? 1 : (size_t)x_cols;
	d->x_k = params.adj_x ? (size_t)x_cols : 1;
	d->y_k = params.adj_y ? 1 : (size_t)y_cols;
	d->y_n = params.adj_y ? (size_t)y_cols : 1;
	rank = x->rank > y->rank ? x->rank : y->rank;
	/* Batch strides from the innermost batch dimension out. */
	x_matrix = (size_t)x_rows * (size_t)x_cols;
	y_matrix = (size_t)y_rows * (size_t)y_cols;
	x_step = x_matrix;
	y_step = y_matrix;
	for (int32_t i = BMM_BATCH_DIMS - 1; i >= 0; i--) {
		const int32_t xd = bmm_batch_dim(x, i), yd = bmm_batch_dim(y, i);
		const int32_t od = xd == 1 ? yd : xd;

		if (xd != yd && xd != 1 && yd != 1) {
			OPVER_REPORT(ctx,
				     "batch dimensions %d of x '%s' and %d of y '%s' do not broadcast",
				     (int)xd, x->name, (int)yd, y->name);
			return OPVER_ERROR_INVALID_MODEL;
		}
		d->batch[i] = od;
		d->x_stride[i] = xd == 1 ? 0 : x_step;
		d->y_stride[i] = yd == 1 ? 0 : y_step;
		x_step *= (size_t)xd;
		y_step *= (size_t)yd;
	}
	/* The output: the batch dimensions x and y broadcast to, then
	 * [m, n]. */
	for (int32_t i = BMM_BATCH_DIMS - (rank - 2); i < BMM_BATCH_DIMS; i++)
		ref_dims_push(&shape, d->batch[i]);
	ref_dims_push(&shape, d->m);
	ref_dims_push(&shape, d->n);
	return ref_shape_dims(ctx, node, 0, &shape, "x and y give");
}

/*
 * Calls visit(x matrix offset, y matrix offset, output matrix offset) for
 * every output matrix, in output order.
 */
#define BMM_FOR_EACH_MATRIX(d, visit)                                        \
	for (int32_t b0 = 0, o = 0; b0 < (d)->batch[0]; b0++)               \
		for (int32_t b1 = 0; b1 < (d)->batch[1]; b1++)              \
			for (int32_t b2 = 0; b2 < (d)->batch[2]; b2++, o++) \
				visit(b0 * (d)->x_stride[0] +               \
					      b1 * (d)->x_stride[1] +       \
					      b2 * (d)->x_stride[2],        \
				      b0 * (d)->y_stride[0] +               \
					      b1 * (d)->y_stride[1] +       \
					      b2 * (d)->y_stride[2],        \
				      (size_t)o * (size_t)(d)->m *          \
					      (size_t)(d)->n)

/* ------------------------------------------------------------- float32 */

static opver_status bmm_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	return bmm_check_node(ctx, node, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			      node->op_data);
}

static void bmm_float32_matrix(const bmm_data *d, const float *x,
			       const float *y, float *out)
{
	for (int32_t i = 0; i < d->m; i++)
		for (int32_t j = 0; j < d->n; j++) {
			float total = 0.0f;

			for (int32_t k = 0; k < d->k; k++)
				total += x[i * d->x_m + k * d->x_k] *
					 y[k * d->y_k + j * d->y_n];
			out[(size_t)i * (size_t)d->n + (size_t)j] = total;
		}
}

static opver_status bmm_float32_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const bmm_data *d = node->op_data;
	const float *x = node->inputs[BMM_X]->data;
	const float *y = node->inputs[BMM_Y]->data;
	float *out = node->outputs[0]->data;

	(void)ctx;
#define BMM_FLOAT_VISIT(xo, yo, oo) \
	bmm_float32_matrix(d, x + (xo), y + (yo), out + (oo))
	BMM_FOR_EACH_MATRIX(d, BMM_FLOAT_VISIT);
#undef BMM_FLOAT_VISIT
	return OPVER_OK;
}

/* --------------------------------------------------------- int8, int16 */

static opver_status bmm_integer_prepare(const opver_context *ctx,
					opver_node *node, int32_t type)
{
	bmm_data *d = node->op_data;
	float x_scale, y_scale, out_scale;
	int32_t x_zero, y_zero, out_zero;
	opver_status status;

	status = bmm_check_node(ctx, node, type, type, d);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "x",
						     node->inputs[BMM_X],
						     &x_scale, &x_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "y",
						     node->inputs[BMM_Y],
						     &y_scale, &y_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output",
						     node->outputs[0],
						     &out_scale, &out_zero);
	if (status != OPVER_OK)
		return status;
	if (type == OPVER_TYPE_INT16 &&
	    (x_zero != 0 || y_zero != 0 || out_zero != 0)) {
		OPVER_REPORT(ctx,
			     "int16 BATCH_MATMUL needs zero points 0; x has %d, y %d and the output %d",
			     (int)x_zero, (int)y_zero, (int)out_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->x_offset = -x_zero;
	d->y_offset = -y_zero;
	d->output_offset = out_zero;
	ref_type_range(type, &d->activation_min, &d->activation_max);
	/* In double, as TFLite's GetQuantizedConvolutionMultipler. */
	return ref_quantize_rescale(ctx,
				    (double)x_scale * (double)y_scale /
					    (double)out_scale,
				    &d->multiplier, &d->shift,
				    "x scale x y scale / output scale");
}

static opver_status bmm_int8_prepare(const opver_context *ctx,
				     opver_node *node)
{
	return bmm_integer_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status bmm_int16_prepare(const opver_context *ctx,
				      opver_node *node)
{
	opver_status status = bmm_integer_prepare(ctx, node, OPVER_TYPE_INT16);
	const bmm_data *d = node->op_data;

	/* The 64-bit rescale is defined up to a shift of 7. */
	if (status == OPVER_OK && d->shift > 7) {
		OPVER_REPORT(ctx,
			     "x scale x y scale / output scale is 2^%d or more; int16 BATCH_MATMUL takes rescales below 128",
			     d->shift - 1);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return status;
}

static void bmm_int8_matrix(const bmm_data *d, const int8_t *x,
			    const int8_t *y, int8_t *out)
{
	for (int32_t i = 0; i < d->m; i++)
		for (int32_t j = 0; j < d->n; j++) {
			uint32_t total = 0; /* modulo 2^32, as TFLite's */
			int32_t v;

			for (int32_t k = 0; k < d->k; k++)
				total += (uint32_t)(
					((int32_t)x[i * d->x_m + k * d->x_k] +
					 d->x_offset) *
					((int32_t)y[k * d->y_k + j * d->y_n] +
					 d->y_offset));
			v = ref_gemm_multiply_by_quantized_multiplier(
				    (int32_t)total, d->multiplier, d->shift) +
			    d->output_offset;
			out[(size_t)i * (size_t)d->n + (size_t)j] =
				(int8_t)ref_clamp_int32(v, d->activation_min,
							d->activation_max);
		}
}

static void bmm_int16_matrix(const bmm_data *d, const int16_t *x,
			     const int16_t *y, int16_t *out)
{
	for (int32_t i = 0; i < d->m; i++)
		for (int32_t j = 0; j < d->n; j++) {
			int64_t total = 0;

			for (int32_t k = 0; k < d->k; k++)
				total += (int64_t)x[i * d->x_m + k * d->x_k] *
					 y[k * d->y_k + j * d->y_n];
			out[(size_t)i * (size_t)d->n + (size_t)j] =
				(int16_t)ref_clamp_int32(
					ref_multiply_by_quantized_multiplier_int64(
						total, d->multiplier,
						d->shift),
					d->activation_min, d->activation_max);
		}
}

static opver_status bmm_int8_invoke(const opver_context *ctx,
				    opver_node *node)
{
	const bmm_data *d = node->op_data;
	const int8_t *x = node->inputs[BMM_X]->data;
	const int8_t *y = node->inputs[BMM_Y]->data;
	int8_t *out = node->outputs[0]->data;

	(void)ctx;
#define BMM_INT8_VISIT(xo, yo, oo) \
	bmm_int8_matrix(d, x + (xo), y + (yo), out + (oo))
	BMM_FOR_EACH_MATRIX(d, BMM_INT8_VISIT);
#undef BMM_INT8_VISIT
	return OPVER_OK;
}

static opver_status bmm_int16_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const bmm_data *d = node->op_data;
	const int16_t *x = node->inputs[BMM_X]->data;
	const int16_t *y = node->inputs[BMM_Y]->data;
	int16_t *out = node->outputs[0]->data;

	(void)ctx;
#define BMM_INT16_VISIT(xo, yo, oo) \
	bmm_int16_matrix(d, x + (xo), y + (yo), out + (oo))
	BMM_FOR_EACH_MATRIX(d, BMM_INT16_VISIT);
#undef BMM_INT16_VISIT
	return OPVER_OK;
}

/* -------------------------------------------------------------- hybrid */

static opver_status bmm_hybrid_prepare(const opver_context *ctx,
				       opver_node *node)
{
	bmm_data *d = node->op_data;
	opver_batch_matmul_params params = OPVER_BATCH_MATMUL_PARAMS_DEFAULTS;
	const opver_tensor *y = node->inputs[BMM_Y];
	opver_status status;

	status = bmm_check_node(ctx, node, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
				d);
	/* One scale: TFLite 2.x's hybrid BATCH_MATMUL scales per tensor. */
	if (status == OPVER_OK)
		status = ref_filter_scales_check(ctx, y, y->rank - 1, 1);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)d->k, sizeof(float),
					     "a row of x", &d->row);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)d->k, sizeof(int8_t),
					     "a quantized row of x",
					     &d->row_quantized);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	d->asymmetric = params.asymmetric_quantize_inputs != 0;
	d->y_scale = ref_filter_scale(y, 0);
	return OPVER_OK;
}

/* One output matrix: each row of x quantized, then its dot products with
 * the columns of y. */
static void bmm_hybrid_matrix(const bmm_data *d, const float *x,
			      const int8_t *y, float *out, float *row,
			      int8_t *quantized)
{
	for (int32_t i = 0; i < d->m; i++) {
		float scale;
		int32_t zero;

		for (int32_t k = 0; k < d->k; k++)
			row[k] = x[i * d->x_m + k * d->x_k];
		ref_hybrid_quantize(row, (size_t)d->k, d->asymmetric,
				    quantized, &scale, &zero);
		/* Rounded to float first, as TFLite folds y's scale into
		 * the row's. */
		scale *= d->y_scale;
		for (int32_t j = 0; j < d->n; j++) {
			uint32_t total = 0; /* modulo 2^32, as TFLite's */

			for (int32_t k = 0; k < d->k; k++)
				total += (uint32_t)(
					((int32_t)quantized[k] - zero) *
					(int32_t)y[k * d->y_k + j * d->y_n]);
			out[(size_t)i * (size_t)d->n + (size_t)j] =
				(float)(int32_t)total * scale;
		}
	}
}

static opver_status bmm_hybrid_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const bmm_data *d = node->op_data;
	const float *x = node->inputs[BMM_X]->data;
	const int8_t *y = node->inputs[BMM_Y]->data;
	float *out = node->outputs[0]->data;
	float *row = ref_scratch(ctx, d->row);
	int8_t *quantized = ref_scratch(ctx, d->row_quantized);

	if (row == NULL || quantized == NULL)
		return OPVER_ERROR;
#define BMM_HYBRID_VISIT(xo, yo, oo) \
	bmm_hybrid_matrix(d, x + (xo), y + (yo), out + (oo), row, quantized)
	BMM_FOR_EACH_MATRIX(d, BMM_HYBRID_VISIT);
#undef BMM_HYBRID_VISIT
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define BMM_KERNEL(kernel_name, version, type, prepare_fn, invoke_fn)      \
	{                                                                   \
		OPVER_KERNEL(kernel_name, BATCH_MATMUL, version, version),  \
		REF_SIGNATURES(REF_BINARY_SIGNATURE(type)),                 \
		REF_KERNEL_TRAITS,                                          \
		.op_data_size = sizeof(bmm_data),                           \
		.prepare = prepare_fn, .invoke = invoke_fn,                 \
	}

const opver_kernel ref_batch_matmul_float32 =
	BMM_KERNEL("batch_matmul_float32", 1, FLOAT32, bmm_float32_prepare,
		   bmm_float32_invoke);
const opver_kernel ref_batch_matmul_int8 =
	BMM_KERNEL("batch_matmul_int8", 2, INT8, bmm_int8_prepare,
		   bmm_int8_invoke);
const opver_kernel ref_batch_matmul_int16 =
	BMM_KERNEL("batch_matmul_int16", 3, INT16, bmm_int16_prepare,
		   bmm_int16_invoke);

const opver_kernel ref_batch_matmul_hybrid = {
	OPVER_KERNEL("batch_matmul_hybrid", BATCH_MATMUL, 1, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(INT8)),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(bmm_data),
	.prepare = bmm_hybrid_prepare, .invoke = bmm_hybrid_invoke,
};
