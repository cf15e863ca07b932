/*
 * test_reference_sequence_lstm.c - the reference plugin's
 * UNIDIRECTIONAL_SEQUENCE_LSTM through the kernel harness, over several
 * steps and invokes so that both states carry: the plain cell, CIFG with
 * peepholes, projection with its clip and cell_clip, and layer
 * normalization; and the refusals of prepare.  Gates are driven to exact
 * values: a pre-activation of 0 gives 0.5, of +-100 gives 1 and 0 (the
 * logistic function rounds there in float), and the cell activation is
 * RELU, so that every expected value is worked out by hand in the
 * comments.
 */
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

TestSuite(sequence_lstm, .init = setup, .fini = teardown);

/* kh_expect_rejected() for each of several nodes in one test: the
 * messages of the ones before are forgotten first. */
static void rejected(opver_node *node, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node, status, text);
}

/* TFLite's input positions. */
enum { INPUT = 0, W_INPUT = 1, W_FORGET, W_CELL, W_OUTPUT, R_INPUT,
       R_FORGET, R_CELL, R_OUTPUT, P_INPUT, P_FORGET, P_OUTPUT, B_INPUT,
       B_FORGET, B_CELL, B_OUTPUT, PROJECTION, PROJECTION_BIAS,
       OUTPUT_STATE, CELL_STATE, N_INPUT, N_FORGET, N_CELL, N_OUTPUT,
       NUM_INPUTS };

typedef struct lstm {
	opver_tensor *in[NUM_INPUTS];
	opver_tensor *output;
	opver_node *node;
} lstm;

/* A constant float32 vector (cols 0) or matrix; zeros when data is NULL. */
static opver_tensor *weight(const char *name, int32_t rows, int32_t cols,
			    const float *data)
{
	opver_tensor *t = cols > 0
		? kh_tensor(&h, name, OPVER_TYPE_FLOAT32, KH_DIMS(rows, cols),
			    data)
		: kh_tensor(&h, name, OPVER_TYPE_FLOAT32, KH_DIMS(rows), data);

	t->is_constant = true;
	return t;
}

/* An LSTM of `cells` cells and `outputs` outputs over an input [1, time,
 * 1], every gate's weights and bias zero (gates of 0.5) and both states
 * zero, with nothing optional: tests then set what they need. */
static lstm lstm_base(int32_t time, int32_t cells, int32_t outputs)
{
	lstm l;

	memset(&l, 0, sizeof(l));
	l.in[INPUT] = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				KH_DIMS(1, time, 1), NULL);
	for (int g = 0; g < 4; g++) {
		l.in[W_INPUT + g] = weight("w", cells, 1, NULL);
		l.in[R_INPUT + g] = weight("r", cells, outputs, NULL);
		l.in[B_INPUT + g] = weight("b", cells, 0, NULL);
	}
	l.in[OUTPUT_STATE] = kh_tensor(&h, "output_state", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, outputs), NULL);
	l.in[CELL_STATE] = kh_tensor(&h, "cell_state", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, cells), NULL);
	l.output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
			     KH_DIMS(1, time, outputs), NULL);
	return l;
}

/* The node of `l` with `num_inputs` inputs, prepared. */
static void lstm_prepare(lstm *l, const opver_sequence_lstm_params *p,
			 int32_t num_inputs)
{
	l->node = kh_node(&h, kh_kernel(&h, "sequence_lstm"), 1, p,
			  sizeof(*p), num_inputs, l->in, 1, &l->output);
	cr_assert_eq(kh_prepare(&h, l->node), OPVER_OK, "%s", h.errors);
}

