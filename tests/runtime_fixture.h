/*
 * runtime_fixture.h - starting a runtime over a config written for the test,
 * opening test models, and reaching a loaded test plugin's counters.
 */
#ifndef OPVER_TEST_RUNTIME_FIXTURE_H
#define OPVER_TEST_RUNTIME_FIXTURE_H

#include "messages.h"
#include "opver/opver.h"
#include "plugins/stats.h"

/* Writes `config_text` to a temporary file and starts a runtime on it with
 * messages captured in `captured`.  Asserts success; caller destroys. */
opver_runtime *fixture_runtime(const char *config_text, messages *captured);

/* Opens TEST_MODEL_DIR/NAME.tflite.  Asserts success; caller closes. */
opver_model *fixture_model(opver_runtime *runtime, const char *name);

/* The address of `symbol` in the loaded test plugin
 * TEST_PLUGIN_DIR/NAME.so.  Asserts it is there. */
void *fixture_symbol(const char *plugin_name, const char *symbol);

/* The counters of the loaded test plugin TEST_PLUGIN_DIR/NAME.so. */
test_counters *fixture_stats(const char *plugin_name);

#endif /* OPVER_TEST_RUNTIME_FIXTURE_H */
