# Install rules and CPack: `cmake --install` puts convcheck, its man page, README, LICENSE and the
# example CRDs under the prefix; `cpack` (run in the build directory) makes a .deb and a .tar.gz.
include(GNUInstallDirs)
# `cmake --install` and cpack package what is built and do not build `all` first (the test suite):
# build convcheck and convcheck_man_page (or everything) before.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS convcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT convcheck)

# convcheck.1: the man page, written from the binary's own --help texts (so it cannot drift).
find_program(GZIP_EXECUTABLE gzip)
set(CONVCHECK_MAN_PAGE ${CMAKE_CURRENT_BINARY_DIR}/man/convcheck.1)
add_custom_command(
  OUTPUT ${CONVCHECK_MAN_PAGE} ${CONVCHECK_MAN_PAGE}.gz
  COMMAND ${CMAKE_COMMAND} -DCONVCHECK=$<TARGET_FILE:convcheck> -DOUTPUT=${CONVCHECK_MAN_PAGE}
          -DGZIP=${GZIP_EXECUTABLE} -P ${PROJECT_SOURCE_DIR}/cmake/WriteManPage.cmake
  DEPENDS convcheck ${PROJECT_SOURCE_DIR}/cmake/WriteManPage.cmake
  COMMENT "Writing the convcheck(1) man page from --help"
  VERBATIM)
add_custom_target(convcheck_man_page ALL DEPENDS ${CONVCHECK_MAN_PAGE})
if(GZIP_EXECUTABLE)
  install(FILES ${CONVCHECK_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          COMPONENT convcheck)
else()
  install(FILES ${CONVCHECK_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT convcheck)
endif()

install(FILES README.md LICENSE docs/install.md docs/reference.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT convcheck)
# The CI runner script the GitLab template calls (the GitHub Action calls the repository's copy).
install(PROGRAMS ci/convcheck-ci.sh DESTINATION ${CMAKE_INSTALL_DATADIR}/convcheck
        COMPONENT convcheck)
install(DIRECTORY examples/crds DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT convcheck)

set(CPACK_PACKAGE_NAME convcheck)
set(CPACK_PACKAGE_VENDOR "convcheck")
set(CPACK_PACKAGE_CONTACT "convcheck maintainers <convcheck@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "conformance and fuzz testing of Kubernetes CRD conversion webhooks")
set(CPACK_PACKAGE_DESCRIPTION
    "convcheck reads a CustomResourceDefinition, generates valid objects for every version from its\
 schemas, sends ConversionReviews to the conversion webhook over HTTPS as kube-apiserver does and\
 checks round trips, metadata, ordering, schema validity and more; JUnit and JSON reports.")
set(CPACK_PACKAGE_VERSION "${CONVCHECK_BUILD_VERSION}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME
    "convcheck-${CONVCHECK_BUILD_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Runtime dependencies from the binary's shared libraries (dpkg-shlibdeps, from dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# kubectl feeds it CRDs from a cluster (kubectl get crd NAME -o yaml | convcheck run --crd -).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "kubectl | kubernetes-client")
# The version is read again when cpack runs (a tag made after configuring still counts).
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_BINARY_DIR}/CPackProjectConfig.cmake)
file(CONFIGURE OUTPUT ${CPACK_PROJECT_CONFIG_FILE} @ONLY CONTENT [=[
# Written by cmake/Packaging.cmake: cpack reads it at packaging time.
include("@PROJECT_SOURCE_DIR@/cmake/ConvcheckVersion.cmake")
convcheck_version(version "@PROJECT_SOURCE_DIR@" "@PROJECT_VERSION@" "@CONVCHECK_VERSION@")
convcheck_debian_version(debian_version "${version}")
set(CPACK_PACKAGE_VERSION "${version}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${debian_version}")
set(CPACK_PACKAGE_FILE_NAME "convcheck-${version}-@CMAKE_SYSTEM_NAME@-@CMAKE_SYSTEM_PROCESSOR@")
]=])
include(CPack)
