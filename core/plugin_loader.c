/*
 * plugin_loader.c - loads one plugin in two steps: the shared object
 * (the file, dlopen, the entry symbol; load_object), then its descriptor
 * (negotiation, the ABI version, normalized copies of the descriptor,
 * kernels and delegate, the manifest checks, the plugin's init;
 * check_descriptor), which a plugin linked into the program goes through
 * alone.  Every check that fails reports one line, "plugin 'FILE' <reason>,
 * not loading", and everything done so far is undone in one place.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_extent.h"
#include "kernel_match.h"
#include "kernel_selection.h"
#include "plugin_loader.h"

/* Counts above these are a corrupt descriptor, not a real manifest. */
#define MAX_KERNELS 4096
#define MAX_SIGNATURES 256
#define MAX_DELEGATE_OPS 4096

/* The size of each struct in ABI 2.0: what every 2.x plugin provides. */
#define PLUGIN_SIZE_2_0 OPVER_SIZE_THROUGH(opver_plugin, delegate)
#define KERNEL_SIZE_2_0 OPVER_SIZE_THROUGH(opver_kernel, invoke)
#define DELEGATE_SIZE_2_0 OPVER_SIZE_THROUGH(opver_delegate, copy_from_handle)
#define DELEGATE_OP_SIZE_2_0 OPVER_SIZE_THROUGH(opver_delegate_op, signatures)

/* The entry point of ABI 1.x, looked up only to name the version of a
 * plugin built for it. */
#define ABI1_ENTRY_NAME "opver_plugin_entry"

static void refuse(const opver__reporter *reporter, const char *path,
		   const char *format, ...) OPVER__PRINTF(3, 4);

static void refuse(const opver__reporter *reporter, const char *path,
		   const char *format, ...)
{
	char reason[768];
	va_list args;

	va_start(args, format);
	vsnprintf(reason, sizeof(reason), format, args);
	va_end(args);
	opver__error(reporter, "plugin '%s' %s, not loading", path, reason);
}

/* Copies min(struct_size, size) bytes of a plugin struct into a zeroed
 * `copy` of the size this core knows. */
static void normalize(void *copy, const void *original, uint32_t struct_size,
		      size_t size)
{
	memset(copy, 0, size);
	memcpy(copy, original, struct_size < size ? struct_size : size);
}

/* "'name'" or, for a kernel without one, "#index". */
static const char *kernel_label(const opver_kernel *kernel, size_t index,
				char *buffer, size_t size)
{
	if (kernel->name != NULL)
		snprintf(buffer, size, "'%s'", kernel->name);
	else
		snprintf(buffer, size, "#%zu", index);
	return buffer;
}

/* "FULLY_CONNECTED" or "CUSTOM 'name'". */
static const char *op_label(int32_t op, const char *custom_name,
			    char *buffer, size_t size)
{
	if (op == OPVER_OP_CUSTOM && custom_name != NULL)
		snprintf(buffer, size, "CUSTOM '%s'", custom_name);
	else
		snprintf(buffer, size, "%s", opver_op_name(op));
	return buffer;
}

/* A custom op needs its name, a builtin one must not have one.  NULL when
 * that holds, else what is wrong. */
static const char *custom_name_problem(int32_t op, const char *custom_name)
{
	if (op == OPVER_OP_CUSTOM && custom_name == NULL)
		return "is for CUSTOM but has no custom_name";
	if (op != OPVER_OP_CUSTOM && custom_name != NULL)
		return "has a custom_name but is for a builtin op";
	return NULL;
}

