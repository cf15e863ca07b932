/*
 * test_conformance_report.c - the conformance report: counts, the human
 * summary, TAP 13 and JUnit XML, with hostile names (quotes, markup,
 * newlines, control characters, bytes that are not UTF-8).  The XML is
 * checked by a small well-formedness checker of this file, which also
 * decodes attributes and text so that a test can compare them with what
 * was recorded; xmllint, when installed, checks it a second time.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance/report.h"

/* Criterion runs each test in its own process: this state is per test. */
static cf_report *report;
static char *output;

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

static void add(const char *suite, const char *name, cf_outcome outcome,
		const char *details)
{
	cr_assert(cf_report_add(report, suite, name, outcome, 0.25, details));
}

typedef enum format { HUMAN, HUMAN_VERBOSE, TAP, JUNIT } format;

/* The report written in `format`, as one string, owned by the test and
 * valid until the next call. */
static const char *written(format which)
{
	size_t size;
	FILE *out;

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

/* Whether `text` holds `line` as a whole line. */
static bool has_line(const char *text, const char *line)
{
	size_t length = strlen(line);

	for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') &&
		    (p[length] == '\n' || p[length] == '\0'))
			return true;
	return false;
}

#define assert_line(text, line) \
	cr_assert(has_line((text), (line)), "no line \"%s\" in:\n%s", (line), \
		  (text))

/* ---------------------------------------------------------------- UTF-8 */

/* Strictly decodes one UTF-8 character; -1 when malformed.  Written apart
 * from report.c's decoder on purpose. */
static int32_t utf8_char(const unsigned char **p)
{
	const unsigned char *s = *p;
	int extra;
	int32_t c;

	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0)
		extra = 1, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		extra = 2, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		extra = 3, c = s[0] & 0x07;
	else
		return -1;
	for (int i = 1; i <= extra; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((extra == 1 && c < 0x80) || (extra == 2 && c < 0x800) ||
	    (extra == 3 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*p = s + 1 + extra;
	return c;
}

static bool valid_utf8(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0')
		if (utf8_char(&p) < 0)
			return false;
	return true;
}

static bool has_raw_control(const char *text, bool allow_tab_newline)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p < 0x20 || *p == 0x7f) &&
		    !(allow_tab_newline && (*p == '\t' || *p == '\n')))
			return true;
	return false;
}

/* ---------------------------------------------------------------- XML */

/* XML 1.0's Char production. */
static bool xml_char(int32_t c)
{
	return c == 0x9 || c == 0xa || c == 0xd ||
	       (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) ||
	       (c >= 0x10000 && c <= 0x10ffff);
}

#define MAX_ELEMENTS 64
#define MAX_ATTRIBUTES 8

typedef struct xml_attribute {
	char name[32];
	char value[512];        /* decoded */
} xml_attribute;

typedef struct xml_element {
	char name[32];
	int depth;
	int num_attributes;
	xml_attribute attributes[MAX_ATTRIBUTES];
	char text[1024];        /* decoded character data, children's not */
} xml_element;

typedef struct xml_doc {
	xml_element elements[MAX_ELEMENTS];
	int count;
	const char *error;      /* NULL when well-formed */
	size_t error_at;
} xml_doc;

typedef struct xml_parser {
	const char *start;
	const char *p;
	xml_doc *doc;
} xml_parser;

static bool xml_fail(xml_parser *x, const char *error)
{
	if (x->doc->error == NULL) {
		x->doc->error = error;
		x->doc->error_at = (size_t)(x->p - x->start);
	}
	return false;
}

