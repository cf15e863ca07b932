/*
 * test_schema_ids.c - schema/opver_ids.h against schema/opver.fbs.  Every
 * row of OPVER_SCHEMA_FIELDS must name a field of opver.fbs and give its
 * id, the field's position in its table with a union field counting two
 * (FIELD_type, then FIELD, as flatc numbers them); every row of
 * OPVER_SCHEMA_UNION_MEMBERS must name a union member and give its type
 * code.  An id moved in the schema and not in the header, or the other
 * way round, fails here before a model is misread.
 *
 * The parser reads just enough of the FlatBuffers schema language: the
 * fields of tables and the members of unions.  Structs, enums and RPC
 * services are skipped whole, other statements up to their ';'.  An
 * explicit (id: N) attribute, which opver.fbs has no use for, is refused
 * rather than misread.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/opver_ids.h"

#define MAX_NAME 64
#define MAX_TOKENS 8192
#define MAX_ENTRIES 1024
#define MAX_UNIONS 64

typedef struct token {
	const char *text;       /* in the schema text; not NUL-terminated */
	size_t length;
	int line;
} token;

/* A table field with its id, or a union member with its type code. */
typedef struct entry {
	char container[MAX_NAME];
	char member[MAX_NAME + 8];     /* room for FIELD_type */
	long value;
} entry;

typedef struct schema {
	entry fields[MAX_ENTRIES];
	size_t num_fields;
	entry members[MAX_ENTRIES];
	size_t num_members;
	char error[256];
} schema;

typedef struct parser {
	token tokens[MAX_TOKENS];
	size_t count;
	size_t pos;
	char unions[MAX_UNIONS][MAX_NAME];
	size_t num_unions;
	schema *out;
} parser;

