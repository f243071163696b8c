/* SPDX-License-Identifier: Apache-2.0 */
/* sha256.h -- SHA-256 (FIPS 180-4) for the conformance runner's image
 * hashes; the project links no crypto library. */
#ifndef BLOOM_CONFORMANCE_SHA256_H
#define BLOOM_CONFORMANCE_SHA256_H

#include <stddef.h>

/* hex: 65 bytes, receives 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
