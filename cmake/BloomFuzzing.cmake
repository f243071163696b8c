# SPDX-License-Identifier: Apache-2.0
# -DBLOOM_BUILD_FUZZERS=ON builds the libFuzzer targets in fuzz/ (clang only).
# Everything, the library included, is compiled with coverage instrumentation
# (-fsanitize=fuzzer-no-link) so libFuzzer can see inside it; pair it with
# -DBLOOM_SANITIZE=address for ASan+UBSan (fuzz/run.sh does both).
option(BLOOM_BUILD_FUZZERS "Build the libFuzzer targets (needs clang)" OFF)
if(BLOOM_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "BLOOM_BUILD_FUZZERS needs clang (e.g. CXX=clang++-14); found ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
