/* test_delegate.c - delegate partitioning: claims become partitions in
 * dependency order (not only runs of consecutive nodes), a claim outside
 * the delegate's typed claims is rejected and that node falls back to a
 * kernel, copies happen only at the boundary with kernels (buffer
 * handles), bind_memory comes once tensors have memory, and results are
 * those of the model, for any subset of nodes a delegate claims (a
 * property over seeded random claims). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "plugins/services_stats.h"
#include "runtime_fixture.h"

#define DELEGATE_SECTION "[plugin.npu]\nlibrary = " TEST_PLUGIN_DIR "/delegate.so\n"
#define KERNEL_SECTION "[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(delegate, .init = setup);

Test(delegate, partitions_claims_rejects_above_declared_version_and_falls_back)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	test_counters *kernels = fixture_stats("add_one");
	const float x[4] = { 1, 2, 3, 4 };
	opver_interpreter *it;
	opver_node_info info;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "warning:", "claimed node 2 (ADD_ONE v2)",
				    "but declares it only as v1-1 for (FLOAT32 -> FLOAT32)",
				    "claim rejected", NULL),
		  "%s", captured.text);
	/* Nodes 0-1 and 3 are the delegate's; node 2 splits them in two. */
	cr_assert_eq(npu->claims, 1);
	cr_assert_eq(npu->partition_inits, 2);
	cr_assert_eq(npu->partition_sizes[0], 2);
	cr_assert_eq(npu->partition_sizes[1], 1);
	cr_assert_eq(kernels->prepares, 1, "only node 2 runs on a kernel");

	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(y[i], x[i] + 4.0f, 0, "element %d", i);
	cr_assert_eq(npu->partition_invokes, 2);
	cr_assert_eq(kernels->invokes, 1);
	/* Each partition has one input and one output crossing its border. */
	cr_assert_eq(npu->copies_to_device, 2);
	cr_assert_eq(npu->copies_from_device, 2);

	for (size_t n = 0; n < 4; n++) {
		cr_assert_eq(opver_interpreter_node_info(it, n, &info), OPVER_OK);
		if (n == 2) {
			cr_assert_null(info.delegate);
			cr_assert_str_eq(info.kernel, "add_one");
		} else {
			cr_assert_str_eq(info.delegate, "test_npu", "node %zu", n);
			cr_assert_null(info.kernel);
			cr_assert_str_eq(info.plugin, "npu");
		}
	}
	opver_interpreter_destroy(it);
	cr_assert_eq(npu->partition_frees, 2);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, rejected_node_without_a_kernel_is_unresolved)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_ERROR_UNRESOLVED);
	cr_assert(messages_line_has(&captured, "error:", "node 2 (ADD_ONE)", "version 2", NULL),
		  "%s", captured.text);
	cr_assert(!messages_line_has(&captured, "error:", "node 0", NULL),
		  "delegated nodes need no kernel:\n%s", captured.text);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, list_shows_the_delegate_and_its_ops)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION, &captured);
	opver_plugin_info info;
	opver_delegate_op_info op;

	cr_assert_eq(opver_runtime_plugin_count(runtime), 1);
	cr_assert_eq(opver_runtime_plugin_info(runtime, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.delegate_name, "test_npu");
	cr_assert_eq(info.num_delegate_ops, 1);
	cr_assert_eq(opver_runtime_delegate_op_info(runtime, 0, 0, &op), OPVER_OK);
	cr_assert_eq(op.op, OPVER_OP_CUSTOM);
	cr_assert_str_eq(op.custom_name, "ADD_ONE");
	cr_assert_eq(op.max_version, 1);
	opver_runtime_destroy(runtime);
}

#define HOLDING_SECTION \
	"[plugin.holding]\nlibrary = " TEST_PLUGIN_DIR "/holding_delegate.so\n"

/* delegate_branches: a = ADD_ONE(x); b = TIMES_TWO(x); c = ADD_ONE(a);
 * y = ADD_PAIR(b, c). */
enum { TENSOR_X, TENSOR_A, TENSOR_B, TENSOR_C, TENSOR_Y };