/* Checks one normalized kernel on its own. */
static bool check_kernel(const opver_kernel *kernel, size_t index,
			 const char *path, const opver__reporter *reporter)
{
	const char *problem = custom_name_problem(kernel->op,
						  kernel->custom_name);
	char label[96];

	kernel_label(kernel, index, label, sizeof(label));
	if (problem != NULL)
		refuse(reporter, path, "has kernel %s that %s", label, problem);
	else if (kernel->name == NULL || kernel->name[0] == '\0')
		refuse(reporter, path,
		       "has kernel %s without a name (names identify kernels in messages and --explain)",
		       label);
	else if (kernel->min_version < 1)
		refuse(reporter, path,
		       "has kernel %s with min_version %d (op versions start at 1)",
		       label, kernel->min_version);
	else if (kernel->min_version > kernel->max_version)
		refuse(reporter, path,
		       "has kernel %s with min_version %d above max_version %d",
		       label, kernel->min_version, kernel->max_version);
	else if (kernel->prepare == NULL || kernel->invoke == NULL)
		refuse(reporter, path,
		       "has kernel %s without the required %s callback", label,
		       kernel->prepare == NULL ? "prepare" : "invoke");
	else if (kernel->init != NULL && kernel->free == NULL)
		refuse(reporter, path,
		       "has kernel %s with init but no free (what init creates would leak)",
		       label);
	else if (kernel->num_signatures > MAX_SIGNATURES)
		refuse(reporter, path,
		       "has kernel %s with %u type signatures (at most %d)",
		       label, kernel->num_signatures, MAX_SIGNATURES);
	else if (kernel->num_signatures > 0 && kernel->signatures == NULL)
		refuse(reporter, path,
		       "has kernel %s with %u type signatures but no signatures array",
		       label, kernel->num_signatures);
	else
		return true;
	return false;
}

/* Two kernels of one plugin with one name, or that could both take one
 * node. */
static bool check_overlaps(const opver_kernel *kernels, size_t count,
			   const char *path, const opver__reporter *reporter)
{
	for (size_t i = 0; i < count; i++) {
		for (size_t j = i + 1; j < count; j++) {
			const opver_kernel *a = &kernels[i], *b = &kernels[j];
			char label_a[96], label_b[96], op[96];

			if (strcmp(a->name, b->name) == 0) {
				refuse(reporter, path,
				       "has two kernels named '%s' (#%zu and #%zu)",
				       a->name, i, j);
				return false;
			}
			if (!opver__kernels_overlap(a, b))
				continue;
			refuse(reporter, path,
			       "has kernels %s and %s that both handle %s versions %d..%d for the same tensor types",
			       kernel_label(a, i, label_a, sizeof(label_a)),
			       kernel_label(b, j, label_b, sizeof(label_b)),
			       op_label(a->op, a->custom_name, op, sizeof(op)),
			       a->min_version > b->min_version ? a->min_version :
								  b->min_version,
			       a->max_version < b->max_version ? a->max_version :
								  b->max_version);
			return false;
		}
	}
	return true;
}

/* Normalizes and checks the kernel manifest into plugin->kernels. */
static opver_status load_kernels(opver__plugin *plugin, const char *path,
				 const opver__reporter *reporter)
{
	const opver_plugin *descriptor = &plugin->descriptor;
	size_t count = descriptor->num_kernels;

	if (count > MAX_KERNELS) {
		refuse(reporter, path, "declares %zu kernels (at most %d)",
		       count, MAX_KERNELS);
		return OPVER_ERROR_PLUGIN;
	}
	if (count > 0 && descriptor->kernels == NULL) {
		refuse(reporter, path,
		       "declares %zu kernels but no kernels array", count);
		return OPVER_ERROR_PLUGIN;
	}
	if (count == 0)
		return OPVER_OK;
	plugin->kernels = calloc(count, sizeof(*plugin->kernels));
	if (plugin->kernels == NULL) {
		refuse(reporter, path, "cannot be loaded: out of memory");
		return OPVER_ERROR_NOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		const opver_kernel *original = descriptor->kernels[i];

		if (original == NULL) {
			refuse(reporter, path, "has a NULL pointer as kernel #%zu",
			       i);
			return OPVER_ERROR_PLUGIN;
		}
		if (original->struct_size < KERNEL_SIZE_2_0) {
			refuse(reporter, path,
			       "has kernel #%zu with struct_size %u, smaller than the %zu bytes of ABI 2.0",
			       i, original->struct_size, KERNEL_SIZE_2_0);
			return OPVER_ERROR_PLUGIN;
		}
		normalize(&plugin->kernels[i], original, original->struct_size,
			  sizeof(plugin->kernels[i]));
		if (!check_kernel(&plugin->kernels[i], i, path, reporter))
			return OPVER_ERROR_PLUGIN;
	}
	if (!check_overlaps(plugin->kernels, count, path, reporter))
		return OPVER_ERROR_PLUGIN;
	return OPVER_OK;
}

