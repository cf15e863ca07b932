/*
 * reduce.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_PROD over the
 * dimensions an int32 axis tensor names (negative ones counting from the
 * end, repeats allowed), float32, int32, int64, uint8, int8 and int16, and
 * REDUCE_ANY and REDUCE_ALL of bool, as TensorFlow Lite's reference
 * kernels compute them.  A constant axis is
 * planned in prepare; one the graph computes, in each invoke, which fails
 * with a report when its axes do not give the output's (fixed) shape.
 *
 * One walker serves every op: prepare merges the input's dimensions into
 * runs that are all reduced or all kept, and invoke visits the input in
 * row-major order, each element with the offset of its output element,
 * folding it in.  Every output element so sees its inputs in increasing
 * order, the order of TFLite's loops (which float sums depend on).
 *
 *   MAX, MIN    in the element type; quantized tensors must share the
 *               input's scale and zero point, as TFLite requires.
 *   SUM         the same, wrapping in the element type (TFLite's int8 sum
 *               of raw values), except uint8 and int8 with another output
 *               quantization: the int32 sum is rescaled in float,
 *               round(sum * s + bias) + output zero point, s = input scale
 *               / output scale, bias = -input zero point * s * count,
 *               narrowed to the element type without a clamp, as TFLite.
 *   PROD        in the element type (float32, int32, int64); quantized
 *               int8 and int16 multiply (q - zero point) terms in int32,
 *               rescaling each step and the end by s = input scale /
 *               output scale^(1 / count) with TFLite's 64-bit rescale.
 *   MEAN        float32: the float sum over the count.  int32, int64, and
 *               quantized tensors with the output's scale and zero point:
 *               the integer sum (int64, or int32 for 8- and 16-bit
 *               types) divided by the count, truncated.  Other quantized
 *               ones: int8 over axes [1, 2] of a 4-D input with
 *               keep_dims takes TFLite's integer path (the sum of q - zero
 *               point rescaled by input scale / output scale, divided by
 *               the count rounding half away from zero); uint8 there
 *               takes TFLite's legacy one (the sum rescaled by input scale
 *               / (count x output scale), plus a bias), and so does int8
 *               in reference-tflite, as TFLite's builtin kernel; all others the
 *               float one, round(sum / count * s - input zero point * s)
 *               + output zero point, clamped.
 *   ANY, ALL    bool: any nonzero byte is true; the output holds 0 or 1.
 * An empty input gives each op's starting value: MEAN NaN or 0, SUM 0,
 * MAX the type's lowest, MIN its highest, PROD 1 (quantized PROD, which
 * TFLite leaves unwritten, 0), ANY false, ALL true.  int16 tensors must have zero points 0.
 *
 * Version ranges (TFLite's op_version rules): MEAN, REDUCE_MAX and
 * REDUCE_MIN 1 (float32, int32, int64, uint8), 2 (int8), 3 (int16); SUM 1,
 * 2 (int8; int16 stays 1); REDUCE_PROD 1, 2 (int8 and int16); REDUCE_ANY
 * and REDUCE_ALL 1 (TFLite has no rule for them).  A version
 * adds only tensor types, so each kernel covers all of its op's versions.
 *
 * The quantized methods' constants and finishing are in reduce_quantized.c.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "reduce_walk.h"

/* ----------------------------------------------------------- prepare */

/* Checks the axis tensor and marks the dimensions it names in reduced[]
 * (rank entries); *raw gets its values for TFLite's 4-D test. */
static opver_status reduce_read_axis(const opver_context *ctx,
				     const opver_tensor *axis, int32_t rank,
				     bool reduced[], int32_t *num_axis,
				     const int32_t **raw)
{
	*num_axis = (int32_t)opver_tensor_elements(axis);
	*raw = axis->data;
	for (int32_t d = 0; d < rank; d++)
		reduced[d] = false;
	/* TFLite ignores the axes of a scalar input. */
	for (int32_t i = 0; i < *num_axis && rank > 0; i++) {
		int32_t a = (*raw)[i];

		if (a < -rank || a >= rank) {
			OPVER_REPORT(ctx,
				     "axis '%s' names dimension %d; the input has rank %d",
				     axis->name, (int)a, (int)rank);
			return OPVER_ERROR_INVALID_MODEL;
		}
		reduced[a < 0 ? a + rank : a] = true;
	}
	return OPVER_OK;
}

