/*
 * opver/opver.h - the host API: what an application uses to run models.
 *
 *   opver_runtime      the config, the loaded plugins and the op registry;
 *                      built once at startup
 *   opver_model        a verified .tflite model, memory-mapped from a file
 *                      or copied from memory
 *   opver_interpreter  a model bound to kernels and delegates: resolved,
 *                      planned into one arena, prepared, ready to invoke
 *
 * Typical use:
 *   opver_runtime_create(&options, &rt);
 *   opver_model_open(rt, "model.tflite", &model);
 *   opver_interpreter_create(rt, model, &it);
 *   memcpy(opver_interpreter_input(it, 0)->data, ...);
 *   opver_interpreter_invoke(it);
 *   ... opver_interpreter_output(it, 0) ...
 *   opver_interpreter_destroy(it); opver_model_close(model);
 *   opver_runtime_destroy(rt);
 *
 * Errors: every function returns an opver_status; the reason goes, as one
 * line naming what failed, to the log callback of opver_runtime_options.
 *
 * Threads: interpreters of one runtime may run on different threads, each
 * interpreter on one thread at a time; the log callback may then be called
 * from several threads.  Create and destroy runtimes, models and
 * interpreters from one thread.  Each interpreter owns a pool of `threads`
 * threads (the calling thread included) that kernels use through
 * parallel_for; it is created with the interpreter, never per invoke.
 *
 * Structs: every options and info struct starts with struct_size and
 * follows the append rule of common.h.  The functions that fill or read one
 * take the caller's sizeof through a macro of the function's name, so an
 * application built against older headers is never written past its struct
 * and its missing fields read as their defaults.
 */
#ifndef OPVER_OPVER_H
#define OPVER_OPVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/common.h>
#include <opver/ops.h>
#include <opver/version.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opver_runtime opver_runtime;
typedef struct opver_model opver_model;
typedef struct opver_interpreter opver_interpreter;

/* Receives every message at or above the configured level.  `message` is
 * valid only during the call. */
typedef void (*opver_log_fn)(void *user_data, opver_log_level level,
			     const char *message);

typedef struct opver_runtime_options {
	uint32_t struct_size;
	/* Overrides the config's log_level when >= 0; -1 keeps it. */
	int32_t log_level;
	/* Overrides the config's strict key when 1. */
	int32_t strict;
	/* Overrides the config's strict_versions key when 1: resolve each
	 * node at the larger of its stored version and the version TFLite's
	 * rules require of its types and parameters, instead of the stored
	 * version. */
	int32_t strict_versions;
	/* Overrides the config's threads key when > 0: the default thread
	 * count of interpreters. */
	uint32_t threads;
	/* ini file to read; NULL (and no config_text) reads the installed
	 * $(sysconfdir)/opver/opver.ini, or when there is none uses the
	 * built-in default (the installed plugin directory and the fragments
	 * of $(sysconfdir)/opver/opver.d), then adds OPVER_PLUGIN_PATH.
	 * Borrowed for the call. */
	const char *config_path;
	/* NULL writes "opver: LEVEL: message" lines to stderr. */
	opver_log_fn log;
	void *log_user_data;
	/*
	 * The config as ini text in memory instead of a file: the
	 * config_text_size bytes at config_text (no terminating NUL needed;
	 * a NUL byte among them is an error), read exactly as
	 * config_path's file would be: the same keys, fragments and errors,
	 * messages naming it "<memory>" ("<memory>:2: unknown key ...").  It
	 * has no directory, so a relative plugin_path, fragment_dir or
	 * library is relative to the current directory.  OPVER_PLUGIN_PATH is
	 * not added.  NULL (the default) reads config_path or the installed
	 * config; setting both is OPVER_ERROR_INVALID_ARGUMENT.  Borrowed for
	 * the call.
	 */
	const char *config_text;
	size_t config_text_size;
} opver_runtime_options;
OPVER_ABI_ENDS_AT(opver_runtime_options, config_text_size);

/* Defaults for opver_runtime_options: no config, stderr, config's level.
 * Writes only the `size` bytes the caller's struct has. */
OPVER_API void opver_runtime_options_init_sized(opver_runtime_options *options,
						size_t size);
#define opver_runtime_options_init(options) \
	opver_runtime_options_init_sized((options), sizeof(*(options)))

