# SPDX-License-Identifier: Apache-2.0
# Installs the build tree BUILD_DIR into a fresh PREFIX (run by ctest as the
# setup of the consumer tests' fixture): what a user's `cmake --install` does.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed: ${rc}")
endif()
message(STATUS "installed into ${PREFIX}")
