/*
 * config_files.h - what the test_config_*.c suites share: the config
 * suite (its .init makes a temporary directory and a reporter capturing
 * messages, its .fini frees the config and removes the directory), and
 * helpers that write inis and fragments there and read them. Defined in
 * config_files.c.
 */
#ifndef OPVER_TESTS_CONFIG_FILES_H
#define OPVER_TESTS_CONFIG_FILES_H

#include <stddef.h>
#include <sys/types.h>

#include "config.h"
#include "messages.h"

/* Criterion runs each test in its own process: this state is per test.
 * The test's directory, its opver.ini and the config read from it. */
extern messages captured;
extern opver__reporter reporter;
extern char dir[64];
extern char ini_path[128];
extern opver__config config;

/* DIR/RELATIVE in a static buffer, one of 8 in rotation. */
char *at(const char *relative);

/* Writes `text` to `path` with `mode` (set explicitly: the umask may be
 * 0002, and fragments others can write are refused). */
void write_file(const char *path, const char *text, mode_t mode);
void write_ini(const char *text);

/* Creates DIR/RELATIVE as a directory with `mode`. */
void make_dir(const char *relative, mode_t mode);

/* Writes fragment DIR/d/NAME, mode 0644. */
void write_fragment(const char *name, const char *text);

/* Writes `text` as the ini and reads it into config. */
opver_status read_ini(const char *text);

/* Writes `size` bytes of `text` (which may hold NUL bytes) as the ini and
 * reads it into config. */
opver_status read_bytes(const char *text, size_t size);

/* Asserts that message `index` is "ini_path:LINE: ..." containing `what`. */
void assert_bad_line(int index, int line, const char *what);

/* One bad line: CONFIG, one message, at `line`, saying `what`. */
void assert_one_bad_line(const char *text, int line, const char *what);

#endif