/*
 * Reads the config and loads every plugin it names or finds.  A plugin that
 * cannot be used is reported and skipped; the others keep loading.  Fails
 * only when the config itself cannot be read.  On success the caller owns
 * *runtime; release with opver_runtime_destroy().
 */
OPVER_API opver_status opver_runtime_create(const opver_runtime_options *options,
					    opver_runtime **runtime);
/* Unloads every plugin.  Destroy interpreters and models first.  NULL is ok. */
OPVER_API void opver_runtime_destroy(opver_runtime *runtime);

/* plugin.h's types, for static registration; an application registering
 * a plugin includes <opver/plugin.h> for them. */
struct opver_plugin;
struct opver_negotiation;
struct opver_option;

/*
 * Static registration: adds a plugin linked into the program, as TFLite's
 * static op resolvers do, to a runtime that has no interpreter (create
 * them after registering; OPVER_ERROR_INVALID_ARGUMENT otherwise).
 * `entry` has the type opver_plugin_entry_fn of plugin.h; a plugin built
 * for static linking gives it a name of its own instead of
 * opver_plugin_negotiate, so that several can be linked in.  The plugin
 * goes through every check a loaded plugin does (negotiation, where it may
 * decline, the ABI version, struct sizes, the manifest, overlaps), then
 * its init with `options`; a refusal is reported, as for a loaded plugin,
 * as "plugin 'NAME' <reason>, not loading" and returns OPVER_ERROR_PLUGIN
 * (OPVER_ERROR_NOMEM when memory runs out), leaving the runtime as it was.
 * On success its kernels join the registry after every plugin already
 * there (priorities decide as for loaded plugins; ties go to the earlier
 * plugin), opver_runtime_plugin_info() lists it last with file "(static)"
 * and config_name `name`, and opver_runtime_destroy() calls its fini (it is
 * never dlclosed).
 *   runtime      borrowed for the call.
 *   entry        called once, during this call; the descriptor it returns
 *                and everything that points to (kernels, delegate,
 *                strings) are the plugin's and must stay valid until the
 *                runtime is destroyed.
 *   name         borrowed for the call (copied); non-empty and unlike the
 *                config name of every plugin of the runtime.  It names the
 *                plugin in messages, node info and --explain.
 *   options      num_options key/value pairs passed to the plugin's init;
 *                borrowed, and valid only during the call, as the plugin's
 *                init is told.  NULL when num_options is 0.
 */
OPVER_API opver_status opver_runtime_add_plugin(
	opver_runtime *runtime,
	const struct opver_plugin *(*entry)(
		const struct opver_negotiation *negotiation),
	const char *name, const struct opver_option *options,
	size_t num_options);

/* A loaded kernel, as opver_runtime_kernel_info() describes it. */
typedef struct opver_kernel_info {
	uint32_t struct_size;
	int32_t op;
	int32_t min_version;
	int32_t max_version;
	/* Effective priority: the plugin's config priority, else the kernel's. */
	int32_t priority;
	/* 1 for an OPVER_KERNEL_STATELESS kernel. */
	int32_t stateless;
	/* Accepted types: a mask (OPVER_TYPE_BIT) per position, from all the
	 * kernel's signatures; 0 accepts anything. */
	uint32_t input_types[OPVER_SIGNATURE_INPUTS];
	uint32_t output_types;
	/* Both borrowed from the plugin; valid until the runtime is
	 * destroyed. */
	const char *name;
	const char *custom_name;
} opver_kernel_info;
OPVER_ABI_ENDS_AT(opver_kernel_info, custom_name);

/* A loaded plugin, as opver_runtime_plugin_info() describes it. */
typedef struct opver_plugin_info {
	uint32_t struct_size;
	/* The plugin ABI it was built against, and the oldest minor it runs
	 * on. */
	uint32_t abi_major;
	uint32_t abi_minor;
	uint32_t min_abi_minor;
	uint32_t num_kernels;
	/* Typed claims the delegate declares; 0 without a delegate. */
	uint32_t num_delegate_ops;
	/* All strings borrowed; valid until the runtime is destroyed. */
	const char *file;
	/* The config section's NAME, or the file name without ".so" for a
	 * plugin found in a plugin_path directory. */
	const char *config_name;
	const char *name;
	const char *vendor;
	const char *version;
	/* NULL when the plugin has no delegate. */
	const char *delegate_name;
} opver_plugin_info;
OPVER_ABI_ENDS_AT(opver_plugin_info, delegate_name);

