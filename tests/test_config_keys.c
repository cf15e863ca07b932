/*
 * test_config_keys.c - the ini reader and the built-in default: every
 * key's values and defaults, plugin_path resolution, and that each kind of
 * bad line is reported as "FILE:LINE: ..." with the right line, all of them
 * before the read fails.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_files.h"

Test(config, reads_every_key)
{
	cr_assert_eq(read_ini("; comment\n"
			      "[opver]\n"
			      "plugin_path = /opt/a:/opt/b\n"
			      "strict = yes\n"
			      "strict_versions = true\n"
			      "threads = 6\n"
			      "log_level = debug\n"
			      "fragment_dir = absent.d\n"
			      "allow_writable_plugins = yes\n"
			      "[plugin.fast]\n"
			      "library = /opt/fast.so\n"
			      "priority = -2147483648\n"
			      "enabled = off\n"
			      "threads = 4\n"
			      "device : /dev/npu0 ; inline comment\n"
			      "[plugin.reference]\n"),
		     OPVER_OK);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "absent.d' does not exist", NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugin_path, 2);
	cr_assert_str_eq(config.plugin_path[0], "/opt/a");
	cr_assert_str_eq(config.plugin_path[1], "/opt/b");
	cr_assert(config.strict);
	cr_assert(config.strict_versions);
	cr_assert_eq(config.threads, 6);
	cr_assert_eq(config.log_level, OPVER_LOG_DEBUG);
	cr_assert_str_eq(config.fragment_dir, at("absent.d"));
	cr_assert(config.allow_writable_plugins);
	cr_assert_eq(config.num_plugins, 2);

	const opver__plugin_config *fast = &config.plugins[0];
	cr_assert_str_eq(fast->name, "fast");
	cr_assert_str_eq(fast->library, "/opt/fast.so");
	cr_assert(fast->has_priority);
	cr_assert_eq(fast->priority, INT32_MIN);
	cr_assert_not(fast->enabled);
	cr_assert_str_eq(fast->file, ini_path);
	cr_assert_eq(fast->line, 10);
	cr_assert_eq(fast->num_options, 2);
	cr_assert_str_eq(fast->options[0].key, "threads");
	cr_assert_str_eq(fast->options[0].value, "4");
	cr_assert_str_eq(fast->options[1].key, "device");
	cr_assert_str_eq(fast->options[1].value, "/dev/npu0");

	const opver__plugin_config *reference = &config.plugins[1];
	cr_assert_str_eq(reference->name, "reference");
	cr_assert_eq(reference->line, 16, "an empty section still counts");
}

Test(config, defaults)
{
	cr_assert_eq(read_ini("[opver]\n[plugin.x]\n"), OPVER_OK);
	cr_assert_eq(config.num_plugin_path, 0);
	cr_assert_not(config.strict);
	cr_assert_not(config.strict_versions);
	cr_assert_eq(config.threads, 0, "0: not given, interpreters use 1");
	cr_assert_eq(config.log_level, OPVER_LOG_WARNING);
	cr_assert_null(config.fragment_dir);
	cr_assert_not(config.allow_writable_plugins);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_null(config.plugins[0].library);
	cr_assert_not(config.plugins[0].has_priority);
	cr_assert(config.plugins[0].enabled);
	cr_assert_eq(config.plugins[0].num_options, 0);
}

Test(config, empty_file)
{
	cr_assert_eq(read_ini(""), OPVER_OK);
	cr_assert_eq(config.num_plugins, 0);
	cr_assert_eq(config.log_level, OPVER_LOG_WARNING);
}

Test(config, every_boolean_spelling)
{
	static const char *const truths[] = { "true", "yes", "on", "1", "TRUE" };
	static const char *const lies[] = { "false", "no", "off", "0", "No" };
	char text[128];

	for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
		snprintf(text, sizeof(text), "[opver]\nstrict = %s\n[plugin.p]\nenabled = %s\n",
			 truths[i], lies[i]);
		cr_assert_eq(read_ini(text), OPVER_OK, "%s", text);
		cr_assert(config.strict, "%s", truths[i]);
		cr_assert_not(config.plugins[0].enabled, "%s", lies[i]);
		opver__config_free(&config);
	}
}

Test(config, relative_plugin_path_is_under_the_config_directory)
{
	char expected[192];

	cr_assert_eq(read_ini("[opver]\nplugin_path = plugins::/abs:../up\n"),
		     OPVER_OK);
	cr_assert_eq(config.num_plugin_path, 3, "the empty entry is skipped");
	snprintf(expected, sizeof(expected), "%s/plugins", dir);
	cr_assert_str_eq(config.plugin_path[0], expected);
	cr_assert_str_eq(config.plugin_path[1], "/abs");
	snprintf(expected, sizeof(expected), "%s/../up", dir);
	cr_assert_str_eq(config.plugin_path[2], expected);
}

Test(config, library_is_kept_as_written)
{
	cr_assert_eq(read_ini("[plugin.a]\nlibrary = sub/a.so\n"
			      "[plugin.b]\nlibrary = b.so\n"),
		     OPVER_OK);
	cr_assert_str_eq(config.plugins[0].library, "sub/a.so");
	cr_assert_str_eq(config.plugins[1].library, "b.so");
}

Test(config, indented_lines_are_not_continuations)
{
	cr_assert_eq(read_ini("[plugin.p]\n"
			      "  library = p.so\n"
			      "\tthreads = 2\n"),
		     OPVER_OK);
	cr_assert_str_eq(config.plugins[0].library, "p.so");
	cr_assert_eq(config.plugins[0].num_options, 1);
	cr_assert_str_eq(config.plugins[0].options[0].key, "threads");
}

Test(config, unknown_opver_key)
{
	assert_one_bad_line("[opver]\nstrict = no\nplugin_dir = /x\n", 3,
			    "unknown key 'plugin_dir' in [opver]");
}

Test(config, unknown_section)
{
	assert_one_bad_line("[opver]\n\n[plugins.x]\nlibrary = x.so\n", 3,
			    "unknown section [plugins.x]");
}

Test(config, duplicate_plugin_section)
{
	assert_one_bad_line("[plugin.a]\npriority = 1\n[plugin.a]\npriority = 2\n",
			    3, "duplicate section [plugin.a] (first on line 1)");
}

Test(config, duplicate_opver_section)
{
	assert_one_bad_line("[opver]\nstrict = 1\n[opver]\n", 3,
			    "duplicate section [opver]");
}

Test(config, duplicate_key)
{
	assert_one_bad_line("[plugin.a]\nthreads = 1\n\nthreads = 2\n", 4,
			    "duplicate key 'threads' (first set on line 2)");
}

Test(config, plugin_section_without_name)
{
	assert_one_bad_line("[opver]\n[plugin.]\nlibrary = x.so\n", 2,
			    "[plugin.] has no plugin name");
}

Test(config, line_without_equals)
{
	assert_one_bad_line("[opver]\nstrict true\n", 2,
			    "expected 'key = value'");
}

Test(config, header_without_bracket)
{
	assert_one_bad_line("[opver]\n[plugin.a\n", 2, "no closing ']'");
}

Test(config, key_outside_a_section)
{
	assert_one_bad_line("# top\nstrict = true\n[opver]\n", 2,
			    "outside any section");
}

Test(config, empty_key)
{
	assert_one_bad_line("[plugin.a]\n= 3\n", 2, "no key before the '='");
}

Test(config, bad_boolean)
{
	assert_one_bad_line("[opver]\nstrict = maybe\n", 2,
			    "'maybe' is not a boolean");
}

Test(config, bad_log_level)
{
	assert_one_bad_line("[opver]\nlog_level = verbose\n", 2,
			    "log_level = 'verbose'");
}

Test(config, priority_out_of_int32_range)
{
	assert_one_bad_line("[plugin.a]\npriority = 2147483648\n", 2,
			    "priority = '2147483648' is not an integer");
}

Test(config, priority_not_a_number)
{
	assert_one_bad_line("[plugin.a]\npriority = 5x\n", 2,
			    "priority = '5x'");
}

Test(config, empty_library)
{
	assert_one_bad_line("[plugin.a]\nlibrary =\n", 2, "library is empty");
}

/* kernels = may repeat, each line adding its comma-separated names; an
 * empty value selects none; the key is not passed on as an option. */
