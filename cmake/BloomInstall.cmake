# Headers, both libraries, the CMake package (bloom::bloom) and bloom.pc.
install(DIRECTORY include/bloom DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(TARGETS bloom bloom_shared bloom_static EXPORT bloomTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(BLOOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bloom)
install(EXPORT bloomTargets NAMESPACE bloom:: DESTINATION ${BLOOM_CMAKE_DIR})
configure_package_config_file(cmake/bloomConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/bloomConfig.cmake INSTALL_DESTINATION ${BLOOM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/bloomConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/bloomConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/bloomConfigVersion.cmake
        DESTINATION ${BLOOM_CMAKE_DIR})

# Absolute install dirs are used as they are; relative ones hang off prefix.
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(BLOOM_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(BLOOM_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
configure_file(bloom.pc.in ${CMAKE_CURRENT_BINARY_DIR}/bloom.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/bloom.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
