/* test_resolver.c - kernel choice: priority, config priority, type
 * constraints, fallback and strict mode, overlaps, custom ops, and the
 * message when no kernel handles a node. */
#include <criterion/criterion.h>
#include <string.h>

#include "messages.h"
#include "registry.h"
#include "resolver.h"

static opver_status noop(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	(void)node;
	return OPVER_OK;
}

static const opver_type_signature int8_fc = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT8), OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		    OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
};
static const opver_type_signature float_fc = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32), OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
};

static opver_kernel kernel(const char *name, int32_t op, int32_t min, int32_t max,
			   const opver_type_signature *signature, int32_t priority)
{
	opver_kernel k = {
		.struct_size = sizeof(k), .name = name, .op = op,
		.min_version = min, .max_version = max,
		.signatures = signature, .num_signatures = signature ? 1 : 0,
		.priority = priority, .prepare = noop, .invoke = noop,
	};

	return k;
}

static opver__plugin plugin(const char *name, opver_kernel *kernels, size_t count)
{
	opver__plugin p = { 0 };

	p.file = (char *)name;
	p.config_name = (char *)name;
	p.descriptor.name = name;
	p.descriptor.num_kernels = count;
	p.kernels = kernels;
	return p;
}

/* One FULLY_CONNECTED node: int8 input and weights, int32 bias, int8 out. */
static int32_t dims[2] = { 1, 4 };
static opver__graph_tensor tensors[4];
static int32_t node_inputs[3] = { 0, 1, 2 }, node_outputs[1] = { 3 };
static opver__graph_node node;
static opver__graph graph;
static messages captured;
static opver__reporter reporter;

static void setup(void)
{
	static const opver_type types[4] = { OPVER_TYPE_INT8, OPVER_TYPE_INT8,
					     OPVER_TYPE_INT32, OPVER_TYPE_INT8 };

	for (int t = 0; t < 4; t++) {
		memset(&tensors[t], 0, sizeof(tensors[t]));
		tensors[t].type = types[t];
		tensors[t].rank = 2;
		tensors[t].dims = dims;
		tensors[t].name = "";
	}
	memset(&node, 0, sizeof(node));
	node.op = OPVER_OP_FULLY_CONNECTED;
	node.version = 4;
	node.num_inputs = 3;
	node.inputs = node_inputs;
	node.num_outputs = 1;
	node.outputs = node_outputs;
	memset(&graph, 0, sizeof(graph));
	graph.num_tensors = 4;
	graph.tensors = tensors;
	graph.num_nodes = 1;
	graph.nodes = &node;
	messages_clear(&captured);
	reporter = messages_reporter(&captured);
}

TestSuite(resolver, .init = setup);

/* Builds the registry over `plugins` and resolves the node, at its stored
 * version or with strict_versions. */
static opver_status resolve_versions(opver__plugin *plugins, size_t count,
				     bool strict, bool strict_versions,
				     opver__registry *registry,
				     opver__binding *binding)
{
	opver__plugin *list[8];
	opver_status status;

	cr_assert_leq(count, 8);
	for (size_t p = 0; p < count; p++)
		list[p] = &plugins[p];
	/* The registry copies the list; the plugins stay in the test's
	 * array. */
	cr_assert_eq(opver__registry_build(list, count, &reporter, registry), OPVER_OK);
	status = opver__resolve_node(registry, &graph, 0, strict,
				     strict_versions, &reporter, binding);
	if (binding->unhandled) {
		bool unresolved[1] = { true };

		opver__report_unresolved(registry, &graph, unresolved,
					 strict_versions, OPVER_LOG_ERROR,
					 &reporter);
	}
	return status;
}

static opver_status resolve(opver__plugin *plugins, size_t count, bool strict,
			    opver__registry *registry, opver__binding *binding)
{
	return resolve_versions(plugins, count, strict, false, registry,
				binding);
}

