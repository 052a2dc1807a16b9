# The release tarball's binaries: convcheck-portable and example-webhook-portable, linked from the
# same objects and project libraries as convcheck and example-webhook (nothing is compiled twice
# but their few own sources), with every library static but glibc and libgcc_s, against glibc 2.31,
# so that they run on any x86_64 Linux with glibc 2.31 or newer (Debian 11+, Ubuntu 20.04+,
# RHEL 9+). Included by CMakeLists.txt when CONVCHECK_PORTABLE_DEPS names the directory
# ci/portable-deps.sh made: a glibc 2.31 sysroot (Debian 11's libc6-dev), static libcurl and libfmt
# built from Debian 12's source packages, cpp-httplib's single header.
#
# How each library is linked:
#   libstdc++                    -static-libstdc++
#   libgcc_s                     shared: GCC 12's libgcc_eh.a calls _dl_find_object (glibc 2.35);
#                                glibc itself loads libgcc_s.so.1 to unwind, so it is everywhere
#                                glibc is
#   OpenSSL, zlib, re2, yaml-cpp, libyaml, pugixml, rapidcheck, jemalloc, nghttp2, brotli
#                                Debian 12's static libraries
#   libcurl                      ci/portable-deps.sh's (Debian's libcurl.a needs GSSAPI and LDAP,
#                                which Debian ships as shared libraries only)
#   fmt                          ci/portable-deps.sh's (Debian ships no libfmt.a)
#   cpp-httplib                  the single header (Debian ships a shared library and a header of
#                                declarations), for the example webhook
#   glibc                        the sysroot's 2.31; cmake/portable/glibc_compat.cpp supplies the
#                                three newer symbols the objects (compiled against Debian 12's
#                                headers) and libstdc++.a refer to
# Each link is followed by a check of the binary with objdump (cmake/portable/check_binary.cmake):
# glibc symbol versions at most 2.31, no shared library but glibc's and libgcc_s.
if(NOT IS_DIRECTORY "${CONVCHECK_PORTABLE_DEPS}/sysroot")
  message(FATAL_ERROR "CONVCHECK_PORTABLE_DEPS: '${CONVCHECK_PORTABLE_DEPS}' is not a directory "
                      "made by `bash ci/portable-deps.sh DIR`")
endif()
set(portable_sysroot ${CONVCHECK_PORTABLE_DEPS}/sysroot)
set(debian_libs /usr/lib/x86_64-linux-gnu)

# The static library (or link flag) for each library the project links; an unknown one stops the
# configuration, so that a new dependency is not linked shared by accident.
set(portable_static_CURL::libcurl
    ${CONVCHECK_PORTABLE_DEPS}/lib/libcurl.a ${debian_libs}/libnghttp2.a ${debian_libs}/libssl.a
    ${debian_libs}/libcrypto.a ${debian_libs}/libz.a)
set(portable_static_OpenSSL::SSL ${debian_libs}/libssl.a)
set(portable_static_OpenSSL::Crypto ${debian_libs}/libcrypto.a)
set(portable_static_ZLIB::ZLIB ${debian_libs}/libz.a)
set(portable_static_yaml-cpp ${debian_libs}/libyaml-cpp.a)
set(portable_static_fmt::fmt ${CONVCHECK_PORTABLE_DEPS}/lib/libfmt.a)
set(portable_static_pugixml ${debian_libs}/libpugixml.a)
set(portable_static_pugixml::pugixml ${debian_libs}/libpugixml.a)
set(portable_static_pugixml::shared ${debian_libs}/libpugixml.a)
set(portable_static_rapidcheck ${debian_libs}/librapidcheck.a)
set(portable_static_PkgConfig::RE2 ${debian_libs}/libre2.a)
set(portable_static_PkgConfig::JEMALLOC ${debian_libs}/libjemalloc.a)
set(portable_static_PkgConfig::HTTPLIB
    ${debian_libs}/libssl.a ${debian_libs}/libcrypto.a ${debian_libs}/libz.a
    ${debian_libs}/libbrotlienc.a ${debian_libs}/libbrotlidec.a ${debian_libs}/libbrotlicommon.a)
set(portable_static_Threads::Threads -pthread)
foreach(header_only nlohmann_json::nlohmann_json CLI11::CLI11 GTest::gtest)
  set(portable_static_${header_only} "")
endforeach()

