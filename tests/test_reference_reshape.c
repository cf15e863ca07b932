/*
 * test_reference_reshape.c - the reference plugin's RESHAPE kernel run
 * from the built reference.so through the kernel harness: the new shape
 * from the option, from a constant or run-time shape tensor, or from the
 * output alone; -1 inferred; every fixed-size element type; an output
 * sharing the input's memory; and what prepare rejects and what it says.
 */
#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

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

TestSuite(reshape, .init = setup, .fini = teardown);

/* new_shape option of `count` entries. */
static opver_reshape_params new_shape(int32_t count, const int32_t *dims)
{
	opver_reshape_params params = { .num_dims = count };

	memcpy(params.dims, dims, (size_t)count * sizeof(*dims));
	return params;
}

static opver_node *reshape_node(const opver_reshape_params *params,
				int32_t num_inputs,
				opver_tensor *const *inputs,
				opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, "reshape"), 1, params,
		       params != NULL ? sizeof(*params) : 0, num_inputs,
		       inputs, KH_TENSORS(output));
}

/* A constant INT32 shape tensor, as a converter stores it. */
static opver_tensor *constant_shape(int32_t count, const int32_t *dims)
{
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(count), dims);

	shape->is_constant = true;
	return shape;
}

static const float six[] = { 1, 2, 3, 4, 5, 6 };

static void expect_six(const opver_tensor *out)
{
	cr_expect_eq(memcmp(out->data, six, sizeof(six)), 0,
		     "the bytes must be copied unchanged");
}

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

Test(reshape, from_the_option)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 2), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 2, 3 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* -1 stands for 6 / (1 x 2) = 3. */
/* MobileNet-v1-quant's last RESHAPE: uint8 [1, 1, 1, 4] to [1, 4], its
 * quantization kept (the kernel copies the stored bytes). */
Test(reshape, uint8_bytes_are_copied)
{
	static const uint8_t q[] = { 0, 128, 200, 255 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(1, 1, 1, 4), q, 0.0039f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1, 4), NULL, 0.0039f, 0);
	opver_reshape_params p = new_shape(2, (const int32_t[]){ 1, 4 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(out->data, q, sizeof(q)), 0);
}

