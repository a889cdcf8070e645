# ctest driver: run COMMAND (a ;-list) and require exit status 1 with "error: " and MESSAGE (a
# regular expression) on stderr: a sample reports a bad input instead of aborting (status 134).
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "1" OR NOT err MATCHES "(^|\n)error: ${MESSAGE}" OR err MATCHES "terminate called")
  message(FATAL_ERROR "expected exit status 1 and 'error: ${MESSAGE}' on stderr, got ${rc}:\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
