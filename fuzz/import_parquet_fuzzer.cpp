// SPDX-License-Identifier: Apache-2.0
// import_parquet_fuzzer.cpp -- raw bytes into bloom_import(BLOOM_FORMAT_PARQUET, ...)
// (import_fuzz.hpp says what must hold).
#include "import_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return bloom::fuzz::import_one(BLOOM_FORMAT_PARQUET, data, size);
}
