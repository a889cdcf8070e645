# ctest driver for the fault tests of distributed runs: run COMMAND (a ;-list, an mpirun line) and
# require that the whole job ends with a non-zero status within SECONDS (no rank left waiting for
# a failed one) and that its output matches MESSAGE (a regular expression naming rank and cause).
string(TIMESTAMP start "%s" UTC)
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${SECONDS})
string(TIMESTAMP end "%s" UTC)
math(EXPR elapsed "${end} - ${start}")
if(rc MATCHES "timeout")
  message(FATAL_ERROR "the job still ran after ${SECONDS} s: a rank waits for a failed one\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
if(rc STREQUAL "0" OR NOT "${out}${err}" MATCHES "${MESSAGE}")
  message(FATAL_ERROR "expected a non-zero exit status and '${MESSAGE}', got ${rc} after ${elapsed} s:\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "the job ended with status ${rc} after ${elapsed} s")
