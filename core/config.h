/*
 * config.h - the ini configuration (inih), and the built-in default.
 *
 *   [opver]         plugin_path = DIR[:DIR...]   every *.so in them loads
 *                   strict = true|false          refuse version fallback
 *                   strict_versions = true|false resolve each node at the
 *                                                larger of its stored and
 *                                                required version
 *                   log_level = error|warning|info|debug
 *   [plugin.NAME]   library = /abs/path.so | file name in plugin_path
 *                   priority = INTEGER           overrides kernel defaults
 *                   enabled = true|false
 *                   any other key: an option passed to the plugin's init
 *
 * Booleans are true/false, yes/no, on/off or 1/0 (any case).  A relative
 * plugin_path directory is taken relative to the directory of the config
 * file; library is kept as written (discovery.h resolves it).  A file's
 * plugin_path is only what it lists: the installed directory is added by
 * opver__config_default(), not here.  Lines may be indented (there are no
 * multi-line values) and are at most 198 characters, inih's limit.
 *
 * Every error names the file and line.
 */
#ifndef OPVER_CORE_CONFIG_H
#define OPVER_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

typedef struct opver__config_option {
	char *key;                    /* owned */
	char *value;                  /* owned */
} opver__config_option;

typedef struct opver__plugin_config {
	char *name;                   /* owned; NAME of [plugin.NAME] */
	char *library;                /* owned; NULL when not given */
	bool has_priority;
	int32_t priority;
	bool enabled;                 /* default true */
	opver__config_option *options; /* owned; num_options entries */
	size_t num_options;
	char *file;                   /* owned; where the section starts */
	int line;
} opver__plugin_config;

typedef struct opver__config {
	char **plugin_path;           /* owned; num_plugin_path directories */
	size_t num_plugin_path;
	bool strict;
	bool strict_versions;
	opver_log_level log_level;    /* default OPVER_LOG_WARNING */
	opver__plugin_config *plugins; /* owned; in file order */
	size_t num_plugins;
} opver__config;

/*
 * Reads `path` into *config.  Reports every bad line as "FILE:LINE: what is
 * wrong" and then fails with OPVER_ERROR_CONFIG; OPVER_ERROR_IO when the
 * file cannot be opened.  On success the caller owns *config's contents;
 * release with opver__config_free().
 */
opver_status opver__config_read(const char *path,
				const opver__reporter *reporter,
				opver__config *config);

/*
 * The built-in default: the installed plugin directory, then each
 * directory of OPVER_PLUGIN_PATH (ignored in setuid and setgid programs;
 * empty entries are skipped).  `installed_dir` is borrowed.  Caller owns
 * *config's contents; fails only with OPVER_ERROR_NOMEM.
 */
opver_status opver__config_default(const char *installed_dir,
				   opver__config *config);

/* Frees what *config owns and zeroes it.  Safe on a zeroed config. */
void opver__config_free(opver__config *config);

#endif /* OPVER_CORE_CONFIG_H */