/* One typed claim a delegate declares: op, version range, types. */
typedef struct opver_delegate_op_info {
	uint32_t struct_size;
	int32_t op;
	int32_t min_version;
	int32_t max_version;
	/* As in opver_kernel_info. */
	uint32_t input_types[OPVER_SIGNATURE_INPUTS];
	uint32_t output_types;
	/* Borrowed; valid until the runtime is destroyed.  NULL unless CUSTOM. */
	const char *custom_name;
} opver_delegate_op_info;
OPVER_ABI_ENDS_AT(opver_delegate_op_info, custom_name);

/* The info functions fill the first `size` bytes of *info (at most the
 * library's sizeof) and set info->struct_size to how many that was. */
OPVER_API size_t opver_runtime_plugin_count(const opver_runtime *runtime);
OPVER_API opver_status opver_runtime_plugin_info_sized(
	const opver_runtime *runtime, size_t plugin, opver_plugin_info *info,
	size_t size);
OPVER_API opver_status opver_runtime_kernel_info_sized(
	const opver_runtime *runtime, size_t plugin, size_t kernel,
	opver_kernel_info *info, size_t size);
OPVER_API opver_status opver_runtime_delegate_op_info_sized(
	const opver_runtime *runtime, size_t plugin, size_t op,
	opver_delegate_op_info *info, size_t size);
/* Appended in ABI 2.2.  Option `option` of a plugin's config section,
 * as its init got it (the keys other than library, priority, enabled and
 * kernels); both strings borrowed, valid until the runtime is destroyed.
 * OPVER_ERROR_INVALID_ARGUMENT past the last, and for a plugin without a
 * section (found in a plugin directory, or added with
 * opver_runtime_add_plugin). */
OPVER_API opver_status opver_runtime_plugin_option(
	const opver_runtime *runtime, size_t plugin, size_t option,
	const char **key, const char **value);
#define opver_runtime_plugin_info(runtime, plugin, info) \
	opver_runtime_plugin_info_sized((runtime), (plugin), (info), \
					sizeof(*(info)))
#define opver_runtime_kernel_info(runtime, plugin, kernel, info) \
	opver_runtime_kernel_info_sized((runtime), (plugin), (kernel), \
					(info), sizeof(*(info)))
#define opver_runtime_delegate_op_info(runtime, plugin, op, info) \
	opver_runtime_delegate_op_info_sized((runtime), (plugin), (op), \
					     (info), sizeof(*(info)))

/*
 * Maps and verifies a .tflite file.  Fails with OPVER_ERROR_IO when it
 * cannot be read and OPVER_ERROR_INVALID_MODEL when it is malformed.  The
 * caller owns *model; release with opver_model_close() after every
 * interpreter made from it.
 */
OPVER_API opver_status opver_model_open(opver_runtime *runtime,
					const char *path, opver_model **model);
/*
 * opver_model_open() for a model already in memory: copies the `size`
 * bytes at `data` (borrowed for the call) into memory the model owns,
 * aligned to 64 bytes, and verifies them as opver_model_open() verifies a
 * file; messages name the model "<memory>".  OPVER_ERROR_INVALID_MODEL
 * when they are malformed (or data is NULL or size 0), OPVER_ERROR_NOMEM
 * when the copy cannot be made.  Ownership of *model as there.
 */
OPVER_API opver_status opver_model_open_memory(opver_runtime *runtime,
					       const void *data, size_t size,
					       opver_model **model);
OPVER_API void opver_model_close(opver_model *model);

/* Borrowed; valid while the model is open.  NULL when the model has no
 * min_runtime_version metadata. */
OPVER_API const char *opver_model_min_runtime_version(const opver_model *model);

/*
 * The first TensorFlow Lite release that runs every node of the model, from
 * TFLite's table of (op, version) releases, taking each node at the larger
 * of its stored version and the version TFLite's rules require of it (what
 * TFLite's converter would have written as min_runtime_version).  Static
 * storage, "X.Y.Z"; NULL when no node's op is in the table (custom ops
 * only).
 */
OPVER_API const char *opver_model_computed_runtime_version(
	const opver_model *model);

/* Appended in ABI 2.2.  One of the model's SignatureDefs: a named entry
 * point (TFLite's signature runners) with named inputs and outputs. */
