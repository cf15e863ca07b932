/*
 * kernel_harness.h - runs one kernel of a built plugin the way the core
 * would, for kernel test suites.
 *
 *   kernel_harness  a plugin dlopen'd and negotiated with through its entry
 *                   point, a fake opver_host with every ABI 2.0 service
 *                   that records what kernels report and checks when they
 *                   call what, and everything the harness allocated for
 *                   tensors, nodes and the kernels' node memory
 *   kh_tensor()     an opver_tensor built from a shape and an array
 *   kh_node()       an opver_node for a kernel, with a copy of exactly
 *                   params_size bytes of parameters and a zeroed op_data of
 *                   exactly the kernel's op_data_size
 *   kh_prepare(), kh_invoke(), kh_run()
 *                   the kernel's callbacks, called as the core calls them,
 *                   each with a context standing for its node
 *
 * The harness holds kernels to the 2.0 contract as the core does, and
 * stricter where that catches bugs: during prepare every non-constant
 * tensor's data is NULL (the core plans its arena after prepare), so a
 * kernel reading activations there crashes its test; allocate_persistent
 * and request_scratch work only in prepare, scratch() and profile events
 * only in invoke, allocate and free_memory never in invoke, and each misuse
 * is reported like a kernel's error.  Scratch is filled with junk before
 * every invoke, as the core keeps nothing in it between invokes.
 *
 * Setup failures (dlopen, entry point, negotiation, ABI, a missing kernel,
 * out of memory) fail the current Criterion test with the reason.  Every
 * buffer is allocated to its exact size, so a kernel reading past a tensor,
 * its parameters, its op_data, its node memory or its scratch shows up
 * under AddressSanitizer and valgrind.
 *
 * Typical use, in a fixture-run test:
 *   kh_open(&h, REFERENCE_PLUGIN);
 *   opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(1, 3), x);
 *   ...
 *   opver_node *n = kh_node(&h, kh_kernel(&h, "fully_connected_float32"), 1,
 *                           &params, sizeof(params),
 *                           KH_TENSORS(in, w, NULL), KH_TENSORS(out));
 *   cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
 *   kh_close(&h);
 */
#ifndef OPVER_TESTS_KERNEL_HARNESS_H
#define OPVER_TESTS_KERNEL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opver/plugin.h"

/* "rank, dims" for a non-empty list of dimensions: KH_DIMS(2, 3). */
#define KH_DIMS(...)                                                   \
	(int32_t)(sizeof((const int32_t[]){ __VA_ARGS__ }) /            \
		  sizeof(int32_t)),                                     \
		(const int32_t[]){ __VA_ARGS__ }
/* "count, tensors" for a node's inputs or outputs; NULL marks an omitted
 * optional input: KH_TENSORS(input, weights, NULL). */
#define KH_TENSORS(...)                                                \
	(int32_t)(sizeof((opver_tensor *[]){ __VA_ARGS__ }) /           \
		  sizeof(opver_tensor *)),                              \
		(opver_tensor *const[]){ __VA_ARGS__ }

struct kh_block;
struct kh_call;
struct kh_node;

typedef struct kernel_harness {
	/* The fake services, one table behind every context the harness
	 * hands out; each context maps back to the harness and the node it
	 * stands for. */
	opver_host host;
	/* dlopen handle and descriptor of the plugin under test. */
	void *handle;
	const opver_plugin *plugin;
	/* What the plugin's init returned. */
	void *plugin_data;
	/* Every report_error message (and the reason of a plugin that
	 * declined to load), one per line, in order (truncated to the
	 * buffer; NUL-terminated). */
	char errors[4096];
	int num_errors;
	/* Every log message, likewise. */
	char log[4096];
	/* Host allocations not yet released with free_memory. */
	long live_allocations;
	/* Owned by the harness: tensors, nodes, their buffers and the
	 * kernels' node memory; and the context of plugin-wide calls. */
	struct kh_block *blocks;
	struct kh_node *nodes;
	int32_t num_nodes;
	struct kh_call *plugin_call;
} kernel_harness;

