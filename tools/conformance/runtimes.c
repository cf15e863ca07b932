/* runtimes.c - runtimes started from temporary configs. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtimes.h"

/* The core's messages, one per line. */
static void collect_log(void *user_data, opver_log_level level,
			const char *message)
{
	cf_text_add(user_data, "%s: %s\n", opver_log_level_name(level),
		    message);
}

/* The longest line opver's config reader takes (inih's line buffer). */
#define INI_LINE_MAX 198

/* Whether inih reads `value` back unchanged: it ends a value at a line
 * break, or at a ';' after a space, and strips trailing blanks. */
static bool ini_safe(const char *value)
{
	size_t length = strlen(value);

	return strpbrk(value, "\n\r;") == NULL &&
	       (length == 0 || (value[length - 1] != ' ' &&
				value[length - 1] != '\t'));
}

bool cf_write_config(const cf_section *sections, size_t count, char *path,
		     size_t size, cf_text *why)
{
	const char *dir = getenv("TMPDIR");
	bool failed;
	FILE *file;
	int fd;

	for (size_t i = 0; i < count; i++) {
		if (!ini_safe(sections[i].library)) {
			cf_text_add(why, "the path '%s' cannot be written into an ini file; copy the plugin to a plainer path",
				    sections[i].library);
			return false;
		}
		if (strlen("library = ") + strlen(sections[i].library) >
		    INI_LINE_MAX) {
			cf_text_add(why, "the path '%s' is %zu characters long; opver's config lines hold %d, so a plugin path may have %zu: copy or link the plugin to a shorter path",
				    sections[i].library,
				    strlen(sections[i].library), INI_LINE_MAX,
				    INI_LINE_MAX - strlen("library = "));
			return false;
		}
	}
	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	if ((size_t)snprintf(path, size, "%s/opver-conformance-XXXXXX", dir) >=
	    size) {
		cf_text_add(why, "TMPDIR '%s' is too long", dir);
		return false;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		cf_text_add(why, "cannot create a config file in '%s': %s", dir,
			    strerror(errno));
		return false;
	}
	file = fdopen(fd, "w");
	if (file == NULL) {
		cf_text_add(why, "cannot write '%s': %s", path,
			    strerror(errno));
		close(fd);
		unlink(path);
		return false;
	}
	/* The user named these plugins: test them wherever they were built,
	 * a group-writable build directory (umask 0002) included. */
	fprintf(file, "[opver]\nallow_writable_plugins = true\n");
	for (size_t i = 0; i < count; i++) {
		fprintf(file, "\n[plugin.%s]\nlibrary = %s\n", sections[i].name,
			sections[i].library);
		if (sections[i].has_priority)
			fprintf(file, "priority = %" PRId32 "\n",
				sections[i].priority);
	}
	failed = ferror(file) != 0;
	if (fclose(file) != 0 || failed) {
		cf_text_add(why, "cannot write '%s'", path);
		unlink(path);
		return false;
	}
	return true;
}

bool cf_start_runtime(cf_side *s, const cf_section *sections, size_t count)
{
	opver_runtime_options options;
	char path[PATH_MAX];
	cf_text why = { 0 };
	opver_status status;

	if (!cf_write_config(sections, count, path, sizeof(path), &why)) {
		fprintf(stderr, "opver-conformance: %s\n", cf_text_get(&why));
		cf_text_free(&why);
		return false;
	}
	opver_runtime_options_init(&options);
	options.config_path = path;
	options.log = collect_log;
	options.log_user_data = &s->log;
	options.log_level = OPVER_LOG_WARNING;
	options.strict_versions = s->strict_versions;
	status = opver_runtime_create(&options, &s->runtime);
	unlink(path);
	if (status != OPVER_OK) {
		fprintf(stderr, "opver-conformance: cannot start a runtime (%s):\n%s",
			opver_status_name(status), cf_text_get(&s->log));
		return false;
	}
	return true;
}

long cf_find_plugin(const opver_runtime *runtime, const char *name)
{
	for (size_t i = 0; i < opver_runtime_plugin_count(runtime); i++) {
		opver_plugin_info info;

		if (opver_runtime_plugin_info(runtime, i, &info) == OPVER_OK &&
		    strcmp(info.config_name, name) == 0)
			return (long)i;
	}
	return -1;
}

void cf_side_free(cf_side *s)
{
	opver_runtime_destroy(s->runtime);
	s->runtime = NULL;
	cf_text_free(&s->log);
}
