/*
 * test_conformance_report_junit.c - the conformance report's JUnit XML, checked
 * by the well-formedness checker of xml_check.c, which also decodes
 * attributes and text so that a test can compare them with what was
 * recorded (xmllint, when installed, checks it a second time); every format
 * with names that are not UTF-8; the empty report.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xml_check.h"
#include "report_output.h"

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

/* A suite's likely bug classes are its properties, before its
 * testcases as JUnit's schema orders them; a suite without a pattern has
 * none. */
Test(conformance_report, junit_names_the_likely_bug_classes)
{
	xml_doc doc;
	int add_suite, mul_suite, properties;

	add("ADD/add_int8", "v2 activation=RELU broadcast=same", CF_PASS, NULL);
	add("ADD/add_int8", "v2 activation=RELU broadcast=scalar", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 3, reference 4; 2 of 8 elements differ, each by one step (must match exactly)\n");
	add("MUL/mul_int8", "v2 activation=NONE", CF_FAIL,
	    "mismatch: output element 0 [0]: plugin 1, reference 9; 1 of 8 elements differ (must match exactly)\n");
	assert_well_formed(written(JUNIT), &doc);

	add_suite = nth_element(&doc, "testsuite", 0);
	mul_suite = nth_element(&doc, "testsuite", 1);
	properties = nth_element(&doc, "properties", 0);
	cr_assert_eq(properties, add_suite + 1);
	cr_assert_eq(doc.elements[properties].depth, 2);
	cr_assert_eq(nth_element(&doc, "properties", 1), -1);
	assert_attribute(&doc, properties + 1, "name", "likely bug class");
	assert_attribute(&doc, properties + 1, "value",
			 "rounding: every difference is one step");
	assert_attribute(&doc, properties + 2, "name", "likely bug class");
	assert_attribute(&doc, properties + 2, "value",
			 "broadcasting: only cases whose inputs' shapes differ fail");
	cr_assert_str_eq(doc.elements[properties + 3].name, "testcase");
	cr_assert_str_eq(doc.elements[mul_suite + 1].name, "testcase");
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
