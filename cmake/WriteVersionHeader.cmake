# Build-time step (cmake -P): writes app/cli/version.h from app/cli/version.h.in with the version
# of the source tree as it is now (a new tag or commit needs no reconfigure). The file is rewritten
# only when the version changed, so an unchanged version recompiles nothing.
# Variables: SOURCE_DIR, OUTPUT, FALLBACK (project version), OVERRIDE (CONVCHECK_VERSION).
include("${CMAKE_CURRENT_LIST_DIR}/ConvcheckVersion.cmake")
convcheck_version(CONVCHECK_VERSION "${SOURCE_DIR}" "${FALLBACK}" "${OVERRIDE}")
configure_file("${SOURCE_DIR}/app/cli/version.h.in" "${OUTPUT}" @ONLY)
