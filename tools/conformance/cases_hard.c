/*
 * cases_hard.c - the hard spots of quantized cases (cases_hard.h).
 */
#include <math.h>
#include <stdio.h>

#include "cases_hard.h"

const char *const cf_spot_names[CF_NUM_SPOTS + 1] = {
	"ties", "pot-edge", "half", "one", "spread", "above-one",
};

/* Output steps a typical value of an 8-bit case spans; int16 cases span
 * 256 times more. */
#define TARGET_STEPS 40.0

void cf_hard_draw(cf_hard *h, int32_t spot, cf_rng *rng)
{
	h->spot = spot;
	h->factor[0] = h->factor[1] = 1;
	switch (spot) {
	case CF_SPOT_TIES:
		h->multiplier = ldexp(1.0, -cf_rng_int(rng, 2, 3));
		break;
	case CF_SPOT_POT_EDGE:
		/* (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46: exact in double, and
		 * within half a Q0.31 step of 1. */
		h->multiplier = ldexp(1.0, -cf_rng_int(rng, 0, 2));
		h->factor[0] = 1 + 0x1p-23f;
		h->factor[1] = 1 - 0x1p-23f;
		break;
	case CF_SPOT_HALF:
		h->multiplier = 0.5 * (cf_rng_int(rng, 0, 1) ? 1 + 0x1p-20 :
							       1 - 0x1p-20);
		break;
	case CF_SPOT_ONE:
		h->multiplier = 1 - 0x1p-20;
		break;
	case CF_SPOT_ABOVE_ONE:
		h->multiplier = exp2((double)cf_rng_float(rng, 0.05f, 3));
		break;
	default:
		h->multiplier = exp2(-(double)cf_rng_float(rng, 0, 20));
		break;
	}
	for (int32_t r = 0; r < CF_HARD_ROLES; r++)
		h->zero_side[r] = cf_rng_int(rng, -1, 1);
}

float cf_hard_input_scale(const cf_hard *h, int32_t which, float about)
{
	return ldexpf(1, (int)lrintf(log2f(about))) * h->factor[which];
}

float cf_hard_output_scale(const cf_hard *h, double product)
{
	/* The pot edge's factors cancel in float: a power of two. */
	return (float)(product / h->multiplier);
}

int32_t cf_hard_zero_point(const cf_hard *h, int32_t role, opver_type type,
			   cf_rng *rng)
{
	const int32_t side = h->zero_side[role];

	switch (type) {
	case OPVER_TYPE_INT8:
		return side < 0 ? INT8_MIN :
		       side > 0 ? INT8_MAX : cf_rng_int(rng, -10, 10);
	case OPVER_TYPE_UINT8:
		return side < 0 ? 0 :
		       side > 0 ? UINT8_MAX : cf_rng_int(rng, 118, 138);
	default:
		return 0;
	}
}

/* The largest deviation from the zero point of `type`. */
static int32_t widest(opver_type type)
{
	return type == OPVER_TYPE_INT16 ? INT16_MAX : INT8_MAX;
}

/* The range of an int8, uint8 or int16 tensor's values. */
static int32_t lowest_of(opver_type type)
{
	return type == OPVER_TYPE_UINT8 ? 0 : -widest(type) - 1;
}

static int32_t highest_of(opver_type type)
{
	return type == OPVER_TYPE_UINT8 ? UINT8_MAX : widest(type);
}

/* Value i of an int8, uint8 or int16 tensor, and setting it. */
static int32_t value_at(const cf_tensor_desc *tensor, const void *values,
			size_t i)
{
	return tensor->type == OPVER_TYPE_UINT8 ? ((const uint8_t *)values)[i] :
	       tensor->type == OPVER_TYPE_INT16 ? ((const int16_t *)values)[i] :
						  ((const int8_t *)values)[i];
}

static void set_value(const cf_tensor_desc *tensor, void *values, size_t i,
		      int32_t v)
{
	if (tensor->type == OPVER_TYPE_UINT8)
		((uint8_t *)values)[i] = (uint8_t)v;
	else if (tensor->type == OPVER_TYPE_INT16)
		((int16_t *)values)[i] = (int16_t)v;
	else
		((int8_t *)values)[i] = (int8_t)v;
}

static int32_t deviation_of(double wanted, opver_type type)
{
	return wanted < 1 ? 1 :
	       wanted > widest(type) ? widest(type) : (int32_t)wanted;
}

