/*
 * arg_min_max.c - ARG_MAX and ARG_MIN: the index of the largest (smallest)
 * element along one dimension, as TensorFlow Lite's reference kernel finds
 * it.  The input is float32, uint8, int8, int32 or bool (compared as
 * stored: quantized values order as their reals do); the axis a
 * one-element int32 or int64 tensor, negative counting from the end; the
 * output int32 or int64 as the output_type option says, of the input's
 * shape without that dimension.  A constant axis is read in prepare; one
 * that comes at run time in invoke, where an axis that does not give the
 * output's shape (which the model fixes; prepare checks that some axis
 * gives it) fails the run.
 *
 * Ties go to the first index: a later element replaces the best so far
 * only when strictly greater (smaller).  A NaN never replaces one, so a
 * NaN is chosen only at index 0.  An empty axis gives index 0.
 *
 * Version ranges (TFLite's op_version rules): 1 float32, uint8, int32; 2
 * int8; 3 bool.  A version adds only input types, so both kernels cover
 * 1..3.
 */
#include <string.h>

#include "kernels.h"
#include "node_checks.h"

enum { ARG_INPUT = 0, ARG_AXIS = 1 };

/* The most dimensions an input may have. */
#define ARG_MAX_DIMS 8

typedef struct arg_data {
	/* The input as [outer, axis, inner]. */
	size_t outer;
	size_t axis;
	size_t inner;
	bool deferred; /* the axis known only at invoke */
} arg_data;

/* Reads the axis, an int32 or int64 tensor of one element (checked in
 * prepare) with its data, and checks it names a dimension of an input of
 * `rank`. */
