/*
 * test_loader.c - loading one plugin: for each test plugin of
 * tests/plugins (see its README) the status and the one message, which
 * names the file and the reason; then what a good load gives: normalized
 * copies, options reaching init, priority from the config, fini on unload,
 * and repeated loads that leave nothing behind.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "messages.h"
#include "plugin_loader.h"

/* Criterion runs each test in its own process: this state is per test. */
static messages captured;
static opver__reporter reporter;
static opver__plugin plugin;
static char path[512];

static void setup(void)
{
	reporter = messages_reporter(&captured);
}

static void teardown(void)
{
	opver__plugin_unload(&plugin);
}

TestSuite(loader, .init = setup, .fini = teardown);

static opver_status load(const char *name, const opver__plugin_config *config)
{
	snprintf(path, sizeof(path), "%s/%s.so", TEST_PLUGIN_DIR, name);
	return opver__plugin_load(path, name, config,
				  &reporter, &plugin);
}

static bool logged(const char *text)
{
	return messages_line_has(&captured, text, NULL);
}

/* Message `index` of the current test, "" if there is none; a negative
 * index counts from the last message. */
static const char *message(int index)
{
	static char buf[1024];

	if (index < 0)
		index += messages_total(&captured);
	return messages_nth(&captured, index, buf, sizeof(buf));
}

/* The plugin is refused with one message: "plugin 'PATH' ...REASON...,
 * not loading", and nothing of it is kept. */
static void assert_refused(opver_status status, const char *reason)
{
	char prefix[600];
	const char *suffix = ", not loading";
	const char *first = message(0);
	size_t length;

	cr_assert_eq(status, OPVER_ERROR_PLUGIN, "status %s",
		     opver_status_name(status));
	cr_assert_eq(messages_total(&captured), 1, "%d messages:\n%s",
		     messages_total(&captured), captured.text);
	snprintf(prefix, sizeof(prefix), "plugin '%s' ", path);
	cr_assert_eq(strncmp(first, prefix, strlen(prefix)), 0,
		     "'%s' does not name '%s'", first, path);
	cr_assert_not_null(strstr(first, reason),
			   "'%s' does not say '%s'", first, reason);
	length = strlen(first);
	cr_assert(length > strlen(suffix) &&
			  strcmp(first + length - strlen(suffix), suffix) == 0,
		  "'%s' does not end in '%s'", first, suffix);
	cr_assert_null(plugin.handle);
	cr_assert_null(plugin.kernels);
	cr_assert_null(plugin.file);
}

Test(loader, good_plugin_loads)
{
	cr_assert_eq(load("good", NULL), OPVER_OK, "%s", captured.text);
	cr_assert_not_null(plugin.handle);
	cr_assert_str_eq(plugin.file, path);
	cr_assert_str_eq(plugin.config_name, "good");
	cr_assert_str_eq(plugin.descriptor.name, "good");
	cr_assert_eq(plugin.descriptor.num_kernels, 3);
	cr_assert_str_eq(plugin.kernels[0].name, "fc_float");
	cr_assert_eq(plugin.kernels[0].priority, 10);
	cr_assert_str_eq(plugin.kernels[2].custom_name, "MyCustomOp");
	cr_assert_not(plugin.has_delegate);
	cr_assert_not(plugin.has_priority);
	cr_assert_not_null(plugin.call.context.plugin_data,
			   "init's data reaches every later callback");
	cr_assert(logged("init with 0 options"));
}

/* A negotiation for calling a plugin's entry point directly. */
static const opver_plugin *never_declined(const opver_negotiation *n,
					  const char *format, ...)
{
	(void)n;
	cr_assert_fail("the plugin declined: %s", format);
	return NULL;
}

static const opver_negotiation negotiation = {
	.struct_size = sizeof(opver_negotiation),
	.host_abi_major = OPVER_ABI_MAJOR,
	.host_abi_minor = OPVER_ABI_MINOR,
	.decline = never_declined,
};

