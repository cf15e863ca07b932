/*
 * runtime.h - the runtime object behind opver_runtime: the reporter, the
 * config, the loaded plugins and the registry of their kernels.  Shared by the modules that implement the
 * host API (runtime.c, model.c, interpreter.c).
 */
#ifndef OPVER_CORE_RUNTIME_H
#define OPVER_CORE_RUNTIME_H

#include <stdatomic.h>

#include "config.h"
#include "graph.h"
#include "plugin_loader.h"
#include "registry.h"
#include "report.h"

struct opver_runtime {
	opver__reporter reporter;
	opver__config config;
	bool strict;
	/* Resolve at max(stored, required) version (op_version.h). */
	bool strict_versions;
	/* Interpreters' default thread count; 0 means 1. */
	uint32_t threads;
	/* Owned: num_plugins loaded plugins in load order, each record
	 * allocated alone and owned, so that it never moves (its call record
	 * is the context of its plugin-wide callbacks, and the registry and
	 * interpreters point to it). */
	opver__plugin **plugins;
	size_t num_plugins;
	opver__registry registry;
	/* Interpreters not yet destroyed: they point into the registry, so
	 * no plugin is added while there are any.  Atomic, because an
	 * application may create interpreters on several threads. */
	atomic_size_t num_interpreters;
};

/* The decoded graph of an open model.  Borrowed; valid while it is open. */
const opver__graph *opver__model_graph(const opver_model *model);

#endif /* OPVER_CORE_RUNTIME_H */
