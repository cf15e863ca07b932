/*
 * requant_report.c - a quantized mismatch's element derived step by step
 * (requant_report.h).
 */
#include <inttypes.h>
#include <math.h>

#include "describe.h"
#include "requant.h"
#include "requant_report.h"

/* TFLite's int8 and uint8 ADD and SUB shift their inputs left by 20
 * bits, int16 ones with general scales (pot_scale_int16 false) by 15. */
#define ADD_LEFT_SHIFT 20
#define ADD_INT16_LEFT_SHIFT 15

/* Element i of an integer tensor of the case: a graph input's values or
 * a constant's data. */
static int64_t value_at(const cf_case *c, int32_t t, size_t i)
{
	const cf_tensor_desc *d = &c->tensors[t];
	const void *data = d->data != NULL ? d->data : c->values[t];

	switch (d->type) {
	case OPVER_TYPE_INT8:
		return ((const int8_t *)data)[i];
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)data)[i];
	case OPVER_TYPE_INT16:
		return ((const int16_t *)data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)data)[i];
	default:
		return ((const int64_t *)data)[i];
	}
}

static int32_t zero_of(const cf_tensor_desc *d, int32_t channel)
{
	return (int32_t)d->zero_points[d->num_scales > 1 ? channel : 0];
}

static float scale_of(const cf_tensor_desc *d, int32_t channel)
{
	return d->scales[d->num_scales > 1 ? channel : 0];
}

static bool quantized(const cf_case *c, int32_t t)
{
	const opver_type type = c->tensors[t].type;

	return c->tensors[t].quantized &&
	       (type == OPVER_TYPE_INT8 || type == OPVER_TYPE_UINT8 ||
		type == OPVER_TYPE_INT16);
}

/* The sum of (input - zero point) x (filter - zero point) over a window
 * tap, nothing where it reads padding. */
typedef struct accumulator {
	int64_t sum, bias;
	int32_t channel, products;
} accumulator;

static void add_product(const cf_case *c, accumulator *a, size_t in_at,
			size_t filter_at)
{
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];

	a->sum += (value_at(c, c->inputs[0], in_at) - zero_of(in, 0)) *
		  (value_at(c, c->inputs[1], filter_at) -
		   zero_of(w, a->channel));
	a->products++;
}

/* CONV_2D (grouped) and DEPTHWISE_CONV_2D over NHWC. */
static void window_accumulate(const cf_case *c, size_t element,
			      accumulator *a)
{
	const bool depthwise = c->op == OPVER_OP_DEPTHWISE_CONV_2D;
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	const cf_tensor_desc *out = &c->tensors[c->output];
	const int32_t sh = depthwise ? c->params.depthwise.stride_height :
				       c->params.conv.stride_height;
	const int32_t sw = depthwise ? c->params.depthwise.stride_width :
				       c->params.conv.stride_width;
	const int32_t dh = depthwise ? c->params.depthwise.dilation_height :
				       c->params.conv.dilation_height;
	const int32_t dw = depthwise ? c->params.depthwise.dilation_width :
				       c->params.conv.dilation_width;
	const opver_padding padding = depthwise ? c->params.depthwise.padding :
						  c->params.conv.padding;
	const int32_t oc = a->channel, channels = out->dims[3];
	const size_t pixel = element / (size_t)channels;
	const int32_t ox = (int32_t)(pixel % (size_t)out->dims[2]);
	const int32_t oy = (int32_t)(pixel / (size_t)out->dims[2] %
				     (size_t)out->dims[1]);
	const size_t n = pixel / (size_t)out->dims[2] / (size_t)out->dims[1];
	const int32_t kh = w->dims[1], kw = w->dims[2];
	const int32_t top = cf_padding_before(in->dims[1], kh, sh, dh, padding);
	const int32_t left = cf_padding_before(in->dims[2], kw, sw, dw, padding);
	/* CONV_2D: the group's input channels; DEPTHWISE: one. */
	const int32_t depth = depthwise ? 1 : w->dims[3];
	const int32_t first = depthwise ?
				      oc / c->params.depthwise.depth_multiplier :
				      oc / (channels / (in->dims[3] / depth)) *
					      depth;

	for (int32_t ky = 0; ky < kh; ky++) {
		const int32_t iy = oy * sh - top + ky * dh;

		for (int32_t kx = 0; kx < kw && iy >= 0 && iy < in->dims[1];
		     kx++) {
			const int32_t ix = ox * sw - left + kx * dw;
			const size_t at =
				((n * (size_t)in->dims[1] + (size_t)iy) *
					 (size_t)in->dims[2] +
				 (size_t)ix) *
				(size_t)in->dims[3];

			if (ix < 0 || ix >= in->dims[2])
				continue;
			for (int32_t i = 0; i < depth; i++)
				add_product(c, a, at + (size_t)(first + i),
					    depthwise ?
						    (size_t)(ky * kw + kx) *
								    (size_t)channels +
							    (size_t)oc :
						    (((size_t)oc * (size_t)kh +
						      (size_t)ky) *
							     (size_t)kw +
						     (size_t)kx) *
								    (size_t)depth +
							    (size_t)i);
		}
	}
}

