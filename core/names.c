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

/* Tables indexed by value: a switch over two hundred ops compiles to a
 * jump table of code, where an array is only data. */
#define STATUS_ENTRY(name, value, text) [value] = { #name, text },
static const struct status_names {
	const char *name;
	const char *message;
} status_names[] = { OPVER_STATUS_MAP(STATUS_ENTRY) };
#undef STATUS_ENTRY

#define OP_ENTRY(name, code) [code] = #name,
static const char *const op_names[] = { OPVER_OP_MAP(OP_ENTRY) };
#undef OP_ENTRY

#define TYPE_ENTRY(name, value, size) [value] = { #name, size },
static const struct type_names {
	const char *name;
	size_t size;
} type_names[] = { OPVER_TYPE_MAP(TYPE_ENTRY) };
#undef TYPE_ENTRY

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* A value's entry, or NULL for a value outside its table or a gap in it. */
static const struct status_names *status_entry(opver_status status)
{
	if ((unsigned)status >= COUNT(status_names) ||
	    status_names[status].name == NULL)
		return NULL;
	return &status_names[status];
}

OPVER_API const char *opver_status_name(opver_status status)
{
	const struct status_names *entry = status_entry(status);

	return entry != NULL ? entry->name : "UNKNOWN";
}

OPVER_API const char *opver_status_message(opver_status status)
{
	const struct status_names *entry = status_entry(status);

	return entry != NULL ? entry->message : "unknown status";
}

OPVER_API const char *opver_op_name(int32_t op)
{
	if (op < 0 || (size_t)op >= COUNT(op_names) || op_names[op] == NULL)
		return "UNKNOWN";
	return op_names[op];
}

static const struct type_names *type_entry(int32_t type)
{
	if (type < 0 || (size_t)type >= COUNT(type_names) ||
	    type_names[type].name == NULL)
		return NULL;
	return &type_names[type];
}

OPVER_API const char *opver_type_name(int32_t type)
{
	const struct type_names *entry = type_entry(type);

	return entry != NULL ? entry->name : "UNKNOWN";
}

OPVER_API size_t opver_type_size(int32_t type)
{
	const struct type_names *entry = type_entry(type);

	return entry != NULL ? entry->size : 0;
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
