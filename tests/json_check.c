/*
 * json_check.c - a JSON syntax check for the tools' output (json_check.h).
 */
#include <stdbool.h>
#include <string.h>

#include "json_check.h"

/* The text still to read and how deep the check is in containers. */
struct json_text {
	const char *p;
	int depth;
};

static bool json_value(struct json_text *j);

static void json_space(struct json_text *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool json_literal(struct json_text *j, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(j->p, word, n) != 0)
		return false;
	j->p += n;
	return true;
}

static bool json_string_token(struct json_text *j)
{
	if (*j->p++ != '"')
		return false;
	while (*j->p != '"') {
		if ((unsigned char)*j->p < 0x20)
			return false;
		if (*j->p == '\\') {
			j->p++;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!j->p[i] ||
					    !strchr("0123456789abcdefABCDEF",
						    j->p[i]))
						return false;
				j->p += 4;
			} else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
				return false;
			}
		}
		j->p++;
	}
	j->p++;
	return true;
}

static bool json_digits(struct json_text *j)
{
	const char *start = j->p;

	while (*j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static bool json_number(struct json_text *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (*j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

/* An object (close '}') or an array (close ']'), opening already read. */
static bool json_container(struct json_text *j, char close)
{
	if (++j->depth > 64)
		return false;
	json_space(j);
	if (*j->p == close) {
		j->p++;
		j->depth--;
		return true;
	}
	for (;;) {
		if (close == '}') {
			if (!json_string_token(j))
				return false;
			json_space(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_space(j);
		if (*j->p == close)
			break;
		if (*j->p++ != ',')
			return false;
		json_space(j);
	}
	j->p++;
	j->depth--;
	return true;
}

static bool json_value(struct json_text *j)
{
	json_space(j);
	switch (*j->p) {
	case '{':
		j->p++;
		return json_container(j, '}');
	case '[':
		j->p++;
		return json_container(j, ']');
	case '"':
		return json_string_token(j);
	case 't':
		return json_literal(j, "true");
	case 'f':
		return json_literal(j, "false");
	case 'n':
		return json_literal(j, "null");
	}
	return json_number(j);
}

/* True when `text` is exactly one JSON object. */
bool json_is_object(const char *text)
{
	struct json_text j = { .p = text };

	json_space(&j);
	if (*j.p != '{' || !json_value(&j))
		return false;
	json_space(&j);
	return *j.p == '\0';
}
