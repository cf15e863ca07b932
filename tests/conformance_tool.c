/*
 * conformance_tool.c - what the test_conformance_*.c suites share
 * (conformance_tool.h): the conformance suite, running the built
 * opver-conformance and reading its output.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

#include "conformance_tool.h"

/* The most arguments a test passes. */
#define MAX_ARGS 16

/* Runs opver-conformance --reference REFERENCE_PLUGIN with the further
 * NULL-terminated arguments. */
void conformance(spawn_result *r, ...)
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

void assert_status(const spawn_result *r, int status)
{
	cr_assert_eq(r->status, status,
		     "exit status %d, expected %d\nstdout:\n%.4000s\nstderr:\n%.4000s",
		     r->status, status, r->out, r->err);
}

/* How many lines of `text` start with `prefix`. */
int lines_starting(const char *text, const char *prefix)
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

int occurrences(const char *text, const char *needle)
{
	int count = 0;

	for (const char *p = strstr(text, needle); p != NULL;
	     p = strstr(p + 1, needle))
		count++;
	return count;
}

/* The line of `text` starting with `prefix`, copied into line[size]. */
bool find_line(const char *text, const char *prefix, char *line,
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
