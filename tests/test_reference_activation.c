/*
 * test_reference_activation.c - the reference plugin's one-input
 * activation kernels run from the built reference.so through the kernel
 * harness, against values worked out by hand (the arithmetic is spelled
 * out next to each) or against an independent double-precision
 * computation with TFLite's rounding; what prepare rejects and says.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(relu, .init = setup, .fini = teardown);

/* A one-input activation node of kernel `name` from `input` to `output`. */
static opver_node *unary_node(const char *name, const void *params,
			      size_t params_size, opver_tensor *input,
			      opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, name), 1, params, params_size,
		       KH_TENSORS(input), KH_TENSORS(output));
}

static void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
			  size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* ---------------------------------------------------------- clamp family */

static const int32_t dims8[] = { 2, 4 };

Test(relu, float32_clamps_each_op_to_its_range)
{
	static const float in[8] = { -7.5f, -1.5f, -0.5f, 0.0f,
				     0.25f, 0.75f, 3.0f,  9.0f };
	static const struct {
		const char *kernel;
		float want[8];
	} ops[] = {
		{ "relu_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 3, 9 } },
		{ "relu6_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 3, 6 } },
		{ "relu_n1_to_1_float32",
		  { -1, -1, -0.5f, 0, 0.25f, 0.75f, 1, 1 } },
		{ "relu_0_to_1_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 1, 1 } },
	};

	for (size_t i = 0; i < COUNT(ops); i++) {
		opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
						2, dims8, in);
		opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
						 2, dims8, NULL);

		cr_assert_eq(kh_run(&h, unary_node(ops[i].kernel, NULL, 0,
						   input, output)),
			     OPVER_OK, "%s: %s", ops[i].kernel, h.errors);
		kh_expect_floats(output, ops[i].want, 8);
	}
}

/*
 * int8 RELU6 from scale 0.1, zero point -10 to scale 0.05, zero point
 * -100: each step doubles (0.1 / 0.05) around the zero points, and the
 * clamp is [-100 + round(0 / 0.05), -100 + round(6 / 0.05)] = [-100, 20].
 * q = -128: 2 x (-118) - 100 = -336, clamped to -100 (real 0).
 * q = 0: 2 x 10 - 100 = -80 (real 1).
 * q = 50: 2 x 60 - 100 = 20 (real 6, the bound).
 * q = 51: 22, clamped to 20.
 */
Test(relu, int8_requantizes_then_clamps)
{
	static const int8_t in[] = { -128, -10, 0, 50, 51, 127 };
	static const int8_t want[] = { -100, -100, -80, 20, 20, 20 };
	static const int32_t dims[] = { 6 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   in, 0.1f, -10);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 0.05f, -100);

	cr_assert_eq(kh_run(&h, unary_node("relu6_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, want, COUNT(want));
}

/*
 * uint8 RELU_N1_TO_1, scale 0.02 zero point 128 in, scale 0.01 zero point
 * 100 out: the clamp is [100 - 100, 100 + 100] = [0, 200], and each step
 * doubles.  q = 0: 2 x (-128) + 100 = -156 -> 0; q = 120: -16 + 100 = 84;
 * q = 129: 102; q = 255: 354 -> 200.
 */
Test(relu, uint8_relu_n1_to_1)
{
	static const uint8_t in[] = { 0, 120, 128, 129, 255 };
	static const uint8_t want[] = { 0, 84, 100, 102, 200 };
	static const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 1, dims,
					   in, 0.02f, 128);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 1,
					    dims, NULL, 0.01f, 100);

	cr_assert_eq(kh_run(&h, unary_node("relu_n1_to_1_quantized", NULL, 0,
					   input, output)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(output, want, COUNT(want));
}

/*
 * int16 RELU with the same scale in and out (multiplier 1): negative
 * values become the zero point 0, others pass; RELU's unbounded top is
 * the type's limit.  A rescale of 3 (scale 3e-4 to 1e-4) saturates:
 * 20000 x 3 = 60000 -> 32767; 5 x 3 = 15.
 */
Test(relu, int16_passes_positives_and_saturates)
{
	static const int16_t in[] = { -32768, -1, 0, 5, 20000 };
	static const int16_t same[] = { 0, 0, 0, 5, 20000 };
	static const int16_t tripled[] = { 0, 0, 0, 15, 32767 };
	static const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 3e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 3e-4f, 0);

	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, same, COUNT(same));
	output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1, dims, NULL, 1e-4f,
			      0);
	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, tripled, COUNT(tripled));
}

