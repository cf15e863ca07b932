/*
 * runner.h - runs the conformance cases of a vendor plugin against the
 * reference plugin.
 *
 * The vendor plugin is loaded alone into runtime A (with the reference
 * below it when the plugin has a delegate, so that nodes the delegate
 * leaves still run) and the reference into runtime B.  For every builtin
 * op the plugin's kernels or delegate declare, every version they declare
 * and every case of the op's generator, the case is written at that
 * version and bound in A; a case the core's rules allow at that version
 * and a vendor kernel (or the delegate) binds is run on A and B with the
 * same inputs and the outputs compared.
 */
#ifndef OPVER_CONFORMANCE_RUNNER_H
#define OPVER_CONFORMANCE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"

/* Exit statuses of opver-conformance. */
enum {
	CF_EXIT_PASS = 0,       /* every check passed */
	CF_EXIT_FAIL = 1,       /* a check failed */
	CF_EXIT_USAGE = 2,      /* bad command line */
	CF_EXIT_LOAD = 3        /* a plugin cannot be loaded */
};

/* Default relative tolerance for float outputs. */
#define CF_DEFAULT_RTOL 1e-5

typedef struct cf_run_options {
	/* Both borrowed for the call: the plugin as the user named it, and
	 * the reference plugin's path. */
	const char *plugin;
	const char *reference;
	/* --reference was given: reproduce lines repeat it. */
	bool reference_given;
	/* Only this op; -1 for every op. */
	int32_t op;
	uint64_t seed;
	/* Floats agree when |out - ref| <= rtol * max(1, max |ref|) over the
	 * output tensor.  rtol_given: reproduce lines repeat it. */
	double rtol;
	bool rtol_given;
	/* Write the cases, one line each, to list_out (borrowed) instead of
	 * running them. */
	bool list;
	FILE *list_out;
} cf_run_options;

/*
 * Loads the plugins, then lists the cases or runs them, adding a result
 * per check to `report` (borrowed).  Returns CF_EXIT_PASS when the cases
 * ran (the report says how they went), CF_EXIT_LOAD when the plugin or
 * the reference cannot be loaded, CF_EXIT_FAIL when the run could not be
 * completed (out of memory); it has then said why on stderr.
 */
int cf_run(const cf_run_options *options, cf_report *report);

#endif /* OPVER_CONFORMANCE_RUNNER_H */