/* Gives the output the input's shape with reduced dimensions dropped,
 * or kept as 1 with keep_dims; at invoke (a run-time axis, the output
 * keeping the model's shape) checks it. */
static opver_status reduce_check_output(const opver_context *ctx,
					const opver_node *node,
					const opver_tensor *input,
					const bool reduced[], bool keep_dims,
					bool at_invoke)
{
	const char *source = keep_dims ? "the reduction with keep_dims gives"
				       : "the reduction without keep_dims gives";
	int32_t want[REDUCE_MAX_DIMS], rank = 0;

	for (int32_t d = 0; d < input->rank; d++)
		if (!reduced[d])
			want[rank++] = input->dims[d];
		else if (keep_dims)
			want[rank++] = 1;
	if (at_invoke)
		return ref_expect_shape(ctx, node->outputs[0], want, rank,
					source);
	return ref_shape_output(ctx, node, 0, want, rank, source);
}

/* Merges the input's dimensions into runs and fills the plan. */
static void reduce_plan_fill(const opver_tensor *input, const bool reduced[],
			     reduce_plan *p)
{
	size_t stride = 1;

	p->rank = 0;
	p->inputs = opver_tensor_elements(input);
	p->count = 1;
	for (int32_t d = 0; d < input->rank; d++) {
		if (reduced[d])
			p->count *= (size_t)input->dims[d];
		if (input->dims[d] == 1)
			continue;
		if (p->rank > 0 && p->reduced[p->rank - 1] == reduced[d]) {
			p->dims[p->rank - 1] *= input->dims[d];
			continue;
		}
		p->dims[p->rank] = input->dims[d];
		p->reduced[p->rank] = reduced[d];
		p->rank++;
	}
	for (int32_t d = p->rank - 1; d >= 0; d--) {
		p->out_stride[d] = p->reduced[d] ? 0 : stride;
		if (!p->reduced[d])
			stride *= (size_t)p->dims[d];
	}
	p->outputs = stride;
	/* An empty kept dimension leaves no output, an empty reduced one an
	 * output of starting values. */
	for (int32_t d = 0; d < input->rank; d++)
		if (input->dims[d] == 0 && !reduced[d])
			p->outputs = 0;
}


/*
 * TFLite's 4-D MEAN path: keep_dims, a 4-D 8-bit input and axes exactly
 * [1, 2] or [2, 1] as written.  Later TFLite releases and TFLite Micro
 * take it for int16 too; TFLite 2.12, the oracle, gives int16 the general
 * paths' outputs, which opver follows.
 */
static bool is_spatial_mean(const opver_tensor *input, bool keep_dims,
			    int32_t num_axis, const int32_t *axis)
{
	return input->type != OPVER_TYPE_INT16 && keep_dims &&
	       input->rank == 4 && num_axis == 2 &&
	       ((axis[0] == 1 && axis[1] == 2) ||
		(axis[0] == 2 && axis[1] == 1));
}


/*
 * Everything the axis values decide: the axes, the output's shape, the
 * plan and the method with its constants.  In prepare for a constant
 * axis; in invoke, on a copy of the node's data, for one the graph
 * computes (TFLite's dynamic output, here of a shape fixed beforehand).
 */