/* Normalizes and checks one typed claim of a delegate into *copy. */
static bool load_delegate_op(const opver_delegate_op *original, size_t index,
			     const char *delegate_name, const char *path,
			     const opver__reporter *reporter,
			     opver_delegate_op *copy)
{
	const char *problem;
	char label[96];

	if (original == NULL || original->struct_size < DELEGATE_OP_SIZE_2_0) {
		refuse(reporter, path,
		       "has delegate '%s' whose op #%zu is %s", delegate_name,
		       index, original == NULL ? "a NULL pointer" :
		       "smaller than the opver_delegate_op of ABI 2.0");
		return false;
	}
	normalize(copy, original, original->struct_size, sizeof(*copy));
	op_label(copy->op, copy->custom_name, label, sizeof(label));
	problem = custom_name_problem(copy->op, copy->custom_name);
	if (problem == NULL && copy->min_version < 1)
		problem = "has a min_version below 1";
	if (problem == NULL && copy->min_version > copy->max_version)
		problem = "has a min_version above its max_version";
	if (problem == NULL && (copy->num_signatures > MAX_SIGNATURES ||
				(copy->num_signatures > 0 &&
				 copy->signatures == NULL)))
		problem = "has a bad signatures array";
	if (problem == NULL)
		return true;
	refuse(reporter, path, "has delegate '%s' whose op #%zu (%s) %s",
	       delegate_name, index, label, problem);
	return false;
}

/* Normalizes and checks the optional delegate into plugin->delegate. */
static opver_status load_delegate(opver__plugin *plugin, const char *path,
				  const opver__reporter *reporter)
{
	const opver_delegate *original = plugin->descriptor.delegate;
	const opver_delegate *delegate = &plugin->delegate;
	const char *missing;

	if (original == NULL)
		return OPVER_OK;
	if (original->struct_size < DELEGATE_SIZE_2_0) {
		refuse(reporter, path,
		       "has a delegate with struct_size %u, smaller than the %zu bytes of ABI 2.0",
		       original->struct_size, DELEGATE_SIZE_2_0);
		return OPVER_ERROR_PLUGIN;
	}
	normalize(&plugin->delegate, original, original->struct_size,
		  sizeof(plugin->delegate));
	if (delegate->name == NULL) {
		refuse(reporter, path, "has a delegate without a name");
		return OPVER_ERROR_PLUGIN;
	}
	missing = delegate->claim == NULL ? "claim" :
		  delegate->init == NULL ? "init" :
		  delegate->free == NULL ? "free" :
		  delegate->invoke == NULL ? "invoke" : NULL;
	if (missing != NULL) {
		refuse(reporter, path,
		       "has delegate '%s' without the required %s callback",
		       delegate->name, missing);
		return OPVER_ERROR_PLUGIN;
	}
	if (delegate->num_ops > MAX_DELEGATE_OPS ||
	    (delegate->num_ops > 0 && delegate->ops == NULL)) {
		refuse(reporter, path,
		       "has delegate '%s' declaring %u ops %s", delegate->name,
		       delegate->num_ops,
		       delegate->ops == NULL ? "but no ops array" :
					       "(too many)");
		return OPVER_ERROR_PLUGIN;
	}
	plugin->delegate_ops = calloc(delegate->num_ops ? delegate->num_ops : 1,
				      sizeof(*plugin->delegate_ops));
	if (plugin->delegate_ops == NULL) {
		refuse(reporter, path, "cannot be loaded: out of memory");
		return OPVER_ERROR_NOMEM;
	}
	for (uint32_t i = 0; i < delegate->num_ops; i++)
		if (!load_delegate_op(delegate->ops[i], i, delegate->name, path,
				      reporter, &plugin->delegate_ops[i]))
			return OPVER_ERROR_PLUGIN;
	plugin->has_delegate = true;
	return OPVER_OK;
}

