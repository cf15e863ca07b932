/*
 * kernel_harness.c - loads a built plugin with dlopen, negotiates with it,
 * lends its kernels a fake opver_host that records what they report and
 * allocate and checks when they call each service, and builds tensors and
 * nodes from test arrays so that a kernel's prepare and invoke run exactly
 * as under the core.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"
#include "opver/opver.h"

/* What the core promises of host memory and scratch. */
#define KH_ALIGNMENT 64
/* What scratch holds when an invoke starts: anything but zeros. */
#define KH_SCRATCH_JUNK 0xA5

/* One harness allocation, KH_ALIGNMENT-aligned and sized exactly as
 * asked. */
struct kh_block {
	struct kh_block *next;
	void *memory;
};

/* The callback a context is handed to: what each service may do. */
typedef enum kh_phase {
	KH_PLUGIN, /* plugin init and fini, and tests calling helpers */
	KH_INIT,   /* a kernel's init or free */
	KH_PREPARE,
	KH_INVOKE
} kh_phase;

/* One scratch buffer a node requested, by index in its list. */
struct kh_scratch {
	void *memory;
	size_t bytes;
};

struct kh_node {
	opver_node node; /* first, so a node handed out maps back to this */
	const opver_kernel *kernel;
	bool initialized; /* the kernel's init ran: free must run too */
	/* What prepare requested; owned by the harness's blocks. */
	struct kh_scratch *scratch;
	int32_t num_scratch;
	struct kh_node *next;
};

/* What a context stands for.  The context comes first, so the context a
 * service is given maps back to the call. */
struct kh_call {
	opver_context ctx;
	kernel_harness *h;
	struct kh_node *node; /* NULL for plugin-wide calls */
	kh_phase phase;
};

static struct kh_call *call_of(const opver_context *ctx)
{
	return (struct kh_call *)ctx;
}

static struct kh_call make_call(kernel_harness *h, struct kh_node *node,
				kh_phase phase)
{
	return (struct kh_call){
		.ctx = { .struct_size = sizeof(opver_context),
			 .host = &h->host,
			 .plugin_data = h->plugin_data },
		.h = h,
		.node = node,
		.phase = phase,
	};
}

/* Appends one line to a NUL-terminated buffer, truncating when full. */
static void append_line(char *buffer, size_t size, const char *format,
			va_list args) OPVER__PRINTF(3, 0);

static void append_line(char *buffer, size_t size, const char *format,
			va_list args)
{
	size_t used = strlen(buffer);

	if (used + 1 >= size)
		return;
	vsnprintf(buffer + used, size - used, format, args);
	used = strlen(buffer);
	if (used + 1 < size) {
		buffer[used] = '\n';
		buffer[used + 1] = '\0';
	}
}

/* Records one error line: a kernel's report, a misused service, or why
 * the plugin declined. */
static void record_error_v(kernel_harness *h, const char *format,
			   va_list args) OPVER__PRINTF(2, 0);
static void record_error(kernel_harness *h, const char *format, ...)
	OPVER__PRINTF(2, 3);

static void record_error_v(kernel_harness *h, const char *format,
			   va_list args)
{
	append_line(h->errors, sizeof(h->errors), format, args);
	h->num_errors++;
}

static void record_error(kernel_harness *h, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	record_error_v(h, format, args);
	va_end(args);
}

/* Records, as the kernel's error, a service called where it may not be;
 * true when the call is misplaced. */
static bool misplaced(const opver_context *ctx, bool allowed,
		      const char *service, const char *where)
{
	if (allowed)
		return false;
	record_error(call_of(ctx)->h, "%s called %s", service, where);
	return true;
}

/* ---------------------------------------------------------- memory */

/* Zeroed memory of exactly `bytes`, aligned as the core aligns, owned by
 * the harness until kh_close; NULL for 0 bytes. */
static void *kh_alloc(kernel_harness *h, size_t bytes)
{
	struct kh_block *block;

	if (bytes == 0)
		return NULL;
	block = calloc(1, sizeof(*block));
	cr_assert_not_null(block, "kernel harness: out of memory");
	cr_assert_eq(posix_memalign(&block->memory, KH_ALIGNMENT, bytes), 0,
		     "kernel harness: out of memory for %zu bytes", bytes);
	memset(block->memory, 0, bytes);
	block->next = h->blocks;
	h->blocks = block;
	return block->memory;
}

