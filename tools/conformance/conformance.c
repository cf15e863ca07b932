/*
 * conformance.c - opver-conformance: checks a vendor plugin against the
 * reference plugin and writes what it found as a human summary, TAP or
 * JUnit XML.  The command line and exit statuses are a contract (README,
 * opver-conformance(1)):
 *
 *   opver-conformance [--reference PATH] [--op NAME] [--case ID]
 *                     [--seed N] [--list]
 *                     [--tap[=FILE]] [--xml[=FILE]] [--rtol X]
 *                     [--steps N]
 *                     [--timeout SECONDS] [--verbose] [--help] [--version]
 *                     PLUGIN.so
 *
 *   0 every check passed, 1 a check failed, 2 usage error (a --case the
 *   plugin does not run included), 3 the plugin or
 *   the reference plugin cannot be loaded (the failed hygiene checks then
 *   go to stderr, and no report is written).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <opver/opver.h>

#include "cases.h"
#include "isolate.h"
#include "report.h"
#include "runner.h"

#ifndef OPVER_PLUGIN_DIR
#error "OPVER_PLUGIN_DIR must name the installed plugin directory"
#endif

static const char usage_text[] =
	"Usage: opver-conformance [OPTION]... PLUGIN.so\n"
	"Check a plugin's kernels and delegate against the reference plugin.\n"
	"\n"
	"  --reference PATH  the reference plugin (default " OPVER_PLUGIN_DIR "/reference.so)\n"
	"  --op NAME         only the op NAME (e.g. DEPTHWISE_CONV_2D, or a custom op\n"
	"                    with cases: TFLite_Detection_PostProcess)\n"
	"  --case ID         only the case ID (OP:vVERSION:VARIANT.REPETITION, as\n"
	"                    failure reports name it) of the run seed; with\n"
	"                    --verbose, print its inputs and both outputs\n"
	"  --seed N          run seed (default 1); the same seed, the same cases\n"
	"  --list            list the cases, one line each, without running them\n"
	"  --tap[=FILE]      write TAP 13 to FILE (or stdout)\n"
	"  --xml[=FILE]      write JUnit XML to FILE (or stdout)\n"
	"  --rtol X          float tolerance: |out - ref| <= X * max(1, max|ref|)\n"
	"                    (default 1e-5)\n"
	"  --steps N         int8/uint8 tolerance: |out - ref| <= N (default 0:\n"
	"                    integer outputs must match exactly)\n"
	"  --timeout SECONDS kill a case (or the hygiene checks) that runs longer\n"
	"                    (default 10; 0: no limit); it fails as timed out\n"
	"  --verbose         list every check in the summary, not only failures\n"
	"  --help            show this help\n"
	"  --version         show the version\n"
	"\n"
	"Exit status: 0 every check passed, 1 a check failed, 2 usage error,\n"
	"3 the plugin or the reference plugin cannot be loaded.\n";

static int usage_error(const char *format, ...) OPVER__PRINTF(1, 2);

static int usage_error(const char *format, ...)
{
	va_list args;

	fputs("opver-conformance: ", stderr);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputs("\nTry 'opver-conformance --help'.\n", stderr);
	return CF_EXIT_USAGE;
}

/* The builtin op spelt `name` (any case), or OPVER_OP_CUSTOM with
 * *custom the name of a custom op that has cases; -1 for neither. */
static int32_t parse_op(const char *name, const char **custom)
{
	const cf_generator *g = cf_generator_named(name);

	for (int32_t op = 0; op <= OPVER_OP_COMPLEX; op++)
		if (op != OPVER_OP_CUSTOM &&
		    strcasecmp(opver_op_name(op), name) == 0)
			return op;
	if (g == NULL || g->custom_name == NULL)
		return -1;
	*custom = g->custom_name;
	return g->op;
}

static bool parse_seed(const char *text, uint64_t *seed)
{
	unsigned long long value;
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*seed = value;
	return true;
}

static bool parse_rtol(const char *text, double *rtol)
{
	char *end;

	errno = 0;
	*rtol = strtod(text, &end);
	return errno == 0 && end != text && *end == '\0' && isfinite(*rtol) &&
	       *rtol >= 0;
}

/* An output destination: NULL (not wanted), or a path, "-" for stdout. */
typedef struct destination {
	bool wanted;
	const char *path;
} destination;

static bool to_stdout(const destination *d)
{
	return d->wanted && (d->path == NULL || strcmp(d->path, "-") == 0);
}

/* Writes the report to d with `write`; false after saying why. */
static bool write_to(const destination *d, const cf_report *report,
		     void (*write)(const cf_report *, FILE *))
{
	FILE *file;

	if (!d->wanted)
		return true;
	if (to_stdout(d)) {
		write(report, stdout);
		return fflush(stdout) == 0;
	}
	file = fopen(d->path, "w");
	if (file == NULL) {
		fprintf(stderr, "opver-conformance: cannot write %s: %s\n",
			d->path, strerror(errno));
		return false;
	}
	write(report, file);
	if (fclose(file) != 0) {
		fprintf(stderr, "opver-conformance: cannot write %s: %s\n",
			d->path, strerror(errno));
		return false;
	}
	return true;
}

enum { OPT_REFERENCE = 256, OPT_OP, OPT_CASE, OPT_SEED, OPT_LIST, OPT_TAP, OPT_XML,
       OPT_RTOL, OPT_STEPS, OPT_TIMEOUT, OPT_VERBOSE, OPT_HELP, OPT_VERSION };

/* Steps of an 8-bit output, from 0 to 255. */
static bool parse_steps(const char *text, int32_t *steps)
{
	uint64_t value;

	if (!parse_seed(text, &value) || value > 255)
		return false;
	*steps = (int32_t)value;
	return true;
}