static void skip_space(xml_parser *x)
{
	while (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r')
		x->p++;
}

static bool xml_name(xml_parser *x, char *name, size_t size)
{
	size_t n = 0;

	if (!(*x->p == '_' || *x->p == ':' || (*x->p >= 'a' && *x->p <= 'z') ||
	      (*x->p >= 'A' && *x->p <= 'Z')))
		return xml_fail(x, "expected a name");
	while (*x->p == '_' || *x->p == ':' || *x->p == '-' || *x->p == '.' ||
	       (*x->p >= 'a' && *x->p <= 'z') || (*x->p >= 'A' && *x->p <= 'Z') ||
	       (*x->p >= '0' && *x->p <= '9')) {
		if (n + 1 >= size)
			return xml_fail(x, "name too long for the checker");
		name[n++] = *x->p++;
	}
	name[n] = '\0';
	return true;
}

static bool append(xml_parser *x, char *buf, size_t size, int32_t c)
{
	size_t n = strlen(buf);
	char bytes[4];
	size_t length;

	if (c < 0x80)
		bytes[0] = (char)c, length = 1;
	else if (c < 0x800)
		bytes[0] = (char)(0xc0 | c >> 6),
		bytes[1] = (char)(0x80 | (c & 0x3f)), length = 2;
	else if (c < 0x10000)
		bytes[0] = (char)(0xe0 | c >> 12),
		bytes[1] = (char)(0x80 | (c >> 6 & 0x3f)),
		bytes[2] = (char)(0x80 | (c & 0x3f)), length = 3;
	else
		bytes[0] = (char)(0xf0 | c >> 18),
		bytes[1] = (char)(0x80 | (c >> 12 & 0x3f)),
		bytes[2] = (char)(0x80 | (c >> 6 & 0x3f)),
		bytes[3] = (char)(0x80 | (c & 0x3f)), length = 4;
	if (n + length >= size)
		return xml_fail(x, "text too long for the checker");
	memcpy(buf + n, bytes, length);
	buf[n + length] = '\0';
	return true;
}

/* One character of an attribute value or of content, references decoded
 * and raw whitespace normalized as a parser does it; a raw '<' is the
 * caller's business. */
static bool xml_text_char(xml_parser *x, char *buf, size_t size,
			  bool in_attribute)
{
	static const struct {
		const char *name;
		char c;
	} entities[] = { { "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
			 { "quot;", '"' }, { "apos;", '\'' } };
	const unsigned char *p;
	int32_t c;

	if (*x->p == '&') {
		x->p++;
		if (*x->p == '#') {
			bool hex = x->p[1] == 'x';
			const char *digits = x->p + (hex ? 2 : 1);
			char *end;
			long value;

			if (!(hex ? isxdigit((unsigned char)*digits)
				  : isdigit((unsigned char)*digits)))
				return xml_fail(x, "bad character reference");
			value = strtol(digits, &end, hex ? 16 : 10);
			if (*end != ';' || !xml_char((int32_t)value))
				return xml_fail(x, "bad character reference");
			x->p = end + 1;
			return append(x, buf, size, (int32_t)value);
		}
		for (size_t i = 0; i < sizeof(entities) / sizeof(entities[0]);
		     i++) {
			size_t length = strlen(entities[i].name);

			if (strncmp(x->p, entities[i].name, length) == 0) {
				x->p += length;
				return append(x, buf, size, entities[i].c);
			}
		}
		return xml_fail(x, "bad entity reference");
	}
	p = (const unsigned char *)x->p;
	c = utf8_char(&p);
	if (c < 0)
		return xml_fail(x, "not UTF-8");
	x->p = (const char *)p;
	if (!xml_char(c))
		return xml_fail(x, "character XML does not allow");
	/* Line ends become "\n" (a "\r\n" pair one), and in an attribute
	 * every raw tab or line end a space. */
	if (c == '\r') {
		if (*x->p == '\n')
			x->p++;
		c = '\n';
	}
	if (in_attribute && (c == '\t' || c == '\n'))
		c = ' ';
	return append(x, buf, size, c);
}

static bool xml_element_at(xml_parser *x, int depth);

static bool xml_attributes(xml_parser *x, xml_element *element)
{
	for (;;) {
		const char *before = x->p;
		xml_attribute *attribute;
		char quote;

		skip_space(x);
		if (*x->p == '>' || *x->p == '/')
			return true;
		if (x->p == before)
			return xml_fail(x, "no space before an attribute");
		if (element->num_attributes == MAX_ATTRIBUTES)
			return xml_fail(x, "too many attributes for the checker");
		attribute = &element->attributes[element->num_attributes++];
		if (!xml_name(x, attribute->name, sizeof(attribute->name)))
			return false;
		for (int i = 0; i < element->num_attributes - 1; i++)
			if (strcmp(element->attributes[i].name,
				   attribute->name) == 0)
				return xml_fail(x, "duplicate attribute");
		skip_space(x);
		if (*x->p++ != '=')
			return xml_fail(x, "expected '='");
		skip_space(x);
		quote = *x->p++;
		if (quote != '"' && quote != '\'')
			return xml_fail(x, "unquoted attribute value");
		attribute->value[0] = '\0';
		while (*x->p != quote) {
			if (*x->p == '\0' || *x->p == '<')
				return xml_fail(x, "'<' or end in an attribute");
			if (!xml_text_char(x, attribute->value,
					   sizeof(attribute->value), true))
				return false;
		}
		x->p++;
	}
}

static bool xml_content(xml_parser *x, xml_element *element, int depth)
{
	for (;;) {
		if (*x->p == '\0')
			return xml_fail(x, "unclosed element");
		if (strncmp(x->p, "</", 2) == 0) {
			char name[32];

			x->p += 2;
			if (!xml_name(x, name, sizeof(name)))
				return false;
			if (strcmp(name, element->name) != 0)
				return xml_fail(x, "mismatched end tag");
			skip_space(x);
			if (*x->p++ != '>')
				return xml_fail(x, "expected '>'");
			return true;
		}
		if (*x->p == '<') {
			if (!xml_element_at(x, depth + 1))
				return false;
			continue;
		}
		if (strncmp(x->p, "]]>", 3) == 0)
			return xml_fail(x, "']]>' in content");
		if (!xml_text_char(x, element->text, sizeof(element->text),
				   false))
			return false;
	}
}

static bool xml_element_at(xml_parser *x, int depth)
{
	xml_element *element;

	if (x->doc->count == MAX_ELEMENTS)
		return xml_fail(x, "too many elements for the checker");
	element = &x->doc->elements[x->doc->count++];
	memset(element, 0, sizeof(*element));
	element->depth = depth;
	if (*x->p++ != '<')
		return xml_fail(x, "expected '<'");
	if (!xml_name(x, element->name, sizeof(element->name)) ||
	    !xml_attributes(x, element))
		return false;
	if (strncmp(x->p, "/>", 2) == 0) {
		x->p += 2;
		return true;
	}
	if (*x->p++ != '>')
		return xml_fail(x, "expected '>' or '/>'");
	return xml_content(x, element, depth);
}

/* Checks that text is one well-formed UTF-8 XML document with an XML
 * declaration, and fills doc with its elements in document order. */
static void xml_check(const char *text, xml_doc *doc)
{
	xml_parser x = { .start = text, .p = text, .doc = doc };
	const char *declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

	memset(doc, 0, sizeof(*doc));
	if (strncmp(text, declaration, strlen(declaration)) != 0) {
		xml_fail(&x, "no XML declaration");
		return;
	}
	x.p += strlen(declaration);
	skip_space(&x);
	if (!xml_element_at(&x, 0))
		return;
	skip_space(&x);
	if (*x.p != '\0')
		xml_fail(&x, "text after the root element");
}

static void assert_well_formed(const char *text, xml_doc *doc)
{
	xml_check(text, doc);
	cr_assert_null(doc->error, "not well-formed: %s at byte %zu of:\n%s",
		       doc->error, doc->error_at, text);
}

/* The decoded value of attribute `name` of element `index`; NULL if none. */
static const char *attribute(const xml_doc *doc, int index, const char *name)
{
	const xml_element *element = &doc->elements[index];

	for (int i = 0; i < element->num_attributes; i++)
		if (strcmp(element->attributes[i].name, name) == 0)
			return element->attributes[i].value;
	return NULL;
}

/* The index of the n-th (from 0) element named `name`; -1 if none. */
static int nth_element(const xml_doc *doc, const char *name, int n)
{
	for (int i = 0; i < doc->count; i++)
		if (strcmp(doc->elements[i].name, name) == 0 && n-- == 0)
			return i;
	return -1;
}

static void assert_attribute(const xml_doc *doc, int index, const char *name,
			     const char *expected)
{
	const char *value;

	cr_assert_geq(index, 0, "no such element");
	value = attribute(doc, index, name);
	cr_assert_not_null(value, "<%s> has no %s", doc->elements[index].name,
			   name);
	cr_assert_str_eq(value, expected, "<%s %s>", doc->elements[index].name,
			 name);
}

/* The checker itself must be able to fail: each of these is malformed. */
Test(conformance_report, xml_checker_rejects_malformed_documents)
{
	static const char *const bad[] = {
		"<a/>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a></b>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a x=\"1\" x=\"2\"/>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a x=\"<\"/>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a x=1/>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>&</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>&nbsp;</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>&#1;</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>\x01</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>\xff</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>\xc0\x80</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>\xef\xbf\xbe</a>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/><b/>",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>]]></a>",
	};
	xml_doc doc;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		xml_check(bad[i], &doc);
		cr_expect_not_null(doc.error, "accepted: %s", bad[i]);
	}
	xml_check("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<a x='&lt;&#10;&#x263A;' y=\"1\n2\t3\">t&amp;<b/>u\r\nv</a>\n",
		  &doc);
	cr_assert_null(doc.error, "%s", doc.error);
	assert_attribute(&doc, 0, "x", "<\n\xe2\x98\xba");
	assert_attribute(&doc, 0, "y", "1 2 3");
	cr_assert_str_eq(doc.elements[0].text, "t&u\nv");
}

