/*
 * xml_check.c - a small XML well-formedness checker that also decodes
 * attributes and text, and strict UTF-8 checks (xml_check.h).
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "xml_check.h"

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

bool valid_utf8(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0')
		if (utf8_char(&p) < 0)
			return false;
	return true;
}

bool has_raw_control(const char *text, bool allow_tab_newline)
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
void xml_check(const char *text, xml_doc *doc)
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

void assert_well_formed(const char *text, xml_doc *doc)
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
int nth_element(const xml_doc *doc, const char *name, int n)
{
	for (int i = 0; i < doc->count; i++)
		if (strcmp(doc->elements[i].name, name) == 0 && n-- == 0)
			return i;
	return -1;
}

void assert_attribute(const xml_doc *doc, int index, const char *name,
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