Test(relu, empty_tensors_run)
{
	static const int32_t dims[] = { 0, 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2, dims,
					   NULL, 0.1f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					    dims, NULL, 0.1f, 0);

	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
}

static const int32_t dims4[] = { 4 };

/* TFLite has no int16 RELU_N1_TO_1. */
Test(relu, rejects_a_type_the_op_lacks)
{
	opver_tensor *i16 = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims4,
					 NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_n1_to_1_quantized", NULL, 0,
					  i16, i16),
			   OPVER_ERROR_UNSUPPORTED, "input 'in' has type INT16");
}

Test(relu, rejects_an_output_of_another_type)
{
	opver_tensor *i8 = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);
	opver_tensor *u8 = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 1, dims4,
					NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, i8, u8),
			   OPVER_ERROR_UNSUPPORTED, "output 'out'");
}

Test(relu, rejects_an_output_of_another_shape)
{
	static const int32_t dims5[] = { 5 };
	opver_tensor *i8 = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);
	opver_tensor *longer = kh_quantized(&h, "longer", OPVER_TYPE_INT8, 1,
					    dims5, NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, i8,
					  longer),
			   OPVER_ERROR_INVALID_MODEL, "shape");
}

Test(relu, rejects_unquantized_integers)
{
	opver_tensor *plain = kh_tensor(&h, "plain", OPVER_TYPE_INT8, 1, dims4,
					NULL);
	opver_tensor *i8 = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, plain,
					  i8),
			   OPVER_ERROR_INVALID_MODEL, "not quantized");
}

Test(relu, rejects_a_missing_input)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1, dims4,
				      NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "relu_float32"), 1,
				       NULL, 0, 0, NULL, KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "one input");
}

/* ------------------------------------------------ lookup-table activations */

TestSuite(lut, .init = setup, .fini = teardown);

/* Runs kernel `name` on a 1-D quantized tensor of `count` elements. */
static opver_tensor *run_quantized(const char *name, const void *params,
				   size_t params_size, opver_type type,
				   const void *in, int32_t count,
				   float in_scale, int32_t in_zero,
				   float out_scale, int32_t out_zero)
{
	const int32_t dims[] = { count };
	opver_tensor *input = kh_quantized(&h, "in", type, 1, dims, in,
					   in_scale, in_zero);
	opver_tensor *output = kh_quantized(&h, "out", type, 1, dims, NULL,
					    out_scale, out_zero);

	cr_assert_eq(kh_run(&h, unary_node(name, params, params_size, input,
					   output)),
		     OPVER_OK, "%s: %s", name, h.errors);
	return output;
}

/*
 * int8 LOGISTIC, input scale 1/16: x = q / 16, output q = round(256 / (1 +
 * exp(-x))) - 128.  x = 0: 128 - 128 = 0; x = 1: round(187.15) - 128 = 59;
 * x = -1: round(68.85) - 128 = -59; x = 7.94: round(255.9) = 256 -> 128,
 * clamped to 127; x = -8: round(0.086) - 128 = -128.
 */
Test(lut, int8_logistic_by_hand)
{
	static const int8_t in[] = { 0, 16, -16, 127, -128 };
	static const int8_t want[] = { 0, 59, -59, 127, -128 };

	kh_expect_int8s(run_quantized("logistic_lut8", NULL, 0,
				      OPVER_TYPE_INT8, in, 5, 1.0f / 16, 0,
				      1.0f / 256, -128),
			want, COUNT(want));
}

/*
 * uint8 TANH, input scale 0.05 zero point 128, output scale 1/128 zero
 * point 128: x = 1 gives round(128 tanh 1 = 97.48) + 128 = 225, x = -1 31;
 * x = 6.35 gives 128 + 128 = 256 -> 255; x = -6.4 gives 0.
 */
