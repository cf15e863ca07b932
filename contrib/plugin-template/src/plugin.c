/*
 * plugin.c - a sample opver vendor plugin: one kernel, float32 ADD.
 *
 * Copy this project, rename it and replace the kernel with yours.  It uses
 * only the installed plugin ABI 2.x, <opver/plugin.h>, found through
 * `pkg-config opver-plugin`; nothing here links against libopver.  Every
 * callback is given a `ctx`, which it passes to the host services it calls
 * (OPVER_REPORT(ctx, ...) to say why it fails).
 *
 * The kernel computes output = clamp(input1 + input2) where the two float32
 * inputs broadcast as TensorFlow Lite broadcasts ADD: shapes are aligned on
 * their last dimension, each input dimension equals the output's or is 1
 * (that input's element is then reused along the dimension), and missing
 * leading dimensions count as 1.  The clamp is the node's fused activation:
 * NONE, RELU, RELU6 or RELU_N1_TO_1.
 *
 * Versions.  TFLite raises ADD's version only for features of other tensor
 * types (2 int8, 3 int16 with general scales, 4 int64, 5 int16 without
 * quantization, 6 float16); float32 ADD computes the same at every version.
 * A converter stores one version per op code, the highest any node of the
 * model needs, so a float32 ADD node can carry any of them: the kernel
 * claims 1..6.  When TFLite adds a version 7, check what it changes before
 * raising max_version.
 */
#include <float.h>
#include <stddef.h>

#include <opver/plugin.h>

/* The most dimensions TFLite's ADD broadcasts. */
#define ADD_MAX_RANK 6

/* Above the reference plugin's kernels (priority 0), so this kernel wins
 * for the nodes it accepts; the ini fragment can still change it. */
#define SAMPLE_PRIORITY 10

/*
 * What prepare works out for one node, kept in the node's op_data.  Shapes
 * are padded on the left with 1s to ADD_MAX_RANK dimensions.
 */
typedef struct add_data {
	/* The output's shape. */
	int32_t dims[ADD_MAX_RANK];
	/* How far each input's offset moves, in elements, per index of each
	 * dimension: 0 where the input is broadcast along it. */
	size_t strides1[ADD_MAX_RANK];
	size_t strides2[ADD_MAX_RANK];
	/* Output elements. */
	size_t count;
	/* The fused activation's clamp. */
	float min, max;
} add_data;

static const char *tensor_name(const opver_tensor *tensor)
{
	return tensor->name[0] != '\0' ? tensor->name : "(unnamed)";
}

/* The node's fused activation.  opver_read_params() keeps the defaults
 * (NONE) for what the core did not fill, as for a model without ADD
 * options. */
static int32_t node_activation(const opver_node *node)
{
	opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;

	opver_read_params(node, &params, sizeof(params));
	return params.activation;
}

/*
 * The clamp of a fused activation.  TFLite clamps even NONE, to the finite
 * float range, so an overflow to infinity comes out as +-FLT_MAX there; so
 * does it here.
 */
static opver_status activation_range(const opver_context *ctx,
				     int32_t activation, float *min, float *max)
{
	*min = -FLT_MAX;
	*max = FLT_MAX;
	switch (activation) {
	case OPVER_ACTIVATION_NONE:
		return OPVER_OK;
	case OPVER_ACTIVATION_RELU:
		*min = 0.0f;
		return OPVER_OK;
	case OPVER_ACTIVATION_RELU6:
		*min = 0.0f;
		*max = 6.0f;
		return OPVER_OK;
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		*min = -1.0f;
		*max = 1.0f;
		return OPVER_OK;
	default:
		OPVER_REPORT(ctx,
			     "fused activation %d is not supported (NONE, RELU, RELU6 and RELU_N1_TO_1 are)",
			     (int)activation);
		return OPVER_ERROR_UNSUPPORTED;
	}
}

