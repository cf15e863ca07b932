/*
 * test_reference_sequence_lstm_int8.c - the reference plugin's
 * full-integer UNIDIRECTIONAL_SEQUENCE_LSTM through the kernel harness,
 * with values worked out by hand, and the refusals of its prepare.
 *
 * One cell, one input and one output.  The input is at 1/128 and the
 * weights at 1/32, so a gate's accumulator (input x weight, plus the raw
 * int32 bias) is already Q3.12 (scale 2^-12, the gates' without layer
 * norm): the rescale is exactly 1.  Every weight is 0 but the biases, so
 * the input, forget and output gates are sigmoid(0) = 0.5 (16384 in
 * Q0.15) and the cell gate tanh(bias / 4096).  The cell state is at
 * 2^-11, the output state and hidden state at 1/128, zero point 0.
 */
#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(sequence_lstm_int8, .init = setup, .fini = teardown);

/* TFLite's input positions (20, no layer norm). */
enum { INPUT = 0, W_INPUT = 1, R_INPUT = 5, P_INPUT = 9, B_INPUT = 12,
       PROJECTION = 16, PROJECTION_BIAS = 17, OUTPUT_STATE = 18,
       CELL_STATE = 19, NUM_INPUTS = 20 };
enum { GATE_CELL = 2, NUM_INTERMEDIATES = 5 };

typedef struct lstm8 {
	opver_tensor *in[NUM_INPUTS];
	opver_tensor *output;
	opver_tensor *intermediates[NUM_INTERMEDIATES];
	opver_node *node;
} lstm8;

static opver_tensor *constant(const char *name, opver_type type,
			      int32_t rank, const int32_t *dims,
			      const void *data, float scale)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	t->is_constant = true;
	kh_quantize(&h, t, scale, 0);
	return t;
}

/* The LSTM above over an input [1, time, 1], the cell gate's bias
 * `cell_bias`; its intermediates Q3.12 gates and the hidden state. */
static lstm8 lstm8_base(int32_t time, int32_t cell_bias)
{
	static const int8_t zero8 = 0;
	const int32_t biases[4] = { 0, 0, cell_bias, 0 };
	lstm8 l;

	memset(&l, 0, sizeof(l));
	l.in[INPUT] = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				KH_DIMS(1, time, 1), NULL);
	kh_quantize(&h, l.in[INPUT], 1.0f / 128, 0);
	for (int g = 0; g < 4; g++) {
		l.in[W_INPUT + g] = constant("w", OPVER_TYPE_INT8,
					     KH_DIMS(1, 1), &zero8, 1.0f / 32);
		l.in[R_INPUT + g] = constant("r", OPVER_TYPE_INT8,
					     KH_DIMS(1, 1), &zero8, 1.0f / 32);
		l.in[B_INPUT + g] = constant("b", OPVER_TYPE_INT32, KH_DIMS(1),
					     &biases[g], 1.0f / 4096);
	}
	l.in[OUTPUT_STATE] = kh_tensor(&h, "output_state", OPVER_TYPE_INT8,
				       KH_DIMS(1, 1), NULL);
	kh_quantize(&h, l.in[OUTPUT_STATE], 1.0f / 128, 0);
	l.in[CELL_STATE] = kh_tensor(&h, "cell_state", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1), NULL);
	kh_quantize(&h, l.in[CELL_STATE], 1.0f / 2048, 0);
	l.output = kh_tensor(&h, "output", OPVER_TYPE_INT8,
			     KH_DIMS(1, time, 1), NULL);
	kh_quantize(&h, l.output, 1.0f / 128, 0);
	for (int i = 0; i < NUM_INTERMEDIATES; i++) {
		l.intermediates[i] = kh_tensor(&h, "intermediate",
					       i < 4 ? OPVER_TYPE_INT16
						     : OPVER_TYPE_INT8,
					       KH_DIMS(1), NULL);
		kh_quantize(&h, l.intermediates[i],
			    i < 4 ? 1.0f / 4096 : 1.0f / 128, 0);
	}
	return l;
}

/* The node of `l`, with its intermediates. */
static opver_node *lstm8_node(lstm8 *l, const opver_sequence_lstm_params *p)
{
	l->node = kh_node(&h, kh_kernel(&h, "sequence_lstm_int8"), 1, p,
			  sizeof(*p), NUM_INPUTS, l->in, 1, &l->output);
	l->node->num_intermediates = NUM_INTERMEDIATES;
	l->node->intermediates = l->intermediates;
	return l->node;
}

static void lstm8_invoke(const lstm8 *l, const int8_t *y)
{
	const int8_t *got = l->output->data;

	cr_assert_eq(kh_invoke(&h, l->node), OPVER_OK, "%s", h.errors);
	for (size_t i = 0; i < opver_tensor_elements(l->output); i++)
		cr_expect_eq(got[i], y[i], "step %zu: got %d, expected %d", i,
			     got[i], y[i]);
}

