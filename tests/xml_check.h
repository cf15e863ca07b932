/*
 * xml_check.h - a small XML well-formedness checker for the conformance
 * report's JUnit output, written apart from report.c on purpose: it also
 * decodes attributes and text so that a test can compare them with what
 * was recorded; and strict UTF-8 checks. Defined in xml_check.c.
 */
#ifndef OPVER_TESTS_XML_CHECK_H
#define OPVER_TESTS_XML_CHECK_H

#include <stdbool.h>
#include <stddef.h>

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

/* Whether `text` is valid UTF-8. */
bool valid_utf8(const char *text);

/* Whether `text` holds a control character (but tab and newline, when
 * allowed). */
bool has_raw_control(const char *text, bool allow_tab_newline);

/* Checks `text` into doc: its elements, or the error and where. */
void xml_check(const char *text, xml_doc *doc);

void assert_well_formed(const char *text, xml_doc *doc);

/* The index of the n-th (from 0) element named `name`; -1 if none. */
int nth_element(const xml_doc *doc, const char *name, int n);

/* Element `index` has attribute `name` with the value `expected`. */
void assert_attribute(const xml_doc *doc, int index, const char *name,
		      const char *expected);

#endif
