/* SPDX-License-Identifier: Apache-2.0 */
/* json_reader.h -- a small JSON reader for the conformance runner (C has
 * none in its standard library, and the project vendors no third-party
 * code). Numbers keep their text so u64 seeds up to 2^64 - 1 read exactly
 * (strtoull) and doubles round-trip (strtod). */
#ifndef BLOOM_CONFORMANCE_JSON_READER_H
#define BLOOM_CONFORMANCE_JSON_READER_H

#include <stddef.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
  json_type type;
  int boolean;
  char *text; /* JSON_STRING: the bytes (NUL-terminated, may hold NUL); JSON_NUMBER: the literal */
  size_t len; /* JSON_STRING: byte count */
  struct json_value *items; /* JSON_ARRAY, JSON_OBJECT: n values */
  char **keys;              /* JSON_OBJECT: n keys */
  size_t n;
} json_value;

/* Parse text (len bytes). Returns 0 and fills *out, or -1 with a message in
 * err (errlen bytes). Free with json_free. */
int json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen);
void json_free(json_value *v);
/* The member named key of an object, or NULL. */
const json_value *json_get(const json_value *obj, const char *key);

#endif
