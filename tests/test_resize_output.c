/*
 * test_resize_output.c - the resize_output host service (core/resize.c)
 * on a node record of its own: what it changes on a tensor a kernel may
 * reshape, and each case it refuses with a reason.  Models that use it
 * through the detection kernel are in test_reference_detection.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "messages.h"
#include "session.h"

static messages captured;
static opver__reporter reporter;
static opver__session session;
static opver__call call;
/* Output 0 may be reshaped, output 1 (say, a model input) may not. */
static opver_tensor tensors[2];
static const uint8_t resizable[2] = { 1, 0 };
static int32_t outputs[2] = { 0, 1 };
static int32_t inputs[1] = { 0 };
static opver__graph_node node = { .num_outputs = 2, .outputs = outputs };
static opver__graph graph = { .num_nodes = 1, .nodes = &node };

static void setup(void)
{
	messages_clear(&captured);
	reporter = messages_reporter(&captured);
	memset(tensors, 0, sizeof(tensors));
	for (int i = 0; i < 2; i++) {
		tensors[i].type = OPVER_TYPE_FLOAT32;
		tensors[i].bytes = 4;
		tensors[i].name = i == 0 ? "boxes" : "fixed";
	}
	memset(&session, 0, sizeof(session));
	session.phase = OPVER__PHASE_PREPARE;
	node.num_inputs = 0;
	node.inputs = inputs;
	session.graph = &graph;
	session.tensors = tensors;
	session.resizable = resizable;
	session.max_tensor_bytes = 1000;
	opver__call_init(&call, OPVER__CALL_NODE, &reporter, "p", "k", NULL);
	call.node_index = 0;
	call.node = &node;
	call.session = &session;
}

static void teardown(void)
{
	opver__session_free(&session);
}

TestSuite(resize_output, .init = setup, .fini = teardown);

static opver_status resize(int32_t output, const int32_t *dims, int32_t rank)
{
	return call.context.host->resize_output(&call.context, output, dims,
						rank);
}

Test(resize_output, gives_the_output_a_copy_of_the_shape_and_its_bytes)
{
	int32_t dims[3] = { 1, 3, 4 };

	cr_assert_eq(resize(0, dims, 3), OPVER_OK, "%s", captured.text);
	dims[1] = 7;
	cr_assert_eq(tensors[0].rank, 3);
	cr_assert_eq(tensors[0].dims[1], 3, "the dims are copied");
	cr_assert_eq(tensors[0].bytes, 48);
	cr_assert_eq(resize(0, NULL, 0), OPVER_OK, "a scalar");
	cr_assert_eq(tensors[0].bytes, 4);
}

Test(resize_output, refuses_a_tensor_that_keeps_its_shape)
{
	cr_assert_eq(resize(1, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(strstr(captured.text, "output 1 ('fixed') is a constant, a model input or a delegate's") != NULL,
		  "%s", captured.text);
	cr_assert_eq(tensors[1].bytes, 4);
}

/* A tensor the node also reads was checked with its old shape. */
Test(resize_output, refuses_a_tensor_the_node_reads)
{
	node.num_inputs = 1;
	cr_assert_eq(resize(0, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(strstr(captured.text, "output 0 ('boxes') is also an input of this node") != NULL,
		  "%s", captured.text);
	cr_assert_eq(tensors[0].bytes, 4);
}

/* Two outputs of one tensor: resizing it for one breaks the other (what
 * fuzz_invoke found, a detection node whose boxes were its count). */
Test(resize_output, refuses_a_tensor_that_is_two_outputs)
{
	outputs[1] = 0;
	cr_assert_eq(resize(0, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	outputs[1] = 1;
	cr_assert_eq(tensors[0].bytes, 4);
}

Test(resize_output, refuses_bad_arguments)
{
	cr_assert_eq(resize(2, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(resize(0, NULL, 1), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(resize(0, (const int32_t[]){ 2, -1 }, 2),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(strstr(captured.text, "dimension 1 of output 0 is -1") != NULL,
		  "%s", captured.text);
	cr_assert_eq(tensors[0].bytes, 4, "nothing changed");
}

Test(resize_output, keeps_to_max_tensor_bytes_without_overflowing)
{
	cr_assert_eq(resize(0, (const int32_t[]){ 251 }, 1), OPVER_ERROR_NOMEM);
	cr_assert_eq(resize(0, (const int32_t[]){ INT32_MAX, INT32_MAX,
						 INT32_MAX },
			    3),
		     OPVER_ERROR_NOMEM);
	cr_assert_eq(resize(0, (const int32_t[]){ 250 }, 1), OPVER_OK);
	cr_assert_eq(tensors[0].bytes, 1000);
}

Test(resize_output, is_only_for_a_kernels_prepare)
{
	session.phase = OPVER__PHASE_INVOKE;
	cr_assert_eq(resize(0, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	session.phase = OPVER__PHASE_PREPARE;
	call.kind = OPVER__CALL_PARTITION;
	cr_assert_eq(resize(0, (const int32_t[]){ 2 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(strstr(captured.text, "only for a kernel's prepare") != NULL,
		  "%s", captured.text);
}
