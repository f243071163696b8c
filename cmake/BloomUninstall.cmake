# SPDX-License-Identifier: Apache-2.0
# The `uninstall` target: removes every file that the install manifests in
# BUILD_DIR list (install_manifest.txt from `cmake --install build`, and
# install_manifest_<component>.txt from `--component X`), under $DESTDIR if
# set, then the directories of bloom's own that this leaves empty
# (include/bloom, lib/cmake/bloom, the bloomkit package, ...). Directories
# shared with other software (bin/, lib/, share/man/man1) are never removed.
#   cmake -DBUILD_DIR=<build> -P BloomUninstall.cmake
file(GLOB _manifests "${BUILD_DIR}/install_manifest.txt" "${BUILD_DIR}/install_manifest_*.txt")
if(NOT _manifests)
  message(STATUS "uninstall: nothing to do (no install_manifest*.txt in ${BUILD_DIR}: nothing was installed from it)")
  return()
endif()

set(_files)
foreach(_manifest IN LISTS _manifests)
  file(STRINGS "${_manifest}" _listed)
  list(APPEND _files ${_listed})
endforeach()
list(REMOVE_DUPLICATES _files)

set(_dirs)
set(_removed 0)
foreach(_file IN LISTS _files)
  set(_path "$ENV{DESTDIR}${_file}")
  if(IS_SYMLINK "${_path}" OR EXISTS "${_path}")
    file(REMOVE "${_path}")
    math(EXPR _removed "${_removed} + 1")
    message(STATUS "uninstall: removed ${_path}")
  endif()
  get_filename_component(_dir "${_path}" DIRECTORY)
  # Python leaves compiled copies of an imported package's modules beside them.
  if(_file MATCHES "\\.py$")
    get_filename_component(_stem "${_file}" NAME_WE)
    file(GLOB _pyc "${_dir}/__pycache__/${_stem}.*.pyc")
    if(_pyc)
      file(REMOVE ${_pyc})
    endif()
    list(APPEND _dirs "${_dir}/__pycache__")
  endif()
  list(APPEND _dirs "${_dir}")
endforeach()

# Empty directories named for bloom, deepest first (lib/bloom/redis before
# lib/bloom).
set(_candidates)
foreach(_dir IN LISTS _dirs)
  get_filename_component(_name "${_dir}" NAME)
  while(_name MATCHES "^(bloom|bloomkit|__pycache__|redis)$")
    list(APPEND _candidates "${_dir}")
    get_filename_component(_dir "${_dir}" DIRECTORY)
    get_filename_component(_name "${_dir}" NAME)
  endwhile()
endforeach()
list(REMOVE_DUPLICATES _candidates)
list(SORT _candidates ORDER DESCENDING)
foreach(_dir IN LISTS _candidates)
  if(IS_DIRECTORY "${_dir}")
    file(GLOB _left "${_dir}/*" "${_dir}/.*")
    if(NOT _left)
      file(REMOVE_RECURSE "${_dir}")
      message(STATUS "uninstall: removed empty directory ${_dir}")
    endif()
  endif()
endforeach()
file(REMOVE ${_manifests})
message(STATUS "uninstall: ${_removed} files removed")
