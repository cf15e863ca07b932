/*
 * config_keys.h - what the lines of a config file mean, once inih has
 * parsed them (config_lines.h feeds them): sections, duplicate keys, every
 * key of [opver] and [plugin.NAME] and the parsing of its value, into an
 * opver__config.  Bad lines are reported as "FILE:LINE: what is wrong" and
 * counted, never fatal; running out of memory is.
 */
#ifndef OPVER_CORE_CONFIG_KEYS_H
#define OPVER_CORE_CONFIG_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

typedef enum opver__config_section {
	OPVER__SECTION_NONE,    /* before the first header */
	OPVER__SECTION_OPVER,
	OPVER__SECTION_PLUGIN,  /* the last of config->plugins */
	OPVER__SECTION_INVALID  /* already reported; its keys are skipped */
} opver__config_section;

/* A key of the current section, to report a duplicate. */
typedef struct opver__config_seen_key {
	char *key;              /* owned */
	int line;
} opver__config_seen_key;

/* The meaning of one file's or text's lines, as they are read. */
typedef struct opver__config_parser {
	const char *path;       /* borrowed; the file, for messages */
	bool fragment;          /* [plugin.NAME] sections only */
	size_t dir_length;      /* of path, through its last '/'; 0 if none */
	const opver__reporter *reporter;        /* borrowed */
	opver__config *config;  /* borrowed; what the lines fill */
	int lineno;             /* of the physical line; the reader sets it */
	opver__config_section section;
	int opver_line;         /* line of [opver]; 0 before it */
	opver__config_seen_key *seen;   /* owned; num_seen of this section */
	size_t num_seen;
	size_t errors;
	/* OPVER_ERROR_NOMEM or _IO stop the parse; bad lines do not. */
	opver_status status;
} opver__config_parser;

/* Sets up *p, zeroed, to parse `path` (borrowed, as are reporter and
 * config, for the parser's life) into *config.  Release with
 * opver__config_parser_free(). */
void opver__config_parser_init(opver__config_parser *p, const char *path,
			       bool fragment, const opver__reporter *reporter,
			       opver__config *config);

/* Frees what *p owns. */
void opver__config_parser_free(opver__config_parser *p);

/* Reports "PATH:LINE: what" and counts it as a bad line. */
void opver__config_bad_line(opver__config_parser *p, const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Starts section `name`, a header's as inih parsed it (borrowed). */
void opver__config_section_begin(opver__config_parser *p, const char *name);

/* Ends the current section as one that cannot be used: its keys are
 * skipped. */
void opver__config_section_drop(opver__config_parser *p);

/* One `key = value` pair of the current section (both borrowed). */
void opver__config_pair(opver__config_parser *p, const char *key,
			const char *value);

/* Appends `length` bytes of `dir` to config->plugin_path, after
 * `prefix_length` bytes of `prefix` when the directory is relative.  An
 * empty directory is skipped.  Strings borrowed; OPVER_ERROR_NOMEM when
 * memory runs out. */
opver_status opver__config_add_directory(opver__config *config,
					 const char *prefix,
					 size_t prefix_length,
					 const char *dir, size_t length);

/* The same for each directory of a ':'-separated list. */
opver_status opver__config_add_directories(opver__config *config,
					   const char *prefix,
					   size_t prefix_length,
					   const char *list);

#endif /* OPVER_CORE_CONFIG_KEYS_H */