Test(loader, copies_are_normalized)
{
	opver_plugin_entry_fn entry;
	const opver_plugin *original;

	cr_assert_eq(load("good", NULL), OPVER_OK);
	entry = (opver_plugin_entry_fn)dlsym(plugin.handle,
					     OPVER_PLUGIN_ENTRY_NAME);
	original = entry(&negotiation);
	cr_assert_eq(memcmp(&plugin.descriptor, original,
			    original->struct_size),
		     0);
	cr_assert_neq(plugin.kernels, original->kernels[0],
		      "the kernels are copies");
	for (size_t i = 0; i < plugin.descriptor.num_kernels; i++)
		cr_assert_eq(memcmp(&plugin.kernels[i], original->kernels[i],
				    original->kernels[i]->struct_size),
			     0);
}

Test(loader, abi_1_0_plugin_is_refused_naming_both_versions)
{
	char reason[200];

	snprintf(reason, sizeof(reason),
		 "was built for plugin ABI 1.0 (it exports opver_plugin_entry), this core implements %d.%d: rebuild it against opver %d.x's plugin.h",
		 OPVER_ABI_MAJOR, OPVER_ABI_MINOR, OPVER_ABI_MAJOR);
	assert_refused(load("abi10", NULL), reason);
}

Test(loader, plugin_built_for_a_newer_minor_loads_and_its_additions_are_unseen)
{
	size_t plugin_size = sizeof(opver_plugin);
	size_t kernel_size = sizeof(opver_kernel);

	cr_assert_eq(load("newer_minor", NULL), OPVER_OK, "%s", captured.text);
	cr_assert_eq(plugin.descriptor.abi_minor, OPVER_ABI_MINOR + 1);
	cr_assert_eq(plugin.descriptor.min_abi_minor, OPVER_ABI_MINOR);
	cr_assert_gt(plugin.descriptor.struct_size, plugin_size,
		     "the plugin's struct is the newer, bigger one");
	cr_assert_gt(plugin.kernels[0].struct_size, kernel_size);
	cr_assert_str_eq(plugin.kernels[0].name, "add_float32");
	cr_assert_eq(messages_total(&captured), 0, "%s", captured.text);
}

Test(loader, plugin_needing_a_newer_minor_is_refused)
{
	char reason[200];

	snprintf(reason, sizeof(reason),
		 "needs plugin ABI %d.%d or newer (built against %d.%d), this core implements %d.%d: upgrade opver",
		 OPVER_ABI_MAJOR, OPVER_ABI_MINOR + 1, OPVER_ABI_MAJOR,
		 OPVER_ABI_MINOR + 1, OPVER_ABI_MAJOR, OPVER_ABI_MINOR);
	assert_refused(load("abi_minor", NULL), reason);
}

Test(loader, plugin_may_decline_with_its_reason)
{
	assert_refused(load("declines", NULL),
		       "declined: needs a device this machine lacks");
}