int32_t cf_hard_deviation(const cf_hard *h, int32_t terms, bool product,
			  opver_type type)
{
	const double steps = TARGET_STEPS *
			     (type == OPVER_TYPE_INT16 ? 256 : 1) /
			     (h->multiplier * terms);

	return deviation_of(product ? sqrt(steps) : steps, type);
}

bool cf_hard_fill(cf_case *c, int32_t t, cf_rng *rng, int32_t deviation,
		  bool constant)
{
	cf_tensor_desc *tensor = &c->tensors[t];
	const int32_t zero = (int32_t)tensor->zero_points[0];
	const int32_t lo = lowest_of(tensor->type), hi = highest_of(tensor->type);
	const size_t n = cf_tensor_elements(tensor);

	if (!cf_case_fill(c, t, rng, 0, 0, constant))
		return false;
	for (size_t i = 0; i < n; i++) {
		const int32_t v = zero + cf_rng_int(rng, -deviation, deviation);
		void *values = cf_case_values(c, t);

		set_value(tensor, values, i, v < lo ? lo : v > hi ? hi : v);
	}
	return true;
}

const char *cf_hard_side_name(const cf_hard *h, int32_t role)
{
	static const char *const sides[] = { "lowest", "middle", "highest" };

	return sides[h->zero_side[role] + 1];
}

void cf_hard_param(cf_case *c, const cf_hard *h,
		   const int32_t roles[CF_HARD_ROLES])
{
	char zero[CF_HARD_ROLES][24];

	for (int32_t r = 0; r < CF_HARD_ROLES; r++) {
		if (roles[r] < 0)
			snprintf(zero[r], sizeof(zero[r]), "-");
		else
			snprintf(zero[r], sizeof(zero[r]), "%lld",
				 (long long)c->tensors[roles[r]]
					 .zero_points[0]);
	}
	cf_case_param(c, "spot=%s rescale=%.17g zero_points=%s,%s,%s",
		      cf_spot_names[h->spot], h->multiplier, zero[0], zero[1],
		      zero[2]);
}

/* The range of a quantized type, as the number of steps in it. */
static double type_steps(opver_type type)
{
	return type == OPVER_TYPE_INT16 ? 65535.0 : 255.0;
}

/* Bias element i of an int32 or int64 bias tensor set to `value`, kept
 * within 2^30 so that adding the products cannot overflow int32. */
static void set_bias(cf_tensor_desc *bias, int32_t i, double value)
{
	const double limit = 0x1p30;

	value = value > limit ? limit : value < -limit ? -limit : value;
	if (bias->type == OPVER_TYPE_INT64)
		((int64_t *)bias->data)[i] = (int64_t)value;
	else
		((int32_t *)bias->data)[i] = (int32_t)value;
}

/*
 * Where channel 1's rescale is exactly 2^-n (n >= 1, the ties and pot-edge
 * spots), puts every output of it on a tie: its filter deviations become
 * multiples of 2^n, so that every product is one, and its bias an odd
 * multiple of 2^(n-1); their sum, whatever its sign, is then halfway
 * between two multiples of 2^n.
 */
static void plant_ties(cf_case *c, const cf_hard *h, cf_rng *rng,
		       const int32_t *t, int32_t axis, double multiplier)
{
	cf_tensor_desc *filter = &c->tensors[t[1]];
	const int32_t zero = (int32_t)filter->zero_points[0];
	const bool uint8 = filter->type == OPVER_TYPE_UINT8;
	const int32_t lo = uint8 ? 0 : -INT8_MAX, hi = uint8 ? UINT8_MAX : INT8_MAX;
	const int n = -(int)lrint(log2(multiplier));
	const int32_t step = 1 << (n > 0 ? n : 0);
	size_t inner = 1;

	if ((h->spot != CF_SPOT_TIES && h->spot != CF_SPOT_POT_EDGE) || n < 1 ||
	    n > 20)
		return;
	for (int32_t d = axis + 1; d < filter->rank; d++)
		inner *= (size_t)filter->dims[d];
	for (size_t i = 0; i < cf_tensor_elements(filter); i++) {
		uint8_t *bytes = (uint8_t *)filter->data;
		int32_t w = uint8 ? bytes[i] : (int8_t)bytes[i];
		int32_t deviation = (int32_t)lrint((double)(w - zero) / step) *
				    step;

		if (i / inner % (size_t)filter->dims[axis] != 1)
			continue;
		if (zero + deviation > hi)
			deviation -= step;
		if (zero + deviation < lo)
			deviation += step;
		w = zero + deviation;
		bytes[i] = uint8 ? (uint8_t)w : (uint8_t)(int8_t)w;
	}
	set_bias(&c->tensors[t[2]], 1,
		 (double)step * cf_rng_int(rng, -8, 8) + step / 2);
}