/* A filter op's accumulator for output `element`; false for a case whose
 * tensors are not the integer ones this derives. */
static bool filter_accumulator(const cf_case *c, size_t element,
			       accumulator *a)
{
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	const cf_tensor_desc *out = &c->tensors[c->output];
	const int32_t bias = c->num_inputs > 2 ? c->inputs[2] : -1;

	*a = (accumulator){ 0 };
	if (!quantized(c, c->inputs[0]) || !quantized(c, c->output) ||
	    !w->quantized || w->type == OPVER_TYPE_FLOAT32)
		return false;
	a->channel = (int32_t)(element % (size_t)out->dims[out->rank - 1]);
	if (bias >= 0)
		a->bias = value_at(c, bias, (size_t)a->channel);
	if (c->op == OPVER_OP_FULLY_CONNECTED) {
		const int32_t depth = w->dims[1];
		const size_t row = element / (size_t)w->dims[0];

		for (int32_t d = 0; d < depth; d++)
			add_product(c, a, row * (size_t)depth + (size_t)d,
				    (size_t)a->channel * (size_t)depth +
					    (size_t)d);
	} else {
		window_accumulate(c, element, a);
	}
	a->sum += a->bias;
	return true;
}

/* The clamp of the case's fused activation on its output, as TFLite
 * quantizes the bounds, and the activation's name. */
static void clamp_of(const cf_case *c, int32_t *min, int32_t *max,
		     const char **name)
{
	const cf_tensor_desc *out = &c->tensors[c->output];
	int32_t activation = OPVER_ACTIVATION_NONE, lo, hi;

	switch (c->op) {
	case OPVER_OP_FULLY_CONNECTED:
		activation = c->params.fully_connected.activation;
		break;
	case OPVER_OP_CONV_2D:
		activation = c->params.conv.activation;
		break;
	case OPVER_OP_DEPTHWISE_CONV_2D:
		activation = c->params.depthwise.activation;
		break;
	case OPVER_OP_ADD:
		activation = c->params.add.activation;
		break;
	case OPVER_OP_MUL:
		activation = c->params.mul.activation;
		break;
	case OPVER_OP_SUB:
		activation = c->params.sub.activation;
		break;
	case OPVER_OP_AVERAGE_POOL_2D:
		activation = c->params.pool.activation;
		break;
	default:
		break;
	}
	lo = out->type == OPVER_TYPE_UINT8 ? 0 :
	     out->type == OPVER_TYPE_INT16 ? INT16_MIN : INT8_MIN;
	hi = out->type == OPVER_TYPE_UINT8 ? UINT8_MAX :
	     out->type == OPVER_TYPE_INT16 ? INT16_MAX : INT8_MAX;
	rq_activation(activation, out->scales[0], zero_of(out, 0), lo, hi, min,
		      max);
	*name = cf_activation_name((opver_activation)activation);
}

/* The rescale `real` as a multiplier and shift, in words. */
static void add_rescale(cf_text *t, const char *what, double real,
			int32_t *multiplier, int *shift)
{
	rq_quantize(real, multiplier, shift);
	cf_text_add(t, "%s %.9g = %" PRId32 " x 2^%d / 2^31\n", what, real,
		    *multiplier, *shift);
}

/* x rescaled by multiplier and shift, TFLite's two roundings in words,
 * ties named; returns the result. */
