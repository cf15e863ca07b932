/*
 * host.h - the services table the core lends plugins (opver_host), and the
 * context it prefixes to what a plugin reports.
 */
#ifndef OPVER_CORE_HOST_H
#define OPVER_CORE_HOST_H

#include "opver/plugin.h"
#include "report.h"

typedef struct opver__host {
	opver_host services;            /* what plugins are given */
	const opver__reporter *reporter; /* borrowed */
	/* What the core is calling into: "plugin 'x'" or "node 3
	 * (FULLY_CONNECTED v4, kernel 'fc_int8' of plugin 'reference')". */
	char context[256];
} opver__host;

/* Fills the services table.  `reporter` is borrowed and must outlive it. */
void opver__host_init(opver__host *host, const opver__reporter *reporter);

/* Sets the prefix of messages a plugin reports until the next call. */
void opver__host_set_context(opver__host *host, const char *format, ...)
	OPVER__PRINTF(2, 3);

#endif /* OPVER_CORE_HOST_H */
