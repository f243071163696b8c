# SPDX-License-Identifier: Apache-2.0
# BLOOM_PYTHON_PTH: make interpreters find the installed package.
#
# Outside /usr the package's directory (<prefix>/lib/python3/dist-packages)
# is read by no interpreter: Debian's python3 reads /usr/local/lib/python3.11/
# dist-packages, pyenv's its own site-packages, and both ~/.local/lib/
# python3.11/site-packages. With BLOOM_PYTHON_PTH set, `cmake --install`
# also writes bloomkit.pth (one line: the package's directory) into a site
# directory of each interpreter in BLOOM_PYTHON_PTH_INTERPRETERS:
#   system  its first site-packages directory (root installing into /usr/local)
#   user    its user site directory (site.getusersitepackages(), e.g. ~/.local/...)
# The .pth is in the install manifest, so `uninstall` removes it. Skipped
# under DESTDIR (a staged install for a package must not touch this machine).
set(BLOOM_PYTHON_PTH OFF CACHE STRING "Write bloomkit.pth into interpreters' site directories at install: OFF, system or user")
set_property(CACHE BLOOM_PYTHON_PTH PROPERTY STRINGS OFF system user)
set(BLOOM_PYTHON_PTH_INTERPRETERS "" CACHE STRING "The python3 interpreters that get bloomkit.pth (default: python3 on PATH and /usr/bin/python3)")
if(NOT BLOOM_PYTHON_PTH)
  return()
endif()
if(NOT BLOOM_PYTHON_PTH MATCHES "^(system|user)$")
  message(FATAL_ERROR "BLOOM_PYTHON_PTH must be OFF, system or user, not '${BLOOM_PYTHON_PTH}'")
endif()
set(_interpreters ${BLOOM_PYTHON_PTH_INTERPRETERS})
if(NOT _interpreters)
  find_program(_bloom_path_python3 NAMES python3 NO_CACHE)
  foreach(_py ${_bloom_path_python3} /usr/bin/python3)
    if(EXISTS "${_py}")
      list(APPEND _interpreters "${_py}")
    endif()
  endforeach()
endif()
list(REMOVE_DUPLICATES _interpreters)
list(JOIN _interpreters ", " _shown)
message(STATUS "Python: bloomkit.pth goes into the ${BLOOM_PYTHON_PTH} site directory of ${_shown}")

install(CODE "
  set(_package_dir \"${BLOOM_PYTHON_INSTALL_DIR}\")
  if(NOT IS_ABSOLUTE \"\${_package_dir}\")
    set(_package_dir \"\${CMAKE_INSTALL_PREFIX}/\${_package_dir}\")
  endif()
  if(NOT \"\$ENV{DESTDIR}\" STREQUAL \"\")
    message(STATUS \"Python: DESTDIR is set, no bloomkit.pth written\")
  else()
    file(WRITE \"${CMAKE_CURRENT_BINARY_DIR}/pth/bloomkit.pth\" \"\${_package_dir}\\n\")
    foreach(_py ${_interpreters})
      execute_process(COMMAND \"\${_py}\" -c
        \"import site; print(site.getsitepackages()[0] if '${BLOOM_PYTHON_PTH}' == 'system' else site.getusersitepackages())\"
        OUTPUT_VARIABLE _site OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0 OR _site STREQUAL \"\")
        message(WARNING \"Python: \${_py} did not name its site directory; it will not find bloomkit\")
      else()
        file(INSTALL DESTINATION \"\${_site}\" TYPE FILE FILES \"${CMAKE_CURRENT_BINARY_DIR}/pth/bloomkit.pth\")
      endif()
    endforeach()
  endif()" COMPONENT python)