/* Seconds, from 0 to a day. */
static bool parse_timeout(const char *text, unsigned *timeout)
{
	uint64_t value;

	if (!parse_seed(text, &value) || value > 86400)
		return false;
	*timeout = (unsigned)value;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "reference", required_argument, NULL, OPT_REFERENCE },
		{ "op", required_argument, NULL, OPT_OP },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "tap", optional_argument, NULL, OPT_TAP },
		{ "xml", optional_argument, NULL, OPT_XML },
		{ "rtol", required_argument, NULL, OPT_RTOL },
		{ "steps", required_argument, NULL, OPT_STEPS },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "verbose", no_argument, NULL, OPT_VERBOSE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	cf_run_options options = {
		.reference = OPVER_PLUGIN_DIR "/reference.so",
		.op = -1,
		.seed = 1,
		.rtol = CF_DEFAULT_RTOL,
		.list_out = stdout,
	};
	destination tap = { 0 }, xml = { 0 };
	const char *case_id = NULL;
	const char *custom = NULL;
	int32_t op = -1;
	char why[256];
	bool verbose = false;
	unsigned timeout = CF_DEFAULT_TIMEOUT;
	cf_report *report;
	FILE *summary;
	int opt, status;

	/* Only the plugin under test and the reference may load: plugins
	 * from the environment's directories would take its nodes. */
	unsetenv("OPVER_PLUGIN_PATH");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (opt) {
		case OPT_REFERENCE:
			options.reference = optarg;
			options.reference_given = true;
			break;
		case OPT_OP:
			op = parse_op(optarg, &custom);
			if (op < 0)
				return usage_error("--op: '%s' is not a builtin op name such as DEPTHWISE_CONV_2D, nor a custom op with cases",
						   optarg);
			break;
		case OPT_CASE:
			case_id = optarg;
			break;
		case OPT_SEED:
			if (!parse_seed(optarg, &options.seed))
				return usage_error("--seed: '%s' is not a number from 0 to 18446744073709551615",
						   optarg);
			break;
		case OPT_LIST:
			options.list = true;
			break;
		case OPT_TAP:
		case OPT_XML:
			if (optarg != NULL && optarg[0] == '\0')
				return usage_error("--%s=: the file name is empty (give none, or '-', for stdout)",
						   opt == OPT_TAP ? "tap" : "xml");
			*(opt == OPT_TAP ? &tap : &xml) =
				(destination){ true, optarg };
			break;
		case OPT_RTOL:
			if (!parse_rtol(optarg, &options.rtol))
				return usage_error("--rtol: '%s' is not a finite number >= 0",
						   optarg);
			options.rtol_given = true;
			break;
		case OPT_STEPS:
			if (!parse_steps(optarg, &options.steps))
				return usage_error("--steps: '%s' is not a number from 0 to 255",
						   optarg);
			options.steps_given = true;
			break;
		case OPT_TIMEOUT:
			if (!parse_timeout(optarg, &timeout))
				return usage_error("--timeout: '%s' is not a number of seconds from 0 to 86400",
						   optarg);
			break;
		case OPT_VERBOSE:
			verbose = true;
			break;
		case OPT_HELP:
			fputs(usage_text, stdout);
			return CF_EXIT_PASS;
		case OPT_VERSION:
			printf("opver-conformance %s\n", OPVER_VERSION_STRING);
			return CF_EXIT_PASS;
		default:
			return usage_error("unknown or incomplete option '%s'",
					   argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return usage_error(argc == optind ? "no plugin given" :
						    "more than one plugin given");
	if (to_stdout(&tap) && to_stdout(&xml))
		return usage_error("--tap and --xml cannot both write to stdout");
	options.plugin = argv[optind];
	options.op = op;
	options.custom_name = custom;
	if (case_id != NULL) {
		if (!cf_parse_case_id(case_id, &options, why, sizeof(why)))
			return usage_error("--case: %s", why);
		if (op >= 0 &&
		    (op != options.op || custom != options.custom_name))
			return usage_error("--case %s is a case of %s, not of --op %s",
					   case_id,
					   options.custom_name != NULL ?
						   options.custom_name :
						   opver_op_name(options.op),
					   custom != NULL ? custom :
							    opver_op_name(op));
	}
	/* A machine format on stdout moves the summary to stderr. */
	summary = to_stdout(&tap) || to_stdout(&xml) ? stderr : stdout;
	if (options.one_case && verbose && !options.list)
		options.dump_out = summary;

	report = cf_report_new();
	if (report == NULL) {
		fputs("opver-conformance: out of memory\n", stderr);
		return CF_EXIT_FAIL;
	}
	/* The file's own checks first: they say why it may not load.  The
	 * plugin's code runs in child processes: its crash fails a check. */
	if (!options.list)
		cf_isolated_hygiene(options.plugin, timeout, report);
	status = cf_isolated_run(&options, timeout, report);
	if (status == CF_EXIT_LOAD && cf_report_count(report, CF_FAIL) > 0) {
		/* The file's own checks may say more than the core did (a
		 * plugin built for ABI 1.x, a missing entry point). */
		fputs("opver-conformance: the plugin file's own checks:\n",
		      stderr);
		cf_report_write_human(report, stderr, false);
	}
	if (status != CF_EXIT_PASS || options.list) {
		cf_report_free(report);
		return status;
	}
	cf_report_write_human(report, summary, verbose);
	if (!write_to(&tap, report, cf_report_write_tap) ||
	    !write_to(&xml, report, cf_report_write_junit))
		status = CF_EXIT_FAIL;
	else if (cf_report_count(report, CF_FAIL) > 0)
		status = CF_EXIT_FAIL;
	cf_report_free(report);
	return status;
}
