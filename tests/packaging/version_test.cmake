# `convcheck --version` prints the source tree's git describe --tags (else the project version),
# and cmake/ConvcheckVersion.cmake reads tags, commits after a tag, local changes and overrides.
# Run as a test: cmake -DCONVCHECK=... -DSOURCE_DIR=... -DFALLBACK=... -DOVERRIDE=... -P this file.
include("${SOURCE_DIR}/cmake/ConvcheckVersion.cmake")

function(expect what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(FATAL_ERROR "${what}: got '${actual}', expected '${expected}'")
  endif()
endfunction()

convcheck_version(tree "${SOURCE_DIR}" "${FALLBACK}" "${OVERRIDE}")
execute_process(COMMAND "${CONVCHECK}" --version OUTPUT_VARIABLE printed
                OUTPUT_STRIP_TRAILING_WHITESPACE)
expect("convcheck --version" "${printed}" "convcheck ${tree}")

# A scratch repository: no tag, a tag, a commit after it, a local change, an override, no git.
set(repo "${CMAKE_CURRENT_BINARY_DIR}/version-test-repo")
file(REMOVE_RECURSE "${repo}")
file(MAKE_DIRECTORY "${repo}")
function(git)
  execute_process(COMMAND git -C "${repo}" -c user.name=t -c user.email=t@example.invalid
                          -c commit.gpgsign=false -c tag.gpgsign=false ${ARGN}
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "git ${ARGN} failed")
  endif()
endfunction()

convcheck_version(v "${repo}" 9.9.9 "")
expect("not a git tree" "${v}" 9.9.9)
git(init -q)
file(WRITE "${repo}/f" "1\n")
git(add f)
git(commit -q -m one)
convcheck_version(v "${repo}" 9.9.9 "")
expect("no tag" "${v}" 9.9.9)
git(tag v1.2.3)
convcheck_version(v "${repo}" 9.9.9 "")
expect("on the tag" "${v}" 1.2.3)
file(WRITE "${repo}/f" "2\n")
git(commit -q -am two)
execute_process(COMMAND git -C "${repo}" rev-parse --short HEAD OUTPUT_VARIABLE sha
                OUTPUT_STRIP_TRAILING_WHITESPACE)
convcheck_version(v "${repo}" 9.9.9 "")
expect("a commit after the tag" "${v}" "1.2.3-1-g${sha}")
convcheck_debian_version(d "${v}")
expect("its Debian version" "${d}" "1.2.3+1.g${sha}")
file(WRITE "${repo}/f" "3\n")
convcheck_version(v "${repo}" 9.9.9 "")
expect("a local change" "${v}" "1.2.3-1-g${sha}-dirty")
convcheck_debian_version(d "${v}")
expect("its Debian version" "${d}" "1.2.3+1.g${sha}.dirty")
convcheck_version(v "${repo}" 9.9.9 "2.0.0")
expect("an override" "${v}" 2.0.0)
file(REMOVE_RECURSE "${repo}")