static void *kh_copy(kernel_harness *h, const void *source, size_t bytes)
{
	void *copy = kh_alloc(h, bytes);

	if (copy != NULL && source != NULL)
		memcpy(copy, source, bytes);
	return copy;
}

static void *fake_allocate(const opver_context *ctx, size_t bytes)
{
	struct kh_call *call = call_of(ctx);
	/* aligned_alloc wants a multiple of the alignment. */
	const size_t rounded = (bytes + KH_ALIGNMENT - 1) / KH_ALIGNMENT *
			       KH_ALIGNMENT;
	void *memory;

	if (misplaced(ctx, call->phase != KH_INVOKE, "allocate",
		      "during invoke"))
		return NULL;
	memory = aligned_alloc(KH_ALIGNMENT, rounded ? rounded : KH_ALIGNMENT);
	if (memory == NULL)
		return NULL;
	memset(memory, 0, rounded);
	call->h->live_allocations++;
	return memory;
}

static void fake_free_memory(const opver_context *ctx, void *memory)
{
	struct kh_call *call = call_of(ctx);

	if (memory == NULL ||
	    misplaced(ctx, call->phase != KH_INVOKE, "free_memory",
		      "during invoke"))
		return;
	call->h->live_allocations--;
	free(memory);
}

/* Exactly `bytes` (so sanitizers see overruns), freed by kh_close as the
 * core frees persistent memory with the interpreter. */
static void *fake_allocate_persistent(const opver_context *ctx, size_t bytes)
{
	struct kh_call *call = call_of(ctx);

	if (misplaced(ctx, call->phase == KH_PREPARE, "allocate_persistent",
		      "outside prepare"))
		return NULL;
	return kh_alloc(call->h, bytes ? bytes : 1);
}

/* A buffer per request, of exactly `bytes`, kept with the node. */
static opver_status fake_request_scratch(const opver_context *ctx,
					 size_t bytes, int32_t *index)
{
	struct kh_call *call = call_of(ctx);
	struct kh_node *node = call->node;
	struct kh_scratch *grown;

	if (misplaced(ctx, call->phase == KH_PREPARE, "request_scratch",
		      "outside prepare"))
		return OPVER_ERROR_INVALID_ARGUMENT;
	/* The old list stays among the harness's blocks until kh_close. */
	grown = kh_alloc(call->h, (size_t)(node->num_scratch + 1) *
					  sizeof(*grown));
	if (node->num_scratch > 0)
		memcpy(grown, node->scratch,
		       (size_t)node->num_scratch * sizeof(*grown));
	grown[node->num_scratch] = (struct kh_scratch){
		.memory = kh_alloc(call->h, bytes ? bytes : 1),
		.bytes = bytes,
	};
	node->scratch = grown;
	*index = node->num_scratch++;
	return OPVER_OK;
}

static void *fake_scratch(const opver_context *ctx, int32_t index)
{
	struct kh_call *call = call_of(ctx);

	if (misplaced(ctx, call->phase == KH_INVOKE, "scratch",
		      "outside invoke"))
		return NULL;
	if (index < 0 || index >= call->node->num_scratch) {
		record_error(call->h,
			     "scratch %d was never requested by this node",
			     (int)index);
		return NULL;
	}
	return call->node->scratch[index].memory;
}

/* ------------------------------------------------- the other services */

static void fake_report_error(const opver_context *ctx, const char *format,
			      ...) OPVER__PRINTF(2, 3);
static void fake_log(const opver_context *ctx, int32_t level,
		     const char *format, ...) OPVER__PRINTF(3, 4);

static void fake_report_error(const opver_context *ctx, const char *format,
			      ...)
{
	va_list args;

	va_start(args, format);
	record_error_v(call_of(ctx)->h, format, args);
	va_end(args);
}

static void fake_log(const opver_context *ctx, int32_t level,
		     const char *format, ...)
{
	kernel_harness *h = call_of(ctx)->h;
	va_list args;

	(void)level;
	va_start(args, format);
	append_line(h->log, sizeof(h->log), format, args);
	va_end(args);
}

static uint32_t fake_thread_count(const opver_context *ctx)
{
	(void)ctx;
	return 1;
}

