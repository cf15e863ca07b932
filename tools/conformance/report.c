/*
 * report.c - conformance results and their human, TAP and JUnit writers.
 *
 * Per-suite totals are kept as checks are added, so the writers need no
 * memory of their own and cannot fail half-way.
 */
#include "bug_class.h"
#include "report.h"
#include "text.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct cf_result {
	char *suite;
	char *name;
	char *details;          /* NULL when none */
	cf_outcome outcome;
	double seconds;
	size_t suite_index;     /* into cf_report.suites */
} cf_result;

typedef struct cf_suite {
	const char *name;       /* borrowed from the suite's first result */
	size_t count[3];        /* per cf_outcome */
	double seconds;
} cf_suite;

struct cf_report {
	cf_result *results;
	size_t num_results;
	size_t results_capacity;
	cf_suite *suites;
	size_t num_suites;
	size_t suites_capacity;
	cf_report_forwarder *forward;   /* NULL: none */
	void *forward_context;
};

cf_report *cf_report_new(void)
{
	return calloc(1, sizeof(cf_report));
}

void cf_report_free(cf_report *report)
{
	if (report == NULL)
		return;
	for (size_t i = 0; i < report->num_results; i++) {
		free(report->results[i].suite);
		free(report->results[i].name);
		free(report->results[i].details);
	}
	free(report->results);
	free(report->suites);
	free(report);
}

/* Makes room for one more element of an array of `size`-byte elements. */
static bool reserve(void **array, size_t *capacity, size_t used, size_t size)
{
	size_t grown;
	void *moved;

	if (used < *capacity)
		return true;
	grown = *capacity == 0 ? 16 : *capacity * 2;
	if (grown < *capacity || grown > SIZE_MAX / size)
		return false;
	moved = realloc(*array, grown * size);
	if (moved == NULL)
		return false;
	*array = moved;
	*capacity = grown;
	return true;
}

/* The index of the suite named `name`, adding it when new; SIZE_MAX when
 * out of memory.  Checks of one suite usually come together: the last
 * suite is tried first. */
static size_t find_suite(cf_report *report, const char *name)
{
	size_t n = report->num_suites;

	if (n > 0 && strcmp(report->suites[n - 1].name, name) == 0)
		return n - 1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(report->suites[i].name, name) == 0)
			return i;
	if (!reserve((void **)&report->suites, &report->suites_capacity, n,
		     sizeof(cf_suite)))
		return SIZE_MAX;
	report->suites[n] = (cf_suite){ .name = name };
	report->num_suites = n + 1;
	return n;
}

static char *copy(const char *text)
{
	return strdup(text != NULL ? text : "");
}

bool cf_report_add(cf_report *report, const char *suite, const char *name,
		   cf_outcome outcome, double seconds, const char *details)
{
	cf_result result = {
		.suite = copy(suite),
		.name = copy(name),
		.details = details != NULL ? strdup(details) : NULL,
		.outcome = outcome,
		/* A clock that went backwards or an unset time is not worth
		 * an invalid time attribute. */
		.seconds = isfinite(seconds) && seconds > 0 ? seconds : 0,
	};
	cf_suite *totals;

	if (result.suite == NULL || result.name == NULL ||
	    (details != NULL && result.details == NULL) ||
	    (unsigned)outcome > CF_SKIP ||
	    !reserve((void **)&report->results, &report->results_capacity,
		     report->num_results, sizeof(cf_result)))
		goto fail;
	result.suite_index = find_suite(report, result.suite);
	if (result.suite_index == SIZE_MAX)
		goto fail;
	totals = &report->suites[result.suite_index];
	totals->count[outcome]++;
	totals->seconds += result.seconds;
	report->results[report->num_results++] = result;
	if (report->forward != NULL)
		return report->forward(report->forward_context, suite, name,
				       outcome, result.seconds, details);
	return true;
fail:
	free(result.suite);
	free(result.name);
	free(result.details);
	return false;
}

void cf_report_forward(cf_report *report, cf_report_forwarder *forward,
		       void *context)
{
	report->forward = forward;
	report->forward_context = context;
}

size_t cf_report_count(const cf_report *report, cf_outcome outcome)
{
	size_t total = 0;

	if ((unsigned)outcome > CF_SKIP)
		return 0;
	for (size_t i = 0; i < report->num_suites; i++)
		total += report->suites[i].count[outcome];
	return total;
}

/* ---------------------------------------------------------------- text */