Test(lut, uint8_tanh_by_hand)
{
	static const uint8_t in[] = { 128, 148, 108, 255, 0 };
	static const uint8_t want[] = { 128, 225, 31, 255, 0 };

	expect_uint8s(run_quantized("tanh_lut8", NULL, 0, OPVER_TYPE_UINT8, in,
				    5, 0.05f, 128, 1.0f / 128, 128),
		      want, COUNT(want));
}

/*
 * int8 ELU, input scale 0.1, output scale 0.05 zero point -50: x = -12.8
 * gives about -1 = -20 steps -> -70; x = -1 gives (e^-1 - 1) / 0.05 =
 * -12.64 -> -13 -> -63; x = 1 gives 20 -> -30; x = 12.7 gives 254 - 50,
 * clamped to 127.
 */
Test(lut, int8_elu_by_hand)
{
	static const int8_t in[] = { -128, -10, 0, 10, 127 };
	static const int8_t want[] = { -70, -63, -50, -30, 127 };

	kh_expect_int8s(run_quantized("elu_lut8", NULL, 0, OPVER_TYPE_INT8, in,
				      5, 0.1f, 0, 0.05f, -50),
			want, COUNT(want));
}

/*
 * uint8 GELU, input scale 0.05 zero point 100, output scale 0.03 zero
 * point 20.  Exact: gelu(1) = 0.84134 = 28.04 steps -> 48; gelu(-1) =
 * -0.15866 = -5.29 -> 15; gelu(-5) = -1.4e-6 -> 20; gelu(7.75) = 258.3
 * steps -> 255.  The tanh form gives 28.04 and -5.29 steps too here, and
 * -7.6e-6 at -5: the same outputs.
 */
Test(lut, uint8_gelu_by_hand_both_forms)
{
	static const uint8_t in[] = { 100, 120, 80, 0, 255 };
	static const uint8_t want[] = { 20, 48, 15, 20, 255 };

	for (int32_t approximate = 0; approximate <= 1; approximate++) {
		const opver_gelu_params params = { .approximate = approximate };

		expect_uint8s(run_quantized("gelu_lut8", &params,
					    sizeof(params), OPVER_TYPE_UINT8,
					    in, 5, 0.05f, 100, 0.03f, 20),
			      want, COUNT(want));
	}
}

/* Every int8 input of LOGISTIC against the double-precision function
 * with the same rounding: the float table may differ only where the
 * scaled value lies within float error of a half step, which none of
 * these inputs do (checked: the exact value is never within 1e-3 of a
 * half). */
Test(lut, int8_logistic_every_input_matches_double)
{
	int8_t in[256], want[256];
	const float scale = 0.0625f;

	for (int i = 0; i < 256; i++) {
		const double x = scale * (i - 128);
		const double steps = 256.0 / (1.0 + exp(-x));
		const double frac = steps - floor(steps);

		in[i] = (int8_t)(i - 128);
		cr_assert(fabs(frac - 0.5) > 1e-3, "input %d is a tie", i);
		want[i] = (int8_t)fmin(round(steps) - 128, 127);
	}
	kh_expect_int8s(run_quantized("logistic_lut8", NULL, 0,
				      OPVER_TYPE_INT8, in, 256, scale, 0,
				      1.0f / 256, -128),
			want, 256);
}

Test(lut, float32_against_libm_in_double)
{
	static const float in[] = { -6.0f, -1.0f, -0.25f, 0.0f, 0.5f, 3.0f };
	const int32_t dims[] = { COUNT(in) };
	static const char *const kernels[] = {
		"logistic_float32", "tanh_float32", "elu_float32",
		"gelu_float32",
	};

	for (size_t k = 0; k < COUNT(kernels); k++) {
		opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1,
						dims, in);
		opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
						 1, dims, NULL);
		const opver_gelu_params exact = { 0 };
		const float *got = output->data;

		cr_assert_eq(kh_run(&h, unary_node(kernels[k], &exact,
						   k == 3 ? sizeof(exact) : 0,
						   input, output)),
			     OPVER_OK, "%s: %s", kernels[k], h.errors);
		for (size_t i = 0; i < COUNT(in); i++) {
			const double x = in[i];
			const double want =
				k == 0	 ? 1.0 / (1.0 + exp(-x))
				: k == 1 ? tanh(x)
				: k == 2 ? (x < 0 ? expm1(x) : x)
					 : 0.5 * x * (1.0 + erf(x / sqrt(2.0)));

			cr_expect(fabs(got[i] - want) <= 1e-6,
				  "%s(%g): got %.9g, want %.9g", kernels[k], x,
				  (double)got[i], want);
		}
	}
}

