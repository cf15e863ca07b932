/*
 * fuzz_runtime.h - the runtime the model fuzz targets share: created once
 * per process (libFuzzer calls the target millions of times) and never
 * destroyed, messages dropped.
 */
#ifndef OPVER_FUZZ_RUNTIME_H
#define OPVER_FUZZ_RUNTIME_H

#include "opver/opver.h"
#include "opver/plugin.h"

/* The process's runtime, with the plugin whose entry point is `entry`
 * registered statically as "reference" (a target that links its sources),
 * or with no plugin when NULL.  Aborts when it cannot be created. */
opver_runtime *fuzz_runtime(opver_plugin_entry_fn entry);

#endif /* OPVER_FUZZ_RUNTIME_H */
