# ctest driver: translate INPUT with medusa-cc and compare with the expected files beside it.
#   -DMEDUSA_CC=... -DINPUT=<golden .cpp> -DOUT_DIR=... -DROOT=<source root for #line paths>
# Checks: exit status 0; every `#line N "<generated file>"` names the line after it; the .cu
# equals <stem>.medusa.cu.expected; --emit-model equals <stem>.model.json.expected.
get_filename_component(stem ${INPUT} NAME_WE)
get_filename_component(dir ${INPUT} DIRECTORY)
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

execute_process(COMMAND ${MEDUSA_CC} --backend=cuda --line-directive-root=${ROOT} -o ${OUT_DIR}
                        ${INPUT} --
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "medusa-cc failed (${rc}):\n${err}")
endif()
set(actual ${OUT_DIR}/${stem}.medusa.cu)

# #line directives back to the generated file must carry the right line numbers.
file(STRINGS ${actual} lines)
set(number 0)
foreach(line IN LISTS lines)
  math(EXPR number "${number} + 1")
  if(line MATCHES "^#line ([0-9]+) \"${stem}\\.medusa\\.cu\"$")
    math(EXPR next "${number} + 1")
    if(NOT CMAKE_MATCH_1 EQUAL next)
      message(FATAL_ERROR "${actual}:${number}: '${line}' should say ${next}")
    endif()
  endif()
endforeach()

function(compare expected actual_file what)
  file(READ ${expected} want)
  file(READ ${actual_file} got)
  if(NOT want STREQUAL got)
    execute_process(COMMAND diff -u ${expected} ${actual_file} OUTPUT_VARIABLE d)
    message(FATAL_ERROR "${what} differs from ${expected} (run scripts/update-golden.sh after "
                        "checking the change):\n${d}")
  endif()
endfunction()
compare(${dir}/${stem}.medusa.cu.expected ${actual} "generated code")

execute_process(COMMAND ${MEDUSA_CC} --emit-model --line-directive-root=${ROOT} ${INPUT} --
                RESULT_VARIABLE rc OUTPUT_FILE ${OUT_DIR}/${stem}.model.json ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "medusa-cc --emit-model failed (${rc}):\n${err}")
endif()
compare(${dir}/${stem}.model.json.expected ${OUT_DIR}/${stem}.model.json "program model")