/* dlopens the plugin at `path`, negotiates with its entry point as the core
 * does (ABI major equal, min_abi_minor no newer than this build) and calls
 * its init (with no options).  Fails the test on any error. */
void kh_open(kernel_harness *h, const char *path);

/*
 * A context standing for the plugin and no node, for calling a plugin's
 * internal helpers from a test: ref_broadcast_plan(kh_context(&h), ...).
 * Its services work as in plugin init (no persistent memory or scratch).
 * Owned by the harness; valid until kh_close().
 */
const opver_context *kh_context(const kernel_harness *h);

/* Frees every node's kernel data (the kernel's free), calls the plugin's
 * fini, dlcloses it, frees everything the harness allocated, and fails the
 * test if host memory the kernels allocated was not released. */
void kh_close(kernel_harness *h);

/* The plugin's kernel called `name`.  Borrowed from the plugin; valid until
 * kh_close().  Fails the test when there is none. */
const opver_kernel *kh_kernel(const kernel_harness *h, const char *name);

/*
 * A tensor of `type` and shape `dims` (rank entries, copied) whose data is
 * a copy of `data` (the tensor's full size in bytes), or zeros when `data`
 * is NULL.  `name` is copied.  Not quantized, not constant: set
 * is_constant for a weight, whose data prepare may read.  Owned by the
 * harness; valid until kh_close().
 */
opver_tensor *kh_tensor(kernel_harness *h, const char *name, opver_type type,
			int32_t rank, const int32_t *dims, const void *data);

/* Quantizes `tensor` per tensor: one scale and zero point. */
void kh_quantize(kernel_harness *h, opver_tensor *tensor, float scale,
		 int64_t zero_point);

/* Quantizes `tensor` per channel along `axis`: `count` scales and zero
 * points (copied). */
void kh_quantize_per_channel(kernel_harness *h, opver_tensor *tensor,
			     int32_t axis, int32_t count, const float *scales,
			     const int64_t *zero_points);

/*
 * A node for `kernel` at op `version`, as the core builds it: the params
 * struct copied into a buffer of exactly params_size bytes (params may be
 * NULL), op_data zeroed and of exactly kernel->op_data_size bytes, the
 * tensor pointer arrays copied.  Owned by the harness; valid until
 * kh_close().
 */
opver_node *kh_node(kernel_harness *h, const opver_kernel *kernel,
		    int32_t version, const void *params, size_t params_size,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    int32_t num_outputs, opver_tensor *const *outputs);

/* The kernel's init (once per node, the first time), then its prepare,
 * with the data of every non-constant tensor of the node NULL. */
opver_status kh_prepare(kernel_harness *h, opver_node *node);

/* The kernel's invoke, with the node's scratch filled with junk. */
opver_status kh_invoke(kernel_harness *h, opver_node *node);

/* kh_prepare() then, if it succeeded, kh_invoke(). */
opver_status kh_run(kernel_harness *h, opver_node *node);

/* True when some reported error contains `text`. */
bool kh_error_contains(const kernel_harness *h, const char *text);

/* kh_tensor() then kh_quantize(): a tensor quantized per tensor. */
opver_tensor *kh_quantized(kernel_harness *h, const char *name,
			   opver_type type, int32_t rank, const int32_t *dims,
			   const void *data, float scale, int64_t zero_point);

/* Expects `tensor` to hold exactly `count` elements, equal to `want` (the
 * floats compared with ==); fails the test on a count that differs. */
void kh_expect_floats(const opver_tensor *tensor, const float *want,
		      size_t count);
void kh_expect_int8s(const opver_tensor *tensor, const int8_t *want,
		     size_t count);
void kh_expect_int16s(const opver_tensor *tensor, const int16_t *want,
		      size_t count);
void kh_expect_int32s(const opver_tensor *tensor, const int32_t *want,
		      size_t count);

/* Expects kh_prepare() of `node` to fail with `status` and exactly one
 * message, containing `text`. */
void kh_expect_rejected(kernel_harness *h, opver_node *node,
			opver_status status, const char *text);

#endif /* OPVER_TESTS_KERNEL_HARNESS_H */
