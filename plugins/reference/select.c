/*
 * select.c - SELECT and SELECT_V2: each output element is input 2's (x)
 * where the BOOL condition (input 1) is true, else input 3's (y), as
 * TensorFlow Lite's select.cc computes it.  Any nonzero condition byte is
 * true.  Values are copied as stored, so one kernel serves every type
 * TFLite's select takes (bool, float32, uint8, int8, int16, int32, int64,
 * uint32), by element size; quantized x and y are not rescaled, as in
 * TFLite.
 *
 *   SELECT     x and y of one shape, the output's; the condition of that
 *              shape too, or of rank 1 with x's first dimension, picking
 *              whole slices along it (TFLite's rank-one select).
 *   SELECT_V2  the three inputs broadcast together, up to 5 dimensions
 *              (TFLite's BroadcastSelect5DSlow); inputs of one shape may
 *              have up to 6.
 *
 * Both reduce to one walk: the output's dimensions, and for each input the
 * elements it moves by along each (0 where it repeats).  The rank-one
 * condition is the condition of shape [d0, 1, ..., 1].
 *
 * Version ranges (TFLite's op_version rules, which test input 0, the
 * condition, for int8 and uint32; see core/op_version.c): SELECT 1..4,
 * SELECT_V2 1..2, for every type.
 */
#include <stdio.h>
#include <string.h>

#include "broadcast.h"
#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

#define SELECT_MAX_RANK 6
/* TFLite's broadcasting select walks 5 dimensions at most. */
#define SELECT_MAX_BROADCAST_RANK 5

enum { SELECT_CONDITION, SELECT_X, SELECT_Y, SELECT_INPUTS };

typedef struct select_data {
	int32_t rank;
	size_t dims[SELECT_MAX_RANK];
	/* Elements input i moves by per step of output dimension d. */
	size_t stride[SELECT_INPUTS][SELECT_MAX_RANK];
	size_t element_size; /* of x, y and the output */
} select_data;

/* Sets input `i`'s strides over the output's dimensions, with its shape
 * `dims` (`rank` entries) right-aligned against them. */
static void select_strides(select_data *data, int i, int32_t rank,
			   const int32_t *dims)
{
	size_t step = 1;

	for (int32_t d = data->rank - 1; d >= 0; d--) {
		const int32_t k = d - (data->rank - rank);
		const size_t size = k >= 0 ? (size_t)dims[k] : 1;

		data->stride[i][d] = size == 1 ? 0 : step;
		step *= size;
	}
}

/* "[1, 5, 64]" of tensor t into buffer, for messages. */
static const char *select_shape_text(const opver_tensor *t, char *buffer,
				     size_t size)
{
	size_t used = (size_t)snprintf(buffer, size, "[");

	for (int32_t d = 0; d < t->rank && used < size; d++)
		used += (size_t)snprintf(buffer + used, size - used, "%s%d",
					 d > 0 ? ", " : "", (int)t->dims[d]);
	if (used < size)
		snprintf(buffer + used, size - used, "]");
	return buffer;
}

/* Whether the three inputs broadcast to exactly `out`'s shape. */
static bool select_broadcasts_to(opver_tensor *const *in,
				 const opver_tensor *out)
{
	for (int32_t d = 0; d < out->rank; d++) {
		int32_t want = 1;

		for (int i = 0; i < SELECT_INPUTS; i++) {
			const int32_t k = d - (out->rank - in[i]->rank);
			const int32_t size = k >= 0 ? in[i]->dims[k] : 1;

			if (size == 1)
				continue;
			if (want != 1 && size != want)
				return false;
			want = size;
		}
		if (out->dims[d] != want)
			return false;
	}
	for (int i = 0; i < SELECT_INPUTS; i++)
		if (in[i]->rank > out->rank)
			return false;
	return true;
}

/*
 * The checks both ops make: three inputs and one output, a BOOL
 * condition, x, y and the output of one type the signature takes, ranks
 * within SELECT_MAX_RANK and no negative dimension.
 */