typedef struct opver_signature_info {
	uint32_t struct_size;
	/* The subgraph it runs; an interpreter runs subgraph 0. */
	uint32_t subgraph;
	uint32_t num_inputs;
	uint32_t num_outputs;
	/* Borrowed; valid while the model is open.  "" when the file gives
	 * none. */
	const char *key;
} opver_signature_info;
OPVER_ABI_ENDS_AT(opver_signature_info, key);

/* Signatures in the file's order; OPVER_ERROR_INVALID_ARGUMENT when
 * `signature` is out of range. */
OPVER_API size_t opver_model_signature_count(const opver_model *model);
OPVER_API opver_status opver_model_signature_info_sized(
	const opver_model *model, size_t signature,
	opver_signature_info *info, size_t size);
#define opver_model_signature_info(model, signature, info)             \
	opver_model_signature_info_sized((model), (signature), (info), \
					 sizeof(*(info)))

/*
 * Input or output `index` of a signature: *name its name in the signature
 * (borrowed, valid while the model is open; "" when the file gives none)
 * and *tensor the index of its tensor in the signature's subgraph (for
 * subgraph 0, the index opver_interpreter_tensor takes).
 * OPVER_ERROR_INVALID_ARGUMENT when either index is out of range.
 */
OPVER_API opver_status opver_model_signature_input(const opver_model *model,
						   size_t signature,
						   size_t index,
						   const char **name,
						   int32_t *tensor);
OPVER_API opver_status opver_model_signature_output(const opver_model *model,
						    size_t signature,
						    size_t index,
						    const char **name,
						    int32_t *tensor);

/*
 * Resolves every node to a kernel or delegate, prepares every node and
 * partition, then plans and allocates the arena.  Fails with
 * OPVER_ERROR_UNRESOLVED, after reporting every node that no kernel
 * handles, when the model needs an op version no plugin has; with
 * OPVER_ERROR_MODEL_REJECTED when a kernel's or delegate's prepare found
 * the model invalid (its message says why); with OPVER_ERROR_NOMEM when
 * a tensor or the arena would exceed its limit (max_tensor_bytes,
 * max_arena_bytes) or memory runs out;
 * with OPVER_ERROR_PLUGIN when a plugin failed otherwise.
 * The caller owns *interpreter; release with opver_interpreter_destroy().
 * The runtime and model must outlive it.
 */
OPVER_API opver_status opver_interpreter_create(opver_runtime *runtime,
						const opver_model *model,
						opver_interpreter **interpreter);

/* What an opver_trace_event times. */
enum {
	OPVER_TRACE_NODE = 0,           /* a node on its kernel */
	OPVER_TRACE_PARTITION = 1,      /* a delegate partition */
	OPVER_TRACE_EVENT = 2,          /* a plugin's profile event */
	OPVER_TRACE_TASKS = 3           /* one thread's share of a
					 * parallel_for */
};

/* One interval of one invoke, for a trace (opver_interpreter_options.trace).
 * Fields appended later are read only when struct_size covers them. */
typedef struct opver_trace_event {
	uint32_t struct_size;
	int32_t kind;                   /* OPVER_TRACE_* */
	/* The node, or the first node of the partition it ran in. */
	int32_t node;
	/* The delegate partition, or -1. */
	int32_t partition;
	/* Nesting of an EVENT inside its node or partition: 0 directly
	 * inside, 1 inside another event...; 0 for the other kinds. */
	int32_t depth;
	/* The thread of the interpreter's pool: 0 for the thread calling
	 * invoke, 1 to threads - 1 for the workers. */
	uint32_t thread;
	/* CLOCK_MONOTONIC, in nanoseconds. */
	uint64_t start_ns;
	uint64_t duration_ns;
	/* An EVENT's name, borrowed from the plugin (valid until the runtime
	 * is destroyed); NULL for the other kinds. */
	const char *name;
} opver_trace_event;
OPVER_ABI_ENDS_AT(opver_trace_event, name);

/* Receives each interval of an invoke once it has ended (an event before
 * the one enclosing it), on the thread calling opver_interpreter_invoke,
 * during that call.  `event` is valid only during the call. */
typedef void (*opver_trace_fn)(void *user_data,
			       const opver_trace_event *event);

