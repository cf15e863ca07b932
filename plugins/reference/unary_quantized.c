/*
 * unary_quantized.c - the one-input math ops on quantized int8 and int16
 * tensors, as TensorFlow Lite's elementwise.cc and exp.cc compute them.
 * Both tensors are quantized per tensor; TFLite requires int16 zero
 * points of 0.
 *
 *   ABS    int8 and int16: |q - input zero point|, times input scale /
 *          output scale (MultiplyByQuantizedMultiplier, skipped when the
 *          scales are equal), plus the output zero point, clamped to the
 *          type.  An int16 tensor without quantization is plain |q|,
 *          -32768 wrapping to itself.  Versions 2 (int8), 3 (quantized
 *          int16), 4 (int16 without quantization).
 *   RSQRT  int8 (version 2): an input step s = q - zero point of 0 gives
 *          127; else 1 / sqrt(s) from TFLite's integer inverse square
 *          root, scaled by 2^20, then times 1 / (sqrt(input scale) x
 *          output scale), plus the output zero point, clamped.
 *   SQRT   int8 and int16 (version 2): sqrt of the dequantized input in
 *          float, divided by the output scale and truncated toward zero,
 *          plus the output zero point, clamped.
 *   EXP    int8 and int16 (version 2): a table of exp (lut.h), of 256
 *          entries for int8, of 513 interpolated ones for int16.
 *   LOG    int8 and int16 (version 2): a table of log, where inputs of 0
 *          or less give the output's lowest value.
 *   RSQRT  int16 (version 3): a 513-entry table of 1 / sqrt, whose
 *          samples at x <= 0 are the output's highest value.
 *
 * SQRT and RSQRT are undefined below the input's zero point, and TFLite
 * fails at invoke on such an input; so does this plugin, naming it.
 */
#include <math.h>

#include "activation.h"
#include "kernels.h"
#include "lut.h"
#include "quantization.h"

/* ABS, RSQRT and SQRT: the per-element rescale. */
typedef struct rescale_data {
	int32_t type;
	size_t count;
	bool quantized;     /* int16 ABS: false without quantization */
	bool needs_rescale; /* ABS: the scales differ */
	float input_scale;  /* SQRT */
	float output_scale; /* SQRT */
	int32_t input_zero;
	int32_t output_zero;
	int32_t multiplier;
	int shift;
	int32_t min, max;   /* the type's range */
} rescale_data;

typedef struct lut_data {
	int32_t type;
	size_t count;
	union {
		ref_lut8 lut8;                  /* int8 */
		int16_t lut16[REF_LUT16_SIZE]; /* int16 */
	} table;
} lut_data;

/* TFLite's RSQRT keeps 1 / sqrt(s) as an integer scaled by 2^20. */
#define RSQRT_SHIFT 20

/* ------------------------------------------------------------- invoke */

static int32_t abs_of(const rescale_data *d, int32_t q)
{
	const int32_t value = q < d->input_zero ? d->input_zero - q
						: q - d->input_zero;

	if (!d->quantized)
		return (int16_t)value;
	if (d->needs_rescale)
		return ref_clamp_int32(
			ref_multiply_by_quantized_multiplier(
				value, d->multiplier, d->shift) +
				d->output_zero,
			d->min, d->max);
	return ref_clamp_int32(value + d->output_zero, d->min, d->max);
}

static int32_t rsqrt_of(const rescale_data *d, int32_t q)
{
	const int32_t value = q - d->input_zero;
	int32_t inv_multiplier, scaled;
	int inv_shift;

	if (value == 0)
		return d->max;
	ref_inv_sqrt_multiplier(value, &inv_multiplier, &inv_shift);
	scaled = ref_multiply_by_quantized_multiplier(
		1, inv_multiplier, inv_shift + RSQRT_SHIFT);
	return ref_clamp_int32(ref_multiply_by_quantized_multiplier(
				       scaled, d->multiplier,
				       d->shift - RSQRT_SHIFT) +
				       d->output_zero,
			       d->min, d->max);
}

