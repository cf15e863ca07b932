/*
 * report.h - the results of a conformance run and the three ways it is
 * written out.
 *
 *   cf_report   every check in the order it was recorded: suite, name,
 *               outcome, time and details
 *
 * Writers:
 *   human   failures first with their details, then a line per suite and
 *           a total line
 *   TAP     TAP version 13; details as a YAML block under the test line
 *   JUnit   XML: a <testsuite> per suite, a <testcase> per check
 *
 * Every string recorded is copied, and written out as UTF-8: bytes that are
 * not UTF-8 become U+FFFD, and control characters the format cannot carry
 * (in names: all of them, newline included) are spelt "\uNNNN".  A
 * plugin's kernel names reach the report: hostile text must neither break
 * a format nor reach a terminal raw.
 */
#ifndef OPVER_CONFORMANCE_REPORT_H
#define OPVER_CONFORMANCE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum cf_outcome { CF_PASS, CF_FAIL, CF_SKIP } cf_outcome;

typedef struct cf_report cf_report;

/* An empty report, or NULL when out of memory.  Caller owns it; release
 * with cf_report_free(). */
cf_report *cf_report_new(void);
/* NULL is ok. */
void cf_report_free(cf_report *report);

/*
 * Records one check.  suite: e.g. "DEPTHWISE_CONV_2D/dw_float32" or
 * "hygiene"; name: the case's one-line id; details: NULL or multi-line
 * text (what differed, how to reproduce; for a skip, the reason on its
 * first line).  seconds: how long the check took.  All strings borrowed for
 * the call and copied.  Returns false only when out of memory, leaving the
 * report as it was.
 */
bool cf_report_add(cf_report *report, const char *suite, const char *name,
		   cf_outcome outcome, double seconds, const char *details);

/*
 * A function handed every check recorded from then on, after it is stored
 * (isolate.c sends a child process's checks to its parent this way).
 * Strings borrowed for the call.  Returns false when it failed, which
 * cf_report_add() then returns.
 */
typedef bool cf_report_forwarder(void *context, const char *suite,
				 const char *name, cf_outcome outcome,
				 double seconds, const char *details);

/* Sets the report's forwarder (NULL: none); context borrowed while set. */
void cf_report_forward(cf_report *report, cf_report_forwarder *forward,
		       void *context);

/* How many checks had this outcome. */
size_t cf_report_count(const cf_report *report, cf_outcome outcome);

/*
 * Human summary: each failure as "FAIL SUITE: NAME" with its details
 * indented below, one line per suite "SUITE: N passed, N failed, N
 * skipped" in the order suites first appear, and a total line.  verbose:
 * every check, in order, instead of the failures only.
 */
void cf_report_write_human(const cf_report *report, FILE *out, bool verbose);

/* TAP version 13: plan "1..N", "ok N - SUITE: NAME", "not ok ...", a
 * "# SKIP reason" directive on skips, details as a YAML block; after the
 * tests, each failing suite's likely bug classes (bug_class.h) as
 * diagnostics "# SUITE: likely bug class: ...". */
void cf_report_write_tap(const cf_report *report, FILE *out);

/* JUnit XML: <testsuites> holding a <testsuite> per suite (in the order
 * suites first appear), each holding its <testcase>s in recorded order;
 * <failure message="FIRST LINE">DETAILS</failure> or <skipped
 * message="REASON"/> inside a testcase that did not pass; a failing
 * suite's likely bug classes as its <properties>, each a <property
 * name="likely bug class" value="CLASS"/>. */
void cf_report_write_junit(const cf_report *report, FILE *out);

#endif /* OPVER_CONFORMANCE_REPORT_H */