/* How a piece of text is written out. */
typedef enum text_mode {
	TEXT_LINE,      /* one line: every control character escaped */
	TEXT_BLOCK,     /* one line of details: tabs kept */
	TAP_DESCRIPTION,/* TEXT_LINE, and '#' and '\' escaped with '\' */
	XML_ATTRIBUTE,  /* markup, quotes and whitespace as references */
	XML_CONTENT,    /* markup as references; tab and newline kept */
} text_mode;

#define REPLACEMENT 0xfffdu

/*
 * Decodes the UTF-8 character at *text (before end) and advances past it.
 * A byte that does not start a well-formed character (bad lead, truncated,
 * overlong, surrogate, above U+10FFFF) decodes to U+FFFD and is passed
 * alone.  The noncharacters U+FFFE and U+FFFF, which XML refuses, decode
 * to U+FFFD too.
 */
static uint32_t next_char(const unsigned char **text, const unsigned char *end)
{
	const unsigned char *s = *text;
	uint32_t c = s[0], min;
	size_t length;

	*text = s + 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf) {
		length = 2, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		length = 3, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		length = 4, c &= 0x07, min = 0x10000;
	} else {
		return REPLACEMENT;
	}
	if ((size_t)(end - s) < length)
		return REPLACEMENT;
	for (size_t i = 1; i < length; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return REPLACEMENT;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return REPLACEMENT;
	*text = s + length;
	return c == 0xfffe || c == 0xffff ? REPLACEMENT : c;
}

static void put_utf8(FILE *out, uint32_t c)
{
	if (c < 0x80) {
		putc((int)c, out);
	} else if (c < 0x800) {
		putc((int)(0xc0 | c >> 6), out);
		putc((int)(0x80 | (c & 0x3f)), out);
	} else if (c < 0x10000) {
		putc((int)(0xe0 | c >> 12), out);
		putc((int)(0x80 | (c >> 6 & 0x3f)), out);
		putc((int)(0x80 | (c & 0x3f)), out);
	} else {
		putc((int)(0xf0 | c >> 18), out);
		putc((int)(0x80 | (c >> 12 & 0x3f)), out);
		putc((int)(0x80 | (c >> 6 & 0x3f)), out);
		putc((int)(0x80 | (c & 0x3f)), out);
	}
}

static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/* The XML or TAP spelling of c in this mode, or NULL when c is written as
 * itself or as an escaped control character. */
static const char *escape(uint32_t c, text_mode mode)
{
	if (mode == XML_ATTRIBUTE || mode == XML_CONTENT) {
		switch (c) {
		case '&': return "&amp;";
		case '<': return "&lt;";
		case '>': return "&gt;";
		case '"': return "&quot;";
		case '\'': return "&apos;";
		/* A parser turns raw whitespace in an attribute into spaces,
		 * and a raw carriage return anywhere into a newline. */
		case '\t': return mode == XML_ATTRIBUTE ? "&#9;" : "\t";
		case '\n': return mode == XML_ATTRIBUTE ? "&#10;" : "\n";
		case '\r': return "&#13;";
		}
	} else if (mode == TAP_DESCRIPTION) {
		/* A raw '#' would start a directive. */
		if (c == '#')
			return "\\#";
		if (c == '\\')
			return "\\\\";
	} else if (mode == TEXT_BLOCK && c == '\t') {
		return "\t";
	}
	return NULL;
}

/* Writes text[0..length) in `mode`. */
static void put_text(FILE *out, const char *text, size_t length,
		     text_mode mode)
{
	const unsigned char *s = (const unsigned char *)text;
	const unsigned char *end = s + length;

	while (s < end) {
		uint32_t c = next_char(&s, end);
		const char *spelling = escape(c, mode);

		if (spelling != NULL)
			fputs(spelling, out);
		else if (is_control(c))
			fprintf(out, "\\u%04X", (unsigned)c);
		else
			put_utf8(out, c);
	}
}

static void put_string(FILE *out, const char *text, text_mode mode)
{
	put_text(out, text, strlen(text), mode);
}

/* The length of the line starting at text, without its newline. */
static size_t line_length(const char *text)
{
	return strcspn(text, "\n");
}

/* Writes each line of details after indent; a final newline ends the last
 * line rather than starting an empty one. */
static void for_each_line(const char *details, FILE *out, const char *indent)
{
	const char *line = details;

	while (*line != '\0') {
		size_t length = line_length(line);

		fputs(indent, out);
		put_text(out, line, length, TEXT_BLOCK);
		putc('\n', out);
		line += length;
		if (*line == '\n')
			line++;
	}
}

