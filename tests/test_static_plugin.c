/*
 * test_static_plugin.c - static registration (opver_runtime_add_plugin): a
 * plugin compiled into this test, with no shared object, goes through the
 * loader's checks (a declining entry and a bad manifest are refused with
 * the loader's messages), its kernels join the registry after the loaded
 * plugins' and run a model, plugin info says "(static)", and the runtime's
 * destruction calls its fini.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "opver/plugin.h"
#include "runtime_fixture.h"

#define KERNEL_SECTION "[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

static messages captured;

/* What the static plugin's callbacks saw. */
static struct {
	int inits;
	int finis;
	int invokes;
	char option[64];        /* "key=value" of the first option */
	void *fini_data;
} seen;

static int plugin_data_token;

static void setup(void)
{
	messages_clear(&captured);
	memset(&seen, 0, sizeof(seen));
}

TestSuite(static_plugin, .init = setup);

static const opver_type_signature float_to_float[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static opver_status same_size_prepare(const opver_context *ctx,
				      opver_node *node)
{
	if (node->inputs[0]->bytes != node->outputs[0]->bytes) {
		OPVER_REPORT(ctx, "input and output sizes differ");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	return OPVER_OK;
}

static opver_status add_one_invoke(const opver_context *ctx, opver_node *node)
{
	const float *x = node->inputs[0]->data;
	float *y = node->outputs[0]->data;
	size_t n = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < n; i++)
		y[i] = x[i] + 1.0f;
	seen.invokes++;
	return OPVER_OK;
}

static opver_status plugin_init(const opver_context *ctx,
				const opver_option *options,
				uint32_t num_options, void **plugin_data)
{
	(void)ctx;
	seen.inits++;
	if (num_options > 0)
		snprintf(seen.option, sizeof(seen.option), "%s=%s",
			 options[0].key, options[0].value);
	*plugin_data = &plugin_data_token;
	return OPVER_OK;
}

static void plugin_fini(const opver_context *ctx, void *plugin_data)
{
	(void)ctx;
	seen.finis++;
	seen.fini_data = plugin_data;
}

static const opver_kernel add_one = {
	OPVER_CUSTOM_KERNEL("add_one_static", "ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = same_size_prepare,
	.invoke = add_one_invoke,
};

static const opver_kernel *const good_kernels[] = { &add_one };

static const opver_plugin good_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "static add_one",
	.vendor = "tests",
	.version = "1.0",
	.init = plugin_init,
	.fini = plugin_fini,
	OPVER_PLUGIN_KERNELS(good_kernels),
};

static const opver_plugin *good_entry(const opver_negotiation *negotiation)
{
	(void)negotiation;
	return &good_plugin;
}

/* The same kernel with a priority above the loaded plugin's 0. */
static const opver_kernel preferred_add_one = {
	OPVER_CUSTOM_KERNEL("add_one_preferred", "ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.priority = 10,
	.prepare = same_size_prepare,
	.invoke = add_one_invoke,
};

static const opver_kernel *const preferred_kernels[] = { &preferred_add_one };

static const opver_plugin preferred_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "preferred",
	OPVER_PLUGIN_KERNELS(preferred_kernels),
};

static const opver_plugin *preferred_entry(const opver_negotiation *negotiation)
{
	(void)negotiation;
	return &preferred_plugin;
}

static const opver_plugin *declining_entry(const opver_negotiation *negotiation)
{
	return negotiation->decline(negotiation,
				    "needs a device this machine lacks");
}

/* tests/plugins/bad_range.c's manifest, linked in. */
static const opver_kernel backwards = {
	OPVER_KERNEL("backwards", ADD, 3, 2),
	.prepare = same_size_prepare,
	.invoke = add_one_invoke,
};

static const opver_kernel *const bad_kernels[] = { &backwards };

static const opver_plugin bad_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "bad_range",
	.init = plugin_init,
	.fini = plugin_fini,
	OPVER_PLUGIN_KERNELS(bad_kernels),
};

static const opver_plugin *bad_manifest_entry(
	const opver_negotiation *negotiation)
{
	(void)negotiation;
	return &bad_plugin;
}

/* Runs add_one_chain (four ADD_ONE nodes) on 1..4 and checks x + 4. */
static void assert_chain_adds_four(opver_runtime *runtime)
{
	opver_model *model = fixture_model(runtime, "add_one_chain");
	const float x[4] = { 1, 2, 3, 4 };
	opver_interpreter *it;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(y[i], x[i] + 4.0f, 0, "y[%d] = %g", i, y[i]);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* Asserts which plugin (config name) and kernel run node 0 of
 * add_one_chain. */
static void assert_node_runs_on(opver_runtime *runtime, const char *plugin,
				const char *kernel)
{
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	opver_node_info info;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.plugin, plugin);
	cr_assert_str_eq(info.kernel, kernel);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

Test(static_plugin, registered_plugin_runs_a_model)
{
	opver_runtime *runtime = fixture_runtime("", &captured);
	const opver_option options[] = { { "threads", "4" } };

	cr_assert_eq(opver_runtime_plugin_count(runtime), 0);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      options, 1),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 1);
	cr_assert_eq(seen.inits, 1);
	cr_assert_str_eq(seen.option, "threads=4");
	assert_chain_adds_four(runtime);
	cr_assert_eq(seen.invokes, 4);
	assert_node_runs_on(runtime, "linked", "add_one_static");
	opver_runtime_destroy(runtime);
}