bool cf_hard_filter_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		       const int32_t *t, bool per_channel, int32_t axis,
		       int32_t channels, int32_t taps)
{
	const opver_type type = c->tensors[t[0]].type;
	const bool uint8 = type == OPVER_TYPE_UINT8;
	const float input_scale = cf_hard_input_scale(
		h, 0, type == OPVER_TYPE_INT16 ? 0x1p-13f : 0x1p-6f);
	const int32_t n = per_channel ? channels : 1;
	float scales[8], bias_scales[8];
	int32_t filter_deviation, input_deviation;

	for (int32_t i = 0; i < n; i++) {
		scales[i] = cf_hard_input_scale(
			h, 1, ldexpf(1, -7 - cf_rng_int(rng, 0, 1)));
		bias_scales[i] = input_scale * scales[i];
	}
	if (!cf_case_quantize(c, t[0], input_scale,
			      cf_hard_zero_point(h, CF_HARD_INPUT, type, rng)) ||
	    !(per_channel ?
		      cf_case_quantize_per_channel(c, t[1], axis, scales) :
		      cf_case_quantize(c, t[1], scales[0],
				       uint8 ? cf_hard_zero_point(
						       h, CF_HARD_SECOND,
						       type, rng) :
					       0)) ||
	    !(per_channel ?
		      cf_case_quantize_per_channel(c, t[2], 0, bias_scales) :
		      cf_case_quantize(c, t[2], bias_scales[0], 0)) ||
	    !cf_case_quantize(c, t[3],
			      cf_hard_output_scale(h, (double)input_scale *
							      (double)scales[0]),
			      cf_hard_zero_point(h, CF_HARD_OUTPUT, type, rng)))
		return false;
	/* The filter's deviation as for an 8-bit product; an int16 input
	 * takes what is left of its wider target. */
	filter_deviation = cf_hard_deviation(h, taps, true, OPVER_TYPE_INT8);
	input_deviation = deviation_of(
		TARGET_STEPS * (type == OPVER_TYPE_INT16 ? 256 : 1) /
			(h->multiplier * taps * filter_deviation),
		type);
	if (!cf_hard_fill(c, t[0], rng, input_deviation, false) ||
	    !cf_hard_fill(c, t[1], rng, filter_deviation, true) ||
	    !cf_case_fill(c, t[2], rng, 0, 0, true))
		return false;
	for (int32_t ch = 0; ch < channels; ch++) {
		/* A channel's multiplier, its scale's share of channel 0's. */
		const double multiplier =
			h->multiplier * scales[per_channel ? ch : 0] / scales[0];
		const double products =
			(double)taps * input_deviation * filter_deviation;
		const double planted =
			products + 2 * type_steps(type) / multiplier;

		set_bias(&c->tensors[t[2]], ch,
			 ch == 0		? planted :
			 ch == channels - 1	? -planted :
			 cf_rng_float(rng, -1, 1) * products);
	}
	if (channels >= 3)
		plant_ties(c, h, rng, t, axis,
			   h->multiplier * scales[per_channel ? 1 : 0] /
				   scales[0]);
	cf_hard_param(c, h,
		      (const int32_t[CF_HARD_ROLES]){ t[0], t[1], t[3] });
	return true;
}

/* The first (or last) element of an int8, uint8 or int16 tensor set to
 * its type's lowest (or highest) value. */
static void set_end(cf_case *c, int32_t t, bool last, bool lowest)
{
	const cf_tensor_desc *tensor = &c->tensors[t];
	const size_t i = last ? cf_tensor_elements(tensor) - 1 : 0;
	void *values = cf_case_values(c, t);

	if (tensor->type == OPVER_TYPE_UINT8)
		((uint8_t *)values)[i] = lowest ? 0 : UINT8_MAX;
	else if (tensor->type == OPVER_TYPE_INT16)
		((int16_t *)values)[i] = lowest ? INT16_MIN : INT16_MAX;
	else
		((int8_t *)values)[i] = lowest ? INT8_MIN : INT8_MAX;
}

