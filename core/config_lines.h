/*
 * config_lines.h - one config file or text read line by line through
 * inih, every line reported by number; what the lines mean is
 * config_keys.h's.
 */
#ifndef OPVER_CORE_CONFIG_LINES_H
#define OPVER_CORE_CONFIG_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* One reading of a config file and its fragments. */
typedef struct opver__config_reading {
	const opver__reporter *reporter;        /* borrowed */
	opver__config *config;  /* borrowed; what the files fill */
	size_t errors;          /* bad lines, refused fragments */
	bool io_failed;         /* a fragment could not be read */
} opver__config_reading;

/*
 * Parses the regular file open as `fd`, which it closes, into r->config:
 * bad lines are reported and counted in r->errors.  `path` (borrowed)
 * names it in messages; a fragment holds [plugin.NAME] sections only.
 * Returns OPVER_ERROR_NOMEM or _IO, after a message, when the parse had
 * to stop.
 */
opver_status opver__config_parse_file(opver__config_reading *r,
				      const char *path, int fd,
				      bool fragment);

/* The same for the `size` bytes at `text` (borrowed for the call), named
 * OPVER__CONFIG_TEXT_NAME; only OPVER_ERROR_NOMEM stops it. */
opver_status opver__config_parse_text(opver__config_reading *r,
				      const char *text, size_t size);

#endif /* OPVER_CORE_CONFIG_LINES_H */
