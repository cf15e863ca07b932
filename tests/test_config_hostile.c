/*
 * test_config_hostile.c - config files that are not what they seem
 * (FIFOs, /dev/zero, endless or overlong lines, control characters, read
 * errors) each fail at once with a message.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_files.h"

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
