/*
 * detection_nms.c - the non-max suppression of detection_nms.h, step for
 * step as TFLite's detection_postprocess kernel does it.
 */
#include <stdbool.h>
#include <string.h>

#include "detection_nms.h"

/* Classes each box keeps in the fast suppression. */
static int32_t classes_per_box(const ref_nms_params *p)
{
	return p->max_classes_per_detection < p->num_classes ?
		       p->max_classes_per_detection : p->num_classes;
}

uint64_t ref_nms_workspace_bytes(const ref_nms_params *p)
{
	const uint64_t boxes = (uint64_t)p->num_boxes;
	const uint64_t merged = boxes + (uint64_t)p->max_detections;

	/* Every element is 4 bytes but `active`'s, so the order of
	 * ref_nms_workspace keeps each array aligned when `active` is
	 * rounded up to 4. */
	return boxes * 4 * 3 + (boxes + 3) / 4 * 4 + merged * 4 * 5 +
	       boxes * (uint64_t)classes_per_box(p) * 4;
}

void ref_nms_workspace_carve(const ref_nms_params *p, void *memory,
			     ref_nms_workspace *ws)
{
	const size_t boxes = (size_t)p->num_boxes;
	const size_t merged = boxes + (size_t)p->max_detections;
	unsigned char *at = memory;

#define CARVE(field, count)                       \
	do {                                      \
		ws->field = (void *)at;           \
		at += (count) * sizeof(*ws->field); \
	} while (0)
	CARVE(keep_scores, boxes);
	CARVE(keep_indices, boxes);
	CARVE(active, (boxes + 3) / 4 * 4);
	CARVE(selected, boxes);
	CARVE(order, merged);
	CARVE(order_tmp, merged);
	CARVE(box_scores, merged);
	CARVE(merged_indices, merged);
	CARVE(merged_scores, merged);
	CARVE(classes, boxes * (size_t)classes_per_box(p));
#undef CARVE
}

/*
 * Sorts order[0, n) (indices into values) by decreasing value, stably:
 * a bottom-up merge sort through tmp (n entries), so equal values keep
 * their order, as std::stable_sort in TFLite's DecreasingArgSort.
 */
static void sort_decreasing(const float *values, int32_t *order,
			    int32_t *tmp, int32_t n)
{
	int32_t *from = order, *to = tmp;

	for (int32_t width = 1; width < n; width = width > n / 2 ? n : 2 * width) {
		for (int32_t lo = 0; lo < n; lo += 2 * width) {
			int32_t mid = n - lo > width ? lo + width : n;
			int32_t hi = n - mid > width ? mid + width : n;
			int32_t l = lo, r = mid, o = lo;

			while (l < mid && r < hi)
				to[o++] = values[from[r]] > values[from[l]] ?
						  from[r++] :
						  from[l++];
			while (l < mid)
				to[o++] = from[l++];
			while (r < hi)
				to[o++] = from[r++];
		}
		int32_t *swap = from;
		from = to;
		to = swap;
	}
	if (from != order)
		memcpy(order, from, (size_t)n * sizeof(*order));
}

float ref_box_iou(const ref_box *a, const ref_box *b)
{
	const float area_a = (a->ymax - a->ymin) * (a->xmax - a->xmin);
	const float area_b = (b->ymax - b->ymin) * (b->xmax - b->xmin);
	float ymin, xmin, ymax, xmax, intersection;

	if (area_a <= 0 || area_b <= 0)
		return 0.0f;
	ymin = a->ymin > b->ymin ? a->ymin : b->ymin;
	xmin = a->xmin > b->xmin ? a->xmin : b->xmin;
	ymax = a->ymax < b->ymax ? a->ymax : b->ymax;
	xmax = a->xmax < b->xmax ? a->xmax : b->xmax;
	intersection = (ymax - ymin > 0.0f ? ymax - ymin : 0.0f) *
		       (xmax - xmin > 0.0f ? xmax - xmin : 0.0f);
	return intersection / (area_a + area_b - intersection);
}

int32_t ref_nms_single_class(const ref_nms_params *p, const ref_box *boxes,
			     const float *scores, int32_t max_selected,
			     ref_nms_workspace *ws)
{
	int32_t kept = 0, active = 0, count = 0;

	for (int32_t i = 0; i < p->num_boxes; i++)
		if (scores[i] >= p->score_threshold) {
			ws->keep_scores[kept] = scores[i];
			ws->keep_indices[kept] = i;
			kept++;
		}
	for (int32_t i = 0; i < kept; i++) {
		ws->order[i] = i;
		ws->active[i] = 1;
	}
	sort_decreasing(ws->keep_scores, ws->order, ws->order_tmp, kept);
	active = kept;
	for (int32_t i = 0; i < kept; i++) {
		const ref_box *chosen;

		if (active == 0 || count >= max_selected)
			break;
		if (!ws->active[i])
			continue;
		ws->selected[count++] = ws->keep_indices[ws->order[i]];
		ws->active[i] = 0;
		active--;
		chosen = &boxes[ws->keep_indices[ws->order[i]]];
		for (int32_t j = i + 1; j < kept; j++)
			if (ws->active[j] &&
			    ref_box_iou(chosen,
					&boxes[ws->keep_indices[ws->order[j]]]) >
				    p->iou_threshold) {
				ws->active[j] = 0;
				active--;
			}
	}
	return count;
}

