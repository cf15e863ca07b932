/*
 * test_api_structs.c - the host API's struct_size rule in both directions:
 * the library writes no further into an options or info struct than the
 * caller's sizeof, and reads no further than its struct_size, so an
 * application built against older headers keeps working.  Each test plays
 * such an application with a struct cut short and garbage after it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "runtime_fixture.h"

#define SERVICES_SECTION \
	"[plugin.services]\nlibrary = " TEST_PLUGIN_DIR "/services.so\n"
#define GARBAGE 0xA5

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(api_structs, .init = setup);

/* Whether bytes [from, to) of `bytes` are all GARBAGE. */
static bool untouched(const void *bytes, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (((const unsigned char *)bytes)[i] != GARBAGE)
			return false;
	return true;
}

Test(api_structs, options_init_writes_only_the_callers_struct)
{
	unsigned char buffer[sizeof(opver_runtime_options) + 32];
	size_t old = OPVER_SIZE_THROUGH(opver_runtime_options, strict_versions);
	opver_runtime_options *options = (opver_runtime_options *)buffer;

	memset(buffer, GARBAGE, sizeof(buffer));
	opver_runtime_options_init_sized(options, old);
	cr_assert_eq(options->struct_size, old);
	cr_assert_eq(options->log_level, -1);
	cr_assert_eq(options->strict, 0);
	cr_assert(untouched(buffer, old, sizeof(buffer)));

	memset(buffer, GARBAGE, sizeof(buffer));
	opver_runtime_options_init(options);
	cr_assert_eq(options->struct_size, sizeof(opver_runtime_options));
	cr_assert_null(options->config_path);
	cr_assert(untouched(buffer, sizeof(opver_runtime_options), sizeof(buffer)));
}

Test(api_structs, runtime_reads_only_the_fields_an_older_struct_has)
{
	opver_runtime_options options;
	opver_runtime *runtime;

	/* An application from before config_path existed, say: the fields
	 * past its struct_size are garbage pointers the library must not
	 * follow (ASan and valgrind would catch it). */
	memset(&options, GARBAGE, sizeof(options));
	options.struct_size = OPVER_SIZE_THROUGH(opver_runtime_options, threads);
	options.log_level = OPVER_LOG_ERROR;
	options.strict = 0;
	options.strict_versions = 0;
	options.threads = 0;
	cr_assert_eq(opver_runtime_create(&options, &runtime), OPVER_OK);
	opver_runtime_destroy(runtime);
}

Test(api_structs, info_fills_only_the_callers_struct)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	unsigned char buffer[sizeof(opver_plugin_info) + 32];
	size_t old = OPVER_SIZE_THROUGH(opver_plugin_info, num_kernels);
	opver_plugin_info *info = (opver_plugin_info *)buffer;

	memset(buffer, GARBAGE, sizeof(buffer));
	cr_assert_eq(opver_runtime_plugin_info_sized(runtime, 0, info, old),
		     OPVER_OK);
	cr_assert_eq(info->struct_size, old);
	cr_assert_eq(info->abi_major, OPVER_ABI_MAJOR);
	cr_assert_eq(info->num_kernels, 1);
	cr_assert(untouched(buffer, old, sizeof(buffer)));

	memset(buffer, GARBAGE, sizeof(buffer));
	cr_assert_eq(opver_runtime_plugin_info(runtime, 0, info), OPVER_OK);
	cr_assert_eq(info->struct_size, sizeof(opver_plugin_info));
	cr_assert_str_eq(info->name, "services");
	cr_assert(untouched(buffer, sizeof(opver_plugin_info), sizeof(buffer)));
	opver_runtime_destroy(runtime);
}

