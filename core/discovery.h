/*
 * discovery.h - decides which plugin files to load from a config: first
 * each enabled [plugin.NAME] section in file order (library: an absolute
 * path, a path relative to the config file, or a file name looked up in
 * plugin_path; NAME.so when not given), then every *.so of each plugin_path
 * directory in sorted order that no section already names.  A disabled
 * section keeps its file from being loaded by the directory scan.  No file
 * loads twice, and a directory file whose name (minus .so) is a section's
 * or an earlier plugin's is shadowed and not loaded.
 */
#ifndef OPVER_CORE_DISCOVERY_H
#define OPVER_CORE_DISCOVERY_H

#include <stddef.h>

#include "config.h"
#include "report.h"

typedef struct opver__plugin_source {
	char *path;                          /* owned */
	char *config_name;                   /* owned */
	/* The plugin's section; NULL for a file found in a directory.
	 * Borrowed from the config. */
	const opver__plugin_config *config;
} opver__plugin_source;

/*
 * Lists the plugins to load, in load order.  A section whose library is
 * not found is reported and left out; an unreadable directory is reported
 * as a warning.  Caller owns *sources; release with
 * opver__plugin_sources_free().  Fails only with OPVER_ERROR_NOMEM.
 */
opver_status opver__discover_plugins(const opver__config *config,
				     const opver__reporter *reporter,
				     opver__plugin_source **sources,
				     size_t *count);

void opver__plugin_sources_free(opver__plugin_source *sources, size_t count);

#endif /* OPVER_CORE_DISCOVERY_H */