/* One thread: every task on the calling thread, in order. */
static void fake_parallel_for(const opver_context *ctx, opver_task_fn fn,
			      void *arg, uint32_t count)
{
	(void)ctx;
	for (uint32_t task = 0; task < count; task++)
		fn(arg, task, 0);
}

/* No profiler is attached. */
static uint32_t fake_profile_begin(const opver_context *ctx, const char *name)
{
	(void)name;
	misplaced(ctx, call_of(ctx)->phase == KH_INVOKE, "profile_begin",
		  "outside invoke");
	return 0;
}

static void fake_profile_end(const opver_context *ctx, uint32_t handle)
{
	(void)handle;
	misplaced(ctx, call_of(ctx)->phase == KH_INVOKE, "profile_end",
		  "outside invoke");
}

/* Kernels run no partitions, so they have no buffer handles to set. */
static opver_status fake_set_buffer_handle(const opver_context *ctx,
					   const opver_tensor *tensor,
					   uint64_t handle)
{
	(void)ctx;
	(void)tensor;
	(void)handle;
	return OPVER_ERROR_UNSUPPORTED;
}

static const opver_host fake_host = {
	.struct_size = sizeof(opver_host),
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = OPVER_ABI_MINOR,
	.report_error = fake_report_error,
	.log = fake_log,
	.allocate = fake_allocate,
	.free_memory = fake_free_memory,
	.allocate_persistent = fake_allocate_persistent,
	.request_scratch = fake_request_scratch,
	.scratch = fake_scratch,
	.thread_count = fake_thread_count,
	.parallel_for = fake_parallel_for,
	.op_name = opver_op_name,
	.type_name = opver_type_name,
	.profile_begin = fake_profile_begin,
	.profile_end = fake_profile_end,
	.set_buffer_handle = fake_set_buffer_handle,
};

/* ----------------------------------------------------------- loading */

/* The negotiation the entry point is given; first, so that decline's
 * argument maps back to the harness. */
struct kh_negotiation {
	opver_negotiation negotiation;
	kernel_harness *h;
};

static const opver_plugin *fake_decline(const opver_negotiation *negotiation,
					const char *format, ...)
	OPVER__PRINTF(2, 3);

static const opver_plugin *fake_decline(const opver_negotiation *negotiation,
					const char *format, ...)
{
	va_list args;

	va_start(args, format);
	record_error_v(((const struct kh_negotiation *)negotiation)->h, format,
		       args);
	va_end(args);
	return NULL;
}

/* Calls the entry point as the core does and checks the descriptor's ABI
 * as the core's loader does. */
static void negotiate(kernel_harness *h, const char *path)
{
	const struct kh_negotiation offer = {
		.negotiation = { .struct_size = sizeof(opver_negotiation),
				 .host_abi_major = OPVER_ABI_MAJOR,
				 .host_abi_minor = OPVER_ABI_MINOR,
				 .decline = fake_decline },
		.h = h,
	};
	opver_plugin_entry_fn entry;

	entry = (opver_plugin_entry_fn)dlsym(h->handle,
					    OPVER_PLUGIN_ENTRY_NAME);
	cr_assert_not_null(entry, "%s exports no %s", path,
			   OPVER_PLUGIN_ENTRY_NAME);
	h->plugin = entry(&offer.negotiation);
	cr_assert_not_null(h->plugin, "%s declined: %s", path, h->errors);
	cr_assert(h->plugin->abi_major == OPVER_ABI_MAJOR &&
			  h->plugin->min_abi_minor <= OPVER_ABI_MINOR,
		  "%s needs ABI %u.%u; this build is %u.%u", path,
		  (unsigned)h->plugin->abi_major,
		  (unsigned)h->plugin->min_abi_minor,
		  (unsigned)OPVER_ABI_MAJOR, (unsigned)OPVER_ABI_MINOR);
	cr_assert_geq(h->plugin->struct_size, sizeof(opver_plugin),
		      "%s has a descriptor older than its headers", path);
}

void kh_open(kernel_harness *h, const char *path)
{
	opver_status status;

	memset(h, 0, sizeof(*h));
	h->host = fake_host;
	h->plugin_call = kh_alloc(h, sizeof(*h->plugin_call));
	*h->plugin_call = make_call(h, NULL, KH_PLUGIN);
	/* As the core loads plugins: every symbol resolved now, none shared. */
	h->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(h->handle, "dlopen %s: %s", path, dlerror());
	negotiate(h, path);
	if (h->plugin->init != NULL) {
		status = h->plugin->init(kh_context(h), NULL, 0,
					 &h->plugin_data);
		cr_assert_eq(status, OPVER_OK, "%s: init failed: %s", path,
			     h->errors);
		h->plugin_call->ctx.plugin_data = h->plugin_data;
	}
}