/* ---------------------------------------------------------------- counts */

Test(conformance_report, counts_each_outcome)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("ADD/add_float32", "case 1", CF_FAIL, "differs");
	add("hygiene", "exports", CF_PASS, NULL);
	add("ADD/add_float32", "case 2", CF_SKIP, "no reference");
	add("hygiene", "leaks", CF_FAIL, NULL);
	add("ADD/add_float32", "case 3", CF_PASS, NULL);

	cr_assert_eq(cf_report_count(report, CF_PASS), 3);
	cr_assert_eq(cf_report_count(report, CF_FAIL), 2);
	cr_assert_eq(cf_report_count(report, CF_SKIP), 1);
}

Test(conformance_report, copies_what_it_is_given)
{
	char suite[] = "MUL/mul_int8";
	char name[] = "case 7";
	char details[] = "output 0 differs";

	add(suite, name, CF_FAIL, details);
	memset(suite, 'x', sizeof(suite) - 1);
	memset(name, 'y', sizeof(name) - 1);
	memset(details, 'z', sizeof(details) - 1);

	written(HUMAN);
	assert_line(output, "FAIL MUL/mul_int8: case 7");
	assert_line(output, "    output 0 differs");
}

/* ---------------------------------------------------------------- human */

Test(conformance_report, human_summary_shows_failures_then_suites)
{
	const char *failure, *summary;

	add("ADD/add_float32", "case 0", CF_PASS, "nothing to see");
	add("ADD/add_float32", "case 1", CF_FAIL,
	    "output 0 element 3: 1.5 vs 1.25\nreproduce: --op ADD --seed 9\n");
	add("hygiene", "exports", CF_SKIP, "not an ELF file");
	add("ADD/add_float32", "case 2", CF_PASS, NULL);
	written(HUMAN);

	assert_line(output, "FAIL ADD/add_float32: case 1");
	assert_line(output, "    output 0 element 3: 1.5 vs 1.25");
	assert_line(output, "    reproduce: --op ADD --seed 9");
	assert_line(output, "ADD/add_float32: 2 passed, 1 failed, 0 skipped");
	assert_line(output, "hygiene: 0 passed, 0 failed, 1 skipped");
	assert_line(output, "total: 2 passed, 1 failed, 1 skipped");
	cr_assert_null(strstr(output, "case 0"), "%s", output);
	cr_assert_null(strstr(output, "nothing to see"), "%s", output);
	cr_assert_null(strstr(output, "not an ELF file"), "%s", output);
	/* Failures first, the suites in the order they first appear, the
	 * total last. */
	failure = strstr(output, "FAIL ");
	summary = strstr(output, "ADD/add_float32: 2 passed");
	cr_assert(failure < summary, "%s", output);
	cr_assert(summary < strstr(output, "hygiene: 0 passed"), "%s", output);
	cr_assert(strstr(output, "hygiene: 0 passed") <
		  strstr(output, "total: "), "%s", output);
	cr_assert_eq(output[strlen(output) - 1], '\n');
}

