/*
 * plugin_loader.h - loads one plugin and checks it.
 *
 * Two steps, one concern each.  Loading a shared object: the file is
 * readable and whole, dlopen(RTLD_NOW | RTLD_LOCAL), the entry symbol.
 * Checking a descriptor, for a loaded plugin and for one registered
 * in-process (opver_runtime_add_plugin) alike: negotiation (the plugin may
 * decline), the ABI version, every struct_size, the manifest (version
 * ranges, required callbacks, overlaps inside the plugin), the delegate's
 * typed claims, then the plugin's init with its options.  Each failure is
 * one message naming the file (or the static plugin's name) and the reason,
 * ending in ", not loading"; the caller goes on with the next plugin.
 *
 * Everything downstream reads the normalized copies kept here, never the
 * plugin's own structs: fields beyond a struct's struct_size read as zero,
 * so a plugin built for an older ABI minor never has a newer field read,
 * and a newer plugin's extra fields are never seen.
 */
#ifndef OPVER_CORE_PLUGIN_LOADER_H
#define OPVER_CORE_PLUGIN_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call.h"
#include "config.h"
#include "opver/plugin.h"
#include "report.h"

typedef struct opver__plugin {
	char *file;               /* owned; the path given to dlopen, or
	                           * OPVER__STATIC_PLUGIN_FILE */
	char *config_name;        /* owned; section NAME or file stem */
	void *handle;             /* from dlopen, closed by unload; NULL
	                           * for a static plugin */
	opver_plugin descriptor;  /* normalized copy; its kernels/delegate
	                           * pointers still point into the plugin */
	opver_kernel *kernels;    /* owned; normalized copies,
	                           * descriptor.num_kernels entries */
	bool has_delegate;
	opver_delegate delegate;  /* normalized copy when has_delegate; its
	                           * ops pointer is the plugin's, read
	                           * delegate_ops instead */
	opver_delegate_op *delegate_ops; /* owned; normalized copies,
	                                  * delegate.num_ops entries */
	bool has_priority;        /* priority from the config */
	int32_t priority;
	/* The config section it was loaded from, or NULL (a plugin found in
	 * a directory, or added in-process).  Borrowed from the runtime's
	 * config, which outlives its plugins. */
	const opver__plugin_config *section;
	/* "FILE:LINE" of the kernels = lines that chose `kernels` from the
	 * plugin's manifest (kernel_selection.h), or NULL.  Owned. */
	char *kernels_chosen_at;
	/* The context of plugin-wide calls (init, fini, claims); its
	 * plugin_data is what init returned. */
	opver__call call;
} opver__plugin;

/*
 * Loads and checks the plugin at `path` into *plugin, which must not move
 * until it is unloaded (its call record is the context plugin-wide
 * callbacks get).  `config` is the plugin's ini section, or NULL for a
 * plugin found in a directory (`config_name` then names it).  `reporter`
 * is borrowed and must outlive the plugin.  On success the caller owns
 * *plugin's contents; release with opver__plugin_unload().  On failure
 * everything is undone and OPVER_ERROR_PLUGIN (or _NOMEM) is returned
 * after one reported message.
 */
opver_status opver__plugin_load(const char *path, const char *config_name,
				const opver__plugin_config *config,
				const opver__reporter *reporter,
				opver__plugin *plugin);

/* What opver_plugin_info.file says of a plugin registered in-process. */
#define OPVER__STATIC_PLUGIN_FILE "(static)"

/*
 * Checks the descriptor `entry` returns for a plugin linked into the
 * program, under the name `name` (borrowed for the call; copied as its
 * config name, and what messages call it), and calls its init with
 * `options` (num_options of them, borrowed for the call).  Same contract
 * as opver__plugin_load(), with file OPVER__STATIC_PLUGIN_FILE and no
 * handle; a static plugin has no configured priority.
 */
opver_status opver__plugin_load_static(opver_plugin_entry_fn entry,
				       const char *name,
				       const opver_option *options,
				       size_t num_options,
				       const opver__reporter *reporter,
				       opver__plugin *plugin);

/* Calls the plugin's fini, dlcloses it when it was loaded from a file and
 * frees the copies.  Safe on a zeroed plugin. */
void opver__plugin_unload(opver__plugin *plugin);

#endif /* OPVER_CORE_PLUGIN_LOADER_H */