static const opver_sequence_lstm_params tanh_params = {
	OPVER_ACTIVATION_TANH, 0.0f, 0.0f, 0, 0, 0 };

/*
 * Cell gate tanh(4096 / 4096) = 0.761594, each step adding half of it to
 * half the cell state: c1 = 0.380797, 780 in Q4.11 (16384 x g / 2^19);
 * the output h = 0.5 tanh(c) at 1/128: 0.5 x tanh(780 / 2048) x 128 =
 * 23.26, so 23.  c2 = 780 / 2 + 780 = 1170, h = 0.5 tanh(0.571289) x 128
 * = 33.04.  The next invoke goes on: c3 = 585 + 780 = 1365, h = 37.29;
 * c4 = 682.5 rounded away from 0 + 780 = 1463, h = 39.26.
 */
Test(sequence_lstm_int8, states_carry_over_steps_and_invokes)
{
	lstm8 l = lstm8_base(2, 4096);

	cr_assert_eq(kh_prepare(&h, lstm8_node(&l, &tanh_params)), OPVER_OK,
		     "%s", h.errors);
	lstm8_invoke(&l, (const int8_t[]){ 23, 33 });
	cr_expect_eq(*(const int16_t *)l.in[CELL_STATE]->data, 1170);
	lstm8_invoke(&l, (const int8_t[]){ 37, 39 });
	cr_expect_eq(*(const int16_t *)l.in[CELL_STATE]->data, 1463);
	cr_expect_eq(*(const int8_t *)l.in[OUTPUT_STATE]->data, 39);
}

/* cell_clip 0.5 is 1024 in Q4.11: c2 = 1170 is clipped to it, and h =
 * 0.5 tanh(0.5) x 128 = 29.58, so 30. */
Test(sequence_lstm_int8, cell_clip_quantized_to_the_cell_scale)
{
	const opver_sequence_lstm_params p = { OPVER_ACTIVATION_TANH, 0.5f,
					       0.0f, 0, 0, 0 };
	lstm8 l = lstm8_base(2, 4096);

	cr_assert_eq(kh_prepare(&h, lstm8_node(&l, &p)), OPVER_OK, "%s",
		     h.errors);
	lstm8_invoke(&l, (const int8_t[]){ 23, 30 });
	cr_expect_eq(*(const int16_t *)l.in[CELL_STATE]->data, 1024);
}

Test(sequence_lstm_int8, refuses_a_node_without_its_intermediates)
{
	lstm8 l = lstm8_base(1, 0);
	opver_node *node = lstm8_node(&l, &tanh_params);

	node->num_intermediates = 4;
	kh_expect_rejected(&h, node, OPVER_ERROR_INVALID_MODEL,
			   "from 5 intermediate tensors; the node has 4");
}

/* A 2.3 core's node ends before the intermediates: the kernel must not
 * read past it, and refuses the node. */
Test(sequence_lstm_int8, refuses_a_node_of_a_core_before_abi_2_4)
{
	lstm8 l = lstm8_base(1, 0);
	opver_node *node = lstm8_node(&l, &tanh_params);

	node->struct_size = (uint32_t)offsetof(opver_node, num_intermediates);
	kh_expect_rejected(&h, node, OPVER_ERROR_INVALID_MODEL,
			   "from 5 intermediate tensors; the node has 0");
}

Test(sequence_lstm_int8, refuses_a_cell_scale_not_a_power_of_two)
{
	lstm8 l = lstm8_base(1, 0);

	kh_quantize(&h, l.in[CELL_STATE], 1.0f / 2000, 0);
	kh_expect_rejected(&h, lstm8_node(&l, &tanh_params),
			   OPVER_ERROR_UNSUPPORTED,
			   "must have a power-of-two scale from 2^-15 to 2^-11");
}

Test(sequence_lstm_int8, refuses_asymmetric_weights_and_other_activations)
{
	lstm8 l = lstm8_base(1, 0);
	const opver_sequence_lstm_params relu = { OPVER_ACTIVATION_RELU, 0.0f,
						  0.0f, 0, 0, 0 };

	kh_expect_rejected(&h, lstm8_node(&l, &relu), OPVER_ERROR_UNSUPPORTED,
			   "cell activation must be TANH");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_quantize(&h, l.in[W_INPUT + GATE_CELL], 1.0f / 32, 3);
	kh_expect_rejected(&h, lstm8_node(&l, &tanh_params),
			   OPVER_ERROR_UNSUPPORTED,
			   "symmetric weights (zero point 0)");
}
