/*
 * test_config.c - the ini reader and the built-in default: every key's
 * values and defaults, plugin_path resolution, and that each kind of bad
 * line is reported as "FILE:LINE: ..." with the right line, all of them
 * before the read fails; fragments (fragment_dir): sorted order, what they
 * may hold, sections named twice across files, and refusing fragments
 * others can change.  Each test writes its ini into its own temporary
 * directory and captures the reporter's messages.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "messages.h"

/* Criterion runs each test in its own process: this state is per test. */
static messages captured;
static opver__reporter reporter;
static char dir[64];
static char ini_path[128];
static opver__config config;

static void setup(void)
{
	reporter = messages_reporter(&captured);
	strcpy(dir, "/tmp/opver-config-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(ini_path, sizeof(ini_path), "%s/opver.ini", dir);
}

static void teardown(void)
{
	char command[128];

	opver__config_free(&config);
	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	cr_expect_eq(system(command), 0);
}

TestSuite(config, .init = setup, .fini = teardown);

/* DIR/RELATIVE in a static buffer, one of 8 in rotation. */
static char *at(const char *relative)
{
	static char paths[8][256];
	static int next;
	char *path = paths[next++ % 8];

	snprintf(path, 256, "%s/%s", dir, relative);
	return path;
}

/* Writes `text` to `path` with `mode` (set explicitly: the umask may be
 * 0002, and fragments others can write are refused). */
static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *file = fopen(path, "w");

	cr_assert_not_null(file, "create %s", path);
	cr_assert_eq(fputs(text, file) >= 0, true);
	cr_assert_eq(fclose(file), 0);
	cr_assert_eq(chmod(path, mode), 0, "chmod %s", path);
}

static void write_ini(const char *text)
{
	write_file(ini_path, text, 0644);
}

/* Creates DIR/RELATIVE as a directory with `mode`. */
static void make_dir(const char *relative, mode_t mode)
{
	cr_assert_eq(mkdir(at(relative), mode), 0, "mkdir %s", at(relative));
	cr_assert_eq(chmod(at(relative), mode), 0);
}

/* Writes fragment DIR/d/NAME, mode 0644. */
static void write_fragment(const char *name, const char *text)
{
	char relative[128];

	snprintf(relative, sizeof(relative), "d/%s", name);
	write_file(at(relative), text, 0644);
}

static opver_status read_ini(const char *text)
{
	write_ini(text);
	return opver__config_read(ini_path, &reporter, &config);
}

/* Asserts that message `index` is "ini_path:LINE: ..." containing `what`. */
static void assert_bad_line(int index, int line, const char *what)
{
	char prefix[160];
	char message[1024];

	cr_assert_lt(index, messages_total(&captured), "no message %d", index);
	messages_nth(&captured, index, message, sizeof(message));
	snprintf(prefix, sizeof(prefix), "%s:%d: ", ini_path, line);
	cr_assert_eq(strncmp(message, prefix, strlen(prefix)), 0,
		     "'%s' does not start with '%s'", message, prefix);
	cr_assert_not_null(strstr(message, what),
			   "'%s' does not say '%s'", message, what);
}

/* One bad line: CONFIG, one message, at `line`, saying `what`. */
static void assert_one_bad_line(const char *text, int line, const char *what)
{
	cr_assert_eq(read_ini(text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%d messages:\n%s",
		     messages_total(&captured), captured.text);
	assert_bad_line(0, line, what);
	cr_assert_eq(config.num_plugins, 0, "a failed read leaves nothing");
}

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

/* ---------------------------------------------------------------- fragments */

Test(config, relative_fragment_dir_is_under_the_config_directory)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = opver.d\n"), OPVER_OK);
	cr_assert_str_eq(config.fragment_dir, at("opver.d"));
	opver__config_free(&config);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = /abs/opver.d\n"),
		     OPVER_OK);
	cr_assert_str_eq(config.fragment_dir, "/abs/opver.d");
}

Test(config, empty_fragment_dir)
{
	assert_one_bad_line("[opver]\nfragment_dir =\n", 2,
			    "fragment_dir is empty");
}

Test(config, missing_fragment_dir_is_an_info_message)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = absent.d\n"), OPVER_OK);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", at("absent.d"),
				    "does not exist", NULL),
		  "%s", captured.text);
}