static int32_t sqrt_of(const rescale_data *d, int32_t q)
{
	const float real = d->input_scale * (float)(q - d->input_zero);
	/* Truncated toward zero as TFLite's cast; clamped first, so that
	 * the conversion stays defined. */
	const float steps = sqrtf(real) / d->output_scale;
	const float limit = (float)(d->max - d->output_zero) + 1.0f;

	return ref_clamp_int32((steps < limit ? (int32_t)steps
					      : (int32_t)limit) +
				       d->output_zero,
			       d->min, d->max);
}

/* Reports the first input below the zero point, where `name` is
 * undefined; OPVER_OK when there is none. */
static opver_status check_domain(const opver_context *ctx,
				 const opver_node *node,
				 const rescale_data *d, const char *name)
{
	const void *input = node->inputs[0]->data;

	for (size_t i = 0; i < d->count; i++) {
		const int32_t q = d->type == OPVER_TYPE_INT8
					  ? ((const int8_t *)input)[i]
					  : ((const int16_t *)input)[i];

		if (q >= d->input_zero)
			continue;
		OPVER_REPORT(ctx,
			     "input '%s' element %zu is %d, below the zero point %d: %s is only defined for values of 0 or more",
			     node->inputs[0]->name, i, (int)q,
			     (int)d->input_zero, name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Applies `f` to every element of an int8 or int16 tensor. */
static void map_rescaled(const rescale_data *d, opver_node *node,
			 int32_t (*f)(const rescale_data *, int32_t))
{
	const void *input = node->inputs[0]->data;
	void *output = node->outputs[0]->data;

	if (d->type == OPVER_TYPE_INT8) {
		for (size_t i = 0; i < d->count; i++)
			((int8_t *)output)[i] =
				(int8_t)f(d, ((const int8_t *)input)[i]);
	} else {
		for (size_t i = 0; i < d->count; i++)
			((int16_t *)output)[i] =
				(int16_t)f(d, ((const int16_t *)input)[i]);
	}
}

static opver_status abs_invoke(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	map_rescaled(node->op_data, node, abs_of);
	return OPVER_OK;
}

static opver_status rsqrt_invoke(const opver_context *ctx, opver_node *node)
{
	opver_status status = check_domain(ctx, node, node->op_data, "RSQRT");

	if (status == OPVER_OK)
		map_rescaled(node->op_data, node, rsqrt_of);
	return status;
}

static opver_status sqrt_invoke(const opver_context *ctx, opver_node *node)
{
	opver_status status = check_domain(ctx, node, node->op_data, "SQRT");

	if (status == OPVER_OK)
		map_rescaled(node->op_data, node, sqrt_of);
	return status;
}

static opver_status lut_invoke(const opver_context *ctx, opver_node *node)
{
	const lut_data *d = node->op_data;
	const int16_t *input = node->inputs[0]->data;
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	if (d->type == OPVER_TYPE_INT8) {
		ref_lut8_apply(&d->table.lut8, node->inputs[0]->data,
			       node->outputs[0]->data, d->count);
		return OPVER_OK;
	}
	for (size_t i = 0; i < d->count; i++)
		output[i] = ref_lut16_lookup(input[i], d->table.lut16);
	return OPVER_OK;
}

/* int16 RSQRT: TFLite's domain check, then the table. */
static opver_status rsqrt_lut16_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const lut_data *d = node->op_data;
	const rescale_data domain = { .type = OPVER_TYPE_INT16,
				      .count = d->count };
	opver_status status = check_domain(ctx, node, &domain, "RSQRT");

	if (status == OPVER_OK)
		status = lut_invoke(ctx, node);
	return status;
}

/* ------------------------------------------------------------- manifest */

static opver_status abs_prepare(const opver_context *ctx, opver_node *node);
static opver_status rsqrt_prepare(const opver_context *ctx,
				  opver_node *node);
static opver_status sqrt_prepare(const opver_context *ctx, opver_node *node);
static opver_status lut_prepare(const opver_context *ctx, opver_node *node);
static opver_status rsqrt_lut16_prepare(const opver_context *ctx,
					opver_node *node);

#define QUANTIZED_SIGNATURE(types) \
	OPVER_SIGNATURE(OPVER_INPUTS(types), OPVER_OUTPUT(types))

#define QUANTIZED_KERNEL(prefix, suffix, name, op, max, types, data, fn)      \
	const opver_kernel ref_##prefix##_##suffix = {                        \
		OPVER_KERNEL(name "_" #suffix, op, 1, max),                   \
		REF_SIGNATURES(QUANTIZED_SIGNATURE(types)),                   \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(data),                                 \
		.prepare = fn##_prepare, .invoke = fn##_invoke,               \
	}

QUANTIZED_KERNEL(abs, quantized, "abs", ABS, 5,
		 OPVER_T(INT8) | OPVER_T(INT16), rescale_data, abs);
QUANTIZED_KERNEL(rsqrt, int8, "rsqrt", RSQRT, 3, OPVER_T(INT8),
		 rescale_data, rsqrt);
QUANTIZED_KERNEL(sqrt, quantized, "sqrt", SQRT, 2,
		 OPVER_T(INT8) | OPVER_T(INT16), rescale_data, sqrt);
QUANTIZED_KERNEL(rsqrt, lut16, "rsqrt", RSQRT, 3, OPVER_T(INT16), lut_data,
		 rsqrt_lut16);
QUANTIZED_KERNEL(exp, lut, "exp", EXP, 2, OPVER_T(INT8) | OPVER_T(INT16),
		 lut_data, lut);
QUANTIZED_KERNEL(log, lut, "log", LOG, 2, OPVER_T(INT8) | OPVER_T(INT16),
		 lut_data, lut);

/* -------------------------------------------------------------- prepare */

/*
 * The node check every kernel here shares (`name` names the op in
 * messages): one input of a type `kernel` takes, the output of its type and shape, both quantized per tensor
 * (unless `optional16`: an int16 input without quantization), int16 zero
 * points 0.  Fills the common fields of *d when d is not NULL.
 */
static opver_status check(const opver_context *ctx, const opver_node *node,
			  const opver_kernel *kernel, const char *name,
			  bool optional16,
			  ref_activation_quant *q, rescale_data *d)
{
	const int32_t type = node->inputs[0]->type;
	opver_status status;

	if (optional16 && type == OPVER_TYPE_INT16 &&
	    !ref_is_quantized(node->inputs[0])) {
		status = ref_activation_check(ctx, node, kernel, NULL);
		*q = (ref_activation_quant){ 1.0f, 0, 1.0f, 0 };
	} else {
		status = ref_activation_check(ctx, node, kernel, q);
		if (status == OPVER_OK && type == OPVER_TYPE_INT16 &&
		    (q->input_zero != 0 || q->output_zero != 0)) {
			OPVER_REPORT(ctx,
				     "int16 %s needs zero points of 0; input '%s' has %d, output '%s' %d",
				     name,
				     node->inputs[0]->name, (int)q->input_zero,
				     node->outputs[0]->name,
				     (int)q->output_zero);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (status != OPVER_OK || d == NULL)
		return status;
	d->type = type;
	d->count = opver_tensor_elements(node->inputs[0]);
	d->quantized = ref_is_quantized(node->inputs[0]);
	d->input_scale = q->input_scale;
	d->output_scale = q->output_scale;
	d->input_zero = q->input_zero;
	d->output_zero = q->output_zero;
	ref_type_range(type, &d->min, &d->max);
	return OPVER_OK;
}

static opver_status abs_prepare(const opver_context *ctx, opver_node *node)
{
	rescale_data *d = node->op_data;
	ref_activation_quant q;
	opver_status status;

	status = check(ctx, node, &ref_abs_quantized, "ABS", true, &q, d);
	if (status != OPVER_OK || !d->quantized)
		return status;
	d->needs_rescale = q.input_scale != q.output_scale;
	if (!d->needs_rescale)
		return OPVER_OK;
	/* The ratio in float, as TFLite divides. */
	return ref_quantize_rescale(ctx, (double)(q.input_scale /
						   q.output_scale),
				    &d->multiplier, &d->shift,
				    "input scale / output scale");
}

static opver_status rsqrt_prepare(const opver_context *ctx,
				  opver_node *node)
{
	rescale_data *d = node->op_data;
	ref_activation_quant q;
	opver_status status;

	status = check(ctx, node, &ref_rsqrt_int8, "RSQRT", false, &q, d);
	if (status != OPVER_OK)
		return status;
	/* sqrt in float and the product in float, the reciprocal in
	 * double, as TFLite. */
	status = ref_quantize_rescale(
		ctx, 1.0 / (double)(sqrtf(q.input_scale) * q.output_scale),
		&d->multiplier, &d->shift,
		"1 / (sqrt(input scale) x output scale)");
	if (status == OPVER_OK && d->shift - RSQRT_SHIFT < -31) {
		OPVER_REPORT(ctx,
			     "1 / (sqrt(input scale) x output scale) is %g; RSQRT needs it above 2^-12",
			     1.0 / ((double)sqrtf(q.input_scale) *
				    (double)q.output_scale));
		status = OPVER_ERROR_UNSUPPORTED;
	}
	return status;
}

static opver_status sqrt_prepare(const opver_context *ctx, opver_node *node)
{
	ref_activation_quant q;

	return check(ctx, node, &ref_sqrt_quantized, "SQRT", false, &q,
		     node->op_data);
}

/* TFLite's table functions; `params`, a float, is what LOG gives for
 * inputs of 0 or less (the output's lowest value) and RSQRT for 0 (the
 * output's highest). */
static float log_or_lowest(float x, const void *params)
{
	return x <= 0.0f ? *(const float *)params : logf(x);
}

static float rsqrt_or_highest(float x, const void *params)
{
	return x <= 0.0f ? *(const float *)params : 1.0f / sqrtf(x);
}

static float exponential(float x, const void *params)
{
	(void)params;
	return expf(x);
}

/* The table of `f` for the node's input and output quantization `q`. */
static void lut_fill(lut_data *d, const opver_node *node,
		     const ref_activation_quant *q, ref_lut_transform f,
		     const float *param)
{
	d->type = node->inputs[0]->type;
	d->count = opver_tensor_elements(node->inputs[0]);
	if (d->type == OPVER_TYPE_INT8)
		ref_lut8_fill(&d->table.lut8, OPVER_TYPE_INT8, q->input_scale,
			      q->input_zero, q->output_scale, q->output_zero,
			      f, param);
	else
		ref_lut16_fill(d->table.lut16, q->input_scale,
			       q->output_scale, f, param);
}

static opver_status lut_prepare(const opver_context *ctx, opver_node *node)
{
	const bool log = node->op == OPVER_OP_LOG;
	ref_activation_quant q;
	opver_status status;
	float lowest;

	status = check(ctx, node, log ? &ref_log_lut : &ref_exp_lut,
		       log ? "LOG" : "EXP", false, &q, NULL);
	if (status != OPVER_OK)
		return status;
	lowest = (float)((node->inputs[0]->type == OPVER_TYPE_INT8
				  ? INT8_MIN
				  : INT16_MIN) -
			 q.output_zero) *
		 q.output_scale;
	lut_fill(node->op_data, node, &q, log ? log_or_lowest : exponential,
		 &lowest);
	return OPVER_OK;
}

static opver_status rsqrt_lut16_prepare(const opver_context *ctx,
					opver_node *node)
{
	ref_activation_quant q;
	opver_status status;
	float highest;

	status = check(ctx, node, &ref_rsqrt_lut16, "RSQRT", false, &q, NULL);
	if (status != OPVER_OK)
		return status;
	highest = (float)INT16_MAX * q.output_scale;
	lut_fill(node->op_data, node, &q, rsqrt_or_highest, &highest);
	return OPVER_OK;
}
