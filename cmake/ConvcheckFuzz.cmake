# libFuzzer builds (CONVCHECK_FUZZ, clang only: the fuzz and asan presets): the libraries whose
# parsers take untrusted input get coverage instrumentation and the sanitizers, and
# convcheck_fuzzer(NAME LIBS...) makes a libFuzzer target of NAME.cpp. Included by the top-level
# CMakeLists.txt once every library exists; used by tests/fuzz (convcheck's own parser targets)
# and examples/inprocess (a C++ converter fuzzed in-process).
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CONVCHECK_FUZZ=ON needs clang++ (libFuzzer); use the fuzz preset")
endif()

set(CONVCHECK_FUZZ_SANITIZERS address,undefined)
# The libraries under test get coverage instrumentation and the sanitizers too, not only the
# drivers; UBSan findings abort so that libFuzzer reports them as crashes.
foreach(lib convcheck_go convcheck_apiserver_model convcheck_checks convcheck_crd
            convcheck_generators convcheck_pattern_gen convcheck_transport convcheck_reports
            convcheck_corpus)
  if(TARGET ${lib})
    target_compile_options(${lib} PRIVATE
      -fsanitize=fuzzer-no-link,${CONVCHECK_FUZZ_SANITIZERS} -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  endif()
endforeach()
# The in-process library runs under the sanitizers of the target it is linked into.
if(TARGET convcheck_inprocess)
  target_compile_options(convcheck_inprocess PRIVATE
    -fsanitize=${CONVCHECK_FUZZ_SANITIZERS} -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
endif()

# A libFuzzer target built from NAME.cpp of the calling folder, linked with the libraries after
# NAME, written beside the others in the build's fuzz/ folder (where ci/fuzz.sh runs them).
function(convcheck_fuzzer name)
  add_executable(${name} ${name}.cpp)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE
    -fsanitize=fuzzer,${CONVCHECK_FUZZ_SANITIZERS} -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,${CONVCHECK_FUZZ_SANITIZERS})
  target_link_libraries(${name} PRIVATE ${ARGN})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
endfunction()