Test(config, fragments_are_read_in_sorted_order_after_the_main_file)
{
	make_dir("d", 0755);
	make_dir("d/sub.ini", 0755);
	make_dir("elsewhere", 0755);
	write_fragment("20-beta.ini", "[plugin.beta]\nthreads = 2\n");
	write_fragment("10-alpha.ini", "; first\n\n[plugin.alpha]\npriority = 5\n"
				       "[plugin.alpha2]\n");
	write_fragment("9-last.ini", "[plugin.nine]\n");
	/* Skipped: dotfiles and other names. */
	write_fragment(".hidden.ini", "[plugin.hidden]\n");
	write_fragment("notes.txt", "[plugin.notes]\n");
	write_fragment("30-old.ini.bak", "[plugin.old]\n");
	write_fragment(".ini", "[plugin.dot]\n");
	/* A link counts as what it points to. */
	write_file(at("elsewhere/linked.ini"), "[plugin.linked]\n", 0644);
	cr_assert_eq(symlink(at("elsewhere/linked.ini"), at("d/50-linked.ini")), 0);

	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n[plugin.main]\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(config.num_plugins, 6, "%s", captured.text);
	cr_assert_str_eq(config.plugins[0].name, "main");
	cr_assert_str_eq(config.plugins[0].file, ini_path);
	/* strcmp order: "10-" < "20-" < "50-" < "9-". */
	cr_assert_str_eq(config.plugins[1].name, "alpha");
	cr_assert_str_eq(config.plugins[1].file, at("d/10-alpha.ini"));
	cr_assert_eq(config.plugins[1].line, 3);
	cr_assert_eq(config.plugins[1].priority, 5);
	cr_assert_str_eq(config.plugins[2].name, "alpha2");
	cr_assert_eq(config.plugins[2].line, 5);
	cr_assert_str_eq(config.plugins[3].name, "beta");
	cr_assert_str_eq(config.plugins[3].options[0].key, "threads");
	cr_assert_str_eq(config.plugins[4].name, "linked");
	cr_assert_str_eq(config.plugins[4].file, at("d/50-linked.ini"));
	cr_assert_str_eq(config.plugins[5].name, "nine");
	cr_assert(messages_line_has(&captured, "info:", "sub.ini", "not a regular file", NULL),
		  "%s", captured.text);
}

/* One bad thing in fragment `name` (in DIR/d): CONFIG, one error message,
 * "DIR/d/NAME:LINE: ..." saying `what`. */
static void assert_bad_fragment_line(const char *main_text, const char *name,
				     const char *text, int line,
				     const char *what)
{
	char prefix[192];
	char message[1024];

	write_fragment(name, text);
	cr_assert_eq(read_ini(main_text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	messages_nth(&captured, 0, message, sizeof(message));
	snprintf(prefix, sizeof(prefix), "%s/d/%s:%d: ", dir, name, line);
	cr_assert_eq(strncmp(message, prefix, strlen(prefix)), 0,
		     "'%s' does not start with '%s'", message, prefix);
	cr_assert_not_null(strstr(message, what), "'%s' does not say '%s'",
			   message, what);
	cr_assert_eq(config.num_plugins, 0, "a failed read leaves nothing");
}

Test(config, bad_fragment_line_names_the_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "[plugin.vendor]\npriority = high\n", 2,
				 "priority = 'high' is not an integer");
}

Test(config, opver_section_in_a_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "[plugin.vendor]\n[opver]\nstrict = true\n", 2,
				 "[opver] is not allowed in a fragment");
}

Test(config, key_outside_a_section_in_a_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "priority = 3\n", 1,
				 "outside any section (put it under [plugin.NAME])");
}

Test(config, duplicate_section_across_fragments_names_both)
{
	char first[192];

	make_dir("d", 0755);
	write_fragment("10-a.ini", "\n[plugin.vendor]\npriority = 1\n");
	snprintf(first, sizeof(first), "first at %s/d/10-a.ini:2", dir);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "20-b.ini",
				 "[plugin.other]\n[plugin.vendor]\npriority = 2\n",
				 2, first);
}

