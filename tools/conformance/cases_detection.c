/*
 * cases_detection.c - cases of the custom op TFLite_Detection_PostProcess
 * (version 1, the one TFLite registers), its options written as the
 * FlexBuffers map TFLite's converter writes.
 *
 * Variants: float32, uint8 and int8 inputs (box encodings, class scores
 * and constant anchors of one type), each with fast and regular NMS; fast
 * NMS with several classes per detection; class scores without the
 * background column; detections_per_class left out (TFLite reads 100);
 * box codes of 5 and 6 values (the first 4 decoded); many boxes; a high
 * score threshold.  Each case draws the boxes (4-24; 40-80 of 1-2
 * classes with many boxes), classes (1-5), max_detections (2-8),
 * max_classes_per_detection (1, or 2-3), detections_per_class (1-5), the
 * score threshold (0-0.5; 0.5-1 when high, which few scores or none
 * pass) and IoU threshold (0.3-0.7), the y/x scales (5-10) and h/w
 * scales (3-6).
 *
 * No two scores of a case are equal, and none equals the score
 * threshold: TFLite sorts scores with partial and unstable sorts, so the
 * order of equal scores (which box a tie keeps, which class a box shows
 * first) is implementation-defined, and a case with ties would check
 * that order rather than the op.  Float scores are a random permutation
 * of the intervals (k + 0.05, k + 0.95) / n, one per element; quantized
 * scores distinct steps (scale 1/256), the threshold half a step between
 * two.  Anchors centre in [0.2, 0.8] with sides in [0.1, 0.5], so that
 * decoded boxes overlap and suppression has work to do.
 */
#include "cases.h"
#include "flexbuffer_writer.h"

#define DETECTION_NAME "TFLite_Detection_PostProcess"

/* Quantized class scores: steps of 1/256, so every step is a distinct
 * score in [0, 1). */
#define SCORE_SCALE (1.0f / 256.0f)
/* Quantized anchors: steps of 1/200 over [0, 1.275]. */
#define ANCHOR_SCALE (1.0f / 200.0f)

typedef struct detection_variant {
	opver_type type;
	bool regular;
	bool multi_class;       /* max_classes_per_detection 2-3 */
	bool no_background;     /* scores have num_classes columns */
	bool default_per_class; /* detections_per_class left out */
	int32_t code_size;      /* values per box encoding */
	bool many_boxes;        /* 40-80 boxes of 1-2 classes */
	bool high_threshold;    /* the score threshold in [0.5, 1) */
} detection_variant;

static const detection_variant variants[] = {
	{ OPVER_TYPE_FLOAT32, false, false, false, false, 4, false, false },
	{ OPVER_TYPE_FLOAT32, true, false, false, false, 4, false, false },
	{ OPVER_TYPE_FLOAT32, false, true, false, false, 4, false, false },
	{ OPVER_TYPE_FLOAT32, true, false, true, true, 4, false, false },
	{ OPVER_TYPE_FLOAT32, false, true, true, false, 6, false, false },
	{ OPVER_TYPE_FLOAT32, true, true, false, false, 5, false, false },
	{ OPVER_TYPE_UINT8, false, false, false, false, 4, false, false },
	{ OPVER_TYPE_UINT8, true, false, false, false, 4, false, false },
	{ OPVER_TYPE_UINT8, false, true, false, false, 4, false, false },
	{ OPVER_TYPE_UINT8, true, false, true, true, 5, false, false },
	{ OPVER_TYPE_INT8, false, false, false, false, 4, false, false },
	{ OPVER_TYPE_INT8, true, true, false, false, 4, false, false },
	{ OPVER_TYPE_FLOAT32, true, false, false, false, 4, true, false },
	{ OPVER_TYPE_UINT8, false, true, false, false, 4, true, false },
	{ OPVER_TYPE_FLOAT32, false, false, false, false, 4, false, true },
	{ OPVER_TYPE_UINT8, true, false, false, false, 4, false, true },
};
#define NUM_DETECTION_VARIANTS \
	((int32_t)(sizeof(variants) / sizeof(variants[0])))

/* Fisher-Yates: order[0..n-1] a random permutation of 0..n-1. */
static void shuffle(cf_rng *rng, int32_t *order, int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		order[i] = i;
	for (int32_t i = n - 1; i > 0; i--) {
		const int32_t j = cf_rng_int(rng, 0, i);
		const int32_t swap = order[i];

		order[i] = order[j];
		order[j] = swap;
	}
}

/*
 * The class scores, all distinct (see the top of the file), and a score
 * threshold that equals none of them: drawn from [0, 0.5] (`high`: [0.5,
 * 1)) as a multiple of 1/n (float) or half a step off a step
 * (quantized).
 */
