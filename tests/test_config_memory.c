/*
 * test_config_memory.c - an ini read from memory (the runtime's
 * config_text) reads and reports as the same text in a file does.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_files.h"

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
