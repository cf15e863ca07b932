/*
 * strided_slice.c - STRIDED_SLICE: every stride-th element from begin to
 * end along each dimension, for every element type of TFLite's kernel,
 * with every mask of TFLite's newest version.
 *
 * begin, end and strides are 1-D INT32 tensors of one length, one entry
 * per spec position.  As TFLite does, the spec is first made one entry per
 * dimension of an effective input: ellipsis_mask's entry stands for every
 * dimension the spec leaves out (at most one entry), new_axis_mask's
 * entries insert a dimension of size 1, and dimensions past the spec are
 * taken whole.  Then along each dimension, of size n and stride s (never
 * 0): begin, plus n when negative, is clamped to [0, n] (s > 0) or
 * [-1, n - 1] (s < 0), or taken from the start in the stride's direction
 * under begin_mask; end likewise, plus begin first under `offset`, or to
 * the far end under end_mask; shrink_axis_mask takes the one element at
 * begin (which must lie inside) and drops the dimension.  The output has
 * ceil((end - begin) / s) elements along each kept dimension, or none.
 * Mask bits past the spec's length are ignored.  With constant begin, end
 * and strides the output shape is checked in prepare; otherwise in
 * invoke, where a mismatch fails the run.
 *
 * Version range 1-8 (int8 2, bool 3, more than 4 dimensions 4, ellipsis
 * and new axes 6, uint32 7, offset 8); string, version 5, is not computed.
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { SS_INPUT = 0, SS_BEGIN = 1, SS_END = 2, SS_STRIDES = 3 };

/* The spec positions a mask word can name. */
#define SS_MAX_SPEC 32

typedef struct ss_data {
	ref_gather_plan plan;
	bool deferred; /* begin, end or strides known only at invoke */
} ss_data;

/* The spec, one entry per dimension of the effective input. */
typedef struct ss_spec {
	int32_t dims;
	int64_t begin[REF_MOVE_MAX_DIMS], end[REF_MOVE_MAX_DIMS];
	int64_t stride[REF_MOVE_MAX_DIMS];
	int32_t size[REF_MOVE_MAX_DIMS];  /* of the effective input */
	int32_t input_dim[REF_MOVE_MAX_DIMS]; /* -1: a new axis */
	uint32_t begin_mask, end_mask, shrink_mask;
} ss_spec;

static bool bit(uint32_t mask, int32_t i)
{
	return i < SS_MAX_SPEC && (mask >> i & 1) != 0;
}

