# Builds the programming guide's main, extracted from docs/programming-guide.md between its
# "guide-main" markers, against the package installed in PREFIX (by the medusa_installed fixture,
# or here when INSTALL is set), for the host backend, and runs it on small graph files: weights as
# loaded, unit weights for an unweighted file, and "error: ..." with exit status 1 for a bad file or
# a weight the field cannot hold.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# Runs the program on a graph file with `text` and requires exit status `status` and `pattern` in
# its output (stdout and stderr together).
function(expect name text status pattern)
  file(WRITE ${WORK_DIR}/${name} "${text}")
  execute_process(COMMAND ${build}/guide_main_host ${WORK_DIR}/${name}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${status}" OR NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: expected exit status ${status} and output matching '${pattern}', "
                        "got ${rc}:\n${out}${err}")
  endif()
endfunction()

file(READ ${GUIDE} guide)
string(REGEX MATCH "<!-- guide-main: begin -->\n```cpp\n(.*)```\n<!-- guide-main: end -->" block "${guide}")
if(NOT block)
  message(FATAL_ERROR "${GUIDE}: no ```cpp block between <!-- guide-main: begin --> and <!-- guide-main: end -->")
endif()

set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR}/src ${build})
if(INSTALL)  # (else the medusa_installed fixture has installed into PREFIX)
  run(${CMAKE_COMMAND} -DMEDUSA_BUILD_DIR=${MEDUSA_BUILD_DIR} -DPREFIX=${PREFIX}
      -P ${CMAKE_CURRENT_LIST_DIR}/install_medusa.cmake)
endif()
file(COPY ${PROJECT_DIR}/ DESTINATION ${WORK_DIR}/src)
file(WRITE ${WORK_DIR}/src/guide_main.cpp "${CMAKE_MATCH_1}")
run(${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${build} -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${build})

# 0 -> 1 (3), 1 -> 2 (4), 0 -> 2 (10), 2 -> 3 (1): distances 0 3 7 8.
expect(roads.gr "p sp 4 4\na 1 2 3\na 2 3 4\na 1 3 10\na 3 4 1\n" 0 "\n0 0\n1 3\n2 7\n3 8\n")
# No weights in the file: every edge weighs 1 (the guide's default_weight).
expect(plain.txt "0 1\n1 2\n0 2\n2 3\n" 0 "\n0 0\n1 1\n2 1\n3 2\n")
expect(negative.mtx "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 5\n2 3 -1.5\n" 1
       "^error: [^\n]*negative.mtx:0: edge 1 \\(1 -> 2[^\n]*has weight -1.5[^\n]*unsigned 32-bit integer")
expect(broken.mtx "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n" 1
       "^error: [^\n]*broken.mtx")
message(STATUS "the guide's main built from the guide, ran, and reported bad inputs with exit status 1")