Test(config, kernels_lines_add_up)
{
	cr_assert_eq(read_ini("[plugin.a]\n"
			      "kernels = conv_2d_int8 , softmax_int8\n"
			      "threads = 2\n"
			      "kernels = reshape\n"
			      "[plugin.b]\n"
			      "kernels =\n"
			      "[plugin.c]\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(messages_total(&captured), 0, "%s", captured.text);
	cr_assert(config.plugins[0].has_kernels);
	cr_assert_eq(config.plugins[0].num_kernels, 3);
	cr_assert_str_eq(config.plugins[0].kernels[0], "conv_2d_int8");
	cr_assert_str_eq(config.plugins[0].kernels[1], "softmax_int8");
	cr_assert_str_eq(config.plugins[0].kernels[2], "reshape");
	cr_assert_eq(config.plugins[0].num_options, 1);
	cr_assert(config.plugins[1].has_kernels);
	cr_assert_eq(config.plugins[1].num_kernels, 0);
	cr_assert_not(config.plugins[2].has_kernels);
}

Test(config, kernels_with_an_empty_name)
{
	assert_one_bad_line("[plugin.a]\nkernels = a,,b\n", 2,
			    "kernels = 'a,,b': kernel names are single words");
}

Test(config, kernels_with_a_spaced_name)
{
	assert_one_bad_line("[plugin.a]\nkernels = conv 2d\n", 2,
			    "kernels = 'conv 2d'");
}

Test(config, line_too_long)
{
	char text[512];

	snprintf(text, sizeof(text), "[plugin.a]\nkey = %0300d\n", 0);
	assert_one_bad_line(text, 2, "longer than");
}

Test(config, every_bad_line_is_reported)
{
	cr_assert_eq(read_ini("[opver]\n"                /* 1 */
			      "strict = perhaps\n"       /* 2 */
			      "colour = blue\n"          /* 3 */
			      "[unknown]\n"              /* 4 */
			      "ignored = yes\n"          /* 5: skipped */
			      "[plugin.a]\n"             /* 6 */
			      "no equals sign\n"         /* 7 */
			      "priority = 1\n"           /* 8 */
			      "priority = 2\n"           /* 9 */
			      "[plugin.]\n"              /* 10 */
			      "[plugin.a]\n"             /* 11 */
			      "last line without equals" /* 12 */),
		     OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 8, "%s", captured.text);
	assert_bad_line(0, 2, "not a boolean");
	assert_bad_line(1, 3, "unknown key 'colour'");
	assert_bad_line(2, 4, "unknown section [unknown]");
	assert_bad_line(3, 7, "expected 'key = value'");
	assert_bad_line(4, 9, "duplicate key 'priority'");
	assert_bad_line(5, 10, "no plugin name");
	assert_bad_line(6, 11, "duplicate section [plugin.a]");
	assert_bad_line(7, 12, "expected 'key = value'");
}

Test(config, lines_after_a_bom_and_crlf)
{
	cr_assert_eq(read_ini("\xEF\xBB\xBF[opver]\r\nstrict = on\r\nbad\r\n"),
		     OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	assert_bad_line(0, 3, "expected 'key = value'");
}

Test(config, missing_file_is_an_io_error)
{
	cr_assert_eq(opver__config_read("/nonexistent/opver.ini", &reporter,
					&config),
		     OPVER_ERROR_IO);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "'/nonexistent/opver.ini'",
				    "No such file or directory", NULL),
		  "%s", captured.text);
}

Test(config, directory_is_an_io_error)
{
	cr_assert_eq(opver__config_read(dir, &reporter, &config),
		     OPVER_ERROR_IO);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, dir, NULL), "%s", captured.text);
}

