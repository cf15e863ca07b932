/* test_planner.c - arena planning: lifetimes from a graph, offsets that
 * never let two live tensors share bytes, and the sizes a hand plan gives. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"

#define A OPVER__ARENA_ALIGNMENT

/* Every pair alive at the same step occupies disjoint bytes. */
static void assert_no_conflict(const opver__lifetime *lifetimes, size_t count,
			       const size_t *offsets, size_t arena)
{
	for (size_t i = 0; i < count; i++) {
		if (lifetimes[i].bytes == 0) {
			cr_assert_eq(offsets[i], SIZE_MAX);
			continue;
		}
		cr_assert_eq(offsets[i] % A, 0, "tensor %zu misaligned", i);
		cr_assert_leq(offsets[i] + lifetimes[i].bytes, arena);
		for (size_t j = i + 1; j < count; j++) {
			bool live_together = lifetimes[j].bytes > 0 &&
				lifetimes[i].first <= lifetimes[j].last &&
				lifetimes[j].first <= lifetimes[i].last;
			bool bytes_meet = offsets[i] < offsets[j] + lifetimes[j].bytes &&
				offsets[j] < offsets[i] + lifetimes[i].bytes;

			cr_assert(!(live_together && bytes_meet),
				  "tensors %zu and %zu are alive together and share bytes", i, j);
		}
	}
}

Test(planner, chain_reuses_buffers_two_steps_apart)
{
	/* x -> n0 -> a -> n1 -> b -> n2 -> y: x and b can share, a and y can. */
	const opver__lifetime lifetimes[] = {
		{ 100, 0, 0 }, { 100, 0, 1 }, { 100, 1, 2 }, { 100, 2, 2 },
	};
	size_t offsets[4], arena, naive;

	cr_assert_eq(opver__plan_arena(lifetimes, 4, offsets, &arena, &naive), OPVER_OK);
	assert_no_conflict(lifetimes, 4, offsets, arena);
	cr_assert_eq(naive, 4 * 128, "each 100-byte tensor rounds up to 128");
	cr_assert_eq(arena, 2 * 128);
}

/* The chain above with preserve_intermediates: nothing shares; a tensor no
 * step touches stays out; with no step at all (a model of no nodes), the
 * graph inputs, alive at step 0, still get bytes of their own. */
Test(planner, preserved_lifetimes_share_no_bytes)
{
	opver__lifetime lifetimes[] = {
		{ 100, 0, 0 }, { 100, 0, 1 }, { 100, 1, 2 }, { 100, 2, 2 },
		{ 0, INT32_MAX, -1 },
	};
	opver__lifetime inputs[] = { { 100, 0, 0 }, { 100, 0, 0 } };
	size_t offsets[5], arena, naive;

	opver__preserve_lifetimes(lifetimes, 5, 3);
	for (size_t t = 0; t < 4; t++)
		cr_assert_eq(lifetimes[t].last, 2, "tensor %zu", t);
	cr_assert_eq(lifetimes[4].last, -1);
	cr_assert_eq(opver__plan_arena(lifetimes, 5, offsets, &arena, &naive), OPVER_OK);
	assert_no_conflict(lifetimes, 5, offsets, arena);
	cr_assert_eq(arena, naive);

	opver__preserve_lifetimes(inputs, 2, 0);
	cr_assert_eq(opver__plan_arena(inputs, 2, offsets, &arena, &naive), OPVER_OK);
	cr_assert_neq(offsets[0], offsets[1]);
}

Test(planner, larger_tensor_placed_first_and_small_ones_fill_the_rest)
{
	/* One 1000-byte tensor alive throughout, two 64-byte tensors that
	 * never meet: 1024 + 64. */
	const opver__lifetime lifetimes[] = {
		{ 64, 0, 0 }, { 1000, 0, 2 }, { 64, 1, 2 },
	};
	size_t offsets[3], arena, naive;

	cr_assert_eq(opver__plan_arena(lifetimes, 3, offsets, &arena, &naive), OPVER_OK);
	assert_no_conflict(lifetimes, 3, offsets, arena);
	cr_assert_eq(offsets[1], 0);
	cr_assert_eq(arena, 1024 + 64);
	cr_assert_eq(naive, 1024 + 64 + 64);
}

Test(planner, tensors_of_no_bytes_get_no_offset)
{
	const opver__lifetime lifetimes[] = { { 0, 0, 3 }, { 8, 1, 1 } };
	size_t offsets[2], arena, naive;

	cr_assert_eq(opver__plan_arena(lifetimes, 2, offsets, &arena, &naive), OPVER_OK);
	cr_assert_eq(offsets[0], SIZE_MAX);
	cr_assert_eq(offsets[1], 0);
	cr_assert_eq(arena, A);
}

