/*
 * test_conformance_report_text.c - the conformance report's counts, its human
 * summary and its TAP 13 output, with hostile names (quotes, newlines,
 * control characters).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "xml_check.h"
#include "report_output.h"

/* ---------------------------------------------------------------- counts */

Test(conformance_report, counts_each_outcome)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("ADD/add_float32", "case 1", CF_FAIL, "differs");
	add("hygiene", "exports", CF_PASS, NULL);
	add("ADD/add_float32", "case 2", CF_SKIP, "no reference");
	add("hygiene", "leaks", CF_FAIL, NULL);
	add("ADD/add_float32", "case 3", CF_PASS, NULL);

	cr_assert_eq(cf_report_count(report, CF_PASS), 3);
	cr_assert_eq(cf_report_count(report, CF_FAIL), 2);
	cr_assert_eq(cf_report_count(report, CF_SKIP), 1);
}

Test(conformance_report, copies_what_it_is_given)
{
	char suite[] = "MUL/mul_int8";
	char name[] = "case 7";
	char details[] = "output 0 differs";

	add(suite, name, CF_FAIL, details);
	memset(suite, 'x', sizeof(suite) - 1);
	memset(name, 'y', sizeof(name) - 1);
	memset(details, 'z', sizeof(details) - 1);

	written(HUMAN);
	assert_line(output, "FAIL MUL/mul_int8: case 7");
	assert_line(output, "    output 0 differs");
}

/* ---------------------------------------------------------------- human */

Test(conformance_report, human_summary_shows_failures_then_suites)
{
	const char *failure, *summary;

	add("ADD/add_float32", "case 0", CF_PASS, "nothing to see");
	add("ADD/add_float32", "case 1", CF_FAIL,
	    "output 0 element 3: 1.5 vs 1.25\nreproduce: --op ADD --seed 9\n");
	add("hygiene", "exports", CF_SKIP, "not an ELF file");
	add("ADD/add_float32", "case 2", CF_PASS, NULL);
	written(HUMAN);

	assert_line(output, "FAIL ADD/add_float32: case 1");
	assert_line(output, "    output 0 element 3: 1.5 vs 1.25");
	assert_line(output, "    reproduce: --op ADD --seed 9");
	assert_line(output, "ADD/add_float32: 2 passed, 1 failed, 0 skipped");
	assert_line(output, "hygiene: 0 passed, 0 failed, 1 skipped");
	assert_line(output, "total: 2 passed, 1 failed, 1 skipped");
	cr_assert_null(strstr(output, "case 0"), "%s", output);
	cr_assert_null(strstr(output, "nothing to see"), "%s", output);
	cr_assert_null(strstr(output, "not an ELF file"), "%s", output);
	/* Failures first, the suites in the order they first appear, the
	 * total last. */
	failure = strstr(output, "FAIL ");
	summary = strstr(output, "ADD/add_float32: 2 passed");
	cr_assert(failure < summary, "%s", output);
	cr_assert(summary < strstr(output, "hygiene: 0 passed"), "%s", output);
	cr_assert(strstr(output, "hygiene: 0 passed") <
		  strstr(output, "total: "), "%s", output);
	cr_assert_eq(output[strlen(output) - 1], '\n');
}

Test(conformance_report, verbose_summary_shows_every_check_in_order)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("hygiene", "exports", CF_SKIP, "not an ELF file");
	add("ADD/add_float32", "case 1", CF_FAIL, "differs");
	written(HUMAN_VERBOSE);

	assert_line(output, "PASS ADD/add_float32: case 0");
	assert_line(output, "SKIP hygiene: exports");
	assert_line(output, "    not an ELF file");
	assert_line(output, "FAIL ADD/add_float32: case 1");
	cr_assert(strstr(output, "PASS ") < strstr(output, "SKIP ") &&
		  strstr(output, "SKIP ") < strstr(output, "FAIL "),
		  "%s", output);
}