static bool has_details(const cf_result *result)
{
	return result->details != NULL && result->details[0] != '\0';
}

/* ---------------------------------------------------------------- human */

static const char *const outcome_names[] = { "PASS", "FAIL", "SKIP" };

static void write_counts(FILE *out, const size_t count[3])
{
	fprintf(out, "%zu passed, %zu failed, %zu skipped\n", count[CF_PASS],
		count[CF_FAIL], count[CF_SKIP]);
}

/* Suite `index`'s likely bug classes (bug_class.h) into t, a line each,
 * or nothing when no failure shows a pattern.  Every writer names them. */
static void bug_classes(const cf_report *report, size_t index, cf_text *t)
{
	cf_bug_evidence evidence;

	cf_bug_evidence_init(&evidence);
	for (size_t i = 0; i < report->num_results; i++) {
		const cf_result *result = &report->results[i];

		if (result->suite_index == index &&
		    result->outcome != CF_SKIP)
			cf_bug_evidence_add(&evidence, result->name,
					    result->details,
					    result->outcome == CF_FAIL);
	}
	cf_bug_evidence_write(&evidence, t);
}

/* Suite `index`'s likely bug classes, indented. */
static void write_bug_classes(const cf_report *report, size_t index,
			      FILE *out)
{
	cf_text text = { 0 };

	bug_classes(report, index, &text);
	for_each_line(cf_text_get(&text), out, "  ");
	cf_text_free(&text);
}

void cf_report_write_human(const cf_report *report, FILE *out, bool verbose)
{
	size_t total[3] = { 0, 0, 0 };

	for (size_t i = 0; i < report->num_results; i++) {
		const cf_result *result = &report->results[i];

		if (!verbose && result->outcome != CF_FAIL)
			continue;
		fprintf(out, "%s ", outcome_names[result->outcome]);
		put_string(out, result->suite, TEXT_LINE);
		fputs(": ", out);
		put_string(out, result->name, TEXT_LINE);
		putc('\n', out);
		if (has_details(result))
			for_each_line(result->details, out, "    ");
	}
	if (report->num_results > 0 &&
	    (verbose || cf_report_count(report, CF_FAIL) > 0))
		putc('\n', out);
	for (size_t i = 0; i < report->num_suites; i++) {
		const cf_suite *suite = &report->suites[i];

		put_string(out, suite->name, TEXT_LINE);
		fputs(": ", out);
		write_counts(out, suite->count);
		if (suite->count[CF_FAIL] > 0)
			write_bug_classes(report, i, out);
		for (int o = CF_PASS; o <= CF_SKIP; o++)
			total[o] += suite->count[o];
	}
	fputs("total: ", out);
	write_counts(out, total);
}

/* ---------------------------------------------------------------- TAP */

/* The details as a YAML block under the test line.  A literal block finds
 * its indentation from its first non-empty line; when that line starts
 * with a space the indentation (2 beyond the key's) must be stated. */
static void write_yaml(FILE *out, const char *details)
{
	const char *first = details + strspn(details, "\n");

	fprintf(out, "  ---\n  message: |%s\n", first[0] == ' ' ? "2" : "");
	for_each_line(details, out, "    ");
	fputs("  ...\n", out);
}

/* Suite `index`'s likely bug classes as diagnostics after the tests,
 * "# SUITE: likely bug class: ...", which TAP consumers show. */
static void write_tap_bug_classes(const cf_report *report, size_t index,
				  FILE *out)
{
	cf_text text = { 0 };
	const char *line = NULL;

	bug_classes(report, index, &text);
	line = cf_text_get(&text);
	while (*line != '\0') {
		const size_t length = line_length(line);

		fputs("# ", out);
		put_string(out, report->suites[index].name, TEXT_LINE);
		fputs(": ", out);
		put_text(out, line, length, TEXT_LINE);
		putc('\n', out);
		line += length + (line[length] == '\n');
	}
	cf_text_free(&text);
}