static opver_status reduce_configure(const opver_context *ctx,
				     const opver_node *node,
				     reduce_data *data)
{
	const opver_tensor *input = node->inputs[REDUCE_INPUT];
	opver_reducer_params params = OPVER_REDUCER_PARAMS_DEFAULTS;
	bool reduced[REDUCE_MAX_DIMS];
	const int32_t *axis;
	int32_t num_axis;
	opver_status status;

	status = reduce_read_axis(ctx, node->inputs[REDUCE_AXIS], input->rank,
				  reduced, &num_axis, &axis);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	status = reduce_check_output(ctx, node, input, reduced,
				     params.keep_dims != 0, data->runtime_axis);
	if (status != OPVER_OK)
		return status;
	data->op = node->op;
	data->type = input->type;
	reduce_plan_fill(input, reduced, &data->plan);
	if (input->type == OPVER_TYPE_FLOAT32 ||
	    input->type == OPVER_TYPE_BOOL) {
		data->method = node->op == OPVER_OP_MEAN ? REDUCE_MEAN_FLOAT
							 : REDUCE_FOLD;
		return OPVER_OK;
	}
	return ref_reduce_prepare_integer(
		ctx, node,
		is_spatial_mean(input, params.keep_dims != 0, num_axis, axis),
		data);
}