typedef struct opver_interpreter_options {
	uint32_t struct_size;
	/*
	 * Bind nodes and stop: no arena, no kernel is prepared, and a node no
	 * kernel handles (still reported) does not fail creation but is left
	 * unbound (plugin, kernel and delegate NULL in its node info).  Such
	 * an interpreter answers node_info and memory queries; its tensors
	 * have no data and invoke fails.  For checking and explaining a model.
	 * 1 for that, 0 for a full interpreter.
	 */
	int32_t inspect_only;
	/* Threads of the interpreter's pool, the calling thread included;
	 * 0 takes the runtime's (config key threads, default 1). */
	uint32_t threads;
	/* 1 attaches a profiler: the profile events kernels and delegates
	 * report are recorded (opver_interpreter_profile_event_info). */
	int32_t profile;
	/*
	 * 1: resolve, prepare every node and partition and
	 * plan the arena (checking max_arena_bytes), but allocate no arena.
	 * Creation fails as a full interpreter's would (UNRESOLVED,
	 * MODEL_REJECTED, NOMEM), so this checks that a model can run
	 * without the memory to run it.  Such an interpreter answers
	 * node_info and memory queries; its tensors have no data and invoke
	 * fails.  Ignored with inspect_only.  0 for a full interpreter.
	 */
	int32_t prepare_only;
	/*
	 * The most bytes the activation arena (tensors and scratch) may
	 * take, together with the arenas of the subgraphs IF, WHILE and
	 * CALL_ONCE call and, since ABI 2.4, what the interpreter and those
	 * subgraphs take while invoking: the buffers of tensors shaped at
	 * invoke, the scratch and persistent memory of kernels prepared at
	 * invoke, and resource variables' values
	 * (opver_interpreter_memory_in_use()).  Creation fails with
	 * OPVER_ERROR_NOMEM, naming the bytes needed and allowed, when the
	 * plans need more; an invoke fails, naming the limit and what
	 * asked, when what it asks for would pass it (OPVER_ERROR_PLUGIN
	 * when a kernel asked, OPVER_ERROR_NOMEM for a resource variable's
	 * value), and the next invoke may run with other values.  0 takes
	 * the runtime's (config key max_arena_bytes), else
	 * OPVER_DEFAULT_MAX_ARENA_BYTES.
	 */
	uint64_t max_arena_bytes;
	/*
	 * Appended after ABI 2.0 (a caller built against 2.0 passes a
	 * struct_size that ends before it and gets the default).
	 * The most bytes any one tensor of the model may take; creation
	 * fails with OPVER_ERROR_NOMEM, naming the tensor, before any
	 * kernel prepares or any arena is planned.  A resource
	 * variable's value, a copy of one of the model's tensors, is
	 * within it too.  Not checked with
	 * inspect_only.  0 takes the runtime's (config key
	 * max_tensor_bytes), else OPVER_DEFAULT_MAX_TENSOR_BYTES.
	 */
	uint64_t max_tensor_bytes;
	/*
	 * Appended in ABI 2.2 (a caller built against 2.1 passes a
	 * struct_size that ends before it and gets the default).
	 * Called with every node's, partition's and profile event's
	 * interval of every invoke, and each pool thread's share of every
	 * parallel_for (opver_trace_fn says when and on which thread), to
	 * write a trace; it attaches a profiler as `profile` does.  It must
	 * not call back into the interpreter.  NULL (the default) traces
	 * nothing.  `trace_user_data` is passed through, borrowed; both
	 * must stay valid until the interpreter is destroyed.
	 */
	opver_trace_fn trace;
	void *trace_user_data;
	/*
	 * Appended in ABI 2.2.
	 * 1: no tensor reuses another's memory, so after an invoke every
	 * tensor a kernel wrote still holds its value
	 * (opver_interpreter_tensor), for comparing and dumping them.  The
	 * arena grows towards one buffer per tensor.  Tensors inside a
	 * delegate partition hold what the delegate wrote there, usually
	 * nothing.  0 (the default) lets tensors share memory.  64 bits wide
	 * so that the struct ends without padding (the append rule).
	 */
	int64_t preserve_intermediates;
	/*
	 * Appended in ABI 2.3.
	 * The subgraph the interpreter runs: its inputs, outputs, tensors
	 * and nodes are what the interpreter's queries and invoke see.  A
	 * signature runs on its own subgraph (opver_signature_info's
	 * `subgraph`).  0 (the default) is the model's main subgraph; one
	 * out of range fails creation with OPVER_ERROR_INVALID_ARGUMENT.
	 * 64 bits wide, as the field before it.
	 */
	int64_t subgraph;
	/*
	 * Appended in ABI 2.3.
	 * The most passes WHILE bodies may make in one invoke, every WHILE
	 * node of every subgraph counted together (nested loops do not
	 * multiply it); a WHILE whose cond still holds when the count is
	 * reached fails the invoke with OPVER_ERROR, naming the node.  For models from untrusted
	 * sources, whose loops may never end.  0 (the default): no limit,
	 * as in TFLite.
	 */
	uint64_t max_loop_iterations;
} opver_interpreter_options;
OPVER_ABI_ENDS_AT(opver_interpreter_options, max_loop_iterations);