Test(conformance_report, human_summary_escapes_control_characters)
{
	add("S\x1b[31m", "two\nlines\x7f", CF_FAIL, "tab\tkept\n\x1b[2Jgone");
	written(HUMAN);

	assert_line(output, "FAIL S\\u001B[31m: two\\u000Alines\\u007F");
	assert_line(output, "    tab\tkept");
	assert_line(output, "    \\u001B[2Jgone");
	cr_assert_not(has_raw_control(output, true), "%s", output);
}

/* ---------------------------------------------------------------- TAP */

Test(conformance_report, tap_has_version_plan_and_numbered_lines)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("ADD/add_float32", "case 1", CF_FAIL,
	    "output 0 differs\nreproduce: --seed 3");
	add("hygiene", "heap", CF_SKIP, "AddressSanitizer hides the heap\nmore");
	add("hygiene", "fds", CF_SKIP, NULL);
	written(TAP);

	cr_assert(strncmp(output, "TAP version 13\n1..4\n", 20) == 0, "%s",
		  output);
	assert_line(output, "ok 1 - ADD/add_float32: case 0");
	assert_line(output, "not ok 2 - ADD/add_float32: case 1");
	assert_line(output, "ok 3 - hygiene: heap # SKIP AddressSanitizer hides the heap");
	assert_line(output, "ok 4 - hygiene: fds # SKIP");
	cr_assert_not_null(strstr(output,
				  "not ok 2 - ADD/add_float32: case 1\n"
				  "  ---\n"
				  "  message: |\n"
				  "    output 0 differs\n"
				  "    reproduce: --seed 3\n"
				  "  ...\n"
				  "ok 3 "),
			   "%s", output);
}

Test(conformance_report, tap_escapes_directives_and_newlines_in_names)
{
	add("suite#1", "a\\b # TODO\nok 9 - forged", CF_PASS, NULL);
	written(TAP);

	assert_line(output, "ok 1 - suite\\#1: a\\\\b \\# TODO\\u000Aok 9 - forged");
	cr_assert_not(has_line(output, "ok 9 - forged"), "%s", output);
}

Test(conformance_report, tap_yaml_states_the_indentation_of_indented_details)
{
	add("S", "n", CF_FAIL, "\n  indented first line\nsecond");
	written(TAP);

	cr_assert_not_null(strstr(output,
				  "  message: |2\n"
				  "    \n"
				  "      indented first line\n"
				  "    second\n"
				  "  ...\n"),
			   "%s", output);
}

/* ------------------------------------------------------ likely bug class */

