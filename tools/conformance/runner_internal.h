/*
 * runner_internal.h - what the files of the runner (runner.h) share: the
 * state of one run, what the cases exercised of each vendor kernel and
 * delegate claim, and each file's entries.  runner.c loads the plugins
 * and runs each op's cases, runner_case.c runs one case,
 * runner_coverage.c keeps and reports what the cases exercised.
 */
#ifndef OPVER_CONFORMANCE_RUNNER_INTERNAL_H
#define OPVER_CONFORMANCE_RUNNER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <opver/opver.h>

#include "cases.h"
#include "report.h"
#include "runner.h"
#include "runtimes.h"

/* Config names of the two plugins in the runtimes. */
#define VENDOR "vendor"
#define REFERENCE "reference"

/* Versions above this are never tried: TFLite's highest op version is
 * far below it, and cases stop at the first version TFLite lacks. */
#define VERSION_LIMIT 32

/* A vendor kernel and what the cases exercised of it. */
typedef struct cf_kernel_cover {
	opver_kernel_info info;
	/* exercised[v]: a case ran on it at version v. */
	bool exercised[VERSION_LIMIT + 1];
	/* Types of the first input of the cases that ran on it. */
	uint32_t input_types;
	/* The lowest version the rules required of a case it bound; 0 while
	 * none did. */
	int32_t lowest_required;
} cf_kernel_cover;

/* A typed claim of the vendor's delegate (op, version range, types) and
 * what the cases exercised of it. */
typedef struct cf_delegate_cover {
	opver_delegate_op_info info;
	bool exercised[VERSION_LIMIT + 1];
	/* Types of the first input of the cases it ran. */
	uint32_t input_types;
	int32_t lowest_required;
} cf_delegate_cover;

/* One run of cf_run(). */
typedef struct cf_runner {
	const cf_run_options *options;  /* borrowed for the run */
	cf_report *report;              /* borrowed; what checks record */
	cf_side vendor;            /* runtime A */
	cf_side reference;         /* runtime B */
	size_t vendor_index;    /* the vendor plugin in runtime A */
	opver_plugin_info vendor_info;
	cf_kernel_cover *kernels;       /* owned; vendor_info.num_kernels */
	cf_delegate_cover *delegate_ops;        /* owned; num_delegate_ops */
	bool out_of_memory;
	/* The number of the next case (cf_run_hooks). */
	uint64_t ordinal;
	/* The case is redone for its coverage only: nothing is recorded. */
	bool replaying;
	/* ... and it crashed once bound: no plugin code runs but binding. */
	bool replaying_crash;
	/* --case: the vendor bound the case (and ran it, unless listing). */
	bool case_ran;
} cf_runner;

/* runner.c */

/* Whether the kernel is of `op`, and with OPVER_OP_CUSTOM and a
 * custom_name, of the custom op of that name. */
bool cf_kernel_is(const opver_kernel_info *info, int32_t op,
		  const char *custom_name);

/* Records a check (strings borrowed for the call), unless the case is
 * replayed; running out of memory sets r->out_of_memory. */
void cf_add_result(cf_runner *r, const char *suite, const char *name,
		   cf_outcome outcome, double seconds, const char *details);

/* runner_case.c */

/* What running one case found. */
typedef enum cf_case_result {
	CF_CASE_DONE,           /* recorded, listed or not the vendor's */
	CF_CASE_NOT_A_VERSION,  /* the op has no such TFLite version */
	CF_CASE_NO_MEMORY
} cf_case_result;

/* Generates, binds, runs and compares case `variant`, `repetition` of
 * generator g (borrowed) at `version`, and records what it found. */
cf_case_result cf_run_case(cf_runner *r, const cf_generator *g,
			   int32_t version, int32_t variant,
			   int32_t repetition);

/* runner_coverage.c */

/* Keeps the lowest nonzero of *lowest and required. */
void cf_note_required(int32_t *lowest, int32_t required);

/* The versions the delegate's claims of `op` span, *lo to *hi; false
 * when it declares none. */
bool cf_delegate_range(const cf_runner *r, int32_t op, int32_t *lo,
		       int32_t *hi);

/* Whether the claim covers the case: its op, version and types. */
bool cf_claim_covers(const opver_delegate_op_info *info, int32_t op,
		     int32_t version, const cf_case *c);

/* The delegate ran a case: every claim covering it was exercised. */
void cf_mark_delegate(cf_runner *r, int32_t op, int32_t version,
		      const cf_case *c);

/* The delegate bound a case that needs version `required`. */
void cf_note_delegate_required(cf_runner *r, int32_t op, int32_t version,
			       const cf_case *c, int32_t required);

/* Records a skip of `name` in `suite`, its details from `format`. */
void cf_skip(cf_runner *r, const char *suite, const char *name,
	     const char *format, ...) OPVER__PRINTF(4, 5);

/* Skips for what the cases of `op` (with OPVER_OP_CUSTOM, of the custom
 * op `custom_name`) left unexercised: versions from `first_invalid` on
 * (0: none) are not TFLite versions of the op. */
void cf_report_coverage(cf_runner *r, int32_t op, const char *custom_name,
			bool has_cases, int32_t first_invalid);

#endif /* OPVER_CONFORMANCE_RUNNER_INTERNAL_H */