/* The arena limit when neither the options nor the config set one: 4 GiB. */
#define OPVER_DEFAULT_MAX_ARENA_BYTES (UINT64_C(4) << 30)
/* The tensor limit when neither the options nor the config set one:
 * 2 GiB. */
#define OPVER_DEFAULT_MAX_TENSOR_BYTES (UINT64_C(2) << 30)

/* Defaults for opver_interpreter_options: a full interpreter with the
 * runtime's threads and arena limit and no profiler.  Writes only `size`
 * bytes. */
OPVER_API void opver_interpreter_options_init_sized(
	opver_interpreter_options *options, size_t size);
#define opver_interpreter_options_init(options) \
	opver_interpreter_options_init_sized((options), sizeof(*(options)))

/* opver_interpreter_create() with options; NULL options are the defaults.
 * Ownership as there. */
OPVER_API opver_status opver_interpreter_create_with_options(
	opver_runtime *runtime, const opver_model *model,
	const opver_interpreter_options *options,
	opver_interpreter **interpreter);
OPVER_API void opver_interpreter_destroy(opver_interpreter *interpreter);

OPVER_API size_t opver_interpreter_input_count(const opver_interpreter *it);
OPVER_API size_t opver_interpreter_output_count(const opver_interpreter *it);
/*
 * Borrowed; valid until the interpreter is destroyed.  Write inputs' data
 * before invoke; read outputs' data after it.  NULL when out of range.
 * Since ABI 2.4 an output whose shape follows from input values (a
 * RESHAPE to a computed shape, FILL with input dims: dynamic, as TFLite
 * calls it) gets its rank, dims, bytes and data at each invoke: read them
 * after the invoke, through this same tensor; they stay valid until the
 * next invoke (before the first one data is NULL).  Such a tensor lives
 * outside the arena, in a buffer of its own that counts, with the arenas,
 * against max_arena_bytes (and alone against max_tensor_bytes): a shape
 * past them fails that invoke with OPVER_ERROR_PLUGIN, naming the limit,
 * and the next invoke may run with other values.
 */
OPVER_API opver_tensor *opver_interpreter_input(opver_interpreter *it,
						size_t index);
OPVER_API const opver_tensor *opver_interpreter_output(const opver_interpreter *it,
						       size_t index);

OPVER_API opver_status opver_interpreter_invoke(opver_interpreter *it);

/*
 * Any tensor of the model by its index in the model's tensor list (a
 * node's inputs and outputs in opver_node_info): constants, inputs,
 * outputs and intermediates.  An intermediate's data holds its value after
 * an invoke only with options.preserve_intermediates; otherwise a later
 * tensor may have reused its bytes.  Borrowed; valid until the interpreter
 * is destroyed.  NULL when out of range.
 */
OPVER_API size_t opver_interpreter_tensor_count(const opver_interpreter *it);
OPVER_API const opver_tensor *opver_interpreter_tensor(
	const opver_interpreter *it, size_t index);

