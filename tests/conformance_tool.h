/*
 * conformance_tool.h - what the test_conformance_*.c suites share: the
 * test plugins they run, running the built opver-conformance as a vendor
 * would (posix_spawn, stdout and stderr captured), and reading its output.
 * The conformance suite itself (its timeout) is declared once, in
 * conformance_tool.c.
 */
#ifndef OPVER_TESTS_CONFORMANCE_TOOL_H
#define OPVER_TESTS_CONFORMANCE_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "spawn.h"

#define WRONG_DEPTHWISE TEST_PLUGIN_DIR "/wrong_depthwise.so"
#define GREEDY_DELEGATE TEST_PLUGIN_DIR "/greedy_delegate.so"
#define MISCLAIMING_DELEGATE TEST_PLUGIN_DIR "/misclaiming_delegate.so"
#define MISCLAIMING_SUITE "ADD/delegate:misclaiming_npu: "
#define CRASHING_KERNEL TEST_PLUGIN_DIR "/crashing_kernel.so"
#define CRASHING_SUITE "RESHAPE/crashing_reshape_float32"
#define HANGING_SUITE "RESHAPE/hanging_reshape_int32"
#define WRONG_RELU6 TEST_PLUGIN_DIR "/wrong_relu6.so"
#define WRONG_PADDING TEST_PLUGIN_DIR "/wrong_padding.so"
#define OLD_FC TEST_PLUGIN_DIR "/old_fc.so"
#define ABI10 TEST_PLUGIN_DIR "/abi10.so"
#define DECLINES TEST_PLUGIN_DIR "/declines.so"

/* Runs opver-conformance --reference REFERENCE_PLUGIN with the further
 * NULL-terminated arguments. */
void conformance(spawn_result *r, ...);

void assert_status(const spawn_result *r, int status);

/* How many lines of `text` start with `prefix`. */
int lines_starting(const char *text, const char *prefix);

/* How many times `needle` occurs in `text`. */
int occurrences(const char *text, const char *needle);

/* The line of `text` starting with `prefix`, copied into line[size]. */
bool find_line(const char *text, const char *prefix, char *line,
	       size_t size);

#endif
