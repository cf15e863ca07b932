/*
 * config.h - the ini configuration (inih), and the built-in default.
 *
 *   [opver]         plugin_path = DIR[:DIR...]   every *.so in them loads
 *                   strict = true|false          refuse version fallback
 *                   strict_versions = true|false resolve each node at the
 *                                                larger of its stored and
 *                                                required version
 *                   threads = N                  interpreters' default
 *                                                thread count, 1 to
 *                                                OPVER__MAX_THREADS
 *                   max_arena_bytes = N          interpreters' arena
 *                                                limit in bytes
 *                   max_tensor_bytes = N         the most bytes one
 *                                                tensor may take
 *                   log_level = error|warning|info|debug
 *                   fragment_dir = DIR           then read each *.ini
 *                                                file in DIR
 *                   allow_writable_plugins = true|false
 *                                                accept plugins and
 *                                                fragments that others
 *                                                can change (trust.h)
 *   [plugin.NAME]   library = /abs/path.so | file name in plugin_path
 *                   priority = INTEGER           overrides kernel defaults
 *                   enabled = true|false
 *                   any other key: an option passed to the plugin's init
 *
 * Booleans are true/false, yes/no, on/off or 1/0 (any case).  A relative
 * plugin_path or fragment_dir directory is taken relative to the directory
 * of the config file; library is kept as written (discovery.h resolves it,
 * relative to the file that names it).  A file's plugin_path is only what
 * it lists: the installed directory is added by opver__config_default(),
 * not here.  Lines may be indented (there are no multi-line values) and are
 * at most 198 characters, inih's limit: a longer line is an error, never
 * cut, and so is a control character other than tab and CR.  Section
 * names are at most 48 characters (inih keeps 49 bytes of one).  The file
 * must be a regular file; it is opened without waiting, so a FIFO is
 * refused, not waited on.
 *
 * Fragments (drop-ins): after the main file, every regular *.ini file of
 * fragment_dir is read in strcmp order of its name; dotfiles, other names
 * and other kinds of file are skipped.  A fragment holds [plugin.NAME]
 * sections only, and a plugin has one section in all the files together,
 * so a fragment adds plugins but never changes another file's.  Sections
 * keep the order they are read in, which is the load order.  A missing
 * fragment_dir is no error (an info message); an unreadable one or
 * fragment is, and so is one that others can change (trust.h) unless the
 * main file says allow_writable_plugins = true.
 *
 * Every bad line is reported with its file and line, a fragment that
 * cannot be used with its path.  Messages while reading are
 * filtered at the caller's reporter level: the file's log_level applies
 * only once it has been read.
 */
#ifndef OPVER_CORE_CONFIG_H
#define OPVER_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

/* The most threads an interpreter's pool may have. */
#define OPVER__MAX_THREADS 256

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
	/* The kernels = lines: only these kernels of the plugin are used
	 * (kernel_selection.h).  Owned; num_kernels names. */
	bool has_kernels;
	int kernels_line;             /* of the first kernels = line */
	char **kernels;
	size_t num_kernels;
	char *file;                   /* owned; where the section starts */
	int line;
} opver__plugin_config;

typedef struct opver__config {
	char **plugin_path;           /* owned; num_plugin_path directories */
	size_t num_plugin_path;
	bool strict;
	bool strict_versions;
	uint32_t threads;             /* 0 when not given */
	uint64_t max_arena_bytes;     /* 0 when not given */
	uint64_t max_tensor_bytes;    /* 0 when not given */
	opver_log_level log_level;    /* default OPVER_LOG_WARNING */
	char *fragment_dir;           /* owned; NULL when not given */
	bool allow_writable_plugins;
	opver__plugin_config *plugins; /* owned; in file order */
	size_t num_plugins;
} opver__config;

/*
 * Reads `path` and then its fragments into *config.  Reports every bad line
 * as "FILE:LINE: what is wrong", and every refused fragment, and then fails
 * with OPVER_ERROR_CONFIG; OPVER_ERROR_IO when the file or a fragment
 * cannot be opened or read, or the file is not a regular file.  On
 * success the caller owns *config's contents; release with
 * opver__config_free().
 */
opver_status opver__config_read(const char *path,
				const opver__reporter *reporter,
				opver__config *config);

/* What messages call config text read from memory: "<memory>:LINE: ...". */
#define OPVER__CONFIG_TEXT_NAME "<memory>"

/*
 * opver__config_read() of config text in memory: the `size` bytes at
 * `text` (borrowed for the call; NULL reads as empty) are read exactly as
 * a file's would be, and then its fragments, with the text named
 * OPVER__CONFIG_TEXT_NAME in messages.  It has no directory: a relative
 * plugin_path, fragment_dir or library is relative to the current
 * directory.  A NUL byte is a control character, so an error.  Fails and
 * hands over *config as opver__config_read() does; OPVER_ERROR_IO only for
 * a fragment.
 */
opver_status opver__config_read_text(const char *text, size_t size,
				     const opver__reporter *reporter,
				     opver__config *config);

/*
 * The config used when the application names none: `file` read as by
 * opver__config_read() when it exists, else the built-in default,
 * `plugin_dir` as plugin_path and `fragment_dir` read as its fragment_dir.
 * Then each directory of OPVER_PLUGIN_PATH (ignored in setuid and setgid
 * programs; empty entries are skipped) is added to plugin_path.  The
 * runtime passes the installed paths (OPVER_CONFIG_FILE, OPVER_PLUGIN_DIR,
 * OPVER_FRAGMENT_DIR); tests pass their own.  All paths borrowed.  Caller
 * owns *config's contents; fails as opver__config_read() does.
 */
opver_status opver__config_default(const char *file, const char *plugin_dir,
				   const char *fragment_dir,
				   const opver__reporter *reporter,
				   opver__config *config);

/* Frees what *config owns and zeroes it.  Safe on a zeroed config. */
void opver__config_free(opver__config *config);

#endif /* OPVER_CORE_CONFIG_H */