/* How a node was bound, for --explain and profiling. */
typedef struct opver_node_info {
	uint32_t struct_size;
	int32_t index;
	int32_t op;
	int32_t version;
	/* The version TensorFlow Lite's rules require of the node's tensor
	 * types and parameters; the model is inconsistent when it is above
	 * `version`. */
	int32_t required_version;
	/* The version the node was resolved at: `version`, or with the
	 * runtime's strict_versions the larger of it and required_version. */
	int32_t resolved_version;
	int32_t num_inputs;
	/* 1 when a lower-priority kernel was used because the preferred
	 * plugin does not cover this version. */
	int32_t fallback;
	/* The delegate partition running the node, or -1. */
	int32_t partition;
	/* Total time spent in invoke for this node, and how many invokes
	 * (for a delegated node: its partition's time). */
	uint64_t total_ns;
	uint64_t invocations;
	/* Borrowed; valid until the interpreter is destroyed. */
	const char *custom_name;
	/* Why: which tensor type or parameter decided required_version.
	 * Borrowed; valid until the interpreter is destroyed. */
	const char *version_reason;
	/* Type of each input; -1 for an omitted optional input. */
	const int32_t *input_types;
	/* The plugin (config name) and kernel chosen; kernel is NULL when a
	 * delegate runs the node, all three NULL when an inspect-only
	 * interpreter could not bind it. */
	const char *plugin;
	const char *kernel;
	const char *delegate;
} opver_node_info;
OPVER_ABI_ENDS_AT(opver_node_info, delegate);

OPVER_API size_t opver_interpreter_node_count(const opver_interpreter *it);
OPVER_API opver_status opver_interpreter_node_info_sized(
	const opver_interpreter *it, size_t node, opver_node_info *info,
	size_t size);
#define opver_interpreter_node_info(it, node, info) \
	opver_interpreter_node_info_sized((it), (node), (info), sizeof(*(info)))

/* Appended in ABI 2.2.  A node's tensors, as indices for
 * opver_interpreter_tensor: *num_inputs inputs (-1 for an omitted optional
 * one) and *num_outputs outputs, both arrays borrowed and valid until the
 * interpreter is destroyed.  OPVER_ERROR_INVALID_ARGUMENT when `node` is out
 * of range. */
OPVER_API opver_status opver_interpreter_node_tensors(
	const opver_interpreter *it, size_t node, const int32_t **inputs,
	int32_t *num_inputs, const int32_t **outputs, int32_t *num_outputs);

/*
 * A profile event a kernel or delegate reported inside a node or partition
 * (profile_begin/profile_end in plugin.h), totalled over invokes.  Recorded
 * only by an interpreter created with options.profile.
 */
typedef struct opver_profile_event_info {
	uint32_t struct_size;
	/* The node whose kernel reported it, or the first node of the
	 * partition whose delegate did. */
	int32_t node;
	/* The delegate partition, or -1 for a kernel's event. */
	int32_t partition;
	/* 0 for an event directly inside its node or partition, 1 inside
	 * another event, and so on. */
	int32_t depth;
	uint64_t total_ns;
	uint64_t count;
	/* Borrowed from the plugin; valid until the runtime is destroyed. */
	const char *name;
} opver_profile_event_info;
OPVER_ABI_ENDS_AT(opver_profile_event_info, name);

/* Events grouped by node, each after the event enclosing it. */
OPVER_API size_t opver_interpreter_profile_event_count(
	const opver_interpreter *it);
OPVER_API opver_status opver_interpreter_profile_event_info_sized(
	const opver_interpreter *it, size_t event,
	opver_profile_event_info *info, size_t size);
#define opver_interpreter_profile_event_info(it, event, info)      \
	opver_interpreter_profile_event_info_sized((it), (event), (info), \
						   sizeof(*(info)))

/* The threads of the interpreter's pool, the calling thread included. */
OPVER_API uint32_t opver_interpreter_threads(const opver_interpreter *it);

/* Bytes of the planned activation arena, and what one buffer per tensor
 * would have needed: this interpreter's arena only (what the called
 * subgraphs and invoking add: opver_interpreter_memory_in_use()). */
OPVER_API void opver_interpreter_memory(const opver_interpreter *it,
					size_t *arena_bytes,
					size_t *naive_bytes);

/*
 * Appended in ABI 2.4 (libopver -version-info 5).  The bytes counted
 * against max_arena_bytes now by the interpreter and the interpreters of
 * the subgraphs IF, WHILE and CALL_ONCE call
 * (opver_interpreter_options.max_arena_bytes says what counts), and in
 * *limit, when not NULL, max_arena_bytes itself.  After
 * an invoke it includes what that invoke left allocated (the buffers of
 * tensors shaped at invoke, the memory of kernels prepared at invoke,
 * resource variables' values); 0 for an inspect-only interpreter.
 */
OPVER_API uint64_t opver_interpreter_memory_in_use(const opver_interpreter *it,
						   uint64_t *limit);

