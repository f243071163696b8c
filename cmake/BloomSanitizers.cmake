# SPDX-License-Identifier: Apache-2.0
# -DBLOOM_SANITIZE=address builds everything with ASan+UBSan,
# -DBLOOM_SANITIZE=thread with TSan. Applied globally so tests and library agree.
if(BLOOM_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
elseif(BLOOM_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT BLOOM_SANITIZE STREQUAL "")
  message(FATAL_ERROR "BLOOM_SANITIZE must be empty, 'address' or 'thread'")
endif()
