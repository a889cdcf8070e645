# ctest driver: run FIRST and SECOND (each a |-separated command line), require both to validate
# and to report the same "<sample>: N supersteps": two engines that schedule the same supersteps
# (priority buckets on the host and on CUDA).
foreach(which FIRST SECOND)
  string(REPLACE "|" ";" command "${${which}}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR NOT out MATCHES "validation: PASSED" OR NOT out MATCHES ": ([0-9]+) supersteps")
    message(FATAL_ERROR "${command}: expected exit status 0, 'validation: PASSED' and 'N supersteps', got ${rc}:\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(${which}_steps ${CMAKE_MATCH_1})
  set(${which}_out "${out}")
endforeach()
if(NOT FIRST_steps STREQUAL SECOND_steps)
  message(FATAL_ERROR "different superstep counts: ${FIRST_steps} (${FIRST}) and ${SECOND_steps} (${SECOND})\n"
                      "first:\n${FIRST_out}\nsecond:\n${SECOND_out}")
endif()
message(STATUS "both ran ${FIRST_steps} supersteps")
