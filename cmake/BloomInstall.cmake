# SPDX-License-Identifier: Apache-2.0
# Headers, both libraries, the CMake package (bloom::bloom) and bloom.pc.
# Install components (`cmake --install build --component X`), one per
# package a distribution would make:
#   runtime      libbloomfilter.so.1 (and the versioned file it links to)
#   development  headers, the libbloomfilter.so link, libbloomfilter.a, the
#                CMake package, the pkg-config files
#   cli          the bloom tool, its man pages and shell completions (tools/)
#   python       the bloomkit package (python/)
#   redis        bloom_redis.so (redis/)
install(DIRECTORY include/bloom DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)

install(TARGETS bloom bloom_shared bloom_static EXPORT bloomTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(BLOOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bloom)
install(EXPORT bloomTargets NAMESPACE bloom:: DESTINATION ${BLOOM_CMAKE_DIR} COMPONENT development)
configure_package_config_file(cmake/bloomConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/bloomConfig.cmake INSTALL_DESTINATION ${BLOOM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/bloomConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/bloomConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/bloomConfigVersion.cmake
        DESTINATION ${BLOOM_CMAKE_DIR} COMPONENT development)

# pkg-config: bloom.pc (the shared library; `--static` adds Libs.private for
# a fully static link with -static) and bloom-static.pc (libbloomfilter.a by
# path, the rest shared). Outside /usr both find their prefix from their own
# location (${pcfiledir}), so they are right for whatever --prefix
# `cmake --install` is given (the prefix is often chosen only then) and for a
# moved tree. Absolute install dirs are used as they are; with an absolute
# libdir the file cannot find the prefix from its own place, so the install
# step writes in the prefix it installs to (which a relative includedir
# hangs from), not the one configured.
set(_bloom_pc_prefix_token "@BLOOM_INSTALL_PREFIX@")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(BLOOM_PC_PREFIX "${_bloom_pc_prefix_token}")
  set(_bloom_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  file(RELATIVE_PATH _up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/+$" "" _up "${_up}")
  set(BLOOM_PC_PREFIX "\${pcfiledir}/${_up}")
  set(_bloom_pc_dir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(BLOOM_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(BLOOM_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
# Two variants of each file; the install step picks one for the real prefix.
# Outside /usr the library is not on the loader's default path (and /usr/local
# is only in ld.so.cache after ldconfig), so there Libs carries an rpath and
# `cc app.c $(pkg-config --cflags --libs bloom) && ./a.out` runs as built.
# The /usr variant names its prefix plainly, as distribution .pc files do (and
# so pkg-config recognises -I/usr/include as a system directory).
set(_bloom_pc_relocatable_prefix "${BLOOM_PC_PREFIX}")
foreach(_variant usr rpath)
  if(_variant STREQUAL "rpath")
    set(BLOOM_PC_RPATH " -Wl,-rpath,\${libdir}")
    set(BLOOM_PC_PREFIX "${_bloom_pc_relocatable_prefix}")
  else()
    set(BLOOM_PC_RPATH "")
    set(BLOOM_PC_PREFIX "/usr")
  endif()
  configure_file(bloom.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_variant}/bloom.pc @ONLY)
  configure_file(cmake/bloom-static.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_variant}/bloom-static.pc @ONLY)
endforeach()
install(CODE "
  if(CMAKE_INSTALL_PREFIX MATCHES \"^/usr/*$\")
    set(_bloom_pc_variant usr)
  else()
    set(_bloom_pc_variant rpath)
  endif()
  foreach(_pc bloom bloom-static)
    file(READ \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/\${_bloom_pc_variant}/\${_pc}.pc\" _text)
    string(REPLACE \"${_bloom_pc_prefix_token}\" \"\${CMAKE_INSTALL_PREFIX}\" _text \"\${_text}\")
    file(WRITE \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/installed/\${_pc}.pc\" \"\${_text}\")
    file(INSTALL DESTINATION \"${_bloom_pc_dir}\" TYPE FILE
         FILES \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/installed/\${_pc}.pc\")
  endforeach()" COMPONENT development)

# `cmake --build build --target uninstall`: removes what the install
# manifests of this build directory list (install_manifest.txt and the
# per-component install_manifest_<component>.txt).
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -P ${PROJECT_SOURCE_DIR}/cmake/BloomUninstall.cmake
  COMMENT "Removing the files the install manifests in ${CMAKE_BINARY_DIR} list"
  VERBATIM)