static int32_t add_rounding(cf_text *t, int32_t x, int32_t multiplier,
			    int shift)
{
	const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
	const int32_t shifted = (int32_t)((uint32_t)x << left);
	const int64_t product = (int64_t)shifted * multiplier;
	const int64_t half = INT64_C(1) << 30;
	const int32_t high = rq_high_mul(shifted, multiplier);
	const int32_t result = rq_shift_right(high, right, false);

	if (left > 0)
		cf_text_add(t, "%" PRId32 " << %d = %" PRId32 "; ", x, left,
			    shifted);
	cf_text_add(t, "high multiply %" PRId32 " x %" PRId32 " / 2^31 = %.6f -> %" PRId32 "%s",
		    shifted, multiplier, (double)product / 2147483648.0, high,
		    product % (2 * half) == half ||
				    product % (2 * half) == -half ?
			    " (a tie, rounded up)" :
			    "");
	if (right > 0) {
		const int32_t remainder =
			(int32_t)((uint32_t)high & ((UINT32_C(1) << right) - 1));

		cf_text_add(t, "; shift right %d: %.6f -> %" PRId32 "%s", right,
			    ldexp(high, -right), result,
			    remainder == INT32_C(1) << (right - 1) ?
				    " (a tie, rounded away from zero)" :
				    "");
	}
	cf_text_add(t, "\n");
	return result;
}

/* Element i of an int8, uint8 or int16 output. */
static int32_t output_at(const opver_tensor *t, size_t i)
{
	switch (t->type) {
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)t->data)[i];
	case OPVER_TYPE_INT16:
		return ((const int16_t *)t->data)[i];
	default:
		return ((const int8_t *)t->data)[i];
	}
}

/* The clamp of `value`, and the result against the reference's. */
static void add_clamped(cf_text *t, const cf_case *c, int32_t value,
			const opver_tensor *reference, size_t element)
{
	int32_t min, max, result;
	const char *activation;

	clamp_of(c, &min, &max, &activation);
	result = rq_clamp(value, min, max);
	cf_text_add(t, "clamp [%" PRId32 ", %" PRId32 "] (%s) -> %" PRId32 "\n",
		    min, max, activation, result);
	if (reference == NULL || element >= opver_tensor_elements(reference))
		return;
	cf_text_add(t, "  the reference's value: ");
	cf_describe_element(t, reference->type, reference->data, element);
	cf_text_add(t, "%s\n",
		    output_at(reference, element) == result ?
			    "" :
			    " (not this derivation's: the reference computes it otherwise)");
}

/* The output stage: zero point, clamp, and the result against the
 * reference's. */
static void add_output(cf_text *t, const cf_case *c, int32_t rescaled,
		       int32_t zero, const opver_tensor *reference,
		       size_t element)
{
	cf_text_add(t, "  + output zero point %" PRId32 " = %" PRId32 " before the clamp; ",
		    zero, rescaled + zero);
	add_clamped(t, c, rescaled + zero, reference, element);
}

static bool describe_filter(cf_text *t, const cf_case *c, size_t element,
			    const opver_tensor *reference)
{
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	const cf_tensor_desc *out = &c->tensors[c->output];
	accumulator a;
	double real;
	int32_t multiplier;
	int shift;

	if (!filter_accumulator(c, element, &a))
		return false;
	/* Per tensor TFLite rounds the scales' product to float first. */
	real = w->num_scales > 1 ?
		       (double)scale_of(in, 0) *
			       (double)scale_of(w, a.channel) /
			       (double)scale_of(out, 0) :
		       (double)(scale_of(in, 0) * scale_of(w, 0)) /
			       (double)scale_of(out, 0);
	cf_text_add(t, "requantization of element %zu (channel %" PRId32 "): accumulator %" PRId64 " = bias %" PRId64 " + %" PRId32 " products (input zero point %" PRId32 ", filter zero point %" PRId32 ")\n",
		    element, a.channel, a.sum, a.bias, a.products,
		    zero_of(in, 0), zero_of(w, a.channel));
	add_rescale(t, "  rescale (input scale x filter scale / output scale)",
		    real, &multiplier, &shift);
	cf_text_add(t, "  exactly: %" PRId64 " x %.9g + %" PRId32 " = %.6f before rounding and the clamp\n",
		    a.sum, real, zero_of(out, 0),
		    (double)a.sum * real + zero_of(out, 0));
	if (out->type == OPVER_TYPE_INT16 || a.sum != (int32_t)a.sum) {
		cf_text_add(t, "  (not derived further: an int16 output is rescaled in 32 or 64 bits depending on its bias)\n");
		return true;
	}
	cf_text_add(t, "  reference: ");
	add_output(t, c,
		   add_rounding(t, (int32_t)a.sum, multiplier, shift),
		   zero_of(out, 0), reference, element);
	return true;
}

