/*
 * detection_postprocess.c - the custom op TFLite_Detection_PostProcess that
 * ends SSD-style detectors, computed as TensorFlow Lite's kernel computes
 * it: decode each box from its anchor (centre-size encoding over
 * y_scale, x_scale, h_scale and w_scale), then non-max suppression
 * (detection_nms.c), fast or regular (use_regular_nms).
 *
 * Inputs: box encodings [1, boxes, 4 or more], class scores [1, boxes,
 * classes (+ 1 background column)], anchors [boxes, 4] of the encodings'
 * type; each float32, or uint8 or int8 quantized per tensor and
 * dequantized as TFLite does (scale x (q - zero point)).  TFLite 2.12
 * refuses int8 at invoke; int8 is dequantized the same way.  Outputs, float32: boxes [1, N, 4] (ymin,
 * xmin, ymax, xmax), classes [1, N], scores [1, N] and the count [1], with
 * N = max_detections x max_classes_per_detection; rows past the count are
 * 0.  Outputs whose shape the model leaves out (or states otherwise) get
 * these through the host's resize_output, as TFLite resizes them.  The options come from the node's FlexBuffers map through the host's
 * flex_map_find (ABI 2.2); a missing key reads as TFLite reads it (0, or
 * 100 for detections_per_class).  Beyond TFLite's checks, options that
 * make no detector (no detections or classes, a zero or non-finite scale)
 * are refused in prepare rather than computed into NaN boxes.
 *
 * TFLite registers the op at version 1 only.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "detection_nms.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"

#define USAGE "TFLite_Detection_PostProcess takes box encodings, class " \
	      "scores and anchors, and gives boxes, classes, scores and " \
	      "the number of detections"

/* The types of each input; the outputs are float32. */
#define DETECTION_INPUT (OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8))

/* An input as invoke reads it: its type, and its quantization when it is
 * uint8 or int8. */
typedef struct detection_input {
	int32_t type;
	float scale;
	int32_t zero_point;
} detection_input;

typedef struct detection_data {
	ref_nms_params nms;
	int32_t regular;
	float y_scale, x_scale, h_scale, w_scale;
	int32_t box_code_size;
	int32_t detections;  /* N, the outputs' rows */
	detection_input encodings, scores, anchors;
	int32_t decoded;     /* scratch: num_boxes ref_box */
	int32_t dequantized; /* scratch: float scores, or -1 for float input */
	int32_t workspace;   /* scratch: ref_nms_workspace */
} detection_data;

/* ------------------------------------------------------------- options */

/* The number under `key`; `fallback` when the map lacks it or holds
 * null, as TFLite's reader gives 0 (or its default) there. */