Test(lut, float32_gelu_approximate_is_the_tanh_form)
{
	static const float in[] = { -1.0f, 1.0f };
	static const float tanh_form[] = { -0.158808009f, 0.841191991f };
	const opver_gelu_params params = { .approximate = 1 };
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims,
					in);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1,
					 dims, NULL);
	const float *got = output->data;

	cr_assert_eq(kh_run(&h, unary_node("gelu_float32", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	for (int i = 0; i < 2; i++)
		cr_expect(fabsf(got[i] - tanh_form[i]) <= 1e-6f,
			  "got %.9g, want %.9g", (double)got[i],
			  (double)tanh_form[i]);
}

Test(lut, logistic_needs_an_output_scale_of_1_256)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   NULL, 0.1f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 1.0f / 128, -128);

	kh_expect_rejected(&h, unary_node("logistic_lut8", NULL, 0, input,
					  output),
			   OPVER_ERROR_INVALID_MODEL, "exactly 1/256");
}

/* TFLite's ELU takes no uint8. */
Test(lut, elu_takes_no_uint8)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 1, dims,
					   NULL, 0.1f, 128);

	kh_expect_rejected(&h, unary_node("elu_lut8", NULL, 0, input, input),
			   OPVER_ERROR_UNSUPPORTED, "type UINT8");
}

/* ------------------------------------------------- int16 LOGISTIC, TANH */

TestSuite(sigmoid16, .init = setup, .fini = teardown);

#define INT16_VALUES 65536

/* Every int16 value, from -32768 up. */
static const int16_t *every_int16(void)
{
	static int16_t values[INT16_VALUES];

	for (int32_t i = 0; i < INT16_VALUES; i++)
		values[i] = (int16_t)(i - 32768);
	return values;
}

/* Runs int16 `name` on every int16 input at `in_scale` (output scale
 * 2^-15) and expects each output within `allowance` steps of
 * 32768 f(x), clamped to the int16 range, computed in double. */
static void expect_every_input_near(const char *name, float in_scale,
				    double (*f)(double), int allowance)
{
	const opver_tensor *out = run_quantized(
		name, NULL, 0, OPVER_TYPE_INT16, every_int16(), INT16_VALUES,
		in_scale, 0, 1.0f / 32768, 0);
	const int16_t *got = out->data;
	int worst = 0;

	for (int32_t i = 0; i < INT16_VALUES; i++) {
		const double x = (double)in_scale * (i - 32768);
		const double want = fmin(fmax(32768.0 * f(x), -32768.0),
					 32767.0);
		const int off = (int)ceil(fabs(got[i] - want) - 1e-9);

		if (off > worst)
			worst = off;
		cr_expect(off <= allowance,
			  "%s scale %g input %d: got %d, want %.3f", name,
			  (double)in_scale, (int)(i - 32768), got[i], want);
	}
	cr_log_info("%s scale %g: at most %d step(s) off", name,
		    (double)in_scale, worst);
}

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

/*
 * Input scale 2^-12 is TFLite's fixed-point path: gemmlowp's logistic and
 * tanh in 16 bits.  Their Newton-Raphson division ends in Q2.13, whose
 * unit is 2 output steps of 2^-15 for logistic (the result read as Q1.14)
 * and 4 for tanh (shifted left by 2); its three iterations round each
 * product to that unit, and the exp before them rounds in Q0.15.  The
 * allowance is 4 Q2.13 units: 8 steps for logistic, 16 for tanh (measured
 * over every input: at most 7 and 12).
 */