/* The flat index into input `t` that output `element` reads, NumPy
 * broadcasting (a dimension of 1, or a missing leading one, repeats). */
static size_t broadcast_index(const cf_case *c, int32_t t, size_t element)
{
	const cf_tensor_desc *in = &c->tensors[t];
	const cf_tensor_desc *out = &c->tensors[c->output];
	size_t index = 0, stride = 1;

	for (int32_t d = out->rank - 1; d >= 0; d--) {
		const int32_t own = d - (out->rank - in->rank);
		const size_t coordinate = element % (size_t)out->dims[d];

		element /= (size_t)out->dims[d];
		if (own < 0)
			continue;
		if (in->dims[own] > 1)
			index += coordinate * stride;
		stride *= (size_t)in->dims[own];
	}
	return index;
}

static bool describe_binary(cf_text *t, const cf_case *c, size_t element,
			    const opver_tensor *reference)
{
	const cf_tensor_desc *in[2] = { &c->tensors[c->inputs[0]],
					&c->tensors[c->inputs[1]] };
	const cf_tensor_desc *out = &c->tensors[c->output];
	const bool int16 = out->type == OPVER_TYPE_INT16;
	const int left_shift = int16 ? ADD_INT16_LEFT_SHIFT : ADD_LEFT_SHIFT;
	int64_t q[2];
	int32_t multiplier, sum = 0;
	int shift;

	if (!quantized(c, c->inputs[0]) || !quantized(c, c->inputs[1]) ||
	    !quantized(c, c->output))
		return false;
	/* int16 ADD and SUB with pot_scale_int16 take TFLite's power-of-two
	 * path, not derived here. */
	if (int16 &&
	    ((c->op == OPVER_OP_ADD && c->params.add.pot_scale_int16) ||
	     (c->op == OPVER_OP_SUB && c->params.sub.pot_scale_int16)))
		return false;
	for (int i = 0; i < 2; i++)
		q[i] = value_at(c, c->inputs[i],
				broadcast_index(c, c->inputs[i], element));
	cf_text_add(t, "requantization of element %zu: input 1 %" PRId64 " (zero point %" PRId32 "), input 2 %" PRId64 " (zero point %" PRId32 "), output zero point %" PRId32 "\n",
		    element, q[0], zero_of(in[0], 0), q[1], zero_of(in[1], 0),
		    zero_of(out, 0));
	if (c->op == OPVER_OP_MUL) {
		const int32_t product = (int32_t)((q[0] - zero_of(in[0], 0)) *
						  (q[1] - zero_of(in[1], 0)));

		cf_text_add(t, "  accumulator (input 1 - zero point) x (input 2 - zero point) = %" PRId32 "\n",
			    product);
		add_rescale(t, "  rescale (input scales / output scale)",
			    (double)scale_of(in[0], 0) *
				    (double)scale_of(in[1], 0) /
				    (double)scale_of(out, 0),
			    &multiplier, &shift);
		cf_text_add(t, "  reference: ");
		add_output(t, c, add_rounding(t, product, multiplier, shift),
			   zero_of(out, 0), reference, element);
		return true;
	}
	for (int i = 0; i < 2; i++) {
		const double larger = scale_of(in[0], 0) > scale_of(in[1], 0) ?
					      scale_of(in[0], 0) :
					      scale_of(in[1], 0);
		const int32_t shifted =
			(int32_t)(q[i] - zero_of(in[i], 0)) * (1 << left_shift);

		cf_text_add(t, "  input %d: (%" PRId64 " - %" PRId32 ") << %d = %" PRId32 "; ",
			    i + 1, q[i], zero_of(in[i], 0), left_shift,
			    shifted);
		add_rescale(t, "rescale (scale / 2 x the larger)",
			    (double)scale_of(in[i], 0) / (2 * larger),
			    &multiplier, &shift);
		cf_text_add(t, "    ");
		/* SUB subtracts input 2 once rescaled, as TFLite does. */
		if (i == 1 && c->op == OPVER_OP_SUB)
			sum -= add_rounding(t, shifted, multiplier, shift);
		else
			sum += add_rounding(t, shifted, multiplier, shift);
	}
	cf_text_add(t, c->op == OPVER_OP_SUB ? "  difference %" PRId32 "; " :
					       "  sum %" PRId32 "; ",
		    sum);
	cf_text_add(t, "output rescale (2 x the larger input scale / (2^%d x output scale))",
		    left_shift);
	add_rescale(t, "",
		    2.0 * (scale_of(in[0], 0) > scale_of(in[1], 0) ?
				   (double)scale_of(in[0], 0) :
				   (double)scale_of(in[1], 0)) /
			    (ldexp(1, left_shift) * (double)scale_of(out, 0)),
		    &multiplier, &shift);
	cf_text_add(t, "  reference: ");
	add_output(t, c, add_rounding(t, sum, multiplier, shift),
		   zero_of(out, 0), reference, element);
	return true;
}