/* Calls the plugin's init with its options. */
static opver_status init_plugin(opver__plugin *plugin, const char *path,
				const opver_option *options, size_t count,
				const opver__reporter *reporter)
{
	opver_status status;

	if (plugin->descriptor.init == NULL)
		return OPVER_OK;
	status = plugin->descriptor.init(&plugin->call.context,
					 count > 0 ? options : NULL,
					 (uint32_t)count,
					 &plugin->call.context.plugin_data);
	if (status == OPVER_OK)
		return OPVER_OK;
	refuse(reporter, path, "failed to initialize (%s)",
	       opver_status_name(status));
	return OPVER_ERROR_PLUGIN;
}

/* The plugin's own checks: the ABI version, then the descriptor's size. */
static opver_status check_abi(const opver_plugin *descriptor, const char *path,
			      const opver__reporter *reporter)
{
	if (descriptor->abi_major != OPVER_ABI_MAJOR) {
		refuse(reporter, path,
		       "was built for plugin ABI %u.%u, this core implements %d.%d: rebuild it against opver %d.x's plugin.h",
		       descriptor->abi_major, descriptor->abi_minor,
		       OPVER_ABI_MAJOR, OPVER_ABI_MINOR, OPVER_ABI_MAJOR);
		return OPVER_ERROR_PLUGIN;
	}
	if (descriptor->min_abi_minor > descriptor->abi_minor) {
		refuse(reporter, path,
		       "says it needs plugin ABI %u.%u but was built against %u.%u (min_abi_minor above abi_minor)",
		       descriptor->abi_major, descriptor->min_abi_minor,
		       descriptor->abi_major, descriptor->abi_minor);
		return OPVER_ERROR_PLUGIN;
	}
	if (descriptor->min_abi_minor > OPVER_ABI_MINOR) {
		refuse(reporter, path,
		       "needs plugin ABI %u.%u or newer (built against %u.%u), this core implements %d.%d: upgrade opver",
		       descriptor->abi_major, descriptor->min_abi_minor,
		       descriptor->abi_major, descriptor->abi_minor,
		       OPVER_ABI_MAJOR, OPVER_ABI_MINOR);
		return OPVER_ERROR_PLUGIN;
	}
	if (descriptor->struct_size < PLUGIN_SIZE_2_0) {
		refuse(reporter, path,
		       "has a descriptor with struct_size %u, smaller than the %zu bytes of ABI 2.0",
		       descriptor->struct_size, PLUGIN_SIZE_2_0);
		return OPVER_ERROR_PLUGIN;
	}
	return OPVER_OK;
}

/* The negotiation a plugin is given, and where a decline puts its
 * reason. */
typedef struct negotiation {
	opver_negotiation public;       /* first: what the plugin is given */
	bool declined;
	char reason[256];
} negotiation;

static const opver_plugin *decline(const opver_negotiation *public,
				   const char *format, ...)
	OPVER__PRINTF(2, 3);

static const opver_plugin *decline(const opver_negotiation *public,
				   const char *format, ...)
{
	negotiation *n = (negotiation *)(void *)public;
	va_list args;

	n->declined = true;
	va_start(args, format);
	vsnprintf(n->reason, sizeof(n->reason), format, args);
	va_end(args);
	return NULL;
}

/* A plugin built for ABI 1.x exports only the 1.x entry point, whose
 * descriptor began with two uint16_t versions: name them. */
typedef struct abi1_header {
	uint16_t major;
	uint16_t minor;
} abi1_header;
typedef const abi1_header *(*abi1_entry_fn)(void);

static void refuse_abi1(void *handle, const char *path,
			const opver__reporter *reporter)
{
	abi1_entry_fn entry;
	unsigned major = 1, minor = 0;
	bool known = false;

	/* POSIX guarantees a function address survives this cast. */
	entry = (abi1_entry_fn)dlsym(handle, ABI1_ENTRY_NAME);
	if (entry != NULL) {
		const abi1_header *versions = entry();

		if (versions != NULL) {
			major = versions->major;
			minor = versions->minor;
			known = true;
		}
	}
	if (entry == NULL)
		refuse(reporter, path,
		       "does not export " OPVER_PLUGIN_ENTRY_NAME
		       " (not an opver plugin?)");
	else
		refuse(reporter, path,
		       "was built for plugin ABI %u.%u%s (it exports " ABI1_ENTRY_NAME
		       "), this core implements %d.%d: rebuild it against opver %d.x's plugin.h",
		       major, minor, known ? "" : " or so", OPVER_ABI_MAJOR,
		       OPVER_ABI_MINOR, OPVER_ABI_MAJOR);
}

