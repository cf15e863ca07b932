/*
 * test_conformance_isolation.c - crash isolation in opver-conformance: a
 * kernel that crashes or hangs fails its case and the run goes on.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_tool.h"

static void doomed_cases(int *crashing, int *hanging, int *int32_cases,
			 int *total)
{
	spawn_result r;

	*crashing = *hanging = *int32_cases = *total = 0;
	conformance(&r, "--list", "--op", "RESHAPE", CRASHING_KERNEL, NULL);
	assert_status(&r, 0);
	for (const char *line = r.out; *line != '\0';) {
		const char *end = strchr(line, '\n');
		const char *shape = strchr(line, '[');
		int commas = 0;

		cr_assert(end != NULL && shape != NULL && shape < end, "%s", r.out);
		for (const char *c = shape; *c != ']'; c++)
			commas += *c == ',';
		if (strncmp(line, CRASHING_SUITE " ", strlen(CRASHING_SUITE) + 1) == 0)
			*crashing += commas == 2;
		else if (strncmp(line, HANGING_SUITE " ", strlen(HANGING_SUITE) + 1) == 0) {
			*hanging += commas == 3 && strncmp(shape, "[1,", 3) == 0;
			(*int32_cases)++;
		} else {
			cr_assert_fail("not a case of crashing_kernel: %.200s", line);
		}
		(*total)++;
		line = end + 1;
	}
	spawn_free(&r);
	cr_assert_gt(*crashing, 0);
	cr_assert_gt(*hanging, 0);
}

/* Every case --list names is reported once, in a line "PASS|FAIL SUITE:
 * NAME": none lost, none run twice across the processes. */
static void assert_each_case_once(const char *out)
{
	spawn_result list;

	conformance(&list, "--list", "--op", "RESHAPE", CRASHING_KERNEL, NULL);
	for (const char *line = list.out; *line != '\0';) {
		const char *end = strchr(line, '\n');
		const char *space = strchr(line, ' ');
		char expected[1024];
		int found = 0;

		cr_assert(end != NULL && space != NULL && space < end);
		for (int o = 0; o < 2; o++) {
			snprintf(expected, sizeof(expected), "%s %.*s: %.*s\n",
				 o ? "FAIL" : "PASS", (int)(space - line), line,
				 (int)(end - space - 1), space + 1);
			found += occurrences(out, expected);
		}
		cr_assert_eq(found, 1, "%d reports of %.*s", found,
			     (int)(end - line), line);
		line = end + 1;
	}
	spawn_free(&list);
}


/* In a build with AddressSanitizer, its handler would catch a child's
 * SIGSEGV, report it (slowly, symbolizing) and exit 1; let the signal end
 * the child as it would without. */
static void let_segv_end_children(void)
{
	const char *options = getenv("ASAN_OPTIONS");
	char value[512];

	snprintf(value, sizeof(value), "%s:handle_segv=0",
		 options != NULL ? options : "");
	cr_assert_eq(setenv("ASAN_OPTIONS", value, 1), 0);
}

/* Each case the float32 kernel crashes on fails as crashed, with the
 * signal's name and the case's reproduce details; the cases after it still
 * run and pass. */
Test(conformance, a_crashing_kernel_fails_its_case_and_the_run_goes_on)
{
	int crashing, hanging, int32_cases, total;
	char line[512];
	spawn_result r;
	const char *report;

	doomed_cases(&crashing, &hanging, &int32_cases, &total);
	let_segv_end_children();
	conformance(&r, "--verbose", "--op", "RESHAPE", "--timeout", "1",
		    CRASHING_KERNEL, NULL);
	assert_status(&r, 1);
	cr_assert_eq(occurrences(r.out, "\n    crashed: SIGSEGV (signal 11)\n"),
		     crashing, "%.6000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL " CRASHING_SUITE ": "),
		     crashing, "%.6000s", r.out);
	/* The details under the failure, as for any other. */
	report = strstr(r.out, "\n    crashed: SIGSEGV (signal 11)\n");
	cr_assert(report != NULL);
	cr_assert(strstr(report, "    tensors: float32") != NULL);
	cr_assert(strstr(report, "    case seed: 0x") != NULL);
	cr_assert(strstr(report, "    reproduce: opver-conformance --case RESHAPE:v") != NULL,
		  "%.3000s", report);
	cr_assert(strstr(report, " --seed 1 --reference " REFERENCE_PLUGIN " "
				 CRASHING_KERNEL "\n") != NULL,
		  "%.3000s", report);
	/* Nothing is lost or run twice across the child processes. */
	assert_each_case_once(r.out);
	snprintf(line, sizeof(line), "%s: %d passed, %d failed, 0 skipped\n",
		 CRASHING_SUITE,
		 lines_starting(r.out, "PASS " CRASHING_SUITE ": "), crashing);
	cr_assert(strstr(r.out, line) != NULL, "no '%s' in\n%.6000s", line, r.out);
	cr_assert_gt(lines_starting(r.out, "PASS " CRASHING_SUITE ": "), 0);
	cr_assert_eq(lines_starting(r.out, "PASS RESHAPE/") +
			     lines_starting(r.out, "FAIL RESHAPE/"),
		     total);
	spawn_free(&r);
}

/* With --timeout 1, each case the int32 kernel hangs on fails as timed
 * out, and the others pass. */
Test(conformance, a_hanging_kernel_times_out)
{
	int crashing, hanging, int32_cases, total;
	char line[512];
	spawn_result r;

	doomed_cases(&crashing, &hanging, &int32_cases, &total);
	/* Crashing cases must not be slow enough to time out. */
	let_segv_end_children();
	conformance(&r, "--op", "RESHAPE", "--timeout", "1", CRASHING_KERNEL,
		    NULL);
	assert_status(&r, 1);
	cr_assert_eq(occurrences(r.out, "\n    timed out after 1 s\n"), hanging,
		     "%.6000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL " HANGING_SUITE ": v1 int32->int32 [1,"),
		     hanging, "%.6000s", r.out);
	snprintf(line, sizeof(line), "%s: %d passed, %d failed, 0 skipped\n",
		 HANGING_SUITE, int32_cases - hanging, hanging);
	cr_assert(strstr(r.out, line) != NULL, "no '%s' in\n%.6000s", line, r.out);
	spawn_free(&r);
}
