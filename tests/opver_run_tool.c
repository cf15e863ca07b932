/*
 * opver_run_tool.c - what the test_opver_run_*.c suites share
 * (opver_run_tool.h): the opver_run suite's temporary directory and config,
 * file helpers, running the built opver-run and checking how it exits.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opver_run_tool.h"

#define MAX_ARGS 32

char workdir[sizeof(WORKDIR_TEMPLATE)] = WORKDIR_TEMPLATE;
char config[sizeof(WORKDIR_TEMPLATE) + 16];

void write_file(const char *path, const void *data, size_t size)
{
	FILE *file = fopen(path, "wb");

	cr_assert(file != NULL, "cannot create %s: %s", path, strerror(errno));
	cr_assert(fwrite(data, 1, size, file) == size, "cannot write %s", path);
	cr_assert(fclose(file) == 0, "cannot write %s", path);
}

/* Reads a whole file; the caller frees the result. */
unsigned char *read_file(const char *path, size_t *size)
{
	unsigned char *data = NULL;
	FILE *file = fopen(path, "rb");
	long length;

	cr_assert(file != NULL, "cannot open %s: %s", path, strerror(errno));
	cr_assert(fseek(file, 0, SEEK_END) == 0);
	length = ftell(file);
	cr_assert(length >= 0);
	rewind(file);
	data = malloc((size_t)length + 1);
	cr_assert(data != NULL);
	cr_assert(fread(data, 1, (size_t)length, file) == (size_t)length,
		  "cannot read %s", path);
	fclose(file);
	*size = (size_t)length;
	return data;
}

void in_workdir(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", workdir, name);
}

static void make_workdir(void)
{
	static const char text[] = "[plugin.reference]\nlibrary = %s\n";
	char content[1024];

	cr_assert(mkdtemp(workdir) != NULL, "mkdtemp: %s", strerror(errno));
	in_workdir(config, sizeof(config), "opver.ini");
	snprintf(content, sizeof(content), text, REFERENCE_PLUGIN);
	write_file(config, content, strlen(content));
}

static void remove_workdir(void)
{
	DIR *dir = opendir(workdir);
	struct dirent *entry;
	char path[4096];

	if (dir == NULL)
		return;
	while ((entry = readdir(dir)) != NULL) {
		if (strcmp(entry->d_name, ".") == 0 ||
		    strcmp(entry->d_name, "..") == 0)
			continue;
		in_workdir(path, sizeof(path), entry->d_name);
		unlink(path);
	}
	closedir(dir);
	rmdir(workdir);
}

TestSuite(opver_run, .init = make_workdir, .fini = remove_workdir);

/* Runs opver-run with the NULL-terminated arguments after `r`. */
void run_tool(spawn_result *r, ...)
{
	const char *args[MAX_ARGS] = { OPVER_RUN };
	const char *arg;
	va_list list;
	int argc = 1;

	va_start(list, r);
	while ((arg = va_arg(list, const char *)) != NULL) {
		cr_assert(argc < MAX_ARGS - 1);
		args[argc++] = arg;
	}
	va_end(list);
	spawn_run(r, args);
}

void assert_status(const spawn_result *r, int status)
{
	cr_assert(r->status == status,
		  "exit status %d, expected %d\nstdout:\n%s\nstderr:\n%s",
		  r->status, status, r->out, r->err);
}

/* Errors are exactly one line on stderr. */
void assert_one_error_line(const spawn_result *r)
{
	size_t length = strlen(r->err);

	cr_assert(length > 0 && r->err[length - 1] == '\n' &&
			  strchr(r->err, '\n') == r->err + length - 1,
		  "expected one line on stderr, got:\n%s", r->err);
}

/* Fills `path` with a file of the corpus, or skips the test without it. */
void corpus_file(char *path, size_t size, const char *name)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");

	if (corpus == NULL || *corpus == '\0') {
		/* Criterion runs .fini after a pass or a failure, not after
		 * a skip. */
		remove_workdir();
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	}
	snprintf(path, size, "%s/%s", corpus, name);
}