void cf_report_write_tap(const cf_report *report, FILE *out)
{
	fprintf(out, "TAP version 13\n1..%zu\n", report->num_results);
	for (size_t i = 0; i < report->num_results; i++) {
		const cf_result *result = &report->results[i];

		fprintf(out, "%s %zu - ",
			result->outcome == CF_FAIL ? "not ok" : "ok", i + 1);
		put_string(out, result->suite, TAP_DESCRIPTION);
		fputs(": ", out);
		put_string(out, result->name, TAP_DESCRIPTION);
		if (result->outcome == CF_SKIP) {
			fputs(" # SKIP", out);
			if (has_details(result)) {
				putc(' ', out);
				put_text(out, result->details,
					 line_length(result->details),
					 TAP_DESCRIPTION);
			}
		}
		putc('\n', out);
		if (has_details(result))
			write_yaml(out, result->details);
	}
	for (size_t s = 0; s < report->num_suites; s++)
		if (report->suites[s].count[CF_FAIL] > 0)
			write_tap_bug_classes(report, s, out);
}

/* ---------------------------------------------------------------- JUnit */

static void write_time(FILE *out, double seconds)
{
	fprintf(out, " time=\"%.3f\"", seconds);
}

static void write_attribute(FILE *out, const char *key, const char *value,
			    size_t length)
{
	fprintf(out, " %s=\"", key);
	put_text(out, value, length, XML_ATTRIBUTE);
	putc('"', out);
}

static void write_testcase(FILE *out, const cf_result *result)
{
	const char *details = has_details(result) ? result->details : NULL;

	fputs("    <testcase", out);
	write_attribute(out, "classname", result->suite, strlen(result->suite));
	write_attribute(out, "name", result->name, strlen(result->name));
	write_time(out, result->seconds);
	if (result->outcome == CF_PASS) {
		fputs("/>\n", out);
		return;
	}
	fputs(">\n      ", out);
	if (result->outcome == CF_FAIL) {
		fputs("<failure", out);
		if (details != NULL) {
			write_attribute(out, "message", details,
					line_length(details));
			putc('>', out);
			put_string(out, details, XML_CONTENT);
			fputs("</failure>\n", out);
		} else {
			fputs(" message=\"failed\"/>\n", out);
		}
	} else {
		fputs("<skipped", out);
		if (details != NULL)
			write_attribute(out, "message", details,
					line_length(details));
		fputs("/>\n", out);
	}
	fputs("    </testcase>\n", out);
}

/* Suite `index`'s likely bug classes as the suite's properties (which
 * JUnit puts before its testcases), one <property name="likely bug
 * class" value="..."/> each. */
static void write_junit_bug_classes(const cf_report *report, size_t index,
				    FILE *out)
{
	static const char prefix[] = "likely bug class: ";
	cf_text text = { 0 };
	const char *line = NULL;

	bug_classes(report, index, &text);
	line = cf_text_get(&text);
	if (*line != '\0')
		fputs("    <properties>\n", out);
	while (*line != '\0') {
		const size_t length = line_length(line);
		const size_t skip = strncmp(line, prefix, sizeof(prefix) - 1) ?
					    0 : sizeof(prefix) - 1;

		fputs("      <property name=\"likely bug class\"", out);
		write_attribute(out, "value", line + skip, length - skip);
		fputs("/>\n", out);
		line += length + (line[length] == '\n');
	}
	if (*cf_text_get(&text) != '\0')
		fputs("    </properties>\n", out);
	cf_text_free(&text);
}

void cf_report_write_junit(const cf_report *report, FILE *out)
{
	size_t total[3] = { 0, 0, 0 };
	double seconds = 0;

	for (size_t i = 0; i < report->num_suites; i++) {
		for (int o = CF_PASS; o <= CF_SKIP; o++)
			total[o] += report->suites[i].count[o];
		seconds += report->suites[i].seconds;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
		"<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"",
		report->num_results, total[CF_FAIL], total[CF_SKIP]);
	write_time(out, seconds);
	fputs(">\n", out);
	for (size_t s = 0; s < report->num_suites; s++) {
		const cf_suite *suite = &report->suites[s];

		fputs("  <testsuite", out);
		write_attribute(out, "name", suite->name, strlen(suite->name));
		fprintf(out,
			" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"",
			suite->count[CF_PASS] + suite->count[CF_FAIL] +
				suite->count[CF_SKIP],
			suite->count[CF_FAIL], suite->count[CF_SKIP]);
		write_time(out, suite->seconds);
		fputs(">\n", out);
		if (suite->count[CF_FAIL] > 0)
			write_junit_bug_classes(report, s, out);
		for (size_t i = 0; i < report->num_results; i++)
			if (report->results[i].suite_index == s)
				write_testcase(out, &report->results[i]);
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
}