static void lstm_invoke(const lstm *l, const float *x, const float *y)
{
	memcpy(l->in[INPUT]->data, x, l->in[INPUT]->bytes);
	cr_assert_eq(kh_invoke(&h, l->node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(l->output, y, opver_tensor_elements(l->output));
}

static const opver_sequence_lstm_params relu = {
	OPVER_ACTIVATION_RELU, 0.0f, 0.0f, 0, 0, 0 };

/*
 * Gates 0.5, cell gate relu(x + 2h): c = c / 2 + g / 2, h = relu(c) / 2.
 * Inputs 1, 2: g 1, c 0.5, h 0.25; g 2.5, c 1.5, h 0.75.  The next
 * invoke goes on from there: inputs 0, -4: g 1.5, c 1.5, h 0.75; g
 * relu(-2.5) = 0, c 0.75, h 0.375.
 */
Test(sequence_lstm, both_states_carry_over_steps_and_invokes)
{
	lstm l = lstm_base(2, 1, 1);

	l.in[W_CELL] = weight("w_cell", 1, 1, (const float[]){ 1 });
	l.in[R_CELL] = weight("r_cell", 1, 1, (const float[]){ 2 });
	lstm_prepare(&l, &relu, 20);
	lstm_invoke(&l, (const float[]){ 1, 2 },
		    (const float[]){ 0.25f, 0.75f });
	lstm_invoke(&l, (const float[]){ 0, -4 },
		    (const float[]){ 0.75f, 0.375f });
	kh_expect_floats(l.in[OUTPUT_STATE], (const float[]){ 0.375f }, 1);
	kh_expect_floats(l.in[CELL_STATE], (const float[]){ 0.75f }, 1);
}

/*
 * CIFG (no input gate: it is 1 - forget) with peepholes: forget's bias
 * -100 and peephole 200, output's bias 100; cell gate relu(x).  Input 3:
 * c is 0, so forget is 0, input 1: c = 3, output 1, h = 3.  Input 5: the
 * forget pre-activation is -100 + 600, forget 1 and input 0: c stays 3.
 */
Test(sequence_lstm, cifg_input_gate_is_one_minus_forget_with_peepholes)
{
	lstm l = lstm_base(2, 1, 1);

	l.in[W_INPUT] = l.in[R_INPUT] = l.in[B_INPUT] = NULL;
	l.in[W_CELL] = weight("w_cell", 1, 1, (const float[]){ 1 });
	l.in[B_FORGET] = weight("b_forget", 1, 0, (const float[]){ -100 });
	l.in[P_FORGET] = weight("p_forget", 1, 0, (const float[]){ 200 });
	l.in[B_OUTPUT] = weight("b_output", 1, 0, (const float[]){ 100 });
	l.in[P_OUTPUT] = weight("p_output", 1, 0, NULL);
	lstm_prepare(&l, &relu, 20);
	lstm_invoke(&l, (const float[]){ 3, 5 }, (const float[]){ 3, 3 });
	kh_expect_floats(l.in[CELL_STATE], (const float[]){ 3 }, 1);
}

/*
 * Two cells, one output: cell gate relu(x) in both, cell_clip 1.5,
 * projection [1, 2] with bias 0.5 and proj_clip 2.5.  Input 4: c = 2
 * clipped to 1.5, each cell's output 0.75, projected 0.5 + 0.75 + 1.5 =
 * 2.75, clipped to 2.5.  Input 1: c = 0.75 + 0.5 = 1.25, outputs 0.625,
 * projected 0.5 + 0.625 + 1.25 = 2.375.
 */
Test(sequence_lstm, projection_with_bias_and_both_clips)
{
	const opver_sequence_lstm_params p = { OPVER_ACTIVATION_RELU, 1.5f,
					       2.5f, 0, 0, 0 };
	lstm l = lstm_base(2, 2, 1);

	l.in[W_CELL] = weight("w_cell", 2, 1, (const float[]){ 1, 1 });
	l.in[PROJECTION] = weight("projection", 1, 2, (const float[]){ 1, 2 });
	l.in[PROJECTION_BIAS] = weight("projection_bias", 1, 0,
				       (const float[]){ 0.5f });
	lstm_prepare(&l, &p, 20);
	lstm_invoke(&l, (const float[]){ 4, 1 },
		    (const float[]){ 2.5f, 2.375f });
	kh_expect_floats(l.in[CELL_STATE], (const float[]){ 1.25f, 1.25f }, 2);
}

/*
 * Layer norm, two cells: the input, forget and output gates' pre-
 * activations are 0 in both cells, normalized to 0, so each gate is
 * sigmoid(its bias 0) = 0.5.  The cell gate's are (x, -x), normalized to
 * (1, -1) whatever x is; times the coefficients (2, 3) plus the biases
 * (0.5, 4): (2.5, 1).  Input 1: c = (1.25, 0.5), h = (0.625, 0.25).
 * Input 3, the same cell gate: c = (0.625 + 1.25, 0.25 + 0.5).
 */
Test(sequence_lstm, layer_norm_normalizes_each_gate)
{
	lstm l = lstm_base(2, 2, 2);

	l.in[W_CELL] = weight("w_cell", 2, 1, (const float[]){ 1, -1 });
	l.in[B_CELL] = weight("b_cell", 2, 0, (const float[]){ 0.5f, 4 });
	for (int g = 0; g < 4; g++)
		l.in[N_INPUT + g] = weight("norm", 2, 0,
					   (const float[]){ 1, 1 });
	l.in[N_CELL] = weight("n_cell", 2, 0, (const float[]){ 2, 3 });
	lstm_prepare(&l, &relu, 24);
	lstm_invoke(&l, (const float[]){ 1, 3 },
		    (const float[]){ 0.625f, 0.25f, 0.9375f, 0.375f });
	kh_expect_floats(l.in[CELL_STATE], (const float[]){ 1.875f, 0.75f },
			 2);
}

Test(sequence_lstm, refuses_incomplete_optional_tensors)
{
	lstm l = lstm_base(1, 1, 1);
	const opver_kernel *k = kh_kernel(&h, "sequence_lstm");

	/* The input gate's weights without its recurrent weights. */
	l.in[R_INPUT] = NULL;
	rejected(kh_node(&h, k, 1, &relu, sizeof(relu), 20,
			 l.in, 1, &l.output),
		 OPVER_ERROR_INVALID_MODEL, "incomplete");
	l.in[R_INPUT] = weight("r", 1, 1, NULL);
	/* A forget peephole without an output one. */
	l.in[P_FORGET] = weight("p", 1, 0, NULL);
	rejected(kh_node(&h, k, 1, &relu, sizeof(relu), 20,
			 l.in, 1, &l.output),
		 OPVER_ERROR_INVALID_MODEL, "incomplete");
	l.in[P_FORGET] = NULL;
	rejected(kh_node(&h, k, 1, &relu, sizeof(relu), 21,
			 l.in, 1, &l.output),
		 OPVER_ERROR_INVALID_MODEL, "takes 24 inputs");
}

Test(sequence_lstm, refuses_a_wrong_weight_shape_and_a_constant_state)
{
	lstm l = lstm_base(1, 2, 2);
	const opver_kernel *k = kh_kernel(&h, "sequence_lstm");

	l.in[R_CELL] = weight("r_cell", 2, 3, NULL);
	rejected(kh_node(&h, k, 1, &relu, sizeof(relu), 20,
			 l.in, 1, &l.output),
		 OPVER_ERROR_INVALID_MODEL,
			   "cell recurrent weights 'r_cell' must be float32 [2, 2]");
	l.in[R_CELL] = weight("r_cell", 2, 2, NULL);
	l.in[CELL_STATE]->is_constant = true;
	rejected(kh_node(&h, k, 1, &relu, sizeof(relu), 20,
			 l.in, 1, &l.output),
		 OPVER_ERROR_INVALID_MODEL, "must be variable");
}
