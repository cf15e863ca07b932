/*
 * messages.h - captures what the core reports, for tests that assert
 * message text.  Install with messages_reporter() or as the log callback of
 * opver_runtime_options.
 */
#ifndef OPVER_TEST_MESSAGES_H
#define OPVER_TEST_MESSAGES_H

#include <stdbool.h>

#include "report.h"

typedef struct messages {
	char text[16384];     /* every message, one per line, "LEVEL: text" */
	int count[4];         /* per opver_log_level */
} messages;

/* A reporter at debug level delivering into `captured`. */
opver__reporter messages_reporter(messages *captured);

/* An opver_log_fn; user_data is a messages *. */
void messages_log(void *user_data, opver_log_level level, const char *message);

/* Whether some captured line contains every one of the NULL-terminated
 * fragments. */
bool messages_line_has(const messages *captured, ...);

void messages_clear(messages *captured);

#endif /* OPVER_TEST_MESSAGES_H */
