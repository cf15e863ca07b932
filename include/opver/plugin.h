/*
 * opver/plugin.h - the plugin ABI.  The only header a plugin includes.
 *
 * A plugin is a shared object exporting one function, opver_plugin_entry(),
 * that returns its descriptor:
 *
 *   opver_plugin         descriptor: ABI version and struct_size first, then
 *                        name, vendor, version, init/fini, the kernel
 *                        manifest and an optional delegate
 *   opver_kernel         one manifest entry: (op or custom name, inclusive
 *                        version range, accepted tensor types, priority,
 *                        flags) and init/free/prepare/invoke
 *   opver_node           what a kernel is given for one model node
 *   opver_delegate       optional hardware-delegate hooks: the delegate
 *                        declares (op, max version) pairs, claims nodes, and
 *                        runs each partition it claimed
 *   opver_host           services the core lends the plugin
 *
 * Versioning.  The core loads a plugin whose abi_major equals OPVER_ABI_MAJOR
 * and whose abi_minor is no newer than OPVER_ABI_MINOR, and reads a field only
 * when the struct's struct_size covers it.  Structs are append-only; a field
 * added after 1.0 is commented with the ABI minor that added it.  A plugin
 * built for 1.0 keeps loading into every 1.x core.
 *
 * Kernel contract (as TfLiteRegistration):
 *   init     optional; creates the kernel object.  A kernel flagged
 *            OPVER_KERNEL_STATELESS gets one init for all nodes and threads of
 *            an interpreter, otherwise one per node.
 *   prepare  required; once per node before the first invoke: validate types
 *            and shapes, fill op_data with everything that does not depend on
 *            input values (quantized multipliers, scratch sizes).
 *   invoke   required; compute the outputs from the inputs.  May not allocate.
 *   free     optional; destroys what init created.
 * Every callback returns OPVER_OK or reports why through host->report_error
 * and returns an error status.
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

/*
 * Services the core lends a plugin, passed to every callback.  Owned by the
 * core; valid from the plugin's init until after its fini.
 */
typedef struct opver_host {
	uint32_t struct_size;
	/* ABI the core implements; a plugin may check for newer services. */
	uint16_t abi_major;
	uint16_t abi_minor;
	/* Core-private; plugins pass it back untouched. */
	void *core;
	/*
	 * Report why a callback failed.  The core prefixes the plugin, node
	 * and op the callback was working on.
	 */
	void (*report_error)(const struct opver_host *host, const char *format,
			     ...) OPVER__PRINTF(2, 3);
	/* Log a message at the given level through the core's reporter. */
	void (*log)(const struct opver_host *host, opver_log_level level,
		    const char *format, ...) OPVER__PRINTF(3, 4);
	/*
	 * Zeroed memory aligned to 64 bytes, or NULL.  Caller owns it; release
	 * with free_memory.
	 */
	void *(*allocate)(const struct opver_host *host, size_t bytes);
	void (*free_memory)(const struct opver_host *host, void *memory);
	/*
	 * Zeroed memory aligned to 64 bytes for the node being prepared (per-
	 * channel multipliers, lookup tables), or NULL.  Only during a kernel's
	 * prepare.  Owned by the core: valid until the interpreter is
	 * destroyed, which frees it; never pass it to free_memory.
	 */
	void *(*allocate_persistent)(const struct opver_host *host,
				     size_t bytes);
} opver_host;

/* One option from the plugin's ini section.  Valid only during init. */
typedef struct opver_option {
	const char *key;
	const char *value;
} opver_option;

/* A type mask: bit OPVER_TYPE_BIT(t) set for each accepted opver_type. */
#define OPVER_TYPE_BIT(type) (UINT32_C(1) << (type))
/* In an input mask: the input may be omitted (an optional input). */
#define OPVER_TYPE_BIT_ABSENT (UINT32_C(1) << 31)
/* Positions a type signature constrains. */
#define OPVER_SIGNATURE_INPUTS 4