Test(config, duplicate_section_in_the_main_file_and_a_fragment)
{
	char first[192];

	make_dir("d", 0755);
	snprintf(first, sizeof(first), "duplicate section [plugin.vendor] (first at %s:3",
		 ini_path);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n[plugin.vendor]\n",
				 "vendor.ini", "[plugin.vendor]\n", 1, first);
}

Test(config, every_fragment_is_reported)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[opver]\n");
	write_fragment("b.ini", "[plugin.b]\nenabled = perhaps\n");
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\nstrict = perhaps\n"),
		     OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 3, "%s", captured.text);
	assert_bad_line(0, 3, "'perhaps' is not a boolean");
	cr_assert(messages_line_has(&captured, "d/a.ini:1: [opver] is not allowed", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "d/b.ini:2: enabled = 'perhaps'", NULL),
		  "%s", captured.text);
}

Test(config, fragment_dir_that_is_a_file_is_an_io_error)
{
	write_file(at("file.d"), "", 0644);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = file.d\n"),
		     OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", "cannot read fragment_dir",
				    at("file.d"), "Not a directory", NULL),
		  "%s", captured.text);
}

Test(config, unreadable_fragment_is_an_io_error)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(symlink(at("nowhere.ini"), at("d/b.ini")), 0);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n"), OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", "cannot open fragment",
				    at("d/b.ini"), "No such file", NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0);
}

/* Each refused: the message names the path, the mode, who can write it
 * and the key that accepts it. */
static void assert_refused(const char *what, const char *path,
			   const char *mode, const char *who)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n"), OPVER_ERROR_CONFIG);
	cr_assert(messages_line_has(&captured, "error:", what, path, mode, who,
				    "allow_writable_plugins = true", NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0);
}

Test(config, group_writable_fragment_is_refused)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0664), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0664)",
		       "(group-writable), not reading it");
}

Test(config, world_writable_fragment_is_refused)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0646), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0646)",
		       "every user (world-writable)");
}

Test(config, writable_fragment_dir_is_refused)
{
	make_dir("d", 0777);
	write_fragment("a.ini", "[plugin.a]\n");
	assert_refused("fragment directory '", at("d"), "(mode 0777)",
		       "group-writable) and every user (world-writable), not reading fragments from it");
}

Test(config, symlinked_fragment_is_judged_by_its_target)
{
	make_dir("d", 0755);
	write_file(at("target.ini"), "[plugin.a]\n", 0666);
	cr_assert_eq(symlink(at("target.ini"), at("d/a.ini")), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0666)",
		       "world-writable");
}

Test(config, fragment_owned_by_another_user_is_refused)
{
	if (geteuid() != 0)
		cr_skip_test("chown to uid 65534 needs root");
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chown(at("d/a.ini"), 65534, 65534), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0644)",
		       "its owner uid 65534 (neither root nor the effective uid 0)");
}

Test(config, allow_writable_plugins_accepts_writable_fragments)
{
	make_dir("d", 0777);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0666), 0);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\nallow_writable_plugins = true\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_eq(captured.count[OPVER_LOG_INFO], 2, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "fragment directory '", at("d"),
				    "(mode 0777)", "accepted as allow_writable_plugins = true", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "fragment '", at("d/a.ini"),
				    "(mode 0666)", "accepted", NULL),
		  "%s", captured.text);
}

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

/* ------------------------------------------- hostile files (issue "Hostile
 * models and configs"): each must fail at once with a message, never hang
 * (the timeouts turn a hang into a failure) or read without bound. */

Test(config, config_file_that_is_a_fifo_is_an_error, .timeout = 10)
{
	cr_assert_eq(mkfifo(ini_path, 0644), 0);
	cr_assert_eq(opver__config_read(ini_path, &reporter, &config),
		     OPVER_ERROR_IO);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", ini_path, "is a FIFO",
				    "not a regular file", NULL),
		  "%s", captured.text);
}

Test(config, default_config_file_that_is_a_fifo_is_an_error, .timeout = 10)
{
	unsetenv("OPVER_PLUGIN_PATH");
	cr_assert_eq(mkfifo(ini_path, 0644), 0);
	cr_assert_eq(opver__config_default(ini_path, "/built-in",
					   at("absent.d"), &reporter, &config),
		     OPVER_ERROR_IO, "not the built-in default");
	cr_assert(messages_line_has(&captured, "error:", ini_path, "is a FIFO", NULL),
		  "%s", captured.text);
}