static opver_status select_check(const opver_context *ctx,
				 const opver_node *node,
				 const opver_kernel *kernel)
{
	const char *op = ctx->host->op_name(kernel->op);
	const opver_tensor *x;
	char usage[96];
	opver_status status;

	snprintf(usage, sizeof(usage),
		 "%s takes a condition, two inputs and one output", op);
	status = ref_check_arity(ctx, node, 3, 3, 1, usage);
	if (status != OPVER_OK)
		return status;
	x = node->inputs[SELECT_X];
	status = ref_expect_type(ctx, "condition",
				 node->inputs[SELECT_CONDITION],
				 OPVER_TYPE_BOOL);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "input 2", x,
					    kernel->signatures[0].inputs[1]);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "input 3",
					 node->inputs[SELECT_Y], x->type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", node->outputs[0],
					 x->type);
	if (status != OPVER_OK)
		return status;
	for (int i = 0; i <= SELECT_INPUTS; i++) {
		const opver_tensor *t = i < SELECT_INPUTS ? node->inputs[i] :
							    node->outputs[0];

		if (t->rank > SELECT_MAX_RANK) {
			OPVER_REPORT(ctx,
				     "'%s' has rank %d; %s takes at most %d dimensions",
				     t->name, (int)t->rank, op,
				     SELECT_MAX_RANK);
			return OPVER_ERROR_UNSUPPORTED;
		}
		for (int32_t d = 0; d < t->rank; d++)
			if (t->dims[d] < 0) {
				OPVER_REPORT(ctx,
					     "'%s' has dimension %d of size %d",
					     t->name, (int)d, (int)t->dims[d]);
				return OPVER_ERROR_INVALID_MODEL;
			}
	}
	return OPVER_OK;
}

/* Fills the walk over the output, every input right-aligned against it;
 * the condition as `condition_rank` dims `condition_dims`. */
static void select_plan(select_data *data, const opver_node *node,
			int32_t condition_rank, const int32_t *condition_dims)
{
	const opver_tensor *out = node->outputs[0];

	data->rank = out->rank;
	for (int32_t d = 0; d < out->rank; d++)
		data->dims[d] = (size_t)out->dims[d];
	select_strides(data, SELECT_CONDITION, condition_rank,
		       condition_dims);
	for (int i = SELECT_X; i < SELECT_INPUTS; i++)
		select_strides(data, i, node->inputs[i]->rank,
			       node->inputs[i]->dims);
	data->element_size = ref_element_size(out->type);
}

