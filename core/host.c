/* host.c - the services plugins call back into: reporting, logging and
 * aligned allocation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "kernel_match.h"

/* Alignment of host allocations: a cache line, enough for any SIMD load. */
#define HOST_ALIGNMENT 64

static opver__host *host_of(const opver_host *services)
{
	return services->core;
}

static void host_report_error(const opver_host *services, const char *format,
			      ...) OPVER__PRINTF(2, 3);
static void host_log(const opver_host *services, opver_log_level level,
		     const char *format, ...) OPVER__PRINTF(3, 4);

static void host_report_error(const opver_host *services, const char *format,
			      ...)
{
	opver__host *host = host_of(services);
	char message[768];
	va_list args;

	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	if (host->node != NULL)
		opver__error(host->reporter, "node %d (%s v%d, %s): %s",
			     host->node_index,
			     opver__node_label(host->node),
			     host->node->version, host->node_runner, message);
	else
		opver__error(host->reporter, "%s: %s", host->context, message);
}

static void host_log(const opver_host *services, opver_log_level level,
		     const char *format, ...)
{
	opver__host *host = host_of(services);
	va_list args;

	if (level < OPVER_LOG_ERROR || level > OPVER_LOG_DEBUG)
		level = OPVER_LOG_INFO;
	va_start(args, format);
	opver__vreport(host->reporter, level, format, args);
	va_end(args);
}

static void *host_allocate(const opver_host *services, size_t bytes)
{
	size_t rounded;
	void *memory;

	(void)services;
	if (bytes > SIZE_MAX - HOST_ALIGNMENT)
		return NULL;
	/* aligned_alloc wants a multiple of the alignment. */
	rounded = (bytes + HOST_ALIGNMENT - 1) / HOST_ALIGNMENT * HOST_ALIGNMENT;
	memory = aligned_alloc(HOST_ALIGNMENT, rounded ? rounded : HOST_ALIGNMENT);
	if (memory != NULL)
		memset(memory, 0, rounded);
	return memory;
}

static void host_free_memory(const opver_host *services, void *memory)
{
	(void)services;
	free(memory);
}

/* A persistent allocation: the link, padded so the payload keeps the
 * host alignment. */
struct opver__persistent_block {
	struct opver__persistent_block *next;
	unsigned char padding[HOST_ALIGNMENT - sizeof(void *)];
};

static void *host_allocate_persistent(const opver_host *services,
				      size_t bytes)
{
	opver__host *host = host_of(services);
	struct opver__persistent_block *block;

	if (host->persistent == NULL) {
		opver__error(host->reporter,
			     "%s: allocate_persistent called outside prepare",
			     host->context);
		return NULL;
	}
	if (bytes > SIZE_MAX - sizeof(*block))
		return NULL;
	block = host_allocate(services, sizeof(*block) + bytes);
	if (block == NULL)
		return NULL;
	block->next = *host->persistent;
	*host->persistent = block;
	return block + 1;
}

void opver__host_free_persistent(struct opver__persistent_block **blocks)
{
	while (*blocks != NULL) {
		struct opver__persistent_block *next = (*blocks)->next;

		free(*blocks);
		*blocks = next;
	}
}

void opver__host_init(opver__host *host, const opver__reporter *reporter)
{
	memset(host, 0, sizeof(*host));
	host->services.struct_size = sizeof(host->services);
	host->services.abi_major = OPVER_ABI_MAJOR;
	host->services.abi_minor = OPVER_ABI_MINOR;
	host->services.core = host;
	host->services.report_error = host_report_error;
	host->services.log = host_log;
	host->services.allocate = host_allocate;
	host->services.free_memory = host_free_memory;
	host->services.allocate_persistent = host_allocate_persistent;
	host->reporter = reporter;
	snprintf(host->context, sizeof(host->context), "plugin");
}

void opver__host_set_context(opver__host *host, const char *format, ...)
{
	va_list args;

	host->node = NULL;
	va_start(args, format);
	vsnprintf(host->context, sizeof(host->context), format, args);
	va_end(args);
}
