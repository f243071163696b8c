# SPDX-License-Identifier: Apache-2.0
# Checks the symbols a library build defines, with nm:
#   -DLIBRARY=<shared library>: every dynamic symbol starts with bloom_;
#   -DARCHIVE=<static archive>: no global C symbol outside bloom_* (one a C
#     program's own function could clash with); C++ symbols (_Z...) are
#     namespaced, DW.ref.* are the unwinder's, and names starting with two
#     underscores are the compiler's (clang's weak __clang_call_terminate),
#     which no conforming program defines.
if(DEFINED LIBRARY)
  set(file ${LIBRARY})
  set(nm_args -D --defined-only)
else()
  set(file ${ARCHIVE})
  set(nm_args --defined-only)
endif()
execute_process(COMMAND nm ${nm_args} ${file} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${file}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(count 0)
foreach(line IN LISTS lines)
  # (Each MATCHES resets CMAKE_MATCH_1: keep the symbol first.)
  if(DEFINED LIBRARY AND line MATCHES "^[0-9a-fA-F]* *[A-Za-z] (.+)$")
    set(sym "${CMAKE_MATCH_1}")
    if(NOT sym MATCHES "^bloom_")
      message(FATAL_ERROR "exported symbol outside the API: ${sym}")
    endif()
    math(EXPR count "${count} + 1")
  elseif(NOT DEFINED LIBRARY AND line MATCHES "^[0-9a-fA-F]* +[TDBRVWGS] (.+)$")
    set(sym "${CMAKE_MATCH_1}")
    if(sym MATCHES "^bloom_")
      math(EXPR count "${count} + 1")
    elseif(NOT sym MATCHES "^_Z" AND NOT sym MATCHES "^DW\\.ref\\." AND NOT sym MATCHES "^__")
      message(FATAL_ERROR "global C symbol outside the API in ${file}: ${sym}")
    endif()
  endif()
endforeach()
if(count LESS 30)
  message(FATAL_ERROR "only ${count} bloom_* symbols in ${file}; the API is missing")
endif()
message(STATUS "${count} bloom_* symbols in ${file}, and no other C symbol")
