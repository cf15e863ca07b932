/*
 * detection_nms.h - the non-max suppression of TFLite_Detection_PostProcess
 * over decoded boxes and float scores, as TFLite's kernel computes it:
 *
 *   ref_nms_single_class  greedy NMS of one score per box
 *   ref_nms_fast          one NMS over each box's best classes
 *                         (use_regular_nms false)
 *   ref_nms_regular       an NMS per class, then the best of all
 *                         (use_regular_nms true)
 *
 * Nothing here allocates: the caller hands in a workspace
 * (ref_nms_workspace_carve()).  Ties between
 * equal scores go to the lower index (a stable order), where TFLite's
 * partial sorts leave them unspecified.
 */
#ifndef OPVER_REFERENCE_DETECTION_NMS_H
#define OPVER_REFERENCE_DETECTION_NMS_H

#include <stddef.h>
#include <stdint.h>

/* A decoded box, corners in the order TFLite writes them. */
typedef struct ref_box {
	float ymin, xmin, ymax, xmax;
} ref_box;

/* What the suppression needs to know of the op's options and shapes. */
typedef struct ref_nms_params {
	int32_t num_boxes;
	int32_t num_classes;               /* without the background */
	int32_t label_offset;              /* 1 with a background column */
	int32_t max_detections;
	int32_t max_classes_per_detection;
	int32_t detections_per_class;      /* regular NMS */
	float score_threshold;             /* scores >= it are kept */
	float iou_threshold;               /* in (0, 1] */
} ref_nms_params;

/*
 * The workspace: arrays carved from one block of
 * ref_nms_workspace_bytes() bytes (arena scratch in the kernel).  Indices
 * are int32: the kernel checks that num_boxes x (num_classes +
 * label_offset) + max_detections fits.
 */
typedef struct ref_nms_workspace {
	float *keep_scores;       /* num_boxes */
	int32_t *keep_indices;    /* num_boxes */
	uint8_t *active;          /* num_boxes */
	int32_t *selected;        /* num_boxes */
	int32_t *order;           /* num_boxes + max_detections */
	int32_t *order_tmp;       /* num_boxes + max_detections */
	float *box_scores;        /* num_boxes + max_detections */
	int32_t *merged_indices;  /* regular: num_boxes + max_detections */
	float *merged_scores;     /* regular: num_boxes + max_detections */
	int32_t *classes;         /* fast: num_boxes x classes per box */
} ref_nms_workspace;

/* Bytes of the workspace for `p` (64-bit, so that the caller can check
 * that it fits a size_t). */
uint64_t ref_nms_workspace_bytes(const ref_nms_params *p);

/* Points ws's arrays into `memory`, ref_nms_workspace_bytes(p) bytes
 * aligned to 4 or more. */
void ref_nms_workspace_carve(const ref_nms_params *p, void *memory,
			     ref_nms_workspace *ws);

/* The outputs: rows of boxes, classes and scores (as floats), and the
 * number of rows detected.  Rows past those stay as they were. */
typedef struct ref_detections {
	ref_box *boxes;
	float *classes;
	float *scores;
	float *count;
} ref_detections;

/* Intersection over union of two boxes; 0 when either has no area. */
float ref_box_iou(const ref_box *a, const ref_box *b);

/*
 * Greedy NMS of `scores` (one per box): boxes scoring at least the
 * threshold, best first, each suppressing later ones whose IoU with it
 * exceeds the IoU threshold, up to `max_selected`.  Writes the chosen box
 * indices to ws->selected and returns how many.
 */
int32_t ref_nms_single_class(const ref_nms_params *p, const ref_box *boxes,
			     const float *scores, int32_t max_selected,
			     ref_nms_workspace *ws);

/* The two multi-class suppressions over scores [num_boxes, num_classes +
 * label_offset], writing `out`. */
void ref_nms_fast(const ref_nms_params *p, const ref_box *boxes,
		  const float *scores, ref_nms_workspace *ws,
		  const ref_detections *out);
void ref_nms_regular(const ref_nms_params *p, const ref_box *boxes,
		     const float *scores, ref_nms_workspace *ws,
		     const ref_detections *out);

#endif /* OPVER_REFERENCE_DETECTION_NMS_H */
