/*
 * test_conformance_hard.c - opver-conformance catches one hand-written
 * bug of each class issue 16 names on every seed of a range, and the
 * reference passes the same runs:
 *
 *   fc_ties        int8 FULLY_CONNECTED rounding ties toward zero in its
 *                  final shift (caught by the hard-spot cases' ties)
 *   add_no_clamp   int8 ADD skipping RELU's clamp when broadcasting
 *   old_fc         int8 FULLY_CONNECTED stored below v4 mishandled
 *   wrong_padding  AVERAGE_POOL_2D's odd SAME padding on the wrong side
 *   pool_half_up   int8 AVERAGE_POOL_2D rounding its average's ties half
 *                  up (caught by the hard cases' negative ties)
 *
 * and that a quantized mismatch's report derives its element step by
 * step, as computed here by hand (SUB's against the single-rounding
 * build).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "conformance_tool.h"

#define FC_TIES TEST_PLUGIN_DIR "/fc_ties.so"
#define ADD_NO_CLAMP TEST_PLUGIN_DIR "/add_no_clamp.so"
#define SINGLE_ROUNDING TEST_PLUGIN_DIR "/reference_single_rounding.so"
#define POOL_HALF_UP TEST_PLUGIN_DIR "/pool_half_up.so"

/* Seeds 1..SEEDS. */
#define SEEDS 100

static const struct bug {
	const char *plugin, *op, *failing;
} bugs[] = {
	{ FC_TIES, "FULLY_CONNECTED", "FAIL FULLY_CONNECTED/fc_ties_int8: " },
	{ ADD_NO_CLAMP, "ADD", "FAIL ADD/add_no_clamp_int8: " },
	{ OLD_FC, "FULLY_CONNECTED", "FAIL FULLY_CONNECTED/old_fc_int8: " },
	{ WRONG_PADDING, "AVERAGE_POOL_2D",
	  "FAIL AVERAGE_POOL_2D/wrong_padding_float32: " },
	{ POOL_HALF_UP, "AVERAGE_POOL_2D",
	  "FAIL AVERAGE_POOL_2D/pool_half_up_int8: " },
};
#define NUM_BUGS (sizeof(bugs) / sizeof(bugs[0]))

/* Runs bug b's op on `plugin` at `seed`. */
static void run(spawn_result *r, const struct bug *b, const char *plugin,
		int seed)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", seed);
	conformance(r, "--seed", text, "--op", b->op, plugin, NULL);
}

/* Bug b fails on every seed 1..SEEDS, and each time some failing case's
 * line holds `must_hold` (NULL: anything). */
static void caught_on_every_seed(const struct bug *b, const char *must_hold)
{
	for (int seed = 1; seed <= SEEDS; seed++) {
		spawn_result r;

		run(&r, b, b->plugin, seed);
		cr_assert_eq(r.status, 1, "%s, seed %d: exit %d\n%.3000s",
			     b->plugin, seed, r.status, r.out);
		cr_assert_gt(lines_starting(r.out, b->failing), 0,
			     "%s, seed %d: nothing failed\n%.3000s", b->plugin,
			     seed, r.out);
		cr_assert(must_hold == NULL || strstr(r.out, must_hold) != NULL,
			  "%s, seed %d: no failing line with '%s'\n%.3000s",
			  b->plugin, seed, must_hold, r.out);
		spawn_free(&r);
	}
}

/* The rounding bug is caught by the hard cases themselves, which seek
 * ties, and not only by chance: on every seed a case at the ties spot
 * fails (only failures print their parameters). */
Test(conformance_hard, ties_toward_zero_are_caught_on_every_seed,
     .timeout = 300)
{
	caught_on_every_seed(&bugs[0], " spot=ties ");
}

Test(conformance_hard, a_skipped_clamp_when_broadcasting_is_caught_on_every_seed,
     .timeout = 300)
{
	caught_on_every_seed(&bugs[1], NULL);
}

Test(conformance_hard, low_stored_versions_mishandled_are_caught_on_every_seed,
     .timeout = 300)
{
	caught_on_every_seed(&bugs[2], NULL);
}

Test(conformance_hard, odd_padding_on_the_wrong_side_is_caught_on_every_seed,
     .timeout = 300)
{
	caught_on_every_seed(&bugs[3], NULL);
}

/* Lines of `text` holding every one of the needles. */
static int lines_with(const char *text, const char *const *needles,
		      size_t count)
{
	int found = 0;

	for (const char *line = text; *line != '\0';) {
		const size_t length = strcspn(line, "\n");
		size_t held = 0;

		for (size_t i = 0; i < count; i++) {
			const char *at = strstr(line, needles[i]);

			held += at != NULL && at < line + length;
		}
		found += held == count;
		line += length + (line[length] == '\n');
	}
	return found;
}

/*
 * The pooling hard cases plant ties: every int8 one that can show a
 * negative tie fails (no activation to clamp it away, a zero point below
 * the highest so that sums are negative).  Without the planted ties some
 * pass.
 */
