/*
 * kernel_harness.c - loads a built plugin with dlopen, lends its kernels a
 * fake opver_host that records what they report and what they allocate, and
 * builds tensors and nodes from test arrays so that a kernel's prepare and
 * invoke run exactly as under the core.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "host.h"
#include "kernel_harness.h"
#include "opver/opver.h"

/* One harness allocation; the payload is sized exactly as asked. */
struct kh_block {
	struct kh_block *next;
	max_align_t payload[];
};

struct kh_node {
	opver_node node; /* first, so a node handed out maps back to this */
	const opver_kernel *kernel;
	bool initialized; /* the kernel's init ran: free must run too */
	struct kh_node *next;
};

static kernel_harness *harness_of(const opver_host *host)
{
	return host->core;
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

static void fake_report_error(const opver_host *host, const char *format,
			      ...) OPVER__PRINTF(2, 3);
static void fake_log(const opver_host *host, opver_log_level level,
		     const char *format, ...) OPVER__PRINTF(3, 4);

static void fake_report_error(const opver_host *host, const char *format,
			      ...)
{
	kernel_harness *h = harness_of(host);
	va_list args;

	va_start(args, format);
	append_line(h->errors, sizeof(h->errors), format, args);
	va_end(args);
	h->num_errors++;
}

static void fake_log(const opver_host *host, opver_log_level level,
		     const char *format, ...)
{
	kernel_harness *h = harness_of(host);
	va_list args;

	(void)level;
	va_start(args, format);
	append_line(h->log, sizeof(h->log), format, args);
	va_end(args);
}

/* The core's own host services: the fake wraps their allocation, so
 * kernels meet the real allocator and the harness only counts. */
static opver__host core_host;

static void *fake_allocate(const opver_host *host, size_t bytes)
{
	kernel_harness *h = harness_of(host);
	void *memory = core_host.services.allocate(&core_host.services, bytes);

	if (memory != NULL)
		h->live_allocations++;
	return memory;
}

static void fake_free_memory(const opver_host *host, void *memory)
{
	kernel_harness *h = harness_of(host);

	if (memory == NULL)
		return;
	h->live_allocations--;
	core_host.services.free_memory(&core_host.services, memory);
}

/* Zeroed memory of exactly `bytes` owned by the harness; NULL for 0. */
static void *kh_alloc(kernel_harness *h, size_t bytes)
{
	struct kh_block *block;

	if (bytes == 0)
		return NULL;
	block = calloc(1, sizeof(*block) + bytes);
	cr_assert_not_null(block, "kernel harness: out of memory");
	block->next = h->blocks;
	h->blocks = block;
	return block->payload;
}

/* Exactly `bytes` (so sanitizers see overruns), freed by kh_close as the
 * core frees persistent memory with the interpreter. */
static void *fake_allocate_persistent(const opver_host *host, size_t bytes)
{
	kernel_harness *h = harness_of(host);

	if (!h->preparing) {
		fake_report_error(host, "allocate_persistent called outside prepare");
		return NULL;
	}
	return kh_alloc(h, bytes ? bytes : 1);
}

static void *kh_copy(kernel_harness *h, const void *source, size_t bytes)
{
	void *copy = kh_alloc(h, bytes);

	if (copy != NULL && source != NULL)
		memcpy(copy, source, bytes);
	return copy;
}

void kh_open(kernel_harness *h, const char *path)
{
	opver_plugin_entry_fn entry;
	opver_status status;

	memset(h, 0, sizeof(*h));
	opver__host_init(&core_host, NULL);
	h->host.struct_size = sizeof(h->host);
	h->host.abi_major = OPVER_ABI_MAJOR;
	h->host.abi_minor = OPVER_ABI_MINOR;
	h->host.core = h;
	h->host.report_error = fake_report_error;
	h->host.log = fake_log;
	h->host.allocate = fake_allocate;
	h->host.free_memory = fake_free_memory;
	h->host.allocate_persistent = fake_allocate_persistent;

	/* As the core loads plugins: every symbol resolved now, none shared. */
	h->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(h->handle, "dlopen %s: %s", path, dlerror());
	entry = (opver_plugin_entry_fn)dlsym(h->handle,
					    OPVER_PLUGIN_ENTRY_NAME);
	cr_assert_not_null(entry, "%s exports no %s", path,
			   OPVER_PLUGIN_ENTRY_NAME);
	h->plugin = entry();
	cr_assert_not_null(h->plugin, "%s returned no descriptor", path);
	cr_assert(h->plugin->abi_major == OPVER_ABI_MAJOR &&
			  h->plugin->abi_minor <= OPVER_ABI_MINOR,
		  "%s has ABI %u.%u; this build is %u.%u", path,
		  (unsigned)h->plugin->abi_major,
		  (unsigned)h->plugin->abi_minor, (unsigned)OPVER_ABI_MAJOR,
		  (unsigned)OPVER_ABI_MINOR);
	cr_assert_geq(h->plugin->struct_size, sizeof(opver_plugin),
		      "%s has a descriptor older than its headers", path);
	if (h->plugin->init != NULL) {
		status = h->plugin->init(&h->host, NULL, 0, &h->plugin_data);
		cr_assert_eq(status, OPVER_OK, "%s: init failed: %s", path,
			     h->errors);
	}
}

void kh_close(kernel_harness *h)
{
	struct kh_node *node;
	struct kh_block *block;

	for (node = h->nodes; node != NULL; node = node->next)
		if (node->initialized && node->kernel->free != NULL)
			node->kernel->free(&h->host, node->node.kernel_data);
	if (h->plugin != NULL && h->plugin->fini != NULL)
		h->plugin->fini(&h->host, h->plugin_data);
	if (h->handle != NULL)
		dlclose(h->handle);
	while (h->blocks != NULL) {
		block = h->blocks;
		h->blocks = block->next;
		free(block);
	}
	h->nodes = NULL;
	h->plugin = NULL;
	h->handle = NULL;
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

opver_tensor *kh_tensor(kernel_harness *h, const char *name, opver_type type,
			int32_t rank, const int32_t *dims, const void *data)
{
	opver_tensor *tensor = kh_alloc(h, sizeof(*tensor));

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

opver_status kh_prepare(kernel_harness *h, opver_node *node)
{
	struct kh_node *n = (struct kh_node *)node;
	opver_status status;

	if (!n->initialized && n->kernel->init != NULL) {
		status = n->kernel->init(&h->host, h->plugin_data,
					 &node->kernel_data);
		if (status != OPVER_OK)
			return status;
		n->initialized = true;
	}
	h->preparing = true;
	status = n->kernel->prepare(&h->host, node);
	h->preparing = false;
	return status;
}

opver_status kh_invoke(kernel_harness *h, opver_node *node)
{
	const struct kh_node *n = (const struct kh_node *)node;

	return n->kernel->invoke(&h->host, node);
}

opver_status kh_run(kernel_harness *h, opver_node *node)
{
	opver_status status = kh_prepare(h, node);

	return status == OPVER_OK ? kh_invoke(h, node) : status;
}

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

void kh_expect_rejected(kernel_harness *h, opver_node *node,
			opver_status status, const char *text)
{
	cr_assert_eq(kh_prepare(h, node), status, "got: %s", h->errors);
	cr_expect_eq(h->num_errors, 1, "messages: %s", h->errors);
	cr_expect(kh_error_contains(h, text), "wanted '%s' in: %s", text,
		  h->errors);
}
