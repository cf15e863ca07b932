/*
 * messages.h - captures what the core reports, for tests that assert
 * message text.  Install with messages_reporter() or as the log callback of
 * opver_runtime_options.
 */
#ifndef OPVER_TEST_MESSAGES_H
#define OPVER_TEST_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>

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

/* How many messages were captured, at every level together. */
int messages_total(const messages *captured);

/* The text of captured message `index` (0 is the first), without its
 * "LEVEL: " prefix, copied into buf and truncated to size.  Returns buf,
 * which holds "" when there is no such message, so the result can always
 * be printed or compared. */
const char *messages_nth(const messages *captured, int index, char *buf,
			 size_t size);

void messages_clear(messages *captured);

#endif /* OPVER_TEST_MESSAGES_H */
