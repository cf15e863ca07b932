/*
 * test_reference_add_broadcast_plan.c - the plan the element-wise kernels
 * broadcast by (plugins/reference/broadcast.c): runs, repeats and merged
 * dimensions.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "add_harness.h"
#include "../plugins/reference/broadcast.h"

/* ------------------------------------------------------- broadcast plan */

TestSuite(broadcast_plan, .init = setup, .fini = teardown);

static ref_broadcast plan_for(int32_t ra, const int32_t *da, int32_t rb,
			      const int32_t *db, int32_t ro,
			      const int32_t *dout)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, ra, da, NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, rb, db, NULL);
	opver_tensor *o = kh_tensor(&h, "o", OPVER_TYPE_FLOAT32, ro, dout,
				    NULL);
	ref_broadcast plan;

	cr_assert_eq(ref_broadcast_plan(kh_context(&h), a, b, o, &plan),
		     OPVER_OK, "%s", h.errors);
	return plan;
}

Test(broadcast_plan, same_shapes_are_one_flat_run)
{
	ref_broadcast p = plan_for(KH_DIMS(2, 3, 4, 5), KH_DIMS(2, 3, 4, 5),
				   KH_DIMS(2, 3, 4, 5));

	cr_expect_eq(p.runs, 1);
	cr_expect_eq(p.run_length, 120);
	cr_expect_eq(p.kind, REF_RUN_ELEMENTWISE);
	cr_expect_eq(p.outer_rank, 0);
}

Test(broadcast_plan, a_row_repeats_along_the_rows)
{
	/* [4, 3] + [3]: 4 runs of 3, input 2 starting over each time. */
	ref_broadcast p = plan_for(KH_DIMS(4, 3), KH_DIMS(3), KH_DIMS(4, 3));

	cr_expect_eq(p.runs, 4);
	cr_expect_eq(p.run_length, 3);
	cr_expect_eq(p.kind, REF_RUN_ELEMENTWISE);
	cr_expect_eq(p.outer_rank, 1);
	cr_expect_eq(p.stride1[0], 3);
	cr_expect_eq(p.stride2[0], 0);
}

Test(broadcast_plan, a_column_repeats_its_element_along_each_run)
{
	/* [4, 3] + [4, 1]: runs of 3 in which input 2 holds one value. */
	ref_broadcast p = plan_for(KH_DIMS(4, 3), KH_DIMS(4, 1),
				   KH_DIMS(4, 3));

	cr_expect_eq(p.runs, 4);
	cr_expect_eq(p.run_length, 3);
	cr_expect_eq(p.kind, REF_RUN_INPUT2_REPEATS);
	cr_expect_eq(p.stride1[0], 3);
	cr_expect_eq(p.stride2[0], 1);
}

Test(broadcast_plan, a_scalar_is_one_run_over_everything)
{
	ref_broadcast p = plan_for(0, NULL, KH_DIMS(2, 1, 3, 4),
				   KH_DIMS(2, 1, 3, 4));

	cr_expect_eq(p.runs, 1);
	cr_expect_eq(p.run_length, 24);
	cr_expect_eq(p.kind, REF_RUN_INPUT1_REPEATS);
}

Test(broadcast_plan, dimensions_that_broadcast_alike_merge)
{
	/* [2, 3, 4, 5] + [1, 1, 4, 5]: the two outer dimensions merge into
	 * one of 6, the inner two into runs of 20. */
	ref_broadcast p = plan_for(KH_DIMS(2, 3, 4, 5), KH_DIMS(1, 1, 4, 5),
				   KH_DIMS(2, 3, 4, 5));

	cr_expect_eq(p.runs, 6);
	cr_expect_eq(p.run_length, 20);
	cr_expect_eq(p.outer_rank, 1);
	cr_expect_eq(p.outer_size[0], 6);
}
