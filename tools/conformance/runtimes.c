/* runtimes.c - runtimes started from temporary configs. */
#include <errno.h>
#include <inttypes.h>
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

bool cf_start_runtime(cf_side *s, const cf_section *sections, size_t count)
{
	const char *dir = getenv("TMPDIR");
	opver_runtime_options options;
	char path[4096];
	opver_status status;
	FILE *file;
	int fd;

	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/opver-conformance-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || (file = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "opver-conformance: cannot create a config file in %s: %s\n",
			dir, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return false;
	}
	fprintf(file, "[opver]\nlog_level = warning\n");
	for (size_t i = 0; i < count; i++) {
		fprintf(file, "\n[plugin.%s]\nlibrary = %s\n", sections[i].name,
			sections[i].library);
		if (sections[i].has_priority)
			fprintf(file, "priority = %" PRId32 "\n",
				sections[i].priority);
	}
	if (fclose(file) != 0) {
		fprintf(stderr, "opver-conformance: cannot write %s: %s\n", path,
			strerror(errno));
		unlink(path);
		return false;
	}
	opver_runtime_options_init(&options);
	options.config_path = path;
	options.log = collect_log;
	options.log_user_data = &s->log;
	options.log_level = OPVER_LOG_WARNING;
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
