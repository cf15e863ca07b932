/*
 * runner.h - runs the conformance cases of a vendor plugin against the
 * reference plugin.
 *
 * The vendor plugin is loaded alone into runtime A (with the reference
 * below it when the plugin has a delegate, so that nodes the delegate
 * leaves still run) and the reference into runtime B.  For every builtin
 * op the plugin's kernels or delegate declare, every version they declare
 * and every case of the op's generator, the case is written at that
 * version and bound in A; a case a vendor kernel (or the delegate) binds
 * is run on A and B with the same inputs and the outputs compared.  That
 * includes cases stored below the version the core's rules require of
 * their types or parameters (models store int8 ops at v1-v2): B, the
 * reference, resolves them at the required version, and a kernel whose
 * range takes the stored version must compute them alike; one that
 * refuses them leaves that version out of its range.  A delegate is also shown the
 * versions from 1 to one above its typed claims' highest: a claim the
 * core rejects (outside the claims' versions or types) fails.
 */
#ifndef OPVER_CONFORMANCE_RUNNER_H
#define OPVER_CONFORMANCE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"
#include "text.h"

/* Exit statuses of opver-conformance. */
enum {
	CF_EXIT_PASS = 0,       /* every check passed */
	CF_EXIT_FAIL = 1,       /* a check failed */
	CF_EXIT_USAGE = 2,      /* bad command line */
	CF_EXIT_LOAD = 3        /* a plugin cannot be loaded */
};

/* Each case variant is drawn this many times, with different seeds. */
#define CF_REPETITIONS 2

/* Default relative tolerance for float outputs. */
#define CF_DEFAULT_RTOL 1e-5

/* A case whose process died (isolate.c): its number in the run, whether
 * it had been bound, how long it ran and how it ended ("crashed: SIGSEGV
 * (signal 11)"; borrowed). */
typedef struct cf_crash {
	uint64_t ordinal;
	bool bound;
	double seconds;
	const char *why;
} cf_crash;

/*
 * What a run tells the process watching it (isolate.c), and where it
 * resumes a run whose earlier process died.  Every call of the runner's
 * case loop is a case numbered from 0 in a run's fixed order.
 */
typedef struct cf_run_hooks {
	/* Both plugins loaded. */
	void (*loaded)(void *context);
	/* Case `ordinal` is about to run plugin code: a delegate's claims
	 * while binding (bound false) or its kernels (bound true).  Called
	 * for replayed cases too.  The first call of a case comes after
	 * every record of earlier cases. */
	void (*begin)(void *context, uint64_t ordinal, bool bound);
	/* The cases are over; the plugins are about to be unloaded. */
	void (*unloading)(void *context);
	void *context;
	/* Cases numbered below `resume` ran in an earlier process and their
	 * checks reached the report: only their coverage is redone (the
	 * reference run again, the vendor's code only to bind), and they
	 * record nothing.  Those in crashes[] (borrowed) are redone so too,
	 * running no plugin code but a binding that succeeded, and record
	 * their crash when not below `resume`. */
	uint64_t resume;
	const cf_crash *crashes;
	size_t num_crashes;
} cf_run_hooks;

typedef struct cf_run_options {
	/* Both borrowed for the call: the plugin as the user named it, and
	 * the reference plugin's path. */
	const char *plugin;
	const char *reference;
	/* --reference was given: reproduce lines repeat it. */
	bool reference_given;
	/* Only this op; -1 for every op.  With OPVER_OP_CUSTOM, only the
	 * custom op named custom_name (borrowed). */
	int32_t op;
	const char *custom_name;
	uint64_t seed;
	/* Floats agree when |out - ref| <= rtol * max(1, max |ref|) over the
	 * output tensor.  rtol_given: reproduce lines repeat it. */
	double rtol;
	bool rtol_given;
	/* INT8 and UINT8 outputs agree when |out - ref| <= steps (0: bit
	 * for bit; a plugin that rescales once, in float, as XNNPACK does,
	 * needs 1).  steps_given: reproduce lines repeat it. */
	int32_t steps;
	bool steps_given;
	/* Write the cases, one line each, to list_out (borrowed) instead of
	 * running them. */
	bool list;
	FILE *list_out;
	/* NULL, or borrowed: see cf_run_hooks. */
	const cf_run_hooks *hooks;
	/* --case: only the case of `op` at case_version, case_variant and
	 * case_repetition (cf_parse_case_id()). */
	bool one_case;
	int32_t case_version;
	int32_t case_variant;
	int32_t case_repetition;
	/* With one_case, NULL or borrowed: where the case's inputs and both
	 * sides' outputs are written once it ran (--verbose). */
	FILE *dump_out;
} cf_run_options;

/*
 * A case's ID, "OP:vVERSION:VARIANT.REPETITION" (CONV_2D:v3:17.1): with
 * the run seed it names one case of one run.  cf_add_case_id() appends
 * it; cf_parse_case_id() reads it into options' op and case_* fields,
 * false with the reason in why[size] when it is malformed or names no
 * case of any generator (an op without cases, a variant or repetition
 * past the generator's).
 */
void cf_add_case_id(cf_text *t, const char *op_name, int32_t version,
		    int32_t variant, int32_t repetition);
bool cf_parse_case_id(const char *text, cf_run_options *options, char *why,
		      size_t size);

/*
 * Loads the plugins, then lists the cases or runs them, adding a result
 * per check to `report` (borrowed).  Returns CF_EXIT_PASS when the cases
 * ran (the report says how they went), CF_EXIT_LOAD when the plugin or
 * the reference cannot be loaded, CF_EXIT_FAIL when the run could not be
 * completed (out of memory), CF_EXIT_USAGE when the plugin runs no case
 * of that ID (one_case); it has then said why on stderr.
 */
int cf_run(const cf_run_options *options, cf_report *report);

#endif /* OPVER_CONFORMANCE_RUNNER_H */