Test(resolver, highest_manifest_priority_wins)
{
	opver_kernel ref[] = { kernel("fc_ref", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver_kernel fast[] = { kernel("fc_fast", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 50) };
	opver__plugin plugins[] = { plugin("reference", ref, 1), plugin("fast", fast, 1) };
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_fast");
	cr_assert_null(binding.preferred, "not a fallback");
	cr_assert(messages_line_has(&captured, "info:", "fc_fast", "takes precedence over", "fc_ref", NULL),
		  "the overlap is reported:\n%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, config_priority_overrides_the_manifest)
{
	opver_kernel ref[] = { kernel("fc_ref", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver_kernel fast[] = { kernel("fc_fast", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 50) };
	opver__plugin plugins[] = { plugin("reference", ref, 1), plugin("fast", fast, 1) };
	opver__registry registry;
	opver__binding binding;

	plugins[0].has_priority = true;
	plugins[0].priority = 100;
	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_ref");
	opver__registry_free(&registry);
}

Test(resolver, equal_priorities_go_to_load_order_and_are_reported)
{
	opver_kernel first[] = { kernel("fc_a", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 5) };
	opver_kernel second[] = { kernel("fc_b", OPVER_OP_FULLY_CONNECTED, 2, 6, &int8_fc, 5) };
	opver__plugin plugins[] = { plugin("a", first, 1), plugin("b", second, 1) };
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_a");
	cr_assert(messages_line_has(&captured, "warning:", "fc_a", "fc_b", "tie broken by load order", NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, kernels_that_reject_the_types_are_not_preferred)
{
	opver_kernel ref[] = { kernel("fc_int8", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver_kernel vendor[] = { kernel("fc_float", OPVER_OP_FULLY_CONNECTED, 1, 9, &float_fc, 100) };
	opver__plugin plugins[] = { plugin("reference", ref, 1), plugin("vendor", vendor, 1) };
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_int8");
	cr_assert_null(binding.preferred, "a float kernel is no candidate for int8 tensors");
	cr_assert_eq(captured.count[OPVER_LOG_WARNING], 0, "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, falls_back_when_the_preferred_plugin_lacks_the_version)
{
	opver_kernel ref[] = { kernel("fc_ref", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver_kernel vendor[] = { kernel("fc_vendor", OPVER_OP_FULLY_CONNECTED, 1, 3, &int8_fc, 100) };
	opver__plugin plugins[] = { plugin("reference", ref, 1), plugin("vendor", vendor, 1) };
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_ref");
	cr_assert_not_null(binding.preferred);
	cr_assert_str_eq(binding.preferred->kernel->name, "fc_vendor");
	cr_assert(messages_line_has(&captured, "warning:", "node 0 (FULLY_CONNECTED v4)",
				    "'vendor'", "versions 1-3", "falling back to", "'fc_ref'", NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, strict_mode_refuses_the_fallback)
{
	opver_kernel ref[] = { kernel("fc_ref", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver_kernel vendor[] = { kernel("fc_vendor", OPVER_OP_FULLY_CONNECTED, 1, 3, &int8_fc, 100) };
	opver__plugin plugins[] = { plugin("reference", ref, 1), plugin("vendor", vendor, 1) };
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(plugins, 2, true, &registry, &binding), OPVER_ERROR_UNRESOLVED);
	cr_assert_null(binding.chosen);
	cr_assert(messages_line_has(&captured, "error:", "node 0", "strict mode refuses", NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, no_kernel_names_node_op_version_types_and_every_plugin)
{
	opver_kernel ref[] = {
		kernel("fc_float", OPVER_OP_FULLY_CONNECTED, 1, 1, &float_fc, 0),
		kernel("fc_int8", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0),
	};
	opver_kernel other[] = { kernel("conv", OPVER_OP_CONV_2D, 1, 3, NULL, 0) };
	opver__plugin plugins[] = { plugin("reference", ref, 2), plugin("vendor", other, 1) };
	opver__registry registry;
	opver__binding binding;

	node.version = 9;
	cr_assert_eq(resolve(plugins, 2, false, &registry, &binding), OPVER_ERROR_UNRESOLVED);
	cr_assert(messages_line_has(&captured, "error:", "node 0 (FULLY_CONNECTED)",
				    "version 9", "(INT8,INT8,INT32 -> INT8)",
				    "Plugin 'reference' handles versions 1-1 for (FLOAT32,FLOAT32 -> FLOAT32); versions 1-4 for (INT8,INT8,INT32|absent -> INT8)",
				    "Plugin 'vendor' has no FULLY_CONNECTED kernel",
				    NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, no_plugin_loaded_says_so)
{
	opver__registry registry;
	opver__binding binding;

	cr_assert_eq(resolve(NULL, 0, false, &registry, &binding), OPVER_ERROR_UNRESOLVED);
	cr_assert(messages_line_has(&captured, "No plugin is loaded", NULL), "%s", captured.text);
	opver__registry_free(&registry);
}

/* Three unresolved nodes: 0 and 2 share op, version and types, 1 has
 * another version.  Nodes 0 and 2 get one message naming both; node 1 its
 * own; each node's own message is at debug level only. */
Test(resolver, unresolved_nodes_of_one_need_share_a_message)
{
	opver_kernel ref[] = { kernel("fc_int8", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver__plugin plugins[] = { plugin("reference", ref, 1) };
	opver__plugin *list[1] = { &plugins[0] };
	opver__graph_node nodes[3] = { node, node, node };
	bool unresolved[3] = { true, true, true };
	opver__registry registry;

	nodes[0].version = 7;
	nodes[1].version = 8;
	nodes[2].version = 7;
	graph.nodes = nodes;
	graph.num_nodes = 3;
	reporter.level = OPVER_LOG_DEBUG;
	cr_assert_eq(opver__registry_build(list, 1, &reporter, &registry), OPVER_OK);
	opver__report_unresolved(&registry, &graph, unresolved, false,
				 OPVER_LOG_ERROR, &reporter);
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 2, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "nodes 0, 2 (FULLY_CONNECTED)",
				    "version 7", "Plugin 'reference' handles versions 1-4", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "node 1 (FULLY_CONNECTED)",
				    "version 8", NULL), "%s", captured.text);
	cr_assert_eq(captured.count[OPVER_LOG_DEBUG], 3, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "debug:", "node 2 (FULLY_CONNECTED)",
				    "version 7", NULL), "%s", captured.text);
	cr_assert(!unresolved[0] && !unresolved[1] && !unresolved[2]);
	opver__registry_free(&registry);
}

/* Past 16 nodes the message counts the rest instead of listing them. */
Test(resolver, a_long_node_list_is_cut_with_a_count)
{
	opver__graph_node nodes[20];
	bool unresolved[20];
	opver__registry registry;

	for (int n = 0; n < 20; n++) {
		nodes[n] = node;
		unresolved[n] = true;
	}
	graph.nodes = nodes;
	graph.num_nodes = 20;
	cr_assert_eq(opver__registry_build(NULL, 0, &reporter, &registry), OPVER_OK);
	opver__report_unresolved(&registry, &graph, unresolved, false,
				 OPVER_LOG_INFO, &reporter);
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 0, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "No plugin is loaded", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:",
				    "nodes 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 and 4 more (--log-level debug lists each) (FULLY_CONNECTED)",
				    NULL), "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, custom_ops_resolve_by_name)
{
	opver_kernel kernels[] = {
		kernel("other", OPVER_OP_CUSTOM, 1, 5, NULL, 0),
		kernel("wanted", OPVER_OP_CUSTOM, 1, 5, NULL, 0),
	};
	opver__plugin plugins[] = { plugin("custom", kernels, 2) };
	opver__registry registry;
	opver__binding binding;

	kernels[0].custom_name = "OTHER_OP";
	kernels[1].custom_name = "MY_OP";
	node.op = OPVER_OP_CUSTOM;
	node.custom_name = "MY_OP";
	node.version = 2;
	cr_assert_eq(resolve(plugins, 1, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "wanted");
	opver__registry_free(&registry);

	messages_clear(&captured);
	node.custom_name = "UNKNOWN_OP";
	cr_assert_eq(resolve(plugins, 1, false, &registry, &binding), OPVER_ERROR_UNRESOLVED);
	cr_assert(messages_line_has(&captured, "node 0 (UNKNOWN_OP)", "has no UNKNOWN_OP kernel", NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}

Test(resolver, omitted_optional_input_matches_absent)
{
	opver_kernel ref[] = { kernel("fc_int8", OPVER_OP_FULLY_CONNECTED, 1, 4, &int8_fc, 0) };
	opver__plugin plugins[] = { plugin("reference", ref, 1) };
	opver__registry registry;
	opver__binding binding;

	node_inputs[2] = -1;
	cr_assert_eq(resolve(plugins, 1, false, &registry, &binding), OPVER_OK);
	node_inputs[2] = 2;
	opver__registry_free(&registry);
}

/* A model stores v2 but its types need v4: only strict_versions looks past
 * the stored version, and its message says why. */
Test(resolver, strict_versions_resolves_at_the_required_version)
{
	opver_kernel ref[] = {
		kernel("fc_old", OPVER_OP_FULLY_CONNECTED, 1, 2, &int8_fc, 0),
		kernel("fc_new", OPVER_OP_FULLY_CONNECTED, 4, 7, &int8_fc, 0),
	};
	opver__plugin plugins[] = { plugin("reference", ref, 2) };
	opver__registry registry;
	opver__binding binding;

	node.version = 2;
	node.required_version = 4;
	node.version_reason = "int8 input and weights, int8 output";
	cr_assert_eq(opver__resolution_version(&node, false), 2);
	cr_assert_eq(opver__resolution_version(&node, true), 4);
	cr_assert_eq(resolve(plugins, 1, false, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_old");
	opver__registry_free(&registry);

	cr_assert_eq(resolve_versions(plugins, 1, false, true, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_new");
	opver__registry_free(&registry);

	/* A stored version above the required one is kept (fc_new covers
	 * both, so the version itself is what shows it). */
	node.version = 6;
	cr_assert_eq(opver__resolution_version(&node, true), 6);
	cr_assert_eq(resolve_versions(plugins, 1, false, true, &registry, &binding), OPVER_OK);
	cr_assert_str_eq(binding.chosen->kernel->name, "fc_new");
	opver__registry_free(&registry);
}

Test(resolver, strict_versions_names_the_stored_and_required_versions)
{
	opver_kernel ref[] = { kernel("fc_old", OPVER_OP_FULLY_CONNECTED, 1, 2, &int8_fc, 0) };
	opver__plugin plugins[] = { plugin("reference", ref, 1) };
	opver__registry registry;
	opver__binding binding;

	node.version = 2;
	node.required_version = 4;
	node.version_reason = "int8 input and weights, int8 output";
	cr_assert_eq(resolve_versions(plugins, 1, false, true, &registry, &binding),
		     OPVER_ERROR_UNRESOLVED);
	cr_assert(messages_line_has(&captured, "needs FULLY_CONNECTED version 4",
				    "(stored as 2;", "int8 input and weights, int8 output",
				    "handles version 4.", NULL),
		  "%s", captured.text);
	opver__registry_free(&registry);
}