Test(delegate, a_partition_takes_claimed_nodes_that_are_not_consecutive)
{
	opver_runtime *runtime = fixture_runtime(HOLDING_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "delegate_branches");
	services_counters *device = fixture_symbol("holding_delegate", SERVICES_STATS_SYMBOL);
	opver_node_info info;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	/* Node 2 needs only node 0: both run before the kernel's node 1.
	 * Node 3 needs node 1's b: a second partition. */
	cr_assert_eq(device->partitions, 2, "%d partitions", device->partitions);
	cr_assert_eq(device->partition_sizes[0], 2);
	cr_assert_eq(device->partition_nodes[0][0], 0);
	cr_assert_eq(device->partition_nodes[0][1], 2);
	cr_assert_eq(device->partition_sizes[1], 1);
	cr_assert_eq(device->partition_nodes[1][0], 3);
	/* The second partition's c is the first's: on the device already. */
	cr_assert_eq(device->held_inputs[0], 0);
	cr_assert_eq(device->held_inputs[1], 1);
	for (size_t n = 0; n < 4; n++) {
		cr_assert_eq(opver_interpreter_node_info(it, n, &info), OPVER_OK);
		cr_assert_eq(info.partition, n == 1 ? -1 : n == 3 ? 1 : 0, "node %zu", n);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, tensors_kept_by_the_delegate_are_copied_only_for_others)
{
	opver_runtime *runtime = fixture_runtime(HOLDING_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "delegate_branches");
	services_counters *device = fixture_symbol("holding_delegate", SERVICES_STATS_SYMBOL);
	opver_interpreter *it;
	float *x;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int run = 1; run <= 3; run++) {
		for (int i = 0; i < 4; i++)
			x[i] = (float)(i * run);
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s", captured.text);
		y = opver_interpreter_output(it, 0)->data;
		/* y = 2x + (x + 2) */
		for (int i = 0; i < 4; i++)
			cr_assert_float_eq(y[i], 3.0f * (float)(i * run) + 2.0f, 0,
					   "run %d, element %d", run, i);
		/* c goes from the first partition to the second in the
		 * delegate's memory; only y, which the application reads,
		 * is copied back; x and the kernel's b go to the device. */
		cr_assert_eq(device->copies_from_handle[TENSOR_C], 0);
		cr_assert_eq(device->copies_from_handle[TENSOR_A], 0);
		cr_assert_eq(device->copies_from_handle[TENSOR_Y], run);
		cr_assert_eq(device->copies_to_device, 2 * run);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, bind_memory_comes_once_tensors_have_memory_before_the_first_invoke)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->memory_binds, 2, "one per partition at creation");
	cr_assert_eq(npu->binds_without_memory, 0);
	for (int run = 1; run <= 3; run++)
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->partition_invokes, 6);
	cr_assert_eq(npu->memory_binds, 2, "memory did not move: no new bind");
	cr_assert_eq(npu->invokes_off_bound_memory, 0);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, a_prepare_only_interpreter_has_no_memory_to_bind)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter_options options;
	opver_interpreter *it;

	opver_interpreter_options_init(&options);
	options.prepare_only = 1;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model, &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(npu->partition_inits, 2);
	cr_assert_eq(npu->memory_binds, 0);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(delegate, a_failing_bind_memory_fails_creation_and_says_which)
{
	opver_runtime *runtime = fixture_runtime(DELEGATE_SECTION "fail = bind_memory\n"
						 KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_ERROR_PLUGIN);
	cr_assert_null(it);
	cr_assert(messages_line_has(&captured, "error:", "the device cannot map this memory",
				    NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "bind_memory failed", NULL),
		  "%s", captured.text);
	cr_assert_eq(npu->memory_binds, 1, "creation stops at the first failure");
	cr_assert_eq(npu->partition_frees, 2, "what was made is undone");
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* ----------------------------------------------------------- property */

#define RANDOM_SEEDS 300

/* add_lattice's outputs h and c for inputs x and y, from its formulas. */
static void lattice(const float *x, const float *y, float *h, float *c)
{
	for (int i = 0; i < 4; i++) {
		float a = x[i] + y[i], b = x[i] + x[i];
		float d = a + y[i], e;

		c[i] = a + b;
		e = c[i] + d;
		h[i] = e + (d + (b + e));
	}
}

/*
 * Over many seeds the random delegate claims every kind of subset of
 * add_lattice's nodes: the core must turn each into partitions that run
 * in an order the dependencies allow, with kernel nodes between them, and
 * the outputs must be the model's.  Each node is run by exactly one of
 * its partition or a kernel.
 */
Test(delegate, any_claimed_subset_runs_and_gives_the_models_outputs)
{
	static const float x[4] = { 1, 2, 3, 4 }, y[4] = { 0.5f, -1, 2, 10 };
	float want_h[4], want_c[4];
	int claimed_total = 0, split_claims = 0, all_kernel = 0;

	lattice(x, y, want_h, want_c);
	for (int seed = 1; seed <= RANDOM_SEEDS; seed++) {
		char config[512];
		opver_runtime *runtime;
		opver_model *model;
		opver_interpreter *it;
		opver_node_info info;
		int claimed = 0, partitions = 0;

		snprintf(config, sizeof(config),
			 "[plugin.reference]\nlibrary = %s\n"
			 "[plugin.random]\nlibrary = %s/random_delegate.so\nseed = %d\n",
			 REFERENCE_PLUGIN, TEST_PLUGIN_DIR, seed);
		runtime = fixture_runtime(config, &captured);
		model = fixture_model(runtime, "add_lattice");
		cr_assert_eq(opver_interpreter_create(runtime, model, &it),
			     OPVER_OK, "seed %d: %s", seed, captured.text);
		for (size_t n = 0; n < opver_interpreter_node_count(it); n++) {
			cr_assert_eq(opver_interpreter_node_info(it, n, &info),
				     OPVER_OK);
			cr_assert((info.delegate != NULL) == (info.partition >= 0) &&
					  (info.delegate != NULL) == (info.kernel == NULL),
				  "seed %d node %zu: partition %d, kernel %s",
				  seed, n, (int)info.partition,
				  info.kernel != NULL ? info.kernel : "none");
			claimed += info.delegate != NULL;
			if (info.partition + 1 > partitions)
				partitions = info.partition + 1;
		}
		memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
		memcpy(opver_interpreter_input(it, 1)->data, y, sizeof(y));
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK,
			     "seed %d: %s", seed, captured.text);
		cr_assert_arr_eq(opver_interpreter_output(it, 0)->data, want_h,
				 sizeof(want_h), "seed %d: output h", seed);
		cr_assert_arr_eq(opver_interpreter_output(it, 1)->data, want_c,
				 sizeof(want_c), "seed %d: output c", seed);
		claimed_total += claimed;
		split_claims += partitions >= 2;
		all_kernel += claimed == 0;
		opver_interpreter_destroy(it);
		opver_model_close(model);
		opver_runtime_destroy(runtime);
		messages_clear(&captured);
	}
	/* The seeds did reach the shapes the property is about. */
	cr_expect_gt(claimed_total, RANDOM_SEEDS * 8 / 4);
	cr_expect_gt(split_claims, 0, "no seed split its claims");
	cr_expect_gt(all_kernel, 0, "no seed left every node to kernels");
}

/*
 * Delegates stack in plugin order: a node the first one takes stays with
 * it, and the second delegate's claim on it is said at info level, not
 * warned about (drop-in delegates overlapping is the normal case).  The
 * frozen 2.1 delegate claims all four ADD_ONE nodes, the test delegate
 * nodes 0-1 and 3.
 */
Test(delegate, a_node_taken_by_an_earlier_delegate_stays_with_it_quietly)
{
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi21.so\n"
		DELEGATE_SECTION KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *npu = fixture_stats("delegate");
	opver_interpreter *it;
	opver_node_info info;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:",
				    "delegate 'test_npu' of plugin 'npu' also claimed node 0",
				    "stays with delegate 'bound_2_1' of plugin 'frozen'",
				    NULL),
		  "%s", captured.text);
	cr_assert(!messages_line_has(&captured, "warning:", NULL), "%s",
		  captured.text);
	cr_assert_eq(npu->partition_inits, 0);
	for (size_t n = 0; n < 4; n++) {
		cr_assert_eq(opver_interpreter_node_info(it, n, &info),
			     OPVER_OK);
		cr_assert_str_eq(info.delegate, "bound_2_1", "node %zu", n);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}
