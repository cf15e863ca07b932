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
 * manifest order.  A name the plugin has no kernel of is reported as a
 * warning with the section's file and line: the models it was selected for
 * may then fail to bind, and the message says why.
 */
void opver__select_kernels(opver__plugin *plugin,
			   const opver__plugin_config *config,
			   const opver__reporter *reporter);

#endif /* OPVER_CORE_KERNEL_SELECTION_H */