Test(sigmoid16, fixed_point_path_within_4_units_of_q2_13)
{
	expect_every_input_near("logistic_int16", 0x1p-12f, sigmoid, 8);
	expect_every_input_near("tanh_int16", 0x1p-12f, tanh, 16);
	/* TANH's 2^-11 doubles the input into Q3.12, saturating. */
	expect_every_input_near("tanh_int16", 0x1p-11f, tanh, 16);
}

/*
 * Other scales take the table path: the input rescaled by an integer
 * multiplier of at least 2^14 (relative error below 2^-14), then linear
 * interpolation between entries 1/24 apart of a sigmoid table in 0.16
 * (entries within 2 of the exact 65536 sigmoid): the interpolation's
 * error is at most (1/24)^2 / 8 max|sigmoid''| = 2.1e-5 (0.7 step of
 * 2^-15), the entries' 1 step, the multiplier's max |x sigmoid'(x)|
 * 2^-14 = 0.45 step, the output's rounding 0.5.  TANH, at twice the
 * argument and twice the output, doubles the first two.  The allowance
 * is 3 steps for LOGISTIC, 4 for TANH (measured: at most 2 and 3).
 */
Test(sigmoid16, table_path_within_a_few_steps_of_double)
{
	static const float scales[] = { 1.5e-4f, 0x1p-11f, 0x1p-10f, 3e-3f };

	for (size_t i = 0; i < COUNT(scales); i++) {
		/* 2^-11 is the fixed-point path for TANH. */
		if (scales[i] != 0x1p-11f)
			expect_every_input_near("tanh_int16", scales[i], tanh,
						4);
		expect_every_input_near("logistic_int16", scales[i], sigmoid,
					3);
	}
}

/*
 * The exact points.  Fixed point: logistic(0) is 1/2 = 16384 and tanh(0)
 * 0, exactly, by gemmlowp's special case.  TANH at scale 2^-11 doubles the
 * input saturating: every input from 16384 up reads as 32767 (7.9998), so
 * all give the same output, as do -16384 and below (-8).
 */
Test(sigmoid16, fixed_point_exact_points)
{
	static const int16_t zero[] = { 0 };
	static const int16_t high[] = { 16384, 20000, 32767 };
	static const int16_t low[] = { -16384, -20000, -32768 };
	const int16_t *got;

	got = run_quantized("logistic_int16", NULL, 0, OPVER_TYPE_INT16, zero,
			    1, 0x1p-12f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect_eq(got[0], 16384);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, zero, 1,
			    0x1p-12f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect_eq(got[0], 0);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, high, 3,
			    0x1p-11f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect(got[0] == got[1] && got[1] == got[2], "%d %d %d", got[0],
		  got[1], got[2]);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, low, 3,
			    0x1p-11f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect(got[0] == got[1] && got[1] == got[2], "%d %d %d", got[0],
		  got[1], got[2]);
}

/*
 * The table path's saturation, at input scale 2^-10: the multiplier is
 * 12 * 2^11 with shift 11, so the table argument is exactly 12 q (units
 * of 1/12288).  TANH's table (of sigmoid at 2x, steps of 256 units) ends
 * at 255 * 256 = 65280 units, q = 5440: from there the sigmoid is 65535 /
 * 65536 and tanh 2 * that - 1 = 32767 steps of 2^-15 exactly: 32767, and
 * -32767 mirrored (never -32768).  Just inside, q = +-5439 (65268 units)
 * gives entry 254 (65534) plus 244/256 of its step of 1 to entry 255:
 * 32766.95 steps, rounded to the same 32767 and -32767.  LOGISTIC's
 * table (steps of 512 units) ends at 130560 units, q = 10880: 32767
 * above, and below -10880 the mirrored 1 - 32767 / 32768, 1 step.
 */
Test(sigmoid16, table_path_saturation_points)
{
	static const int16_t tanh_in[] = { 5439, 5440, 32767,
					   -5439, -5440, -32768 };
	static const int16_t tanh_want[] = { 32767, 32767, 32767,
					     -32767, -32767, -32767 };
	static const int16_t logistic_in[] = { 10880, 32767, -10880, -32768 };
	static const int16_t logistic_want[] = { 32767, 32767, 1, 1 };

	kh_expect_int16s(run_quantized("tanh_int16", NULL, 0,
				       OPVER_TYPE_INT16, tanh_in, 6, 0x1p-10f,
				       0, 1.0f / 32768, 0),
			 tanh_want, COUNT(tanh_want));
	kh_expect_int16s(run_quantized("logistic_int16", NULL, 0,
				       OPVER_TYPE_INT16, logistic_in, 4,
				       0x1p-10f, 0, 1.0f / 32768, 0),
			 logistic_want, COUNT(logistic_want));
}

/* An int16 node of kernel `name` with the given quantization, expected
 * to be rejected with `status` and `text`. */
static void expect_int16_rejected(const char *name, float in_scale,
				  int32_t in_zero, float out_scale,
				  int32_t out_zero, opver_status status,
				  const char *text)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   NULL, in_scale, in_zero);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, out_scale, out_zero);

	kh_expect_rejected(&h, unary_node(name, NULL, 0, input, output),
			   status, text);
}