Test(conformance_hard, pool_ties_rounded_half_up_are_caught_on_every_seed,
     .timeout = 300)
{
	static const char *const passed[] = {
		"PASS AVERAGE_POOL_2D/pool_half_up_int8: ",
		"activation=NONE zero_point=", " hard seed=",
		"zero_point=highest hard seed=",
	};

	caught_on_every_seed(&bugs[4], " hard seed=");
	for (int seed = 1; seed <= SEEDS; seed++) {
		spawn_result r;
		char text[16];

		snprintf(text, sizeof(text), "%d", seed);
		conformance(&r, "--seed", text, "--op", "AVERAGE_POOL_2D",
			    "--verbose", POOL_HALF_UP, NULL);
		cr_assert_eq(lines_with(r.out, passed, 3),
			     lines_with(r.out, passed, 4),
			     "seed %d: a negative tie passed\n%.3000s", seed,
			     r.out);
		spawn_free(&r);
	}
}

/* The reference against itself on the same ops (FULLY_CONNECTED once),
 * on the first REFERENCE_SEEDS seeds: the full range would double the
 * test's time, under ASan past its timeout, for runs test_oracle and the
 * default-seed run already cover. */
#define REFERENCE_SEEDS 20

Test(conformance_hard, the_reference_passes_the_same_ops, .timeout = 300)
{
	for (size_t i = 0; i < NUM_BUGS; i++) {
		/* old_fc: FULLY_CONNECTED again; pool_half_up:
		 * AVERAGE_POOL_2D again. */
		if (i == 2 || i == 4)
			continue;
		for (int seed = 1; seed <= REFERENCE_SEEDS; seed++) {
			spawn_result r;

			run(&r, &bugs[i], REFERENCE_PLUGIN, seed);
			assert_status(&r, 0);
			cr_assert_eq(lines_starting(r.out, "FAIL "), 0);
			spawn_free(&r);
		}
	}
}

/* ---------------------------------------------------------------- reports */

/* One case of fc_ties at seed 1, derived by hand: accumulator -16324 (the
 * two products of its inputs), rescale 0.0056073512 x 0.00265285396 /
 * 0.00284000998 = 0.005237828 = 1439763161 x 2^-7 / 2^31;
 * -16324 x 1439763161 / 2^31 = -10944.29 rounds to -10944, / 2^7 =
 * -85.5, a tie, away from zero -86, + zero point -10 = -96. */
Test(conformance_hard, a_rounding_mismatch_is_derived_step_by_step)
{
	spawn_result r;

	conformance(&r, "--case", "FULLY_CONNECTED:v1:7.0", "--seed", "1",
		    FC_TIES, NULL);
	assert_status(&r, 1);
	cr_assert(strstr(r.out, "plugin -95, reference -96; 1 of 8 elements differ, each by one step") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "accumulator -16324 = bias 0 + 2 products (input zero point 3, filter zero point 0)") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, " 0.00523782787 = 1439763161 x 2^-7 / 2^31") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "-> -10944; shift right 7: -85.500000 -> -86 (a tie, rounded away from zero)") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "+ output zero point -10 = -96 before the clamp; clamp [-128, 127] (NONE) -> -96") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "likely bug class: rounding: every difference is one step, and each first one lies on a tie") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

/* Every failing case of both quantized bug plugins is derived, and the
 * derivation ends at the reference's value. */
Test(conformance_hard, derivations_end_at_the_reference_value)
{
	for (size_t i = 0; i < 2; i++) {
		spawn_result r;

		run(&r, &bugs[i], bugs[i].plugin, 1);
		assert_status(&r, 1);
		cr_assert_eq(occurrences(r.out, "requantization of element "),
			     lines_starting(r.out, "FAIL "), "%.3000s", r.out);
		cr_assert_eq(occurrences(r.out, "the reference's value: "),
			     lines_starting(r.out, "FAIL "), "%.3000s", r.out);
		cr_assert_null(strstr(r.out, "not this derivation's"),
			       "%.3000s", r.out);
		spawn_free(&r);
	}
}

/*
 * SUB's derivation subtracts input 2 once rescaled, as the reference and
 * TFLite do.  The single-rounding build against case SUB:v1:71.0 at seed
 * 1, its first differing element by hand: input 1 at its zero point is 0;
 * input 2, 116 with zero point 127, is -11 x 2^20, its high multiply by
 * 2147483136 / 2^31 -11534333.25 -> -11534333, halved -5767166.5 ->
 * -5767167 (a tie); the difference 5767167; the output rescale 2^-20
 * halves it to 2883583.5 -> 2883584 and shifts right 19: 5.5 -> 6, + -128
 * = -122 (rounded once, 5.4999990 -> 5: the plugin's -123).  Every other
 * failing SUB case is derived to the reference's value too.
 */
