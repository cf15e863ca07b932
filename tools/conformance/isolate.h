/*
 * isolate.h - runs the plugin's code in child processes, so that a kernel
 * that crashes or hangs fails its check instead of ending the tool.
 *
 * The child records its checks as usual and sends them to the parent over
 * a pipe as length-prefixed records, in large writes; the case it is in
 * (and since when) it keeps in memory shared with the parent, set before
 * the plugin's code runs.  When the child dies by a signal, exits
 * unexpectedly or spends more than `timeout` seconds in a case (then it
 * is killed), a new child resumes the run: the cases follow from the
 * seed, so it redoes only the coverage of the cases whose checks arrived,
 * records the case the last child was in as failed ("crashed: SIGSEGV
 * (signal 11)", "timed out after N s") with its reproduce details, and
 * runs the rest (cf_run_hooks).
 */
#ifndef OPVER_CONFORMANCE_ISOLATE_H
#define OPVER_CONFORMANCE_ISOLATE_H

#include "report.h"
#include "runner.h"

/* Default seconds a case may run; 0 is no limit. */
#define CF_DEFAULT_TIMEOUT 10

/* cf_check_hygiene() in a child; its crash or timeout is a failed
 * "hygiene" check.  plugin_path and report borrowed. */
void cf_isolated_hygiene(const char *plugin_path, unsigned timeout,
			 cf_report *report);

/*
 * cf_run() in children as above (options->hooks must be NULL; options
 * and report borrowed).  Returns as cf_run() does; a plugin that crashes
 * or hangs before both plugins loaded gives CF_EXIT_LOAD.
 */
int cf_isolated_run(const cf_run_options *options, unsigned timeout,
		    cf_report *report);

#endif /* OPVER_CONFORMANCE_ISOLATE_H */