Test(reshape, infers_the_minus_one)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3, 2), NULL);
	opver_reshape_params p = new_shape(3, (int32_t[]){ 1, -1, 2 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* The shape tensor wins over a (here contradictory) option. */
Test(reshape, from_a_constant_shape_tensor)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 6), six);
	opver_tensor *shape = constant_shape(2, (int32_t[]){ -1, 3 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 3, 2 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in, shape), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* A shape computed at run time has no values at prepare, and a host
 * without set_output_dynamic (the harness's, as before ABI 2.4) keeps
 * the output's shape: its length is checked in prepare, and in invoke
 * the values, which give that shape. */
Test(reshape, from_a_run_time_shape_tensor)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(2), (int32_t[]){ 3, -1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	cr_assert_eq(kh_run(&h, reshape_node(NULL, KH_TENSORS(in, shape), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* The same with values that give another shape of as many elements:
 * refused in invoke, naming both, rather than copied under [3, 2]. */
Test(reshape, run_time_values_that_differ_from_the_kept_shape_are_refused)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(2), (int32_t[]){ 2, 3 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	cr_assert_neq(kh_run(&h, reshape_node(NULL, KH_TENSORS(in, shape), out)),
		      OPVER_OK);
	cr_assert(strstr(h.errors, "[3, 2]") != NULL &&
		  strstr(h.errors, "gives [2, 3]") != NULL, "%s", h.errors);
}

/* TFLite reads a shape tensor only when it is 1-D; a scalar one leaves
 * the option in charge. */
Test(reshape, ignores_a_shape_tensor_that_is_not_1d)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32, 0,
					NULL, (int32_t[]){ 99 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 2, -1 });

	shape->is_constant = true;
	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in, shape), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

Test(reshape, from_the_output_alone)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 1, 3), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(6), NULL);
	opver_reshape_params none = { .num_dims = 0 };

	cr_assert_eq(kh_run(&h, reshape_node(&none, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
	/* Again with no option at all and an omitted shape tensor; the
	 * output cleared so the copy must happen anew. */
	memset(out->data, 0, out->bytes);
	cr_assert_eq(kh_run(&h, reshape_node(NULL, KH_TENSORS(in, NULL),
					     out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* new_shape [0] is TFLite's legacy spelling of a scalar. */
Test(reshape, legacy_zero_shape_is_a_scalar)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT32,
				     KH_DIMS(1, 1), (int32_t[]){ 42 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_INT32, 0, NULL,
				      NULL);
	opver_reshape_params p = new_shape(1, (int32_t[]){ 0 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(*(int32_t *)out->data, 42);
}

Test(reshape, of_no_elements)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(0, 4), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 0, 5), NULL);
	/* -1 is undetermined with no element: the output's 0 stands */
	opver_reshape_params p = new_shape(3, (int32_t[]){ 2, -1, 5 });

	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
}

/* The planner may give the output the input's memory: nothing to copy,
 * and nothing may be lost. */
Test(reshape, in_place)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 2, 3 });

	out->data = in->data;
	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	expect_six(out);
}

/* Every fixed-size type is copied byte for byte. */
ParameterizedTestParameters(reshape, every_fixed_size_type)
{
	static opver_type types[] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT16,    OPVER_TYPE_INT32,
		OPVER_TYPE_UINT8,   OPVER_TYPE_INT64,      OPVER_TYPE_BOOL,
		OPVER_TYPE_INT16,   OPVER_TYPE_COMPLEX64,  OPVER_TYPE_INT8,
		OPVER_TYPE_FLOAT64, OPVER_TYPE_COMPLEX128, OPVER_TYPE_UINT64,
		OPVER_TYPE_UINT32,  OPVER_TYPE_UINT16,     OPVER_TYPE_BFLOAT16,
	};

	return cr_make_param_array(opver_type, types, COUNT(types));
}

ParameterizedTest(opver_type *type, reshape, every_fixed_size_type)
{
	unsigned char bytes[12 * 16];
	opver_tensor *in, *out;
	opver_reshape_params p = new_shape(3, (int32_t[]){ 2, 2, 3 });

	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (unsigned char)(i * 37 + 11);
	in = kh_tensor(&h, "input", *type, KH_DIMS(12), bytes);
	out = kh_tensor(&h, "output", *type, KH_DIMS(2, 2, 3), NULL);
	cr_assert_eq(kh_run(&h, reshape_node(&p, KH_TENSORS(in), out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(out->bytes, in->bytes);
	cr_expect_eq(memcmp(out->data, bytes, out->bytes), 0);
}

/* The manifest takes exactly the fixed-size types: not STRING,
 * RESOURCE, VARIANT or INT4. */
Test(reshape, signature_takes_the_fixed_size_types)
{
	const opver_kernel *k = kh_kernel(&h, "reshape");
	const uint32_t mask = k->signatures[0].inputs[0];

	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, 1);
	cr_expect_eq(k->op, OPVER_OP_RESHAPE);
	cr_expect_eq(k->signatures[0].output, mask);
	cr_expect_eq(k->signatures[0].inputs[1],
		     OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT);
	cr_expect(mask & OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32));
	cr_expect(mask & OPVER_TYPE_BIT(OPVER_TYPE_COMPLEX128));
	cr_expect(mask & OPVER_TYPE_BIT(OPVER_TYPE_BFLOAT16));
	cr_expect_not(mask & OPVER_TYPE_BIT(OPVER_TYPE_STRING));
	cr_expect_not(mask & OPVER_TYPE_BIT(OPVER_TYPE_RESOURCE));
	cr_expect_not(mask & OPVER_TYPE_BIT(OPVER_TYPE_VARIANT));
	cr_expect_not(mask & OPVER_TYPE_BIT(OPVER_TYPE_INT4));
	cr_expect_not(mask & OPVER_TYPE_BIT_ABSENT);
}

/* ------------------------------------------------------ prepare rejects */

Test(reshape, rejects_a_different_element_count)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 4), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 2, 4 });

	expect_rejected(reshape_node(&p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has 8 elements; input 'input' has 6");
}

Test(reshape, rejects_an_option_that_contradicts_the_output)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 3, 2 });

	expect_rejected(reshape_node(&p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [2, 3]; option new_shape gives [3, 2]");
}

/* 6 / 4 leaves no whole dimension for the -1. */
Test(reshape, rejects_a_minus_one_that_does_not_divide)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ -1, 4 });

	expect_rejected(reshape_node(&p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"option new_shape leaves 6 elements of input for its -1 (dimension 0) with 4 elements in the others");
}

Test(reshape, rejects_a_constant_shape_that_contradicts_the_output)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *shape = constant_shape(2, (int32_t[]){ 1, -1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	expect_rejected(reshape_node(NULL, KH_TENSORS(in, shape), out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [2, 3]; shape tensor 'shape' gives [1, 6]");
}

Test(reshape, rejects_a_shape_tensor_of_another_rank)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	expect_rejected(reshape_node(NULL, KH_TENSORS(in, shape), out),
			OPVER_ERROR_INVALID_MODEL,
			"shape tensor 'shape' has 3 dimensions; output 'output' has rank 2");
}

Test(reshape, rejects_two_minus_ones)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ -1, -1 });

	expect_rejected(reshape_node(&p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"option new_shape has dimension 1 of -1; only one dimension may be -1");
}

Test(reshape, rejects_another_negative_dimension)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_reshape_params p = new_shape(2, (int32_t[]){ 2, -3 });

	expect_rejected(reshape_node(&p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"option new_shape has dimension 1 of -3");
}

Test(reshape, rejects_a_different_output_type)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_INT32,
				      KH_DIMS(2, 3), NULL);

	expect_rejected(reshape_node(NULL, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has type INT32; RESHAPE keeps the type of input 'input', FLOAT32");
}

Test(reshape, rejects_three_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(6), six);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	expect_rejected(reshape_node(NULL, KH_TENSORS(in, NULL, in), out),
			OPVER_ERROR_INVALID_MODEL,
			"has 3 inputs and 1 outputs; RESHAPE takes an input, an optional shape tensor and one output");
}
