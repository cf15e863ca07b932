/* messages.c - capturing reported messages in tests. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "messages.h"

void messages_log(void *user_data, opver_log_level level, const char *message)
{
	messages *captured = user_data;
	size_t used = strlen(captured->text);

	snprintf(captured->text + used, sizeof(captured->text) - used,
		 "%s: %s\n", opver_log_level_name(level), message);
	captured->count[level]++;
}

opver__reporter messages_reporter(messages *captured)
{
	opver__reporter reporter = {
		.log = messages_log,
		.log_user_data = captured,
		.level = OPVER_LOG_DEBUG,
	};

	return reporter;
}

bool messages_line_has(const messages *captured, ...)
{
	const char *line = captured->text;

	while (*line != '\0') {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) : strlen(line);
		char copy[2048];
		bool all = true;
		const char *fragment;
		va_list args;

		snprintf(copy, sizeof(copy), "%.*s", (int)length, line);
		va_start(args, captured);
		while ((fragment = va_arg(args, const char *)) != NULL)
			if (strstr(copy, fragment) == NULL)
				all = false;
		va_end(args);
		if (all)
			return true;
		line += length + (end != NULL);
	}
	return false;
}

int messages_total(const messages *captured)
{
	size_t levels = sizeof(captured->count) / sizeof(captured->count[0]);
	int total = 0;

	for (size_t i = 0; i < levels; i++)
		total += captured->count[i];
	return total;
}

const char *messages_nth(const messages *captured, int index, char *buf,
			 size_t size)
{
	const char *line = captured->text;

	if (size > 0)
		buf[0] = '\0';
	if (index < 0)
		return buf;
	while (*line != '\0') {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) : strlen(line);

		if (index-- == 0) {
			const char *text = strstr(line, ": ");

			if (text != NULL && text < line + length) {
				length -= (size_t)(text + 2 - line);
				line = text + 2;
			}
			if (size > 0)
				snprintf(buf, size, "%.*s", (int)length, line);
			return buf;
		}
		line += length + (end != NULL);
	}
	return buf;
}

void messages_clear(messages *captured)
{
	memset(captured, 0, sizeof(*captured));
}
