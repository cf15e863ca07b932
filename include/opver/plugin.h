/*
 * opver/plugin.h - plugin ABI 2.4.  The only header a plugin includes.
 * ABI 2.3 appended to the host API only (opver.h: input resizing, a
 * chosen subgraph, a loop limit) and to ops.h (the parameters of
 * UNIDIRECTIONAL_SEQUENCE_RNN and _LSTM, IF, WHILE, CALL_ONCE); its
 * structs were as in 2.2.  ABI 2.4 appended the operator's intermediate
 * tensors to opver_node (num_intermediates, intermediates), which a kernel
 * reads only when OPVER_NODE_HAS(node, intermediates), and the host
 * service set_output_dynamic, for outputs shaped at invoke.
 *
 * A plugin is a shared object exporting one function,
 * opver_plugin_negotiate(), that is told the host's ABI version and returns
 * the plugin's descriptor or declines with a reason:
 *
 *   opver_negotiation    what the host tells the entry point (frozen)
 *   opver_plugin         descriptor: ABI versions and struct_size first, then
 *                        name, vendor, version, init/fini, the kernel
 *                        manifest and an optional delegate
 *   opver_kernel         one manifest entry: (op or custom name, inclusive
 *                        version range, accepted tensor types, priority,
 *                        flags) and init/free/prepare/invoke
 *   opver_node           what a kernel is given for one model node; its
 *                        intermediate tensors since ABI 2.4
 *   opver_delegate       optional hardware-delegate hooks: typed claims
 *                        (op, version range, type signatures), a claim
 *                        callback, and the callbacks of each partition
 *   opver_context        what every callback is given: the host services
 *                        and the plugin's data; the core knows from it which
 *                        plugin, kernel, node or partition is being called
 *   opver_host           the services: reporting, memory, arena scratch,
 *                        threads, names, profile events, buffer handles,
 *                        custom options and output shapes (ABI 2.2),
 *                        outputs shaped at invoke (ABI 2.4)
 *   opver_flex_value     one value of a custom op's FlexBuffers options
 *
 * Negotiation.  The core calls opver_plugin_negotiate() with its ABI
 * version.  The plugin returns its descriptor, or NULL after
 * negotiation->decline(negotiation, "why") when it cannot run here (no AVX2,
 * no device).  The descriptor names abi_major, the abi_minor of the headers
 * it was built against and min_abi_minor, the oldest core minor it runs on.
 * The core loads it when abi_major equals its own and min_abi_minor is at
 * most its own minor: a plugin built against 2.3 that needs nothing newer
 * than 2.1 starts with OPVER_PLUGIN_HEADER_RUNS_ON(1) and loads into a 2.1
 * core, where it must use only what 2.1 has (ctx->host->abi_minor says
 * which).  A plugin built for ABI 1.x (it exports opver_plugin_entry) is
 * refused with both versions named.
 *
 * The append rule (common.h).  Every struct with a struct_size grows only at
 * its end, with each later field starting at or beyond the previous
 * version's sizeof and commented with the minor that added it.  The core
 * reads a plugin's field only when the plugin's struct_size covers it, and a
 * plugin reads a field of the core's (opver_host, opver_node, opver_tensor,
 * a parameter struct through params_size) only when the core's size covers
 * it.  Structs marked "Frozen" never change.
 *
 * Context.  Every callback gets a `const opver_context *ctx` and passes it
 * to every service it calls; the services act on what the callback acts on
 * (its node, its partition, its plugin).  A context is owned by the core and
 * valid for the duration of the call it was passed to: never keep it.
 *
 * Kernel contract (as TfLiteRegistration):
 *   init     optional; creates the kernel object.  A kernel flagged
 *            OPVER_KERNEL_STATELESS gets one init for all nodes and threads of
 *            an interpreter, otherwise one per node.
 *   prepare  required; once per node before the first invoke: validate types
 *            and shapes, fill op_data with everything that does not depend on
 *            input values (quantized multipliers), request scratch.
 *            Non-constant tensors have no data yet.  After an input resize
 *            with a delegate loaded, every node's kernel (a delegated
 *            node's too) gets init, prepare and free once to give the new
 *            shapes before the delegates claim again, then the nodes left
 *            on kernels init and prepare as usual (delegate hooks,
 *            "Resized inputs").  Since ABI 2.4 (deferred prepare), a node
 *            reading a tensor shaped at invoke (set_output_dynamic) is
 *            prepared at every invoke, just before it runs, with the same
 *            kernel object and op_data zeroed again, and node->op_data and
 *            node->kernel_data the core's; what its prepare gets from
 *            allocate_persistent and request_scratch lives until the next
 *            invoke, not until the interpreter is destroyed.  Kernels of
 *            plugins built against 2.0-2.3 get this too: like TFLite's,
 *            a prepare must cope with running again.
 *   invoke   required; compute the outputs from the inputs.  May not allocate.
 *   free     required when init is given; destroys what init created.
 * Every callback returns OPVER_OK or reports why through report_error and
 * returns an error status.
 */