/* TFLite's expansion of ellipsis and new axes into `spec`. */
static opver_status ss_expand(const opver_context *ctx,
			      const opver_strided_slice_params *p,
			      const opver_tensor *input, int32_t count,
			      const int64_t *begin, const int64_t *end,
			      const int64_t *stride, ss_spec *spec)
{
	const uint32_t used = count >= SS_MAX_SPEC ? UINT32_MAX
						   : (UINT32_C(1) << count) - 1;
	const uint32_t ellipsis = (uint32_t)p->ellipsis_mask & used;
	const uint32_t new_axis = (uint32_t)p->new_axis_mask & used;
	int32_t added = 0, dims, ellipsis_start, expanded = 0, named = 0;
	int32_t axes_so_far = 0, ellipsis_so_far = 0;
	uint32_t eff_ellipsis = 0, eff_new_axis = 0;

	if ((ellipsis & (ellipsis - 1)) != 0) {
		OPVER_REPORT(ctx, "ellipsis_mask 0x%x has more than one bit set; a slice has at most one ellipsis",
			     (unsigned)p->ellipsis_mask);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = 0; i < count; i++) {
		if (!bit(ellipsis, i) && bit(new_axis, i))
			added++;
		else if (!bit(ellipsis, i))
			named++;
	}
	dims = input->rank + added;
	if (named > input->rank || dims > REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx, "the slice names %d dimensions and adds %d to input '%s' of rank %d; it may name at most the rank, and reach at most %d",
			     (int)named, (int)added, input->name,
			     (int)input->rank, REF_MOVE_MAX_DIMS);
		return named > input->rank ? OPVER_ERROR_INVALID_MODEL
					   : OPVER_ERROR_UNSUPPORTED;
	}
	ellipsis_start = dims;
	for (int32_t i = 0; i < dims;) {
		if (bit(ellipsis, i)) {
			int32_t stop = i + 1 + added + input->rank - count;

			stop = stop > dims ? dims : stop;
			stop = stop < i + 1 ? i + 1 : stop;
			ellipsis_start = i;
			expanded = stop - i - 1;
			for (; i < stop; i++)
				eff_ellipsis |= UINT32_C(1) << i;
			continue;
		}
		if (bit(new_axis, i - expanded))
			eff_new_axis |= UINT32_C(1) << i;
		i++;
	}
	*spec = (ss_spec){ .dims = dims };
	for (int32_t i = 0; i < dims; i++) {
		const uint32_t me = UINT32_C(1) << i;

		spec->stride[i] = 1;
		spec->input_dim[i] = i - axes_so_far;
		if (eff_ellipsis & me) {
			ellipsis_so_far = i - ellipsis_start;
			spec->begin_mask |= me;
			spec->end_mask |= me;
		} else if (eff_new_axis & me) {
			spec->end[i] = 1;
			spec->input_dim[i] = -1;
			axes_so_far++;
		} else if (i >= count + expanded) {
			spec->begin_mask |= me;
			spec->end_mask |= me;
		} else {
			const int32_t at = i - ellipsis_so_far;

			spec->begin[i] = begin[at];
			spec->end[i] = end[at];
			spec->stride[i] = stride[at];
			spec->begin_mask |= bit((uint32_t)p->begin_mask, at) ? me : 0;
			spec->end_mask |= bit((uint32_t)p->end_mask, at) ? me : 0;
			spec->shrink_mask |=
				bit((uint32_t)p->shrink_axis_mask, at) ? me : 0;
		}
		spec->size[i] = spec->input_dim[i] < 0
					? 1
					: input->dims[spec->input_dim[i]];
	}
	return OPVER_OK;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Fills plan dimension i from the spec. */