/* Calls the entry point; the descriptor, or NULL after reporting why
 * there is none. */
static const opver_plugin *negotiate(opver_plugin_entry_fn entry,
				     const char *path,
				     const opver__reporter *reporter)
{
	negotiation n = {
		.public = {
			.struct_size = sizeof(opver_negotiation),
			.host_abi_major = OPVER_ABI_MAJOR,
			.host_abi_minor = OPVER_ABI_MINOR,
			.decline = decline,
		},
	};
	const opver_plugin *descriptor;

	descriptor = entry(&n.public);
	if (n.declined)
		refuse(reporter, path, "declined: %s", n.reason);
	else if (descriptor == NULL)
		refuse(reporter, path,
		       "returned NULL from " OPVER_PLUGIN_ENTRY_NAME
		       " without declining");
	return n.declined ? NULL : descriptor;
}

/* Whether `path` can be read and holds every segment it promises (a
 * truncated object would crash dlopen with SIGBUS); reports why not. */
static bool readable_and_whole(const char *path,
			       const opver__reporter *reporter)
{
	char why[192];
	bool whole;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		refuse(reporter, path, "cannot be read: %s", strerror(errno));
		return false;
	}
	whole = opver__elf_segments_fit(fd, why, sizeof(why));
	close(fd);
	if (!whole)
		refuse(reporter, path, "%s", why);
	return whole;
}

/* The path for dlopen: a name without '/' would be searched for in the
 * library path instead of taken as the file. */
static char *dlopen_path(const char *path)
{
	char *copy;

	if (strchr(path, '/') != NULL)
		return strdup(path);
	copy = malloc(strlen(path) + 3);
	if (copy != NULL)
		sprintf(copy, "./%s", path);
	return copy;
}

/*
 * The descriptor part, shared by loaded and static plugins: negotiates
 * through `entry` and checks, normalizes and initializes the descriptor
 * into *plugin, whose file, config_name (and handle, priority) the caller
 * has set.  `path` names the plugin in messages.  On failure it leaves
 * what it allocated in *plugin for discard().
 */
static opver_status check_descriptor(opver__plugin *plugin,
				     opver_plugin_entry_fn entry,
				     const char *path,
				     const opver_option *options,
				     size_t num_options,
				     const opver__reporter *reporter)
{
	const opver_plugin *descriptor;
	opver_status status;

	descriptor = negotiate(entry, path, reporter);
	if (descriptor == NULL)
		return OPVER_ERROR_PLUGIN;
	status = check_abi(descriptor, path, reporter);
	if (status != OPVER_OK)
		return status;
	normalize(&plugin->descriptor, descriptor, descriptor->struct_size,
		  sizeof(plugin->descriptor));
	/* Descriptive strings are optional; downstream never sees NULL. */
	if (plugin->descriptor.name == NULL)
		plugin->descriptor.name = plugin->config_name;
	if (plugin->descriptor.vendor == NULL)
		plugin->descriptor.vendor = "";
	if (plugin->descriptor.version == NULL)
		plugin->descriptor.version = "";
	status = load_kernels(plugin, path, reporter);
	if (status != OPVER_OK)
		return status;
	status = load_delegate(plugin, path, reporter);
	if (status != OPVER_OK)
		return status;
	/* What the plugin reports from here on is prefixed with its name. */
	opver__call_init(&plugin->call, OPVER__CALL_PLUGIN, reporter,
			 plugin->config_name, NULL, NULL);
	return init_plugin(plugin, path, options, num_options, reporter);
}

/* Frees and closes everything *plugin holds without calling its fini, and
 * zeroes it. */
static void discard(opver__plugin *plugin)
{
	if (plugin->handle != NULL)
		dlclose(plugin->handle);
	free(plugin->kernels);
	free(plugin->delegate_ops);
	free(plugin->file);
	free(plugin->config_name);
	free(plugin->kernels_chosen_at);
	memset(plugin, 0, sizeof(*plugin));
}

