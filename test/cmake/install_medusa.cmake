# Fixture setup: installs the Medusa build once into PREFIX for the configure tests that share it.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${MEDUSA_BUILD_DIR} --prefix ${PREFIX}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installing ${MEDUSA_BUILD_DIR} into ${PREFIX} failed (${rc}):\n${out}\n${err}")
endif()