static opver_status ss_dimension(const opver_context *ctx,
				 const ss_spec *spec, int32_t i, bool offset,
				 const ref_gather_plan *identity, ref_gather_dim *dim)
{
	const int64_t n = spec->size[i];
	const uint32_t me = UINT32_C(1) << i;
	int64_t s = spec->stride[i];
	int64_t start = spec->begin[i], stop = spec->end[i], count;

	if (s == 0) {
		OPVER_REPORT(ctx, "the stride of dimension %d is 0", (int)i);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (start < 0)
		start += n;
	start = s > 0 ? clamp(start, 0, n) : clamp(start, -1, n - 1);
	if (spec->begin_mask & me)
		start = s > 0 ? 0 : n - 1;
	if (spec->shrink_mask & me) {
		if (start < 0 || start >= n) {
			OPVER_REPORT(ctx, "dimension %d: shrink_axis_mask takes index %lld of %lld elements",
				     (int)i, (long long)spec->begin[i],
				     (long long)n);
			return OPVER_ERROR_INVALID_MODEL;
		}
		/* One element, whatever the stride's sign. */
		stop = start + 1;
		s = 1;
	} else {
		if (offset)
			stop += start;
		if (stop < 0)
			stop += n;
		stop = s > 0 ? clamp(stop, 0, n) : clamp(stop, -1, n - 1);
		if (spec->end_mask & me)
			stop = s > 0 ? n : -1;
	}
	count = s > 0 ? (stop - start + s - 1) / s : (start - stop - s - 1) / -s;
	if (count < 0)
		count = 0;
	*dim = (ref_gather_dim){
		.count = (int32_t)count,
		.start = (int32_t)start,
		.step = (int32_t)s,
		.size = (int32_t)n,
		.stride = spec->input_dim[i] < 0
				  ? 0
				  : identity->dims[spec->input_dim[i]].stride,
	};
	return OPVER_OK;
}

static opver_status ss_plan(const opver_context *ctx, const opver_node *node,
			    ss_data *data)
{
	const opver_tensor *input = node->inputs[SS_INPUT];
	opver_strided_slice_params params = OPVER_STRIDED_SLICE_PARAMS_DEFAULTS;
	const int32_t count = node->inputs[SS_BEGIN]->dims[0];
	int64_t begin[SS_MAX_SPEC], end[SS_MAX_SPEC], stride[SS_MAX_SPEC];
	int32_t kept[REF_MOVE_MAX_DIMS], rank = 0;
	ref_gather_plan identity;
	ss_spec spec;
	opver_status status;

	opver_read_params(node, &params, sizeof(params));
	status = ref_gather_identity(ctx, input, &identity);
	if (status != OPVER_OK)
		return status;
	ref_move_indices(node->inputs[SS_BEGIN], count, begin);
	ref_move_indices(node->inputs[SS_END], count, end);
	ref_move_indices(node->inputs[SS_STRIDES], count, stride);
	status = ss_expand(ctx, &params, input, count, begin, end, stride,
			   &spec);
	if (status != OPVER_OK)
		return status;
	data->plan = identity;
	data->plan.rank = spec.dims;
	for (int32_t i = 0; i < spec.dims; i++) {
		status = ss_dimension(ctx, &spec, i, params.offset != 0,
				      &identity, &data->plan.dims[i]);
		if (status != OPVER_OK)
			return status;
		if (!(spec.shrink_mask >> i & 1))
			kept[rank++] = data->plan.dims[i].count;
	}
	return ref_move_shape_output(ctx, node, 0, rank, kept,
				     "this STRIDED_SLICE gives", data->deferred);
}

static opver_status ss_prepare(const opver_context *ctx, opver_node *node)
{
	ss_data *data = node->op_data;
	const opver_tensor *input;
	size_t count;
	opver_status status;

	status = ref_check_arity(ctx, node, 4, 4, 1,
				 "STRIDED_SLICE takes input, begin, end, strides and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[SS_INPUT];
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "begin", node->inputs[SS_BEGIN],
					 1);
	if (status != OPVER_OK)
		return status;
	count = (size_t)node->inputs[SS_BEGIN]->dims[0];
	if (count > SS_MAX_SPEC) {
		OPVER_REPORT(ctx, "begin has %zu entries; masks name at most %d",
			     count, SS_MAX_SPEC);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = SS_BEGIN; i <= SS_STRIDES && status == OPVER_OK; i++)
		status = ref_expect_type(ctx, i == SS_BEGIN ? "begin"
					      : i == SS_END ? "end"
							    : "strides",
					 node->inputs[i], OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "end", node->inputs[SS_END],
					       count);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "strides",
					       node->inputs[SS_STRIDES], count);
	if (status != OPVER_OK)
		return status;
	data->deferred = !ref_move_all_constant(3, node->inputs + SS_BEGIN);
	if (data->deferred)
		return ref_defer_output(ctx, 0, NULL);
	return ss_plan(ctx, node, data);
}

static opver_status ss_invoke(const opver_context *ctx, opver_node *node)
{
	ss_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = ss_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	ref_gather_run(&data->plan, node->inputs[SS_INPUT]->data,
		       node->outputs[0]->data);
	return OPVER_OK;
}

#define SS_TYPES (REF_MOVE_TYPES | OPVER_T(UINT32))

const opver_kernel ref_strided_slice = {
	OPVER_KERNEL("strided_slice", STRIDED_SLICE, 1, 8),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(SS_TYPES, OPVER_T(INT32), OPVER_T(INT32),
			     OPVER_T(INT32)),
		OPVER_OUTPUT(SS_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ss_data),
	.prepare = ss_prepare, .invoke = ss_invoke,
};
