# SPDX-License-Identifier: Apache-2.0
# bloomkit._cext, the C extension of the Python package (python/cext): built
# against CPython's limited API (abi3, Python >= 3.10), so one file serves
# every Python 3 from 3.10 on. It does not link libbloomfilter: the package
# hands it the functions of the library ctypes loaded (_fast.py).
# Default ON when Python's headers are found (Debian: python3-dev).
# CMake 3.25 has no Development.SABIModule (3.26): the abi3 name is set here.
set(_cext_default OFF)
if(NOT WIN32)  # (the .pyd naming and linking are not done here)
  find_package(Python3 3.10 QUIET COMPONENTS Interpreter Development.Module)
  # Off in sanitizer builds by default: never loaded there (tests/python skips them).
  if(Python3_Development.Module_FOUND AND NOT BLOOM_SANITIZE)
    set(_cext_default ON)
  endif()
endif()
option(BLOOM_BUILD_PYTHON_EXTENSION "Build bloomkit._cext, the Python fast path (needs Python >= 3.10 headers)"
       ${_cext_default})
if(NOT BLOOM_BUILD_PYTHON_EXTENSION)
  return()
endif()
if(NOT Python3_Development.Module_FOUND)
  message(FATAL_ERROR "BLOOM_BUILD_PYTHON_EXTENSION is ON but no Python >= 3.10 headers were found "
                      "(Debian: python3-dev; or set Python3_EXECUTABLE)")
endif()
message(STATUS "Python extension bloomkit._cext: abi3 for Python >= 3.10, headers of ${Python3_EXECUTABLE}")

add_library(bloomkit_cext MODULE
  ${CMAKE_CURRENT_LIST_DIR}/module.c
  ${CMAKE_CURRENT_LIST_DIR}/core.c
  ${CMAKE_CURRENT_LIST_DIR}/key.c)
target_include_directories(bloomkit_cext PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_include_directories(bloomkit_cext SYSTEM PRIVATE ${Python3_INCLUDE_DIRS})
# 0x030A0000: the stable ABI of Python 3.10, whose limited API first has
# PyUnicode_AsUTF8AndSize (a str's UTF-8 without a copy).
target_compile_definitions(bloomkit_cext PRIVATE Py_LIMITED_API=0x030A0000)
set_target_properties(bloomkit_cext PROPERTIES
  PREFIX ""
  OUTPUT_NAME _cext
  SUFFIX ".abi3.so"
  C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
if(APPLE)
  target_link_options(bloomkit_cext PRIVATE "LINKER:-undefined,dynamic_lookup")
endif()
bloom_set_warnings(bloomkit_cext)