Test(sigmoid16, rejects_a_logistic_input_zero_point)
{
	expect_int16_rejected("logistic_int16", 0x1p-12f, 1, 1.0f / 32768, 0,
			      OPVER_ERROR_INVALID_MODEL, "zero points of 0");
}

Test(sigmoid16, rejects_a_tanh_output_zero_point)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 1.0f / 32768, -1,
			      OPVER_ERROR_INVALID_MODEL, "zero points of 0");
}

Test(sigmoid16, rejects_a_tanh_output_scale_of_2_to_the_minus_14)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 1.0f / 16384, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

Test(sigmoid16, rejects_a_tanh_output_scale_off_a_power_of_two)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 3e-5f, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

/* LOGISTIC wants 1/32768 exactly; TANH a power of two near it (below). */
Test(sigmoid16, rejects_a_logistic_output_scale_near_1_32768)
{
	expect_int16_rejected("logistic_int16", 0x1p-12f, 0,
			      1.0f / 32768 * 1.0001f, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

/* Past 65535 / 12288, TFLite's q * multiplier overflows int32. */
Test(sigmoid16, rejects_an_input_scale_whose_rescale_overflows)
{
	expect_int16_rejected("logistic_int16", 6.0f, 0, 1.0f / 32768, 0,
			      OPVER_ERROR_UNSUPPORTED, "input scales from");
}

Test(sigmoid16, tanh_takes_an_output_scale_within_tflite_tolerance)
{
	static const int16_t in[] = { 4096 };
	const int16_t *got = run_quantized("tanh_int16", NULL, 0,
					   OPVER_TYPE_INT16, in, 1, 0x1p-12f,
					   0, 1.0f / 32768 * 1.0001f, 0)
				     ->data;

	/* tanh(1) = 0.76159 = 24956.0 steps of 2^-15, within the fixed-point
	 * path's allowance above. */
	cr_expect(abs(got[0] - 24956) <= 16, "got %d", got[0]);
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(sigmoid16, kernels_cover_versions_1_to_3)
{
	static const char *const kernels[] = {
		"logistic_float32", "logistic_lut8", "logistic_int16",
		"tanh_float32",	    "tanh_lut8",     "tanh_int16",
	};

	for (size_t i = 0; i < COUNT(kernels); i++) {
		const opver_kernel *k = kh_kernel(&h, kernels[i]);

		cr_expect_eq(k->min_version, 1, "%s", kernels[i]);
		cr_expect_eq(k->max_version, 3, "%s", kernels[i]);
	}
}

/* ------------------------------------------------------------ LEAKY_RELU */

TestSuite(leaky_relu, .init = setup, .fini = teardown);

/*
 * int8, scale 0.1 in and out: steps at or above the zero point pass
 * (identity multiplier 1), those below are alpha x (q - 0), rounded half
 * away from zero: alpha 0.25: -9 -> -2.25 -> -2, -50 -> -12.5 -> -13,
 * -128 -> -32; alpha 3: -9 -> -27, -50 -> -150, clamped to -128; alpha
 * -0.5: -9 -> 4.5 -> 5, -6 -> 3.
 */
Test(leaky_relu, int8_by_hand)
{
	static const int8_t in[] = { -128, -50, -9, -6, 0, 7, 127 };
	static const struct {
		float alpha;
		int8_t want[7];
	} cases[] = {
		{ 0.25f, { -32, -13, -2, -2, 0, 7, 127 } },
		{ 3.0f, { -128, -128, -27, -18, 0, 7, 127 } },
		{ -0.5f, { 64, 25, 5, 3, 0, 7, 127 } },
	};

	for (size_t i = 0; i < COUNT(cases); i++) {
		const opver_leaky_relu_params params = { cases[i].alpha };

		kh_expect_int8s(run_quantized("leaky_relu_quantized", &params,
					      sizeof(params), OPVER_TYPE_INT8,
					      in, 7, 0.1f, 0, 0.1f, 0),
				cases[i].want, 7);
	}
}

/* int16, scale 2e-4 in, 1e-4 out: positives double (saturating), alpha
 * 0.1 gives 0.2 per step below 0: -1000 -> -200. */
Test(leaky_relu, int16_by_hand)
{
	static const int16_t in[] = { -32768, -1000, 0, 1000, 20000 };
	static const int16_t want[] = { -6554, -200, 0, 2000, 32767 };
	const opver_leaky_relu_params params = { 0.1f };
	const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 2e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 1e-4f, 0);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_quantized", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, want, COUNT(want));
}

/*
 * TFLite computes the multipliers from its float scales and alpha in
 * float: a layer of TFLite Micro's SEANet (input scale 9.6937158e-4,
 * output 8.0922339e-4, alpha 0.3) gets 0.35936... as 1543487104 x 2^-32
 * in float but 1543487050 x 2^-32 in double.  For input -12005 the
 * doubling high multiply gives -12005 x m / 2^31 = -8628.500012 (float's
 * m), rounding to -8629 and halving, rounded, to -4315: TFLite's output;
 * double's m gives -8628.499711, so -8628 and -4314.
 */
Test(leaky_relu, int16_multipliers_computed_in_float)
{
	static const int16_t in[] = { -12005 };
	const opver_leaky_relu_params params = { 0.3f };
	const int32_t dims[] = { 1 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 9.693715837784111e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 8.092233911156654e-4f,
					    0);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_quantized", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, (const int16_t[]){ -4315 }, 1);
}

Test(leaky_relu, float32_by_hand)
{
	static const float in[] = { -2.0f, -0.5f, 0.0f, 3.0f };
	static const float want[] = { -0.4f, -0.1f, 0.0f, 3.0f };
	const opver_leaky_relu_params params = { 0.2f };
	const int32_t dims[] = { 4 };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims,
					in);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1,
					 dims, NULL);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_float32", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(output, want, 4);
}