static bool fill_scores(cf_case *c, cf_rng *rng, int32_t t, opver_type type,
			bool high, float *threshold)
{
	const int32_t n = (int32_t)cf_tensor_elements(&c->tensors[t]);
	/* At most 80 boxes of 3 columns, or 24 of 6. */
	int32_t order[256];
	void *values;

	if (n > 256 || !cf_case_fill(c, t, rng, 0, 1, false))
		return false;
	values = cf_case_values(c, t);
	if (type == OPVER_TYPE_FLOAT32) {
		shuffle(rng, order, n);
		for (int32_t i = 0; i < n; i++)
			((float *)values)[i] =
				((float)order[i] +
				 cf_rng_float(rng, 0.05f, 0.95f)) / (float)n;
		*threshold = (float)(high ? cf_rng_int(rng, n / 2, n - 1) :
					    cf_rng_int(rng, 0, n / 2)) /
			     (float)n;
		return true;
	}
	/* n distinct steps of the 256, their real values step x scale. */
	shuffle(rng, order, 256);
	for (int32_t i = 0; i < n; i++) {
		if (type == OPVER_TYPE_UINT8)
			((uint8_t *)values)[i] = (uint8_t)order[i];
		else
			((int8_t *)values)[i] = (int8_t)(order[i] - 128);
	}
	*threshold = ((float)(high ? cf_rng_int(rng, 128, 254) :
				     cf_rng_int(rng, 0, 127)) +
		      0.5f) * SCORE_SCALE;
	return cf_case_quantize(c, t, SCORE_SCALE,
				type == OPVER_TYPE_UINT8 ? 0 : -128);
}

/* A real anchor value in the anchors' type: itself, or quantized. */
static void set_anchor(void *data, opver_type type, size_t i, float value)
{
	const int32_t q = (int32_t)(value / ANCHOR_SCALE + 0.5f);

	if (type == OPVER_TYPE_FLOAT32)
		((float *)data)[i] = value;
	else if (type == OPVER_TYPE_UINT8)
		((uint8_t *)data)[i] = (uint8_t)q;
	else
		((int8_t *)data)[i] = (int8_t)(q - 128);
}

/* Constant anchors [boxes, 4] (y, x, h, w). */
static bool fill_anchors(cf_case *c, cf_rng *rng, int32_t t, opver_type type)
{
	const size_t boxes = (size_t)c->tensors[t].dims[0];
	void *data;

	if (!cf_case_fill(c, t, rng, 0, 1, true))
		return false;
	data = cf_case_values(c, t);
	for (size_t b = 0; b < boxes; b++) {
		set_anchor(data, type, 4 * b, cf_rng_float(rng, 0.2f, 0.8f));
		set_anchor(data, type, 4 * b + 1, cf_rng_float(rng, 0.2f, 0.8f));
		set_anchor(data, type, 4 * b + 2, cf_rng_float(rng, 0.1f, 0.5f));
		set_anchor(data, type, 4 * b + 3, cf_rng_float(rng, 0.1f, 0.5f));
	}
	return type == OPVER_TYPE_FLOAT32 ||
	       cf_case_quantize(c, t, ANCHOR_SCALE,
				type == OPVER_TYPE_UINT8 ? 0 : -128);
}

/* Box encodings: centre offsets and log sizes of a few units at most
 * (quantized: random steps of 1/50 around the middle zero point). */
static bool fill_encodings(cf_case *c, cf_rng *rng, int32_t t,
			   opver_type type)
{
	if (type == OPVER_TYPE_FLOAT32)
		return cf_case_fill(c, t, rng, -2, 2, false);
	if (type == OPVER_TYPE_UINT8)
		return cf_case_fill(c, t, rng, 0, 255, false) &&
		       cf_case_quantize(c, t, 0.02f, 128);
	return cf_case_fill(c, t, rng, -128, 127, false) &&
	       cf_case_quantize(c, t, 0.02f, 0);
}

/* The options the case draws, as the node's FlexBuffers map. */
typedef struct detection_options {
	int32_t max_detections, max_classes, per_class, num_classes;
	bool regular, default_per_class;
	float score_threshold, iou_threshold;
	float y_scale, x_scale, h_scale, w_scale;
} detection_options;