static opver_status option_number(const opver_context *ctx,
				  const opver_node *node, const char *key,
				  double fallback, opver_flex_value *value)
{
	opver_status status = ctx->host->flex_map_find(
		ctx, node->custom_options, node->custom_options_size, key,
		value);

	if (status != OPVER_OK)
		return status;
	if (value->kind == OPVER_FLEX_ABSENT || value->kind == OPVER_FLEX_NULL) {
		value->as_float = fallback;
		value->as_int = (int64_t)fallback;
		return OPVER_OK;
	}
	if (!value->is_number) {
		OPVER_REPORT(ctx, "option %s is not a number", key);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* An integer option in [min, INT32_MAX]. */
static opver_status option_int(const opver_context *ctx,
			       const opver_node *node, const char *key,
			       int32_t fallback, int32_t min, int32_t *out)
{
	opver_flex_value v;
	opver_status status = option_number(ctx, node, key, fallback, &v);

	if (status != OPVER_OK)
		return status;
	if (v.as_int < min || v.as_int > INT32_MAX) {
		OPVER_REPORT(ctx, "option %s is %lld; it must be in [%d, %d]",
			     key, (long long)v.as_int, (int)min, INT32_MAX);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*out = (int32_t)v.as_int;
	return OPVER_OK;
}

/* A float option; `nonzero` refuses 0 (a scale), and every one must be
 * finite. */
static opver_status option_float(const opver_context *ctx,
				 const opver_node *node, const char *key,
				 bool nonzero, float *out)
{
	opver_flex_value v;
	opver_status status = option_number(ctx, node, key, 0.0, &v);

	if (status != OPVER_OK)
		return status;
	/* Checked in double: a double past FLT_MAX has no float. */
	if (!isfinite(v.as_float) || fabs(v.as_float) > FLT_MAX ||
	    (nonzero && (float)v.as_float == 0.0f)) {
		OPVER_REPORT(ctx, "option %s is %g; it must be finite%s", key,
			     v.as_float, nonzero ? " and non-zero" : "");
		return OPVER_ERROR_INVALID_MODEL;
	}
	*out = (float)v.as_float;
	return OPVER_OK;
}

static opver_status read_options(const opver_context *ctx,
				 const opver_node *node, detection_data *d)
{
	ref_nms_params *p = &d->nms;
	opver_flex_value regular;
	opver_status status = OPVER_OK;

	if (!OPVER_HOST_HAS(ctx->host, flex_map_find)) {
		OPVER_REPORT(ctx, "needs the host's flex_map_find (ABI 2.2) to read its options");
		return OPVER_ERROR_UNSUPPORTED;
	}
#define TRY(call)                          \
	do {                               \
		if (status == OPVER_OK)    \
			status = (call);   \
	} while (0)
	TRY(option_int(ctx, node, "max_detections", 0, 1,
		       &p->max_detections));
	TRY(option_int(ctx, node, "max_classes_per_detection", 0, 1,
		       &p->max_classes_per_detection));
	TRY(option_int(ctx, node, "detections_per_class", 100, 1,
		       &p->detections_per_class));
	TRY(option_int(ctx, node, "num_classes", 0, 1, &p->num_classes));
	TRY(option_number(ctx, node, "use_regular_nms", 0, &regular));
	TRY(option_float(ctx, node, "nms_score_threshold", false,
			 &p->score_threshold));
	TRY(option_float(ctx, node, "nms_iou_threshold", false,
			 &p->iou_threshold));
	TRY(option_float(ctx, node, "y_scale", true, &d->y_scale));
	TRY(option_float(ctx, node, "x_scale", true, &d->x_scale));
	TRY(option_float(ctx, node, "h_scale", true, &d->h_scale));
	TRY(option_float(ctx, node, "w_scale", true, &d->w_scale));
#undef TRY
	if (status != OPVER_OK)
		return status;
	d->regular = regular.as_int != 0;
	if (!(p->iou_threshold > 0.0f && p->iou_threshold <= 1.0f)) {
		OPVER_REPORT(ctx, "option nms_iou_threshold is %g; it must be in (0, 1]",
			     (double)p->iou_threshold);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* -------------------------------------------------------------- shapes */

/* `tensor` is float32, or uint8 or int8 quantized per tensor. */
static opver_status input_type(const opver_context *ctx, const char *role,
			       const opver_tensor *tensor,
			       detection_input *in)
{
	opver_status status = ref_expect_type_in(ctx, role, tensor,
						 DETECTION_INPUT);

	in->type = tensor->type;
	if (status == OPVER_OK && tensor->type != OPVER_TYPE_FLOAT32)
		status = ref_per_tensor_quantization(ctx, role, tensor,
						     &in->scale,
						     &in->zero_point);
	return status;
}

/* `tensor` has rank `rank` and the dimensions of `want` (-1: any). */
static opver_status expect_dims(const opver_context *ctx, const char *role,
				const opver_tensor *tensor, int32_t rank,
				const int32_t *want)
{
	opver_status status = ref_expect_rank(ctx, role, tensor, rank);

	for (int32_t i = 0; status == OPVER_OK && i < rank; i++)
		if (want[i] >= 0 && tensor->dims[i] != want[i]) {
			OPVER_REPORT(ctx, "%s '%s' has %d in dimension %d where %d is needed",
				     role, tensor->name, (int)tensor->dims[i],
				     (int)i, (int)want[i]);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	return status;
}

static opver_status check_inputs(const opver_context *ctx,
				 const opver_node *node, detection_data *d)
{
	ref_nms_params *p = &d->nms;
	const opver_tensor *encodings = node->inputs[0];
	const opver_tensor *scores = node->inputs[1];
	opver_status status;
	int32_t columns;

	status = expect_dims(ctx, "box encodings", encodings, 3,
			     (const int32_t[]){ 1, -1, -1 });
	if (status != OPVER_OK)
		return status;
	p->num_boxes = encodings->dims[1];
	d->box_code_size = encodings->dims[2];
	if (d->box_code_size < 4) {
		OPVER_REPORT(ctx, "box encodings '%s' have %d values per box; at least 4 (y, x, h, w) are needed",
			     encodings->name, (int)d->box_code_size);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = expect_dims(ctx, "class scores", scores, 3,
			     (const int32_t[]){ 1, p->num_boxes, -1 });
	if (status == OPVER_OK)
		status = expect_dims(ctx, "anchors", node->inputs[2], 2,
				     (const int32_t[]){ p->num_boxes, 4 });
	if (status != OPVER_OK)
		return status;
	columns = scores->dims[2];
	p->label_offset = columns - p->num_classes;
	if (p->label_offset != 0 && p->label_offset != 1) {
		OPVER_REPORT(ctx, "class scores '%s' have %d columns for num_classes %d; there must be num_classes, or one more for the background",
			     scores->name, (int)columns, (int)p->num_classes);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* The suppression's indices are int32. */
	if ((int64_t)p->num_boxes * columns + p->max_detections > INT32_MAX) {
		OPVER_REPORT(ctx, "%d boxes of %d scores are too many",
			     (int)p->num_boxes, (int)columns);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = input_type(ctx, "box encodings", encodings, &d->encodings);
	if (status == OPVER_OK)
		status = input_type(ctx, "class scores", scores, &d->scores);
	if (status == OPVER_OK)
		status = input_type(ctx, "anchors", node->inputs[2],
				    &d->anchors);
	/* TFLite decodes anchors of the encodings' type only. */
	if (status == OPVER_OK && d->anchors.type != d->encodings.type) {
		OPVER_REPORT(ctx, "anchors '%s' are %s and box encodings '%s' %s; they must be of one type",
			     node->inputs[2]->name,
			     ctx->host->type_name(d->anchors.type),
			     encodings->name,
			     ctx->host->type_name(d->encodings.type));
		status = OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

/* Output `i` has shape want[0, rank): as the model states it, or given
 * it through resize_output, since models often leave these shapes out
 * and TFLite sets them in prepare. */
static opver_status output_shape(const opver_context *ctx,
				 const opver_node *node, int32_t i,
				 const char *role, int32_t rank,
				 const int32_t *want)
{
	const opver_tensor *t = node->outputs[i];
	opver_status status = ref_expect_type(ctx, role, t, OPVER_TYPE_FLOAT32);
	bool same = t->rank == rank;

	for (int32_t d = 0; same && d < rank; d++)
		same = t->dims[d] == want[d];
	if (status != OPVER_OK || same)
		return status;
	if (OPVER_HOST_HAS(ctx->host, resize_output))
		return ctx->host->resize_output(ctx, i, want, rank);
	return expect_dims(ctx, role, t, rank, want);
}

static opver_status check_outputs(const opver_context *ctx,
				  const opver_node *node, detection_data *d)
{
	int64_t rows = (int64_t)d->nms.max_detections *
		       d->nms.max_classes_per_detection;
	opver_status status;

	if (rows > INT32_MAX) {
		OPVER_REPORT(ctx, "max_detections x max_classes_per_detection is %lld rows, too many",
			     (long long)rows);
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->detections = (int32_t)rows;
	status = output_shape(ctx, node, 0, "detection boxes", 3,
			      (const int32_t[]){ 1, d->detections, 4 });
	if (status == OPVER_OK)
		status = output_shape(ctx, node, 1, "detection classes", 2,
				      (const int32_t[]){ 1, d->detections });
	if (status == OPVER_OK)
		status = output_shape(ctx, node, 2, "detection scores", 2,
				      (const int32_t[]){ 1, d->detections });
	if (status == OPVER_OK)
		status = output_shape(ctx, node, 3, "number of detections", 1,
				      (const int32_t[]){ 1 });
	return status;
}

static opver_status detection_prepare(const opver_context *ctx,
				      opver_node *node)
{
	detection_data *d = node->op_data;
	opver_status status;
	uint64_t workspace;

	status = ref_check_arity(ctx, node, 3, 3, 4, USAGE);
	if (status == OPVER_OK)
		status = read_options(ctx, node, d);
	if (status == OPVER_OK)
		status = check_inputs(ctx, node, d);
	if (status == OPVER_OK)
		status = check_outputs(ctx, node, d);
	if (status != OPVER_OK)
		return status;
	workspace = ref_nms_workspace_bytes(&d->nms);
	if (workspace > SIZE_MAX) {
		OPVER_REPORT(ctx, "suppression needs %llu bytes, too many",
			     (unsigned long long)workspace);
		return OPVER_ERROR_NOMEM;
	}
	d->dequantized = -1;
	status = ref_request_scratch(ctx, (size_t)d->nms.num_boxes,
				     sizeof(ref_box), "decoded boxes",
				     &d->decoded);
	if (status == OPVER_OK && d->scores.type != OPVER_TYPE_FLOAT32)
		status = ref_request_scratch(
			ctx, opver_tensor_elements(node->inputs[1]),
			sizeof(float), "dequantized scores", &d->dequantized);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)workspace, 1,
					     "bytes of suppression workspace",
					     &d->workspace);
	return status;
}

/* -------------------------------------------------------------- invoke */

/* Element i of an input, dequantized. */
static float input_value(const detection_input *in, const void *data,
			 size_t i)
{
	switch (in->type) {
	case OPVER_TYPE_UINT8:
		return in->scale *
		       (float)((int32_t)((const uint8_t *)data)[i] -
			       in->zero_point);
	case OPVER_TYPE_INT8:
		return in->scale *
		       (float)((int32_t)((const int8_t *)data)[i] -
			       in->zero_point);
	default:
		return ((const float *)data)[i];
	}
}

/* A double rounded to float, past the float range as infinity (which IEEE
 * rounding gives, and C leaves undefined). */
static float to_float(double v)
{
	if (v > FLT_MAX)
		return INFINITY;
	if (v < -FLT_MAX)
		return -INFINITY;
	return (float)v;
}

/* Centre-size decoding of each box against its anchor, in double as
 * TFLite computes it, rounded to float. */
static void decode_boxes(const detection_data *d, const opver_node *node,
			 ref_box *out)
{
	const void *encodings = node->inputs[0]->data;
	const void *anchors = node->inputs[2]->data;

	for (size_t b = 0; b < (size_t)d->nms.num_boxes; b++) {
		const size_t e = b * (size_t)d->box_code_size;
		const double y = input_value(&d->encodings, encodings, e);
		const double x = input_value(&d->encodings, encodings, e + 1);
		const double h = input_value(&d->encodings, encodings, e + 2);
		const double w = input_value(&d->encodings, encodings, e + 3);
		const double ay = input_value(&d->anchors, anchors, b * 4);
		const double ax = input_value(&d->anchors, anchors, b * 4 + 1);
		const double ah = input_value(&d->anchors, anchors, b * 4 + 2);
		const double aw = input_value(&d->anchors, anchors, b * 4 + 3);
		const float ycenter = to_float(y / d->y_scale * ah + ay);
		const float xcenter = to_float(x / d->x_scale * aw + ax);
		const float half_h = to_float(0.5 * exp(h / d->h_scale) * ah);
		const float half_w = to_float(0.5 * exp(w / d->w_scale) * aw);

		out[b].ymin = ycenter - half_h;
		out[b].xmin = xcenter - half_w;
		out[b].ymax = ycenter + half_h;
		out[b].xmax = xcenter + half_w;
	}
}

static opver_status detection_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const detection_data *d = node->op_data;
	ref_box *boxes = ref_scratch(ctx, d->decoded);
	void *memory = ref_scratch(ctx, d->workspace);
	const float *scores = node->inputs[1]->data;
	ref_nms_workspace ws;
	ref_detections out = {
		.boxes = node->outputs[0]->data,
		.classes = node->outputs[1]->data,
		.scores = node->outputs[2]->data,
		.count = node->outputs[3]->data,
	};

	if (boxes == NULL || memory == NULL)
		return OPVER_ERROR;
	if (d->dequantized >= 0) {
		float *dequantized = ref_scratch(ctx, d->dequantized);
		const size_t count = opver_tensor_elements(node->inputs[1]);

		if (dequantized == NULL)
			return OPVER_ERROR;
		for (size_t i = 0; i < count; i++)
			dequantized[i] = input_value(
				&d->scores, node->inputs[1]->data, i);
		scores = dequantized;
	}
	memset(out.boxes, 0, node->outputs[0]->bytes);
	memset(out.classes, 0, node->outputs[1]->bytes);
	memset(out.scores, 0, node->outputs[2]->bytes);
	decode_boxes(d, node, boxes);
	ref_nms_workspace_carve(&d->nms, memory, &ws);
	if (d->regular)
		ref_nms_regular(&d->nms, boxes, scores, &ws, &out);
	else
		ref_nms_fast(&d->nms, boxes, scores, &ws, &out);
	return OPVER_OK;
}

const opver_kernel ref_detection_postprocess = {
	OPVER_CUSTOM_KERNEL("detection_postprocess",
			    "TFLite_Detection_PostProcess", 1, 1),
	REF_KERNEL_TRAITS,
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(DETECTION_INPUT,
						    DETECTION_INPUT,
						    DETECTION_INPUT),
				       OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	.op_data_size = sizeof(detection_data),
	.prepare = detection_prepare,
	.invoke = detection_invoke,
};
