/*
 * fuzz_flexbuffer.c - libFuzzer target: the custom-options reader
 * (core/flexbuffer.c).  Each input is option bytes, looked up under the
 * keys TFLite_Detection_PostProcess reads and under a key of the input's
 * own choosing (its first byte says how many of the following bytes name
 * it; the rest are the options).  A found string or blob must lie inside
 * the bytes, and a failure must say why.
 */
#include <stdlib.h>
#include <string.h>

#include "flexbuffer.h"
#include "fuzz_target.h"

static const char *const keys[] = {
	"max_detections", "max_classes_per_detection", "detections_per_class",
	"use_regular_nms", "nms_score_threshold", "nms_iou_threshold",
	"num_classes", "y_scale", "x_scale", "h_scale", "w_scale", "",
};

static void look_up(const uint8_t *data, size_t size, const char *key)
{
	opver_flex_value v;
	char error[200];

	if (!opver__flex_map_find(data, size, key, &v, error, sizeof(error))) {
		if (error[0] == '\0' || v.kind != OPVER_FLEX_ABSENT)
			abort();
		return;
	}
	if (v.bytes != NULL &&
	    (v.bytes < data || v.size > size ||
	     (size_t)(v.bytes - data) > size - v.size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char key[256];
	size_t length;

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		look_up(data, size, keys[k]);
	if (size == 0)
		return 0;
	length = data[0] < size - 1 ? data[0] : size - 1;
	memcpy(key, data + 1, length);
	key[length] = '\0';
	look_up(data + 1 + length, size - 1 - length, key);
	return 0;
}