/*
 * Appended in ABI 2.2.  Sets every variable tensor (is_variable in the
 * model: the state of SVDF, LSTM and RNN layers), those of the subgraphs
 * IF, WHILE and CALL_ONCE call too, back to real 0 (an int8 tensor's
 * zero point, zeros for other types), the state a new interpreter starts
 * from, as TFLite's ResetVariableTensors does.
 * Variable tensors otherwise keep their values from one invoke to the
 * next.  OPVER_ERROR_INVALID_ARGUMENT for an inspect-only interpreter.
 *
 * Resource variables (VAR_HANDLE, ASSIGN_VARIABLE) are the other kind of
 * state a model keeps, usually given its first value by a subgraph that
 * CALL_ONCE runs.  Reset takes them back to a new interpreter's state
 * too: every resource variable forgets its value and every CALL_ONCE runs
 * its subgraph again at the next invoke.  TFLite's ResetVariableTensors
 * leaves both alone, so a model whose state lives in resource variables
 * cannot be reset there short of a new interpreter; here one call starts
 * every model over, whichever kind of state it keeps.
 */
OPVER_API opver_status opver_interpreter_reset_variables(
	opver_interpreter *it);

/*
 * Appended in ABI 2.3 (libopver -version-info 4).  Gives model input
 * `input` the shape dims[0, rank) (copied), as TFLite's
 * ResizeInputTensor: usually a new batch size.  The input's rank, dims
 * and bytes change at once and its data becomes NULL; the shapes reach
 * the rest of the model only when opver_interpreter_allocate_tensors()
 * re-prepares, and invoke refuses to run until then, so resize every
 * input first, then allocate, then write the inputs.  Every dimension
 * must be at least 1.  OPVER_ERROR_INVALID_ARGUMENT, reported, for an
 * index out of range, a dimension below 1, an inspect-only interpreter,
 * or any shape but the model's for an input the model gives values (a
 * buffer); OPVER_ERROR_NOMEM past the interpreter's max_tensor_bytes.
 * Giving the shape the input already has changes nothing.
 */
OPVER_API opver_status opver_interpreter_resize_input(opver_interpreter *it,
						      size_t input,
						      const int32_t *dims,
						      int32_t rank);

/*
 * Appended in ABI 2.3 (libopver -version-info 4).  After
 * opver_interpreter_resize_input(), as TFLite's AllocateTensors: frees
 * what every kernel's init and prepare made, runs init and prepare again
 * with the new input shapes (kernels give their outputs the shapes that
 * follow through resize_output), plans a new arena and points every
 * tensor into it.  With delegates, their partitions are freed, the
 * claims run again on the new shapes (which nodes a delegate takes may
 * change) and new partitions are built for them (plugin.h, "Resized
 * inputs"): a node a delegate runs must have a kernel too, which gives
 * its outputs their shapes, or the resize is refused naming the node and
 * the delegate.  Tensor dims (outputs' too) then have the new shapes;
 * data and dims pointers from before are invalid, inputs hold zeros and
 * variable tensors are reset; nodes' times and invocations and profile
 * events count again from zero.  OPVER_OK and nothing done when no input
 * was resized since the last allocation.  A kernel or delegate partition
 * that refuses the new shapes is reported naming its node and kernel (or
 * delegate) and gives
 * OPVER_ERROR_INVALID_ARGUMENT (OPVER_ERROR_NOMEM past the memory
 * limits); the interpreter then stays unallocated, invoke refuses, and
 * resizing the inputs back and allocating again makes it usable.
 */
OPVER_API opver_status opver_interpreter_allocate_tensors(
	opver_interpreter *it);

/* Names, never NULL: "OK", "FULLY_CONNECTED", "INT8".  Unknown values give
 * "UNKNOWN".  Static strings. */
OPVER_API const char *opver_status_name(opver_status status);
OPVER_API const char *opver_status_message(opver_status status);
OPVER_API const char *opver_op_name(int32_t op);
OPVER_API const char *opver_type_name(int32_t type);
/* Bytes per element of a type; 0 for types without a fixed size. */
OPVER_API size_t opver_type_size(int32_t type);
/* "error", "warning", "info", "debug"; "unknown" otherwise.  Static. */
OPVER_API const char *opver_log_level_name(int level);
/* The level a name (any case) stands for, or -1. */
OPVER_API int opver_log_level_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* OPVER_OPVER_H */