/*
 * One combination of tensor types a kernel accepts.  A mask of 0 accepts any
 * type (or absence).  Inputs beyond OPVER_SIGNATURE_INPUTS are not checked.
 * Frozen in ABI 1: a richer signature would be a new kernel field.
 */
typedef struct opver_type_signature {
	uint32_t inputs[OPVER_SIGNATURE_INPUTS];
	uint32_t output;
} opver_type_signature;

/*
 * A model node as a kernel sees it.  Owned by the core; valid from prepare
 * until the interpreter is destroyed.
 */
typedef struct opver_node {
	uint32_t struct_size;
	/* Index of the node in the model's execution order. */
	int32_t index;
	/* opver_op; OPVER_OP_CUSTOM with custom_name for custom ops. */
	int32_t op;
	/* Borrowed from the model; NULL unless op is OPVER_OP_CUSTOM. */
	const char *custom_name;
	/* The op version the model stores (1 when absent). */
	int32_t version;
	/*
	 * The op's parameter struct from ops.h (for example
	 * opver_fully_connected_params), NULL for ops without options.
	 * params_size is how many bytes the core filled.  Owned by the core.
	 */
	const void *params;
	size_t params_size;
	/* Custom ops' option bytes; borrowed from the model, may be NULL. */
	const uint8_t *custom_options;
	size_t custom_options_size;
	/* Tensors in model order; an omitted optional input is NULL. */
	int32_t num_inputs;
	opver_tensor *const *inputs;
	int32_t num_outputs;
	opver_tensor *const *outputs;
	/* What the kernel's init returned (NULL without init). */
	void *kernel_data;
	/*
	 * The kernel's op_data_size bytes, zeroed before prepare, private to
	 * this node.  Owned by the core.
	 */
	void *op_data;
} opver_node;

/* Kernel flags. */
enum {
	/* One kernel object may serve every node and thread. */
	OPVER_KERNEL_STATELESS = 1u << 0
};

/* One manifest entry.  Read by the core; must outlive the plugin's fini. */
typedef struct opver_kernel {
	uint32_t struct_size;
	/* Short name unique within the plugin, for messages and --explain. */
	const char *name;
	/* opver_op; OPVER_OP_CUSTOM together with custom_name. */
	int32_t op;
	const char *custom_name;
	/* Inclusive range of op versions this kernel implements; >= 1. */
	int32_t min_version;
	int32_t max_version;
	/* Accepted type combinations; num_signatures 0 accepts all types. */
	const opver_type_signature *signatures;
	uint32_t num_signatures;
	/* Default priority; the plugin's config priority overrides it. */
	int32_t priority;
	uint32_t flags;
	/* Bytes of per-node op_data the core provides; may be 0. */
	size_t op_data_size;

	opver_status (*init)(const opver_host *host, void *plugin_data,
			     void **kernel_data);
	void (*free)(const opver_host *host, void *kernel_data);
	opver_status (*prepare)(const opver_host *host, opver_node *node);
	opver_status (*invoke)(const opver_host *host, opver_node *node);
} opver_kernel;

/*
 * The graph as a delegate sees it when choosing nodes.  Owned by the core;
 * valid only during the claim callback.
 */
typedef struct opver_graph_view {
	int32_t num_tensors;
	opver_tensor *const *tensors;
	int32_t num_nodes;
	const opver_node *const *nodes;
} opver_graph_view;

/*
 * A run of consecutive claimed nodes the core hands to the delegate as one
 * unit.  Owned by the core; valid from the delegate's init until its free.
 */
typedef struct opver_partition {
	int32_t num_nodes;
	/* Node indices in execution order. */
	const int32_t *nodes;
	/* Non-constant tensors read from outside the partition (constant
	 * ones are reachable through the nodes), and tensors it produces that
	 * are read outside it or are model outputs. */
	int32_t num_inputs;
	opver_tensor *const *inputs;
	int32_t num_outputs;
	opver_tensor *const *outputs;
	/* The whole graph, for the nodes' parameters and inner tensors. */
	const opver_graph_view *graph;
} opver_partition;

