# Installs the Medusa build into a scratch prefix, builds the consumer project against it, runs
# the program, edits the EMV source, rebuilds and checks the program changed.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(src ${WORK_DIR}/src)
set(build ${WORK_DIR}/build)
run(${CMAKE_COMMAND} --install ${MEDUSA_BUILD_DIR} --prefix ${prefix})
file(COPY ${CONSUMER_SOURCE_DIR}/ DESTINATION ${src})

run(${CMAKE_COMMAND} -S ${src} -B ${build} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${build})
run(${build}/ring_rank_host)
if(NOT last_output MATCHES "ring_rank: OK damping=0.85")
  message(FATAL_ERROR "unexpected output of the consumer program:\n${last_output}")
endif()

# Editing the user's source must re-run medusa-cc and rebuild.
file(READ ${src}/ring_rank.cpp text)
string(REPLACE "kDamping = 0.85f" "kDamping = 0.5f" text "${text}")
file(WRITE ${src}/ring_rank.cpp "${text}")
run(${CMAKE_COMMAND} --build ${build})
run(${build}/ring_rank_host)
if(NOT last_output MATCHES "ring_rank: OK damping=0.5")
  message(FATAL_ERROR "the edit did not reach the rebuilt program:\n${last_output}")
endif()
message(STATUS "consumer project built, ran, and rebuilt after an edit")
