/*
 * embedding_lookup.c - EMBEDDING_LOOKUP: output row i is row ids[i] of the
 * table `value`, as TFLite's embedding_lookup.cc computes it.  ids is a 1-D
 * INT32 tensor; value has at least 2 dimensions, its first the rows; the
 * output has value's shape with ids' length as its first dimension.  An id
 * outside [0, rows) fails the invoke, naming it, and nothing is read out of
 * bounds.
 *
 *   plain   value and output of one type (float32, int8, uint8): rows
 *           copied as stored
 *   hybrid  int8 or uint8 value, float32 output: each row dequantized with
 *           the value's scale, or with its own row's scale when value is
 *           quantized per row (one scale per row along dimension 0: the
 *           "per-channel" table of TFLite's version 4).  As in TFLite the
 *           quantization is symmetric (zero points must be 0) and the bytes
 *           are read as int8 whatever value's type, so a uint8 byte of 200
 *           is -56 steps: TFLite's EvalHybrid reads uint8 tables so.
 *
 * Version range 1-4: TFLite's rule gives 4 to a per-row quantized table
 * (and to int4 tables, packed two to a byte, which are not computed) and
 * 1 otherwise; versions 2 and 3 compute as 1.  Version 5 (int2 tables) has
 * no opver type.
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { LOOKUP_IDS = 0, LOOKUP_VALUE = 1 };

typedef struct lookup_data {
	size_t rows;      /* value.dims[0] */
	size_t row_elements;
	size_t row_bytes; /* of value */
	bool hybrid;
} lookup_data;

/* A hybrid table's quantization: symmetric, one scale or one per row. */
static opver_status lookup_check_scales(const opver_context *ctx,
					const opver_tensor *value)
{
	const opver_quantization *q = &value->quant;

	if (q->count == 0) {
		OPVER_REPORT(ctx, "value '%s' is %s without a scale; a float32 lookup of it needs one",
			     value->name, ctx->host->type_name(value->type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (q->count > 1 && (q->axis != 0 || q->count != value->dims[0])) {
		OPVER_REPORT(ctx, "value '%s' has %d scales along dimension %d; EMBEDDING_LOOKUP takes one, or one per row (%d along dimension 0)",
			     value->name, (int)q->count, (int)q->axis,
			     (int)value->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = 0; i < q->count; i++)
		if (q->zero_point[i] != 0) {
			OPVER_REPORT(ctx, "value '%s' has zero point %lld; TFLite dequantizes tables symmetrically (zero point 0)",
				     value->name, (long long)q->zero_point[i]);
			return OPVER_ERROR_INVALID_MODEL;
		}
	return OPVER_OK;
}

static opver_status lookup_prepare(const opver_context *ctx,
				   opver_node *node)
{
	lookup_data *data = node->op_data;
	const opver_tensor *ids, *value, *out;
	ref_dims shape = { 0 };
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "EMBEDDING_LOOKUP takes ids, value and one output");
	if (status != OPVER_OK)
		return status;
	ids = node->inputs[LOOKUP_IDS];
	value = node->inputs[LOOKUP_VALUE];
	out = node->outputs[0];
	status = ref_expect_type(ctx, "ids", ids, OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "ids", ids, 1);
	if (status != OPVER_OK)
		return status;
	if (value->rank < 2) {
		OPVER_REPORT(ctx, "value '%s' has %d dimension(s); EMBEDDING_LOOKUP takes at least 2",
			     value->name, (int)value->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->hybrid = out->type != value->type;
	if (data->hybrid) {
		status = ref_expect_type(ctx, "output", out,
					 OPVER_TYPE_FLOAT32);
		if (status == OPVER_OK)
			status = lookup_check_scales(ctx, value);
		if (status != OPVER_OK)
			return status;
	}
	/* value's shape with a row per id. */
	ref_dims_push(&shape, ids->dims[0]);
	ref_dims_append(&shape, value, 1, value->rank);
	status = ref_shape_dims(ctx, node, 0, &shape,
				"value's rows, one per id, give");
	if (status != OPVER_OK)
		return status;
	data->rows = (size_t)value->dims[0];
	data->row_elements = 1;
	for (int32_t d = 1; d < value->rank; d++)
		data->row_elements *= (size_t)value->dims[d];
	data->row_bytes = data->row_elements * ref_element_size(value->type);
	return OPVER_OK;
}

static opver_status lookup_invoke(const opver_context *ctx, opver_node *node)
{
	const lookup_data *data = node->op_data;
	const opver_tensor *ids = node->inputs[LOOKUP_IDS];
	const opver_tensor *value = node->inputs[LOOKUP_VALUE];
	const int32_t *id = ids->data;
	const unsigned char *table = value->data;
	unsigned char *out = node->outputs[0]->data;

	for (int32_t i = 0; i < ids->dims[0]; i++) {
		const int32_t row = id[i];

		if (row < 0 || (size_t)row >= data->rows) {
			OPVER_REPORT(ctx, "id %d (ids[%d]) is outside the table's rows 0 to %zu",
				     (int)row, (int)i, data->rows - 1);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		if (!data->hybrid) {
			memcpy(out + (size_t)i * data->row_bytes,
			       table + (size_t)row * data->row_bytes,
			       data->row_bytes);
			continue;
		}
		{
			const int8_t *q = (const int8_t *)(const void *)table +
					  (size_t)row * data->row_elements;
			const float scale = value->quant.scale[
				value->quant.count > 1 ? row : 0];
			float *f = (float *)(void *)out +
				   (size_t)i * data->row_elements;

			for (size_t j = 0; j < data->row_elements; j++)
				f[j] = (float)q[j] * scale;
		}
	}
	return OPVER_OK;
}

const opver_kernel ref_embedding_lookup = {
	OPVER_KERNEL("embedding_lookup", EMBEDDING_LOOKUP, 1, 4),
	REF_SIGNATURES(
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT32), OPVER_T(FLOAT32)),
				OPVER_OUTPUT(OPVER_T(FLOAT32))),
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT32),
					     OPVER_T(INT8) | OPVER_T(UINT8)),
				OPVER_OUTPUT(OPVER_T(FLOAT32))),
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT32), OPVER_T(INT8)),
				OPVER_OUTPUT(OPVER_T(INT8))),
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT32), OPVER_T(UINT8)),
				OPVER_OUTPUT(OPVER_T(UINT8)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(lookup_data),
	.prepare = lookup_prepare, .invoke = lookup_invoke,
};