# portable_link_closure(OUT PROJECT_TARGETS TARGET...): the files and flags that link TARGETs
# statically: each project library's archive and, in their place, the static form of every
# library they use; PROJECT_TARGETS, the project's own targets among them.
function(portable_link_closure out project_targets)
  set(result "")
  set(targets "")
  set(pending ${ARGN})
  set(seen "")
  while(pending)
    list(POP_FRONT pending item)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(item IN_LIST seen OR item STREQUAL "")
      continue()
    endif()
    list(APPEND seen "${item}")
    if(DEFINED portable_static_${item})
      list(APPEND result ${portable_static_${item}})
    elseif(TARGET ${item})
      get_target_property(type ${item} TYPE)
      get_target_property(imported ${item} IMPORTED)
      if(imported)
        message(FATAL_ERROR "Portable.cmake: no static form of ${item}: add it to the table")
      endif()
      list(APPEND targets ${item})
      if(type STREQUAL "STATIC_LIBRARY")
        list(APPEND result $<TARGET_FILE:${item}>)
        get_target_property(deps ${item} LINK_LIBRARIES)
      else()
        get_target_property(deps ${item} INTERFACE_LINK_LIBRARIES)
      endif()
      if(deps)
        list(APPEND pending ${deps})
      endif()
    elseif(item MATCHES "\\.a$")
      list(APPEND result ${item})
    elseif(item MATCHES "^/.*\\.so(\\.[0-9]+)*$")
      string(REGEX REPLACE "\\.so(\\.[0-9]+)*$" ".a" archive "${item}")  # e.g. libyaml
      if(NOT EXISTS "${archive}")
        message(FATAL_ERROR "Portable.cmake: no static form of ${item} (${archive})")
      endif()
      list(APPEND result ${archive})
    elseif(item MATCHES "^(dl|pthread|m|rt)$")
      list(APPEND result -l${item})
    else()
      message(FATAL_ERROR "Portable.cmake: no static form of ${item}")
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
  set(${project_targets} ${targets} PARENT_SCOPE)
endfunction()

# portable_executable(NAME LIKE): NAME built from the executable LIKE's own sources (compiled here
# again, as LIKE compiles them) and linked like LIKE, with static libraries.
function(portable_executable name like)
  get_target_property(relative ${like} SOURCES)
  get_target_property(dir ${like} SOURCE_DIR)
  set(sources "")
  foreach(source IN LISTS relative)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${dir})
    list(APPEND sources ${source})
  endforeach()
  # Not part of `all`: ci/package.sh builds them by name.
  add_executable(${name} EXCLUDE_FROM_ALL ${sources}
                 ${PROJECT_SOURCE_DIR}/cmake/portable/glibc_compat.cpp)
  set_target_properties(${name} PROPERTIES UNITY_BUILD OFF
                                           RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/portable)
  # LIKE's includes, definitions and options, with those of what it links; the single httplib.h
  # before Debian's header of declarations.
  get_target_property(links ${like} LINK_LIBRARIES)
  target_include_directories(${name} BEFORE PRIVATE ${CONVCHECK_PORTABLE_DEPS}/include)
  foreach(property INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS)
    set(values $<TARGET_PROPERTY:${like},${property}>)
    foreach(link IN LISTS links)
      if(TARGET ${link})
        list(APPEND values $<TARGET_PROPERTY:${link},INTERFACE_${property}>)
      endif()
    endforeach()
    set(${property} ${values})
  endforeach()
  target_include_directories(${name} PRIVATE ${INCLUDE_DIRECTORIES})
  target_compile_definitions(${name} PRIVATE ${COMPILE_DEFINITIONS})
  target_compile_options(${name} PRIVATE ${COMPILE_OPTIONS})
  portable_link_closure(closure project_targets ${links})
  add_dependencies(${name} ${project_targets})
  # glibc 2.31's start files (-B), libc.so, libc_nonshared.a, libm, libpthread, libdl and
  # libgcc_s.so.1 from the sysroot, searched (-L) before the directories gcc adds on its own,
  # which are Debian 12's; the archives in one group (their order does not matter).
  target_link_options(${name} PRIVATE --sysroot=${portable_sysroot}
                      -B${portable_sysroot}/usr/lib/x86_64-linux-gnu/
                      -L${portable_sysroot}/usr/lib/x86_64-linux-gnu
                      -L${portable_sysroot}/lib/x86_64-linux-gnu -static-libstdc++ -pthread)
  target_link_libraries(${name} PRIVATE -Wl,--start-group ${closure} -Wl,--end-group -ldl)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${name}> -DMAX_GLIBC=2.31
            -P ${PROJECT_SOURCE_DIR}/cmake/portable/check_binary.cmake
    VERBATIM)
endfunction()

portable_executable(convcheck-portable convcheck)
portable_executable(example-webhook-portable example-webhook)
