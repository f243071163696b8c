# SPDX-License-Identifier: Apache-2.0
# Fails unless the dynamic symbols LIBRARY exports are exactly the functions
# HEADER declares with BLOOM_API: nothing declared is missing from the
# library, nothing exported is undeclared. (check_exports.cmake checks the
# bloom_ prefix; the version script cmake/bloom.map decides what is global.)
file(STRINGS "${HEADER}" decls REGEX "BLOOM_API")
set(declared "")
foreach(line IN LISTS decls)
  if(line MATCHES "BLOOM_API[^(]*[ *](bloom_[A-Za-z0-9_]+)\\(")
    list(APPEND declared "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(REMOVE_DUPLICATES declared)
list(SORT declared)

execute_process(COMMAND nm -D --defined-only ${LIBRARY} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(exported "")
foreach(line IN LISTS lines)
  # Type A is the version node itself (bloom_1), not a function.
  if(line MATCHES "^[0-9a-fA-F]* *([B-Zb-z]) ([^@ ]+)")
    list(APPEND exported "${CMAKE_MATCH_2}")
  endif()
endforeach()
list(REMOVE_DUPLICATES exported)
list(SORT exported)

set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
set(extra ${exported})
list(REMOVE_ITEM extra ${declared})
if(missing OR extra)
  message(FATAL_ERROR "exports differ from bloom.h: declared but not exported: [${missing}]; "
                      "exported but not declared: [${extra}]")
endif()
list(LENGTH declared n)
if(n LESS 30)
  message(FATAL_ERROR "only ${n} BLOOM_API functions found in ${HEADER}; the parser is broken")
endif()
message(STATUS "${n} functions: bloom.h and the exports agree")