const opver_context *kh_context(const kernel_harness *h)
{
	return &h->plugin_call->ctx;
}

void kh_close(kernel_harness *h)
{
	struct kh_node *node;
	struct kh_block *block;

	for (node = h->nodes; node != NULL; node = node->next)
		if (node->initialized && node->kernel->free != NULL) {
			struct kh_call call = make_call(h, node, KH_INIT);

			node->kernel->free(&call.ctx, node->node.kernel_data);
		}
	if (h->plugin != NULL && h->plugin->fini != NULL)
		h->plugin->fini(kh_context(h), h->plugin_data);
	if (h->handle != NULL)
		dlclose(h->handle);
	while (h->blocks != NULL) {
		block = h->blocks;
		h->blocks = block->next;
		free(block->memory);
		free(block);
	}
	h->nodes = NULL;
	h->plugin = NULL;
	h->handle = NULL;
	h->plugin_call = NULL;
	cr_expect_eq(h->live_allocations, 0,
		     "kernels left %ld host allocations unreleased",
		     h->live_allocations);
}

const opver_kernel *kh_kernel(const kernel_harness *h, const char *name)
{
	for (size_t i = 0; i < h->plugin->num_kernels; i++)
		if (strcmp(h->plugin->kernels[i]->name, name) == 0)
			return h->plugin->kernels[i];
	cr_assert_fail("plugin '%s' has no kernel '%s'", h->plugin->name, name);
	return NULL;
}

/* ------------------------------------------------- tensors and nodes */

opver_tensor *kh_tensor(kernel_harness *h, const char *name, opver_type type,
			int32_t rank, const int32_t *dims, const void *data)
{
	opver_tensor *tensor = kh_alloc(h, sizeof(*tensor));

	tensor->struct_size = sizeof(*tensor);
	tensor->type = type;
	tensor->rank = rank;
	tensor->dims = kh_copy(h, dims, (size_t)rank * sizeof(*dims));
	tensor->bytes = opver_tensor_elements(tensor) * opver_type_size(type);
	tensor->data = kh_copy(h, data, tensor->bytes);
	tensor->name = kh_copy(h, name, strlen(name) + 1);
	return tensor;
}

void kh_quantize(kernel_harness *h, opver_tensor *tensor, float scale,
		 int64_t zero_point)
{
	kh_quantize_per_channel(h, tensor, 0, 1, &scale, &zero_point);
}

void kh_quantize_per_channel(kernel_harness *h, opver_tensor *tensor,
			     int32_t axis, int32_t count, const float *scales,
			     const int64_t *zero_points)
{
	tensor->quant.count = count;
	tensor->quant.axis = axis;
	tensor->quant.scale = kh_copy(h, scales, (size_t)count * sizeof(float));
	tensor->quant.zero_point =
		kh_copy(h, zero_points, (size_t)count * sizeof(int64_t));
}

opver_node *kh_node(kernel_harness *h, const opver_kernel *kernel,
		    int32_t version, const void *params, size_t params_size,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    int32_t num_outputs, opver_tensor *const *outputs)
{
	struct kh_node *node = kh_alloc(h, sizeof(*node));

	node->kernel = kernel;
	node->node.struct_size = sizeof(node->node);
	node->node.index = h->num_nodes++;
	node->node.op = kernel->op;
	node->node.custom_name = kernel->custom_name;
	node->node.version = version;
	node->node.resolved_version = version;
	node->node.params_size = params != NULL ? params_size : 0;
	node->node.params = kh_copy(h, params, node->node.params_size);
	node->node.num_inputs = num_inputs;
	node->node.inputs = kh_copy(h, inputs,
				    (size_t)num_inputs * sizeof(*inputs));
	node->node.num_outputs = num_outputs;
	node->node.outputs = kh_copy(h, outputs,
				     (size_t)num_outputs * sizeof(*outputs));
	node->node.op_data = kh_alloc(h, kernel->op_data_size);
	node->next = h->nodes;
	h->nodes = node;
	return &node->node;
}

/* ------------------------------------------------------------- calls */

