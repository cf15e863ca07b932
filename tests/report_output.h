/*
 * report_output.h - what the test_conformance_report_*.c suites share: the
 * conformance_report suite (its .init makes the test's report, its .fini
 * frees it and the last output), adding checks to the report and writing
 * it in each format. Defined in report_output.c.
 */
#ifndef OPVER_TESTS_REPORT_OUTPUT_H
#define OPVER_TESTS_REPORT_OUTPUT_H

#include <stdbool.h>

#include "conformance/report.h"

/* Criterion runs each test in its own process: this state is per test. */
extern cf_report *report;
extern char *output;

/* Adds a check taking 0.25 s to the report. */
void add(const char *suite, const char *name, cf_outcome outcome,
	 const char *details);

typedef enum format { HUMAN, HUMAN_VERBOSE, TAP, JUNIT } format;

/* The report written in `format`, as one string in `output`, owned by the
 * test and valid until the next call (which frees it). */
const char *written(format which);

/* Whether `text` holds `line` as a whole line. */
bool has_line(const char *text, const char *line);

#define assert_line(text, line) \
	cr_assert(has_line((text), (line)), "no line \"%s\" in:\n%s", (line), \
		  (text))

#endif
