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
} cf_side;

/* One [plugin.NAME] section of the config.  Strings borrowed. */
typedef struct cf_section {
	const char *name;
	const char *library;            /* an absolute path */
	bool has_priority;
	int32_t priority;
} cf_section;

/*
 * Starts s->runtime (s zero-initialized) on a temporary config in $TMPDIR
 * (default /tmp) holding the given sections and no plugin_path, so that
 * only these plugins load; the file is removed once read.  False after
 * printing why on stderr when the config cannot be written or the runtime
 * not started.  A plugin that does not load is no failure here: look for
 * it with cf_find_plugin().
 */
bool cf_start_runtime(cf_side *s, const cf_section *sections, size_t count);

/* The index of the plugin loaded under config name `name`, or -1. */
long cf_find_plugin(const opver_runtime *runtime, const char *name);

/* Destroys the runtime and frees the log.  Safe on a zeroed side. */
void cf_side_free(cf_side *s);

#endif /* OPVER_CONFORMANCE_RUNTIMES_H */
