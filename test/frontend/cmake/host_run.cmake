# ctest driver: translate INPUT for the host backend, compile it with the C++ compiler against
# the runtime library, run it and require exit status 0 (the programs check their own results).
#   -DMEDUSA_CC= -DINPUT= -DOUT_DIR= -DCXX= -DINCLUDE_DIR= -DRUNTIME_LIB= -DOPENMP_FLAGS=
#   [-DEXTRA_INCLUDES=a;b] [-DEXTRA_SOURCES=a;b] [-DCOMPILE_ONLY=ON]
#   RUNTIME_LIB may list several libraries separated by '|'.
string(REPLACE "|" ";" RUNTIME_LIB "${RUNTIME_LIB}")
get_filename_component(stem ${INPUT} NAME_WE)
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
execute_process(COMMAND ${MEDUSA_CC} --backend=host -o ${OUT_DIR} ${INPUT} --
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "medusa-cc failed (${rc}):\n${err}")
endif()
set(includes -I${INCLUDE_DIR})
foreach(i IN LISTS EXTRA_INCLUDES)
  list(APPEND includes -I${i})
endforeach()
separate_arguments(openmp UNIX_COMMAND "${OPENMP_FLAGS}")
if(COMPILE_ONLY)
  set(link -fsyntax-only)
else()
  set(link ${EXTRA_SOURCES} ${RUNTIME_LIB} -o ${OUT_DIR}/${stem})
endif()
execute_process(COMMAND ${CXX} -std=c++17 -O1 -Wall ${openmp} ${includes}
                        ${OUT_DIR}/${stem}.medusa.cpp ${link}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling the generated ${stem}.medusa.cpp failed (${rc}):\n${err}")
endif()
if(COMPILE_ONLY)
  return()
endif()
execute_process(COMMAND ${OUT_DIR}/${stem} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${stem} printed:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the translated ${stem} exited with ${rc}")
endif()
