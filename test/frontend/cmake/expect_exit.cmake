# ctest driver: run COMMAND (a ;-list) and require exit status EXPECTED.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECTED)
  message(FATAL_ERROR "expected exit status ${EXPECTED}, got ${rc}:\n${out}${err}")
endif()