static opver_status select_v1_prepare(const opver_context *ctx,
				      opver_node *node)
{
	const opver_tensor *condition, *x, *y, *out;
	int32_t rank_one[SELECT_MAX_RANK];
	char c[96], sx[96];
	opver_status status = select_check(ctx, node, &ref_select);

	if (status != OPVER_OK)
		return status;
	condition = node->inputs[SELECT_CONDITION];
	x = node->inputs[SELECT_X];
	y = node->inputs[SELECT_Y];
	status = ref_shape_like(ctx, node, 0, x);
	if (status != OPVER_OK)
		return status;
	out = node->outputs[0];
	if (!ref_same_shape(x, y) || !ref_same_shape(x, out)) {
		OPVER_REPORT(ctx,
			     "SELECT's inputs 2 and 3 and its output must have one shape");
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (ref_same_shape(condition, x)) {
		select_plan(node->op_data, node, condition->rank,
			    condition->dims);
		return OPVER_OK;
	}
	if (condition->rank != 1 || x->rank < 1 ||
	    condition->dims[0] != x->dims[0]) {
		OPVER_REPORT(ctx,
			     "SELECT's condition %s must have the shape of input 2 %s, or rank 1 and its first dimension",
			     select_shape_text(condition, c, sizeof(c)),
			     select_shape_text(x, sx, sizeof(sx)));
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* One condition per slice along dimension 0. */
	rank_one[0] = condition->dims[0];
	for (int32_t d = 1; d < x->rank; d++)
		rank_one[d] = 1;
	select_plan(node->op_data, node, x->rank, rank_one);
	return OPVER_OK;
}

static opver_status select_v2_prepare(const opver_context *ctx,
				      opver_node *node)
{
	opver_tensor *const *in = node->inputs;
	const opver_tensor *out = node->outputs[0];
	char c[96], sx[96], sy[96], so[96];
	opver_status status = select_check(ctx, node, &ref_select_v2);

	if (status == OPVER_OK)
		status = ref_broadcast_shape_output(
			ctx, (const opver_tensor *const *)in, SELECT_INPUTS);
	if (status != OPVER_OK)
		return status;
	if (!select_broadcasts_to(in, out)) {
		OPVER_REPORT(ctx,
			     "SELECT_V2's condition %s and inputs %s and %s do not broadcast to its output %s",
			     select_shape_text(in[SELECT_CONDITION], c,
					       sizeof(c)),
			     select_shape_text(in[SELECT_X], sx, sizeof(sx)),
			     select_shape_text(in[SELECT_Y], sy, sizeof(sy)),
			     select_shape_text(out, so, sizeof(so)));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (out->rank > SELECT_MAX_BROADCAST_RANK &&
	    !(ref_same_shape(in[SELECT_CONDITION], out) &&
	      ref_same_shape(in[SELECT_X], out) &&
	      ref_same_shape(in[SELECT_Y], out))) {
		OPVER_REPORT(ctx,
			     "SELECT_V2 broadcasts to %d dimensions; TFLite broadcasts it over %d at most",
			     (int)out->rank, SELECT_MAX_BROADCAST_RANK);
		return OPVER_ERROR_UNSUPPORTED;
	}
	select_plan(node->op_data, node, in[SELECT_CONDITION]->rank,
		    in[SELECT_CONDITION]->dims);
	return OPVER_OK;
}

/* Copies the innermost dimension's run of `n` output elements. */
static void select_run(const select_data *data, const uint8_t *condition,
		       const uint8_t *x, const uint8_t *y, uint8_t *out,
		       size_t n)
{
	const int32_t last = data->rank - 1;
	const size_t size = data->element_size;
	const size_t sc = data->stride[SELECT_CONDITION][last];
	const size_t sx = data->stride[SELECT_X][last] * size;
	const size_t sy = data->stride[SELECT_Y][last] * size;

	for (size_t i = 0; i < n; i++, out += size)
		memcpy(out, condition[i * sc] ? x + i * sx : y + i * sy, size);
}

static opver_status select_invoke(const opver_context *ctx,
				  opver_node *node)
{
	const select_data *data = node->op_data;
	const uint8_t *condition = node->inputs[SELECT_CONDITION]->data;
	const uint8_t *x = node->inputs[SELECT_X]->data;
	const uint8_t *y = node->inputs[SELECT_Y]->data;
	uint8_t *out = node->outputs[0]->data;
	const size_t total = opver_tensor_elements(node->outputs[0]);
	const size_t size = data->element_size;
	size_t index[SELECT_MAX_RANK] = { 0 }, offset[SELECT_INPUTS] = { 0 };
	size_t run = 1;

	(void)ctx;
	if (total == 0)
		return OPVER_OK;
	if (data->rank == 0) {
		memcpy(out, condition[0] ? x : y, size);
		return OPVER_OK;
	}
	run = data->dims[data->rank - 1];
	for (size_t done = 0; done < total; done += run) {
		select_run(data, condition + offset[SELECT_CONDITION],
			   x + offset[SELECT_X] * size,
			   y + offset[SELECT_Y] * size, out + done * size, run);
		/* The odometer over the outer dimensions. */
		for (int32_t d = data->rank - 2; d >= 0; d--) {
			for (int i = 0; i < SELECT_INPUTS; i++)
				offset[i] += data->stride[i][d];
			if (++index[d] < data->dims[d])
				break;
			for (int i = 0; i < SELECT_INPUTS; i++)
				offset[i] -= data->stride[i][d] * data->dims[d];
			index[d] = 0;
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define SELECT_TYPES                                                  \
	(OPVER_T(BOOL) | OPVER_T(FLOAT32) | OPVER_T(UINT8) |          \
	 OPVER_T(INT8) | OPVER_T(INT16) | OPVER_T(INT32) |            \
	 OPVER_T(INT64) | OPVER_T(UINT32))
#define SELECT_SIGNATURE                                                   \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(BOOL), SELECT_TYPES,          \
				     SELECT_TYPES),                        \
			OPVER_OUTPUT(SELECT_TYPES))

const opver_kernel ref_select = {
	OPVER_KERNEL("select", SELECT, 1, 4),
	REF_SIGNATURES(SELECT_SIGNATURE),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(select_data),
	.prepare = select_v1_prepare, .invoke = select_invoke,
};

const opver_kernel ref_select_v2 = {
	OPVER_KERNEL("select_v2", SELECT_V2, 1, 2),
	REF_SIGNATURES(SELECT_SIGNATURE),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(select_data),
	.prepare = select_v2_prepare, .invoke = select_invoke,
};
