/*
 * test_delegate_resize.c - resizing inputs under delegates: allocate
 * re-runs the claims and re-creates the partitions for the new shapes.
 * The test delegates (tests/plugins) cover the core path on any machine:
 * old partitions are freed, new ones built for the new sizes compute the
 * right values, a delegated node no kernel can shape and a delegate that
 * refuses the new shapes are refused naming the delegate, and the model's
 * shapes work again after.  On corpus models ($OPVER_MODEL_CORPUS):
 * mlperf_ic_resnet_float and _int8 at batch 3 through the XNNPACK plugin
 * and through oneDNN ahead of XNNPACK, and mlperf_kws_ref_model_float32
 * (kernels between XNNPACK partitions) through XNNPACK, give row for row
 * that stack's batch-1 output of the row (run first, byte for byte) and
 * the reference plugin's output of the row within the plugins' declared
 * tolerance; then batch 1 works again.  The corpus's other models take a
 * batch of 3 under XNNPACK exactly where the reference plugin does, row
 * for row as at batch 1.  Those skip when the plugin was
 * not built (or oneDNN declines the CPU).
 *
 * Tolerances, as the plugins' own tests declare them: float within
 * 1e-5 * max(1, max |reference|) (other summation orders); int8 within
 * one step of the reference plugin built to rescale once as XNNPACK does
 * (XNNPACK, and both stacked: XNNPACK runs the ADD and SOFTMAX nodes,
 * where the default reference's double rounding drifts up to 6 steps on
 * random inputs).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime_fixture.h"

#define REFERENCE "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
#define SINGLE_ROUNDING \
	"[plugin.reference]\nlibrary = " TEST_PLUGIN_DIR \
	"/reference_single_rounding.so\n"
#define XNNPACK "[plugin.xnnpack]\nlibrary = " XNNPACK_PLUGIN "\n"
#define ONEDNN "[plugin.onednn]\nlibrary = " ONEDNN_PLUGIN "\n"
#define TEST_NPU "[plugin.npu]\nlibrary = " TEST_PLUGIN_DIR "/delegate.so\n"
#define HOLDING \
	"[plugin.holding]\nlibrary = " TEST_PLUGIN_DIR "/holding_delegate.so\n"
#define KERNELS "[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

/* AddressSanitizer's options, as test_onednn.c sets them for oneDNN's
 * thread-local blocks (google/sanitizers#1322). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(delegate_resize, .init = setup);

/* Resizes input 0 of `it` to `batch` x its other dimensions and
 * allocates. */
static opver_status resize_batch(opver_interpreter *it, int32_t batch)
{
	const opver_tensor *in = opver_interpreter_input(it, 0);
	int32_t dims[8];
	opver_status status;

	cr_assert(in->rank >= 1 && in->rank <= 8);
	memcpy(dims, in->dims, (size_t)in->rank * sizeof(*dims));
	dims[0] = batch;
	status = opver_interpreter_resize_input(it, 0, dims, in->rank);
	return status == OPVER_OK ? opver_interpreter_allocate_tensors(it)
				  : status;
}

/* add_one_chain (four ADD_ONE, node 2 at v2 on the kernel, the others
 * in two partitions of the test delegate) at [3, 4]: the claims run
 * again, the two old partitions are freed and two new ones built whose
 * device memory has the new size, and y = x + 4 on all 12 elements;
 * then back at [1, 4]. */
