/*
 * test_conformance_cli.c - opver-conformance's --tap and --xml output,
 * and the exit statuses of its contract for usage (2) and for --help and
 * --version (0).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance_tool.h"

static char *slurp(const char *path)
{
	FILE *file = fopen(path, "rb");
	char *text;
	long length;

	cr_assert_not_null(file, "cannot open %s", path);
	cr_assert_eq(fseek(file, 0, SEEK_END), 0);
	length = ftell(file);
	rewind(file);
	text = calloc(1, (size_t)length + 1);
	cr_assert_not_null(text);
	cr_assert_eq(fread(text, 1, (size_t)length, file), (size_t)length);
	fclose(file);
	return text;
}

/* TAP's plan and JUnit's elements count the same checks as the summary. */
Test(conformance, tap_and_xml_files_hold_every_check)
{
	char dir[] = "/tmp/opver-conformance-test-XXXXXX";
	char tap_path[64], xml_path[64], tap_arg[80], xml_arg[80], plan[32];
	int checks, failures;
	spawn_result r;
	char *tap, *xml;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(tap_path, sizeof(tap_path), "%s/out.tap", dir);
	snprintf(xml_path, sizeof(xml_path), "%s/out.xml", dir);
	snprintf(tap_arg, sizeof(tap_arg), "--tap=%s", tap_path);
	snprintf(xml_arg, sizeof(xml_arg), "--xml=%s", xml_path);
	conformance(&r, tap_arg, xml_arg, WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	tap = slurp(tap_path);
	xml = slurp(xml_path);
	checks = lines_starting(tap, "ok ") + lines_starting(tap, "not ok ");
	failures = lines_starting(tap, "not ok ");
	cr_assert_gt(failures, 0);
	cr_assert(strncmp(tap, "TAP version 13\n", 15) == 0, "%.200s", tap);
	snprintf(plan, sizeof(plan), "\n1..%d\n", checks);
	cr_assert(strstr(tap, plan) != NULL, "no plan %s in %.200s", plan + 1, tap);
	cr_assert_eq(failures, lines_starting(r.out, "FAIL "));
	cr_assert(strncmp(xml, "<?xml", 5) == 0, "%.200s", xml);
	cr_assert_eq(occurrences(xml, "<testcase "), checks);
	cr_assert_eq(occurrences(xml, "<failure "), failures);
	cr_assert_eq(occurrences(xml, "<testsuites"), 1);
	cr_assert(strstr(xml, "</testsuites>") != NULL);
	cr_assert_eq(occurrences(xml, "<testsuite "), occurrences(xml, "</testsuite>"));
	free(tap);
	free(xml);
	unlink(tap_path);
	unlink(xml_path);
	rmdir(dir);
	spawn_free(&r);
}

/* A machine format on stdout moves the summary to stderr. */
Test(conformance, tap_on_stdout_moves_the_summary_to_stderr)
{
	spawn_result r;

	conformance(&r, "--tap", "--op", "ADD", REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert(strncmp(r.out, "TAP version 13\n1..", 18) == 0, "%.200s", r.out);
	cr_assert(strstr(r.out, "total:") == NULL);
	cr_assert(strstr(r.err, "total:") != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(conformance, bad_usage_exits_2)
{
	static const char *const cases[][4] = {
		{ NULL },
		{ "--op", "NOT_AN_OP", REFERENCE_PLUGIN, NULL },
		{ "--op", "CUSTOM", REFERENCE_PLUGIN, NULL },
		{ "--seed", "-1", REFERENCE_PLUGIN, NULL },
		{ "--seed", "12x", REFERENCE_PLUGIN, NULL },
		{ "--rtol", "-0.5", REFERENCE_PLUGIN, NULL },
		{ "--rtol", "nan", REFERENCE_PLUGIN, NULL },
		{ "--timeout", "-1", REFERENCE_PLUGIN, NULL },
		{ "--timeout", "1s", REFERENCE_PLUGIN, NULL },
		{ "--frobnicate", REFERENCE_PLUGIN, NULL },
		{ REFERENCE_PLUGIN, REFERENCE_PLUGIN, NULL },
		{ "--tap", "--xml", REFERENCE_PLUGIN, NULL },
		{ "--tap=", REFERENCE_PLUGIN, NULL },
		{ "--xml=", REFERENCE_PLUGIN, NULL },
		{ "--seed", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[8] = { OPVER_CONFORMANCE };
		spawn_result r;
		int argc = 1;

		for (int a = 0; a < 4 && cases[i][a] != NULL; a++)
			argv[argc++] = cases[i][a];
		spawn_run(&r, argv);
		cr_assert_eq(r.status, 2, "case %zu: exit %d\n%s", i, r.status,
			     r.err);
		cr_assert(strstr(r.err, "opver-conformance: ") != NULL, "case %zu", i);
		cr_assert(strstr(r.err, "--help") != NULL, "case %zu", i);
		spawn_free(&r);
	}
}

Test(conformance, help_and_version_exit_0)
{
	const char *help[] = { OPVER_CONFORMANCE, "--help", NULL };
	const char *version[] = { OPVER_CONFORMANCE, "--version", NULL };
	spawn_result r;

	spawn_run(&r, help);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "Usage: opver-conformance") != NULL);
	cr_assert(strstr(r.out, "--reference PATH") != NULL);
	spawn_free(&r);
	spawn_run(&r, version);
	assert_status(&r, 0);
	cr_assert(strncmp(r.out, "opver-conformance ", 18) == 0, "%s", r.out);
	spawn_free(&r);
}

/* Copies the file `from` to `to` with mode `mode`. */