Test(api_structs, interpreter_options_past_struct_size_keep_their_defaults)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nthreads = 2\n" SERVICES_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "triple_pair");
	opver_interpreter_options options;
	opver_interpreter *it;

	/* Built when only inspect_only existed: threads and profile are
	 * garbage and must read as 0 (the runtime's threads, no profiler). */
	memset(&options, GARBAGE, sizeof(options));
	options.struct_size = OPVER_SIZE_THROUGH(opver_interpreter_options,
						 inspect_only);
	options.inspect_only = 0;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_threads(it), 2);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_profile_event_count(it), 0);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(api_structs, interpreter_options_before_trace_trace_nothing)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "triple_pair");
	opver_interpreter_options options;
	opver_interpreter *it;

	/* Built before trace existed: its garbage pointer is never called
	 * (a call would crash), and no profiler is attached. */
	memset(&options, GARBAGE, sizeof(options));
	opver_interpreter_options_init_sized(
		&options,
		OPVER_SIZE_THROUGH(opver_interpreter_options, max_tensor_bytes));
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_profile_event_count(it), 0);
	opver_interpreter_destroy(it);

	opver_interpreter_options_init(&options);
	cr_assert_null(options.trace);
	cr_assert_null(options.trace_user_data);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(api_structs, node_info_fills_only_the_callers_struct)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	opver_model *model = fixture_model(runtime, "triple_pair");
	unsigned char buffer[sizeof(opver_node_info) + 32];
	size_t old = OPVER_SIZE_THROUGH(opver_node_info, fallback);
	opver_node_info *info = (opver_node_info *)buffer;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	memset(buffer, GARBAGE, sizeof(buffer));
	cr_assert_eq(opver_interpreter_node_info_sized(it, 1, info, old),
		     OPVER_OK);
	cr_assert_eq(info->struct_size, old);
	cr_assert_eq(info->index, 1);
	cr_assert_eq(info->op, OPVER_OP_CUSTOM);
	cr_assert(untouched(buffer, old, sizeof(buffer)));
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

#define ADD_ONE_SECTION \
	"[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

/* Options reading `text` from memory, messages into `captured`. */
static opver_runtime_options text_options(const char *text)
{
	opver_runtime_options options;

	opver_runtime_options_init(&options);
	options.config_text = text;
	options.config_text_size = text != NULL ? strlen(text) : 0;
	options.log = messages_log;
	options.log_user_data = &captured;
	options.log_level = OPVER_LOG_DEBUG;
	return options;
}

Test(api_structs, runtime_from_config_text_in_memory)
{
	/* Borrowed for the call only: freed before the runtime is used. */
	char *text = strdup("[opver]\nthreads = 3\n" ADD_ONE_SECTION);
	opver_runtime_options options = text_options(text);
	opver_runtime *runtime;
	opver_plugin_info info;

	cr_assert_not_null(text);
	cr_assert_eq(opver_runtime_create(&options, &runtime), OPVER_OK, "%s",
		     captured.text);
	memset(text, 'x', strlen(text));
	free(text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 1, "%s",
		     captured.text);
	cr_assert_eq(opver_runtime_plugin_info(runtime, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.config_name, "add_one");
	cr_assert_str_eq(info.file, TEST_PLUGIN_DIR "/add_one.so");

	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_threads(it), 3, "the text's threads");
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(api_structs, runtime_reports_a_bad_config_text_line_as_memory)
{
	opver_runtime_options options =
		text_options("[opver]\ncolour blue\n" ADD_ONE_SECTION);
	opver_runtime *runtime = (opver_runtime *)&options;

	cr_assert_eq(opver_runtime_create(&options, &runtime),
		     OPVER_ERROR_CONFIG);
	cr_assert_null(runtime);
	cr_assert(messages_line_has(&captured,
				    "error: <memory>:2: expected 'key = value', '[section]' or a comment",
				    NULL),
		  "%s", captured.text);
}

Test(api_structs, runtime_refuses_both_config_path_and_config_text)
{
	opver_runtime_options options = text_options(ADD_ONE_SECTION);
	opver_runtime *runtime;

	options.config_path = "/nonexistent/opver.ini";
	cr_assert_eq(opver_runtime_create(&options, &runtime),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_null(runtime);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "both config_path",
				    "and config_text; set one", NULL),
		  "%s", captured.text);
}

Test(api_structs, runtime_from_empty_config_text_loads_nothing)
{
	opver_runtime_options options = text_options("");
	opver_runtime *runtime;

	/* Not the installed config: an empty text is an empty config. */
	cr_assert_eq(opver_runtime_create(&options, &runtime), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_runtime_plugin_count(runtime), 0, "%s",
		     captured.text);
	opver_runtime_destroy(runtime);
}
