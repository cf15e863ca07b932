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
 * int16 LOGISTIC and TANH are symmetric (zero points 0) with an output
 * scale of 2^-15 (exactly 1/32768 for LOGISTIC), and take one of TFLite's
 * two paths by the input scale, as its builtin kernel does:
 *   - 2^-12 (TANH also 2^-11, the input then doubled, saturating): the
 *     input is Q3.12 and gemmlowp's 16-bit fixed-point logistic or tanh
 *     computes the result (fixed_point.h);
 *   - any other scale: the input is rescaled to units of 1 / (3 * 4096)
 *     by an integer multiplier and a rounding right shift, and the result
 *     interpolated in TFLite's sigmoid table (lut.h).
 *
 * Versions (TFLite's op_version rules): LOGISTIC and TANH 2 for int8, 3
 * for int16; GELU 2 for int8 and uint8; ELU 1.  A version adds only a
 * tensor type, so each kernel covers every version of its op and its
 * signature picks the types.
 */
#include <math.h>

#include "activation.h"
#include "fixed_point.h"
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

/* int16: multiplier 0 for the fixed-point path, whose input is doubled
 * when left_shift is 1; else the table path's rescale of the input,
 * (q * multiplier + rounding) >> left_shift. */
typedef struct int16_data {
	int32_t multiplier;
	int left_shift;
	size_t count;
} int16_data;

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
static opver_status int16_prepare(const opver_context *ctx, opver_node *node);

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

/* The table path's input, in units of 1 / (3 * 4096). */
static int32_t int16_rescaled(const int16_data *data, int16_t q)
{
	const int32_t rounding =
		data->left_shift > 0 ? INT32_C(1) << (data->left_shift - 1) : 0;

	return (q * data->multiplier + rounding) >> data->left_shift;
}

static opver_status logistic_int16_invoke(const opver_context *ctx,
					  opver_node *node)
{
	const int16_data *data = node->op_data;
	const int16_t *input = node->inputs[0]->data;
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		output[i] = data->multiplier == 0
				    ? ref_logistic16(input[i])
				    : ref_logistic16_from_table(
					      int16_rescaled(data, input[i]));
	return OPVER_OK;
}

static opver_status tanh_int16_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const int16_data *data = node->op_data;
	const int16_t *input = node->inputs[0]->data;
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++) {
		if (data->multiplier != 0)
			output[i] = ref_tanh16_from_table(
				int16_rescaled(data, input[i]));
		else if (data->left_shift == 1)
			output[i] = ref_tanh16(
				ref_saturating_shift_left16(input[i], 1));
		else
			output[i] = ref_tanh16(input[i]);
	}
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

#define INT16_KERNEL(prefix, name, op)                                        \
	const opver_kernel ref_##prefix##_int16 = {                           \
		OPVER_KERNEL(name "_int16", op, 1, 3),                        \
		REF_SIGNATURES(LUT_SIGNATURE(OPVER_T(INT16))),                \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(int16_data),                           \
		.prepare = int16_prepare, .invoke = prefix##_int16_invoke,    \
	}

FLOAT32_KERNEL(logistic, "logistic", LOGISTIC, 3);
LUT8_KERNEL(logistic, "logistic", LOGISTIC, 1, 3,
	    OPVER_T(INT8) | OPVER_T(UINT8));
INT16_KERNEL(logistic, "logistic", LOGISTIC);
FLOAT32_KERNEL(tanh, "tanh", TANH, 3);
LUT8_KERNEL(tanh, "tanh", TANH, 1, 3, OPVER_T(INT8) | OPVER_T(UINT8));
INT16_KERNEL(tanh, "tanh", TANH);
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

/*
 * The rescale of TFLite's table path: scale * 3 * 4096 doubled until it
 * exceeds 32767 / 2 (or the shift passes 30), then truncated.  Above
 * 65535 (input scales above about 5.3), q * multiplier can overflow
 * int32, which TFLite leaves undefined; one truncated to 0 (scales below
 * about 4e-14) would send TFLite down its fixed-point path with a
 * meaningless shift.  Such scales are refused.
 */
static opver_status table_rescale(const opver_context *ctx,
				  const opver_node *node, const char *name,
				  float scale, int16_data *data)
{
	double multiplier = (double)scale * 4096.0 * 3.0;

	data->left_shift = 0;
	while (multiplier <= 32767.0 / 2.0 && data->left_shift <= 30) {
		data->left_shift++;
		multiplier *= 2.0;
	}
	if (multiplier > 65535.0 || multiplier < 1.0) {
		OPVER_REPORT(ctx,
			     "input '%s' has scale %g; int16 %s takes input scales from 2^-31 / 12288 to 65535 / 12288",
			     node->inputs[0]->name, (double)scale, name);
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->multiplier = (int32_t)multiplier;
	return OPVER_OK;
}

static opver_status int16_prepare(const opver_context *ctx, opver_node *node)
{
	const bool logistic = node->op == OPVER_OP_LOGISTIC;
	const char *name = logistic ? "LOGISTIC" : "TANH";
	int16_data *data = node->op_data;
	ref_activation_quant q;
	opver_status status;
	int input_log2, output_log2;
	bool power_of_two;

	status = ref_activation_check(
		ctx, node, logistic ? &ref_logistic_int16 : &ref_tanh_int16,
		&q);
	if (status != OPVER_OK)
		return status;
	if (q.input_zero != 0 || q.output_zero != 0) {
		OPVER_REPORT(ctx,
			     "int16 %s needs zero points of 0; input '%s' has %d, output '%s' %d",
			     name, node->inputs[0]->name, (int)q.input_zero,
			     node->outputs[0]->name, (int)q.output_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* TFLite's checks: LOGISTIC's output scale exactly 1/32768, TANH's
	 * a power of two within its tolerance that rounds to 2^-15. */
	if ((logistic && (double)q.output_scale != 1.0 / 32768.0) ||
	    !ref_checked_log2(q.output_scale, &output_log2) ||
	    output_log2 != -15) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g; int16 %s needs an output scale of 1/32768",
			     node->outputs[0]->name, (double)q.output_scale,
			     name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* Q3.12 input: the fixed-point path, which TANH also takes for a
	 * scale of 2^-11 by doubling the input. */
	power_of_two = ref_checked_log2(q.input_scale, &input_log2);
	data->multiplier = 0;
	data->left_shift = 12 + input_log2;
	if (!power_of_two || data->left_shift < 0 ||
	    data->left_shift > (logistic ? 0 : 1)) {
		status = table_rescale(ctx, node, name, q.input_scale, data);
		if (status != OPVER_OK)
			return status;
	}
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}
