/*
 * test_conformance.c - runs the built opver-conformance as a vendor would:
 * the reference plugin passes against itself; the deliberately wrong
 * plugin fails with a report that names what is wrong and a command that
 * reproduces it; a delegate claiming outside its typed claims (above or
 * below their versions, other types) fails while its partitions are
 * compared with the reference; a kernel that crashes or hangs fails its
 * case and the run goes on; --list, --op, --seed, --tap and --xml do what
 * they say; a plugin in a group-writable directory is tested; a plugin
 * built for ABI 1.x and one that declines to load are refused with the
 * reason; and the exit statuses of the contract (0 pass, 1 fail, 2 usage,
 * 3 cannot load) come out.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spawn.h"

#define WRONG_DEPTHWISE TEST_PLUGIN_DIR "/wrong_depthwise.so"
#define GREEDY_DELEGATE TEST_PLUGIN_DIR "/greedy_delegate.so"
#define MISCLAIMING_DELEGATE TEST_PLUGIN_DIR "/misclaiming_delegate.so"
#define MISCLAIMING_SUITE "ADD/delegate:misclaiming_npu: "
#define CRASHING_KERNEL TEST_PLUGIN_DIR "/crashing_kernel.so"
#define CRASHING_SUITE "RESHAPE/crashing_reshape_float32"
#define HANGING_SUITE "RESHAPE/hanging_reshape_int32"
#define WRONG_RELU6 TEST_PLUGIN_DIR "/wrong_relu6.so"
#define ABI10 TEST_PLUGIN_DIR "/abi10.so"
#define DECLINES TEST_PLUGIN_DIR "/declines.so"

/* The most arguments a test passes. */
#define MAX_ARGS 16

/* Runs opver-conformance --reference REFERENCE_PLUGIN with the further
 * NULL-terminated arguments. */
static void conformance(spawn_result *r, ...)
{
	const char *argv[MAX_ARGS] = { OPVER_CONFORMANCE, "--reference",
				       REFERENCE_PLUGIN };
	const char *arg;
	int argc = 3;
	va_list args;

	va_start(args, r);
	while ((arg = va_arg(args, const char *)) != NULL) {
		cr_assert_lt(argc, MAX_ARGS - 1);
		argv[argc++] = arg;
	}
	va_end(args);
	spawn_run(r, argv);
}

static void assert_status(const spawn_result *r, int status)
{
	cr_assert_eq(r->status, status,
		     "exit status %d, expected %d\nstdout:\n%.4000s\nstderr:\n%.4000s",
		     r->status, status, r->out, r->err);
}

/* How many lines of `text` start with `prefix`. */
static int lines_starting(const char *text, const char *prefix)
{
	int count = 0;

	for (const char *line = text; *line != '\0';) {
		const char *end = strchr(line, '\n');

		count += strncmp(line, prefix, strlen(prefix)) == 0;
		if (end == NULL)
			break;
		line = end + 1;
	}
	return count;
}

static int occurrences(const char *text, const char *needle)
{
	int count = 0;

	for (const char *p = strstr(text, needle); p != NULL;
	     p = strstr(p + 1, needle))
		count++;
	return count;
}

