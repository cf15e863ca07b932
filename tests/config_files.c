/*
 * config_files.c - what the test_config_*.c suites share
 * (config_files.h): the config suite, whose tests each get a temporary
 * directory and a reporter capturing messages, and the helpers that write
 * inis and fragments there and read them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config_files.h"

messages captured;
opver__reporter reporter;
char dir[64];
char ini_path[128];
opver__config config;

static void setup(void)
{
	reporter = messages_reporter(&captured);
	strcpy(dir, "/tmp/opver-config-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(ini_path, sizeof(ini_path), "%s/opver.ini", dir);
}

static void teardown(void)
{
	char command[128];

	opver__config_free(&config);
	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	cr_expect_eq(system(command), 0);
}

TestSuite(config, .init = setup, .fini = teardown);

/* DIR/RELATIVE in a static buffer, one of 8 in rotation. */
char *at(const char *relative)
{
	static char paths[8][256];
	static int next;
	char *path = paths[next++ % 8];

	snprintf(path, 256, "%s/%s", dir, relative);
	return path;
}

/* Writes `text` to `path` with `mode` (set explicitly: the umask may be
 * 0002, and fragments others can write are refused). */
void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *file = fopen(path, "w");

	cr_assert_not_null(file, "create %s", path);
	cr_assert_eq(fputs(text, file) >= 0, true);
	cr_assert_eq(fclose(file), 0);
	cr_assert_eq(chmod(path, mode), 0, "chmod %s", path);
}

void write_ini(const char *text)
{
	write_file(ini_path, text, 0644);
}

/* Creates DIR/RELATIVE as a directory with `mode`. */
void make_dir(const char *relative, mode_t mode)
{
	cr_assert_eq(mkdir(at(relative), mode), 0, "mkdir %s", at(relative));
	cr_assert_eq(chmod(at(relative), mode), 0);
}

/* Writes fragment DIR/d/NAME, mode 0644. */
void write_fragment(const char *name, const char *text)
{
	char relative[128];

	snprintf(relative, sizeof(relative), "d/%s", name);
	write_file(at(relative), text, 0644);
}

opver_status read_ini(const char *text)
{
	write_ini(text);
	return opver__config_read(ini_path, &reporter, &config);
}

/* Asserts that message `index` is "ini_path:LINE: ..." containing `what`. */
void assert_bad_line(int index, int line, const char *what)
{
	char prefix[160];
	char message[1024];

	cr_assert_lt(index, messages_total(&captured), "no message %d", index);
	messages_nth(&captured, index, message, sizeof(message));
	snprintf(prefix, sizeof(prefix), "%s:%d: ", ini_path, line);
	cr_assert_eq(strncmp(message, prefix, strlen(prefix)), 0,
		     "'%s' does not start with '%s'", message, prefix);
	cr_assert_not_null(strstr(message, what),
			   "'%s' does not say '%s'", message, what);
}

/* One bad line: CONFIG, one message, at `line`, saying `what`. */
void assert_one_bad_line(const char *text, int line, const char *what)
{
	cr_assert_eq(read_ini(text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%d messages:\n%s",
		     messages_total(&captured), captured.text);
	assert_bad_line(0, line, what);
	cr_assert_eq(config.num_plugins, 0, "a failed read leaves nothing");
}

/* Writes `size` bytes of `text` (which may hold NUL bytes) as the ini. */
opver_status read_bytes(const char *text, size_t size)
{
	FILE *file = fopen(ini_path, "wb");

	cr_assert_not_null(file);
	cr_assert_eq(fwrite(text, 1, size, file), size);
	cr_assert_eq(fclose(file), 0);
	return opver__config_read(ini_path, &reporter, &config);
}