/* An (op, highest version) pair a delegate supports. */
typedef struct opver_delegate_op {
	int32_t op;
	/* For OPVER_OP_CUSTOM; NULL otherwise. */
	const char *custom_name;
	int32_t max_version;
} opver_delegate_op;

/*
 * Hardware-delegate hooks.  The core rejects (and reports) a claim on a node
 * that is not among `ops` or whose version is above the declared maximum, and
 * runs such nodes on kernels.
 */
typedef struct opver_delegate {
	uint32_t struct_size;
	const char *name;
	const opver_delegate_op *ops;
	size_t num_ops;
	/* Required.  Sets claimed[i] for each node i it will run. */
	opver_status (*claim)(const opver_host *host, void *plugin_data,
			      const opver_graph_view *graph, bool *claimed);
	/* Required.  Per partition: init once, prepare once, invoke per run. */
	opver_status (*init)(const opver_host *host, void *plugin_data,
			     const opver_partition *partition,
			     void **partition_data);
	void (*free)(const opver_host *host, void *partition_data);
	opver_status (*prepare)(const opver_host *host, void *partition_data,
				const opver_partition *partition);
	opver_status (*invoke)(const opver_host *host, void *partition_data,
			       const opver_partition *partition);
	/*
	 * Optional, for tensors kept in device memory: called for each
	 * partition input before invoke and each partition output after it.
	 */
	opver_status (*copy_to_device)(const opver_host *host,
				       void *partition_data,
				       const opver_tensor *tensor);
	opver_status (*copy_from_device)(const opver_host *host,
					 void *partition_data,
					 opver_tensor *tensor);
} opver_delegate;

/*
 * The plugin descriptor.  Returned by the entry point; must stay valid until
 * the plugin is unloaded.  The first three fields never move.
 */
typedef struct opver_plugin {
	uint16_t abi_major;
	uint16_t abi_minor;
	uint32_t struct_size;
	const char *name;
	const char *vendor;
	const char *version;
	/*
	 * Optional.  Called once after loading with the options of the
	 * plugin's ini section; *plugin_data is passed to every later callback.
	 */
	opver_status (*init)(const opver_host *host,
			     const opver_option *options, size_t num_options,
			     void **plugin_data);
	/* Optional.  Called once before unloading. */
	void (*fini)(const opver_host *host, void *plugin_data);
	/* The kernel manifest: num_kernels pointers, each to a kernel. */
	const opver_kernel *const *kernels;
	size_t num_kernels;
	/* NULL when the plugin has no hardware delegate. */
	const opver_delegate *delegate;
} opver_plugin;

/* The one symbol a plugin exports.  Returns the plugin's descriptor, which
 * the plugin owns and keeps valid until it is unloaded. */
#define OPVER_PLUGIN_ENTRY_NAME "opver_plugin_entry"
typedef const opver_plugin *(*opver_plugin_entry_fn)(void);

#if defined(__GNUC__)
#define OPVER_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define OPVER_PLUGIN_EXPORT
#endif

OPVER_PLUGIN_EXPORT const opver_plugin *opver_plugin_entry(void);

/* Defines the entry point:  OPVER_PLUGIN_ENTRY { return &my_plugin; } */
#define OPVER_PLUGIN_ENTRY \
	OPVER_PLUGIN_EXPORT const opver_plugin *opver_plugin_entry(void)

/* Initializer for the descriptor's first three fields. */
#define OPVER_PLUGIN_HEADER                                                 \
	.abi_major = OPVER_ABI_MAJOR, .abi_minor = OPVER_ABI_MINOR,          \
	.struct_size = sizeof(opver_plugin)

#ifdef __cplusplus
}
#endif

#endif /* OPVER_PLUGIN_H */
