# ctest driver: run FIRST and SECOND (each a |-separated command line), require both to validate
# and to report the same "<sample>: N supersteps": two engines that schedule the same supersteps
# (priority buckets on the host and on CUDA). With -DSAME_EDGES=ON, also the same "N edges visited":
# the frontiers' out-edges, which the CUDA bucket step counts itself (engine/priority_frontier.cuh).
foreach(which FIRST SECOND)
  string(REPLACE "|" ";" command "${${which}}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR NOT out MATCHES "validation: PASSED" OR NOT out MATCHES ": ([0-9]+) supersteps")
    message(FATAL_ERROR "${command}: expected exit status 0, 'validation: PASSED' and 'N supersteps', got ${rc}:\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(${which}_steps ${CMAKE_MATCH_1})
  string(REGEX MATCH "\\(([0-9]+) edges visited" edges_match "${out}")
  set(${which}_edges "${CMAKE_MATCH_1}")
  set(${which}_out "${out}")
endforeach()
if(NOT FIRST_steps STREQUAL SECOND_steps)
  message(FATAL_ERROR "different superstep counts: ${FIRST_steps} (${FIRST}) and ${SECOND_steps} (${SECOND})\n"
                      "first:\n${FIRST_out}\nsecond:\n${SECOND_out}")
endif()
if(SAME_EDGES AND (FIRST_edges STREQUAL "" OR NOT FIRST_edges STREQUAL SECOND_edges))
  message(FATAL_ERROR "different edges visited: '${FIRST_edges}' (${FIRST}) and '${SECOND_edges}' (${SECOND})\n"
                      "first:\n${FIRST_out}\nsecond:\n${SECOND_out}")
endif()
message(STATUS "both ran ${FIRST_steps} supersteps, ${FIRST_edges} and ${SECOND_edges} edges visited")
