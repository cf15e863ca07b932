/*
 * test_reference_sequence_rnn.c - the reference plugin's
 * UNIDIRECTIONAL_SEQUENCE_RNN through the kernel harness: the hidden state
 * carried over steps and invokes, batch-major and time-major, every value
 * worked out by hand in the comments, and the refusals of prepare.
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

TestSuite(sequence_rnn, .init = setup, .fini = teardown);

/* kh_expect_rejected() for each of several nodes in one test: the
 * messages of the ones before are forgotten first. */
static void rejected(opver_node *node, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node, status, text);
}

static opver_tensor *constant(opver_tensor *t)
{
	t->is_constant = true;
	return t;
}

typedef struct rnn {
	opver_tensor *input, *hidden, *output;
	opver_node *node;
} rnn;

/* One input feature, two units: weights [1, -1], recurrent [[0.5, 1],
 * [0, 0.25]], bias [0.25, 0], RELU.  Input dims are [batch, time, 1], or
 * [time, batch, 1] when time_major. */
static rnn rnn_node(int32_t batch, int32_t time, bool time_major)
{
	const opver_sequence_rnn_params p = { time_major,
					      OPVER_ACTIVATION_RELU, 0 };
	const int32_t d0 = time_major ? time : batch;
	const int32_t d1 = time_major ? batch : time;
	rnn r;

	r.input = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(d0, d1, 1),
			    NULL);
	r.hidden = kh_tensor(&h, "hidden", OPVER_TYPE_FLOAT32,
			     KH_DIMS(batch, 2), NULL);
	r.output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
			     KH_DIMS(d0, d1, 2), NULL);
	r.node = kh_node(
		&h, kh_kernel(&h, "sequence_rnn"), 1, &p, sizeof(p),
		KH_TENSORS(r.input,
			   constant(kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
					      KH_DIMS(2, 1),
					      (const float[]){ 1, -1 })),
			   constant(kh_tensor(&h, "recurrent",
					      OPVER_TYPE_FLOAT32, KH_DIMS(2, 2),
					      (const float[]){ 0.5f, 1, 0,
							       0.25f })),
			   constant(kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32,
					      KH_DIMS(2),
					      (const float[]){ 0.25f, 0 })),
			   r.hidden),
		KH_TENSORS(r.output));
	cr_assert_eq(kh_prepare(&h, r.node), OPVER_OK, "%s", h.errors);
	return r;
}

static void rnn_invoke(const rnn *r, const float *x, const float *y)
{
	memcpy(r->input->data, x, r->input->bytes);
	cr_assert_eq(kh_invoke(&h, r->node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(r->output, y, opver_tensor_elements(r->output));
}

/*
 * Inputs 1, 2: (0.25 + 1, -1) -> (1.25, 0); then (0.25 + 2 + 0.625,
 * -2) -> (2.875, 0).  The next invoke starts from that state: inputs 0,
 * -1: (0.25 + 1.4375, 0) -> (1.6875, 0); then (0.25 - 1 + 0.84375,
 * 1) -> (0.09375, 1).
 */
Test(sequence_rnn, hidden_state_carries_over_steps_and_invokes)
{
	rnn r = rnn_node(1, 2, false);

	rnn_invoke(&r, (const float[]){ 1, 2 },
		   (const float[]){ 1.25f, 0, 2.875f, 0 });
	rnn_invoke(&r, (const float[]){ 0, -1 },
		   (const float[]){ 1.6875f, 0, 0.09375f, 1 });
	kh_expect_floats(r.hidden, (const float[]){ 0.09375f, 1 }, 2);
}

/* Time-major, two batches: batch 0 sees 1, 2 as above; batch 1 sees 0
 * (0.25, 0), then -1: (0.25 - 1 + 0.125, 1) -> (0, 1). */
Test(sequence_rnn, time_major_batches_keep_their_own_state)
{
	rnn r = rnn_node(2, 2, true);

	rnn_invoke(&r, (const float[]){ 1, 0, 2, -1 },
		   (const float[]){ 1.25f, 0, 0.25f, 0, 2.875f, 0, 0, 1 });
	kh_expect_floats(r.hidden, (const float[]){ 2.875f, 0, 0, 1 }, 4);
}

Test(sequence_rnn, refuses_a_constant_state_and_a_wrong_output)
{
	const opver_sequence_rnn_params p = { 0, OPVER_ACTIVATION_NONE, 0 };
	opver_tensor *input = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 2, 1), NULL);
	opver_tensor *weights = constant(kh_tensor(
		&h, "weights", OPVER_TYPE_FLOAT32, KH_DIMS(2, 1), NULL));
	opver_tensor *recurrent = constant(kh_tensor(
		&h, "recurrent", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2), NULL));
	opver_tensor *bias = constant(kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32,
						KH_DIMS(2), NULL));
	opver_tensor *state = constant(kh_tensor(
		&h, "hidden", OPVER_TYPE_FLOAT32, KH_DIMS(1, 2), NULL));
	opver_tensor *output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
					 KH_DIMS(1, 2, 2), NULL);
	opver_tensor *wrong = kh_tensor(&h, "wrong", OPVER_TYPE_FLOAT32,
					KH_DIMS(2, 1, 2), NULL);
	const opver_kernel *k = kh_kernel(&h, "sequence_rnn");

	rejected(kh_node(&h, k, 1, &p, sizeof(p),
			 KH_TENSORS(input, weights, recurrent, bias, state),
			 KH_TENSORS(output)),
		 OPVER_ERROR_INVALID_MODEL, "must be a variable");
	state->is_constant = false;
	rejected(kh_node(&h, k, 1, &p, sizeof(p),
			 KH_TENSORS(input, weights, recurrent, bias, state),
			 KH_TENSORS(wrong)),
		 OPVER_ERROR_INVALID_MODEL, "[batch, time] and the units give [1, 2, 2]");
}

Test(sequence_rnn, refuses_sign_bit)
{
	const opver_sequence_rnn_params p = { 0, OPVER_ACTIVATION_SIGN_BIT,
					      0 };
	opver_tensor *state = kh_tensor(&h, "hidden", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 1), NULL);

	rejected(
		kh_node(&h, kh_kernel(&h, "sequence_rnn"), 1, &p, sizeof(p),
			KH_TENSORS(kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					     KH_DIMS(1, 1, 1), NULL),
				   constant(kh_tensor(&h, "w",
						      OPVER_TYPE_FLOAT32,
						      KH_DIMS(1, 1), NULL)),
				   constant(kh_tensor(&h, "r",
						      OPVER_TYPE_FLOAT32,
						      KH_DIMS(1, 1), NULL)),
				   constant(kh_tensor(&h, "b",
						      OPVER_TYPE_FLOAT32,
						      KH_DIMS(1), NULL)),
				   state),
			KH_TENSORS(kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
					     KH_DIMS(1, 1, 1), NULL))),
		OPVER_ERROR_UNSUPPORTED, "fused activation 5");
}