/* Checks that a tensor is float32 with no more dimensions than `rank` and
 * exactly the bytes its shape needs.  Only its shape and size: in prepare,
 * the data of a tensor that is not a weight is not there yet. */
static opver_status check_tensor(const opver_context *ctx, const char *role,
				 const opver_tensor *tensor, int32_t rank)
{
	size_t count = 1;

	if (tensor == NULL) {
		OPVER_REPORT(ctx, "ADD needs %s", role);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (tensor->type != OPVER_TYPE_FLOAT32) {
		OPVER_REPORT(ctx, "%s '%s' is not float32", role,
			     tensor_name(tensor));
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (tensor->rank < 0 || tensor->rank > rank) {
		OPVER_REPORT(ctx,
			     "%s '%s' has %d dimensions; at most %d are supported",
			     role, tensor_name(tensor), (int)tensor->rank,
			     (int)rank);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t i = 0; i < tensor->rank; i++) {
		if (tensor->dims[i] < 0) {
			OPVER_REPORT(ctx, "%s '%s' has negative dimension %d",
				     role, tensor_name(tensor), (int)i);
			return OPVER_ERROR_INVALID_MODEL;
		}
		count *= (size_t)tensor->dims[i];
	}
	if (tensor->bytes != count * sizeof(float)) {
		OPVER_REPORT(ctx, "%s '%s' holds %zu bytes, its shape needs %zu",
			     role, tensor_name(tensor), tensor->bytes,
			     count * sizeof(float));
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Dimension `d` of a tensor whose shape is padded on the left with 1s to
 * ADD_MAX_RANK dimensions. */
static int32_t padded_dim(const opver_tensor *tensor, int d)
{
	const int first = ADD_MAX_RANK - tensor->rank;

	return d < first ? 1 : tensor->dims[d - first];
}

/*
 * Fills one input's strides: the step between consecutive indices of each
 * output dimension, in that input's elements, or 0 where the input's
 * dimension is 1 and broadcast.  The output's shape must be exactly the
 * broadcast of the two inputs, as TFLite requires.
 */
static opver_status plan_input(const opver_context *ctx, const char *role,
			       const opver_tensor *input,
			       const opver_tensor *output, size_t *strides)
{
	size_t step = 1;

	for (int d = ADD_MAX_RANK - 1; d >= 0; d--) {
		const int32_t in = padded_dim(input, d);
		const int32_t out = padded_dim(output, d);

		if (in != out && in != 1) {
			OPVER_REPORT(ctx,
				     "%s '%s' does not broadcast to output '%s': its dimension %d is %d, the output's matching one %d",
				     role, tensor_name(input),
				     tensor_name(output),
				     d - (ADD_MAX_RANK - (int)input->rank),
				     (int)in, (int)out);
			return OPVER_ERROR_INVALID_MODEL;
		}
		strides[d] = in == 1 ? 0 : step;
		step *= (size_t)in;
	}
	return OPVER_OK;
}

/* Everything that does not depend on the input values: checks, strides
 * and the clamp, kept in op_data for invoke. */
static opver_status add_prepare(const opver_context *ctx, opver_node *node)
{
	add_data *data = node->op_data;
	const opver_tensor *input1, *input2, *output;
	opver_status status;

	if (node->num_inputs != 2 || node->num_outputs != 1) {
		OPVER_REPORT(ctx,
			     "ADD takes 2 inputs and 1 output, the node has %d and %d",
			     (int)node->num_inputs, (int)node->num_outputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	input1 = node->inputs[0];
	input2 = node->inputs[1];
	output = node->outputs[0];
	status = check_tensor(ctx, "input 1", input1, ADD_MAX_RANK);
	if (status == OPVER_OK)
		status = check_tensor(ctx, "input 2", input2, ADD_MAX_RANK);
	if (status == OPVER_OK)
		status = check_tensor(ctx, "the output", output, ADD_MAX_RANK);
	if (status != OPVER_OK)
		return status;
	/* The output has as many dimensions as the larger input. */
	if (output->rank != (input1->rank > input2->rank ? input1->rank :
							   input2->rank)) {
		OPVER_REPORT(ctx,
			     "output '%s' has %d dimensions, the inputs %d and %d",
			     tensor_name(output), (int)output->rank,
			     (int)input1->rank, (int)input2->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = plan_input(ctx, "input 1", input1, output, data->strides1);
	if (status == OPVER_OK)
		status = plan_input(ctx, "input 2", input2, output,
				    data->strides2);
	if (status != OPVER_OK)
		return status;

	/* The output's shape must be the broadcast shape itself: no dimension
	 * other than 1 where both inputs have 1. */
	data->count = 1;
	for (int d = 0; d < ADD_MAX_RANK; d++) {
		data->dims[d] = padded_dim(output, d);
		data->count *= (size_t)data->dims[d];
		if (data->dims[d] != 1 && padded_dim(input1, d) == 1 &&
		    padded_dim(input2, d) == 1) {
			OPVER_REPORT(ctx,
				     "output '%s' has dimension %d where both inputs have 1",
				     tensor_name(output), (int)data->dims[d]);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	return activation_range(ctx, node_activation(node), &data->min,
				&data->max);
}

/*
 * Walks the output in order, keeping each input's offset in step with an
 * index per dimension (an odometer): the innermost index advances every
 * element and carries into the next when it reaches its dimension.
 */
static opver_status add_invoke(const opver_context *ctx, opver_node *node)
{
	const add_data *data = node->op_data;
	const float *input1 = node->inputs[0]->data;
	const float *input2 = node->inputs[1]->data;
	float *output = node->outputs[0]->data;
	int32_t index[ADD_MAX_RANK] = { 0 };
	size_t offset1 = 0, offset2 = 0;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++) {
		float sum = input1[offset1] + input2[offset2];

		/* Written so that a NaN sum stays NaN, as in TFLite. */
		if (sum < data->min)
			sum = data->min;
		else if (sum > data->max)
			sum = data->max;
		output[i] = sum;

		for (int d = ADD_MAX_RANK - 1; d >= 0; d--) {
			offset1 += data->strides1[d];
			offset2 += data->strides2[d];
			if (++index[d] < data->dims[d])
				break;
			offset1 -= data->strides1[d] * (size_t)data->dims[d];
			offset2 -= data->strides2[d] * (size_t)data->dims[d];
			index[d] = 0;
		}
	}
	return OPVER_OK;
}

/* Both inputs and the output float32; other positions are not checked. */
static const opver_type_signature add_signatures[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

/* One manifest entry: name, op and inclusive version range, then the
 * accepted types, priority, flags and callbacks. */
static const opver_kernel add_float32 = {
	OPVER_KERNEL("add_float32", ADD, 1, 6),
	OPVER_KERNEL_SIGNATURES(add_signatures),
	.priority = SAMPLE_PRIORITY,
	/* No kernel object: prepare keeps everything in op_data. */
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(add_data),
	.prepare = add_prepare,
	.invoke = add_invoke,
};

static const opver_kernel *const sample_kernels[] = { &add_float32 };

/*
 * The descriptor.  OPVER_PLUGIN_HEADER says which plugin ABI it was built
 * against and that it needs that minor or newer.  A plugin that uses
 * nothing added after 2.M loads into 2.M cores too when it writes out the
 * four fields instead, with .min_abi_minor = M.
 */
static const opver_plugin sample_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "sample",
	.vendor = "Example Vendor",
	.version = PACKAGE_VERSION,
	OPVER_PLUGIN_KERNELS(sample_kernels),
};

/*
 * The one exported symbol (the build hides everything else): opver
 * negotiates through it, and it returns the descriptor.  A plugin that
 * cannot run on this machine declines instead, with its reason:
 *
 *   if (!cpu_has_avx2())
 *           return negotiation->decline(negotiation, "needs AVX2");
 */
OPVER_PLUGIN_ENTRY
{
	return &sample_plugin;
}
