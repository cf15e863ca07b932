/*
 * runtimes.h - the runtimes a conformance run compares: each started from
 * a temporary config naming exactly the plugins it should load, with the
 * core's messages collected for failure details.
 */
#ifndef OPVER_CONFORMANCE_RUNTIMES_H
#define OPVER_CONFORMANCE_RUNTIMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

#include "text.h"

/* A runtime and the messages (warnings and errors, "LEVEL: message"
 * lines) it reported since the log was last cleared. */
typedef struct cf_side {
	opver_runtime *runtime;         /* owned; cf_side_free() */
	cf_text log;
	/* Set before cf_start_runtime(): the runtime resolves each node at
	 * the version TFLite's rules require of it when that is above the
	 * stored one (strict_versions). */
	bool strict_versions;
} cf_side;

/* One [plugin.NAME] section of the config.  Strings borrowed. */
typedef struct cf_section {
	const char *name;
	const char *library;            /* an absolute path */
	bool has_priority;
	int32_t priority;
} cf_section;

/*
 * Writes a config of an [opver] section and the given sections into a new
 * file in $TMPDIR (default /tmp), its name into path (size bytes, PATH_MAX
 * is enough); the caller removes the file.  The config sets no
 * plugin_path, so that only these plugins load, and allows writable plugin
 * directories: the user named these plugins.  False with the reason added
 * to why when a library path cannot be written so that inih reads it back
 * unchanged, or the file cannot be written.
 */
bool cf_write_config(const cf_section *sections, size_t count, char *path,
		     size_t size, cf_text *why);

/*
 * Starts s->runtime (s zero-initialized) on a temporary config from
 * cf_write_config(), removed once read.  False after printing why on
 * stderr when the config cannot be written or the runtime not started.  A plugin that does not load is no failure here: look for
 * it with cf_find_plugin().
 */
bool cf_start_runtime(cf_side *s, const cf_section *sections, size_t count);

/* The index of the plugin loaded under config name `name`, or -1. */
long cf_find_plugin(const opver_runtime *runtime, const char *name);

/* Destroys the runtime and frees the log.  Safe on a zeroed side. */
void cf_side_free(cf_side *s);

#endif /* OPVER_CONFORMANCE_RUNTIMES_H */
