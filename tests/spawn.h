/*
 * spawn.h - runs a built program as a user would, for the tests of the
 * command-line tools: arguments given, stdout and stderr captured, exit
 * status returned.
 */
#ifndef OPVER_TEST_SPAWN_H
#define OPVER_TEST_SPAWN_H

/* What one run did. */
typedef struct spawn_result {
	/* Exit status, or -1 when killed by a signal. */
	int status;
	/* NUL-terminated; freed by spawn_free(). */
	char *out;
	char *err;
} spawn_result;

/* Runs `argv[0]` with argv (NULL-terminated) and waits for it; asserts
 * that it could be started. */
void spawn_run(spawn_result *r, const char *const *argv);

void spawn_free(spawn_result *r);

#endif /* OPVER_TEST_SPAWN_H */
