/*
 * json_check.h - a strict recursive-descent JSON syntax check (RFC 8259),
 * enough to know a tool's output parses; tests check keys separately by
 * search. Defined in json_check.c.
 */
#ifndef OPVER_TESTS_JSON_CHECK_H
#define OPVER_TESTS_JSON_CHECK_H

#include <stdbool.h>

/* True when `text` is exactly one JSON object. */
bool json_is_object(const char *text);

#endif