Test(conformance_report, verbose_summary_shows_every_check_in_order)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("hygiene", "exports", CF_SKIP, "not an ELF file");
	add("ADD/add_float32", "case 1", CF_FAIL, "differs");
	written(HUMAN_VERBOSE);

	assert_line(output, "PASS ADD/add_float32: case 0");
	assert_line(output, "SKIP hygiene: exports");
	assert_line(output, "    not an ELF file");
	assert_line(output, "FAIL ADD/add_float32: case 1");
	cr_assert(strstr(output, "PASS ") < strstr(output, "SKIP ") &&
		  strstr(output, "SKIP ") < strstr(output, "FAIL "),
		  "%s", output);
}

Test(conformance_report, human_summary_escapes_control_characters)
{
	add("S\x1b[31m", "two\nlines\x7f", CF_FAIL, "tab\tkept\n\x1b[2Jgone");
	written(HUMAN);

	assert_line(output, "FAIL S\\u001B[31m: two\\u000Alines\\u007F");
	assert_line(output, "    tab\tkept");
	assert_line(output, "    \\u001B[2Jgone");
	cr_assert_not(has_raw_control(output, true), "%s", output);
}

/* ---------------------------------------------------------------- TAP */

Test(conformance_report, tap_has_version_plan_and_numbered_lines)
{
	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("ADD/add_float32", "case 1", CF_FAIL,
	    "output 0 differs\nreproduce: --seed 3");
	add("hygiene", "heap", CF_SKIP, "AddressSanitizer hides the heap\nmore");
	add("hygiene", "fds", CF_SKIP, NULL);
	written(TAP);

	cr_assert(strncmp(output, "TAP version 13\n1..4\n", 20) == 0, "%s",
		  output);
	assert_line(output, "ok 1 - ADD/add_float32: case 0");
	assert_line(output, "not ok 2 - ADD/add_float32: case 1");
	assert_line(output, "ok 3 - hygiene: heap # SKIP AddressSanitizer hides the heap");
	assert_line(output, "ok 4 - hygiene: fds # SKIP");
	cr_assert_not_null(strstr(output,
				  "not ok 2 - ADD/add_float32: case 1\n"
				  "  ---\n"
				  "  message: |\n"
				  "    output 0 differs\n"
				  "    reproduce: --seed 3\n"
				  "  ...\n"
				  "ok 3 "),
			   "%s", output);
}