/* The line of `text` starting with `prefix`, copied into line[size]. */
static bool find_line(const char *text, const char *prefix, char *line,
		      size_t size)
{
	for (const char *p = text; p != NULL && *p != '\0';) {
		const char *end = strchr(p, '\n');
		size_t length = end ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, prefix, strlen(prefix)) == 0 && length < size) {
			memcpy(line, p, length);
			line[length] = '\0';
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

TestSuite(conformance, .timeout = 120);

/*
 * LeakSanitizer's suppressions for this binary alone: now and then
 * Criterion's runner process ends this suite (long tests that spawn
 * processes) with one 48-byte block of its own unfreed, allocated inside
 * libcriterion with no opver frame, which fails the sanitizer build.  The
 * opver-conformance processes the tests spawn keep their leak checks: a
 * leak there changes their exit status, which the tests assert.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libcriterion.so\n";
}

/* Every op's cases: minutes under the sanitizers, where 120 s is not
 * enough. */
Test(conformance, reference_plugin_passes_against_itself, .timeout = 900)
{
	spawn_result r;

	conformance(&r, REFERENCE_PLUGIN, NULL);
	assert_status(&r, 0);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0, "%s", r.out);
	cr_assert(strstr(r.out, "DEPTHWISE_CONV_2D/depthwise_conv_2d_float32: ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, " 0 failed") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* Every dilated case fails, with the op, version, dilation, seed and a
 * command reproducing it; every undilated one passes. */
Test(conformance, wrong_depthwise_fails_with_a_precise_report)
{
	spawn_result r;

	conformance(&r, "--verbose", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	cr_assert_gt(lines_starting(r.out, "PASS DEPTHWISE_CONV_2D/wrong_depthwise_float32: v1 "), 0);
	cr_assert_gt(lines_starting(r.out, "PASS DEPTHWISE_CONV_2D/wrong_depthwise_float32: v2 "), 0);
	cr_assert_gt(lines_starting(r.out, "FAIL DEPTHWISE_CONV_2D/wrong_depthwise_float32: v2 "), 0,
		     "%s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL DEPTHWISE_CONV_2D/wrong_depthwise_float32: v1 "), 0);
	/* Outcome by dilation: PASS and FAIL lines hold "dilation=WxH". */
	for (const char *line = r.out; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');
		bool pass = strncmp(line, "PASS DEPTHWISE_CONV_2D/", 23) == 0;
		bool fail = strncmp(line, "FAIL DEPTHWISE_CONV_2D/", 23) == 0;
		const char *dilation = strstr(line, " dilation=");

		if (pass || fail) {
			cr_assert(dilation != NULL && dilation < end);
			cr_assert_eq(strncmp(dilation, " dilation=1x1 ", 14) == 0, pass,
				     "%.300s", line);
		}
		line = end ? end + 1 : NULL;
	}
	cr_assert(strstr(r.out, "    params: padding=") != NULL);
	for (int d = 0; d < 3; d++) {
		static const char *const dilated[3] = { "2x1", "1x2", "3x2" };
		char dilation[32];

		snprintf(dilation, sizeof(dilation), " dilation=%s ", dilated[d]);
		cr_assert(strstr(r.out, dilation) != NULL, "no %s case", dilated[d]);
	}
	cr_assert(strstr(r.out, "    op: DEPTHWISE_CONV_2D version 2 (the rules require v2: dilation ") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, "    case seed: 0x") != NULL);
	cr_assert(strstr(r.out, "    mismatch: output element ") != NULL);
	cr_assert(strstr(r.out, "    reproduce: opver-conformance --op DEPTHWISE_CONV_2D --seed 1 --reference "
				REFERENCE_PLUGIN " " WRONG_DEPTHWISE "\n") != NULL,
		  "%.3000s", r.out);
	cr_assert(strstr(r.out, "total: ") != NULL);
	spawn_free(&r);
}

/* Claims above the declared v1 fail, naming both versions; the v1
 * partitions it runs are compared and pass. */
Test(conformance, delegate_claiming_above_its_version_fails)
{
	spawn_result r;

	conformance(&r, "--verbose", GREEDY_DELEGATE, NULL);
	assert_status(&r, 1);
	cr_assert_gt(lines_starting(r.out, "FAIL ADD/delegate:greedy_npu: v2 "), 0,
		     "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL ADD/"),
		     lines_starting(r.out, "FAIL ADD/delegate:greedy_npu: v2 "));
	cr_assert_eq(lines_starting(r.out, "FAIL ADD/"),
		     occurrences(r.out, "    delegate claimed ADD v2 above its declared v1\n"));
	cr_assert(strstr(r.out, "claim rejected") != NULL);
	cr_assert_gt(lines_starting(r.out, "PASS ADD/delegate:greedy_npu: v1 "), 0);
	cr_assert_eq(lines_starting(r.out, "SKIP ADD/"), 0, "v1 was exercised");
	spawn_free(&r);
}

/* The delegate's typed claim is float32 ADD v2-3: its claims of v1 fail
 * as below it, of v4 as above it, and of int8 at v2-3 as outside its
 * types; the float32 v2-3 partitions it runs pass. */
Test(conformance, delegate_claims_outside_its_typed_claims_fail)
{
	static const char *const versions[] = { "v2 ", "v3 " };
	char prefix[128];
	spawn_result r;
	int below, above, types = 0;

	conformance(&r, "--verbose", MISCLAIMING_DELEGATE, NULL);
	assert_status(&r, 1);
	below = occurrences(r.out, "    delegate claimed ADD v1 below its declared v2\n");
	above = occurrences(r.out, "    delegate claimed ADD v4 above its declared v3\n");
	cr_assert_gt(below, 0, "%.3000s", r.out);
	cr_assert_gt(above, 0, "%.3000s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL " MISCLAIMING_SUITE "v1 "), below);
	cr_assert_eq(lines_starting(r.out, "FAIL " MISCLAIMING_SUITE "v4 "), above);
	for (size_t v = 0; v < 2; v++) {
		char why[128];
		int typed;

		snprintf(why, sizeof(why),
			 "    delegate claimed ADD %.2s with tensor types outside its declared signatures\n",
			 versions[v]);
		typed = occurrences(r.out, why);
		cr_assert_gt(typed, 0, "%s: %.3000s", versions[v], r.out);
		snprintf(prefix, sizeof(prefix), "FAIL %s%sint8,int8->int8 ",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_eq(lines_starting(r.out, prefix), typed);
		snprintf(prefix, sizeof(prefix), "FAIL %s%sfloat32",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_eq(lines_starting(r.out, prefix), 0, "%.3000s", r.out);
		snprintf(prefix, sizeof(prefix), "PASS %s%sfloat32,float32->float32 ",
			 MISCLAIMING_SUITE, versions[v]);
		cr_assert_gt(lines_starting(r.out, prefix), 0, "%.3000s", r.out);
		types += typed;
	}
	cr_assert_eq(lines_starting(r.out, "FAIL "), below + above + types);
	cr_assert_eq(lines_starting(r.out, "SKIP ADD/"), 0, "v2-3 were exercised");
	spawn_free(&r);
}

/* The reproduce line of a failure, run as printed, fails the same case. */
Test(conformance, reproduce_line_reproduces_the_failure)
{
	char first_failure[1024], line[4096];
	spawn_result r, again;

	conformance(&r, "--seed", "42", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 1);
	cr_assert(find_line(r.out, "FAIL DEPTHWISE_CONV_2D/", first_failure, sizeof(first_failure)));
	cr_assert(find_line(r.out, "    reproduce: ", line, sizeof(line)));
	cr_assert_str_eq(line, "    reproduce: opver-conformance --op DEPTHWISE_CONV_2D --seed 42 --reference "
			       REFERENCE_PLUGIN " " WRONG_DEPTHWISE);
	conformance(&again, "--op", "DEPTHWISE_CONV_2D", "--seed", "42", WRONG_DEPTHWISE, NULL);
	assert_status(&again, 1);
	cr_assert(strstr(again.out, first_failure) != NULL, "%s not in:\n%.3000s",
		  first_failure, again.out);
	spawn_free(&r);
	spawn_free(&again);
}

/* --list runs nothing: the wrong plugin lists its cases and exits 0. */
Test(conformance, list_shows_cases_without_running_them)
{
	spawn_result r;
	int lines;

	conformance(&r, "--list", WRONG_DEPTHWISE, NULL);
	assert_status(&r, 0);
	lines = lines_starting(r.out, "DEPTHWISE_CONV_2D/wrong_depthwise_float32 v");
	cr_assert_gt(lines, 0);
	cr_assert_eq(lines, occurrences(r.out, "\n"), "%s", r.out);
	cr_assert_eq(occurrences(r.out, " seed=0x"), lines);
	cr_assert(strstr(r.out, "total:") == NULL);
	cr_assert(strstr(r.out, "PASS") == NULL && strstr(r.out, "FAIL") == NULL);
	spawn_free(&r);
}

/* --op keeps one op's cases, with the seeds they have in a full run. */
Test(conformance, op_narrows_without_changing_case_seeds)
{
	spawn_result all, one, none;
	int depthwise;

	conformance(&all, "--list", REFERENCE_PLUGIN, NULL);
	conformance(&one, "--list", "--op", "depthwise_conv_2d", REFERENCE_PLUGIN, NULL);
	conformance(&none, "--list", "--op", "SVDF", REFERENCE_PLUGIN, NULL);
	assert_status(&all, 0);
	assert_status(&one, 0);
	assert_status(&none, 0);
	depthwise = lines_starting(one.out, "DEPTHWISE_CONV_2D/");
	cr_assert_gt(depthwise, 0);
	cr_assert_eq(depthwise, occurrences(one.out, "\n"));
	cr_assert_eq(depthwise, lines_starting(all.out, "DEPTHWISE_CONV_2D/"));
	cr_assert(strstr(all.out, one.out) != NULL,
		  "the DEPTHWISE_CONV_2D cases differ between the runs");
	cr_assert_str_eq(none.out, "");
	spawn_free(&all);
	spawn_free(&one);
	spawn_free(&none);
}

Test(conformance, same_seed_gives_the_same_run)
{
	spawn_result a, b, c;

	conformance(&a, "--verbose", "--seed", "7", WRONG_DEPTHWISE, NULL);
	conformance(&b, "--verbose", "--seed", "7", WRONG_DEPTHWISE, NULL);
	conformance(&c, "--verbose", "--seed", "8", WRONG_DEPTHWISE, NULL);
	assert_status(&a, 1);
	cr_assert_str_eq(a.out, b.out);
	cr_assert_str_neq(a.out, c.out, "another seed, other cases");
	spawn_free(&a);
	spawn_free(&b);
	spawn_free(&c);
}

/* Reads a whole file; the caller frees it. */
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

Test(conformance, a_plugin_that_cannot_be_loaded_exits_3)
{
	spawn_result r;
	const char *missing_reference[] = { OPVER_CONFORMANCE, "--reference",
					    TEST_PLUGIN_DIR "/missing.so",
					    REFERENCE_PLUGIN, NULL };

	conformance(&r, TEST_PLUGIN_DIR "/missing.so", NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "missing.so") != NULL, "%s", r.err);
	spawn_free(&r);
	/* Not a plugin: a loader edge case the core refuses. */
	conformance(&r, TEST_PLUGIN_DIR "/no_entry.so", NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "no_entry.so") != NULL, "%s", r.err);
	spawn_free(&r);
	spawn_run(&r, missing_reference);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "reference") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A plugin built for ABI 1.0 cannot be loaded: exit 3, with the core's
 * message naming its ABI and this one's. */
