/*
 * topk_v2.c - TOPK_V2: the k largest elements of each row (the input's last
 * axis) and their positions in the row, as TFLite's topk_v2.cc computes
 * them: sorted descending, equal values in the order of their positions
 * (the lower index first).  Inputs (input, k); outputs (values of the
 * input's type, INT32 indices), both of the input's shape with the last
 * dimension k.
 *
 * k must be a constant INT32 of one element: the outputs' shapes depend on
 * it, and opver's output shapes are fixed before the first invoke, so a k
 * the graph computes is refused at prepare.  k may be 0 and no more than the
 * row's length, as TFLite requires.
 *
 * Version range 1-3: int8 input is version 2, int16 input (or int16 k or
 * indices, which opver does not compute) version 3.
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { TOPK_INPUT = 0, TOPK_K = 1, TOPK_VALUES = 0, TOPK_INDICES = 1 };

typedef struct topk_data {
	size_t rows;
	size_t depth; /* the row's length */
	size_t k;
} topk_data;

/* Both outputs: the input's shape with the last dimension k. */
static opver_status topk_shape_outputs(const opver_context *ctx,
				       const opver_node *node, int32_t k)
{
	const opver_tensor *input = node->inputs[TOPK_INPUT];
	ref_dims shape = { 0 };
	opver_status status = OPVER_OK;

	ref_dims_append(&shape, input, 0, input->rank - 1);
	ref_dims_push(&shape, k);
	for (int32_t o = 0; o < 2 && status == OPVER_OK; o++)
		status = ref_shape_dims(ctx, node, o, &shape,
					"the input's rows of k give");
	return status;
}

static opver_status topk_prepare(const opver_context *ctx, opver_node *node)
{
	topk_data *data = node->op_data;
	const opver_tensor *input, *k_tensor;
	opver_status status;
	int32_t k;

	status = ref_check_arity(ctx, node, 2, 2, 2,
				 "TOPK_V2 takes input, k, and outputs values and indices");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[TOPK_INPUT];
	k_tensor = node->inputs[TOPK_K];
	status = ref_move_same_type(ctx, "values", node->outputs[TOPK_VALUES],
				    input);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "k", k_tensor, OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "indices",
					 node->outputs[TOPK_INDICES],
					 OPVER_TYPE_INT32);
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(k_tensor) != 1 || input->rank < 1) {
		OPVER_REPORT(ctx, "TOPK_V2 takes a k of one element (it has %zu) and an input of at least 1 dimension (it has %d)",
			     opver_tensor_elements(k_tensor), (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!k_tensor->is_constant) {
		OPVER_REPORT(ctx, "k '%s' is computed by the graph; TOPK_V2 needs a constant k, since the outputs' shapes depend on it",
			     k_tensor->name);
		return OPVER_ERROR_UNSUPPORTED;
	}
	k = *(const int32_t *)k_tensor->data;
	if (k < 0 || k > input->dims[input->rank - 1]) {
		OPVER_REPORT(ctx, "k is %d; TOPK_V2 takes 0 to the row's length %d",
			     (int)k, (int)input->dims[input->rank - 1]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = topk_shape_outputs(ctx, node, k);
	if (status != OPVER_OK)
		return status;
	data->depth = (size_t)input->dims[input->rank - 1];
	data->rows = data->depth == 0
			     ? 0
			     : opver_tensor_elements(input) / data->depth;
	data->k = (size_t)k;
	return OPVER_OK;
}

/*
 * One walk for every type: each row's elements in order, each inserted
 * into the k kept so far (held sorted in the outputs themselves) after
 * every kept value not below it, so that of equal values the earlier stays
 * first; a value below the k-th kept one is passed over.
 */
#define TOPK_DEFINE(name, type)                                              \
	static void name(const topk_data *d, const type *in, type *values,  \
			 int32_t *indices)                                   \
	{                                                                    \
		for (size_t r = 0; r < d->rows; r++) {                       \
			const type *row = in + r * d->depth;                 \
			type *val = values + r * d->k;                       \
			int32_t *idx = indices + r * d->k;                   \
			size_t kept = 0;                                     \
                                                                             \
			for (size_t i = 0; i < d->depth && d->k > 0; i++) {  \
				const type x = row[i];                       \
				size_t at = kept;                            \
                                                                             \
				while (at > 0 && !(val[at - 1] >= x))        \
					at--;                                \
				if (at == d->k)                              \
					continue;                            \
				if (kept < d->k)                             \
					kept++;                              \
				for (size_t j = kept - 1; j > at; j--) {     \
					val[j] = val[j - 1];                 \
					idx[j] = idx[j - 1];                 \
				}                                            \
				val[at] = x;                                 \
				idx[at] = (int32_t)i;                        \
			}                                                    \
		}                                                            \
	}

TOPK_DEFINE(topk_float32, float)
TOPK_DEFINE(topk_uint8, uint8_t)
TOPK_DEFINE(topk_int8, int8_t)
TOPK_DEFINE(topk_int16, int16_t)
TOPK_DEFINE(topk_int32, int32_t)
TOPK_DEFINE(topk_int64, int64_t)

static opver_status topk_invoke(const opver_context *ctx, opver_node *node)
{
	const topk_data *d = node->op_data;
	const void *in = node->inputs[TOPK_INPUT]->data;
	void *values = node->outputs[TOPK_VALUES]->data;
	int32_t *indices = node->outputs[TOPK_INDICES]->data;

	(void)ctx;
	if (d->k == 0) /* empty outputs, whose data may be NULL */
		return OPVER_OK;
	switch (node->inputs[TOPK_INPUT]->type) {
	case OPVER_TYPE_FLOAT32:
		topk_float32(d, in, values, indices);
		break;
	case OPVER_TYPE_UINT8:
		topk_uint8(d, in, values, indices);
		break;
	case OPVER_TYPE_INT8:
		topk_int8(d, in, values, indices);
		break;
	case OPVER_TYPE_INT16:
		topk_int16(d, in, values, indices);
		break;
	case OPVER_TYPE_INT32:
		topk_int32(d, in, values, indices);
		break;
	default: /* INT64: the signature admits no other type */
		topk_int64(d, in, values, indices);
		break;
	}
	return OPVER_OK;
}

#define TOPK_TYPES                                                    \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |          \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64))

const opver_kernel ref_topk_v2 = {
	OPVER_KERNEL("topk_v2", TOPK_V2, 1, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(TOPK_TYPES,
						    OPVER_T(INT32)),
				       OPVER_OUTPUT(TOPK_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(topk_data),
	.prepare = topk_prepare, .invoke = topk_invoke,
};