Test(conformance_report, tap_escapes_directives_and_newlines_in_names)
{
	add("suite#1", "a\\b # TODO\nok 9 - forged", CF_PASS, NULL);
	written(TAP);

	assert_line(output, "ok 1 - suite\\#1: a\\\\b \\# TODO\\u000Aok 9 - forged");
	cr_assert_not(has_line(output, "ok 9 - forged"), "%s", output);
}

Test(conformance_report, tap_yaml_states_the_indentation_of_indented_details)
{
	add("S", "n", CF_FAIL, "\n  indented first line\nsecond");
	written(TAP);

	cr_assert_not_null(strstr(output,
				  "  message: |2\n"
				  "    \n"
				  "      indented first line\n"
				  "    second\n"
				  "  ...\n"),
			   "%s", output);
}

/* ---------------------------------------------------------------- JUnit */

Test(conformance_report, junit_groups_checks_by_suite)
{
	xml_doc doc;
	int first_suite, second_suite;

	add("ADD/add_float32", "case 0", CF_PASS, NULL);
	add("hygiene", "exports", CF_FAIL, "exports helper\nadvice");
	add("ADD/add_float32", "case 1", CF_FAIL, "output 0 differs\nseed 4");
	add("hygiene", "heap", CF_SKIP, "ASan\nmore");
	assert_well_formed(written(JUNIT), &doc);

	cr_assert_str_eq(doc.elements[0].name, "testsuites");
	assert_attribute(&doc, 0, "tests", "4");
	assert_attribute(&doc, 0, "failures", "2");
	assert_attribute(&doc, 0, "skipped", "1");
	assert_attribute(&doc, 0, "time", "1.000");
	first_suite = nth_element(&doc, "testsuite", 0);
	second_suite = nth_element(&doc, "testsuite", 1);
	cr_assert_eq(nth_element(&doc, "testsuite", 2), -1);
	assert_attribute(&doc, first_suite, "name", "ADD/add_float32");
	assert_attribute(&doc, first_suite, "tests", "2");
	assert_attribute(&doc, first_suite, "failures", "1");
	assert_attribute(&doc, first_suite, "skipped", "0");
	assert_attribute(&doc, first_suite, "time", "0.500");
	assert_attribute(&doc, second_suite, "name", "hygiene");
	assert_attribute(&doc, second_suite, "tests", "2");
	assert_attribute(&doc, second_suite, "failures", "1");
	assert_attribute(&doc, second_suite, "skipped", "1");

	/* Document order: suite, its cases, the next suite, its cases. */
	cr_assert_eq(doc.elements[first_suite + 1].depth, 2);
	assert_attribute(&doc, first_suite + 1, "name", "case 0");
	assert_attribute(&doc, first_suite + 1, "classname", "ADD/add_float32");
	assert_attribute(&doc, first_suite + 1, "time", "0.250");
	assert_attribute(&doc, first_suite + 2, "name", "case 1");
	cr_assert_str_eq(doc.elements[first_suite + 3].name, "failure");
	assert_attribute(&doc, first_suite + 3, "message", "output 0 differs");
	cr_assert_str_eq(doc.elements[first_suite + 3].text,
			 "output 0 differs\nseed 4");
	cr_assert_eq(second_suite, first_suite + 4);
	assert_attribute(&doc, second_suite + 1, "name", "exports");
	cr_assert_str_eq(doc.elements[second_suite + 2].name, "failure");
	assert_attribute(&doc, second_suite + 3, "name", "heap");
	cr_assert_str_eq(doc.elements[second_suite + 4].name, "skipped");
	assert_attribute(&doc, second_suite + 4, "message", "ASan");
}