Test(config, dev_zero_is_refused_before_it_is_read, .timeout = 10)
{
	cr_assert_eq(opver__config_read("/dev/zero", &reporter, &config),
		     OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", "'/dev/zero'",
				    "character device, not a regular file", NULL),
		  "%s", captured.text);
}

Test(config, fragment_that_is_a_fifo_is_skipped, .timeout = 10)
{
	make_dir("d", 0755);
	write_fragment("10-a.ini", "[plugin.a]\n");
	cr_assert_eq(mkfifo(at("d/20-pipe.ini"), 0644), 0);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n"), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert(messages_line_has(&captured, "info:", at("d/20-pipe.ini"),
				    "is a FIFO, not a regular file, skipped", NULL),
		  "%s", captured.text);
}

/* Writes `size` bytes of `text` (which may hold NUL bytes) as the ini. */
static opver_status read_bytes(const char *text, size_t size)
{
	FILE *file = fopen(ini_path, "wb");

	cr_assert_not_null(file);
	cr_assert_eq(fwrite(text, 1, size, file), size);
	cr_assert_eq(fclose(file), 0);
	return opver__config_read(ini_path, &reporter, &config);
}

Test(config, endless_line_is_an_error_not_a_growing_buffer, .timeout = 20)
{
	/* Bigger than any line buffer worth growing; no newline at all. */
	size_t size = 4 << 20;
	char *text = malloc(size);

	cr_assert_not_null(text);
	memset(text, 'x', size);
	memcpy(text, "[opver]\nstrict = ", 17);
	cr_assert_eq(read_bytes(text, size), OPVER_ERROR_CONFIG);
	free(text);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	assert_bad_line(0, 2, "longer than 198 characters, inih's limit");
}

Test(config, lines_of_198_characters_are_read_and_199_are_not)
{
	char text[512];

	/* "k = " and 194 digits: 198 characters, then 199. */
	snprintf(text, sizeof(text), "[plugin.a]\nk = %0194d\r\n", 0);
	cr_assert_eq(read_ini(text), OPVER_ERROR_CONFIG,
		     "with the CR it is 199");
	assert_bad_line(0, 2, "longer than 198");
	opver__config_free(&config);
	messages_clear(&captured);
	snprintf(text, sizeof(text), "[plugin.a]\nk = %0194d\n", 0);
	cr_assert_eq(read_ini(text), OPVER_OK, "%s", captured.text);
	cr_assert_eq(strlen(config.plugins[0].options[0].value), 194,
		     "not cut");
}

Test(config, lines_after_a_too_long_line_are_still_read)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "[opver]\nplugin_path = /%0300d\nstrict = maybe\n", 0);
	cr_assert_eq(read_ini(text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 2, "%s", captured.text);
	assert_bad_line(0, 2, "longer than 198");
	assert_bad_line(1, 3, "'maybe' is not a boolean");
}

Test(config, keys_under_a_too_long_header_belong_to_no_section)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "[plugin.a]\nk = 1\n[plugin.%0250d]\nk = 2\n", 0);
	cr_assert_eq(read_ini(text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1,
		     "not also a duplicate key in [plugin.a]:\n%s", captured.text);
	assert_bad_line(0, 3, "longer than 198");
}

