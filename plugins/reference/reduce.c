/*
 * reduce.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_PROD over the
 * dimensions an int32 axis tensor names (negative ones counting from the
 * end, repeats allowed), float32, int32, int64, uint8, int8 and int16, as
 * TensorFlow Lite's reference kernels compute them.  A constant axis is
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
 * An empty input gives each op's starting value: MEAN NaN or 0, SUM 0,
 * MAX the type's lowest, MIN its highest, PROD 1 (quantized PROD, which
 * TFLite leaves unwritten, 0).  int16 tensors must have zero points 0.
 *
 * Version ranges (TFLite's op_version rules): MEAN, REDUCE_MAX and
 * REDUCE_MIN 1 (float32, int32, int64, uint8), 2 (int8), 3 (int16); SUM 1,
 * 2 (int8; int16 stays 1); REDUCE_PROD 1, 2 (int8 and int16).  A version
 * adds only tensor types, so each kernel covers all of its op's versions.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "reduce.h"

enum { REDUCE_INPUT = 0, REDUCE_AXIS = 1 };

/* The most dimensions an input may have. */
#define REDUCE_MAX_DIMS 8

/*
 * The input as runs of dimensions that are all reduced or all kept (dims
 * of size 1 dropped), with the output offset each run's index moves.
 */
typedef struct reduce_plan {
	int32_t rank;
	int32_t dims[REDUCE_MAX_DIMS];
	uint8_t reduced[REDUCE_MAX_DIMS];
	size_t out_stride[REDUCE_MAX_DIMS]; /* 0 for a reduced run */
	size_t inputs;                      /* input elements */
	size_t outputs;                     /* output elements */
	size_t count;                       /* inputs per output */
} reduce_plan;

/* Where the walk is: the input element, its output element, the index in
 * each run, and how many reduced runs have a nonzero index (0 at the
 * first input of each output). */
typedef struct reduce_walk {
	size_t in;
	size_t out;
	int32_t index[REDUCE_MAX_DIMS];
	int32_t reduced_nonzero;
} reduce_walk;

/* Moves to the next input element; false after the last. */
static REF_ALWAYS_INLINE bool reduce_step(const reduce_plan *p,
					  reduce_walk *w)
{
	w->in++;
	for (int32_t d = p->rank - 1; d >= 0; d--) {
		if (++w->index[d] < p->dims[d]) {
			w->out += p->out_stride[d];
			w->reduced_nonzero += p->reduced[d] && w->index[d] == 1;
			return true;
		}
		w->out -= (size_t)(p->dims[d] - 1) * p->out_stride[d];
		w->reduced_nonzero -= p->reduced[d];
		w->index[d] = 0;
	}
	return false;
}

/* Visits every input element: `body` runs with `w` at it. */
#define REDUCE_WALK(plan, w, body)                               \
	do {                                                     \
		reduce_walk w = { 0 };                           \
		if ((plan)->inputs > 0)                          \
			do {                                     \
				body;                            \
			} while (reduce_step((plan), &w));       \
	} while (0)

/* How invoke computes, chosen in prepare. */
typedef enum reduce_method {
	REDUCE_FOLD,           /* MAX, MIN, SUM, PROD in the element type */
	REDUCE_MEAN_FLOAT,
	REDUCE_MEAN_INTEGER,   /* truncated integer mean */
	REDUCE_MEAN_RESCALED,  /* quantized mean, float rescale */
	REDUCE_MEAN_SPATIAL,   /* int8 4-D mean over axes 1 and 2 */
	REDUCE_MEAN_SPATIAL_LEGACY, /* uint8 (int8 in reference-tflite) */
	REDUCE_SUM_RESCALED,   /* 8-bit sum to another quantization */
	REDUCE_PROD_QUANTIZED,
} reduce_method;

typedef struct reduce_data {
	reduce_plan plan;
	/* 1 when the axis tensor is computed by the graph: invoke plans. */
	int32_t runtime_axis;
	int32_t op;
	int32_t type;
	int32_t method; /* a reduce_method */
	int32_t input_zero_point;
	int32_t output_zero_point;
	float scale;    /* input scale / output scale, in float */
	int32_t bias;   /* REDUCE_MEAN_SPATIAL_LEGACY */
	int32_t multiplier;
	int shift;
	int32_t qmin, qmax;
	int32_t accumulators; /* scratch index, outputs x int64 */
} reduce_data;

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

/* "[2, 1, 3]", into buffer. */
static const char *reduce_shape_text(const int32_t *dims, int32_t rank,
				     char *buffer, size_t size)
{
	size_t used = (size_t)snprintf(buffer, size, "[");

	for (int32_t d = 0; d < rank && used < size; d++)
		used += (size_t)snprintf(buffer + used, size - used, "%s%d",
					 d > 0 ? ", " : "", (int)dims[d]);
	if (used < size)
		snprintf(buffer + used, size - used, "]");
	return buffer;
}

