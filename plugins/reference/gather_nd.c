/*
 * gather_nd.c - GATHER_ND: slices of params addressed by the last
 * dimension of indices, each row of it an index into params' leading
 * dimensions.  The output is indices[:-1] + params[indices[-1]:].  Only
 * data moves, so one kernel serves every type, by element size.
 *
 * As TFLite's reference kernel, a negative index, or a slice whose flat
 * offset (the indices times params' strides) ends past params, fails the
 * invoke; an index past its own dimension whose slice still lies inside
 * params reads that slice, as TFLite does.  Indices are INT16, INT32 or
 * INT64.
 *
 * Version range: 1-5.  Version 2 (string params) has no kernel here: no
 * STRING signature matches.
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { GATHER_ND_PARAMS = 0, GATHER_ND_INDICES = 1 };

/* TFLite's params types of fixed size but the 16-bit floats. */
#define GATHER_ND_TYPES                                                \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |           \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64) | OPVER_T(BOOL))

/* The most dimensions an index addresses. */
#define GATHER_ND_MAX_DEPTH 8

typedef struct gather_nd_data {
	int32_t depth;      /* indices.dims[-1]: dimensions each index names */
	size_t slices;      /* indices per invoke */
	size_t params_elements;
	size_t slice_elements;
	size_t element_bytes;
	size_t stride[GATHER_ND_MAX_DEPTH]; /* of params' leading dims */
} gather_nd_data;

/* The output is indices[:-1] + params[depth:]. */
static opver_status gather_nd_shape_output(const opver_context *ctx,
					   const opver_node *node,
					   int32_t depth)
{
	const opver_tensor *params = node->inputs[GATHER_ND_PARAMS];
	const opver_tensor *indices = node->inputs[GATHER_ND_INDICES];
	ref_dims shape = { 0 };

	ref_dims_append(&shape, indices, 0, indices->rank - 1);
	ref_dims_append(&shape, params, depth, params->rank);
	return ref_shape_dims(ctx, node, 0, &shape, "this GATHER_ND gives");
}

static opver_status gather_nd_prepare(const opver_context *ctx,
				      opver_node *node)
{
	gather_nd_data *data = node->op_data;
	const opver_tensor *params, *indices;
	opver_status status;
	size_t stride = 1;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "GATHER_ND takes params, indices and one output");
	if (status != OPVER_OK)
		return status;
	params = node->inputs[GATHER_ND_PARAMS];
	indices = node->inputs[GATHER_ND_INDICES];
	status = ref_expect_type_in(ctx, "params", params, GATHER_ND_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "indices", indices,
					    REF_INDEX_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", node->outputs[0],
					 params->type);
	if (status != OPVER_OK)
		return status;
	if (params->rank < 1 || indices->rank < 1) {
		OPVER_REPORT(ctx,
			     "params '%s' and indices '%s' must both have at least one dimension",
			     params->name, indices->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->depth = indices->dims[indices->rank - 1];
	if (data->depth < 0 || data->depth > params->rank ||
	    data->depth > GATHER_ND_MAX_DEPTH) {
		OPVER_REPORT(ctx,
			     "indices '%s' address %d dimensions; params '%s' has %d (at most %d are supported)",
			     indices->name, (int)data->depth, params->name,
			     (int)params->rank, GATHER_ND_MAX_DEPTH);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = gather_nd_shape_output(ctx, node, data->depth);
	if (status != OPVER_OK)
		return status;
	for (int32_t d = params->rank - 1; d >= 0; d--) {
		if (d < data->depth)
			data->stride[d] = stride;
		stride *= (size_t)params->dims[d];
	}
	data->params_elements = stride;
	data->slice_elements = 1;
	for (int32_t d = data->depth; d < params->rank; d++)
		data->slice_elements *= (size_t)params->dims[d];
	data->slices = 1;
	for (int32_t d = 0; d + 1 < indices->rank; d++)
		data->slices *= (size_t)indices->dims[d];
	data->element_bytes = ref_element_size(params->type);
	return OPVER_OK;
}

static opver_status gather_nd_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const gather_nd_data *d = node->op_data;
	const opver_tensor *indices = node->inputs[GATHER_ND_INDICES];
	const unsigned char *params = node->inputs[GATHER_ND_PARAMS]->data;
	unsigned char *out = node->outputs[0]->data;
	const size_t slice_bytes = d->slice_elements * d->element_bytes;

	/* As TFLite: empty params take only empty indices. */
	if (d->params_elements == 0 && opver_tensor_elements(indices) > 0) {
		OPVER_REPORT(ctx, "params are empty; indices '%s' are not",
			     indices->name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (size_t i = 0; i < d->slices; i++) {
		size_t from = 0;
		bool inside = true;

		for (int32_t j = 0; j < d->depth && inside; j++) {
			int64_t at = ref_integer_at(
				indices, i * (size_t)d->depth + (size_t)j);

			inside = at >= 0 &&
				 (uint64_t)at <= d->params_elements;
			if (inside)
				from += (size_t)at * d->stride[j];
			inside = inside && from <= d->params_elements;
		}
		if (!inside || from + d->slice_elements > d->params_elements) {
			OPVER_REPORT(ctx,
				     "index %zu of '%s' lies outside the params",
				     i, indices->name);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		memcpy(out + i * slice_bytes, params + from * d->element_bytes,
		       slice_bytes);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_gather_nd = {
	OPVER_KERNEL("gather_nd", GATHER_ND, 1, 5),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(GATHER_ND_TYPES, REF_INDEX_TYPES),
		OPVER_OUTPUT(GATHER_ND_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(gather_nd_data),
	.prepare = gather_nd_prepare, .invoke = gather_nd_invoke,
};
