/*
 * opver_run_tool.h - what the test_opver_run_*.c suites share: the
 * opver_run suite (its .init makes a temporary directory holding a config
 * that names the reference plugin, its .fini removes it), file helpers, and
 * running the built opver-run as a user would (posix_spawn, stdout and
 * stderr captured). Defined in opver_run_tool.c.
 */
#ifndef OPVER_TESTS_OPVER_RUN_TOOL_H
#define OPVER_TESTS_OPVER_RUN_TOOL_H

#include <stddef.h>

#include "spawn.h"

#define WORKDIR_TEMPLATE "/tmp/opver-run-test-XXXXXX"

/* The temporary directory of the running test and its config file. */
extern char workdir[sizeof(WORKDIR_TEMPLATE)];
extern char config[sizeof(WORKDIR_TEMPLATE) + 16];

void write_file(const char *path, const void *data, size_t size);

/* Reads a whole file; the caller frees the result. */
unsigned char *read_file(const char *path, size_t *size);

/* Fills `path` with `name` in the test's directory. */
void in_workdir(char *path, size_t size, const char *name);

/* Runs opver-run with the NULL-terminated arguments after `r`. */
void run_tool(spawn_result *r, ...);

void assert_status(const spawn_result *r, int status);

/* Errors are exactly one line on stderr. */
void assert_one_error_line(const spawn_result *r);

/* Fills `path` with a file of the corpus, or skips the test without it. */
void corpus_file(char *path, size_t size, const char *name);

#endif
