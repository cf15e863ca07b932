/*
 * host.c - the services table every plugin context points to, and the
 * services that need no interpreter: reporting and logging with the call's
 * prefix, aligned allocation, names, and custom options (flexbuffer.c).  The others live with the state
 * they act on: session.c (persistent memory, scratch), thread_pool.c,
 * profiler.c, delegate.c (buffer handles), resize.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "delegate.h"
#include "dynamic.h"
#include "flexbuffer.h"
#include "profiler.h"
#include "session.h"
#include "thread_pool.h"

static void host_report_error(const opver_context *ctx, const char *format,
			      ...) OPVER__PRINTF(2, 3);
static void host_log(const opver_context *ctx, int32_t level,
		     const char *format, ...) OPVER__PRINTF(3, 4);

/* Formats the message and passes it on with the call's prefix. */
static void report_with_prefix(const opver_context *ctx,
			       opver_log_level level, const char *format,
			       va_list args) OPVER__PRINTF(3, 0);

static void report_with_prefix(const opver_context *ctx,
			       opver_log_level level, const char *format,
			       va_list args)
{
	const opver__call *call = opver__call_of(ctx);
	char who[320], message[768];

	vsnprintf(message, sizeof(message), format, args);
	opver__call_describe(call, who, sizeof(who));
	opver__report(call->reporter, level, "%s: %s", who, message);
}

static void host_report_error(const opver_context *ctx, const char *format,
			      ...)
{
	va_list args;

	va_start(args, format);
	report_with_prefix(ctx, OPVER_LOG_ERROR, format, args);
	va_end(args);
}

static void host_log(const opver_context *ctx, int32_t level,
		     const char *format, ...)
{
	va_list args;

	if (level < OPVER_LOG_ERROR || level > OPVER_LOG_DEBUG)
		level = OPVER_LOG_INFO;
	va_start(args, format);
	report_with_prefix(ctx, (opver_log_level)level, format, args);
	va_end(args);
}

static void *host_allocate(const opver_context *ctx, size_t bytes)
{
	(void)ctx;
	return opver__aligned_zalloc(bytes);
}

static void host_free_memory(const opver_context *ctx, void *memory)
{
	(void)ctx;
	free(memory);
}

void *opver__aligned_zalloc(size_t bytes)
{
	size_t rounded;
	void *memory;

	if (bytes > SIZE_MAX - OPVER__HOST_ALIGNMENT)
		return NULL;
	/* aligned_alloc wants a multiple of the alignment. */
	rounded = (bytes + OPVER__HOST_ALIGNMENT - 1) / OPVER__HOST_ALIGNMENT *
		  OPVER__HOST_ALIGNMENT;
	if (rounded == 0)
		rounded = OPVER__HOST_ALIGNMENT;
	memory = aligned_alloc(OPVER__HOST_ALIGNMENT, rounded);
	if (memory != NULL)
		memset(memory, 0, rounded);
	return memory;
}

/* A tensor of 0 bytes points here: aligned, readable for the slack
 * past its 0 bytes, and never written, as there is nothing to write. */
static _Alignas(OPVER__HOST_ALIGNMENT) unsigned char
	empty_data[OPVER_TENSOR_READ_SLACK];

void *opver__empty_data(void)
{
	return empty_data;
}

static opver_status host_flex_map_find(const opver_context *ctx,
				       const uint8_t *options, size_t size,
				       const char *key,
				       opver_flex_value *value)
{
	char why[200];

	if (value == NULL || key == NULL) {
		host_report_error(ctx, "flex_map_find: %s is NULL",
				  value == NULL ? "value" : "key");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	/* No options at all: every key takes its default. */
	if (size == 0) {
		memset(value, 0, sizeof(*value));
		value->kind = OPVER_FLEX_ABSENT;
		return OPVER_OK;
	}
	if (opver__flex_map_find(options, size, key, value, why, sizeof(why)))
		return OPVER_OK;
	host_report_error(ctx, "custom options (%zu bytes), looking up \"%s\": %s",
			  size, key, why);
	return OPVER_ERROR_INVALID_MODEL;
}

const opver_host opver__host_services = {
	.struct_size = sizeof(opver_host),
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = OPVER_ABI_MINOR,
	.report_error = host_report_error,
	.log = host_log,
	.allocate = host_allocate,
	.free_memory = host_free_memory,
	.allocate_persistent = opver__service_allocate_persistent,
	.request_scratch = opver__service_request_scratch,
	.scratch = opver__service_scratch,
	.thread_count = opver__service_thread_count,
	.parallel_for = opver__service_parallel_for,
	.op_name = opver_op_name,
	.type_name = opver_type_name,
	.profile_begin = opver__service_profile_begin,
	.profile_end = opver__service_profile_end,
	.set_buffer_handle = opver__service_set_buffer_handle,
	.buffer_handle = opver__service_buffer_handle,
	.flex_map_find = host_flex_map_find,
	.resize_output = opver__service_resize_output,
	.set_output_dynamic = opver__service_set_output_dynamic,
};