opver_status ref_expect_output_shape(const opver_context *ctx,
				     const opver_tensor *output,
				     const int32_t *want, int32_t rank,
				     const char *source)
{
	char have_text[96], want_text[96];

	if (output->rank == rank &&
	    (rank == 0 ||
	     memcmp(output->dims, want, (size_t)rank * sizeof(*want)) == 0))
		return OPVER_OK;
	OPVER_REPORT(ctx, "output '%s' has shape %s; %s gives %s",
		     output->name,
		     reduce_shape_text(output->dims, output->rank, have_text,
				       sizeof(have_text)),
		     source,
		     reduce_shape_text(want, rank, want_text,
				       sizeof(want_text)));
	return OPVER_ERROR_INVALID_MODEL;
}

/* Checks the output's shape against the input's with reduced dimensions
 * dropped, or kept as 1 with keep_dims. */
static opver_status reduce_check_output(const opver_context *ctx,
					const opver_tensor *input,
					const bool reduced[], bool keep_dims,
					const opver_tensor *output)
{
	int32_t want[REDUCE_MAX_DIMS], rank = 0;

	for (int32_t d = 0; d < input->rank; d++)
		if (!reduced[d])
			want[rank++] = input->dims[d];
		else if (keep_dims)
			want[rank++] = 1;
	return ref_expect_output_shape(ctx, output, want, rank,
				       keep_dims
					       ? "the reduction with keep_dims"
					       : "the reduction without keep_dims");
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

/* The per-tensor quantization of input and output, zero points 0 for
 * int16; with `same`, the output's must equal the input's. */
static opver_status reduce_quantization(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output, bool same,
					float *in_scale, float *out_scale,
					reduce_data *data)
{
	int32_t in_zero, out_zero;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, "input", input, in_scale,
					     &in_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output", output,
						     out_scale, &out_zero);
	if (status != OPVER_OK)
		return status;
	if (input->type == OPVER_TYPE_INT16 &&
	    (in_zero != 0 || out_zero != 0)) {
		OPVER_REPORT(ctx,
			     "int16 zero points are %d (input) and %d (output); both must be 0",
			     (int)in_zero, (int)out_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (same && (*in_scale != *out_scale || in_zero != out_zero)) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g and zero point %d; %s keeps the input's, %g and %d",
			     output->name, (double)*out_scale, (int)out_zero,
			     ctx->host->op_name(data->op), (double)*in_scale,
			     (int)in_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->input_zero_point = in_zero;
	data->output_zero_point = out_zero;
	ref_type_range(output->type, &data->qmin, &data->qmax);
	return OPVER_OK;
}

static bool is_quantized_type(int32_t type)
{
	return type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8 ||
	       type == OPVER_TYPE_INT16;
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
 * TFLite's builtin (desktop) int8 kernel takes the legacy uint8 formula on
 * the 4-D path too, which reference-tflite follows; its reference kernel
 * (and TFLite Micro) rescales, then divides.
 */
#ifdef REF_TFLITE_BUILTIN
#define REF_BUILTIN_MEAN true
#else
#define REF_BUILTIN_MEAN false
#endif

/* MEAN of quantized tensors: picks TFLite's path and its constants. */
static opver_status reduce_prepare_mean(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output,
					bool spatial, reduce_data *data)
{
	float in_scale, out_scale;
	opver_status status;

	status = reduce_quantization(ctx, input, output, false, &in_scale,
				     &out_scale, data);
	if (status != OPVER_OK)
		return status;
	data->scale = in_scale / out_scale;
	if (spatial && (input->type == OPVER_TYPE_UINT8 || REF_BUILTIN_MEAN)) {
		/* In float, as TFLite's legacy uint8 kernel. */
		const float count = (float)data->plan.count;
		float offset = (float)data->input_zero_point * in_scale /
			       out_scale;

		offset = offset > 0 ? offset + 0.5f : offset - 0.5f;
		data->bias = data->output_zero_point - (int32_t)offset;
		data->method = REDUCE_MEAN_SPATIAL_LEGACY;
		return ref_quantize_rescale(
			ctx, (double)(in_scale / (count * out_scale)),
			&data->multiplier, &data->shift,
			"input scale / (count x output scale)");
	}
	if (spatial) {
		data->method = REDUCE_MEAN_SPATIAL;
		return ref_quantize_rescale(
			ctx, (double)in_scale / (double)out_scale,
			&data->multiplier, &data->shift,
			"input scale / output scale");
	}
	data->method = in_scale == out_scale &&
				       data->input_zero_point ==
					       data->output_zero_point
			       ? REDUCE_MEAN_INTEGER
			       : REDUCE_MEAN_RESCALED;
	return OPVER_OK;
}

/* The largest shift TFLite's 64-bit rescale is defined for. */
#define REDUCE_MAX_WIDE_SHIFT 7

static opver_status reduce_prepare_prod(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output,
					reduce_data *data)
{
	float in_scale, out_scale;
	opver_status status;
	double scaling;

	status = reduce_quantization(ctx, input, output, false, &in_scale,
				     &out_scale, data);
	if (status != OPVER_OK)
		return status;
	data->method = REDUCE_PROD_QUANTIZED;
	if (data->plan.inputs == 0 || data->plan.outputs == 0)
		return OPVER_OK;
	/* Each of the count steps rescales by this, so the product of
	 * count terms is rescaled by in^count / out. */
	scaling = (double)in_scale /
		  pow((double)out_scale, 1.0 / (double)data->plan.count);
	status = ref_quantize_rescale(ctx, scaling, &data->multiplier,
				      &data->shift,
				      "input scale / output scale^(1/%zu)",
				      data->plan.count);
	if (status == OPVER_OK && data->shift > REDUCE_MAX_WIDE_SHIFT) {
		OPVER_REPORT(ctx,
			     "input scale / output scale^(1/%zu) is %g; TFLite's rescale of products needs it below 2^%d",
			     data->plan.count, scaling, REDUCE_MAX_WIDE_SHIFT);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

/* Picks the method of a quantized input, or of an integer input that
 * TFLite does not rescale. */
static opver_status reduce_prepare_integer(const opver_context *ctx,
					   const opver_node *node,
					   bool spatial, reduce_data *data)
{
	const opver_tensor *input = node->inputs[REDUCE_INPUT];
	const opver_tensor *output = node->outputs[0];
	float in_scale, out_scale;

	/* Without quantization TFLite's scales are 0 and equal: plain
	 * integer arithmetic. */
	if (!is_quantized_type(input->type) ||
	    (!ref_is_quantized(input) && !ref_is_quantized(output))) {
		data->method = data->op == OPVER_OP_MEAN ? REDUCE_MEAN_INTEGER
							 : REDUCE_FOLD;
		return OPVER_OK;
	}
	switch (data->op) {
	case OPVER_OP_MEAN:
		return reduce_prepare_mean(ctx, input, output, spatial, data);
	case OPVER_OP_REDUCE_PROD:
		if (input->type == OPVER_TYPE_UINT8) {
			OPVER_REPORT(ctx,
				     "REDUCE_PROD of uint8 tensors: TFLite multiplies only int8 and int16 ones");
			return OPVER_ERROR_UNSUPPORTED;
		}
		return reduce_prepare_prod(ctx, input, output, data);
	case OPVER_OP_SUM:
		/* TFLite rescales 8-bit sums only. */
		if (input->type != OPVER_TYPE_INT16) {
			opver_status status = reduce_quantization(
				ctx, input, output, false, &in_scale,
				&out_scale, data);

			if (status != OPVER_OK)
				return status;
			data->scale = in_scale / out_scale;
			data->method = REDUCE_SUM_RESCALED;
			if (in_scale == out_scale &&
			    data->input_zero_point == data->output_zero_point)
				data->method = REDUCE_FOLD;
			return OPVER_OK;
		}
		/* fall through */
	default:
		data->method = REDUCE_FOLD;
		return reduce_quantization(ctx, input, output, true, &in_scale,
					   &out_scale, data);
	}
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
	status = reduce_check_output(ctx, input, reduced, params.keep_dims != 0,
				     node->outputs[0]);
	if (status != OPVER_OK)
		return status;
	data->op = node->op;
	data->type = input->type;
	reduce_plan_fill(input, reduced, &data->plan);
	if (input->type == OPVER_TYPE_FLOAT32) {
		data->method = node->op == OPVER_OP_MEAN ? REDUCE_MEAN_FLOAT
							 : REDUCE_FOLD;
		return OPVER_OK;
	}
	return reduce_prepare_integer(
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

/* An element of an integer tensor, widened; and back, wrapping. */
static REF_ALWAYS_INLINE int64_t reduce_load(int32_t type, const void *data,
					     size_t i)
{
	switch (type) {
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)data)[i];
	case OPVER_TYPE_INT8:
		return ((const int8_t *)data)[i];
	case OPVER_TYPE_INT16:
		return ((const int16_t *)data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)data)[i];
	default:
		return ((const int64_t *)data)[i];
	}
}

static REF_ALWAYS_INLINE void reduce_store(int32_t type, void *data, size_t i,
					   int64_t value)
{
	switch (type) {
	case OPVER_TYPE_UINT8:
		((uint8_t *)data)[i] = (uint8_t)value;
		break;
	case OPVER_TYPE_INT8:
		((int8_t *)data)[i] = (int8_t)(uint8_t)value;
		break;
	case OPVER_TYPE_INT16:
		((int16_t *)data)[i] = (int16_t)(uint16_t)value;
		break;
	case OPVER_TYPE_INT32:
		((int32_t *)data)[i] = (int32_t)(uint32_t)value;
		break;
	default:
		((int64_t *)data)[i] = value;
		break;
	}
}

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

/* TFLite sums 8- and 16-bit inputs in int32: the low 32 bits. */
static int32_t reduce_sum32(int64_t sum)
{
	return (int32_t)(uint32_t)sum;
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

/* The quantized means and sums, from the sums in acc. */
static void reduce_finish(const reduce_data *data, int64_t *acc, void *out)
{
	const reduce_plan *p = &data->plan;
	const int64_t count = (int64_t)p->count;

	for (size_t i = 0; i < p->outputs; i++) {
		int64_t value = 0;

		switch (data->method) {
		case REDUCE_MEAN_INTEGER:
			/* int64 sums for int32 and int64, else int32. */
			value = data->type == OPVER_TYPE_INT32 ||
					data->type == OPVER_TYPE_INT64
					? acc[i] / count
					: reduce_sum32(acc[i]) /
						  (int32_t)count;
			break;
		case REDUCE_MEAN_RESCALED: {
			const float mean =
				(float)reduce_sum32(acc[i]) / (float)count;
			const float bias =
				(float)-data->input_zero_point * data->scale;
			float r = roundf(mean * data->scale + bias) +
				  (float)data->output_zero_point;

			r = r < (float)data->qmax ? r : (float)data->qmax;
			r = r > (float)data->qmin ? r : (float)data->qmin;
			value = (int64_t)r;
			break;
		}
		case REDUCE_SUM_RESCALED: {
			const float bias = (float)-data->input_zero_point *
					   data->scale * (float)count;

			value = (int64_t)(int32_t)roundf(
					(float)reduce_sum32(acc[i]) *
						data->scale +
					bias) +
				data->output_zero_point;
			break;
		}
		case REDUCE_MEAN_SPATIAL: {
			int32_t x = ref_multiply_by_quantized_multiplier(
				reduce_sum32(acc[i]), data->multiplier,
				data->shift);
			const int32_t n = (int32_t)count;

			x = x > 0 ? (x + n / 2) / n : (x - n / 2) / n;
			value = ref_clamp_int32(x + data->output_zero_point,
						data->qmin, data->qmax);
			break;
		}
		case REDUCE_MEAN_SPATIAL_LEGACY: {
			const int32_t x = ref_multiply_by_quantized_multiplier(
				reduce_sum32(acc[i]), data->multiplier,
				data->shift);

			value = ref_clamp_int32(x + data->bias, data->qmin,
						data->qmax);
			break;
		}
		default:
			break;
		}
		reduce_store(data->type, out, i, value);
	}
}

/* Quantized int8 and int16 REDUCE_PROD: each output's first term is
 * q - zero point, each further one multiplies in and rescales. */
static void reduce_prod_quantized(const reduce_data *data, const void *in,
				  int64_t *acc, void *out)
{
	const reduce_plan *p = &data->plan;
	const int32_t type = data->type, zero = data->input_zero_point;

	if (p->inputs == 0) {
		for (size_t i = 0; i < p->outputs; i++)
			reduce_store(type, out, i, 0);
		return;
	}
	REDUCE_WALK(p, w, {
		const int64_t term = reduce_load(type, in, w.in) - zero;

		acc[w.out] = w.reduced_nonzero == 0
				     ? term
				     : ref_multiply_by_quantized_multiplier_int64(
					       acc[w.out] * term,
					       data->multiplier, data->shift);
	});
	for (size_t i = 0; i < p->outputs; i++)
		reduce_store(type, out, i,
			     ref_clamp_int32(
				     ref_multiply_by_quantized_multiplier_int64(
					     acc[i], data->multiplier,
					     data->shift) +
					     data->output_zero_point,
				     data->qmin, data->qmax));
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
		else
			reduce_fold_integer(data, in, out);
		break;
	case REDUCE_MEAN_FLOAT:
		reduce_mean_float(data, in, out, (float *)acc);
		break;
	case REDUCE_PROD_QUANTIZED:
		reduce_prod_quantized(data, in, acc, out);
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
		reduce_finish(data, acc, out);
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

/* Quantized uint8 products are not TFLite's. */
const opver_kernel ref_reduce_prod = {
	REDUCE_KERNEL("reduce_prod", REDUCE_PROD, 2,
		      REDUCE_COMMON_SIGNATURES),
};