/* Random lifetimes: the plan must be valid and never beat by the naive sum. */
ParameterizedTestParameters(planner, random_plans_are_valid)
{
	static unsigned seeds[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

	return cr_make_param_array(unsigned, seeds, sizeof(seeds) / sizeof(seeds[0]));
}

ParameterizedTest(unsigned *seed, planner, random_plans_are_valid)
{
	opver__lifetime lifetimes[40];
	size_t offsets[40], arena, naive;

	srand(*seed);
	for (int i = 0; i < 40; i++) {
		int first = rand() % 20;

		lifetimes[i].bytes = (size_t)(rand() % 5000);
		lifetimes[i].first = first;
		lifetimes[i].last = first + rand() % 6;
	}
	cr_assert_eq(opver__plan_arena(lifetimes, 40, offsets, &arena, &naive), OPVER_OK);
	assert_no_conflict(lifetimes, 40, offsets, arena);
	cr_assert_leq(arena, naive);
}

Test(planner, graph_lifetimes_span_producer_to_last_reader)
{
	/* t0 (input) -> n0 -> t1; t1 + t2 (constant) -> n1 -> t3 (output);
	 * t4 is a variable read by n0 only; t5 is never used. */
	int32_t dims[1] = { 4 };
	opver__graph_tensor tensors[6] = { 0 };
	int32_t in0[2] = { 0, 4 }, out0[1] = { 1 }, in1[2] = { 1, 2 }, out1[1] = { 3 };
	opver__graph_node nodes[2] = {
		{ .num_inputs = 2, .inputs = in0, .num_outputs = 1, .outputs = out0 },
		{ .num_inputs = 2, .inputs = in1, .num_outputs = 1, .outputs = out1 },
	};
	int32_t graph_inputs[1] = { 0 }, graph_outputs[1] = { 3 };
	static const uint8_t weights[16];
	opver__graph graph = {
		.num_tensors = 6, .tensors = tensors,
		.num_nodes = 2, .nodes = nodes,
		.num_inputs = 1, .inputs = graph_inputs,
		.num_outputs = 1, .outputs = graph_outputs,
	};
	opver__lifetime lifetimes[6];

	for (int t = 0; t < 6; t++) {
		tensors[t].rank = 1;
		tensors[t].dims = dims;
		tensors[t].bytes = 16;
		tensors[t].name = "";
	}
	tensors[2].constant_data = weights;
	tensors[4].is_variable = true;
	opver__graph_lifetimes(&graph, NULL, 2, lifetimes);
	cr_assert_eq(lifetimes[0].bytes, 16);
	cr_assert_eq(lifetimes[0].first, 0);
	cr_assert_eq(lifetimes[0].last, 1, "inputs stay intact for the next invoke");
	cr_assert_eq(lifetimes[1].first, 0);
	cr_assert_eq(lifetimes[1].last, 1);
	cr_assert_eq(lifetimes[2].bytes, 0, "constants live in the model, not the arena");
	cr_assert_eq(lifetimes[3].first, 1);
	cr_assert_eq(lifetimes[3].last, 1);
	cr_assert_eq(lifetimes[4].first, 0, "variables persist over the whole run");
	cr_assert_eq(lifetimes[4].last, 1);
	cr_assert_eq(lifetimes[5].bytes, 0, "an unused tensor takes no space");
}

Test(planner, sizes_beyond_addressable_memory_are_refused)
{
	const opver__lifetime huge[] = { { SIZE_MAX, 0, 0 }, { 1000, 0, 0 } };
	const opver__lifetime halves[] = {
		{ SIZE_MAX / 2 + 1, 0, 0 }, { SIZE_MAX / 2 + 1, 1, 1 },
	};
	size_t offsets[2], arena, naive;

	cr_assert_eq(opver__plan_arena(huge, 2, offsets, &arena, &naive), OPVER_ERROR_NOMEM,
		     "aligning SIZE_MAX would wrap to 0");
	cr_assert_eq(opver__plan_arena(halves, 2, offsets, &arena, &naive), OPVER_ERROR_NOMEM,
		     "the sum of two halves of memory wraps");
}

Test(planner, partition_tensors_live_over_the_whole_partition)
{
	/* a -> n0 -> x -> n1 -> y -> n2 -> z -> n3 -> out, nodes 1-2 one
	 * delegate partition: x and z must not share bytes, since a fused
	 * partition reads x while it writes z. */
	int32_t dims[1] = { 4 };
	opver__graph_tensor tensors[5] = { 0 };
	int32_t io[5] = { 0, 1, 2, 3, 4 };
	opver__graph_node nodes[4];
	opver__graph graph = {
		.num_tensors = 5, .tensors = tensors,
		.num_nodes = 4, .nodes = nodes,
		.num_inputs = 1, .inputs = &io[0],
		.num_outputs = 1, .outputs = &io[4],
	};
	/* Nodes 1 and 2 run as step 1. */
	const int32_t partition_steps[4] = { 0, 1, 1, 2 };
	opver__lifetime lifetimes[5];

	for (int t = 0; t < 5; t++) {
		tensors[t].rank = 1;
		tensors[t].dims = dims;
		tensors[t].bytes = 16;
		tensors[t].name = "";
	}
	for (int n = 0; n < 4; n++) {
		memset(&nodes[n], 0, sizeof(nodes[n]));
		nodes[n].num_inputs = 1;
		nodes[n].inputs = &io[n];
		nodes[n].num_outputs = 1;
		nodes[n].outputs = &io[n + 1];
	}
	opver__graph_lifetimes(&graph, NULL, 4, lifetimes);
	cr_assert_eq(lifetimes[1].last, 1, "x: written by node 0, read by node 1");
	cr_assert_eq(lifetimes[3].first, 2, "z: written by node 2");
	opver__graph_lifetimes(&graph, partition_steps, 3, lifetimes);
	cr_assert_eq(lifetimes[1].first, 0);
	cr_assert_eq(lifetimes[1].last, 1, "x: read at the partition's step");
	cr_assert_eq(lifetimes[3].first, 1, "z: written at the partition's step");
	cr_assert_eq(lifetimes[2].first, 1);
	cr_assert_eq(lifetimes[2].last, 1);
	cr_assert_eq(lifetimes[4].last, 2, "the output lives to the last step");
}
