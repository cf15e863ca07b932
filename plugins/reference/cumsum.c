/*
 * cumsum.c - CUMSUM: the running sums of the input along one axis, for
 * TFLite's three types, float32, int32 and int64.  `axis` is an INT32
 * tensor of one element (negative counts from the end); `exclusive` leaves
 * each element out of its own sum, `reverse` sums from the end of the axis.
 * As TFLite's CumSum, each sum adds one element after another to a running
 * total of the element type, so float sums round as TFLite's do; integer
 * sums wrap around (TFLite's overflow, without the undefined behaviour).
 * With a constant axis tensor the axis is checked in prepare; otherwise in
 * invoke.  The output has the input's shape.
 *
 * Version range 1 (TFLite has one version).
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { CUMSUM_INPUT = 0, CUMSUM_AXIS = 1 };

typedef struct cumsum_data {
	opver_cumsum_params params;
	/* The input as [outer, depth, inner], depth along the axis. */
	size_t outer, depth, inner;
	bool deferred; /* the axis known only at invoke */
} cumsum_data;

static opver_status cumsum_plan(const opver_context *ctx,
				const opver_node *node, cumsum_data *data)
{
	const opver_tensor *input = node->inputs[CUMSUM_INPUT];
	int32_t axis;
	opver_status status;

	status = ref_move_axis(ctx, "axis",
			       *(const int32_t *)node->inputs[CUMSUM_AXIS]->data,
			       input->rank, &axis);
	if (status != OPVER_OK)
		return status;
	data->outer = 1;
	data->inner = 1;
	for (int32_t d = 0; d < input->rank; d++) {
		if (d < axis)
			data->outer *= (size_t)input->dims[d];
		else if (d > axis)
			data->inner *= (size_t)input->dims[d];
	}
	data->depth = (size_t)input->dims[axis];
	return OPVER_OK;
}

static opver_status cumsum_prepare(const opver_context *ctx, opver_node *node)
{
	cumsum_data *data = node->op_data;
	opver_cumsum_params params = OPVER_CUMSUM_PARAMS_DEFAULTS;
	const opver_tensor *input, *axis;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "CUMSUM takes input, axis and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[CUMSUM_INPUT];
	axis = node->inputs[CUMSUM_AXIS];
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "axis", axis, OPVER_TYPE_INT32);
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(axis) != 1 || input->rank < 1) {
		OPVER_REPORT(ctx, "CUMSUM takes an axis of one element (it has %zu) and an input of at least 1 dimension (it has %d)",
			     opver_tensor_elements(axis), (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ref_shape_like(ctx, node, 0, input);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	data->params = params;
	data->deferred = !axis->is_constant;
	return data->deferred ? OPVER_OK : cumsum_plan(ctx, node, data);
}

/*
 * One walk for the three types: `type` the element, `acc` the type the
 * running total is kept in (unsigned for the integers, so that it wraps).
 */
#define CUMSUM_DEFINE(name, type, acc)                                       \
	static void name(const cumsum_data *d, const type *in, type *out)   \
	{                                                                    \
		const size_t step = d->inner;                                \
                                                                             \
		for (size_t o = 0; o < d->outer; o++)                        \
			for (size_t i = 0; i < d->inner; i++) {              \
				const size_t base = o * d->depth * d->inner + i; \
				acc total = 0;                               \
                                                                             \
				for (size_t k = 0; k < d->depth; k++) {      \
					const size_t at =                    \
						base +                       \
						(d->params.reverse           \
							 ? d->depth - 1 - k  \
							 : k) * step;        \
					const acc x = (acc)in[at];           \
                                                                             \
					if (!d->params.exclusive)            \
						total += x;                  \
					out[at] = (type)total;               \
					if (d->params.exclusive)             \
						total += x;                  \
				}                                            \
			}                                                    \
	}

CUMSUM_DEFINE(cumsum_float32, float, float)
CUMSUM_DEFINE(cumsum_int32, int32_t, uint32_t)
CUMSUM_DEFINE(cumsum_int64, int64_t, uint64_t)

static opver_status cumsum_invoke(const opver_context *ctx, opver_node *node)
{
	cumsum_data *data = node->op_data;
	const void *in = node->inputs[CUMSUM_INPUT]->data;
	void *out = node->outputs[0]->data;

	if (data->deferred) {
		opver_status status = cumsum_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	switch (node->inputs[CUMSUM_INPUT]->type) {
	case OPVER_TYPE_FLOAT32:
		cumsum_float32(data, in, out);
		break;
	case OPVER_TYPE_INT32:
		cumsum_int32(data, in, out);
		break;
	default: /* INT64: the signature admits no other type */
		cumsum_int64(data, in, out);
		break;
	}
	return OPVER_OK;
}

#define CUMSUM_TYPES (OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(INT64))

const opver_kernel ref_cumsum = {
	OPVER_KERNEL("cumsum", CUMSUM, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(CUMSUM_TYPES, OPVER_T(INT32)),
		OPVER_OUTPUT(CUMSUM_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(cumsum_data),
	.prepare = cumsum_prepare, .invoke = cumsum_invoke,
};