/* ------------------------------------------------------------ HARD_SWISH */

TestSuite(hard_swish, .init = setup, .fini = teardown);

static double hard_swish_double(double x)
{
	return x * fmin(6.0, fmax(0.0, x + 3.0)) / 6.0;
}

/*
 * int8, scale 0.05 in and out: x = 5 (q 100) is above 3, so the output is
 * x itself, 100 (worked through the fixed point: hires 12800, preshift
 * 6400, reluish saturated to 32767, 6399 >> 6 rounded = 100); x = -5 is
 * below -3, output 0.  Every other input within one step of the real
 * function: the int16 fixed point loses a little.
 */
Test(hard_swish, int8_by_hand_and_within_a_step_of_the_function)
{
	int8_t in[256];
	const int8_t *got;
	opver_tensor *output;

	for (int i = 0; i < 256; i++)
		in[i] = (int8_t)(i - 128);
	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_INT8, in, 256, 0.05f, 0, 0.05f, 0);
	got = output->data;
	cr_expect_eq(got[128 + 100], 100);
	cr_expect_eq(got[128 - 100], 0);
	cr_expect_eq(got[128], 0);
	for (int i = 0; i < 256; i++) {
		const double want = fmin(
			127.0, round(hard_swish_double(0.05 * in[i]) / 0.05));

		cr_expect(fabs(got[i] - want) <= 1.0, "q %d: got %d, want %g",
			  in[i], got[i], want);
	}
}