Test(conformance_report, junit_escapes_hostile_names)
{
	const char *hostile = "a\"b'c<d>e&f]]>g\nh\ti\rj";
	xml_doc doc;
	int testcase, failure;

	add(hostile, hostile, CF_FAIL, "<failure>&amp;\"</failure>\n\r\x01");
	assert_well_formed(written(JUNIT), &doc);

	testcase = nth_element(&doc, "testcase", 0);
	failure = nth_element(&doc, "failure", 0);
	/* Quotes, markup, tab, newline and carriage return survive as
	 * themselves (references, not raw whitespace a parser would fold). */
	assert_attribute(&doc, nth_element(&doc, "testsuite", 0), "name",
			 hostile);
	assert_attribute(&doc, testcase, "name", hostile);
	assert_attribute(&doc, testcase, "classname", hostile);
	assert_attribute(&doc, failure, "message", "<failure>&amp;\"</failure>");
	cr_assert_str_eq(doc.elements[failure].text,
			 "<failure>&amp;\"</failure>\n\r\\u0001");
	cr_assert_eq(nth_element(&doc, "failure", 1), -1);
}

Test(conformance_report, junit_spells_control_characters_xml_cannot_hold)
{
	xml_doc doc;

	add("s", "nul-less \x01\x1f\x7f end", CF_SKIP, "\x02 reason");
	assert_well_formed(written(JUNIT), &doc);

	assert_attribute(&doc, nth_element(&doc, "testcase", 0), "name",
			 "nul-less \\u0001\\u001F\\u007F end");
	assert_attribute(&doc, nth_element(&doc, "skipped", 0), "message",
			 "\\u0002 reason");
}