static bool fail(parser *p, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(parser *p, const char *format, ...)
{
	char what[192];
	va_list args;
	int line = p->pos < p->count ? p->tokens[p->pos].line :
		   p->count ? p->tokens[p->count - 1].line : 0;

	va_start(args, format);
	vsnprintf(what, sizeof(what), format, args);
	va_end(args);
	snprintf(p->out->error, sizeof(p->out->error), "line %d: %s", line,
		 what);
	return false;
}

/* Splits `text` into identifiers (dots included: a.b.Type), numbers,
 * strings and single punctuation characters, dropping comments. */
static bool tokenize(parser *p, const char *text)
{
	const char *c = text;
	int line = 1;

	while (*c != '\0') {
		const char *start = c;

		if (*c == '\n') {
			line++;
			c++;
			continue;
		}
		if (isspace((unsigned char)*c)) {
			c++;
			continue;
		}
		if (c[0] == '/' && c[1] == '/') {
			while (*c != '\0' && *c != '\n')
				c++;
			continue;
		}
		if (c[0] == '/' && c[1] == '*') {
			const char *end = strstr(c + 2, "*/");

			if (end == NULL)
				return fail(p, "unterminated comment");
			for (; c < end; c++)
				line += *c == '\n';
			c = end + 2;
			continue;
		}
		if (isalnum((unsigned char)*c) || *c == '_' || *c == '-' ||
		    *c == '+' || *c == '.') {
			c++;
			while (isalnum((unsigned char)*c) || *c == '_' ||
			       *c == '.')
				c++;
		} else if (*c == '"') {
			c++;
			while (*c != '\0' && *c != '"' && *c != '\n')
				c += c[0] == '\\' && c[1] != '\0' ? 2 : 1;
			if (*c != '"')
				return fail(p, "unterminated string");
			c++;
		} else {
			c++;
		}
		if (p->count == MAX_TOKENS)
			return fail(p, "more than %d tokens", MAX_TOKENS);
		p->tokens[p->count++] = (token){ start, (size_t)(c - start),
						 line };
	}
	return true;
}

static bool at_end(const parser *p)
{
	return p->pos >= p->count;
}

static bool is(const parser *p, const char *text)
{
	const token *t = &p->tokens[p->pos];

	return !at_end(p) && t->length == strlen(text) &&
	       memcmp(t->text, text, t->length) == 0;
}

static bool is_name(const parser *p)
{
	return !at_end(p) && (isalpha((unsigned char)p->tokens[p->pos].text[0]) ||
			      p->tokens[p->pos].text[0] == '_');
}

static bool expect(parser *p, const char *text)
{
	if (!is(p, text))
		return fail(p, "expected '%s'", text);
	p->pos++;
	return true;
}

/* Copies the current token, a name, into `out` and moves past it. */
static bool take_name(parser *p, char out[MAX_NAME])
{
	const token *t = &p->tokens[p->pos];

	if (!is_name(p))
		return fail(p, "expected a name");
	if (t->length >= MAX_NAME)
		return fail(p, "name longer than %d characters", MAX_NAME - 1);
	memcpy(out, t->text, t->length);
	out[t->length] = '\0';
	p->pos++;
	return true;
}

static bool take_number(parser *p, long *out)
{
	char text[32];
	char *end;
	const token *t = &p->tokens[p->pos];

	if (at_end(p) || t->length >= sizeof(text))
		return fail(p, "expected a number");
	memcpy(text, t->text, t->length);
	text[t->length] = '\0';
	*out = strtol(text, &end, 0);
	if (*end != '\0')
		return fail(p, "'%s' is not an integer", text);
	p->pos++;
	return true;
}

/* Moves past the block that starts at the current '{'. */
static bool skip_block(parser *p)
{
	int depth = 0;

	if (!is(p, "{"))
		return fail(p, "expected '{'");
	for (; !at_end(p); p->pos++) {
		depth += is(p, "{") - is(p, "}");
		if (depth == 0) {
			p->pos++;
			return true;
		}
	}
	return fail(p, "unterminated block");
}

static bool add(parser *p, entry *list, size_t *count, const char *container,
		const char *member, long value)
{
	entry *e;

	if (*count == MAX_ENTRIES)
		return fail(p, "more than %d entries", MAX_ENTRIES);
	e = &list[(*count)++];
	snprintf(e->container, sizeof(e->container), "%s", container);
	snprintf(e->member, sizeof(e->member), "%s", member);
	e->value = value;
	return true;
}

static bool is_union(const parser *p, const char *type)
{
	for (size_t i = 0; i < p->num_unions; i++)
		if (strcmp(p->unions[i], type) == 0)
			return true;
	return false;
}

/* Field attributes: (deprecated), (force_align: 16), ...; refuses id. */
static bool skip_attributes(parser *p)
{
	if (!is(p, "("))
		return true;
	for (; !at_end(p) && !is(p, ")"); p->pos++)
		if (is(p, "id"))
			return fail(p, "explicit field ids (id: N) are not supported");
	return expect(p, ")");
}

/* table NAME { field:type [= default] [(attributes)]; ... } */
static bool parse_table(parser *p)
{
	char table[MAX_NAME], field[MAX_NAME], type[MAX_NAME];
	long id = 0;

	if (!take_name(p, table) || !skip_attributes(p) || !expect(p, "{"))
		return false;
	while (!is(p, "}")) {
		bool vector;

		if (!take_name(p, field) || !expect(p, ":"))
			return false;
		vector = is(p, "[");
		if (vector)
			p->pos++;
		if (!take_name(p, type))
			return false;
		if (vector) {
			if (is(p, ":"))         /* [type:fixed_length] */
				p->pos += 2;
			if (!expect(p, "]"))
				return false;
		}
		if (is(p, "="))
			p->pos += 2;
		if (!skip_attributes(p) || !expect(p, ";"))
			return false;
		if (!vector && is_union(p, type)) {
			char type_field[MAX_NAME + 8];

			snprintf(type_field, sizeof(type_field), "%s_type", field);
			if (!add(p, p->out->fields, &p->out->num_fields, table,
				 type_field, id++))
				return false;
		}
		if (!add(p, p->out->fields, &p->out->num_fields, table, field,
			 id++))
			return false;
	}
	return expect(p, "}");
}

/* union NAME { Member [= code], Alias: Member, ... }; codes count on from
 * the previous one, NONE being 0. */
static bool parse_union(parser *p)
{
	char name[MAX_NAME], member[MAX_NAME];
	long code = 0;

	if (!take_name(p, name) || !skip_attributes(p) || !expect(p, "{"))
		return false;
	while (!is(p, "}")) {
		if (!take_name(p, member))
			return false;
		if (is(p, ":")) {       /* alias: the alias names the member */
			p->pos++;
			if (!is_name(p))
				return fail(p, "expected a type");
			p->pos++;
		}
		code++;
		if (is(p, "=")) {
			p->pos++;
			if (!take_number(p, &code))
				return false;
		}
		if (!add(p, p->out->members, &p->out->num_members, name,
			 member, code))
			return false;
		if (is(p, ","))
			p->pos++;
		else if (!is(p, "}"))
			return fail(p, "expected ',' or '}'");
	}
	return expect(p, "}");
}

/* Parses schema text into *out; false with out->error set. */
static bool parse_schema(const char *text, schema *out)
{
	parser *p = calloc(1, sizeof(*p));
	bool ok;

	memset(out, 0, sizeof(*out));
	cr_assert_not_null(p);
	p->out = out;
	ok = tokenize(p, text);
	/* Union names first: a table may use a union declared after it. */
	for (size_t i = 0; ok && i + 1 < p->count; i++) {
		p->pos = i;
		if (!is(p, "union"))
			continue;
		p->pos = i + 1;
		if (p->num_unions == MAX_UNIONS) {
			ok = fail(p, "more than %d unions", MAX_UNIONS);
			break;
		}
		ok = take_name(p, p->unions[p->num_unions++]);
	}
	p->pos = 0;
	while (ok && !at_end(p)) {
		if (is(p, "table")) {
			p->pos++;
			ok = parse_table(p);
		} else if (is(p, "union")) {
			p->pos++;
			ok = parse_union(p);
		} else if (is(p, "struct") || is(p, "enum") ||
			   is(p, "rpc_service")) {
			/* Struct fields have no ids; enums are not ids. */
			while (!at_end(p) && !is(p, "{"))
				p->pos++;
			ok = skip_block(p);
		} else {
			while (!at_end(p) && !is(p, ";"))
				p->pos++;
			ok = expect(p, ";");
		}
	}
	free(p);
	return ok;
}

static const entry *find(const entry *list, size_t count,
			 const char *container, const char *member)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(list[i].container, container) == 0 &&
		    strcmp(list[i].member, member) == 0)
			return &list[i];
	return NULL;
}