bool cf_hard_unary_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		      const int32_t *t)
{
	const opver_type type = c->tensors[t[0]].type;
	const float scale = cf_hard_input_scale(
		h, 0, type == OPVER_TYPE_INT16 ? 0x1p-12f : 0x1p-5f);

	if (!cf_case_quantize(c, t[0], scale,
			      cf_hard_zero_point(h, CF_HARD_INPUT, type, rng)) ||
	    !cf_case_quantize(c, t[1], cf_hard_output_scale(h, scale),
			      cf_hard_zero_point(h, CF_HARD_OUTPUT,
						 c->tensors[t[1]].type, rng)) ||
	    !cf_hard_fill(c, t[0], rng,
			  cf_hard_deviation(h, 1, false, type), false))
		return false;
	set_end(c, t[0], false, true);
	set_end(c, t[0], true, false);
	cf_hard_param(c, h,
		      (const int32_t[CF_HARD_ROLES]){ t[0], -1, t[1] });
	return true;
}

bool cf_hard_binary_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		       const int32_t *t, bool product, bool constant)
{
	const opver_type type = c->tensors[t[0]].type;
	const float s1 = cf_hard_input_scale(h, 0, 0x1p-6f);
	const float s2 = cf_hard_input_scale(h, 1, 0x1p-6f);
	const int32_t deviation = cf_hard_deviation(h, product ? 1 : 2, product,
						    type);

	if (!cf_case_quantize(c, t[0], s1,
			      cf_hard_zero_point(h, CF_HARD_INPUT, type, rng)) ||
	    !cf_case_quantize(c, t[1], s2,
			      cf_hard_zero_point(h, CF_HARD_SECOND, type,
						 rng)) ||
	    !cf_case_quantize(c, t[2],
			      cf_hard_output_scale(h, product ?
							      (double)s1 * s2 :
							      (double)s1),
			      cf_hard_zero_point(h, CF_HARD_OUTPUT, type, rng)) ||
	    !cf_hard_fill(c, t[0], rng, deviation, false) ||
	    !cf_hard_fill(c, t[1], rng, deviation, constant))
		return false;
	/* A product is negative with one factor at each end. */
	for (int i = 0; i < 2; i++) {
		const bool low_first = !(product && i == 1);

		set_end(c, t[i], false, low_first);
		set_end(c, t[i], true, !low_first);
	}
	cf_hard_param(c, h, t);
	return true;
}

/* Moves the values by `delta` in all, each within [lo, hi]; false when
 * they cannot (and then nothing moved). */
static bool spread_delta(const cf_tensor_desc *tensor, void *values,
			 const size_t *elements, size_t n, int64_t delta,
			 int32_t lo, int32_t hi)
{
	int64_t room = 0;

	for (size_t i = 0; i < n; i++) {
		const int32_t v = value_at(tensor, values, elements[i]);

		room += delta > 0 ? hi - v : v - lo;
	}
	if ((delta > 0 ? delta : -delta) > room)
		return false;
	for (size_t i = 0; i < n && delta != 0; i++) {
		const int32_t v = value_at(tensor, values, elements[i]);
		const int64_t step = delta > 0 ?
			(hi - v < delta ? hi - v : delta) :
			(lo - v > delta ? lo - v : delta);

		set_value(tensor, values, elements[i], v + (int32_t)step);
		delta -= step;
	}
	return true;
}

void cf_hard_set_group(cf_case *c, int32_t t, const size_t *elements,
		       size_t n, bool highest)
{
	const cf_tensor_desc *tensor = &c->tensors[t];
	void *values = cf_case_values(c, t);

	for (size_t i = 0; i < n; i++)
		set_value(tensor, values, elements[i],
			  highest ? highest_of(tensor->type) :
				    lowest_of(tensor->type));
}

/* floor(a / b), b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

bool cf_hard_plant_tie(cf_case *c, int32_t t, const size_t *elements,
		       size_t n, int32_t base, int64_t modulus, int32_t sign)
{
	const cf_tensor_desc *tensor = &c->tensors[t];
	void *values = cf_case_values(c, t);
	const int32_t lo = lowest_of(tensor->type), hi = highest_of(tensor->type);
	const int64_t half = modulus / 2;
	int64_t sum = 0, tie;

	for (size_t i = 0; i < n; i++)
		sum += value_at(tensor, values, elements[i]) - base;
	if (sign == 0)
		sign = sum < 0 ? -1 : 1;
	/* The tie (an odd multiple of `half`) nearest the sum, of `sign`. */
	tie = floor_div(sum - half, modulus) * modulus + half;
	if (sum - tie > half)
		tie += modulus;
	if (sign > 0 && tie < 0)
		tie = half;
	if (sign < 0 && tie > 0)
		tie = -half;
	return spread_delta(tensor, values, elements, n, tie - sum, lo, hi) ||
	       spread_delta(tensor, values, elements, n,
			    tie + (sign > 0 ? modulus : -modulus) - sum, lo,
			    hi);
}