Test(conformance_report, every_format_is_utf8_when_names_are_not)
{
#define R "\xef\xbf\xbd"
	/* A stray continuation byte, a truncated sequence, an overlong '/',
	 * a surrogate and a noncharacter, then good UTF-8 (e acute, a smiley
	 * from the BMP and one from beyond it). */
	const char *bytes = "\x80 \xe2\x98 \xc0\xaf \xed\xa0\x80 \xef\xbf\xbf "
			    "\xc3\xa9\xe2\x98\xba\xf0\x9f\x98\x80";
	const char *replaced = R " " R R " " R R " " R R R " " R " "
			       "\xc3\xa9\xe2\x98\xba\xf0\x9f\x98\x80";
#undef R
	char indented[128];
	xml_doc doc;

	add(bytes, bytes, CF_FAIL, bytes);
	cr_assert(valid_utf8(written(HUMAN)), "%s", output);
	cr_assert(valid_utf8(written(HUMAN_VERBOSE)), "%s", output);
	cr_assert(valid_utf8(written(TAP)), "%s", output);
	snprintf(indented, sizeof(indented), "    %s", replaced);
	assert_line(output, indented);
	assert_well_formed(written(JUNIT), &doc);
	assert_attribute(&doc, nth_element(&doc, "testcase", 0), "name",
			 replaced);
}

/* The same hostile report through an XML parser that is not ours. */
Test(conformance_report, xmllint_accepts_the_junit_output)
{
	char path[] = "/tmp/opver-report-XMLXXXXXX";
	char command[128];
	FILE *file;
	int fd, status;

	if (system("command -v xmllint >/dev/null 2>&1") != 0)
		cr_skip_test("xmllint is not installed; the test's own checker "
			     "covers well-formedness");
	add("a\"b'c<d>e&f\n\x01", "\xff\xfe name \x1b", CF_FAIL,
	    "<x>&\r\n\x02</x>");
	add("hygiene", "heap", CF_SKIP, "ASan & co");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	file = fdopen(fd, "w");
	cr_assert_not_null(file);
	cf_report_write_junit(report, file);
	cr_assert_eq(fclose(file), 0);
	snprintf(command, sizeof(command), "xmllint --noout %s", path);
	status = system(command);
	unlink(path);
	cr_assert_eq(status, 0, "xmllint refused %s", path);
}

/* ---------------------------------------------------------------- empty */

Test(conformance_report, empty_report_is_valid_in_every_format)
{
	xml_doc doc;

	cr_assert_eq(cf_report_count(report, CF_PASS), 0);
	cr_assert_eq(cf_report_count(report, CF_FAIL), 0);
	cr_assert_eq(cf_report_count(report, CF_SKIP), 0);
	cr_assert_str_eq(written(HUMAN),
			 "total: 0 passed, 0 failed, 0 skipped\n");
	cr_assert_str_eq(written(TAP), "TAP version 13\n1..0\n");
	assert_well_formed(written(JUNIT), &doc);
	cr_assert_eq(doc.count, 1);
	assert_attribute(&doc, 0, "tests", "0");
	assert_attribute(&doc, 0, "failures", "0");
}

Test(conformance_report, free_accepts_null)
{
	cf_report_free(NULL);
}