#ifndef OPVER_PLUGIN_H
#define OPVER_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/common.h>
#include <opver/ops.h>
#include <opver/version.h>

#ifdef __cplusplus
extern "C" {
#endif

struct opver_host;
struct opver_plugin;

/*
 * What every callback is given.  Owned by the core; valid for the duration
 * of the call.
 */
typedef struct opver_context {
	uint32_t struct_size;
	/* The services; one table for every context, valid until after the
	 * plugin's fini. */
	const struct opver_host *host;
	/* What the plugin's init stored in *plugin_data (NULL during init and
	 * without one). */
	void *plugin_data;
} opver_context;
OPVER_ABI_ENDS_AT(opver_context, plugin_data);

/* A task of parallel_for: `task` in [0, count), `thread` in [0,
 * thread_count(ctx)) names the thread running it (for per-thread scratch).
 */
typedef void (*opver_task_fn)(void *arg, uint32_t task, uint32_t thread);

/*
 * Kinds of opver_flex_value (ABI 2.2).  ABSENT: the map has no such key;
 * OTHER: the key holds a kind this reader does not decode (a vector, a
 * nested map, a key).
 */
#define OPVER_FLEX_ABSENT 0
#define OPVER_FLEX_NULL 1
#define OPVER_FLEX_INT 2
#define OPVER_FLEX_UINT 3
#define OPVER_FLEX_FLOAT 4
#define OPVER_FLEX_BOOL 5
#define OPVER_FLEX_STRING 6
#define OPVER_FLEX_BLOB 7
#define OPVER_FLEX_OTHER 8

/*
 * One value of a custom op's FlexBuffers options map, as the host's
 * flex_map_find finds it (ABI 2.2).  Frozen.
 */
typedef struct opver_flex_value {
	/* An OPVER_FLEX_* kind. */
	int32_t kind;
	/* 1 when as_* hold a number: kinds INT, UINT, FLOAT and BOOL. */
	int32_t is_number;
	/*
	 * A number in each form, converted as FlexBuffers' AsInt64, AsUInt64
	 * and AsDouble do, except that conversions saturate instead of
	 * overflowing (a float truncates toward zero; NaN gives 0; a negative
	 * value gives as_uint 0).  A BOOL is 0 or 1.  All 0 for other kinds.
	 */
	int64_t as_int;
	uint64_t as_uint;
	double as_float;
	/*
	 * STRING and BLOB: the bytes, borrowed from the options the caller
	 * passed (valid as long as they are); a STRING's `size` leaves out
	 * its terminating NUL, which is there.  NULL and 0 otherwise.
	 */
	const uint8_t *bytes;
	uint64_t size;
} opver_flex_value;
OPVER_ABI_ENDS_AT(opver_flex_value, size);

/*
 * The services the core lends plugins.  Owned by the core; valid from the
 * plugin's init until after its fini.  Every function is present in the
 * table of the minor that added it.
 */
typedef struct opver_host {
	uint32_t struct_size;
	/* ABI the core implements. */
	uint32_t abi_major;
	uint32_t abi_minor;

	/* Report why a callback fails.  The core prefixes the plugin, kernel,
	 * node or partition the context stands for. */
	void (*report_error)(const opver_context *ctx, const char *format, ...)
		OPVER__PRINTF(2, 3);
	/* Log at an opver_log_level through the core's reporter, with the
	 * same prefix. */
	void (*log)(const opver_context *ctx, int32_t level,
		    const char *format, ...) OPVER__PRINTF(3, 4);

	/* Zeroed memory aligned to 64 bytes, or NULL.  Caller owns it; release
	 * with free_memory.  Any callback except invoke. */
	void *(*allocate)(const opver_context *ctx, size_t bytes);
	/* Releases what allocate returned; NULL is ignored. */
	void (*free_memory)(const opver_context *ctx, void *memory);
	/*
	 * Zeroed memory aligned to 64 bytes for the node or partition being
	 * prepared (per-channel multipliers, lookup tables), or NULL.  Only
	 * during prepare.  Owned by the core: valid until the interpreter is
	 * destroyed or, after opver_interpreter_resize_input(), prepares
	 * the node or partition again (the partition's free and a per-node
	 * kernel object's free come first; a stateless kernel's shared
	 * object outlives it); never pass it to free_memory.  A node
	 * prepared at every invoke (kernel contract, ABI 2.4) gets it only
	 * until the next invoke.
	 */
	void *(*allocate_persistent)(const opver_context *ctx, size_t bytes);

	/*
	 * Arena scratch.  During prepare, ask for `bytes` (0 is allowed) of
	 * memory aligned to 64 bytes that the node or partition needs only
	 * while it runs; the core plans it into the arena with the tensors
	 * and stores its index in *index.  During invoke, scratch(ctx, index)
	 * gives its address, never NULL for an index this node or partition
	 * requested (NULL for any other).  The memory is not preserved
	 * between invokes; a node prepared at every invoke (kernel
	 * contract, ABI 2.4) requests it again each time, and an index from
	 * an earlier invoke is not valid.
	 */
	opver_status (*request_scratch)(const opver_context *ctx, size_t bytes,
					int32_t *index);
	void *(*scratch)(const opver_context *ctx, int32_t index);

	/* Threads parallel_for may use: the interpreter's thread count
	 * ([opver] threads, opver-run --threads), 1 by default. */
	uint32_t (*thread_count)(const opver_context *ctx);
	/*
	 * Runs fn(arg, task, thread) for every task in [0, count) on the
	 * interpreter's thread pool, the calling thread included, and returns
	 * when all have finished.  Tasks must not call services other than
	 * thread_count, op_name and type_name.  Called from a task, or where
	 * the context has no interpreter (plugin init), it runs the tasks on
	 * the calling thread.
	 */
	void (*parallel_for)(const opver_context *ctx, opver_task_fn fn,
			     void *arg, uint32_t count);

	/* "FULLY_CONNECTED", "INT8"; "UNKNOWN" for values out of range.
	 * Static strings. */
	const char *(*op_name)(int32_t op);
	const char *(*type_name)(int32_t type);

	/*
	 * Profile events inside a node or partition (a delegate's inner ops,
	 * a kernel's phases), shown under it in opver-run --benchmark.
	 * profile_begin returns a handle for profile_end, or 0 (which
	 * profile_end ignores) when no profiler is attached, at the cost of a
	 * call and a test.  `name` must stay valid until the plugin is
	 * unloaded (a string literal).  Only during invoke, from the calling
	 * thread, properly nested.
	 */
	uint32_t (*profile_begin)(const opver_context *ctx, const char *name);
	void (*profile_end)(const opver_context *ctx, uint32_t handle);

	/*
	 * Buffer handles, for a delegate keeping a tensor in its own memory.
	 * During a partition's prepare, for one of its outputs: after each
	 * invoke of the partition the tensor's value lives under `handle`,
	 * not at tensor->data.  The core calls the delegate's
	 * copy_from_handle before anything other than this delegate reads
	 * the tensor (a kernel, another delegate, the application), once per
	 * invoke; the delegate's own partitions read it from its memory, with
	 * no copy.
	 */
	opver_status (*set_buffer_handle)(const opver_context *ctx,
					  const opver_tensor *tensor,
					  uint64_t handle);
	/*
	 * 1 when the delegate of the calling partition holds `tensor` (one
	 * of its partitions set a handle on it, in an earlier prepare), with
	 * the handle stored in *handle; else 0.  From a partition's prepare
	 * or invoke, for its inputs: a held input is in the delegate's own
	 * memory, and is not copied to the device.
	 */
	int32_t (*buffer_handle)(const opver_context *ctx,
				 const opver_tensor *tensor, uint64_t *handle);

	/*
	 * ABI 2.2; check OPVER_HOST_HAS(ctx->host, flex_map_find) first.
	 * Looks `key` up in the FlexBuffers map of a custom op's options
	 * (`size` bytes at `options`, as node->custom_options) and fills
	 * *value; a key the map lacks gives kind OPVER_FLEX_ABSENT, and so
	 * does every key of empty options (size 0: a custom op stored
	 * without options, all defaults).  Every
	 * offset, width and length is checked before it is read: bytes that
	 * are not a well-formed map give OPVER_ERROR_INVALID_MODEL, reported
	 * through report_error with what is wrong, and *value of kind
	 * ABSENT.  Any callback; not from a parallel_for task.
	 */
	opver_status (*flex_map_find)(const opver_context *ctx,
				      const uint8_t *options, size_t size,
				      const char *key,
				      opver_flex_value *value);
	/*
	 * ABI 2.2; check OPVER_HOST_HAS(ctx->host, resize_output) first.
	 * Only in a kernel's prepare: gives node->outputs[output] the shape
	 * dims[0, rank) (copied), as TFLite's ResizeTensor in Prepare does
	 * for outputs whose shape follows from the options, which models
	 * often leave out (TFLite_Detection_PostProcess's).  The tensor's
	 * rank, dims and bytes change at once; nodes prepared later see the
	 * new shape and the arena is planned with it.  Refused, reported,
	 * with OPVER_ERROR_INVALID_ARGUMENT for a negative dimension, a
	 * constant tensor, a model input, a tensor a delegate partition
	 * reads or writes (partitions are prepared first), and one already
	 * known with its old shape (an input or another output of this
	 * node, or a tensor of an earlier node), and with
	 * OPVER_ERROR_NOMEM past the interpreter's max_tensor_bytes.  Since
	 * ABI 2.3 the shape a tensor already has is always accepted, so a kernel may
	 * give every output the shape its inputs imply: after
	 * opver_interpreter_resize_input() (opver.h) prepare runs again, and
	 * a node whose inputs were resized must shape each output this way
	 * or the core refuses it.
	 */
	opver_status (*resize_output)(const opver_context *ctx, int32_t output,
				      const int32_t *dims, int32_t rank);
	/*
	 * ABI 2.4; check OPVER_HOST_HAS(ctx->host, set_output_dynamic)
	 * first.  Only in a kernel's prepare: node->outputs[output] takes its
	 * shape from input values known only at invoke (a RESHAPE whose
	 * shape input is computed), as TFLite's SetTensorToDynamic.  The
	 * output then has no memory (data NULL) and no meaningful shape until
	 * the kernel's invoke calls resize_output, which for such an output is
	 * allowed in invoke too: the core gives it the shape and a buffer of
	 * its own, outside the arena (checked against max_tensor_bytes, and
	 * together with the arena and the other such buffers against
	 * max_arena_bytes), valid until the next invoke.  A node reading such
	 * a tensor is prepared at every invoke, just before it runs, where
	 * its resize_output allocates its outputs the same way (its outputs
	 * are dynamic too).  Refused, reported, with
	 * OPVER_ERROR_INVALID_ARGUMENT for constants, model inputs,
	 * variables and a tensor known before this node (an input of it or
	 * of a node prepared before).  An output a delegate partition reads
	 * (partitions are built from the model's shapes) stays as the model
	 * gives it: the service returns OPVER_ERROR_UNSUPPORTED, said at
	 * info level, not as an error, and the kernel checks at invoke that
	 * the values give that shape.  In invoke, resize_output of an output
	 * that is not dynamic accepts only the shape it has.
	 */
	opver_status (*set_output_dynamic)(const opver_context *ctx,
					   int32_t output);
} opver_host;
OPVER_ABI_ENDS_AT(opver_host, set_output_dynamic);

/* Whether the host table `host` has `service`: a service appended after
 * the minor a plugin runs on is there only when struct_size covers it. */
#define OPVER_HOST_HAS(host, service)                             \
	((host)->struct_size >= OPVER_SIZE_THROUGH(opver_host, service) && \
	 (host)->service != NULL)

/* One option from the plugin's ini section.  Valid only during init.
 * Frozen. */
typedef struct opver_option {
	const char *key;
	const char *value;
} opver_option;

/*
 * One combination of tensor types a kernel accepts: a type mask
 * (OPVER_TYPE_BIT, common.h) per position.  A mask of 0 accepts any type
 * (or absence).  Inputs beyond OPVER_SIGNATURE_INPUTS are not checked.
 * Frozen: a richer signature would be a new kernel field.
 *
 *   OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8),
 *                                OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
 *                   OPVER_OUTPUT(OPVER_T(INT8)))
 */
typedef struct opver_type_signature {
	uint32_t inputs[OPVER_SIGNATURE_INPUTS];
	uint32_t output;
} opver_type_signature;

#define OPVER_SIGNATURE(inputs, output) { inputs, output }
#define OPVER_INPUTS(...) .inputs = { __VA_ARGS__ }
#define OPVER_OUTPUT(mask) .output = (mask)

/*
 * A model node as a kernel sees it.  Owned by the core; valid from the
 * kernel's init until its free.
 */
typedef struct opver_node {
	uint32_t struct_size;
	/* Index of the node in the model's execution order. */
	int32_t index;
	/* An opver_op; OPVER_OP_CUSTOM with custom_name for custom ops. */
	int32_t op;
	/* The op version the model stores (1 when absent). */
	int32_t version;
	/* The version the node was resolved at: `version`, or under
	 * strict_versions the version TFLite's rules require if higher. */
	int32_t resolved_version;
	int32_t num_inputs;
	int32_t num_outputs;
	/* Borrowed from the model; NULL unless op is OPVER_OP_CUSTOM. */
	const char *custom_name;
	/*
	 * The op's parameter struct from ops.h (for example
	 * opver_fully_connected_params), NULL for ops without options.
	 * params_size is how many bytes the core filled: read it with
	 * opver_read_params().  Owned by the core.
	 */
	const void *params;
	size_t params_size;
	/* Custom ops' option bytes; borrowed from the model, may be NULL. */
	const uint8_t *custom_options;
	size_t custom_options_size;
	/* Tensors in model order; an omitted optional input is NULL. */
	opver_tensor *const *inputs;
	opver_tensor *const *outputs;
	/* What the kernel's init returned (NULL without init). */
	void *kernel_data;
	/*
	 * The kernel's op_data_size bytes, zeroed before prepare, private to
	 * this node.  Owned by the core.
	 */
	void *op_data;
	/*
	 * ABI 2.4; check OPVER_NODE_HAS(node, intermediates) first.  The
	 * operator's intermediate tensors, in model order, an omitted one
	 * (-1) NULL: tensors no node computes that carry quantization
	 * parameters a kernel needs, as TFLite's integer LSTM takes the
	 * scales of its gates and hidden state from them.  They have no
	 * data unless a node also writes them.  The array and the tensors
	 * are owned by the core, valid as long as the node.
	 */
	int32_t num_intermediates;
	opver_tensor *const *intermediates;
} opver_node;
OPVER_ABI_ENDS_AT(opver_node, intermediates);

/* Whether `node` (a node the core gave) has `field`: a field appended
 * after the minor a plugin runs on is there only when the node's
 * struct_size covers it. */
#define OPVER_NODE_HAS(node, field) \
	((node)->struct_size >= OPVER_SIZE_THROUGH(opver_node, field))

/*
 * Copies the node's parameter struct over *params, which the caller filled
 * with the defaults (OPVER_X_PARAMS_DEFAULTS): the `size` bytes of it that
 * the core filled replace the defaults, any later field keeps its default.
 *
 *   opver_conv_params p = OPVER_CONV_PARAMS_DEFAULTS;
 *   opver_read_params(node, &p, sizeof(p));
 */
static inline void opver_read_params(const opver_node *node, void *params,
				     size_t size)
{
	const unsigned char *from = (const unsigned char *)node->params;
	unsigned char *to = (unsigned char *)params;
	size_t filled = from == NULL ? 0 :
			node->params_size < size ? node->params_size : size;

	for (size_t i = 0; i < filled; i++)
		to[i] = from[i];
}

/* Kernel flags. */
#define OPVER_KERNEL_STATELESS (UINT32_C(1) << 0) /* one kernel object may
						    * serve every node and
						    * thread */

/* One manifest entry.  Read by the core; must outlive the plugin's fini. */
typedef struct opver_kernel {
	uint32_t struct_size;
	/* An opver_op; OPVER_OP_CUSTOM together with custom_name. */
	int32_t op;
	/* Inclusive range of op versions this kernel implements; >= 1. */
	int32_t min_version;
	int32_t max_version;
	/* Default priority; the plugin's config priority overrides it. */
	int32_t priority;
	/* OPVER_KERNEL_* bits. */
	uint32_t flags;
	uint32_t num_signatures;
	/* Short name unique within the plugin, for messages and --explain. */
	const char *name;
	const char *custom_name;
	/* Accepted type combinations; num_signatures 0 accepts all types. */
	const opver_type_signature *signatures;
	/* Bytes of per-node op_data the core provides; may be 0. */
	size_t op_data_size;

	/* ctx->plugin_data is the plugin's data. */
	opver_status (*init)(const opver_context *ctx, void **kernel_data);
	void (*free)(const opver_context *ctx, void *kernel_data);
	opver_status (*prepare)(const opver_context *ctx, opver_node *node);
	opver_status (*invoke)(const opver_context *ctx, opver_node *node);
} opver_kernel;
OPVER_ABI_ENDS_AT(opver_kernel, invoke);

/*
 * A manifest entry's first lines:
 *   static const opver_kernel add_int8 = {
 *           OPVER_KERNEL("add_int8", ADD, 1, 6),
 *           OPVER_KERNEL_SIGNATURES(add_int8_types),
 *           .prepare = add_prepare, .invoke = add_invoke,
 *   };
 * OPVER_CUSTOM_KERNEL names a custom op instead of a builtin one.
 */
#define OPVER_KERNEL(kernel_name, op_name, min, max)                      \
	.struct_size = sizeof(opver_kernel), .name = (kernel_name),       \
	.op = OPVER_OP_##op_name, .min_version = (min), .max_version = (max)
#define OPVER_CUSTOM_KERNEL(kernel_name, custom_op, min, max)             \
	.struct_size = sizeof(opver_kernel), .name = (kernel_name),       \
	.op = OPVER_OP_CUSTOM, .custom_name = (custom_op),                \
	.min_version = (min), .max_version = (max)
/* Also fills an opver_delegate_op's signatures. */
#define OPVER_KERNEL_SIGNATURES(array) \
	.signatures = (array),         \
	.num_signatures = (uint32_t)(sizeof(array) / sizeof((array)[0]))

/*
 * The graph as a delegate sees it when choosing nodes.  Owned by the core;
 * valid only during the claim callback.
 */
typedef struct opver_graph_view {
	uint32_t struct_size;
	int32_t num_tensors;
	int32_t num_nodes;
	opver_tensor *const *tensors;
	const opver_node *const *nodes;
} opver_graph_view;
OPVER_ABI_ENDS_AT(opver_graph_view, nodes);

/*
 * A set of claimed nodes the core hands to the delegate as one unit, as
 * TFLite partitions a graph: every tensor it reads from outside is produced
 * before it runs, and nodes need not be consecutive.  Owned by the core;
 * valid from the delegate's init until its free.
 */
typedef struct opver_partition {
	uint32_t struct_size;
	int32_t num_nodes;
	int32_t num_inputs;
	int32_t num_outputs;
	/* Node indices, in the order the nodes' dependencies allow. */
	const int32_t *nodes;
	/* Non-constant tensors read from outside the partition (constant
	 * ones are reachable through the nodes), by pointer and by index in
	 * graph->tensors. */
	opver_tensor *const *inputs;
	const int32_t *input_indices;
	/* Tensors it produces that are read outside it or are model
	 * outputs. */
	opver_tensor *const *outputs;
	const int32_t *output_indices;
	/* The whole graph, for the nodes' parameters and inner tensors. */
	const opver_graph_view *graph;
} opver_partition;
OPVER_ABI_ENDS_AT(opver_partition, graph);

/*
 * What a delegate can run: an op (or custom op), an inclusive version range
 * and accepted type signatures (0 signatures: any types), like a kernel's.
 */
typedef struct opver_delegate_op {
	uint32_t struct_size;
	int32_t op;
	int32_t min_version;
	int32_t max_version;
	uint32_t num_signatures;
	/* For OPVER_OP_CUSTOM; NULL otherwise. */
	const char *custom_name;
	const opver_type_signature *signatures;
} opver_delegate_op;
OPVER_ABI_ENDS_AT(opver_delegate_op, signatures);

/* A typed claim's first lines, as OPVER_KERNEL's for a kernel; and the
 * delegate's ops from a static array of pointers to claims. */
#define OPVER_DELEGATE_OP(op_name, min, max)                              \
	.struct_size = sizeof(opver_delegate_op), .op = OPVER_OP_##op_name, \
	.min_version = (min), .max_version = (max)
#define OPVER_CUSTOM_DELEGATE_OP(custom_op, min, max)                     \
	.struct_size = sizeof(opver_delegate_op), .op = OPVER_OP_CUSTOM,    \
	.custom_name = (custom_op), .min_version = (min), .max_version = (max)
#define OPVER_DELEGATE_OPS(array) \
	.ops = (array), .num_ops = (uint32_t)(sizeof(array) / sizeof((array)[0]))

/*
 * Hardware-delegate hooks.  The core checks each claim against `ops` at
 * the version the resolver uses for the node, rejects (and reports) a claim
 * outside them, and runs such nodes on kernels.
 *
 * Resized inputs (opver_interpreter_resize_input(), opver.h), as TFLite
 * undoes and re-applies its delegates: the next allocate_tensors frees
 * every partition (free), prepares every node on a kernel so that the
 * new shapes follow through resize_output, then calls claim again with
 * the graph at those shapes and builds new partitions (init, prepare,
 * bind_memory) as at creation; resizing back to the model's shapes does
 * the same.  So a partition lives through one set of shapes, and a
 * delegate that builds its graph or device buffers from the tensors'
 * dims in init or prepare needs nothing more (ABI 2.0's callbacks); it
 * must not keep anything sized by a shape beyond a partition's free.  A
 * claim may refuse a node for its shapes (the node then runs on its
 * kernel).  A delegated node that no kernel handles cannot get its new
 * shapes, and allocate_tensors refuses, naming the node and the
 * delegate; a prepare that refuses the new shapes fails allocate_tensors
 * the same way as at creation.
 */
typedef struct opver_delegate {
	uint32_t struct_size;
	uint32_t num_ops;
	const char *name;
	/* num_ops pointers, each to a typed claim. */
	const opver_delegate_op *const *ops;
	/* Required.  Sets claimed[i] to 1 for each node i it will run.
	 * Called at creation and again after inputs were resized, with
	 * the tensors at their new shapes. */
	opver_status (*claim)(const opver_context *ctx,
			      const opver_graph_view *graph, uint8_t *claimed);
	/* Required.  Per partition: init once, prepare once, invoke per run,
	 * free once (after a resize the core builds new partitions). */
	opver_status (*init)(const opver_context *ctx,
			     const opver_partition *partition,
			     void **partition_data);
	void (*free)(const opver_context *ctx, void *partition_data);
	/* Optional. */
	opver_status (*prepare)(const opver_context *ctx, void *partition_data,
				const opver_partition *partition);
	opver_status (*invoke)(const opver_context *ctx, void *partition_data,
			       const opver_partition *partition);
	/*
	 * Optional: copies a partition input into device memory before each
	 * invoke (inputs this delegate holds under a buffer handle are not
	 * copied).
	 */
	opver_status (*copy_to_device)(const opver_context *ctx,
				       void *partition_data,
				       const opver_tensor *tensor);
	/*
	 * Required when the delegate sets buffer handles: writes the value
	 * kept under `handle` to tensor->data.  partition_data is that of the
	 * partition that set the handle.
	 */
	opver_status (*copy_from_handle)(const opver_context *ctx,
					 void *partition_data, uint64_t handle,
					 opver_tensor *tensor);
	/*
	 * Optional, ABI 2.1.  Called once per partition after the core has
	 * given every tensor its memory, before the first invoke: the
	 * partition's inputs' and outputs' data pointers are final, so a
	 * delegate binds its runtime or device to them here instead of in
	 * invoke.  Called again, before the next invoke, whenever the core
	 * moves that memory.  An interpreter created with prepare_only never
	 * gets it.
	 */
	opver_status (*bind_memory)(const opver_context *ctx,
				    void *partition_data,
				    const opver_partition *partition);
} opver_delegate;
OPVER_ABI_ENDS_AT(opver_delegate, bind_memory);

/*
 * The plugin descriptor.  Returned by the entry point; must stay valid until
 * the plugin is unloaded.  The first four fields never move.
 */
typedef struct opver_plugin {
	uint32_t abi_major;
	/* The minor of the headers it was built against. */
	uint32_t abi_minor;
	/* The oldest core minor it runs on; at most abi_minor. */
	uint32_t min_abi_minor;
	uint32_t struct_size;
	uint32_t num_kernels;
	const char *name;
	const char *vendor;
	const char *version;
	/*
	 * Optional.  Called once after loading with the options of the
	 * plugin's ini section; *plugin_data reaches every later callback as
	 * ctx->plugin_data.
	 */
	opver_status (*init)(const opver_context *ctx,
			     const opver_option *options, uint32_t num_options,
			     void **plugin_data);
	/* Optional.  Called once before unloading. */
	void (*fini)(const opver_context *ctx, void *plugin_data);
	/* The kernel manifest: num_kernels pointers, each to a kernel. */
	const opver_kernel *const *kernels;
	/* NULL when the plugin has no hardware delegate. */
	const opver_delegate *delegate;
} opver_plugin;
OPVER_ABI_ENDS_AT(opver_plugin, delegate);

/*
 * Initializers for the descriptor's first four fields: built against these
 * headers, and running on cores of minor `min_minor` and later.
 * OPVER_PLUGIN_HEADER needs everything these headers have.
 */
#define OPVER_PLUGIN_HEADER_RUNS_ON(min_minor)                            \
	.abi_major = OPVER_ABI_MAJOR, .abi_minor = OPVER_ABI_MINOR,         \
	.min_abi_minor = (min_minor), .struct_size = sizeof(opver_plugin)
#define OPVER_PLUGIN_HEADER OPVER_PLUGIN_HEADER_RUNS_ON(OPVER_ABI_MINOR)

/* The descriptor's manifest from a static array of kernel pointers. */
#define OPVER_PLUGIN_KERNELS(array) \
	.kernels = (array),         \
	.num_kernels = (uint32_t)(sizeof(array) / sizeof((array)[0]))

/*
 * What the host tells the entry point.  Owned by the core; valid during the
 * call.  Frozen: every future major passes it unchanged.
 */
typedef struct opver_negotiation {
	uint32_t struct_size;
	uint32_t host_abi_major;
	uint32_t host_abi_minor;
	/*
	 * Records why the plugin declines to load here (the core reports
	 * "plugin 'F' declined: REASON, not loading") and returns NULL, so
	 * that `return negotiation->decline(negotiation, "...")` reads as
	 * what it does.
	 */
	const struct opver_plugin *(*decline)(
		const struct opver_negotiation *negotiation,
		const char *format, ...) OPVER__PRINTF(2, 3);
} opver_negotiation;

/* The one symbol a plugin exports: returns the plugin's descriptor, which
 * the plugin owns and keeps valid until it is unloaded, or NULL after
 * decline.  (A plugin running a pthreadpool-based library, such as
 * XNNPACK, on the host's threads also exports pthreadpool's API for that
 * library to call; opver-conformance accepts those.) */
#define OPVER_PLUGIN_ENTRY_NAME "opver_plugin_negotiate"
typedef const opver_plugin *(*opver_plugin_entry_fn)(
	const opver_negotiation *negotiation);

#if defined(__GNUC__)
#define OPVER_PLUGIN_EXPORT __attribute__((visibility("default")))
#define OPVER__MAYBE_UNUSED __attribute__((unused))
#else
#define OPVER_PLUGIN_EXPORT
#define OPVER__MAYBE_UNUSED
#endif

OPVER_PLUGIN_EXPORT const opver_plugin *opver_plugin_negotiate(
	const opver_negotiation *negotiation);

/* Defines the entry point; the body sees `negotiation`:
 *   OPVER_PLUGIN_ENTRY
 *   {
 *           if (!cpu_has_avx2())
 *                   return negotiation->decline(negotiation, "needs AVX2");
 *           return &my_plugin;
 *   }
 */
#define OPVER_PLUGIN_ENTRY                                              \
	OPVER_PLUGIN_EXPORT const opver_plugin *opver_plugin_negotiate( \
		const opver_negotiation *negotiation OPVER__MAYBE_UNUSED)

/* Reports through the context's host: OPVER_REPORT(ctx, "bad %s", x). */
#define OPVER_REPORT(ctx, ...) ((ctx)->host->report_error((ctx), __VA_ARGS__))
#define OPVER_LOG(ctx, level, ...) \
	((ctx)->host->log((ctx), (level), __VA_ARGS__))

#ifdef __cplusplus
}
#endif

#endif /* OPVER_PLUGIN_H */