Test(conformance_report, human_summary_names_a_broadcasting_rounding_bug)
{
	add("ADD/add_int8", "v2 activation=RELU broadcast=same", CF_PASS, NULL);
	add("ADD/add_int8", "v2 activation=RELU broadcast=scalar", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 3, reference 4; 2 of 8 elements differ, each by one step (must match exactly)\n");
	add("ADD/add_int8", "v2 activation=NONE broadcast=last-dim", CF_FAIL,
	    "mismatch: output element 1 [1]: plugin 3, reference 4; 1 of 8 elements differ, each by one step (must match exactly)\n");
	written(HUMAN);

	assert_line(output, "ADD/add_int8: 1 passed, 2 failed, 0 skipped");
	assert_line(output, "  likely bug class: rounding: every difference is one step");
	assert_line(output, "  likely bug class: broadcasting: only cases whose inputs' shapes differ fail");
	/* A case without activation failed too. */
	cr_assert_null(strstr(output, "fused activation"), "%s", output);
}

Test(conformance_report, human_summary_names_ties_activation_and_padding)
{
	add("CONV_2D/conv_int8", "v3 padding=VALID activation=NONE", CF_PASS, NULL);
	add("CONV_2D/conv_int8", "v3 padding=SAME activation=RELU", CF_FAIL,
	    "mismatch: output element 2 [0,0,0,2]: plugin 3, reference 4; 1 of 8 elements differ, each by one step (must match exactly)\n"
	    "window of the first differing element: input rows -1..1, columns 0..2 (of 0..4 x 0..4); it reaches into the padding\n"
	    "  reference: high multiply 10 x 1073741824 / 2^31 = 5.000000 -> 5; shift right 1: 2.500000 -> 3 (a tie, rounded away from zero)\n");
	written(HUMAN);

	assert_line(output, "  likely bug class: rounding: every difference is one step, and each first one lies on a tie of the final shift (ties rounded the wrong way)");
	assert_line(output, "  likely bug class: the fused activation: only cases with one fail");
	assert_line(output, "  likely bug class: padding: every first difference has a window reaching into the padding");
}

Test(conformance_report, human_summary_names_low_stored_versions)
{
	add("FULLY_CONNECTED/old_fc_int8", "v1 int8", CF_FAIL,
	    "op: FULLY_CONNECTED version 1 (the rules require v4: int8 input and weights, int8 output)\n"
	    "mismatch: output element 0 [0,0]: plugin 0, reference 90; 8 of 8 elements differ (must match exactly)\n");
	add("FULLY_CONNECTED/old_fc_int8", "v3 int8", CF_FAIL,
	    "op: FULLY_CONNECTED version 3 (the rules require v4: int8 input and weights, int8 output)\n");
	written(HUMAN);

	assert_line(output, "  likely bug class: stored versions: every failing case is stored below the version its types require, which must compute as that version");
	cr_assert_null(strstr(output, "rounding"), "%s", output);
}

/* The op line names the rules' version at every stored version: only
 * failures stored below it make the class. */
Test(conformance_report, human_summary_names_no_low_stored_versions_at_the_required_one)
{
	add("AVERAGE_POOL_2D/pool_int8", "v1 int8", CF_FAIL,
	    "op: AVERAGE_POOL_2D version 1 (the rules require v2: int8 input)\n");
	add("AVERAGE_POOL_2D/pool_int8", "v2 int8", CF_FAIL,
	    "op: AVERAGE_POOL_2D version 2 (the rules require v2: int8 input)\n");
	written(HUMAN);

	cr_assert_null(strstr(output, "stored versions"), "%s", output);
}

Test(conformance_report, human_summary_names_no_class_without_a_pattern)
{
	add("MUL/mul_int8", "v2 activation=RELU", CF_PASS, NULL);
	add("MUL/mul_int8", "v2 activation=NONE", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 1, reference 9; 1 of 8 elements differ (must match exactly)\n");
	written(HUMAN);

	cr_assert_null(strstr(output, "likely bug class"), "%s", output);
}

/* TAP names the likely classes too, as diagnostics after the tests, a
 * line each prefixed with its suite; a suite without a pattern gets
 * none. */
Test(conformance_report, tap_names_the_likely_bug_classes)
{
	add("ADD/add_int8", "v2 activation=RELU broadcast=same", CF_PASS, NULL);
	add("ADD/add_int8", "v2 activation=RELU broadcast=scalar", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 3, reference 4; 2 of 8 elements differ, each by one step (must match exactly)\n");
	add("MUL/mul_int8", "v2 activation=NONE", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 1, reference 9; 1 of 8 elements differ (must match exactly)\n");
	written(TAP);

	assert_line(output, "# ADD/add_int8: likely bug class: rounding: every difference is one step");
	assert_line(output, "# ADD/add_int8: likely bug class: broadcasting: only cases whose inputs' shapes differ fail");
	cr_assert_null(strstr(output, "# MUL/mul_int8"), "%s", output);
	/* After the last test line and its YAML block. */
	cr_assert_gt(strstr(output, "# ADD/add_int8: likely"),
		     strstr(output, "not ok 3 - MUL/mul_int8"), "%s", output);
}