static opver_status reduce_prepare(const opver_context *ctx,
				   opver_node *node)
{
	reduce_data *data = node->op_data;
	const opver_tensor *input, *output, *axis;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "a reduction takes an input, an axis tensor and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[REDUCE_INPUT];
	axis = node->inputs[REDUCE_AXIS];
	output = node->outputs[0];
	if (output->type != input->type) {
		OPVER_REPORT(ctx,
			     "output '%s' has type %s; a reduction keeps the input's, %s",
			     output->name, ctx->host->type_name(output->type),
			     ctx->host->type_name(input->type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if ((input->type == OPVER_TYPE_BOOL) !=
	    (node->op == OPVER_OP_REDUCE_ANY ||
	     node->op == OPVER_OP_REDUCE_ALL)) {
		OPVER_REPORT(ctx,
			     "input '%s' has type %s; REDUCE_ANY and REDUCE_ALL take BOOL, the other reductions numbers",
			     input->name, ctx->host->type_name(input->type));
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (input->rank > REDUCE_MAX_DIMS) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; at most %d is supported",
			     input->name, (int)input->rank, REDUCE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_expect_type(ctx, "axis", axis, OPVER_TYPE_INT32);
	if (status != OPVER_OK)
		return status;
	if (axis->rank > 1) {
		OPVER_REPORT(ctx,
			     "axis '%s' has rank %d; it must be a scalar or a list",
			     axis->name, (int)axis->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*data = (reduce_data){ .runtime_axis = !axis->is_constant,
			       .accumulators = -1 };
	if (!data->runtime_axis) {
		status = reduce_configure(ctx, node, data);
		if (status != OPVER_OK || data->method == REDUCE_FOLD)
			return status;
	}
	/* One accumulator per output element, whatever the axes. */
	return ref_request_scratch(ctx, opver_tensor_elements(output),
				   sizeof(int64_t), "accumulators",
				   &data->accumulators);
}

/* ------------------------------------------------------------ invoke */


/* MAX, MIN, SUM, PROD of float32 in place in the output. */
static void reduce_fold_float(const reduce_data *data, const float *in,
			      float *out)
{
	const reduce_plan *p = &data->plan;
	const float init = data->op == OPVER_OP_REDUCE_MAX   ? -FLT_MAX
			   : data->op == OPVER_OP_REDUCE_MIN ? FLT_MAX
			   : data->op == OPVER_OP_REDUCE_PROD ? 1.0f
							      : 0.0f;

	for (size_t i = 0; i < p->outputs; i++)
		out[i] = init;
	switch (data->op) {
	case OPVER_OP_REDUCE_MAX:
		REDUCE_WALK(p, w, out[w.out] = in[w.in] > out[w.out]
						       ? in[w.in]
						       : out[w.out]);
		break;
	case OPVER_OP_REDUCE_MIN:
		REDUCE_WALK(p, w, out[w.out] = in[w.in] < out[w.out]
						       ? in[w.in]
						       : out[w.out]);
		break;
	case OPVER_OP_REDUCE_PROD:
		REDUCE_WALK(p, w, out[w.out] *= in[w.in]);
		break;
	default:
		REDUCE_WALK(p, w, out[w.out] += in[w.in]);
		break;
	}
}

/* MAX, MIN, SUM, PROD of integers, wrapping in the element type: a sum or
 * product modulo 2^64 keeps the low bits of each wrapped step. */
static void reduce_fold_integer(const reduce_data *data, const void *in,
				void *out)
{
	const reduce_plan *p = &data->plan;
	const int32_t type = data->type;
	int32_t low, high;
	int64_t init;

	switch (data->op) {
	case OPVER_OP_REDUCE_MAX:
		init = type == OPVER_TYPE_INT64 ? INT64_MIN
		       : ref_type_range(type, &low, &high) ? low : 0;
		break;
	case OPVER_OP_REDUCE_MIN:
		init = type == OPVER_TYPE_INT64 ? INT64_MAX
		       : ref_type_range(type, &low, &high) ? high : 0;
		break;
	case OPVER_OP_REDUCE_PROD:
		init = 1;
		break;
	default:
		init = 0;
		break;
	}
	for (size_t i = 0; i < p->outputs; i++)
		reduce_store(type, out, i, init);
	switch (data->op) {
	case OPVER_OP_REDUCE_MAX:
		REDUCE_WALK(p, w, {
			const int64_t x = reduce_load(type, in, w.in);

			if (x > reduce_load(type, out, w.out))
				reduce_store(type, out, w.out, x);
		});
		break;
	case OPVER_OP_REDUCE_MIN:
		REDUCE_WALK(p, w, {
			const int64_t x = reduce_load(type, in, w.in);

			if (x < reduce_load(type, out, w.out))
				reduce_store(type, out, w.out, x);
		});
		break;
	case OPVER_OP_REDUCE_PROD:
		REDUCE_WALK(p, w,
			    reduce_store(type, out, w.out,
					 (int64_t)((uint64_t)reduce_load(
							   type, out, w.out) *
						   (uint64_t)reduce_load(
							   type, in, w.in))));
		break;
	default:
		REDUCE_WALK(p, w,
			    reduce_store(type, out, w.out,
					 (int64_t)((uint64_t)reduce_load(
							   type, out, w.out) +
						   (uint64_t)reduce_load(
							   type, in, w.in))));
		break;
	}
}

/* ANY, ALL of bools in place in the output, as 0 or 1. */
static void reduce_fold_bool(const reduce_data *data, const uint8_t *in,
			     uint8_t *out)
{
	const reduce_plan *p = &data->plan;
	const uint8_t all = data->op == OPVER_OP_REDUCE_ALL;

	for (size_t i = 0; i < p->outputs; i++)
		out[i] = all;
	if (all)
		REDUCE_WALK(p, w, out[w.out] &= (uint8_t)(in[w.in] != 0));
	else
		REDUCE_WALK(p, w, out[w.out] |= (uint8_t)(in[w.in] != 0));
}

/* The sum of each output's inputs, minus `offset` each, into acc (int64,
 * wrapping modulo 2^64). */
static void reduce_sums(const reduce_data *data, const void *in,
			int64_t offset, int64_t *acc)
{
	const reduce_plan *p = &data->plan;
	const int32_t type = data->type;

	for (size_t i = 0; i < p->outputs; i++)
		acc[i] = 0;
	REDUCE_WALK(p, w,
		    acc[w.out] = (int64_t)((uint64_t)acc[w.out] +
					   (uint64_t)(reduce_load(type, in,
								  w.in) -
						      offset)));
}


static void reduce_mean_float(const reduce_data *data, const float *in,
			      float *out, float *acc)
{
	const reduce_plan *p = &data->plan;

	if (p->inputs == 0) {
		for (size_t i = 0; i < p->outputs; i++)
			out[i] = NAN;
		return;
	}
	for (size_t i = 0; i < p->outputs; i++)
		acc[i] = 0.0f;
	REDUCE_WALK(p, w, acc[w.out] += in[w.in]);
	for (size_t i = 0; i < p->outputs; i++)
		out[i] = acc[i] / (float)p->count;
}


static opver_status reduce_invoke(const opver_context *ctx, opver_node *node)
{
	const reduce_data *data = node->op_data;
	const void *in = node->inputs[REDUCE_INPUT]->data;
	void *out = node->outputs[0]->data;
	reduce_data planned;
	int64_t *acc = NULL;

	if (data->runtime_axis) {
		opver_status status;

		planned = *data;
		status = reduce_configure(ctx, node, &planned);
		if (status != OPVER_OK)
			return status;
		data = &planned;
	}

	if (data->accumulators >= 0) {
		acc = ref_scratch(ctx, data->accumulators);
		if (acc == NULL)
			return OPVER_ERROR;
	}
	switch (data->method) {
	case REDUCE_FOLD:
		if (data->type == OPVER_TYPE_FLOAT32)
			reduce_fold_float(data, in, out);
		else if (data->type == OPVER_TYPE_BOOL)
			reduce_fold_bool(data, in, out);
		else
			reduce_fold_integer(data, in, out);
		break;
	case REDUCE_MEAN_FLOAT:
		reduce_mean_float(data, in, out, (float *)acc);
		break;
	case REDUCE_PROD_QUANTIZED:
		ref_reduce_prod_quantized(data, in, acc, out);
		break;
	default:
		if (data->plan.inputs == 0) {
			/* TFLite's empty MEAN is NaN as an integer, 0; so
			 * is its empty rescaled SUM. */
			memset(out, 0, node->outputs[0]->bytes);
			break;
		}
		/* Only TFLite's 4-D integer mean subtracts the zero point
		 * before summing. */
		reduce_sums(data, in,
			    data->method == REDUCE_MEAN_SPATIAL
				    ? data->input_zero_point
				    : 0,
			    acc);
		ref_reduce_finish(data, acc, out);
		break;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* The input and output of `type`, with an int32 axis tensor. */
#define REDUCE_SIGNATURE(type)                                         \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(type), OPVER_T(INT32)),    \
			OPVER_OUTPUT(OPVER_T(type)))
#define REDUCE_COMMON_SIGNATURES                                       \
	REDUCE_SIGNATURE(FLOAT32), REDUCE_SIGNATURE(INT32),              \
		REDUCE_SIGNATURE(INT64), REDUCE_SIGNATURE(INT8),         \
		REDUCE_SIGNATURE(INT16)

#define REDUCE_KERNEL(name, op, max_version, ...)                         \
	OPVER_KERNEL(name, op, 1, max_version),                           \
	REF_SIGNATURES(__VA_ARGS__), REF_KERNEL_TRAITS,                   \
	.op_data_size = sizeof(reduce_data), .prepare = reduce_prepare,   \
	.invoke = reduce_invoke

const opver_kernel ref_mean = {
	REDUCE_KERNEL("mean", MEAN, 3, REDUCE_COMMON_SIGNATURES,
		      REDUCE_SIGNATURE(UINT8)),
};

const opver_kernel ref_sum = {
	REDUCE_KERNEL("sum", SUM, 2, REDUCE_COMMON_SIGNATURES,
		      REDUCE_SIGNATURE(UINT8)),
};

const opver_kernel ref_reduce_max = {
	REDUCE_KERNEL("reduce_max", REDUCE_MAX, 3, REDUCE_COMMON_SIGNATURES,
		      REDUCE_SIGNATURE(UINT8)),
};

const opver_kernel ref_reduce_min = {
	REDUCE_KERNEL("reduce_min", REDUCE_MIN, 3, REDUCE_COMMON_SIGNATURES,
		      REDUCE_SIGNATURE(UINT8)),
};

const opver_kernel ref_reduce_any = {
	REDUCE_KERNEL("reduce_any", REDUCE_ANY, 1, REDUCE_SIGNATURE(BOOL)),
};

const opver_kernel ref_reduce_all = {
	REDUCE_KERNEL("reduce_all", REDUCE_ALL, 1, REDUCE_SIGNATURE(BOOL)),
};

/* Quantized uint8 products are not TFLite's. */
const opver_kernel ref_reduce_prod = {
	REDUCE_KERNEL("reduce_prod", REDUCE_PROD, 2,
		      REDUCE_COMMON_SIGNATURES),
};
