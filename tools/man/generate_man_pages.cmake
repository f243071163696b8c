# SPDX-License-Identifier: Apache-2.0
# Writes the man pages of the bloom tool into OUT_DIR from its own --help:
# bloom.1, and bloom-<command>.1 for every command `bloom --help` lists, so
# a command or option added to the tool is in its page at the next build.
#   cmake -DBLOOM=<bloom> -DHELP2MAN=<help2man> -DVERSION=<x.y.z> -DOUT_DIR=<dir> -P generate_man_pages.cmake
foreach(_var BLOOM HELP2MAN VERSION OUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "generate_man_pages.cmake: -D${_var}=... is required")
  endif()
endforeach()

execute_process(COMMAND "${BLOOM}" --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${BLOOM} --help failed: ${_rc}")
endif()

# The "Commands:" block of `bloom --help`: "  name    summary" lines up to
# the first blank line.
# (';' would split CMake's list: it travels as a placeholder until written.)
string(REPLACE ";" "<semicolon>" _help "${_help}")
string(REPLACE "\n" ";" _lines "${_help}")
set(_in_commands OFF)
set(_commands)
foreach(_line IN LISTS _lines)
  if(_line STREQUAL "Commands:")
    set(_in_commands ON)
  elseif(_in_commands AND _line MATCHES "^  ([a-z][a-z0-9-]*) +(.+)$")
    list(APPEND _commands "${CMAKE_MATCH_1}")
    set(_summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(_in_commands)
    break()
  endif()
endforeach()
if(NOT _commands)
  message(FATAL_ERROR "no commands found in `${BLOOM} --help`")
endif()

file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}/wrappers")

set(_see_also "bloom(1)")
foreach(_cmd IN LISTS _commands)
  string(APPEND _see_also ", bloom-${_cmd}(1)")
endforeach()

# The "Examples:" (or "Example:") block of a --help text as a roff block,
# one command per line: left to help2man, its lines were filled into one
# paragraph, and a line starting with "-" or "#" read as an option.
function(_bloom_examples_roff help out_var)
  # ';' and '\' (a shell continuation line) would split or join CMake's
  # list: both travel as placeholders until written.
  string(REPLACE ";" "<semicolon>" help "${help}")
  string(REPLACE "\\" "<backslash>" help "${help}")
  string(REPLACE "\n" ";" lines "${help}")
  set(in_examples OFF)
  set(roff "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^Examples?:$")
      set(in_examples ON)
    elseif(in_examples AND line MATCHES "^  (.*)$")
      set(text "${CMAKE_MATCH_1}")
      string(REPLACE "-" "\\-" text "${text}")
      string(REPLACE "<backslash>" "\\e" text "${text}")
      string(APPEND roff "\\&${text}\n")
    elseif(in_examples)
      break()
    endif()
  endforeach()
  if(roff STREQUAL "")
    set(${out_var} "" PARENT_SCOPE)
  else()
    set(${out_var} "[=EXAMPLES]\n.nf\n${roff}.fi\n" PARENT_SCOPE)
  endif()
endfunction()

# help2man(page, program, name): program is run with --help.
function(_bloom_help2man page program name)
  # The NAME line goes through the include file: a summary may hold ';'.
  string(REPLACE "-" "\\-" _name_line "${page} - ${name}")
  string(REPLACE "<semicolon>" ";" _name_line "${_name_line}")
  execute_process(COMMAND "${program}" --help OUTPUT_VARIABLE _page_help)
  _bloom_examples_roff("${_page_help}" _examples)
  string(REPLACE "<semicolon>" ";" _examples "${_examples}")
  file(WRITE "${OUT_DIR}/wrappers/${page}.h2m"
       "[NAME]\n${_name_line}\n${_examples}[SEE ALSO]\n${_see_also}\n.PP\nThe tool in depth: docs/cli.md in the bloom source tree.\n")
  execute_process(
    COMMAND "${HELP2MAN}" --no-info --version-string=${VERSION} --section=1
            "--source=bloom ${VERSION}" --manual=bloom --include=${OUT_DIR}/wrappers/${page}.h2m
            --output=${OUT_DIR}/${page}.1 ${program}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0 OR NOT EXISTS "${OUT_DIR}/${page}.1")
    message(FATAL_ERROR "help2man failed for ${page} (${_rc}): ${_err}")
  endif()
endfunction()

_bloom_help2man(bloom "${BLOOM}" "Bloom filters from the command line")
# help2man runs one program; each command gets a wrapper named after its page.
foreach(_cmd IN LISTS _commands)
  set(_wrapper "${OUT_DIR}/wrappers/bloom-${_cmd}")
  file(WRITE "${_wrapper}" "#!/bin/sh\nexec '${BLOOM}' ${_cmd} \"$@\"\n")
  file(CHMOD "${_wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
  _bloom_help2man(bloom-${_cmd} "${_wrapper}" "${_summary_${_cmd}}")
endforeach()
file(WRITE "${OUT_DIR}/pages.txt" "bloom.1\n")
foreach(_cmd IN LISTS _commands)
  file(APPEND "${OUT_DIR}/pages.txt" "bloom-${_cmd}.1\n")
endforeach()