Test(config, default_without_a_file_is_the_installed_directories)
{
	unsetenv("OPVER_PLUGIN_PATH");
	cr_assert_eq(opver__config_default(at("absent.ini"),
					   "/usr/lib/opver/plugins",
					   at("absent.d"), &reporter, &config),
		     OPVER_OK);
	cr_assert_eq(config.num_plugin_path, 1);
	cr_assert_str_eq(config.plugin_path[0], "/usr/lib/opver/plugins");
	cr_assert_str_eq(config.fragment_dir, at("absent.d"));
	cr_assert_eq(config.num_plugins, 0);
	cr_assert_eq(config.log_level, OPVER_LOG_WARNING);
	cr_assert_not(config.strict);
	cr_assert_not(config.allow_writable_plugins);
	cr_assert(messages_line_has(&captured, "debug:", "no config file", "absent.ini", NULL),
		  "%s", captured.text);
}

Test(config, default_without_a_file_reads_the_fragments)
{
	unsetenv("OPVER_PLUGIN_PATH");
	make_dir("d", 0755);
	write_fragment("vendor.ini", "[plugin.vendor]\npriority = 9\n");
	cr_assert_eq(opver__config_default(at("absent.ini"), "/p", at("d"),
					   &reporter, &config),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_str_eq(config.plugins[0].name, "vendor");
	cr_assert_eq(config.plugins[0].priority, 9);
	cr_assert_str_eq(config.plugins[0].file, at("d/vendor.ini"));
}

Test(config, default_adds_opver_plugin_path)
{
	setenv("OPVER_PLUGIN_PATH", ":/opt/a::/opt/b:", 1);
	cr_assert_eq(opver__config_default(at("absent.ini"),
					   "/usr/lib/opver/plugins",
					   at("absent.d"), &reporter, &config),
		     OPVER_OK);
	cr_assert_eq(config.num_plugin_path, 3);
	cr_assert_str_eq(config.plugin_path[0], "/usr/lib/opver/plugins");
	cr_assert_str_eq(config.plugin_path[1], "/opt/a");
	cr_assert_str_eq(config.plugin_path[2], "/opt/b");
}

Test(config, default_file_when_it_exists_then_opver_plugin_path)
{
	setenv("OPVER_PLUGIN_PATH", "/opt/extra", 1);
	make_dir("d", 0755);
	write_fragment("vendor.ini", "[plugin.vendor]\n");
	write_ini("[opver]\nplugin_path = /installed\nfragment_dir = d\nstrict = true\n");
	cr_assert_eq(opver__config_default(ini_path, "/built-in",
					   at("absent.d"), &reporter, &config),
		     OPVER_OK, "%s", captured.text);
	cr_assert(config.strict);
	cr_assert_eq(config.num_plugin_path, 2,
		     "the file's directories, not the built-in one");
	cr_assert_str_eq(config.plugin_path[0], "/installed");
	cr_assert_str_eq(config.plugin_path[1], "/opt/extra");
	cr_assert_str_eq(config.fragment_dir, at("d"));
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_str_eq(config.plugins[0].name, "vendor");
}

Test(config, default_file_that_cannot_be_read_is_an_error)
{
	unsetenv("OPVER_PLUGIN_PATH");
	make_dir("opver.ini", 0755);
	cr_assert_eq(opver__config_default(ini_path, "/built-in",
					   at("absent.d"), &reporter, &config),
		     OPVER_ERROR_IO, "not the built-in default");
	cr_assert(messages_line_has(&captured, "error:", ini_path, NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugin_path, 0);
}

Test(config, free_zeroes_and_is_idempotent)
{
	cr_assert_eq(read_ini("[opver]\nplugin_path = /a\n[plugin.p]\nk = v\n"),
		     OPVER_OK);
	opver__config_free(&config);
	cr_assert_eq(config.num_plugins, 0);
	cr_assert_null(config.plugins);
	cr_assert_null(config.plugin_path);
	opver__config_free(&config);
}

/* ------------------------------------------------- limits and counts */

Test(config, threads_must_be_a_count_from_1_to_the_limit)
{
	static const char *const bad[] = { "0", "-1", "257", "two", "" };
	char text[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		messages_clear(&captured);
		opver__config_free(&config);
		snprintf(text, sizeof(text), "[opver]\nthreads = %s\n", bad[i]);
		assert_one_bad_line(text, 2, "is not a thread count from 1 to 256");
	}
	opver__config_free(&config);
	cr_assert_eq(read_ini("[opver]\nthreads = 256\n"), OPVER_OK);
	cr_assert_eq(config.threads, 256);
}

Test(config, max_arena_bytes_is_a_byte_count_from_1_up)
{
	static const char *const bad[] = { "0", "-5", "4k", "" };
	char text[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		messages_clear(&captured);
		opver__config_free(&config);
		snprintf(text, sizeof(text), "[opver]\nmax_arena_bytes = %s\n",
			 bad[i]);
		assert_one_bad_line(text, 2, "is not a byte count from 1 up");
	}
	opver__config_free(&config);
	cr_assert_eq(read_ini("[opver]\nmax_arena_bytes = 8589934592\n"),
		     OPVER_OK);
	cr_assert_eq(config.max_arena_bytes, UINT64_C(8589934592));
}

Test(config, max_tensor_bytes_is_a_byte_count_from_1_up)
{
	cr_assert_eq(read_ini("[opver]\nmax_tensor_bytes = 1048576\n"),
		     OPVER_OK);
	cr_assert_eq(config.max_tensor_bytes, UINT64_C(1048576));
	cr_assert_eq(config.max_arena_bytes, 0, "a key of its own");
	messages_clear(&captured);
	opver__config_free(&config);
	assert_one_bad_line("[opver]\nmax_tensor_bytes = 0\n", 2,
			    "max_tensor_bytes = '0' is not a byte count from 1 up");
}

/* Reads `size` bytes of `text` from memory, as the runtime's config_text. */
