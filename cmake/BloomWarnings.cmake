# SPDX-License-Identifier: Apache-2.0
# Warnings stay at zero with -Wall -Wextra; CI turns them into errors.
function(bloom_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(BLOOM_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