Test(conformance_hard, sub_mismatches_are_derived_subtracting_input_2)
{
	spawn_result r;

	conformance(&r, "--op", "SUB", "--seed", "1", SINGLE_ROUNDING, NULL);
	assert_status(&r, 1);
	cr_assert(strstr(r.out, "shift right 1: -5767166.500000 -> -5767167 (a tie, rounded away from zero)\n      difference 5767167; ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "+ output zero point -128 = -122 before the clamp; clamp [-128, 64] (RELU6) -> -122\n      the reference's value: -122\n") != NULL,
		  "%s", r.out);
	cr_assert_gt(lines_starting(r.out, "FAIL SUB/"), 0, "%s", r.out);
	cr_assert_eq(occurrences(r.out, "requantization of element "),
		     lines_starting(r.out, "FAIL SUB/"), "%.3000s", r.out);
	cr_assert_eq(occurrences(r.out, "the reference's value: "),
		     lines_starting(r.out, "FAIL SUB/"), "%.3000s", r.out);
	cr_assert_null(strstr(r.out, "not this derivation's"), "%.3000s",
		       r.out);
	spawn_free(&r);
}

/*
 * int16 ADD with general scales is derived with TFLite's 15-bit left
 * shift.  Case ADD:v1:155.0 at seed 1 by hand: scales 2^-6, 2^-6 and
 * 2^-4; -19528 x 2^15 = -639893504, halved (scale / 2 x the larger =
 * 1/2) -319946752; -6690 x 2^15 halved -109608960; sum -429555712;
 * output rescale 2 x 2^-6 / (2^15 x 2^-4) = 2^-16 = 2^30 x 2^-15 / 2^31:
 * halved -214777856, shifted right 15 -6554.5, a tie, -6555.  Every other
 * int16 ADD and MUL mismatch of the single-rounding build is derived to
 * the reference's value too.
 */
Test(conformance_hard, int16_add_mismatches_are_derived_with_a_15_bit_shift)
{
	spawn_result r;

	conformance(&r, "--case", "ADD:v1:155.0", "--seed", "1",
		    SINGLE_ROUNDING, NULL);
	assert_status(&r, 1);
	cr_assert(strstr(r.out, "input 1: (-19528 - 0) << 15 = -639893504; ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "sum -429555712; output rescale (2 x the larger input scale / (2^15 x output scale)) 1.52587891e-05 = 1073741824 x 2^-15 / 2^31\n") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "shift right 15: -6554.500000 -> -6555 (a tie, rounded away from zero)\n") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "the reference's value: -6555\n") != NULL,
		  "%s", r.out);
	spawn_free(&r);
	for (int i = 0; i < 2; i++) {
		conformance(&r, "--op", i ? "MUL" : "ADD", "--seed", "1",
			    SINGLE_ROUNDING, NULL);
		assert_status(&r, 1);
		cr_assert_gt(lines_starting(r.out, i ? "FAIL MUL/mul_int16: " :
						       "FAIL ADD/add_int16: "),
			     0, "%.3000s", r.out);
		cr_assert_eq(occurrences(r.out, "the reference's value: "),
			     lines_starting(r.out, "FAIL "), "%.3000s", r.out);
		cr_assert_null(strstr(r.out, "not this derivation's"),
			       "%.3000s", r.out);
		spawn_free(&r);
	}
}

/*
 * An AVERAGE_POOL_2D mismatch is derived from its window.  pool_half_up's
 * case AVERAGE_POOL_2D:v1:48.0 at seed 1 by hand: output element 4
 * ([0,0,1,0], window 1 x 2 at stride 2 along the width) averages input
 * row 0, columns 2 and 3 of channel 0, flat elements 8 and 12 of the
 * input: -120 and -23, sum -143, / 2 = -71.5, a tie, away from zero -72
 * (the plugin's half up: -71).
 */
Test(conformance_hard, an_average_pool_mismatch_is_derived_from_its_window)
{
	spawn_result r;

	conformance(&r, "--case", "AVERAGE_POOL_2D:v1:48.0", "--seed", "1",
		    POOL_HALF_UP, NULL);
	assert_status(&r, 1);
	cr_assert(strstr(r.out, "plugin -71, reference -72; ") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.out, "average of element 4: the sum of the 2 input values in rows 0..0, columns 2..3 (zero point -128) is -143\n") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "reference: -143 / 2 = -71.500000 -> -72 (a tie, rounded away from zero); clamp [-128, 127] (NONE) -> -72\n") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "the reference's value: -72\n") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.out, "likely bug class: rounding: every difference is one step, and each first one lies on a tie") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

/* A hard case names the zero points it has, not the side drawn for them:
 * int16 tensors are symmetric, so every int16 ADD hard case lists 0s. */
Test(conformance_hard, hard_cases_name_their_zero_points)
{
	static const char *const int16[] = {
		"ADD/add_int16 ", " spot=", " zero_points=0,0,0 ",
	};
	spawn_result r;

	conformance(&r, "--list", "--op", "ADD", REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert_gt(lines_with(r.out, int16, 2), 0, "%.3000s", r.out);
	cr_assert_eq(lines_with(r.out, int16, 3), lines_with(r.out, int16, 2),
		     "%.3000s", r.out);
	spawn_free(&r);
}
