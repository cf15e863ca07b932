/*
 * test_conformance_case.c - opver-conformance --case: a failure names its
 * case, the reproduce line printed under it runs that case alone and
 * fails it again, --verbose shows the case's inputs and both outputs, and
 * a malformed or absent case ID is a usage error (status 2).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_tool.h"

/* The most words a reproduce line has. */
#define MAX_WORDS 16

/* Splits `line` (modified) at spaces into argv, OPVER_CONFORMANCE first
 * instead of the line's "opver-conformance"; NULL-terminated. */
static void split_command(char *line, const char **argv)
{
	int argc = 0;

	for (char *word = strtok(line, " "); word != NULL;
	     word = strtok(NULL, " ")) {
		cr_assert_lt(argc, MAX_WORDS - 1);
		argv[argc++] = word;
	}
	cr_assert_gt(argc, 1);
	cr_assert_str_eq(argv[0], "opver-conformance");
	argv[0] = OPVER_CONFORMANCE;
	argv[argc] = NULL;
}

/* The failing case's ID, from its "    case: ID" details line. */
static void case_id(const char *out, char *id, size_t size)
{
	char line[256];

	cr_assert(find_line(out, "    case: ", line, sizeof(line)), "%.3000s", out);
	cr_assert_lt(strlen(line + 10), size);
	strcpy(id, line + 10);
}

/* The reproduce line, run as printed, runs the one failing case: one
 * failure, the same line, and no other case of the op. */
Test(conformance, reproduce_line_runs_that_case_alone)
{
	char failure[1024], line[4096], id[128], expected[512];
	const char *argv[MAX_WORDS];
	spawn_result r, again;

	conformance(&r, "--seed", "42", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	cr_assert(find_line(r.out, "FAIL DEPTHWISE_CONV_2D/", failure, sizeof(failure)));
	case_id(r.out, id, sizeof(id));
	cr_assert(strncmp(id, "DEPTHWISE_CONV_2D:v", 19) == 0, "%s", id);
	cr_assert(find_line(r.out, "    reproduce: ", line, sizeof(line)));
	snprintf(expected, sizeof(expected),
		 "    reproduce: opver-conformance --case %s --seed 42 --reference "
		 REFERENCE_PLUGIN " " WRONG_DEPTHWISE, id);
	cr_assert_str_eq(line, expected);
	split_command(line + strlen("    reproduce: "), argv);
	spawn_run(&again, argv);
	assert_status(&again, 1);
	cr_assert_eq(lines_starting(again.out, "FAIL "), 1, "%.3000s", again.out);
	cr_assert(strstr(again.out, failure) != NULL, "%s not in:\n%.3000s",
		  failure, again.out);
	cr_assert_eq(lines_starting(again.out, "PASS DEPTHWISE_CONV_2D/"), 0);
	cr_assert(strstr(again.out, "DEPTHWISE_CONV_2D/wrong_depthwise_float32: 0 passed, 1 failed, 0 skipped\n") != NULL,
		  "%.3000s", again.out);
	spawn_free(&r);
	spawn_free(&again);
}

/* A passing case passes alone, and --verbose prints its inputs (graph
 * input and constants) and each side's output. */
Test(conformance, case_verbose_prints_inputs_and_both_outputs)
{
	spawn_result r;

	conformance(&r, "--case", "DEPTHWISE_CONV_2D:v1:0.1", "--verbose",
		    WRONG_DEPTHWISE, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "case: DEPTHWISE_CONV_2D:v1:0.1\ncase seed: 0x") != NULL,
		  "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "input 0: float32 ["), 1, "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "input 1: float32 [1,"), 1, "%.3000s", r.out);
	cr_assert(strstr(r.out, "] (constant)\n") != NULL);
	cr_assert_eq(lines_starting(r.out, "plugin output 0: float32 ["), 1);
	cr_assert_eq(lines_starting(r.out, "reference output 0: float32 ["), 1);
	cr_assert_eq(lines_starting(r.out, "PASS DEPTHWISE_CONV_2D/wrong_depthwise_float32: v1 "), 1,
		     "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0);
	spawn_free(&r);
}

/* Each is a usage error that names what is wrong, and runs nothing. */
Test(conformance, bad_case_ids_are_usage_errors)
{
	static const struct {
		const char *id, *says;
	} bad[] = {
		{ "DEPTHWISE_CONV_2D", "is not a case ID such as" },
		{ "NO_SUCH_OP:v1:0.0", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:1:0.0", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:v1:0", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:v0:0.0", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:v1:0.0x", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:v1:99999999999.0", "is not a case ID such as" },
		{ "DEPTHWISE_CONV_2D:v1:100000.0", "no such case: DEPTHWISE_CONV_2D has variants 0 to " },
		{ "DEPTHWISE_CONV_2D:v1:0.2", "no such case" },
		{ "DEPTHWISE_CONV_2D:v3:0.0", "declares no version 3 of DEPTHWISE_CONV_2D" },
		{ "ADD:v1:0.0", "declares no kernel or delegate op for ADD" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spawn_result r;

		conformance(&r, "--case", bad[i].id, WRONG_DEPTHWISE, NULL);
		assert_status(&r, 2);
		cr_assert(strstr(r.err, bad[i].says) != NULL, "%s: %s",
			  bad[i].id, r.err);
		cr_assert_eq(lines_starting(r.out, "PASS DEPTHWISE"), 0);
		spawn_free(&r);
	}
}

/* --op and --case must agree. */
Test(conformance, case_and_another_op_are_a_usage_error)
{
	spawn_result r;

	conformance(&r, "--op", "ADD", "--case", "DEPTHWISE_CONV_2D:v1:0.0",
		    WRONG_DEPTHWISE, NULL);
	assert_status(&r, 2);
	cr_assert(strstr(r.err, "is a case of DEPTHWISE_CONV_2D, not of --op ADD") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/* A pool putting an odd SAME padding's extra row on top fails only cases
 * with an odd total, and each report gives the padding of every side
 * and the window of the first differing element. */
Test(conformance, spatial_reports_give_the_padding_and_window)
{
	spawn_result r;
	int failures;

	conformance(&r, WRONG_PADDING, NULL);
	assert_status(&r, 1);
	failures = lines_starting(r.out, "FAIL AVERAGE_POOL_2D/wrong_padding_float32: v1 ");
	cr_assert_gt(failures, 0, "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "), failures);
	cr_assert_eq(occurrences(r.out, "\n    params: padding=SAME "), failures,
		     "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "    padding: top "), failures);
	cr_assert(strstr(r.out, "    padding: top 0 bottom 1 left 0 right 0 (SAME; total 1 rows, 0 columns)\n"
				"    an odd padding total puts its extra row at the bottom, its extra column at the right\n"
				"    window of the first differing element: input rows 0..1, columns 1..1 (of 0..1 x 0..7)\n") != NULL,
		  "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "    window of the first differing element: input rows "),
		     failures);
	spawn_free(&r);
}
