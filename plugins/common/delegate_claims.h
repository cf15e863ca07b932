/*
 * delegate_claims.h - what the project's delegate plugins (XNNPACK,
 * oneDNN) share: claiming the nodes a refusal function accepts, with each
 * refusal logged, the reason's formatting, and their thread-count option.
 * Compiled into each plugin; no symbol of it is exported.
 */
#ifndef OPVER_PLUGINS_DELEGATE_CLAIMS_H
#define OPVER_PLUGINS_DELEGATE_CLAIMS_H

#include <stddef.h>

#include <opver/plugin.h>

/* NULL when the delegate runs `node`; otherwise why not, written to `buf`
 * (`size` bytes). */
typedef const char *(*dc_refusal_fn)(const opver_node *node, char *buf,
				     size_t size);

/* Sets claimed[n] for each node `refusal` accepts and logs the others at
 * info level: "node N (OP vV) <left>: <reason>". */
opver_status dc_claim(const opver_context *ctx,
		      const opver_graph_view *graph, uint8_t *claimed,
		      dc_refusal_fn refusal, const char *left);

/* Formats a reason into `buf` (`size` bytes) and returns `buf`. */
const char *dc_say(char *buf, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

/* Reads the `threads` option's `text`: 1 to `most`, else reported. */
opver_status dc_parse_threads(const opver_context *ctx, const char *text,
			      uint32_t most, uint32_t *threads);

#endif /* OPVER_PLUGINS_DELEGATE_CLAIMS_H */
