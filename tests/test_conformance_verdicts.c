/*
 * test_conformance_verdicts.c - runs the built opver-conformance as a
 * vendor would: the reference plugin passes against itself; the deliberately
 * wrong plugins fail with a report that names what is wrong and a command
 * that reproduces it; a delegate claiming outside its typed claims (above or
 * below their versions, other types) fails while its partitions are compared
 * with the reference; --list, --op and --seed do what they say.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_tool.h"

/* Every op's cases: minutes under the sanitizers, where 120 s is not
 * enough. */
Test(conformance, reference_plugin_passes_against_itself, .timeout = 900)
{
	spawn_result r;

	conformance(&r, REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0, "%s", r.out);
	cr_assert(strstr(r.out, "DEPTHWISE_CONV_2D/depthwise_conv_2d_float32: ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, " 0 failed") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* Every dilated case fails, with the op, version, dilation, seed and a
 * command reproducing it, at v2 and stored at v1 (below the v2 dilation
 * requires: the kernel's range takes v1); every undilated one passes. */
Test(conformance, wrong_depthwise_fails_with_a_precise_report)
{
	spawn_result r;

	conformance(&r, "--verbose", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	cr_assert_gt(lines_starting(r.out, "PASS DEPTHWISE_CONV_2D/wrong_depthwise_float32: v1 "), 0);
	cr_assert_gt(lines_starting(r.out, "PASS DEPTHWISE_CONV_2D/wrong_depthwise_float32: v2 "), 0);
	cr_assert_gt(lines_starting(r.out, "FAIL DEPTHWISE_CONV_2D/wrong_depthwise_float32: v2 "), 0,
		     "%s", r.out);
	cr_assert_gt(lines_starting(r.out, "FAIL DEPTHWISE_CONV_2D/wrong_depthwise_float32: v1 "), 0);
	cr_assert(strstr(r.out, "    op: DEPTHWISE_CONV_2D version 1 (the rules require v2: dilation ") != NULL,
		  "%.3000s", r.out);
	/* Outcome by dilation: PASS and FAIL lines hold "dilation=WxH". */
	for (const char *line = r.out; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');
		bool pass = strncmp(line, "PASS DEPTHWISE_CONV_2D/", 23) == 0;
		bool fail = strncmp(line, "FAIL DEPTHWISE_CONV_2D/", 23) == 0;
		const char *dilation = strstr(line, " dilation=");

		if (pass || fail) {
			cr_assert(dilation != NULL && dilation < end);
			cr_assert_eq(strncmp(dilation, " dilation=1x1 ", 14) == 0, pass,
				     "%.300s", line);
		}
		line = end ? end + 1 : NULL;
	}
	cr_assert(strstr(r.out, "    params: padding=") != NULL);
	for (int d = 0; d < 3; d++) {
		static const char *const dilated[3] = { "2x1", "1x2", "3x2" };
		char dilation[32];

		snprintf(dilation, sizeof(dilation), " dilation=%s ", dilated[d]);
		cr_assert(strstr(r.out, dilation) != NULL, "no %s case", dilated[d]);
	}
	cr_assert(strstr(r.out, "    op: DEPTHWISE_CONV_2D version 2 (the rules require v2: dilation ") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, "    case seed: 0x") != NULL);
	cr_assert(strstr(r.out, "    mismatch: output element ") != NULL);
	cr_assert(strstr(r.out, "    case: DEPTHWISE_CONV_2D:v2:") != NULL);
	cr_assert(strstr(r.out, "    reproduce: opver-conformance --case DEPTHWISE_CONV_2D:v2:") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, " --seed 1 --reference " REFERENCE_PLUGIN " "
				WRONG_DEPTHWISE "\n") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, "total: ") != NULL);
	spawn_free(&r);
}

/* Claims above the declared v1 fail, naming both versions; the v1
 * partitions it runs are compared and pass. */
Test(conformance, delegate_claiming_above_its_version_fails)
{
	spawn_result r;

	conformance(&r, "--verbose", GREEDY_DELEGATE, NULL);
	assert_status(&r, 1);
	cr_assert_gt(lines_starting(r.out, "FAIL ADD/delegate:greedy_npu: v2 "), 0,
		     "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL ADD/"),
		     lines_starting(r.out, "FAIL ADD/delegate:greedy_npu: v2 "));
	cr_assert_eq(lines_starting(r.out, "FAIL ADD/"),
		     occurrences(r.out, "    delegate claimed ADD v2 above its declared v1\n"));
	cr_assert(strstr(r.out, "claim rejected") != NULL);
	cr_assert_gt(lines_starting(r.out, "PASS ADD/delegate:greedy_npu: v1 "), 0);
	cr_assert_eq(lines_starting(r.out, "SKIP ADD/"), 0, "v1 was exercised");
	spawn_free(&r);
}

/* The delegate's typed claim is float32 ADD v2-3: its claims of v1 fail
 * as below it, of v4 as above it, and of int8 at v2-3 as outside its
 * types; the float32 v2-3 partitions it runs pass. */
Test(conformance, delegate_claims_outside_its_typed_claims_fail)
{
	static const char *const versions[] = { "v2 ", "v3 " };
	char prefix[128];
	spawn_result r;
	int below, above, types = 0;

	conformance(&r, "--verbose", MISCLAIMING_DELEGATE, NULL);
	assert_status(&r, 1);
	below = occurrences(r.out, "    delegate claimed ADD v1 below its declared v2\n");
	above = occurrences(r.out, "    delegate claimed ADD v4 above its declared v3\n");
	cr_assert_gt(below, 0, "%.3000s", r.out);
	cr_assert_gt(above, 0, "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL " MISCLAIMING_SUITE "v1 "), below);
	cr_assert_eq(lines_starting(r.out, "FAIL " MISCLAIMING_SUITE "v4 "), above);
	for (size_t v = 0; v < 2; v++) {
		char why[128];
		int typed;

		snprintf(why, sizeof(why),
			 "    delegate claimed ADD %.2s with tensor types outside its declared signatures\n",
			 versions[v]);
		typed = occurrences(r.out, why);
		cr_assert_gt(typed, 0, "%s: %.3000s", versions[v], r.out);
		snprintf(prefix, sizeof(prefix), "FAIL %s%sint8,int8->int8 ",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_eq(lines_starting(r.out, prefix), typed);
		snprintf(prefix, sizeof(prefix), "FAIL %s%sfloat32",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_eq(lines_starting(r.out, prefix), 0, "%.3000s", r.out);
		snprintf(prefix, sizeof(prefix), "PASS %s%sfloat32,float32->float32 ",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_gt(lines_starting(r.out, prefix), 0, "%.3000s", r.out);
		types += typed;
	}
	cr_assert_eq(lines_starting(r.out, "FAIL "), below + above + types);
	cr_assert_eq(lines_starting(r.out, "SKIP ADD/"), 0, "v2-3 were exercised");
	spawn_free(&r);
}

/* --op with the seed of a failure fails the same case again. */
Test(conformance, op_and_seed_reproduce_the_failure)
{
	char first_failure[1024];
	spawn_result r, again;

	conformance(&r, "--seed", "42", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	cr_assert(find_line(r.out, "FAIL DEPTHWISE_CONV_2D/", first_failure, sizeof(first_failure)));
	conformance(&again, "--op", "DEPTHWISE_CONV_2D", "--seed", "42", WRONG_DEPTHWISE, NULL);
	assert_status(&again, 1);
	cr_assert(strstr(again.out, first_failure) != NULL, "%s not in:\n%.3000s",
		  first_failure, again.out);
	spawn_free(&r);
	spawn_free(&again);
}

/* --list runs nothing: the wrong plugin lists its cases and exits 0. */
Test(conformance, list_shows_cases_without_running_them)
{
	spawn_result r;
	int lines;

	conformance(&r, "--list", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 0);
	lines = lines_starting(r.out, "DEPTHWISE_CONV_2D/wrong_depthwise_float32 v");
	cr_assert_gt(lines, 0);
	cr_assert_eq(lines, occurrences(r.out, "\n"), "%s", r.out);
	cr_assert_eq(occurrences(r.out, " seed=0x"), lines);
	cr_assert(strstr(r.out, "total:") == NULL);
	cr_assert(strstr(r.out, "PASS") == NULL && strstr(r.out, "FAIL") == NULL);
	spawn_free(&r);
}

/* --op keeps one op's cases, with the seeds they have in a full run. */
Test(conformance, op_narrows_without_changing_case_seeds)
{
	spawn_result all, one, none;
	int depthwise;

	conformance(&all, "--list", REFERENCE_PLUGIN, NULL);
	conformance(&one, "--list", "--op", "depthwise_conv_2d", REFERENCE_PLUGIN, NULL);
	conformance(&none, "--list", "--op", "LSH_PROJECTION", REFERENCE_PLUGIN,
		    NULL);
	assert_status(&all, 0);
	assert_status(&one, 0);
	assert_status(&none, 0);
	depthwise = lines_starting(one.out, "DEPTHWISE_CONV_2D/");
	cr_assert_gt(depthwise, 0);
	cr_assert_eq(depthwise, occurrences(one.out, "\n"));
	cr_assert_eq(depthwise, lines_starting(all.out, "DEPTHWISE_CONV_2D/"));
	cr_assert(strstr(all.out, one.out) != NULL,
		  "the DEPTHWISE_CONV_2D cases differ between the runs");
	cr_assert_str_eq(none.out, "");
	spawn_free(&all);
	spawn_free(&one);
	spawn_free(&none);
}

Test(conformance, same_seed_gives_the_same_run)
{
	spawn_result a, b, c;

	conformance(&a, "--verbose", "--seed", "7", WRONG_DEPTHWISE, NULL);
	conformance(&b, "--verbose", "--seed", "7", WRONG_DEPTHWISE, NULL);
	conformance(&c, "--verbose", "--seed", "8", WRONG_DEPTHWISE, NULL);
	assert_status(&a, 1);
	cr_assert_str_eq(a.out, b.out);
	cr_assert_str_neq(a.out, c.out, "another seed, other cases");
	spawn_free(&a);
	spawn_free(&b);
	spawn_free(&c);
}

/* Reads a whole file; the caller frees it. */

Test(conformance, wrong_relu6_fails_every_relu6_case)
{
	static const char *const seeds[] = { "1", "2", "3" };

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		spawn_result r;
		int relu6 = 0;

		conformance(&r, "--verbose", "--seed", seeds[s], WRONG_RELU6,
			    NULL);
		assert_status(&r, 1);
		for (const char *line = r.out; *line != '\0';) {
			const char *end = strchr(line, '\n');
			const char *activation = strstr(line, " activation=");
			bool pass = strncmp(line, "PASS ADD/", 9) == 0;
			bool fail = strncmp(line, "FAIL ADD/", 9) == 0;

			if (end == NULL)
				end = line + strlen(line);
			if (pass || fail) {
				bool is_relu6;

				cr_assert(activation != NULL && activation < end);
				is_relu6 = strncmp(activation, " activation=RELU6 ",
						   18) == 0;
				cr_assert_eq(fail, is_relu6, "seed %s: %.300s",
					     seeds[s], line);
				relu6 += is_relu6;
			}
			line = *end != '\0' ? end + 1 : end;
		}
		cr_assert_gt(relu6, 0, "seed %s: no RELU6 case\n%s", seeds[s],
			     r.out);
		spawn_free(&r);
	}
}

/* The rank of the output shape of a --list line: "-> [d,d,...]". */
static int output_rank(const char *line, const char *end)
{
	const char *shape = strstr(line, "-> [");
	int rank = 1;

	if (shape == NULL || shape > end)
		return 0;
	for (shape += 4; *shape != ']' && shape < end; shape++)
		rank += *shape == ',';
	return rank;
}

/* ADD and MUL broadcast up to 6-D: cases of ranks 5 and 6 are listed. */
Test(conformance, add_and_mul_cases_reach_rank_6)
{
	static const char *const ops[] = { "ADD", "MUL" };

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		int seen[7] = { 0 };
		spawn_result r;

		conformance(&r, "--list", "--op", ops[o], REFERENCE_PLUGIN, NULL);
		assert_status(&r, 0);
		for (const char *line = r.out; *line != '\0';) {
			const char *end = strchr(line, '\n');
			int rank;

			if (end == NULL)
				end = line + strlen(line);
			rank = output_rank(line, end);
			cr_assert(rank >= 1 && rank <= 6, "%.300s", line);
			seen[rank]++;
			line = *end != '\0' ? end + 1 : end;
		}
		cr_assert_gt(seen[5], 0, "%s: no rank-5 case", ops[o]);
		cr_assert_gt(seen[6], 0, "%s: no rank-6 case", ops[o]);
		spawn_free(&r);
	}
}

/* Cases stored below the version their types require (int8 CONV_2D at
 * v1-2, as models store them) run on every kernel whose range takes that
 * version: the reference passes them. */
Test(conformance, cases_below_the_required_version_run)
{
	spawn_result r;

	conformance(&r, "--verbose", "--op", "CONV_2D", REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert_gt(lines_starting(r.out, "PASS CONV_2D/conv_2d_int8: v1 int8,"), 0,
		     "%.3000s", r.out);
	cr_assert_gt(lines_starting(r.out, "PASS CONV_2D/conv_2d_int8: v2 int8,"), 0);
	cr_assert_eq(lines_starting(r.out, "SKIP CONV_2D/conv_2d_int8: v"), 0,
		     "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0);
	spawn_free(&r);
}

/* A kernel written before FULLY_CONNECTED v4 whose range (v1-3) takes
 * int8 models stored at v1-3 but computes nothing: those cases, once
 * skipped, fail, saying which version the rules require. */
Test(conformance, a_kernel_taking_low_stored_versions_must_compute_them)
{
	spawn_result r;

	conformance(&r, "--op", "FULLY_CONNECTED", OLD_FC, NULL);
	assert_status(&r, 1);
	for (int v = 1; v <= 3; v++) {
		char prefix[64];

		snprintf(prefix, sizeof(prefix),
			 "FAIL FULLY_CONNECTED/old_fc_int8: v%d int8,", v);
		cr_assert_gt(lines_starting(r.out, prefix), 0, "%.3000s", r.out);
	}
	cr_assert(strstr(r.out, "    op: FULLY_CONNECTED version 1 (the rules require v4: ") != NULL,
		  "%.3000s", r.out);
	spawn_free(&r);
}
