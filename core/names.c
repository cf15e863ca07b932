/* names.c - names of statuses, ops, types and log levels, mostly from the
 * X-macro tables of the public headers. */
#include <strings.h>

#include "opver/opver.h"

static const char *const log_level_names[] = {
	[OPVER_LOG_ERROR] = "error",
	[OPVER_LOG_WARNING] = "warning",
	[OPVER_LOG_INFO] = "info",
	[OPVER_LOG_DEBUG] = "debug",
};

OPVER_API const char *opver_status_name(opver_status status)
{
	switch (status) {
#define STATUS_NAME(name, value, text) \
	case OPVER_##name:             \
		return #name;
		OPVER_STATUS_MAP(STATUS_NAME)
#undef STATUS_NAME
	}
	return "UNKNOWN";
}

OPVER_API const char *opver_status_message(opver_status status)
{
	switch (status) {
#define STATUS_TEXT(name, value, text) \
	case OPVER_##name:             \
		return text;
		OPVER_STATUS_MAP(STATUS_TEXT)
#undef STATUS_TEXT
	}
	return "unknown status";
}

OPVER_API const char *opver_op_name(int32_t op)
{
	switch (op) {
#define OP_NAME(name, code) \
	case code:          \
		return #name;
		OPVER_OP_MAP(OP_NAME)
#undef OP_NAME
	}
	return "UNKNOWN";
}

OPVER_API const char *opver_type_name(int32_t type)
{
	switch (type) {
#define TYPE_NAME(name, value, size) \
	case value:                  \
		return #name;
		OPVER_TYPE_MAP(TYPE_NAME)
#undef TYPE_NAME
	}
	return "UNKNOWN";
}

OPVER_API size_t opver_type_size(int32_t type)
{
	switch (type) {
#define TYPE_SIZE(name, value, size) \
	case value:                  \
		return size;
		OPVER_TYPE_MAP(TYPE_SIZE)
#undef TYPE_SIZE
	}
	return 0;
}

OPVER_API const char *opver_log_level_name(int level)
{
	if (level < OPVER_LOG_ERROR || level > OPVER_LOG_DEBUG)
		return "unknown";
	return log_level_names[level];
}

OPVER_API int opver_log_level_parse(const char *name)
{
	for (int level = OPVER_LOG_ERROR; level <= OPVER_LOG_DEBUG; level++)
		if (strcasecmp(name, log_level_names[level]) == 0)
			return level;
	return -1;
}