Test(static_plugin, info_says_static)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);
	opver_plugin_info info;
	opver_kernel_info kernel;

	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      NULL, 0),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 2);
	/* The loaded plugin keeps its place; the static one comes after. */
	cr_assert_eq(opver_runtime_plugin_info(runtime, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.config_name, "add_one");
	cr_assert_neq(strcmp(info.file, "(static)"), 0);
	cr_assert_eq(opver_runtime_plugin_info(runtime, 1, &info), OPVER_OK);
	cr_assert_str_eq(info.file, "(static)");
	cr_assert_str_eq(info.config_name, "linked");
	cr_assert_str_eq(info.name, "static add_one");
	cr_assert_str_eq(info.vendor, "tests");
	cr_assert_str_eq(info.version, "1.0");
	cr_assert_eq(info.abi_major, OPVER_ABI_MAJOR);
	cr_assert_eq(info.num_kernels, 1);
	cr_assert_null(info.delegate_name);
	cr_assert_eq(opver_runtime_kernel_info(runtime, 1, 0, &kernel),
		     OPVER_OK);
	cr_assert_str_eq(kernel.name, "add_one_static");
	cr_assert_str_eq(kernel.custom_name, "ADD_ONE");
	cr_assert_eq(kernel.stateless, 1);
	opver_runtime_destroy(runtime);
}

Test(static_plugin, fini_is_called_at_destroy)
{
	opver_runtime *runtime = fixture_runtime("", &captured);

	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      NULL, 0),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(seen.finis, 0);
	opver_runtime_destroy(runtime);
	cr_assert_eq(seen.finis, 1);
	cr_assert_eq(seen.fini_data, &plugin_data_token,
		     "fini gets what init stored");
}

Test(static_plugin, declining_entry_is_refused_with_its_reason)
{
	opver_runtime *runtime = fixture_runtime("", &captured);

	messages_clear(&captured);
	cr_assert_eq(opver_runtime_add_plugin(runtime, declining_entry,
					      "npu", NULL, 0),
		     OPVER_ERROR_PLUGIN);
	cr_assert(messages_line_has(&captured, "error:",
				    "plugin 'npu' declined: needs a device this machine lacks, not loading",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 0);
	opver_runtime_destroy(runtime);
}

Test(static_plugin, bad_manifest_is_refused_with_the_loaders_message)
{
	opver_runtime *runtime = fixture_runtime("", &captured);

	messages_clear(&captured);
	cr_assert_eq(opver_runtime_add_plugin(runtime, bad_manifest_entry,
					      "bad_range", NULL, 0),
		     OPVER_ERROR_PLUGIN);
	/* Word for word what test_loader expects of bad_range.so. */
	cr_assert(messages_line_has(&captured, "error:",
				    "plugin 'bad_range' has kernel 'backwards' with min_version 3 above max_version 2, not loading",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 0);
	cr_assert_eq(seen.inits, 0, "a refused plugin is not initialized");
	opver_runtime_destroy(runtime);
	cr_assert_eq(seen.finis, 0, "nor finalized");
}

Test(static_plugin, refused_plugin_leaves_the_runtime_working)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);

	cr_assert_eq(opver_runtime_add_plugin(runtime, declining_entry,
					      "npu", NULL, 0),
		     OPVER_ERROR_PLUGIN);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 1);
	assert_node_runs_on(runtime, "add_one", "add_one");
	opver_runtime_destroy(runtime);
}

Test(static_plugin, equal_priority_goes_to_the_plugin_loaded_first)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);

	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      NULL, 0),
		     OPVER_OK, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "warning:",
				    "kernel 'add_one' of plugin 'add_one'",
				    "takes precedence over kernel 'add_one_static' of plugin 'linked'",
				    "tie broken by load order", NULL),
		  "%s", captured.text);
	assert_node_runs_on(runtime, "add_one", "add_one");
	opver_runtime_destroy(runtime);
}

Test(static_plugin, higher_priority_wins_over_a_loaded_plugin)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);

	cr_assert_eq(opver_runtime_add_plugin(runtime, preferred_entry,
					      "preferred", NULL, 0),
		     OPVER_OK, "%s", captured.text);
	assert_node_runs_on(runtime, "preferred", "add_one_preferred");
	assert_chain_adds_four(runtime);
	opver_runtime_destroy(runtime);
}

Test(static_plugin, several_static_plugins_keep_their_order)
{
	opver_runtime *runtime = fixture_runtime("", &captured);
	opver_plugin_info info;

	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "first",
					      NULL, 0),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_runtime_add_plugin(runtime, preferred_entry,
					      "second", NULL, 0),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 2);
	cr_assert_eq(opver_runtime_plugin_info(runtime, 1, &info), OPVER_OK);
	cr_assert_str_eq(info.config_name, "second");
	/* The first one's record did not move: its kernel still runs. */
	assert_node_runs_on(runtime, "second", "add_one_preferred");
	opver_runtime_destroy(runtime);
	cr_assert_eq(seen.finis, 1);
}

Test(static_plugin, refused_while_an_interpreter_exists)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      NULL, 0),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "error:",
				    "add plugins before creating interpreters",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(seen.inits, 0);
	opver_interpreter_destroy(it);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "linked",
					      NULL, 0),
		     OPVER_OK, "%s", captured.text);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(static_plugin, bad_arguments_are_refused)
{
	opver_runtime *runtime = fixture_runtime(KERNEL_SECTION, &captured);
	const opver_option no_value[] = { { "key", NULL } };

	cr_assert_eq(opver_runtime_add_plugin(NULL, good_entry, "x", NULL, 0),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_runtime_add_plugin(runtime, NULL, "x", NULL, 0),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "", NULL,
					      0),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "x", NULL,
					      1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "x",
					      no_value, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	/* The loaded plugin's config name is taken. */
	cr_assert_eq(opver_runtime_add_plugin(runtime, good_entry, "add_one",
					      NULL, 0),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "error:",
				    "plugin 'add_one' has the name of a plugin already loaded",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(seen.inits, 0);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 1);
	opver_runtime_destroy(runtime);
}