/*
 * Hides, as the core does during prepare, the data of every non-constant
 * tensor of the node: saved[] gets the inputs' pointers, then the
 * outputs'.  A tensor listed twice is saved twice, the second time as
 * NULL, so restoring in reverse order puts its data back.
 */
static void hide_activations(const opver_node *node, void **saved)
{
	opver_tensor *const *lists[2] = { node->inputs, node->outputs };
	const int32_t counts[2] = { node->num_inputs, node->num_outputs };
	size_t n = 0;

	for (int list = 0; list < 2; list++)
		for (int32_t i = 0; i < counts[list]; i++) {
			opver_tensor *t = lists[list][i];

			saved[n++] = t != NULL ? t->data : NULL;
			if (t != NULL && !t->is_constant)
				t->data = NULL;
		}
}

static void restore_activations(const opver_node *node, void *const *saved)
{
	opver_tensor *const *lists[2] = { node->inputs, node->outputs };
	const int32_t counts[2] = { node->num_inputs, node->num_outputs };
	size_t n = (size_t)node->num_inputs + (size_t)node->num_outputs;

	for (int list = 1; list >= 0; list--)
		for (int32_t i = counts[list] - 1; i >= 0; i--) {
			opver_tensor *t = lists[list][i];

			n--;
			if (t != NULL)
				t->data = saved[n];
		}
}

opver_status kh_prepare(kernel_harness *h, opver_node *node)
{
	struct kh_node *n = (struct kh_node *)node;
	struct kh_call call = make_call(h, n, KH_INIT);
	void **saved;
	opver_status status;

	if (!n->initialized && n->kernel->init != NULL) {
		status = n->kernel->init(&call.ctx, &node->kernel_data);
		if (status != OPVER_OK)
			return status;
		n->initialized = true;
	}
	saved = calloc((size_t)node->num_inputs + (size_t)node->num_outputs + 1,
		       sizeof(*saved));
	cr_assert_not_null(saved, "kernel harness: out of memory");
	hide_activations(node, saved);
	call.phase = KH_PREPARE;
	status = n->kernel->prepare(&call.ctx, node);
	restore_activations(node, saved);
	free(saved);
	return status;
}

opver_status kh_invoke(kernel_harness *h, opver_node *node)
{
	struct kh_node *n = (struct kh_node *)node;
	struct kh_call call = make_call(h, n, KH_INVOKE);

	for (int32_t i = 0; i < n->num_scratch; i++)
		memset(n->scratch[i].memory, KH_SCRATCH_JUNK,
		       n->scratch[i].bytes);
	return n->kernel->invoke(&call.ctx, node);
}

opver_status kh_run(kernel_harness *h, opver_node *node)
{
	opver_status status = kh_prepare(h, node);

	return status == OPVER_OK ? kh_invoke(h, node) : status;
}

/* ------------------------------------------------------ expectations */

bool kh_error_contains(const kernel_harness *h, const char *text)
{
	return strstr(h->errors, text) != NULL;
}

opver_tensor *kh_quantized(kernel_harness *h, const char *name,
			   opver_type type, int32_t rank, const int32_t *dims,
			   const void *data, float scale, int64_t zero_point)
{
	opver_tensor *t = kh_tensor(h, name, type, rank, dims, data);

	kh_quantize(h, t, scale, zero_point);
	return t;
}

void kh_expect_floats(const opver_tensor *tensor, const float *want,
		      size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i], "element %zu: got %.9g, want %.9g",
			  i, (double)got[i], (double)want[i]);
}

void kh_expect_int8s(const opver_tensor *tensor, const int8_t *want,
		     size_t count)
{
	const int8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

void kh_expect_int16s(const opver_tensor *tensor, const int16_t *want,
		      size_t count)
{
	const int16_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

void kh_expect_int32s(const opver_tensor *tensor, const int32_t *want,
		      size_t count)
{
	const int32_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     (int)got[i], (int)want[i]);
}

void kh_expect_rejected(kernel_harness *h, opver_node *node,
			opver_status status, const char *text)
{
	cr_assert_eq(kh_prepare(h, node), status, "got: %s", h->errors);
	cr_expect_eq(h->num_errors, 1, "messages: %s", h->errors);
	cr_expect(kh_error_contains(h, text), "wanted '%s' in: %s", text,
		  h->errors);
}