/* Parses `text`, asserting success. */
static schema *parse_or_fail(const char *text)
{
	schema *s = calloc(1, sizeof(*s));

	cr_assert_not_null(s);
	cr_assert(parse_schema(text, s), "%s", s->error);
	return s;
}

static char *read_text(const char *path)
{
	FILE *file = fopen(path, "rb");
	char *text;
	long size;

	cr_assert_not_null(file, "cannot open %s", path);
	cr_assert_eq(fseek(file, 0, SEEK_END), 0);
	size = ftell(file);
	cr_assert_geq(size, 0);
	rewind(file);
	text = malloc((size_t)size + 1);
	cr_assert_not_null(text);
	cr_assert_eq(fread(text, 1, (size_t)size, file), (size_t)size,
		     "cannot read %s", path);
	text[size] = '\0';
	fclose(file);
	return text;
}

/* ---------------------------------------------------------------- parser */

Test(schema_parser, counts_a_union_field_as_type_then_value)
{
	schema *s = parse_or_fail(
		"namespace x;\n"
		"enum E : byte { A = 0, B }\n"
		"struct S { x:int; y:int; }\n"
		"table T {\n"
		"  a:int = 1;            // one id\n"
		"  u:U;                  /* two ids */\n"
		"  v:[U];                // a vector of unions: one\n"
		"  b:[ubyte] (force_align: 16);\n"
		"  c:string (deprecated);\n"
		"  d:E = B;\n"
		"}\n"
		"union U { P, Q = 5, R, Alias: P }\n"
		"table P {} table Q {} table R {}\n"
		"root_type T;\n");
	const struct { const char *field; long id; } fields[] = {
		{ "a", 0 }, { "u_type", 1 }, { "u", 2 }, { "v", 3 },
		{ "b", 4 }, { "c", 5 }, { "d", 6 },
	};
	const struct { const char *member; long code; } members[] = {
		{ "P", 1 }, { "Q", 5 }, { "R", 6 }, { "Alias", 7 },
	};

	cr_assert_eq(s->num_fields, 7, "struct fields have no ids");
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const entry *e = find(s->fields, s->num_fields, "T",
				      fields[i].field);

		cr_assert_not_null(e, "T.%s not found", fields[i].field);
		cr_expect_eq(e->value, fields[i].id, "T.%s: id %ld, not %ld",
			     fields[i].field, e->value, fields[i].id);
	}
	cr_assert_eq(s->num_members, 4);
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		const entry *e = find(s->members, s->num_members, "U",
				      members[i].member);

		cr_assert_not_null(e, "U.%s not found", members[i].member);
		cr_expect_eq(e->value, members[i].code,
			     "U.%s: code %ld, not %ld", members[i].member,
			     e->value, members[i].code);
	}
	free(s);
}

