/*
 * delegate_claims.c - the claim loop, reason formatting and thread-count
 * option the delegate plugins share (delegate_claims.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "delegate_claims.h"

opver_status dc_claim(const opver_context *ctx,
		      const opver_graph_view *graph, uint8_t *claimed,
		      dc_refusal_fn refusal, const char *left)
{
	char reason[160];

	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver_node *node = graph->nodes[n];
		const char *why = refusal(node, reason, sizeof(reason));

		claimed[n] = why == NULL;
		if (why != NULL)
			OPVER_LOG(ctx, OPVER_LOG_INFO, "node %d (%s v%d) %s: %s",
				  (int)n, ctx->host->op_name(node->op),
				  (int)node->resolved_version, left, why);
	}
	return OPVER_OK;
}

const char *dc_say(char *buf, size_t size, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(buf, size, format, args);
	va_end(args);
	return buf;
}

opver_status dc_parse_threads(const opver_context *ctx, const char *text,
			      uint32_t most, uint32_t *threads)
{
	char *end;
	long n = strtol(text, &end, 10);

	if (end == text || *end != '\0' || n < 1 || n > (long)most) {
		OPVER_REPORT(ctx, "threads = '%s': expected 1 to %u", text,
			     (unsigned)most);
		return OPVER_ERROR_CONFIG;
	}
	*threads = (uint32_t)n;
	return OPVER_OK;
}
