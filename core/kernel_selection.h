/*
 * kernel_selection.h - a plugin section's kernels = list: the plugin keeps
 * only the kernels named there, so that a config written for a set of
 * models (opver-select) binds them exactly as before and nothing else.
 */
#ifndef OPVER_CORE_KERNEL_SELECTION_H
#define OPVER_CORE_KERNEL_SELECTION_H

#include "config.h"
#include "plugin_loader.h"
#include "report.h"

/*
 * Drops from plugin->kernels every kernel `config` does not name, keeping
 * manifest order, and records where the list is (kernels_chosen_at, for
 * the resolver's messages).  A name the plugin has no kernel of is
 * reported as a warning with the file and line of the kernels = lines.
 * OPVER_ERROR_NOMEM when memory runs out.
 */
opver_status opver__select_kernels(opver__plugin *plugin,
				   const opver__plugin_config *config,
				   const opver__reporter *reporter);

#endif /* OPVER_CORE_KERNEL_SELECTION_H */