Test(conformance, a_plugin_built_for_abi_1_is_refused_and_exits_3)
{
	spawn_result r;

	conformance(&r, ABI10, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "abi10.so") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "plugin ABI 1.0") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "2.0") != NULL, "%s", r.err);
	/* And the hygiene check's own finding, which does not rely on the
	 * core's words. */
	cr_assert(strstr(r.err, "FAIL hygiene: exports only opver_plugin_negotiate\n"
				"    exports opver_plugin_entry, the entry point of plugin ABI 1.x") != NULL,
		  "%s", r.err);
	cr_assert(strstr(r.out, "total:") == NULL, "%s", r.out);
	spawn_free(&r);
	/* --list loads it too. */
	conformance(&r, "--list", ABI10, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "plugin ABI 1.0") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A plugin that declines to load here is a load failure with its own
 * reason. */
Test(conformance, a_declining_plugin_exits_3_with_its_reason)
{
	spawn_result r;

	conformance(&r, DECLINES, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "declines.so") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "declined: needs a device this machine lacks") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/*
 * The cases of crashing_kernel, from --list: those its kernels crash on
 * (float32 input of rank 3) and hang on (int32 input [1,...] of rank 4),
 * those of the int32 kernel, and all.  The first shape of a listed name
 * is its first input's.
 */
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
	cr_assert(strstr(report, "    reproduce: opver-conformance --op RESHAPE --seed 1 --reference "
				 REFERENCE_PLUGIN " " CRASHING_KERNEL "\n") != NULL,
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
static void copy_file(const char *from, const char *to, mode_t mode)
{
	FILE *in = fopen(from, "rb"), *out;
	char buf[65536];
	size_t n;

	cr_assert_not_null(in, "%s", from);
	out = fopen(to, "wb");
	cr_assert_not_null(out, "%s", to);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, out), n);
	cr_assert_eq(ferror(in), 0);
	fclose(in);
	cr_assert_eq(fclose(out), 0);
	cr_assert_eq(chmod(to, mode), 0);
}

