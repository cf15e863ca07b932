/*
 * activation_lut.c - LOGISTIC, TANH, ELU and GELU: the activations that
 * TensorFlow Lite's builtin kernels compute per element in float32 and,
 * on int8 and uint8, through a 256-entry lookup table built at prepare
 * from the same float function (lut.h).
 *
 *   LOGISTIC  1 / (1 + exp(-x)); int8 and uint8 outputs at scale 1/256,
 *             which TFLite requires
 *   TANH      tanh(x)
 *   ELU       x below 0: exp(x) - 1; else x.  int8 only, as TFLite
 *   GELU      0.5 x (1 + erf(x / sqrt 2)), or with approximate
 *             0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
 *
 * TFLite's reference kernels differ from these (its builtin, optimized
 * ones, which the oracle runs) only for int8 and uint8 LOGISTIC and TANH,
 * where the reference resolver computes in gemmlowp fixed point instead
 * of a table: results can differ by a step.  The table is what TFLite
 * runs by default, so it is what this plugin computes.
 *
 * Versions (TFLite's op_version rules): LOGISTIC and TANH 2 for int8, 3
 * for int16 (not computed here); GELU 2 for int8 and uint8; ELU 1.  A
 * version adds only a tensor type; each kernel covers the versions of the
 * types it computes.
 */
#include <math.h>

#include "activation.h"
#include "kernels.h"
#include "lut.h"
#include "quantization.h"

typedef struct float32_data {
	ref_lut_transform f;
	opver_gelu_params params;
	size_t count;
} float32_data;

typedef struct lut8_data {
	ref_lut8 lut;
	size_t count;
} lut8_data;

/* TFLite's functions, in float as it computes them. */
static float logistic(float x, const void *params)
{
	(void)params;
	return 1.0f / (1.0f + expf(-x));
}

static float hyperbolic_tangent(float x, const void *params)
{
	(void)params;
	return tanhf(x);
}

static float elu(float x, const void *params)
{
	(void)params;
	return x < 0.0f ? expf(x) - 1.0f : x;
}

static float gelu(float x, const void *params)
{
	const opver_gelu_params *p = params;
	/* sqrt(2 / pi) and sqrt(1 / 2) as float constants, as TFLite. */
	const float sqrt_2_over_pi = (float)(M_2_SQRTPI * M_SQRT1_2);

	if (p->approximate)
		return 0.5f * x *
		       (1.0f + tanhf(sqrt_2_over_pi *
				     (x + 0.044715f * x * x * x)));
	return 0.5f * x * (1.0f + erff(x * (float)M_SQRT1_2));
}

static ref_lut_transform transform_of(int32_t op)
{
	switch (op) {
	case OPVER_OP_LOGISTIC:
		return logistic;
	case OPVER_OP_TANH:
		return hyperbolic_tangent;
	case OPVER_OP_ELU:
		return elu;
	default: /* GELU */
		return gelu;
	}
}

/* GELU's parameters; the defaults for the other ops, which have none. */
static opver_gelu_params params_of(const opver_node *node)
{
	opver_gelu_params params = OPVER_GELU_PARAMS_DEFAULTS;

	if (node->op == OPVER_OP_GELU)
		opver_read_params(node, &params, sizeof(params));
	return params;
}

static opver_status float32_prepare(const opver_context *ctx,
				    opver_node *node);
static opver_status lut8_prepare(const opver_context *ctx, opver_node *node);

static opver_status float32_invoke(const opver_context *ctx, opver_node *node)
{
	const float32_data *data = node->op_data;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		output[i] = data->f(input[i], &data->params);
	return OPVER_OK;
}

static opver_status lut8_invoke(const opver_context *ctx, opver_node *node)
{
	const lut8_data *data = node->op_data;

	(void)ctx;
	ref_lut8_apply(&data->lut, node->inputs[0]->data,
		       node->outputs[0]->data, data->count);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define LUT_SIGNATURE(types) \
	OPVER_SIGNATURE(OPVER_INPUTS(types), OPVER_OUTPUT(types))

#define FLOAT32_KERNEL(prefix, name, op, max)                                 \
	const opver_kernel ref_##prefix##_float32 = {                         \
		OPVER_KERNEL(name "_float32", op, 1, max),                    \
		REF_SIGNATURES(LUT_SIGNATURE(OPVER_T(FLOAT32))),              \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(float32_data),                         \
		.prepare = float32_prepare, .invoke = float32_invoke,         \
	}
#define LUT8_KERNEL(prefix, name, op, min, max, types)                        \
	const opver_kernel ref_##prefix##_lut8 = {                            \
		OPVER_KERNEL(name "_lut8", op, min, max),                     \
		REF_SIGNATURES(LUT_SIGNATURE(types)),                         \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(lut8_data),                            \
		.prepare = lut8_prepare, .invoke = lut8_invoke,               \
	}

/* Float32 and uint8 are version 1 and int8 version 2; a kernel for both
 * 8-bit types covers 1-2, and the resolver's types pick the kernel. */
FLOAT32_KERNEL(logistic, "logistic", LOGISTIC, 3);
LUT8_KERNEL(logistic, "logistic", LOGISTIC, 1, 3,
	    OPVER_T(INT8) | OPVER_T(UINT8));
FLOAT32_KERNEL(tanh, "tanh", TANH, 3);
LUT8_KERNEL(tanh, "tanh", TANH, 1, 3, OPVER_T(INT8) | OPVER_T(UINT8));
FLOAT32_KERNEL(elu, "elu", ELU, 1);
LUT8_KERNEL(elu, "elu", ELU, 1, 1, OPVER_T(INT8));
FLOAT32_KERNEL(gelu, "gelu", GELU, 2);
LUT8_KERNEL(gelu, "gelu", GELU, 1, 2, OPVER_T(INT8) | OPVER_T(UINT8));

static const opver_kernel *lut8_kernel(int32_t op)
{
	switch (op) {
	case OPVER_OP_LOGISTIC:
		return &ref_logistic_lut8;
	case OPVER_OP_TANH:
		return &ref_tanh_lut8;
	case OPVER_OP_ELU:
		return &ref_elu_lut8;
	default:
		return &ref_gelu_lut8;
	}
}

/* -------------------------------------------------------------- prepare */

static opver_status float32_prepare(const opver_context *ctx,
				    opver_node *node)
{
	float32_data *data = node->op_data;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_logistic_float32, NULL);
	if (status != OPVER_OK)
		return status;
	data->f = transform_of(node->op);
	data->params = params_of(node);
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}

static opver_status lut8_prepare(const opver_context *ctx, opver_node *node)
{
	lut8_data *data = node->op_data;
	const opver_gelu_params params = params_of(node);
	ref_activation_quant q;
	opver_status status;

	status = ref_activation_check(ctx, node, lut8_kernel(node->op), &q);
	if (status != OPVER_OK)
		return status;
	/* TFLite's check, exact: the table's outputs are probabilities in
	 * steps of 1/256. */
	if (node->op == OPVER_OP_LOGISTIC &&
	    (double)q.output_scale != 1.0 / 256.0) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g; 8-bit LOGISTIC needs an output scale of exactly 1/256",
			     node->outputs[0]->name, (double)q.output_scale);
		return OPVER_ERROR_INVALID_MODEL;
	}
	ref_lut8_fill(&data->lut, node->inputs[0]->type, q.input_scale,
		      q.input_zero, q.output_scale, q.output_zero,
		      transform_of(node->op), &params);
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}