/* The indices of the k best of n scores, best first; ties to the lower
 * index. */
static void best_classes(const float *scores, int32_t n, int32_t k,
			 int32_t *best)
{
	for (int32_t c = 0; c < k; c++) {
		int32_t pick = -1;

		for (int32_t j = 0; j < n; j++) {
			bool taken = false;

			for (int32_t t = 0; t < c && !taken; t++)
				taken = best[t] == j;
			if (!taken && (pick < 0 || scores[j] > scores[pick]))
				pick = j;
		}
		best[c] = pick;
	}
}

void ref_nms_fast(const ref_nms_params *p, const ref_box *boxes,
		  const float *scores, ref_nms_workspace *ws,
		  const ref_detections *out)
{
	const int32_t k = classes_per_box(p);
	const size_t stride = (size_t)(p->num_classes + p->label_offset);
	int32_t count;

	/* Each box competes with its best class's score (what TFLite 2.12
	 * does, measured with 2 classes per box). */
	for (int32_t row = 0; row < p->num_boxes; row++) {
		const float *row_scores = scores + (size_t)row * stride +
					  (size_t)p->label_offset;
		int32_t *best = ws->classes + (size_t)row * (size_t)k;

		best_classes(row_scores, p->num_classes, k, best);
		ws->box_scores[row] = row_scores[best[0]];
	}
	count = ref_nms_single_class(p, boxes, ws->box_scores,
				     p->max_detections, ws);
	for (int32_t d = 0; d < count; d++) {
		const int32_t box = ws->selected[d];
		const float *row_scores = scores + (size_t)box * stride +
					  (size_t)p->label_offset;
		const int32_t *best = ws->classes + (size_t)box * (size_t)k;

		for (int32_t c = 0; c < k; c++) {
			const size_t o = (size_t)d *
					 (size_t)p->max_classes_per_detection +
					 (size_t)c;

			out->boxes[o] = boxes[box];
			out->classes[o] = (float)best[c];
			out->scores[o] = row_scores[best[c]];
		}
	}
	*out->count = (float)count;
}

void ref_nms_regular(const ref_nms_params *p, const ref_box *boxes,
		     const float *scores, ref_nms_workspace *ws,
		     const ref_detections *out)
{
	const int32_t stride = p->num_classes + p->label_offset;
	int32_t size = 0;

	/* Each class's survivors join the best so far, of which
	 * max_detections stay. */
	for (int32_t col = 0; col < p->num_classes; col++) {
		const int32_t column = col + p->label_offset;
		int32_t n, total, keep;

		for (int32_t row = 0; row < p->num_boxes; row++)
			ws->box_scores[row] =
				scores[(size_t)row * (size_t)stride +
				       (size_t)column];
		n = ref_nms_single_class(p, boxes, ws->box_scores,
					 p->detections_per_class, ws);
		total = size;
		for (int32_t s = 0; s < n; s++, total++) {
			ws->merged_indices[total] =
				ws->selected[s] * stride + column;
			ws->merged_scores[total] =
				ws->box_scores[ws->selected[s]];
		}
		keep = total < p->max_detections ? total : p->max_detections;
		for (int32_t i = 0; i < total; i++)
			ws->order[i] = i;
		sort_decreasing(ws->merged_scores, ws->order, ws->order_tmp,
				total);
		for (int32_t r = 0; r < keep; r++) {
			ws->order_tmp[r] = ws->merged_indices[ws->order[r]];
			ws->box_scores[r] = ws->merged_scores[ws->order[r]];
		}
		memcpy(ws->merged_indices, ws->order_tmp,
		       (size_t)keep * sizeof(int32_t));
		memcpy(ws->merged_scores, ws->box_scores,
		       (size_t)keep * sizeof(float));
		size = keep;
	}
	for (int32_t d = 0; d < size; d++) {
		const int32_t anchor = ws->merged_indices[d] / stride;

		out->boxes[d] = boxes[anchor];
		out->classes[d] = (float)(ws->merged_indices[d] -
					  anchor * stride - p->label_offset);
		out->scores[d] = ws->merged_scores[d];
	}
	*out->count = (float)size;
}
