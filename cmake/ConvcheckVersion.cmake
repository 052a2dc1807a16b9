# The version of convcheck: `git describe --tags` of the source tree (a leading "v" dropped, e.g.
# 0.2.0 or 0.2.0-3-gabc1234-dirty), else the project() version when there is no tag or no git.
# CONVCHECK_VERSION, when set (e.g. a source tarball or a container build without .git), wins.
# Used at configure time (CPack), at build time (app/cli/version.h) and at package time (CPack).

# convcheck_version(OUT SOURCE_DIR FALLBACK OVERRIDE): OUT = the version string.
function(convcheck_version out source_dir fallback override)
  if(NOT "${override}" STREQUAL "")
    set(${out} "${override}" PARENT_SCOPE)
    return()
  endif()
  set(version "${fallback}")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(
      COMMAND "${GIT_EXECUTABLE}" -C "${source_dir}" describe --tags --dirty --match "v[0-9]*"
      OUTPUT_VARIABLE described
      ERROR_QUIET
      RESULT_VARIABLE status
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(status EQUAL 0 AND described MATCHES "^v([0-9].*)$")
      set(version "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# convcheck_debian_version(OUT VERSION): a Debian upstream version that sorts like the git one:
# 0.2.0-3-gabc1234-dirty becomes 0.2.0+3.gabc1234.dirty (dpkg reads a hyphen as the revision).
function(convcheck_debian_version out version)
  set(debian "${version}")
  if(version MATCHES "^([^-]*)-(.*)$")
    string(REPLACE "-" "." rest "${CMAKE_MATCH_2}")
    set(debian "${CMAKE_MATCH_1}+${rest}")
  endif()
  set(${out} "${debian}" PARENT_SCOPE)
endfunction()