/* The shared-object part: opens `path` into plugin->handle and finds its
 * entry point; NULL after reporting why there is none. */
static opver_plugin_entry_fn load_object(opver__plugin *plugin,
					 const char *path,
					 const opver__reporter *reporter)
{
	opver_plugin_entry_fn entry;

	if (!readable_and_whole(path, reporter))
		return NULL;
	plugin->handle = dlopen(plugin->file, RTLD_NOW | RTLD_LOCAL);
	if (plugin->handle == NULL) {
		refuse(reporter, path, "cannot be loaded: %s", dlerror());
		return NULL;
	}
	/* POSIX guarantees a function address survives this cast. */
	entry = (opver_plugin_entry_fn)dlsym(plugin->handle,
					     OPVER_PLUGIN_ENTRY_NAME);
	if (entry == NULL)
		refuse_abi1(plugin->handle, path, reporter);
	return entry;
}

/* The options of an ini section as the plugin's init takes them, in
 * *options (caller frees; NULL without options). */
static opver_status section_options(const opver__plugin_config *config,
				    opver_option **options)
{
	size_t count = config != NULL ? config->num_options : 0;

	*options = NULL;
	if (count == 0)
		return OPVER_OK;
	*options = calloc(count, sizeof(**options));
	if (*options == NULL)
		return OPVER_ERROR_NOMEM;
	for (size_t i = 0; i < count; i++) {
		(*options)[i].key = config->options[i].key;
		(*options)[i].value = config->options[i].value;
	}
	return OPVER_OK;
}

opver_status opver__plugin_load(const char *path, const char *config_name,
				const opver__plugin_config *config,
				const opver__reporter *reporter,
				opver__plugin *plugin)
{
	opver_status status = OPVER_ERROR_NOMEM;
	opver_option *options = NULL;
	opver_plugin_entry_fn entry;

	memset(plugin, 0, sizeof(*plugin));
	if (config_name == NULL)
		config_name = config != NULL ? config->name : path;
	plugin->file = dlopen_path(path);
	plugin->config_name = strdup(config_name);
	if (plugin->file == NULL || plugin->config_name == NULL ||
	    section_options(config, &options) != OPVER_OK) {
		refuse(reporter, path, "cannot be loaded: out of memory");
		goto out;
	}
	plugin->section = config;
	if (config != NULL && config->has_priority) {
		plugin->has_priority = true;
		plugin->priority = config->priority;
	}
	status = OPVER_ERROR_PLUGIN;
	entry = load_object(plugin, path, reporter);
	if (entry == NULL)
		goto out;
	status = check_descriptor(plugin, entry, path, options,
				  config != NULL ? config->num_options : 0,
				  reporter);
	if (status == OPVER_OK && config != NULL && config->has_kernels)
		status = opver__select_kernels(plugin, config, reporter);
out:
	free(options);
	if (status != OPVER_OK)
		discard(plugin);
	return status;
}

opver_status opver__plugin_load_static(opver_plugin_entry_fn entry,
				       const char *name,
				       const opver_option *options,
				       size_t num_options,
				       const opver__reporter *reporter,
				       opver__plugin *plugin)
{
	opver_status status = OPVER_ERROR_NOMEM;

	memset(plugin, 0, sizeof(*plugin));
	plugin->file = strdup(OPVER__STATIC_PLUGIN_FILE);
	plugin->config_name = strdup(name);
	if (plugin->file == NULL || plugin->config_name == NULL) {
		refuse(reporter, name, "cannot be loaded: out of memory");
		goto out;
	}
	status = check_descriptor(plugin, entry, name, options, num_options,
				  reporter);
out:
	if (status != OPVER_OK)
		discard(plugin);
	return status;
}

void opver__plugin_unload(opver__plugin *plugin)
{
	/* A zeroed or refused plugin has no fini: it was never initialized. */
	if (plugin->descriptor.fini != NULL)
		plugin->descriptor.fini(&plugin->call.context,
					plugin->call.context.plugin_data);
	discard(plugin);
}