static opver_status arg_read_axis(const opver_context *ctx,
				  const opver_tensor *axis, int32_t rank,
				  int32_t *value)
{
	const int64_t a = axis->type == OPVER_TYPE_INT32
				  ? *(const int32_t *)axis->data
				  : *(const int64_t *)axis->data;

	if (a < -rank || a >= rank) {
		OPVER_REPORT(ctx,
			     "axis '%s' names dimension %lld; the input has rank %d",
			     axis->name, (long long)a, (int)rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*value = (int32_t)(a < 0 ? a + rank : a);
	return OPVER_OK;
}

/* The input as [outer, axis, inner] along `axis` into data, and the
 * output's shape, the input's without `axis` (rank - 1 entries). */
static void arg_layout(const opver_tensor *input, int32_t axis,
		       arg_data *data, int32_t *shape)
{
	int32_t rank = 0;

	data->outer = 1;
	data->axis = (size_t)input->dims[axis];
	data->inner = 1;
	for (int32_t d = 0; d < input->rank; d++) {
		if (d == axis)
			continue;
		shape[rank++] = input->dims[d];
		if (d < axis)
			data->outer *= (size_t)input->dims[d];
		else
			data->inner *= (size_t)input->dims[d];
	}
}

/* Gives the output the shape `axis` gives (in prepare; at invoke, for a
 * run-time axis, checks it), and lays data out along it. */
static opver_status arg_plan(const opver_context *ctx, const opver_node *node,
			     int32_t axis, bool in_prepare, arg_data *data)
{
	static const char source[] = "dropping the axis from the input gives";
	const int32_t rank = node->inputs[ARG_INPUT]->rank - 1;
	int32_t want[ARG_MAX_DIMS];

	arg_layout(node->inputs[ARG_INPUT], axis, data, want);
	if (!in_prepare)
		return ref_expect_shape(ctx, node->outputs[0], want, rank,
					source);
	return ref_shape_output(ctx, node, 0, want, rank, source);
}

/* Whether some axis of `input` gives the shape of `output`. */
static bool arg_some_axis_fits(const opver_tensor *input,
			       const opver_tensor *output)
{
	int32_t shape[ARG_MAX_DIMS];
	arg_data unused;

	if (output->rank != input->rank - 1)
		return false;
	for (int32_t axis = 0; axis < input->rank; axis++) {
		arg_layout(input, axis, &unused, shape);
		if (output->rank == 0 ||
		    memcmp(shape, output->dims,
			   (size_t)output->rank * sizeof(*shape)) == 0)
			return true;
	}
	return false;
}

static opver_status arg_prepare(const opver_context *ctx, opver_node *node)
{
	arg_data *data = node->op_data;
	opver_arg_min_max_params params = OPVER_ARG_MIN_MAX_PARAMS_DEFAULTS;
	const opver_tensor *input, *output, *axis;
	int32_t value;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "ARG_MAX and ARG_MIN take an input, an axis tensor and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[ARG_INPUT];
	output = node->outputs[0];
	opver_read_params(node, &params, sizeof(params));
	if (params.output_type != output->type) {
		OPVER_REPORT(ctx,
			     "output '%s' has type %s; output_type says %s",
			     output->name, ctx->host->type_name(output->type),
			     ctx->host->type_name(params.output_type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (input->rank < 1 || input->rank > ARG_MAX_DIMS) {
		OPVER_REPORT(ctx,
			     "input '%s' has rank %d; ARG_MAX and ARG_MIN take rank 1 to %d",
			     input->name, (int)input->rank,
			     ARG_MAX_DIMS);
		return input->rank < 1 ? OPVER_ERROR_INVALID_MODEL
				       : OPVER_ERROR_UNSUPPORTED;
	}
	axis = node->inputs[ARG_AXIS];
	status = ref_expect_type_in(ctx, "axis", axis,
				    OPVER_T(INT32) | OPVER_T(INT64));
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(axis) != 1) {
		OPVER_REPORT(ctx, "axis '%s' has %zu elements; it must have 1",
			     axis->name, opver_tensor_elements(axis));
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->deferred = !axis->is_constant;
	if (data->deferred) {
		if (arg_some_axis_fits(input, output))
			return OPVER_OK;
		OPVER_REPORT(ctx,
			     "output '%s' has rank %d; no axis dropped from input '%s' (rank %d) gives its shape",
			     output->name, (int)output->rank, input->name,
			     (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = arg_read_axis(ctx, axis, input->rank, &value);
	if (status != OPVER_OK)
		return status;
	return arg_plan(ctx, node, value, true, data);
}

/* The index along the axis of the best element of each [outer, inner]
 * line, by `better` (strict), into out as `index_type`. */
#define ARG_SCAN(T, index_type, better)                                  \
	do {                                                             \
		const T *x = in;                                         \
		index_type *o = out;                                     \
		for (size_t i = 0; i < d->outer; i++)                    \
			for (size_t k = 0; k < d->inner; k++) {          \
				const T *line = x + i * d->axis * d->inner + k; \
				T best = d->axis > 0 ? line[0] : (T)0;   \
				index_type at = 0;                       \
				for (size_t j = 1; j < d->axis; j++)     \
					if (better(line[j * d->inner], best)) { \
						best = line[j * d->inner]; \
						at = (index_type)j;      \
					}                                \
				o[i * d->inner + k] = at;                \
			}                                                \
	} while (0)

#define ARG_GREATER(a, b) ((a) > (b))
#define ARG_LESS(a, b) ((a) < (b))

/* One scan per input type, for an index type and a comparison. */
#define ARG_SCAN_TYPES(index_type, better)                              \
	do {                                                            \
		switch (type) {                                         \
		case OPVER_TYPE_FLOAT32:                                \
			ARG_SCAN(float, index_type, better);            \
			break;                                          \
		case OPVER_TYPE_INT8:                                   \
			ARG_SCAN(int8_t, index_type, better);           \
			break;                                          \
		case OPVER_TYPE_INT32:                                  \
			ARG_SCAN(int32_t, index_type, better);          \
			break;                                          \
		default: /* UINT8 and BOOL, one byte, unsigned */       \
			ARG_SCAN(uint8_t, index_type, better);          \
			break;                                          \
		}                                                       \
	} while (0)

static void arg_scan(const arg_data *d, int32_t type, int32_t index_type,
		     bool is_max, const void *in, void *out)
{
	if (index_type == OPVER_TYPE_INT32 && is_max)
		ARG_SCAN_TYPES(int32_t, ARG_GREATER);
	else if (index_type == OPVER_TYPE_INT32)
		ARG_SCAN_TYPES(int32_t, ARG_LESS);
	else if (is_max)
		ARG_SCAN_TYPES(int64_t, ARG_GREATER);
	else
		ARG_SCAN_TYPES(int64_t, ARG_LESS);
}

static opver_status arg_invoke(const opver_context *ctx, opver_node *node)
{
	arg_data *data = node->op_data;

	if (data->deferred) {
		int32_t axis;
		opver_status status;

		status = arg_read_axis(ctx, node->inputs[ARG_AXIS],
				       node->inputs[ARG_INPUT]->rank, &axis);
		if (status == OPVER_OK)
			status = arg_plan(ctx, node, axis, false, data);
		if (status != OPVER_OK)
			return status;
	}
	arg_scan(data, node->inputs[ARG_INPUT]->type,
		 node->outputs[0]->type, node->op == OPVER_OP_ARG_MAX,
		 node->inputs[ARG_INPUT]->data, node->outputs[0]->data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* `type` in, an int32 or int64 axis, an int32 or int64 index out. */
#define ARG_SIGNATURE(type)                                             \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(type),                      \
				     OPVER_T(INT32) | OPVER_T(INT64)),   \
			OPVER_OUTPUT(OPVER_T(INT32) | OPVER_T(INT64)))
#define ARG_SIGNATURES                                                  \
	REF_SIGNATURES(ARG_SIGNATURE(FLOAT32), ARG_SIGNATURE(UINT8),     \
		       ARG_SIGNATURE(INT8), ARG_SIGNATURE(INT32),        \
		       ARG_SIGNATURE(BOOL))

const opver_kernel ref_arg_max = {
	OPVER_KERNEL("arg_max", ARG_MAX, 1, 3),
	ARG_SIGNATURES,
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(arg_data),
	.prepare = arg_prepare, .invoke = arg_invoke,
};

const opver_kernel ref_arg_min = {
	OPVER_KERNEL("arg_min", ARG_MIN, 1, 3),
	ARG_SIGNATURES,
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(arg_data),
	.prepare = arg_prepare, .invoke = arg_invoke,
};