/* A wide uint8 input (scale 0.5: the reluish rescale shifts left) stays
 * within a step of the function too. */
Test(hard_swish, uint8_wide_input_within_a_step)
{
	uint8_t in[256];
	const uint8_t *got;
	opver_tensor *output;

	for (int i = 0; i < 256; i++)
		in[i] = (uint8_t)i;
	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_UINT8, in, 256, 0.5f, 128, 0.25f, 20);
	got = output->data;
	for (int i = 0; i < 256; i++) {
		const double want = fmin(
			255.0,
			fmax(0.0, round(hard_swish_double(0.5 * (i - 128)) /
					0.25) +
					  20));

		cr_expect(fabs(got[i] - want) <= 1.0, "q %d: got %d, want %g",
			  i, got[i], want);
	}
}

Test(hard_swish, rejects_an_output_scale_below_input_scale_over_128)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   NULL, 1.0f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 1.0f / 512, 0);

	kh_expect_rejected(&h, unary_node("hard_swish_quantized", NULL, 0,
					  input, output),
			   OPVER_ERROR_INVALID_MODEL, "128 x the output scale");
}

/* ----------------------------------------------------------------- PRELU */

TestSuite(prelu, .init = setup, .fini = teardown);

static const int32_t dims2x2[] = { 2, 2 };
static const int32_t dims2[] = { 2 };

/* Alpha [2] broadcast along the rows of a [2, 2] input. */
Test(prelu, float32_broadcasts_alpha_per_channel)
{
	static const float in[] = { -2.0f, 3.0f, -4.0f, -1.0f };
	static const float alpha[] = { 0.5f, -1.0f };
	static const float want[] = { -1.0f, 3.0f, -2.0f, 1.0f };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 2,
					dims2x2, in);
	opver_tensor *a = kh_tensor(&h, "alpha", OPVER_TYPE_FLOAT32, 1, dims2,
				    alpha);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2,
					 dims2x2, NULL);

	a->is_constant = true;
	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "prelu_float32"), 1,
					NULL, 0, KH_TENSORS(input, a),
					KH_TENSORS(output))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(output, want, 4);
}

/*
 * int8, input and output scale 0.1, alpha {50, -100} at scale 0.01 (0.5
 * and -1): the negative branch multiplies x by alpha's step and rescales
 * by 0.1 x 0.01 / 0.1 = 0.01.  -10 x 50 x 0.01 = -5; 4 passes; -6 x 50 x
 * 0.01 = -3; -128 x -100 x 0.01 = 128, clamped to 127.
 */
Test(prelu, int8_by_hand)
{
	static const int8_t in[] = { -10, 4, -6, -128 };
	static const int8_t alpha[] = { 50, -100 };
	static const int8_t want[] = { -5, 4, -3, 127 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2,
					   dims2x2, in, 0.1f, 0);
	opver_tensor *a = kh_quantized(&h, "alpha", OPVER_TYPE_INT8, 1, dims2,
				       alpha, 0.01f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					    dims2x2, NULL, 0.1f, 0);

	a->is_constant = true;
	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "prelu_quantized"),
					1, NULL, 0, KH_TENSORS(input, a),
					KH_TENSORS(output))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, want, 4);
}

/* The output must have the input's shape: alpha does not broadcast the
 * input. */
Test(prelu, rejects_an_input_broadcast_along_alpha)
{
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims2,
					NULL);
	opver_tensor *a = kh_tensor(&h, "alpha", OPVER_TYPE_FLOAT32, 2,
				    dims2x2, NULL);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2,
					 dims2x2, NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "prelu_float32"), 1,
				       NULL, 0, KH_TENSORS(input, a),
				       KH_TENSORS(output)),
			   OPVER_ERROR_INVALID_MODEL, "shape of input 'in'");
}