Test(loader, plugin_built_against_the_frozen_2_0_headers_loads)
{
	cr_assert_eq(load("frozen_abi20", NULL), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(plugin.descriptor.abi_major, 2);
	cr_assert_eq(plugin.descriptor.abi_minor, 0);
	cr_assert_eq(plugin.descriptor.struct_size,
		     OPVER_SIZE_THROUGH(opver_plugin, delegate));
}

Test(loader, options_and_priority_come_from_the_section)
{
	opver__config_option options[] = {
		{ .key = "color", .value = "blue" },
		{ .key = "size", .value = "3" },
	};
	opver__plugin_config section = {
		.name = "fast", .enabled = true,
		.has_priority = true, .priority = -7,
		.options = options, .num_options = 2,
	};

	snprintf(path, sizeof(path), "%s/good.so", TEST_PLUGIN_DIR);
	cr_assert_eq(opver__plugin_load(path, NULL, &section, &reporter,
					&plugin),
		     OPVER_OK);
	cr_assert_str_eq(plugin.config_name, "fast", "named by its section");
	cr_assert(plugin.has_priority);
	cr_assert_eq(plugin.priority, -7);
	cr_assert(logged("init with 2 options"));
	cr_assert(logged("option color=blue"));
	cr_assert(logged("option size=3"));
}

Test(loader, fini_is_called_on_unload)
{
	cr_assert_eq(load("good", NULL), OPVER_OK);
	cr_assert_not(logged("fini"));
	opver__plugin_unload(&plugin);
	cr_assert_str_eq(message(-1), "plugin 'good': fini");
	cr_assert_null(plugin.handle);
	cr_assert_null(plugin.kernels);
	/* Unloading a zeroed plugin does nothing. */
	opver__plugin_unload(&plugin);
	cr_assert_str_eq(message(-1), "plugin 'good': fini");
}

Test(loader, failing_init_is_reported_with_the_plugin_name)
{
	opver__config_option fail = { .key = "fail_init", .value = "true" };
	opver__plugin_config section = {
		.name = "good", .enabled = true,
		.options = &fail, .num_options = 1,
	};
	char expected[600];

	cr_assert_eq(load("good", &section), OPVER_ERROR_PLUGIN);
	cr_assert(logged("plugin 'good': fail_init is set"),
		  "what the plugin reports is prefixed with its name");
	snprintf(expected, sizeof(expected),
		 "plugin '%s' failed to initialize (ERROR), not loading",
		 path);
	cr_assert_str_eq(message(-1), expected);
	cr_assert_not(logged("fini"), "no fini without a successful init");
	cr_assert_null(plugin.handle);
}

Test(loader, good_plugin_after_a_bad_one)
{
	cr_assert_eq(load("abi_major", NULL), OPVER_ERROR_PLUGIN);
	cr_assert_eq(load("good", NULL), OPVER_OK, "%s", captured.text);
	cr_assert_eq(plugin.descriptor.num_kernels, 3);
}

Test(loader, repeated_loads_leave_nothing_behind)
{
	for (int i = 0; i < 50; i++) {
		messages_clear(&captured);
		cr_assert_eq(load("good", NULL), OPVER_OK);
		opver__plugin_unload(&plugin);
		cr_assert(logged("fini"));
		cr_assert_eq(load("overlap", NULL), OPVER_ERROR_PLUGIN);
	}
}

Test(loader, bare_file_name_is_not_searched_for)
{
	cr_assert_eq(chdir(TEST_PLUGIN_DIR), 0);
	path[0] = '\0';
	cr_assert_eq(opver__plugin_load("good.so", "good", NULL, &reporter,
					&plugin),
		     OPVER_OK);
	cr_assert_str_eq(plugin.file, "./good.so");
}

Test(loader, missing_file)
{
	assert_refused(load("missing", NULL),
		       "cannot be read: No such file or directory");
}

Test(loader, file_that_is_not_elf)
{
	char dir[] = "/tmp/opver-loader-XXXXXX";
	FILE *file;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/not_elf.so", dir);
	file = fopen(path, "w");
	cr_assert_not_null(file);
	/* Longer than an ELF header, so dlopen reads and rejects it. */
	for (int i = 0; i < 8; i++)
		fputs("this is text, not a shared object\n", file);
	fclose(file);
	assert_refused(opver__plugin_load(path, "not_elf", NULL, &reporter,
					  &plugin),
		       "cannot be loaded: ");
	cr_assert_not_null(strstr(message(0), "ELF"), "%s", message(0));
	unlink(path);
	rmdir(dir);
}

/* A copy of good.so cut to `length` bytes, as an interrupted copy leaves
 * it: refused by its size, where dlopen would die of SIGBUS.  (Criterion
 * runs each test in its own process: a SIGBUS fails only that test.) */
static void assert_truncated_copy_refused(long length)
{
	char dir[] = "/tmp/opver-loader-XXXXXX";
	char source[512];
	FILE *in, *out;
	int c;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(source, sizeof(source), "%s/good.so", TEST_PLUGIN_DIR);
	snprintf(path, sizeof(path), "%s/cut.so", dir);
	in = fopen(source, "rb");
	out = fopen(path, "wb");
	cr_assert(in != NULL && out != NULL);
	for (long i = 0; i < length && (c = fgetc(in)) != EOF; i++)
		fputc(c, out);
	fclose(in);
	fclose(out);
	assert_refused(opver__plugin_load(path, "cut", NULL, &reporter,
					  &plugin),
		       "is cut short: ");
	unlink(path);
	rmdir(dir);
}

Test(loader, truncated_after_the_headers)
{
	assert_truncated_copy_refused(3000);
}

Test(loader, truncated_inside_the_program_headers)
{
	assert_truncated_copy_refused(100);
}

Test(loader, undefined_symbol_fails_at_dlopen)
{
	assert_refused(load("undefined_symbol", NULL), "cannot be loaded: ");
	cr_assert_not_null(strstr(message(0),
				  "opver_test_function_nobody_defines"),
			   "dlerror() names the symbol: %s", message(0));
}

Test(loader, no_entry_symbol)
{
	assert_refused(load("no_entry", NULL),
		       "does not export opver_plugin_negotiate (not an opver plugin?)");
}

Test(loader, entry_returning_null)
{
	assert_refused(load("null_entry", NULL),
		       "returned NULL from opver_plugin_negotiate without declining");
}

Test(loader, other_abi_major)
{
	char reason[128];

	snprintf(reason, sizeof(reason),
		 "was built for plugin ABI %d.0, this core implements %d.%d: rebuild it",
		 OPVER_ABI_MAJOR + 1, OPVER_ABI_MAJOR, OPVER_ABI_MINOR);
	assert_refused(load("abi_major", NULL), reason);
}

Test(loader, descriptor_struct_size_too_small)
{
	char reason[160];

	snprintf(reason, sizeof(reason),
		 ", smaller than the %zu bytes of ABI 2.0",
		 OPVER_SIZE_THROUGH(opver_plugin, delegate));
	assert_refused(load("small_struct", NULL), reason);
}

Test(loader, kernel_min_version_above_max)
{
	assert_refused(load("bad_range", NULL),
		       "has kernel 'backwards' with min_version 3 above max_version 2");
}

Test(loader, kernel_version_zero)
{
	assert_refused(load("version_zero", NULL),
		       "has kernel 'zero' with min_version 0 (op versions start at 1)");
}

Test(loader, kernel_without_invoke)
{
	assert_refused(load("null_invoke", NULL),
		       "has kernel 'no_invoke' without the required invoke callback");
}

Test(loader, overlapping_kernels)
{
	assert_refused(load("overlap", NULL),
		       "has kernels 'add_float' and 'add_any' that both handle ADD versions 3..3");
}

Test(loader, null_kernel_pointer)
{
	assert_refused(load("null_kernel", NULL),
		       "has a NULL pointer as kernel #0");
}

Test(loader, kernel_struct_size_too_small)
{
	assert_refused(load("kernel_small", NULL),
		       "has kernel #0 with struct_size");
}

Test(loader, custom_kernel_without_custom_name)
{
	assert_refused(load("custom_no_name", NULL),
		       "has kernel #1 that is for CUSTOM but has no custom_name");
}

Test(loader, kernel_without_a_name)
{
	assert_refused(load("unnamed_kernel", NULL),
		       "has kernel #0 without a name");
}

Test(loader, two_kernels_with_one_name)
{
	assert_refused(load("duplicate_names", NULL),
		       "has two kernels named 'same' (#0 and #1)");
}

Test(loader, descriptor_without_name_vendor_or_version_loads)
{
	cr_assert_eq(load("bare", NULL), OPVER_OK, "%s", captured.text);
	cr_assert_str_eq(plugin.descriptor.name, plugin.config_name,
			 "no name: the config name stands in");
	cr_assert_str_eq(plugin.descriptor.vendor, "");
	cr_assert_str_eq(plugin.descriptor.version, "");
}

Test(loader, kernel_init_without_free)
{
	assert_refused(load("init_no_free", NULL),
		       "has kernel 'leaky' with init but no free");
}

Test(loader, delegate_without_claim)
{
	assert_refused(load("delegate_no_claim", NULL),
		       "has delegate 'npu' without the required claim callback");
}

Test(loader, delegate_init_without_free)
{
	assert_refused(load("delegate_init_no_free", NULL),
		       "without the required free callback");
}
