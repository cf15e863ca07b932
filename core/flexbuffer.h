/*
 * flexbuffer.h - a bounds-checked reader for the FlexBuffers maps that
 * custom ops keep their options in (TFLite writes custom_options with
 * flexbuffers::Builder).  It reads one thing: the value under a key of the
 * root map, when that value is a scalar (int, uint, float, bool, null) or
 * a string or blob.  The host's flex_map_find service wraps it.
 */
#ifndef OPVER_CORE_FLEXBUFFER_H
#define OPVER_CORE_FLEXBUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/*
 * Finds `key` in the map at the root of the `size` bytes at `data`
 * (borrowed; *value's bytes point into them) and fills *value, of kind
 * OPVER_FLEX_ABSENT when the map has no such key.  Returns false when the
 * bytes are not a well-formed map, or the key's value is malformed, with a
 * one-line reason in error (error_size bytes) and *value of kind ABSENT.
 * Every offset, width and length is checked before anything is read, and
 * the work is bounded by the map's size times the key's length.
 */
bool opver__flex_map_find(const uint8_t *data, size_t size, const char *key,
			  opver_flex_value *value, char *error,
			  size_t error_size);

#endif /* OPVER_CORE_FLEXBUFFER_H */
