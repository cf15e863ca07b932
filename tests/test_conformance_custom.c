/*
 * test_conformance_custom.c - opver-conformance and custom ops: the cases
 * of TFLite_Detection_PostProcess run on a vendor's kernel of that custom
 * op (tests/plugins/detection_nothing, which detects nothing), named and
 * reproduced by the custom op's name; a custom op without cases is
 * skipped with the reason.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "conformance_tool.h"

#define DETECTION_NOTHING TEST_PLUGIN_DIR "/detection_nothing.so"
#define TESTING_OP TEST_PLUGIN_DIR "/testing_op.so"
#define SUITE "TFLite_Detection_PostProcess/detection_nothing: "

/* Every case but those where no score passes the threshold fails, each
 * with a reproduce line that names the custom op. */
Test(conformance, a_custom_ops_cases_run_on_the_vendors_kernel)
{
	spawn_result r;

	conformance(&r, "--verbose", DETECTION_NOTHING, NULL);
	assert_status(&r, 1);
	cr_assert_gt(lines_starting(r.out, "FAIL " SUITE), 10, "%.3000s",
		     r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "),
		     lines_starting(r.out, "FAIL " SUITE));
	cr_assert_gt(lines_starting(r.out, "PASS " SUITE), 0, "%.3000s",
		     r.out);
	cr_assert(strstr(r.out, "    reproduce: opver-conformance --case TFLite_Detection_PostProcess:v1:") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, "    op: TFLite_Detection_PostProcess version 1 (the rules require v1: custom ops are not versioned by TFLite's rules)\n") != NULL,
		  "%.3000s", r.out);
	spawn_free(&r);
}

/* Case 15.1 of seed 1 has a threshold no score passes: nothing is what
 * the reference detects too.  Case 0.0 detects something. */
Test(conformance, a_custom_op_case_runs_alone_by_its_id)
{
	spawn_result pass, fail;

	conformance(&pass, "--case", "TFLite_Detection_PostProcess:v1:15.1",
		    "--verbose", DETECTION_NOTHING, NULL);
	assert_status(&pass, 0);
	cr_assert(strstr(pass.out, "reference output 3: float32 [1]\n    0\n") != NULL,
		  "%.3000s", pass.out);
	cr_assert_eq(lines_starting(pass.out, "PASS " SUITE), 1);
	conformance(&fail, "--case", "tflite_detection_postprocess:v1:0.0",
		    "--op", "TFLite_Detection_PostProcess", DETECTION_NOTHING,
		    NULL);
	assert_status(&fail, 1);
	cr_assert_eq(lines_starting(fail.out, "FAIL " SUITE), 1);
	spawn_free(&pass);
	spawn_free(&fail);
}

/* The reference's own kernel agrees with itself on every case. */
Test(conformance, op_names_a_custom_op_that_has_cases)
{
	spawn_result r;

	conformance(&r, "--op", "TFLite_Detection_PostProcess",
		    REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "TFLite_Detection_PostProcess/detection_postprocess: ") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, " passed, 0 failed, 0 skipped\ntotal:") != NULL,
		  "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "ADD/"), 0, "only that op");
	spawn_free(&r);
}

Test(conformance, bad_custom_case_ids_are_usage_errors)
{
	static const struct {
		const char *id, *says;
	} bad[] = {
		{ "TFLite_Detection_PostProcess:v1:99.0",
		  "no such case: TFLite_Detection_PostProcess has variants 0 to " },
		{ "CUSTOM:v1:0.0", "is not a case ID such as" },
		{ "testing_op:v1:0.0", "is not a case ID such as" },
		{ "TFLite_Detection_PostProcess:v2:0.0",
		  "declares no version 2 of TFLite_Detection_PostProcess" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spawn_result r;

		conformance(&r, "--case", bad[i].id, DETECTION_NOTHING, NULL);
		assert_status(&r, 2);
		cr_assert(strstr(r.err, bad[i].says) != NULL, "%s: %s",
			  bad[i].id, r.err);
		spawn_free(&r);
	}
}

/* testing_op has no generator: one skip says so. */
Test(conformance, a_custom_op_without_cases_is_skipped)
{
	spawn_result r;

	conformance(&r, "--verbose", TESTING_OP, NULL);
	cr_assert(strstr(r.out, "SKIP CUSTOM/testing_op: testing_op\n    custom op testing_op: opver-conformance has no cases for it\n") != NULL,
		  "%.3000s", r.out);
	spawn_free(&r);
}