/* One axis of a pooling window: the first input row (or column) an
 * output's window covers inside the input, and the one after its last. */
static void pool_span(int32_t out, int32_t in, int32_t filter,
		      int32_t stride, opver_padding padding, int32_t *start,
		      int32_t *end)
{
	const int32_t first = out * stride -
			      cf_padding_before(in, filter, stride, 1, padding);

	*start = first < 0 ? 0 : first;
	*end = first + filter < in ? first + filter : in;
}

/* AVERAGE_POOL_2D's integer average: the window's raw values summed and
 * divided by their count, rounded half away from zero, then clamped. */
static bool describe_average_pool(cf_text *t, const cf_case *c,
				  size_t element,
				  const opver_tensor *reference)
{
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *out = &c->tensors[c->output];
	const opver_pool_params *p = &c->params.pool;
	const size_t channels = (size_t)out->dims[3];
	const size_t ox = element / channels % (size_t)out->dims[2];
	const size_t oy = element / channels / (size_t)out->dims[2] %
			  (size_t)out->dims[1];
	const size_t b = element / channels / (size_t)out->dims[2] /
			 (size_t)out->dims[1];
	int32_t y0, y1, x0, x1, count, average;
	int64_t sum = 0;

	if (!quantized(c, c->output) || out->rank != 4 || in->rank != 4)
		return false;
	pool_span((int32_t)oy, in->dims[1], p->filter_height,
		  p->stride_height, p->padding, &y0, &y1);
	pool_span((int32_t)ox, in->dims[2], p->filter_width, p->stride_width,
		  p->padding, &x0, &x1);
	count = (y1 - y0) * (x1 - x0);
	if (count <= 0)
		return false;
	for (int32_t y = y0; y < y1; y++)
		for (int32_t x = x0; x < x1; x++)
			sum += value_at(c, c->inputs[0],
					((b * (size_t)in->dims[1] + (size_t)y) *
						 (size_t)in->dims[2] +
					 (size_t)x) * channels +
						element % channels);
	average = (int32_t)(sum > 0 ? (sum + count / 2) / count :
				      (sum - count / 2) / count);
	cf_text_add(t, "average of element %zu: the sum of the %" PRId32 " input values in rows %" PRId32 "..%" PRId32 ", columns %" PRId32 "..%" PRId32 " (zero point %" PRId32 ") is %" PRId64 "\n",
		    element, count, y0, y1 - 1, x0, x1 - 1, zero_of(in, 0),
		    sum);
	cf_text_add(t, "  reference: %" PRId64 " / %" PRId32 " = %.6f -> %" PRId32 "%s; ",
		    sum, count, (double)sum / count, average,
		    count % 2 == 0 && (sum % count == count / 2 ||
				       sum % count == -(count / 2)) ?
			    " (a tie, rounded away from zero)" :
			    "");
	add_clamped(t, c, average, reference, element);
	return true;
}

bool cf_describe_requantization(cf_text *t, const cf_case *c, size_t element,
				const opver_tensor *reference)
{
	switch (c->op) {
	case OPVER_OP_FULLY_CONNECTED:
	case OPVER_OP_CONV_2D:
	case OPVER_OP_DEPTHWISE_CONV_2D:
		return c->num_inputs >= 2 && describe_filter(t, c, element,
							     reference);
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
	case OPVER_OP_SUB:
		return describe_binary(t, c, element, reference);
	case OPVER_OP_AVERAGE_POOL_2D:
		return describe_average_pool(t, c, element, reference);
	default:
		return false;
	}
}