/* The user names the plugin under test: one built in a group-writable
 * directory (umask 0002) is tested, not refused as the runtime refuses a
 * plugin it discovers there. */
Test(conformance, a_plugin_in_a_group_writable_directory_is_tested)
{
	char dir[] = "/tmp/opver-conformance-test-XXXXXX";
	char plugin[sizeof(dir) + 16];
	spawn_result r;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0775), 0);
	snprintf(plugin, sizeof(plugin), "%s/vendor.so", dir);
	copy_file(REFERENCE_PLUGIN, plugin, 0775);
	conformance(&r, "--op", "ADD", plugin, NULL);
	unlink(plugin);
	rmdir(dir);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "ADD/") != NULL, "%s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0, "%s", r.out);
	spawn_free(&r);
}

/* A plugin path longer than a config line can hold is a clear error that
 * says so, not a parse error in a temporary file. */
Test(conformance, a_plugin_path_too_long_for_a_config_line_is_named)
{
	char dir[512] = "/tmp/opver-conformance-test-XXXXXX";
	char plugin[600];
	size_t length;
	spawn_result r;

	cr_assert_not_null(mkdtemp(dir));
	length = strlen(dir);
	/* Two 100-character components push the path past 198. */
	for (int level = 0; level < 2; level++) {
		dir[length++] = '/';
		memset(dir + length, 'd', 100);
		length += 100;
		dir[length] = '\0';
		cr_assert_eq(mkdir(dir, 0755), 0, "%s", dir);
	}
	snprintf(plugin, sizeof(plugin), "%s/vendor.so", dir);
	copy_file(REFERENCE_PLUGIN, plugin, 0755);
	conformance(&r, "--op", "ADD", plugin, NULL);
	unlink(plugin);
	for (int level = 0; level < 2; level++) {
		rmdir(dir);
		*strrchr(dir, '/') = '\0';
	}
	rmdir(dir);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "characters long") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "shorter path") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* Every float32 case drives the sum past both bounds of each clamp: with
 * any seed, each RELU6 case catches a RELU6 clamped at 5, and only
 * those fail. */