Test(config, section_name_longer_than_inih_keeps_is_an_error)
{
	/* inih keeps 49 bytes of a section name, so one of 49 may have been
	 * cut: [plugin. and 41 are read, and 42 are an error. */
	cr_assert_eq(read_ini("[plugin.abcdefghijklmnopqrstuvwxyz0123456789abcde]\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_str_eq(config.plugins[0].name,
			 "abcdefghijklmnopqrstuvwxyz0123456789abcde");
	opver__config_free(&config);
	assert_one_bad_line("[opver]\n[plugin.abcdefghijklmnopqrstuvwxyz0123456789abcdef]\nk = v\n",
			    2, "longer than inih's limit of 48 characters");
}

Test(config, control_characters_are_errors)
{
	static const char text[] = "[opver]\nstrict = o\0n\n[\x01]\nk = v\n";

	cr_assert_eq(read_bytes(text, sizeof(text) - 1), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 2, "%s", captured.text);
	assert_bad_line(0, 2, "byte 0x00 is a control character");
	assert_bad_line(1, 3, "byte 0x01 is a control character");
}

Test(config, empty_section_name_on_the_first_line)
{
	assert_one_bad_line("[]\n", 1, "unknown section []");
}

Test(config, a_bom_alone_on_the_first_line)
{
	cr_assert_eq(read_ini("\xEF\xBB\xBF\n[opver]\nstrict = 1\n"), OPVER_OK,
		     "%s", captured.text);
	cr_assert(config.strict);
}

Test(config, read_error_is_an_error_not_the_end_of_the_file, .timeout = 10)
{
	/* A regular file whose read fails: offset 0 of this process's
	 * memory is not mapped (EIO). */
	struct stat info;

	if (stat("/proc/self/mem", &info) != 0 || !S_ISREG(info.st_mode))
		cr_skip_test("needs Linux /proc/self/mem");
	cr_assert_eq(opver__config_read("/proc/self/mem", &reporter, &config),
		     OPVER_ERROR_IO);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:",
				    "cannot read config file '/proc/self/mem'",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0);
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
static opver_status read_text(const char *text, size_t size)
{
	return opver__config_read_text(text, size, &reporter, &config);
}

/* `message` with every occurrence of ini_path replaced by "<memory>". */
static void as_memory(const char *message, char *out, size_t size)
{
	size_t length = strlen(ini_path);
	const char *found;

	out[0] = '\0';
	while ((found = strstr(message, ini_path)) != NULL) {
		strncat(out, message, (size_t)(found - message));
		strncat(out, OPVER__CONFIG_TEXT_NAME, size - strlen(out) - 1);
		message = found + length;
	}
	strncat(out, message, size - strlen(out) - 1);
}

/* The `size` bytes of `text` read from memory give the status and the
 * messages they give as a file, the file's name replaced by "<memory>". */
static void assert_text_reads_as_file(const char *text, size_t size)
{
	static messages from_file;
	opver_status file_status, text_status;
	char expected[1024], got[1024];

	file_status = read_bytes(text, size);
	from_file = captured;
	opver__config_free(&config);
	messages_clear(&captured);
	text_status = read_text(text, size);
	cr_assert_eq(text_status, file_status, "file:\n%s\nmemory:\n%s",
		     from_file.text, captured.text);
	cr_assert_eq(messages_total(&captured), messages_total(&from_file),
		     "file:\n%s\nmemory:\n%s", from_file.text, captured.text);
	for (int i = 0; i < messages_total(&from_file); i++) {
		as_memory(messages_nth(&from_file, i, got, sizeof(got)),
			  expected, sizeof(expected));
		messages_nth(&captured, i, got, sizeof(got));
		cr_assert_str_eq(got, expected);
	}
	opver__config_free(&config);
	messages_clear(&captured);
}

Test(config, text_in_memory_reads_every_key)
{
	static const char text[] = "[opver]\n"
				   "plugin_path = /opt/a:/opt/b\n"
				   "strict = yes\n"
				   "threads = 6\n"
				   "log_level = debug\n"
				   "[plugin.fast]\n"
				   "library = /opt/fast.so\n"
				   "priority = 7\n"
				   "device = /dev/npu0\n";

	cr_assert_eq(read_text(text, sizeof(text) - 1), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(messages_total(&captured), 0, "%s", captured.text);
	cr_assert_eq(config.num_plugin_path, 2);
	cr_assert_str_eq(config.plugin_path[1], "/opt/b");
	cr_assert(config.strict);
	cr_assert_eq(config.threads, 6);
	cr_assert_eq(config.log_level, OPVER_LOG_DEBUG);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_str_eq(config.plugins[0].library, "/opt/fast.so");
	cr_assert_eq(config.plugins[0].priority, 7);
	cr_assert_str_eq(config.plugins[0].file, "<memory>");
	cr_assert_eq(config.plugins[0].line, 6);
	cr_assert_str_eq(config.plugins[0].options[0].value, "/dev/npu0");
}

Test(config, text_in_memory_reports_bad_lines_as_a_file_does)
{
	static const char every_bad_line[] = "[opver]\n"
					     "strict = perhaps\n"
					     "colour = blue\n"
					     "[unknown]\n"
					     "ignored = yes\n"
					     "[plugin.a]\n"
					     "no equals sign\n"
					     "priority = 1\n"
					     "priority = 2\n"
					     "[plugin.]\n"
					     "[plugin.a]\n"
					     "last line without equals";
	static const char bom_crlf[] = "\xEF\xBB\xBF[opver]\r\nstrict = on\r\nbad\r\n";
	static const char control[] = "[opver]\nstrict = o\0n\n[\x01]\nk = v\n";
	char long_line[512];

	assert_text_reads_as_file(every_bad_line, sizeof(every_bad_line) - 1);
	assert_text_reads_as_file(bom_crlf, sizeof(bom_crlf) - 1);
	assert_text_reads_as_file(control, sizeof(control) - 1);
	snprintf(long_line, sizeof(long_line),
		 "[plugin.a]\nk = 1\n[plugin.%0250d]\nk = 2\nstrict = x\n", 0);
	assert_text_reads_as_file(long_line, strlen(long_line));
	assert_text_reads_as_file("", 0);
	assert_text_reads_as_file("[opver]\n[opver]\n", 16);
}

Test(config, text_in_memory_bad_line_names_memory_and_line)
{
	static const char text[] = "[opver]\ncolour = blue\n";

	cr_assert_eq(read_text(text, sizeof(text) - 1), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error: <memory>:2: unknown key 'colour'",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0, "a failed read leaves nothing");
}

Test(config, text_in_memory_is_read_to_its_size_not_a_nul)
{
	/* The bytes past size are never read; no terminator is needed. */
	static const char text[] = "[opver]\nstrict = 1\ncolour = blue\n";

	cr_assert_eq(read_text(text, strlen("[opver]\nstrict = 1\n")),
		     OPVER_OK, "%s", captured.text);
	cr_assert(config.strict);
	opver__config_free(&config);
	cr_assert_eq(read_text(NULL, 0), OPVER_OK, "NULL reads as empty");
	cr_assert_eq(config.num_plugins, 0);
	opver__config_free(&config);
	/* A line cut off by size is a last line without its newline. */
	cr_assert_eq(read_text(text, strlen("[opver]\nstrict = 1\ncol")),
		     OPVER_ERROR_CONFIG);
	cr_assert(messages_line_has(&captured, "<memory>:3: expected 'key = value'",
				    NULL),
		  "%s", captured.text);
}

Test(config, text_in_memory_relative_paths_are_under_the_current_directory)
{
	static const char text[] = "[opver]\nplugin_path = plugins:/abs\n"
				   "fragment_dir = absent.d\n"
				   "[plugin.x]\nlibrary = lib/x.so\n";

	cr_assert_eq(read_text(text, sizeof(text) - 1), OPVER_OK, "%s",
		     captured.text);
	cr_assert_str_eq(config.plugin_path[0], "plugins");
	cr_assert_str_eq(config.plugin_path[1], "/abs");
	cr_assert_str_eq(config.fragment_dir, "absent.d");
	cr_assert_str_eq(config.plugins[0].library, "lib/x.so");
	cr_assert(messages_line_has(&captured, "info:", "fragment_dir 'absent.d' does not exist",
				    NULL),
		  "%s", captured.text);
}

Test(config, text_in_memory_reads_its_fragments)
{
	char text[256];

	make_dir("d", 0755);
	write_fragment("10-alpha.ini", "[plugin.alpha]\n");
	write_fragment("20-main.ini", "[plugin.main]\n");
	snprintf(text, sizeof(text), "[opver]\nfragment_dir = %s\n[plugin.main]\n",
		 at("d"));
	cr_assert_eq(read_text(text, strlen(text)), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, at("d/20-main.ini"), ":1: duplicate section [plugin.main] (first at <memory>:3;",
				    NULL),
		  "%s", captured.text);

	opver__config_free(&config);
	messages_clear(&captured);
	snprintf(text, sizeof(text), "[opver]\nfragment_dir = %s\n[plugin.first]\n",
		 at("d"));
	cr_assert_eq(read_text(text, strlen(text)), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(config.num_plugins, 3);
	cr_assert_str_eq(config.plugins[0].file, "<memory>");
	cr_assert_str_eq(config.plugins[1].name, "alpha");
	cr_assert_str_eq(config.plugins[2].file, at("d/20-main.ini"));
}
