/*
 * report_output.c - what the test_conformance_report_*.c suites share
 * (report_output.h): the conformance_report suite with the report of the
 * running test, and the report written in each format.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_output.h"

cf_report *report;
char *output;

static void setup(void)
{
	report = cf_report_new();
	cr_assert_not_null(report);
}

static void teardown(void)
{
	cf_report_free(report);
	free(output);
}

TestSuite(conformance_report, .init = setup, .fini = teardown);

void add(const char *suite, const char *name, cf_outcome outcome,
	 const char *details)
{
	cr_assert(cf_report_add(report, suite, name, outcome, 0.25, details));
}

const char *written(format which)
{
	size_t size;
	FILE *out;

	free(output);
	output = NULL;
	out = open_memstream(&output, &size);

	cr_assert_not_null(out);
	if (which == TAP)
		cf_report_write_tap(report, out);
	else if (which == JUNIT)
		cf_report_write_junit(report, out);
	else
		cf_report_write_human(report, out, which == HUMAN_VERBOSE);
	cr_assert_eq(fclose(out), 0);
	return output;
}

bool has_line(const char *text, const char *line)
{
	size_t length = strlen(line);

	for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') &&
		    (p[length] == '\n' || p[length] == '\0'))
			return true;
	return false;
}