static bool write_options(cf_case *c, const detection_options *o)
{
	const cf_flex_entry entries[] = {
		{ "max_detections", CF_FLEX_INT, o->max_detections, 0 },
		{ "max_classes_per_detection", CF_FLEX_INT, o->max_classes, 0 },
		{ "num_classes", CF_FLEX_INT, o->num_classes, 0 },
		{ "use_regular_nms", CF_FLEX_BOOL, o->regular, 0 },
		{ "nms_score_threshold", CF_FLEX_FLOAT, 0, o->score_threshold },
		{ "nms_iou_threshold", CF_FLEX_FLOAT, 0, o->iou_threshold },
		{ "y_scale", CF_FLEX_FLOAT, 0, o->y_scale },
		{ "x_scale", CF_FLEX_FLOAT, 0, o->x_scale },
		{ "h_scale", CF_FLEX_FLOAT, 0, o->h_scale },
		{ "w_scale", CF_FLEX_FLOAT, 0, o->w_scale },
		/* Last, so that it can be left out. */
		{ "detections_per_class", CF_FLEX_INT, o->per_class, 0 },
	};
	const size_t count = sizeof(entries) / sizeof(entries[0]) -
			     (o->default_per_class ? 1 : 0);
	const size_t size = cf_flex_write_map(entries, count, NULL);
	uint8_t *bytes = cf_case_alloc(c, size);

	if (bytes == NULL)
		return false;
	cf_flex_write_map(entries, count, bytes);
	c->custom_options = bytes;
	c->custom_options_size = size;
	return true;
}

static bool generate_detection(int32_t variant, cf_rng *rng, cf_case *c)
{
	const detection_variant *v = &variants[variant];
	const int32_t boxes = v->many_boxes ? cf_rng_int(rng, 40, 80) :
					      cf_rng_int(rng, 4, 24);
	detection_options o = {
		.num_classes = cf_rng_int(rng, 1, v->many_boxes ? 2 : 5),
		.max_detections = cf_rng_int(rng, 2, 8),
		.max_classes = v->multi_class ? cf_rng_int(rng, 2, 3) : 1,
		.per_class = cf_rng_int(rng, 1, 5),
		.regular = v->regular,
		.default_per_class = v->default_per_class,
	};
	const int32_t columns = o.num_classes + (v->no_background ? 0 : 1);
	const int32_t rows = o.max_detections * o.max_classes;
	int32_t encodings, scores, anchors, output;
	bool ok;

	o.iou_threshold = cf_rng_float(rng, 0.3f, 0.7f);
	o.y_scale = cf_rng_float(rng, 5, 10);
	o.x_scale = cf_rng_float(rng, 5, 10);
	o.h_scale = cf_rng_float(rng, 3, 6);
	o.w_scale = cf_rng_float(rng, 3, 6);
	encodings = cf_case_tensor(c, v->type, 3,
				   (const int32_t[]){ 1, boxes, v->code_size });
	scores = cf_case_tensor(c, v->type, 3,
				(const int32_t[]){ 1, boxes, columns });
	anchors = cf_case_tensor(c, v->type, 2, (const int32_t[]){ boxes, 4 });
	cf_case_input(c, encodings);
	cf_case_input(c, scores);
	cf_case_input(c, anchors);
	output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 3,
				(const int32_t[]){ 1, rows, 4 });
	c->output = output;
	for (int i = 0; i < 2; i++)
		cf_case_more_output(c, cf_case_tensor(c, OPVER_TYPE_FLOAT32, 2,
						      (const int32_t[]){ 1,
									 rows }));
	cf_case_more_output(c, cf_case_tensor(c, OPVER_TYPE_FLOAT32, 1,
					      (const int32_t[]){ 1 }));
	ok = fill_encodings(c, rng, encodings, v->type) &&
	     fill_scores(c, rng, scores, v->type, v->high_threshold,
			 &o.score_threshold) &&
	     fill_anchors(c, rng, anchors, v->type) && write_options(c, &o);
	c->custom_name = DETECTION_NAME;
	cf_case_param(c, "boxes=%d code=%d classes=%d bg=%d regular=%d max_det=%d per_det=%d per_class=%d score>=%g iou=%g scales=%g,%g,%g,%g",
		      (int)boxes, (int)v->code_size, (int)o.num_classes,
		      (int)!v->no_background, (int)o.regular,
		      (int)o.max_detections, (int)o.max_classes,
		      o.default_per_class ? 100 : (int)o.per_class,
		      (double)o.score_threshold, (double)o.iou_threshold,
		      (double)o.y_scale, (double)o.x_scale, (double)o.h_scale,
		      (double)o.w_scale);
	return ok;
}

const cf_generator cf_detection_postprocess_cases = {
	.op = OPVER_OP_CUSTOM,
	.num_variants = NUM_DETECTION_VARIANTS,
	.generate = generate_detection,
	.custom_name = DETECTION_NAME,
};
