# convcheck_discover_tests(TARGET [LABELS label...] [TIMEOUT seconds] [PROPERTIES ...]
#                          [SLOW gtest-filter...])
# gtest_discover_tests for one test program of the suite. The tests the SLOW filters name (a search
# with a time budget, a test that waits on the clock or sleeps before a signal) also get the label
# `slow`: the default suite (`ctest -LE slow`) leaves them out and ci/test.sh runs them as a step of
# their own. Filters are gtest's: `Suite.Test`, `Suite.*`, `Prefix/Suite.*/Param`.
include(GoogleTest)

function(convcheck_discover_tests target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;SLOW;PROPERTIES" ${ARGN})
  set(properties ${ARG_PROPERTIES})
  if(ARG_TIMEOUT)
    list(APPEND properties TIMEOUT ${ARG_TIMEOUT})
  endif()
  if(ARG_SLOW)
    list(JOIN ARG_SLOW ":" slow_filter)
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 120 TEST_FILTER "${slow_filter}"
                         TEST_LIST ${target}_slow_tests PROPERTIES ${properties})
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 120 TEST_FILTER "-${slow_filter}"
                         TEST_LIST ${target}_tests PROPERTIES ${properties})
  else()
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 120 TEST_LIST ${target}_tests
                         PROPERTIES ${properties})
  endif()
  # Labels are set once the discovered tests are known (gtest_discover_tests passes no list-valued
  # property such as two labels): ctest reads this file after the discovered tests' own.
  set(slow_labels ${ARG_LABELS} slow)
  set(script "")
  if(ARG_LABELS)
    string(APPEND script "if(${target}_tests)\n"
           "  set_tests_properties(\${${target}_tests} PROPERTIES LABELS \"${ARG_LABELS}\")\n"
           "endif()\n")
  endif()
  if(ARG_SLOW)
    string(APPEND script "if(${target}_slow_tests)\n"
           "  set_tests_properties(\${${target}_slow_tests} PROPERTIES LABELS \"${slow_labels}\")\n"
           "endif()\n")
  endif()
  if(script)
    set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
    file(WRITE "${labels_file}" "${script}")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
  endif()
endfunction()