Test(delegate_resize, partitions_are_rebuilt_for_the_new_shapes)
{
	opver_runtime *runtime = fixture_runtime(TEST_NPU KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;
	const opver_tensor *y;
	float x[12];

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(npu->claims, 1);
	cr_assert_eq(npu->partition_inits, 2);
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 3, 4 }, 2), OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(npu->claims, 2, "the claims run on the new shapes");
	cr_assert_eq(npu->partition_frees, 2);
	cr_assert_eq(npu->partition_inits, 4);
	cr_assert_eq(npu->memory_binds, 4, "the new partitions bind memory");
	y = opver_interpreter_output(it, 0);
	cr_assert_eq(y->rank, 2);
	cr_assert_eq(y->dims[0], 3);
	cr_assert_eq(y->bytes, sizeof(x));
	for (int i = 0; i < 12; i++)
		x[i] = (float)(i * i) - 7.5f;
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	for (int i = 0; i < 12; i++)
		cr_expect_float_eq(((const float *)y->data)[i], x[i] + 4.0f, 0,
				   "element %d", i);
	cr_assert_eq(npu->invokes_off_bound_memory, 0);

	cr_assert_eq(resize_batch(it, 1), OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->partition_frees, 4);
	cr_assert_eq(npu->partition_inits, 6);
	y = opver_interpreter_output(it, 0);
	cr_assert_eq(y->bytes, 4 * sizeof(float));
	memcpy(opver_interpreter_input(it, 0)->data, x, 4 * sizeof(float));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(((const float *)y->data)[i], x[i] + 4.0f, 0,
				   "element %d", i);
	opver_interpreter_destroy(it);
	cr_assert_eq(npu->partition_frees, 6);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Destroyed while resized: the new partitions are freed, and the shapes
 * kept for them too (AddressSanitizer's build checks the order). */
Test(delegate_resize, a_resized_interpreter_is_destroyed_cleanly)
{
	opver_runtime *runtime = fixture_runtime(TEST_NPU KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(resize_batch(it, 2), OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	opver_interpreter_destroy(it);
	cr_assert_eq(npu->partition_inits, 4);
	cr_assert_eq(npu->partition_frees, 4);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A partition's persistent memory (allocate_persistent: "valid until the
 * interpreter is destroyed") outlives the partition: allocate frees the
 * old partitions before the session that holds it, so a delegate's free
 * can still read what its prepare kept there (a 4 MiB table, mmap'ed, so
 * that reading it after the core frees it faults; AddressSanitizer's
 * build reports it in any case). */
Test(delegate_resize, a_partitions_persistent_memory_outlives_its_free)
{
	opver_runtime *runtime = fixture_runtime(
		TEST_NPU "keep = table\n" KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(resize_batch(it, 3), OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->partition_frees, 2);
	cr_assert_eq(resize_batch(it, 1), OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->partition_frees, 4);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	opver_interpreter_destroy(it);
	cr_assert_eq(npu->partition_frees, 6);
	cr_assert_eq(npu->tables_lost, 0);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A delegate whose claim fails while partitions exist: at batch 3 the
 * partitions are rebuilt (claim 2); back at the model's shape claim 3
 * fails, after the old partitions were freed and before new ones exist.
 * The nodes then name no partition (node_info must not reach the freed
 * ones), invoke refuses, and allocating again (claim 4) works. */
Test(delegate_resize, a_claim_failing_on_rebuild_fails_cleanly)
{
	opver_runtime *runtime = fixture_runtime(
		TEST_NPU "fail_claim = 3\n" KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	const float x[4] = { 1, 2, 3, 4 };

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(resize_batch(it, 3), OPVER_OK, "%s", captured.text);
	cr_assert_eq(resize_batch(it, 1), OPVER_ERROR_INVALID_ARGUMENT, "%s",
		     captured.text);
	cr_assert(messages_line_has(&captured, "delegate 'test_npu' of plugin 'npu': claiming nodes failed",
				    NULL),
		  "%s", captured.text);
	for (size_t n = 0; n < opver_interpreter_node_count(it); n++) {
		opver_node_info info;

		cr_assert_eq(opver_interpreter_node_info(it, n, &info),
			     OPVER_OK);
		cr_assert_eq(info.partition, -1, "node %zu", n);
		cr_assert_null(info.delegate, "node %zu", n);
	}
	cr_assert_eq(opver_interpreter_invoke(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	{
		opver_node_info info;

		cr_assert_eq(opver_interpreter_node_info(it, 0, &info),
			     OPVER_OK);
		cr_assert_eq(info.partition, 0, "the partitions are back");
	}
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(((const float *)opver_interpreter_output(
					    it, 0)->data)[i],
				   x[i] + 4.0f, 0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A delegate whose prepare refuses the new shapes (built for the model's,
 * as a device may be) fails the allocation naming its partition and
 * delegate; the model's shape then works again. */
Test(delegate_resize, a_delegate_refusing_the_new_shapes_fails_cleanly)
{
	opver_runtime *runtime = fixture_runtime(
		TEST_NPU "fail = new_shapes\n" KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	const float x[4] = { 1, 2, 3, 4 };

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(resize_batch(it, 2), OPVER_ERROR_INVALID_ARGUMENT, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "delegate 'test_npu' of plugin 'npu'",
				    "input 0 has 32 bytes; this device runs 16 only",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(resize_batch(it, 1), OPVER_OK, "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(((const float *)opver_interpreter_output(
					    it, 0)->data)[i],
				   x[i] + 4.0f, 0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* delegate_branches' ADD_PAIR runs on the holding delegate and no kernel
 * handles it, so nothing can give it its new shapes: allocate refuses,
 * naming the node and the delegate, and the model's shape works again. */
Test(delegate_resize, a_delegated_node_no_kernel_shapes_is_refused)
{
	opver_runtime *runtime = fixture_runtime(HOLDING KERNELS, &captured);
	opver_model *model = fixture_model(runtime, "delegate_branches");
	opver_interpreter *it;
	const float x[4] = { 1, 2, 3, 4 };
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(resize_batch(it, 2), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 3 (ADD_PAIR",
				    "runs on delegate 'holding' of plugin 'holding'",
				    "no kernel handles it", NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(resize_batch(it, 1), OPVER_OK, "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	/* y = 2x + (x + 2) */
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(y[i], 3.0f * x[i] + 2.0f, 0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* ------------------------------------------------- corpus, real plugins */

/* An interpreter of a corpus model under a config, and what it needs. */
typedef struct stack {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} stack;

static void stack_open(stack *s, const char *config, const char *name)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	char path[512];

	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	s->runtime = fixture_runtime(config, &captured);
	snprintf(path, sizeof(path), "%s/%s.tflite", dir, name);
	cr_assert_eq(opver_model_open(s->runtime, path, &s->model), OPVER_OK,
		     "cannot open %s", path);
	cr_assert_eq(opver_interpreter_create(s->runtime, s->model, &s->it),
		     OPVER_OK, "%s", captured.text);
}

static void stack_close(stack *s)
{
	opver_interpreter_destroy(s->it);
	opver_model_close(s->model);
	opver_runtime_destroy(s->runtime);
}

/* Runs `rows` inputs one at a time at `s`'s current batch; out[r] gets
 * row r's output (caller frees). */
static void run_rows(stack *s, uint8_t *const *rows, int count,
		     uint8_t **out)
{
	const opver_tensor *in = opver_interpreter_input(s->it, 0);
	const opver_tensor *y = opver_interpreter_output(s->it, 0);

	for (int r = 0; r < count; r++) {
		memcpy(in->data, rows[r], in->bytes);
		cr_assert_eq(opver_interpreter_invoke(s->it), OPVER_OK, "%s",
			     captured.text);
		out[r] = malloc(y->bytes);
		memcpy(out[r], y->data, y->bytes);
	}
}

/* Row 0 and 1: the corpus cases; row 2: case 0 negated (float) or its
 * bytes reversed (int8). */
static void read_rows(const char *name, const char *const cases[2],
		      size_t bytes, bool is_float, uint8_t **rows)
{
	for (int r = 0; r < 3; r++) {
		char path[512];
		FILE *f;

		rows[r] = malloc(bytes);
		snprintf(path, sizeof(path), "%s/cases/%s/%s/in0.raw",
			 getenv("OPVER_MODEL_CORPUS"), name, cases[r % 2]);
		f = fopen(path, "rb");
		cr_assert_not_null(f, "cannot open %s", path);
		cr_assert_eq(fread(rows[r], 1, bytes, f), bytes);
		fclose(f);
	}
	for (size_t i = 0; is_float && i < bytes / sizeof(float); i++)
		((float *)rows[2])[i] = -((float *)rows[2])[i];
	for (size_t i = 0; !is_float && i < bytes / 2; i++) {
		uint8_t b = rows[2][i];

		rows[2][i] = rows[2][bytes - 1 - i];
		rows[2][bytes - 1 - i] = b;
	}
}

/* Within the float or int8 tolerance of the header. */
static void expect_near(const opver_tensor *y, const uint8_t *got,
			const uint8_t *want, int row)
{
	size_t count = y->bytes / y->dims[0] / opver_type_size(y->type);

	if (y->type == OPVER_TYPE_FLOAT32) {
		const float *g = (const float *)got, *w = (const float *)want;
		double largest = 1.0, worst = 0.0;

		for (size_t i = 0; i < count; i++) {
			largest = fmax(largest, fabs(w[i]));
			worst = fmax(worst, fabs((double)g[i] - w[i]));
		}
		cr_expect_leq(worst, 1e-5 * largest,
			      "row %d: %g from the reference plugin", row, worst);
		return;
	}
	for (size_t i = 0; i < count; i++)
		cr_expect_leq(abs((int)((const int8_t *)got)[i] -
				  (int)((const int8_t *)want)[i]), 1,
			      "row %d element %zu: %d, reference %d", row, i,
			      ((const int8_t *)got)[i],
			      ((const int8_t *)want)[i]);
}

/*
 * `name` at batch 1 then 3 under `config`: each batch row is that
 * config's batch-1 output of the row byte for byte, and within the
 * tolerance of `reference_config`'s (the reference plugin's) output;
 * the delegate `delegate` still runs nodes at batch 3; batch 1 again
 * gives row 0's output.
 */
static void batch_of_three(const char *config, const char *delegate,
			   const char *reference_config, const char *name,
			   const char *const cases[2])
{
	stack s, ref;
	uint8_t *rows[3], *alone[3], *want[3];
	const opver_tensor *in, *y;
	size_t row_in, row_out;
	opver_node_info info;
	bool delegated = false;
	bool is_float;

	stack_open(&ref, reference_config, name);
	in = opver_interpreter_input(ref.it, 0);
	row_in = in->bytes;
	is_float = in->type == OPVER_TYPE_FLOAT32;
	read_rows(name, cases, row_in, is_float, rows);
	run_rows(&ref, rows, 3, want);
	stack_close(&ref);

	stack_open(&s, config, name);
	run_rows(&s, rows, 3, alone);
	row_out = opver_interpreter_output(s.it, 0)->bytes;
	cr_assert_eq(resize_batch(s.it, 3), OPVER_OK, "%s", captured.text);
	in = opver_interpreter_input(s.it, 0);
	y = opver_interpreter_output(s.it, 0);
	cr_assert_eq(y->dims[0], 3);
	cr_assert_eq(y->bytes, 3 * row_out);
	for (size_t n = 0; opver_interpreter_node_info(s.it, n, &info) ==
			   OPVER_OK; n++)
		delegated |= info.delegate != NULL &&
			     strcmp(info.delegate, delegate) == 0;
	cr_assert(delegated, "no node on delegate '%s' at batch 3", delegate);
	for (int r = 0; r < 3; r++)
		memcpy((uint8_t *)in->data + r * row_in, rows[r], row_in);
	cr_assert_eq(opver_interpreter_invoke(s.it), OPVER_OK, "%s",
		     captured.text);
	for (int r = 0; r < 3; r++) {
		const uint8_t *row = (const uint8_t *)y->data + r * row_out;

		cr_expect(memcmp(row, alone[r], row_out) == 0,
			  "row %d of the batch differs from its batch-1 run", r);
		expect_near(y, row, want[r], r);
	}

	cr_assert_eq(resize_batch(s.it, 1), OPVER_OK, "%s", captured.text);
	y = opver_interpreter_output(s.it, 0);
	cr_assert_eq(y->bytes, row_out);
	memcpy(opver_interpreter_input(s.it, 0)->data, rows[0], row_in);
	cr_assert_eq(opver_interpreter_invoke(s.it), OPVER_OK);
	cr_expect(memcmp(y->data, alone[0], row_out) == 0,
		  "batch 1 after resizing back differs");
	stack_close(&s);
	for (int r = 0; r < 3; r++) {
		free(rows[r]);
		free(alone[r]);
		free(want[r]);
	}
}

static const char *const float_cases[2] = { "random_seed1", "ic_input_u8f32" };
static const char *const int8_cases[2] = { "ic_input_u8m128", "random_seed1" };

static void require_xnnpack(void)
{
	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built (configure found no XNNPACK)");
}

/* Skips without oneDNN, or where it declines the CPU. */
static void require_onednn(void)
{
	opver_runtime *runtime;
	bool declined;

	require_xnnpack();
	if (access(ONEDNN_PLUGIN, R_OK) != 0)
		cr_skip_test("the oneDNN plugin was not built (configure found no oneDNN)");
	runtime = fixture_runtime(ONEDNN REFERENCE, &captured);
	declined = strstr(captured.text, "declined") != NULL;
	opver_runtime_destroy(runtime);
	if (declined)
		cr_skip_test("the oneDNN plugin declines this CPU");
	messages_clear(&captured);
}

Test(delegate_resize, xnnpack_resnet_float_batch_of_three)
{
	require_xnnpack();
	batch_of_three(REFERENCE XNNPACK, "xnnpack", REFERENCE,
		       "mlperf_ic_resnet_float", float_cases);
}

Test(delegate_resize, xnnpack_resnet_int8_batch_of_three)
{
	require_xnnpack();
	batch_of_three(REFERENCE XNNPACK, "xnnpack", SINGLE_ROUNDING,
		       "mlperf_ic_resnet_int8", int8_cases);
}

/* Its hybrid CONV_2D nodes stay on the kernels between XNNPACK
 * partitions: every partition and the kernels between them take the
 * batch. */
Test(delegate_resize, xnnpack_kws_float_batch_of_three_across_kernels)
{
	static const char *const cases[2] = { "kws_input_dequant",
					      "random_seed1" };

	require_xnnpack();
	batch_of_three(REFERENCE XNNPACK, "xnnpack", REFERENCE,
		       "mlperf_kws_ref_model_float32", cases);
}

Test(delegate_resize, onednn_and_xnnpack_resnet_float_batch_of_three)
{
	require_onednn();
	batch_of_three(ONEDNN XNNPACK REFERENCE, "xnnpack", REFERENCE,
		       "mlperf_ic_resnet_float", float_cases);
}

Test(delegate_resize, onednn_and_xnnpack_resnet_int8_batch_of_three)
{
	require_onednn();
	batch_of_three(ONEDNN XNNPACK REFERENCE, "onednn", SINGLE_ROUNDING,
		       "mlperf_ic_resnet_int8", int8_cases);
}

/* The corpus models the reference plugin runs at batch 3 (person_detect's
 * RESHAPE fixes its batch: refused under both). */
static const char *const sweep_models[] = {
	"hello_world_float", "hello_world_int8", "magic_wand",
	"micro_speech_quantized", "mlperf_kws_ref_model_float32",
	"mlperf_kws_ref_model_int8", "mlperf_vww_96_float",
	"network_tester_model", "person_detect", "test_conv_model",
};

/* Three rows of pseudo-random values of input 0's type: floats in
 * [-1, 1], bytes anywhere. */
static void random_rows(const opver_tensor *in, uint8_t **rows)
{
	uint32_t state = 7;

	for (int r = 0; r < 3; r++) {
		rows[r] = malloc(in->bytes);
		for (size_t i = 0; i < in->bytes; i++) {
			state = state * 1664525u + 1013904223u;
			rows[r][i] = (uint8_t)(state >> 24);
		}
		for (size_t i = 0; in->type == OPVER_TYPE_FLOAT32 &&
				   i < in->bytes / sizeof(float); i++)
			((float *)rows[r])[i] =
				(float)rows[r][i * sizeof(float)] / 127.5f - 1.0f;
	}
}

/* Every such model: a batch of 3 is accepted under XNNPACK exactly when
 * under the reference plugin alone, and then each row of the batch is
 * XNNPACK's batch-1 output of the row. */
Test(delegate_resize, xnnpack_takes_a_batch_wherever_the_reference_does)
{
	require_xnnpack();
	for (size_t m = 0; m < sizeof(sweep_models) / sizeof(*sweep_models);
	     m++) {
		const char *name = sweep_models[m];
		uint8_t *rows[3], *alone[3];
		opver_status want, got;
		const opver_tensor *y;
		size_t row_in, row_out;
		stack s;

		stack_open(&s, REFERENCE, name);
		want = resize_batch(s.it, 3);
		stack_close(&s);
		stack_open(&s, REFERENCE XNNPACK, name);
		random_rows(opver_interpreter_input(s.it, 0), rows);
		row_in = opver_interpreter_input(s.it, 0)->bytes;
		run_rows(&s, rows, 3, alone);
		row_out = opver_interpreter_output(s.it, 0)->bytes;
		got = resize_batch(s.it, 3);
		cr_assert_eq(got, want, "%s: %s under XNNPACK, %s alone: %s",
			     name, opver_status_name(got),
			     opver_status_name(want), captured.text);
		for (int r = 0; got == OPVER_OK && r < 3; r++)
			memcpy((uint8_t *)opver_interpreter_input(s.it, 0)->data +
				       r * row_in,
			       rows[r], row_in);
		if (got == OPVER_OK) {
			cr_assert_eq(opver_interpreter_invoke(s.it), OPVER_OK,
				     "%s: %s", name, captured.text);
			y = opver_interpreter_output(s.it, 0);
			cr_assert_eq(y->bytes, 3 * row_out, "%s", name);
			for (int r = 0; r < 3; r++)
				cr_expect(memcmp((const uint8_t *)y->data +
							 r * row_out,
						 alone[r], row_out) == 0,
					  "%s: row %d differs from its batch-1 run",
					  name, r);
		}
		stack_close(&s);
		for (int r = 0; r < 3; r++) {
			free(rows[r]);
			free(alone[r]);
		}
	}
}