Test(conformance, wrong_relu6_fails_every_relu6_case)
{
	static const char *const seeds[] = { "1", "2", "3" };

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		spawn_result r;
		int relu6 = 0;

		conformance(&r, "--verbose", "--seed", seeds[s], WRONG_RELU6,
			    NULL);
		assert_status(&r, 1);
		for (const char *line = r.out; *line != '\0';) {
			const char *end = strchr(line, '\n');
			const char *activation = strstr(line, " activation=");
			bool pass = strncmp(line, "PASS ADD/", 9) == 0;
			bool fail = strncmp(line, "FAIL ADD/", 9) == 0;

			if (end == NULL)
				end = line + strlen(line);
			if (pass || fail) {
				bool is_relu6;

				cr_assert(activation != NULL && activation < end);
				is_relu6 = strncmp(activation, " activation=RELU6 ",
						   18) == 0;
				cr_assert_eq(fail, is_relu6, "seed %s: %.300s",
					     seeds[s], line);
				relu6 += is_relu6;
			}
			line = *end != '\0' ? end + 1 : end;
		}
		cr_assert_gt(relu6, 0, "seed %s: no RELU6 case\n%s", seeds[s],
			     r.out);
		spawn_free(&r);
	}
}

/* The rank of the output shape of a --list line: "-> [d,d,...]". */
static int output_rank(const char *line, const char *end)
{
	const char *shape = strstr(line, "-> [");
	int rank = 1;

	if (shape == NULL || shape > end)
		return 0;
	for (shape += 4; *shape != ']' && shape < end; shape++)
		rank += *shape == ',';
	return rank;
}

/* ADD and MUL broadcast up to 6-D: cases of ranks 5 and 6 are listed. */
Test(conformance, add_and_mul_cases_reach_rank_6)
{
	static const char *const ops[] = { "ADD", "MUL" };

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		int seen[7] = { 0 };
		spawn_result r;

		conformance(&r, "--list", "--op", ops[o], REFERENCE_PLUGIN, NULL);
		assert_status(&r, 0);
		for (const char *line = r.out; *line != '\0';) {
			const char *end = strchr(line, '\n');
			int rank;

			if (end == NULL)
				end = line + strlen(line);
			rank = output_rank(line, end);
			cr_assert(rank >= 1 && rank <= 6, "%.300s", line);
			seen[rank]++;
			line = *end != '\0' ? end + 1 : end;
		}
		cr_assert_gt(seen[5], 0, "%s: no rank-5 case", ops[o]);
		cr_assert_gt(seen[6], 0, "%s: no rank-6 case", ops[o]);
		spawn_free(&r);
	}
}