Test(schema_parser, refuses_explicit_ids_rather_than_misreading_them)
{
	schema *s = calloc(1, sizeof(*s));

	cr_assert_not_null(s);
	cr_assert_not(parse_schema("table T { a:int (id: 1); b:int (id: 0); }",
				   s));
	cr_expect(strstr(s->error, "line 1: explicit field ids") != NULL,
		  "error: %s", s->error);
	free(s);
}

/* ------------------------------------------------------- the real thing */

static schema *opver_fbs;

static void load_schema(void)
{
	char *text = read_text(SCHEMA_FILE);

	opver_fbs = parse_or_fail(text);
	free(text);
}

static void free_schema(void)
{
	free(opver_fbs);
	opver_fbs = NULL;
}

TestSuite(schema_ids, .init = load_schema, .fini = free_schema);

typedef struct row {
	const char *name;       /* the enumerator of opver_ids.h */
	long value;
	const char *container;
	const char *member;
} row;

#define ROW(name, value, container, member) \
	{ #name, name, container, member },

static const row field_rows[] = { OPVER_SCHEMA_FIELDS(ROW) };
static const row member_rows[] = { OPVER_SCHEMA_UNION_MEMBERS(ROW) };

#undef ROW

/* Each row names an entry of `list` and gives its value. */
static void check_rows(const row *rows, size_t num_rows, const entry *list,
		       size_t count, const char *what)
{
	for (size_t i = 0; i < num_rows; i++) {
		const row *r = &rows[i];
		const entry *e = find(list, count, r->container, r->member);

		if (e == NULL) {
			cr_expect_fail("%s: %s has no %s.%s", r->name,
				       SCHEMA_FILE, r->container, r->member);
			continue;
		}
		cr_expect_eq(e->value, r->value,
			     "%s is %ld in schema/opver_ids.h, but %s.%s has %s %ld in %s",
			     r->name, r->value, r->container, r->member, what,
			     e->value, SCHEMA_FILE);
	}
}

Test(schema_ids, every_field_id_is_the_fields_position_in_opver_fbs)
{
	check_rows(field_rows, sizeof(field_rows) / sizeof(field_rows[0]),
		   opver_fbs->fields, opver_fbs->num_fields, "field id");
}

Test(schema_ids, every_union_code_is_the_members_value_in_opver_fbs)
{
	check_rows(member_rows, sizeof(member_rows) / sizeof(member_rows[0]),
		   opver_fbs->members, opver_fbs->num_members,
		   "union type code");
}
